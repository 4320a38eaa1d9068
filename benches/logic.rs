//! Logic solver throughput: next hint from the givens and a full rating, over samples of
//! the shared conformance sets (skipped with a notice when they are missing).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use termdoku::format::parse_line;
use termdoku::puzzle::{Grid, Puzzle, Variant};
use termdoku::solver::{exact, logic, rate};

fn load(name: &str, n: usize, step: usize) -> Vec<(Puzzle, Vec<u8>)> {
    let dir = std::env::var_os("TERMDOKU_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/conformance"
            ))
        });
    let Ok(text) = std::fs::read_to_string(dir.join("standard").join(name)) else {
        eprintln!("{name} is missing: skipped");
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| {
            parse_line(l.as_bytes(), Variant::Standard, name, 1)
                .ok()
                .flatten()
        })
        .step_by(step)
        .take(n)
        .filter_map(|p| {
            let s = exact::solve(&p, 1).first?;
            Some((p, s))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for file in ["qqwing-expert.txt", "top1465.txt"] {
        let set = load(file, 200, 1);
        if set.is_empty() {
            continue;
        }
        c.bench_function(&format!("rate 200 of {file}"), |b| {
            b.iter(|| {
                for (p, s) in &set {
                    std::hint::black_box(rate::solve_grid(Grid::from_puzzle(p), Some(s)).1);
                }
            })
        });
        let grids: Vec<(Grid, &Vec<u8>)> =
            set.iter().map(|(p, s)| (Grid::from_puzzle(p), s)).collect();
        c.bench_function(&format!("next hint, 200 of {file}"), |b| {
            b.iter(|| {
                for (g, s) in &grids {
                    std::hint::black_box(logic::next_step(
                        g,
                        Some(s),
                        &mut logic::SolverMemory::new(),
                    ));
                }
            })
        });
    }
}

/// The hardest set (every 500th puzzle), each at its first position that needs a forcing
/// chain or net: the slowest hints a player can ask for.
fn hardest_hints(c: &mut Criterion) {
    let set = load("forum-hardest-1905-11plus.txt", 100, 500);
    let mut grids: Vec<(Grid, &Vec<u8>)> = Vec::new();
    for (p, s) in &set {
        let mut g = Grid::from_puzzle(p);
        let mut memory = logic::SolverMemory::new();
        while let Some(step) = logic::next_step(&g, Some(s), &mut memory) {
            if step.technique.family == logic::Family::Forcing {
                grids.push((g, s));
                break;
            }
            logic::apply(&mut g, &step);
        }
    }
    if grids.is_empty() {
        return;
    }
    let mut group = c.benchmark_group("hardest");
    group.sample_size(10);
    group.bench_function("first forcing hint, forum-hardest every 500th", |b| {
        b.iter(|| {
            for (g, s) in &grids {
                std::hint::black_box(logic::next_step(
                    g,
                    Some(s),
                    &mut logic::SolverMemory::new(),
                ));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench, hardest_hints);
criterion_main!(benches);
