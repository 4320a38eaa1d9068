//! `termdoku train x-wing` in a real terminal (tmux): the drill names X-Wing, keys apply
//! it, enter grades it correct, and the skill profile is written beside the stats.

mod common;

use common::tmux::{dirs, have_tmux, local, Tmux};
use termdoku::coach::bank;
use termdoku::puzzle::Variant;
use termdoku::solver::logic::find_all;

#[test]
fn train_x_wing_opens_a_drill_and_keys_complete_it() {
    if !have_tmux() {
        println!("NOTICE: tmux is not installed; skipping the real-terminal test");
        return;
    }
    let (_tmp, state, config) = dirs();
    // The run starts at the bank's first X-Wing drill.
    let drill = bank::drills("x-wing", Variant::Standard)[0].open().unwrap();
    let step = find_all(&drill.grid, "x-wing").remove(0);
    let t = Tmux::new();
    t.start_sized(&format!("{} train x-wing", local(&state, &config)), 80, 24);
    t.wait_text("Train: X-Wing  drill 1/20");
    // The drill starts in pencil mode: a digit toggles its mark off.
    let mut keys = String::new();
    let mut at = 0usize;
    for e in &step.eliminations {
        let (r0, c0) = (at / 9, at % 9);
        let (r1, c1) = (e.cell / 9, e.cell % 9);
        keys += &if r1 >= r0 {
            "j".repeat(r1 - r0)
        } else {
            "k".repeat(r0 - r1)
        };
        keys += &if c1 >= c0 {
            "l".repeat(c1 - c0)
        } else {
            "h".repeat(c0 - c1)
        };
        keys += &e.digit.to_string();
        at = e.cell;
    }
    t.send(&[&keys]);
    t.send(&["Enter"]);
    t.wait_text("Correct: that is the X-Wing.");
    t.send(&["q"]);
    t.wait_exit();
    let profile = std::fs::read_to_string(state.join("profile.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&profile).unwrap();
    assert_eq!(json["techniques"]["x-wing"]["tried"], 1, "{profile}");
    assert_eq!(json["techniques"]["x-wing"]["solved"], 1, "{profile}");
    assert_eq!(json["run"]["technique"], "x-wing", "{profile}");
}
