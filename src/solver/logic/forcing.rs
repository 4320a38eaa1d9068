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
//! That costs a net per candidate per branch, so a cheap level comes first: a candidate goes
//! when what its net is already known to imply clashes with the branch (bit sets). What
//! nested branches proved on earlier positions of the puzzle is kept (`nest_memory`), since
//! the hardest grids need them step after step. Nets are bounded (node count per branch,
//! nesting only on request) and come last in the table, after every cheaper technique.
//!
//! Propagation places digits through peers (every house holds distinct digits), finds
//! hidden singles in `Complete` houses, and applies the cheap rule of every run and cage:
//! a digit no feasible run or combination holds goes, a digit every one holds (must
//! appear) with one place left is placed there, and a house with no feasible set left (or
//! no place for a must-appear digit) is a contradiction. Each such node names its house.

use super::nest_memory;
use super::rule_memo::{RuleOut, RuleSig};
use super::run_rule;
use super::step::{effect_text, Because, ChainNode};
use super::{
    Candidate, CellSet, Ctx, Detail, Highlight, LinkKind, Pattern, Role, Sink, Step, Target,
    TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use crate::solver::exact::viable_edges;
use std::ops::ControlFlow;

/// A fact: candidate `(cell, digit)` is true (`on`) or false.
type Fact = u32;

fn fact(cell: Cell, digit: u8, on: bool) -> Fact {
    ((cell as u32) * 32 + u32::from(digit)) * 2 + u32::from(on)
}

fn unfact(f: Fact) -> (Cell, u8, bool) {
    ((f / 64) as usize, ((f / 2) % 32) as u8, f % 2 == 1)
}

/// Parent of a fact not derived in a branch.
const UNSET: u32 = u32::MAX;
/// Parent of an assumption.
const NONE: u32 = u32::MAX - 1;

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
    /// assumption as its parent).
    parent: Vec<u32>,
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
    /// After a nested level: per candidate left (`cell * 32 + digit`), the houses its inner
    /// net touched (see [`Engine::nest`]).
    inner: Vec<(usize, u128)>,
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
        inner: &'s [(usize, u128)],
        at: usize,
        new: u128,
    },
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

struct Engine<'a> {
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
    memo: std::cell::RefCell<std::collections::HashMap<(Fact, HouseId), Vec<Effect>>>,
    /// Per cell, the houses it lies in, as bits (None over 128 houses).
    house_bits: Option<Vec<u128>>,
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
    /// Known nets as bit sets, set up by each known-nesting search: see [`Known`].
    known: std::cell::RefCell<Known>,
}

/// What setting each candidate true is known to imply (its plain net from the start, then
/// its known-net branch), as bit sets over the dense candidates of the start: per candidate,
/// `words` words of facts on, then `words` words of facts off. All zero when unknown.
///
/// A sweep reads `sets` and learns into `next`, so that what it finds does not depend on the
/// order of its branches (which a known solution changes).
///
/// `by`: the same read the other way, for the sweep's `sets`: per candidate, `words` words of
/// the candidates whose known net places it, then `words` of those whose net removes it. A
/// branch that removes a candidate clashes with every net that places it, and the other
/// way round: a few rows per fact of the branch instead of a test per candidate.
#[derive(Default)]
struct Known {
    sets: Vec<u64>,
    next: Vec<u64>,
    by: Vec<u64>,
    words: usize,
}

impl Known {
    /// Fills `by` from `sets`.
    fn transpose(&mut self) {
        let w = self.words;
        // No known nets (none were set up, e.g. a 16x16 start over the dense limit).
        if w == 0 {
            self.by.clear();
            return;
        }
        self.by.clear();
        self.by.resize(self.sets.len(), 0);
        for (row, chunk) in self.sets.chunks(w).enumerate() {
            // Row `2y` holds what y's net places, `2y + 1` what it removes.
            let (y, half) = (row / 2, row % 2);
            for (k, &word) in chunk.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let z = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.by[(z * 2 + half) * w + y / 64] |= 1 << (y % 64);
                }
            }
        }
    }

    /// The candidates whose known net clashes with candidate `z` being true (`on`: their
    /// net removes it) or false (their net places it).
    fn clashing(&self, z: usize, on: bool) -> &[u64] {
        let row = z * 2 + usize::from(on);
        &self.by[row * self.words..(row + 1) * self.words]
    }
}

/// Sweeps of known-net nesting over every candidate (each learns from the one before).
const KNOWN_SWEEPS: usize = 3;

/// False assumptions a nested search tries without a break before, on finding one, it goes
/// on to find every breaker of the position for the next ones (see [`nest_memory`]).
const SCAN_AFTER: usize = 4;

/// Upper bound on derived facts per branch (keeps nested nets affordable).
const MAX_FACTS: usize = 4000;

const PAIR_UNKNOWN: u8 = 0;
const PAIR_OK: u8 = 1;
const PAIR_BROKEN: u8 = 2;

impl<'a> Engine<'a> {
    fn new(ctx: &'a Ctx<'a>) -> Engine<'a> {
        let mut complete = vec![false; ctx.geo.houses().len()];
        for &h in &ctx.t.complete {
            complete[h] = true;
        }
        let n = ctx.geo.max_digit();
        let mut special_of = vec![Vec::new(); ctx.geo.cell_count()];
        let special = ctx
            .geo
            .houses()
            .iter()
            .enumerate()
            .map(|(h, house)| {
                let len = house.cells.len();
                let (sets, what, sig) = match house.rule {
                    // Plain grids keep to singles (their nets are fast enough as they are);
                    // beside runs and cages, complete houses get the matching too.
                    Rule::Complete if ctx.t.all_complete => return None,
                    Rule::Complete => (
                        vec![ctx.geo.all_digits().0],
                        "set of distinct digits",
                        (0, len as u8, n, 0),
                    ),
                    Rule::ConsecutiveRun => (
                        (1..=(usize::from(n) + 1).saturating_sub(len))
                            .map(|lo| Digits::range(lo as u8, (lo + len - 1) as u8).0)
                            .collect(),
                        "run",
                        (1, len as u8, n, 0),
                    ),
                    Rule::Cage { sum } => (
                        crate::solver::exact::combinations(n, len, sum),
                        "digit set adding up to its sum",
                        (2, len as u8, n, sum as u16),
                    ),
                };
                if len > 16 || ctx.t.house_sets[h].and(ctx.empty).is_empty() {
                    return None;
                }
                for &c in &house.cells {
                    special_of[c].push(h);
                }
                Some(Special { sig, sets, what })
            })
            .collect();
        let mut placed = vec![CellSet::EMPTY; usize::from(n) + 1];
        for c in 0..ctx.geo.cell_count() {
            if let Some(s) = placed.get_mut(usize::from(ctx.grid.value(c))) {
                s.insert(c);
            }
        }
        // Pairs are only known for grids whose nets cannot hit `MAX_FACTS` (a cut-off net is
        // not a fixpoint).
        let mut dense = vec![u16::MAX; ctx.geo.cell_count() * 32];
        let mut dense_cand = Vec::new();
        if ctx.geo.cell_count() * usize::from(n) * 2 <= MAX_FACTS {
            for c in ctx.empty.iter() {
                for d in ctx.cand[c].iter() {
                    dense[c * 32 + usize::from(d)] = dense_cand.len() as u16;
                    dense_cand.push((c, d));
                }
            }
        }
        let dense_len = dense_cand.len();
        Engine {
            placed,
            ctx,
            complete,
            special,
            special_of,
            memo: Default::default(),
            start_cand: &ctx.cand,
            house_bits: (ctx.geo.houses().len() <= 128).then(|| {
                (0..ctx.geo.cell_count())
                    .map(|c| {
                        ctx.geo
                            .houses_of(c)
                            .iter()
                            .fold(0u128, |m, &h| m | 1u128 << h)
                    })
                    .collect()
            }),
            touch: std::cell::RefCell::new(vec![u128::MAX; ctx.geo.cell_count() * 32]),
            dense,
            dense_len,
            dense_cand,
            pairs: Default::default(),
            nets: std::cell::RefCell::new(vec![None; ctx.geo.cell_count() * 32]),
            known: Default::default(),
        }
    }

    fn root(&self) -> Branch {
        let n = self.ctx.geo.cell_count();
        Branch {
            cand: self.ctx.cand.clone(),
            value: (0..n).map(|c| self.ctx.grid.value(c)).collect(),
            open: self.ctx.digit.clone(),
            placed: self.placed.clone(),
            parent: vec![UNSET; n * 64],
            derived: Vec::new(),
            why: Vec::new(),
            dirty: Vec::new(),
            contradiction: None,
            effects: Vec::new(),
            inner: Vec::new(),
        }
    }

    /// Records a fact (if new) and its immediate effect on the state; false on contradiction.
    fn derive(&self, b: &mut Branch, f: Fact, parent: u32, queue: &mut Vec<Fact>) {
        if b.contradiction.is_some() {
            return;
        }
        let (c, d, on) = unfact(f);
        let g = self.ctx.geo;
        if on {
            if b.value[c] == d {
                return;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d) {
                b.parent[f as usize] = parent;
                b.contradiction = Some((
                    f,
                    format!("{} cannot hold {}", g.cell_name(c), digit_char(d)),
                ));
                return;
            }
            b.value[c] = d;
            b.placed[usize::from(d)].insert(c);
            for e in b.cand[c].iter() {
                b.open[usize::from(e)].remove(c);
            }
        } else {
            if b.value[c] == d {
                b.parent[f as usize] = parent;
                b.contradiction = Some((
                    f,
                    format!("{} would lose its digit {}", g.cell_name(c), digit_char(d)),
                ));
                return;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d) {
                return;
            }
            b.cand[c].remove(d);
            b.open[usize::from(d)].remove(c);
            if b.cand[c].is_empty() {
                b.parent[f as usize] = parent;
                b.contradiction = Some((f, format!("{} has no candidate left", g.cell_name(c))));
                return;
            }
        }
        b.parent[f as usize] = parent;
        b.derived.push(f);
        queue.push(f);
    }

    /// Follows the consequences of the queued facts.
    fn run(&self, b: &mut Branch, queue: &mut Vec<Fact>, mode: Mode) {
        let g = self.ctx.geo;
        let mut head = 0;
        loop {
            if head == queue.len() && b.contradiction.is_none() {
                // Nets: the rules of the runs and cages touched, once the singles are done.
                let mut dirty = std::mem::take(&mut b.dirty);
                for (h, last) in dirty.drain(..) {
                    self.house_rule(b, h, last, false, queue);
                }
                b.dirty = dirty;
            }
            if head >= queue.len() || b.contradiction.is_some() {
                return;
            }
            if b.derived.len() > MAX_FACTS {
                return;
            }
            let f = queue[head];
            head += 1;
            let (c, d, on) = unfact(f);
            for &h in &self.special_of[c] {
                if mode == Mode::Chain {
                    self.house_rule(b, h, f, true, queue);
                } else {
                    match b.dirty.iter_mut().find(|(k, _)| *k == h) {
                        Some(slot) => slot.1 = f,
                        None => b.dirty.push((h, f)),
                    }
                }
            }
            if on {
                for e in b.cand[c].iter() {
                    if e != d {
                        self.derive(b, fact(c, e, false), f, queue);
                    }
                }
                b.cand[c] = Digits::single(d);
                for &p in g.peers(c) {
                    if b.value[p] == d {
                        b.parent[fact(p, d, true) as usize] = f;
                        b.contradiction = Some((
                            f,
                            format!("{} already holds {}", g.cell_name(p), digit_char(d)),
                        ));
                        return;
                    }
                    if b.value[p] == 0 && b.cand[p].contains(d) {
                        self.derive(b, fact(p, d, false), f, queue);
                    }
                }
            } else {
                // Naked single.
                if b.value[c] == 0 && b.cand[c].len() == 1 {
                    let simple = self.start_cand[c].len() == 2;
                    if mode != Mode::Chain || simple {
                        if let Some(e) = b.cand[c].first() {
                            self.derive(b, fact(c, e, true), f, queue);
                        }
                    }
                }
                // Hidden singles in the complete houses of the cell.
                for &h in g.houses_of(c) {
                    if !self.complete[h] || b.contradiction.is_some() {
                        continue;
                    }
                    self.hidden(b, h, d, f, mode, queue);
                }
            }
        }
    }

    /// The rule of run or cage `h` after fact `f`: on the branch's state (nets), or on the
    /// starting candidates with `f` alone applied (`single`: chains stay single-premise;
    /// such results do not depend on the branch, so they are computed once per search).
    fn house_rule(&self, b: &mut Branch, h: HouseId, f: Fact, single: bool, q: &mut Vec<Fact>) {
        if b.contradiction.is_some() || self.special[h].is_none() {
            return;
        }
        let mut effects = std::mem::take(&mut b.effects);
        effects.clear();
        if single {
            let key = (f, h);
            let mut memo = self.memo.borrow_mut();
            let e = memo.entry(key).or_insert_with(|| {
                let mut out = Vec::new();
                self.rule_effects(h, &self.start_masks(h, f), &mut out);
                out
            });
            effects.extend_from_slice(e);
        } else {
            let cells = &self.ctx.geo.house(h).cells;
            let mut masks = [0u16; 16];
            for (m, &c) in masks.iter_mut().zip(cells) {
                *m = match b.value[c] {
                    0 => b.cand[c].0,
                    v => Digits::single(v).0,
                };
            }
            self.rule_effects(h, &masks[..cells.len()], &mut effects);
        }
        for &e in &effects {
            if b.contradiction.is_some() {
                break;
            }
            match e {
                Effect::Off(c, d) => self.derive_by(b, fact(c, d, false), f, h, q),
                Effect::On(c, d) => self.derive_by(b, fact(c, d, true), f, h, q),
                Effect::Broken => {
                    let what = self.special[h].as_ref().map_or("", |s| s.what);
                    let name = super::step::house_name(self.ctx.geo, h);
                    b.contradiction = Some((f, format!("{name} can hold no {what}")));
                }
            }
        }
        b.effects = effects;
    }

    /// The masks of house `h`'s cells at the start with fact `f` applied.
    fn start_masks(&self, h: HouseId, f: Fact) -> Vec<u16> {
        let (fc, fd, fon) = unfact(f);
        let bit = Digits::single(fd).0;
        self.ctx
            .geo
            .house(h)
            .cells
            .iter()
            .map(|&c| {
                let m = match self.ctx.grid.value(c) {
                    0 => self.start_cand[c].0,
                    v => Digits::single(v).0,
                };
                match (c == fc, fon) {
                    (true, true) => m & bit,
                    (true, false) | (false, true) => m & !bit,
                    (false, false) => m,
                }
            })
            .collect()
    }

    /// What the rule of run or cage `h` concludes from its cells' masks: digits outside
    /// every feasible set go, a digit every feasible set holds with one place goes there,
    /// and no feasible set at all is a contradiction.
    fn rule_effects(&self, h: HouseId, masks: &[u16], out: &mut Vec<Effect>) {
        let Some(sp) = &self.special[h] else {
            return;
        };
        let cells = &self.ctx.geo.house(h).cells;
        // One borrow per lookup and per insert: computing a result asks no rule.
        let hit = self.ctx.mem.rules.borrow().get(sp.sig, masks);
        let r = hit.unwrap_or_else(|| {
            // Runs of up to 8 cells: one pass over all their windows (measured: 0.27-0.7 µs
            // against 1.1-1.6 µs for a matching per window). A single window (complete
            // houses, 9-cell runs) and cages keep the matching.
            let (kind, _, max, _) = sp.sig;
            let r = if kind == 2 || masks.len() >= 9 || sp.sets.len() == 1 {
                rule_out(&sp.sets, masks)
            } else {
                match run_rule::run_rule(masks, max) {
                    Some((allowed, must)) => RuleOut {
                        allowed,
                        must,
                        broken: false,
                    },
                    None => RuleOut::BROKEN,
                }
            };
            let mut memo = self.ctx.mem.rules.borrow_mut();
            memo.insert(sp.sig, masks, &r);
            if !r.broken {
                // Once its removals are applied, the house is asked again with exactly
                // these masks: the matchings are the same, so nothing more goes.
                let mut after = [0u16; 16];
                for ((a, &m), &k) in after.iter_mut().zip(masks).zip(&r.allowed) {
                    *a = m & k;
                }
                let after = &after[..masks.len()];
                let mut kept = r;
                kept.allowed[..after.len()].copy_from_slice(after);
                memo.insert(sp.sig, after, &kept);
            }
            r
        });
        if r.broken {
            out.push(Effect::Broken);
            return;
        }

        for ((&c, &m), &a) in cells.iter().zip(masks).zip(&r.allowed) {
            for d in Digits(m & !a).iter() {
                out.push(Effect::Off(c, d));
            }
        }
        for d in Digits(r.must).iter() {
            let bit = Digits::single(d).0;
            let mut places = masks.iter().zip(cells).filter(|(&m, _)| m & bit != 0);
            if let (Some((_, &c)), None) = (places.next(), places.next()) {
                out.push(Effect::On(c, d));
            }
        }
    }

    /// `derive`, remembering that house `h`'s rule made the fact.
    fn derive_by(&self, b: &mut Branch, f: Fact, parent: u32, h: HouseId, q: &mut Vec<Fact>) {
        let before = b.derived.len();
        self.derive(b, f, parent, q);
        if b.derived.len() > before {
            b.why.push((f, Because::Rule(h)));
        }
    }

    fn hidden(&self, b: &mut Branch, h: HouseId, d: u8, f: Fact, mode: Mode, q: &mut Vec<Fact>) {
        let house = self.ctx.t.house_sets[h];
        if !house.and(b.placed[usize::from(d)]).is_empty() {
            return;
        }
        let places = house.and(b.open[usize::from(d)]);
        let count = places.len();
        let last = places.first().unwrap_or(0);
        let start = self.ctx.where_in(h, d).len();
        match count {
            0 => {
                b.contradiction = Some((
                    f,
                    format!(
                        "{} has no place left for {}",
                        super::step::house_name(self.ctx.geo, h),
                        digit_char(d)
                    ),
                ))
            }
            1 if mode != Mode::Chain || start == 2 => self.derive(b, fact(last, d, true), f, q),
            _ => {}
        }
    }

    /// The branch that starts from one assumed fact.
    fn branch(&self, assume: Fact, mode: Mode) -> Branch {
        let mut b = self.root();
        let mut queue = Vec::with_capacity(256);
        self.derive(&mut b, assume, NONE, &mut queue);
        self.run(&mut b, &mut queue, mode);
        if mode == Mode::Known {
            self.nest_known(&mut b, &mut queue, assume);
        }
        if mode == Mode::Nested {
            self.nest(&mut b, &mut queue, assume, Start::Plain);
        }
        b
    }

    /// The nested branch of `assume` started from `state` instead of the position: where
    /// the same branch ended on an earlier position that included this one, so where it
    /// ends here lies inside it (see [`nest_memory`]). The facts taken from the state are not
    /// traced: only the verdict is read.
    fn nested_from(
        &self,
        assume: Fact,
        state: &nest_memory::State,
        inner: &[(usize, u128)],
    ) -> Branch {
        let mut b = self.root();
        let mut queue = Vec::with_capacity(256);
        self.derive(&mut b, assume, NONE, &mut queue);
        let mut lost = 0;
        for c in self.ctx.empty.iter() {
            let here = b.cand[c];
            for d in here.iter().filter(|&d| !state[c].contains(d)) {
                if b.value[c] == 0 {
                    self.derive(&mut b, fact(c, d, false), assume, &mut queue);
                }
            }
            if state[c].0 & !here.0 != 0 {
                lost |= self.touched(&[fact(c, 1, false)]);
            }
        }
        let at = b.derived.len();
        self.run(&mut b, &mut queue, Mode::Net);
        let new = lost | self.touched(&b.derived[at..]);
        self.nest(&mut b, &mut queue, assume, Start::From { inner, at, new });
        b
    }

    /// The houses of the cells of `facts`, as bits (all bits when unknown).
    fn touched(&self, facts: &[Fact]) -> u128 {
        match &self.house_bits {
            Some(bits) => facts.iter().fold(0, |m, &f| m | bits[unfact(f).0]),
            None => u128::MAX,
        }
    }

    /// Nested level: remove every candidate of the branch whose own net breaks, and follow
    /// the consequences, until nothing changes.
    ///
    /// Every rule of a net reads one cell or one house. So when the houses that the
    /// branch's facts touch and the houses that a candidate's own net from the start touched
    /// are disjoint, no rule meets facts of both, the two together derive nothing new, and
    /// that candidate's net inside the branch cannot break: it is skipped, with the same
    /// result.
    ///
    /// `start`: how `b` came to be (see [`Start`]). At the end, unless it broke, `b.inner`
    /// holds for each candidate left the houses its inner net touched (all when unknown).
    fn nest(&self, b: &mut Branch, queue: &mut Vec<Fact>, assume: Fact, start: Start) {
        let n = self.ctx.geo.cell_count();
        let mut changed = true;
        let mut inner = b.clone();
        let mut q = Vec::with_capacity(128);
        let touch = self.touch.borrow();
        let (mut seen_facts, mut branch_touch) = (0, 0u128);
        // While the branch is its plain net (no nested removal yet), an inner net is the net
        // of the pair (assumption, candidate): its verdict is shared with the mirror case.
        let k = self.dense_len;
        let outer = match unfact(assume) {
            (c, d, true) => Some(self.dense[c * 32 + usize::from(d)]).filter(|&i| i != u16::MAX),
            _ => None,
        };
        let mut pairs = self.pairs.borrow_mut();
        if outer.is_some() && pairs.is_empty() {
            pairs.resize(k * k, PAIR_UNKNOWN);
        }
        let mut pristine = matches!(start, Start::Plain);
        // Per candidate whose inner net last ended unbroken: the branch's fact count then,
        // and the houses that inner net's own facts touched. Both the branch and that net
        // are closed, so until the branch's new facts touch one of those houses no rule
        // reads facts of both, and the verdict stands (the argument of the skip above): it
        // is not asked again. `epochs`: where each nested removal's facts start in the
        // branch, and the houses they touched.
        let mut last: Vec<Option<(usize, u128)>> = vec![None; n * 32];
        let mut epochs: Vec<(usize, u128)> = Vec::new();
        if let Start::From { inner, at, new } = start {
            for &(y, houses) in inner {
                last[y] = Some((at, houses));
            }
            epochs.push((at, new));
        }
        // Per candidate, the houses its inner net touched when last asked.
        let mut met = vec![u128::MAX; n * 32];
        while changed && b.contradiction.is_none() {
            changed = false;
            for c in 0..n {
                if b.value[c] != 0 {
                    continue;
                }
                for d in b.cand[c].iter() {
                    if b.contradiction.is_some() || b.value[c] != 0 {
                        break;
                    }
                    if b.derived.len() > MAX_FACTS {
                        branch_touch = u128::MAX;
                    } else if seen_facts < b.derived.len() {
                        branch_touch |= self.touched(&b.derived[seen_facts..]);
                        seen_facts = b.derived.len();
                    }
                    let y = c * 32 + usize::from(d);
                    if touch[y] & branch_touch == 0 {
                        met[y] = touch[y];
                        continue;
                    }
                    if let Some((at, houses)) = last[y] {
                        let since = epochs
                            .iter()
                            .filter(|&&(start, _)| start >= at)
                            .fold(0u128, |m, &(_, t)| m | t);
                        if since & houses == 0 {
                            met[y] = houses;
                            continue;
                        }
                    }
                    met[y] = u128::MAX;
                    let iy = self.dense[c * 32 + usize::from(d)];
                    let slot = outer.filter(|_| iy != u16::MAX).map(|ix| {
                        (
                            usize::from(ix) * k + usize::from(iy),
                            usize::from(iy) * k + usize::from(ix),
                        )
                    });
                    let known = slot.map_or(PAIR_UNKNOWN, |(s, _)| pairs[s]);
                    let broken = match known {
                        PAIR_BROKEN => true,
                        PAIR_OK if pristine => false,
                        _ => {
                            let both = branch_touch & touch[y];
                            self.inner_net(b, &mut inner, &mut q, fact(c, d, true), both);
                            let broken = inner.contradiction.is_some();
                            if !broken && inner.derived.len() <= MAX_FACTS {
                                let houses = self.touched(&inner.derived);
                                last[y] = Some((b.derived.len(), houses));
                                met[y] = houses;
                            }
                            if let (true, Some((s1, s2))) = (pristine, slot) {
                                let v = if broken { PAIR_BROKEN } else { PAIR_OK };
                                pairs[s1] = v;
                                pairs[s2] = v;
                            }
                            broken
                        }
                    };
                    if broken {
                        let before = b.derived.len();
                        self.remove_nested(b, queue, assume, fact(c, d, false));
                        epochs.push((before, self.touched(&b.derived[before..])));
                        changed = true;
                        pristine = false;
                    }
                }
            }
        }
        b.inner.clear();
        if b.contradiction.is_none() {
            for c in self.ctx.empty.iter().filter(|&c| b.value[c] == 0) {
                for d in b.cand[c].iter() {
                    b.inner
                        .push((c * 32 + usize::from(d), met[c * 32 + usize::from(d)]));
                }
            }
        }
    }

    /// Removes a candidate inside branch `b` because its own net would break there, and
    /// follows the consequences. Its parent is the assumption: the whole branch made it.
    fn remove_nested(&self, b: &mut Branch, queue: &mut Vec<Fact>, assume: Fact, off: Fact) {
        queue.clear();
        let before = b.derived.len();
        self.derive(b, off, assume, queue);
        if b.derived.len() > before {
            b.why.push((off, Because::Nested));
        }
        self.run(b, queue, Mode::Net);
    }

    /// Sets the bit of fact `f` in the bit sets (on, then off, `words` each) at `base`; whether
    /// it was new. Facts of candidates absent at the start are skipped.
    fn set_fact(&self, sets: &mut [u64], words: usize, base: usize, f: Fact) -> bool {
        let (c, d, on) = unfact(f);
        let i = usize::from(self.dense[c * 32 + usize::from(d)]);
        if i >= self.dense_len {
            return false;
        }
        let at = base + if on { 0 } else { words } + i / 64;
        let bit = 1u64 << (i % 64);
        let new = sets[at] & bit == 0;
        sets[at] |= bit;
        new
    }

    /// Adds branch `b`'s facts to the known net of its assumption `x`: whether any was new.
    fn learn(&self, x: &Candidate, b: &Branch) -> bool {
        let mut known = self.known.borrow_mut();
        let ix = usize::from(self.dense[x.cell * 32 + usize::from(x.digit)]);
        if ix >= self.dense_len || known.next.is_empty() {
            return false;
        }
        let words = known.words;
        let mut new = false;
        for &f in &b.derived {
            new |= self.set_fact(&mut known.next, words, ix * 2 * words, f);
        }
        new
    }

    /// The known nets from the plain nets of the search before (see [`Known`]).
    fn start_known(&self) {
        if self.dense_len == 0 {
            return;
        }
        let words = self.dense_len.div_ceil(64);
        let mut sets = vec![0; self.dense_len * 2 * words];
        for (y, net) in self.nets.borrow().iter().enumerate() {
            let iy = usize::from(self.dense[y]);
            if let (Some(net), true) = (net, iy < self.dense_len) {
                for &f in net {
                    self.set_fact(&mut sets, words, iy * 2 * words, f);
                }
            }
        }
        let mut known = Known {
            next: sets.clone(),
            sets,
            by: Vec::new(),
            words,
        };
        known.transpose();
        *self.known.borrow_mut() = known;
    }

    /// Ends a sweep of known nesting: what it learnt is read from now on.
    fn next_known(&self) {
        let mut known = self.known.borrow_mut();
        let Known { sets, next, .. } = &mut *known;
        sets.clone_from(next);
        known.transpose();
    }

    /// Known-net nesting: remove every candidate of the branch whose known net (see
    /// [`Known`]) clashes with a fact of the branch (places a digit the branch removed, or
    /// removes one it placed), and follow the consequences, until nothing changes.
    ///
    /// Every rule is monotone, so if that candidate were true, every fact of its known net
    /// would hold inside the branch too, and one clash is a contradiction. A few word
    /// operations per fact of the branch (rows of [`Known::clashing`]) instead of a net per
    /// candidate: much cheaper than full nesting, and it finds part of what full nesting
    /// finds (measured: a fifth of the nested steps of the hardest honeycombs).
    fn nest_known(&self, b: &mut Branch, queue: &mut Vec<Fact>, assume: Fact) {
        let known = self.known.borrow();
        if known.sets.is_empty() {
            return;
        }
        let k = &*known;
        // The candidates whose known net clashes with a fact of the branch so far. They are
        // removed in the order of a scan over the candidates that starts over until a whole
        // pass removes nothing (the order only shapes the proofs).
        let mut doomed = vec![0u64; k.words];
        let (mut seen, mut at) = (0, 0);
        while b.contradiction.is_none() {
            for &f in &b.derived[seen..] {
                let (c, d, on) = unfact(f);
                let z = usize::from(self.dense[c * 32 + usize::from(d)]);
                if z < self.dense_len {
                    for (w, &r) in doomed.iter_mut().zip(k.clashing(z, on)) {
                        *w |= r;
                    }
                }
            }
            seen = b.derived.len();
            // The next doomed candidate still in the branch, from `at` on, wrapping around.
            let next = (0..self.dense_len)
                .map(|s| (at + s) % self.dense_len)
                .find(|&y| {
                    let (c, d) = self.dense_cand[y];
                    doomed[y / 64] & (1 << (y % 64)) != 0
                        && b.value[c] == 0
                        && b.cand[c].contains(d)
                });
            let Some(y) = next else {
                break;
            };
            let (c, d) = self.dense_cand[y];
            self.remove_nested(b, queue, assume, fact(c, d, false));
            at = (y + 1) % self.dense_len;
        }
    }

    /// Whether known nesting, with the known nets read now, would remove nothing more from
    /// branch `b` that it finished: no candidate left in `b` has a known net that clashes
    /// with a fact of `b`. Then `b` is closed under it, and the branch made again would end
    /// in the same state (the largest closed one inside its start).
    fn known_settled(&self, b: &Branch) -> bool {
        let known = self.known.borrow();
        if known.sets.is_empty() || b.contradiction.is_some() {
            return false;
        }
        let mut doomed = vec![0u64; known.words];
        for &f in &b.derived {
            let (c, d, on) = unfact(f);
            let z = usize::from(self.dense[c * 32 + usize::from(d)]);
            if z < self.dense_len {
                for (w, &r) in doomed.iter_mut().zip(known.clashing(z, on)) {
                    *w |= r;
                }
            }
        }
        let alive = |y: usize| {
            let (c, d) = self.dense_cand[y];
            b.value[c] == 0 && b.cand[c].contains(d)
        };
        (0..self.dense_len).all(|y| doomed[y / 64] & (1 << (y % 64)) == 0 || !alive(y))
    }

    /// The net of `y` (true) inside branch `b`, left in `inner`. Only its verdict is read.
    ///
    /// When `y`'s plain net from the start is known (and nets here never hit the fact
    /// limit), it is not derived again: every rule is monotone (fewer candidates never undo
    /// an inference), so each of its facts holds, or breaks the grid, inside `b` as well, and
    /// they are applied as they are. `b` and that net are each closed under every rule, and a
    /// rule reads one cell or one house, so a rule can fire on the union only in the houses
    /// `both` that each of them touched: those are re-examined, and propagation goes on from
    /// there. The fixpoint, and so the verdict, is the same as a net derived afresh.
    fn inner_net(&self, b: &Branch, inner: &mut Branch, q: &mut Vec<Fact>, y: Fact, both: u128) {
        inner.copy_state_from(b);
        q.clear();
        let (c, d, _) = unfact(y);
        let nets = self.nets.borrow();
        let seeds = match nets.get(c * 32 + usize::from(d)) {
            Some(Some(facts)) if self.dense_len > 0 && self.house_bits.is_some() => facts,
            _ => {
                self.derive(inner, y, NONE, q);
                self.run(inner, q, Mode::Net);
                return;
            }
        };
        for &f in seeds {
            self.derive(inner, f, NONE, q);
            if inner.contradiction.is_some() {
                return;
            }
        }
        q.clear();
        let g = self.ctx.geo;
        let mut houses = both;
        while houses != 0 && inner.contradiction.is_none() {
            let h = houses.trailing_zeros() as usize;
            houses &= houses - 1;
            if h >= g.houses().len() {
                break;
            }
            for &cell in &g.house(h).cells {
                if inner.value[cell] == 0 {
                    if let Some(e) = inner.cand[cell].single_digit() {
                        self.derive(inner, fact(cell, e, true), y, q);
                    }
                }
            }
            if self.complete[h] {
                for e in 1..=g.max_digit() {
                    if inner.contradiction.is_none() {
                        self.hidden(inner, h, e, y, Mode::Net, q);
                    }
                }
            }
            self.house_rule(inner, h, y, false, q);
        }
        self.run(inner, q, Mode::Net);
    }

    /// The chain to `f` and, per node, the run or cage whose rule made it.
    fn trace_rules(&self, b: &Branch, f: Fact) -> (Vec<ChainNode>, Vec<Option<Because>>) {
        let nodes = self.trace(b, f);
        let rules = nodes
            .iter()
            .map(|n| {
                let f = fact(n.cells[0], n.digit, n.on);
                b.why.iter().find(|(x, _)| *x == f).map(|&(_, h)| h)
            })
            .collect();
        (nodes, rules)
    }

    /// A step's pattern from the branches' chains to their facts.
    fn pattern(&self, ends: &[(&Branch, Fact)]) -> Pattern {
        let (chains, rules) = ends.iter().map(|&(b, f)| self.trace_rules(b, f)).unzip();
        let broken = match ends {
            [(b, _)] => b.contradiction.as_ref().map(|(_, why)| why.clone()),
            _ => None,
        };
        Pattern::Forcing {
            chains,
            rules,
            broken,
        }
    }

    /// The chain of facts leading to `f`, from the assumption.
    fn trace(&self, b: &Branch, f: Fact) -> Vec<ChainNode> {
        let mut out = Vec::new();
        let mut cur = f;
        let mut guard = 0;
        while cur != NONE && cur != UNSET && guard < 200 {
            let (c, d, on) = unfact(cur);
            out.push(ChainNode {
                cells: vec![c],
                digit: d,
                on,
            });
            cur = b.parent[cur as usize];
            guard += 1;
        }
        out.reverse();
        out
    }
}

/// The rule of a run or cage over its cells' masks: per cell, the digits some feasible set
/// gives it by a matching of cells to digits.
fn rule_out(sets: &[u16], masks: &[u16]) -> RuleOut {
    let union = masks.iter().fold(0, |a, &m| a | m);
    let mut allowed = [0u16; 16];
    let (mut must, mut any) = (u16::MAX, false);
    for &set in sets {
        if set & !union != 0 || masks.iter().any(|&m| m & set == 0) {
            continue;
        }
        if let Some(out) = viable_edges(masks, set) {
            for (a, o) in allowed.iter_mut().zip(out) {
                *a |= o;
            }
            must &= set;
            any = true;
        }
    }
    RuleOut {
        allowed,
        must,
        broken: !any,
    }
}

fn is_net(id: &str) -> bool {
    id == "forcing-net"
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let e = Engine::new(ctx);
    if is_net(info.id) {
        let mut reach = Vec::new();
        search(&e, info, Mode::Net, sink, &mut reach)?;
        // A nested branch known to break costs one branch, the searches below hundreds.
        remembered(&e, info, sink)?;
        search(&e, info, Mode::Known, sink, &mut reach)?;
        search(&e, info, Mode::Nested, sink, &mut reach)
    } else if info.id == "forcing-chain" {
        search(&e, info, Mode::Chain, sink, &mut Vec::new())
    } else {
        ControlFlow::Continue(())
    }
}

/// Nested branches of assumptions that broke on an earlier position this one lies inside
/// (see [`nest_memory`]): each breaks here too, and its proof is made afresh.
fn remembered(e: &Engine, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let ctx = e.ctx;
    if e.dense_len == 0 {
        return ControlFlow::Continue(());
    }
    ctx.mem.nest.borrow_mut().open(ctx.geo);
    let position = position_of(ctx);
    for x in candidates(ctx) {
        let breaks = ctx.mem.nest.borrow().breaks(&position, x.cell, x.digit);
        if breaks {
            let b = e.branch(fact(x.cell, x.digit, true), Mode::Nested);
            if let Some((f, _)) = &b.contradiction {
                sink(broken_step(e, info, x, &b, *f))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The step of assumption `x` whose branch `b` broke at fact `f`: `x` is false.
fn broken_step(
    e: &Engine,
    info: &'static TechniqueInfo,
    x: Candidate,
    b: &Branch,
    f: Fact,
) -> Step {
    let step = Step::new(info, e.pattern(&[(b, f)]))
        .eliminate(vec![x])
        .cells(&[x.cell], Role::Defining);
    with_links(step, b, f, e)
}

/// All candidates of the grid, bivalue cells first (their branches are the most telling).
fn candidates(ctx: &Ctx) -> Vec<Candidate> {
    let mut cells: Vec<Cell> = ctx.empty.iter().collect();
    cells.sort_by_key(|&c| ctx.cand[c].len());
    let mut out = Vec::new();
    for c in cells {
        for d in ctx.cand[c].iter() {
            out.push(Candidate::new(c, d));
        }
    }
    out
}

fn search(
    e: &Engine,
    info: &'static TechniqueInfo,
    mode: Mode,
    sink: &mut Sink,
    reach: &mut Vec<usize>,
) -> ControlFlow<()> {
    // `reach`, per candidate: how promising its branch looks for the next level (the size
    // of its plain net after the plain search, its known branch's tightness after known
    // nesting).
    let ctx = e.ctx;
    let mut all = candidates(ctx);
    let n = ctx.geo.cell_count();
    let nesting = matches!(mode, Mode::Known | Mode::Nested);
    if nesting && reach.len() == n * 32 && !ctx.t.all_complete {
        // Nested nets cost a net per candidate per candidate: on runs and cages, where
        // they are frequent, try first the assumptions likeliest to break one level down:
        // for known nesting those whose plain net went furthest, for full nesting those
        // whose known branch came closest to breaking (plain grids keep bivalue cells
        // first, which finds fewer but more telling steps there).
        all.sort_by_key(|x| std::cmp::Reverse(reach[x.cell * 32 + usize::from(x.digit)]));
    }
    let record = mode == Mode::Net;
    if record {
        *reach = vec![0; n * 32];
    }
    if mode == Mode::Known {
        e.start_known();
    }
    let learned = std::cell::Cell::new(false);
    let mut make = |x: &Candidate| {
        let b = e.branch(fact(x.cell, x.digit, true), mode);
        if mode == Mode::Known && b.contradiction.is_none() {
            learned.set(e.learn(x, &b) || learned.get());
            // The nested search tries first the branches that came closest to breaking here.
            if let Some(r) = reach.get_mut(x.cell * 32 + usize::from(x.digit)) {
                *r = tightness(ctx, &b);
            }
        }
        if record {
            reach[x.cell * 32 + usize::from(x.digit)] = b.derived.len();
            if b.contradiction.is_none() {
                e.nets.borrow_mut()[x.cell * 32 + usize::from(x.digit)] = Some(b.derived.clone());
            }
            e.touch.borrow_mut()[x.cell * 32 + usize::from(x.digit)] =
                if b.derived.len() > MAX_FACTS || b.contradiction.is_some() {
                    u128::MAX
                } else {
                    e.touched(&b.derived)
                };
        }
        b
    };
    let contradiction = |x: &Candidate, b: &Branch, sink: &mut Sink| match &b.contradiction {
        Some((f, _)) => sink(broken_step(e, info, *x, b, *f)),
        None => ControlFlow::Continue(()),
    };
    // Branches of every candidate set true, by index of `all`. A candidate of the known
    // solution cannot lead to a contradiction, so its branch (needed only by the verities
    // further down) is put off: a hint found before then does not pay for it.
    // So is one whose nested branch is known not to break here, and a nested branch known
    // to end inside an earlier one starts from there (see [`nest_memory`]).
    let mut on: Vec<Option<Branch>> = Vec::with_capacity(all.len());
    let mut index = vec![usize::MAX; n * 32];
    // Only where nets never hit the fact limit (a cut-off branch is not a closed state).
    let keep = mode == Mode::Nested && e.dense_len > 0;
    let position = std::sync::Arc::new(position_of(ctx));
    let memory = &ctx.mem.nest;
    let is_true = |x: &Candidate| ctx.solution.is_some_and(|s| s[x.cell] == x.digit);
    // The nested branch of `x` when it has to be made, and whether it breaks. A branch
    // started from a remembered state has no proof of its own: when it breaks, a fresh one
    // is made for the step (`fresh`); when not, it is left to the verities (made afresh,
    // if ever).
    let nested = |x: &Candidate, fresh: bool| -> (Option<Branch>, bool) {
        let assume = fact(x.cell, x.digit, true);
        let known = if keep {
            memory.borrow().known(&position, x.cell, x.digit)
        } else {
            nest_memory::Known::Nothing
        };
        let b = match known {
            nest_memory::Known::Unbroken => return (None, false),
            nest_memory::Known::Inside(state, inner) => {
                let b = e.nested_from(assume, &state, &inner);
                if b.contradiction.is_some() {
                    return (fresh.then(|| e.branch(assume, mode)), true);
                }
                let end = state_of(&b.value, &b.cand);
                memory
                    .borrow_mut()
                    .remember(&position, x.cell, x.digit, end, b.inner);
                return (None, false);
            }
            nest_memory::Known::Nothing => e.branch(assume, mode),
        };
        let broken = b.contradiction.is_some();
        if keep && !broken {
            let end = state_of(&b.value, &b.cand);
            memory
                .borrow_mut()
                .remember(&position, x.cell, x.digit, end, b.inner.clone());
        }
        (Some(b), broken)
    };
    // Finding every breaker only pays when later positions will read them: not on a first
    // hint (a one-off `hint`), only once a walk has left branches behind.
    let walking = keep && memory.borrow_mut().open(ctx.geo);
    let mut tried = 0;
    for (i, x) in all.iter().enumerate() {
        index[x.cell * 32 + usize::from(x.digit)] = i;
        if is_true(x) {
            on.push(None);
            continue;
        }
        let b = if mode == Mode::Nested {
            let (b, broken) = nested(x, true);
            if broken && walking && tried >= SCAN_AFTER {
                // Breakers are rare here: find the others now, for the next positions.
                for y in all[i + 1..].iter().filter(|y| !is_true(y)) {
                    if let (_, true) = nested(y, false) {
                        memory
                            .borrow_mut()
                            .remember_breaker(&position, y.cell, y.digit);
                    }
                }
            }
            tried += 1;
            match b {
                Some(b) => b,
                None => {
                    on.push(None);
                    continue;
                }
            }
        } else {
            make(x)
        };
        contradiction(x, &b, sink)?;
        on.push(Some(b));
    }
    let mut ready = Vec::with_capacity(all.len());
    for (b, x) in on.into_iter().zip(&all) {
        let b = match b {
            Some(b) => b,
            None => {
                let b = make(x);
                // Only when the grid does not match the solution given.
                contradiction(x, &b, sink)?;
                b
            }
        };
        ready.push(b);
    }
    let mut on = ready;
    // Known nesting: each branch's facts join its candidate's known net, so another sweep
    // can rule out candidates whose own branch needed known nesting (up to a bound).
    if mode == Mode::Known {
        e.next_known();
        for _ in 1..KNOWN_SWEEPS {
            if !learned.take() {
                break;
            }
            for pass in [false, true] {
                for (i, x) in all.iter().enumerate().filter(|(_, x)| is_true(x) == pass) {
                    // A branch that what was learnt cannot change is not made again (it
                    // would end the same, and it learnt its facts already).
                    if e.known_settled(&on[i]) {
                        continue;
                    }
                    let b = make(x);
                    contradiction(x, &b, sink)?;
                    on[i] = b;
                }
            }
            e.next_known();
        }
    }
    // Both states of a candidate: false leading to a contradiction places it; a fact that
    // both states imply holds.
    for (i, x) in all.iter().enumerate() {
        if on[i].contradiction.is_some() {
            continue;
        }
        let off = e.branch(fact(x.cell, x.digit, false), mode);
        if let Some((f, _)) = &off.contradiction {
            let step = Step::new(info, e.pattern(&[(&off, *f)]))
                .place(x.cell, x.digit)
                .cells(&[x.cell], Role::Defining);
            let step = with_links(step, &off, *f, e);
            sink(step)?;
            continue;
        }
        verity(e, info, &[&on[i], &off], sink)?;
    }
    // Cell verity: every candidate of a cell.
    let over = |facts: &mut dyn Iterator<Item = (Cell, u8)>, sink: &mut Sink| {
        let branches: Vec<&Branch> = facts
            .map(|(c, d)| &on[index[c * 32 + usize::from(d)]])
            .filter(|b| b.contradiction.is_none())
            .collect();
        if branches.len() >= 2 {
            verity(e, info, &branches, sink)?;
        }
        ControlFlow::Continue(())
    };
    for c in ctx.empty.iter() {
        over(&mut ctx.cand[c].iter().map(|d| (c, d)), sink)?;
    }
    // House verity: every place of a digit in a complete house.
    for &h in &ctx.t.complete {
        for d in 1..=ctx.geo.max_digit() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 {
                continue;
            }
            over(&mut places.iter().map(|c| (c, d)), sink)?;
        }
    }
    // The same for a digit every feasible run or combination of a run or cage holds.
    for (h, sp) in e.special.iter().enumerate() {
        if sp.is_none() {
            continue;
        }
        let house = ctx.geo.house(h);
        for d in super::must_appear(ctx.grid, house).iter() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 || ctx.placed_in(h).contains(d) {
                continue;
            }
            over(&mut places.iter().map(|c| (c, d)), sink)?;
        }
    }
    ControlFlow::Continue(())
}

/// Per cell, its digit (as a single) or its candidates.
fn state_of(value: &[u8], cand: &[Digits]) -> nest_memory::State {
    value
        .iter()
        .zip(cand)
        .map(|(&v, &m)| if v == 0 { m } else { Digits::single(v) })
        .collect()
}

/// The position searched, in the memory's terms (see [`state_of`]).
fn position_of(ctx: &Ctx) -> nest_memory::State {
    let values: Vec<u8> = (0..ctx.geo.cell_count())
        .map(|c| ctx.grid.value(c))
        .collect();
    state_of(&values, &ctx.cand)
}

/// How close branch `b` came to breaking: its empty cells per candidate left, a bivalue
/// cell counting one (scaled to an integer; higher is tighter). Measured on the hardest
/// honeycombs, trying the tightest known-net branches first halves the nested branches
/// made before one breaks, and cuts the worst cases by four to seven.
fn tightness(ctx: &Ctx, b: &Branch) -> usize {
    let (mut empty, mut left) = (0, 0);
    for c in ctx.empty.iter().filter(|&c| b.value[c] == 0) {
        empty += 1;
        left += match b.cand[c].len() {
            2 => 1,
            k => k as usize,
        };
    }
    empty * 1_000_000 / left.max(1)
}

/// Facts derived by every branch (and not already true in the grid) give a step.
fn verity(
    e: &Engine,
    info: &'static TechniqueInfo,
    branches: &[&Branch],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let ctx = e.ctx;
    let Some(first) = branches.first() else {
        return ControlFlow::Continue(());
    };
    for &f in &first.derived {
        let common = branches[1..]
            .iter()
            .all(|b| b.parent[f as usize] != UNSET && b.contradiction.is_none());
        if !common {
            continue;
        }
        let (c, d, on) = unfact(f);
        if ctx.grid.value(c) != 0 || !ctx.cand[c].contains(d) {
            continue;
        }
        let ends: Vec<(&Branch, Fact)> = branches.iter().map(|&b| (b, f)).collect();
        let mut step = Step::new(info, e.pattern(&ends));
        step = if on {
            step.place(c, d)
        } else {
            step.eliminate(vec![Candidate::new(c, d)])
        };
        for b in branches {
            step = with_links(step, b, f, e);
        }
        sink(step)?;
    }
    ControlFlow::Continue(())
}

/// Adds the links of the trace to `f` as highlights.
fn with_links(mut step: Step, b: &Branch, f: Fact, e: &Engine) -> Step {
    let nodes = e.trace(b, f);
    for w in nodes.windows(2) {
        let kind = if w[1].on {
            LinkKind::Strong
        } else {
            LinkKind::Weak
        };
        step.highlights.push(Highlight {
            target: Target::Link(
                Candidate::new(w[0].cells[0], w[0].digit),
                Candidate::new(w[1].cells[0], w[1].digit),
                kind,
            ),
            role: Role::Defining,
        });
    }
    step
}

fn node_text(g: &Geometry, n: &ChainNode) -> String {
    let cells: Vec<String> = n.cells.iter().map(|&c| g.cell_name(c)).collect();
    let name = if cells.len() == 1 {
        cells[0].clone()
    } else {
        format!("{{{}}}", cells.join(","))
    };
    format!(
        "{}{}{}",
        name,
        if n.on { "=" } else { "<>" },
        digit_char(n.digit)
    )
}

/// "r1c2=5 -> r1c7<>5 -> r3c7=5".
pub fn chain_text(g: &Geometry, nodes: &[ChainNode]) -> String {
    nodes
        .iter()
        .map(|n| node_text(g, n))
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// A chain whose run and cage inferences say which house made them, and whose nested
/// removals say why: "r1c1=5 -> r1c2<>4 (run of row 1) -> r2c3=6 (row 2 needs 6)",
/// "r1c1=5 -> r4c4<>2 (r4c4=2 would lead to a contradiction)".
fn ruled_text(g: &Geometry, nodes: &[ChainNode], rules: &[Option<Because>]) -> String {
    nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let base = node_text(g, n);
            let h = match rules.get(i) {
                Some(Some(Because::Rule(h))) => *h,
                Some(Some(Because::Nested)) => {
                    let opposite = ChainNode {
                        on: !n.on,
                        ..n.clone()
                    };
                    let what = node_text(g, &opposite);
                    return format!("{base} ({what} would lead to a contradiction)");
                }
                _ => return base,
            };
            let name = super::step::house_name(g, h);
            match (n.on, g.house(h).rule) {
                (true, _) => format!("{base} ({name} needs {})", digit_char(n.digit)),
                (false, Rule::ConsecutiveRun) => format!("{base} (run of {name})"),
                (false, Rule::Complete) => format!("{base} (Hall set in {name})"),
                (false, _) => format!("{base} (sum of {name})"),
            }
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Forcing {
        chains,
        rules,
        broken,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let start = chains
        .first()
        .and_then(|c| c.first())
        .map(|n| g.cell_name(n.cells[0]))
        .unwrap_or_default();
    match detail {
        Detail::Nudge => format!("Try an assumption at {start} and follow it"),
        Detail::Technique => format!(
            "There is {} {}: assume a candidate and follow what it forces",
            super::step::article(step.name()),
            step.name()
        ),
        Detail::Full => {
            let text = |i: usize| ruled_text(g, &chains[i], rules.get(i).map_or(&[][..], |r| r));
            let body = if chains.len() == 1 {
                let c = &chains[0];
                let ends_broken = step.placements.is_empty() || c.first().is_some_and(|n| !n.on);
                if ends_broken {
                    match broken {
                        Some(why) => format!("{} leads to a contradiction ({why})", text(0)),
                        None => format!("{} leads to a contradiction", text(0)),
                    }
                } else {
                    text(0)
                }
            } else {
                let parts: Vec<String> = (0..chains.len()).map(text).collect();
                format!("every case leads to the same result: {}", parts.join("; "))
            };
            format!("{}: {}; so {}", step.name(), body, effect_text(g, step))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, next_step, SolverMemory};
    use super::{search, Engine, Mode};
    use std::ops::ControlFlow;

    /// The rule memo stores, beside each result, the result for the masks it leaves (what a
    /// net asks next): that is only right if the rule keeps everything it kept once.
    #[test]
    fn a_run_rule_keeps_what_it_kept() {
        let mut next = super::super::testutil::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let mut narrowed = 0;
        for len in 5..=9usize {
            let sets: Vec<u16> = (1..=10 - len)
                .map(|lo| (((1u32 << len) - 1) << (lo - 1)) as u16)
                .collect();
            for _ in 0..20_000 {
                let masks: Vec<u16> = (0..len).map(|_| next() as u16 & 0x1ff).collect();
                let once = super::rule_out(&sets, &masks);
                if once.broken {
                    continue;
                }
                let kept: Vec<u16> = masks
                    .iter()
                    .zip(&once.allowed)
                    .map(|(&m, &a)| m & a)
                    .collect();
                narrowed += usize::from(kept != masks);
                let twice = super::rule_out(&sets, &kept);
                assert!(!twice.broken, "{masks:?}");
                assert_eq!(&twice.allowed[..len], &kept[..], "{masks:?}");
                assert_eq!(twice.must, once.must, "{masks:?}");
            }
        }
        assert!(
            narrowed > 1000,
            "the sample must exercise the rule: {narrowed}"
        );
    }

    /// A hard puzzle (top1465 #1 style) where the first step beyond the basic techniques
    /// is a forcing step; every forcing step found must keep the true digits.
    #[test]
    fn forcing_steps_are_sound_on_a_hard_puzzle() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let g = grid(line);
        let p =
            crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Standard, "t", 1)
                .unwrap()
                .unwrap();
        let sol = crate::solver::exact::solve(&p, 1).first.unwrap();
        let steps = find_all(&g, "forcing-chain");
        let nets = find_all(&g, "forcing-net");
        assert!(!steps.is_empty() || !nets.is_empty());
        for s in steps.iter().chain(&nets) {
            for e in &s.eliminations {
                assert_ne!(sol[e.cell], e.digit, "{}", s.id());
            }
            for pl in &s.placements {
                assert_eq!(sol[pl.cell], pl.digit, "{}", s.id());
            }
            let text = s.explain(g.geometry(), super::Detail::Full);
            assert!(text.starts_with(s.name()), "{text}");
        }
        assert!(next_step(&g, None, &mut super::super::SolverMemory::new()).is_some());
    }

    /// On a honeycomb grid the chains follow the run rules of the lines (which the old
    /// propagation, singles in complete houses only, could not), stay sound, and say which
    /// line made each such inference.
    #[test]
    fn honeycomb_chains_use_the_run_rules() {
        use crate::format::parse_line;
        use crate::puzzle::{Grid, Variant};
        let line = "..........4....16..53....7.9.........3............46.........";
        let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let g = Grid::from_puzzle(&p);
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        let steps = find_all(&g, "forcing-chain");
        assert!(!steps.is_empty());
        let mut ruled = 0;
        for s in &steps {
            for e in &s.eliminations {
                assert_ne!(sol[e.cell], e.digit);
            }
            for pl in &s.placements {
                assert_eq!(sol[pl.cell], pl.digit);
            }
            let text = s.explain(g.geometry(), super::Detail::Full);
            if text.contains(" (run of ") || text.contains(" needs ") {
                ruled += 1;
            }
        }
        assert!(ruled > 0, "no chain names a run rule");
    }

    /// A honeycomb (made by termdoku's generator) whose path meets nested nets within a few
    /// steps, and its solution.
    fn nested_net_puzzle() -> (crate::puzzle::Grid, Vec<u8>) {
        use crate::format::parse_line;
        use crate::puzzle::{Grid, Variant};
        let line = "......3......9.7.............................6.5......8......";
        let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
        (Grid::from_puzzle(&p), sol)
    }

    /// A nested net's proof starts at its assumption and says why a removal made inside the
    /// branch holds, rather than starting at that removal as if it were assumed.
    #[test]
    fn a_nested_net_shows_its_assumption_and_why() {
        use crate::solver::logic::apply;
        let (mut g, sol) = nested_net_puzzle();
        let mut nested = None;
        let mut memory = SolverMemory::new();
        for _ in 0..8 {
            let s = next_step(&g, Some(&sol), &mut memory).expect("a step");
            for e in &s.eliminations {
                assert_ne!(sol[e.cell], e.digit);
            }
            let text = s.explain(g.geometry(), super::Detail::Full);
            if text.contains("would lead to a contradiction") {
                nested = Some((s, text));
                break;
            }
            apply(&mut g, &s);
        }
        let (s, text) = nested.expect("a nested net within 8 steps");
        // "Forcing Net: r3c4=6 -> r2c3<>7 (r2c3=7 would lead ...) -> ...; so remove 6 from r3c4"
        let target = &s.eliminations[0];
        let assumed = format!(
            "Forcing Net: {}={} -> ",
            g.geometry().cell_name(target.cell),
            crate::geometry::digit_char(target.digit)
        );
        assert!(text.starts_with(&assumed), "{text}");
    }

    /// The first useful step of the net search at `g` and the mode that found it, trying
    /// `modes` in turn as `find` does.
    fn first_by_mode(g: &crate::puzzle::Grid, modes: &[Mode]) -> Option<(Mode, super::Step)> {
        let memory = SolverMemory::new();
        let ctx = super::Ctx::new(g, &memory);
        let e = Engine::new(&ctx);
        let info = super::super::technique("forcing-net").expect("forcing-net");
        let mut reach = Vec::new();
        for &mode in modes {
            let mut found = None;
            let _ = search(
                &e,
                info,
                mode,
                &mut |s: super::Step| {
                    if super::super::useful(g, &s) {
                        found = Some(s);
                        return ControlFlow::Break(());
                    }
                    ControlFlow::Continue(())
                },
                &mut reach,
            );
            if let Some(s) = found {
                return Some((mode, s));
            }
        }
        None
    }

    /// Known nesting removes candidates where plain nets find nothing, soundly, and says
    /// which inner candidate would lead to a contradiction.
    #[test]
    fn known_nesting_finds_what_plain_nets_miss() {
        use crate::solver::logic::apply;
        let (mut g, sol) = nested_net_puzzle();
        let mut known = 0;
        let mut memory = SolverMemory::new();
        for _ in 0..40 {
            if g.is_solved() {
                break;
            }
            if let Some((Mode::Known, s)) = first_by_mode(&g, &[Mode::Net, Mode::Known]) {
                for x in &s.eliminations {
                    assert_ne!(
                        sol[x.cell],
                        x.digit,
                        "{}",
                        s.explain(g.geometry(), super::Detail::Full)
                    );
                }
                let text = s.explain(g.geometry(), super::Detail::Full);
                assert!(text.contains("would lead to a contradiction"), "{text}");
                known += 1;
            }
            let step = next_step(&g, Some(&sol), &mut memory).expect("a step");
            apply(&mut g, &step);
        }
        assert!(
            known >= 1,
            "the path should meet a step only known nesting finds"
        );
    }

    /// What nested branches left on earlier positions only saves time: along a path with
    /// nested nets, each step found with that memory (breakers forgotten) is the step found
    /// from an empty one, and every elimination is sound.
    #[test]
    fn remembered_branches_change_no_step() {
        use crate::solver::logic::apply;
        let (mut g, sol) = nested_net_puzzle();
        let mut memory = SolverMemory::new();
        let mut nets = 0;
        for _ in 0..40 {
            if g.is_solved() {
                break;
            }
            memory.forget_breakers();
            let warm = next_step(&g, Some(&sol), &mut memory).expect("a step");
            let cold = next_step(&g, Some(&sol), &mut SolverMemory::new()).expect("a step");
            let text = |s: &super::Step| s.explain(g.geometry(), super::Detail::Full);
            assert_eq!(text(&warm), text(&cold));
            for x in &warm.eliminations {
                assert_ne!(sol[x.cell], x.digit, "{}", text(&warm));
            }
            nets += usize::from(warm.id() == "forcing-net");
            apply(&mut g, &warm);
        }
        assert!(nets >= 3, "the path should meet forcing nets");
    }

    /// Breakers remembered from earlier positions choose steps, so a walk starts with a
    /// fresh memory: solving a puzzle gives the same path whatever was solved before.
    #[test]
    fn a_walk_does_not_depend_on_earlier_walks() {
        use crate::solver::rate::solve_grid;
        let (g, sol) = nested_net_puzzle();
        let names = |steps: &[super::Step]| {
            let geo = g.geometry();
            steps
                .iter()
                .map(|s| s.explain(geo, super::Detail::Full))
                .collect::<Vec<_>>()
        };
        let first = names(&solve_grid(g.clone(), Some(&sol)).0);
        // Half way through, so that breakers of later positions are remembered.
        let mut half = g.clone();
        let (steps, _) = solve_grid(g.clone(), Some(&sol));
        for s in &steps[..steps.len() / 2] {
            crate::solver::logic::apply(&mut half, s);
        }
        let _ = solve_grid(half, Some(&sol));
        assert_eq!(first, names(&solve_grid(g.clone(), Some(&sol)).0));
    }

    /// A known solution only orders the search: along a path with nested nets, the step
    /// found with it is the step found without it (from the same memory of breakers).
    #[test]
    fn the_solution_changes_no_step() {
        use crate::solver::logic::apply;
        let (mut g, sol) = nested_net_puzzle();
        let mut nets = 0;
        let mut memory = SolverMemory::new();
        for _ in 0..10 {
            memory.forget_breakers();
            let with = next_step(&g, Some(&sol), &mut memory).expect("a step");
            memory.forget_breakers();
            let without = next_step(&g, None, &mut memory).expect("a step");
            let text = |s: &super::Step| s.explain(g.geometry(), super::Detail::Full);
            assert_eq!(text(&with), text(&without));
            assert_eq!(with.eliminations, without.eliminations);
            assert_eq!(with.placements, without.placements);
            nets += usize::from(with.id() == "forcing-net");
            apply(&mut g, &with);
        }
        assert!(nets >= 2, "the path should meet forcing nets");
    }

    /// A hint worker keeps its memory, breakers included, for a whole game: the steps it
    /// gives may differ from a fresh walk's, but every one is sound and the walk solves.
    #[test]
    fn a_warm_memory_gives_sound_steps() {
        use crate::solver::logic::apply;
        let (mut g, sol) = nested_net_puzzle();
        let mut memory = SolverMemory::new();
        while !g.is_solved() {
            let s = next_step(&g, Some(&sol), &mut memory).expect("a step");
            for x in &s.eliminations {
                assert_ne!(sol[x.cell], x.digit, "{}", s.id());
            }
            for x in &s.placements {
                assert_eq!(sol[x.cell], x.digit, "{}", s.id());
            }
            apply(&mut g, &s);
        }
    }
}
