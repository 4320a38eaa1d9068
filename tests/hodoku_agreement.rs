//! Rating agreement with HoDoKu, puzzle by puzzle, from HoDoKu's own output.
//!
//! `TERMDOKU_HODOKU_RATINGS=FILE cargo test --release --test hodoku_agreement -- --nocapture`
//! reads either HoDoKu's batch output (`java sudoku.Main /bs IN /o FILE`, lines
//! `PUZZLE #n Level (score)`, with `/vp` each step indented below its puzzle) or the shared
//! `hodoku-ratings.tsv`, and prints level and score agreement, the confusion table and, for
//! puzzles whose score differs, the first step where termdoku's path leaves HoDoKu's (when
//! the file has the paths) or the first hint (TSV). `TERMDOKU_HODOKU_SHOW=N` caps the
//! differences printed (default 40). Without the variable the test does nothing.

use rayon::prelude::*;
use std::collections::BTreeSet;
use termdoku::format::parse_line;
use termdoku::puzzle::Variant;
use termdoku::solver::logic::Step;
use termdoku::solver::rate::{self, Level};

/// One puzzle as HoDoKu rated it.
struct Reference {
    puzzle: String,
    level: Level,
    score: u32,
    /// The steps of HoDoKu's path (`/vp`), as printed.
    path: Vec<String>,
    /// The technique of HoDoKu's first hint (TSV only).
    first: Option<String>,
}

fn parse_reference(text: &str) -> Vec<Reference> {
    let mut out: Vec<Reference> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        // Steps are indented three spaces; a forcing step's chains follow it indented two.
        if line.starts_with("  ") && !line.starts_with("   ") {
            continue;
        }
        if line.starts_with(' ') {
            if let Some(r) = out.last_mut() {
                r.path.push(line.trim().to_string());
            }
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 5 {
            if let (Ok(level), Ok(score)) = (f[1].parse(), f[2].parse()) {
                out.push(Reference {
                    puzzle: f[0].to_string(),
                    level,
                    score,
                    path: Vec::new(),
                    first: Some(f[4].to_string()),
                });
            }
            continue;
        }
        // "PUZZLE #n Level (score)"
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() >= 4 && w[1].starts_with('#') {
            let score = w[3].trim_matches(|c| c == '(' || c == ')').parse();
            if let (Ok(level), Ok(score)) = (w[2].parse(), score) {
                out.push(Reference {
                    puzzle: w[0].to_string(),
                    level,
                    score,
                    path: Vec::new(),
                    first: None,
                });
            }
        }
    }
    out
}

/// Cells of HoDoKu's compact notation: `r7c589` is r7c5, r7c8 and r7c9; `r89c2` r8c2, r9c2.
fn cells(spec: &str) -> Vec<usize> {
    let spec = spec.trim();
    let Some(rest) = spec.strip_prefix('r') else {
        return Vec::new();
    };
    let Some((rows, cols)) = rest.split_once('c') else {
        return Vec::new();
    };
    let digits = |s: &str| -> Vec<usize> {
        s.bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| usize::from(b - b'1'))
            .collect()
    };
    let mut out = Vec::new();
    for r in digits(rows) {
        for c in digits(cols) {
            out.push(r * 9 + c);
        }
    }
    out
}

/// The effect of a HoDoKu step line: placements `(cell, digit, true)` and eliminations
/// `(cell, digit, false)`, read from the text after `=>` (or after `:` for singles).
fn effect_of_line(line: &str) -> BTreeSet<(usize, u8, bool)> {
    let tail = match line.rsplit_once("=>") {
        Some((_, t)) => t,
        None => line.split_once(':').map_or("", |(_, t)| t),
    };
    let mut out = BTreeSet::new();
    // Groups are "cells<>digits" or "cell=digit", separated by ", " (cells by ",").
    let mut pending: Vec<usize> = Vec::new();
    for part in tail.split(',') {
        let part = part.trim();
        let (spec, op, ds) = if let Some((a, b)) = part.split_once("<>") {
            (a, false, b)
        } else if let Some((a, b)) = part.split_once('=') {
            (a, true, b)
        } else {
            pending.extend(cells(part));
            continue;
        };
        pending.extend(cells(spec));
        for d in ds.bytes().filter(u8::is_ascii_digit) {
            for &c in &pending {
                out.insert((c, d - b'0', op));
            }
        }
        pending.clear();
    }
    out
}

fn effect_of_step(step: &Step) -> BTreeSet<(usize, u8, bool)> {
    let p = step.placements.iter().map(|c| (c.cell, c.digit, true));
    let e = step.eliminations.iter().map(|c| (c.cell, c.digit, false));
    p.chain(e).collect()
}

fn show(set: &BTreeSet<(usize, u8, bool)>) -> String {
    set.iter()
        .map(|&(c, d, place)| {
            let op = if place { "=" } else { "<>" };
            format!("r{}c{}{op}{d}", c / 9 + 1, c % 9 + 1)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one puzzle gave: our rating and, where paths differ, a line saying where.
struct Outcome {
    level: Level,
    score: u32,
    first_difference: Option<String>,
}

fn compare(r: &Reference) -> Option<Outcome> {
    let p = parse_line(r.puzzle.as_bytes(), Variant::Standard, "ref", 1).ok()??;
    let (steps, rating) = rate::solve_path(&p);
    let mut first_difference = None;
    if !r.path.is_empty() {
        for (i, line) in r.path.iter().enumerate() {
            let want = effect_of_line(line);
            let got = steps.get(i).map(effect_of_step).unwrap_or_default();
            if want != got {
                let ours = steps.get(i).map_or("(none)".into(), |s| {
                    format!("{}: {}", s.name(), show(&effect_of_step(s)))
                });
                first_difference = Some(format!(
                    "step {}: HoDoKu {line}\n      termdoku {ours}",
                    i + 1
                ));
                break;
            }
        }
    } else if let Some(first) = &r.first {
        let ours = steps.first().map_or("(none)", |s| s.name());
        if ours != first {
            first_difference = Some(format!("first hint: HoDoKu {first}, termdoku {ours}"));
        }
    }
    Some(Outcome {
        level: rating.level,
        score: rating.score,
        first_difference,
    })
}

#[test]
fn hodoku_agreement() {
    let Ok(path) = std::env::var("TERMDOKU_HODOKU_RATINGS") else {
        println!("TERMDOKU_HODOKU_RATINGS is not set: skipped");
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let refs = parse_reference(&text);
    let show_max: usize = std::env::var("TERMDOKU_HODOKU_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let outcomes: Vec<Option<Outcome>> = refs.par_iter().map(compare).collect();
    let (mut n, mut level_ok, mut score_ok) = (0, 0, 0);
    let mut confusion = [[0usize; 5]; 5];
    let mut shown = 0;
    for (i, (r, o)) in refs.iter().zip(&outcomes).enumerate() {
        let Some(o) = o else {
            println!("#{}: not a standard puzzle: {}", i + 1, r.puzzle);
            continue;
        };
        n += 1;
        level_ok += usize::from(o.level == r.level);
        score_ok += usize::from(o.score == r.score);
        confusion[r.level as usize][o.level as usize] += 1;
        if o.score != r.score && shown < show_max {
            shown += 1;
            println!(
                "#{} HoDoKu {} {} termdoku {} {}",
                i + 1,
                r.level,
                r.score,
                o.level,
                o.score
            );
            if let Some(d) = &o.first_difference {
                println!("    {d}");
            }
        }
    }
    println!("{path}: level agrees on {level_ok}/{n}, score on {score_ok}/{n}");
    println!("rows: HoDoKu easy..extreme, columns: termdoku easy..extreme");
    for row in confusion {
        println!("{row:?}");
    }
    assert!(n > 0, "no ratings read from {path}");
}

/// `TERMDOKU_HODOKU_DEBUG=N:S:technique`: every instance of the technique at step S of
/// puzzle N of the reference file (after termdoku's first S-1 steps), for finding why a
/// path leaves HoDoKu's.
#[test]
fn hodoku_debug_one_position() {
    let (Ok(path), Ok(spec)) = (
        std::env::var("TERMDOKU_HODOKU_RATINGS"),
        std::env::var("TERMDOKU_HODOKU_DEBUG"),
    ) else {
        return;
    };
    let f: Vec<&str> = spec.split(':').collect();
    let (n, s): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
    let refs = parse_reference(&std::fs::read_to_string(&path).unwrap());
    let r = &refs[n - 1];
    let p = parse_line(r.puzzle.as_bytes(), Variant::Standard, "ref", 1)
        .unwrap()
        .unwrap();
    let (steps, _) = rate::solve_path(&p);
    let mut grid = termdoku::puzzle::Grid::from_puzzle(&p);
    for st in &steps[..s - 1] {
        termdoku::solver::logic::apply(&mut grid, st);
    }
    println!("HoDoKu: {}", r.path.get(s - 1).map_or("", |x| x.as_str()));
    println!("termdoku: {}", steps[s - 1].name());
    for t in f[2].split(',') {
        for st in termdoku::solver::logic::find_all_on_path(&grid, t) {
            let text = st.explain(grid.geometry(), termdoku::solver::logic::Detail::Full);
            println!("{t}: {}\n    {text}", show(&effect_of_step(&st)));
        }
    }
}

#[test]
fn hodoku_lines_are_read_as_placements_and_eliminations() {
    let e = effect_of_line("Locked Triple: 4,6,8 in r7c123 => r7c5,r9c2<>4, r7c589<>8");
    let want: BTreeSet<_> = [
        (6 * 9 + 4, 4, false),
        (8 * 9 + 1, 4, false),
        (6 * 9 + 4, 8, false),
        (6 * 9 + 7, 8, false),
        (6 * 9 + 8, 8, false),
    ]
    .into_iter()
    .collect();
    assert_eq!(e, want);
    let single = effect_of_line("Hidden Single: r9c3=7");
    assert_eq!(single, [(8 * 9 + 2, 7, true)].into_iter().collect());
}
