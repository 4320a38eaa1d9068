//! A technique's page: its three parts, then the example position from the drill bank
//! with the step's roles in the theme's hint styles (and markers that read without
//! colour), then the step's text. Scrolled with the move keys.

use super::super::app::App;
use crate::coach::pages;
use crate::solver::logic::{technique, Detail};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

/// The page's lines at this width.
pub fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let Some(id) = app.page else {
        return Vec::new();
    };
    let width = usize::from(width).max(20);
    let t = &app.theme;
    let mut out = Vec::new();
    let (name, level) = technique(id).map_or((id, ""), |t| (t.name, t.level.name()));
    out.push(Line::styled(
        format!("{name} ({level})  esc: back  j k: scroll"),
        t.title,
    ));
    out.push(Line::raw(""));
    if let Some(page) = pages::page(id) {
        for l in pages::text_lines(page, width) {
            // Headings (unindented) stand out.
            let bold = !l.starts_with(' ') && !l.is_empty();
            out.push(if bold {
                Line::styled(l, Style::default().add_modifier(Modifier::BOLD))
            } else {
                Line::raw(l)
            });
        }
    }
    match pages::example(id) {
        Some(ex) => {
            out.push(Line::styled(
                format!("On a position from the drill bank ({}):", ex.variant.name()),
                Style::default().add_modifier(Modifier::BOLD),
            ));
            for row in pages::draw(&ex.position, &ex.step) {
                let spans: Vec<Span> = row
                    .into_iter()
                    .map(|(text, role)| match role {
                        Some(r) => Span::styled(text, t.role(r)),
                        None => Span::raw(text),
                    })
                    .collect();
                out.push(Line::from(spans));
            }
            out.push(Line::raw(pages::LEGEND));
            let text = ex.step.explain(ex.position.grid.geometry(), Detail::Full);
            out.extend(pages::wrap(&text, width, "").into_iter().map(Line::raw));
        }
        None => out.push(Line::raw(
            "The drill bank has no position for this technique yet.",
        )),
    }
    out
}

pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let lines = lines(app, area.width);
    let room = usize::from(area.height);
    let skip = usize::from(app.page_scroll).min(lines.len().saturating_sub(room));
    Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>()).render(area, buf);
}
