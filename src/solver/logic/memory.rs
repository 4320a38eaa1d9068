//! [`SolverMemory`]: what a walk over one puzzle remembers between positions, owned by
//! whoever walks (the rater, `explain`, the generator, each hint worker of the player) and
//! handed to every search by `&mut`.
//!
//! Most of it only saves time: the run and cage rule memo, the run-pair memo, the ends of
//! unbroken nested branches and the per-layout tables are pure functions of their keys, so
//! a warm memory gives the same step as a fresh one. One part chooses steps: the nested
//! forcing-net *breakers* remembered from earlier positions are tried first, so a warm
//! memory may show a different (always sound) Forcing Net than a fresh one. The other part
//! is HoDoKu's singles queues ([`SinglesQueue`]): which single comes first depends on the
//! order in which earlier steps removed candidates. The rater,
//! `explain` and the generator therefore start each puzzle with a fresh memory, and their
//! output depends on the puzzle alone; the player's hint worker keeps one per game, which is
//! what makes the later hints of a hard honeycomb fast.
//!
//! The searches read the memory through a shared [`Ctx`](super::Ctx), so its parts sit in
//! `RefCell`s; each borrow lasts one lookup or one insert.

use super::nest_memory::Memory as NestMemory;
use super::rule_memo::Memo as RuleMemo;
use super::runs::PairMemo;
use super::singles_queue::SinglesQueue;
use super::Tables;
use crate::geometry::Geometry;
use std::cell::RefCell;
use std::sync::Arc;

/// Layouts whose tables are kept: a walk has one; jigsaw and killer change per puzzle.
const TABLES_KEPT: usize = 8;

/// Barren one-digit searches kept before the set is emptied (about 60 bytes each).
const BARREN_KEPT: usize = 100_000;

/// A search of one digit (fish of every kind; on complete houses also single-digit patterns
/// and X-chains): its layout's tables (by address: they live as long as the memory keeps
/// them), the technique and the digit's candidate cells. Such a search depends on nothing
/// else, so one that ran to the end without a find finds nothing again whenever the key
/// comes back (a step elsewhere leaves most digits as they were; on 16x16 grids complex fish
/// were a fifth of the rating; on top1465 the skips save about 5% of it).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct DigitKey {
    pub tables: usize,
    pub technique: &'static str,
    pub digit: u8,
    pub cells: [u64; 4],
}

/// Memory a walk over a puzzle carries from position to position (see the module docs).
/// Cheap to create: the large tables are allocated on first use.
#[derive(Default)]
pub struct SolverMemory {
    pub(super) rules: RefCell<RuleMemo>,
    pub(super) pairs: RefCell<PairMemo>,
    pub(super) nest: RefCell<NestMemory>,
    pub(super) singles: RefCell<SinglesQueue>,
    /// Searches of one digit that ran to the end and found nothing (see [`DigitKey`]).
    pub(super) barren: RefCell<std::collections::HashSet<DigitKey>>,
    tables: RefCell<Vec<(Arc<Geometry>, Arc<Tables>)>>,
    /// When the caller stops waiting: the forcing searches give up after it (the server's
    /// hint pool bounds each hint so).
    deadline: Option<std::time::Instant>,
    /// Set by the caller when it no longer wants the answer (a hint worked out ahead for a
    /// board the player has left): the forcing searches give up as at the deadline.
    stop: Option<Arc<std::sync::atomic::AtomicBool>>,
}

impl SolverMemory {
    /// An empty memory.
    pub fn new() -> SolverMemory {
        SolverMemory::default()
    }

    /// Sets (or with `None` lifts) the time after which forcing searches give up, finding
    /// nothing; the caller then knows the step it got may not be the first.
    pub fn set_deadline(&mut self, at: Option<std::time::Instant>) {
        self.deadline = at;
    }

    /// Sets (or with `None` lifts) a flag after whose setting forcing searches give up, as
    /// at the deadline.
    pub fn set_stop(&mut self, stop: Option<Arc<std::sync::atomic::AtomicBool>>) {
        self.stop = stop;
    }

    /// True once the deadline has passed or the caller said stop.
    pub(super) fn out_of_time(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            || self
                .deadline
                .is_some_and(|at| std::time::Instant::now() >= at)
    }

    /// Forgets the remembered breakers and singles queues (the parts that choose steps),
    /// keeping what only saves time: the next step depends on the position alone.
    pub fn forget_breakers(&mut self) {
        self.nest.get_mut().forget_breakers();
        *self.singles.get_mut() = SinglesQueue::default();
    }

    /// Forgets everything but the layout tables (benchmarks time a first hint with it).
    pub fn forget(&mut self) {
        self.rules.get_mut().clear();
        self.pairs.get_mut().clear();
        *self.nest.get_mut() = NestMemory::default();
        *self.singles.get_mut() = SinglesQueue::default();
        self.barren.get_mut().clear();
    }

    /// Whether this one-digit search ran to the end with no find before.
    pub(super) fn is_barren(&self, key: &DigitKey) -> bool {
        self.barren.borrow().contains(key)
    }

    /// Remembers a one-digit search that ran to the end with no find.
    pub(super) fn remember_barren(&self, key: DigitKey) {
        let mut kept = self.barren.borrow_mut();
        if kept.len() >= BARREN_KEPT {
            kept.clear();
        }
        kept.insert(key);
    }

    /// The tables of a geometry, built once per layout (by identity, else by value).
    pub(super) fn tables(&self, g: &Arc<Geometry>) -> Arc<Tables> {
        let mut kept = self.tables.borrow_mut();
        if let Some((_, t)) = kept.iter().find(|(k, _)| Arc::ptr_eq(k, g) || **k == **g) {
            return Arc::clone(t);
        }
        let t = Arc::new(Tables::build(g));
        if kept.len() >= TABLES_KEPT {
            kept.remove(0);
            // A later layout's tables may take the evicted ones' address.
            self.barren.borrow_mut().clear();
        }
        kept.push((Arc::clone(g), Arc::clone(&t)));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hint worker moves its memory into its own thread.
    #[test]
    fn a_memory_can_move_to_another_thread() {
        fn is_send<T: Send>() {}
        is_send::<SolverMemory>();
    }
}
