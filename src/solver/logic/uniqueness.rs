//! Uniqueness: BUG+1. Valid only for puzzles with one solution (the CLI and the rating
//! check that) and only when every house is `Complete`, where the deadly-pattern
//! argument holds.

use super::step::effect_text;
use super::{Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Geometry};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if info.id != "bug-plus-1" || !ctx.t.all_complete {
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

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
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
