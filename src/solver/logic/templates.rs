//! Templates: every way one digit can still fill the grid, one cell in each row, no two
//! cells seeing each other, and every complete house hit once. A cell in every template of
//! a digit must hold it (Template Set); a candidate in no template is false (Template
//! Delete). As in HoDoKu, a template of one digit that covers a cell some other digit must
//! fill is dropped, repeatedly, before the steps are read.
//!
//! Only grids whose rows are complete houses of all the digits have templates, and only up
//! to 9x9 (a 16x16 grid has far too many).

use super::step::{article, cell_list, effect_text};
use super::techniques::TechniqueInfo;
use super::{Candidate, CellSet, Ctx, Detail, Pattern, Role, Sink, Step};
use crate::geometry::{Cell, Geometry, HouseKind};
use std::ops::ControlFlow;

/// Per digit (index 0 unused), the templates that survive the refinement.
fn templates(ctx: &Ctx) -> Option<Vec<Vec<CellSet>>> {
    let n = usize::from(ctx.geo.max_digit());
    if n > 9 || !ctx.t.all_complete {
        return None;
    }
    let rows: Vec<Vec<Cell>> = ctx
        .geo
        .houses()
        .iter()
        .filter(|h| matches!(h.kind, HouseKind::Row(_)))
        .map(|h| h.cells.clone())
        .collect();
    if rows.len() != n || rows.iter().any(|r| r.len() != n) {
        return None;
    }
    let mut all: Vec<Vec<CellSet>> = vec![Vec::new(); n + 1];
    for (d, list) in all.iter_mut().enumerate().skip(1) {
        let d = d as u8;
        let allowed: Vec<Vec<Cell>> = rows
            .iter()
            .map(|r| {
                let placed: Vec<Cell> = r
                    .iter()
                    .copied()
                    .filter(|&c| ctx.grid.value(c) == d)
                    .collect();
                if placed.is_empty() {
                    r.iter()
                        .copied()
                        .filter(|&c| ctx.grid.value(c) == 0 && ctx.cand[c].contains(d))
                        .collect()
                } else {
                    placed
                }
            })
            .collect();
        fill(ctx, &allowed, 0, CellSet::EMPTY, CellSet::EMPTY, list);
    }
    refine(&mut all);
    Some(all)
}

/// Depth-first: one cell of row `r` that no chosen cell sees, then the next row.
fn fill(
    ctx: &Ctx,
    allowed: &[Vec<Cell>],
    r: usize,
    chosen: CellSet,
    seen: CellSet,
    out: &mut Vec<CellSet>,
) {
    let Some(row) = allowed.get(r) else {
        // Extra complete houses (diagonals, windows) must each be hit exactly once.
        let full = ctx
            .t
            .complete
            .iter()
            .all(|&h| ctx.t.house_sets[h].and(chosen).len() == 1);
        if full {
            out.push(chosen);
        }
        return;
    };
    for &c in row {
        if !seen.contains(c) {
            let mut next = chosen;
            next.insert(c);
            fill(ctx, allowed, r + 1, next, seen.or(ctx.t.peers[c]), out);
        }
    }
}

/// Cells every template of the list covers (all cells for an empty list).
fn common(list: &[CellSet]) -> CellSet {
    let mut iter = list.iter();
    match iter.next() {
        Some(&first) => iter.fold(first, |m, &t| m.and(t)),
        None => CellSet::EMPTY,
    }
}

/// Drops templates that cover a cell another digit must fill, until nothing changes.
fn refine(all: &mut [Vec<CellSet>]) {
    loop {
        let musts: Vec<CellSet> = all.iter().map(|l| common(l)).collect();
        let mut removed = false;
        for (d, list) in all.iter_mut().enumerate().skip(1) {
            let before = list.len();
            list.retain(|t| {
                musts
                    .iter()
                    .enumerate()
                    .skip(1)
                    .all(|(k, m)| k == d || t.and(*m).is_empty())
            });
            removed |= list.len() != before;
        }
        if !removed {
            return;
        }
    }
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let Some(all) = templates(ctx) else {
        return ControlFlow::Continue(());
    };
    let set = info.id == "template-set";
    for (d, list) in all.iter().enumerate().skip(1) {
        if list.is_empty() {
            continue;
        }
        let digit = d as u8;
        let pattern = Pattern::Template {
            digit,
            templates: list.len(),
        };
        let step = if set {
            let cells: Vec<Cell> = common(list).and(ctx.empty).iter().collect();
            if cells.is_empty() {
                continue;
            }
            let mut s = Step::new(info, pattern);
            for &c in &cells {
                s = s.place(c, digit);
            }
            s.cells(&cells, Role::Defining)
        } else {
            let anywhere = list.iter().fold(CellSet::EMPTY, |m, &t| m.or(t));
            let dead = ctx.digit[d].minus(anywhere);
            if dead.is_empty() {
                continue;
            }
            let elims: Vec<Candidate> = dead.iter().map(|c| Candidate::new(c, digit)).collect();
            Step::new(info, pattern).eliminate(elims)
        };
        sink(step)?;
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Template { digit, templates } = step.pattern else {
        return step.name().to_string();
    };
    let d = crate::geometry::digit_char(digit);
    let name = step.name();
    match detail {
        Detail::Nudge => format!("Look at every way {d} can still fill the grid"),
        Detail::Technique => format!("There is {} {name} on {d}", article(name)),
        Detail::Full => {
            let cells: Vec<Cell> = step.placements.iter().map(|c| c.cell).collect();
            let why = if cells.is_empty() {
                "none of them uses these cells".to_string()
            } else {
                format!("all of them use {}", cell_list(g, &cells))
            };
            format!(
                "{name}: {d} can still fill the grid in {templates} ways (one cell per row, \
                 no two in a house), and {why}: {}",
                effect_text(g, step)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{elims, reglib};
    use super::*;

    /// HoDoKu's library, 1201: every way 9 can still fill this grid uses these eight
    /// cells (the case of line 1186).
    #[test]
    fn template_set_places_what_every_template_shares() {
        let g = reglib(
            "..5.+4163+223+17+6.+4..+6.452+3+8+71.6.........86.71.........6.4...159+2+6.....6+543.564..7+1+8",
            "",
        );
        let steps = super::super::find_all(&g, "template-set");
        let nines: Vec<&Step> = steps
            .iter()
            .filter(|s| s.placements[0].digit == 9)
            .collect();
        assert_eq!(nines.len(), 1);
        let mut cells: Vec<String> = nines[0]
            .placements
            .iter()
            .map(|c| g.geometry().cell_name(c.cell))
            .collect();
        cells.sort();
        assert_eq!(
            cells,
            ["r1c4", "r2c9", "r3c2", "r4c3", "r5c8", "r6c6", "r8c1", "r9c5"]
        );
        let text = nines[0].explain(g.geometry(), Detail::Full);
        assert!(
            text.starts_with("Template Set: 9 can still fill the grid in"),
            "{text}"
        );
    }

    /// Line 1195: no way 8 can still fill the grid uses these cells.
    #[test]
    fn template_delete_removes_what_no_template_uses() {
        let g = reglib(
            "9.471.8......2..59.6............3..87.6.9.5.23..2............4.49..8......7.369.1",
            "",
        );
        let want = "821 822 823 824 833 834 836 852 856 863 866 871 872 891 892";
        assert!(elims(&g, "template-delete").contains(&want.to_string()));
    }
}
