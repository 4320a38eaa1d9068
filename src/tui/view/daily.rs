//! The daily screen: the day's variants with the player's results, the selected one's
//! leaderboard and the streak (the lines come from [`crate::tui::daily::lines`]).

use crate::tui::app::{Message, Tone};
use crate::tui::daily::{lines, Daily};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

/// Draws the screen over the whole area: the heading in the title style, the selected
/// variant reversed (it is also marked `>`, for screens without colour), the player's own
/// leaderboard row bold, the message (a solve's rank) in its tone's style.
pub fn draw(
    d: &Daily,
    message: Option<&Message>,
    area: Rect,
    styles: (Style, Style, Style),
    buf: &mut Buffer,
) {
    let (title, info, warning) = styles;
    let text = lines(
        d,
        message.map(|m| m.text.as_str()),
        usize::from(area.height),
    );
    for (i, line) in text.iter().take(usize::from(area.height)).enumerate() {
        let style = if i == 0 {
            title
        } else if message.is_some_and(|m| m.text == *line) {
            match message.map(|m| m.tone) {
                Some(Tone::Warning) => warning,
                _ => info,
            }
        } else if line.starts_with('>') {
            Style::default().add_modifier(Modifier::REVERSED)
        } else if line.ends_with("(you)") {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        let shown: String = line.chars().take(usize::from(area.width)).collect();
        buf.set_string(area.x, area.y + i as u16, shown, style);
    }
}
