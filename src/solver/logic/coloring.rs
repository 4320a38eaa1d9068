//! Simple colours (trap and wrap) and multi colours on one digit.
//!
//! Conjugate pairs (a digit twice in a `Complete` house) form clusters; colouring a cluster
//! alternately splits it in two colours, exactly one of which holds the digit.

use super::step::{article, cell_list, effect_text};
use super::{CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Digits, Geometry};
use std::ops::ControlFlow;

/// One cluster: its two colours, and the cells seeing each colour.
pub(crate) struct Cluster {
    a: CellSet,
    b: CellSet,
    sees_a: CellSet,
    sees_b: CellSet,
}

/// The clusters of every digit (indexed by digit), built once per position for the four
/// colouring techniques.
fn all_clusters<'a>(ctx: &'a Ctx) -> &'a [Vec<Cluster>] {
    ctx.cache.clusters.get_or_init(|| {
        (0..=ctx.geo.max_digit())
            .map(|d| {
                if d == 0 || ctx.digit[usize::from(d)].len() < 4 {
                    Vec::new()
                } else {
                    clusters(ctx, d)
                }
            })
            .collect()
    })
}

fn clusters(ctx: &Ctx, digit: u8) -> Vec<Cluster> {
    let n = ctx.geo.cell_count();
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(h, must) in ctx.strong_houses() {
        let w = ctx.where_in(h, digit);
        if w.len() == 2 && must.contains(digit) {
            let v = w.to_vec();
            adj[v[0]].push(v[1]);
            adj[v[1]].push(v[0]);
        }
    }
    let mut colour = vec![0u8; n];
    let mut out = Vec::new();
    for start in 0..n {
        if adj[start].is_empty() || colour[start] != 0 {
            continue;
        }
        let mut c = Cluster {
            a: CellSet::EMPTY,
            b: CellSet::EMPTY,
            sees_a: CellSet::EMPTY,
            sees_b: CellSet::EMPTY,
        };
        colour[start] = 1;
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            if colour[x] == 1 {
                c.a.insert(x);
            } else {
                c.b.insert(x);
            }
            for &y in &adj[x] {
                if colour[y] == 0 {
                    colour[y] = 3 - colour[x];
                    stack.push(y);
                }
            }
        }
        c.sees_a = sees_any(ctx, c.a);
        c.sees_b = sees_any(ctx, c.b);
        out.push(c);
    }
    out
}

/// Cells that see at least one cell of `s`.
fn sees_any(ctx: &Ctx, s: CellSet) -> CellSet {
    s.iter().fold(CellSet::EMPTY, |m, c| m.or(ctx.t.peers[c]))
}

/// True when two cells of `s` see each other.
fn clashes(ctx: &Ctx, s: CellSet) -> bool {
    s.iter().any(|c| !ctx.t.peers[c].and(s).is_empty())
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    for digit in 1..=ctx.geo.max_digit() {
        let all = ctx.digit[usize::from(digit)];
        if all.len() < 4 {
            continue;
        }
        let Some(cl) = all_clusters(ctx).get(usize::from(digit)) else {
            continue;
        };
        let mut emit = |a: CellSet, b: CellSet, a2: CellSet, b2: CellSet, targets: CellSet| {
            let elims = ctx.elims(targets, digit);
            if elims.is_empty() {
                return ControlFlow::Continue(());
            }
            let d = Digits::single(digit);
            sink(
                Step::new(
                    info,
                    Pattern::Coloring {
                        digit,
                        a: a.to_vec(),
                        b: b.to_vec(),
                        a2: a2.to_vec(),
                        b2: b2.to_vec(),
                    },
                )
                .eliminate(elims)
                .candidates(&a.or(a2).to_vec(), d, Role::ColorA)
                .candidates(&b.or(b2).to_vec(), d, Role::ColorB),
            )
        };
        match info.id {
            "simple-colors-trap" => {
                for c in cl {
                    let t = c.sees_a.and(c.sees_b).and(all).minus(c.a.or(c.b));
                    emit(c.a, c.b, CellSet::EMPTY, CellSet::EMPTY, t)?;
                }
            }
            "simple-colors-wrap" => {
                for c in cl {
                    // A colour with two cells in one house is false everywhere.
                    if clashes(ctx, c.a) {
                        emit(c.a, c.b, CellSet::EMPTY, CellSet::EMPTY, c.a)?;
                    }
                    if clashes(ctx, c.b) {
                        emit(c.a, c.b, CellSet::EMPTY, CellSet::EMPTY, c.b)?;
                    }
                }
            }
            "multi-colors-1" => {
                // A colour of one cluster sees a colour of another: one of the two opposite
                // colours holds the digit. One step per pair of clusters, all clashes united.
                for (i, c1) in cl.iter().enumerate() {
                    for c2 in &cl[i + 1..] {
                        let mut t = CellSet::EMPTY;
                        let sides = |c: &Cluster| {
                            [
                                (c.a, c.sees_a, c.b, c.sees_b),
                                (c.b, c.sees_b, c.a, c.sees_a),
                            ]
                        };
                        for (_, seen, y1, sees_y1) in sides(c1) {
                            for (x2, _, y2, sees_y2) in sides(c2) {
                                if !seen.and(x2).is_empty() {
                                    t = t.or(sees_y1.and(sees_y2).minus(y1.or(y2)));
                                }
                            }
                        }
                        emit(c1.a, c1.b, c2.a, c2.b, t.and(all))?;
                    }
                }
            }
            "multi-colors-2" => {
                // A colour that sees both colours of another cluster is false.
                for (i, c1) in cl.iter().enumerate() {
                    for (j, c2) in cl.iter().enumerate() {
                        for (x1, seen, y1) in [(c1.a, c1.sees_a, c1.b), (c1.b, c1.sees_b, c1.a)] {
                            if i != j && !seen.and(c2.a).is_empty() && !seen.and(c2.b).is_empty() {
                                emit(x1, y1, c2.a, c2.b, x1)?;
                            }
                        }
                    }
                }
            }
            _ => return ControlFlow::Continue(()),
        }
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Coloring {
        digit,
        a,
        b,
        a2,
        b2,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    match detail {
        Detail::Nudge => format!("Look at the conjugate pairs of {d}"),
        Detail::Technique => format!("There is {} {} on {d}", article(step.name()), step.name()),
        Detail::Full if a2.is_empty() => format!(
            "{} on {d}: colouring its conjugate pairs gives {} against {}; one colour holds \
             {d}: {}",
            step.name(),
            cell_list(g, a),
            cell_list(g, b),
            effect_text(g, step)
        ),
        Detail::Full => format!(
            "{} on {d}: clusters {} / {} and {} / {}: {}",
            step.name(),
            cell_list(g, a),
            cell_list(g, b),
            cell_list(g, a2),
            cell_list(g, b2),
            effect_text(g, step)
        ),
    }
}
