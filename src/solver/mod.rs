//! Solvers: the exact solver (and its 9x9 fast path), the human-style logic solver and the
//! rating built on it.

pub mod exact;
pub mod fast9;
pub mod logic;
pub mod planes;
pub mod rate;

pub use exact::{solve, Solutions};
