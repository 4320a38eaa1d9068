//! The exact solver on the shared conformance sets. Every solution is checked by
//! `Puzzle::check_solution`, which reads the rules directly and shares no code with the
//! solvers.

mod common;

use common::{conformance, lines};
use termdoku::format::{load_file, parse_line};
use termdoku::puzzle::{Puzzle, Variant};
use termdoku::solver::exact::{self, solve};

fn line(s: &str, v: Variant) -> Puzzle {
    parse_line(s.as_bytes(), v, "t", 1).unwrap().unwrap()
}

/// Every puzzle of the file has exactly one solution, and it obeys the rules.
fn all_unique(file: &str, variant: Variant, step: usize) -> usize {
    let Some(path) = conformance(file) else {
        return 0;
    };
    let mut n = 0;
    for (i, l) in lines(&path).iter().enumerate().step_by(step) {
        let p = line(l, variant);
        let s = solve(&p, 2);
        assert_eq!(s.count, 1, "{file}:{}: {} solutions", i + 1, s.count);
        let sol = s.first.unwrap();
        if let Err(e) = p.check_solution(&sol) {
            panic!("{file}:{}: solution breaks a rule: {e}", i + 1);
        }
        n += 1;
    }
    n
}

#[test]
fn standard_sets_are_unique_and_solved() {
    for file in [
        "standard/17-clue.txt",
        "standard/top1465.txt",
        "standard/top95.txt",
        "standard/norvig-hardest.txt",
        "standard/msolve-hardest-to-solve.txt",
        "standard/qqwing-simple.txt",
        "standard/qqwing-easy.txt",
        "standard/qqwing-intermediate.txt",
        "standard/qqwing-expert.txt",
        "standard/sudocue-learningcurve.txt",
        "standard/sudocue-top10000.txt",
    ] {
        all_unique(file, Variant::Standard, 1);
    }
}

#[test]
fn forum_hardest_is_unique_and_solved() {
    assert!(
        all_unique(
            "standard/forum-hardest-1905-11plus.txt",
            Variant::Standard,
            1
        ) > 0
            || conformance("standard").is_none()
    );
}

#[test]
fn multiple_solution_set_is_never_unique() {
    let Some(path) = conformance("standard/serg-multiple-solutions.txt") else {
        return;
    };
    for (i, l) in lines(&path).iter().enumerate() {
        let p = line(l, Variant::Standard);
        let s = solve(&p, 2);
        assert_eq!(s.count, 2, "line {}", i + 1);
        p.check_solution(s.first.as_ref().unwrap()).unwrap();
    }
}

#[test]
fn solution_counts_match() {
    let Some(path) = conformance("standard/solution-counts.txt") else {
        return;
    };
    let rows = lines(&path);
    assert!(rows.len() >= 40);
    for row in rows {
        let mut parts = row.split(':');
        let (puzzle, count) = (parts.next().unwrap(), parts.next().unwrap());
        let count: usize = count.parse().unwrap();
        let p = line(puzzle, Variant::Standard);
        let s = solve(&p, 2);
        assert_eq!(s.count, count.min(2), "{puzzle}");
        // The reference solver must agree with the fast path, including on bad puzzles.
        let r = exact::reference_from_givens(p.geometry(), &p.givens, 2);
        assert_eq!(r.count, s.count, "reference disagrees on {puzzle}");
        if let Some(sol) = parts.next() {
            let expected: Vec<u8> = sol.bytes().map(|b| b - b'0').collect();
            assert_eq!(s.first.unwrap(), expected, "{puzzle}");
        }
    }
}

#[test]
fn honeycomb_sets_are_unique_and_solved() {
    // Every HaniCue puzzle has exactly one solution (none found otherwise).
    all_unique("honeycomb/hanicue-easy.txt", Variant::Honeycomb, 1);
    all_unique("honeycomb/hanicue-hard.txt", Variant::Honeycomb, 1);
}

#[test]
fn diagonal_set_matches_published_solutions() {
    let (Some(puzzles), Some(solutions)) = (
        conformance("diagonal/diagonal.txt"),
        conformance("diagonal/solutions.txt"),
    ) else {
        return;
    };
    let solutions = lines(&solutions);
    let puzzles = lines(&puzzles);
    assert_eq!(puzzles.len(), solutions.len());
    for (l, sol) in puzzles.iter().zip(&solutions) {
        let p = line(l, Variant::Diagonal);
        let s = solve(&p, 2);
        assert_eq!(s.count, 1, "{l}");
        let got = s.first.unwrap();
        p.check_solution(&got).unwrap();
        let expected: Vec<u8> = sol.bytes().map(|b| b - b'0').collect();
        assert_eq!(got, expected, "{l}");
    }
}

fn toml_set(dir: &str) {
    let Some(folder) = conformance(dir) else {
        return;
    };
    let solutions = lines(&folder.join("solutions.txt"));
    assert!(!solutions.is_empty());
    for row in solutions {
        let (name, sol) = row.split_once(' ').unwrap();
        let p = load_file(&folder.join(name), Variant::Standard)
            .unwrap()
            .remove(0);
        let s = solve(&p, 2);
        assert_eq!(s.count, 1, "{dir}/{name}");
        let got = s.first.unwrap();
        p.check_solution(&got).unwrap();
        let expected: Vec<u8> = sol.bytes().map(|b| b - b'0').collect();
        assert_eq!(got, expected, "{dir}/{name}");
    }
}

#[test]
fn killer_set_matches_published_solutions() {
    toml_set("killer");
}

#[test]
fn jigsaw_set_matches_published_solutions() {
    toml_set("jigsaw");
}
