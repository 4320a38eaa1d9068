//! HoDoKu's order for singles on a plain 9x9 grid.
//!
//! HoDoKu does not scan the grid for singles: it keeps two queues, filled as candidates
//! disappear. A cell left with one candidate joins the naked-single queue; a digit left
//! with one place in a house joins the hidden-single queue. Full houses and naked singles
//! are taken from the first queue, hidden singles from the second, oldest first. Which
//! hidden single comes first decides whether a later cell falls as a naked single (score 4)
//! or a hidden one (14), so this order is what makes scores equal to HoDoKu's.
//!
//! [`SinglesQueue`] replays the walk's changes in HoDoKu's order (placements clear the peers
//! in cell order, then the placed cell's own candidates; eliminations go cell by cell), and
//! the single finders read it when it describes the grid being searched.

use crate::geometry::{Cell, Digits, HouseKind};
use crate::puzzle::Grid;

/// The two queues and the position they were built for (see the module docs).
#[derive(Default)]
pub struct SinglesQueue {
    /// The position the queues describe: values and candidates.
    values: Vec<u8>,
    cands: Vec<u16>,
    /// Places left for each digit in each house: rows 0-8, columns 9-17, boxes 18-26.
    free: Vec<[u8; 10]>,
    /// Row, column and box of each cell (HoDoKu's constraint numbers).
    houses: Vec<[usize; 3]>,
    /// Cells of each house, ascending.
    units: Vec<Vec<Cell>>,
    peers: Vec<Vec<Cell>>,
    naked: Vec<(Cell, u8)>,
    hidden: Vec<(Cell, u8)>,
}

impl SinglesQueue {
    /// Brings the queues to `grid`: the changes since the last position, in HoDoKu's order,
    /// or a fresh start (givens placed in cell order) when `grid` is not a later position
    /// of the same walk. Grids that are not plain 9x9 leave the queues empty.
    pub fn sync(&mut self, grid: &Grid) {
        let geo = grid.geometry();
        if !geo.is_plain_9x9() {
            self.values.clear();
            return;
        }
        if self.houses.is_empty() {
            self.layout(grid);
        }
        if self.values.len() != 81 || !self.reaches(grid) {
            self.start();
        }
        for c in 0..81 {
            let v = grid.value(c);
            if self.values[c] == 0 && v != 0 {
                self.set_cell(c, v);
            }
        }
        for c in 0..81 {
            if self.values[c] == 0 {
                let gone = self.cands[c] & !grid.candidates(c).0;
                for d in Digits(gone).iter() {
                    self.del_candidate(c, d);
                }
            }
        }
        let values = &self.values;
        self.naked.retain(|&(c, _)| values[c] == 0);
        self.hidden.retain(|&(c, _)| values[c] == 0);
    }

    /// True when the queues describe `grid` (the finders then follow them).
    pub fn describes(&self, grid: &Grid) -> bool {
        self.values.len() == 81
            && grid.geometry().is_plain_9x9()
            && (0..81).all(|c| {
                self.values[c] == grid.value(c)
                    && (self.values[c] != 0 || self.cands[c] == grid.candidates(c).0)
            })
    }

    /// Naked singles, oldest first (stale entries skipped by the caller).
    pub fn naked(&self) -> &[(Cell, u8)] {
        &self.naked
    }

    /// Hidden singles, oldest first.
    pub fn hidden(&self) -> &[(Cell, u8)] {
        &self.hidden
    }

    fn layout(&mut self, grid: &Grid) {
        let geo = grid.geometry();
        let rank = |k: HouseKind| match k {
            HouseKind::Row(_) => 0,
            HouseKind::Column(_) => 1,
            _ => 2,
        };
        // Constraint numbers as HoDoKu's: rows, then columns, then boxes, each in order.
        let mut order: Vec<usize> = (0..geo.houses().len()).collect();
        order.sort_by_key(|&h| (rank(geo.house(h).kind), h));
        self.units = order
            .iter()
            .map(|&h| {
                let mut cells = geo.house(h).cells.clone();
                cells.sort_unstable();
                cells
            })
            .collect();
        self.houses = (0..81)
            .map(|c| {
                let mut hs = [0usize; 3];
                for (i, unit) in self.units.iter().enumerate() {
                    if unit.contains(&c) {
                        hs[rank(geo.house(order[i]).kind)] = i;
                    }
                }
                hs
            })
            .collect();
        self.peers = (0..81)
            .map(|c| {
                let mut p = geo.peers(c).to_vec();
                p.sort_unstable();
                p
            })
            .collect();
    }

    /// Every later position keeps the placed digits and only loses candidates.
    fn reaches(&self, grid: &Grid) -> bool {
        (0..81).all(|c| {
            let v = self.values[c];
            if v != 0 {
                grid.value(c) == v
            } else {
                grid.value(c) != 0 || grid.candidates(c).0 & !self.cands[c] == 0
            }
        })
    }

    /// An empty grid with every candidate, as HoDoKu's before it reads the givens.
    fn start(&mut self) {
        self.values = vec![0; 81];
        self.cands = vec![Digits::all(9).0; 81];
        self.free = vec![[0, 9, 9, 9, 9, 9, 9, 9, 9, 9]; self.units.len()];
        self.naked.clear();
        self.hidden.clear();
    }

    fn set_cell(&mut self, cell: Cell, value: u8) {
        self.values[cell] = value;
        let own = self.cands[cell];
        self.cands[cell] = 0;
        for i in 0..self.peers[cell].len() {
            let p = self.peers[cell][i];
            self.del_candidate(p, value);
        }
        for d in Digits(own).iter() {
            for h in self.houses[cell] {
                self.free[h][usize::from(d)] = self.free[h][usize::from(d)].saturating_sub(1);
                if self.free[h][usize::from(d)] == 1 && d != value {
                    self.add_hidden(h, d);
                }
            }
        }
    }

    fn del_candidate(&mut self, cell: Cell, d: u8) {
        let bit = Digits::single(d).0;
        if self.values[cell] != 0 || self.cands[cell] & bit == 0 {
            return;
        }
        self.cands[cell] &= !bit;
        if let Some(last) = Digits(self.cands[cell]).single_digit() {
            self.naked.push((cell, last));
        }
        for h in self.houses[cell] {
            let f = &mut self.free[h][usize::from(d)];
            *f = f.saturating_sub(1);
            match *f {
                1 => self.add_hidden(h, d),
                0 => {
                    let houses = &self.houses;
                    if let Some(i) = self
                        .hidden
                        .iter()
                        .position(|&(c, v)| v == d && houses[c].contains(&h))
                    {
                        self.hidden.remove(i);
                    }
                }
                _ => {}
            }
        }
    }

    /// Queues the one cell of house `h` still holding `d`.
    fn add_hidden(&mut self, h: usize, d: u8) {
        let bit = Digits::single(d).0;
        if let Some(&c) = self.units[h]
            .iter()
            .find(|&&c| self.values[c] == 0 && self.cands[c] & bit != 0)
        {
            self.hidden.push((c, d));
        }
    }
}
