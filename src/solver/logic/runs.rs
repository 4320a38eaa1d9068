//! Consecutive-run lines (honeycomb lines of 5..=8 cells, renban lines): the HaniDoku
//! methods of SudoCue in the order a person applies them.
//!
//! - `run-range` (range trimming): a line of `L` cells whose cells need a digit of at
//!   least `a` and one of at most `b` (placed digits are the sharpest case) holds a run
//!   inside `[a-L+1, b+L-1]`;
//! - `run-sequence-enumeration`: every run the line can still hold, each checked by a
//!   matching of its cells to its digits; a candidate that no surviving run places in its
//!   cell goes;
//! - `run-pair-enumeration`: the same over two crossing lines at once, with every pair of
//!   their cells that see each other kept distinct.
//!
//! Must-appear digits (SudoCue's requirement check) need no family of their own:
//! [`must_appear`](super::must_appear) already gives hidden singles, locked candidates and
//! hidden subsets on run lines the digits common to every feasible run, and the trimming
//! here narrows that intersection as candidates go.

use super::step::{and_list, effect_text, house_name};
use super::{elims_outside, mask, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use crate::solver::exact::viable_edges;
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "run-range" => range(ctx, info, sink),
        "run-sequence-enumeration" => sequences(ctx, info, sink),
        "run-pair-enumeration" => pairs(ctx, info, sink),
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
        sink(
            Step::new(
                info,
                Pattern::Runs {
                    houses: vec![h],
                    runs: vec![(first..=last_low).collect()],
                    placed: ctx.placed_in(h),
                },
            )
            .eliminate(elims)
            .house(h, Role::Defining),
        )?;
    }
    ControlFlow::Continue(())
}

/// Runs (lowest digits) a line can hold and, per cell, the digits some of them place there.
fn line_runs(ctx: &Ctx, h: HouseId) -> (Vec<u8>, Vec<u16>) {
    let cells = &ctx.geo.house(h).cells;
    let n = ctx.geo.max_digit();
    let len = cells.len() as u8;
    let masks: Vec<u16> = cells.iter().map(|&c| mask(ctx, c)).collect();
    let mut lows = Vec::new();
    let mut keep = vec![0u16; cells.len()];
    if len == 0 || len > n || cells.len() > 16 {
        return (lows, keep);
    }
    for lo in 1..=n + 1 - len {
        let window = Digits::range(lo, lo + len - 1).0;
        if let Some(out) = viable_edges(&masks, window) {
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
        let (lows, keep) = line_runs(ctx, h);
        if lows.is_empty() {
            continue; // broken line: nothing sound to say
        }
        let elims = elims_outside(ctx, cells, &keep);
        if elims.is_empty() {
            continue;
        }
        sink(
            Step::new(
                info,
                Pattern::Runs {
                    houses: vec![h],
                    runs: vec![lows],
                    placed: ctx.placed_in(h),
                },
            )
            .eliminate(elims)
            .house(h, Role::Defining),
        )?;
    }
    ControlFlow::Continue(())
}

/// Search budget per pair of lines; a pair that needs more is skipped (no step, never a
/// wrong one), which keeps a hint well under the 50 ms budget.
const PAIR_NODES: u32 = 4000;

struct PairSearch<'a> {
    dom: Vec<u16>,
    /// `conflict[i]`: earlier local cells that see cell `i`.
    conflict: Vec<u32>,
    /// For each of the two lines: member bitmask over local cells, and its run length
    /// (0 for a complete line).
    lines: [(u32, u8); 2],
    value: Vec<u8>,
    seen: Vec<u16>,
    lows: [u16; 2],
    nodes: u32,
    ctx: &'a Ctx<'a>,
}

impl PairSearch<'_> {
    /// False when the budget ran out or every candidate is already supported.
    fn dfs(&mut self, i: usize) -> bool {
        self.nodes += 1;
        if self.nodes > PAIR_NODES {
            return false;
        }
        if i == self.dom.len() {
            for (k, &v) in self.value.iter().enumerate() {
                self.seen[k] |= 1 << (v - 1);
            }
            for (l, &(members, _)) in self.lines.iter().enumerate() {
                let lo = (0..self.value.len())
                    .filter(|&k| members & (1 << k) != 0)
                    .map(|k| self.value[k])
                    .min()
                    .unwrap_or(1);
                self.lows[l] |= 1 << (lo - 1);
            }
            // Stop early once nothing could be removed any more.
            return self.seen != self.dom;
        }
        let mut m = self.dom[i];
        while m != 0 {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            if (0..i).any(|k| self.conflict[i] & (1 << k) != 0 && self.value[k] == d) {
                continue;
            }
            self.value[i] = d;
            let ok = self.lines.iter().all(|&(members, len)| {
                if len == 0 || members & (1 << i) == 0 {
                    return true;
                }
                let (mut lo, mut hi) = (d, d);
                for k in 0..i {
                    if members & (1 << k) != 0 {
                        lo = lo.min(self.value[k]);
                        hi = hi.max(self.value[k]);
                    }
                }
                hi - lo < len
            });
            if ok && !self.dfs(i + 1) {
                return false;
            }
        }
        let _ = self.ctx;
        true
    }
}

fn pairs(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let houses = ctx.geo.houses();
    for a in 0..houses.len() {
        for b in a + 1..houses.len() {
            let (ra, rb) = (houses[a].rule, houses[b].rule);
            let line = |r: Rule| matches!(r, Rule::ConsecutiveRun | Rule::Complete);
            if !line(ra) || !line(rb) || (ra != Rule::ConsecutiveRun && rb != Rule::ConsecutiveRun)
            {
                continue;
            }
            let (sa, sb) = (ctx.t.house_sets[a], ctx.t.house_sets[b]);
            if sa.and(sb).is_empty() || sa.and(ctx.empty).is_empty() || sb.and(ctx.empty).is_empty()
            {
                continue;
            }
            let mut cells: Vec<Cell> = sa.or(sb).iter().collect();
            if cells.len() > 32 {
                continue;
            }
            // Fewest choices first: placed cells, then the tightest.
            cells.sort_by_key(|&c| Digits(mask(ctx, c)).len());
            let dom: Vec<u16> = cells.iter().map(|&c| mask(ctx, c)).collect();
            let conflict: Vec<u32> = (0..cells.len())
                .map(|i| {
                    (0..i)
                        .filter(|&k| ctx.geo.sees(cells[i], cells[k]))
                        .fold(0u32, |m, k| m | 1 << k)
                })
                .collect();
            let members = |s: super::CellSet| {
                (0..cells.len())
                    .filter(|&k| s.contains(cells[k]))
                    .fold(0u32, |m, k| m | 1 << k)
            };
            let run_len = |h: HouseId| match houses[h].rule {
                Rule::ConsecutiveRun => houses[h].cells.len() as u8,
                _ => 0,
            };
            let mut s = PairSearch {
                value: vec![0; cells.len()],
                seen: vec![0; cells.len()],
                dom,
                conflict,
                lines: [(members(sa), run_len(a)), (members(sb), run_len(b))],
                lows: [0; 2],
                nodes: 0,
                ctx,
            };
            if !s.dfs(0) || s.seen.iter().all(|&x| x == 0) {
                continue; // over budget, nothing to remove, or a broken pair
            }
            let elims = elims_outside(ctx, &cells, &s.seen);
            if elims.is_empty() {
                continue;
            }
            let runs: Vec<Vec<u8>> = s.lows.iter().map(|&m| Digits(m).iter().collect()).collect();
            sink(
                Step::new(
                    info,
                    Pattern::Runs {
                        houses: vec![a, b],
                        runs,
                        placed: ctx.placed_in(a) | ctx.placed_in(b),
                    },
                )
                .eliminate(elims)
                .house(a, Role::Base)
                .house(b, Role::Cover),
            )?;
        }
    }
    ControlFlow::Continue(())
}

/// "3-7 or 4-8" for a line of `len` cells.
fn run_text(lows: &[u8], len: usize) -> String {
    let parts: Vec<String> = lows
        .iter()
        .map(|&lo| format!("{}-{}", digit_char(lo), digit_char(lo + len as u8 - 1)))
        .collect();
    match parts.len() {
        0 => "nothing".into(),
        1 => parts[0].clone(),
        n => format!("{} or {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
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
        assert!(text.contains("row 9 can hold 3-7 or 4-8"), "{text}");
        assert!(text.contains("with 4 and 7 placed"), "{text}");
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
