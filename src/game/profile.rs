//! The skill profile (`profile.json` beside `stats.json` in the state folder): per
//! technique, drills tried and solved (correct at the first submit), their time, and how
//! often a game's hint needed the technique (the ladder's second rung or beyond); and the
//! trainer's open run, so it can be resumed. Written atomically like the stats, by the
//! holder of the state folder's lock.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const VERSION: u32 = 1;

#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Profile {
    pub version: u32,
    /// By technique id.
    pub techniques: BTreeMap<String, Skill>,
    /// The trainer's run in progress, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<Run>,
}

/// One technique's record.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Skill {
    pub tried: u32,
    /// Correct at the first submit.
    pub solved: u32,
    /// Summed time of the drills tried, in milliseconds.
    pub total_ms: u64,
    /// Game hints that reached the technique's name or beyond.
    pub hints: u32,
}

impl Skill {
    pub fn average_ms(&self) -> Option<u64> {
        (self.tried > 0).then(|| self.total_ms / u64::from(self.tried))
    }

    /// How much practice this technique needs, higher first: a failed drill counts more
    /// than no drill, no drill more than drills solved; game hints that needed it add.
    fn need(&self) -> u64 {
        let tries = u64::from(self.tried);
        let misses = tries - u64::from(self.solved.min(self.tried));
        // Failure rate in thousandths, with half a miss imagined so few tries count as weak.
        let rate = (misses * 1000 + 500) / (tries + 1);
        rate + u64::from(self.hints.min(10)) * 100
    }
}

/// The trainer's run: a technique on a variant, the drills done so far.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(default)]
pub struct Run {
    pub technique: String,
    pub variant: String,
    pub results: Vec<DrillResult>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[serde(default)]
pub struct DrillResult {
    /// Correct at the first submit.
    pub solved: bool,
    pub ms: u64,
}

impl Run {
    /// `3/5 correct`.
    pub fn score(&self) -> String {
        let right = self.results.iter().filter(|r| r.solved).count();
        format!("{right}/{} correct", self.results.len())
    }
}

pub fn profile_path(state: &Path) -> PathBuf {
    state.join("profile.json")
}

impl Profile {
    pub fn new() -> Profile {
        Profile {
            version: VERSION,
            ..Profile::default()
        }
    }

    /// Reads the profile; a missing one is empty, one that cannot be read is moved aside
    /// (as the stats are) and named in the answer.
    pub fn load(path: &Path) -> Result<(Profile, Option<PathBuf>), String> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Profile::new(), None))
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        match serde_json::from_slice::<Profile>(&bytes) {
            Ok(p) => Ok((p, None)),
            Err(e) => match super::save::move_aside(path) {
                Ok(aside) => Ok((Profile::new(), Some(aside))),
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

    pub fn skill(&self, id: &str) -> Skill {
        self.techniques.get(id).copied().unwrap_or_default()
    }

    /// Counts a graded drill.
    pub fn record_drill(&mut self, id: &str, solved: bool, ms: u64) {
        let s = self.techniques.entry(id.to_string()).or_default();
        s.tried = s.tried.saturating_add(1);
        if solved {
            s.solved = s.solved.saturating_add(1);
        }
        s.total_ms = s.total_ms.saturating_add(ms);
    }

    /// Counts a game hint that needed the technique.
    pub fn record_hint(&mut self, id: &str) {
        let s = self.techniques.entry(id.to_string()).or_default();
        s.hints = s.hints.saturating_add(1);
    }

    /// `ids` ordered weakest first (ties keep their order).
    pub fn weakest_first<'a>(&self, ids: &[&'a str]) -> Vec<&'a str> {
        let mut out = ids.to_vec();
        out.sort_by_key(|id| std::cmp::Reverse(self.skill(id).need()));
        out
    }

    /// Whether a technique needs practice: never tried, or solved in under two thirds of
    /// its drills, or hinted in games more often than drilled.
    pub fn is_weak(&self, id: &str) -> bool {
        let s = self.skill(id);
        s.tried == 0 || s.solved * 3 < s.tried * 2 || s.hints > s.tried
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::save::{lock_state, Locked};

    #[test]
    fn a_profile_round_trips_and_counts_drills_and_hints() {
        let dir = tempfile::tempdir().unwrap();
        let path = profile_path(dir.path());
        let mut p = Profile::load(&path).unwrap().0;
        p.record_drill("x-wing", true, 10_000);
        p.record_drill("x-wing", false, 20_000);
        p.record_hint("x-wing");
        p.run = Some(Run {
            technique: "x-wing".into(),
            variant: "standard".into(),
            results: vec![DrillResult {
                solved: true,
                ms: 10_000,
            }],
        });
        p.save(&path).unwrap();
        let (back, aside) = Profile::load(&path).unwrap();
        assert!(aside.is_none());
        assert_eq!(back, p);
        let s = back.skill("x-wing");
        assert_eq!((s.tried, s.solved, s.hints), (2, 1, 1));
        assert_eq!(s.average_ms(), Some(15_000));
        assert_eq!(back.run.unwrap().score(), "1/1 correct");
    }

    #[test]
    fn the_weakest_techniques_come_first() {
        let mut p = Profile::new();
        for _ in 0..5 {
            p.record_drill("naked-pair", true, 1000);
        }
        p.record_drill("x-wing", false, 1000);
        p.record_drill("x-wing", false, 1000);
        let order = p.weakest_first(&["naked-pair", "swordfish", "x-wing"]);
        assert_eq!(order, vec!["x-wing", "swordfish", "naked-pair"]);
        assert!(!p.is_weak("naked-pair"));
        assert!(p.is_weak("swordfish") && p.is_weak("x-wing"));
    }

    #[test]
    fn a_corrupt_profile_is_kept_aside_and_the_folder_lock_guards_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = profile_path(dir.path());
        std::fs::write(&path, b"{not json").unwrap();
        let (p, aside) = Profile::load(&path).unwrap();
        assert_eq!(p, Profile::new());
        let aside = aside.unwrap();
        assert_eq!(std::fs::read(&aside).unwrap(), b"{not json");
        // The profile is written by the lock's holder only, the same lock as the stats.
        let Locked::Mine(_held) = lock_state(dir.path()).unwrap() else {
            panic!("a fresh folder is free");
        };
        assert!(matches!(
            lock_state(dir.path()).unwrap(),
            Locked::Theirs(Some(_))
        ));
    }
}
