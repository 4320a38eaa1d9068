//! Where the server keeps its players: a [`Store`] hands out one [`PlayerStore`] per
//! session. [`SqliteStore`] keeps them in one SQLite database in the data folder (WAL, so
//! sessions write while others read); [`PostgresStore`] in a PostgreSQL database that
//! several servers share.
//!
//! A game is one row (the save without its undo history) plus one row per undo or redo
//! snapshot, so a move writes the game row and the one snapshot it pushed, not the whole
//! history: each save is one transaction.
//!
//! The newest session of a player owns their data: opening a [`PlayerStore`] counts up
//! the player's session number, and every write checks, in its transaction, that the
//! number is still its own. An older session (on this server or another) is refused with
//! [`StoreError::TakenOver`] and ends, so it never writes over the newer one.
//!
//! The daily puzzles are shared (one row per day and variant: the first stored wins, so
//! every server serves the same one), with each player's results of them.

mod postgres;
mod sqlite;
#[cfg(test)]
mod tests;

pub use self::postgres::PostgresStore;
pub use sqlite::{SqliteStore, SCHEMA_VERSION};

use crate::game::daily::{DailyResult, Day, Streak};
use crate::game::profile::Profile;
use crate::game::save::SaveFile;
use crate::game::stats::Stats;
use crate::puzzle::{Puzzle, Variant};
use crate::tui::account::Options;
use crate::tui::app::Record;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why the store failed. `at` names the database: the SQLite file, or the PostgreSQL
/// server and database (never its password).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{at}: {source}")]
    Db { at: String, source: rusqlite::Error },
    #[error("{at}: {}", with_causes(.source))]
    Postgres {
        at: String,
        source: ::postgres::Error,
    },
    #[error("{at}: {reason}")]
    Connect { at: String, reason: String },
    #[error("{at}: schema version {found} is newer than this program's ({known})")]
    TooNew { at: String, found: i64, known: i64 },
    #[error("{at}: stored {what} of player {player} cannot be read: {reason}")]
    Corrupt {
        at: String,
        what: &'static str,
        player: i64,
        reason: String,
    },
    #[error("{at}: stored daily {variant} puzzle of {day} cannot be read: {reason}")]
    CorruptDaily {
        at: String,
        day: Day,
        variant: Variant,
        reason: String,
    },
    /// A newer session of the player (here or on another server) owns their data now.
    #[error("a newer session of player {player} took over")]
    TakenOver { player: i64 },
}

/// Why a write did not happen: the database (`E`, the backend's error) failed, or another
/// session owns the player.
pub(super) enum Refused<E> {
    Db(E),
    TakenOver,
}

impl<E> Refused<E> {
    /// The store error of a refused write of `player`, a database failure told by `fail`.
    pub(super) fn into_error(self, player: i64, fail: impl FnOnce(E) -> StoreError) -> StoreError {
        match self {
            Refused::Db(e) => fail(e),
            Refused::TakenOver => StoreError::TakenOver { player },
        }
    }
}

impl<E> From<E> for Refused<E> {
    fn from(e: E) -> Refused<E> {
        Refused::Db(e)
    }
}

impl StoreError {
    /// A stored part of a player that cannot be read (the same on every backend).
    pub fn corrupt(at: &str, what: &'static str, player: i64, reason: impl ToString) -> Self {
        StoreError::Corrupt {
            at: at.to_string(),
            what,
            player,
            reason: reason.to_string(),
        }
    }
}

/// An error with what caused it ("error connecting to server: Connection refused"): the
/// PostgreSQL client's errors say little more than their kind on their own.
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let more = c.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        cause = c.source();
    }
    text
}

/// Which database `termdoku serve` keeps its players in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    /// A `postgres://` (or `postgresql://`) URL.
    Postgres(String),
}

impl Database {
    /// What `--database` names: a PostgreSQL URL, else an SQLite file. Without it, the
    /// SQLite file `default` (in the data folder).
    pub fn from_arg(arg: Option<&str>, default: &Path) -> Database {
        match arg {
            Some(a) if a.starts_with("postgres://") || a.starts_with("postgresql://") => {
                Database::Postgres(a.to_string())
            }
            Some(a) => Database::Sqlite(PathBuf::from(a)),
            None => Database::Sqlite(default.to_path_buf()),
        }
    }

    /// The database as the server's log names it (a PostgreSQL URL without its password).
    pub fn shown(&self) -> String {
        match self {
            Database::Sqlite(path) => path.display().to_string(),
            Database::Postgres(url) => self::postgres::shown(url),
        }
    }

    /// Opens (creating and migrating) the database.
    pub fn open(&self) -> Result<Arc<dyn Store>, StoreError> {
        Ok(match self {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path)?),
            Database::Postgres(url) => Arc::new(PostgresStore::open(url)?),
        })
    }
}

/// The players' data, shared by every session.
pub trait Store: Send + Sync {
    /// The player of a key's fingerprint (made on first sight), for one session.
    fn open(&self, fingerprint: &str) -> Result<Box<dyn PlayerStore>, StoreError>;
    /// The daily puzzle of a day and variant, if one is stored.
    fn daily_puzzle(&self, day: Day, variant: Variant) -> Result<Option<Puzzle>, StoreError>;
    /// Stores `puzzle` as the daily of a day and variant unless one is stored already;
    /// returns the stored one (the first insert wins, whoever made it).
    fn add_daily_puzzle(
        &self,
        day: Day,
        variant: Variant,
        puzzle: &Puzzle,
    ) -> Result<Puzzle, StoreError>;
    /// The fastest `limit` unassisted solves of a day's daily (ties by who solved first),
    /// and how many unassisted solves it has in all.
    fn leaderboard(
        &self,
        day: Day,
        variant: Variant,
        limit: usize,
    ) -> Result<Leaderboard, StoreError>;
}

/// One player's data, as one session reads and writes it.
pub trait PlayerStore: Send {
    /// The game in progress, if any.
    fn load_game(&mut self) -> Result<Option<SaveFile>, StoreError>;
    /// Replaces the game in progress, undo history included, in one transaction.
    fn save_game(&mut self, save: &SaveFile) -> Result<(), StoreError>;
    /// The player's statistics and skill profile.
    fn load_stats(&mut self) -> Result<(Stats, Profile), StoreError>;
    /// Counts the records into the statistics and profile, in one transaction.
    fn add_records(&mut self, records: &[Record]) -> Result<(), StoreError>;
    /// The player's display name and options (the defaults until set).
    fn load_account(&mut self) -> Result<(Option<String>, Options), StoreError>;
    fn save_options(&mut self, options: &Options) -> Result<(), StoreError>;
    /// Sets the display name; `Ok(Err(NameTaken))` when another player has it, in any case.
    fn set_name(&mut self, name: &str) -> Result<Result<(), NameTaken>, StoreError>;
    /// Everything kept about the player, as pretty-printed JSON.
    fn export(&mut self) -> Result<String, StoreError>;
    /// Removes every row of the player.
    fn delete(&mut self) -> Result<(), StoreError>;
    /// Whether this is still the player's newest session (false once another took over).
    fn is_current(&mut self) -> Result<bool, StoreError>;
    /// Keeps a solve of a daily; false (nothing written) when one of that day and variant
    /// is kept already: the first solve counts.
    fn add_daily_result(&mut self, result: &DailyResult) -> Result<bool, StoreError>;
    /// The player's solves of a day's dailies (by variant), with their ranks.
    fn daily_standing(&mut self, day: Day) -> Result<Vec<Standing>, StoreError>;
    /// The player's streak of days with a solved daily, as of `today`.
    fn daily_streak(&mut self, today: Day) -> Result<Streak, StoreError>;
}

/// One solve on a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderRow {
    /// The display name, if the player chose one.
    pub name: Option<String>,
    pub fingerprint: String,
    pub ms: u64,
    pub hints: u32,
}

/// A day's leaderboard of a variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leaderboard {
    /// Fastest first.
    pub rows: Vec<LeaderRow>,
    /// Unassisted solves in all.
    pub ranked: u32,
}

/// A player's solve of a daily and its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub result: DailyResult,
    /// 1 + the unassisted solves faster than it (ties share a place); none for an
    /// assisted solve.
    pub rank: Option<u32>,
}

/// Another player has the display name asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameTaken;

/// The stored statistics and profile (JSON), or new ones when none are stored.
fn parse_stats(
    row: Option<(String, String)>,
    corrupt: impl Fn(&'static str, serde_json::Error) -> StoreError,
) -> Result<(Stats, Profile), StoreError> {
    let Some((s, p)) = row else {
        return Ok((Stats::new(), Profile::new()));
    };
    let stats = serde_json::from_str(&s).map_err(|e| corrupt("stats", e))?;
    let profile = serde_json::from_str(&p).map_err(|e| corrupt("profile", e))?;
    Ok((stats, profile))
}

/// The statistics and profile with the records counted in, as JSON to store.
fn tally(
    row: Option<(String, String)>,
    records: &[Record],
    corrupt: impl Fn(&'static str, serde_json::Error) -> StoreError,
) -> Result<(String, String), StoreError> {
    let (mut stats, mut profile) = parse_stats(row, &corrupt)?;
    for r in records {
        crate::tui::tally(&mut stats, r);
        crate::tui::note_in_profile(&mut profile, r);
    }
    let s = serde_json::to_string(&stats).map_err(|e| corrupt("stats", e))?;
    let p = serde_json::to_string(&profile).map_err(|e| corrupt("profile", e))?;
    Ok((s, p))
}

/// The player's row as stored.
struct PlayerRow {
    fingerprint: String,
    name: Option<String>,
    created: i64,
    last_seen: i64,
}

/// Everything kept about a player as pretty-printed JSON, written as stored (history
/// included) so nothing kept is left out.
fn export_json(
    player: PlayerRow,
    options: &Options,
    game: Option<SaveFile>,
    stats: Option<(String, String)>,
    daily: Vec<serde_json::Value>,
    corrupt: impl Fn(&'static str, String) -> StoreError,
) -> Result<String, StoreError> {
    use serde_json::{json, Value};
    let game = match game {
        Some(save) => {
            let text = save.to_json().map_err(|e| corrupt("game", e.to_string()))?;
            serde_json::from_str(&text).map_err(|e| corrupt("game", e.to_string()))?
        }
        None => Value::Null,
    };
    let (stats, profile) = match stats {
        Some((s, p)) => (
            serde_json::from_str(&s).map_err(|e| corrupt("stats", e.to_string()))?,
            serde_json::from_str(&p).map_err(|e| corrupt("profile", e.to_string()))?,
        ),
        None => (Value::Null, Value::Null),
    };
    let all = json!({
        "player": {
            "fingerprint": player.fingerprint,
            "name": player.name,
            "created": player.created,
            "last-seen": player.last_seen,
        },
        "options": options,
        "game": game,
        "stats": stats,
        "profile": profile,
        "daily": daily,
    });
    serde_json::to_string_pretty(&all).map_err(|e| corrupt("export", e.to_string()))
}

/// Seconds since the epoch.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Which history a snapshot row belongs to.
const UNDO: i64 = 0;
const REDO: i64 = 1;

/// How many leading snapshots two stacks share (rows before it are not rewritten).
fn shared_prefix(old: &[String], new: &[String]) -> usize {
    old.iter().zip(new).take_while(|(a, b)| a == b).count()
}

/// What of a save could not be written or read, and why.
type Unreadable = (&'static str, String);

/// A save split into its head (JSON without history) and its two stacks' rows.
fn split_save(save: &SaveFile) -> Result<(String, [Vec<String>; 2]), Unreadable> {
    let rows = |stack: &[crate::game::save::SavedSnapshot]| {
        stack
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ("undo history", e.to_string()))
    };
    let undo = rows(&save.undo)?;
    let redo = rows(&save.redo)?;
    let mut head = save.clone();
    head.undo.clear();
    head.redo.clear();
    let head = serde_json::to_string(&head).map_err(|e| ("game", e.to_string()))?;
    Ok((head, [undo, redo]))
}

/// A save from its head and its stacks' rows.
fn join_save(
    head: &str,
    undo: &[String],
    redo: &[String],
) -> Result<SaveFile, (&'static str, String)> {
    let mut file: SaveFile = serde_json::from_str(head).map_err(|e| ("game", e.to_string()))?;
    let parse = |rows: &[String]| {
        rows.iter()
            .map(|r| serde_json::from_str(r).map_err(|e| ("undo history", e.to_string())))
            .collect::<Result<Vec<_>, _>>()
    };
    file.undo = parse(undo)?;
    file.redo = parse(redo)?;
    Ok(file)
}

/// A daily puzzle as stored (a TOML puzzle file), checked to be of its variant.
fn parse_daily(text: &str, day: Day, variant: Variant, at: &str) -> Result<Puzzle, StoreError> {
    let corrupt = |reason: String| StoreError::CorruptDaily {
        at: at.to_string(),
        day,
        variant,
        reason,
    };
    let puzzle = crate::format::parse_toml(text.as_bytes(), "<daily>")
        .map_err(|e| corrupt(e.to_string()))?;
    if puzzle.variant() != variant {
        return Err(corrupt(format!("it is a {} puzzle", puzzle.variant())));
    }
    Ok(puzzle)
}

/// Milliseconds as stored (SQL integers are signed).
fn ms_column(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A player's solve as stored, with the unassisted solves `faster` than it; none for a
/// variant this program does not know (a newer server's).
fn standing(
    day: Day,
    variant: &str,
    ms: i64,
    assisted: bool,
    hints: i64,
    faster: i64,
) -> Option<Standing> {
    let variant = Variant::parse(variant)?;
    Some(Standing {
        result: DailyResult {
            day,
            variant,
            ms: ms.max(0) as u64,
            assisted,
            hints: hints.clamp(0, i64::from(u32::MAX)) as u32,
        },
        rank: (!assisted).then(|| u32::try_from(faster + 1).unwrap_or(u32::MAX)),
    })
}

/// A daily solve in the player's export.
fn daily_json(
    day: Day,
    variant: &str,
    ms: i64,
    assisted: bool,
    hints: i64,
    solved: i64,
) -> serde_json::Value {
    serde_json::json!({
        "day": day.to_string(),
        "variant": variant,
        "ms": ms,
        "assisted": assisted,
        "hints": hints,
        "solved": solved,
    })
}
