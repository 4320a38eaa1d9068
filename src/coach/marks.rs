//! Positions with pencil marks (design.md section 3, "Pencil-mark grid"): a mark grid of one
//! whitespace-separated token per cell, row-major, each token the cell's candidate digits
//! (the digit alone for a filled cell), beside the puzzle (givens, layout) and a `--placed`
//! line of the entries made after the givens.
//!
//! The forum's 9-line layout (`|`, `-`, `+` separators) is read too. For a standard 9x9
//! grid given without a puzzle, a single-digit token is a placed cell.

use crate::format::{ParseError, Pos};
use crate::geometry::{char_digit, digit_char, Cell, Digits, Geometry, HouseKind, Rule};
use crate::puzzle::{Grid, Layout, Puzzle, Variant};
use crate::solver::exact::Prepared;

/// One token of a mark grid with where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    digits: Digits,
    /// Digits written, in order, for messages.
    text: String,
    pos: Pos,
}

/// A position: the puzzle, the entries placed after its givens, and the candidate grid the
/// solver starts from.
#[derive(Clone, Debug)]
pub struct Position {
    pub puzzle: Puzzle,
    /// Entries placed after the givens (0 = none), one per cell.
    pub placed: Vec<u8>,
    pub grid: Grid,
}

/// Characters of the forum layout's separators: a token made only of them is skipped.
fn is_separator(token: &str) -> bool {
    token
        .chars()
        .all(|c| matches!(c, '|' | '-' | '+' | '=' | '*' | ':'))
}

/// Splits a mark grid into tokens (`|` also separates), naming each token's line and
/// column; `.` and `0` are errors (a cell needs at least one candidate).
fn tokens(text: &str, file: &str, max: u8) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut start: Option<usize> = None;
        // Byte offsets of token starts and ends; `|` and whitespace end a token.
        let bytes: Vec<(usize, char)> = line.char_indices().collect();
        let mut spans = Vec::new();
        for (k, &(_, c)) in bytes.iter().enumerate() {
            let sep = c.is_whitespace() || c == '|';
            match (start, sep) {
                (None, false) => start = Some(k),
                (Some(s), true) => {
                    spans.push((s, k));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            spans.push((s, bytes.len()));
        }
        for (s, e) in spans {
            let word: String = bytes[s..e].iter().map(|&(_, c)| c).collect();
            if is_separator(&word) {
                continue;
            }
            let pos = Pos {
                file: file.to_string(),
                line: i + 1,
                col: s + 1,
            };
            let mut digits = Digits::EMPTY;
            for (k, c) in word.chars().enumerate() {
                let at = Pos {
                    col: s + k + 1,
                    ..pos.clone()
                };
                match char_digit(c).filter(|&d| d <= max) {
                    Some(d) => digits.insert(d),
                    None if c == '.' || c == '0' => {
                        return Err(ParseError::invalid(
                            at,
                            format!(
                                "'{c}' is not a candidate: a cell's token lists its candidates \
                                 (1-{}), and every cell needs at least one",
                                digit_char(max)
                            ),
                        ))
                    }
                    None => {
                        return Err(ParseError::Unexpected {
                            pos: at,
                            found: format!("'{c}'"),
                            expected: format!("a candidate digit 1-{}", digit_char(max)),
                        })
                    }
                }
            }
            out.push(Token {
                digits,
                text: word,
                pos,
            });
        }
    }
    Ok(out)
}

/// Where the grid ends, for "too few tokens": just past the last character.
fn end_pos(text: &str, file: &str) -> Pos {
    let lines: Vec<&str> = text.lines().collect();
    Pos {
        file: file.to_string(),
        line: lines.len().max(1),
        col: lines.last().map_or(0, |l| l.chars().count()) + 1,
    }
}

/// The mark grid's tokens, checked against the cell count.
fn grid_tokens(text: &str, file: &str, g: &Geometry) -> Result<Vec<Token>, ParseError> {
    let toks = tokens(text, file, g.max_digit())?;
    let n = g.cell_count();
    if toks.len() != n {
        let pos = toks
            .get(n)
            .map_or_else(|| end_pos(text, file), |t| t.pos.clone());
        return Err(ParseError::invalid(
            pos,
            format!(
                "the mark grid has {} tokens, expected {n} (one per cell, row-major)",
                toks.len()
            ),
        ));
    }
    Ok(toks)
}

/// The house two cells share, for messages.
fn shared_house(g: &Geometry, a: Cell, b: Cell) -> String {
    g.houses_of(a)
        .iter()
        .filter_map(|&h| g.houses().get(h))
        .find(|h| h.cells.contains(&b))
        .map_or_else(String::new, |h| format!(" ({})", h.name()))
}

/// The first rule the filled cells break, as a message, if any: two equal digits in a
/// house, a full cage with another sum or a cage over its sum, a full run that is not
/// consecutive.
fn broken_rule(g: &Geometry, values: &[u8], cell: Cell) -> Option<String> {
    let d = values[cell];
    if let Some(&p) = g.peers(cell).iter().find(|&&p| values[p] == d) {
        return Some(format!(
            "{} holds {} too{}",
            g.cell_name(p),
            digit_char(d),
            shared_house(g, cell, p)
        ));
    }
    for h in g.houses_of(cell).iter().filter_map(|&h| g.houses().get(h)) {
        let filled: Vec<u8> = h
            .cells
            .iter()
            .map(|&c| values[c])
            .filter(|&v| v != 0)
            .collect();
        let full = filled.len() == h.cells.len();
        let total: u32 = filled.iter().map(|&v| u32::from(v)).sum();
        match h.rule {
            Rule::Cage { sum } if total > sum || (full && total != sum) => {
                return Some(format!("{} adds up to {total}, not {sum}", h.name()))
            }
            Rule::ConsecutiveRun if full => {
                let lo = filled.iter().min().copied().unwrap_or(0);
                let hi = filled.iter().max().copied().unwrap_or(0);
                if usize::from(hi - lo) + 1 != filled.len() {
                    return Some(format!("{} is not a run of consecutive digits", h.name()));
                }
            }
            _ => {}
        }
    }
    None
}

/// The `--placed` line: one character per cell (`.` or `0` for none), whatever the
/// variant (jigsaw and killer puzzles need TOML, their entries do not); whitespace or `#`
/// may follow.
fn parse_placed(line: &str, name: &str, g: &Geometry) -> Result<Vec<u8>, ParseError> {
    let pos = |col: usize| Pos {
        file: name.to_string(),
        line: 1,
        col,
    };
    let n = g.cell_count();
    let body = line
        .trim_end()
        .split(|c: char| c == '#' || c.is_whitespace())
        .next()
        .unwrap_or("");
    let mut out = Vec::with_capacity(n);
    for (i, c) in body.chars().enumerate() {
        match c {
            '.' | '0' => out.push(0),
            _ => match char_digit(c).filter(|&d| d <= g.max_digit()) {
                Some(d) => out.push(d),
                None => {
                    return Err(ParseError::Unexpected {
                        pos: pos(i + 1),
                        found: format!("'{c}'"),
                        expected: format!("a digit 1-{} or '.'", digit_char(g.max_digit())),
                    })
                }
            },
        }
    }
    if out.len() != n {
        return Err(ParseError::WrongLength {
            pos: pos(out.len().min(n) + 1),
            found: out.len(),
            expected: format!("{n} (one per cell, '.' for none)"),
        });
    }
    Ok(out)
}

/// A `--marks` argument read: the mark grid's text and the name errors give it (the file's,
/// or `--marks` for a grid given inline). A grid has a token per cell, so one word is a
/// file's name, even a missing one (whose error then says so).
pub fn marks_argument(arg: &str) -> Result<(String, String), ParseError> {
    let word = !arg.trim().is_empty() && !arg.trim().contains(char::is_whitespace);
    if word || std::path::Path::new(arg).is_file() {
        let bytes = crate::format::read_small_file(std::path::Path::new(arg))?;
        Ok((
            String::from_utf8_lossy(&bytes).into_owned(),
            arg.to_string(),
        ))
    } else {
        Ok((arg.to_string(), "--marks".to_string()))
    }
}

/// Reads a position. `puzzle` gives the givens and layout; without it, the grid must be a
/// standard 9x9 one and every single-digit token is a placed cell. `marks` and `placed`
/// are the mark grid and the `--placed` line (line format, `.` for empty), each with the
/// name used in messages; without marks, every empty cell holds each digit its peers
/// leave.
pub fn read_position(
    puzzle: Option<&Puzzle>,
    marks: Option<(&str, &str)>,
    placed: Option<(&str, &str)>,
) -> Result<Position, ParseError> {
    let marks_file = marks.map_or("<marks>", |m| m.1);
    let puzzle = match puzzle {
        Some(p) => p.clone(),
        None => {
            let layout = Layout::new(Variant::Standard, 9);
            let n = layout.cell_count();
            Puzzle::new(layout, vec![0; n])
                .map_err(|e| ParseError::invalid(end_pos("", marks_file), e))?
        }
    };
    let bare = puzzle.given_count() == 0 && placed.is_none();
    let g = puzzle.geometry_arc();
    let toks = match marks {
        Some((text, file)) => grid_tokens(text, file, &g)?,
        None => Vec::new(),
    };
    let n = g.cell_count();
    let mut placed_values = vec![0u8; n];
    if let Some((line, name)) = placed {
        placed_values = parse_placed(line, name, &g)?;
    }
    if bare && !toks.is_empty() {
        for (c, t) in toks.iter().enumerate() {
            if let Some(d) = t.digits.single_digit() {
                placed_values[c] = d;
            }
        }
    }
    let placed_pos = |c: Cell| -> Pos {
        match placed {
            Some((_, name)) => Pos {
                file: name.to_string(),
                line: 1,
                col: c + 1,
            },
            None => toks
                .get(c)
                .map_or_else(|| end_pos("", marks_file), |t| t.pos.clone()),
        }
    };
    let mut values = puzzle.givens.clone();
    for c in 0..n {
        let d = placed_values[c];
        if d == 0 {
            continue;
        }
        match puzzle.givens[c] {
            0 => values[c] = d,
            gv if gv == d => placed_values[c] = 0,
            gv => {
                return Err(ParseError::invalid(
                    placed_pos(c),
                    format!(
                        "{} is a given ({}); it cannot hold the placed {}",
                        g.cell_name(c),
                        digit_char(gv),
                        digit_char(d)
                    ),
                ))
            }
        }
    }
    for c in 0..n {
        if placed_values[c] != 0 {
            if let Some(why) = broken_rule(&g, &values, c) {
                return Err(ParseError::invalid(
                    placed_pos(c),
                    format!(
                        "the placed {} at {} breaks a rule: {why}",
                        digit_char(values[c]),
                        g.cell_name(c)
                    ),
                ));
            }
        }
    }
    let given: Vec<bool> = puzzle.givens.iter().map(|&d| d != 0).collect();
    if toks.is_empty() {
        let grid = Grid::from_values(g, &values).with_givens(&given);
        return Ok(Position {
            puzzle,
            placed: placed_values,
            grid,
        });
    }
    let mut cands = vec![Digits::EMPTY; n];
    for (c, t) in toks.iter().enumerate() {
        let v = values[c];
        if v != 0 {
            if t.digits != Digits::single(v) {
                let what = origin(&puzzle, c);
                return Err(ParseError::invalid(
                    t.pos.clone(),
                    format!(
                        "{} holds the {what} {}, so its token should be {1}, not {2}",
                        g.cell_name(c),
                        digit_char(v),
                        t.text
                    ),
                ));
            }
            cands[c] = Digits::single(v);
            continue;
        }
        for d in t.digits.iter() {
            if let Some(&p) = g.peers(c).iter().find(|&&p| values[p] == d) {
                let what = origin(&puzzle, p);
                return Err(ParseError::invalid(
                    t.pos.clone(),
                    format!(
                        "{}: candidate {} contradicts the {what} {} at {}{}",
                        g.cell_name(c),
                        digit_char(d),
                        digit_char(d),
                        g.cell_name(p),
                        shared_house(&g, c, p)
                    ),
                ));
            }
        }
        cands[c] = t.digits;
    }
    let grid = Grid::from_parts(g, values, cands).with_givens(&given);
    Ok(Position {
        puzzle,
        placed: placed_values,
        grid,
    })
}

/// Why a position cannot be coached (exit status 1: the position, not the input, is wrong).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the givens and placed entries have no solution")]
    Unsolvable,
    #[error("the position has several solutions")]
    NotUnique,
    #[error("{cell}: the marks leave out {digit}, the solution's digit there")]
    MarkedOut { cell: String, digit: char },
}

impl Position {
    /// The one solution of the position. The givens and placed entries decide it when they
    /// have one (then every mark grid must keep the solution's digits); a bare forum grid may
    /// need its marks too.
    pub fn solution(&self) -> Result<Vec<u8>, PositionError> {
        let g = self.grid.geometry();
        let exact = Prepared::new(g);
        let values = self.grid.values();
        let found = exact.count_givens(values, 2);
        let sol = match (found.count, found.first) {
            (0, _) | (_, None) => return Err(PositionError::Unsolvable),
            (1, Some(s)) => s,
            _ => {
                let with_marks = exact.count(self.grid.all_candidates(), 2);
                match (with_marks.count, with_marks.first) {
                    (1, Some(s)) => s,
                    (0, _) => return Err(PositionError::Unsolvable),
                    _ => return Err(PositionError::NotUnique),
                }
            }
        };
        if let Some(c) =
            (0..values.len()).find(|&c| values[c] == 0 && !self.grid.candidates(c).contains(sol[c]))
        {
            return Err(PositionError::MarkedOut {
                cell: g.cell_name(c),
                digit: digit_char(sol[c]),
            });
        }
        Ok(sol)
    }
}

impl Position {
    /// A fresh game at this position: the placed entries entered and the marks pencilled
    /// in (the player starts from them).
    pub fn into_game(self) -> crate::game::Game {
        let n = self.grid.geometry().cell_count();
        let marks = (0..n)
            .map(|c| {
                if self.grid.value(c) == 0 {
                    self.grid.candidates(c)
                } else {
                    Digits::EMPTY
                }
            })
            .collect();
        let values = self.grid.values().to_vec();
        crate::game::Game::from_parts(
            self.puzzle,
            values,
            marks,
            Vec::new(),
            Vec::new(),
            0,
            0,
            crate::game::assist::Assists::default(),
        )
    }
}

/// The line of placed entries (`.` elsewhere).
pub fn placed_line(placed: &[u8]) -> String {
    placed.iter().map(|&d| digit_char(d)).collect()
}

/// A grid's marks as text: one row of the grid a line, tokens separated by spaces, the
/// digit alone for a filled cell. [`read_position`] reads it back.
pub fn write_marks(grid: &Grid) -> String {
    let g = grid.geometry();
    let mut out = String::new();
    let mut row: Option<u8> = None;
    for c in g.cells() {
        let r = g
            .houses_of(c)
            .iter()
            .find_map(|&h| match g.houses().get(h)?.kind {
                HouseKind::Row(r) => Some(r),
                _ => None,
            });
        if row.is_some() && r != row {
            out.push('\n');
        } else if row.is_some() {
            out.push(' ');
        }
        row = r;
        for d in grid.candidates(c).iter() {
            out.push(digit_char(d));
        }
    }
    out
}

/// Whether a filled cell's digit was given by the puzzle or placed after it.
fn origin(puzzle: &Puzzle, c: usize) -> &'static str {
    if puzzle.givens[c] != 0 {
        "given"
    } else {
        "placed"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::logic;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn puzzle() -> Puzzle {
        crate::format::parse_line(PUZZLE.as_bytes(), Variant::Standard, "<arg>", 1)
            .ok()
            .flatten()
            .unwrap()
    }

    fn err(p: Option<&Puzzle>, marks: &str, placed: Option<&str>) -> String {
        read_position(p, Some((marks, "<marks>")), placed.map(|l| (l, "<placed>")))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_written_position_reads_back_to_the_same_grid() {
        let p = puzzle();
        let mut grid = Grid::from_puzzle(&p);
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        let mut mem = logic::SolverMemory::new();
        for _ in 0..12 {
            let s = logic::next_step(&grid, Some(&sol), &mut mem).unwrap();
            logic::apply(&mut grid, &s);
        }
        let placed: Vec<u8> = (0..81)
            .map(|c| if p.givens[c] == 0 { grid.value(c) } else { 0 })
            .collect();
        let text = write_marks(&grid);
        assert_eq!(text.lines().count(), 9);
        let line = placed_line(&placed);
        let pos = read_position(
            Some(&p),
            Some((&text, "<marks>")),
            Some((&line, "<placed>")),
        )
        .unwrap();
        assert_eq!(pos.grid, grid);
        assert_eq!(pos.solution(), Ok(sol));
    }

    #[test]
    fn a_forum_grid_alone_reads_single_digits_as_placed() {
        let p = puzzle();
        let grid = Grid::from_puzzle(&p);
        let rows: Vec<String> = write_marks(&grid)
            .lines()
            .map(|l| format!("| {l} |"))
            .collect();
        let text = format!("+-----+\n{}\n+-----+\n", rows.join("\n"));
        let pos = read_position(None, Some((&text, "<marks>")), None).unwrap();
        assert_eq!(pos.grid.values(), grid.values());
        assert_eq!(pos.grid.all_candidates(), grid.all_candidates());
        assert_eq!(pos.placed, p.givens);
        assert!(pos.solution().is_ok());
    }

    #[test]
    fn a_given_whose_token_differs_names_the_digit_it_should_be() {
        let p = puzzle();
        let mut text = write_marks(&Grid::from_puzzle(&p));
        // r1c1 holds the given 4: its token written as 5.
        text.replace_range(0..1, "5");
        let e = err(Some(&p), &text, None);
        assert!(
            e.contains("r1c1 holds the given 4, so its token should be 4, not 5"),
            "{e}"
        );
    }

    #[test]
    fn a_game_starts_from_the_position() {
        let p = puzzle();
        let mut grid = Grid::from_puzzle(&p);
        grid.eliminate(1, 1);
        let text = write_marks(&grid);
        let pos = read_position(Some(&p), Some((&text, "m")), None).unwrap();
        let game = pos.into_game();
        assert_eq!(game.values(), grid.values());
        assert!(!game.marks(1).contains(1) && game.marks(1) == grid.candidates(1));
        assert!(game.marks(0).is_empty(), "a given has no marks");
        assert!(game.solution().is_some());
    }

    #[test]
    fn placed_entries_without_marks_clean_their_peers() {
        let p = puzzle();
        let mut line = vec!['.'; 81];
        line[1] = '1';
        let line: String = line.into_iter().collect();
        let pos = read_position(Some(&p), None, Some((&line, "p"))).unwrap();
        assert_eq!(pos.grid.value(1), 1);
        assert!(!pos.grid.is_given(1) && pos.grid.is_given(0));
        assert!(!pos.grid.candidates(2).contains(1));
        let short = &line[..80];
        let e = read_position(Some(&p), None, Some((short, "p"))).unwrap_err();
        assert!(
            e.to_string().starts_with("p:1:81: 80 cells, expected 81"),
            "{e}"
        );
    }

    #[test]
    fn bad_mark_grids_name_line_and_column() {
        let p = puzzle();
        let good = write_marks(&Grid::from_puzzle(&p));
        // One token short: the message points past the end.
        let short = good.rsplit_once(' ').unwrap().0;
        assert!(err(Some(&p), short, None).contains("80 tokens, expected 81"));
        assert!(err(Some(&p), &format!("{good} 1"), None).starts_with("<marks>:9:"));
        // An empty cell (r1c2).
        let dot = good.replacen(" ", " . ", 1);
        let e = err(Some(&p), &dot, None);
        assert!(
            e.starts_with("<marks>:1:3:") && e.contains("'.' is not a candidate"),
            "{e}"
        );
        // r1c2 lists 4, which the given r1c1 holds.
        let first_open = good.split(' ').nth(1).unwrap();
        let bad = good.replacen(first_open, &format!("4{first_open}"), 1);
        let e = err(Some(&p), &bad, None);
        assert!(
            e.contains("candidate 4 contradicts the given 4 at r1c1 (row 1)"),
            "{e}"
        );
        assert!(e.starts_with("<marks>:1:3:"), "{e}");
        // A placed 4 in r1c2 breaks row 1.
        let mut placed = vec!['.'; 81];
        placed[1] = '4';
        let placed: String = placed.into_iter().collect();
        let e = err(Some(&p), &good, Some(&placed));
        assert!(
            e.starts_with("<placed>:1:2:") && e.contains("breaks a rule"),
            "{e}"
        );
    }
}
