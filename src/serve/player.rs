//! One player's session: their game loaded from their folder, the player's loop run on
//! the remote terminal on a thread of its own (so nothing the game does, a slow hint
//! included, holds up the server), and the rule that the newest session of a key wins.

use super::config::Limits;
use super::console::{ChannelOut, RemoteConsole};
use super::daily::{Dailies, SessionDaily};
use super::hints::HintPool;
use super::limits::Control;
use super::store::{NameTaken, PlayerStore, Store, StoreError};
use crate::game::daily::Day;
use crate::game::save::SaveFile;
use crate::game::{builtin, Game};
use crate::puzzle::Variant;
use crate::tui::account::{self, Account, AccountStore, Options};
use crate::tui::app::{App, Message, Record, Tone};
use crate::tui::daily::DailyService;
use crate::tui::effects::Effects;
use crate::tui::{config::Config, Files, Keeper};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::{cursor, event, execute, terminal};
use ratatui::layout::{Rect, Size};
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Who is playing: the key's fingerprint names the player.
#[derive(Clone, Debug)]
pub struct Player {
    /// As OpenSSH prints it (`SHA256:...`): the player's name in the store and the logs.
    /// A guest's is `guest-N`, unique while the server runs.
    pub fingerprint: String,
    /// Signed in without a key: nothing is kept.
    pub guest: bool,
}

/// What a guest is told while playing (whenever no other message shows).
pub const GUEST_NOTE: &str =
    "You are a guest: nothing is kept. Connect with an SSH key to keep your games.";

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
    /// Ends the session, with the reason the player is told.
    control: Arc<Control>,
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
    active: Mutex<HashMap<String, Active>>,
    next_id: AtomicU64,
    /// Raised at shutdown: every session saves and ends.
    pub shutdown: Arc<AtomicBool>,
}

/// How long a new session waits for the one it takes over to save and go.
const TAKEOVER_WAIT: Duration = Duration::from_secs(5);
/// How often a session asks the database whether a newer one (perhaps on another server)
/// took over; a write in between finds out at once.
const OWNER_CHECK: Duration = Duration::from_secs(1);

/// What a session tells the player when a newer one took its place.
pub const TAKEN_OVER: &str =
    "termdoku: this game was opened from another connection with your key; this one is closed.";

impl Sessions {
    /// Registers a session of `player`, ending the one already running (which saves
    /// first): the newer session wins.
    fn enter(&self, player: &Player, control: &Arc<Control>) -> (u64, Arc<Done>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let done = Arc::new(Done::default());
        let older = {
            let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
            active.insert(
                player.fingerprint.clone(),
                Active {
                    id,
                    control: Arc::clone(control),
                    done: Arc::clone(&done),
                },
            )
        };
        if let Some(old) = older {
            tracing::info!(player = %player.fingerprint, "newer session takes over");
            old.control.end(TAKEN_OVER);
            if !old.done.wait(TAKEOVER_WAIT) {
                tracing::warn!(player = %player.fingerprint, "older session did not end in time");
            }
        }
        (id, done)
    }

    /// How many sessions are running.
    pub fn count(&self) -> usize {
        self.active.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn leave(&self, player: &Player, id: u64) {
        let mut active = self.active.lock().unwrap_or_else(|e| e.into_inner());
        if active.get(&player.fingerprint).is_some_and(|a| a.id == id) {
            active.remove(&player.fingerprint);
        }
    }
}

/// What a session runs with, besides its terminal.
pub struct SessionContext<'a> {
    pub store: &'a dyn Store,
    pub sessions: &'a Sessions,
    pub limits: &'a Limits,
    pub hints: Option<Arc<HintPool>>,
    /// The daily puzzles (none: no daily entry in the menu).
    pub dailies: Option<Arc<Dailies>>,
}

/// Runs one player's session to its end on the calling thread (not an async one): loads
/// their game, plays until quit, hang-up, takeover, a limit or shutdown, saves, and
/// closes the channel.
pub fn run(
    cx: &SessionContext,
    player: &Player,
    client: &ClientTerminal,
    control: &Arc<Control>,
    mut console: RemoteConsole,
    out: ChannelOut,
) {
    let sessions = cx.sessions;
    let (id, done) = sessions.enter(player, control);
    let stop_all = Arc::clone(&sessions.shutdown);
    // The player's store once loaded, for the watcher to ask who owns the player.
    let kept: Arc<OnceLock<Arc<StoreKeeper>>> = Arc::default();
    // A watcher ends the loop at shutdown, when the session is idle or too long, or when
    // a newer session took the player over.
    let watcher = {
        let control = Arc::clone(control);
        let done = Arc::clone(&done);
        let limits = cx.limits.clone();
        let kept = Arc::clone(&kept);
        std::thread::spawn(move || {
            let mut checked = Instant::now();
            while !done.wait(Duration::from_millis(200)) {
                if stop_all.load(Ordering::Relaxed) {
                    control.end("termdoku: the server is stopping; your game is saved.");
                }
                control.check_time(&limits);
                if let Some(keeper) = kept.get().filter(|_| checked.elapsed() >= OWNER_CHECK) {
                    checked = Instant::now();
                    keeper.check_owner();
                }
            }
        })
    };
    let stop = &control.stop;
    let started = load(cx.store, cx.dailies.as_ref(), player, client, control).and_then(
        |(app, files, keeper)| {
            if let Some(keeper) = keeper {
                let _ = kept.set(keeper);
            }
            let mouse = app.config.display.mouse;
            let term = open_terminal(out, client.size, mouse).map_err(|e| e.to_string())?;
            Ok((term, (app, files)))
        },
    );
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
    let effects = match &cx.hints {
        Some(pool) => Effects::with_runner(Box::new(pool.runner())),
        None => Effects::default(),
    };
    let result = crate::tui::play_on(&mut app, &files, &mut term, &mut console, effects, stop);
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
    if let Some(why) = control.reason() {
        tracing::info!(player = %player.fingerprint, reason = %why, "session ended by the server");
        let _ = write!(out, "\r\n{why}\r\n");
    } else if let Some(text) = app.farewell() {
        // An export or a deletion: printed on the player's own screen, where it can be
        // copied (or kept with the terminal's log).
        let _ = write!(out, "\r\n{text}\r\n");
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
/// their data are told in the game, as the local player does.
fn load(
    store: &dyn Store,
    dailies: Option<&Arc<Dailies>>,
    player: &Player,
    client: &ClientTerminal,
    control: &Arc<Control>,
) -> Result<(App, Files, Option<Arc<StoreKeeper>>), String> {
    let mut notes: Vec<String> = Vec::new();
    // Nothing is opened for a guest: opening makes the player's row.
    let opened = (!player.guest).then(|| store.open(&player.fingerprint));
    let mut kept = match opened {
        None => None,
        Some(Ok(p)) => Some(p),
        Some(Err(e)) => {
            tracing::warn!(player = %player.fingerprint, error = %e, "store");
            notes.push("Your saves could not be opened; nothing will be saved".into());
            None
        }
    };
    let mut resumed = None;
    if let Some(p) = kept.as_mut() {
        match p.load_game().map(|g| g.map(SaveFile::into_game)) {
            Ok(Some(Ok(g))) => resumed = Some(g),
            Ok(None) => {}
            Ok(Some(Err(reason))) => notes.push(format!(
                "Your saved game could not be read ({reason}); a new game replaces it."
            )),
            Err(e) => {
                tracing::warn!(player = %player.fingerprint, error = %e, "store");
                notes
                    .push("Your saved game could not be read; this game will not be saved.".into());
                kept = None;
            }
        }
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
    let mut name = None;
    let mut options = Options::default();
    if let Some(p) = kept.as_mut() {
        match p.load_account() {
            Ok((n, o)) => (name, options) = (n, o),
            Err(e) => {
                tracing::warn!(player = %player.fingerprint, error = %e, "store");
                notes.push("Your options could not be read; the defaults apply.".into());
            }
        }
    }
    account::apply(&mut app, &options, utf8);
    app.account = Some(Account::new(name, options, player.guest));
    if let Some(p) = kept.as_mut() {
        match p.load_stats() {
            Ok((stats, profile)) => {
                app.menus.stats = stats;
                app.profile = profile;
            }
            Err(e) => {
                tracing::warn!(player = %player.fingerprint, error = %e, "store");
                notes.push("Your stats could not be read.".into());
            }
        }
    }
    if let Some(text) = notes.pop() {
        app.message = Some(Message {
            text,
            tone: Tone::Warning,
        });
    }
    let keeper = kept.map(|p| {
        Arc::new(StoreKeeper {
            store: Mutex::new(p),
            deleted: AtomicBool::new(false),
            fingerprint: player.fingerprint.clone(),
            control: Arc::clone(control),
        })
    });
    let owner = keeper.clone();
    let daily = dailies.map(|dailies| {
        let mut d = crate::tui::daily::Daily::new(Day::today());
        // A resumed daily is still ranked when solved.
        d.playing = dailies.which(app.game.puzzle(), Day::today());
        app.daily = Some(d);
        Arc::new(SessionDaily {
            dailies: Arc::clone(dailies),
            keeper: keeper.clone(),
            fingerprint: player.fingerprint.clone(),
            guest: player.guest,
        }) as Arc<dyn DailyService>
    });
    let files = match keeper {
        Some(keeper) => {
            Files {
                // Only named in a message when saving fails.
                game: Some(PathBuf::from("the server's database")),
                stats: None,
                banner: None,
                keeper: Some(keeper.clone() as Arc<dyn Keeper>),
                account: Some(keeper as Arc<dyn AccountStore>),
                daily,
            }
        }
        None => Files {
            game: None,
            stats: None,
            banner: Some(if player.guest {
                GUEST_NOTE.into()
            } else {
                "Your game is not being saved.".into()
            }),
            keeper: None,
            account: None,
            daily,
        },
    };
    Ok((app, files, owner))
}

/// The player's store as the player's background writer, account and daily screens
/// call it.
pub struct StoreKeeper {
    store: Mutex<Box<dyn PlayerStore>>,
    /// The player deleted their data: nothing is written any more.
    deleted: AtomicBool,
    fingerprint: String,
    /// Ends the session when a newer one took the player over.
    control: Arc<Control>,
}

impl StoreKeeper {
    pub(super) fn store(&self) -> std::sync::MutexGuard<'_, Box<dyn PlayerStore>> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A store error, logged; the player is told it was the server's.
    fn failed(&self, e: &StoreError) -> String {
        if self.lost(e) {
            return TAKEN_OVER.into();
        }
        tracing::warn!(player = %self.fingerprint, error = %e, "store");
        "the server could not do it; please try again later.".into()
    }

    /// Whether the error says a newer session owns the player; if so this one ends.
    fn lost(&self, e: &StoreError) -> bool {
        let lost = matches!(e, StoreError::TakenOver { .. });
        if lost {
            self.taken_over();
        }
        lost
    }

    /// What the player is told when the error says a newer session took over (this one
    /// then ends); None for any other error.
    pub(super) fn refusal(&self, e: &StoreError) -> Option<String> {
        self.lost(e).then(|| TAKEN_OVER.to_string())
    }

    /// Ends the session: a newer one (here or on another server) owns the player.
    fn taken_over(&self) {
        if self.control.reason().is_none() {
            tracing::info!(player = %self.fingerprint, "a newer session took over");
        }
        self.control.end(TAKEN_OVER);
    }

    /// A write: refused (and the session ended) once a newer session owns the player.
    fn write(
        &self,
        write: impl FnOnce(&mut dyn PlayerStore) -> Result<(), StoreError>,
    ) -> std::io::Result<()> {
        let mut p = self.store();
        if self.deleted.load(Ordering::SeqCst) {
            return Ok(());
        }
        match write(p.as_mut()) {
            Ok(()) => Ok(()),
            // Not an error the player needs: the session is ending.
            Err(e) if self.lost(&e) => Ok(()),
            Err(e) => Err(std::io::Error::other(e)),
        }
    }

    /// Ends the session if a newer one (on any server) owns the player.
    fn check_owner(&self) {
        let mut p = self.store();
        if self.deleted.load(Ordering::SeqCst) {
            return;
        }
        match p.is_current() {
            Ok(true) => {}
            Ok(false) => self.taken_over(),
            // Asked again next time; a write would fail the same way and say so.
            Err(e) => tracing::debug!(player = %self.fingerprint, error = %e, "owner check"),
        }
    }
}

impl Keeper for StoreKeeper {
    fn save_game(&self, save: &SaveFile) -> std::io::Result<()> {
        self.write(|p| p.save_game(save))
    }

    fn save_records(&self, records: &[Record]) -> std::io::Result<()> {
        self.write(|p| p.add_records(records))
    }
}

impl AccountStore for StoreKeeper {
    fn save_options(&self, options: &Options) -> Result<(), String> {
        let r = self.store().save_options(options);
        r.map_err(|e| self.failed(&e))
    }

    fn set_name(&self, name: &str) -> Result<(), String> {
        let r = self.store().set_name(name);
        match r {
            Ok(Ok(())) => {
                tracing::info!(player = %self.fingerprint, name, "display name set");
                Ok(())
            }
            Ok(Err(NameTaken)) => Err(format!(
                "`{name}` is taken (names are the same whatever their case); choose another."
            )),
            Err(e) => Err(self.failed(&e)),
        }
    }

    fn export(&self) -> Result<String, String> {
        let r = self.store().export();
        tracing::info!(player = %self.fingerprint, ok = r.is_ok(), "data exported");
        r.map_err(|e| self.failed(&e))
    }

    fn delete(&self) -> Result<(), String> {
        // Held across the flag, so no save slips in after the rows are gone.
        let mut p = self.store();
        let r = p.delete();
        if r.is_ok() {
            self.deleted.store(true, Ordering::SeqCst);
            tracing::info!(player = %self.fingerprint, "data deleted");
        }
        drop(p);
        r.map_err(|e| self.failed(&e))
    }
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
