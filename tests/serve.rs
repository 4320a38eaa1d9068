//! `termdoku serve` with a real OpenSSH client (in tmux, on 127.0.0.1 only): the server is
//! started by each test on a free loopback port and killed at its end. Each test prints a
//! notice and passes when tmux, ssh or ssh-keygen is missing; `.ci/run` installs them.

mod common;

use common::tmux::{bin, have_tmux, Tmux};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn have_tools() -> bool {
    let runs = |tool: &str, arg: &str| {
        Command::new(tool)
            .arg(arg)
            .output()
            .is_ok_and(|o| o.status.success() || !o.stderr.is_empty())
    };
    if have_tmux() && runs("ssh", "-V") && runs("ssh-keygen", "-?") {
        true
    } else {
        println!("NOTICE: tmux, ssh or ssh-keygen is missing; skipping the serve test");
        false
    }
}

/// `termdoku serve` on a free loopback port, killed on drop.
struct Server {
    child: Child,
    port: u16,
    data: PathBuf,
    log: PathBuf,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let data = dir.join("data");
        let log = dir.join("server.log");
        let mut child = Command::new(bin())
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--data"])
            .arg(&data)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if line.contains("listening on") {
                    let _ = tx.send(line);
                }
            }
        });
        let mut server = Server {
            child,
            port,
            data,
            log,
        };
        if rx.recv_timeout(Duration::from_secs(20)).is_err() {
            server.stop();
            panic!("the server did not start:\n{}", server.log_text());
        }
        server
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The ssh command line for a player with `key`, then `extra` (options or a command).
    fn ssh(&self, key: &Path, extra: &str) -> String {
        format!(
            "ssh -F /dev/null -p {} -i {} -o IdentitiesOnly=yes -o BatchMode=yes \
             -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
             {extra} player@127.0.0.1",
            self.port,
            key.display()
        )
    }

    fn players(&self) -> usize {
        std::fs::read_dir(self.data.join("players")).map_or(0, |d| d.count())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn keygen(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let ok = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&path)
        .status()
        .unwrap();
    assert!(ok.success());
    path
}

/// Runs a shell command line to its end (at most 20 s); its status and output.
fn run(line: &str) -> (Option<i32>, String) {
    let mut child = Command::new("sh")
        .args(["-c", line])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

const FRESH_ROW1: &str = "┃  [5]  │   3   │   ·   ┃";
/// Row 1 after `l l 4`, the cursor still on the digit.
const PLAYED_ROW1: &str = "┃   5   │   3   │  [4]  ┃";

#[test]
fn a_game_follows_its_key_and_another_key_gets_its_own() {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(tmp.path());
    let alice = keygen(tmp.path(), "alice");
    let bob = keygen(tmp.path(), "bob");
    let t = Tmux::new();
    let play_as = |key: &Path| format!("exec {}", server.ssh(key, "-tt"));

    t.start(&play_as(&alice));
    let screen = t.wait_text("mistakes 0");
    assert!(screen.contains(FRESH_ROW1), "{screen}");
    t.send(&["l", "l"]);
    t.wait_text("Cell r1c3: empty");
    t.send(&["4"]);
    t.wait_text("Cell r1c3: entry 4");
    // The connection drops without a quit.
    let _ = t.tmux().args(["kill-server"]).output();

    let t = Tmux::new();
    t.start(&play_as(&alice));
    let screen = t.wait_text("Welcome back");
    assert!(screen.contains(PLAYED_ROW1), "{screen}");
    t.send(&["q"]);
    t.wait_exit();

    t.start(&play_as(&bob));
    let screen = t.wait_text("mistakes 0");
    assert!(!screen.contains("Welcome back"), "{screen}");
    assert!(screen.contains(FRESH_ROW1), "{screen}");
    t.send(&["q"]);
    t.wait_exit();
    assert_eq!(server.players(), 2, "one folder per key");
}

#[test]
fn the_same_key_twice_the_newer_session_takes_over() {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(tmp.path());
    let key = keygen(tmp.path(), "player");
    // The older session's screen is kept after its ssh ends, to read what it was told.
    let old = Tmux::new();
    old.start(&format!("{}; sleep 30", server.ssh(&key, "-tt")));
    old.wait_text("mistakes 0");
    old.send(&["l", "l", "4"]);
    old.wait_text("Cell r1c3: entry 4");

    let new = Tmux::new();
    new.start(&format!("exec {}", server.ssh(&key, "-tt")));
    let screen = new.wait_text("Welcome back");
    assert!(screen.contains(PLAYED_ROW1), "{screen}");
    old.wait_text("opened from another connection with your key");
    new.send(&["q"]);
    new.wait_exit();
}

#[test]
fn only_a_terminal_session_is_served() {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(tmp.path());
    let key = keygen(tmp.path(), "player");
    std::fs::write(tmp.path().join("marker-file"), "").unwrap();

    let (status, out) = run(&format!(
        "cd {} && {} ls",
        tmp.path().display(),
        server.ssh(&key, "")
    ));
    assert_ne!(status, Some(0), "{out}");
    assert!(!out.contains("marker-file"), "a command ran: {out}");

    let (status, out) = run(&format!("{} -s sftp", server.ssh(&key, "")));
    assert_ne!(status, Some(0), "{out}");

    let (status, out) = run(&server.ssh(&key, "-T"));
    assert_ne!(status, Some(0), "{out}");
    assert!(out.contains("shell request failed"), "{out}");

    let (status, out) = run(&server.ssh(
        &key,
        "-N -o ExitOnForwardFailure=yes -R 127.0.0.1:0:127.0.0.1:9",
    ));
    assert_ne!(status, Some(0), "{out}");

    let log = server.log_text();
    for request in [
        "\"exec\"",
        "\"subsystem\"",
        "shell without a pty",
        "remote port forwarding",
    ] {
        assert!(log.contains(request), "{request} not logged:\n{log}");
    }
    assert_eq!(server.players(), 0, "nothing played, nothing kept");
}

#[test]
fn a_tiny_window_and_a_resize_storm_leave_the_session_playable() {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::start(tmp.path());
    let key = keygen(tmp.path(), "player");
    let t = Tmux::new();
    t.start(&format!("exec {}", server.ssh(&key, "-tt")));
    t.wait_text("mistakes 0");
    let resize = |w: u16, h: u16| {
        let ok = t
            .tmux()
            .args(["resize-window", "-t", "main", "-x"])
            .arg(w.to_string())
            .arg("-y")
            .arg(h.to_string())
            .status()
            .unwrap();
        assert!(ok.success());
    };
    resize(1, 1);
    std::thread::sleep(Duration::from_millis(300));
    for i in 0..40u16 {
        resize(20 + (i * 7) % 90, 5 + (i * 5) % 40);
    }
    resize(100, 40);
    let screen = t.wait_for("the grid again", |s| {
        s.contains("mistakes 0") && s.contains(FRESH_ROW1) && !s.contains("enlarge")
    });
    assert!(screen.contains("Cell r1c1"), "{screen}");
    t.send(&["l"]);
    t.wait_text("Cell r1c2");
    t.send(&["q"]);
    t.wait_exit();
}
