//! The hint card: on a screen whose panel holds a line or none (80x24 and smaller), a hint
//! or message longer than that line is shown whole in a card over the grid, on the half
//! that hides fewer of the cells it talks about. Without it the full step of a hint would
//! be cut to its first words exactly where most players sit.

use super::layout::{Panel, Plan};
use super::App;
use crate::solver::logic::Target;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Padding, Paragraph, Widget};

/// Columns the status line keeps for its counters (clock, mistakes, mode, `? help`) when
/// the panel is folded into it.
const STATUS_COUNTERS: usize = 40;

/// Without a panel, whether the news fits in the status line beside its counters; else
/// it gets a card of its own (and the status line leaves it out).
pub fn fits_status(p: &Plan, news: &News) -> bool {
    format!("{}: {}", news.title, news.text).chars().count() + STATUS_COUNTERS
        <= usize::from(p.status.width)
}

/// What the card shows: a title, the words, and a dim last line (the next keys).
pub struct News {
    pub title: String,
    pub text: String,
    pub keys: Option<&'static str>,
    /// How a message (no keys) that fits the screen's width is drawn on its strip.
    pub style: Style,
}

/// Draws the card when `news` does not fit where the plan puts it.
pub fn draw(app: &App, p: &Plan, news: &News, buf: &mut Buffer) {
    let line = format!("{}: {}", news.title, news.text);
    let keys = usize::from(news.keys.is_some());
    let fits = match p.panel {
        // The panel's head line, the words, the keys (see `panel`).
        Panel::Side(r) => {
            1 + wrapped(&news.text, usize::from(r.width)).len() + keys <= usize::from(r.height)
        }
        Panel::Below(r) => wrapped(&line, usize::from(r.width)).len() <= usize::from(r.height),
        Panel::Status => fits_status(p, news),
    };
    if fits {
        return;
    }
    let w = p.status.width;
    let g = app.game.geometry();
    // A line of the grid's frame that no cell covers: the bottom border, or the top line
    // when stacked honeycomb rows reach the bottom.
    let free = [p.grid.bottom().saturating_sub(1), p.grid.y]
        .into_iter()
        .find(|&y| {
            g.cells()
                .all(|c| !p.cell_rect(g, c).intersects(Rect::new(0, y, u16::MAX, 1)))
        });
    if let (true, Some(y)) = (
        news.keys.is_none() && news.text.chars().count() <= usize::from(w),
        free,
    ) {
        // A short message takes one line, over the grid's frame, not a box.
        let strip = Rect::new(p.status.x, y, w, 1);
        Clear.render(strip, buf);
        buf.set_string(strip.x, y, &news.text, news.style);
        return;
    }
    let inner = usize::from(w.saturating_sub(4));
    let mut body = wrapped(&news.text, inner);
    let most = usize::from((p.grid.height / 2).max(5)).saturating_sub(2 + keys);
    if body.len() > most {
        body.truncate(most.max(1));
        if let Some(last) = body.last_mut() {
            // The cut is said, not hidden: the step goes on past the card.
            while last.chars().count() + 1 > inner && last.pop().is_some() {}
            last.push('…');
        }
    }
    let h = (body.len() + 2 + keys) as u16;
    let h = h.min(p.grid.height);
    let top = Rect::new(p.status.x, p.grid.y, w, h);
    let bottom = Rect::new(p.status.x, p.grid.bottom().saturating_sub(h), w, h);
    let focus = focus_cells(app);
    let hidden = |r: Rect| {
        focus
            .iter()
            .filter(|&&c| p.cell_rect(g, c).intersects(r))
            .count()
    };
    let rect = if hidden(bottom) <= hidden(top) {
        bottom
    } else {
        top
    };
    let mut lines: Vec<Line> = body.into_iter().map(Line::raw).collect();
    if let Some(keys) = news.keys {
        lines.push(Line::styled(
            keys,
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .block(super::menu::block(app.ascii, &news.title).padding(Padding::horizontal(1)))
        .render(rect, buf);
}

/// The cells a hint names (its highlights), else the selected cell.
fn focus_cells(app: &App) -> Vec<usize> {
    let g = app.game.geometry();
    let mut out = vec![app.cursor];
    if let Some(hs) = &app.hint {
        for h in &hs.hint.highlights {
            match h.target {
                Target::Cell(c) => out.push(c),
                Target::Candidate(x) => out.push(x.cell),
                Target::Link(a, b, _) => out.extend([a.cell, b.cell]),
                Target::House(house) => out.extend(g.house(house).cells.iter().copied()),
            }
        }
    }
    out
}

/// Greedy word wrap to `width` columns (a word longer than a line is cut, after a `/` when
/// one fits: a path breaks between its folders).
pub fn wrapped(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let len = cur.chars().count();
            let sep = usize::from(len > 0);
            if len + sep + word.len() <= width {
                if sep == 1 {
                    cur.push(' ');
                }
                cur.extend(word.iter());
                break;
            }
            if len > 0 {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            // A word wider than the line: as much as fits, the rest on the next.
            let cut = word[..width]
                .iter()
                .rposition(|&c| c == '/')
                .filter(|&i| i > 0)
                .map_or(width, |i| i + 1);
            let rest = word.split_off(cut);
            out.push(word.into_iter().collect());
            word = rest;
        }
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn wrapping_keeps_every_word_in_order_within_the_width() {
        let text = "Forcing Net: r8c6=1 -> r6c4<>6 (r6c4=6 would lead to a contradiction) -> \
                    r6c4=9 leads to a contradiction (row 2 can hold no run); so remove 1 from r8c6";
        for width in [17, 40, 76] {
            let lines = wrapped(text, width);
            assert!(
                lines.iter().all(|l| l.chars().count() <= width),
                "{lines:?}"
            );
            assert_eq!(
                lines.join(" "),
                text.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
        assert_eq!(wrapped("abcdefghij", 4), ["abcd", "efgh", "ij"]);
    }

    #[test]
    fn a_long_path_breaks_between_folders() {
        let text = "Puzzle 1 of /tmp/deep/some/rather/long/directory/name/for/puzzles/honeycomb-extreme.txt.";
        assert_eq!(
            wrapped(text, 22),
            [
                "Puzzle 1 of",
                "/tmp/deep/some/rather/",
                "long/directory/name/",
                "for/puzzles/",
                "honeycomb-extreme.txt."
            ]
        );
        // No folder break within the width: cut at the width.
        assert_eq!(wrapped("/abcdefgh/ij", 5), ["/abcd", "efgh/", "ij"]);
    }
}
