//! HoDoKu's regression library: for every case whose technique termdoku implements, build
//! the candidate grid, run that technique, and require a step with exactly the listed
//! eliminations or placements (no step at all for `-x` fail cases).
//!
//! A code that names no technique fails the test, unless it is listed in `NOT_YET_BUILT`.
//! The file comes from `TERMDOKU_REGLIB`; without it the test says so and passes.

use std::collections::BTreeMap;
use termdoku::geometry::{square, Digits};
use termdoku::puzzle::Grid;
use termdoku::solver::logic::{by_hodoku_code, find_all, Candidate};

/// Codes of the library that termdoku does not find yet. The test prints them, skips their
/// cases, and fails on any other code it cannot map to a technique; the goal is an empty list.
const NOT_YET_BUILT: &[&str] = &[];

/// `"436 257"` -> r3c6<>4, r5c7<>2 as candidates.
fn candidates(field: &str) -> Result<Vec<Candidate>, String> {
    let mut out = Vec::new();
    for item in field.split_whitespace() {
        let b = item.as_bytes();
        if b.len() != 3 || !b.iter().all(u8::is_ascii_digit) {
            return Err(format!("bad candidate '{item}'"));
        }
        let (d, r, c) = (
            b[0] - b'0',
            usize::from(b[1] - b'0'),
            usize::from(b[2] - b'0'),
        );
        if !(1..=9).contains(&d) || !(1..=9).contains(&r) || !(1..=9).contains(&c) {
            return Err(format!("bad candidate '{item}'"));
        }
        out.push(Candidate::new((r - 1) * 9 + c - 1, d));
    }
    out.sort_unstable();
    Ok(out)
}

/// The pencil-mark grid of a case: givens and placed digits, all peer-free candidates,
/// minus the deleted ones.
fn build(givens: &str, deleted: &str) -> Result<Grid, String> {
    let geometry = std::sync::Arc::new(square::standard(9).map_err(|e| e.to_string())?);
    let mut values = Vec::with_capacity(81);
    for ch in givens.chars() {
        match ch {
            '+' => {}
            '.' | '0' => values.push(0),
            '1'..='9' => values.push(ch as u8 - b'0'),
            _ => return Err(format!("bad givens char '{ch}'")),
        }
    }
    if values.len() != 81 {
        return Err(format!("{} cells in givens", values.len()));
    }
    let mut cands = vec![Digits::EMPTY; 81];
    for (c, slot) in cands.iter_mut().enumerate() {
        *slot = if values[c] != 0 {
            Digits::single(values[c])
        } else {
            let mut m = Digits::all(9);
            for &p in geometry.peers(c) {
                if values[p] != 0 {
                    m.remove(values[p]);
                }
            }
            m
        };
    }
    for del in candidates(deleted)? {
        if values[del.cell] == 0 {
            cands[del.cell].remove(del.digit);
        }
    }
    // Digits without a '+' are givens (avoidable rectangles need to tell them apart).
    let mut given = Vec::with_capacity(81);
    let mut plus = false;
    for ch in givens.chars() {
        match ch {
            '+' => plus = true,
            _ => {
                given.push(!plus && ch.is_ascii_digit() && ch != '0');
                plus = false;
            }
        }
    }
    Ok(Grid::from_parts(geometry, values, cands).with_givens(&given))
}

#[test]
fn hodoku_regression_library() {
    let Ok(path) = std::env::var("TERMDOKU_REGLIB") else {
        println!("TERMDOKU_REGLIB is not set: skipping the HoDoKu regression library");
        return;
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{path} is missing: skipping the HoDoKu regression library");
        return;
    };
    // code -> (passed, total)
    let mut table: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    for (lineno, line) in text.lines().enumerate() {
        // Lines starting `#:` are cases HoDoKu itself skips.
        let Some(rest) = line.strip_prefix(':') else {
            continue;
        };
        let fields: Vec<&str> = rest.split(':').collect();
        if fields.len() < 6 {
            continue;
        }
        let variant = fields[0].split_once('-').map_or("", |(_, v)| v);
        if NOT_YET_BUILT.contains(&fields[0]) {
            *skipped.entry(fields[0].to_string()).or_default() += 1;
            continue;
        }
        let Some(info) = by_hodoku_code(fields[0]) else {
            failures.push(format!("line {}: unknown code {}", lineno + 1, fields[0]));
            continue;
        };
        let id = info.id;
        let entry = table.entry(fields[0].to_string()).or_default();
        entry.1 += 1;
        let result = (|| -> Result<(), String> {
            let grid = build(fields[2], fields[3])?;
            let elims = candidates(fields[4])?;
            let places = candidates(fields[5])?;
            let steps = find_all(&grid, id);
            if variant == "x" {
                return match steps.first() {
                    None => Ok(()),
                    Some(s) => Err(format!("fail case found {:?}", s.eliminations)),
                };
            }
            let ok = steps.iter().any(|s| {
                let mut e = s.eliminations.clone();
                e.sort_unstable();
                let mut p = s.placements.clone();
                p.sort_unstable();
                if places.is_empty() {
                    e == elims && p.is_empty()
                } else {
                    p == places
                }
            });
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "{} steps, none exact; want elims {elims:?} places {places:?}; first: elims {:?} places {:?}",
                    steps.len(),
                    steps.first().map(|s| s.eliminations.clone()),
                    steps.first().map(|s| s.placements.clone())
                ))
            }
        })();
        match result {
            Ok(()) => entry.0 += 1,
            Err(e) => failures.push(format!("line {}: {} ({id}): {e}", lineno + 1, fields[0])),
        }
    }
    println!("{:<8} {:<28} {:>6}", "code", "technique", "passed");
    let (mut passed, mut total) = (0, 0);
    for (code, (p, t)) in &table {
        let id = by_hodoku_code(code).map_or("?", |t| t.id);
        println!("{code:<8} {id:<28} {p:>3}/{t}");
        passed += p;
        total += t;
    }
    println!("all      {:<28} {passed:>3}/{total}", "");
    for (code, n) in &skipped {
        println!("NOT YET BUILT {code}: {n} cases skipped");
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(total > 0, "no implemented case found in {path}");
    assert!(
        failures.is_empty(),
        "{} regression cases failed",
        failures.len()
    );
}
