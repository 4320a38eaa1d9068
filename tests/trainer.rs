//! The trainer through the player's keys: pick X-Wing, apply it on the bank's first drill,
//! submit, and read the grade (correct, a wrong removal named, a partial answer); the run's
//! score, leaving and resuming, and the profile the graded drills feed.

mod common;

use common::screen::{render, text};
use termdoku::game::builtin;
use termdoku::puzzle::Variant;
use termdoku::solver::logic::{find_all, Candidate, Step};
use termdoku::tui::app::{Record, Screen};
use termdoku::tui::effects::Session;

fn session() -> Session {
    Session::with_puzzle(builtin::puzzle(Variant::Standard))
}

/// Keys that move the cursor from where it is to `cell` (9x9: rows and columns of 9).
fn keys_to(from: usize, cell: usize) -> String {
    let (r0, c0) = ((from / 9) as i32, (from % 9) as i32);
    let (r1, c1) = ((cell / 9) as i32, (cell % 9) as i32);
    let v = if r1 >= r0 { "j" } else { "k" };
    let h = if c1 >= c0 { "l" } else { "h" };
    v.repeat((r1 - r0).unsigned_abs() as usize) + &h.repeat((c1 - c0).unsigned_abs() as usize)
}

/// Toggles off a pencil mark with keys (the drill starts in pencil mode).
fn remove(s: &mut Session, c: Candidate) {
    let keys = keys_to(s.cursor, c.cell) + &c.digit.to_string();
    s.press(&keys);
}

/// `t`, then down the picker to the X-Wing entry (not a suggestion) and enter.
fn choose_x_wing(s: &mut Session) {
    s.press("t");
    assert_eq!(s.screen, Screen::Train);
    let items = &s.train_menu.list.items;
    let at = items
        .iter()
        .position(|i| i.starts_with("  X-Wing "))
        .unwrap_or_else(|| panic!("no X-Wing in {items:#?}"));
    let keys = "j".repeat(at) + "<enter>";
    s.press(&keys);
    assert_eq!(s.screen, Screen::Play);
    let t = s.trainer.as_ref().expect("a drill");
    assert_eq!(t.technique.id, "x-wing");
}

/// The X-Wings of the drill shown.
fn instances(s: &Session) -> Vec<Step> {
    find_all(&s.trainer.as_ref().unwrap().grid, "x-wing")
}

fn said(s: &Session) -> String {
    s.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

#[test]
fn removing_the_x_wings_candidates_is_graded_correct_and_shows_the_step() {
    let mut s = session();
    choose_x_wing(&mut s);
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("Train: X-Wing  drill 1/20"), "{screen}");
    // The nudge points at the pattern's houses.
    s.press("H");
    assert!(said(&s).starts_with("Nudge: Look at"), "{}", said(&s));
    let step = instances(&s).remove(0);
    for &e in &step.eliminations {
        remove(&mut s, e);
    }
    s.press("<enter>");
    assert!(
        said(&s).starts_with("Correct: that is the X-Wing."),
        "{}",
        said(&s)
    );
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("score 1/1 correct"), "{screen}");
    // The step is on the board with its highlights.
    let hint = &s.hint.as_ref().expect("the step shown").hint;
    assert_eq!(hint.id, "x-wing");
    assert!(!hint.highlights.is_empty());
    insta::assert_snapshot!("x_wing_correct_80x24", text(&render(&s, 80, 24)));
    // Counted once in the profile and for the file.
    let skill = s.profile.skill("x-wing");
    assert_eq!((skill.tried, skill.solved), (1, 1));
    assert!(s.records.iter().any(|r| matches!(
        r,
        Record::Drill { technique, solved: true, .. } if technique == "x-wing"
    )));
    // Right (or n) goes to the next drill.
    s.press("<right>");
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("drill 2/20"), "{screen}");
}

#[test]
fn a_wrong_removal_is_named_with_why() {
    let mut s = session();
    choose_x_wing(&mut s);
    let t = s.trainer.as_ref().unwrap();
    let cell = (0..81).find(|&c| t.grid.value(c) == 0).unwrap();
    let truth = Candidate::new(cell, t.solution[cell]);
    let name = s.game.geometry().cell_name(cell);
    remove(&mut s, truth);
    s.press("<enter>");
    let expect = format!(
        "Wrong: remove {} from {name} ({} is the solution of {name})",
        truth.digit, truth.digit
    );
    assert!(said(&s).starts_with(&expect), "{}", said(&s));
    insta::assert_snapshot!("x_wing_wrong_80x24", text(&render(&s, 80, 24)));
    let skill = s.profile.skill("x-wing");
    assert_eq!((skill.tried, skill.solved), (1, 0));
    // Undo, then the right answer: correct, but the first submit decided the score.
    s.press("u");
    for &e in &instances(&s)[0].eliminations.clone() {
        remove(&mut s, e);
    }
    s.press("<enter>");
    assert!(said(&s).starts_with("Correct"), "{}", said(&s));
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("score 0/1 correct"), "{screen}");
}

#[test]
fn a_partial_answer_names_what_is_missing() {
    let mut s = session();
    choose_x_wing(&mut s);
    // A drill whose X-Wing removes two or more candidates.
    while instances(&s).iter().all(|i| i.eliminations.len() < 2) {
        s.press("n");
    }
    let step = instances(&s)
        .into_iter()
        .find(|i| i.eliminations.len() >= 2)
        .unwrap();
    remove(&mut s, step.eliminations[0]);
    s.press("<enter>");
    let g = s.game.geometry();
    let last = step.eliminations.last().unwrap();
    let missing = format!("remove {} from {}", last.digit, g.cell_name(last.cell));
    assert!(said(&s).starts_with("Partly right"), "{}", said(&s));
    assert!(said(&s).contains(&missing), "{}", said(&s));
}

#[test]
fn esc_brings_the_game_back_and_t_offers_to_resume_the_run() {
    let mut s = session();
    s.press("l5");
    let before = s.game.values().to_vec();
    choose_x_wing(&mut s);
    assert_ne!(s.game.values(), &before[..]);
    assert_eq!(
        s.saved_game().0.values(),
        &before[..],
        "the save keeps the game"
    );
    s.press("n");
    s.press("<esc>");
    assert!(s.trainer.is_none());
    assert_eq!(s.game.values(), &before[..]);
    assert!(said(&s).contains("t resumes the run"), "{}", said(&s));
    s.press("t");
    let first = s.train_menu.list.items[0].clone();
    assert!(
        first.starts_with("resume run: X-Wing (standard), 1 done"),
        "{first}"
    );
    s.press("<enter>");
    let screen = text(&render(&s, 80, 24));
    assert!(screen.contains("Train: X-Wing  drill 2/20"), "{screen}");
}

#[test]
fn the_picker_suggests_weak_techniques_and_says_what_it_leaves_out() {
    let mut s = session();
    for _ in 0..3 {
        s.profile.record_drill("naked-single", true, 1000);
    }
    s.profile.record_drill("x-wing", false, 1000);
    s.press("t");
    let items = &s.train_menu.list.items;
    assert!(items[0].starts_with("* "), "{items:#?}");
    assert!(items[0].contains("X-Wing"), "{items:#?}");
    assert!(!items
        .iter()
        .any(|i| i.starts_with("* ") && i.contains("Naked Single")));
    // Suggested, plain and drill-less lines keep their columns in line.
    let column = |i: &str| i.find("drill").or_else(|| i.find("no drills"));
    let first = column(&items[0]);
    for i in items.iter() {
        assert_eq!(
            i.chars().nth(2).map(|c| c.is_alphanumeric()),
            Some(true),
            "{i}"
        );
        assert_eq!(column(i), first, "{items:#?}");
    }
    let screen = text(&render(&s, 80, 24));
    assert!(
        screen.contains("Train on standard: technique (* suggested)"),
        "{screen}"
    );
    // The list is longer than the box: where the selection is, and that it scrolls.
    let at = format!(" 1/{} ", s.train_menu.list.items.len());
    assert!(
        screen
            .lines()
            .any(|l| l.starts_with('└') && l.contains(&at)),
        "{screen}"
    );
    insta::assert_snapshot!("train_picker_80x24", screen);
    // Techniques without drills on the variant come last, named, and say so when chosen.
    let (_, footer) = s.train_menu_text();
    assert!(footer.contains("no drills on standard"), "{footer}");
    let last = s.train_menu.list.items.last().unwrap().clone();
    assert!(
        last.starts_with("- ") && last.contains(" no drills "),
        "{last}"
    );
    // On a narrow screen a row is cut in its family column, after the drill count.
    let narrow = text(&render(&s, 60, 20));
    assert!(narrow.contains("20 drills, 0/1 solved"), "{narrow}");
    s.press("<end><enter>");
    assert!(s.trainer.is_none());
    assert!(said(&s).contains("The drill bank has no"), "{}", said(&s));
}

#[test]
fn a_game_hint_past_the_nudge_counts_for_its_technique_in_the_profile() {
    let mut s = session();
    s.press("H");
    let id = s.hint.as_ref().expect("a hint").hint.id.clone();
    assert_eq!(
        s.profile.skill(&id).hints,
        0,
        "a nudge alone does not count"
    );
    s.press("H");
    assert_eq!(s.profile.skill(&id).hints, 1);
    assert!(s
        .records
        .iter()
        .any(|r| matches!(r, Record::HintNeeded(t) if *t == id)));
}

#[test]
fn train_names_bad_techniques_and_variants_before_the_screen() {
    use assert_cmd::Command;
    use predicates::str::contains;
    let run = |args: &[&str]| {
        let mut c = Command::cargo_bin("termdoku").unwrap();
        c.env("TERMDOKU_STATE_DIR", "/nonexistent/state").args(args);
        c.assert()
    };
    run(&["train", "no-such-wing"])
        .code(2)
        .stderr(contains("x-wing"));
    run(&["train", "x-wing", "--variant", "honeycomb"])
        .code(2)
        .stderr(contains("X-Wing (x-wing) does not occur in honeycomb"));
    // A good name gets as far as the terminal check.
    run(&["train", "X-Wing"])
        .code(2)
        .stderr(contains("needs a terminal"));
}

#[test]
fn the_new_game_menu_has_a_train_entry() {
    let mut s = session();
    s.press("n");
    let items = s.menus.new_game.list.items.clone();
    let at = items.iter().position(|i| i == "train a technique").unwrap();
    s.press(&("j".repeat(at) + "<enter>"));
    assert_eq!(s.screen, Screen::Train);
}
