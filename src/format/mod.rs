//! Reading and writing puzzles (design.md section 3): the line format, TOML puzzle files and
//! collections, the pasted grid form and f-puzzles JSON and share links, all read through
//! one loader ([`load::open`]). Every error names the file, line and column and what was
//! expected.

pub mod collection;
pub mod fpuzzles;
pub mod grid;
pub mod line;
pub mod load;
pub mod toml_file;

pub use collection::{is_collection, parse_collection, parse_toml_file, write_collection};
pub use fpuzzles::{parse_fpuzzles, parse_link, share_links, to_fpuzzles};
pub use grid::{parse_grid, write_grid};
pub use line::{parse_line, write_line, LineReader};
pub use load::{load_file, load_puzzle, open, Items, Source};
pub use toml_file::{parse_toml, write_toml};

use crate::puzzle::PuzzleError;
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

/// Describes what starts at `bytes[i]`: a byte as [`describe_byte`] does, or the whole
/// character when it is valid UTF-8 beyond ASCII (a pasted 'é' or no-break space is named,
/// not left as its first byte).
pub(crate) fn describe_at(bytes: &[u8], i: usize) -> String {
    let Some(&b) = bytes.get(i) else {
        return "the end".into();
    };
    if b.is_ascii() {
        return describe_byte(b);
    }
    let end = (i + 4).min(bytes.len());
    let c = match std::str::from_utf8(&bytes[i..end]) {
        Ok(s) => s.chars().next(),
        Err(e) => std::str::from_utf8(&bytes[i..i + e.valid_up_to()])
            .ok()
            .and_then(|s| s.chars().next()),
    };
    match c {
        Some(c) if c.is_whitespace() => format!("non-ASCII space U+{:04X}", u32::from(c)),
        Some(c @ ('\u{200B}'..='\u{200F}' | '\u{2060}' | '\u{FEFF}')) => {
            format!("invisible character U+{:04X}", u32::from(c))
        }
        Some(c) if !c.is_control() => format!("'{c}'"),
        _ => describe_byte(b),
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

/// Largest file read whole: a TOML puzzle or collection, or a line file of the library.
/// Far above any real puzzle file; it keeps a stray huge file from exhausting memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

fn io_error(file: &str, kind: std::io::ErrorKind, message: &str) -> ParseError {
    ParseError::Io {
        file: file.to_string(),
        source: std::io::Error::new(kind, message.to_string()),
    }
}

/// Checks that `path` is a regular file (not a FIFO or device, which may never end, nor a
/// folder) before anything opens it; gives its size.
pub fn regular_file_size(path: &Path) -> Result<u64, ParseError> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|source| ParseError::Io {
        file: name.clone(),
        source,
    })?;
    if meta.is_dir() {
        return Err(io_error(
            &name,
            std::io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    if !meta.is_file() {
        return Err(io_error(
            &name,
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(meta.len())
}

/// The bytes of a regular file of at most [`MAX_FILE_BYTES`].
pub fn read_small_file(path: &Path) -> Result<Vec<u8>, ParseError> {
    use std::io::Read;
    let name = path.display().to_string();
    let io = |source| ParseError::Io {
        file: name.clone(),
        source,
    };
    regular_file_size(path)?;
    let mut bytes = Vec::new();
    // The size may change between the check and the read: the cap holds either way.
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io_error(
            &name,
            std::io::ErrorKind::InvalidData,
            &format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
        ));
    }
    Ok(bytes)
}

/// Converts a layout or givens error found while reading into a positioned parse error.
pub(crate) fn puzzle_error(pos: Pos, e: PuzzleError) -> ParseError {
    ParseError::invalid(pos, e)
}
