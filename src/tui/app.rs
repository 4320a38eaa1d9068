//! The player's state and its one update function. Drawing (in `view`) reads an [`App`];
//! only [`App::update`] (and [`App::tick`] for the clock) change it.

use super::config::{Borders, Command, Config};
use super::keys::{BindingError, Key, Keymap};
use super::menu::Menus;
use super::theme::Theme;
use crate::game::hints::{self, Hint};
use crate::game::stats::Kind;
use crate::game::{Game, MoveError};
use crate::geometry::Cell;
use crate::puzzle::Puzzle;
use crate::solver::logic::Detail;

/// Which screen is shown (the menus' state is in [`App::menus`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Play,
    Help,
    NewGame,
    /// The puzzles of the collection being played.
    Picker,
    Stats,
    Rules,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub text: String,
    pub tone: Tone,
}

/// A hint being shown, and how far up the ladder (1 nudge, 2 technique, 3 full step).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintState {
    pub hint: Hint,
    pub stage: u8,
}

impl HintState {
    pub fn detail(&self) -> Detail {
        match self.stage {
            1 => Detail::Nudge,
            2 => Detail::Technique,
            _ => Detail::Full,
        }
    }
}

/// Something for the event loop to write down (the app itself does no I/O).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    Started(Kind),
    /// Puzzle `index` (1-based) of a collection file is being played.
    Opened {
        file: std::path::PathBuf,
        index: usize,
    },
    /// Puzzle `index` of a collection file was solved.
    SolvedInFile {
        file: std::path::PathBuf,
        index: usize,
    },
    Solved {
        difficulty: Option<String>,
        ms: u64,
        assisted: bool,
        kind: Kind,
        hints: u32,
    },
}

pub struct App {
    pub game: Game,
    pub cursor: Cell,
    pub pencil: bool,
    /// The next digit toggles a pencil mark (the `mark-next` key).
    pub mark_next: bool,
    pub screen: Screen,
    /// Lines the help screen is scrolled by (its legend is below the keys).
    pub help_scroll: u16,
    pub hint: Option<HintState>,
    pub message: Option<Message>,
    /// The message was said by the command being handled (an older one goes when the
    /// board changes, so a check result or "Solved" never outlives the board it was about).
    message_fresh: bool,
    /// Cells flagged by the last check, until the next change.
    pub checked: Vec<Cell>,
    pub config: Config,
    pub keymap: Keymap,
    pub theme: Theme,
    pub ascii: bool,
    pub quit: bool,
    /// Changed since the last save.
    pub dirty: bool,
    pub records: Vec<Record>,
    /// Quitting with moves the disk refused: the player chooses between a retry (`r`) and
    /// quitting anyway (`q` or a quit key); `esc` plays on.
    pub quit_prompt: bool,
    /// The player asked for the save to be tried again.
    pub retry_save: bool,
    seed: u64,
    /// A hint being worked out on another thread: a forcing net on a hard honeycomb or
    /// killer position can take seconds, and the board must not freeze meanwhile.
    pending: Option<PendingHint>,
    /// How long a hint request waits for its answer before play goes on and the answer
    /// is shown when it comes (tests set 0 to exercise that path).
    pub hint_wait_ms: u64,
    hinter: Hinter,
    /// The menus' state, the collection played and the stats shown.
    pub menus: Menus,
}

/// The board a hint was asked for, and where its answer will arrive.
struct PendingHint {
    grid: crate::puzzle::Grid,
    answer: std::sync::mpsc::Receiver<HintAnswer>,
}

/// What the hint thread answers: the hint (none when there is none), or why it failed.
type HintAnswer = Result<Option<Hint>, String>;

/// A request to the hint thread: the board, its solution, and where the answer goes.
type HintRequest = (
    crate::puzzle::Grid,
    Option<Vec<u8>>,
    std::sync::mpsc::Sender<HintAnswer>,
);

/// Makes the next hint search panic, so tests can see the player survive one.
#[cfg(test)]
static PANIC_NEXT_HINT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// One long-lived thread works out every hint of a session, so that what its searches
/// remember from earlier positions (the nested nets of a hard puzzle) speeds up the next
/// hints. Started on first use, and again if it ever stopped. A search that panics is
/// caught: the player hears that the hint failed, and the thread (whose memory may be
/// half-updated) ends, to be started afresh by the next request.
#[derive(Default)]
struct Hinter {
    requests: Option<std::sync::mpsc::Sender<HintRequest>>,
}

impl Hinter {
    fn ask(
        &mut self,
        grid: crate::puzzle::Grid,
        solution: Option<Vec<u8>>,
    ) -> std::sync::mpsc::Receiver<HintAnswer> {
        let (send, answer) = std::sync::mpsc::channel();
        let mut request = (grid, solution, send);
        if let Some(requests) = &self.requests {
            match requests.send(request) {
                Ok(()) => return answer,
                Err(std::sync::mpsc::SendError(back)) => request = back,
            }
        }
        let (requests, inbox) = std::sync::mpsc::channel::<HintRequest>();
        let spawned = std::thread::Builder::new()
            .name("termdoku-hint".into())
            .spawn(move || {
                let mut worker = hints::HintWorker::default();
                for (board, solution, send) in inbox {
                    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        #[cfg(test)]
                        if PANIC_NEXT_HINT.swap(false, std::sync::atomic::Ordering::SeqCst) {
                            panic!("a hint search panicked (test)");
                        }
                        worker.next_hint(&board, solution.as_deref())
                    }));
                    let failed = found.is_err();
                    // The player may have quit or moved on: a closed channel is fine.
                    let _ = send.send(found.map_err(|p| panic_text(p.as_ref())));
                    if failed {
                        return;
                    }
                }
            });
        if spawned.is_err() {
            let (send, answer) = std::sync::mpsc::channel();
            let _ = send.send(Err("no thread could be started".into()));
            return answer;
        }
        // A fresh thread's inbox is open: the request cannot come back.
        let _ = requests.send(request);
        self.requests = Some(requests);
        answer
    }
}

/// The message of a caught panic.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "internal error".into())
}

impl App {
    /// A player over a game. `utf8` says whether the terminal's locale is UTF-8 (for the
    /// `auto` border setting); `no_color` drops theme colours.
    pub fn new(
        game: Game,
        config: Config,
        utf8: bool,
        no_color: bool,
    ) -> Result<App, BindingError> {
        let keymap = Keymap::new(&config)?;
        let theme = Theme::new(&config.theme, no_color);
        let ascii = match config.display.borders {
            Borders::Auto => !utf8,
            Borders::Unicode => false,
            Borders::Ascii => true,
        };
        Ok(App {
            game,
            cursor: 0,
            pencil: false,
            mark_next: false,
            screen: Screen::Play,
            help_scroll: 0,
            hint: None,
            message: None,
            message_fresh: false,
            checked: Vec::new(),
            config,
            keymap,
            theme,
            ascii,
            quit: false,
            dirty: false,
            records: Vec::new(),
            quit_prompt: false,
            retry_save: false,
            seed: 0x2545_F491_4F6C_DD1D,
            pending: None,
            hint_wait_ms: 150,
            hinter: Hinter::default(),
            menus: Menus::default(),
        })
    }

    /// A player with the default configuration, Unicode borders and colours (tests).
    pub fn with_puzzle(puzzle: Puzzle) -> App {
        let mut app = match App::new(Game::new(puzzle), Config::default(), true, false) {
            Ok(a) => a,
            Err(_) => unreachable!("the default keymap has no clashes"),
        };
        // Tests read the hint right after the key, however loaded the machine is.
        app.hint_wait_ms = 600_000;
        app.start_fresh();
        app
    }

    /// Settings for a game just created (not resumed).
    pub fn start_fresh(&mut self) {
        self.cursor = 0;
        self.pencil = false;
        if self.config.game.fill_candidates_on_start {
            let _ = self.game.fill_candidates(0);
        }
        self.records.push(Record::Started(self.kind()));
        self.dirty = true;
    }

    /// The kind of game being played, as the stats count it.
    pub fn kind(&self) -> Kind {
        let p = self.game.puzzle();
        let size = self.game.geometry().max_digit().into();
        Kind::new(p.variant().name(), size, p.difficulty.as_deref())
    }

    /// Seeds the choice of puzzles for new games.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed | 1;
    }

    pub fn max_digit(&self) -> u8 {
        self.game.geometry().max_digit()
    }

    /// The digit whose cells are highlighted: the selected cell's.
    pub fn selected_digit(&self) -> Option<u8> {
        Some(self.game.value(self.cursor)).filter(|&d| d != 0)
    }

    /// Handles a key press: looks up its command and runs it.
    pub fn handle_key(&mut self, key: Key) {
        if !self.quit_prompt && self.menu_key(key) {
            return;
        }
        let cmd = self.keymap.lookup(key, self.max_digit());
        if self.quit_prompt {
            self.answer_quit_prompt(key, cmd);
            return;
        }
        match cmd {
            Some(cmd) => self.update(cmd),
            None => {
                if self.screen == Screen::Play {
                    self.say(
                        Tone::Warning,
                        format!("`{key}` does nothing here; ? shows the keys"),
                    );
                }
            }
        }
    }

    fn answer_quit_prompt(&mut self, key: Key, cmd: Option<Command>) {
        match (key, cmd) {
            (Key::Char('r' | 'R'), _) => {
                self.quit_prompt = false;
                self.retry_save = true;
                self.quit = true;
            }
            (Key::Char('q' | 'Q'), _) | (_, Some(Command::Quit)) => self.quit = true,
            (Key::Esc, _) | (_, Some(Command::Cancel)) => {
                self.quit_prompt = false;
                self.message = None;
            }
            _ => {}
        }
    }

    /// Presses keys written as text: each character is a key, `<name>` a named key
    /// (`<up>`, `<ctrl-r>`, `<space>`); plain spaces only separate.
    pub fn press(&mut self, keys: &str) {
        let mut chars = keys.chars();
        while let Some(c) = chars.next() {
            if c == ' ' {
                continue;
            }
            if c == '<' {
                let name: String = chars.by_ref().take_while(|&x| x != '>').collect();
                if let Ok(k) = name.parse() {
                    self.handle_key(k);
                }
                continue;
            }
            self.handle_key(Key::Char(c));
        }
    }

    /// Adds playing time; the clock runs only on the play screen, unpaused and unsolved.
    pub fn tick(&mut self, ms: u64) {
        if self.screen == Screen::Play && !self.game.paused && !self.game.solved {
            self.game.elapsed_ms = self.game.elapsed_ms.saturating_add(ms);
        }
    }

    pub(crate) fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message_fresh = true;
        self.message = Some(Message {
            text: text.into(),
            tone,
        });
    }

    /// The one place where state changes.
    pub fn update(&mut self, cmd: Command) {
        match self.screen {
            Screen::Help => self.update_help(cmd),
            Screen::NewGame | Screen::Picker | Screen::Stats | Screen::Rules => {
                self.update_menus(cmd)
            }
            Screen::Play => self.update_play(cmd),
        }
    }

    fn update_help(&mut self, cmd: Command) {
        match cmd {
            Command::Help | Command::Cancel | Command::Confirm => self.screen = Screen::Play,
            Command::Quit => self.quit = true,
            Command::MoveDown => self.help_scroll = self.help_scroll.saturating_add(1),
            Command::MoveUp => self.help_scroll = self.help_scroll.saturating_sub(1),
            _ => {}
        }
    }

    /// The next seed for picking a puzzle.
    pub(crate) fn next_seed(&mut self) -> u64 {
        self.seed = self
            .seed
            .rotate_left(17)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.seed
    }

    /// Replaces the game.
    pub fn new_game(&mut self, puzzle: Puzzle) {
        self.game = Game::new(puzzle);
        self.screen = Screen::Play;
        self.hint = None;
        self.checked.clear();
        self.mark_next = false;
        self.message = None;
        self.start_fresh();
    }

    fn update_play(&mut self, cmd: Command) {
        if self.game.paused && !matches!(cmd, Command::Pause | Command::Quit | Command::Help) {
            self.say(Tone::Info, "Paused: press P to resume.");
            return;
        }
        let was_solved = self.game.solved;
        self.message_fresh = false;
        let before = (self.cursor, self.pencil);
        let mut changed = false;
        let mut keep_hint = false;
        if let Some(d) = cmd.digit() {
            changed = self.digit(d);
        } else {
            match cmd {
                Command::MoveUp => self.move_vertical(-1),
                Command::MoveDown => self.move_vertical(1),
                Command::MoveLeft => self.move_horizontal(-1),
                Command::MoveRight => self.move_horizontal(1),
                Command::Clear => {
                    let r = self.game.clear(self.cursor, self.cursor);
                    changed = self.result(r);
                }
                Command::PencilMode => {
                    self.pencil = !self.pencil;
                    self.mark_next = false;
                    keep_hint = true;
                }
                Command::MarkNext => {
                    self.mark_next = !self.mark_next;
                    keep_hint = true;
                }
                Command::Undo => match self.game.undo(self.cursor) {
                    Some(c) => {
                        self.cursor = c;
                        changed = true;
                    }
                    None => self.say(Tone::Info, "Nothing to undo."),
                },
                Command::Redo => match self.game.redo(self.cursor) {
                    Some(c) => {
                        self.cursor = c;
                        changed = true;
                    }
                    None => self.say(Tone::Info, "Nothing to redo."),
                },
                Command::Hint => {
                    changed = self.hint();
                    keep_hint = !changed;
                }
                Command::Check => self.check(),
                Command::Solvable => {
                    if self.game.still_solvable() {
                        self.say(Tone::Info, "Still solvable from here.");
                    } else {
                        self.say(
                            Tone::Warning,
                            "Not solvable any more: some entry is wrong (c shows which).",
                        );
                    }
                    keep_hint = true;
                }
                Command::FillCandidates => {
                    let r = self.game.fill_candidates(self.cursor);
                    changed = self.result(r);
                }
                Command::ClearCandidates => {
                    let r = self.game.clear_marks(self.cursor);
                    changed = self.result(r);
                }
                Command::Finish => match self.game.finish(self.cursor) {
                    Some(0) => self.say(Tone::Info, "Nothing left to fill."),
                    Some(n) => {
                        changed = true;
                        self.say(
                            Tone::Info,
                            format!("Filled {} from the solution.", cells(n)),
                        );
                    }
                    None => self.say(
                        Tone::Warning,
                        "This puzzle has no unique solution to finish with.",
                    ),
                },
                Command::NewGame => {
                    self.open_new_game();
                    keep_hint = true;
                }

                Command::Pause => {
                    self.game.paused = !self.game.paused;
                    self.say(
                        Tone::Info,
                        if self.game.paused {
                            "Paused: press P to resume."
                        } else {
                            "Resumed."
                        },
                    );
                    changed = true;
                    keep_hint = true;
                }
                Command::Help => {
                    self.screen = Screen::Help;
                    self.help_scroll = 0;
                    keep_hint = true;
                }
                Command::Cancel => {
                    self.hint = None;
                    self.message = None;
                    self.mark_next = false;
                    self.checked.clear();
                }
                Command::Confirm => keep_hint = true,
                Command::Quit => {
                    self.quit = true;
                    keep_hint = true;
                }
                _ => {}
            }
        }
        if matches!(
            cmd,
            Command::MoveUp | Command::MoveDown | Command::MoveLeft | Command::MoveRight
        ) {
            keep_hint = true;
        }
        if changed {
            if !self.message_fresh {
                self.message = None;
            }
            self.checked.clear();
            self.dirty = true;
            if !keep_hint {
                self.hint = None;
            }
        }
        if (self.cursor, self.pencil) != before {
            self.dirty = true;
        }
        if self.game.solved && !was_solved {
            let secs = self.game.elapsed_ms / 1000;
            self.say(
                Tone::Info,
                format!(
                    "Solved in {}:{:02}! n starts a new game.",
                    secs / 60,
                    secs % 60
                ),
            );
            self.hint = None;
            self.records.push(Record::Solved {
                difficulty: self.game.puzzle().difficulty.clone(),
                ms: self.game.elapsed_ms,
                assisted: self.game.assisted,
                kind: self.kind(),
                hints: self.game.hints_used,
            });
            self.note_solved_in_file();
        }
    }

    /// Reports a refused move; true when the move happened.
    fn result(&mut self, r: Result<(), MoveError>) -> bool {
        match r {
            Ok(()) => true,
            Err(MoveError::Nothing) => false,
            Err(e) => {
                self.say(Tone::Warning, format!("Cannot do that: {e}."));
                false
            }
        }
    }

    fn digit(&mut self, d: u8) -> bool {
        if d > self.max_digit() {
            return false;
        }
        let mark = self.pencil || self.mark_next;
        self.mark_next = false;
        let r = if mark {
            self.game.toggle_mark(self.cursor, d, self.cursor)
        } else {
            self.game.place(
                self.cursor,
                d,
                self.config.game.auto_remove_candidates,
                self.cursor,
            )
        };
        self.result(r)
    }

    fn move_horizontal(&mut self, dir: i32) {
        let g = self.game.geometry();
        let (r, c) = g.coords(self.cursor);
        let len = g.row_lengths()[r as usize - 1] as i32;
        let nc = (c as i32 - 1 + dir).rem_euclid(len) + 1;
        if let Some(cell) = g.cell_at(r as usize, nc as usize) {
            self.cursor = cell;
        }
    }

    /// Up and down go to the nearest cell of the next row on screen (a honeycomb row is
    /// offset by half a cell), wrapping from the last row to the first.
    fn move_vertical(&mut self, dir: i32) {
        let g = self.game.geometry();
        let rows = g.row_lengths().len() as i32;
        let (r, _) = g.coords(self.cursor);
        let (x0, _) = g.screen_pos(self.cursor);
        let nr = (r as i32 - 1 + dir).rem_euclid(rows) as usize + 1;
        let best = (1..=g.row_lengths()[nr - 1])
            .filter_map(|c| g.cell_at(nr, c))
            .min_by_key(|&cell| {
                let x = g.screen_pos(cell).0 as i32;
                // On a tie prefer the cell on the side the row is offset towards.
                ((x - x0 as i32).abs(), if dir > 0 { x } else { -x })
            });
        if let Some(cell) = best {
            self.cursor = cell;
        }
    }

    /// Climbs the hint ladder; true when a step was applied.
    fn hint(&mut self) -> bool {
        if let Some(state) = &mut self.hint {
            if state.stage < 3 {
                state.stage += 1;
                return false;
            }
            let hint = state.hint.clone();
            self.hint = None;
            let applied =
                self.game
                    .apply_hint(&hint, self.config.game.auto_remove_candidates, self.cursor);
            if applied.is_ok() {
                if let Some(p) = hint.placements.first() {
                    self.cursor = p.cell;
                } else if let Some(&c) = hint.clears.first() {
                    self.cursor = c;
                }
                self.say(Tone::Info, format!("Applied: {} (u undoes it).", hint.name));
                return true;
            }
            return false;
        }
        if self.game.solved {
            self.say(Tone::Info, "Already solved.");
            return false;
        }
        if let Some(&cell) = self.game.deviations().first() {
            let g = self.game.geometry();
            let hint = hints::wrong_entry(g, cell, self.game.value(cell));
            self.hint = Some(HintState { hint, stage: 1 });
            return false;
        }
        if self.pending.is_some() {
            self.say(Tone::Info, "Still looking for a hint...");
            return false;
        }
        let grid = self.game.hint_grid();
        let solution = self.game.solution().map(<[u8]>::to_vec);
        let answer = self.hinter.ask(grid.clone(), solution);
        let wait = std::time::Duration::from_millis(self.hint_wait_ms);
        match answer.recv_timeout(wait) {
            Ok(Ok(hint)) => self.show_hint(hint),
            Ok(Err(why)) => self.hint_failed(&why),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                self.pending = Some(PendingHint { grid, answer });
                self.say(
                    Tone::Info,
                    "Looking for a hint (a hard position)... keep playing; it shows here.",
                );
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                self.say(Tone::Warning, "The hint search failed.");
            }
        }
        false
    }

    /// Takes a hint worked out in the background, if it has arrived; true when something
    /// changed on screen. An answer for a board that has changed since is dropped.
    pub fn poll_hint(&mut self) -> bool {
        let Some(p) = &self.pending else {
            return false;
        };
        let hint = match p.answer.try_recv() {
            Ok(Ok(hint)) => hint,
            Ok(Err(why)) => {
                self.pending = None;
                self.hint_failed(&why);
                return true;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => return false,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.pending = None;
                self.say(Tone::Warning, "The hint search failed.");
                return true;
            }
        };
        let asked = self.pending.take().map(|p| p.grid);
        if asked.as_ref() == Some(&self.game.hint_grid()) {
            self.show_hint(hint);
        } else {
            self.say(
                Tone::Info,
                "The board changed while a hint was worked out: ask again for a fresh one.",
            );
        }
        true
    }

    /// Whether a hint is being worked out in the background.
    pub fn hint_pending(&self) -> bool {
        self.pending.is_some()
    }

    fn hint_failed(&mut self, why: &str) {
        // The thread that failed is ending: the next request starts a fresh one rather
        // than queue behind it.
        self.hinter.requests = None;
        self.say(
            Tone::Warning,
            format!("The hint failed ({why}); play on, and ask again for another try."),
        );
    }

    fn show_hint(&mut self, hint: Option<Hint>) {
        match hint {
            Some(hint) => {
                self.hint = Some(HintState { hint, stage: 1 });
                self.message = None;
            }
            None => self.say(
                Tone::Warning,
                if self.game.conflicts().iter().any(|&b| b) {
                    "No hint: digits on the board break a rule (marked)."
                } else {
                    "No hint found (this puzzle has no unique solution)."
                },
            ),
        }
    }

    fn check(&mut self) {
        if self.game.solution().is_none() {
            self.say(
                Tone::Warning,
                "This puzzle has no unique solution to check against.",
            );
            return;
        }
        let g = self.game.geometry();
        let wrong = self.game.deviations();
        let bad_marks = self.game.bad_marks();
        let names = |cells: &[Cell]| {
            let mut s: Vec<String> = cells.iter().take(6).map(|&c| g.cell_name(c)).collect();
            if cells.len() > 6 {
                s.push("...".into());
            }
            s.join(", ")
        };
        let text = match (wrong.is_empty(), bad_marks.is_empty()) {
            (true, true) => format!(
                "No mistakes so far; {} to go.",
                cells(self.game.remaining())
            ),
            (false, _) => format!(
                "{} from the solution: {}.",
                if wrong.len() == 1 {
                    "1 entry differs".to_string()
                } else {
                    format!("{} entries differ", wrong.len())
                },
                names(&wrong)
            ),
            (true, false) => format!(
                "Pencil marks leave out the answer in {}.",
                names(&bad_marks)
            ),
        };
        let tone = if wrong.is_empty() && bad_marks.is_empty() {
            Tone::Info
        } else {
            Tone::Warning
        };
        self.checked = wrong.into_iter().chain(bad_marks).collect();
        self.say(tone, text);
    }
}

/// `1 cell`, `5 cells`.
fn cells(n: usize) -> String {
    if n == 1 {
        "1 cell".to_string()
    } else {
        format!("{n} cells")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;

    #[test]
    fn a_panicking_hint_search_is_reported_and_the_next_hint_works() {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        PANIC_NEXT_HINT.store(true, std::sync::atomic::Ordering::SeqCst);
        app.press("H");
        let said = app.message.clone().expect("a message");
        assert_eq!(said.tone, Tone::Warning);
        assert!(said.text.starts_with("The hint failed"), "{}", said.text);
        assert!(app.hint.is_none());
        // A fresh hint thread answers the next request.
        app.press("H");
        assert!(app.hint.is_some(), "{:?}", app.message);
    }

    #[test]
    fn the_clock_saturates_instead_of_wrapping() {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        app.game.elapsed_ms = u64::MAX - 5;
        app.tick(1000);
        assert_eq!(app.game.elapsed_ms, u64::MAX);
    }

    #[test]
    fn quitting_with_unsaved_moves_offers_retry_or_quit_anyway() {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        app.quit_prompt = true;
        app.press("l");
        assert!(!app.quit, "other keys wait for an answer");
        app.press("r");
        assert!(app.quit && app.retry_save && !app.quit_prompt);
        app.quit = false;
        app.retry_save = false;
        app.quit_prompt = true;
        app.press("q");
        assert!(app.quit && app.quit_prompt && !app.retry_save);
        app.quit = false;
        app.press("<esc>");
        assert!(!app.quit && !app.quit_prompt);
    }
}
