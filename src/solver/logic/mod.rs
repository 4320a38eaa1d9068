//! The human-style solver: one file per technique family, each with pure `find_*` functions
//! over a read-only [`Grid`](crate::puzzle::Grid) that report [`Step`]s.

pub mod step;

pub use step::{Candidate, Detail, Highlight, LinkKind, Role, Target};
