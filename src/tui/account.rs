//! The player's options and account, when the player is served (`termdoku serve`): what a
//! local player takes from its environment and `config.toml` (colours, borders, the
//! mouse) as options of the game's menu, the display name, and export and deletion of the
//! player's data. The app asks (it does no I/O); the event loop answers through the
//! [`AccountStore`] the server gave it.

use super::app::{App, Screen, Tone};
use super::config::Borders;
use super::keys::Key;
use super::menu::List;
use super::theme::Theme;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A served player's own display options. A local player has none: it keeps reading its
/// environment (`NO_COLOR`, the locale) and `config.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct Options {
    /// Colours of the theme (off: modifiers only, as `NO_COLOR` does).
    pub colour: bool,
    pub borders: Borders,
    /// Mouse reporting (applied when the session starts).
    pub mouse: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            colour: true,
            borders: Borders::Auto,
            mouse: true,
        }
    }
}

/// Display names: 3-20 letters, digits, `-` or `_`.
pub const NAME_RULES: &str = "3-20 characters: letters, digits, - or _";

/// Why a name cannot be a display name (its uniqueness is the store's to check).
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !(3..=20).contains(&n) {
        return Err(format!("A name has {NAME_RULES}; `{name}` has {n}."));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(format!("`{c}` cannot be in a name ({NAME_RULES})."));
    }
    // The leaderboard shows players without a name as `anonymous-` and a piece of their key.
    if name.to_ascii_lowercase().starts_with("anonymous") {
        return Err("Names starting with `anonymous` are kept for players without one.".into());
    }
    Ok(())
}

/// Where a served player's account is kept. Errors are sentences for the player.
pub trait AccountStore: Send + Sync {
    fn save_options(&self, options: &Options) -> Result<(), String>;
    /// Sets the display name (already checked by [`check_name`]); a name another player
    /// has, in any case, is refused.
    fn set_name(&self, name: &str) -> Result<(), String>;
    /// Everything kept about the player, as JSON.
    fn export(&self) -> Result<String, String>;
    /// Removes everything kept about the player; nothing is saved afterwards.
    fn delete(&self) -> Result<(), String>;
}

/// What the account screen asks of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    SaveOptions(Options),
    SetName(String),
    Export,
    Delete,
}

/// Where the account screen is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    List,
    /// Typing a display name; the last refusal stays shown until a key changes it.
    Name {
        typed: String,
        error: Option<String>,
    },
    /// Typing `delete` to confirm.
    Delete {
        typed: String,
    },
}

/// A served player's account as the game shows it.
#[derive(Clone, Debug)]
pub struct Account {
    pub name: Option<String>,
    pub options: Options,
    /// Nothing is kept for a guest: options last the session, and there is no name or data.
    pub guest: bool,
    pub step: Step,
    pub list: List,
    requests: Vec<Request>,
    /// Printed on the player's terminal once the full-screen view is left (an export, or
    /// the word that the data is gone), after which the session ends.
    pub farewell: Option<String>,
}

/// The menu's entries, in order.
const COLOUR: usize = 0;
const BORDERS: usize = 1;
const MOUSE: usize = 2;
const NAME: usize = 3;
const EXPORT: usize = 4;
const DELETE: usize = 5;

/// The word that confirms deletion.
pub const DELETE_WORD: &str = "delete";

impl Account {
    pub fn new(name: Option<String>, options: Options, guest: bool) -> Account {
        let mut a = Account {
            name,
            options,
            guest,
            step: Step::List,
            list: List::default(),
            requests: Vec::new(),
            farewell: None,
        };
        a.refresh(0);
        a
    }

    /// The entries with their current values.
    fn refresh(&mut self, selected: usize) {
        let on = |b: bool| if b { "on" } else { "off" };
        let borders = match self.options.borders {
            Borders::Auto => "auto",
            Borders::Unicode => "unicode",
            Borders::Ascii => "ascii",
        };
        let name = match (&self.name, self.guest) {
            (_, true) => "display name: (guests have none)".to_string(),
            (Some(n), false) => format!("display name: {n}"),
            (None, false) => "display name: (none; choose one)".to_string(),
        };
        let items = vec![
            format!("colours: {}", on(self.options.colour)),
            format!("borders: {borders}"),
            format!(
                "mouse: {} (from your next connection)",
                on(self.options.mouse)
            ),
            name,
            "export my data (prints it and ends the session)".to_string(),
            "delete my data".to_string(),
        ];
        self.list = List::new(items, selected);
    }

    pub fn title(&self) -> &'static str {
        match self.step {
            Step::List if self.guest => "Options (a guest's last this session)",
            Step::List => "Options and account",
            Step::Name { .. } => "Your display name",
            Step::Delete { .. } => "Delete all your data",
        }
    }

    /// The requests made since the last call, for the event loop.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }
}

/// How the options show: the theme without colours, the borders for the locale.
pub fn apply(app: &mut App, options: &Options, utf8: bool) {
    app.theme = Theme::new(&app.config.theme, !options.colour);
    app.ascii = match options.borders {
        Borders::Auto => !utf8,
        Borders::Unicode => false,
        Borders::Ascii => true,
    };
    app.config.display.borders = options.borders;
    app.config.display.mouse = options.mouse;
}

impl App {
    /// Opens the options and account screen (served players only).
    pub fn open_account(&mut self) {
        if let Some(a) = &mut self.account {
            a.step = Step::List;
            a.refresh(0);
            self.screen = Screen::Account;
        }
    }

    /// A key on the account screen.
    pub(crate) fn account_key(&mut self, key: Key) {
        let Some(a) = self.account.as_mut() else {
            self.screen = Screen::Play;
            return;
        };
        match &mut a.step {
            Step::Name { typed, error } => match key {
                k if crate::tui::keys::edit_line(typed, k, 40) => *error = None,
                Key::Esc => a.step = Step::List,
                Key::Ctrl('c') => self.quit = true,
                Key::Enter => {
                    let name = typed.trim().to_string();
                    match check_name(&name) {
                        Ok(()) => a.requests.push(Request::SetName(name)),
                        Err(e) => *error = Some(e),
                    }
                }
                _ => {}
            },
            Step::Delete { typed } => match key {
                k if crate::tui::keys::edit_line(typed, k, 20) => {}
                Key::Esc => a.step = Step::List,
                Key::Ctrl('c') => self.quit = true,
                Key::Enter if typed.trim() == DELETE_WORD => a.requests.push(Request::Delete),
                Key::Enter => {
                    a.step = Step::List;
                    self.say(Tone::Info, "Nothing was deleted.");
                }
                _ => {}
            },
            Step::List => match key {
                Key::Up | Key::Char('k') => a.list.step(-1),
                Key::Down | Key::Char('j') | Key::Tab => a.list.step(1),
                Key::Enter | Key::Right | Key::Char('l' | ' ') => self.choose_account_entry(),
                Key::Esc | Key::Left | Key::Char('h') => self.screen = Screen::Play,
                Key::Char('q') | Key::Ctrl('c') => self.quit = true,
                _ => {}
            },
        }
    }

    fn choose_account_entry(&mut self) {
        let utf8 = self.utf8;
        let Some(a) = self.account.as_mut() else {
            return;
        };
        let at = a.list.selected;
        let mut options = a.options;
        match at {
            COLOUR => options.colour = !options.colour,
            BORDERS => {
                options.borders = match options.borders {
                    Borders::Auto => Borders::Unicode,
                    Borders::Unicode => Borders::Ascii,
                    Borders::Ascii => Borders::Auto,
                }
            }
            MOUSE => options.mouse = !options.mouse,
            _ if a.guest => {
                self.say(
                    Tone::Info,
                    "Nothing is kept for a guest: connect with an SSH key to have a name and data.",
                );
                return;
            }
            NAME => {
                a.step = Step::Name {
                    typed: a.name.clone().unwrap_or_default(),
                    error: None,
                };
                return;
            }
            EXPORT => {
                a.requests.push(Request::Export);
                return;
            }
            DELETE => {
                a.step = Step::Delete {
                    typed: String::new(),
                };
                return;
            }
            _ => return,
        }
        a.options = options;
        if !a.guest {
            a.requests.push(Request::SaveOptions(options));
        }
        a.refresh(at);
        apply(self, &options, utf8);
    }

    /// Carries out the account's requests with `store` (none: nothing is kept).
    pub fn serve_account(&mut self, store: Option<&Arc<dyn AccountStore>>) {
        let Some(requests) = self.account.as_mut().map(Account::take_requests) else {
            return;
        };
        for r in requests {
            let Some(store) = store else {
                self.say(Tone::Warning, "Your data cannot be kept on this server.");
                continue;
            };
            match r {
                Request::SaveOptions(o) => {
                    if let Err(e) = store.save_options(&o) {
                        self.say(Tone::Warning, format!("Options not saved: {e}"));
                    }
                }
                Request::SetName(name) => match store.set_name(&name) {
                    Ok(()) => {
                        if let Some(a) = self.account.as_mut() {
                            a.name = Some(name.clone());
                            a.step = Step::List;
                            a.refresh(NAME);
                        }
                        self.say(Tone::Info, format!("Your display name is now {name}."));
                    }
                    Err(e) => {
                        if let Some(Account {
                            step: Step::Name { error, .. },
                            ..
                        }) = self.account.as_mut()
                        {
                            *error = Some(e);
                        }
                    }
                },
                Request::Export => match store.export() {
                    Ok(json) => {
                        if let Some(a) = self.account.as_mut() {
                            a.farewell = Some(format!(
                                "{json}\r\ntermdoku: that is all the server keeps about you (JSON above); reconnect to play on.",
                                json = json.replace('\n', "\r\n")
                            ));
                        }
                        self.quit = true;
                    }
                    Err(e) => self.say(Tone::Warning, format!("Export failed: {e}")),
                },
                Request::Delete => match store.delete() {
                    Ok(()) => {
                        if let Some(a) = self.account.as_mut() {
                            a.farewell = Some(
                                "termdoku: your data was deleted: games, statistics, profile, options and name. Connecting again starts afresh."
                                    .into(),
                            );
                        }
                        self.quit = true;
                    }
                    Err(e) => {
                        if let Some(a) = self.account.as_mut() {
                            a.step = Step::List;
                        }
                        self.say(Tone::Warning, format!("Nothing was deleted: {e}"));
                    }
                },
            }
        }
    }

    /// What to print once the session's full screen is left, if anything.
    pub fn farewell(&self) -> Option<&str> {
        self.account.as_ref().and_then(|a| a.farewell.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Fake {
        names: Mutex<Vec<String>>,
        options: Mutex<Option<Options>>,
        deleted: Mutex<bool>,
    }

    impl AccountStore for Fake {
        fn save_options(&self, o: &Options) -> Result<(), String> {
            *self.options.lock().unwrap() = Some(*o);
            Ok(())
        }
        fn set_name(&self, name: &str) -> Result<(), String> {
            let mut names = self.names.lock().unwrap();
            if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                return Err(format!("{name} is taken"));
            }
            names.push(name.to_string());
            Ok(())
        }
        fn export(&self) -> Result<String, String> {
            Ok("{\n  \"name\": 1\n}".into())
        }
        fn delete(&self) -> Result<(), String> {
            *self.deleted.lock().unwrap() = true;
            Ok(())
        }
    }

    fn served() -> (App, Arc<dyn AccountStore>, Arc<Fake>) {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        app.account = Some(Account::new(None, Options::default(), false));
        let fake = Arc::new(Fake::default());
        fake.names.lock().unwrap().push("Taken".into());
        let store: Arc<dyn AccountStore> = fake.clone();
        (app, store, fake)
    }

    fn keys(app: &mut App, store: &Arc<dyn AccountStore>, keys: &str) {
        app.press(keys);
        app.serve_account(Some(store));
    }

    #[test]
    fn a_served_player_cannot_open_the_servers_files() {
        let (mut app, _store, _fake) = served();
        app.press("n");
        let items = &app.menus.new_game.list.items;
        assert!(
            !items.iter().any(|i| i == crate::tui::menu::FROM_FILE),
            "{items:?}"
        );
        // Nor by typing a path into the prompt, were it reached some other way.
        let puzzle =
            std::env::temp_dir().join(format!("termdoku-served-{}.txt", std::process::id()));
        std::fs::write(&puzzle, format!("{}\n", ".".repeat(81))).unwrap();
        app.menus.new_game.step = crate::tui::menu::Step::File {
            path: puzzle.display().to_string(),
            error: None,
        };
        app.press("<enter>");
        let _ = std::fs::remove_file(&puzzle);
        assert!(app.menus.source.is_none(), "a served player opened a file");
        match &app.menus.new_game.step {
            crate::tui::menu::Step::File { error: Some(e), .. } => {
                assert!(e.contains("over SSH"), "{e}")
            }
            other => panic!("no refusal: {other:?}"),
        }
    }

    #[test]
    fn names_are_checked_for_length_and_characters() {
        assert!(check_name("ab").unwrap_err().contains("3-20"));
        assert!(check_name(&"a".repeat(21)).is_err());
        assert!(check_name("a b").unwrap_err().contains("` `"));
        assert!(check_name("é-é").is_err());
        assert!(check_name("Ann_9-x").is_ok());
    }

    #[test]
    fn the_menu_reaches_the_account_screen_and_options_apply_and_are_saved() {
        let (mut app, store, fake) = served();
        app.press("n");
        assert!(app
            .menus
            .new_game
            .list
            .items
            .iter()
            .any(|i| i == crate::tui::menu::ACCOUNT));
        keys(&mut app, &store, "o<enter>");
        assert_eq!(app.screen, Screen::Account);
        let coloured = app.theme.clone();
        // Colours off: the theme drops them at once, and the option is stored.
        keys(&mut app, &store, "<enter>");
        assert_ne!(app.theme, coloured);
        assert!(!fake.options.lock().unwrap().unwrap().colour);
        // Borders: auto -> unicode -> ascii.
        keys(&mut app, &store, "j<enter><enter>");
        assert!(app.ascii);
        assert_eq!(
            fake.options.lock().unwrap().unwrap().borders,
            Borders::Ascii
        );
    }

    #[test]
    fn a_taken_or_invalid_name_is_refused_in_the_prompt_and_a_good_one_is_set() {
        let (mut app, store, _) = served();
        app.open_account();
        keys(&mut app, &store, "jjj<enter>ab<enter>");
        let error = |app: &App| match &app.account.as_ref().unwrap().step {
            Step::Name { error, .. } => error.clone(),
            s => panic!("not naming: {s:?}"),
        };
        assert!(error(&app).unwrap().contains("3-20"));
        keys(&mut app, &store, "<backspace><backspace>taken<enter>");
        assert!(error(&app).unwrap().contains("taken"));
        keys(
            &mut app,
            &store,
            "<backspace><backspace><backspace><backspace><backspace>Ann_9<enter>",
        );
        assert_eq!(app.account.as_ref().unwrap().name.as_deref(), Some("Ann_9"));
        assert_eq!(app.account.as_ref().unwrap().step, Step::List);
    }

    #[test]
    fn deleting_needs_the_word_and_then_ends_the_session() {
        let (mut app, store, fake) = served();
        app.open_account();
        // Five downs from the first entry reach "delete my data".
        keys(&mut app, &store, "jjjjj<enter>yes<enter>");
        assert!(!*fake.deleted.lock().unwrap() && !app.quit);
        keys(&mut app, &store, "<enter>delete<enter>");
        assert!(*fake.deleted.lock().unwrap());
        assert!(app.quit);
        assert!(app.farewell().unwrap().contains("deleted"));
    }

    #[test]
    fn export_ends_the_session_with_the_json_to_print() {
        let (mut app, store, _) = served();
        app.open_account();
        keys(&mut app, &store, "jjjj<enter>");
        assert!(app.quit);
        assert!(app
            .farewell()
            .unwrap()
            .starts_with("{\r\n  \"name\": 1\r\n}"));
    }

    #[test]
    fn a_guest_changes_options_for_the_session_only() {
        let (mut app, store, fake) = served();
        app.account = Some(Account::new(None, Options::default(), true));
        app.open_account();
        keys(&mut app, &store, "<enter>jjj<enter>");
        assert!(fake.options.lock().unwrap().is_none(), "nothing stored");
        assert!(!app.account.as_ref().unwrap().options.colour);
        assert_eq!(app.account.as_ref().unwrap().step, Step::List);
        assert!(app.message.as_ref().unwrap().text.contains("guest"));
    }
}
