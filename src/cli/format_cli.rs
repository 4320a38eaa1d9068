//! `export --format fpuzzles|grid`: a puzzle in the formats other tools and people read.

use super::print_cli::{output_path, write_to, PrintArgs};
use super::EXIT_USAGE;
use crate::format;
use crate::puzzle::{Puzzle, Variant};
use std::path::Path;

/// The puzzle a text export writes: puzzle `index` (1-based) of a file of several, else
/// the first the argument holds.
pub(super) fn chosen_puzzle(
    arg: &str,
    variant: Variant,
    index: Option<u64>,
) -> Result<Puzzle, String> {
    let Some(i) = index else {
        return format::load_puzzle(arg, variant).map_err(|e| e.to_string());
    };
    let path = Path::new(arg);
    let puzzles = if std::fs::symlink_metadata(path).is_ok() {
        format::load_file(path, variant)
    } else {
        format::load_puzzle(arg, variant).map(|p| vec![p])
    }
    .map_err(|e| e.to_string())?;
    let count = puzzles.len();
    usize::try_from(i)
        .ok()
        .and_then(|i| puzzles.into_iter().nth(i.wrapping_sub(1)))
        .ok_or_else(|| format!("{arg} holds {count} puzzle(s): no puzzle {i}"))
}

/// The puzzle `hint`, `explain` and a position read: puzzle `index` of a file, or the
/// first, said when the file holds more (the user may have meant another), with a bad
/// line anywhere in the file named as it is for every other command that reads files.
pub(crate) fn picked_puzzle(
    arg: &str,
    variant: Variant,
    index: Option<u64>,
) -> Result<Puzzle, String> {
    let path = Path::new(arg);
    if index.is_some() || std::fs::symlink_metadata(path).is_err() {
        return chosen_puzzle(arg, variant, index);
    }
    let mut puzzles = format::load_file(path, variant).map_err(|e| e.to_string())?;
    if puzzles.len() > 1 {
        eprintln!(
            "termdoku: {arg} holds {} puzzles: puzzle 1 taken (choose one with --index N)",
            puzzles.len()
        );
    }
    if puzzles.is_empty() {
        return Err(format!("{arg}: no puzzles"));
    }
    Ok(puzzles.swap_remove(0))
}

/// Writes the grid form, or f-puzzles JSON (one line), or with `link` the f-puzzles and
/// SudokuPad share links (one a line), to standard output or `-o FILE`. A variant the
/// format cannot hold exits 2.
pub fn export(grid: bool, link: bool, variant: Variant, arg: &str, args: &PrintArgs) -> i32 {
    let print_only = match args.print_only() {
        None if grid && args.title.is_some() => Some("--title"),
        other => other,
    };
    if let Some(option) = print_only {
        eprintln!("termdoku: {option} goes with --format svg or pdf");
        return EXIT_USAGE;
    }
    let mut puzzle = match chosen_puzzle(arg, variant, args.index) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    if let Some(t) = &args.title {
        puzzle.title = Some(t.clone());
    }
    let text = if grid {
        format::write_grid(&puzzle)
    } else if link {
        format::share_links(&puzzle).map(|l| format!("{}\n{}\n", l[0], l[1]))
    } else {
        format::to_fpuzzles(&puzzle).map(|v| format!("{v}\n"))
    };
    match text {
        Ok(t) => {
            let ext = match (grid, link) {
                (true, _) => "grid.txt",
                (_, true) => "links.txt",
                _ => "json",
            };
            let out = output_path(args.output.as_deref(), arg, args.index, ext);
            write_to(out.as_deref(), t.as_bytes())
        }
        Err(e) => {
            eprintln!("termdoku: {e}");
            EXIT_USAGE
        }
    }
}
