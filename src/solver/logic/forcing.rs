//! Forcing chains and forcing nets: assume a candidate true (or false), follow what
//! singles force, and keep what every branch agrees on or what ends in a contradiction.
//!
//! * Contradiction: `x` true leads to an impossible grid, so `x` goes; `x` false does, so
//!   `x` is placed.
//! * Verity: both states of a candidate, every candidate of a cell, or every place of a
//!   digit in a `Complete` house lead to the same fact, so that fact holds.
//!
//! A *chain* follows only single-premise inferences (a placement removes peers; a cell or
//! house that had exactly two candidates at the start places the other one), so its proof
//! reads as one line. A *net* uses the current state (a cell whose other candidates were
//! removed by several earlier facts), and, when plain nets find nothing, nests one level:
//! inside a branch, every candidate whose own net ends in a contradiction is removed too.
//! Nets are bounded (node count per branch, nesting only on request) and come last in the
//! table, after every cheaper technique.
//!
//! Propagation only places digits through peers (true for every house kind, since every
//! house holds distinct digits) and finds hidden singles only in `Complete` houses, so it is
//! sound on every variant.

use super::step::{effect_text, ChainNode};
use super::{
    Candidate, Ctx, Detail, Highlight, LinkKind, Pattern, Role, Sink, Step, Target, TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId};
use std::ops::ControlFlow;

/// A fact: candidate `(cell, digit)` is true (`on`) or false.
type Fact = u32;

fn fact(cell: Cell, digit: u8, on: bool) -> Fact {
    ((cell as u32) * 32 + u32::from(digit)) * 2 + u32::from(on)
}

fn unfact(f: Fact) -> (Cell, u8, bool) {
    ((f / 64) as usize, ((f / 2) % 32) as u8, f % 2 == 1)
}

/// Parent of a fact not derived in a branch.
const UNSET: u32 = u32::MAX;
/// Parent of an assumption (or of a removal found by a nested net).
const NONE: u32 = u32::MAX - 1;

/// How a branch is propagated.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Single-premise inferences only (forcing chain).
    Chain,
    /// Inferences on the current state (forcing net).
    Net,
    /// Net, plus removal of candidates whose own net is contradictory (nested net).
    Nested,
}

/// One branch: the candidate state after an assumption and the facts it derived.
#[derive(Clone)]
struct Branch {
    cand: Vec<Digits>,
    value: Vec<u8>,
    /// Parent fact of each derived fact (`NONE` for the assumption or nested removals).
    parent: Vec<u32>,
    derived: Vec<Fact>,
    /// The fact at which the grid broke, and why.
    contradiction: Option<(Fact, String)>,
}

struct Engine<'a> {
    ctx: &'a Ctx<'a>,
    complete: Vec<bool>,
    /// Cells of every house (all kinds: used for peers' placement checks via `peers`).
    start_cand: &'a [Digits],
    /// Upper bound on derived facts per branch (keeps nested nets affordable).
    max_facts: usize,
}

impl<'a> Engine<'a> {
    fn new(ctx: &'a Ctx<'a>) -> Engine<'a> {
        let mut complete = vec![false; ctx.geo.houses().len()];
        for &h in &ctx.t.complete {
            complete[h] = true;
        }
        Engine {
            ctx,
            complete,
            start_cand: &ctx.cand,
            max_facts: 4000,
        }
    }

    fn root(&self) -> Branch {
        let n = self.ctx.geo.cell_count();
        Branch {
            cand: self.ctx.cand.clone(),
            value: (0..n).map(|c| self.ctx.grid.value(c)).collect(),
            parent: vec![UNSET; n * 64],
            derived: Vec::new(),
            contradiction: None,
        }
    }

    /// Records a fact (if new) and its immediate effect on the state; false on contradiction.
    fn derive(&self, b: &mut Branch, f: Fact, parent: u32, queue: &mut Vec<Fact>) {
        if b.contradiction.is_some() {
            return;
        }
        let (c, d, on) = unfact(f);
        let g = self.ctx.geo;
        if on {
            if b.value[c] == d {
                return;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d) {
                b.parent[f as usize] = parent;
                b.contradiction = Some((
                    f,
                    format!("{} cannot hold {}", g.cell_name(c), digit_char(d)),
                ));
                return;
            }
            b.value[c] = d;
        } else {
            if b.value[c] == d {
                b.parent[f as usize] = parent;
                b.contradiction = Some((
                    f,
                    format!("{} would lose its digit {}", g.cell_name(c), digit_char(d)),
                ));
                return;
            }
            if b.value[c] != 0 || !b.cand[c].contains(d) {
                return;
            }
            b.cand[c].remove(d);
            if b.cand[c].is_empty() {
                b.parent[f as usize] = parent;
                b.contradiction = Some((f, format!("{} has no candidate left", g.cell_name(c))));
                return;
            }
        }
        b.parent[f as usize] = parent;
        b.derived.push(f);
        queue.push(f);
    }

    /// Follows the consequences of the queued facts.
    fn run(&self, b: &mut Branch, queue: &mut Vec<Fact>, mode: Mode) {
        let g = self.ctx.geo;
        let mut head = 0;
        while head < queue.len() && b.contradiction.is_none() {
            if b.derived.len() > self.max_facts {
                return;
            }
            let f = queue[head];
            head += 1;
            let (c, d, on) = unfact(f);
            if on {
                for e in b.cand[c].iter() {
                    if e != d {
                        self.derive(b, fact(c, e, false), f, queue);
                    }
                }
                b.cand[c] = Digits::single(d);
                for &p in g.peers(c) {
                    if b.value[p] == d {
                        b.parent[fact(p, d, true) as usize] = f;
                        b.contradiction = Some((
                            f,
                            format!("{} already holds {}", g.cell_name(p), digit_char(d)),
                        ));
                        return;
                    }
                    if b.value[p] == 0 && b.cand[p].contains(d) {
                        self.derive(b, fact(p, d, false), f, queue);
                    }
                }
            } else {
                // Naked single.
                if b.value[c] == 0 && b.cand[c].len() == 1 {
                    let simple = self.start_cand[c].len() == 2;
                    if mode != Mode::Chain || simple {
                        if let Some(e) = b.cand[c].first() {
                            self.derive(b, fact(c, e, true), f, queue);
                        }
                    }
                }
                // Hidden singles in the complete houses of the cell.
                for &h in g.houses_of(c) {
                    if !self.complete[h] || b.contradiction.is_some() {
                        continue;
                    }
                    self.hidden(b, h, d, f, mode, queue);
                }
            }
        }
    }

    fn hidden(&self, b: &mut Branch, h: HouseId, d: u8, f: Fact, mode: Mode, q: &mut Vec<Fact>) {
        let mut count = 0;
        let mut last = 0;
        let mut start = 0;
        for &p in &self.ctx.geo.house(h).cells {
            if b.value[p] == d {
                return;
            }
            if self.start_cand[p].contains(d) && self.ctx.grid.value(p) == 0 {
                start += 1;
            }
            if b.value[p] == 0 && b.cand[p].contains(d) {
                count += 1;
                last = p;
            }
        }
        match count {
            0 => {
                b.contradiction = Some((
                    f,
                    format!(
                        "{} has no place left for {}",
                        super::step::house_name(self.ctx.geo, h),
                        digit_char(d)
                    ),
                ))
            }
            1 if mode != Mode::Chain || start == 2 => self.derive(b, fact(last, d, true), f, q),
            _ => {}
        }
    }

    /// The branch that starts from one assumed fact.
    fn branch(&self, assume: Fact, mode: Mode) -> Branch {
        let mut b = self.root();
        let mut queue = Vec::with_capacity(256);
        self.derive(&mut b, assume, NONE, &mut queue);
        self.run(&mut b, &mut queue, mode);
        if mode == Mode::Nested {
            self.nest(&mut b, &mut queue);
        }
        b
    }

    /// Nested level: remove every candidate of the branch whose own net breaks, and follow
    /// the consequences, until nothing changes.
    fn nest(&self, b: &mut Branch, queue: &mut Vec<Fact>) {
        let n = self.ctx.geo.cell_count();
        let mut changed = true;
        while changed && b.contradiction.is_none() {
            changed = false;
            for c in 0..n {
                if b.value[c] != 0 {
                    continue;
                }
                for d in b.cand[c].iter() {
                    if b.contradiction.is_some() || b.value[c] != 0 {
                        break;
                    }
                    let mut inner = b.clone();
                    inner.derived.clear();
                    let mut q = Vec::with_capacity(128);
                    self.derive(&mut inner, fact(c, d, true), NONE, &mut q);
                    self.run(&mut inner, &mut q, Mode::Net);
                    if inner.contradiction.is_some() {
                        queue.clear();
                        self.derive(b, fact(c, d, false), NONE, queue);
                        self.run(b, queue, Mode::Net);
                        changed = true;
                    }
                }
            }
        }
    }

    /// The chain of facts leading to `f`, from the assumption.
    fn trace(&self, b: &Branch, f: Fact) -> Vec<ChainNode> {
        let mut out = Vec::new();
        let mut cur = f;
        let mut guard = 0;
        while cur != NONE && cur != UNSET && guard < 200 {
            let (c, d, on) = unfact(cur);
            out.push(ChainNode {
                cells: vec![c],
                digit: d,
                on,
            });
            cur = b.parent[cur as usize];
            guard += 1;
        }
        out.reverse();
        out
    }
}

fn is_net(id: &str) -> bool {
    id == "forcing-net"
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let e = Engine::new(ctx);
    if is_net(info.id) {
        search(&e, info, Mode::Net, sink)?;
        search(&e, info, Mode::Nested, sink)
    } else if info.id == "forcing-chain" {
        search(&e, info, Mode::Chain, sink)
    } else {
        ControlFlow::Continue(())
    }
}

/// All candidates of the grid, bivalue cells first (their branches are the most telling).
fn candidates(ctx: &Ctx) -> Vec<Candidate> {
    let mut cells: Vec<Cell> = ctx.empty.iter().collect();
    cells.sort_by_key(|&c| ctx.cand[c].len());
    let mut out = Vec::new();
    for c in cells {
        for d in ctx.cand[c].iter() {
            out.push(Candidate::new(c, d));
        }
    }
    out
}

fn search(
    e: &Engine,
    info: &'static TechniqueInfo,
    mode: Mode,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let ctx = e.ctx;
    let all = candidates(ctx);
    let n = ctx.geo.cell_count();
    // Branches of every candidate set true, by index of `all`.
    let mut on: Vec<Branch> = Vec::with_capacity(all.len());
    let mut index = vec![usize::MAX; n * 32];
    for (i, x) in all.iter().enumerate() {
        index[x.cell * 32 + usize::from(x.digit)] = i;
        let b = e.branch(fact(x.cell, x.digit, true), mode);
        if let Some((f, _)) = &b.contradiction {
            // Contradiction: the assumption is false.
            let chains = vec![e.trace(&b, *f)];
            let step = Step::new(info, Pattern::Chains { chains })
                .eliminate(vec![*x])
                .cells(&[x.cell], Role::Defining);
            let step = with_links(step, &b, *f, e);
            sink(step)?;
        }
        on.push(b);
    }
    // Both states of a candidate: false leading to a contradiction places it; a fact that
    // both states imply holds.
    for (i, x) in all.iter().enumerate() {
        if on[i].contradiction.is_some() {
            continue;
        }
        let off = e.branch(fact(x.cell, x.digit, false), mode);
        if let Some((f, _)) = &off.contradiction {
            let step = Step::new(
                info,
                Pattern::Chains {
                    chains: vec![e.trace(&off, *f)],
                },
            )
            .place(x.cell, x.digit)
            .cells(&[x.cell], Role::Defining);
            let step = with_links(step, &off, *f, e);
            sink(step)?;
            continue;
        }
        verity(e, info, &[&on[i], &off], sink)?;
    }
    // Cell verity: every candidate of a cell.
    for c in ctx.empty.iter() {
        let branches: Vec<&Branch> = ctx.cand[c]
            .iter()
            .map(|d| &on[index[c * 32 + usize::from(d)]])
            .filter(|b| b.contradiction.is_none())
            .collect();
        if branches.len() >= 2 {
            verity(e, info, &branches, sink)?;
        }
    }
    // House verity: every place of a digit in a complete house.
    for &h in &ctx.t.complete {
        for d in 1..=ctx.geo.max_digit() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 {
                continue;
            }
            let branches: Vec<&Branch> = places
                .iter()
                .map(|c| &on[index[c * 32 + usize::from(d)]])
                .filter(|b| b.contradiction.is_none())
                .collect();
            if branches.len() >= 2 {
                verity(e, info, &branches, sink)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Facts derived by every branch (and not already true in the grid) give a step.
fn verity(
    e: &Engine,
    info: &'static TechniqueInfo,
    branches: &[&Branch],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let ctx = e.ctx;
    let Some(first) = branches.first() else {
        return ControlFlow::Continue(());
    };
    for &f in &first.derived {
        let common = branches[1..]
            .iter()
            .all(|b| b.parent[f as usize] != UNSET && b.contradiction.is_none());
        if !common {
            continue;
        }
        let (c, d, on) = unfact(f);
        if ctx.grid.value(c) != 0 || !ctx.cand[c].contains(d) {
            continue;
        }
        let chains: Vec<Vec<ChainNode>> = branches.iter().map(|b| e.trace(b, f)).collect();
        let mut step = Step::new(info, Pattern::Chains { chains });
        step = if on {
            step.place(c, d)
        } else {
            step.eliminate(vec![Candidate::new(c, d)])
        };
        for b in branches {
            step = with_links(step, b, f, e);
        }
        sink(step)?;
    }
    ControlFlow::Continue(())
}

/// Adds the links of the trace to `f` as highlights.
fn with_links(mut step: Step, b: &Branch, f: Fact, e: &Engine) -> Step {
    let nodes = e.trace(b, f);
    for w in nodes.windows(2) {
        let kind = if w[1].on {
            LinkKind::Strong
        } else {
            LinkKind::Weak
        };
        step.highlights.push(Highlight {
            target: Target::Link(
                Candidate::new(w[0].cells[0], w[0].digit),
                Candidate::new(w[1].cells[0], w[1].digit),
                kind,
            ),
            role: Role::Defining,
        });
    }
    step
}

fn node_text(g: &Geometry, n: &ChainNode) -> String {
    let cells: Vec<String> = n.cells.iter().map(|&c| g.cell_name(c)).collect();
    let name = if cells.len() == 1 {
        cells[0].clone()
    } else {
        format!("{{{}}}", cells.join(","))
    };
    format!(
        "{}{}{}",
        name,
        if n.on { "=" } else { "<>" },
        digit_char(n.digit)
    )
}

/// "r1c2=5 -> r1c7<>5 -> r3c7=5".
pub fn chain_text(g: &Geometry, nodes: &[ChainNode]) -> String {
    nodes
        .iter()
        .map(|n| node_text(g, n))
        .collect::<Vec<_>>()
        .join(" -> ")
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Chains { chains } = &step.pattern else {
        return step.name().to_string();
    };
    let start = chains
        .first()
        .and_then(|c| c.first())
        .map(|n| g.cell_name(n.cells[0]))
        .unwrap_or_default();
    match detail {
        Detail::Nudge => format!("Try an assumption at {start} and follow it"),
        Detail::Technique => format!(
            "There is {} {}: assume a candidate and follow what it forces",
            super::step::article(step.name()),
            step.name()
        ),
        Detail::Full => {
            let body = if chains.len() == 1 {
                let c = &chains[0];
                let ends_broken = step.placements.is_empty() || c.first().is_some_and(|n| !n.on);
                if ends_broken {
                    format!("{} leads to a contradiction", chain_text(g, c))
                } else {
                    chain_text(g, c)
                }
            } else {
                let parts: Vec<String> = chains.iter().map(|c| chain_text(g, c)).collect();
                format!("every case leads to the same result: {}", parts.join("; "))
            };
            format!("{}: {}; so {}", step.name(), body, effect_text(g, step))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, next_step};

    /// A hard puzzle (top1465 #1 style) where the first step beyond the basic techniques
    /// is a forcing step; every forcing step found must keep the true digits.
    #[test]
    fn forcing_steps_are_sound_on_a_hard_puzzle() {
        let line =
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
        let g = grid(line);
        let p =
            crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Standard, "t", 1)
                .unwrap()
                .unwrap();
        let sol = crate::solver::exact::solve(&p, 1).first.unwrap();
        let steps = find_all(&g, "forcing-chain");
        let nets = find_all(&g, "forcing-net");
        assert!(!steps.is_empty() || !nets.is_empty());
        for s in steps.iter().chain(&nets) {
            for e in &s.eliminations {
                assert_ne!(sol[e.cell], e.digit, "{}", s.id());
            }
            for pl in &s.placements {
                assert_eq!(sol[pl.cell], pl.digit, "{}", s.id());
            }
            let text = s.explain(g.geometry(), super::Detail::Full);
            assert!(text.starts_with(s.name()), "{text}");
        }
        assert!(next_step(&g, None).is_some());
    }
}
