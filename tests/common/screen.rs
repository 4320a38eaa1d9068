//! Drawing the player into a test buffer and reading it back as text.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use termdoku::tui::app::App;
use termdoku::tui::view;

/// The frame the player draws on a `w` x `h` terminal.
pub fn render(app: &App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| view::draw(app, f.area(), f.buffer_mut()))
        .unwrap();
    term.backend().buffer().clone()
}

/// The frame's text, one line per row, trailing blanks cut.
pub fn text(buf: &Buffer) -> String {
    let a = buf.area;
    let mut out = String::new();
    for y in a.top()..a.bottom() {
        let mut line = String::new();
        for x in a.left()..a.right() {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
