//! The store in one SQLite file in the data folder.

use super::{
    daily_json, export_json, join_save, ms_column, now, parse_daily, parse_stats, shared_prefix,
    split_save, standing, tally, LeaderRow, Leaderboard, NameTaken, PlayerRow, PlayerStore,
    Standing, Store, StoreError, REDO, UNDO,
};
use crate::game::daily::{self, DailyResult, Day, Streak};
use crate::game::profile::Profile;
use crate::game::save::SaveFile;
use crate::game::stats::Stats;
use crate::puzzle::{Puzzle, Variant};
use crate::tui::account::Options;
use crate::tui::app::Record;
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema, one step per version: a database at version `n` runs the steps after it.
/// Steps are only ever appended.
pub(super) const MIGRATIONS: &[&str] = &[
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
    // 4: the player's newest session (several servers may share the file).
    "ALTER TABLE players ADD COLUMN session INTEGER NOT NULL DEFAULT 0;",
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

    fn at(&self) -> String {
        self.path.display().to_string()
    }

    fn fail(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db {
            at: self.at(),
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
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let at = version(&tx)?;
        if at > SCHEMA_VERSION {
            let path = tx.path().map(PathBuf::from).unwrap_or_default();
            return Ok(Err(StoreError::TooNew {
                at: path.display().to_string(),
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
        text.map(|t| parse_daily(&t, day, variant, &self.at()))
            .transpose()
    }
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
        // The new session takes the player's data over: any older one is refused from now.
        let (id, session): (i64, i64) = conn
            .query_row(
                "INSERT INTO players (fingerprint, created, last_seen) VALUES (?1, ?2, ?2)
                 ON CONFLICT (fingerprint) DO UPDATE SET last_seen = ?2, session = session + 1
                 RETURNING id, session",
                params![fingerprint, now()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.fail(e))?;
        Ok(Box::new(SqlitePlayer {
            at: self.at(),
            conn,
            id,
            session,
            history: None,
        }))
    }
}

/// One player's connection, and the history it last wrote (so a save writes only the
/// snapshots that changed).
struct SqlitePlayer {
    at: String,
    conn: Connection,
    id: i64,
    /// The player's session number when this one opened.
    session: i64,
    /// The undo and redo stacks as stored, once read or written by this session.
    history: Option<[Vec<String>; 2]>,
}

type Refused = super::Refused<rusqlite::Error>;

impl SqlitePlayer {
    fn fail(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Db {
            at: self.at.clone(),
            source,
        }
    }

    fn refused(&self, r: Refused) -> StoreError {
        r.into_error(self.id, |e| self.fail(e))
    }

    fn corrupt(&self, what: &'static str, reason: impl ToString) -> StoreError {
        StoreError::corrupt(&self.at, what, self.id, reason)
    }

    /// A write transaction of this session, refused when a newer one owns the player.
    /// Immediate: the check is followed by writes, which must find no writer in between.
    fn owned(conn: &mut Connection, id: i64, session: i64) -> Result<Transaction<'_>, Refused> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now: Option<i64> = tx
            .query_row("SELECT session FROM players WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        if now != Some(session) {
            return Err(Refused::TakenOver);
        }
        Ok(tx)
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
}

/// Writes one stack's rows where they differ from what is stored.
fn write_stack(
    tx: &Transaction,
    id: i64,
    stack: i64,
    old: &[String],
    new: &[String],
) -> rusqlite::Result<()> {
    let same = shared_prefix(old, new);
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
        let undo = self.read_stack(UNDO, undo_len)?;
        let redo = self.read_stack(REDO, redo_len)?;
        let file = join_save(&save, &undo, &redo).map_err(|(w, e)| self.corrupt(w, e))?;
        self.history = Some([undo, redo]);
        Ok(Some(file))
    }

    fn save_game(&mut self, save: &SaveFile) -> Result<(), StoreError> {
        let (head, [undo, redo]) = split_save(save).map_err(|(w, e)| self.corrupt(w, e))?;
        // Without what this session last wrote, every snapshot is rewritten.
        let old = self.history.take();
        let (id, session) = (self.id, self.session);
        let result = (|| -> Result<(), Refused> {
            let tx = Self::owned(&mut self.conn, id, session)?;
            let empty: [Vec<String>; 2] = [Vec::new(), Vec::new()];
            let known = old.is_some();
            let old = old.as_ref().unwrap_or(&empty);
            if !known {
                tx.execute("DELETE FROM history WHERE player = ?1", [id])?;
            }
            write_stack(&tx, id, UNDO, &old[0], &undo)?;
            write_stack(&tx, id, REDO, &old[1], &redo)?;
            tx.prepare_cached(
                "INSERT INTO games (player, save, undo_len, redo_len, saved)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (player) DO UPDATE SET save = ?2, undo_len = ?3, redo_len = ?4,
                 saved = ?5",
            )?
            .execute(params![
                id,
                head,
                undo.len() as i64,
                redo.len() as i64,
                now()
            ])?;
            tx.commit()?;
            Ok(())
        })();
        result.map_err(|r| self.refused(r))?;
        self.history = Some([undo, redo]);
        Ok(())
    }

    fn load_stats(&mut self) -> Result<(Stats, Profile), StoreError> {
        let row = Self::read_stats(&self.conn, self.id).map_err(|e| self.fail(e))?;
        parse_stats(row, |w, e| self.corrupt(w, e))
    }

    fn add_records(&mut self, records: &[Record]) -> Result<(), StoreError> {
        let (id, session) = (self.id, self.session);
        let at = self.at.clone();
        let corrupt = |what, e: serde_json::Error| StoreError::Corrupt {
            at: at.clone(),
            what,
            player: id,
            reason: e.to_string(),
        };
        let fail = |source| StoreError::Db {
            at: at.clone(),
            source,
        };
        let tx = Self::owned(&mut self.conn, id, session).map_err(|r| match r {
            Refused::Db(e) => fail(e),
            Refused::TakenOver => StoreError::TakenOver { player: id },
        })?;
        let row = Self::read_stats(&tx, id).map_err(fail)?;
        let (s, p) = tally(row, records, corrupt)?;
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
        let (id, session) = (self.id, self.session);
        let r = Self::owned(&mut self.conn, id, session).and_then(|tx| {
            tx.execute(
                "INSERT INTO options (player, options) VALUES (?1, ?2)
                 ON CONFLICT (player) DO UPDATE SET options = ?2",
                params![id, text],
            )?;
            Ok(tx.commit()?)
        });
        r.map_err(|r| self.refused(r))
    }

    fn set_name(&mut self, name: &str) -> Result<Result<(), NameTaken>, StoreError> {
        let (id, session) = (self.id, self.session);
        let r = Self::owned(&mut self.conn, id, session).and_then(|tx| {
            match tx.execute(
                "UPDATE players SET name = ?2 WHERE id = ?1",
                params![id, name],
            ) {
                Ok(_) => {}
                // The unique index (case-insensitive) refuses a name another player has.
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    return Ok(Err(NameTaken));
                }
                Err(e) => return Err(e.into()),
            }
            tx.commit()?;
            Ok(Ok(()))
        });
        r.map_err(|r| self.refused(r))
    }

    fn export(&mut self) -> Result<String, StoreError> {
        let player = self
            .conn
            .query_row(
                "SELECT fingerprint, name, created, last_seen FROM players WHERE id = ?1",
                [self.id],
                |r| {
                    Ok(PlayerRow {
                        fingerprint: r.get(0)?,
                        name: r.get(1)?,
                        created: r.get(2)?,
                        last_seen: r.get(3)?,
                    })
                },
            )
            .map_err(|e| self.fail(e))?;
        let (_, options) = self.load_account()?;
        let game = self.load_game()?;
        let stats = Self::read_stats(&self.conn, self.id).map_err(|e| self.fail(e))?;
        let daily = self.all_daily_results()?;
        export_json(player, &options, game, stats, daily, |w, e| {
            self.corrupt(w, e)
        })
    }

    fn delete(&mut self) -> Result<(), StoreError> {
        let (id, session) = (self.id, self.session);
        // The other tables' rows go with the player's (ON DELETE CASCADE).
        let r = Self::owned(&mut self.conn, id, session).and_then(|tx| {
            tx.execute("DELETE FROM players WHERE id = ?1", [id])?;
            Ok(tx.commit()?)
        });
        r.map_err(|r| self.refused(r))?;
        self.history = None;
        Ok(())
    }

    fn is_current(&mut self) -> Result<bool, StoreError> {
        let now: Option<i64> = self
            .conn
            .query_row(
                "SELECT session FROM players WHERE id = ?1",
                [self.id],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.fail(e))?;
        Ok(now == Some(self.session))
    }
    fn add_daily_result(&mut self, r: &DailyResult) -> Result<bool, StoreError> {
        let (id, session) = (self.id, self.session);
        let added = Self::owned(&mut self.conn, id, session).and_then(|tx| {
            let added = tx.execute(
                "INSERT INTO daily_results (player, day, variant, ms, assisted, hints, solved)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (player, day, variant) DO NOTHING",
                params![
                    id,
                    r.day.0,
                    r.variant.name(),
                    ms_column(r.ms),
                    i64::from(r.assisted),
                    i64::from(r.hints),
                    now()
                ],
            )?;
            tx.commit()?;
            Ok(added == 1)
        });
        added.map_err(|r| self.refused(r))
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
                out.extend(standing(day, &variant, ms, assisted != 0, hints, faster));
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
                Ok(daily_json(
                    Day(r.get(0)?),
                    &r.get::<_, String>(1)?,
                    r.get(2)?,
                    r.get::<_, i64>(3)? != 0,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })?;
            rows.collect()
        };
        read().map_err(|e| self.fail(e))
    }
}
