//! The 9x9 search in a cell-major, box-by-box layout with triads (x86_64, AVX2 plus the
//! AVX-512 VL/BW/BITALG/VBMI2 forms of popcount and rotate; the design of tdoku's DPLL
//! triad solver, written anew here). Entered from `simd9` after its first propagation.
//!
//! State: per box one 256-bit vector of 16 u16 lanes, a 4x4 matrix of 9-bit digit sets.
//! Lanes (i, j) with i, j < 3 are the box's cells (row i, column j of the box); lane (i, 3)
//! is the horizontal "absent" triad of box row i (the digits that may be missing from that
//! mini-row), lane (3, j) the vertical one of box column j; lane (3, 3) stays empty. Every
//! row and every column of the matrix holds each digit exactly once (a digit is in one cell
//! of a mini-row, or absent from it), every cell holds one digit, and a triad six (a
//! mini-row has three digits, so six are absent).
//!
//! Per band (three horizontal, three vertical) the digit's placements in the band are one
//! of six configurations: which mini-row (mini-column) of each of the band's three boxes it
//! takes, a permutation. A 128-bit vector holds, per configuration, the digits that may
//! still use it (lanes 0..6), plus the eliminations waiting to be applied.
//!
//! Propagation is message passing between boxes and bands:
//! - a box restricted by a band drops candidates, then asserts what its clauses force (a
//!   cell with one digit, a digit in one place of a matrix row or column, a triad down to
//!   six digits), clears the asserted digits from the rest of the box, and tells its two
//!   bands which configurations the asserted triads rule out;
//! - a band that lost configurations turns the rest into "may hold" digit sets per
//!   mini-row of each box (positive triads), asserts a mini-row that can hold only three
//!   digits, checks every digit keeps a configuration, and restricts its three boxes.
//!
//! Search branches on a band and digit with the fewest configurations left: first one
//! configuration, then its negation (DPLL).
//!
//! The solved test: every band has one configuration per digit (popcount 9 or less); the
//! grid read from the boxes is then checked as a full solution before it counts, so a
//! state whose contradiction the clauses did not catch can never be reported.
//!
//! Measured (issue 23; solve + uniqueness, thread CPU, parse included, one process, the
//! paths alternated 5 times, medians): as fast as tdoku itself, which is not faster than
//! `fast9` here. tdoku (g++ -O3 -march=native, limit 2, linked into the same harness):
//! forum-hardest 0.95-0.97x tdoku, top1465 0.92-0.97x, 17-clue 0.90x, with 62.7 search
//! calls a forum-hardest puzzle (tdoku: 61.7 guesses). Against today's path (`simd9` then
//! `fast9`): from the givens 1.00-1.09x on forum-hardest, 0.82x on top1465, 0.49x on
//! 17-clue (the triad start costs twice `simd9`'s whole first propagation); after
//! `simd9`'s first propagation, as here, 0.99-1.02x, 0.88-0.93x, 0.87-0.90x; only for
//! grids left with 50 or more open cells, 1.02x, 0.96x, 0.94x. tdoku against the `sudoku`
//! crate at limit 2 is 1.21-1.31x (forum-hardest), 1.14-1.37x (top1465), 0.69-0.77x
//! (17-clue); at limit 1 (first solution only) it is 2.48x and 1.87x.

use std::arch::x86_64::*;

/// All nine digits.
const ALL: u16 = 0x1ff;

/// `PERM[k][p]`: the mini-row (mini-column) that configuration `k` gives the band's box `p`.
const PERM: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
    [0, 2, 1],
    [1, 0, 2],
];

/// Byte shuffle control (`pshufb`) picking u16 lane `src` into each u16 lane, within each
/// 128-bit half; `None` gives zero.
const fn ctl32(src: [Option<usize>; 16]) -> [i8; 32] {
    let mut out = [0i8; 32];
    let mut l = 0;
    while l < 16 {
        match src[l] {
            Some(s) => {
                out[2 * l] = (2 * s) as i8;
                out[2 * l + 1] = (2 * s + 1) as i8;
            }
            None => {
                out[2 * l] = -128;
                out[2 * l + 1] = -128;
            }
        }
        l += 1;
    }
    out
}

/// Same as [`ctl32`] for one 128-bit vector.
const fn ctl16(src: [Option<usize>; 8]) -> [i8; 16] {
    let mut s16 = [None; 16];
    let mut l = 0;
    while l < 8 {
        s16[l] = src[l];
        l += 1;
    }
    let c = ctl32(s16);
    let mut out = [0i8; 16];
    let mut b = 0;
    while b < 16 {
        out[b] = c[b];
        b += 1;
    }
    out
}

/// Configurations to positive triads: lane `4p + e` (p = box of the band, e = its mini-row)
/// gets the OR of the two configurations giving box `p` mini-row `e`; two controls over the
/// band vector broadcast to both halves.
const CFG_TO_TRIADS: [[i8; 32]; 2] = {
    let mut src = [[None; 16]; 2];
    let mut p = 0;
    while p < 3 {
        let mut e = 0;
        while e < 3 {
            let mut n = 0;
            let mut k = 0;
            while k < 6 {
                if PERM[k][p] == e {
                    src[n][4 * p + e] = Some(k);
                    n += 1;
                }
                k += 1;
            }
            e += 1;
        }
        p += 1;
    }
    // Lane 8 + e of the high half reads lane e of the (broadcast) band.
    [ctl32(src[0]), ctl32(src[1])]
};

/// Where a box's positive triads sit in a 128-bit half of the triad vector.
const fn triad_base(p: usize) -> usize {
    if p == 2 {
        0
    } else {
        4 * p
    }
}

/// Positive triads of box `p` (orientation `o`: 0 horizontal, 1 vertical) to the box's
/// candidate mask: two controls whose OR gives cells the digits their mini-row (column) may
/// hold and the absent triads the digits the other two may hold. Lanes of the other
/// orientation are filled by [`FILL`].
const TRIADS_TO_BOX: [[[[i8; 32]; 2]; 3]; 2] = {
    let mut out = [[[[0i8; 32]; 2]; 3]; 2];
    let mut o = 0;
    while o < 2 {
        let mut p = 0;
        while p < 3 {
            let base = triad_base(p);
            let mut a = [None; 16];
            let mut b = [None; 16];
            let mut i = 0;
            while i < 4 {
                let mut j = 0;
                while j < 4 {
                    let l = 4 * i + j;
                    // (elem, is_triad) along this orientation.
                    let (along, across) = if o == 0 { (i, j) } else { (j, i) };
                    if along < 3 && across < 3 {
                        a[l] = Some(base + along);
                        b[l] = Some(base + along);
                    } else if along < 3 && across == 3 {
                        a[l] = Some(base + (along + 1) % 3);
                        b[l] = Some(base + (along + 2) % 3);
                    }
                    j += 1;
                }
                i += 1;
            }
            out[o][p] = [ctl32(a), ctl32(b)];
            p += 1;
        }
        o += 1;
    }
    out
};

/// Lanes a band leaves alone: the other orientation's triads (and the unused lane).
const FILL: [[u16; 16]; 2] = {
    let mut out = [[0u16; 16]; 2];
    let mut l = 0;
    while l < 16 {
        let (i, j) = (l / 4, l % 4);
        if i == 3 {
            out[0][l] = ALL;
        }
        if j == 3 {
            out[1][l] = ALL;
        }
        l += 1;
    }
    out
};

/// Box assertions to band eliminations: `[shift][p_h * 3 + p_v]`, over a vector whose low
/// half holds the horizontal triads (lanes 4..7) and the high half the vertical ones. Shift
/// 0 reads absent-triad assertions (configurations putting the digit in that mini-row go),
/// shifts 1 and 2 read the triads a placed cell made present (configurations putting the
/// digit in another mini-row go).
const BOX_TO_BANDS: [[[i8; 32]; 9]; 3] = {
    let mut out = [[[0i8; 32]; 9]; 3];
    let mut shift = 0;
    while shift < 3 {
        let mut ph = 0;
        while ph < 3 {
            let mut pv = 0;
            while pv < 3 {
                let mut src = [None; 16];
                let mut k = 0;
                while k < 6 {
                    src[k] = Some(4 + (PERM[k][ph] + shift) % 3);
                    src[8 + k] = Some(4 + (PERM[k][pv] + shift) % 3);
                    k += 1;
                }
                out[shift][ph * 3 + pv] = ctl32(src);
                pv += 1;
            }
            ph += 1;
        }
        shift += 1;
    }
    out
};

/// Horizontal triad lanes (3, 7, 11) of a box vector to lanes 4, 5, 6 (OR of the halves).
const H_TRIADS: [i8; 32] = {
    let mut src = [None; 16];
    src[4] = Some(3);
    src[5] = Some(7);
    src[8 + 6] = Some(3);
    ctl32(src)
};

/// Band eliminations from mini-rows that must hold their three digits: `[term]`, each
/// term reading one (box, other mini-row) of the triad vector; terms 0..2 read the low half
/// (boxes 0 and 1), terms 2..4 the high half (box 2)... see `band_triad_elims`.
const ASSERT_TO_CFG: [[i8; 16]; 6] = {
    let mut out = [[0i8; 16]; 6];
    let mut t = 0;
    while t < 6 {
        let p = t / 2;
        let shift = 1 + t % 2;
        let mut src = [None; 8];
        let mut k = 0;
        while k < 6 {
            src[k] = Some(triad_base(p) + (PERM[k][p] + shift) % 3);
            k += 1;
        }
        out[t] = ctl16(src);
        t += 1;
    }
    out
};

/// A box with every candidate (the unused lane empty), a band with every configuration.
const OPEN_BOX: [u16; 16] = [
    ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, ALL, 0,
];
const OPEN_BAND: [u16; 8] = [ALL, ALL, ALL, ALL, ALL, ALL, 0, 0];

/// Minimum candidates per box lane: cells one, triads six, the unused lane none.
const MINIMUMS: [u16; 16] = [1, 1, 1, 6, 1, 1, 1, 6, 1, 1, 1, 6, 6, 6, 6, 0];

/// The 3x3 cell lanes.
const CELLS: [u16; 16] = [
    ALL, ALL, ALL, 0, ALL, ALL, ALL, 0, ALL, ALL, ALL, 0, 0, 0, 0, 0,
];

/// Rotations of the three cells of each box row (the triad lanes stay).
const ROT3_1: [i8; 32] = {
    let mut src = [None; 16];
    let mut l = 0;
    while l < 16 {
        let (i, j) = (l / 4, l % 4);
        src[l] = Some((i % 2) * 4 + if i < 3 && j < 3 { (j + 1) % 3 } else { j });
        l += 1;
    }
    ctl32(src)
};
const ROT3_2: [i8; 32] = {
    let mut src = [None; 16];
    let mut l = 0;
    while l < 16 {
        let (i, j) = (l / 4, l % 4);
        src[l] = Some((i % 2) * 4 + if i < 3 && j < 3 { (j + 2) % 3 } else { j });
        l += 1;
    }
    ctl32(src)
};
/// Rotation by one of each row of four lanes.
const ROT4_1: [i8; 32] = {
    let mut src = [None; 16];
    let mut l = 0;
    while l < 16 {
        let (i, j) = (l / 4, l % 4);
        src[l] = Some((i % 2) * 4 + (j + 1) % 4);
        l += 1;
    }
    ctl32(src)
};

macro_rules! v32 {
    ($a:expr) => {{
        let a: &[i8; 32] = $a;
        _mm256_setr_epi8(
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
            a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25],
            a[26], a[27], a[28], a[29], a[30], a[31],
        )
    }};
}
macro_rules! v16 {
    ($a:expr) => {{
        let a: &[i8; 16] = $a;
        _mm_setr_epi8(
            a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
            a[14], a[15],
        )
    }};
}
macro_rules! w16 {
    ($a:expr) => {{
        let a: &[u16; 16] = $a;
        _mm256_setr_epi16(
            a[0] as i16,
            a[1] as i16,
            a[2] as i16,
            a[3] as i16,
            a[4] as i16,
            a[5] as i16,
            a[6] as i16,
            a[7] as i16,
            a[8] as i16,
            a[9] as i16,
            a[10] as i16,
            a[11] as i16,
            a[12] as i16,
            a[13] as i16,
            a[14] as i16,
            a[15] as i16,
        )
    }};
}
macro_rules! w8 {
    ($a:expr) => {{
        let a: &[u16; 8] = $a;
        _mm_setr_epi16(
            a[0] as i16,
            a[1] as i16,
            a[2] as i16,
            a[3] as i16,
            a[4] as i16,
            a[5] as i16,
            a[6] as i16,
            a[7] as i16,
        )
    }};
}

#[derive(Clone, Copy)]
struct State {
    boxes: [__m256i; 9],
    /// Bands 0..3 horizontal (boxes 3b..3b+3), 3..6 vertical (boxes b, b+3, b+6).
    configs: [__m128i; 6],
    /// Configuration eliminations waiting (and already applied: re-applying is a no-op).
    elims: [__m128i; 6],
}

/// Per u16 lane, the number of set bits of a 9-bit value.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn popcounts9(x: __m256i) -> __m256i {
    _mm256_popcnt_epi16(x)
}

/// Lanes of `x` equal to `y` (all ones) or not (zero).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn eq16(x: __m256i, y: __m256i) -> __m256i {
    _mm256_cmpeq_epi16(x, y)
}

/// Rotation by one lane within each row of four (matrix rows).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn rot_in_rows(v: __m256i) -> __m256i {
    _mm256_shldi_epi64::<16>(v, v)
}

/// Rotation by one row (matrix columns).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn rot_rows(v: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0b00_11_10_01>(v)
}

/// Digits occurring in exactly one lane of their matrix row (`by_rows`) or column, kept
/// where they occur.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn unique_in_groups(x: __m256i, by_rows: bool) -> __m256i {
    let rot = |v| if by_rows { rot_in_rows(v) } else { rot_rows(v) };
    let mut one = x;
    let mut r = rot(x);
    let mut two = _mm256_and_si256(one, r);
    one = _mm256_or_si256(one, r);
    r = rot(r);
    two = _mm256_or_si256(two, _mm256_and_si256(one, r));
    one = _mm256_or_si256(one, r);
    r = rot(r);
    two = _mm256_or_si256(two, _mm256_and_si256(one, r));
    _mm256_andnot_si256(two, x)
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn intersects(a: __m256i, b: __m256i) -> bool {
    _mm256_testz_si256(a, b) == 0
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn intersects128(a: __m128i, b: __m128i) -> bool {
    _mm_testz_si128(a, b) == 0
}

/// Restricts box `bx` to `mask`, then runs its clauses and the bands' answers.
/// False on contradiction.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
fn box_restrict(st: &mut State, bx: usize, mask: __m256i, from_vertical: bool) -> bool {
    let mut cells = st.boxes[bx];
    let mut elim = _mm256_andnot_si256(mask, cells);
    if _mm256_testz_si256(elim, elim) != 0 {
        return true;
    }
    let (bi, bj) = (bx / 3, bx % 3);
    let mins = w16!(&MINIMUMS);
    let cell_lanes = w16!(&CELLS);
    let e0 = v32!(&BOX_TO_BANDS[0][bj * 3 + bi]);
    let e1 = v32!(&BOX_TO_BANDS[1][bj * 3 + bi]);
    let e2 = v32!(&BOX_TO_BANDS[2][bj * 3 + bi]);
    let mut band_elims = _mm256_setzero_si256();
    loop {
        cells = _mm256_andnot_si256(elim, cells);
        let counts = popcounts9(cells);
        if _mm256_movemask_epi8(_mm256_cmpgt_epi16(mins, counts)) != 0 {
            st.boxes[bx] = cells;
            return false;
        }
        // Forced literals: a lane at its minimum keeps all it has; a digit alone in its
        // matrix row or column.
        let mut asserted = _mm256_and_si256(cells, eq16(counts, mins));
        asserted = _mm256_or_si256(asserted, unique_in_groups(cells, true));
        asserted = _mm256_or_si256(asserted, unique_in_groups(cells, false));
        // Placed cells: their digit leaves the other cells and the cell's two triads,
        // the other digits leave the cell.
        let placed = _mm256_and_si256(asserted, cell_lanes);
        let mut rows = _mm256_or_si256(placed, _mm256_shuffle_epi8(placed, v32!(&ROT4_1)));
        rows = _mm256_or_si256(rows, _mm256_shuffle_epi32::<0b10_11_00_01>(rows));
        let mut cols = _mm256_or_si256(placed, _mm256_permute4x64_epi64::<0b00_11_10_01>(placed));
        cols = _mm256_or_si256(cols, _mm256_permute4x64_epi64::<0b01_00_11_10>(cols));
        let everywhere = _mm256_or_si256(
            cols,
            _mm256_or_si256(
                _mm256_shuffle_epi8(cols, v32!(&ROT3_1)),
                _mm256_shuffle_epi8(cols, v32!(&ROT3_2)),
            ),
        );
        let whole_cell = _mm256_andnot_si256(
            _mm256_cmpeq_epi16(placed, _mm256_setzero_si256()),
            _mm256_set1_epi16(ALL as i16),
        );
        let new_elims = _mm256_or_si256(_mm256_or_si256(everywhere, rows), whole_cell);
        elim = _mm256_or_si256(_mm256_xor_si256(new_elims, placed), elim);
        // Band messages: asserted absent triads and triads made present by placed cells.
        let neg = hv_triads(asserted);
        let pos = hv_triads(new_elims);
        band_elims = _mm256_or_si256(
            band_elims,
            _mm256_or_si256(
                _mm256_shuffle_epi8(neg, e0),
                _mm256_or_si256(_mm256_shuffle_epi8(pos, e1), _mm256_shuffle_epi8(pos, e2)),
            ),
        );
        if !intersects(elim, cells) {
            break;
        }
    }
    st.boxes[bx] = cells;
    let (h, v) = (bi, 3 + bj);
    st.elims[h] = _mm_or_si128(st.elims[h], _mm256_castsi256_si128(band_elims));
    st.elims[v] = _mm_or_si128(st.elims[v], _mm256_extracti128_si256::<1>(band_elims));
    // Answer the other orientation first.
    let (first, second) = if from_vertical {
        ((h, bj), (v, bi))
    } else {
        ((v, bi), (h, bj))
    };
    band_eliminate(st, first.0, first.1) && band_eliminate(st, second.0, second.1)
}

/// A box vector's horizontal triads in lanes 4..7 of the low half, vertical ones in lanes
/// 4..7 of the high half.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn hv_triads(x: __m256i) -> __m256i {
    let s = _mm256_shuffle_epi8(x, v32!(&H_TRIADS));
    let h = _mm_or_si128(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
    _mm256_set_m128i(_mm256_extracti128_si256::<1>(x), h)
}

/// Positive triads of a band: lane `4p + e` holds the digits box `p` may have in mini-row
/// (mini-column) `e`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn triads(configs: __m128i) -> __m256i {
    let b = _mm256_broadcastsi128_si256(configs);
    _mm256_or_si256(
        _mm256_shuffle_epi8(b, v32!(&CFG_TO_TRIADS[0])),
        _mm256_shuffle_epi8(b, v32!(&CFG_TO_TRIADS[1])),
    )
}

/// Applies band `band`'s pending eliminations and restricts its boxes.
/// `first` is the box (0..3 within the band) to restrict last. False on contradiction.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
fn band_eliminate(st: &mut State, band: usize, last: usize) -> bool {
    let cfg = st.configs[band];
    let el = st.elims[band];
    if !intersects128(cfg, el) {
        return true;
    }
    restrict_boxes(st, band, _mm_andnot_si128(el, cfg), last)
}

/// Sets band `band`'s configurations to `cfg` (after a mini-row rule) and restricts its
/// three boxes to them, box `last` (0..3 within the band) last. False on contradiction.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
fn restrict_boxes(st: &mut State, band: usize, mut cfg: __m128i, last: usize) -> bool {
    // A mini-row with three possible digits holds all three.
    let t = triads(cfg);
    let three = _mm256_and_si256(t, eq16(popcounts9(t), _mm256_set1_epi16(3)));
    let lo = _mm256_castsi256_si128(three);
    let hi = _mm256_extracti128_si256::<1>(three);
    let e = _mm_or_si128(
        _mm_or_si128(
            _mm_shuffle_epi8(lo, v16!(&ASSERT_TO_CFG[0])),
            _mm_shuffle_epi8(lo, v16!(&ASSERT_TO_CFG[1])),
        ),
        _mm_or_si128(
            _mm_or_si128(
                _mm_shuffle_epi8(lo, v16!(&ASSERT_TO_CFG[2])),
                _mm_shuffle_epi8(lo, v16!(&ASSERT_TO_CFG[3])),
            ),
            _mm_or_si128(
                _mm_shuffle_epi8(hi, v16!(&ASSERT_TO_CFG[4])),
                _mm_shuffle_epi8(hi, v16!(&ASSERT_TO_CFG[5])),
            ),
        ),
    );
    cfg = _mm_andnot_si128(e, cfg);
    st.configs[band] = cfg;
    let t = triads(cfg);
    // Every digit keeps a configuration (box 0's three mini-rows cover them all): without
    // this check a band out of configurations for a digit goes unnoticed until the boxes
    // run dry, and unsolvable grids search far.
    let box0 = _mm256_castsi256_si128(t);
    let any = _mm_or_si128(
        _mm_or_si128(box0, _mm_srli_si128::<2>(box0)),
        _mm_srli_si128::<4>(box0),
    );
    if _mm_cvtsi128_si32(any) as u16 & ALL != ALL {
        return false;
    }
    // Every digit keeps a configuration (box 0's three mini-rows cover them all): without
    // this check a band out of configurations for a digit goes unnoticed until the boxes
    // run dry, and unsolvable grids search far.
    let box0 = _mm256_castsi256_si128(t);
    let any = _mm_or_si128(
        _mm_or_si128(box0, _mm_srli_si128::<2>(box0)),
        _mm_srli_si128::<4>(box0),
    );
    if _mm_cvtsi128_si32(any) as u16 & ALL != ALL {
        return false;
    }
    let vertical = band >= 3;
    let o = usize::from(vertical);
    let b = band % 3;
    let fill = w16!(&FILL[o]);
    let lo = _mm256_permute2x128_si256::<0x00>(t, t);
    let hi = _mm256_permute2x128_si256::<0x11>(t, t);
    for step in 1..4 {
        let p = (last + step) % 3;
        let src = if p == 2 { hi } else { lo };
        let [a, c] = &TRIADS_TO_BOX[o][p];
        let mask = _mm256_or_si256(
            fill,
            _mm256_or_si256(
                _mm256_shuffle_epi8(src, v32!(a)),
                _mm256_shuffle_epi8(src, v32!(c)),
            ),
        );
        let bx = if vertical { p * 3 + b } else { b * 3 + p };
        if !box_restrict(st, bx, mask, vertical) {
            return false;
        }
    }
    true
}

/// Popcount of a 128-bit vector.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2,popcnt")]
#[inline]
fn popcount128(x: __m128i) -> u32 {
    (_mm_cvtsi128_si64(x) as u64).count_ones() + (_mm_extract_epi64::<1>(x) as u64).count_ones()
}

/// The six configuration masks of a band.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn lanes6(x: __m128i) -> [u32; 6] {
    let a = _mm_cvtsi128_si64(x) as u64;
    let b = _mm_extract_epi64::<1>(x) as u64;
    [
        (a & 0xffff) as u32,
        ((a >> 16) & 0xffff) as u32,
        ((a >> 32) & 0xffff) as u32,
        (a >> 48) as u32,
        (b & 0xffff) as u32,
        ((b >> 16) & 0xffff) as u32,
    ]
}

struct Search<'a> {
    limit: usize,
    count: usize,
    solution: &'a mut [u8; 81],
}

impl Search<'_> {
    #[target_feature(
        enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2,bmi1,popcnt"
    )]
    fn run(&mut self, st: &mut State) {
        // The unfixed band with the fewest configurations (ties: lowest index).
        let mut best = (u32::MAX, 0usize);
        for (band, &c) in st.configs.iter().enumerate() {
            let n = popcount128(c);
            if n >= 10 && n < best.0 {
                best = (n, band);
            }
        }
        if best.0 == u32::MAX {
            self.leaf(st);
            return;
        }
        let band = best.1;
        // The digit with the fewest configurations (2, else 3, else any).
        let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
        for x in lanes6(st.configs[band]) {
            four |= three & x;
            three |= two & x;
            two |= one & x;
            one |= x;
        }
        let pick = if two & !three != 0 {
            two & !three
        } else if three & !four != 0 {
            three & !four
        } else {
            four
        };
        let bit = pick & pick.wrapping_neg();
        let with = _mm_and_si128(st.configs[band], _mm_set1_epi16(bit as i16));
        // The first configuration holding the digit, as a lane mask.
        let nonzero = !(_mm_movemask_epi8(_mm_cmpeq_epi16(with, _mm_setzero_si128())) as u32);
        let lane = nonzero.trailing_zeros() / 2;
        let first = _mm_and_si128(with, lane_mask(lane));
        let others = _mm_xor_si128(with, first);
        let mut child = *st;
        child.elims[band] = _mm_or_si128(child.elims[band], others);
        if band_eliminate(&mut child, band, 0) {
            self.run(&mut child);
            if self.count >= self.limit {
                return;
            }
        }
        st.elims[band] = _mm_or_si128(st.elims[band], first);
        if band_eliminate(st, band, 0) {
            self.run(st);
        }
    }

    /// Every band is fixed: reads the grid and counts it when it is a solution.
    #[target_feature(
        enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2,bmi1,popcnt"
    )]
    fn leaf(&mut self, st: &State) {
        let mut grid = [0u8; 81];
        let mut rows = [0u16; 9];
        let mut cols = [0u16; 9];
        for (bx, &v) in st.boxes.iter().enumerate() {
            let lo = _mm256_castsi256_si128(v);
            let hi = _mm256_extracti128_si256::<1>(v);
            let words = [
                _mm_cvtsi128_si64(lo) as u64,
                _mm_extract_epi64::<1>(lo) as u64,
                _mm_cvtsi128_si64(hi) as u64,
            ];
            let mut seen = 0u16;
            for (i, w) in words.iter().enumerate() {
                for j in 0..3 {
                    let d = ((w >> (16 * j)) & 0xffff) as u16;
                    if d == 0 || d & (d - 1) != 0 {
                        return;
                    }
                    let (r, c) = (bx / 3 * 3 + i, bx % 3 * 3 + j);
                    if (rows[r] | cols[c] | seen) & d != 0 {
                        return;
                    }
                    rows[r] |= d;
                    cols[c] |= d;
                    seen |= d;
                    grid[r * 9 + c] = d.trailing_zeros() as u8 + 1;
                }
            }
        }
        if self.count == 0 {
            *self.solution = grid;
        }
        self.count += 1;
    }
}

/// A 128-bit mask of u16 lane `lane` (all ones there).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2")]
#[inline]
fn lane_mask(lane: u32) -> __m128i {
    _mm_cmpeq_epi16(
        _mm_set1_epi16(lane as i16),
        _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7),
    )
}

/// Searches on from `simd9`'s band masks at its fixpoint (per band, lane `d` the 27-bit
/// mask of the cells where digit `d + 1` may go). Same count as `fast9::solve9`, and the
/// first solution written.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512bitalg,avx512vbmi2,bmi1,popcnt")]
pub(super) fn search_bands(c: &[__m512i; 3], limit: usize, solution: &mut [u8; 81]) -> usize {
    let mut boxes = [[0u16; 16]; 9];
    for (b, &v) in c.iter().enumerate() {
        for bit in 0..27 {
            let (i, col) = (bit / 9, bit % 9);
            let digits = _mm512_test_epi32_mask(v, _mm512_set1_epi32(1 << bit)) & ALL;
            boxes[b * 3 + col / 3][4 * i + col % 3] = digits;
        }
    }
    // Band eliminations to apply: a configuration goes for a digit when one of the (box,
    // mini-row or column) it uses has no cell left for the digit. Lanes 6 and 7 stay empty.
    let mut out_elims = [_mm_setzero_si128(); 6];
    // A configuration stays for a digit when every (box, mini-row or column) it uses
    // still has a cell for the digit.
    let triad_bits = _mm512_set1_epi32(0o111_111_111);
    let folds = c.map(|v| {
        let f = _mm512_or_si512(
            _mm512_or_si512(v, _mm512_srli_epi32::<9>(v)),
            _mm512_srli_epi32::<18>(v),
        );
        _mm512_and_si512(f, _mm512_set1_epi32(0x1ff))
    });
    for (b, &v) in c.iter().enumerate() {
        let t = _mm512_and_si512(
            _mm512_or_si512(
                _mm512_or_si512(v, _mm512_srli_epi32::<1>(v)),
                _mm512_srli_epi32::<2>(v),
            ),
            triad_bits,
        );
        let mut h = [0u16; 8];
        let mut vert = [0u16; 8];
        for k in 0..6 {
            let mut m = 0i32;
            for (p, &e) in PERM[k].iter().enumerate() {
                m |= 1 << (9 * e + 3 * p);
            }
            let m = _mm512_set1_epi32(m);
            h[k] = !_mm512_cmpeq_epi32_mask(_mm512_and_si512(t, m), m) & ALL;
            let mut ok = ALL;
            for (p, &e) in PERM[k].iter().enumerate() {
                ok &= _mm512_test_epi32_mask(folds[p], _mm512_set1_epi32(1 << (3 * b + e)));
            }
            vert[k] = !ok & ALL;
        }
        out_elims[b] = w8!(&h);
        out_elims[3 + b] = w8!(&vert);
    }
    // From the open state: every box change runs the box's clauses and every band change
    // restricts its boxes, as in the search (a box set directly would keep its forced
    // literals to itself, and a contradiction in them could go unseen until the leaves).
    let mut st = State {
        boxes: [w16!(&OPEN_BOX); 9],
        configs: [w8!(&OPEN_BAND); 6],
        elims: out_elims,
    };
    for (bx, a) in boxes.iter().enumerate() {
        let mut mask = *a;
        for l in [3, 7, 11, 12, 13, 14] {
            mask[l] = ALL;
        }
        if !box_restrict(&mut st, bx, w16!(&mask), false) {
            return 0;
        }
    }
    for band in 0..6 {
        if !band_eliminate(&mut st, band, 0) {
            return 0;
        }
    }
    let mut search = Search {
        limit,
        count: 0,
        solution,
    };
    search.run(&mut st);
    search.count.min(limit)
}

#[cfg(test)]
mod tests {
    use super::super::fast9;
    use super::super::fast9::tests::random_givens;

    fn agree(g: &[u8; 81]) {
        for limit in [1, 2, 5] {
            let (mut a, mut b) = ([0u8; 81], [0u8; 81]);
            let want = fast9::solve9(g, limit, &mut a);
            let Some(got) = super::super::simd9::solve9(g, limit, &mut b) else {
                return;
            };
            assert_eq!(got, want, "limit {limit}: {g:?}");
        }
    }

    #[test]
    fn agrees_with_fast9_on_random_grids() {
        for g in random_givens(3000) {
            agree(&g);
        }
    }
}
