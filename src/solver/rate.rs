//! The solving loop and HoDoKu-style rating: always take the simplest step (table order);
//! score = sum of step scores; level = the hardest step's level, raised while the score
//! exceeds the level's maximum.

use crate::puzzle::{Grid, Puzzle};
use crate::solver::exact;
use crate::solver::logic::{self, Step};

pub use crate::solver::logic::techniques::Level;

/// The rating of a logical solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub level: Level,
    pub score: u32,
    /// The grid was finished (by logic and guesses).
    pub solved: bool,
    pub steps: usize,
    /// Steps taken from the exact solution because no technique applied.
    pub guesses: usize,
    /// The technique with the highest level (then score) on the path.
    pub hardest: Option<&'static str>,
    /// Techniques used, with counts, in table order.
    pub used: Vec<(&'static str, usize)>,
}

impl Rating {
    /// Rates a path of steps.
    pub fn of_path(steps: &[Step], solved: bool) -> Rating {
        let mut score = 0u32;
        let mut level = Level::Easy;
        let mut hardest: Option<&'static logic::TechniqueInfo> = None;
        let mut used: Vec<(&'static logic::TechniqueInfo, usize)> = Vec::new();
        for s in steps {
            let t = s.technique;
            score = score.saturating_add(t.score);
            level = level.max(t.level);
            if hardest.is_none_or(|h| (t.level, t.score) > (h.level, h.score)) {
                hardest = Some(t);
            }
            match used.iter_mut().find(|(u, _)| u.id == t.id) {
                Some((_, n)) => *n += 1,
                None => used.push((t, 1)),
            }
        }
        while score > level.max_score() && level != Level::Extreme {
            level = level.next();
        }
        used.sort_by_key(|(t, _)| t.order);
        Rating {
            level,
            score,
            solved,
            steps: steps.len(),
            guesses: steps.iter().filter(|s| s.id() == "guess").count(),
            hardest: hardest.map(|t| t.id),
            used: used.into_iter().map(|(t, n)| (t.id, n)).collect(),
        }
    }
}

/// Rates a puzzle by a full logical solve from the givens.
pub fn rate(puzzle: &Puzzle) -> Rating {
    solve_path(puzzle).1
}

/// The whole logical path from the givens (guesses from the exact solution where no
/// technique applies), and its rating.
pub fn solve_path(puzzle: &Puzzle) -> (Vec<Step>, Rating) {
    let solution = exact::solve(puzzle, 1).first;
    let grid = Grid::from_puzzle(puzzle);
    solve_grid(grid, solution.as_deref())
}

/// The logical path from any grid, with a fresh [`logic::SolverMemory`]: the path depends
/// on the grid alone.
pub fn solve_grid(grid: Grid, solution: Option<&[u8]>) -> (Vec<Step>, Rating) {
    let mut memory = logic::SolverMemory::new();
    let (steps, solved) = walk(grid, |g| logic::next_step(g, solution, &mut memory));
    let rating = Rating::of_path(&steps, solved);
    (steps, rating)
}

/// Applies the steps `next` finds until the grid is solved or `next` has none; returns the
/// path and whether it solved the grid.
pub fn walk(grid: Grid, next: impl FnMut(&Grid) -> Option<Step>) -> (Vec<Step>, bool) {
    let (steps, grid) = walk_to(grid, next);
    let solved = grid.is_solved() && !grid.is_broken();
    (steps, solved)
}

/// [`walk`], returning the grid where it ended instead of whether it is solved.
pub fn walk_to(mut grid: Grid, mut next: impl FnMut(&Grid) -> Option<Step>) -> (Vec<Step>, Grid) {
    let mut steps = Vec::new();
    // Every useful step removes a candidate or fills a cell, so this bound is never reached
    // by a correct step finder; it keeps a faulty one from looping forever.
    let limit = grid.geometry().cell_count() * usize::from(grid.geometry().max_digit()) + 1;
    while !grid.is_solved() && steps.len() < limit {
        let Some(step) = next(&grid) else {
            break;
        };
        let before = grid.clone();
        logic::apply(&mut grid, &step);
        steps.push(step);
        if grid == before {
            break;
        }
    }
    (steps, grid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print() {
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
        assert!("hardest".parse::<Level>().is_err());
    }

    #[test]
    fn easy_puzzle_is_easy() {
        let p = crate::format::parse_line(
            b".....8........7.2927.1.9.38..3....6.7.......5.8....1..93.5.1.8714.7........4.....",
            crate::puzzle::Variant::Standard,
            "t",
            1,
        )
        .unwrap()
        .unwrap();
        let r = rate(&p);
        assert!(r.solved);
        assert_eq!(r.guesses, 0);
        assert!(r.level <= Level::Medium, "{r:?}");
        assert!(r.score > 0);
    }
}
