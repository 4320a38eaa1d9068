//! TOML collections: one `[[puzzle]]` table per puzzle (keys as in a TOML puzzle file,
//! cages as `[[puzzle.cage]]`), as `generate --toml` writes and `puzzles/` ships. Every
//! command reads them through [`parse_toml_file`], so there is one loader.

use super::ParseError;
use crate::puzzle::Puzzle;

/// Whether a TOML text is a collection (it has a `[[puzzle]]` table) rather than one puzzle.
pub fn is_collection(text: &str) -> bool {
    text.lines()
        .any(|l| array_header(l).as_deref() == Some("puzzle"))
}

/// The name of an array-of-tables header line (`[[ puzzle . cage ]]  # note` is
/// `puzzle.cage`), as TOML allows spaces around its keys and a comment after it.
fn array_header(line: &str) -> Option<String> {
    let head = line.split('#').next()?.trim();
    let inner = head.strip_prefix("[[")?.strip_suffix("]]")?;
    let keys: Vec<&str> = inner.split('.').map(str::trim).collect();
    keys.iter()
        .all(|k| {
            !k.is_empty()
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        })
        .then(|| keys.join("."))
}

/// Every puzzle of a TOML file: the tables of a collection, or the one puzzle of a file.
pub fn parse_toml_file(bytes: &[u8], name: &str) -> Result<Vec<Puzzle>, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) if is_collection(text) => parse_collection(text, name),
        // Not UTF-8: the single-file reader names the place of the bad byte.
        _ => Ok(vec![super::parse_toml(bytes, name)?]),
    }
}

/// Reads a TOML collection: one `[[puzzle]]` table per puzzle. Errors name the collection
/// and the line within it.
pub fn parse_collection(text: &str, name: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut out = Vec::new();
    let mut chunks: Vec<(usize, String)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let header = array_header(line);
        if header.as_deref() == Some("puzzle") {
            chunks.push((i + 1, String::new()));
            continue;
        }
        if let Some((_, chunk)) = chunks.last_mut() {
            let line = if header.as_deref() == Some("puzzle.cage") {
                "[[cage]]"
            } else {
                line
            };
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    for (start, chunk) in chunks {
        let p = super::parse_toml(chunk.as_bytes(), name).map_err(|e| shift(e, start))?;
        out.push(p);
    }
    Ok(out)
}

/// Moves an error found in a puzzle's table to its line in the whole collection.
fn shift(e: ParseError, start: usize) -> ParseError {
    match e {
        ParseError::Unexpected {
            mut pos,
            found,
            expected,
        } => {
            pos.line += start;
            ParseError::Unexpected {
                pos,
                found,
                expected,
            }
        }
        ParseError::WrongLength {
            mut pos,
            found,
            expected,
        } => {
            pos.line += start;
            ParseError::WrongLength {
                pos,
                found,
                expected,
            }
        }
        ParseError::Invalid { mut pos, message } => {
            pos.line += start;
            ParseError::Invalid { pos, message }
        }
        other => other,
    }
}

/// Writes puzzles as a TOML collection that [`parse_collection`] reads back.
pub fn write_collection<'a>(puzzles: impl IntoIterator<Item = &'a Puzzle>) -> String {
    let mut out = String::new();
    for p in puzzles {
        out.push_str("[[puzzle]]\n");
        for line in super::write_toml(p).lines() {
            out.push_str(if line == "[[cage]]" {
                "[[puzzle.cage]]"
            } else {
                line
            });
            out.push('\n');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_with_spaces_and_comments_are_tables_of_the_collection() {
        let text = "[[ puzzle ]]  # the first\nvariant = \"standard\"\nsize = 4\n\
                    givens = \"\"\"\n1...\n....\n....\n...2\n\"\"\"\n\
                    [[puzzle]]#second\nvariant = \"killer\"\nsize = 4\n\
                    givens = \"\"\"\n....\n....\n....\n....\n\"\"\"\n\
                    [[ puzzle.cage ]] # top left\nsum = 10\ncells = [\"r1c1\", \"r1c2\", \"r2c1\", \"r2c2\"]\n";
        assert!(is_collection(text));
        let puzzles = parse_collection(text, "c.toml").unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0].givens[0], 1);
        assert_eq!(puzzles[1].layout.cages.len(), 1);
        assert_eq!(array_header("[[puzzle]]x"), None);
        assert_eq!(array_header("[puzzle]"), None);
    }
}
