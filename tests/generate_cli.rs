//! `termdoku generate` from the outside: streams, determinism, exit statuses.

use assert_cmd::Command;

fn generate(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("termdoku")
        .unwrap()
        .arg("generate")
        .args(args)
        .assert()
}

#[test]
fn same_seed_prints_the_same_puzzles() {
    let args = ["--difficulty", "easy", "--count", "3", "--seed", "5"];
    let a = generate(&args).success().get_output().stdout.clone();
    let b = generate(&args).success().get_output().stdout.clone();
    assert_eq!(a, b);
    let text = String::from_utf8(a).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for line in lines {
        assert_eq!(line.find(' '), Some(81), "{line}");
        assert!(line.ends_with(|c: char| c.is_ascii_digit()) && line.contains("# easy "));
    }
}

#[test]
fn killer_prints_toml_that_solve_reads() {
    let out = generate(&["--variant", "killer", "--difficulty", "easy", "--seed", "1"])
        .success()
        .get_output()
        .stdout
        .clone();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.toml");
    std::fs::write(&path, out).unwrap();
    Command::cargo_bin("termdoku")
        .unwrap()
        .args(["solve", "--count"])
        .arg(&path)
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn bad_options_exit_with_usage_status() {
    generate(&["--difficulty", "impossible"]).code(2);
    generate(&["--symmetry", "spiral"]).code(2);
    generate(&["--variant", "honeycomb", "--symmetry", "rotate90"]).code(2);
    generate(&["--technique", "no-such-technique"]).code(2);
    generate(&["--size", "5"]).code(2);
}

/// The standard output of a successful `termdoku bench --generate ARGS`.
fn bench_generate(args: &[&str]) -> String {
    let out = Command::cargo_bin("termdoku")
        .unwrap()
        .args(["bench", "--generate"])
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// `bench --generate` prints one timing row per variant and level asked for, with the
/// clue-count histogram when asked; `bench` without a file or --generate is a usage error.
#[test]
fn bench_generate_prints_a_row_per_level() {
    let text = bench_generate(&[
        "--variant",
        "diagonal",
        "--difficulty",
        "easy",
        "--count",
        "4",
        "--givens",
    ]);
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("diagonal")).collect();
    assert_eq!(rows.len(), 1, "{text}");
    assert!(
        rows[0].contains("easy") && rows[0].contains("n=4"),
        "{text}"
    );
    assert!(
        rows[0].contains("median") && rows[0].contains("p95"),
        "{text}"
    );
    let hist = text.lines().find(|l| l.contains("givens (count:puzzles)"));
    let total: usize = hist
        .unwrap_or_else(|| panic!("{text}"))
        .split_whitespace()
        .filter_map(|kv| kv.split_once(':')?.1.parse::<usize>().ok())
        .sum();
    assert_eq!(total, 4, "{text}");
    Command::cargo_bin("termdoku")
        .unwrap()
        .arg("bench")
        .assert()
        .code(2);
}

/// `bench --generate --size N` times puzzles of that size (the clue counts show it: a 4x4
/// puzzle has at most 16 givens) and names the levels the size cannot reach instead of
/// searching for them.
#[test]
fn bench_generate_times_other_sizes_and_skips_unreachable_levels() {
    let text = bench_generate(&["--size", "4", "--count", "3"]);
    assert!(text.lines().next().unwrap_or("").contains("4x4"), "{text}");
    let easy = text
        .lines()
        .find(|l| l.starts_with("standard") && l.contains("easy"))
        .unwrap_or_else(|| panic!("{text}"));
    let range = easy
        .split("givens ")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let (lo, hi) = range
        .trim()
        .split_once('-')
        .unwrap_or_else(|| panic!("{text}"));
    let hi = hi.split_whitespace().next().unwrap_or("");
    let (lo, hi): (usize, usize) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(0 < lo && lo <= hi && hi < 16, "{text}");
    let extreme = text
        .lines()
        .find(|l| l.starts_with("standard") && l.contains("extreme"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(extreme.contains("skipped"), "{text}");
    assert!(!text.contains("diagonal"), "{text}");
}
