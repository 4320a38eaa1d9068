//! Logic solver throughput: next hint from the givens and a full rating, over samples of
//! the shared conformance sets (skipped with a notice when they are missing).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::PathBuf;
use termdoku::format::parse_line;
use termdoku::puzzle::{Grid, Puzzle, Variant};
use termdoku::solver::{exact, logic, rate};

fn load(name: &str, n: usize) -> Vec<(Puzzle, Vec<u8>)> {
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
        .take(n)
        .filter_map(|p| {
            let s = exact::solve(&p, 1).first?;
            Some((p, s))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for file in ["qqwing-expert.txt", "top1465.txt"] {
        let set = load(file, 200);
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
                    std::hint::black_box(logic::next_step(g, Some(s)));
                }
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
