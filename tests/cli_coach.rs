//! The coach on the command line: technique names, `techniques`, positions with pencil
//! marks (`--marks`, `--placed`) and their bad input, `drill`, `generate --technique`, and
//! the drill bank in `puzzles/drills.jsonl`.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use termdoku::coach::{drill, marks};
use termdoku::format;
use termdoku::puzzle::{Puzzle, Variant};
use termdoku::solver::exact;
use termdoku::solver::logic::{self, technique, techniques, SolverMemory};

fn termdoku() -> Command {
    Command::cargo_bin("termdoku").unwrap()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One drill of a technique from the command (puzzle, placed, marks, step).
fn a_drill(t: &str) -> Value {
    let text = stdout(termdoku().args(["drill", "--technique", t, "--seed", "3"]));
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

#[test]
fn techniques_take_every_printed_form_and_hodoku_codes() {
    for name in ["X-Wing", "x-wing", "xwing", "XWING", "0300"] {
        termdoku()
            .args(["techniques", name])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("X-Wing (x-wing)\n"))
            .stdout(predicate::str::contains("HoDoKu code:  0300"));
    }
    let table = stdout(termdoku().args(["techniques", "--variant", "honeycomb"]));
    assert!(table.contains("run-range") && !table.contains("x-wing"));
    let json = stdout(termdoku().args(["techniques", "--json"]));
    let first: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], "full-house");
    assert_eq!(first["variants"].as_array().map(Vec::len), Some(5));
}

#[test]
fn unknown_techniques_list_the_valid_names() {
    for cmd in [
        vec!["techniques", "x-wong"],
        vec!["drill", "--technique", "x-wong"],
        vec!["generate", "--technique", "x-wong"],
    ] {
        termdoku()
            .args(&cmd)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("unknown technique 'x-wong'"))
            .stderr(predicate::str::contains("fish: x-wing swordfish"));
    }
}

#[test]
fn a_technique_a_variant_lacks_is_named_as_such() {
    for cmd in [
        vec!["techniques", "x-wing", "--variant", "honeycomb"],
        vec!["drill", "--technique", "X-Wing", "--variant", "honeycomb"],
        vec!["generate", "--technique", "xwing", "--variant", "honeycomb"],
    ] {
        termdoku()
            .args(&cmd)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "X-Wing (x-wing) does not occur in honeycomb",
            ));
    }
}

#[test]
fn drills_are_json_lines_whose_step_is_the_technique() {
    let args = [
        "drill",
        "--technique",
        "Naked Pair",
        "--count",
        "3",
        "--seed",
        "9",
    ];
    let text = stdout(termdoku().args(args));
    assert_eq!(
        text,
        stdout(termdoku().args(args)),
        "same seed, same drills"
    );
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let d: Value = serde_json::from_str(line).unwrap();
        assert_eq!(d["technique"], "naked-pair");
        assert_eq!(d["variant"], "standard");
        assert_eq!(d["step"]["technique"], "naked-pair");
        assert_eq!(d["puzzle"].as_str().map(str::len), Some(81));
        assert_eq!(d["placed"].as_str().map(str::len), Some(81));
        assert_eq!(d["marks"].as_str().map(|m| m.lines().count()), Some(9));
    }
}

/// `hint --marks M --placed LINE PUZZLE` starts from exactly that position: the drill's
/// technique comes first, not the puzzle's first step.
#[test]
fn hint_and_explain_start_from_the_marks() {
    let d = a_drill("x-wing");
    let hint = stdout(termdoku().args([
        "hint",
        "--json",
        "--marks",
        d["marks"].as_str().unwrap(),
        "--placed",
        d["placed"].as_str().unwrap(),
        d["puzzle"].as_str().unwrap(),
    ]));
    let step: Value = serde_json::from_str(hint.trim()).unwrap();
    assert_eq!(step, d["step"]);
    let explain = stdout(termdoku().args([
        "explain",
        "--json",
        "--marks",
        d["marks"].as_str().unwrap(),
        "--placed",
        d["placed"].as_str().unwrap(),
        d["puzzle"].as_str().unwrap(),
    ]));
    let first: Value = serde_json::from_str(explain.lines().next().unwrap()).unwrap();
    assert_eq!(first, d["step"]);
    let last: Value = serde_json::from_str(explain.lines().last().unwrap()).unwrap();
    assert_eq!(last["solved"], true);
}

/// A forum grid (9 lines with `|`, `-`, `+`) pasted alone: single digits are placed cells.
#[test]
fn a_forum_grid_alone_is_a_position() {
    let d = a_drill("x-wing");
    let rows: Vec<String> = d["marks"]
        .as_str()
        .unwrap()
        .lines()
        .map(|r| {
            let t: Vec<&str> = r.split(' ').collect();
            format!(
                "| {} | {} | {} |",
                t[..3].join(" "),
                t[3..6].join(" "),
                t[6..].join(" ")
            )
        })
        .collect();
    let bar = "+-------+-------+-------+";
    let mut text = vec![bar.to_string()];
    for (i, r) in rows.iter().enumerate() {
        text.push(r.clone());
        if i % 3 == 2 {
            text.push(bar.to_string());
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forum.txt");
    std::fs::write(&path, text.join("\n")).unwrap();
    let hint = stdout(termdoku().args(["hint", "--json", "--marks"]).arg(&path));
    let step: Value = serde_json::from_str(hint.trim()).unwrap();
    assert_eq!(step["technique"], "x-wing");
    assert_eq!(step["eliminations"], d["step"]["eliminations"]);
}

/// Replaces the token of cell `cell` (row-major) in a mark grid.
fn with_token(marks: &str, cell: usize, token: &str) -> String {
    let mut rows: Vec<Vec<String>> = marks
        .lines()
        .map(|r| r.split(' ').map(String::from).collect())
        .collect();
    rows[cell / 9][cell % 9] = token.to_string();
    rows.iter()
        .map(|r| r.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Column (1-based) of cell `cell`'s token in its line.
fn col_of(marks: &str, cell: usize) -> usize {
    let row = marks.lines().nth(cell / 9).unwrap();
    row.split(' ')
        .take(cell % 9)
        .map(|t| t.len() + 1)
        .sum::<usize>()
        + 1
}

fn bad_position(d: &Value, marks: &str, placed: &str) -> assert_cmd::assert::Assert {
    termdoku()
        .args(["hint", "--marks", marks, "--placed", placed])
        .arg(d["puzzle"].as_str().unwrap())
        .assert()
}

#[test]
fn bad_mark_grids_are_named_by_line_and_column() {
    let d = a_drill("naked-pair");
    let (marks, placed) = (d["marks"].as_str().unwrap(), d["placed"].as_str().unwrap());
    let puzzle = d["puzzle"].as_str().unwrap().as_bytes();
    let open = (0..81)
        .find(|&c| puzzle[c] == b'.' && placed.as_bytes()[c] == b'.')
        .unwrap();
    let given = (0..81).find(|&c| puzzle[c] != b'.').unwrap();
    let (line, col) = (open / 9 + 1, col_of(marks, open));

    // Wrong number of tokens: one too many names where the extra one starts.
    let extra = format!("{marks} 5");
    let last_line = marks.lines().last().unwrap();
    bad_position(&d, &extra, placed)
        .code(2)
        .stderr(predicate::str::contains(format!(
            "--marks:9:{}: the mark grid has 82 tokens, expected 81",
            last_line.len() + 2
        )));
    // A cell with no candidate.
    bad_position(&d, &with_token(marks, open, "."), placed)
        .code(2)
        .stderr(predicate::str::contains(format!(
            "--marks:{line}:{col}: '.' is not a candidate"
        )));
    // A candidate that contradicts a given of the same row.
    let row_given = (open / 9 * 9..open / 9 * 9 + 9)
        .find(|&c| puzzle[c] != b'.')
        .unwrap();
    let digit = puzzle[row_given] as char;
    let token = format!(
        "{digit}{}",
        marks
            .lines()
            .nth(open / 9)
            .unwrap()
            .split(' ')
            .nth(open % 9)
            .unwrap()
    );
    bad_position(&d, &with_token(marks, open, &token), placed)
        .code(2)
        .stderr(predicate::str::contains(format!("--marks:{line}:{col}:")))
        .stderr(predicate::str::contains(format!(
            "candidate {digit} contradicts the given {digit}"
        )));
    // A placed digit that breaks a rule: the given's digit again in its row.
    let mut bad_placed = placed.as_bytes().to_vec();
    bad_placed[open] = puzzle[row_given];
    bad_position(&d, marks, std::str::from_utf8(&bad_placed).unwrap())
        .code(2)
        .stderr(predicate::str::contains(format!(
            "--placed:1:{}: the placed {digit}",
            open + 1
        )))
        .stderr(predicate::str::contains("breaks a rule"));
    // A given's token that is not the given.
    let other = if puzzle[given] == b'1' { "2" } else { "1" };
    bad_position(&d, &with_token(marks, given, other), placed)
        .code(2)
        .stderr(predicate::str::contains("holds the given"));
}

#[test]
fn marks_that_drop_the_solution_are_refused() {
    let d = a_drill("naked-pair");
    let (marks, placed) = (d["marks"].as_str().unwrap(), d["placed"].as_str().unwrap());
    let puzzle = termdoku::format::parse_line(
        d["puzzle"].as_str().unwrap().as_bytes(),
        Variant::Standard,
        "p",
        1,
    )
    .unwrap()
    .unwrap();
    let sol = exact::solve(&puzzle, 2).first.unwrap();
    let pos = marks::read_position(Some(&puzzle), Some((marks, "m")), Some((placed, "p"))).unwrap();
    let cell = (0..81)
        .find(|&c| pos.grid.value(c) == 0 && pos.grid.candidates(c).len() > 1)
        .unwrap();
    let keep: String = pos
        .grid
        .candidates(cell)
        .iter()
        .filter(|&x| x != sol[cell])
        .map(|x| char::from(b'0' + x))
        .collect();
    bad_position(&d, &with_token(marks, cell, &keep), placed)
        .code(1)
        .stderr(predicate::str::contains(format!(
            "the marks leave out {}, the solution's digit there",
            sol[cell]
        )));
}

#[test]
fn marks_alone_need_a_standard_grid() {
    termdoku()
        .args(["hint", "--variant", "killer", "--marks", "1 2 3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard 9x9 grid only"));
}

/// `generate --technique` takes the printed names and returns only puzzles whose hardest
/// step is the technique; a rare one gives up after the stated budget.
#[test]
fn generate_by_hardest_step() {
    let text = stdout(termdoku().args(["generate", "--technique", "X-Wing", "--seed", "4"]));
    let line = text.split_whitespace().next().unwrap();
    let explain = stdout(termdoku().args(["explain", "--json", line]));
    let summary: Value = serde_json::from_str(explain.lines().last().unwrap()).unwrap();
    assert_eq!(summary["hardest"], "x-wing");
    termdoku()
        .args(["generate", "--technique", "multi-colors-2", "--budget", "1"])
        .args(["--seed", "1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("hardest step is multi-colors-2"))
        .stderr(predicate::str::contains("(1 s budget)"));
}

/// The drill bank: every drill's position reads back, `hint` finds its technique first
/// there with the bank's step, the step is sound against the exact solution, and every
/// technique has its quota or is listed as missing. Every drill is checked with
/// `TERMDOKU_BANK=all`; by default a fixed sample (every 16th), to keep `cargo test` quick.
#[test]
fn every_drill_of_the_bank_is_its_technique_first() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/drills.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(
        header["table"].as_str(),
        Some(drill::table_hash().as_str()),
        "the drill bank is stale (the technique table or order changed): regenerate it with `{}`",
        header["command"].as_str().unwrap_or("")
    );
    let drills: Vec<Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(header["drills"].as_u64(), Some(drills.len() as u64));
    // Quotas: met, or listed as missing with how many were found.
    for v in Variant::ALL {
        for t in techniques() {
            let want = drill::bank_quota(t, v);
            let got = drills
                .iter()
                .filter(|d| d["technique"] == t.id && d["variant"] == v.name())
                .count();
            let listed =
                header["missing"].as_array().unwrap().iter().any(|m| {
                    m["technique"] == t.id && m["variant"] == v.name() && m["found"] == got
                });
            assert!(
                got == want || (got < want && listed),
                "{} on {v}: {got} of {want}",
                t.id
            );
        }
    }
    let all = std::env::var("TERMDOKU_BANK").is_ok_and(|v| v == "all");
    let step = if all { 1 } else { 16 };
    for (i, d) in drills.iter().enumerate().step_by(step) {
        let at = format!("drill {} ({} on {})", i + 1, d["technique"], d["variant"]);
        let variant = Variant::parse(d["variant"].as_str().unwrap()).unwrap();
        let src = d["puzzle"].as_str().unwrap();
        let puzzle: Puzzle = if src.contains('\n') {
            format::parse_toml(src.as_bytes(), &at).unwrap()
        } else {
            format::parse_line(src.as_bytes(), variant, &at, 1)
                .unwrap()
                .unwrap()
        };
        let pos = marks::read_position(
            Some(&puzzle),
            Some((d["marks"].as_str().unwrap(), &at)),
            Some((d["placed"].as_str().unwrap(), &at)),
        )
        .unwrap_or_else(|e| panic!("{at}: {e}"));
        // The position belongs to its puzzle: the puzzle's own solution keeps every value and
        // mark of it.
        let sol = exact::solve(&puzzle, 2);
        assert_eq!(sol.count, 1, "{at}: puzzle not unique");
        let sol = sol.first.unwrap();
        assert_eq!(pos.solution().as_ref(), Ok(&sol), "{at}");
        let step = logic::next_step(&pos.grid, Some(&sol), &mut SolverMemory::new()).unwrap();
        let id = d["technique"].as_str().unwrap();
        assert!(technique(id).is_some(), "{at}");
        assert_eq!(step.id(), id, "{at}: hint finds {} first", step.id());
        let g = puzzle.geometry();
        let names = |v: &[logic::Candidate]| -> Vec<Value> {
            v.iter()
                .map(|c| serde_json::json!({"cell": g.cell_name(c.cell), "digit": c.digit}))
                .collect()
        };
        assert_eq!(
            Value::from(names(&step.eliminations)),
            d["step"]["eliminations"],
            "{at}"
        );
        assert_eq!(
            Value::from(names(&step.placements)),
            d["step"]["placements"],
            "{at}"
        );
        for e in &step.eliminations {
            assert_ne!(
                sol[e.cell],
                e.digit,
                "{at}: removes the solution at {}",
                g.cell_name(e.cell)
            );
        }
        for p in &step.placements {
            assert_eq!(
                sol[p.cell],
                p.digit,
                "{at}: places a wrong digit at {}",
                g.cell_name(p.cell)
            );
        }
    }
}
