//! Save files: the game as JSON in the user's state folder, written atomically (a temporary
//! file renamed over the old one) after every change. A save that cannot be read is moved
//! aside, never overwritten.

use super::assist::Assists;
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
/// reader (or a crash) sees the old file or the new one, never half of one. The file is
/// fsynced before the rename and the folder after it, so a power cut keeps one of the two;
/// on any failure the temporary file is removed and the old file is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&temp_prefix(path))
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename is only durable once the folder is written too.
    std::fs::File::open(dir)?.sync_all()
}

const TEMP_SUFFIX: &str = ".tmp";

/// Temporary files for `path` are `.<name>.<random>.tmp` beside it.
fn temp_prefix(path: &Path) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("save");
    format!(".{name}.")
}

/// Removes temporary files a killed writer left beside `path`. Only the holder of the
/// folder's lock calls this (another instance may be writing one right now otherwise).
pub fn remove_stale_temps(path: &Path) {
    let dir = path.parent().unwrap_or(Path::new("."));
    let prefix = temp_prefix(path);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(TEMP_SUFFIX) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The lock file of a state folder.
pub fn lock_path(state: &Path) -> PathBuf {
    state.join("game.lock")
}

/// An advisory lock on a state folder (flock on `game.lock`, which records the holder's
/// pid); held until dropped. Two players on one folder would overwrite each other's save.
#[derive(Debug)]
pub struct StateLock {
    _file: std::fs::File,
}

/// Who holds a state folder.
#[derive(Debug)]
pub enum Locked {
    Mine(StateLock),
    /// Another process holds it: its pid, when the lock file says.
    Theirs(Option<u32>),
}

/// Takes the folder's lock without waiting.
pub fn lock_state(state: &Path) -> std::io::Result<Locked> {
    use std::io::{Read, Seek, Write};
    std::fs::create_dir_all(state)?;
    let path = lock_path(state);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0)?;
            file.seek(std::io::SeekFrom::Start(0))?;
            writeln!(file, "{}", std::process::id())?;
            Ok(Locked::Mine(StateLock { _file: file }))
        }
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            Ok(Locked::Theirs(text.trim().parse().ok()))
        }
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SavedSnapshot {
    pub values: String,
    pub marks: Vec<u16>,
    pub cursor: Cell,
}

/// The file of several puzzles a game came from, and the 1-based number played, so a
/// resumed game keeps its picker.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SavedSource {
    /// The path as the player gave it (only paths that are UTF-8 are recorded).
    pub file: String,
    pub index: usize,
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
    /// Hints applied, and whether the solve is assisted: what saves held before
    /// `assists`, still written so the file reads the same to older code.
    pub hints_used: u32,
    pub assisted: bool,
    /// The help the game had (absent in older saves, then rebuilt from the two above).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assists: Option<Assists>,
    pub undo: Vec<SavedSnapshot>,
    pub redo: Vec<SavedSnapshot>,
    /// Where the game came from (absent in older saves and for games not from a file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SavedSource>,
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
            hints_used: game.assists.applied,
            assisted: game.assists.is_assisted(),
            assists: Some(game.assists.clone()),
            undo: keep(undo),
            redo: keep(redo),
            source: None,
        }
    }

    /// Records the file and 1-based number the game came from, by its canonical path so a
    /// player started from another folder still finds it.
    pub fn with_source(mut self, file: &Path, index: usize) -> SaveFile {
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        self.source = file.to_str().map(|f| SavedSource {
            file: f.to_string(),
            index,
        });
        self
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
            self.assists
                .unwrap_or_else(|| Assists::from_old_save(self.hints_used, self.assisted)),
        );
        Ok((game, self.cursor.min(n.saturating_sub(1)), self.pencil))
    }
}

/// The outcome of looking for a saved game.
#[derive(Debug)]
pub enum Loaded {
    Nothing,
    /// The game, cursor and pencil mode, and the file the game came from.
    Game(Box<(Game, Cell, bool)>, Option<SavedSource>),
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

/// Reads a save file's bytes as a game; the error says why it cannot be used.
pub fn parse_save(bytes: &[u8]) -> Result<(Game, Cell, bool), String> {
    serde_json::from_slice::<SaveFile>(bytes)
        .map_err(|e| e.to_string())
        .and_then(SaveFile::into_game)
}

/// Reads the save at `path`; a corrupt one is renamed to `game.json.corrupt-<secs>`.
pub fn load(path: &Path) -> Loaded {
    load_with(path, true)
}

/// Reads the save at `path`, leaving a corrupt one where it is (a read-only player).
pub fn load_read_only(path: &Path) -> Loaded {
    load_with(path, false)
}

fn load_with(path: &Path, move_corrupt: bool) -> Loaded {
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
        .and_then(|f| {
            let source = f.source.clone();
            f.into_game().map(|g| (g, source))
        });
    match parsed {
        Ok((g, source)) => Loaded::Game(Box::new(g), source),
        Err(reason) if !move_corrupt => Loaded::Unreadable { reason },
        Err(reason) => match move_aside(path) {
            Ok(aside) => Loaded::Corrupt {
                reason,
                moved_to: aside,
            },
            Err(e) => Loaded::Unreadable {
                reason: format!("{reason}; could not move it aside: {e}"),
            },
        },
    }
}

/// Renames a file that cannot be read to `<name>.corrupt-<secs>` (never over another one),
/// so the next write does not destroy what may still be recovered by hand.
pub fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
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
    std::fs::rename(path, &aside)?;
    Ok(aside)
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
            let Loaded::Game(b, _) = load(&path) else {
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
    fn the_collection_a_game_came_from_is_saved_and_saves_without_it_load() {
        let dir = tempfile::tempdir().unwrap();
        let path = game_path(dir.path());
        let g = Game::new(builtin::puzzle(Variant::Standard));
        let file = dir.path().join("set.toml");
        std::fs::write(&file, "").unwrap();
        let json = SaveFile::from_game(&g, 0, false)
            .with_source(&file, 4)
            .to_json()
            .unwrap();
        std::fs::write(&path, &json).unwrap();
        let Loaded::Game(_, Some(src)) = load(&path) else {
            panic!("the source was not kept")
        };
        assert_eq!(src.index, 4);
        assert!(src.file.ends_with("set.toml"), "{}", src.file);
        save(&path, &g, 0, false).unwrap();
        assert!(matches!(load(&path), Loaded::Game(_, None)));
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

    #[test]
    fn the_help_a_game_had_is_saved_and_old_saves_still_load() {
        let mut g = Game::new(builtin::puzzle(Variant::Standard));
        g.assists.checked();
        g.assists
            .hint_reached(crate::game::assist::HintStage::Nudge);
        let json = SaveFile::from_game(&g, 0, false).to_json().unwrap();
        let (back, _, _) = parse_save(json.as_bytes()).unwrap();
        assert_eq!(back.assists, g.assists);
        // A save from before `assists`: one applied hint, no finish.
        let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
        old.as_object_mut().unwrap().remove("assists");
        old["hints_used"] = serde_json::json!(1);
        let (back, _, _) = parse_save(old.to_string().as_bytes()).unwrap();
        assert_eq!(back.assists.applied, 1);
        assert!(back.assists.is_assisted());
    }

    #[test]
    fn counters_saturate_instead_of_wrapping() {
        let g = Game::new(builtin::puzzle(Variant::Standard));
        let cell = (0..g.values().len()).find(|&c| !g.is_given(c)).unwrap();
        let mut file = SaveFile::from_game(&g, cell, false);
        file.mistakes = u32::MAX;
        file.hints_used = u32::MAX;
        file.elapsed_ms = u64::MAX;
        let (mut back, _, _) = parse_save(file.to_json().unwrap().as_bytes()).unwrap();
        let wrong = (1..=9)
            .find(|&d| Some(d) != g.solution().map(|s| s[cell]))
            .unwrap();
        back.place(cell, wrong, true, cell).unwrap();
        assert_eq!(back.mistakes, u32::MAX);
        assert_eq!(back.elapsed_ms, u64::MAX);
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.json");
        write_atomic(&path, b"old").unwrap();
        // A folder where the file should be: the rename fails after the temporary exists.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        // One a kill left behind is removed at the next start.
        std::fs::write(dir.path().join(".game.json.abc123.tmp"), b"half").unwrap();
        remove_stale_temps(&path);
        assert!(!dir.path().join(".game.json.abc123.tmp").exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn a_second_lock_names_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let Locked::Mine(first) = lock_state(dir.path()).unwrap() else {
            panic!("the first lock is ours")
        };
        match lock_state(dir.path()).unwrap() {
            Locked::Theirs(pid) => assert_eq!(pid, Some(std::process::id())),
            Locked::Mine(_) => panic!("locked twice"),
        }
        drop(first);
        assert!(matches!(lock_state(dir.path()).unwrap(), Locked::Mine(_)));
    }

    use crate::testing::proptest_config as cases;

    /// A save with moves, marks and history, as bytes.
    fn valid_save() -> Vec<u8> {
        let mut g = Game::new(builtin::puzzle(Variant::Killer));
        let free: Vec<usize> = (0..g.values().len()).filter(|&c| !g.is_given(c)).collect();
        g.toggle_mark(free[0], 2, free[0]).unwrap();
        g.place(free[1], 3, true, free[1]).unwrap();
        g.place(free[2], 4, true, free[2]).unwrap();
        g.undo(free[2]);
        SaveFile::from_game(&g, free[1], true)
            .to_json()
            .unwrap()
            .into_bytes()
    }

    fn check(bytes: &[u8]) {
        if let Ok((g, cursor, _)) = parse_save(bytes) {
            let n = g.geometry().cell_count();
            assert_eq!(g.values().len(), n);
            assert!(cursor < n);
        }
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(cases(2000))]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            prop_assert!(parse_save(&bytes).is_err());
        }

        #[test]
        fn mutated_saves_never_panic(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
            cut in any::<Option<prop::sample::Index>>(),
        ) {
            let mut bytes = valid_save();
            for (at, b) in flips {
                let i = at.index(bytes.len());
                bytes[i] = b;
            }
            if let Some(at) = cut {
                bytes.truncate(at.index(bytes.len()));
            }
            check(&bytes);
        }

        #[test]
        fn odd_field_values_are_refused_or_clamped(
            field in prop::sample::select(vec![
                "version", "values", "marks", "cursor", "pencil", "elapsed_ms", "mistakes",
                "hints_used", "undo", "redo", "puzzle", "assists",
            ]),
            value in prop_oneof![
                Just(serde_json::json!(u64::MAX)),
                Just(serde_json::json!(-1)),
                Just(serde_json::json!(1e300)),
                Just(serde_json::json!("")),
                Just(serde_json::json!("9".repeat(81))),
                Just(serde_json::json!([65535, 65535])),
                Just(serde_json::json!([{ "values": "", "marks": [], "cursor": 0 }])),
                Just(serde_json::json!(null)),
                any::<u16>().prop_map(|v| serde_json::json!(vec![v; 81])),
            ],
        ) {
            let mut v: serde_json::Value = serde_json::from_slice(&valid_save()).unwrap();
            v[field] = value;
            check(&serde_json::to_vec(&v).unwrap());
        }
    }
}
