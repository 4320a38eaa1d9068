//! Drawing the grid from a [`Plan`]: square grids as a line grid whose edge weights come
//! from the houses (boxes and jigsaw regions heavy, killer cages light, cells inside a cage
//! open, a box border inside one cage dashed), and the honeycomb as offset rows of hexagons.

use super::super::app::App;
use super::layout::{Marks, Plan};
use crate::geometry::{digit_char, Cell, Diagonal, Geometry, HouseId, HouseKind, Shape};
use crate::solver::logic::Target;
use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};

/// Edge weights between two neighbouring cells.
const OPEN: u8 = 0;
const LIGHT: u8 = 1;
const HEAVY: u8 = 2;
/// A box or region border between two cells of one killer cage: the cage goes on.
const DASHED: u8 = 3;

/// Box-drawing characters indexed by arm weights (0 none, 1 light, 2 heavy) as
/// up*27 + down*9 + left*3 + right.
const JUNCTIONS: &str =
    " ╶╺╴─╼╸╾━╷┌┍┐┬┮┑┭┯╻┎┏┒┰┲┓┱┳╵└┕┘┴┶┙┵┷│├┝┤┼┾┥┽┿╽┟┢┧╁╆┪╅╈╹┖┗┚┸┺┛┹┻╿┞┡┦╀╄┩╃╇┃┠┣┨╂╊┫╉╋";

fn vertical(w: u8, ascii: bool) -> char {
    match (w, ascii) {
        (OPEN, _) => ' ',
        (LIGHT, false) => '│',
        (LIGHT, true) => '|',
        (HEAVY, false) => '┃',
        (HEAVY, true) => '#',
        (_, false) => '╏',
        (_, true) => ':',
    }
}

fn horizontal(w: u8, ascii: bool) -> char {
    match (w, ascii) {
        (OPEN, _) => ' ',
        (LIGHT, false) => '─',
        (LIGHT, true) => '-',
        (HEAVY, false) => '━',
        (HEAVY, true) => '=',
        (_, false) => '╍',
        (_, true) => '~',
    }
}

/// The character where lines meet. A straight run keeps its own glyph (so a dashed line
/// stays dashed); in ASCII a crossing shows the heavier direction: `#` on a heavy vertical,
/// `=` on a heavy horizontal, `+` where only light lines meet.
fn junction(up: u8, down: u8, left: u8, right: u8, ascii: bool) -> char {
    if left == 0 && right == 0 && up == down {
        return vertical(up, ascii);
    }
    if up == 0 && down == 0 && left == right {
        return horizontal(left, ascii);
    }
    let heavy = |w: u8| if w == DASHED { HEAVY } else { w };
    let (up, down, left, right) = (heavy(up), heavy(down), heavy(left), heavy(right));
    if ascii {
        let (v, h) = (up.max(down), left.max(right));
        return match (v, h) {
            (0, 0) => ' ',
            (0, _) => horizontal(h, true),
            (_, 0) => vertical(v, true),
            (HEAVY, _) => '#',
            (_, HEAVY) => '=',
            _ => '+',
        };
    }
    let i =
        usize::from(up) * 27 + usize::from(down) * 9 + usize::from(left) * 3 + usize::from(right);
    JUNCTIONS.chars().nth(i).unwrap_or('+')
}

/// Per-cell facts drawing needs: the box or region, and the cage.
pub struct Zones {
    region: Vec<usize>,
    pub cage: Vec<Option<HouseId>>,
    pub killer: bool,
}

impl Zones {
    pub fn new(g: &Geometry) -> Zones {
        let n = g.cell_count();
        let mut z = Zones {
            region: vec![0; n],
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
        let same_cage = self.killer && self.cage[a].is_some() && self.cage[a] == self.cage[b];
        match (self.region[a] != self.region[b], same_cage) {
            (true, true) => DASHED,
            (true, false) => HEAVY,
            (false, true) => OPEN,
            (false, false) => LIGHT,
        }
    }

    /// Whether the edge between two cells is a killer cage's outline.
    fn cage_edge(&self, a: Cell, b: Cell) -> bool {
        self.killer && self.cage[a] != self.cage[b]
    }
}

fn put(buf: &mut Buffer, x: u16, y: u16, ch: char, style: Style) {
    let area = buf.area;
    if x >= area.x && y >= area.y && x < area.right() && y < area.bottom() {
        buf[(x, y)].set_char(ch).set_style(style);
    }
}

fn put_str(buf: &mut Buffer, x: u16, y: u16, s: &str, style: Style) {
    for (i, ch) in s.chars().enumerate() {
        put(buf, x + i as u16, y, ch, style);
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

/// Draws the grid, its labels and every cell.
pub fn draw(app: &App, plan: &Plan, buf: &mut Buffer) {
    let g = app.game.geometry();
    let z = Zones::new(g);
    match g.shape() {
        Shape::Square { size, .. } => {
            draw_square_lines(app, g, &z, size, plan, buf);
            // Killer sums sit on the top border of their first cell: then the column
            // numbers go on the bottom border.
            let bottom = z.killer && !plan.sum_in_cell;
            labels_square(app, g, size, plan, bottom, buf);
        }
        Shape::Honeycomb => {
            draw_honeycomb_lines(app, g, plan, buf);
            labels_honeycomb(app, g, plan, buf);
        }
    }
    if app.game.paused {
        return;
    }
    let named = named_by_hint(app);
    let conflicts = app.game.conflicts();
    for cell in g.cells() {
        draw_cell(app, g, plan, cell, conflicts[cell], &named, buf);
    }
    if matches!(g.shape(), Shape::Square { .. }) {
        cage_sums(app, g, &z, plan, buf);
        diagonal_marks(app, g, plan, buf);
        underlines(g, &z, plan, buf);
    }
}

/// The cage of the selected cell, if any.
fn selected_cage(app: &App, z: &Zones) -> Option<HouseId> {
    z.cage.get(app.cursor).copied().flatten()
}

fn draw_square_lines(app: &App, g: &Geometry, z: &Zones, n: usize, p: &Plan, buf: &mut Buffer) {
    let t = &app.theme;
    let at = |r: usize, c: usize| r * n + c;
    let sel = selected_cage(app, z);
    // Vertical line c beside row r; horizontal line r above column c.
    let v = |r: usize, c: usize| -> u8 {
        if c == 0 || c == n {
            HEAVY
        } else {
            z.edge(at(r, c - 1), at(r, c))
        }
    };
    let h = |r: usize, c: usize| -> u8 {
        if r == 0 || r == n {
            HEAVY
        } else {
            z.edge(at(r - 1, c), at(r, c))
        }
    };
    let light = if z.killer { t.cage } else { t.grid };
    // The selected cell's cage stands out: its outline in bold.
    let emphasis = |a: Option<Cell>, b: Option<Cell>| {
        let on = |c: Option<Cell>| c.is_some_and(|c| sel.is_some() && z.cage[c] == sel);
        let edge = match (a, b) {
            (Some(a), Some(b)) => z.cage_edge(a, b),
            _ => z.killer,
        };
        edge && (on(a) || on(b))
    };
    let style = |w: u8, emph: bool| {
        let s = if w == HEAVY { t.box_border } else { light };
        if emph {
            t.cage.add_modifier(Modifier::BOLD)
        } else if w == DASHED {
            t.box_border.patch(t.cage)
        } else {
            s
        }
    };
    let ascii = app.ascii;
    for r in 0..=n {
        let Some(y) = p.line_y(r as u16) else {
            continue;
        };
        for c in 0..=n {
            let x = p.line_x(c as u16);
            let up = if r > 0 { v(r - 1, c) } else { 0 };
            let down = if r < n { v(r, c) } else { 0 };
            let left = if c > 0 { h(r, c - 1) } else { 0 };
            let right = if c < n { h(r, c) } else { 0 };
            let w = up.max(down).max(left).max(right);
            put(
                buf,
                x,
                y,
                junction(up, down, left, right, ascii),
                style(w, false),
            );
            if c < n {
                let w = h(r, c);
                let above = (r > 0).then(|| at(r - 1, c));
                let below = (r < n).then(|| at(r, c));
                let s = style(w, emphasis(above, below));
                for dx in 1..=p.cw {
                    put(buf, x + dx, y, horizontal(w, ascii), s);
                }
            }
        }
    }
    for r in 0..n {
        let top = p.cell_rect(g, at(r, 0)).y;
        for c in 0..=n {
            let w = v(r, c);
            let left = (c > 0).then(|| at(r, c - 1));
            let right = (c < n).then(|| at(r, c));
            let s = style(w, emphasis(left, right));
            for dy in 0..p.ch {
                put(buf, p.line_x(c as u16), top + dy, vertical(w, ascii), s);
            }
        }
    }
    // Diagonals: at the corners they pass through when lines are drawn there, else in
    // the free bottom-right spot of each cell on them.
    for house in g.houses() {
        let HouseKind::Diagonal(d) = house.kind else {
            continue;
        };
        let chr = match (d, ascii) {
            (Diagonal::Main, true) => '\\',
            (Diagonal::Main, false) => '╲',
            (Diagonal::Anti, true) => '/',
            (Diagonal::Anti, false) => '╱',
        };
        if p.row_lines {
            for i in 1..n {
                let c = match d {
                    Diagonal::Main => i,
                    Diagonal::Anti => n - i,
                };
                if let Some(y) = p.line_y(i as u16) {
                    put(buf, p.line_x(c as u16), y, chr, t.diagonal);
                }
            }
        }
    }
}

/// Without corners between cell rows, a diagonal is marked in the free bottom-right spot
/// of each of its cells (`X` where both cross); drawn after the cells.
fn diagonal_marks(app: &App, g: &Geometry, p: &Plan, buf: &mut Buffer) {
    let spot = (p.cw - 1, p.ch - 1);
    if p.row_lines || (1..=g.max_digit()).any(|d| p.candidate_pos(d) == Some(spot)) {
        return;
    }
    for house in g.houses() {
        let HouseKind::Diagonal(d) = house.kind else {
            continue;
        };
        let chr = match (d, app.ascii) {
            (Diagonal::Main, true) => '\\',
            (Diagonal::Main, false) => '╲',
            (Diagonal::Anti, true) => '/',
            (Diagonal::Anti, false) => '╱',
        };
        for &cell in &house.cells {
            let r = p.cell_rect(g, cell);
            let (x, y) = (r.right() - 1, r.bottom() - 1);
            let both = matches!(buf[(x, y)].symbol(), "╲" | "╱" | "\\" | "/");
            let style = buf[(x, y)].style().patch(app.theme.diagonal);
            put(buf, x, y, if both { 'X' } else { chr }, style);
        }
    }
}

/// Column numbers in the top (or bottom) border, row numbers left of the grid; the
/// selected cell's are bold and underlined.
fn labels_square(app: &App, g: &Geometry, n: usize, p: &Plan, bottom: bool, buf: &mut Buffer) {
    let (row, col) = g.coords(app.cursor);
    let style = |on: bool| {
        if on {
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default()
        }
    };
    for c in 0..n {
        let label = (c + 1).to_string();
        let x = p.line_x(c as u16) + 1 + p.cw.saturating_sub(label.len() as u16) / 2;
        let y = if bottom {
            p.grid.bottom() - 1
        } else {
            p.grid.y
        };
        put_str(buf, x, y, &label, style(c + 1 == usize::from(col)));
    }
    for r in 0..n {
        let label = format!("{:>w$}", r + 1, w = usize::from(p.label_w - 1));
        let y = p.cell_rect(g, r * n).y + p.digit_pos().1;
        put_str(
            buf,
            p.grid.x - p.label_w,
            y,
            &label,
            style(r + 1 == usize::from(row)),
        );
    }
}

fn labels_honeycomb(app: &App, g: &Geometry, p: &Plan, buf: &mut Buffer) {
    let row = g.coords(app.cursor).0;
    for (i, _) in g.row_lengths().iter().enumerate() {
        let Some(first) = g.cell_at(i + 1, 1) else {
            continue;
        };
        let y = p.cell_rect(g, first).y + p.digit_pos().1;
        let label = format!("{:>w$}", i + 1, w = usize::from(p.label_w - 1));
        let style = if i + 1 == usize::from(row) {
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default()
        };
        put_str(buf, p.grid.x - p.label_w, y, &label, style);
    }
}

/// Each cage's sum in its first cell: on the top border when cells have their own lines,
/// else in the cell's free bottom-right corner.
fn cage_sums(app: &App, g: &Geometry, z: &Zones, p: &Plan, buf: &mut Buffer) {
    if !z.killer || p.cw < 2 {
        return;
    }
    let sel = selected_cage(app, z);
    for (id, house) in g.houses().iter().enumerate() {
        let (HouseKind::Cage(_), crate::geometry::Rule::Cage { sum }) = (house.kind, house.rule)
        else {
            continue;
        };
        let Some(&first) = house.cells.iter().min() else {
            continue;
        };
        let r = p.cell_rect(g, first);
        let text = sum.to_string();
        let mut style = app.theme.cage.add_modifier(Modifier::BOLD);
        if sel == Some(id) {
            style = style.add_modifier(Modifier::REVERSED);
        }
        if p.sum_in_cell {
            let x = r.right() - text.len() as u16;
            put_str(buf, x, r.bottom() - 1, &text, style);
        } else {
            put_str(buf, r.x, r.y - 1, &text, style);
        }
    }
}

/// Without a line between two cell rows, an edge there (a cage or region outline) is an
/// underline along the bottom of the upper cell.
fn underlines(g: &Geometry, z: &Zones, p: &Plan, buf: &mut Buffer) {
    if p.row_lines {
        return;
    }
    let Shape::Square { size: n, .. } = g.shape() else {
        return;
    };
    for r in 1..n {
        if p.line_y(r as u16).is_some() {
            continue;
        }
        for c in 0..n {
            let (a, b) = ((r - 1) * n + c, r * n + c);
            let w = z.edge(a, b);
            if w == HEAVY || w == DASHED || (z.killer && w == LIGHT) {
                let rect = p.cell_rect(g, a);
                let mut s = Style::default().add_modifier(Modifier::UNDERLINED);
                if w == HEAVY {
                    s = s.add_modifier(Modifier::BOLD);
                }
                for dx in 0..rect.width {
                    patch(buf, rect.x + dx, rect.bottom() - 1, s);
                }
            }
        }
    }
}

fn draw_honeycomb_lines(app: &App, g: &Geometry, p: &Plan, buf: &mut Buffer) {
    if app.game.paused {
        return;
    }
    if !p.row_lines {
        // Stacked two-line cells: a bar between neighbours of a row keeps their marks apart.
        let bar = if app.ascii { '|' } else { '│' };
        for cell in g.cells() {
            let (row, col) = g.coords(cell);
            if g.cell_at(usize::from(row), usize::from(col) + 1).is_none() {
                continue;
            }
            let r = p.cell_rect(g, cell);
            for y in r.y..r.bottom() {
                put(buf, r.right(), y, bar, app.theme.grid);
            }
        }
    }
    // The three lines through the selected cell, drawn as connectors between their cells.
    let style = app.theme.line;
    for &h in g.houses_of(app.cursor) {
        let mut cells = g.house(h).cells.clone();
        cells.sort_by_key(|&c| (g.screen_pos(c).1, g.screen_pos(c).0));
        for pair in cells.windows(2) {
            let a = p.cell_rect(g, pair[0]);
            let b = p.cell_rect(g, pair[1]);
            if a.y == b.y {
                let chr = if app.ascii { '-' } else { '─' };
                put(buf, a.right(), a.y + p.digit_pos().1, chr, style);
            } else if p.row_lines {
                let ca = a.x + p.cw / 2;
                let cb = b.x + p.cw / 2;
                let chr = match (cb < ca, app.ascii) {
                    (true, true) => '/',
                    (true, false) => '╱',
                    (false, true) => '\\',
                    (false, false) => '╲',
                };
                put(buf, (ca + cb) / 2, a.bottom(), chr, style);
            }
        }
    }
}

/// Houses and cells a hint's first stages name ("Look at box 4"), to highlight them.
pub struct Named {
    houses: Vec<HouseId>,
    cells: Vec<Cell>,
}

/// Reads the houses and cells named in the text of the hint stage on show.
fn named_by_hint(app: &App) -> Named {
    let mut named = Named {
        houses: Vec::new(),
        cells: Vec::new(),
    };
    let Some(hs) = app.hint.as_ref().filter(|h| h.stage < 3) else {
        return named;
    };
    let g = app.game.geometry();
    let text = hs.hint.text(hs.detail());
    let mentions = |name: &str| {
        text.match_indices(name).any(|(i, _)| {
            !text[i + name.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
        })
    };
    for (id, house) in g.houses().iter().enumerate() {
        if mentions(&house.name()) {
            named.houses.push(id);
        }
    }
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        if let Some(c) = g.parse_cell(word).filter(|_| word.starts_with('r')) {
            named.cells.push(c);
        }
    }
    named
}

fn draw_cell(
    app: &App,
    g: &Geometry,
    p: &Plan,
    cell: Cell,
    conflict: bool,
    named: &Named,
    buf: &mut Buffer,
) {
    let t = &app.theme;
    let game = &app.game;
    let r = p.cell_rect(g, cell);
    let (x0, y0) = (r.x, r.y);
    let value = game.value(cell);
    let (vx, vy) = p.digit_pos();
    let selected = app.selected_digit();
    let honeycomb = g.shape() == Shape::Honeycomb;
    // Every other cell row inside a box is shaded when rows have no line between them.
    let shaded = !p.row_lines && {
        let row = u16::from(g.coords(cell).0) - 1;
        row % p.band.max(1) % 2 == 1 || (honeycomb && row % 2 == 1)
    };
    let base = if shaded { t.shade } else { Style::default() };
    for dy in 0..p.ch {
        for dx in 0..p.cw {
            put(buf, x0 + dx, y0 + dy, ' ', base);
        }
    }
    if honeycomb && p.ch >= 2 && p.row_lines {
        // A hexagon around the mini-grid.
        let last = p.cw - 1;
        let (tl, tr, side) = if app.ascii {
            ('/', '\\', '|')
        } else {
            ('╱', '╲', '│')
        };
        put(buf, x0, y0, tl, t.grid);
        put(buf, x0 + last, y0, tr, t.grid);
        for dy in 1..p.ch - 1 {
            put(buf, x0, y0 + dy, side, t.grid);
            put(buf, x0 + last, y0 + dy, side, t.grid);
        }
        put(buf, x0, y0 + p.ch - 1, tr, t.grid);
        put(buf, x0 + last, y0 + p.ch - 1, tl, t.grid);
    }
    let value_style = if game.is_given(cell) {
        t.given
    } else {
        t.entry
    };
    if value != 0 {
        put(
            buf,
            x0 + vx,
            y0 + vy,
            digit_char(value),
            base.patch(value_style),
        );
    } else if let Marks::Grid { .. } = p.marks {
        if game.marks(cell).is_empty() {
            // An empty cell without marks still reads as a cell to fill.
            let chr = if app.ascii { '.' } else { '·' };
            put(buf, x0 + vx, y0 + vy, chr, base.patch(t.candidate));
        }
        for d in game.marks(cell).iter() {
            let Some((dx, dy)) = p.candidate_pos(d) else {
                continue;
            };
            let mut style = base.patch(t.candidate);
            if selected == Some(d) && app.config.display.highlight_same_digit {
                style = style.patch(t.same_digit);
            }
            put(buf, x0 + dx, y0 + dy, digit_char(d), style);
        }
    } else {
        let chr = if app.ascii { '.' } else { '·' };
        put(buf, x0 + vx, y0 + vy, chr, base.patch(t.candidate));
    }
    // A highlight keeps the digit's own colour, so a given still reads as a given and an
    // entry as an entry inside a highlighted house.
    let whole = |buf: &mut Buffer, style: Style| {
        for dy in 0..p.ch {
            for dx in 0..p.cw {
                let s = if value != 0 && (dx, dy) == (vx, vy) {
                    Style { fg: None, ..style }
                } else {
                    style
                };
                patch(buf, x0 + dx, y0 + dy, s);
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
    if named.cells.contains(&cell)
        || named
            .houses
            .iter()
            .any(|&h| g.house(h).cells.contains(&cell))
    {
        whole(buf, t.role(crate::solver::logic::Role::Defining));
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
                    match p.candidate_pos(cand.digit).filter(|_| value == 0) {
                        Some((dx, dy)) => {
                            let chr = digit_char(cand.digit);
                            put(buf, x0 + dx, y0 + dy, chr, t.candidate.patch(style));
                        }
                        // Without a mark grid (a small terminal, 16x16 at 80x24) the digit
                        // to place takes the dot's place: colour alone would hide it.
                        None if value == 0 && hl.role == crate::solver::logic::Role::Placement => {
                            whole(buf, style);
                            let chr = digit_char(cand.digit);
                            put(buf, x0 + vx, y0 + vy, chr, t.candidate.patch(style));
                        }
                        None => whole(buf, style),
                    }
                }
                Target::Link(a, b, _) if a.cell == cell || b.cell == cell => whole(buf, style),
                _ => {}
            }
        }
    }
    if value != 0 && app.config.game.show_conflicts && conflict {
        patch(buf, x0 + vx, y0 + vy, t.conflict);
    }
    if app.checked.contains(&cell) {
        whole(buf, t.wrong);
        // A mark beside the digit that reads without colour.
        if value != 0 && p.cw >= 3 {
            put(buf, x0 + vx + 1, y0 + vy, '!', t.wrong);
        }
    }
    if cell == app.cursor {
        whole(buf, t.cursor);
        // Brackets where they hide nothing: beside a digit or a dot, not over marks.
        let marks_drawn = value == 0 && p.marks_visible();
        if p.cw >= 3 && !marks_drawn {
            put(buf, x0 + vx - 1, y0 + vy, '[', t.cursor);
            put(buf, x0 + vx + 1, y0 + vy, ']', t.cursor);
        }
    }
}
