//! Property tests for the formats: printing then parsing gives the puzzle back, and no parser
//! panics or hangs on arbitrary text or bytes.

use proptest::prelude::*;
use termdoku::format::{parse_line, parse_toml, write_line, write_toml, LineReader};
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
