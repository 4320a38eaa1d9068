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
use super::{
    elims_outside, mask, Candidate, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use crate::solver::rules::viable_edges;
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

/// Search budget per pair of lines; a pair that needs more is skipped (no step, never a
/// wrong one), which keeps a hint well under the 50 ms budget.
const PAIR_NODES: u32 = 20_000;

/// Two crossing lines as a small constraint problem over their cells (at most 32): the
/// cells' candidates, which cells see each other, and each line's run length.
struct PairCsp {
    n: usize,
    /// `conflict[i]`: local cells that see cell `i`.
    conflict: [u32; 32],
    /// For each of the two lines: member bitmask over local cells, and its run length
    /// (0 for a complete line).
    lines: [(u32, u8); 2],
    nodes: u32,
    /// Digits per cell that no solution found so far holds: tried first, so that each
    /// solution supports as many new candidates as it can and fewer searches are needed.
    want: [u16; 32],
}

impl PairCsp {
    /// Narrows `dom` after cell `i` took its single digit: peers lose it, and the run
    /// lines through `i` keep digits within reach of the digits they hold.
    fn propagate(&self, dom: &mut [u16; 32], fixed: u32, i: usize) -> bool {
        let bit = dom[i];
        let mut k = self.conflict[i] & !fixed;
        while k != 0 {
            let j = k.trailing_zeros() as usize;
            k &= k - 1;
            dom[j] &= !bit;
            if dom[j] == 0 {
                return false;
            }
        }
        for &(members, len) in &self.lines {
            if len == 0 || members & (1 << i) == 0 {
                continue;
            }
            let mut held = bit;
            let mut k = members & fixed;
            while k != 0 {
                held |= dom[k.trailing_zeros() as usize];
                k &= k - 1;
            }
            let lo = held.trailing_zeros() as u8; // digit - 1
            let hi = 15 - held.leading_zeros() as u8;
            // Digits d-1 in [hi-len+1, lo+len-1].
            let from = (hi + 1).saturating_sub(len);
            let to = (lo + len - 1).min(15);
            let reach: u16 = if from > to {
                0
            } else {
                ((1u32 << (to + 1)) - (1u32 << from)) as u16
            };
            let mut k = members & !fixed & !(1 << i);
            while k != 0 {
                let j = k.trailing_zeros() as usize;
                k &= k - 1;
                dom[j] &= reach;
                if dom[j] == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// A full assignment from `dom` (cells in `fixed` already hold one digit and have been
    /// propagated), or None when there is none or the budget ran out (`self.nodes`).
    fn solve(&mut self, dom: [u16; 32], fixed: u32) -> Option<[u16; 32]> {
        self.nodes += 1;
        if self.nodes > PAIR_NODES {
            return None;
        }
        let all = if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        };
        // Cells left with one digit are fixed first, then the tightest.
        let open = all & !fixed;
        if open == 0 {
            return Some(dom);
        }
        let mut best = usize::MAX;
        let mut best_len = u32::MAX;
        let mut k = open;
        while k != 0 {
            let j = k.trailing_zeros() as usize;
            k &= k - 1;
            let l = dom[j].count_ones();
            if l < best_len {
                best_len = l;
                best = j;
            }
        }
        let fresh = dom[best] & self.want[best];
        let mut m = fresh;
        let mut rest = dom[best] & !fresh;
        while m != 0 || rest != 0 {
            if m == 0 {
                m = std::mem::take(&mut rest);
            }
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            let mut d = dom;
            d[best] = bit;
            if self.propagate(&mut d, fixed, best) {
                if let Some(s) = self.solve(d, fixed | 1 << best) {
                    return Some(s);
                }
            }
            if self.nodes > PAIR_NODES {
                return None;
            }
        }
        None
    }
}

/// Two crossing lines as run-pair enumeration sees them, fixed by the layout: built once per
/// geometry, so a step spends nothing on cells and conflicts before its memo lookup.
pub(crate) struct PairShape {
    a: HouseId,
    b: HouseId,
    /// The cells of both lines (at most 32), local index by position.
    cells: Vec<Cell>,
    conflict: [u32; 32],
    /// Member bits and run length (0 for a complete line) of each line.
    lines: [(u32, u8); 2],
}

/// Every pair of crossing lines, one of them a run, in house order.
fn shapes<'c>(ctx: &'c Ctx) -> &'c [PairShape] {
    ctx.t.run_pairs.get_or_init(|| {
        let houses = ctx.geo.houses();
        let line = |r: Rule| matches!(r, Rule::ConsecutiveRun | Rule::Complete);
        let run_len = |h: HouseId| match houses[h].rule {
            Rule::ConsecutiveRun => houses[h].cells.len() as u8,
            _ => 0,
        };
        let mut out = Vec::new();
        if ctx.geo.max_digit() > 16 {
            return out;
        }
        for a in 0..houses.len() {
            for b in a + 1..houses.len() {
                let (ra, rb) = (houses[a].rule, houses[b].rule);
                if !line(ra)
                    || !line(rb)
                    || (ra != Rule::ConsecutiveRun && rb != Rule::ConsecutiveRun)
                {
                    continue;
                }
                let (sa, sb) = (ctx.t.house_sets[a], ctx.t.house_sets[b]);
                if sa.and(sb).is_empty() {
                    continue;
                }
                let cells: Vec<Cell> = sa.or(sb).iter().collect();
                if cells.len() > 32 {
                    continue;
                }
                let mut conflict = [0u32; 32];
                for (row, &x) in conflict.iter_mut().zip(&cells) {
                    for (j, &y) in cells.iter().enumerate() {
                        if x != y && ctx.t.peers[x].contains(y) {
                            *row |= 1 << j;
                        }
                    }
                }
                let members = |s: super::CellSet| {
                    (0..cells.len())
                        .filter(|&k| s.contains(cells[k]))
                        .fold(0u32, |m, k| m | 1 << k)
                };
                let lines = [(members(sa), run_len(a)), (members(sb), run_len(b))];
                out.push(PairShape {
                    a,
                    b,
                    cells,
                    conflict,
                    lines,
                });
            }
        }
        out
    })
}

fn pairs(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    for shape in shapes(ctx) {
        let (a, b) = (shape.a, shape.b);
        let (sa, sb) = (ctx.t.house_sets[a], ctx.t.house_sets[b]);
        if sa.and(ctx.empty).is_empty() || sb.and(ctx.empty).is_empty() {
            continue;
        }
        let Some((seen, runs)) = pair_support(ctx, shape) else {
            continue; // over budget or a broken pair
        };
        let elims = elims_outside(ctx, &shape.cells, &seen);
        if elims.is_empty() {
            continue;
        }
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
    ControlFlow::Continue(())
}

/// Everything a pair search depends on: the memo key of [`pair_support`].
#[derive(Clone, PartialEq, Eq, Hash)]
struct PairKey {
    n: usize,
    max: u8,
    dom: [u16; 32],
    /// Local cells holding a placed digit.
    placed: u32,
    conflict: [u32; 32],
    lines: [(u32, u8); 2],
}

/// Supports per local cell and run lows per line, or None (broken pair or over budget).
type PairResult = Option<(Vec<u16>, Vec<Vec<u8>>)>;

/// Entries kept before the memo starts afresh (a few MB).
const MEMO_CAP: usize = 1 << 16;

/// Pair searches already made in this memory. The rater and the generator walk position
/// after position, and most pairs of lines do not change from one step to the next: the
/// search is a pure function of its key, so its answer is reused.
#[derive(Default)]
pub struct PairMemo(std::collections::HashMap<PairKey, PairResult, foldhash::fast::FixedState>);

impl PairMemo {
    /// Empties the memo.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// Per cell of two crossing lines, the digits some joint assignment puts there (cells that
/// see each other distinct, run lines consecutive), and the lowest digits of the runs each
/// line holds in some assignment. None over budget or when no assignment exists.
fn pair_support(ctx: &Ctx, shape: &PairShape) -> PairResult {
    let n = shape.cells.len();
    let mut dom = [0u16; 32];
    let mut placed = 0u32;
    for (i, &c) in shape.cells.iter().enumerate() {
        dom[i] = mask(ctx, c);
        if ctx.grid.value(c) != 0 {
            placed |= 1 << i;
        }
    }
    let key = PairKey {
        n,
        max: ctx.geo.max_digit(),
        dom,
        placed,
        conflict: shape.conflict,
        lines: shape.lines,
    };
    let hit = ctx.mem.pairs.borrow().0.get(&key).cloned();
    if let Some(hit) = hit {
        return hit;
    }
    let result = pair_search(&key);
    let mut memo = ctx.mem.pairs.borrow_mut();
    if memo.0.len() >= MEMO_CAP {
        memo.0.clear();
    }
    memo.0.insert(key, result.clone());
    result
}

/// The search behind [`pair_support`].
fn pair_search(key: &PairKey) -> PairResult {
    let PairKey {
        n,
        max,
        mut dom,
        placed,
        conflict,
        lines,
    } = *key;
    let mut csp = PairCsp {
        n,
        conflict,
        lines,
        nodes: 0,
        want: [u16::MAX; 32],
    };
    // Placed cells first: their consequences narrow everything else.
    let mut fixed = 0u32;
    for i in 0..n {
        if placed & (1 << i) != 0 {
            if !csp.propagate(&mut dom, fixed, i) {
                return None;
            }
            fixed |= 1 << i;
        }
    }
    let mut seen = [0u16; 32];
    let mut lows = [0u16; 2];
    let line_members = csp.lines;
    let record = |s: &[u16; 32], seen: &mut [u16; 32], lows: &mut [u16; 2]| {
        for (x, &y) in seen.iter_mut().zip(s).take(n) {
            *x |= y;
        }
        for (l, &(m, _)) in line_members.iter().enumerate() {
            let held = (0..n)
                .filter(|&k| m & (1 << k) != 0)
                .fold(0u16, |a, k| a | s[k]);
            lows[l] |= held & held.wrapping_neg();
        }
    };
    // Support for every candidate: a solution with that digit in that cell.
    for i in 0..n {
        if fixed & (1 << i) != 0 {
            seen[i] |= dom[i];
            continue;
        }
        let mut m = dom[i] & !seen[i];
        while m != 0 {
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            if seen[i] & bit != 0 {
                continue;
            }
            let mut d = dom;
            d[i] = bit;
            let found = if csp.propagate(&mut d, fixed, i) {
                csp.solve(d, fixed | 1 << i)
            } else {
                None
            };
            if csp.nodes > PAIR_NODES {
                return None;
            }
            if let Some(s) = found {
                record(&s, &mut seen, &mut lows);
                for (w, &x) in csp.want.iter_mut().zip(&seen) {
                    *w = !x;
                }
            }
        }
    }
    if seen[..n].contains(&0) {
        return None;
    }
    // Runs no support used yet: each is tried once so the text lists every run.
    for (l, &(m, len)) in line_members.iter().enumerate() {
        if len == 0 {
            continue;
        }
        for lo in 1..=(max + 1).saturating_sub(len) {
            if lows[l] & (1 << (lo - 1)) != 0 {
                continue;
            }
            let window = Digits::range(lo, lo + len - 1).0;
            let mut d = dom;
            let mut ok = true;
            for (k, x) in d.iter_mut().enumerate().take(n) {
                if m & (1 << k) != 0 {
                    *x &= window;
                    ok &= *x != 0;
                }
            }
            if ok && csp.solve(d, fixed).is_some() {
                lows[l] |= 1 << (lo - 1);
            }
            if csp.nodes > PAIR_NODES {
                return None;
            }
        }
    }
    let runs = lows
        .iter()
        .zip(&csp.lines)
        .map(|(&m, &(_, len))| {
            if len == 0 {
                vec![1]
            } else {
                Digits(m).iter().collect()
            }
        })
        .collect();
    Some((seen[..n].to_vec(), runs))
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
        Detail::Full if houses.len() == 1 && step.id() != "run-pair-enumeration" => {
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
