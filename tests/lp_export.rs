//! The LP route: `termdoku export --format lp` solved by a real MILP solver (GLPK's
//! `glpsol`) agrees with the exact solver on a sample of every variant. Skips with a notice
//! when `glpsol` or the shared conformance folder is missing (CI installs `glpk-utils`).

mod common;

use assert_cmd::Command;
use common::folder;
use std::path::{Path, PathBuf};
use termdoku::export::grid_from_values;
use termdoku::format::load_file;
use termdoku::puzzle::{Puzzle, Variant};
use termdoku::solver::exact;

fn glpsol() -> bool {
    std::process::Command::new("glpsol")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// (variant, file, how many puzzles of it) for the sample.
fn sample() -> Vec<(Variant, PathBuf, usize)> {
    let f = folder();
    vec![
        (Variant::Standard, f.join("standard/top95.txt"), 2),
        (Variant::Diagonal, f.join("diagonal/diagonal.txt"), 3),
        (Variant::Honeycomb, f.join("honeycomb/hanicue-easy.txt"), 2),
        (Variant::Killer, f.join("killer/001.toml"), 1),
        (Variant::Killer, f.join("killer/003.toml"), 1),
        (Variant::Killer, f.join("killer/005.toml"), 1),
        (Variant::Jigsaw, f.join("jigsaw/001.toml"), 1),
        (Variant::Jigsaw, f.join("jigsaw/003.toml"), 1),
    ]
}

/// Exports through the CLI, solves with glpsol, reads the grid from its report.
fn lp_solve(variant: Variant, path: &Path, index: usize, p: &Puzzle, dir: &Path) -> Vec<u8> {
    let arg = if path.extension().is_some_and(|e| e == "toml") {
        path.display().to_string()
    } else {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .nth(index)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    let out = Command::cargo_bin("termdoku")
        .unwrap()
        .args([
            "export",
            "--format",
            "lp",
            "--variant",
            variant.name(),
            &arg,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lp = dir.join(format!("{}-{index}.lp", variant.name()));
    let report = dir.join(format!("{}-{index}.txt", variant.name()));
    std::fs::write(&lp, &out.stdout).unwrap();
    // A time limit, so a slow model fails the test instead of hanging CI.
    let run = std::process::Command::new("glpsol")
        .args(["--tmlim", "120"])
        .arg("--lp")
        .arg(&lp)
        .arg("-o")
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    let text = std::fs::read_to_string(&report).unwrap();
    // Column lines: "No. name [*] activity lower upper".
    let values: Vec<(String, f64)> = text
        .lines()
        .filter_map(|l| {
            let mut t = l.split_whitespace().skip(1);
            let name = t.next()?;
            if !name.starts_with("x_") {
                return None;
            }
            let v = t.find(|s| *s != "*")?.parse().ok()?;
            Some((name.to_string(), v))
        })
        .collect();
    grid_from_values(p, values.iter().map(|(n, v)| (n.as_str(), *v)))
}

#[test]
fn glpsol_agrees_with_the_exact_solver() {
    if !glpsol() {
        println!("glpsol is missing (apt-get install glpk-utils): LP route skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (variant, path, count) in sample() {
        if !path.exists() {
            println!("{} is missing: skipped", path.display());
            continue;
        }
        let puzzles = load_file(&path, variant).unwrap();
        for (i, p) in puzzles.iter().take(count).enumerate() {
            let want = exact::solve(p, 2);
            assert_eq!(want.count, 1, "{} #{i}", path.display());
            let got = lp_solve(variant, &path, i, p, dir.path());
            assert_eq!(Some(got), want.first, "{} #{i}", path.display());
            checked += 1;
        }
    }
    println!("LP route: {checked} puzzles agree with the exact solver");
}
