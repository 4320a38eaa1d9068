//! Deep forcing nets: a branch nested two levels down. Inside the branch of an assumption,
//! every candidate whose own nested net (one level) breaks there goes, until nothing
//! changes; a branch that then breaks proves its assumption false.
//!
//! A net per candidate per candidate per candidate: far too dear for every position, so it
//! runs only where every other technique is stuck (last before a guess), only on grids with
//! runs (honeycombs: plain grids and cages keep the paths they had), tries only assumptions
//! outside the known solution when there is one (the others cannot break), and stops at the
//! first that breaks.

use super::search::{broken_step, candidates, of_solution, tightness};
use super::*;

/// Nested nets (one level) inside one branch before it gives up, and in one search: bound
/// the worst case, which a hint must not pay on an open grid.
const INNER_BUDGET: usize = 400;
const TOTAL_BUDGET: usize = 20_000;

pub(super) fn find(e: &Engine, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let ctx = e.ctx;
    let runs = ctx
        .geo
        .houses()
        .iter()
        .any(|h| h.rule == Rule::ConsecutiveRun);
    if !runs || e.dense_len == 0 || e.house_bits.is_none() {
        return ControlFlow::Continue(());
    }
    // The plain net of every candidate: the nested levels read them (see `Engine::nest`),
    // and how tight each leaves the grid orders the assumptions.
    let mut order: Vec<(usize, Candidate)> = Vec::new();
    for x in candidates(ctx) {
        let y = x.cell * 32 + usize::from(x.digit);
        let b = e.net(fact(x.cell, x.digit, true));
        if b.contradiction.is_none() {
            e.keep_net(y, &b);
        }
        e.touch.borrow_mut()[y] = if b.derived.len() > MAX_FACTS || b.contradiction.is_some() {
            u128::MAX
        } else {
            e.touched(&b.derived)
        };
        if !of_solution(ctx, &x) {
            order.push((tightness(ctx, &b), x));
        }
    }
    // Tightest plain nets first: on the hard honeycombs the first assumption tried
    // breaks at most positions (ordering by the nested branches instead finds the same
    // but costs twenty times as much).
    order.sort_by_key(|&(t, _)| std::cmp::Reverse(t));
    let mut budget = TOTAL_BUDGET;
    for (_, x) in order {
        if ctx.mem.out_of_time() || budget == 0 {
            return ControlFlow::Break(());
        }
        let b = e.deep_branch(fact(x.cell, x.digit, true), &mut budget);
        if let Some((f, _)) = &b.contradiction {
            sink(broken_step(e, info, x, &b, *f))?;
        }
    }
    ControlFlow::Continue(())
}

impl Engine<'_> {
    /// The branch of `assume` nested two levels: its one-level nested branch, then every
    /// candidate whose one-level nested net breaks inside it removed, until nothing changes
    /// (or the budget of inner nested nets runs out).
    pub(super) fn deep_branch(&self, assume: Fact, total: &mut usize) -> Branch {
        let mut b = self.branch(assume, Mode::Nested);
        let n = self.ctx.geo.cell_count();
        let mut queue = Vec::with_capacity(256);
        let mut q = Vec::with_capacity(256);
        let mut budget = INNER_BUDGET;
        let mut changed = true;
        while changed && b.contradiction.is_none() {
            changed = false;
            for c in 0..n {
                if b.value[c] != 0 {
                    continue;
                }
                for d in b.cand[c].iter() {
                    if b.contradiction.is_some() || b.value[c] != 0 || budget == 0 || *total == 0 {
                        break;
                    }
                    budget -= 1;
                    *total = total.saturating_sub(1);
                    let y = fact(c, d, true);
                    let mut inner = b.clone();
                    q.clear();
                    self.derive(&mut inner, y, NONE, &mut q);
                    self.run(&mut inner, &mut q, Mode::Net);
                    if inner.contradiction.is_none() {
                        self.nest(&mut inner, &mut q, y, Start::Deep);
                    }
                    if inner.contradiction.is_some() {
                        let off = fact(c, d, false);
                        self.remove_because(&mut b, &mut queue, assume, off, Because::Deep);
                        changed = true;
                    }
                }
            }
        }
        b
    }
}
