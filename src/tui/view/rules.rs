//! The rules page: one short text per variant, reached from the help screen.

use crate::puzzle::Variant;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The rules of a variant, a paragraph a line. `size` is the grid side (digits 1..size;
/// a 16x16 grid writes 10..16 as A..G).
pub fn text(variant: Variant, size: usize) -> Vec<String> {
    let digits = if size == 16 {
        "the digits 1-9 and A-G (10-16)".to_string()
    } else {
        format!("the digits 1-{size}")
    };
    let square = format!(
        "Fill every empty cell with one of {digits} so that each row and each column holds \
         each digit exactly once."
    );
    match variant {
        Variant::Standard => vec![
            square,
            "Each box (the blocks outlined in bold) also holds each digit exactly once.".into(),
        ],
        Variant::Diagonal => vec![
            square,
            "Each box (the blocks outlined in bold) also holds each digit exactly once.".into(),
            "So do the two long diagonals, r1c1 to r9c9 (diagonal \\) and r9c1 to r1c9 \
             (diagonal /)."
                .into(),
        ],
        Variant::Jigsaw => vec![
            square,
            "Instead of square boxes the grid is cut into irregular regions (outlined in \
             bold, lettered A, B, ...); each region also holds each digit exactly once."
                .into(),
        ],
        Variant::Killer => vec![
            square,
            "Each box (the blocks outlined in bold) also holds each digit exactly once.".into(),
            "Cages (dotted outlines, the sum in the first cell) hold digits that add up to \
             the sum, and no digit repeats within a cage."
                .into(),
        ],
        Variant::Honeycomb => vec![
            "The grid is a hexagon of 61 cells in 9 rows of 5 to 9 cells; every cell lies on \
             three lines: its row, a / line and a \\ line."
                .into(),
            "Fill every empty cell with a digit from 1 to 9. The digits of each line are all \
             different and form a run of consecutive numbers: a line of 9 cells holds 1 to 9, \
             a line of 5 cells holds five consecutive digits such as 3 4 5 6 7, in any order."
                .into(),
        ],
    }
}

/// Draws the rules of `variant` with a title and the key that closes the page.
pub fn draw(
    variant: Variant,
    size: usize,
    scroll: u16,
    area: Rect,
    title: ratatui::style::Style,
    buf: &mut Buffer,
) {
    let mut lines = vec![
        Line::styled(format!("Rules: {variant} sudoku (esc closes)"), title),
        Line::raw(""),
    ];
    for p in text(variant, size) {
        lines.push(Line::raw(p));
        lines.push(Line::raw(""));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .render(area, buf);
}
