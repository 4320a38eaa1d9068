//! Cells, houses with rule kinds, peers and screen positions: every variant as data.
//!
//! Nothing outside this module knows what a variant looks like; solvers ask a [`Geometry`]
//! for its houses and peers and treat every house through its [`Rule`].

mod digits;
pub mod honeycomb;
pub mod square;

pub use digits::{char_digit, digit_char, DigitIter, Digits};

use std::fmt;

/// Index of a cell in row-major order.
pub type Cell = usize;
/// Index of a house in [`Geometry::houses`].
pub type HouseId = usize;

/// What a house demands of its digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Each digit of the geometry exactly once.
    Complete,
    /// Distinct digits forming a run of consecutive numbers as long as the house.
    ConsecutiveRun,
    /// Distinct digits adding up to `sum`.
    Cage { sum: u32 },
}

/// Which of the two long diagonals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// r1c1 .. rNcN
    Main,
    /// rNc1 .. r1cN
    Anti,
}

/// What a house is called, for text and highlights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    Row(u8),
    Column(u8),
    Box(u8),
    Diagonal(Diagonal),
    /// Jigsaw region, named by its letter.
    Region(char),
    Cage(u16),
    /// Honeycomb `/ line b`.
    Forward(u8),
    /// Honeycomb `\ line c`.
    Backward(u8),
}

impl fmt::Display for HouseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HouseKind::Row(i) => write!(f, "row {i}"),
            HouseKind::Column(i) => write!(f, "column {i}"),
            HouseKind::Box(i) => write!(f, "box {i}"),
            HouseKind::Diagonal(Diagonal::Main) => write!(f, "diagonal \\"),
            HouseKind::Diagonal(Diagonal::Anti) => write!(f, "diagonal /"),
            HouseKind::Region(c) => write!(f, "region {c}"),
            HouseKind::Cage(i) => write!(f, "cage {i}"),
            HouseKind::Forward(i) => write!(f, "/ line {i}"),
            HouseKind::Backward(i) => write!(f, "\\ line {i}"),
        }
    }
}

/// A group of cells under one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    pub kind: HouseKind,
    pub rule: Rule,
    pub cells: Vec<Cell>,
}

impl House {
    pub fn name(&self) -> String {
        self.kind.to_string()
    }
}

/// The overall shape, used only for drawing and for choosing a solver fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Square {
        size: usize,
        box_rows: usize,
        box_cols: usize,
    },
    Honeycomb,
}

/// Cells, houses, peers and coordinates of one puzzle layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    shape: Shape,
    max_digit: u8,
    /// 1-based (row, column-within-row) of each cell.
    coords: Vec<(u8, u8)>,
    row_lengths: Vec<usize>,
    houses: Vec<House>,
    cell_houses: Vec<Vec<HouseId>>,
    peers: Vec<Vec<Cell>>,
}

impl Geometry {
    /// Builds a geometry from its shape and houses; `row_lengths` gives the cells per row.
    pub(crate) fn build(
        shape: Shape,
        max_digit: u8,
        row_lengths: Vec<usize>,
        houses: Vec<House>,
    ) -> Geometry {
        let mut coords = Vec::new();
        for (r, &len) in row_lengths.iter().enumerate() {
            for c in 0..len {
                coords.push((r as u8 + 1, c as u8 + 1));
            }
        }
        let n = coords.len();
        let mut cell_houses = vec![Vec::new(); n];
        for (h, house) in houses.iter().enumerate() {
            for &c in &house.cells {
                cell_houses[c].push(h);
            }
        }
        // Every rule kind makes its digits distinct, so every house mate is a peer.
        let mut peers = vec![Vec::new(); n];
        for (cell, list) in peers.iter_mut().enumerate() {
            let mut seen = vec![false; n];
            seen[cell] = true;
            for &h in &cell_houses[cell] {
                for &o in &houses[h].cells {
                    if !seen[o] {
                        seen[o] = true;
                        list.push(o);
                    }
                }
            }
            list.sort_unstable();
        }
        Geometry {
            shape,
            max_digit,
            coords,
            row_lengths,
            houses,
            cell_houses,
            peers,
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The largest digit (9 for 9x9 and honeycomb, 16 for 16x16).
    pub fn max_digit(&self) -> u8 {
        self.max_digit
    }

    pub fn all_digits(&self) -> Digits {
        Digits::all(self.max_digit)
    }

    pub fn cell_count(&self) -> usize {
        self.coords.len()
    }

    pub fn cells(&self) -> std::ops::Range<Cell> {
        0..self.coords.len()
    }

    pub fn houses(&self) -> &[House] {
        &self.houses
    }

    pub fn house(&self, id: HouseId) -> &House {
        &self.houses[id]
    }

    /// The houses a cell belongs to.
    pub fn houses_of(&self, cell: Cell) -> &[HouseId] {
        &self.cell_houses[cell]
    }

    /// The cells that must differ from `cell`.
    pub fn peers(&self, cell: Cell) -> &[Cell] {
        &self.peers[cell]
    }

    pub fn sees(&self, a: Cell, b: Cell) -> bool {
        a != b && self.peers[a].binary_search(&b).is_ok()
    }

    pub fn row_lengths(&self) -> &[usize] {
        &self.row_lengths
    }

    /// 1-based row and position within the row.
    pub fn coords(&self, cell: Cell) -> (u8, u8) {
        self.coords[cell]
    }

    /// `r3c5`.
    pub fn cell_name(&self, cell: Cell) -> String {
        let (r, c) = self.coords[cell];
        format!("r{r}c{c}")
    }

    /// The cell at 1-based row and position, if it exists.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<Cell> {
        if row == 0 || col == 0 || row > self.row_lengths.len() || col > self.row_lengths[row - 1] {
            return None;
        }
        Some(self.row_lengths[..row - 1].iter().sum::<usize>() + col - 1)
    }

    /// Parses `r3c5` (case-insensitive) into a cell of this geometry.
    pub fn parse_cell(&self, name: &str) -> Option<Cell> {
        let s = name.trim().to_ascii_lowercase();
        let rest = s.strip_prefix('r')?;
        let (r, c) = rest.split_once('c')?;
        self.cell_at(r.parse().ok()?, c.parse().ok()?)
    }

    /// Position on a character grid: `x` counts half-cells so honeycomb rows can be offset
    /// by half a cell; `y` is the row.
    pub fn screen_pos(&self, cell: Cell) -> (u16, u16) {
        let (r, c) = self.coords[cell];
        let longest = self.row_lengths.iter().copied().max().unwrap_or(0);
        let len = self.row_lengths[r as usize - 1];
        let offset = longest - len;
        ((offset + 2 * (c as usize - 1)) as u16, r as u16 - 1)
    }

    /// True for a plain 9x9 grid (rows, columns, 3x3 boxes and nothing else), which the
    /// exact solver hands to its bitboard fast path.
    pub fn is_plain_9x9(&self) -> bool {
        matches!(
            self.shape,
            Shape::Square {
                size: 9,
                box_rows: 3,
                box_cols: 3
            }
        ) && self.houses.len() == 27
            && self.houses.iter().all(|h| {
                matches!(
                    h.kind,
                    HouseKind::Row(_) | HouseKind::Column(_) | HouseKind::Box(_)
                )
            })
    }

    /// The house with this kind, if present.
    pub fn find_house(&self, kind: HouseKind) -> Option<HouseId> {
        self.houses.iter().position(|h| h.kind == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_has_twenty_peers_per_cell() {
        let g = square::standard(9).unwrap();
        assert_eq!(g.cell_count(), 81);
        assert_eq!(g.houses().len(), 27);
        assert!(g.cells().all(|c| g.peers(c).len() == 20));
        assert!(g.is_plain_9x9());
        assert_eq!(g.cell_name(80), "r9c9");
        assert_eq!(g.parse_cell("R9C9"), Some(80));
        assert_eq!(g.parse_cell("r10c1"), None);
    }

    #[test]
    fn honeycomb_cells_see_their_three_lines() {
        let g = honeycomb::honeycomb();
        assert_eq!(g.cell_count(), 61);
        assert_eq!(g.houses().len(), 27);
        // r5c5, the centre, lies on three 9-cell lines: 24 peers.
        let centre = g.parse_cell("r5c5").unwrap();
        assert_eq!(g.peers(centre).len(), 24);
        assert!(!g.is_plain_9x9());
        // Rows are offset by half a cell per step away from the middle row.
        assert_eq!(g.screen_pos(0), (4, 0));
        assert_eq!(g.screen_pos(centre), (8, 4));
    }
}
