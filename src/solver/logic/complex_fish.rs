//! Franken and mutant fish (with fins), up to size 4 (finned mutant fish up to 7): base and cover sets taken from any
//! `Complete` houses, not only two classes of parallel lines.
//!
//! n base houses hold the digit n times (in distinct cells unless a cell lies in two base
//! houses: an endo fin); if every base candidate outside the fins lies in the n cover
//! houses, each cover holds one of them, so the covers' other candidates go (and base
//! candidates in two covers: cannibalism). With fins, only targets seeing every fin go.
//! Franken: bases from one line class plus boxes, covers from another plus boxes; mutant:
//! anything else that is not a basic fish.

use super::{CellSet, Ctx, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{Cell, Digits, HouseId};
use std::ops::ControlFlow;

/// HoDoKu's defaults: at most five fins, two of them endo fins.
const MAX_FINS: u32 = 5;
const MAX_ENDO: u32 = 2;
/// Cover-search nodes per digit, technique and position for the techniques the solver
/// tries by default (keeps stuck positions cheap).
const BUDGET: usize = 100_000;
/// The techniques only run on request (finned mutant jellyfish and larger, Franken
/// jellyfish) share one budget of base and cover nodes over all digits: about a second of
/// search on a fresh 9x9 (release build), where an unbounded search took 3-10 s. A fish
/// past the budget is missed, as the technique page says.
pub const BUDGET_ON_REQUEST: usize = 6_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Franken,
    Mutant,
    /// Kraken fish: basic or Franken fish (HoDoKu's default Kraken search), whose fins
    /// leave nothing to eliminate without chains.
    Kraken,
}

/// HoDoKu's Kraken search: fish of two to four houses, at most two fins, no endo fins.
const KRAKEN_SIZES: std::ops::RangeInclusive<usize> = 2..=4;
const KRAKEN_FINS: u32 = 2;

/// How far a bounded search got: base sets tried (or ruled out) of all there are. Set
/// when the on-request budget ran out before the search was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    pub done: u64,
    pub total: u64,
    /// What was counted ("base sets", "start sets").
    pub unit: &'static str,
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if info.id.starts_with("siamese-") {
        return super::fish::siamese(ctx, info, sink);
    }
    if info.id == "kraken-fish" {
        return super::kraken::find(ctx, info, sink);
    }
    let (n, finned, kind) = match info.id {
        "franken-x-wing" => (2, false, Kind::Franken),
        "franken-swordfish" => (3, false, Kind::Franken),
        "franken-jellyfish" => (4, false, Kind::Franken),
        "finned-franken-x-wing" => (2, true, Kind::Franken),
        "finned-franken-swordfish" => (3, true, Kind::Franken),
        "finned-franken-jellyfish" => (4, true, Kind::Franken),
        "mutant-x-wing" => (2, false, Kind::Mutant),
        "mutant-swordfish" => (3, false, Kind::Mutant),
        "mutant-jellyfish" => (4, false, Kind::Mutant),
        "finned-mutant-x-wing" => (2, true, Kind::Mutant),
        "finned-mutant-swordfish" => (3, true, Kind::Mutant),
        "finned-mutant-jellyfish" => (4, true, Kind::Mutant),
        "finned-mutant-squirmbag" => (5, true, Kind::Mutant),
        "finned-mutant-whale" => (6, true, Kind::Mutant),
        "finned-mutant-leviathan" => (7, true, Kind::Mutant),
        _ => return ControlFlow::Continue(()),
    };
    // A fish as large as the grid, less two lines, says nothing its smaller complement
    // does not (HoDoKu's seven-line leviathan is for 9x9); on small grids they only cost.
    if n + 2 > usize::from(ctx.geo.max_digit()) {
        return ControlFlow::Continue(());
    }
    // Scaled as the ALS chains' budgets: a 16x16 has 16 digits of far larger searches, and
    // a search that finds nothing would cost each of its steps many times a 9x9 one.
    let per_digit = super::als::per_grid(ctx, BUDGET);
    let budget = Budget::new(if info.enabled {
        per_digit
    } else {
        BUDGET_ON_REQUEST
    });
    for digit in 1..=ctx.geo.max_digit() {
        if info.enabled {
            budget.left.set(per_digit);
        }
        let shape = Shape {
            n,
            finned,
            kind,
            max_fins: MAX_FINS,
            max_endo: MAX_ENDO,
        };
        // Its own memory use (not `digit_local`): only a search its budget did not cut
        // short is remembered.
        let key = info.enabled.then(|| super::digit_key(ctx, info.id, digit));
        if key.as_ref().is_some_and(|k| ctx.mem.is_barren(k)) {
            continue;
        }
        let ran_out_before = budget.ran_out.replace(false);
        let mut found = false;
        let mut counting = |step: Step| {
            found = true;
            sink(step)
        };
        let flow = search_digit(ctx, info, digit, shape, &budget, None, &mut counting);
        let ran_out = budget.ran_out.get();
        budget.ran_out.set(ran_out_before || ran_out);
        flow?;
        // A search cut short by its budget depends on its order (which may follow the
        // solution), so only a complete one is remembered.
        if let (Some(k), false, false) = (key, found, ran_out) {
            ctx.mem.remember_barren(k);
        }
    }
    budget.report(ctx);
    ControlFlow::Continue(())
}

/// A search's node budget and how many base sets it got through.
pub(super) struct Budget {
    left: std::cell::Cell<usize>,
    done: std::cell::Cell<u64>,
    total: std::cell::Cell<u64>,
    ran_out: std::cell::Cell<bool>,
}

impl Budget {
    pub(super) fn new(nodes: usize) -> Budget {
        Budget {
            left: std::cell::Cell::new(nodes),
            done: std::cell::Cell::new(0),
            total: std::cell::Cell::new(0),
            ran_out: std::cell::Cell::new(false),
        }
    }

    /// A fresh share of nodes (for the next digit).
    pub(super) fn refill(&self, nodes: usize) {
        self.left.set(nodes);
    }

    /// Takes one node; false when none is left.
    fn take(&self) -> bool {
        match self.left.get() {
            0 => {
                self.ran_out.set(true);
                false
            }
            b => {
                self.left.set(b - 1);
                true
            }
        }
    }

    /// Tells the position's cache how far the search got, when it did not finish.
    pub(super) fn report(&self, ctx: &Ctx) {
        if self.ran_out.get() {
            ctx.cache.searched.set(Some(Searched {
                done: self.done.get().min(self.total.get()),
                total: self.total.get(),
                unit: "base sets",
            }));
        }
    }
}

/// `k`-subsets of `n` items (saturating).
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k) as u64;
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n as u64 - i) / (i + 1);
    }
    r
}

/// What fish a search looks for.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    n: usize,
    finned: bool,
    kind: Kind,
    max_fins: u32,
    max_endo: u32,
}

impl Shape {
    /// Kraken fish of `n` houses.
    pub(super) fn kraken(n: usize) -> Shape {
        Shape {
            n,
            finned: true,
            kind: Kind::Kraken,
            max_fins: KRAKEN_FINS,
            max_endo: 0,
        }
    }

    pub(super) fn sizes() -> std::ops::RangeInclusive<usize> {
        KRAKEN_SIZES
    }
}

/// Every fish of one digit and shape; `offs` (Kraken only): per cell holding the digit, the
/// cells each digit leaves when that candidate is set (forcing chains).
pub(super) fn search_digit(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    digit: u8,
    shape: Shape,
    budget: &Budget,
    offs: Option<&[Vec<CellSet>]>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let all = ctx.digit[usize::from(digit)];
    if all.is_empty() {
        return ControlFlow::Continue(());
    }
    let blocks: Vec<HouseId> = ctx
        .t
        .complete
        .iter()
        .copied()
        .filter(|&h| ctx.t.line_class[h].is_none())
        .collect();
    let useful = |h: &HouseId| !ctx.where_in(*h, digit).is_empty();
    // The digit's candidates per house, looked up at every node of the cover search.
    let cands: Vec<CellSet> = ctx.t.house_sets.iter().map(|s| s.and(all)).collect();
    // Franken needs two line classes; the line classes and blocks come from the tables.
    let pools: Vec<(Vec<HouseId>, Vec<HouseId>)> = match shape.kind {
        Kind::Franken | Kind::Kraken => {
            let mut v = Vec::new();
            for (i, (_, a)) in ctx.t.lines.iter().enumerate() {
                for (j, (_, b)) in ctx.t.lines.iter().enumerate() {
                    if i != j {
                        let base = a.iter().chain(&blocks).copied().filter(useful).collect();
                        let cover = b.iter().chain(&blocks).copied().filter(useful).collect();
                        v.push((base, cover));
                    }
                }
            }
            v
        }
        Kind::Mutant => {
            let every: Vec<HouseId> = ctx.t.complete.iter().copied().filter(useful).collect();
            vec![(every.clone(), every)]
        }
    };
    for (base_pool, _) in &pools {
        let t = budget.total.get();
        budget
            .total
            .set(t.saturating_add(binomial(base_pool.len(), shape.n)));
    }
    let job = Job {
        ctx,
        info,
        digit,
        shape,
        budget,
        offs,
        pools: &pools,
    };
    // Grids of up to 128 cells search on 128-bit sets (half the work of the general ones
    // at every node); Kraken fish keep the general sets their chains read.
    if ctx.geo.cell_count() <= 128 && offs.is_none() {
        let small: Vec<Small> = cands.iter().map(|&c| Small::of(c)).collect();
        let peers: Vec<Small> = ctx.t.peers.iter().map(|&c| Small::of(c)).collect();
        let sets = Sets {
            all: Small::of(all),
            cands: &small,
            peers: &peers,
            full: &cands,
        };
        return pools_search(&job, sets, sink);
    }
    let sets = Sets {
        all,
        cands: &cands,
        peers: &ctx.t.peers,
        full: &cands,
    };
    pools_search(&job, sets, sink)
}

/// What one digit's search was asked, with the house pools made for it.
struct Job<'a, 'c> {
    ctx: &'a Ctx<'c>,
    info: &'static TechniqueInfo,
    digit: u8,
    shape: Shape,
    budget: &'a Budget,
    offs: Option<&'a [Vec<CellSet>]>,
    pools: &'a [(Vec<HouseId>, Vec<HouseId>)],
}

/// The digit's sets as a search reads them: in its set type (`cands`, `peers`), and as
/// cell sets (`full`) for the steps and Kraken chains.
#[derive(Clone, Copy)]
struct Sets<'a, S> {
    all: S,
    cands: &'a [S],
    peers: &'a [S],
    full: &'a [CellSet],
}

fn pools_search<S: Bits>(job: &Job, sets: Sets<S>, sink: &mut Sink) -> ControlFlow<()> {
    let (ctx, shape, budget) = (job.ctx, job.shape, job.budget);
    let open_cover: Vec<std::cell::Cell<bool>> = vec![Default::default(); ctx.t.house_sets.len()];
    for (base_pool, cover_pool) in job.pools {
        open_cover.iter().for_each(|x| x.set(false));
        for &h in cover_pool {
            open_cover[h].set(true);
        }
        let s = Search {
            ctx,
            info: job.info,
            digit: job.digit,
            n: shape.n,
            finned: shape.finned,
            kind: shape.kind,
            max_fins: shape.max_fins,
            max_endo: shape.max_endo,
            sets,
            open_cover: &open_cover,
            budget,
            offs: job.offs,
        };
        let mut base = Vec::with_capacity(shape.n);
        let mut covers = Vec::with_capacity(shape.n);
        s.bases(base_pool, 0, &mut base, &mut covers, S::NONE, S::NONE, sink)?;
    }
    ControlFlow::Continue(())
}

/// The fins so far and the non-base candidates that see all of them (kept along the
/// search so that adding a fin costs one intersection).
#[derive(Clone, Copy)]
struct Fins<S> {
    set: S,
    seen: S,
    /// How many cells `set` holds.
    count: u32,
    /// The fins that are not endo fins.
    exo: S,
}

/// What stays fixed while the covers of one base set are searched.
struct BaseSet<'b, S> {
    base: &'b [HouseId],
    union: S,
    endo: S,
}

/// The set operations of the search, on [`CellSet`] or (grids of up to 128 cells) [`Small`].
trait Bits: Copy {
    const NONE: Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn is_empty(self) -> bool;
    fn first(self) -> Option<Cell>;
    fn insert(&mut self, c: Cell);
    fn len(self) -> u32;
    fn cells(self) -> CellSet;
}

impl Bits for CellSet {
    const NONE: Self = CellSet::EMPTY;
    fn and(self, o: Self) -> Self {
        CellSet::and(self, o)
    }
    fn or(self, o: Self) -> Self {
        CellSet::or(self, o)
    }
    fn minus(self, o: Self) -> Self {
        CellSet::minus(self, o)
    }
    fn is_empty(self) -> bool {
        CellSet::is_empty(&self)
    }
    fn first(self) -> Option<Cell> {
        CellSet::first(&self)
    }
    fn insert(&mut self, c: Cell) {
        CellSet::insert(self, c)
    }
    fn len(self) -> u32 {
        CellSet::len(&self)
    }
    fn cells(self) -> CellSet {
        self
    }
}

/// A set of cells below 128.
#[derive(Clone, Copy)]
struct Small(u128);

impl Small {
    fn of(s: CellSet) -> Small {
        Small(u128::from(s.0[0]) | u128::from(s.0[1]) << 64)
    }
}

impl Bits for Small {
    const NONE: Self = Small(0);
    fn and(self, o: Self) -> Self {
        Small(self.0 & o.0)
    }
    fn or(self, o: Self) -> Self {
        Small(self.0 | o.0)
    }
    fn minus(self, o: Self) -> Self {
        Small(self.0 & !o.0)
    }
    fn is_empty(self) -> bool {
        self.0 == 0
    }
    fn first(self) -> Option<Cell> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }
    fn insert(&mut self, c: Cell) {
        if c < 128 {
            self.0 |= 1 << c;
        }
    }
    fn len(self) -> u32 {
        self.0.count_ones()
    }
    fn cells(self) -> CellSet {
        // Truncation keeps each 64-bit half.
        CellSet([self.0 as u64, (self.0 >> 64) as u64, 0, 0])
    }
}

struct Search<'a, 'c, S> {
    ctx: &'a Ctx<'c>,
    info: &'static TechniqueInfo,
    digit: u8,
    n: usize,
    finned: bool,
    kind: Kind,
    max_fins: u32,
    max_endo: u32,
    sets: Sets<'a, S>,
    /// Cover pool membership by house id.
    /// Per house: in the cover pool and neither a base nor a cover yet (kept as houses are
    /// taken and given back).
    open_cover: &'a [std::cell::Cell<bool>],
    budget: &'a Budget,
    offs: Option<&'a [Vec<CellSet>]>,
}

impl<S: Bits> Search<'_, '_, S> {
    #[inline]
    fn cands(&self, h: HouseId) -> S {
        self.sets.cands[h]
    }

    /// `covers`: scratch space for the cover search (empty between base sets).
    #[allow(clippy::too_many_arguments)]
    fn bases(
        &self,
        pool: &[HouseId],
        from: usize,
        base: &mut Vec<HouseId>,
        covers: &mut Vec<HouseId>,
        union: S,
        endo: S,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        if base.len() == self.n {
            let mut seen = self.sets.all.minus(union);
            for c in endo.cells().iter() {
                seen = seen.and(self.sets.peers[c]);
            }
            let fins = Fins {
                set: endo,
                seen,
                count: endo.len(),
                exo: S::NONE,
            };
            let b = BaseSet { base, union, endo };
            let r = self.covers(&b, covers, S::NONE, &fins, sink);
            covers.clear();
            if !self.budget.ran_out.get() {
                self.budget.done.set(self.budget.done.get() + 1);
            }
            return r;
        }
        // Base sets below a choice ruled out count as searched.
        let left = self.n - base.len() - 1;
        let skipped = |i: usize| binomial(pool.len() - i - 1, left);
        for i in from..pool.len() {
            // Base choices count against the budget too: with five to seven bases they are
            // most of the work.
            if !self.budget.take() {
                return ControlFlow::Continue(());
            }
            let h = pool[i];
            let c = self.cands(h);
            let e = endo.or(union.and(c));
            let max_endo = if self.finned { self.max_endo } else { 0 };
            if e.len() > max_endo {
                self.budget.done.set(self.budget.done.get() + skipped(i));
                continue;
            }
            // Kraken fish eliminate where the fins need not be seen: no pruning on sight.
            if !e.is_empty() && self.kind != Kind::Kraken {
                let mut seen = self.sets.all.minus(union.or(c));
                for f in e.cells().iter() {
                    seen = seen.and(self.sets.peers[f]);
                }
                if seen.is_empty() {
                    self.budget.done.set(self.budget.done.get() + skipped(i));
                    continue;
                }
            }
            base.push(h);
            let was_open = self.open_cover[h].replace(false);
            let flow = self.bases(pool, i + 1, base, covers, union.or(c), e, sink);
            self.open_cover[h].set(was_open);
            flow?;
            base.pop();
        }
        ControlFlow::Continue(())
    }

    /// Covers the first uncovered base candidate by each cover house holding it, or (finned)
    /// declares it a fin.
    fn covers(
        &self,
        b: &BaseSet<S>,
        covers: &mut Vec<HouseId>,
        covered: S,
        fin: &Fins<S>,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        if !self.budget.take() {
            return ControlFlow::Continue(());
        }
        let open = b.union.minus(covered).minus(fin.set).first();
        let Some(x) = open else {
            if covers.len() == self.n {
                return self.leaf(b, covers, covered, sink);
            }
            return ControlFlow::Continue(());
        };
        if covers.len() < self.n {
            for &h in self.ctx.geo.houses_of(x) {
                // A cover holding a cell already set aside as a fin repeats the branch
                // that covered that cell instead.
                if !self.open_cover[h].get() || !self.cands(h).and(fin.exo).is_empty() {
                    continue;
                }
                covers.push(h);
                self.open_cover[h].set(false);
                let cov = covered.or(self.cands(h));
                let flow = self.covers(b, covers, cov, fin, sink);
                self.open_cover[h].set(true);
                flow?;
                covers.pop();
            }
        }
        if self.finned && fin.count < self.max_fins {
            // Targets (outside the base; cannibal ones are left out here) must see every
            // fin: stop as soon as no candidate does (Kraken fish link them by chains).
            let seen = fin.seen.and(self.sets.peers[x]);
            if !seen.is_empty() || self.kind == Kind::Kraken {
                let mut next = Fins {
                    set: fin.set,
                    seen,
                    count: fin.count + 1,
                    exo: fin.exo,
                };
                next.set.insert(x);
                next.exo.insert(x);
                self.covers(b, covers, covered, &next, sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn leaf(
        &self,
        b: &BaseSet<S>,
        covers: &[HouseId],
        covered: S,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        let (base, union, endo) = (b.base, b.union.cells(), b.endo.cells());
        let covered = covered.cells();
        // Fins are what the covers miss, plus endo fins; a fin branch that a later cover
        // covered anyway is the same fish as the branch covering it.
        let fins = union.minus(covered).or(endo);
        if self.finned == fins.is_empty() || !self.classified(base, covers) {
            return ControlFlow::Continue(());
        }
        let mut twice = CellSet::EMPTY;
        let mut seen = CellSet::EMPTY;
        for &h in covers {
            let c = self.sets.full[h];
            twice = twice.or(seen.and(c));
            seen = seen.or(c);
        }
        let mut targets = covered.minus(union).or(twice.and(union).minus(fins));
        for f in fins.iter() {
            targets = targets.and(self.ctx.t.peers[f]);
        }
        if let Some(offs) = self.offs {
            // A Kraken fish is a finned fish with nothing to eliminate by itself.
            if !targets.is_empty() {
                return ControlFlow::Continue(());
            }
            let fish = super::kraken::Fish {
                digit: self.digit,
                base,
                covers,
                union,
                fins,
                twice: twice.and(union),
                cands: self.sets.full,
            };
            return super::kraken::at_fish(self.ctx, self.info, &fish, offs, sink);
        }
        if targets.is_empty() {
            return ControlFlow::Continue(());
        }
        let fin_list = fins.to_vec();
        let mut step = Step::new(
            self.info,
            Pattern::Fish {
                digit: self.digit,
                base: base.to_vec(),
                cover: covers.to_vec(),
                fins: fin_list.clone(),
            },
        )
        .eliminate(self.ctx.elims(targets, self.digit));
        for &h in base {
            step = step.house(h, Role::Base);
        }
        for &h in covers {
            step = step.house(h, Role::Cover);
        }
        let body: Vec<Cell> = union.minus(fins).to_vec();
        let d = Digits::single(self.digit);
        sink(
            step.candidates(&body, d, Role::Defining)
                .candidates(&fin_list, d, Role::Fin),
        )
    }

    /// Franken: bases in one line class plus blocks, covers in another plus blocks, and
    /// not a basic fish; mutant: neither.
    fn classified(&self, base: &[HouseId], covers: &[HouseId]) -> bool {
        let t = &self.ctx.t;
        let class_of = |hs: &[HouseId]| -> (Option<Option<super::LineClass>>, bool) {
            // (the single line class used, if any; whether a block is used)
            let mut cls: Option<Option<super::LineClass>> = None;
            let mut block = false;
            for &h in hs {
                match t.line_class[h] {
                    None => block = true,
                    Some(c) => match cls {
                        None => cls = Some(Some(c)),
                        Some(Some(o)) if o == c => {}
                        _ => cls = Some(None),
                    },
                }
            }
            (cls, block)
        };
        let (bc, bb) = class_of(base);
        let (cc, cb) = class_of(covers);
        let mixed = matches!(bc, Some(None)) || matches!(cc, Some(None));
        let same = matches!((bc, cc), (Some(Some(a)), Some(Some(b))) if a == b);
        let franken = !mixed && !same && (bb || cb);
        match self.kind {
            Kind::Franken => franken,
            // Basic or Franken (the pools allow nothing else).
            Kind::Kraken => !mixed && !same,
            Kind::Mutant => {
                let basic = !bb && !cb && !mixed && !same;
                !franken && !basic
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{elims, reglib};

    #[test]
    fn franken_swordfish_uses_a_box_as_a_cover() {
        let g = reglib(
            ".6.8.27352.76354.8385.7.26.5.6.8.3.7..876315.73.25.6848.2..657.65...78..173528946",
            "415 136 442 144 952 474 184 484",
        );
        assert!(elims(&g, "franken-swordfish").contains(&"913".to_string()));
        // Not a basic fish: the basic search finds nothing there.
        assert!(!elims(&g, "swordfish").contains(&"913".to_string()));
    }

    #[test]
    fn finned_franken_x_wing_hits_only_cells_seeing_the_fin() {
        let g = reglib(
            "4.392..5659...6...6..85..4.1.5.9846.9.426.5...6.5.4...25...9683849632715..6.85294",
            "328 829 759 367 867 269 769",
        );
        assert!(elims(&g, "finned-franken-x-wing").contains(&"129".to_string()));
    }

    #[test]
    fn finned_mutant_jellyfish() {
        let g = reglib(
            "....27.3+9+3.164+9+2...9+2..+5..+6+13.9...28+9.8..+26+1..+25..13+9...+9+2.8.5+3.....39622.+3.+9...1",
            "447 772 781 782 792 892",
        );
        assert!(elims(&g, "finned-mutant-jellyfish").contains(&"417".to_string()));
    }
}
