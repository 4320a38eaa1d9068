//! Results of the run and cage rules by line state, kept per thread.
//!
//! Forcing nets ask a rule about the same masks of a line again and again: hundreds of
//! branches per search, and the searches of successive steps, meet the same states. The
//! result is a pure function of the rule's signature and the masks, so it is cached.
//!
//! Lines of up to 9 cells with digits up to 9 (honeycombs, killer cages of 9x9 grids) pack
//! key and result into one `u128` each: a slot is 32 bytes, two to a cache line, and the
//! table lookup (a third of a hard honeycomb's time with 72-byte keys and results) touches
//! one line. Wider houses keep a smaller table of full keys.

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

/// Packed slots (a power of two; 16 MB per thread).
const PACKED_BITS: u32 = 19;
/// Full-key slots for wider houses (a power of two).
const WIDE_BITS: u32 = 14;

type WideKey = (RuleSig, [u16; 16]);

struct Memo {
    /// `[key, result]`, both packed; a zero key is an empty slot (a packed key holds its
    /// length, never zero).
    packed: Vec<[u128; 2]>,
    wide: Vec<Option<(WideKey, RuleOut)>>,
    hasher: FixedState,
}

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo {
        packed: vec![[0; 2]; 1 << PACKED_BITS],
        wide: vec![None; 1 << WIDE_BITS],
        hasher: FixedState::default(),
    });
}

/// Mask width of a packed line: digits 1 to 9.
const W: u32 = 9;
const MASK: u16 = (1 << W) - 1;

fn pack_key(sig: RuleSig, masks: &[u16]) -> Option<u128> {
    let (kind, len, max, sum) = sig;
    if masks.len() > 9 || max > 9 || kind > 3 || len > 15 || sum > 63 || len == 0 {
        return None;
    }
    let mut k = 0u128;
    for (i, &m) in masks.iter().enumerate() {
        if m > MASK {
            return None;
        }
        k |= u128::from(m) << (W * i as u32);
    }
    let tail = u128::from(len) | u128::from(kind) << 4 | u128::from(max) << 6;
    Some(k | (tail | u128::from(sum) << 10) << 81)
}

fn pack_out(r: &RuleOut, len: usize) -> u128 {
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

fn slot(k: u128) -> usize {
    let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> (64 - PACKED_BITS)) as usize
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

/// The cached result of the rule `sig` on `masks` (at most 16 cells), if any.
pub fn get(sig: RuleSig, masks: &[u16]) -> Option<RuleOut> {
    MEMO.with(|m| {
        let m = m.borrow();
        match pack_key(sig, masks) {
            Some(k) => {
                let [key, out] = m.packed[slot(k)];
                (key == k).then(|| unpack_out(out, masks.len()))
            }
            None => {
                let key = wide_key(sig, masks);
                match &m.wide[m.wide_slot(&key)] {
                    Some((k, r)) if *k == key => Some(*r),
                    _ => None,
                }
            }
        }
    })
}

/// Caches `r` as the result of the rule `sig` on `masks`; a newer key evicts an older one.
pub fn insert(sig: RuleSig, masks: &[u16], r: &RuleOut) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        match pack_key(sig, masks) {
            Some(k) => m.packed[slot(k)] = [k, pack_out(r, masks.len())],
            None => {
                let key = wide_key(sig, masks);
                let i = m.wide_slot(&key);
                m.wide[i] = Some((key, *r));
            }
        }
    })
}

/// Empties this thread's memo.
pub fn clear() {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        m.packed.fill([0; 2]);
        m.wide.fill(None);
    })
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
        assert!(pack_key(sig, &masks).is_some());
        insert(sig, &masks, &r);
        assert_eq!(get(sig, &masks), Some(r));
        // Another signature or one more digit in a mask is another key.
        assert_eq!(get((2, 5, 9, 0), &masks), None);
        let mut other = masks;
        other[3] |= 0b10;
        assert_eq!(get(sig, &other), None);
        insert((1, 5, 9, 0), &other, &RuleOut::BROKEN);
        assert_eq!(get(sig, &other), Some(RuleOut::BROKEN));
    }

    #[test]
    fn wide_lines_keep_full_keys() {
        let sig = (2, 10, 16, 100);
        let masks = [0xFFFF; 10];
        assert!(pack_key(sig, &masks).is_none());
        let r = out(&[0x1234; 10], 0x8000);
        insert(sig, &masks, &r);
        assert_eq!(get(sig, &masks), Some(r));
    }
}
