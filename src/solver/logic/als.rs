//! Almost locked sets (ALS): `n` cells of one `Complete` house holding `n + 1` digits.
//! Losing one digit locks the others in. ALS-XZ, ALS-XY-Wing, ALS-Chain and Death
//! Blossom join such sets by restricted common digits (RCC: a digit whose cells in one set
//! all see its cells in the other, so at most one set holds it).
//!
//! The sets and their RCCs are collected once per position ([`Index`], cached in the
//! [`Ctx`]) and checked with cell bitsets; chains are searched depth-first under a budget,
//! each (set, linking digit, position) state once per start.

use super::step::{and_list, article, cell_list, digit_list, effect_text};
use super::{Candidate, CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Cell, Digits, Geometry};
use std::ops::ControlFlow;

/// Longest ALS-Chain searched in both directions and through overlapping sets (sets in
/// the chain): HoDoKu's all-steps search, which its regression library was made with.
const MAX_CHAIN: usize = 6;
/// Longest ALS-Chain searched at all (sets): HoDoKu's solving path follows up to 50
/// restricted commons, forward in its set order and between disjoint sets only.
const MAX_LONG_CHAIN: usize = 51;
/// HoDoKu's shortest ALS-Chain (three restricted commons).
const MIN_LONG_CHAIN: usize = 4;
/// Links tried by the forward search, over all starts.
const LONG_BUDGET: usize = 1_000_000;
/// Chain links tried from one start set per chain length: every start gets its share.
const START_BUDGET: usize = 10_000;
/// Chain links tried per chain length over all starts (keeps stuck positions cheap).
const CHAIN_BUDGET: usize = 1_500_000;
/// A search budget for this grid: the 9x9 figure, shrunk by the square of the cell ratio
/// on larger grids. A 16x16 holds ten times the sets of a 9x9 and a hundred times the
/// links, and its extreme puzzles have some twenty stuck positions where the search finds
/// nothing; at a budget per cell those searches were a third of generating one (measured,
/// CPU median over 20 extreme 16x16 puzzles: 1.53 -> 1.03 s with the fish budget below).
pub(super) fn per_grid(ctx: &Ctx, budget: usize) -> usize {
    let n = ctx.geo.cell_count().max(81);
    budget * 81 / n * 81 / n
}

/// Petal combinations tried per Death Blossom search.
const BLOSSOM_BUDGET: usize = 200_000;

/// One almost locked set.
pub struct Als {
    pub cells: CellSet,
    pub list: Vec<Cell>,
    pub digits: Digits,
    /// `with[d]`: its cells holding `d` (digits up to 16).
    with: [CellSet; 17],
    /// `buddy[d]`: cells seeing every cell of `with[d]` (empty when `d` is not in the set).
    buddy: [CellSet; 17],
}

impl Als {
    fn with(&self, d: u8) -> CellSet {
        self.with.get(usize::from(d)).copied().unwrap_or_default()
    }
    fn buddy(&self, d: u8) -> CellSet {
        self.buddy.get(usize::from(d)).copied().unwrap_or_default()
    }
}

/// Every ALS of a position and the RCCs between disjoint pairs.
pub struct Index {
    pub sets: Vec<Als>,
    /// The sets' cells, packed apart from the large `Als` records: the pair and chain
    /// loops test them for every link.
    pub cells: Vec<CellSet>,
    /// `links[i]`: `(j, rcc digits)` for every disjoint set `j` sharing an RCC with `i`.
    pub links: Vec<Vec<(usize, Digits)>>,
    /// The same for overlapping sets (an RCC never has a candidate in the overlap).
    pub overlapping: Vec<Vec<(usize, Digits)>>,
    /// `links[i]` then `overlapping[i]` of every set, flat with the target's cells inline:
    /// the chain search reads them in this order for every node.
    chain_links: Vec<ChainLink>,
    /// `chain_links[chain_start[i]..chain_start[i + 1]]` are set `i`'s.
    chain_start: Vec<usize>,
    /// `rank[i]`: set `i`'s place in HoDoKu's set order (house by house, each house's
    /// subsets depth first by cell), which its long chains follow forward only.
    rank: Vec<u32>,
    /// HoDoKu's restricted commons on its solving path: every pair of disjoint sets sharing
    /// an RCC, `(i, j, rcc)` with `i` before `j` in its set order, sorted by `i`'s place then
    /// `j`'s. ALS-XZ and ALS-XY-Wing take the first instance in this order, as HoDoKu does.
    forward: Vec<(usize, usize, Digits)>,
}

/// One link as the chain search reads it.
#[derive(Clone, Copy)]
struct ChainLink {
    next: usize,
    rcc: Digits,
    /// The target set's digits (most chain ends are rejected on these alone).
    digits: Digits,
}

impl Index {
    pub fn build(ctx: &Ctx) -> Index {
        let mut sets = Vec::new();
        // HoDoKu's order of each set: its house, then its cells' places in the house, first
        // place most significant, 5 bits each (a prefix sorts first).
        let mut order: Vec<u128> = Vec::new();
        // Candidates of each subset, from the subset without its lowest cell.
        let mut union: Vec<u16> = Vec::new();
        for (hi, &h) in ctx.t.complete.iter().enumerate() {
            let cells: Vec<Cell> = ctx.t.house_sets[h].and(ctx.empty).iter().collect();
            // Subsets of the house's empty cells (at most 2^16 for 16x16 grids).
            let n = cells.len().min(16);
            union.clear();
            union.resize(1 << n, 0);
            for bits in 1u32..(1u32 << n) {
                let low = bits.trailing_zeros() as usize;
                let u = union[(bits & (bits - 1)) as usize] | ctx.cand[cells[low]].0;
                union[bits as usize] = u;
                let size = bits.count_ones();
                if size as usize >= n || u.count_ones() != size + 1 {
                    continue;
                }
                let digits = Digits(u);
                let mut set = CellSet::EMPTY;
                let mut key = (hi as u128) << 80;
                let mut shift = 75u32;
                for (k, &c) in cells.iter().enumerate().take(n) {
                    if bits & (1 << k) != 0 {
                        set.insert(c);
                        key |= (k as u128 + 1) << shift;
                        shift = shift.saturating_sub(5);
                    }
                }
                // Once only: skip sets an earlier house already holds.
                if digits.len() != size + 1
                    || ctx.t.complete[..hi]
                        .iter()
                        .any(|&o| set.is_subset(ctx.t.house_sets[o]))
                {
                    continue;
                }
                let mut with = [CellSet::EMPTY; 17];
                let mut buddy = [CellSet::EMPTY; 17];
                for d in digits.iter().filter(|&d| d <= 16) {
                    let w = set.and(ctx.digit[usize::from(d)]);
                    let mut b = CellSet([u64::MAX; 4]);
                    for c in w.iter() {
                        b = b.and(ctx.t.peers[c]);
                    }
                    with[usize::from(d)] = w;
                    buddy[usize::from(d)] = b.minus(set);
                }
                order.push(key);
                sets.push(Als {
                    list: set.to_vec(),
                    cells: set,
                    digits,
                    with,
                    buddy,
                });
            }
        }
        let cells: Vec<CellSet> = sets.iter().map(|a| a.cells).collect();
        let digits: Vec<Digits> = sets.iter().map(|a| a.digits).collect();
        let (links, overlapping) = rcc_links(ctx, &sets, &cells);
        let mut chain_links = Vec::new();
        let mut chain_start = Vec::with_capacity(sets.len() + 1);
        for i in 0..sets.len() {
            chain_start.push(chain_links.len());
            for &(next, rcc) in links[i].iter().chain(&overlapping[i]) {
                chain_links.push(ChainLink {
                    next,
                    rcc,
                    digits: digits[next],
                });
            }
        }
        chain_start.push(chain_links.len());
        let mut by_order: Vec<usize> = (0..sets.len()).collect();
        by_order.sort_unstable_by_key(|&i| order[i]);
        let mut rank = vec![0u32; sets.len()];
        for (r, &i) in by_order.iter().enumerate() {
            rank[i] = u32::try_from(r).unwrap_or(u32::MAX);
        }
        let mut forward = Vec::new();
        for &i in &by_order {
            let start = forward.len();
            forward.extend(
                links[i]
                    .iter()
                    .filter(|&&(j, _)| rank[j] > rank[i])
                    .map(|&(j, rcc)| (i, j, rcc)),
            );
            forward[start..].sort_unstable_by_key(|&(_, j, _)| rank[j]);
        }
        Index {
            sets,
            cells,
            links,
            overlapping,
            chain_links,
            chain_start,
            rank,
            forward,
        }
    }
}

/// Per set, `(j, rcc digits)` of every set sharing a restricted common with it: disjoint
/// sets, then overlapping ones, each list by `j`.
///
/// A set `j` has an RCC `x` with `i` when all its cells holding `x` see all of `i`'s (and
/// lie outside `i`): its first such cell is then among the cells seeing `i`'s. So the sets
/// are filed by digit and first cell holding it, and each set looks only in the files of
/// those cells (testing every pair was a tenth of rating top1465).
#[allow(clippy::type_complexity)]
fn rcc_links(
    ctx: &Ctx,
    sets: &[Als],
    cells: &[CellSet],
) -> (Vec<Vec<(usize, Digits)>>, Vec<Vec<(usize, Digits)>>) {
    let slots = ctx.geo.cell_count() * 17;
    let slot = |c: Cell, d: u8| c * 17 + usize::from(d);
    // Sets by (first cell holding d, d), flat: `filed[start[k]..start[k + 1]]`.
    let mut start = vec![0u32; slots + 1];
    for a in sets {
        for d in a.digits.iter().filter(|&d| d <= 16) {
            if let Some(c) = a.with[usize::from(d)].first() {
                start[slot(c, d) + 1] += 1;
            }
        }
    }
    for k in 0..slots {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut filed = vec![0u32; start[slots] as usize];
    for (j, a) in sets.iter().enumerate() {
        for d in a.digits.iter().filter(|&d| d <= 16) {
            if let Some(c) = a.with[usize::from(d)].first() {
                let k = slot(c, d);
                filed[fill[k] as usize] = j as u32;
                fill[k] += 1;
            }
        }
    }
    // Pairs first, in order (`i`, then `j`), with whether they are disjoint, so that each
    // list is allocated once.
    let mut pairs: Vec<(u32, u32, Digits, bool)> = Vec::new();
    let mut rcc = vec![Digits::EMPTY; sets.len()];
    let mut touched: Vec<usize> = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for x in a.digits.iter().filter(|&d| d <= 16) {
            let buddy = a.buddy[usize::from(x)];
            for c in buddy.and(ctx.digit[usize::from(x)]).iter() {
                let k = slot(c, x);
                for &j in &filed[start[k] as usize..start[k + 1] as usize] {
                    let j = j as usize;
                    // `buddy` excludes the set's own cells, so a candidate in the overlap
                    // fails the check.
                    if j > i && sets[j].with[usize::from(x)].is_subset(buddy) {
                        if rcc[j].is_empty() {
                            touched.push(j);
                        }
                        rcc[j].insert(x);
                    }
                }
            }
        }
        touched.sort_unstable();
        for &j in &touched {
            let r = std::mem::replace(&mut rcc[j], Digits::EMPTY);
            let shared = cells[i].and(cells[j]);
            if shared != cells[i] && shared != cells[j] {
                pairs.push((i as u32, j as u32, r, shared.is_empty()));
            }
        }
        touched.clear();
    }
    let mut sizes = vec![(0usize, 0usize); sets.len()];
    for &(i, j, _, disjoint) in &pairs {
        for k in [i as usize, j as usize] {
            match disjoint {
                true => sizes[k].0 += 1,
                false => sizes[k].1 += 1,
            }
        }
    }
    let mut links: Vec<Vec<(usize, Digits)>> =
        sizes.iter().map(|s| Vec::with_capacity(s.0)).collect();
    let mut overlapping: Vec<Vec<(usize, Digits)>> =
        sizes.iter().map(|s| Vec::with_capacity(s.1)).collect();
    for &(i, j, r, disjoint) in &pairs {
        let l = if disjoint {
            &mut links
        } else {
            &mut overlapping
        };
        l[i as usize].push((j as usize, r));
        l[j as usize].push((i as usize, r));
    }
    (links, overlapping)
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if ctx.t.complete.is_empty() {
        return ControlFlow::Continue(());
    }
    let index = ctx.als_index();
    match info.id {
        "als-xz" => xz(ctx, &index, info, sink),
        "als-xy-wing" => xy_wing(ctx, &index, info, sink),
        "als-chain" => chain(ctx, &index, info, sink),
        "death-blossom" => blossom(ctx, &index, info, sink),
        _ => ControlFlow::Continue(()),
    }
}

/// Cells outside `a` and `b` seeing every `z` of both: `z` is true in one of them.
fn common_elims(ctx: &Ctx, a: &Als, b: &Als, z: u8) -> CellSet {
    a.buddy(z)
        .and(b.buddy(z))
        .and(ctx.digit[usize::from(z)])
        .minus(a.cells)
        .minus(b.cells)
}

fn to_cands(cells: CellSet, d: u8, out: &mut Vec<Candidate>) {
    out.extend(cells.iter().map(|c| Candidate::new(c, d)));
}

fn als_step(
    info: &'static TechniqueInfo,
    sets: &[&Als],
    rcc: Vec<u8>,
    elims: Vec<Candidate>,
    stem: Option<Cell>,
) -> Step {
    let mut step = Step::new(
        info,
        Pattern::Als {
            sets: sets.iter().map(|a| (a.list.clone(), a.digits)).collect(),
            rcc: rcc.clone(),
        },
    )
    .eliminate(elims);
    if let Some(s) = stem {
        step = step.cells(&[s], Role::Pivot);
    }
    for (k, a) in sets.iter().enumerate() {
        let role = if k % 2 == 0 {
            Role::ColorA
        } else {
            Role::ColorB
        };
        // Digit d is bit d - 1 (`1 << d` overflowed for 16 on 16x16 grids).
        let others = a.digits.without(
            rcc.iter()
                .fold(Digits::EMPTY, |m, &d| m | Digits::single(d)),
        );
        step = step.candidates(&a.list, others, role);
        for &x in &rcc {
            step = step.candidates(&a.with(x).to_vec(), Digits::single(x), Role::Pivot);
        }
    }
    step
}

/// Two sets joined by an RCC `x`: a digit `z` common to both is true in one of them.
/// Doubly linked (two RCCs): both sets are locked, so every digit goes from the cells
/// seeing all its candidates in its set (the RCCs from cells seeing them in both).
/// Pairs come in HoDoKu's order (its first instance is the one its rating path takes).
fn xz(ctx: &Ctx, index: &Index, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    for &(i, j, rcc) in &index.forward {
        let (a, b) = (&index.sets[i], &index.sets[j]);
        let mut elims = Vec::new();
        for z in (a.digits & b.digits).without(rcc).iter() {
            to_cands(common_elims(ctx, a, b, z), z, &mut elims);
        }
        if rcc.len() >= 2 {
            for x in rcc.iter() {
                to_cands(common_elims(ctx, a, b, x), x, &mut elims);
            }
            for s in [a, b] {
                let other = if std::ptr::eq(s, a) { b } else { a };
                for d in s.digits.without(rcc).iter() {
                    let t = s.buddy(d).and(ctx.digit[usize::from(d)]).minus(other.cells);
                    to_cands(t, d, &mut elims);
                }
            }
        }
        if !elims.is_empty() {
            sink(als_step(info, &[a, b], rcc.iter().collect(), elims, None))?;
        }
    }
    ControlFlow::Continue(())
}

/// A pivot set `c` joined to `a` by RCC `x` and to `b` by RCC `y` (`x != y`): a digit `z`
/// common to `a` and `b` is true in one of them.
///
/// First the instances of HoDoKu's solving path, in its order: pairs of its restricted
/// commons between disjoint sets, the later one after the earlier one, that meet in one set
/// (the pivot); `z` is none of either link's digits. Then the rest, where sets overlap (its
/// all-steps search, which its regression library was made with).
fn xy_wing(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let rcs = &index.forward;
    // The restricted commons each set takes part in, in list order.
    let mut of_set: Vec<Vec<usize>> = vec![Vec::new(); index.sets.len()];
    for (p, &(i, j, _)) in rcs.iter().enumerate() {
        of_set[i].push(p);
        of_set[j].push(p);
    }
    let mut later: Vec<usize> = Vec::new();
    for (p, &(i1, j1, r1)) in rcs.iter().enumerate() {
        later.clear();
        later.extend(of_set[i1].iter().chain(&of_set[j1]).filter(|&&q| q > p));
        later.sort_unstable();
        for &q in &later {
            let (i2, j2, r2) = rcs[q];
            if r1.len() == 1 && r2.len() == 1 && r1 == r2 {
                continue;
            }
            let (ci, ai, bi) = if i1 == i2 {
                (i1, j1, j2)
            } else if i1 == j2 {
                (i1, j1, i2)
            } else if j1 == i2 {
                (j1, i1, j2)
            } else {
                (j1, i1, i2)
            };
            if ai == bi || !index.cells[ai].and(index.cells[bi]).is_empty() {
                continue;
            }
            let (a, b, c) = (&index.sets[ai], &index.sets[bi], &index.sets[ci]);
            let mut elims = Vec::new();
            for z in (a.digits & b.digits).without(r1 | r2).iter() {
                to_cands(common_elims(ctx, a, b, z), z, &mut elims);
            }
            if !elims.is_empty() {
                let links: Vec<u8> = r1.iter().chain(r2.iter()).collect();
                sink(als_step(info, &[a, c, b], links, elims, None))?;
            }
        }
    }
    if ctx.cache.hodoku_path.get() {
        return ControlFlow::Continue(());
    }
    for (ci, disjoint) in index.links.iter().enumerate() {
        let c = &index.sets[ci];
        // Wings may overlap each other or the pivot (never on a linking digit).
        let links: Vec<(usize, Digits, bool)> = disjoint
            .iter()
            .map(|&(s, d)| (s, d, true))
            .chain(index.overlapping[ci].iter().map(|&(s, d)| (s, d, false)))
            .collect();
        for (p, &(ai, rx, dx)) in links.iter().enumerate() {
            for &(bi, ry, dy) in &links[p + 1..] {
                let (a, b) = (&index.sets[ai], &index.sets[bi]);
                let shared = a.cells.and(b.cells);
                if shared == a.cells || shared == b.cells || (dx && dy && shared.is_empty()) {
                    // Disjoint wings on disjoint links were HoDoKu's instances above.
                    continue;
                }
                for x in rx.iter() {
                    for y in ry.iter() {
                        if x == y {
                            continue;
                        }
                        let mut elims = Vec::new();
                        let zs =
                            (a.digits & b.digits).without(Digits::single(x) | Digits::single(y));
                        for z in zs.iter() {
                            to_cands(common_elims(ctx, a, b, z), z, &mut elims);
                        }
                        if !elims.is_empty() {
                            sink(als_step(info, &[a, c, b], vec![x, y], elims, None))?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// A chain of three or more sets (they may overlap), each joined to the next by an RCC
/// different from the previous one: if `z` is not in the first set, every set in turn is locked
/// and `z` is in the last one.
fn chain(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    sink: &mut Sink,
) -> ControlFlow<()> {
    if ctx.cache.hodoku_path.get() {
        // HoDoKu's solving path knows only the chains of its forward search.
        return long_chains(ctx, index, info, sink);
    }
    let mut path: Vec<(usize, u8)> = Vec::with_capacity(MAX_CHAIN);
    let digits = usize::from(ctx.geo.max_digit()).min(16) + 1;
    let mut seen = Seen {
        stamp: vec![0; index.sets.len() * digits * (MAX_CHAIN + 1)],
        gen: 0,
        digits,
    };
    // Iterative deepening: every shorter chain first, each length under its own budget.
    for len in 3..=MAX_CHAIN {
        let mut total = per_grid(ctx, CHAIN_BUDGET);
        for start in 0..index.sets.len() {
            let mut budget = START_BUDGET.min(total);
            let before = budget;
            let a = &index.sets[start];
            for x1 in a.digits.iter().filter(|&d| d <= 16) {
                // A state (set, digit in, position) reached twice from one start and first
                // link gives the same eliminations: explore it once.
                seen.next();
                path.clear();
                path.push((start, x1));
                chain_rec(
                    ctx,
                    index,
                    info,
                    &mut path,
                    len,
                    &mut budget,
                    &mut seen,
                    sink,
                )?;
            }
            total -= before - budget;
            if total == 0 {
                break;
            }
        }
    }
    long_chains(ctx, index, info, sink)
}

/// One chain state of the long search: a set entered by a digit, and how it was reached.
#[derive(Clone, Copy)]
struct Node {
    set: usize,
    /// The linking digit the set was entered by (the start's: its first link's digit).
    arc: u8,
    /// The digits the entering link locks out of this set (HoDoKu's "actual" RCs).
    locked: Digits,
    parent: usize,
    sets: usize,
}

/// Chains as HoDoKu's solving path finds them, of any length: each link to a later
/// disjoint set in HoDoKu's order. The eliminations depend only on the start, its digit,
/// the last set and the last link, so a breadth-first search per start and first digit
/// meets each (set, digit) state once, at its shortest. The short search's budgets per
/// start can stop before a six-set chain this finds (top1465 #404). Under a link budget,
/// reported when asked by name.
fn long_chains(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let n = index.sets.len();
    let digits = usize::from(ctx.geo.max_digit()).min(16) + 1;
    let mut stamp = vec![0u32; n * digits];
    let mut gen = 0u32;
    let mut queue: Vec<Node> = Vec::new();
    let mut budget = per_grid(ctx, LONG_BUDGET);
    for start in 0..n {
        let first = &index.sets[start];
        for x1 in first.digits.iter().filter(|&d| d <= 16) {
            gen += 1;
            queue.clear();
            queue.push(Node {
                set: start,
                arc: x1,
                locked: Digits::single(x1),
                parent: usize::MAX,
                sets: 1,
            });
            let mut head = 0;
            while let Some(&node) = queue.get(head) {
                head += 1;
                if node.sets >= MAX_LONG_CHAIN {
                    continue;
                }
                for &(next, rcc) in &index.links[node.set] {
                    if budget == 0 {
                        let searched = super::complex_fish::Searched {
                            done: start as u64,
                            total: n as u64,
                            unit: "start sets",
                        };
                        ctx.cache.searched.set(Some(searched));
                        return ControlFlow::Continue(());
                    }
                    budget -= 1;
                    if index.rank[next] <= index.rank[node.set] {
                        continue;
                    }
                    // The first link takes the start's digit; later ones every RCC but the
                    // digit they came in by, each a state of its own.
                    let locked = if node.sets == 1 {
                        rcc & Digits::single(x1)
                    } else {
                        rcc.without(Digits::single(node.arc))
                    };
                    for x in locked.iter() {
                        let key = next * digits + usize::from(x);
                        match stamp.get_mut(key) {
                            Some(s) if *s != gen => *s = gen,
                            _ => continue,
                        }
                        queue.push(Node {
                            set: next,
                            arc: x,
                            locked,
                            parent: head - 1,
                            sets: node.sets + 1,
                        });
                        if node.sets + 1 >= MIN_LONG_CHAIN {
                            long_chain_step(ctx, index, info, &queue, x1, sink)?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The eliminations of the chain ending at the queue's last node, sent as a step.
fn long_chain_step(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    queue: &[Node],
    x1: u8,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let Some(end) = queue.last() else {
        return ControlFlow::Continue(());
    };
    let mut path = vec![*end];
    let mut at = end.parent;
    while let Some(&node) = queue.get(at) {
        path.push(node);
        at = node.parent;
    }
    path.reverse();
    let (first, last) = (&index.sets[path[0].set], &index.sets[end.set]);
    let zs = (first.digits & last.digits).without(Digits::single(x1) | end.locked);
    let mut elims = Vec::new();
    for z in zs.iter() {
        to_cands(common_elims(ctx, first, last, z), z, &mut elims);
    }
    if elims.is_empty() {
        return ControlFlow::Continue(());
    }
    let sets: Vec<&Als> = path.iter().map(|node| &index.sets[node.set]).collect();
    let rccs: Vec<u8> = path[1..].iter().map(|node| node.arc).collect();
    sink(als_step(info, &sets, rccs, elims, None))
}

/// Chain states visited in the current search: `stamp[state] == gen`. Small stamps and
/// only the grid's digits keep the table in cache (it is probed at every link).
struct Seen {
    stamp: Vec<u16>,
    gen: u16,
    /// Digit slots per set (`max_digit + 1`).
    digits: usize,
}

impl Seen {
    /// A new search: a fresh stamp, clearing the table when the stamps wrap.
    fn next(&mut self) {
        if self.gen == u16::MAX {
            self.stamp.fill(0);
            self.gen = 0;
        }
        self.gen += 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn chain_rec(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    path: &mut Vec<(usize, u8)>,
    len: usize,
    budget: &mut usize,
    seen: &mut Seen,
    sink: &mut Sink,
) -> ControlFlow<()> {
    // The caller starts every path with one set; an empty one has nothing to extend.
    let Some(&(cur, last)) = path.last() else {
        return ControlFlow::Continue(());
    };
    // The first link uses the digit stored with the start set; later links must differ.
    let first_link = path.len() == 1;
    let first_digits = index.sets[path[0].0].digits;
    // Sets may overlap (as in HoDoKu): each link only needs its RCC outside the overlap
    // of its two sets, which the index guarantees.
    let candidates = &index.chain_links[index.chain_start[cur]..index.chain_start[cur + 1]];
    for &ChainLink { next, rcc, digits } in candidates {
        if *budget == 0 {
            return ControlFlow::Continue(());
        }
        *budget -= 1;
        // A set may come back to cells the chain already holds (HoDoKu's chains do, e.g.
        // ending on a set that contains the start cell), but not appear twice.
        if path.iter().any(|&(k, _)| k == next) {
            continue;
        }
        // The first link takes the start's digit; later ones any RCC but the last link's.
        let xs = if first_link {
            rcc & Digits::single(last)
        } else {
            rcc.without(Digits::single(last))
        };
        for x in xs.iter() {
            let key = (next * seen.digits + usize::from(x)) * (MAX_CHAIN + 1) + path.len();
            match seen.stamp.get_mut(key) {
                Some(s) if *s != seen.gen => *s = seen.gen,
                _ => continue,
            }
            path.push((next, x));
            if path.len() == len {
                let x1 = path[1].1;
                let zs = (first_digits & digits).without(Digits::single(x1) | Digits::single(x));
                let n = &index.sets[next];
                let first = &index.sets[path[0].0];
                let mut elims = Vec::new();
                for z in zs.iter() {
                    to_cands(common_elims(ctx, first, n, z), z, &mut elims);
                }
                if !elims.is_empty() {
                    let sets: Vec<&Als> = path.iter().map(|&(k, _)| &index.sets[k]).collect();
                    let rccs: Vec<u8> = path[1..].iter().map(|&(_, d)| d).collect();
                    sink(als_step(info, &sets, rccs, elims, None))?;
                }
            }
            if path.len() < len {
                chain_rec(ctx, index, info, path, len, budget, seen, sink)?;
            }
            path.pop();
        }
    }
    ControlFlow::Continue(())
}

/// A stem cell whose every candidate `d` has a petal: a set holding `d` only in cells
/// seeing the stem. Whichever digit the stem takes locks one petal, so a digit `z` in
/// every petal (not in the stem) is true in one of them.
fn blossom(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let mut budget = BLOSSOM_BUDGET;
    for stem in ctx.empty.iter() {
        let sd = ctx.cand[stem];
        if sd.len() < 2 || sd.len() > 4 {
            continue;
        }
        let peers = ctx.t.peers[stem];
        let digits: Vec<u8> = sd.iter().collect();
        let petals: Vec<Vec<usize>> = digits
            .iter()
            .map(|&d| {
                (0..index.sets.len())
                    .filter(|&k| {
                        let a = &index.sets[k];
                        a.digits.contains(d)
                            && !a.cells.contains(stem)
                            && a.with(d).is_subset(peers)
                            && !a.digits.without(sd).is_empty()
                    })
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let mut chosen = Vec::with_capacity(digits.len());
        petal_rec(
            ctx,
            index,
            info,
            stem,
            &digits,
            &petals,
            &mut chosen,
            CellSet::EMPTY,
            Digits(u16::MAX).without(sd),
            &mut budget,
            sink,
        )?;
        if budget == 0 {
            break;
        }
    }
    ControlFlow::Continue(())
}

#[allow(clippy::too_many_arguments)]
fn petal_rec(
    ctx: &Ctx,
    index: &Index,
    info: &'static TechniqueInfo,
    stem: Cell,
    digits: &[u8],
    petals: &[Vec<usize>],
    chosen: &mut Vec<usize>,
    used: CellSet,
    common: Digits,
    budget: &mut usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let k = chosen.len();
    if k == digits.len() {
        let mut elims = Vec::new();
        for z in common.iter() {
            let mut t = ctx.digit[usize::from(z)].minus(used);
            t.remove(stem);
            for &p in chosen.iter() {
                t = t.and(index.sets[p].buddy(z));
            }
            to_cands(t, z, &mut elims);
        }
        if !elims.is_empty() {
            let sets: Vec<&Als> = chosen.iter().map(|&p| &index.sets[p]).collect();
            return sink(als_step(info, &sets, digits.to_vec(), elims, Some(stem)));
        }
        return ControlFlow::Continue(());
    }
    for &p in &petals[k] {
        if *budget == 0 {
            return ControlFlow::Continue(());
        }
        *budget -= 1;
        let a = &index.sets[p];
        // Petals may overlap, and one set may be the petal of several stem digits (as in
        // HoDoKu): whichever digit the stem takes, its petal still holds `z`.
        let common2 = common & a.digits;
        if common2.is_empty() {
            continue;
        }
        chosen.push(p);
        petal_rec(
            ctx,
            index,
            info,
            stem,
            digits,
            petals,
            chosen,
            used.or(a.cells),
            common2,
            budget,
            sink,
        )?;
        chosen.pop();
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Als { sets, rcc } = &step.pattern else {
        return step.name().to_string();
    };
    let described: Vec<String> = sets
        .iter()
        .map(|(cells, digits)| format!("{} ({})", cell_list(g, cells), digit_list(*digits)))
        .collect();
    let rccs: Vec<String> = rcc.iter().map(|&d| digit_char(d).to_string()).collect();
    let stem = step
        .highlights
        .iter()
        .find_map(|h| match (h.role, h.target) {
            (Role::Pivot, super::Target::Cell(c)) => Some(c),
            _ => None,
        });
    match detail {
        Detail::Nudge => {
            let mut cells: Vec<Cell> = sets.iter().flat_map(|(c, _)| c.iter().copied()).collect();
            cells.extend(stem);
            cells.sort_unstable();
            cells.dedup();
            format!("Look at {}", cell_list(g, &cells))
        }
        Detail::Technique => format!(
            "There is {} {}: almost locked sets (n cells, n+1 digits) joined by digits that \
             only one of them can hold",
            article(step.name()),
            step.name()
        ),
        Detail::Full => {
            let why = match (stem, step.id()) {
                (Some(s), _) => format!(
                    "whichever of {} goes in the stem {}, the set holding it as well loses it \
                     and is locked",
                    and_list(&rccs),
                    g.cell_name(s)
                ),
                (None, "als-xz") if rcc.len() >= 2 => format!(
                    "{} can each be in only one of them, so both sets are locked",
                    and_list(&rccs)
                ),
                _ => format!(
                    "the linking digits {} can each be in only one of two neighbouring sets, so \
                     if the first set lacks a digit the last one holds it",
                    and_list(&rccs)
                ),
            };
            format!(
                "{}: almost locked sets {}; {}: {}",
                step.name(),
                and_list(&described),
                why,
                effect_text(g, step)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{elims, reglib};
    use super::super::{find_all, Detail};

    /// Solutions of top1465 puzzles 365 and 404 (1-based lines).
    const TOP365: &str =
        "965381724173426985842597361214679853639258417758143296486935172391762548527814639";
    const TOP404: &str =
        "852476391137298465946351278469715823371829546285634917528967134794183652613542789";

    // Positions from HoDoKu's regression library (one instance of the technique each).

    #[test]
    fn als_xz_removes_the_common_digit() {
        let g = reglib(
            ".24.6.+7..5.74.9.1.....+7......+5.9+4+87+14+7.+6.85.3..8..7.6.+7......46.+46..3.+57.5.7+4+61..",
            "314 819 225 134 237 937 238 938 239 839 269 372 972 973 274 291 891 999",
        );
        assert!(elims(&g, "als-xz").contains(&"327".to_string()));
        let step = find_all(&g, "als-xz").into_iter().next().unwrap();
        let text = step.explain(g.geometry(), Detail::Full);
        assert!(text.starts_with("ALS-XZ: almost locked sets"), "{text}");
        assert!(step
            .explain(g.geometry(), Detail::Nudge)
            .starts_with("Look at r"));
    }

    #[test]
    fn doubly_linked_als_xz_locks_both_sets() {
        let g = reglib(
            "...2..8.4...9..3.11........5..3.6.1.....4.........8....846351.....7...5..25......",
            "711 621 721 532 534 535 637 639 351 651 751 951 156 258 658 758 958 361 661 761 961 165 565 268 668 768 968 185 186 287 289 194 698 798 998",
        );
        assert!(elims(&g, "als-xz")
            .contains(&"221 243 253 263 359 369 398 462 467 853 859".to_string()));
    }

    #[test]
    fn als_xy_wing_joins_two_sets_through_a_pivot() {
        let g = reglib(
            "9....7.68+72....9+43..4....+7+52+7....4+8+9.6+9+78...28.39..71+6.....5.973.76....1+5...+7...+4",
            "114 514 115 515 123 523 134 135 136 356 173 277 287 193 297",
        );
        assert!(elims(&g, "als-xy-wing").contains(&"824".to_string()));
    }

    #[test]
    fn als_chain_removes_the_digit_of_both_ends() {
        let g = reglib(
            "..+1.3+7......2+1+8.577.....81.1.9+3+65....6..+74.3.....82.....87....44.....+78..37+8+415..",
            "212 412 914 932 533 934 939 277 677 977 582 984 289 689 989",
        );
        assert!(elims(&g, "als-chain").contains(&"611 911 912 927".to_string()));
    }

    #[test]
    fn death_blossom_petals_share_a_digit() {
        let g = reglib(
            "8+7+14..6..5+42...7..+93+6+8+57+42+1.28.7.+3.....3.6+2....+3+21.54..1.7..+93.+3.9...8+72.+87..3+1.4",
            "915 919 924 929 641 946 948 958 959 669 475 675 476 584 694",
        );
        assert!(elims(&g, "death-blossom").contains(&"966".to_string()));
    }

    #[test]
    fn als_chain_sets_may_overlap() {
        // The first set r3c4 r6c4 r8c4 r9c4 and the last r6c4 r6c7 share r6c4.
        let g = reglib(
            "...3.721....2.......9.6.38.8.6..1.....5+8.+6.2..9.....68.4357+8.+9.7+5....8..+9.....5..",
            "421 622 727 545 748 749 949 759",
        );
        assert!(elims(&g, "als-chain").contains(&"763".to_string()));
    }

    #[test]
    fn death_blossom_set_may_serve_two_stem_digits() {
        // Stem r2c1 (1, 5, 9): r3c1 r3c2 r3c4 is the petal of both 5 and 9.
        let g = reglib(
            "2.......3.38........7.3.182+32.9.+15....57.23...+71+3+56+24.789+51+36+2+4..+2...93.4.+3...+8.5",
            "612 415 815 618 718 621 624 425 625 725 728 729 632 659 684 485 885 786",
        );
        assert!(elims(&g, "death-blossom").contains(&"436".to_string()));
    }

    /// top1465 #1 on its rating path: HoDoKu's five-set chain r1c7 - r4c7 - r147c2 -
    /// r148c4 - r14c7 ends on a set holding the first two sets' cells; a search that
    /// skipped sets inside the chain's cells missed it.
    #[test]
    fn als_chain_may_end_on_cells_it_already_holds() {
        let g = reglib(
            "4...3.....+5.6..8..........1....5..9..8....6...7.2........1+927..5+13...+94+29+2+7.+4.+1..",
            "913 514 516 916 518 923 126 726 228 329 729 632 933 734 834 436 936 237 537 538 643 \
             444 446 447 349 449 153 253 453 354 754 459 163 463 663 466 678 878 679 879 894 696 \
             896 398 598 399 599",
        );
        let all = elims(&g, "als-chain").join(" ");
        assert!(all.contains("519") && all.contains("567"), "{all}");
    }

    /// Every ALS-Chain step of a position, each checked against the puzzle's solution.
    fn sound_chains(g: &crate::puzzle::Grid, solution: &str) -> Vec<super::Step> {
        let sol = solution.as_bytes();
        let steps = find_all(g, "als-chain");
        for s in &steps {
            for e in &s.eliminations {
                assert_ne!(sol[e.cell] - b'0', e.digit, "unsound: {e:?}");
            }
        }
        steps
    }

    fn set_count(step: &super::Step) -> usize {
        match &step.pattern {
            super::super::Pattern::Als { sets, .. } => sets.len(),
            _ => 0,
        }
    }

    /// top1465 #365 on HoDoKu's rating path: HoDoKu's eight-set chain 2- r7c9 -6- r9c1279
    /// -7- r9c3 -6- r278c3 -4- r2568c4 -5- r78c3,r8c1 -6- r89c2,r9c13 -5- r79c9,r9c7 -2
    /// => r568c9,r78c7<>2, which a search stopping at six sets cannot find.
    #[test]
    fn als_chain_of_eight_sets() {
        let g = reglib(
            "9..3.+1+7+241...2...5..2.+9.3.12..6.9..36.9.5.............48.9...7........4....81+4.+3.",
            "613 622 623 723 823 726 531 532 636 836 442 143 147 547 848 152 752 454 256 756 157 \
             561 362 462 163 464 865 167 467 567 867 868 869 573 781 182 382 582 682 782 583 783 \
             386 592 692 792 593 297",
        );
        let steps = sound_chains(&g, TOP365);
        // r7c7 (cell 60) loses 2 only through a chain of seven or more sets.
        let long = steps.iter().any(|s| {
            set_count(s) >= 7 && s.eliminations.iter().any(|e| e.cell == 60 && e.digit == 2)
        });
        assert!(long, "{:?}", elims(&g, "als-chain"));
    }

    /// top1465 #404 on HoDoKu's rating path: 1- r1c9 -3- r4c9 -4- r7c379 -8- r159c2 -5-
    /// r125c8 -4- r14c9 -1 => r1c7,r7c9<>1.
    #[test]
    fn als_chain_of_hodoku_top1465_404() {
        let g = reglib(
            "8.+24.6....3.2..4..+94+6+35+1+278.69..5+82.3...+2....+2..6...1752..+6..3..+9...36.+2+6.+3..2..9",
            "112 517 917 519 926 528 129 445 552 852 553 853 456 558 958 459 463 865 965 866 567 \
             473 485 488",
        );
        sound_chains(&g, TOP404);
        let all = elims(&g, "als-chain");
        assert!(all.contains(&"117 179".to_string()), "{all:?}");
    }

    /// top1465 #1 on the rating path: HoDoKu 2.2 takes two ALS-XY-Wings (its first in its
    /// set order, sets not overlapping) and then a forcing chain, r5c4<>3. An XY-Wing through
    /// overlapping sets, which its solving path never sees, must not come in between.
    #[test]
    fn rating_path_takes_hodokus_als_xy_wings_and_no_other() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let p =
            crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Standard, "t", 1)
                .unwrap()
                .unwrap();
        let (steps, _) = crate::solver::rate::solve_path(&p);
        let g = p.geometry();
        let shown = |s: &super::Step| {
            let e: Vec<String> = s
                .eliminations
                .iter()
                .map(|c| format!("{}<>{}", g.cell_name(c.cell), c.digit))
                .collect();
            format!("{} {}", s.id(), e.join(" "))
        };
        let first = steps.iter().position(|s| s.id() == "als-xy-wing").unwrap();
        let got: Vec<String> = steps[first..first + 3].iter().map(shown).collect();
        assert_eq!(got[0], "als-xy-wing r3c7<>2", "{got:?}");
        assert_eq!(got[1], "als-xy-wing r2c9<>7", "{got:?}");
        assert!(got[2].ends_with("r5c4<>3"), "{got:?}");
        assert!(!got[2].starts_with("als"), "{got:?}");
    }
}
