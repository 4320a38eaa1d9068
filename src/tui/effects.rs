//! Carrying out the slow work the app asks for ([`Effect`]s): the event loop's side. The
//! app queues effects and never starts a thread; [`Effects`] runs them on one long-lived
//! worker thread and hands the answers back, which [`carry_out`] and [`deliver`] pass to
//! [`App::receive`]. [`Session`] is an app with its runner: what the event loop does,
//! without a terminal (tests, benches).

use super::app::{App, Changed};
use super::keys;
use crate::coach::why;
use crate::game::hints::{self, Hint};
use crate::puzzle::Grid;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Slow work asked for by the app; `id` matches the answer to the request.
#[derive(Clone, Debug)]
pub struct Effect {
    pub id: u64,
    pub job: Job,
}

#[derive(Clone, Debug)]
pub enum Job {
    /// The next hint on this board (`solution` allows a step taken from it when no
    /// technique applies).
    Hint {
        grid: Grid,
        solution: Option<Vec<u8>>,
    },
    /// The logical solution path from this board to the end (the finish's replay),
    /// reporting progress as it goes.
    Path {
        grid: Grid,
        solution: Option<Vec<u8>>,
    },
    /// A trainer answer graded against every instance of the technique in the drill's
    /// position (an empty answer finds the instances, for the nudge).
    Grade {
        grid: Grid,
        technique: &'static str,
        answer: crate::coach::grade::Answer,
        solution: Vec<u8>,
    },
    /// The "why?" key's search (see `coach::why::search`); without a level the puzzle is
    /// rated first.
    Why {
        grid: Grid,
        solution: Vec<u8>,
        cell: crate::geometry::Cell,
        ask: why::Ask,
        level: Option<crate::solver::rate::Level>,
        puzzle: Box<crate::puzzle::Puzzle>,
    },
}

/// The answer to the effect `id`.
#[derive(Clone, Debug)]
pub struct Answer {
    pub id: u64,
    pub reply: Reply,
}

#[derive(Clone, Debug)]
pub enum Reply {
    /// The hint (none when there is none), or why the search failed.
    Hint(Result<Option<Hint>, String>),
    /// Steps of the path found so far (the answer comes later).
    Progress(usize),
    /// The path's steps, or why the search failed.
    Path(Result<Vec<Hint>, String>),
    /// The grade, or why grading failed.
    Grade(Result<crate::coach::grade::Grade, String>),
    /// The "why?" answer, or why the search failed.
    Why(Result<why::Why, String>),
}

impl Reply {
    /// The answer to a job that failed (`why` says how), of the job's kind.
    pub fn failure(job: &Job, why: String) -> Reply {
        match job {
            Job::Hint { .. } => Reply::Hint(Err(why)),
            Job::Path { .. } => Reply::Path(Err(why)),
            Job::Grade { .. } => Reply::Grade(Err(why)),
            Job::Why { .. } => Reply::Why(Err(why)),
        }
    }

    pub fn failed(&self) -> bool {
        matches!(
            self,
            Reply::Hint(Err(_)) | Reply::Path(Err(_)) | Reply::Grade(Err(_)) | Reply::Why(Err(_))
        )
    }
}

/// How often (in steps) a path search reports progress.
const PROGRESS_EVERY: usize = 5;

/// Makes the next job panic, so tests can see the player survive one.
#[cfg(test)]
static PANIC_NEXT_JOB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs effects on one long-lived thread, so that what its searches remember from earlier
/// positions (the nested nets of a hard puzzle) speeds up the next hints. Started on first
/// use, and again if it ever stopped. A job that panics is caught: the answer says it
/// failed, and the thread (whose memory may be half-updated) ends, to be started afresh
/// by the next effect.
pub struct Effects {
    worker: Option<Sender<Effect>>,
    send: Sender<Answer>,
    answers: Receiver<Answer>,
    /// Runs the effects instead of a thread of this player's own (the server's pool).
    runner: Option<Box<dyn Runner>>,
}

/// Runs a player's effects elsewhere than on a thread of its own (`serve` shares a
/// bounded pool among its sessions).
pub trait Runner: Send {
    /// Runs `effect`, sending its answer (and progress) to `answers`; a runner that cannot
    /// take it answers at once with a failure saying why.
    fn run(&mut self, effect: Effect, answers: Sender<Answer>);
}

impl Default for Effects {
    fn default() -> Effects {
        let (send, answers) = channel();
        Effects {
            worker: None,
            send,
            answers,
            runner: None,
        }
    }
}

impl Effects {
    /// Effects run by `runner`.
    pub fn with_runner(runner: Box<dyn Runner>) -> Effects {
        Effects {
            runner: Some(runner),
            ..Effects::default()
        }
    }

    /// Starts an effect; its answer comes from [`Effects::next`].
    pub fn start(&mut self, effect: Effect) {
        if let Some(runner) = &mut self.runner {
            runner.run(effect, self.send.clone());
            return;
        }
        let mut effect = effect;
        if let Some(worker) = &self.worker {
            match worker.send(effect) {
                Ok(()) => return,
                Err(std::sync::mpsc::SendError(back)) => effect = back,
            }
        }
        let (requests, inbox) = channel::<Effect>();
        let answers = self.send.clone();
        let spawned = std::thread::Builder::new()
            .name("termdoku-effects".into())
            .spawn(move || work(&inbox, &answers));
        if spawned.is_err() {
            let _ = self.send.send(Answer {
                id: effect.id,
                reply: Reply::Hint(Err("no thread could be started".into())),
            });
            return;
        }
        // A fresh thread's inbox is open: the effect cannot come back.
        let _ = requests.send(effect);
        self.worker = Some(requests);
    }

    /// The next answer, waiting up to `wait` for it.
    pub fn next(&mut self, wait: Duration) -> Option<Answer> {
        let answer = match self.answers.recv_timeout(wait) {
            Ok(a) => a,
            // This runner holds a sender itself: only a timeout is possible.
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
        };
        if answer.reply.failed() {
            // The thread that failed is ending: the next effect starts a fresh one rather
            // than queue behind it.
            self.worker = None;
        }
        Some(answer)
    }
}

/// The worker thread: answers effects in order until the app goes or a job panics.
fn work(inbox: &Receiver<Effect>, answers: &Sender<Answer>) {
    let mut worker = hints::HintWorker::default();
    for effect in inbox {
        let id = effect.id;
        let reply = answer(&mut worker, effect, answers);
        let failed = reply.failed();
        // The player may have quit: a closed channel is fine.
        let _ = answers.send(Answer { id, reply });
        if failed {
            return;
        }
    }
}

/// Carries out one effect with `worker`'s memory, sending progress to `answers`; a job
/// that panics is caught and answered as failed (the caller then drops the memory).
pub fn answer(worker: &mut hints::HintWorker, effect: Effect, answers: &Sender<Answer>) -> Reply {
    let id = effect.id;
    match effect.job {
        Job::Hint { grid, solution } => {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                #[cfg(test)]
                if PANIC_NEXT_JOB.swap(false, std::sync::atomic::Ordering::SeqCst) {
                    panic!("a hint search panicked (test)");
                }
                worker.next_hint(&grid, solution.as_deref())
            }));
            Reply::Hint(found.map_err(|p| panic_text(p.as_ref())))
        }
        Job::Path { grid, solution } => {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                worker.path(&grid, solution.as_deref(), &mut |n| {
                    if n % PROGRESS_EVERY == 0 {
                        let _ = answers.send(Answer {
                            id,
                            reply: Reply::Progress(n),
                        });
                    }
                })
            }));
            Reply::Path(found.map_err(|p| panic_text(p.as_ref())))
        }
        Job::Grade {
            grid,
            technique,
            answer,
            solution,
        } => {
            let found = std::panic::catch_unwind(|| {
                crate::coach::grade::grade(&grid, technique, &answer, &solution)
            });
            Reply::Grade(found.map_err(|p| panic_text(p.as_ref())))
        }
        Job::Why {
            grid,
            solution,
            cell,
            ask,
            level,
            puzzle,
        } => {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let level = level.unwrap_or_else(|| crate::solver::rate::rate(&puzzle).level);
                why::search(&grid, &solution, cell, ask, level, why::BUDGET)
            }));
            Reply::Why(found.map_err(|p| panic_text(p.as_ref())))
        }
    }
}

/// The message of a caught panic.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "internal error".into())
}

/// Starts the effects the app queued; when there were any, waits up to `wait` for the app
/// to have its answers (a quick hint then shows at once, with no "looking" message in
/// between), and otherwise lets the app say it is working on it.
pub fn carry_out(app: &mut App, fx: &mut Effects, wait: Duration) -> Changed {
    let effects = app.take_effects();
    if effects.is_empty() {
        return Changed::Nothing;
    }
    for e in effects {
        fx.start(e);
    }
    let start = Instant::now();
    let mut changed = Changed::Nothing;
    while app.waiting() {
        let left = wait.saturating_sub(start.elapsed());
        match fx.next(left) {
            Some(a) => changed = changed.max(app.receive(a)),
            None => return changed.max(app.working()),
        }
    }
    changed
}

/// Hands the app every answer that has arrived.
pub fn deliver(app: &mut App, fx: &mut Effects) -> Changed {
    let mut changed = Changed::Nothing;
    while let Some(a) = fx.next(Duration::ZERO) {
        changed = changed.max(app.receive(a));
    }
    changed
}

/// An app with its effects runner, driven as the event loop drives it.
pub struct Session {
    pub app: App,
    pub effects: Effects,
    /// How long a key waits for slow work before play goes on and the answer is shown
    /// when it comes (the event loop waits 150 ms; tests wait long, or 0 to exercise the
    /// background path).
    pub wait: Duration,
}

impl Session {
    pub fn new(app: App) -> Session {
        Session {
            app,
            effects: Effects::default(),
            wait: Duration::from_secs(600),
        }
    }

    pub fn with_puzzle(puzzle: crate::puzzle::Puzzle) -> Session {
        Session::new(App::with_puzzle(puzzle))
    }

    /// Presses keys written as text (see [`keys::parse_sequence`]), carrying out the
    /// effects of each before the next.
    pub fn press(&mut self, keys: &str) {
        for k in keys::parse_sequence(keys) {
            self.app.handle_key(k);
            carry_out(&mut self.app, &mut self.effects, self.wait);
        }
    }

    /// Takes answers that have arrived, as the event loop does between keys; true when
    /// something changed on screen.
    pub fn poll(&mut self) -> bool {
        deliver(&mut self.app, &mut self.effects) != Changed::Nothing
    }
}

impl std::ops::Deref for Session {
    type Target = App;
    fn deref(&self) -> &App {
        &self.app
    }
}

impl std::ops::DerefMut for Session {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;
    use crate::tui::app::Tone;

    #[test]
    fn a_panicking_hint_search_is_reported_and_the_next_hint_works() {
        let mut s = Session::with_puzzle(builtin::puzzle(Variant::Standard));
        PANIC_NEXT_JOB.store(true, std::sync::atomic::Ordering::SeqCst);
        s.press("H");
        let said = s.message.clone().expect("a message");
        assert_eq!(said.tone, Tone::Warning);
        assert!(said.text.starts_with("The hint failed"), "{}", said.text);
        assert!(s.hint.is_none());
        // A fresh worker thread answers the next request.
        s.press("H");
        assert!(s.hint.is_some(), "{:?}", s.message);
    }
}
