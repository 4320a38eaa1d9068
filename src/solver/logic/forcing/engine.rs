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
            known: Default::default(),
            groups: Vec::new(),
            groups_of_house: Vec::new(),
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
            parent: vec![UNSET; slots * stride],
            stride,
            derived: Vec::new(),
            why: Vec::new(),
            dirty: Vec::new(),
            contradiction: None,
            effects: Vec::new(),
            inner: Vec::new(),
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
                for &p in g.peers(c) {
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
                    let name = crate::solver::logic::step::house_name(self.ctx.geo, h);
                    b.contradiction = Some((f, format!("{name} can hold no {what}")));
                }
            }
        }
        b.effects = effects;
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

    /// What the rule of run or cage `h` concludes from its cells' masks: digits outside
    /// every feasible set go, a digit every feasible set holds with one place goes there,
    /// and no feasible set at all is a contradiction.
    pub(super) fn rule_effects(&self, h: HouseId, masks: &[u16], out: &mut Vec<Effect>) {
        let Some(sp) = &self.special[h] else {
            return;
        };
        let cells = &self.ctx.geo.house(h).cells;
        // One borrow per lookup and per insert: computing a result asks no rule.
        let hit = self.ctx.mem.rules.borrow_mut().lookup(sp.sig, masks);
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
