//! Consecutive-run lines (honeycomb lines of 5..=8 cells, renban lines): the HaniDoku
//! methods of SudoCue in the order a person applies them.
//!
//! - `run-range` (range trimming): a line of `L` cells whose cells need a digit of at
//!   least `a` and one of at most `b` (placed digits are the sharpest case) holds a run
//!   inside `[a-L+1, b+L-1]`;
//! - `run-sequence-enumeration`: every run the line can still hold, each checked by a
//!   matching of its cells to its digits; a candidate that no surviving run places in its
//!   cell goes;
//! - `run-pair-enumeration`, `run-triple-enumeration`: the same over two crossing lines,
//!   or three that cross pairwise, at once, with every two of their cells that see each
//!   other kept distinct (`run_sets`).
//!
//! Must-appear digits (SudoCue's requirement check) need no family of their own:
//! [`must_appear`](super::must_appear) already gives hidden singles, locked candidates and
//! hidden subsets on run lines the digits common to every feasible run, and the trimming
//! here narrows that intersection as candidates go.

use super::step::{and_list, effect_text, house_name};
use super::{
    elims_outside, mask, Candidate, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use crate::solver::rules::viable_edges;
use std::ops::ControlFlow;

/// The walk's memory of line-set searches (pairs and triples), under the name it keeps.
pub(super) use super::run_sets::SetMemo as PairMemo;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "run-range" => range(ctx, info, sink),
        "run-sequence-enumeration" => sequences(ctx, info, sink),
        "run-pair-enumeration" => super::run_sets::find(ctx, info, 2, sink),
        "run-triple-enumeration" => super::run_sets::find(ctx, info, 3, sink),
        "line-fish" => super::run_fish::find(ctx, info, sink),
        _ => ControlFlow::Continue(()),
    }
}

fn run_houses<'c>(ctx: &'c Ctx) -> impl Iterator<Item = HouseId> + 'c {
    (0..ctx.geo.houses().len()).filter(|&h| {
        ctx.geo.house(h).rule == Rule::ConsecutiveRun
            && !ctx.t.house_sets[h].and(ctx.empty).is_empty()
    })
}

fn range(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let n = ctx.geo.max_digit();
    for h in run_houses(ctx) {
        let cells = &ctx.geo.house(h).cells;
        let len = cells.len() as u8;
        if len == 0 || len > n {
            continue;
        }
        // Every cell needs a digit of the run: the run reaches at least the largest lowest
        // candidate and at most the smallest highest one.
        let (mut need_hi, mut need_lo) = (1u8, n);
        let mut broken = false;
        for &c in cells {
            let m = Digits(mask(ctx, c));
            match (m.first(), m.last()) {
                (Some(lo), Some(hi)) => {
                    need_hi = need_hi.max(lo);
                    need_lo = need_lo.min(hi);
                }
                _ => broken = true,
            }
        }
        if broken {
            continue;
        }
        let first = need_hi.saturating_sub(len - 1).max(1);
        let last_low = need_lo.min(n + 1 - len);
        if first > last_low {
            continue;
        }
        let allowed = Digits::range(first, last_low + len - 1);
        let keep = vec![allowed.0; cells.len()];
        let elims = elims_outside(ctx, cells, &keep);
        if elims.is_empty() {
            continue;
        }
        sink(line_step(ctx, info, h, (first..=last_low).collect(), elims))?;
    }
    ControlFlow::Continue(())
}

/// Runs (lowest digits) a line with candidates `masks` can hold and, per cell, the digits
/// some of them place there.
fn line_runs(ctx: &Ctx, h: HouseId, masks: &[u16]) -> (Vec<u8>, Vec<u16>) {
    let cells = &ctx.geo.house(h).cells;
    let n = ctx.geo.max_digit();
    let len = cells.len() as u8;
    let mut lows = Vec::new();
    let mut keep = vec![0u16; cells.len()];
    if len == 0 || len > n || cells.len() > 16 {
        return (lows, keep);
    }
    for lo in 1..=n + 1 - len {
        let window = Digits::range(lo, lo + len - 1).0;
        if let Some(out) = viable_edges(masks, window) {
            lows.push(lo);
            for (k, o) in keep.iter_mut().zip(out) {
                *k |= o;
            }
        }
    }
    (lows, keep)
}

fn sequences(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    for h in run_houses(ctx) {
        let cells = &ctx.geo.house(h).cells;
        // Most lines have nothing to remove: one pass over every window says so (a
        // matching per window then names the runs only for a step).
        let masks: Vec<u16> = cells.iter().map(|&c| mask(ctx, c)).collect();
        if let Some((keep, _)) = super::run_rule::run_rule(&masks, ctx.geo.max_digit()) {
            if elims_outside(ctx, cells, &keep[..cells.len()]).is_empty() {
                continue;
            }
        }
        let (lows, keep) = line_runs(ctx, h, &masks);
        if lows.is_empty() {
            continue; // broken line: nothing sound to say
        }
        let elims = elims_outside(ctx, cells, &keep);
        if elims.is_empty() {
            continue;
        }
        sink(line_step(ctx, info, h, lows, elims))?;
    }
    ControlFlow::Continue(())
}

/// "3-7 or 4-8" for a line of `len` cells.
fn run_text(lows: &[u8], len: usize) -> String {
    let parts: Vec<String> = lows
        .iter()
        .map(|&lo| format!("{}-{}", digit_char(lo), digit_char(lo + len as u8 - 1)))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        crate::solver::logic::step::or_list(&parts)
    }
}

/// "r1c2 cannot be 1 or 2 and r1c3 cannot be 1", cell by cell in step order.
fn cannot_be(g: &Geometry, step: &Step) -> String {
    let mut cells: Vec<Cell> = step.eliminations.iter().map(|e| e.cell).collect();
    cells.sort_unstable();
    cells.dedup();
    let parts: Vec<String> = cells
        .iter()
        .map(|&c| {
            let ds: Vec<String> = step
                .eliminations
                .iter()
                .filter(|e| e.cell == c)
                .map(|e| digit_char(e.digit).to_string())
                .collect();
            let ds = crate::solver::logic::step::or_list(&ds);
            format!("{} cannot be {ds}", g.cell_name(c))
        })
        .collect();
    and_list(&parts)
}

/// The step of a rule on one line: the runs (lowest digits) it can hold, and what goes.
fn line_step(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    h: HouseId,
    lows: Vec<u8>,
    elims: Vec<Candidate>,
) -> Step {
    Step::new(
        info,
        Pattern::Runs {
            houses: vec![h],
            runs: vec![lows],
            placed: ctx.placed_in(h),
        },
    )
    .eliminate(elims)
    .house(h, Role::Defining)
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    if step.id() == "line-fish" {
        return super::run_fish::explain(step, g, detail);
    }
    let Pattern::Runs {
        houses,
        runs,
        placed,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let names: Vec<String> = houses.iter().map(|&h| house_name(g, h)).collect();
    match detail {
        Detail::Nudge => format!("Look at {}", and_list(&names)),
        Detail::Technique => format!("Look at the runs {} can hold", and_list(&names)),
        Detail::Full
            if houses.len() == 1
                && matches!(step.id(), "run-range" | "run-sequence-enumeration") =>
        {
            // One sentence, the house first: what it holds, what it can still hold, and
            // so what its cells cannot be.
            let (h, lows) = (houses[0], runs.first().map_or(&[][..], |v| &v[..]));
            let name = house_name(g, h);
            let mut house = name.chars();
            let house = house.next().map_or(String::new(), |c| {
                c.to_uppercase().chain(house).collect::<String>()
            });
            let with = if placed.is_empty() {
                String::new()
            } else {
                let ds: Vec<String> = placed.iter().map(|d| digit_char(d).to_string()).collect();
                format!("with {} placed ", and_list(&ds))
            };
            format!(
                "{}: {house} holds consecutive digits; {with}it can only hold {}, so {}",
                step.name(),
                run_text(lows, g.house(h).cells.len()),
                cannot_be(g, step)
            )
        }
        Detail::Full => {
            let holds: Vec<String> = houses
                .iter()
                .zip(runs)
                .map(|(&h, lows)| {
                    format!(
                        "{} can hold {}",
                        house_name(g, h),
                        run_text(lows, g.house(h).cells.len())
                    )
                })
                .collect();
            let why = match step.id() {
                "run-range" => "its cells hold consecutive digits, ",
                "run-pair-enumeration" => "taking both lines together, with every pair of cells that see each other distinct, ",
                "run-triple-enumeration" => "taking the three lines together, with every pair of cells that see each other distinct, ",
                _ => "",
            };
            let with = if placed.is_empty() {
                String::new()
            } else {
                let ds: Vec<String> = placed.iter().map(|d| digit_char(d).to_string()).collect();
                format!("with {} placed, ", and_list(&ds))
            };
            format!(
                "{}: {why}{}; {with}{}",
                step.name(),
                and_list(&holds),
                effect_text(g, step)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::find_all;
    use crate::format::parse_line;
    use crate::puzzle::{Grid, Variant};

    fn honey(line: &str) -> Grid {
        let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        Grid::from_puzzle(&p)
    }

    #[test]
    fn range_trims_around_placed_digits() {
        // Row 9 (5 cells) with 4 and 7 placed: the run lies in 3-8.
        let mut line = ".".repeat(56);
        line.push_str("4..7.");
        let g = honey(&line);
        let steps = find_all(&g, "run-range");
        let h = g
            .geometry()
            .find_house(crate::geometry::HouseKind::Row(9))
            .unwrap();
        let row9 = steps
            .iter()
            .find(|s| s.houses() == [h])
            .expect("row 9 trimmed");
        let digits: Vec<u8> = row9.eliminations.iter().map(|e| e.digit).collect();
        assert!(digits.iter().all(|&d| !(3..=8).contains(&d)), "{digits:?}");
        assert!(digits.contains(&1) && digits.contains(&2) && digits.contains(&9));
        let text = row9.explain(g.geometry(), super::Detail::Full);
        assert!(
            text.starts_with(
                "Run Range: Row 9 holds consecutive digits; with 4 and 7 placed it can only \
                 hold 3-7 or 4-8, so r9c2 cannot be 1, 2 or 9"
            ),
            "{text}"
        );
    }

    #[test]
    fn steps_are_true_on_a_real_puzzle() {
        let line = "..........4....16..53....7.9.........3............46.........";
        let g = honey(line);
        let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        let mut any = false;
        for id in [
            "run-range",
            "run-sequence-enumeration",
            "run-pair-enumeration",
        ] {
            for s in find_all(&g, id) {
                any = true;
                for e in &s.eliminations {
                    assert_ne!(sol[e.cell], e.digit, "{id}");
                }
            }
        }
        assert!(any);
    }
}
