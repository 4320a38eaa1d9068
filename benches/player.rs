//! Player speed: first frame (game set-up, solution, first draw) and a keypress (update,
//! autosave, redraw) with every candidate filled in, on an 80x24 screen (where the compact
//! layout draws them all for 9x9 grids) and a 160x50 one. Prints percentiles.
//! The autosave is what the keypress costs the player: the game's snapshot handed to the
//! background writer; the write itself (fsyncs included) runs there, and is waited for
//! between keys, as a person's next key comes long after it.
//!
//!     cargo bench --bench player
//!     cargo bench --bench player -- --long-history   (600 moves of undo history saved)

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::time::{Duration, Instant};
use termdoku::game::{builtin, save};
use termdoku::puzzle::Variant;
use termdoku::tui::app::App;
use termdoku::tui::keys::Key;
use termdoku::tui::view;
use termdoku::tui::writer::Writer;

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = save::game_path(dir.path());
    let writer = Writer::new();
    for (w, h) in [(80, 24), (160, 50)] {
        for v in Variant::ALL {
            run(v, w, h, &path, &writer);
        }
    }
}

fn run(v: Variant, w: u16, h: u16, path: &std::path::Path, writer: &Writer) {
    let start = Instant::now();
    let mut app = App::with_puzzle(builtin::puzzle(v));
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("backend");
    term.draw(|f| view::draw(&app, f.area(), f.buffer_mut()))
        .expect("draw");
    let first = start.elapsed();
    app.press("a");
    if std::env::args().any(|a| a == "--long-history") {
        // A long game: the save file then carries the full saved undo history.
        let start = app.cursor;
        app.cursor = (0..app.game.values().len())
            .find(|&c| !app.game.is_given(c))
            .unwrap_or(0);
        for _ in 0..600 {
            app.press("m1");
        }
        app.cursor = start;
    }
    let keys = [
        Key::Char('l'),
        Key::Char('j'),
        Key::Char('h'),
        Key::Char('k'),
    ];
    let mut times = Vec::new();
    for i in 0..4000 {
        let t = Instant::now();
        app.handle_key(keys[i % 4 / 2 * 2 + (i / 97) % 2]);
        let file = save::SaveFile::from_game(&app.game, app.cursor, app.pencil);
        let to = path.to_path_buf();
        let job = writer.submit(
            Some(path.to_path_buf()),
            Box::new(move || {
                let json = file.to_json().map_err(std::io::Error::other)?;
                save::write_atomic(&to, json.as_bytes())
            }),
        );
        term.draw(|f| view::draw(&app, f.area(), f.buffer_mut()))
            .expect("draw");
        times.push(t.elapsed());
        assert!(writer.wait(job, Duration::from_secs(30)), "save");
        assert_eq!(writer.failure(Some(&path.to_path_buf())), None);
    }
    times.sort();
    println!(
            "{v:>10} {w}x{h}: first frame {:>7.2?}; keypress+save+redraw, all candidates: p50 {:>7.2?} p99 {:>7.2?} max {:>7.2?}",
            first,
            pct(&times, 0.5),
            pct(&times, 0.99),
            times[times.len() - 1]
        );
}
