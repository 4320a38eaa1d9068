//! Text widths of Helvetica (the PDF base-14 font both outputs name), so titles can be
//! centred and shrunk to fit before either writer sees them.

/// Advance widths of ASCII 32..=126 in Helvetica, in thousandths of the font size (the
/// font's published AFM metrics).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

/// Width of `text` at `size` points; bold runs about 6% wider. Characters outside ASCII
/// count as an average letter.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    let units: u32 = text
        .chars()
        .map(|c| {
            let i = c as u32;
            if (32..=126).contains(&i) {
                u32::from(HELVETICA[(i - 32) as usize])
            } else {
                556
            }
        })
        .sum();
    let w = units as f32 * size / 1000.0;
    if bold {
        w * 1.06
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_half_an_em_and_bold_is_wider() {
        assert!((text_width("12", 10.0, false) - 11.12).abs() < 0.01);
        assert!(text_width("Wide", 10.0, true) > text_width("Wide", 10.0, false));
        assert_eq!(text_width("", 10.0, false), 0.0);
    }
}
