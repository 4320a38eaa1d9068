//! Printing puzzles (issue 24): the drawing of a page is computed once in [`layout`] as
//! plain shapes, then written as SVG ([`svg`]) or PDF ([`pdf`]); [`booklet`] lays out whole
//! collections with their solutions.

pub mod booklet;
pub mod layout;
mod metrics;
pub mod pdf;
pub mod svg;

pub use layout::{Fill, Page, Paper};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Digits;
    use crate::puzzle::{Layout, Puzzle, Variant};
    use proptest::prelude::*;

    /// A layout of every kind: standard sizes, diagonal, honeycomb, a jigsaw and a killer.
    fn layout(kind: usize) -> Layout {
        let mut l = match kind % 7 {
            0 => Layout::new(Variant::Standard, 4),
            1 => Layout::new(Variant::Standard, 6),
            2 => Layout::new(Variant::Standard, 16),
            3 => Layout::new(Variant::Diagonal, 9),
            4 => Layout::new(Variant::Honeycomb, 9),
            5 => Layout::new(Variant::Jigsaw, 4),
            _ => Layout::new(Variant::Killer, 4),
        };
        if l.variant == Variant::Jigsaw {
            l.regions = Some("AABBACBBACDDCCDD".chars().collect());
        }
        if l.variant == Variant::Killer {
            l.cages = vec![
                crate::geometry::square::CageSpec {
                    sum: 3,
                    cells: vec![0, 1],
                },
                crate::geometry::square::CageSpec {
                    sum: 10,
                    cells: vec![5, 6, 9, 10],
                },
            ];
        }
        l
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_title_and_puzzle_prints_without_panic(
            title in any::<String>(),
            kind in 0usize..7,
            digits in proptest::collection::vec(0u8..=16, 256),
            marks in proptest::collection::vec(any::<u16>(), 256),
        ) {
            let l = layout(kind);
            let n = l.cell_count();
            let max = if l.variant == Variant::Honeycomb { 9 } else { l.size as u8 };
            let givens: Vec<u8> = digits[..n].iter().map(|d| d % (max + 1)).collect();
            let entries: Vec<u8> = digits[..n].iter().rev().map(|d| d % (max + 1)).collect();
            let marks: Vec<Digits> = marks[..n].iter().map(|&m| Digits(m) & Digits::all(max)).collect();
            let p = Puzzle::new(l, givens).unwrap();
            let fill = Fill { entries: Some(&entries), marks: Some(&marks), tint: true, no_cages: false };
            let page = layout::puzzle_page(Paper::Letter, &title, &title, &p, &fill);
            let s = svg::write(&page, &title);
            prop_assert_eq!(s.matches("<text").count(), s.matches("</text>").count());
            prop_assert!(!s.chars().any(|c| c.is_control() && c != '\n'));
            let bytes = pdf::write(&[page], &title);
            prop_assert!(bytes.starts_with(b"%PDF-"));
            prop_assert!(bytes.ends_with(b"%%EOF") || bytes.ends_with(b"%%EOF\n"));
        }
    }
}
