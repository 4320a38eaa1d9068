//! Play state: values, pencil marks, givens, undo/redo of everything, timer, mistakes,
//! checking against the solution, and save files. No terminal code lives here.

pub mod assist;
pub mod builtin;
pub mod daily;
pub mod hints;
pub mod library;
pub mod profile;
pub mod save;
pub mod stats;

use crate::geometry::{Cell, Digits, Geometry, Rule};
use crate::puzzle::{Grid, Puzzle};
use crate::solver::exact;
use assist::Assists;
use hints::Hint;

/// Values and marks at one moment, with the cursor of that moment (undo moves it back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub values: Vec<u8>,
    pub marks: Vec<Digits>,
    pub cursor: Cell,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("that cell is a given")]
    Given,
    #[error("digit out of range")]
    Range,
    #[error("the cell already holds a digit")]
    Filled,
    #[error("nothing to change")]
    Nothing,
}

/// Undo history kept in memory and in the save file.
pub const HISTORY_LIMIT: usize = 2000;

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    puzzle: Puzzle,
    solution: Option<Vec<u8>>,
    values: Vec<u8>,
    marks: Vec<Digits>,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// Playing time so far, in milliseconds.
    pub elapsed_ms: u64,
    pub paused: bool,
    /// Digits placed that differ from the solution (while `count_mistakes`).
    pub mistakes: u32,
    /// Whether wrong digits are counted (the count gives answers away; a config switch).
    pub count_mistakes: bool,
    /// The help this game had; [`Assists::is_assisted`] decides whether its solve was.
    pub assists: Assists,
    pub solved: bool,
}

impl Game {
    /// A fresh game; the solution is computed when the puzzle has exactly one.
    pub fn new(puzzle: Puzzle) -> Game {
        let found = exact::solve(&puzzle, 2);
        let solution = if found.count == 1 { found.first } else { None };
        let n = puzzle.geometry().cell_count();
        Game {
            values: puzzle.givens.clone(),
            marks: vec![Digits::EMPTY; n],
            solution,
            puzzle,
            undo: Vec::new(),
            redo: Vec::new(),
            elapsed_ms: 0,
            paused: false,
            mistakes: 0,
            count_mistakes: true,
            assists: Assists::default(),
            solved: false,
        }
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    pub fn geometry(&self) -> &Geometry {
        self.puzzle.geometry()
    }

    /// The unique solution, when the puzzle has one.
    pub fn solution(&self) -> Option<&[u8]> {
        self.solution.as_deref()
    }

    pub fn values(&self) -> &[u8] {
        &self.values
    }

    pub fn value(&self, cell: Cell) -> u8 {
        self.values.get(cell).copied().unwrap_or(0)
    }

    pub fn marks(&self, cell: Cell) -> Digits {
        self.marks.get(cell).copied().unwrap_or(Digits::EMPTY)
    }

    pub fn all_marks(&self) -> &[Digits] {
        &self.marks
    }

    /// A fingerprint of the entries and pencil marks (FNV-1a), the same from run to run:
    /// the board a hint on show belongs to.
    pub fn board_key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        self.values.iter().for_each(|&v| eat(v));
        for m in &self.marks {
            m.0.to_le_bytes().into_iter().for_each(&mut eat);
        }
        h
    }

    pub fn is_given(&self, cell: Cell) -> bool {
        self.puzzle.givens.get(cell).is_some_and(|&d| d != 0)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn history(&self) -> (&[Snapshot], &[Snapshot]) {
        (&self.undo, &self.redo)
    }

    /// Empty cells left.
    pub fn remaining(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    fn snapshot(&self, cursor: Cell) -> Snapshot {
        Snapshot {
            values: self.values.clone(),
            marks: self.marks.clone(),
            cursor,
        }
    }

    /// Remembers the state before a change.
    fn record(&mut self, cursor: Cell) {
        let s = self.snapshot(cursor);
        self.undo.push(s);
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    fn refresh_solved(&mut self) {
        self.solved = self.remaining() == 0 && self.puzzle.check_solution(&self.values).is_ok();
    }

    /// Places a digit; with `auto_remove`, also removes it from the peers' marks.
    pub fn place(
        &mut self,
        cell: Cell,
        digit: u8,
        auto_remove: bool,
        cursor: Cell,
    ) -> Result<(), MoveError> {
        if cell >= self.values.len() {
            return Err(MoveError::Range);
        }
        if self.is_given(cell) {
            return Err(MoveError::Given);
        }
        if digit == 0 || digit > self.geometry().max_digit() {
            return Err(MoveError::Range);
        }
        if self.values[cell] == digit {
            return Err(MoveError::Nothing);
        }
        self.record(cursor);
        self.set_value(cell, digit, auto_remove);
        if self.count_mistakes && self.solution.as_ref().is_some_and(|s| s[cell] != digit) {
            self.mistakes = self.mistakes.saturating_add(1);
        }
        self.refresh_solved();
        Ok(())
    }

    fn set_value(&mut self, cell: Cell, digit: u8, auto_remove: bool) {
        self.values[cell] = digit;
        self.marks[cell] = Digits::EMPTY;
        if auto_remove {
            let peers = self.puzzle.geometry().peers(cell).to_vec();
            for p in peers {
                self.marks[p].remove(digit);
            }
        }
    }

    /// Clears an entered digit, or the marks of an empty cell.
    pub fn clear(&mut self, cell: Cell, cursor: Cell) -> Result<(), MoveError> {
        if cell >= self.values.len() {
            return Err(MoveError::Range);
        }
        if self.is_given(cell) {
            return Err(MoveError::Given);
        }
        if self.values[cell] == 0 && self.marks[cell].is_empty() {
            return Err(MoveError::Nothing);
        }
        self.record(cursor);
        if self.values[cell] != 0 {
            self.values[cell] = 0;
        } else {
            self.marks[cell] = Digits::EMPTY;
        }
        self.solved = false;
        Ok(())
    }

    /// Toggles a pencil mark in an empty cell.
    pub fn toggle_mark(&mut self, cell: Cell, digit: u8, cursor: Cell) -> Result<(), MoveError> {
        if cell >= self.values.len() || digit == 0 || digit > self.geometry().max_digit() {
            return Err(MoveError::Range);
        }
        if self.is_given(cell) {
            return Err(MoveError::Given);
        }
        if self.values[cell] != 0 {
            return Err(MoveError::Filled);
        }
        self.record(cursor);
        let m = &mut self.marks[cell];
        if m.contains(digit) {
            m.remove(digit);
        } else {
            m.insert(digit);
        }
        Ok(())
    }

    /// Pencils every digit no peer holds into every empty cell.
    pub fn fill_candidates(&mut self, cursor: Cell) -> Result<(), MoveError> {
        let grid = Grid::from_values(self.puzzle.geometry_arc(), &self.values);
        let new: Vec<Digits> = (0..self.values.len())
            .map(|c| {
                if self.values[c] == 0 {
                    grid.candidates(c)
                } else {
                    Digits::EMPTY
                }
            })
            .collect();
        if new == self.marks {
            return Err(MoveError::Nothing);
        }
        self.record(cursor);
        self.marks = new;
        Ok(())
    }

    /// Removes every pencil mark.
    pub fn clear_marks(&mut self, cursor: Cell) -> Result<(), MoveError> {
        if self.marks.iter().all(|m| m.is_empty()) {
            return Err(MoveError::Nothing);
        }
        self.record(cursor);
        self.marks.iter_mut().for_each(|m| *m = Digits::EMPTY);
        Ok(())
    }

    /// Applies a hint's placements, eliminations and clears as one undoable move. Whoever
    /// applies it counts it in [`Game::assists`] (a hint's apply, or a replay's step).
    pub fn apply_hint(
        &mut self,
        hint: &Hint,
        auto_remove: bool,
        cursor: Cell,
    ) -> Result<(), MoveError> {
        let n = self.values.len();
        let max = self.geometry().max_digit();
        let valid = |c: Cell, d: u8| c < n && (1..=max).contains(&d);
        if hint.placements.iter().any(|p| !valid(p.cell, p.digit))
            || hint.eliminations.iter().any(|p| !valid(p.cell, p.digit))
            || hint.clears.iter().any(|&c| c >= n)
        {
            return Err(MoveError::Range);
        }
        self.record(cursor);
        // Eliminations need pencil marks to act on: pencil in every candidate first when
        // the player has not (the same undoable move).
        let all_marked = (0..n).all(|c| self.values[c] != 0 || !self.marks[c].is_empty());
        if !hint.eliminations.is_empty() && !all_marked {
            let grid = Grid::from_values(self.puzzle.geometry_arc(), &self.values);
            for c in 0..n {
                self.marks[c] = if self.values[c] == 0 {
                    grid.candidates(c)
                } else {
                    Digits::EMPTY
                };
            }
        }
        for &c in &hint.clears {
            if !self.is_given(c) {
                self.values[c] = 0;
            }
        }
        for e in &hint.eliminations {
            self.marks[e.cell].remove(e.digit);
        }
        for p in &hint.placements {
            if !self.is_given(p.cell) {
                self.set_value(p.cell, p.digit, auto_remove);
            }
        }
        self.refresh_solved();
        Ok(())
    }

    /// Fills an empty cell with its solution digit (one undoable move, counted as a reveal,
    /// which an undo does not take back). Gives the digit; `Ok(None)` without a unique
    /// solution.
    pub fn reveal(
        &mut self,
        cell: Cell,
        auto_remove: bool,
        cursor: Cell,
    ) -> Result<Option<u8>, MoveError> {
        if cell >= self.values.len() {
            return Err(MoveError::Range);
        }
        if self.is_given(cell) {
            return Err(MoveError::Given);
        }
        if self.values[cell] != 0 {
            return Err(MoveError::Filled);
        }
        let Some(digit) = self.solution.as_ref().map(|s| s[cell]) else {
            return Ok(None);
        };
        self.record(cursor);
        self.set_value(cell, digit, auto_remove);
        self.assists.revealed();
        self.refresh_solved();
        Ok(Some(digit))
    }

    /// Fills every non-given cell from the solution (one undoable move); returns how many
    /// cells changed. `None` without a unique solution.
    pub fn finish(&mut self, cursor: Cell) -> Option<usize> {
        let solution = self.solution.clone()?;
        let changed = (0..self.values.len())
            .filter(|&c| self.values[c] != solution[c])
            .count();
        if changed == 0 {
            return Some(0);
        }
        self.record(cursor);
        self.values.copy_from_slice(&solution);
        self.marks.iter_mut().for_each(|m| *m = Digits::EMPTY);
        self.assists.finished();
        self.refresh_solved();
        Some(changed)
    }

    /// Steps back; returns the cursor of the restored moment.
    pub fn undo(&mut self, cursor: Cell) -> Option<Cell> {
        let prev = self.undo.pop()?;
        let now = self.snapshot(cursor);
        self.redo.push(now);
        Some(self.restore(prev))
    }

    pub fn redo(&mut self, cursor: Cell) -> Option<Cell> {
        let next = self.redo.pop()?;
        let now = self.snapshot(cursor);
        self.undo.push(now);
        Some(self.restore(next))
    }

    /// Puts a recorded moment back; returns its cursor.
    fn restore(&mut self, moment: Snapshot) -> Cell {
        self.values = moment.values;
        self.marks = moment.marks;
        self.refresh_solved();
        moment.cursor
    }

    /// Cells that break a rule right now: equal digits in a house, a cage over its sum or
    /// complete with another sum, a run line whose digits cannot be consecutive.
    pub fn conflicts(&self) -> Vec<bool> {
        conflicts(self.geometry(), &self.values)
    }

    /// Entered digits that differ from the solution.
    pub fn deviations(&self) -> Vec<Cell> {
        let Some(sol) = &self.solution else {
            return Vec::new();
        };
        (0..self.values.len())
            .filter(|&c| self.values[c] != 0 && self.values[c] != sol[c])
            .collect()
    }

    /// Empty cells with pencil marks that leave out the solution's digit.
    pub fn bad_marks(&self) -> Vec<Cell> {
        let Some(sol) = &self.solution else {
            return Vec::new();
        };
        (0..self.values.len())
            .filter(|&c| {
                self.values[c] == 0 && !self.marks[c].is_empty() && !self.marks[c].contains(sol[c])
            })
            .collect()
    }

    /// Whether anything was played: an entry, a pencil mark, or a move to undo.
    pub fn has_progress(&self) -> bool {
        self.can_undo()
            || self.values != self.puzzle.givens
            || self.marks.iter().any(|m| !m.is_empty())
    }

    /// Whether the entered digits can still be completed to a solution.
    pub fn still_solvable(&self) -> bool {
        if self.conflicts().iter().any(|&b| b) {
            return false;
        }
        if let Some(sol) = &self.solution {
            return self.deviations().is_empty() && sol.len() == self.values.len();
        }
        exact::Prepared::new(self.geometry())
            .solve(&self.values, 1)
            .count
            > 0
    }

    /// The candidate grid a hint should work on: the entered digits, narrowed by the
    /// player's pencil marks when every empty cell has some and none excludes the answer.
    pub fn hint_grid(&self) -> Grid {
        let given: Vec<bool> = self.puzzle.givens.iter().map(|&d| d != 0).collect();
        let grid = Grid::from_values(self.puzzle.geometry_arc(), &self.values).with_givens(&given);
        let all_marked =
            (0..self.values.len()).all(|c| self.values[c] != 0 || !self.marks[c].is_empty());
        if !all_marked || self.solution.is_none() || !self.bad_marks().is_empty() {
            return grid;
        }
        let cands: Vec<Digits> = (0..self.values.len())
            .map(|c| {
                if self.values[c] == 0 {
                    grid.candidates(c).intersect(self.marks[c])
                } else {
                    grid.candidates(c)
                }
            })
            .collect();
        Grid::from_parts(self.puzzle.geometry_arc(), self.values.clone(), cands).with_givens(&given)
    }

    /// Restores a game from saved parts (see [`save`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        puzzle: Puzzle,
        values: Vec<u8>,
        marks: Vec<Digits>,
        undo: Vec<Snapshot>,
        redo: Vec<Snapshot>,
        elapsed_ms: u64,
        mistakes: u32,
        assists: Assists,
    ) -> Game {
        let mut g = Game::new(puzzle);
        g.values = values;
        g.marks = marks;
        g.undo = undo;
        g.redo = redo;
        g.elapsed_ms = elapsed_ms;
        g.mistakes = mistakes;
        g.assists = assists;
        g.refresh_solved();
        g
    }
}

/// See [`Game::conflicts`].
pub fn conflicts(g: &Geometry, values: &[u8]) -> Vec<bool> {
    let mut bad = vec![false; g.cell_count()];
    for house in g.houses() {
        let filled: Vec<Cell> = house
            .cells
            .iter()
            .copied()
            .filter(|&c| values.get(c).is_some_and(|&v| v != 0))
            .collect();
        for (i, &a) in filled.iter().enumerate() {
            for &b in &filled[i + 1..] {
                if values[a] == values[b] {
                    bad[a] = true;
                    bad[b] = true;
                }
            }
        }
        let digits: Vec<u32> = filled.iter().map(|&c| u32::from(values[c])).collect();
        let broken = match house.rule {
            Rule::Complete => false,
            Rule::Cage { sum } => {
                let total: u32 = digits.iter().sum();
                total > sum || (filled.len() == house.cells.len() && total != sum)
            }
            Rule::ConsecutiveRun => match (digits.iter().min(), digits.iter().max()) {
                (Some(lo), Some(hi)) => (hi - lo + 1) as usize > house.cells.len(),
                _ => false,
            },
        };
        if broken {
            for &c in &filled {
                bad[c] = true;
            }
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Game {
        Game::new(builtin::puzzle(crate::puzzle::Variant::Standard))
    }

    #[test]
    fn place_undo_redo_round_trip() {
        let mut g = game();
        let empty = (0..81).find(|&c| !g.is_given(c)).unwrap();
        g.place(empty, 4, true, empty).unwrap();
        assert_eq!(g.value(empty), 4);
        assert_eq!(g.undo(empty), Some(empty));
        assert_eq!(g.value(empty), 0);
        g.redo(empty);
        assert_eq!(g.value(empty), 4);
        assert_eq!(g.place(0, 1, true, 0), Err(MoveError::Given));
    }

    #[test]
    fn auto_remove_clears_peer_marks_and_undo_brings_them_back() {
        let mut g = game();
        g.fill_candidates(0).unwrap();
        let sol = g.solution().unwrap().to_vec();
        let cell = (0..81).find(|&c| !g.is_given(c)).unwrap();
        let peer = *g
            .geometry()
            .peers(cell)
            .iter()
            .find(|&&p| g.marks(p).contains(sol[cell]))
            .unwrap();
        g.place(cell, sol[cell], true, cell).unwrap();
        assert!(!g.marks(peer).contains(sol[cell]));
        g.undo(cell);
        assert!(g.marks(peer).contains(sol[cell]));
    }

    #[test]
    fn conflicts_mark_both_cells_and_mistakes_count() {
        let mut g = game();
        let sol = g.solution().unwrap().to_vec();
        let cell = (0..81).find(|&c| !g.is_given(c)).unwrap();
        let peer_given = *g
            .geometry()
            .peers(cell)
            .iter()
            .find(|&&p| g.is_given(p))
            .unwrap();
        let d = g.value(peer_given);
        g.place(cell, d, false, cell).unwrap();
        let bad = g.conflicts();
        assert!(bad[cell] && bad[peer_given]);
        assert_eq!(g.mistakes, u32::from(d != sol[cell]));
        assert!(!g.still_solvable());
        assert_eq!(g.deviations(), vec![cell]);
    }

    #[test]
    fn finish_solves_in_one_undoable_move() {
        let mut g = game();
        assert!(g.finish(0).unwrap() > 0);
        assert!(g.solved);
        g.undo(0);
        assert!(!g.solved);
    }
}
