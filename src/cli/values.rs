//! How the command line reads its values: the library's own enums as clap value enums (no
//! mirror types), and range checks that refuse nonsense before any work starts (exit 2).

use crate::generate::{Level, Symmetry};
use crate::puzzle::Variant;
use clap::builder::PossibleValue;
use clap::ValueEnum;

impl ValueEnum for Variant {
    fn value_variants<'a>() -> &'a [Self] {
        &Variant::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Level {
    fn value_variants<'a>() -> &'a [Self] {
        &Level::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

impl ValueEnum for Symmetry {
    fn value_variants<'a>() -> &'a [Self] {
        &Symmetry::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// Most worker threads a batch may ask for: more only costs memory (each holds a chunk).
pub const MAX_THREADS: u64 = 1024;

/// `--size`: the square grid sides the geometry supports.
pub fn grid_size(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ (4 | 6 | 9 | 16)) => Ok(n),
        _ => Err("expected 4, 6, 9 or 16".into()),
    }
}

/// `--budget`: a finite, positive number of CPU seconds.
pub fn seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        Ok(_) => Err("expected a finite number of seconds above 0".into()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_budgets_refuse_nonsense() {
        assert_eq!(grid_size("16"), Ok(16));
        assert!(grid_size("0").is_err() && grid_size("8").is_err());
        assert_eq!(seconds("2.5"), Ok(2.5));
        for bad in ["NaN", "inf", "-1", "0", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn level_names_are_the_value_names() {
        for l in Level::ALL {
            assert_eq!(<Level as ValueEnum>::from_str(l.name(), false), Ok(l));
        }
    }
}
