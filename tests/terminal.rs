//! The real binary in a real terminal: tmux (and ssh into 127.0.0.1 through tmux). Each
//! test prints a notice and passes when tmux (or sshd) is not available; `.ci/run`
//! installs both.

mod common;

use common::tmux::{bin, dirs, have_tmux, local, start_player, Tmux};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The grid part of the screen (left of the panel).
fn grid(screen: &str) -> String {
    screen
        .lines()
        .take(38)
        .map(|l| l.chars().take(75).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Move, place, pencil, the hint ladder, undo, quit; then start again and find the game.
fn play_short_game(t: &Tmux, start: &str, ascii: bool) {
    t.start(start);
    let screen = t.wait_text("mistakes 0");
    if ascii {
        assert!(
            screen.contains("#  [5]  |   3   |   .   #   .   |   7   |   .   #"),
            "ASCII grid:\n{screen}"
        );
        assert!(
            screen.is_ascii(),
            "non-ASCII output without UTF-8:\n{screen}"
        );
    } else {
        assert!(
            screen.contains("┃  [5]  │   3   │   ·   ┃   ·   │   7   │   ·   ┃"),
            "{screen}"
        );
    }
    t.send(&["l", "l"]);
    t.wait_text("Cell r1c3: empty");
    t.send(&["4"]);
    t.wait_text("Cell r1c3: entry 4");
    t.send(&["p", "j", "1", "2"]);
    t.wait_text("Cell r2c3: marks 1 2");
    t.send(&["p"]);
    t.wait_text("Mode DIGITS");
    t.send(&["H"]);
    // The full step (stage 3) draws the digit to place in its cell, so the board is
    // compared as it was before that.
    let before = grid(&t.wait_text("Hint 1/3"));
    t.send(&["H"]);
    t.wait_text("Hint 2/3");
    t.send(&["H"]);
    t.wait_text("Hint 3/3");
    t.send(&["H"]);
    let applied = grid(&t.wait_text("Applied:"));
    assert_ne!(before, applied, "the hint placed a digit");
    t.send(&["u"]);
    t.wait_for("undo of the hint", |s| grid(s) == before);
    t.send(&["q"]);
    t.wait_exit();

    t.start(start);
    let screen = t.wait_text("Welcome back");
    assert!(screen.contains("Cell r2c3: marks 1 2"), "{screen}");
    let row1 = if ascii {
        "#   5   |   3   |   4   #"
    } else {
        "┃   5   │   3   │   4   ┃"
    };
    assert!(screen.contains(row1), "{screen}");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
fn tmux_resize_shows_enlarge_then_recovers() {
    let Some(player) = start_player("resize") else {
        return;
    };
    let t = &player.t;
    t.resize(50, 12);
    t.wait_text("enlarge to 21x14");
    t.resize(100, 40);
    let screen = t.wait_text("mistakes 0");
    assert!(!screen.contains("enlarge"), "{screen}");
    assert!(screen.contains("┃  [5]  │   3   │   ·   ┃"), "{screen}");
    t.send(&["q"]);
    t.wait_exit();
}

/// On the help page no clock ticks and no key comes: the resize alone redraws the screen.
/// The key after a resize is not lost (crossterm's default event source could drop it
/// and spin until the next key), and a pane closed right after still ends the player.
#[test]
fn tmux_resize_redraws_a_page_without_a_key() {
    let Some(player) = start_player("resize") else {
        return;
    };
    let (t, state) = (&player.t, &player.state);
    t.send(&["?"]);
    t.wait_text("Keys (? or esc closes");
    t.resize(50, 12);
    t.wait_text("enlarge to");
    t.resize(100, 40);
    t.wait_text("Keys (? or esc closes");
    t.send(&["?"]);
    t.wait_text("mistakes 0");
    t.resize(90, 40);
    std::thread::sleep(Duration::from_millis(300));
    t.send(&["l"]);
    t.wait_text("Cell r1c2");
    let pid = lock_pid(state);
    let _ = t.tmux().args(["kill-session", "-t", "main"]).status();
    assert!(gone_within(pid, Duration::from_secs(2)), "still running");
}

#[test]
fn tmux_plays_quits_and_resumes() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the real-terminal test");
        return;
    }
    let (_tmp, state, config) = dirs();
    let t = Tmux::new();
    play_short_game(&t, &local(&state, &config), false);
    assert!(state.join("game.json").exists());
}

#[test]
fn kill_9_loses_at_most_the_last_keystroke() {
    let Some(player) = start_player("kill -9") else {
        return;
    };
    let (t, state, config) = (&player.t, &player.state, &player.config);
    // Each key's effect is on screen before the next is sent; the screen is drawn after
    // the save, so everything shown is on disk.
    for (key, shown) in [
        ("l", "Cell r1c2"),
        ("l", "Cell r1c3"),
        ("4", "Cell r1c3: entry 4"),
        ("j", "Cell r2c3"),
        ("2", "Cell r2c3: entry 2"),
    ] {
        t.send(&[key]);
        t.wait_text(shown);
    }
    // One more key, then kill -9 at once: it may or may not have been saved.
    t.send(&["j"]);
    let pid = t.pane_pid();
    let killed = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    t.wait_exit();

    t.start(&local(state, config));
    let screen = t.wait_text("Welcome back");
    assert!(screen.contains("┃   5   │   3   │   4   ┃"), "{screen}");
    assert!(
        screen.contains("┃   6   │   ·   │   2   ┃")
            || screen.contains("┃   6   │   ·   │  [2]  ┃"),
        "{screen}"
    );
    assert!(
        screen.contains("Cell r2c3") || screen.contains("Cell r3c3"),
        "cursor where it was, or one key further:\n{screen}"
    );
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
fn a_bad_config_is_reported_before_full_screen() {
    let (_tmp, state, config) = dirs();
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        "[display]\nborders = \"ascii\"\nfancy = 1\n",
    )
    .unwrap();
    let out = Command::new(bin())
        .env("TERMDOKU_STATE_DIR", &state)
        .env("TERMDOKU_CONFIG_DIR", &config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml:3:1:") && err.contains("fancy"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing drawn");
}

/// sshd for the test: from the environment (`.ci/run` starts it with `.ci/sshd.sh`), or
/// started here with the same script when sshd is installed.
struct Sshd {
    port: String,
    key: String,
    user: String,
    own_pid: Option<String>,
    own_dir: Option<String>,
}

impl Sshd {
    fn find() -> Option<Sshd> {
        if let (Ok(port), Ok(key), Ok(user)) = (
            std::env::var("TERMDOKU_SSH_PORT"),
            std::env::var("TERMDOKU_SSH_KEY"),
            std::env::var("TERMDOKU_SSH_USER"),
        ) {
            return Some(Sshd {
                port,
                key,
                user,
                own_pid: None,
                own_dir: None,
            });
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/sshd.sh");
        let out = Command::new("bash").arg(&script).output().ok()?;
        if !out.status.success() {
            return None;
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let var = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("export {name}=")))
                .map(str::to_string)
        };
        Some(Sshd {
            port: var("TERMDOKU_SSH_PORT")?,
            key: var("TERMDOKU_SSH_KEY")?,
            user: var("TERMDOKU_SSH_USER")?,
            own_pid: var("TERMDOKU_SSHD_PID"),
            own_dir: var("TERMDOKU_SSHD_DIR"),
        })
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        if let Some(pid) = &self.own_pid {
            let _ = Command::new("kill").arg(pid).status();
        }
        if let Some(dir) = &self.own_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn ssh_without_lang_plays_with_an_ascii_grid() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the ssh test");
        return;
    }
    let Some(sshd) = Sshd::find() else {
        println!("NOTICE: no sshd (set TERMDOKU_SSH_PORT/_KEY/_USER, or install openssh-server); skipping the ssh test");
        return;
    };
    // sshd may still be starting (or slow under load): wait until a plain login works, so
    // the session below does not die at once and take the tmux server with it.
    let ssh = |extra: &[&str]| {
        let mut c = Command::new("ssh");
        c.args(["-p", &sshd.port, "-i", &sshd.key])
            .args([
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
            ])
            .args([
                "-o",
                "LogLevel=ERROR",
                "-o",
                "BatchMode=yes",
                "-o",
                "ConnectTimeout=5",
            ])
            .arg(format!("{}@127.0.0.1", sshd.user))
            .args(extra);
        c
    };
    let start = Instant::now();
    loop {
        let out = ssh(&["true"]).output().expect("ssh runs");
        if out.status.success() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "ssh login to the test sshd keeps failing: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let (_tmp, state, config) = dirs();
    let remote = format!(
        "env -u LANG -u LC_ALL -u LC_CTYPE TERMDOKU_STATE_DIR={} TERMDOKU_CONFIG_DIR={} {}",
        state.display(),
        config.display(),
        bin()
    );
    let cmd = format!(
        "exec env -u LANG -u LC_ALL -u LC_CTYPE ssh -t -p {} -i {} -o StrictHostKeyChecking=no \
         -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes {}@127.0.0.1 '{remote}'",
        sshd.port, sshd.key, sshd.user
    );
    let t = Tmux::new();
    play_short_game(&t, &cmd, true);
}

fn saved_elapsed_ms(state: &Path) -> u64 {
    let text = std::fs::read_to_string(state.join("game.json")).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    v["elapsed_ms"].as_u64().unwrap_or(0)
}

/// SIGHUP (tmux closing the pane, as an ssh link dropping would) and SIGTERM save the game
/// on the way out: the clock, which no keystroke saved, reaches the file.
#[test]
fn sighup_and_sigterm_save_before_exit() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the signal test");
        return;
    }
    for signal in ["HUP", "TERM"] {
        let (_tmp, state, config) = dirs();
        let t = Tmux::new();
        t.start(&local(&state, &config));
        t.wait_text("mistakes 0");
        t.send(&["l"]);
        t.wait_text("Cell r1c2");
        assert!(saved_elapsed_ms(&state) < 2000);
        t.wait_text("Time 00:02");
        let pid = t.pane_pid();
        if signal == "HUP" {
            let _ = t.tmux().args(["kill-session", "-t", "main"]).status();
        } else {
            let ok = Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .unwrap();
            assert!(ok.success());
        }
        let start = Instant::now();
        while Path::new(&format!("/proc/{pid}")).exists()
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(40));
        }
        assert!(
            saved_elapsed_ms(&state) >= 2000,
            "SIG{signal}: clock not saved ({} ms)",
            saved_elapsed_ms(&state)
        );
    }
}

/// Waits until process `pid` is gone; false when it is still there after `limit`.
fn gone_within(pid: u32, limit: Duration) -> bool {
    let start = Instant::now();
    // A zombie (exited, not yet reaped by tmux) counts as gone.
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| !r.trim_start().starts_with('Z'))
        })
    };
    while running() {
        if start.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// The pid recorded in the state folder's lock file (the player holding it).
fn lock_pid(state: &Path) -> u32 {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(state.join("game.lock")).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "no lock file");
        std::thread::sleep(Duration::from_millis(40));
    }
}

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[test]
fn play_without_a_terminal_refuses_and_touches_nothing() {
    let (_tmp, state, config) = dirs();
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("game.json"), b"an earlier game").unwrap();
    for args in [vec!["play", PUZZLE], vec!["play"], vec![]] {
        let out = Command::new(bin())
            .args(&args)
            .env("TERMDOKU_STATE_DIR", &state)
            .env("TERMDOKU_CONFIG_DIR", &config)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "termdoku: play needs a terminal (stdin and stdout must be a TTY)\n"
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(
        std::fs::read(state.join("game.json")).unwrap(),
        b"an earlier game"
    );
    let mut names: Vec<String> = std::fs::read_dir(&state)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["game.json"], "no stats, no lock, no temporary");
}

#[test]
fn a_dumb_terminal_is_refused_with_a_message_that_names_term() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the TERM=dumb test");
        return;
    }
    let (_tmp, state, config) = dirs();
    let t = Tmux::new();
    t.start(&format!(
        "{}; echo \"exit status $?\"; sleep 20",
        local(&state, &config).replacen("exec env", "env TERM=dumb", 1)
    ));
    let screen = t.wait_text("exit status");
    // Input and output are a TTY here: the message must say what is wrong, not that.
    let flat = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("termdoku: play needs a terminal"), "{screen}");
    assert!(flat.contains("TERM=dumb"), "{screen}");
    assert!(!flat.contains("must be a TTY"), "{screen}");
    assert!(screen.contains("exit status 2"), "{screen}");
    assert!(!state.join("game.json").exists());
}

#[test]
fn clashing_givens_are_refused_before_the_screen_switches() {
    let (_tmp, state, config) = dirs();
    let clashing = format!("55{}", &PUZZLE[2..]);
    let out = Command::new(bin())
        .args(["play", &clashing])
        .env("TERMDOKU_STATE_DIR", &state)
        .env("TERMDOKU_CONFIG_DIR", &config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the givens clash: r1c1 and r1c2 both hold 5"),
        "{err}"
    );
    assert!(!state.exists(), "nothing written");
}

/// The pane closing (tmux kills the session: SIGHUP and a hung-up terminal) ends the
/// player within 2 s, with the game saved.
#[test]
fn a_closed_pane_ends_the_player_with_the_game_saved() {
    let Some(player) = start_player("closed-pane") else {
        return;
    };
    let (t, state) = (&player.t, &player.state);
    t.send(&["l", "l", "4"]);
    t.wait_text("Cell r1c3: entry 4");
    let pid = lock_pid(state);
    let _ = t.tmux().args(["kill-session", "-t", "main"]).status();
    assert!(gone_within(pid, Duration::from_secs(2)), "still running");
    let save = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert!(save.contains("\"values\":\"534"), "{save}");
}

#[test]
fn a_dropped_ssh_link_ends_the_player_with_the_game_saved() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the ssh drop test");
        return;
    }
    let Some(sshd) = Sshd::find() else {
        println!("NOTICE: no sshd; skipping the ssh drop test");
        return;
    };
    let (_tmp, state, config) = dirs();
    let remote = format!(
        "env LANG=C.UTF-8 TERMDOKU_STATE_DIR={} TERMDOKU_CONFIG_DIR={} {}",
        state.display(),
        config.display(),
        bin()
    );
    let cmd = format!(
        "exec ssh -t -p {} -i {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
         -o LogLevel=ERROR -o BatchMode=yes {}@127.0.0.1 '{remote}'",
        sshd.port, sshd.key, sshd.user
    );
    let t = Tmux::new();
    t.start(&cmd);
    t.wait_text("mistakes 0");
    t.send(&["l", "l", "4"]);
    t.wait_text("Cell r1c3: entry 4");
    t.wait_text("Time 00:02");
    let pid = lock_pid(&state);
    // The link drops: the ssh client dies without a word to the server.
    let ok = Command::new("kill")
        .args(["-9", &t.pane_pid().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert!(gone_within(pid, Duration::from_secs(2)), "still running");
    assert!(saved_elapsed_ms(&state) >= 2000, "the clock was not saved");
}

/// SIGTERM while the hint thread works on a search that takes many seconds (an empty
/// 16x16 grid has no unique solution, so the logic tries every technique, nets included):
/// the player is gone within a second, the game saved.
#[test]
fn sigterm_during_a_long_hint_ends_the_player_with_the_game_saved() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the hint signal test");
        return;
    }
    let (_tmp, state, config) = dirs();
    let empty = ".".repeat(256);
    let t = Tmux::new();
    t.start(&format!("{} play {empty}", local(&state, &config)));
    t.wait_text("mistakes 0");
    t.send(&["l"]);
    t.wait_text("Cell r1c2");
    t.send(&["H"]);
    t.wait_text("Looking for a hint");
    let pid = lock_pid(&state);
    let ok = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert!(gone_within(pid, Duration::from_secs(1)), "still running");
    let save = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert!(save.contains("\"cursor\":1,"), "{save}");
}

/// A tiny tmpfs mounted for the test (root only), unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| Tmpfs(at.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).output();
    }
}

/// Fills the file system holding `dir` (the file `fill`).
fn fill_disk(dir: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("fill")).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).and_then(|_| f.flush()).is_ok() {}
    let _ = f.sync_all();
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_full_disk_keeps_the_last_good_save_and_asks_before_quitting() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the full-disk test");
        return;
    }
    let (tmp, state, config) = dirs();
    let Some(_disk) = Tmpfs::mount(&state, "256k") else {
        println!("NOTICE: could not mount a tmpfs (not root?); skipping the full-disk test");
        return;
    };
    let _ = &tmp;
    let t = Tmux::new();
    t.start(&local(&state, &config));
    t.wait_text("mistakes 0");
    t.send(&["l", "l", "4"]);
    t.wait_text("Cell r1c3: entry 4");
    fill_disk(&state);
    t.send(&["j", "2"]);
    t.wait_text("Cell r2c3: entry 2");
    t.wait_text("Not saved");
    let good = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert!(
        good.contains("\"values\":\"534.7"),
        "the last good save: {good}"
    );
    assert!(temporaries(&state).is_empty(), "{:?}", temporaries(&state));
    // Quitting asks; a retry after space is freed saves the move and quits.
    t.send(&["q"]);
    t.wait_text("not saved");
    std::fs::remove_file(state.join("fill")).unwrap();
    t.send(&["r"]);
    t.wait_exit();
    let saved = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert!(saved.contains("\"values\":\"534.7....6.2195"), "{saved}");

    // Full again: quitting anyway keeps the last good save.
    t.start(&local(&state, &config));
    t.wait_text("Welcome back");
    fill_disk(&state);
    t.send(&["h", "1"]);
    t.wait_text("Not saved");
    t.send(&["q"]);
    t.wait_text("not saved");
    t.send(&["q"]);
    t.wait_exit();
    let kept = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert_eq!(kept, saved, "the last good save is untouched");
    assert!(temporaries(&state).is_empty(), "{:?}", temporaries(&state));
}

#[test]
fn a_second_player_on_one_folder_is_read_only() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the two-player test");
        return;
    }
    let (_tmp, state, config) = dirs();
    let first = Tmux::new();
    first.start(&local(&state, &config));
    first.wait_text("mistakes 0");
    first.send(&["l", "l", "4"]);
    first.wait_text("Cell r1c3: entry 4");
    let holder = lock_pid(&state);
    let second = Tmux::new();
    second.start(&local(&state, &config));
    second.wait_text(&format!("termdoku pid {holder}"));
    second.send(&["j", "j", "1"]);
    second.wait_text("Cell r3c3");
    second.send(&["q"]);
    second.wait_exit();
    let save = std::fs::read_to_string(state.join("game.json")).unwrap();
    assert!(save.contains("\"values\":\"534.7"), "{save}");
    assert!(
        save.contains("\"cursor\":2,"),
        "the first player's cursor: {save}"
    );
    first.send(&["q"]);
    first.wait_exit();
}

/// SIGKILL at random points of a 500-key burst, 20 times: the save is always valid and
/// holds every keystroke the screen had shown but at most the last.
#[test]
fn kill_9_during_a_key_burst_keeps_all_but_the_last_keystroke() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the key-burst test");
        return;
    }
    // Every key places a wrong digit in r1c3 (its answer is 4), so the mistakes count on
    // screen and in the save counts the keys handled.
    let burst: Vec<&str> = (0..500)
        .map(|i| if i % 2 == 0 { "1" } else { "2" })
        .collect();
    let mut seed = std::process::id() as u64 | 1;
    for round in 0..20 {
        let (_tmp, state, config) = dirs();
        let t = Tmux::new();
        t.start(&local(&state, &config));
        t.wait_text("mistakes 0");
        t.send(&["l", "l"]);
        t.wait_text("Cell r1c3: empty");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        t.send(&burst);
        std::thread::sleep(Duration::from_millis(seed % 600));
        let screen = t.capture();
        let shown: u32 = screen
            .split("mistakes ")
            .nth(1)
            .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no mistakes count:\n{screen}"));
        let pid = t.pane_pid();
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        assert!(gone_within(pid, Duration::from_secs(10)));
        let bytes = std::fs::read(state.join("game.json")).unwrap();
        let (game, _, _) = termdoku::game::save::parse_save(&bytes)
            .unwrap_or_else(|e| panic!("round {round}: invalid save: {e}"));
        println!("round {round}: {shown} keys shown, {} saved", game.mistakes);
        assert!(
            game.mistakes + 1 >= shown && game.mistakes <= 500,
            "round {round}: {} saved, {shown} shown",
            game.mistakes
        );
        let expect = match game.mistakes {
            0 => 0,
            m if m % 2 == 1 => 1,
            _ => 2,
        };
        assert_eq!(game.value(2), expect, "round {round}");
    }
}

/// After `a` at 80x24, the size people have over SSH, every candidate of every empty cell is
/// on screen where the layout plan says it is.
#[test]
fn tmux_80x24_shows_every_candidate_after_a() {
    use ratatui::layout::Rect;
    use termdoku::game::builtin;
    use termdoku::puzzle::{Grid, Variant};
    use termdoku::tui::app::App;
    use termdoku::tui::view;
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the 80x24 screen test");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let t = Tmux::new();
    let start = format!(
        "exec env LANG=C.UTF-8 TERMDOKU_STATE_DIR={0}/s TERMDOKU_CONFIG_DIR={0}/c {1}",
        tmp.path().display(),
        bin()
    );
    t.start_sized(&start, 80, 24);
    t.wait_for("the first frame", |s| s.contains("mistakes 0"));
    t.send(&["a"]);

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
    // The last empty cell: the frame is written top to bottom, so once its candidate shows,
    // the whole grid has been redrawn (the first cell's alone could be a half-drawn frame).
    let screen = t.wait_for("the candidates", |s| {
        let c = g.cells().rfind(|&c| grid.value(c) == 0).unwrap();
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
    t.send(&["q"]);
}

#[test]
fn rating_into_a_file_counts_on_the_terminal() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the progress test");
        return;
    }
    // Enough hard puzzles that the rating takes a few seconds on two cores.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hard.txt");
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    std::fs::write(&input, format!("{hard}\n").repeat(3000)).unwrap();
    let out = dir.path().join("rated.txt");
    let t = Tmux::new();
    t.start_sized(
        &format!(
            "{} rate {} > {}; echo done; sleep 30",
            bin(),
            input.display(),
            out.display()
        ),
        80,
        10,
    );
    let screen = t.wait_for("a count of rated puzzles", |s| {
        s.contains("rated ") || s.contains("done")
    });
    assert!(screen.contains("rated "), "no progress shown:\n{screen}");
    t.wait_text("done");
    let rated = std::fs::read_to_string(&out).unwrap();
    assert_eq!(rated.lines().count(), 3000);
    // The count is gone from the terminal once the work is done.
    assert!(!t.capture().contains("rated "), "{}", t.capture());
}
