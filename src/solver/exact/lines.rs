//! Bit-plane solver for small layouts whose houses are all lines of distinct digits: at most
//! 64 cells, 9 digits and 32 houses, each house `Complete` or a consecutive run. In practice
//! the honeycomb (61 cells, 27 lines of 5 to 9 cells), also 4x4 and 6x6.
//!
//! Same search as [`super::planes`], which it is tested against, with four differences that
//! make honeycomb search two to three times as fast:
//! - a required digit with two places in a house is removed from every cell that sees both
//!   (in a honeycomb, cells off the line see at most two of its cells); this alone cuts the
//!   honeycomb search tree by 40%;
//! - digit counting over families of parallel lines: the rows, the `/` lines and the `\`
//!   lines each cover every cell once, so a digit lies in as many lines of each family; when
//!   one family already needs that many lines for it, the others of that family lose it, and
//!   when it can be in no more lines, each that may hold it must (another 12% off the tree);
//! - each house keeps the digits it must hold in the state, so picking a branch needs no
//!   second pass over the run windows;
//! - the run windows are checked with four-digit spans (a window of 4 to 8 digits is the
//!   union of two), and only the digits a house needs get the per-digit checks.

use super::Solutions;
use crate::geometry::{Digits, Geometry, HouseKind, Rule};

type Mask = u64;

/// The most houses a plan takes (the honeycomb has 27).
const MAX_HOUSES: usize = 32;

#[derive(Clone, Copy)]
struct House {
    mask: Mask,
    /// Cells in the house; a run of that many consecutive digits (all digits: complete).
    len: usize,
}

/// Per-layout tables, built once (see [`super::Prepared`]).
pub struct Plan {
    digits: usize,
    all_digits: u16,
    all_cells: Mask,
    cells: usize,
    /// Peers of each cell (64 entries: any cell index of a mask is in bounds).
    peers: [Mask; 64],
    houses: Vec<House>,
    /// Families of houses that cover every cell once, with at least one run among them.
    families: Vec<Vec<usize>>,
    /// The same families as bit sets over house indices.
    family_masks: Vec<u32>,
}

#[derive(Clone, Copy)]
struct State {
    /// Per digit, the cells that may still hold it.
    p: [Mask; 9],
    /// Cells down to one digit whose peers have lost it.
    solved: Mask,
    /// Per house, the digits it must hold, as of its last check.
    must: [u16; MAX_HOUSES],
    /// Per house, the digits of its feasible windows, as of its last check.
    allowed: [u16; MAX_HOUSES],
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
    /// None when the layout is not one this solver takes.
    pub fn new(g: &Geometry) -> Option<Plan> {
        let cells = g.cell_count();
        let digits = usize::from(g.max_digit());
        if cells == 0 || cells > 64 || digits > 9 || g.houses().len() > MAX_HOUSES {
            return None;
        }
        let mut houses = Vec::with_capacity(g.houses().len());
        for h in g.houses() {
            let len = h.cells.len();
            let fits = match h.rule {
                Rule::Complete => len == digits,
                Rule::ConsecutiveRun => (1..=digits).contains(&len),
                Rule::Cage { .. } => false,
            };
            if !fits {
                return None;
            }
            houses.push(House {
                mask: h.cells.iter().fold(0, |m, &c| m | 1 << c),
                len,
            });
        }
        let mut peers = [0; 64];
        for (c, p) in peers.iter_mut().enumerate().take(cells) {
            *p = g.peers(c).iter().fold(0, |m, &q| m | 1 << q);
        }
        // Houses of one kind (rows, columns, `/` lines, ...) that partition the cells.
        let mut families: Vec<Vec<usize>> = Vec::new();
        let mut kinds: Vec<std::mem::Discriminant<HouseKind>> = Vec::new();
        for (i, h) in g.houses().iter().enumerate() {
            let kind = std::mem::discriminant(&h.kind);
            match kinds.iter().position(|&k| k == kind) {
                Some(f) => families[f].push(i),
                None => {
                    kinds.push(kind);
                    families.push(vec![i]);
                }
            }
        }
        let all_cells: Mask = if cells == 64 {
            Mask::MAX
        } else {
            (1 << cells) - 1
        };
        families.retain(|f| {
            let (mut union, mut overlap) = (0, false);
            for &h in f {
                overlap |= union & houses[h].mask != 0;
                union |= houses[h].mask;
            }
            !overlap && union == all_cells && f.iter().any(|&h| houses[h].len < digits)
        });
        let family_masks = families
            .iter()
            .map(|f| f.iter().fold(0u32, |m, &h| m | 1 << h))
            .collect();
        Some(Plan {
            family_masks,
            digits,
            all_digits: g.all_digits().0,
            all_cells,
            cells,
            peers,
            houses,
            families,
        })
    }

    /// Counts the solutions of a candidate grid up to `limit`.
    pub fn solve(&self, candidates: &[Digits], limit: usize) -> Solutions {
        let none = Solutions {
            count: 0,
            first: None,
        };
        if candidates.len() != self.cells {
            return none;
        }
        let mut state = State {
            p: [0; 9],
            solved: 0,
            must: [0; MAX_HOUSES],
            allowed: [self.all_digits; MAX_HOUSES],
        };
        for (c, cands) in candidates.iter().enumerate() {
            if cands.0 & !self.all_digits != 0 {
                return none;
            }
            for d in cands.iter() {
                state.p[usize::from(d) - 1] |= 1 << c;
            }
        }
        let mut search = Search {
            plan: self,
            limit: limit.max(1),
            count: 0,
            first: None,
        };
        search.run(state, self.all_cells);
        Solutions {
            count: search.count,
            first: search.first,
        }
    }

    /// Counts the solutions from givens (0 = empty) up to `limit`.
    pub fn solve_givens(&self, givens: &[u8], limit: usize) -> Solutions {
        let all = Digits(self.all_digits);
        let cands: Vec<Digits> = givens
            .iter()
            .map(|&d| match d {
                0 => all,
                // Out of range: no candidate, so no solution.
                1..=9 => Digits::single(d),
                _ => Digits::EMPTY,
            })
            .collect();
        self.solve(&cands, limit)
    }

    /// Singles and house rules to a fixpoint, starting from the cells in `dirty` (those
    /// changed since the last fixpoint); false on contradiction.
    fn propagate(&self, s: &mut State, mut dirty: Mask) -> bool {
        loop {
            let (mut ones, mut twos) = (0, 0);
            for &p in &s.p[..self.digits] {
                twos |= ones & p;
                ones |= p;
            }
            if ones != self.all_cells {
                return false;
            }
            // Naked singles: a cell down to one digit takes it from its peers.
            let singles = ones & !twos & !s.solved;
            if singles != 0 {
                for p in &mut s.p[..self.digits] {
                    for c in bits(*p & singles) {
                        dirty |= *p & self.peers[c];
                        *p &= !self.peers[c];
                    }
                }
                s.solved |= singles;
                continue;
            }
            if dirty == 0 {
                return true;
            }
            let mut changed = 0;
            for (h, house) in self.houses.iter().enumerate() {
                if house.mask & dirty != 0 {
                    match self.house_rule(s, h, house) {
                        Some(c) => changed |= c,
                        None => return false,
                    }
                }
            }
            dirty = changed;
        }
    }

    /// Run windows, hidden singles and pairs in one house: the cells it changed, or None on
    /// contradiction.
    fn house_rule(&self, s: &mut State, h: usize, house: &House) -> Option<Mask> {
        let mut x = [0; 9];
        let mut present = 0u16;
        for (d, (xd, &p)) in x.iter_mut().zip(&s.p).enumerate() {
            *xd = p & house.mask;
            present |= u16::from(*xd != 0) << d;
        }
        let mut changed = 0;
        let len = house.len;
        let must = if len == self.digits {
            if present != self.all_digits {
                return None;
            }
            self.all_digits
        } else {
            // A window of consecutive digits is feasible when each of its digits has a place
            // and each cell a digit of it.
            let (mut allowed, mut must) = (0u16, u16::MAX);
            let run = (1u16 << len) - 1;
            let mut q = [0; 6];
            for (i, qi) in q.iter_mut().enumerate() {
                *qi = x[i] | x[i + 1] | x[i + 2] | x[i + 3];
            }
            for lo in 0..=self.digits - len {
                let w = run << lo;
                if w & !present != 0 {
                    continue;
                }
                let cover = if len >= 4 {
                    q[lo] | q[lo + len - 4]
                } else {
                    x[lo..lo + len].iter().fold(0, |a, &m| a | m)
                };
                if cover == house.mask {
                    allowed |= w;
                    must &= w;
                }
            }
            if allowed == 0 {
                return None;
            }
            s.allowed[h] = allowed;
            let mut gone = present & !allowed;
            while gone != 0 {
                let d = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                changed |= x[d];
                s.p[d] &= !house.mask;
            }
            must
        };
        s.must[h] = must;
        // Every digit of `must` has a place here: all of them for a complete house (checked
        // above), and a feasible window only holds present digits.
        let mut hidden = 0u16;
        let mut rest_must = must;
        while rest_must != 0 {
            let d = rest_must.trailing_zeros() as usize;
            rest_must &= rest_must - 1;
            let xd = x[d];
            let rest = xd & xd.wrapping_sub(1);
            if rest == 0 {
                hidden |= u16::from(xd & !s.solved != 0) << d;
            } else if rest & (rest - 1) == 0 {
                // Cells that see both places of a digit the house needs cannot hold it.
                let kill = self.peers[xd.trailing_zeros() as usize]
                    & self.peers[rest.trailing_zeros() as usize]
                    & s.p[d];
                s.p[d] &= !kill;
                changed |= kill;
            }
        }
        while hidden != 0 {
            // Hidden single: the only place for a digit the house needs.
            let d = hidden.trailing_zeros() as usize;
            hidden &= hidden - 1;
            let xd = x[d];
            for (e, p) in s.p[..self.digits].iter_mut().enumerate() {
                if e != d && *p & xd != 0 {
                    *p &= !xd;
                    changed |= xd;
                }
            }
        }
        Some(changed)
    }

    /// Digit counting over the families of houses that cover every cell once: a digit lies
    /// in as many houses of each family. The cells changed, or None on contradiction. Valid
    /// at a propagation fixpoint (every house's `must` and `allowed` up to date).
    fn counting(&self, s: &mut State) -> Option<Mask> {
        // Per digit, the houses that must hold it and those that may, as bit sets.
        let mut must = [0u32; 9];
        let mut may = [0u32; 9];
        for h in 0..self.houses.len() {
            let mut m = s.must[h];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                must[d] |= 1 << h;
            }
            let mut m = s.allowed[h];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                may[d] |= 1 << h;
            }
        }
        let mut changed = 0;
        for d in 0..self.digits {
            let bit = 1u16 << d;
            let (mut lo, mut hi) = (0, u32::MAX);
            for &f in &self.family_masks {
                lo = lo.max((must[d] & f).count_ones());
                hi = hi.min((may[d] & f).count_ones());
            }
            if lo > hi {
                return None;
            }
            for &f in &self.family_masks {
                let (min, max) = ((must[d] & f).count_ones(), (may[d] & f).count_ones());
                let open = may[d] & !must[d] & f;
                if min == max || open == 0 {
                    continue;
                }
                if min == hi {
                    // Enough houses of the family must hold d: the others cannot.
                    let mut m = open;
                    while m != 0 {
                        let h = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let mask = self.houses[h].mask;
                        changed |= s.p[d] & mask;
                        s.p[d] &= !mask;
                    }
                } else if max == lo {
                    // d can be in no more houses: each that may hold it must, so only
                    // windows with d remain.
                    let mut m = open;
                    while m != 0 {
                        let h = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let house = self.houses[h];
                        let run = (1u16 << house.len) - 1;
                        let keep = (0..=self.digits - house.len)
                            .map(|lo| run << lo)
                            .filter(|&w| w & bit != 0 && w & !s.allowed[h] == 0)
                            .fold(0, |a, w| a | w);
                        for (e, p) in s.p[..self.digits].iter_mut().enumerate() {
                            if keep & (1 << e) == 0 {
                                changed |= *p & house.mask;
                                *p &= !house.mask;
                            }
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// Propagation, then digit counting, to a joint fixpoint; false on contradiction.
    fn settle(&self, s: &mut State, dirty: Mask) -> bool {
        let mut dirty = dirty;
        loop {
            if !self.propagate(s, dirty) {
                return false;
            }
            if self.families.is_empty() {
                return true;
            }
            match self.counting(s) {
                None => return false,
                Some(0) => return true,
                Some(c) => dirty = c,
            }
        }
    }

    /// A digit some house must hold with fewer than `limit` open places, and those places.
    fn digit_branch(&self, s: &State, limit: u32) -> Option<(usize, Mask)> {
        let mut best = None;
        let mut best_len = limit;
        for (h, house) in self.houses.iter().enumerate() {
            let mut rest = s.must[h];
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
        let plan = self.plan;
        if !plan.settle(&mut s, dirty) {
            return;
        }
        let open = plan.all_cells & !s.solved;
        if open == 0 {
            self.count += 1;
            if self.first.is_none() {
                let mut out = vec![0u8; plan.cells];
                for (d, &p) in s.p[..plan.digits].iter().enumerate() {
                    for c in bits(p) {
                        out[c] = d as u8 + 1;
                    }
                }
                self.first = Some(out);
            }
            return;
        }
        let (mut c1, mut c2, mut c3) = (0, 0, 0);
        for &p in &s.p[..plan.digits] {
            c3 |= c2 & p;
            c2 |= c1 & p;
            c1 |= p;
        }
        let bivalue = c2 & !c3 & open;
        let (cell, k) = if bivalue != 0 {
            // Among bivalue cells, the one with most open peers constrains the most.
            let mut best = (bivalue.trailing_zeros() as usize, 0);
            for c in bits(bivalue) {
                let w = (plan.peers[c] & open).count_ones();
                if w > best.1 {
                    best = (c, w);
                }
            }
            (best.0, 2)
        } else {
            let mut best = (open.trailing_zeros() as usize, u32::MAX);
            for c in bits(open) {
                let k = s.p[..plan.digits]
                    .iter()
                    .filter(|&&p| p & (1 << c) != 0)
                    .count() as u32;
                if k < best.1 {
                    best = (c, k);
                }
            }
            best
        };
        // A digit with fewer places in a house than the cell has candidates branches
        // narrower.
        let mut choices = [(0usize, 0usize); 16];
        let mut n = 0;
        match plan.digit_branch(&s, k + 1) {
            Some((d, places)) => {
                for c in bits(places) {
                    choices[n] = (c, d);
                    n += 1;
                }
            }
            None => {
                for (d, &p) in s.p[..plan.digits].iter().enumerate() {
                    if p & (1 << cell) != 0 {
                        choices[n] = (cell, d);
                        n += 1;
                    }
                }
            }
        }
        for &(c, d) in &choices[..n] {
            if self.count >= self.limit {
                return;
            }
            let mut next = s;
            let bit = 1 << c;
            for (e, p) in next.p[..plan.digits].iter_mut().enumerate() {
                if e != d {
                    *p &= !bit;
                }
            }
            self.run(next, bit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Plan;
    use crate::puzzle::{Layout, Variant};

    fn plan(variant: Variant, size: usize) -> Option<Plan> {
        Plan::new(&Layout::new(variant, size).geometry().unwrap())
    }

    #[test]
    fn takes_line_layouts_only() {
        let honeycomb = plan(Variant::Honeycomb, 9).unwrap();
        // Rows, `/` lines and `\` lines each cover the 61 cells once.
        assert_eq!(honeycomb.families.len(), 3);
        assert!(honeycomb.families.iter().all(|f| f.len() == 9));
        // Squares: complete houses only, so nothing to count.
        assert!(plan(Variant::Standard, 4).unwrap().families.is_empty());
        assert!(plan(Variant::Standard, 6).is_some());
        // Too many cells for one 64-bit mask.
        assert!(plan(Variant::Standard, 9).is_none());
        assert!(plan(Variant::Diagonal, 9).is_none());
    }

    #[test]
    fn honeycomb_givens_out_of_range_have_no_solution() {
        let p = plan(Variant::Honeycomb, 9).unwrap();
        let mut givens = vec![0u8; 61];
        givens[30] = 10;
        assert_eq!(p.solve_givens(&givens, 2).count, 0);
        assert_eq!(p.solve_givens(&givens[..60], 2).count, 0);
        givens[30] = 0;
        let s = p.solve_givens(&givens, 2);
        assert_eq!(s.count, 2);
        assert_eq!(s.first.map(|f| f.len()), Some(61));
    }
}
