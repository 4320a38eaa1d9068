//! The search: every assumption in turn, its contradictions, then the verities.

use super::*;

/// Nested branches of assumptions that broke on an earlier position this one lies inside
/// (see [`nest_memory`]): each breaks here too, and its proof is made afresh.
pub(super) fn remembered(
    e: &Engine,
    info: &'static TechniqueInfo,
    sink: &mut Sink,
) -> ControlFlow<()> {
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
pub(super) fn broken_step(
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
pub(super) fn candidates(ctx: &Ctx) -> Vec<Candidate> {
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

pub(super) fn search(
    e: &Engine,
    info: &'static TechniqueInfo,
    mode: Mode,
    sink: &mut Sink,
    reach: &mut Vec<usize>,
) -> ControlFlow<()> {
    // `reach`, per candidate: the size of its plain net (after the plain search), a key of
    // the nested order on runs and cages.
    let ctx = e.ctx;
    let mut all = candidates(ctx);
    let n = ctx.geo.cell_count();
    order_by_reach(ctx, mode, reach, &mut all);
    if mode == Mode::Net {
        *reach = vec![0; n * 32];
    }
    if mode == Mode::Known {
        e.start_known();
    }
    let learned = std::cell::Cell::new(false);
    let mut make = |x: &Candidate| make_branch(e, mode, x, reach, &learned);
    let (mut on, index) = first_branches(e, info, mode, &mut all, &mut make, sink)?;
    if mode == Mode::Known {
        sweep_known(e, info, &all, &mut on, &mut make, &learned, sink)?;
    }
    both_states(e, info, mode, &all, &on, sink)?;
    group_verities(e, info, &all, &on, &index, sink)
}

/// The nested level on runs and cages tries first the assumptions likeliest to break one
/// level down.
fn order_by_reach(ctx: &Ctx, mode: Mode, reach: &[usize], all: &mut [Candidate]) {
    let n = ctx.geo.cell_count();
    if mode == Mode::Nested && reach.len() == n * 32 && !ctx.t.all_complete {
        // Nested nets cost a net per candidate per candidate: on runs and cages, where they
        // are frequent, those whose digit has the fewest places left in one of its houses
        // come first, then those whose plain net went furthest (plain grids keep bivalue
        // cells first, which finds fewer but more telling steps there). The search then
        // reorders what is left as it learns (see [`Fragile`]).
        let reach_of = |x: &Candidate| reach[x.cell * 32 + usize::from(x.digit)];
        all.sort_by_cached_key(|x| (fewest_places(ctx, x), std::cmp::Reverse(reach_of(x))));
    }
}

/// The fewest places `x`'s digit has in a house of its cell: the nested order's first key
/// on runs and cages. Issue 22, cold nested searches of three hard honeycombs (hc25 lines
/// 7, 17, 19; 215 positions, every assumption's verdict computed): about 48 breakers
/// among 290 assumptions, yet the first breaker came at try 16.2 on average (p90 38) by
/// the known branch's tightness, 10.5 (p90 19) by this key. Plain net size gave 15.5,
/// plain tightness 17.3, fewest candidates in the cell 30.9. Positions with one to three
/// breakers stay slow in any order.
fn fewest_places(ctx: &Ctx, x: &Candidate) -> u32 {
    let houses = ctx.geo.houses_of(x.cell).iter();
    houses
        .map(|&h| ctx.where_in(h, x.digit).len())
        .min()
        .unwrap_or(0)
}

/// The branch of `x` set true, noting what the next level reads: known nesting learns
/// from it, the plain search its net, size and touched cells.
fn make_branch(
    e: &Engine,
    mode: Mode,
    x: &Candidate,
    reach: &mut [usize],
    learned: &std::cell::Cell<bool>,
) -> Rc<Branch> {
    // The plain search only reads its nets: it shares the position's (see [`PlainNets`]).
    let b = match mode {
        Mode::Net => e.net(fact(x.cell, x.digit, true)),
        _ => Rc::new(e.branch(fact(x.cell, x.digit, true), mode)),
    };
    if mode == Mode::Known && b.contradiction.is_none() {
        learned.set(e.learn(x, &b) || learned.get());
    }
    if mode == Mode::Net {
        reach[x.cell * 32 + usize::from(x.digit)] = b.derived.len();
        if b.contradiction.is_none() {
            e.keep_net(x.cell * 32 + usize::from(x.digit), &b);
        }
        e.touch.borrow_mut()[x.cell * 32 + usize::from(x.digit)] =
            if b.derived.len() > MAX_FACTS || b.contradiction.is_some() {
                u128::MAX
            } else {
                e.touched(&b.derived)
            };
    }
    b
}

/// The step of a broken branch, if `b` broke.
fn report_broken(
    e: &Engine,
    info: &'static TechniqueInfo,
    x: &Candidate,
    b: &Branch,
    sink: &mut Sink,
) -> ControlFlow<()> {
    match &b.contradiction {
        Some((f, _)) => sink(broken_step(e, info, *x, b, *f)),
        None => ControlFlow::Continue(()),
    }
}

/// Whether `x` is a candidate of the known solution (its branch cannot break).
pub(super) fn of_solution(ctx: &Ctx, x: &Candidate) -> bool {
    ctx.solution.is_some_and(|s| s[x.cell] == x.digit)
}

/// Branches of every candidate set true, by index of `all`, reporting those that break;
/// with the index of each candidate's branch (by `cell * 32 + digit`). The nested search on
/// runs and cages reorders what is left of `all` as it goes (see [`Fragile`]).
fn first_branches(
    e: &Engine,
    info: &'static TechniqueInfo,
    mode: Mode,
    all: &mut [Candidate],
    make: &mut impl FnMut(&Candidate) -> Rc<Branch>,
    sink: &mut Sink,
) -> ControlFlow<(), (Vec<Slot>, Vec<usize>)> {
    let ctx = e.ctx;
    let n = ctx.geo.cell_count();
    // A candidate of the known solution cannot lead to a contradiction, so its branch
    // (needed only by the verities further down) is put off: a hint found before then does
    // not pay for it. So is one whose nested branch is known not to break here, and a
    // nested branch known to end inside an earlier one starts from there (see
    // [`nest_memory`]).
    let mut on: Vec<Option<Rc<Branch>>> = Vec::with_capacity(all.len());
    let mut index = vec![usize::MAX; n * 32];
    // Only where nets never hit the fact limit (a cut-off branch is not a closed state).
    let keep = mode == Mode::Nested && e.dense_len > 0;
    let position = std::sync::Arc::new(position_of(ctx));
    let memory = &ctx.mem.nest;
    // Finding every breaker only pays when later positions will read them: not on a first
    // hint (a one-off `hint`), only once a walk has left branches behind.
    let walking = keep && memory.borrow_mut().open(ctx.geo);
    let mut tried = 0;
    // Not on runs and cages (see [`SCAN_AFTER`]).
    let scan_after = ctx.t.all_complete.then_some(SCAN_AFTER);
    let mut fragile = (mode == Mode::Nested && !ctx.t.all_complete).then(|| Fragile::new(n));
    for i in 0..all.len() {
        if ctx.mem.out_of_time() {
            return ControlFlow::Break(());
        }
        if let Some(fragile) = &fragile {
            fragile.bring_forward(&mut all[i..]);
        }
        let x = &all[i];
        index[x.cell * 32 + usize::from(x.digit)] = i;
        if of_solution(ctx, x) {
            on.push(None);
            continue;
        }
        let b = if mode == Mode::Nested {
            let (b, broken, end) = nested_branch(e, mode, keep, &position, x, true);
            if broken && walking && scan_after.is_some_and(|after| tried >= after) {
                // Breakers are rare here: find the others now, for the next positions.
                for y in all[i + 1..].iter().filter(|y| !of_solution(ctx, y)) {
                    if let (_, true, _) = nested_branch(e, mode, keep, &position, y, false) {
                        memory
                            .borrow_mut()
                            .remember_breaker(&position, y.cell, y.digit);
                    }
                }
            }
            tried += 1;
            if let (Some(fragile), Some(end)) = (&mut fragile, &end) {
                fragile.learn(e, x, end);
            }
            match b {
                Some(b) => Rc::new(b),
                None => {
                    on.push(None);
                    continue;
                }
            }
        } else {
            make(x)
        };
        report_broken(e, info, x, &b, sink)?;
        on.push(Some(b));
    }
    let mut ready = Vec::with_capacity(all.len());
    for (b, x) in on.into_iter().zip(all.iter()) {
        let b = match b {
            Some(b) => b,
            None => {
                if keep {
                    // Where memory knows the nested branch's end, only the verities below
                    // may need the branch itself: it is made if they do (see [`Slot`]).
                    let (b, _, end) = nested_branch(e, mode, keep, &position, x, true);
                    if let Some(b) = b {
                        report_broken(e, info, x, &b, sink)?;
                        ready.push(Slot::Made(Rc::new(b)));
                        continue;
                    }
                    if let Some(end) = end {
                        ready.push(Slot::Lazy(end, std::cell::OnceCell::new()));
                        continue;
                    }
                }
                let b = make(x);
                // Only when the grid does not match the solution given.
                report_broken(e, info, x, &b, sink)?;
                b
            }
        };
        ready.push(Slot::Made(b));
    }
    ControlFlow::Continue((ready, index))
}

/// Per candidate, how many unbroken nested branches of this search removed it (beyond
/// what the plain net of their assumption removes).
///
/// A branch of `x` that ends without `y` shows `x -> not y`, so `y -> not x`: the nested
/// branch of `y` loses `x`, and one that many branches removed is the likeliest to break.
/// The nested search on runs and cages tries such candidates next. Issue 22, cold next
/// hints on hc25 (`bench --logic --cold`, one core each, side by side): p99 161.2 ms ->
/// 75.5 ms, the rating walk 28.9 s -> 22.0 s; nested searches that needed over 60 tries
/// before a breaker fell from 41 to 6. Counting instead, before the search, the `x` whose
/// plain net removes `y` while `y`'s keeps `x` (no branch needed) made it worse: p99 204.7
/// and 228.6 ms.
///
/// Read from where each branch ends, not from how it got there: a branch that memory
/// skips ends where the memory says (see [`nest_memory`]), so hints do not depend on
/// what the memory holds. Plain grids keep their order (the HoDoKu path there).
struct Fragile {
    removed: Vec<u32>,
}

impl Fragile {
    fn new(cells: usize) -> Self {
        Fragile {
            removed: vec![0; cells * 32],
        }
    }

    /// Counts what the unbroken nested branch of `x`, ending at `end`, removed beyond its
    /// plain net.
    fn learn(&mut self, e: &Engine, x: &Candidate, end: &[Digits]) {
        let plain = e.net(fact(x.cell, x.digit, true));
        for c in e.ctx.empty.iter() {
            for d in e.ctx.cand[c].iter().filter(|&d| !end[c].contains(d)) {
                let kept = match plain.value[c] {
                    0 => plain.cand[c].contains(d),
                    v => v == d,
                };
                if kept {
                    self.removed[c * 32 + usize::from(d)] += 1;
                }
            }
        }
    }

    /// Moves to the front of `rest` its candidate removed most often (the first of them),
    /// keeping the others in order.
    fn bring_forward(&self, rest: &mut [Candidate]) {
        let of = |x: &Candidate| self.removed[x.cell * 32 + usize::from(x.digit)];
        let mut best = 0;
        for (j, x) in rest.iter().enumerate() {
            if of(x) > of(&rest[best]) {
                best = j;
            }
        }
        rest[..=best].rotate_right(1);
    }
}

/// The nested branch of `x` when it has to be made, whether it breaks, and where it ends
/// when it does not. A branch started from a remembered state has no proof of its own:
/// when it breaks, a fresh one is made for the step (`fresh`); when not, it is left to the
/// verities (made afresh, if ever).
fn nested_branch(
    e: &Engine,
    mode: Mode,
    keep: bool,
    position: &std::sync::Arc<nest_memory::State>,
    x: &Candidate,
    fresh: bool,
) -> (Option<Branch>, bool, Option<nest_memory::State>) {
    let memory = &e.ctx.mem.nest;
    let assume = fact(x.cell, x.digit, true);
    let known = if keep {
        memory.borrow().known(position, x.cell, x.digit)
    } else {
        nest_memory::Known::Nothing
    };
    let b = match known {
        nest_memory::Known::Unbroken(end) => return (None, false, Some(end)),
        nest_memory::Known::Inside(state, inner) => {
            let b = e.nested_from(assume, &state, &inner);
            if b.contradiction.is_some() {
                return (fresh.then(|| e.branch(assume, mode)), true, None);
            }
            let end = state_of(&b.value, &b.cand);
            memory
                .borrow_mut()
                .remember(position, x.cell, x.digit, end.clone(), b.inner);
            return (None, false, Some(end));
        }
        nest_memory::Known::Nothing => e.branch(assume, mode),
    };
    let broken = b.contradiction.is_some();
    let end = (!broken).then(|| state_of(&b.value, &b.cand));
    if let (true, Some(end)) = (keep, &end) {
        memory
            .borrow_mut()
            .remember(position, x.cell, x.digit, end.clone(), b.inner.clone());
    }
    (Some(b), broken, end)
}

/// Known nesting: each branch's facts join its candidate's known net, so another sweep
/// can rule out candidates whose own branch needed known nesting (up to a bound).
fn sweep_known(
    e: &Engine,
    info: &'static TechniqueInfo,
    all: &[Candidate],
    on: &mut [Slot],
    make: &mut impl FnMut(&Candidate) -> Rc<Branch>,
    learned: &std::cell::Cell<bool>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    e.next_known();
    for _ in 1..KNOWN_SWEEPS {
        if !learned.take() {
            break;
        }
        for pass in [false, true] {
            for (i, x) in all
                .iter()
                .enumerate()
                .filter(|(_, x)| of_solution(e.ctx, x) == pass)
            {
                // A branch that what was learnt cannot change is not made again (it
                // would end the same, and it learnt its facts already).
                if e.known_settled(on[i].branch(e, x)) {
                    continue;
                }
                let b = make(x);
                report_broken(e, info, x, &b, sink)?;
                on[i] = Slot::Made(b);
            }
        }
        e.next_known();
    }
    ControlFlow::Continue(())
}

/// Both states of a candidate: false leading to a contradiction places it; a fact that
/// both states imply holds.
fn both_states(
    e: &Engine,
    info: &'static TechniqueInfo,
    mode: Mode,
    all: &[Candidate],
    on: &[Slot],
    sink: &mut Sink,
) -> ControlFlow<()> {
    for (i, x) in all.iter().enumerate() {
        if on[i].broken() {
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
        if on[i].may_share(e, &off) {
            verity(e, info, &[on[i].branch(e, x), &off], sink)?;
        }
    }
    ControlFlow::Continue(())
}

/// Verities over groups of candidates one of which holds (see [`verity_groups`]).
fn group_verities(
    e: &Engine,
    info: &'static TechniqueInfo,
    all: &[Candidate],
    on: &[Slot],
    index: &[usize],
    sink: &mut Sink,
) -> ControlFlow<()> {
    // A member whose branch broke is false, so the others alone prove a verity. HoDoKu's
    // solving path does not take such a verity (its contradiction comes first), and on the
    // 9x9 rating path neither do we, to take the steps HoDoKu takes.
    let whole_groups = e.ctx.cache.hodoku_path.get();
    verity_groups(e, &mut |facts| {
        let members: Vec<usize> = facts.map(|(c, d)| index[c * 32 + usize::from(d)]).collect();
        if whole_groups && members.iter().any(|&i| on[i].broken()) {
            return ControlFlow::Continue(());
        }
        let members: Vec<usize> = members.into_iter().filter(|&i| !on[i].broken()).collect();
        if members.len() >= 2 && may_share_all(e, &members, on) {
            let branches: Vec<&Branch> =
                members.iter().map(|&i| on[i].branch(e, &all[i])).collect();
            verity(e, info, &branches, sink)?;
        }
        ControlFlow::Continue(())
    })
}

/// What [`verity_groups`] calls on each group: its candidates.
pub(super) type OnGroup<'f> =
    dyn FnMut(&mut dyn Iterator<Item = (Cell, u8)>) -> ControlFlow<()> + 'f;

/// Calls `each` on the groups of candidates one of which holds, in the verities' order:
/// every candidate of a cell, every place of a digit in a complete house, every place of a
/// digit a run or cage must hold (houses with one place of the digit left out).
pub(super) fn verity_groups(e: &Engine, each: &mut OnGroup) -> ControlFlow<()> {
    let ctx = e.ctx;
    // Cell verity: every candidate of a cell.
    for c in ctx.empty.iter() {
        each(&mut ctx.cand[c].iter().map(|d| (c, d)))?;
    }
    // House verity: every place of a digit in a complete house.
    for &h in &ctx.t.complete {
        for d in 1..=ctx.geo.max_digit() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 {
                continue;
            }
            each(&mut places.iter().map(|c| (c, d)))?;
        }
    }
    // The same for a digit every feasible run or combination of a run or cage holds.
    for (h, sp) in e.special.iter().enumerate() {
        if sp.is_none() {
            continue;
        }
        let house = ctx.geo.house(h);
        for d in crate::solver::logic::must_appear(ctx.grid, house).iter() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 || ctx.placed_in(h).contains(d) {
                continue;
            }
            each(&mut places.iter().map(|c| (c, d)))?;
        }
    }
    ControlFlow::Continue(())
}

/// The branch of a candidate set true, for the verities. A nested branch whose end memory
/// knows (see [`nest_memory`]) is made only when a verity could use it: every fact a branch
/// derives holds in its end, so when no fact holds in the ends of every member of a group,
/// there is no verity, and the branches (a full nested net each, most of a failing nested
/// search) are not made. Made or not, the verities found are the same.
pub(super) enum Slot {
    Made(Rc<Branch>),
    /// Where the unbroken branch ends, and the branch once made.
    Lazy(nest_memory::State, std::cell::OnceCell<Rc<Branch>>),
}

impl Slot {
    /// The branch of `x` (this slot's candidate), made if need be.
    fn branch(&self, e: &Engine, x: &Candidate) -> &Branch {
        match self {
            Slot::Made(b) => b.as_ref(),
            Slot::Lazy(_, b) => {
                b.get_or_init(|| Rc::new(e.branch(fact(x.cell, x.digit, true), Mode::Nested)))
            }
        }
    }

    fn broken(&self) -> bool {
        match self {
            Slot::Made(b) => b.contradiction.is_some(),
            Slot::Lazy(..) => false,
        }
    }

    /// Whether the branch may derive fact `(c, d, on)` (certainly, when made).
    fn may_hold(&self, c: Cell, d: u8, on: bool) -> bool {
        match self {
            Slot::Made(b) => b.parent_of(fact(c, d, on)) != UNSET,
            Slot::Lazy(end, _) => match on {
                true => end[c] == Digits::single(d),
                false => !end[c].contains(d),
            },
        }
    }

    /// Whether this branch and `other` may derive a common fact that a verity would take.
    fn may_share(&self, e: &Engine, other: &Branch) -> bool {
        if matches!(self, Slot::Made(_)) {
            return true;
        }
        other.derived.iter().any(|&f| {
            let (c, d, on) = unfact(f);
            verity_target(e, c, d) && self.may_hold(c, d, on)
        })
    }
}

/// Whether the branches of `members` (indices of `on`) may derive a common fact that a
/// verity would take: checked only when one of them is not made.
fn may_share_all(e: &Engine, members: &[usize], on: &[Slot]) -> bool {
    if members.iter().all(|&i| matches!(on[i], Slot::Made(_))) {
        return true;
    }
    let ctx = e.ctx;
    ctx.empty.iter().any(|c| {
        ctx.cand[c].iter().any(|d| {
            [true, false]
                .iter()
                .any(|&on_| members.iter().all(|&i| on[i].may_hold(c, d, on_)))
        })
    })
}

/// Whether a common fact on candidate `(c, d)` would make a verity (see [`verity`]).
fn verity_target(e: &Engine, c: Cell, d: u8) -> bool {
    e.group_of(c).is_none() && e.ctx.grid.value(c) == 0 && e.ctx.cand[c].contains(d)
}

/// Per cell, its digit (as a single) or its candidates.
pub(super) fn state_of(value: &[u8], cand: &[Digits]) -> nest_memory::State {
    value
        .iter()
        .zip(cand)
        .map(|(&v, &m)| if v == 0 { m } else { Digits::single(v) })
        .collect()
}

/// The position searched, in the memory's terms (see [`state_of`]).
pub(super) fn position_of(ctx: &Ctx) -> nest_memory::State {
    let values: Vec<u8> = (0..ctx.geo.cell_count())
        .map(|c| ctx.grid.value(c))
        .collect();
    state_of(&values, &ctx.cand)
}

/// How close branch `b` came to breaking: its empty cells per candidate left, a bivalue
/// cell counting one (scaled to an integer; higher is tighter). Measured on the hardest
/// honeycombs, trying the tightest known-net branches first halves the nested branches
/// made before one breaks, and cuts the worst cases by four to seven.
pub(super) fn tightness(ctx: &Ctx, b: &Branch) -> usize {
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
pub(super) fn verity(
    e: &Engine,
    info: &'static TechniqueInfo,
    branches: &[&Branch],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let Some(first) = branches.first() else {
        return ControlFlow::Continue(());
    };
    for &f in &first.derived {
        let common = branches[1..]
            .iter()
            .all(|b| b.parent_of(f) != UNSET && b.contradiction.is_none());
        if !common {
            continue;
        }
        let (c, d, on) = unfact(f);
        if !verity_target(e, c, d) {
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
pub(super) fn with_links(mut step: Step, b: &Branch, f: Fact, e: &Engine) -> Step {
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
