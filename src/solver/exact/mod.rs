//! The exact solver: bitset candidates, propagation over every rule kind, and search that
//! counts solutions up to a limit. One door for every variant, [`solve`], and a prepared
//! form for many grids of one layout, [`Prepared`]; each picks its path itself: plain 9x9
//! grids go to the bitboard solver (`fast9`), small layouts of lines only (honeycomb, 4x4,
//! 6x6) to the line solver (`lines`), every other layout (up to 16x16) to the bit-plane
//! solver (`planes`). The cell-list solver in this file is the reference the others are
//! tested against, and finds the generator's random solution grids.

mod fast9;
mod lines;
mod planes;
#[cfg(target_arch = "x86_64")]
mod simd9;

use crate::solver::rules::{digit_sets, viable_edges};

use crate::geometry::{Cell, Digits, Geometry, Rule};
use crate::puzzle::Puzzle;

/// Solutions found, up to the limit asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// 0, 1, ... up to the limit (a count equal to the limit means "at least").
    pub count: usize,
    /// The first solution found, when there is one.
    pub first: Option<Vec<u8>>,
}

impl Solutions {
    pub fn is_unique(&self) -> bool {
        self.count == 1
    }
}

/// Counts the solutions of a puzzle up to `limit` (at least 1).
pub fn solve(puzzle: &Puzzle, limit: usize) -> Solutions {
    let g = puzzle.geometry();
    if g.is_plain_9x9() {
        let mut givens = [0u8; 81];
        givens.copy_from_slice(&puzzle.givens);
        let mut out = [0u8; 81];
        let count = solve9(&givens, limit.max(1), &mut out);
        return Solutions {
            count,
            first: (count > 0).then(|| out.to_vec()),
        };
    }
    solve_generic(g, &puzzle.givens, limit)
}

/// How many solutions a puzzle has, up to `limit` (at least 1), without keeping one (a
/// batch that only counts skips an allocation per puzzle on the 9x9 path).
pub fn count(puzzle: &Puzzle, limit: usize) -> usize {
    if puzzle.geometry().is_plain_9x9() {
        let mut givens = [0u8; 81];
        givens.copy_from_slice(&puzzle.givens);
        return solve9(&givens, limit.max(1), &mut [0u8; 81]);
    }
    solve(puzzle, limit).count
}

/// The plain 9x9 path: the AVX-512 one where the CPU has it, else the portable `fast9`.
/// Same contract as `fast9::solve9`.
fn solve9(givens: &[u8; 81], limit: usize, out: &mut [u8; 81]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(count) = simd9::solve9(givens, limit, out) {
        return count;
    }
    fast9::solve9(givens, limit, out)
}

/// The generic path for any geometry, from givens.
fn solve_generic(geometry: &Geometry, givens: &[u8], limit: usize) -> Solutions {
    let all = geometry.all_digits();
    let cands: Vec<Digits> = givens
        .iter()
        .map(|&d| if d == 0 { all } else { Digits::single(d) })
        .collect();
    solve_candidates(geometry, &cands, limit)
}

/// The reference solver from givens (tests cross-check the fast paths against it).
pub fn reference_from_givens(geometry: &Geometry, givens: &[u8], limit: usize) -> Solutions {
    let all = geometry.all_digits();
    let cands: Vec<Digits> = givens
        .iter()
        .map(|&d| if d == 0 { all } else { Digits::single(d) })
        .collect();
    solve_reference(geometry, &cands, limit)
}

/// Counts solutions consistent with a candidate grid (a placed digit is a single candidate).
fn solve_candidates(geometry: &Geometry, candidates: &[Digits], limit: usize) -> Solutions {
    if let Some(plan) = lines::Plan::new(geometry) {
        return plan.solve(candidates, limit);
    }
    if let Some(s) = planes::solve(geometry, candidates, limit) {
        return s;
    }
    solve_reference(geometry, candidates, limit)
}

/// The cell-list solver for any size: the reference the bit-plane solver is checked
/// against.
fn solve_reference(geometry: &Geometry, candidates: &[Digits], limit: usize) -> Solutions {
    Prepared::new(geometry).count(candidates, limit)
}

/// The solver's per-geometry tables, built once for callers that solve many grids of one
/// layout: the generator checks uniqueness after every clue it removes, and rebuilding the
/// peer lists and cage combinations each time would cost more than an easy solve.
pub struct Prepared {
    plan: Plan,
    /// The line solver's tables, for layouts it takes (honeycomb, 4x4, 6x6).
    lines: Option<lines::Plan>,
    /// The layout, for the bit-plane path of [`Prepared::solve`] (None for plain 9x9, which
    /// the bitboards take).
    planes: Option<Geometry>,
    plain9: bool,
    cells: usize,
    houses: usize,
    /// Failed-literal probing at the root: pays off on hard puzzles, but costs a
    /// propagation per candidate, which dominates the many easy checks of a generator.
    probe: bool,
}

impl Prepared {
    pub fn new(geometry: &Geometry) -> Prepared {
        let plain9 = geometry.is_plain_9x9();
        Prepared {
            plan: Plan::new(geometry),
            lines: (!plain9).then(|| lines::Plan::new(geometry)).flatten(),
            planes: (!plain9 && geometry.cell_count() <= planes::MAX_CELLS)
                .then(|| geometry.clone()),
            plain9,
            cells: geometry.cell_count(),
            houses: geometry.houses().len(),
            probe: !geometry.is_plain_9x9(),
        }
    }

    /// Skips root probing (see [`Prepared::count`]).
    pub fn without_probing(mut self) -> Prepared {
        self.probe = false;
        self
    }

    /// Counts solutions from givens (0 = empty), up to `limit`, by the fastest path for the
    /// layout: 9x9 bitboards, else the line solver (honeycomb, 4x4, 6x6), else bit planes
    /// (1.3 to 3 times faster than the cell-list solver on diagonal and killer, 3 times on
    /// the generator's 16x16 checks).
    pub fn solve(&self, givens: &[u8], limit: usize) -> Solutions {
        if self.plain9 && givens.len() == 81 {
            let mut g = [0u8; 81];
            g.copy_from_slice(givens);
            let mut out = [0u8; 81];
            let count = solve9(&g, limit.max(1), &mut out);
            return Solutions {
                count,
                first: (count > 0).then(|| out.to_vec()),
            };
        }
        if let Some(lines) = &self.lines {
            return lines.solve_givens(givens, limit);
        }
        if let Some(geometry) = &self.planes {
            let all = geometry.all_digits();
            let cands: Vec<Digits> = givens
                .iter()
                .map(|&d| if d == 0 { all } else { Digits::single(d) })
                .collect();
            if let Some(s) = planes::solve(geometry, &cands, limit) {
                return s;
            }
        }
        self.count_givens(givens, limit)
    }

    /// Counts solutions from givens (0 = empty), up to `limit`, with the cell-list solver.
    pub fn count_givens(&self, givens: &[u8], limit: usize) -> Solutions {
        let all = self.plan.all;
        let cands: Vec<Digits> = givens
            .iter()
            .map(|&d| match d {
                0 => Digits(all),
                1..=16 => Digits::single(d),
                // Out of range: no candidate, so no solution (never a panic).
                _ => Digits::EMPTY,
            })
            .collect();
        self.count(&cands, limit)
    }

    /// Counts solutions consistent with a candidate grid, up to `limit`.
    pub fn count(&self, candidates: &[Digits], limit: usize) -> Solutions {
        let mut search = Search::new(&self.plan, limit);
        if let Some(mut state) = self.start(candidates) {
            if !self.probe || self.plan.probe(&mut state) {
                search.run(state);
            }
        }
        Solutions {
            count: search.count,
            first: search.first,
        }
    }

    /// One solution chosen at random: every branch tries its choices in an order drawn from
    /// `random`. Gives up (None) after `max_nodes` search nodes, so a layout without any
    /// solution (a rare random jigsaw) cannot stall the generator.
    pub fn random_solution(
        &self,
        candidates: &[Digits],
        random: &mut dyn FnMut() -> u64,
        max_nodes: usize,
    ) -> Option<Vec<u8>> {
        let mut search = Search::new(&self.plan, 1);
        search.random = Some(random);
        search.max_nodes = max_nodes;
        if let Some(state) = self.start(candidates) {
            search.run(state);
        }
        search.first
    }

    fn start(&self, candidates: &[Digits]) -> Option<State> {
        let mut state = State {
            cands: candidates.iter().map(|d| d.0).collect(),
            done: vec![false; candidates.len()],
            seen: vec![u64::MAX; self.houses],
        };
        (state.cands.len() == self.cells && self.plan.seed(&mut state)).then_some(state)
    }
}

enum Kind {
    Complete,
    /// Feasible windows of consecutive digits, as masks.
    Run(Vec<u16>),
    /// Digit sets of the right size and sum.
    Combos(Vec<u16>),
}

struct PlanHouse {
    cells: Vec<u16>,
    kind: Kind,
}

/// Per-geometry tables, built once per solve.
struct Plan {
    all: u16,
    peers: Vec<Vec<u16>>,
    houses: Vec<PlanHouse>,
}

impl Plan {
    fn new(g: &Geometry) -> Plan {
        let n = g.max_digit();
        let houses = g
            .houses()
            .iter()
            .map(|h| {
                let kind = match (h.rule, digit_sets(h.rule, h.cells.len(), n)) {
                    (Rule::ConsecutiveRun, Some(sets)) => Kind::Run(sets),
                    (_, Some(sets)) => Kind::Combos(sets),
                    (_, None) => Kind::Complete,
                };
                PlanHouse {
                    cells: h.cells.iter().map(|&c| c as u16).collect(),
                    kind,
                }
            })
            .collect();
        Plan {
            all: g.all_digits().0,
            peers: g
                .cells()
                .map(|c| g.peers(c).iter().map(|&p| p as u16).collect())
                .collect(),
            houses,
        }
    }

    /// Initial propagation of the given singles; false on contradiction.
    fn seed(&self, s: &mut State) -> bool {
        if s.cands.iter().any(|&m| m & !self.all != 0) {
            return false;
        }
        self.propagate(s)
    }

    /// Removes `mask` from a cell; false when it empties the cell.
    #[inline]
    fn restrict(&self, s: &mut State, cell: usize, keep: u16, changed: &mut bool) -> bool {
        let old = s.cands[cell];
        let new = old & keep;
        if new != old {
            s.cands[cell] = new;
            *changed = true;
        }
        new != 0
    }

    /// Runs singles and house rules to a fixpoint; false on contradiction.
    fn propagate(&self, s: &mut State) -> bool {
        loop {
            let mut changed = false;
            // Naked singles: a cell down to one digit takes it from its peers.
            for cell in 0..s.cands.len() {
                let m = s.cands[cell];
                if m == 0 {
                    return false;
                }
                if !s.done[cell] && m & (m - 1) == 0 {
                    s.done[cell] = true;
                    for &p in &self.peers[cell] {
                        if !self.restrict(s, p as usize, !m, &mut changed) {
                            return false;
                        }
                    }
                }
            }
            for house in &self.houses {
                if !self.house_rule(s, house, &mut changed) {
                    return false;
                }
            }
            if changed {
                continue;
            }
            // Cheap rules are exhausted: all-different filtering by matching (Regin), which
            // removes every candidate that lies on no complete assignment of a house.
            for (h, house) in self.houses.iter().enumerate() {
                // Skip houses unchanged since their last matching pass.
                let print = house.cells.iter().fold(0u64, |a, &c| {
                    a.rotate_left(7) ^ u64::from(s.cands[c as usize])
                });
                if s.seen[h] == print {
                    continue;
                }
                if !self.matching_rule(s, house, &mut changed) {
                    return false;
                }
                s.seen[h] = house.cells.iter().fold(0u64, |a, &c| {
                    a.rotate_left(7) ^ u64::from(s.cands[c as usize])
                });
            }
            if !changed {
                return true;
            }
        }
    }

    fn house_rule(&self, s: &mut State, house: &PlanHouse, changed: &mut bool) -> bool {
        let (mut once, mut twice) = (0u16, 0u16);
        for &c in &house.cells {
            let m = s.cands[c as usize];
            twice |= once & m;
            once |= m;
        }
        let must = match &house.kind {
            Kind::Complete => self.all,
            Kind::Run(sets) | Kind::Combos(sets) => {
                // A set is feasible when every cell can take one of its digits and every
                // digit has a cell.
                let (mut allowed, mut must) = (0u16, u16::MAX);
                for &set in sets {
                    if set & !once == 0
                        && house.cells.iter().all(|&c| s.cands[c as usize] & set != 0)
                    {
                        allowed |= set;
                        must &= set;
                    }
                }
                if allowed == 0 {
                    return false;
                }
                if once & !allowed != 0 {
                    for &c in &house.cells {
                        if !self.restrict(s, c as usize, allowed, changed) {
                            return false;
                        }
                    }
                }
                must
            }
        };
        if must & !once != 0 {
            return false;
        }
        // Hidden singles among the digits that must appear.
        let mut singles = must & !twice;
        while singles != 0 {
            let bit = singles & singles.wrapping_neg();
            singles &= singles - 1;
            for &c in &house.cells {
                let m = s.cands[c as usize];
                if m & bit != 0 {
                    if m != bit {
                        s.cands[c as usize] = bit;
                        *changed = true;
                    }
                    break;
                }
            }
        }
        true
    }
}

impl Plan {
    fn matching_rule(&self, s: &mut State, house: &PlanHouse, changed: &mut bool) -> bool {
        let windows: &[u16] = match &house.kind {
            Kind::Complete => std::slice::from_ref(&self.all),
            Kind::Run(w) => w,
            Kind::Combos(_) => return true,
        };
        let mut masks = [0u16; 16];
        let n = house.cells.len();
        for (i, &c) in house.cells.iter().enumerate() {
            masks[i] = s.cands[c as usize];
        }
        let mut allowed = [0u16; 16];
        let mut any = false;
        for &w in windows {
            if let Some(viable) = viable_edges(&masks[..n], w) {
                any = true;
                for i in 0..n {
                    allowed[i] |= viable[i];
                }
            }
        }
        if !any {
            return false;
        }
        for (i, &c) in house.cells.iter().enumerate() {
            if !self.restrict(s, c as usize, allowed[i], changed) {
                return false;
            }
        }
        true
    }
}

impl Plan {
    /// A digit that must appear in some house and has fewer than `limit` open places there.
    fn digit_branch(&self, s: &State, limit: u32) -> Option<(u16, Vec<u16>)> {
        let mut best: Option<(u16, Vec<u16>)> = None;
        let mut best_len = limit as usize;
        for house in &self.houses {
            let once = house
                .cells
                .iter()
                .fold(0u16, |a, &c| a | s.cands[c as usize]);
            let must = match &house.kind {
                Kind::Complete => self.all,
                Kind::Run(sets) | Kind::Combos(sets) => sets
                    .iter()
                    .filter(|&&w| {
                        w & !once == 0 && house.cells.iter().all(|&c| s.cands[c as usize] & w != 0)
                    })
                    .fold(u16::MAX, |a, &w| a & w),
            };
            let mut digits = must & once;
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let places: Vec<u16> = house
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| s.cands[c as usize] & bit != 0)
                    .collect();
                if places.len() >= 2 && places.len() < best_len {
                    best_len = places.len();
                    best = Some((bit, places));
                    if best_len == 2 {
                        return best;
                    }
                }
            }
        }
        best
    }
}

impl Plan {
    /// Failed-literal probing: a candidate whose placement propagates to a contradiction is
    /// removed. Repeated until nothing changes; false when the grid itself fails.
    fn probe(&self, s: &mut State) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..s.cands.len() {
                let m = s.cands[cell];
                if m.count_ones() < 2 {
                    continue;
                }
                let mut rest = m;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    let mut trial = s.clone();
                    trial.cands[cell] = bit;
                    if !self.propagate(&mut trial) {
                        s.cands[cell] &= !bit;
                        changed = true;
                        if !self.propagate(s) {
                            return false;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

#[derive(Clone, Default)]
struct State {
    cands: Vec<u16>,
    done: Vec<bool>,
    /// Per house, a fingerprint of its candidates at its last matching pass.
    seen: Vec<u64>,
}

struct Search<'a> {
    plan: &'a Plan,
    limit: usize,
    count: usize,
    first: Option<Vec<u8>>,
    /// Shuffles the branch order when set (random solutions for the generator).
    random: Option<&'a mut dyn FnMut() -> u64>,
    nodes: usize,
    max_nodes: usize,
}

impl<'a> Search<'a> {
    fn new(plan: &'a Plan, limit: usize) -> Search<'a> {
        Search {
            plan,
            limit: limit.max(1),
            count: 0,
            first: None,
            random: None,
            nodes: 0,
            max_nodes: usize::MAX,
        }
    }

    /// Shuffles branch choices when searching for a random solution.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        if let Some(random) = self.random.as_mut() {
            for i in (1..items.len()).rev() {
                items.swap(i, (random() % (i as u64 + 1)) as usize);
            }
        }
    }

    fn run(&mut self, mut s: State) {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            // Out of budget: stop every open branch.
            self.limit = self.count;
            return;
        }
        if !self.plan.propagate(&mut s) {
            return;
        }
        // Branch on the open cell with the fewest candidates.
        let mut best: Option<(u32, Cell)> = None;
        for (c, &m) in s.cands.iter().enumerate() {
            let k = m.count_ones();
            if k > 1 && best.is_none_or(|(b, _)| k < b) {
                best = Some((k, c));
                if k == 2 {
                    break;
                }
            }
        }
        // A digit that must appear in a house with fewer places than the best cell has
        // candidates gives a narrower branch.
        if let Some((k, _)) = best {
            if k >= 2 {
                if let Some((bit, mut cells)) = self.plan.digit_branch(&s, k + 1) {
                    self.shuffle(&mut cells);
                    for (i, &c) in cells.iter().enumerate() {
                        if self.count >= self.limit {
                            return;
                        }
                        let mut next = if i + 1 == cells.len() {
                            std::mem::take(&mut s)
                        } else {
                            s.clone()
                        };
                        next.cands[c as usize] = bit;
                        self.run(next);
                    }
                    return;
                }
            }
        }
        let Some((_, cell)) = best else {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(
                    s.cands
                        .iter()
                        .map(|&m| m.trailing_zeros() as u8 + 1)
                        .collect(),
                );
            }
            return;
        };
        let mut rest = s.cands[cell];
        let mut order = [0u16; 16];
        let mut n = 0;
        while rest != 0 {
            order[n] = rest & rest.wrapping_neg();
            rest &= rest - 1;
            n += 1;
        }
        self.shuffle(&mut order[..n]);
        for (i, &bit) in order[..n].iter().enumerate() {
            if self.count >= self.limit {
                break;
            }
            let mut next = if i + 1 == n {
                std::mem::take(&mut s)
            } else {
                s.clone()
            };
            next.cands[cell] = bit;
            self.run(next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;
    use crate::puzzle::Variant;
    use crate::solver::rules::combinations;

    fn line(s: &str, v: Variant) -> Puzzle {
        parse_line(s.as_bytes(), v, "t", 1).unwrap().unwrap()
    }

    #[test]
    fn combinations_of_a_killer_cage() {
        let c = combinations(9, 2, 4);
        assert_eq!(c, vec![Digits::from_iter([1, 3]).0]);
        assert_eq!(combinations(9, 3, 24).len(), 1);
        assert!(combinations(9, 2, 18).is_empty());
    }

    #[test]
    fn generic_path_solves_a_four_by_four() {
        let p = line("1...........4..2", Variant::Standard);
        let s = solve(&p, 2);
        assert!(s.count >= 1);
        p.check_solution(s.first.as_ref().unwrap()).unwrap();
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let p = line("11..............", Variant::Standard);
        assert_eq!(solve(&p, 2).count, 0);
    }

    #[test]
    fn empty_honeycomb_has_many_solutions() {
        let p = line(&".".repeat(61), Variant::Honeycomb);
        let s = solve(&p, 2);
        assert_eq!(s.count, 2);
        p.check_solution(s.first.as_ref().unwrap()).unwrap();
    }

    /// The 9x9 path (SIMD where the CPU has it) against the reference on puzzles with 0, 1
    /// and several solutions: the same count at each limit, the same grid when unique.
    #[test]
    fn nine_by_nine_path_matches_reference() {
        let answer =
            "652483917978162435314975628825736149791824563436519872269348751547291386183657294";
        let unique =
            ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4";
        // The unique puzzle with its first two rows emptied: several solutions.
        let several = format!("{}{}", ".".repeat(18), &unique[18..]);
        // A 2 at r1c1 clashes with no given, but the only solution has a 6 there.
        let none = format!("2{}", &unique[1..]);
        let cases = [(answer, 1), (unique, 1), (&several, 2), (&none, 0)];
        for (text, at_least) in cases {
            let p = line(text, Variant::Standard);
            let is_unique = reference_from_givens(p.geometry(), &p.givens, 2).count == 1;
            for limit in [1, 2, 50] {
                let fast = solve(&p, limit);
                let reference = reference_from_givens(p.geometry(), &p.givens, limit);
                assert_eq!(fast.count, reference.count, "{text} limit {limit}");
                assert!(fast.count >= at_least.min(limit), "{text} limit {limit}");
                match fast.count {
                    0 => assert_eq!(fast.first, None),
                    _ if is_unique => assert_eq!(fast.first, reference.first),
                    _ => p.check_solution(fast.first.as_ref().unwrap()).unwrap(),
                }
            }
        }
    }

    #[test]
    fn generic_and_fast_paths_agree_on_nine_by_nine() {
        let p = line(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            Variant::Standard,
        );
        let fast = solve(&p, 2);
        let generic = solve_generic(p.geometry(), &p.givens, 2);
        assert_eq!(fast, generic);
        assert_eq!(fast.count, 1);
        assert_eq!(count(&p, 2), 1);
        // Two givens fewer: several solutions, counted the same way by both entries.
        let mut open = p.clone();
        open.givens[0] = 0;
        open.givens[6] = 0;
        assert_eq!(count(&open, 2), solve(&open, 2).count);
        assert_eq!(count(&open, 2), 2);
    }
}
