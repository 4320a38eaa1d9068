//! The daily puzzle: one per UTC day and variant, the same for every player. Made by the
//! generator from a seed of the day and variant, but what counts is the copy a server
//! stores first (`serve`'s store): another server or version may generate differently.
//! Also the player's daily results and streaks, computed here without a clock (the day is
//! passed in).

use crate::generate::{level_name, Generator, Level, Options};
use crate::puzzle::{Puzzle, Variant};
use std::fmt;

/// The level of every daily: hard (up to wings and simple chains) is a challenge that a
/// regular player still finishes in one sitting without guessing.
pub const LEVEL: Level = Level::Hard;

/// How long the generator may try before the daily falls back on a shipped puzzle.
const GENERATE_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);

/// A UTC day: days since 1970-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// The day of a Unix time (seconds).
    pub fn of_unix(secs: i64) -> Day {
        Day(secs.div_euclid(86_400))
    }

    /// Today, by the system clock.
    pub fn today() -> Day {
        Day::of_unix(unix_now())
    }

    pub fn prev(self) -> Day {
        Day(self.0 - 1)
    }

    pub fn next(self) -> Day {
        Day(self.0 + 1)
    }

    /// Year, month (1-12), day (1-31) in the proleptic Gregorian calendar.
    pub fn date(self) -> (i64, u32, u32) {
        // Counted in eras of 400 years from 0000-03-01, so that the leap day ends a year.
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        (yoe + era * 400 + i64::from(m <= 2), m as u32, d as u32)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.date();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Seconds since the Unix epoch by the system clock.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The generator's seed for a day and variant.
pub fn seed(day: Day, variant: Variant) -> u64 {
    let v = Variant::ALL.iter().position(|&x| x == variant).unwrap_or(0) as u64;
    (day.0 as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(v.wrapping_mul(0xD1B5_4A32_D192_ED03))
        ^ 0x7465_726D_646F_6B75
}

/// Makes the daily puzzle of a day and variant (9x9; deterministic). Takes tens of
/// milliseconds in a release build, so callers run it off a player's thread. Should the
/// generator give up, a shipped puzzle of the level is chosen by the day.
pub fn generate(day: Day, variant: Variant) -> Puzzle {
    let opts = Options {
        time_budget: Some(GENERATE_BUDGET),
        ..Options::new(variant, LEVEL)
    };
    let made = Generator::new(opts, seed(day, variant))
        .ok()
        .and_then(|g| g.generate(0).ok())
        .map(|g| g.puzzle);
    let mut puzzle = made.unwrap_or_else(|| {
        let seed = seed(day, variant);
        crate::game::library::pick(variant, 9, level_name(LEVEL), seed).0
    });
    puzzle.title = Some(format!("daily {variant} {day}"));
    puzzle.difficulty = Some(level_name(LEVEL).to_string());
    puzzle.source = None;
    puzzle
}

/// A player's solve of a daily.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyResult {
    pub day: Day,
    pub variant: Variant,
    pub ms: u64,
    /// By the game's definition (`Assists::is_assisted`): such a solve is kept but not
    /// ranked.
    pub assisted: bool,
    pub hints: u32,
}

/// Consecutive UTC days with a solved daily (any variant, assisted or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Streak {
    /// The run that ends today, or yesterday (today's daily may still be played).
    pub current: u32,
    pub best: u32,
}

/// The streak of a player who solved dailies on `days` (any order, repeats allowed), as
/// of `today`. Days after `today` (another server's clock ahead) are not counted.
pub fn streak(days: &[Day], today: Day) -> Streak {
    let mut days: Vec<i64> = days.iter().map(|d| d.0).filter(|&d| d <= today.0).collect();
    days.sort_unstable();
    days.dedup();
    let (mut best, mut run, mut last) = (0u32, 0u32, None::<i64>);
    for &d in &days {
        run = if last == Some(d - 1) { run + 1 } else { 1 };
        best = best.max(run);
        last = Some(d);
    }
    let current = match last {
        Some(d) if d >= today.0 - 1 => run,
        _ => 0,
    };
    Streak { current, best }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_utc_calendar_dates() {
        assert_eq!(Day(0).to_string(), "1970-01-01");
        assert_eq!(Day(-1).to_string(), "1969-12-31");
        // 2000 is a leap year (divisible by 400), 2100 is not.
        assert_eq!(Day(11_016).to_string(), "2000-02-29");
        assert_eq!(Day(11_017).to_string(), "2000-03-01");
        assert_eq!(Day(47_540).to_string(), "2100-02-28");
        assert_eq!(Day(47_541).to_string(), "2100-03-01");
        assert_eq!(Day::of_unix(1_764_633_599).to_string(), "2025-12-01");
        assert_eq!(Day::of_unix(1_764_633_600).to_string(), "2025-12-02");
        assert_eq!(Day::of_unix(-1), Day(-1));
    }

    #[test]
    fn streaks_count_consecutive_days_and_survive_until_a_day_is_missed() {
        let d = |v: &[i64]| v.iter().map(|&x| Day(x)).collect::<Vec<_>>();
        assert_eq!(streak(&[], Day(10)), Streak::default());
        // 3..=5, a gap, 7..=10 (10 twice, in any order).
        let days = d(&[10, 3, 4, 5, 7, 8, 9, 10]);
        assert_eq!(
            streak(&days, Day(10)),
            Streak {
                current: 4,
                best: 4
            }
        );
        // Today not played yet: the run ending yesterday still holds.
        assert_eq!(streak(&days, Day(11)).current, 4);
        // A whole day missed: it is broken, the best stays.
        assert_eq!(
            streak(&days, Day(12)),
            Streak {
                current: 0,
                best: 4
            }
        );
        // Seen from day 5, the later days do not count yet.
        assert_eq!(
            streak(&days, Day(5)),
            Streak {
                current: 3,
                best: 3
            }
        );
        assert_eq!(
            streak(&d(&[1, 2, 3, 4, 5, 9]), Day(9)),
            Streak {
                current: 1,
                best: 5
            }
        );
    }

    #[test]
    fn seeds_differ_by_day_and_variant() {
        let a = seed(Day(100), Variant::Standard);
        assert_eq!(a, seed(Day(100), Variant::Standard));
        assert_ne!(a, seed(Day(101), Variant::Standard));
        assert_ne!(a, seed(Day(100), Variant::Killer));
    }

    #[test]
    fn a_daily_is_a_hard_unique_puzzle_named_by_its_day() {
        let p = generate(Day(20_000), Variant::Diagonal);
        assert_eq!(p.variant(), Variant::Diagonal);
        assert_eq!(p.difficulty.as_deref(), Some("hard"));
        assert_eq!(p.title.as_deref(), Some("daily diagonal 2024-10-04"));
        let rated = crate::generate::rate_puzzle(&p);
        assert_eq!(rated.level, LEVEL);
    }
}
