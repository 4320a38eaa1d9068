//! The player's view of a logical step: what to highlight and the three rungs of text.
//!
//! This is a thin adapter over `crate::solver::logic::{next_step, Step}`. Until the logic
//! solver is merged, [`next_hint`] uses a LOCAL FALLBACK (naked and hidden singles, then a
//! step taken from the solution); switch it with the snippet in [`next_hint`]'s body.

use crate::geometry::{Cell, Geometry, HouseKind, Rule};
use crate::puzzle::Grid;
use crate::solver::logic::{Candidate, Detail, Highlight, Role, Target};

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

    // Once `crate::solver::logic::Step` exists, this converts it:
    //
    // pub fn from_step(step: &crate::solver::logic::Step, g: &Geometry) -> Hint {
    //     Hint {
    //         id: step.id().to_string(),
    //         name: step.name().to_string(),
    //         placements: step.placements.clone(),
    //         eliminations: step.eliminations.clone(),
    //         clears: Vec::new(),
    //         highlights: step.highlights.clone(),
    //         nudge: step.explain(g, Detail::Nudge),
    //         technique: step.explain(g, Detail::Technique),
    //         full: step.explain(g, Detail::Full),
    //     }
    // }
}

/// The next step on this grid. `solution` lets it fall back to a step taken from the
/// solution when no technique applies (id `guess`).
pub fn next_hint(grid: &Grid, solution: Option<&[u8]>) -> Option<Hint> {
    // When the logic solver is merged, replace this body with:
    //     crate::solver::logic::next_step(grid, solution)
    //         .map(|s| Hint::from_step(&s, grid.geometry()))
    fallback::next_hint(grid, solution)
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

/// LOCAL FALLBACK until `crate::solver::logic::next_step` is merged: naked singles, hidden
/// singles in complete houses, then one digit from the solution.
mod fallback {
    use super::*;

    pub fn next_hint(grid: &Grid, solution: Option<&[u8]>) -> Option<Hint> {
        let g = grid.geometry();
        let empty: Vec<Cell> = g.cells().filter(|&c| grid.value(c) == 0).collect();
        if empty.is_empty() {
            return None;
        }
        for &c in &empty {
            if let Some(d) = grid.candidates(c).single_digit() {
                if solution.is_none_or(|s| s.get(c) == Some(&d)) {
                    return Some(naked_single(g, c, d));
                }
            }
        }
        for (h, house) in g.houses().iter().enumerate() {
            if house.rule != Rule::Complete {
                continue;
            }
            for d in g.all_digits().iter() {
                if house.cells.iter().any(|&c| grid.value(c) == d) {
                    continue;
                }
                let mut spots = house
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| grid.value(c) == 0 && grid.candidates(c).contains(d));
                if let (Some(c), None) = (spots.next(), spots.next()) {
                    if solution.is_none_or(|s| s.get(c) == Some(&d)) {
                        return Some(hidden_single(g, h, c, d));
                    }
                }
            }
        }
        let sol = solution?;
        let &c = empty.iter().min_by_key(|&&c| grid.candidates(c).len())?;
        let d = *sol.get(c)?;
        let name = g.cell_name(c);
        Some(Hint {
            id: "guess".into(),
            name: "Guess".into(),
            placements: vec![Candidate::new(c, d)],
            eliminations: Vec::new(),
            clears: Vec::new(),
            highlights: vec![Highlight {
                target: Target::Candidate(Candidate::new(c, d)),
                role: Role::Placement,
            }],
            nudge: format!("No simple step found; look at {name}."),
            technique: format!("No simple technique applies: take {name} from the solution."),
            full: format!("The solution has {d} in {name}."),
        })
    }

    fn naked_single(g: &Geometry, c: Cell, d: u8) -> Hint {
        let name = g.cell_name(c);
        Hint {
            id: "naked-single".into(),
            name: "Naked Single".into(),
            placements: vec![Candidate::new(c, d)],
            eliminations: Vec::new(),
            clears: Vec::new(),
            highlights: vec![
                Highlight {
                    target: Target::Cell(c),
                    role: Role::Defining,
                },
                Highlight {
                    target: Target::Candidate(Candidate::new(c, d)),
                    role: Role::Placement,
                },
            ],
            nudge: format!("Look at {}.", looking_house(g, c)),
            technique: format!(
                "Naked single: a cell in {} has only one candidate left.",
                looking_house(g, c)
            ),
            full: format!(
                "Naked single: {name} can only be {d}; every other digit is already in one of its houses."
            ),
        }
    }

    fn hidden_single(g: &Geometry, h: usize, c: Cell, d: u8) -> Hint {
        let house = g.house(h).name();
        let name = g.cell_name(c);
        Hint {
            id: "hidden-single".into(),
            name: "Hidden Single".into(),
            placements: vec![Candidate::new(c, d)],
            eliminations: Vec::new(),
            clears: Vec::new(),
            highlights: vec![
                Highlight {
                    target: Target::House(h),
                    role: Role::Defining,
                },
                Highlight {
                    target: Target::Candidate(Candidate::new(c, d)),
                    role: Role::Placement,
                },
            ],
            nudge: format!("Look at {house}."),
            technique: format!("Hidden single: one digit has only one place left in {house}."),
            full: format!("Hidden single: in {house}, {d} fits only in {name}."),
        }
    }
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
                steps += 1;
                assert!(steps <= 81);
            }
            assert!(grid.is_solved(), "{v}");
        }
    }
}
