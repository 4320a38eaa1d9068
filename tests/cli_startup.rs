//! Start-up without `play` (`termdoku FILE`, `termdoku STRING`, `termdoku --variant V
//! --difficulty D`), `--index` into files of several puzzles, and `[[puzzle]]` collections
//! read by every command. Without a terminal the player stops after loading its puzzle with
//! the "needs a terminal" message, so that message shows the puzzle was accepted.

use assert_cmd::Command;
use predicates::prelude::*;
use std::io::Write;

const NEEDS_TERMINAL: &str = "play needs a terminal";
const KILLER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/killer-easy.toml");
const JIGSAW: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/jigsaw-easy.toml");

/// A valid 9x9 puzzle line (a shifted pattern with a blanked stripe).
fn good_line() -> String {
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            if (r + c) % 3 == 0 {
                '.'
            } else {
                char::from(b'1' + ((3 * (r % 3) + r / 3 + c) % 9) as u8)
            }
        })
        .collect()
}

/// A puzzle line whose givens clash (two 1s in row 1): the player refuses it with exit 1.
fn clashing_line() -> String {
    format!("11{}", ".".repeat(79))
}

/// A termdoku with its own (empty) state and config folders.
fn termdoku(state: &std::path::Path) -> Command {
    let mut c = Command::cargo_bin("termdoku").unwrap();
    c.env("TERMDOKU_STATE_DIR", state)
        .env("TERMDOKU_CONFIG_DIR", state.join("config"));
    c
}

/// A line file: puzzle 1 valid, puzzle 2 clashing, puzzle 3 valid.
fn three_puzzles() -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    writeln!(f, "{}\n{}\n{}", good_line(), clashing_line(), good_line()).unwrap();
    f
}

#[test]
fn a_bare_file_argument_opens_the_player() {
    let state = tempfile::tempdir().unwrap();
    termdoku(state.path())
        .arg(KILLER)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(NEEDS_TERMINAL));
}

#[test]
fn a_bare_puzzle_string_opens_the_player_and_a_clash_is_refused() {
    let state = tempfile::tempdir().unwrap();
    termdoku(state.path())
        .arg(good_line())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(NEEDS_TERMINAL));
    termdoku(state.path())
        .arg(clashing_line())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("invalid puzzle"));
}

#[test]
fn bare_variant_and_difficulty_open_a_new_game() {
    let state = tempfile::tempdir().unwrap();
    termdoku(state.path())
        .args(["--variant", "killer", "--difficulty", "easy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(NEEDS_TERMINAL));
}

#[test]
fn subcommands_still_win_over_the_bare_player() {
    let state = tempfile::tempdir().unwrap();
    termdoku(state.path())
        .args(["solve", "--count"])
        .write_stdin(format!("{}\n", good_line()))
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn index_picks_the_puzzle_of_a_file() {
    let state = tempfile::tempdir().unwrap();
    let f = three_puzzles();
    // Puzzle 2 clashes: exit 1 shows --index 2 opened it, and not the first.
    for bare in [false, true] {
        let mut c = termdoku(state.path());
        if !bare {
            c.arg("play");
        }
        c.arg(f.path())
            .args(["--index", "2"])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("invalid puzzle"));
    }
    termdoku(state.path())
        .arg(f.path())
        .args(["--index", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(NEEDS_TERMINAL));
}

#[test]
fn an_index_out_of_range_is_a_clear_error() {
    let state = tempfile::tempdir().unwrap();
    termdoku(state.path())
        .args(["play", KILLER, "--index", "31"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--index 31 is out of range (the file has 30 puzzles)",
        ));
    termdoku(state.path())
        .args([KILLER, "--index", "0"])
        .assert()
        .code(2);
    termdoku(state.path())
        .args([&good_line(), "--index", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--index needs a puzzle file"));
}

#[test]
fn without_index_the_remembered_puzzle_opens() {
    let state = tempfile::tempdir().unwrap();
    let f = three_puzzles();
    let key = std::fs::canonicalize(f.path()).unwrap();
    let memory = serde_json::json!({ key.display().to_string(): 2 });
    std::fs::write(state.path().join("collections.json"), memory.to_string()).unwrap();
    termdoku(state.path())
        .arg(f.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("invalid puzzle"));
}

#[test]
fn every_command_reads_a_collection() {
    let state = tempfile::tempdir().unwrap();
    let solved = termdoku(state.path())
        .args(["solve", KILLER])
        .assert()
        .success();
    let out = String::from_utf8(solved.get_output().stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 30, "{out}");
    assert!(out.lines().all(|l| l.len() == 81 && !l.contains('.')));
    let rated = termdoku(state.path())
        .args(["rate", JIGSAW])
        .assert()
        .success();
    let out = String::from_utf8(rated.get_output().stdout.clone()).unwrap();
    assert_eq!(out.lines().count(), 30, "{out}");
    assert!(out.lines().all(|l| l.starts_with("easy ")), "{out}");
    termdoku(state.path())
        .args(["hint", KILLER])
        .assert()
        .success()
        .stdout(predicate::str::contains("cage"));
    termdoku(state.path())
        .args(["explain", JIGSAW])
        .assert()
        .success()
        .stdout(predicate::str::contains("Solved in"));
    termdoku(state.path())
        .args(["export", "--format", "lp", KILLER])
        .assert()
        .success()
        .stdout(predicate::str::contains("killer puzzle"));
}

#[test]
fn a_collection_error_names_file_and_line() {
    let state = tempfile::tempdir().unwrap();
    let mut f = tempfile::Builder::new().suffix(".toml").tempfile().unwrap();
    // Puzzle 1 is a copy of the shipped one; puzzle 2's variant (line 8) is unknown.
    let shipped = std::fs::read_to_string(KILLER).unwrap();
    let first = shipped.split("[[puzzle]]").nth(1).unwrap();
    let lines = 1 + first.lines().count();
    write!(f, "[[puzzle]]{first}[[puzzle]]\nvariant = \"nonsense\"\n").unwrap();
    let name = f.path().display().to_string();
    termdoku(state.path())
        .args(["solve", &name])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{name}:{}:", lines + 1)));
}
