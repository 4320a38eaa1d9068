//! The full-screen player: configuration, start-up (resume or new game), the event loop,
//! and the terminal. This is the only module that touches the terminal.

pub mod app;
pub mod config;
pub mod keys;
pub mod theme;
pub mod view;

use crate::game::save::{self, Loaded};
use crate::game::stats::{stats_path, Stats};
use crate::game::{builtin, library, Game};
use crate::puzzle::Variant;
use app::{App, Record, Tone};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use keys::Key;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `termdoku [play]` was asked for.
#[derive(Clone, Debug, Default)]
pub struct PlayArgs {
    /// A puzzle file or line-format string.
    pub puzzle: Option<String>,
    pub variant: Option<Variant>,
    pub difficulty: Option<String>,
}

/// Runs the player; returns the process exit status. Configuration and puzzle errors are
/// printed before the screen switches to full-screen mode.
pub fn play(args: PlayArgs) -> i32 {
    let config_dir = save::config_dir();
    let config = match config::load(config_dir.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return 2;
        }
    };
    let state = save::state_dir();
    let mut save_path = state.as_deref().map(save::game_path);
    let mut note: Option<(Tone, String)> = None;
    let mut resumed = None;
    let fresh = if let Some(arg) = &args.puzzle {
        match crate::format::load_puzzle(arg, args.variant.unwrap_or_default()) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("termdoku: {e}");
                return 2;
            }
        }
    } else if args.variant.is_some() || args.difficulty.is_some() {
        let variant = args.variant.unwrap_or_default();
        let difficulty = args.difficulty.as_deref().unwrap_or("any");
        let (p, n) = library::pick(variant, difficulty, seed());
        note = Some((Tone::Info, format!("New {variant} game: {n}.")));
        Some(p)
    } else {
        match save_path.as_deref().map(save::load) {
            Some(Loaded::Game(g)) => {
                resumed = Some(*g);
                None
            }
            Some(Loaded::Corrupt { reason, moved_to }) => {
                let text = format!(
                    "The saved game could not be read ({reason}); it was kept as {}.",
                    moved_to.display()
                );
                eprintln!("termdoku: {text}");
                note = Some((Tone::Warning, text));
                Some(builtin::puzzle(Variant::Standard))
            }
            Some(Loaded::Unreadable { reason }) => {
                let text = format!("The saved game could not be read ({reason}); it is left alone and this game will not be saved.");
                eprintln!("termdoku: {text}");
                note = Some((Tone::Warning, text));
                save_path = None;
                Some(builtin::puzzle(Variant::Standard))
            }
            Some(Loaded::Nothing) | None => Some(builtin::puzzle(Variant::Standard)),
        }
    };
    let utf8 = theme::locale_is_utf8();
    let no_color = theme::no_color_requested();
    let built = match (fresh, resumed) {
        (Some(p), _) => App::new(Game::new(p), config, utf8, no_color).map(|mut a| {
            a.start_fresh();
            a
        }),
        (None, Some((game, cursor, pencil))) => {
            App::new(game, config, utf8, no_color).map(|mut a| {
                a.cursor = cursor;
                a.pencil = pencil;
                a.message = Some(app::Message {
                    text: "Welcome back: your game was resumed.".into(),
                    tone: Tone::Info,
                });
                a
            })
        }
        (None, None) => unreachable!("either a fresh puzzle or a resumed game"),
    };
    let mut app = match built {
        Ok(a) => a,
        Err(e) => {
            eprintln!("termdoku: config: {e}");
            return 2;
        }
    };
    app.set_seed(seed());
    if let Some((tone, text)) = note {
        app.message = Some(app::Message { text, tone });
    }
    let stats = state.as_deref().map(stats_path);
    match run(&mut app, save_path.as_deref(), stats.as_deref()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("termdoku: terminal: {e}");
            1
        }
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
    let _ = execute!(out, terminal::LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

/// Restores the terminal when dropped (early returns and unwinding panics).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn save_now(app: &mut App, path: Option<&std::path::Path>) {
    if let Some(p) = path {
        if let Err(e) = save::save(p, &app.game, app.cursor, app.pencil) {
            app.message = Some(app::Message {
                text: format!("Could not save to {}: {e}", p.display()),
                tone: Tone::Warning,
            });
        }
    }
    app.dirty = false;
}

fn write_records(app: &mut App, path: Option<&std::path::Path>) {
    if app.records.is_empty() {
        return;
    }
    let Some(path) = path else {
        app.records.clear();
        return;
    };
    let mut stats = Stats::load(path);
    for r in app.records.drain(..) {
        match r {
            Record::Started => stats.started += 1,
            Record::Solved {
                difficulty,
                ms,
                assisted,
            } => {
                stats.record_solve(difficulty.as_deref(), ms, assisted);
            }
        }
    }
    let _ = stats.save(path);
}

/// The event loop: draw, wait for a key (or a quarter second for the clock), update, save.
pub fn run(
    app: &mut App,
    save_path: Option<&std::path::Path>,
    stats: Option<&std::path::Path>,
) -> std::io::Result<()> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP] {
        let _ = signal_hook::flag::register(sig, Arc::clone(&stop));
    }
    // Save a new game at once, so a crash before the first key still resumes it.
    save_now(app, save_path);
    write_records(app, stats);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    terminal::enable_raw_mode()?;
    let _guard = TerminalGuard;
    execute!(
        std::io::stdout(),
        terminal::EnterAlternateScreen,
        cursor::Hide
    )?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let result = event_loop(app, &mut term, save_path, stats, &stop);
    // Whatever ended the loop (quit, signal, a dead terminal), the game is saved.
    save_now(app, save_path);
    write_records(app, stats);
    result
}

fn event_loop(
    app: &mut App,
    term: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    save_path: Option<&std::path::Path>,
    stats: Option<&std::path::Path>,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut last = Instant::now();
    let mut redraw = true;
    let mut shown_second = u64::MAX;
    loop {
        let second = app.game.elapsed_ms / 1000;
        if redraw || second != shown_second {
            term.draw(|f| view::draw(app, f.area(), f.buffer_mut()))?;
            shown_second = second;
            redraw = false;
        }
        if app.quit || stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        match wait_for_input(250) {
            Input::HangUp => return Ok(()),
            Input::Idle => {}
            Input::Ready => {
                // Drain what crossterm has (it may hold several events from one read),
                // checking for a hang-up before each call.
                while event::poll(Duration::ZERO)? {
                    match event::read()? {
                        Event::Key(k) if k.kind != KeyEventKind::Release => {
                            if let Some(key) = convert(k) {
                                app.handle_key(key);
                                redraw = true;
                            }
                        }
                        Event::Resize(..) => {
                            term.autoresize()?;
                            term.clear()?;
                            redraw = true;
                        }
                        _ => {}
                    }
                    // Every keystroke is saved before the next is looked at.
                    if app.dirty {
                        save_now(app, save_path);
                    }
                    if app.quit || wait_for_input(0) == Input::HangUp {
                        break;
                    }
                }
            }
        }
        redraw |= app.poll_hint();
        let now = Instant::now();
        app.tick(now.duration_since(last).as_millis() as u64);
        last = now;
        if app.dirty {
            save_now(app, save_path);
        }
        write_records(app, stats);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    Ready,
    Idle,
    /// The terminal is gone (an ssh link dropped, the tmux pane closed).
    HangUp,
}

/// Waits up to `ms` for terminal input with poll(2) on standard input. Crossterm's own
/// poll spins forever on a hung-up terminal (a read of 0 bytes is retried), so it is only
/// called once the terminal is known to be alive and readable.
#[cfg(unix)]
fn wait_for_input(ms: i32) -> Input {
    use std::os::fd::AsRawFd;
    let stdin = std::io::stdin();
    let fd = stdin.as_raw_fd();
    // SAFETY: isatty and poll only read the descriptor number and the pollfd we own.
    if unsafe { libc::isatty(fd) } != 1 {
        // Crossterm reads /dev/tty then; let it wait.
        return match event::poll(Duration::from_millis(ms.max(0) as u64)) {
            Ok(true) => Input::Ready,
            Ok(false) => Input::Idle,
            Err(_) => Input::HangUp,
        };
    }
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
