//! Every session's slow work (hints, the finish's solution path, trainer grading, "why?")
//! on one bounded pool: a fixed number of worker threads and a queue limit, so that many
//! players pressing `H` at once cost the host a known share of its cores, and a full queue
//! answers at once that hints are busy. Each hint has a time limit, enforced inside the
//! forcing searches (their deadline), so one hard position holds a worker for a bounded
//! time.

use super::config::HintLimits;
use crate::game::hints::HintWorker;
use crate::tui::effects::{self, Answer, Effect, Job, Reply, Runner};
use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What a player is told when the queue is full.
pub const BUSY: &str = "hints are busy, try again";

/// A solution path is many hints: it gets this many hints' time.
const PATH_FACTOR: u32 = 10;

struct Task {
    effect: Effect,
    answers: Sender<Answer>,
    /// The session's solver memory (what earlier hints of its game proved).
    memory: Arc<Mutex<HintWorker>>,
}

/// The shared pool.
pub struct HintPool {
    queue: Mutex<VecDeque<Box<Task>>>,
    ready: Condvar,
    limit: usize,
    time_limit: Duration,
}

impl HintPool {
    /// Starts the pool's workers; they live as long as the process.
    pub fn start(limits: &HintLimits) -> std::io::Result<Arc<HintPool>> {
        let pool = Arc::new(HintPool {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            limit: limits.queue,
            time_limit: Duration::from_millis(limits.time_limit_ms.max(1)),
        });
        let workers = match limits.workers {
            0 => std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1)),
            n => n,
        };
        for i in 0..workers {
            let pool = Arc::clone(&pool);
            std::thread::Builder::new()
                .name(format!("termdoku-hints-{i}"))
                .spawn(move || pool.work())?;
        }
        Ok(pool)
    }

    /// A runner for one session's effects.
    pub fn runner(self: &Arc<HintPool>) -> PoolRunner {
        PoolRunner {
            pool: Arc::clone(self),
            memory: Arc::default(),
        }
    }

    /// Queues a task; a full queue gives it back.
    fn submit(&self, task: Box<Task>) -> Result<(), Box<Task>> {
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if queue.len() >= self.limit {
            return Err(task);
        }
        queue.push_back(task);
        drop(queue);
        self.ready.notify_one();
        Ok(())
    }

    fn work(&self) {
        loop {
            let task = {
                let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some(t) = queue.pop_front() {
                        break t;
                    }
                    queue = self.ready.wait(queue).unwrap_or_else(|e| e.into_inner());
                }
            };
            self.carry_out(*task);
        }
    }

    fn carry_out(&self, task: Task) {
        let Task {
            effect,
            answers,
            memory,
        } = task;
        let id = effect.id;
        let limit = match effect.job {
            Job::Path { .. } => self.time_limit * PATH_FACTOR,
            _ => self.time_limit,
        };
        let hint = matches!(effect.job, Job::Hint { .. } | Job::Path { .. });
        let job = effect.job.clone();
        // One job of a session at a time holds its memory; another (rare: the player asked
        // again before the answer) searches with a fresh one rather than wait.
        let mut fresh = HintWorker::default();
        let mut guard = memory.try_lock().ok();
        let worker = guard.as_deref_mut().unwrap_or(&mut fresh);
        let deadline = Instant::now() + limit;
        worker.set_deadline(Some(deadline));
        let mut reply = effects::answer(worker, effect, &answers);
        worker.set_deadline(None);
        if reply.failed() {
            // A job that panicked may have left the memory half-updated.
            *worker = HintWorker::default();
        } else if hint && Instant::now() >= deadline {
            // The search gave up part way: its answer may not be the right next step.
            tracing::info!(
                limit_ms = limit.as_millis() as u64,
                "hint over its time limit"
            );
            reply = Reply::failure(
                &job,
                format!(
                    "no hint within {:.1} s; try again after another move",
                    limit.as_secs_f64()
                ),
            );
        }
        // The player may have gone: a closed channel is fine.
        let _ = answers.send(Answer { id, reply });
    }
}

/// One session's side of the pool.
pub struct PoolRunner {
    pool: Arc<HintPool>,
    memory: Arc<Mutex<HintWorker>>,
}

impl Runner for PoolRunner {
    fn run(&mut self, effect: Effect, answers: Sender<Answer>) {
        let task = Box::new(Task {
            effect,
            answers,
            memory: Arc::clone(&self.memory),
        });
        if let Err(back) = self.pool.submit(task) {
            tracing::info!("hint refused: queue full");
            let reply = Reply::failure(&back.effect.job, BUSY.into());
            let _ = back.answers.send(Answer {
                id: back.effect.id,
                reply,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;
    use std::sync::mpsc::channel;

    fn hint_job(id: u64) -> Effect {
        let puzzle = builtin::puzzle(Variant::Standard);
        Effect {
            id,
            job: Job::Hint {
                grid: crate::puzzle::Grid::from_puzzle(&puzzle),
                solution: None,
                ahead: false,
            },
        }
    }

    #[test]
    fn a_full_queue_answers_busy_at_once() {
        // A pool with no workers: nothing leaves the queue.
        let pool_full = Arc::new(HintPool {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            limit: 1,
            time_limit: Duration::from_secs(1),
        });
        let mut runner = pool_full.runner();
        let (tx, rx) = channel();
        runner.run(hint_job(1), tx.clone());
        runner.run(hint_job(2), tx);
        let answer = rx.recv_timeout(Duration::from_secs(1)).unwrap();
        assert_eq!(answer.id, 2);
        assert!(matches!(answer.reply, Reply::Hint(Err(ref e)) if e == BUSY));
    }

    #[test]
    fn a_hint_is_answered_by_the_pool() {
        let pool = HintPool::start(&HintLimits {
            workers: 1,
            queue: 4,
            time_limit_ms: 10_000,
        })
        .unwrap();
        let mut runner = pool.runner();
        let (tx, rx) = channel();
        runner.run(hint_job(7), tx);
        let answer = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(answer.id, 7);
        assert!(matches!(answer.reply, Reply::Hint(Ok(Some(_)))));
    }
}

#[cfg(test)]
mod deadline_tests {
    use crate::solver::logic::{apply, next_step, SolverMemory};

    /// On a position whose next step is a forcing net, a search past its deadline gives
    /// up the forcing searches: it answers something else (here the guess the solution
    /// allows), which the pool then replaces by "try again".
    #[test]
    fn a_deadline_stops_the_forcing_search() {
        use crate::puzzle::{Grid, Variant};
        let line = "......3......9.7.............................6.5......8......";
        let p = crate::format::parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        let mut g = Grid::from_puzzle(&p);
        let mut memory = SolverMemory::new();
        let forcing = |id: &str| id.contains("forcing") || id.contains("net");
        for _ in 0..12 {
            let s = next_step(&g, Some(&sol), &mut memory).unwrap();
            if forcing(s.technique.id) {
                let mut late = SolverMemory::new();
                late.set_deadline(Some(std::time::Instant::now()));
                let cut = next_step(&g, Some(&sol), &mut late);
                assert!(
                    cut.as_ref().is_none_or(|c| !forcing(c.technique.id)),
                    "{:?}",
                    cut.map(|c| c.technique.id)
                );
                return;
            }
            apply(&mut g, &s);
        }
        panic!("no forcing step within 12 steps");
    }
}
