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
        Some(t) => assert!(r.hardest.as_deref() == Some(t.as_str()) && r.level <= opts.level),
        None => assert_eq!(r.level, opts.level, "{}", crate::format::write_line(p)),
    }
    assert!(symmetry::is_symmetric(
        opts.symmetry,
        p.geometry(),
        &p.givens
    ));
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
fn standard_every_level() {
    sample(Variant::Standard, Level::Easy, 5);
    sample(Variant::Standard, Level::Medium, 3);
    sample(Variant::Standard, Level::Hard, 3);
    sample(Variant::Standard, Level::Unfair, 1);
    sample(Variant::Standard, Level::Extreme, 2);
}

#[test]
fn diagonal_and_honeycomb() {
    sample(Variant::Diagonal, Level::Easy, 3);
    sample(Variant::Diagonal, Level::Medium, 2);
    sample(Variant::Diagonal, Level::Hard, 2);
    sample(Variant::Diagonal, Level::Extreme, 1);
    sample(Variant::Honeycomb, Level::Easy, 3);
    sample(Variant::Honeycomb, Level::Medium, 2);
    sample(Variant::Honeycomb, Level::Hard, 1);
}

/// Honeycomb extreme puzzles need a step above unfair, not only a score past the unfair
/// maximum (the generator gives clues back only while that holds).
#[test]
fn honeycomb_extreme_needs_a_hard_step() {
    for g in sample(Variant::Honeycomb, Level::Extreme, 2) {
        let p = &g.puzzle;
        assert!(rating::stall_within(p, &g.solution, Level::Unfair).is_some());
        assert!(g
            .rating
            .hardest
            .is_some_and(|t| rating::technique_level(&t) == Level::Extreme));
    }
}

/// A 16x16 extreme puzzle is softened like a honeycomb one: unique, extreme by a step above
/// unfair, and its rating (continued from where the softening stalled) is the full rating.
#[test]
fn sixteen_by_sixteen_extreme_is_softened_and_rated_in_full() {
    let opts = Options {
        size: 16,
        ..Options::new(Variant::Standard, Level::Extreme)
    };
    let g = Generator::new(opts.clone(), 1234)
        .unwrap()
        .generate(0)
        .unwrap();
    check(&g, &opts);
    assert!(rating::stall_within(&g.puzzle, &g.solution, Level::Unfair).is_some());
}

#[test]
fn jigsaw_middle_levels() {
    sample(Variant::Jigsaw, Level::Medium, 1);
    sample(Variant::Jigsaw, Level::Extreme, 1);
}

/// A technique too rare to hit in a tiny budget is reported as such, never replaced by a
/// puzzle whose hardest step is another technique.
#[test]
fn a_rare_technique_gives_up_after_its_budget() {
    let opts = Options {
        technique: Some("multi-colors-2".into()),
        max_attempts: 3,
        ..Options::new(Variant::Standard, Level::Hard)
    };
    let gen = Generator::new(opts, 5).unwrap();
    let e = gen.generate(0).unwrap_err().to_string();
    assert!(
        e.contains("hardest step is multi-colors-2") && e.contains("3 attempts"),
        "{e}"
    );
}

#[test]
fn drill_samples_are_unique_and_deterministic() {
    for v in [Variant::Standard, Variant::Killer] {
        let gen = Generator::new(Options::new(v, Level::Hard), 9).unwrap();
        let (p, sol) = gen.sample(4).unwrap();
        assert_eq!(exact::solve(&p, 2).count, 1);
        assert_eq!(exact::solve(&p, 2).first, Some(sol));
        assert_eq!(gen.sample(4).map(|s| s.0), Some(p));
    }
}

#[test]
fn training_puzzles_use_the_technique() {
    for t in ["x-wing", "naked-pair"] {
        let opts = Options {
            technique: Some(t.into()),
            ..Options::new(Variant::Standard, rating::technique_level(t))
        };
        let gen = Generator::new(opts.clone(), 3).unwrap();
        for g in gen.iter(2) {
            check(&g.unwrap(), &opts);
        }
    }
}

/// 1,000 standard puzzles, none equal to another up to the Sudoku symmetries; prints the
/// clue-count distribution (`cargo test variety -- --nocapture`). `TD_VARIETY_LEVEL` picks
/// the level (easy by default, to keep `cargo test` fast).
#[test]
fn thousand_standard_puzzles_are_distinct() {
    let level = std::env::var("TD_VARIETY_LEVEL")
        .ok()
        .and_then(|l| parse_level(&l))
        .unwrap_or(Level::Easy);
    let gen = Generator::new(Options::new(Variant::Standard, level), 2026).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut clues = std::collections::BTreeMap::new();
    for g in gen.iter(1000) {
        let g = g.unwrap();
        let mut givens = [0u8; 81];
        givens.copy_from_slice(&g.puzzle.givens);
        assert!(
            seen.insert(canon::invariant(&givens)),
            "two equivalent puzzles: {}",
            crate::format::write_line(&g.puzzle)
        );
        *clues.entry(g.puzzle.given_count()).or_insert(0usize) += 1;
    }
    println!("{} clue counts: {clues:?}", level_name(level));
    assert!(clues.len() >= 3, "clue counts barely vary: {clues:?}");
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
        let g = Generator::new(opts.clone(), 5)
            .unwrap()
            .generate(0)
            .unwrap();
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
