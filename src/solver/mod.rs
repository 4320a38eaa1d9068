//! Solvers: the exact solver (and its 9x9 fast path).

pub mod exact;
pub mod fast9;
pub mod logic;
pub mod planes;

pub use exact::{solve, Solutions};
