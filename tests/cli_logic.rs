//! `hint`, `explain` and `rate` on the command line: text, JSON and exit statuses.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;

const EASY: &str =
    ".....8........7.2927.1.9.38..3....6.7.......5.8....1..93.5.1.8714.7........4.....";

fn termdoku() -> Command {
    Command::cargo_bin("termdoku").unwrap()
}

#[test]
fn hint_prints_one_step() {
    termdoku()
        .args(["hint", EASY])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Hidden Single: in row 9, 7 can only go in r9c3",
        ));
}

#[test]
fn hint_json_is_one_object() {
    let out = termdoku().args(["hint", "--json", EASY]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["technique"], "hidden-single");
    assert_eq!(v["level"], "easy");
    assert_eq!(v["score"], 14);
    assert_eq!(v["placements"][0]["cell"], "r9c3");
    assert_eq!(v["houses"][0], "row 9");
}

#[test]
fn explain_json_ends_with_a_summary() {
    let out = termdoku()
        .args(["explain", "--json", EASY])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.last().unwrap();
    assert_eq!(summary["solved"], true);
    assert_eq!(summary["guesses"], 0);
    assert_eq!(summary["steps"].as_u64().unwrap() as usize, lines.len() - 1);
    // HoDoKu rates this puzzle medium 500.
    assert_eq!(summary["level"], "medium");
    assert_eq!(summary["score"], 500);
}

#[test]
fn explain_text_numbers_steps() {
    termdoku()
        .args(["explain", EASY])
        .assert()
        .success()
        .stdout(predicate::str::contains("  1. Hidden Single"))
        .stdout(predicate::str::contains("Solved in"));
}

#[test]
fn rate_reads_stdin_and_flags_bad_puzzles() {
    let input = format!("{EASY}\n{}\n", ".".repeat(81));
    termdoku()
        .arg("rate")
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("medium 500\nmultiple\n")
        .stderr(predicate::str::contains("<stdin>:2: not unique"));
}

#[test]
fn bad_puzzles_exit_1_and_bad_usage_exit_2() {
    let mut conflict = EASY.to_string();
    conflict.replace_range(0..2, "99");
    termdoku()
        .args(["hint", &conflict])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("invalid"));
    termdoku().args(["hint", "12x"]).assert().code(2);
    termdoku().args(["explain"]).assert().code(2);
    termdoku()
        .args(["rate", "/nonexistent/file.txt"])
        .assert()
        .code(2);
    // A missing marks file is named as missing, not read as a mark grid.
    termdoku()
        .args(["hint", "--marks", "/nonexistent/marks.txt", EASY])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/nonexistent/marks.txt: No such file",
        ));
}

/// A position on the rating path of top1465 #1 where a Kraken fish (off the default path)
/// removes 9 from r1c6; asked for by name, `hint` shows it with its fish and chains.
const TOP1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const TOP1_MARKS: &str = "4 569 1268 5789 3 15789 25 2567 5679
1237 359 12 6 127 14579 8 2357 34579
23678 3569 268 45789 278 45789 2345 23567 1
1236 346 124 378 5 13678 23 9 378
123 8 59 3479 17 13479 6 12357 357
136 7 59 2 168 13689 345 1358 3458
68 46 468 1 9 2 7 35 35
5 1 3 78 678 678 9 4 2
9 2 7 35 4 35 1 68 68";

#[test]
fn hint_by_technique_shows_a_kraken_fish() {
    let out = termdoku()
        .args([
            "hint",
            "--technique",
            "Kraken Fish",
            "--marks",
            TOP1_MARKS,
            TOP1,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Kraken Fish (type "), "{text}");
    assert!(text.contains(" with base "), "{text}");
    assert!(text.contains(" -> "), "{text}");
    let out = termdoku()
        .args([
            "hint",
            "--json",
            "--technique",
            "0371",
            "--marks",
            TOP1_MARKS,
            TOP1,
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["technique"], "kraken-fish");
    assert_eq!(v["level"], "extreme");
    assert_eq!(v["score"], 500);
}

#[test]
fn hint_by_technique_says_when_there_is_none() {
    termdoku()
        .args(["hint", "--technique", "bug-plus-1", EASY])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("No BUG+1 in this position"));
}

#[test]
fn hint_and_explain_take_the_puzzle_chosen_from_a_file_of_several() {
    let dir = tempfile::tempdir().unwrap();
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let file = dir.path().join("two.txt");
    std::fs::write(&file, format!("{EASY}\n{hard}\n")).unwrap();
    let file = file.to_str().unwrap();
    let run = |args: &[&str]| termdoku().args(args).output().unwrap();
    let alone = run(&["hint", hard]);
    let second = run(&["hint", file, "--index", "2"]);
    assert!(second.status.success());
    assert_eq!(
        second.stdout, alone.stdout,
        "puzzle 2 of the file is the second line"
    );
    assert!(second.stderr.is_empty());
    // Without --index: the first, and the user is told the file holds more.
    let first = run(&["hint", file]);
    assert_eq!(first.stdout, run(&["hint", EASY]).stdout);
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(
        said.contains("holds 2 puzzles") && said.contains("--index"),
        "{said}"
    );
    let path = run(&["explain", file, "--index", "2"]);
    assert_eq!(path.stdout, run(&["explain", hard]).stdout);
    let beyond = run(&["hint", file, "--index", "3"]);
    assert_eq!(beyond.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("no puzzle 3"));
    // A bad line further down is named, as every other command that reads files does.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("{EASY}\n{hard}\n12..\n")).unwrap();
    let out = run(&["hint", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.txt:3:1"));
}

#[test]
fn explain_writes_each_step_as_it_is_found_and_stops_when_the_reader_does() {
    use std::io::BufRead;
    let Some(file) = common::conformance("honeycomb/hanicue-hard.txt") else {
        return;
    };
    // Line 151 takes seconds of nested forcing nets to explain to the end.
    let line = common::lines(&file)[150].clone();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_termdoku"))
        .args(["explain", "--variant", "honeycomb", &line])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    assert!(first.starts_with("  1. "), "{first}");
    // The first step came while the rest of the path was still being worked out.
    let running = child.try_wait().unwrap().is_none();
    // A reader that stops (`| head`) ends the walk quietly.
    drop(reader);
    let out = child.wait_with_output().unwrap();
    assert!(
        running,
        "explain wrote nothing until the whole path was done"
    );
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
