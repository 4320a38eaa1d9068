//! The app's own key type, key names as written in `config.toml`, and the keymap that
//! turns keys into named commands.

use super::config::{Command, Config};
use serde::{Deserialize, Deserializer};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// A key press, independent of the terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Char(char),
    Ctrl(char),
    Up,
    Down,
    Left,
    Right,
    Enter,
    Esc,
    Tab,
    Backspace,
    Delete,
    Home,
    End,
    PageUp,
    PageDown,
    F(u8),
}

const NAMED: &[(&str, Key)] = &[
    ("up", Key::Up),
    ("down", Key::Down),
    ("left", Key::Left),
    ("right", Key::Right),
    ("enter", Key::Enter),
    ("esc", Key::Esc),
    ("tab", Key::Tab),
    ("backspace", Key::Backspace),
    ("delete", Key::Delete),
    ("home", Key::Home),
    ("end", Key::End),
    ("pageup", Key::PageUp),
    ("pagedown", Key::PageDown),
    ("space", Key::Char(' ')),
];

/// Why a key name cannot be bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    #[error("unknown key `{0}` (expected one character, a name such as up, enter, esc, space, delete, f1, or ctrl- and a letter)")]
    Unknown(String),
    /// A key the terminal never reports as itself: what it sends instead.
    #[error("`{0}` cannot be bound: terminals send it as {1}")]
    Unbindable(String, &'static str),
}

impl FromStr for Key {
    type Err = KeyError;
    fn from_str(s: &str) -> Result<Key, KeyError> {
        let err = || KeyError::Unknown(s.to_string());
        let mut chars = s.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return if c.is_control() {
                Err(err())
            } else {
                Ok(Key::Char(c))
            };
        }
        let lower = s.to_ascii_lowercase();
        if let Some(&(_, k)) = NAMED.iter().find(|(n, _)| *n == lower) {
            return Ok(k);
        }
        if let Some(rest) = lower.strip_prefix("ctrl-") {
            let mut cs = rest.chars();
            return match (cs.next(), cs.next()) {
                // Terminals send ctrl-m as enter and ctrl-i as tab: bound, they never fire.
                (Some('m'), None) => Err(KeyError::Unbindable(s.to_string(), "enter")),
                (Some('i'), None) => Err(KeyError::Unbindable(s.to_string(), "tab")),
                (Some(c), None) if c.is_ascii_lowercase() => Ok(Key::Ctrl(c)),
                (Some(c), None) if c.is_ascii_digit() => Err(KeyError::Unbindable(
                    s.to_string(),
                    "a digit or nothing at all",
                )),
                _ => Err(err()),
            };
        }
        if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
            if (1..=12).contains(&n) {
                return Ok(Key::F(n));
            }
        }
        Err(err())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Char(' ') => f.write_str("space"),
            Key::Char(c) => write!(f, "{c}"),
            Key::Ctrl(c) => write!(f, "ctrl-{c}"),
            Key::F(n) => write!(f, "f{n}"),
            k => {
                let name = NAMED.iter().find(|(_, x)| x == k).map_or("?", |(n, _)| n);
                f.write_str(name)
            }
        }
    }
}

/// Keys written as text: each character is a key, `<name>` a named key (`<up>`,
/// `<ctrl-r>`, `<space>`); plain spaces only separate. Unknown names are skipped.
pub fn parse_sequence(keys: &str) -> Vec<Key> {
    let mut out = Vec::new();
    let mut chars = keys.chars();
    while let Some(c) = chars.next() {
        if c == ' ' {
            continue;
        }
        if c == '<' {
            let name: String = chars.by_ref().take_while(|&x| x != '>').collect();
            if let Ok(k) = name.parse() {
                out.push(k);
            }
            continue;
        }
        out.push(Key::Char(c));
    }
    out
}

/// A key typed into a one-line prompt, edited as in a shell: a character is added (up to
/// `max` characters), backspace takes one back, ctrl-u clears the line, ctrl-w takes back
/// the last word (up to a space or a '/', so one part of a path). False for any other key.
pub fn edit_line(line: &mut String, key: Key, max: usize) -> bool {
    match key {
        Key::Char(c) => {
            if line.chars().count() < max {
                line.push(c);
            }
        }
        Key::Backspace => {
            line.pop();
        }
        Key::Ctrl('u') => line.clear(),
        Key::Ctrl('w') => {
            let word = |c: char| c == '/' || c == ' ';
            let kept = line.trim_end_matches(word).rfind(word).map_or(0, |i| i + 1);
            line.truncate(kept);
        }
        _ => return false,
    }
    true
}

/// The keys bound to one command: one key name or a list of them in `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KeyList(pub Vec<Key>);

impl KeyList {
    /// From built-in names, which are known to parse.
    pub fn builtin(names: &[&str]) -> KeyList {
        KeyList(names.iter().filter_map(|n| n.parse().ok()).collect())
    }
}

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyList, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            Many(Vec<String>),
        }
        let names = match Raw::deserialize(d)
            .map_err(|_| serde::de::Error::custom("expected a key name or a list of key names"))?
        {
            Raw::One(s) => vec![s],
            Raw::Many(v) => v,
        };
        names
            .iter()
            .map(|n| n.parse::<Key>().map_err(serde::de::Error::custom))
            .collect::<Result<Vec<Key>, _>>()
            .map(KeyList)
    }
}

/// Keys to commands. Digits 10-16 (`a`-`g` by default) form a layer of their own that is
/// only consulted on grids with more than 9 digits, where it wins over other bindings.
#[derive(Clone, Debug, Default)]
pub struct Keymap {
    main: HashMap<Key, Command>,
    wide: HashMap<Key, Command>,
    /// Keys per command in command order, for the help screen.
    bindings: Vec<(Command, Vec<Key>)>,
}

/// Two commands bound to the same key by the user's file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("key `{key}` is bound to both `{first}` and `{second}`")]
pub struct BindingError {
    pub key: Key,
    pub first: &'static str,
    pub second: &'static str,
}

impl Keymap {
    /// Builds the keymap. A key the user bound wins over a default binding of another
    /// command (which loses that key); two user bindings of one key are an error.
    pub fn new(config: &Config) -> Result<Keymap, BindingError> {
        let defaults = Config::default();
        let mut map = Keymap::default();
        let mut user_keys: HashMap<(bool, Key), Command> = HashMap::new();
        let mut bindings: Vec<(Command, Vec<Key>, bool)> = Command::ALL
            .iter()
            .map(|&c| {
                let keys = config.keys.get(c);
                (c, keys.0.clone(), keys != defaults.keys.get(c))
            })
            .collect();
        for (cmd, keys, user) in &bindings {
            if !user {
                continue;
            }
            for &k in keys {
                if let Some(other) = user_keys.insert((cmd.is_wide_digit(), k), *cmd) {
                    if other != *cmd {
                        return Err(BindingError {
                            key: k,
                            first: other.name(),
                            second: cmd.name(),
                        });
                    }
                }
            }
        }
        for (cmd, keys, user) in &mut bindings {
            if !*user {
                keys.retain(|k| !user_keys.contains_key(&(cmd.is_wide_digit(), *k)));
            }
        }
        for (cmd, keys, _) in &bindings {
            let layer = if cmd.is_wide_digit() {
                &mut map.wide
            } else {
                &mut map.main
            };
            for &k in keys {
                layer.entry(k).or_insert(*cmd);
            }
        }
        map.bindings = bindings.into_iter().map(|(c, k, _)| (c, k)).collect();
        Ok(map)
    }

    /// The command for a key on a grid whose largest digit is `max_digit`.
    pub fn lookup(&self, key: Key, max_digit: u8) -> Option<Command> {
        if max_digit > 9 {
            if let Some(&c) = self.wide.get(&key) {
                return Some(c);
            }
            // The board and the digit bar show A-G: a capital with no command of its own
            // here (A, D, E, G by default, and B, a honeycomb's slanted move) is the digit
            // its small letter is bound to.
            if let Key::Char(ch @ 'A'..='G') = key {
                if self.main.get(&key).is_none_or(|c| c.is_slanted_move()) {
                    let small = Key::Char(ch.to_ascii_lowercase());
                    if let Some(&c) = self.wide.get(&small) {
                        return Some(c);
                    }
                }
            }
        }
        self.main.get(&key).copied()
    }

    /// The keys of a command.
    pub fn keys_of(&self, cmd: Command) -> &[Key] {
        self.bindings
            .iter()
            .find(|(c, _)| *c == cmd)
            .map_or(&[], |(_, k)| k.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_round_trip() {
        for name in [
            "k", "K", "?", "ctrl-r", "up", "delete", "space", "f1", "esc",
        ] {
            let k: Key = name.parse().unwrap();
            assert_eq!(k.to_string(), name);
        }
        assert!("ctrl-".parse::<Key>().is_err());
        assert!("upp".parse::<Key>().is_err());
        for never_fires in ["ctrl-m", "ctrl-i", "ctrl-1", "CTRL-M"] {
            assert!(
                matches!(never_fires.parse::<Key>(), Err(KeyError::Unbindable(..))),
                "{never_fires}"
            );
        }
    }

    #[test]
    fn user_binding_takes_a_key_from_a_default_command() {
        let cfg: Config = toml::from_str("[keys]\nhint = \"u\"\n").unwrap();
        let km = Keymap::new(&cfg).unwrap();
        assert_eq!(km.lookup(Key::Char('u'), 9), Some(Command::Hint));
        assert!(km.keys_of(Command::Undo).is_empty());
        let clash: Config = toml::from_str("[keys]\nhint = \"z\"\nundo = \"z\"\n").unwrap();
        assert!(Keymap::new(&clash).is_err());
    }

    #[test]
    fn wide_digits_only_on_big_grids() {
        let km = Keymap::new(&Config::default()).unwrap();
        assert_eq!(km.lookup(Key::Char('a'), 9), Some(Command::FillCandidates));
        assert_eq!(km.lookup(Key::Char('a'), 16), Some(Command::Digit10));
        // Capitals as the board shows them, unless a command has the capital.
        assert_eq!(km.lookup(Key::Char('A'), 16), Some(Command::Digit10));
        assert_eq!(km.lookup(Key::Char('G'), 16), Some(Command::Digit16));
        assert_eq!(km.lookup(Key::Char('B'), 16), Some(Command::Digit11));
        assert_eq!(km.lookup(Key::Char('F'), 16), Some(Command::FillCandidates));
        assert_eq!(km.lookup(Key::Char('A'), 9), None);
    }

    #[test]
    fn a_prompt_line_is_edited_as_in_a_shell() {
        let mut line = String::new();
        for k in parse_sequence("/tmp/p/a.txt") {
            assert!(edit_line(&mut line, k, 40));
        }
        edit_line(&mut line, Key::Ctrl('w'), 40);
        assert_eq!(line, "/tmp/p/");
        edit_line(&mut line, Key::Ctrl('w'), 40);
        assert_eq!(line, "/tmp/");
        edit_line(&mut line, Key::Backspace, 40);
        assert_eq!(line, "/tmp");
        edit_line(&mut line, Key::Ctrl('u'), 40);
        assert_eq!(line, "");
        for k in parse_sequence("abcdef") {
            edit_line(&mut line, k, 3);
        }
        assert_eq!(line, "abc", "the line stops at its length");
        assert!(!edit_line(&mut line, Key::Enter, 40));
    }
}
