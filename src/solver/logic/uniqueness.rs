//! Uniqueness: BUG+1. Valid only for puzzles with one solution (the CLI and the rating
//! check that) and only when every house is `Complete`, where the deadly-pattern
//! argument holds.

use super::step::{article, cell_list, digit_list, effect_text};
use super::{Candidate, CellSet, Ctx, Detail, LineClass, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, HouseKind};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if !ctx.t.all_complete {
        return ControlFlow::Continue(());
    }
    if let Some(kind) = rectangle_kind(info.id) {
        return rectangle(ctx, info, kind, sink);
    }
    if let Some(kind) = avoidable_kind(info.id) {
        return avoidable(ctx, info, kind, sink);
    }
    if info.id != "bug-plus-1" {
        return ControlFlow::Continue(());
    }
    // Every empty cell bivalue but one with three candidates.
    let mut tri = None;
    for c in ctx.empty.iter() {
        match ctx.cand[c].len() {
            2 => {}
            3 if tri.is_none() => tri = Some(c),
            _ => return ControlFlow::Continue(()),
        }
    }
    let Some(cell) = tri else {
        return ControlFlow::Continue(());
    };
    // Every digit twice per house, except the extra digit three times in the houses of
    // the tri-value cell: without it the grid would be a deadly BUG.
    let mut extra = None;
    for (h, _) in ctx.geo.houses().iter().enumerate() {
        for d in 1..=ctx.geo.max_digit() {
            match ctx.where_in(h, d).len() {
                0 | 2 => {}
                3 if ctx.t.house_sets[h].contains(cell) && ctx.cand[cell].contains(d) => {
                    if extra.is_some_and(|e| e != d) {
                        return ControlFlow::Continue(());
                    }
                    extra = Some(d);
                }
                _ => return ControlFlow::Continue(()),
            }
        }
    }
    let Some(digit) = extra else {
        return ControlFlow::Continue(());
    };
    sink(
        Step::new(
            info,
            Pattern::Single {
                cell,
                digit,
                house: None,
                sets: Vec::new(),
            },
        )
        // Written as HoDoKu does: the other candidates of the cell go.
        .eliminate(
            ctx.cand[cell]
                .iter()
                .filter(|&d| d != digit)
                .map(|d| super::Candidate::new(cell, d))
                .collect(),
        )
        .cells(&[cell], Role::Defining),
    )
}

fn rectangle_kind(id: &str) -> Option<u8> {
    Some(match id {
        "unique-rectangle-1" => 1,
        "unique-rectangle-2" => 2,
        "unique-rectangle-3" => 3,
        "unique-rectangle-4" => 4,
        "unique-rectangle-5" => 5,
        "unique-rectangle-6" => 6,
        "hidden-rectangle" => 7,
        _ => return None,
    })
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    if matches!(step.pattern, Pattern::Rectangle { .. }) {
        return explain_rectangle(step, g, detail);
    }
    let Pattern::Single { cell, digit, .. } = step.pattern else {
        return step.name().to_string();
    };
    match detail {
        Detail::Nudge => format!("Look at {}", g.cell_name(cell)),
        Detail::Technique => "There is a BUG+1: every other cell has two candidates".into(),
        Detail::Full => format!(
            "BUG+1: every empty cell but {} has two candidates and {} appears three times in \
             its houses; without it the puzzle would have two solutions: {}",
            g.cell_name(cell),
            digit_char(digit),
            effect_text(g, step)
        ),
    }
}

// ---- Unique rectangles (types 1 to 6) and hidden rectangles ----

/// A rectangle: cells `[r1c1, r1c2, r2c1, r2c2]` (by line index, not by geometry), valid
/// for the deadly-pattern argument: every house holds 0 or 2 of its cells, and those two
/// are a side (same row or same column), so swapping the two digits keeps every house
/// valid and would give a second solution. The shapes depend on the layout only, so they
/// are found once per layout.
fn shapes<'a>(ctx: &'a Ctx) -> &'a [[Cell; 4]] {
    ctx.t.rectangles.get_or_init(|| {
        let t = &ctx.t;
        let (Some(rows), Some(cols)) = (
            t.lines.iter().find(|(c, _)| *c == LineClass::Row),
            t.lines.iter().find(|(c, _)| *c == LineClass::Column),
        ) else {
            return Vec::new();
        };
        let (rows, cols) = (&rows.1, &cols.1);
        let at = |r: HouseId, c: HouseId| t.house_sets[r].and(t.house_sets[c]).first();
        let mut out = Vec::new();
        for (i, &r1) in rows.iter().enumerate() {
            for &r2 in &rows[i + 1..] {
                for (j, &c1) in cols.iter().enumerate() {
                    for &c2 in &cols[j + 1..] {
                        let (Some(a), Some(b), Some(c), Some(d)) =
                            (at(r1, c1), at(r1, c2), at(r2, c1), at(r2, c2))
                        else {
                            continue;
                        };
                        let q = [a, b, c, d];
                        if deadly_shape(ctx, &q) {
                            out.push(q);
                        }
                    }
                }
            }
        }
        out
    })
}

/// Open rectangles with each digit pair that every corner can hold one of and at least two
/// corners hold both: where every UR type starts (shared by the types in one position).
fn candidates<'a>(ctx: &'a Ctx) -> &'a [([Cell; 4], Digits)] {
    ctx.cache.rectangles.get_or_init(|| {
        let mut out = Vec::new();
        for q in shapes(ctx) {
            if q.iter().any(|&x| !ctx.empty.contains(x)) {
                continue;
            }
            let any = q.iter().fold(Digits::EMPTY, |m, &c| m | ctx.cand[c]);
            for a in any.iter() {
                for b in any.iter().filter(|&b| b > a) {
                    let ab = Digits::single(a) | Digits::single(b);
                    if q.iter().any(|&c| (ctx.cand[c] & ab).is_empty())
                        || q.iter().filter(|&&c| ab.is_subset(ctx.cand[c])).count() < 2
                    {
                        continue;
                    }
                    out.push((*q, ab));
                }
            }
        }
        out
    })
}

/// `u` can still go in line `h` and only in the rectangle's cells there. An empty set does
/// not count: with `u` placed elsewhere in the line, the corners there can never be `u`, so
/// no deadly pattern can form through them.
fn confined(ctx: &Ctx, h: HouseId, u: u8, rect: CellSet) -> bool {
    let w = ctx.where_in(h, u);
    !w.is_empty() && w.is_subset(rect)
}

fn deadly_shape(ctx: &Ctx, q: &[Cell; 4]) -> bool {
    let set = CellSet::from_cells(q.iter().copied());
    ctx.t.house_sets.iter().all(|h| {
        let i = h.and(set);
        match i.len() {
            0 => true,
            2 => {
                // A side, never a diagonal (a, d) or (b, c).
                let diagonal = |x: Cell, y: Cell| i.contains(x) && i.contains(y);
                !diagonal(q[0], q[3]) && !diagonal(q[1], q[2])
            }
            _ => false,
        }
    })
}

/// Houses holding both cells.
fn shared_houses(ctx: &Ctx, x: Cell, y: Cell) -> Vec<HouseId> {
    ctx.geo
        .houses_of(x)
        .iter()
        .copied()
        .filter(|&h| ctx.t.house_sets[h].contains(y))
        .collect()
}

fn ur_step(info: &'static TechniqueInfo, q: &[Cell; 4], ab: Digits, elims: Vec<Candidate>) -> Step {
    Step::new(
        info,
        Pattern::Rectangle {
            cells: q.to_vec(),
            digits: ab,
        },
    )
    .eliminate(elims)
    .candidates(q, ab, Role::Defining)
}

fn rectangle(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    kind: u8,
    sink: &mut Sink,
) -> ControlFlow<()> {
    for &(q, ab) in candidates(ctx) {
        // Missing candidates are fine: in a unique puzzle the solution never holds the
        // deadly pattern, whatever the candidates say; each corner needs one of the two.
        let mut pair = ab.iter();
        let (Some(a), Some(b)) = (pair.next(), pair.next()) else {
            continue;
        };
        // Corners without and with extra digits, in corner order (arrays: this runs for
        // every open rectangle and pair, per type).
        let extra = q.map(|c| ctx.cand[c].without(ab));
        let (mut bi_buf, mut ex_buf, mut nb, mut ne) = ([0usize; 4], [0usize; 4], 0, 0);
        for (k, e) in extra.iter().enumerate() {
            if e.is_empty() {
                bi_buf[nb] = k;
                nb += 1;
            } else {
                ex_buf[ne] = k;
                ne += 1;
            }
        }
        let (bi, ex) = (&bi_buf[..nb], &ex_buf[..ne]);
        let side = |k: usize, l: usize| k + l != 3; // (0,3) and (1,2) are diagonals
        let rect = CellSet::from_cells(q.iter().copied());
        let mut found: Vec<Vec<Candidate>> = Vec::new();
        match kind {
            1 if bi.len() == 3 => {
                let x = q[ex[0]];
                found.push(vec![Candidate::new(x, a), Candidate::new(x, b)]);
            }
            2 | 5 if bi.len() <= 2 && !ex.is_empty() => {
                let union = ex.iter().fold(Digits::EMPTY, |m, &k| m | extra[k]);
                let Some(x) = union.single_digit() else {
                    continue;
                };
                let is_side = ex.len() == 2 && side(ex[0], ex[1]);
                if (kind == 2) != is_side {
                    continue;
                }
                let cells: Vec<Cell> = ex.iter().map(|&k| q[k]).collect();
                let targets = ctx.seen_by_all(&cells).minus(rect);
                found.push(ctx.elims(targets, x));
            }
            3 if bi.len() == 2 && side(ex[0], ex[1]) => {
                let (p, r) = (q[ex[0]], q[ex[1]]);
                let union = extra[ex[0]] | extra[ex[1]];
                let mut all = Vec::new();
                for h in shared_houses(ctx, p, r) {
                    let mut per = Vec::new();
                    ur3(ctx, h, p, r, union, &mut per);
                    if let Some(first) = per.into_iter().next() {
                        all.extend(first);
                    }
                }
                if !all.is_empty() {
                    found.push(all);
                }
            }
            4 if bi.len() == 2 && side(ex[0], ex[1]) => {
                let (p, r) = (q[ex[0]], q[ex[1]]);
                for h in shared_houses(ctx, p, r) {
                    for (u, v) in [(a, b), (b, a)] {
                        let w = ctx.where_in(h, u);
                        if !w.is_empty() && w.is_subset(CellSet::from_cells([p, r])) {
                            found.push(vec![Candidate::new(p, v), Candidate::new(r, v)]);
                        }
                    }
                }
            }
            6 if bi.len() == 2 && !side(ex[0], ex[1]) => {
                for (u, v) in [(a, b), (b, a)] {
                    let _ = v;
                    let lines_ok = q.iter().all(|&c| {
                        ctx.geo
                            .houses_of(c)
                            .iter()
                            .all(|&h| !is_line(ctx, h) || confined(ctx, h, u, rect))
                    });
                    if lines_ok {
                        found.push(vec![
                            Candidate::new(q[ex[0]], u),
                            Candidate::new(q[ex[1]], u),
                        ]);
                    }
                }
            }
            7 if !bi.is_empty() && bi.len() <= 2 => {
                // Hidden rectangle: a bivalue corner; in the row and the column of
                // the opposite corner, u lives only in the rectangle, so the opposite
                // corner cannot hold v (else the other three would be forced into
                // the deadly pattern). That holds when the opposite corner is bivalue
                // too (HoDoKu's 0606-1: the step then leaves it u).
                for &k in bi {
                    let y = q[3 - k];
                    for (u, v) in [(a, b), (b, a)] {
                        let ok = ctx
                            .geo
                            .houses_of(y)
                            .iter()
                            .all(|&h| !is_line(ctx, h) || confined(ctx, h, u, rect));
                        if ok {
                            found.push(vec![Candidate::new(y, v)]);
                        }
                    }
                }
            }
            _ => {}
        }
        for elims in found {
            let elims: Vec<Candidate> = elims
                .into_iter()
                .filter(|c| ctx.cand[c.cell].contains(c.digit))
                .collect();
            if !elims.is_empty() {
                sink(ur_step(info, &q, ab, elims))?;
            }
        }
    }
    ControlFlow::Continue(())
}

fn is_line(ctx: &Ctx, h: HouseId) -> bool {
    matches!(
        ctx.geo.house(h).kind,
        HouseKind::Row(_) | HouseKind::Column(_)
    )
}

/// Type 3: the extra digits of the two roof cells act as one cell; with k other cells of
/// the house they form a naked subset of k+1 digits.
fn ur3(ctx: &Ctx, h: HouseId, p: Cell, r: Cell, union: Digits, found: &mut Vec<Vec<Candidate>>) {
    let others: Vec<Cell> = ctx.t.house_sets[h]
        .and(ctx.empty)
        .iter()
        .filter(|&c| c != p && c != r)
        .collect();
    for k in 1..=3usize {
        // Cells adding past k+1 digits rule out every superset.
        let add = |m: Digits, c: Cell| Some(m | ctx.cand[c]).filter(|m| m.len() as usize <= k + 1);
        let _ = super::combinations_while(&others, k, union, &add, &mut |sub: &[Cell]| {
            let digits = sub.iter().fold(union, |m, &c| m | ctx.cand[c]);
            if digits.len() as usize == k + 1 {
                let mut elims = Vec::new();
                for &c in &others {
                    if sub.contains(&c) {
                        continue;
                    }
                    for d in (ctx.cand[c] & digits).iter() {
                        elims.push(Candidate::new(c, d));
                    }
                }
                if !elims.is_empty() {
                    found.push(elims);
                }
            }
            ControlFlow::Continue(())
        });
    }
}

pub fn explain_rectangle(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Rectangle { cells, digits } = &step.pattern else {
        return step.name().to_string();
    };
    match detail {
        Detail::Nudge => format!("Look at {}", cell_list(g, cells)),
        Detail::Technique => format!(
            "There is {} {}: avoid a pattern with two solutions",
            article(step.name()),
            step.name()
        ),
        Detail::Full => format!(
            "{} on {} in {}: the four cells must not end up holding only {} (two solutions \
             would be possible), so {}",
            step.name(),
            digit_list(*digits),
            cell_list(g, cells),
            digit_list(*digits),
            effect_text(g, step)
        ),
    }
}

// ---- Avoidable rectangles (types 1 and 2) ----

fn avoidable_kind(id: &str) -> Option<u8> {
    match id {
        "avoidable-rectangle-1" => Some(1),
        "avoidable-rectangle-2" => Some(2),
        _ => None,
    }
}

/// Avoidable rectangles: corners placed by the solver (never givens) could swap their
/// digits if the rectangle closed on two digits, giving a second solution. Type 1: three
/// corners hold `a`, `b`, `b` (the `b`s diagonal), so the fourth cannot be `a`. Type 2:
/// one side holds `a`, `b`; the other side's cells hold `b`+`c` and `a`+`c`, so one of them
/// is `c` and the cells seeing both lose it.
fn avoidable(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    kind: u8,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let t = &ctx.t;
    let (Some(rows), Some(cols)) = (
        t.lines.iter().find(|(c, _)| *c == LineClass::Row),
        t.lines.iter().find(|(c, _)| *c == LineClass::Column),
    ) else {
        return ControlFlow::Continue(());
    };
    let (rows, cols) = (&rows.1, &cols.1);
    let solved = |c: Cell| ctx.grid.value(c) != 0 && !ctx.grid.is_given(c);
    // Row-by-column cell table.
    let table: Vec<Vec<Option<Cell>>> = rows
        .iter()
        .map(|&r| {
            cols.iter()
                .map(|&c| t.house_sets[r].and(t.house_sets[c]).first())
                .collect()
        })
        .collect();
    // Per row, bit j: the cell in column j is placed (not given) / empty.
    let bits = |f: &dyn Fn(Cell) -> bool| -> Vec<u64> {
        table
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .take(64)
                    .fold(0u64, |m, (j, c)| match c {
                        Some(c) if f(*c) => m | 1 << j,
                        _ => m,
                    })
            })
            .collect()
    };
    let placed_bits = bits(&|c| solved(c));
    let open_bits = bits(&|c| ctx.empty.contains(c));
    for i in 0..rows.len() {
        for k in i + 1..rows.len() {
            let (si, sk) = (placed_bits[i], placed_bits[k]);
            let usable = (si | open_bits[i]) & (sk | open_bits[k]);
            if si | sk == 0 || usable.count_ones() < 2 {
                continue;
            }
            for j in 0..cols.len().min(64) {
                if usable & (1 << j) == 0 {
                    continue;
                }
                for l in j + 1..cols.len().min(64) {
                    // Two or three placed corners (so one or two open ones).
                    let m = (1u64 << j) | (1 << l);
                    let placed = (si & m).count_ones() + (sk & m).count_ones();
                    if usable & (1 << l) == 0 || !(2..=3).contains(&placed) {
                        continue;
                    }
                    let (Some(a), Some(b), Some(c), Some(d)) =
                        (table[i][j], table[i][l], table[k][j], table[k][l])
                    else {
                        continue;
                    };
                    let q = [a, b, c, d];
                    let open = q.iter().filter(|&&x| ctx.empty.contains(x)).count();
                    let placed = q.iter().filter(|&&x| solved(x)).count();
                    // The house scan of `deadly_shape` is the costly part: last.
                    if open + placed != 4 || !(1..=2).contains(&open) {
                        continue;
                    }
                    let v = |k: usize| ctx.grid.value(q[k]);
                    let found = match kind {
                        1 if open == 1 => {
                            // k empty; its opposite 3-k holds x; the other two hold y.
                            let k = (0..4).find(|&k| ctx.empty.contains(q[k])).unwrap_or(0);
                            let (o, s1, s2) = (3 - k, k ^ 1, k ^ 2);
                            let (x, y) = (v(o), v(s1));
                            if x != y && v(s2) == y && ctx.cand[q[k]].contains(x) {
                                Some((
                                    Digits::single(x) | Digits::single(y),
                                    vec![Candidate::new(q[k], x)],
                                ))
                            } else {
                                None
                            }
                        }
                        2 if open == 2 => {
                            // Open cells k, l on one side; their opposite corners hold x, y.
                            let ks: Vec<usize> =
                                (0..4).filter(|&k| ctx.empty.contains(q[k])).collect();
                            let (k, l) = (ks[0], ks[1]);
                            if k + l == 3 {
                                None // a diagonal
                            } else {
                                // Closing the pattern, q[k] takes its diagonal's digit.
                                let (dk, dl) = (v(3 - k), v(3 - l));
                                let (ek, el) = (ctx.cand[q[k]], ctx.cand[q[l]]);
                                let extra_k = ek.without(Digits::single(dk));
                                let extra_l = el.without(Digits::single(dl));
                                match (extra_k.single_digit(), extra_l.single_digit()) {
                                    (Some(x), Some(y))
                                        if x == y
                                            && dk != dl
                                            && ek.len() == 2
                                            && el.len() == 2
                                            && ek.contains(dk)
                                            && el.contains(dl) =>
                                    {
                                        let targets = ctx.seen_by_all(&[q[k], q[l]]);
                                        Some((
                                            Digits::single(dk) | Digits::single(dl),
                                            ctx.elims(targets, x),
                                        ))
                                    }
                                    _ => None,
                                }
                            }
                        }
                        _ => None,
                    };
                    if let Some((ab, elims)) = found {
                        if !elims.is_empty() && deadly_shape(ctx, &q) {
                            sink(ur_step(info, &q, ab, elims))?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod avoidable_tests {
    use super::super::testutil::{elims, reglib};

    const AR1: &str = "+6+45.+3..+1.+1+9+3..268.7+2+8+6.14+3.+3+5+21.68...+1+63+8.....87.+2+51+638+712.43.+6+53+4.6..2+126+9.+1+3.+4+8";
    const AR1_DELETED: &str = "714 717 919 525 945 749 757 957 958 559 759 959";

    #[test]
    fn avoidable_rectangle_1_keeps_the_fourth_corner_off_the_pattern() {
        let g = reglib(AR1, AR1_DELETED);
        assert_eq!(elims(&g, "avoidable-rectangle-1"), ["951"]);
    }

    #[test]
    fn avoidable_rectangle_needs_placed_corners_not_givens() {
        // The same position with every digit a given: the swap would change givens.
        let g = reglib(&AR1.replace('+', ""), AR1_DELETED);
        assert!(elims(&g, "avoidable-rectangle-1").is_empty());
    }

    #[test]
    fn avoidable_rectangle_2_removes_the_shared_extra_digit() {
        let g = reglib(
            "9+8....6+4+7..1..6+9387.6.8+9+5+1+2+1...+3.+476+3+741+6+2+8+5+9+65+8947+12+32.....+3.5+8..25.+7.+4....9.+2.1",
            "474 494",
        );
        assert!(elims(&g, "avoidable-rectangle-2").contains(&"943 972 982".to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{elims, reglib};

    /// HoDoKu's library (0606-1): the corner opposite the bivalue one is bivalue too
    /// (r2c9 holds 4 and 5); 5 still goes from it.
    #[test]
    fn hidden_rectangle_takes_a_bivalue_opposite_corner() {
        let g = reglib(
            ".+9.+45.2..3.+27+8..+9.7..+29..1.9+3+51+2+8746.+7.+6.+9......5.+7..9+129+3+7+54+6+8+56+3+8+14+9..+48+7+9+623+51",
            "",
        );
        assert!(elims(&g, "hidden-rectangle").contains(&"529".to_string()));
    }

    /// A generated hard puzzle near its end: 9 is already placed in column 6 (r7c6), so
    /// r4c6 and r5c6 can never be 9 and no deadly pattern on 4 and 9 can form there. The
    /// rectangle r45c16 must not take 4 from r4c6 (its solution) as it once did.
    #[test]
    fn hidden_rectangle_needs_the_digit_still_open_in_both_lines() {
        let g = reglib(
            "+513+72896+4+748+96+325+16+92+4+51+3+7+8..127.586.+85...7+3+2267+3851+4+9..+68.+94+25+154.3.89+7+82954+761+3",
            "",
        );
        let solution =
            "513728964748963251692451378931274586485196732267385149376819425154632897829547613";
        for e in elims(&g, "hidden-rectangle")
            .iter()
            .flat_map(|s| s.split(' '))
            .filter(|e| !e.is_empty())
        {
            let b = e.as_bytes();
            let cell = usize::from(b[1] - b'1') * 9 + usize::from(b[2] - b'1');
            assert_ne!(solution.as_bytes()[cell], b[0], "{e} removes the solution");
        }
    }
}
