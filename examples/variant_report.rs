//! Full-set figures for the variant logic: share finished without a guess, unsound steps,
//! techniques used and the time of a next hint (p50/p99).
//!
//! `cargo run --release --example variant_report -- honeycomb FILE [STRIDE]`; for killer and
//! jigsaw pass the folder of TOML files.

use std::time::Instant;
use termdoku::format::load_file;
use termdoku::puzzle::{Grid, Puzzle, Variant};
use termdoku::solver::exact;
use termdoku::solver::logic::{apply, next_step, SolverMemory};

fn puzzles(variant: Variant, path: &str) -> Vec<Puzzle> {
    let p = std::path::Path::new(path);
    if p.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(p)
            .expect("folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|f| f.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        files
            .iter()
            .flat_map(|f| load_file(f, variant).expect("puzzle"))
            .collect()
    } else {
        load_file(p, variant).expect("puzzles")
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = Variant::parse(&args[1]).expect("variant");
    let stride: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let all = puzzles(variant, &args[2]);
    let (mut total, mut clean, mut unsound) = (0, 0, 0);
    let mut used: Vec<(&str, usize)> = Vec::new();
    let mut times: Vec<f64> = Vec::new();
    let mut stuck: Vec<String> = Vec::new();
    for (i, p) in all.iter().enumerate().step_by(stride) {
        let Some(sol) = exact::solve(p, 1).first else {
            continue;
        };
        total += 1;
        let mut grid = Grid::from_puzzle(p);
        let mut guesses = 0;
        let mut bad = false;
        let mut memory = SolverMemory::new();
        while !grid.is_solved() {
            let t = Instant::now();
            let Some(step) = next_step(&grid, Some(&sol), &mut memory) else {
                break;
            };
            times.push(t.elapsed().as_secs_f64() * 1e3);
            if step.id() == "guess" {
                if guesses == 0 {
                    stuck.push(format!("{i}"));
                }
                guesses += 1;
            }
            if step.placements.iter().any(|c| sol[c.cell] != c.digit)
                || step.eliminations.iter().any(|c| sol[c.cell] == c.digit)
            {
                bad = true;
                eprintln!(
                    "UNSOUND #{i} {}: {:?}",
                    step.id(),
                    step.explain(p.geometry(), termdoku::solver::logic::Detail::Full)
                );
            }
            match used.iter_mut().find(|(u, _)| *u == step.id()) {
                Some((_, n)) => *n += 1,
                None => used.push((step.id(), 1)),
            }
            apply(&mut grid, &step);
        }
        if guesses == 0 && grid.is_solved() {
            clean += 1;
        }
        if bad {
            unsound += 1;
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let q = |f: f64| {
        times
            .get(((times.len() as f64 - 1.0) * f) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    used.sort_by_key(|u| std::cmp::Reverse(u.1));
    println!(
        "{}: {clean}/{total} finished without a guess ({:.1}%), {unsound} with an unsound step",
        args[2],
        100.0 * clean as f64 / total.max(1) as f64
    );
    println!(
        "hint time ms: p50 {:.3} p99 {:.3} max {:.3} over {} steps",
        q(0.5),
        q(0.99),
        q(1.0),
        times.len()
    );
    println!("steps by technique: {used:?}");
    if !stuck.is_empty() && stuck.len() <= 40 {
        println!("needed a guess: {}", stuck.join(" "));
    }
}
