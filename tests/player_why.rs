//! The "why?" key and the technique page in the player, by key sequences (Session harness,
//! as in `tests/player.rs`) and snapshots.

mod common;

use common::screen::{render, text};
use termdoku::game::builtin;
use termdoku::puzzle::Variant;
use termdoku::solver::logic::{self, technique};
use termdoku::tui::app::Screen;
use termdoku::tui::effects::Session;

/// The built-in standard puzzle with every candidate pencilled in (`a`).
fn marked() -> Session {
    let mut s = Session::with_puzzle(builtin::puzzle(Variant::Standard));
    s.press("a");
    s
}

/// Keys that move the cursor from r1c1 to a cell.
fn go(s: &Session, cell: usize) -> String {
    let (r, c) = s.game.geometry().coords(cell);
    "j".repeat(usize::from(r) - 1) + &"l".repeat(usize::from(c) - 1)
}

fn shown(s: &Session) -> String {
    s.hint
        .as_ref()
        .map(|h| h.hint.full.clone())
        .unwrap_or_default()
}

#[test]
fn why_on_an_erased_true_candidate_says_that_was_wrong() {
    let mut s = marked();
    let sol = s.game.solution().expect("unique").to_vec();
    let cell = (0..81)
        .find(|&c| s.game.value(c) == 0)
        .expect("an empty cell");
    let d = sol[cell];
    let keys = format!("{}m{d}w{d}", go(&s, cell));
    s.press(&keys);
    assert!(!s.game.marks(cell).contains(d), "the mark was erased");
    let name = s.game.geometry().cell_name(cell);
    assert_eq!(
        shown(&s),
        format!("You removed {d} from {name} by hand, and that was wrong: it is the solution.")
    );
    // It gives the digit away: counted as a hint, and the solve is assisted.
    assert_eq!(s.game.assists.hints, 1);
    assert!(s.game.assists.is_assisted());
    insta::assert_snapshot!("why_wrong_erase_80x24", text(&render(&s, 80, 24)));
    s.press("<esc>");
    assert!(s.hint.is_none());
}

#[test]
fn why_on_a_candidate_removed_by_a_technique_names_the_step() {
    // Rated hard: steps up to that level explain, a pointing pair among them.
    let mut p = builtin::puzzle(Variant::Standard);
    p.difficulty = Some("hard".into());
    let mut s = Session::with_puzzle(p);
    s.press("a");
    let grid = s.game.hint_grid();
    // A candidate a pointing pair removes: erase it by hand, then ask.
    let step = logic::find_all(&grid, "locked-candidates-pointing")
        .into_iter()
        .next()
        .expect("the puzzle has locked candidates");
    let e = step.eliminations[0];
    let keys = format!("{}m{}w{}", go(&s, e.cell), e.digit, e.digit);
    s.press(&keys);
    let hs = s.hint.as_ref().expect("an answer");
    let id = hs
        .hint
        .id
        .strip_prefix("why-")
        .expect("a technique's answer");
    let t = technique(id).expect("a technique of the table");
    let name = s.game.geometry().cell_name(e.cell);
    let said = shown(&s);
    assert!(
        said.starts_with(&format!(
            "{} is not possible in {name}: {}",
            e.digit, t.name
        )),
        "{said}"
    );
    assert!(!hs.hint.highlights.is_empty(), "the step is highlighted");
    // An explanation of a removal gives nothing away.
    assert_eq!(s.game.assists.hints, 0, "{said}");
    insta::assert_snapshot!("why_technique_80x24", text(&render(&s, 80, 24)));
    // i opens that technique's page; esc comes back.
    s.press("i");
    assert_eq!(s.screen, Screen::Page);
    assert_eq!(s.page, Some(t.id));
    s.press("<esc>");
    assert_eq!(s.screen, Screen::Play);
}

#[test]
fn why_on_a_conflicting_digit_names_the_cell_and_house() {
    let mut s = marked();
    let g = s.game.geometry().clone();
    let (cell, peer) = (0..81)
        .filter(|&c| s.game.value(c) == 0)
        .find_map(|c| {
            g.peers(c)
                .iter()
                .copied()
                .find(|&p| s.game.value(p) != 0 && g.coords(p).0 == g.coords(c).0)
                .map(|p| (c, p))
        })
        .expect("an empty cell with a given in its row");
    let d = s.game.value(peer);
    let keys = format!("{}w{d}", go(&s, cell));
    s.press(&keys);
    assert_eq!(
        shown(&s),
        format!(
            "{d} cannot go in {}: {}, in row {}, already holds {d}.",
            g.cell_name(cell),
            g.cell_name(peer),
            g.coords(cell).0
        )
    );
    insta::assert_snapshot!("why_conflict_80x24", text(&render(&s, 80, 24)));
}

#[test]
fn w_asks_which_digit_and_esc_drops_the_question() {
    let mut s = marked();
    let cell = (0..81)
        .find(|&c| s.game.value(c) == 0)
        .expect("an empty cell");
    s.press(&go(&s, cell));
    s.press("w");
    let asked = s
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(asked.starts_with("Why not which digit?"), "{asked}");
    s.press("<esc>");
    assert!(s.message.is_none() && s.hint.is_none());
    // The question is gone: a digit places again.
    let before = s.game.marks(cell);
    s.press("p1");
    assert_ne!(s.game.marks(cell), before);
}

#[test]
fn the_page_of_a_hint_shows_the_technique_on_a_bank_position() {
    let mut s = marked();
    s.press("HH");
    let id = s
        .hint
        .as_ref()
        .map(|h| h.hint.id.clone())
        .unwrap_or_default();
    s.press("i");
    assert_eq!(s.screen, Screen::Page);
    assert_eq!(s.page, technique(&id).map(|t| t.id));
    insta::assert_snapshot!("technique_page_80x24", text(&render(&s, 80, 24)));
    s.press("jjjjjjjj");
    let lower = text(&render(&s, 80, 24));
    assert!(
        lower.contains("On a position from the drill bank"),
        "{lower}"
    );
    s.press("<esc>");
    assert_eq!(s.screen, Screen::Play);
}
