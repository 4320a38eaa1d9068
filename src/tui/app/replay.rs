//! The finish as a replay: the remaining solution path, one logic step at a time with
//! the hint's highlights, forward and back, and a fill of the rest at any point. The path
//! is worked out in the background (an effect) with its progress in the status line.

use super::{App, Changed, HintState, Pending, Tone};
use crate::game::hints::Hint;
use crate::tui::config::Command;

/// The solution path being stepped through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub steps: Vec<Hint>,
    /// Steps on the board so far; `steps[at]` is the one shown next.
    pub at: usize,
}

impl Replay {
    /// The step shown, as a full hint (its highlights and sentence).
    pub fn shown(&self) -> Option<&Hint> {
        self.steps.get(self.at)
    }
}

/// The keys of a replay, for the panel and the help screen.
pub const REPLAY_KEYS: &str =
    "right/l/enter: next step; left/h: back; S: fill the rest; esc: stop here";

impl App {
    /// Asks for the solution path from this board.
    pub(super) fn start_replay(&mut self) -> Changed {
        if !self.game.deviations().is_empty() {
            self.say(
                Tone::Warning,
                "Some entries differ from the solution (c shows which): fix them, or fill at once.",
            );
            return Changed::View;
        }
        if self.pending.is_some() {
            self.say(Tone::Info, "Still working; try again in a moment.");
            return Changed::View;
        }
        self.hint = None;
        self.ask_worker(true);
        Changed::Nothing
    }

    pub(super) fn receive_path(
        &mut self,
        asked: Pending,
        reply: Result<Vec<Hint>, String>,
    ) -> Changed {
        match reply {
            Ok(steps) if asked.grid == self.game.hint_grid() && !steps.is_empty() => {
                // Seeing the path is the solution given away.
                self.game.assists.finished();
                self.dirty = true;
                self.replay = Some(Replay { steps, at: 0 });
                self.show_replay_step();
            }
            Ok(steps) if steps.is_empty() => self.say(
                Tone::Warning,
                "No solution path from here: fill at once instead.",
            ),
            Ok(_) => self.say(
                Tone::Info,
                "The board changed while the solution path was worked out: press S again.",
            ),
            Err(why) => self.say(Tone::Warning, format!("The solution path failed ({why}).")),
        }
        Changed::View
    }

    /// Commands while a replay is shown: next, back, fill, stop; the rest wait.
    pub(super) fn run_replay(&mut self, cmd: Command) -> Changed {
        match cmd {
            Command::MoveRight | Command::MoveDown | Command::Confirm => self.replay_forward(),
            Command::MoveLeft | Command::MoveUp => self.replay_back(),
            Command::Finish => self.fill_rest(),
            Command::Cancel => {
                self.replay = None;
                self.hint = None;
                self.say(Tone::Info, "Replay stopped; play on from here.");
                Changed::View
            }
            Command::Help | Command::Quit | Command::Pause => {
                // The board's commands are not for a replay; these three are.
                self.run_play(cmd)
            }
            _ => {
                self.say(Tone::Info, REPLAY_KEYS);
                Changed::View
            }
        }
    }

    fn replay_forward(&mut self) -> Changed {
        let Some(step) = self.replay.as_ref().and_then(|r| r.shown()).cloned() else {
            return Changed::Nothing;
        };
        let auto = self.config.game.auto_remove_candidates;
        if self.game.apply_hint(&step, auto, self.cursor).is_err() {
            return Changed::Nothing;
        }
        if let Some(p) = step.placements.first() {
            self.cursor = p.cell;
        }
        if let Some(r) = &mut self.replay {
            r.at += 1;
        }
        self.show_replay_step();
        Changed::Board
    }

    fn replay_back(&mut self) -> Changed {
        let at = self.replay.as_ref().map_or(0, |r| r.at);
        if at == 0 {
            self.say(Tone::Info, "This is the first step of the replay.");
            return Changed::View;
        }
        match self.game.undo(self.cursor) {
            Some(c) => self.cursor = c,
            None => return Changed::Nothing,
        }
        if let Some(r) = &mut self.replay {
            r.at -= 1;
        }
        self.show_replay_step();
        Changed::Board
    }

    /// Shows the next step with its highlights, or ends the replay at the end of the path.
    fn show_replay_step(&mut self) {
        let Some(r) = &self.replay else {
            return;
        };
        match r.shown() {
            Some(step) => {
                let cell = step
                    .placements
                    .first()
                    .map(|p| p.cell)
                    .or_else(|| step.eliminations.first().map(|e| e.cell));
                self.hint = Some(HintState {
                    hint: step.clone(),
                    stage: 3,
                });
                if let Some(c) = cell {
                    self.cursor = c;
                }
                // The panel names the step; an older message is about another board.
                self.message = None;
            }
            None => {
                self.replay = None;
                self.hint = None;
            }
        }
    }
}
