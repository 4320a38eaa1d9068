//! The drawing of a page as plain shapes in points (1/72 inch, `y` down from the top left),
//! computed once here and written by both [`super::svg`] and [`super::pdf`], so the two
//! outputs cannot disagree about what a puzzle looks like.

use super::metrics::text_width;
use crate::geometry::{digit_char, Cell, Digits, HouseKind, Shape};
use crate::puzzle::Puzzle;

/// A point: `x` right, `y` down.
pub type Pt = (f32, f32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    pub const BLACK: Color = Color(0, 0, 0);
    pub const WHITE: Color = Color(255, 255, 255);
    pub const fn gray(v: u8) -> Color {
        Color(v, v, v)
    }
}

/// How a line ends: butt for hairlines, square so heavy borders meet without notches,
/// round for the honeycomb's slanted edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    Butt,
    Square,
    Round,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub width: f32,
    pub color: Color,
    /// Dash and gap lengths and where in the pattern the line starts, for killer cages.
    pub dash: Option<Dash>,
    pub cap: Cap,
}

impl Stroke {
    fn solid(width: f32, color: Color, cap: Cap) -> Stroke {
        Stroke {
            width,
            color,
            dash: None,
            cap,
        }
    }
}

/// A dash pattern: `on` drawn, `off` left out, repeated from `phase` into the pattern.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dash {
    pub on: f32,
    pub off: f32,
    pub phase: f32,
}

impl Dash {
    /// The pattern nearest `on`/`off` that fits a line of `length` in whole periods and
    /// starts and ends half way through a dash: corners and the joints of straight runs
    /// are inked, each half dash meeting the next line's.
    fn fitted(on: f32, off: f32, length: f32) -> Dash {
        let periods = (length / (on + off)).round().max(1.0);
        let scale = length / (periods * (on + off));
        Dash {
            on: on * scale,
            off: off * scale,
            phase: on * scale / 2.0,
        }
    }
}

/// Where a text's `x` lies: its start, middle or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// One shape of a page.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Line {
        from: Pt,
        to: Pt,
        stroke: Stroke,
    },
    Polygon {
        points: Vec<Pt>,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    /// `at` is the baseline point; `text` holds no control characters.
    Text {
        at: Pt,
        size: f32,
        text: String,
        anchor: Anchor,
        bold: bool,
        color: Color,
    },
}

/// A page: its size in points and its shapes, painted in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub width: f32,
    pub height: f32,
    pub items: Vec<Item>,
}

/// What goes in the cells besides the givens.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fill<'a> {
    /// A digit per cell placed after the givens (0 = none): a player's entries, or the
    /// solution; drawn lighter than the givens.
    pub entries: Option<&'a [u8]>,
    /// Pencil marks per cell, drawn where a cell has no digit.
    pub marks: Option<&'a [Digits]>,
    /// Tint jigsaw regions.
    pub tint: bool,
    /// Leave out killer cages (a solution grid needs only its digits).
    pub no_cages: bool,
}

/// Pastel fills for tinted regions: light enough that black digits stay clear in gray
/// print, distinct from each other on screen.
const TINTS: [Color; 9] = [
    Color(255, 228, 225),
    Color(225, 240, 255),
    Color(230, 250, 228),
    Color(255, 246, 214),
    Color(238, 228, 250),
    Color(218, 245, 242),
    Color(250, 232, 242),
    Color(236, 236, 236),
    Color(245, 238, 222),
];

const ENTRY: Color = Color(30, 70, 150);
const MARK: Color = Color(90, 90, 90);

/// Text made safe for both writers: control characters become spaces, and very long
/// titles are cut (a page has no room for them anyway).
pub fn clean(text: &str) -> String {
    text.chars()
        .take(300)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Width of a text as the wider of its own and its transliterated form (the PDF writes
/// the latter when the font lacks a character).
fn measure(text: &str, size: f32, bold: bool) -> f32 {
    let ascii = deunicode::deunicode(text);
    text_width(text, size, bold).max(text_width(&ascii, size, bold))
}

/// A text item at most `max_width` wide: shrunk down to `min_size`, then cut with "...".
pub fn fitted_text(
    text: &str,
    at: Pt,
    size: f32,
    min_size: f32,
    max_width: f32,
    anchor: Anchor,
    bold: bool,
) -> Item {
    let mut text = clean(text);
    let mut size = size;
    let w = measure(&text, size, bold);
    if w > max_width && w > 0.0 {
        size = (size * max_width / w).max(min_size);
    }
    if measure(&text, size, bold) > max_width {
        loop {
            text.pop();
            text.truncate(text.trim_end_matches([' ', '.']).len());
            if text.is_empty() || measure(&format!("{text}..."), size, bold) <= max_width {
                break;
            }
        }
        text.push_str("...");
    }
    Item::Text {
        at,
        size,
        text,
        anchor,
        bold,
        color: Color::BLACK,
    }
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Vec<Pt> {
    vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
}

fn text(at: Pt, size: f32, s: String, bold: bool, color: Color) -> Item {
    Item::Text {
        at,
        size,
        text: s,
        anchor: Anchor::Middle,
        bold,
        color,
    }
}

/// Where a cell's digit and marks go: its centre and the side of the square it fills.
#[derive(Clone, Copy)]
struct CellBox {
    centre: Pt,
    /// Side of the square a digit is sized to.
    side: f32,
    /// The rectangle pencil marks spread over: its top left, width and height.
    marks: (Pt, f32, f32),
}

impl CellBox {
    /// A cell whose marks spread over a square of side `marks_side` around its centre.
    fn centred(centre: Pt, side: f32, marks_side: f32) -> CellBox {
        let corner = (centre.0 - marks_side / 2.0, centre.1 - marks_side / 2.0);
        CellBox {
            centre,
            side,
            marks: (corner, marks_side, marks_side),
        }
    }
}

/// Draws a puzzle into the square of side `side` with its top left at (`x`, `y`).
pub fn draw_puzzle(items: &mut Vec<Item>, puzzle: &Puzzle, fill: &Fill, x: f32, y: f32, side: f32) {
    let boxes = match puzzle.geometry().shape() {
        Shape::Square { size, .. } if size > 0 => {
            draw_square(items, puzzle, fill, x, y, side, size)
        }
        Shape::Square { .. } => return,
        Shape::Honeycomb => draw_honeycomb(items, puzzle, x, y, side),
    };
    draw_digits(items, puzzle, fill, &boxes);
}

/// The given or entered digit of each cell and, where there is none, its pencil marks.
fn draw_digits(items: &mut Vec<Item>, puzzle: &Puzzle, fill: &Fill, boxes: &[CellBox]) {
    let n = usize::from(puzzle.geometry().max_digit()).max(1);
    let cols = (1..=n).find(|c| c * c >= n).unwrap_or(n);
    let rows = n.div_ceil(cols);
    for (cell, b) in boxes.iter().enumerate() {
        let given = puzzle.givens.get(cell).copied().unwrap_or(0);
        let entry = fill.entries.and_then(|e| e.get(cell).copied()).unwrap_or(0);
        let (cx, cy) = b.centre;
        if given != 0 || entry != 0 {
            let fs = b.side * 0.62;
            let (d, bold, color) = if given != 0 {
                (given, true, Color::BLACK)
            } else {
                (entry, false, ENTRY)
            };
            let at = (cx, cy + fs * 0.36);
            items.push(text(at, fs, digit_char(d).to_string(), bold, color));
            continue;
        }
        let Some(marks) = fill.marks.and_then(|m| m.get(cell).copied()) else {
            continue;
        };
        let ((x0, y0), mw, mh) = b.marks;
        let step_x = mw / cols as f32;
        let step_y = mh / rows as f32;
        let fs = step_y.min(step_x * 1.4) * 0.78;
        for d in marks.iter() {
            let k = usize::from(d) - 1;
            let (r, c) = (k / cols, k % cols);
            let at = (
                x0 + (c as f32 + 0.5) * step_x,
                y0 + (r as f32 + 0.5) * step_y + fs * 0.36,
            );
            items.push(text(at, fs, digit_char(d).to_string(), false, MARK));
        }
    }
}

fn draw_square(
    items: &mut Vec<Item>,
    puzzle: &Puzzle,
    fill: &Fill,
    x: f32,
    y: f32,
    side: f32,
    n: usize,
) -> Vec<CellBox> {
    let g = puzzle.geometry();
    let s = side / n as f32;
    let mut block = vec![usize::MAX; n * n];
    let mut cage = vec![usize::MAX; n * n];
    let mut cage_sums = Vec::new();
    let mut region_no = 0;
    for (h, house) in g.houses().iter().enumerate() {
        match house.kind {
            HouseKind::Box(_) | HouseKind::Region(_) => {
                let tint = TINTS[region_no % TINTS.len()];
                region_no += 1;
                for &c in &house.cells {
                    if let Some(b) = block.get_mut(c) {
                        *b = h;
                    }
                    if fill.tint && puzzle.layout.regions.is_some() {
                        let (r, col) = (c / n, c % n);
                        let p = rect(x + col as f32 * s, y + r as f32 * s, s, s);
                        items.push(Item::Polygon {
                            points: p,
                            fill: Some(tint),
                            stroke: None,
                        });
                    }
                }
            }
            HouseKind::Cage(_) if !fill.no_cages => {
                let k = cage_sums.len();
                if let crate::geometry::Rule::Cage { sum } = house.rule {
                    cage_sums.push((house.cells.iter().copied().min(), sum));
                }
                for &c in &house.cells {
                    if let Some(slot) = cage.get_mut(c) {
                        *slot = k;
                    }
                }
            }
            _ => {}
        }
    }
    if puzzle.layout.diagonals {
        // Shaded cells mark the diagonals under the digits; a thin line says which way.
        for i in 0..n {
            for c in [i, n - 1 - i] {
                items.push(Item::Polygon {
                    points: rect(x + c as f32 * s, y + i as f32 * s, s, s),
                    fill: Some(Color::gray(232)),
                    stroke: None,
                });
            }
        }
        let st = Stroke::solid(s * 0.02, Color::gray(150), Cap::Butt);
        items.push(Item::Line {
            from: (x, y),
            to: (x + side, y + side),
            stroke: st,
        });
        items.push(Item::Line {
            from: (x, y + side),
            to: (x + side, y),
            stroke: st,
        });
    }
    // Line weights follow the cell up to a full-page 9x9's: larger cells (4x4, 6x6) keep
    // its weights, or their borders would print as bars.
    let weight = s.min(FULL_PAGE_CELL);
    let thin = Stroke::solid((weight * 0.018).max(0.3), Color::gray(80), Cap::Butt);
    for i in 1..n {
        let t = i as f32 * s;
        items.push(Item::Line {
            from: (x, y + t),
            to: (x + side, y + t),
            stroke: thin,
        });
        items.push(Item::Line {
            from: (x + t, y),
            to: (x + t, y + side),
            stroke: thin,
        });
    }
    let heavy = Stroke::solid((weight * 0.065).max(0.8), Color::BLACK, Cap::Square);
    draw_cages(items, &cage, &cage_sums, n, (x, y, s), heavy.width);
    // Heavy borders where the box or region changes, merged along each grid line.
    for i in 1..n {
        let (mut run_h, mut run_v): (Option<usize>, Option<usize>) = (None, None);
        for j in 0..=n {
            let split_h = j < n && block[(i - 1) * n + j] != block[i * n + j];
            let split_v = j < n && block[j * n + i - 1] != block[j * n + i];
            let t = i as f32 * s;
            match (split_h, run_h) {
                (true, None) => run_h = Some(j),
                (false, Some(a)) => {
                    items.push(Item::Line {
                        from: (x + a as f32 * s, y + t),
                        to: (x + j as f32 * s, y + t),
                        stroke: heavy,
                    });
                    run_h = None;
                }
                _ => {}
            }
            match (split_v, run_v) {
                (true, None) => run_v = Some(j),
                (false, Some(a)) => {
                    items.push(Item::Line {
                        from: (x + t, y + a as f32 * s),
                        to: (x + t, y + j as f32 * s),
                        stroke: heavy,
                    });
                    run_v = None;
                }
                _ => {}
            }
        }
    }
    items.push(Item::Polygon {
        points: rect(x, y, side, side),
        fill: None,
        stroke: Some(heavy),
    });
    let killer = !cage_sums.is_empty();
    (0..n * n)
        .map(|c| {
            let (left, top) = (x + (c % n) as f32 * s, y + (c / n) as f32 * s);
            let centre = (left + s / 2.0, top + s / 2.0);
            if !killer {
                return CellBox::centred(centre, s, s * 0.82);
            }
            // Marks keep inside the cage outlines and below where a sum may stand.
            let below = sum_bottom(heavy.width, s) + s * 0.05;
            CellBox {
                centre,
                side: s,
                marks: ((left + s * 0.13, top + below), s * 0.74, s * 0.88 - below),
            }
        })
        .collect()
}

/// How far below its cell's top a cage sum's digits reach.
fn sum_bottom(heavy: f32, s: f32) -> f32 {
    heavy / 2.0 + s * 0.04 + s * SUM_SIZE * DIGIT_HEIGHT
}

/// A cage sum's font size, as a share of the cell's side.
const SUM_SIZE: f32 = 0.24;

/// Height of Helvetica's digits above the baseline, in ems.
const DIGIT_HEIGHT: f32 = 0.71;

/// About the side of a 9x9 cell on a page of its own (A4: 55.03, letter: 56.9), in points.
const FULL_PAGE_CELL: f32 = 55.0;

/// Killer cages: dashed outlines inset from the cell edges (so box borders never hide
/// them), and each cage's sum in the corner of its first cell, clear of the heavy border
/// (`heavy` wide) that cell may have.
fn draw_cages(
    items: &mut Vec<Item>,
    cage: &[usize],
    sums: &[(Option<Cell>, u32)],
    n: usize,
    (x, y, s): (f32, f32, f32),
    heavy: f32,
) {
    if sums.is_empty() {
        return;
    }
    let d = s * 0.1;
    let weight = s.min(FULL_PAGE_CELL);
    let stroke = Stroke {
        width: (weight * 0.022).max(0.35),
        color: Color::gray(30),
        dash: None,
        cap: Cap::Butt,
    };
    let (dash_on, dash_off) = (weight * 0.07, weight * 0.05);
    let inside = |r: isize, c: isize, k: usize| {
        r >= 0
            && c >= 0
            && (r as usize) < n
            && (c as usize) < n
            && cage[r as usize * n + c as usize] == k
    };
    for (cell, &k) in cage.iter().enumerate() {
        if k == usize::MAX {
            continue;
        }
        let (r, c) = ((cell / n) as isize, (cell % n) as isize);
        let centre = (x + (c as f32 + 0.5) * s, y + (r as f32 + 0.5) * s);
        for (nr, nc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
            if inside(r + nr, c + nc, k) {
                continue;
            }
            // The outline runs along this edge, `d` inside it; each end stops short at an
            // outer corner, meets the next cell's line on a straight run, and reaches past
            // the edge at an inner corner, where the outline turns outwards.
            let (tr, tc) = (nc, nr);
            let off = |e: isize| {
                if !inside(r + e * tr, c + e * tc, k) {
                    s / 2.0 - d
                } else if inside(r + e * tr + nr, c + e * tc + nc, k) {
                    s / 2.0 + d
                } else {
                    s / 2.0
                }
            };
            let base = (
                centre.0 + nc as f32 * (s / 2.0 - d),
                centre.1 + nr as f32 * (s / 2.0 - d),
            );
            let (a, b) = (off(-1), off(1));
            items.push(Item::Line {
                from: (base.0 - tc as f32 * a, base.1 - tr as f32 * a),
                to: (base.0 + tc as f32 * b, base.1 + tr as f32 * b),
                stroke: Stroke {
                    dash: Some(Dash::fitted(dash_on, dash_off, a + b)),
                    ..stroke
                },
            });
        }
    }
    for &(first, sum) in sums {
        let Some(first) = first else { continue };
        let (r, c) = (first / n, first % n);
        let (left, top) = (x + c as f32 * s, y + r as f32 * s);
        let fs = s * SUM_SIZE;
        let label = sum.to_string();
        let w = text_width(&label, fs, false);
        // The digits' top and left keep a gap from the border's ink, heavy or not.
        let clear = heavy / 2.0 + s * 0.04;
        let baseline = top + sum_bottom(heavy, s);
        // A white patch breaks the outline under the sum, as printed killers do.
        items.push(Item::Polygon {
            points: rect(
                left + heavy / 2.0,
                top + heavy / 2.0,
                clear - heavy / 2.0 + w + d * 0.3,
                baseline + fs * 0.15 - top - heavy / 2.0,
            ),
            fill: Some(Color::WHITE),
            stroke: None,
        });
        items.push(Item::Text {
            at: (left + clear, baseline),
            size: fs,
            text: label,
            anchor: Anchor::Start,
            bold: false,
            color: Color::BLACK,
        });
    }
}

/// The honeycomb as true pointy-top hexagons, rows offset by half a cell.
fn draw_honeycomb(
    items: &mut Vec<Item>,
    puzzle: &Puzzle,
    x: f32,
    y: f32,
    side: f32,
) -> Vec<CellBox> {
    let g = puzzle.geometry();
    let sq3 = 3f32.sqrt();
    let longest = g.row_lengths().iter().copied().max().unwrap_or(1) as f32;
    let rows = g.row_lengths().len() as f32;
    // Width: `longest` hexagons of width sqrt(3)R; height: rows 1.5R apart plus 2R.
    let radius = (side / (longest * sq3)).min(side / (1.5 * (rows - 1.0) + 2.0));
    let w = sq3 * radius;
    let ox = x + (side - longest * w) / 2.0;
    let oy = y + (side - (1.5 * (rows - 1.0) + 2.0) * radius) / 2.0;
    let centres: Vec<Pt> = g
        .cells()
        .map(|c| {
            let (sx, sy) = g.screen_pos(c);
            (
                ox + (f32::from(sx) + 1.0) * w / 2.0,
                oy + radius + f32::from(sy) * 1.5 * radius,
            )
        })
        .collect();
    let corner = |(cx, cy): Pt, k: usize| {
        let a = (-90.0 + 60.0 * k as f32).to_radians();
        (cx + radius * a.cos(), cy + radius * a.sin())
    };
    let thin = Stroke::solid((w * 0.025).max(0.3), Color::gray(60), Cap::Round);
    for &c in &centres {
        items.push(Item::Polygon {
            points: (0..6).map(|k| corner(c, k)).collect(),
            fill: None,
            stroke: Some(thin),
        });
    }
    // The outline of the whole board: every edge with no cell beyond it.
    let heavy = Stroke::solid((w * 0.07).max(0.8), Color::BLACK, Cap::Round);
    for &c in &centres {
        for k in 0..6 {
            let a = (-60.0 + 60.0 * k as f32).to_radians();
            let beyond = (c.0 + w * a.cos(), c.1 + w * a.sin());
            let near =
                |p: &Pt| (p.0 - beyond.0).abs() < w * 0.25 && (p.1 - beyond.1).abs() < w * 0.25;
            if !centres.iter().any(near) {
                items.push(Item::Line {
                    from: corner(c, k),
                    to: corner(c, (k + 1) % 6),
                    stroke: heavy,
                });
            }
        }
    }
    centres
        .into_iter()
        .map(|centre| CellBox::centred(centre, w, radius * 1.15))
        .collect()
}

/// Paper sizes in points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// Page margin in points (about 18 mm).
pub const MARGIN: f32 = 50.0;

/// A page with one puzzle: title, a subtitle (variant, size, difficulty) and the grid as
/// large as the page allows, the whole block centred on the page (a grid at the top of
/// the sheet left a quarter of it empty below).
pub fn puzzle_page(
    paper: Paper,
    title: &str,
    subtitle: &str,
    puzzle: &Puzzle,
    fill: &Fill,
) -> Page {
    let (width, height) = paper.size();
    let inner = width - 2.0 * MARGIN;
    // The block starts at the top of the title's capitals; the grid GRID_TOP below.
    const TITLE: f32 = 22.0;
    let title_top = TITLE * DIGIT_HEIGHT;
    const GRID_TOP: f32 = 66.0;
    let side = inner.min(height - 2.0 * MARGIN - GRID_TOP);
    let mut grid = Vec::new();
    draw_puzzle(&mut grid, puzzle, fill, (width - side) / 2.0, 0.0, side);
    // A honeycomb is wider than tall: centre what is inked, not the square it fits in.
    let (ink_top, ink_bottom) = vertical_ink(&grid).unwrap_or((0.0, side));
    let block = GRID_TOP + (ink_bottom - ink_top);
    let y0 = MARGIN + ((height - 2.0 * MARGIN - block) / 2.0).max(0.0);
    let mut items = vec![
        fitted_text(
            title,
            (width / 2.0, y0 + title_top),
            TITLE,
            8.0,
            inner,
            Anchor::Middle,
            true,
        ),
        fitted_text(
            subtitle,
            (width / 2.0, y0 + title_top + 22.0),
            12.0,
            6.0,
            inner,
            Anchor::Middle,
            false,
        ),
    ];
    let dy = y0 + GRID_TOP - ink_top;
    items.extend(grid.into_iter().map(|item| shifted(item, dy)));
    Page {
        width,
        height,
        items,
    }
}

/// The top and bottom of what `items` ink (strokes included; text from its digits' top to
/// its baseline).
fn vertical_ink(items: &[Item]) -> Option<(f32, f32)> {
    let spans = items.iter().flat_map(|item| -> Vec<(f32, f32)> {
        match item {
            Item::Line { from, to, stroke } => {
                let h = stroke.width / 2.0;
                vec![(from.1.min(to.1) - h, from.1.max(to.1) + h)]
            }
            Item::Polygon { points, stroke, .. } => {
                let h = stroke.map_or(0.0, |s| s.width / 2.0);
                points.iter().map(|p| (p.1 - h, p.1 + h)).collect()
            }
            Item::Text { at, size, .. } => vec![(at.1 - size * DIGIT_HEIGHT, at.1)],
        }
    });
    spans.fold(None, |acc, (lo, hi)| match acc {
        None => Some((lo, hi)),
        Some((a, b)) => Some((a.min(lo), b.max(hi))),
    })
}

/// `item` moved down by `dy`.
fn shifted(mut item: Item, dy: f32) -> Item {
    match &mut item {
        Item::Line { from, to, .. } => {
            from.1 += dy;
            to.1 += dy;
        }
        Item::Polygon { points, .. } => points.iter_mut().for_each(|p| p.1 += dy),
        Item::Text { at, .. } => at.1 += dy,
    }
    item
}

/// "killer 9x9 · hard": what a reader wants to know before starting.
pub fn describe(puzzle: &Puzzle, difficulty: Option<&str>) -> String {
    let size = puzzle.layout.size;
    let mut s = match puzzle.variant() {
        crate::puzzle::Variant::Honeycomb => "honeycomb".to_string(),
        v => format!("{v} {size}x{size}"),
    };
    if puzzle.layout.diagonals && puzzle.variant() != crate::puzzle::Variant::Diagonal {
        s.push_str(" with diagonals");
    }
    if let Some(d) = difficulty {
        s.push_str(" - ");
        s.push_str(&clean(d));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::load_puzzle;
    use crate::puzzle::{Layout, Variant};

    fn lines(items: &[Item]) -> Vec<(Pt, Pt, Stroke)> {
        items
            .iter()
            .filter_map(|i| match i {
                Item::Line { from, to, stroke } => Some((*from, *to, *stroke)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_single_puzzle_page_is_centred_top_to_bottom() {
        for variant in [Variant::Standard, Variant::Honeycomb, Variant::Killer] {
            let size = if variant == Variant::Standard { 6 } else { 9 };
            let p = Puzzle::new(
                Layout::new(variant, size),
                vec![0; Layout::new(variant, size).cell_count()],
            )
            .unwrap();
            for paper in Paper::ALL {
                let page = puzzle_page(paper, "Title", "sub", &p, &Fill::default());
                let (top, bottom) = vertical_ink(&page.items).unwrap();
                let above = top;
                let below = page.height - bottom;
                assert!(above >= MARGIN - 1.0, "{variant} {paper:?}: {above}");
                assert!(
                    (above - below).abs() < 4.0,
                    "{variant} {paper:?}: {above} above, {below} below"
                );
                // The title stays above the grid.
                let Item::Text { at, .. } = &page.items[1] else {
                    panic!()
                };
                let (grid_top, _) = vertical_ink(&page.items[2..]).unwrap();
                assert!(
                    at.1 + 10.0 < grid_top,
                    "{variant}: subtitle {} grid {grid_top}",
                    at.1
                );
            }
        }
    }

    #[test]
    fn standard_grid_has_four_heavy_box_lines_and_its_givens() {
        let p = load_puzzle(&format!("1{}", ".".repeat(80)), Variant::Standard).unwrap();
        let mut items = Vec::new();
        draw_puzzle(&mut items, &p, &Fill::default(), 0.0, 0.0, 90.0);
        let heavy: Vec<_> = lines(&items)
            .into_iter()
            .filter(|l| l.2.color == Color::BLACK)
            .collect();
        // Two horizontal and two vertical box borders, each one merged run across the grid.
        assert_eq!(heavy.len(), 4, "{heavy:?}");
        assert!(heavy
            .iter()
            .all(|l| (l.0 .0 - l.1 .0).abs() == 90.0 || (l.0 .1 - l.1 .1).abs() == 90.0));
        let texts: Vec<_> = items
            .iter()
            .filter_map(|i| match i {
                Item::Text { text, at, bold, .. } => Some((text.clone(), *at, *bold)),
                _ => None,
            })
            .collect();
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].0, "1");
        assert!(texts[0].2, "givens are bold");
        assert!((texts[0].1 .0 - 5.0).abs() < 0.01);
    }

    #[test]
    fn a_cage_of_two_cells_is_outlined_inside_its_cells() {
        let mut layout = crate::puzzle::Layout::new(Variant::Killer, 4);
        layout.cages = vec![crate::geometry::square::CageSpec {
            sum: 3,
            cells: vec![0, 1],
        }];
        let p = Puzzle::new(layout, vec![0; 16]).unwrap();
        let mut items = Vec::new();
        draw_puzzle(&mut items, &p, &Fill::default(), 0.0, 0.0, 40.0);
        let dashed: Vec<_> = lines(&items)
            .into_iter()
            .filter(|l| l.2.dash.is_some())
            .collect();
        // Top and bottom of both cells, the left of r1c1, the right of r1c2.
        assert_eq!(dashed.len(), 6);
        for (a, b, _) in &dashed {
            for p in [a, b] {
                assert!(p.0 >= 1.0 - 1e-3 && p.0 <= 19.0 + 1e-3, "{p:?}");
                assert!(p.1 >= 1.0 - 1e-3 && p.1 <= 9.0 + 1e-3, "{p:?}");
            }
        }
        assert!(items
            .iter()
            .any(|i| matches!(i, Item::Text { text, .. } if text == "3")));
    }

    #[test]
    fn long_titles_shrink_then_are_cut() {
        let long = "Très long titre ".repeat(40);
        match fitted_text(&long, (0.0, 0.0), 20.0, 8.0, 200.0, Anchor::Start, true) {
            Item::Text { text, size, .. } => {
                assert_eq!(size, 8.0);
                assert!(text.ends_with("..."));
                assert!(measure(&text, size, true) <= 200.0);
            }
            other => panic!("{other:?}"),
        }
        match fitted_text("a\u{7}b", (0.0, 0.0), 20.0, 8.0, 200.0, Anchor::Start, true) {
            Item::Text { text, .. } => assert_eq!(text, "a b"),
            other => panic!("{other:?}"),
        }
    }

    /// The inked box of a text item: left, top, right, bottom (digits only).
    fn ink_box(item: &Item) -> Option<(f32, f32, f32, f32)> {
        let Item::Text {
            at,
            size,
            text,
            anchor,
            bold,
            ..
        } = item
        else {
            return None;
        };
        let w = text_width(text, *size, *bold);
        let left = match anchor {
            Anchor::Start => at.0,
            Anchor::Middle => at.0 - w / 2.0,
            Anchor::End => at.0 - w,
        };
        Some((left, at.1 - size * DIGIT_HEIGHT, left + w, at.1))
    }

    fn heavy_width(items: &[Item]) -> f32 {
        lines(items)
            .iter()
            .filter(|l| l.2.color == Color::BLACK)
            .map(|l| l.2.width)
            .fold(0.0, f32::max)
    }

    fn thin_width(items: &[Item]) -> f32 {
        lines(items)
            .iter()
            .filter(|l| l.2.color != Color::BLACK)
            .map(|l| l.2.width)
            .fold(0.0, f32::max)
    }

    #[test]
    fn small_grids_print_with_the_line_weights_of_a_full_page_9x9() {
        let page = |size: usize| {
            let p = Puzzle::new(Layout::new(Variant::Standard, size), vec![0; size * size]);
            puzzle_page(Paper::A4, "t", "s", &p.unwrap(), &Fill::default()).items
        };
        let nine = page(9);
        let (heavy, thin) = (heavy_width(&nine), thin_width(&nine));
        assert!(heavy > 3.0 * thin, "{heavy} {thin}");
        for size in [4, 6] {
            let items = page(size);
            // A 4x4 cell is more than twice a 9x9 one: its box borders were 8 points.
            assert!(heavy_width(&items) <= heavy + 1e-3, "{size}x{size}");
            assert!(thin_width(&items) <= thin + 1e-3, "{size}x{size}");
            assert!(
                heavy_width(&items) > 3.0 * thin_width(&items),
                "{size}x{size}"
            );
        }
        // Smaller cells thin their lines down.
        assert!(heavy_width(&page(16)) < heavy);
    }

    #[test]
    fn cage_sums_keep_clear_of_pencil_marks_and_heavy_borders() {
        let mut layout = Layout::new(Variant::Killer, 9);
        // First cells on the outer border (r1c1), on a box border (r1c4) and inside (r5c5).
        layout.cages = [
            (16, vec![0, 1, 9]),
            (17, vec![3, 12]),
            (23, vec![40, 41, 49]),
        ]
        .into_iter()
        .map(|(sum, cells)| crate::geometry::square::CageSpec { sum, cells })
        .collect();
        let p = Puzzle::new(layout, vec![0; 81]).unwrap();
        let marks = vec![Digits::all(9); 81];
        let fill = Fill {
            marks: Some(&marks),
            ..Fill::default()
        };
        for paper_side in [495.0, 160.0] {
            let mut items = Vec::new();
            draw_puzzle(&mut items, &p, &fill, 0.0, 0.0, paper_side);
            let s = paper_side / 9.0;
            let heavy = heavy_width(&items);
            let sums: Vec<_> = items
                .iter()
                .filter(|i| {
                    matches!(
                        i,
                        Item::Text {
                            anchor: Anchor::Start,
                            ..
                        }
                    )
                })
                .filter_map(ink_box)
                .collect();
            assert_eq!(sums.len(), 3);
            let marks: Vec<_> = items
                .iter()
                .filter(|i| matches!(i, Item::Text { color, .. } if *color == MARK))
                .filter_map(ink_box)
                .collect();
            assert_eq!(marks.len(), 81 * 9);
            let gap = s * 0.03;
            for a in &sums {
                for b in &marks {
                    let apart = a.2 + gap <= b.0
                        || b.2 + gap <= a.0
                        || a.3 + gap <= b.1
                        || b.3 + gap <= a.1;
                    assert!(apart, "side {paper_side}: sum {a:?} touches mark {b:?}");
                }
                // The cell's border ink ends at heavy / 2 from the grid line.
                let (left, top) = ((a.0 / s).floor() * s, (a.1 / s).floor() * s);
                assert!(a.0 - left >= heavy / 2.0 + gap, "{a:?}: left border");
                assert!(a.1 - top >= heavy / 2.0 + gap, "{a:?}: top border");
            }
        }
    }

    #[test]
    fn cage_outlines_begin_and_end_in_ink() {
        let mut layout = Layout::new(Variant::Killer, 9);
        // An L of three cells (inner corner) and a straight run of three.
        layout.cages = [(16, vec![0, 1, 9]), (12, vec![3, 4, 5])]
            .into_iter()
            .map(|(sum, cells)| crate::geometry::square::CageSpec { sum, cells })
            .collect();
        let p = Puzzle::new(layout, vec![0; 81]).unwrap();
        for side in [495.0, 160.0] {
            let mut items = Vec::new();
            draw_puzzle(&mut items, &p, &Fill::default(), 0.0, 0.0, side);
            let dashed: Vec<_> = lines(&items)
                .into_iter()
                .filter_map(|(a, b, st)| st.dash.map(|d| (a, b, d)))
                .collect();
            assert_eq!(dashed.len(), 8 + 8);
            for (a, b, d) in dashed {
                let length = (b.0 - a.0).abs() + (b.1 - a.1).abs();
                let periods = length / (d.on + d.off);
                // Whole periods from half a dash in: half a dash at each end.
                assert!(
                    (periods - periods.round()).abs() < 1e-3,
                    "{a:?} {b:?} {d:?}"
                );
                assert!(periods.round() >= 1.0);
                assert!((d.phase - d.on / 2.0).abs() < 1e-4, "{d:?}");
                assert!(d.on > d.off && d.off > 0.0, "{d:?}");
            }
        }
    }
}
