//! The trainer: a technique's drills from the bank, one after another. The drill is played
//! as a game (the usual editing, undo and redo); Enter submits the board, which the worker
//! grades against every instance of the technique (`coach::grade`); then the step is shown
//! with its highlights. The game that was being played waits aside and comes back on Esc.
//!
//! A run (technique, variant, result per drill) is kept in the profile, so `t` offers to
//! resume it; graded drills and game hints that needed a technique go to the profile too.

use super::{App, AskedFor, Changed, HintState, Record, Screen, Tone};
use crate::coach::bank;
use crate::coach::grade::{self, Grade, Verdict};
use crate::coach::names;
use crate::game::hints::Hint;
use crate::game::profile::{DrillResult, Run};
use crate::game::Game;
use crate::geometry::{Cell, Digits};
use crate::puzzle::{Grid, Variant};
use crate::solver::logic::{techniques, TechniqueInfo};
use crate::tui::config::Command;
use crate::tui::keys::Key;
use crate::tui::menu::{picker_key, List};

/// A drill being trained on, and the run it belongs to.
#[derive(Clone, Debug)]
pub struct Trainer {
    pub technique: &'static TechniqueInfo,
    pub variant: Variant,
    pub drills: Vec<bank::Entry>,
    /// The drill shown (0-based).
    pub at: usize,
    /// The drill's position as served: answers are the changes from it.
    pub grid: Grid,
    pub solution: Vec<u8>,
    pub results: Vec<DrillResult>,
    /// The verdict of this drill's first submit, once made.
    pub first: Option<Verdict>,
    /// The verdict of the last submit.
    pub last: Option<Verdict>,
    /// Where to look (from the step's defining houses), once the worker found it.
    pub nudge: Option<String>,
}

impl Trainer {
    /// `Train: X-Wing  drill 3/20`.
    pub fn title(&self) -> String {
        format!(
            "Train: {}  drill {}/{}",
            self.technique.name,
            self.at + 1,
            self.drills.len()
        )
    }

    pub fn run(&self) -> Run {
        Run {
            technique: self.technique.id.to_string(),
            variant: self.variant.name().to_string(),
            results: self.results.clone(),
        }
    }

    /// `score 2/3 correct; times 0:41 1:02 0:15`.
    pub fn score(&self) -> String {
        let times: Vec<String> = self
            .results
            .iter()
            .map(|r| {
                let s = r.ms / 1000;
                format!(
                    "{}:{:02}{}",
                    s / 60,
                    s % 60,
                    if r.solved { "" } else { "x" }
                )
            })
            .collect();
        let run = self.run();
        if times.is_empty() {
            format!("score {}", run.score())
        } else {
            format!("score {}; times {}", run.score(), times.join(" "))
        }
    }
}

/// An entry of the trainer's picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Resume,
    Technique(&'static str),
}

/// The trainer's picker: the list shown and what each entry is.
#[derive(Clone, Debug, Default)]
pub struct TrainMenu {
    pub list: List,
    pub choices: Vec<Choice>,
    pub variant: Option<Variant>,
    /// Techniques of the variant without drills (listed last, marked `-`).
    pub left_out: usize,
}

/// Keys shown in the drill's messages.
pub const DRILL_KEYS: &str = "enter submits, H nudges, n next drill, esc leaves";

/// How many weak techniques the picker suggests at its top.
const SUGGESTED: usize = 5;

/// The game put aside while training: the game, its cursor and pencil mode.
#[derive(Clone, Debug)]
pub struct Stash {
    pub game: Game,
    pub cursor: Cell,
    pub pencil: bool,
}

/// The techniques of a variant, grouped by family in table order, easier levels first
/// within a family: those with drills in the bank, and those without.
pub fn trainable(v: Variant) -> (Vec<&'static TechniqueInfo>, Vec<&'static TechniqueInfo>) {
    let table = techniques();
    let family_at = |t: &TechniqueInfo| table.iter().position(|x| x.family == t.family);
    let mut list: Vec<&TechniqueInfo> = names::nameable()
        .filter(|t| t.enabled && names::occurs_in(t, v))
        .collect();
    list.sort_by_key(|t| (family_at(t), t.level));
    list.into_iter().partition(|t| bank::count(t.id, v) > 0)
}

impl App {
    /// The variant the trainer works on: the run's, else the game's.
    fn train_variant(&self) -> Variant {
        self.trainer
            .as_ref()
            .map_or_else(|| self.game.puzzle().variant(), |t| t.variant)
    }

    /// Opens the trainer's picker (the `train` command): a run to resume, the suggested
    /// (weakest) techniques, then every technique with drills, by family and level.
    pub fn open_train_menu(&mut self) -> Changed {
        let v = self.train_variant();
        self.open_train_menu_on(v)
    }

    /// The picker for variant `v`.
    pub fn open_train_menu_on(&mut self, v: Variant) -> Changed {
        let (list, without) = trainable(v);
        let mut items = Vec::new();
        let mut choices = Vec::new();
        if let Some(run) = &self.profile.run {
            let name = crate::solver::logic::technique(&run.technique)
                .map_or(run.technique.as_str(), |t| t.name);
            items.push(format!(
                "resume run: {name} ({}), {} done, {}",
                run.variant,
                run.results.len(),
                run.score()
            ));
            choices.push(Choice::Resume);
        }
        let ids: Vec<&str> = list.iter().map(|t| t.id).collect();
        let weak: Vec<&str> = self
            .profile
            .weakest_first(&ids)
            .into_iter()
            .filter(|id| self.profile.is_weak(id))
            .take(SUGGESTED)
            .collect();
        for t in weak
            .iter()
            .filter_map(|id| list.iter().find(|t| t.id == *id))
        {
            items.push(format!("* {}", self.technique_line(t, v)));
            choices.push(Choice::Technique(t.id));
        }
        for t in &list {
            // Two blanks where the others have `* ` or `- `, so the columns line up.
            items.push(format!("  {}", self.technique_line(t, v)));
            choices.push(Choice::Technique(t.id));
        }
        // Listed last, so the user sees which are missing; choosing one says how to make
        // drills for it.
        for t in &without {
            items.push(format!(
                "- {:<28} {:<24} {}/{}",
                t.name,
                "no drills",
                t.family.name(),
                t.level
            ));
            choices.push(Choice::Technique(t.id));
        }
        self.train_menu = TrainMenu {
            list: List::new(items, 0),
            choices,
            variant: Some(v),
            left_out: without.len(),
        };
        self.screen = Screen::Train;
        Changed::View
    }

    /// `X-Wing  20 drills, 2/3 solved  fish/hard`; a suggested one starts with `* `. The
    /// family comes last: on a narrow screen the row is cut there, not in the drill count.
    fn technique_line(&self, t: &TechniqueInfo, v: Variant) -> String {
        let s = self.profile.skill(t.id);
        let record = if s.tried == 0 {
            "not tried".to_string()
        } else {
            format!("{}/{} solved", s.solved, s.tried)
        };
        let n = bank::count(t.id, v);
        let drills = format!("{n:>2} drill{}, {record}", if n == 1 { "" } else { "s" });
        format!(
            "{:<28} {drills:<24} {}/{}",
            t.name,
            t.family.name(),
            t.level
        )
    }

    /// The picker's title and footer.
    pub fn train_menu_text(&self) -> (String, String) {
        let v = self.train_menu.variant.unwrap_or_default();
        let footer = if self.train_menu.left_out > 0 {
            format!(
                "enter trains, esc closes; last {}: no drills on {v}",
                self.train_menu.left_out
            )
        } else {
            "enter trains, esc closes".to_string()
        };
        (format!("Train on {v}: technique (* suggested)"), footer)
    }

    /// A key on the trainer's picker.
    pub(crate) fn train_menu_key(&mut self, key: Key) {
        match picker_key(&mut self.train_menu.list, key) {
            Ok(Some(n)) => match self.train_menu.choices.get(n - 1).cloned() {
                Some(Choice::Resume) => self.resume_run(),
                Some(Choice::Technique(id)) => {
                    let v = self.train_menu.variant.unwrap_or_default();
                    if let Some(t) = crate::solver::logic::technique(id) {
                        self.start_run(t, v, Vec::new());
                    }
                }
                None => {}
            },
            Ok(None) => {}
            Err(crate::tui::menu::Outcome::Quit) => self.quit = true,
            Err(_) => self.screen = Screen::Play,
        }
    }

    fn resume_run(&mut self) {
        let Some(run) = self.profile.run.clone() else {
            return;
        };
        let t = crate::solver::logic::technique(&run.technique);
        let v = Variant::parse(&run.variant);
        match (t, v) {
            (Some(t), Some(v)) => self.start_run(t, v, run.results),
            _ => self.say(Tone::Warning, "The open run names an unknown technique."),
        }
    }

    /// Starts (or resumes, with the results so far) a run of `t` on `v` at its next drill.
    pub fn start_run(&mut self, t: &'static TechniqueInfo, v: Variant, results: Vec<DrillResult>) {
        self.screen = Screen::Play;
        let drills = bank::drills(t.id, v);
        if drills.is_empty() {
            self.say(
                Tone::Warning,
                format!(
                    "The drill bank has no {} drill on {v} (make some with `termdoku drill --technique {} --variant {v}`).",
                    t.name, t.id
                ),
            );
            return;
        }
        let at = results.len() % drills.len();
        let first = match drills[at].open() {
            Ok(d) => d,
            Err(e) => {
                self.say(Tone::Warning, format!("That drill could not be read: {e}"));
                return;
            }
        };
        // Only once a drill is ready does the game go aside (the save keeps it).
        if self.stash.is_none() {
            self.stash = Some(Stash {
                game: self.game.clone(),
                cursor: self.cursor,
                pencil: self.pencil,
            });
        }
        self.trainer = Some(Trainer {
            technique: t,
            variant: v,
            drills,
            at,
            grid: first.grid.clone(),
            solution: first.solution.clone(),
            results,
            first: None,
            last: None,
            nudge: None,
        });
        self.show_drill(first);
        self.save_run();
    }

    /// Puts a drill's position on the board and asks the worker where to look.
    fn show_drill(&mut self, d: bank::Opened) {
        let n = d.grid.geometry().cell_count();
        let marks: Vec<Digits> = (0..n)
            .map(|c| {
                if d.grid.value(c) == 0 {
                    d.grid.candidates(c)
                } else {
                    Digits::EMPTY
                }
            })
            .collect();
        let values = d.grid.values().to_vec();
        let mut game = Game::from_parts(
            d.puzzle,
            values,
            marks,
            Vec::new(),
            Vec::new(),
            0,
            0,
            Default::default(),
        );
        game.count_mistakes = false;
        self.game = game;
        self.cursor = 0;
        self.pencil = true;
        self.hint = None;
        self.pending = None;
        self.checked.clear();
        if let Some(t) = &self.trainer {
            let text = format!("Apply the {}: {DRILL_KEYS}.", t.technique.name);
            self.say(Tone::Info, text);
        }
        self.ask_grade(grade::Answer::default(), AskedFor::Nudge);
    }

    /// Queues a grading of `answer` (an empty one finds the nudge).
    fn ask_grade(&mut self, answer: grade::Answer, what: AskedFor) {
        let Some(t) = &self.trainer else {
            return;
        };
        let job = crate::tui::effects::Job::Grade {
            grid: t.grid.clone(),
            technique: t.technique.id,
            answer,
            solution: t.solution.clone(),
        };
        self.ask(job, what);
    }

    /// The play commands a drill handles itself; `None` leaves the command to the player.
    pub(super) fn run_train(&mut self, cmd: Command) -> Option<Changed> {
        let t = self.trainer.as_ref()?;
        let done = t.last == Some(Verdict::Correct);
        Some(match cmd {
            Command::Confirm => self.submit(),
            Command::Hint => self.nudge(),
            Command::NewGame => self.next_drill(),
            Command::MoveRight if done => self.next_drill(),
            Command::Cancel => self.leave_trainer(),
            Command::Finish | Command::Reveal | Command::Check | Command::Solvable => {
                self.say(Tone::Info, format!("Not in a drill: {DRILL_KEYS}."));
                Changed::View
            }
            _ => return None,
        })
    }

    fn nudge(&mut self) -> Changed {
        let text = match self.trainer.as_ref().and_then(|t| t.nudge.clone()) {
            Some(n) => format!("Nudge: {n}."),
            None if self.waiting() => "Still looking where to point you...".to_string(),
            None => "No nudge for this drill.".to_string(),
        };
        self.say(Tone::Info, text);
        Changed::View
    }

    fn submit(&mut self) -> Changed {
        let Some(t) = &self.trainer else {
            return Changed::Nothing;
        };
        let answer = grade::Answer::between(&t.grid, self.game.values(), self.game.all_marks());
        if answer.is_empty() {
            self.say(
                Tone::Info,
                format!(
                    "Nothing to grade yet: remove the candidates the {} removes (or place its digit), then enter.",
                    t.technique.name
                ),
            );
            return Changed::View;
        }
        self.ask_grade(answer, AskedFor::Grade);
        Changed::Nothing
    }

    /// The worker's grading: the nudge of a fresh drill, or a submitted answer's grade.
    pub(super) fn receive_grade(
        &mut self,
        what: AskedFor,
        reply: Result<Grade, String>,
    ) -> Changed {
        let grade = match reply {
            Ok(g) => g,
            Err(why) => {
                self.say(
                    Tone::Warning,
                    format!("Grading failed ({why}); enter tries again."),
                );
                return Changed::View;
            }
        };
        let elapsed = self.game.elapsed_ms;
        let g = self.game.puzzle().geometry_arc();
        let Some(t) = &mut self.trainer else {
            return Changed::Nothing;
        };
        if t.nudge.is_none() {
            t.nudge = grade
                .instance
                .as_ref()
                .map(|s| s.explain(&g, crate::solver::logic::Detail::Nudge));
        }
        if what == AskedFor::Nudge {
            return Changed::Nothing;
        }
        let name = t.technique.name;
        let id = t.technique.id;
        t.last = Some(grade.verdict);
        let mut first = false;
        if t.first.is_none() {
            first = true;
            t.first = Some(grade.verdict);
            t.results.push(DrillResult {
                solved: grade.verdict == Verdict::Correct,
                ms: elapsed,
            });
        }
        let text = grade.text(&g, name);
        if first {
            let solved = grade.verdict == Verdict::Correct;
            self.profile.record_drill(id, solved, elapsed);
            self.records.push(Record::Drill {
                technique: id.to_string(),
                solved,
                ms: elapsed,
            });
            self.save_run();
        }
        if let Some(step) = &grade.instance {
            self.hint = Some(HintState {
                hint: Hint::from_step(step, &g),
                stage: 3,
            });
        }
        let next = if grade.verdict == Verdict::Correct {
            "Next drill: n or right"
        } else {
            "Fix it and press enter again, or n for the next drill"
        };
        let tone = if grade.verdict == Verdict::Correct {
            Tone::Info
        } else {
            Tone::Warning
        };
        self.say(tone, format!("{text} {next}."));
        Changed::View
    }

    /// The next drill of the run; after the last, the run is over.
    fn next_drill(&mut self) -> Changed {
        let Some(t) = &mut self.trainer else {
            return Changed::Nothing;
        };
        if t.first.is_none() {
            // A skipped drill counts as tried and not solved.
            t.results.push(DrillResult {
                solved: false,
                ms: self.game.elapsed_ms,
            });
        }
        if t.results.len() >= t.drills.len() {
            let text = format!(
                "Run over: {} on {}, {}.",
                t.technique.name,
                t.variant,
                t.run().score()
            );
            self.profile.run = None;
            self.records.push(Record::Run(None));
            self.trainer = None;
            self.restore_stash();
            self.say(Tone::Info, text);
            return Changed::Board;
        }
        t.at = (t.at + 1) % t.drills.len();
        t.first = None;
        t.last = None;
        t.nudge = None;
        let entry = t.drills[t.at];
        match entry.open() {
            Ok(d) => {
                t.grid = d.grid.clone();
                t.solution = d.solution.clone();
                self.show_drill(d);
                self.save_run();
            }
            Err(e) => self.say(Tone::Warning, e),
        }
        Changed::Board
    }

    /// Esc: back to the game put aside; the run stays open for `t` to resume.
    fn leave_trainer(&mut self) -> Changed {
        let Some(t) = self.trainer.take() else {
            return Changed::Nothing;
        };
        self.restore_stash();
        self.say(
            Tone::Info,
            format!(
                "Left the trainer ({} {}); t resumes the run.",
                t.technique.name,
                t.run().score()
            ),
        );
        Changed::Board
    }

    fn restore_stash(&mut self) {
        self.hint = None;
        self.pending = None;
        self.checked.clear();
        if let Some(s) = self.stash.take() {
            self.game = s.game;
            self.cursor = s.cursor;
            self.pencil = s.pencil;
        }
    }

    /// The run as it stands, in the profile and for the file.
    fn save_run(&mut self) {
        if let Some(t) = &self.trainer {
            let run = t.run();
            self.profile.run = Some(run.clone());
            self.records.push(Record::Run(Some(run)));
        }
    }

    /// The game the save file holds: the one put aside while training.
    pub fn saved_game(&self) -> (&Game, Cell, bool) {
        match &self.stash {
            Some(s) => (&s.game, s.cursor, s.pencil),
            None => (&self.game, self.cursor, self.pencil),
        }
    }
}
