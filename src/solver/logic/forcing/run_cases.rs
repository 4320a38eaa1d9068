//! Run forcing: a run line holds one of the runs it can still hold, so the line is taken
//! case by case. Each case (the line's cells kept to that run's digits) is followed as a
//! forcing net would follow an assumption; a case that breaks is ruled out, and whatever
//! every case left standing agrees on (a candidate gone, a digit placed) holds.
//!
//! A single candidate's net sees one cell; a case sees a whole line at once, which is what
//! the sparsest honeycombs need: a line with two or three runs left splits the grid into
//! two or three worlds, and each is far more constrained than any one candidate makes it.
//!
//! Tiers, cheapest first: `run-forcing` follows each case by plain net propagation;
//! `nested-run-forcing` nests one level inside each case (every candidate whose own net
//! breaks there goes) and, when no line gives a step that way, two levels (every candidate
//! whose own nested net breaks there goes). It comes last, just before a guess: two levels
//! cost a nested net per candidate per case, and only the sparsest honeycombs need them.

use super::*;

/// One run of a line: its lowest digit and its branch.
struct Case {
    low: u8,
    branch: Branch,
}

pub(super) fn find(e: &Engine, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let depths: &[u8] = if info.id == "nested-run-forcing" {
        &[1, 2]
    } else {
        &[0]
    };
    let ctx = e.ctx;
    // Lines with fewer runs first: fewer branches, and each more telling.
    let mut lines: Vec<(usize, HouseId, Vec<u8>)> = (0..ctx.geo.houses().len())
        .filter(|&h| ctx.geo.house(h).rule == Rule::ConsecutiveRun)
        .filter(|&h| !ctx.t.house_sets[h].and(ctx.empty).is_empty())
        .map(|h| {
            let lows = runs_of(ctx, h);
            (lows.len(), h, lows)
        })
        .filter(|(n, _, _)| *n >= 2)
        .collect();
    lines.sort_by_key(|&(n, h, _)| (n, h));
    if depths[0] >= 1 && !lines.is_empty() {
        prime_nets(e);
    }
    for &depth in depths {
        for (_, h, lows) in &lines {
            let mut cases: Vec<Case> = Vec::with_capacity(lows.len());
            for &low in lows {
                let branch = case_branch(e, *h, low, depth);
                cases.push(Case { low, branch });
            }
            if let Some(step) = case_step(e, info, *h, &cases, depth) {
                sink(step)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// The plain net of every candidate from the position, for the nested levels: a nested
/// level then skips a candidate whose net shares no house with the case's facts, and
/// starts the others from their known net instead of deriving it afresh (see
/// [`Engine::nest`] and [`Engine::inner_net`]).
fn prime_nets(e: &Engine) {
    let ctx = e.ctx;
    for c in ctx.empty.iter() {
        for d in ctx.cand[c].iter() {
            let y = c * 32 + usize::from(d);
            let b = e.net(fact(c, d, true));
            let broken = b.contradiction.is_some() || b.derived.len() > MAX_FACTS;
            e.touch.borrow_mut()[y] = if broken {
                u128::MAX
            } else {
                e.touched(&b.derived)
            };
            if !broken {
                e.keep_net(y, &b);
            }
        }
    }
}

/// The runs (lowest digits) line `h` can hold, each checked by a matching of its cells to
/// the run's digits.
fn runs_of(ctx: &Ctx, h: HouseId) -> Vec<u8> {
    let cells = &ctx.geo.house(h).cells;
    let n = ctx.geo.max_digit();
    let len = cells.len() as u8;
    if len == 0 || len > n || cells.len() > 16 {
        return Vec::new();
    }
    let masks: Vec<u16> = cells.iter().map(|&c| super::super::mask(ctx, c)).collect();
    (1..=n + 1 - len)
        .filter(|&lo| viable_edges(&masks, Digits::range(lo, lo + len - 1).0).is_some())
        .collect()
}

/// The branch in which line `h` holds the run from `low`: every candidate of its cells
/// outside the run is false; followed by plain nets, then nested `depth` levels.
fn case_branch(e: &Engine, h: HouseId, low: u8, depth: u8) -> Branch {
    let ctx = e.ctx;
    let cells = &ctx.geo.house(h).cells;
    let window = Digits::range(low, low + cells.len() as u8 - 1);
    let mut b = e.root();
    let mut queue = Vec::with_capacity(256);
    let mut first = None;
    for &c in cells {
        if ctx.grid.value(c) != 0 {
            continue;
        }
        for d in ctx.cand[c].iter().filter(|&d| !window.contains(d)) {
            let f = fact(c, d, false);
            e.derive(&mut b, f, NONE, &mut queue);
            first.get_or_insert(f);
        }
    }
    e.run(&mut b, &mut queue, Mode::Net);
    // The case's facts have an off fact as their root, so nesting shares no verdicts with
    // the pair table of plain nets (which holds only for nets from the position itself).
    let Some(root) = first else {
        return b;
    };
    if depth >= 1 {
        e.nest(&mut b, &mut queue, root, Start::Plain);
    }
    if depth >= 2 {
        nest_twice(e, &mut b, root);
    }
    b
}

/// Second level inside a case: every candidate whose nested net breaks inside `b` goes, with
/// its consequences and the first level again, until nothing changes. Bivalue cells first.
fn nest_twice(e: &Engine, b: &mut Branch, root: Fact) {
    let ctx = e.ctx;
    let mut queue = Vec::with_capacity(256);
    let mut changed = true;
    while changed && b.contradiction.is_none() {
        changed = false;
        let mut cells: Vec<Cell> = ctx.empty.iter().filter(|&c| b.value[c] == 0).collect();
        cells.sort_by_key(|&c| b.cand[c].len());
        for c in cells {
            for d in b.cand[c].iter() {
                if b.contradiction.is_some() || b.value[c] != 0 || !b.cand[c].contains(d) {
                    break;
                }
                let mut inner = b.clone();
                let mut q = Vec::with_capacity(256);
                e.derive(&mut inner, fact(c, d, true), root, &mut q);
                e.run(&mut inner, &mut q, Mode::Net);
                if inner.contradiction.is_none() {
                    e.nest(&mut inner, &mut q, root, Start::Plain);
                }
                if inner.contradiction.is_some() {
                    e.remove_nested(b, &mut queue, root, fact(c, d, false));
                    if b.contradiction.is_none() {
                        e.nest(b, &mut queue, root, Start::Plain);
                    }
                    changed = true;
                }
            }
        }
    }
}

/// What every case left standing agrees on, as a step (None when nothing new).
fn case_step(
    e: &Engine,
    info: &'static TechniqueInfo,
    h: HouseId,
    cases: &[Case],
    depth: u8,
) -> Option<Step> {
    let ctx = e.ctx;
    let open: Vec<&Branch> = cases
        .iter()
        .filter(|k| k.branch.contradiction.is_none())
        .map(|k| &k.branch)
        .collect();
    if open.is_empty() {
        return None; // the position itself is broken: nothing sound to say
    }
    let (mut placements, mut eliminations) = (Vec::new(), Vec::new());
    for c in ctx.empty.iter() {
        for d in ctx.cand[c].iter() {
            if open.iter().all(|b| b.value[c] == d) {
                placements.push(Candidate::new(c, d));
            } else if open
                .iter()
                .all(|b| b.value[c] != d && (b.value[c] != 0 || !b.cand[c].contains(d)))
            {
                eliminations.push(Candidate::new(c, d));
            }
        }
    }
    // A run ruled out is the step: the line's cells lose that run's digits, and cheaper
    // techniques take it from there (a surviving case followed with nesting may have
    // solved much of the grid, which is no hint). What the cases agree on is the step only
    // when no run goes, or ruling one out removes nothing.
    if cases.iter().any(|k| k.branch.contradiction.is_some()) {
        let line = ctx.t.house_sets[h];
        let local: Vec<Candidate> = eliminations
            .iter()
            .filter(|x| {
                line.contains(x.cell)
                    && open
                        .iter()
                        .all(|b| !b.cand[x.cell].contains(x.digit) && b.value[x.cell] != x.digit)
            })
            .copied()
            .collect();
        if !local.is_empty() {
            placements.clear();
            eliminations = local;
        }
    }
    if placements.is_empty() && eliminations.is_empty() {
        return None;
    }
    let pattern = Pattern::RunCases {
        house: h,
        cases: cases
            .iter()
            .map(|k| {
                let why = k.branch.contradiction.as_ref().map(|(_, w)| w.clone());
                (k.low, why)
            })
            .collect(),
        depth,
    };
    let mut step = Step::new(info, pattern)
        .eliminate(eliminations)
        .house(h, Role::Defining);
    for p in placements {
        step = step.place(p.cell, p.digit);
    }
    Some(step)
}

/// "Row 3 can hold 2-6, 3-7 or 4-8: with 2-6, \ line 4 can hold no run; ... so ...".
pub(super) fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::RunCases {
        house,
        cases,
        depth,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let name = crate::solver::logic::step::house_name(g, *house);
    let len = g.house(*house).cells.len() as u8;
    let run = |lo: u8| format!("{}-{}", digit_char(lo), digit_char(lo + len - 1));
    match detail {
        Detail::Nudge => format!("Look at the runs {name} can hold"),
        Detail::Technique => format!(
            "There is {} {}: take the runs {name} can hold one by one",
            crate::solver::logic::step::article(step.name()),
            step.name()
        ),
        Detail::Full => {
            let all: Vec<String> = cases.iter().map(|(lo, _)| run(*lo)).collect();
            let how = match depth {
                0 => "following each",
                1 => "following each (and, inside it, dropping every candidate whose own net breaks)",
                _ => "following each (and, inside it, dropping every candidate whose own nested net breaks)",
            };
            let broken: Vec<String> = cases
                .iter()
                .filter_map(|(lo, why)| {
                    why.as_ref()
                        .map(|w| format!("with {} it breaks ({w})", run(*lo)))
                })
                .collect();
            let left: Vec<String> = cases
                .iter()
                .filter(|(_, why)| why.is_none())
                .map(|(lo, _)| run(*lo))
                .collect();
            let verdict = match left.len() {
                1 => format!("so it holds {}, and then", left[0]),
                _ => format!(
                    "whichever of {} it holds,",
                    crate::solver::logic::step::or_list(&left)
                ),
            };
            let broken = if broken.is_empty() {
                String::new()
            } else {
                format!("{}; ", crate::solver::logic::step::and_list(&broken))
            };
            format!(
                "{}: {name} can hold {}; {how}, {broken}{verdict} {}",
                step.name(),
                crate::solver::logic::step::or_list(&all),
                effect_text(g, step)
            )
        }
    }
}
