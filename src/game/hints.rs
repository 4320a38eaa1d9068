//! The player's view of a logical step: what to highlight and the three rungs of text.
//!
//! A thin adapter over `crate::solver::logic::{next_step, Step}`, plus the "wrong entry"
//! hint the player shows instead of a step when the board differs from the solution.

use crate::geometry::{Cell, Geometry, HouseKind};
use crate::puzzle::Grid;
use crate::solver::logic::{self, Candidate, Detail, Highlight, Role, Step, Target};

/// A hint: the step's changes, highlights and text per rung of the ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Technique id (`hidden-single`, `guess`, `wrong-entry`, ...).
    pub id: String,
    pub name: String,
    pub placements: Vec<Candidate>,
    pub eliminations: Vec<Candidate>,
    /// Entered digits to clear (a wrong entry).
    pub clears: Vec<Cell>,
    pub highlights: Vec<Highlight>,
    pub nudge: String,
    pub technique: String,
    pub full: String,
}

impl Hint {
    pub fn text(&self, detail: Detail) -> &str {
        match detail {
            Detail::Nudge => &self.nudge,
            Detail::Technique => &self.technique,
            Detail::Full => &self.full,
        }
    }

    /// The player's view of a logic step.
    pub fn from_step(step: &Step, g: &Geometry) -> Hint {
        Hint {
            id: step.id().to_string(),
            name: step.name().to_string(),
            placements: step.placements.clone(),
            eliminations: step.eliminations.clone(),
            clears: Vec::new(),
            highlights: step.highlights.clone(),
            nudge: step.explain(g, Detail::Nudge),
            technique: step.explain(g, Detail::Technique),
            full: step.explain(g, Detail::Full),
        }
    }
}

/// The next step on this grid, with a fresh memory: it depends on the grid alone.
/// `solution` lets it fall back to a step taken from the solution when no technique
/// applies (id `guess`).
pub fn next_hint(grid: &Grid, solution: Option<&[u8]>) -> Option<Hint> {
    HintWorker::default().next_hint(grid, solution)
}

/// A hint thread's state: the solver memory it carries from hint to hint of one game, so
/// that the later hints of a hard puzzle reuse what the earlier ones proved. Its hints are
/// always sound, but may differ from a fresh [`next_hint`] where remembered forcing-net
/// breakers give another step (see [`logic::SolverMemory`]).
#[derive(Default)]
pub struct HintWorker {
    memory: logic::SolverMemory,
}

impl HintWorker {
    /// Sets the time after which forcing searches give up (see
    /// [`logic::SolverMemory::set_deadline`]).
    pub fn set_deadline(&mut self, at: Option<std::time::Instant>) {
        self.memory.set_deadline(at);
    }

    /// Sets a flag after whose setting forcing searches give up (see
    /// [`logic::SolverMemory::set_stop`]).
    pub fn set_stop(&mut self, stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.memory.set_stop(stop);
    }

    /// The next step on this grid (see [`next_hint`]).
    pub fn next_hint(&mut self, grid: &Grid, solution: Option<&[u8]>) -> Option<Hint> {
        logic::next_step(grid, solution, &mut self.memory)
            .map(|s| Hint::from_step(&s, grid.geometry()))
    }
}

impl HintWorker {
    /// The logical solution path from this grid to the end (see [`next_hint`]); calls
    /// `progress` with the number of steps found after each one.
    pub fn path(
        &mut self,
        grid: &Grid,
        solution: Option<&[u8]>,
        progress: &mut dyn FnMut(usize),
    ) -> Vec<Hint> {
        let mut grid = grid.clone();
        let mut steps = Vec::new();
        // Every step places or eliminates a candidate: a bound that is never reached.
        let limit = grid.geometry().cell_count() * usize::from(grid.geometry().max_digit());
        while steps.len() < limit {
            let Some(step) = logic::next_step(&grid, solution, &mut self.memory) else {
                break;
            };
            logic::apply(&mut grid, &step);
            steps.push(Hint::from_step(&step, grid.geometry()));
            progress(steps.len());
        }
        steps
    }
}

/// The hint shown instead of a step when an entry differs from the solution.
pub fn wrong_entry(g: &Geometry, cell: Cell, digit: u8) -> Hint {
    let house = looking_house(g, cell);
    let name = g.cell_name(cell);
    Hint {
        id: "wrong-entry".into(),
        name: "Wrong entry".into(),
        placements: Vec::new(),
        eliminations: Vec::new(),
        clears: vec![cell],
        highlights: vec![Highlight {
            target: Target::Cell(cell),
            role: Role::Elimination,
        }],
        nudge: format!("Something on the board is wrong: look at {house}."),
        technique: format!("{name} holds a digit that is not in the solution."),
        full: format!("{name} should not be {digit}. Press again to clear it."),
    }
}

/// The house named by a nudge about a cell: its box or region when it has one, else its row.
fn looking_house(g: &Geometry, cell: Cell) -> String {
    let houses = g.houses_of(cell);
    houses
        .iter()
        .map(|&h| g.house(h))
        .find(|h| matches!(h.kind, HouseKind::Box(_) | HouseKind::Region(_)))
        .or_else(|| houses.first().map(|&h| g.house(h)))
        .map_or_else(|| g.cell_name(cell), |h| h.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::builtin;
    use crate::puzzle::Variant;
    use crate::solver::exact;

    #[test]
    fn hints_agree_with_the_solution_on_every_variant() {
        for v in Variant::ALL {
            let p = builtin::puzzle(v);
            let sol = exact::solve(&p, 2).first.unwrap();
            let mut grid = Grid::from_puzzle(&p);
            let mut steps = 0;
            while let Some(h) = next_hint(&grid, Some(&sol)) {
                for pl in &h.placements {
                    assert_eq!(sol[pl.cell], pl.digit, "{v}: {}", h.full);
                    grid.place(pl.cell, pl.digit);
                }
                for e in &h.eliminations {
                    assert_ne!(sol[e.cell], e.digit, "{v}: {}", h.full);
                    grid.eliminate(e.cell, e.digit);
                }
                steps += 1;
                assert!(steps <= 1000);
            }
            assert!(grid.is_solved(), "{v}");
        }
    }
}
