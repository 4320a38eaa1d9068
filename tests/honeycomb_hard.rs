//! The hard honeycombs of `honeycomb/hanicue-hard.txt` against run forcing: every step keeps
//! the solution, and no puzzle needs a guess.
//!
//! Plain `cargo test` checks one run forcing step on a position of that file. With
//! `TERMDOKU_HONEYCOMB_STRIDE=N` it also checks nested run forcing on a position where
//! every other technique is stuck (it needed a guess before; seconds even in release mode)
//! and walks every N-th puzzle of the file, every step checked against the solution (N = 1
//! is the whole set: `cargo test --release --test honeycomb_hard`).

mod common;

use common::folder;
use termdoku::coach::marks::read_position;
use termdoku::format::parse_line;
use termdoku::puzzle::{Grid, Variant};
use termdoku::solver::exact;
use termdoku::solver::logic::{
    apply, find_all, find_first, next_step, technique, Detail, SolverMemory,
};

/// Puzzle 4 of the file, after the 22 steps that precede its former guess.
const PUZZLE: &str = "............................................2........46.8..7.";
const MARKS: &str = include_str!("honeycomb_hard_marks.txt");
/// The same puzzle 101 steps in, where run forcing is the next step.
const LATER: &str = include_str!("honeycomb_run_forcing_marks.txt");

fn stride() -> Option<usize> {
    std::env::var("TERMDOKU_HONEYCOMB_STRIDE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
}

#[test]
fn run_forcing_rules_out_a_run_and_names_why() {
    let puzzle = parse_line(PUZZLE.as_bytes(), Variant::Honeycomb, "t", 1)
        .expect("parses")
        .expect("a puzzle");
    let sol = exact::solve(&puzzle, 2).first.expect("solvable");
    let mut lines = LATER.lines();
    let (marks, placed) = (lines.next().expect("marks"), lines.next().expect("placed"));
    let pos = read_position(
        Some(&puzzle),
        Some((marks, "marks")),
        Some((placed, "placed")),
    )
    .expect("the position reads");
    // Asked for by name: on the default path a cheaper technique may come first.
    let info = technique("run-forcing").expect("in the table");
    let step = find_first(&pos.grid, info, Some(&sol), &mut |_| true).expect("a step");
    assert_eq!(step.id(), "run-forcing");
    for e in &step.eliminations {
        assert_ne!(sol[e.cell], e.digit, "removes the true digit");
    }
    let text = step.explain(pos.grid.geometry(), Detail::Full);
    assert_eq!(
        text,
        "Run Forcing: \\ line 9 can hold 2-6, 3-7, 4-8 or 5-9; following each, with 2-6 it \
         breaks (row 2 can hold no run); whichever of 3-7, 4-8 or 5-9 it holds, remove 2 from \
         r3c7 and r4c8"
    );
}

/// Line 26 of the file, 104 steps in: pair enumeration and line fish are stuck, three
/// lines taken together are not.
const TRIPLE_PUZZLE: &str = ".............................................4..8......25.3.6";
const TRIPLE_MARKS: &str = "2457 34567 23457 2356 236 23456 2458 345 268 7 23456 2567 12345678 \
    1245789 579 123689 234568 24567 234567 125678 123789 12589 1369 12346789 2468 4567 237 \
    1245678 12789 1236789 1289 1345679 12456789 56 34 237 123578 1256789 1289 12589 145679 467 \
    345 6 35 4 279 279 8 35 4 16 1567 156 3 2 5 247 3 47 6";
const TRIPLE_PLACED: &str = ".........7.................................6......4...3......";

#[test]
fn run_triple_enumeration_removes_what_pairs_cannot_and_names_its_lines() {
    let puzzle = parse_line(TRIPLE_PUZZLE.as_bytes(), Variant::Honeycomb, "t", 1)
        .expect("parses")
        .expect("a puzzle");
    let sol = exact::solve(&puzzle, 2).first.expect("solvable");
    let pos = read_position(
        Some(&puzzle),
        Some((TRIPLE_MARKS, "marks")),
        Some((TRIPLE_PLACED, "placed")),
    )
    .expect("the position reads");
    assert!(find_all(&pos.grid, "run-pair-enumeration").is_empty());
    assert!(find_all(&pos.grid, "line-fish").is_empty());
    let steps = find_all(&pos.grid, "run-triple-enumeration");
    assert!(!steps.is_empty(), "three lines together remove something");
    for step in &steps {
        for e in &step.eliminations {
            assert_ne!(sol[e.cell], e.digit, "removes the true digit");
        }
    }
    let text = steps[0].explain(pos.grid.geometry(), Detail::Full);
    assert_eq!(
        text,
        "Run Triple Enumeration: taking the three lines together, with every pair of cells \
         that see each other distinct, row 7 can hold 2-8 or 3-9, / line 4 can hold 1-8 or 2-9 \
         and \\ line 6 can hold 1-8 or 2-9; with 2, 4, 6 and 8 placed, remove 7 from r6c6"
    );
}

#[test]
fn nested_run_forcing_unlocks_a_position_that_needed_a_guess() {
    if stride().is_none() {
        return;
    }
    let puzzle = parse_line(PUZZLE.as_bytes(), Variant::Honeycomb, "t", 1)
        .expect("parses")
        .expect("a puzzle");
    let sol = exact::solve(&puzzle, 2).first.expect("solvable");
    let mut lines = MARKS.lines();
    let marks = lines.next().expect("marks line");
    let placed = lines.next().expect("placed line");
    let pos = read_position(
        Some(&puzzle),
        Some((marks, "marks")),
        Some((placed, "placed")),
    )
    .expect("the position reads");
    let info = technique("nested-run-forcing").expect("in the table");
    let step = find_first(&pos.grid, info, Some(&sol), &mut |_| true)
        .expect("nested run forcing finds a step where nothing else does");
    assert!(!step.eliminations.is_empty() || !step.placements.is_empty());
    for e in &step.eliminations {
        assert_ne!(sol[e.cell], e.digit, "removes the true digit");
    }
    for p in &step.placements {
        assert_eq!(sol[p.cell], p.digit, "places a wrong digit");
    }
    let g = pos.grid.geometry();
    let text = step.explain(g, Detail::Full);
    assert!(text.starts_with("Nested Run Forcing: "), "{text}");
    assert!(
        text.contains(" can hold ") && text.contains("remove"),
        "{text}"
    );
}

/// Walks every `TERMDOKU_HONEYCOMB_STRIDE`-th hard honeycomb (none by default), checking
/// each step against the solution and counting guesses. It walks the default path, which
/// holds run forcing (not its nested tier, too slow for a hint) and deep forcing nets: with
/// those, none of the file guesses.
#[test]
fn sampled_hard_honeycombs_are_sound_and_need_no_guess() {
    let Some(stride) = stride() else {
        return;
    };
    let path = folder().join("honeycomb/hanicue-hard.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{} is missing: skipped", path.display());
        return;
    };
    let (mut n, mut guessed) = (0, Vec::new());
    for (i, line) in text.lines().enumerate().step_by(stride) {
        let Ok(Some(p)) = parse_line(line.as_bytes(), Variant::Honeycomb, "hard", i + 1) else {
            continue;
        };
        n += 1;
        let sol = exact::solve(&p, 1).first.expect("solvable");
        let mut grid = Grid::from_puzzle(&p);
        let mut memory = SolverMemory::new();
        let mut guesses = 0;
        while let Some(step) = next_step(&grid, Some(&sol), &mut memory) {
            for e in &step.eliminations {
                assert_ne!(
                    sol[e.cell],
                    e.digit,
                    "line {}: {} removes the true digit",
                    i + 1,
                    step.id()
                );
            }
            for c in &step.placements {
                assert_eq!(
                    sol[c.cell],
                    c.digit,
                    "line {}: {} places a wrong digit",
                    i + 1,
                    step.id()
                );
            }
            guesses += usize::from(step.id() == "guess");
            apply(&mut grid, &step);
        }
        assert!(grid.is_solved(), "line {} not finished", i + 1);
        if guesses > 0 {
            guessed.push(i + 1);
        }
    }
    println!("hanicue-hard: {n} puzzles (every {stride}th), needing a guess: {guessed:?}");
    assert!(guessed.is_empty(), "lines needing a guess: {guessed:?}");
}
