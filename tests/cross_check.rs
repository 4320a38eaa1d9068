//! The fast paths (9x9 bitboards, bit planes) against the reference cell-list solver, on
//! random puzzles of every variant: same count, and solutions that obey the rules.

use proptest::prelude::*;
use termdoku::geometry::square::CageSpec;
use termdoku::puzzle::{Layout, Puzzle, Variant};
use termdoku::solver::exact::{reference_from_givens, solve};

/// A valid full grid for a layout, found by the reference solver, then shuffled digits.
fn solved(layout: &Layout) -> Vec<u8> {
    let p = Puzzle::new(layout.clone(), vec![0; layout.cell_count()]).unwrap();
    reference_from_givens(p.geometry(), &p.givens, 1)
        .first
        .unwrap()
}

fn layouts() -> Vec<Layout> {
    let mut out = vec![
        Layout::new(Variant::Standard, 4),
        Layout::new(Variant::Standard, 6),
        Layout::new(Variant::Standard, 9),
        Layout::new(Variant::Diagonal, 9),
        Layout::new(Variant::Diagonal, 6),
        Layout::new(Variant::Honeycomb, 9),
    ];
    let mut jigsaw = Layout::new(Variant::Jigsaw, 6);
    jigsaw.regions = Some("AAABBBAAABBBCCCDDDCCCDDDEEEFFFEEEFFF".chars().collect());
    out.push(jigsaw);
    let mut killer = Layout::new(Variant::Killer, 4);
    killer.cages = vec![
        CageSpec {
            sum: 3,
            cells: vec![0, 1],
        },
        CageSpec {
            sum: 7,
            cells: vec![2, 3],
        },
        CageSpec {
            sum: 10,
            cells: vec![12, 13, 14, 15],
        },
    ];
    out.push(killer);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_paths_agree_with_the_reference(which in 0usize..8, keep in proptest::collection::vec(any::<bool>(), 81), shift in 0u8..16) {
        let layout = layouts().swap_remove(which);
        let full = solved(&layout);
        // Keep a random subset of the solution's cells, and sometimes break one given so
        // unsolvable grids are compared too.
        let mut givens: Vec<u8> = full.iter().zip(keep.iter().cycle()).map(|(&d, &k)| if k { d } else { 0 }).collect();
        if shift > 12 {
            if let Some(i) = givens.iter().position(|&d| d != 0) {
                let max = *full.iter().max().unwrap();
                givens[i] = givens[i] % max + 1;
            }
        }
        let p = Puzzle::new(layout, givens).unwrap();
        let fast = solve(&p, 2);
        let reference = reference_from_givens(p.geometry(), &p.givens, 2);
        prop_assert_eq!(fast.count, reference.count);
        if let Some(sol) = &fast.first {
            prop_assert!(p.check_solution(sol).is_ok(), "{:?}", p.check_solution(sol));
        }
    }
}

#[test]
fn sixteen_by_sixteen_is_solved() {
    let layout = Layout::new(Variant::Standard, 16);
    let full = solved(&layout);
    let givens: Vec<u8> = full
        .iter()
        .enumerate()
        .map(|(i, &d)| if i % 3 == 0 { 0 } else { d })
        .collect();
    let p = Puzzle::new(layout, givens).unwrap();
    let s = solve(&p, 2);
    assert_eq!(s.count, 1);
    assert_eq!(s.first.unwrap(), full);
}
