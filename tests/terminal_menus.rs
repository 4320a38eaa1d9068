//! The mouse, the collections and the menus with the real binary in tmux. Each test prints
//! a notice and passes when tmux is not installed; `.ci/run` installs it.

mod common;

use common::tmux::{bin, have_tmux, panel_text, Tmux};
use ratatui::layout::Rect;
use termdoku::game::builtin;
use termdoku::puzzle::Variant;
use termdoku::tui::app::App;
use termdoku::tui::view;

/// Starts the player in `dir` (for relative puzzle paths) with fresh state and config.
fn start(t: &Tmux, tmp: &std::path::Path, args: &str) {
    let cmd = format!(
        "cd {root} && exec env LANG=C.UTF-8 TERMDOKU_STATE_DIR={tmp}/s TERMDOKU_CONFIG_DIR={tmp}/c {bin} {args}",
        root = env!("CARGO_MANIFEST_DIR"),
        tmp = tmp.display(),
        bin = bin()
    );
    t.start(&cmd);
}

/// A left click at a screen column and row (0-based), as an SGR mouse report: press, then
/// release.
fn click(t: &Tmux, x: u16, y: u16) {
    let (cx, cy) = (x + 1, y + 1);
    t.send(&["-l", &format!("\x1b[<0;{cx};{cy}M\x1b[<0;{cx};{cy}m")]);
}

#[test]
fn tmux_mouse_click_selects_a_cell_and_toggles_a_candidate() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the mouse test");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = Tmux::new();
    start(&t, tmp.path(), "");
    t.wait_for("the first frame", |s| s.contains("mistakes 0"));

    // The player starts on the built-in standard puzzle; the plan says where things are.
    let app = App::with_puzzle(builtin::puzzle(Variant::Standard));
    let plan = view::plan(&app, Rect::new(0, 0, 100, 40)).expect("100x40 fits");
    let g = app.game.geometry();
    let cell = g.parse_cell("r5c5").unwrap();
    assert_eq!(
        app.game.value(cell),
        0,
        "r5c5 is empty in the built-in puzzle"
    );
    let r = plan.cell_rect(g, cell);
    click(&t, r.x + 1, r.y + 1);
    t.wait_for("r5c5 selected", |s| {
        panel_text(s).contains("Cell r5c5: empty")
    });

    let (dx, dy) = plan
        .candidate_pos(7)
        .expect("marks drawn in cells at 100x40");
    click(&t, r.x + dx, r.y + dy);
    let screen = t.wait_for("mark 7 in r5c5", |s| {
        panel_text(s).contains("Cell r5c5: marks 7")
    });
    let row: Vec<char> = screen
        .lines()
        .nth(usize::from(r.y + dy))
        .unwrap()
        .chars()
        .collect();
    assert_eq!(row[usize::from(r.x + dx)], '7', "{screen}");
    // Clicked again, the mark goes.
    click(&t, r.x + dx, r.y + dy);
    t.wait_for("r5c5 empty again", |s| {
        panel_text(s).contains("Cell r5c5: empty")
    });
}

#[test]
fn tmux_opens_puzzle_3_of_a_collection_and_a_16x16_game_from_the_menu() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the collection test");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = Tmux::new();
    start(&t, tmp.path(), "puzzles/killer-easy.toml --index 3");
    t.wait_text("Puzzle 3 of puzzles/killer-easy.toml");
    // The picker (n, then the file's puzzles) marks the one being played.
    t.send(&["n"]);
    t.wait_text("puzzles of killer-easy.toml");
    t.send(&["p", "Enter"]);
    t.wait_for("the picker", |s| {
        s.lines()
            .any(|l| l.contains("3  easy") && l.contains("(playing)"))
    });
    t.send(&["Escape"]);
    // A 16x16 game: standard, 16x16 (after 9x9), the first level.
    t.send(&["n", "Home", "Enter"]);
    t.wait_text("16x16");
    t.send(&["j", "Enter", "Enter"]);
    // The digit bar holds the 16x16 grid's digits (waited for too: under load a capture can
    // land between the status line's and the bar's redraw).
    t.wait_for("a 16x16 game with its digit bar", |s| {
        s.contains("New standard 16x16 game: puzzle") && s.contains("9 A B C D E F G x")
    });
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
fn tmux_a_resumed_collection_game_keeps_its_picker() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the resume test");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = Tmux::new();
    start(&t, tmp.path(), "puzzles/killer-easy.toml --index 3");
    t.wait_text("Puzzle 3 of puzzles/killer-easy.toml");
    t.send(&["q"]);
    t.wait_exit();
    // Started again without a file: the saved game comes back with its collection.
    let t = Tmux::new();
    start(&t, tmp.path(), "");
    t.wait_text("Welcome back");
    t.send(&["n"]);
    t.wait_text("puzzles of killer-easy.toml");
    t.send(&["p", "Enter"]);
    t.wait_for("the picker", |s| {
        s.lines()
            .any(|l| l.contains("3  easy") && l.contains("(playing)"))
    });
    t.send(&["Escape", "q"]);
    t.wait_exit();
}

#[test]
fn a_size_the_variant_does_not_come_in_is_refused_before_the_screen_switches() {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(bin())
        .args(["--variant", "killer", "--size", "16"])
        .env("TERMDOKU_STATE_DIR", tmp.path().join("s"))
        .env("TERMDOKU_CONFIG_DIR", tmp.path().join("c"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no killer 16x16 puzzles: killer comes in 9x9"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing drawn");
}

/// A position pasted with its pencil marks (`play --marks FILE --placed LINE PUZZLE`) opens
/// with exactly those marks, and the player's own hint there names the drill's technique.
#[test]
fn tmux_play_with_marks_opens_that_position_and_hints_its_drill() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the pencil-mark position test");
        return;
    }
    let bank = include_str!("../puzzles/drills.jsonl");
    // A standard drill (one-line puzzle) above the singles, whose r1c1 is empty.
    let drill = bank
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|d| {
            d["variant"] == "standard"
                && d["technique"] == "x-wing"
                && d["puzzle"].as_str().is_some_and(|p| p.starts_with('.'))
                && d["placed"].as_str().is_some_and(|p| p.starts_with('.'))
        })
        .expect("the bank holds an X-Wing drill with r1c1 empty");
    let tmp = tempfile::tempdir().unwrap();
    let marks = tmp.path().join("marks.txt");
    std::fs::write(&marks, drill["marks"].as_str().unwrap()).unwrap();
    let first_token = drill["marks"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let spaced: Vec<String> = first_token.chars().map(String::from).collect();
    let t = Tmux::new();
    start(
        &t,
        tmp.path(),
        &format!(
            "play --marks {} --placed {} {}",
            marks.display(),
            drill["placed"].as_str().unwrap(),
            drill["puzzle"].as_str().unwrap()
        ),
    );
    t.wait_text(&format!("Cell r1c1: marks {}", spaced.join(" ")));
    // Stage 2 of the hint ladder names the technique.
    t.send(&["H"]);
    t.send(&["H"]);
    t.wait_text("X-Wing");
    t.send(&["q"]);
    t.wait_exit();
}
