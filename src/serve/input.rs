//! The bytes an SSH client's terminal sends, decoded into the same events crossterm gives
//! the local player: keys (with Ctrl/Alt/Shift), SGR mouse reports, and a lone Esc.
//!
//! A terminal sends Esc both as a key and as the start of a sequence (`ESC [ A` is Up), so a
//! trailing Esc or an unfinished sequence stays pending; the caller waits a little (the
//! bytes of one key arrive together) and then calls [`Decoder::flush`], which reads what
//! is pending as plain keys. Hostile input cannot grow the pending buffer past a few dozen
//! bytes: an over-long sequence is dropped.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// The longest escape sequence kept; anything longer is noise and is dropped.
const MAX_SEQUENCE: usize = 32;

/// Turns a byte stream into events, keeping an unfinished sequence between calls.
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

/// What one attempt to read an event from the front of the buffer found.
enum Parsed {
    /// An event (or nothing, for a sequence that means nothing to the player) and the
    /// number of bytes it used.
    Done(Option<Event>, usize),
    /// The bytes so far may be the start of a longer sequence.
    Incomplete,
}

impl Decoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// True when bytes wait for more input (a lone Esc, a sequence cut by the network).
    pub fn is_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Decodes `bytes` after whatever was pending.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        let mut at = 0;
        while at < self.pending.len() {
            match parse(&self.pending[at..]) {
                Parsed::Done(event, used) => {
                    events.extend(event);
                    at += used;
                }
                Parsed::Incomplete if self.pending.len() - at > MAX_SEQUENCE => {
                    // No real key is this long: skip the Esc and read on.
                    at += 1;
                }
                Parsed::Incomplete => break,
            }
        }
        self.pending.drain(..at);
        events
    }

    /// Reads the pending bytes as they are, after the caller waited for the rest of a
    /// sequence in vain: a lone Esc is the Esc key, `ESC x` is Alt+x.
    pub fn flush(&mut self) -> Vec<Event> {
        let pending = std::mem::take(&mut self.pending);
        let mut events = Vec::new();
        let mut rest: &[u8] = &pending;
        while let Some(&first) = rest.first() {
            if first == 0x1b {
                events.push(key(KeyCode::Esc, KeyModifiers::NONE));
                rest = &rest[1..];
                continue;
            }
            match parse(rest) {
                Parsed::Done(event, used) => {
                    events.extend(event);
                    rest = &rest[used..];
                }
                // An unfinished UTF-8 character: nothing more will come for it.
                Parsed::Incomplete => break,
            }
        }
        events
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(code, modifiers))
}

/// Reads one event from the front of `b` (not empty).
fn parse(b: &[u8]) -> Parsed {
    let none = KeyModifiers::NONE;
    match b[0] {
        0x1b => parse_escape(b),
        b'\r' | b'\n' => Parsed::Done(Some(key(KeyCode::Enter, none)), 1),
        b'\t' => Parsed::Done(Some(key(KeyCode::Tab, none)), 1),
        0x7f | 0x08 => Parsed::Done(Some(key(KeyCode::Backspace, none)), 1),
        0x00 => Parsed::Done(Some(key(KeyCode::Char(' '), KeyModifiers::CONTROL)), 1),
        c @ 0x01..=0x1a => {
            let letter = char::from(b'a' + c - 1);
            Parsed::Done(Some(key(KeyCode::Char(letter), KeyModifiers::CONTROL)), 1)
        }
        c @ 0x1c..=0x1f => {
            let sign = char::from(b'\\' + (c - 0x1c));
            Parsed::Done(Some(key(KeyCode::Char(sign), KeyModifiers::CONTROL)), 1)
        }
        _ => match utf8_char(b) {
            Some(Some((c, used))) => Parsed::Done(Some(key(KeyCode::Char(c), none)), used),
            Some(None) => Parsed::Done(None, 1),
            None => Parsed::Incomplete,
        },
    }
}

/// The UTF-8 character at the front: `Some(Some)` decoded, `Some(None)` an invalid byte (to
/// skip), `None` a character cut short.
fn utf8_char(b: &[u8]) -> Option<Option<(char, usize)>> {
    let len = match b[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some(None),
    };
    if b.len() < len {
        // Only continuation bytes may follow a lead byte; anything else cannot complete it.
        return if b[1..].iter().all(|&x| x & 0xc0 == 0x80) {
            None
        } else {
            Some(None)
        };
    }
    Some(
        std::str::from_utf8(&b[..len])
            .ok()
            .and_then(|s| s.chars().next())
            .map(|c| (c, len)),
    )
}

/// `ESC ...`: a CSI or SS3 sequence, Alt+key, or Esc itself when another Esc follows.
fn parse_escape(b: &[u8]) -> Parsed {
    match b.get(1) {
        None => Parsed::Incomplete,
        Some(b'[') => parse_csi(b),
        Some(b'O') => match b.get(2) {
            None => Parsed::Incomplete,
            Some(&f) => Parsed::Done(final_key(f, KeyModifiers::NONE), 3),
        },
        Some(0x1b) => Parsed::Done(Some(key(KeyCode::Esc, KeyModifiers::NONE)), 1),
        Some(_) => match parse(&b[1..]) {
            Parsed::Incomplete => Parsed::Incomplete,
            Parsed::Done(Some(Event::Key(k)), used) => {
                Parsed::Done(Some(key(k.code, k.modifiers | KeyModifiers::ALT)), used + 1)
            }
            Parsed::Done(other, used) => Parsed::Done(other, used + 1),
        },
    }
}

/// The key of an SS3 or parameterless CSI final byte.
fn final_key(f: u8, modifiers: KeyModifiers) -> Option<Event> {
    let code = match f {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'R' => KeyCode::F(3),
        b'S' => KeyCode::F(4),
        b'Z' => return Some(key(KeyCode::BackTab, modifiers | KeyModifiers::SHIFT)),
        _ => return None,
    };
    Some(key(code, modifiers))
}

/// `ESC [ params final`: cursor and editing keys, function keys, SGR and X10 mouse.
fn parse_csi(b: &[u8]) -> Parsed {
    // Parameter and intermediate bytes run to the final byte (0x40..=0x7e).
    let mut end = 2;
    loop {
        match b.get(end) {
            None => return Parsed::Incomplete,
            Some(0x40..=0x7e) => break,
            Some(0x20..=0x3f) => end += 1,
            // A byte no sequence holds: the sequence is broken; drop what came so far.
            Some(_) => return Parsed::Done(None, end),
        }
    }
    let params = &b[2..end];
    let fin = b[end];
    let used = end + 1;
    if params.is_empty() && fin == b'M' {
        // X10 mouse: three raw bytes follow.
        return match b.get(used..used + 3) {
            None => Parsed::Incomplete,
            Some(raw) => {
                let (cb, x, y) = (raw[0].wrapping_sub(32), raw[1], raw[2]);
                let event = mouse(
                    u32::from(cb),
                    u32::from(x.saturating_sub(32)),
                    u32::from(y.saturating_sub(32)),
                    true,
                );
                Parsed::Done(event, used + 3)
            }
        };
    }
    if let Some(sgr) = params.strip_prefix(b"<") {
        let n = numbers(sgr);
        let event = match (fin, n.as_slice()) {
            (b'M' | b'm', [cb, x, y]) => mouse(*cb, *x, *y, fin == b'M'),
            _ => None,
        };
        return Parsed::Done(event, used);
    }
    let n = numbers(params);
    let modifiers = n.get(1).map_or(KeyModifiers::NONE, |&m| modifier_bits(m));
    let event = if fin == b'~' {
        let code = match n.first().copied().unwrap_or(0) {
            1 | 7 => Some(KeyCode::Home),
            2 => Some(KeyCode::Insert),
            3 => Some(KeyCode::Delete),
            4 | 8 => Some(KeyCode::End),
            5 => Some(KeyCode::PageUp),
            6 => Some(KeyCode::PageDown),
            k @ 11..=15 => Some(KeyCode::F((k - 10) as u8)),
            k @ 17..=21 => Some(KeyCode::F((k - 11) as u8)),
            k @ 23..=24 => Some(KeyCode::F((k - 12) as u8)),
            _ => None,
        };
        code.map(|c| key(c, modifiers))
    } else {
        final_key(fin, modifiers)
    };
    Parsed::Done(event, used)
}

/// `1;5` style numbers; a missing or over-long number reads as 0.
fn numbers(params: &[u8]) -> Vec<u32> {
    params
        .split(|&c| c == b';')
        .map(|p| {
            std::str::from_utf8(p)
                .ok()
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(0)
        })
        .collect()
}

/// xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4).
fn modifier_bits(m: u32) -> KeyModifiers {
    let bits = m.saturating_sub(1);
    let mut out = KeyModifiers::NONE;
    if bits & 1 != 0 {
        out |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        out |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        out |= KeyModifiers::CONTROL;
    }
    out
}

/// A mouse report (button code, 1-based column and row) as crossterm's event.
fn mouse(cb: u32, x: u32, y: u32, press: bool) -> Option<Event> {
    if x == 0 || y == 0 {
        return None;
    }
    let column = u16::try_from(x - 1).unwrap_or(u16::MAX);
    let row = u16::try_from(y - 1).unwrap_or(u16::MAX);
    // Shift, Alt and Ctrl sit in bits 2-4, in the order of the keys' modifier parameter.
    let modifiers = modifier_bits(((cb >> 2) & 7) + 1);
    let button = match cb & 3 {
        0 => MouseButton::Left,
        1 => MouseButton::Middle,
        _ => MouseButton::Right,
    };
    let kind = if cb & 64 != 0 {
        match cb & 3 {
            0 => MouseEventKind::ScrollUp,
            1 => MouseEventKind::ScrollDown,
            2 => MouseEventKind::ScrollLeft,
            _ => MouseEventKind::ScrollRight,
        }
    } else if cb & 32 != 0 {
        MouseEventKind::Drag(button)
    } else if !press || cb & 3 == 3 {
        // SGR says release with `m`; X10 with button 3.
        MouseEventKind::Up(button)
    } else {
        MouseEventKind::Down(button)
    };
    Some(Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn keys(events: &[Event]) -> Vec<(KeyCode, KeyModifiers)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Key(k) => Some((k.code, k.modifiers)),
                _ => None,
            })
            .collect()
    }

    const NONE: KeyModifiers = KeyModifiers::NONE;

    #[test]
    fn plain_typing_digits_letters_and_controls() {
        let mut d = Decoder::new();
        let got = d.feed(b"5a\r\x7f\t\x03");
        assert_eq!(
            keys(&got),
            vec![
                (KeyCode::Char('5'), NONE),
                (KeyCode::Char('a'), NONE),
                (KeyCode::Enter, NONE),
                (KeyCode::Backspace, NONE),
                (KeyCode::Tab, NONE),
                (KeyCode::Char('c'), KeyModifiers::CONTROL),
            ]
        );
        assert!(!d.is_pending());
    }

    #[test]
    fn arrows_in_both_cursor_modes_and_with_modifiers() {
        let mut d = Decoder::new();
        let got = d.feed(b"\x1b[A\x1bOB\x1b[1;5C\x1b[1;2D\x1b[Z");
        assert_eq!(
            keys(&got),
            vec![
                (KeyCode::Up, NONE),
                (KeyCode::Down, NONE),
                (KeyCode::Right, KeyModifiers::CONTROL),
                (KeyCode::Left, KeyModifiers::SHIFT),
                (KeyCode::BackTab, KeyModifiers::SHIFT),
            ]
        );
    }

    #[test]
    fn editing_and_function_keys() {
        let mut d = Decoder::new();
        let got = d.feed(b"\x1b[3~\x1b[5~\x1b[6~\x1b[1~\x1b[4~\x1b[H\x1b[F\x1bOP\x1b[15~\x1b[24~");
        assert_eq!(
            keys(&got).into_iter().map(|k| k.0).collect::<Vec<_>>(),
            vec![
                KeyCode::Delete,
                KeyCode::PageUp,
                KeyCode::PageDown,
                KeyCode::Home,
                KeyCode::End,
                KeyCode::Home,
                KeyCode::End,
                KeyCode::F(1),
                KeyCode::F(5),
                KeyCode::F(12),
            ]
        );
    }

    #[test]
    fn a_lone_esc_waits_and_is_the_esc_key_after_the_pause() {
        let mut d = Decoder::new();
        assert!(d.feed(b"\x1b").is_empty());
        assert!(d.is_pending());
        assert_eq!(keys(&d.flush()), vec![(KeyCode::Esc, NONE)]);
        assert!(!d.is_pending());
        // Two presses in one packet are two keys, the second pending until the pause.
        assert_eq!(keys(&d.feed(b"\x1b\x1b")), vec![(KeyCode::Esc, NONE)]);
        assert_eq!(keys(&d.flush()), vec![(KeyCode::Esc, NONE)]);
    }

    #[test]
    fn a_sequence_split_across_packets_is_one_key() {
        let mut d = Decoder::new();
        assert!(d.feed(b"\x1b[").is_empty());
        assert!(d.feed(b"1;5").is_empty());
        assert_eq!(
            keys(&d.feed(b"A")),
            vec![(KeyCode::Up, KeyModifiers::CONTROL)]
        );
        // A character split between packets too.
        assert!(d.feed(&"é".as_bytes()[..1]).is_empty());
        assert_eq!(
            keys(&d.feed(&"é".as_bytes()[1..])),
            vec![(KeyCode::Char('é'), NONE)]
        );
    }

    #[test]
    fn esc_then_a_letter_is_alt_and_a_flushed_partial_sequence_reads_as_typed() {
        let mut d = Decoder::new();
        assert_eq!(
            keys(&d.feed(b"\x1bx")),
            vec![(KeyCode::Char('x'), KeyModifiers::ALT)]
        );
        assert!(d.feed(b"\x1b[").is_empty());
        assert_eq!(
            keys(&d.flush()),
            vec![(KeyCode::Esc, NONE), (KeyCode::Char('['), NONE)]
        );
    }

    #[test]
    fn sgr_mouse_clicks_releases_and_wheel() {
        let mut d = Decoder::new();
        let got = d.feed(b"\x1b[<0;10;5M\x1b[<0;10;5m\x1b[<64;3;3M\x1b[<65;3;3M");
        let kinds: Vec<_> = got
            .iter()
            .map(|e| match e {
                Event::Mouse(m) => (m.kind, m.column, m.row),
                other => panic!("not a mouse event: {other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (MouseEventKind::Down(MouseButton::Left), 9, 4),
                (MouseEventKind::Up(MouseButton::Left), 9, 4),
                (MouseEventKind::ScrollUp, 2, 2),
                (MouseEventKind::ScrollDown, 2, 2),
            ]
        );
    }

    #[test]
    fn x10_mouse_click() {
        let mut d = Decoder::new();
        let got = d.feed(&[0x1b, b'[', b'M', 32, 32 + 7, 32 + 2]);
        match got.as_slice() {
            [Event::Mouse(m)] => {
                assert_eq!(m.kind, MouseEventKind::Down(MouseButton::Left));
                assert_eq!((m.column, m.row), (6, 1));
            }
            other => panic!("expected one click, got {other:?}"),
        }
    }

    #[test]
    fn noise_is_dropped_and_does_not_swallow_the_keys_after_it() {
        let mut d = Decoder::new();
        // An unknown sequence, an invalid byte, an endless parameter run.
        let mut bytes = b"\x1b[?1049h\xff7".to_vec();
        bytes.extend(b"\x1b[");
        bytes.extend(std::iter::repeat_n(b'1', 200));
        bytes.extend(b"8");
        let got = keys(&d.feed(&bytes));
        assert_eq!(got.first(), Some(&(KeyCode::Char('7'), NONE)));
        assert_eq!(got.last(), Some(&(KeyCode::Char('8'), NONE)));
        assert!(!d.is_pending());
    }

    proptest! {
        #[test]
        fn any_bytes_in_any_split_decode_without_panic_and_bounded(
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
            cut in 0usize..300,
        ) {
            let mut d = Decoder::new();
            let cut = cut.min(bytes.len());
            d.feed(&bytes[..cut]);
            prop_assert!(d.pending.len() <= MAX_SEQUENCE + 4);
            d.feed(&bytes[cut..]);
            prop_assert!(d.pending.len() <= MAX_SEQUENCE + 4);
            d.flush();
            prop_assert!(!d.is_pending());
        }

        #[test]
        fn printable_text_comes_back_as_the_same_characters(text in "[ -~é€]{0,40}") {
            let mut d = Decoder::new();
            let got: String = keys(&d.feed(text.as_bytes()))
                .into_iter()
                .filter_map(|(c, _)| match c { KeyCode::Char(c) => Some(c), _ => None })
                .collect();
            prop_assert_eq!(got, text);
        }
    }
}
