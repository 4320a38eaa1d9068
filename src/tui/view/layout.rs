//! The layout plan: one function decides, from the screen area and the puzzle, how big a
//! cell is, how pencil marks are drawn, where labels, panel, message and status line go.
//! Every view reads the plan, and mouse hit-testing can ask it where a cell or a candidate
//! is ([`Plan::cell_rect`], [`Plan::candidate_pos`]).

use crate::geometry::{Cell, Geometry, HouseKind, Shape};
use ratatui::layout::Rect;

/// How pencil marks are drawn inside a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    /// One character per cell: the digit, or a dot when empty (marks go to the panel).
    Dot,
    /// A mini-grid of `cols` digits per line, each digit always in the same place:
    /// `gap` columns apart, starting `x0` columns into the cell.
    Grid { cols: u16, gap: u16, x0: u16 },
}

/// Where the side panel goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// Beside the grid.
    Side(Rect),
    /// Under the grid, full width.
    Below(Rect),
    /// No room: the selected cell's facts go into the status line.
    Status,
}

/// The whole screen's plan. Coordinates are absolute (in the area the plan was made for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The grid with its outer border (labels are outside it).
    pub grid: Rect,
    /// Cell interior size.
    pub cw: u16,
    pub ch: u16,
    pub marks: Marks,
    /// A line between every two cell rows; without it lines run only between bands of
    /// `band` rows (box rows), and other horizontal edges are drawn as underlines.
    pub row_lines: bool,
    pub band: u16,
    /// Row labels left of the grid (`label_w` wide, `0` without); column labels sit in
    /// the top border.
    pub label_w: u16,
    /// Killer sums inside the first cell (bottom right), not on its top border.
    pub sum_in_cell: bool,
    pub panel: Panel,
    pub status: Rect,
    /// The row of the mouse's digit bar, when there is one ([`Plan::with_digit_bar`]).
    pub digit_bar: Option<Rect>,
    shape: Shape,
}

/// Narrowest side panel worth having (a cell name, a box, a cage with its combinations).
pub const PANEL_SIDE_MIN: u16 = 13;

/// One candidate layout before it is placed.
#[derive(Clone, Copy, Debug)]
struct Cand {
    cw: u16,
    ch: u16,
    marks: Marks,
    row_lines: bool,
    sum_in_cell: bool,
}

fn isqrt_ceil(n: u16) -> u16 {
    let mut c = 1;
    while c * c < n {
        c += 1;
    }
    c
}

/// Layouts from the largest to the smallest, for this puzzle.
fn ladder(g: &Geometry, killer: bool, marks_in_grid: bool) -> Vec<Cand> {
    let n = u16::from(g.max_digit());
    let mut out = Vec::new();
    match g.shape() {
        Shape::Square { .. } => {
            if marks_in_grid {
                // A square mini-grid, digits spaced one column apart when that stays narrow.
                let cols = isqrt_ceil(n);
                let spaced = 2 * cols < 9;
                out.push(Cand {
                    cw: if spaced { 2 * cols + 1 } else { cols + 2 },
                    ch: n.div_ceil(cols),
                    marks: Marks::Grid {
                        cols,
                        gap: if spaced { 2 } else { 1 },
                        x0: 1,
                    },
                    row_lines: true,
                    sum_in_cell: false,
                });
                // Compact: two lines per cell (`12345` over `6789`), lines only between
                // box rows. A killer cell gets two more columns, so that its sum stands
                // apart from the marks (`6789 23`).
                let cols = n.div_ceil(2);
                out.push(Cand {
                    cw: cols + 2 * u16::from(killer),
                    ch: 2,
                    marks: Marks::Grid {
                        cols,
                        gap: 1,
                        x0: 0,
                    },
                    row_lines: false,
                    sum_in_cell: killer,
                });
            }
            // Digits only (marks in the panel), then the same with lines only between box
            // rows: a 16x16 grid fits 80x24 that way. A killer keeps its row lines, which
            // carry the cage sums.
            for cw in [3, 1] {
                for row_lines in [true, false] {
                    if row_lines || !killer {
                        out.push(Cand {
                            cw,
                            ch: 1,
                            marks: Marks::Dot,
                            row_lines,
                            sum_in_cell: false,
                        });
                    }
                }
            }
        }
        Shape::Honeycomb => {
            if marks_in_grid {
                out.push(Cand {
                    cw: 7,
                    ch: 3,
                    marks: Marks::Grid {
                        cols: 3,
                        gap: 2,
                        x0: 1,
                    },
                    row_lines: true,
                    sum_in_cell: false,
                });
                // A two-line hexagon: `╱12345╲` over `╲6789 ╱`.
                out.push(Cand {
                    cw: 7,
                    ch: 2,
                    marks: Marks::Grid {
                        cols: 5,
                        gap: 1,
                        x0: 1,
                    },
                    row_lines: true,
                    sum_in_cell: false,
                });
                // Compact (fits 80x24): `12345` over `6789`, rows stacked without the
                // connector lines between them.
                out.push(Cand {
                    cw: 5,
                    ch: 2,
                    marks: Marks::Grid {
                        cols: 5,
                        gap: 1,
                        x0: 0,
                    },
                    row_lines: false,
                    sum_in_cell: false,
                });
            }
            // Digits only, with and then without the connector lines between rows.
            for row_lines in [true, false] {
                out.push(Cand {
                    cw: 3,
                    ch: 1,
                    marks: Marks::Dot,
                    row_lines,
                    sum_in_cell: false,
                });
            }
        }
    }
    out
}

/// Box height of a square grid (jigsaw grids band like the standard grid of their size).
fn band_of(g: &Geometry) -> u16 {
    match g.shape() {
        Shape::Square { box_rows, .. } => box_rows as u16,
        Shape::Honeycomb => 1,
    }
}

fn grid_size(g: &Geometry, c: &Cand, band: u16) -> (u16, u16) {
    match g.shape() {
        Shape::Square { size, .. } => {
            let n = size as u16;
            let h = if c.row_lines {
                n * (c.ch + 1) + 1
            } else {
                n * c.ch + n / band.max(1) + 1
            };
            (n * (c.cw + 1) + 1, h)
        }
        Shape::Honeycomb => {
            let hp = c.cw.div_ceil(2);
            let rows = g.row_lengths().len() as u16;
            let widest = g.cells().map(|x| g.screen_pos(x).0).max().unwrap_or(0);
            (
                widest * hp + c.cw + 2,
                rows * (c.ch + u16::from(c.row_lines)) + 1,
            )
        }
    }
}

/// Width of the row labels (the widest row number and a space).
fn label_width(g: &Geometry) -> u16 {
    g.row_lengths().len().to_string().len() as u16 + 1
}

/// Plans the screen. `marks_in_grid` is false when the player asked for marks in the
/// panel only. `Err` carries the size the smallest layout needs ("enlarge to WxH").
pub fn plan(g: &Geometry, area: Rect, marks_in_grid: bool) -> Result<Plan, (u16, u16)> {
    let killer = g
        .houses()
        .iter()
        .any(|h| matches!(h.kind, HouseKind::Cage(_)));
    let band = band_of(g);
    let label_w = label_width(g);
    let mut need = (0, 0);
    for c in ladder(g, killer, marks_in_grid) {
        let (gw, gh) = grid_size(g, &c, band);
        let (w, h) = (label_w + gw, gh + 1);
        need = (w, h);
        if w > area.width || h > area.height {
            continue;
        }
        let grid = Rect::new(area.x + label_w, area.y, gw, gh);
        let rest_w = area.width - w;
        let rest_h = area.height - h;
        let panel = if rest_w > PANEL_SIDE_MIN {
            Panel::Side(Rect::new(
                grid.right() + 1,
                area.y,
                rest_w - 1,
                area.height - 1,
            ))
        } else if rest_h > 0 {
            Panel::Below(Rect::new(area.x, grid.bottom(), area.width, rest_h))
        } else {
            Panel::Status
        };
        return Ok(Plan {
            grid,
            cw: c.cw,
            ch: c.ch,
            marks: c.marks,
            row_lines: c.row_lines,
            band,
            label_w,
            sum_in_cell: c.sum_in_cell,
            panel,
            status: Rect::new(area.x, area.bottom() - 1, area.width, 1),
            digit_bar: None,
            shape: g.shape(),
        });
    }
    Err(need)
}

impl Plan {
    /// Whether candidates are drawn inside cells.
    pub fn marks_visible(&self) -> bool {
        matches!(self.marks, Marks::Grid { .. })
    }

    /// Screen row of the top of cell row `r` (0-based) of a square grid.
    fn row_y(&self, r: u16) -> u16 {
        if self.row_lines {
            self.grid.y + 1 + r * (self.ch + 1)
        } else {
            self.grid.y + 1 + r * self.ch + r / self.band.max(1)
        }
    }

    /// Screen row of horizontal line `r` (0 = top border), if that line is drawn.
    pub fn line_y(&self, r: u16) -> Option<u16> {
        if self.row_lines {
            Some(self.grid.y + r * (self.ch + 1))
        } else if r.is_multiple_of(self.band.max(1)) {
            Some(self.row_y(r) - 1)
        } else {
            None
        }
    }

    /// Screen column of vertical line `c` (0 = left border).
    pub fn line_x(&self, c: u16) -> u16 {
        self.grid.x + c * (self.cw + 1)
    }

    /// The interior of a cell on screen.
    pub fn cell_rect(&self, g: &Geometry, cell: Cell) -> Rect {
        let (x, y) = match self.shape {
            Shape::Square { size, .. } => {
                let (r, c) = ((cell / size) as u16, (cell % size) as u16);
                (self.line_x(c) + 1, self.row_y(r))
            }
            Shape::Honeycomb => {
                let (sx, sy) = g.screen_pos(cell);
                let hp = self.cw.div_ceil(2);
                (
                    self.grid.x + sx * hp + 1,
                    self.grid.y + 1 + sy * (self.ch + u16::from(self.row_lines)),
                )
            }
        };
        Rect::new(x, y, self.cw, self.ch)
    }

    /// Where candidate `d` sits inside a cell (offset from the cell's top left), when
    /// candidates are drawn in cells.
    pub fn candidate_pos(&self, d: u8) -> Option<(u16, u16)> {
        match self.marks {
            Marks::Dot => None,
            Marks::Grid { cols, gap, x0 } => {
                let i = u16::from(d).checked_sub(1)?;
                Some((x0 + (i % cols) * gap, i / cols))
            }
        }
    }

    /// Where a placed digit sits inside a cell: centred, on the top line of a two-line
    /// cell (the bottom line may hold a killer sum).
    pub fn digit_pos(&self) -> (u16, u16) {
        (self.cw / 2, self.ch.saturating_sub(1) / 2)
    }

    /// The cell at a screen position, if any (for the mouse).
    pub fn cell_at(&self, g: &Geometry, x: u16, y: u16) -> Option<Cell> {
        g.cells().find(|&c| {
            let r = self.cell_rect(g, c);
            x >= r.x && x < r.right() && y >= r.y && y < r.bottom()
        })
    }

    /// The candidate drawn at a screen position inside `cell`, when candidates are drawn
    /// in cells (the inverse of [`Plan::candidate_pos`]).
    pub fn candidate_at(&self, g: &Geometry, cell: Cell, x: u16, y: u16) -> Option<u8> {
        let r = self.cell_rect(g, cell);
        let (dx, dy) = (x.checked_sub(r.x)?, y.checked_sub(r.y)?);
        (1..=g.max_digit()).find(|&d| self.candidate_pos(d) == Some((dx, dy)))
    }

    /// The plan with a one-line digit bar under the grid, when there is a free line there
    /// (or a panel below with lines to spare) and the bar fits the grid's width.
    pub fn with_digit_bar(mut self, max_digit: u8) -> Plan {
        let x = self.grid.x.saturating_sub(self.label_w);
        let width = self.label_w + self.grid.width;
        if 2 * (u16::from(max_digit) + 1) + 1 > width {
            return self;
        }
        let y = self.grid.bottom();
        match self.panel {
            Panel::Side(_) if y < self.status.y => {}
            Panel::Below(r) if r.height >= 3 => {
                self.panel = Panel::Below(Rect::new(r.x, r.y + 1, r.width, r.height - 1));
            }
            _ => return self,
        }
        self.digit_bar = Some(Rect::new(x, y, width, 1));
        self
    }

    /// The column of digit `d` on the digit bar (`0` is the clear sign after the digits).
    pub fn bar_x(&self, d: u8, max_digit: u8) -> Option<u16> {
        let bar = self.digit_bar?;
        let i = if d == 0 { max_digit } else { d - 1 };
        Some(bar.x + 1 + 2 * u16::from(i))
    }

    /// The digit bar's entry at a screen position: `Some(d)` for a digit, `Some(0)` to
    /// clear (the inverse of [`Plan::bar_x`], a digit's column and the one after it).
    pub fn digit_at(&self, x: u16, y: u16, max_digit: u8) -> Option<u8> {
        let bar = self.digit_bar?;
        if y != bar.y || x <= bar.x {
            return None;
        }
        let i = (x - bar.x - 1) / 2;
        match u8::try_from(i).ok()? {
            i if i < max_digit => Some(i + 1),
            i if i == max_digit => Some(0),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{Layout, Variant};

    fn geometry(v: Variant, size: usize) -> Geometry {
        crate::puzzle::Puzzle::new(Layout::new(v, size), vec![0; size * size])
            .map(|p| p.geometry().clone())
            .unwrap_or_else(|_| crate::geometry::honeycomb::honeycomb())
    }

    #[test]
    fn nine_by_nine_at_80x24_shows_marks_in_two_line_cells() {
        let g = geometry(Variant::Standard, 9);
        let p = plan(&g, Rect::new(0, 0, 80, 24), true).unwrap();
        assert_eq!((p.cw, p.ch, p.row_lines), (5, 2, false));
        assert_eq!(p.grid.height + 1, 23);
        assert!(matches!(p.panel, Panel::Side(_)));
        // Every cell and every candidate position is inside the grid and distinct.
        let mut seen = std::collections::HashSet::new();
        for c in g.cells() {
            let r = p.cell_rect(&g, c);
            assert!(r.bottom() <= p.grid.bottom() && r.right() <= p.grid.right());
            for d in 1..=9 {
                let (dx, dy) = p.candidate_pos(d).unwrap();
                assert!(dx < r.width && dy < r.height);
                assert!(seen.insert((r.x + dx, r.y + dy)));
            }
            assert_eq!(p.cell_at(&g, r.x, r.y), Some(c));
        }
    }

    /// Every variant and size the player offers.
    fn every_geometry() -> Vec<(String, Geometry)> {
        let mut out = Vec::new();
        for v in Variant::ALL {
            let sizes: &[usize] = match v {
                Variant::Standard => &[4, 6, 9, 16],
                Variant::Honeycomb => &[9],
                _ => &[9],
            };
            for &n in sizes {
                out.push((format!("{v} {n}x{n}"), geometry(v, n)));
            }
        }
        out
    }

    /// The mouse's hit-testing is the drawing's inverse: every position of every cell's
    /// drawn rectangle maps back to that cell (honeycomb half-offset rows included), every
    /// drawn candidate to its digit, and every digit of the bar back to it.
    #[test]
    fn every_drawn_cell_candidate_and_bar_digit_maps_back() {
        for (name, g) in every_geometry() {
            for (w, h) in [(80, 24), (100, 40)] {
                let Ok(p) = plan(&g, Rect::new(0, 0, w, h), true) else {
                    continue;
                };
                let p = p.with_digit_bar(g.max_digit());
                for c in g.cells() {
                    let r = p.cell_rect(&g, c);
                    for y in r.y..r.bottom() {
                        for x in r.x..r.right() {
                            assert_eq!(p.cell_at(&g, x, y), Some(c), "{name} {w}x{h} ({x},{y})");
                        }
                    }
                    for d in 1..=g.max_digit() {
                        if let Some((dx, dy)) = p.candidate_pos(d) {
                            let got = p.candidate_at(&g, c, r.x + dx, r.y + dy);
                            assert_eq!(got, Some(d), "{name} {w}x{h} cell {c}");
                        }
                    }
                }
                // Grid lines between cells are no cell.
                assert_eq!(p.cell_at(&g, p.grid.x, p.grid.y), None, "{name}");
                if let Some(bar) = p.digit_bar {
                    assert!(bar.y < p.status.y && bar.y >= p.grid.bottom(), "{name}");
                    for d in 0..=g.max_digit() {
                        let x = p.bar_x(d, g.max_digit()).unwrap();
                        assert!(x < bar.right(), "{name}");
                        assert_eq!(p.digit_at(x, bar.y, g.max_digit()), Some(d), "{name}");
                        assert_eq!(p.cell_at(&g, x, bar.y), None, "{name}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_digit_bar_fits_under_a_nine_by_nine_grid_at_80x24() {
        let g = geometry(Variant::Standard, 9);
        let p = plan(&g, Rect::new(0, 0, 80, 24), true)
            .unwrap()
            .with_digit_bar(9);
        let bar = p.digit_bar.expect("a bar at 80x24");
        assert_eq!(bar.y, 22);
        assert_eq!(p.digit_at(bar.x + 1, 22, 9), Some(1));
        assert_eq!(p.digit_at(bar.x + 19, 22, 9), Some(0));
        assert_eq!(p.digit_at(bar.x + 21, 22, 9), None);
    }

    #[test]
    fn smaller_screens_fall_back_and_report_what_they_need() {
        let g = geometry(Variant::Standard, 9);
        let p = plan(&g, Rect::new(0, 0, 60, 20), true).unwrap();
        assert_eq!(p.marks, Marks::Dot);
        let g4 = geometry(Variant::Standard, 4);
        let p = plan(&g4, Rect::new(0, 0, 30, 12), true).unwrap();
        assert!(p.marks_visible());
        // The smallest: one column a cell, lines only between box rows.
        assert_eq!(plan(&g, Rect::new(0, 0, 15, 10), true), Err((21, 14)));
        let p = plan(&g, Rect::new(0, 0, 21, 14), true).unwrap();
        assert!(!p.row_lines && p.cw == 1);
    }

    #[test]
    fn sixteen_by_sixteen_fits_80x24_with_every_cell_distinct() {
        let g = geometry(Variant::Standard, 16);
        let p = plan(&g, Rect::new(0, 0, 80, 24), true).unwrap();
        assert_eq!((p.cw, p.ch, p.row_lines), (3, 1, false));
        // Every cell has its own screen line and columns, and the mouse finds it there.
        let mut seen = std::collections::HashSet::new();
        for c in g.cells() {
            let r = p.cell_rect(&g, c);
            assert!(
                r.bottom() <= p.status.y,
                "cell {c} runs into the status line"
            );
            assert!(seen.insert((r.x, r.y)));
            assert_eq!(p.cell_at(&g, r.x + 1, r.y), Some(c));
        }
        // A killer keeps the lines that carry its cage sums.
        let k = crate::game::builtin::puzzle(Variant::Killer);
        assert!(plan(k.geometry(), Rect::new(0, 0, 80, 16), true).is_err());
        assert!(plan(
            &geometry(Variant::Standard, 9),
            Rect::new(0, 0, 80, 16),
            true
        )
        .is_ok());
    }

    #[test]
    fn sixteen_by_sixteen_shows_marks_from_148x38_and_honeycomb_at_80x24() {
        let g = geometry(Variant::Standard, 16);
        assert!(plan(&g, Rect::new(0, 0, 148, 38), true)
            .unwrap()
            .marks_visible());
        assert!(!plan(&g, Rect::new(0, 0, 147, 38), true)
            .unwrap()
            .marks_visible());
        // The honeycomb: hexagons with connector lines from 80x29, stacked two-line cells
        // at 80x24 (every candidate visible), one character a cell when narrower.
        let h = crate::geometry::honeycomb::honeycomb();
        let p = plan(&h, Rect::new(0, 0, 80, 29), true).unwrap();
        assert!(p.marks_visible() && p.row_lines);
        let p = plan(&h, Rect::new(0, 0, 80, 24), true).unwrap();
        assert!(p.marks_visible() && !p.row_lines);
        assert!(matches!(p.panel, Panel::Side(_)));
        assert!(p.with_digit_bar(9).digit_bar.is_some());
        assert!(!plan(&h, Rect::new(0, 0, 50, 24), true)
            .unwrap()
            .marks_visible());
        // Sixteen lines: digits only, rows stacked without connector lines.
        let p = plan(&h, Rect::new(0, 0, 40, 16), true).unwrap();
        assert!(!p.marks_visible() && !p.row_lines);
    }
}
