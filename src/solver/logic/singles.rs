//! Singles: full house, naked single, hidden single. Each step places one digit.
//!
//! Hidden singles look only at digits that *must* appear in the house, so they also work
//! on consecutive-run lines and killer cages.

use super::singles_queue::SinglesQueue;
use super::step::{article, house_name, must_hold_text, open_sets};
use super::{must_appear, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "full-house" => full_house(ctx, info, sink),
        "naked-single" => naked_single(ctx, info, sink),
        "hidden-single" => hidden_single(ctx, info, sink),
        _ => ControlFlow::Continue(()),
    }
}

/// HoDoKu's queue order first (see [`super::singles_queue`]), when the walk's queues
/// describe this grid; the plain scan after it finds whatever the queues lack.
fn full_house(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let queued: Vec<(Cell, u8)> = queue(ctx, |q| q.naked().to_vec());
    for (cell, digit) in queued {
        if ctx.grid.value(cell) != 0 || !ctx.cand[cell].contains(digit) {
            continue;
        }
        let full = ctx.geo.houses_of(cell).iter().copied().find(|&h| {
            ctx.t.complete.contains(&h) && ctx.t.house_sets[h].and(ctx.empty).len() == 1
        });
        if let Some(h) = full {
            sink(house_single_step(info, cell, digit, h))?;
        }
    }
    for &h in &ctx.t.complete {
        let empty = ctx.t.house_sets[h].and(ctx.empty);
        if empty.len() != 1 {
            continue;
        }
        let Some(cell) = empty.first() else { continue };
        // The one digit the house still lacks; a broken grid may not offer it.
        let missing = ctx.geo.all_digits().without(ctx.placed_in(h));
        let Some(digit) = missing.single_digit() else {
            continue;
        };
        if !ctx.cand[cell].contains(digit) {
            continue;
        }
        sink(house_single_step(info, cell, digit, h))?;
    }
    ControlFlow::Continue(())
}

/// What `f` reads from the walk's singles queues, or nothing when they describe another
/// grid (a fresh memory, a variant).
fn queue<T: Default>(ctx: &Ctx, f: impl FnOnce(&SinglesQueue) -> T) -> T {
    let q = ctx.mem.singles.borrow();
    if q.describes(ctx.grid) {
        f(&q)
    } else {
        T::default()
    }
}

/// A single that one house forces: a full house or a hidden single.
fn house_single_step(info: &'static TechniqueInfo, cell: Cell, digit: u8, h: HouseId) -> Step {
    Step::new(
        info,
        Pattern::Single {
            cell,
            digit,
            house: Some(h),
            sets: Vec::new(),
        },
    )
    .place(cell, digit)
    .house(h, Role::Defining)
}

fn naked_single(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let queued = queue(ctx, |q| {
        q.naked().iter().map(|&(c, _)| c).collect::<Vec<_>>()
    });
    for cell in queued.into_iter().chain(ctx.empty.iter()) {
        if ctx.grid.value(cell) != 0 {
            continue;
        }
        if let Some(digit) = ctx.cand[cell].single_digit() {
            sink(
                Step::new(
                    info,
                    Pattern::Single {
                        cell,
                        digit,
                        house: None,
                        sets: Vec::new(),
                    },
                )
                .place(cell, digit)
                .cells(&[cell], Role::Defining),
            )?;
        }
    }
    ControlFlow::Continue(())
}

fn hidden_single(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let queued: Vec<(Cell, u8)> = queue(ctx, |q| q.hidden().to_vec());
    for (cell, digit) in queued {
        if ctx.grid.value(cell) != 0 || !ctx.cand[cell].contains(digit) {
            continue;
        }
        // The first of row, column and box where the digit has this one place, as HoDoKu.
        let house = ctx
            .geo
            .houses_of(cell)
            .iter()
            .copied()
            .find(|&h| ctx.t.complete.contains(&h) && ctx.where_in(h, digit).len() == 1);
        if let Some(h) = house {
            sink(house_single_step(info, cell, digit, h))?;
        }
    }
    for (h, house) in ctx.geo.houses().iter().enumerate() {
        let must = if house.rule == Rule::Complete {
            ctx.geo.all_digits()
        } else {
            must_appear(ctx.grid, house)
        };
        // Digits with exactly one place: counted over the house's candidates at once.
        let (mut once, mut twice) = (Digits::EMPTY, Digits::EMPTY);
        for c in ctx.t.house_sets[h].and(ctx.empty).iter() {
            twice |= once & ctx.cand[c];
            once |= ctx.cand[c];
        }
        let single = (must & once).without(twice);
        if single.is_empty() {
            continue;
        }
        for digit in single.without(ctx.placed_in(h)).iter() {
            let places = ctx.where_in(h, digit);
            if places.len() != 1 {
                continue;
            }
            let Some(cell) = places.first() else { continue };
            sink(
                Step::new(
                    info,
                    Pattern::Single {
                        cell,
                        digit,
                        house: Some(h),
                        sets: if house.rule == Rule::Complete {
                            Vec::new()
                        } else {
                            open_sets(ctx.grid, h)
                        },
                    },
                )
                .place(cell, digit)
                .house(h, Role::Defining),
            )?;
        }
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Single {
        cell,
        digit,
        house,
        ref sets,
    } = step.pattern
    else {
        return step.name().to_string();
    };
    let name = g.cell_name(cell);
    let d = digit_char(digit);
    let where_ = house.map_or_else(|| name.clone(), |h| house_name(g, h));
    match detail {
        Detail::Nudge => format!("Look at {where_}"),
        Detail::Technique => format!(
            "There is {} {} in {where_}",
            article(step.name()),
            step.name().to_lowercase()
        ),
        Detail::Full => match (step.id(), house) {
            ("full-house", Some(h)) => format!(
                "Full House: {name} is the last empty cell of {}; place {d} there",
                house_name(g, h)
            ),
            ("hidden-single", Some(h)) => match must_hold_text(g, h, digit, sets) {
                // "Hidden Single: row 7 must hold 4: every run it can still hold, 1-7 or 2-8,
                // contains 4; only r7c3 can take it, so place 4 there".
                Some(why) => format!(
                    "Hidden Single: {why}; of its cells only {name} can take {d}, so place {d} there"
                ),
                None => format!(
                    "Hidden Single: in {}, {d} can only go in {name}; place {d} there",
                    house_name(g, h)
                ),
            },
            _ => format!("Naked Single: {name} can only hold {d}; place {d} there"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, next_step};

    const EASY: &str =
        ".....8........7.2927.1.9.38..3....6.7.......5.8....1..93.5.1.8714.7........4.....";

    #[test]
    fn full_house_names_the_house_and_digit() {
        // Row 1 misses only r1c9 (9).
        let g = grid(
            "12345678.........................................................................",
        );
        let steps = find_all(&g, "full-house");
        assert_eq!(steps.len(), 1);
        assert_eq!(
            steps[0].explain(g.geometry(), super::Detail::Full),
            "Full House: r1c9 is the last empty cell of row 1; place 9 there"
        );
    }

    #[test]
    fn every_single_is_true() {
        let g = grid(EASY);
        let p =
            crate::format::parse_line(EASY.as_bytes(), crate::puzzle::Variant::Standard, "t", 1)
                .unwrap()
                .unwrap();
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        for id in ["full-house", "naked-single", "hidden-single"] {
            for s in find_all(&g, id) {
                for c in &s.placements {
                    assert_eq!(sol[c.cell], c.digit, "{id}");
                }
            }
        }
        assert!(!find_all(&g, "hidden-single").is_empty());
        assert!(next_step(&g, None, &mut super::super::SolverMemory::new()).is_some());
    }

    /// The first hidden single in a run or cage on the solving path of a shipped puzzle, as
    /// the full hint reads.
    fn first_variant_hidden_single(puzzle: &crate::puzzle::Puzzle) -> Option<String> {
        use crate::solver::logic::{apply, Detail, Pattern, SolverMemory};
        let mut g = crate::puzzle::Grid::from_puzzle(puzzle);
        let mut memory = SolverMemory::new();
        for _ in 0..200 {
            let step = next_step(&g, None, &mut memory)?;
            if let Pattern::Single { sets, .. } = &step.pattern {
                if step.id() == "hidden-single" && !sets.is_empty() {
                    return Some(step.explain(g.geometry(), Detail::Full));
                }
            }
            apply(&mut g, &step);
        }
        None
    }

    /// A hidden single in a honeycomb line shorter than 9 says why the line must hold it.
    #[test]
    fn hidden_single_in_a_short_line_says_why_the_line_holds_the_digit() {
        let text = include_str!("../../../puzzles/honeycomb-easy.txt");
        let line = text.lines().find(|l| !l.starts_with('#')).unwrap();
        let p =
            crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Honeycomb, "t", 1)
                .unwrap()
                .unwrap();
        let hint = first_variant_hidden_single(&p).expect("a hidden single in a short line");
        insta::assert_snapshot!(hint);
    }

    /// A hidden single in a killer cage says which combinations make the cage hold it.
    #[test]
    fn hidden_single_in_a_cage_names_the_combinations() {
        let text = include_bytes!("../../../puzzles/killer-easy.toml");
        let puzzles = crate::format::parse_toml_file(text, "killer-easy.toml").unwrap();
        let hint = puzzles
            .iter()
            .find_map(first_variant_hidden_single)
            .expect("a hidden single in a cage");
        insta::assert_snapshot!(hint);
    }
}
