//! A progress bar on stderr for long batch work (`indicatif`): only on a terminal, so logs
//! and pipes stay clean, with the rate and, when the total is known, the time left.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::time::Duration;

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// Starts a bar for `total` items (0 when unknown) labelled `what`.
    pub fn start(what: &str, total: usize) -> Progress {
        let bar = if total > 0 {
            ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        };
        // A template that fails to parse only loses the styling, never the work.
        let template = if total > 0 {
            "{msg} [{bar:30}] {pos}/{len} {rate} ETA {eta}"
        } else {
            "{msg} {pos} {rate} {elapsed}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            // indicatif's own `per_sec` prints four decimals ("26.5348/s").
            let style = style.with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let r = s.per_sec();
                let _ = if r >= 10.0 {
                    write!(w, "{r:.0}/s")
                } else {
                    write!(w, "{r:.1}/s")
                };
            });
            bar.set_style(style.progress_chars("#>-"));
        }
        bar.set_message(what.to_string());
        // Redraws on a timer, so a slow item still shows the clock moving.
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar }
    }

    /// Counts `n` more items done.
    pub fn add(&self, n: usize) {
        self.bar.inc(n as u64);
    }

    /// Sets how many items are done and the label beside them.
    pub fn set(&self, done: u64, what: String) {
        self.bar.set_position(done);
        self.bar.set_message(what);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // The results are on stdout; the bar leaves nothing behind on stderr.
        self.bar.finish_and_clear();
    }
}
