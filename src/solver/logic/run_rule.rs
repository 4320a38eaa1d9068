//! The rule of a run line in one pass: the digits each cell
//! takes in some placement of distinct consecutive digits, the digits every such placement
//! uses, or that there is none.
//!
//! Digits are taken in increasing order, and the state is the set of the line's cells that
//! hold a digit so far. Before the run starts the state is empty and a digit may be skipped;
//! once it has started, each next digit goes to a free cell that can take it, until every
//! cell is filled; after that digits are skipped again. A forward pass gives the states
//! reachable after each digit, a backward pass those from which the line can still be
//! filled, and a candidate lies on some placement when a reachable state without its cell,
//! plus that cell, can still be completed. Every window of consecutive digits is covered at
//! once. States are bits of a bitset over cell subsets: one word up to 6 cells, eight at 9.
//!
//! It answers exactly what a matching per window (Regin) answers, in one pass instead of one
//! per window: forcing nets ask it for every line state their memo has not seen.
//!
//! Tried and dropped (issue 22): the passes bounded to the windows the masks allow, with
//! every cell step masked instead of branched on (cells padded to a fixed count per state
//! width): 1.3-1.5x faster per call on a recorded sequence of 400,000 real calls, but inside
//! `bench --logic --variant honeycomb --threads 1 hc25` hint p99 27.4-27.7 -> 31.5-33.2 ms
//! and the rating slower than without it (56.8 s against 54.7 s); the bounds alone with
//! the branches: no gain (perf share). Looping over the set bits of a per-digit cell mask:
//! 0.8-0.95x per call.

/// For a cell below 6 (a bit inside a word): the positions lacking that bit, and the shift
/// that adds it.
const LOW: [(u64, u32); 6] = [
    (0x5555_5555_5555_5555, 1),
    (0x3333_3333_3333_3333, 2),
    (0x0F0F_0F0F_0F0F_0F0F, 4),
    (0x00FF_00FF_00FF_00FF, 8),
    (0x0000_FFFF_0000_FFFF, 16),
    (0x0000_0000_FFFF_FFFF, 32),
];

/// The subsets of `x` that lack cell `c`, with `c` added.
#[inline(always)]
fn add<const W: usize>(x: &[u64; W], c: usize) -> [u64; W] {
    let mut y = [0u64; W];
    if c < 6 {
        let (m, s) = LOW[c];
        for w in 0..W {
            y[w] = (x[w] & m) << s;
        }
    } else {
        let b = 1 << (c - 6);
        for w in 0..W {
            if w & b == 0 {
                y[w | b] = x[w];
            }
        }
    }
    y
}

/// The subsets of `x` that hold cell `c`, with `c` taken out.
#[inline(always)]
fn take<const W: usize>(x: &[u64; W], c: usize) -> [u64; W] {
    let mut y = [0u64; W];
    if c < 6 {
        let (m, s) = LOW[c];
        for w in 0..W {
            y[w] = (x[w] >> s) & m;
        }
    } else {
        let b = 1 << (c - 6);
        for w in 0..W {
            if w & b != 0 {
                y[w & !b] = x[w];
            }
        }
    }
    y
}

#[inline(always)]
fn has<const W: usize>(x: &[u64; W], i: usize) -> bool {
    x[i / 64] >> (i % 64) & 1 == 1
}

/// For a line whose cells have candidates `masks` (bit `d - 1` for digit `d`) and must hold
/// distinct consecutive digits of `1..=max`, one per cell: per cell the candidates on some
/// placement, and the digits every placement uses; None when there is no placement (or the
/// line is longer than 9 cells, or `max` over 16).
///
/// A cell with one candidate (placed, or down to one) takes that digit in every placement,
/// so it is left out of the states: its digit passes without changing the state, and the
/// run must be under way there. That halves the states per such cell (most lines a forcing
/// net asks about hold one or more).
pub fn run_rule(masks: &[u16], max: u8) -> Option<([u16; 16], u16)> {
    run_rule_live(masks, max, None)
}

/// The live states of a line whose rule ran (see [`run_rule_live`]): per digit layer `k`
/// (`0..=max`), the states both reachable after digits `1..=k` and completable from there,
/// over the cells that were free then (`at`), `w` words a layer. They are the same for the
/// masks the rule ran on and for those masks cut down to what it allowed (the line's closed
/// state): a candidate outside every placement lies on no live path.
#[derive(Clone, Copy)]
pub struct Live {
    /// Layer `k`, word `i` at `k * w + i`.
    layers: [u64; 40],
    /// Positions in the line of the free cells, in state-bit order.
    at: [u8; 9],
    /// Free cells, words per layer (0: none kept), largest digit.
    k: u8,
    w: u8,
    n: u8,
    /// Digits of the cells fixed then, and the skips they allow (see [`rule`]).
    fixed: u16,
    first: u8,
    last: u8,
    /// Digits every placement holds.
    pub must: u16,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            layers: [0; 40],
            at: [0; 9],
            k: 0,
            w: 0,
            n: 0,
            fixed: 0,
            first: 0,
            last: 0,
            must: 0,
        }
    }
}

impl Live {
    /// Whether no live states are held.
    pub fn is_empty(&self) -> bool {
        self.w == 0
    }

    /// Holds no live states (the layers are left as they are).
    pub fn clear(&mut self) {
        self.w = 0;
    }

    /// Copies these live states into `to` (only the layers in use).
    pub fn copy_to(&self, to: &mut Live) {
        let used = (usize::from(self.n) + 1) * usize::from(self.w);
        if let (Some(from), Some(dst)) = (self.layers.get(..used), to.layers.get_mut(..used)) {
            dst.copy_from_slice(from);
        }
        to.at = self.at;
        (to.k, to.w, to.n) = (self.k, self.w, self.n);
        (to.fixed, to.first, to.last) = (self.fixed, self.first, self.last);
        to.must = self.must;
    }
}

/// [`run_rule`], also keeping the line's live states in `live` when given (lines of up to 8
/// free cells and digits up to 9; `live.w` is 0 when they were not kept).
pub fn run_rule_live(
    masks: &[u16],
    max: u8,
    mut live: Option<&mut Live>,
) -> Option<([u16; 16], u16)> {
    if let Some(l) = live.as_deref_mut() {
        l.w = 0;
    }
    let n = usize::from(max);
    if masks.is_empty() || masks.len() > 9 || n > 16 || masks.len() > n {
        return None;
    }
    let mut fixed = 0u16;
    let (mut free, mut at, mut k) = ([0u16; 9], [0usize; 9], 0);
    for (i, &m) in masks.iter().enumerate() {
        if m.count_ones() == 1 {
            if fixed & m != 0 {
                return None;
            }
            fixed |= m;
        } else {
            free[k] = m;
            at[k] = i;
            k += 1;
        }
    }
    if u32::from(fixed) >> n != 0 {
        return None;
    }
    // Live states fit the kept layers up to 8 free cells and digit 9.
    let mut live = live.filter(|_| k <= 8 && n <= 9);
    let layers = live.as_deref_mut().map(|l| &mut l.layers);
    let (free_allowed, must) = match k {
        // Without fixed cells the checks for them compile away.
        _ if fixed == 0 => match k {
            0..=6 => rule::<1, false>(&free[..k], fixed, n, layers),
            7 => rule::<2, false>(&free[..k], fixed, n, layers),
            8 => rule::<4, false>(&free[..k], fixed, n, layers),
            _ => rule::<8, false>(&free[..k], fixed, n, None),
        },
        0..=6 => rule::<1, true>(&free[..k], fixed, n, layers),
        7 => rule::<2, true>(&free[..k], fixed, n, layers),
        8 => rule::<4, true>(&free[..k], fixed, n, layers),
        _ => rule::<8, true>(&free[..k], fixed, n, None),
    }?;
    if let Some(l) = live {
        let (first, last) = skips(fixed, n);
        for (a, &i) in l.at.iter_mut().zip(&at[..k]) {
            *a = i as u8;
        }
        l.k = k as u8;
        l.w = match k {
            0..=6 => 1,
            7 => 2,
            _ => 4,
        };
        l.n = n as u8;
        l.fixed = fixed;
        l.first = first as u8;
        l.last = last as u8;
        l.must = must;
    }
    let mut allowed = [0u16; 16];
    for (a, &m) in allowed.iter_mut().zip(masks) {
        if m.count_ones() == 1 {
            *a = m;
        }
    }
    for (j, &i) in at[..k].iter().enumerate() {
        allowed[i] = free_allowed[j];
    }
    Some((allowed, must))
}

/// [`run_rule`] over the cells `free` (states in `W` words, `2^len <= 64 W`) beside cells
/// fixed to the digits `fixed` (distinct, at most `n`): per free cell its candidates on
/// some placement, and the digits every placement uses.
fn rule<const W: usize, const FIXED: bool>(
    free: &[u16],
    fixed: u16,
    n: usize,
    live: Option<&mut [u64; 40]>,
) -> Option<([u16; 16], u16)> {
    let len = free.len();
    let full = (1usize << len) - 1;
    let (fw, fb) = (full / 64, 1u64 << (full % 64));
    let (first, last) = skips(fixed, n);
    // forward[d]: states reachable once digits 1..=d are dealt with.
    let mut forward = [[0u64; W]; 17];
    forward[0][0] = 1;
    for d in 1..=n {
        let bit = 1u16 << (d - 1);
        let prev = forward[d - 1];
        if FIXED && fixed & bit != 0 {
            // Its fixed cell takes `d`: the state stays.
            forward[d] = prev;
            continue;
        }
        let mut next = [0u64; W];
        for (c, &m) in free.iter().enumerate() {
            if m & bit != 0 {
                let y = add(&prev, c);
                for w in 0..W {
                    next[w] |= y[w];
                }
            }
        }
        // Skipped digit: the run has not started, or is complete.
        if !FIXED || d < first {
            next[0] |= prev[0] & 1;
        }
        if !FIXED || d > last {
            next[fw] |= prev[fw] & fb;
        }
        forward[d] = next;
    }
    if !has(&forward[n], full) {
        return None;
    }
    // backward[d]: states after digit d from which the line can be completed.
    let mut backward = [[0u64; W]; 17];
    backward[n][fw] = fb;
    let mut allowed = [0u16; 16];
    let mut must = 0u16;
    for d in (1..=n).rev() {
        let bit = 1u16 << (d - 1);
        let after = backward[d];
        if FIXED && fixed & bit != 0 {
            // A fixed digit is in every placement.
            must |= bit;
            backward[d - 1] = after;
            continue;
        }
        let before = &forward[d - 1];
        let mut prev = [0u64; W];
        for (c, &m) in free.iter().enumerate() {
            if m & bit != 0 {
                let y = take(&after, c);
                // A placement gives `d` to `c`: some state before `d` without `c` leads on.
                if (0..W).any(|w| y[w] & before[w] != 0) {
                    allowed[c] |= bit;
                }
                for w in 0..W {
                    prev[w] |= y[w];
                }
            }
        }
        let mut skip = false;
        if !FIXED || d < first {
            prev[0] |= after[0] & 1;
            skip |= before[0] & after[0] & 1 != 0;
        }
        if !FIXED || d > last {
            prev[fw] |= after[fw] & fb;
            skip |= before[fw] & after[fw] & fb != 0;
        }
        if !skip {
            must |= bit;
        }
        backward[d - 1] = prev;
    }
    if let Some(out) = live {
        for (k, (f, b)) in forward.iter().zip(&backward).enumerate().take(n + 1) {
            for w in 0..W {
                if let Some(o) = out.get_mut(k * W + w) {
                    *o = f[w] & b[w];
                }
            }
        }
    }
    Some((allowed, must))
}

/// The run holds every fixed digit: it may not start after the lowest, nor end before the
/// highest (with none fixed, it may start and end anywhere). Digits below the first bound
/// and above the second may be skipped.
fn skips(fixed: u16, n: usize) -> (usize, usize) {
    match fixed {
        0 => (n + 1, 0),
        f => (
            f.trailing_zeros() as usize + 1,
            16 - f.leading_zeros() as usize,
        ),
    }
}

/// The run rule on `masks`, packed as the forcing engine reads it (per cell the digits
/// allowed at bits `9 i..`, the digits every placement holds at 81 to 89, bit 127 for no
/// placement), for a line whose closed state left live states `live` and that has since
/// lost the candidates `removed` (packed 9 bits a cell as the forcing engine's closed keys
/// are), all of one digit. None when this does not apply (then the rule runs afresh).
///
/// Only the layers next to that digit lose edges, so the live states change only from
/// there on: forward, a live state stays reachable while it keeps a predecessor left
/// reachable (restricted to the live states, since a state outside them is on no
/// placement); backward, completable while it keeps such a successor. Each side stops at
/// the first layer it leaves whole (the layers beyond keep their states), and only the
/// candidates and skips between layers that changed are read again.
pub fn rule_after(
    live: &Live,
    masks: &[u16],
    removed: u128,
    next: Option<&mut Live>,
) -> Option<u128> {
    match live.w {
        1 => after::<1>(live, masks, removed, next),
        2 => after::<2>(live, masks, removed, next),
        4 => after::<4>(live, masks, removed, next),
        _ => None,
    }
}

fn after<const W: usize>(
    live: &Live,
    masks: &[u16],
    removed: u128,
    next: Option<&mut Live>,
) -> Option<u128> {
    let k = usize::from(live.k);
    let n = usize::from(live.n);
    let at = live.at.get(..k)?;
    let mut free = [0u16; 9];
    let mut free_bits = 0u128;
    for (f, &i) in free.iter_mut().zip(at) {
        let i = usize::from(i);
        *f = *masks.get(i)?;
        free_bits |= 0x1FFu128 << (9 * i);
    }
    if removed == 0 || removed & !free_bits != 0 || n > 9 {
        return None;
    }
    let mut digits = 0u16;
    for &i in at {
        digits |= (removed >> (9 * u32::from(i))) as u16 & 0x1FF;
    }
    if digits == 0 || digits & live.fixed != 0 || u32::from(digits) >> n != 0 {
        return None;
    }
    // Layers `dlo - 1` and below keep their reachable states, `dhi` and above their
    // completable ones.
    let dlo = digits.trailing_zeros() as usize + 1;
    let dhi = 16 - digits.leading_zeros() as usize;
    let full = (1usize << k) - 1;
    let (fw, fb) = (full / 64, 1u64 << (full % 64));
    let (first, last) = (usize::from(live.first), usize::from(live.last));
    let mut old = [[0u64; W]; 10];
    for (j, l) in old.iter_mut().enumerate().take(n + 1) {
        for (w, v) in l.iter_mut().enumerate() {
            *v = live.layers.get(j * W + w).copied().unwrap_or(0);
        }
    }
    // Forward from layer `dlo`: `hi` is the first layer at or past `dhi` left whole.
    let mut fore = old;
    let mut hi = n + 1;
    for e in dlo..=n {
        let bit = 1u16 << (e - 1);
        let prev = fore[e - 1];
        let mut next = [0u64; W];
        if live.fixed & bit != 0 {
            next = prev;
        } else {
            for (c, &m) in free[..k].iter().enumerate() {
                if m & bit != 0 {
                    let y = add(&prev, c);
                    for w in 0..W {
                        next[w] |= y[w];
                    }
                }
            }
            if e < first {
                next[0] |= prev[0] & 1;
            }
            if e > last {
                next[fw] |= prev[fw] & fb;
            }
        }
        for w in 0..W {
            next[w] &= old[e][w];
        }
        fore[e] = next;
        if e >= dhi && next == old[e] {
            hi = e;
            break;
        }
    }
    if hi == n + 1 && !has(&fore[n], full) {
        return Some(1 << 127);
    }
    // Backward from layer `dhi - 1`: `lo` is the first layer below `dlo` left whole.
    let mut back = old;
    let mut lo = None;
    for e in (1..=dhi).rev() {
        let bit = 1u16 << (e - 1);
        let after = back[e];
        let mut prev = [0u64; W];
        if live.fixed & bit != 0 {
            prev = after;
        } else {
            for (c, &m) in free[..k].iter().enumerate() {
                if m & bit != 0 {
                    let y = take(&after, c);
                    for w in 0..W {
                        prev[w] |= y[w];
                    }
                }
            }
            if e < first {
                prev[0] |= after[0] & 1;
            }
            if e > last {
                prev[fw] |= after[fw] & fb;
            }
        }
        for w in 0..W {
            prev[w] &= old[e - 1][w];
        }
        back[e - 1] = prev;
        if e - 1 < dlo && prev == old[e - 1] {
            lo = Some(e - 1);
            break;
        }
    }
    let lo = match lo {
        Some(lo) => lo,
        None if has(&back[0], 0) => 0,
        None => return Some(1 << 127),
    };
    // The live states now: reachable and completable.
    let mut now = old;
    for e in lo..=hi.min(n) {
        for w in 0..W {
            now[e][w] = fore[e][w] & back[e][w];
        }
    }
    // Candidates and skips between layers that changed (`lo + 1 ..= hi`); elsewhere the
    // candidates left keep their live edges, and the skips and fixed digits stay.
    let mut allowed = [0u16; 9];
    for (a, &m) in allowed.iter_mut().zip(&free[..k]) {
        *a = m;
    }
    let mut must = live.must;
    for e in lo + 1..=hi.min(n) {
        let bit = 1u16 << (e - 1);
        if live.fixed & bit != 0 {
            continue;
        }
        let (before, after) = (&now[e - 1], &now[e]);
        for (c, a) in allowed[..k].iter_mut().enumerate() {
            if *a & bit != 0 {
                let y = take(after, c);
                if (0..W).all(|w| y[w] & before[w] == 0) {
                    *a &= !bit;
                }
            }
        }
        let mut skip = false;
        if e < first {
            skip |= before[0] & after[0] & 1 != 0;
        }
        if e > last {
            skip |= before[fw] & after[fw] & fb != 0;
        }
        if skip {
            must &= !bit;
        } else {
            must |= bit;
        }
    }
    if let Some(to) = next {
        // The same cells and skips, the live states of now.
        for (j, l) in now.iter().enumerate().take(n + 1) {
            for (w, &v) in l.iter().enumerate() {
                if let Some(o) = to.layers.get_mut(j * W + w) {
                    *o = v;
                }
            }
        }
        to.at = live.at;
        (to.k, to.w, to.n) = (live.k, live.w, live.n);
        (to.fixed, to.first, to.last) = (live.fixed, live.first, live.last);
        to.must = must;
    }
    // Fixed cells keep their digit; free ones what is left of theirs.
    let mut p = 0u128;
    for (i, &m) in masks.iter().enumerate().take(9) {
        p |= u128::from(m & 0x1FF) << (9 * i);
    }
    for (&i, &a) in at.iter().zip(&allowed[..k]) {
        let i = 9 * u32::from(i);
        p = p & !(0x1FFu128 << i) | u128::from(a) << i;
    }
    Some(p | u128::from(must & 0x1FF) << 81)
}

#[cfg(test)]
mod tests {
    use super::run_rule;

    /// Every assignment of distinct digits to the cells, from their masks, whose digits are
    /// consecutive: the candidates used and the digits common to all.
    fn brute(masks: &[u16], max: u8) -> Option<([u16; 16], u16)> {
        fn rec(i: usize, masks: &[u16], used: u16, pick: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
            if i == masks.len() {
                out.push(pick.clone());
                return;
            }
            let mut m = masks[i] & !used;
            while m != 0 {
                let b = m & m.wrapping_neg();
                m &= m - 1;
                pick.push(b);
                rec(i + 1, masks, used | b, pick, out);
                pick.pop();
            }
        }
        let mut all = Vec::new();
        rec(0, masks, 0, &mut Vec::new(), &mut all);
        let mut allowed = [0u16; 16];
        let mut must = u16::MAX;
        let mut any = false;
        for p in all {
            let held = p.iter().fold(0u16, |a, &b| a | b);
            let lo = held.trailing_zeros();
            let consecutive = (held >> lo).count_ones() == p.len() as u32
                && (held >> lo) == (1 << p.len()) - 1
                && 16 - held.leading_zeros() <= u32::from(max);
            if consecutive {
                for (a, &b) in allowed.iter_mut().zip(&p) {
                    *a |= b;
                }
                must &= held;
                any = true;
            }
        }
        any.then_some((allowed, must))
    }

    /// The rule agrees with brute force on random lines of every length up to nine.
    #[test]
    fn the_run_rule_matches_brute_force() {
        let mut next = super::super::testutil::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut feasible = 0;
        for round in 0..1500 {
            let len = 1 + round % 9;
            let masks: Vec<u16> = (0..len)
                .map(|_| {
                    // Dense enough that many lines still have a placement.
                    let m = (next() & 0x1FF) as u16 | (next() & 0x1FF) as u16;
                    if m == 0 {
                        1
                    } else {
                        m
                    }
                })
                .collect();
            let want = brute(&masks, 9);
            feasible += usize::from(want.is_some());
            assert_eq!(run_rule(&masks, 9), want, "{masks:?}");
        }
        assert!(
            feasible > 150,
            "too few feasible lines to mean much: {feasible}"
        );
    }
    /// Lines with placed cells (one candidate) agree with brute force too: placed digits
    /// inside, below and above the run, the same digit placed twice, lines of placed cells
    /// only, and runs up to a largest digit other than 9.
    #[test]
    fn fixed_cells_agree_with_brute_force() {
        let mut next = super::super::testutil::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let (mut feasible, mut with_fixed) = (0, 0);
        for round in 0..3000 {
            let len = 1 + round % 9;
            let max = if round % 5 == 0 {
                9.max(len as u8 + 2)
            } else {
                9
            };
            let masks: Vec<u16> = (0..len)
                .map(|_| {
                    if next().is_multiple_of(3) {
                        1 << (next() % u64::from(max))
                    } else {
                        let m = (next() as u16 | next() as u16) & ((1 << max) - 1);
                        m.max(1)
                    }
                })
                .collect();
            let want = brute(&masks, max);
            feasible += usize::from(want.is_some());
            with_fixed += usize::from(want.is_some() && masks.iter().any(|m| m.count_ones() == 1));
            assert_eq!(run_rule(&masks, max), want, "{masks:?} max {max}");
        }
        assert!(
            feasible > 300 && with_fixed > 200,
            "too few feasible lines to mean much: {feasible}, {with_fixed} with a fixed cell"
        );
    }

    /// Lines cut down to what their rule allowed, then losing candidates of one digit:
    /// the answer from the kept live states is the rule's on the new masks.
    #[test]
    fn answers_after_a_removal_match_the_rule() {
        let mut next = super::super::testutil::xorshift(0xD1B5_4A32_D192_ED03u64);
        let pack = |r: Option<([u16; 16], u16)>, len: usize| match r {
            None => 1u128 << 127,
            Some((allowed, must)) => {
                let mut p = u128::from(must) << 81;
                for (i, &a) in allowed[..len].iter().enumerate() {
                    p |= u128::from(a) << (9 * i);
                }
                p
            }
        };
        let (mut asked, mut changed, mut broken) = (0, 0, 0);
        for round in 0..4000 {
            let len = 2 + round % 7;
            let masks: Vec<u16> = (0..len)
                .map(|_| {
                    if next() % 4 == 0 {
                        1 << (next() % 9)
                    } else {
                        ((next() as u16) | (next() as u16)) & 0x1FF | 1 << (next() % 9)
                    }
                })
                .collect();
            let mut live = super::Live::default();
            let Some((allowed, _)) = super::run_rule_live(&masks, 9, Some(&mut live)) else {
                continue;
            };
            if live.is_empty() {
                continue;
            }
            let closed: Vec<u16> = masks.iter().zip(&allowed).map(|(m, a)| m & a).collect();
            // Take one or more digits out of random cells holding them (free ones only: a
            // fixed cell would be left empty).
            let digits = if round % 2 == 0 {
                1 << (next() % 9)
            } else {
                (next() as u16) & 0x1FF
            };
            let mut now = closed.clone();
            let mut removed = 0u128;
            for (i, m) in now.iter_mut().enumerate() {
                for d in 0..9 {
                    if digits & *m & 1 << d != 0 && m.count_ones() > 1 && next() % 2 == 0 {
                        *m &= !(1 << d);
                        removed |= 1u128 << (9 * i + d as usize);
                    }
                }
            }
            if removed == 0 {
                continue;
            }
            let mut after = super::Live::default();
            let got = super::rule_after(&live, &now, removed, Some(&mut after));
            // The live states left answer for the line's next closed state too.
            if let Some(p) = got.filter(|p| p >> 127 == 0) {
                let closed2: Vec<u16> = (0..len).map(|i| (p >> (9 * i)) as u16 & 0x1FF).collect();
                for (i, m) in closed2.iter().enumerate() {
                    for d in 0..9 {
                        if *m & 1 << d != 0 && m.count_ones() > 1 && next() % 3 == 0 {
                            let mut less = closed2.clone();
                            less[i] &= !(1 << d);
                            let r = 1u128 << (9 * i + d);
                            assert_eq!(
                                super::rule_after(&after, &less, r, None),
                                Some(pack(super::run_rule(&less, 9), len)),
                                "{masks:?} -> {now:?} -> {less:?}"
                            );
                        }
                    }
                }
            }
            if masks.iter().all(|m| m.count_ones() > 1) || got.is_some() {
                // Without fixed cells every removal is in a free cell, so it applies.
                let want = pack(super::run_rule(&now, 9), len);
                assert_eq!(got, Some(want), "{masks:?} -> {now:?}");
                asked += 1;
                changed += usize::from(
                    want >> 127 == 0
                        && want & ((1 << 81) - 1) != {
                            let mut k = 0u128;
                            for (i, &m) in now.iter().enumerate() {
                                k |= u128::from(m) << (9 * i);
                            }
                            k
                        },
                );
                broken += usize::from(want >> 127 == 1);
            }
        }
        assert!(
            asked > 500 && changed > 50 && broken > 20,
            "too few cases to mean much: {asked} asked, {changed} changed, {broken} broken"
        );
    }

    /// A row of 7 with 4 and 6 placed: the run is 1-7, 2-8 or 3-9, and holds 3 to 7; with
    /// 9 placed too it can only be 3-9; with 1 placed as well no run is left.
    #[test]
    fn placed_digits_bound_the_run() {
        let any = 0x1FF;
        let (four, six, nine) = (1 << 3, 1 << 5, 1 << 8);
        let (allowed, must) = run_rule(&[any, four, any, six, any, any, any], 9).expect("feasible");
        assert_eq!(
            allowed[0],
            any & !four & !six,
            "any digit but the placed ones"
        );
        assert_eq!(allowed[1], four);
        assert_eq!(must, 0b111_1100, "3 to 7 in every run");
        let (allowed, must) =
            run_rule(&[any, four, any, six, any, any, nine], 9).expect("feasible");
        assert_eq!(allowed[0], 0b0_1101_0100, "3, 5, 7 or 8");
        assert_eq!(must, 0b1_1111_1100, "3 to 9 in every run");
        assert_eq!(run_rule(&[1, four, any, six, any, any, nine], 9), None);
    }
}
