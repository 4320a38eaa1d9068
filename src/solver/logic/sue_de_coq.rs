//! Sue de Coq: two or three cells `C` where a line meets a box (any two overlapping
//! `Complete` houses) holding at least two more digits than cells, completed by cells `A`
//! of the line and `B` of the box: `A` holds some of `C`'s digits and as many other digits
//! as it has cells less the ones it covers, `B` the rest of `C`'s digits likewise, none of
//! `A`'s. `C`'s digits are then split between the line part and the box part: `A`'s digits
//! (and `C`'s not in `B`) leave the rest of the line, `B`'s digits (and `C`'s not in `A`)
//! the rest of the box; a digit outside `C` that both `A` and `B` hold is locked in each
//! and leaves both rests.
//!
//! The search follows HoDoKu's (`SudokuStepFinder`'s Sue de Coq): rows, then columns, each
//! with the boxes in order; `C` as pairs of the overlap with each pair's triples right
//! after it; `A` and `B` grown cell by cell in depth-first order. The first instance with
//! an elimination is the one HoDoKu takes, so ratings follow its path.

use super::step::{article, cell_list, digit_list, effect_text, house_name};
use super::TechniqueInfo;
use super::{Candidate, CellSet, Ctx, Detail, Pattern, Role, Sink, Step, Target};
use crate::geometry::{Cell, Digits, Geometry, HouseId, HouseKind};
use std::ops::ControlFlow;

/// One line and box with their free cells.
struct Frame<'a> {
    ctx: &'a Ctx<'a>,
    info: &'static TechniqueInfo,
    line: HouseId,
    boxh: HouseId,
    line_free: CellSet,
    box_free: CellSet,
}

/// The intersection part `C`: its cells, digits and how many digits it has beyond cells.
#[derive(Clone, Copy)]
struct Core {
    cells: CellSet,
    digits: Digits,
    plus: usize,
}

/// A part (`A` or `B`) as it grows: its cells and their digits.
type Part = (CellSet, Digits);

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let rank = |h: HouseId| match ctx.grid.geometry().house(h).kind {
        HouseKind::Row(_) => 0,
        HouseKind::Column(_) => 1,
        _ => 2,
    };
    let mut pairs: Vec<(HouseId, HouseId, CellSet)> = ctx
        .t
        .overlaps
        .iter()
        .copied()
        .filter(|&(line, boxh, _)| {
            // Each unordered pair once, the line being the house of a line class.
            ctx.t.line_class[line].is_some()
                && ctx.t.line_class[boxh].is_none()
                && ctx.t.complete.binary_search(&line).is_ok()
                && ctx.t.complete.binary_search(&boxh).is_ok()
        })
        .collect();
    pairs.sort_by_key(|&(line, boxh, _)| (rank(line), line, boxh));
    for (line, boxh, inter) in pairs {
        let inter: Vec<Cell> = inter.and(ctx.empty).iter().collect();
        if inter.len() < 2 {
            continue;
        }
        let frame = Frame {
            ctx,
            info,
            line,
            boxh,
            line_free: ctx.t.house_sets[line].and(ctx.empty),
            box_free: ctx.t.house_sets[boxh].and(ctx.empty),
        };
        let n = inter.len();
        for i1 in 0..n {
            for i2 in i1 + 1..n {
                frame.core(&[inter[i1], inter[i2]], sink)?;
                for &c3 in &inter[i2 + 1..] {
                    frame.core(&[inter[i1], inter[i2], c3], sink)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

impl Frame<'_> {
    /// Every `A` and `B` that complete this `C`.
    fn core(&self, cells: &[Cell], sink: &mut Sink) -> ControlFlow<()> {
        let set = CellSet::from_cells(cells.iter().copied());
        let digits = cells
            .iter()
            .fold(Digits::EMPTY, |m, &c| m | self.ctx.cand[c]);
        let plus = (digits.len() as usize).saturating_sub(cells.len());
        if plus < 2 {
            return ControlFlow::Continue(());
        }
        let core = Core {
            cells: set,
            digits,
            plus,
        };
        // Overlap cells outside C may join A or B, as in HoDoKu.
        let source: Vec<Cell> = self.line_free.minus(set).iter().collect();
        self.line_part(&core, &source, 0, (CellSet::EMPTY, Digits::EMPTY), sink)
    }

    /// Grows `A` from the line's cells outside C, from `source[from]` on.
    fn line_part(
        &self,
        core: &Core,
        source: &[Cell],
        from: usize,
        (cells, digits): Part,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        for (i, &c) in source.iter().enumerate().skip(from) {
            let mut a = cells;
            a.insert(c);
            let da = digits | self.ctx.cand[c];
            let extra = da.without(core.digits).len() as usize;
            let size = a.len() as usize;
            // A takes at least one of C's digits, and leaves some for B.
            if !(da & core.digits).is_empty() && size > extra && size - extra < core.plus {
                let left = core.plus - (size - extra);
                // B may hold none of the digits of C that A holds.
                let banned = da & core.digits;
                // On the stack: this runs for every `A`, most of which find no `B`.
                let free = self.box_free.minus(core.cells).minus(a);
                let mut buf = [0 as Cell; 16];
                let heap: Vec<Cell>;
                let boxes: &[Cell] = if free.len() as usize <= buf.len() {
                    for (slot, c) in buf.iter_mut().zip(free.iter()) {
                        *slot = c;
                    }
                    &buf[..free.len() as usize]
                } else {
                    heap = free.iter().collect();
                    &heap
                };
                let grow = Grow {
                    core,
                    a: (a, da),
                    left,
                    banned,
                    source: boxes,
                };
                self.box_part(&grow, 0, (CellSet::EMPTY, Digits::EMPTY), sink)?;
            }
            self.line_part(core, source, i + 1, (a, da), sink)?;
        }
        ControlFlow::Continue(())
    }

    /// Grows `B`; an instance when it covers the digits of C that A left.
    fn box_part(
        &self,
        g: &Grow,
        from: usize,
        (cells, digits): Part,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        for (i, &c) in g.source.iter().enumerate().skip(from) {
            if !(self.ctx.cand[c] & g.banned).is_empty() {
                continue;
            }
            let mut b = cells;
            b.insert(c);
            let db = digits | self.ctx.cand[c];
            let extra = db.without(g.core.digits).len() as usize;
            let size = b.len() as usize;
            if !(db & g.core.digits).is_empty() && size == g.left + extra {
                if let Some(step) = self.step(g.core, g.a, (b, db)) {
                    sink(step)?;
                }
            }
            if size <= g.left + extra {
                self.box_part(g, i + 1, (b, db), sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn step(&self, core: &Core, (a, da): Part, (b, db): Part) -> Option<Step> {
        let ctx = self.ctx;
        let shared = (da & db).without(core.digits);
        let line_d = (core.digits | da).without(db) | shared;
        let box_d = (core.digits | db).without(da) | shared;
        // A cell of A may sit in the box too (an overlap cell outside C), and one of B in
        // the line: each rest is its house less C and that house's own part.
        let mut elims = Vec::new();
        collect(
            ctx,
            self.box_free.minus(core.cells).minus(b),
            box_d,
            &mut elims,
        );
        collect(
            ctx,
            self.line_free.minus(core.cells).minus(a),
            line_d,
            &mut elims,
        );
        elims.sort_unstable();
        elims.dedup();
        if elims.is_empty() {
            return None;
        }
        let c: Vec<Cell> = core.cells.iter().collect();
        let keep = core.cells.or(a).or(b);
        Some(
            Step::new(
                self.info,
                Pattern::Subset {
                    houses: vec![self.line, self.boxh],
                    cells: keep.to_vec(),
                    digits: core.digits | da | db,
                    hidden: false,
                },
            )
            .eliminate(elims)
            .house(self.line, Role::Base)
            .house(self.boxh, Role::Base)
            .candidates_present(ctx, &c, Role::Defining)
            .candidates_present(ctx, &a.to_vec(), Role::ColorA)
            .candidates_present(ctx, &b.to_vec(), Role::ColorB),
        )
    }
}

/// What growing `B` keeps fixed: C, A, how many of C's digits B must cover, the digits B
/// may not hold, and the cells B is taken from.
struct Grow<'a> {
    core: &'a Core,
    a: Part,
    left: usize,
    banned: Digits,
    source: &'a [Cell],
}

/// Highlights every candidate of `cells` in `role` (only the digits each cell holds).
trait Present {
    fn candidates_present(self, ctx: &Ctx, cells: &[Cell], role: Role) -> Step;
}

impl Present for Step {
    fn candidates_present(self, ctx: &Ctx, cells: &[Cell], role: Role) -> Step {
        cells
            .iter()
            .fold(self, |s, &c| s.candidates(&[c], ctx.cand[c], role))
    }
}

fn collect(ctx: &Ctx, cells: CellSet, digits: Digits, out: &mut Vec<Candidate>) {
    for c in cells.and(ctx.empty).iter() {
        for d in (ctx.cand[c] & digits).iter() {
            out.push(Candidate::new(c, d));
        }
    }
}

fn houses(step: &Step) -> Option<(HouseId, HouseId)> {
    match &step.pattern {
        Pattern::Subset { houses, .. } if houses.len() == 2 => Some((houses[0], houses[1])),
        _ => None,
    }
}

/// The verb for a list of `n` cells.
fn hold(n: usize) -> &'static str {
    if n == 1 {
        "holds"
    } else {
        "hold"
    }
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let (Some((line, boxh)), Pattern::Subset { .. }) = (houses(step), &step.pattern) else {
        return step.name().to_string();
    };
    match detail {
        Detail::Nudge => format!(
            "Look where {} meets {}",
            house_name(g, line),
            house_name(g, boxh)
        ),
        Detail::Technique => format!(
            "There is {} {}: cells of {} and {} hold as many digits as cells",
            article(step.name()),
            step.name(),
            house_name(g, line),
            house_name(g, boxh)
        ),
        Detail::Full => {
            let part = |role: Role| {
                let mut cells: Vec<Cell> = Vec::new();
                let mut digits = Digits::EMPTY;
                for h in &step.highlights {
                    if let (Target::Candidate(c), true) = (h.target, h.role == role) {
                        if !cells.contains(&c.cell) {
                            cells.push(c.cell);
                        }
                        digits |= Digits::single(c.digit);
                    }
                }
                (cells, digits)
            };
            let ((c, vc), (a, va), (b, vb)) =
                (part(Role::Defining), part(Role::ColorA), part(Role::ColorB));
            let shared = (va & vb).without(vc);
            let line_d = (vc | va).without(vb) | shared;
            let box_d = (vc | vb).without(va) | shared;
            let (ln, bn) = (house_name(g, line), house_name(g, boxh));
            format!(
                "{}: {} (where {ln} meets {bn}) hold {}, {} digits in {} cells; {} in {ln} \
                 {} {} and {} in {bn} {} {}, and no digit of the first cells is in both. So {} \
                 are locked in these cells of {ln}, and {} in these cells of {bn}: {}",
                step.name(),
                cell_list(g, &c),
                digit_list(vc),
                vc.len(),
                c.len(),
                cell_list(g, &a),
                hold(a.len()),
                digit_list(va),
                cell_list(g, &b),
                hold(b.len()),
                digit_list(vb),
                digit_list(line_d),
                digit_list(box_d),
                effect_text(g, step)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{elims, reglib};
    use super::super::{find_all, Detail};

    #[test]
    fn sue_de_coq_splits_digits_between_line_and_box() {
        let g = reglib(
            "+3+24+8+6+1+59765+7+9+4+3+82191+8+5+273+642.1+43....5.32.6...+4..+7.....+1..6.....+8..1746..7..+39..1.",
            "",
        );
        let all = elims(&g, "sue-de-coq");
        assert!(all.contains(&"277 378 477 478 578 849 869 949 969".to_string()));
        let step = find_all(&g, "sue-de-coq").into_iter().next().unwrap();
        assert!(step
            .explain(g.geometry(), Detail::Nudge)
            .starts_with("Look where row"));
    }

    #[test]
    fn no_sue_de_coq_in_an_empty_grid() {
        let g = reglib(&".".repeat(81), "");
        assert!(elims(&g, "sue-de-coq").is_empty());
    }
}
