//! The store in one SQLite file in the data folder.

use super::{LeaderRow, Leaderboard, NameTaken, PlayerStore, Standing, Store, StoreError};
use crate::game::daily::{self, DailyResult, Day, Streak};
use crate::game::profile::Profile;
use crate::game::save::{SaveFile, SavedSnapshot};
use crate::game::stats::Stats;
use crate::puzzle::{Puzzle, Variant};
use crate::tui::account::Options;
use crate::tui::app::Record;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema, one step per version: a database at version `n` runs the steps after it.
/// Steps are only ever appended.
const MIGRATIONS: &[&str] = &[
    // 1: players, their game with its history, their stats.
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        fingerprint TEXT NOT NULL UNIQUE,
        created INTEGER NOT NULL,
        last_seen INTEGER NOT NULL
    );
    CREATE TABLE games (
        player INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        save TEXT NOT NULL,
        undo_len INTEGER NOT NULL,
        redo_len INTEGER NOT NULL,
        saved INTEGER NOT NULL
    );
    CREATE TABLE history (
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        stack INTEGER NOT NULL,
        pos INTEGER NOT NULL,
        snapshot TEXT NOT NULL,
        PRIMARY KEY (player, stack, pos)
    ) WITHOUT ROWID;
    CREATE TABLE stats (
        player INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        stats TEXT NOT NULL,
        profile TEXT NOT NULL
    );",
    // 2: display names (unique whatever their case) and the player's options.
    "ALTER TABLE players ADD COLUMN name TEXT;
    CREATE UNIQUE INDEX players_name ON players (name COLLATE NOCASE);
    CREATE TABLE options (
        player INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
        options TEXT NOT NULL
    );",
    // 3: the daily puzzles (one per UTC day, counted from 1970-01-01, and variant; the
    // puzzle as a TOML puzzle file) and the players' solves of them (assisted: 0 or 1).
    "CREATE TABLE daily_puzzles (
        day INTEGER NOT NULL,
        variant TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        created INTEGER NOT NULL,
        PRIMARY KEY (day, variant)
    );
    CREATE TABLE daily_results (
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        day INTEGER NOT NULL,
        variant TEXT NOT NULL,
        ms INTEGER NOT NULL,
        assisted INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        solved INTEGER NOT NULL,
        PRIMARY KEY (player, day, variant)
    );
    CREATE INDEX daily_results_board ON daily_results (day, variant, assisted, ms);",
];

/// The schema version this program writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How long a writer waits for another connection's transaction.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The store in an SQLite file.
pub struct SqliteStore {
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (creating and migrating) the database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let store = SqliteStore {
            path: path.to_path_buf(),
        };
        let mut conn = store.connect()?;
        migrate(&mut conn).map_err(|e| store.fail(e))??;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fail(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db {
            path: self.path.clone(),
            source,
        }
    }

    /// A connection of its own for a session: WAL lets one write while others read.
    fn connect(&self) -> Result<Connection, StoreError> {
        let conn = Connection::open(&self.path).map_err(|e| self.fail(e))?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| self.fail(e))?;
        // NORMAL in WAL mode survives the process being killed (what the server must
        // survive); only a crash of the whole machine may lose the last commits, and it
        // spares an fsync per keystroke.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
        )
        .map_err(|e| self.fail(e))?;
        Ok(conn)
    }

    /// The schema version of the database.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        let conn = self.connect()?;
        version(&conn).map_err(|e| self.fail(e))
    }
}

fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .optional()
        .map(|v| v.unwrap_or(0))
}

/// Brings the schema to [`SCHEMA_VERSION`], each step in a transaction of its own.
fn migrate(conn: &mut Connection) -> rusqlite::Result<Result<(), StoreError>> {
    conn.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")?;
    loop {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let at = version(&tx)?;
        if at > SCHEMA_VERSION {
            let path = tx.path().map(PathBuf::from).unwrap_or_default();
            return Ok(Err(StoreError::TooNew {
                path,
                found: at,
                known: SCHEMA_VERSION,
            }));
        }
        let Some(step) = usize::try_from(at).ok().and_then(|i| MIGRATIONS.get(i)) else {
            return Ok(Ok(()));
        };
        tx.execute_batch(step)?;
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [at + 1])?;
        tx.commit()?;
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl SqliteStore {
    fn read_daily(
        &self,
        conn: &Connection,
        day: Day,
        variant: Variant,
    ) -> Result<Option<Puzzle>, StoreError> {
        let text: Option<String> = conn
            .query_row(
                "SELECT puzzle FROM daily_puzzles WHERE day = ?1 AND variant = ?2",
                params![day.0, variant.name()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.fail(e))?;
        let Some(text) = text else {
            return Ok(None);
        };
        let corrupt = |reason: String| StoreError::CorruptDaily {
            path: self.path.clone(),
            day,
            variant,
            reason,
        };
        let puzzle = crate::format::parse_toml(text.as_bytes(), "<daily>")
            .map_err(|e| corrupt(e.to_string()))?;
        if puzzle.variant() != variant {
            return Err(corrupt(format!("it is a {} puzzle", puzzle.variant())));
        }
        Ok(Some(puzzle))
    }
}

/// Milliseconds as stored (SQL integers are signed).
fn ms_column(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl Store for SqliteStore {
    fn daily_puzzle(&self, day: Day, variant: Variant) -> Result<Option<Puzzle>, StoreError> {
        let conn = self.connect()?;
        self.read_daily(&conn, day, variant)
    }

    fn add_daily_puzzle(
        &self,
        day: Day,
        variant: Variant,
        puzzle: &Puzzle,
    ) -> Result<Puzzle, StoreError> {
        let conn = self.connect()?;
        conn.execute(
            "INSERT INTO daily_puzzles (day, variant, puzzle, created) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (day, variant) DO NOTHING",
            params![
                day.0,
                variant.name(),
                crate::format::write_toml(puzzle),
                now()
            ],
        )
        .map_err(|e| self.fail(e))?;
        // Another server's insert may have come first: the stored one is the daily.
        self.read_daily(&conn, day, variant)?
            .ok_or_else(|| self.fail(rusqlite::Error::QueryReturnedNoRows))
    }

    fn leaderboard(
        &self,
        day: Day,
        variant: Variant,
        limit: usize,
    ) -> Result<Leaderboard, StoreError> {
        let conn = self.connect()?;
        let read = || -> rusqlite::Result<Leaderboard> {
            let mut st = conn.prepare(
                "SELECT p.name, p.fingerprint, r.ms, r.hints
                 FROM daily_results r JOIN players p ON p.id = r.player
                 WHERE r.day = ?1 AND r.variant = ?2 AND r.assisted = 0
                 ORDER BY r.ms, r.solved, r.player
                 LIMIT ?3",
            )?;
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = st
                .query_map(params![day.0, variant.name(), limit], |r| {
                    Ok(LeaderRow {
                        name: r.get(0)?,
                        fingerprint: r.get(1)?,
                        ms: r.get::<_, i64>(2)?.max(0) as u64,
                        hints: r.get::<_, i64>(3)?.clamp(0, i64::from(u32::MAX)) as u32,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let ranked: i64 = conn.query_row(
                "SELECT count(*) FROM daily_results
                 WHERE day = ?1 AND variant = ?2 AND assisted = 0",
                params![day.0, variant.name()],
                |r| r.get(0),
            )?;
            Ok(Leaderboard {
                rows,
                ranked: u32::try_from(ranked).unwrap_or(u32::MAX),
            })
        };
        read().map_err(|e| self.fail(e))
    }

    fn open(&self, fingerprint: &str) -> Result<Box<dyn PlayerStore>, StoreError> {
        let conn = self.connect()?;
        let t = now();
        let id: i64 = conn
            .query_row(
                "INSERT INTO players (fingerprint, created, last_seen) VALUES (?1, ?2, ?2)
                 ON CONFLICT (fingerprint) DO UPDATE SET last_seen = ?2
                 RETURNING id",
                params![fingerprint, t],
                |r| r.get(0),
            )
            .map_err(|e| self.fail(e))?;
        Ok(Box::new(SqlitePlayer {
            path: self.path.clone(),
            conn,
            id,
            history: None,
        }))
    }
}

/// Which history a snapshot row belongs to.
const UNDO: i64 = 0;
const REDO: i64 = 1;

/// One player's connection, and the history it last wrote (so a save writes only the
/// snapshots that changed).
struct SqlitePlayer {
    path: PathBuf,
    conn: Connection,
    id: i64,
    /// The undo and redo stacks as stored, once read or written by this session.
    history: Option<[Vec<String>; 2]>,
}

impl SqlitePlayer {
    fn fail(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db {
            path: self.path.clone(),
            source,
        }
    }

    fn corrupt(&self, what: &'static str, reason: impl ToString) -> StoreError {
        StoreError::Corrupt {
            path: self.path.clone(),
            what,
            player: self.id,
            reason: reason.to_string(),
        }
    }

    fn read_stack(&self, stack: i64, len: i64) -> Result<Vec<String>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT snapshot FROM history WHERE player = ?1 AND stack = ?2 AND pos < ?3
                 ORDER BY pos",
            )
            .map_err(|e| self.fail(e))?;
        let rows = st
            .query_map(params![self.id, stack, len], |r| r.get::<_, String>(0))
            .map_err(|e| self.fail(e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.fail(e))
    }

    fn read_stats(tx: &Connection, id: i64) -> rusqlite::Result<Option<(String, String)>> {
        tx.query_row(
            "SELECT stats, profile FROM stats WHERE player = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
    }

    fn parse_stats(&self, row: Option<(String, String)>) -> Result<(Stats, Profile), StoreError> {
        let Some((s, p)) = row else {
            return Ok((Stats::new(), Profile::new()));
        };
        let stats = serde_json::from_str(&s).map_err(|e| self.corrupt("stats", e))?;
        let profile = serde_json::from_str(&p).map_err(|e| self.corrupt("profile", e))?;
        Ok((stats, profile))
    }
}

/// Writes one stack's rows where they differ from what is stored.
fn write_stack(
    tx: &Transaction,
    id: i64,
    stack: i64,
    old: &[String],
    new: &[String],
) -> rusqlite::Result<()> {
    let same = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    tx.prepare_cached("DELETE FROM history WHERE player = ?1 AND stack = ?2 AND pos >= ?3")?
        .execute(params![id, stack, same as i64])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO history (player, stack, pos, snapshot) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (pos, snap) in new.iter().enumerate().skip(same) {
        insert.execute(params![id, stack, pos as i64, snap])?;
    }
    Ok(())
}

fn to_rows(stack: &[SavedSnapshot]) -> Result<Vec<String>, serde_json::Error> {
    stack.iter().map(serde_json::to_string).collect()
}

impl PlayerStore for SqlitePlayer {
    fn load_game(&mut self) -> Result<Option<SaveFile>, StoreError> {
        let row: Option<(String, i64, i64)> = self
            .conn
            .query_row(
                "SELECT save, undo_len, redo_len FROM games WHERE player = ?1",
                [self.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| self.fail(e))?;
        let Some((save, undo_len, redo_len)) = row else {
            return Ok(None);
        };
        let mut file: SaveFile =
            serde_json::from_str(&save).map_err(|e| self.corrupt("game", e))?;
        let undo = self.read_stack(UNDO, undo_len)?;
        let redo = self.read_stack(REDO, redo_len)?;
        let parse = |rows: &[String]| -> Result<Vec<SavedSnapshot>, StoreError> {
            rows.iter()
                .map(|r| serde_json::from_str(r).map_err(|e| self.corrupt("undo history", e)))
                .collect()
        };
        file.undo = parse(&undo)?;
        file.redo = parse(&redo)?;
        self.history = Some([undo, redo]);
        Ok(Some(file))
    }

    fn save_game(&mut self, save: &SaveFile) -> Result<(), StoreError> {
        let undo = to_rows(&save.undo).map_err(|e| self.corrupt("undo history", e))?;
        let redo = to_rows(&save.redo).map_err(|e| self.corrupt("undo history", e))?;
        let mut head = save.clone();
        head.undo.clear();
        head.redo.clear();
        let head = serde_json::to_string(&head).map_err(|e| self.corrupt("game", e))?;
        // Without what this session last wrote, every snapshot is rewritten.
        let old = self.history.take();
        let result = (|| -> rusqlite::Result<()> {
            let tx = self
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let empty: [Vec<String>; 2] = [Vec::new(), Vec::new()];
            let known = old.is_some();
            let old = old.as_ref().unwrap_or(&empty);
            if !known {
                tx.execute("DELETE FROM history WHERE player = ?1", [self.id])?;
            }
            write_stack(&tx, self.id, UNDO, &old[0], &undo)?;
            write_stack(&tx, self.id, REDO, &old[1], &redo)?;
            tx.prepare_cached(
                "INSERT INTO games (player, save, undo_len, redo_len, saved)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (player) DO UPDATE SET save = ?2, undo_len = ?3, redo_len = ?4,
                 saved = ?5",
            )?
            .execute(params![
                self.id,
                head,
                undo.len() as i64,
                redo.len() as i64,
                now()
            ])?;
            tx.commit()
        })();
        result.map_err(|e| self.fail(e))?;
        self.history = Some([undo, redo]);
        Ok(())
    }

    fn load_stats(&mut self) -> Result<(Stats, Profile), StoreError> {
        let row = Self::read_stats(&self.conn, self.id).map_err(|e| self.fail(e))?;
        self.parse_stats(row)
    }

    fn add_records(&mut self, records: &[Record]) -> Result<(), StoreError> {
        let (id, path) = (self.id, self.path.clone());
        let fail = |source| StoreError::Db {
            path: path.clone(),
            source,
        };
        let corrupt = |what, e: serde_json::Error| StoreError::Corrupt {
            path: path.clone(),
            what,
            player: id,
            reason: e.to_string(),
        };
        // Immediate: the read below is followed by a write, which must not find another
        // writer in between.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let (mut stats, mut profile) = match Self::read_stats(&tx, id).map_err(fail)? {
            Some((s, p)) => (
                serde_json::from_str(&s).map_err(|e| corrupt("stats", e))?,
                serde_json::from_str(&p).map_err(|e| corrupt("profile", e))?,
            ),
            None => (Stats::new(), Profile::new()),
        };
        for r in records {
            crate::tui::tally(&mut stats, r);
            crate::tui::note_in_profile(&mut profile, r);
        }
        let s = serde_json::to_string(&stats).map_err(|e| corrupt("stats", e))?;
        let p = serde_json::to_string(&profile).map_err(|e| corrupt("profile", e))?;
        tx.execute(
            "INSERT INTO stats (player, stats, profile) VALUES (?1, ?2, ?3)
             ON CONFLICT (player) DO UPDATE SET stats = ?2, profile = ?3",
            params![id, s, p],
        )
        .and_then(|_| tx.commit())
        .map_err(fail)
    }

    fn load_account(&mut self) -> Result<(Option<String>, Options), StoreError> {
        let (name, options): (Option<String>, Option<String>) = self
            .conn
            .query_row(
                "SELECT p.name, o.options FROM players p LEFT JOIN options o ON o.player = p.id
                 WHERE p.id = ?1",
                [self.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.fail(e))?;
        let options = match options {
            Some(o) => serde_json::from_str(&o).map_err(|e| self.corrupt("options", e))?,
            None => Options::default(),
        };
        Ok((name, options))
    }

    fn save_options(&mut self, options: &Options) -> Result<(), StoreError> {
        let text = serde_json::to_string(options).map_err(|e| self.corrupt("options", e))?;
        self.conn
            .execute(
                "INSERT INTO options (player, options) VALUES (?1, ?2)
                 ON CONFLICT (player) DO UPDATE SET options = ?2",
                params![self.id, text],
            )
            .map(|_| ())
            .map_err(|e| self.fail(e))
    }

    fn set_name(&mut self, name: &str) -> Result<Result<(), NameTaken>, StoreError> {
        match self.conn.execute(
            "UPDATE players SET name = ?2 WHERE id = ?1",
            params![self.id, name],
        ) {
            Ok(_) => Ok(Ok(())),
            // The unique index (case-insensitive) refuses a name another player has.
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                Ok(Err(NameTaken))
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    fn export(&mut self) -> Result<String, StoreError> {
        use serde_json::{json, Value};
        let (fingerprint, name, created, last_seen): (String, Option<String>, i64, i64) = self
            .conn
            .query_row(
                "SELECT fingerprint, name, created, last_seen FROM players WHERE id = ?1",
                [self.id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .map_err(|e| self.fail(e))?;
        let (_, options) = self.load_account()?;
        // Written as stored, history included, so nothing kept is left out.
        let game = match self.load_game()? {
            Some(save) => {
                let text = save.to_json().map_err(|e| self.corrupt("game", e))?;
                serde_json::from_str(&text).map_err(|e| self.corrupt("game", e))?
            }
            None => Value::Null,
        };
        let row = Self::read_stats(&self.conn, self.id).map_err(|e| self.fail(e))?;
        let (stats, profile) = match row {
            Some((s, p)) => (
                serde_json::from_str(&s).map_err(|e| self.corrupt("stats", e))?,
                serde_json::from_str(&p).map_err(|e| self.corrupt("profile", e))?,
            ),
            None => (Value::Null, Value::Null),
        };
        let all = json!({
            "player": {
                "fingerprint": fingerprint,
                "name": name,
                "created": created,
                "last-seen": last_seen,
            },
            "options": options,
            "game": game,
            "stats": stats,
            "profile": profile,
            "daily": self.all_daily_results()?,
        });
        serde_json::to_string_pretty(&all).map_err(|e| self.corrupt("export", e))
    }

    fn delete(&mut self) -> Result<(), StoreError> {
        // The other tables' rows go with the player's (ON DELETE CASCADE).
        self.conn
            .execute("DELETE FROM players WHERE id = ?1", [self.id])
            .map(|_| ())
            .map_err(|e| self.fail(e))?;
        self.history = None;
        Ok(())
    }

    fn add_daily_result(&mut self, r: &DailyResult) -> Result<bool, StoreError> {
        let added = self
            .conn
            .execute(
                "INSERT INTO daily_results (player, day, variant, ms, assisted, hints, solved)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (player, day, variant) DO NOTHING",
                params![
                    self.id,
                    r.day.0,
                    r.variant.name(),
                    ms_column(r.ms),
                    i64::from(r.assisted),
                    i64::from(r.hints),
                    now()
                ],
            )
            .map_err(|e| self.fail(e))?;
        Ok(added == 1)
    }

    fn daily_standing(&mut self, day: Day) -> Result<Vec<Standing>, StoreError> {
        let read = || -> rusqlite::Result<Vec<Standing>> {
            let mut st = self.conn.prepare_cached(
                "SELECT r.variant, r.ms, r.assisted, r.hints,
                     (SELECT count(*) FROM daily_results o
                      WHERE o.day = r.day AND o.variant = r.variant AND o.assisted = 0
                      AND o.ms < r.ms)
                 FROM daily_results r WHERE r.player = ?1 AND r.day = ?2",
            )?;
            let rows = st.query_map(params![self.id, day.0], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (variant, ms, assisted, hints, faster) = row?;
                // A variant this program does not know (a newer server's) is left out.
                let Some(variant) = Variant::parse(&variant) else {
                    continue;
                };
                let assisted = assisted != 0;
                out.push(Standing {
                    result: DailyResult {
                        day,
                        variant,
                        ms: ms.max(0) as u64,
                        assisted,
                        hints: hints.clamp(0, i64::from(u32::MAX)) as u32,
                    },
                    rank: (!assisted).then(|| u32::try_from(faster + 1).unwrap_or(u32::MAX)),
                });
            }
            out.sort_by_key(|s| Variant::ALL.iter().position(|&v| v == s.result.variant));
            Ok(out)
        };
        read().map_err(|e| self.fail(e))
    }

    fn daily_streak(&mut self, today: Day) -> Result<Streak, StoreError> {
        let read = || -> rusqlite::Result<Vec<Day>> {
            let mut st = self
                .conn
                .prepare_cached("SELECT DISTINCT day FROM daily_results WHERE player = ?1")?;
            let days = st.query_map([self.id], |r| r.get::<_, i64>(0).map(Day))?;
            days.collect()
        };
        let days = read().map_err(|e| self.fail(e))?;
        Ok(daily::streak(&days, today))
    }
}

impl SqlitePlayer {
    /// Every daily solve of the player, for the export.
    fn all_daily_results(&self) -> Result<Vec<serde_json::Value>, StoreError> {
        let read = || -> rusqlite::Result<Vec<serde_json::Value>> {
            let mut st = self.conn.prepare(
                "SELECT day, variant, ms, assisted, hints, solved FROM daily_results
                 WHERE player = ?1 ORDER BY day, variant",
            )?;
            let rows = st.query_map([self.id], |r| {
                Ok(serde_json::json!({
                    "day": Day(r.get(0)?).to_string(),
                    "variant": r.get::<_, String>(1)?,
                    "ms": r.get::<_, i64>(2)?,
                    "assisted": r.get::<_, i64>(3)? != 0,
                    "hints": r.get::<_, i64>(4)?,
                    "solved": r.get::<_, i64>(5)?,
                }))
            })?;
            rows.collect()
        };
        read().map_err(|e| self.fail(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{builtin, Game};
    use crate::geometry::Cell;
    use crate::puzzle::Variant;

    fn temp() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("termdoku.db");
        (dir, path)
    }

    /// A game with `moves` digits placed (each an undo step), then `undone` of them undone.
    fn played(moves: usize, undone: usize) -> SaveFile {
        let mut game = Game::new(builtin::puzzle(Variant::Standard));
        let empty: Vec<Cell> = (0..81)
            .filter(|&i| game.value(i) == 0)
            .take(moves)
            .collect();
        for &i in &empty {
            game.place(i, 1, false, 0).unwrap();
        }
        for _ in 0..undone {
            game.undo(0);
        }
        SaveFile::from_game(&game, 0, false)
    }

    #[test]
    fn an_empty_file_is_given_the_schema() {
        let (_dir, path) = temp();
        std::fs::write(&path, b"").unwrap();
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        // Opening again migrates nothing and keeps the data.
        store
            .open("SHA256:a")
            .unwrap()
            .save_game(&played(2, 0))
            .unwrap();
        let again = SqliteStore::open(&path).unwrap();
        assert_eq!(again.schema_version().unwrap(), SCHEMA_VERSION);
        assert!(again
            .open("SHA256:a")
            .unwrap()
            .load_game()
            .unwrap()
            .is_some());
    }

    #[test]
    fn a_newer_schema_is_refused_by_name() {
        let (_dir, path) = temp();
        SqliteStore::open(&path).unwrap();
        let conn = Connection::open(&path).unwrap();
        conn.execute("UPDATE schema_version SET version = 99", [])
            .unwrap();
        let err = SqliteStore::open(&path).err().unwrap().to_string();
        assert!(err.contains("schema version 99"), "{err}");
        assert!(err.contains("termdoku.db"), "{err}");
    }

    #[test]
    fn a_game_comes_back_with_its_undo_and_redo_history() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let mut p = store.open("SHA256:a").unwrap();
        assert!(p.load_game().unwrap().is_none());
        // Saved move by move, as the server does, then two undone.
        for n in 1..=5 {
            p.save_game(&played(n, 0)).unwrap();
        }
        let want = played(5, 2);
        p.save_game(&want).unwrap();
        drop(p);
        let got = store
            .open("SHA256:a")
            .unwrap()
            .load_game()
            .unwrap()
            .unwrap();
        assert_eq!(got.undo.len(), 3);
        assert_eq!(got.redo.len(), 2);
        assert_eq!(got.to_json().unwrap(), want.to_json().unwrap());
    }

    #[test]
    fn a_fresh_session_rewrites_a_shorter_history() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        store
            .open("SHA256:a")
            .unwrap()
            .save_game(&played(6, 0))
            .unwrap();
        // A new session (knowing nothing of what is stored) saves a new game.
        let want = played(1, 0);
        store.open("SHA256:a").unwrap().save_game(&want).unwrap();
        let got = store
            .open("SHA256:a")
            .unwrap()
            .load_game()
            .unwrap()
            .unwrap();
        assert_eq!(got.to_json().unwrap(), want.to_json().unwrap());
    }

    #[test]
    fn a_version_1_database_is_migrated_and_keeps_its_players() {
        let (_dir, path) = temp();
        {
            let mut conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE schema_version (version INTEGER NOT NULL);
                 INSERT INTO schema_version VALUES (1);",
            )
            .unwrap();
            let tx = conn.transaction().unwrap();
            tx.execute_batch(MIGRATIONS[0]).unwrap();
            tx.execute(
                "INSERT INTO players (fingerprint, created, last_seen) VALUES ('SHA256:old', 1, 1)",
                [],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let mut p = store.open("SHA256:old").unwrap();
        assert_eq!(p.load_account().unwrap(), (None, Options::default()));
        assert_eq!(p.set_name("old-timer").unwrap(), Ok(()));
    }

    #[test]
    fn names_are_unique_whatever_their_case_and_options_are_kept() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let mut a = store.open("SHA256:a").unwrap();
        let mut b = store.open("SHA256:b").unwrap();
        assert_eq!(a.set_name("Ann").unwrap(), Ok(()));
        assert_eq!(b.set_name("aNN").unwrap(), Err(NameTaken));
        assert_eq!(b.set_name("Bob").unwrap(), Ok(()));
        // A player may change the case of their own name.
        assert_eq!(a.set_name("ANN").unwrap(), Ok(()));
        let options = Options {
            colour: false,
            borders: crate::tui::config::Borders::Ascii,
            mouse: false,
        };
        a.save_options(&options).unwrap();
        drop(a);
        let mut a = store.open("SHA256:a").unwrap();
        assert_eq!(a.load_account().unwrap(), (Some("ANN".into()), options));
        assert_eq!(b.load_account().unwrap().1, Options::default());
    }

    #[test]
    fn export_holds_everything_and_delete_removes_every_row() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let mut a = store.open("SHA256:a").unwrap();
        let mut b = store.open("SHA256:b").unwrap();
        a.save_game(&played(3, 1)).unwrap();
        a.add_records(&[Record::HintNeeded("x-wing".into())])
            .unwrap();
        a.set_name("Ann").unwrap().unwrap();
        a.save_options(&Options {
            mouse: false,
            ..Options::default()
        })
        .unwrap();
        b.save_game(&played(1, 0)).unwrap();
        a.add_daily_result(&solve(20_000, Variant::Killer, 61_000, false))
            .unwrap();
        b.add_daily_result(&solve(20_000, Variant::Killer, 62_000, false))
            .unwrap();
        let json: serde_json::Value = serde_json::from_str(&a.export().unwrap()).unwrap();
        assert_eq!(json["player"]["fingerprint"], "SHA256:a");
        assert_eq!(json["daily"][0]["day"], "2024-10-04");
        assert_eq!(json["daily"][0]["variant"], "killer");
        assert_eq!(json["daily"][0]["ms"], 61_000);
        assert_eq!(json["player"]["name"], "Ann");
        assert_eq!(json["options"]["mouse"], false);
        assert_eq!(json["game"]["undo"].as_array().unwrap().len(), 2);
        assert_eq!(json["game"]["redo"].as_array().unwrap().len(), 1);
        assert!(json["profile"].to_string().contains("x-wing"));
        assert!(json["stats"].is_object());

        a.delete().unwrap();
        let conn = Connection::open(&path).unwrap();
        for table in [
            "players",
            "games",
            "history",
            "stats",
            "options",
            "daily_results",
        ] {
            let n: i64 = conn
                .query_row(
                    &format!(
                        "SELECT count(*) FROM {table} WHERE {} = (SELECT id FROM players WHERE fingerprint = 'SHA256:b')",
                        if table == "players" { "id" } else { "player" }
                    ),
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            let all: i64 = conn
                .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
                .unwrap();
            assert_eq!(all, n, "{table} keeps a row of the deleted player");
        }
        // The other player is untouched, and the name is free again.
        assert_eq!(b.load_game().unwrap().unwrap().undo.len(), 1);
        assert_eq!(b.set_name("ann").unwrap(), Ok(()));
    }

    fn solve(day: i64, variant: Variant, ms: u64, assisted: bool) -> DailyResult {
        DailyResult {
            day: Day(day),
            variant,
            ms,
            assisted,
            hints: u32::from(assisted),
        }
    }

    #[test]
    fn the_first_daily_puzzle_stored_is_the_days_daily_for_every_server() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let easy = crate::game::library::embedded(Variant::Standard, 9, "easy");
        let (first, second) = (&easy[0], &easy[1]);
        assert_ne!(first.givens, second.givens);
        let day = Day(20_000);
        assert!(store
            .daily_puzzle(day, Variant::Standard)
            .unwrap()
            .is_none());
        let got = store
            .add_daily_puzzle(day, Variant::Standard, first)
            .unwrap();
        assert_eq!(got.givens, first.givens);
        // A second server (another connection to the file) made another: the first stays.
        let other = SqliteStore::open(&path).unwrap();
        let got = other
            .add_daily_puzzle(day, Variant::Standard, second)
            .unwrap();
        assert_eq!(got.givens, first.givens);
        let read = other.daily_puzzle(day, Variant::Standard).unwrap().unwrap();
        assert_eq!(read.givens, first.givens);
        // Each day and each variant has its own; a killer keeps its cages.
        let killer = builtin::puzzle(Variant::Killer);
        store
            .add_daily_puzzle(day, Variant::Killer, &killer)
            .unwrap();
        let back = store.daily_puzzle(day, Variant::Killer).unwrap().unwrap();
        assert_eq!(back.layout, killer.layout);
        assert_eq!(back.givens, killer.givens);
        store
            .add_daily_puzzle(day.next(), Variant::Standard, second)
            .unwrap();
        let next = store.daily_puzzle(day.next(), Variant::Standard).unwrap();
        assert_eq!(next.unwrap().givens, second.givens);
    }

    #[test]
    fn the_leaderboard_ranks_unassisted_solves_by_time_and_the_first_solve_counts() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let d = 20_000;
        let v = Variant::Jigsaw;
        let mut players: Vec<Box<dyn PlayerStore>> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|k| store.open(&format!("SHA256:{k}")).unwrap())
            .collect();
        players[0].set_name("Ann").unwrap().unwrap();
        players[3].set_name("Dee").unwrap().unwrap();
        assert!(players[0]
            .add_daily_result(&solve(d, v, 90_000, false))
            .unwrap());
        assert!(players[1]
            .add_daily_result(&solve(d, v, 70_000, false))
            .unwrap());
        // The fastest had help: kept, not ranked.
        assert!(players[2]
            .add_daily_result(&solve(d, v, 10_000, true))
            .unwrap());
        assert!(players[3]
            .add_daily_result(&solve(d, v, 90_000, false))
            .unwrap());
        // Other days and variants are other boards.
        players[4]
            .add_daily_result(&solve(d, Variant::Killer, 5_000, false))
            .unwrap();
        players[4]
            .add_daily_result(&solve(d - 1, v, 5_000, false))
            .unwrap();
        // A second solve of the same daily is not kept, faster or not.
        assert!(!players[0]
            .add_daily_result(&solve(d, v, 1_000, false))
            .unwrap());

        let board = store.leaderboard(Day(d), v, 10).unwrap();
        assert_eq!(board.ranked, 3);
        let seen: Vec<(Option<&str>, &str, u64)> = board
            .rows
            .iter()
            .map(|r| (r.name.as_deref(), r.fingerprint.as_str(), r.ms))
            .collect();
        assert_eq!(
            seen,
            [
                (None, "SHA256:b", 70_000),
                (Some("Ann"), "SHA256:a", 90_000),
                (Some("Dee"), "SHA256:d", 90_000),
            ]
        );
        assert_eq!(store.leaderboard(Day(d), v, 1).unwrap().rows.len(), 1);
        assert_eq!(store.leaderboard(Day(d), v, 1).unwrap().ranked, 3);

        // Ties share a place; an assisted solve has none.
        let rank = |p: &mut Box<dyn PlayerStore>| {
            let s = p.daily_standing(Day(d)).unwrap();
            s.iter().find(|s| s.result.variant == v).map(|s| s.rank)
        };
        assert_eq!(rank(&mut players[1]), Some(Some(1)));
        assert_eq!(rank(&mut players[0]), Some(Some(2)));
        assert_eq!(rank(&mut players[3]), Some(Some(2)));
        assert_eq!(rank(&mut players[2]), Some(None));
        let e = players[4].daily_standing(Day(d)).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].result, solve(d, Variant::Killer, 5_000, false));
        assert_eq!(e[0].rank, Some(1));
        assert!(store
            .leaderboard(Day(d + 1), v, 10)
            .unwrap()
            .rows
            .is_empty());
    }

    #[test]
    fn streaks_count_days_with_a_solve_of_any_variant() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let mut p = store.open("SHA256:a").unwrap();
        assert_eq!(p.daily_streak(Day(14)).unwrap(), Streak::default());
        for (day, v, assisted) in [
            (10, Variant::Standard, false),
            (11, Variant::Killer, true),
            (12, Variant::Standard, false),
            (12, Variant::Jigsaw, false),
            (14, Variant::Honeycomb, false),
        ] {
            p.add_daily_result(&solve(day, v, 60_000, assisted))
                .unwrap();
        }
        let mut s = |today| p.daily_streak(Day(today)).unwrap();
        assert_eq!(
            s(14),
            Streak {
                current: 1,
                best: 3
            }
        );
        assert_eq!(s(15).current, 1);
        assert_eq!(s(16).current, 0);
        assert_eq!(s(12).current, 3);
        // Another player's solves are not theirs.
        let mut q = store.open("SHA256:b").unwrap();
        assert_eq!(q.daily_streak(Day(14)).unwrap(), Streak::default());
    }

    #[test]
    fn two_players_are_kept_apart() {
        let (_dir, path) = temp();
        let store = SqliteStore::open(&path).unwrap();
        let mut a = store.open("SHA256:a").unwrap();
        let mut b = store.open("SHA256:b").unwrap();
        a.save_game(&played(4, 0)).unwrap();
        b.save_game(&played(1, 0)).unwrap();
        a.add_records(&[Record::HintNeeded("x-wing".into())])
            .unwrap();
        assert_eq!(a.load_game().unwrap().unwrap().undo.len(), 4);
        assert_eq!(b.load_game().unwrap().unwrap().undo.len(), 1);
        assert_eq!(a.load_stats().unwrap().1.skill("x-wing").hints, 1);
        assert_eq!(b.load_stats().unwrap().1.skill("x-wing").hints, 0);
        assert!(store
            .open("SHA256:c")
            .unwrap()
            .load_game()
            .unwrap()
            .is_none());
    }
}
