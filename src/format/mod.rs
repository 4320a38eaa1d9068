//! Reading and writing puzzles: the line format and TOML puzzle files (design.md section 3).
//! Every error names the file, line and column and what was expected.

pub mod line;
pub mod toml_file;

pub use line::{parse_line, write_line, LineReader};
pub use toml_file::{parse_toml, write_toml};

use crate::puzzle::{Puzzle, PuzzleError, Variant};
use std::path::Path;

/// A place in an input: file name (or `<arg>`, `<stdin>`), 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pos {
    pub file: String,
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("{pos}: unexpected {found} (expected {expected})")]
    Unexpected {
        pos: Pos,
        found: String,
        expected: String,
    },
    #[error("{pos}: {found} cells, expected {expected}")]
    WrongLength {
        pos: Pos,
        found: usize,
        expected: String,
    },
    #[error("{pos}: {message}")]
    Invalid { pos: Pos, message: String },
    #[error("{file}: empty input (expected {expected})")]
    Empty { file: String, expected: String },
    #[error("{file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
}

impl ParseError {
    pub(crate) fn invalid(pos: Pos, err: impl std::fmt::Display) -> ParseError {
        ParseError::Invalid {
            pos,
            message: err.to_string(),
        }
    }
}

/// Describes a byte found where something else was expected.
pub(crate) fn describe_byte(b: u8) -> String {
    match b {
        b' ' => "space".into(),
        b'\t' => "tab".into(),
        0x21..=0x7e => format!("'{}'", b as char),
        _ => format!("byte 0x{b:02X}"),
    }
}

/// 1-based line and column of a byte offset in `text` (columns count characters).
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
    (line, col)
}

/// Reads a `PUZZLE` argument: a path to a TOML or line-format file (its first puzzle), or a
/// line-format string. `variant` applies to line formats; a TOML file names its own.
pub fn load_puzzle(arg: &str, variant: Variant) -> Result<Puzzle, ParseError> {
    let path = Path::new(arg);
    if path.is_file() {
        return load_file(path, variant)?
            .into_iter()
            .next()
            .ok_or_else(|| ParseError::Empty {
                file: arg.to_string(),
                expected: "a puzzle".into(),
            });
    }
    let bytes = arg.as_bytes();
    parse_line(bytes, variant, "<arg>", 1)?.ok_or_else(|| ParseError::Empty {
        file: "<arg>".into(),
        expected: "a puzzle line or a file path".into(),
    })
}

/// Every puzzle of a file: one for TOML, one per puzzle line otherwise.
pub fn load_file(path: &Path, variant: Variant) -> Result<Vec<Puzzle>, ParseError> {
    let name = path.display().to_string();
    let io = |source| ParseError::Io {
        file: name.clone(),
        source,
    };
    if path.extension().is_some_and(|e| e == "toml") {
        let bytes = std::fs::read(path).map_err(io)?;
        return Ok(vec![parse_toml(&bytes, &name)?]);
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut out = Vec::new();
    for item in LineReader::new(std::io::BufReader::new(file), variant, &name) {
        if let (_, Some(p)) = item? {
            out.push(p);
        }
    }
    Ok(out)
}

/// Converts a layout or givens error found while reading into a positioned parse error.
pub(crate) fn puzzle_error(pos: Pos, e: PuzzleError) -> ParseError {
    ParseError::invalid(pos, e)
}
