//! Pages as a PDF (`pdf-writer`): vector paths and Helvetica from the base-14 fonts, which
//! every reader has, so nothing is embedded. Text the font's WinAnsi encoding cannot hold is
//! transliterated (`deunicode`), never dropped.

use super::layout::{Anchor, Cap, Color, Item, Page, Stroke};
use super::metrics::text_width;
use pdf_writer::types::LineCapStyle;
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

const REGULAR: Name = Name(b"F1");
const BOLD: Name = Name(b"F2");

/// The WinAnsi byte of a character outside ASCII and Latin-1 that the encoding has.
fn winansi_extra(c: char) -> Option<u8> {
    Some(match c {
        '€' => 0x80,
        '‚' => 0x82,
        'ƒ' => 0x83,
        '„' => 0x84,
        '…' => 0x85,
        '†' => 0x86,
        '‡' => 0x87,
        'ˆ' => 0x88,
        '‰' => 0x89,
        'Š' => 0x8A,
        '‹' => 0x8B,
        'Œ' => 0x8C,
        'Ž' => 0x8E,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '˜' => 0x98,
        '™' => 0x99,
        'š' => 0x9A,
        '›' => 0x9B,
        'œ' => 0x9C,
        'ž' => 0x9E,
        'Ÿ' => 0x9F,
        _ => return None,
    })
}

/// `text` in the fonts' WinAnsi encoding: what it lacks is transliterated ("東京" becomes
/// "Dong Jing"), and what has no transliteration becomes '?'.
pub fn winansi(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' '..='~' => out.push(c as u8),
            '\u{a0}'..='\u{ff}' => out.push(c as u32 as u8),
            c if c.is_control() => out.push(b' '),
            c => match winansi_extra(c) {
                Some(b) => out.push(b),
                None => {
                    let ascii = deunicode::deunicode_char(c).unwrap_or("?");
                    out.extend(ascii.bytes().filter(|b| (b' '..=b'~').contains(b)));
                }
            },
        }
    }
    out
}

/// Width of WinAnsi bytes (bytes past ASCII count as an average letter).
fn encoded_width(bytes: &[u8], size: f32, bold: bool) -> f32 {
    let s: String = bytes
        .iter()
        .map(|&b| if b < 0x7f { b as char } else { 'x' })
        .collect();
    let w = text_width(&s, size, bold);
    let extra = bytes.iter().filter(|&&b| b >= 0x7f).count() as f32;
    w + extra * (0.556 - 0.5) * size * if bold { 1.06 } else { 1.0 }
}

fn rgb(c: Color) -> (f32, f32, f32) {
    (
        f32::from(c.0) / 255.0,
        f32::from(c.1) / 255.0,
        f32::from(c.2) / 255.0,
    )
}

/// Emits graphics state only when it changes: a booklet page repeats the same few strokes
/// hundreds of times.
#[derive(Default)]
struct State {
    stroke: Option<Stroke>,
    fill: Option<Color>,
}

impl State {
    fn set_stroke(&mut self, c: &mut Content, s: &Stroke) {
        let old = self.stroke;
        if old.map(|o| o.width) != Some(s.width) {
            c.set_line_width(s.width);
        }
        if old.map(|o| o.color) != Some(s.color) {
            let (r, g, b) = rgb(s.color);
            c.set_stroke_rgb(r, g, b);
        }
        if old.map(|o| o.dash) != Some(s.dash) {
            match s.dash {
                Some(d) => c.set_dash_pattern([d.on, d.off], d.phase),
                None => c.set_dash_pattern([], 0.0),
            };
        }
        if old.map(|o| o.cap) != Some(s.cap) {
            c.set_line_cap(match s.cap {
                Cap::Butt => LineCapStyle::ButtCap,
                Cap::Square => LineCapStyle::ProjectingSquareCap,
                Cap::Round => LineCapStyle::RoundCap,
            });
        }
        self.stroke = Some(*s);
    }

    fn set_fill(&mut self, c: &mut Content, color: Color) {
        if self.fill != Some(color) {
            let (r, g, b) = rgb(color);
            c.set_fill_rgb(r, g, b);
            self.fill = Some(color);
        }
    }
}

/// The content stream of a page (PDF's `y` runs up, the layout's down).
fn content(page: &Page) -> Vec<u8> {
    let h = page.height;
    let mut c = Content::new();
    let mut st = State::default();
    for item in &page.items {
        match item {
            Item::Line { from, to, stroke } => {
                st.set_stroke(&mut c, stroke);
                c.move_to(from.0, h - from.1);
                c.line_to(to.0, h - to.1);
                c.stroke();
            }
            Item::Polygon {
                points,
                fill,
                stroke,
            } => {
                let Some((first, rest)) = points.split_first() else {
                    continue;
                };
                if let Some(s) = stroke {
                    st.set_stroke(&mut c, s);
                }
                if let Some(f) = fill {
                    st.set_fill(&mut c, *f);
                }
                c.move_to(first.0, h - first.1);
                for p in rest {
                    c.line_to(p.0, h - p.1);
                }
                c.close_path();
                match (fill, stroke) {
                    (Some(_), Some(_)) => c.fill_nonzero_and_stroke(),
                    (Some(_), None) => c.fill_nonzero(),
                    (None, Some(_)) => c.stroke(),
                    (None, None) => c.end_path(),
                };
            }
            Item::Text {
                at,
                size,
                text,
                anchor,
                bold,
                color,
            } => {
                let bytes = winansi(text);
                let w = encoded_width(&bytes, *size, *bold);
                let x = match anchor {
                    Anchor::Start => at.0,
                    Anchor::Middle => at.0 - w / 2.0,
                    Anchor::End => at.0 - w,
                };
                st.set_fill(&mut c, *color);
                c.begin_text();
                c.set_font(if *bold { BOLD } else { REGULAR }, *size);
                c.set_text_matrix([1.0, 0.0, 0.0, 1.0, x, h - at.1]);
                c.show(Str(&bytes));
                c.end_text();
            }
        }
    }
    c.finish().to_vec()
}

/// A PDF of `pages`; `title` goes in the document information. Content streams are
/// deflated (a 1,000-puzzle booklet stays a few megabytes).
pub fn write(pages: &[Page], title: &str) -> Vec<u8> {
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let regular = Ref::new(3);
    let bold = Ref::new(4);
    let info = Ref::new(5);
    let page_ref = |i: usize| Ref::new(6 + 2 * i as i32);
    let content_ref = |i: usize| Ref::new(7 + 2 * i as i32);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids((0..pages.len()).map(page_ref))
        .count(pages.len() as i32);
    pdf.type1_font(regular)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    pdf.type1_font(bold)
        .base_font(Name(b"Helvetica-Bold"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr("termdoku"));
    for (i, page) in pages.iter().enumerate() {
        let mut p = pdf.page(page_ref(i));
        p.parent(tree)
            .media_box(Rect::new(0.0, 0.0, page.width, page.height))
            .contents(content_ref(i));
        p.resources()
            .fonts()
            .pair(REGULAR, regular)
            .pair(BOLD, bold);
        p.finish();
        let raw = content(page);
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 3);
        pdf.stream(content_ref(i), &packed)
            .filter(Filter::FlateDecode);
    }
    pdf.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_outside_the_font_is_transliterated_not_lost() {
        assert_eq!(winansi("Café – 5€"), b"Caf\xe9 \x96 5\x80".to_vec());
        let tokyo = winansi("東京");
        assert!(tokyo.iter().all(u8::is_ascii_alphabetic) || tokyo.contains(&b' '));
        assert!(tokyo.len() >= 4, "{:?}", String::from_utf8_lossy(&tokyo));
        assert_eq!(winansi("a\u{0}b"), b"a b".to_vec());
    }

    #[test]
    fn pages_and_fonts_are_written() {
        let page = Page {
            width: 100.0,
            height: 100.0,
            items: vec![Item::Text {
                at: (50.0, 50.0),
                size: 10.0,
                text: "x".into(),
                anchor: Anchor::Middle,
                bold: false,
                color: Color::BLACK,
            }],
        };
        let bytes = write(&[page.clone(), page], "t");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("%PDF-"));
        assert!(text.contains("/Count 2"));
        assert!(text.contains("/Helvetica-Bold"));
    }
}
