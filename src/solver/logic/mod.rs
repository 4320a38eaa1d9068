//! The human-style solver: one file per technique family, each with pure `find` functions
//! over a read-only [`Grid`] that report [`Step`]s; applying a step is a separate call.
//!
//! Adding a family: one file with `find(ctx, info, sink)` and `explain(step, g, detail)`,
//! rows in [`techniques`], and one arm in [`find_with`] and [`explain_step`].

pub mod als;
pub mod cages;
pub mod chain_text;
pub mod chains;
mod choice;
pub mod coloring;
pub mod complex_fish;
pub mod fish;
pub mod forcing;
pub mod intersections;
pub mod kraken;
pub mod matching;
mod memory;
mod nest_memory;
mod rule_memo;
mod run_fish;
mod run_rule;
mod run_sets;
pub mod runs;
pub mod single_digit;
pub mod singles;
mod singles_queue;
pub mod step;
pub mod subsets;
pub mod sue_de_coq;
pub mod techniques;
pub mod templates;
pub mod uniqueness;
pub mod wings;

pub use crate::solver::rules::must_appear;
pub use memory::SolverMemory;
pub use step::{Candidate, ChainNode, Detail, Highlight, LinkKind, Pattern, Role, Step, Target};
pub use techniques::{
    by_hodoku_code, parse_technique, technique, techniques, Family, TechniqueInfo, UnknownTechnique,
};

use crate::geometry::{Cell, Digits, Geometry, HouseId, HouseKind, Rule};
use crate::puzzle::Grid;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A cell's candidates as a mask, its digit alone once placed (matching and run checks
/// treat placed and open cells alike).
pub(crate) fn mask(ctx: &Ctx, c: Cell) -> u16 {
    match ctx.grid.value(c) {
        0 => ctx.cand[c].0,
        v => Digits::single(v).0,
    }
}

/// Eliminations of every candidate of `cells[i]` outside `keep[i]` (open cells only).
pub(crate) fn elims_outside(ctx: &Ctx, cells: &[Cell], keep: &[u16]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        if ctx.grid.value(c) == 0 {
            for d in Digits(ctx.cand[c].0 & !keep[i]).iter() {
                out.push(Candidate::new(c, d));
            }
        }
    }
    out
}

/// Where a family reports its steps: `Break` stops the search (first step wanted).
pub type Sink<'s> = dyn FnMut(Step) -> ControlFlow<()> + 's;

/// A set of cells as a bitmask (grids of up to 256 cells).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct CellSet(pub(super) [u64; 4]);

impl CellSet {
    pub const EMPTY: CellSet = CellSet([0; 4]);

    pub fn from_cells(cells: impl IntoIterator<Item = Cell>) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in cells {
            s.insert(c);
        }
        s
    }
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        if c < 256 {
            self.0[c >> 6] |= 1 << (c & 63);
        }
    }
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        if c < 256 {
            self.0[c >> 6] &= !(1 << (c & 63));
        }
    }
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        c < 256 && self.0[c >> 6] & (1 << (c & 63)) != 0
    }
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        // One test of the words' union (the array comparison tested word by word).
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline]
    pub fn and(self, o: CellSet) -> CellSet {
        CellSet([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
    #[inline]
    pub fn or(self, o: CellSet) -> CellSet {
        CellSet([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
    #[inline]
    pub fn minus(self, o: CellSet) -> CellSet {
        CellSet([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }
    #[inline]
    pub fn is_subset(self, o: CellSet) -> bool {
        self.minus(o).is_empty()
    }
    #[inline]
    pub fn first(&self) -> Option<Cell> {
        let w = &self.0;
        if w[0] != 0 {
            Some(w[0].trailing_zeros() as usize)
        } else if w[1] != 0 {
            Some(64 + w[1].trailing_zeros() as usize)
        } else if w[2] != 0 {
            Some(128 + w[2].trailing_zeros() as usize)
        } else if w[3] != 0 {
            Some(192 + w[3].trailing_zeros() as usize)
        } else {
            None
        }
    }
    #[inline]
    pub fn iter(&self) -> CellIter {
        CellIter {
            words: self.0,
            word: 0,
        }
    }
    pub fn to_vec(self) -> Vec<Cell> {
        self.iter().collect()
    }
}

pub struct CellIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for CellIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

/// Lines of one direction (rows, columns, honeycomb `/` and `\` lines): the base and cover
/// sets of fish and the parallel lines of skyscrapers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineClass {
    Row,
    Column,
    Forward,
    Backward,
}

/// Per-geometry tables, built once and shared (building them costs more than a step).
pub struct Tables {
    pub house_sets: Vec<CellSet>,
    pub peers: Vec<CellSet>,
    /// `Complete` houses: exactly one of each digit.
    pub complete: Vec<HouseId>,
    /// Complete lines grouped by direction.
    pub lines: Vec<(LineClass, Vec<HouseId>)>,
    /// Ordered pairs of houses that share at least two cells.
    pub overlaps: Vec<(HouseId, HouseId, CellSet)>,
    /// True when every house is `Complete` (deadly patterns and BUG arguments hold).
    pub all_complete: bool,
    /// The direction of each house that is a complete line (indexed by house id): the hot
    /// loops of fish and single-digit patterns ask this per pair of houses, so it is a table
    /// lookup rather than a search of `lines`.
    pub line_class: Vec<Option<LineClass>>,
    /// Every complete line, in the order of `lines` flattened.
    pub all_lines: Vec<HouseId>,
    /// Per house (indexed by id): the lines of `all_lines` that cross it, in that order.
    pub crossing_lines: Vec<Vec<HouseId>>,
    /// `line_pos[i][cell]`: the position in `lines[i]` of the line through `cell`
    /// (`u8::MAX` for none or past 64): fish find the cover lines a base line meets by cell.
    pub line_pos: Vec<Vec<u8>>,
    /// Rectangles of deadly shape (filled lazily; see `uniqueness`).
    pub(crate) rectangles: std::sync::OnceLock<Vec<[Cell; 4]>>,
    /// Line pairs and triples of run enumeration (filled lazily; see `run_sets`).
    pub(crate) run_pairs: std::sync::OnceLock<run_sets::Shapes>,
}

impl Tables {
    fn build(g: &Geometry) -> Tables {
        let house_sets: Vec<CellSet> = g
            .houses()
            .iter()
            .map(|h| CellSet::from_cells(h.cells.iter().copied()))
            .collect();
        let peers = g
            .cells()
            .map(|c| CellSet::from_cells(g.peers(c).iter().copied()))
            .collect();
        let complete: Vec<HouseId> = (0..g.houses().len())
            .filter(|&h| g.house(h).rule == Rule::Complete)
            .collect();
        let mut lines: Vec<(LineClass, Vec<HouseId>)> = Vec::new();
        for &h in &complete {
            let class = match g.house(h).kind {
                HouseKind::Row(_) => LineClass::Row,
                HouseKind::Column(_) => LineClass::Column,
                HouseKind::Forward(_) => LineClass::Forward,
                HouseKind::Backward(_) => LineClass::Backward,
                _ => continue,
            };
            match lines.iter_mut().find(|(c, _)| *c == class) {
                Some((_, v)) => v.push(h),
                None => lines.push((class, vec![h])),
            }
        }
        let mut overlaps = Vec::new();
        for a in 0..house_sets.len() {
            for b in 0..house_sets.len() {
                if a != b {
                    let i = house_sets[a].and(house_sets[b]);
                    if i.len() >= 2 {
                        overlaps.push((a, b, i));
                    }
                }
            }
        }
        let mut line_class = vec![None; house_sets.len()];
        for (class, hs) in &lines {
            for &h in hs {
                line_class[h] = Some(*class);
            }
        }
        let all_lines: Vec<HouseId> = lines.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        let line_pos = lines
            .iter()
            .map(|(_, hs)| {
                let mut pos = vec![u8::MAX; g.cell_count()];
                for (i, &h) in hs.iter().enumerate().take(64) {
                    for c in house_sets[h].iter() {
                        if let Some(p) = pos.get_mut(c) {
                            *p = i as u8;
                        }
                    }
                }
                pos
            })
            .collect();
        let crossing_lines = house_sets
            .iter()
            .map(|s| {
                let crosses = |l: &&HouseId| !house_sets[**l].and(*s).is_empty();
                all_lines.iter().filter(crosses).copied().collect()
            })
            .collect();
        Tables {
            house_sets,
            peers,
            line_class,
            all_lines,
            crossing_lines,
            line_pos,
            all_complete: complete.len() == g.houses().len(),
            complete,
            lines,
            overlaps,
            rectangles: std::sync::OnceLock::new(),
            run_pairs: std::sync::OnceLock::new(),
        }
    }
}

/// What every family reads: the grid, its geometry, and per-digit cell sets.
pub struct Ctx<'a> {
    pub grid: &'a Grid,
    pub geo: &'a Geometry,
    pub t: Arc<Tables>,
    /// Candidates of empty cells; empty for filled cells.
    pub cand: Vec<Digits>,
    /// `digit[d]`: empty cells holding candidate `d` (index 0 unused).
    pub digit: Vec<CellSet>,
    pub empty: CellSet,
    /// The known solution, when the caller has one: searches may use it to order their
    /// work (never to decide a step, whose proof stays logical).
    pub solution: Option<&'a [u8]>,
    /// Per-position data that several techniques share, built on first use.
    pub(crate) cache: Cache,
    /// What the walk remembers from earlier positions (see [`SolverMemory`]).
    pub(crate) mem: &'a SolverMemory,
}

/// Lazily built per-position data (one position is searched by every technique in turn).
#[derive(Default)]
pub(crate) struct Cache {
    /// Unique-rectangle candidates: open rectangles and digit pairs that every UR type
    /// starts from.
    pub rectangles: std::cell::OnceCell<Vec<([Cell; 4], Digits)>>,
    /// Finned and sashimi fish of sizes 2, 3 and 4, in search order.
    pub finned_fish: [std::cell::OnceCell<Vec<Step>>; 3],
    /// The implication graph of nice loops and AICs: plain, grouped, grouped with ALS nodes.
    pub chain_graphs: [std::cell::OnceCell<chains::Graph>; 3],
    /// Strong links per digit (the single-digit patterns).
    pub strong_links: std::cell::OnceCell<Vec<Option<single_digit::Strong>>>,
    /// Conjugate-pair clusters per digit (the colouring techniques).
    pub clusters: std::cell::OnceCell<Vec<Vec<coloring::Cluster>>>,
    /// Almost locked sets and their links, collected on first use by the ALS family.
    pub als: std::cell::OnceCell<Arc<als::Index>>,
    /// Houses with the digits each must still hold (see [`Ctx::strong_houses`]).
    pub strong_houses: std::cell::OnceCell<Vec<(HouseId, Digits)>>,
    /// Set by a bounded on-request search (large complex fish, Kraken fish) whose budget
    /// ran out: how far it got, so the answer can say it is incomplete.
    pub searched: std::cell::Cell<Option<complex_fish::Searched>>,
    /// Set while the next step is chosen on HoDoKu's solving path (plain 9x9): searches
    /// leave out the instances HoDoKu's solving path never considers (ALS steps through
    /// overlapping sets, ALS chains backwards), which its all-steps search does find.
    pub hodoku_path: std::cell::Cell<bool>,
    /// The plain forcing nets of the position, made once for every forcing search on it.
    pub forcing_nets: forcing::PlainNets,
}

impl<'a> Ctx<'a> {
    pub fn new(grid: &'a Grid, mem: &'a SolverMemory) -> Ctx<'a> {
        let geo = grid.geometry();
        let t = mem.tables(&grid.geometry_arc());
        let n = geo.cell_count();
        let mut cand = vec![Digits::EMPTY; n];
        let mut digit = vec![CellSet::EMPTY; usize::from(geo.max_digit()) + 1];
        let mut empty = CellSet::EMPTY;
        for (c, slot) in cand.iter_mut().enumerate() {
            if grid.value(c) == 0 {
                let m = grid.candidates(c);
                *slot = m;
                empty.insert(c);
                for d in m.iter() {
                    if let Some(s) = digit.get_mut(usize::from(d)) {
                        s.insert(c);
                    }
                }
            }
        }
        Ctx {
            grid,
            geo,
            t,
            cand,
            digit,
            empty,
            solution: None,
            cache: Cache::default(),
            mem,
        }
    }

    /// The same position with its known solution (see [`Ctx::solution`]); a solution of
    /// the wrong length is ignored.
    pub fn with_solution(mut self, solution: Option<&'a [u8]>) -> Ctx<'a> {
        self.solution = solution.filter(|s| s.len() == self.geo.cell_count());
        self
    }

    /// The position's almost locked sets and their links (built once, shared by the ALS
    /// techniques).
    pub fn als_index(&self) -> Arc<als::Index> {
        Arc::clone(
            self.cache
                .als
                .get_or_init(|| Arc::new(als::Index::build(self))),
        )
    }

    /// Empty cells of house `h` holding `d`.
    #[inline]
    pub fn where_in(&self, h: HouseId, d: u8) -> CellSet {
        self.digit[usize::from(d)].and(self.t.house_sets[h])
    }

    /// Houses with the unplaced digits each must hold: every digit of a `Complete` house, and
    /// for runs and cages the digits every feasible run or combination holds. A digit with
    /// two places in such a house gives a strong link, whatever the rule of the house.
    pub fn strong_houses(&self) -> &[(HouseId, Digits)] {
        self.cache.strong_houses.get_or_init(|| {
            let complete = self.t.complete.iter().map(|&h| (h, self.geo.all_digits()));
            let special = (0..self.geo.houses().len())
                .filter(|&h| self.geo.house(h).rule != Rule::Complete)
                .map(|h| {
                    let must = must_appear(self.grid, self.geo.house(h));
                    (h, must.without(self.placed_in(h)))
                })
                .filter(|(_, must)| !must.is_empty());
            complete.chain(special).collect()
        })
    }

    /// Digits already placed in house `h`.
    pub fn placed_in(&self, h: HouseId) -> Digits {
        let mut s = Digits::EMPTY;
        for &c in &self.geo.house(h).cells {
            let v = self.grid.value(c);
            if v != 0 {
                s.insert(v);
            }
        }
        s
    }

    /// Cells that see every cell of `cells` (excluding those cells).
    pub fn seen_by_all(&self, cells: &[Cell]) -> CellSet {
        let mut s = match cells.first() {
            Some(&c) => self.t.peers[c],
            None => return CellSet::EMPTY,
        };
        for &c in &cells[1..] {
            s = s.and(self.t.peers[c]);
        }
        s
    }

    /// Eliminations of `d` from `cells` (only where `d` is a candidate).
    pub fn elims(&self, cells: CellSet, d: u8) -> Vec<Candidate> {
        cells
            .and(self.digit[usize::from(d)])
            .iter()
            .map(|c| Candidate::new(c, d))
            .collect()
    }
}

/// Runs one technique, reporting its steps to `sink`.
fn find_with(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.family {
        Family::Singles => singles::find(ctx, info, sink),
        Family::Intersections => intersections::find(ctx, info, sink),
        Family::Subsets => subsets::find(ctx, info, sink),
        Family::Fish => fish::find(ctx, info, sink),
        Family::SingleDigit => single_digit::find(ctx, info, sink),
        Family::Wings => wings::find(ctx, info, sink),
        Family::Coloring => coloring::find(ctx, info, sink),
        Family::Uniqueness => uniqueness::find(ctx, info, sink),
        Family::Runs => runs::find(ctx, info, sink),
        Family::Matching => matching::find(ctx, info, sink),
        Family::Cages => cages::find(ctx, info, sink),
        Family::Forcing => forcing::find(ctx, info, sink),
        Family::Chains => chains::find(ctx, info, sink),
        Family::Als => als::find(ctx, info, sink),
        Family::ComplexFish => complex_fish::find(ctx, info, sink),
        Family::SueDeCoq => sue_de_coq::find(ctx, info, sink),
        Family::Templates => templates::find(ctx, info, sink),
        Family::LastResort => ControlFlow::Continue(()),
    }
}

/// Two steps of one kind as one (dual kites and empty rectangles, Siamese fish): the
/// eliminations of both, the highlights of both.
pub(crate) fn twin(info: &'static TechniqueInfo, a: &Step, b: &Step) -> Step {
    let part = |s: &Step| (s.id(), s.pattern.clone(), s.eliminations.clone());
    let mut step = Step::new(
        info,
        Pattern::Twin {
            parts: vec![part(a), part(b)],
        },
    );
    step.highlights = a
        .highlights
        .iter()
        .chain(&b.highlights)
        .filter(|h| h.role != Role::Elimination)
        .copied()
        .collect();
    let elims = a.eliminations.iter().chain(&b.eliminations).copied();
    step.eliminate(elims.collect())
}

/// "Dual 2-String Kite: two 2-String Kites on 3 at once. First, ...; second, ...".
fn twin_text(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Twin { parts } = &step.pattern else {
        return step.name().to_string();
    };
    let texts: Vec<String> = parts
        .iter()
        .filter_map(|(id, pattern, elims)| {
            let info = technique(id)?;
            let part = Step::new(info, pattern.clone()).eliminate(elims.clone());
            Some(explain_step(&part, g, detail))
        })
        .collect();
    let name = step.name();
    match detail {
        Detail::Nudge => texts.first().cloned().unwrap_or_default(),
        Detail::Technique => format!("There is {} {name}", step::article(name)),
        Detail::Full => format!(
            "{name}, two patterns on the same cells at once. First, {}. Second, {}",
            texts.first().map_or("", |t| t.trim_end_matches('.')),
            texts.get(1).map_or("", |t| t.trim_end_matches('.'))
        ),
    }
}

/// Text of a step, by family.
pub(crate) fn explain_step(step: &Step, g: &Geometry, detail: Detail) -> String {
    if matches!(step.pattern, Pattern::Twin { .. }) {
        return twin_text(step, g, detail);
    }
    match step.technique.family {
        Family::Singles => singles::explain(step, g, detail),
        Family::Intersections => intersections::explain(step, g, detail),
        Family::Subsets => subsets::explain(step, g, detail),
        Family::Fish => fish::explain(step, g, detail),
        Family::SingleDigit => single_digit::explain(step, g, detail),
        Family::Wings => wings::explain(step, g, detail),
        Family::Coloring => coloring::explain(step, g, detail),
        Family::Uniqueness => uniqueness::explain(step, g, detail),
        Family::Runs => runs::explain(step, g, detail),
        Family::Matching => matching::explain(step, g, detail),
        Family::Cages => cages::explain(step, g, detail),
        Family::Forcing => forcing::explain(step, g, detail),
        Family::Chains => chains::explain(step, g, detail),
        Family::Als => als::explain(step, g, detail),
        Family::ComplexFish => fish::explain(step, g, detail),
        Family::SueDeCoq => sue_de_coq::explain(step, g, detail),
        Family::Templates => templates::explain(step, g, detail),
        Family::LastResort => match step.pattern {
            Pattern::Guess { cell, digit } => match detail {
                Detail::Nudge => format!("Look at {}", g.cell_name(cell)),
                Detail::Technique => {
                    "No technique termdoku knows applies here; the next step is a guess".into()
                }
                Detail::Full => format!(
                    "Guess (no known technique applies): the solution has {} in {}",
                    crate::geometry::digit_char(digit),
                    g.cell_name(cell)
                ),
            },
            _ => step.name().to_string(),
        },
    }
}

/// A step is useful only if it changes the grid.
fn useful(grid: &Grid, step: &Step) -> bool {
    step.placements.iter().any(|c| grid.value(c.cell) == 0)
        || step
            .eliminations
            .iter()
            .any(|c| grid.value(c.cell) == 0 && grid.candidates(c.cell).contains(c.digit))
}

/// The simplest available step (table order). When no technique applies and `solution` is
/// given, a clearly labelled `guess` step placing the solution's digit in one cell.
///
/// `memory` carries what earlier positions of the same walk proved: a fresh one gives a
/// step that depends on the position alone (see [`SolverMemory`]).
pub fn next_step(grid: &Grid, solution: Option<&[u8]>, memory: &mut SolverMemory) -> Option<Step> {
    if grid.is_solved() {
        return None;
    }
    memory.singles.get_mut().sync(grid);
    let ctx = Ctx::new(grid, memory).with_solution(solution);
    first_in(&ctx, techniques()).or_else(|| guess(&ctx, solution?))
}

/// The first useful step of the first technique of `table` (in the table's order) that has
/// one, and no guess: the rater's step when only a part of the table may be used.
pub fn first_step(
    grid: &Grid,
    table: &'static [TechniqueInfo],
    solution: Option<&[u8]>,
    memory: &mut SolverMemory,
) -> Option<Step> {
    if grid.is_solved() {
        return None;
    }
    memory.singles.get_mut().sync(grid);
    first_in(&Ctx::new(grid, memory).with_solution(solution), table)
}

fn first_in(ctx: &Ctx, table: &'static [TechniqueInfo]) -> Option<Step> {
    // HoDoKu's solving path is what its ratings are compared on: plain 9x9 only. Elsewhere
    // the first instance found is taken, which keeps the honeycomb and killer nets affordable.
    let sorting = ctx.geo.is_plain_9x9();
    ctx.cache.hodoku_path.set(sorting);
    let found = first_in_order(ctx, table, sorting);
    ctx.cache.hodoku_path.set(false);
    found
}

fn first_in_order(ctx: &Ctx, table: &'static [TechniqueInfo], sorting: bool) -> Option<Step> {
    let enabled: Vec<&'static TechniqueInfo> = table.iter().filter(|t| t.enabled).collect();
    let mut i = 0;
    while let Some(&info) = enabled.get(i) {
        if let Some((order, pool)) = choice::sorted(info).filter(|_| sorting) {
            // Every instance of the pool's techniques, sorted as HoDoKu sorts them.
            let mut all = Vec::new();
            while let Some(&t) = enabled
                .get(i)
                .filter(|t| choice::sorted(t).map(|x| x.1) == Some(pool))
            {
                let _ = find_with(ctx, t, &mut |s: Step| {
                    if useful(ctx.grid, &s) {
                        all.push(s);
                    }
                    ControlFlow::Continue(())
                });
                i += 1;
            }
            if let Some(best) = choice::best(all, order) {
                return Some(best);
            }
            continue;
        }
        i += 1;
        let mut found = None;
        let _ = find_with(ctx, info, &mut |s: Step| {
            if useful(ctx.grid, &s) {
                found = Some(s);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The memory's key of a search of `digit` that depends on its cells alone.
fn digit_key(ctx: &Ctx, technique: &'static str, digit: u8) -> memory::DigitKey {
    memory::DigitKey {
        tables: Arc::as_ptr(&ctx.t) as usize,
        technique,
        digit,
        cells: ctx.digit[usize::from(digit)].0,
    }
}

/// A search of one digit (fish, single-digit patterns, X-chains): when it depends on the
/// digit's cells alone (`local`), skipped if it found nothing on the same cells before and
/// remembered when it runs to the end without a find; else simply run. Most steps leave
/// most digits as they were, so a walk repeats most of these searches unchanged.
fn digit_local(
    ctx: &Ctx,
    technique: &'static str,
    digit: u8,
    local: bool,
    sink: &mut Sink,
    search: impl FnOnce(&mut Sink) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if !local {
        return search(sink);
    }
    let key = digit_key(ctx, technique, digit);
    if ctx.mem.is_barren(&key) {
        return ControlFlow::Continue(());
    }
    let mut found = false;
    let flow = search(&mut |step: Step| {
        found = true;
        sink(step)
    });
    if !found && flow.is_continue() {
        ctx.mem.remember_barren(key);
    }
    flow
}

/// Places the solution's digit in the empty cell with the fewest candidates.
fn guess(ctx: &Ctx, solution: &[u8]) -> Option<Step> {
    let cell = ctx
        .empty
        .iter()
        .filter(|&c| solution.get(c).is_some_and(|&d| d != 0))
        .min_by_key(|&c| ctx.cand[c].len())?;
    let digit = solution[cell];
    Some(
        Step::new(techniques::guess_info(), Pattern::Guess { cell, digit })
            .place(cell, digit)
            .cells(&[cell], Role::Defining),
    )
}

/// Applies a step: placements (clearing peers), then eliminations.
pub fn apply(grid: &mut Grid, step: &Step) {
    let n = grid.geometry().cell_count();
    let max = grid.geometry().max_digit();
    for p in &step.placements {
        if p.cell < n && (1..=max).contains(&p.digit) && grid.value(p.cell) == 0 {
            grid.place(p.cell, p.digit);
        }
    }
    for e in &step.eliminations {
        if e.cell < n && (1..=max).contains(&e.digit) {
            grid.eliminate(e.cell, e.digit);
        }
    }
}

/// The first useful step of one technique that `wanted` accepts, with a fresh memory (the
/// "why?" key asks for a step removing one given candidate).
pub fn find_first(
    grid: &Grid,
    info: &'static TechniqueInfo,
    solution: Option<&[u8]>,
    wanted: &mut dyn FnMut(&Step) -> bool,
) -> Option<Step> {
    let memory = SolverMemory::new();
    let ctx = Ctx::new(grid, &memory).with_solution(solution);
    let mut found = None;
    let _ = find_with(&ctx, info, &mut |s: Step| {
        if useful(grid, &s) && wanted(&s) {
            found = Some(s);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    found
}

/// The first useful step of one technique (enabled or not), with a fresh memory, and, when
/// it found none and its bounded search ran out, how far that search got.
pub fn find_technique(
    grid: &Grid,
    info: &'static TechniqueInfo,
    solution: Option<&[u8]>,
) -> (Option<Step>, Option<complex_fish::Searched>) {
    let memory = SolverMemory::new();
    let ctx = Ctx::new(grid, &memory).with_solution(solution);
    let mut found = None;
    let _ = find_with(&ctx, info, &mut |s: Step| {
        if useful(grid, &s) {
            found = Some(s);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let searched = if found.is_none() {
        ctx.cache.searched.get()
    } else {
        None
    };
    (found, searched)
}

/// All steps of one technique in the current grid (tests, training mode), with a fresh
/// memory. Unknown ids give nothing.
pub fn find_all(grid: &Grid, technique_id: &str) -> Vec<Step> {
    find_all_as(grid, technique_id, false, &SolverMemory::new())
}

/// [`find_all`] as the rating path finds them: on a plain 9x9, with HoDoKu's rules for
/// which instances count (AIC ends, group nodes in forcing chains).
pub fn find_all_on_path(grid: &Grid, technique_id: &str) -> Vec<Step> {
    find_all_as(grid, technique_id, true, &SolverMemory::new())
}

fn find_all_as(grid: &Grid, technique_id: &str, path: bool, memory: &SolverMemory) -> Vec<Step> {
    let Some(info) = technique(technique_id) else {
        return Vec::new();
    };
    let ctx = Ctx::new(grid, memory);
    ctx.cache.hodoku_path.set(path && ctx.geo.is_plain_9x9());
    let mut out = Vec::new();
    let _ = find_with(&ctx, info, &mut |s: Step| {
        if useful(grid, &s) && !out.contains(&s) {
            out.push(s);
        }
        ControlFlow::Continue(())
    });
    out
}

/// Calls `f(combination)` for every `k`-subset of `items` (in lexicographic order) until it
/// breaks.
pub fn combinations<T: Copy>(
    items: &[T],
    k: usize,
    f: &mut dyn FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    combinations_while(items, k, (), &|(), _| Some(()), f)
}

/// Like [`combinations`], for searches that reject a combination once a running value
/// (a union) is too big: `add` extends the value by one item or returns `None`, and no
/// combination through a rejected prefix is visited. The others come in the same order.
pub fn combinations_while<T: Copy, A: Copy>(
    items: &[T],
    k: usize,
    init: A,
    add: &dyn Fn(A, T) -> Option<A>,
    f: &mut dyn FnMut(&[T]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    #[allow(clippy::too_many_arguments)]
    fn rec<T: Copy, A: Copy>(
        items: &[T],
        start: usize,
        cur: &mut [T],
        depth: usize,
        acc: A,
        add: &dyn Fn(A, T) -> Option<A>,
        f: &mut dyn FnMut(&[T]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let k = cur.len();
        if depth == k {
            return f(cur);
        }
        for i in start..items.len() {
            if items.len() - i < k - depth {
                break;
            }
            let Some(next) = add(acc, items[i]) else {
                continue;
            };
            cur[depth] = items[i];
            rec(items, i + 1, cur, depth + 1, next, add, f)?;
        }
        ControlFlow::Continue(())
    }
    if k == 0 || k > items.len() {
        return ControlFlow::Continue(());
    }
    // Small sizes (all the subset techniques) on the stack: this runs per house and call.
    if k <= 8 {
        let mut buf = [items[0]; 8];
        return rec(items, 0, &mut buf[..k], 0, init, add, f);
    }
    rec(items, 0, &mut vec![items[0]; k], 0, init, add, f)
}

/// Box-like houses (boxes, jigsaw regions, cages) versus lines, for naming intersections.
pub fn is_box_like(kind: HouseKind) -> bool {
    matches!(
        kind,
        HouseKind::Box(_) | HouseKind::Region(_) | HouseKind::Cage(_)
    )
}

#[cfg(test)]
mod digit_local_tests {
    use super::testutil::grid;
    use super::*;

    /// Every step of `id` here on the rating path, with `memory` (carried by the caller) or
    /// a fresh one.
    fn steps(grid: &Grid, id: &str, memory: &SolverMemory) -> Vec<Step> {
        find_all_as(grid, id, true, memory)
    }

    /// A digit's search that the memory skips (it found nothing on the same cells before)
    /// would have found nothing: walking hard puzzles, every technique that depends on one
    /// digit's cells finds, at every position, the steps a fresh memory finds.
    #[test]
    fn remembered_barren_digits_hide_no_step() {
        let ids = [
            "x-wing",
            "swordfish",
            "jellyfish",
            "finned-x-wing",
            "sashimi-x-wing",
            "finned-swordfish",
            "sashimi-swordfish",
            "finned-jellyfish",
            "skyscraper",
            "2-string-kite",
            "turbot-fish",
            "empty-rectangle",
            "x-chain",
            "franken-swordfish",
            "finned-franken-swordfish",
        ];
        // Three of top1465's (HoDoKu rates them extreme).
        let lines = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            "8..4.6....3.2..4...4..5..78.69..5.2.3...........6...1752.....3......36.......2..9",
            "..3.5.4..7...6.....5.8...6.5....3..4.1..7..8.2..4....7.4...8.5.....4...9..6.1.2..",
        ];
        let mut compared = 0;
        for line in lines {
            let mut g = grid(line);
            let mut memory = SolverMemory::new();
            for _ in 0..400 {
                for id in ids {
                    let fresh = steps(&g, id, &SolverMemory::new());
                    compared += fresh.len();
                    assert!(
                        steps(&g, id, &memory) == fresh,
                        "{line}: {id} differs with the walk's memory"
                    );
                }
                let Some(step) = next_step(&g, None, &mut memory) else {
                    break;
                };
                apply(&mut g, &step);
            }
        }
        // The walks met these techniques' steps (else the test would say nothing).
        assert!(compared > 50, "only {compared} steps compared");
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    use crate::format::parse_line;
    use crate::puzzle::{Grid, Variant};

    /// A seeded xorshift stream: random test cases that are the same on every run.
    pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// A grid from an 81-character line, candidates filled by the givens only.
    pub fn grid(line: &str) -> Grid {
        let p = parse_line(line.as_bytes(), Variant::Standard, "<test>", 1)
            .unwrap()
            .unwrap();
        Grid::from_puzzle(&p)
    }

    /// A grid from a HoDoKu library case: givens (`+` marks a digit placed while solving,
    /// not given) and deleted candidates (`"436 257"`: 4 from r3c6, 2 from r5c7).
    pub fn reglib(givens: &str, deleted: &str) -> Grid {
        let (mut values, mut given, mut plus) = (Vec::new(), Vec::new(), false);
        for ch in givens.chars() {
            if ch == '+' {
                plus = true;
                continue;
            }
            let d = ch.to_digit(10).unwrap_or(0) as u8;
            values.push(d);
            given.push(d != 0 && !plus);
            plus = false;
        }
        let geometry = std::sync::Arc::new(crate::geometry::square::standard(9).unwrap());
        let mut g = Grid::from_values(geometry, &values).with_givens(&given);
        for item in deleted.split_whitespace() {
            let b = item.as_bytes();
            let cell = usize::from(b[1] - b'1') * 9 + usize::from(b[2] - b'1');
            g.eliminate(cell, b[0] - b'0');
        }
        g
    }

    /// The eliminations of every step of a technique, each in HoDoKu's notation sorted
    /// (`"436 257"` -> `"257 436"`).
    pub fn elims(grid: &Grid, id: &str) -> Vec<String> {
        super::find_all(grid, id)
            .iter()
            .map(|s| {
                let mut v: Vec<String> = s
                    .eliminations
                    .iter()
                    .map(|c| format!("{}{}{}", c.digit, c.cell / 9 + 1, c.cell % 9 + 1))
                    .collect();
                v.sort();
                v.join(" ")
            })
            .collect()
    }

    /// Sets the candidates of named cells (`"r1c1:17 r1c5:17"`).
    pub fn set(grid: &mut Grid, spec: &str) {
        for part in spec.split_whitespace() {
            let (cell, digits) = part.split_once(':').unwrap();
            let c = grid.geometry().parse_cell(cell).unwrap();
            let d = digits.chars().map(|ch| ch as u8 - b'0').collect();
            grid.set_candidates(c, d);
        }
    }
}
