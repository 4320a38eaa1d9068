//! The stats file: games started and solved, best times per difficulty.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Stats {
    pub started: u32,
    pub solved: u32,
    /// Best unassisted solve time per difficulty (`unrated` when unknown), in milliseconds.
    pub best_ms: BTreeMap<String, u64>,
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
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Stats::default(), None))
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        match serde_json::from_slice(&bytes) {
            Ok(s) => Ok((s, None)),
            Err(e) => match super::save::move_aside(path) {
                Ok(aside) => Ok((Stats::default(), Some(aside))),
                Err(m) => Err(format!(
                    "{}: {e}; could not move it aside: {m}",
                    path.display()
                )),
            },
        }
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        super::save::write_atomic(path, text.as_bytes())
    }

    /// Records a solve; true when it is a new best time.
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
    fn corrupt_stats_are_kept_aside_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = stats_path(dir.path());
        std::fs::write(&path, b"{\"started\": 12, \"solved\": ").unwrap();
        let (s, aside) = Stats::load(&path).unwrap();
        assert_eq!(s, Stats::default());
        let aside = aside.expect("moved aside");
        assert_eq!(
            std::fs::read(&aside).unwrap(),
            b"{\"started\": 12, \"solved\": "
        );
        assert!(!path.exists());
    }
}
