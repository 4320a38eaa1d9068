//! Line fish (honeycomb): a fish whose base lines are run lines that must hold a digit.
//!
//! A honeycomb has only three complete lines, so the fish of a plain grid hardly ever
//! apply; but a run line holds a digit once at most and must hold it when every run it can
//! still hold contains it (5 on every line, 4 and 6 on lines of six cells or more, more as
//! runs narrow). Lines of one direction do not meet, and those of another direction cover
//! the grid once more: when `k` lines of one direction must each hold `d` and all their
//! places for `d` lie on `k` lines of another direction, each of those holds exactly one
//! `d`, inside the base lines. So `d` goes from their other cells, and each cover line must
//! hold `d`: its runs without `d` go too.
//!
//! One bitmask per base line (the cover lines its places meet) and every subset of the
//! base lines of a direction: cheap enough to sit before the nets.

use super::run_rule::run_rule;
use super::step::{effect_text, house_list};
use super::{mask, Candidate, CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Digits, Geometry, HouseId, HouseKind, Rule};
use crate::solver::rules::viable_edges;
use std::ops::ControlFlow;

/// The lines of each direction (rows, `/` lines, `\` lines), every line of the direction
/// listed (at most 16).
fn directions(ctx: &Ctx) -> Vec<Vec<HouseId>> {
    let mut dirs: [Vec<HouseId>; 3] = Default::default();
    for (h, house) in ctx.geo.houses().iter().enumerate() {
        if !matches!(house.rule, Rule::ConsecutiveRun | Rule::Complete) {
            continue;
        }
        let i = match house.kind {
            HouseKind::Row(_) => 0,
            HouseKind::Forward(_) => 1,
            HouseKind::Backward(_) => 2,
            _ => continue,
        };
        dirs[i].push(h);
    }
    dirs.into_iter()
        .filter(|d| !d.is_empty() && d.len() <= 16)
        .collect()
}

/// Digits line `h` must hold and has not placed yet (None when it can hold no run).
fn needs(ctx: &Ctx, h: HouseId) -> Option<Digits> {
    let house = ctx.geo.house(h);
    let placed = ctx.placed_in(h);
    let must = match house.rule {
        Rule::Complete => ctx.geo.all_digits(),
        _ => {
            let masks: Vec<u16> = house.cells.iter().map(|&c| mask(ctx, c)).collect();
            Digits(run_rule(&masks, ctx.geo.max_digit())?.1)
        }
    };
    Some(must.without(placed))
}

pub(super) fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    // Only where some run line is open: plain grids have their own fish.
    let runs_open = (0..ctx.geo.houses().len()).any(|h| {
        ctx.geo.house(h).rule == Rule::ConsecutiveRun
            && !ctx.t.house_sets[h].and(ctx.empty).is_empty()
    });
    if !runs_open {
        return ControlFlow::Continue(());
    }
    let dirs = directions(ctx);
    let mut need = vec![Digits::EMPTY; ctx.geo.houses().len()];
    for dir in &dirs {
        for &h in dir {
            match needs(ctx, h) {
                Some(m) => need[h] = m,
                None => return ControlFlow::Continue(()), // a broken line: nothing sound
            }
        }
    }
    for d in 1..=ctx.geo.max_digit() {
        let cand = ctx.digit[usize::from(d)];
        for (y, base_dir) in dirs.iter().enumerate() {
            // Base lines: must hold d, not placed yet; each with the cover lines it meets.
            let bases: Vec<HouseId> = base_dir
                .iter()
                .copied()
                .filter(|&h| need[h].contains(d))
                .collect();
            if bases.len() < 2 || bases.len() > 16 {
                continue;
            }
            for (x, cover_dir) in dirs.iter().enumerate() {
                if x == y {
                    continue;
                }
                let meets: Vec<u16> = bases
                    .iter()
                    .map(|&b| {
                        let places = cand.and(ctx.t.house_sets[b]);
                        cover_dir
                            .iter()
                            .enumerate()
                            .filter(|(_, &c)| !places.and(ctx.t.house_sets[c]).is_empty())
                            .fold(0u16, |m, (i, _)| m | 1 << i)
                    })
                    .collect();
                // Smallest fish first: subsets by size.
                let full = 1u32 << bases.len();
                let mut subsets: Vec<u32> = (1..full).filter(|s| s.count_ones() >= 2).collect();
                subsets.sort_by_key(|s| (s.count_ones(), *s));
                for s in subsets {
                    let covers = (0..bases.len())
                        .filter(|&i| s & (1 << i) != 0)
                        .fold(0u16, |m, i| m | meets[i]);
                    if covers.count_ones() != s.count_ones() {
                        continue;
                    }
                    let base: Vec<HouseId> = (0..bases.len())
                        .filter(|&i| s & (1 << i) != 0)
                        .map(|i| bases[i])
                        .collect();
                    let cover: Vec<HouseId> = (0..cover_dir.len())
                        .filter(|&i| covers & (1 << i) != 0)
                        .map(|i| cover_dir[i])
                        .collect();
                    if let Some(step) = fish_step(ctx, info, d, &base, &cover) {
                        sink(step)?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The fish of `d` on `base` lines covered by `cover` lines, as a step (None when it
/// removes nothing).
fn fish_step(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    d: u8,
    base: &[HouseId],
    cover: &[HouseId],
) -> Option<Step> {
    let inside = base
        .iter()
        .fold(CellSet::EMPTY, |s, &h| s.or(ctx.t.house_sets[h]));
    let bit = Digits::single(d).0;
    let mut elims = Vec::new();
    for &h in cover {
        let cells = &ctx.geo.house(h).cells;
        // d only inside the base lines.
        let masks: Vec<u16> = cells
            .iter()
            .map(|&c| {
                let m = mask(ctx, c);
                if ctx.grid.value(c) == 0 && !inside.contains(c) {
                    m & !bit
                } else {
                    m
                }
            })
            .collect();
        // And a run holding d: the runs without it go.
        let mut keep = masks.clone();
        if ctx.geo.house(h).rule == Rule::ConsecutiveRun {
            let n = ctx.geo.max_digit();
            let len = cells.len() as u8;
            keep = vec![0; cells.len()];
            for lo in 1..=(n + 1).saturating_sub(len) {
                let window = Digits::range(lo, lo + len - 1);
                if !window.contains(d) {
                    continue;
                }
                if let Some(out) = viable_edges(&masks, window.0) {
                    for (k, o) in keep.iter_mut().zip(out) {
                        *k |= o;
                    }
                }
            }
        }
        for (i, &c) in cells.iter().enumerate() {
            if ctx.grid.value(c) != 0 {
                continue;
            }
            for e in Digits(ctx.cand[c].0 & !keep[i]).iter() {
                let x = Candidate::new(c, e);
                if !elims.contains(&x) {
                    elims.push(x);
                }
            }
        }
    }
    if elims.is_empty() {
        return None;
    }
    let mut step = Step::new(
        info,
        Pattern::Fish {
            digit: d,
            base: base.to_vec(),
            cover: cover.to_vec(),
            fins: Vec::new(),
        },
    )
    .eliminate(elims);
    for &h in base {
        step = step.house(h, Role::Base);
    }
    for &h in cover {
        step = step.house(h, Role::Cover);
    }
    Some(step)
}

pub(super) fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Fish {
        digit, base, cover, ..
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    let (bases, covers) = (house_list(g, base), house_list(g, cover));
    match detail {
        Detail::Nudge => format!("Look at where {bases} can hold {d}"),
        Detail::Technique => format!("There is a {} on {d}", step.name()),
        Detail::Full => format!(
            "{} on {d}: {bases} must each hold {d} (every run they can hold contains it), and \
             all their places for {d} lie on {covers}; those lines hold {d} once at most, so \
             each holds exactly one {d}, inside {bases}, and a run containing {d}: {}",
            step.name(),
            effect_text(g, step)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::find_all;
    use crate::format::parse_line;
    use crate::geometry::HouseKind;
    use crate::puzzle::{Grid, Variant};

    /// Every line holds a 5. Rows 2 and 3 keep their 5s on / lines 2 and 4 only: an
    /// X-wing, so / lines 2 and 4 hold their 5s in rows 2 and 3 and lose them elsewhere.
    #[test]
    fn an_x_wing_on_two_rows_that_must_hold_5() {
        let p = parse_line(".".repeat(61).as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let mut grid = Grid::from_puzzle(&p);
        let g = grid.geometry_arc();
        let cell = |name: &str| (0..61).find(|&c| g.cell_name(c) == name).unwrap();
        for name in [
            "r2c1", "r2c3", "r2c5", "r2c6", "r3c1", "r3c3", "r3c5", "r3c6", "r3c7",
        ] {
            grid.eliminate(cell(name), 5);
        }
        let steps = find_all(&grid, "line-fish");
        let house = |k: HouseKind| g.find_house(k).unwrap();
        let step = steps
            .iter()
            .find(|s| {
                s.houses()
                    == [
                        house(HouseKind::Row(2)),
                        house(HouseKind::Row(3)),
                        house(HouseKind::Forward(2)),
                        house(HouseKind::Forward(4)),
                    ]
            })
            .expect("the X-wing");
        let mut got: Vec<String> = step
            .eliminations
            .iter()
            .map(|e| format!("{}:{}", g.cell_name(e.cell), e.digit))
            .collect();
        got.sort();
        let mut want: Vec<String> = [
            "r1c2", "r4c2", "r5c2", "r6c1", "r1c4", "r4c4", "r5c4", "r6c3", "r7c2", "r8c1",
        ]
        .iter()
        .map(|c| format!("{c}:5"))
        .collect();
        want.sort();
        assert_eq!(got, want);
        let text = step.explain(&g, super::Detail::Full);
        assert!(
            text.starts_with(
                "Line Fish on 5: row 2 and row 3 must each hold 5 (every run they can hold \
                 contains it), and all their places for 5 lie on / line 2 and / line 4"
            ),
            "{text}"
        );
    }
}
