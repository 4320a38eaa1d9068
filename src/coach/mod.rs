//! The coach: technique names and where they occur, positions with pencil marks, and
//! drills (positions where a chosen technique is the next logical step).

pub mod bank;
pub mod drill;
pub mod grade;
pub mod marks;
pub mod names;
pub mod pages;
pub mod why;
