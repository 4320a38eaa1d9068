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
