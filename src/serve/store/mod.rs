//! Where the server keeps its players: a [`Store`] hands out one [`PlayerStore`] per
//! session. [`SqliteStore`] keeps them in one SQLite database in the data folder (WAL, so
//! sessions write while others read); another database can implement the same traits.
//!
//! A game is one row (the save without its undo history) plus one row per undo or redo
//! snapshot, so a move writes the game row and the one snapshot it pushed, not the whole
//! history: each save is one transaction.
//!
//! The daily puzzles are shared (one row per day and variant: the first stored wins, so
//! every server serves the same one), with each player's results of them.

mod sqlite;

pub use sqlite::{SqliteStore, SCHEMA_VERSION};

use crate::game::daily::{DailyResult, Day, Streak};
use crate::game::profile::Profile;
use crate::game::save::SaveFile;
use crate::game::stats::Stats;
use crate::puzzle::{Puzzle, Variant};
use crate::tui::account::Options;
use crate::tui::app::Record;
use std::path::PathBuf;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Db {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{path}: schema version {found} is newer than this program's ({known})")]
    TooNew {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("{path}: stored {what} of player {player} cannot be read: {reason}")]
    Corrupt {
        path: PathBuf,
        what: &'static str,
        player: i64,
        reason: String,
    },
    #[error("{path}: stored daily {variant} puzzle of {day} cannot be read: {reason}")]
    CorruptDaily {
        path: PathBuf,
        day: Day,
        variant: Variant,
        reason: String,
    },
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
