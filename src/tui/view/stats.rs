//! The statistics screen: totals, then one line per kind of game played.

use crate::game::stats::Stats;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

/// `m:ss`, or `-` without a time.
fn time(ms: Option<u64>) -> String {
    match ms {
        Some(ms) => {
            let s = ms / 1000;
            if s >= 3600 {
                format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
            } else {
                format!("{}:{:02}", s / 60, s % 60)
            }
        }
        None => "-".into(),
    }
}

/// The screen's lines (also for tests).
pub fn lines(stats: &Stats) -> Vec<String> {
    let mut out = vec![
        format!(
            "All games: {} started, {} solved.",
            stats.started, stats.solved
        ),
        "Best and average times count unassisted solves only".into(),
        "(no full hint step, apply, finish or reveal).".into(),
        String::new(),
    ];
    let rows = stats.sorted();
    if rows.is_empty() {
        out.push("No games recorded yet.".into());
    } else {
        out.push(format!(
            "{:<26} {:>5} {:>6} {:>8} {:>8} {:>8} {:>5}",
            "game", "games", "solved", "assisted", "best", "average", "hints"
        ));
        for t in rows {
            out.push(format!(
                "{:<26} {:>5} {:>6} {:>8} {:>8} {:>8} {:>5}",
                t.kind.label(),
                t.started,
                t.solved,
                t.assisted,
                time(t.best_ms),
                time(t.average_ms()),
                t.hints
            ));
        }
    }
    if let Some(e) = stats.earlier {
        out.push(String::new());
        out.push(format!(
            "Earlier games (variant not recorded): {} started, {} solved.",
            e.started, e.solved
        ));
        let bests: Vec<String> = ["easy", "medium", "hard", "unfair", "extreme"]
            .iter()
            .filter_map(|l| {
                stats
                    .best_ms
                    .get(*l)
                    .map(|&ms| format!("{l} {}", time(Some(ms))))
            })
            .collect();
        if !bests.is_empty() {
            out.push(format!("Best per level, all games: {}.", bests.join(", ")));
        }
    }
    out
}

/// Draws the screen scrolled by `scroll` lines.
pub fn draw(stats: &Stats, scroll: u16, area: Rect, title: Style, buf: &mut Buffer) {
    let mut text = vec![Line::styled("Statistics (esc closes, j/k scroll)", title)];
    let body = lines(stats);
    let skip = usize::from(scroll).min(body.len().saturating_sub(1));
    for (i, l) in body.into_iter().enumerate().skip(skip) {
        let style = if i == 3 {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        text.push(Line::styled(l, style));
    }
    Paragraph::new(text).render(area, buf);
}
