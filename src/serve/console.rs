//! The remote terminal's two ends as the player's loop sees them: [`RemoteConsole`] turns
//! what the SSH connection received into crossterm events, [`ChannelOut`] carries what the
//! player draws back to the connection.

use super::input::Decoder;
use crate::tui::{Console, Input};
use ratatui::crossterm::event::Event;
use ratatui::layout::Size;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// How long an unfinished escape sequence waits for its next byte before it is read as
/// keys (a lone Esc): the bytes of one key leave the client together, so this only has
/// to cover the network's jitter.
const ESC_WAIT: Duration = Duration::from_millis(60);

/// The largest window accepted: a hostile client must not make the server allocate a
/// screen buffer of 65535x65535 cells.
pub const MAX_WIDTH: u16 = 500;
pub const MAX_HEIGHT: u16 = 300;

/// A window size from the client, clamped to what the server accepts (0 is "unknown").
pub fn clamp_size(cols: u32, rows: u32) -> Size {
    let pick = |v: u32, default: u16, max: u16| match v {
        0 => default,
        v => v.min(u32::from(max)) as u16,
    };
    Size {
        width: pick(cols, 80, MAX_WIDTH),
        height: pick(rows, 24, MAX_HEIGHT),
    }
}

/// What the connection hands the player's thread.
#[derive(Debug)]
pub enum Incoming {
    /// Bytes the client's terminal sent.
    Bytes(Vec<u8>),
    /// The client's window changed size.
    Resize(Size),
}

/// The player's events from the connection: the sender is dropped when the client goes.
pub struct RemoteConsole {
    from_client: Receiver<Incoming>,
    decoder: Decoder,
    events: VecDeque<Event>,
    size: Size,
    /// When the decoder started to hold an unfinished sequence.
    pending_since: Option<Instant>,
    gone: bool,
}

impl RemoteConsole {
    pub fn new(from_client: Receiver<Incoming>, size: Size) -> RemoteConsole {
        RemoteConsole {
            from_client,
            decoder: Decoder::new(),
            events: VecDeque::new(),
            size,
            pending_since: None,
            gone: false,
        }
    }

    fn take(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Bytes(bytes) => {
                self.events.extend(self.decoder.feed(&bytes));
                if !self.decoder.is_pending() {
                    self.pending_since = None;
                } else if self.pending_since.is_none() {
                    self.pending_since = Some(Instant::now());
                }
            }
            Incoming::Resize(size) => {
                self.size = size;
                self.events
                    .push_back(Event::Resize(size.width, size.height));
            }
        }
    }

    /// Takes everything already received, without waiting.
    fn drain(&mut self) {
        loop {
            match self.from_client.try_recv() {
                Ok(incoming) => self.take(incoming),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.gone = true;
                    break;
                }
            }
        }
    }

    /// Reads an unfinished sequence as keys once it waited long enough for the rest.
    fn flush_if_stale(&mut self) {
        if self.pending_since.is_some_and(|t| t.elapsed() >= ESC_WAIT) {
            self.events.extend(self.decoder.flush());
            self.pending_since = None;
        }
    }

    fn state(&self) -> Input {
        if !self.events.is_empty() {
            Input::Ready
        } else if self.gone {
            Input::HangUp
        } else {
            Input::Idle
        }
    }
}

impl Console for RemoteConsole {
    fn wait(&mut self, ms: i32) -> Input {
        self.drain();
        self.flush_if_stale();
        if !self.events.is_empty() || self.gone {
            return self.state();
        }
        let mut limit = Duration::from_millis(ms.max(0) as u64);
        if let Some(t) = self.pending_since {
            limit = limit.min(ESC_WAIT.saturating_sub(t.elapsed()));
        }
        match self.from_client.recv_timeout(limit) {
            Ok(incoming) => {
                self.take(incoming);
                self.drain();
            }
            Err(RecvTimeoutError::Timeout) => self.flush_if_stale(),
            Err(RecvTimeoutError::Disconnected) => self.gone = true,
        }
        self.state()
    }

    fn next_event(&mut self) -> std::io::Result<Option<Event>> {
        if self.events.is_empty() {
            self.drain();
        }
        Ok(self.events.pop_front())
    }

    fn size(&mut self) -> std::io::Result<Size> {
        Ok(self.size)
    }
}

/// What the player's thread sends the connection; the channel closes when the sender is
/// dropped (the session is over).
#[derive(Debug)]
pub enum Outgoing {
    Bytes(Vec<u8>),
}

/// The player's screen output: buffered until a flush (ratatui flushes once per frame),
/// then handed to the connection. A full queue blocks this session's thread only, so a
/// client that stops reading slows nobody else.
pub struct ChannelOut {
    buffer: Vec<u8>,
    to_client: tokio::sync::mpsc::Sender<Outgoing>,
}

impl ChannelOut {
    pub fn new(to_client: tokio::sync::mpsc::Sender<Outgoing>) -> ChannelOut {
        ChannelOut {
            buffer: Vec::new(),
            to_client,
        }
    }
}

impl Drop for ChannelOut {
    fn drop(&mut self) {
        let _ = std::io::Write::flush(self);
    }
}

impl std::io::Write for ChannelOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.buffer);
        self.to_client
            .blocking_send(Outgoing::Bytes(bytes))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client gone"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use std::sync::mpsc::channel;

    fn key(c: KeyCode) -> Event {
        Event::Key(KeyEvent::new(c, KeyModifiers::NONE))
    }

    #[test]
    fn a_lone_esc_arrives_after_the_pause_and_a_split_arrow_stays_whole() {
        let (tx, rx) = channel();
        let mut console = RemoteConsole::new(rx, Size::new(80, 24));
        tx.send(Incoming::Bytes(b"\x1b[".to_vec())).unwrap();
        tx.send(Incoming::Bytes(b"A5".to_vec())).unwrap();
        assert_eq!(console.wait(0), Input::Ready);
        assert_eq!(console.next_event().unwrap(), Some(key(KeyCode::Up)));
        assert_eq!(console.next_event().unwrap(), Some(key(KeyCode::Char('5'))));
        tx.send(Incoming::Bytes(b"\x1b".to_vec())).unwrap();
        // Waits for the rest of a sequence, then gives the Esc key.
        let mut got = None;
        for _ in 0..20 {
            if console.wait(50) == Input::Ready {
                got = console.next_event().unwrap();
                break;
            }
        }
        assert_eq!(got, Some(key(KeyCode::Esc)));
    }

    #[test]
    fn a_resize_is_an_event_and_the_new_size_and_a_closed_client_hangs_up() {
        let (tx, rx) = channel();
        let mut console = RemoteConsole::new(rx, Size::new(80, 24));
        tx.send(Incoming::Resize(clamp_size(1, 1))).unwrap();
        assert_eq!(console.wait(0), Input::Ready);
        assert_eq!(console.next_event().unwrap(), Some(Event::Resize(1, 1)));
        assert_eq!(console.size().unwrap(), Size::new(1, 1));
        drop(tx);
        assert_eq!(console.wait(10), Input::HangUp);
    }

    #[test]
    fn window_sizes_are_clamped_and_zero_means_the_usual_size() {
        assert_eq!(clamp_size(0, 0), Size::new(80, 24));
        assert_eq!(clamp_size(70000, 90000), Size::new(MAX_WIDTH, MAX_HEIGHT));
        assert_eq!(clamp_size(1, 1), Size::new(1, 1));
    }
}
