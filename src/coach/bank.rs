//! The drill bank (`puzzles/drills.jsonl`), embedded in the binary like the other shipped
//! collections, so an installed `termdoku` trains without the repository beside it.
//!
//! Only each line's technique and variant are read up front (once); a drill's position is
//! read when it is opened.

use crate::coach::marks;
use crate::format;
use crate::puzzle::{Grid, Puzzle, Variant};
use serde::Deserialize;
use std::sync::OnceLock;

/// The bank's text: a header line, then one drill a line.
const BANK: &str = include_str!("../../puzzles/drills.jsonl");

/// One line of the bank, not yet read beyond its technique and variant.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub technique: &'static str,
    pub variant: Variant,
    /// 1-based line number in the bank (for messages).
    pub line: usize,
    text: &'static str,
}

/// A drill's position, ready to play.
#[derive(Clone, Debug)]
pub struct Opened {
    pub puzzle: Puzzle,
    /// Entries placed after the givens (0 = none).
    pub placed: Vec<u8>,
    pub grid: Grid,
    pub solution: Vec<u8>,
}

#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    technique: &'a str,
    #[serde(borrow)]
    variant: &'a str,
}

#[derive(Deserialize)]
struct Full {
    puzzle: String,
    placed: String,
    marks: String,
}

fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        BANK.lines()
            .enumerate()
            .skip(1)
            .filter_map(|(i, text)| {
                let head: Head = serde_json::from_str(text).ok()?;
                Some(Entry {
                    technique: head.technique,
                    variant: Variant::parse(head.variant)?,
                    line: i + 1,
                    text,
                })
            })
            .collect()
    })
}

/// The bank's drills of one technique on one variant, in bank order.
pub fn drills(technique: &str, variant: Variant) -> Vec<Entry> {
    entries()
        .iter()
        .filter(|e| e.technique == technique && e.variant == variant)
        .copied()
        .collect()
}

/// How many drills the bank has for a technique on a variant.
pub fn count(technique: &str, variant: Variant) -> usize {
    entries()
        .iter()
        .filter(|e| e.technique == technique && e.variant == variant)
        .count()
}

impl Entry {
    /// Reads the drill's puzzle and position; the error names the bank's line.
    pub fn open(&self) -> Result<Opened, String> {
        let at = format!("puzzles/drills.jsonl line {}", self.line);
        let full: Full = serde_json::from_str(self.text).map_err(|e| format!("{at}: {e}"))?;
        let puzzle = if full.puzzle.contains('\n') {
            format::parse_toml(full.puzzle.as_bytes(), &at).map_err(|e| e.to_string())?
        } else {
            format::parse_line(full.puzzle.as_bytes(), self.variant, &at, self.line)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{at}: no puzzle"))?
        };
        let pos = marks::read_position(
            Some(&puzzle),
            Some((&full.marks, &at)),
            Some((&full.placed, &at)),
        )
        .map_err(|e| e.to_string())?;
        let solution = pos.solution().map_err(|e| format!("{at}: {e}"))?;
        Ok(Opened {
            puzzle: pos.puzzle,
            placed: pos.placed,
            grid: pos.grid,
            solution,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_bank_has_x_wings_that_open() {
        let list = drills("x-wing", Variant::Standard);
        assert_eq!(list.len(), 20);
        assert_eq!(count("x-wing", Variant::Standard), 20);
        let d = list[0].open().unwrap();
        assert_eq!(d.solution.len(), 81);
        assert!(count("no-such-technique", Variant::Standard) == 0);
    }
}
