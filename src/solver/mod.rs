//! Solvers: the exact solver (and its 9x9 fast path), the human-style logic solver and the
//! rating built on it.
//!
//! The solvers run on whatever a user loads, so they never panic on input and hold no
//! unsafe code; tests may unwrap.
#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod exact;
pub mod logic;
pub mod rate;
pub mod rules;

pub use exact::{solve, Solutions};
