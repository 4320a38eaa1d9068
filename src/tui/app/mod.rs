//! The player's state and the one place it changes. Drawing (in `view`) reads an [`App`];
//! only [`App::handle_key`] / [`App::update`], [`App::receive`] (an answer to an effect)
//! and [`App::tick`] (the clock) change it.
//!
//! Each command is one small method returning what it [`Changed`]; slow work (a hint) is
//! an [`Effect`] the app queues and the event loop carries out (`tui::effects`), handing
//! the answer back through [`App::receive`]. Adding a command: a line in the command table
//! (`commands!` in `config.rs`), an arm in [`App::run_play`] calling one method, a test.
//!
//! By concern: `play.rs` the play screen's commands, `moves.rs` the cursor, `hint.rs` the
//! hint ladder and its answers, `prompt.rs` the yes/no questions, `replay.rs` the finish
//! that steps through the solution path.

mod hint;
mod moves;
mod play;
mod prompt;
pub mod replay;
pub mod train;
mod why;

pub use prompt::Prompt;
pub use replay::Replay;

use super::config::{Borders, Command, Config};
use super::effects::{Answer, Effect, Job, Reply};
use super::keys::{self, BindingError, Key, Keymap};
use super::menu::Menus;
use super::theme::Theme;
use crate::game::hints::Hint;
use crate::game::stats::Kind;
use crate::game::Game;
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
    /// The trainer's technique picker.
    Train,
    /// A technique's page (`App::page`).
    Page,
    /// A served player's options and account (`App::account`).
    Account,
    /// A served player's daily puzzles and their leaderboard (`App::daily`).
    Daily,
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

/// What a command changed, for the event loop: whether to redraw, and whether the board
/// itself changed (then the old message, check marks and hint go, and the game is saved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Changed {
    Nothing,
    /// Only what is shown: the cursor, a screen, a message, the hint's stage.
    View,
    /// Values or pencil marks.
    Board,
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
    /// A trainer drill's first submit (for the skill profile).
    Drill {
        technique: String,
        solved: bool,
        ms: u64,
    },
    /// A game hint reached the technique's name: the player needed it.
    HintNeeded(String),
    /// The trainer's run as it stands (`None`: over).
    Run(Option<crate::game::profile::Run>),
}

/// What an effect was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AskedFor {
    Hint,
    /// A solution path for the replay.
    Path,
    /// Where a fresh drill's technique is (the trainer's nudge).
    Nudge,
    /// A trainer answer's grade.
    Grade,
    /// The "why?" key's explanation.
    Why,
}

/// An effect asked for and not answered yet: its id, and the board it was asked about
/// (an answer about a board that has changed since is not shown).
#[derive(Clone, Debug)]
struct Pending {
    id: u64,
    grid: crate::puzzle::Grid,
    what: AskedFor,
}

impl App {
    /// Queues a request for the worker from this board: the next hint, or with `path` the
    /// whole solution path; its answer is matched by id and by the board it was asked on.
    fn ask_worker(&mut self, path: bool) {
        let (job, what) = if path {
            let grid = self.game.hint_grid();
            let solution = self.game.solution().map(<[u8]>::to_vec);
            (Job::Path { grid, solution }, AskedFor::Path)
        } else {
            (self.hint_job(false), AskedFor::Hint)
        };
        self.ask(job, what);
    }

    /// The next hint of this board, asked for now or ahead of the key.
    fn hint_job(&self, ahead: bool) -> Job {
        Job::Hint {
            grid: self.game.hint_grid(),
            solution: self.game.solution().map(<[u8]>::to_vec),
            ahead,
        }
    }

    /// Queues a job; a newer request replaces the one waited for.
    fn ask(&mut self, job: Job, what: AskedFor) {
        self.next_effect += 1;
        let id = self.next_effect;
        self.pending = Some(Pending {
            id,
            grid: self.game.hint_grid(),
            what,
        });
        self.effects.push(Effect { id, job });
    }
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
    /// The screen column a run of up/down moves keeps to (see `moves.rs`).
    vertical_x: Option<i32>,
    /// A question on screen, waiting for its answer.
    pub prompt: Option<Prompt>,
    /// The finish stepping through the solution path.
    pub replay: Option<Replay>,
    seed: u64,
    /// Slow work asked of the event loop, not yet taken by it.
    effects: Vec<Effect>,
    /// The hint being worked out in the background, if any.
    pending: Option<Pending>,
    /// The next hint of a board, worked out before it is asked for (see `hint.rs`).
    ahead: Option<hint::Ahead>,
    /// A hint was asked for while it was being worked out ahead: the event loop waits for
    /// it as for a fresh request.
    joined: bool,
    /// Numbers effects, so an answer is matched to its request.
    next_effect: u64,
    /// The menus' state, the collection played and the stats shown.
    pub menus: Menus,
    /// The drill being trained on (the play screen shows it).
    pub trainer: Option<train::Trainer>,
    /// The game put aside while training.
    stash: Option<train::Stash>,
    /// The trainer's picker.
    pub train_menu: train::TrainMenu,
    /// The skill profile as of the last write (the event loop loads it).
    pub profile: crate::game::profile::Profile,
    /// The "why?" key waits for a digit (or itself again) for the selected cell.
    pub why_ask: bool,
    /// The technique page shown on `Screen::Page`, and the lines it is scrolled by.
    pub page: Option<&'static str>,
    pub page_scroll: u16,
    /// The terminal's locale is UTF-8 (the `auto` borders follow it).
    pub utf8: bool,
    /// A served player's options and account; `None` for a local player.
    pub account: Option<super::account::Account>,
    /// A served player's daily puzzles; `None` for a local player.
    pub daily: Option<super::daily::Daily>,
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
        let mut game = game;
        game.count_mistakes = config.game.count_mistakes;
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
            vertical_x: None,
            prompt: None,
            replay: None,
            seed: 0x2545_F491_4F6C_DD1D,
            effects: Vec::new(),
            pending: None,
            ahead: None,
            joined: false,
            next_effect: 0,
            menus: Menus::default(),
            trainer: None,
            stash: None,
            train_menu: train::TrainMenu::default(),
            profile: crate::game::profile::Profile::new(),
            why_ask: false,
            page: None,
            page_scroll: 0,
            utf8,
            account: None,
            daily: None,
        })
    }

    /// A player with the default configuration, Unicode borders and colours (tests).
    pub fn with_puzzle(puzzle: Puzzle) -> App {
        let mut app = match App::new(Game::new(puzzle), Config::default(), true, false) {
            Ok(a) => a,
            Err(_) => unreachable!("the default keymap has no clashes"),
        };
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

    /// The next seed for picking a puzzle.
    pub(crate) fn next_seed(&mut self) -> u64 {
        self.seed = self
            .seed
            .rotate_left(17)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.seed
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

    /// The slow work asked for since the last call, for the event loop to carry out.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// Handles a key press: looks up its command and runs it.
    pub fn handle_key(&mut self, key: Key) -> Changed {
        if !self.quit_prompt && self.menu_key(key) {
            return Changed::View;
        }
        let cmd = self.keymap.lookup(key, self.max_digit());
        if self.quit_prompt {
            return self.answer_quit_prompt(key, cmd);
        }
        if let Some(p) = self.prompt {
            return self.answer_prompt(p, key, cmd);
        }
        match cmd {
            Some(cmd) => self.update(cmd),
            None if self.screen == Screen::Play => {
                self.say(
                    Tone::Warning,
                    format!("`{key}` does nothing here; ? shows the keys"),
                );
                Changed::View
            }
            None => Changed::Nothing,
        }
    }

    fn answer_quit_prompt(&mut self, key: Key, cmd: Option<Command>) -> Changed {
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
            _ => return Changed::Nothing,
        }
        Changed::View
    }

    /// Presses keys written as text (see [`keys::parse_sequence`]). Effects stay queued:
    /// `tui::effects::Session::press` also carries them out.
    pub fn press(&mut self, keys: &str) {
        for k in keys::parse_sequence(keys) {
            self.handle_key(k);
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

    /// Runs a command on the screen shown.
    pub fn update(&mut self, cmd: Command) -> Changed {
        self.message_fresh = false;
        let changed = match self.screen {
            Screen::Help => self.update_help(cmd),
            Screen::Page => self.update_page(cmd),
            Screen::NewGame
            | Screen::Picker
            | Screen::Stats
            | Screen::Rules
            | Screen::Train
            | Screen::Account
            | Screen::Daily => {
                self.update_menus(cmd);
                Changed::View
            }
            Screen::Play => self.update_play(cmd),
        };
        // Whatever said something needs drawing.
        if self.message_fresh {
            changed.max(Changed::View)
        } else {
            changed
        }
    }

    fn update_help(&mut self, cmd: Command) -> Changed {
        match cmd {
            Command::Help | Command::Cancel | Command::Confirm => self.screen = Screen::Play,
            Command::Quit => self.quit = true,
            Command::MoveDown => self.help_scroll = (self.help_scroll + 1).min(self.help_end()),
            Command::MoveUp => self.help_scroll = self.help_scroll.saturating_sub(1),
            _ => return Changed::Nothing,
        }
        Changed::View
    }

    /// The help screen's last scroll position: its last row alone on top.
    fn help_end(&self) -> u16 {
        let n = super::view::help_lines(self).len();
        u16::try_from(n.saturating_sub(1)).unwrap_or(u16::MAX)
    }

    /// A page of the help screen down (or up): 20 rows, most of an 80x24 screen.
    pub(crate) fn page_help(&mut self, down: bool) {
        self.help_scroll = if down {
            (self.help_scroll + 20).min(self.help_end())
        } else {
            self.help_scroll.saturating_sub(20)
        };
    }

    /// Replaces the game.
    pub fn new_game(&mut self, puzzle: Puzzle) {
        // A new game ends training; it replaces the game put aside too.
        self.trainer = None;
        self.stash = None;
        self.game = Game::new(puzzle);
        self.game.count_mistakes = self.config.game.count_mistakes;
        // Whatever it is, it is not the daily (opening the daily marks it so afterwards).
        if let Some(d) = &mut self.daily {
            d.playing = None;
            d.waiting = None;
        }
        self.screen = Screen::Play;
        self.hint = None;
        self.pending = None;
        self.ahead = None;
        self.prompt = None;
        self.replay = None;
        self.checked.clear();
        self.mark_next = false;
        self.message = None;
        self.start_fresh();
    }

    /// Takes the answer to an effect; an answer nobody waits for any more is dropped.
    pub fn receive(&mut self, answer: Answer) -> Changed {
        self.message_fresh = false;
        if self.pending.as_ref().map(|p| p.id) != Some(answer.id) {
            self.receive_ahead(answer);
            return Changed::Nothing;
        }
        let Some(asked) = self.pending.take() else {
            return Changed::Nothing;
        };
        match answer.reply {
            Reply::Hint(reply) => self.receive_hint(asked, reply),
            Reply::Progress(steps) => {
                self.pending = Some(asked);
                self.say(
                    Tone::Info,
                    format!("Working out the solution path: {steps} steps so far..."),
                );
                Changed::View
            }
            Reply::Path(reply) => self.receive_path(asked, reply),
            Reply::Grade(reply) => self.receive_grade(asked.what, reply),
            Reply::Why(reply) => self.receive_why(asked, reply),
            Reply::Skipped => {
                // The hint worked out ahead that the key joined gave way to newer work:
                // asked for afresh if the board is the same.
                if asked.grid == self.game.hint_grid() {
                    self.ask_worker(false);
                }
                Changed::Nothing
            }
        }
    }

    /// Says that the effect asked for is taking a while (the event loop waited a moment
    /// for it first, so a quick answer shows without this message flashing).
    pub fn working(&mut self) -> Changed {
        let Some(p) = &self.pending else {
            return Changed::Nothing;
        };
        let text = match p.what {
            AskedFor::Path => {
                "Working out the solution path... keep playing; the replay starts when it is ready."
            }
            AskedFor::Hint => {
                "Looking for a hint (a hard position)... keep playing; it shows here."
            }
            // The nudge is looked for quietly; a grade says it is coming.
            AskedFor::Nudge => return Changed::Nothing,
            AskedFor::Grade => "Grading your answer...",
            AskedFor::Why => "Working out why... keep playing; the answer shows here.",
        };
        self.say(Tone::Info, text);
        Changed::View
    }

    /// Whether a hint is being worked out in the background.
    pub fn hint_pending(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| p.what == AskedFor::Hint)
    }

    /// Whether the app waits for the answer to an effect.
    pub fn waiting(&self) -> bool {
        self.pending.is_some()
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

    #[test]
    fn commands_report_what_they_changed() {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        assert_eq!(app.update(Command::MoveRight), Changed::View);
        assert_eq!(app.update(Command::MoveRight), Changed::View);
        assert_eq!(app.update(Command::Digit4), Changed::Board);
        // A given refuses the digit with a message: drawn, board unchanged.
        app.cursor = 0;
        assert_eq!(app.update(Command::Digit4), Changed::View);
        assert_eq!(app.update(Command::Confirm), Changed::Nothing);
    }

    #[test]
    fn a_hint_request_is_an_effect_and_no_thread_work() {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        app.press("H");
        assert!(app.hint.is_none(), "the app itself works nothing out");
        assert!(app.hint_pending());
        let effects = app.take_effects();
        assert_eq!(effects.len(), 1);
        assert!(app.take_effects().is_empty());
    }
}
