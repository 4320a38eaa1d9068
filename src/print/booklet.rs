//! Booklets: a whole collection, 1, 2, 4 or 6 puzzles a page with their numbers, and on
//! closing pages the solutions in small grids.

use super::layout::{describe, draw_puzzle, fitted_text, Anchor, Fill, Page, Paper, MARGIN};
use crate::puzzle::Puzzle;

/// One puzzle of a booklet.
pub struct Entry<'a> {
    pub puzzle: &'a Puzzle,
    pub difficulty: Option<String>,
    /// The solution when the booklet prints solutions (`None`: the puzzle has none).
    pub solution: Option<Vec<u8>>,
    /// The solution is one of several.
    pub not_unique: bool,
}

pub struct Booklet<'a> {
    pub title: &'a str,
    pub paper: Paper,
    /// Puzzles a page: 1, 2, 4 or 6.
    pub per_page: usize,
    pub solutions: bool,
    pub tint: bool,
}

/// Columns and rows of puzzles on a page (portrait pages: two puzzles stack).
pub fn slots(per_page: usize) -> (usize, usize) {
    match per_page {
        0 | 1 => (1, 1),
        2 => (1, 2),
        3 | 4 => (2, 2),
        _ => (2, 3),
    }
}

/// Columns and rows of solution grids on a closing page: smaller grids for 16x16 would
/// be unreadable.
fn solution_slots(entries: &[Entry]) -> (usize, usize) {
    if entries.iter().any(|e| e.puzzle.layout.size > 9) {
        (3, 4)
    } else {
        (4, 5)
    }
}

/// Pages the booklet will have.
pub fn page_count(b: &Booklet, entries: &[Entry]) -> usize {
    let (c, r) = slots(b.per_page);
    let mut n = entries.len().div_ceil(c * r);
    if b.solutions {
        let (c, r) = solution_slots(entries);
        n += entries.len().div_ceil(c * r);
    }
    n
}

fn frame(b: &Booklet, heading: &str, page_no: usize, total: usize) -> Page {
    let (width, height) = b.paper.size();
    let items = vec![
        fitted_text(
            heading,
            (width / 2.0, MARGIN),
            14.0,
            6.0,
            width - 2.0 * MARGIN,
            Anchor::Middle,
            true,
        ),
        fitted_text(
            &format!("{page_no} / {total}"),
            (width / 2.0, height - MARGIN / 2.0),
            9.0,
            9.0,
            width,
            Anchor::Middle,
            false,
        ),
    ];
    Page {
        width,
        height,
        items,
    }
}

/// Lays out `(cols, rows)` slots below the heading: each slot's label baseline, grid top
/// left and side.
fn place(
    page: &Page,
    cols: usize,
    rows: usize,
    k: usize,
    label_size: f32,
) -> ((f32, f32), f32, f32, f32) {
    let top = MARGIN + 16.0;
    let bottom = page.height - MARGIN;
    let sw = (page.width - 2.0 * MARGIN) / cols as f32;
    let sh = (bottom - top) / rows as f32;
    let (c, r) = (k % cols, k / cols);
    let (sx, sy) = (MARGIN + c as f32 * sw, top + r as f32 * sh);
    let gap = (sw.min(sh) * 0.08).max(6.0);
    let label_h = label_size * 1.6;
    let side = (sw - gap).min(sh - gap - label_h).max(1.0);
    let gx = sx + (sw - side) / 2.0;
    let gy = sy + label_h + (sh - gap - label_h - side) / 2.0;
    ((gx, gy - label_size * 0.5), gx, gy, side)
}

/// The booklet's pages; `tick` is called once per puzzle drawn (for a progress bar).
pub fn pages(b: &Booklet, entries: &[Entry], tick: &dyn Fn()) -> Vec<Page> {
    let total = page_count(b, entries);
    let mut out = Vec::with_capacity(total);
    let (cols, rows) = slots(b.per_page);
    let fill = Fill {
        tint: b.tint,
        ..Fill::default()
    };
    for (p, chunk) in entries.chunks(cols * rows).enumerate() {
        let mut page = frame(b, b.title, out.len() + 1, total);
        for (k, e) in chunk.iter().enumerate() {
            let number = p * cols * rows + k + 1;
            let label_size = if b.per_page >= 4 { 10.0 } else { 12.0 };
            let (at, gx, gy, side) = place(&page, cols, rows, k, label_size);
            let label = format!(
                "No. {number}   {}",
                describe(e.puzzle, e.difficulty.as_deref())
            );
            page.items.push(fitted_text(
                &label,
                at,
                label_size,
                5.0,
                side,
                Anchor::Start,
                false,
            ));
            draw_puzzle(&mut page.items, e.puzzle, &fill, gx, gy, side);
            tick();
        }
        out.push(page);
    }
    if b.solutions {
        let (cols, rows) = solution_slots(entries);
        for (p, chunk) in entries.chunks(cols * rows).enumerate() {
            let heading = format!("{} - solutions", b.title);
            let mut page = frame(b, &heading, out.len() + 1, total);
            for (k, e) in chunk.iter().enumerate() {
                let number = p * cols * rows + k + 1;
                let (at, gx, gy, side) = place(&page, cols, rows, k, 8.0);
                let label = match (&e.solution, e.not_unique) {
                    (None, _) => format!("No. {number}: no solution"),
                    (Some(_), true) => format!("No. {number}: one of several"),
                    (Some(_), false) => format!("No. {number}"),
                };
                page.items
                    .push(fitted_text(&label, at, 8.0, 4.0, side, Anchor::Start, true));
                let fill = Fill {
                    entries: e.solution.as_deref(),
                    no_cages: true,
                    ..fill
                };
                draw_puzzle(&mut page.items, e.puzzle, &fill, gx, gy, side);
                tick();
            }
            out.push(page);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Variant;

    #[test]
    fn page_counts_follow_puzzles_per_page_and_solutions() {
        let p = crate::format::load_puzzle(&".".repeat(81), Variant::Standard).unwrap();
        let entries: Vec<Entry> = (0..13)
            .map(|_| Entry {
                puzzle: &p,
                difficulty: None,
                solution: None,
                not_unique: false,
            })
            .collect();
        for (per_page, want) in [(1, 13), (2, 7), (4, 4), (6, 3)] {
            let mut b = Booklet {
                title: "t",
                paper: Paper::A4,
                per_page,
                solutions: false,
                tint: false,
            };
            assert_eq!(pages(&b, &entries, &|| ()).len(), want);
            b.solutions = true;
            // 20 solutions a page: one closing page.
            assert_eq!(pages(&b, &entries, &|| ()).len(), want + 1);
        }
    }
}
