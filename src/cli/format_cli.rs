//! `export --format fpuzzles|grid`: a puzzle in the formats other tools and people read.

use super::output::Output;
use super::{EXIT_OK, EXIT_USAGE};
use crate::format;
use crate::puzzle::Variant;

/// Writes the grid form, or f-puzzles JSON (one line), or with `link` the f-puzzles and
/// SudokuPad share links (one a line). A variant the format cannot hold exits 2.
pub fn export(grid: bool, link: bool, variant: Variant, arg: &str) -> i32 {
    let puzzle = match format::load_puzzle(arg, variant) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let text = if grid {
        format::write_grid(&puzzle)
    } else if link {
        format::share_links(&puzzle).map(|l| format!("{}\n{}\n", l[0], l[1]))
    } else {
        format::to_fpuzzles(&puzzle).map(|v| format!("{v}\n"))
    };
    match text {
        Ok(t) => {
            let mut out = Output::buffered();
            let _ = out.text(format_args!("{t}"));
            out.finish(EXIT_OK)
        }
        Err(e) => {
            eprintln!("termdoku: {e}");
            EXIT_USAGE
        }
    }
}
