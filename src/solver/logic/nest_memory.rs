//! What nested forcing-net searches proved on earlier positions of a puzzle, kept in the
//! caller's [`SolverMemory`](super::SolverMemory).
//!
//! A nested branch computes the largest state inside its start (the position plus its
//! assumption) that is closed under every rule of the net and under nesting, and breaks
//! when that state is empty. That largest state only shrinks as the position does. Hence:
//! * **Unbroken branches.** Where an unbroken branch ended is closed on its own. On a later
//!   position whose candidates still include all of it, the same assumption cannot break
//!   (the search skips it); on a later position inside the one it was found on, the branch
//!   ends inside it and may start from it, which saves the rounds that found it. Either way
//!   the verdict is the one a fresh branch gives.
//! * **Breakers.** An assumption whose branch broke on a position breaks on every position
//!   inside it. When breakers are rare, the search that finds one goes on through the rest
//!   and remembers them all; later positions try those first (each proof is made afresh).
//!   Not on runs and cages, where the search's order finds one soon enough without (see
//!   `forcing::SCAN_AFTER`).
//!   This one changes which step a hint shows (never whether it is sound), so the rater,
//!   `explain` and the generator start each puzzle with a fresh memory, and their steps
//!   depend on the puzzle alone.
//!
//! On the hardest honeycombs the same assumptions fail step after step, and breakers are
//! used up one step at a time: most of a nested search's time without this memory.

use crate::geometry::{Cell, Digits, Geometry};
use std::collections::HashMap;
use std::sync::Arc;

/// Entries kept per memory before the memory starts over (a few KB each).
const CAP: usize = 2048;

/// Per cell, its digit (as a single) or its candidates.
pub type State = Vec<Digits>;

/// A position an unbroken branch was searched on, where it ended, and what its nested level
/// left (see [`Inner`]).
type Unbroken = (Arc<State>, State, Arc<Inner>);

/// What the nested level of an unbroken branch left, per candidate still in the branch
/// (`cell * 32 + digit`): the houses its inner net touched, and where that net ended when
/// it ended unbroken (`cells` masks from that offset in `ends`; `u32::MAX` when not kept).
#[derive(Clone, Default, Debug)]
pub struct Inner {
    pub per: Vec<(usize, u128, u32)>,
    pub ends: Vec<u16>,
}

/// The nested-net part of a [`SolverMemory`](super::SolverMemory).
#[derive(Default)]
pub struct Memory {
    /// The layout the states belong to: another puzzle layout starts over.
    geo: Option<Geometry>,
    unbroken: HashMap<(Cell, u8), Unbroken>,
    /// Per assumption that broke, the position it broke on.
    breakers: HashMap<(Cell, u8), Arc<State>>,
}

/// What is known of an assumption's nested branch on the current position.
pub enum Known {
    Nothing,
    /// It cannot break, and ends at this state: an end kept inside the position is that
    /// branch's end there (the largest closed state inside the position and the assumption,
    /// which lies inside the larger start it came from).
    Unbroken(State),
    /// It ends inside this state; the nested level that left it left these houses per
    /// candidate.
    Inside(State, Arc<Inner>),
}

impl Memory {
    /// Readies the memory for a search on layout `geo` (another layout starts over);
    /// whether it already held branches of that layout (a walk in progress, which later
    /// positions of will read what this search finds).
    pub fn open(&mut self, geo: &Geometry) -> bool {
        if self.geo.as_ref() != Some(geo) || self.unbroken.len() + self.breakers.len() >= CAP {
            *self = Memory {
                geo: Some(geo.clone()),
                ..Memory::default()
            };
        }
        !self.unbroken.is_empty()
    }

    /// What is known of the nested branch of `cell = digit` on `position`. Call
    /// [`Memory::open`] first.
    pub fn known(&self, position: &State, cell: Cell, digit: u8) -> Known {
        match self.unbroken.get(&(cell, digit)) {
            Some((_, state, _)) if within(state, position) => Known::Unbroken(state.clone()),
            Some((old, state, inner)) if within(position, old) => {
                Known::Inside(state.clone(), Arc::clone(inner))
            }
            _ => Known::Nothing,
        }
    }

    /// Remembers where the unbroken nested branch of `cell = digit` ended on `position`.
    /// Call [`Memory::open`] first.
    pub fn remember(
        &mut self,
        position: &Arc<State>,
        cell: Cell,
        digit: u8,
        state: State,
        inner: Inner,
    ) {
        let entry = (Arc::clone(position), state, Arc::new(inner));
        self.unbroken.insert((cell, digit), entry);
    }

    /// Remembers that the nested branch of `cell = digit` broke on `position`.
    pub fn remember_breaker(&mut self, position: &Arc<State>, cell: Cell, digit: u8) {
        self.breakers.insert((cell, digit), Arc::clone(position));
    }

    /// Whether the nested branch of `cell = digit` is known to break on `position`.
    pub fn breaks(&self, position: &State, cell: Cell, digit: u8) -> bool {
        self.breakers
            .get(&(cell, digit))
            .is_some_and(|old| within(position, old))
    }

    /// Forgets the breakers (which choose steps), keeping what only saves time.
    pub fn forget_breakers(&mut self) {
        self.breakers.clear()
    }
}

/// Whether every cell's digits in `a` are among those of `b`.
fn within(a: &[Digits], b: &[Digits]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 & !y.0 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::square::standard;

    fn state(masks: &[u16]) -> Arc<State> {
        Arc::new(masks.iter().map(|&m| Digits(m)).collect())
    }

    /// An unbroken end state decides a later position by inclusion: inside the position it
    /// cannot break; a position inside the one it was found on starts from it; anything
    /// else is unknown. Breakers hold on every position inside theirs.
    #[test]
    fn memory_answers_only_for_positions_it_covers() {
        let geo = standard(4).unwrap();
        let mut m = Memory::default();
        m.open(&geo);
        let found_on = state(&[0b1111, 0b0110, 0b0011]);
        let end = state(&[0b0001, 0b0110, 0b0010]).to_vec();
        m.remember(&found_on, 0, 1, end.clone(), Inner::default());
        // Known unbroken, with where the branch ends.
        assert!(matches!(m.known(&found_on, 0, 1), Known::Unbroken(e) if e == end));
        // The position lost a digit the end state still holds: start from the state.
        let smaller = state(&[0b1111, 0b0100, 0b0011]);
        assert!(matches!(m.known(&smaller, 0, 1), Known::Inside(..)));
        // A position the state is not inside of, nor inside the old one: unknown.
        let other = state(&[0b1111, 0b1000, 0b0011]);
        assert!(matches!(m.known(&other, 0, 1), Known::Nothing));
        assert!(matches!(m.known(&found_on, 0, 2), Known::Nothing));

        m.remember_breaker(&found_on, 1, 2);
        assert!(m.breaks(&found_on, 1, 2));
        assert!(m.breaks(&smaller, 1, 2));
        assert!(!m.breaks(&other, 1, 2));
        m.forget_breakers();
        assert!(!m.breaks(&found_on, 1, 2));
        assert!(matches!(m.known(&found_on, 0, 1), Known::Unbroken(_)));

        // Another layout starts over.
        m.open(&standard(9).unwrap());
        assert!(matches!(m.known(&found_on, 0, 1), Known::Nothing));
    }
}
