//! Bit-plane solver for small layouts whose houses are all lines of distinct digits: at most
//! 64 cells, 9 digits and 32 houses, each house `Complete` or a consecutive run. In practice
//! the honeycomb (61 cells, 27 lines of 5 to 9 cells), also 4x4 and 6x6.
//!
//! Same search as [`super::planes`], which it is tested against, with these differences
//! that make honeycomb search several times as fast:
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
//!   union of two), and only the digits a house needs get the per-digit checks;
//! - propagation tracks which digits each cell lost, so a house whose cells only lost digits
//!   in ways its rule cannot act on (most of them: a single's digit leaving its peers) gets a
//!   cheap check instead of the full one; the fixpoint is the same. A pass goes digit by
//!   digit over the houses each lost digit left (found with byte tables), with masks instead
//!   of branches where the outcome is a coin flip (mispredictions cost more than the work);
//! - the honeycomb's digit, house and cell counts are compile-time constants (const
//!   generics), so its loops unroll; other layouts read them from the plan;
//! - the branch digit is looked for from the house after the parent's branch house onwards,
//!   which spreads branches over the lines (a tenth fewer honeycomb nodes).

use super::Solutions;
use crate::geometry::{Digits, Geometry, HouseKind, Rule};

type Mask = u64;

/// The most houses a plan takes (the honeycomb has 27).
const MAX_HOUSES: usize = 32;
/// The most families digit counting uses.
const MAX_FAMILIES: usize = 4;
/// Window starts the fixed window loops try: the most a run of four cells has.
const WINDOW_STARTS: usize = 6;
/// Four-digit spans kept per window check: the six that exist, then empty ones, so that a
/// window's last span is in bounds however far past the digits it starts.
const SPANS: usize = 12;

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
    /// Peers of each cell; 65 entries: any cell index of a mask, and the trailing zeros of an
    /// empty mask (no peers), are in bounds, so pair checks need no branch.
    peers: [Mask; 65],
    houses: Vec<House>,
    /// Per byte of a cell mask and its value, the houses holding those cells.
    house_sets: Box<[[u32; 256]; 8]>,
    /// The houses that are runs (shorter than the digit count), as a bit set.
    runs: u32,
    /// Families of houses that cover every cell once, with at least one run among them.
    families: Vec<Vec<usize>>,
    /// Per house, its family's index (`MAX_FAMILIES` for none).
    family_of: [u8; MAX_HOUSES],
    /// A digit set spread to one nibble per digit, so that adding spreads counts digits.
    spread: Box<[u64; 512]>,
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
    /// Some house's `must` or `allowed` changed since the last digit counting.
    recount: bool,
    /// Where the branch digit scan starts: after the house of the last branch, so that
    /// branches spread over the lines (a tenth fewer honeycomb nodes than always starting
    /// at the first line).
    start: u8,
}

/// Per house its family (`MAX_FAMILIES` for none), and the nibble spread table.
fn family_tables(families: &[Vec<usize>]) -> ([u8; MAX_HOUSES], Box<[u64; 512]>) {
    let mut family_of = [MAX_FAMILIES as u8; MAX_HOUSES];
    for (f, hs) in families.iter().enumerate() {
        for &h in hs {
            family_of[h] = f as u8;
        }
    }
    let mut spread = Box::new([0u64; 512]);
    for (m, v) in spread.iter_mut().enumerate() {
        *v = (0..9)
            .filter(|d| m >> d & 1 == 1)
            .fold(0, |a, d| a | 1 << (4 * d));
    }
    (family_of, spread)
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
        let mut peers = [0; 65];
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
            // Counts are kept in nibbles, so at most 15 houses.
            !overlap
                && union == all_cells
                && f.len() <= 15
                && f.iter().any(|&h| houses[h].len < digits)
        });
        families.truncate(MAX_FAMILIES);
        let (family_of, spread) = family_tables(&families);
        let runs = (houses.iter().enumerate())
            .filter(|(_, h)| h.len < digits)
            .fold(0, |a, (i, _)| a | 1 << i);
        let mut cell_houses = [0u32; 64];
        for (h, house) in houses.iter().enumerate() {
            for c in bits(house.mask) {
                cell_houses[c] |= 1 << h;
            }
        }
        // Each byte value from a smaller one and its lowest cell.
        let mut house_sets = Box::new([[0u32; 256]; 8]);
        for (i, t) in house_sets.iter_mut().enumerate() {
            for b in 1..256 {
                t[b] = t[b & (b - 1)] | cell_houses[8 * i + b.trailing_zeros() as usize];
            }
        }
        Some(Plan {
            house_sets,
            runs,
            family_of,
            spread,
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
            recount: true,
            start: 0,
        };
        for (c, cands) in candidates.iter().enumerate() {
            if cands.0 & !self.all_digits != 0 {
                return none;
            }
            for d in cands.iter() {
                state.p[usize::from(d) - 1] |= 1 << c;
            }
        }
        let limit = limit.max(1);
        if (self.digits, self.houses.len(), self.cells) == (9, 27, 61) {
            // The honeycomb's counts.
            Search::<9, 27, 61>::solutions(self, state, limit)
        } else {
            Search::<0, 0, 0>::solutions(self, state, limit)
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

    /// The houses holding some cell of `m`, as a bit set (byte tables: a test per house
    /// would cost four times as much).
    #[inline(always)]
    fn houses_hit(&self, m: Mask) -> u32 {
        let mut hs = 0;
        for (i, t) in self.house_sets.iter().enumerate() {
            hs |= t[usize::from((m >> (8 * i)) as u8)];
        }
        hs
    }

    /// Digits in the layout: `D` when known at compile time, else the plan's.
    #[inline(always)]
    fn nd<const D: usize>(&self) -> usize {
        if D == 0 {
            self.digits
        } else {
            D
        }
    }

    #[inline(always)]
    fn digit_mask<const D: usize>(&self) -> u16 {
        if D == 0 {
            self.all_digits
        } else {
            (1 << D) - 1
        }
    }

    #[inline(always)]
    fn cell_mask<const C: usize>(&self) -> Mask {
        match C {
            0 => self.all_cells,
            64.. => Mask::MAX,
            _ => (1 << C) - 1,
        }
    }

    #[inline(always)]
    fn houses_of<const H: usize>(&self) -> &[House] {
        if H == 0 {
            &self.houses
        } else {
            &self.houses[..H]
        }
    }

    /// Singles and house rules to a fixpoint, starting from the cells in `dirty` (those
    /// changed since the last fixpoint); false on contradiction.
    fn propagate<const D: usize, const H: usize, const C: usize>(
        &self,
        s: &mut State,
        dirty: Mask,
    ) -> bool {
        // Cells changed in unknown digits since their houses' last check (the branch cell,
        // digit counting), and per digit the cells that lost it (singles, house rules): a
        // house that only lost known digits gets a full check only when it can learn
        // something new (two thirds of the checks were idle).
        let mut dirty = dirty;
        let mut lost = [0 as Mask; 9];
        let mut lost_any: Mask = 0;
        loop {
            let (mut ones, mut twos) = (0, 0);
            for &p in &s.p[..self.nd::<D>()] {
                twos |= ones & p;
                ones |= p;
            }
            if ones != self.cell_mask::<C>() {
                return false;
            }
            // Naked singles: a cell down to one digit takes it from its peers.
            let singles = ones & !twos & !s.solved;
            if singles != 0 {
                for (p, l) in s.p[..self.nd::<D>()].iter_mut().zip(&mut lost) {
                    for c in bits(*p & singles) {
                        *l |= *p & self.peers[c];
                        *p &= !self.peers[c];
                    }
                    lost_any |= *l;
                }
                s.solved |= singles;
                continue;
            }
            if dirty | lost_any == 0 {
                return true;
            }
            let mut next = [0 as Mask; 9];
            let mut spans = [0; SPANS];
            for (i, q) in spans.iter_mut().take(6).enumerate() {
                *q = s.p[i] | s.p[i + 1] | s.p[i + 2] | s.p[i + 3];
            }
            // Houses to check in full and houses whose cells lost digits, as bit sets: a
            // branch per house would mispredict often.
            let mut full = self.houses_hit(dirty);
            let touched = self.houses_hit(lost_any);
            // Per digit lost, the houses it left. One that needs it: down to two places, the
            // cells that see both lose it; down to one, a hidden single (that cell keeps it
            // alone); down to none, a contradiction. One that only may hold it: down to none,
            // its windows change (a full check).
            let mut digits = 0u16;
            for (d, &l) in lost.iter().enumerate() {
                digits |= u16::from(l != 0) << d;
            }
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut hs = self.houses_hit(lost[d]) & !full;
                // The digit's places as of this step: its kills apply after all its houses,
                // so that they do not wait on each other (a place killed meanwhile only
                // widens a house's view, and the cells it leaves go to `next` anyway).
                let places = s.p[d];
                let mut kills = 0;
                while hs != 0 {
                    let h = hs.trailing_zeros() as usize;
                    hs &= hs - 1;
                    let x = places & self.houses[h].mask;
                    let more = x & x.wrapping_sub(1);
                    let needs = s.must[h] >> d & 1 == 1;
                    if x == 0 {
                        if needs {
                            return false;
                        }
                        full |= 1 << h;
                    }
                    // Masks instead of branches: which case applies is a coin flip.
                    let needed = 0u64.wrapping_sub(u64::from(needs));
                    let hidden = x & !s.solved & needed & 0u64.wrapping_sub(u64::from(more == 0));
                    if hidden != 0 {
                        // Every digit leaves, then its own comes back (below; no branch per
                        // digit).
                        let own_next = next[d];
                        for (p, n) in s.p[..self.nd::<D>()].iter_mut().zip(next.iter_mut()) {
                            *n |= *p & hidden;
                            *p &= !hidden;
                        }
                        next[d] = own_next;
                    }
                    let pair = needed
                        & 0u64.wrapping_sub(u64::from(
                            (more != 0) & (more & more.wrapping_sub(1) == 0),
                        ));
                    kills |= self.peers[x.trailing_zeros() as usize]
                        & self.peers[more.trailing_zeros() as usize]
                        & pair;
                }
                kills &= places;
                s.p[d] = places & !kills;
                next[d] |= kills;
            }
            let mut runs = touched & !full & self.runs;
            while runs != 0 {
                let h = runs.trailing_zeros() as usize;
                runs &= runs - 1;
                if !self.windows_kept::<D>(s, h, lost_any, &spans) {
                    full |= 1 << h;
                }
            }
            while full != 0 {
                let h = full.trailing_zeros() as usize;
                full &= full - 1;
                if self
                    .house_rule::<D, H, C>(s, h, &self.houses[h], &mut next)
                    .is_none()
                {
                    return false;
                }
            }
            dirty = 0;
            lost = next;
            lost_any = lost.iter().fold(0, |a, &l| a | l);
        }
    }

    /// Whether the feasible windows of run `h` stay as they were when the cells in `lost_any`
    /// lost digits: each of them keeps a digit of `must`, or one of every window within
    /// `allowed` (`spans`: four-digit spans as of the start of this pass, so covering too much
    /// only while this house's cells are due for another pass anyway). False: a full check
    /// is needed.
    fn windows_kept<const D: usize>(
        &self,
        s: &State,
        h: usize,
        lost_any: Mask,
        spans: &[Mask; SPANS],
    ) -> bool {
        let house = &self.houses[h];
        let (must, allowed) = (s.must[h], s.allowed[h]);
        // Cells still holding a digit of `must`, an intersection of runs, so a run itself:
        // two spans when it is four digits or wider, else its first, middle and last digit
        // (both computed and one kept by masks: which applies is a coin flip).
        let m = must | u16::from(must == 0);
        let (lo, hi) = (m.trailing_zeros() as usize, 15 - m.leading_zeros() as usize);
        let wide = 0u64.wrapping_sub(u64::from(hi >= lo + 3));
        let narrow = s.p[lo] | s.p[(lo + hi) / 2] | s.p[hi];
        let cover = ((spans[lo] | spans[hi.saturating_sub(3)]) & wide | narrow & !wide)
            & 0u64.wrapping_sub(u64::from(must != 0));
        let open = lost_any & house.mask & !cover;
        if open == 0 {
            return true;
        }
        let len = house.len;
        if len < 4 {
            return false;
        }
        // Every window start up to the last a house of four cells has; those past the
        // digits are not within `allowed`, so they pass (a fixed loop: no exit to mispredict).
        let run = (1u16 << len) - 1;
        let mut kept = true;
        for lo in 0..WINDOW_STARTS {
            let w = run << lo;
            let hi = (lo + len - 4).min(SPANS - 1);
            kept &= (w & !allowed != 0) | ((spans[lo] | spans[hi]) & open == open);
        }
        kept
    }

    /// Run windows, hidden singles and pairs in one house, adding the cells each digit lost
    /// to `lost`; None on contradiction.
    fn house_rule<const D: usize, const H: usize, const C: usize>(
        &self,
        s: &mut State,
        h: usize,
        house: &House,
        lost: &mut [Mask; 9],
    ) -> Option<()> {
        let mut x = [0; 9];
        let mut present = 0u16;
        for (d, (xd, &p)) in x.iter_mut().zip(&s.p).enumerate() {
            *xd = p & house.mask;
            present |= u16::from(*xd != 0) << d;
        }
        let len = house.len;
        let must = if len == self.nd::<D>() {
            if present != self.digit_mask::<D>() {
                return None;
            }
            self.digit_mask::<D>()
        } else {
            // A window of consecutive digits is feasible when each of its digits has a place
            // and each cell a digit of it.
            let (mut allowed, mut must) = (0u16, u16::MAX);
            let run = (1u16 << len) - 1;
            let mut q = [0; SPANS];
            for (i, qi) in q.iter_mut().take(6).enumerate() {
                *qi = x[i] | x[i + 1] | x[i + 2] | x[i + 3];
            }
            if len >= 4 {
                // A fixed loop with masks (see `windows_kept`): starts past the digits give
                // windows with digits not present, so infeasible.
                for lo in 0..WINDOW_STARTS {
                    let w = run << lo;
                    let hi = (lo + len - 4).min(SPANS - 1);
                    let ok = (w & !present == 0) & ((q[lo] | q[hi]) == house.mask);
                    let keep = 0u16.wrapping_sub(u16::from(ok));
                    allowed |= w & keep;
                    must &= w | !keep;
                }
            } else {
                for lo in 0..=self.nd::<D>() - len {
                    let w = run << lo;
                    let cover = x[lo..lo + len].iter().fold(0, |a, &m| a | m);
                    if w & !present == 0 && cover == house.mask {
                        allowed |= w;
                        must &= w;
                    }
                }
            }
            if allowed == 0 {
                return None;
            }
            s.recount |= s.allowed[h] != allowed;
            s.allowed[h] = allowed;
            let mut gone = present & !allowed;
            while gone != 0 {
                let d = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                lost[d] |= x[d];
                s.p[d] &= !house.mask;
            }
            must
        };
        s.recount |= s.must[h] != must;
        s.must[h] = must;
        // Every digit of `must` has a place here: all of them for a complete house (checked
        // above), and a feasible window only holds present digits.
        let mut hidden = 0u16;
        let mut rest_must = must;
        while rest_must != 0 {
            let d = rest_must.trailing_zeros() as usize;
            rest_must &= rest_must - 1;
            let xd = x[d];
            let more = xd & xd.wrapping_sub(1);
            hidden |= u16::from((more == 0) & (xd & !s.solved != 0)) << d;
            // Cells that see both places of a digit the house needs cannot hold it (masks
            // instead of branches, as in `propagate`).
            let pair = (more != 0) & (more & more.wrapping_sub(1) == 0);
            let kill = self.peers[xd.trailing_zeros() as usize]
                & self.peers[more.trailing_zeros() as usize]
                & s.p[d]
                & 0u64.wrapping_sub(u64::from(pair));
            s.p[d] &= !kill;
            lost[d] |= kill;
        }
        while hidden != 0 {
            // Hidden single: the only place for a digit the house needs.
            let d = hidden.trailing_zeros() as usize;
            hidden &= hidden - 1;
            let xd = x[d];
            for (e, (p, l)) in s.p[..self.nd::<D>()]
                .iter_mut()
                .zip(lost.iter_mut())
                .enumerate()
            {
                if e != d {
                    *l |= *p & xd;
                    *p &= !xd;
                }
            }
        }
        Some(())
    }

    /// Digit counting over the families of houses that cover every cell once: a digit lies
    /// in as many houses of each family. The cells changed, or None on contradiction. Valid
    /// at a propagation fixpoint (every house's `must` and `allowed` up to date).
    fn counting<const D: usize, const H: usize, const C: usize>(
        &self,
        s: &mut State,
    ) -> Option<Mask> {
        s.recount = false;
        // Per family, how many houses must hold each digit and how many may, one nibble
        // per digit (a family has at most 15 houses).
        let mut must = [0u64; MAX_FAMILIES + 1];
        let mut may = [0u64; MAX_FAMILIES + 1];
        for h in 0..self.houses_of::<H>().len() {
            let f = usize::from(self.family_of[h]);
            must[f] += self.spread[usize::from(s.must[h])];
            may[f] += self.spread[usize::from(s.allowed[h])];
        }
        let families = self.families.len();
        let mut changed = 0;
        for d in 0..self.nd::<D>() {
            let bit = 1u16 << d;
            let count = |c: u64| (c >> (4 * d)) & 15;
            let (mut lo, mut hi) = (0, u64::MAX);
            for f in 0..families {
                lo = lo.max(count(must[f]));
                hi = hi.min(count(may[f]));
            }
            if lo > hi {
                return None;
            }
            for f in 0..families {
                // A house's `must` lies within its `allowed`, so equal counts leave no
                // house open.
                let (min, max) = (count(must[f]), count(may[f]));
                if min == max || (min != hi && max != lo) {
                    continue;
                }
                for &h in &self.families[f] {
                    if s.allowed[h] & bit == 0 || s.must[h] & bit != 0 {
                        continue;
                    }
                    let house = self.houses[h];
                    if min == hi {
                        // Enough houses of the family must hold d: the others cannot.
                        changed |= s.p[d] & house.mask;
                        s.p[d] &= !house.mask;
                    } else {
                        // d can be in no more houses: each that may hold it must, so only
                        // windows with d remain.
                        let run = (1u16 << house.len) - 1;
                        let keep = (0..=self.nd::<D>() - house.len)
                            .map(|lo| run << lo)
                            .filter(|&w| w & bit != 0 && w & !s.allowed[h] == 0)
                            .fold(0, |a, w| a | w);
                        for (e, p) in s.p[..self.nd::<D>()].iter_mut().enumerate() {
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
    fn settle<const D: usize, const H: usize, const C: usize>(
        &self,
        s: &mut State,
        dirty: Mask,
    ) -> bool {
        let mut dirty = dirty;
        loop {
            if !self.propagate::<D, H, C>(s, dirty) {
                return false;
            }
            if self.families.is_empty() || !s.recount {
                return true;
            }
            match self.counting::<D, H, C>(s) {
                None => return false,
                Some(0) => return true,
                Some(c) => dirty = c,
            }
        }
    }

    /// A digit some house must hold with fewer than `limit` open places: the house, the
    /// digit and those places. The scan starts at the house `s.start`.
    fn digit_branch<const D: usize, const H: usize, const C: usize>(
        &self,
        s: &State,
        limit: u32,
    ) -> Option<(usize, usize, Mask)> {
        let houses = self.houses_of::<H>();
        if limit == 3 {
            // The common case, a needed digit with two places: per house, those digits as
            // a bit set, without a branch per digit.
            for i in 0..houses.len() {
                let h = (usize::from(s.start) + i) % houses.len();
                let mask = houses[h].mask;
                let mut two = 0u16;
                for (d, &p) in s.p[..self.nd::<D>()].iter().enumerate() {
                    let x = p & mask;
                    let more = x & x.wrapping_sub(1);
                    two |= u16::from((more != 0) & (more & more.wrapping_sub(1) == 0)) << d;
                }
                two &= s.must[h];
                if two != 0 {
                    let d = two.trailing_zeros() as usize;
                    return Some((h, d, s.p[d] & mask));
                }
            }
            return None;
        }
        let mut best = None;
        let mut best_len = limit;
        for i in 0..houses.len() {
            let h = (usize::from(s.start) + i) % houses.len();
            let house = &houses[h];
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
                    best = Some((h, d, places));
                    if k == 2 {
                        return best;
                    }
                }
            }
        }
        best
    }
}

/// The search; `D`, `H` and `C` are the digit, house and cell counts when known at compile
/// time (the honeycomb's: its loops then unroll, a third faster), else 0.
struct Search<'a, const D: usize, const H: usize, const C: usize> {
    plan: &'a Plan,
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
}

impl<'a, const D: usize, const H: usize, const C: usize> Search<'a, D, H, C> {
    /// Searches from `state` until `limit` solutions are found or the tree is exhausted.
    fn solutions(plan: &'a Plan, state: State, limit: usize) -> Solutions {
        let mut search = Search::<D, H, C> {
            plan,
            limit,
            count: 0,
            first: None,
        };
        search.run(state, plan.all_cells);
        Solutions {
            count: search.count,
            first: search.first,
        }
    }

    fn run(&mut self, mut s: State, dirty: Mask) {
        let plan = self.plan;
        if !plan.settle::<D, H, C>(&mut s, dirty) {
            return;
        }
        let open = plan.cell_mask::<C>() & !s.solved;
        if open == 0 {
            self.count += 1;
            if self.first.is_none() {
                let mut out = vec![0u8; plan.cells];
                for (d, &p) in s.p[..plan.nd::<D>()].iter().enumerate() {
                    for c in bits(p) {
                        out[c] = d as u8 + 1;
                    }
                }
                self.first = Some(out);
            }
            return;
        }
        // A digit with two places in a house, else a bivalue cell, else the fewest choices
        // among cells and digits' places.
        let mut branch = plan.digit_branch::<D, H, C>(&s, 3);
        let mut cell = 0;
        if branch.is_none() {
            let (mut c1, mut c2, mut c3) = (0, 0, 0);
            for &p in &s.p[..plan.nd::<D>()] {
                c3 |= c2 & p;
                c2 |= c1 & p;
                c1 |= p;
            }
            let bivalue = c2 & !c3 & open;
            if bivalue != 0 {
                // Among bivalue cells, the one with most open peers constrains the most.
                let mut best = (bivalue.trailing_zeros() as usize, 0);
                for c in bits(bivalue) {
                    let w = (plan.peers[c] & open).count_ones();
                    if w > best.1 {
                        best = (c, w);
                    }
                }
                cell = best.0;
            } else {
                let mut best = (open.trailing_zeros() as usize, u32::MAX);
                for c in bits(open) {
                    let k = s.p[..plan.nd::<D>()]
                        .iter()
                        .filter(|&&p| p & (1 << c) != 0)
                        .count() as u32;
                    if k < best.1 {
                        best = (c, k);
                    }
                }
                cell = best.0;
                // A digit with fewer places in a house than the cell has candidates branches
                // narrower.
                branch = plan.digit_branch::<D, H, C>(&s, best.1 + 1);
            }
        }
        let mut choices = [(0usize, 0usize); 16];
        let mut n = 0;
        match branch {
            Some((h, d, places)) => {
                s.start = ((h + 1) % plan.houses.len()) as u8;
                for c in bits(places) {
                    choices[n] = (c, d);
                    n += 1;
                }
            }
            None => {
                for (d, &p) in s.p[..plan.nd::<D>()].iter().enumerate() {
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
            for (e, p) in next.p[..plan.nd::<D>()].iter_mut().enumerate() {
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
    use crate::puzzle::{Layout, Puzzle, Variant};
    use crate::solver::exact::reference_from_givens;

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
        // Every honeycomb line but the three of nine cells is a run; a cell lies in three.
        assert_eq!(honeycomb.runs.count_ones(), 24);
        assert_eq!(honeycomb.houses_hit(1).count_ones(), 3);
        assert_eq!(honeycomb.houses_hit(honeycomb.all_cells), (1 << 27) - 1);
    }

    /// 4x4 and 6x6 take the path whose counts are read at run time (the honeycomb's are
    /// compile-time constants): it must count and solve as the reference does, with clues
    /// taken away from a full grid in many patterns (unique, several solutions, none when a
    /// clue is changed).
    #[test]
    fn small_squares_agree_with_the_reference() {
        for size in [4usize, 6] {
            let layout = Layout::new(Variant::Standard, size);
            let g = layout.geometry().unwrap();
            let p = Plan::new(&g).unwrap();
            let cells = size * size;
            let full = reference_from_givens(&g, &vec![0; cells], 1).first.unwrap();
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for round in 0..300 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mut givens = full.clone();
                for (c, v) in givens.iter_mut().enumerate() {
                    if (seed >> (c % 64)) & 1 == 1 || (round % 3 == 0 && c % 3 == 0) {
                        *v = 0;
                    }
                }
                if round % 7 == 0 {
                    let c = (seed % cells as u64) as usize;
                    givens[c] = givens[c] % size as u8 + 1;
                }
                let want = reference_from_givens(&g, &givens, 2);
                let got = p.solve_givens(&givens, 2);
                assert_eq!(got.count, want.count, "{size}x{size} round {round}");
                if let Some(first) = &got.first {
                    let puzzle = Puzzle::new(layout.clone(), givens.clone()).unwrap();
                    puzzle.check_solution(first).unwrap();
                }
            }
        }
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
