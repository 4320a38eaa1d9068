//! The hint ladder: a request becomes an effect; its answer arrives through
//! [`App::receive`]. A local player's next hint is worked out ahead, while the player
//! thinks, so the hint key answers at once even where a search takes a second.

use super::{App, AskedFor, Changed, HintState, Pending, Tone};
use crate::game::assist::HintStage;
use crate::game::hints::{self, Hint};
use crate::tui::effects::{Answer, Effect, Reply};

/// The next hint of a board, asked for before the player wants it.
#[derive(Clone, Debug)]
pub(super) struct Ahead {
    id: u64,
    grid: crate::puzzle::Grid,
    /// The answer once it came (`Some(None)`: the board has no hint).
    hint: Option<Option<Hint>>,
}

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
                self.game.assists.ladder = Some((self.game.board_key(), state.stage));
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
            self.put_on_show(hint);
            return Changed::View;
        }
        if self.pending.is_some() {
            self.say(Tone::Info, "Still looking for a hint...");
            return Changed::View;
        }
        let grid = self.game.hint_grid();
        if let Some(ahead) = self.ahead.take_if(|a| a.grid == grid) {
            match ahead.hint {
                Some(hint) => {
                    self.show_hint(hint);
                    return Changed::View;
                }
                None => {
                    // Still being worked out: wait for that answer instead of asking again.
                    self.pending = Some(Pending {
                        id: ahead.id,
                        grid,
                        what: AskedFor::Hint,
                    });
                    self.joined = true;
                    return Changed::Nothing;
                }
            }
        }
        self.ask_worker(false);
        Changed::Nothing
    }

    /// Asks for the next hint of the board on show before the player does, when hints are
    /// worked out ahead (`[game] hint-ahead`) and none is wanted now: true when an effect
    /// was queued. Not for a solved board, one with a wrong entry (its hint says so,
    /// without a search), a drill (the trainer's hint is a nudge) or the replay.
    pub fn look_ahead(&mut self) -> bool {
        if !self.config.game.hint_ahead
            || self.pending.is_some()
            || self.hint.is_some()
            || self.trainer.is_some()
            || self.replay.is_some()
            || self.game.solved
        {
            return false;
        }
        let grid = self.game.hint_grid();
        if self.ahead.as_ref().is_some_and(|a| a.grid == grid) || !self.game.deviations().is_empty()
        {
            return false;
        }
        self.next_effect += 1;
        let id = self.next_effect;
        self.effects.push(Effect {
            id,
            job: self.hint_job(true),
        });
        self.ahead = Some(Ahead {
            id,
            grid,
            hint: None,
        });
        true
    }

    /// Keeps the answer to the hint asked for ahead; a failed search is forgotten (the
    /// hint key then asks again, and says why if it fails again).
    pub(super) fn receive_ahead(&mut self, answer: Answer) {
        let Some(ahead) = self.ahead.as_mut().filter(|a| a.id == answer.id) else {
            return;
        };
        match answer.reply {
            Reply::Hint(Ok(hint)) => ahead.hint = Some(hint),
            _ => self.ahead = None,
        }
    }

    /// Whether a hint key joined a hint being worked out ahead since the last call.
    pub fn take_joined(&mut self) -> bool {
        std::mem::take(&mut self.joined)
    }

    /// Whether the next hint of the board on show is known already (worked out ahead).
    pub fn hint_ready(&self) -> bool {
        self.ahead
            .as_ref()
            .is_some_and(|a| a.hint.is_some() && a.grid == self.game.hint_grid())
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
                self.put_on_show(hint);
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

    /// Puts `hint` on show at the rung a hint reached on this board before (one dismissed
    /// and asked again, or on show when the game was left), counting nothing; else at the
    /// nudge, counted.
    fn put_on_show(&mut self, hint: Hint) {
        let key = self.game.board_key();
        let stage = match self.game.assists.ladder {
            Some((k, rung)) if k == key && (1..=3).contains(&rung) => rung,
            _ => {
                self.game.assists.hint_reached(HintStage::Nudge);
                self.game.assists.ladder = Some((key, 1));
                1
            }
        };
        self.hint = Some(HintState { hint, stage });
        self.dirty = true;
    }
}
