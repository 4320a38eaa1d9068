//! The candidate grid: placed digits plus pencil marks, shared by the logic solver and the
//! game.

use crate::geometry::{Cell, Digits, Geometry};
use crate::puzzle::Puzzle;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    geometry: Arc<Geometry>,
    values: Vec<u8>,
    candidates: Vec<Digits>,
    /// Cells whose digit is a given (not placed while solving): avoidable rectangles may
    /// only use placed ones. Unknown origins count as givens, the safe side.
    given: Vec<bool>,
}

impl Grid {
    /// The givens placed, every other cell holding each digit none of its peers holds.
    pub fn from_puzzle(puzzle: &Puzzle) -> Grid {
        Grid::from_values(puzzle.geometry_arc(), &puzzle.givens)
    }

    pub fn from_values(geometry: Arc<Geometry>, values: &[u8]) -> Grid {
        let all = geometry.all_digits();
        let n = geometry.cell_count();
        let mut grid = Grid {
            geometry,
            values: vec![0; n],
            candidates: vec![all; n],
            given: vec![false; n],
        };
        for (c, &d) in values.iter().enumerate().take(n) {
            if d != 0 {
                grid.place(c, d);
                grid.given[c] = true;
            }
        }
        grid
    }

    /// A grid with exactly these values and candidates (no peer cleaning).
    pub fn from_parts(geometry: Arc<Geometry>, values: Vec<u8>, candidates: Vec<Digits>) -> Grid {
        let given = values.iter().map(|&v| v != 0).collect();
        Grid {
            geometry,
            values,
            candidates,
            given,
        }
    }

    /// Marks which placed cells are givens (`given[c]`); the others count as placed while
    /// solving.
    pub fn with_givens(mut self, given: &[bool]) -> Grid {
        for (c, slot) in self.given.iter_mut().enumerate() {
            *slot = self.values[c] != 0 && given.get(c).copied().unwrap_or(true);
        }
        self
    }

    /// True when the cell's digit is a given.
    pub fn is_given(&self, cell: Cell) -> bool {
        self.given.get(cell).copied().unwrap_or(false)
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn geometry_arc(&self) -> Arc<Geometry> {
        Arc::clone(&self.geometry)
    }

    /// The placed digit, or 0.
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Candidates of an empty cell; the placed digit alone for a filled one.
    pub fn candidates(&self, cell: Cell) -> Digits {
        self.candidates[cell]
    }

    pub fn all_candidates(&self) -> &[Digits] {
        &self.candidates
    }

    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Places `digit` and removes it from the peers' candidates.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = Digits::single(digit);
        let geometry = Arc::clone(&self.geometry);
        for &p in geometry.peers(cell) {
            if self.values[p] == 0 {
                self.candidates[p].remove(digit);
            }
        }
    }

    /// Removes a candidate; true when it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: u8) -> bool {
        let had = self.values[cell] == 0 && self.candidates[cell].contains(digit);
        if had {
            self.candidates[cell].remove(digit);
        }
        had
    }

    pub fn set_candidates(&mut self, cell: Cell, digits: Digits) {
        if self.values[cell] == 0 {
            self.candidates[cell] = digits;
        }
    }

    /// Empty cells with no candidate left, or two equal digits in peers.
    pub fn is_broken(&self) -> bool {
        self.geometry.cells().any(|c| {
            (self.values[c] == 0 && self.candidates[c].is_empty())
                || (self.values[c] != 0
                    && self
                        .geometry
                        .peers(c)
                        .iter()
                        .any(|&p| self.values[p] == self.values[c]))
        })
    }
}
