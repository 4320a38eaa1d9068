//! `config.toml`: the repository file is the documented default, embedded in the binary;
//! the user's file in the config folder overrides it key by key. Every command is listed
//! once, in [`commands!`], which makes the [`Command`] enum and the `[keys]` table.

use super::keys::KeyList;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The shipped default configuration.
pub const DEFAULT_CONFIG: &str = include_str!("../../config.toml");

macro_rules! commands {
    ($( $variant:ident $field:ident $name:literal [$($key:literal),*] $desc:literal; )*) => {
        /// Every action of the player, by name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Command { $($variant,)* }

        impl Command {
            pub const ALL: &'static [Command] = &[$(Command::$variant,)*];

            /// The name used in `config.toml` and on the help screen.
            pub fn name(self) -> &'static str {
                match self { $(Command::$variant => $name,)* }
            }

            pub fn description(self) -> &'static str {
                match self { $(Command::$variant => $desc,)* }
            }
        }

        /// `[keys]`: command name = key or list of keys.
        #[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
        #[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
        pub struct Keys { $(pub $field: KeyList,)* }

        impl Default for Keys {
            fn default() -> Keys {
                Keys { $($field: KeyList::builtin(&[$($key),*]),)* }
            }
        }

        impl Keys {
            pub fn get(&self, c: Command) -> &KeyList {
                match c { $(Command::$variant => &self.$field,)* }
            }
        }
    };
}

commands! {
    MoveUp move_up "move-up" ["up", "k"] "Move up (wraps; zigzags on a honeycomb)";
    MoveDown move_down "move-down" ["down", "j"] "Move down (wraps; zigzags on a honeycomb)";
    MoveLeft move_left "move-left" ["left", "h"] "Move left (wraps around)";
    MoveRight move_right "move-right" ["right", "l"] "Move right (wraps around)";
    MoveUpLeft move_up_left "move-up-left" ["Y"] "Honeycomb: move up-left along the \\ line (wraps)";
    MoveUpRight move_up_right "move-up-right" ["U"] "Honeycomb: move up-right along the / line (wraps)";
    MoveDownLeft move_down_left "move-down-left" ["B"] "Honeycomb: move down-left along the / line (wraps)";
    MoveDownRight move_down_right "move-down-right" ["N"] "Honeycomb: move down-right along the \\ line (wraps)";
    Digit1 digit_1 "digit-1" ["1"] "Digit 1";
    Digit2 digit_2 "digit-2" ["2"] "Digit 2";
    Digit3 digit_3 "digit-3" ["3"] "Digit 3";
    Digit4 digit_4 "digit-4" ["4"] "Digit 4";
    Digit5 digit_5 "digit-5" ["5"] "Digit 5";
    Digit6 digit_6 "digit-6" ["6"] "Digit 6";
    Digit7 digit_7 "digit-7" ["7"] "Digit 7";
    Digit8 digit_8 "digit-8" ["8"] "Digit 8";
    Digit9 digit_9 "digit-9" ["9"] "Digit 9";
    Digit10 digit_10 "digit-10" ["a"] "Digit 10 (16x16 only)";
    Digit11 digit_11 "digit-11" ["b"] "Digit 11 (16x16 only)";
    Digit12 digit_12 "digit-12" ["c"] "Digit 12 (16x16 only)";
    Digit13 digit_13 "digit-13" ["d"] "Digit 13 (16x16 only)";
    Digit14 digit_14 "digit-14" ["e"] "Digit 14 (16x16 only)";
    Digit15 digit_15 "digit-15" ["f"] "Digit 15 (16x16 only)";
    Digit16 digit_16 "digit-16" ["g"] "Digit 16 (16x16 only)";
    Clear clear "clear" ["0", "x", "delete", "backspace"] "Clear the digit, else the marks";
    PencilMode pencil_mode "pencil-mode" ["p"] "Digits place or pencil (toggle)";
    MarkNext mark_next "mark-next" ["m"] "Next digit toggles a pencil mark";
    Undo undo "undo" ["u"] "Undo";
    Redo redo "redo" ["ctrl-r"] "Redo";
    Hint hint "hint" ["H"] "Hint; again: technique, full step, apply";
    Why why "why" ["w"] "Why not? (then a digit); w again: what the cell must be";
    TechniquePage technique_page "technique-page" ["i"] "The page of the hint's technique (hint stage 2 on)";
    Check check "check" ["c", "C"] "Show entries that differ from the solution";
    Solvable solvable "solvable" ["v"] "Is the board still solvable?";
    FillCandidates fill_candidates "fill-candidates" ["a", "F"] "Pencil in every possible candidate";
    ClearCandidates clear_candidates "clear-candidates" ["X"] "Remove every pencil mark";
    Reveal reveal "reveal" ["R"] "Reveal the selected cell's digit (assisted)";
    Finish finish "finish" ["S"] "Fill in the rest of the solution";
    NewGame new_game "new-game" ["n"] "New game: choose variant and difficulty";
    Train train "train" ["t"] "Trainer: drill a technique, graded";
    Pause pause "pause" ["P"] "Pause or resume the timer";
    Help help "help" ["?", "f1"] "Show or hide this help";
    Confirm confirm "confirm" ["enter"] "Confirm (menus)";
    Cancel cancel "cancel" ["esc"] "Close help or menu, drop the hint";
    Quit quit "quit" ["q", "ctrl-c"] "Save and quit";
}

impl Command {
    /// The digit a digit command stands for.
    pub fn digit(self) -> Option<u8> {
        let i = Command::ALL.iter().position(|&c| c == self)?;
        let first = Command::ALL.iter().position(|&c| c == Command::Digit1)?;
        (first..first + 16)
            .contains(&i)
            .then(|| (i - first + 1) as u8)
    }

    /// The honeycomb's four slanted moves (no such neighbours on other grids).
    pub fn is_slanted_move(self) -> bool {
        matches!(
            self,
            Command::MoveUpLeft
                | Command::MoveUpRight
                | Command::MoveDownLeft
                | Command::MoveDownRight
        )
    }

    /// Digits 10-16, bound in a layer of their own.
    pub fn is_wide_digit(self) -> bool {
        self.digit().is_some_and(|d| d > 9)
    }
}

/// How grid lines are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Borders {
    /// Unicode box drawing when the locale is UTF-8, ASCII otherwise.
    #[default]
    Auto,
    Unicode,
    Ascii,
}

/// Where candidates are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CandidateMode {
    /// Mini-grids when the terminal is big enough, else the side panel.
    #[default]
    Auto,
    Grid,
    Panel,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Display {
    pub borders: Borders,
    pub candidates: CandidateMode,
    pub highlight_same_digit: bool,
    pub highlight_houses: bool,
    pub show_timer: bool,
    pub mouse: bool,
}

impl Default for Display {
    fn default() -> Display {
        Display {
            borders: Borders::Auto,
            candidates: CandidateMode::Auto,
            highlight_same_digit: true,
            highlight_houses: true,
            show_timer: true,
            mouse: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct GameConfig {
    pub auto_remove_candidates: bool,
    pub fill_candidates_on_start: bool,
    pub show_conflicts: bool,
    pub count_mistakes: bool,
    /// Work out the next hint in the background after each change (a local player).
    pub hint_ahead: bool,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            auto_remove_candidates: true,
            fill_candidates_on_start: false,
            show_conflicts: true,
            count_mistakes: true,
            hint_ahead: true,
        }
    }
}

/// A style written as words: colours (`red`, `light-blue`, `default`, ...), `on <colour>`
/// for the background, and modifiers (`bold`, `dim`, `italic`, `underlined`, `reversed`,
/// `crossed-out`). Checked when the file is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StyleSpec(pub String);

impl<'de> Deserialize<'de> for StyleSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StyleSpec, D::Error> {
        let s = String::deserialize(d)?;
        super::theme::parse_style(&s).map_err(serde::de::Error::custom)?;
        Ok(StyleSpec(s))
    }
}

macro_rules! theme_roles {
    ($( $field:ident $default:literal $doc:literal; )*) => {
        /// `[theme]`: a style per role.
        #[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
        #[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
        pub struct ThemeConfig { $(#[doc = $doc] pub $field: StyleSpec,)* }

        impl Default for ThemeConfig {
            fn default() -> ThemeConfig {
                ThemeConfig { $($field: StyleSpec($default.to_string()),)* }
            }
        }
    };
}

theme_roles! {
    given "bold" "Digits of the puzzle";
    entry "blue" "Digits the player entered";
    candidate "default" "Pencil marks";
    cursor "reversed" "The selected cell";
    same_digit "black on cyan" "Cells holding the selected digit";
    house "default" "Houses of the selected cell (rows, columns, boxes)";
    conflict "light-red bold underlined" "Digits that break a rule";
    wrong "white on red bold" "Entries that differ from the solution (after check)";
    grid "default" "Thin grid lines";
    box_border "bold" "Box and region borders";
    cage "yellow" "Killer cage lines and sums";
    diagonal "magenta" "Diagonal marks";
    line "black on yellow" "Honeycomb lines of the selected cell";
    shade "on black" "Every other cell row inside a box, when rows have no line between them";
    title "bold" "Panel titles";
    message "green" "Messages";
    error "light-red bold" "Errors and warnings";
    defining "black on yellow" "Hint: cells and houses of the pattern";
    base "black on light-blue" "Hint: base sets";
    cover "black on light-magenta" "Hint: cover sets";
    fin "black on light-red" "Hint: fins";
    pivot "black on yellow bold" "Hint: pivot";
    pincer "black on light-cyan" "Hint: pincers";
    color_a "black on light-green" "Hint: colour A";
    color_b "black on light-magenta" "Hint: colour B";
    placement "black on green bold" "Hint: digit to place";
    elimination "white on red crossed-out" "Hint: candidate to remove";
}

/// The whole configuration.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    pub display: Display,
    pub game: GameConfig,
    pub keys: Keys,
    pub theme: ThemeConfig,
}

/// A configuration file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}:{line}:{col}: {message}{context}")]
    Parse {
        file: String,
        line: usize,
        col: usize,
        message: String,
        /// The offending line, quoted.
        context: String,
    },
    #[error("{file}: {message}")]
    Other { file: String, message: String },
}

/// Parses a configuration text; `file` names it in errors, which give the line and column
/// and quote the line (so the key is named). The keys are checked too: no key bound twice,
/// and quit and help keep a key each (the help screen and the way out need them).
pub fn parse(text: &str, file: &str) -> Result<Config, ConfigError> {
    let config = toml::from_str::<Config>(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        error_at(text, file, offset, e.message().trim())
    })?;
    check_keys(&config, text, file)?;
    Ok(config)
}

/// An error at byte `offset` of `text`.
fn error_at(text: &str, file: &str, offset: usize, message: &str) -> ConfigError {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |p| p + 1);
    let col = before[start..].chars().count() + 1;
    let source = text[start..].lines().next().unwrap_or("").trim();
    ConfigError::Parse {
        file: file.to_string(),
        line,
        col,
        message: message.to_string(),
        context: if source.is_empty() {
            String::new()
        } else {
            format!(" (in `{source}`)")
        },
    }
}

/// Where `name = ...` is set in the `[keys]` table (or as `keys.name`), as a byte offset.
fn key_offset(text: &str, name: &str) -> Option<usize> {
    let mut table = String::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix('[') {
            table = rest.split(']').next().unwrap_or("").trim().to_string();
            continue;
        }
        let key = if table == "keys" {
            Some(trimmed)
        } else if table.is_empty() {
            trimmed.strip_prefix("keys.")
        } else {
            None
        };
        let Some(rest) = key.and_then(|k| k.strip_prefix(name)) else {
            continue;
        };
        let rest = rest.trim_start_matches(['"', '\'']);
        if rest.trim_start().starts_with('=') {
            return Some(here + indent);
        }
    }
    None
}

fn check_keys(config: &Config, text: &str, file: &str) -> Result<(), ConfigError> {
    let at = |name: &str, message: String| {
        let offset = key_offset(text, name)
            .or_else(|| text.find("[keys]"))
            .unwrap_or(0);
        error_at(text, file, offset, &message)
    };
    let keymap = super::keys::Keymap::new(config).map_err(|e| at(e.second, e.to_string()))?;
    let defaults = Keys::default();
    for needed in [Command::Quit, Command::Help] {
        if !keymap.keys_of(needed).is_empty() {
            continue;
        }
        let name = needed.name();
        // Blame the line that took the last key away, else the command's own line.
        let own = config.keys.get(needed) != defaults.get(needed);
        let taker = Command::ALL.iter().copied().find(|&c| {
            c != needed
                && config.keys.get(c) != defaults.get(c)
                && defaults
                    .get(needed)
                    .0
                    .iter()
                    .any(|k| config.keys.get(c).0.contains(k))
        });
        return Err(match taker.filter(|_| !own) {
            Some(t) => at(
                t.name(),
                format!(
                    "`{}` takes the last key of `{name}`, which needs one",
                    t.name()
                ),
            ),
            None => at(
                name,
                format!(
                    "`{name}` needs at least one key (the help screen and the way out depend on it)"
                ),
            ),
        });
    }
    Ok(())
}

/// The user's file: `config.toml` in the config folder.
pub fn user_config_path(dir: &Path) -> PathBuf {
    dir.join("config.toml")
}

/// Loads the user's configuration over the defaults; a missing file gives the defaults.
pub fn load(dir: Option<&Path>) -> Result<Config, ConfigError> {
    let Some(dir) = dir else {
        return Ok(Config::default());
    };
    let path = user_config_path(dir);
    let name = path.display().to_string();
    match std::fs::read(&path) {
        Ok(bytes) => match std::str::from_utf8(&bytes) {
            Ok(text) => parse(text, &name),
            Err(e) => {
                // Position the error in the part that is valid text.
                let good = String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned();
                Err(error_at(&good, &name, good.len(), "invalid UTF-8"))
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(e) => Err(ConfigError::Other {
            file: name,
            message: e.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_config_is_the_default() {
        let shipped = parse(DEFAULT_CONFIG, "config.toml").unwrap();
        assert_eq!(shipped, Config::default());
    }

    #[test]
    fn shipped_config_names_every_command() {
        for c in Command::ALL {
            assert!(
                DEFAULT_CONFIG.contains(&format!("\n{} = ", c.name())),
                "{} missing from config.toml",
                c.name()
            );
        }
    }

    #[test]
    fn user_file_overrides_key_by_key() {
        let c = parse("[game]\nauto-remove-candidates = false\n", "u.toml").unwrap();
        assert!(!c.game.auto_remove_candidates);
        assert_eq!(c.display, Display::default());
        assert_eq!(c.keys, Keys::default());
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let e = parse("[display]\nborders = \"ascii\"\nfancy = true\n", "u.toml")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("u.toml:3:1:"), "{e}");
        assert!(e.contains("fancy"), "{e}");
    }

    #[test]
    fn bad_values_name_key_and_line() {
        let cases = [
            ("[display]\n\nborders = \"fancy\"\n", "u.toml:3:", "borders"),
            ("[keys]\nundo = \"ctrll-z\"\n", "u.toml:2:", "ctrll-z"),
            ("[keys]\nundoo = \"z\"\n", "u.toml:2:", "undoo"),
            ("[theme]\ngiven = \"blod\"\n", "u.toml:2:", "given"),
            (
                "[game]\nshow-conflicts = 3\n",
                "u.toml:2:",
                "show-conflicts",
            ),
        ];
        for (text, at, key) in cases {
            let e = parse(text, "u.toml").unwrap_err().to_string();
            assert!(e.starts_with(at), "{text:?}: {e}");
            assert!(e.contains(key), "{text:?}: {e}");
        }
    }

    #[test]
    fn keys_that_lock_the_user_in_or_never_fire_are_errors_with_their_line() {
        let cases = [
            ("[keys]\nundo = \"u\"\nquit = []\n", "u.toml:3:1:", "quit"),
            ("[keys]\n\nhelp = []\n", "u.toml:3:1:", "help"),
            (
                "[keys]\nhint = [\"q\", \"ctrl-c\"]\n",
                "u.toml:2:1:",
                "last key of `quit`",
            ),
            ("[keys]\nredo = \"ctrl-m\"\n", "u.toml:2:", "enter"),
            ("[keys]\nredo = [\"ctrl-1\"]\n", "u.toml:2:", "ctrl-1"),
            (
                "[display]\nborders = \"ascii\"\n[keys]\nhint = \"z\"\nundo = \"z\"\n",
                "u.toml:4:1:",
                "`z` is bound to both",
            ),
        ];
        for (text, at, what) in cases {
            let e = parse(text, "u.toml").unwrap_err().to_string();
            assert!(e.starts_with(at), "{text:?}: {e}");
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn invalid_utf8_names_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = user_config_path(dir.path());
        std::fs::write(&path, b"[display]\nborders = \"asc\xffii\"\n").unwrap();
        let e = load(Some(dir.path())).unwrap_err().to_string();
        assert!(e.contains("config.toml:2:15: invalid UTF-8"), "{e}");
    }

    use proptest::prelude::*;

    use crate::testing::proptest_config as cases;

    /// Errors point into the file: a line that exists, and a column on it.
    fn points_into(text: &str, e: &ConfigError) {
        if let ConfigError::Parse { line, col, .. } = e {
            let lines: Vec<&str> = text.split('\n').collect();
            assert!(*line >= 1 && *line <= lines.len(), "{e}");
            assert!(
                *col >= 1 && *col <= lines[line - 1].chars().count() + 1,
                "{e}"
            );
        }
    }

    proptest! {
        #![proptest_config(cases(2000))]

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            if let Err(e) = parse(&text, "u.toml") {
                points_into(&text, &e);
            }
        }

        #[test]
        fn mutated_configs_never_panic(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..5),
        ) {
            let mut chars: Vec<char> = DEFAULT_CONFIG.chars().collect();
            for (at, c) in flips {
                let i = at.index(chars.len());
                chars[i] = c;
            }
            let text: String = chars.into_iter().collect();
            if let Err(e) = parse(&text, "u.toml") {
                points_into(&text, &e);
            }
        }

        #[test]
        fn any_key_list_is_taken_or_refused_with_its_line(
            name in prop::sample::select(Command::ALL.to_vec()),
            keys in proptest::collection::vec("[a-zA-Z0-9?!-]{0,8}|ctrl-.|f[0-9]{1,2}", 0..4),
        ) {
            let list: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
            let text = format!("[game]\nshow-conflicts = true\n[keys]\n{} = [{}]\n", name.name(), list.join(", "));
            match parse(&text, "u.toml") {
                Ok(c) => {
                    let km = super::super::keys::Keymap::new(&c).unwrap();
                    prop_assert!(!km.keys_of(Command::Quit).is_empty());
                    prop_assert!(!km.keys_of(Command::Help).is_empty());
                }
                Err(e) => {
                    let e = e.to_string();
                    prop_assert!(e.starts_with("u.toml:4:"), "{}", e);
                }
            }
        }
    }
}
