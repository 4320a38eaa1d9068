//! The hint ladder: a request becomes an effect; its answer arrives through
//! [`App::receive`].

use super::{App, Changed, HintState, Pending, Tone};
use crate::game::assist::HintStage;
use crate::game::hints::{self, Hint};

impl App {
    /// Climbs the hint ladder: asks for a hint, shows more of it, then applies it.
    pub(super) fn hint(&mut self) -> Changed {
        // A "why?" answer on show is no rung of the ladder: a fresh hint replaces it.
        if self.showing_why() {
            self.hint = None;
        }
        if let Some(state) = &mut self.hint {
            if state.stage < 3 {
                state.stage += 1;
                let stage = if state.stage == 2 {
                    HintStage::Technique
                } else {
                    HintStage::Full
                };
                if state.stage == 2 {
                    // Past the nudge the player needed the technique: the profile says so.
                    let id = state.hint.id.clone();
                    if crate::solver::logic::technique(&id).is_some() {
                        self.profile.record_hint(&id);
                        self.records.push(super::Record::HintNeeded(id));
                    }
                }
                self.game.assists.hint_reached(stage);
                self.dirty = true;
                return Changed::View;
            }
            return self.apply_hint();
        }
        if self.game.solved {
            self.say(Tone::Info, "Already solved.");
            return Changed::View;
        }
        if let Some(&cell) = self.game.deviations().first() {
            let g = self.game.geometry();
            let hint = hints::wrong_entry(g, cell, self.game.value(cell));
            self.hint = Some(HintState { hint, stage: 1 });
            self.game.assists.hint_reached(HintStage::Nudge);
            self.dirty = true;
            return Changed::View;
        }
        if self.pending.is_some() {
            self.say(Tone::Info, "Still looking for a hint...");
            return Changed::View;
        }
        self.ask_worker(false);
        Changed::Nothing
    }

    /// The last rung: the hint's step on the board, undoably.
    fn apply_hint(&mut self) -> Changed {
        let Some(state) = self.hint.take() else {
            return Changed::Nothing;
        };
        let hint = state.hint;
        let applied =
            self.game
                .apply_hint(&hint, self.config.game.auto_remove_candidates, self.cursor);
        if applied.is_err() {
            return Changed::View;
        }
        self.game.assists.hint_applied();
        if let Some(p) = hint.placements.first() {
            self.cursor = p.cell;
        } else if let Some(&c) = hint.clears.first() {
            self.cursor = c;
        }
        self.say(Tone::Info, format!("Applied: {} (u undoes it).", hint.name));
        Changed::Board
    }

    pub(super) fn receive_hint(
        &mut self,
        asked: Pending,
        reply: Result<Option<Hint>, String>,
    ) -> Changed {
        match reply {
            Ok(hint) => {
                if asked.grid == self.game.hint_grid() {
                    self.show_hint(hint);
                } else {
                    self.say(
                        Tone::Info,
                        "The board changed while a hint was worked out: ask again for a fresh one.",
                    );
                }
            }
            Err(why) => self.say(
                Tone::Warning,
                format!("The hint failed ({why}); play on, and ask again for another try."),
            ),
        }
        Changed::View
    }

    fn show_hint(&mut self, hint: Option<Hint>) {
        match hint {
            Some(hint) => {
                self.hint = Some(HintState { hint, stage: 1 });
                self.game.assists.hint_reached(HintStage::Nudge);
                self.dirty = true;
                self.message = None;
            }
            None => self.say(
                Tone::Warning,
                if self.game.conflicts().iter().any(|&b| b) {
                    "No hint: digits on the board break a rule (marked)."
                } else {
                    "No hint found (this puzzle has no unique solution)."
                },
            ),
        }
    }
}
