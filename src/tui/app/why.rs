//! The "why?" key (`w`, then a digit or `w` again) and the technique page (`i`): the
//! question becomes a quick answer or an effect; the answer shows in the hint panel with
//! its highlights.

use super::{App, AskedFor, Changed, HintState, Pending, Screen, Tone};
use crate::coach::{pages, why};
use crate::tui::config::Command;
use crate::tui::effects::{Effect, Job};

impl App {
    /// `w`: asks which digit; pressed again, what the selected cell must be.
    pub(super) fn why(&mut self) -> Changed {
        let cell = self.cursor;
        if let Some(w) = why::quick(&self.game, cell, why::Ask::Cell) {
            self.show_why(w);
            return Changed::View;
        }
        self.why_ask = true;
        let name = self.game.geometry().cell_name(cell);
        self.say(
            Tone::Info,
            format!(
                "Why not which digit? Press it (w again: what must {name} be; esc: never mind)."
            ),
        );
        Changed::View
    }

    /// The key after `w`: a digit, `w` again, or anything else (which does its own job).
    pub(super) fn answer_why(&mut self, cmd: Command) -> Changed {
        self.why_ask = false;
        if let Some(d) = cmd.digit().filter(|&d| d <= self.max_digit()) {
            return self.ask_why(why::Ask::Digit(d));
        }
        match cmd {
            Command::Why => self.ask_why(why::Ask::Cell),
            Command::Cancel => {
                self.message = None;
                Changed::View
            }
            other => self.run_play(other),
        }
    }

    fn ask_why(&mut self, ask: why::Ask) -> Changed {
        let cell = self.cursor;
        if let Some(w) = why::quick(&self.game, cell, ask) {
            self.show_why(w);
            return Changed::View;
        }
        let Some(solution) = self.game.solution().map(<[u8]>::to_vec) else {
            self.say(
                Tone::Warning,
                "This puzzle has no unique solution: there is nothing to explain from.",
            );
            return Changed::View;
        };
        if self.pending.is_some() {
            self.say(Tone::Info, "Still working on the last question...");
            return Changed::View;
        }
        let grid = why::position(&self.game);
        let puzzle = self.game.puzzle();
        let level = puzzle.difficulty.as_deref().and_then(|d| d.parse().ok());
        self.next_effect += 1;
        let id = self.next_effect;
        self.pending = Some(Pending {
            id,
            grid: grid.clone(),
            what: AskedFor::Why,
        });
        self.effects.push(Effect {
            id,
            job: Job::Why {
                grid,
                solution,
                cell,
                ask,
                level,
                puzzle: Box::new(puzzle.clone()),
            },
        });
        Changed::Nothing
    }

    fn show_why(&mut self, w: why::Why) {
        self.game.assists.why_shown(w.reveals);
        self.hint = Some(HintState {
            hint: w.hint,
            stage: 3,
        });
        self.message = None;
        self.dirty = true;
    }

    /// Whether the hint panel shows a "why?" answer rather than a hint.
    pub fn showing_why(&self) -> bool {
        self.hint
            .as_ref()
            .is_some_and(|h| h.hint.id == why::ID || why::technique_of(&h.hint.id).is_some())
    }

    pub(super) fn receive_why(
        &mut self,
        asked: Pending,
        reply: Result<why::Why, String>,
    ) -> Changed {
        match reply {
            Ok(w) if asked.grid == why::position(&self.game) => self.show_why(w),
            Ok(_) => self.say(
                Tone::Info,
                "The board changed while that was worked out: ask again.",
            ),
            Err(e) => self.say(Tone::Warning, format!("The explanation failed ({e}).")),
        }
        Changed::View
    }

    /// The technique of the hint or "why?" answer on show, once the hint names it.
    pub fn shown_technique(&self) -> Option<&'static str> {
        let h = self.hint.as_ref().filter(|h| h.stage >= 2)?;
        let id = why::technique_of(&h.hint.id).unwrap_or(&h.hint.id);
        pages::page(id).map(|p| p.id)
    }

    /// `i`: the page of the technique the hint on show names.
    pub(super) fn open_page(&mut self) -> Changed {
        match self.shown_technique() {
            Some(id) => {
                self.page = Some(id);
                self.page_scroll = 0;
                self.screen = Screen::Page;
            }
            None => self.say(
                Tone::Info,
                "i opens the page of a hint's technique, once the hint names it (H twice).",
            ),
        }
        Changed::View
    }

    pub(super) fn update_page(&mut self, cmd: Command) -> Changed {
        match cmd {
            Command::Cancel | Command::Confirm | Command::TechniquePage | Command::Help => {
                self.screen = Screen::Play
            }
            Command::Quit => self.quit = true,
            Command::MoveDown => self.page_scroll = self.page_scroll.saturating_add(1),
            Command::MoveUp => self.page_scroll = self.page_scroll.saturating_sub(1),
            _ => return Changed::Nothing,
        }
        Changed::View
    }
}
