//! The puzzle collections shipped in `puzzles/`, embedded in the binary, for the player's
//! new-game menu.
//!
//! Standard, diagonal and honeycomb collections are line files: `#` header lines naming the
//! generator command, seed and rating, then one puzzle a line followed by `# level score`.
//! Jigsaw and killer need their regions and cages, so their collections are TOML files with
//! one `[[puzzle]]` table per puzzle (keys as in a TOML puzzle file, cages as
//! `[[puzzle.cage]]`); [`parse_collection`] reads them and [`write_collection`] writes them.

use super::rating::Level;
use crate::format::{self, ParseError};
pub use crate::format::{parse_collection, write_collection};
use crate::puzzle::{Puzzle, Variant};

/// One shipped file.
#[derive(Clone, Copy, Debug)]
pub struct Collection {
    pub variant: Variant,
    /// Grid side (9 for honeycomb).
    pub size: usize,
    pub level: Level,
    /// Path inside the repository, for messages.
    pub path: &'static str,
    text: &'static str,
}

macro_rules! collection {
    ($variant:ident, $level:ident, $file:literal) => {
        collection!($variant, 9, $level, $file)
    };
    ($variant:ident, $size:literal, $level:ident, $file:literal) => {
        Collection {
            variant: Variant::$variant,
            size: $size,
            level: Level::$level,
            path: concat!("puzzles/", $file),
            text: include_str!(concat!("../../puzzles/", $file)),
        }
    };
}

static COLLECTIONS: &[Collection] = &[
    collection!(Standard, Easy, "standard-easy.txt"),
    collection!(Standard, Medium, "standard-medium.txt"),
    collection!(Standard, Hard, "standard-hard.txt"),
    collection!(Standard, Unfair, "standard-unfair.txt"),
    collection!(Standard, Extreme, "standard-extreme.txt"),
    collection!(Diagonal, Easy, "diagonal-easy.txt"),
    collection!(Diagonal, Medium, "diagonal-medium.txt"),
    collection!(Diagonal, Hard, "diagonal-hard.txt"),
    collection!(Diagonal, Unfair, "diagonal-unfair.txt"),
    collection!(Diagonal, Extreme, "diagonal-extreme.txt"),
    collection!(Honeycomb, Easy, "honeycomb-easy.txt"),
    collection!(Honeycomb, Medium, "honeycomb-medium.txt"),
    collection!(Honeycomb, Hard, "honeycomb-hard.txt"),
    collection!(Honeycomb, Unfair, "honeycomb-unfair.txt"),
    collection!(Honeycomb, Extreme, "honeycomb-extreme.txt"),
    collection!(Jigsaw, Easy, "jigsaw-easy.toml"),
    collection!(Jigsaw, Medium, "jigsaw-medium.toml"),
    collection!(Jigsaw, Hard, "jigsaw-hard.toml"),
    collection!(Jigsaw, Unfair, "jigsaw-unfair.toml"),
    collection!(Jigsaw, Extreme, "jigsaw-extreme.toml"),
    collection!(Killer, Easy, "killer-easy.toml"),
    collection!(Killer, Medium, "killer-medium.toml"),
    collection!(Killer, Hard, "killer-hard.toml"),
    collection!(Killer, Unfair, "killer-unfair.toml"),
    collection!(Killer, Extreme, "killer-extreme.toml"),
    // Other sizes: the levels each can reach (a 4x4 grid needs only singles, a 6x6 has
    // no extreme puzzles, a 16x16 beyond hard takes minutes each to find).
    collection!(Standard, 4, Easy, "standard-4x4-easy.txt"),
    collection!(Standard, 6, Easy, "standard-6x6-easy.txt"),
    collection!(Standard, 6, Medium, "standard-6x6-medium.txt"),
    collection!(Standard, 6, Hard, "standard-6x6-hard.txt"),
    collection!(Standard, 6, Unfair, "standard-6x6-unfair.txt"),
    collection!(Standard, 16, Easy, "standard-16x16-easy.txt"),
    collection!(Standard, 16, Medium, "standard-16x16-medium.txt"),
    collection!(Standard, 16, Hard, "standard-16x16-hard.txt"),
];

/// Every shipped collection.
pub fn collections() -> &'static [Collection] {
    COLLECTIONS
}

impl Collection {
    /// The puzzles of this collection.
    pub fn puzzles(&self) -> Result<Vec<Puzzle>, ParseError> {
        if self.path.ends_with(".toml") {
            parse_collection(self.text, self.path)
        } else {
            let mut out = Vec::new();
            for (i, line) in self.text.lines().enumerate() {
                if let Some(p) =
                    format::parse_line(line.as_bytes(), self.variant, self.path, i + 1)?
                {
                    out.push(p);
                }
            }
            Ok(out)
        }
    }
}

/// The shipped 9x9 collection for a variant and level.
pub fn collection(variant: Variant, level: Level) -> Option<&'static Collection> {
    COLLECTIONS
        .iter()
        .find(|c| c.variant == variant && c.size == 9 && c.level == level)
}

/// All shipped puzzles of a variant and level (empty when there are none).
pub fn shipped(variant: Variant, level: Level) -> Vec<Puzzle> {
    collection(variant, level)
        .and_then(|c| c.puzzles().ok())
        .unwrap_or_default()
}

/// The `index`-th shipped puzzle of a variant and level, if there is one.
pub fn pick(variant: Variant, level: Level, index: usize) -> Option<Puzzle> {
    shipped(variant, level).into_iter().nth(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rating::{rate_within, Bounded};
    use crate::solver::exact;

    #[test]
    fn collections_round_trip() {
        let c = collection(Variant::Killer, Level::Hard).unwrap();
        let puzzles = c.puzzles().unwrap();
        let again = parse_collection(&write_collection(&puzzles), "t").unwrap();
        assert_eq!(puzzles, again);
    }

    #[test]
    fn collection_errors_name_the_line() {
        let text = "# header\n[[puzzle]]\nvariant = \"jigsaw\"\ngivens = \"\"\"\n12\n\"\"\"\n";
        let e = parse_collection(text, "c.toml").unwrap_err().to_string();
        assert!(e.starts_with("c.toml:"), "{e}");
    }

    /// Every shipped puzzle: parses, has one solution, and rates at its collection's level
    /// (the rater is recomputed, so a rater change that moves a puzzle shows up here). The
    /// bounded rating gives the same verdict as the full one (a rating only grows along the
    /// path) without solving extreme puzzles to the end: "extreme" is "above unfair".
    #[test]
    fn every_shipped_puzzle_is_unique_and_at_its_level() {
        let mut wrong = Vec::new();
        // Other sizes have their own test (`sized_collections`), without the costly rating.
        for c in collections().iter().filter(|c| c.size == 9) {
            let puzzles = c.puzzles().unwrap_or_else(|e| panic!("{e}"));
            assert!(
                !puzzles.is_empty() || c.level == Level::Extreme,
                "{} is empty",
                c.path
            );
            for (i, p) in puzzles.iter().enumerate() {
                assert_eq!(p.variant(), c.variant, "{} #{}", c.path, i + 1);
                let solved = exact::solve(p, 2);
                assert_eq!(solved.count, 1, "{} #{}", c.path, i + 1);
                let solution = solved.first.expect("a unique puzzle has its solution");
                let bound = c.level.min(Level::Unfair);
                let rated = match rate_within(p, &solution, bound) {
                    Bounded::Within(r) => Some(r.level),
                    Bounded::Above => None,
                };
                let at_level = match rated {
                    Some(level) => level == c.level,
                    None => c.level == Level::Extreme,
                };
                if !at_level {
                    let got = rated.map_or("above unfair".to_string(), |l| l.to_string());
                    wrong.push(format!("{} #{}: rated {got}", c.path, i + 1));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} puzzles off their level:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn pick_draws_from_the_collection() {
        let p = pick(Variant::Standard, Level::Easy, 0).unwrap();
        assert_eq!(p.variant(), Variant::Standard);
        assert!(pick(Variant::Standard, Level::Easy, 100_000).is_none());
    }
}
