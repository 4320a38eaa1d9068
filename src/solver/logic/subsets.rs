//! Naked and hidden subsets (pair, triple, quadruple) and locked pairs and triples.
//!
//! Naked subsets work in every house (every rule kind makes digits distinct). Hidden
//! subsets use only digits that must appear in the house, so they hold for runs and cages.
//! A naked pair or triple whose cells share two houses is "locked": it clears both.

use super::step::{article, cell_list, digit_list, effect_text, house_list};
use super::{
    combinations_while, must_appear, CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo,
};
use crate::geometry::{Cell, Digits, Geometry, HouseId, HouseKind, Rule};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "locked-pair" => naked(ctx, info, 2, true, sink),
        "locked-triple" => naked(ctx, info, 3, true, sink),
        "naked-pair" => naked(ctx, info, 2, false, sink),
        "naked-triple" => naked(ctx, info, 3, false, sink),
        "naked-quadruple" => naked(ctx, info, 4, false, sink),
        "hidden-pair" => hidden(ctx, info, 2, sink),
        "hidden-triple" => hidden(ctx, info, 3, sink),
        "hidden-quadruple" => hidden(ctx, info, 4, sink),
        _ => ControlFlow::Continue(()),
    }
}

/// Houses containing every cell of `cells`.
fn common_houses(ctx: &Ctx, cells: CellSet) -> Vec<HouseId> {
    let Some(first) = cells.first() else {
        return Vec::new();
    };
    ctx.geo
        .houses_of(first)
        .iter()
        .copied()
        .filter(|&h| cells.is_subset(ctx.t.house_sets[h]))
        .collect()
}

fn naked(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    k: usize,
    locked: bool,
    sink: &mut Sink,
) -> ControlFlow<()> {
    if ctx.geo.is_plain_9x9() {
        return hodoku_naked(ctx, info, k, locked, sink);
    }
    // One buffer for every house (this runs for most positions).
    let mut cells: Vec<Cell> = Vec::new();
    for h in 0..ctx.geo.houses().len() {
        cells.clear();
        cells.extend(
            ctx.t.house_sets[h]
                .and(ctx.empty)
                .iter()
                .filter(|&c| (2..=k as u32).contains(&ctx.cand[c].len())),
        );
        // More than k digits among some of the cells already rules out every superset.
        let add = |m: Digits, c: Cell| Some(m | ctx.cand[c]).filter(|m| m.len() as usize <= k);
        combinations_while(&cells, k, Digits::EMPTY, &add, &mut |combo| {
            let digits = combo.iter().fold(Digits::EMPTY, |m, &c| m | ctx.cand[c]);
            if digits.len() as usize != k {
                return ControlFlow::Continue(());
            }
            let set = CellSet::from_cells(combo.iter().copied());
            let common;
            let houses: &[HouseId] = if locked {
                common = common_houses(ctx, set);
                // Report a locked subset once, from its first house.
                if common.len() < 2 || common[0] != h {
                    return ControlFlow::Continue(());
                }
                &common
            } else {
                &[h]
            };
            let mut elims = Vec::new();
            for &hh in houses {
                for d in digits.iter() {
                    let at = ctx.t.house_sets[hh]
                        .minus(set)
                        .and(ctx.digit[usize::from(d)]);
                    elims.extend(at.iter().map(|c| super::Candidate::new(c, d)));
                }
            }
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let mut step = Step::new(
                info,
                Pattern::Subset {
                    houses: houses.to_vec(),
                    cells: combo.to_vec(),
                    digits,
                    hidden: false,
                },
            )
            .eliminate(elims)
            .candidates(combo, digits, Role::Defining);
            for &hh in houses {
                step = step.house(hh, Role::Defining);
            }
            sink(step)
        })?;
    }
    ControlFlow::Continue(())
}

/// Houses in HoDoKu's search order: boxes, then rows, then columns.
fn hodoku_houses(ctx: &Ctx) -> Vec<HouseId> {
    let rank = |h: HouseId| match ctx.geo.house(h).kind {
        HouseKind::Box(_) => 0,
        HouseKind::Row(_) => 1,
        _ => 2,
    };
    let mut order: Vec<HouseId> = (0..ctx.geo.houses().len()).collect();
    order.sort_by_key(|&h| (rank(h), h));
    order
}

/// Naked and locked subsets as HoDoKu finds them on a plain 9x9 grid: houses in its order,
/// every house the cells share cleared, and "locked" only for a pair or triple in a box and
/// a line that clears candidates in both the box and the line outside it (HoDoKu looks for
/// locked subsets in boxes only, and leaves those to the locked search).
fn hodoku_naked(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    k: usize,
    locked: bool,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut cells: Vec<Cell> = Vec::new();
    for h in hodoku_houses(ctx) {
        let is_box = matches!(ctx.geo.house(h).kind, HouseKind::Box(_));
        if locked && !is_box {
            break;
        }
        cells.clear();
        cells.extend(
            ctx.t.house_sets[h]
                .and(ctx.empty)
                .iter()
                .filter(|&c| (2..=k as u32).contains(&ctx.cand[c].len())),
        );
        let add = |m: Digits, c: Cell| Some(m | ctx.cand[c]).filter(|m| m.len() as usize <= k);
        combinations_while(&cells, k, Digits::EMPTY, &add, &mut |combo| {
            let digits = combo.iter().fold(Digits::EMPTY, |m, &c| m | ctx.cand[c]);
            if digits.len() as usize != k {
                return ControlFlow::Continue(());
            }
            let set = CellSet::from_cells(combo.iter().copied());
            // Shared houses as HoDoKu lists them: row, column, box.
            let mut houses = common_houses(ctx, set);
            houses.sort_by_key(|&hh| match ctx.geo.house(hh).kind {
                HouseKind::Row(_) => 0,
                HouseKind::Column(_) => 1,
                _ => 2,
            });
            let boxes: Vec<HouseId> = houses
                .iter()
                .copied()
                .filter(|&hh| matches!(ctx.geo.house(hh).kind, HouseKind::Box(_)))
                .collect();
            let box_set = boxes
                .first()
                .map_or(CellSet::EMPTY, |&b| ctx.t.house_sets[b]);
            let mut elims = Vec::new();
            let (mut in_line, mut in_box) = (false, false);
            for &hh in &houses {
                let hh_is_box = boxes.contains(&hh);
                for c in ctx.t.house_sets[hh].minus(set).and(ctx.empty).iter() {
                    for d in ctx.cand[c].intersect(digits).iter() {
                        let cand = super::Candidate::new(c, d);
                        if !elims.contains(&cand) {
                            elims.push(cand);
                        }
                        if hh_is_box {
                            in_box = true;
                        } else if !box_set.contains(c) {
                            in_line = true;
                        }
                    }
                }
            }
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let is_locked = k < 4 && in_box && in_line;
            if is_locked != locked {
                return ControlFlow::Continue(());
            }
            let mut step = Step::new(
                info,
                Pattern::Subset {
                    houses: houses.clone(),
                    cells: combo.to_vec(),
                    digits,
                    hidden: false,
                },
            )
            .eliminate(elims)
            .candidates(combo, digits, Role::Defining);
            for &hh in &houses {
                step = step.house(hh, Role::Defining);
            }
            sink(step)
        })?;
    }
    ControlFlow::Continue(())
}

fn hidden(ctx: &Ctx, info: &'static TechniqueInfo, k: usize, sink: &mut Sink) -> ControlFlow<()> {
    let mut digits: Vec<u8> = Vec::new();
    let order: Vec<HouseId> = if ctx.geo.is_plain_9x9() {
        hodoku_houses(ctx)
    } else {
        (0..ctx.geo.houses().len()).collect()
    };
    for h in order {
        let house = ctx.geo.house(h);
        let must = if house.rule == Rule::Complete {
            ctx.geo.all_digits()
        } else {
            must_appear(ctx.grid, house)
        };
        digits.clear();
        digits.extend(
            must.without(ctx.placed_in(h))
                .iter()
                .filter(|&d| (2..=k as u32).contains(&ctx.where_in(h, d).len())),
        );
        // Likewise more than k cells for some of the digits.
        let add =
            |m: CellSet, d: u8| Some(m.or(ctx.where_in(h, d))).filter(|m| m.len() as usize <= k);
        combinations_while(&digits, k, CellSet::EMPTY, &add, &mut |combo| {
            let cells = combo
                .iter()
                .fold(CellSet::EMPTY, |m, &d| m.or(ctx.where_in(h, d)));
            if cells.len() as usize != k {
                return ControlFlow::Continue(());
            }
            let keep: Digits = combo.iter().copied().collect();
            let mut elims = Vec::new();
            for c in cells.iter() {
                for d in ctx.cand[c].without(keep).iter() {
                    elims.push(super::Candidate::new(c, d));
                }
            }
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let cells = cells.to_vec();
            sink(
                Step::new(
                    info,
                    Pattern::Subset {
                        houses: vec![h],
                        cells: cells.clone(),
                        digits: keep,
                        hidden: true,
                    },
                )
                .eliminate(elims)
                .house(h, Role::Defining)
                .candidates(&cells, keep, Role::Defining),
            )
        })?;
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Subset {
        houses,
        cells,
        digits,
        hidden,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let where_ = house_list(g, houses);
    match detail {
        Detail::Nudge => format!("Look at {}", house_list(g, &houses[..1])),
        Detail::Technique => format!(
            "There is {} {} in {where_}",
            article(step.name()),
            step.name().to_lowercase()
        ),
        Detail::Full => {
            if *hidden {
                format!(
                    "{} {digits} in {}: within {where_}, {} can only go in these cells, so remove the \
                     other candidates from them: {}",
                    step.name(),
                    cell_list(g, cells),
                    digit_list(*digits),
                    effect_text(g, step)
                )
            } else {
                format!(
                    "{} {digits} in {}: remove {} from the other cells of {where_} ({})",
                    step.name(),
                    cell_list(g, cells),
                    digit_list(*digits),
                    effect_text(g, step)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{grid, set};
    use super::super::{find_all, Detail};

    #[test]
    fn naked_pair_in_a_row_reads_well() {
        let mut g = grid(&".".repeat(81));
        set(&mut g, "r3c1:17 r3c5:17");
        let steps = find_all(&g, "naked-pair");
        let s = steps
            .iter()
            .find(|s| {
                g.geometry()
                    .cell_name(s.eliminations[0].cell)
                    .starts_with("r3")
            })
            .expect("pair in row 3");
        assert_eq!(s.eliminations.len(), 14);
        let text = s.explain(g.geometry(), Detail::Full);
        assert!(
            text.starts_with(
                "Naked Pair {1,7} in r3c1 and r3c5: remove 1 and 7 from the other cells of row 3"
            ),
            "{text}"
        );
        assert_eq!(s.explain(g.geometry(), Detail::Nudge), "Look at row 3");
    }

    #[test]
    fn locked_pair_clears_box_and_line() {
        let mut g = grid(&".".repeat(81));
        set(&mut g, "r1c1:12 r1c2:12");
        let steps = find_all(&g, "locked-pair");
        assert_eq!(steps.len(), 1);
        // 7 other cells of row 1 and 6 more of box 1, two digits each.
        assert_eq!(steps[0].eliminations.len(), 26);
    }

    #[test]
    fn hidden_pair_keeps_only_its_digits() {
        let mut g = grid(&".".repeat(81));
        // 8 and 9 of row 1 only in r1c1 and r1c2.
        for c in 3..=9 {
            set(&mut g, &format!("r1c{c}:1234567"));
        }
        let steps = find_all(&g, "hidden-pair");
        let s = steps
            .iter()
            .find(|s| s.eliminations.len() == 14)
            .expect("hidden pair");
        assert!(s.eliminations.iter().all(|e| e.digit <= 7 && e.cell < 2));
    }
}
