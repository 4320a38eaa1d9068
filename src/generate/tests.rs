//! Generator tests: uniqueness, level, symmetry and determinism for every variant.

use super::*;
use crate::solver::exact;

fn check(g: &Generated, opts: &Options) {
    let p = &g.puzzle;
    assert_eq!(p.variant(), opts.variant);
    let s = exact::solve(p, 2);
    assert_eq!(s.count, 1, "not unique: {}", crate::format::write_line(p));
    assert_eq!(s.first.as_deref(), Some(g.solution.as_slice()));
    p.check_solution(&g.solution).unwrap();
    // The rating is recomputed, not trusted.
    let r = rate_puzzle(p);
    assert_eq!(r, g.rating);
    match &opts.technique {
        Some(t) => assert!(r.uses(t) && r.level <= opts.level),
        None => assert_eq!(r.level, opts.level, "{}", crate::format::write_line(p)),
    }
    assert!(symmetry::is_symmetric(opts.symmetry, p.geometry(), &p.givens));
}

fn sample(variant: Variant, level: Level, count: usize) -> Vec<Generated> {
    let opts = Options::new(variant, level);
    let gen = Generator::new(opts.clone(), 1234).unwrap();
    let out: Vec<Generated> = gen.iter(count).map(|r| r.unwrap()).collect();
    for g in &out {
        check(g, &opts);
    }
    out
}

#[test]
fn standard_easy_and_hard() {
    sample(Variant::Standard, Level::Easy, 5);
    sample(Variant::Standard, Level::Hard, 5);
}

#[test]
fn diagonal_and_honeycomb() {
    sample(Variant::Diagonal, Level::Easy, 3);
    sample(Variant::Diagonal, Level::Hard, 3);
    sample(Variant::Honeycomb, Level::Easy, 3);
}

#[test]
fn jigsaw_regions_differ_per_puzzle() {
    let out = sample(Variant::Jigsaw, Level::Easy, 3);
    assert_ne!(out[0].puzzle.layout.regions, out[1].puzzle.layout.regions);
}

#[test]
fn killer_has_few_givens() {
    for g in sample(Variant::Killer, Level::Hard, 2) {
        assert!(g.puzzle.given_count() <= 10, "{}", g.puzzle.given_count());
        assert!(!g.puzzle.layout.cages.is_empty());
    }
}

#[test]
fn other_sizes() {
    for size in [4, 6] {
        let opts = Options {
            size,
            ..Options::new(Variant::Standard, Level::Easy)
        };
        let gen = Generator::new(opts.clone(), 9).unwrap();
        for g in gen.iter(3) {
            check(&g.unwrap(), &opts);
        }
    }
}

#[test]
fn every_symmetry_holds() {
    for symmetry in Symmetry::ALL {
        let opts = Options {
            symmetry,
            ..Options::new(Variant::Standard, Level::Easy)
        };
        let g = Generator::new(opts.clone(), 5).unwrap().generate(0).unwrap();
        check(&g, &opts);
    }
    let bad = Options {
        symmetry: Symmetry::Rotate90,
        ..Options::new(Variant::Honeycomb, Level::Easy)
    };
    assert!(matches!(
        Generator::new(bad, 1),
        Err(GenerateError::Symmetry { .. })
    ));
}

#[test]
fn same_seed_same_puzzles() {
    for variant in [Variant::Standard, Variant::Jigsaw, Variant::Killer] {
        let level = if variant == Variant::Killer {
            Level::Hard
        } else {
            Level::Easy
        };
        let a = Generator::new(Options::new(variant, level), 77).unwrap();
        let b = Generator::new(Options::new(variant, level), 77).unwrap();
        let pa: Vec<Puzzle> = a.iter(2).map(|g| g.unwrap().puzzle).collect();
        let pb: Vec<Puzzle> = b.iter(2).map(|g| g.unwrap().puzzle).collect();
        assert_eq!(pa, pb);
        // Puzzle 1 alone equals puzzle 1 of the run.
        assert_eq!(a.generate(1).unwrap().puzzle, pa[1]);
        let c = Generator::new(Options::new(variant, level), 78).unwrap();
        assert_ne!(c.generate(0).unwrap().puzzle, pa[0]);
    }
}

#[test]
fn bad_options_are_errors_not_panics() {
    let opts = Options {
        size: 5,
        ..Options::new(Variant::Standard, Level::Easy)
    };
    assert!(matches!(
        Generator::new(opts, 1),
        Err(GenerateError::Size { .. })
    ));
    let opts = Options {
        technique: Some("no-such-thing".into()),
        ..Options::new(Variant::Standard, Level::Hard)
    };
    assert!(matches!(
        Generator::new(opts, 1),
        Err(GenerateError::Technique(_))
    ));
}
