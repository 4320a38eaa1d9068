//! The daily puzzle as a served player sees it (`termdoku serve`): "daily puzzle" in the
//! new-game menu opens the daily screen, today's variants with the player's result, the
//! leaderboard of the selected one and the player's streak; Enter plays the selected
//! variant's puzzle. The app asks (it does no I/O); the event loop answers through the
//! [`DailyService`] the server gave it, as for the account.

use super::app::{App, Screen, Tone};
use super::keys::Key;
use super::menu::List;
use crate::game::daily::{DailyResult, Day, Streak};
use crate::puzzle::{Puzzle, Variant};
use std::sync::Arc;

/// Leaderboard rows asked of the service (the screen shows those that fit).
pub const BOARD_ROWS: usize = 40;

/// Where the daily puzzles and their results are kept. Errors are sentences for the player.
pub trait DailyService: Send + Sync {
    /// A day's puzzle of a variant; `None` while it is being prepared (ask again soon).
    fn puzzle(&self, day: Day, variant: Variant) -> Result<Option<Puzzle>, String>;
    /// Keeps the player's solve; false when it is not kept (a guest's, or a solve of that
    /// daily was kept before: the first counts).
    fn record(&self, result: &DailyResult) -> Result<bool, String>;
    /// The day's leaderboard of a variant, with the player's results and streak.
    fn board(&self, day: Day, variant: Variant, rows: usize) -> Result<Board, String>;
}

/// One ranked solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub rank: u32,
    /// The display name, or a short form of the key for a player without one.
    pub name: String,
    pub ms: u64,
    /// The player looking at it.
    pub me: bool,
}

/// The player's solve of one of the day's dailies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mine {
    pub variant: Variant,
    pub ms: u64,
    pub assisted: bool,
    /// Place among the unassisted solves (ties share it); none for an assisted solve.
    pub rank: Option<u32>,
}

/// A day's leaderboard of a variant, as the daily screen shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// The fastest unassisted solves, fastest first.
    pub rows: Vec<Row>,
    /// Unassisted solves in all.
    pub ranked: u32,
    /// The player's solves of the day, any variant.
    pub mine: Vec<Mine>,
    pub streak: Streak,
    /// The player is a guest: nothing of theirs is kept or ranked.
    pub guest: bool,
}

/// What the daily screen asks of the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Board(Variant),
    Play(Variant),
    Record(DailyResult),
}

/// A served player's daily puzzles.
#[derive(Clone, Debug)]
pub struct Daily {
    /// The day shown (set when the screen opens).
    pub day: Day,
    /// The variants.
    pub list: List,
    /// The selected variant's leaderboard, once the service answered.
    pub board: Option<Board>,
    /// The game being played is this daily (its solve is recorded).
    pub playing: Option<(Day, Variant)>,
    /// The puzzle asked for is being prepared.
    pub waiting: Option<Variant>,
    requests: Vec<Request>,
}

impl Default for Daily {
    fn default() -> Daily {
        Daily::new(Day(0))
    }
}

impl Daily {
    pub fn new(day: Day) -> Daily {
        Daily {
            day,
            list: List::new(Variant::ALL.iter().map(|v| v.to_string()).collect(), 0),
            board: None,
            playing: None,
            waiting: None,
            requests: Vec::new(),
        }
    }

    /// The variant selected on the screen.
    pub fn variant(&self) -> Variant {
        Variant::ALL
            .get(self.list.selected)
            .copied()
            .unwrap_or(Variant::Standard)
    }

    /// The requests made since the last call, for the event loop.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }
}

/// `m:ss`, or `h:mm:ss`.
pub fn time(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The daily screen's lines, to fit `height` rows: the heading, the variants with the
/// player's results (the selected one marked `>`), the leaderboard, then the app's
/// `message` if any and the keys.
pub fn lines(d: &Daily, message: Option<&str>, height: usize) -> Vec<String> {
    let mut out = vec![format!(
        "Daily puzzles of {} (UTC), level {}",
        d.day,
        crate::generate::level_name(crate::game::daily::LEVEL)
    )];
    let board = d.board.as_ref();
    out.push(match board {
        Some(b) if b.guest => "You are a guest: your solves are not kept or ranked.".into(),
        Some(b) => {
            let days = |n: u32| if n == 1 { "day" } else { "days" };
            format!(
                "Streak: {} {} (best {}). A daily solved, any variant, counts for its day.",
                b.streak.current,
                days(b.streak.current),
                b.streak.best
            )
        }
        None => String::new(),
    });
    out.push(String::new());
    for (i, v) in Variant::ALL.iter().enumerate() {
        let mine = board.and_then(|b| b.mine.iter().find(|m| m.variant == *v));
        let status = match mine {
            None => "-".to_string(),
            Some(m) if m.assisted => format!("solved {} (assisted: not ranked)", time(m.ms)),
            Some(m) => match m.rank {
                Some(r) => format!("solved {}, #{r}", time(m.ms)),
                None => format!("solved {}", time(m.ms)),
            },
        };
        let mark = if i == d.list.selected { ">" } else { " " };
        out.push(format!("{mark} {:<10} {status}", v.to_string()));
    }
    out.push(String::new());
    let footer = "enter plays the selected daily, j/k choose, esc back";
    let variant = d.variant();
    match board {
        None => out.push(format!("{variant}: loading the leaderboard...")),
        Some(b) => {
            out.push(format!(
                "{variant} leaderboard: {} unassisted {}",
                b.ranked,
                if b.ranked == 1 { "solve" } else { "solves" }
            ));
            // Room for the rows: what is left but the blank line, message and footer.
            let room = height
                .saturating_sub(out.len() + 2 + usize::from(message.is_some()))
                .max(1);
            let my_row = b.rows.iter().position(|r| r.me);
            let shown = if my_row.is_some_and(|i| i >= room) {
                room.saturating_sub(1)
            } else {
                room
            };
            let row = |r: &Row| {
                format!(
                    "{:>4}  {:<24} {:>8}{}",
                    r.rank,
                    r.name,
                    time(r.ms),
                    if r.me { "  (you)" } else { "" }
                )
            };
            out.extend(b.rows.iter().take(shown).map(row));
            if let Some(i) = my_row.filter(|&i| i >= shown) {
                out.push(row(&b.rows[i]));
            } else if my_row.is_none() {
                // Ranked below the rows asked for.
                if let Some(m) = b.mine.iter().find(|m| m.variant == variant) {
                    if let Some(r) = m.rank.filter(|_| !m.assisted) {
                        out.push(format!("{r:>4}  {:<24} {:>8}  (you)", "", time(m.ms)));
                    }
                }
            }
            if b.rows.is_empty() {
                out.push("   nobody yet: be the first".into());
            }
        }
    }
    out.push(String::new());
    if let Some(m) = message {
        out.push(m.to_string());
    }
    out.push(footer.into());
    out
}

impl App {
    /// Opens the daily screen on today (served players only).
    pub fn open_daily(&mut self) {
        let today = Day::today();
        let Some(d) = &mut self.daily else {
            return;
        };
        if d.day != today {
            d.board = None;
        }
        d.day = today;
        if let Some((_, v)) = d.playing {
            d.list.selected = Variant::ALL.iter().position(|&x| x == v).unwrap_or(0);
        }
        let v = d.variant();
        d.requests.push(Request::Board(v));
        self.screen = Screen::Daily;
    }

    /// A key on the daily screen.
    pub(crate) fn daily_key(&mut self, key: Key) {
        let Some(d) = self.daily.as_mut() else {
            self.screen = Screen::Play;
            return;
        };
        let before = d.list.selected;
        match key {
            Key::Up | Key::Char('k') => d.list.step(-1),
            Key::Down | Key::Char('j') | Key::Tab => d.list.step(1),
            Key::Enter | Key::Right | Key::Char('l' | ' ') => {
                let v = d.variant();
                d.requests.push(Request::Play(v));
            }
            Key::Esc | Key::Left | Key::Char('h') => self.screen = Screen::Play,
            Key::Char('q') | Key::Ctrl('c') => self.quit = true,
            Key::Char(c) => {
                d.list.jump(c);
            }
            _ => {}
        }
        if d.list.selected != before {
            let v = d.variant();
            d.board = None;
            d.requests.push(Request::Board(v));
        }
    }

    /// A solve: recorded when the game is a daily.
    pub(crate) fn note_daily_solve(&mut self) {
        let Some(d) = self.daily.as_mut() else {
            return;
        };
        let Some((day, variant)) = d.playing.take() else {
            return;
        };
        d.requests.push(Request::Record(DailyResult {
            day,
            variant,
            ms: self.game.elapsed_ms,
            assisted: self.game.assists.is_assisted(),
            hints: self.game.assists.hints,
        }));
    }

    /// Carries out the daily screen's requests with `service` (none: no daily here);
    /// true when something on screen changed. A puzzle being prepared is asked for again
    /// at the next call (the event loop calls every quarter second).
    pub fn serve_daily(&mut self, service: Option<&Arc<dyn DailyService>>) -> bool {
        let Some(d) = self.daily.as_mut() else {
            return false;
        };
        let mut requests = d.take_requests();
        if let Some(v) = d.waiting {
            if !requests.iter().any(|r| matches!(r, Request::Play(_))) {
                requests.push(Request::Play(v));
            }
        }
        if requests.is_empty() {
            return false;
        }
        let Some(service) = service else {
            self.say(Tone::Warning, "There is no daily puzzle here.");
            return true;
        };
        let mut changed = false;
        for r in requests {
            match r {
                Request::Board(v) => {
                    let day = self.daily.as_ref().map_or(Day(0), |d| d.day);
                    match service.board(day, v, BOARD_ROWS) {
                        Ok(b) => {
                            if let Some(d) = self.daily.as_mut().filter(|d| d.variant() == v) {
                                d.board = Some(b);
                                changed = true;
                            }
                        }
                        Err(e) => {
                            self.say(Tone::Warning, format!("No leaderboard: {e}"));
                            changed = true;
                        }
                    }
                }
                Request::Play(v) => changed |= self.play_daily(service.as_ref(), v),
                Request::Record(result) => {
                    changed = true;
                    self.record_daily(service.as_ref(), result);
                }
            }
        }
        changed
    }

    fn play_daily(&mut self, service: &dyn DailyService, v: Variant) -> bool {
        let day = Day::today();
        // The daily being played goes on rather than starting again (with its clock).
        if self.daily.as_ref().and_then(|d| d.playing) == Some((day, v)) {
            self.screen = Screen::Play;
            self.say(Tone::Info, format!("You are playing the daily {v}: go on."));
            return true;
        }
        let was_waiting = self.daily.as_ref().and_then(|d| d.waiting).is_some();
        match service.puzzle(day, v) {
            Ok(Some(p)) => {
                self.new_game(p);
                if let Some(d) = self.daily.as_mut() {
                    d.waiting = None;
                    d.playing = Some((day, v));
                }
                self.say(
                    Tone::Info,
                    format!("Daily {v} of {day}: solved without help, your time is ranked."),
                );
                true
            }
            Ok(None) => {
                if let Some(d) = self.daily.as_mut() {
                    d.waiting = Some(v);
                }
                self.say(Tone::Info, format!("Preparing today's {v} puzzle..."));
                !was_waiting
            }
            Err(e) => {
                if let Some(d) = self.daily.as_mut() {
                    d.waiting = None;
                }
                self.say(Tone::Warning, format!("No daily puzzle: {e}"));
                true
            }
        }
    }

    fn record_daily(&mut self, service: &dyn DailyService, result: DailyResult) {
        let kept = match service.record(&result) {
            Ok(kept) => kept,
            Err(e) => {
                self.say(
                    Tone::Warning,
                    format!("Your daily result was not kept: {e}"),
                );
                return;
            }
        };
        let v = result.variant;
        let board = service.board(result.day, v, BOARD_ROWS).ok();
        let guest = board.as_ref().is_some_and(|b| b.guest);
        let rank = board
            .as_ref()
            .and_then(|b| b.mine.iter().find(|m| m.variant == v))
            .and_then(|m| m.rank);
        let text = match (guest, kept, result.assisted, rank) {
            (true, ..) => format!(
                "Daily solved in {}. Guests are not ranked: connect with a key to be.",
                time(result.ms)
            ),
            (_, false, ..) => "Daily solved again: your first solve is the one kept.".into(),
            (_, true, true, _) => format!(
                "Daily solved in {} with help: kept for your streak, not ranked.",
                time(result.ms)
            ),
            (_, true, false, Some(r)) => format!(
                "Daily solved in {}: #{r} of {} today.",
                time(result.ms),
                board.as_ref().map_or(0, |b| b.ranked)
            ),
            (_, true, false, None) => format!("Daily solved in {}.", time(result.ms)),
        };
        if let Some(d) = self.daily.as_mut() {
            d.day = result.day;
            d.list.selected = Variant::ALL.iter().position(|&x| x == v).unwrap_or(0);
            d.board = board;
        }
        self.screen = Screen::Daily;
        self.say(Tone::Info, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use std::sync::Mutex;

    /// A service over one puzzle that is "prepared" after `delay` asks.
    struct Fake {
        delay: Mutex<u32>,
        recorded: Mutex<Vec<DailyResult>>,
    }

    impl DailyService for Fake {
        fn puzzle(&self, _day: Day, v: Variant) -> Result<Option<Puzzle>, String> {
            let mut d = self.delay.lock().unwrap();
            if *d > 0 {
                *d -= 1;
                return Ok(None);
            }
            Ok(Some(builtin::puzzle(v)))
        }
        fn record(&self, r: &DailyResult) -> Result<bool, String> {
            let mut all = self.recorded.lock().unwrap();
            let first = !all.iter().any(|x| x.day == r.day && x.variant == r.variant);
            all.push(r.clone());
            Ok(first)
        }
        fn board(&self, _day: Day, v: Variant, _rows: usize) -> Result<Board, String> {
            let all = self.recorded.lock().unwrap();
            let mine: Vec<Mine> = all
                .iter()
                .filter(|r| r.variant == v)
                .take(1)
                .map(|r| Mine {
                    variant: v,
                    ms: r.ms,
                    assisted: r.assisted,
                    rank: (!r.assisted).then_some(2),
                })
                .collect();
            let mut rows = vec![Row {
                rank: 1,
                name: "Ann".into(),
                ms: 1000,
                me: false,
            }];
            if let Some(m) = mine.first().filter(|m| !m.assisted) {
                rows.push(Row {
                    rank: 2,
                    name: "me".into(),
                    ms: m.ms,
                    me: true,
                });
            }
            Ok(Board {
                ranked: rows.len() as u32,
                rows,
                mine,
                streak: Streak {
                    current: 1,
                    best: 3,
                },
                guest: false,
            })
        }
    }

    fn served(delay: u32) -> (App, Arc<dyn DailyService>, Arc<Fake>) {
        let mut app = App::with_puzzle(builtin::puzzle(Variant::Standard));
        app.daily = Some(Daily::default());
        let fake = Arc::new(Fake {
            delay: Mutex::new(delay),
            recorded: Mutex::default(),
        });
        let service: Arc<dyn DailyService> = fake.clone();
        (app, service, fake)
    }

    #[test]
    fn the_daily_screen_shows_the_board_and_plays_the_selected_variant_once_prepared() {
        let (mut app, service, _) = served(2);
        app.open_daily();
        assert_eq!(app.screen, Screen::Daily);
        assert!(app.serve_daily(Some(&service)));
        let text = lines(app.daily.as_ref().unwrap(), None, 24).join("\n");
        assert!(text.contains("Streak: 1 day (best 3)"), "{text}");
        assert!(
            text.contains("standard leaderboard: 1 unassisted solve"),
            "{text}"
        );
        assert!(text.contains("Ann"), "{text}");
        // Down to diagonal: its board is asked for.
        app.daily_key(Key::Char('j'));
        app.serve_daily(Some(&service));
        assert_eq!(app.daily.as_ref().unwrap().variant(), Variant::Diagonal);
        app.daily_key(Key::Enter);
        // Twice "being prepared", then the game starts.
        app.serve_daily(Some(&service));
        assert!(app.message.as_ref().unwrap().text.contains("Preparing"));
        assert_eq!(app.screen, Screen::Daily);
        app.serve_daily(Some(&service));
        app.serve_daily(Some(&service));
        assert_eq!(app.screen, Screen::Play);
        assert_eq!(app.game.puzzle().variant(), Variant::Diagonal);
        let d = app.daily.as_ref().unwrap();
        assert_eq!(d.playing.map(|p| p.1), Some(Variant::Diagonal));
        assert_eq!(d.waiting, None);
        // Opening it again while it is played goes on with it: its clock is not reset.
        app.game.elapsed_ms = 5000;
        app.open_daily();
        app.daily_key(Key::Enter);
        app.serve_daily(Some(&service));
        assert_eq!(app.screen, Screen::Play);
        assert_eq!(app.game.elapsed_ms, 5000);
    }

    #[test]
    fn a_daily_solve_is_recorded_once_and_shown_with_its_rank() {
        let (mut app, service, fake) = served(0);
        app.daily.as_mut().unwrap().list.selected = 0;
        app.daily_key(Key::Enter);
        app.serve_daily(Some(&service));
        app.game.elapsed_ms = 95_000;
        app.note_daily_solve();
        app.serve_daily(Some(&service));
        assert_eq!(app.screen, Screen::Daily);
        let msg = &app.message.as_ref().unwrap().text;
        assert!(msg.contains("1:35: #2 of 2"), "{msg}");
        let text = lines(app.daily.as_ref().unwrap(), Some(msg), 24).join("\n");
        assert!(text.contains("> standard   solved 1:35, #2"), "{text}");
        assert!(text.contains("#2 of 2 today"), "{text}");
        assert!(text.contains("(you)"), "{text}");
        // The game is no longer the daily: a second solve records nothing.
        app.note_daily_solve();
        app.serve_daily(Some(&service));
        assert_eq!(fake.recorded.lock().unwrap().len(), 1);
        // A game that is not a daily records nothing either.
        app.new_game(builtin::puzzle(Variant::Killer));
        app.note_daily_solve();
        assert!(!app.serve_daily(Some(&service)));
    }

    #[test]
    fn a_player_ranked_below_the_screen_still_sees_their_row() {
        let mut d = Daily::new(Day(20_000));
        let rows: Vec<Row> = (1..=30)
            .map(|i| Row {
                rank: i,
                name: format!("p{i}"),
                ms: u64::from(i) * 1000,
                me: i == 25,
            })
            .collect();
        d.board = Some(Board {
            ranked: 30,
            rows,
            ..Board::default()
        });
        let l = lines(&d, Some("a message"), 24);
        assert!(l.len() <= 24, "{}", l.len());
        assert!(l.iter().any(|x| x == "a message"));
        assert!(l.iter().any(|x| x.contains("p25") && x.contains("(you)")));
        assert!(!l.iter().any(|x| x.contains("p24")));
        assert!(lines(&d, None, 40).iter().any(|x| x.contains("p24")));
    }
}
