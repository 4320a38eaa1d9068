//! Nested levels of a branch: every candidate whose own net breaks inside it goes.
//!
//! Where a first (cold) nested search spends its time, measured on the every-25th sample of
//! the hard honeycombs (issue 22): a cold hint at the p99 is 85-90% nested search, which must
//! prove every assumption before the first breaker unbroken, each a full fixpoint: about 300
//! inner nets in the first pass and 180 in the second (two passes nearly always), for about 9
//! candidates removed of some 300. Levers measured there and dropped (exact unless said):
//! * Starting each nested branch where the first known-nesting sweep's branch ended (its
//!   known nets are plain nets, so each of its removals is a nested one): inner nets 1.0x
//!   (1,523,060 against 1,530,696 over puzzle 7's cold walk), same steps. That sweep removes
//!   few of what nesting removes, and such a start loses the pairs' verdicts. (Narrowing a
//!   start from memory the same way must add the houses of those removals to its first
//!   epoch, or the inner verdicts kept from the earlier position are misread.)
//! * Skipping assumptions that an unbroken nested end places (that end is a closed state
//!   inside their start, so they cannot break): 0-5 hits per cold search (ends place 1-3
//!   open digits), and a skipped branch leaves no end for later positions: the former-guess
//!   lines rated 40.0 s -> 55.6 s user.
//! * Another order of the candidates inside a nested level, for verdicts only (the largest
//!   closed state does not depend on it; proofs keep this order): with each branch's own
//!   removals first (an oracle) 1.58x fewer inner nets (593,507 -> 376,629, puzzle 17's cold
//!   walk), but no cheap signal predicts them: removals in earlier branches of the same
//!   search 1.08x, the same per cell 1.06x, the later known sweeps' removals 1.03x, plain net
//!   size 0.97x (3% of a branch's candidates go; the best feature found only doubles that).
//! * An inner net from its plain net's end masks instead of its facts: no change measured.
//! * Proving an assumption of a breaker scan unbroken from a smaller start: the end of a
//!   recent unbroken branch that still holds it, with that branch's inner record (any
//!   closed state left there is inside the assumption's own, so a non-empty one proves it
//!   unbroken). Over hc25's scans 1,276 of 3,224 such tries proved it, at 3.3 ms each
//!   against 2.8 ms for the branch itself; the 1,948 others cost 2.8 ms for nothing.
//!   Placing one digit in a closed end undoes as much as a fresh branch builds.

use super::*;

impl Engine<'_> {
    /// The nested branch of `assume` started from `state` instead of the position: where
    /// the same branch ended on an earlier position that included this one, so where it
    /// ends here lies inside it (see [`nest_memory`]). The facts taken from the state are not
    /// traced: only the verdict is read.
    pub(super) fn nested_from(
        &self,
        assume: Fact,
        state: &nest_memory::State,
        inner: &nest_memory::Inner,
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
    pub(super) fn touched(&self, facts: &[Fact]) -> u128 {
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
    pub(super) fn nest(&self, b: &mut Branch, queue: &mut Vec<Fact>, assume: Fact, start: Start) {
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
        // Per candidate whose inner net last ended unbroken, where it ended: see [`Ends`].
        let mut ends = Ends::new(n);
        if let Start::From { inner, at, new } = start {
            for &(y, houses, _) in &inner.per {
                last[y] = Some((at, houses));
            }
            ends.start_from(inner);
            epochs.push((at, new));
        }
        // Per candidate, the houses its inner net touched when last asked.
        let mut met = vec![u128::MAX; n * 32];
        // Per candidate that an unbroken inner net of the branch as it stands placed, the
        // houses that net touched (`freed` lists them, to clear when the branch changes).
        let mut free: Vec<Option<u128>> = vec![None; n * 32];
        let mut freed = Vec::new();
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
                    if let Some(houses) = free[y] {
                        met[y] = houses;
                        last[y] = Some((b.derived.len(), houses));
                        continue;
                    }
                    if let Some(houses) = ends.still_closed(y, b) {
                        met[y] = houses;
                        last[y] = Some((b.derived.len(), houses));
                        continue;
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
                            let y_fact = fact(c, d, true);
                            match ends.end_of(y) {
                                Some(end) => {
                                    self.inner_net_from(b, &mut inner, &mut q, y_fact, end)
                                }
                                None => self.inner_net(b, &mut inner, &mut q, y_fact, both),
                            }
                            let broken = inner.contradiction.is_some();
                            if !broken && inner.derived.len() <= MAX_FACTS {
                                let houses = self.touched(&inner.derived);
                                last[y] = Some((b.derived.len(), houses));
                                met[y] = houses;
                                // Only where nets never hit the fact limit (a cut-off net
                                // is not a closed state), as for the plain nets.
                                if self.dense_len > 0 && self.house_bits.is_some() {
                                    ends.keep(y, &inner, houses);
                                }
                                // Every candidate this net places holds inside its closed,
                                // unbroken end, so its own net (a part of it) cannot break
                                // and touches no other houses: until the branch changes,
                                // it needs no net of its own.
                                for &f in &inner.derived {
                                    let (zc, zd, on) = unfact(f);
                                    let z = zc * 32 + usize::from(zd);
                                    if on && b.value[zc] == 0 && free[z].is_none() {
                                        free[z] = Some(houses);
                                        freed.push(z);
                                    }
                                }
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
                        for z in freed.drain(..) {
                            free[z] = None;
                        }
                        let before = b.derived.len();
                        self.remove_nested(b, queue, assume, fact(c, d, false));
                        epochs.push((before, self.touched(&b.derived[before..])));
                        changed = true;
                        pristine = false;
                    }
                }
            }
        }
        b.inner = Default::default();
        if b.contradiction.is_none() {
            for c in self.ctx.empty.iter().filter(|&c| b.value[c] == 0) {
                for d in b.cand[c].iter() {
                    let y = c * 32 + usize::from(d);
                    let end = ends.copy_to(y, &mut b.inner.ends);
                    b.inner.per.push((y, met[y], end));
                }
            }
        }
    }

    /// Removes a candidate inside branch `b` because its own net would break there, and
    /// follows the consequences. Its parent is the assumption: the whole branch made it.
    pub(super) fn remove_nested(
        &self,
        b: &mut Branch,
        queue: &mut Vec<Fact>,
        assume: Fact,
        off: Fact,
    ) {
        self.remove_because(b, queue, assume, off, Because::Nested);
    }

    /// [`Engine::remove_nested`] for a removal of any depth (`why`).
    pub(super) fn remove_because(
        &self,
        b: &mut Branch,
        queue: &mut Vec<Fact>,
        assume: Fact,
        off: Fact,
        why: Because,
    ) {
        queue.clear();
        let before = b.derived.len();
        self.derive(b, off, assume, queue);
        if b.derived.len() > before {
            b.why.push((off, why));
        }
        self.run(b, queue, Mode::Net);
    }

    /// [`Engine::inner_net`] from where the net of `y` ended unbroken inside a larger state
    /// of the branch (`end`, per cell its mask): each fact of that end follows from `y` here
    /// too (every rule is monotone), so the net starts from the end's masks within `b`'s.
    /// That state differs from the closed end only in cells where `b` has lost what the end
    /// held, and from the closed `b` only where the end removed more: a rule can fire only in
    /// a house with cells of both kinds, the only ones re-examined (fewer, the tighter the
    /// end: it lies inside the plain net's end that [`Engine::inner_net`] starts from).
    pub(super) fn inner_net_from(
        &self,
        b: &Branch,
        inner: &mut Branch,
        q: &mut Vec<Fact>,
        y: Fact,
        end: &[u16],
    ) {
        inner.copy_state_from(b);
        q.clear();
        let mut lost = 0u128;
        for (c, &e) in end.iter().enumerate() {
            let here = match inner.value[c] {
                0 => inner.cand[c].0,
                v => Digits::single(v).0,
            };
            if e & !here != 0 {
                lost |= self.touched(&[fact(c, 1, false)]);
            }
            let gone = here & !e;
            if gone == 0 {
                continue;
            }
            match Digits(e).single_digit() {
                Some(v) if inner.value[c] == 0 => self.derive(inner, fact(c, v, true), NONE, q),
                _ => {
                    for d in Digits(gone).iter() {
                        self.derive(inner, fact(c, d, false), NONE, q);
                    }
                }
            }
            if inner.contradiction.is_some() {
                return;
            }
        }
        q.clear();
        let houses = lost & self.touched(&inner.derived);
        self.reexamine(inner, q, y, houses);
    }

    /// Singles, hidden singles and the rule of each house of `houses` in `inner` (facts
    /// made there name `y`), then propagation from what they found.
    fn reexamine(&self, inner: &mut Branch, q: &mut Vec<Fact>, y: Fact, mut houses: u128) {
        let g = self.ctx.geo;
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

    /// The net of `y` (true) inside branch `b`, left in `inner`. Only its verdict is read.
    ///
    /// When `y`'s plain net from the start is known (and nets here never hit the fact
    /// limit), it is not derived again: every rule is monotone (fewer candidates never undo
    /// an inference), so each of its facts holds, or breaks the grid, inside `b` as well, and
    /// they are applied as they are. `b` and that net are each closed under every rule, and a
    /// rule reads one cell or one house, so a rule can fire on the union only in the houses
    /// `both` that each of them touched: those are re-examined, and propagation goes on from
    /// there. The fixpoint, and so the verdict, is the same as a net derived afresh.
    pub(super) fn inner_net(
        &self,
        b: &Branch,
        inner: &mut Branch,
        q: &mut Vec<Fact>,
        y: Fact,
        both: u128,
    ) {
        inner.copy_state_from(b);
        q.clear();
        let (c, d, _) = unfact(y);
        let nets = self.nets.borrow();
        let ends = self.ends.borrow();
        let (seeds, end) = match (
            nets.get(c * 32 + usize::from(d)),
            ends.get(c * 32 + usize::from(d)),
        ) {
            (Some(Some(facts)), Some(Some(end)))
                if self.dense_len > 0 && self.house_bits.is_some() =>
            {
                (facts, end)
            }
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
        // A house whose masks in the union equal those of one side is closed there already
        // (every rule reads only its house's masks): only houses that `y`'s facts changed
        // inside `b` (new facts) and that `b` changed beside `y`'s end need a look.
        let mut houses = both & self.touched(&inner.derived);
        let mut left = houses;
        while left != 0 {
            let h = left.trailing_zeros() as usize;
            left &= left - 1;
            let Some(house) = g.houses().get(h) else {
                break;
            };
            let same = house.cells.iter().all(|&cell| {
                let m = match inner.value[cell] {
                    0 => inner.cand[cell].0,
                    v => Digits::single(v).0,
                };
                m == end[cell]
            });
            if same {
                houses &= !(1u128 << h);
            }
        }
        self.reexamine(inner, q, y, houses);
    }
}

/// Where the unbroken inner nets of a nested level ended, per candidate.
///
/// An inner net that ended unbroken ended in a state closed under every rule of a net,
/// inside the branch as it was then. The branch only shrinks; while that end state still
/// lies inside it, the end state is a closed state inside the branch plus the candidate,
/// so the candidate's net there ends in it or in a larger one, and cannot break: its
/// verdict is known without a net. Otherwise its next net starts from that end (see
/// [`Engine::inner_net_from`]). Kept with the branch in [`nest_memory`], the ends serve the
/// same branch on later positions: there most inner nets have to be made again (the house
/// test of [`Engine::nest`] rarely holds), and from these ends they re-examine far fewer
/// houses than from the plain nets (measured: hard honeycombs rated 1.35x faster).
struct Ends {
    cells: usize,
    /// Per candidate (`cell * 32 + digit`), where its masks start in `pool` and the houses
    /// its net touched (`u32::MAX`: none kept).
    at: Vec<(u32, u128)>,
    pool: Vec<u16>,
    /// The branch's masks, as of `seen` derived facts.
    masks: Vec<u16>,
    seen: usize,
}

impl Ends {
    fn new(cells: usize) -> Ends {
        Ends {
            cells,
            at: vec![(u32::MAX, 0); cells * 32],
            pool: Vec::new(),
            masks: Vec::new(),
            seen: usize::MAX,
        }
    }

    /// Takes the ends an earlier nested level of the same branch left.
    fn start_from(&mut self, inner: &nest_memory::Inner) {
        self.pool.clone_from(&inner.ends);
        for &(y, houses, at) in &inner.per {
            if let Some(slot) = self.at.get_mut(y) {
                *slot = (at, houses);
            }
        }
    }

    /// Appends the kept end of `y` to `pool`: its offset there (`u32::MAX`: none kept).
    fn copy_to(&self, y: usize, pool: &mut Vec<u16>) -> u32 {
        let Some(&(at, _)) = self.at.get(y).filter(|e| e.0 != u32::MAX) else {
            return u32::MAX;
        };
        let (Some(end), Ok(to)) = (
            self.pool.get(at as usize..at as usize + self.cells),
            u32::try_from(pool.len()),
        ) else {
            return u32::MAX;
        };
        pool.extend_from_slice(end);
        to
    }

    /// Where the kept net of `y` ended.
    fn end_of(&self, y: usize) -> Option<&[u16]> {
        let &(at, _) = self.at.get(y).filter(|e| e.0 != u32::MAX)?;
        self.pool.get(at as usize..at as usize + self.cells)
    }

    /// Keeps where the unbroken inner net of `y` ended, and the houses it touched.
    fn keep(&mut self, y: usize, inner: &Branch, houses: u128) {
        let Ok(at) = u32::try_from(self.pool.len()) else {
            return;
        };
        self.pool.extend(masks_iter(inner));
        self.at[y] = (at, houses);
    }

    /// The houses the kept net of `y` touched, when its end still lies inside `b`.
    fn still_closed(&mut self, y: usize, b: &Branch) -> Option<u128> {
        let (at, houses) = *self.at.get(y)?;
        if at == u32::MAX {
            return None;
        }
        if self.seen != b.derived.len() {
            self.masks.clear();
            self.masks.extend(masks_iter(b));
            self.seen = b.derived.len();
        }
        let at = at as usize;
        let end = self.pool.get(at..at + self.cells)?;
        end.iter()
            .zip(&self.masks)
            .all(|(&e, &m)| e & !m == 0)
            .then_some(houses)
    }
}

/// Per cell of `b`, its candidates as a mask, or its digit alone once placed.
fn masks_iter(b: &Branch) -> impl Iterator<Item = u16> + '_ {
    b.value
        .iter()
        .zip(&b.cand)
        .map(|(&v, m)| if v == 0 { m.0 } else { Digits::single(v).0 })
}
