//! Sue de Coq: two or three cells `C` where a line meets a box (any two overlapping
//! `Complete` houses) holding at least two more digits than cells, completed by cells `A`
//! of the line and `B` of the box whose digits do not overlap, so that `C`, `A` and `B`
//! together hold exactly as many digits as cells. Each digit then sits exactly once in
//! them: `A`'s digits (and `C`'s not in `B`) leave the rest of the line, `B`'s digits
//! (and `C`'s not in `A`) the rest of the box.

use super::step::{article, cell_list, digit_list, effect_text, house_name};
use super::TechniqueInfo;
use super::{combinations, Candidate, CellSet, Ctx, Detail, Pattern, Role, Sink, Step};
use crate::geometry::{Cell, Digits, Geometry, HouseId};
use std::ops::ControlFlow;

/// Cells of A or B with their digits.
type Part = (CellSet, Digits);

/// Cell subsets (with their digits) of up to `max` cells.
fn subsets(ctx: &Ctx, cells: &[Cell], max: usize) -> Vec<Part> {
    let mut out = Vec::new();
    let n = cells.len().min(12);
    for bits in 1u32..(1u32 << n) {
        if bits.count_ones() as usize > max {
            continue;
        }
        let mut set = CellSet::EMPTY;
        let mut d = Digits::EMPTY;
        for (k, &c) in cells.iter().enumerate().take(n) {
            if bits & (1 << k) != 0 {
                set.insert(c);
                d |= ctx.cand[c];
            }
        }
        out.push((set, d));
    }
    out
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    // Buffers reused by every combination: the useful A sets, the useful B sets by spare.
    let mut a_buf: Vec<Part> = Vec::new();
    let mut by_spare: Vec<Vec<Part>> = vec![Vec::new(); 17];
    for &(line, boxh, inter) in &ctx.t.overlaps {
        // Each unordered pair once, the line being the house of a line class.
        if ctx.t.line_class[line].is_none() || ctx.t.line_class[boxh].is_some() {
            continue;
        }
        let cs = ctx.t.complete.binary_search(&line).is_ok()
            && ctx.t.complete.binary_search(&boxh).is_ok();
        if !cs {
            continue;
        }
        let inter_empty: Vec<Cell> = inter.and(ctx.empty).iter().collect();
        if inter_empty.len() < 2 {
            continue;
        }
        let line_rest: Vec<Cell> = ctx.t.house_sets[line]
            .minus(ctx.t.house_sets[boxh])
            .and(ctx.empty)
            .iter()
            .collect();
        let box_rest: Vec<Cell> = ctx.t.house_sets[boxh]
            .minus(ctx.t.house_sets[line])
            .and(ctx.empty)
            .iter()
            .collect();
        // Built on the first combination of C with enough digits (most have too few).
        let mut rests: Option<(Vec<Part>, Vec<Part>)> = None;
        for size in 2..=inter_empty.len().min(3) {
            combinations(&inter_empty, size, &mut |c: &[Cell]| {
                let vc = c.iter().fold(Digits::EMPTY, |m, &x| m | ctx.cand[x]);
                if (vc.len() as usize) < size + 2 {
                    return ControlFlow::Continue(());
                }
                let (la, lb) = rests.get_or_insert_with(|| {
                    (
                        subsets(ctx, &line_rest, line_rest.len().saturating_sub(1)),
                        subsets(ctx, &box_rest, box_rest.len().saturating_sub(1)),
                    )
                });
                let cset = CellSet::from_cells(c.iter().copied());
                // A and B must each take a digit of C and add fewer new digits than cells.
                let useful =
                    |&&(s, d): &&Part| !(d & vc).is_empty() && d.without(vc).len() < s.len();
                // With A's and B's digits disjoint, C, A and B hold as many digits as cells
                // exactly when the cells A and B have beyond their new digits (`spare`, at
                // least 1 each) add up to C's digits beyond its cells; so each A is tried
                // only with the B of the matching spare (in their order).
                let spare = |s: CellSet, d: Digits| (s.len() - d.without(vc).len()) as usize;
                a_buf.clear();
                a_buf.extend(la.iter().filter(useful).copied());
                for b in by_spare.iter_mut() {
                    b.clear();
                }
                for &(s, d) in lb.iter().filter(useful) {
                    if let Some(b) = by_spare.get_mut(spare(s, d)) {
                        b.push((s, d));
                    }
                }
                for &(aset, va) in a_buf.iter() {
                    let want = (vc.len() as usize).checked_sub(size + spare(aset, va));
                    let Some(lb) = want.and_then(|k| by_spare.get(k)) else {
                        continue;
                    };
                    for &(bset, vb) in lb {
                        if !(va & vb).is_empty() {
                            continue;
                        }
                        let all = vc | va | vb;
                        if all.len() != size as u32 + aset.len() + bset.len() {
                            continue;
                        }
                        let mut elims = Vec::new();
                        let line_d = (vc | va).without(vb);
                        let box_d = (vc | vb).without(va);
                        let keep = cset.or(aset).or(bset);
                        collect(ctx, ctx.t.house_sets[line].minus(keep), line_d, &mut elims);
                        collect(ctx, ctx.t.house_sets[boxh].minus(keep), box_d, &mut elims);
                        if elims.is_empty() {
                            continue;
                        }
                        let step = Step::new(
                            info,
                            Pattern::Subset {
                                houses: vec![line, boxh],
                                cells: keep.to_vec(),
                                digits: all,
                                hidden: false,
                            },
                        )
                        .eliminate(elims)
                        .house(line, Role::Base)
                        .house(boxh, Role::Base)
                        .candidates(c, vc, Role::Defining)
                        .candidates(&aset.to_vec(), va, Role::ColorA)
                        .candidates(&bset.to_vec(), vb, Role::ColorB);
                        sink(step)?;
                    }
                }
                ControlFlow::Continue(())
            })?;
        }
    }
    ControlFlow::Continue(())
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

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let (Some((line, boxh)), Pattern::Subset { cells, digits, .. }) = (houses(step), &step.pattern)
    else {
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
        Detail::Full => format!(
            "{}: {} hold exactly the {} digits {}, each once; the digits tied to {} leave \
             the rest of it and those tied to {} leave the rest of that: {}",
            step.name(),
            cell_list(g, cells),
            cells.len(),
            digit_list(*digits),
            house_name(g, line),
            house_name(g, boxh),
            effect_text(g, step)
        ),
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
