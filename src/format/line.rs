//! The line format: one puzzle per line, row-major, a digit for a given and `.` or `0` for
//! an empty cell, optionally followed by whitespace or `#` and a comment.

use super::{describe_at, ParseError, Pos};
use crate::geometry::{char_digit, digit_char};
use crate::puzzle::{Geometries, Layout, Puzzle, Variant};
use std::io::BufRead;

/// Longest line kept in memory; longer lines are measured, not stored, so a huge line costs
/// neither memory nor time beyond one pass.
const MAX_KEPT: usize = 4096;

fn expected_lengths(variant: Variant) -> &'static [usize] {
    match variant {
        Variant::Honeycomb => &[61],
        Variant::Standard | Variant::Diagonal => &[81, 16, 36, 256],
        // Jigsaw and killer need regions or cages: only plain grids fit on a line.
        Variant::Jigsaw | Variant::Killer => &[],
    }
}

fn size_for(variant: Variant, cells: usize) -> usize {
    match (variant, cells) {
        (Variant::Honeycomb, _) => 9,
        (_, 16) => 4,
        (_, 36) => 6,
        (_, 256) => 16,
        _ => 9,
    }
}

fn describe_lengths(variant: Variant) -> String {
    match variant {
        Variant::Jigsaw | Variant::Killer => {
            format!("a TOML file: {variant} needs more than a line")
        }
        Variant::Honeycomb => "61 for honeycomb".into(),
        _ => format!("81 for {variant} 9x9 (or 16, 36, 256 for 4x4, 6x6, 16x16)"),
    }
}

/// Parses one line (without its line end). `Ok(None)` for a blank or comment-only line.
pub fn parse_line(
    bytes: &[u8],
    variant: Variant,
    file: &str,
    line: usize,
) -> Result<Option<Puzzle>, ParseError> {
    let full_len = bytes.len();
    let mut geometries = Geometries::default();
    parse_line_measured(bytes, full_len, 0, variant, file, line, &mut geometries)
}

/// `bytes` may be the first `MAX_KEPT` bytes of a line whose real length is `full_len`,
/// after `lead` bytes of leading whitespace that were not kept (columns count them).
fn parse_line_measured(
    bytes: &[u8],
    full_len: usize,
    lead: usize,
    variant: Variant,
    file: &str,
    line: usize,
    geometries: &mut Geometries,
) -> Result<Option<Puzzle>, ParseError> {
    let pos = |col: usize| Pos {
        file: file.to_string(),
        line,
        col: lead.saturating_add(col),
    };
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    if start == bytes.len() || bytes[start] == b'#' {
        return Ok(None);
    }
    let lengths = expected_lengths(variant);
    if lengths.is_empty() {
        return Err(ParseError::invalid(
            pos(start + 1),
            describe_lengths(variant),
        ));
    }
    let max_len = *lengths.iter().max().unwrap_or(&81);
    let max_digit = if lengths.contains(&256) { 16 } else { 9 };
    // The usual line, digits and dots of an expected length up to its end, a space or a
    // `#`, is read in one pass without branches per byte; anything else (letters of a
    // 16x16 grid, a stray byte, a wrong length) takes the loop below, which reads the same
    // bytes to the same cells or reports the error.
    let body = &bytes[start..];
    let plain = lengths.iter().copied().find(|&n| {
        body.len() >= n
            && body
                .get(n)
                .is_none_or(|&b| b.is_ascii_whitespace() || b == b'#')
            && body[..n]
                .iter()
                .fold(true, |ok, &b| ok & (b == b'.' || b.is_ascii_digit()))
    });
    let mut cells;
    let mut end = bytes.len();
    if let Some(n) = plain {
        cells = body[..n].iter().map(|&b| b.saturating_sub(b'0')).collect();
        end = start + n;
    } else {
        cells = Vec::with_capacity(81);
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            if b.is_ascii_whitespace() || b == b'#' {
                end = i;
                break;
            }
            let digit = match b {
                b'.' | b'0' => 0,
                _ => match char_digit(b as char) {
                    Some(d) if d <= max_digit => d,
                    _ => {
                        return Err(ParseError::Unexpected {
                            pos: pos(i + 1),
                            found: describe_at(bytes, i),
                            // Letters only where the line is long enough to be 16x16.
                            expected: if max_digit > 9
                                && body
                                    .iter()
                                    .take_while(|&&b| !b.is_ascii_whitespace() && b != b'#')
                                    .count()
                                    >= 256
                            {
                                "a digit, a letter A-G (16x16), '.' or '0'"
                            } else {
                                "a digit, '.' or '0'"
                            }
                            .into(),
                        });
                    }
                },
            };
            cells.push(digit);
        }
    }
    let found = if end == bytes.len() && full_len > MAX_KEPT {
        full_len - start
    } else {
        cells.len()
    };
    if !lengths.contains(&found) || found > max_len {
        return Err(ParseError::WrongLength {
            pos: pos(start + 1),
            found,
            expected: describe_lengths(variant),
        });
    }
    let size = size_for(variant, found);
    let max = if variant == Variant::Honeycomb {
        9
    } else {
        size as u8
    };
    // The largest value first (no early exit, so it vectorizes), the position only on error.
    let largest = cells.iter().fold(0, |m, &d| m.max(d));
    if let Some(i) = (largest > max)
        .then(|| cells.iter().position(|&d| d > max))
        .flatten()
    {
        return Err(ParseError::Unexpected {
            pos: pos(start + i + 1),
            found: format!("'{}'", digit_char(cells[i])),
            expected: format!(
                "a digit 1-{} for a {size}x{size} grid, '.' or '0'",
                digit_char(max)
            ),
        });
    }
    let mut puzzle = Puzzle::in_geometries(Layout::new(variant, size), cells, geometries)
        .map_err(|e| super::puzzle_error(pos(start + 1), e))?;
    puzzle.difficulty = comment_level(&bytes[end..]);
    Ok(Some(puzzle))
}

/// The level a comment after the puzzle starts with (`# hard 1240`, as `generate` and the
/// shipped collections write), so printing can show it.
fn comment_level(rest: &[u8]) -> Option<String> {
    const LEVELS: [&str; 5] = ["easy", "medium", "hard", "unfair", "extreme"];
    let rest = std::str::from_utf8(rest).ok()?.trim_start();
    let word = rest.strip_prefix('#')?.split_whitespace().next()?;
    let word = word.to_ascii_lowercase();
    LEVELS.contains(&word.as_str()).then_some(word)
}

/// The line format of a puzzle (`.` for empty cells).
pub fn write_line(puzzle: &Puzzle) -> String {
    puzzle
        .givens
        .iter()
        .map(|&d| if d == 0 { '.' } else { digit_char(d) })
        .collect()
}

/// Streams puzzles from a reader, one per line, without holding the file in memory.
/// Yields `(line number, puzzle or None for a blank/comment line)`.
pub struct LineReader<R> {
    reader: R,
    variant: Variant,
    file: String,
    line: usize,
    buf: Vec<u8>,
    done: bool,
    /// The one geometry the file's puzzles share.
    geometries: Geometries,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R, variant: Variant, file: &str) -> Self {
        LineReader {
            reader,
            variant,
            file: file.to_string(),
            line: 0,
            buf: Vec::with_capacity(128),
            done: false,
            geometries: Geometries::default(),
        }
    }

    /// Reads one line into `buf` (at most `MAX_KEPT` bytes, leading whitespace left out so
    /// that any amount of it cannot push the puzzle out of the kept part); returns the
    /// line's length after that whitespace and the whitespace's length, or None at the end
    /// of input.
    fn read_capped(&mut self) -> std::io::Result<Option<(usize, usize)>> {
        self.buf.clear();
        let (mut total, mut lead) = (0usize, 0usize);
        let mut any = false;
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(any.then_some((total, lead)));
            }
            any = true;
            let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(p) => (p, true),
                None => (chunk.len(), false),
            };
            let mut from = 0;
            if total == 0 {
                from = chunk[..take]
                    .iter()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                lead = lead.saturating_add(from);
            }
            let room = MAX_KEPT.saturating_sub(self.buf.len());
            self.buf
                .extend_from_slice(&chunk[from..take.min(from.saturating_add(room))]);
            total = total.saturating_add(take - from);
            self.reader.consume(take + usize::from(newline));
            if newline {
                return Ok(Some((total, lead)));
            }
        }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = Result<(usize, Option<Puzzle>), ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let (len, lead) = match self.read_capped() {
            Ok(Some(x)) => x,
            Ok(None) => {
                self.done = true;
                return None;
            }
            Err(source) => {
                self.done = true;
                return Some(Err(ParseError::Io {
                    file: self.file.clone(),
                    source,
                }));
            }
        };
        self.line += 1;
        let parsed = parse_line_measured(
            &self.buf,
            len,
            lead,
            self.variant,
            &self.file,
            self.line,
            &mut self.geometries,
        );
        Some(parsed.map(|p| (self.line, p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn a_level_comment_is_the_difficulty() {
        let p = parse_line(
            format!("{P} # Hard 1240").as_bytes(),
            Variant::Standard,
            "f",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.difficulty.as_deref(), Some("hard"));
        let p = parse_line(
            format!("{P} # from a forum").as_bytes(),
            Variant::Standard,
            "f",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(p.difficulty, None);
    }

    #[test]
    fn reads_digits_dots_and_zeros_with_comment() {
        let line = format!("{}  # comment", P.replace('.', "0"));
        let p = parse_line(line.as_bytes(), Variant::Standard, "f", 1)
            .unwrap()
            .unwrap();
        assert_eq!(write_line(&p), P);
        assert_eq!(p.given_count(), 17);
    }

    #[test]
    fn a_stray_character_in_a_sixteen_line_names_the_letters() {
        let mut line = ".".repeat(256);
        line.replace_range(99..100, "H");
        let err = parse_line(line.as_bytes(), Variant::Standard, "p", 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "p:1:100: unexpected 'H' (expected a digit, a letter A-G (16x16), '.' or '0')"
        );
    }

    #[test]
    fn crlf_and_bom_are_accepted() {
        let line = format!("\u{feff}{P}\r");
        assert!(parse_line(line.as_bytes(), Variant::Standard, "f", 1)
            .unwrap()
            .is_some());
    }

    #[test]
    fn bad_character_names_line_and_column() {
        let mut line = P.to_string();
        line.replace_range(10..11, "x");
        let err = parse_line(line.as_bytes(), Variant::Standard, "p.txt", 7).unwrap_err();
        assert_eq!(
            err.to_string(),
            "p.txt:7:11: unexpected 'x' (expected a digit, '.' or '0')"
        );
    }

    #[test]
    fn wrong_length_says_what_was_expected() {
        let err = parse_line(&P.as_bytes()[..80], Variant::Standard, "p", 2).unwrap_err();
        assert!(
            err.to_string().starts_with("p:2:1: 80 cells, expected 81"),
            "{err}"
        );
        let err = parse_line(P.as_bytes(), Variant::Honeycomb, "p", 2).unwrap_err();
        assert!(
            err.to_string().contains("expected 61 for honeycomb"),
            "{err}"
        );
    }

    /// The one-pass read of plain lines stops exactly where the byte-by-byte read does.
    #[test]
    fn a_plain_line_ends_only_at_a_space_a_comment_or_its_end() {
        let err = parse_line(format!("{P}x").as_bytes(), Variant::Standard, "p", 3).unwrap_err();
        assert_eq!(
            err.to_string(),
            "p:3:82: unexpected 'x' (expected a digit, '.' or '0')"
        );
        let err = parse_line(format!("{P}5").as_bytes(), Variant::Standard, "p", 3).unwrap_err();
        assert!(err.to_string().starts_with("p:3:1: 82 cells"), "{err}");
        for tail in ["", " ", "\t# note", "#x", "  # hard 1"] {
            let p = parse_line(format!("  {P}{tail}").as_bytes(), Variant::Standard, "p", 3)
                .unwrap()
                .unwrap();
            assert_eq!(write_line(&p), P, "{tail:?}");
        }
    }

    #[test]
    fn small_grids_reject_digits_beyond_their_size() {
        let err = parse_line(b"1234....5.......", Variant::Standard, "p", 1).unwrap_err();
        assert!(err.to_string().contains("p:1:9: unexpected '5'"), "{err}");
        let p = parse_line(b"1234............", Variant::Standard, "p", 1)
            .unwrap()
            .unwrap();
        assert_eq!(p.layout.size, 4);
    }

    #[test]
    fn huge_line_is_measured_not_stored() {
        let mut data = vec![b'1'; 10 * 1024 * 1024];
        data.push(b'\n');
        data.extend_from_slice(P.as_bytes());
        let mut reader = LineReader::new(&data[..], Variant::Standard, "big");
        let err = reader.next().unwrap().unwrap_err();
        assert!(err.to_string().contains("10485760 cells"), "{err}");
        let (line, p) = reader.next().unwrap().unwrap();
        assert_eq!(line, 2);
        assert!(p.is_some());
        assert!(reader.next().is_none());
    }

    #[test]
    fn long_leading_whitespace_keeps_the_puzzle() {
        let mut data = vec![b' '; 3 * MAX_KEPT];
        data.extend_from_slice(P.as_bytes());
        data.extend_from_slice(b"\n\t");
        data.extend_from_slice(&P.as_bytes()[..80]);
        let mut reader = LineReader::new(
            std::io::BufReader::with_capacity(100, &data[..]),
            Variant::Standard,
            "ws",
        );
        let (line, p) = reader.next().unwrap().unwrap();
        assert_eq!((line, p.map(|p| write_line(&p))), (1, Some(P.to_string())));
        let err = reader.next().unwrap().unwrap_err();
        assert!(err.to_string().starts_with("ws:2:2: 80 cells"), "{err}");
    }

    #[test]
    fn a_pasted_character_beyond_ascii_is_named_whole() {
        for (c, found) in [
            ("é", "'é'"),
            ("\u{a0}", "non-ASCII space U+00A0"),
            ("\u{200b}", "invisible character U+200B"),
            ("１", "'１'"),
        ] {
            let line = format!("{}{c}{}", &P[..40], &P[41..]);
            let err = parse_line(line.as_bytes(), Variant::Standard, "p", 1)
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with(&format!("p:1:41: unexpected {found} (")),
                "{err}"
            );
        }
    }

    #[test]
    fn non_utf8_bytes_are_reported() {
        let mut line = P.as_bytes().to_vec();
        line[3] = 0xFF;
        let err = parse_line(&line, Variant::Standard, "p", 1).unwrap_err();
        assert!(
            err.to_string().contains("p:1:4: unexpected byte 0xFF"),
            "{err}"
        );
    }
}
