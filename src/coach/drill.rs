//! Drills: positions where a chosen technique is the first step the logic solver finds (so
//! no easier technique applies there), taken from the logical paths of generated puzzles.
//!
//! A walk follows a puzzle's logical path. At each position it asks for the first step of
//! the table up to the last wanted technique, with a fresh solver memory, exactly as `hint`
//! does; when that step is a wanted technique the position is a drill. When none of those
//! techniques applies, a harder one (short of forcing chains) moves the walk on.

use crate::generate::{Generator, Level, Options};
use crate::puzzle::{Grid, Puzzle, Variant};
use crate::solver::logic::{self, techniques, Family, SolverMemory, Step, TechniqueInfo};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// A drill: the puzzle, the position on its path, and the step `hint` finds there.
#[derive(Clone, Debug)]
pub struct Drill {
    pub technique: &'static TechniqueInfo,
    pub puzzle: Puzzle,
    pub solution: Vec<u8>,
    /// Entries placed after the givens (0 = none).
    pub placed: Vec<u8>,
    /// The position: values and pencil marks.
    pub grid: Grid,
    pub step: Step,
}

/// Forcing steps a walk takes before it stops: each costs far more than any other step,
/// and a path that needs several is mostly forcing steps from there on.
const MAX_FORCING: usize = 2;

/// Puzzles walked per round, after a first round of 2 and one of 4 (a drill of a common
/// technique needs no more); the puzzles of a round are walked in parallel and read in
/// index order, so a seed gives the same drills on any number of cores.
const ROUND: u64 = 8;

fn table_index(t: &TechniqueInfo) -> usize {
    techniques()
        .iter()
        .position(|x| x.id == t.id)
        .unwrap_or(usize::MAX)
}

/// Walks the logical path of `puzzle` and calls `found` at each position whose first step
/// is a technique with `want[table index]` set, until it breaks.
pub fn walk(
    puzzle: &Puzzle,
    solution: &[u8],
    want: &[bool],
    mut found: impl FnMut(&Grid, &Step) -> ControlFlow<()>,
) {
    let table = techniques();
    let Some(last) = want.iter().rposition(|&w| w) else {
        return;
    };
    let last = last.min(table.len() - 1);
    let prefix = &table[..=last];
    // Beyond the wanted techniques, only what moves the walk on cheaply.
    let rest = &table[last + 1..];
    let rest_end = rest
        .iter()
        .position(|t| matches!(t.family, Family::Forcing | Family::LastResort))
        .unwrap_or(rest.len());
    let rest = &rest[..rest_end];
    let mut grid = Grid::from_puzzle(puzzle);
    let mut memory = SolverMemory::new();
    let mut forcing = 0;
    while !grid.is_solved() {
        let step = match logic::first_step(&grid, prefix, Some(solution), &mut SolverMemory::new())
        {
            Some(s) => {
                if want.get(table_index(s.technique)).copied().unwrap_or(false)
                    && found(&grid, &s).is_break()
                {
                    return;
                }
                if s.technique.family == Family::Forcing {
                    forcing += 1;
                    if forcing >= MAX_FORCING {
                        return;
                    }
                }
                s
            }
            None => match logic::first_step(&grid, rest, Some(solution), &mut memory) {
                Some(s) => s,
                None => return,
            },
        };
        logic::apply(&mut grid, &step);
    }
}

/// How long a search may go on.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub puzzles: u64,
    pub time: Duration,
}

/// What a search found, and what it cost.
#[derive(Debug, Default)]
pub struct Harvest {
    pub drills: Vec<Drill>,
    pub puzzles: u64,
    pub elapsed: Duration,
}

/// Drills of a variant for every technique with a quota (`quota[table index]` drills each),
/// at most one per technique and puzzle, from the puzzles of `seed` in order, until the
/// quotas are met or the budget is spent. The same seed gives the same drills.
pub fn harvest(variant: Variant, seed: u64, quota: &[usize], budget: Budget) -> Harvest {
    harvest_reporting(variant, seed, quota, budget, &mut |_, _| {})
}

/// [`harvest`], telling `walked(puzzles, drills)` after each round of puzzles (on the
/// calling thread), so that a long search can show its progress.
pub fn harvest_reporting(
    variant: Variant,
    seed: u64,
    quota: &[usize],
    budget: Budget,
    walked: &mut dyn FnMut(u64, usize),
) -> Harvest {
    let start = Instant::now();
    let mut left = quota.to_vec();
    let mut out = Harvest::default();
    // Forcing steps come first only on the hardest paths: walking anything else for them
    // would cost most of the search (every extreme puzzle needs one somewhere).
    let extreme_only = techniques()
        .iter()
        .zip(quota)
        .filter(|(_, &q)| q > 0)
        .all(|(t, _)| t.family == Family::Forcing);
    let Some(sources) = Sources::new(variant, seed, extreme_only) else {
        return out;
    };
    let mut next = 0u64;
    let mut size = 2;
    while left.iter().any(|&n| n > 0) && next < budget.puzzles && start.elapsed() < budget.time {
        let want: Vec<bool> = left.iter().map(|&n| n > 0).collect();
        let end = (next + size).min(budget.puzzles);
        let round: Vec<Vec<Drill>> = (next..end)
            .into_par_iter()
            .map(|i| drills_of(&sources, i, &want))
            .collect();
        next = end;
        size = (size * 2).min(ROUND);
        for d in round.into_iter().flatten() {
            let i = table_index(d.technique);
            if let Some(n) = left.get_mut(i).filter(|n| **n > 0) {
                *n -= 1;
                out.drills.push(d);
            }
        }
        walked(next, out.drills.len());
    }
    out.puzzles = next;
    out.elapsed = start.elapsed();
    out
}

/// Where the walked puzzles come from. Random minimal puzzles (some with clues given back)
/// are cheap and cover the easy and medium techniques, but few need more than wings; every
/// unfair or extreme puzzle needs a rarer step somewhere, at a few times the cost.
struct Sources {
    minimal: Generator,
    hard: Vec<Generator>,
    /// Only the rated sources are walked.
    hard_only: bool,
}

/// Solution grids a rated source tries per puzzle: a miss only costs one walk.
const RATED_ATTEMPTS: usize = 40;

impl Sources {
    fn new(variant: Variant, seed: u64, extreme_only: bool) -> Option<Sources> {
        // Killer cages of the hard level: neither trivial nor too large.
        let minimal = Generator::new(Options::new(variant, Level::Hard), seed).ok()?;
        // Rated honeycomb puzzles above hard take seconds each (measured in the generator).
        let levels: &[Level] = match variant {
            Variant::Honeycomb => &[],
            _ if extreme_only => &[Level::Extreme],
            _ => &[Level::Unfair, Level::Extreme],
        };
        let hard: Vec<Generator> = levels
            .iter()
            .filter_map(|&l| {
                let opts = Options {
                    max_attempts: RATED_ATTEMPTS,
                    ..Options::new(variant, l)
                };
                Generator::new(opts, seed).ok()
            })
            .collect();
        let hard_only = extreme_only && !hard.is_empty();
        Some(Sources {
            minimal,
            hard,
            hard_only,
        })
    }

    /// Puzzle `index` with its solution: two minimal ones, then the rated ones, in turn (only
    /// the rated ones when `hard_only`).
    fn puzzle(&self, index: u64) -> Option<(Puzzle, Vec<u8>)> {
        if self.hard_only {
            let g = self.hard.get((index % self.hard.len() as u64) as usize)?;
            return g.generate(index).ok().map(|g| (g.puzzle, g.solution));
        }
        let turn = index % (self.hard.len() as u64 + 2);
        let rated = turn.checked_sub(2).and_then(|t| usize::try_from(t).ok());
        match rated.and_then(|t| self.hard.get(t)) {
            Some(g) => g.generate(index).ok().map(|g| (g.puzzle, g.solution)),
            None => self.minimal.sample(index),
        }
    }
}

/// The first drill of each wanted technique on puzzle `index`'s path.
fn drills_of(sources: &Sources, index: u64, want: &[bool]) -> Vec<Drill> {
    let Some((puzzle, solution)) = sources.puzzle(index) else {
        return Vec::new();
    };
    let mut want = want.to_vec();
    let mut out = Vec::new();
    walk(&puzzle, &solution, &want.clone(), |grid, step| {
        let i = table_index(step.technique);
        if want.get(i).copied().unwrap_or(false) {
            want[i] = false;
            let placed = (0..puzzle.givens.len())
                .map(|c| {
                    if puzzle.givens[c] == 0 {
                        grid.value(c)
                    } else {
                        0
                    }
                })
                .collect();
            out.push(Drill {
                technique: step.technique,
                puzzle: puzzle.clone(),
                solution: solution.clone(),
                placed,
                grid: grid.clone(),
                step: step.clone(),
            });
        }
        if want.iter().any(|&w| w) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    out
}

/// `count` drills of one technique (see [`harvest`]).
pub fn find(
    variant: Variant,
    technique: &'static TechniqueInfo,
    count: usize,
    seed: u64,
    budget: Budget,
) -> Harvest {
    find_reporting(variant, technique, count, seed, budget, &mut |_, _| {})
}

/// [`find`] with [`harvest_reporting`]'s progress.
pub fn find_reporting(
    variant: Variant,
    technique: &'static TechniqueInfo,
    count: usize,
    seed: u64,
    budget: Budget,
    walked: &mut dyn FnMut(u64, usize),
) -> Harvest {
    let mut quota = vec![0; techniques().len()];
    if let Some(q) = quota.get_mut(table_index(technique)) {
        *q = count;
    }
    harvest_reporting(variant, seed, &quota, budget, walked)
}

/// Drills per technique in the bank (`puzzles/drills.jsonl`): 20 on standard and for a
/// variant's own techniques, 5 for a classic technique on another variant.
pub fn bank_quota(t: &TechniqueInfo, v: Variant) -> usize {
    if !t.is_nameable() || !t.enabled || !crate::coach::names::occurs_in(t, v) {
        0
    } else if v == Variant::Standard || crate::coach::names::is_variant_technique(t) {
        20
    } else {
        5
    }
}

/// A fingerprint of the techniques `hint` tries (ids, order, levels, scores): a drill bank
/// made under another table may hold positions where another step comes first. Techniques
/// that are off (found only on request) cannot come first, so adding one keeps the bank.
pub fn table_hash() -> String {
    // FNV-1a: stable across Rust versions, unlike the std hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for t in techniques().iter().filter(|t| t.enabled) {
        let row = format!("{}:{}:{}:{};", t.id, t.order, t.level, t.score);
        for b in row.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coach::marks;
    use crate::solver::logic::technique;

    #[test]
    fn a_drill_is_a_position_where_hint_finds_its_technique_first() {
        let t = technique("naked-pair").unwrap();
        let budget = Budget {
            puzzles: 64,
            time: Duration::from_secs(60),
        };
        let h = find(Variant::Standard, t, 2, 7, budget);
        assert_eq!(h.drills.len(), 2);
        for d in &h.drills {
            let line = marks::placed_line(&d.placed);
            let text = marks::write_marks(&d.grid);
            let pos = marks::read_position(Some(&d.puzzle), Some((&text, "m")), Some((&line, "p")))
                .unwrap();
            let sol = pos.solution().unwrap();
            assert_eq!(sol, d.solution);
            let step = logic::next_step(&pos.grid, Some(&sol), &mut SolverMemory::new()).unwrap();
            assert_eq!(step.id(), "naked-pair");
            assert_eq!(step, d.step);
            assert!(step.eliminations.iter().all(|e| sol[e.cell] != e.digit));
        }
        // Deterministic per seed.
        let again = find(Variant::Standard, t, 2, 7, budget);
        let key = |h: &Harvest| -> Vec<String> {
            h.drills
                .iter()
                .map(|d| marks::write_marks(&d.grid))
                .collect()
        };
        assert_eq!(key(&h), key(&again));
    }
}
