//! Locked candidates: a digit that must appear in house A and whose candidates there all
//! lie in A's intersection with house B cannot appear elsewhere in B.
//!
//! Works for every pair of houses sharing two or more cells: box/line (HoDoKu's types 1
//! and 2), but also diagonals, jigsaw regions and cages. "Pointing" when A is box-like,
//! "claiming" when A is a line.

use super::step::{effect_text, house_name, must_hold_text, open_sets};
use super::{is_box_like, must_appear, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Digits, Geometry, Rule};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let pointing = match info.id {
        "locked-candidates-pointing" => true,
        "locked-candidates-claiming" => false,
        _ => return ControlFlow::Continue(()),
    };
    let mut must_cache = vec![None; ctx.geo.houses().len()];
    // HoDoKu takes a house's digits in order, whatever house they point at: the steps of
    // one base house wait here and go out by digit.
    let mut held: Vec<(u8, Step)> = Vec::new();
    let mut held_for = usize::MAX;
    for &(a, b, inter) in &ctx.t.overlaps {
        if a != held_for {
            flush(&mut held, sink)?;
            held_for = a;
        }
        let house = ctx.geo.house(a);
        if is_box_like(house.kind) != pointing {
            continue;
        }
        // The digits still to place in `a` (a house is met once per overlapping house).
        let open = *must_cache[a].get_or_insert_with(|| {
            let must = if house.rule == Rule::Complete {
                ctx.geo.all_digits()
            } else {
                must_appear(ctx.grid, house)
            };
            must.without(ctx.placed_in(a))
        });
        // Digits with a candidate in `a` outside the intersection cannot be locked in it.
        let outside = ctx.t.house_sets[a].minus(inter).and(ctx.empty);
        let off = outside.iter().fold(Digits::EMPTY, |m, c| m | ctx.cand[c]);
        for digit in open.without(off).iter() {
            let places = ctx.where_in(a, digit);
            if places.len() < 2 || !places.is_subset(inter) {
                continue;
            }
            let elims = ctx.elims(ctx.t.house_sets[b].minus(inter), digit);
            if elims.is_empty() {
                continue;
            }
            let cells = places.to_vec();
            held.push((
                digit,
                Step::new(
                    info,
                    Pattern::Intersection {
                        digit,
                        base: a,
                        cover: b,
                        sets: if house.rule == Rule::Complete {
                            Vec::new()
                        } else {
                            open_sets(ctx.grid, a)
                        },
                    },
                )
                .eliminate(elims)
                .house(a, Role::Base)
                .house(b, Role::Cover)
                .candidates(
                    &cells,
                    crate::geometry::Digits::single(digit),
                    Role::Defining,
                ),
            ));
        }
    }
    flush(&mut held, sink)
}

fn flush(held: &mut Vec<(u8, Step)>, sink: &mut Sink) -> ControlFlow<()> {
    held.sort_by_key(|(d, _)| *d);
    for (_, step) in held.drain(..) {
        sink(step)?;
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Intersection {
        digit,
        base,
        cover,
        ref sets,
    } = step.pattern
    else {
        return step.name().to_string();
    };
    let (a, b) = (house_name(g, base), house_name(g, cover));
    let d = digit_char(digit);
    match detail {
        Detail::Nudge => format!("Look at {d} in {a}"),
        Detail::Technique => format!("There are {} in {a}", step.name().to_lowercase()),
        Detail::Full => match must_hold_text(g, base, digit, sets) {
            // A run or cage says first why it must hold the digit at all.
            Some(why) => format!(
                "{}: {why}; its {d} can only go where it meets {b}, so {b} has its {d} \
                 there: {}",
                step.name(),
                effect_text(g, step)
            ),
            None => format!(
                "{}: in {a}, {d} can only go where it meets {b}, so {b} has its {d} there: {}",
                step.name(),
                effect_text(g, step)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::find_all;
    use super::super::testutil::grid;

    #[test]
    fn pointing_removes_from_the_line_only() {
        // Box 1 holds 2..7 in rows 2 and 3, so its 1 lies in row 1: no 1 elsewhere in row 1.
        let line = format!(
            "{}{}{}{}",
            ".".repeat(9),
            "234......",
            "567......",
            ".".repeat(54)
        );
        let g = grid(&line);
        let steps = find_all(&g, "locked-candidates-pointing");
        let one = steps
            .iter()
            .find(|s| s.eliminations.iter().all(|e| e.digit == 1))
            .expect("pointing 1 in box 1");
        let cells: Vec<String> = one
            .eliminations
            .iter()
            .map(|e| g.geometry().cell_name(e.cell))
            .collect();
        assert_eq!(cells, ["r1c4", "r1c5", "r1c6", "r1c7", "r1c8", "r1c9"]);
        assert_eq!(
            one.explain(g.geometry(), super::Detail::Full),
            "Locked Candidates (Pointing): in box 1, 1 can only go where it meets row 1, so row 1 \
             has its 1 there: remove 1 from r1c4, r1c5, r1c6, r1c7, r1c8 and r1c9"
        );
    }

    /// Locked candidates whose base is a cage say why the cage must hold the digit.
    #[test]
    fn locked_candidates_in_a_cage_say_why_the_cage_holds_the_digit() {
        use crate::solver::logic::{apply, next_step, Detail, Pattern, SolverMemory};
        let text = include_bytes!("../../../puzzles/killer-hard.toml");
        let puzzles = crate::format::parse_toml_file(text, "killer-hard.toml").unwrap();
        let hint = puzzles.iter().find_map(|p| {
            let mut g = crate::puzzle::Grid::from_puzzle(p);
            let mut memory = SolverMemory::new();
            for _ in 0..300 {
                let step = next_step(&g, None, &mut memory)?;
                if let Pattern::Intersection { sets, .. } = &step.pattern {
                    if !sets.is_empty() {
                        return Some(step.explain(g.geometry(), Detail::Full));
                    }
                }
                apply(&mut g, &step);
            }
            None
        });
        insta::assert_snapshot!(hint.expect("locked candidates in a cage"));
    }
}
