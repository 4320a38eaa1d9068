//! A tmux server of a test's own for driving the real binary in a real terminal, and the
//! few helpers every tmux test needs (the binary, temporary state and config folders).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The screen's text right of the grid (the side panel) and of the lines without a grid,
/// joined into one line: a message the panel wrapped reads whole again.
pub fn panel_text(screen: &str) -> String {
    let borders: &[char] = &['┃', '┨', '┫', '┓', '┛', '|', '#'];
    let parts: Vec<&str> = screen
        .lines()
        .map(|l| {
            l.rfind(borders).map_or(l, |i| {
                &l[i + l[i..].chars().next().map_or(1, char::len_utf8)..]
            })
        })
        .collect();
    // A row that ends in `/` ends a piece of a path the panel broke between folders.
    let mut text = String::new();
    for part in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        if !text.is_empty() && !text.ends_with('/') {
            text.push(' ');
        }
        text.push_str(part);
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The binary under test: `TERMDOKU_BIN` (to try a release build, the one people run), else
/// the one cargo built for this test run.
pub fn bin() -> String {
    std::env::var("TERMDOKU_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_termdoku").to_string())
}

pub fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A tmux server of our own (its own socket), killed on drop.
pub struct Tmux {
    socket: String,
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Tmux {
    pub fn new() -> Tmux {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        Tmux {
            socket: format!("termdoku-test-{}-{n}", std::process::id()),
        }
    }

    pub fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }

    /// Resizes the window to `w`x`h`, as a terminal emulator's window drag would.
    pub fn resize(&self, w: u16, h: u16) {
        let ok = self
            .tmux()
            .args(["resize-window", "-t", "main", "-x"])
            .arg(w.to_string())
            .arg("-y")
            .arg(h.to_string())
            .status()
            .unwrap();
        assert!(ok.success());
    }

    /// Starts `cmd` in a 100x40 window.
    pub fn start(&self, cmd: &str) {
        self.start_sized(cmd, 100, 40);
    }

    /// Starts `cmd` in a `w`x`h` window.
    ///
    /// A new server seldom fails to start under load (seen once in a clean CI run): it is
    /// tried three times, and the last failure's message is shown.
    pub fn start_sized(&self, cmd: &str, w: u16, h: u16) {
        let mut why = String::new();
        for _ in 0..3 {
            let out = self
                .tmux()
                .args(["new-session", "-d", "-s", "main", "-x"])
                .arg(w.to_string())
                .arg("-y")
                .arg(h.to_string())
                .arg(cmd)
                .output()
                .expect("tmux runs");
            if out.status.success() {
                return;
            }
            why = String::from_utf8_lossy(&out.stderr).into_owned();
            let _ = self.tmux().arg("kill-server").output();
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("tmux new-session failed: {why}");
    }

    pub fn send(&self, keys: &[&str]) {
        let ok = self
            .tmux()
            .args(["send-keys", "-t", "main"])
            .args(keys)
            .status()
            .expect("tmux runs");
        assert!(ok.success());
    }

    pub fn capture(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", "main"])
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn alive(&self) -> bool {
        self.tmux()
            .args(["has-session", "-t", "main"])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    pub fn pane_pid(&self) -> u32 {
        let out = self
            .tmux()
            .args(["display-message", "-p", "-t", "main", "#{pane_pid}"])
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("a pid")
    }

    /// Waits until the screen satisfies `ok`; panics with the screen after 15 s.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if ok(&screen) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(15) {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits for `text` anywhere on the screen, also where the side panel wrapped it over
    /// several rows.
    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text) || panel_text(s).contains(text))
    }

    pub fn wait_exit(&self) {
        let start = Instant::now();
        while self.alive() {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the player did not quit:\n{}",
                self.capture()
            );
            std::thread::sleep(Duration::from_millis(40));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
    }
}

/// The local player in a fresh 100x40 tmux pane with its own state and config folders,
/// once its first screen is up (`t` drops, killing tmux, before the folders go).
pub struct Player {
    pub t: Tmux,
    pub state: PathBuf,
    pub config: PathBuf,
    _tmp: tempfile::TempDir,
}

/// Starts the local player, or prints a notice naming `what` and gives None without tmux.
pub fn start_player(what: &str) -> Option<Player> {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the {what} test");
        return None;
    }
    let (tmp, state, config) = dirs();
    let t = Tmux::new();
    t.start(&local(&state, &config));
    t.wait_text("mistakes 0");
    Some(Player {
        t,
        state,
        config,
        _tmp: tmp,
    })
}

pub fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let config = tmp.path().join("config");
    (tmp, state, config)
}

/// The command that starts the player locally with a UTF-8 locale.
pub fn local(state: &Path, config: &Path) -> String {
    format!(
        "exec env LANG=C.UTF-8 TERMDOKU_STATE_DIR={} TERMDOKU_CONFIG_DIR={} {}",
        state.display(),
        config.display(),
        bin()
    )
}
