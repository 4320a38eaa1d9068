//! TOML puzzle files: `title`, `variant`, `size`, `givens` (one row a line), `regions`
//! (jigsaw), `[[cage]]` (killer), `diagonals`, `source`, `difficulty`.

use super::{line_col, ParseError, Pos};
use crate::geometry::square::CageSpec;
use crate::geometry::{char_digit, digit_char, honeycomb, Geometry};
use crate::puzzle::{Layout, Puzzle, Variant};
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    title: Option<String>,
    variant: Spanned<Variant>,
    size: Option<Spanned<i64>>,
    givens: Option<Spanned<String>>,
    regions: Option<Spanned<String>>,
    diagonals: Option<bool>,
    source: Option<String>,
    difficulty: Option<String>,
    #[serde(default, rename = "cage")]
    cages: Vec<RawCage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCage {
    sum: Spanned<i64>,
    cells: Spanned<Vec<Spanned<String>>>,
}

/// Maps positions inside a string value back to the file.
struct StrMap<'a> {
    text: &'a str,
    /// Byte offset in the file of the value's first content character, when the raw text
    /// equals the decoded value (no escapes); otherwise the value's start.
    start: usize,
    exact: bool,
}

impl<'a> StrMap<'a> {
    fn new(text: &'a str, span: std::ops::Range<usize>, value: &str) -> StrMap<'a> {
        let raw = &text[span.clone()];
        let mut start = span.start;
        let mut exact = false;
        for quote in ["\"\"\"", "'''", "\"", "'"] {
            if let Some(rest) = raw.strip_prefix(quote) {
                start += quote.len();
                let mut body = rest;
                if quote.len() == 3 {
                    if let Some(r) = body.strip_prefix("\r\n") {
                        start += 2;
                        body = r;
                    } else if let Some(r) = body.strip_prefix('\n') {
                        start += 1;
                        body = r;
                    }
                }
                let body = body.strip_suffix(quote).unwrap_or(body);
                exact = body.replace("\r\n", "\n") == value && !body.contains("\r\n");
                break;
            }
        }
        StrMap { text, start, exact }
    }

    /// File position of the byte at `offset` within the value.
    fn pos(&self, file: &str, offset: usize) -> Pos {
        let at = if self.exact {
            self.start + offset
        } else {
            self.start
        };
        let (line, col) = line_col(self.text, at);
        Pos {
            file: file.to_string(),
            line,
            col,
        }
    }
}

fn span_pos(text: &str, file: &str, offset: usize) -> Pos {
    let (line, col) = line_col(text, offset);
    Pos {
        file: file.to_string(),
        line,
        col,
    }
}

/// Reads the rows of a grid string: one row a line, spaces ignored, blank lines skipped.
/// Calls `cell` with each character and its byte offset; returns the row lengths.
fn grid_rows(value: &str) -> Vec<Vec<(usize, char)>> {
    let mut rows = Vec::new();
    let mut offset = 0;
    for line in value.split('\n') {
        let row: Vec<(usize, char)> = line
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .map(|(i, c)| (offset + i, c))
            .collect();
        if !row.is_empty() {
            rows.push(row);
        }
        offset += line.len() + 1;
    }
    rows
}

fn expected_row_lengths(variant: Variant, size: usize) -> Vec<usize> {
    match variant {
        Variant::Honeycomb => (1..=9).map(honeycomb::row_length).collect(),
        _ => vec![size; size],
    }
}

/// Checks row count and lengths; the error points at the first row that does not fit.
fn check_shape(
    rows: &[Vec<(usize, char)>],
    lengths: &[usize],
    map: &StrMap,
    file: &str,
    what: &str,
) -> Result<(), ParseError> {
    for (i, (row, &len)) in rows.iter().zip(lengths).enumerate() {
        if row.len() != len {
            let at = row.get(len).or(row.last()).map_or(0, |x| x.0);
            return Err(ParseError::Invalid {
                pos: map.pos(file, at),
                message: format!(
                    "{what} row {} has {} cells, expected {len}",
                    i + 1,
                    row.len()
                ),
            });
        }
    }
    if rows.len() != lengths.len() {
        let at = rows.last().and_then(|r| r.last()).map_or(0, |x| x.0);
        return Err(ParseError::Invalid {
            pos: map.pos(file, at),
            message: format!("{what} has {} rows, expected {}", rows.len(), lengths.len()),
        });
    }
    Ok(())
}

/// What a killer cage must be before the layout sees it: at most `size` cells, a sum that
/// distinct digits can make, cells joined side by side. Gives the byte offset to point at
/// and the message.
fn check_cage(
    cells: &[usize],
    cage: &RawCage,
    size: usize,
    number: usize,
) -> Result<(), (usize, String)> {
    let k = cells.len();
    if k > size {
        return Err((
            cage.cells.span().start,
            format!(
                "cage {number} has {k} cells, but a cage holds distinct digits (at most {size})"
            ),
        ));
    }
    let sum = *cage.sum.get_ref();
    // The k smallest and the k largest digits.
    let min = (k * (k + 1) / 2) as i64;
    let max = (k * (2 * size + 1 - k) / 2) as i64;
    if k > 0 && !(min..=max).contains(&sum) {
        return Err((
            cage.sum.span().start,
            format!(
                "cage {number}: sum {sum} is impossible for {k} distinct digits (possible: {min}..={max})"
            ),
        ));
    }
    // Connected side by side: a walk from the first cell reaches every other.
    let mut reached = vec![false; k];
    let mut todo = Vec::with_capacity(k);
    if k > 0 {
        reached[0] = true;
        todo.push(cells[0]);
    }
    while let Some(c) = todo.pop() {
        for (j, &d) in cells.iter().enumerate() {
            let (r1, c1, r2, c2) = (c / size, c % size, d / size, d % size);
            if !reached[j] && r1.abs_diff(r2) + c1.abs_diff(c2) == 1 {
                reached[j] = true;
                todo.push(d);
            }
        }
    }
    if let Some(j) = reached.iter().position(|&r| !r) {
        let name = &cage.cells.get_ref()[j];
        return Err((
            name.span().start,
            format!(
                "cage {number} is not connected: {} does not touch the cage's other cells",
                name.get_ref()
            ),
        ));
    }
    Ok(())
}

/// Parses a TOML puzzle file. `file` names it in errors.
pub fn parse_toml(bytes: &[u8], file: &str) -> Result<Puzzle, ParseError> {
    let text = decode_text(bytes, file)?;
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let mut message = e.message().trim().to_string();
        if message.starts_with("unknown field `puzzle`") {
            // `[puzzle]` for `[[puzzle]]`: say what a collection looks like.
            message = "a `[puzzle]` table: a collection's puzzles are `[[puzzle]]` tables \
                       (double brackets), a single puzzle's keys stand at the top"
                .into();
        }
        ParseError::Invalid {
            pos: span_pos(text, file, offset),
            message,
        }
    })?;
    let variant = *raw.variant.get_ref();
    let size = read_size(&raw, variant, text, file)?;
    let mut layout = Layout::new(variant, size);
    layout.diagonals |= raw.diagonals.unwrap_or(false);
    if layout.diagonals && variant == Variant::Honeycomb {
        return Err(ParseError::Invalid {
            pos: span_pos(text, file, 0),
            message: "honeycomb has no diagonals".into(),
        });
    }
    let lengths = expected_row_lengths(variant, layout.size);
    let region_map = read_regions(&raw, &mut layout, &lengths, text, file)?;
    read_cages(&raw, &mut layout, text, file)?;
    let givens = read_givens(&raw, &layout, &lengths, text, file)?;
    let geometry = layout.geometry().map_err(|e| {
        let pos = layout_error_pos(&e, region_map.as_ref(), &raw, text, file);
        ParseError::invalid(pos, e)
    })?;
    let mut puzzle = Puzzle::with_geometry(layout, std::sync::Arc::new(geometry), givens)
        .map_err(|e| ParseError::invalid(span_pos(text, file, 0), e))?;
    puzzle.title = raw.title;
    puzzle.source = raw.source;
    puzzle.difficulty = raw.difficulty;
    Ok(puzzle)
}

/// The file as text: a leading BOM dropped, UTF-8 required, not empty.
fn decode_text<'a>(bytes: &'a [u8], file: &str) -> Result<&'a str, ParseError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
            let (line, col) = line_col(valid, valid.len());
            return Err(ParseError::Unexpected {
                pos: Pos {
                    file: file.into(),
                    line,
                    col,
                },
                found: super::describe_byte(bytes[e.valid_up_to()]),
                expected: "UTF-8 text".into(),
            });
        }
    };
    if text.trim().is_empty() {
        return Err(ParseError::Empty {
            file: file.into(),
            expected: "a TOML puzzle with at least `variant`".into(),
        });
    }
    Ok(text)
}

/// `size`: 9 when absent; 4, 6, 9 or 16, and only 9 for honeycomb.
fn read_size(raw: &RawFile, variant: Variant, text: &str, file: &str) -> Result<usize, ParseError> {
    Ok(match &raw.size {
        None => 9,
        Some(s) => {
            let v = *s.get_ref();
            if variant == Variant::Honeycomb && v != 9 || ![4, 6, 9, 16].contains(&v) {
                return Err(ParseError::Invalid {
                    pos: span_pos(text, file, s.span().start),
                    message: format!(
                        "size {v} is not supported (expected 4, 6, 9 or 16; honeycomb has no size)"
                    ),
                });
            }
            v as usize
        }
    })
}

/// The region letters and where they are in the file (kept to point at layout errors).
type RegionMap<'a> = (StrMap<'a>, Vec<Vec<(usize, char)>>);

/// Regions: required for jigsaw, refused elsewhere. Sets the layout's regions.
fn read_regions<'a>(
    raw: &RawFile,
    layout: &mut Layout,
    lengths: &[usize],
    text: &'a str,
    file: &str,
) -> Result<Option<RegionMap<'a>>, ParseError> {
    let variant = *raw.variant.get_ref();
    let mut region_map = None;
    match (&raw.regions, variant) {
        (Some(r), Variant::Jigsaw) => {
            let map = StrMap::new(text, r.span(), r.get_ref());
            let rows = grid_rows(r.get_ref());
            check_shape(&rows, lengths, &map, file, "regions")?;
            if let Some(&(at, c)) = rows
                .iter()
                .flatten()
                .find(|(_, c)| !c.is_ascii_alphanumeric())
            {
                return Err(ParseError::Unexpected {
                    pos: map.pos(file, at),
                    found: format!("'{c}'"),
                    expected: "a region letter".into(),
                });
            }
            layout.regions = Some(rows.iter().flatten().map(|&(_, c)| c).collect());
            region_map = Some((map, rows));
        }
        (None, Variant::Jigsaw) => {
            return Err(ParseError::Invalid {
                pos: span_pos(text, file, raw.variant.span().start),
                message: "a jigsaw puzzle needs `regions`".into(),
            })
        }
        (Some(r), _) => {
            return Err(ParseError::Invalid {
                pos: span_pos(text, file, r.span().start),
                message: format!("`regions` only fits a jigsaw puzzle, not {variant}"),
            })
        }
        (None, _) => {}
    }
    Ok(region_map)
}

/// Cages: cells by name, each cage checked by `check_cage`; sums checked by the layout.
/// Adds them to the layout.
fn read_cages(
    raw: &RawFile,
    layout: &mut Layout,
    text: &str,
    file: &str,
) -> Result<(), ParseError> {
    let variant = *raw.variant.get_ref();
    if !raw.cages.is_empty() && variant != Variant::Killer {
        return Err(ParseError::Invalid {
            pos: span_pos(text, file, raw.cages[0].sum.span().start),
            message: format!("cages only fit a killer puzzle, not {variant}"),
        });
    }
    let names = crate::geometry::square::standard(layout.size).ok();
    for cage in &raw.cages {
        let mut cells = Vec::new();
        for name in cage.cells.get_ref() {
            let cell = names.as_ref().and_then(|g| g.parse_cell(name.get_ref()));
            match cell {
                Some(c) => cells.push(c),
                None => {
                    return Err(ParseError::Invalid {
                        pos: span_pos(text, file, name.span().start),
                        message: format!(
                            "cell \"{}\" is outside the {n}x{n} grid (expected r1c1..r{n}c{n})",
                            name.get_ref(),
                            n = layout.size
                        ),
                    })
                }
            }
        }
        check_cage(&cells, cage, layout.size, layout.cages.len() + 1).map_err(
            |(at, message)| ParseError::Invalid {
                pos: span_pos(text, file, at),
                message,
            },
        )?;
        let sum = *cage.sum.get_ref();
        layout.cages.push(CageSpec {
            sum: u32::try_from(sum).unwrap_or(u32::MAX),
            cells,
        });
    }
    Ok(())
}

/// Givens: one row a line, '.' or '0' for an empty cell; all empty when absent.
fn read_givens(
    raw: &RawFile,
    layout: &Layout,
    lengths: &[usize],
    text: &str,
    file: &str,
) -> Result<Vec<u8>, ParseError> {
    let variant = *raw.variant.get_ref();
    let cell_count: usize = lengths.iter().sum();
    Ok(match &raw.givens {
        None => vec![0; cell_count],
        Some(g) => {
            let map = StrMap::new(text, g.span(), g.get_ref());
            let rows = grid_rows(g.get_ref());
            check_shape(&rows, lengths, &map, file, "givens")?;
            let max = if variant == Variant::Honeycomb {
                9
            } else {
                layout.size as u8
            };
            let mut out = Vec::with_capacity(cell_count);
            for &(at, c) in rows.iter().flatten() {
                let d = match c {
                    '.' | '0' => 0,
                    _ => match char_digit(c) {
                        Some(d) if d <= max => d,
                        _ => {
                            return Err(ParseError::Unexpected {
                                pos: map.pos(file, at),
                                found: format!("'{c}'"),
                                expected: format!("a digit 1-{}, '.' or '0'", digit_char(max)),
                            })
                        }
                    },
                };
                out.push(d);
            }
            out
        }
    })
}

/// Points at the part of the file a layout error is about: the region's first letter, the
/// cage's sum, else the variant.
fn layout_error_pos(
    e: &crate::geometry::square::LayoutError,
    region_map: Option<&RegionMap>,
    raw: &RawFile,
    text: &str,
    file: &str,
) -> Pos {
    match (e, region_map) {
        (
            crate::geometry::square::LayoutError::RegionSize { region, .. }
            | crate::geometry::square::LayoutError::RegionDisconnected { region },
            Some((map, rows)),
        ) => rows
            .iter()
            .flatten()
            .find(|(_, c)| c == region)
            .map_or_else(|| span_pos(text, file, 0), |&(at, _)| map.pos(file, at)),
        (crate::geometry::square::LayoutError::CageSum { cage, .. }, _)
        | (crate::geometry::square::LayoutError::CageOverlap { cage, .. }, _)
        | (crate::geometry::square::LayoutError::CageRepeat { cage, .. }, _)
        | (crate::geometry::square::LayoutError::CageEmpty { cage }, _) => {
            raw.cages.get(cage - 1).map_or_else(
                || span_pos(text, file, 0),
                |c| span_pos(text, file, c.sum.span().start),
            )
        }
        _ => span_pos(text, file, raw.variant.span().start),
    }
}

fn quote(s: &str) -> String {
    // serde-free basic string escaping via toml's own value printer.
    toml::Value::String(s.to_string()).to_string()
}

fn grid_text(geometry: &Geometry, chars: impl Fn(usize) -> char) -> String {
    let mut out = String::new();
    let mut cell = 0;
    for &len in geometry.row_lengths() {
        for _ in 0..len {
            out.push(chars(cell));
            cell += 1;
        }
        out.push('\n');
    }
    out
}

/// Writes a puzzle as a TOML puzzle file that [`parse_toml`] reads back to the same puzzle.
pub fn write_toml(puzzle: &Puzzle) -> String {
    let g = puzzle.geometry();
    let mut out = String::new();
    if let Some(t) = &puzzle.title {
        out += &format!("title = {}\n", quote(t));
    }
    out += &format!("variant = \"{}\"\n", puzzle.variant());
    if puzzle.variant() != Variant::Honeycomb && puzzle.layout.size != 9 {
        out += &format!("size = {}\n", puzzle.layout.size);
    }
    if puzzle.layout.diagonals && puzzle.variant() != Variant::Diagonal {
        out += "diagonals = true\n";
    }
    if let Some(s) = &puzzle.source {
        out += &format!("source = {}\n", quote(s));
    }
    if let Some(d) = &puzzle.difficulty {
        out += &format!("difficulty = {}\n", quote(d));
    }
    out += "givens = \"\"\"\n";
    out += &grid_text(g, |c| {
        let d = puzzle.givens[c];
        if d == 0 {
            '.'
        } else {
            digit_char(d)
        }
    });
    out += "\"\"\"\n";
    if let Some(regions) = &puzzle.layout.regions {
        out += "regions = \"\"\"\n";
        out += &grid_text(g, |c| regions[c]);
        out += "\"\"\"\n";
    }
    for cage in &puzzle.layout.cages {
        let cells: Vec<String> = cage
            .cells
            .iter()
            .map(|&c| format!("\"{}\"", g.cell_name(c)))
            .collect();
        out += &format!(
            "\n[[cage]]\nsum = {}\ncells = [{}]\n",
            cage.sum,
            cells.join(", ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const JIGSAW: &str = r#"title = "J"
variant = "jigsaw"
size = 4
givens = """
1...
....
....
...2
"""
regions = """
AABB
AABB
CCDD
CCDD
"""
"#;

    #[test]
    fn jigsaw_round_trips() {
        let p = parse_toml(JIGSAW.as_bytes(), "j.toml").unwrap();
        assert_eq!(p.givens[0], 1);
        assert_eq!(p.givens[15], 2);
        let again = parse_toml(write_toml(&p).as_bytes(), "again").unwrap();
        assert_eq!(again, p);
    }

    #[test]
    fn bad_given_points_into_the_string() {
        let text = JIGSAW.replace("...2", "..x2");
        let err = parse_toml(text.as_bytes(), "j.toml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "j.toml:8:3: unexpected 'x' (expected a digit 1-4, '.' or '0')"
        );
    }

    #[test]
    fn disconnected_region_is_named() {
        let text = JIGSAW.replace("AABB\nAABB\nCCDD\nCCDD", "ABBA\nABBA\nCCDD\nCCDD");
        let err = parse_toml(text.as_bytes(), "j.toml").unwrap_err();
        assert_eq!(err.to_string(), "j.toml:11:1: region A is not connected");
    }

    #[test]
    fn crlf_and_bom_files_read_the_same() {
        let crlf = format!("\u{feff}{}", JIGSAW.replace('\n', "\r\n"));
        let p = parse_toml(crlf.as_bytes(), "j.toml").unwrap();
        assert_eq!(p, parse_toml(JIGSAW.as_bytes(), "j.toml").unwrap());
    }

    #[test]
    fn killer_errors_name_the_cage_line() {
        let text = "variant = \"killer\"\n\n[[cage]]\nsum = 3\ncells = [\"r1c1\", \"r10c2\"]\n";
        let err = parse_toml(text.as_bytes(), "k.toml").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("k.toml:5:18: cell \"r10c2\" is outside"),
            "{err}"
        );
        let text = "variant = \"killer\"\n\n[[cage]]\nsum = 30\ncells = [\"r1c1\", \"r1c2\"]\n";
        let err = parse_toml(text.as_bytes(), "k.toml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "k.toml:4:7: cage 1: sum 30 is impossible for 2 distinct digits (possible: 3..=17)"
        );
    }

    #[test]
    fn killer_cages_must_be_possible_and_connected() {
        let cage = |sum: &str, cells: &str| {
            let text =
                format!("variant = \"killer\"\n\n[[cage]]\nsum = {sum}\ncells = [{cells}]\n");
            parse_toml(text.as_bytes(), "k.toml")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            cage("-3", "\"r1c1\", \"r1c2\""),
            "k.toml:4:7: cage 1: sum -3 is impossible for 2 distinct digits (possible: 3..=17)"
        );
        assert_eq!(
            cage("4294967296", "\"r1c1\""),
            "k.toml:4:7: cage 1: sum 4294967296 is impossible for 1 distinct digits (possible: 1..=9)"
        );
        let ten: Vec<String> = (1..=9)
            .map(|c| format!("\"r1c{c}\""))
            .chain(["\"r2c1\"".to_string()])
            .collect();
        assert_eq!(
            cage("45", &ten.join(", ")),
            "k.toml:5:9: cage 1 has 10 cells, but a cage holds distinct digits (at most 9)"
        );
        assert_eq!(
            cage("10", "\"r1c1\", \"r1c2\", \"r3c3\""),
            "k.toml:5:26: cage 1 is not connected: r3c3 does not touch the cage's other cells"
        );
    }

    #[test]
    fn a_single_bracket_puzzle_table_says_what_a_collection_is() {
        let e = parse_toml(b"# mine\n[puzzle]\nvariant = \"standard\"\n", "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("c.toml:2:"), "{e}");
        assert!(e.contains("`[[puzzle]]` tables"), "{e}");
    }

    #[test]
    fn unknown_keys_and_variants_are_refused() {
        let err = parse_toml(b"variant = \"standard\"\ncolour = 1\n", "s.toml").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("s.toml:2:1: unknown field `colour`"),
            "{err}"
        );
        let err = parse_toml(b"variant = \"sudoku\"\n", "s.toml").unwrap_err();
        assert!(
            err.to_string().starts_with("s.toml:1:11: unknown variant"),
            "{err}"
        );
    }

    #[test]
    fn empty_and_binary_files_are_errors() {
        assert!(matches!(
            parse_toml(b"", "e.toml"),
            Err(ParseError::Empty { .. })
        ));
        let err = parse_toml(b"variant = \"st\xFFandard\"", "b.toml").unwrap_err();
        assert!(
            err.to_string()
                .contains("b.toml:1:14: unexpected byte 0xFF"),
            "{err}"
        );
    }

    #[test]
    fn honeycomb_rows_follow_the_hexagon() {
        let text = "variant = \"honeycomb\"\ngivens = \"\"\"\n.....\n......\n.......\n........\n.........\n........\n.......\n......\n....5\n\"\"\"\n";
        let p = parse_toml(text.as_bytes(), "h.toml").unwrap();
        assert_eq!(p.givens[60], 5);
        assert_eq!(parse_toml(write_toml(&p).as_bytes(), "h").unwrap(), p);
    }
}
