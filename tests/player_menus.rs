//! The player's menus, picker, statistics screen, rules page and mouse, through the app:
//! key sequences, clicks at the positions the layout plan draws things, and snapshots.

mod common;

use common::screen::{render, text};
use ratatui::layout::Rect;
use std::collections::BTreeSet;
use termdoku::game::builtin;
use termdoku::game::library;
use termdoku::game::stats::{Earlier, Kind, Stats};
use termdoku::puzzle::Variant;
use termdoku::tui::app::{App, Record, Screen};
use termdoku::tui::menu::{Source, Step};
use termdoku::tui::mouse::Mouse;
use termdoku::tui::view;

fn app(v: Variant) -> App {
    App::with_puzzle(builtin::puzzle(v))
}

fn selected(app: &App) -> String {
    let l = &app.menus.new_game.list;
    l.items[l.selected].clone()
}

/// The app on a killer collection of 30 puzzles, playing puzzle 1, with 2 and 5 solved.
fn on_collection() -> App {
    let puzzles = library::embedded(Variant::Killer, 9, "easy");
    let mut a = App::with_puzzle(puzzles[0].clone());
    a.menus.source = Some(Source {
        file: "puzzles/killer-easy.toml".into(),
        puzzles,
        index: 1,
        solved: BTreeSet::from([2, 5]),
    });
    a
}

/// Where the list box of the menu or picker on screen draws the entry starting with
/// `label` (the same box the drawing uses).
fn entry_pos(app: &App, area: Rect, label: &str) -> (u16, u16) {
    let (title, footer, list) = match app.screen {
        Screen::Picker => (
            view::picker_title(app),
            view::menu::PICKER_KEYS,
            &app.menus.picker,
        ),
        _ => (
            app.menus.new_game.title(),
            view::menu::LIST_KEYS,
            &app.menus.new_game.list,
        ),
    };
    let i = list
        .items
        .iter()
        .position(|s| s.trim_start().starts_with(label))
        .expect("an entry");
    let b = view::menu::list_box(area, &title, footer, list);
    let (x, y) = (b.rows.x + 3, b.rows.y + (i - b.top) as u16);
    // The entry is drawn there.
    let screen = text(&render(app, area.width, area.height));
    let row: String = screen
        .lines()
        .nth(usize::from(y))
        .unwrap()
        .chars()
        .skip(usize::from(b.rows.x))
        .collect();
    assert!(row.contains(label), "{label} not at row {y}:\n{screen}");
    (x, y)
}

#[test]
fn new_game_menu_snapshots() {
    let mut a = app(Variant::Standard);
    a.press("n");
    assert_eq!(a.screen, Screen::NewGame);
    insta::assert_snapshot!("menu_variant_80x24", text(&render(&a, 80, 24)));
    a.press("<enter>");
    insta::assert_snapshot!("menu_size_80x24", text(&render(&a, 80, 24)));
    a.press("<enter>");
    insta::assert_snapshot!("menu_level_80x24", text(&render(&a, 80, 24)));
    a.press("<esc><esc>f<enter>");
    assert!(matches!(a.menus.new_game.step, Step::File { .. }));
    insta::assert_snapshot!("menu_file_80x24", text(&render(&a, 80, 24)));
}

#[test]
fn a_sixteen_by_sixteen_game_from_the_menu_by_keys() {
    let mut a = app(Variant::Killer);
    a.press("n");
    // The menu opens on the variant played.
    assert_eq!(selected(&a), "killer");
    a.press("<home><enter>");
    assert_eq!(a.menus.new_game.list.items, ["4x4", "6x6", "9x9", "16x16"]);
    a.press("j<enter>");
    assert_eq!(selected(&a), "easy");
    a.press("<enter>");
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.game.geometry().max_digit(), 16);
    assert_eq!(a.game.puzzle().difficulty.as_deref(), Some("easy"));
    let said = a.message.clone().unwrap().text;
    assert!(
        said.starts_with("New standard 16x16 game: puzzle "),
        "{said}"
    );
    // Started games are counted by kind.
    assert!(a.records.iter().any(|r| matches!(r,
        Record::Started(k) if *k == Kind::new("standard", 16, Some("easy")))));
}

#[test]
fn escape_steps_back_and_closes_and_q_quits() {
    let mut a = app(Variant::Standard);
    a.press("n<enter><enter>");
    assert_eq!(a.menus.new_game.step, Step::Level);
    a.press("<esc>");
    assert_eq!(a.menus.new_game.step, Step::Size);
    a.press("h");
    assert_eq!(a.menus.new_game.step, Step::Variant);
    a.press("<esc>");
    assert_eq!(a.screen, Screen::Play);
    a.press("nq");
    assert!(a.quit);
}

#[test]
fn a_file_that_does_not_parse_is_named_in_the_prompt_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "# two puzzles\n1234\n").unwrap();
    let mut a = app(Variant::Standard);
    a.press("nf<enter>");
    for c in bad.display().to_string().chars() {
        a.handle_key(termdoku::tui::keys::Key::Char(c));
    }
    a.press("<enter>");
    assert_eq!(a.screen, Screen::NewGame, "the prompt stays");
    let Step::File { error: Some(e), .. } = &a.menus.new_game.step else {
        panic!("no error: {:?}", a.menus.new_game.step);
    };
    assert!(e.starts_with(&format!("{}:2:", bad.display())), "{e}");
    let screen = text(&render(&a, 100, 30));
    assert!(screen.contains("bad.txt:2:"), "{screen}");
}

#[test]
fn a_collection_from_the_file_prompt_opens_its_first_puzzle_and_the_picker() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/killer-easy.toml");
    let mut a = app(Variant::Standard);
    a.press("nf<enter>");
    for c in path.chars() {
        a.handle_key(termdoku::tui::keys::Key::Char(c));
    }
    a.press("<enter>");
    assert_eq!(a.screen, Screen::Picker);
    assert_eq!(a.game.puzzle().variant(), Variant::Killer);
    assert_eq!(a.menus.picker.items.len(), 30);
    a.press("jj<enter>");
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.menus.source.as_ref().unwrap().index, 3);
    let third = &library::embedded(Variant::Killer, 9, "easy")[2];
    assert_eq!(a.game.puzzle().givens, third.givens);
}

#[test]
fn a_collection_from_the_file_prompt_starts_at_the_remembered_puzzle() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/killer-easy.toml");
    let state = tempfile::tempdir().unwrap();
    library::remember_index(state.path(), path.as_ref(), 7).unwrap();
    library::remember_solved(state.path(), path.as_ref(), 2).unwrap();
    let mut a = app(Variant::Standard);
    a.menus.state = Some(state.path().to_path_buf());
    a.press("nf<enter>");
    for c in path.chars() {
        a.handle_key(termdoku::tui::keys::Key::Char(c));
    }
    a.press("<enter>");
    let src = a.menus.source.as_ref().unwrap();
    assert_eq!(src.index, 7);
    assert!(src.solved.contains(&2));
    let seventh = &library::embedded(Variant::Killer, 9, "easy")[6];
    assert_eq!(a.game.puzzle().givens, seventh.givens);
    assert_eq!(a.game.puzzle().layout, seventh.layout);
    // The picker opens on it.
    assert_eq!(a.menus.picker.selected, 6);
}

#[test]
fn the_picker_shows_number_level_and_solved_and_remembers_the_choice() {
    let mut a = on_collection();
    // The menu offers the file's puzzles.
    a.press("n");
    insta::assert_snapshot!("menu_on_collection_80x24", text(&render(&a, 80, 24)));
    a.press("p<enter>");
    assert_eq!(a.screen, Screen::Picker);
    insta::assert_snapshot!("picker_80x24", text(&render(&a, 80, 24)));
    a.press("jjjj<enter>");
    assert_eq!(a.menus.source.as_ref().unwrap().index, 5);
    assert!(a.records.iter().any(|r| matches!(r,
        Record::Opened { file, index: 5 } if file.ends_with("killer-easy.toml"))));
    // A game not from a file has no picker entry.
    let mut b = app(Variant::Standard);
    b.press("n");
    assert!(!b
        .menus
        .new_game
        .list
        .items
        .iter()
        .any(|i| i.starts_with("puzzles")));
}

#[test]
fn statistics_screen_snapshot() {
    let mut a = app(Variant::Standard);
    let mut s = Stats::new();
    let easy = Kind::new("standard", 9, Some("easy"));
    let killer = Kind::new("killer", 9, Some("hard"));
    let big = Kind::new("standard", 16, Some("medium"));
    for k in [&easy, &easy, &killer, &big] {
        s.record_start(k);
    }
    s.record_game_solve(&easy, 185_000, false, 0);
    s.record_game_solve(&easy, 1_000, true, 3);
    s.record_game_solve(&killer, 1_261_000, false, 2);
    s.earlier = Some(Earlier {
        started: 9,
        solved: 6,
    });
    a.menus.stats = s;
    a.press("n<end><up><enter>");
    assert_eq!(a.screen, Screen::Stats);
    insta::assert_snapshot!("stats_100x20", text(&render(&a, 100, 20)));
    a.press("<esc>");
    assert_eq!(a.screen, Screen::Play);
}

#[test]
fn rules_pages_reached_from_help() {
    for v in Variant::ALL {
        let mut a = app(v);
        a.press("?r");
        assert_eq!(a.screen, Screen::Rules, "{v}");
        insta::assert_snapshot!(format!("rules_{v}_80x24"), text(&render(&a, 80, 24)));
        a.press("<esc>");
        assert_eq!(a.screen, Screen::Play);
    }
}

#[test]
fn clicks_select_a_cell_toggle_its_marks_and_place_from_the_digit_bar() {
    let mut a = app(Variant::Standard);
    let area = Rect::new(0, 0, 80, 24);
    let p = view::plan(&a, area).unwrap();
    let g = a.game.geometry().clone();
    let empty = g
        .cells()
        .find(|&c| a.game.value(c) == 0 && c != a.cursor)
        .unwrap();
    let r = p.cell_rect(&g, empty);
    assert!(a.handle_mouse(Mouse::Click(r.x, r.y), area));
    assert_eq!(a.cursor, empty);
    // In the selected cell a click on mark 7's place toggles mark 7, twice back off.
    let (dx, dy) = p.candidate_pos(7).unwrap();
    a.handle_mouse(Mouse::Click(r.x + dx, r.y + dy), area);
    assert!(a.game.marks(empty).contains(7));
    a.handle_mouse(Mouse::Click(r.x + dx, r.y + dy), area);
    assert!(!a.game.marks(empty).contains(7));
    // The digit bar under the grid places a digit, its `x` clears.
    let bar = p.digit_bar.expect("a digit bar at 80x24");
    a.handle_mouse(Mouse::Click(p.bar_x(4, 9).unwrap(), bar.y), area);
    assert_eq!(a.game.value(empty), 4);
    a.handle_mouse(Mouse::Click(p.bar_x(0, 9).unwrap(), bar.y), area);
    assert_eq!(a.game.value(empty), 0);
    let screen = text(&render(&a, 80, 24));
    assert!(screen
        .lines()
        .nth(usize::from(bar.y))
        .unwrap()
        .contains("1 2 3 4 5 6 7 8 9 x"));
}

#[test]
fn with_the_mouse_switched_off_clicks_do_nothing_and_no_bar_is_drawn() {
    let mut a = app(Variant::Standard);
    a.config.display.mouse = false;
    let area = Rect::new(0, 0, 80, 24);
    let p = view::plan(&a, area).unwrap();
    assert!(p.digit_bar.is_none());
    let r = p.cell_rect(a.game.geometry(), 40);
    assert!(!a.handle_mouse(Mouse::Click(r.x, r.y), area));
    assert_eq!(a.cursor, 0);
}

#[test]
fn menu_entries_are_clicked_and_the_wheel_moves_the_selection() {
    let mut a = app(Variant::Standard);
    let area = Rect::new(0, 0, 80, 24);
    a.press("n");
    a.handle_mouse(Mouse::WheelDown, area);
    assert_eq!(selected(&a), "diagonal");
    let (x, y) = entry_pos(&a, area, "honeycomb");
    a.handle_mouse(Mouse::Click(x, y), area);
    assert_eq!(a.menus.new_game.step, Step::Level);
    let (x, y) = entry_pos(&a, area, "hard");
    a.handle_mouse(Mouse::Click(x, y), area);
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.game.puzzle().variant(), Variant::Honeycomb);
    assert_eq!(a.game.puzzle().difficulty.as_deref(), Some("hard"));
    // The picker too.
    let mut b = on_collection();
    b.press("np<enter>");
    let (x, y) = entry_pos(&b, area, "3 ");
    b.handle_mouse(Mouse::Click(x, y), area);
    assert_eq!(b.menus.source.as_ref().unwrap().index, 3);
}

#[test]
fn solving_a_collection_puzzle_marks_it_solved_in_the_picker() {
    let mut a = on_collection();
    let solution = a.game.solution().expect("unique").to_vec();
    let g = a.game.geometry().clone();
    let empty: Vec<usize> = g.cells().filter(|&c| a.game.value(c) == 0).collect();
    let (&last, rest) = empty.split_last().unwrap();
    for &c in rest {
        a.game.place(c, solution[c], false, c).unwrap();
    }
    a.cursor = last;
    a.press(&termdoku::geometry::digit_char(solution[last]).to_string());
    assert!(a.game.solved);
    assert!(a
        .records
        .iter()
        .any(|r| matches!(r, Record::SolvedInFile { index: 1, .. })));
    a.press("np<enter>");
    assert!(
        a.menus.picker.items[0].contains("solved"),
        "{:?}",
        a.menus.picker.items[0]
    );
}
