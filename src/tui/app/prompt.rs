//! Questions asked before an action that cannot be taken back lightly: a new game over one
//! in progress, and the finish (which makes the solve assisted).

use super::{App, Changed};
use crate::tui::config::Command;
use crate::tui::keys::Key;

/// A question on screen; every other key waits for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// Drop the game in progress for the new-game menu?
    NewGame,
    /// Finish: fill the rest at once, or step through the solution path?
    Finish,
}

impl Prompt {
    /// The question's title and lines, as drawn.
    pub fn text(self) -> (&'static str, Vec<&'static str>) {
        match self {
            Prompt::NewGame => (
                " New game? ",
                vec![
                    "The game in progress is not solved;",
                    "a new game replaces it.",
                    "",
                    "y  new game    n/esc  keep playing",
                ],
            ),
            Prompt::Finish => (
                " Finish? ",
                vec![
                    "The solution will be shown; this solve",
                    "then counts as assisted (no best time).",
                    "",
                    "f  fill at once",
                    "s  step through the solution path",
                    "n/esc  cancel",
                ],
            ),
        }
    }
}

/// What an answer to a prompt does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Yes,
    Step,
    No,
}

impl App {
    /// Takes a key while a prompt is shown.
    pub(super) fn answer_prompt(
        &mut self,
        prompt: Prompt,
        key: Key,
        cmd: Option<Command>,
    ) -> Changed {
        let answer = match (prompt, key, cmd) {
            (_, Key::Char('y' | 'Y'), _) | (Prompt::Finish, Key::Char('f' | 'F'), _) => Answer::Yes,
            (Prompt::Finish, Key::Char('s'), _) => Answer::Step,
            (_, Key::Char('n' | 'N') | Key::Esc, _) | (_, _, Some(Command::Cancel)) => Answer::No,
            (_, _, Some(Command::Quit)) => {
                self.prompt = None;
                self.quit = true;
                return Changed::View;
            }
            _ => return Changed::Nothing,
        };
        self.prompt = None;
        if answer == Answer::No {
            return Changed::View;
        }
        self.message_fresh = false;
        let was_solved = self.game.solved;
        let changed = match (prompt, answer) {
            (Prompt::NewGame, _) => self.open_new_game_menu(),
            (Prompt::Finish, Answer::Step) => self.start_replay(),
            (Prompt::Finish, _) => self.fill_rest(),
        };
        self.after_board_change(changed, was_solved);
        changed
    }
}
