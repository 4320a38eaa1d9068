//! The daily puzzles on the server: made on the first ask of the day on a thread of their
//! own (the asking player sees "preparing" meanwhile), kept in the store where the first
//! one stored wins; and each session's view of them (its results, the leaderboard).

use super::player::StoreKeeper;
use super::store::Store;
use crate::game::daily::{self, DailyResult, Day};
use crate::puzzle::{Puzzle, Variant};
use crate::tui::daily::{Board, DailyService, Mine, Row};
use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};

/// What the player is told when the store fails (the log has the reason).
const FAILED: &str = "the server could not do it; please try again later";

/// What the maker thread and the sessions share.
#[derive(Default)]
struct Asked {
    /// Being made.
    making: HashSet<(Day, Variant)>,
    /// Could not be stored: told to the next ask, which then tries again.
    failed: HashMap<(Day, Variant), String>,
}

/// The server's daily puzzles.
pub struct Dailies {
    store: Arc<dyn Store>,
    asked: Arc<Mutex<Asked>>,
    to_maker: Mutex<Sender<(Day, Variant)>>,
}

impl Dailies {
    /// Starts the thread that makes the puzzles asked for.
    pub fn start(store: Arc<dyn Store>) -> std::io::Result<Arc<Dailies>> {
        let (tx, rx) = channel::<(Day, Variant)>();
        let asked: Arc<Mutex<Asked>> = Arc::default();
        let (maker_store, maker_asked) = (Arc::clone(&store), Arc::clone(&asked));
        std::thread::Builder::new()
            .name("termdoku-daily".into())
            .spawn(move || {
                for (day, variant) in rx {
                    let start = std::time::Instant::now();
                    let made = daily::generate(day, variant);
                    let stored = maker_store.add_daily_puzzle(day, variant, &made);
                    let mut asked = maker_asked.lock().unwrap_or_else(|e| e.into_inner());
                    asked.making.remove(&(day, variant));
                    match stored {
                        Ok(p) => tracing::info!(
                            %day, %variant, ms = start.elapsed().as_millis() as u64,
                            ours = p.givens == made.givens, "daily puzzle ready"
                        ),
                        Err(e) => {
                            tracing::warn!(%day, %variant, error = %e, "daily puzzle not stored");
                            asked.failed.insert((day, variant), e.to_string());
                        }
                    }
                }
            })?;
        Ok(Arc::new(Dailies {
            store,
            asked,
            to_maker: Mutex::new(tx),
        }))
    }

    /// The day's puzzle of a variant, or `None` while it is made; the error is for the
    /// log.
    pub fn puzzle(&self, day: Day, variant: Variant) -> Result<Option<Puzzle>, String> {
        if let Some(p) = self
            .store
            .daily_puzzle(day, variant)
            .map_err(|e| e.to_string())?
        {
            return Ok(Some(p));
        }
        let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(why) = asked.failed.remove(&(day, variant)) {
            return Err(why);
        }
        if asked.making.insert((day, variant)) {
            let sent = self
                .to_maker
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .send((day, variant));
            if sent.is_err() {
                asked.making.remove(&(day, variant));
                return Err("the daily maker stopped".into());
            }
        }
        Ok(None)
    }

    /// Which recent daily (today's or yesterday's) `puzzle` is, for a resumed game.
    pub fn which(&self, puzzle: &Puzzle, today: Day) -> Option<(Day, Variant)> {
        let v = puzzle.variant();
        [today, today.prev()].into_iter().find_map(|day| {
            let stored = self.store.daily_puzzle(day, v).ok()??;
            (stored.layout == puzzle.layout && stored.givens == puzzle.givens).then_some((day, v))
        })
    }
}

/// How a player without a display name shows on a leaderboard: a few characters of their
/// key's fingerprint (names cannot start with `anonymous`, so nobody can pose as one).
pub fn shown_name(name: Option<&str>, fingerprint: &str) -> String {
    match name {
        Some(n) => n.to_string(),
        None => {
            let key = fingerprint.strip_prefix("SHA256:").unwrap_or(fingerprint);
            format!("anonymous-{}", key.chars().take(4).collect::<String>())
        }
    }
}

/// One session's daily puzzles.
pub struct SessionDaily {
    pub dailies: Arc<Dailies>,
    /// The player's store; none for a guest (nothing kept) or when it could not open.
    pub keeper: Option<Arc<StoreKeeper>>,
    pub fingerprint: String,
    pub guest: bool,
}

impl SessionDaily {
    fn failed(&self, e: &dyn std::fmt::Display) -> String {
        tracing::warn!(player = %self.fingerprint, error = %e, "store (daily)");
        FAILED.into()
    }
}

impl DailyService for SessionDaily {
    fn puzzle(&self, day: Day, variant: Variant) -> Result<Option<Puzzle>, String> {
        self.dailies
            .puzzle(day, variant)
            .map_err(|e| self.failed(&e))
    }

    fn record(&self, result: &DailyResult) -> Result<bool, String> {
        let Some(keeper) = &self.keeper else {
            if self.guest {
                return Ok(false);
            }
            return Err("your data could not be opened at the start of this session".into());
        };
        let kept = keeper.store().add_daily_result(result);
        // A session a newer one took over keeps nothing and ends.
        let kept = kept.map_err(|e| keeper.refusal(&e).unwrap_or_else(|| self.failed(&e)))?;
        tracing::info!(
            player = %self.fingerprint, day = %result.day, variant = %result.variant,
            ms = result.ms, assisted = result.assisted, kept, "daily solved"
        );
        Ok(kept)
    }

    fn board(&self, day: Day, variant: Variant, rows: usize) -> Result<Board, String> {
        let lb = self
            .dailies
            .store
            .leaderboard(day, variant, rows)
            .map_err(|e| self.failed(&e))?;
        // Ties share the place of the first of them.
        let mut out: Vec<Row> = Vec::with_capacity(lb.rows.len());
        for (i, r) in lb.rows.iter().enumerate() {
            let rank = match out.last() {
                Some(prev) if prev.ms == r.ms => prev.rank,
                _ => i as u32 + 1,
            };
            out.push(Row {
                rank,
                name: shown_name(r.name.as_deref(), &r.fingerprint),
                ms: r.ms,
                me: !self.guest && r.fingerprint == self.fingerprint,
            });
        }
        let mut board = Board {
            rows: out,
            ranked: lb.ranked,
            guest: self.guest,
            ..Board::default()
        };
        if let Some(keeper) = &self.keeper {
            let mut p = keeper.store();
            let standing = p.daily_standing(day).map_err(|e| self.failed(&e))?;
            board.streak = p.daily_streak(Day::today()).map_err(|e| self.failed(&e))?;
            board.mine = standing
                .into_iter()
                .map(|s| Mine {
                    variant: s.result.variant,
                    ms: s.result.ms,
                    assisted: s.result.assisted,
                    rank: s.rank,
                })
                .collect();
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::store::SqliteStore;

    #[test]
    fn a_daily_is_made_in_the_background_and_then_served_from_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("t.db")).unwrap());
        let dailies = Dailies::start(Arc::clone(&store)).unwrap();
        let day = Day(20_000);
        let mut got = None;
        for _ in 0..600 {
            if let Some(p) = dailies.puzzle(day, Variant::Standard).unwrap() {
                got = Some(p);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let p = got.expect("made within 30 s");
        let stored = store.daily_puzzle(day, Variant::Standard).unwrap().unwrap();
        assert_eq!(p.givens, stored.givens);
        assert_eq!(
            dailies.which(&p, day.next()),
            Some((day, Variant::Standard))
        );
        assert_eq!(dailies.which(&p, day.next().next()), None);
        let other = crate::game::builtin::puzzle(Variant::Standard);
        assert_eq!(dailies.which(&other, day), None);
    }

    #[test]
    fn players_without_a_name_show_as_a_piece_of_their_key() {
        assert_eq!(shown_name(Some("Ann"), "SHA256:xyz"), "Ann");
        assert_eq!(shown_name(None, "SHA256:Ab3dEfgh"), "anonymous-Ab3d");
        assert!(crate::tui::account::check_name("anonymous-Ab3d").is_err());
    }
}
