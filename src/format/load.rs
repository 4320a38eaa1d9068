//! The one loader every command reads puzzles through. Precedence (README, "Puzzle input"):
//!
//! 1. `-` is standard input, read like a file's content.
//! 2. An existing path is a file (a folder: its `*.toml` files, by name). A file's kind comes
//!    from its extension (`.toml` TOML, `.json` f-puzzles, `.sdk`/`.ss` grid, `.sdm` lines),
//!    else from its content: `{` f-puzzles JSON, a `[[puzzle]]` table or `key = value` TOML,
//!    a share link, a first puzzle line that reads in the line format (one puzzle a line),
//!    else one puzzle in the grid form.
//! 3. Anything else is the puzzle itself: a share link (or bare f-puzzles payload),
//!    f-puzzles JSON, a grid when it spans several lines, else a puzzle line.
//!
//! A line file streams (a million lines are never held); every other kind is one puzzle,
//! or a collection's puzzles, read whole.

use super::{
    fpuzzles, grid, parse_line, parse_toml_file, read_small_file, regular_file_size, LineReader,
    ParseError, Pos, MAX_FILE_BYTES,
};
use crate::puzzle::{Puzzle, Variant};
use std::io::{BufRead, Read};
use std::path::Path;

/// Puzzles as they are read: `(line or number, puzzle)`, `None` for a blank or comment line.
pub type Items = Box<dyn Iterator<Item = Result<(usize, Option<Puzzle>), ParseError>>>;

/// An opened input: its name for messages and its puzzles.
pub struct Source {
    pub name: String,
    pub items: Items,
}

/// What a file or an input holds: puzzle lines, streamed, or a text read whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Lines,
    Whole(Whole),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whole {
    Toml,
    Json,
    Grid,
    Link,
}

fn one(p: Puzzle) -> Items {
    Box::new(std::iter::once(Ok((1, Some(p)))))
}

fn many(list: Vec<Puzzle>) -> Items {
    Box::new(
        list.into_iter()
            .enumerate()
            .map(|(i, p)| Ok((i + 1, Some(p)))),
    )
}

/// Opens `arg` by the precedence above.
pub fn open(arg: &str, variant: Variant) -> Result<Source, ParseError> {
    if arg == "-" {
        let stdin: Box<dyn BufRead> = Box::new(std::io::stdin().lock());
        return from_reader(stdin, None, "<stdin>", variant);
    }
    let path = Path::new(arg);
    if std::fs::symlink_metadata(path).is_ok() {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return toml_folder(arg);
        }
        // A FIFO or device may never end: refused before anything opens it.
        regular_file_size(path)?;
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let by_ext = match ext.as_deref() {
            Some("toml") => Some(Kind::Whole(Whole::Toml)),
            Some("json") => Some(Kind::Whole(Whole::Json)),
            Some("sdk" | "ss") => Some(Kind::Whole(Whole::Grid)),
            Some("sdm") => Some(Kind::Lines),
            _ => None,
        };
        let file = std::fs::File::open(path).map_err(|source| ParseError::Io {
            file: arg.to_string(),
            source,
        })?;
        let reader: Box<dyn BufRead> = Box::new(std::io::BufReader::with_capacity(1 << 16, file));
        return from_reader(reader, by_ext, arg, variant);
    }
    argument(arg, variant).map(|p| Source {
        name: "<arg>".into(),
        items: one(p),
    })
}

/// A puzzle given on the command line.
fn argument(arg: &str, variant: Variant) -> Result<Puzzle, ParseError> {
    let at = Pos {
        file: "<arg>".into(),
        line: 1,
        col: 1,
    };
    if fpuzzles::is_link(arg) {
        return fpuzzles::parse_link(arg, at);
    }
    let trimmed = arg.trim();
    if trimmed.starts_with('{') {
        return fpuzzles::parse_fpuzzles(arg, "<arg>");
    }
    if trimmed.contains('\n') {
        return grid::parse_grid(arg, variant, "<arg>", 1);
    }
    match parse_line(arg.as_bytes(), variant, "<arg>", 1) {
        Ok(Some(p)) => Ok(p),
        Err(_) | Ok(None) if looks_like_path(arg) => Err(ParseError::Io {
            file: arg.to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such file (nor a puzzle line, grid or share link)",
            ),
        }),
        Err(e) => Err(e),
        Ok(None) => Err(ParseError::Empty {
            file: "<arg>".into(),
            expected: "a puzzle line or a file path".into(),
        }),
    }
}

/// Whether an argument that is no file was meant as a path rather than a puzzle line: it
/// holds a character no puzzle line has (a letter beyond G, `/`, ...).
fn looks_like_path(arg: &str) -> bool {
    let line = arg.split('#').next().unwrap_or(arg);
    line.chars()
        .any(|c| !(c.is_ascii_hexdigit() || matches!(c, '.' | 'g' | 'G') || c.is_whitespace()))
}

/// The kind of a text from its start (the first block of a file or of standard input).
fn sniff(head: &str) -> Kind {
    let body = head.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('{') {
        return Kind::Whole(Whole::Json);
    }
    let first = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if body.lines().any(|l| l.trim() == "[[puzzle]]") || is_toml_key(first) {
        return Kind::Whole(Whole::Toml);
    }
    if fpuzzles::is_link(first) {
        return Kind::Whole(Whole::Link);
    }
    // A first line in the line format of any variant makes a line file; a row of a grid
    // (separators, cells apart, a row's worth of cells) a grid.
    let reads_as_line = Variant::ALL
        .iter()
        .any(|&v| matches!(parse_line(first.as_bytes(), v, "", 1), Ok(Some(_))));
    if !reads_as_line && grid::looks_like_grid_row(first) {
        Kind::Whole(Whole::Grid)
    } else {
        Kind::Lines
    }
}

/// `title = "..."`, `variant = "..."`: a TOML key line.
fn is_toml_key(line: &str) -> bool {
    line.split_once('=').is_some_and(|(k, _)| {
        let k = k.trim();
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    })
}

fn from_reader(
    mut reader: Box<dyn BufRead>,
    kind: Option<Kind>,
    name: &str,
    variant: Variant,
) -> Result<Source, ParseError> {
    let io = |source| ParseError::Io {
        file: name.to_string(),
        source,
    };
    let kind = match kind {
        Some(k) => k,
        None => sniff(&String::from_utf8_lossy(reader.fill_buf().map_err(io)?)),
    };
    let whole = match kind {
        Kind::Lines => {
            return Ok(Source {
                name: name.to_string(),
                items: Box::new(LineReader::new(reader, variant, name)),
            })
        }
        Kind::Whole(w) => w,
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
        )));
    }
    let text = || {
        std::str::from_utf8(&bytes).map_err(|e| {
            let (line, col) = super::line_col(
                &String::from_utf8_lossy(&bytes[..e.valid_up_to()]),
                e.valid_up_to(),
            );
            ParseError::Unexpected {
                pos: Pos {
                    file: name.to_string(),
                    line,
                    col,
                },
                found: super::describe_byte(bytes[e.valid_up_to()]),
                expected: "UTF-8 text".into(),
            }
        })
    };
    let items = match whole {
        Whole::Toml => many(parse_toml_file(&bytes, name)?),
        Whole::Json => one(fpuzzles::parse_fpuzzles(
            text()?.trim_start_matches('\u{feff}'),
            name,
        )?),
        Whole::Grid => one(grid::parse_grid(text()?, variant, name, 1)?),
        Whole::Link => {
            let text = text()?;
            let (i, line) = text
                .lines()
                .enumerate()
                .find(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
                .unwrap_or((0, ""));
            let at = Pos {
                file: name.to_string(),
                line: i + 1,
                col: 1,
            };
            one(fpuzzles::parse_link(line, at)?)
        }
    };
    Ok(Source {
        name: name.to_string(),
        items,
    })
}

/// Every `*.toml` puzzle file or collection of a folder, by name; a file that does not
/// parse is reported at its place.
fn toml_folder(path: &str) -> Result<Source, ParseError> {
    let io = |source| ParseError::Io {
        file: path.to_string(),
        source,
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|f| f.extension().is_some_and(|x| x == "toml"))
        .collect();
    if files.is_empty() {
        return Err(io(std::io::Error::other(
            "is a directory without .toml files",
        )));
    }
    files.sort();
    // Files are read one at a time as the stream is consumed; a collection gives all its
    // puzzles, numbered on through the folder.
    let items = files
        .into_iter()
        .flat_map(|f| {
            let name = f.display().to_string();
            match read_small_file(&f).and_then(|b| parse_toml_file(&b, &name)) {
                Ok(list) => list.into_iter().map(|p| Ok(Some(p))).collect::<Vec<_>>(),
                Err(e) => vec![Err(e)],
            }
        })
        .enumerate()
        .map(|(i, r)| r.map(|p| (i + 1, p)));
    Ok(Source {
        name: path.into(),
        items: Box::new(items),
    })
}

/// The puzzle of a `PUZZLE` argument: the first of a file, or the argument itself.
pub fn load_puzzle(arg: &str, variant: Variant) -> Result<Puzzle, ParseError> {
    let source = open(arg, variant)?;
    for item in source.items {
        if let (_, Some(p)) = item? {
            return Ok(p);
        }
    }
    Err(ParseError::Empty {
        file: arg.to_string(),
        expected: "a puzzle".into(),
    })
}

/// Every puzzle of a file (or of an argument).
pub fn load_file(path: &Path, variant: Variant) -> Result<Vec<Puzzle>, ParseError> {
    let source = open(&path.to_string_lossy(), variant)?;
    let mut out = Vec::new();
    for item in source.items {
        if let (_, Some(p)) = item? {
            out.push(p);
        }
    }
    Ok(out)
}
