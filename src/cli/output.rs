//! Standard output for the batch commands: the first failed write stops the command. A
//! closed pipe (`termdoku rate FILE | head -1`) ends it quietly with the status so far; any
//! other write error is reported and exits 2.

use super::EXIT_USAGE;
use std::io::{BufWriter, ErrorKind, StdoutLock, Write};
use std::ops::ControlFlow;

pub struct Output {
    writer: BufWriter<StdoutLock<'static>>,
    /// Flush after every line: for slow commands, so a reader sees each result at once.
    per_line: bool,
    failed: Option<std::io::Error>,
}

impl Output {
    /// Buffered output for fast batches (`solve`).
    pub fn buffered() -> Output {
        Output {
            writer: BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            per_line: false,
            failed: None,
        }
    }

    /// Output flushed line by line (`rate`, `generate`, `explain`).
    pub fn per_line() -> Output {
        Output {
            per_line: true,
            ..Output::buffered()
        }
    }

    /// Writes `text` and a line end; `Break` once output has failed (stop working).
    pub fn line(&mut self, text: impl std::fmt::Display) -> ControlFlow<()> {
        self.text(format_args!("{text}\n"))
    }

    /// Writes `text` as it is (it carries its own line ends).
    pub fn text(&mut self, text: std::fmt::Arguments) -> ControlFlow<()> {
        if self.failed.is_some() {
            return ControlFlow::Break(());
        }
        let mut result = self.writer.write_fmt(text);
        if result.is_ok() && self.per_line {
            result = self.writer.flush();
        }
        match result {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.failed = Some(e);
                ControlFlow::Break(())
            }
        }
    }

    /// Whether a write has failed (the command should stop).
    pub fn closed(&self) -> bool {
        self.failed.is_some()
    }

    /// Flushes and gives the exit status: `status` when everything was written or the
    /// reader closed the pipe, 2 with a message for any other write error.
    pub fn finish(mut self, status: i32) -> i32 {
        if self.failed.is_none() {
            if let Err(e) = self.writer.flush() {
                self.failed = Some(e);
            }
        }
        match self.failed {
            None => status,
            Some(e) if e.kind() == ErrorKind::BrokenPipe => status,
            Some(e) => {
                eprintln!("termdoku: writing standard output: {e}");
                EXIT_USAGE
            }
        }
    }
}
