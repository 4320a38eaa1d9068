//! The grid form people paste: one row a line, optional `|`, `+`, `-` and space separators,
//! `.`, `0` or `_` for an empty cell, separator lines (`------+-------+------`) and `#`
//! comment lines skipped. Every size: the row count says which (4, 6, 9, 16; honeycomb's
//! rows of 5..9..5 cells with `--variant honeycomb`). Digits as the line format has them
//! (1-9, then A-G); space-separated two-digit numbers (10-16) are read too.

use super::{ParseError, Pos};
use crate::geometry::square::box_dims;
use crate::geometry::{char_digit, digit_char, honeycomb, Shape};
use crate::puzzle::{Layout, Puzzle, Variant};

/// Sizes a square grid comes in.
const SIZES: [usize; 4] = [4, 6, 9, 16];

/// One row as read: its line, and its cells grouped in whitespace-separated tokens of
/// `(column, char)`.
struct Row {
    line: usize,
    tokens: Vec<Vec<(usize, char)>>,
}

impl Row {
    fn char_count(&self) -> usize {
        self.tokens.iter().map(Vec::len).sum()
    }
}

fn is_separator(c: char) -> bool {
    matches!(c, '|' | '+' | '-' | '=' | '*')
}

/// The rows of a grid text: blank, comment and separator-only lines left out.
fn rows(text: &str, first_line: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = first_line + i;
        let mut tokens: Vec<Vec<(usize, char)>> = Vec::new();
        let mut current: Vec<(usize, char)> = Vec::new();
        let mut comment = false;
        for (col, c) in line.chars().enumerate() {
            if c == '\u{feff}' {
                continue;
            }
            if c == '#' && tokens.is_empty() && current.is_empty() {
                comment = true;
                break;
            }
            if c.is_whitespace() || is_separator(c) {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            } else {
                current.push((col + 1, c));
            }
        }
        if !current.is_empty() {
            tokens.push(current);
        }
        if !comment && !tokens.is_empty() {
            out.push(Row {
                line: line_no,
                tokens,
            });
        }
    }
    out
}

/// Whether a line reads as a grid row or a separator line rather than a puzzle line: it
/// has separators, cells apart, or as many cells as a grid row has.
pub(crate) fn looks_like_grid_row(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return false;
    }
    if t.chars().any(|c| matches!(c, '|' | '+')) || t.chars().all(is_separator) {
        return true;
    }
    let cells = t.chars().filter(|c| !c.is_whitespace()).count();
    t.contains(char::is_whitespace) && cells <= 2 * 16 || SIZES.contains(&cells)
}

fn cell_digit(c: char) -> Option<u8> {
    match c {
        '.' | '0' | '_' => Some(0),
        _ => char_digit(c),
    }
}

/// A token of one or two decimal digits as a number (`.`/`_` for empty).
fn number_token(token: &[(usize, char)]) -> Option<u8> {
    let s: String = token.iter().map(|&(_, c)| c).collect();
    match s.as_str() {
        "." | "_" => Some(0),
        _ if s.len() <= 2 && s.chars().all(|c| c.is_ascii_digit()) => s.parse().ok(),
        _ => None,
    }
}

/// The cells of a row that should have `len`: one character a cell, or else one number a
/// token. Gives `(column, digit)` per cell, or the error naming the row.
fn row_cells(
    row: &Row,
    index: usize,
    len: usize,
    max: u8,
    file: &str,
) -> Result<Vec<(usize, u8)>, ParseError> {
    let pos = |col: usize| Pos {
        file: file.to_string(),
        line: row.line,
        col,
    };
    let chars: Vec<(usize, char)> = row.tokens.iter().flatten().copied().collect();
    let numbers: Option<Vec<(usize, u8)>> = (row.char_count() != len && row.tokens.len() == len)
        .then(|| {
            row.tokens
                .iter()
                .map(|t| number_token(t).map(|d| (t[0].0, d)))
                .collect()
        })
        .flatten();
    let cells = match numbers {
        Some(cells) => cells,
        None if chars.len() == len => {
            let mut out = Vec::with_capacity(len);
            for &(col, c) in &chars {
                match cell_digit(c) {
                    Some(d) => out.push((col, d)),
                    None => {
                        return Err(ParseError::Unexpected {
                            pos: pos(col),
                            found: format!("'{c}'"),
                            expected: "a digit, '.', '0' or '_'".into(),
                        })
                    }
                }
            }
            out
        }
        None => {
            let col = chars.get(len).or(chars.last()).map_or(1, |x| x.0);
            return Err(ParseError::Invalid {
                pos: pos(col),
                message: format!(
                    "row {} has {} cells, expected {len}",
                    index + 1,
                    chars.len()
                ),
            });
        }
    };
    if let Some(&(col, d)) = cells.iter().find(|&&(_, d)| d > max) {
        return Err(ParseError::Unexpected {
            pos: pos(col),
            found: format!("{d}"),
            expected: format!(
                "a digit 1-{} in this grid, '.', '0' or '_'",
                digit_char(max)
            ),
        });
    }
    Ok(cells)
}

/// Reads one puzzle in the grid form. `first_line` is the line number of the text's first
/// line in `file`.
pub fn parse_grid(
    text: &str,
    variant: Variant,
    file: &str,
    first_line: usize,
) -> Result<Puzzle, ParseError> {
    let rows = rows(text, first_line);
    let Some(last) = rows.last() else {
        return Err(ParseError::Empty {
            file: file.to_string(),
            expected: "a grid, one row a line".into(),
        });
    };
    let end = Pos {
        file: file.to_string(),
        line: last.line,
        col: 1,
    };
    if matches!(variant, Variant::Jigsaw | Variant::Killer) {
        return Err(ParseError::invalid(
            Pos {
                line: rows[0].line,
                ..end
            },
            format!("a grid holds givens only: {variant} needs a TOML or f-puzzles file"),
        ));
    }
    // One line is no grid of any size: say what a line or a grid must be instead of
    // measuring it against a one-row grid.
    if let [only] = rows.as_slice() {
        return Err(ParseError::invalid(
            Pos {
                line: only.line,
                ..end
            },
            format!(
                "a single line of {} cells is neither a puzzle line ({}) nor a grid (one row a line)",
                only.char_count(),
                if variant == Variant::Honeycomb {
                    "61 cells"
                } else {
                    "16, 36, 81 or 256 cells"
                }
            ),
        ));
    }
    let (size, lengths): (usize, Vec<usize>) = if variant == Variant::Honeycomb {
        (9, (1..=9).map(honeycomb::row_length).collect())
    } else {
        // The row count says the size; when it is off, the first row's length does.
        let size = [rows.len(), rows[0].char_count(), rows[0].tokens.len()]
            .into_iter()
            .find(|n| SIZES.contains(n))
            .unwrap_or(rows.len());
        (size, vec![size; size])
    };
    if rows.len() != lengths.len() {
        return Err(ParseError::invalid(
            end,
            format!(
                "{} rows, expected {}",
                rows.len(),
                if variant == Variant::Honeycomb {
                    "9 (honeycomb rows of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells)".to_string()
                } else if SIZES.contains(&size) {
                    format!("{size} for a {size}x{size} grid")
                } else {
                    "4, 6, 9 or 16".to_string()
                }
            ),
        ));
    }
    let max = if variant == Variant::Honeycomb {
        9
    } else {
        size as u8
    };
    let mut givens = Vec::with_capacity(lengths.iter().sum());
    for (i, (row, &len)) in rows.iter().zip(&lengths).enumerate() {
        givens.extend(row_cells(row, i, len, max, file)?.into_iter().map(|x| x.1));
    }
    let start = Pos {
        line: rows[0].line,
        ..end
    };
    let mut layout = Layout::new(variant, size);
    if let Some(line) = diagonal_note(text, first_line, rows[0].line) {
        if variant == Variant::Honeycomb {
            return Err(ParseError::invalid(
                Pos { line, ..start },
                "a honeycomb has no diagonals: this grid's '# diagonal' note is for a square grid",
            ));
        }
        if variant == Variant::Standard {
            layout = Layout::new(Variant::Diagonal, size);
        }
        layout.diagonals = true;
    }
    Puzzle::new(layout, givens).map_err(|e| super::puzzle_error(start, e))
}

/// The note [`write_grid`] puts above a grid whose diagonals hold each digit once.
const DIAGONAL_NOTE: &str = "# diagonal: both long diagonals hold each digit once";

/// The line of a `# diagonal` note among the comments above the grid's first row
/// (`first_row`), which carries the X rule that the grid's cells cannot show.
fn diagonal_note(text: &str, first_line: usize, first_row: usize) -> Option<usize> {
    text.lines()
        .take(first_row.saturating_sub(first_line))
        .position(|l| {
            let t = l.trim_start_matches('\u{feff}').trim_start();
            t.strip_prefix('#').is_some_and(|rest| {
                let word = rest.trim_start();
                word.get(..8)
                    .is_some_and(|w| w.eq_ignore_ascii_case("diagonal"))
            })
        })
        .map(|i| first_line + i)
}

/// The grid form of a puzzle: boxes set apart by `|` and separator lines (honeycomb: its
/// rows, centred). Killer cages and jigsaw regions do not fit in it; the X rule goes in a
/// `# diagonal` note above the grid, which [`parse_grid`] reads back.
pub fn write_grid(puzzle: &Puzzle) -> Result<String, String> {
    let g = puzzle.geometry();
    let cell = |c: usize| match puzzle.givens[c] {
        0 => '.',
        d => digit_char(d),
    };
    let (size, box_rows, box_cols) = match g.shape() {
        Shape::Square { size, .. } if puzzle.layout.regions.is_some() => {
            return Err(format!(
                "a grid holds givens only: the {size}x{size} jigsaw's regions do not fit in it (use --format fpuzzles, or TOML)"
            ))
        }
        Shape::Square { .. } if !puzzle.layout.cages.is_empty() => {
            return Err(
                "a grid holds givens only: killer cages do not fit in it (use --format fpuzzles, or TOML)"
                    .into(),
            )
        }
        Shape::Square {
            size,
            box_rows,
            box_cols,
        } => (size, box_rows, box_cols),
        Shape::Honeycomb => {
            let mut out = String::new();
            let mut c = 0;
            for i in 1..=9 {
                let len = honeycomb::row_length(i);
                out.push_str(&" ".repeat(9 - len));
                let row: Vec<String> = (c..c + len).map(|x| cell(x).to_string()).collect();
                out.push_str(&row.join(" "));
                out.push('\n');
                c += len;
            }
            return Ok(out);
        }
    };
    let _ = box_dims(size).map_err(|e| e.to_string())?;
    let mut lines: Vec<String> = Vec::with_capacity(size + size / box_rows);
    for r in 0..size {
        let mut line = String::new();
        for c in 0..size {
            if c > 0 {
                line.push_str(if c % box_cols == 0 { " | " } else { " " });
            }
            line.push(cell(r * size + c));
        }
        if r > 0 && r % box_rows == 0 {
            // The separator follows the row's own shape: `-` over cells, `+` at the bars.
            let sep: String = line
                .chars()
                .map(|ch| if ch == '|' { '+' } else { '-' })
                .collect();
            lines.push(sep);
        }
        lines.push(line);
    }
    if puzzle.layout.diagonals {
        lines.insert(0, DIAGONAL_NOTE.to_string());
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PASTED: &str = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
    const LINE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn reads_the_pasted_form_and_writes_it_back() {
        let p = parse_grid(PASTED, Variant::Standard, "g.txt", 1).unwrap();
        assert_eq!(super::super::write_line(&p), LINE);
        assert_eq!(write_grid(&p).unwrap(), PASTED);
    }

    #[test]
    fn bare_rows_with_zeros_and_underscores_read_too() {
        let text: String = LINE
            .as_bytes()
            .chunks(9)
            .map(|r| {
                let s = String::from_utf8_lossy(r).replace('.', "0");
                format!("{}\n", s.replacen('0', "_", 1))
            })
            .collect();
        let p = parse_grid(&text, Variant::Standard, "g", 1).unwrap();
        assert_eq!(super::super::write_line(&p), LINE);
    }

    #[test]
    fn a_single_line_is_not_measured_as_a_one_row_grid() {
        for text in ["hello world", "abc123xyz", "5 3 . . 7 . . . ."] {
            let e = parse_grid(text, Variant::Standard, "g.txt", 1)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("g.txt:1:1: a single line of "), "{e}");
            assert!(e.contains("81"), "{e}");
            assert!(!e.contains("expected 1"), "{e}");
        }
    }

    #[test]
    fn a_short_row_is_named_with_its_line_and_column() {
        let text = PASTED.replace("6 . . | 1 9 5 | . . .", "6 . . | 1 9 5 | . .");
        let e = parse_grid(&text, Variant::Standard, "g.txt", 1)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "g.txt:2:19: row 2 has 8 cells, expected 9");
    }

    #[test]
    fn every_size_round_trips_and_16x16_takes_numbers() {
        for size in [4usize, 6, 9, 16] {
            let givens: Vec<u8> = (0..size * size)
                .map(|i| if i % 3 == 0 { (i % size + 1) as u8 } else { 0 })
                .collect();
            let p = Puzzle::new(Layout::new(Variant::Standard, size), givens).unwrap();
            let text = write_grid(&p).unwrap();
            assert_eq!(text.lines().filter(|l| !l.starts_with('-')).count(), size);
            let q = parse_grid(&text, Variant::Standard, "g", 1).unwrap();
            assert_eq!(q.givens, p.givens, "{size}x{size}:\n{text}");
        }
        let mut text = String::new();
        for r in 0..16 {
            let row: Vec<String> = (0..16).map(|c| ((r + c) % 16 + 1).to_string()).collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        let p = parse_grid(&text, Variant::Standard, "g", 1).unwrap();
        assert_eq!(p.layout.size, 16);
        assert_eq!(&p.givens[..3], &[1, 2, 3]);
        assert_eq!(p.givens[15], 16);
    }

    #[test]
    fn the_diagonal_rule_is_carried_by_a_note_above_the_grid() {
        for size in [6usize, 9] {
            let givens: Vec<u8> = (0..size * size)
                .map(|i| if i % 5 == 0 { (i % size + 1) as u8 } else { 0 })
                .collect();
            let p = Puzzle::new(Layout::new(Variant::Diagonal, size), givens).unwrap();
            let text = write_grid(&p).unwrap();
            assert!(text.starts_with("# diagonal"), "{text}");
            // Read back with no --variant (standard), as a user would.
            let q = parse_grid(&text, Variant::Standard, "g", 1).unwrap();
            assert_eq!(q.variant(), Variant::Diagonal);
            assert!(q.layout.diagonals);
            assert_eq!(q.givens, p.givens);
        }
        let hc = Puzzle::new(Layout::new(Variant::Honeycomb, 9), vec![0; 61]).unwrap();
        let e = parse_grid(
            &format!("# Diagonal\n{}", write_grid(&hc).unwrap()),
            Variant::Honeycomb,
            "g",
            1,
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("g:1:1: a honeycomb has no diagonals"), "{e}");
        // A note after the grid's first row is no header.
        let later = PASTED.replacen('\n', "\n# diagonal\n", 1);
        let p = parse_grid(&later, Variant::Standard, "g", 1).unwrap();
        assert!(!p.layout.diagonals);
    }

    #[test]
    fn a_digit_beyond_the_size_is_named() {
        let e = parse_grid("12 34\n34 12\n21 43\n43 25\n", Variant::Standard, "g", 1)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("g:4:5: unexpected 5"), "{e}");
    }
}
