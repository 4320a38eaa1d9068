//! Run pair and triple enumeration: two or three crossing lines (at least one a run) taken
//! together as one small constraint problem over their cells. Every joint filling keeps
//! each run line's digits distinct and consecutive and every two cells that see each other
//! distinct; a candidate that no joint filling places in its cell goes.
//!
//! One line alone (sequence enumeration) knows only its own cells; two crossing lines share
//! a cell, so a run that one line can hold only with a digit the other cannot give it goes.
//! Three lines that cross pairwise (a row, a `/` and a `\` line: a triangle, or three lines
//! through one cell) tie three such cells at once, which is what the sparsest honeycombs
//! need before any net.
//!
//! The search is a small backtracking over at most 32 cells with forward checking, bounded
//! by a node budget: a set that needs more is skipped (no step, never a wrong one). Results
//! are kept in the walk's memory by the exact domains of the cells, since most line sets do
//! not change from one step to the next.

use super::{elims_outside, mask, CellSet, Ctx, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{Cell, Digits, HouseId, Rule};
use std::ops::ControlFlow;

/// Search budget per set of lines; a set that needs more is skipped.
const NODES: u32 = 20_000;

/// At most this many lines in a set.
const MAX_LINES: usize = 3;

/// Lines of a set, fixed by the layout: built once per geometry, so a step spends nothing
/// on cells and conflicts before its memo lookup.
pub(crate) struct LineSet {
    houses: [HouseId; MAX_LINES],
    k: usize,
    /// The cells of the lines (at most 32), local index by position.
    cells: Vec<Cell>,
    /// `conflict[i]`: local cells that see cell `i`.
    conflict: [u32; 32],
    /// Member bits and run length (0 for a complete line) of each line.
    lines: [(u32, u8); MAX_LINES],
}

impl LineSet {
    fn houses(&self) -> &[HouseId] {
        &self.houses[..self.k]
    }
}

/// Every line set of the layout: crossing pairs, and triples of lines that cross pairwise.
#[derive(Default)]
pub(crate) struct Shapes {
    pairs: Vec<LineSet>,
    triples: Vec<LineSet>,
}

fn shapes<'c>(ctx: &'c Ctx) -> &'c Shapes {
    ctx.t.run_pairs.get_or_init(|| {
        let houses = ctx.geo.houses();
        let mut out = Shapes::default();
        if ctx.geo.max_digit() > 16 {
            return out;
        }
        let line = |h: HouseId| matches!(houses[h].rule, Rule::ConsecutiveRun | Rule::Complete);
        let run = |h: HouseId| houses[h].rule == Rule::ConsecutiveRun;
        let sets = &ctx.t.house_sets;
        let cross = |a: HouseId, b: HouseId| !sets[a].and(sets[b]).is_empty();
        let lines: Vec<HouseId> = (0..houses.len()).filter(|&h| line(h)).collect();
        for (i, &a) in lines.iter().enumerate() {
            for (j, &b) in lines.iter().enumerate().skip(i + 1) {
                if !cross(a, b) {
                    continue;
                }
                if run(a) || run(b) {
                    out.pairs.extend(build(ctx, &[a, b]));
                }
                for &c in &lines[j + 1..] {
                    if cross(a, c) && cross(b, c) && (run(a) || run(b) || run(c)) {
                        out.triples.extend(build(ctx, &[a, b, c]));
                    }
                }
            }
        }
        out
    })
}

/// The set of `hs` (None over 32 cells).
fn build(ctx: &Ctx, hs: &[HouseId]) -> Option<LineSet> {
    let houses = ctx.geo.houses();
    let all = hs
        .iter()
        .fold(CellSet::EMPTY, |s, &h| s.or(ctx.t.house_sets[h]));
    let cells: Vec<Cell> = all.iter().collect();
    if cells.len() > 32 || hs.len() > MAX_LINES {
        return None;
    }
    let mut conflict = [0u32; 32];
    for (row, &x) in conflict.iter_mut().zip(&cells) {
        for (j, &y) in cells.iter().enumerate() {
            if x != y && ctx.t.peers[x].contains(y) {
                *row |= 1 << j;
            }
        }
    }
    let mut lines = [(0u32, 0u8); MAX_LINES];
    let mut ids = [0; MAX_LINES];
    for (k, &h) in hs.iter().enumerate() {
        let s = ctx.t.house_sets[h];
        let members = (0..cells.len())
            .filter(|&i| s.contains(cells[i]))
            .fold(0u32, |m, i| m | 1 << i);
        let len = match houses[h].rule {
            Rule::ConsecutiveRun => houses[h].cells.len() as u8,
            _ => 0,
        };
        lines[k] = (members, len);
        ids[k] = h;
    }
    Some(LineSet {
        houses: ids,
        k: hs.len(),
        cells,
        conflict,
        lines,
    })
}

/// Pair enumeration (`k` = 2) or triple enumeration (3): every set whose joint fillings
/// leave out a candidate, as a step.
pub(super) fn find(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    k: usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let all = shapes(ctx);
    let sets = if k == 2 { &all.pairs } else { &all.triples };
    for set in sets {
        let hs = set.houses();
        // A set with a filled line says nothing its other lines do not say alone.
        if hs
            .iter()
            .any(|&h| ctx.t.house_sets[h].and(ctx.empty).is_empty())
        {
            continue;
        }
        let Some((seen, runs)) = support(ctx, set) else {
            continue; // over budget or a broken set
        };
        let elims = elims_outside(ctx, &set.cells, &seen);
        if elims.is_empty() {
            continue;
        }
        let placed = hs.iter().fold(Digits::EMPTY, |p, &h| p | ctx.placed_in(h));
        let mut step = Step::new(
            info,
            Pattern::Runs {
                houses: hs.to_vec(),
                runs,
                placed,
            },
        )
        .eliminate(elims);
        for (i, &h) in hs.iter().enumerate() {
            step = step.house(h, if i == 0 { Role::Base } else { Role::Cover });
        }
        sink(step)?;
    }
    ControlFlow::Continue(())
}

/// Everything a search depends on: the memo key of [`support`].
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    n: usize,
    max: u8,
    dom: [u16; 32],
    /// Local cells holding a placed digit.
    placed: u32,
    conflict: [u32; 32],
    lines: [(u32, u8); MAX_LINES],
}

/// Supports per local cell and run lows per line, or None (broken set or over budget).
type Found = Option<(Vec<u16>, Vec<Vec<u8>>)>;

/// Entries kept before the memo starts afresh (a few MB).
const MEMO_CAP: usize = 1 << 16;

/// Line-set searches already made in this memory. The rater and the generator walk
/// position after position, and most sets of lines do not change from one step to the
/// next: the search is a pure function of its key, so its answer is reused.
#[derive(Default)]
pub struct SetMemo(std::collections::HashMap<Key, Found, foldhash::fast::FixedState>);

impl SetMemo {
    /// Empties the memo.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// Per cell of the set, the digits some joint filling puts there (cells that see each other
/// distinct, run lines consecutive), and the lowest digits of the runs each line holds in
/// some filling. None over budget or when no filling exists.
fn support(ctx: &Ctx, set: &LineSet) -> Found {
    let n = set.cells.len();
    let mut dom = [0u16; 32];
    let mut placed = 0u32;
    for (i, &c) in set.cells.iter().enumerate() {
        dom[i] = mask(ctx, c);
        if ctx.grid.value(c) != 0 {
            placed |= 1 << i;
        }
    }
    let key = Key {
        n,
        max: ctx.geo.max_digit(),
        dom,
        placed,
        conflict: set.conflict,
        lines: set.lines,
    };
    let hit = ctx.mem.pairs.borrow().0.get(&key).cloned();
    if let Some(hit) = hit {
        return hit;
    }
    let result = search(&key, set.k);
    let mut memo = ctx.mem.pairs.borrow_mut();
    if memo.0.len() >= MEMO_CAP {
        memo.0.clear();
    }
    memo.0.insert(key, result.clone());
    result
}

/// The lines as a constraint problem: domains narrowed by forward checking.
struct Csp {
    n: usize,
    conflict: [u32; 32],
    lines: [(u32, u8); MAX_LINES],
    k: usize,
    nodes: u32,
    /// Digits per cell that no solution found so far holds: tried first, so that each
    /// solution supports as many new candidates as it can and fewer searches are needed.
    want: [u16; 32],
}

impl Csp {
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
        for &(members, len) in &self.lines[..self.k] {
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
        if self.nodes > NODES {
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
            if self.nodes > NODES {
                return None;
            }
        }
        None
    }
}

/// The search behind [`support`].
fn search(key: &Key, k: usize) -> Found {
    let Key {
        n,
        max,
        mut dom,
        placed,
        conflict,
        lines,
    } = *key;
    let mut csp = Csp {
        n,
        conflict,
        lines,
        k,
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
    let mut lows = [0u16; MAX_LINES];
    let members = csp.lines;
    let record = |s: &[u16; 32], seen: &mut [u16; 32], lows: &mut [u16; MAX_LINES]| {
        for (x, &y) in seen.iter_mut().zip(s).take(n) {
            *x |= y;
        }
        for (l, &(m, _)) in members.iter().enumerate().take(k) {
            let held = (0..n)
                .filter(|&i| m & (1 << i) != 0)
                .fold(0u16, |a, i| a | s[i]);
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
            if csp.nodes > NODES {
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
    for (l, &(m, len)) in members.iter().enumerate().take(k) {
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
            for (i, x) in d.iter_mut().enumerate().take(n) {
                if m & (1 << i) != 0 {
                    *x &= window;
                    ok &= *x != 0;
                }
            }
            if ok && csp.solve(d, fixed).is_some() {
                lows[l] |= 1 << (lo - 1);
            }
            if csp.nodes > NODES {
                return None;
            }
        }
    }
    let runs = lows
        .iter()
        .zip(&csp.lines)
        .take(k)
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

#[cfg(test)]
mod tests {
    use super::super::testutil::xorshift;
    use super::super::{Ctx, SolverMemory};
    use super::*;
    use crate::format::parse_line;
    use crate::puzzle::{Grid, Variant};

    /// A hard honeycomb (line 26 of `hanicue-hard.txt`).
    const PUZZLE: &str = ".............................................4..8......25.3.6";

    fn puzzle() -> (Grid, Vec<u8>) {
        let p = parse_line(PUZZLE.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        (Grid::from_puzzle(&p), sol)
    }

    /// Every joint filling of the set's cells from `dom`, by plain backtracking: the digits
    /// some filling gives each cell (None when there is none).
    fn brute(set: &LineSet, dom: &[u16; 32]) -> Option<Vec<u16>> {
        fn rec(i: usize, set: &LineSet, dom: &[u16; 32], pick: &mut [u16; 32], out: &mut [u16]) {
            let n = set.cells.len();
            if i == n {
                for &(m, len) in &set.lines[..set.k] {
                    let held = (0..n)
                        .filter(|&j| m & (1 << j) != 0)
                        .fold(0u16, |a, j| a | pick[j]);
                    let lo = held.trailing_zeros();
                    if len > 0 && held >> lo != (1 << len) - 1 {
                        return;
                    }
                }
                for (o, &p) in out.iter_mut().zip(pick.iter()) {
                    *o |= p;
                }
                return;
            }
            let mut m = dom[i];
            while m != 0 {
                let b = m & m.wrapping_neg();
                m &= m - 1;
                let clash = (0..i).any(|j| set.conflict[i] & (1 << j) != 0 && pick[j] == b);
                if !clash {
                    pick[i] = b;
                    rec(i + 1, set, dom, pick, out);
                }
            }
        }
        let mut out = vec![0u16; set.cells.len()];
        rec(0, set, dom, &mut [0; 32], &mut out);
        (!out.contains(&0)).then_some(out)
    }

    /// On random domains around a real solution (the true digit and a few others per
    /// cell), the search keeps exactly the candidates some joint filling uses, for pairs
    /// and triples alike.
    #[test]
    fn the_search_keeps_exactly_what_some_joint_filling_uses() {
        let (grid, sol) = puzzle();
        let memory = SolverMemory::new();
        let ctx = Ctx::new(&grid, &memory);
        let all = shapes(&ctx);
        assert!(!all.pairs.is_empty() && !all.triples.is_empty());
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut removed = 0;
        for round in 0..300 {
            let sets = if round % 2 == 0 {
                &all.pairs
            } else {
                &all.triples
            };
            let set = &sets[(next() as usize) % sets.len()];
            let mut dom = [0u16; 32];
            for (i, &c) in set.cells.iter().enumerate() {
                dom[i] = 1 << (sol[c] - 1);
                for _ in 0..2 {
                    if next().is_multiple_of(3) {
                        dom[i] |= 1 << (next() % 9);
                    }
                }
            }
            let key = Key {
                n: set.cells.len(),
                max: 9,
                dom,
                placed: 0,
                conflict: set.conflict,
                lines: set.lines,
            };
            let want = brute(set, &dom).expect("the solution is a filling");
            let (got, _) = search(&key, set.k).expect("within budget");
            assert_eq!(got, want, "{:?}", set.houses());
            removed += (0..set.cells.len())
                .map(|i| (dom[i] & !got[i]).count_ones())
                .sum::<u32>();
        }
        assert!(removed > 50, "too few removals to mean much: {removed}");
    }
}
