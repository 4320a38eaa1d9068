//! A page as an SVG document, written by hand: a handful of element kinds, every text
//! escaped.

use super::layout::{Anchor, Cap, Color, Item, Page, Stroke};
use std::fmt::Write;

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 allows no other control characters, not even as references.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn color(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn stroke_attrs(out: &mut String, s: &Stroke) {
    let _ = write!(
        out,
        " stroke=\"{}\" stroke-width=\"{:.2}\"",
        color(s.color),
        s.width
    );
    if let Some(d) = s.dash {
        let _ = write!(
            out,
            " stroke-dasharray=\"{:.2} {:.2}\" stroke-dashoffset=\"{:.2}\"",
            d.on, d.off, d.phase
        );
    }
    match s.cap {
        Cap::Butt => {}
        Cap::Square => out.push_str(" stroke-linecap=\"square\""),
        Cap::Round => out.push_str(" stroke-linecap=\"round\" stroke-linejoin=\"round\""),
    }
}

/// How every page this writer makes begins: a file that does not begin so was not written
/// by termdoku (or was edited since), and an export never removes it.
const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"";

/// Whether `start` (a file's first bytes) is how [`write`] begins a page.
pub fn written_here(start: &[u8]) -> bool {
    start.starts_with(HEAD.as_bytes())
}

/// The SVG text of a page; `title` goes in the document's `<title>`.
pub fn write(page: &Page, title: &str) -> String {
    let mut out = String::with_capacity(64 * page.items.len() + 512);
    out.push_str(HEAD);
    let _ = writeln!(
        out,
        "{w:.2}pt\" height=\"{h:.2}pt\" viewBox=\"0 0 {w:.2} {h:.2}\">",
        w = page.width,
        h = page.height
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#ffffff\"/>",
        page.width, page.height
    );
    out.push_str("<g font-family=\"Helvetica, Arial, sans-serif\">\n");
    for item in &page.items {
        match item {
            Item::Line { from, to, stroke } => {
                let _ = write!(
                    out,
                    "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\"",
                    from.0, from.1, to.0, to.1
                );
                stroke_attrs(&mut out, stroke);
                out.push_str("/>\n");
            }
            Item::Polygon {
                points,
                fill,
                stroke,
            } => {
                out.push_str("<polygon points=\"");
                for (i, p) in points.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " " };
                    let _ = write!(out, "{sep}{:.2},{:.2}", p.0, p.1);
                }
                let _ = write!(
                    out,
                    "\" fill=\"{}\"",
                    fill.map_or_else(|| "none".to_string(), color)
                );
                if let Some(s) = stroke {
                    stroke_attrs(&mut out, s);
                }
                out.push_str("/>\n");
            }
            Item::Text {
                at,
                size,
                text,
                anchor,
                bold,
                color: c,
            } => {
                let _ = write!(
                    out,
                    "<text x=\"{:.2}\" y=\"{:.2}\" font-size=\"{:.2}\"",
                    at.0, at.1, size
                );
                match anchor {
                    Anchor::Start => {}
                    Anchor::Middle => out.push_str(" text-anchor=\"middle\""),
                    Anchor::End => out.push_str(" text-anchor=\"end\""),
                }
                if *bold {
                    out.push_str(" font-weight=\"bold\"");
                }
                if *c != Color::BLACK {
                    let _ = write!(out, " fill=\"{}\"", color(*c));
                }
                let _ = writeln!(out, ">{}</text>", escape(text));
            }
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot; ");
        let page = Page {
            width: 10.0,
            height: 10.0,
            items: vec![Item::Text {
                at: (1.0, 2.0),
                size: 3.0,
                text: "</text><script>".into(),
                anchor: Anchor::Middle,
                bold: true,
                color: Color::BLACK,
            }],
        };
        let svg = write(&page, "T&T");
        assert!(svg.contains("&lt;/text&gt;&lt;script&gt;"));
        assert!(svg.contains("<title>T&amp;T</title>"));
        assert!(!svg.contains("<script>"));
    }
}
