//! The mouse: a click or a wheel turn at a screen position, hit-tested against what
//! [`view`](super::view) draws there (the layout plan for the board and the digit bar, the
//! list boxes for the menus).

use super::app::{App, Screen};
use super::keys::Key;
use super::view::{self, menu as vmenu};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

/// What the mouse did, in the app's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mouse {
    /// The left button went down at a column and row.
    Click(u16, u16),
    WheelUp,
    WheelDown,
}

/// Crossterm's event as a [`Mouse`]; other buttons, releases and moves are ignored.
pub fn convert(m: MouseEvent) -> Option<Mouse> {
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Mouse::Click(m.column, m.row)),
        MouseEventKind::ScrollUp => Some(Mouse::WheelUp),
        MouseEventKind::ScrollDown => Some(Mouse::WheelDown),
        _ => None,
    }
}

impl App {
    /// Handles the mouse on a screen of `area`; true when something may have changed.
    pub fn handle_mouse(&mut self, m: Mouse, area: Rect) -> bool {
        if self.quit_prompt || self.prompt.is_some() || !self.config.display.mouse {
            return false;
        }
        match (self.screen, m) {
            (_, Mouse::WheelUp) => self.wheel(-1),
            (_, Mouse::WheelDown) => self.wheel(1),
            (Screen::Play, Mouse::Click(x, y)) => self.click_board(area, x, y),
            (Screen::NewGame, Mouse::Click(x, y)) => {
                if matches!(self.menus.new_game.step, super::menu::Step::File { .. }) {
                    return false;
                }
                let title = self.menus.new_game.title();
                let b = vmenu::list_box(area, &title, vmenu::LIST_KEYS, &self.menus.new_game.list);
                match b.item_at(&self.menus.new_game.list, x, y) {
                    Some(i) => {
                        self.menus.new_game.list.selected = i;
                        let outcome = self.menus.new_game.choose();
                        self.follow(outcome);
                    }
                    None if !inside(b.frame, x, y) => self.screen = Screen::Play,
                    None => {}
                }
                true
            }
            (Screen::Picker, Mouse::Click(x, y)) => {
                let title = view::picker_title(self);
                let b = vmenu::list_box(area, &title, vmenu::PICKER_KEYS, &self.menus.picker);
                match b.item_at(&self.menus.picker, x, y) {
                    Some(i) => self.open_from_source(i + 1),
                    None if !inside(b.frame, x, y) => self.screen = Screen::Play,
                    None => {}
                }
                true
            }
            (Screen::Train, Mouse::Click(x, y)) => {
                let (title, footer) = self.train_menu_text();
                let b = vmenu::list_box(area, &title, &footer, &self.train_menu.list);
                match b.item_at(&self.train_menu.list, x, y) {
                    Some(i) => {
                        self.train_menu.list.selected = i;
                        self.train_menu_key(Key::Enter);
                    }
                    None if !inside(b.frame, x, y) => self.screen = Screen::Play,
                    None => {}
                }
                true
            }
            // A click closes a page (help, statistics, rules).
            (Screen::Help | Screen::Page, Mouse::Click(..)) => {
                self.screen = Screen::Play;
                true
            }
            (Screen::Stats | Screen::Rules, Mouse::Click(..)) => self.menu_key(Key::Esc),
            // The daily screen is read and chosen from with keys; a click goes back.
            (Screen::Daily, Mouse::Click(..)) => self.menu_key(Key::Esc),
            (Screen::Account, Mouse::Click(x, y)) => {
                let Some(a) = &self.account else {
                    return false;
                };
                if a.step != super::account::Step::List {
                    return false;
                }
                let b = vmenu::list_box(area, a.title(), vmenu::LIST_KEYS, &a.list);
                match b.item_at(&a.list, x, y) {
                    Some(i) => {
                        if let Some(a) = &mut self.account {
                            a.list.selected = i;
                        }
                        self.account_key(Key::Enter);
                    }
                    None if !inside(b.frame, x, y) => self.screen = Screen::Play,
                    None => {}
                }
                true
            }
        }
    }

    /// The wheel moves the selection of a list, or scrolls a page.
    fn wheel(&mut self, by: i32) -> bool {
        match self.screen {
            Screen::NewGame => self.menus.new_game.list.step(by),
            Screen::Picker => self.menus.picker.step(by),
            Screen::Train => self.train_menu.list.step(by),
            Screen::Account => {
                if let Some(a) = &mut self.account {
                    a.list.step(by);
                }
            }
            Screen::Stats | Screen::Rules | Screen::Daily => {
                self.menu_key(if by < 0 { Key::Up } else { Key::Down });
            }
            Screen::Help => {
                self.help_scroll = if by < 0 {
                    self.help_scroll.saturating_sub(1)
                } else {
                    self.help_scroll.saturating_add(1)
                }
            }
            Screen::Page => {
                self.page_scroll = if by < 0 {
                    self.page_scroll.saturating_sub(1)
                } else {
                    self.page_scroll.saturating_add(1)
                }
            }
            Screen::Play => return false,
        }
        true
    }

    /// A click on the board: a cell selects it; a pencil mark's place in the selected (empty)
    /// cell toggles that mark; the digit bar places its digit (or clears) in the selected
    /// cell, as the digit keys do.
    fn click_board(&mut self, area: Rect, x: u16, y: u16) -> bool {
        // A paused board takes no moves (the keys say how to resume).
        if self.game.paused {
            return false;
        }
        let Ok(p) = view::plan(self, area) else {
            return false;
        };
        let max = self.max_digit();
        if let Some(d) = p.digit_at(x, y, max) {
            self.update(command_for(d));
            return true;
        }
        let g = self.game.geometry();
        let Some(cell) = p.cell_at(g, x, y) else {
            return false;
        };
        if cell != self.cursor {
            self.cursor = cell;
            self.dirty = true;
            return true;
        }
        let mark = p.candidate_at(g, cell, x, y);
        match mark {
            Some(d) if self.game.value(cell) == 0 => {
                // The same path as `m` and the digit, so undo and autosave follow.
                self.mark_next = true;
                self.update(command_for(d));
                true
            }
            _ => false,
        }
    }
}

/// The command of digit `d`, `0` for clear.
fn command_for(d: u8) -> super::config::Command {
    use super::config::Command;
    if d == 0 {
        return Command::Clear;
    }
    Command::ALL
        .iter()
        .copied()
        .find(|c| c.digit() == Some(d))
        .unwrap_or(Command::Clear)
}

fn inside(r: Rect, x: u16, y: u16) -> bool {
    x >= r.x && x < r.right() && y >= r.y && y < r.bottom()
}
