//! The stats file: games started and solved, per kind of game (variant, size, level) with
//! best and average times and hints used; assisted solves are counted apart and never set a
//! best time.
//!
//! Version 1 files (`started`, `solved`, `best_ms` per level, no variant) still load: their
//! counts are kept as "earlier games" (what they counted cannot be split by variant), and
//! their best times stay the per-level bests.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The format written today.
pub const VERSION: u32 = 2;

#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Stats {
    /// Missing (0) in a version 1 file.
    pub version: u32,
    /// All games, every kind (and the earlier ones) together.
    pub started: u32,
    pub solved: u32,
    /// Best unassisted solve time per level (`unrated` when unknown), in milliseconds,
    /// over every kind of game.
    pub best_ms: BTreeMap<String, u64>,
    /// One tally per kind of game, in the order first played.
    pub games: Vec<Tally>,
    /// What a version 1 file counted, whose variant and size were not recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier: Option<Earlier>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Earlier {
    pub started: u32,
    pub solved: u32,
}

/// A kind of game: variant, grid side and level.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
#[serde(default)]
pub struct Kind {
    pub variant: String,
    pub size: usize,
    /// `unrated` when the puzzle had no level.
    pub level: String,
}

impl Kind {
    pub fn new(variant: &str, size: usize, level: Option<&str>) -> Kind {
        Kind {
            variant: variant.to_ascii_lowercase(),
            size,
            level: level.unwrap_or("unrated").to_ascii_lowercase(),
        }
    }

    /// `killer 9x9 hard`; a honeycomb has one shape, so no size.
    pub fn label(&self) -> String {
        if self.variant == "honeycomb" {
            format!("{} {}", self.variant, self.level)
        } else {
            format!(
                "{} {}x{} {}",
                self.variant, self.size, self.size, self.level
            )
        }
    }
}

/// The record of one kind of game.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Tally {
    #[serde(flatten)]
    pub kind: Kind,
    pub started: u32,
    /// Every solve, assisted ones included.
    pub solved: u32,
    /// Solves that used a full hint step, finish or a reveal.
    pub assisted: u32,
    /// Hints asked for in solved games.
    pub hints: u32,
    /// Best and summed time of the unassisted solves.
    pub best_ms: Option<u64>,
    pub total_ms: u64,
}

impl Tally {
    /// Average unassisted solve time.
    pub fn average_ms(&self) -> Option<u64> {
        let n = self.solved.saturating_sub(self.assisted);
        (n > 0).then(|| self.total_ms / u64::from(n))
    }
}

pub fn stats_path(state: &Path) -> PathBuf {
    state.join("stats.json")
}

impl Stats {
    /// Reads the stats file; a missing one counts as empty. One that cannot be read as
    /// stats is moved aside (like a corrupt save, so the next write does not destroy it)
    /// and named in the answer; one that cannot be read or moved is an error, and must not
    /// be written over.
    pub fn load(path: &Path) -> Result<(Stats, Option<PathBuf>), String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Stats::new(), None)),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        match serde_json::from_slice::<Stats>(&bytes) {
            Ok(s) => Ok((s.migrated(), None)),
            Err(e) => match super::save::move_aside(path) {
                Ok(aside) => Ok((Stats::new(), Some(aside))),
                Err(m) => Err(format!(
                    "{}: {e}; could not move it aside: {m}",
                    path.display()
                )),
            },
        }
    }

    /// Empty stats in today's format.
    pub fn new() -> Stats {
        Stats {
            version: VERSION,
            ..Stats::default()
        }
    }

    /// A version 1 file's counts become the "earlier games".
    fn migrated(mut self) -> Stats {
        if self.version < VERSION {
            if self.started > 0 || self.solved > 0 {
                self.earlier = Some(Earlier {
                    started: self.started,
                    solved: self.solved,
                });
            }
            self.version = VERSION;
        }
        self
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        super::save::write_atomic(path, text.as_bytes())
    }

    fn tally(&mut self, kind: &Kind) -> &mut Tally {
        let i = match self.games.iter().position(|t| &t.kind == kind) {
            Some(i) => i,
            None => {
                self.games.push(Tally {
                    kind: kind.clone(),
                    ..Tally::default()
                });
                self.games.len() - 1
            }
        };
        &mut self.games[i]
    }

    /// Counts a game started.
    pub fn record_start(&mut self, kind: &Kind) {
        self.started = self.started.saturating_add(1);
        let t = self.tally(kind);
        t.started = t.started.saturating_add(1);
    }

    /// Records a solve in the totals only (its kind unknown); true when it is a new best
    /// time for its level.
    pub fn record_solve(&mut self, difficulty: Option<&str>, ms: u64, assisted: bool) -> bool {
        self.solved = self.solved.saturating_add(1);
        if assisted {
            return false;
        }
        let key = difficulty.unwrap_or("unrated").to_ascii_lowercase();
        let best = self.best_ms.entry(key).or_insert(u64::MAX);
        let new = ms < *best;
        *best = (*best).min(ms);
        new
    }

    /// Records a solve of a known kind, with the hints it used; true when it is a new best
    /// time for that kind.
    pub fn record_game_solve(&mut self, kind: &Kind, ms: u64, assisted: bool, hints: u32) -> bool {
        self.record_solve(Some(&kind.level), ms, assisted);
        let t = self.tally(kind);
        t.solved = t.solved.saturating_add(1);
        t.hints = t.hints.saturating_add(hints);
        if assisted {
            t.assisted = t.assisted.saturating_add(1);
            return false;
        }
        t.total_ms = t.total_ms.saturating_add(ms);
        let new = t.best_ms.is_none_or(|b| ms < b);
        if new {
            t.best_ms = Some(ms);
        }
        new
    }

    /// The tallies sorted by variant, size and level (easy before extreme).
    pub fn sorted(&self) -> Vec<&Tally> {
        let rank = |l: &str| {
            ["easy", "medium", "hard", "unfair", "extreme"]
                .iter()
                .position(|&x| x == l)
                .unwrap_or(9)
        };
        let mut out: Vec<&Tally> = self.games.iter().collect();
        out.sort_by(|a, b| {
            (
                &a.kind.variant,
                a.kind.size,
                rank(&a.kind.level),
                &a.kind.level,
            )
                .cmp(&(
                    &b.kind.variant,
                    b.kind.size,
                    rank(&b.kind.level),
                    &b.kind.level,
                ))
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_times_per_level_and_assisted_solves() {
        let dir = tempfile::tempdir().unwrap();
        let path = stats_path(dir.path());
        let (mut s, _) = Stats::load(&path).unwrap();
        assert!(s.record_solve(Some("Hard"), 90_000, false));
        assert!(!s.record_solve(Some("hard"), 95_000, false));
        assert!(!s.record_solve(None, 10, true));
        s.save(&path).unwrap();
        let (back, _) = Stats::load(&path).unwrap();
        assert_eq!(back.solved, 3);
        assert_eq!(back.best_ms.get("hard"), Some(&90_000));
        assert!(!back.best_ms.contains_key("unrated"));
    }

    #[test]
    fn each_kind_keeps_its_counts_best_and_average_and_assisted_apart() {
        let dir = tempfile::tempdir().unwrap();
        let path = stats_path(dir.path());
        let mut s = Stats::new();
        let killer = Kind::new("killer", 9, Some("Hard"));
        let small = Kind::new("standard", 4, Some("easy"));
        for _ in 0..3 {
            s.record_start(&killer);
        }
        s.record_start(&small);
        assert!(s.record_game_solve(&killer, 300_000, false, 1));
        assert!(!s.record_game_solve(&killer, 500_000, false, 0));
        // A faster assisted solve sets no best time.
        assert!(!s.record_game_solve(&killer, 1_000, true, 4));
        s.save(&path).unwrap();
        let (back, _) = Stats::load(&path).unwrap();
        let t = back.games.iter().find(|t| t.kind == killer).unwrap();
        assert_eq!((t.started, t.solved, t.assisted, t.hints), (3, 3, 1, 5));
        assert_eq!(t.best_ms, Some(300_000));
        assert_eq!(t.average_ms(), Some(400_000));
        let t = back.games.iter().find(|t| t.kind == small).unwrap();
        assert_eq!((t.started, t.solved, t.best_ms), (1, 0, None));
        assert_eq!((back.started, back.solved), (4, 3));
        assert_eq!(back.best_ms.get("hard"), Some(&300_000));
        assert_eq!(killer.label(), "killer 9x9 hard");
    }

    #[test]
    fn a_version_1_file_loads_with_its_counts_kept_as_earlier_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = stats_path(dir.path());
        std::fs::write(
            &path,
            "{\n  \"started\": 7,\n  \"solved\": 4,\n  \"best_ms\": {\n    \"easy\": 61000\n  }\n}",
        )
        .unwrap();
        let (mut s, aside) = Stats::load(&path).unwrap();
        assert!(aside.is_none());
        assert_eq!(s.version, VERSION);
        assert_eq!(
            s.earlier,
            Some(Earlier {
                started: 7,
                solved: 4
            })
        );
        assert_eq!(s.best_ms.get("easy"), Some(&61_000));
        // New games add to the old totals; the old best still counts for its level.
        let kind = Kind::new("standard", 9, Some("easy"));
        s.record_start(&kind);
        assert!(s.record_game_solve(&kind, 70_000, false, 0));
        assert_eq!(s.best_ms.get("easy"), Some(&61_000));
        s.save(&path).unwrap();
        let (back, _) = Stats::load(&path).unwrap();
        assert_eq!((back.started, back.solved), (8, 5));
        assert_eq!(back.earlier.map(|e| e.started), Some(7));
        assert_eq!(back.games.len(), 1);
    }

    #[test]
    fn corrupt_stats_are_kept_aside_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = stats_path(dir.path());
        std::fs::write(&path, b"{\"started\": 12, \"solved\": ").unwrap();
        let (s, aside) = Stats::load(&path).unwrap();
        assert_eq!(s, Stats::new());
        let aside = aside.expect("moved aside");
        assert_eq!(
            std::fs::read(&aside).unwrap(),
            b"{\"started\": 12, \"solved\": "
        );
        assert!(!path.exists());
    }
}
