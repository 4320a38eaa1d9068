//! Property tests for the formats: printing then parsing gives the puzzle back, and no parser
//! panics or hangs on arbitrary text or bytes.

use proptest::prelude::*;
use termdoku::format::{
    parse_line, parse_toml, write_line, write_toml, LineReader, ParseError, Pos,
};
use termdoku::geometry::square::CageSpec;
use termdoku::puzzle::{Layout, Puzzle, Variant};

fn layout_strategy() -> impl Strategy<Value = Layout> {
    prop_oneof![
        prop::sample::select(vec![4usize, 6, 9, 16])
            .prop_map(|n| Layout::new(Variant::Standard, n)),
        prop::sample::select(vec![4usize, 6, 9]).prop_map(|n| Layout::new(Variant::Diagonal, n)),
        Just(Layout::new(Variant::Honeycomb, 9)),
        Just({
            let mut l = Layout::new(Variant::Jigsaw, 4);
            l.regions = Some("AABBAABBCCDDCCDD".chars().collect());
            l
        }),
        (1u32..=9, 3u32..=17).prop_map(|(a, b)| {
            let mut l = Layout::new(Variant::Killer, 9);
            l.cages = vec![
                CageSpec {
                    sum: a,
                    cells: vec![0],
                },
                CageSpec {
                    sum: b,
                    cells: vec![10, 11],
                },
            ];
            l
        }),
    ]
}

fn puzzle_strategy() -> impl Strategy<Value = Puzzle> {
    layout_strategy().prop_flat_map(|layout| {
        let n = layout.cell_count();
        let max = if layout.variant == Variant::Honeycomb {
            9
        } else {
            layout.size as u8
        };
        proptest::collection::vec(prop_oneof![3 => Just(0u8), 2 => 1..=max], n)
            .prop_map(move |givens| Puzzle::new(layout.clone(), givens).unwrap())
    })
}

/// Cases per property: 2000 in CI, or `TERMDOKU_PROPTEST_CASES` (e.g. 1000000).
fn cases() -> u32 {
    std::env::var("TERMDOKU_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

/// Whether an error's position lies inside `text` (a line that exists, a column at most
/// one past its end). Errors without a position name the file only.
fn inside(e: &ParseError, text: &[u8]) -> bool {
    let pos: &Pos = match e {
        ParseError::Unexpected { pos, .. }
        | ParseError::WrongLength { pos, .. }
        | ParseError::Invalid { pos, .. } => pos,
        ParseError::Empty { .. } | ParseError::Io { .. } => return true,
    };
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let Some(line) = lines.get(pos.line.wrapping_sub(1)) else {
        return false;
    };
    pos.col >= 1 && pos.col <= String::from_utf8_lossy(line).chars().count() + 1
}

/// A valid file damaged by a few byte edits (replace, insert, delete).
fn mutated(text: String, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    for &(at, op, b) in edits {
        let at = at % (bytes.len() + 1);
        match op % 3 {
            0 if at < bytes.len() => bytes[at] = b,
            1 => bytes.insert(at, b),
            _ if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => {}
        }
    }
    bytes
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6)
}

proptest! {
    // Killer and jigsaw puzzles have no line format: the line test skips about half.
    #![proptest_config(ProptestConfig {
        cases: cases(),
        max_global_rejects: cases().saturating_mul(4),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_toml_files_fail_at_a_place_inside_them(p in puzzle_strategy(), e in edits()) {
        let bytes = mutated(write_toml(&p), &e);
        if let Err(err) = parse_toml(&bytes, "m.toml") {
            prop_assert!(err.to_string().starts_with("m.toml"), "{}", err);
            prop_assert!(inside(&err, &bytes), "{} outside:\n{}", err, String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn mutated_lines_fail_at_a_place_inside_them(p in puzzle_strategy(), e in edits()) {
        prop_assume!(matches!(p.variant(), Variant::Standard | Variant::Diagonal | Variant::Honeycomb));
        let bytes = mutated(format!("{}\n# note\n{}\n", write_line(&p), write_line(&p)), &e);
        for item in LineReader::new(&bytes[..], p.variant(), "m.txt") {
            if let Err(err) = item {
                prop_assert!(err.to_string().starts_with("m.txt"), "{}", err);
                prop_assert!(inside(&err, &bytes), "{} outside: {:?}", err, String::from_utf8_lossy(&bytes));
            }
        }
    }

    #[test]
    fn arbitrary_bytes_fail_at_a_place_inside_them(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        if let Err(err) = parse_toml(&bytes, "a.toml") {
            prop_assert!(inside(&err, &bytes), "{}", err);
        }
        for item in LineReader::new(&bytes[..], Variant::Standard, "a.txt") {
            if let Err(err) = item {
                prop_assert!(inside(&err, &bytes), "{}", err);
            }
        }
    }
}

proptest! {
    #[test]
    fn toml_round_trips(p in puzzle_strategy(), title in "[a-zA-Z \"\\\\]{0,12}") {
        let mut p = p;
        p.title = Some(title);
        let text = write_toml(&p);
        let back = parse_toml(text.as_bytes(), "p.toml").unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn line_format_round_trips(p in puzzle_strategy()) {
        prop_assume!(matches!(p.variant(), Variant::Standard | Variant::Diagonal | Variant::Honeycomb));
        let text = write_line(&p);
        let back = parse_line(text.as_bytes(), p.variant(), "p", 1).unwrap().unwrap();
        prop_assert_eq!(back.givens, p.givens);
    }

    #[test]
    fn line_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        for v in [Variant::Standard, Variant::Honeycomb, Variant::Killer] {
            for item in LineReader::new(&bytes[..], v, "fuzz") {
                let _ = item;
            }
        }
    }

    #[test]
    fn line_parser_never_panics_on_near_misses(s in "[0-9.A-Gx# \r\n\t]{0,300}") {
        for item in LineReader::new(s.as_bytes(), Variant::Standard, "fuzz") {
            if let Err(e) = item {
                prop_assert!(e.to_string().starts_with("fuzz:"));
            }
        }
    }

    #[test]
    fn toml_parser_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_toml(&bytes, "fuzz.toml");
    }

    #[test]
    fn toml_parser_reports_positions(p in puzzle_strategy(), cut in 0usize..2000, junk in "[^\"]{1,3}") {
        // Damage a valid file somewhere: the parser either reads it or says where.
        let mut text = write_toml(&p);
        let at = (0..=cut.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        text.insert_str(at, &junk);
        if let Err(e) = parse_toml(text.as_bytes(), "f.toml") {
            prop_assert!(e.to_string().starts_with("f.toml:"), "{}", e);
        }
    }
}
