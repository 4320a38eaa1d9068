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
        Server::start_with(dir, "server.log", &[])
    }

    /// A server on `dir`'s data folder, logging to `log`, with more arguments.
    fn start_with(dir: &Path, log: &str, args: &[&str]) -> Server {
        let port = free_port();
        let data = dir.join("data");
        let log = dir.join(log);
        let mut child = Command::new(bin())
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--data"])
            .arg(&data)
            .args(args)
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
        self.ssh_as(Some(key), "ERROR", extra)
    }

    /// The ssh command line for a player with `key` (none: a guest, who signs in with
    /// keyboard-interactive), at OpenSSH's `log` level (INFO shows the server's banner).
    fn ssh_as(&self, key: Option<&Path>, log: &str, extra: &str) -> String {
        let who = match key {
            Some(k) => format!("-i {} -o IdentitiesOnly=yes -o BatchMode=yes", k.display()),
            None => "-o PubkeyAuthentication=no -o PreferredAuthentications=keyboard-interactive"
                .to_string(),
        };
        format!(
            "ssh -F /dev/null -p {} {who} \
             -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel={log} \
             {extra} player@127.0.0.1",
            self.port,
        )
    }

    /// A server whose `--config` file holds `toml`.
    fn with_config(dir: &Path, toml: &str) -> Server {
        let config = dir.join("serve.toml");
        std::fs::write(&config, toml).unwrap();
        Server::start_with(dir, "server.log", &["--config", config.to_str().unwrap()])
    }

    /// Waits (at most 10 s) until the log holds `text`; the log.
    fn wait_log(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let log = self.log_text();
            if log.contains(text) {
                return log;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "`{text}` not logged:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Players in the server's database (none before the first session).
    fn players(&self) -> usize {
        let Ok(db) = rusqlite::Connection::open(self.data.join("termdoku.db")) else {
            return 0;
        };
        db.query_row("SELECT count(*) FROM players", [], |r| r.get::<_, i64>(0))
            .map_or(0, |n| n as usize)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A loopback port free now, from 42000-42999 (the range these tests keep to), each
/// call starting further on so that tests running at once do not race for one port.
fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let start = (std::process::id() % 500) as u16;
    for _ in 0..1000 {
        let port = 42000 + (start + NEXT.fetch_add(7, Ordering::Relaxed)) % 1000;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in 42000-42999");
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
    let Some((tmp, server, alice)) = served("") else {
        return;
    };
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
    assert_eq!(server.players(), 2, "one player per key");
}

#[test]
fn the_same_key_twice_the_newer_session_takes_over() {
    let Some((_tmp, server, key)) = served("") else {
        return;
    };
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

/// A fresh schema on the PostgreSQL server that `TERMDOKU_TEST_POSTGRES` names, dropped
/// at the end; None (with a notice) when the variable is unset.
struct PgSchema {
    url: String,
    admin: postgres::Client,
    schema: String,
}

impl PgSchema {
    fn new(test: &str) -> Option<PgSchema> {
        let url = std::env::var("TERMDOKU_TEST_POSTGRES").unwrap_or_default();
        if url.is_empty() {
            println!("NOTICE: TERMDOKU_TEST_POSTGRES is unset; skipping {test}");
            return None;
        }
        let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let schema = format!("serve_{}_{}", std::process::id(), free_port());
        admin
            .batch_execute(&format!(
                "CREATE SCHEMA {schema}; SET search_path TO {schema}"
            ))
            .unwrap();
        Some(PgSchema { url, admin, schema })
    }

    /// The URL a server is given: its tables in this schema.
    fn database(&self) -> String {
        let sep = if self.url.contains('?') { '&' } else { '?' };
        format!("{}{sep}options=-csearch_path%3D{}", self.url, self.schema)
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        let _ = self
            .admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.schema));
    }
}

/// Two servers on one database (`database`: `--database` and its value, or nothing for
/// the SQLite file of their shared data folder) and one host key: a game started through
/// one goes on through the other, and a session of the same key on the other server takes
/// over from an open one, which is told and ends.
fn two_servers_one_service(database: &[&str]) {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let host_key = keygen(tmp.path(), "host_ed25519");
    let mut args = vec!["--host-key", host_key.to_str().unwrap()];
    args.extend_from_slice(database);
    let a = Server::start_with(tmp.path(), "a.log", &args);
    let b = Server::start_with(tmp.path(), "b.log", &args);
    // Clients see one host: both offer the shared key.
    let public = std::fs::read_to_string(host_key.with_extension("pub")).unwrap();
    let public = public.split_whitespace().nth(1).unwrap();
    for server in [&a, &b] {
        let (_, out) = run(&format!(
            "ssh-keyscan -t ed25519 -p {} 127.0.0.1",
            server.port
        ));
        assert!(out.contains(public), "{out}");
    }
    let key = keygen(tmp.path(), "player");

    // Started on A, quit, resumed on B.
    let t = playing(&a, &key, "");
    t.send(&["l", "l", "4"]);
    t.wait_text("Cell r1c3: entry 4");
    t.send(&["q"]);
    t.wait_exit();
    // B's session stays open; its screen is kept after its ssh ends.
    let on_b = Tmux::new();
    on_b.start(&format!("{}; sleep 30", b.ssh(&key, "-tt")));
    let screen = on_b.wait_text("Welcome back");
    assert!(screen.contains(PLAYED_ROW1), "{screen}");
    on_b.send(&["Down", "7"]);
    on_b.wait_text("Cell r2c3: entry 7");

    // The same key on A while B plays: A has the game, B is told and ends.
    let on_a = Tmux::new();
    on_a.start(&format!("exec {}", a.ssh(&key, "-tt")));
    on_a.wait_text("Welcome back");
    on_b.wait_text("opened from another connection with your key");
    b.wait_log("a newer session took over");
    // Both moves are there (B's was saved before A took over).
    on_a.send(&["Up"]);
    on_a.wait_text("Cell r1c3: entry 4");
    on_a.send(&["Down"]);
    on_a.wait_text("Cell r2c3: entry 7");
    on_a.send(&["q"]);
    on_a.wait_exit();
}

#[test]
fn two_servers_on_one_sqlite_file_are_one_service() {
    two_servers_one_service(&[]);
}

#[test]
fn two_servers_on_one_postgres_database_are_one_service() {
    let Some(pg) = PgSchema::new("two_servers_on_one_postgres_database_are_one_service") else {
        return;
    };
    two_servers_one_service(&["--database", &pg.database()]);
}

#[test]
fn only_a_terminal_session_is_served() {
    let Some((tmp, server, key)) = served("") else {
        return;
    };
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

    // Local forwarding: the client listens, and a connection to it asks the server for a
    // direct-tcpip channel, which is refused (the client then drops the connection).
    let local = free_port();
    let mut forward = Command::new("sh")
        .args([
            "-c",
            &format!(
                "exec {}",
                server.ssh(&key, &format!("-N -L 127.0.0.1:{local}:127.0.0.1:9"))
            ),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut through = None;
    while start.elapsed() < Duration::from_secs(15) {
        if let Ok(mut c) = std::net::TcpStream::connect(("127.0.0.1", local)) {
            use std::io::Read;
            c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut buf = [0u8; 16];
            through = Some(c.read(&mut buf).unwrap_or(0));
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = forward.kill();
    let _ = forward.wait();
    assert_eq!(through, Some(0), "the forwarded connection carried data");

    let start = Instant::now();
    while !server.log_text().contains("local port forwarding")
        && start.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = server.log_text();
    for request in [
        "\"exec\"",
        "\"subsystem\"",
        "shell without a pty",
        "remote port forwarding",
        "local port forwarding",
    ] {
        assert!(log.contains(request), "{request} not logged:\n{log}");
    }
    assert_eq!(server.players(), 0, "nothing played, nothing kept");
}

#[test]
fn a_tiny_window_and_a_resize_storm_leave_the_session_playable() {
    let Some((_tmp, server, key)) = served("") else {
        return;
    };
    let t = Tmux::new();
    t.start(&format!("exec {}", server.ssh(&key, "-tt")));
    t.wait_text("mistakes 0");
    t.resize(1, 1);
    std::thread::sleep(Duration::from_millis(300));
    for i in 0..40u16 {
        t.resize(20 + (i * 7) % 90, 5 + (i * 5) % 40);
    }
    t.resize(100, 40);
    let screen = t.wait_for("the grid again", |s| {
        s.contains("mistakes 0") && s.contains(FRESH_ROW1) && !s.contains("enlarge")
    });
    assert!(screen.contains("Cell r1c1"), "{screen}");
    t.send(&["l"]);
    t.wait_text("Cell r1c2");
    t.send(&["q"]);
    t.wait_exit();
}

/// A server run with `config` in a fresh folder, and a key `player` made there; `None` where
/// the machine lacks tmux or OpenSSH (the test then checks nothing).
fn served(config: &str) -> Option<(tempfile::TempDir, Server, PathBuf)> {
    if !have_tools() {
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let server = if config.is_empty() {
        Server::start(tmp.path())
    } else {
        Server::with_config(tmp.path(), config)
    };
    let key = keygen(tmp.path(), "player");
    Some((tmp, server, key))
}

/// A terminal playing through `ssh -tt` with `key`, its grid on screen; `then` runs in the
/// pane's shell after ssh ends (`exec` ends the pane with it).
fn playing(server: &Server, key: &Path, then: &str) -> Tmux {
    let t = Tmux::new();
    let ssh = server.ssh(key, "-tt");
    if then.is_empty() {
        t.start(&format!("exec {ssh}"));
    } else {
        t.start(&format!("{ssh}; {then}"));
    }
    t.wait_text("mistakes 0");
    t
}

#[test]
fn a_second_session_from_one_address_is_refused_by_the_per_address_limit() {
    let Some((tmp, server, alice)) = served("[limits]\nsessions-per-address = 1\n") else {
        return;
    };
    let bob = keygen(tmp.path(), "bob");
    let t = playing(&server, &alice, "");
    let (status, out) = run(&server.ssh(&bob, "-tt"));
    assert_ne!(status, Some(0), "{out}");
    assert!(out.contains("too many sessions from your address"), "{out}");
    server.wait_log("refused: limit");
    // The first session plays on.
    t.send(&["l"]);
    t.wait_text("Cell r1c2");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
fn sign_ins_over_the_rate_are_refused_and_told_why() {
    let Some((_tmp, server, key)) = served("[limits]\nauth-per-minute = 2\n") else {
        return;
    };
    // Each connection offers its key once or twice: within a few the rate is used up, and
    // the next connection is told so before it is refused.
    let mut refused = None;
    for _ in 0..6 {
        let (_, out) = run(&format!("{} true", server.ssh_as(Some(&key), "INFO", "")));
        if out.contains("too many sign-in attempts") {
            refused = Some(out);
            break;
        }
    }
    let out = refused.expect("no connection was told of the rate");
    assert!(out.contains("Permission denied"), "{out}");
    server.wait_log("refused: authentication rate");
}

#[test]
fn an_idle_session_is_saved_and_closed_with_a_message() {
    let Some((_tmp, server, key)) = served("[limits]\nidle-timeout = 1\n") else {
        return;
    };
    let t = playing(&server, &key, "sleep 30");
    t.send(&["l", "l", "4"]);
    t.wait_text("closed after a long time without a key");
    let log = server.wait_log("session ended by the server");
    assert!(log.contains("without a key"), "{log}");
    let t = Tmux::new();
    t.start(&format!("exec {}", server.ssh(&key, "-tt")));
    let screen = t.wait_text("Welcome back");
    assert!(screen.contains(PLAYED_ROW1), "{screen}");
}

#[test]
fn input_over_the_rate_closes_the_session_when_configured_so() {
    let Some((_tmp, server, key)) =
        served("[limits]\ninput-bytes-per-second = 5\ninput-burst = 5\ninput-excess = \"close\"\n")
    else {
        return;
    };
    let t = playing(&server, &key, "sleep 30");
    t.send(&["-l", "lhlhlhlhlhlhlhlhlhlhlhlhlhlhlhlhlhlhlhlh"]);
    t.wait_text("input came faster than the server allows");
    server.wait_log("refused: input over the rate");
}

/// The whole scroll-back of a tmux pane (an export is longer than the screen).
fn scrollback(t: &Tmux) -> String {
    let out = t
        .tmux()
        .args(["capture-pane", "-p", "-J", "-S", "-5000", "-t", "main"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn name_and_options_are_kept_per_player_and_export_and_delete_work_in_the_game() {
    let Some((tmp, server, alice)) = served("") else {
        return;
    };
    let bob = keygen(tmp.path(), "bob");
    let play_as = |key: &Path| format!("exec {}", server.ssh(key, "-tt"));
    // The screen stays after ssh ends, to read what was printed.
    let keep_as = |key: &Path| format!("{}; sleep 30", server.ssh(key, "-tt"));

    let t = Tmux::new();
    t.start(&play_as(&alice));
    t.wait_text("mistakes 0");
    // The new-game menu's last entry, then the name: invalid, then good.
    t.send(&["n", "o", "Enter"]);
    t.wait_text("Options and account");
    t.send(&["j", "j", "j", "Enter"]);
    t.wait_text("Your display name");
    t.send(&["-l", "Al!"]);
    t.send(&["Enter"]);
    t.wait_text("cannot be in a name");
    t.send(&["BSpace"]);
    t.send(&["-l", "ice"]);
    t.send(&["Enter"]);
    t.wait_text("display name: Alice");
    // Borders: auto -> unicode -> ascii, at once.
    t.send(&["k", "k", "Enter", "Enter"]);
    t.wait_text("borders: ascii");
    t.send(&["h"]);
    let screen = t.wait_for("the board again", |s| !s.contains("borders: ascii"));
    assert!(screen.contains("Alice"), "{screen}");
    assert!(!screen.contains('┃'), "{screen}");
    t.send(&["q"]);
    t.wait_exit();

    // Bob cannot take the name, whatever its case.
    let t = Tmux::new();
    t.start(&play_as(&bob));
    t.wait_text("mistakes 0");
    t.send(&["n", "o", "Enter", "j", "j", "j", "Enter"]);
    t.wait_text("Your display name");
    t.send(&["-l", "aLiCe"]);
    t.send(&["Enter"]);
    t.wait_text("is taken");
    // Bob's connection drops.
    drop(t);

    // Alice's name and borders come back on her next connection; she exports her data.
    let t = Tmux::new();
    t.start(&keep_as(&alice));
    let screen = t.wait_text("Welcome back");
    assert!(
        screen.contains("Alice") && !screen.contains('┃'),
        "{screen}"
    );
    t.send(&["n", "o", "Enter", "j", "j", "j", "j", "Enter"]);
    t.wait_text("that is all the server keeps about you");
    let all = scrollback(&t);
    for field in [
        "\"fingerprint\": \"SHA256:",
        "\"name\": \"Alice\"",
        "\"borders\": \"ascii\"",
    ] {
        assert!(all.contains(field), "{field} not exported:\n{all}");
    }
    server.wait_log("data exported");
    drop(t);

    // Deleting asks for the word; then every row of hers goes, Bob's stay.
    assert_eq!(server.players(), 2);
    let t = Tmux::new();
    t.start(&keep_as(&alice));
    t.wait_text("Welcome back");
    t.send(&["n", "o", "Enter", "j", "j", "j", "j", "j", "Enter"]);
    t.wait_text("Delete all your data");
    t.send(&["-l", "yes"]);
    t.send(&["Enter"]);
    // A wrong word deletes nothing: back to the list.
    t.wait_text("Options and account");
    assert_eq!(server.players(), 2);
    t.send(&["Enter"]);
    t.wait_text("Delete all your data");
    t.send(&["-l", "delete"]);
    t.send(&["Enter"]);
    t.wait_text("your data was deleted");
    server.wait_log("data deleted");
    assert_eq!(server.players(), 1, "her player row is gone");
}

#[test]
fn a_guest_plays_without_a_key_and_nothing_is_kept() {
    let Some((_tmp, server, _key)) = served("") else {
        return;
    };
    let t = Tmux::new();
    t.start(&format!("exec {}", server.ssh_as(None, "ERROR", "-tt")));
    let screen = t.wait_text("nothing is kept");
    assert!(screen.contains("guest"), "{screen}");
    t.send(&["l", "l", "4"]);
    t.wait_text("Cell r1c3: entry 4");
    t.send(&["q"]);
    t.wait_exit();
    server.wait_log("auth (guest)");
    assert_eq!(server.players(), 0, "nothing kept for a guest");

    // Refused where the configuration says no guests.
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::with_config(tmp.path(), "guests = false\n");
    let (status, out) = run(&server.ssh_as(None, "ERROR", "-tt"));
    assert_ne!(status, Some(0), "{out}");
    assert!(out.contains("Permission denied"), "{out}");
}

/// The keys that type `solution` (81 digits) into the empty cells of `givens` (81, `.`
/// for empty) from r1c1, row by row, ending on the last empty cell (the solve opens the
/// daily screen, where more keys would mean something else).
fn typing(givens: &str, solution: &str) -> Vec<String> {
    let digits: Vec<(char, char)> = givens.chars().zip(solution.chars()).collect();
    let last = digits.iter().rposition(|&(g, _)| g == '.').unwrap();
    let mut keys = Vec::new();
    for (i, &(g, d)) in digits.iter().enumerate().take(last + 1) {
        if g == '.' {
            keys.push(d.to_string());
        }
        if i == last {
            break;
        }
        if i % 9 < 8 {
            keys.push("l".into());
        } else {
            keys.push("j".into());
            keys.extend(std::iter::repeat_n("h".to_string(), 8));
        }
    }
    keys
}

#[test]
fn the_daily_is_opened_from_the_menu_solved_and_ranked_on_its_leaderboard() {
    daily_solved_and_ranked(None);
}

/// The same with two servers sharing PostgreSQL: Alice solves on one, Bob sees her on
/// the other's leaderboard.
#[test]
fn two_servers_sharing_postgres_serve_one_daily_and_one_leaderboard() {
    let Some(mut pg) = PgSchema::new("two_servers_sharing_postgres_serve_one_daily") else {
        return;
    };
    daily_solved_and_ranked(Some(&mut pg));
}

fn daily_solved_and_ranked(mut pg: Option<&mut PgSchema>) {
    if !have_tools() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let args: Vec<String> = pg
        .as_ref()
        .map(|pg| vec!["--database".to_string(), pg.database()])
        .unwrap_or_default();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = Server::start_with(tmp.path(), "server.log", &args);
    // One text a query of the servers' database returns.
    let mut stored = |sql: &str| -> String {
        match pg.as_mut() {
            None => rusqlite::Connection::open(server.data.join("termdoku.db"))
                .unwrap()
                .query_row(sql, [], |r| r.get(0))
                .unwrap(),
            Some(pg) => pg.admin.query_one(sql, &[]).unwrap().get(0),
        }
    };
    let alice = keygen(tmp.path(), "player");
    let t = Tmux::new();
    t.start_sized(&format!("exec {}", server.ssh(&alice, "-tt")), 80, 24);
    t.wait_text("mistakes 0");
    // `d` jumps to diagonal, then to the daily entry.
    t.send(&["n", "d", "d", "Enter"]);
    let screen = t.wait_text("standard leaderboard: 0 unassisted solves");
    assert!(screen.contains("Daily puzzles of"), "{screen}");
    assert!(screen.contains("Streak: 0 days"), "{screen}");
    assert!(screen.contains("nobody yet"), "{screen}");
    t.send(&["Enter"]);
    t.wait_text("Daily standard of");
    server.wait_log("daily puzzle ready");

    // The stored puzzle is the one played: solve it with the solver and type it in.
    let toml = stored("SELECT puzzle FROM daily_puzzles WHERE variant = 'standard'");
    let file = tmp.path().join("daily.toml");
    std::fs::write(&file, &toml).unwrap();
    let givens: String = toml
        .split("\"\"\"")
        .nth(1)
        .unwrap()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    assert_eq!(givens.len(), 81, "{toml}");
    let out = Command::new(bin())
        .arg("solve")
        .arg(&file)
        .output()
        .unwrap();
    let solution = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(solution.len(), 81, "{solution}");
    let keys = typing(&givens, &solution);
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    t.send(&keys);
    let screen = t.wait_text("#1 of 1 today");
    assert!(screen.contains("(you)"), "{screen}");
    assert!(screen.contains("Streak: 1 day (best 1)"), "{screen}");
    assert!(screen.contains("> standard   solved"), "{screen}");
    server.wait_log("daily solved");
    t.send(&["q"]);
    t.wait_exit();

    // Bob, on a second server sharing the database, sees Alice's solve under a piece of
    // her key, and plays the same daily: the stored one, not one of that server's own.
    let other = Server::start_with(tmp.path(), "other.log", &args);
    let bob = keygen(tmp.path(), "bob");
    let t = playing(&other, &bob, "");
    t.send(&["n", "d", "d", "Enter"]);
    let screen = t.wait_text("standard leaderboard: 1 unassisted solve");
    assert!(screen.contains("   1  anonymous-"), "{screen}");
    assert!(!screen.contains("(you)"), "{screen}");
    t.send(&["Enter"]);
    t.wait_text("Daily standard of");
    let log = other.wait_log("play");
    assert!(!log.contains("daily puzzle ready"), "{log}");
    assert_eq!(
        stored("SELECT CAST(count(*) AS TEXT) FROM daily_puzzles"),
        "1"
    );
}

#[test]
fn behind_a_proxy_the_client_address_comes_from_the_proxy_header() {
    let Some((_tmp, server, key)) = served("proxy-protocol = true\n") else {
        return;
    };
    // A forwarder that prepends a v1 header naming a client that is not there.
    let front = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let front_port = front.local_addr().unwrap().port();
    let back_port = server.port;
    std::thread::spawn(move || {
        for client in front.incoming() {
            let Ok(client) = client else { continue };
            let Ok(mut back) = std::net::TcpStream::connect(("127.0.0.1", back_port)) else {
                continue;
            };
            use std::io::Write;
            let header = format!("PROXY TCP4 203.0.113.77 127.0.0.1 40123 {back_port}\r\n");
            back.write_all(header.as_bytes()).unwrap();
            let (mut c2, mut b2) = (client.try_clone().unwrap(), back.try_clone().unwrap());
            let (mut c1, mut b1) = (client, back);
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut c1, &mut b1);
                let _ = b1.shutdown(std::net::Shutdown::Write);
            });
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut b2, &mut c2);
                let _ = c2.shutdown(std::net::Shutdown::Write);
            });
        }
    });
    let via = server
        .ssh(&key, "")
        .replace(&format!("-p {back_port} "), &format!("-p {front_port} "));
    // Signs in (the command itself is refused): the log names the header's address.
    run(&format!("{via} true"));
    let log = server.wait_log("auth");
    assert!(log.contains("203.0.113.77:40123"), "{log}");
    // A client straight to the server, with no header, is refused.
    let (status, _) = run(&format!("{} true", server.ssh(&key, "")));
    assert_ne!(status, Some(0));
    server.wait_log("refused: PROXY header");
}

/// Load: many sessions of the russh client typing at once, then `kill -9` of the server
/// mid-load. Each session moves to r1c3 (empty), turns on pencil mode and toggles marks
/// there (one undo step each), with a hint asked every 20 keys.
mod load {
    use super::Server;
    use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
    use russh::keys::{HashAlg, PrivateKey, PrivateKeyWithHashAlg};
    use russh::{client, ChannelMsg};
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    pub struct Plan {
        pub sessions: usize,
        pub keys_per_second: u32,
        pub seconds: u32,
        /// The server is killed (`kill -9`) this far into the run.
        pub kill_after: Duration,
    }

    impl Plan {
        /// The CI-sized run: 10 keys/s for 4 s, killed after 3.
        pub fn quick(sessions: usize) -> Plan {
            Plan {
                sessions,
                keys_per_second: 10,
                seconds: 4,
                kill_after: Duration::from_secs(3),
            }
        }

        /// The load: 50 sessions, 10 keys/s, killed after 20 s.
        pub fn full() -> Plan {
            Plan {
                sessions: 50,
                keys_per_second: 10,
                seconds: 25,
                kill_after: Duration::from_secs(20),
            }
        }
    }

    struct Client;

    impl client::Handler for Client {
        type Error = russh::Error;

        async fn check_server_key(
            &mut self,
            _key: &russh::keys::PublicKeyOrCertificate,
        ) -> Result<bool, Self::Error> {
            Ok(true)
        }
    }

    /// What one session saw.
    #[derive(Default)]
    struct Seen {
        fingerprint: String,
        /// Milliseconds from a key to the next screen output (hint keys apart).
        latencies: Vec<f64>,
        hint_latencies: Vec<f64>,
        /// Mark toggles sent, and those whose redraw came back.
        sent: usize,
        acked: usize,
        error: Option<String>,
    }

    fn key(i: usize) -> PrivateKey {
        let mut seed = [7u8; 32];
        seed[..8].copy_from_slice(&(i as u64).to_le_bytes());
        PrivateKey::try_from(KeypairData::Ed25519(Ed25519Keypair::from_seed(&seed))).unwrap()
    }

    async fn session(port: u16, i: usize, plan: &Plan, started: Instant) -> Seen {
        let key = key(i);
        let mut seen = Seen {
            fingerprint: key.public_key().fingerprint(HashAlg::Sha256).to_string(),
            ..Seen::default()
        };
        if let Err(e) = play(port, key, plan, started, &mut seen).await {
            seen.error = Some(e.to_string());
        }
        seen
    }

    async fn play(
        port: u16,
        key: PrivateKey,
        plan: &Plan,
        started: Instant,
        seen: &mut Seen,
    ) -> Result<(), russh::Error> {
        let config = Arc::new(client::Config::default());
        let mut ssh = client::connect(config, ("127.0.0.1", port), Client).await?;
        let auth = ssh
            .authenticate_publickey("load", PrivateKeyWithHashAlg::new(Arc::new(key), None))
            .await?;
        assert!(auth.success(), "authentication refused");
        let mut ch = ssh.channel_open_session().await?;
        ch.request_pty(false, "xterm-256color", 100, 40, 0, 0, &[])
            .await?;
        ch.request_shell(false).await?;
        // The first screen.
        let first = tokio::time::timeout(Duration::from_secs(10), ch.wait()).await;
        if !matches!(first, Ok(Some(ChannelMsg::Data { .. }))) {
            return Err(russh::Error::Disconnect);
        }
        let period = Duration::from_secs(1) / plan.keys_per_second;
        let total = plan.keys_per_second * plan.seconds;
        let mut next = Instant::now();
        for k in 0..total {
            // Until the next key is due, whatever the server sends is drained.
            loop {
                let due = tokio::time::Instant::from_std(next);
                tokio::select! {
                    () = tokio::time::sleep_until(due) => break,
                    msg = ch.wait() => match msg {
                        Some(ChannelMsg::Data { .. }) => {}
                        Some(_) => {}
                        None => return Err(russh::Error::Disconnect),
                    },
                }
            }
            next += period;
            let (bytes, kind): (&[u8], u8) = match k {
                0 | 1 => (b"l", 0),
                2 => (b"p", 0),
                k if k % 20 == 10 => (b"H", 1),
                k => (&b"123456789"[(k % 9) as usize..][..1], 2),
            };
            if started.elapsed() >= plan.kill_after + Duration::from_secs(2) {
                break;
            }
            let t0 = Instant::now();
            ch.data(bytes).await?;
            if kind == 2 {
                seen.sent += 1;
            }
            let answer = tokio::time::timeout(Duration::from_secs(2), async {
                loop {
                    match ch.wait().await {
                        Some(ChannelMsg::Data { .. }) => return true,
                        Some(_) => {}
                        None => return false,
                    }
                }
            })
            .await;
            match answer {
                Ok(true) => {
                    let ms = t0.elapsed().as_secs_f64() * 1000.0;
                    match kind {
                        1 => seen.hint_latencies.push(ms),
                        2 => {
                            seen.latencies.push(ms);
                            seen.acked += 1;
                        }
                        _ => seen.latencies.push(ms),
                    }
                }
                Ok(false) => return Err(russh::Error::Disconnect),
                Err(_) => {}
            }
        }
        Ok(())
    }

    fn percentile(v: &mut [f64], p: f64) -> f64 {
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(|a, b| a.total_cmp(b));
        v[((v.len() - 1) as f64 * p).round() as usize]
    }

    /// CPU seconds (user + system) and resident memory (now, peak; KiB) of a process.
    fn usage(pid: u32) -> (f64, u64, u64) {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(vec![], |(_, r)| r.split_whitespace().collect());
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        // utime and stime are fields 14 and 15 (11 and 12 after the name).
        let cpu = (ticks(11) + ticks(12)) / 100.0;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kib = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (cpu, kib("VmRSS:"), kib("VmHWM:"))
    }

    /// Runs the plan against a server on `dir`, kills it, restarts it and checks every
    /// player's game; returns the report printed.
    pub fn run(dir: &Path, plan: Plan) -> String {
        run_on(dir, plan, 1, None)
    }

    /// The same against `servers` servers on one database (`database`: a `--database`
    /// value, else the SQLite file in `dir`), the sessions dealt out between them in turn.
    pub fn run_on(dir: &Path, plan: Plan, servers: usize, database: Option<&str>) -> String {
        let config = dir.join("serve.toml");
        std::fs::write(
            &config,
            "[limits]\nsessions-per-address = 1000\nsessions = 1000\nauth-per-minute = 10000\n",
        )
        .unwrap();
        let config = config.to_str().unwrap().to_string();
        let mut args = vec!["--config", &config];
        if let Some(db) = database {
            args.extend(["--database", db]);
        }
        let mut running: Vec<Server> = (0..servers)
            .map(|n| Server::start_with(dir, &format!("server{}.log", n + 1), &args))
            .collect();
        let pids: Vec<u32> = running.iter().map(|s| s.child.id()).collect();
        let ports: Vec<u16> = running.iter().map(|s| s.port).collect();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let total = |pids: &[u32]| {
            pids.iter()
                .map(|&p| usage(p))
                .fold((0.0, 0, 0), |t, u| (t.0 + u.0, t.1 + u.1, t.2 + u.2))
        };
        let (cpu0, _, _) = total(&pids);
        let started = Instant::now();
        let plan = Arc::new(plan);
        let tasks: Vec<_> = (0..plan.sessions)
            .map(|i| {
                let plan = Arc::clone(&plan);
                let port = ports[i % ports.len()];
                runtime.spawn(async move { session(port, i, &plan, started).await })
            })
            .collect();
        // The servers are killed mid-load; the sessions notice and stop.
        std::thread::sleep(plan.kill_after.saturating_sub(started.elapsed()));
        let (cpu1, rss, peak) = total(&pids);
        let elapsed = started.elapsed().as_secs_f64();
        for server in &mut running {
            server.stop();
        }
        let seen: Vec<Seen> = tasks
            .into_iter()
            .map(|t| runtime.block_on(t).unwrap())
            .collect();
        drop(runtime);

        // Restarted, a server opens the database the killed ones left.
        let restarted = Server::start_with(dir, "restarted.log", &args);
        let store = termdoku::serve::store::Database::from_arg(
            database,
            &dir.join("data").join("termdoku.db"),
        )
        .open()
        .unwrap();
        let mut lost = Vec::new();
        for s in &seen {
            let saved = store
                .open(&s.fingerprint)
                .unwrap()
                .load_game()
                .unwrap()
                .map_or(0, |g| g.undo.len());
            // Every acknowledged toggle is kept but the last; none is invented.
            if saved + 1 < s.acked || saved > s.sent {
                lost.push(format!(
                    "{}: {saved} saved, {} acknowledged, {} sent",
                    s.fingerprint, s.acked, s.sent
                ));
            }
        }
        drop(restarted);
        let mut all: Vec<f64> = seen.iter().flat_map(|s| s.latencies.clone()).collect();
        let mut hints: Vec<f64> = seen.iter().flat_map(|s| s.hint_latencies.clone()).collect();
        let keys = all.len();
        let report = format!(
            "{servers} server(s), {} sessions, {} keys/s each, {:.1} s until kill -9: {keys} keystrokes answered, \
             keystroke-to-redraw p50 {:.1} ms p99 {:.1} ms max {:.1} ms; {} hints p50 {:.1} ms \
             p99 {:.1} ms; servers' CPU {:.1} s ({:.0}% of one core), RSS {} MiB (peaks summed {} MiB); \
             {} sessions with errors before the kill",
            plan.sessions,
            plan.keys_per_second,
            elapsed,
            percentile(&mut all, 0.5),
            percentile(&mut all, 0.99),
            percentile(&mut all, 1.0),
            hints.len(),
            percentile(&mut hints, 0.5),
            percentile(&mut hints, 0.99),
            cpu1 - cpu0,
            (cpu1 - cpu0) / elapsed * 100.0,
            rss / 1024,
            peak / 1024,
            seen.iter()
                .filter(|s| s.error.is_some() && s.acked == 0)
                .count(),
        );
        println!("{report}");
        assert!(
            lost.is_empty(),
            "moves lost after kill -9:\n{}",
            lost.join("\n")
        );
        assert!(
            seen.iter().all(|s| s.acked > 0),
            "a session played nothing:\n{}",
            std::fs::read_to_string(dir.join("server1.log")).unwrap_or_default()
        );
        report
    }
}

/// A CI-sized load: 5 sessions typing for 3 s, `kill -9` of the server mid-load, and
/// every player's game holds all their moves but at most the last after a restart.
#[test]
fn after_kill_9_mid_load_every_game_holds_all_moves_but_the_last() {
    let tmp = tempfile::tempdir().unwrap();
    load::run(tmp.path(), load::Plan::quick(5));
}

/// The same on two servers sharing PostgreSQL, both killed mid-load.
#[test]
fn after_kill_9_mid_load_on_two_servers_sharing_postgres_every_game_is_kept() {
    let Some(pg) = PgSchema::new("the load test on two servers sharing PostgreSQL") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    load::run_on(tmp.path(), load::Plan::quick(6), 2, Some(&pg.database()));
}

/// The full load test, by hand (not in CI): 50 sessions, 10 keys/s each, for 20 s, then
/// `kill -9`. `cargo test --release --test serve full_load -- --ignored --nocapture`.
#[test]
#[ignore]
fn full_load() {
    let tmp = tempfile::tempdir().unwrap();
    load::run(tmp.path(), load::Plan::full());
}

/// The full load test on two servers sharing PostgreSQL, by hand:
/// `TERMDOKU_TEST_POSTGRES=postgres://... cargo test --release --test serve
/// full_load_on_two_servers -- --ignored --nocapture`.
#[test]
#[ignore]
fn full_load_on_two_servers_sharing_postgres() {
    let Some(pg) = PgSchema::new("full_load_on_two_servers_sharing_postgres") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    load::run_on(tmp.path(), load::Plan::full(), 2, Some(&pg.database()));
}
