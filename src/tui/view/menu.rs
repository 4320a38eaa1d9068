//! Drawing the menus: a box over the board holding a title, a list (or the file prompt)
//! and a line of keys. Where each entry lands is computed once ([`list_box`]) for the
//! drawing and for the mouse.

use crate::tui::account::{Account, Step as AccountStep, DELETE_WORD, NAME_RULES};
use crate::tui::menu::{List, NewGame, Step};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders as WBorders, Clear, Paragraph, Widget, Wrap};

/// Where a list box sits: its frame, the rows of entries, and the first entry shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListBox {
    pub frame: Rect,
    pub rows: Rect,
    pub top: usize,
}

impl ListBox {
    /// The entry drawn at a screen position, if any.
    pub fn item_at(&self, list: &List, x: u16, y: u16) -> Option<usize> {
        let r = self.rows;
        if x < r.x || x >= r.right() || y < r.y || y >= r.bottom() {
            return None;
        }
        let i = self.top + usize::from(y - r.y);
        (i < list.items.len()).then_some(i)
    }
}

/// Keys shown under each list.
pub const LIST_KEYS: &str = "j/k move, enter chooses, esc back, letters jump";
/// Keys shown under the picker.
pub const PICKER_KEYS: &str = "j/k move, enter plays, esc closes";

/// The box of a list with `title` and a `footer` line, centred in `area`; scrolled so the
/// selected entry shows.
pub fn list_box(area: Rect, title: &str, footer: &str, list: &List) -> ListBox {
    let widest = list
        .items
        .iter()
        .map(|s| s.chars().count() + 2)
        .chain([title.chars().count() + 2, footer.chars().count()])
        .max()
        .unwrap_or(0) as u16;
    let w = (widest + 4).min(area.width);
    // Frame, list, a blank line and the footer.
    let room = area.height.saturating_sub(4).max(1);
    let shown = (list.items.len() as u16).clamp(1, room);
    let h = (shown + 4).min(area.height);
    let frame = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let rows = Rect::new(
        frame.x + 1,
        frame.y + 1,
        w.saturating_sub(2),
        shown.min(h.saturating_sub(2)),
    );
    let shown = usize::from(rows.height.max(1));
    let top = list.selected.saturating_sub(shown - 1);
    ListBox { frame, rows, top }
}

pub(super) fn block(ascii: bool, title: &str) -> Block<'static> {
    let b = Block::default()
        .borders(WBorders::ALL)
        .title(format!(" {title} "));
    if ascii {
        b.border_set(ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        })
    } else {
        b
    }
}

/// Draws a list box: the selected entry reversed and marked with `>` (so it shows without
/// colour too).
pub fn draw_list(
    area: Rect,
    title: &str,
    footer: &str,
    list: &List,
    ascii: bool,
    buf: &mut Buffer,
) -> ListBox {
    let b = list_box(area, title, footer, list);
    Clear.render(b.frame, buf);
    block(ascii, title).render(b.frame, buf);
    for (row, i) in (b.top..list.items.len())
        .take(usize::from(b.rows.height))
        .enumerate()
    {
        let selected = i == list.selected;
        let text = format!("{}{}", if selected { "> " } else { "  " }, list.items[i]);
        let style = if selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        let y = b.rows.y + row as u16;
        let text: String = text.chars().take(usize::from(b.rows.width)).collect();
        buf.set_string(
            b.rows.x,
            y,
            format!("{text:<w$}", w = usize::from(b.rows.width)),
            style,
        );
    }
    let fy = b.frame.bottom().saturating_sub(2);
    if b.frame.height >= 4 {
        let text: String = footer.chars().take(usize::from(b.rows.width)).collect();
        buf.set_string(
            b.rows.x,
            fy,
            text,
            Style::default().add_modifier(Modifier::DIM),
        );
    }
    // A list longer than its box says where the selection is and that it scrolls.
    if list.items.len() > usize::from(b.rows.height) {
        let at = format!(" {}/{} ", list.selected + 1, list.items.len());
        let w = at.chars().count() as u16;
        if b.frame.width >= w + 4 {
            let x = b.frame.right() - w - 2;
            buf.set_string(x, b.frame.bottom().saturating_sub(1), at, Style::default());
        }
    }
    b
}

/// A one-line text prompt: what to type, the text so far, the last error and the keys.
struct TextPrompt<'a> {
    title: &'a str,
    asks: &'a str,
    typed: &'a str,
    error: Option<&'a str>,
    keys: &'a str,
}

/// Draws a text prompt in a box.
fn text_prompt(area: Rect, prompt: TextPrompt, ascii: bool, buf: &mut Buffer) {
    let TextPrompt {
        title,
        asks,
        typed,
        error,
        keys,
    } = prompt;
    let w = 60.min(area.width);
    let h = 8.min(area.height);
    let frame = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(frame, buf);
    let mut lines = vec![
        Line::raw(asks.to_string()),
        Line::styled(
            format!("> {typed}_"),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ];
    match error {
        Some(e) => lines.push(Line::styled(
            e.to_string(),
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )),
        None => lines.push(Line::raw("")),
    }
    lines.push(Line::styled(
        keys.to_string(),
        Style::default().add_modifier(Modifier::DIM),
    ));
    Paragraph::new(lines)
        .block(block(ascii, title))
        .wrap(Wrap { trim: false })
        .render(frame, buf);
}

/// The new-game menu.
pub fn new_game(menu: &NewGame, area: Rect, ascii: bool, buf: &mut Buffer) {
    match &menu.step {
        Step::File { path, error } => text_prompt(
            area,
            TextPrompt {
                title: &menu.title(),
                asks: "A puzzle file (line format, TOML, collection):",
                typed: path,
                error: error.as_deref(),
                keys: "enter opens, ctrl-u clears, esc back",
            },
            ascii,
            buf,
        ),
        _ => {
            draw_list(area, &menu.title(), LIST_KEYS, &menu.list, ascii, buf);
        }
    }
}

/// A served player's options and account: the list, or the name or deletion prompt.
pub fn account(a: &Account, area: Rect, ascii: bool, buf: &mut Buffer) {
    match &a.step {
        AccountStep::List => {
            draw_list(area, a.title(), LIST_KEYS, &a.list, ascii, buf);
        }
        AccountStep::Name { typed, error } => text_prompt(
            area,
            TextPrompt {
                title: a.title(),
                asks: &format!("Your name ({NAME_RULES}):"),
                typed,
                error: error.as_deref(),
                keys: "enter sets it, esc back",
            },
            ascii,
            buf,
        ),
        AccountStep::Delete { typed } => text_prompt(
            area,
            TextPrompt {
                title: a.title(),
                asks: &format!(
                    "Games, statistics, profile, options and name go for good. \
                     Type `{DELETE_WORD}` to confirm:"
                ),
                typed,
                error: None,
                keys: "enter confirms, esc back",
            },
            ascii,
            buf,
        ),
    }
}

/// The digit bar under the grid (mouse on, and room for it): each digit two columns wide,
/// then `x` to clear. Digits the grid holds in full are dimmed.
pub fn digit_bar(app: &crate::tui::app::App, p: &crate::tui::view::layout::Plan, buf: &mut Buffer) {
    let Some(bar) = p.digit_bar else {
        return;
    };
    let max = app.max_digit();
    let game = &app.game;
    let g = game.geometry();
    for d in 0..=max {
        let Some(x) = p.bar_x(d, max) else {
            continue;
        };
        let square = matches!(g.shape(), crate::geometry::Shape::Square { .. });
        let full = square
            && d > 0
            && g.cells().filter(|&c| game.value(c) == d).count() >= usize::from(max);
        let style = if full {
            Style::default().add_modifier(Modifier::DIM)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        };
        let ch = if d == 0 {
            'x'
        } else {
            crate::geometry::digit_char(d)
        };
        if x < bar.right() {
            buf[(x, bar.y)].set_char(ch).set_style(style);
        }
    }
}
