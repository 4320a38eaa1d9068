//! Basic fish (X-wing, swordfish, jellyfish) with finned and sashimi forms.
//!
//! Base and cover sets are lines of two directions (rows and columns; on other layouts any
//! two classes of parallel `Complete` lines). A digit in n base lines confined to n cover
//! lines leaves the rest of the cover lines. With fins (base candidates outside the cover),
//! only cover cells that see every fin lose the digit. Sashimi: a base line keeps at most
//! one candidate in the cover once the fins are set aside.

use super::step::{article, cell_list, effect_text, house_list};
use super::{combinations, CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Digits, Geometry, HouseId};
use std::ops::ControlFlow;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Basic,
    Finned,
    Sashimi,
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let (n, kind) = match info.id {
        "x-wing" => (2, Kind::Basic),
        "swordfish" => (3, Kind::Basic),
        "jellyfish" => (4, Kind::Basic),
        "finned-x-wing" => (2, Kind::Finned),
        "finned-swordfish" => (3, Kind::Finned),
        "finned-jellyfish" => (4, Kind::Finned),
        "sashimi-x-wing" => (2, Kind::Sashimi),
        "sashimi-swordfish" => (3, Kind::Sashimi),
        "sashimi-jellyfish" => (4, Kind::Sashimi),
        _ => return ControlFlow::Continue(()),
    };
    for digit in 1..=ctx.geo.max_digit() {
        if ctx.digit[usize::from(digit)].is_empty() {
            continue;
        }
        for (bi, (_, base_lines)) in ctx.t.lines.iter().enumerate() {
            for (ci, (_, cover_lines)) in ctx.t.lines.iter().enumerate() {
                if bi != ci {
                    search(ctx, info, digit, n, kind, base_lines, cover_lines, sink)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[allow(clippy::too_many_arguments)]
fn search(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    digit: u8,
    n: usize,
    kind: Kind,
    base_lines: &[HouseId],
    cover_lines: &[HouseId],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let cells_of = |h: HouseId| ctx.where_in(h, digit);
    // Basic fish need 2..=n candidates per base line; finned ones allow more (the fins).
    let max_per_line = if kind == Kind::Basic {
        n as u32
    } else {
        n as u32 + 3
    };
    let bases: Vec<HouseId> = base_lines
        .iter()
        .copied()
        .filter(|&h| (1..=max_per_line).contains(&cells_of(h).len()))
        .collect();
    let all = ctx.digit[usize::from(digit)];
    combinations(&bases, n, &mut |combo| {
        let u = combo.iter().fold(CellSet::EMPTY, |m, &h| m.or(cells_of(h)));
        let hit: Vec<HouseId> = cover_lines
            .iter()
            .copied()
            .filter(|&h| !u.and(ctx.t.house_sets[h]).is_empty())
            .collect();
        match kind {
            Kind::Basic => {
                if hit.len() != n || combo.iter().any(|&h| cells_of(h).len() < 2) {
                    return ControlFlow::Continue(());
                }
                let cover = hit
                    .iter()
                    .fold(CellSet::EMPTY, |m, &h| m.or(ctx.t.house_sets[h]));
                let elims = ctx.elims(cover.and(all).minus(u), digit);
                if elims.is_empty() {
                    return ControlFlow::Continue(());
                }
                sink(make(info, digit, combo, &hit, &[], u, elims))
            }
            Kind::Finned | Kind::Sashimi => {
                if hit.len() <= n || hit.len() > n + 3 {
                    return ControlFlow::Continue(());
                }
                combinations(&hit, n, &mut |cov| {
                    let cover = cov
                        .iter()
                        .fold(CellSet::EMPTY, |m, &h| m.or(ctx.t.house_sets[h]));
                    let fins = u.minus(cover).to_vec();
                    let targets = ctx.seen_by_all(&fins).and(cover).and(all).minus(u);
                    if targets.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    let sashimi = combo.iter().any(|&h| cells_of(h).and(cover).len() <= 1);
                    if sashimi != (kind == Kind::Sashimi) {
                        return ControlFlow::Continue(());
                    }
                    let elims = ctx.elims(targets, digit);
                    sink(make(info, digit, combo, cov, &fins, u, elims))
                })
            }
        }
    })
}

fn make(
    info: &'static TechniqueInfo,
    digit: u8,
    base: &[HouseId],
    cover: &[HouseId],
    fins: &[usize],
    u: CellSet,
    elims: Vec<super::Candidate>,
) -> Step {
    let mut step = Step::new(
        info,
        Pattern::Fish {
            digit,
            base: base.to_vec(),
            cover: cover.to_vec(),
            fins: fins.to_vec(),
        },
    )
    .eliminate(elims);
    for &h in base {
        step = step.house(h, Role::Base);
    }
    for &h in cover {
        step = step.house(h, Role::Cover);
    }
    let body: Vec<usize> = u.iter().filter(|c| !fins.contains(c)).collect();
    step.candidates(&body, Digits::single(digit), Role::Defining)
        .candidates(fins, Digits::single(digit), Role::Fin)
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Fish {
        digit,
        base,
        cover,
        fins,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    match detail {
        Detail::Nudge => format!("Look at {d} in {}", house_list(g, base)),
        Detail::Technique => format!("There is {} {} on {d}", article(step.name()), step.name()),
        Detail::Full if fins.is_empty() => format!(
            "{} on {d}: in {}, {d} can only go in {}, so remove {d} from the other cells of \
             those: {}",
            step.name(),
            house_list(g, base),
            house_list(g, cover),
            effect_text(g, step)
        ),
        Detail::Full => format!(
            "{} on {d}: in {}, {d} can only go in {} or in the fin{} {}; either way the \
             cells that see the fin{} lose {d}: {}",
            step.name(),
            house_list(g, base),
            house_list(g, cover),
            if fins.len() == 1 { "" } else { "s" },
            cell_list(g, fins),
            if fins.len() == 1 { "" } else { "s" },
            effect_text(g, step)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, Detail};
    use crate::geometry::Digits;

    /// A grid where digit 1 is a candidate only in the given cells of the given rows.
    fn with_ones(rows: &[(usize, &[usize])]) -> crate::puzzle::Grid {
        let mut g = grid(&".".repeat(81));
        for r in 1..=9 {
            for c in 1..=9 {
                let cell = (r - 1) * 9 + c - 1;
                let keep = rows
                    .iter()
                    .find(|(rr, _)| *rr == r)
                    .is_none_or(|(_, cols)| cols.contains(&c));
                if !keep {
                    g.set_candidates(cell, Digits::range(2, 9));
                }
            }
        }
        g
    }

    #[test]
    fn x_wing_clears_its_columns() {
        let g = with_ones(&[(2, &[3, 8]), (7, &[3, 8])]);
        let steps = find_all(&g, "x-wing");
        let s = steps
            .iter()
            .find(|s| s.eliminations.len() == 14)
            .expect("x-wing");
        assert!(s
            .eliminations
            .iter()
            .all(|e| [2, 7].contains(&(e.cell % 9))));
        assert!(s.explain(g.geometry(), Detail::Full).starts_with(
            "X-Wing on 1: in row 2 and row 7, 1 can only go in column 3 and column 8"
        ));
    }

    #[test]
    fn finned_x_wing_only_hits_the_fin_box() {
        // Rows 1 and 5 hold 1 in columns 2 and 5; r1c3 is a fin in box 1.
        let g = with_ones(&[(1, &[2, 5, 3]), (5, &[2, 5])]);
        let steps = find_all(&g, "finned-x-wing");
        let s = steps
            .iter()
            .find(|s| matches!(&s.pattern, super::Pattern::Fish { fins, .. } if fins == &vec![2]))
            .expect("fin r1c3");
        // Column 2 cells in box 1 outside row 1: r2c2 and r3c2.
        let names: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| g.geometry().cell_name(e.cell))
            .collect();
        assert_eq!(names, ["r2c2", "r3c2"]);
    }
}
