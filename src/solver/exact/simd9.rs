//! The first propagation of the 9x9 exact solver in AVX-512 lanes, then `fast9`'s search
//! (x86_64 with AVX-512F/BW and BMI2; `fast9` stays the portable path and the reference).
//!
//! State: one 512-bit vector per band; lane `d` (0..9) holds the 27-bit mask of the band's
//! cells where digit `d + 1` may go (bit = row_in_band * 9 + column, as in `fast9`), lanes
//! 9..16 stay zero. A digit whose row of the band holds one cell is placed there. The rules
//! are `fast9`'s, each one lane-wise over all nine digits:
//! - band rules, on the three bands at once until stable: the (row, box) permutation filter
//!   as bit arithmetic (a (row, box) triad stays when the other two rows can take the other
//!   two boxes), then every placed cell leaves the other digits (an OR across the lanes) and
//!   its column leaves the same digit in the other two bands;
//! - naked singles: cells with one candidate digit (counted across lanes) are placed;
//! - column rules: the permutation filter on (band, column) inside each stack and hidden
//!   singles in columns, lane-wise across the three band vectors.
//!
//! The givens are read 64 cells a vector (a byte compare per digit) and only placed (alone
//! in their row, off the other digits of their cell); the rules above do the rest. At the
//! fixpoint every placed cell has left the other digits and its column in the other bands,
//! which is the state `fast9::search_settled` continues from.
//!
//! Why only the first propagation (issue 23; thread CPU time, solve + uniqueness, A B
//! alternated against `fast9` alone). Pays: 17-clue puzzles are mostly that first
//! propagation (2.4 nodes a puzzle), where many digits change at once: 1.13x, 1.06x more
//! with the givens read in vectors instead of `fast9`'s per-given peer clearing, 1.03x more
//! handing `fast9` its placed cells; in all 1.27x. Against the `sudoku` crate (parse, solve
//! and uniqueness, thread CPU): 1.02x before, 1.30x after; top1465 1.32x -> 1.38x;
//! forum-hardest even at 1.23x.
//!
//! Does not pay: the whole search in lanes. With `fast9`'s branching (same 165 nodes a
//! puzzle on forum-hardest) it was 0.86-0.93x: a node changes one or two digits, and the
//! lanes do all nine. Band by band until each is stable, 10 band passes a node (against 13.7 scalar
//! updates), each a latency chain of ~60 vector ops: 0.86x. The three bands at once
//! (independent chains), 6.1 rounds a node, ~190 ops a round: 0.91-0.93x; no hot spot left
//! in the profile, just op count. Only the bands whose masks changed, round by round: 10.1
//! band passes a node, each waiting on the last: 0.81x. A gain there needs fewer ops a
//! round than 3 vectors of 16 lanes for 27 masks (all 729 candidate bits fit in 2), e.g.
//! tdoku's cell-major box layout, where placements and hidden singles stay inside a lane
//! group.
//!
//! That layout does not pay either (issue 23, round 3; commit a2c7484 holds it as
//! `triad9.rs`): tdoku's DPLL triad design (per box 16 u16 lanes, cells plus absent
//! triads; per band the six configurations per digit; AVX2 with the AVX-512 popcount and
//! rotate), as the search after this first propagation, against `fast9`'s search: 0.99x on
//! forum-hardest, 0.93x top1465, 0.87x 17-clue; from the givens 1.00-1.09x, 0.82x, 0.49x
//! (thread CPU, solve + uniqueness, alternated, medians). It runs at tdoku's own speed
//! (0.95-0.97x tdoku compiled with g++ -O3 -march=native, 62.7 search calls a
//! forum-hardest puzzle against tdoku's 61.7 guesses), and tdoku counting to 2 is itself
//! only 1.21-1.31x the `sudoku` crate on forum-hardest, 1.14-1.37x on top1465 and
//! 0.69-0.77x on 17-clue here: about this path's ratios. The 1.63-1.91x for tdoku
//! do not show at limit 2; at limit 1 (first solution, no uniqueness) tdoku is 2.31-2.48x
//! and 1.84-1.87x, this path 2.29x and 2.19x (both against the crate counting to 2).

use std::arch::x86_64::*;

use super::fast9::{search_settled, Settled};

/// Mask of the 27 cells of a band.
const BAND: i32 = (1 << 27) - 1;
/// Cells of each band row.
const ROW: [i32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];
/// The first cell of each band row (for a per-row decrement).
const ROW_FIRST: i32 = 1 | 1 << 9 | 1 << 18;
/// The first cell of every (row, box) triad.
const TRIAD: i32 = 0o111_111_111;
/// Triad bits of boxes 0 and 1 / box 2 / box 0 / boxes 1 and 2, in every row.
const BOX01: i32 = 0o011_011_011;
const BOX2: i32 = 0o100_100_100;
const BOX0: i32 = 0o001_001_001;
const BOX12: i32 = 0o110_110_110;
/// Columns 0, 1 / column 2 of every stack (9-bit column sets).
const COL01: i32 = 0o333;
const COL2: i32 = 0o444;
const COL0: i32 = 0o111;
const COL12: i32 = 0o666;
/// Lanes holding a digit.
const DIGITS: u16 = 0x1ff;

/// True when this CPU runs the SIMD path (AVX-512 Foundation and Byte/Word, BMI2).
/// `is_x86_feature_detected!` caches its answer, and the check runs once a solve, outside
/// the search.
pub fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("bmi2")
}

/// Solves like `fast9::solve9` (same contract), or returns None when this CPU lacks the
/// features (see [`available`]).
pub fn solve9(givens: &[u8; 81], limit: usize, solution: &mut [u8; 81]) -> Option<usize> {
    if !available() {
        return None;
    }
    if limit == 0 {
        return Some(0);
    }
    #[allow(unsafe_code)]
    // SAFETY: `available()` has just confirmed every feature `solve_avx512` is compiled for.
    let count = unsafe { solve_avx512(givens, limit, solution) };
    Some(count)
}

#[derive(Clone, Copy)]
struct State {
    /// Per band, lane `d`: the cells where digit `d` may go.
    c: [__m512i; 3],
}

/// OR of the lanes, in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn or_lanes(v: __m512i) -> __m512i {
    let v = _mm512_or_si512(v, _mm512_shuffle_i32x4::<0b01_00_11_10>(v, v));
    let v = _mm512_or_si512(v, _mm512_shuffle_i32x4::<0b10_11_00_01>(v, v));
    let v = _mm512_or_si512(v, _mm512_shuffle_epi32::<_MM_PERM_BADC>(v));
    _mm512_or_si512(v, _mm512_shuffle_epi32::<_MM_PERM_CDAB>(v))
}

/// Cells present in at least one lane and in at least two lanes, in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn ones_twos(v: __m512i) -> (__m512i, __m512i) {
    let (mut o, mut t) = (v, _mm512_setzero_si512());
    macro_rules! step {
        ($sh:expr) => {
            let (so, st) = ($sh(o), $sh(t));
            t = _mm512_or_si512(_mm512_or_si512(t, st), _mm512_and_si512(o, so));
            o = _mm512_or_si512(o, so);
        };
    }
    step!(|x| _mm512_shuffle_i32x4::<0b01_00_11_10>(x, x));
    step!(|x| _mm512_shuffle_i32x4::<0b10_11_00_01>(x, x));
    step!(_mm512_shuffle_epi32::<_MM_PERM_BADC>);
    step!(_mm512_shuffle_epi32::<_MM_PERM_CDAB>);
    (o, t)
}

/// Lane 0 as an integer.
#[target_feature(enable = "avx512f")]
#[inline]
fn lane0(v: __m512i) -> u32 {
    _mm_cvtsi128_si32(_mm512_castsi512_si128(v)) as u32
}

/// Lane-wise `x >> N` / `x << N` and a broadcast constant.
macro_rules! shr {
    ($x:expr, $n:literal) => {
        _mm512_srli_epi32::<$n>($x)
    };
}
macro_rules! shl {
    ($x:expr, $n:literal) => {
        _mm512_slli_epi32::<$n>($x)
    };
}
macro_rules! k {
    ($c:expr) => {
        _mm512_set1_epi32($c)
    };
}

/// `a & m` / `a | b` / `a & !m` with short names (the compiler fuses them into ternary-logic
/// instructions).
macro_rules! and {
    ($a:expr, $b:expr) => {
        _mm512_and_si512($a, $b)
    };
}
macro_rules! or {
    ($a:expr, $b:expr) => {
        _mm512_or_si512($a, $b)
    };
}
macro_rules! andn {
    ($a:expr, $m:expr) => {
        _mm512_andnot_si512($m, $a)
    };
}

/// The (row, box) permutation filter on every lane: keeps the cells whose triad lies on a
/// row -> box permutation of present triads. A lane left empty cannot hold its digit.
#[target_feature(enable = "avx512f")]
#[inline]
fn permutation_filter(a: __m512i) -> __m512i {
    let t = and!(or!(or!(a, shr!(a, 1)), shr!(a, 2)), k!(TRIAD));
    // Triad (r, k) takes triad (r, k + 1) / (r, k + 2), boxes counted mod 3.
    let k1 = or!(and!(shr!(t, 3), k!(BOX01)), and!(shl!(t, 6), k!(BOX2)));
    let k2 = or!(and!(shr!(t, 6), k!(BOX0)), and!(shl!(t, 3), k!(BOX12)));
    // Row r takes row r + 1 / r + 2, rows counted mod 3.
    macro_rules! r1 {
        ($x:expr) => {
            and!(or!(shr!($x, 9), shl!($x, 18)), k!(BAND))
        };
    }
    macro_rules! r2 {
        ($x:expr) => {
            and!(or!(shr!($x, 18), shl!($x, 9)), k!(BAND))
        };
    }
    let p = and!(t, or!(and!(r1!(k1), r2!(k2)), and!(r1!(k2), r2!(k1))));
    and!(a, or!(or!(p, shl!(p, 1)), shl!(p, 2)))
}

/// Per lane, the cells of the rows selected where `k_r` has the lane's bit.
#[target_feature(enable = "avx512f")]
#[inline]
fn rows_where(k0: __mmask16, k1: __mmask16, k2: __mmask16) -> __m512i {
    let v = _mm512_maskz_mov_epi32(k0, k!(ROW[0]));
    let v = _mm512_mask_or_epi32(v, k1, v, k!(ROW[1]));
    _mm512_mask_or_epi32(v, k2, v, k!(ROW[2]))
}

/// Per lane, the cells alone in their row (the placed cells; every row is non-empty
/// after the permutation filter).
#[target_feature(enable = "avx512f")]
#[inline]
fn placed(a: __m512i) -> __m512i {
    let [k0, k1, k2] = single_rows(a);
    and!(a, rows_where(k0, k1, k2))
}

/// Per band row, the lanes where that row holds at most one cell.
#[target_feature(enable = "avx512f")]
#[inline]
fn single_rows(a: __m512i) -> [__mmask16; 3] {
    let y = and!(a, _mm512_sub_epi32(a, k!(ROW_FIRST)));
    [
        _mm512_testn_epi32_mask(y, k!(ROW[0])),
        _mm512_testn_epi32_mask(y, k!(ROW[1])),
        _mm512_testn_epi32_mask(y, k!(ROW[2])),
    ]
}

/// Per lane, the cells of the rows where `x` has a cell.
#[target_feature(enable = "avx512f")]
#[inline]
fn rows_of(x: __m512i) -> __m512i {
    rows_where(
        _mm512_test_epi32_mask(x, k!(ROW[0])),
        _mm512_test_epi32_mask(x, k!(ROW[1])),
        _mm512_test_epi32_mask(x, k!(ROW[2])),
    )
}

/// 9-bit set of the columns where a lane has cells.
#[target_feature(enable = "avx512f")]
#[inline]
fn fold(a: __m512i) -> __m512i {
    and!(or!(or!(a, shr!(a, 9)), shr!(a, 18)), k!(0x1ff))
}

/// A 9-bit column set spread over the three rows of a band.
#[target_feature(enable = "avx512f")]
#[inline]
fn col_cells(f: __m512i) -> __m512i {
    or!(or!(f, shl!(f, 9)), shl!(f, 18))
}

/// Column `c` of each stack takes column `c + 1` / `c + 2` (mod 3) of that stack.
#[target_feature(enable = "avx512f")]
#[inline]
fn rot1(x: __m512i) -> __m512i {
    or!(and!(shr!(x, 1), k!(COL01)), and!(shl!(x, 2), k!(COL2)))
}
#[target_feature(enable = "avx512f")]
#[inline]
fn rot2(x: __m512i) -> __m512i {
    or!(and!(shr!(x, 2), k!(COL0)), and!(shl!(x, 1), k!(COL12)))
}

/// A vector from 16 lanes.
#[target_feature(enable = "avx512f")]
#[inline]
fn vector(x: [i32; 16]) -> __m512i {
    _mm512_setr_epi32(
        x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13],
        x[14], x[15],
    )
}

/// The state with every given placed: alone in its row for its digit and off the other
/// digits (its box, column and peers are left to `settle`; so are clashes, which end up as
/// an empty digit or cell there, or as two cells placed in one row that `fast9` rejects).
/// None when a value is over 9.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn from_givens(givens: &[u8; 81]) -> Option<State> {
    // Eight cells a lane of 64 bits: cells 0..64 in `lo`, 64..81 in `hi`.
    let c = |k: usize| {
        let mut b = [0u8; 8];
        for (i, x) in b.iter_mut().enumerate() {
            *x = givens.get(8 * k + i).copied().unwrap_or(0);
        }
        i64::from_le_bytes(b)
    };
    let lo = _mm512_set_epi64(c(7), c(6), c(5), c(4), c(3), c(2), c(1), c(0));
    let hi = _mm512_set_epi64(0, 0, 0, 0, 0, c(10), c(9), c(8));
    let nine = _mm512_set1_epi8(9);
    if _mm512_cmpgt_epu8_mask(lo, nine) | _mm512_cmpgt_epu8_mask(hi, nine) != 0 {
        return None;
    }
    // Per digit, the cells holding it: bit k of `a` is cell k, bit k of `h` cell 64 + k.
    let mut cells = [(0u64, 0u64); 9];
    for (d, m) in (1i8..).zip(cells.iter_mut()) {
        let v = _mm512_set1_epi8(d);
        *m = (_mm512_cmpeq_epi8_mask(lo, v), _mm512_cmpeq_epi8_mask(hi, v));
    }
    let band = |b: usize, (a, h): (u64, u64)| {
        let bits = match b {
            0 => a,
            1 => a >> 27,
            _ => (a >> 54) | (h << 10),
        };
        (bits & BAND as u64) as i32
    };
    let mut st = State {
        c: [_mm512_setzero_si512(); 3],
    };
    for (b, c) in st.c.iter_mut().enumerate() {
        let p = vector(std::array::from_fn(|d| {
            cells.get(d).map_or(0, |&m| band(b, m))
        }));
        let open = andn!(k!(BAND), or_lanes(p));
        let a = _mm512_maskz_mov_epi32(DIGITS, or!(open, p));
        *c = or!(andn!(a, rows_of(p)), p);
    }
    Some(st)
}

/// The first propagation in SIMD, then `fast9`'s search from the settled masks.
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
fn solve_avx512(givens: &[u8; 81], limit: usize, solution: &mut [u8; 81]) -> usize {
    let Some(mut st) = from_givens(givens) else {
        return 0;
    };
    if !st.settle() {
        return 0;
    }
    search_settled(st.settled(), limit, solution)
}

/// The two bands other than `b`.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

impl State {
    /// Band rules on all three bands at once (three independent dependency chains), until
    /// they are stable. False on contradiction.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn bands(&mut self) -> bool {
        let mut c = self.c;
        loop {
            let f = [
                permutation_filter(c[0]),
                permutation_filter(c[1]),
                permutation_filter(c[2]),
            ];
            let ok = _mm512_test_epi32_mask(f[0], f[0])
                & _mm512_test_epi32_mask(f[1], f[1])
                & _mm512_test_epi32_mask(f[2], f[2]);
            if ok & DIGITS != DIGITS {
                return false;
            }
            let p = [placed(f[0]), placed(f[1]), placed(f[2])];
            let cols = [
                col_cells(fold(p[0])),
                col_cells(fold(p[1])),
                col_cells(fold(p[2])),
            ];
            // Placed cells leave the other digits of the band, and their columns leave the
            // digit in the other bands.
            let mut n = [f[0]; 3];
            let mut same = true;
            for b in 0..3 {
                let [o1, o2] = OTHER[b];
                let x = or!(andn!(f[b], or_lanes(p[b])), p[b]);
                n[b] = andn!(x, or!(cols[o1], cols[o2]));
                same &= _mm512_cmpneq_epi32_mask(n[b], c[b]) == 0;
            }
            if same {
                break;
            }
            c = n;
        }
        self.c = c;
        true
    }

    /// Places every naked single of every band; marks the bands changed. False when a
    /// cell has no candidate left.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn naked_singles(&mut self, changed: &mut bool) -> bool {
        for b in 0..3 {
            let a = self.c[b];
            let (o, t) = ones_twos(a);
            if _mm512_cmpneq_epi32_mask(o, k!(BAND)) & 1 != 0 {
                return false;
            }
            let x = andn!(a, t);
            let n = or!(andn!(a, rows_of(x)), x);
            if _mm512_cmpneq_epi32_mask(n, a) != 0 {
                self.c[b] = n;
                *changed = true;
            }
        }
        true
    }

    /// Column rules for all digits at once: the permutation filter on (band, column) in
    /// each stack, then hidden singles in columns. False on contradiction.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn column_rules(&mut self, changed: &mut bool) -> bool {
        let f = [fold(self.c[0]), fold(self.c[1]), fold(self.c[2])];
        let r1 = [rot1(f[0]), rot1(f[1]), rot1(f[2])];
        let r2 = [rot2(f[0]), rot2(f[1]), rot2(f[2])];
        let mut c = self.c;
        let (mut ones, mut twos) = (_mm512_setzero_si512(), _mm512_setzero_si512());
        for b in 0..3 {
            let [o1, o2] = OTHER[b];
            let allow = and!(f[b], or!(and!(r1[o1], r2[o2]), and!(r2[o1], r1[o2])));
            let a = and!(c[b], col_cells(allow));
            c[b] = a;
            let (x0, x1, x2) = (and!(a, k!(0x1ff)), and!(shr!(a, 9), k!(0x1ff)), shr!(a, 18));
            let any = or!(or!(x0, x1), x2);
            let two = _mm512_ternarylogic_epi32::<0xe8>(x0, x1, x2);
            twos = or!(or!(twos, two), and!(ones, any));
            ones = or!(ones, any);
        }
        if _mm512_cmpneq_epi32_mask(ones, k!(0x1ff)) & DIGITS != 0 {
            return false;
        }
        let single = col_cells(andn!(ones, twos));
        for (mine, a) in self.c.iter_mut().zip(c) {
            let x = and!(a, single);
            let n = or!(andn!(a, rows_of(x)), x);
            if _mm512_cmpneq_epi32_mask(n, *mine) != 0 {
                *mine = n;
                *changed = true;
            }
        }
        true
    }

    /// Band rules, naked singles and column rules to a fixpoint. False on contradiction.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn settle(&mut self) -> bool {
        loop {
            if !self.bands() {
                return false;
            }
            let mut changed = false;
            if !self.naked_singles(&mut changed) {
                return false;
            }
            if !changed && !self.column_rules(&mut changed) {
                return false;
            }
            if !changed {
                break;
            }
        }
        // A cell placed for two digits stays so (`fast9` would find out later, as an
        // empty cell elsewhere): a contradiction.
        for b in self.c {
            let (_, twice) = ones_twos(placed(b));
            if lane0(twice) != 0 {
                return false;
            }
        }
        true
    }

    /// `fast9`'s state: the candidate masks (index `band * 9 + digit`), per band the cells
    /// not placed, and per band bit `3 * digit + row` while that row is not placed.
    #[target_feature(enable = "avx512f,bmi2")]
    fn settled(&self) -> Settled {
        let mut out = Settled {
            cand: [0; 27],
            unsolved: [0; 3],
            open_rows: [0; 3],
        };
        for (i, m) in out.cand.iter_mut().enumerate() {
            let v = _mm512_permutexvar_epi32(k!((i % 9) as i32), self.c[i / 9]);
            *m = lane0(v);
        }
        for (b, &a) in self.c.iter().enumerate() {
            let [k0, k1, k2] = single_rows(a);
            let placed = and!(a, rows_where(k0, k1, k2));
            out.unsolved[b] = BAND as u32 & !lane0(or_lanes(placed));
            // Lane d's flag to bit 3 * d + row.
            let spread =
                |k: __mmask16, row: u32| _pdep_u32(u32::from(k & DIGITS), 0o111_111_111 << row);
            out.open_rows[b] = BAND as u32 & !(spread(k0, 0) | spread(k1, 1) | spread(k2, 2));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::fast9;
    use super::{available, solve9};

    const ANSWER: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    fn parse(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (dst, &c) in g.iter_mut().zip(s.as_bytes()) {
            *dst = if c.is_ascii_digit() { c - b'0' } else { 0 };
        }
        g
    }

    /// The SIMD and portable paths give the same count at several limits, and the same
    /// solution when there is one solution (with several, each finds a valid one, checked
    /// by `fast9`: the SIMD one must be a solution of the grid too).
    fn agree(g: &[u8; 81]) {
        for limit in [1, 2, 20] {
            let (mut a, mut b) = ([0u8; 81], [0u8; 81]);
            let n = solve9(g, limit, &mut a).expect("SIMD path available");
            assert_eq!(n, fast9::solve9(g, limit, &mut b), "limit {limit}: {g:?}");
            if n == 0 {
                assert_eq!(a, [0; 81], "solution touched: {g:?}");
            } else {
                // A solved grid has exactly one solution: itself.
                assert_eq!(fast9::solve9(&a, 2, &mut b), 1, "not a solution: {a:?}");
                assert!(g.iter().zip(&a).all(|(&x, &y)| x == 0 || x == y), "{g:?}");
            }
            if fast9::solve9(g, 2, &mut b) == 1 && n == 1 {
                assert_eq!(a, b, "{g:?}");
            }
        }
    }

    fn skip() -> bool {
        if !available() {
            eprintln!("skipping: this CPU has no AVX-512F");
        }
        !available()
    }

    #[test]
    fn paths_agree_on_clue_removal_and_clashes() {
        if skip() {
            return;
        }
        let full = parse(ANSWER);
        let mut next = crate::solver::exact::fast9::tests::xorshift(0x2545_f491);
        let (mut zero, mut one, mut many) = (0, 0, 0);
        for round in 0..3000 {
            // From nearly full to nearly empty: unique, several and (after an overwrite)
            // no solutions.
            let keep = 20 + round % 60;
            let mut g = full;
            for v in g.iter_mut() {
                if next() % 100 >= keep {
                    *v = 0;
                }
            }
            if round % 3 == 2 {
                let cell = next() as usize % 81;
                g[cell] = 1 + (next() % 9) as u8;
            }
            agree(&g);
            let mut out = [0u8; 81];
            match fast9::solve9(&g, 2, &mut out) {
                0 => zero += 1,
                1 => one += 1,
                _ => many += 1,
            }
        }
        assert!(zero > 100 && one > 100 && many > 100, "{zero} {one} {many}");
    }

    #[test]
    fn paths_agree_on_random_grids() {
        if skip() {
            return;
        }
        for g in crate::solver::exact::fast9::tests::random_givens(3000) {
            agree(&g);
        }
        agree(&[0; 81]);
        let mut bad = [0u8; 81];
        bad[40] = 10;
        let mut out = [0u8; 81];
        assert_eq!(solve9(&bad, 2, &mut out), Some(0));
        assert_eq!(solve9(&parse(ANSWER), 0, &mut out), Some(0));
    }

    /// The SIMD path reads the givens itself, 64 cells a vector: a value over 9 and a clash
    /// are found at every cell, the last ones (in the second vector) included.
    #[test]
    fn givens_at_every_position() {
        if skip() {
            return;
        }
        let full = parse(ANSWER);
        let mut out = [0u8; 81];
        for cell in 0..81 {
            for v in [10u8, 0x80, 255] {
                let mut g = full;
                g[cell] = v;
                assert_eq!(solve9(&g, 2, &mut out), Some(0), "value {v} at cell {cell}");
                let mut g = [0u8; 81];
                g[cell] = v;
                assert_eq!(
                    solve9(&g, 2, &mut out),
                    Some(0),
                    "value {v} alone at {cell}"
                );
            }
            // The full grid with one cell changed to its row neighbour's digit clashes.
            let mut g = full;
            g[cell] = full[if cell % 9 == 0 { cell + 1 } else { cell - 1 }];
            assert_eq!(solve9(&g, 2, &mut out), Some(0), "clash at cell {cell}");
            assert_eq!(out, [0; 81]);
            // One cell emptied: still unique.
            let mut g = full;
            g[cell] = 0;
            assert_eq!(solve9(&g, 2, &mut out), Some(1), "empty cell {cell}");
            assert_eq!(out, full);
            out = [0; 81];
            // A lone given anywhere leaves many solutions, all keeping it.
            let mut g = [0u8; 81];
            g[cell] = full[cell];
            assert_eq!(solve9(&g, 2, &mut out), Some(2), "lone given at {cell}");
            assert_eq!(out[cell], full[cell]);
            out = [0; 81];
        }
    }

    #[test]
    fn paths_agree_on_conformance_samples() {
        if skip() {
            return;
        }
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/conformance/standard/"
        );
        for (name, step) in [
            ("17-clue.txt", 500),
            ("top1465.txt", 15),
            ("forum-hardest-1905-11plus.txt", 500),
            ("serg-multiple-solutions.txt", 50),
        ] {
            let Ok(text) = std::fs::read_to_string(format!("{dir}{name}")) else {
                eprintln!("skipping {name}: not found under {dir}");
                continue;
            };
            for line in text.lines().filter(|l| l.len() >= 81).step_by(step) {
                agree(&parse(line));
            }
        }
    }
}
