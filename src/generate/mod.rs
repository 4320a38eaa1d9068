//! The generator: random complete grids for any geometry, random jigsaw regions and killer
//! cages, clue removal under a symmetry with uniqueness proved by the exact solver after
//! every removal, and rating by the human-style solver until the requested level comes up.
//!
//! Strategy per attempt (one fresh solution grid each):
//! - easy: remove clues while naked and hidden singles still solve the puzzle (a cheap
//!   filter), so the result is as sparse as an easy puzzle can be;
//! - harder levels: remove clues down to a minimal puzzle, rate it; when it is harder than
//!   asked, give clues back (a symmetric orbit at a time) until the level drops to the
//!   target, since extra clues only ever make a puzzle easier;
//! - killer: cages first (smaller cages for easier levels), then the fewest givens that make
//!   the solution unique.
//!
//! Every puzzle of a run gets its own random stream derived from the seed and its index, so
//! a seed always gives the same puzzles and puzzle `i` can be regenerated alone.

mod cages;
pub mod canon;
pub mod rating;
mod regions;
pub mod rng;
pub mod shipped;
pub mod symmetry;

pub use rating::{level_name, parse_level, rate_puzzle, Level, Rated, LEVELS};
pub use symmetry::Symmetry;

use crate::geometry::{Cell, Digits, Geometry};
use crate::puzzle::{Layout, Puzzle, Variant};
use crate::solver::exact::Prepared;
use rating::{Bounded, Singles};
use rng::Rng;
use std::sync::Arc;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: Variant,
    /// Side length of square grids (4, 6, 9 or 16); ignored for honeycomb.
    pub size: usize,
    /// The level wanted; in training mode the highest level allowed.
    pub level: Level,
    pub symmetry: Symmetry,
    /// Training mode: the hardest step of the logical path (`explain`'s `hardest`) must be
    /// this technique id.
    pub technique: Option<String>,
    /// Fresh solution grids to try per puzzle before giving up.
    pub max_attempts: usize,
    /// Time per puzzle before giving up (a technique may be too rare to hit by chance).
    pub time_budget: Option<std::time::Duration>,
}

impl Options {
    pub fn new(variant: Variant, level: Level) -> Options {
        Options {
            variant,
            size: 9,
            level,
            // Killer givens are few and sit where the cages need them; a symmetry would only
            // force extra ones.
            symmetry: if variant == Variant::Killer {
                Symmetry::None
            } else {
                Symmetry::Rotate180
            },
            technique: None,
            max_attempts: 20_000,
            time_budget: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error("unsupported size {size} for {variant} (expected 4, 6, 9 or 16; honeycomb is fixed)")]
    Size { variant: Variant, size: usize },
    #[error("{symmetry} symmetry does not fit a {variant} grid (use none, rotate180 or mirror)")]
    Symmetry {
        symmetry: &'static str,
        variant: Variant,
    },
    #[error("unknown technique '{0}'")]
    Technique(String),
    #[error(
        "no {variant} puzzle whose hardest step is {technique} found in {attempts} attempts \
         ({seconds} s budget): it is too rare to hit by chance; `termdoku drill --technique \
         {technique}` gives positions where it is the next step"
    )]
    TooRare {
        technique: String,
        variant: Variant,
        attempts: usize,
        seconds: u64,
    },
    #[error("no {level} {variant} puzzle found in {attempts} attempts")]
    GaveUp {
        level: &'static str,
        variant: Variant,
        attempts: usize,
    },
}

/// A generated puzzle with its solution and rating.
#[derive(Clone, Debug)]
pub struct Generated {
    pub puzzle: Puzzle,
    pub solution: Vec<u8>,
    pub rating: Rated,
    /// Solution grids tried for this puzzle.
    pub attempts: usize,
    pub seed: u64,
    pub index: u64,
}

/// Everything about one layout that the inner loops reuse.
struct Ctx {
    layout: Layout,
    geometry: Arc<Geometry>,
    exact: Prepared,
    singles: Singles,
    orbits: Vec<Vec<Cell>>,
}

impl Ctx {
    fn new(layout: Layout, symmetry: Symmetry) -> Option<Ctx> {
        let geometry = Arc::new(layout.geometry().ok()?);
        Some(Ctx {
            // Probing costs more than it saves on the generator's mostly easy checks
            // (measured: 10x slower on diagonal, 2x on honeycomb).
            exact: Prepared::new(&geometry).without_probing(),
            singles: Singles::new(&geometry),
            orbits: symmetry::orbits(symmetry, &geometry),
            layout,
            geometry,
        })
    }

    /// Solutions up to 2.
    fn count(&self, givens: &[u8]) -> usize {
        self.exact.solve(givens, 2).count
    }

    fn random_solution(&self, givens: &[u8], rng: &mut Rng, budget: usize) -> Option<Vec<u8>> {
        let all = self.geometry.all_digits();
        let cands: Vec<Digits> = givens
            .iter()
            .map(|&d| if d == 0 { all } else { Digits::single(d) })
            .collect();
        // Random search is heavy-tailed: a few bad early choices can cost thousands of
        // nodes. Short runs with fresh random orders (restarts) cut the tail.
        let per_run = budget.clamp(1, RESTART_BUDGET);
        for _ in 0..budget.div_ceil(per_run) {
            let found = self
                .exact
                .random_solution(&cands, &mut || rng.next_u64(), per_run);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The symmetry orbits that pass `keep`, in random order.
    fn shuffled_orbits(&self, rng: &mut Rng, keep: impl Fn(&[Cell]) -> bool) -> Vec<&[Cell]> {
        let mut order: Vec<&[Cell]> = self
            .orbits
            .iter()
            .map(Vec::as_slice)
            .filter(|o| keep(o))
            .collect();
        rng.shuffle(&mut order);
        order
    }

    fn puzzle(&self, givens: Vec<u8>) -> Option<Puzzle> {
        Puzzle::with_geometry(self.layout.clone(), Arc::clone(&self.geometry), givens).ok()
    }

    /// The rating when it is at most `bound` (see [`rating::rate_within`]); None when the
    /// givens do not make a puzzle.
    fn rate(&self, givens: &[u8], solution: &[u8], bound: Level) -> Option<Bounded> {
        self.puzzle(givens.to_vec())
            .map(|p| rating::rate_within(&p, solution, bound))
    }
}

/// Node budget for one random solution: ample for any solvable layout, small enough that
/// an unsolvable random jigsaw is dropped in milliseconds.
const SOLUTION_BUDGET: usize = 20_000;

/// Attempts that share one solution grid of a fixed layout, each removing clues in its own
/// random order: a random honeycomb grid costs as much as a few whole attempts (about 15 ms,
/// measured), and an attempt fails on its removal order far more often than on its grid.
const ATTEMPTS_PER_GRID: usize = 3;

/// Orbits `descend` (and `soften`) give back before they give up on a grid. Each try is one
/// bounded rating, far cheaper than a fresh minimal puzzle (measured, CPU median over 100
/// unfair puzzles: honeycomb 196 ms at 8 orbits, 103 at 16, 66 at 32; over 30, diagonal 43 ->
/// 17 ms, jigsaw 59 -> 25 ms, killer 225 -> 135 ms). Clue counts spread a little wider.
const DESCEND_ORBITS: usize = 32;

/// Clues `soften` tries in vain before it stops: each such try is a whole bounded solve, and
/// by then the puzzle has lost its guesses (measured, CPU median over 100 honeycomb extreme
/// puzzles, same run: 100 ms without a cap, 82 ms at 8, 82 ms at 4 with a longer p95 tail).
const SOFTEN_MISSES: usize = 8;

/// Nodes per restart of the random search.
const RESTART_BUDGET: usize = 300;

/// Makes puzzles for one set of options.
pub struct Generator {
    opts: Options,
    seed: u64,
    /// The layout for variants whose layout never changes (not jigsaw, not killer).
    fixed: Option<Ctx>,
    /// Plain grid of the same size, for killer solutions.
    base: Option<Ctx>,
}

impl Generator {
    pub fn new(opts: Options, seed: u64) -> Result<Generator, GenerateError> {
        let size = if opts.variant == Variant::Honeycomb {
            9
        } else {
            opts.size
        };
        if ![4, 6, 9, 16].contains(&size) {
            return Err(GenerateError::Size {
                variant: opts.variant,
                size,
            });
        }
        let layout = Layout::new(opts.variant, size);
        let geometry = layout.geometry().map_err(|_| GenerateError::Size {
            variant: opts.variant,
            size,
        })?;
        if !opts.symmetry.fits(&geometry) {
            return Err(GenerateError::Symmetry {
                symmetry: opts.symmetry.name(),
                variant: opts.variant,
            });
        }
        if let Some(t) = &opts.technique {
            if !rating::known_technique(t) {
                return Err(GenerateError::Technique(t.clone()));
            }
        }
        let fixed = match opts.variant {
            Variant::Jigsaw | Variant::Killer => None,
            _ => Ctx::new(layout, opts.symmetry),
        };
        let base = (opts.variant == Variant::Killer)
            .then(|| Ctx::new(Layout::new(Variant::Standard, size), Symmetry::None))
            .flatten();
        Ok(Generator {
            opts: Options { size, ..opts },
            seed,
            fixed,
            base,
        })
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Puzzles `0..count` of this seed, each computed when the iterator reaches it.
    pub fn iter(
        &self,
        count: usize,
    ) -> impl Iterator<Item = Result<Generated, GenerateError>> + '_ {
        (0..count as u64).map(|i| self.generate(i))
    }

    /// Whether a rating is what was asked for.
    fn wanted(&self, r: &Rated) -> bool {
        match &self.opts.technique {
            Some(t) => r.hardest.as_deref() == Some(t.as_str()) && r.level <= self.opts.level,
            None => r.level == self.opts.level,
        }
    }

    /// The `index`-th puzzle of this seed.
    pub fn generate(&self, index: u64) -> Result<Generated, GenerateError> {
        let mut rng = Rng::derive(self.seed, index);
        let mut grid = None;
        let start = std::time::Instant::now();
        for attempt in 1..=self.opts.max_attempts {
            if (attempt - 1) % ATTEMPTS_PER_GRID == 0 {
                grid = None;
            }
            if let Some(budget) = self.opts.time_budget.filter(|&b| start.elapsed() > b) {
                return Err(self.gave_up(attempt - 1, budget.as_secs()));
            }
            if let Some((puzzle, solution, rating)) = self.attempt(&mut rng, &mut grid) {
                return Ok(Generated {
                    puzzle,
                    solution,
                    rating,
                    attempts: attempt,
                    seed: self.seed,
                    index,
                });
            }
        }
        Err(self.gave_up(
            self.opts.max_attempts,
            self.opts
                .time_budget
                .map_or(start.elapsed().as_secs(), |b| b.as_secs()),
        ))
    }

    fn gave_up(&self, attempts: usize, seconds: u64) -> GenerateError {
        match &self.opts.technique {
            Some(t) => GenerateError::TooRare {
                technique: t.clone(),
                variant: self.opts.variant,
                attempts,
                seconds,
            },
            None => GenerateError::GaveUp {
                level: level_name(self.opts.level),
                variant: self.opts.variant,
                attempts: self.opts.max_attempts,
            },
        }
    }

    /// A puzzle to walk for drills: a minimal puzzle of a fresh solution grid (and layout),
    /// with from none to a sixth of the cells given back at random, so that the walks cover
    /// both the hard middle and the easier ends of logical paths. Deterministic per seed and
    /// index; None when the layout drawn has no solution.
    pub fn sample(&self, index: u64) -> Option<(Puzzle, Vec<u8>)> {
        let mut rng = Rng::derive(self.seed ^ SAMPLE_SALT, index);
        let (ctx, solution) = self.fresh(&mut rng, &mut None)?;
        let mut givens = reduce(&ctx, &solution, solution.clone(), &mut rng, Keep::Unique);
        let mut empty: Vec<Cell> = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
        rng.shuffle(&mut empty);
        let extra = rng.below(5).saturating_sub(1) * givens.len() / 20;
        for &c in empty.iter().take(extra) {
            givens[c] = solution[c];
        }
        Some((ctx.puzzle(givens)?, solution))
    }

    /// A fresh solution grid with its layout: a new one for jigsaw and killer, the fixed one
    /// otherwise (`grid` keeps a fixed layout's solution grid for the next attempts).
    fn fresh(&self, rng: &mut Rng, grid: &mut Option<Vec<u8>>) -> Option<(Layouted<'_>, Vec<u8>)> {
        let size = self.opts.size;
        match self.opts.variant {
            Variant::Jigsaw => {
                let mut layout = Layout::new(Variant::Jigsaw, size);
                layout.regions = Some(regions::random_regions(size, rng).ok()?);
                let ctx = Ctx::new(layout, self.opts.symmetry)?;
                let solution = ctx.random_solution(&vec![0; size * size], rng, SOLUTION_BUDGET)?;
                Some((Layouted::Own(Box::new(ctx)), solution))
            }
            Variant::Killer => {
                let base = self.base.as_ref()?;
                let solution = base.random_solution(&vec![0; size * size], rng, SOLUTION_BUDGET)?;
                let (lo, hi) = cage_lengths(self.opts.level);
                let mut layout = Layout::new(Variant::Killer, size);
                layout.cages = cages::random_cages(&solution, size, lo, hi, rng);
                let ctx = Ctx::new(layout, Symmetry::None)?;
                Some((Layouted::Own(Box::new(ctx)), solution))
            }
            _ => {
                let fixed = self.fixed.as_ref()?;
                if grid.is_none() {
                    let n = fixed.geometry.cell_count();
                    *grid = fixed.random_solution(&vec![0; n], rng, SOLUTION_BUDGET);
                }
                Some((Layouted::Fixed(fixed), grid.clone()?))
            }
        }
    }

    /// One fresh solution grid, carried as far as it goes towards a wanted puzzle.
    /// `grid` keeps the solution grid of a fixed layout for the next attempts.
    fn attempt(
        &self,
        rng: &mut Rng,
        grid: &mut Option<Vec<u8>>,
    ) -> Option<(Puzzle, Vec<u8>, Rated)> {
        let (layouted, solution) = self.fresh(rng, grid)?;
        let ctx: &Ctx = &layouted;
        let easy = self.opts.level == Level::Easy && self.opts.technique.is_none();
        // Removing clues from the full grid beats building up from an empty one on every
        // variant (measured: killer 40 ms against 1.1 s median), since most checks are on
        // dense, easily proved grids.
        // Honeycomb's run rules let the rater solve far sparser puzzles than singles over
        // its three complete lines, so its easy puzzles take the rated path below.
        let mut givens =
            if easy && !matches!(self.opts.variant, Variant::Killer | Variant::Honeycomb) {
                // Singles solving the puzzle proves it unique, so no solver call is needed.
                reduce(ctx, &solution, solution.clone(), rng, Keep::Singles)
            } else if !matches!(self.opts.variant, Variant::Standard | Variant::Killer)
                && self.opts.level < Level::Unfair
            {
                // Minimal variant puzzles are mostly extreme (a minimal honeycomb has 5 to 8
                // givens), so medium and hard are reached from above only with luck. Instead
                // go down from an easy puzzle, keeping each removal that leaves the rating at
                // or below the target (measured: honeycomb medium 2.1 s -> 47 ms median,
                // jigsaw hard 460 -> 177 ms; plain 9x9 is faster the other way). Unfair is
                // the other way round: from the level below, one removal nearly always jumps
                // past it, while giving clues back to a minimal puzzle with overshoots taken
                // back finds it (measured, CPU median: diagonal 346 -> 63 ms, jigsaw
                // 326 -> 90 ms, honeycomb 22.5 -> 3.4 s).
                let start = reduce(ctx, &solution, solution.clone(), rng, Keep::Singles);
                match below(self.opts.level) {
                    Some(lower) if self.opts.technique.is_none() => {
                        // Go down as far as the level below allows (cheap: the rater never
                        // runs the target level's techniques), then stop at the first removal
                        // that reaches the target. Going as low as the target allows meant a
                        // failing, costly rating for nearly every orbit (measured, CPU median:
                        // honeycomb hard 9.8 -> 1.2 s).
                        let start = reduce(ctx, &solution, start, rng, Keep::AtMost(lower));
                        let (givens, rating) = self.climb(ctx, &solution, start, rng)?;
                        return self.finish(ctx, givens, solution, rating);
                    }
                    _ => reduce(ctx, &solution, start, rng, Keep::AtMost(self.opts.level)),
                }
            } else if (self.opts.variant == Variant::Honeycomb || self.opts.size == 16)
                && self.opts.level == Level::Extreme
                && self.opts.technique.is_none()
            {
                // A minimal honeycomb is nearly always extreme, but through guess after
                // guess: a poor puzzle to learn from, and seconds to rate (each guess follows
                // a failed search of nested nets). Clues given back while singles up to
                // unfair techniques still stall leave a puzzle that needs forcing chains
                // rather than guesses, at one bounded rating per clue; the full rating goes on
                // from where the last one stalled (measured, CPU over 100 puzzles: median
                // 688 -> 82-94 ms across runs, p95 11.8 s -> under 200 ms). A minimal 16x16
                // needs some twenty forcing chains, each after every other search has failed,
                // which is most of its rating (see `soften_misses`).
                let minimal = reduce(ctx, &solution, solution.clone(), rng, Keep::Unique);
                let (givens, stalled) = self.soften(ctx, &solution, minimal, rng)?;
                let rating = rating::rate_after(&solution, stalled);
                return self.finish(ctx, givens, solution, rating);
            } else {
                reduce(ctx, &solution, solution.clone(), rng, Keep::Unique)
            };
        // Only "at most the target" matters until a puzzle is kept, so the rater stops as
        // soon as it passes the target (the level and score only grow along the path).
        let rating = match ctx.rate(&givens, &solution, self.opts.level)? {
            Bounded::Within(r) => r,
            Bounded::Above => {
                // Too hard: give clues back until the level drops to the target.
                let (g, r) = self.descend(ctx, &solution, givens, rng)?;
                givens = g;
                r
            }
        };
        self.finish(ctx, givens, solution, rating)
    }

    /// The puzzle when its rating is wanted.
    fn finish(
        &self,
        ctx: &Ctx,
        givens: Vec<u8>,
        solution: Vec<u8>,
        rating: Rated,
    ) -> Option<(Puzzle, Vec<u8>, Rated)> {
        if !self.wanted(&rating) {
            return None;
        }
        let mut puzzle = ctx.puzzle(givens)?;
        puzzle.difficulty = Some(level_name(rating.level).to_string());
        Some((puzzle, solution, rating))
    }

    /// Removes orbits (random order) from a puzzle rated below the target, keeping each
    /// removal that stays unique and at most the target, until one reaches the target.
    fn climb(
        &self,
        ctx: &Ctx,
        solution: &[u8],
        mut givens: Vec<u8>,
        rng: &mut Rng,
    ) -> Option<(Vec<u8>, Rated)> {
        for orbit in ctx.shuffled_orbits(rng, |o| o.iter().any(|&c| givens[c] != 0)) {
            let saved: Vec<u8> = orbit.iter().map(|&c| givens[c]).collect();
            for &c in orbit {
                givens[c] = 0;
            }
            if ctx.count(&givens) == 1 {
                if let Some(Bounded::Within(r)) = ctx.rate(&givens, solution, self.opts.level) {
                    if self.wanted(&r) {
                        return Some((givens, r));
                    }
                    continue;
                }
            }
            for (&c, &d) in orbit.iter().zip(&saved) {
                givens[c] = d;
            }
        }
        None
    }

    /// Gives clues of the solution back to a puzzle that needs a step above unfair (an orbit
    /// at a time, random order, [`DESCEND_ORBITS`] tries, [`Generator::soften_misses`] of them
    /// in vain),
    /// keeping each after which it still does; with the path the techniques up to unfair make
    /// before they stall. None when it does not need such a step to begin with.
    fn soften(
        &self,
        ctx: &Ctx,
        solution: &[u8],
        mut givens: Vec<u8>,
        rng: &mut Rng,
    ) -> Option<(Vec<u8>, rating::Stalled)> {
        let stall = |givens: &[u8]| {
            ctx.puzzle(givens.to_vec())
                .and_then(|p| rating::stall_within(&p, solution, Level::Unfair))
        };
        let mut stalled = stall(&givens)?;
        let mut misses = 0;
        let max_misses = self.soften_misses();
        let empty = ctx.shuffled_orbits(rng, |o| o.iter().all(|&c| givens[c] == 0));
        for orbit in empty.into_iter().take(DESCEND_ORBITS) {
            // Cells the techniques fill before they stall change nothing as clues.
            if orbit.iter().all(|&c| !stalled.open(c)) {
                continue;
            }
            for &c in orbit {
                givens[c] = solution[c];
            }
            match stall(&givens) {
                Some(path) => stalled = path,
                None => {
                    for &c in orbit {
                        givens[c] = 0;
                    }
                    misses += 1;
                    if misses == max_misses {
                        break;
                    }
                }
            }
        }
        Some((givens, stalled))
    }

    /// Clues [`Generator::soften`] tries in vain before it stops. On a 16x16 each try walks
    /// the path up to a stall that costs more than a 9x9 rating, while the first clues kept
    /// take most of the forcing chains off the path (measured, CPU median over 20 extreme
    /// 16x16 puzzles, a run each: 1.03 s minimal, 1.04 s at 8 misses, 0.65-0.83 s at 2).
    fn soften_misses(&self) -> usize {
        if self.opts.size == 16 {
            2
        } else {
            SOFTEN_MISSES
        }
    }

    /// Adds solution clues (an orbit at a time, random order) to a too-hard puzzle until its
    /// rating is the target; an orbit that makes it too easy is taken back.
    fn descend(
        &self,
        ctx: &Ctx,
        solution: &[u8],
        mut givens: Vec<u8>,
        rng: &mut Rng,
    ) -> Option<(Vec<u8>, Rated)> {
        let empty = ctx.shuffled_orbits(rng, |o| o.iter().all(|&c| givens[c] == 0));
        for orbit in empty.into_iter().take(DESCEND_ORBITS) {
            for &c in orbit {
                givens[c] = solution[c];
            }
            if let Bounded::Within(r) = ctx.rate(&givens, solution, self.opts.level)? {
                if self.wanted(&r) {
                    return Some((givens, r));
                }
                // Past the target (hard straight to too easy is common for unfair): take
                // this orbit back and try the next one.
                for &c in orbit {
                    givens[c] = 0;
                }
            }
        }
        None
    }
}

/// Salt of [`Generator::sample`]'s streams, so that samples differ from the puzzles of the
/// same seed.
const SAMPLE_SALT: u64 = 0x5eed_d1a1;

/// A layout's context: the generator's fixed one, or a fresh one (jigsaw, killer).
enum Layouted<'a> {
    Fixed(&'a Ctx),
    Own(Box<Ctx>),
}

impl std::ops::Deref for Layouted<'_> {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        match self {
            Layouted::Fixed(c) => c,
            Layouted::Own(c) => c,
        }
    }
}

/// The level just below, if any.
fn below(level: Level) -> Option<Level> {
    let i = LEVELS.iter().position(|&l| l == level)?;
    i.checked_sub(1).map(|j| LEVELS[j])
}

/// Cage lengths per level: bigger cages have more digit combinations, so they leave more
/// for the solver to work out.
fn cage_lengths(level: Level) -> (usize, usize) {
    match level {
        Level::Easy => (2, 3),
        Level::Medium => (2, 4),
        Level::Hard => (2, 5),
        Level::Unfair => (3, 5),
        Level::Extreme => (3, 6),
    }
}

/// What a clue removal must preserve.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// A unique solution.
    Unique,
    /// Solvable by naked and hidden singles (which implies a unique solution).
    Singles,
    /// Unique and rated at most this level.
    AtMost(Level),
}

/// Removes clues an orbit at a time in random order, keeping each removal that preserves
/// `keep`.
fn reduce(ctx: &Ctx, solution: &[u8], mut givens: Vec<u8>, rng: &mut Rng, keep: Keep) -> Vec<u8> {
    for orbit in ctx.shuffled_orbits(rng, |_| true) {
        if orbit.iter().all(|&c| givens[c] == 0) {
            continue;
        }
        let saved: Vec<u8> = orbit.iter().map(|&c| givens[c]).collect();
        for &c in orbit {
            givens[c] = 0;
        }
        let ok = match keep {
            Keep::Unique => ctx.count(&givens) == 1,
            Keep::Singles => ctx.singles.solve(&givens).is_some(),
            Keep::AtMost(level) => {
                ctx.count(&givens) == 1
                    && matches!(ctx.rate(&givens, solution, level), Some(Bounded::Within(_)))
            }
        };
        if !ok {
            for (&c, &d) in orbit.iter().zip(&saved) {
                givens[c] = d;
            }
        }
    }
    givens
}

#[cfg(test)]
mod tests;
