//! Wings: XY-wing, XYZ-wing, W-wing, and remote pairs (chains of identical bivalue cells).

use super::step::{article, cell_list, digit_list, effect_text};
use super::{
    Candidate, CellSet, Ctx, Detail, LinkKind, Pattern, Role, Sink, Step, Target, TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "xy-wing" => xy_wing(ctx, info, false, sink),
        "xyz-wing" => xy_wing(ctx, info, true, sink),
        "w-wing" => w_wing(ctx, info, sink),
        "remote-pair" => remote_pair(ctx, info, sink),
        _ => ControlFlow::Continue(()),
    }
}

fn bivalue(ctx: &Ctx) -> Vec<Cell> {
    ctx.empty
        .iter()
        .filter(|&c| ctx.cand[c].len() == 2)
        .collect()
}

/// Pivot {x,y} (XYZ: {x,y,z}) seeing pincers {x,z} and {y,z}: one of them holds z.
fn xy_wing(ctx: &Ctx, info: &'static TechniqueInfo, xyz: bool, sink: &mut Sink) -> ControlFlow<()> {
    let bi = CellSet::from_cells(bivalue(ctx));
    let size = if xyz { 3 } else { 2 };
    // The bivalue peers of each pivot, in cell order (one buffer for all pivots).
    let mut wings: Vec<Cell> = Vec::new();
    for pivot in ctx.empty.iter() {
        let pc = ctx.cand[pivot];
        if pc.len() != size {
            continue;
        }
        wings.clear();
        wings.extend(bi.and(ctx.t.peers[pivot]).iter().filter(|&c| c != pivot));
        for (i, &p1) in wings.iter().enumerate() {
            for &p2 in &wings[i + 1..] {
                let (a, b) = (ctx.cand[p1], ctx.cand[p2]);
                if a == b {
                    continue;
                }
                let z = a & b;
                let Some(zd) = z.single_digit() else { continue };
                let ok = if xyz {
                    // Both pincers inside the pivot, together covering it.
                    a.is_subset(pc) && b.is_subset(pc) && (a | b) == pc
                } else {
                    !pc.contains(zd) && (a | b).without(z) == pc
                };
                if !ok {
                    continue;
                }
                let mut seers = vec![p1, p2];
                if xyz {
                    seers.push(pivot);
                }
                let targets = ctx
                    .seen_by_all(&seers)
                    .minus(CellSet::from_cells([pivot, p1, p2]));
                let elims = ctx.elims(targets, zd);
                if elims.is_empty() {
                    continue;
                }
                sink(
                    Step::new(
                        info,
                        Pattern::Wing {
                            pivot: Some(pivot),
                            pincers: vec![p1, p2],
                            link: None,
                            digits: pc,
                            digit: zd,
                        },
                    )
                    .eliminate(elims)
                    .cells(&[pivot], Role::Pivot)
                    .cells(&[p1, p2], Role::Pincer)
                    .candidates(&[pivot, p1, p2], pc | z, Role::Defining),
                )?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Two {x,y} cells that do not see each other, joined by a strong link on x (each end
/// seeing one of them): one of the two holds y.
fn w_wing(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let bi = bivalue(ctx);
    for (i, &c1) in bi.iter().enumerate() {
        for &c2 in &bi[i + 1..] {
            let pair = ctx.cand[c1];
            if ctx.cand[c2] != pair || ctx.geo.sees(c1, c2) {
                continue;
            }
            for x in pair.iter() {
                let Some(y) = pair.without(Digits::single(x)).single_digit() else {
                    continue;
                };
                let targets = ctx.seen_by_all(&[c1, c2]);
                if targets.and(ctx.digit[usize::from(y)]).is_empty() {
                    continue;
                }
                for &h in &ctx.t.complete {
                    let w = ctx.where_in(h, x);
                    if w.len() != 2 || w.contains(c1) || w.contains(c2) {
                        continue;
                    }
                    let v = w.to_vec();
                    for (a, b) in [(v[0], v[1]), (v[1], v[0])] {
                        if !ctx.geo.sees(a, c1) || !ctx.geo.sees(b, c2) {
                            continue;
                        }
                        let elims = ctx.elims(targets, y);
                        let cx = |c| Candidate::new(c, x);
                        sink(
                            Step::new(
                                info,
                                Pattern::Wing {
                                    pivot: None,
                                    pincers: vec![c1, c2],
                                    link: Some((a, b)),
                                    digits: pair,
                                    digit: y,
                                },
                            )
                            .eliminate(elims)
                            .cells(&[c1, c2], Role::Pincer)
                            .candidates(&[c1, c2], pair, Role::Defining)
                            .candidates(&[a, b], Digits::single(x), Role::Defining)
                            .house(h, Role::Defining)
                            .highlight(
                                Target::Link(cx(a), cx(b), LinkKind::Strong),
                                Role::Defining,
                            ),
                        )?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Chains of bivalue cells with the same two digits, each seeing the next: cells an odd
/// number of links apart hold different digits, so whatever sees both loses both digits.
fn remote_pair(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let bi = bivalue(ctx);
    // Depth-first over simple paths; the budget keeps pathological grids bounded.
    let mut budget = 600usize;
    for &start in &bi {
        let pair = ctx.cand[start];
        let same: Vec<Cell> = bi
            .iter()
            .copied()
            .filter(|&c| ctx.cand[c] == pair)
            .collect();
        if same.len() < 4 {
            continue;
        }
        let mut path = vec![start];
        dfs(ctx, info, &same, pair, &mut path, &mut budget, sink)?;
    }
    ControlFlow::Continue(())
}

fn dfs(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    same: &[Cell],
    pair: Digits,
    path: &mut Vec<Cell>,
    budget: &mut usize,
    sink: &mut Sink,
) -> ControlFlow<()> {
    if *budget == 0 {
        return ControlFlow::Continue(());
    }
    *budget -= 1;
    let n = path.len();
    if n >= 4 && n.is_multiple_of(2) {
        // The two ends are an odd number of links apart.
        let (a, b) = (path[0], path[n - 1]);
        let mut elims = Vec::new();
        let targets = ctx
            .seen_by_all(&[a, b])
            .minus(CellSet::from_cells(path.iter().copied()));
        for d in pair.iter() {
            elims.extend(ctx.elims(targets, d));
        }
        // Report each chain once (from its lower end).
        if !elims.is_empty() && a < b {
            let mut step = Step::new(
                info,
                Pattern::Chain {
                    cells: path.clone(),
                    digits: pair,
                },
            )
            .eliminate(elims)
            .candidates(path, pair, Role::Defining);
            for (i, w) in path.windows(2).enumerate() {
                let role = if i % 2 == 0 {
                    Role::ColorA
                } else {
                    Role::ColorB
                };
                step = step.cells(&[w[0]], role);
            }
            sink(step)?;
        }
    }
    let last = path[n - 1];
    for &next in same {
        if !path.contains(&next) && ctx.geo.sees(last, next) {
            path.push(next);
            dfs(ctx, info, same, pair, path, budget, sink)?;
            path.pop();
        }
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let name = step.name();
    match (&step.pattern, detail) {
        (Pattern::Wing { pivot: Some(p), .. }, Detail::Nudge) => {
            format!("Look at the cells that {} sees", g.cell_name(*p))
        }
        (Pattern::Wing { pincers, .. }, Detail::Nudge) => {
            format!("Look at {}", cell_list(g, pincers))
        }
        (Pattern::Chain { cells, .. }, Detail::Nudge) => {
            format!("Look at the bivalue cells like {}", g.cell_name(cells[0]))
        }
        (_, Detail::Technique) => format!("There is {} {name}", article(name)),
        (
            Pattern::Wing {
                pivot: Some(p),
                pincers,
                digit,
                ..
            },
            Detail::Full,
        ) => format!(
            "{name} with pivot {} and pincers {}: whatever the pivot holds, one pincer \
             holds {}: {}",
            g.cell_name(*p),
            cell_list(g, pincers),
            digit_char(*digit),
            effect_text(g, step)
        ),
        (
            Pattern::Wing {
                pivot: None,
                pincers,
                link: Some((a, b)),
                digits,
                digit,
            },
            Detail::Full,
        ) => {
            let x = digits.without(Digits::single(*digit)).first().unwrap_or(0);
            format!(
                "{name}: {} both hold {}; the strong link {} = {} on {} means one of them \
                 holds {}: {}",
                cell_list(g, pincers),
                digit_list(*digits),
                g.cell_name(*a),
                g.cell_name(*b),
                digit_char(x),
                digit_char(*digit),
                effect_text(g, step)
            )
        }
        (Pattern::Chain { cells, digits }, Detail::Full) => format!(
            "{name} {digits} along {}: the ends hold different digits: {}",
            cells
                .iter()
                .map(|&c| g.cell_name(c))
                .collect::<Vec<_>>()
                .join(" - "),
            effect_text(g, step)
        ),
        _ => format!("{name}: {}", effect_text(g, step)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{grid, set};
    use super::super::{find_all, Detail};

    #[test]
    fn xy_wing_removes_z_where_both_pincers_see() {
        let mut g = grid(&".".repeat(81));
        // Pivot r1c1 {1,2}; pincers r1c5 {1,3} (row) and r3c2 {2,3} (box).
        set(&mut g, "r1c1:12 r1c5:13 r3c2:23");
        let steps = find_all(&g, "xy-wing");
        let s = steps
            .iter()
            .find(|s| s.eliminations.iter().all(|e| e.digit == 3))
            .expect("xy-wing");
        let names: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| g.geometry().cell_name(e.cell))
            .collect();
        // Cells seeing r1c5 and r3c2: r1c2, r1c3 (row 1 + box 1) and r3c4, r3c5, r3c6 (box 2 + row 3).
        assert_eq!(names, ["r1c2", "r1c3", "r3c4", "r3c5", "r3c6"]);
        assert!(s
            .explain(g.geometry(), Detail::Full)
            .starts_with("XY-Wing with pivot r1c1 and pincers r1c5 and r3c2"));
    }

    #[test]
    fn remote_pair_needs_four_cells() {
        let mut g = grid(&".".repeat(81));
        set(&mut g, "r1c1:12 r1c5:12 r5c5:12");
        assert!(find_all(&g, "remote-pair").is_empty());
        set(&mut g, "r5c9:12");
        let steps = find_all(&g, "remote-pair");
        assert!(!steps.is_empty());
        // r1c9 sees r1c1 and r5c9.
        assert!(steps[0]
            .eliminations
            .iter()
            .any(|e| g.geometry().cell_name(e.cell) == "r1c9"));
    }
}
