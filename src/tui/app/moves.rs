//! Moving the cursor.

use super::{App, Changed};

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

    /// Up and down go to the nearest cell of the next row on screen (a honeycomb row is
    /// offset by half a cell), wrapping from the last row to the first.
    pub(super) fn move_vertical(&mut self, dir: i32) -> Changed {
        let g = self.game.geometry();
        let rows = g.row_lengths().len() as i32;
        let (r, _) = g.coords(self.cursor);
        let (x0, _) = g.screen_pos(self.cursor);
        let nr = (r as i32 - 1 + dir).rem_euclid(rows) as usize + 1;
        let best = (1..=g.row_lengths()[nr - 1])
            .filter_map(|c| g.cell_at(nr, c))
            .min_by_key(|&cell| {
                let x = g.screen_pos(cell).0 as i32;
                // On a tie prefer the cell on the side the row is offset towards.
                ((x - x0 as i32).abs(), if dir > 0 { x } else { -x })
            });
        if let Some(cell) = best {
            self.cursor = cell;
        }
        Changed::View
    }
}
