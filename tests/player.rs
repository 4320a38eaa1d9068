//! The player through its update function: key sequences, snapshots of every screen
//! (ratatui's TestBackend + insta), and styles on highlighted cells.

mod common;

use common::screen::{render, text};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use termdoku::game::builtin;
use termdoku::puzzle::{Layout, Puzzle, Variant};
use termdoku::tui::app::{App, Prompt, Record, Screen};
use termdoku::tui::config::Config;
use termdoku::tui::effects::Session;
use termdoku::tui::view;
use termdoku::tui::view::layout::Plan;

fn app(v: Variant) -> Session {
    Session::with_puzzle(builtin::puzzle(v))
}

fn cell(app: &App, name: &str) -> usize {
    app.game.geometry().parse_cell(name).expect("cell name")
}

fn value(app: &App, name: &str) -> u8 {
    app.game.value(cell(app, name))
}

fn plan(app: &App, w: u16, h: u16) -> Plan {
    view::plan(app, Rect::new(0, 0, w, h)).expect("fits")
}

/// Screen position of the digit of a cell, as the layout plan places it.
fn digit_pos(app: &App, name: &str, w: u16, h: u16) -> (u16, u16) {
    let p = plan(app, w, h);
    let r = p.cell_rect(app.game.geometry(), cell(app, name));
    let (dx, dy) = p.digit_pos();
    (r.x + dx, r.y + dy)
}

/// The text, then a map of text modifiers: one letter per screen cell, each letter a
/// combination of modifiers named in the legend above the map (`.` for none).
fn styled(buf: &Buffer) -> String {
    let a = buf.area;
    let mut legend: Vec<Modifier> = Vec::new();
    let mut map = String::new();
    for y in a.top()..a.bottom() {
        let mut line = String::new();
        for x in a.left()..a.right() {
            let m = buf[(x, y)].modifier;
            if m.is_empty() {
                line.push('.');
                continue;
            }
            let i = legend.iter().position(|&l| l == m).unwrap_or_else(|| {
                legend.push(m);
                legend.len() - 1
            });
            line.push((b'a' + i as u8) as char);
        }
        map.push_str(line.trim_end_matches('.'));
        map.push('\n');
    }
    let mut out = text(buf);
    out.push_str("\n---- modifiers ----\n");
    for (i, m) in legend.iter().enumerate() {
        out.push_str(&format!("{} = {:?}\n", (b'a' + i as u8) as char, m));
    }
    out.push_str(&map);
    out
}

/// A small grid with a few givens (4x4 or 6x6).
fn small(size: usize) -> Session {
    let givens: Vec<u8> = match size {
        4 => vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2],
        _ => {
            let mut g = vec![0; 36];
            for (i, d) in [(0, 1), (8, 2), (13, 3), (21, 4), (26, 5), (35, 6)] {
                g[i] = d;
            }
            g
        }
    };
    Session::with_puzzle(Puzzle::new(Layout::new(Variant::Standard, size), givens).unwrap())
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

/// Where the keys lead from a cell, by name.
fn moved(a: &mut Session, from: &str, keys: &str) -> String {
    a.cursor = cell(a, from);
    a.press(keys);
    a.game.geometry().cell_name(a.cursor)
}

#[test]
fn honeycomb_moves_six_ways_from_a_middle_cell() {
    let mut a = app(Variant::Honeycomb);
    for (keys, to) in [
        ("h", "r5c4"),
        ("l", "r5c6"),
        ("Y", "r4c4"),
        ("U", "r4c5"),
        ("B", "r6c4"),
        ("N", "r6c5"),
        // Each slanted move and its opposite come back.
        ("YN", "r5c5"),
        ("UB", "r5c5"),
    ] {
        assert_eq!(moved(&mut a, "r5c5", keys), to, "{keys}");
    }
    // Off the middle row the slants follow the lines: r3c2 is on / line 2 and \ line 4.
    for (keys, to) in [("Y", "r2c1"), ("U", "r2c2"), ("B", "r4c2"), ("N", "r4c3")] {
        assert_eq!(moved(&mut a, "r3c2", keys), to, "{keys}");
    }
}

#[test]
fn honeycomb_slanted_moves_wrap_along_their_line_at_the_edges() {
    let mut a = app(Variant::Honeycomb);
    for (from, keys, to) in [
        ("r1c1", "Y", "r9c5"),
        ("r1c1", "U", "r5c1"),
        ("r5c1", "B", "r1c1"),
        ("r9c5", "N", "r1c1"),
        ("r1c1", "h", "r1c5"),
        ("r1c5", "l", "r1c1"),
        ("r9c1", "B", "r1c5"),
        ("r1c5", "U", "r9c1"),
        ("r5c9", "N", "r1c5"),
    ] {
        assert_eq!(moved(&mut a, from, keys), to, "{from} {keys}");
    }
}

#[test]
fn honeycomb_up_and_down_keep_to_the_column() {
    let mut a = app(Variant::Honeycomb);
    // Straight down the screen from the centre: a zigzag, not a drift to one side.
    assert_eq!(moved(&mut a, "r5c5", "jj"), "r7c4");
    assert_eq!(moved(&mut a, "r5c5", "jjjj"), "r9c3");
    assert_eq!(moved(&mut a, "r5c5", "kk"), "r3c4");
    // A sideways move starts a new column.
    assert_eq!(moved(&mut a, "r5c5", "j l l j"), "r7c5");
}

#[test]
fn slanted_moves_are_honeycomb_only_in_help_and_rebindable() {
    let listed = |a: &Session| {
        view::help_rows(a)
            .iter()
            .any(|(_, d)| d.contains("up-left"))
    };
    let mut square = app(Variant::Standard);
    assert!(!listed(&square));
    square.press("Y");
    assert_eq!(square.cursor, 0, "no slanted neighbours on a square grid");
    assert!(listed(&app(Variant::Honeycomb)));
    let cfg = termdoku::tui::config::parse("[keys]\nmove-down-right = \"y\"\n", "u.toml").unwrap();
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Honeycomb));
    let mut a = Session::new(App::new(game, cfg, true, false).unwrap());
    assert_eq!(moved(&mut a, "r5c5", "y"), "r6c5");
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
    let mut a = Session::new(App::new(game, cfg, true, false).unwrap());
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
    assert_eq!(a.game.assists.applied, 1);
    assert_eq!(a.game.assists.hints, 1);
    a.press("u");
    assert_eq!(a.game.remaining(), before);
}

#[test]
fn a_hint_on_show_when_the_game_is_left_comes_back_at_its_rung_uncounted() {
    let mut a = app(Variant::Standard);
    a.press("H H");
    assert_eq!(a.hint.as_ref().unwrap().stage, 2);
    let shown = a.hint.as_ref().unwrap().hint.clone();
    // Quit (or a kill after the autosave) and come back.
    let json = termdoku::game::save::SaveFile::from_game(&a.game, a.cursor, false)
        .to_json()
        .unwrap();
    let (game, _, _) = termdoku::game::save::parse_save(json.as_bytes()).unwrap();
    let mut b = Session::new(App::new(game, Config::default(), true, false).unwrap());
    b.press("H");
    assert_eq!(b.hint.as_ref().map(|h| h.stage), Some(2));
    assert_eq!(b.hint.as_ref().unwrap().hint, shown);
    assert_eq!((b.game.assists.hints, b.game.assists.techniques), (1, 1));
    // Dismissed and asked again on the same board: the same rung, still one hint.
    b.press("<esc> H");
    assert_eq!(b.hint.as_ref().map(|h| h.stage), Some(2));
    assert_eq!(b.game.assists.hints, 1);
    // The next rung is new help, and counted.
    b.press("H");
    assert_eq!(b.game.assists.full_steps, 1);
    // On a changed board a hint is a new one.
    b.press("H H");
    assert_eq!(b.hint.as_ref().map(|h| h.stage), Some(1));
    assert_eq!(b.game.assists.hints, 2);
}

#[test]
fn a_full_step_shows_the_digit_to_place_where_no_marks_are_drawn() {
    // 60x20: a 9x9 grid without its mark grid, as 16x16 at 80x24.
    let mut a = app(Variant::Standard);
    a.press("H H");
    let row_line = |a: &Session| {
        let hint = &a.hint.as_ref().unwrap().hint;
        let place = hint.placements[0];
        let (r, _) = a.game.geometry().coords(place.cell);
        let screen = text(&render(a, 60, 20));
        let line = screen
            .lines()
            .find(|l| l.starts_with(&format!("{r} ")))
            .unwrap();
        // The board's part of the line: the panel beside it says the digit in words.
        let line = line[..line.rfind('┃').unwrap()].to_string();
        let digit = termdoku::geometry::digit_char(place.digit);
        (line.matches(digit).count(), line)
    };
    let (before, _) = row_line(&a);
    a.press("H");
    assert_eq!(a.hint.as_ref().unwrap().stage, 3);
    let (after, line) = row_line(&a);
    assert_eq!(after, before + 1, "{line}");
}

/// Waits for a hint worked out in the background, as the event loop does between keys.
fn wait_for_hint(a: &mut Session) {
    let start = std::time::Instant::now();
    while !a.poll() {
        assert!(start.elapsed().as_secs() < 120, "no hint arrived");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn a_slow_hint_arrives_later_and_play_goes_on_meanwhile() {
    // No waiting at all: every hint takes the background path.
    let mut a = app(Variant::Honeycomb);
    a.wait = std::time::Duration::ZERO;
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
    b.wait = std::time::Duration::ZERO;
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

/// Polls as the event loop does until the next hint is known ahead.
fn wait_until_ready(a: &mut Session) {
    let start = std::time::Instant::now();
    while !a.hint_ready() {
        assert!(start.elapsed().as_secs() < 120, "no hint worked out ahead");
        a.poll();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn the_next_hint_is_worked_out_ahead_and_the_key_shows_it_at_once() {
    for v in [Variant::Honeycomb, Variant::Killer] {
        let mut a = app(v);
        // No waiting: a hint not known yet would take the background path.
        a.wait = std::time::Duration::ZERO;
        wait_until_ready(&mut a);
        let fresh = termdoku::game::hints::next_hint(&a.game.hint_grid(), a.game.solution());
        a.press("H");
        assert!(!a.hint_pending(), "{v:?}: the key waits for nothing");
        let shown = a.hint.as_ref().expect("a hint on show");
        assert_eq!(shown.stage, 1);
        assert_eq!(
            Some(&shown.hint),
            fresh.as_ref(),
            "{v:?}: the step a search gives"
        );
        // Applied, the board changes: the next one is worked out ahead again.
        a.press("H H H");
        assert!(a.hint.is_none());
        assert!(!a.hint_ready(), "not the hint of the board before");
        wait_until_ready(&mut a);
        a.press("H");
        assert_eq!(a.hint.as_ref().map(|h| h.stage), Some(1));
    }
    // Turned off, nothing is worked out before the key asks.
    let mut cfg = Config::default();
    cfg.game.hint_ahead = false;
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let mut a = Session::new(App::new(game, cfg, true, false).unwrap());
    for _ in 0..20 {
        a.poll();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!a.hint_ready());
    a.press("H");
    assert_eq!(a.hint.as_ref().map(|h| h.stage), Some(1));
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
    a.press("Sf");
    assert!(a.game.solved);
    assert!(a.message.as_ref().unwrap().text.contains("Solved"));
    a.press("u");
    assert!(!a.game.solved);
    assert!(a.message.is_none(), "Solved goes with the undo");
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
    assert_eq!(a.screen, Screen::NewGame);
    // Down to honeycomb, choose it, then its first level.
    a.press("j j j j <enter> <enter>");
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.game.puzzle().variant(), Variant::Honeycomb);
    assert_eq!(a.cursor, 0);
}

#[test]
fn sixteen_by_sixteen_takes_letters_as_digits() {
    let layout = Layout::new(Variant::Standard, 16);
    let p = Puzzle::new(layout, vec![0; 256]).unwrap();
    let mut a = Session::with_puzzle(p);
    a.press("g");
    assert_eq!(a.game.value(0), 16);
    a.press("F");
    assert!(!a.game.marks(1).contains(16));
    // Capital letters, as the board and the digit bar show the digits, place them too.
    a.press("lA lB lE");
    assert_eq!(
        (a.game.value(1), a.game.value(2), a.game.value(3)),
        (10, 11, 14)
    );
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

// ---------- confirmations, the assisted rule, the mistake switch ----------

#[test]
fn finish_asks_first_and_no_keeps_playing() {
    let mut a = app(Variant::Standard);
    a.press("S");
    assert_eq!(a.prompt, Some(Prompt::Finish));
    a.press("ll4");
    assert_eq!(value(&a, "r1c3"), 0, "keys wait for the answer");
    a.press("n");
    assert_eq!(a.prompt, None);
    assert!(!a.game.solved && !a.game.assists.is_assisted());
    a.press("S<esc>");
    assert!(a.prompt.is_none() && !a.game.solved);
    a.press("Sf");
    assert!(a.game.solved && a.game.assists.is_assisted());
    // On a solved board there is nothing to ask.
    a.press("S");
    assert_eq!(a.prompt, None);
}

#[test]
fn new_game_asks_only_while_a_game_is_in_progress() {
    let mut a = app(Variant::Standard);
    a.press("n");
    assert!(a.screen == Screen::NewGame, "nothing played yet");
    a.press("<esc> ll4 n");
    assert_eq!(a.prompt, Some(Prompt::NewGame));
    assert_eq!(a.screen, Screen::Play);
    a.press("n");
    assert_eq!((a.prompt, a.screen), (None, Screen::Play));
    assert_eq!(value(&a, "r1c3"), 4, "the game goes on");
    a.press("ny");
    assert!(a.screen == Screen::NewGame);
    // A solved game is not in progress.
    let mut b = app(Variant::Standard);
    b.press("Sf n");
    assert!(b.screen == Screen::NewGame);
}

/// Places the solution's digit in every empty cell, as the player would.
fn solve_by_hand(a: &mut Session) {
    let sol = a.game.solution().expect("unique").to_vec();
    for (c, &d) in sol.iter().enumerate() {
        if a.game.value(c) == 0 {
            a.cursor = c;
            a.press(&termdoku::geometry::digit_char(d).to_string());
        }
    }
    assert!(a.game.solved);
}

fn solve_record(a: &Session) -> bool {
    a.records
        .iter()
        .find_map(|r| match r {
            Record::Solved { assisted, .. } => Some(*assisted),
            _ => None,
        })
        .expect("a solve was recorded")
}

#[test]
fn nudges_techniques_and_checks_leave_a_solve_unassisted() {
    let mut a = app(Variant::Standard);
    a.press("H H <esc> c v");
    solve_by_hand(&mut a);
    assert!(!solve_record(&a), "sets a best time");
    assert_eq!((a.game.assists.hints, a.game.assists.checks), (1, 2));
    let msg = &a.message.as_ref().unwrap().text;
    assert!(msg.contains("1 hint, 2 checks"), "{msg}");
    assert!(!msg.contains("assisted"), "{msg}");
}

#[test]
fn a_full_step_an_apply_or_a_finish_makes_the_solve_assisted() {
    for keys in ["HHH<esc>", "HHHH", "Sf", "Ss"] {
        let mut a = app(Variant::Standard);
        a.press(keys);
        if !a.game.solved {
            a.press("<esc>");
            solve_by_hand(&mut a);
        }
        assert!(solve_record(&a), "{keys}: no best time");
        let msg = &a.message.as_ref().unwrap().text;
        assert!(msg.contains("assisted"), "{keys}: {msg}");
    }
}

#[test]
fn reveal_fills_the_selected_cell_counts_as_assisted_and_undoes() {
    let mut a = app(Variant::Standard);
    let c = cell(&a, "r1c3");
    assert_eq!(value(&a, "r1c3"), 0);
    let want = a.game.solution().expect("unique")[c];
    a.press("llR");
    assert_eq!(value(&a, "r1c3"), want);
    assert_eq!(a.game.assists.reveals, 1);
    assert!(a.game.assists.is_assisted());
    // A filled cell is left alone.
    a.press("R");
    assert_eq!(a.game.assists.reveals, 1);
    a.press("u");
    assert_eq!(value(&a, "r1c3"), 0);
    assert_eq!(a.game.assists.reveals, 1, "an undo keeps the record honest");
    solve_by_hand(&mut a);
    assert!(solve_record(&a), "no best time");
    let msg = &a.message.as_ref().unwrap().text;
    assert!(msg.contains("1 reveal; assisted"), "{msg}");
    assert!(view::help_rows(&a)
        .iter()
        .any(|(k, d)| k.contains('R') && d.contains("Reveal")));
    // Rebindable.
    let cfg = termdoku::tui::config::parse("[keys]\nreveal = \"W\"\n", "u.toml").unwrap();
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let mut b = Session::new(App::new(game, cfg, true, false).unwrap());
    b.press("llW");
    assert_eq!(value(&b, "r1c3"), want);
}

#[test]
fn the_status_line_keeps_help_in_view_with_checks_at_80_columns() {
    for v in [Variant::Killer, Variant::Honeycomb] {
        let mut a = app(v);
        a.press("c c v <esc>");
        assert_eq!(a.game.assists.checks, 3);
        let screen = text(&render(&a, 80, 24));
        let status = screen.lines().last().unwrap_or_default().to_string();
        assert!(status.trim_end().ends_with("? help"), "{v}: {status}");
        insta::assert_snapshot!(format!("{v}_status_with_checks_80x24"), screen);
    }
}

/// On a narrow screen the status line gives up whole parts, counters first, and keeps the
/// cell and the input mode (and a hint): at 40 columns a killer cell's facts are cut
/// short, not the mode; at 30 a 4x4 grid shows the clock, the mode and the help key, not half a counter.
#[test]
fn a_narrow_status_line_keeps_the_cell_and_the_mode() {
    let mut a = app(Variant::Killer);
    a.press("F");
    for (w, h) in [(30, 20), (40, 20), (44, 20), (50, 24)] {
        let screen = text(&render(&a, w, h));
        let status = screen
            .lines()
            .last()
            .unwrap_or_default()
            .trim_end()
            .to_string();
        // The cell, and its cage's sum, which the grid has no room for at this size.
        assert!(
            status.trim_start().starts_with("r1c1 cage ") && status.contains('='),
            "{w}x{h}: {status}"
        );
        assert!(status.contains("DIGITS"), "{w}x{h}: {status}");
        for part in status.split('│') {
            let part = part.trim();
            assert!(
                !part.starts_with("mistakes") || part.len() > "mistakes".len(),
                "{w}x{h}: a cut counter: {status}"
            );
        }
    }
    // A hint too long for the line has a card over the grid; the line does not repeat
    // the start of it.
    a.press("H");
    let screen = text(&render(&a, 40, 20));
    let (above, status) = screen.trim_end().rsplit_once('\n').unwrap();
    assert!(above.contains("Look at"), "{screen}");
    assert!(!status.contains("Hint"), "{status}");
    assert!(status.contains("DIGITS"), "{status}");
    let four = small(4);
    let screen = text(&render(&four, 30, 12));
    let status = screen.lines().last().unwrap_or_default().trim().to_string();
    assert_eq!(status, "00:00 │ DIGITS │ ? help");
}

#[test]
fn the_mistake_counter_can_be_switched_off() {
    let mut cfg = Config::default();
    cfg.game.count_mistakes = false;
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let mut a = Session::new(App::new(game, cfg, true, false).unwrap());
    a.press("ll1");
    assert_eq!(a.game.mistakes, 0);
    let screen = text(&render(&a, 80, 24));
    assert!(!screen.contains("mistake"), "{screen}");
    let mut on = app(Variant::Standard);
    on.press("ll1");
    assert!(text(&render(&on, 80, 24)).contains("mistakes 1"));
}

// ---------- the finish's replay ----------

#[test]
fn the_replay_steps_forward_and_back_then_fills() {
    let mut a = app(Variant::Standard);
    let start = a.game.values().to_vec();
    a.press("Ss");
    let r = a.replay.clone().expect("a replay");
    assert_eq!(r.at, 0);
    assert!(r.steps.len() > 10);
    assert_eq!(a.hint.as_ref().map(|h| &h.hint), Some(&r.steps[0]));
    assert!(a.game.assists.is_assisted());
    a.press("l");
    assert_eq!(a.replay.as_ref().unwrap().at, 1);
    let first = &r.steps[0].placements[0];
    assert_eq!(a.game.value(first.cell), first.digit);
    assert_eq!(a.hint.as_ref().map(|h| &h.hint), Some(&r.steps[1]));
    a.press("l h");
    assert_eq!(a.replay.as_ref().unwrap().at, 1);
    a.press("h");
    assert_eq!(a.replay.as_ref().unwrap().at, 0);
    assert_eq!(a.game.values(), &start[..], "back undoes the step");
    a.press("h");
    assert_eq!(a.replay.as_ref().unwrap().at, 0);
    a.press("ll S");
    assert!(a.replay.is_none());
    assert!(a.game.solved && solve_record(&a));
}

#[test]
fn the_replay_runs_to_the_end_and_esc_stops_it() {
    let mut a = app(Variant::Killer);
    a.press("Ss");
    let n = a.replay.as_ref().unwrap().steps.len();
    for _ in 0..n {
        a.press("<enter>");
    }
    assert!(a.replay.is_none() && a.game.solved);
    assert!(a.message.as_ref().unwrap().text.contains("Solved"));
    let mut b = app(Variant::Standard);
    b.press("Ss l <esc>");
    assert!(b.replay.is_none() && b.hint.is_none());
    let left = b.game.remaining();
    b.press("4");
    assert!(
        b.game.remaining() < left || b.message.is_some(),
        "play goes on"
    );
}

#[test]
fn a_slow_path_is_worked_out_in_the_background() {
    let mut a = app(Variant::Honeycomb);
    a.wait = std::time::Duration::ZERO;
    a.press("Ss");
    if a.replay.is_none() {
        assert!(a.waiting());
        let said = &a.message.as_ref().unwrap().text;
        assert!(said.contains("solution path"), "{said}");
        let start = std::time::Instant::now();
        while a.replay.is_none() {
            a.poll();
            assert!(start.elapsed().as_secs() < 120, "no path arrived");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    assert_eq!(a.replay.as_ref().unwrap().at, 0);
}

// ---------- snapshots ----------

#[test]
fn snapshot_prompts_and_a_replay_frame() {
    let mut a = app(Variant::Standard);
    a.press("ll4 n");
    insta::assert_snapshot!("prompt_new_game_80x24", text(&render(&a, 80, 24)));
    a.press("n S");
    insta::assert_snapshot!("prompt_finish_80x24", text(&render(&a, 80, 24)));
    a.press("s l");
    insta::assert_snapshot!("replay_step_2_80x24", text(&render(&a, 80, 24)));
}

#[test]
fn snapshots_of_every_variant_at_each_size() {
    for v in Variant::ALL {
        let mut a = app(v);
        a.press("jjl a");
        insta::assert_snapshot!(format!("{v}_80x24_candidates"), text(&render(&a, 80, 24)));
        insta::assert_snapshot!(format!("{v}_60x20"), text(&render(&a, 60, 20)));
        insta::assert_snapshot!(format!("{v}_160x50_candidates"), text(&render(&a, 160, 50)));
    }
    let mut h = app(Variant::Honeycomb);
    h.press("jjl a");
    insta::assert_snapshot!("honeycomb_80x30_candidates", text(&render(&h, 80, 30)));
    for size in [4, 6] {
        let mut a = small(size);
        a.press("a");
        insta::assert_snapshot!(
            format!("{size}x{size}_80x24_candidates"),
            text(&render(&a, 80, 24))
        );
    }
    let mut four = small(4);
    four.press("a");
    insta::assert_snapshot!("4x4_30x12_candidates", text(&render(&four, 30, 12)));
}

#[test]
fn every_candidate_is_drawn_at_80x24_in_every_small_variant() {
    let mut apps: Vec<Session> = [
        Variant::Standard,
        Variant::Diagonal,
        Variant::Jigsaw,
        Variant::Killer,
    ]
    .into_iter()
    .map(app)
    .collect();
    apps.push(small(4));
    apps.push(small(6));
    for mut a in apps {
        a.press("a");
        let buf = render(&a, 80, 24);
        let p = plan(&a, 80, 24);
        let g = a.game.geometry();
        let mut drawn = 0;
        for c in g.cells() {
            let r = p.cell_rect(g, c);
            for d in a.game.marks(c).iter() {
                let (dx, dy) = p.candidate_pos(d).expect("marks in cells");
                let sym = buf[(r.x + dx, r.y + dy)].symbol().to_string();
                assert_eq!(sym, d.to_string(), "{} of {}", d, g.cell_name(c));
                drawn += 1;
            }
        }
        assert!(drawn > 100 || g.cell_count() < 81, "{drawn}");
    }
}

#[test]
fn honeycomb_shows_every_candidate_at_80x24() {
    let mut a = app(Variant::Honeycomb);
    a.press("a");
    assert!(!plan(&a, 50, 24).marks_visible());
    let g = a.game.geometry();
    let mut shown = 0;
    for (w, h) in [(80, 24), (80, 30)] {
        let p = plan(&a, w, h);
        assert!(p.marks_visible(), "{w}x{h}");
        let buf = render(&a, w, h);
        for c in g.cells() {
            let r = p.cell_rect(g, c);
            for d in a.game.marks(c).iter() {
                let (dx, dy) = p.candidate_pos(d).unwrap();
                assert_eq!(buf[(r.x + dx, r.y + dy)].symbol(), d.to_string());
                shown += 1;
            }
        }
    }
    assert!(shown > 200, "only {shown} candidates");
}

#[test]
fn small_terminals_still_play() {
    let mut a = app(Variant::Standard);
    let t = text(&render(&a, 60, 20));
    assert!(!t.contains("enlarge"), "{t}");
    a.press("ll4");
    assert_eq!(value(&a, "r1c3"), 4);
    let (x, y) = digit_pos(&a, "r1c3", 60, 20);
    assert_eq!(render(&a, 60, 20)[(x, y)].symbol(), "4");
    let four = small(4);
    let t = text(&render(&four, 30, 12));
    assert!(!t.contains("enlarge"), "{t}");
}

#[test]
fn rows_and_columns_are_labelled_with_the_hint_names() {
    let mut a = app(Variant::Standard);
    a.press("jjjjllllH");
    let buf = render(&a, 80, 24);
    let t = text(&buf);
    let first = t.lines().next().unwrap();
    for d in 1..=9 {
        assert!(first.contains(&d.to_string()), "column {d}: {first}");
    }
    let p = plan(&a, 80, 24);
    let g = a.game.geometry();
    for r in 1..=9 {
        let rect = p.cell_rect(g, g.cell_at(r, 1).unwrap());
        assert_eq!(buf[(0, rect.y)].symbol(), r.to_string());
    }
    assert!(t.contains("Cell r5c5: empty"), "{t}");
    assert!(t.contains("box 5"), "{t}");
}

#[test]
fn the_panel_names_the_cage_with_its_sum_and_combinations() {
    let a = app(Variant::Killer);
    let g = a.game.geometry();
    let cage = g
        .houses_of(a.cursor)
        .iter()
        .map(|&h| g.house(h))
        .find(|h| matches!(h.kind, termdoku::geometry::HouseKind::Cage(_)))
        .unwrap();
    // Beside the grid when there is room, else in the status line.
    let t = text(&render(&a, 120, 40));
    assert!(t.contains(&format!("{} sum", cage.name())), "{t}");
    assert!(t.contains("ways:") || t.contains("1 way:"), "{t}");
    let t = text(&render(&a, 80, 24));
    assert!(t.contains(&format!("{}=", cage.name())), "{t}");
}

#[test]
fn the_first_hint_stage_highlights_the_house_it_names() {
    let mut a = app(Variant::Standard);
    a.press("H");
    let hs = a.hint.clone().unwrap();
    let nudge = hs.hint.nudge.clone();
    let g = a.game.geometry();
    let named = g
        .houses()
        .iter()
        .find(|h| nudge.ends_with(&h.name()) || nudge.contains(&format!("{} ", h.name())));
    let Some(house) = named else {
        return;
    };
    let buf = render(&a, 80, 24);
    let p = plan(&a, 80, 24);
    let c = *house.cells.iter().find(|&&c| c != a.cursor).unwrap();
    let r = p.cell_rect(g, c);
    assert_eq!(buf[(r.x + 1, r.y)].bg, Color::Yellow, "{nudge}");
}

#[test]
fn every_hint_stage_is_readable_at_80x24_in_every_variant() {
    for v in Variant::ALL {
        let mut a = app(v);
        for _ in 0..3 {
            a.press("H");
            let hs = a.hint.clone().unwrap();
            // The stage's own words, not only its header, whatever room the panel has.
            let words: String = hs.hint.text(hs.detail()).chars().take(12).collect();
            let screen = text(&render(&a, 80, 24));
            assert!(
                screen.contains(&words),
                "{v} stage {}: {words:?}\n{screen}",
                hs.stage
            );
        }
    }
}

#[test]
fn a_cage_across_a_box_border_keeps_its_outline() {
    let a = app(Variant::Killer);
    let g = a.game.geometry();
    let cage_of = |c: usize| {
        g.houses_of(c)
            .iter()
            .copied()
            .find(|&h| matches!(g.house(h).kind, termdoku::geometry::HouseKind::Cage(_)))
    };
    for (w, h) in [(80, 24), (160, 50), (60, 20)] {
        let buf = render(&a, w, h);
        let p = plan(&a, w, h);
        let mut crossings = 0;
        for c in g.cells() {
            if c % 9 == 8 || c % 3 != 2 || cage_of(c) != cage_of(c + 1) {
                continue;
            }
            let r = p.cell_rect(g, c);
            assert_eq!(buf[(r.right(), r.y)].symbol(), "╏", "{}", g.cell_name(c));
            crossings += 1;
        }
        assert!(crossings > 0);
    }
}

#[test]
fn an_entry_keeps_its_colour_inside_a_highlighted_house() {
    let mut cfg = Config::default();
    cfg.theme.house = termdoku::tui::config::StyleSpec("black on white".into());
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let mut a = Session::new(App::new(game, cfg, true, false).unwrap());
    a.press("ll4 l");
    let buf = render(&a, 80, 24);
    let (x, y) = digit_pos(&a, "r1c3", 80, 24);
    assert_eq!(buf[(x, y)].symbol(), "4");
    assert_eq!(buf[(x, y)].fg, Color::Blue);
    assert_eq!(buf[(x, y)].bg, Color::White);
}

#[test]
fn messages_follow_the_board() {
    let mut a = app(Variant::Standard);
    a.press("ll1c");
    assert!(a
        .message
        .as_ref()
        .unwrap()
        .text
        .starts_with("1 entry differs"));
    a.press("x");
    assert!(
        a.message.is_none(),
        "a check result goes when the board changes"
    );
    a.press("c");
    assert!(a.message.as_ref().unwrap().text.contains("cells to go"));
}

#[test]
fn snapshot_ascii_and_no_color_with_styles() {
    for v in [Variant::Killer, Variant::Honeycomb] {
        let game = termdoku::game::Game::new(builtin::puzzle(v));
        let mut a = Session::new(App::new(game, Config::default(), false, true).unwrap());
        a.press("jjl a");
        let (w, h) = if v == Variant::Honeycomb {
            (80, 30)
        } else {
            (80, 24)
        };
        let t = styled(&render(&a, w, h));
        assert!(t.is_ascii(), "{t}");
        insta::assert_snapshot!(format!("{v}_ascii_no_color_{w}x{h}"), t);
        let game = termdoku::game::Game::new(builtin::puzzle(v));
        let mut u = Session::new(App::new(game, Config::default(), true, true).unwrap());
        u.press("jjl a c");
        insta::assert_snapshot!(format!("{v}_no_color_{w}x{h}"), styled(&render(&u, w, h)));
    }
}

#[test]
fn snapshot_enlarge_screen_and_recovery() {
    let a = app(Variant::Standard);
    let small = text(&render(&a, 50, 12));
    assert!(small.contains("enlarge to 21x14"), "{small}");
    insta::assert_snapshot!("enlarge_50x12", small);
    // Sixteen lines hold the grid with lines between box rows only.
    let short = text(&render(&a, 50, 16));
    assert!(
        !short.contains("enlarge") && short.contains("mistakes 0"),
        "{short}"
    );
    assert!(!text(&render(&a, 80, 24)).contains("enlarge"));
}

#[test]
fn snapshot_help_screen() {
    let mut a = app(Variant::Standard);
    a.press("?");
    let t = text(&render(&a, 80, 24));
    insta::assert_snapshot!("help_80x24", t);
    // The keys fill more than one 80x24 page: the last row says how many are below, and
    // space shows the next page, which holds the rest of them.
    assert!(
        t.lines()
            .nth(23)
            .unwrap()
            .contains("more below: j or space"),
        "{t}"
    );
    a.press("<space>");
    let next = text(&render(&a, 80, 24));
    assert!(next.contains("Save and quit"), "{next}");
    a.press("<pageup>");
    assert_eq!(text(&render(&a, 80, 24)), t);
    for c in termdoku::tui::config::Command::ALL {
        if c.digit().is_none() && !c.is_slanted_move() {
            assert!(
                t.contains(c.description()) || next.contains(c.description()),
                "{} missing:\n{t}\n{next}",
                c.name()
            );
        }
    }
    a.press("k");
    a.press("jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj");
    let t = text(&render(&a, 80, 24));
    assert!(
        t.contains("Legend") && t.contains("the selected cell"),
        "{t}"
    );
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
    // The placed candidate itself is styled, at every size that shows candidates.
    for (w, h) in [(80, 24), (160, 50)] {
        let big = render(&a, w, h);
        let pl = plan(&a, w, h);
        let r = pl.cell_rect(a.game.geometry(), p.cell);
        let (dx, dy) = pl.candidate_pos(p.digit).unwrap();
        assert_eq!(big[(r.x + dx, r.y + dy)].symbol(), p.digit.to_string());
        assert_eq!(big[(r.x + dx, r.y + dy)].bg, Color::Green);
    }
}

#[test]
fn no_color_keeps_modifiers_only() {
    let game = termdoku::game::Game::new(builtin::puzzle(Variant::Standard));
    let app = App::new(game, Config::default(), true, true).unwrap();
    let buf = render(&app, 80, 24);
    let a = buf.area;
    for y in a.top()..a.bottom() {
        for x in a.left()..a.right() {
            assert_eq!(buf[(x, y)].bg, Color::Reset);
            assert_eq!(buf[(x, y)].fg, Color::Reset);
        }
    }
    let (x, y) = digit_pos(&app, "r1c1", 80, 24);
    assert!(buf[(x, y)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn the_panel_names_a_honeycomb_cells_three_lines() {
    let mut a = app(Variant::Honeycomb);
    a.press("jjl");
    let (i, j) = a.game.geometry().coords(a.cursor);
    let (i, j) = (usize::from(i), usize::from(j));
    let b = j + i.saturating_sub(5);
    let c = j + 5usize.saturating_sub(i);
    let t = text(&render(&a, 120, 40));
    for name in [
        format!("row {i}"),
        format!("/ line {b}"),
        format!("\\ line {c}"),
    ] {
        assert!(t.contains(&name), "{name}:\n{t}");
    }
}

#[test]
fn diagonals_are_marked_at_every_size() {
    let mut a = app(Variant::Diagonal);
    a.press("a");
    let t = text(&render(&a, 80, 24));
    assert_eq!(t.matches('╲').count(), 8, "{t}");
    assert_eq!(t.matches('╱').count(), 8, "{t}");
    assert_eq!(t.matches('X').count(), 1, "r5c5 is on both:\n{t}");
    let t = text(&render(&a, 60, 20));
    assert!(t.contains('╲') && t.contains('╱'), "{t}");
}

/// The words inside the card titled `title` on screen, joined by single spaces.
fn card_words(screen: &str, title: &str) -> Option<String> {
    let mut lines = screen
        .lines()
        .skip_while(|l| !l.contains(&format!("┌ {title} ")));
    lines.next()?;
    let body: Vec<&str> = lines
        .take_while(|l| !l.contains('└'))
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect();
    Some(body.join(" "))
}

/// At 80x24 a killer grid leaves one line under it: a full step longer than that line
/// is shown whole in a card over the grid, on the half away from the step's cells.
#[test]
fn a_long_full_step_is_shown_whole_at_80x24() {
    let mut a = app(Variant::Killer);
    let screen = full_step_in_a_card(&mut a, 80, 24);
    let hs = a.hint.as_ref().expect("a hint");
    // The card hides none of the cells the step is about when one half is free of them.
    let p = plan(&a, 80, 24);
    let g = a.game.geometry();
    let top = screen
        .lines()
        .position(|l| l.contains("┌ Hint 3/3"))
        .unwrap() as u16;
    let bottom = screen.lines().position(|l| l.contains('└')).unwrap() as u16;
    let focus: Vec<u16> = hs
        .hint
        .highlights
        .iter()
        .filter_map(|h| match h.target {
            termdoku::solver::logic::Target::Cell(c) => Some(c),
            termdoku::solver::logic::Target::Candidate(x) => Some(x.cell),
            _ => None,
        })
        .map(|c| p.cell_rect(g, c).y)
        .collect();
    let mid = p.grid.y + p.grid.height / 2;
    if focus.iter().all(|&y| y < mid) || focus.iter().all(|&y| y >= mid) {
        assert!(
            focus.iter().all(|&y| y < top || y > bottom),
            "{focus:?} {top}-{bottom}\n{screen}"
        );
    }
    // Where the panel holds the whole step, there is no card.
    assert!(card_words(&text(&render(&a, 100, 40)), "Hint 3/3").is_none());
}

/// With no panel at all (the cell's facts fold into the status line), a long step still
/// reads whole.
#[test]
fn a_long_step_reads_whole_without_a_panel() {
    let mut a = app(Variant::Standard);
    assert_eq!(
        plan(&a, 30, 20).panel,
        termdoku::tui::view::layout::Panel::Status
    );
    full_step_in_a_card(&mut a, 30, 20);
}

/// Pencils every candidate, climbs the hint ladder to the full step, and checks that a
/// card on a `w` x `h` screen holds all of it (a step longer than a line); the screen.
fn full_step_in_a_card(a: &mut Session, w: u16, h: u16) -> String {
    a.press("FHHH");
    let hs = a.hint.as_ref().expect("a hint");
    let full = hs.hint.text(hs.detail()).to_string();
    assert!(
        full.len() > usize::from(w),
        "the step fits one line anyway: {full}"
    );
    let screen = text(&render(a, w, h));
    let words = card_words(&screen, "Hint 3/3").unwrap_or_else(|| panic!("no card:\n{screen}"));
    let want = full.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.starts_with(&want), "{words}\n{screen}");
    assert!(words.ends_with("H again applies it"), "{screen}");
    screen
}

/// The help names the keys that work on the grid in play: on 16x16, `a` places digit 10
/// (so it is not offered for filling candidates, `F` is), and a 4x4 grid lists digits 1-4.
#[test]
fn help_lists_only_keys_that_work_on_this_grid() {
    let row = |a: &Session, what: &str| {
        view::help_rows(a)
            .into_iter()
            .find(|(_, d)| d.contains(what))
            .map(|(k, _)| k)
    };
    let nine = app(Variant::Standard);
    assert_eq!(row(&nine, "every possible candidate").unwrap(), "a F");
    assert_eq!(row(&nine, "Digits 10"), None);
    let four = small(4);
    assert_eq!(row(&four, "Place a digit").unwrap(), "1 2 3 4");
    let sixteen = Session::with_puzzle(
        Puzzle::new(Layout::new(Variant::Standard, 16), vec![0; 256]).unwrap(),
    );
    assert_eq!(row(&sixteen, "every possible candidate").unwrap(), "F");
    assert_eq!(row(&sixteen, "Digits 10-16").unwrap(), "a b c d e f g");
    assert_eq!(row(&sixteen, "Place a digit").unwrap(), "1 2 3 4 5 6 7 8 9");
}

/// Every help row reads whole on a narrow screen: a long description goes on under itself.
#[test]
fn help_descriptions_wrap_instead_of_running_off_the_screen() {
    let mut a = app(Variant::Standard);
    a.press("?");
    assert_eq!(a.screen, Screen::Help);
    let screen = text(&render(&a, 60, 90));
    let shown: Vec<&str> = screen.split_whitespace().collect();
    for (keys, desc) in view::help_lines(&a) {
        let words: Vec<&str> = desc.split_whitespace().collect();
        assert!(
            shown
                .windows(words.len().max(1))
                .any(|w| w == words.as_slice())
                || words.is_empty(),
            "{keys}: {desc}\n{screen}"
        );
    }
}

/// Without a panel, a short message takes one line over the grid's bottom border (the
/// status line has no room for it beside the counters), not a box.
#[test]
fn a_short_message_reads_whole_without_a_panel() {
    let mut a = app(Variant::Standard);
    a.press("v");
    let said = a.message.as_ref().expect("a message").text.clone();
    let (w, h) = (40, 20);
    assert_eq!(
        plan(&a, w, h).panel,
        termdoku::tui::view::layout::Panel::Status
    );
    let screen = text(&render(&a, w, h));
    assert!(screen.lines().any(|l| l == said), "{said}\n{screen}");
    assert!(!screen.contains('┌'), "{screen}");
}

#[test]
fn a_short_message_leaves_the_last_honeycomb_row_in_view() {
    // At 39x11 the honeycomb's rows are stacked down to the grid's last line: the message
    // goes over the free top line instead of over row 9.
    let mut a = app(Variant::Honeycomb);
    let row9 = |s: &str| s.lines().find(|l| l.starts_with('9')).map(str::to_string);
    let (w, h) = (39, 11);
    let before = row9(&text(&render(&a, w, h))).expect("row 9 drawn");
    a.press("v");
    let said = a.message.as_ref().expect("a message").text.clone();
    let screen = text(&render(&a, w, h));
    assert!(screen.lines().any(|l| l == said), "{said}\n{screen}");
    assert_eq!(row9(&screen), Some(before), "{screen}");
}
