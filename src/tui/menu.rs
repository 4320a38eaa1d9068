//! The player's menus as state: the new-game menu (variant, size, level, or a file), the
//! picker of a collection's puzzles, and the list and page screens. Keys come in raw (a
//! file path is typed), and each menu answers what the app should do next.

use super::app::{App, Record, Screen, Tone};
use super::config::Command;
use super::keys::Key;
use crate::game::library;
use crate::game::stats::Stats;
use crate::puzzle::{Puzzle, Variant};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A list with a selected entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct List {
    pub items: Vec<String>,
    pub selected: usize,
}

impl List {
    pub fn new(items: Vec<String>, selected: usize) -> List {
        let selected = selected.min(items.len().saturating_sub(1));
        List { items, selected }
    }

    /// Moves the selection by `by`, wrapping.
    pub fn step(&mut self, by: i32) {
        let n = self.items.len() as i32;
        if n > 0 {
            self.selected = (self.selected as i32 + by).rem_euclid(n) as usize;
        }
    }

    /// Selects the next entry (after the selected one, wrapping) whose first letter is `c`;
    /// false when none has it.
    pub fn jump(&mut self, c: char) -> bool {
        let n = self.items.len();
        let c = c.to_ascii_lowercase();
        for k in 1..=n {
            let i = (self.selected + k) % n;
            let first = self.items[i]
                .chars()
                .find(|x| x.is_alphanumeric())
                .map(|x| x.to_ascii_lowercase());
            if first == Some(c) {
                self.selected = i;
                return true;
            }
        }
        false
    }
}

/// Where the new-game menu is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Variant,
    Size,
    Level,
    /// Typing a file's path; an error the last try gave stays shown.
    File {
        path: String,
        error: Option<String>,
    },
}

/// The new-game menu: the choices so far and the list on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub step: Step,
    pub variant: Variant,
    pub size: usize,
    pub list: List,
    /// The first list's entries, kept while a later list is shown.
    first: Vec<String>,
}

/// The first list's entries after the variants.
pub const FROM_FILE: &str = "from file...";
pub const STATISTICS: &str = "statistics";
pub const TRAIN: &str = "train a technique";
pub const RULES: &str = "rules of this variant";
/// A served player's options and account (only when served).
pub const ACCOUNT: &str = "options and account";
/// Today's daily puzzles and their leaderboard (only when served).
pub const DAILY: &str = "daily puzzle and leaderboard";
/// The picker's entry starts so (and names the file).
pub const PUZZLES_OF: &str = "puzzles of ";

/// What the app does after a key in a menu.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Stay,
    Close,
    Quit,
    /// A new game from the shipped puzzles.
    Start {
        variant: Variant,
        size: usize,
        level: String,
    },
    /// Open this path (typed in the file prompt).
    Open(String),
    Picker,
    Stats,
    Rules,
    /// The trainer's technique picker.
    Train,
    /// A served player's options and account.
    Account,
    /// The daily puzzles' screen.
    Daily,
}

impl NewGame {
    /// The menu at its first list, on the variant being played; `file` names the
    /// collection being played, whose picker the list offers.
    pub fn new(current: Variant, file: Option<&str>) -> NewGame {
        let pos = Variant::ALL.iter().position(|&v| v == current).unwrap_or(0);
        let mut items: Vec<String> = Variant::ALL.iter().map(|v| v.to_string()).collect();
        items.push(FROM_FILE.into());
        if let Some(f) = file {
            items.push(format!("{PUZZLES_OF}{f}"));
        }
        items.push(TRAIN.into());
        items.push(STATISTICS.into());
        items.push(RULES.into());
        NewGame {
            step: Step::Variant,
            variant: current,
            size: 9,
            first: items.clone(),
            list: List::new(items, pos),
        }
    }

    /// Adds an entry at the end of the first list.
    pub fn add_entry(&mut self, entry: &str) {
        self.first.push(entry.to_string());
        if self.step == Step::Variant {
            self.list.items.push(entry.to_string());
        }
    }

    /// Drops an entry of the first list.
    pub fn remove_entry(&mut self, entry: &str) {
        self.first.retain(|e| e != entry);
        if self.step == Step::Variant {
            self.list.items.retain(|e| e != entry);
            self.list.selected = self
                .list
                .selected
                .min(self.list.items.len().saturating_sub(1));
        }
    }

    /// The menu's title.
    pub fn title(&self) -> String {
        match self.step {
            Step::Variant => "New game: variant (or more)".into(),
            Step::Size => format!("New {} game: size", self.variant),
            Step::Level => {
                if self.variant == Variant::Honeycomb {
                    format!("New {} game: level", self.variant)
                } else {
                    format!(
                        "New {} {}x{} game: level",
                        self.variant, self.size, self.size
                    )
                }
            }
            Step::File { .. } => "Open a puzzle file".into(),
        }
    }

    fn go_sizes(&mut self) {
        let sizes = library::sizes(self.variant);
        if sizes.len() > 1 {
            let items = sizes.iter().map(|n| format!("{n}x{n}")).collect();
            let at = sizes.iter().position(|&n| n == self.size).unwrap_or(0);
            self.step = Step::Size;
            self.list = List::new(items, at);
        } else {
            self.size = sizes.first().copied().unwrap_or(9);
            self.go_levels();
        }
    }

    fn go_levels(&mut self) {
        let mut items = vec!["any".to_string()];
        items.extend(
            library::levels(self.variant, self.size)
                .into_iter()
                .map(String::from),
        );
        self.step = Step::Level;
        self.list = List::new(items, 1);
    }

    /// Chooses the selected entry (Enter, a click, right).
    pub fn choose(&mut self) -> Outcome {
        let picked = self.list.items.get(self.list.selected).cloned();
        match &self.step {
            Step::Variant => match Variant::ALL.get(self.list.selected) {
                Some(&v) => {
                    self.variant = v;
                    self.size = 9;
                    self.go_sizes();
                    Outcome::Stay
                }
                None => match picked.as_deref() {
                    Some(STATISTICS) => Outcome::Stats,
                    Some(TRAIN) => Outcome::Train,
                    Some(RULES) => Outcome::Rules,
                    Some(ACCOUNT) => Outcome::Account,
                    Some(DAILY) => Outcome::Daily,
                    Some(p) if p.starts_with(PUZZLES_OF) => Outcome::Picker,
                    _ => {
                        self.step = Step::File {
                            path: String::new(),
                            error: None,
                        };
                        Outcome::Stay
                    }
                },
            },
            Step::Size => {
                let n = picked
                    .and_then(|s| s.split('x').next().and_then(|n| n.parse().ok()))
                    .unwrap_or(9);
                self.size = n;
                self.go_levels();
                Outcome::Stay
            }
            Step::Level => Outcome::Start {
                variant: self.variant,
                size: self.size,
                level: picked.unwrap_or_else(|| "any".into()),
            },
            Step::File { path, .. } if path.trim().is_empty() => Outcome::Stay,
            Step::File { path, .. } => Outcome::Open(path.trim().to_string()),
        }
    }

    /// One step back (Esc, left); from the first list the menu closes.
    pub fn back(&mut self) -> Outcome {
        match self.step {
            Step::Variant => Outcome::Close,
            Step::Size | Step::File { .. } => {
                self.restart();
                Outcome::Stay
            }
            Step::Level => {
                if library::sizes(self.variant).len() > 1 {
                    self.go_sizes();
                } else {
                    self.restart();
                }
                Outcome::Stay
            }
        }
    }

    /// Back to the first list, on the variant chosen, keeping its other entries.
    fn restart(&mut self) {
        let items = match self.step {
            Step::Variant => return,
            _ => std::mem::take(&mut self.first),
        };
        let pos = Variant::ALL
            .iter()
            .position(|&v| v == self.variant)
            .unwrap_or(0);
        self.step = Step::Variant;
        self.list = List::new(items, pos);
    }

    /// A key: arrows and j/k move, Enter/right/l choose, Esc/left/h go back, another letter
    /// jumps to the entry starting with it. `h` and `l` jump first where an entry starts
    /// with them (honeycomb, hard), so every variant and level has its letter. In the file
    /// prompt keys type.
    pub fn key(&mut self, key: Key) -> Outcome {
        if let Step::File { path, error } = &mut self.step {
            if crate::tui::keys::edit_line(path, key, usize::MAX) {
                *error = None;
                return Outcome::Stay;
            }
            match key {
                Key::Enter => return self.choose(),
                Key::Esc => return self.back(),
                Key::Ctrl('c') => return Outcome::Quit,
                _ => {}
            }
            return Outcome::Stay;
        }
        match key {
            Key::Up | Key::Char('k') => self.list.step(-1),
            Key::Down | Key::Char('j') | Key::Tab => self.list.step(1),
            Key::Home => self.list.selected = 0,
            Key::End => self.list.selected = self.list.items.len().saturating_sub(1),
            Key::Char(c @ ('h' | 'l')) if self.list.jump(c) => {}
            Key::Enter | Key::Right | Key::Char('l') => return self.choose(),
            Key::Esc | Key::Left | Key::Char('h') => return self.back(),
            Key::Char('q') | Key::Ctrl('c') => return Outcome::Quit,
            Key::Char(c) => {
                self.list.jump(c);
            }
            _ => {}
        }
        Outcome::Stay
    }

    /// The file prompt's error, shown in place.
    pub fn fail(&mut self, why: String) {
        if let Step::File { error, .. } = &mut self.step {
            *error = Some(why);
        }
    }
}

/// The collection the game came from: its file, its puzzles and which one is played.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub file: PathBuf,
    pub puzzles: Vec<Puzzle>,
    /// 1-based.
    pub index: usize,
    /// The 1-based numbers of the puzzles solved (remembered in the state folder).
    pub solved: BTreeSet<usize>,
}

impl Source {
    /// The collection a resumed game came from: `file` read again, when it still holds
    /// several puzzles and puzzle `index` (1-based) is still the one being played.
    pub fn reopen(
        file: &std::path::Path,
        index: usize,
        playing: &Puzzle,
        state: Option<&std::path::Path>,
    ) -> Option<Source> {
        crate::format::regular_file_size(file).ok()?;
        let puzzles = crate::format::load_file(file, playing.variant()).ok()?;
        let p = puzzles.get(index.checked_sub(1)?)?;
        if puzzles.len() < 2 || p.layout != playing.layout || p.givens != playing.givens {
            return None;
        }
        Some(Source {
            file: file.to_path_buf(),
            puzzles,
            index,
            solved: state
                .map(|d| crate::game::library::solved_in(d, file))
                .unwrap_or_default(),
        })
    }

    /// The picker's lines: number, level, solved or not.
    pub fn items(&self) -> Vec<String> {
        let w = self.puzzles.len().to_string().len();
        self.puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let n = i + 1;
                format!(
                    "{n:>w$}  {:<8} {}{}",
                    p.difficulty.as_deref().unwrap_or("-"),
                    if self.solved.contains(&n) {
                        "solved"
                    } else {
                        "      "
                    },
                    if n == self.index { "  (playing)" } else { "" }
                )
                .trim_end()
                .to_string()
            })
            .collect()
    }
}

/// What the menus keep between screens: the collection being played and the stats shown.
#[derive(Clone, Debug)]
pub struct Menus {
    pub source: Option<Source>,
    /// The stats as of the last write (the event loop keeps this current).
    pub stats: Stats,
    pub new_game: NewGame,
    pub picker: List,
    /// Lines the statistics or rules screen is scrolled by.
    pub scroll: u16,
    /// The state folder, where each collection's last puzzle and solves are remembered.
    pub state: Option<PathBuf>,
}

impl Default for Menus {
    fn default() -> Menus {
        Menus {
            source: None,
            stats: Stats::new(),
            new_game: NewGame::new(Variant::Standard, None),
            picker: List::default(),
            scroll: 0,
            state: None,
        }
    }
}

impl App {
    /// Opens the new-game menu on the variant being played.
    pub fn open_new_game(&mut self) {
        let file = self.menus.source.as_ref().map(|s| {
            s.file.file_name().map_or_else(
                || s.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        });
        self.menus.new_game = NewGame::new(self.game.puzzle().variant(), file.as_deref());
        if self.account.is_some() {
            // A served player must not read the server's files.
            self.menus.new_game.remove_entry(FROM_FILE);
            if self.daily.is_some() {
                self.menus.new_game.add_entry(DAILY);
            }
            self.menus.new_game.add_entry(ACCOUNT);
        }
        self.screen = Screen::NewGame;
    }

    /// Opens the picker of the collection being played (or says there is none).
    pub fn open_picker(&mut self) {
        match &self.menus.source {
            Some(src) => {
                self.menus.picker = List::new(src.items(), src.index.saturating_sub(1));
                self.screen = Screen::Picker;
            }
            None => self.say(
                Tone::Info,
                "This game is not from a file of several puzzles (open one with n, from file).",
            ),
        }
    }

    pub fn open_stats(&mut self) {
        self.menus.scroll = 0;
        self.screen = Screen::Stats;
    }

    pub fn open_rules(&mut self) {
        self.menus.scroll = 0;
        self.screen = Screen::Rules;
    }

    /// A solve of a collection's puzzle is remembered for its picker.
    pub(crate) fn note_solved_in_file(&mut self) {
        if let Some(src) = &mut self.menus.source {
            src.solved.insert(src.index);
            self.records.push(Record::SolvedInFile {
                file: src.file.clone(),
                index: src.index,
            });
        }
    }

    /// Plays puzzle `n` (1-based) of the collection.
    pub fn open_from_source(&mut self, n: usize) {
        let Some(src) = &self.menus.source else {
            return;
        };
        let Some(p) = src.puzzles.get(n.wrapping_sub(1)).cloned() else {
            return;
        };
        let file = src.file.clone();
        let total = src.puzzles.len();
        self.new_game(p);
        if let Some(src) = &mut self.menus.source {
            src.index = n;
        }
        self.records.push(Record::Opened { file, index: n });
        self.say(Tone::Info, format!("Puzzle {n} of {total}."));
    }

    /// Commands sent straight to a menu screen (tests, or keys the menus do not read raw).
    pub(crate) fn update_menus(&mut self, cmd: Command) {
        let key = match cmd {
            Command::MoveUp => Key::Up,
            Command::MoveDown => Key::Down,
            Command::MoveLeft => Key::Left,
            Command::MoveRight => Key::Right,
            Command::Confirm => Key::Enter,
            Command::Cancel => Key::Esc,
            Command::Quit => Key::Ctrl('c'),
            _ => return,
        };
        self.menu_key(key);
    }

    /// A key on a menu screen; false when no menu is shown (the key is the board's).
    pub fn menu_key(&mut self, key: Key) -> bool {
        match self.screen {
            Screen::NewGame => {
                let outcome = self.menus.new_game.key(key);
                self.follow(outcome);
            }
            Screen::Picker => match picker_key(&mut self.menus.picker, key) {
                Ok(Some(n)) => self.open_from_source(n),
                Ok(None) => {}
                Err(outcome) => self.follow(outcome),
            },
            Screen::Stats | Screen::Rules => match key {
                Key::Down | Key::Char('j') => {
                    self.menus.scroll = self.menus.scroll.saturating_add(1)
                }
                Key::Up | Key::Char('k') => self.menus.scroll = self.menus.scroll.saturating_sub(1),
                Key::Char('q') | Key::Ctrl('c') => self.quit = true,
                _ => self.screen = Screen::Play,
            },
            Screen::Train => self.train_menu_key(key),
            Screen::Account => self.account_key(key),
            Screen::Daily => self.daily_key(key),
            // The help screen's own keys: the rules page, and paging.
            Screen::Help if key == Key::Char('r') => self.open_rules(),
            Screen::Help if matches!(key, Key::Char(' ' | 'b') | Key::PageDown | Key::PageUp) => {
                self.page_help(matches!(key, Key::Char(' ') | Key::PageDown));
            }
            Screen::Play | Screen::Help | Screen::Page => return false,
        }
        true
    }

    /// Does what a menu answered.
    pub(crate) fn follow(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Stay => {}
            Outcome::Close => self.screen = Screen::Play,
            Outcome::Quit => self.quit = true,
            Outcome::Start {
                variant,
                size,
                level,
            } => {
                let (puzzle, note) = library::pick(variant, size, &level, self.next_seed());
                self.new_game(puzzle);
                self.menus.source = None;
                let what = if variant == Variant::Honeycomb {
                    variant.to_string()
                } else {
                    format!("{variant} {size}x{size}")
                };
                self.say(Tone::Info, format!("New {what} game: {note}."));
            }
            Outcome::Open(path) => self.open_file(&path),
            Outcome::Picker => self.open_picker(),
            Outcome::Stats => self.open_stats(),
            Outcome::Rules => self.open_rules(),
            Outcome::Train => {
                self.open_train_menu();
            }
            Outcome::Account => self.open_account(),
            Outcome::Daily => self.open_daily(),
        }
    }

    /// Opens a file typed in the menu: the puzzle last played from it (else its first), with
    /// the picker when it holds several. An error stays in the prompt.
    fn open_file(&mut self, typed: &str) {
        if self.account.is_some() {
            self.menus
                .new_game
                .fail("files cannot be opened over SSH".to_string());
            return;
        }
        let path = std::path::Path::new(typed);
        let variant = self.menus.new_game.variant;
        let loaded = crate::format::regular_file_size(path)
            .map_err(|e| e.to_string())
            .and_then(|_| crate::format::load_file(path, variant).map_err(|e| e.to_string()));
        let list = match loaded {
            Ok(list) if list.is_empty() => {
                self.menus
                    .new_game
                    .fail(format!("{typed}: no puzzles in the file"));
                return;
            }
            Ok(list) => list,
            Err(e) => {
                self.menus.new_game.fail(e);
                return;
            }
        };
        if let Some((a, b)) = list[0].conflicts().first() {
            let g = list[0].geometry();
            self.menus.new_game.fail(format!(
                "{typed}: the givens clash: {} and {} hold the same digit",
                g.cell_name(*a),
                g.cell_name(*b)
            ));
            return;
        }
        if list.len() > 1 {
            let state = self.menus.state.as_deref();
            let remembered = state.and_then(|d| library::last_index(d, path));
            let index = remembered
                .filter(|r| (1..=list.len()).contains(r))
                .unwrap_or(1);
            self.menus.source = Some(Source {
                file: path.to_path_buf(),
                puzzles: list,
                index,
                solved: state
                    .map(|d| library::solved_in(d, path))
                    .unwrap_or_default(),
            });
            self.open_from_source(index);
            self.open_picker();
        } else {
            let total = list.len();
            self.menus.source = None;
            if let Some(p) = list.into_iter().next() {
                self.new_game(p);
                self.say(Tone::Info, format!("Opened {typed} ({total} puzzle)."));
            }
        }
    }
}

/// Keys of a picker: like a menu list, with Enter answering the chosen 1-based number.
pub fn picker_key(list: &mut List, key: Key) -> Result<Option<usize>, Outcome> {
    match key {
        Key::Up | Key::Char('k') => list.step(-1),
        Key::Down | Key::Char('j') => list.step(1),
        Key::PageUp => list.selected = list.selected.saturating_sub(10),
        Key::PageDown => {
            list.selected = (list.selected + 10).min(list.items.len().saturating_sub(1))
        }
        Key::Home => list.selected = 0,
        Key::End => list.selected = list.items.len().saturating_sub(1),
        Key::Enter | Key::Char('l') | Key::Right => return Ok(Some(list.selected + 1)),
        Key::Esc | Key::Char('h') | Key::Left => return Err(Outcome::Close),
        Key::Char('q') | Key::Ctrl('c') => return Err(Outcome::Quit),
        _ => {}
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_wrap_and_jump_by_first_letter() {
        let mut m = NewGame::new(Variant::Standard, None);
        m.key(Key::Up);
        assert_eq!(m.list.items[m.list.selected], RULES);
        m.key(Key::Char('f'));
        assert_eq!(m.list.items[m.list.selected], FROM_FILE);
        m.key(Key::Char('K'));
        assert_eq!(m.list.items[m.list.selected], "killer");
        m.key(Key::Char('d'));
        assert_eq!(m.list.items[m.list.selected], "diagonal");
        // h names honeycomb here rather than going back; on the size list it goes back.
        assert_eq!(m.key(Key::Char('h')), Outcome::Stay);
        assert_eq!(m.list.items[m.list.selected], "honeycomb");
        m.key(Key::Char('k'));
        m.key(Key::Enter);
        assert_eq!(m.step, Step::Level);
        m.key(Key::Char('h'));
        assert_eq!(m.list.items[m.list.selected], "hard");
    }

    #[test]
    fn standard_asks_the_size_and_killer_goes_straight_to_the_level() {
        let mut m = NewGame::new(Variant::Standard, None);
        assert_eq!(m.key(Key::Enter), Outcome::Stay);
        assert_eq!(m.step, Step::Size);
        assert_eq!(m.list.items, ["4x4", "6x6", "9x9", "16x16"]);
        m.key(Key::End);
        m.key(Key::Enter);
        assert_eq!(m.list.items, ["any", "easy", "medium", "hard"]);
        assert_eq!(
            m.key(Key::Enter),
            Outcome::Start {
                variant: Variant::Standard,
                size: 16,
                level: "easy".into()
            }
        );
        let mut m = NewGame::new(Variant::Killer, None);
        m.key(Key::Enter);
        assert_eq!(m.step, Step::Level);
        assert_eq!(m.list.items.len(), 6);
        // Back goes to the variants (killer has one size), then closes.
        assert_eq!(m.key(Key::Esc), Outcome::Stay);
        assert_eq!(m.step, Step::Variant);
        assert_eq!(m.key(Key::Esc), Outcome::Close);
    }

    #[test]
    fn the_file_prompt_takes_typed_keys_and_keeps_its_error_until_a_change() {
        let mut m = NewGame::new(Variant::Standard, None);
        m.key(Key::Char('f'));
        m.key(Key::Enter);
        assert!(matches!(m.step, Step::File { .. }));
        for c in "a.txtj".chars() {
            m.key(Key::Char(c));
        }
        m.key(Key::Backspace);
        assert_eq!(m.key(Key::Enter), Outcome::Open("a.txt".into()));
        m.fail("a.txt:1:3: bad".into());
        assert!(matches!(&m.step, Step::File { error: Some(_), .. }));
        m.key(Key::Char('x'));
        assert!(matches!(&m.step, Step::File { error: None, .. }));
        // ctrl-w takes back one part of the path, ctrl-u the whole line.
        m.key(Key::Ctrl('u'));
        for c in "/tmp/p/a.txt".chars() {
            m.key(Key::Char(c));
        }
        m.key(Key::Ctrl('w'));
        for c in "b.txt".chars() {
            m.key(Key::Char(c));
        }
        assert_eq!(m.key(Key::Enter), Outcome::Open("/tmp/p/b.txt".into()));
        m.key(Key::Ctrl('w'));
        m.key(Key::Ctrl('w'));
        assert_eq!(m.key(Key::Enter), Outcome::Open("/tmp/".into()));
        m.key(Key::Ctrl('u'));
        m.key(Key::Char('c'));
        assert_eq!(m.key(Key::Enter), Outcome::Open("c".into()));
    }
}
