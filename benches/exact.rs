//! Exact-solver throughput on the puzzle lists the project ships in `puzzles/` (line files,
//! named `VARIANT-LEVEL.txt`): solve with the uniqueness proof, and first solution only.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use termdoku::format::load_file;
use termdoku::puzzle::Variant;
use termdoku::solver::exact::solve;

fn shipped_lists() -> Vec<(String, Variant, Vec<termdoku::puzzle::Puzzle>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no puzzles/ folder: nothing to benchmark");
        return out;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let Some(variant) = stem.split('-').next().and_then(Variant::parse) else {
            continue;
        };
        match load_file(&path, variant) {
            Ok(puzzles) if !puzzles.is_empty() => out.push((stem, variant, puzzles)),
            Ok(_) => {}
            Err(e) => eprintln!("skipping {}: {e}", path.display()),
        }
    }
    out
}

fn bench_exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    for (name, _, puzzles) in shipped_lists() {
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(format!("{name}/unique"), |b| {
            b.iter(|| puzzles.iter().map(|p| solve(p, 2).count).sum::<usize>())
        });
        group.bench_function(format!("{name}/first"), |b| {
            b.iter(|| puzzles.iter().map(|p| solve(p, 1).count).sum::<usize>())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_exact);
criterion_main!(benches);
