//! The player through its update function: key sequences, snapshots of every screen
//! (ratatui's TestBackend + insta), and styles on highlighted cells.

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use termdoku::game::builtin;
use termdoku::puzzle::{Layout, Puzzle, Variant};
use termdoku::tui::app::{App, Screen};
use termdoku::tui::config::Config;
use termdoku::tui::view;

fn app(v: Variant) -> App {
    App::with_puzzle(builtin::puzzle(v))
}

fn cell(app: &App, name: &str) -> usize {
    app.game.geometry().parse_cell(name).expect("cell name")
}

fn value(app: &App, name: &str) -> u8 {
    app.game.value(cell(app, name))
}

fn render(app: &App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| view::draw(app, f.area(), f.buffer_mut()))
        .unwrap();
    term.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
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

/// Screen position of the digit of a cell, found by drawing a marker.
fn digit_pos(app: &App, name: &str, w: u16, h: u16) -> (u16, u16) {
    let c = cell(app, name);
    let g = app.game.geometry();
    let (m, _) = view::choose(app, ratatui::layout::Rect::new(0, 0, w, h));
    let m = m.expect("fits");
    let (cw, ch) = (m.cw, m.ch);
    let (r, col) = g.coords(c);
    match g.shape() {
        termdoku::geometry::Shape::Square { .. } => (
            (col as u16 - 1) * (cw + 1) + 1 + cw / 2,
            (r as u16 - 1) * (ch + 1) + 1 + ch / 2,
        ),
        termdoku::geometry::Shape::Honeycomb => {
            let (sx, sy) = g.screen_pos(c);
            (sx * cw.div_ceil(2) + 1 + cw / 2, sy * (ch + 1) + 1 + ch / 2)
        }
    }
}

// ---------- key sequences ----------

#[test]
fn press_ll4u_places_then_undoes() {
    let mut a = app(Variant::Standard);
    a.press("ll4");
    assert_eq!(value(&a, "r1c3"), 4);
    a.press("u");
    assert_eq!(value(&a, "r1c3"), 0);
    assert_eq!(a.cursor, cell(&a, "r1c3"));
    a.press("<ctrl-r>");
    assert_eq!(value(&a, "r1c3"), 4);
}

#[test]
fn press_jjl5u_moves_and_refuses_a_given() {
    let mut a = app(Variant::Standard);
    a.press("jjl5");
    assert_eq!(a.cursor, cell(&a, "r3c2"));
    assert_eq!(value(&a, "r3c2"), 9, "a given stays");
    assert!(a.message.as_ref().unwrap().text.contains("given"));
    a.press("u");
    assert!(a.message.as_ref().unwrap().text.contains("Nothing to undo"));
}

#[test]
fn movement_wraps_around_and_arrows_match_vim_keys() {
    let mut a = app(Variant::Standard);
    a.press("k");
    assert_eq!(a.cursor, cell(&a, "r9c1"));
    a.press("h");
    assert_eq!(a.cursor, cell(&a, "r9c9"));
    a.press("<down><right>");
    assert_eq!(a.cursor, cell(&a, "r1c1"));
}

#[test]
fn honeycomb_moves_between_offset_rows() {
    let mut a = app(Variant::Honeycomb);
    a.press("j");
    let r = a.game.geometry().coords(a.cursor).0;
    assert_eq!(r, 2);
    a.press("k");
    assert_eq!(a.cursor, cell(&a, "r1c1"));
    a.press("h");
    assert_eq!(a.cursor, cell(&a, "r1c5"));
    a.press("kkkk");
    assert_eq!(a.game.geometry().coords(a.cursor).0, 6);
}

#[test]
fn pencil_mode_and_mark_next_toggle_marks() {
    let mut a = app(Variant::Standard);
    a.press("ll p12 2 3");
    let c = cell(&a, "r1c3");
    assert_eq!(a.game.marks(c).iter().collect::<Vec<_>>(), vec![1, 3]);
    a.press("p m7");
    assert!(a.game.marks(c).contains(7));
    assert_eq!(value(&a, "r1c3"), 0);
    a.press("uuuu");
    assert_eq!(a.game.marks(c).iter().collect::<Vec<_>>(), vec![1]);
    a.press("x");
    assert!(a.game.marks(c).is_empty());
}

#[test]
fn undo_restores_the_cell_and_its_peers_marks() {
    let mut a = app(Variant::Standard);
    a.press("a ll 4");
    assert!(!a.game.marks(cell(&a, "r1c6")).contains(4));
    a.press("u");
    assert_eq!(value(&a, "r1c3"), 0);
    assert!(a.game.marks(cell(&a, "r1c6")).contains(4));
}

#[test]
fn auto_removal_can_be_switched_off() {
    let mut cfg = Config::default();
    cfg.game.auto_remove_candidates = false;
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let mut a = App::new(game, cfg, true, false).unwrap();
    a.press("a ll 4");
    assert!(a.game.marks(cell(&a, "r1c6")).contains(4));
}

#[test]
fn hint_ladder_climbs_then_applies_undoably() {
    let mut a = app(Variant::Standard);
    let before = a.game.remaining();
    a.press("H");
    assert_eq!(a.hint.as_ref().unwrap().stage, 1);
    a.press("H");
    assert_eq!(a.hint.as_ref().unwrap().stage, 2);
    a.press("H");
    assert_eq!(a.hint.as_ref().unwrap().stage, 3);
    a.press("H");
    assert!(a.hint.is_none());
    assert_eq!(a.game.remaining(), before - 1);
    assert_eq!(a.game.hints_used, 1);
    a.press("u");
    assert_eq!(a.game.remaining(), before);
}

/// Waits for a hint worked out in the background, as the event loop does between keys.
fn wait_for_hint(a: &mut App) {
    let start = std::time::Instant::now();
    while !a.poll_hint() {
        assert!(start.elapsed().as_secs() < 120, "no hint arrived");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_slow_hint_arrives_later_and_play_goes_on_meanwhile() {
    // No waiting at all: every hint takes the background path.
    let mut a = app(Variant::Honeycomb);
    a.hint_wait_ms = 0;
    a.press("H");
    if a.hint_pending() {
        a.press("H");
        assert!(a.message.as_ref().unwrap().text.contains("Still looking"));
        wait_for_hint(&mut a);
    }
    assert!(!a.hint_pending());
    assert_eq!(a.hint.as_ref().map(|h| h.stage), Some(1));

    // An answer for a board that changed meanwhile is dropped, not shown on the new board.
    let mut b = app(Variant::Standard);
    b.hint_wait_ms = 0;
    let empty = (0..b.game.geometry().cell_count())
        .find(|&c| b.game.value(c) == 0)
        .unwrap();
    b.press("H");
    if b.hint_pending() {
        b.cursor = empty;
        b.press("1");
        wait_for_hint(&mut b);
        assert!(b.hint.is_none());
        assert!(b.message.as_ref().unwrap().text.contains("board changed"));
    }
}

#[test]
fn a_hint_on_a_wrong_board_points_at_the_wrong_entry() {
    let mut a = app(Variant::Standard);
    a.press("ll1");
    assert_eq!(a.game.mistakes, 1);
    a.press("H");
    let h = &a.hint.as_ref().unwrap().hint;
    assert_eq!(h.id, "wrong-entry");
    assert!(h.technique.contains("r1c3"), "{}", h.technique);
    a.press("HHH");
    assert_eq!(value(&a, "r1c3"), 0);
}

#[test]
fn check_and_solvable_report_deviations() {
    let mut a = app(Variant::Standard);
    a.press("c");
    assert!(a.message.as_ref().unwrap().text.starts_with("No mistakes"));
    a.press("ll1c");
    let msg = &a.message.as_ref().unwrap().text;
    assert!(msg.contains("r1c3"), "{msg}");
    assert_eq!(a.checked, vec![cell(&a, "r1c3")]);
    a.press("v");
    assert!(a.message.as_ref().unwrap().text.starts_with("Not solvable"));
}

#[test]
fn finish_solves_and_undo_unsolves() {
    let mut a = app(Variant::Killer);
    a.press("S");
    assert!(a.game.solved);
    assert!(a.message.as_ref().unwrap().text.contains("Solved"));
    a.press("u");
    assert!(!a.game.solved);
}

#[test]
fn hints_solve_every_variant() {
    for v in Variant::ALL {
        let mut a = app(v);
        for _ in 0..1000 {
            if a.game.solved {
                break;
            }
            a.press("HHHH");
        }
        assert!(a.game.solved, "{v}");
    }
}

#[test]
fn new_game_menu_starts_the_chosen_variant() {
    let mut a = app(Variant::Standard);
    a.press("n");
    assert!(matches!(a.screen, Screen::NewGame(_)));
    a.press("l l l l <enter>");
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.game.puzzle().variant(), Variant::Honeycomb);
    assert_eq!(a.cursor, 0);
}

#[test]
fn sixteen_by_sixteen_takes_letters_as_digits() {
    let layout = Layout::new(Variant::Standard, 16);
    let p = Puzzle::new(layout, vec![0; 256]).unwrap();
    let mut a = App::with_puzzle(p);
    a.press("g");
    assert_eq!(a.game.value(0), 16);
    a.press("F");
    assert!(!a.game.marks(1).contains(16));
}

#[test]
fn pause_stops_the_clock_and_blocks_moves() {
    let mut a = app(Variant::Standard);
    a.tick(1500);
    a.press("P");
    a.tick(5000);
    a.press("ll4");
    assert_eq!(value(&a, "r1c3"), 0);
    a.press("P");
    a.tick(500);
    assert_eq!(a.game.elapsed_ms, 2000);
}

// ---------- snapshots ----------

#[test]
fn snapshots_of_every_variant_small_and_large() {
    for v in Variant::ALL {
        let mut a = app(v);
        a.press("jjl");
        insta::assert_snapshot!(format!("{v}_80x24"), text(&render(&a, 80, 24)));
        a.press("a");
        insta::assert_snapshot!(format!("{v}_160x50_candidates"), text(&render(&a, 160, 50)));
    }
}

#[test]
fn snapshot_ascii_borders() {
    for v in [Variant::Killer, Variant::Honeycomb] {
        let game = termdoku::game::Game::new(builtin::puzzle(v));
        let mut a = App::new(game, Config::default(), false, true).unwrap();
        a.press("jjl");
        let t = text(&render(&a, 80, 24));
        assert!(t.is_ascii(), "{t}");
        insta::assert_snapshot!(format!("{v}_ascii_80x24"), t);
    }
}

#[test]
fn snapshot_enlarge_screen_and_recovery() {
    let a = app(Variant::Standard);
    let small = text(&render(&a, 50, 16));
    assert!(small.contains("enlarge to 68x20"), "{small}");
    insta::assert_snapshot!("enlarge_50x16", small);
    assert!(!text(&render(&a, 80, 24)).contains("enlarge"));
}

#[test]
fn snapshot_help_screen() {
    let mut a = app(Variant::Standard);
    a.press("?");
    let t = text(&render(&a, 80, 24));
    for c in termdoku::tui::config::Command::ALL {
        if c.digit().is_none() {
            assert!(t.contains(c.description()), "{} missing:\n{t}", c.name());
        }
    }
    insta::assert_snapshot!("help_80x24", t);
    a.press("<esc>");
    assert_eq!(a.screen, Screen::Play);
}

#[test]
fn snapshot_each_hint_stage() {
    let mut a = app(Variant::Standard);
    for stage in 1..=3 {
        a.press("H");
        insta::assert_snapshot!(format!("hint_stage_{stage}"), text(&render(&a, 80, 24)));
    }
    a.press("H");
    insta::assert_snapshot!("hint_stage_4_applied", text(&render(&a, 80, 24)));
    let mut w = app(Variant::Standard);
    w.press("ll1H");
    insta::assert_snapshot!("hint_wrong_entry", text(&render(&w, 80, 24)));
}

#[test]
fn snapshot_new_game_menu() {
    let mut a = app(Variant::Standard);
    a.press("n j l");
    insta::assert_snapshot!("new_game_menu", text(&render(&a, 80, 24)));
}

// ---------- styles ----------

#[test]
fn cursor_and_same_digit_cells_are_styled() {
    let mut a = app(Variant::Standard);
    // r1c1 holds 5; every 5 on the board is highlighted.
    let buf = render(&a, 80, 24);
    let (x, y) = digit_pos(&a, "r1c1", 80, 24);
    assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
    assert_eq!(buf[(x - 1, y)].symbol(), "[");
    let (x5, y5) = digit_pos(&a, "r2c6", 80, 24);
    assert_eq!(buf[(x5, y5)].symbol(), "5");
    assert_eq!(buf[(x5, y5)].bg, Color::Cyan);
    let (xo, yo) = digit_pos(&a, "r1c2", 80, 24);
    assert_ne!(buf[(xo, yo)].bg, Color::Cyan);
    a.press("ll3");
    let buf = render(&a, 80, 24);
    let (xc, yc) = digit_pos(&a, "r1c3", 80, 24);
    assert!(
        buf[(xc, yc)].modifier.contains(Modifier::UNDERLINED),
        "conflict marked"
    );
    let (xg, yg) = digit_pos(&a, "r1c2", 80, 24);
    assert!(
        buf[(xg, yg)].modifier.contains(Modifier::UNDERLINED),
        "both cells"
    );
}

#[test]
fn full_hint_styles_its_roles() {
    let mut a = app(Variant::Standard);
    a.press("a HHH");
    let h = a.hint.as_ref().unwrap().hint.clone();
    let p = h.placements[0];
    let name = a.game.geometry().cell_name(p.cell);
    let buf = render(&a, 80, 24);
    let (x, y) = digit_pos(&a, &name, 80, 24);
    assert_eq!(buf[(x, y)].bg, Color::Green, "placement role");
    // In the large layout the placed candidate itself is styled.
    let big = render(&a, 160, 50);
    let (bx, by) = digit_pos(&a, &name, 160, 50);
    let g = a.game.geometry();
    let _ = g;
    let d = p.digit as u16 - 1;
    let (cx, cy) = (bx - 3 + 1 + 2 * (d % 3), by - 1 + d / 3);
    assert_eq!(big[(cx, cy)].symbol(), p.digit.to_string());
    assert_eq!(big[(cx, cy)].bg, Color::Green);
}

#[test]
fn no_color_keeps_modifiers_only() {
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let a = App::new(game, Config::default(), true, true).unwrap();
    let buf = render(&a, 80, 24);
    let a = buf.area;
    for y in a.top()..a.bottom() {
        for x in a.left()..a.right() {
            assert_eq!(buf[(x, y)].bg, Color::Reset);
            assert_eq!(buf[(x, y)].fg, Color::Reset);
        }
    }
    assert!(buf[(2, 1)].modifier.contains(Modifier::REVERSED));
}
