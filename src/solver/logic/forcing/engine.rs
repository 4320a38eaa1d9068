//! Propagation of one branch: singles, hidden singles and the run and cage rules.

use super::*;

impl<'a> Engine<'a> {
    pub(super) fn new(ctx: &'a Ctx<'a>) -> Engine<'a> {
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
                        crate::solver::rules::combinations(n, len, sum),
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
            cell_links: false,
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
            ends: std::cell::RefCell::new(vec![None; ctx.geo.cell_count() * 32]),
            known: Default::default(),
            groups: Vec::new(),
            groups_of_house: Vec::new(),
            group_links: Default::default(),
        }
    }

    pub(super) fn root(&self) -> Branch {
        let n = self.ctx.geo.cell_count();
        let stride = 2 * (usize::from(self.ctx.geo.max_digit()) + 1);
        // Group facts take the slots past the cells'.
        let slots = n + self.groups.len();
        Branch {
            cand: self.ctx.cand.clone(),
            value: (0..n).map(|c| self.ctx.grid.value(c)).collect(),
            open: self.ctx.digit.clone(),
            placed: self.placed.clone(),
            parent: vec![PACKED_UNSET; slots * stride],
            stride,
            // Most branches derive a few hundred facts: one allocation, not eight growths.
            derived: Vec::with_capacity(256),
            why: Vec::new(),
            dirty: Vec::new(),
            contradiction: None,
            effects: Vec::new(),
            closed: vec![0; self.special.len()],
            inner: Default::default(),
        }
    }

    /// Records a fact (if new) and its immediate effect on the state; false on contradiction.
    pub(super) fn derive(&self, b: &mut Branch, f: Fact, parent: u32, queue: &mut Vec<Fact>) {
        if b.contradiction.is_some() {
            return;
        }
        let (c, d, on) = unfact(f);
        if self.group_of(c).is_some() {
            return self.derive_group(b, f, parent, queue);
        }
        let g = self.ctx.geo;
        if on {
            if b.value[c] == d {
                return;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d) {
                b.set_parent(f, parent);
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
                b.set_parent(f, parent);
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
                b.set_parent(f, parent);
                b.contradiction = Some((f, format!("{} has no candidate left", g.cell_name(c))));
                return;
            }
        }
        b.set_parent(f, parent);
        b.derived.push(f);
        queue.push(f);
    }

    /// Follows the consequences of the queued facts.
    ///
    /// Tried and dropped (issue 22): for inner nets, whose end alone is read, one dirty
    /// house's rule at a time with the singles between (the end is the same in any order):
    /// rules asked 4.79 -> 4.74 million, computed 3.09 -> 3.05 million on hc25 puzzle 12
    /// (1%), not worth a mode of its own.
    pub(super) fn run(&self, b: &mut Branch, queue: &mut Vec<Fact>, mode: Mode) {
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
            if let Some(k) = self.group_of(c) {
                self.group_effects(b, k, d, on, f, queue);
                continue;
            }
            let groups = mode == Mode::Chain && !self.groups.is_empty();
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
                        let x = fact(c, e, false);
                        if self.cell_links && b.parent_of(x) == UNSET {
                            // The cell is placed, so `derive` kept no fact: record it.
                            b.set_parent(x, f);
                            b.derived.push(x);
                            queue.push(x);
                        }
                    }
                }
                b.cand[c] = Digits::single(d);
                // The peers that hold `d` or still may (the others have nothing to do), in
                // the peers' order.
                let di = usize::from(d);
                let touched = self.ctx.t.peers[c].and(b.open[di].or(b.placed[di]));
                for p in touched.iter() {
                    if b.value[p] == d {
                        b.set_parent(fact(p, d, true), f);
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
                if groups {
                    self.groups_after_on(b, c, d, f, queue);
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
                if groups {
                    self.groups_after_off(b, c, d, f, queue);
                }
            }
        }
    }

    /// The rule of run or cage `h` after fact `f`: on the branch's state (nets), or on the
    /// starting candidates with `f` alone applied (`single`: chains stay single-premise;
    /// such results do not depend on the branch, so they are computed once per search).
    pub(super) fn house_rule(
        &self,
        b: &mut Branch,
        h: HouseId,
        f: Fact,
        single: bool,
        q: &mut Vec<Fact>,
    ) {
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
                let masks = self.start_masks(h, f);
                self.rule_effects(h, &masks, closed_key(&masks), &mut out);
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
            let masks = &masks[..cells.len()];
            let key = closed_key(masks);
            if key != 0 && b.closed.get(h) == Some(&key) {
                b.effects = effects;
                return;
            }
            if let Some(after) = self.rule_effects(h, masks, key, &mut effects) {
                if let Some(k) = b.closed.get_mut(h) {
                    // Where the effects below leave the cells (unless the grid breaks).
                    *k = after;
                }
            }
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
                    let name = crate::solver::logic::step::house_name(self.ctx.geo, h);
                    b.contradiction = Some((f, format!("{name} can hold no {what}")));
                }
            }
        }
        b.effects = effects;
    }

    /// Keeps the plain net `b` of candidate `y` (`cell * 32 + digit`), unbroken and closed,
    /// for the nested levels: its facts and the masks it ends with.
    pub(super) fn keep_net(&self, y: usize, b: &Branch) {
        self.nets.borrow_mut()[y] = Some(b.derived.clone());
        self.ends.borrow_mut()[y] = Some(masks_of(b));
    }

    /// The masks of house `h`'s cells at the start with fact `f` applied.
    pub(super) fn start_masks(&self, h: HouseId, f: Fact) -> Vec<u16> {
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

    /// What the rule of run or cage `h` concludes from its cells' masks (`key`: the same
    /// packed by [`closed_key`]): digits outside every feasible set go, a digit every
    /// feasible set holds with one place goes there, and no feasible set at all is a
    /// contradiction. Returns the closed key of the masks once these effects are applied
    /// (None when the grid breaks).
    pub(super) fn rule_effects(
        &self,
        h: HouseId,
        masks: &[u16],
        key: u128,
        out: &mut Vec<Effect>,
    ) -> Option<u128> {
        let sp = self.special[h].as_ref()?;
        let cells = &self.ctx.geo.house(h).cells;
        let (kind, _, max, _) = sp.sig;
        // A complete house as long as its largest digit is a run of one window (the run
        // rule gives what the matching gives); with two cells fixed its states fit in two
        // words, cheaper than the memo's loads.
        let one_window = matches!(kind, 0 | 1) && masks.len() == usize::from(max);
        let direct = kind == 1 && masks.len() <= DIRECT_MAX
            || one_window
                && masks.len() <= DIRECT_MAX + 1
                && masks.iter().filter(|m| m.count_ones() == 1).count() >= 2;
        let packed = match key {
            0 => None,
            k => rule_memo::with_sig(sp.sig, k),
        };
        if let (true, Some(k)) = (direct, packed) {
            let p = self.ctx.mem.rules.borrow_mut().direct_packed(k, || {
                let r = match run_rule::run_rule(masks, max) {
                    Some((allowed, must)) => RuleOut {
                        allowed,
                        must,
                        broken: false,
                    },
                    None => RuleOut::BROKEN,
                };
                rule_memo::pack_out(&r, masks.len())
            });
            return push_packed(cells, masks, key, p, out);
        }
        if direct {
            let r =
                self.ctx
                    .mem
                    .rules
                    .borrow_mut()
                    .direct(sp.sig, masks, || match run_rule::run_rule(masks, max) {
                        Some((allowed, must)) => RuleOut {
                            allowed,
                            must,
                            broken: false,
                        },
                        None => RuleOut::BROKEN,
                    });
            push_effects(cells, masks, &r, out);
            return (!r.broken).then(|| closed_after(masks, &r));
        }
        // One borrow per lookup and per insert: computing a result asks no rule.
        let hit = self.ctx.mem.rules.borrow_mut().lookup(sp.sig, masks);
        let r = hit.unwrap_or_else(|| {
            // Runs (wider ones than `DIRECT_MAX` here): one pass over all their windows
            // (measured: 0.27-0.7 µs against 1.1-1.6 µs for a matching per window). A
            // single window (complete houses, 9-cell runs) and cages keep the matching.
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
        push_effects(cells, masks, &r, out);
        (!r.broken).then(|| closed_after(masks, &r))
    }

    /// `derive`, remembering that house `h`'s rule made the fact.
    pub(super) fn derive_by(
        &self,
        b: &mut Branch,
        f: Fact,
        parent: u32,
        h: HouseId,
        q: &mut Vec<Fact>,
    ) {
        let before = b.derived.len();
        self.derive(b, f, parent, q);
        if b.derived.len() > before {
            b.why.push((f, Because::Rule(h)));
        }
    }

    pub(super) fn hidden(
        &self,
        b: &mut Branch,
        h: HouseId,
        d: u8,
        f: Fact,
        mode: Mode,
        q: &mut Vec<Fact>,
    ) {
        let house = self.ctx.t.house_sets[h];
        let places = house.and(b.open[usize::from(d)]);
        let count = places.len();
        // Two places or more: nothing follows (the common case, decided first).
        if count >= 2 || !house.and(b.placed[usize::from(d)]).is_empty() {
            return;
        }
        let last = places.first().unwrap_or(0);
        let start = self.ctx.where_in(h, d).len();
        match count {
            0 => {
                b.contradiction = Some((
                    f,
                    format!(
                        "{} has no place left for {}",
                        crate::solver::logic::step::house_name(self.ctx.geo, h),
                        digit_char(d)
                    ),
                ))
            }
            1 if mode != Mode::Chain || start == 2 => self.derive(b, fact(last, d, true), f, q),
            _ => {}
        }
    }

    /// The branch that starts from one assumed fact.
    pub(super) fn branch(&self, assume: Fact, mode: Mode) -> Branch {
        if mode == Mode::Chain {
            let mut b = self.root();
            let mut queue = Vec::with_capacity(256);
            self.derive(&mut b, assume, NONE, &mut queue);
            self.run(&mut b, &mut queue, mode);
            return b;
        }
        // Known and nested levels start with a copy of the plain net (their propagation is
        // the net's), and clear the queue before they use it.
        let mut b = Rc::unwrap_or_clone(self.net(assume));
        let mut queue = Vec::with_capacity(256);
        if mode == Mode::Known {
            self.nest_known(&mut b, &mut queue, assume);
        }
        if mode == Mode::Nested {
            self.nest(&mut b, &mut queue, assume, Start::Plain);
        }
        b
    }
}

impl Engine<'_> {
    /// The plain net of `assume`, for reading: kept for the position when this engine's
    /// nets are the shared ones (see [`PlainNets`]), and taken from there when made before.
    pub(super) fn net(&self, assume: Fact) -> Rc<Branch> {
        // Nets of a candidate set false are cheaper made than kept (measured).
        let shared = self.shares_nets() && unfact(assume).2;
        let store = &self.ctx.cache.forcing_nets;
        if shared {
            if let Some(b) = store.get(assume) {
                return b;
            }
        }
        let mut b = self.root();
        let mut queue = Vec::with_capacity(256);
        self.derive(&mut b, assume, NONE, &mut queue);
        self.run(&mut b, &mut queue, Mode::Net);
        let b = Rc::new(b);
        if shared {
            store.put(self.ctx.geo.cell_count(), assume, &b);
        }
        b
    }

    /// Whether this engine's plain nets are those every net search of the position makes:
    /// not with a chain's cell links or group nodes, and only on grids small enough that
    /// keeping every net of a position costs little (the same bound as the pair verdicts).
    pub(super) fn shares_nets(&self) -> bool {
        !self.cell_links && self.groups.is_empty() && self.dense_len > 0
    }
}

/// The masks of a house of up to 9 cells and digits up to 9 in one number (0 for wider
/// houses: never a key, since a real cell's mask is never empty). Built in two 64-bit
/// halves (seven cells, then two): shifting a `u128` by a variable amount costs branches,
/// and this runs on every ask of a run or cage rule.
fn closed_key(masks: &[u16]) -> u128 {
    if masks.len() > 9 {
        return 0;
    }
    let (mut lo, mut hi, mut over) = (0u64, 0u64, 0u16);
    for (i, &m) in masks.iter().enumerate() {
        over |= m;
        if i < 7 {
            lo |= u64::from(m) << (9 * i);
        } else {
            hi |= u64::from(m) << (9 * (i - 7));
        }
    }
    if over > 0x1FF {
        return 0;
    }
    u128::from(lo) | u128::from(hi) << 63
}

/// Per cell, its candidates as a mask, or its digit alone once placed.
pub(super) fn masks_of(b: &Branch) -> Vec<u16> {
    b.value
        .iter()
        .zip(&b.cand)
        .map(|(&v, m)| if v == 0 { m.0 } else { Digits::single(v).0 })
        .collect()
}

/// Runs up to this many cells are computed afresh on a miss of the memo's small direct
/// table: one pass over at most four words of states costs less than the big table's
/// loads, which mostly miss the cache (the lookup was 28% of a hard honeycomb's walk,
/// nearly all of it two loads; measured: the walk is 5% faster without it for runs up to 8
/// cells, slower for the 9-cell lines). The direct table (128 KB) answers about a third of
/// these asks. Complete 9-cell lines go there too once two cells are fixed (states in two
/// words); with one fixed (four words) no gain measured (hs9: first 6 lines of hc25, one
/// core, base/new 12.94/12.23, 12.96/13.13, 11.58/11.29 s).
const DIRECT_MAX: usize = 8;

/// The effects of rule result `r` on a house's `cells` with `masks`.
fn push_effects(cells: &[Cell], masks: &[u16], r: &RuleOut, out: &mut Vec<Effect>) {
    if r.broken {
        out.push(Effect::Broken);
        return;
    }
    // Digits held by exactly one cell: a must-appear digit among them goes there.
    let (mut once, mut twice) = (0u16, 0u16);
    for ((&c, &m), &a) in cells.iter().zip(masks).zip(&r.allowed) {
        twice |= once & m;
        once |= m;
        let mut gone = m & !a;
        while gone != 0 {
            out.push(Effect::Off(c, gone.trailing_zeros() as u8 + 1));
            gone &= gone - 1;
        }
    }
    let mut single = r.must & once & !twice;
    while single != 0 {
        let bit = single & single.wrapping_neg();
        single &= single - 1;
        if let Some(i) = masks.iter().position(|&m| m & bit != 0) {
            out.push(Effect::On(cells[i], bit.trailing_zeros() as u8 + 1));
        }
    }
}

/// [`push_effects`] for a result packed by the memo (see [`rule_memo::pack_out`]) on
/// masks packed in `key` (see [`closed_key`]): the same effects in the same order (a
/// cell's removals digit by digit, cells in order, then the placements), read off the bits
/// (most answers remove nothing: then no cell is unpacked). Returns the closed key after
/// them (None when the house breaks).
fn push_packed(
    cells: &[Cell],
    masks: &[u16],
    key: u128,
    p: u128,
    out: &mut Vec<Effect>,
) -> Option<u128> {
    if p >> 127 == 1 {
        out.push(Effect::Broken);
        return None;
    }
    let allowed = p & ((1u128 << 81) - 1);
    let mut gone = key & !allowed;
    while gone != 0 {
        let bit = gone.trailing_zeros();
        gone &= gone - 1;
        if let Some(&c) = cells.get((bit / 9) as usize) {
            out.push(Effect::Off(c, (bit % 9) as u8 + 1));
        }
    }
    let must = (p >> 81) as u16 & 0x1FF;
    if must != 0 {
        let (mut once, mut twice) = (0u16, 0u16);
        for &m in masks {
            twice |= once & m;
            once |= m;
        }
        let mut single = must & once & !twice;
        while single != 0 {
            let bit = single & single.wrapping_neg();
            single &= single - 1;
            if let Some(&c) = masks
                .iter()
                .position(|&m| m & bit != 0)
                .and_then(|i| cells.get(i))
            {
                out.push(Effect::On(c, bit.trailing_zeros() as u8 + 1));
            }
        }
    }
    Some(key & allowed)
}

/// The closed key of `masks` once the removals of rule result `r` are applied.
fn closed_after(masks: &[u16], r: &RuleOut) -> u128 {
    let mut after = [0u16; 16];
    for ((a, &m), &k) in after.iter_mut().zip(masks).zip(&r.allowed) {
        *a = m & k;
    }
    closed_key(&after[..masks.len()])
}

/// The rule of a run or cage over its cells' masks: per cell, the digits some feasible set
/// gives it by a matching of cells to digits.
pub(super) fn rule_out(sets: &[u16], masks: &[u16]) -> RuleOut {
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

#[cfg(test)]
mod packed_tests {
    use super::*;

    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    fn tuples(effects: &[Effect]) -> Vec<(u8, Cell, u8)> {
        effects
            .iter()
            .map(|e| match *e {
                Effect::Off(c, d) => (0, c, d),
                Effect::On(c, d) => (1, c, d),
                Effect::Broken => (2, 0, 0),
            })
            .collect()
    }

    /// The packed reading of a memo answer gives the effects, in the order, and the closed
    /// key that the unpacked one gives, on random run lines (placed cells among them).
    #[test]
    fn packed_answers_give_the_same_effects_and_closed_key() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut changed = 0;
        for len in 5..=8usize {
            let cells: Vec<Cell> = (10..10 + len).collect();
            for _ in 0..4000 {
                let masks: Vec<u16> = (0..len)
                    .map(|_| match next(&mut s) % 4 {
                        0 => 1 << (next(&mut s) % 9),
                        _ => ((next(&mut s) & next(&mut s)) & 0x1FF) as u16 | 1,
                    })
                    .collect();
                let r = match run_rule::run_rule(&masks, 9) {
                    Some((allowed, must)) => RuleOut {
                        allowed,
                        must,
                        broken: false,
                    },
                    None => RuleOut::BROKEN,
                };
                let mut plain = Vec::new();
                push_effects(&cells, &masks, &r, &mut plain);
                let mut packed = Vec::new();
                let key = closed_key(&masks);
                let p = rule_memo::pack_out(&r, len);
                let after = push_packed(&cells, &masks, key, p, &mut packed);
                assert_eq!(tuples(&plain), tuples(&packed), "{masks:?}");
                assert_eq!(after, (!r.broken).then(|| closed_after(&masks, &r)));
                changed += usize::from(plain.iter().any(|e| matches!(e, Effect::Off(..))));
                // The closed key with its signature is the memo's own key: an answer kept
                // packed reads back unpacked (the other reading is never computed).
                let sig = (1, len as u8, 9, 0);
                let mut memo = rule_memo::Memo::default();
                let k = rule_memo::with_sig(sig, key).expect("a short line packs");
                assert_eq!(memo.direct_packed(k, || p), p);
                let other = match r.broken {
                    true => RuleOut { broken: false, ..r },
                    false => RuleOut::BROKEN,
                };
                assert_eq!(memo.direct(sig, &masks, || other), r);
            }
        }
        assert!(changed > 100, "{changed}");
    }
}
