//! Forcing chains and forcing nets: assume a candidate true (or false), follow what
//! singles force, and keep what every branch agrees on or what ends in a contradiction.
//!
//! * Contradiction: `x` true leads to an impossible grid, so `x` goes; `x` false does, so
//!   `x` is placed.
//! * Verity: both states of a candidate, every candidate of a cell, or every place of a
//!   digit in a `Complete` house lead to the same fact, so that fact holds.
//!
//! A *chain* follows only single-premise inferences (a placement removes peers; a cell or
//! house that had exactly two candidates at the start places the other one), so its proof
//! reads as one line. A *net* uses the current state (a cell whose other candidates were
//! removed by several earlier facts), and, when plain nets find nothing, nests one level:
//! inside a branch, every candidate whose own net ends in a contradiction is removed too.
//! That costs a net per candidate per branch, so on plain grids a cheap level comes first:
//! a candidate goes when what its net is already known to imply clashes with the branch (bit
//! sets). On runs and cages the nested level itself comes at once, trying first the digits
//! with the fewest places left, then what earlier branches removed most often (issue 22:
//! faster there, see [`SCAN_AFTER`]). What nested branches proved on earlier positions of
//! the puzzle is kept (`nest_memory`), since the hardest grids need them step after step.
//! Nets are bounded (node count per branch, nesting only on request) and come last in the
//! table, after every cheaper technique.
//!
//! Propagation places digits through peers (every house holds distinct digits), finds
//! hidden singles in `Complete` houses, and applies the cheap rule of every run and cage:
//! a digit no feasible run or combination holds goes, a digit every one holds (must
//! appear) with one place left is placed there, and a house with no feasible set left (or
//! no place for a must-appear digit) is a contradiction. Each such node names its house.

//!
//! Files: `engine` (propagation of one branch), `nesting` (nested levels), `deep` (a second
//! nested level, honeycombs only, last before a guess), `known` (the known-net index of
//! cheap nesting), `search` (assumptions, contradictions and verities), `bound` (forcing
//! chains ruled out by the nets), `text` (traces and step text; chain text shared with
//! `chains` is in `chain_text`).

mod bound;
mod deep;
mod engine;
mod groups;
mod known;
mod nesting;
mod run_cases;
mod search;
#[cfg(test)]
mod tests;
mod text;

use super::nest_memory;
use super::rule_memo::{self, RuleOut, RuleSig};
use super::run_rule;
use super::{
    Candidate, CellSet, Ctx, Detail, Highlight, LinkKind, Pattern, Role, Sink, Step, Target,
    TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use crate::solver::logic::step::{effect_text, Because, ChainNode};
use crate::solver::rules::viable_edges;
use known::Known;
use search::{remembered, search};
use std::ops::ControlFlow;
use std::rc::Rc;

/// Text of a forcing step: run forcing has its own.
pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    match step.pattern {
        Pattern::RunCases { .. } => run_cases::explain(step, g, detail),
        _ => text::explain(step, g, detail),
    }
}

/// A fact: candidate `(cell, digit)` is true (`on`) or false.
type Fact = u32;

fn fact(cell: Cell, digit: u8, on: bool) -> Fact {
    ((cell as u32) * 32 + u32::from(digit)) * 2 + u32::from(on)
}

fn unfact(f: Fact) -> (Cell, u8, bool) {
    ((f / 64) as usize, ((f / 2) % 32) as u8, f % 2 == 1)
}

impl Branch {
    /// Where `f`'s parent is kept in `parent`.
    fn slot(&self, f: Fact) -> usize {
        (f as usize / 64) * self.stride + f as usize % 64
    }

    /// The parent of `f` (`UNSET` when the branch did not derive it).
    fn parent_of(&self, f: Fact) -> u32 {
        match self.parent.get(self.slot(f)) {
            Some(&PACKED_NONE) => NONE,
            Some(&PACKED_UNSET) | None => UNSET,
            Some(&p) => u32::from(p),
        }
    }

    fn set_parent(&mut self, f: Fact, p: u32) {
        let i = self.slot(f);
        self.parent[i] = match p {
            UNSET => PACKED_UNSET,
            NONE => PACKED_NONE,
            // Facts of 256 cells (and 9x9's group nodes) stay under 2^14.
            _ => u16::try_from(p).unwrap_or(PACKED_UNSET),
        };
    }
}

/// Parent of a fact not derived in a branch.
const UNSET: u32 = u32::MAX;
/// Parent of an assumption.
const NONE: u32 = u32::MAX - 1;
/// The two as a branch keeps them (its parents are 16 bits: the table is cleared for every
/// branch, and half the size is half the clearing).
const PACKED_UNSET: u16 = u16::MAX;
const PACKED_NONE: u16 = u16::MAX - 1;

/// How a branch is propagated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Single-premise inferences only (forcing chain).
    Chain,
    /// Inferences on the current state (forcing net).
    Net,
    /// Net, plus removal of candidates whose known net clashes with the branch (a nested
    /// net whose inner nets are the ones already derived: see [`Engine::nest_known`]).
    Known,
    /// Net, plus removal of candidates whose own net is contradictory (nested net).
    Nested,
}

/// One branch: the candidate state after an assumption and the facts it derived.
#[derive(Clone)]
struct Branch {
    cand: Vec<Digits>,
    value: Vec<u8>,
    /// `open[d]`: empty cells still holding `d`; `placed[d]`: cells holding `d`.
    open: Vec<CellSet>,
    placed: Vec<CellSet>,
    /// Parent fact of each derived fact (`NONE` for the assumption; a nested removal has the
    /// assumption as its parent), at [`Branch::slot`].
    parent: Vec<u16>,
    /// Slots per cell in `parent`: two per digit the grid uses. Every branch starts with
    /// all of them unset, so a tight table is less to clear (a 9x9 clears a third of a
    /// table with the 64 slots per cell a fact's number spans).
    stride: usize,
    derived: Vec<Fact>,
    /// Facts made by a run or cage rule or by a nested net (few: searched linearly).
    why: Vec<(Fact, Because)>,
    /// Runs and cages touched since their rule last ran, with the last fact that touched
    /// them (nets only).
    dirty: Vec<(HouseId, Fact)>,
    /// The fact at which the grid broke, and why.
    contradiction: Option<(Fact, String)>,
    /// Scratch space of the run and cage rules (kept to save allocations).
    effects: Vec<Effect>,
    /// Per house, its masks packed (see [`closed_key`]) when its rule last ran and its
    /// effects were applied, 0 when unknown: asked again on the same masks, the rule
    /// would find nothing (the cells' masks are then exactly the ones it allowed).
    closed: Vec<u128>,
    /// After a nested level: per candidate left, the houses its inner net touched and where
    /// it ended (see [`Engine::nest`]).
    inner: nest_memory::Inner,
}

impl Branch {
    /// `o`'s candidate state, with no facts of its own: enough for an inner net, whose
    /// verdict is all that is read (the parents, 15 KB on a honeycomb, are not copied).
    fn copy_state_from(&mut self, o: &Branch) {
        self.cand.clone_from(&o.cand);
        self.value.clone_from(&o.value);
        self.open.clone_from(&o.open);
        self.placed.clone_from(&o.placed);
        self.derived.clear();
        self.why.clear();
        self.dirty.clone_from(&o.dirty);
        self.closed.clone_from(&o.closed);
        self.contradiction.clone_from(&o.contradiction);
    }
}

/// How a nested level's branch came to be.
#[derive(Clone, Copy)]
enum Start<'s> {
    /// The plain net of its assumption: inner verdicts are those of pairs of assumptions,
    /// shared across branches.
    Plain,
    /// From where the same branch ended on an earlier position (see [`nest_memory`]): `inner`
    /// is what that nested level left (per candidate, the houses its inner net touched),
    /// `at` where the branch's facts beyond that state start, `new` the houses they and the
    /// candidates the position lost since touch.
    From {
        inner: &'s nest_memory::Inner,
        at: usize,
        new: u128,
    },
    /// A branch with facts beyond its assumption's net (a deep branch's inner one): no
    /// verdict of a pair of assumptions may be recorded from it.
    Deep,
}

/// The plain nets of one position, by assumed fact, kept in the position's
/// [`Cache`](super::Cache): a net depends on the position and its assumption alone, and
/// the searches of a position ask for the same ones (the forcing-chain bound, the plain
/// net search, then each known-nesting and nested branch, which starts from its plain net).
///
/// Nets are shared, not copied: a search that only reads a net (the forcing-chain bound,
/// the plain net search, which keeps every branch for its verities) takes the kept one;
/// a nested level copies it before it grows it. Copying each net out and in was about 5%
/// of a hard honeycomb's rating (perf on hc25: memcpy, malloc and free of a branch per
/// ask, from `PlainNets::get` and `put`). With the packed rule answers (see
/// `push_packed` in the engine), issue 22, alternated on one core
/// (`taskset -c 1 termdoku rate --variant honeycomb /work/hc25.txt`, base then this):
/// 63.64/59.30, 74.00/64.85, 63.51/59.75 s (1.06-1.14x); the first 50 lines of
/// `hanicue-hard.txt` 125.4 -> 104.3 s; output identical.
#[derive(Default)]
pub(crate) struct PlainNets(std::cell::RefCell<Vec<Option<Rc<Branch>>>>);

impl PlainNets {
    /// The net of `f`, when kept.
    fn get(&self, f: Fact) -> Option<Rc<Branch>> {
        let kept = self.0.borrow();
        kept.get(f as usize)?.clone()
    }

    /// Keeps the net of `f` (on a grid of `cells` cells).
    fn put(&self, cells: usize, f: Fact, b: &Rc<Branch>) {
        let mut kept = self.0.borrow_mut();
        if kept.is_empty() {
            kept.resize(cells * 64, None);
        }
        if let Some(slot) = kept.get_mut(f as usize) {
            *slot = Some(Rc::clone(b));
        }
    }
}

/// A conclusion of a run or cage rule.
#[derive(Clone, Copy)]
enum Effect {
    Off(Cell, u8),
    On(Cell, u8),
    /// No feasible set is left.
    Broken,
}

/// A run or cage: the digit sets it may hold (consecutive windows, sum combinations).
struct Special {
    sig: RuleSig,
    sets: Vec<u16>,
    /// What the house holds, for the text of a contradiction.
    what: &'static str,
}

pub(super) struct Engine<'a> {
    ctx: &'a Ctx<'a>,
    complete: Vec<bool>,
    /// Runs and cages by house id (`None` for complete houses).
    special: Vec<Option<Special>>,
    /// Runs and cages of each cell.
    special_of: Vec<Vec<HouseId>>,
    start_cand: &'a [Digits],
    /// Cells holding each digit at the start.
    placed: Vec<CellSet>,
    /// Chain-mode rule results by (fact, house): they depend on the start state only.
    /// Hashed by foldhash: SipHash was 2% of a hard honeycomb's rating (keys are ours).
    memo: std::cell::RefCell<
        std::collections::HashMap<(Fact, HouseId), Vec<Effect>, foldhash::fast::FixedState>,
    >,
    /// Per cell, the houses it lies in, as bits (None over 128 houses).
    house_bits: Option<Vec<u128>>,
    /// Chains for Kraken fish: a placement also records its cell's other candidates as
    /// gone, so a hidden single can follow from them (HoDoKu's `r1c1=5 -> r1c1<>4 -> r1c2=4`).
    cell_links: bool,
    /// Per candidate (`cell * 32 + digit`), the houses its plain net from the start
    /// touched (all bits until that net is known): see [`Engine::nest`].
    touch: std::cell::RefCell<Vec<u128>>,
    /// Dense index of each candidate (`cell * 32 + digit`) of the start, and their count.
    dense: Vec<u16>,
    dense_len: usize,
    /// The candidate of each dense index.
    dense_cand: Vec<(Cell, u8)>,
    /// Whether the nets of two candidates set true together break, when known (`PAIR_*`,
    /// `dense_len` squared, allocated on first use). Nets of every size reach their
    /// fixpoint, so the answer does not depend on which of the two came first.
    pairs: std::cell::RefCell<Vec<u8>>,
    /// Per candidate (`cell * 32 + digit`), the facts of its plain net from the start, when
    /// known and not broken (see [`Engine::inner_net`]).
    nets: std::cell::RefCell<Vec<Option<Vec<Fact>>>>,
    /// Per candidate with a known net, the masks its net ends with (a placed cell as its
    /// single digit): see [`Engine::inner_net`].
    ends: std::cell::RefCell<Vec<Option<Vec<u16>>>>,
    /// Known nets as bit sets, set up by each known-nesting search: see [`Known`].
    known: std::cell::RefCell<Known>,
    /// Group nodes of forcing chains (empty when off): their facts are numbered as cells
    /// past the grid's (see [`groups`]).
    groups: Vec<groups::Group>,
    /// Per house, its groups.
    groups_of_house: Vec<Vec<usize>>,
    /// The group facts each candidate's facts lead to (see [`groups::GroupLinks`]).
    group_links: groups::GroupLinks,
}

/// Sweeps of known-net nesting over every candidate (each learns from the one before).
const KNOWN_SWEEPS: usize = 3;

/// False assumptions a nested search tries without a break before, on finding one, it goes
/// on to find every breaker of the position for the next ones (see [`nest_memory`]).
///
/// Plain grids only. Issue 22, every-25th hard honeycomb (hc25) on one core: with this
/// bound on runs too, these scans were 17.8 s of a 44 s walk. Without them, a position
/// where one to three of some 300 assumptions break is searched again at each following
/// position (warm next-hint p99 17.9 -> 54.7 ms in the old order); but since the nested
/// search there tries the fewest places first and then what earlier branches removed
/// (`search::fewest_places`, `search::Fragile`), it finds such breakers soon, and no scan
/// beat none (side by side, walk s / p99 ms): none 28.6 / 37.3 and 27.3 / 39.4, after 8
/// tries 24.9 / 40.2 and 29.8 / 36.1, after 40 27.5 / 41.4 and 30.3 / 37.7; the whole hard
/// file none 541 s, after 8 tries 564 s. On runs and cages known nesting does not run either
/// (hc25 walk 1.69x with both changes, scores moved by up to about 20%, none guesses).
const SCAN_AFTER: usize = 4;

/// Upper bound on derived facts per branch (keeps nested nets affordable).
const MAX_FACTS: usize = 4000;

const PAIR_UNKNOWN: u8 = 0;
const PAIR_OK: u8 = 1;
const PAIR_BROKEN: u8 = 2;

pub(super) fn is_net(id: &str) -> bool {
    id == "forcing-net"
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if ctx.mem.out_of_time() {
        return ControlFlow::Break(());
    }
    let mut e = Engine::new(ctx);
    // As in HoDoKu's forcing chains, a placement removes its cell's other candidates as
    // links of the chain (r5c4=3 -> r5c4<>4 -> r5c6=4).
    e.cell_links = info.id == "forcing-chain";
    // HoDoKu's path is plain 9x9 only, where every box meets its lines.
    if e.cell_links && ctx.cache.hodoku_path.get() {
        e.use_groups();
    }
    if is_net(info.id) {
        let mut reach = Vec::new();
        search(&e, info, Mode::Net, sink, &mut reach)?;
        // A nested branch known to break costs one branch, the searches below hundreds.
        remembered(&e, info, sink)?;
        // Known nesting, the cheap level, pays only on plain grids: on runs and cages the
        // nested search, in its order there (see `search::order_by_reach`), finds a breaker
        // sooner than known nesting's sweeps end (see [`SCAN_AFTER`] for the figures).
        if ctx.t.all_complete {
            search(&e, info, Mode::Known, sink, &mut reach)?;
        }
        search(&e, info, Mode::Nested, sink, &mut reach)
    } else if matches!(info.id, "run-forcing" | "nested-run-forcing") {
        run_cases::find(&e, info, sink)
    } else if info.id == "deep-forcing-net" {
        deep::find(&e, info, sink)
    } else if info.id == "forcing-chain" {
        if bound::chains_barren(ctx) {
            return ControlFlow::Continue(());
        }
        search(&e, info, Mode::Chain, sink, &mut Vec::new())
    } else {
        ControlFlow::Continue(())
    }
}

/// What single assumptions imply by forcing chains (single-premise inferences only), for
/// Kraken fish, whose fins and base candidates are linked to a target by such chains.
pub(super) struct ChainImplications<'a>(Engine<'a>);

impl<'a> ChainImplications<'a> {
    pub(super) fn new(ctx: &'a Ctx<'a>) -> ChainImplications<'a> {
        let mut e = Engine::new(ctx);
        e.cell_links = true;
        ChainImplications(e)
    }

    /// Per digit (index 0 unused), the cells that lose it when `x` is set.
    pub(super) fn offs(&self, x: Candidate) -> Vec<CellSet> {
        let b = self.0.branch(fact(x.cell, x.digit, true), Mode::Chain);
        let mut out = vec![CellSet::EMPTY; usize::from(self.0.ctx.geo.max_digit()) + 1];
        for &f in &b.derived {
            let (c, d, on) = unfact(f);
            if let (false, Some(s)) = (on, out.get_mut(usize::from(d))) {
                s.insert(c);
            }
        }
        out
    }

    /// The chain from `x` set to `y` gone, with the run or cage of each node's inference
    /// (empty when `x` does not reach it).
    pub(super) fn chain(
        &self,
        x: Candidate,
        y: Candidate,
    ) -> (Vec<ChainNode>, Vec<Option<Because>>) {
        let b = self.0.branch(fact(x.cell, x.digit, true), Mode::Chain);
        let f = fact(y.cell, y.digit, false);
        if b.parent_of(f) == UNSET {
            return (Vec::new(), Vec::new());
        }
        self.0.trace_rules(&b, f)
    }
}
