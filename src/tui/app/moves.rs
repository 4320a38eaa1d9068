//! Moving the cursor: along rows, up and down, and on a honeycomb the four slanted
//! neighbours along its `/` and `\` lines.

use super::{App, Changed, Tone};
use crate::geometry::{HouseKind, Shape};

/// A slanted honeycomb move: which line it follows, and which way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slant {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
}

impl App {
    pub(super) fn move_horizontal(&mut self, dir: i32) -> Changed {
        let g = self.game.geometry();
        let (r, c) = g.coords(self.cursor);
        let len = g.row_lengths()[r as usize - 1] as i32;
        let nc = (c as i32 - 1 + dir).rem_euclid(len) + 1;
        if let Some(cell) = g.cell_at(r as usize, nc as usize) {
            self.cursor = cell;
        }
        Changed::View
    }

    /// Up and down go to the cell of the next row on screen nearest to the column where
    /// the vertical run began (a honeycomb row is offset by half a cell, so repeated moves
    /// zigzag around that column instead of drifting sideways), wrapping from the last row
    /// to the first.
    pub(super) fn move_vertical(&mut self, dir: i32) -> Changed {
        let g = self.game.geometry();
        let rows = g.row_lengths().len() as i32;
        let (r, _) = g.coords(self.cursor);
        let x0 = *self
            .vertical_x
            .get_or_insert(i32::from(g.screen_pos(self.cursor).0));
        let nr = (r as i32 - 1 + dir).rem_euclid(rows) as usize + 1;
        let best = (1..=g.row_lengths()[nr - 1])
            .filter_map(|c| g.cell_at(nr, c))
            .min_by_key(|&cell| {
                let x = i32::from(g.screen_pos(cell).0);
                // On a tie prefer the cell on the side the row is offset towards.
                ((x - x0).abs(), if dir > 0 { x } else { -x })
            });
        if let Some(cell) = best {
            self.cursor = cell;
        }
        Changed::View
    }

    /// A slanted move along the honeycomb line through the cursor, wrapping at its ends;
    /// other grids have no such neighbours.
    pub(super) fn move_slanted(&mut self, slant: Slant) -> Changed {
        let g = self.game.geometry();
        if g.shape() != Shape::Honeycomb {
            self.say(Tone::Info, "Slanted moves are for honeycomb grids.");
            return Changed::View;
        }
        let forward = matches!(slant, Slant::UpRight | Slant::DownLeft);
        let line = g
            .houses_of(self.cursor)
            .iter()
            .map(|&h| g.house(h))
            .find(|h| {
                matches!(
                    (forward, h.kind),
                    (true, HouseKind::Forward(_)) | (false, HouseKind::Backward(_))
                )
            });
        let Some(line) = line else {
            return Changed::Nothing;
        };
        // A line's cells from the top row down.
        let mut cells = line.cells.clone();
        cells.sort_by_key(|&c| g.coords(c).0);
        let Some(i) = cells.iter().position(|&c| c == self.cursor) else {
            return Changed::Nothing;
        };
        let down = matches!(slant, Slant::DownLeft | Slant::DownRight);
        let n = cells.len();
        let next = if down { (i + 1) % n } else { (i + n - 1) % n };
        self.cursor = cells[next];
        Changed::View
    }
}
