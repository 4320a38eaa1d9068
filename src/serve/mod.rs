//! `termdoku serve`: the player over SSH (design.md, "termdoku serve").

pub mod input;
