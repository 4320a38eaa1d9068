//! What each rule kind of a house allows, in one place for the exact and the logic solver:
//! the digit sets a run or cage may hold, cage combinations, which cell-digit pairs fit
//! some assignment of a set, and the digits a house must hold given its candidates.

use crate::geometry::{Digits, House, Rule};
use crate::puzzle::Grid;

/// Every set of `k` distinct digits from `1..=n` adding up to `sum`.
pub fn combinations(n: u8, k: usize, sum: u32) -> Vec<u16> {
    (0u32..(1 << n))
        .filter(|m| m.count_ones() as usize == k && Digits(*m as u16).sum() == sum)
        .map(|m| m as u16)
        .collect()
}

/// The digit sets a house may hold: None for `Complete` (all digits), the consecutive
/// windows of its length for a run, the combinations of its sum for a cage.
pub fn digit_sets(rule: Rule, len: usize, n: u8) -> Option<Vec<u16>> {
    match rule {
        Rule::Complete => None,
        Rule::ConsecutiveRun => Some(
            (1..=(usize::from(n) + 1).saturating_sub(len))
                .map(|lo| Digits::range(lo as u8, (lo + len - 1) as u8).0)
                .collect(),
        ),
        Rule::Cage { sum } => Some(combinations(n, len, sum)),
    }
}

/// For cells whose candidates are `masks`, all taking distinct digits of `window` (as many
/// digits as cells): the candidates that lie on some perfect matching, or None when there is
/// no perfect matching.
pub fn viable_edges(masks: &[u16], window: u16) -> Option<[u16; 16]> {
    const FREE: u8 = u8::MAX;
    let n = masks.len();
    let mut owner = [FREE; 16]; // digit bit -> cell
    let mut matched = [0u16; 16]; // cell -> digit bit
    fn augment(
        cell: usize,
        masks: &[u16],
        window: u16,
        owner: &mut [u8; 16],
        seen: &mut u16,
    ) -> bool {
        let mut m = masks[cell] & window & !*seen;
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            *seen |= 1 << b;
            if owner[b] == FREE || augment(owner[b] as usize, masks, window, owner, seen) {
                owner[b] = cell as u8;
                return true;
            }
        }
        false
    }
    for cell in 0..n {
        let mut seen = 0u16;
        if !augment(cell, masks, window, &mut owner, &mut seen) {
            return None;
        }
    }
    for (b, &o) in owner.iter().enumerate() {
        if o != FREE {
            matched[o as usize] = 1 << b;
        }
    }
    // Digit graph: the owner of digit m could move to d, so m -> d. A free edge (cell, d)
    // is on some perfect matching iff d reaches the cell's matched digit.
    let mut reach = [0u16; 16];
    for cell in 0..n {
        let m = matched[cell].trailing_zeros() as usize;
        reach[m] |= masks[cell] & window & !matched[cell];
    }
    let mut ks = window;
    while ks != 0 {
        let k = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        let kb = 1u16 << k;
        let mut is = window;
        while is != 0 {
            let i = is.trailing_zeros() as usize;
            is &= is - 1;
            if reach[i] & kb != 0 {
                reach[i] |= reach[k];
            }
        }
    }
    let mut out = [0u16; 16];
    for cell in 0..n {
        let mut ok = matched[cell];
        let mut rest = masks[cell] & window & !matched[cell];
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if reach[b] & matched[cell] != 0 {
                ok |= 1 << b;
            }
        }
        out[cell] = ok;
    }
    Some(out)
}

/// Digits that must appear in a house given the current candidates: all of them for a
/// `Complete` house; for runs and cages, the digits common to every feasible digit set.
pub fn must_appear(grid: &Grid, house: &House) -> Digits {
    let g = grid.geometry();
    let n = g.max_digit();
    let Some(sets) = digit_sets(house.rule, house.cells.len(), n) else {
        return g.all_digits();
    };
    let mut once = Digits::EMPTY;
    for &c in &house.cells {
        once |= grid.candidates(c);
    }
    let mut must = Digits(u16::MAX);
    let mut any = false;
    for set in sets {
        let set = Digits(set);
        // Feasible: every digit has a cell that can take it, every cell a digit of the set.
        if set.is_subset(once)
            && house
                .cells
                .iter()
                .all(|&c| !(grid.candidates(c) & set).is_empty())
        {
            must &= set;
            any = true;
        }
    }
    if any {
        must
    } else {
        Digits::EMPTY
    }
}
