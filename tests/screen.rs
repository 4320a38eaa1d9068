//! The real binary in tmux at 80x24, the size people have over SSH: after `a`, every
//! candidate of every empty cell is on screen, where the layout plan says it is. Passes with
//! a notice when tmux is not installed.

use ratatui::layout::Rect;
use std::process::Command;
use std::time::{Duration, Instant};
use termdoku::game::builtin;
use termdoku::puzzle::{Grid, Variant};
use termdoku::tui::app::App;
use termdoku::tui::view;

/// `TERMDOKU_BIN` (CI points it at the release build), else the one cargo built.
fn bin() -> String {
    std::env::var("TERMDOKU_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_termdoku").to_string())
}

/// A tmux server on a socket of its own, killed on drop.
struct Tmux(String);

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.0]);
        c
    }

    fn capture(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "screen"])
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits (at most 15 s) until the screen satisfies `ok`.
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if ok(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(40));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
    }
}

#[test]
fn tmux_80x24_shows_every_candidate_after_a() {
    if !Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("notice: tmux not installed; the 80x24 screen test did not run");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = Tmux(format!("termdoku-screen-{}", std::process::id()));
    let start = format!(
        "exec env LANG=C.UTF-8 TERMDOKU_STATE_DIR={0}/s TERMDOKU_CONFIG_DIR={0}/c {1}",
        tmp.path().display(),
        bin()
    );
    let ok = t
        .cmd()
        .args(["new-session", "-d", "-s", "screen", "-x", "80", "-y", "24"])
        .arg(&start)
        .status()
        .expect("tmux runs");
    assert!(ok.success());
    t.wait_for("the first frame", |s| s.contains("mistakes 0"));
    let ok = t
        .cmd()
        .args(["send-keys", "-t", "screen", "a"])
        .status()
        .expect("tmux runs");
    assert!(ok.success());

    // The player starts on the built-in standard puzzle; the solver says what `a` fills in.
    let puzzle = builtin::puzzle(Variant::Standard);
    let grid = Grid::from_puzzle(&puzzle);
    let app = App::with_puzzle(puzzle);
    let plan = view::plan(&app, Rect::new(0, 0, 80, 24)).expect("80x24 fits");
    let g = app.game.geometry();
    let at = |screen: &str, x: u16, y: u16| {
        screen
            .lines()
            .nth(usize::from(y))
            .and_then(|l| l.chars().nth(usize::from(x)))
            .unwrap_or(' ')
    };
    let screen = t.wait_for("the candidates", |s| {
        let c = g.cells().find(|&c| grid.value(c) == 0).unwrap();
        let d = grid.candidates(c).first().unwrap();
        let r = plan.cell_rect(g, c);
        let (dx, dy) = plan.candidate_pos(d).unwrap();
        at(s, r.x + dx, r.y + dy) == termdoku::geometry::digit_char(d)
    });
    let mut checked = 0;
    for c in g.cells().filter(|&c| grid.value(c) == 0) {
        let r = plan.cell_rect(g, c);
        for d in 1..=g.max_digit() {
            let (dx, dy) = plan.candidate_pos(d).unwrap();
            let shown = at(&screen, r.x + dx, r.y + dy);
            if grid.candidates(c).contains(d) {
                assert_eq!(
                    shown,
                    termdoku::geometry::digit_char(d),
                    "{} misses {d}:\n{screen}",
                    g.cell_name(c)
                );
                checked += 1;
            } else {
                assert_eq!(shown, ' ', "{} shows {d}:\n{screen}", g.cell_name(c));
            }
        }
    }
    assert!(checked > 100, "{checked} candidates");
    let _ = t.cmd().args(["send-keys", "-t", "screen", "q"]).output();
}
