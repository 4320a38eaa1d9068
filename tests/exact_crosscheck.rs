//! The exact solver's fast paths (9x9 bitboards, the line solver for honeycomb) against the
//! reference cell-list solver: on samples of every conformance set, and on random grids with
//! clues removed. Same count up to 2, the same solution when it is unique, and a solution
//! that obeys the rules otherwise: no wrong answer, no missed second solution.
//!
//! CI samples a few puzzles per set; `TERMDOKU_CROSSCHECK=full` runs every puzzle (minutes
//! in a release build: `TERMDOKU_CROSSCHECK=full cargo test --release --test
//! exact_crosscheck`).

mod common;

use common::{conformance, lines};
use proptest::prelude::*;
use termdoku::format::{load_file, parse_line};
use termdoku::puzzle::{Layout, Puzzle, Variant};
use termdoku::solver::exact::{reference_from_givens, solve, Prepared};

/// Puzzles per set in the sampled run.
const SAMPLE: usize = 6;

fn full_run() -> bool {
    std::env::var("TERMDOKU_CROSSCHECK").is_ok_and(|v| v == "full")
}

/// Every `step`-th item so that about `SAMPLE` are taken, or all of them in a full run.
fn step(len: usize) -> usize {
    if full_run() {
        1
    } else {
        len.div_ceil(SAMPLE).max(1)
    }
}

/// Fast path (one-shot and prepared) and reference agree on one puzzle.
fn agree(p: &Puzzle, prepared: &Prepared, what: &str) {
    let fast = solve(p, 2);
    let reference = reference_from_givens(p.geometry(), &p.givens, 2);
    assert_eq!(fast.count, reference.count, "{what}: count");
    let again = prepared.solve(&p.givens, 2);
    assert_eq!(again.count, fast.count, "{what}: prepared count");
    match fast.count {
        0 => assert!(fast.first.is_none(), "{what}: a solution without a count"),
        1 => {
            assert_eq!(fast.first, reference.first, "{what}: solution");
            assert_eq!(again.first, fast.first, "{what}: prepared solution");
        }
        _ => {
            for s in [&fast.first, &again.first] {
                let s = s.as_ref().expect("a solution when the count is 2");
                if let Err(e) = p.check_solution(s) {
                    panic!("{what}: solution breaks a rule: {e}");
                }
            }
        }
    }
}

fn line_set(file: &str, variant: Variant) -> usize {
    let Some(path) = conformance(file) else {
        return 0;
    };
    let rows = lines(&path);
    let mut prepared: Option<Prepared> = None;
    let mut n = 0;
    for (i, row) in rows.iter().enumerate().step_by(step(rows.len())) {
        // solution-counts.txt has `puzzle:count[:solution]` rows.
        let text = row.split(':').next().unwrap_or_default();
        let p = parse_line(text.as_bytes(), variant, file, i + 1)
            .unwrap()
            .unwrap();
        let prepared = prepared.get_or_insert_with(|| Prepared::new(p.geometry()));
        agree(&p, prepared, &format!("{file}:{}", i + 1));
        n += 1;
    }
    n
}

#[test]
fn standard_sets_agree_with_the_reference() {
    let Some(dir) = conformance("standard") else {
        return;
    };
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "standard sets: {files:?}");
    for f in files {
        assert!(
            line_set(&format!("standard/{f}"), Variant::Standard) > 0,
            "{f}"
        );
    }
}

#[test]
fn honeycomb_and_diagonal_sets_agree_with_the_reference() {
    for (file, variant) in [
        ("honeycomb/hanicue-easy.txt", Variant::Honeycomb),
        ("honeycomb/hanicue-hard.txt", Variant::Honeycomb),
        ("diagonal/diagonal.txt", Variant::Diagonal),
    ] {
        line_set(file, variant);
    }
}

#[test]
fn killer_and_jigsaw_sets_agree_with_the_reference() {
    for dir in ["killer", "jigsaw"] {
        let Some(folder) = conformance(dir) else {
            continue;
        };
        let mut names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        names.sort();
        for path in names.iter().step_by(step(names.len())) {
            let p = load_file(path, Variant::Standard).unwrap().remove(0);
            agree(
                &p,
                &Prepared::new(p.geometry()),
                &path.display().to_string(),
            );
        }
    }
}

/// A full grid of the layout, its digits relabelled by `perm` (a rotation of 1..=max).
fn full_grid(layout: &Layout, shift: u8) -> Vec<u8> {
    let p = Puzzle::new(layout.clone(), vec![0; layout.cell_count()]).unwrap();
    let max = p.geometry().max_digit();
    let grid = reference_from_givens(p.geometry(), &p.givens, 1)
        .first
        .unwrap();
    // A rotation of digits keeps a 9x9 grid valid; honeycomb runs need the digits as they
    // are, so only square layouts are relabelled.
    if layout.variant == Variant::Standard {
        grid.iter().map(|&d| (d - 1 + shift) % max + 1).collect()
    } else {
        grid
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random 9x9 and honeycomb grids with clues removed (sometimes one given changed, so
    /// grids without solutions are compared too).
    #[test]
    fn random_grids_agree_with_the_reference(
        honeycomb in any::<bool>(),
        keep in proptest::collection::vec(0u8..100, 81),
        density in 15u8..60,
        shift in 0u8..9,
        break_one in 0u8..8,
    ) {
        let layout = if honeycomb {
            Layout::new(Variant::Honeycomb, 9)
        } else {
            Layout::new(Variant::Standard, 9)
        };
        let full = full_grid(&layout, shift);
        let mut givens: Vec<u8> = full
            .iter()
            .zip(&keep)
            .map(|(&d, &k)| if k < density { d } else { 0 })
            .collect();
        if break_one == 0 {
            if let Some(i) = givens.iter().position(|&d| d != 0) {
                givens[i] = givens[i] % 9 + 1;
            }
        }
        let p = Puzzle::new(layout, givens).unwrap();
        let fast = solve(&p, 2);
        let reference = reference_from_givens(p.geometry(), &p.givens, 2);
        prop_assert_eq!(fast.count, reference.count);
        if fast.count == 1 {
            prop_assert_eq!(&fast.first, &reference.first);
        }
        if let Some(sol) = &fast.first {
            prop_assert!(p.check_solution(sol).is_ok(), "{:?}", p.check_solution(sol));
        }
    }
}

/// A hard unique puzzle of top95 (None without the conformance folder).
fn top95(index: usize) -> Option<Vec<u8>> {
    static ROWS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        conformance("standard/top95.txt")
            .map(|p| lines(&p))
            .unwrap_or_default()
    });
    let row = rows.get(index % rows.len().max(1))?;
    let p = parse_line(row.as_bytes(), Variant::Standard, "top95", 1).ok()??;
    Some(p.givens)
}

/// Moves a 9x9 grid by a random symmetry that keeps it valid: bands, rows in a band,
/// stacks and columns in a stack reordered (by rotation counts), optionally transposed.
fn shuffle_grid(g: &[u8], moves: [u8; 9], transpose: bool) -> Vec<u8> {
    let rot = |i: usize, k: u8| (i + k as usize) % 3;
    let row = |r: usize| rot(r / 3, moves[0]) * 3 + rot(r % 3, moves[1 + r / 3]);
    let col = |c: usize| rot(c / 3, moves[4]) * 3 + rot(c % 3, moves[5 + c / 3]);
    (0..81)
        .map(|i| {
            let (r, c) = if transpose {
                (i % 9, i / 9)
            } else {
                (i / 9, i % 9)
            };
            g[row(r) * 9 + col(c)]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// No missed second solution on nearly unique grids: a hard unique puzzle, moved by a
    /// symmetry, with one or two givens taken away (often leaving two solutions that differ
    /// in a few cells only) or one given changed. Counts with limits 1, 2 and 12 must match
    /// the reference solver's.
    #[test]
    fn nearly_unique_grids_agree_with_the_reference(
        index in 0usize..95,
        moves in proptest::array::uniform9(0u8..3),
        transpose in any::<bool>(),
        drop_a in 0usize..81,
        drop_b in 0usize..81,
        mode in 0u8..4,
    ) {
        let Some(base) = top95(index) else { return Ok(()) };
        let mut givens = shuffle_grid(&base, moves, transpose);
        let clues: Vec<usize> = (0..81).filter(|&i| givens[i] != 0).collect();
        let (a, b) = (clues[drop_a % clues.len()], clues[drop_b % clues.len()]);
        match mode {
            0 => givens[a] = 0,
            1 => { givens[a] = 0; givens[b] = 0; }
            2 => givens[a] = givens[a] % 9 + 1,
            _ => {}
        }
        let p = Puzzle::new(Layout::new(Variant::Standard, 9), givens).unwrap();
        let prepared = Prepared::new(p.geometry());
        for limit in [1, 2, 12] {
            let fast = solve(&p, limit);
            let reference = reference_from_givens(p.geometry(), &p.givens, limit);
            prop_assert_eq!(fast.count, reference.count, "limit {}", limit);
            prop_assert_eq!(prepared.solve(&p.givens, limit).count, fast.count);
            if let Some(sol) = &fast.first {
                prop_assert!(p.check_solution(sol).is_ok(), "{:?}", p.check_solution(sol));
            }
            if limit == 2 && fast.count == 1 {
                prop_assert_eq!(&fast.first, &reference.first);
            }
        }
    }
}
