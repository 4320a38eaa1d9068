//! Save files: the game as JSON in the user's state folder, written atomically (a temporary
//! file renamed over the old one) after every change. A save that cannot be read is moved
//! aside, never overwritten.

use super::{Game, Snapshot};
use crate::format::{parse_toml, write_toml};
use crate::geometry::{char_digit, digit_char, Cell, Digits};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const SAVE_VERSION: u32 = 1;
/// Snapshots of undo history kept in the file (the rest of a very long game is dropped).
pub const SAVED_HISTORY: usize = 500;

/// The state folder: `$TERMDOKU_STATE_DIR`, else the platform's state (or local data) folder.
pub fn state_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TERMDOKU_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    let dirs = directories::ProjectDirs::from("", "", "termdoku")?;
    Some(
        dirs.state_dir()
            .unwrap_or_else(|| dirs.data_local_dir())
            .to_path_buf(),
    )
}

/// The config folder: `$TERMDOKU_CONFIG_DIR`, else the platform's config folder.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TERMDOKU_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d));
    }
    directories::ProjectDirs::from("", "", "termdoku").map(|d| d.config_dir().to_path_buf())
}

/// The autosave file inside a state folder.
pub fn game_path(state: &Path) -> PathBuf {
    state.join("game.json")
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// reader (or a crash) sees the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("save");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SavedSnapshot {
    pub values: String,
    pub marks: Vec<u16>,
    pub cursor: Cell,
}

/// What a save file holds.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    pub version: u32,
    /// The puzzle as a TOML puzzle file.
    pub puzzle: String,
    pub values: String,
    pub marks: Vec<u16>,
    pub cursor: Cell,
    pub pencil: bool,
    pub elapsed_ms: u64,
    pub mistakes: u32,
    pub hints_used: u32,
    pub assisted: bool,
    pub undo: Vec<SavedSnapshot>,
    pub redo: Vec<SavedSnapshot>,
}

fn values_text(values: &[u8]) -> String {
    values
        .iter()
        .map(|&d| if d == 0 { '.' } else { digit_char(d) })
        .collect()
}

fn saved(s: &Snapshot) -> SavedSnapshot {
    SavedSnapshot {
        values: values_text(&s.values),
        marks: s.marks.iter().map(|m| m.0).collect(),
        cursor: s.cursor,
    }
}

impl SaveFile {
    pub fn from_game(game: &Game, cursor: Cell, pencil: bool) -> SaveFile {
        let (undo, redo) = game.history();
        let keep = |h: &[Snapshot]| -> Vec<SavedSnapshot> {
            h[h.len().saturating_sub(SAVED_HISTORY)..]
                .iter()
                .map(saved)
                .collect()
        };
        SaveFile {
            version: SAVE_VERSION,
            puzzle: write_toml(game.puzzle()),
            values: values_text(game.values()),
            marks: game.all_marks().iter().map(|m| m.0).collect(),
            cursor,
            pencil,
            elapsed_ms: game.elapsed_ms,
            mistakes: game.mistakes,
            hints_used: game.hints_used,
            assisted: game.assisted,
            undo: keep(undo),
            redo: keep(redo),
        }
    }

    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// Rebuilds the game, checking every part against the puzzle.
    pub fn into_game(self) -> Result<(Game, Cell, bool), String> {
        if self.version != SAVE_VERSION {
            return Err(format!("save version {} is not supported", self.version));
        }
        let puzzle = parse_toml(self.puzzle.as_bytes(), "<save>").map_err(|e| e.to_string())?;
        let n = puzzle.geometry().cell_count();
        let max = puzzle.geometry().max_digit();
        let all = puzzle.geometry().all_digits();
        let read_values = |s: &str| -> Result<Vec<u8>, String> {
            let v: Vec<u8> = s
                .chars()
                .map(|c| if c == '.' { Some(0) } else { char_digit(c) })
                .collect::<Option<Vec<u8>>>()
                .ok_or("a value is not a digit")?;
            if v.len() != n || v.iter().any(|&d| d > max) {
                return Err(format!("{} values for {n} cells", v.len()));
            }
            if (0..n).any(|c| puzzle.givens[c] != 0 && v[c] != puzzle.givens[c]) {
                return Err("a given was changed".into());
            }
            Ok(v)
        };
        let read_marks = |m: &[u16]| -> Result<Vec<Digits>, String> {
            if m.len() != n || m.iter().any(|&x| !Digits(x).is_subset(all)) {
                return Err("pencil marks do not fit the grid".into());
            }
            Ok(m.iter().map(|&x| Digits(x)).collect())
        };
        let snap = |s: &SavedSnapshot| -> Result<Snapshot, String> {
            Ok(Snapshot {
                values: read_values(&s.values)?,
                marks: read_marks(&s.marks)?,
                cursor: s.cursor.min(n - 1),
            })
        };
        let values = read_values(&self.values)?;
        let marks = read_marks(&self.marks)?;
        let undo = self.undo.iter().map(snap).collect::<Result<Vec<_>, _>>()?;
        let redo = self.redo.iter().map(snap).collect::<Result<Vec<_>, _>>()?;
        let game = Game::from_parts(
            puzzle,
            values,
            marks,
            undo,
            redo,
            self.elapsed_ms,
            self.mistakes,
            self.hints_used,
            self.assisted,
        );
        Ok((game, self.cursor.min(n.saturating_sub(1)), self.pencil))
    }
}

/// The outcome of looking for a saved game.
#[derive(Debug)]
pub enum Loaded {
    Nothing,
    Game(Box<(Game, Cell, bool)>),
    /// The file could not be read as a game; it was moved to `moved_to`.
    Corrupt {
        reason: String,
        moved_to: PathBuf,
    },
    /// The file could not be read or moved; it is left alone.
    Unreadable {
        reason: String,
    },
}

/// Reads the save at `path`; a corrupt one is renamed to `game.json.corrupt-<secs>`.
pub fn load(path: &Path) -> Loaded {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Nothing,
        Err(e) => {
            return Loaded::Unreadable {
                reason: e.to_string(),
            }
        }
    };
    let parsed = serde_json::from_slice::<SaveFile>(&bytes)
        .map_err(|e| e.to_string())
        .and_then(SaveFile::into_game);
    match parsed {
        Ok(g) => Loaded::Game(Box::new(g)),
        Err(reason) => {
            let secs = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("game.json");
            let mut aside = path.with_file_name(format!("{name}.corrupt-{secs}"));
            let mut k = 1;
            while aside.exists() {
                aside = path.with_file_name(format!("{name}.corrupt-{secs}-{k}"));
                k += 1;
            }
            match std::fs::rename(path, &aside) {
                Ok(()) => Loaded::Corrupt {
                    reason,
                    moved_to: aside,
                },
                Err(e) => Loaded::Unreadable {
                    reason: format!("{reason}; could not move it aside: {e}"),
                },
            }
        }
    }
}

/// Saves a game atomically.
pub fn save(path: &Path, game: &Game, cursor: Cell, pencil: bool) -> std::io::Result<()> {
    let json = SaveFile::from_game(game, cursor, pencil)
        .to_json()
        .map_err(std::io::Error::other)?;
    write_atomic(path, json.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;

    #[test]
    fn every_variant_round_trips_with_history() {
        let dir = tempfile::tempdir().unwrap();
        let path = game_path(dir.path());
        for v in Variant::ALL {
            let mut g = Game::new(builtin::puzzle(v));
            let cell = (0..g.values().len()).find(|&c| !g.is_given(c)).unwrap();
            g.toggle_mark(cell, 3, cell).unwrap();
            g.place(cell, 5, true, cell).unwrap();
            g.elapsed_ms = 1234;
            save(&path, &g, cell, true).unwrap();
            let Loaded::Game(b) = load(&path) else {
                panic!("{v}: not loaded")
            };
            let (mut back, cursor, pencil) = *b;
            assert_eq!((cursor, pencil), (cell, true));
            assert_eq!(back.values(), g.values());
            assert_eq!(back.elapsed_ms, 1234);
            back.undo(cell);
            assert!(back.marks(cell).contains(3), "{v}");
        }
    }

    #[test]
    fn a_corrupt_save_is_moved_aside_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = game_path(dir.path());
        std::fs::write(&path, b"{ not json").unwrap();
        let Loaded::Corrupt { moved_to, .. } = load(&path) else {
            panic!("expected corrupt")
        };
        assert!(!path.exists());
        assert_eq!(std::fs::read(&moved_to).unwrap(), b"{ not json");
    }
}
