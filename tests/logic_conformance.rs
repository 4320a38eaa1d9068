//! The logic solver against the shared conformance sets: soundness (no step removes the
//! true digit or places a wrong one), coverage (puzzles finished without a guess) and
//! rating agreement with HoDoKu.
//!
//! The folder comes from `TERMDOKU_CONFORMANCE` (else `../shared/conformance`); missing
//! files are skipped with a notice. Plain `cargo test` checks every `TERMDOKU_LOGIC_STRIDE`-th
//! puzzle (default 10) to stay fast; set it to 1 for the full sets.

mod common;

use common::folder;
use termdoku::format::parse_line;
use termdoku::puzzle::{Grid, Variant};
use termdoku::solver::exact;
use termdoku::solver::logic::{apply, next_step, SolverMemory};
use termdoku::solver::rate::{self, Level};

fn stride() -> usize {
    std::env::var("TERMDOKU_LOGIC_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(10)
}

fn read(name: &str) -> Option<Vec<String>> {
    let path = folder().join("standard").join(name);
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(
            t.lines()
                .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                .map(|l| l[..81].to_string())
                .collect(),
        ),
        Err(_) => {
            println!("{} is missing: skipped", path.display());
            None
        }
    }
}

/// Solves one puzzle step by step, checking every step; returns (finished, guesses).
fn check_puzzle(line: &str) -> Result<(bool, usize), String> {
    let p = parse_line(line.as_bytes(), Variant::Standard, "t", 1)
        .map_err(|e| e.to_string())?
        .ok_or("empty line")?;
    let sol = exact::solve(&p, 1).first.ok_or("no solution")?;
    let mut grid = Grid::from_puzzle(&p);
    let mut guesses = 0;
    let mut memory = SolverMemory::new();
    for _ in 0..81 * 9 {
        let Some(step) = next_step(&grid, Some(&sol), &mut memory) else {
            break;
        };
        for c in &step.placements {
            if sol[c.cell] != c.digit {
                return Err(format!(
                    "{line}: {} placed {} in cell {}",
                    step.id(),
                    c.digit,
                    c.cell
                ));
            }
        }
        for c in &step.eliminations {
            if sol[c.cell] == c.digit {
                return Err(format!(
                    "{line}: {} removed the true {} from cell {}",
                    step.id(),
                    c.digit,
                    c.cell
                ));
            }
        }
        guesses += usize::from(step.id() == "guess");
        apply(&mut grid, &step);
    }
    Ok((grid.is_solved() && grid.values() == &sol[..], guesses))
}

#[test]
fn every_step_is_sound_and_coverage_is_reported() {
    let files = [
        "top1465.txt",
        "qqwing-simple.txt",
        "qqwing-easy.txt",
        "qqwing-intermediate.txt",
        "qqwing-expert.txt",
        "sudocue-learningcurve.txt",
    ];
    let stride = stride();
    let mut errors = Vec::new();
    for f in files {
        let Some(lines) = read(f) else { continue };
        let (mut n, mut finished, mut no_guess) = (0, 0, 0);
        for line in lines.iter().step_by(stride) {
            n += 1;
            match check_puzzle(line) {
                Ok((done, guesses)) => {
                    finished += usize::from(done);
                    no_guess += usize::from(done && guesses == 0);
                }
                Err(e) => errors.push(e),
            }
        }
        println!(
            "{f}: {n} puzzles (every {stride}th), {finished} finished, {no_guess} without a guess ({:.1}%)",
            100.0 * no_guess as f64 / n.max(1) as f64
        );
        assert_eq!(
            finished, n,
            "{f}: some puzzles were not finished even with guesses"
        );
    }
    assert!(errors.is_empty(), "unsound steps:\n{}", errors.join("\n"));
}

/// The hardest sets, sampled (every 20th of top1465, every 500th of the forum's hardest):
/// with forcing chains and nets, no puzzle needs a guess. `TERMDOKU_HARD_STRIDE` overrides
/// both strides (1 for the full sets, in release mode).
#[test]
fn hardest_sets_finish_without_a_guess() {
    let over = std::env::var("TERMDOKU_HARD_STRIDE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0);
    let mut errors = Vec::new();
    for (f, stride) in [("top1465.txt", 20), ("forum-hardest-1905-11plus.txt", 500)] {
        let Some(lines) = read(f) else { continue };
        let stride = over.unwrap_or(stride);
        let (mut n, mut no_guess) = (0, 0);
        for line in lines.iter().step_by(stride) {
            n += 1;
            match check_puzzle(line) {
                Ok((done, guesses)) => no_guess += usize::from(done && guesses == 0),
                Err(e) => errors.push(e),
            }
        }
        println!("{f}: {no_guess}/{n} finished without a guess (every {stride}th)");
        assert_eq!(no_guess, n, "{f}: some puzzles needed a guess");
    }
    assert!(errors.is_empty(), "unsound steps:\n{}", errors.join("\n"));
}

/// HoDoKu names of the techniques of the human-style solver issue.
const OURS: &[&str] = &[
    "Full House",
    "Naked Single",
    "Hidden Single",
    "Locked Pair",
    "Locked Triple",
    "Locked Candidates Type 1 (Pointing)",
    "Locked Candidates Type 2 (Claiming)",
    "Naked Pair",
    "Naked Triple",
    "Naked Quadruple",
    "Hidden Pair",
    "Hidden Triple",
    "Hidden Quadruple",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "Finned X-Wing",
    "Sashimi X-Wing",
    "Finned Swordfish",
    "Sashimi Swordfish",
    "Finned Jellyfish",
    "Sashimi Jellyfish",
    "Skyscraper",
    "2-String Kite",
    "Turbot Fish",
    "Empty Rectangle",
    "XY-Wing",
    "XYZ-Wing",
    "W-Wing",
    "Remote Pair",
    "Simple Colors Trap",
    "Simple Colors Wrap",
    "Multi-Colors 1",
    "Multi-Colors 2",
    "Bivalue Universal Grave + 1",
];

#[test]
fn rating_agrees_with_hodoku() {
    let path = folder().join("standard/hodoku-ratings.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{} is missing: skipped", path.display());
        return;
    };
    let (mut all, mut all_ok, mut ours, mut ours_ok) = (0, 0, 0, 0);
    let mut confusion = [[0usize; 5]; 5];
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 6 {
            continue;
        }
        let Ok(want) = f[1].parse::<Level>() else {
            continue;
        };
        let p = parse_line(f[0].as_bytes(), Variant::Standard, "t", 1)
            .unwrap()
            .unwrap();
        let got = rate::rate(&p).level;
        confusion[want as usize][got as usize] += 1;
        all += 1;
        all_ok += usize::from(got == want);
        if f[5].split('|').all(|t| OURS.contains(&t)) {
            ours += 1;
            ours_ok += usize::from(got == want);
        }
    }
    println!("level agreement with HoDoKu: {all_ok}/{all} overall; {ours_ok}/{ours} on puzzles using only this solver's techniques");
    println!("rows: HoDoKu easy..extreme, columns: termdoku easy..extreme");
    for row in confusion {
        println!("{row:?}");
    }
    assert!(ours > 0);
    assert!(
        all_ok * 100 >= all * 85,
        "overall agreement {all_ok}/{all} below 85%"
    );
    assert!(
        ours_ok * 100 >= ours * 85,
        "agreement {ours_ok}/{ours} below 85%"
    );
}
