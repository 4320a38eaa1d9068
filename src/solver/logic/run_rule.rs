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
//! 0.8-0.95x per call. The cell steps masked alone (no bounds, no padding), rating the first
//! 6 lines of hc25 on one core, base/masked: 11.18/12.30, 12.51/12.03, 11.61/12.65 s.
//!
//! Also dropped (issue 22, hs9): answering a line from the *live states* of its closed
//! state (per digit layer, the states both reachable and completable; kept in the memo per
//! closed key on every rule computed afresh). Exact, and tested against this rule: the
//! candidates removed since lose edges only in their digits' layers, so a forward pass from
//! the lowest such layer and a backward pass from the highest, each restricted to the live
//! states and stopped at the first layer left whole, give the new live states, and the
//! candidates and skips are read again only between changed layers. Counted on hc25 puzzle
//! 12 (`rate`): of 3,385,369 direct asks on masks inside the branch's closed ones, 970,381
//! found live states kept (a third of rules come from the direct table, which keeps none),
//! and 805,028 of those (83%) change nothing, but only 21,042 (2%) keep every live state (a
//! single removal nearly always kills a state, such as the run starting on it), so "no live
//! state lost" as a cheap test of "nothing changes" is no use: hc25 on one core 53.01 ->
//! 55.17 s. The full answer from one removed digit served 449,561 asks; with several digits
//! and the new live states kept for the next closed state (chains of removals), the
//! restricted passes cost about what they save (perf, hc25 lines 4-6: the rule 20.3% ->
//! 16.0% of the time, the passes from live states 9.9%) and the copies of live states on
//! every computed rule tip it: the first 6 lines of hc25, base/new, one core: 8.78/10.20,
//! 8.64/10.77, 9.51/10.45 s (one digit only: 9.18/9.95, 9.52/10.65, 9.28/10.59 s). Output
//! identical (`cmp`) in every variant. The code: commit 48a26cb (reverted).

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
    let (free_allowed, must) = match k {
        // Without fixed cells the checks for them compile away.
        _ if fixed == 0 => match k {
            0..=6 => rule::<1, false>(&free[..k], fixed, n),
            7 => rule::<2, false>(&free[..k], fixed, n),
            8 => rule::<4, false>(&free[..k], fixed, n),
            _ => rule::<8, false>(&free[..k], fixed, n),
        },
        0..=6 => rule::<1, true>(&free[..k], fixed, n),
        7 => rule::<2, true>(&free[..k], fixed, n),
        8 => rule::<4, true>(&free[..k], fixed, n),
        _ => rule::<8, true>(&free[..k], fixed, n),
    }?;
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
) -> Option<([u16; 16], u16)> {
    let len = free.len();
    let full = (1usize << len) - 1;
    let (fw, fb) = (full / 64, 1u64 << (full % 64));
    // The run holds every fixed digit: it may not start after the lowest, nor end before
    // the highest (with none fixed, it may start and end anywhere).
    let (first, last) = match fixed {
        0 => (n + 1, 0),
        f => (
            f.trailing_zeros() as usize + 1,
            16 - f.leading_zeros() as usize,
        ),
    };
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
    Some((allowed, must))
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
