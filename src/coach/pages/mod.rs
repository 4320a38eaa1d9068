//! Technique pages: what a pattern is, why its removal holds, how to spot it (the words in
//! `text.rs`), drawn on a real position from the drill bank with the step's roles marked.
//!
//! The positions are one drill per technique copied from `puzzles/drills.jsonl` into
//! `examples.jsonl` (embedded, so an installed binary has them). After the bank is
//! regenerated, refresh them with:
//! `awk -F'"technique":"' 'NR>1{split($NF,a,"\""); if(!(a[1] in s)){s[a[1]]=1; print}}'
//! puzzles/drills.jsonl > src/coach/pages/examples.jsonl`
//! (the first drill of each technique; a test checks each is still that technique's step).

mod text;

pub use text::PageText;

use super::marks::{self, Position};
use crate::format;
use crate::geometry::{digit_char, Cell, Shape};
use crate::puzzle::Variant;
use crate::solver::logic::{self, Candidate, Role, Step, Target};

const EXAMPLES: &str = include_str!("examples.jsonl");

/// The page of a technique id (every row of the technique table has one).
pub fn page(id: &str) -> Option<&'static PageText> {
    text::PAGES.iter().find(|p| p.id == id)
}

/// A technique's example: a drill position and the step the technique takes there.
#[derive(Clone, Debug)]
pub struct Example {
    pub variant: Variant,
    pub position: Position,
    pub step: Step,
}

/// The example position of a technique, when the bank has one.
pub fn example(id: &str) -> Option<Example> {
    let line = EXAMPLES.lines().find(|l| technique_of(l) == Some(id))?;
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let variant = Variant::parse(v["variant"].as_str()?)?;
    let text = v["puzzle"].as_str()?;
    let puzzle = match variant {
        Variant::Jigsaw | Variant::Killer => {
            format::parse_toml(text.as_bytes(), "examples").ok()?
        }
        _ => format::parse_line(text.as_bytes(), variant, "examples", 1).ok()??,
    };
    let position = marks::read_position(
        Some(&puzzle),
        Some((v["marks"].as_str()?, "examples")),
        Some((v["placed"].as_str()?, "examples")),
    )
    .ok()?;
    let steps = logic::find_all(&position.grid, id);
    // The instance the bank recorded, else the first one found.
    let want: Vec<String> = v["step"]["eliminations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some(format!("{}:{}", e["cell"].as_str()?, e["digit"].as_u64()?)))
        .collect();
    let g = position.grid.geometry_arc();
    let names = |s: &Step| -> Vec<String> {
        s.eliminations
            .iter()
            .map(|c| format!("{}:{}", g.cell_name(c.cell), c.digit))
            .collect()
    };
    let pick = steps.iter().position(|s| names(s) == want).unwrap_or(0);
    let step = steps.into_iter().nth(pick)?;
    Some(Example {
        variant,
        position,
        step,
    })
}

/// The outer `technique` of a bank line (keys are sorted, so it is the last one).
fn technique_of(line: &str) -> Option<&str> {
    let rest = line.rsplit("\"technique\":\"").next()?;
    rest.split('"').next()
}

/// The marker written after a highlighted digit, by role (plain text keeps every role
/// readable without colour).
pub fn marker(role: Role) -> char {
    match role {
        Role::Defining | Role::Base => '*',
        Role::Cover => '=',
        Role::Fin => '~',
        Role::Pivot => '^',
        Role::Pincer => '>',
        Role::ColorA => 'a',
        Role::ColorB => 'b',
        Role::Placement => '+',
        Role::Elimination => '-',
    }
}

/// What the markers mean, for the line under a drawn board.
pub const LEGEND: &str =
    "* pattern  = cover  ~ fin  ^ pivot  > pincer  a/b colours  + placed  - removed";

/// A piece of a drawn board line, with the role that styles it.
pub type Span = (String, Option<Role>);

/// The role shown on a candidate: eliminations and placements win over the roles of the
/// pattern, and a candidate's own role over its cell's.
fn role_of(step: &Step, c: Candidate) -> Option<Role> {
    if step.eliminations.contains(&c) {
        return Some(Role::Elimination);
    }
    if step.placements.contains(&c) {
        return Some(Role::Placement);
    }
    let own = step.highlights.iter().find_map(|h| match h.target {
        Target::Candidate(x) if x == c => Some(h.role),
        Target::Link(a, b, _) if a == c || b == c => Some(Role::Defining),
        _ => None,
    });
    own.or_else(|| cell_role(step, c.cell))
}

fn cell_role(step: &Step, cell: Cell) -> Option<Role> {
    step.highlights.iter().find_map(|h| match h.target {
        Target::Cell(x) if x == cell => Some(h.role),
        _ => None,
    })
}

/// Draws a position as lines of spans: each cell a small block with its candidates in fixed
/// places (a filled cell its digit in brackets), each highlighted digit followed by its
/// marker. Rows are labelled; square grids get column numbers and box borders; honeycomb
/// rows are offset by half a cell.
pub fn draw(pos: &Position, step: &Step) -> Vec<Vec<Span>> {
    let grid = &pos.grid;
    let g = grid.geometry();
    let n = usize::from(g.max_digit());
    let mcols = (1..=n).find(|c| c * c >= n).unwrap_or(1);
    let mrows = n.div_ceil(mcols);
    let slot = 2;
    let block = mcols * slot + 1;
    let (box_rows, box_cols) = match g.shape() {
        Shape::Square {
            box_rows, box_cols, ..
        } => (box_rows, box_cols),
        Shape::Honeycomb => (0, 0),
    };
    let rows = g.row_lengths().len();
    let inner = mcols * slot;
    let mut out = Vec::new();
    if box_cols > 0 {
        // Column numbers over the middle of each block.
        let mut head = String::from("    ");
        for col in 1..=g.row_lengths()[0] {
            if col > 1 && (col - 1) % box_cols == 0 {
                head.push_str("  ");
            }
            head.push_str(&format!("{:^inner$} ", format!("c{col}")));
        }
        out.push(vec![(head, None)]);
    }
    for r in 1..=rows {
        let len = g.row_lengths()[r - 1];
        if box_rows > 0 && r > 1 && (r - 1) % box_rows == 0 {
            let width = len * block + (len - 1) / box_cols * 2;
            out.push(vec![(format!("    {}", "-".repeat(width)), None)]);
        }
        for line in 0..mrows {
            let label = if line == mrows / 2 {
                format!("r{r:<3}")
            } else {
                "    ".to_string()
            };
            let mut spans: Vec<Span> = vec![(label, None)];
            if box_rows == 0 {
                let longest = g.row_lengths().iter().copied().max().unwrap_or(0);
                spans.push((" ".repeat((longest - len) * block / 2), None));
            }
            for col in 1..=len {
                let Some(cell) = g.cell_at(r, col) else {
                    continue;
                };
                if box_cols > 0 && col > 1 && (col - 1) % box_cols == 0 {
                    spans.push(("| ".into(), None));
                }
                let value = grid.value(cell);
                if value != 0 {
                    // A filled cell: its digit in brackets, in the middle of its block.
                    if line == mrows / 2 {
                        let role = cell_role(step, cell);
                        let mark = role.map_or(' ', marker);
                        let text = format!("[{}]{mark}", digit_char(value));
                        spans.push((format!("{text:^inner$}"), role));
                    } else {
                        spans.push((" ".repeat(inner), None));
                    }
                } else {
                    for k in 0..mcols {
                        let d = (line * mcols + k + 1) as u8;
                        if usize::from(d) <= n && grid.candidates(cell).contains(d) {
                            let role = role_of(step, Candidate::new(cell, d));
                            let mark = role.map_or(' ', marker);
                            spans.push((format!("{}{mark}", digit_char(d)), role));
                        } else {
                            spans.push(("  ".into(), None));
                        }
                    }
                }
                spans.push((" ".into(), None));
            }
            out.push(spans);
        }
        // A blank line between rows of cells, except where a box border is drawn.
        if r < rows && (box_rows == 0 || r % box_rows != 0) {
            out.push(vec![(String::new(), None)]);
        }
    }
    out
}

/// Words wrapped to `width` columns, each line indented by `indent`.
pub fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

/// The page's three parts under their headings, wrapped to `width`.
pub fn text_lines(page: &PageText, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (head, body) in [
        ("What it is", page.pattern),
        ("Why it works", page.why),
        ("How to spot it", page.spot),
    ] {
        out.push(head.to_string());
        out.extend(wrap(body, width, "  "));
        out.push(String::new());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::logic::{techniques, Detail};

    #[test]
    fn every_technique_of_the_table_has_a_page_with_three_parts() {
        for t in techniques() {
            let p = page(t.id).unwrap_or_else(|| panic!("{} has no page", t.id));
            for part in [p.pattern, p.why, p.spot] {
                assert!(part.trim().len() > 20, "{}: a part is nearly empty", t.id);
            }
        }
        assert!(text::PAGES.iter().all(|p| logic::technique(p.id).is_some()));
        assert!(page("no-such-thing").is_none());
    }

    #[test]
    fn every_example_is_a_real_position_where_its_technique_steps() {
        let ids: Vec<&str> = EXAMPLES.lines().filter_map(technique_of).collect();
        assert!(ids.len() >= 60, "examples for {} techniques", ids.len());
        for id in ids {
            let ex = example(id).unwrap_or_else(|| panic!("{id}: example does not load"));
            assert_eq!(ex.step.id(), id);
            let sol = ex
                .position
                .solution()
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            for e in &ex.step.eliminations {
                assert_ne!(sol[e.cell], e.digit, "{id} removes a true digit");
            }
        }
    }

    #[test]
    fn an_x_wing_is_drawn_with_its_roles_marked() {
        let ex = example("x-wing").expect("the bank has an x-wing");
        let lines: Vec<String> = draw(&ex.position, &ex.step)
            .iter()
            .map(|l| l.iter().map(|s| s.0.as_str()).collect())
            .collect();
        let all = lines.join("\n");
        let d = match ex.step.pattern {
            logic::Pattern::Fish { digit, .. } => digit,
            _ => 0,
        };
        assert!(
            all.contains(&format!("{d}-")),
            "eliminations marked:\n{all}"
        );
        assert!(all.contains(&format!("{d}*")), "the fish marked:\n{all}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("    ---")).count(), 2);
        assert!(lines[0].contains("c1") && lines[0].contains("c9"), "{all}");
        assert!(all.contains("[") && all.contains("r9"), "{all}");
        assert!(ex
            .step
            .explain(ex.position.grid.geometry(), Detail::Full)
            .starts_with("X-Wing"));
    }
}
