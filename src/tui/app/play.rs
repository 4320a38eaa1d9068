//! The play screen's commands: one method each, returning what it changed.

use super::moves::Slant;
use super::{cells, App, Changed, Record, Screen, Tone};
use crate::game::MoveError;
use crate::geometry::Cell;
use crate::tui::config::Command;

impl App {
    pub(super) fn update_play(&mut self, cmd: Command) -> Changed {
        if self.game.paused && !matches!(cmd, Command::Pause | Command::Quit | Command::Help) {
            self.say(Tone::Info, "Paused: press P to resume.");
            return Changed::View;
        }
        let was_solved = self.game.solved;
        let before = (self.cursor, self.pencil);
        if !matches!(cmd, Command::MoveUp | Command::MoveDown) {
            // The next vertical run keeps to the column it starts in.
            self.vertical_x = None;
        }
        let changed = if self.replay.is_some() {
            self.run_replay(cmd)
        } else {
            self.run_play(cmd)
        };
        self.after_board_change(changed, was_solved);
        if (self.cursor, self.pencil) != before {
            self.dirty = true;
        }
        changed
    }

    /// After a board change, the old message, check marks and hint go; a solve is said
    /// and recorded.
    pub(super) fn after_board_change(&mut self, changed: Changed, was_solved: bool) {
        if changed == Changed::Board {
            if !self.message_fresh {
                self.message = None;
            }
            self.checked.clear();
            self.dirty = true;
            // A replay's step is shown as a hint on the board it changed.
            if self.replay.is_none() {
                self.hint = None;
            }
        }
        if self.game.solved && !was_solved {
            self.solved();
        }
    }

    /// The command table of the play screen.
    pub(super) fn run_play(&mut self, cmd: Command) -> Changed {
        if self.why_ask {
            return self.answer_why(cmd);
        }
        if let Some(changed) = self.run_train(cmd) {
            return changed;
        }
        if let Some(d) = cmd.digit() {
            return self.digit(d);
        }
        match cmd {
            Command::MoveUp => self.move_vertical(-1),
            Command::MoveDown => self.move_vertical(1),
            Command::MoveLeft => self.move_horizontal(-1),
            Command::MoveRight => self.move_horizontal(1),
            Command::MoveUpLeft => self.move_slanted(Slant::UpLeft),
            Command::MoveUpRight => self.move_slanted(Slant::UpRight),
            Command::MoveDownLeft => self.move_slanted(Slant::DownLeft),
            Command::MoveDownRight => self.move_slanted(Slant::DownRight),
            Command::Clear => self.clear(),
            Command::PencilMode => self.toggle_pencil(),
            Command::MarkNext => self.arm_mark_next(),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Hint => self.hint(),
            Command::Why => self.why(),
            Command::TechniquePage => self.open_page(),
            Command::Check => self.check(),
            Command::Solvable => self.solvable(),
            Command::FillCandidates => self.fill_candidates(),
            Command::ClearCandidates => self.clear_candidates(),
            Command::Reveal => self.reveal(),
            Command::Finish => self.ask_finish(),
            Command::NewGame => self.ask_new_game(),
            Command::Train => self.open_train_menu(),
            Command::Pause => self.pause(),
            Command::Help => self.open_help(),
            Command::Cancel => self.cancel(),
            Command::Quit => self.ask_quit(),
            _ => Changed::Nothing,
        }
    }

    /// Says "Solved" and records the solve.
    fn solved(&mut self) {
        let secs = self.game.elapsed_ms / 1000;
        self.say(
            Tone::Info,
            format!(
                "Solved in {}:{:02} ({})! n starts a new game.",
                secs / 60,
                secs % 60,
                self.game.assists.summary()
            ),
        );
        self.hint = None;
        self.records.push(Record::Solved {
            difficulty: self.game.puzzle().difficulty.clone(),
            ms: self.game.elapsed_ms,
            assisted: self.game.assists.is_assisted(),
            kind: self.kind(),
            hints: self.game.assists.hints,
        });
        self.note_solved_in_file();
        self.note_daily_solve();
    }

    /// Reports a refused move: a board change, or a message (or nothing) when refused.
    pub(super) fn result(&mut self, r: Result<(), MoveError>) -> Changed {
        match r {
            Ok(()) => Changed::Board,
            Err(MoveError::Nothing) => Changed::Nothing,
            Err(e) => {
                self.say(Tone::Warning, format!("Cannot do that: {e}."));
                Changed::View
            }
        }
    }

    fn digit(&mut self, d: u8) -> Changed {
        if d > self.max_digit() {
            return Changed::Nothing;
        }
        let mark = self.pencil || self.mark_next;
        self.mark_next = false;
        let r = if mark {
            self.game.toggle_mark(self.cursor, d, self.cursor)
        } else {
            self.game.place(
                self.cursor,
                d,
                self.config.game.auto_remove_candidates,
                self.cursor,
            )
        };
        // Leaving mark-next mode is drawn even when the move was refused.
        self.result(r).max(if mark {
            Changed::View
        } else {
            Changed::Nothing
        })
    }

    fn reveal(&mut self) -> Changed {
        let auto_remove = self.config.game.auto_remove_candidates;
        match self.game.reveal(self.cursor, auto_remove, self.cursor) {
            Ok(Some(_)) => Changed::Board,
            Ok(None) => {
                self.say(
                    Tone::Warning,
                    "This puzzle has no unique solution to reveal from.",
                );
                Changed::View
            }
            Err(e) => self.result(Err(e)),
        }
    }

    fn clear(&mut self) -> Changed {
        let r = self.game.clear(self.cursor, self.cursor);
        self.result(r)
    }

    fn toggle_pencil(&mut self) -> Changed {
        self.pencil = !self.pencil;
        Changed::View
    }

    fn arm_mark_next(&mut self) -> Changed {
        self.mark_next = true;
        Changed::View
    }

    fn undo(&mut self) -> Changed {
        let to = self.game.undo(self.cursor);
        self.moved_in_history(to, "Nothing to undo.")
    }

    fn redo(&mut self) -> Changed {
        let to = self.game.redo(self.cursor);
        self.moved_in_history(to, "Nothing to redo.")
    }

    /// After undo or redo: the cursor goes to the cell that changed, else say why not.
    fn moved_in_history(&mut self, to: Option<Cell>, nothing: &str) -> Changed {
        match to {
            Some(c) => {
                self.cursor = c;
                Changed::Board
            }
            None => {
                self.say(Tone::Info, nothing);
                Changed::View
            }
        }
    }

    fn solvable(&mut self) -> Changed {
        self.game.assists.checked();
        if self.game.still_solvable() {
            self.say(Tone::Info, "Still solvable from here.");
        } else {
            self.say(
                Tone::Warning,
                "Not solvable any more: some entry is wrong (c shows which).",
            );
        }
        Changed::View
    }

    fn fill_candidates(&mut self) -> Changed {
        let r = self.game.fill_candidates(self.cursor);
        self.result(r)
    }

    fn clear_candidates(&mut self) -> Changed {
        let r = self.game.clear_marks(self.cursor);
        self.result(r)
    }

    /// Asks before the finish; nothing to ask about on a solved board.
    fn ask_finish(&mut self) -> Changed {
        if self.game.solution().is_none() {
            self.say(
                Tone::Warning,
                "This puzzle has no unique solution to finish with.",
            );
        } else if self.game.solved {
            self.say(Tone::Info, "Nothing left to fill.");
        } else {
            self.prompt = Some(super::Prompt::Finish);
        }
        Changed::View
    }

    /// Asks before a new game replaces one in progress (not when nothing was played, or
    /// the game is solved).
    fn ask_new_game(&mut self) -> Changed {
        if self.game.has_progress() && !self.game.solved {
            self.prompt = Some(super::Prompt::NewGame);
            return Changed::View;
        }
        self.open_new_game_menu()
    }

    /// Fills the rest from the solution (the finish's "fill at once").
    pub(super) fn fill_rest(&mut self) -> Changed {
        self.replay = None;
        match self.game.finish(self.cursor) {
            Some(0) => {
                self.say(Tone::Info, "Nothing left to fill.");
                Changed::View
            }
            Some(n) => {
                self.say(
                    Tone::Info,
                    format!("Filled {} from the solution.", cells(n)),
                );
                Changed::Board
            }
            None => {
                self.say(
                    Tone::Warning,
                    "This puzzle has no unique solution to finish with.",
                );
                Changed::View
            }
        }
    }

    pub(super) fn open_new_game_menu(&mut self) -> Changed {
        self.open_new_game();
        Changed::View
    }

    fn pause(&mut self) -> Changed {
        self.game.paused = !self.game.paused;
        self.say(
            Tone::Info,
            if self.game.paused {
                "Paused: press P to resume."
            } else {
                "Resumed."
            },
        );
        Changed::View
    }

    fn open_help(&mut self) -> Changed {
        self.screen = Screen::Help;
        self.help_scroll = 0;
        Changed::View
    }

    fn cancel(&mut self) -> Changed {
        self.hint = None;
        self.message = None;
        self.mark_next = false;
        self.checked.clear();
        Changed::View
    }

    fn ask_quit(&mut self) -> Changed {
        self.quit = true;
        Changed::View
    }

    fn check(&mut self) -> Changed {
        if self.game.solution().is_none() {
            self.say(
                Tone::Warning,
                "This puzzle has no unique solution to check against.",
            );
            return Changed::View;
        }
        self.game.assists.checked();
        self.dirty = true;
        let g = self.game.geometry();
        let wrong = self.game.deviations();
        let bad_marks = self.game.bad_marks();
        let names = |cells: &[Cell]| {
            let mut s: Vec<String> = cells.iter().take(6).map(|&c| g.cell_name(c)).collect();
            if cells.len() > 6 {
                s.push("...".into());
            }
            s.join(", ")
        };
        let text = match (wrong.is_empty(), bad_marks.is_empty()) {
            (true, true) => format!(
                "No mistakes so far; {} to go.",
                cells(self.game.remaining())
            ),
            (false, _) => format!(
                "{} from the solution: {}.",
                if wrong.len() == 1 {
                    "1 entry differs".to_string()
                } else {
                    format!("{} entries differ", wrong.len())
                },
                names(&wrong)
            ),
            (true, false) => format!(
                "Pencil marks leave out the answer in {}.",
                names(&bad_marks)
            ),
        };
        let tone = if wrong.is_empty() && bad_marks.is_empty() {
            Tone::Info
        } else {
            Tone::Warning
        };
        self.checked = wrong.into_iter().chain(bad_marks).collect();
        self.say(tone, text);
        Changed::View
    }
}
