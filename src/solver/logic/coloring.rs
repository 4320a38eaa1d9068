//! (being written)

use super::step::effect_text;
use super::{Ctx, Detail, Sink, Step, TechniqueInfo};
use crate::geometry::Geometry;
use std::ops::ControlFlow;

pub fn find(_ctx: &Ctx, _info: &'static TechniqueInfo, _sink: &mut Sink) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, _detail: Detail) -> String {
    format!("{}: {}", step.name(), effect_text(g, step))
}
