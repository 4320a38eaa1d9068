//! The "why?" key: explains one cell of a game from the player's own marks. Why a digit is
//! missing from its pencil marks (the step that removes it, a contradiction, or "you
//! removed it by hand, and that was wrong"), why a digit cannot go there (the placed digit
//! it clashes with), or what the cell must be and why.
//!
//! [`quick`] answers what needs no search; [`search`] is slow and runs on the player's
//! worker. Both give a [`Why`]: a hint-shaped answer for the hint panel, and whether it
//! reveals a placement (then it counts as a hint, see `game::assist`).

use crate::game::hints::Hint;
use crate::game::Game;
use crate::geometry::{digit_char, Cell, Digits, Geometry, Rule};
use crate::puzzle::Grid;
use crate::solver::logic::step::house_name;
use crate::solver::logic::{
    self, techniques, Candidate, Detail, Family, Highlight, Role, Step, Target, TechniqueInfo,
};
use crate::solver::rate::Level;
use std::time::{Duration, Instant};

/// What the player asks about the selected cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Why this digit is not (or cannot be) there.
    Digit(u8),
    /// What the cell must be, and why.
    Cell,
}

/// An answer, shaped as a hint for the hint panel (its id is `why`, or `why-` and the id of
/// the technique it shows), and whether it reveals a digit of the solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub hint: Hint,
    pub reveals: bool,
}

/// The id prefix of a "why?" answer's hint.
pub const ID: &str = "why";

/// The technique a "why?" hint shows, if any (`why-x-wing` gives `x-wing`).
pub fn technique_of(hint_id: &str) -> Option<&str> {
    hint_id.strip_prefix("why-")
}

/// How long [`search`] may look for a step before it gives up (on the worker thread).
pub const BUDGET: Duration = Duration::from_secs(5);

/// The position "why?" reasons from: the entries, and each empty cell's marks (every
/// candidate its peers leave when it has none). The solution's digit stays a candidate
/// wherever it was erased, so one wrong erasure cannot lead to a false proof elsewhere.
pub fn position(game: &Game) -> Grid {
    let g = game.puzzle().geometry_arc();
    let given: Vec<bool> = game.puzzle().givens.iter().map(|&d| d != 0).collect();
    let mut grid = Grid::from_values(g, game.values()).with_givens(&given);
    let solution = game.solution();
    for c in game.geometry().cells() {
        if grid.value(c) != 0 {
            continue;
        }
        let marks = game.marks(c);
        if marks.is_empty() {
            continue;
        }
        let mut keep = marks;
        if let Some(&d) = solution.and_then(|s| s.get(c)) {
            if d != 0 {
                keep.insert(d);
            }
        }
        grid.set_candidates(c, grid.candidates(c).intersect(keep));
    }
    grid
}

fn answer(id: String, text: String, highlights: Vec<Highlight>, reveals: bool) -> Why {
    Why {
        hint: Hint {
            id,
            name: "Why?".into(),
            placements: Vec::new(),
            eliminations: Vec::new(),
            clears: Vec::new(),
            highlights,
            nudge: text.clone(),
            technique: text.clone(),
            full: text,
        },
        reveals,
    }
}

fn mark(target: Target, role: Role) -> Highlight {
    Highlight { target, role }
}

/// The answers that need no search: a filled cell, a digit a peer already holds, a digit
/// still pencilled in, and a true digit erased by hand. `None`: ask [`search`].
pub fn quick(game: &Game, cell: Cell, ask: Ask) -> Option<Why> {
    let g = game.geometry();
    let name = g.cell_name(cell);
    let value = game.value(cell);
    if value != 0 {
        let text = if game.is_given(cell) {
            format!("{name} is a given ({}).", digit_char(value))
        } else {
            format!(
                "{name} holds your entry {}; why? explains empty cells.",
                digit_char(value)
            )
        };
        return Some(answer(ID.into(), text, Vec::new(), false));
    }
    let Ask::Digit(d) = ask else {
        return None;
    };
    let dc = digit_char(d);
    if let Some((peer, house)) = clash(g, game.values(), cell, d) {
        let text = format!(
            "{dc} cannot go in {name}: {}, in {}, already holds {dc}.",
            g.cell_name(peer),
            house_name(g, house)
        );
        let lights = vec![
            mark(Target::House(house), Role::Cover),
            mark(Target::Cell(peer), Role::Defining),
            mark(Target::Cell(cell), Role::Elimination),
        ];
        return Some(answer(ID.into(), text, lights, false));
    }
    let marks = game.marks(cell);
    if marks.is_empty() || marks.contains(d) {
        let text = format!(
            "{dc} is still a candidate of {name}: nothing removed it. Ask about a digit \
             missing from its marks."
        );
        return Some(answer(ID.into(), text, Vec::new(), false));
    }
    if game.solution().and_then(|s| s.get(cell)) == Some(&d) {
        let text = format!(
            "You removed {dc} from {name} by hand, and that was wrong: it is the solution."
        );
        let lights = vec![mark(
            Target::Candidate(Candidate::new(cell, d)),
            Role::Placement,
        )];
        return Some(answer(ID.into(), text, lights, true));
    }
    None
}

/// A placed peer holding `d`, and a house the two cells share.
fn clash(g: &Geometry, values: &[u8], cell: Cell, d: u8) -> Option<(Cell, usize)> {
    let peer = g
        .peers(cell)
        .iter()
        .copied()
        .find(|&p| values.get(p) == Some(&d))?;
    let house = g
        .houses_of(cell)
        .iter()
        .copied()
        .find(|&h| g.house(h).cells.contains(&peer))?;
    Some((peer, house))
}

/// The slow answers, from the position `grid` (see [`position`]): the simplest step at or
/// below `level` that removes the digit from the cell (one that eliminates it before one
/// whose placement crowds it out), else a contradiction
/// the singles reach from placing it, else "no explanation found"; for [`Ask::Cell`], a
/// step at or below `level` that places the cell. Gives up on new searches after `budget`.
pub fn search(
    grid: &Grid,
    solution: &[u8],
    cell: Cell,
    ask: Ask,
    level: Level,
    budget: Duration,
) -> Why {
    let deadline = Instant::now() + budget;
    let g = grid.geometry();
    let name = g.cell_name(cell);
    let table = || {
        techniques()
            .iter()
            .filter(|t| t.enabled && t.family != Family::LastResort)
    };
    let easy: Vec<&'static TechniqueInfo> = table().filter(|t| t.level <= level).collect();
    let hard: Vec<&'static TechniqueInfo> = table().filter(|t| t.level > level).collect();
    let d = match ask {
        Ask::Cell => {
            let found = first(grid, solution, &easy, deadline, &mut |s| {
                s.placements.iter().any(|p| p.cell == cell)
            });
            return match found {
                Some(step) => {
                    let digit = step
                        .placements
                        .iter()
                        .find(|p| p.cell == cell)
                        .map_or(0, |p| p.digit);
                    let text = format!(
                        "{name} must be {}: {}",
                        digit_char(digit),
                        step.explain(g, Detail::Full)
                    );
                    answer(
                        format!("{ID}-{}", step.id()),
                        text,
                        step.highlights.clone(),
                        true,
                    )
                }
                None => answer(
                    ID.into(),
                    format!(
                        "No single step at or below this puzzle's level ({level}) shows what \
                         {name} must be yet. Press w and a digit to ask why it is missing."
                    ),
                    Vec::new(),
                    false,
                ),
            };
        }
        Ask::Digit(d) => d,
    };
    let dc = digit_char(d);
    let target = Candidate::new(cell, d);
    let mut grid = grid.clone();
    grid.set_candidates(cell, grid.candidates(cell).union(Digits::single(d)));
    let mut removes = |s: &Step| {
        s.eliminations.contains(&target)
            || s.placements
                .iter()
                .any(|p| (p.cell == cell && p.digit != d) || (p.digit == d && g.sees(p.cell, cell)))
    };
    // A step that removes the candidate itself first: a placement that crowds it out gives
    // a digit away, so it is the second choice at the puzzle's level.
    let step = first(&grid, solution, &easy, deadline, &mut |s: &Step| {
        s.eliminations.contains(&target)
    })
    .or_else(|| first(&grid, solution, &easy, deadline, &mut removes));
    let (step, harder) = match step {
        Some(s) => (Some(s), false),
        None => match singles_contradiction(&grid, cell, d, deadline) {
            Some(why) => return why,
            None => (first(&grid, solution, &hard, deadline, &mut removes), true),
        },
    };
    match step {
        Some(step) => {
            let mut text = format!(
                "{dc} is not possible in {name}: {}",
                step.explain(g, Detail::Full)
            );
            if harder {
                text.push_str(&format!(
                    " (no step at or below this puzzle's level, {level}, removes it here)"
                ));
            }
            let mut lights = step.highlights.clone();
            lights.push(mark(Target::Candidate(target), Role::Elimination));
            let reveals = !step.placements.is_empty();
            answer(format!("{ID}-{}", step.id()), text, lights, reveals)
        }
        None if Instant::now() >= deadline => answer(
            ID.into(),
            format!("No explanation found in time for {dc} missing from {name}."),
            Vec::new(),
            false,
        ),
        None => answer(
            ID.into(),
            format!("No explanation found for {dc} missing from {name}."),
            Vec::new(),
            false,
        ),
    }
}

/// The first step of the first technique in `table` (in order) that `wanted` accepts.
fn first(
    grid: &Grid,
    solution: &[u8],
    table: &[&'static TechniqueInfo],
    deadline: Instant,
    wanted: &mut dyn FnMut(&Step) -> bool,
) -> Option<Step> {
    for &info in table {
        if Instant::now() >= deadline {
            return None;
        }
        if let Some(s) = logic::find_first(grid, info, Some(solution), wanted) {
            return Some(s);
        }
    }
    None
}

/// Most singles followed from one assumption (a 9x9 grid has 81 cells).
const CHAIN_LIMIT: usize = 256;

/// Places `d` in `cell` and follows singles: when a cell is left without a candidate or a
/// house without a place for a digit it needs, the assumption was false. The chain of
/// singles is the explanation (a forcing chain, in the words of a person).
fn singles_contradiction(grid: &Grid, cell: Cell, d: u8, deadline: Instant) -> Option<Why> {
    let singles: Vec<&'static TechniqueInfo> = techniques()
        .iter()
        .filter(|t| t.family == Family::Singles)
        .collect();
    let g = grid.geometry();
    let mut grid = grid.clone();
    grid.place(cell, d);
    let mut chain: Vec<Candidate> = Vec::new();
    while chain.len() < CHAIN_LIMIT && Instant::now() < deadline {
        if let Some(end) = dead_end(&grid) {
            let mut lights: Vec<Highlight> = chain
                .iter()
                .map(|&c| mark(Target::Candidate(c), Role::Defining))
                .collect();
            lights.push(mark(
                Target::Candidate(Candidate::new(cell, d)),
                Role::Elimination,
            ));
            lights.push(end.1);
            let steps: Vec<String> = chain
                .iter()
                .map(|c| format!("{}={}", g.cell_name(c.cell), digit_char(c.digit)))
                .collect();
            let then = if steps.is_empty() {
                String::new()
            } else {
                format!(" then {},", steps.join(", "))
            };
            let text = format!(
                "{} in {} leads to a contradiction (a forcing chain of singles):{then} and {}. \
                 So {} is not possible there.",
                digit_char(d),
                g.cell_name(cell),
                end.0,
                digit_char(d)
            );
            return Some(answer(format!("{ID}-forcing-chain"), text, lights, false));
        }
        let mut none = |_: &Step| true;
        let step = singles
            .iter()
            .find_map(|&info| logic::find_first(&grid, info, None, &mut none))?;
        for p in &step.placements {
            chain.push(*p);
        }
        logic::apply(&mut grid, &step);
    }
    None
}

/// Where a grid has gone wrong: an empty cell without candidates, or a complete house with
/// no place left for a digit it still needs. The words and the highlight.
fn dead_end(grid: &Grid) -> Option<(String, Highlight)> {
    let g = grid.geometry();
    if let Some(c) = g
        .cells()
        .find(|&c| grid.value(c) == 0 && grid.candidates(c).is_empty())
    {
        return Some((
            format!("{} has no candidate left", g.cell_name(c)),
            mark(Target::Cell(c), Role::Elimination),
        ));
    }
    for (h, house) in g.houses().iter().enumerate() {
        if house.rule != Rule::Complete {
            continue;
        }
        let mut seen = Digits::EMPTY;
        for &c in &house.cells {
            seen = seen.union(grid.candidates(c));
        }
        if let Some(missing) = g.all_digits().without(seen).iter().next() {
            return Some((
                format!(
                    "{} has no place left for {}",
                    house_name(g, h),
                    digit_char(missing)
                ),
                mark(Target::House(h), Role::Elimination),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::pages;

    /// A bank position as a game, with its step, and that step's first elimination erased
    /// by hand (as a player who applied it would have).
    fn erased(id: &str) -> (Game, Step, Candidate) {
        let ex = pages::example(id).expect("the bank has it");
        let step = ex.step.clone();
        let mut game = ex.position.into_game();
        let e = step.eliminations[0];
        game.toggle_mark(e.cell, e.digit, e.cell)
            .expect("a mark to erase");
        (game, step, e)
    }

    fn ask(game: &Game, cell: Cell, ask: Ask, level: Level) -> Why {
        let sol = game.solution().expect("unique").to_vec();
        quick(game, cell, ask)
            .unwrap_or_else(|| search(&position(game), &sol, cell, ask, level, BUDGET))
    }

    #[test]
    fn a_candidate_an_x_wing_removed_is_explained_by_the_x_wing() {
        let (game, _, e) = erased("x-wing");
        let w = ask(&game, e.cell, Ask::Digit(e.digit), Level::Hard);
        assert_eq!(w.hint.id, "why-x-wing");
        let name = game.geometry().cell_name(e.cell);
        assert!(
            w.hint
                .full
                .starts_with(&format!("{} is not possible in {name}: X-Wing on", e.digit)),
            "{}",
            w.hint.full
        );
        assert!(w.hint.highlights.iter().any(|h| h.role == Role::Base));
        assert!(!w.reveals);
    }

    #[test]
    fn below_the_puzzle_level_a_harder_step_says_so_or_a_contradiction_shows() {
        let (game, _, e) = erased("x-wing");
        let w = ask(&game, e.cell, Ask::Digit(e.digit), Level::Easy);
        let t = &w.hint.full;
        assert!(
            (w.hint.id == "why-forcing-chain" && t.contains("leads to a contradiction"))
                || t.ends_with("(no step at or below this puzzle's level, easy, removes it here)"),
            "{t}"
        );
    }

    #[test]
    fn a_true_candidate_erased_by_hand_is_called_wrong() {
        let ex = pages::example("naked-pair").expect("the bank has it");
        let mut game = ex.position.into_game();
        let sol = game.solution().expect("unique").to_vec();
        let cell = game
            .geometry()
            .cells()
            .find(|&c| game.value(c) == 0)
            .expect("empty");
        game.toggle_mark(cell, sol[cell], cell).expect("erased");
        let w = ask(&game, cell, Ask::Digit(sol[cell]), Level::Hard);
        assert!(w
            .hint
            .full
            .ends_with("by hand, and that was wrong: it is the solution."));
        assert!(w.reveals, "it gives the digit away");
    }

    #[test]
    fn a_digit_a_peer_holds_names_the_peer_and_the_house() {
        let ex = pages::example("hidden-single").expect("the bank has it");
        let game = ex.position.into_game();
        let g = game.geometry();
        let cell = g.cells().find(|&c| game.value(c) == 0).expect("empty");
        let peer = g
            .peers(cell)
            .iter()
            .copied()
            .find(|&p| game.value(p) != 0)
            .expect("a peer");
        let d = game.value(peer);
        let w = ask(&game, cell, Ask::Digit(d), Level::Hard);
        assert!(
            w.hint.full.starts_with(&format!(
                "{d} cannot go in {}: {}, in ",
                g.cell_name(cell),
                g.cell_name(peer)
            )),
            "{}",
            w.hint.full
        );
        assert!(!w.reveals);
    }

    #[test]
    fn what_a_cell_must_be_comes_from_a_step_and_reveals_it() {
        let ex = pages::example("naked-single").expect("the bank has it");
        let p = ex.step.placements[0];
        let game = ex.position.into_game();
        let w = ask(&game, p.cell, Ask::Cell, Level::Easy);
        let name = game.geometry().cell_name(p.cell);
        assert!(
            w.hint
                .full
                .starts_with(&format!("{name} must be {}: ", p.digit)),
            "{}",
            w.hint.full
        );
        assert!(w.reveals);
        // A still-pencilled digit has nothing to explain.
        let other = game.marks(p.cell).iter().next().expect("a mark");
        let w = ask(&game, p.cell, Ask::Digit(other), Level::Easy);
        assert!(
            w.hint.full.contains("is still a candidate"),
            "{}",
            w.hint.full
        );
    }

    #[test]
    fn a_false_digit_placed_by_assumption_runs_into_a_contradiction() {
        // After a hidden single, the cell's other candidates: each either goes by a single
        // step or leads to a contradiction through singles; never "not found".
        let ex = pages::example("hidden-single").expect("the bank has it");
        let p = ex.step.placements[0];
        let mut game = ex.position.into_game();
        let others: Vec<u8> = game
            .marks(p.cell)
            .iter()
            .filter(|&d| d != p.digit)
            .collect();
        for d in others {
            game.toggle_mark(p.cell, d, p.cell).expect("erased");
            let w = ask(&game, p.cell, Ask::Digit(d), Level::Easy);
            assert!(w.hint.id.starts_with("why-"), "{}", w.hint.full);
        }
    }
}
