//! termdoku: a terminal Sudoku player and solving coach.
//!
//! Modules depend one way: `geometry -> puzzle -> format`, `puzzle -> solver`, then the
//! commands in `cli`.
//!
//! The library runs on whatever a user loads: it never panics on input, so outside tests it
//! may not unwrap, expect or panic (errors are values; see `format::ParseError`).
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod batch;
pub mod cli;
pub mod coach;
pub mod export;
pub mod format;
pub mod game;
pub mod generate;
pub mod geometry;
pub mod print;
pub mod progress;
pub mod puzzle;
pub mod serve;
pub mod solver;
#[cfg(test)]
mod testing;
pub mod tui;
