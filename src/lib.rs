//! termdoku: a terminal Sudoku player and solving coach.
//!
//! Modules depend one way: `geometry -> puzzle -> format`, `puzzle -> solver`, then the
//! commands in `cli`.

pub mod batch;
pub mod cli;
pub mod export;
pub mod format;
pub mod game;
pub mod generate;
pub mod geometry;
pub mod progress;
pub mod puzzle;
pub mod solver;
pub mod tui;
