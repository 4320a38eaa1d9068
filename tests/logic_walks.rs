//! The logic solver on generated puzzles of every variant and size: no panic, and every
//! step (the hint the player gets, and every step of every technique at sampled positions)
//! sound against the exact solution. Every technique must work or decline on every size.
//!
//! CI runs a handful of puzzles per variant; `TERMDOKU_PROPTEST_CASES=N` runs N/100 per
//! variant and size (at least the default), e.g. 10000 for a hundred each.

use termdoku::generate::{Generator, Level, Options};
use termdoku::puzzle::{Grid, Puzzle, Variant};
use termdoku::solver::logic::{apply, find_all, next_step, techniques, SolverMemory, Step};

/// Puzzles per variant and size: `default`, or more with `TERMDOKU_PROPTEST_CASES`.
fn cases(default: u64) -> u64 {
    std::env::var("TERMDOKU_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(default, |n| (n / 100).max(default))
}

fn check_sound(step: &Step, solution: &[u8], what: &str) {
    for c in &step.placements {
        assert_eq!(
            solution[c.cell],
            c.digit,
            "{what}: {} places a wrong digit",
            step.id()
        );
    }
    for c in &step.eliminations {
        assert_ne!(
            solution[c.cell],
            c.digit,
            "{what}: {} removes the true digit",
            step.id()
        );
    }
}

/// Every step of every technique in this position (what a training drill or the rater may
/// ask for), each checked against the solution.
fn every_technique(grid: &Grid, solution: &[u8], what: &str) {
    for t in techniques() {
        for step in find_all(grid, t.id) {
            check_sound(&step, solution, &format!("{what}, all {}", t.id));
        }
    }
}

/// Walks the hint path to the end; runs every technique once, at the first position with
/// at most `probe_empty` empty cells (few empty cells keep the slowest searches short; on
/// 9x9 and up a debug build gives them too long at the start).
fn walk(p: &Puzzle, solution: &[u8], probe_empty: Option<usize>, what: &str) {
    let mut grid = Grid::from_puzzle(p);
    // A fresh memory per puzzle, as `rate` and `explain` walk.
    let mut memory = SolverMemory::new();
    let mut probed = false;
    for i in 0..=grid.geometry().cell_count() * 16 {
        let empty = (0..grid.geometry().cell_count())
            .filter(|&c| grid.value(c) == 0)
            .count();
        if !probed && probe_empty.is_some_and(|n| empty <= n) {
            probed = true;
            every_technique(&grid, solution, &format!("{what} step {i}"));
        }
        let Some(step) = next_step(&grid, Some(solution), &mut memory) else {
            break;
        };
        check_sound(&step, solution, &format!("{what} step {i}"));
        apply(&mut grid, &step);
    }
    assert!(
        grid.is_solved(),
        "{what}: the hint path stops before the end"
    );
}

fn run(variant: Variant, size: usize, levels: &[Level], default: u64, probe_empty: Option<usize>) {
    for i in 0..cases(default) {
        let level = levels[i as usize % levels.len()];
        let mut opts = Options::new(variant, level);
        opts.size = size;
        let what = format!("{variant} {size}x{size} {} #{i}", level.name());
        let generator = Generator::new(opts, 7).expect("a supported combination");
        let g = match generator.generate(i) {
            Ok(g) => g,
            // A level the size cannot reach is the generator's concern, not the solver's.
            Err(e) => {
                println!("{what}: {e}");
                continue;
            }
        };
        walk(&g.puzzle, &g.solution, probe_empty, &what);
    }
}

#[test]
fn standard_4x4_and_6x6() {
    run(Variant::Standard, 4, &[Level::Easy], 3, Some(16));
    run(
        Variant::Standard,
        6,
        &[Level::Hard, Level::Unfair],
        2,
        Some(36),
    );
}

#[test]
fn standard_9x9() {
    run(
        Variant::Standard,
        9,
        &[Level::Hard, Level::Extreme],
        3,
        Some(12),
    );
}

#[test]
fn standard_16x16() {
    run(Variant::Standard, 16, &[Level::Easy], 2, Some(6));
}

#[test]
fn diagonal() {
    run(Variant::Diagonal, 6, &[Level::Hard], 1, Some(36));
    run(Variant::Diagonal, 9, &[Level::Hard], 2, None);
}

#[test]
fn jigsaw() {
    run(Variant::Jigsaw, 6, &[Level::Hard], 2, Some(36));
    run(Variant::Jigsaw, 9, &[Level::Hard], 2, None);
}

#[test]
fn killer() {
    run(Variant::Killer, 4, &[Level::Medium], 2, Some(16));
    run(Variant::Killer, 6, &[Level::Medium], 2, Some(36));
    run(Variant::Killer, 9, &[Level::Hard], 1, None);
}

#[test]
fn honeycomb() {
    run(Variant::Honeycomb, 9, &[Level::Hard], 2, Some(12));
}

/// What the solver's memory keeps between positions (searches of a digit that found nothing,
/// skipped while the digit's cells stay as they were; nets of earlier positions) changes no
/// step past the singles: a walk carrying one memory takes, at every position, the step a
/// fresh memory gives. (Which single comes first follows the walk's history on purpose:
/// HoDoKu's singles queues, see `singles_queue`.)
#[test]
fn carried_memory_changes_no_step() {
    use termdoku::generate::shipped::shipped;
    use termdoku::solver::exact;
    let picks = [
        (Variant::Standard, Level::Extreme, 2),
        (Variant::Standard, Level::Unfair, 1),
        (Variant::Diagonal, Level::Extreme, 1),
    ];
    let mut compared = 0;
    for (variant, level, count) in picks {
        for (k, p) in shipped(variant, level).iter().take(count).enumerate() {
            let what = format!("{variant:?} {level:?} puzzle {}", k + 1);
            let solution = exact::solve(p, 1).first.expect("shipped puzzles solve");
            let mut grid = Grid::from_puzzle(p);
            let mut carried = SolverMemory::new();
            for i in 0..=grid.geometry().cell_count() * 16 {
                let warm = next_step(&grid, Some(&solution), &mut carried);
                let cold = next_step(&grid, Some(&solution), &mut SolverMemory::new());
                let single = |s: &Option<Step>| {
                    s.as_ref().is_some_and(|s| {
                        matches!(s.id(), "full-house" | "naked-single" | "hidden-single")
                    })
                };
                assert!(
                    warm == cold || single(&warm) && single(&cold),
                    "{what}, step {i}: {:?} with the carried memory, {:?} with a fresh one",
                    warm.as_ref().map(|s| s.id()),
                    cold.as_ref().map(|s| s.id())
                );
                compared += usize::from(!single(&cold));
                let Some(step) = warm else {
                    break;
                };
                apply(&mut grid, &step);
            }
            assert!(grid.is_solved(), "{what}: the walk stops before the end");
        }
    }
    assert!(
        compared > 10,
        "only {compared} steps past the singles compared"
    );
}
