//! The one place the generator meets the human-style rater, plus the singles-only solver the
//! generator uses as a fast filter while removing clues for easy puzzles.

use crate::geometry::{Geometry, Rule};
use crate::puzzle::{Grid, Puzzle};
use crate::solver::logic::{self, techniques, Step};
use crate::solver::rate::{solve_grid, walk, walk_to, Rating};

pub use crate::solver::rate::Level;

pub const LEVELS: [Level; 5] = Level::ALL;

pub fn level_name(level: Level) -> &'static str {
    level.name()
}

pub fn parse_level(s: &str) -> Option<Level> {
    s.parse().ok()
}

/// What the generator needs to know of a rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub level: Level,
    pub score: u32,
    /// The hardest technique on the logical path.
    pub hardest: Option<String>,
    /// Every technique id the path used.
    pub used: Vec<String>,
}

impl Rated {
    pub fn uses(&self, technique: &str) -> bool {
        self.used.iter().any(|t| t == technique)
    }
}

impl From<Rating> for Rated {
    fn from(r: Rating) -> Rated {
        Rated {
            level: r.level,
            score: r.score,
            hardest: r.hardest.map(String::from),
            used: r.used.iter().map(|(id, _)| id.to_string()).collect(),
        }
    }
}

/// Rates a puzzle with the human-style solver.
pub fn rate_puzzle(puzzle: &Puzzle) -> Rated {
    crate::solver::rate::rate(puzzle).into()
}

/// The full rating of a puzzle whose (unique) solution is known: [`rate_puzzle`] without
/// the exact solve it starts with.
pub fn rate_solved(puzzle: &Puzzle, solution: &[u8]) -> Rated {
    solve_grid(Grid::from_puzzle(puzzle), Some(solution))
        .1
        .into()
}

/// The rater's verdict when the generator needs no more than "at most `bound`".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// The full rating, which is at most the bound.
    Within(Rated),
    /// The rating is above the bound (its exact value was not computed).
    Above,
}

/// The rating of a uniquely solvable puzzle when it is at most `bound`, else `Above`; the
/// same path and rating as [`rate_puzzle`], with two early exits that cost nothing in
/// accuracy, since a rating only grows along the path:
/// - each step tries techniques in table order only up to the last one of level `bound` or
///   below (a later technique or a guess would raise the level past the bound), so the
///   forcing chains are never run below extreme and the chains never below unfair;
/// - the solve stops at the first step, or score, above the bound.
pub fn rate_within(puzzle: &Puzzle, solution: &[u8], bound: Level) -> Bounded {
    if bound == Level::Extreme {
        return Bounded::Within(rate_solved(puzzle, solution));
    }
    let table = techniques();
    let Some(last) = table
        .iter()
        .rposition(|t| t.enabled && t.level <= bound && t.id != "guess")
    else {
        return Bounded::Above;
    };
    let mut score = 0u32;
    let mut above = false;
    let mut memory = logic::SolverMemory::new();
    let (steps, solved) = walk(Grid::from_puzzle(puzzle), |grid| {
        // Techniques after `last` are all above the bound: the rater's step, if it is one
        // of them, would end the rating anyway.
        let step = logic::first_step(grid, &table[..=last], Some(solution), &mut memory);
        let step = step.filter(|s| {
            score = score.saturating_add(s.technique.score);
            s.technique.level <= bound && score <= bound.max_score()
        });
        above = step.is_none();
        step
    });
    if above {
        return Bounded::Above;
    }
    let r = Rating::of_path(&steps, solved);
    if r.level > bound {
        return Bounded::Above;
    }
    Bounded::Within(r.into())
}

/// The path the techniques up to some level make before they stall on a puzzle, and the
/// grid where they stall.
pub struct Stalled(Vec<Step>, Grid);

impl Stalled {
    /// Whether `cell` is still empty where the techniques stall.
    pub fn open(&self, cell: usize) -> bool {
        self.1.value(cell) == 0
    }
}

/// When the techniques up to `bound` leave the puzzle unsolved (its path needs a harder
/// step or a guess: "above `bound`" by technique, whatever the score), the path they make
/// before they stall; None when they solve it.
pub fn stall_within(puzzle: &Puzzle, solution: &[u8], bound: Level) -> Option<Stalled> {
    let table = techniques();
    let last = table
        .iter()
        .rposition(|t| t.enabled && t.level <= bound && t.id != "guess");
    let start = Grid::from_puzzle(puzzle);
    let Some(last) = last else {
        return Some(Stalled(Vec::new(), start));
    };
    let mut memory = logic::SolverMemory::new();
    let (steps, grid) = walk_to(start, |grid| {
        logic::first_step(grid, &table[..=last], Some(solution), &mut memory)
    });
    let solved = grid.is_solved() && !grid.is_broken();
    (!solved).then_some(Stalled(steps, grid))
}

/// The full rating of a puzzle from the path [`stall_within`] gave: the same path and rating
/// as [`rate_solved`] (each of those steps is the first the whole table finds there too),
/// without walking that part again.
pub fn rate_after(solution: &[u8], stalled: Stalled) -> Rated {
    let Stalled(mut steps, grid) = stalled;
    let mut memory = logic::SolverMemory::new();
    let (rest, solved) = walk(grid, |g| logic::next_step(g, Some(solution), &mut memory));
    steps.extend(rest);
    Rating::of_path(&steps, solved).into()
}

/// Technique ids the rater knows, for checking `--technique`.
pub fn known_technique(id: &str) -> bool {
    crate::solver::logic::technique(id).is_some()
}

/// The level a technique belongs to (training puzzles stay at or below it).
pub fn technique_level(id: &str) -> Level {
    crate::solver::logic::technique(id).map_or(Level::Extreme, |t| t.level)
}

/// Naked and hidden singles over every `Complete` house: the logic of an easy puzzle, as a
/// few bit operations so the generator can ask "still easy?" after each clue it removes.
pub struct Singles {
    all: u16,
    peers: Vec<Vec<u16>>,
    houses: Vec<Vec<u16>>,
}

impl Singles {
    pub fn new(g: &Geometry) -> Singles {
        Singles {
            all: g.all_digits().0,
            peers: g
                .cells()
                .map(|c| g.peers(c).iter().map(|&p| p as u16).collect())
                .collect(),
            houses: g
                .houses()
                .iter()
                .filter(|h| h.rule == Rule::Complete)
                .map(|h| h.cells.iter().map(|&c| c as u16).collect())
                .collect(),
        }
    }

    /// The number of placements singles make when they fill the grid, None when they stall
    /// or meet a contradiction.
    pub fn solve(&self, givens: &[u8]) -> Option<usize> {
        let n = self.peers.len();
        if givens.len() != n {
            return None;
        }
        let mut cands = vec![self.all; n];
        let mut placed = vec![false; n];
        let mut left = n;
        let place = |c: usize, bit: u16, cands: &mut [u16], placed: &mut [bool]| -> bool {
            if cands[c] & bit == 0 {
                return false;
            }
            cands[c] = bit;
            placed[c] = true;
            for &p in &self.peers[c] {
                cands[p as usize] &= !bit;
            }
            true
        };
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                if d > 16 || !place(c, 1 << (d - 1), &mut cands, &mut placed) {
                    return None;
                }
                left -= 1;
            }
        }
        let mut steps = 0;
        while left > 0 {
            let mut progress = false;
            for c in 0..n {
                let m = cands[c];
                if placed[c] {
                    continue;
                }
                if m == 0 {
                    return None;
                }
                if m & (m - 1) == 0 {
                    place(c, m, &mut cands, &mut placed);
                    left -= 1;
                    steps += 1;
                    progress = true;
                }
            }
            for house in &self.houses {
                let (mut once, mut twice, mut done) = (0u16, 0u16, 0u16);
                for &c in house {
                    let m = cands[c as usize];
                    if placed[c as usize] {
                        done |= m;
                    } else {
                        twice |= once & m;
                        once |= m;
                    }
                }
                if (once | done) != self.all {
                    return None;
                }
                let mut singles = once & !twice & !done;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    if let Some(&c) = house
                        .iter()
                        .find(|&&c| !placed[c as usize] && cands[c as usize] & bit != 0)
                    {
                        if !place(c as usize, bit, &mut cands, &mut placed) {
                            return None;
                        }
                        left -= 1;
                        steps += 1;
                        progress = true;
                    }
                }
            }
            if !progress {
                return None;
            }
        }
        Some(steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;
    use crate::puzzle::Variant;

    /// The bounded rater agrees with the full one at every bound, on shipped puzzles of
    /// every level (two per collection of the line-format variants and killer).
    #[test]
    fn bounded_rating_agrees_with_the_full_rating() {
        use crate::generate::shipped;
        let mut seen = [0usize; 5];
        for v in [Variant::Standard, Variant::Diagonal, Variant::Killer] {
            for level in LEVELS {
                for p in shipped::shipped(v, level).iter().take(2) {
                    let solution = crate::solver::exact::solve(p, 1).first.unwrap();
                    let full = rate_puzzle(p);
                    seen[full.level as usize] += 1;
                    assert_eq!(rate_solved(p, &solution), full);
                    // At extreme, `rate_within` is `rate_solved`, checked above.
                    for &bound in &LEVELS[..4] {
                        let want = if full.level <= bound {
                            Bounded::Within(full.clone())
                        } else {
                            Bounded::Above
                        };
                        assert_eq!(rate_within(p, &solution, bound), want, "{v} {bound}");
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }

    #[test]
    fn singles_solve_an_easy_puzzle_but_not_a_hard_one() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let hard =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let p = parse_line(easy.as_bytes(), Variant::Standard, "t", 1)
            .unwrap()
            .unwrap();
        assert!(Singles::new(p.geometry()).solve(&p.givens).is_some());
        assert_eq!(rate_puzzle(&p).level, Level::Easy);
        let q = parse_line(hard.as_bytes(), Variant::Standard, "t", 1)
            .unwrap()
            .unwrap();
        assert!(Singles::new(q.geometry()).solve(&q.givens).is_none());
    }
}
