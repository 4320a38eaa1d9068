//! f-puzzles JSON, the format of the f-puzzles editor that SudokuPad also opens: a file, or
//! the lz-string base64 payload of a share link (`f-puzzles.com/?load=...`,
//! `sudokupad.app/fpuzzles...`). termdoku reads and writes `size`, the givens
//! (`grid[r][c].value` with `given`), `diagonal+` with `diagonal-`, `killercage` and jigsaw
//! `regions` (`grid[r][c].region`); any other rule is an error that names it.

use super::{line_col, ParseError, Pos};
use crate::geometry::square::CageSpec;
use crate::geometry::Shape;
use crate::puzzle::{Layout, Puzzle, Variant};
use serde_json::{json, Map, Value};

/// Fields that describe the puzzle without adding a rule, or are the editor's settings.
const HARMLESS: [&str; 8] = [
    "activeConstraints",
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
];

/// f-puzzles rules and drawings termdoku does not play, with what they are.
const UNSUPPORTED: [(&str, &str); 35] = [
    ("antiking", "anti-king"),
    ("antiknight", "anti-knight"),
    ("disjointgroups", "disjoint groups"),
    ("nonconsecutive", "non-consecutive"),
    ("arrow", "arrows"),
    ("betweenline", "between lines"),
    ("clock", "clock lines"),
    ("clone", "clones"),
    ("difference", "difference (white) dots"),
    ("ratio", "ratio (black) dots"),
    ("even", "even cells"),
    ("odd", "odd cells"),
    ("extraregion", "extra regions"),
    ("littlekillersum", "little killer sums"),
    ("maximum", "maximum cells"),
    ("minimum", "minimum cells"),
    ("palindrome", "palindromes"),
    ("quadruple", "quadruples"),
    ("regionSumLine", "region sum lines"),
    ("renban", "renban lines"),
    ("whispers", "whisper lines"),
    ("sandwichsum", "sandwich sums"),
    ("sumdot(intersection)", "sum dots"),
    ("thermometer", "thermometers"),
    ("xv", "XV pairs"),
    ("xsum", "X-sums"),
    ("skyscraper", "skyscrapers"),
    ("entropicline", "entropic lines"),
    ("lockout", "lockout lines"),
    (
        "negative",
        "a negative constraint (every pair without a mark is not one)",
    ),
    ("cage", "drawn cages (their meaning is in the rules text)"),
    ("line", "drawn lines (their meaning is in the rules text)"),
    ("circle", "drawn circles"),
    ("rectangle", "drawn rectangles"),
    ("text", "drawn text"),
];

/// The longest share-link payload read: ten times a 16x16 puzzle's, and it bounds the work
/// of decompressing (lz-string output can grow with the square of its input: the worst
/// payload of this length, a run of one character, decompresses to 8.5 million characters).
pub const MAX_PAYLOAD: usize = 8 * 1024;

/// Where errors point: inside a JSON file, or at the link an argument holds.
enum At<'a> {
    Json { text: &'a str, file: &'a str },
    Link(Pos),
}

impl At<'_> {
    /// The place of `"key"` in the JSON (its first occurrence), else the start.
    fn key(&self, key: &str) -> Pos {
        match self {
            At::Json { text, file } => {
                let offset = text.find(&format!("\"{key}\"")).unwrap_or(0);
                let (line, col) = line_col(text, offset);
                Pos {
                    file: file.to_string(),
                    line,
                    col,
                }
            }
            At::Link(pos) => pos.clone(),
        }
    }

    fn error(&self, key: &str, message: impl Into<String>) -> ParseError {
        ParseError::Invalid {
            pos: self.key(key),
            message: message.into(),
        }
    }
}

/// Whether a field sets anything: not false, null, 0, "", [] or {}.
fn is_set(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

const PLAYED: &str = "termdoku plays the givens, diagonal+ with diagonal-, killercage and regions";

/// Reads an f-puzzles JSON file.
pub fn parse_fpuzzles(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let at = At::Json { text, file };
    let value: Value = serde_json::from_str(text).map_err(|e| ParseError::Invalid {
        pos: Pos {
            file: file.to_string(),
            line: e.line().max(1),
            col: e.column().max(1),
        },
        message: format!("not f-puzzles JSON: {e}"),
    })?;
    from_value(&value, &at)
}

fn from_value(value: &Value, at: &At) -> Result<Puzzle, ParseError> {
    let Some(obj) = value.as_object() else {
        return Err(at.error(
            "",
            "not f-puzzles JSON: expected an object with `size` and `grid`",
        ));
    };
    check_fields(obj, at)?;
    let size = match obj.get("size").and_then(Value::as_u64) {
        Some(n) if [4, 6, 9, 16].contains(&n) => n as usize,
        Some(n) => {
            return Err(at.error(
                "size",
                format!("size {n} is not supported (expected 4, 6, 9 or 16)"),
            ))
        }
        None => return Err(at.error("", "no `size` (expected 4, 6, 9 or 16)")),
    };
    let (givens, regions) = read_grid(obj, size, at)?;
    let cages = read_cages(obj, size, at)?;
    let plus = obj.get("diagonal+").is_some_and(is_set);
    let minus = obj.get("diagonal-").is_some_and(is_set);
    if plus != minus {
        let (on, off) = if plus {
            ("diagonal+", "diagonal-")
        } else {
            ("diagonal-", "diagonal+")
        };
        return Err(at.error(
            on,
            format!("\"{on}\" without \"{off}\": termdoku plays the two diagonals together"),
        ));
    }
    let variant = match (&regions, cages.is_empty()) {
        (Some(_), false) => {
            return Err(at.error(
                "killercage",
                "killercage with jigsaw regions: termdoku has no jigsaw killer",
            ))
        }
        (None, false) => Variant::Killer,
        (Some(_), true) => Variant::Jigsaw,
        (None, true) if plus => Variant::Diagonal,
        (None, true) => Variant::Standard,
    };
    let mut layout = Layout::new(variant, size);
    layout.diagonals = plus;
    layout.regions = regions;
    layout.cages = cages;
    let key = match variant {
        Variant::Killer => "killercage",
        _ => "grid",
    };
    let mut puzzle = Puzzle::new(layout, givens).map_err(|e| at.error(key, e.to_string()))?;
    puzzle.title = obj
        .get("title")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from);
    Ok(puzzle)
}

/// Every top-level field is one termdoku plays, or harmless, or unset.
fn check_fields(obj: &Map<String, Value>, at: &At) -> Result<(), ParseError> {
    for (key, v) in obj {
        let k = key.as_str();
        if matches!(
            k,
            "size" | "grid" | "diagonal+" | "diagonal-" | "killercage"
        ) || HARMLESS.contains(&k)
            || !is_set(v)
        {
            continue;
        }
        return Err(match UNSUPPORTED.iter().find(|(name, _)| *name == k) {
            Some((_, what)) => at.error(
                k,
                format!(
                    "f-puzzles constraint \"{k}\" ({what}) is not played by termdoku: {PLAYED}"
                ),
            ),
            None => at.error(k, format!("unknown f-puzzles constraint \"{k}\": {PLAYED}")),
        });
    }
    Ok(())
}

/// The givens and, when any cell names one, the region of every cell (jigsaw) unless they
/// are the boxes.
type GridParts = (Vec<u8>, Option<Vec<char>>);

fn read_grid(obj: &Map<String, Value>, size: usize, at: &At) -> Result<GridParts, ParseError> {
    let bad = |m: String| at.error("grid", m);
    let rows = obj
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no `grid` (expected rows of cells)".into()))?;
    if rows.len() != size {
        return Err(bad(format!(
            "`grid` has {} rows, expected {size}",
            rows.len()
        )));
    }
    let (br, bc) = crate::geometry::square::box_dims(size).map_err(|e| bad(e.to_string()))?;
    let mut givens = vec![0u8; size * size];
    let mut region = vec![0usize; size * size];
    let mut any_region = false;
    for (r, row) in rows.iter().enumerate() {
        let cells = row
            .as_array()
            .filter(|c| c.len() == size)
            .ok_or_else(|| bad(format!("`grid` row {} is not {size} cells", r + 1)))?;
        for (c, cell) in cells.iter().enumerate() {
            let i = r * size + c;
            let name = format!("R{}C{}", r + 1, c + 1);
            region[i] = (r / br) * (size / bc) + c / bc;
            let Some(fields) = cell.as_object() else {
                if cell.is_null() {
                    continue;
                }
                return Err(bad(format!("cell {name} is not an object")));
            };
            // Colours and a player's pencil marks are left aside; given candidates are a rule.
            if fields.get("givenPencilMarks").is_some_and(is_set) {
                return Err(bad(format!(
                    "cell {name}: \"givenPencilMarks\" (given candidates) are not played by termdoku"
                )));
            }
            let given = fields.get("given").and_then(Value::as_bool) == Some(true);
            match fields.get("value") {
                // A digit without `given` is a player's entry, not part of the puzzle.
                Some(v) if given => match v.as_u64() {
                    Some(d) if (1..=size as u64).contains(&d) => givens[i] = d as u8,
                    _ => {
                        return Err(bad(format!(
                            "cell {name}: value {v} is not a digit 1-{size}"
                        )))
                    }
                },
                _ => {}
            }
            if let Some(v) = fields.get("region").filter(|v| !v.is_null()) {
                match v.as_u64() {
                    Some(n) if (n as usize) < size => {
                        region[i] = n as usize;
                        any_region = true;
                    }
                    _ => {
                        return Err(bad(format!(
                            "cell {name}: region {v} is not 0-{}",
                            size - 1
                        )))
                    }
                }
            }
        }
    }
    let boxes =
        (0..size * size).all(|i| region[i] == (i / size / br) * (size / bc) + i % size / bc);
    let regions = (any_region && !boxes)
        .then(|| region.iter().map(|&n| char::from(b'A' + n as u8)).collect());
    Ok((givens, regions))
}

fn read_cages(obj: &Map<String, Value>, size: usize, at: &At) -> Result<Vec<CageSpec>, ParseError> {
    let Some(list) = obj.get("killercage").filter(|v| is_set(v)) else {
        return Ok(Vec::new());
    };
    let bad = |m: String| at.error("killercage", m);
    let list = list
        .as_array()
        .ok_or_else(|| bad("`killercage` is not a list".into()))?;
    let names = crate::geometry::square::standard(size).map_err(|e| bad(e.to_string()))?;
    let mut cages = Vec::with_capacity(list.len());
    for (n, cage) in list.iter().enumerate() {
        let n = n + 1;
        let sum = match cage.get("value") {
            Some(Value::String(s)) => s.trim().parse::<u32>().ok(),
            Some(Value::Number(x)) => x.as_u64().and_then(|x| u32::try_from(x).ok()),
            _ => None,
        };
        let Some(sum) = sum else {
            return Err(bad(format!(
                "killercage {n} has no sum: termdoku's cages each carry one"
            )));
        };
        let cells = cage
            .get("cells")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(format!("killercage {n} has no `cells`")))?;
        let mut out = Vec::with_capacity(cells.len());
        for c in cells {
            let cell = c.as_str().and_then(|s| names.parse_cell(s)).ok_or_else(|| {
                bad(format!(
                    "killercage {n}: cell {c} is outside the {size}x{size} grid (expected R1C1..R{size}C{size})"
                ))
            })?;
            out.push(cell);
        }
        cages.push(CageSpec { sum, cells: out });
    }
    Ok(cages)
}

/// The f-puzzles JSON of a square puzzle.
pub fn to_fpuzzles(puzzle: &Puzzle) -> Result<Value, String> {
    let g = puzzle.geometry();
    let Shape::Square { size, .. } = g.shape() else {
        return Err(format!(
            "f-puzzles has no {} grid: only square variants export to it",
            puzzle.variant()
        ));
    };
    let labels: Option<Vec<char>> = puzzle.layout.regions.as_ref().map(|r| {
        let mut l = r.clone();
        l.sort_unstable();
        l.dedup();
        l
    });
    let mut grid = Vec::with_capacity(size);
    for r in 0..size {
        let mut row = Vec::with_capacity(size);
        for c in 0..size {
            let i = r * size + c;
            let mut cell = Map::new();
            if puzzle.givens[i] != 0 {
                cell.insert("value".into(), json!(puzzle.givens[i]));
                cell.insert("given".into(), json!(true));
            }
            if let (Some(regions), Some(labels)) = (&puzzle.layout.regions, &labels) {
                let n = labels.iter().position(|&x| x == regions[i]).unwrap_or(0);
                cell.insert("region".into(), json!(n));
            }
            row.push(Value::Object(cell));
        }
        grid.push(Value::Array(row));
    }
    let mut out = Map::new();
    out.insert("size".into(), json!(size));
    if let Some(t) = &puzzle.title {
        out.insert("title".into(), json!(t));
    }
    out.insert("grid".into(), Value::Array(grid));
    if puzzle.layout.diagonals {
        out.insert("diagonal+".into(), json!(true));
        out.insert("diagonal-".into(), json!(true));
    }
    if !puzzle.layout.cages.is_empty() {
        let cages: Vec<Value> = puzzle
            .layout
            .cages
            .iter()
            .map(|cage| {
                let cells: Vec<String> = cage
                    .cells
                    .iter()
                    .map(|&c| format!("R{}C{}", c / size + 1, c % size + 1))
                    .collect();
                json!({"cells": cells, "value": cage.sum.to_string()})
            })
            .collect();
        out.insert("killercage".into(), Value::Array(cages));
    }
    Ok(Value::Object(out))
}

/// The share links of a puzzle: f-puzzles' and SudokuPad's, on the same payload.
pub fn share_links(puzzle: &Puzzle) -> Result<[String; 2], String> {
    let payload = lz_str::compress_to_base64(&to_fpuzzles(puzzle)?.to_string());
    Ok([
        format!("https://f-puzzles.com/?load={payload}"),
        format!("https://sudokupad.app/fpuzzles{payload}"),
    ])
}

/// Whether an argument is meant as a share link (or a bare f-puzzles payload) rather than a
/// puzzle line or a path.
pub fn is_link(arg: &str) -> bool {
    let t = arg.trim();
    let lower = t.to_ascii_lowercase();
    lower.starts_with("http://")
        || lower.starts_with("https://")
        || ["f-puzzles.com", "sudokupad.app", "crackingthecryptic.com"]
            .iter()
            .any(|host| lower.starts_with(host) || lower.starts_with(&format!("www.{host}")))
        // Every f-puzzles payload opens with `{"`, which lz-string writes as `N4Ig`.
        || t.starts_with("N4Ig") && !t.contains(char::is_whitespace)
}

/// Undoes the percent-encoding a link may have picked up (`%2B` for `+`, ...); a `+` that a
/// form decoder turned into a space is put back.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |x: u8| char::from(x).to_digit(16);
        match (
            b[i],
            b.get(i + 1).copied().and_then(hex),
            b.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b' ', _, _) => {
                out.push(b'+');
                i += 1;
            }
            (x, _, _) => {
                out.push(x);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The f-puzzles payload a link carries, or why it carries none.
fn link_payload(link: &str) -> Result<String, String> {
    let t = link.trim();
    if t.starts_with("N4Ig") {
        return Ok(t.to_string());
    }
    let lower = t.to_ascii_lowercase();
    let rest = lower
        .split_once("://")
        .map_or(lower.as_str(), |x| x.1)
        .trim_start_matches("www.");
    // Offsets in `lower` match `t`: lowercasing ASCII keeps byte positions.
    let from = t.len() - rest.len();
    let original = &t[from..];
    let (host, path) = original.split_once('/').unwrap_or((original, ""));
    let host = host.to_ascii_lowercase();
    if host == "f-puzzles.com" {
        let query = path.split_once('?').map_or("", |x| x.1);
        for pair in query.split('&') {
            if let Some(p) = pair.strip_prefix("load=") {
                return Ok(percent_decode(p.split('#').next().unwrap_or(p)));
            }
            if pair.starts_with("id=") {
                return Err("an f-puzzles short link (?id=) names a puzzle kept on its server: termdoku reads ?load= links, which carry the puzzle".into());
            }
        }
        return Err("an f-puzzles link without ?load= carries no puzzle".into());
    }
    if host.ends_with("sudokupad.app") || host.ends_with("crackingthecryptic.com") {
        let mut id = path;
        if let Some((_, q)) = path.split_once("puzzleid=") {
            id = q;
        } else {
            id = id.split('?').next().unwrap_or(id);
            for prefix in ["sudoku/", "puzzle/"] {
                id = id.strip_prefix(prefix).unwrap_or(id);
            }
        }
        let id = percent_decode(id.split(['&', '#']).next().unwrap_or(id));
        if let Some(p) = id.strip_prefix("fpuzzles") {
            return Ok(p.to_string());
        }
        for own in ["scl", "ctc"] {
            if id.starts_with(own) {
                return Err(format!(
                    "this SudokuPad link is in SudokuPad's own format ({own}), not an f-puzzles payload: termdoku reads sudokupad.app/fpuzzles... links"
                ));
            }
        }
        if id.is_empty() {
            return Err("this SudokuPad link names no puzzle".into());
        }
        return Err(format!(
            "\"{id}\" is a SudokuPad short id, kept on SudokuPad's server, not an f-puzzles payload: termdoku reads sudokupad.app/fpuzzles... links, which carry the puzzle"
        ));
    }
    Err(format!(
        "\"{host}\" is neither an f-puzzles nor a SudokuPad link"
    ))
}

/// Reads the puzzle a share link carries. `pos` is where the link is, for errors.
pub fn parse_link(link: &str, pos: Pos) -> Result<Puzzle, ParseError> {
    let bad = |m: String| ParseError::Invalid {
        pos: pos.clone(),
        message: m,
    };
    let payload = link_payload(link).map_err(bad)?;
    if payload.len() > MAX_PAYLOAD {
        return Err(bad(format!(
            "the link's payload has {} characters, more than the {MAX_PAYLOAD} termdoku reads",
            payload.len()
        )));
    }
    let json = lz_str::decompress_from_base64(&payload)
        .filter(|w| !w.is_empty())
        .and_then(|w| String::from_utf16(&w).ok())
        .ok_or_else(|| {
            bad("the link's payload does not decompress (expected lz-string base64 of f-puzzles JSON)".into())
        })?;
    let value: Value = serde_json::from_str(&json)
        .map_err(|e| bad(format!("the link's payload is not f-puzzles JSON: {e}")))?;
    from_value(&value, &At::Link(pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos() -> Pos {
        Pos {
            file: "<arg>".into(),
            line: 1,
            col: 1,
        }
    }

    #[test]
    fn a_thermometer_is_named_at_its_line() {
        let text = "{\"size\": 4,\n \"grid\": [[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],\n \"thermometer\": [{\"lines\": [[\"R1C1\",\"R1C2\"]]}]}";
        let e = parse_fpuzzles(text, "t.json").unwrap_err().to_string();
        assert!(
            e.starts_with("t.json:3:2: f-puzzles constraint \"thermometer\""),
            "{e}"
        );
    }

    #[test]
    fn unset_constraints_and_player_digits_are_ignored() {
        let text = r#"{"size":4,"antiknight":false,"arrow":[],"grid":[[{"value":1,"given":true},{"value":2},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"c":"white"}]]}"#;
        let p = parse_fpuzzles(text, "t").unwrap();
        assert_eq!(p.variant(), Variant::Standard);
        assert_eq!(&p.givens[..3], &[1, 0, 0]);
    }

    #[test]
    fn short_ids_and_scl_links_say_what_they_are() {
        let e = parse_link("https://sudokupad.app/abc123xyz", pos())
            .unwrap_err()
            .to_string();
        assert!(e.contains("short id"), "{e}");
        let e = parse_link("https://sudokupad.app/sclN4IgzglgXg", pos())
            .unwrap_err()
            .to_string();
        assert!(e.contains("own format (scl)"), "{e}");
        let e = parse_link("https://f-puzzles.com/?id=y3j5nb", pos())
            .unwrap_err()
            .to_string();
        assert!(e.contains("short link"), "{e}");
        let e = parse_link("https://f-puzzles.com/?load=1234", pos())
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not decompress"), "{e}");
    }

    #[test]
    fn a_one_diagonal_puzzle_is_refused_by_name() {
        let text = r#"{"size":4,"diagonal-":true,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        let e = parse_fpuzzles(text, "t").unwrap_err().to_string();
        assert!(e.contains("\"diagonal-\" without \"diagonal+\""), "{e}");
    }
}
