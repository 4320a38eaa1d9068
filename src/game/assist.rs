//! The help a game had, and the one rule that says whether its solve was *assisted*
//! (used for best times now, leaderboards later): a solve is assisted when it used a
//! hint's full step or its apply, a finish, or a reveal. Checks and the first two hint
//! stages are counted and shown, but leave the solve unassisted.

use serde::{Deserialize, Serialize};

/// What a game was helped with, counted as it happened (saved with the game).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Assists {
    /// Hints asked for (each reached stage 1, the nudge).
    pub hints: u32,
    /// Hints taken to stage 2 (which technique).
    pub techniques: u32,
    /// Hints taken to stage 3 (the full step).
    pub full_steps: u32,
    /// Hint steps put on the board by the player's apply.
    pub applied: u32,
    /// Checks against the solution (`c`) and "still solvable?" questions (`v`).
    pub checks: u32,
    /// Steps shown by the finish's replay, or a fill of the rest.
    pub finished: bool,
    /// Digits revealed from the solution.
    pub reveals: u32,
    /// The board a hint was on show for ([`crate::game::Game::board_key`]) and the rung
    /// it reached: asked again on that board (after a dismissal, or in a game resumed
    /// after a quit or a kill) the hint comes back at that rung and is not counted twice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ladder: Option<(u64, u8)>,
}

/// How far up the hint ladder a hint went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintStage {
    Nudge,
    Technique,
    Full,
}

impl Assists {
    /// The rule: whether a solve with this help counts as assisted.
    pub fn is_assisted(&self) -> bool {
        self.full_steps > 0 || self.applied > 0 || self.finished || self.reveals > 0
    }

    /// Counts a hint reaching a stage.
    pub fn hint_reached(&mut self, stage: HintStage) {
        let n = match stage {
            HintStage::Nudge => &mut self.hints,
            HintStage::Technique => &mut self.techniques,
            HintStage::Full => &mut self.full_steps,
        };
        *n = n.saturating_add(1);
    }

    /// A "why?" answer: one that reveals a digit of the solution (a wrong erasure, what a
    /// cell must be, a step that places) counts as a hint taken to its full step, so the
    /// solve is assisted; one that explains a removal or a clash from the board counts
    /// nothing, like reading the board.
    pub fn why_shown(&mut self, reveals: bool) {
        if reveals {
            self.hint_reached(HintStage::Nudge);
            self.hint_reached(HintStage::Full);
        }
    }

    pub fn hint_applied(&mut self) {
        self.applied = self.applied.saturating_add(1);
    }

    pub fn checked(&mut self) {
        self.checks = self.checks.saturating_add(1);
    }

    pub fn revealed(&mut self) {
        self.reveals = self.reveals.saturating_add(1);
    }

    pub fn finished(&mut self) {
        self.finished = true;
    }

    /// Old saves knew only the number of applied hints and whether a finish was used.
    pub fn from_old_save(hints_used: u32, assisted: bool) -> Assists {
        Assists {
            hints: hints_used,
            techniques: hints_used,
            full_steps: hints_used,
            applied: hints_used,
            finished: assisted,
            ..Assists::default()
        }
    }

    /// In words for the end of a game: `2 hints, 1 check; assisted (no best time)`.
    pub fn summary(&self) -> String {
        let plural = |n: u32, one: &str, many: &str| {
            if n == 1 {
                format!("1 {one}")
            } else {
                format!("{n} {many}")
            }
        };
        let mut s = format!(
            "{}, {}",
            plural(self.hints, "hint", "hints"),
            plural(self.checks, "check", "checks")
        );
        if self.reveals > 0 {
            s.push_str(&format!(", {}", plural(self.reveals, "reveal", "reveals")));
        }
        if self.is_assisted() {
            s.push_str("; assisted, so no best time");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nudges_techniques_and_checks_leave_a_solve_unassisted() {
        let mut a = Assists::default();
        a.hint_reached(HintStage::Nudge);
        a.hint_reached(HintStage::Technique);
        a.checked();
        assert!(!a.is_assisted());
        assert_eq!(a.summary(), "1 hint, 1 check");
    }

    #[test]
    fn a_full_step_an_apply_a_finish_or_a_reveal_each_assist() {
        let mut full = Assists::default();
        full.hint_reached(HintStage::Full);
        let mut applied = Assists::default();
        applied.hint_applied();
        let mut finished = Assists::default();
        finished.finished();
        let revealed = Assists {
            reveals: 1,
            ..Assists::default()
        };
        for a in [full, applied, finished, revealed] {
            assert!(a.is_assisted(), "{a:?}");
            assert!(a.summary().ends_with("assisted, so no best time"));
        }
    }

    #[test]
    fn a_why_that_reveals_a_digit_is_an_assisting_hint() {
        let mut a = Assists::default();
        a.why_shown(false);
        assert_eq!(a, Assists::default());
        a.why_shown(true);
        assert_eq!(a.hints, 1);
        assert!(a.is_assisted());
    }

    #[test]
    fn old_saves_keep_their_meaning() {
        assert!(!Assists::from_old_save(0, false).is_assisted());
        assert!(Assists::from_old_save(2, false).is_assisted());
        assert!(Assists::from_old_save(0, true).is_assisted());
    }
}
