//! Fast exact solver for plain 9x9 Sudoku using band bitboards.
//!
//! Representation: for every band `b` (three rows) and digit `d` there is a
//! 27-bit mask `cand[b * 9 + d]` of the cells of that band where `d` may still
//! go (bit = row_in_band * 9 + column, i.e. row-major cell index minus `27 * b`).
//! A placed digit stays in its own mask and is removed from every other digit.
//!
//! Propagation per (band, digit) uses the fact that a digit occupies exactly
//! one cell per row and per box of the band, i.e. the 3x3 (row, box) pattern
//! must contain a permutation. A table maps the 9-bit "which (row, box) pairs
//! have candidates" pattern to the cells that lie on some valid permutation;
//! this covers pointing/claiming and hidden singles in boxes and rows. A row
//! reduced to one cell is a placement: it clears that cell for the other digits
//! and that column in the other two bands. Naked singles are found by counting
//! candidates bit-parallel across digits. When those rules are stuck, the same
//! permutation filter runs on (band, column) pairs inside each stack, plus
//! hidden singles in columns. Search branches on the bivalue cell with the most
//! unplaced peers, copying the 244-byte state per branch; with `limit` reached
//! the search stops. Column rules only revisit digits whose masks changed.
//!
//! Invariant behind the solved test: candidates only ever shrink, a cell leaves
//! `unsolved` only when a row single places a digit there (removing it from all
//! other digits), so at a fixpoint with no unsolved cell each digit's masks hold
//! exactly its placed cells, one per row, box and column.
//!
//! Measured and dropped (issue 23; solve + uniqueness on forum-hardest, thread CPU
//! time, A B alternated; node counts from a counting copy). Where the time goes: 165
//! nodes a puzzle, half of them failing leaves, and those run about 18 band updates
//! each before the contradiction shows, against 9 for the other nodes. Branching on a
//! (band, digit) row-to-box permutation when only two remain, tdoku-style, gave 311
//! nodes instead of 165; branching on a digit with two cells left in a row gave 497.
//! Slower: the column pass for all nine digits at once in loops the compiler
//! vectorises (16%), naked singles inside every propagation pass (12%), the stack
//! filter applied inside every band update (7-11%), a branch-free placement in
//! `update` (7%), row singles recognised by `unsolved` instead of `open_rows` (2-6%),
//! a dirty bitmask kept by the writers instead of `prev` and the scan (even here,
//! 11-21% slower on 17-clue). Even: the permutation filter as pure bit arithmetic
//! instead of the table loads; `-C target-cpu=native` (about 2%, and none in a later
//! A B run). Round 3 (same method, 5 alternations): tdoku's mini-row rule (three digits
//! left for a mini-row go there) after the column rules, 0.86x on forum-hardest (it made
//! progress 1.7 times in 83 calls a puzzle); the bivalue cell scored by the band peers
//! holding either of its digits instead of the unplaced ones, 0.84x (top1465 0.83x);
//! updating dirty entries from the highest index down, 0.97x.
//!
//! AVX-512 (`simd9`, issue 23): the nine digits of a band in the lanes of one vector. It
//! pays for the first propagation only (17-clue 1.12-1.25x, the others even), which is
//! where `simd9` hands over to `search_settled`; every node in lanes was 0.81-0.93x on
//! forum-hardest (see its module notes: a node changes one or two digits, and the lanes do
//! all nine).

/// Mask of the 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;

/// `SHRINK[row9]`: bit k set when the 9-bit row segment has a candidate in box k.
const SHRINK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut i = 0;
    while i < 512 {
        let mut k = 0;
        while k < 3 {
            if i & (7 << (3 * k)) != 0 {
                t[i] |= 1 << k;
            }
            k += 1;
        }
        i += 1;
    }
    t
};

/// `COMPLEX[s]`: for the (row, box) presence pattern `s` (bit 3*row + box) the
/// cells of the band lying on a (row -> box) permutation using only present
/// pairs. Zero means the digit cannot be placed in this band: a contradiction.
const COMPLEX: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut ok = true;
            let mut cells = 0u32;
            let mut r = 0;
            while r < 3 {
                if s & (1 << (3 * r + perm[r])) == 0 {
                    ok = false;
                }
                cells |= 7 << (9 * r + 3 * perm[r]);
                r += 1;
            }
            if ok {
                t[s] |= cells;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// `ROWS[r3]`: cells of the band rows selected by the 3-bit mask `r3`.
const ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        let mut r = 0;
        while r < 3 {
            if i & (1 << r) != 0 {
                t[i] |= 511 << (9 * r);
            }
            r += 1;
        }
        i += 1;
    }
    t
};

/// `PEERS[bit]`: peers of a cell inside its own band (row, box, column), self excluded.
pub(super) const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let mut j = 0;
        while j < 27 {
            let (r2, c2) = (j / 9, j % 9);
            if j != i && (r2 == r || c2 == c || c2 / 3 == c / 3) {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// `POP9[x]`: number of set bits of a 9-bit value (the portable build has no popcount
/// instruction, and the table beats the bit-twiddling fallback).
const POP9: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Number of set bits of a 27-bit band mask.
#[inline(always)]
fn pop27(x: u32) -> u32 {
    POP9[(x & 511) as usize] as u32
        + POP9[((x >> 9) & 511) as usize] as u32
        + POP9[((x >> 18) & 511) as usize] as u32
}

/// Column `c` of each stack takes column `c + 1` (mod 3) of that stack: bits
/// 1, 2, 0 of every 3-bit group move to 0, 1, 2.
#[inline(always)]
fn rot1(x: u32) -> u32 {
    ((x >> 1) & 0o333) | ((x << 2) & 0o444)
}

/// Column `c` of each stack takes column `c + 2` (mod 3) of that stack.
#[inline(always)]
fn rot2(x: u32) -> u32 {
    ((x >> 2) & 0o111) | ((x << 1) & 0o666)
}

/// The two bands other than `b`.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// Spreads a 9-bit column set over the three rows of a band.
#[inline(always)]
fn col_cells(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// 9-bit set of the columns where a band mask has cells.
#[inline(always)]
fn fold(a: u32) -> u32 {
    (a | a >> 9 | a >> 18) & 511
}

/// 3-bit mask of the band rows of `a` that hold exactly one cell.
/// Every row of `a` is non-empty here (guaranteed by the `COMPLEX` filter).
#[inline(always)]
fn single_rows(a: u32) -> u32 {
    let r0 = a & 511;
    let r1 = (a >> 9) & 511;
    let r2 = a >> 18;
    ((r0 & r0.wrapping_sub(1) == 0) as u32)
        | (((r1 & r1.wrapping_sub(1) == 0) as u32) << 1)
        | (((r2 & r2.wrapping_sub(1) == 0) as u32) << 2)
}

#[derive(Clone, Copy)]
struct State {
    /// Candidate cells, index `band * 9 + digit`.
    cand: [u32; 27],
    /// `cand` as of the last propagation of that entry; differs when work is pending.
    prev: [u32; 27],
    /// Entries changed since the last column pass over their digit.
    column_due: u32,
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
    /// Per band, bit `3 * digit + row` while that digit is not yet placed in that row.
    open_rows: [u32; 3],
}

enum Step {
    Contradiction,
    Progress,
    Stuck,
}

impl State {
    fn new() -> Self {
        State {
            cand: [BAND; 27],
            // Never equal to a 27-bit mask, so every entry gets propagated once.
            prev: [u32::MAX; 27],
            column_due: BAND,
            unsolved: [BAND; 3],
            open_rows: [BAND; 3],
        }
    }

    /// Places a given: eliminates its peers and closes its row for its digit, so the
    /// first propagation does not place it again. False when an earlier given already
    /// took this cell's digit away (a clash).
    #[inline]
    fn given(&mut self, cell: usize, d: usize) -> bool {
        let b = cell / 27;
        let bit = cell % 27;
        let m = 1u32 << bit;
        if self.cand[b * 9 + d] & m == 0 {
            return false;
        }
        // Off every digit's mask, then back on the given's own (no branch on `d`).
        for e in 0..9 {
            self.cand[b * 9 + e] &= !m;
        }
        self.cand[b * 9 + d] = (self.cand[b * 9 + d] & !PEERS[bit]) | m;
        let cols = !col_cells(1 << (bit % 9));
        for &o in &OTHER[b] {
            self.cand[o * 9 + d] &= cols;
        }
        self.unsolved[b] &= !m;
        self.open_rows[b] &= !(1 << (3 * d + bit / 9));
        true
    }

    /// Places digit `d` on band cell `bit`: keeping it alone in its row makes
    /// the propagation of (b, d) treat it as a placement.
    #[inline(always)]
    fn place(&mut self, b: usize, bit: u32, d: usize) {
        let m = 1u32 << bit;
        self.cand[b * 9 + d] &= !(ROWS[1 << (bit / 9)] ^ m);
    }

    /// Applies the band constraints to entry `i = b * 9 + d`. False on contradiction.
    #[inline(always)]
    fn update(&mut self, i: usize) -> bool {
        let b = i / 9;
        let d = i % 9;
        let mut a = self.cand[i];
        let s = SHRINK[(a & 511) as usize]
            | SHRINK[((a >> 9) & 511) as usize] << 3
            | SHRINK[((a >> 18) & 511) as usize] << 6;
        a &= COMPLEX[(s & 511) as usize];
        if a == 0 {
            return false;
        }
        self.cand[i] = a;
        self.prev[i] = a;
        let open = (self.open_rows[b] >> (3 * d)) & 7;
        let newly = single_rows(a) & open;
        if newly != 0 {
            self.open_rows[b] &= !(newly << (3 * d));
            let cells = a & ROWS[newly as usize];
            self.unsolved[b] &= !cells;
            for e in 0..9 {
                self.cand[b * 9 + e] &= !cells;
            }
            self.cand[i] = a;
            let cols = !col_cells((cells | cells >> 9 | cells >> 18) & 511);
            let [o1, o2] = OTHER[b];
            self.cand[o1 * 9 + d] &= cols;
            self.cand[o2 * 9 + d] &= cols;
        }
        true
    }

    /// Runs the band propagation to a fixpoint. False on contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            let mut dirty = 0u32;
            for i in 0..27 {
                dirty |= ((self.cand[i] != self.prev[i]) as u32) << i;
            }
            if dirty == 0 {
                return true;
            }
            // A cell left without candidates fails the node now instead of after the
            // fixpoint: half the nodes are failing branches, and most of their updates
            // came after the contradiction was already there (1-4% on forum-hardest).
            for b in 0..3 {
                let mut ones = 0;
                for d in 0..9 {
                    ones |= self.cand[b * 9 + d];
                }
                if self.unsolved[b] & !ones != 0 {
                    return false;
                }
            }
            self.column_due |= dirty;
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                if !self.update(i) {
                    return false;
                }
            }
        }
    }

    /// Places every naked single; detects cells without candidates.
    fn naked_singles(&mut self) -> Step {
        let mut step = Step::Stuck;
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let mut ones = 0;
            let mut twos = 0;
            for d in 0..9 {
                let x = self.cand[b * 9 + d];
                twos |= ones & x;
                ones |= x;
            }
            if u & !ones != 0 {
                return Step::Contradiction;
            }
            let singles = u & !twos;
            if singles != 0 {
                step = Step::Progress;
                for d in 0..9 {
                    let mut m = self.cand[b * 9 + d] & singles;
                    while m != 0 {
                        self.place(b, m.trailing_zeros(), d);
                        m &= m - 1;
                    }
                }
            }
        }
        step
    }

    /// Column-direction rules, run when the band rules are stuck: for each digit,
    /// the permutation filter on (band, column) inside each stack, then hidden
    /// singles in columns (rows and boxes are already covered by `update`).
    fn column_rules(&mut self) -> Step {
        let mut step = Step::Stuck;
        let c = self.column_due;
        self.column_due = 0;
        let mut due = (c | c >> 9 | c >> 18) & 511;
        while due != 0 {
            let d = due.trailing_zeros() as usize;
            due &= due - 1;
            let f = [
                fold(self.cand[d]),
                fold(self.cand[9 + d]),
                fold(self.cand[18 + d]),
            ];
            // Within each stack the digit takes one column per band, a different one
            // in each: a (band, column) pair stays when the other two bands can take
            // the other two columns. All three stacks at once, by rotating columns
            // within their stack. No permutation at all leaves nothing, and `update`
            // then reports the contradiction.
            let (r1, r2) = (f.map(rot1), f.map(rot2));
            let allow = [
                f[0] & ((r1[1] & r2[2]) | (r2[1] & r1[2])),
                f[1] & ((r1[0] & r2[2]) | (r2[0] & r1[2])),
                f[2] & ((r1[0] & r2[1]) | (r2[0] & r1[1])),
            ];
            let (mut ones, mut twos) = (0u32, 0u32);
            for b in 0..3 {
                if allow[b] != f[b] {
                    self.cand[b * 9 + d] &= col_cells(allow[b]);
                    step = Step::Progress;
                }
                let a = self.cand[b * 9 + d];
                let (r0, r1, r2) = (a & 511, (a >> 9) & 511, a >> 18);
                let any = r0 | r1 | r2;
                twos |= (r0 & r1) | (r0 & r2) | (r1 & r2) | (ones & any);
                ones |= any;
            }
            if ones != 511 {
                return Step::Contradiction;
            }
            // A column holding the digit once, on an unplaced cell: hidden single.
            let single = col_cells(ones & !twos);
            for b in 0..3 {
                let mut m = self.cand[b * 9 + d] & self.unsolved[b] & single;
                while m != 0 {
                    step = Step::Progress;
                    self.place(b, m.trailing_zeros(), d);
                    m &= m - 1;
                }
            }
        }
        step
    }

    /// Band propagation, naked singles and column rules to a fixpoint.
    /// False on contradiction. Every `Progress` shrinks `cand`, so this terminates.
    fn settle(&mut self) -> bool {
        loop {
            if !self.propagate() {
                return false;
            }
            match self.naked_singles() {
                Step::Contradiction => return false,
                Step::Progress => continue,
                Step::Stuck => {}
            }
            match self.column_rules() {
                Step::Contradiction => return false,
                Step::Progress => {}
                Step::Stuck => return true,
            }
        }
    }

    /// Valid only after `settle` returned true (see the module invariant).
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// Writes the placed digits of a solved state.
    fn write(&self, out: &mut [u8; 81]) {
        // One cell per digit and row: a fixed loop, no branch on the bits.
        for (b, band) in out.chunks_exact_mut(27).enumerate() {
            for (d, &m) in self.cand[b * 9..b * 9 + 9].iter().enumerate() {
                for r in 0..3 {
                    let c = ((m >> (9 * r)) & 511 | 1 << 9).trailing_zeros() as usize;
                    if let Some(x) = band.get_mut(9 * r + c) {
                        *x = d as u8 + 1;
                    }
                }
            }
        }
    }

    /// Picks the branching cell: a bivalue cell if any, else the cell with the
    /// fewest candidates. Returns (band, bit, candidate digits as a 9-bit mask).
    fn pick(&self) -> (usize, u32, u32) {
        // The bivalue cell with the most unplaced peers (ties: first in row-major
        // order): either choice then removes the most candidates. On the forum's
        // hardest puzzles this gives a third fewer nodes than taking any bivalue cell
        // in the band with the most unplaced cells. `best_key` orders by score,
        // then earlier band, then lower bit: one `max` per cell keeps the loop free
        // of hard-to-predict branches.
        let mut best_key = 0u32;
        for (b, &[o1, o2]) in OTHER.iter().enumerate() {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut ones, mut twos, mut threes) = (0, 0, 0);
            for d in 0..9 {
                let x = self.cand[b * 9 + d];
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let mut bi = u & twos & !threes;
            let (u1, u2) = (self.unsolved[o1], self.unsolved[o2]);
            while bi != 0 {
                let bit = bi.trailing_zeros();
                bi &= bi - 1;
                // Unplaced cells of this column in the other bands: 2-bit sums at
                // bits 0, 9 and 18, then added up.
                let c = bit % 9;
                let v = ((u1 >> c) & 0x40201) + ((u2 >> c) & 0x40201);
                let score = 1 + pop27(PEERS[bit as usize] & u) + ((v + (v >> 9) + (v >> 18)) & 7);
                best_key = best_key.max(score << 7 | (2 - b as u32) << 5 | (31 - bit));
            }
        }
        if best_key != 0 {
            let b = 2 - ((best_key >> 5) & 3) as usize;
            let bit = 31 - (best_key & 31);
            return (b, bit, self.digits_at(b, bit));
        }
        let mut best = (0, 0, 0);
        let mut best_n = u32::MAX;
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let bit = u.trailing_zeros();
                u &= u - 1;
                let ds = self.digits_at(b, bit);
                if ds.count_ones() < best_n {
                    best_n = ds.count_ones();
                    best = (b, bit, ds);
                }
            }
        }
        best
    }

    /// Candidate digits of a cell as a 9-bit mask (bit d = digit d + 1).
    fn digits_at(&self, b: usize, bit: u32) -> u32 {
        let mut ds = 0;
        for d in 0..9 {
            ds |= ((self.cand[b * 9 + d] >> bit) & 1) << d;
        }
        ds
    }
}

/// Depth-first search; depth is at most 81 since every branch places a cell.
struct Search<'a> {
    limit: usize,
    count: usize,
    solution: &'a mut [u8; 81],
}

impl Search<'_> {
    fn run(&mut self, mut st: State) {
        loop {
            if !st.settle() {
                return;
            }
            if st.solved() {
                if self.count == 0 {
                    st.write(self.solution);
                }
                self.count += 1;
                return;
            }
            let (b, bit, mut ds) = st.pick();
            if ds == 0 {
                return;
            }
            // All candidates but the last get a copy; the last reuses `st`.
            while ds & (ds - 1) != 0 {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                let mut child = st;
                child.place(b, bit, d);
                self.run(child);
                if self.count >= self.limit {
                    return;
                }
            }
            st.place(b, bit, ds.trailing_zeros() as usize);
        }
    }
}

/// The cells holding a given (bit = cell index), or None when a value is over 9.
/// Eight cells a step, bit-parallel: on easy puzzles a per-cell branch over the 81
/// values costs a noticeable part of the whole solve.
fn given_cells(givens: &[u8; 81]) -> Option<u128> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let (mut cells, mut bad) = (0u128, 0u64);
    for (k, c) in givens.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        // Per byte, the high bit is set when the byte is non-zero / over 9.
        let nonzero = (((x & LOW7) + LOW7) | x) & HIGH;
        bad |= (((x & LOW7) + 0x7676_7676_7676_7676) | x) & HIGH;
        // Gathers the eight flags (bits 7, 15, ..) into one byte.
        let byte = (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        cells |= u128::from(byte) << (8 * k);
    }
    let last = givens[80];
    cells |= u128::from(last != 0) << 80;
    (bad == 0 && last <= 9).then_some(cells)
}

/// The state with every given placed, or None when a value is over 9 or two givens clash.
fn start(givens: &[u8; 81]) -> Option<State> {
    let mut cells = given_cells(givens)?;
    let mut st = State::new();
    // Only the given cells are visited, so the loop's branches are predictable.
    while cells != 0 {
        let cell = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        if !st.given(cell, givens[cell] as usize - 1) {
            return None;
        }
    }
    Some(st)
}

/// A state handed over by the SIMD path (fields as in `State`).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Settled {
    pub cand: [u32; 27],
    pub unsolved: [u32; 3],
    pub open_rows: [u32; 3],
}

/// Searches on from a state at a fixpoint of every rule here: each placed cell (alone in
/// its row for its digit, out of `unsolved`, its row out of `open_rows`) has left the other
/// digits and its column in the other bands. Same count as `solve9`, and the same solution
/// when there is one.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) fn search_settled(s: Settled, limit: usize, solution: &mut [u8; 81]) -> usize {
    let st = State {
        cand: s.cand,
        prev: s.cand,
        column_due: 0,
        unsolved: s.unsolved,
        open_rows: s.open_rows,
    };
    search_from(st, limit, solution)
}

/// The search from a started state: the count up to `limit`, the first solution written.
fn search_from(st: State, limit: usize, solution: &mut [u8; 81]) -> usize {
    let mut search = Search {
        limit,
        count: 0,
        solution,
    };
    search.run(st);
    search.count.min(limit)
}

/// Solves a plain 9x9 Sudoku (rows, columns, 3x3 boxes). `givens[i]` is 0 for an empty cell or
/// 1..=9, row-major. Counts solutions up to `limit` (limit >= 1) and writes the first solution
/// found into `solution` (untouched when there is none). Returns the count found (0..=limit).
/// Givens that already conflict give 0. Never panics on any input with values 0..=9.
pub fn solve9(givens: &[u8; 81], limit: usize, solution: &mut [u8; 81]) -> usize {
    if limit == 0 {
        return 0;
    }
    let Some(st) = start(givens) else {
        return 0;
    };
    search_from(st, limit, solution)
}

#[cfg(test)]
pub(super) mod tests {
    use super::solve9;

    /// A xorshift stream from `seed`: the same numbers every run.
    pub(in crate::solver::exact) fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        }
    }

    /// Grids of random givens, every density from empty to 29% (most of them clash), the
    /// same ones every run (xorshift from a fixed seed).
    pub(in crate::solver::exact) fn random_givens(rounds: usize) -> Vec<[u8; 81]> {
        let mut next = xorshift(0x1234_5678);
        (0..rounds)
            .map(|round| {
                let density = (round % 30) as u32;
                let mut g = [0u8; 81];
                for v in g.iter_mut() {
                    if next() % 100 < density {
                        *v = 1 + (next() % 9) as u8;
                    }
                }
                g
            })
            .collect()
    }

    const DIR: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/conformance/standard/"
    );

    fn read(name: &str) -> Option<String> {
        match std::fs::read_to_string(format!("{DIR}{name}")) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("skipping: cannot read {DIR}{name}: {e}");
                None
            }
        }
    }

    fn parse(s: &str) -> [u8; 81] {
        let b = s.as_bytes();
        assert!(b.len() >= 81, "short puzzle line: {s:?}");
        let mut g = [0u8; 81];
        for (dst, &c) in g.iter_mut().zip(b) {
            *dst = match c {
                b'1'..=b'9' => c - b'0',
                _ => 0,
            };
        }
        g
    }

    /// Independent check: complete, every unit a permutation of 1..=9, givens kept.
    fn valid_solution(givens: &[u8; 81], sol: &[u8; 81]) -> bool {
        let units = (0..9).flat_map(|u| {
            let row: Vec<usize> = (0..9).map(|k| u * 9 + k).collect();
            let col: Vec<usize> = (0..9).map(|k| k * 9 + u).collect();
            let bx: Vec<usize> = (0..9)
                .map(|k| (u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3)
                .collect();
            [row, col, bx]
        });
        for unit in units {
            let mut seen = [false; 10];
            for i in unit {
                let v = sol[i] as usize;
                if !(1..=9).contains(&v) || seen[v] {
                    return false;
                }
                seen[v] = true;
            }
        }
        givens.iter().zip(sol).all(|(&g, &s)| g == 0 || g == s)
    }

    fn check_unique_sample(name: &str, step: usize) {
        let Some(text) = read(name) else { return };
        let mut n = 0;
        for line in text.lines().step_by(step) {
            let g = parse(line);
            let mut sol = [0u8; 81];
            assert_eq!(solve9(&g, 2, &mut sol), 1, "{name}: {line}");
            assert!(valid_solution(&g, &sol), "{name}: bad solution for {line}");
            n += 1;
        }
        assert!(n > 0, "{name}: no puzzles");
    }

    #[test]
    fn solution_counts_file() {
        let Some(text) = read("solution-counts.txt") else {
            return;
        };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut parts = line.split(':');
            let g = parse(parts.next().unwrap());
            let expected: usize = parts.next().unwrap().trim().parse().unwrap();
            let mut sol = [0u8; 81];
            let got = solve9(&g, 2, &mut sol);
            assert_eq!(got, expected.min(2), "{line}");
            match expected {
                0 => assert_eq!(sol, [0; 81], "solution touched: {line}"),
                1 => {
                    assert!(valid_solution(&g, &sol), "{line}");
                    if let Some(s) = parts.next() {
                        assert_eq!(sol, parse(s), "{line}");
                    }
                }
                _ => assert!(valid_solution(&g, &sol), "{line}"),
            }
            // Small exact counts must be reproduced with a large enough limit.
            if expected <= 20 {
                assert_eq!(solve9(&g, 1000, &mut sol), expected, "{line}");
            }
        }
    }

    #[test]
    fn sample_17_clue() {
        check_unique_sample("17-clue.txt", 50);
    }

    #[test]
    fn sample_top1465() {
        check_unique_sample("top1465.txt", 7);
    }

    #[test]
    fn sample_forum_hardest() {
        check_unique_sample("forum-hardest-1905-11plus.txt", 50);
    }

    #[test]
    fn sample_multiple_solutions() {
        let Some(text) = read("serg-multiple-solutions.txt") else {
            return;
        };
        for line in text.lines().step_by(50) {
            let g = parse(line);
            let mut sol = [0u8; 81];
            assert_eq!(solve9(&g, 2, &mut sol), 2, "{line}");
            assert!(valid_solution(&g, &sol), "{line}");
            let mut sol1 = [0u8; 81];
            assert_eq!(solve9(&g, 1, &mut sol1), 1, "{line}");
            assert!(valid_solution(&g, &sol1), "{line}");
        }
    }

    #[test]
    fn empty_grid() {
        let g = [0u8; 81];
        let mut sol = [0u8; 81];
        assert_eq!(solve9(&g, 1, &mut sol), 1);
        assert!(valid_solution(&g, &sol));
        assert_eq!(solve9(&g, 2, &mut sol), 2);
        assert_eq!(solve9(&g, 10, &mut sol), 10);
        assert_eq!(solve9(&g, 5000, &mut sol), 5000);
        assert!(valid_solution(&g, &sol));
    }

    const PUZZLE: &str =
        ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
    const ANSWER: &str =
        "652483917978162435314975628825736149791824563436519872269348751547291386183657294";

    #[test]
    fn solved_grid_and_limits() {
        let g = parse(PUZZLE);
        let full = parse(ANSWER);
        for limit in [1, 2, 10] {
            let mut sol = [0u8; 81];
            assert_eq!(solve9(&g, limit, &mut sol), 1);
            assert_eq!(sol, full);
            let mut sol = [0u8; 81];
            assert_eq!(solve9(&full, limit, &mut sol), 1);
            assert_eq!(sol, full);
        }
        // Removing givens from a unique puzzle until several solutions appear.
        let mut loose = full;
        for v in loose.iter_mut().take(27) {
            *v = 0;
        }
        for cell in [27, 28, 36, 37] {
            loose[cell] = 0;
        }
        let mut sol = [0u8; 81];
        let all = solve9(&loose, usize::MAX, &mut sol);
        assert!(all >= 1);
        assert!(valid_solution(&loose, &sol));
        for limit in [1, 2, 10] {
            assert_eq!(solve9(&loose, limit, &mut sol), all.min(limit));
        }
    }

    #[test]
    fn conflicting_givens() {
        let mut sol = [0u8; 81];
        let cases: [&[(usize, u8)]; 4] = [
            &[(0, 5), (8, 5)],   // same row
            &[(0, 5), (72, 5)],  // same column, different band
            &[(0, 5), (20, 5)],  // same box
            &[(40, 1), (41, 1)], // adjacent
        ];
        for case in cases {
            let mut g = [0u8; 81];
            for &(cell, v) in case {
                g[cell] = v;
            }
            assert_eq!(solve9(&g, 2, &mut sol), 0, "{case:?}");
            assert_eq!(sol, [0; 81]);
        }
        // A full grid with one swapped pair conflicts.
        let mut bad = parse(ANSWER);
        bad.swap(0, 1);
        bad[0] = bad[2];
        assert_eq!(solve9(&bad, 2, &mut sol), 0);
        // No conflict among givens, but no solution either: row 0 forbids 9 at cell 8.
        let mut g = [0u8; 81];
        for (c, v) in (0..8).zip(1..=8) {
            g[c] = v;
        }
        g[80] = 9;
        g[17] = 9;
        assert_eq!(solve9(&g, 2, &mut sol), 0);
        assert_eq!(sol, [0; 81]);
    }

    #[test]
    fn out_of_range_values() {
        let mut sol = [0u8; 81];
        for v in [10u8, 11, 200, 255] {
            let mut g = [0u8; 81];
            g[40] = v;
            assert_eq!(solve9(&g, 2, &mut sol), 0);
            let mut g = parse(PUZZLE);
            g[0] = v;
            assert_eq!(solve9(&g, 2, &mut sol), 0);
        }
        assert_eq!(sol, [0; 81]);
        assert_eq!(solve9(&[0u8; 81], 0, &mut sol), 0);
    }

    /// Givens are read eight cells at a time: a value over 9 and a clash are found at
    /// every cell position, including the last cell (the one outside the 8-byte chunks).
    #[test]
    fn givens_at_every_position() {
        let full = parse(ANSWER);
        let mut sol = [0u8; 81];
        for cell in 0..81 {
            for v in [10u8, 0x80, 0x8a, 255] {
                let mut g = full;
                g[cell] = v;
                assert_eq!(solve9(&g, 2, &mut sol), 0, "value {v} at cell {cell}");
            }
            // The full grid with one cell changed to its row neighbour's digit clashes.
            let mut g = full;
            g[cell] = full[if cell % 9 == 0 { cell + 1 } else { cell - 1 }];
            assert_eq!(solve9(&g, 2, &mut sol), 0, "clash at cell {cell}");
            // The full grid with one cell emptied is still unique.
            let mut g = full;
            g[cell] = 0;
            assert_eq!(solve9(&g, 2, &mut sol), 1, "empty cell {cell}");
            assert_eq!(sol, full);
        }
        assert_eq!(solve9(&full, 2, &mut sol), 1);
    }

    /// Cross-check against a naive backtracking counter, including unsolvable
    /// and directly conflicting grids.
    #[test]
    fn matches_naive_counter() {
        fn ok(g: &[u8; 81], i: usize, v: u8) -> bool {
            let (r, c) = (i / 9, i % 9);
            (0..9).all(|k| {
                let peers = [
                    r * 9 + k,
                    k * 9 + c,
                    (r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3,
                ];
                peers.iter().all(|&p| p == i || g[p] != v)
            })
        }
        fn count(g: &mut [u8; 81], limit: usize) -> usize {
            let Some(i) = g.iter().position(|&v| v == 0) else {
                return 1;
            };
            let mut n = 0;
            for v in 1..=9 {
                if ok(g, i, v) {
                    g[i] = v;
                    n += count(g, limit - n);
                    g[i] = 0;
                    if n >= limit {
                        break;
                    }
                }
            }
            n
        }
        let full = parse(ANSWER);
        let mut next = xorshift(0x9e37_79b9);
        let mut zeros = 0;
        for round in 0..300 {
            let mut g = full;
            for v in g.iter_mut() {
                if next() % 100 < 55 {
                    *v = 0;
                }
            }
            if round % 2 == 1 {
                // Overwrite a few givens: often unsolvable, sometimes conflicting.
                for _ in 0..1 + round % 3 {
                    let cell = next() as usize % 81;
                    if g[cell] != 0 {
                        g[cell] = 1 + (next() % 9) as u8;
                    }
                }
            }
            let consistent = (0..81).all(|i| g[i] == 0 || ok(&g, i, g[i]));
            let expected = if consistent {
                count(&mut g.clone(), 20)
            } else {
                0
            };
            zeros += usize::from(expected == 0);
            let mut sol = [0u8; 81];
            assert_eq!(solve9(&g, 20, &mut sol), expected, "{g:?}");
            if expected > 0 {
                assert!(valid_solution(&g, &sol));
            } else {
                assert_eq!(sol, [0; 81]);
            }
        }
        assert!(zeros > 10, "too few unsolvable cases: {zeros}");
    }

    /// Random grids of any density: no panic, count within limit, valid solutions.
    #[test]
    fn random_grids() {
        for g in random_givens(3000) {
            let mut sol = [0u8; 81];
            let n = solve9(&g, 3, &mut sol);
            assert!(n <= 3);
            if n > 0 {
                assert!(valid_solution(&g, &sol), "{g:?}");
            } else {
                assert_eq!(sol, [0; 81]);
            }
        }
    }
    // The whole files are covered by tests/conformance.rs.
}
