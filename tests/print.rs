//! `export --format svg|pdf` checked with real renderers: `rsvg-convert` (librsvg2-bin)
//! reads every SVG, `pdfinfo`/`pdftoppm`/`pdftotext` (poppler-utils) every PDF. Pages are
//! rasterised to gray PGM at a low resolution and the grid's area must hold ink. Each test
//! skips with a notice when its tools are missing (`.ci/run` installs them).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn bin() -> Command {
    match std::env::var_os("TERMDOKU_BIN") {
        Some(b) => Command::new(b),
        None => Command::new(env!("CARGO_BIN_EXE_termdoku")),
    }
}

fn has(tool: &str) -> bool {
    let ok = std::process::Command::new(tool).arg("-v").output().is_ok();
    if !ok {
        eprintln!("skipped: {tool} is not installed (librsvg2-bin, poppler-utils)");
    }
    ok
}

fn shipped(name: &str) -> String {
    format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// One puzzle of every variant and size: the arguments after `export --format F`.
fn variants() -> Vec<(&'static str, Vec<String>)> {
    let one = |file: &str, extra: &[&str]| {
        let mut v = vec![shipped(file), "--index".into(), "2".into()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    vec![
        ("4x4", one("standard-4x4-easy.txt", &[])),
        ("6x6", one("standard-6x6-hard.txt", &[])),
        ("9x9", one("standard-hard.txt", &[])),
        ("16x16", one("standard-16x16-hard.txt", &[])),
        (
            "diagonal",
            one("diagonal-hard.txt", &["--variant", "diagonal"]),
        ),
        ("killer", one("killer-hard.toml", &[])),
        ("jigsaw", one("jigsaw-hard.toml", &["--tint"])),
        (
            "honeycomb",
            one("honeycomb-hard.txt", &["--variant", "honeycomb"]),
        ),
    ]
}

/// A gray image: width, height, one byte a pixel (0 black, 255 white).
struct Gray {
    w: usize,
    h: usize,
    px: Vec<u8>,
}

impl Gray {
    /// Reads a binary PGM (P5, maxval 255) as pdftoppm -gray writes it.
    fn read(path: &Path) -> Gray {
        let bytes = std::fs::read(path).unwrap();
        let mut fields = Vec::new();
        let mut i = 0;
        while fields.len() < 4 {
            while bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            let start = i;
            while !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
        }
        assert_eq!(fields[0], "P5");
        let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let px = bytes[i + 1..].to_vec();
        assert_eq!(px.len(), w * h);
        Gray { w, h, px }
    }

    /// Share of dark pixels in a box given in fractions of the page.
    fn ink(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> f32 {
        let (xa, xb) = ((x0 * self.w as f32) as usize, (x1 * self.w as f32) as usize);
        let (ya, yb) = ((y0 * self.h as f32) as usize, (y1 * self.h as f32) as usize);
        let mut dark = 0;
        for y in ya..yb {
            for x in xa..xb {
                if self.px[y * self.w + x] < 128 {
                    dark += 1;
                }
            }
        }
        dark as f32 / ((xb - xa) * (yb - ya)).max(1) as f32
    }
}

/// Runs an external tool to success and returns what it printed.
fn tool(cmd: &mut std::process::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Rasterises page `page` of a PDF at 30 dpi.
fn raster(pdf: &Path, page: usize) -> Gray {
    let prefix = pdf.with_extension(format!("p{page}"));
    tool(
        std::process::Command::new("pdftoppm")
            .args([
                "-gray",
                "-r",
                "30",
                "-singlefile",
                "-f",
                &page.to_string(),
                "-l",
            ])
            .arg(page.to_string())
            .arg(pdf)
            .arg(&prefix),
    );
    Gray::read(&prefix.with_extension(format!("p{page}.pgm")))
}

fn pdfinfo(pdf: &Path) -> String {
    tool(std::process::Command::new("pdfinfo").arg(pdf))
}

fn pages(pdf: &Path) -> usize {
    let info = pdfinfo(pdf);
    let line = info.lines().find(|l| l.starts_with("Pages:")).unwrap();
    line["Pages:".len()..].trim().parse().unwrap()
}

/// The page of one puzzle has ink where the grid is and none in the bottom margin.
fn check_page(img: &Gray, what: &str) {
    let grid = img.ink(0.1, 0.16, 0.9, 0.72);
    assert!(grid > 0.02, "{what}: the grid's area is blank ({grid})");
    let margin = img.ink(0.0, 0.93, 1.0, 1.0);
    assert_eq!(margin, 0.0, "{what}: ink in the bottom margin");
}

fn run(args: &[String]) -> assert_cmd::assert::Assert {
    bin().args(args).assert()
}

/// `export --format FORMAT ARGS -o DIR/NAME.FORMAT`, which must succeed; the file written.
fn export(dir: &Path, format: &str, name: &str, args: Vec<String>) -> std::path::PathBuf {
    let out = dir.join(format!("{name}.{format}"));
    let mut a = vec!["export".into(), "--format".into(), format.to_string()];
    a.extend(args);
    a.extend(["-o".to_string(), out.display().to_string()]);
    run(&a).success();
    out
}

#[test]
fn every_variant_as_svg_renders_with_librsvg() {
    if !has("rsvg-convert") || !has("pdftoppm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in variants() {
        let svg = export(dir.path(), "svg", name, args);
        // librsvg refuses malformed XML; its PDF rendering is then rasterised by poppler.
        let pdf = dir.path().join(format!("{name}-svg.pdf"));
        tool(
            std::process::Command::new("rsvg-convert")
                .args(["-f", "pdf", "-o"])
                .arg(&pdf)
                .arg(&svg),
        );
        check_page(&raster(&pdf, 1), name);
    }
}

#[test]
fn every_variant_as_pdf_is_one_page_with_the_grid_inked() {
    if !has("pdfinfo") || !has("pdftoppm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in variants() {
        let pdf = export(dir.path(), "pdf", name, args);
        let info = pdfinfo(&pdf);
        assert!(info.contains("Pages:           1"), "{name}: {info}");
        assert!(info.contains("(A4)"), "{name}: {info}");
        check_page(&raster(&pdf, 1), name);
    }
    let letter = dir.path().join("letter.pdf");
    run(&[
        "export".into(),
        "--format".into(),
        "pdf".into(),
        "--paper".into(),
        "letter".into(),
        shipped("standard-easy.txt"),
        "--index".into(),
        "1".into(),
        "-o".into(),
        letter.display().to_string(),
    ])
    .success();
    assert!(pdfinfo(&letter).contains("612 x 792 pts (letter)"));
}

#[test]
fn booklets_have_the_right_page_count_with_and_without_solutions() {
    if !has("pdfinfo") || !has("pdftoppm") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // 13 puzzles: 13, 7, 4 and 3 pages of puzzles; solutions take one page (20 a page).
    let lines: Vec<String> = std::fs::read_to_string(shipped("standard-easy.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(13)
        .map(String::from)
        .collect();
    let file = dir.path().join("thirteen.txt");
    std::fs::write(&file, lines.join("\n")).unwrap();
    for (per_page, want) in [(1, 13), (2, 7), (4, 4), (6, 3)] {
        for solutions in [false, true] {
            let pdf = dir.path().join(format!("b{per_page}{solutions}.pdf"));
            let mut a: Vec<String> = ["export", "--format", "pdf", "--per-page"]
                .map(String::from)
                .to_vec();
            a.push(per_page.to_string());
            a.push(file.display().to_string());
            a.extend(["-o".to_string(), pdf.display().to_string()]);
            if solutions {
                a.push("--solutions".into());
            }
            run(&a).success();
            let want = want + usize::from(solutions);
            assert_eq!(
                pages(&pdf),
                want,
                "{per_page} a page, solutions {solutions}"
            );
            if solutions {
                // The closing page holds 13 small solved grids: far more ink than a page
                // of one empty-ish puzzle.
                let img = raster(&pdf, want);
                assert!(img.ink(0.05, 0.05, 0.95, 0.95) > 0.03);
            }
        }
    }
    // A shipped collection of [[puzzle]] tables: 30 killers, 6 a page, 20 solutions a page.
    let pdf = dir.path().join("killers.pdf");
    run(&[
        "export".into(),
        "--format".into(),
        "pdf".into(),
        shipped("killer-easy.toml"),
        "--per-page".into(),
        "6".into(),
        "--solutions".into(),
        "-o".into(),
        pdf.display().to_string(),
    ])
    .success();
    assert_eq!(pages(&pdf), 5 + 2);
    let img = raster(&pdf, 1);
    assert!(img.ink(0.1, 0.1, 0.9, 0.9) > 0.02);
}

#[test]
fn a_title_outside_the_font_is_transliterated_in_the_pdf() {
    if !has("pdftotext") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("t.pdf");
    run(&[
        "export".into(),
        "--format".into(),
        "pdf".into(),
        "--title".into(),
        "Sudoku 東京 Café".into(),
        shipped("standard-easy.txt"),
        "--index".into(),
        "3".into(),
        "-o".into(),
        pdf.display().to_string(),
    ])
    .success();
    let text = tool(std::process::Command::new("pdftotext").arg(&pdf).arg("-"));
    assert!(text.contains("Sudoku Dong Jing Café"), "{text}");
    // The level from the file's `# easy` comment.
    assert!(text.contains("standard 9x9 - easy"), "{text}");
}

#[test]
fn an_svg_of_many_puzzles_needs_an_index_or_a_folder() {
    let file = shipped("standard-6x6-easy.txt");
    bin()
        .args(["export", "--format", "svg", &file])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--index N").and(predicates::str::contains("-o DIR")));
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("svgs");
    bin()
        .args(["export", "--format", "svg", &file, "-o"])
        .arg(&out)
        .assert()
        .success();
    let n = std::fs::read_dir(&out).unwrap().count();
    let want = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    assert_eq!(n, want);
    bin()
        .args(["export", "--format", "svg", "--per-page", "2", &file])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("use --format pdf"));
}

use predicates::prelude::PredicateBooleanExt;

#[test]
fn a_position_with_pencil_marks_prints_its_marks_and_entries() {
    // r1c1 placed as 5; r1c2 with marks 1 2 3; the rest empty with no marks.
    let puzzle = ".".repeat(81);
    let mut cells = vec!["5".to_string(), "123".to_string()];
    cells.extend(std::iter::repeat_n("1234".to_string(), 79));
    let marks = cells.join(" ");
    let out = bin()
        .args(["export", "--format", "svg", &puzzle, "--marks", &marks])
        .assert()
        .success();
    let svg = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let texts = svg.matches("<text").count();
    // Title, subtitle, the entry, three marks and 79 x 4 marks.
    assert_eq!(texts, 2 + 1 + 3 + 79 * 4, "{}", &svg[..500.min(svg.len())]);
    // The entry is drawn apart from givens: not bold, coloured.
    assert!(svg.contains("fill=\"#1e4696\">5</text>"));
}

/// `export ... -o FILE` under a file-size limit of one block, so the write fails partway as
/// on a full disk; `None` when there is no `sh` to set the limit.
#[cfg(unix)]
fn export_with_size_limit(args: &[&str], out: &Path) -> Option<std::process::Output> {
    let bin = std::env::var_os("TERMDOKU_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_termdoku")));
    // Ignored SIGXFSZ makes the oversized write fail with EFBIG instead of killing.
    std::process::Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$@\"")
        .arg("sh")
        .arg(bin)
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .ok()
}

#[cfg(unix)]
#[test]
fn a_failed_write_leaves_the_old_file_whole_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let easy = shipped("standard-easy.txt");
    for (format, name) in [("svg", "page.svg"), ("pdf", "page.pdf"), ("lp", "p.lp")] {
        let out = dir.path().join(name);
        std::fs::write(&out, "a good file\n").unwrap();
        let args = ["export", "--format", format, &easy, "--index", "1"];
        let Some(run) = export_with_size_limit(&args, &out) else {
            eprintln!("skipped: no sh");
            return;
        };
        assert_eq!(run.status.code(), Some(2), "{format}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(name), "{format}: {err}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "a good file\n");
    }
    // Nothing is left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[cfg(unix)]
#[test]
fn writing_through_a_link_replaces_its_target_and_keeps_the_link_and_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.svg");
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.svg");
    std::os::unix::fs::symlink("real.svg", &link).unwrap();
    run(&[
        "export".into(),
        "--format".into(),
        "svg".into(),
        shipped("standard-easy.txt"),
        "--index".into(),
        "1".into(),
        "-o".into(),
        link.display().to_string(),
    ])
    .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("<?xml"));
    let mode = std::fs::metadata(&target).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
}

#[test]
fn an_svg_folder_that_is_a_file_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "x").unwrap();
    bin()
        .args([
            "export",
            "--format",
            "svg",
            &shipped("standard-6x6-easy.txt"),
        ])
        .arg("-o")
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("taken: not a folder"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn a_position_prints_placed_entries_beside_the_givens() {
    // standard-hard No. 2 opens `..9.7.5..`: place 6 and 3 in r1c1 and r1c2.
    let puzzle = std::fs::read_to_string(shipped("standard-hard.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .nth(1)
        .unwrap()[..81]
        .to_string();
    let givens = puzzle.bytes().filter(|b| b.is_ascii_digit()).count();
    let placed = format!("63{}", ".".repeat(79));
    let out = bin()
        .args(["export", "--format", "svg", &puzzle, "--placed", &placed])
        .assert()
        .success();
    let svg = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    // Title, subtitle, the givens and the two entries; no marks without --marks.
    assert_eq!(svg.matches("<text").count(), 2 + givens + 2);
    assert_eq!(svg.matches("fill=\"#1e4696\"").count(), 2, "{svg}");
    assert!(svg.contains("fill=\"#1e4696\">6</text>"));
    // With marks too: the candidates left by the givens and the entries.
    let mut grid: Vec<u8> = puzzle.bytes().map(|b| b.saturating_sub(b'0')).collect();
    grid[0] = 6;
    grid[1] = 3;
    let marks: Vec<String> = (0..81)
        .map(|c| {
            if grid[c] != 0 {
                return grid[c].to_string();
            }
            let seen = |o: usize| {
                o / 9 == c / 9 || o % 9 == c % 9 || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3)
            };
            (1..=9u8)
                .filter(|&d| !(0..81).any(|o| seen(o) && grid[o] == d))
                .map(|d| d.to_string())
                .collect()
        })
        .collect();
    let out = bin()
        .args(["export", "--format", "svg", &puzzle, "--placed", &placed])
        .args(["--marks", &marks.join(" ")])
        .assert()
        .success();
    let svg = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let marked: usize = marks
        .iter()
        .enumerate()
        .filter(|(c, _)| grid[*c] == 0)
        .map(|(_, m)| m.len())
        .sum();
    assert_eq!(svg.matches("<text").count(), 2 + givens + 2 + marked);
    assert_eq!(svg.matches("fill=\"#1e4696\"").count(), 2);
    // An entry that breaks a rule is refused by name.
    // A marks file that is not there is named as missing, not read as a grid.
    bin()
        .args([
            "export",
            "--format",
            "svg",
            &puzzle,
            "--marks",
            "gone/marks.txt",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("gone/marks.txt: No such file"));
    let clash = format!("9{}", ".".repeat(80));
    bin()
        .args(["export", "--format", "svg", &puzzle, "--placed", &clash])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("breaks a rule"));
}

#[test]
fn text_exports_take_index_and_output_like_the_printed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let killers = shipped("killer-hard.toml");
    let solutions = bin().args(["solve", &killers]).output().unwrap();
    let second = String::from_utf8_lossy(&solutions.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    let json = dir.path().join("second.json");
    bin()
        .args([
            "export", "--format", "fpuzzles", &killers, "--index", "2", "-o",
        ])
        .arg(&json)
        .assert()
        .success()
        .stdout("");
    bin()
        .arg("solve")
        .arg(&json)
        .assert()
        .success()
        .stdout(format!("{second}\n"));
    let lp = dir.path().join("second.lp");
    bin()
        .args(["export", "--format", "lp", &killers, "--index", "2", "-o"])
        .arg(&lp)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&lp).unwrap().ends_with("End\n"));
    bin()
        .args(["export", "--format", "grid", &killers, "--index", "31"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "holds 30 puzzle(s): no puzzle 31",
        ));
    // --title names the f-puzzles puzzle too, but the grid form has no room for it.
    bin()
        .args([
            "export",
            "--format",
            "fpuzzles",
            &killers,
            "--title",
            "Cages & sums",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("\"title\":\"Cages & sums\""));
    bin()
        .args(["export", "--format", "grid", &killers, "--title", "t"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--title goes with"));
    // What only a printed page uses is refused, not dropped.
    for (format, option) in [
        ("fpuzzles", "--tint"),
        ("grid", "--rate"),
        ("lp", "--solutions"),
    ] {
        bin()
            .args(["export", "--format", format, &killers, option])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "{option} goes with --format svg or pdf"
            )));
    }
    // A share link is asked of f-puzzles alone; other formats say so.
    for format in ["grid", "svg", "lp"] {
        bin()
            .args(["export", "--format", format, &killers, "--link"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "--link goes with --format fpuzzles",
            ));
    }
    bin()
        .args(["export", "--format", "fpuzzles", &killers, "--link"])
        .assert()
        .success()
        .stdout(predicates::str::contains("f-puzzles.com"));
}

/// The names of the files in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_smaller_set_exported_into_a_folder_replaces_the_earlier_pages_and_keeps_the_rest() {
    let lines: Vec<String> = std::fs::read_to_string(shipped("standard-6x6-easy.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(3)
        .map(str::to_string)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let export = |count: usize| {
        let file = dir.path().join(format!("set{count}.txt"));
        std::fs::write(&file, lines[..count].join("\n")).unwrap();
        bin()
            .args(["export", "--format", "svg"])
            .arg(&file)
            .arg("-o")
            .arg(dir.path().join("out"))
            .assert()
            .success()
    };
    export(3);
    let out = dir.path().join("out");
    // The user's own files: notes, and a page of theirs named like ours.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::write(out.join("puzzle-9.svg"), "<svg>my own</svg>").unwrap();
    let done = export(2);
    let stderr = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
    assert!(stderr.contains("removed 1 page"), "{stderr}");
    assert_eq!(
        names_in(&out),
        [
            "notes.txt",
            "puzzle-001.svg",
            "puzzle-002.svg",
            "puzzle-9.svg"
        ]
    );
    assert!(std::fs::read_to_string(out.join("puzzle-002.svg"))
        .unwrap()
        .contains("set2 No. 2"));
}

#[test]
fn a_puzzle_whose_givens_clash_is_printed_with_a_warning() {
    let clash = format!("55{}", ".".repeat(79));
    bin()
        .args(["export", "--format", "svg", &clash])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("<?xml"))
        .stderr(predicates::str::contains(
            "warning: <arg>: invalid: r1c1 and r1c2 both hold 5",
        ));
    let good = format!("5{}", ".".repeat(80));
    bin()
        .args(["export", "--format", "svg", &good])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn one_page_exported_into_an_existing_folder_is_named_after_its_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("prints");
    std::fs::create_dir(&out).unwrap();
    let into = |args: &[&str]| {
        let done = bin()
            .arg("export")
            .args(args)
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        String::from_utf8_lossy(&done.get_output().stderr).into_owned()
    };
    // One puzzle of a file of several: the file's name and the number chosen, said.
    let said = into(&[
        "--format",
        "svg",
        &shipped("standard-hard.txt"),
        "--index",
        "2",
    ]);
    let page = out.join("standard-hard-2.svg");
    assert!(said.contains(&page.display().to_string()), "{said}");
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .contains("standard-hard No. 2"));
    // A booklet takes the file's name; a puzzle typed on the command line is `puzzle`.
    into(&[
        "--format",
        "pdf",
        "--per-page",
        "4",
        &shipped("standard-6x6-easy.txt"),
    ]);
    assert!(std::fs::read(out.join("standard-6x6-easy.pdf"))
        .unwrap()
        .starts_with(b"%PDF"));
    let line = std::fs::read_to_string(shipped("standard-4x4-easy.txt"))
        .unwrap()
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
        .to_string();
    into(&["--format", "pdf", &line]);
    assert_eq!(
        names_in(&out),
        ["puzzle.pdf", "standard-6x6-easy.pdf", "standard-hard-2.svg"]
    );
    // Text exports too, and never over the puzzle file itself.
    let own = out.join("mine.json");
    let json = bin()
        .args(["export", "--format", "fpuzzles", &line])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    std::fs::write(&own, &json).unwrap();
    into(&["--format", "fpuzzles", own.to_str().unwrap()]);
    into(&["--format", "lp", own.to_str().unwrap()]);
    assert_eq!(std::fs::read(&own).unwrap(), json, "the input is intact");
    assert_eq!(std::fs::read(out.join("mine-export.json")).unwrap(), json);
    assert!(std::fs::read_to_string(out.join("mine.lp"))
        .unwrap()
        .contains("Subject To"));
}
