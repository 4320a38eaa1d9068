//! Drawing the grid: square grids as a line grid whose edge weights come from the houses
//! (boxes and jigsaw regions heavy, killer cages light, cells inside a cage open), and the
//! honeycomb as offset rows of cells.

use super::super::app::App;
use crate::geometry::{Cell, Diagonal, Geometry, HouseKind, Shape};
use crate::solver::logic::Target;
use ratatui::buffer::Buffer;
use ratatui::style::Style;

/// Cell interior size and whether candidates are drawn inside cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Metrics {
    pub cw: u16,
    pub ch: u16,
    pub mini: bool,
    /// Candidate columns and spacing in a mini-grid.
    pub mini_cols: u16,
    pub spaced: bool,
}

impl Metrics {
    pub fn compact() -> Metrics {
        Metrics {
            cw: 3,
            ch: 1,
            mini: false,
            mini_cols: 0,
            spaced: false,
        }
    }

    pub fn mini(max_digit: u8) -> Metrics {
        let n = u16::from(max_digit);
        let mut cols = 1;
        while cols * cols < n {
            cols += 1;
        }
        let rows = n.div_ceil(cols);
        let spaced = 2 * cols < 9;
        Metrics {
            cw: if spaced { 2 * cols + 1 } else { cols + 2 },
            ch: rows,
            mini: true,
            mini_cols: cols,
            spaced,
        }
    }

    /// Offset of candidate `d` inside the cell interior.
    fn candidate_at(&self, d: u8) -> (u16, u16) {
        let i = u16::from(d) - 1;
        let (col, row) = (i % self.mini_cols, i / self.mini_cols);
        (if self.spaced { 1 + 2 * col } else { 1 + col }, row)
    }
}

/// Width and height of the drawn grid.
pub fn grid_size(g: &Geometry, m: Metrics) -> (u16, u16) {
    match g.shape() {
        Shape::Square { size, .. } => {
            let n = size as u16;
            (n * (m.cw + 1) + 1, n * (m.ch + 1) + 1)
        }
        Shape::Honeycomb => {
            let hp = m.cw.div_ceil(2);
            let rows = g.row_lengths().len() as u16;
            let widest = g.cells().map(|c| g.screen_pos(c).0).max().unwrap_or(0);
            (widest * hp + m.cw + 2, rows * (m.ch + 1) + 1)
        }
    }
}

/// Top-left corner of a cell's interior, relative to the grid origin.
fn cell_origin(g: &Geometry, m: Metrics, cell: Cell) -> (u16, u16) {
    match g.shape() {
        Shape::Square { size, .. } => {
            let (r, c) = (cell / size, cell % size);
            (c as u16 * (m.cw + 1) + 1, r as u16 * (m.ch + 1) + 1)
        }
        Shape::Honeycomb => {
            let (sx, sy) = g.screen_pos(cell);
            let hp = m.cw.div_ceil(2);
            (sx * hp + 1, sy * (m.ch + 1) + 1)
        }
    }
}

/// Box-drawing characters indexed by arm weights (0 none, 1 light, 2 heavy) as
/// up*27 + down*9 + left*3 + right.
const JUNCTIONS: &str =
    " ╶╺╴─╼╸╾━╷┌┍┐┬┮┑┭┯╻┎┏┒┰┲┓┱┳╵└┕┘┴┶┙┵┷│├┝┤┼┾┥┽┿╽┟┢┧╁╆┪╅╈╹┖┗┚┸┺┛┹┻╿┞┡┦╀╄┩╃╇┃┠┣┨╂╊┫╉╋";

fn junction(up: u8, down: u8, left: u8, right: u8, ascii: bool) -> char {
    if ascii {
        let v = up.max(down);
        let h = left.max(right);
        return match (v, h) {
            (0, 0) => ' ',
            (0, 2) => '=',
            (0, _) => '-',
            (2, 0) => '#',
            (_, 0) => '|',
            (2, _) | (_, 2) => '#',
            _ => '+',
        };
    }
    let i =
        usize::from(up) * 27 + usize::from(down) * 9 + usize::from(left) * 3 + usize::from(right);
    JUNCTIONS.chars().nth(i).unwrap_or('+')
}

/// Per-cell facts drawing needs: the box or region, and the cage.
struct Zones {
    region: Vec<usize>,
    cage: Vec<Option<usize>>,
    killer: bool,
}

impl Zones {
    fn new(g: &Geometry) -> Zones {
        let n = g.cell_count();
        let mut z = Zones {
            region: vec![usize::MAX; n],
            cage: vec![None; n],
            killer: false,
        };
        for (h, house) in g.houses().iter().enumerate() {
            for &c in &house.cells {
                match house.kind {
                    HouseKind::Box(_) | HouseKind::Region(_) => z.region[c] = h,
                    HouseKind::Cage(_) => {
                        z.cage[c] = Some(h);
                        z.killer = true;
                    }
                    _ => {}
                }
            }
        }
        z
    }

    /// Weight of the edge between two neighbouring cells.
    fn edge(&self, a: Cell, b: Cell) -> u8 {
        if self.region[a] != self.region[b] {
            2
        } else if self.killer && self.cage[a].is_some() && self.cage[a] == self.cage[b] {
            0
        } else {
            1
        }
    }
}

fn put(buf: &mut Buffer, x: u16, y: u16, ch: char, style: Style) {
    let area = buf.area;
    if x >= area.x && y >= area.y && x < area.right() && y < area.bottom() {
        buf[(x, y)].set_char(ch).set_style(style);
    }
}

fn patch(buf: &mut Buffer, x: u16, y: u16, style: Style) {
    let area = buf.area;
    if x >= area.x && y >= area.y && x < area.right() && y < area.bottom() {
        let cell = &mut buf[(x, y)];
        let s = cell.style().patch(style);
        cell.set_style(s);
    }
}

/// Draws the grid with its top-left corner at (ox, oy).
pub fn draw(app: &App, m: Metrics, ox: u16, oy: u16, buf: &mut Buffer) {
    let g = app.game.geometry();
    match g.shape() {
        Shape::Square { size, .. } => draw_square_lines(app, g, size, m, ox, oy, buf),
        Shape::Honeycomb => draw_honeycomb_lines(app, g, m, ox, oy, buf),
    }
    if app.game.paused {
        return;
    }
    let conflicts = app.game.conflicts();
    for cell in g.cells() {
        draw_cell(app, g, m, (ox, oy), cell, conflicts[cell], buf);
    }
}

fn draw_square_lines(
    app: &App,
    g: &Geometry,
    n: usize,
    m: Metrics,
    ox: u16,
    oy: u16,
    buf: &mut Buffer,
) {
    let z = Zones::new(g);
    let t = &app.theme;
    let at = |r: usize, c: usize| r * n + c;
    // Vertical line at column-line c beside row r, and horizontal line at row-line r
    // beside column c.
    let v = |r: usize, c: usize| -> u8 {
        if c == 0 || c == n {
            2
        } else {
            z.edge(at(r, c - 1), at(r, c))
        }
    };
    let h = |r: usize, c: usize| -> u8 {
        if r == 0 || r == n {
            2
        } else {
            z.edge(at(r - 1, c), at(r, c))
        }
    };
    let light = if z.killer { t.cage } else { t.grid };
    let style = |w: u8| if w == 2 { t.box_border } else { light };
    let (cw, ch) = (m.cw, m.ch);
    for r in 0..=n {
        for c in 0..=n {
            let x = ox + c as u16 * (cw + 1);
            let y = oy + r as u16 * (ch + 1);
            let up = if r > 0 { v(r - 1, c) } else { 0 };
            let down = if r < n { v(r, c) } else { 0 };
            let left = if c > 0 { h(r, c - 1) } else { 0 };
            let right = if c < n { h(r, c) } else { 0 };
            let heavy = up.max(down).max(left).max(right);
            put(
                buf,
                x,
                y,
                junction(up, down, left, right, app.ascii),
                style(heavy),
            );
            if c < n {
                let w = h(r, c);
                let chr = junction(0, 0, w, w, app.ascii);
                for dx in 1..=cw {
                    put(buf, x + dx, y, chr, style(w));
                }
            }
            if r < n {
                let w = v(r, c);
                let chr = junction(w, w, 0, 0, app.ascii);
                for dy in 1..=ch {
                    put(buf, x, y + dy, chr, style(w));
                }
            }
        }
    }
    // Diagonals: the corners they pass through.
    for house in g.houses() {
        let HouseKind::Diagonal(d) = house.kind else {
            continue;
        };
        for i in 1..n {
            let (r, c, chr) = match d {
                Diagonal::Main => (i, i, if app.ascii { '\\' } else { '╲' }),
                Diagonal::Anti => (i, n - i, if app.ascii { '/' } else { '╱' }),
            };
            put(
                buf,
                ox + c as u16 * (cw + 1),
                oy + r as u16 * (ch + 1),
                chr,
                t.diagonal,
            );
        }
    }
    // Cage sums on the top border of each cage's first cell.
    for house in g.houses() {
        let (HouseKind::Cage(_), crate::geometry::Rule::Cage { sum }) = (house.kind, house.rule)
        else {
            continue;
        };
        let Some(&first) = house.cells.iter().min() else {
            continue;
        };
        let (x, y) = cell_origin(g, m, first);
        for (i, chr) in sum.to_string().chars().enumerate() {
            put(buf, ox + x + i as u16, oy + y - 1, chr, t.cage);
        }
    }
}

fn draw_honeycomb_lines(app: &App, g: &Geometry, m: Metrics, ox: u16, oy: u16, buf: &mut Buffer) {
    if app.game.paused {
        return;
    }
    // The three lines through the selected cell, drawn as connectors between their cells.
    let style = app.theme.line;
    for &h in g.houses_of(app.cursor) {
        let mut cells = g.house(h).cells.clone();
        cells.sort_by_key(|&c| (g.screen_pos(c).1, g.screen_pos(c).0));
        for pair in cells.windows(2) {
            let (xa, ya) = cell_origin(g, m, pair[0]);
            let (xb, yb) = cell_origin(g, m, pair[1]);
            if ya == yb {
                let chr = if app.ascii { '-' } else { '─' };
                put(buf, ox + xa + m.cw, oy + ya + m.ch / 2, chr, style);
            } else {
                let ca = xa + m.cw / 2;
                let cb = xb + m.cw / 2;
                let chr = match (cb < ca, app.ascii) {
                    (true, true) => '/',
                    (true, false) => '╱',
                    (false, true) => '\\',
                    (false, false) => '╲',
                };
                put(buf, ox + (ca + cb) / 2, oy + ya + m.ch, chr, style);
            }
        }
    }
}

fn draw_cell(
    app: &App,
    g: &Geometry,
    m: Metrics,
    (ox, oy): (u16, u16),
    cell: Cell,
    conflict: bool,
    buf: &mut Buffer,
) {
    let t = &app.theme;
    let game = &app.game;
    let (x0, y0) = cell_origin(g, m, cell);
    let (x0, y0) = (ox + x0, oy + y0);
    let value = game.value(cell);
    let mid = m.ch / 2;
    let selected = app.selected_digit();
    let honeycomb = g.shape() == Shape::Honeycomb;
    // Base: blank interior.
    for dy in 0..m.ch {
        for dx in 0..m.cw {
            put(buf, x0 + dx, y0 + dy, ' ', Style::default());
        }
    }
    if honeycomb && m.mini && m.ch >= 3 {
        // A hexagon around the mini-grid.
        let last = m.cw - 1;
        let (tl, tr, side) = if app.ascii {
            ('/', '\\', '|')
        } else {
            ('╱', '╲', '│')
        };
        put(buf, x0, y0, tl, t.grid);
        put(buf, x0 + last, y0, tr, t.grid);
        for dy in 1..m.ch - 1 {
            put(buf, x0, y0 + dy, side, t.grid);
            put(buf, x0 + last, y0 + dy, side, t.grid);
        }
        put(buf, x0, y0 + m.ch - 1, tr, t.grid);
        put(buf, x0 + last, y0 + m.ch - 1, tl, t.grid);
    }
    if value != 0 {
        let style = if game.is_given(cell) {
            t.given
        } else {
            t.entry
        };
        put(
            buf,
            x0 + m.cw / 2,
            y0 + mid,
            crate::geometry::digit_char(value),
            style,
        );
    } else if m.mini {
        for d in game.marks(cell).iter() {
            let (dx, dy) = m.candidate_at(d);
            let mut style = t.candidate;
            if selected == Some(d) && app.config.display.highlight_same_digit {
                style = style.patch(t.same_digit);
            }
            put(buf, x0 + dx, y0 + dy, crate::geometry::digit_char(d), style);
        }
    } else {
        let chr = if app.ascii { '.' } else { '·' };
        put(buf, x0 + m.cw / 2, y0 + mid, chr, t.candidate);
    }
    let whole = |buf: &mut Buffer, style: Style| {
        for dy in 0..m.ch {
            for dx in 0..m.cw {
                patch(buf, x0 + dx, y0 + dy, style);
            }
        }
    };
    if cell != app.cursor && g.sees(cell, app.cursor) {
        if honeycomb {
            whole(buf, t.line);
        } else if app.config.display.highlight_houses {
            whole(buf, t.house);
        }
    }
    if value != 0 && selected == Some(value) && app.config.display.highlight_same_digit {
        whole(buf, t.same_digit);
    }
    if let Some(hs) = app.hint.as_ref().filter(|h| h.stage >= 3) {
        // Houses first, then cells, then candidates: the more specific wins.
        let mut highlights = hs.hint.highlights.clone();
        highlights.sort_by_key(|h| match h.target {
            Target::House(_) => 0,
            Target::Cell(_) | Target::Link(..) => 1,
            Target::Candidate(_) => 2,
        });
        for hl in &highlights {
            let style = t.role(hl.role);
            match hl.target {
                Target::Cell(c) if c == cell => whole(buf, style),
                Target::House(h) if g.house(h).cells.contains(&cell) => whole(buf, style),
                Target::Candidate(cand) if cand.cell == cell => {
                    if m.mini && value == 0 {
                        let (dx, dy) = m.candidate_at(cand.digit);
                        let chr = crate::geometry::digit_char(cand.digit);
                        put(buf, x0 + dx, y0 + dy, chr, t.candidate.patch(style));
                    } else {
                        whole(buf, style);
                    }
                }
                Target::Link(a, b, _) if a.cell == cell || b.cell == cell => whole(buf, style),
                _ => {}
            }
        }
    }
    if value != 0 && app.config.game.show_conflicts && conflict {
        patch(buf, x0 + m.cw / 2, y0 + mid, t.conflict);
    }
    if app.checked.contains(&cell) {
        whole(buf, t.wrong);
    }
    if cell == app.cursor {
        whole(buf, t.cursor);
        put(buf, x0, y0 + mid, '[', t.cursor);
        put(buf, x0 + m.cw - 1, y0 + mid, ']', t.cursor);
    }
}
