//! A few built-in puzzles per variant, so the player works with no `puzzles/` folder.
//! Each is checked for a unique solution by a test below.

use crate::format::parse_toml;
use crate::puzzle::{Layout, Puzzle, Variant};

const STANDARD: &str = include_str!("builtin/standard.toml");
const DIAGONAL: &str = include_str!("builtin/diagonal.toml");
const JIGSAW: &str = include_str!("builtin/jigsaw.toml");
const KILLER: &str = include_str!("builtin/killer.toml");
const HONEYCOMB: &str = include_str!("builtin/honeycomb.toml");

/// The TOML text of the built-in puzzle of a variant.
pub fn text(variant: Variant) -> &'static str {
    match variant {
        Variant::Standard => STANDARD,
        Variant::Diagonal => DIAGONAL,
        Variant::Jigsaw => JIGSAW,
        Variant::Killer => KILLER,
        Variant::Honeycomb => HONEYCOMB,
    }
}

/// The built-in puzzle of a variant.
pub fn puzzle(variant: Variant) -> Puzzle {
    match parse_toml(text(variant).as_bytes(), "<built-in>") {
        Ok(p) => p,
        // The texts are constants checked by `every_builtin_is_unique`; an empty standard
        // grid keeps the player usable should one ever break.
        Err(_) => empty(Variant::Standard),
    }
}

/// An empty grid of a variant.
pub fn empty(variant: Variant) -> Puzzle {
    let layout = Layout::new(variant, 9);
    let n = layout.cell_count();
    match Puzzle::new(layout, vec![0; n]) {
        Ok(p) => p,
        Err(_) => unreachable!("plain 9x9 and honeycomb layouts always build"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::exact;

    #[test]
    fn every_builtin_is_unique() {
        for v in Variant::ALL {
            let p = parse_toml(text(v).as_bytes(), v.name()).unwrap();
            assert_eq!(p.variant(), v);
            assert_eq!(exact::solve(&p, 2).count, 1, "{v}");
        }
    }
}
