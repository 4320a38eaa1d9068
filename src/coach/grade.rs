//! Grading a trainer answer: what the user changed in a drill's position, held against
//! every instance of the technique there (`find_all`).
//!
//! **Correct** is exactly one instance's removals or placements; **partial** a non-empty
//! proper part of one (the closest instance says what is missing); anything else is
//! **wrong**, and each move outside the closest instance is named with why: the candidate
//! is the cell's solution digit, or merely not one this technique removes here.

use crate::geometry::{digit_char, Digits, Geometry};
use crate::puzzle::Grid;
use crate::solver::logic::{find_all, Candidate, Step};
use std::collections::BTreeSet;

/// One change the user made to the drill's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    Remove(Candidate),
    Place(Candidate),
}

impl Move {
    /// `remove 5 from r3c4`, `place 7 in r2c2`.
    pub fn text(&self, g: &Geometry) -> String {
        match self {
            Move::Remove(c) => format!(
                "remove {} from {}",
                digit_char(c.digit),
                g.cell_name(c.cell)
            ),
            Move::Place(c) => format!("place {} in {}", digit_char(c.digit), g.cell_name(c.cell)),
        }
    }
}

/// What the user did, relative to the drill's position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub moves: BTreeSet<Move>,
}

impl Answer {
    /// The moves from the drill's `grid` to the board now (`values`, `marks`). A digit
    /// placed is one move; its removal from the marks of the cells it sees (the player's
    /// auto-removal) is part of it, not moves of their own. Marks added back are ignored.
    pub fn between(grid: &Grid, values: &[u8], marks: &[Digits]) -> Answer {
        let g = grid.geometry();
        let mut moves = BTreeSet::new();
        let mut placed = Vec::new();
        for c in g.cells() {
            let now = values.get(c).copied().unwrap_or(0);
            if grid.value(c) == 0 && now != 0 {
                placed.push(Candidate::new(c, now));
                moves.insert(Move::Place(Candidate::new(c, now)));
            }
        }
        for c in g.cells() {
            if grid.value(c) != 0 || values.get(c).copied().unwrap_or(0) != 0 {
                continue;
            }
            let kept = marks.get(c).copied().unwrap_or(Digits::EMPTY);
            for d in grid.candidates(c).without(kept).iter() {
                let follows = placed.iter().any(|p| p.digit == d && g.sees(p.cell, c));
                if !follows {
                    moves.insert(Move::Remove(Candidate::new(c, d)));
                }
            }
        }
        Answer { moves }
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Correct,
    Partial,
    Wrong,
}

/// Why a move is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Removes the cell's solution digit, or places a digit that is not it.
    AgainstSolution,
    /// A move another instance of the technique makes (one instance per answer).
    OtherInstance,
    /// Sound perhaps, but not what this technique does here.
    NotThisTechnique,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongMove {
    pub mv: Move,
    pub why: Why,
}

/// A graded answer.
#[derive(Clone, Debug)]
pub struct Grade {
    pub verdict: Verdict,
    /// The instance matched (correct), else the closest one; `None` when the technique has
    /// no instance in the position.
    pub instance: Option<Step>,
    /// Moves of the closest instance the answer lacks.
    pub missing: Vec<Move>,
    /// Moves of the answer outside the closest instance.
    pub wrong: Vec<WrongMove>,
}

/// The moves of one instance.
fn moves_of(step: &Step) -> BTreeSet<Move> {
    let removals = step.eliminations.iter().map(|&c| Move::Remove(c));
    let places = step.placements.iter().map(|&c| Move::Place(c));
    removals.chain(places).collect()
}

/// Grades `answer` for `technique` (an id) in the position `grid`, whose solution is
/// `solution`.
pub fn grade(grid: &Grid, technique: &str, answer: &Answer, solution: &[u8]) -> Grade {
    let instances = find_all(grid, technique);
    // The closest instance: most moves in common, then fewest missing.
    let best = instances
        .iter()
        .map(|s| {
            let want = moves_of(s);
            let common = answer.moves.intersection(&want).count();
            (s, want, common)
        })
        .max_by_key(|(_, want, common)| (*common, std::cmp::Reverse(want.len())));
    let Some((step, want, _)) = best else {
        return Grade {
            verdict: Verdict::Wrong,
            instance: None,
            missing: Vec::new(),
            wrong: wrong_moves(answer.moves.iter(), &[], solution),
        };
    };
    let others: Vec<BTreeSet<Move>> = instances.iter().map(moves_of).collect();
    let missing: Vec<Move> = want.difference(&answer.moves).copied().collect();
    let extra = answer.moves.difference(&want);
    let wrong = wrong_moves(extra, &others, solution);
    let verdict = if !wrong.is_empty() || answer.is_empty() {
        Verdict::Wrong
    } else if missing.is_empty() {
        Verdict::Correct
    } else {
        Verdict::Partial
    };
    Grade {
        verdict,
        instance: Some(step.clone()),
        missing,
        wrong,
    }
}

fn wrong_moves<'a>(
    moves: impl Iterator<Item = &'a Move>,
    instances: &[BTreeSet<Move>],
    solution: &[u8],
) -> Vec<WrongMove> {
    moves
        .map(|&mv| {
            let against = match mv {
                Move::Remove(c) => solution.get(c.cell) == Some(&c.digit),
                Move::Place(c) => solution.get(c.cell) != Some(&c.digit),
            };
            let why = if against {
                Why::AgainstSolution
            } else if instances.iter().any(|i| i.contains(&mv)) {
                Why::OtherInstance
            } else {
                Why::NotThisTechnique
            };
            WrongMove { mv, why }
        })
        .collect()
}

/// `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Grade {
    /// The verdict in words, naming what is missing or wrong. `name` is the technique's
    /// display name.
    pub fn text(&self, g: &Geometry, name: &str) -> String {
        match self.verdict {
            Verdict::Correct => format!("Correct: that is the {name}."),
            Verdict::Partial => {
                let missing: Vec<String> = self.missing.iter().map(|m| m.text(g)).collect();
                format!(
                    "Partly right: all you did belongs to the {name}, but it also lets you {}.",
                    list(&missing)
                )
            }
            Verdict::Wrong if self.instance.is_none() => {
                format!("Wrong: no {name} applies here.")
            }
            Verdict::Wrong if self.wrong.is_empty() => {
                "Nothing to grade: remove candidates or place a digit first.".to_string()
            }
            Verdict::Wrong => {
                let named: Vec<String> = self
                    .wrong
                    .iter()
                    .map(|w| {
                        let why = match (w.why, w.mv) {
                            (Why::AgainstSolution, Move::Remove(c)) => format!(
                                "{} is the solution of {}",
                                digit_char(c.digit),
                                g.cell_name(c.cell)
                            ),
                            (Why::AgainstSolution, Move::Place(c)) => format!(
                                "{} is not the solution of {}",
                                digit_char(c.digit),
                                g.cell_name(c.cell)
                            ),
                            (Why::OtherInstance, _) => format!("it belongs to another {name}"),
                            (Why::NotThisTechnique, _) => {
                                format!("true, but not something the {name} shows here")
                            }
                        };
                        format!("{} ({why})", w.mv.text(g))
                    })
                    .collect();
                format!("Wrong: {}.", list(&named))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::bank;
    use crate::puzzle::Variant;

    /// The first bank drill of a technique, with the board as the user found it.
    fn drill(id: &str) -> (bank::Opened, Vec<u8>, Vec<Digits>) {
        let d = bank::drills(id, Variant::Standard)[0].open().unwrap();
        let values = d.grid.values().to_vec();
        let marks = (0..values.len())
            .map(|c| {
                if values[c] == 0 {
                    d.grid.candidates(c)
                } else {
                    Digits::EMPTY
                }
            })
            .collect();
        (d, values, marks)
    }

    fn remove(marks: &mut [Digits], c: Candidate) {
        marks[c.cell].remove(c.digit);
    }

    #[test]
    fn removing_an_x_wings_candidates_is_correct() {
        let (d, values, mut marks) = drill("x-wing");
        let step = find_all(&d.grid, "x-wing").remove(0);
        for &e in &step.eliminations {
            remove(&mut marks, e);
        }
        let a = Answer::between(&d.grid, &values, &marks);
        let gr = grade(&d.grid, "x-wing", &a, &d.solution);
        assert_eq!(gr.verdict, Verdict::Correct);
        assert_eq!(
            gr.text(d.grid.geometry(), "X-Wing"),
            "Correct: that is the X-Wing."
        );
    }

    #[test]
    fn part_of_an_x_wing_is_partial_and_names_what_is_missing() {
        let (d, values, mut marks) = drill("x-wing");
        let step = find_all(&d.grid, "x-wing")
            .into_iter()
            .find(|s| s.eliminations.len() >= 2)
            .unwrap();
        remove(&mut marks, step.eliminations[0]);
        let a = Answer::between(&d.grid, &values, &marks);
        let gr = grade(&d.grid, "x-wing", &a, &d.solution);
        assert_eq!(gr.verdict, Verdict::Partial);
        let g = d.grid.geometry();
        let last = Move::Remove(*step.eliminations.last().unwrap()).text(g);
        assert!(gr.missing.len() == step.eliminations.len() - 1);
        assert!(
            gr.text(g, "X-Wing").contains(&last),
            "{}",
            gr.text(g, "X-Wing")
        );
    }

    #[test]
    fn removing_the_solution_digit_is_wrong_and_says_so() {
        let (d, values, mut marks) = drill("x-wing");
        let c = (0..81).find(|&c| values[c] == 0).unwrap();
        let truth = Candidate::new(c, d.solution[c]);
        remove(&mut marks, truth);
        let a = Answer::between(&d.grid, &values, &marks);
        let gr = grade(&d.grid, "x-wing", &a, &d.solution);
        assert_eq!(gr.verdict, Verdict::Wrong);
        assert_eq!(gr.wrong[0].why, Why::AgainstSolution);
        let g = d.grid.geometry();
        let said = gr.text(g, "X-Wing");
        let expect = format!(
            "{} ({} is the solution of {})",
            Move::Remove(truth).text(g),
            d.solution[c],
            g.cell_name(c)
        );
        assert!(said.contains(&expect), "{said}");
    }

    #[test]
    fn removing_a_false_candidate_the_technique_does_not_touch_is_wrong() {
        let (d, values, mut marks) = drill("x-wing");
        let all: BTreeSet<Move> = find_all(&d.grid, "x-wing")
            .iter()
            .flat_map(moves_of)
            .collect();
        let false_one = (0..81)
            .filter(|&c| values[c] == 0)
            .flat_map(|c| {
                d.grid
                    .candidates(c)
                    .iter()
                    .map(move |k| Candidate::new(c, k))
            })
            .find(|c| d.solution[c.cell] != c.digit && !all.contains(&Move::Remove(*c)))
            .unwrap();
        remove(&mut marks, false_one);
        let a = Answer::between(&d.grid, &values, &marks);
        let gr = grade(&d.grid, "x-wing", &a, &d.solution);
        assert_eq!(gr.verdict, Verdict::Wrong);
        assert_eq!(gr.wrong.len(), 1);
        assert_eq!(gr.wrong[0].why, Why::NotThisTechnique);
        assert!(gr
            .text(d.grid.geometry(), "X-Wing")
            .contains("not something the X-Wing shows"));
    }

    #[test]
    fn a_placement_with_its_auto_removals_is_one_move() {
        let (d, mut values, mut marks) = drill("hidden-single");
        let step = find_all(&d.grid, "hidden-single").remove(0);
        let p = step.placements[0];
        values[p.cell] = p.digit;
        marks[p.cell] = Digits::EMPTY;
        for &q in d.grid.geometry().peers(p.cell) {
            marks[q].remove(p.digit);
        }
        let a = Answer::between(&d.grid, &values, &marks);
        assert_eq!(a.moves.len(), 1);
        let gr = grade(&d.grid, "hidden-single", &a, &d.solution);
        assert_eq!(gr.verdict, Verdict::Correct);
    }
}
