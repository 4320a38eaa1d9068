//! Hall sets: all-different propagation by bipartite matching (Hall's theorem, Regin 1994).
//!
//! Every rule kind makes the digits of a house distinct, so the empty cells of any house
//! and the digits they may take form a bipartite graph in which a solution is a matching
//! that covers every cell. A candidate lies on no such matching exactly when some set of
//! `k` cells can only take `k` digits that include it while the candidate's cell is not
//! among them: a Hall set. Naked and hidden subsets are the Hall sets of size 2..=4 that
//! a person spots; this family finds them at any size (16x16 grids, long runs and cages),
//! and each step names its Hall set, so the explanation stays "these k cells can only take
//! these k digits".

use super::step::{cell_list, digit_list, effect_text, house_name};
use super::{Candidate, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{Cell, Digits, Geometry};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if info.id != "hall-set" {
        return ControlFlow::Continue(());
    }
    for h in 0..ctx.geo.houses().len() {
        let open = ctx.t.house_sets[h].and(ctx.empty);
        // Two cells make at most a naked pair, which the subsets family already reports;
        // more than 16 cells do not fit the digit masks.
        let len = open.len() as usize;
        if !(3..=16).contains(&len) {
            continue;
        }
        // Fixed arrays: this runs for every house of every position.
        let mut cells = [0; 16];
        let mut masks = [0u16; 16];
        for (i, c) in open.iter().enumerate() {
            cells[i] = c;
            masks[i] = ctx.cand[c].0;
        }
        let (cells, masks) = (&cells[..len], &masks[..len]);
        for (hall_cells, digits) in hall_sets(masks) {
            let inside: Vec<Cell> = hall_cells.iter().map(|&i| cells[i]).collect();
            let mut elims = Vec::new();
            for (i, &c) in cells.iter().enumerate() {
                if hall_cells.contains(&i) {
                    continue;
                }
                for d in (ctx.cand[c] & digits).iter() {
                    elims.push(Candidate::new(c, d));
                }
            }
            if elims.is_empty() {
                continue;
            }
            sink(
                Step::new(
                    info,
                    Pattern::Subset {
                        houses: vec![h],
                        cells: inside.clone(),
                        digits,
                        hidden: false,
                    },
                )
                .eliminate(elims)
                .house(h, Role::Defining)
                .candidates(&inside, digits, Role::Defining),
            )?;
        }
    }
    ControlFlow::Continue(())
}

/// The Hall sets that remove candidates: `(cell indexes, digits)` with as many cells as
/// digits, the cells' candidates inside the digits, and some other cell holding one of the
/// digits. Empty when no matching covers every cell (a broken grid: nothing to explain).
///
/// A maximum matching gives each cell a digit; "digit m can pass to digit e" when m's cell
/// also holds e. A candidate `d` of a cell is on some covering matching iff from `d` one can
/// pass to a free digit or back to the cell's own digit; otherwise every digit reachable
/// from `d` is owned by a cell whose candidates are all reachable: those cells are the Hall
/// set that excludes the candidate.
pub fn hall_sets(masks: &[u16]) -> Vec<(Vec<usize>, Digits)> {
    let n = masks.len();
    if n > 16 {
        return Vec::new();
    }
    const FREE: usize = usize::MAX;
    let mut owner = [FREE; 16];
    fn augment(cell: usize, masks: &[u16], owner: &mut [usize; 16], seen: &mut u16) -> bool {
        let mut m = masks[cell] & !*seen;
        while m != 0 {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            *seen |= 1 << b;
            if owner[b] == FREE || augment(owner[b], masks, owner, seen) {
                owner[b] = cell;
                return true;
            }
        }
        false
    }
    for cell in 0..n {
        let mut seen = 0u16;
        if !augment(cell, masks, &mut owner, &mut seen) {
            return Vec::new();
        }
    }
    let mut matched = [0u16; 16];
    let mut free = 0u16;
    for (b, &o) in owner.iter().enumerate() {
        if o == FREE {
            free |= 1 << b;
        } else {
            matched[o] = 1 << b;
        }
    }
    // reach[b]: digits reachable from digit b (itself included), by transitive closure.
    let mut reach = [0u16; 16];
    for (b, r) in reach.iter_mut().enumerate() {
        *r = 1 << b;
        if owner[b] != FREE {
            *r |= masks[owner[b]];
        }
    }
    // Only digits some cell holds can reach further.
    let union = masks.iter().fold(0u16, |a, &m| a | m);
    loop {
        let mut changed = false;
        let mut digits = union;
        while digits != 0 {
            let b = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut acc = reach[b];
            let mut it = reach[b];
            while it != 0 {
                let e = it.trailing_zeros() as usize;
                it &= it - 1;
                acc |= reach[e];
            }
            if acc != reach[b] {
                reach[b] = acc;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out: Vec<(Vec<usize>, Digits)> = Vec::new();
    for cell in 0..n {
        let mut rest = masks[cell] & !matched[cell];
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let r = reach[b];
            if r & free != 0 || r & matched[cell] != 0 {
                continue;
            }
            if out.iter().any(|(_, d)| d.0 == r) {
                continue;
            }
            let hall: Vec<usize> = (0..n).filter(|&c| matched[c] & r != 0).collect();
            out.push((hall, Digits(r)));
        }
    }
    // Smallest sets first: they are the easiest to see.
    out.sort_by_key(|(c, _)| c.len());
    out
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Subset {
        houses,
        cells,
        digits,
        ..
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let house = houses
        .first()
        .map_or_else(String::new, |&h| house_name(g, h));
    match detail {
        Detail::Nudge => format!("Look at {house}"),
        Detail::Technique => format!("There is a Hall set of {} cells in {house}", cells.len()),
        Detail::Full => format!(
            "Hall Set: in {house}, these {k} cells ({}) can only take these {k} digits ({}), \
             so no other cell of {house} can hold them: {}",
            cell_list(g, cells),
            digit_list(*digits),
            effect_text(g, step),
            k = cells.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_naked_set_behind_each_removal() {
        // Cells 0..3 hold only 1, 2, 3; cell 3 holds 1..=4: it loses 1, 2 and 3.
        let masks = [0b0011, 0b0110, 0b0101, 0b1111];
        let sets = hall_sets(&masks);
        assert_eq!(sets, vec![(vec![0, 1, 2], Digits(0b0111))]);
    }

    #[test]
    fn nothing_when_every_candidate_can_be_matched() {
        assert!(hall_sets(&[0b011, 0b110, 0b101]).is_empty());
        // No covering matching at all: a broken house, nothing reported.
        assert!(hall_sets(&[0b1, 0b1, 0b111]).is_empty());
    }
}
