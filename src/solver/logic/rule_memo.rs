//! Results of the run and cage rules by line state, kept in the caller's
//! [`SolverMemory`](super::SolverMemory).
//!
//! Forcing nets ask a rule about the same masks of a line again and again: hundreds of
//! branches per search, and the searches of successive steps, meet the same states. The
//! result is a pure function of the rule's signature and the masks, so it is cached.
//!
//! Lines of up to 9 cells with digits up to 9 (honeycombs, killer cages of 9x9 grids) pack
//! key and result into one `u128` each: a slot is 32 bytes, two to a cache line, and the
//! table lookup (a third of a hard honeycomb's time with 72-byte keys and results) touches
//! one line. Wider houses keep a smaller table of full keys.
//!
//! Short runs (computed afresh on a miss, see `DIRECT_MAX` in the forcing engine) have a
//! table of their own with nothing behind it, small enough to stay close to the core: about
//! a third of their asks hit it, and hc25 rates 1.02-1.04x faster (three alternated pairs,
//! one thread; the same line state comes back within a few thousand asks;
//! a table of 2^14 slots hit more but cost more per load: no gain measured). Tried and
//! dropped for them: the big table (slower than computing), and witnesses (kept placements)
//! proving that nothing goes, though 88% of asks change nothing: a pool of 64 placements
//! per line length covered 8.5% of asks. Per line (house) instead, a ring of 32
//! placements found by a matching (Kuhn's) for each candidate left uncovered after a rule
//! ran, checked before the memo (issue 22, hc25 puzzle 12, `rate`): 29% of run asks
//! covered (1.20 of 4.15 million), rules computed 3.05 -> 2.51 million, but 5.19 million
//! placements searched (the lines' states differ from branch to branch, so the ring
//! thrashes), each costing about what a rule does: 3.01 s -> 4.43 s with at most two
//! placements searched per ask, 1.75x slower on hc25's first 10 lines without a bound.
//! Counted on the same puzzle: 93% of the rules asked derive nothing new (most of the
//! rest place a cell that is already placed); of those, 1.36 million follow a single
//! removal from the line's closed state.
//!
//! Also tried for the direct table (hs9, hc25 alternated on one core, base/new): two ways a
//! set in one 64-byte-aligned cache line (the newest key first), same size: 46.17/46.56,
//! 44.11/46.05 s; the same with four times the sets (512 KB): 54.67, 43.92 s (noise, no
//! gain). Live states of closed lines instead of answers: see `run_rule`.

use foldhash::fast::FixedState;
use std::hash::BuildHasher;

/// What the rule of a run or cage concludes from its cells' masks, by position in the
/// house: the digits some feasible set gives each cell, the digits every feasible set
/// holds, and whether no set is feasible at all.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleOut {
    pub allowed: [u16; 16],
    pub must: u16,
    pub broken: bool,
}

impl RuleOut {
    pub const BROKEN: RuleOut = RuleOut {
        allowed: [0; 16],
        must: u16::MAX,
        broken: true,
    };
}

/// Which sets a rule allows: its kind (run or cage), length, largest digit and sum.
pub type RuleSig = (u8, u8, u8, u16);

/// Packed slots (a power of two; 16 MB per memory, allocated on first insert).
const PACKED_BITS: u32 = 19;
/// Slots of the near table in front of it (256 KB: it stays in a core's L2 cache).
const NEAR_BITS: u32 = 13;
/// Full-key slots for wider houses (a power of two).
const WIDE_BITS: u32 = 14;
/// Slots of the table of lines computed afresh on every miss (128 KB: it stays in a core's
/// L2 cache, and has no big table behind it).
const DIRECT_BITS: u32 = 12;

type WideKey = (RuleSig, [u16; 16]);

/// The memo; both tables are empty until their first insert (most walks never ask a run
/// or cage rule through a net).
#[derive(Default)]
pub struct Memo {
    /// `[key, result]`, both packed; a zero key is an empty slot (a packed key holds its
    /// length, never zero).
    packed: Vec<[u128; 2]>,
    /// The same slots for the keys met last: a hard honeycomb's nets ask the big table
    /// hundreds of millions of times, and there each lookup was a miss to main memory (88%
    /// of its time on one load, a third of the whole walk); successive inner nets of a
    /// branch ask about the same few line states, which this table keeps close.
    near: Vec<[u128; 2]>,
    wide: Vec<Option<(WideKey, RuleOut)>>,
    /// Packed slots for the lines whose rule is cheap enough to compute on a miss (short
    /// runs): only a table close to the core pays for them (a load from main memory costs
    /// about what their rule does).
    direct: Vec<[u128; 2]>,
    hasher: FixedState,
}

/// Mask width of a packed line: digits 1 to 9.
const W: u32 = 9;
const MASK: u16 = (1 << W) - 1;

fn pack_key(sig: RuleSig, masks: &[u16]) -> Option<u128> {
    if masks.len() > 9 {
        return None;
    }
    let mut k = 0u128;
    for (i, &m) in masks.iter().enumerate() {
        if m > MASK {
            return None;
        }
        k |= u128::from(m) << (W * i as u32);
    }
    with_sig(sig, k)
}

/// The packed key of a line whose masks are packed already (cell `i` at bits `9 i..`, at
/// most 9 cells: the layout of the forcing engine's closed keys).
pub fn with_sig(sig: RuleSig, masks: u128) -> Option<u128> {
    let (kind, len, max, sum) = sig;
    if max > 9 || kind > 3 || len > 15 || sum > 63 || len == 0 || masks >> 81 != 0 {
        return None;
    }
    let tail = u128::from(len) | u128::from(kind) << 4 | u128::from(max) << 6;
    Some(masks | (tail | u128::from(sum) << 10) << 81)
}

/// A packed result (see [`Memo::direct_packed`]): per cell the digits allowed at bits
/// `9 i..`, the digits every feasible set holds at bits 81 to 89, bit 127 for no feasible
/// set.
pub fn pack_out(r: &RuleOut, len: usize) -> u128 {
    if r.broken {
        return 1 << 127;
    }
    let mut p = u128::from(r.must & MASK) << 81;
    for (i, &a) in r.allowed[..len].iter().enumerate() {
        p |= u128::from(a & MASK) << (W * i as u32);
    }
    p
}

fn unpack_out(p: u128, len: usize) -> RuleOut {
    if p >> 127 == 1 {
        return RuleOut::BROKEN;
    }
    let mut allowed = [0u16; 16];
    for (i, a) in allowed[..len].iter_mut().enumerate() {
        *a = (p >> (W * i as u32)) as u16 & MASK;
    }
    RuleOut {
        allowed,
        must: (p >> 81) as u16 & MASK,
        broken: false,
    }
}

/// The hash of a packed key: its top `PACKED_BITS` bits index the big table, the top
/// `NEAR_BITS` the near one.
fn hash(k: u128) -> u64 {
    let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

fn slot(k: u128) -> usize {
    (hash(k) >> (64 - PACKED_BITS)) as usize
}

fn near_slot(k: u128) -> usize {
    (hash(k) >> (64 - NEAR_BITS)) as usize
}

fn wide_key(sig: RuleSig, masks: &[u16]) -> WideKey {
    let mut key = [0u16; 16];
    key[..masks.len()].copy_from_slice(masks);
    (sig, key)
}

impl Memo {
    fn wide_slot(&self, key: &WideKey) -> usize {
        (self.hasher.hash_one(key) as usize) & ((1 << WIDE_BITS) - 1)
    }
}

impl Memo {
    /// The cached result of the rule `sig` on `masks` (at most 16 cells), if any.
    pub fn get(&self, sig: RuleSig, masks: &[u16]) -> Option<RuleOut> {
        match pack_key(sig, masks) {
            Some(k) => {
                let [key, out] = *self.near.get(near_slot(k))?;
                if key == k {
                    return Some(unpack_out(out, masks.len()));
                }
                let [key, out] = *self.packed.get(slot(k))?;
                (key == k).then(|| unpack_out(out, masks.len()))
            }
            None => {
                let key = wide_key(sig, masks);
                match self.wide.get(self.wide_slot(&key))? {
                    Some((k, r)) if *k == key => Some(*r),
                    _ => None,
                }
            }
        }
    }

    /// [`Memo::get`], keeping a hit of the big table in the near one too (the same key is
    /// likely asked again soon).
    pub fn lookup(&mut self, sig: RuleSig, masks: &[u16]) -> Option<RuleOut> {
        if let Some(k) = pack_key(sig, masks) {
            let [key, out] = *self.near.get(near_slot(k))?;
            if key == k {
                return Some(unpack_out(out, masks.len()));
            }
            let entry = *self.packed.get(slot(k))?;
            if entry[0] != k {
                return None;
            }
            self.near[near_slot(k)] = entry;
            return Some(unpack_out(entry[1], masks.len()));
        }
        self.get(sig, masks)
    }

    /// Caches `r` as the result of the rule `sig` on `masks`; a newer key evicts an older
    /// one.
    pub fn insert(&mut self, sig: RuleSig, masks: &[u16], r: &RuleOut) {
        match pack_key(sig, masks) {
            Some(k) => {
                if self.packed.is_empty() {
                    self.packed = vec![[0; 2]; 1 << PACKED_BITS];
                    self.near = vec![[0; 2]; 1 << NEAR_BITS];
                }
                let entry = [k, pack_out(r, masks.len())];
                self.packed[slot(k)] = entry;
                self.near[near_slot(k)] = entry;
            }
            None => {
                if self.wide.is_empty() {
                    self.wide = vec![None; 1 << WIDE_BITS];
                }
                let key = wide_key(sig, masks);
                let i = self.wide_slot(&key);
                self.wide[i] = Some((key, *r));
            }
        }
    }

    /// The result of the rule `sig` on `masks` from the table of cheap lines, or `compute`'s
    /// (then kept there).
    pub fn direct(
        &mut self,
        sig: RuleSig,
        masks: &[u16],
        compute: impl FnOnce() -> RuleOut,
    ) -> RuleOut {
        let Some(k) = pack_key(sig, masks) else {
            return compute();
        };
        if self.direct.is_empty() {
            self.direct = vec![[0; 2]; 1 << DIRECT_BITS];
        }
        let i = (hash(k) >> (64 - DIRECT_BITS)) as usize;
        let [key, out] = self.direct[i];
        if key == k {
            return unpack_out(out, masks.len());
        }
        let r = compute();
        self.direct[i] = [k, pack_out(&r, masks.len())];
        r
    }

    /// [`Memo::direct`] on a key packed by [`with_sig`], answering packed (see
    /// [`pack_out`]): the forcing engine packs the masks anyway (its closed keys), and reads
    /// most answers without unpacking them (nothing changes on 88% of asks).
    pub fn direct_packed(&mut self, k: u128, compute: impl FnOnce() -> u128) -> u128 {
        if self.direct.is_empty() {
            self.direct = vec![[0; 2]; 1 << DIRECT_BITS];
        }
        let i = (hash(k) >> (64 - DIRECT_BITS)) as usize;
        if let Some(&[key, out]) = self.direct.get(i) {
            if key == k {
                return out;
            }
        }
        let out = compute();
        if let Some(slot) = self.direct.get_mut(i) {
            *slot = [k, out];
        }
        out
    }

    /// Empties the memo (keeping its tables).
    pub fn clear(&mut self) {
        self.packed.fill([0; 2]);
        self.near.fill([0; 2]);
        self.direct.fill([0; 2]);
        self.wide.fill(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(allowed: &[u16], must: u16) -> RuleOut {
        let mut a = [0; 16];
        a[..allowed.len()].copy_from_slice(allowed);
        RuleOut {
            allowed: a,
            must,
            broken: false,
        }
    }

    #[test]
    fn a_packed_result_reads_back_as_stored() {
        let sig = (1, 5, 9, 0);
        let masks = [
            0b1_1100_0000,
            0b0_0111_0000,
            0b1_1111_1111,
            0b0_0000_0001,
            0b1_0000_0000,
        ];
        let r = out(
            &[
                0b1_0000_0000,
                0b0_0100_0000,
                0b0_0011_1000,
                0,
                0b1_0000_0000,
            ],
            0b111,
        );
        let mut m = Memo::default();
        assert!(pack_key(sig, &masks).is_some());
        assert_eq!(m.get(sig, &masks), None);
        m.insert(sig, &masks, &r);
        assert_eq!(m.get(sig, &masks), Some(r));
        // Another signature or one more digit in a mask is another key.
        assert_eq!(m.get((2, 5, 9, 0), &masks), None);
        let mut other = masks;
        other[3] |= 0b10;
        assert_eq!(m.get(sig, &other), None);
        m.insert((1, 5, 9, 0), &other, &RuleOut::BROKEN);
        assert_eq!(m.get(sig, &other), Some(RuleOut::BROKEN));
        m.clear();
        assert_eq!(m.get(sig, &masks), None);
    }

    #[test]
    fn a_key_pushed_out_of_the_near_table_reads_back_from_the_big_one() {
        let sig = (1, 5, 9, 0);
        let key = |i: u16| [i & 0x1FF, (i >> 9) | 1, 0x1FF, 0x1F0, 0x00F];
        let a = key(1);
        let ka = pack_key(sig, &a).expect("packs");
        // Another key sharing a's near slot but not its big-table slot.
        let b = (2..u16::MAX)
            .map(key)
            .find(|b| {
                let kb = pack_key(sig, b).expect("packs");
                near_slot(kb) == near_slot(ka) && slot(kb) != slot(ka)
            })
            .expect("a colliding key");
        let (ra, rb) = (out(&[1, 2, 4, 8, 16], 0), RuleOut::BROKEN);
        let mut m = Memo::default();
        m.insert(sig, &a, &ra);
        m.insert(sig, &b, &rb);
        assert_eq!(m.lookup(sig, &a), Some(ra));
        assert_eq!(m.lookup(sig, &b), Some(rb));
        assert_eq!(m.get(sig, &a), Some(ra));
    }

    #[test]
    fn a_cheap_line_is_computed_once_then_read_back() {
        let sig = (1, 5, 9, 0);
        let masks = [
            0b1_1000_0000,
            0b0_0111_0000,
            0b1_1111_1111,
            1,
            0b1_0000_0000,
        ];
        let r = out(&[0b1_0000_0000, 0b0_0100_0000, 0b0_0011_1000, 1, 0], 0b1);
        let mut m = Memo::default();
        let mut calls = 0;
        assert_eq!(
            m.direct(sig, &masks, || {
                calls += 1;
                r
            }),
            r
        );
        // Read back: the second computation (a wrong answer) is never asked for.
        assert_eq!(
            m.direct(sig, &masks, || {
                calls += 1;
                RuleOut::BROKEN
            }),
            r
        );
        assert_eq!(calls, 1);
        // Another line is another key.
        let mut other = masks;
        other[1] |= 1 << 3;
        assert_eq!(m.direct(sig, &other, || RuleOut::BROKEN), RuleOut::BROKEN);
        m.clear();
        assert_eq!(m.direct(sig, &masks, || RuleOut::BROKEN), RuleOut::BROKEN);
    }

    #[test]
    fn wide_lines_keep_full_keys() {
        let sig = (2, 10, 16, 100);
        let masks = [0xFFFF; 10];
        assert!(pack_key(sig, &masks).is_none());
        let r = out(&[0x1234; 10], 0x8000);
        let mut m = Memo::default();
        assert_eq!(m.get(sig, &masks), None);
        m.insert(sig, &masks, &r);
        assert_eq!(m.get(sig, &masks), Some(r));
    }
}
