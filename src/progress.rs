//! A progress bar on stderr for long batch work: silent for the first second, and only on a
//! terminal (logs and pipes stay clean).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Progress {
    done: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts a bar for `total` items (0 when unknown) labelled `what`.
    pub fn start(what: &str, total: usize) -> Progress {
        let done = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let enabled = std::io::stderr().is_terminal();
        let thread = enabled.then(|| {
            let (done, stop, what) = (Arc::clone(&done), Arc::clone(&stop), what.to_string());
            std::thread::spawn(move || draw_loop(&what, total, &done, &stop))
        });
        Progress { done, stop, thread }
    }

    /// Counts `n` more items done.
    pub fn add(&self, n: usize) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}

fn draw_loop(what: &str, total: usize, done: &AtomicUsize, stop: &AtomicBool) {
    let start = Instant::now();
    let mut drawn = false;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100));
        if start.elapsed() < Duration::from_secs(1) {
            continue;
        }
        let n = done.load(Ordering::Relaxed);
        let rate = n as f64 / start.elapsed().as_secs_f64();
        let line = if total > 0 {
            let filled = (n * 30 / total.max(1)).min(30);
            format!(
                "\r{what} [{}{}] {n}/{total} {:.0}/s ",
                "#".repeat(filled),
                " ".repeat(30 - filled),
                rate
            )
        } else {
            format!("\r{what} {n} {rate:.0}/s ")
        };
        let _ = std::io::stderr().write_all(line.as_bytes());
        drawn = true;
    }
    if drawn {
        let _ = std::io::stderr().write_all(b"\r\x1b[K");
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
