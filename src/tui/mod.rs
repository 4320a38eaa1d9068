//! The full-screen player: configuration, start-up (resume or new game), the event loop,
//! and the terminal. This is the only module that touches the terminal.

pub mod account;
pub mod app;
pub mod config;
pub mod daily;
pub mod effects;
pub mod keys;
pub mod menu;
pub mod mouse;
pub mod theme;
pub mod view;
pub mod writer;

use crate::game::profile::Profile;
use crate::game::save::{self, Loaded, Locked, SaveFile, StateLock};
use crate::game::stats::{stats_path, Stats};
use crate::game::{builtin, library, Game};
use crate::puzzle::{Puzzle, Variant};
use app::{App, Message, Record, Tone};
use keys::Key;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::{cursor, execute, terminal};
use ratatui::Terminal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use writer::Writer;

/// What `termdoku [play]` was asked for.
#[derive(Clone, Debug, Default)]
pub struct PlayArgs {
    /// A puzzle file or line-format string.
    pub puzzle: Option<String>,
    pub variant: Option<Variant>,
    pub difficulty: Option<String>,
    /// The grid side of a new game (default 9).
    pub size: Option<usize>,
    /// Which puzzle (1-based) of a file of several.
    pub index: Option<usize>,
    /// A position with pencil marks to start from (`play --marks`/`--placed`).
    pub start: Option<crate::coach::marks::Position>,
    /// `termdoku train [TECHNIQUE]`: open the trainer (on that technique's drills, else
    /// its picker) over the game resumed.
    pub train: Option<TrainArgs>,
}

/// What `termdoku train` asked for.
#[derive(Clone, Copy, Debug)]
pub struct TrainArgs {
    pub technique: Option<&'static crate::solver::logic::TechniqueInfo>,
    pub variant: Option<Variant>,
}

/// The puzzle of `play PUZZLE`: a line-format string, or puzzle `--index` (else the one last
/// played, else the first) of a file; with the file and index when it is a file.
fn open_puzzle(arg: &str, args: &PlayArgs) -> Result<(Puzzle, Option<Opened>), String> {
    let variant = args.variant.unwrap_or_default();
    let path = Path::new(arg);
    if std::fs::symlink_metadata(path).is_err() {
        if args.index.is_some() {
            return Err(format!("{arg}: --index needs a puzzle file"));
        }
        return crate::format::load_puzzle(arg, variant)
            .map(|p| (p, None))
            .map_err(|e| e.to_string());
    }
    // A FIFO or device may never end: refused before anything opens it.
    crate::format::regular_file_size(path).map_err(|e| e.to_string())?;
    let list = crate::format::load_file(path, variant).map_err(|e| e.to_string())?;
    let remembered = save::state_dir().and_then(|d| library::last_index(&d, path));
    let all = list.clone();
    let (p, i) = library::choose(list, arg, args.index, remembered)?;
    Ok((p, Some((path.to_path_buf(), i, all))))
}

/// A file opened at start: its path, the 1-based index played and all its puzzles.
type Opened = (PathBuf, usize, Vec<Puzzle>);

/// Why `play` refuses to start without a terminal.
pub const NO_TERMINAL: &str = "play needs a terminal (stdin and stdout must be a TTY)";
/// Why `play` refuses a terminal that cannot move its cursor (Emacs' shell, some CI logs).
pub const DUMB_TERMINAL: &str = "play needs a terminal that can move its cursor, and TERM=dumb \
     says this one cannot: run it in a terminal emulator, or set TERM (e.g. TERM=xterm-256color)";

/// Runs the player; returns the process exit status. Configuration and puzzle errors, and
/// a missing terminal, are reported before anything is written or the screen switches.
pub fn play(args: PlayArgs) -> i32 {
    let config_dir = save::config_dir();
    let config = match config::load(config_dir.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return 2;
        }
    };
    let mut fresh = None;
    // The file and index opened from a file of several puzzles, remembered once the state
    // folder is ours.
    let mut opened: Option<Opened> = None;
    if let Some(arg) = &args.puzzle {
        match open_puzzle(arg, &args) {
            Ok((p, at)) => {
                fresh = Some(p);
                opened = at;
            }
            Err(e) => {
                eprintln!("termdoku: {e}");
                return 2;
            }
        }
    }
    if let Some(why) = unavailable(&args) {
        eprintln!("termdoku: {why}");
        return 2;
    }
    if let Some(clash) = fresh.as_ref().and_then(clash) {
        eprintln!("termdoku: invalid puzzle: {clash}");
        return 1;
    }
    if let Err(why) = has_terminal() {
        eprintln!("termdoku: {why}");
        return 2;
    }
    let state = save::state_dir();
    let mut notes: Vec<(Tone, String)> = Vec::new();
    // Without the folder's lock this player is read-only: it never writes the save or
    // the stats, which belong to the instance holding the lock.
    let mut lock: Option<StateLock> = None;
    let mut banner: Option<String> = None;
    let mut writable_unlocked = false;
    if let Some(dir) = &state {
        match save::lock_state(dir) {
            Ok(Locked::Mine(l)) => lock = Some(l),
            Ok(Locked::Theirs(pid)) => {
                let who = pid.map_or("another termdoku".into(), |p| format!("termdoku pid {p}"));
                banner = Some(format!(
                    "Read-only: {who} is playing from {}; this game will not be saved.",
                    dir.display()
                ));
            }
            Err(e) => {
                // A folder that cannot be written cannot be locked either: play on and
                // save as usual, so the failing saves are reported (and asked about on
                // quit) like a full disk.
                writable_unlocked = true;
                notes.push((
                    Tone::Warning,
                    format!("Could not lock {} ({e}).", dir.display()),
                ));
            }
        }
    }
    if let (Some(dir), Some(_), Some((file, i, _))) = (&state, &lock, &opened) {
        // Losing this memory only means the next start opens the first puzzle.
        let _ = library::remember_index(dir, file, *i);
        notes.push((Tone::Info, format!("Puzzle {i} of {}.", file.display())));
    }
    let writes = lock.is_some() || writable_unlocked;
    let game_file = state.as_deref().map(save::game_path);
    let mut save_path = game_file.clone().filter(|_| writes);
    let stats = state.as_deref().map(stats_path).filter(|_| writes);
    let mut shown_stats = crate::game::stats::Stats::new();
    // Only the lock's holder may remove temporaries: another player may be writing one.
    if let Some(p) = save_path.as_ref().filter(|_| lock.is_some()) {
        save::remove_stale_temps(p);
    }
    if let Some(p) = &stats {
        if lock.is_some() {
            save::remove_stale_temps(p);
        }
        match Stats::load(p) {
            Ok((_, Some(aside))) => notes.push((
                Tone::Warning,
                format!(
                    "The stats could not be read; they were kept as {} and start afresh.",
                    aside.display()
                ),
            )),
            Ok((s, None)) => shown_stats = s,
            Err(e) => notes.push((Tone::Warning, format!("The stats could not be read: {e}."))),
        }
    }
    let mut resumed = None;
    let mut resumed_from: Option<save::SavedSource> = None;
    let mut start = args.start.clone();
    let mut config = config;
    if let Some(pos) = &start {
        fresh = Some(pos.puzzle.clone());
        // The position's own marks, not freshly filled ones.
        config.game.fill_candidates_on_start = false;
    }
    if fresh.is_none()
        && (args.variant.is_some() || args.difficulty.is_some() || args.size.is_some())
    {
        let variant = args.variant.unwrap_or_default();
        let difficulty = args.difficulty.as_deref().unwrap_or("any");
        let size = args.size.unwrap_or(9);
        let (p, n) = library::pick(variant, size, difficulty, seed());
        notes.push((Tone::Info, format!("New {variant} game: {n}.")));
        fresh = Some(p);
    } else if fresh.is_none() {
        let loaded = match (&game_file, writes) {
            (Some(p), true) => save::load(p),
            (Some(p), false) => save::load_read_only(p),
            (None, _) => Loaded::Nothing,
        };
        match loaded {
            Loaded::Game(g, source) => {
                resumed_from = source;
                resumed = Some(*g);
            }
            Loaded::Corrupt { reason, moved_to } => {
                let text = format!(
                    "The saved game could not be read ({reason}); it was kept as {}.",
                    moved_to.display()
                );
                eprintln!("termdoku: {text}");
                notes.push((Tone::Warning, text));
            }
            Loaded::Unreadable { reason } => {
                let text = format!("The saved game could not be read ({reason}); it is left alone and this game will not be saved.");
                eprintln!("termdoku: {text}");
                notes.push((Tone::Warning, text));
                save_path = None;
            }
            Loaded::Nothing => {}
        }
        if resumed.is_none() {
            fresh = Some(builtin::puzzle(Variant::Standard));
        }
    }
    let utf8 = theme::locale_is_utf8();
    let no_color = theme::no_color_requested();
    let built = match (fresh, resumed) {
        (Some(p), _) => App::new(
            start
                .take()
                .map_or_else(|| Game::new(p), |pos| pos.into_game()),
            config,
            utf8,
            no_color,
        )
        .map(|mut a| {
            a.start_fresh();
            a
        }),
        (None, Some((game, cursor, pencil))) => {
            App::new(game, config, utf8, no_color).map(|mut a| {
                a.cursor = cursor;
                a.pencil = pencil;
                a.message = Some(Message {
                    text: "Welcome back: your game was resumed.".into(),
                    tone: Tone::Info,
                });
                a
            })
        }
        (None, None) => App::new(
            Game::new(builtin::puzzle(Variant::Standard)),
            config,
            utf8,
            no_color,
        ),
    };
    let mut app = match built {
        Ok(a) => a,
        Err(e) => {
            eprintln!("termdoku: config: {e}");
            return 2;
        }
    };
    app.set_seed(seed());
    app.menus.stats = shown_stats;
    if let Some(p) = &stats {
        let path = profile_path(p);
        match Profile::load(&path) {
            Ok((profile, aside)) => {
                app.profile = profile;
                if let Some(aside) = aside {
                    notes.push((
                        Tone::Warning,
                        format!(
                            "The skill profile could not be read; it was kept as {}.",
                            aside.display()
                        ),
                    ));
                }
            }
            Err(e) => notes.push((
                Tone::Warning,
                format!("The profile could not be read: {e}."),
            )),
        }
    }
    app.menus.state = state.clone();
    if let Some((file, index, puzzles)) = opened.filter(|o| o.2.len() > 1) {
        let solved = state
            .as_deref()
            .map(|d| library::solved_in(d, &file))
            .unwrap_or_default();
        app.menus.source = Some(menu::Source {
            file,
            puzzles,
            index,
            solved,
        });
    } else if let Some(from) = resumed_from {
        app.menus.source = menu::Source::reopen(
            Path::new(&from.file),
            from.index,
            app.game.puzzle(),
            state.as_deref(),
        );
    }
    if let Some((tone, text)) = notes.pop() {
        app.message = Some(Message { text, tone });
    }
    if let Some(text) = &banner {
        app.message = Some(Message {
            text: text.clone(),
            tone: Tone::Warning,
        });
    }
    if let Some(t) = args.train {
        open_trainer(&mut app, t);
    }
    let files = Files {
        game: save_path,
        stats,
        banner,
        keeper: None,
        account: None,
        daily: None,
    };
    let status = match run(&mut app, &files) {
        Ok(()) => 0,
        Err(e) => {
            // The terminal may be gone, stderr with it: printing must not panic.
            let _ = writeln!(std::io::stderr(), "termdoku: terminal: {e}");
            1
        }
    };
    drop(lock);
    status
}

/// Why a new game of this variant, size and level cannot be had (none shipped).
fn unavailable(args: &PlayArgs) -> Option<String> {
    if args.puzzle.is_some() {
        return None;
    }
    let size = args.size?;
    let variant = args.variant.unwrap_or_default();
    let sizes = library::sizes(variant);
    if sizes.contains(&size) || variant == Variant::Honeycomb {
        return None;
    }
    let list: Vec<String> = sizes.iter().map(|n| format!("{n}x{n}")).collect();
    Some(format!(
        "no {variant} {size}x{size} puzzles: {variant} comes in {}",
        list.join(", ")
    ))
}

/// Two givens that break a rule, named for the player.
fn clash(p: &Puzzle) -> Option<String> {
    let &(a, b) = p.conflicts().first()?;
    let g = p.geometry();
    Some(format!(
        "the givens clash: {} and {} both hold {}",
        g.cell_name(a),
        g.cell_name(b),
        crate::geometry::digit_char(p.givens[a])
    ))
}

/// Standard input and output are terminals, and not a `dumb` one; else why not.
fn has_terminal() -> Result<(), &'static str> {
    use std::io::IsTerminal;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        Err(NO_TERMINAL)
    } else if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        Err(DUMB_TERMINAL)
    } else {
        Ok(())
    }
}

fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

/// Leaves raw mode and the alternate screen; safe to call more than once.
pub fn restore_terminal() {
    let _ = terminal::disable_raw_mode();
    let mut out = std::io::stdout();
    // Mouse reporting off first: left on, the shell would read clicks as text.
    let _ = execute!(
        out,
        event::DisableMouseCapture,
        terminal::LeaveAlternateScreen,
        cursor::Show
    );
    let _ = out.flush();
}

/// Restores the terminal when dropped (early returns and unwinding panics).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Installs a panic hook that restores the terminal (with `restore`) and reports the panic
/// only for a panic of the thread that calls this. Other threads catch their panics (the
/// hint thread says the hint failed); restoring or printing then would break the game
/// still on screen.
fn install_panic_hook(restore: fn()) {
    let main = std::thread::current().id();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == main {
            restore();
            previous(info);
        }
    }));
}

/// Where this player writes; `None` for a read-only player (or no state folder).
pub struct Files {
    pub game: Option<PathBuf>,
    pub stats: Option<PathBuf>,
    /// Shown whenever no other message is (a read-only player says why).
    pub banner: Option<String>,
    /// Where the game and records go instead of the files (the server's database); `game`
    /// then only names it in messages.
    pub keeper: Option<Arc<dyn Keeper>>,
    /// A served player's account (options, name, export, deletion).
    pub account: Option<Arc<dyn account::AccountStore>>,
    /// A served player's daily puzzles and leaderboard.
    pub daily: Option<Arc<dyn daily::DailyService>>,
}

/// Keeps a player's game and records somewhere other than the files (`serve`'s store).
/// Called on the background writer's thread, one call at a time per player.
pub trait Keeper: Send + Sync {
    /// Saves the game as it stands (undo history included).
    fn save_game(&self, save: &SaveFile) -> std::io::Result<()>;
    /// Adds the records to the player's stats and skill profile.
    fn save_records(&self, records: &[Record]) -> std::io::Result<()>;
}

/// The player's side of the background writer: what it has asked for, and the warning
/// it keeps on screen while saves fail.
struct Saver<'a> {
    files: &'a Files,
    writer: Writer,
    /// The last save asked for.
    last: u64,
    warned: bool,
}

impl<'a> Saver<'a> {
    /// A saver that has saved the game at once, so a crash before the first key still
    /// resumes it.
    fn start(files: &'a Files, app: &mut App) -> Saver<'a> {
        let mut saver = Saver {
            files,
            writer: Writer::new(),
            last: 0,
            warned: false,
        };
        saver.save(app);
        saver.write_records(app);
        saver
    }

    /// Whatever ended the loop (quit, signal, a dead terminal), the game is saved, within
    /// the second a signal allows.
    fn finish(&mut self, app: &mut App) {
        if !(app.quit && app.quit_prompt) {
            self.save(app);
        }
        self.write_records(app);
        self.flush(&AtomicBool::new(false), Duration::from_millis(900));
    }

    fn save(&mut self, app: &mut App) {
        app.dirty = false;
        let Some(path) = &self.files.game else {
            return;
        };
        // The previous move's save first: with at most one save in flight, a crash or a
        // kill loses at most the last move, however far behind a loaded disk or database
        // falls (without this wait the writer's coalescing let a killed server under load
        // lose several). Saves take milliseconds, so a key rarely waits; a stuck disk
        // holds each key at most this long, and then its warning shows.
        self.writer.wait(self.last, SAVE_BEFORE_NEXT);
        // While training, the save keeps the game put aside, not the drill.
        let (game, cursor, pencil) = app.saved_game();
        let mut file = SaveFile::from_game(game, cursor, pencil);
        if let Some(src) = &app.menus.source {
            file = file.with_source(&src.file, src.index);
        }
        if let Some(keeper) = &self.files.keeper {
            let keeper = Arc::clone(keeper);
            self.last = self.writer.submit(
                Some(path.clone()),
                Box::new(move || keeper.save_game(&file)),
            );
            return;
        }
        let to = path.clone();
        self.last = self.writer.submit(
            Some(path.clone()),
            Box::new(move || {
                let json = file.to_json().map_err(std::io::Error::other)?;
                save::write_atomic(&to, json.as_bytes())
            }),
        );
    }

    fn write_records(&mut self, app: &mut App) {
        if app.records.is_empty() {
            return;
        }
        let records: Vec<Record> = app.records.drain(..).collect();
        // The statistics screen shows what the file will hold.
        for r in &records {
            tally(&mut app.menus.stats, r);
        }
        if let Some(keeper) = &self.files.keeper {
            let keeper = Arc::clone(keeper);
            self.writer
                .submit(None, Box::new(move || keeper.save_records(&records)));
            return;
        }
        let Some(path) = self.files.stats.clone() else {
            return;
        };
        self.writer.submit(
            None,
            Box::new(move || {
                // A corrupt file is moved aside (the player was told at start).
                let (mut stats, _) = Stats::load(&path).map_err(std::io::Error::other)?;
                let state = path.parent().unwrap_or(Path::new("."));
                for r in &records {
                    tally(&mut stats, r);
                    // Losing these only costs the picker its memory.
                    match r {
                        Record::Opened { file, index } => {
                            let _ = library::remember_index(state, file, *index);
                        }
                        Record::SolvedInFile { file, index } => {
                            let _ = library::remember_solved(state, file, *index);
                        }
                        _ => {}
                    }
                }
                stats.save(&path)?;
                save_profile(&path, &records)
            }),
        );
    }

    /// Waits for the last save; gives up early when `stop` is raised (a signal must end
    /// the player within a second whatever the disk does).
    fn flush(&self, stop: &AtomicBool, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.writer.wait(self.last, Duration::from_millis(50)) {
                return true;
            }
            if stop.load(Ordering::Relaxed) {
                return false;
            }
        }
        false
    }

    /// Why the last save failed, while saves fail.
    fn failure(&self) -> Option<String> {
        let game = self.files.game.as_ref()?;
        self.writer.failure(Some(game))
    }

    /// Keeps the warning (or the read-only banner) in the status line.
    fn show_status(&mut self, app: &mut App) {
        match (self.failure(), &self.files.game) {
            (Some(e), Some(path)) if !app.quit_prompt => {
                self.warned = true;
                app.message = Some(Message {
                    tone: Tone::Warning,
                    text: format!(
                        "Not saved: {e}. The last good save is {}; saving is retried on every move.",
                        path.display()
                    ),
                });
            }
            (None, _) if self.warned => {
                self.warned = false;
                app.message = Some(Message {
                    tone: Tone::Info,
                    text: "Saved again.".into(),
                });
            }
            _ => {}
        }
        if app.message.is_none() {
            if let Some(b) = &self.files.banner {
                app.message = Some(Message {
                    tone: Tone::Warning,
                    text: b.clone(),
                });
            }
        }
    }

    /// On a quit key: true when the player may go (everything saved, or the player chose
    /// to quit anyway); otherwise the player is asked.
    fn may_quit(&mut self, app: &mut App, stop: &AtomicBool) -> bool {
        if app.quit_prompt && !app.retry_save {
            return true;
        }
        app.retry_save = false;
        self.save(app);
        self.flush(stop, Duration::from_secs(10));
        let Some(e) = self.failure() else {
            return true;
        };
        let path = self.files.game.as_deref().unwrap_or(Path::new("game.json"));
        app.quit = false;
        app.quit_prompt = true;
        app.message = Some(Message {
            tone: Tone::Warning,
            text: format!(
                "Your last moves are not saved ({e}). r: retry; q: quit anyway (the last good save is {}); esc: play on.",
                path.display()
            ),
        });
        false
    }
}

/// Counts a record in the stats.
pub fn tally(stats: &mut Stats, r: &Record) {
    match r {
        Record::Started(kind) => stats.record_start(kind),
        Record::Solved {
            ms,
            assisted,
            kind,
            hints,
            ..
        } => {
            stats.record_game_solve(kind, *ms, *assisted, *hints);
        }
        Record::Opened { .. }
        | Record::SolvedInFile { .. }
        | Record::Drill { .. }
        | Record::HintNeeded(_)
        | Record::Run(_) => {}
    }
}

/// The skill profile's file: beside the stats file.
fn profile_path(stats: &Path) -> PathBuf {
    crate::game::profile::profile_path(stats.parent().unwrap_or(Path::new(".")))
}

/// Writes the trainer's and hints' records into the profile beside the stats file (the
/// same lock covers it); nothing to write, no write.
fn save_profile(stats: &Path, records: &[Record]) -> std::io::Result<()> {
    let mine = |r: &&Record| {
        matches!(
            r,
            Record::Drill { .. } | Record::HintNeeded(_) | Record::Run(_)
        )
    };
    if !records.iter().any(|r| mine(&r)) {
        return Ok(());
    }
    let at = profile_path(stats);
    // A corrupt file is moved aside (the player was told at start).
    let (mut profile, _) = Profile::load(&at).map_err(std::io::Error::other)?;
    for r in records.iter().filter(mine) {
        note_in_profile(&mut profile, r);
    }
    profile.save(&at)
}

/// Counts a trainer or hint record in the profile.
pub fn note_in_profile(profile: &mut Profile, r: &Record) {
    match r {
        Record::Drill {
            technique,
            solved,
            ms,
        } => profile.record_drill(technique, *solved, *ms),
        Record::HintNeeded(id) => profile.record_hint(id),
        Record::Run(run) => profile.run = run.clone(),
        _ => {}
    }
}

/// Opens the trainer as `termdoku train` asked: a technique's run (resumed when the open
/// run is that one), else the picker.
fn open_trainer(app: &mut App, t: TrainArgs) {
    let variant = t.variant.unwrap_or_else(|| app.game.puzzle().variant());
    match t.technique {
        Some(tech) => {
            let results = app
                .profile
                .run
                .as_ref()
                .filter(|r| r.technique == tech.id && r.variant == variant.name())
                .map(|r| r.results.clone())
                .unwrap_or_default();
            app.start_run(tech, variant, results);
        }
        None => {
            app.open_train_menu_on(variant);
        }
    }
}

/// The event loop with its terminal, saving through a background writer.
pub fn run(app: &mut App, files: &Files) -> std::io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        let _ = signal_hook::flag::register(sig, Arc::clone(&stop));
    }
    let mut saver = Saver::start(files, app);
    install_panic_hook(restore_terminal);
    let mouse = app.config.display.mouse;
    let result = with_terminal(mouse, |term| {
        event_loop(
            app,
            term,
            &mut LocalConsole,
            effects::Effects::default(),
            &mut saver,
            &stop,
        )
    });
    saver.finish(app);
    result
}

/// The player on a terminal other than this process's own (an SSH session): events come
/// from `console`, the screen is drawn on `term`, and the loop ends on a quit, a hang-up
/// or when `stop` is raised. The caller sets up and restores that terminal.
pub fn play_on<W: Write, C: Console>(
    app: &mut App,
    files: &Files,
    term: &mut Terminal<CrosstermBackend<W>>,
    console: &mut C,
    effects: effects::Effects,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut saver = Saver::start(files, app);
    let result = event_loop(app, term, console, effects, &mut saver, stop);
    saver.finish(app);
    result
}

fn with_terminal<T>(
    mouse: bool,
    f: impl FnOnce(&mut Terminal<CrosstermBackend<std::io::Stdout>>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    terminal::enable_raw_mode()?;
    let _guard = TerminalGuard;
    execute!(
        std::io::stdout(),
        terminal::EnterAlternateScreen,
        cursor::Hide
    )?;
    if mouse {
        execute!(std::io::stdout(), event::EnableMouseCapture)?;
    }
    // Never dropped: ratatui's drop prints to stderr when the cursor cannot be shown (a
    // dead terminal), and printing to a dead stderr panics. `TerminalGuard` restores.
    let mut term =
        std::mem::ManuallyDrop::new(Terminal::new(CrosstermBackend::new(std::io::stdout()))?);
    f(&mut term)
}

/// How long a key waits for slow work (a hint) before play goes on and the answer shows
/// when it comes: most hints take far less, and then show with no message in between.
const HINT_WAIT: Duration = Duration::from_millis(150);
/// How long a move's save waits for the previous one (see `save`).
const SAVE_BEFORE_NEXT: Duration = Duration::from_secs(1);

fn event_loop<W: Write, C: Console>(
    app: &mut App,
    term: &mut Terminal<CrosstermBackend<W>>,
    console: &mut C,
    mut effects: effects::Effects,
    saver: &mut Saver,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut last = Instant::now();
    let mut redraw = true;
    let mut shown_second = u64::MAX;
    let mut shown_size = console.size()?;
    loop {
        if app.quit && saver.may_quit(app, stop) {
            return Ok(());
        }
        saver.show_status(app);
        // A local terminal's resize (SIGWINCH) does not make standard input readable, so
        // the size is checked on every wake-up too: a help page or a solved game, where
        // no clock ticks, still follows the window within `wait`'s timeout.
        redraw |= fit(term, console, &mut shown_size)?;
        let second = app.game.elapsed_ms / 1000;
        if redraw || second != shown_second {
            term.draw(|f| view::draw(app, f.area(), f.buffer_mut()))?;
            shown_second = second;
            redraw = false;
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        match console.wait(250) {
            Input::HangUp => return Ok(()),
            Input::Idle => {}
            Input::Ready => {
                // Drain what the console has (it may hold several events from one read),
                // checking for a hang-up before each call.
                while let Some(ev) = console.next_event()? {
                    // The previous keystroke is on disk before this one is handled, so a
                    // kill loses at most one; a person typing never waits here, as the
                    // save finished long before the next key.
                    saver.flush(stop, Duration::from_secs(10));
                    match ev {
                        Event::Key(k) if k.kind != KeyEventKind::Release => {
                            if let Some(key) = convert(k) {
                                let changed = app.handle_key(key);
                                app.serve_account(saver.files.account.as_ref());
                                redraw |= app.serve_daily(saver.files.daily.as_ref());
                                let worked = effects::carry_out(app, &mut effects, HINT_WAIT);
                                redraw |= changed.max(worked) != app::Changed::Nothing;
                            }
                        }
                        Event::Mouse(m) => {
                            if let Some(m) = mouse::convert(m) {
                                let size = console.size()?;
                                let area =
                                    ratatui::layout::Rect::new(0, 0, size.width, size.height);
                                redraw |= app.handle_mouse(m, area);
                                app.serve_account(saver.files.account.as_ref());
                                redraw |= app.serve_daily(saver.files.daily.as_ref());
                                let worked = effects::carry_out(app, &mut effects, HINT_WAIT);
                                redraw |= worked != app::Changed::Nothing;
                            }
                        }
                        Event::Resize(..) => {
                            // The size the console reports now, not the event's: in a
                            // storm of resizes only the last one matters.
                            redraw |= fit(term, console, &mut shown_size)?;
                        }
                        _ => {}
                    }
                    if app.dirty {
                        saver.save(app);
                        // What the screen shows is on disk: the move's save ends before it
                        // is drawn (the next key would wait for it anyway). A stuck disk
                        // holds the draw at most this long; its warning then shows.
                        saver.flush(stop, SAVE_BEFORE_NEXT);
                    }
                    // In a burst (a paste, keys held down) every key is still drawn.
                    if redraw {
                        saver.show_status(app);
                        term.draw(|f| view::draw(app, f.area(), f.buffer_mut()))?;
                        redraw = false;
                    }
                    if app.quit || stop.load(Ordering::Relaxed) || console.wait(0) == Input::HangUp
                    {
                        break;
                    }
                }
            }
        }
        redraw |= effects::deliver(app, &mut effects) != app::Changed::Nothing;
        // A daily puzzle being prepared is asked for again.
        redraw |= app.serve_daily(saver.files.daily.as_ref());
        let now = Instant::now();
        app.tick(now.duration_since(last).as_millis() as u64);
        last = now;
        if app.dirty {
            saver.save(app);
        }
        saver.write_records(app);
    }
}

/// Fits the terminal to the console's size when it changed since `shown`: true when the
/// screen must be drawn again (it was cleared).
fn fit<W: Write, C: Console>(
    term: &mut Terminal<CrosstermBackend<W>>,
    console: &mut C,
    shown: &mut ratatui::layout::Size,
) -> std::io::Result<bool> {
    let size = console.size()?;
    if size == *shown {
        return Ok(false);
    }
    *shown = size;
    term.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
    term.clear()?;
    Ok(true)
}

/// What waiting for the player's input found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Ready,
    Idle,
    /// The terminal is gone (an ssh link dropped, the tmux pane closed).
    HangUp,
}

/// Where the player's events come from and how big its screen is: this process's
/// terminal ([`LocalConsole`]) or a remote one (`serve`).
pub trait Console {
    /// Waits up to `ms` milliseconds for input.
    fn wait(&mut self, ms: i32) -> Input;
    /// The next event already received, without waiting.
    fn next_event(&mut self) -> std::io::Result<Option<Event>>;
    /// The screen's size now.
    fn size(&mut self) -> std::io::Result<ratatui::layout::Size>;
}

/// This process's own terminal, through crossterm.
struct LocalConsole;

impl Console for LocalConsole {
    fn wait(&mut self, ms: i32) -> Input {
        wait_for_input(ms)
    }

    fn next_event(&mut self) -> std::io::Result<Option<Event>> {
        // Crossterm's poll(2) source (feature `use-dev-tty`) does not look at all with a
        // zero timeout; a millisecond returns at once when input is there.
        if event::poll(Duration::from_millis(1))? {
            event::read().map(Some)
        } else {
            Ok(None)
        }
    }

    fn size(&mut self) -> std::io::Result<ratatui::layout::Size> {
        terminal::size().map(|(width, height)| ratatui::layout::Size { width, height })
    }
}

/// Waits up to `ms` for terminal input with poll(2) on standard input (a terminal: `play`
/// checks). Crossterm's own poll spins forever on a hung-up terminal (a read of 0 bytes
/// is retried), so it is only called once the terminal is known to be alive and readable.
#[cfg(unix)]
#[allow(unsafe_code)] // poll(2): no safe wrapper among the dependencies.
fn wait_for_input(ms: i32) -> Input {
    use std::os::fd::AsRawFd;
    let stdin = std::io::stdin();
    let fd = stdin.as_raw_fd();
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, count 1.
    let n = unsafe { libc::poll(&mut pfd, 1, ms) };
    if n < 0 {
        let interrupted = std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
        return if interrupted {
            Input::Idle
        } else {
            Input::HangUp
        };
    }
    if pfd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
        Input::HangUp
    } else if n > 0 {
        Input::Ready
    } else {
        Input::Idle
    }
}

#[cfg(not(unix))]
fn wait_for_input(ms: i32) -> Input {
    match event::poll(Duration::from_millis(ms.max(0) as u64)) {
        Ok(true) => Input::Ready,
        Ok(false) => Input::Idle,
        Err(_) => Input::HangUp,
    }
}

/// Crossterm's key event as the app's own key.
fn convert(k: KeyEvent) -> Option<Key> {
    Some(match k.code {
        KeyCode::Char(c) if k.modifiers.contains(KeyModifiers::CONTROL) => {
            Key::Ctrl(c.to_ascii_lowercase())
        }
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::F(n) => Key::F(n),
        _ => return None,
    })
}

/// The puzzles folder list, re-exported for the command line.
pub fn puzzle_dirs() -> Vec<PathBuf> {
    library::puzzle_dirs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    static RESTORED: AtomicUsize = AtomicUsize::new(0);

    fn count_restore() {
        RESTORED.fetch_add(1, Ordering::SeqCst);
    }

    #[test]
    fn only_a_panic_of_the_main_thread_restores_the_terminal() {
        install_panic_hook(count_restore);
        let other = std::thread::spawn(|| panic!("off the main thread")).join();
        assert!(other.is_err());
        assert_eq!(RESTORED.load(Ordering::SeqCst), 0, "another thread's panic");
        let own = std::panic::catch_unwind(|| panic!("on the main thread"));
        // Back to the default hook before asserting, for the other tests' panics.
        let _ = std::panic::take_hook();
        assert!(own.is_err());
        assert_eq!(
            RESTORED.load(Ordering::SeqCst),
            1,
            "the main thread's panic"
        );
    }

    #[test]
    fn clashing_givens_are_named() {
        let p = crate::format::load_puzzle(
            "55...............................................................................",
            Variant::Standard,
        )
        .unwrap();
        assert_eq!(
            clash(&p).as_deref(),
            Some("the givens clash: r1c1 and r1c2 both hold 5")
        );
    }
}
