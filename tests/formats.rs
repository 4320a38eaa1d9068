//! The formats other tools speak (issue 24, items 4-5): the pasted grid form, f-puzzles JSON
//! and share links, read through the one loader by every command and written by `export`.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use std::path::Path;
use termdoku::format::{
    load_file, parse_fpuzzles, parse_grid, parse_line, parse_link, share_links, to_fpuzzles,
    write_grid, write_line, Pos,
};
use termdoku::puzzle::{Puzzle, Variant};

mod common;
use common::{pattern_grid, pattern_puzzle};

fn termdoku() -> Command {
    Command::cargo_bin("termdoku").unwrap()
}

fn at() -> Pos {
    Pos {
        file: "<arg>".into(),
        line: 1,
        col: 1,
    }
}

/// A killer published as an f-puzzles link (in a public solver's test suite, where it is
/// checked to have one solution): 17 cages, no givens.
const REAL_KILLER_LINK: &str = "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1p7rjtn/nQaCR3PgIm9hk0UM6zR4rssX0QAawgAbLTAwBjAIZo48QiH0wdYfCABKARgDCDkKkdOATG/ueXPuz9vNQA3Qy0AV1MQBwAOEAoLKy0bM3tnAGYA5wAWbKcAVgC/ItDwqIQQTzzEy2tbDwA2Yqdmssjootrk1Lx0pwB2fPj2ivgY7276tI9EFrnR6Icu0iTpvrsMwYCtkdQwjsrmqZSGraz3LbzLwoCcpwv7AoeQRcrPVxPe+y3Xd3u/k9/O5nsF9uVop4sl8Go1gfY4WCQAcxiAVqA6qcZgN4XZYv43uMHJNVpjvnZELjKUiUUt0WssRscY88S9CSBjqSeg0cUV3PjrvZ8Xz7JS8uyHEMYTN7s0Qa0AnDBXY4SKVQr2Z4SRjuTKnPF/k45vKhvK9siIe8AAwJLnrBHbdxwg32HFy12OoUa8GHcaeTk6+12HHGr2himeiMuiMLH2ozzxIhqQz6AAuEBCMCcAHsAHZgVMYQwQXOp74AaW0ugwAAInMY4LQiEA==";

/// A real f-puzzles link (from a public converter's test suite) with a killer cage among
/// anti-king, anti-knight, thermometers and more.
const REAL_MIXED_LINK: &str = "https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSTQMY0IB7AOwQAYLXz3iBdZQty6uo3gBGVADcAhgBsArnBGoaYmEIAuGORRCTZ8gEyKIytRphadchAGZDxhOs0c+Rbryfuyn1q68fnTn39fYO8eEL8/QIjwryiYoNC3eOiXbhAYAA91CSoaBnxQAGMYKSkwfBAAJQBWAGE9EFQa2qtGqrqAFjbKgDYW7r6upoB2fpHaoarR6u6ADlqZzhdUVQALGAwAW1pNmFUNgpApCHoYcvgCKuFanu7r4bva2e69WsRuqzeQTiW0nIxaAB3Q7FUrnPBVDoLbpQ25pY6ncEQyqwmG1B5NKHPJp1bFVPp4yqjZ4/ZYgbAQCRoBjSADU9lMqApVJpUgAtAy5KgJPRVBAANb0CBoVaqTkwbm8gUnNDipkQABmCo2KmKIJKZQqlUQE26OsWWlBmouVR1tya+u+ZIwEj5tHVYK1OoxpqeVtIICN4Nd7wtbt+qFo2FwFyKGoQU1qwhAZJgdlDnvD8Cq82jZP5EFKG0KVPkhETjpNlU+0aanwamKjaIr7SrOPq33E0ksyb0DWtKgARjzDgizvhkaNS5Ga70xrXJs0ZpXzbWXc1CX13qT4Sc86A+0jI8OiQ2mn1WvXJ3Vp5Cbt06vPcQMvj9AzJVH3ahHMBIAJ5tQE4NbMAB0BhACAwAAORgQFagYMBshOMV4AcMwliAA=";

/// Everything that makes a puzzle: layout, givens, title.
fn same(a: &Puzzle, b: &Puzzle) -> bool {
    a.layout == b.layout && a.givens == b.givens && a.title == b.title
}

/// f-puzzles JSON and both share links give back the same puzzle.
fn assert_fpuzzles_round_trip(p: &Puzzle, what: &str) {
    let json = to_fpuzzles(p).unwrap().to_string();
    let back = parse_fpuzzles(&json, "t.json").unwrap();
    assert!(same(p, &back), "{what}: JSON round trip\n{json}");
    for link in share_links(p).unwrap() {
        let back = parse_link(&link, at()).unwrap();
        assert!(same(p, &back), "{what}: {link}");
    }
}

/// Every square puzzle of the shipped collections and of the conformance sets (diagonal,
/// killer, jigsaw): 250 puzzles and the shipped ones, a fraction of a second in all.
fn square_puzzles() -> Vec<(String, Puzzle)> {
    let mut out = Vec::new();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let mut files: Vec<_> = std::fs::read_dir(&shipped)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            !n.starts_with("honeycomb") && (n.ends_with(".toml") || n.ends_with(".txt"))
        })
        .collect();
    files.sort();
    for f in files {
        let n = f.file_name().unwrap().to_string_lossy().to_string();
        let v = if n.starts_with("diagonal") {
            Variant::Diagonal
        } else {
            Variant::Standard
        };
        for (i, p) in load_file(&f, v).unwrap().into_iter().enumerate() {
            out.push((format!("{n} #{}", i + 1), p));
        }
    }
    if let Some(d) = common::conformance("diagonal/diagonal.txt") {
        for (i, p) in load_file(&d, Variant::Diagonal)
            .unwrap()
            .into_iter()
            .enumerate()
        {
            out.push((format!("diagonal.txt #{}", i + 1), p));
        }
    }
    for set in ["killer", "jigsaw"] {
        if let Some(dir) = common::conformance(set) {
            for (i, p) in load_file(&dir, Variant::Standard)
                .unwrap()
                .into_iter()
                .enumerate()
            {
                out.push((format!("{set} #{}", i + 1), p));
            }
        }
    }
    out
}

#[test]
fn every_square_variant_round_trips_through_fpuzzles_and_its_links() {
    let puzzles = square_puzzles();
    for v in [
        Variant::Diagonal,
        Variant::Killer,
        Variant::Jigsaw,
        Variant::Standard,
    ] {
        assert!(
            puzzles.iter().any(|(_, p)| p.variant() == v),
            "no {v} puzzle"
        );
    }
    for (what, p) in &puzzles {
        assert_fpuzzles_round_trip(p, what);
    }
}

#[test]
fn conformance_solutions_still_solve_the_decoded_puzzles() {
    // The decoded killer and jigsaw puzzles keep their known solutions: cages and regions
    // came back cell for cell.
    for set in ["killer", "jigsaw"] {
        let Some(dir) = common::conformance(set) else {
            return;
        };
        for line in common::lines(&dir.join("solutions.txt")) {
            let (file, solution) = line.split_once(' ').unwrap();
            let p = load_file(&dir.join(file), Variant::Standard)
                .unwrap()
                .remove(0);
            let link = share_links(&p).unwrap()[1].clone();
            let back = parse_link(&link, at()).unwrap();
            let values: Vec<u8> = solution.bytes().map(|b| b - b'0').collect();
            back.check_solution(&values)
                .unwrap_or_else(|e| panic!("{set}/{file}: {e}"));
        }
    }
}

#[test]
fn plain_grids_of_every_size_round_trip_through_the_grid_form() {
    for (what, p) in square_puzzles() {
        if p.layout.regions.is_some() || !p.layout.cages.is_empty() {
            assert!(write_grid(&p).is_err(), "{what}: a grid cannot hold it");
            continue;
        }
        let text = write_grid(&p).unwrap();
        let back = parse_grid(&text, p.variant(), "g", 1).unwrap();
        assert_eq!(back.givens, p.givens, "{what}\n{text}");
        assert_eq!(back.layout, p.layout, "{what}");
    }
}

#[test]
fn a_real_fpuzzles_killer_link_decodes_to_its_cages() {
    let p = parse_link(REAL_KILLER_LINK, at()).unwrap();
    assert_eq!(p.variant(), Variant::Killer);
    assert_eq!(p.given_count(), 0);
    let g = p.geometry();
    let cages: Vec<(u32, Vec<String>)> = p
        .layout
        .cages
        .iter()
        .map(|c| (c.sum, c.cells.iter().map(|&x| g.cell_name(x)).collect()))
        .collect();
    let expect = |sum: u32, cells: &str| -> (u32, Vec<String>) {
        (sum, cells.split(' ').map(String::from).collect())
    };
    assert_eq!(cages.len(), 17);
    assert_eq!(cages[0], expect(18, "r1c1 r1c2 r2c1 r2c2"));
    assert_eq!(cages[1], expect(24, "r1c3 r1c4 r1c5 r2c5"));
    assert_eq!(cages[6], expect(21, "r3c3 r3c4 r3c5 r4c3 r5c3"));
    assert_eq!(cages[16], expect(28, "r7c9 r8c9 r9c7 r9c8 r9c9"));
    let sum: u32 = cages.iter().map(|c| c.0).sum();
    assert_eq!(sum, 275);
    // One solution, as its source says.
    termdoku()
        .args(["solve", "--count", REAL_KILLER_LINK])
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn unplayed_constraints_and_foreign_links_are_named() {
    let e = parse_link(REAL_MIXED_LINK, at()).unwrap_err().to_string();
    assert!(e.contains("\"antiking\" (anti-king) is not played"), "{e}");
    let cases = [
        ("https://sudokupad.app/4xkq7vbt1c", "SudokuPad short id"),
        (
            "https://sudokupad.app/sclN4IgzglgXg",
            "SudokuPad's own format (scl)",
        ),
        ("https://f-puzzles.com/?load=AAAA", "does not decompress"),
        (
            "https://example.com/p?load=N4Ig",
            "neither an f-puzzles nor a SudokuPad link",
        ),
    ];
    for (link, message) in cases {
        termdoku()
            .args(["solve", link])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

/// The pattern puzzle in every form a user may hand over: (what, argument or file text,
/// file name or None for an argument).
fn forms() -> Vec<(&'static str, String, Option<&'static str>)> {
    let p = parse_line(pattern_puzzle().as_bytes(), Variant::Standard, "t", 1)
        .unwrap()
        .unwrap();
    let grid = write_grid(&p).unwrap();
    let json = to_fpuzzles(&p).unwrap().to_string();
    let [fp, pad] = share_links(&p).unwrap();
    vec![
        ("line string", pattern_puzzle(), None),
        (
            "line file",
            format!("{}\n", pattern_puzzle()),
            Some("p.txt"),
        ),
        ("grid string", grid.clone(), None),
        ("grid file", grid.clone(), Some("g.txt")),
        (
            "bare grid file",
            grid.replace(['|', '-', '+', ' '], ""),
            Some("g"),
        ),
        ("f-puzzles file", json.clone(), Some("p.json")),
        ("f-puzzles text", json, Some("p.dat")),
        ("f-puzzles link", fp.clone(), None),
        ("SudokuPad link", pad, None),
        ("link file", format!("{fp}\n"), Some("link.txt")),
    ]
}

#[test]
fn solve_rate_hint_and_play_take_the_same_string_file_grid_and_link() {
    let dir = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let rate = termdoku()
        .args(["rate", &pattern_puzzle()])
        .output()
        .unwrap();
    let hint = termdoku()
        .args(["hint", &pattern_puzzle()])
        .output()
        .unwrap();
    assert!(rate.status.success() && hint.status.success());
    for (what, text, file) in forms() {
        let arg = match file {
            Some(name) => {
                let path = dir.path().join(name);
                std::fs::write(&path, &text).unwrap();
                path.display().to_string()
            }
            None => text,
        };
        // Named in the captured output should an assertion below fail.
        eprintln!("form: {what}");
        // One answer line: a grid or JSON is one puzzle, however many lines it spans.
        termdoku()
            .args(["solve", &arg])
            .assert()
            .success()
            .stdout(format!("{}\n", pattern_grid()));
        termdoku()
            .args(["rate", &arg])
            .assert()
            .success()
            .stdout(String::from_utf8(rate.stdout.clone()).unwrap());
        termdoku()
            .args(["hint", &arg])
            .assert()
            .success()
            .stdout(String::from_utf8(hint.stdout.clone()).unwrap());
        // Without a terminal the player stops right after loading its puzzle.
        for play in [&["play"][..], &[][..]] {
            termdoku()
                .env("TERMDOKU_STATE_DIR", state.path())
                .env("TERMDOKU_CONFIG_DIR", state.path().join("config"))
                .args(play)
                .arg(&arg)
                .assert()
                .code(2)
                .stderr(predicate::str::contains("play needs a terminal"));
        }
    }
}

#[test]
fn a_grid_on_standard_input_is_one_puzzle() {
    let p = parse_line(pattern_puzzle().as_bytes(), Variant::Standard, "t", 1)
        .unwrap()
        .unwrap();
    termdoku()
        .args(["solve", "--count"])
        .write_stdin(write_grid(&p).unwrap())
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn a_grid_row_of_the_wrong_length_is_named_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.txt");
    let p = parse_line(pattern_puzzle().as_bytes(), Variant::Standard, "t", 1)
        .unwrap()
        .unwrap();
    let mut lines: Vec<String> = write_grid(&p).unwrap().lines().map(String::from).collect();
    lines[5].push_str(" 7");
    std::fs::write(&path, lines.join("\n")).unwrap();
    for cmd in ["solve", "rate", "hint"] {
        termdoku()
            .args([cmd, &path.display().to_string()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "g.txt:6:23: row 5 has 10 cells, expected 9",
            ));
    }
}

#[test]
fn an_unplayed_constraint_in_a_json_file_is_named_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.json");
    let grid = vec![vec![serde_json::json!({}); 4]; 4];
    let text = format!(
        "{{\n  \"size\": 4,\n  \"grid\": {},\n  \"arrow\": [{{\"cells\": [\"R1C1\"], \"lines\": [[\"R1C1\", \"R1C2\"]]}}]\n}}\n",
        serde_json::to_string(&grid).unwrap()
    );
    std::fs::write(&path, text).unwrap();
    termdoku()
        .args(["solve", &path.display().to_string()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "p.json:4:3: f-puzzles constraint \"arrow\" (arrows) is not played",
        ));
}

#[test]
fn export_writes_the_grid_and_fpuzzles_forms_of_every_square_variant() {
    let shipped = |name: &str| format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    termdoku()
        .args(["export", "--format", "grid", &pattern_puzzle()])
        .assert()
        .success()
        .stdout(predicate::str::contains("------+-------+------"));
    let sixteen = termdoku()
        .args([
            "export",
            "--format",
            "grid",
            &shipped("standard-16x16-easy.txt"),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(sixteen.stdout).unwrap();
    assert_eq!(text.lines().count(), 16 + 3, "{text}");
    for name in ["killer-easy.toml", "jigsaw-easy.toml", "diagonal-easy.txt"] {
        let variant = name.split('-').next().unwrap();
        let out = termdoku()
            .args([
                "export",
                "--format",
                "fpuzzles",
                "--link",
                "--variant",
                variant,
            ])
            .arg(shipped(name))
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
        let links = String::from_utf8(out.stdout).unwrap();
        let links: Vec<&str> = links.lines().collect();
        assert!(
            links[0].starts_with("https://f-puzzles.com/?load=N4Ig"),
            "{name}"
        );
        assert!(
            links[1].starts_with("https://sudokupad.app/fpuzzlesN4Ig"),
            "{name}"
        );
        // The link reads back to the puzzle the file holds.
        let direct = termdoku()
            .args(["solve", "--variant", variant])
            .arg(shipped(name))
            .output()
            .unwrap();
        let first = String::from_utf8(direct.stdout).unwrap();
        termdoku()
            .args(["solve", links[1]])
            .assert()
            .success()
            .stdout(format!("{}\n", first.lines().next().unwrap()));
    }
    termdoku()
        .args(["export", "--format", "grid", &shipped("killer-easy.toml")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("killer cages do not fit"));
    termdoku()
        .args(["export", "--format", "fpuzzles", "--variant", "honeycomb"])
        .arg(shipped("honeycomb-easy.txt"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("f-puzzles has no honeycomb grid"));
}

/// Cases per property: 300, or `TERMDOKU_PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("TERMDOKU_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// Text made of what grids and JSON are made of, so that readers get far.
fn grid_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just(".".to_string()),
            Just("|".to_string()),
            Just(" ".to_string()),
            Just("\n".to_string()),
            Just("-+-".to_string()),
            "[0-9A-Ga-g_#]",
            Just("16".to_string()),
        ],
        0..200,
    )
    .prop_map(|v| v.concat())
}

fn json_like() -> impl Strategy<Value = String> {
    let grid = proptest::collection::vec(
        proptest::collection::vec(
            prop_oneof![
                Just("{}".to_string()),
                (0u64..20).prop_map(|v| format!("{{\"value\":{v},\"given\":true}}")),
                (0u64..20).prop_map(|r| format!("{{\"region\":{r}}}")),
                Just("null".to_string()),
            ],
            0..17,
        )
        .prop_map(|row| format!("[{}]", row.join(","))),
        0..17,
    )
    .prop_map(|rows| format!("[{}]", rows.join(",")));
    let cage = (
        proptest::collection::vec(("[rR]", 0u8..20, "[cC]", 0u8..20), 0..6),
        0u64..60,
    )
        .prop_map(|(cells, v)| {
            let cells: Vec<String> = cells
                .into_iter()
                .map(|(r, a, c, b)| format!("\"{r}{a}{c}{b}\""))
                .collect();
            format!("{{\"cells\":[{}],\"value\":\"{v}\"}}", cells.join(","))
        });
    (
        prop_oneof![Just(4u64), Just(6), Just(9), Just(16), 0u64..40],
        grid,
        proptest::collection::vec(cage, 0..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(size, grid, cages, p, m)| {
            format!(
                "{{\"size\":{size},\"grid\":{grid},\"killercage\":[{}],\"diagonal+\":{p},\"diagonal-\":{m}}}",
                cages.join(",")
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_grid_reader_never_panics(text in grid_like(), bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        for v in [Variant::Standard, Variant::Diagonal, Variant::Honeycomb, Variant::Killer] {
            let _ = parse_grid(&text, v, "fuzz", 1);
            let _ = parse_grid(&String::from_utf8_lossy(&bytes), v, "fuzz", 1);
        }
    }

    #[test]
    fn the_fpuzzles_reader_never_panics(text in json_like(), cut in any::<usize>()) {
        if let Ok(p) = parse_fpuzzles(&text, "fuzz") {
            // Whatever it accepts writes back to the same puzzle.
            let back = parse_fpuzzles(&to_fpuzzles(&p).unwrap().to_string(), "t").unwrap();
            prop_assert!(same(&p, &back));
        }
        let cut = cut % (text.len() + 1);
        let _ = parse_fpuzzles(text.get(..cut).unwrap_or(""), "fuzz");
    }

    #[test]
    fn the_link_reader_never_panics(text in json_like(), noise in "[A-Za-z0-9+/=%]{0,200}", cut in any::<usize>()) {
        let payload = lz_str::compress_to_base64(&text);
        let cut = cut % (payload.len() + 1);
        for link in [
            format!("https://f-puzzles.com/?load={payload}"),
            format!("https://sudokupad.app/fpuzzles{}", &payload[..cut]),
            format!("https://f-puzzles.com/?load={noise}"),
            format!("sudokupad.app/{noise}"),
            format!("N4Ig{noise}"),
        ] {
            let _ = parse_link(&link, at());
        }
    }
}

#[test]
fn the_loader_reads_a_line_file_without_mistaking_it_for_a_grid() {
    // A line file whose first line is 4x4 (16 characters, as a 16x16 grid row is).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.txt");
    std::fs::write(&path, "1.3..4.1.1.4.2..\n1.3..4.1.1.4.2..\n").unwrap();
    let list = load_file(&path, Variant::Standard).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(write_line(&list[0]), "1.3..4.1.1.4.2..");
}

#[test]
fn a_diagonal_exported_as_a_grid_reads_back_as_a_diagonal() {
    let shipped = format!("{}/puzzles/diagonal-hard.txt", env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("d.txt");
    termdoku()
        .args([
            "export",
            "--format",
            "grid",
            "--variant",
            "diagonal",
            &shipped,
            "-o",
        ])
        .arg(&grid)
        .assert()
        .success();
    let text = std::fs::read_to_string(&grid).unwrap();
    assert!(text.starts_with("# diagonal"), "{text}");
    let direct = termdoku()
        .args(["solve", "--variant", "diagonal", &shipped])
        .output()
        .unwrap();
    let first = String::from_utf8(direct.stdout).unwrap();
    // No --variant: the grid's note carries the diagonal rule.
    termdoku()
        .arg("solve")
        .arg(&grid)
        .assert()
        .success()
        .stdout(format!("{}\n", first.lines().next().unwrap()));
}
