//! Killer cages: the digit sets a cage can still hold, and the 45 rule.
//!
//! - `cage-combination`: the sets of distinct digits with the cage's size and sum, kept
//!   only when a matching gives every cell a digit of the set; a candidate that no kept
//!   set can place in its cell goes;
//! - `innie-outie`: a row, column or box (or a band of adjacent ones) holds each digit
//!   once, so it adds up to 45 each; the cages wholly inside fix the sum of the remaining
//!   cells (innies), and the cages reaching out fix the sum of their cells outside
//!   (outies). The few cells so summed keep only the candidates some sum uses.
//!
//! Cage/house interactions (a digit every cage set contains, confined to where the cage
//! meets a row, column or box) need no code here: cages are houses, so
//! [`must_appear`](super::must_appear) hands them to locked candidates and hidden subsets.

use super::step::{cell_list, effect_text, house_list, house_name, or_list};
use super::{elims_outside, mask, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{Cell, Digits, Geometry, HouseId, HouseKind, Rule};
use crate::solver::rules::{combinations, viable_edges};
use std::ops::ControlFlow;

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    match info.id {
        "cage-combination" => combos(ctx, info, sink),
        "innie-outie" => innies(ctx, info, sink),
        _ => ControlFlow::Continue(()),
    }
}

fn combos(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let n = ctx.geo.max_digit();
    for (h, house) in ctx.geo.houses().iter().enumerate() {
        let Rule::Cage { sum } = house.rule else {
            continue;
        };
        if ctx.t.house_sets[h].and(ctx.empty).is_empty() || house.cells.len() > 16 {
            continue;
        }
        let masks: Vec<u16> = house.cells.iter().map(|&c| mask(ctx, c)).collect();
        let mut kept = Vec::new();
        let mut keep = vec![0u16; masks.len()];
        for set in combinations(n, house.cells.len(), sum) {
            if let Some(out) = viable_edges(&masks, set) {
                kept.push(Digits(set));
                for (k, o) in keep.iter_mut().zip(out) {
                    *k |= o;
                }
            }
        }
        if kept.is_empty() {
            continue; // broken cage: nothing sound to say
        }
        let elims = elims_outside(ctx, &house.cells, &keep);
        if elims.is_empty() {
            continue;
        }
        sink(
            Step::new(
                info,
                Pattern::Sum {
                    house: Some(h),
                    region: Vec::new(),
                    cells: house.cells.clone(),
                    sum,
                    combos: kept,
                    outies: false,
                },
            )
            .eliminate(elims)
            .house(h, Role::Defining),
        )?;
    }
    ControlFlow::Continue(())
}

/// Largest number of summed cells an innie/outie step looks at, and its search budget.
const MAX_SUMMED: usize = 6;
const SUM_NODES: u32 = 20_000;

/// Per cell, the digits some assignment of `cells` (distinct where cells see each other)
/// adding up to `target` puts there; `None` over budget or when no assignment exists.
fn sum_support(ctx: &Ctx, cells: &[Cell], target: u32) -> Option<Vec<u16>> {
    struct S<'a> {
        dom: Vec<u16>,
        conflict: Vec<u16>,
        suffix_min: Vec<u32>,
        suffix_max: Vec<u32>,
        value: Vec<u8>,
        seen: Vec<u16>,
        nodes: u32,
        target: u32,
        over: bool,
        _ctx: &'a Ctx<'a>,
    }
    impl S<'_> {
        fn dfs(&mut self, i: usize, acc: u32) -> bool {
            self.nodes += 1;
            if self.nodes > SUM_NODES {
                self.over = true;
                return false;
            }
            if i == self.dom.len() {
                if acc == self.target {
                    for (k, &v) in self.value.iter().enumerate() {
                        self.seen[k] |= 1 << (v - 1);
                    }
                    return self.seen != self.dom;
                }
                return true;
            }
            if acc + self.suffix_min[i] > self.target || acc + self.suffix_max[i] < self.target {
                return true;
            }
            let mut m = self.dom[i];
            while m != 0 {
                let d = m.trailing_zeros() as u8 + 1;
                m &= m - 1;
                if (0..i).any(|k| self.conflict[i] & (1 << k) != 0 && self.value[k] == d) {
                    continue;
                }
                self.value[i] = d;
                if !self.dfs(i + 1, acc + u32::from(d)) {
                    return false;
                }
            }
            true
        }
    }
    let dom: Vec<u16> = cells.iter().map(|&c| mask(ctx, c)).collect();
    if dom.contains(&0) {
        return None;
    }
    let k = cells.len();
    let mut suffix_min = vec![0u32; k + 1];
    let mut suffix_max = vec![0u32; k + 1];
    for i in (0..k).rev() {
        let m = Digits(dom[i]);
        suffix_min[i] = suffix_min[i + 1] + u32::from(m.first().unwrap_or(0));
        suffix_max[i] = suffix_max[i + 1] + u32::from(m.last().unwrap_or(0));
    }
    let conflict = (0..k)
        .map(|i| {
            (0..i)
                .filter(|&j| ctx.geo.sees(cells[i], cells[j]))
                .fold(0u16, |m, j| m | 1 << j)
        })
        .collect();
    let mut s = S {
        value: vec![0; k],
        seen: vec![0; k],
        dom,
        conflict,
        suffix_min,
        suffix_max,
        nodes: 0,
        target,
        over: false,
        _ctx: ctx,
    };
    s.dfs(0, 0);
    if s.over || s.seen.contains(&0) {
        return None;
    }
    Some(s.seen)
}

/// Regions of whole houses the 45 rule applies to: runs of 1..=n-1 adjacent rows or
/// columns, single boxes and pairs of adjacent boxes.
fn regions(ctx: &Ctx) -> Vec<Vec<HouseId>> {
    let g = ctx.geo;
    let size = g.max_digit();
    let find = |k: HouseKind| {
        g.find_house(k)
            .filter(|&h| g.house(h).rule == Rule::Complete)
    };
    let mut out = Vec::new();
    for make in [HouseKind::Row as fn(u8) -> HouseKind, HouseKind::Column] {
        let lines: Vec<Option<HouseId>> = (1..=size).map(|i| find(make(i))).collect();
        for len in 1..usize::from(size) {
            for start in 0..=lines.len() - len {
                if let Some(v) = lines[start..start + len].iter().copied().collect() {
                    out.push(v);
                }
            }
        }
    }
    if let crate::geometry::Shape::Square {
        size,
        box_rows,
        box_cols,
    } = g.shape()
    {
        let across = size / box_cols.max(1);
        let boxes = (size / box_rows.max(1)) * across;
        for b in 1..=boxes {
            let Some(h) = find(HouseKind::Box(b as u8)) else {
                continue;
            };
            out.push(vec![h]);
            if b % across != 0 {
                if let Some(r) = find(HouseKind::Box(b as u8 + 1)) {
                    out.push(vec![h, r]);
                }
            }
            if let Some(d) = find(HouseKind::Box((b + across) as u8)) {
                out.push(vec![h, d]);
            }
        }
    }
    out
}

fn innies(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let g = ctx.geo;
    let cages: Vec<HouseId> = (0..g.houses().len())
        .filter(|&h| matches!(g.house(h).rule, Rule::Cage { .. }))
        .collect();
    if cages.is_empty() {
        return ControlFlow::Continue(());
    }
    let house_total: u32 = ctx.geo.all_digits().sum();
    let cage_sum = |h: HouseId| match g.house(h).rule {
        Rule::Cage { sum } => sum,
        _ => 0,
    };
    for region in regions(ctx) {
        let area = region
            .iter()
            .fold(super::CellSet::EMPTY, |m, &h| m.or(ctx.t.house_sets[h]));
        if area.and(ctx.empty).is_empty() {
            continue;
        }
        let total = house_total * region.len() as u32;
        let (mut inside_sum, mut reaching_sum) = (0u32, 0u32);
        let mut covered = super::CellSet::EMPTY;
        let mut outies = super::CellSet::EMPTY;
        for &c in &cages {
            let s = ctx.t.house_sets[c];
            if s.and(area).is_empty() {
                continue;
            }
            if s.is_subset(area) {
                inside_sum += cage_sum(c);
                covered = covered.or(s);
            } else {
                reaching_sum += cage_sum(c);
                outies = outies.or(s.minus(area));
            }
        }
        let innie_cells = area.minus(covered);
        let all_caged = cages
            .iter()
            .fold(super::CellSet::EMPTY, |m, &c| m.or(ctx.t.house_sets[c]));
        let mut tries: Vec<(super::CellSet, Option<u32>, bool)> =
            vec![(innie_cells, total.checked_sub(inside_sum), false)];
        if area.is_subset(all_caged) {
            tries.push((outies, (reaching_sum + inside_sum).checked_sub(total), true));
        }
        for (set, target, out) in tries {
            let Some(target) = target else { continue };
            if set.is_empty() || set.len() as usize > MAX_SUMMED || set.and(ctx.empty).is_empty() {
                continue;
            }
            let cells = set.to_vec();
            let Some(keep) = sum_support(ctx, &cells, target) else {
                continue;
            };
            let elims = elims_outside(ctx, &cells, &keep);
            if elims.is_empty() {
                continue;
            }
            let mut step = Step::new(
                info,
                Pattern::Sum {
                    house: None,
                    region: region.clone(),
                    cells: cells.clone(),
                    sum: target,
                    combos: Vec::new(),
                    outies: out,
                },
            )
            .eliminate(elims)
            .cells(&cells, Role::Defining);
            for &h in &region {
                step = step.house(h, Role::Base);
            }
            sink(step)?;
        }
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Sum {
        house,
        region,
        cells,
        sum,
        combos,
        outies,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let place = match house {
        Some(h) => house_name(g, *h),
        None => house_list(g, region),
    };
    match detail {
        Detail::Nudge => format!("Look at {place}"),
        Detail::Technique => match house {
            Some(_) => format!("Look at the digit sets {place} can hold"),
            None if *outies => format!("Count the outies of {place}"),
            None => format!("Count the innies of {place}"),
        },
        Detail::Full => match house {
            Some(_) => {
                let sets: Vec<String> = combos
                    .iter()
                    .map(|s| {
                        s.iter()
                            .map(|d| crate::geometry::digit_char(d).to_string())
                            .collect::<Vec<_>>()
                            .join("+")
                    })
                    .collect();
                format!(
                    "Cage Combination: {place} ({sum} in {} cells) can only hold {}; {}",
                    cells.len(),
                    or_list(&sets),
                    effect_text(g, step)
                )
            }
            None => format!(
                "{}: {place} add up to {} ({} each); {} cells {} of them, {}, add up to {sum}; {}",
                if *outies { "Outies" } else { "Innies" },
                g.all_digits().sum() * region.len() as u32,
                g.all_digits().sum(),
                if *outies {
                    "the cages reaching into them leave the"
                } else {
                    "the cages wholly inside leave the"
                },
                if *outies { "outside" } else { "inside" },
                cell_list(g, cells),
                effect_text(g, step)
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::find_all;
    use crate::format::parse_toml;
    use crate::puzzle::Grid;

    const KILLER: &str = r#"
title = "t"
variant = "killer"
givens = """
.........
.........
.........
.........
.........
.........
.........
.........
.........
"""
[[cage]]
sum = 3
cells = ["r1c1", "r1c2"]
[[cage]]
sum = 17
cells = ["r2c1", "r2c2"]
"#;

    #[test]
    fn two_cell_cages_keep_their_only_sets() {
        let p = parse_toml(KILLER.as_bytes(), "t").unwrap();
        let g = Grid::from_puzzle(&p);
        let steps = find_all(&g, "cage-combination");
        assert_eq!(steps.len(), 2);
        let text = steps[0].explain(g.geometry(), super::Detail::Full);
        assert!(
            text.starts_with("Cage Combination: cage 1 (3 in 2 cells) can only hold 1+2;"),
            "{text}"
        );
        // 17 = 8+9: everything else goes from r2c1.
        assert!(steps[1].eliminations.iter().all(|e| e.digit < 8));
        assert_eq!(steps[1].eliminations.len(), 14);
    }
}
