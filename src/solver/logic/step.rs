//! A logical step: what a technique found, how to show it, and how to say it.
//! This is the contract between the logic solver, the CLI (`hint`, `explain`) and the player.

use crate::geometry::{Cell, HouseId};

/// A digit in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    pub cell: Cell,
    pub digit: u8,
}

impl Candidate {
    pub fn new(cell: Cell, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }
}

/// How the player should style a highlighted thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Cells or candidates that make up the pattern.
    Defining,
    /// Fish base sets.
    Base,
    /// Fish cover sets.
    Cover,
    Fin,
    Pivot,
    Pincer,
    ColorA,
    ColorB,
    Placement,
    Elimination,
}

/// Strong ("if not a then b") or weak ("if a then not b") link of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    Strong,
    Weak,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Cell(Cell),
    Candidate(Candidate),
    House(HouseId),
    Link(Candidate, Candidate, LinkKind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Highlight {
    pub target: Target,
    pub role: Role,
}

/// The rungs of the hint ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Detail {
    /// Where to look ("look at row 3").
    Nudge,
    /// What to look for ("there is a naked pair in row 3").
    Technique,
    /// The whole step with cells and digits.
    Full,
}
