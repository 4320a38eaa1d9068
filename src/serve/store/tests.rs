//! The store's behaviour, the same on every backend: SQLite always, PostgreSQL as well
//! when `TERMDOKU_TEST_POSTGRES` holds a URL (each test in a fresh schema of its own).

use super::*;
use crate::game::daily::{DailyResult, Day, Streak};
use crate::game::save::SaveFile;
use crate::game::{builtin, Game};
use crate::geometry::Cell;
use crate::puzzle::Variant;

/// Where one test keeps its database.
enum Place {
    Sqlite {
        _dir: tempfile::TempDir,
        path: PathBuf,
    },
    Postgres {
        url: String,
        schema: String,
        admin: Box<std::sync::Mutex<::postgres::Client>>,
    },
}

/// The environment variable naming a PostgreSQL server for the tests.
pub const TEST_POSTGRES: &str = "TERMDOKU_TEST_POSTGRES";

/// Every backend to test, each with an empty database.
fn places() -> Vec<Place> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("termdoku.db");
    let mut all = vec![Place::Sqlite { _dir: dir, path }];
    match std::env::var(TEST_POSTGRES) {
        Ok(url) if !url.is_empty() => all.push(Place::postgres(&url)),
        _ => {
            static TOLD: std::sync::Once = std::sync::Once::new();
            TOLD.call_once(|| {
                println!("NOTICE: {TEST_POSTGRES} is unset; the store tests run on SQLite only");
            });
        }
    }
    all
}

impl Place {
    fn postgres(url: &str) -> Place {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let schema = format!(
            "test_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = ::postgres::Client::connect(url, ::postgres::NoTls)
            .unwrap_or_else(|e| panic!("{TEST_POSTGRES}: {e}"));
        admin
            .batch_execute(&format!(
                "CREATE SCHEMA {schema}; SET search_path TO {schema}"
            ))
            .unwrap();
        Place::Postgres {
            url: url.to_string(),
            schema,
            admin: Box::new(std::sync::Mutex::new(admin)),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Place::Sqlite { .. } => "sqlite",
            Place::Postgres { .. } => "postgres",
        }
    }

    fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(match self {
            Place::Sqlite { path, .. } => Box::new(SqliteStore::open(path)?),
            Place::Postgres { url, schema, .. } => {
                Box::new(PostgresStore::open_in_schema(url, schema)?)
            }
        })
    }

    fn migrations(&self) -> &'static [&'static str] {
        match self {
            Place::Sqlite { .. } => sqlite::MIGRATIONS,
            Place::Postgres { .. } => self::postgres::MIGRATIONS,
        }
    }

    /// Runs statements on the database directly.
    fn execute(&self, sql: &str) {
        match self {
            Place::Sqlite { path, .. } => rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(sql)
                .unwrap(),
            Place::Postgres { admin, .. } => admin.lock().unwrap().batch_execute(sql).unwrap(),
        }
    }

    /// The one number a query returns.
    fn number(&self, sql: &str) -> i64 {
        match self {
            Place::Sqlite { path, .. } => rusqlite::Connection::open(path)
                .unwrap()
                .query_row(sql, [], |r| r.get(0))
                .unwrap(),
            Place::Postgres { admin, .. } => {
                admin.lock().unwrap().query_one(sql, &[]).unwrap().get(0)
            }
        }
    }

    fn schema_version(&self) -> i64 {
        self.number("SELECT version FROM schema_version")
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if let Place::Postgres { schema, admin, .. } = self {
            if let Ok(admin) = admin.get_mut() {
                let _ = admin.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"));
            }
        }
    }
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
fn an_empty_database_is_given_the_schema_and_opening_again_keeps_the_data() {
    for place in places() {
        if let Place::Sqlite { path, .. } = &place {
            std::fs::write(path, b"").unwrap();
        }
        let store = place.open().unwrap();
        assert_eq!(place.schema_version(), SCHEMA_VERSION, "{}", place.name());
        store
            .open("SHA256:a")
            .unwrap()
            .save_game(&played(2, 0))
            .unwrap();
        let again = place.open().unwrap();
        assert_eq!(place.schema_version(), SCHEMA_VERSION, "{}", place.name());
        assert!(again
            .open("SHA256:a")
            .unwrap()
            .load_game()
            .unwrap()
            .is_some());
    }
}

#[test]
fn both_backends_have_the_same_schema_versions() {
    assert_eq!(sqlite::MIGRATIONS.len(), self::postgres::MIGRATIONS.len());
}

#[test]
fn a_newer_schema_is_refused_by_name() {
    for place in places() {
        place.open().unwrap();
        place.execute("UPDATE schema_version SET version = 99");
        let err = place.open().err().unwrap().to_string();
        assert!(err.contains("schema version 99"), "{err}");
        match &place {
            Place::Sqlite { .. } => assert!(err.contains("termdoku.db"), "{err}"),
            Place::Postgres { .. } => assert!(err.starts_with("postgres://"), "{err}"),
        }
    }
}

#[test]
fn a_game_comes_back_with_its_undo_and_redo_history() {
    for place in places() {
        let store = place.open().unwrap();
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
        assert_eq!(got.undo.len(), 3, "{}", place.name());
        assert_eq!(got.redo.len(), 2, "{}", place.name());
        assert_eq!(got.to_json().unwrap(), want.to_json().unwrap());
    }
}

#[test]
fn a_fresh_session_rewrites_a_shorter_history() {
    for place in places() {
        let store = place.open().unwrap();
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
}

#[test]
fn a_version_1_database_is_migrated_and_keeps_its_players() {
    for place in places() {
        place.execute(&format!(
            "CREATE TABLE schema_version (version BIGINT NOT NULL);
             INSERT INTO schema_version VALUES (1);
             {};
             INSERT INTO players (fingerprint, created, last_seen) VALUES ('SHA256:old', 1, 1);",
            place.migrations()[0]
        ));
        let store = place.open().unwrap();
        assert_eq!(place.schema_version(), SCHEMA_VERSION, "{}", place.name());
        let mut p = store.open("SHA256:old").unwrap();
        assert_eq!(p.load_account().unwrap(), (None, Options::default()));
        assert_eq!(p.set_name("old-timer").unwrap(), Ok(()));
    }
}

#[test]
fn names_are_unique_whatever_their_case_and_options_are_kept() {
    for place in places() {
        let store = place.open().unwrap();
        let mut a = store.open("SHA256:a").unwrap();
        let mut b = store.open("SHA256:b").unwrap();
        assert_eq!(a.set_name("Ann").unwrap(), Ok(()));
        assert_eq!(
            b.set_name("aNN").unwrap(),
            Err(NameTaken),
            "{}",
            place.name()
        );
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
}

#[test]
fn export_holds_everything_and_delete_removes_every_row() {
    for place in places() {
        let store = place.open().unwrap();
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
        for table in [
            "players",
            "games",
            "history",
            "stats",
            "options",
            "daily_results",
        ] {
            let column = if table == "players" { "id" } else { "player" };
            let of_b = place.number(&format!(
                "SELECT count(*) FROM {table} WHERE {column} = \
                 (SELECT id FROM players WHERE fingerprint = 'SHA256:b')"
            ));
            let all = place.number(&format!("SELECT count(*) FROM {table}"));
            assert_eq!(
                all,
                of_b,
                "{}: {table} keeps a row of the deleted player",
                place.name()
            );
        }
        // The other player is untouched, and the name is free again.
        assert_eq!(b.load_game().unwrap().unwrap().undo.len(), 1);
        assert_eq!(b.set_name("ann").unwrap(), Ok(()));
    }
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
    for place in places() {
        let store = place.open().unwrap();
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
        let other = place.open().unwrap();
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
}

#[test]
fn the_leaderboard_ranks_unassisted_solves_by_time_and_the_first_solve_counts() {
    for place in places() {
        let store = place.open().unwrap();
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
}

#[test]
fn streaks_count_days_with_a_solve_of_any_variant() {
    for place in places() {
        let store = place.open().unwrap();
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
}

#[test]
fn two_players_are_kept_apart() {
    for place in places() {
        let store = place.open().unwrap();
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

#[test]
fn a_newer_session_takes_over_and_the_older_one_writes_nothing() {
    for place in places() {
        // Two stores on one database: two servers.
        let one = place.open().unwrap();
        let two = place.open().unwrap();
        let mut old = one.open("SHA256:a").unwrap();
        old.save_game(&played(2, 0)).unwrap();
        assert!(old.is_current().unwrap());

        let mut new = two.open("SHA256:a").unwrap();
        assert!(new.is_current().unwrap());
        assert!(!old.is_current().unwrap(), "{}", place.name());
        assert_eq!(new.load_game().unwrap().unwrap().undo.len(), 2);

        // Every write of the older session is refused, and none lands.
        let taken = |r: Result<(), StoreError>| matches!(r, Err(StoreError::TakenOver { .. }));
        assert!(taken(old.save_game(&played(5, 0))), "{}", place.name());
        assert!(taken(
            old.add_records(&[Record::HintNeeded("x-wing".into())])
        ));
        assert!(taken(old.save_options(&Options::default())));
        assert!(taken(old.set_name("Old").map(|_| ())));
        assert!(taken(old.delete()));
        assert!(taken(
            old.add_daily_result(&solve(20_000, Variant::Standard, 1_000, false))
                .map(|_| ())
        ));
        let mut check = two.open("SHA256:a").unwrap();
        assert_eq!(check.load_game().unwrap().unwrap().undo.len(), 2);
        assert_eq!(check.load_stats().unwrap().1.skill("x-wing").hints, 0);
        assert_eq!(check.load_account().unwrap().0, None);
        assert!(check.daily_standing(Day(20_000)).unwrap().is_empty());

        // The newest session writes; another player is not affected.
        check.save_game(&played(3, 0)).unwrap();
        let mut other = one.open("SHA256:b").unwrap();
        other.save_game(&played(1, 0)).unwrap();
        assert!(other.is_current().unwrap());
    }
}

#[test]
fn a_server_that_cannot_be_reached_is_named_without_the_password() {
    // Nothing listens on port 1 of the loopback address.
    let url = "postgres://player:s3cret@127.0.0.1:1/termdoku";
    let err = Database::from_arg(Some(url), Path::new("unused"))
        .open()
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.starts_with("postgres://player@127.0.0.1:1/termdoku: error connecting"),
        "{err}"
    );
    assert!(err.to_lowercase().contains("refused"), "{err}");
    let shown = Database::from_arg(Some(url), Path::new("")).shown();
    assert_eq!(shown, "postgres://player@127.0.0.1:1/termdoku");
    assert!(!err.contains("s3cret"), "{err}");
    // A bad URL is refused without repeating it.
    let err = Database::from_arg(Some("postgres://player:s3cret@host:port/db"), Path::new(""))
        .open()
        .err()
        .unwrap()
        .to_string();
    assert!(!err.contains("s3cret"), "{err}");
    assert_eq!(
        Database::from_arg(None, Path::new("d/termdoku.db")),
        Database::Sqlite(PathBuf::from("d/termdoku.db"))
    );
}
