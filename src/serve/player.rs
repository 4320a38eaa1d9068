//! One player's session: their game loaded from their folder, the player's loop run on
//! the remote terminal on a thread of its own (so nothing the game does, a slow hint
//! included, holds up the server), and the rule that the newest session of a key wins.

use super::console::{ChannelOut, RemoteConsole};
use crate::game::profile::Profile;
use crate::game::save::{self, Loaded};
use crate::game::stats::{stats_path, Stats};
use crate::game::{builtin, Game};
use crate::puzzle::Variant;
use crate::tui::app::{App, Message, Tone};
use crate::tui::{config::Config, Files};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::{cursor, event, execute, terminal};
use ratatui::layout::{Rect, Size};
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Who is playing: the key's fingerprint names the player and their folder.
#[derive(Clone, Debug)]
pub struct Player {
    /// As OpenSSH prints it (`SHA256:...`), for the logs.
    pub fingerprint: String,
    /// The player's folder in the data folder.
    pub dir: PathBuf,
}

impl Player {
    /// The player of a key whose SHA-256 fingerprint is `digest`: the folder is named by
    /// the digest in hex (a base64 fingerprint holds `/`).
    pub fn new(data: &Path, fingerprint: String, digest: &[u8]) -> Player {
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        Player {
            fingerprint,
            dir: data.join("players").join(hex),
        }
    }
}

/// What the client told about its terminal.
#[derive(Clone, Debug, Default)]
pub struct ClientTerminal {
    pub size: Size,
    /// `LANG`/`LC_*` as the client sent them (OpenSSH sends them by default on Debian).
    pub locale: Vec<(String, String)>,
}

impl ClientTerminal {
    /// UTF-8 unless the client's locale says otherwise: every terminal an SSH player
    /// uses today speaks it, and the client may send no locale at all.
    fn utf8(&self) -> bool {
        for var in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let Some((_, v)) = self.locale.iter().find(|(k, v)| k == var && !v.is_empty()) {
                let v = v.to_ascii_lowercase();
                return v.contains("utf-8") || v.contains("utf8");
            }
        }
        true
    }
}

/// One running session of a key, as the other sessions of the same key see it.
struct Active {
    id: u64,
    /// Raised to end the session.
    stop: Arc<AtomicBool>,
    /// Raised with `stop` when a newer session takes over, so the player is told.
    taken_over: Arc<AtomicBool>,
    done: Arc<Done>,
}

/// Set when a session has saved and ended.
#[derive(Default)]
struct Done {
    flag: Mutex<bool>,
    changed: Condvar,
}

impl Done {
    fn set(&self) {
        *self.flag.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }

    fn wait(&self, limit: Duration) -> bool {
        let guard = self.flag.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, limit, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *guard
    }
}

/// The sessions running, by player folder; and the flag that ends them all.
#[derive(Default)]
pub struct Sessions {
    active: Mutex<HashMap<PathBuf, Active>>,
    next_id: AtomicU64,
    /// Raised at shutdown: every session saves and ends.
    pub shutdown: Arc<AtomicBool>,
}

/// How long a new session waits for the one it takes over to save and go.
const TAKEOVER_WAIT: Duration = Duration::from_secs(5);

/// What a session tells the player when a newer one took its place.
pub const TAKEN_OVER: &str =
    "termdoku: this game was opened from another connection with your key; this one is closed.";

impl Sessions {
    /// Registers a session of `player`, ending the one already running (which saves
    /// first): the newer session wins.
    fn enter(&self, player: &Player) -> (u64, Arc<AtomicBool>, Arc<AtomicBool>, Arc<Done>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        let taken_over = Arc::new(AtomicBool::new(false));
        let done = Arc::new(Done::default());
        let older = {
            let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
            active.insert(
                player.dir.clone(),
                Active {
                    id,
                    stop: Arc::clone(&stop),
                    taken_over: Arc::clone(&taken_over),
                    done: Arc::clone(&done),
                },
            )
        };
        if let Some(old) = older {
            tracing::info!(player = %player.fingerprint, "newer session takes over");
            old.taken_over.store(true, Ordering::SeqCst);
            old.stop.store(true, Ordering::SeqCst);
            if !old.done.wait(TAKEOVER_WAIT) {
                tracing::warn!(player = %player.fingerprint, "older session did not end in time");
            }
        }
        (id, stop, taken_over, done)
    }

    /// How many sessions are running.
    pub fn count(&self) -> usize {
        self.active.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn leave(&self, player: &Player, id: u64) {
        let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        if active.get(&player.dir).is_some_and(|a| a.id == id) {
            active.remove(&player.dir);
        }
    }
}

/// Runs one player's session to its end on the calling thread (not an async one): loads
/// their game, plays until quit, hang-up, takeover or shutdown, saves, and closes the
/// channel.
pub fn run(
    sessions: &Sessions,
    player: &Player,
    client: &ClientTerminal,
    mut console: RemoteConsole,
    out: ChannelOut,
) {
    let (id, stop, taken_over, done) = sessions.enter(player);
    let stop_all = Arc::clone(&sessions.shutdown);
    // Either flag ends the loop: a watcher copies the server's into the session's.
    let watcher = {
        let stop = Arc::clone(&stop);
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            while !done.wait(Duration::from_millis(200)) {
                if stop_all.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        })
    };
    let started = load(player, client).and_then(|(app, files)| {
        let mouse = app.config.display.mouse;
        let term = open_terminal(out, client.size, mouse).map_err(|e| e.to_string())?;
        Ok((term, (app, files)))
    });
    let (mut term, (mut app, files)) = match started {
        Ok(both) => both,
        Err(e) => {
            tracing::warn!(player = %player.fingerprint, error = %e, "session could not start");
            done.set();
            sessions.leave(player, id);
            let _ = watcher.join();
            return;
        }
    };
    let result = crate::tui::play_on(&mut app, &files, &mut term, &mut console, &stop);
    if let Err(e) = &result {
        tracing::info!(player = %player.fingerprint, error = %e, "session ended by its terminal");
    }
    let out = term.backend_mut();
    let _ = execute!(
        out,
        event::DisableMouseCapture,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    if taken_over.load(Ordering::SeqCst) {
        let _ = write!(out, "\r\n{TAKEN_OVER}\r\n");
    } else if sessions.shutdown.load(Ordering::SeqCst) {
        let _ = write!(
            out,
            "\r\ntermdoku: the server is stopping; your game is saved.\r\n"
        );
    }
    let _ = out.flush();
    // Dropping the output closes the channel.
    drop(term);
    done.set();
    sessions.leave(player, id);
    let _ = watcher.join();
    tracing::info!(player = %player.fingerprint, "session ended");
}

fn open_terminal(
    mut out: ChannelOut,
    size: Size,
    mouse: bool,
) -> std::io::Result<Terminal<CrosstermBackend<ChannelOut>>> {
    execute!(out, terminal::EnterAlternateScreen, cursor::Hide)?;
    if mouse {
        execute!(out, event::EnableMouseCapture)?;
    }
    // A fixed viewport: ratatui must never ask this process's own terminal for a size.
    Terminal::with_options(
        CrosstermBackend::new(out),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, size.width, size.height)),
        },
    )
}

/// The player's game (resumed, else a new one) and where it is saved. Problems with
/// their files are told in the game, as the local player does.
fn load(player: &Player, client: &ClientTerminal) -> Result<(App, Files), String> {
    let dir = &player.dir;
    let mut notes: Vec<String> = Vec::new();
    if let Err(e) = std::fs::create_dir_all(dir) {
        notes.push(format!(
            "Your folder could not be made ({e}); nothing will be saved"
        ));
    }
    let game_file = save::game_path(dir);
    let stats_file = stats_path(dir);
    save::remove_stale_temps(&game_file);
    save::remove_stale_temps(&stats_file);
    let mut save_to = Some(game_file.clone());
    let mut resumed = None;
    match save::load(&game_file) {
        Loaded::Game(g, _) => resumed = Some(*g),
        Loaded::Corrupt { reason, .. } => notes.push(format!(
            "Your saved game could not be read ({reason}); it was kept aside."
        )),
        Loaded::Unreadable { reason } => {
            notes.push(format!(
                "Your saved game could not be read ({reason}); this game will not be saved."
            ));
            save_to = None;
        }
        Loaded::Nothing => {}
    }
    let utf8 = client.utf8();
    let fresh = || Game::new(builtin::puzzle(Variant::Standard));
    let app = match resumed {
        Some((game, cursor, pencil)) => {
            App::new(game, Config::default(), utf8, false).map(|mut a| {
                a.cursor = cursor;
                a.pencil = pencil;
                a.message = Some(Message {
                    text: "Welcome back: your game was resumed.".into(),
                    tone: Tone::Info,
                });
                a
            })
        }
        None => App::new(fresh(), Config::default(), utf8, false).map(|mut a| {
            a.start_fresh();
            a
        }),
    }
    .or_else(|_| App::new(fresh(), Config::default(), utf8, false))
    .map_err(|e| e.to_string())?;
    let mut app = app;
    app.set_seed(seed());
    match Stats::load(&stats_file) {
        Ok((s, _)) => app.menus.stats = s,
        Err(e) => notes.push(format!("Your stats could not be read: {e}.")),
    }
    if let Ok((profile, _)) = Profile::load(&crate::game::profile::profile_path(dir)) {
        app.profile = profile;
    }
    app.menus.state = Some(dir.clone());
    if let Some(text) = notes.pop() {
        app.message = Some(Message {
            text,
            tone: Tone::Warning,
        });
    }
    let files = Files {
        game: save_to,
        stats: Some(stats_file),
        banner: None,
    };
    Ok((app, files))
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
