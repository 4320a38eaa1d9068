//! Where the server keeps its players: a [`Store`] hands out one [`PlayerStore`] per
//! session. [`SqliteStore`] keeps them in one SQLite database in the data folder (WAL, so
//! sessions write while others read); another database can implement the same traits.
//!
//! A game is one row (the save without its undo history) plus one row per undo or redo
//! snapshot, so a move writes the game row and the one snapshot it pushed, not the whole
//! history: each save is one transaction.

mod sqlite;

pub use sqlite::{SqliteStore, SCHEMA_VERSION};

use crate::game::profile::Profile;
use crate::game::save::SaveFile;
use crate::game::stats::Stats;
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
}

/// The players' data, shared by every session.
pub trait Store: Send + Sync {
    /// The player of a key's fingerprint (made on first sight), for one session.
    fn open(&self, fingerprint: &str) -> Result<Box<dyn PlayerStore>, StoreError>;
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
}

/// Another player has the display name asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameTaken;
