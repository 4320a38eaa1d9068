//! Known-net nesting: a candidate goes when what its net is known to imply clashes with
//! the branch (bit sets over the dense candidates of the start).

use super::*;

/// What setting each candidate true is known to imply (its plain net from the start, then
/// its known-net branch), as bit sets over the dense candidates of the start: per candidate,
/// `words` words of facts on, then `words` words of facts off. All zero when unknown.
///
/// A sweep reads `sets` and learns into `next`, so that what it finds does not depend on the
/// order of its branches (which a known solution changes).
///
/// `by`: the same read the other way, for the sweep's `sets`: per candidate, `words` words of
/// the candidates whose known net places it, then `words` of those whose net removes it. A
/// branch that removes a candidate clashes with every net that places it, and the other
/// way round: a few rows per fact of the branch instead of a test per candidate.
#[derive(Default)]
pub(super) struct Known {
    sets: Vec<u64>,
    next: Vec<u64>,
    by: Vec<u64>,
    words: usize,
}

impl Known {
    /// Fills `by` from `sets`.
    fn transpose(&mut self) {
        let w = self.words;
        // No known nets (none were set up, e.g. a 16x16 start over the dense limit).
        if w == 0 {
            self.by.clear();
            return;
        }
        self.by.clear();
        self.by.resize(self.sets.len(), 0);
        for (row, chunk) in self.sets.chunks(w).enumerate() {
            // Row `2y` holds what y's net places, `2y + 1` what it removes.
            let (y, half) = (row / 2, row % 2);
            for (k, &word) in chunk.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let z = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.by[(z * 2 + half) * w + y / 64] |= 1 << (y % 64);
                }
            }
        }
    }

    /// The candidates whose known net clashes with candidate `z` being true (`on`: their
    /// net removes it) or false (their net places it).
    fn clashing(&self, z: usize, on: bool) -> &[u64] {
        let row = z * 2 + usize::from(on);
        &self.by[row * self.words..(row + 1) * self.words]
    }
}

impl Engine<'_> {
    /// Sets the bit of fact `f` in the bit sets (on, then off, `words` each) at `base`; whether
    /// it was new. Facts of candidates absent at the start are skipped.
    pub(super) fn set_fact(&self, sets: &mut [u64], words: usize, base: usize, f: Fact) -> bool {
        let (c, d, on) = unfact(f);
        let i = usize::from(self.dense[c * 32 + usize::from(d)]);
        if i >= self.dense_len {
            return false;
        }
        let at = base + if on { 0 } else { words } + i / 64;
        let bit = 1u64 << (i % 64);
        let new = sets[at] & bit == 0;
        sets[at] |= bit;
        new
    }

    /// Adds branch `b`'s facts to the known net of its assumption `x`: whether any was new.
    pub(super) fn learn(&self, x: &Candidate, b: &Branch) -> bool {
        let mut known = self.known.borrow_mut();
        let ix = usize::from(self.dense[x.cell * 32 + usize::from(x.digit)]);
        if ix >= self.dense_len || known.next.is_empty() {
            return false;
        }
        let words = known.words;
        let mut new = false;
        for &f in &b.derived {
            new |= self.set_fact(&mut known.next, words, ix * 2 * words, f);
        }
        new
    }

    /// The known nets from the plain nets of the search before (see [`Known`]).
    pub(super) fn start_known(&self) {
        if self.dense_len == 0 {
            return;
        }
        let words = self.dense_len.div_ceil(64);
        let mut sets = vec![0; self.dense_len * 2 * words];
        for (y, net) in self.nets.borrow().iter().enumerate() {
            let iy = usize::from(self.dense[y]);
            if let (Some(net), true) = (net, iy < self.dense_len) {
                for &f in net {
                    self.set_fact(&mut sets, words, iy * 2 * words, f);
                }
            }
        }
        let mut known = Known {
            next: sets.clone(),
            sets,
            by: Vec::new(),
            words,
        };
        known.transpose();
        *self.known.borrow_mut() = known;
    }

    /// Ends a sweep of known nesting: what it learnt is read from now on.
    pub(super) fn next_known(&self) {
        let mut known = self.known.borrow_mut();
        let Known { sets, next, .. } = &mut *known;
        sets.clone_from(next);
        known.transpose();
    }

    /// Known-net nesting: remove every candidate of the branch whose known net (see
    /// [`Known`]) clashes with a fact of the branch (places a digit the branch removed, or
    /// removes one it placed), and follow the consequences, until nothing changes.
    ///
    /// Every rule is monotone, so if that candidate were true, every fact of its known net
    /// would hold inside the branch too, and one clash is a contradiction. A few word
    /// operations per fact of the branch (rows of [`Known::clashing`]) instead of a net per
    /// candidate: much cheaper than full nesting, and it finds part of what full nesting
    /// finds (measured: a fifth of the nested steps of the hardest honeycombs).
    pub(super) fn nest_known(&self, b: &mut Branch, queue: &mut Vec<Fact>, assume: Fact) {
        let known = self.known.borrow();
        if known.sets.is_empty() {
            return;
        }
        let k = &*known;
        // The candidates whose known net clashes with a fact of the branch so far. They are
        // removed in the order of a scan over the candidates that starts over until a whole
        // pass removes nothing (the order only shapes the proofs).
        let mut doomed = vec![0u64; k.words];
        let (mut seen, mut at) = (0, 0);
        while b.contradiction.is_none() {
            for &f in &b.derived[seen..] {
                let (c, d, on) = unfact(f);
                let z = usize::from(self.dense[c * 32 + usize::from(d)]);
                if z < self.dense_len {
                    for (w, &r) in doomed.iter_mut().zip(k.clashing(z, on)) {
                        *w |= r;
                    }
                }
            }
            seen = b.derived.len();
            // The next doomed candidate still in the branch, from `at` on, wrapping around.
            let next = (0..self.dense_len)
                .map(|s| (at + s) % self.dense_len)
                .find(|&y| {
                    let (c, d) = self.dense_cand[y];
                    doomed[y / 64] & (1 << (y % 64)) != 0
                        && b.value[c] == 0
                        && b.cand[c].contains(d)
                });
            let Some(y) = next else {
                break;
            };
            let (c, d) = self.dense_cand[y];
            self.remove_nested(b, queue, assume, fact(c, d, false));
            at = (y + 1) % self.dense_len;
        }
    }

    /// Whether known nesting, with the known nets read now, would remove nothing more from
    /// branch `b` that it finished: no candidate left in `b` has a known net that clashes
    /// with a fact of `b`. Then `b` is closed under it, and the branch made again would end
    /// in the same state (the largest closed one inside its start).
    pub(super) fn known_settled(&self, b: &Branch) -> bool {
        let known = self.known.borrow();
        if known.sets.is_empty() || b.contradiction.is_some() {
            return false;
        }
        let mut doomed = vec![0u64; known.words];
        for &f in &b.derived {
            let (c, d, on) = unfact(f);
            let z = usize::from(self.dense[c * 32 + usize::from(d)]);
            if z < self.dense_len {
                for (w, &r) in doomed.iter_mut().zip(known.clashing(z, on)) {
                    *w |= r;
                }
            }
        }
        let alive = |y: usize| {
            let (c, d) = self.dense_cand[y];
            b.value[c] == 0 && b.cand[c].contains(d)
        };
        (0..self.dense_len).all(|y| doomed[y / 64] & (1 << (y % 64)) == 0 || !alive(y))
    }
}
