//! What the library's own tests share.

/// Proptest settings: `TERMDOKU_PROPTEST_CASES` cases (the README's knob for long runs),
/// else `default`; failures are printed, not written into the source tree.
pub fn proptest_config(default: u32) -> proptest::test_runner::Config {
    let cases = std::env::var("TERMDOKU_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..Default::default()
    }
}
