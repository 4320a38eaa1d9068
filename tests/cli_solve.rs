//! `termdoku solve` and `bench`: outputs, messages and exit statuses (design.md section 4).

use assert_cmd::Command;
use predicates::prelude::*;
use std::io::Write;

mod common;
use common::{pattern_grid, pattern_puzzle};

fn termdoku() -> Command {
    Command::cargo_bin("termdoku").unwrap()
}

fn file_with(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn solves_a_line_from_stdin() {
    termdoku()
        .arg("solve")
        .write_stdin(format!("{}\n", pattern_puzzle()))
        .assert()
        .success()
        .stdout(format!("{}\n", pattern_grid()));
}

#[test]
fn one_output_line_per_puzzle_line_with_counts() {
    let f = file_with(&format!(
        "{}\n\n# a comment line\n{}\n{}\n",
        pattern_puzzle(),
        ".".repeat(81),
        "11".to_string() + &".".repeat(79)
    ));
    termdoku()
        .args(["solve", "--count"])
        .arg(f.path())
        .assert()
        .code(1)
        .stdout("1\n2+\n0\n")
        .stderr(predicate::str::contains(
            ":5: invalid: r1c1 and r1c2 both hold 1",
        ));
}

#[test]
fn multiple_and_unsolvable_are_named_with_their_line() {
    let f = file_with(&format!("{}\n{}\n", ".".repeat(81), pattern_puzzle()));
    termdoku()
        .arg("solve")
        .arg(f.path())
        .assert()
        .code(1)
        .stdout(format!("multiple\n{}\n", pattern_grid()))
        .stderr(predicate::str::contains(":1: multiple solutions"));
}

#[test]
fn first_gives_a_solution_without_proof() {
    let out = termdoku()
        .args(["solve", "--first", "-"])
        .write_stdin(".".repeat(81))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let line = String::from_utf8(out).unwrap();
    assert_eq!(line.trim().len(), 81);
    assert!(!line.contains('.'));
}

#[test]
fn unreadable_lines_exit_2_with_position() {
    let f = file_with(&format!(
        "{}\n{}x\n",
        pattern_puzzle(),
        &pattern_puzzle()[..80]
    ));
    termdoku()
        .arg("solve")
        .arg(f.path())
        .assert()
        .code(2)
        .stdout(format!("{}\nerror\n", pattern_grid()))
        .stderr(predicate::str::contains(
            ":2:81: unexpected 'x' (expected a digit, '.' or '0')",
        ));
}

#[test]
fn missing_file_and_empty_input_exit_2() {
    termdoku()
        .args(["solve", "/no/such/file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("/no/such/file.txt"));
    termdoku()
        .arg("solve")
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty input"));
    termdoku().args(["solve", "--bogus"]).assert().code(2);
}

#[test]
fn honeycomb_and_small_grids_by_variant() {
    termdoku()
        .args(["solve", "--variant", "honeycomb", "--count"])
        .write_stdin(".".repeat(61))
        .assert()
        .code(0)
        .stdout("2+\n");
    termdoku()
        .args(["solve", "--variant", "honeycomb"])
        .write_stdin(pattern_puzzle())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "81 cells, expected 61 for honeycomb",
        ));
    termdoku()
        .arg("solve")
        .write_stdin("12343412214.4321\n")
        .assert()
        .success()
        .stdout("1234341221434321\n");
}

#[test]
fn toml_files_name_the_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.toml");
    std::fs::write(
        &path,
        "variant = \"killer\"\n[[cage]]\nsum = 50\ncells = [\"r1c1\", \"r1c2\"]\n",
    )
    .unwrap();
    termdoku()
        .arg("solve")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "k.toml:3:7: cage 1: sum 50 is impossible",
        ));
}

#[test]
fn bench_reports_throughput() {
    let f = file_with(&format!("{}\n{}\n", pattern_puzzle(), pattern_puzzle()));
    termdoku()
        .args(["bench", "--threads", "1"])
        .arg(f.path())
        .assert()
        .success()
        .stdout(predicate::str::contains("first solution: 2 puzzles"))
        .stdout(predicate::str::contains("solve + uniqueness: 2 puzzles"))
        .stdout(predicate::str::contains("puzzles/s"));
}
