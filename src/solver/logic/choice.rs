//! Which instance of a technique the solver takes when several apply.
//!
//! For most techniques HoDoKu 2.2 takes the first instance its finder meets, and so do we
//! (each finder enumerates in HoDoKu's order). For chains, loops, ALS chains and forcing
//! chains and nets it collects every instance and sorts them; the rating path (and so the
//! score) depends on which one comes first, so these techniques are collected and sorted
//! here by the same rules: most eliminations first, then (when the eliminations differ)
//! the lowest cells and digits, then the shortest chain. Forcing nets are the exception:
//! collecting them all doubled top1465's rating time, so the first found is taken.

use super::{Candidate, Pattern, Step, TechniqueInfo};
use std::cmp::Ordering;

/// How a technique's instances are ordered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Order {
    /// HoDoKu's general step order (`SolutionStep.compareTo`): chains and loops.
    Chains,
    /// Its forcing chain and net order (`TablingSolver.TablingComparator`).
    Tabling,
    /// Its ALS order (`AlsComparator`): ALS chains.
    Als,
}

/// The order of a technique that is collected and sorted, and its pool: techniques of one
/// pool are one search in HoDoKu (nice loops and AICs are found together and the best of
/// both is taken), so their instances are sorted together.
pub(crate) fn sorted(info: &TechniqueInfo) -> Option<(Order, &'static str)> {
    let pool = match info.id {
        "x-chain" | "xy-chain" => info.id,
        "nice-loop" | "aic" => "loops",
        "grouped-nice-loop" | "grouped-aic" => "grouped-loops",
        "als-nice-loop" | "als-aic" => "als-loops",
        // Forcing nets are not collected: every net of a position costs seconds on the
        // hardest 9x9 puzzles (top1465 rating took twice as long), so the first is taken.
        "forcing-chain" => info.id,
        "als-chain" => info.id,
        _ => return None,
    };
    let order = match info.id {
        "forcing-chain" => Order::Tabling,
        "als-chain" => Order::Als,
        _ => Order::Chains,
    };
    Some((order, pool))
}

/// The instance HoDoKu would take: the first of `steps` (in found order) that no other
/// sorts before.
pub(crate) fn best(steps: Vec<Step>, order: Order) -> Option<Step> {
    let keyed: Vec<(Key, Step)> = steps.into_iter().map(|s| (Key::of(&s), s)).collect();
    let mut best: Option<usize> = None;
    for i in 0..keyed.len() {
        let better = match best {
            None => true,
            Some(b) => compare(&keyed[i].0, &keyed[b].0, order) == Ordering::Less,
        };
        if better {
            best = Some(i);
        }
    }
    let b = best?;
    keyed.into_iter().nth(b).map(|(_, s)| s)
}

/// What the comparisons read from a step.
struct Key {
    id: &'static str,
    /// Eliminations and placements sorted by cell, then digit (HoDoKu lists them so).
    elims: Vec<Candidate>,
    places: Vec<Candidate>,
    /// Nodes over all chains of the step.
    length: usize,
    /// ALS steps: number of sets and of cells in them.
    sets: usize,
    set_cells: usize,
}

impl Key {
    fn of(s: &Step) -> Key {
        let mut elims = s.eliminations.clone();
        elims.sort_unstable();
        let mut places = s.placements.clone();
        places.sort_unstable();
        let (length, sets, set_cells) = match &s.pattern {
            Pattern::Chains { chains } | Pattern::Forcing { chains, .. } => {
                (chains.iter().map(Vec::len).sum(), 0, 0)
            }
            Pattern::Als { sets, .. } => (0, sets.len(), sets.iter().map(|(c, _)| c.len()).sum()),
            _ => (0, 0, 0),
        };
        Key {
            id: s.id(),
            elims,
            places,
            length,
            sets,
            set_cells,
        }
    }
}

/// HoDoKu's index sum of a list of eliminations: later entries weigh more, so that lists
/// of the same cells in another order differ.
fn index_sum(list: &[Candidate]) -> i64 {
    let mut sum = 0i64;
    let mut offset = 1i64;
    for c in list {
        sum += c.cell as i64 * offset + i64::from(c.digit);
        offset += 80;
    }
    sum
}

fn compare(a: &Key, b: &Key, order: Order) -> Ordering {
    match order {
        Order::Chains => {
            // Steps that place a digit come first.
            let placing = a.places.is_empty().cmp(&b.places.is_empty());
            if placing != Ordering::Equal {
                return placing;
            }
            let n = b.elims.len().cmp(&a.elims.len());
            if n != Ordering::Equal {
                return n;
            }
            if a.id != b.id || a.elims != b.elims {
                // Not the same step: by index sum only (equal sums keep found order).
                return index_sum(&a.elims).cmp(&index_sum(&b.elims));
            }
            a.length.cmp(&b.length)
        }
        Order::Tabling => {
            let placing = a.places.is_empty().cmp(&b.places.is_empty());
            if placing != Ordering::Equal {
                return placing;
            }
            if !a.places.is_empty() {
                let n = b.places.len().cmp(&a.places.len());
                if n != Ordering::Equal {
                    return n;
                }
                if a.places != b.places {
                    let sum = |l: &[Candidate]| l.iter().map(|c| c.cell).sum::<usize>();
                    let by_cells = sum(&a.places).cmp(&sum(&b.places));
                    if by_cells != Ordering::Equal {
                        return by_cells;
                    }
                }
                return a.length.cmp(&b.length);
            }
            let n = b.elims.len().cmp(&a.elims.len());
            if n != Ordering::Equal {
                return n;
            }
            let key = |c: &Candidate| c.cell * 10 + usize::from(c.digit);
            for (x, y) in a.elims.iter().zip(&b.elims) {
                let o = key(x).cmp(&key(y));
                if o != Ordering::Equal {
                    return o;
                }
            }
            a.length.cmp(&b.length)
        }
        Order::Als => {
            let n = b.elims.len().cmp(&a.elims.len());
            if n != Ordering::Equal {
                return n;
            }
            if a.elims != b.elims {
                return index_sum(&a.elims).cmp(&index_sum(&b.elims));
            }
            a.sets.cmp(&b.sets).then(a.set_cells.cmp(&b.set_cells))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::logic::{technique, ChainNode};

    fn chain_step(id: &str, nodes: usize, elims: &[(usize, u8)]) -> Step {
        let info = technique(id).unwrap();
        let chain = vec![ChainNode::default(); nodes];
        Step::new(
            info,
            Pattern::Chains {
                chains: vec![chain],
            },
        )
        .eliminate(elims.iter().map(|&(c, d)| Candidate::new(c, d)).collect())
    }

    #[test]
    fn chains_prefer_more_eliminations_then_lower_cells_then_shorter_chains() {
        let few = chain_step("aic", 4, &[(0, 5)]);
        let many = chain_step("aic", 12, &[(40, 5), (41, 5)]);
        let got = best(vec![few.clone(), many.clone()], Order::Chains).unwrap();
        assert_eq!(got.eliminations, many.eliminations);
        let low = chain_step("aic", 10, &[(3, 5)]);
        let high = chain_step("aic", 4, &[(30, 5)]);
        let got = best(vec![high, low.clone()], Order::Chains).unwrap();
        assert_eq!(got.eliminations, low.eliminations);
        let long = chain_step("aic", 10, &[(3, 5)]);
        let short = chain_step("aic", 6, &[(3, 5)]);
        let got = best(vec![long, short], Order::Chains).unwrap();
        assert_eq!(got.pattern, chain_step("aic", 6, &[]).pattern);
    }

    #[test]
    fn a_step_that_places_comes_before_any_that_only_removes() {
        let info = technique("forcing-chain").unwrap();
        let chains = |n: usize| Pattern::Chains {
            chains: vec![vec![ChainNode::default(); n]],
        };
        let removes = Step::new(info, chains(3)).eliminate(vec![
            Candidate::new(0, 1),
            Candidate::new(1, 1),
            Candidate::new(2, 1),
        ]);
        let places = Step::new(info, chains(12)).place(80, 9);
        for order in [Order::Tabling, Order::Chains] {
            let got = best(vec![removes.clone(), places.clone()], order).unwrap();
            assert_eq!(got.placements, places.placements, "{order:?}");
            let got = best(vec![places.clone(), removes.clone()], order).unwrap();
            assert_eq!(got.placements, places.placements, "{order:?}");
        }
    }

    #[test]
    fn nice_loops_and_aics_are_sorted_together() {
        let a = sorted(technique("nice-loop").unwrap()).map(|x| x.1);
        let b = sorted(technique("aic").unwrap()).map(|x| x.1);
        assert_eq!(a, b);
        assert!(sorted(technique("x-wing").unwrap()).is_none());
    }
}
