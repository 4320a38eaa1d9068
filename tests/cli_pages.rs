//! `termdoku techniques NAME`: the technique's page on the command line, as text (a
//! snapshot) and as JSON.

use assert_cmd::Command;
use serde_json::Value;

fn page(args: &[&str]) -> String {
    let out = Command::cargo_bin("termdoku")
        .unwrap()
        .arg("techniques")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn an_x_wing_page_explains_and_draws_a_bank_position() {
    let text = page(&["X-Wing"]);
    for part in [
        "What it is",
        "Why it works",
        "How to spot it",
        "drill bank (standard)",
    ] {
        assert!(text.contains(part), "{part} missing:\n{text}");
    }
    // Piped: markers, no colour codes.
    assert!(!text.contains('\u{1b}'));
    assert!(text.contains("- removed"));
    insta::assert_snapshot!("x_wing_page", text);
}

#[test]
fn the_json_page_has_its_parts_and_the_example_step() {
    let v: Value = serde_json::from_str(page(&["xwing", "--json"]).trim()).unwrap();
    for part in ["pattern", "why", "spot"] {
        assert!(
            v["page"][part].as_str().is_some_and(|s| s.len() > 20),
            "{part}"
        );
    }
    assert_eq!(v["example"]["step"]["technique"], "x-wing");
    assert_eq!(v["example"]["variant"], "standard");
    assert!(v["example"]["marks"]
        .as_str()
        .is_some_and(|m| m.lines().count() == 9));
    // A technique the bank has no position for still has its page.
    let v: Value = serde_json::from_str(page(&["kraken-fish", "--json"]).trim()).unwrap();
    assert!(v["page"]["why"].as_str().is_some());
    assert!(v["example"].is_null());
}
