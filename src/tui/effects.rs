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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
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
    /// technique applies). `ahead`: worked out before it is asked for (see
    /// [`look_ahead`]); dropped by the worker when a newer board's comes after it.
    Hint {
        grid: Grid,
        solution: Option<Vec<u8>>,
        ahead: bool,
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
    /// A hint worked out ahead, given up for newer work (nothing failed).
    Skipped,
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
    /// Set when a job is sent: the worker gives up a hint it works out ahead, since the
    /// job behind it is newer (a changed board, or a request somebody waits for).
    newer: Arc<AtomicBool>,
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
            newer: Default::default(),
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

    /// Whether hints are worked out before they are asked for: only on a thread of this
    /// player's own, since a server's pool is shared by every session and kept for hints
    /// asked for.
    pub fn looks_ahead(&self) -> bool {
        self.runner.is_none()
    }

    /// Starts an effect; its answer comes from [`Effects::next`].
    pub fn start(&mut self, effect: Effect) {
        if let Some(runner) = &mut self.runner {
            if matches!(effect.job, Job::Hint { ahead: true, .. }) {
                let reply = Reply::failure(&effect.job, "not worked out ahead here".into());
                let _ = self.send.send(Answer {
                    id: effect.id,
                    reply,
                });
                return;
            }
            runner.run(effect, self.send.clone());
            return;
        }
        let mut effect = effect;
        if let Some(worker) = &self.worker {
            match worker.send(effect) {
                Ok(()) => {
                    // After the send: a worker that cleared the flag before it looked at
                    // its inbox either finds this job there or sees the flag set.
                    self.newer.store(true, Ordering::SeqCst);
                    return;
                }
                Err(std::sync::mpsc::SendError(back)) => effect = back,
            }
        }
        let (requests, inbox) = channel::<Effect>();
        let answers = self.send.clone();
        // A fresh thread gets a fresh flag: the old one may still be read by a thread that
        // is ending.
        self.newer = Default::default();
        let newer = Arc::clone(&self.newer);
        let spawned = std::thread::Builder::new()
            .name("termdoku-effects".into())
            .spawn(move || work(&inbox, &answers, &newer));
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

/// The worker thread: answers effects in order until the app goes or a job panics. A hint
/// worked out ahead gives way to any job behind it, skipped or given up part way (the
/// board it was for has changed, or the player waits for something else): the worker
/// always works on what is wanted now.
fn work(inbox: &Receiver<Effect>, answers: &Sender<Answer>, newer: &Arc<AtomicBool>) {
    let mut worker = hints::HintWorker::default();
    let mut queue = std::collections::VecDeque::new();
    loop {
        if queue.is_empty() {
            match inbox.recv() {
                Ok(e) => queue.push_back(e),
                Err(_) => return,
            }
        }
        newer.store(false, Ordering::SeqCst);
        queue.extend(inbox.try_iter());
        let Some(effect) = queue.pop_front() else {
            continue;
        };
        let id = effect.id;
        let ahead = is_ahead(&effect);
        let reply = if ahead && !queue.is_empty() {
            Reply::Skipped
        } else if ahead {
            worker.set_stop(Some(Arc::clone(newer)));
            let reply = answer(&mut worker, effect, answers);
            worker.set_stop(None);
            if newer.load(Ordering::SeqCst) && !reply.failed() {
                Reply::Skipped
            } else {
                reply
            }
        } else {
            answer(&mut worker, effect, answers)
        };
        let failed = reply.failed();
        // The player may have quit: a closed channel is fine.
        let _ = answers.send(Answer { id, reply });
        if failed {
            return;
        }
    }
}

fn is_ahead(effect: &Effect) -> bool {
    matches!(effect.job, Job::Hint { ahead: true, .. })
}

/// Carries out one effect with `worker`'s memory, sending progress to `answers`; a job
/// that panics is caught and answered as failed (the caller then drops the memory).
pub fn answer(worker: &mut hints::HintWorker, effect: Effect, answers: &Sender<Answer>) -> Reply {
    let id = effect.id;
    match effect.job {
        Job::Hint {
            grid,
            solution,
            ahead,
        } => {
            // Read by the test hook only.
            let _ = ahead;
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // Not a hint worked out ahead: those of other tests run at any time.
                #[cfg(test)]
                if !ahead && PANIC_NEXT_JOB.swap(false, std::sync::atomic::Ordering::SeqCst) {
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
    // A hint asked for while it was being worked out ahead waits like a fresh request.
    let joined = app.take_joined();
    if effects.is_empty() && !joined {
        look_ahead(app, fx);
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
            Some(a) => {
                changed = changed.max(app.receive(a));
                start_queued(app, fx);
            }
            None => return changed.max(app.working()),
        }
    }
    look_ahead(app, fx);
    changed
}

/// Starts what the app queued while taking an answer.
fn start_queued(app: &mut App, fx: &mut Effects) {
    for e in app.take_effects() {
        fx.start(e);
    }
}

/// Hands the app every answer that has arrived.
pub fn deliver(app: &mut App, fx: &mut Effects) -> Changed {
    let mut changed = Changed::Nothing;
    while let Some(a) = fx.next(Duration::ZERO) {
        changed = changed.max(app.receive(a));
        start_queued(app, fx);
    }
    look_ahead(app, fx);
    changed
}

/// Starts working out the next hint of the board on show when the app wants one ahead
/// (see [`App::look_ahead`]) and the runner does that.
pub fn look_ahead(app: &mut App, fx: &mut Effects) {
    if fx.looks_ahead() && app.look_ahead() {
        start_queued(app, fx);
    }
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

    /// The answers to effects up to and with `last`'s, progress left out.
    fn answers_until(fx: &mut Effects, last: u64) -> Vec<Answer> {
        let mut got = Vec::new();
        let start = Instant::now();
        while got.last().map(|a: &Answer| a.id) != Some(last) {
            assert!(start.elapsed().as_secs() < 300, "no answer for {last}");
            if let Some(a) = fx.next(Duration::from_millis(50)) {
                got.push(a);
            }
        }
        got
    }

    fn ahead(id: u64, grid: &Grid, ahead: bool) -> Effect {
        Effect {
            id,
            job: Job::Hint {
                grid: grid.clone(),
                solution: None,
                ahead,
            },
        }
    }

    #[test]
    fn a_hint_worked_out_ahead_gives_way_to_newer_work() {
        // A hard honeycomb where only long net searches find the next step (seconds), and
        // an easy board.
        let puzzle = crate::format::parse_line(
            b"............................................2........46.8..7.",
            Variant::Honeycomb,
            "t",
            1,
        )
        .unwrap()
        .unwrap();
        let mut lines = include_str!("../../tests/honeycomb_hard_marks.txt").lines();
        let slow = crate::coach::marks::read_position(
            Some(&puzzle),
            Some((lines.next().unwrap(), "marks")),
            Some((lines.next().unwrap(), "placed")),
        )
        .unwrap()
        .grid;
        let easy = Grid::from_puzzle(&builtin::puzzle(Variant::Standard));
        let mut fx = Effects::default();
        // Given up part way: the search has started when the next board comes.
        fx.start(ahead(1, &slow, true));
        std::thread::sleep(Duration::from_millis(100));
        fx.start(ahead(2, &easy, true));
        let got = answers_until(&mut fx, 2);
        assert!(matches!(got[0].reply, Reply::Skipped), "{:?}", got[0]);
        assert!(matches!(&got[1].reply, Reply::Hint(Ok(Some(_)))));
        // Skipped unstarted: a newer board is queued behind it. A hint asked for is never
        // skipped, and the same thread goes on.
        fx.start(ahead(3, &slow, true));
        fx.start(ahead(4, &easy, true));
        fx.start(ahead(5, &easy, false));
        let got = answers_until(&mut fx, 5);
        let ids: Vec<u64> = got.iter().map(|a| a.id).collect();
        assert_eq!(ids, [3, 4, 5]);
        assert!(matches!(got[0].reply, Reply::Skipped), "{:?}", got[0]);
        assert!(matches!(&got[2].reply, Reply::Hint(Ok(Some(_)))));
    }

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
