//! Drawing: a pure function of the [`App`]. [`layout::plan`] decides the screen from the
//! area and the puzzle; everything here reads that plan, or shows an "enlarge" screen when
//! not even the grid fits.

pub mod board;
mod card;
pub mod daily;
pub mod layout;
pub mod menu;
pub mod page;
pub mod rules;
pub mod stats;

use super::app::{App, Screen, Tone};
use super::config::{CandidateMode, Command};
use crate::geometry::{digit_char, Digits, HouseKind, Rule};
use layout::{Panel, Plan};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

/// The plan for this app on this area, or the size the smallest layout needs; with the
/// mouse on, a digit bar under the grid where there is room.
pub fn plan(app: &App, area: Rect) -> Result<Plan, (u16, u16)> {
    let marks = app.config.display.candidates != CandidateMode::Panel;
    let p = layout::plan(app.game.geometry(), area, marks)?;
    Ok(if app.config.display.mouse {
        p.with_digit_bar(app.max_digit())
    } else {
        p
    })
}

/// Draws the whole screen.
pub fn draw(app: &App, area: Rect, buf: &mut Buffer) {
    let p = match plan(app, area) {
        Ok(p) => p,
        Err(need) => {
            enlarge(app, area, need, buf);
            return;
        }
    };
    match app.screen {
        Screen::Help => help(app, area, buf),
        Screen::Page => page::draw(app, area, buf),
        Screen::Daily => {
            if let Some(d) = &app.daily {
                let t = &app.theme;
                let styles = (t.title, t.message, t.error);
                daily::draw(d, app.message.as_ref(), area, styles, buf);
            }
        }
        Screen::Stats => stats::draw(
            &app.menus.stats,
            app.menus.scroll,
            area,
            app.theme.title,
            buf,
        ),
        Screen::Rules => rules::draw(
            app.game.puzzle().variant(),
            usize::from(app.max_digit()),
            app.menus.scroll,
            area,
            app.theme.title,
            buf,
        ),
        Screen::Play | Screen::NewGame | Screen::Picker | Screen::Train | Screen::Account => {
            play(app, &p, buf);
            match app.screen {
                Screen::Account => {
                    if let Some(a) = &app.account {
                        menu::account(a, area, app.ascii, buf);
                    }
                }
                Screen::NewGame => menu::new_game(&app.menus.new_game, area, app.ascii, buf),
                Screen::Train => {
                    let (title, footer) = app.train_menu_text();
                    menu::draw_list(area, &title, &footer, &app.train_menu.list, app.ascii, buf);
                }
                Screen::Picker => {
                    menu::draw_list(
                        area,
                        &picker_title(app),
                        menu::PICKER_KEYS,
                        &app.menus.picker,
                        app.ascii,
                        buf,
                    );
                }
                _ => {}
            }
            if let Some(prompt) = app.prompt {
                let (title, lines) = prompt.text();
                let lines = lines.into_iter().map(Line::raw).collect();
                popup(app, title, lines, area, buf);
            }
        }
    }
}

/// The picker's title: the file's name.
pub fn picker_title(app: &App) -> String {
    let name = app
        .menus
        .source
        .as_ref()
        .and_then(|s| s.file.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("Puzzles of {name}")
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
        .wrap(Wrap { trim: true })
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

fn play(app: &App, p: &Plan, buf: &mut Buffer) {
    board::draw(app, p, buf);
    menu::digit_bar(app, p, buf);
    if app.game.paused {
        let text = "Paused: press P to resume";
        let x = p.grid.x + p.grid.width.saturating_sub(text.len() as u16) / 2;
        buf.set_string(x, p.grid.y + p.grid.height / 2, text, app.theme.title);
    }
    status_line(app, p, buf);
    match p.panel {
        Panel::Side(area) => panel(app, area, false, buf),
        Panel::Below(area) => panel(app, area, true, buf),
        Panel::Status => {}
    }
    if let Some(news) = news(app) {
        card::draw(app, p, &news, buf);
    }
}

/// The bottom line: variant, clock, mistakes, hints, mode. Without a panel it starts with
/// the selected cell and the latest message or hint instead.
fn status_line(app: &App, p: &Plan, buf: &mut Buffer) {
    let sep = if app.ascii { " | " } else { " │ " };
    // Each part with its rank in the order parts go when the line is too narrow (0: never).
    let mut parts: Vec<(String, u8)> = Vec::new();
    let short_panel = match p.panel {
        Panel::Side(_) => false,
        Panel::Below(r) => r.height < 4,
        Panel::Status => true,
    };
    if let Some(t) = &app.trainer {
        parts.push((t.title(), 0));
    }
    // The first part is never cut shorter than this: the cell's name, and a killer
    // cage's sum, without which the cell cannot be played.
    let mut floor = 8;
    if short_panel {
        // Cut from the end, so the cage comes right after the name, the houses last.
        let mut facts = cell_facts(app);
        if let Some(cage) = cage_summary(app) {
            let sum = cage.split(':').next().unwrap_or_default();
            floor = floor.max(facts[0].chars().count() + 1 + sum.chars().count());
            // A comma, so the cage's last digit set does not read as part of the box.
            let comma = if facts.len() > 1 { "," } else { "" };
            facts[0] = format!("{} {cage}{comma}", facts[0]);
        }
        parts.push((facts.join(" "), 0));
        // Said here only when it fits; otherwise it has a card over the grid.
        if p.panel == Panel::Status && news(app).is_some_and(|n| card::fits_status(p, &n)) {
            if let Some(text) = hint_or_message(app) {
                parts.push((text, 0));
            }
        }
    } else if app.trainer.is_none() {
        let puzzle = app.game.puzzle();
        let difficulty = puzzle.difficulty.as_deref();
        let difficulty = difficulty.map(|d| format!(" ({d})")).unwrap_or_default();
        // The variant's name goes with the player's name.
        parts.push((format!("{}{difficulty}", puzzle.variant()), 3));
    }
    if app.config.display.show_timer {
        parts.push((clock(app.game.elapsed_ms), 5));
    }
    let help = &app.game.assists;
    if app.config.game.count_mistakes && app.trainer.is_none() {
        parts.push((format!("mistakes {}", app.game.mistakes), 4));
    }
    parts.push((format!("hints {}", help.hints), 2));
    // Checks only once there are some, to leave room on narrow screens.
    if help.checks > 0 {
        parts.push((format!("checks {}", help.checks), 1));
    }
    if help.is_assisted() {
        parts.push(("assisted".to_string(), 0));
    }
    parts.push((mode(app).to_string(), 0));
    // A served player's name (or that they are a guest).
    let shown_name = app.account.as_ref().and_then(|a| match (&a.name, a.guest) {
        (_, true) => Some("guest".to_string()),
        (name, false) => name.clone(),
    });
    if let Some(name) = shown_name {
        parts.push((name, 3));
    }
    parts.push(("? help".to_string(), 6));
    let width = usize::from(p.status.width);
    let ellipsis = if app.ascii { "..." } else { "…" };
    let len = |parts: &[(String, u8)]| {
        1 + parts.iter().map(|(t, _)| t.chars().count()).sum::<usize>()
            + sep.chars().count() * parts.len().saturating_sub(1)
    };
    // Too wide: checks, hints, the names go first; then the first part (the cell, message
    // or trainer) is cut short, down to its floor; only then mistakes, the clock and
    // "? help", so the cell and the input mode stay in view on a narrow screen.
    let cuttable = parts[0].1 == 0 && parts.len() > 1;
    let over = |parts: &[(String, u8)]| len(parts).saturating_sub(width);
    // How much cutting the first part can save.
    let slack = |parts: &[(String, u8)]| match cuttable {
        true => parts[0]
            .0
            .chars()
            .count()
            .saturating_sub(floor + ellipsis.chars().count()),
        false => 0,
    };
    for rank in 1..=6u8 {
        let room_by_cutting = if rank >= 4 { slack(&parts) } else { 0 };
        if over(&parts) <= room_by_cutting {
            break;
        }
        parts.retain(|&(_, r)| r != rank);
    }
    let over = over(&parts);
    let first = parts[0].0.chars().count();
    let keep = first
        .saturating_sub(over + ellipsis.chars().count())
        .max(floor);
    if over > 0 && cuttable && keep < first {
        parts[0].0 = parts[0].0.chars().take(keep).collect::<String>() + ellipsis;
    }
    let parts: Vec<String> = parts.into_iter().map(|(t, _)| t).collect();
    let status = format!(" {}", parts.join(sep));
    let style = Style::default().add_modifier(Modifier::REVERSED);
    let a = p.status;
    for x in a.x..a.right() {
        buf[(x, a.y)].set_char(' ').set_style(style);
    }
    let text: String = status.chars().take(usize::from(a.width)).collect();
    buf.set_string(a.x, a.y, text, style);
}

/// The current hint stage's text, else the message, as one line.
/// What a hint's reader can press next.
fn next_keys(app: &App, stage: u8) -> &'static str {
    match stage {
        _ if app.replay.is_some() => super::app::replay::REPLAY_KEYS,
        _ if app.showing_why() && app.shown_technique().is_some() => {
            "i: the technique's page; esc closes"
        }
        _ if app.showing_why() => "esc closes",
        1 => "H again: which technique",
        2 => "H again: the full step; i: the technique's page",
        _ => "H again applies it",
    }
}

/// The hint on show, else the latest message, for the card.
fn news(app: &App) -> Option<card::News> {
    if let Some(hs) = &app.hint {
        return Some(card::News {
            title: hint_label(app, hs.stage),
            text: hs.hint.text(hs.detail()).to_string(),
            keys: Some(next_keys(app, hs.stage)),
            style: app.theme.title,
        });
    }
    app.message.as_ref().map(|m| card::News {
        title: match m.tone {
            Tone::Info => "Message".to_string(),
            Tone::Warning => "Problem".to_string(),
        },
        text: m.text.clone(),
        keys: None,
        style: match m.tone {
            Tone::Info => app.theme.message,
            Tone::Warning => app.theme.error,
        },
    })
}

fn hint_or_message(app: &App) -> Option<String> {
    if let Some(hs) = &app.hint {
        return Some(format!(
            "{}: {}",
            hint_label(app, hs.stage),
            hs.hint.text(hs.detail())
        ));
    }
    app.message.as_ref().map(|m| m.text.clone())
}

/// `Hint 2/3`, or in a replay `Step 4/31`.
fn hint_label(app: &App, stage: u8) -> String {
    match &app.replay {
        Some(r) => format!("Step {}/{}", r.at + 1, r.steps.len()),
        None if app.showing_why() => "Why?".to_string(),
        None if app.trainer.is_some() => "The step".to_string(),
        None => format!("Hint {stage}/3"),
    }
}

/// The selected cell in the names hints use: `r5c3`, its box or region, for a honeycomb
/// its three lines, for a killer its cage.
pub fn cell_facts(app: &App) -> Vec<String> {
    let g = app.game.geometry();
    let cell = app.cursor;
    let mut out = vec![g.cell_name(cell)];
    for &h in g.houses_of(cell) {
        let house = g.house(h);
        match house.kind {
            HouseKind::Box(_) | HouseKind::Region(_) => out.push(house.name()),
            // A honeycomb cell's three lines, as hints name them.
            HouseKind::Row(_) if g.shape() == crate::geometry::Shape::Honeycomb => {
                out.push(house.name())
            }
            HouseKind::Forward(_) | HouseKind::Backward(_) => out.push(house.name()),
            HouseKind::Diagonal(_) => out.push(house.name()),
            _ => {}
        }
    }
    out
}

/// `parts` joined by ", " into lines of at most `width` columns (a part wider than that
/// alone on its line), breaking only between parts, so a house name (`\ line 5`) is
/// never split from its number.
fn packed(parts: &[String], width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for p in parts {
        if cur.is_empty() {
            cur.clone_from(p);
        } else if cur.chars().count() + 2 + p.chars().count() <= width {
            cur.push_str(", ");
            cur.push_str(p);
        } else {
            out.push(std::mem::replace(&mut cur, p.clone()));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The cage in a few words for the status line: `cage 7=23: 689 789`.
fn cage_summary(app: &App) -> Option<String> {
    let lines = cage_lines(app);
    let (name, ways) = (lines.first()?, lines.get(2)?);
    Some(format!("{}: {ways}", name.replace(" sum ", "=")))
}

/// A killer cell's cage: its number and sum, and the digit sets still possible (those
/// holding every digit already placed in it).
fn cage_lines(app: &App) -> Vec<String> {
    let g = app.game.geometry();
    let Some(house) = g
        .houses_of(app.cursor)
        .iter()
        .map(|&h| g.house(h))
        .find(|h| matches!(h.kind, HouseKind::Cage(_)))
    else {
        return Vec::new();
    };
    let Rule::Cage { sum } = house.rule else {
        return Vec::new();
    };
    let mut placed = Digits(0);
    for &c in &house.cells {
        let v = app.game.value(c);
        if v != 0 {
            placed.insert(v);
        }
    }
    let ways: Vec<String> =
        crate::solver::rules::combinations(g.max_digit(), house.cells.len(), sum)
            .into_iter()
            .map(Digits)
            .filter(|d| placed.is_subset(*d))
            .map(|d| d.iter().map(digit_char).collect())
            .collect();
    let count = match ways.len() {
        1 => "1 way".to_string(),
        n => format!("{n} ways"),
    };
    vec![
        format!("{} sum {sum}", house.name()),
        format!("{} cells, {count}:", house.cells.len()),
        ways.join(" "),
    ]
}

fn panel(app: &App, area: Rect, below: bool, buf: &mut Buffer) {
    let t = &app.theme;
    let mut about: Vec<Line> = Vec::new();
    if let Some(tr) = &app.trainer {
        about.push(Line::styled(tr.title(), t.title));
        about.push(Line::raw(tr.score()));
    } else if !below {
        let puzzle = app.game.puzzle();
        let title = puzzle
            .title
            .clone()
            .unwrap_or_else(|| format!("{} sudoku", puzzle.variant()));
        about.push(Line::styled(title, t.title));
    }
    let cell = app.cursor;
    let value = app.game.value(cell);
    let what = if value == 0 {
        let marks = app.game.marks(cell);
        if marks.is_empty() {
            "empty".to_string()
        } else {
            let ds: Vec<String> = marks.iter().map(|d| digit_char(d).to_string()).collect();
            format!("marks {}", ds.join(" "))
        }
    } else if app.game.is_given(cell) {
        format!("given {}", digit_char(value))
    } else {
        format!("entry {}", digit_char(value))
    };
    let facts = cell_facts(app);
    about.push(Line::styled(format!("Cell {}: {what}", facts[0]), t.title));
    for l in packed(&facts[1..], usize::from(area.width)) {
        about.push(Line::raw(l));
    }
    for l in cage_lines(app) {
        about.push(Line::raw(l));
    }
    about.push(Line::raw(format!("Mode {}", mode(app))));
    if app.config.display.show_timer && !below && app.trainer.is_none() {
        about.push(Line::raw(format!("Time {}", clock(app.game.elapsed_ms))));
    }
    let mut news: Vec<Line> = Vec::new();
    if let (Some(_), Some(hs)) = (&app.trainer, &app.hint) {
        // A drill's grade comes first (the message, below), then the step it is about.
        news.push(Line::styled(
            format!("The step: {}", hs.hint.text(hs.detail())),
            t.title,
        ));
    } else if let Some(hs) = &app.hint {
        if below {
            // Below the grid there may be one row: the hint's words come first.
            news.push(Line::styled(
                format!(
                    "{}: {}",
                    hint_label(app, hs.stage),
                    hs.hint.text(hs.detail())
                ),
                t.title,
            ));
        } else {
            let head = if app.showing_why() {
                hint_label(app, hs.stage)
            } else {
                format!(
                    "{}: {}",
                    hint_label(app, hs.stage),
                    ["where", "what", "step"][usize::from(hs.stage.clamp(1, 3)) - 1]
                )
            };
            news.push(Line::styled(head, t.title));
            news.push(Line::raw(hs.hint.text(hs.detail()).to_string()));
        }
        let next = next_keys(app, hs.stage);
        news.push(Line::styled(
            next,
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    if let Some(msg) = &app.message {
        let style = match msg.tone {
            Tone::Info => t.message,
            Tone::Warning => t.error,
        };
        // Wrapped here, not by the paragraph: a path breaks between its folders.
        let lines = card::wrapped(&msg.text, usize::from(area.width))
            .into_iter()
            .map(|l| Line::styled(l, style));
        if app.trainer.is_some() {
            news.splice(0..0, lines);
        } else {
            news.extend(lines);
        }
    }
    // Below the grid there is little room: news first.
    let lines = if below {
        news.into_iter().chain(about).collect::<Vec<_>>()
    } else {
        // A step too long to share the panel keeps it alone (the card takes one longer).
        let rows = |ls: &[Line]| -> usize {
            ls.iter()
                .map(|l| card::wrapped(&l.to_string(), usize::from(area.width)).len())
                .sum()
        };
        if rows(&about) + 1 + rows(&news) > usize::from(area.height) {
            news
        } else {
            about.push(Line::raw(""));
            about.into_iter().chain(news).collect()
        }
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}

/// The help screen's rows: the keys, a blank line, the legend.
pub fn help_lines(app: &App) -> Vec<(String, String)> {
    let mut rows = help_rows(app);
    rows.push((String::new(), String::new()));
    rows.extend(legend(app));
    rows
}

/// The help screen, generated from the keymap; it scrolls, and pages with space.
fn help(app: &App, area: Rect, buf: &mut Buffer) {
    let logical = help_lines(app);
    let key_w = logical
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .min(22);
    // A description wider than the screen goes on under itself, not off the edge.
    let desc_w = usize::from(area.width).saturating_sub(key_w + 3).max(20);
    let rows: Vec<(String, String)> = logical
        .into_iter()
        .flat_map(|(keys, desc)| {
            let parts = card::wrapped(&desc, desc_w);
            parts
                .into_iter()
                .enumerate()
                .map(move |(i, part)| (if i == 0 { keys.clone() } else { String::new() }, part))
        })
        .collect();
    let mut lines = vec![Line::styled(
        "Keys (? or esc closes; j k scroll, space pages; r: the rules)",
        app.theme.title,
    )];
    // Scrolled no further than the last line needs.
    let room = usize::from(area.height.saturating_sub(1));
    let skip = usize::from(app.help_scroll).min(rows.len().saturating_sub(room));
    // More below than fits: the last row says so instead.
    let more = rows.len() - skip > room;
    let shown = if more { room.saturating_sub(1) } else { room };
    for (keys, desc) in rows.iter().skip(skip).take(shown) {
        lines.push(Line::from(vec![
            Span::styled(
                format!(" {keys:<key_w$}  "),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(desc.clone()),
        ]));
    }
    if more {
        lines.push(Line::styled(
            format!(" ... {} more below: j or space", rows.len() - skip - shown),
            Style::default().add_modifier(Modifier::DIM),
        ));
    }
    Paragraph::new(lines).render(area, buf);
}

/// What the marks on the board mean, as (sign, meaning) help lines.
pub fn legend(app: &App) -> Vec<(String, String)> {
    let a = app.ascii;
    let pick = |u: &str, x: &str| if a { x.to_string() } else { u.to_string() };
    let mut rows = vec![
        ("Legend".to_string(), String::new()),
        ("5 bold".into(), "a given; plain: your entry".into()),
        ("[5] reversed".into(), "the selected cell".into()),
        ("5 underlined".into(), "breaks a rule".into()),
        (
            "5! reversed".into(),
            "differs from the solution (after c)".into(),
        ),
        (
            "12345/6789".into(),
            "pencil marks, each digit in its place".into(),
        ),
        ("underlined row".into(), "cage or region edge below".into()),
    ];
    if app
        .game
        .geometry()
        .houses()
        .iter()
        .any(|h| matches!(h.kind, HouseKind::Cage(_)))
    {
        rows.push((pick("╏ ╍", ": ~"), "box border inside one cage".into()));
        rows.push(("23".into(), "cage sum, in the cage's first cell".into()));
    }
    rows
}

/// (keys, description) per help line; the digit commands are folded into two lines (one
/// on grids of up to 9 digits). Only keys that fire the command on this grid are named: on
/// a 16x16 grid `a` places digit 10, so it is not listed for filling candidates.
pub fn help_rows(app: &App) -> Vec<(String, String)> {
    let km = &app.keymap;
    let max = app.max_digit();
    let names = |c: Command| {
        let keys: Vec<String> = km
            .keys_of(c)
            .iter()
            .filter(|&&k| km.lookup(k, max) == Some(c))
            .map(|k| k.to_string())
            .collect();
        if keys.is_empty() {
            "(no key here)".to_string()
        } else {
            keys.join(" ")
        }
    };
    let mut rows = Vec::new();
    let mut digits_done = false;
    let honeycomb = app.game.geometry().shape() == crate::geometry::Shape::Honeycomb;
    for &c in Command::ALL {
        if c.is_slanted_move() && !honeycomb {
            continue;
        }
        match c.digit() {
            Some(_) if digits_done => continue,
            Some(_) => {
                digits_done = true;
                let span = |lo: u8, hi: u8| {
                    Command::ALL
                        .iter()
                        .filter(|c| c.digit().is_some_and(|d| (lo..=hi.min(max)).contains(&d)))
                        .map(|&c| names(c))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                rows.push((
                    span(1, 9),
                    "Place a digit (a pencil mark in pencil mode)".to_string(),
                ));
                if max > 9 {
                    rows.push((span(10, 16), format!("Digits 10-{max}")));
                }
            }
            None => rows.push((names(c), c.description().to_string())),
        }
    }
    rows.push((
        format!("{} then s", names(Command::Finish)),
        format!("Replay: {}", super::app::replay::REPLAY_KEYS),
    ));
    rows
}

/// A box in the middle of the screen, just big enough for its lines.
fn popup(app: &App, title: &str, lines: Vec<Line>, area: Rect, buf: &mut Buffer) {
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    let w = (widest.max(title.len()) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .block(menu::block(app.ascii, title.trim()))
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}

#[cfg(test)]
mod tests {
    use super::packed;

    #[test]
    fn cell_facts_break_between_houses_not_inside_one() {
        let facts: Vec<String> = ["row 1", "/ line 1", "\\ line 5"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(packed(&facts, 40), ["row 1, / line 1, \\ line 5"]);
        assert_eq!(packed(&facts, 22), ["row 1, / line 1", "\\ line 5"]);
        assert_eq!(packed(&facts, 5), ["row 1", "/ line 1", "\\ line 5"]);
    }
}
