//! The command line against hostile input (issue 15): nonsense counts and sizes, slow
//! combinations, odd files, clashing givens, a reader that closes the pipe. Each answer is
//! at once: an exit status and a message, never a panic, a hang or an abort.

use assert_cmd::Command;
use predicates::prelude::*;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{pattern_grid, pattern_puzzle};

/// Two 1s in row 1.
fn clashing() -> String {
    "11".to_string() + &".".repeat(79)
}

/// Givens that do not clash but leave r1c9 no digit: no solution.
fn unsolvable() -> String {
    let mut p: Vec<char> = ".".repeat(81).chars().collect();
    for (i, d) in "12345678".chars().enumerate() {
        p[i] = d;
    }
    p[9 * 4 + 8] = '9';
    p.into_iter().collect()
}

fn termdoku() -> Command {
    let mut c = Command::cargo_bin("termdoku").unwrap();
    // A bound, not a measure: a hang fails the test instead of stalling CI.
    c.timeout(Duration::from_secs(60));
    c
}

fn file_with(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked").not()
}

/// Runs `args` with stdout on a pipe, reads `lines` lines, closes the pipe and waits:
/// the command must stop by itself (no spinning on a dead pipe) and not panic.
fn read_then_close(args: &[&str], stdin: Option<&str>, lines: usize) -> (Vec<String>, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("termdoku"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        let mut input = child.stdin.take().unwrap();
        let text = text.to_string();
        // Endless input: only a command that stops when its reader goes away ends.
        std::thread::spawn(move || while input.write_all(text.as_bytes()).is_ok() {});
    }
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut got = Vec::new();
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        got.push(line.trim_end().to_string());
    }
    drop(out);
    // A bound, not a measure: a command that keeps running fails here instead of hanging.
    let mut status = None;
    for _ in 0..600 {
        status = child.try_wait().unwrap();
        if status.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let Some(status) = status else {
        let _ = child.kill();
        panic!("{args:?} kept running after its output was closed");
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_ne!(status.code(), Some(101), "panicked: {err}");
    assert!(!err.contains("panicked"), "{err}");
    (got, err)
}

// Item 1: 16x16 logic. -------------------------------------------------------------------

#[test]
fn bench_logic_on_an_empty_16x16_grid_says_why_it_is_not_timed() {
    let f = file_with(&format!("{}\n", ".".repeat(256)));
    termdoku()
        .args(["bench", "--logic", "--threads", "1"])
        .arg(f.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not unique").and(no_panic()));
}

// Item 7: counts and sizes. --------------------------------------------------------------

#[test]
fn huge_counts_stream_instead_of_allocating() {
    for count in ["18446744073709551615", "100000000000"] {
        let (lines, _) = read_then_close(
            &[
                "generate",
                "--size",
                "4",
                "--difficulty",
                "easy",
                "--seed",
                "1",
                "--count",
                count,
            ],
            None,
            2,
        );
        assert!(lines.iter().all(|l| l.len() > 16), "{lines:?}");
    }
}

#[test]
fn nonsense_numbers_are_usage_errors() {
    let f = file_with(&format!("{}\n", pattern_puzzle()));
    let cases: [(&[&str], &str); 6] = [
        (&["generate", "--count", "0"], "--count"),
        (&["generate", "--count=-1"], "--count"),
        (&["generate", "--size", "7"], "4, 6, 9 or 16"),
        (&["bench", "--threads", "0"], "--threads"),
        (
            &["bench", "--generate", "--count", "1", "--budget", "NaN"],
            "finite",
        ),
        (&["bench", "--generate", "--budget=-2"], "finite"),
    ];
    for (args, message) in cases {
        let mut cmd = termdoku();
        cmd.args(args);
        if args[0] == "bench" && !args.contains(&"--generate") {
            cmd.arg(f.path());
        }
        cmd.assert()
            .code(2)
            .stderr(predicate::str::contains(message).and(no_panic()));
    }
}

#[test]
fn unknown_levels_are_refused_naming_the_valid_ones() {
    for cmd in [&["play"][..], &["generate"][..]] {
        termdoku()
            .args(cmd)
            .args(["--difficulty", "bogus"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "easy, medium, hard, unfair, extreme",
            ));
    }
}

// Item 8: combinations that would search for minutes. ------------------------------------

#[test]
fn slow_combinations_are_refused_at_once() {
    for args in [
        &["--variant", "killer", "--size", "16"][..],
        &[
            "--variant",
            "jigsaw",
            "--size",
            "16",
            "--difficulty",
            "medium",
        ][..],
        &["--size", "4", "--difficulty", "hard"][..],
    ] {
        termdoku()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("termdoku: "));
    }
}

// Item 9: input edge cases. --------------------------------------------------------------

#[test]
fn long_leading_whitespace_does_not_hide_a_puzzle() {
    let input = format!("{}{}\n", " ".repeat(5000), pattern_puzzle());
    termdoku()
        .arg("solve")
        .write_stdin(input)
        .assert()
        .success()
        .stdout(format!("{}\n", pattern_grid()));
}

#[test]
fn a_missing_file_is_named_not_parsed() {
    for cmd in ["hint", "explain"] {
        termdoku()
            .args([cmd, "no-such-puzzle.txt"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("no-such-puzzle.txt: no such file"));
    }
    termdoku()
        .args(["export", "--format", "lp", "missing/p.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing/p.toml: no such file"));
    // A puzzle string still reads as one, mistakes and all.
    termdoku()
        .args(["hint", "12.4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4 cells"));
}

#[cfg(unix)]
#[test]
fn a_fifo_puzzle_argument_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("p.txt");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    termdoku()
        .arg("hint")
        .arg(&fifo)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a regular file"));
}

#[test]
fn bad_killer_cages_are_named_with_their_line() {
    let cases = [
        ("sum = 10\ncells = [\"r1c1\", \"r1c2\", \"r3c3\"]", ":5:", "not connected"),
        ("sum = -3\ncells = [\"r1c1\", \"r1c2\"]", ":4:", "sum -3 is impossible"),
        ("sum = 4294967296\ncells = [\"r1c1\"]", ":4:", "sum 4294967296 is impossible"),
        (
            "sum = 45\ncells = [\"r1c1\", \"r1c2\", \"r1c3\", \"r1c4\", \"r1c5\", \"r1c6\", \"r1c7\", \"r1c8\", \"r1c9\", \"r2c1\"]",
            ":5:",
            "10 cells",
        ),
    ];
    for (cage, line, message) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.toml");
        std::fs::write(&path, format!("variant = \"killer\"\n\n[[cage]]\n{cage}\n")).unwrap();
        termdoku().arg("rate").arg(&path).assert().code(2).stderr(
            predicate::str::contains(format!("k.toml{line}"))
                .and(predicate::str::contains(message)),
        );
    }
}

// Item 10: exit codes, one word for clashing givens, closed pipes. -----------------------

#[test]
fn export_refuses_clashing_and_unsolvable_puzzles() {
    termdoku()
        .args(["export", "--format", "lp", &clashing()])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "invalid: r1c1 and r1c2 both hold 1",
        ));
    termdoku()
        .args(["export", "--format", "lp", &unsolvable()])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("unsolvable"));
}

#[test]
fn clashing_givens_are_invalid_in_every_command() {
    let input = format!("{}\n", clashing());
    for cmd in ["solve", "rate"] {
        termdoku()
            .arg(cmd)
            .write_stdin(input.clone())
            .assert()
            .code(1)
            .stdout("invalid\n")
            .stderr(predicate::str::contains("invalid: r1c1 and r1c2"));
    }
    for cmd in ["hint", "explain"] {
        termdoku()
            .args([cmd, &clashing()])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("invalid: r1c1 and r1c2"));
    }
}

#[test]
fn bench_on_an_empty_or_unreadable_file_is_a_usage_error() {
    let empty = file_with("");
    let garbage = file_with("not a puzzle\n");
    for f in [&empty, &garbage] {
        for logic in [false, true] {
            let mut cmd = termdoku();
            cmd.arg("bench");
            if logic {
                cmd.arg("--logic");
            }
            cmd.arg(f.path())
                .assert()
                .code(2)
                .stderr(predicate::str::contains("termdoku: "));
        }
    }
}

#[test]
fn batch_commands_stop_when_the_reader_goes_away() {
    let many = format!("{}\n", pattern_puzzle()).repeat(100);
    for cmd in ["solve", "rate"] {
        let (lines, _) = read_then_close(&[cmd], Some(&many), 1);
        assert!(!lines[0].is_empty(), "{cmd}: {lines:?}");
    }
}
