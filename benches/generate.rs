//! Generator speed: one puzzle per iteration, a fresh index each time (so the bench averages
//! over puzzles rather than repeating one), for each variant at a cheap and a hard level.
//! `termdoku bench --generate` prints the median and p95 per variant and level instead.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use termdoku::generate::{Generator, Level, Options};
use termdoku::puzzle::Variant;

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    let cases = [
        (Variant::Standard, Level::Easy),
        (Variant::Standard, Level::Hard),
        (Variant::Standard, Level::Unfair),
        (Variant::Standard, Level::Extreme),
        (Variant::Diagonal, Level::Medium),
        (Variant::Diagonal, Level::Extreme),
        (Variant::Jigsaw, Level::Medium),
        (Variant::Jigsaw, Level::Extreme),
        (Variant::Honeycomb, Level::Easy),
        (Variant::Honeycomb, Level::Medium),
        (Variant::Killer, Level::Easy),
        (Variant::Killer, Level::Hard),
    ];
    for (variant, level) in cases {
        let Ok(gen) = Generator::new(Options::new(variant, level), 1) else {
            continue;
        };
        let mut index = 0u64;
        group.bench_function(format!("{variant}/{}", level.name()), |b| {
            b.iter(|| {
                index += 1;
                gen.generate(index).map(|g| g.attempts).unwrap_or(0)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_generate);
criterion_main!(benches);
