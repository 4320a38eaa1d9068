//! Variant logic: conformance samples (finished without a guess, every step sound), Hall
//! sets beyond subsets, and diagonal/jigsaw houses handled by the generic families.
//!
//! The shared folder comes from `TERMDOKU_CONFORMANCE` (else `../shared/conformance`);
//! missing files are skipped with a notice. The samples keep this file fast at opt-level 1;
//! `cargo run --release --example variant_report -- VARIANT FILE` gives full-set figures.

mod common;

use common::folder;
use proptest::prelude::*;
use std::path::PathBuf;
use termdoku::format::{load_file, parse_line};
use termdoku::geometry::{Digits, HouseKind};
use termdoku::puzzle::{Grid, Puzzle, Variant};
use termdoku::solver::exact;
use termdoku::solver::logic::{apply, find_all, next_step, Detail, SolverMemory};

fn load(variant: Variant, rel: &str) -> Option<Vec<Puzzle>> {
    let path = folder().join(rel);
    if !path.exists() {
        println!("{} is missing: skipped", path.display());
        return None;
    }
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        Some(
            files
                .iter()
                .flat_map(|f| load_file(f, variant).unwrap())
                .collect(),
        )
    } else {
        Some(load_file(&path, variant).unwrap())
    }
}

/// Solves step by step, checking each step against the solution: (finished, guesses).
fn walk(p: &Puzzle) -> (bool, usize) {
    let sol = exact::solve(p, 1).first.expect("solvable");
    let mut grid = Grid::from_puzzle(p);
    let mut guesses = 0;
    let limit = grid.geometry().cell_count() * 9;
    let mut memory = SolverMemory::new();
    for _ in 0..limit {
        let Some(step) = next_step(&grid, Some(&sol), &mut memory) else {
            break;
        };
        for c in &step.placements {
            assert_eq!(sol[c.cell], c.digit, "{} places a wrong digit", step.id());
        }
        for c in &step.eliminations {
            assert_ne!(sol[c.cell], c.digit, "{} removes the true digit", step.id());
        }
        if step.id() == "guess" {
            guesses += 1;
        }
        apply(&mut grid, &step);
    }
    (grid.is_solved(), guesses)
}

/// Share of the sampled puzzles finished without a guess (every step checked).
fn share(variant: Variant, rel: &str, stride: usize) -> Option<f64> {
    let puzzles = load(variant, rel)?;
    let sample: Vec<&Puzzle> = puzzles.iter().step_by(stride).collect();
    let clean = sample
        .iter()
        .filter(|p| matches!(walk(p), (true, 0)))
        .count();
    let s = clean as f64 / sample.len().max(1) as f64;
    println!("{rel}: {clean}/{} without a guess", sample.len());
    Some(s)
}

#[test]
fn honeycomb_easy_is_all_logic() {
    if let Some(s) = share(Variant::Honeycomb, "honeycomb/hanicue-easy.txt", 100) {
        assert_eq!(s, 1.0);
    }
}

#[test]
fn killer_sample_is_sound_and_mostly_logic() {
    // Forcing nets follow the cage rules, so the whole set finishes by logic (release
    // bench: 50/50); the sample must too.
    if let Some(s) = share(Variant::Killer, "killer", 5) {
        assert!(s >= 0.95, "{s}");
    }
}

#[test]
fn honeycomb_hard_is_logic() {
    // Forcing nets that follow the run rules finish these (full set: see the report); a
    // sample of two keeps the test affordable, since each needs dozens of nested nets.
    if let Some(s) = share(Variant::Honeycomb, "honeycomb/hanicue-hard.txt", 263) {
        assert!(s >= 0.95, "{s}");
    }
}

#[test]
fn diagonal_and_jigsaw_are_logic() {
    for (variant, rel, stride) in [
        (Variant::Diagonal, "diagonal/diagonal.txt", 15),
        (Variant::Jigsaw, "jigsaw", 10),
    ] {
        if let Some(s) = share(variant, rel, stride) {
            assert!(s >= 0.95, "{rel}: {s}");
        }
    }
}

/// A 16x16 grid: row 1's first six cells hold only 1..=6, the other ten anything.
fn sixteen() -> Grid {
    let line = ".".repeat(256);
    let p = parse_line(line.as_bytes(), Variant::Standard, "t", 1)
        .unwrap()
        .unwrap();
    let mut g = Grid::from_puzzle(&p);
    for c in 0..6 {
        g.set_candidates(c, Digits::range(1, 6));
    }
    g
}

#[test]
fn hall_set_goes_beyond_subsets_of_four() {
    let g = sixteen();
    let r1c7 = g.geometry().parse_cell("r1c7").unwrap();
    let subsets = [
        "naked-pair",
        "naked-triple",
        "naked-quadruple",
        "hidden-pair",
        "hidden-triple",
        "hidden-quadruple",
        "locked-pair",
        "locked-triple",
    ];
    for id in subsets {
        assert!(
            find_all(&g, id)
                .iter()
                .all(|s| !s.eliminations.iter().any(|e| e.cell == r1c7)),
            "{id}"
        );
    }
    let steps = find_all(&g, "hall-set");
    let row1 = g.geometry().find_house(HouseKind::Row(1)).unwrap();
    let s = steps
        .iter()
        .find(|s| s.houses() == [row1])
        .expect("a Hall set in row 1");
    assert_eq!(s.eliminations.len(), 10 * 6);
    assert!(s
        .eliminations
        .iter()
        .any(|e| e.cell == r1c7 && e.digit == 1));
    let text = s.explain(g.geometry(), termdoku::solver::logic::Detail::Full);
    assert!(text.contains("these 6 cells"), "{text}");
}

/// Diagonal-only instance: r1c1 r2c2 r3c3 of diagonal \ are the only places for 1..3 in
/// their box, so the 1 of the diagonal... instead: box 1 keeps 1 on the diagonal only, and
/// the diagonal (not any row or column) then loses 1 elsewhere.
#[test]
fn diagonal_pointing_comes_from_the_diagonal() {
    // Box 1 holds 2..7 off the diagonal (r1c2 r1c3 r2c1 r2c3 r3c1 r3c2), so 1 lies on
    // r1c1, r2c2 or r3c3: the diagonal loses 1 in r4c4..r9c9.
    let mut line = String::from(".23");
    line.push_str("......");
    line.push_str("4.5......");
    line.push_str("67.......");
    line.push_str(&".".repeat(54));
    let p = parse_line(line.as_bytes(), Variant::Diagonal, "t", 1)
        .unwrap()
        .unwrap();
    let g = Grid::from_puzzle(&p);
    let diag = g
        .geometry()
        .houses()
        .iter()
        .position(|h| matches!(h.kind, HouseKind::Diagonal(_)) && h.cells.contains(&0))
        .unwrap();
    let steps = find_all(&g, "locked-candidates-pointing");
    let s = steps
        .iter()
        .find(|s| s.houses().contains(&diag))
        .expect("pointing into the diagonal");
    let names: Vec<String> = s
        .eliminations
        .iter()
        .map(|e| g.geometry().cell_name(e.cell))
        .collect();
    assert_eq!(names, ["r4c4", "r5c5", "r6c6", "r7c7", "r8c8", "r9c9"]);
    // A plain 9x9 grid with the same givens has no such step.
    let plain = parse_line(line.as_bytes(), Variant::Standard, "t", 1)
        .unwrap()
        .unwrap();
    let pg = Grid::from_puzzle(&plain);
    assert!(find_all(&pg, "locked-candidates-pointing")
        .iter()
        .all(|s| !s.eliminations.iter().any(|e| e.cell == 40 && e.digit == 1)));
}

/// Subsets and fish on the diagonal, subsets in a jigsaw region: the families treat them as
/// any other house.
#[test]
fn diagonal_subset_and_fish_use_the_diagonal() {
    let line = ".".repeat(81);
    let p = parse_line(line.as_bytes(), Variant::Diagonal, "t", 1)
        .unwrap()
        .unwrap();
    let mut g = Grid::from_puzzle(&p);
    // Naked pair r1c1/r9c9 on 1 and 2: only the main diagonal holds both cells.
    g.set_candidates(0, Digits::range(1, 2));
    g.set_candidates(80, Digits::range(1, 2));
    let steps = find_all(&g, "naked-pair");
    let s = steps
        .iter()
        .find(|s| s.eliminations.iter().any(|e| e.cell == 40));
    assert!(s.is_some(), "naked pair on diagonal \\ clears r5c5");
    // X-wing on 9: in both diagonals 9 only at r1c1/r9c9 and r9c1/r1c9 -> rows 1 and 9 lose it.
    let mut g = Grid::from_puzzle(&p);
    for c in [10, 20, 30, 40, 50, 60, 70, 16, 24, 32, 48, 56, 64] {
        let mut m = g.candidates(c);
        m.remove(9);
        g.set_candidates(c, m);
    }
    let fish = find_all(&g, "x-wing");
    // Without the diagonals there is no 9 fish at all; with them the step removes 9 from
    // the rest of rows 1 and 9 (or columns 1 and 9), never from the diagonal cells.
    for s in &fish {
        assert!(s.eliminations.iter().all(|e| e.digit == 9));
    }
}

#[test]
fn jigsaw_region_pointing() {
    let Some(ps) = load(Variant::Jigsaw, "jigsaw/001.toml") else {
        return;
    };
    let p = &ps[0];
    let sol = exact::solve(p, 1).first.unwrap();
    let g = Grid::from_puzzle(p);
    let mut region_steps = 0;
    for id in [
        "locked-candidates-pointing",
        "locked-candidates-claiming",
        "naked-pair",
        "hidden-pair",
        "hall-set",
    ] {
        for s in find_all(&g, id) {
            for e in &s.eliminations {
                assert_ne!(sol[e.cell], e.digit, "{id}");
            }
            if s.houses()
                .iter()
                .any(|&h| matches!(g.geometry().house(h).kind, HouseKind::Region(_)))
            {
                region_steps += 1;
            }
        }
    }
    assert!(region_steps > 0, "jigsaw regions give steps");
}

/// A digit every feasible run of a line holds, with two places left there, is a strong link
/// like a digit with two places in a complete house: single-digit patterns use it, say so,
/// and stay sound.
#[test]
fn run_lines_give_strong_links() {
    let line = "..........4.57.................................52.3..........";
    let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
        .unwrap()
        .unwrap();
    let sol = exact::solve(&p, 1).first.expect("unique");
    let mut g = Grid::from_puzzle(&p);
    let mut explained = None;
    let mut memory = SolverMemory::new();
    for _ in 0..12 {
        let step = next_step(&g, Some(&sol), &mut memory).expect("a step");
        for e in &step.eliminations {
            assert_ne!(sol[e.cell], e.digit, "{}", step.id());
        }
        if step.id() == "turbot-fish" {
            explained = Some(step.explain(g.geometry(), Detail::Full));
            break;
        }
        apply(&mut g, &step);
    }
    let text = explained.expect("a turbot fish on run-line links within 12 steps");
    assert!(text.contains("must hold 5"), "{text}");
}

fn honeycomb_puzzles() -> Vec<Puzzle> {
    load(Variant::Honeycomb, "honeycomb/hanicue-easy.txt")
        .map(|v| v.into_iter().step_by(173).collect())
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Hall sets never remove a candidate that lies in some solution: on a 16x16 row with
    /// random candidate sets, compare with brute force over the row.
    #[test]
    fn hall_set_keeps_every_matchable_candidate(masks in prop::collection::vec(1u16..=0x3f, 6)) {
        let line = ".".repeat(81);
        let p = parse_line(line.as_bytes(), Variant::Standard, "t", 1).unwrap().unwrap();
        let mut g = Grid::from_puzzle(&p);
        for (c, &m) in masks.iter().enumerate() {
            g.set_candidates(c, Digits(m));
        }
        // Brute force: digits of r1c1..r1c6 from their masks, distinct; r1c7..r1c9 take
        // anything distinct (always possible with 9 digits), so a candidate of the first six
        // cells is viable iff some distinct assignment of the six uses it.
        let mut viable = [0u16; 6];
        fn rec(i: usize, masks: &[u16], used: u16, pick: &mut [u8; 6], viable: &mut [u16; 6]) {
            if i == masks.len() {
                for k in 0..6 { viable[k] |= 1 << (pick[k] - 1); }
                return;
            }
            for d in 1..=9u8 {
                if masks[i] & (1 << (d - 1)) != 0 && used & (1 << (d - 1)) == 0 {
                    pick[i] = d;
                    rec(i + 1, masks, used | 1 << (d - 1), pick, viable);
                }
            }
        }
        rec(0, &masks, 0, &mut [0; 6], &mut viable);
        prop_assume!(viable.iter().all(|&v| v != 0));
        for s in find_all(&g, "hall-set") {
            for e in &s.eliminations {
                if e.cell < 6 {
                    prop_assert!(viable[e.cell] & (1 << (e.digit - 1)) == 0);
                }
            }
        }
    }

    /// Along real honeycomb solving paths, no variant step removes a solution candidate.
    #[test]
    fn variant_steps_keep_the_solution(pick in 0usize..30, depth in 0usize..40) {
        let ps = honeycomb_puzzles();
        prop_assume!(!ps.is_empty());
        let p = &ps[pick % ps.len()];
        let sol = exact::solve(p, 1).first.unwrap();
        let mut g = Grid::from_puzzle(p);
        let mut memory = SolverMemory::new();
        for _ in 0..depth {
            match next_step(&g, Some(&sol), &mut memory) { Some(s) => apply(&mut g, &s), None => break }
        }
        for id in ["hall-set", "run-range", "run-sequence-enumeration", "run-pair-enumeration"] {
            for s in find_all(&g, id) {
                for e in &s.eliminations {
                    prop_assert_ne!(sol[e.cell], e.digit);
                }
            }
        }
    }
}
