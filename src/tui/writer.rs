//! The background writer: saves and stats updates run on a thread of their own, so the
//! fsyncs of an atomic save are not part of a keypress. A newer save of a file replaces one
//! still waiting (keystrokes coalesce); other jobs (stats updates) run each in turn. The
//! thread does file I/O only, never the terminal.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// One piece of file work; its error is kept for the player to show.
pub type Work = Box<dyn FnOnce() -> std::io::Result<()> + Send>;

struct Job {
    seq: u64,
    /// A job for the same file replaces this one while it waits (a save); `None` never
    /// does (a stats update must not be lost).
    file: Option<PathBuf>,
    work: Work,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// The job being run, by sequence number.
    running: Option<u64>,
    next_seq: u64,
    /// The last failure of each file, cleared by its next success.
    failures: Vec<(Option<PathBuf>, String)>,
    closed: bool,
}

impl State {
    /// True when every job up to `seq` has run (or was replaced by a later one that has).
    fn done(&self, seq: u64) -> bool {
        self.running.is_none_or(|r| r > seq) && self.queue.iter().all(|j| j.seq > seq)
    }
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A job that panicked leaves the state consistent (it is updated around the job).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub struct Writer {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer::new()
    }
}

impl Writer {
    pub fn new() -> Writer {
        let shared = Arc::new(Shared::default());
        let inner = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("termdoku-writer".into())
            .spawn(move || run(&inner))
            .ok();
        Writer { shared, thread }
    }

    /// Queues `work`; returns its sequence number for [`Writer::wait`].
    pub fn submit(&self, file: Option<PathBuf>, work: Work) -> u64 {
        let mut st = self.shared.lock();
        st.next_seq += 1;
        let seq = st.next_seq;
        if let Some(f) = &file {
            st.queue.retain(|j| j.file.as_ref() != Some(f));
        }
        st.queue.push_back(Job { seq, file, work });
        drop(st);
        if self.thread.is_none() {
            // No thread could be started: do the work here rather than never.
            self.run_here();
        }
        self.shared.changed.notify_all();
        seq
    }

    fn run_here(&self) {
        loop {
            let Some(job) = self.shared.lock().queue.pop_front() else {
                return;
            };
            let result = (job.work)();
            record(&mut self.shared.lock(), job.file, result);
        }
    }

    /// Waits up to `timeout` for every job up to `seq`; true when they have run.
    pub fn wait(&self, seq: u64, timeout: Duration) -> bool {
        let st = self.shared.lock();
        let (st, _) = self
            .shared
            .changed
            .wait_timeout_while(st, timeout, |s| !s.done(seq))
            .unwrap_or_else(|e| e.into_inner());
        st.done(seq)
    }

    /// The last failure writing `file`, while it keeps failing.
    pub fn failure(&self, file: Option<&PathBuf>) -> Option<String> {
        let st = self.shared.lock();
        st.failures
            .iter()
            .find(|(f, _)| f.as_ref() == file)
            .map(|(_, e)| e.clone())
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.changed.notify_all();
        // The thread finishes what is queued; a stuck disk must not hold the exit, so it
        // is not joined.
    }
}

fn record(st: &mut State, file: Option<PathBuf>, result: std::io::Result<()>) {
    st.failures.retain(|(f, _)| *f != file);
    if let Err(e) = result {
        st.failures.push((file, e.to_string()));
    }
}

fn run(shared: &Shared) {
    loop {
        let mut st = shared.lock();
        let job = loop {
            if let Some(j) = st.queue.pop_front() {
                break j;
            }
            if st.closed {
                return;
            }
            st = shared.changed.wait(st).unwrap_or_else(|e| e.into_inner());
        };
        st.running = Some(job.seq);
        drop(st);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.work))
            .unwrap_or_else(|_| Err(std::io::Error::other("the save failed (internal error)")));
        let mut st = shared.lock();
        st.running = None;
        record(&mut st, job.file, result);
        drop(st);
        shared.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_waiting_save_is_replaced_and_failures_are_kept_until_a_success() {
        let w = Writer::new();
        let gate = Arc::new(Mutex::new(()));
        let hold = gate.lock().unwrap();
        let runs = Arc::new(AtomicUsize::new(0));
        let file = Some(PathBuf::from("game.json"));
        // The first job blocks the thread until `hold` is dropped; the next two wait, and
        // the third replaces the second.
        let g = Arc::clone(&gate);
        w.submit(
            None,
            Box::new(move || {
                drop(g.lock());
                Ok(())
            }),
        );
        for fail in [false, true] {
            let r = Arc::clone(&runs);
            w.submit(
                file.clone(),
                Box::new(move || {
                    r.fetch_add(1, Ordering::SeqCst);
                    if fail {
                        Err(std::io::Error::other("disk full"))
                    } else {
                        Ok(())
                    }
                }),
            );
        }
        drop(hold);
        let last = w.submit(None, Box::new(|| Ok(())));
        assert!(w.wait(last, Duration::from_secs(30)));
        assert_eq!(
            runs.load(Ordering::SeqCst),
            1,
            "the waiting save was replaced"
        );
        assert_eq!(w.failure(file.as_ref()).as_deref(), Some("disk full"));
        let ok = w.submit(file.clone(), Box::new(|| Ok(())));
        assert!(w.wait(ok, Duration::from_secs(30)));
        assert_eq!(w.failure(file.as_ref()), None);
    }
}
