//! Drawing: a pure function of the [`App`]. Chooses the largest layout that fits, else an
//! "enlarge" screen.

pub mod board;

use super::app::{App, Screen, Tone};
use super::config::{CandidateMode, Command};
use board::Metrics;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders as WBorders, Clear, Paragraph, Widget, Wrap};

/// Narrowest side panel.
pub const PANEL_MIN: u16 = 30;

/// The layout for an area: the grid metrics, or `None` when even the compact one does not
/// fit (then the second value is the size needed).
pub fn choose(app: &App, area: Rect) -> (Option<Metrics>, (u16, u16)) {
    let g = app.game.geometry();
    let fits = |m: Metrics| {
        let (w, h) = board::grid_size(g, m);
        (
            w + 1 + PANEL_MIN <= area.width && h < area.height,
            (w + 1 + PANEL_MIN, h + 1),
        )
    };
    if app.config.display.candidates != CandidateMode::Panel {
        let mini = Metrics::mini(g.max_digit());
        if fits(mini).0 {
            return (Some(mini), fits(mini).1);
        }
    }
    let compact = Metrics::compact();
    let (ok, need) = fits(compact);
    (ok.then_some(compact), need)
}

/// Draws the whole screen.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let (metrics, need) = choose(app, area);
    let Some(m) = metrics else {
        enlarge(app, area, need, buf);
        return;
    };
    match app.screen {
        Screen::Help => help(app, area, buf),
        _ => {
            play(app, m, area, buf);
            if let Screen::NewGame(menu) = app.screen {
                new_game_menu(app, menu, area, buf);
            }
        }
    }
}

fn enlarge(app: &App, area: Rect, (w, h): (u16, u16), buf: &mut Buffer) {
    let lines = vec![
        Line::styled("Terminal too small", app.theme.error),
        Line::raw(format!("now {}x{}", area.width, area.height)),
        Line::raw(format!("enlarge to {w}x{h}")),
    ];
    let y = area.y + area.height.saturating_sub(3) / 2;
    let rect = Rect::new(area.x, y, area.width, 3.min(area.height));
    Paragraph::new(lines)
        .alignment(ratatui::layout::Alignment::Center)
        .render(rect, buf);
}

fn clock(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

fn mode(app: &App) -> &'static str {
    if app.game.paused {
        "PAUSED"
    } else if app.mark_next {
        "MARK NEXT"
    } else if app.pencil {
        "PENCIL"
    } else {
        "DIGITS"
    }
}

fn play(app: &App, m: Metrics, area: Rect, buf: &mut Buffer) {
    let g = app.game.geometry();
    let (gw, gh) = board::grid_size(g, m);
    let ox = area.x;
    let oy = area.y;
    board::draw(app, m, ox, oy, buf);
    if app.game.paused {
        let text = "Paused: press P to resume";
        let x = ox + gw.saturating_sub(text.len() as u16) / 2;
        buf.set_string(x, oy + gh / 2, text, app.theme.title);
    }
    // Status line.
    let p = app.game.puzzle();
    let sep = if app.ascii { " | " } else { " │ " };
    let mut status = format!(
        " {}{}{}",
        p.variant(),
        p.difficulty
            .as_deref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default(),
        sep
    );
    if app.config.display.show_timer {
        status += &format!("{}{sep}", clock(app.game.elapsed_ms));
    }
    status += &format!(
        "mistakes {}{sep}{}{sep}? help",
        app.game.mistakes,
        mode(app)
    );
    let sy = area.y + area.height - 1;
    buf.set_string(
        area.x,
        sy,
        &status,
        Style::default().add_modifier(Modifier::REVERSED),
    );
    for x in area.x + status.chars().count() as u16..area.right() {
        buf[(x, sy)].set_style(Style::default().add_modifier(Modifier::REVERSED));
    }
    // Side panel.
    let px = ox + gw + 1;
    let panel = Rect::new(px, area.y, area.right().saturating_sub(px), area.height - 1);
    side_panel(app, m, panel, buf);
}

fn side_panel(app: &App, m: Metrics, area: Rect, buf: &mut Buffer) {
    let t = &app.theme;
    let g = app.game.geometry();
    let p = app.game.puzzle();
    let mut lines: Vec<Line> = Vec::new();
    let title = p
        .title
        .clone()
        .unwrap_or_else(|| format!("{} sudoku", p.variant()));
    lines.push(Line::styled(title, t.title));
    if app.config.display.show_timer {
        lines.push(Line::raw(format!(
            "Time {}  Mistakes {}  Hints {}",
            clock(app.game.elapsed_ms),
            app.game.mistakes,
            app.game.hints_used
        )));
    } else {
        lines.push(Line::raw(format!(
            "Mistakes {}  Hints {}",
            app.game.mistakes, app.game.hints_used
        )));
    }
    lines.push(Line::raw(format!("Mode {}", mode(app))));
    let cell = app.cursor;
    let value = app.game.value(cell);
    let what = if value == 0 {
        let marks = app.game.marks(cell);
        if marks.is_empty() {
            "empty".to_string()
        } else {
            let ds: Vec<String> = marks
                .iter()
                .map(|d| crate::geometry::digit_char(d).to_string())
                .collect();
            format!("marks {}", ds.join(" "))
        }
    } else if app.game.is_given(cell) {
        format!("given {}", crate::geometry::digit_char(value))
    } else {
        format!("entry {}", crate::geometry::digit_char(value))
    };
    // In compact mode the marks are only visible here.
    if !m.mini || value != 0 {
        lines.push(Line::raw(format!("Cell {}: {what}", g.cell_name(cell))));
    } else {
        lines.push(Line::raw(format!("Cell {}", g.cell_name(cell))));
    }
    if app.game.solved {
        lines.push(Line::styled(
            "Solved!",
            t.message.add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::raw(""));
    if let Some(hs) = &app.hint {
        lines.push(Line::styled(
            format!(
                "Hint {}/3: {}",
                hs.stage,
                ["where", "what", "step"][usize::from(hs.stage.clamp(1, 3)) - 1]
            ),
            t.title,
        ));
        lines.push(Line::raw(hs.hint.text(hs.detail()).to_string()));
        let next = match hs.stage {
            1 => "H again: which technique",
            2 => "H again: the full step",
            _ => "H again: apply it (u undoes)",
        };
        lines.push(Line::styled(
            next,
            Style::default().add_modifier(Modifier::DIM),
        ));
        lines.push(Line::raw(""));
    }
    if let Some(msg) = &app.message {
        let style = match msg.tone {
            Tone::Info => t.message,
            Tone::Warning => t.error,
        };
        lines.push(Line::styled(msg.text.clone(), style));
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}

/// The help screen, generated from the keymap.
fn help(app: &App, area: Rect, buf: &mut Buffer) {
    let rows = help_rows(app);
    let mut lines = vec![Line::styled(
        "Keys (? or esc closes this help)",
        app.theme.title,
    )];
    let key_w = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .min(22);
    let one_column = rows.len() < area.height as usize;
    if one_column {
        for (keys, desc) in &rows {
            lines.push(Line::from(vec![
                Span::styled(
                    format!(" {keys:<key_w$}  "),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(desc.clone()),
            ]));
        }
        Paragraph::new(lines).render(area, buf);
        return;
    }
    Paragraph::new(lines).render(area, buf);
    let half = rows.len().div_ceil(2);
    let col_w = area.width / 2;
    for (i, (keys, desc)) in rows.iter().enumerate() {
        let (x, y) = (
            area.x + (i / half) as u16 * col_w,
            area.y + 1 + (i % half) as u16,
        );
        if y >= area.bottom() {
            continue;
        }
        let text = format!(" {keys:<key_w$}  {desc}");
        let text: String = text
            .chars()
            .take(col_w.saturating_sub(1) as usize)
            .collect();
        buf.set_string(x, y, text, Style::default());
    }
}

/// (keys, description) per help line; the digit commands are folded into two lines.
pub fn help_rows(app: &App) -> Vec<(String, String)> {
    let km = &app.keymap;
    let names = |c: Command| {
        km.keys_of(c)
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut rows = Vec::new();
    let mut digits_done = false;
    for &c in Command::ALL {
        match c.digit() {
            Some(_) if digits_done => continue,
            Some(_) => {
                digits_done = true;
                let span = |lo: u8, hi: u8| {
                    Command::ALL
                        .iter()
                        .filter(|c| c.digit().is_some_and(|d| (lo..=hi).contains(&d)))
                        .map(|&c| names(c))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                rows.push((
                    span(1, 9),
                    "Place a digit (a pencil mark in pencil mode)".to_string(),
                ));
                rows.push((span(10, 16), "Digits 10-16 (16x16 grids only)".to_string()));
            }
            None => rows.push((names(c), c.description().to_string())),
        }
    }
    rows
}

fn new_game_menu(app: &App, menu: super::app::Menu, area: Rect, buf: &mut Buffer) {
    use crate::game::library::DIFFICULTIES;
    use crate::puzzle::Variant;
    let w = 40.min(area.width);
    let h = 7.min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(rect, buf);
    let mark = |row: usize| if menu.row == row { "> " } else { "  " };
    let variant = Variant::ALL[menu.variant % Variant::ALL.len()];
    let difficulty = DIFFICULTIES[menu.difficulty % DIFFICULTIES.len()];
    let lines = vec![
        Line::raw(format!("{}Variant     < {variant} >", mark(0))),
        Line::raw(format!("{}Difficulty  < {difficulty} >", mark(1))),
        Line::raw(""),
        Line::styled(
            "up/down choose, left/right change, enter starts, esc cancels",
            Style::default().add_modifier(Modifier::DIM),
        ),
    ];
    let block = if app.ascii {
        Block::default()
            .borders(WBorders::ALL)
            .border_set(ratatui::symbols::border::Set {
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
        Block::default().borders(WBorders::ALL)
    };
    Paragraph::new(lines)
        .block(block.title(" New game "))
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}
