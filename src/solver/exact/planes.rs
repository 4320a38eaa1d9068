//! Bit-plane exact solver for geometries of up to 256 cells (every variant).
//!
//! One mask per digit holds the cells where that digit can still go, and every house is a
//! mask too, so singles, run windows and cage combinations are a few word operations per
//! house instead of a walk over its cells. Same rules and search as the reference solver in
//! [`super`], which it is tested against. One body, instantiated by a macro for 64-bit masks
//! (honeycomb, 4x4, 6x6: half the work per operation), 128-bit masks (9x9 layouts) and
//! 256-bit masks (16x16, where it is several times as fast as the reference solver).

use super::Solutions;
use crate::geometry::{Digits, Geometry};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// The largest geometry this solver takes.
pub const MAX_CELLS: usize = 256;

/// What the solver needs of a cell mask: the bitwise operators, plus these.
trait Bits:
    Copy
    + Default
    + PartialEq
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    const ZERO: Self;
    /// The mask of cell `c` alone.
    fn bit(c: usize) -> Self;
    /// Cells `0..n`.
    fn low(n: usize) -> Self;
    fn is_zero(self) -> bool;
    fn has(self, c: usize) -> bool;
    /// The lowest cell (the width when empty).
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    fn ones(self) -> u32;
    /// Two cells or more.
    fn several(self) -> bool;
}

macro_rules! prim_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: $t = 0;
            #[inline]
            fn bit(c: usize) -> $t {
                1 << c
            }
            #[inline]
            fn low(n: usize) -> $t {
                if n >= <$t>::BITS as usize {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline]
            fn has(self, c: usize) -> bool {
                self & (1 << c) != 0
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn several(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
        }
    };
}

prim_bits!(u64);
prim_bits!(u128);

/// 256 cells as four words (16x16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Wide([u64; 4]);

impl BitAnd for Wide {
    type Output = Wide;
    #[inline]
    fn bitand(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl BitAndAssign for Wide {
    #[inline]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline]
    fn bitor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl BitOrAssign for Wide {
    #[inline]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

impl BitXor for Wide {
    type Output = Wide;
    #[inline]
    fn bitxor(self, o: Wide) -> Wide {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline]
    fn not(self) -> Wide {
        Wide(self.0.map(|w| !w))
    }
}

impl Bits for Wide {
    const ZERO: Wide = Wide([0; 4]);
    #[inline]
    fn bit(c: usize) -> Wide {
        let mut w = Wide::ZERO;
        w.0[(c >> 6) & 3] = 1 << (c & 63);
        w
    }
    fn low(n: usize) -> Wide {
        Wide(std::array::from_fn(|i| u64::low(n.saturating_sub(64 * i))))
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &w| a | w) == 0
    }
    #[inline]
    fn has(self, c: usize) -> bool {
        self.0[(c >> 6) & 3] & (1 << (c & 63)) != 0
    }
    #[inline]
    fn lowest(self) -> usize {
        match self.0.iter().position(|&w| w != 0) {
            Some(i) => 64 * i + self.0[i].trailing_zeros() as usize,
            None => 256,
        }
    }
    #[inline]
    fn without_lowest(mut self) -> Wide {
        if let Some(w) = self.0.iter_mut().find(|w| **w != 0) {
            *w &= *w - 1;
        }
        self
    }
    #[inline]
    fn ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Without branches: this is the hidden-single test of every house and digit.
    #[inline]
    fn several(self) -> bool {
        let w = self.0;
        let within = w.iter().fold(0, |a, &x| a | (x & x.wrapping_sub(1)));
        let words = w.iter().map(|&x| u32::from(x != 0)).sum::<u32>();
        within != 0 || words > 1
    }
}

/// The solver over one mask width: `$mask` holds one bit per cell (`u64` for honeycomb, 4x4
/// and 6x6, half the work per operation; `u128` for 9x9; [`Wide`] for 16x16).
macro_rules! bit_planes {
    ($name:ident, $mask:ty) => {
        mod $name {
            use super::super::Solutions;
            use super::Bits;
            use crate::geometry::{Digits, Geometry};
            use crate::solver::rules::digit_sets;
            type Mask = $mask;

            enum Kind {
                Complete,
                /// Feasible digit sets: consecutive windows, or cage combinations.
                Sets(Vec<u16>),
            }

            struct House {
                mask: Mask,
                kind: Kind,
            }

            struct Plan {
                digits: usize,
                all_digits: u16,
                all_cells: Mask,
                peers: Vec<Mask>,
                houses: Vec<House>,
            }

            #[derive(Clone, Default)]
            struct State {
                p: [Mask; 16],
                solved: Mask,
            }

            /// Counts solutions of a candidate grid of at most `Mask::BITS` cells; None
            /// when the search takes more than `max_nodes` nodes.
            pub(super) fn solve(
                geometry: &Geometry,
                candidates: &[Digits],
                limit: usize,
                max_nodes: usize,
            ) -> Option<Solutions> {
                let plan = Plan::new(geometry);
                let mut state = State::default();
                for (c, cands) in candidates.iter().enumerate() {
                    if cands.0 & !plan.all_digits != 0 {
                        return Some(Solutions {
                            count: 0,
                            first: None,
                        });
                    }
                    for d in cands.iter() {
                        state.p[usize::from(d) - 1] |= Mask::bit(c);
                    }
                }
                let mut search = Search {
                    plan: &plan,
                    limit: limit.max(1),
                    count: 0,
                    first: None,
                    nodes: max_nodes,
                };
                search.run(state, plan.all_cells);
                (search.nodes > 0).then_some(Solutions {
                    count: search.count,
                    first: search.first,
                })
            }

            fn bits(mut m: Mask) -> impl Iterator<Item = usize> {
                std::iter::from_fn(move || {
                    (!m.is_zero()).then(|| {
                        let i = m.lowest();
                        m = m.without_lowest();
                        i
                    })
                })
            }

            impl Plan {
                fn new(g: &Geometry) -> Plan {
                    let digits = usize::from(g.max_digit());
                    let houses = g
                        .houses()
                        .iter()
                        .map(|h| {
                            let kind = digit_sets(h.rule, h.cells.len(), g.max_digit())
                                .map_or(Kind::Complete, Kind::Sets);
                            House {
                                mask: h.cells.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c)),
                                kind,
                            }
                        })
                        .collect();
                    Plan {
                        digits,
                        all_digits: g.all_digits().0,
                        all_cells: Mask::low(g.cell_count()),
                        peers: g
                            .cells()
                            .map(|c| g.peers(c).iter().fold(Mask::ZERO, |m, &p| m | Mask::bit(p)))
                            .collect(),
                        houses,
                    }
                }

                /// Digits with a place in the house, and the feasible sets' union and intersection.
                fn sets_of(&self, s: &State, house: &House, sets: &[u16]) -> (u16, u16, u16) {
                    let mut x = [Mask::ZERO; 16];
                    let mut present = 0u16;
                    for (d, (xd, &pd)) in x.iter_mut().zip(&s.p).take(self.digits).enumerate() {
                        *xd = pd & house.mask;
                        if !xd.is_zero() {
                            present |= 1 << d;
                        }
                    }
                    let (mut allowed, mut must) = (0u16, u16::MAX);
                    for &set in sets {
                        if set & !present != 0 {
                            continue;
                        }
                        let mut cover = Mask::ZERO;
                        let mut rest = set;
                        while rest != 0 {
                            cover |= x[rest.trailing_zeros() as usize];
                            rest &= rest - 1;
                        }
                        if cover == house.mask {
                            allowed |= set;
                            must &= set;
                        }
                    }
                    (present, allowed, must)
                }

                /// Singles and house rules to a fixpoint, starting from the cells in `dirty` (those
                /// changed since the last fixpoint); false on contradiction.
                fn propagate(&self, s: &mut State, mut dirty: Mask) -> bool {
                    loop {
                        let (mut ones, mut twos) = (Mask::ZERO, Mask::ZERO);
                        for d in 0..self.digits {
                            twos |= ones & s.p[d];
                            ones |= s.p[d];
                        }
                        if ones != self.all_cells {
                            return false;
                        }
                        let singles = ones & !twos & !s.solved;
                        if !singles.is_zero() {
                            for c in bits(singles) {
                                let bit = Mask::bit(c);
                                if let Some(d) =
                                    (0..self.digits).find(|&d| !(s.p[d] & bit).is_zero())
                                {
                                    dirty |= s.p[d] & self.peers[c];
                                    s.p[d] &= !self.peers[c];
                                }
                                s.solved |= bit;
                            }
                            continue;
                        }
                        if dirty.is_zero() {
                            return true;
                        }
                        let before = s.p;
                        for house in &self.houses {
                            if !(house.mask & dirty).is_zero() && !self.house_rule(s, house) {
                                return false;
                            }
                        }
                        dirty = before
                            .iter()
                            .zip(&s.p)
                            .fold(Mask::ZERO, |a, (&b, &p)| a | (b ^ p));
                    }
                }

                fn house_rule(&self, s: &mut State, house: &House) -> bool {
                    let must = match &house.kind {
                        Kind::Complete => self.all_digits,
                        Kind::Sets(sets) => {
                            let (present, allowed, must) = self.sets_of(s, house, sets);
                            if allowed == 0 {
                                return false;
                            }
                            let mut gone = present & !allowed;
                            while gone != 0 {
                                let d = gone.trailing_zeros() as usize;
                                s.p[d] &= !house.mask;
                                gone &= gone - 1;
                            }
                            must
                        }
                    };
                    let mut rest = must;
                    while rest != 0 {
                        let d = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let x = s.p[d] & house.mask;
                        if x.is_zero() {
                            return false;
                        }
                        if !x.several() && (x & s.solved).is_zero() {
                            // Hidden single: the only place for a digit the house needs.
                            for e in 0..self.digits {
                                if e != d && !(s.p[e] & x).is_zero() {
                                    s.p[e] &= !x;
                                }
                            }
                        }
                    }
                    true
                }

                /// A digit the house must hold with fewer than `limit` open places, and those places.
                fn digit_branch(&self, s: &State, limit: u32) -> Option<(usize, Mask)> {
                    let mut best = None;
                    let mut best_len = limit;
                    for house in &self.houses {
                        let must = match &house.kind {
                            Kind::Complete => self.all_digits,
                            Kind::Sets(sets) => self.sets_of(s, house, sets).2,
                        };
                        let mut rest = must;
                        while rest != 0 {
                            let d = rest.trailing_zeros() as usize;
                            rest &= rest - 1;
                            let places = s.p[d] & house.mask;
                            if !(places & s.solved).is_zero() {
                                continue;
                            }
                            let k = places.ones();
                            if k >= 2 && k < best_len {
                                best_len = k;
                                best = Some((d, places));
                                if k == 2 {
                                    return best;
                                }
                            }
                        }
                    }
                    best
                }
            }

            struct Search<'a> {
                plan: &'a Plan,
                limit: usize,
                count: usize,
                first: Option<Vec<u8>>,
                /// Nodes left; at 0 the search gives up.
                nodes: usize,
            }

            impl Search<'_> {
                fn run(&mut self, mut s: State, dirty: Mask) {
                    if self.nodes == 0 {
                        return;
                    }
                    self.nodes -= 1;
                    if !self.plan.propagate(&mut s, dirty) {
                        return;
                    }
                    let open = self.plan.all_cells & !s.solved;
                    if open.is_zero() {
                        self.count += 1;
                        if self.first.is_none() {
                            let n = self.plan.peers.len();
                            self.first = Some(
                                (0..n)
                                    .map(|c| {
                                        (0..self.plan.digits)
                                            .find(|&d| s.p[d].has(c))
                                            .map_or(0, |d| d as u8 + 1)
                                    })
                                    .collect(),
                            );
                        }
                        return;
                    }
                    // The open cell with the fewest candidates (bit-sliced counting finds bivalue cells).
                    let (mut c1, mut c2, mut c3) = (Mask::ZERO, Mask::ZERO, Mask::ZERO);
                    for d in 0..self.plan.digits {
                        c3 |= c2 & s.p[d];
                        c2 |= c1 & s.p[d];
                        c1 |= s.p[d];
                    }
                    let bivalue = c2 & !c3 & open;
                    let (cell, k) = if !bivalue.is_zero() {
                        // Among bivalue cells, the one with most open peers constrains the most.
                        let best = bits(bivalue)
                            .max_by_key(|&c| (self.plan.peers[c] & open).ones())
                            .unwrap_or(bivalue.lowest());
                        (best, 2)
                    } else {
                        bits(open)
                            .map(|c| {
                                let k = (0..self.plan.digits).filter(|&d| s.p[d].has(c)).count();
                                (c, k as u32)
                            })
                            .min_by_key(|&(_, k)| k)
                            .unwrap_or((open.lowest(), 2))
                    };
                    // A digit with fewer places in a house than the cell has candidates branches narrower.
                    let choices: Vec<(usize, usize)> = match self.plan.digit_branch(&s, k + 1) {
                        Some((d, places)) => bits(places).map(|c| (c, d)).collect(),
                        None => (0..self.plan.digits)
                            .filter(|&d| s.p[d].has(cell))
                            .map(|d| (cell, d))
                            .collect(),
                    };
                    for (i, &(c, d)) in choices.iter().enumerate() {
                        if self.count >= self.limit || self.nodes == 0 {
                            return;
                        }
                        let mut next = if i + 1 == choices.len() {
                            std::mem::take(&mut s)
                        } else {
                            s.clone()
                        };
                        for e in 0..self.plan.digits {
                            if e != d {
                                next.p[e] &= !Mask::bit(c);
                            }
                        }
                        self.run(next, Mask::bit(c));
                    }
                }
            }
        }
    };
}

bit_planes!(narrow, u64);
bit_planes!(wide, u128);
bit_planes!(huge, super::Wide);

/// Search nodes a 16x16 grid gets here before it goes to the cell-list solver: singles alone
/// branch blindly on a few near-minimal 16x16 grids, where the cell-list solver's matching
/// prunes (measured: one generator check took 2 s here), while the generator's usual checks
/// need far fewer nodes.
const HUGE_NODES: usize = 2_000;

/// Counts solutions of a candidate grid; None when the geometry is too large for planes,
/// or a 16x16 search ran past [`HUGE_NODES`] (the caller's other solver takes it then).
pub fn solve(geometry: &Geometry, candidates: &[Digits], limit: usize) -> Option<Solutions> {
    let n = geometry.cell_count();
    if candidates.len() != n {
        return None;
    }
    match n {
        0..=64 => narrow::solve(geometry, candidates, limit, usize::MAX),
        65..=128 => wide::solve(geometry, candidates, limit, usize::MAX),
        129..=MAX_CELLS => huge::solve(geometry, candidates, limit, HUGE_NODES),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;
    use crate::puzzle::{Puzzle, Variant};

    fn sixteen(text: &str) -> Vec<Puzzle> {
        text.lines()
            .enumerate()
            .filter_map(|(i, l)| parse_line(l.as_bytes(), Variant::Standard, "t", i + 1).ok()?)
            .collect()
    }

    /// Planes and the reference cell-list solver agree on a candidate grid: the same count up
    /// to 2, the same solution when it is unique, a valid one otherwise.
    fn agree(p: &Puzzle, what: &str) {
        let all = p.geometry().all_digits();
        let cands: Vec<Digits> = p
            .givens
            .iter()
            .map(|&d| if d == 0 { all } else { Digits::single(d) })
            .collect();
        let fast = huge::solve(p.geometry(), &cands, 2, usize::MAX).expect("no node limit");
        let reference = super::super::reference_from_givens(p.geometry(), &p.givens, 2);
        assert_eq!(fast.count, reference.count, "{what}: count");
        match fast.count {
            0 => assert!(fast.first.is_none(), "{what}"),
            1 => assert_eq!(fast.first, reference.first, "{what}: solution"),
            _ => {
                let s = fast.first.as_ref().expect("a solution when the count is 2");
                assert!(
                    p.check_solution(s).is_ok(),
                    "{what}: {:?}",
                    p.check_solution(s)
                );
            }
        }
    }

    #[test]
    fn wide_masks_keep_every_cell_apart() {
        let all = Wide::low(256);
        assert_eq!(all.ones(), 256);
        assert_eq!(Wide::low(130).ones(), 130);
        for c in [0, 63, 64, 127, 128, 200, 255] {
            let b = Wide::bit(c);
            assert!(b.has(c) && !b.has((c + 1) % 256));
            assert_eq!(b.lowest(), c);
            assert!(b.without_lowest().is_zero());
            assert!(!b.several() && (b | Wide::bit(255 - c)).several());
            assert_eq!((all & !b).ones(), 255);
            let rest = if c == 255 { Wide::ZERO } else { Wide::bit(255) };
            assert_eq!((b | Wide::bit(255)).without_lowest(), rest);
        }
        assert_eq!(Wide::ZERO.lowest(), 256);
    }

    /// The shipped 16x16 puzzles, then the same grids with clues taken away down to
    /// several solutions, or with one clue changed (often no solution).
    #[test]
    fn sixteen_by_sixteen_agrees_with_the_reference() {
        let mut puzzles = sixteen(include_str!("../../../puzzles/standard-16x16-hard.txt"));
        puzzles.truncate(4);
        puzzles.extend(
            sixteen(include_str!("../../../puzzles/standard-16x16-easy.txt"))
                .into_iter()
                .take(2),
        );
        assert!(puzzles.len() >= 4);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state >> 33
        };
        for (i, p) in puzzles.iter().enumerate() {
            agree(p, &format!("puzzle {i}"));
            for round in 0..4 {
                let mut q = p.clone();
                let given: Vec<usize> = (0..256).filter(|&c| q.givens[c] != 0).collect();
                match round {
                    // One clue changed: usually a contradiction somewhere down the search.
                    0 => {
                        let c = given[next() as usize % given.len()];
                        q.givens[c] = q.givens[c] % 16 + 1;
                    }
                    // A few clues fewer: one or several solutions.
                    _ => {
                        for _ in 0..round * 3 {
                            q.givens[given[next() as usize % given.len()]] = 0;
                        }
                    }
                }
                agree(&q, &format!("puzzle {i} round {round}"));
            }
        }
    }
}
