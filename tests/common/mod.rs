//! Shared helpers for integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared conformance folder, whether or not it exists: `TERMDOKU_CONFORMANCE`, else
/// `../shared/conformance` beside the project.
pub fn folder() -> PathBuf {
    std::env::var_os("TERMDOKU_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/conformance"
            ))
        })
}

/// A part of the shared conformance folder: `TERMDOKU_CONFORMANCE`, else `../shared/conformance`
/// beside the project. None (with a printed notice) when it is missing.
pub fn conformance(sub: &str) -> Option<PathBuf> {
    let base = std::env::var_os("TERMDOKU_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/conformance"
            ))
        });
    let path = base.join(sub);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: {} is missing", path.display());
        None
    }
}

/// Non-empty, non-comment lines of a text file.
pub fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// A valid 9x9 grid built from a shifting pattern, so it is known without any solver.
pub fn pattern_grid() -> String {
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            char::from(b'1' + ((3 * (r % 3) + r / 3 + c) % 9) as u8)
        })
        .collect()
}

/// The pattern grid with every cell of a diagonal stripe blanked: still unique.
pub fn pattern_puzzle() -> String {
    pattern_grid()
        .chars()
        .enumerate()
        .map(|(i, ch)| if (i / 9 + i % 9) % 3 == 0 { '.' } else { ch })
        .collect()
}
pub mod screen;
pub mod tmux;
