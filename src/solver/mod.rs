//! Solvers: the exact solver (and its 9x9 fast path), the human-style logic solver and the
//! rating built on it.
//!
//! The solvers run on whatever a user loads, so they never panic on input (the crate-wide
//! lints in lib.rs and Cargo.toml hold them to it).

pub mod exact;
pub mod logic;
pub mod rate;
pub mod rules;

pub use exact::{solve, Solutions};
