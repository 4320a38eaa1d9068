//! Bit-plane exact solver for geometries of up to 128 cells (every variant but 16x16).
//!
//! One mask per digit holds the cells where that digit can still go, and every house is a
//! mask too, so singles, run windows and cage combinations are a few word operations per
//! house instead of a walk over its cells. Same rules and search as the reference solver in
//! [`super`], which it is tested against. One body, instantiated by a macro for 64-bit masks
//! (honeycomb, 4x4, 6x6: half the work per operation) and 128-bit masks (9x9).

use super::Solutions;
use crate::geometry::{Digits, Geometry};

/// The largest geometry this solver takes.
pub const MAX_CELLS: usize = 128;

/// The solver over one mask width: `$mask` holds one bit per cell (`u64` for honeycomb, 4x4
/// and 6x6, half the work per operation; `u128` for 9x9).
macro_rules! bit_planes {
    ($name:ident, $mask:ty) => {
        mod $name {
            use super::super::Solutions;
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

            /// Counts solutions of a candidate grid of at most `Mask::BITS` cells.
            pub(super) fn solve(
                geometry: &Geometry,
                candidates: &[Digits],
                limit: usize,
            ) -> Solutions {
                let plan = Plan::new(geometry);
                let mut state = State::default();
                for (c, cands) in candidates.iter().enumerate() {
                    if cands.0 & !plan.all_digits != 0 {
                        return Solutions {
                            count: 0,
                            first: None,
                        };
                    }
                    for d in cands.iter() {
                        state.p[usize::from(d) - 1] |= 1 << c;
                    }
                }
                let mut search = Search {
                    plan: &plan,
                    limit: limit.max(1),
                    count: 0,
                    first: None,
                };
                search.run(state, plan.all_cells);
                Solutions {
                    count: search.count,
                    first: search.first,
                }
            }

            fn bits(mut m: Mask) -> impl Iterator<Item = usize> {
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
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
                                mask: h.cells.iter().fold(0, |m, &c| m | 1 << c),
                                kind,
                            }
                        })
                        .collect();
                    Plan {
                        digits,
                        all_digits: g.all_digits().0,
                        all_cells: if g.cell_count() == Mask::BITS as usize {
                            Mask::MAX
                        } else {
                            (1 << g.cell_count()) - 1
                        },
                        peers: g
                            .cells()
                            .map(|c| g.peers(c).iter().fold(0, |m, &p| m | 1 << p))
                            .collect(),
                        houses,
                    }
                }

                /// Digits with a place in the house, and the feasible sets' union and intersection.
                fn sets_of(&self, s: &State, house: &House, sets: &[u16]) -> (u16, u16, u16) {
                    let mut x = [0 as Mask; 16];
                    let mut present = 0u16;
                    for (d, (xd, &pd)) in x.iter_mut().zip(&s.p).take(self.digits).enumerate() {
                        *xd = pd & house.mask;
                        if *xd != 0 {
                            present |= 1 << d;
                        }
                    }
                    let (mut allowed, mut must) = (0u16, u16::MAX);
                    for &set in sets {
                        if set & !present != 0 {
                            continue;
                        }
                        let mut cover = 0;
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
                        let (mut ones, mut twos) = (0 as Mask, 0 as Mask);
                        for d in 0..self.digits {
                            twos |= ones & s.p[d];
                            ones |= s.p[d];
                        }
                        if ones != self.all_cells {
                            return false;
                        }
                        let singles = ones & !twos & !s.solved;
                        if singles != 0 {
                            for c in bits(singles) {
                                let bit = 1 << c;
                                if let Some(d) = (0..self.digits).find(|&d| s.p[d] & bit != 0) {
                                    dirty |= s.p[d] & self.peers[c];
                                    s.p[d] &= !self.peers[c];
                                }
                                s.solved |= bit;
                            }
                            continue;
                        }
                        if dirty == 0 {
                            return true;
                        }
                        let before = s.p;
                        for house in &self.houses {
                            if house.mask & dirty != 0 && !self.house_rule(s, house) {
                                return false;
                            }
                        }
                        dirty = before.iter().zip(&s.p).fold(0, |a, (&b, &p)| a | (b ^ p));
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
                                s.p[gone.trailing_zeros() as usize] &= !house.mask;
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
                        if x == 0 {
                            return false;
                        }
                        if x & (x - 1) == 0 && x & s.solved == 0 {
                            // Hidden single: the only place for a digit the house needs.
                            for e in 0..self.digits {
                                if e != d && s.p[e] & x != 0 {
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
                            if places & s.solved != 0 {
                                continue;
                            }
                            let k = places.count_ones();
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
            }

            impl Search<'_> {
                fn run(&mut self, mut s: State, dirty: Mask) {
                    if !self.plan.propagate(&mut s, dirty) {
                        return;
                    }
                    let open = self.plan.all_cells & !s.solved;
                    if open == 0 {
                        self.count += 1;
                        if self.first.is_none() {
                            let n = self.plan.peers.len();
                            self.first = Some(
                                (0..n)
                                    .map(|c| {
                                        (0..self.plan.digits)
                                            .find(|&d| s.p[d] & (1 << c) != 0)
                                            .map_or(0, |d| d as u8 + 1)
                                    })
                                    .collect(),
                            );
                        }
                        return;
                    }
                    // The open cell with the fewest candidates (bit-sliced counting finds bivalue cells).
                    let (mut c1, mut c2, mut c3) = (0 as Mask, 0 as Mask, 0 as Mask);
                    for d in 0..self.plan.digits {
                        c3 |= c2 & s.p[d];
                        c2 |= c1 & s.p[d];
                        c1 |= s.p[d];
                    }
                    let bivalue = c2 & !c3 & open;
                    let (cell, k) = if bivalue != 0 {
                        // Among bivalue cells, the one with most open peers constrains the most.
                        let best = bits(bivalue)
                            .max_by_key(|&c| (self.plan.peers[c] & open).count_ones())
                            .unwrap_or(bivalue.trailing_zeros() as usize);
                        (best, 2)
                    } else {
                        bits(open)
                            .map(|c| {
                                let k = (0..self.plan.digits)
                                    .filter(|&d| s.p[d] & (1 << c) != 0)
                                    .count();
                                (c, k as u32)
                            })
                            .min_by_key(|&(_, k)| k)
                            .unwrap_or((open.trailing_zeros() as usize, 2))
                    };
                    // A digit with fewer places in a house than the cell has candidates branches narrower.
                    let choices: Vec<(usize, usize)> = match self.plan.digit_branch(&s, k + 1) {
                        Some((d, places)) => bits(places).map(|c| (c, d)).collect(),
                        None => (0..self.plan.digits)
                            .filter(|&d| s.p[d] & (1 << cell) != 0)
                            .map(|d| (cell, d))
                            .collect(),
                    };
                    for (i, &(c, d)) in choices.iter().enumerate() {
                        if self.count >= self.limit {
                            return;
                        }
                        let mut next = if i + 1 == choices.len() {
                            std::mem::take(&mut s)
                        } else {
                            s.clone()
                        };
                        for e in 0..self.plan.digits {
                            if e != d {
                                next.p[e] &= !(1 << c);
                            }
                        }
                        self.run(next, 1 << c);
                    }
                }
            }
        }
    };
}

bit_planes!(narrow, u64);
bit_planes!(wide, u128);

/// Counts solutions of a candidate grid; None when the geometry is too large for planes.
pub fn solve(geometry: &Geometry, candidates: &[Digits], limit: usize) -> Option<Solutions> {
    let n = geometry.cell_count();
    if candidates.len() != n {
        return None;
    }
    match n {
        0..=64 => Some(narrow::solve(geometry, candidates, limit)),
        65..=MAX_CELLS => Some(wide::solve(geometry, candidates, limit)),
        _ => None,
    }
}
