//! Chains and loops: X-chain, XY-chain, nice loops (continuous and discontinuous),
//! alternating inference chains, and their grouped forms.
//!
//! All of them walk one implication graph over *nodes* (a digit in one cell, or — grouped —
//! in the cells a line shares with a box): from "node true" a weak link makes every node that
//! cannot be true with it false; from "node false" a strong link makes its partner true.
//! Strong links come only from bivalue cells and from `Complete` houses where a digit has
//! exactly two places (or two groups), so they hold on every variant. A breadth-first walk
//! from each start gives the shortest chain to every conclusion, bounded by the technique's
//! length limit (HoDoKu: 20 nodes for chains, 10 for loops... we keep both generous but
//! finite).
//!
//! With ALS nodes (HoDoKu's "ALS in tabling chains", off by default), an almost locked set
//! `A` of two or more cells gives one node per digit `d` of it, "A holds d", on the cells of
//! `A` holding `d`. Any two of them are strongly linked (`A` lacks at most one digit), and a
//! node is weakly linked to every node of `d` whose cells all see those cells. A chain
//! enters a set by a weak link ("r1c1=5, so A holds no 5"), crosses it by a strong link
//! ("so A holds 7") and leaves it by a weak one, as HoDoKu's chains do.

use super::chain_text::chain_text;
use super::step::{article, effect_text, house_list, ChainNode};
use super::{
    Candidate, CellSet, Ctx, Detail, Highlight, LinkKind, Pattern, Role, Sink, Step, Target,
    TechniqueInfo,
};
use crate::geometry::{Cell, Geometry, HouseId, Rule};
use std::ops::ControlFlow;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    X,
    Xy,
    NiceLoop,
    Aic,
}

struct Node {
    cells: CellSet,
    digit: u8,
    /// The almost locked set of an ALS node (an index into `Graph::als`), `NO_ALS` else.
    als: u32,
}

const NO_ALS: u32 = u32::MAX;

pub(crate) struct Graph {
    nodes: Vec<Node>,
    /// Partners that are true when the node is false.
    strong: Adjacency,
    /// Partners that are false when the node is true.
    weak: Adjacency,
    /// The almost locked sets that ALS nodes stand for: cells and digits.
    als: Vec<(CellSet, crate::geometry::Digits)>,
    index: Index,
}

/// Every node's partners in one flat list (`list[start[i]..start[i + 1]]` are node `i`'s):
/// one allocation per graph instead of one per node, read in order by the walks.
#[derive(Default)]
struct Adjacency {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Adjacency {
    #[inline]
    fn of(&self, i: usize) -> &[u32] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.list[a as usize..b as usize],
            _ => &[],
        }
    }

    /// From `(node, partner)` pairs: each node's partners in the order given.
    fn from_pairs(n: usize, pairs: &[(u32, u32)]) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for &(i, _) in pairs {
            start[i as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill: Vec<u32> = start[..n].to_vec();
        let mut list = vec![0u32; pairs.len()];
        for &(i, j) in pairs {
            list[fill[i as usize] as usize] = j;
            fill[i as usize] += 1;
        }
        Adjacency { start, list }
    }
}

/// Node lookup without hashing: single cells by `cell * stride + digit`, groups by a short
/// scan of their digit's list.
struct Index {
    stride: usize,
    single: Vec<usize>,
    groups: Vec<Vec<usize>>,
    /// ALS nodes per digit, and per set (never found by `get`: house links ignore them).
    als: Vec<Vec<usize>>,
    als_of_set: Vec<Vec<usize>>,
}

impl Index {
    #[inline]
    fn cell(&self, c: Cell, d: u8) -> Option<usize> {
        let i = *self.single.get(c * self.stride + usize::from(d))?;
        (i != usize::MAX).then_some(i)
    }

    fn get(&self, nodes: &[Node], cells: CellSet, d: u8) -> Option<usize> {
        if cells.len() == 1 {
            return self.cell(cells.first()?, d);
        }
        self.groups
            .get(usize::from(d))?
            .iter()
            .copied()
            .find(|&i| nodes[i].cells == cells)
    }
}

fn build(ctx: &Ctx, kind: Kind, grouped: bool, with_als: bool) -> Graph {
    let (mut nodes, mut index) = chain_nodes(ctx, grouped);
    let als = if with_als {
        als_nodes(ctx, &mut nodes, &mut index)
    } else {
        Vec::new()
    };
    let n = nodes.len();
    // Strong links as (node, partner) pairs in the order found; a node's list keeps the
    // first of repeated house links (two cells can be the only places in two houses).
    // Loops and AICs list each node's links in HoDoKu's order (its bivalue partner, then
    // row, column and box partners, then groups), so that the breadth-first walk picks,
    // among chains of equal length, the one HoDoKu reports.
    let hodoku_order = matches!(kind, Kind::NiceLoop | Kind::Aic);
    let mut strong = Vec::new();
    if hodoku_order {
        push_bivalue_links(ctx, &index, &mut strong);
    }
    if kind != Kind::Xy {
        strong.extend(house_links(ctx, &nodes, &index));
    }
    let mut strong = drop_repeats(strong);
    if hodoku_order {
        strong.sort_by_key(|&(i, j)| (i, nodes[j as usize].cells.len() > 1));
    } else if kind != Kind::X {
        // Strong links in bivalue cells (not for X-chains), after each node's house links.
        push_bivalue_links(ctx, &index, &mut strong);
    }
    // Within a set: "A lacks x" makes "A holds y" true, for every two of its digits.
    for list in &index.als_of_set {
        for &i in list {
            for &j in list {
                if i != j {
                    strong.push((i as u32, j as u32));
                }
            }
        }
    }
    let strong = Adjacency::from_pairs(n, &strong);
    let weak = weak_links(ctx, kind, &nodes, &index);
    Graph {
        nodes,
        strong,
        weak,
        als,
        index,
    }
}

/// ALS nodes: one per digit of every almost locked set of two or more cells (a bivalue
/// cell is already two linked nodes).
fn als_nodes(
    ctx: &Ctx,
    nodes: &mut Vec<Node>,
    index: &mut Index,
) -> Vec<(CellSet, crate::geometry::Digits)> {
    let sets = ctx.als_index();
    let mut out = Vec::new();
    for a in sets.sets.iter().filter(|a| a.cells.len() >= 2) {
        let k = out.len() as u32;
        out.push((a.cells, a.digits));
        let mut list = Vec::new();
        for d in a.digits.iter() {
            let cells = a.cells.and(ctx.digit[usize::from(d)]);
            if let Some(v) = index.als.get_mut(usize::from(d)) {
                v.push(nodes.len());
            }
            list.push(nodes.len());
            nodes.push(Node {
                cells,
                digit: d,
                als: k,
            });
        }
        index.als_of_set.push(list);
    }
    out
}

/// Every candidate as a node (in cell order), then with `grouped` the group nodes, and the
/// index that finds them.
fn chain_nodes(ctx: &Ctx, grouped: bool) -> (Vec<Node>, Index) {
    let stride = usize::from(ctx.geo.max_digit()) + 1;
    let mut index = Index {
        stride,
        single: vec![usize::MAX; ctx.geo.cell_count() * stride],
        groups: vec![Vec::new(); stride],
        als: vec![Vec::new(); stride],
        als_of_set: Vec::new(),
    };
    let mut nodes = Vec::new();
    for c in ctx.empty.iter() {
        for d in ctx.cand[c].iter() {
            if let Some(slot) = index.single.get_mut(c * stride + usize::from(d)) {
                *slot = nodes.len();
            }
            nodes.push(Node {
                cells: CellSet::from_cells([c]),
                digit: d,
                als: NO_ALS,
            });
        }
    }
    if grouped {
        // Group nodes: a digit's cells in a line-box intersection (two or more cells).
        for &(a, b, inter) in &ctx.t.overlaps {
            if a > b {
                continue;
            }
            for d in 1..=ctx.geo.max_digit() {
                let cells = inter.and(ctx.digit[usize::from(d)]);
                if cells.len() >= 2 && index.get(&nodes, cells, d).is_none() {
                    index.groups[usize::from(d)].push(nodes.len());
                    nodes.push(Node {
                        cells,
                        digit: d,
                        als: NO_ALS,
                    });
                }
            }
        }
    }
    (nodes, index)
}

/// Strong links in houses: the digit's places split into exactly two nodes.
fn house_links(ctx: &Ctx, nodes: &[Node], index: &Index) -> Vec<(u32, u32)> {
    let mut strong: Vec<(u32, u32)> = Vec::new();
    for &(h, must) in ctx.strong_houses() {
        for d in must.iter() {
            let places = ctx.where_in(h, d);
            if places.len() < 2 {
                continue;
            }
            // The nodes inside `places`: its cells, and the digit's groups within it.
            let singles = places.iter().filter_map(|c| index.cell(c, d));
            let groups = index.groups[usize::from(d)]
                .iter()
                .copied()
                .filter(|&i| nodes[i].cells.is_subset(places));
            for i in singles.chain(groups) {
                let rest = places.minus(nodes[i].cells);
                if rest.is_empty() {
                    continue;
                }
                if let Some(j) = index.get(nodes, rest, d) {
                    strong.push((i as u32, j as u32));
                }
            }
        }
    }
    strong
}

/// Repeats dropped per node (a stable sort groups each node's links in found order).
fn drop_repeats(mut strong: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    strong.sort_by_key(|&(i, _)| i);
    let mut kept: Vec<(u32, u32)> = Vec::with_capacity(strong.len());
    let mut node_from = 0;
    for &(i, j) in &strong {
        if kept.get(node_from).is_none_or(|&(k, _)| k != i) {
            node_from = kept.len();
        }
        if !kept[node_from..].iter().any(|&(_, x)| x == j) {
            kept.push((i, j));
        }
    }
    kept
}

/// Strong links in bivalue cells, both ways.
fn push_bivalue_links(ctx: &Ctx, index: &Index, strong: &mut Vec<(u32, u32)>) {
    for c in ctx.empty.iter() {
        if ctx.cand[c].len() != 2 {
            continue;
        }
        let mut ds = ctx.cand[c].iter();
        let (Some(x), Some(y)) = (ds.next(), ds.next()) else {
            continue;
        };
        if let (Some(i), Some(j)) = (index.cell(c, x), index.cell(c, y)) {
            strong.push((i as u32, j as u32));
            strong.push((j as u32, i as u32));
        }
    }
}

/// Weak links: same digit, disjoint, every cell seeing every cell (the single cells in
/// cell order, then the groups, as node order has them); then, for loops and AICs, one
/// cell, two digits.
fn weak_links(ctx: &Ctx, kind: Kind, nodes: &[Node], index: &Index) -> Adjacency {
    let n = nodes.len();
    let mut weak = Adjacency {
        start: Vec::with_capacity(n + 1),
        list: Vec::new(),
    };
    for (i, a) in nodes.iter().enumerate() {
        weak.start.push(weak.list.len() as u32);
        // XY-chains only ever turn on the candidates of bivalue cells (their strong links
        // are those cells'), so only those have weak links to follow, or to reach.
        let bivalue = |c: Cell| ctx.cand[c].len() == 2;
        if kind == Kind::Xy && !(a.cells.len() == 1 && a.cells.first().is_some_and(bivalue)) {
            continue;
        }
        let d = a.digit;
        let mut seen = ctx.empty;
        for c in a.cells.iter() {
            seen = seen.and(ctx.t.peers[c]);
        }
        let list = &mut weak.list;
        let single = a.cells.len() == 1 && a.als == NO_ALS;
        let hodoku_order = matches!(kind, Kind::NiceLoop | Kind::Aic) && single;
        let mut rest = seen.and(ctx.digit[usize::from(d)]);
        if let (true, Some(c)) = (hodoku_order, a.cells.first()) {
            // The cell's other digits, then the digit's places house by house.
            for x in ctx.cand[c].iter().filter(|&x| x != d) {
                if let Some(j) = index.cell(c, x) {
                    list.push(j as u32);
                }
            }
            for &h in ctx.geo.houses_of(c) {
                for p in rest.and(ctx.t.house_sets[h]).iter() {
                    if let Some(j) = index.cell(p, d) {
                        list.push(j as u32);
                    }
                    rest.remove(p);
                }
            }
        }
        for c in rest.iter() {
            if kind == Kind::Xy && !bivalue(c) {
                continue;
            }
            if let Some(j) = index.cell(c, d) {
                if j != i {
                    list.push(j as u32);
                }
            }
        }
        for &j in index.groups[usize::from(d)]
            .iter()
            .chain(&index.als[usize::from(d)])
        {
            if j != i && nodes[j].cells.is_subset(seen) {
                list.push(j as u32);
            }
        }
        if kind != Kind::X && kind != Kind::Xy && single && !hodoku_order {
            let Some(c) = a.cells.first() else {
                continue;
            };
            for d in ctx.cand[c].iter() {
                if let Some(j) = index.cell(c, d) {
                    if j != i {
                        list.push(j as u32);
                    }
                }
            }
        }
    }
    weak.start.push(weak.list.len() as u32);
    weak
}

/// Breadth-first implications from one literal: `seen[node*2+on]` is (parent state,
/// depth), `u32::MAX` = unreached. The buffers are reused from start to start, resetting
/// only the states the last walk reached (the queue lists them).
struct Walk {
    seen: Vec<(u32, u8)>,
    /// The states reached, in order: `queue[..reached]` (a state enters once, so the
    /// buffer, one slot per state, never grows).
    queue: Vec<u32>,
    reached: usize,
    /// Bit per node: reached "on" (lets callers visit those nodes in order without scanning
    /// every node).
    on: Vec<u64>,
}

impl Walk {
    fn new(g: &Graph) -> Walk {
        Walk {
            seen: vec![(u32::MAX, 0u8); g.nodes.len() * 2],
            queue: vec![0; g.nodes.len() * 2],
            reached: 0,
            on: vec![0; g.nodes.len().div_ceil(64)],
        }
    }

    /// Nodes reached "on", in increasing order.
    fn reached_on(&self) -> impl Iterator<Item = usize> + '_ {
        self.on.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let i = b.trailing_zeros() as usize;
                    b &= b - 1;
                    w * 64 + i
                })
            })
        })
    }

    fn run(&mut self, g: &Graph, start: usize, on: bool, limit: usize) {
        for &st in &self.queue[..self.reached] {
            self.seen[st as usize] = (u32::MAX, 0);
        }
        self.on.fill(0);
        let seen = &mut self.seen;
        let queue = &mut self.queue[..];
        let s = start * 2 + usize::from(on);
        seen[s] = (s as u32, 0);
        queue[0] = s as u32;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let st = queue[head] as usize;
            head += 1;
            let depth = seen[st].1;
            if usize::from(depth) + 1 >= limit {
                continue;
            }
            let (node, is_on) = (st / 2, st % 2 == 1);
            let next: &[u32] = if is_on {
                g.weak.of(node)
            } else {
                g.strong.of(node)
            };
            for &m in next {
                let m = m as usize;
                let ns = m * 2 + usize::from(!is_on);
                if seen[ns].0 == u32::MAX {
                    seen[ns] = (st as u32, depth + 1);
                    queue[tail] = ns as u32;
                    tail += 1;
                    if !is_on {
                        self.on[m / 64] |= 1 << (m % 64);
                    }
                }
            }
        }
        self.reached = tail;
    }
}

/// The states (`node * 2 + on`) of the walk's path from its start to `end`.
fn states(seen: &[(u32, u8)], end: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cur = end;
    for _ in 0..64 {
        out.push(cur);
        let p = seen[cur].0 as usize;
        if p == cur {
            break;
        }
        cur = p;
    }
    out.reverse();
    out
}

fn nodes_of(g: &Graph, states: &[usize]) -> Vec<ChainNode> {
    states
        .iter()
        .map(|&st| {
            let n = &g.nodes[st / 2];
            let als = match g.als.get(n.als as usize) {
                Some(&(cells, _)) => cells.to_vec(),
                None => Vec::new(),
            };
            ChainNode {
                cells: n.cells.to_vec(),
                digit: n.digit,
                on: st % 2 == 1,
                als,
            }
        })
        .collect()
}

/// No cell: `is_lasso` exempts no start cell (AICs may not come back to theirs).
const NO_CELL: Cell = usize::MAX;

/// The path of a discontinuous loop from its start back to `end` (a state of the start
/// node), empty when HoDoKu would not take it: the loop must leave the start cell by its
/// first link and meet no other cell twice.
fn loop_path(
    g: &Graph,
    seen: &[(u32, u8)],
    end: usize,
    start_cell: Cell,
    lasso: bool,
) -> Vec<ChainNode> {
    let st = states(seen, end);
    if !lasso {
        return nodes_of(g, &st);
    }
    let in_start = |i: usize| {
        st.get(i)
            .is_some_and(|&x| g.nodes[x / 2].cells.contains(start_cell))
    };
    if st.len() < 3 || in_start(1) || is_lasso(g, &st, start_cell) {
        return Vec::new();
    }
    nodes_of(g, &st)
}

/// The cells a node occupies: an ALS node the whole set.
fn span(g: &Graph, node: usize) -> CellSet {
    let n = &g.nodes[node];
    g.als
        .get(n.als as usize)
        .map_or(n.cells, |&(cells, _)| cells)
}

/// HoDoKu's rule for loops: no node may come back to a cell the chain has already left
/// (only the start cell, where the loop closes, may be met again).
fn is_lasso(g: &Graph, states: &[usize], start_cell: Cell) -> bool {
    let mut left = CellSet::EMPTY;
    let mut prev = CellSet::EMPTY;
    for &st in states {
        let cells = span(g, st / 2);
        if !cells.and(left).is_empty() {
            return true;
        }
        left = left.or(prev);
        left.remove(start_cell);
        prev = cells;
    }
    false
}

/// Cells holding `d` that see every cell of both node sets.
fn seeing_both(ctx: &Ctx, a: CellSet, b: CellSet, d: u8) -> Vec<Candidate> {
    let mut t = ctx.digit[usize::from(d)].minus(a).minus(b);
    for c in a.iter().chain(b.iter()) {
        t = t.and(ctx.t.peers[c]);
    }
    ctx.elims(t, d)
}

fn step(
    info: &'static TechniqueInfo,
    chain: Vec<ChainNode>,
    elims: Vec<Candidate>,
    places: Vec<Candidate>,
) -> Step {
    let mut s = Step::new(
        info,
        Pattern::Chains {
            chains: vec![chain.clone()],
        },
    )
    .eliminate(elims);
    for p in places {
        s = s.place(p.cell, p.digit);
    }
    for w in chain.windows(2) {
        let kind = if w[1].on {
            LinkKind::Strong
        } else {
            LinkKind::Weak
        };
        s.highlights.push(Highlight {
            target: Target::Link(
                Candidate::new(w[0].cells[0], w[0].digit),
                Candidate::new(w[1].cells[0], w[1].digit),
                kind,
            ),
            role: Role::Defining,
        });
    }
    for n in &chain {
        for &c in &n.cells {
            s.highlights.push(Highlight {
                target: Target::Candidate(Candidate::new(c, n.digit)),
                role: if n.on { Role::ColorA } else { Role::ColorB },
            });
        }
    }
    s
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let (kind, grouped, limit) = match info.id {
        "x-chain" => (Kind::X, false, 20),
        "xy-chain" => (Kind::Xy, false, 20),
        "nice-loop" => (Kind::NiceLoop, false, 20),
        "aic" => (Kind::Aic, false, 20),
        "grouped-nice-loop" => (Kind::NiceLoop, true, 20),
        "grouped-aic" => (Kind::Aic, true, 20),
        "als-nice-loop" => (Kind::NiceLoop, true, 24),
        "als-aic" => (Kind::Aic, true, 24),
        _ => return ControlFlow::Continue(()),
    };
    let with_als = info.id.starts_with("als-");
    if matches!(kind, Kind::NiceLoop | Kind::Aic) {
        // Nice loops and AICs walk the same graph: built once per position.
        let slot = usize::from(grouped) + usize::from(with_als);
        let g = ctx.cache.chain_graphs[slot].get_or_init(|| build(ctx, kind, grouped, with_als));
        return search(ctx, g, info, kind, grouped, limit, None, sink);
    }
    // X-chains link a digit only to itself, so one graph of every digit holds each digit's
    // graph unchanged (its nodes in the same order); `search` takes the digits in turn,
    // each remembered when its chains, on complete houses, depend on its cells alone (a run
    // or cage's strong links depend on other digits).
    let graph = std::cell::OnceCell::new();
    let g = || graph.get_or_init(|| build(ctx, kind, grouped, false));
    if kind != Kind::X {
        return search(ctx, g(), info, kind, grouped, limit, None, sink);
    }
    for d in 1..=ctx.geo.max_digit() {
        super::digit_local(ctx, info.id, d, ctx.t.all_complete, sink, |sink| {
            search(ctx, g(), info, kind, grouped, limit, Some(d), sink)
        })?;
    }
    ControlFlow::Continue(())
}

#[allow(clippy::too_many_arguments)]
fn search(
    ctx: &Ctx,
    g: &Graph,
    info: &'static TechniqueInfo,
    kind: Kind,
    grouped: bool,
    limit: usize,
    digit: Option<u8>,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let with_als = !g.als.is_empty();
    // The lasso rules hold for plain chains only: on grouped and ALS chains they dropped
    // loops HoDoKu's own regression library expects (reglib 0710/0711).
    let lasso = !grouped && !with_als;
    let plain = |i: usize| g.nodes[i].als == NO_ALS;
    let single = |i: usize| g.nodes[i].cells.len() == 1 && plain(i);
    // Grouped techniques need a group node (or, with ALS, an ALS node) in the chain.
    let uses_group = |chain: &[ChainNode]| {
        if with_als {
            chain.iter().any(|n| !n.als.is_empty())
        } else {
            chain.iter().any(|n| n.cells.len() > 1)
        }
    };
    let hodoku = ctx.cache.hodoku_path.get();
    let (mut off, mut on) = (Walk::new(g), Walk::new(g));
    // Nice loops: the start's weak partners as bits, asked for every node reached.
    let mut weak_of_s = vec![0u64; g.nodes.len().div_ceil(64)];
    // Starts in node order (of `digit` only, when given); X-chains digit by digit (as one
    // graph per digit would).
    let mut starts: Vec<usize> = (0..g.nodes.len())
        .filter(|&i| plain(i) && digit.is_none_or(|d| g.nodes[i].digit == d))
        .collect();
    if kind == Kind::X {
        starts.sort_by_key(|&i| g.nodes[i].digit);
    }
    for s in starts {
        if kind == Kind::Xy
            && !(single(s) && ctx.cand[g.nodes[s].cells.first().unwrap_or(0)].len() == 2)
        {
            continue;
        }
        // HoDoKu's AICs start from a candidate's table, never from a group.
        if kind == Kind::Aic && hodoku && !single(s) {
            continue;
        }
        if kind == Kind::NiceLoop {
            weak_of_s.fill(0);
            for &m in g.weak.of(s) {
                weak_of_s[m as usize / 64] |= 1 << (m % 64);
            }
        }
        off.run(g, s, false, limit);
        let from_off = &off.seen;
        for e in off.reached_on() {
            let end = e * 2 + 1;
            if e == s || from_off[end].0 == u32::MAX || !plain(e) {
                continue;
            }
            let (a, b) = (&g.nodes[s], &g.nodes[e]);
            // Depth = links; a chain needs at least three (four nodes).
            if from_off[end].1 < 3 {
                continue;
            }
            // The path is built only when the ends give something (building it for every
            // pair of ends would cost more than the search).
            let chain_of = || {
                let st = states(from_off, end);
                // HoDoKu drops AICs that come back to a cell they left, the first included.
                if lasso && kind == Kind::Aic && is_lasso(g, &st, NO_CELL) {
                    return None;
                }
                let chain = nodes_of(g, &st);
                (!grouped || uses_group(&chain)).then_some(chain)
            };
            // On HoDoKu's path an AIC ends on a single candidate too, takes out at least two
            // candidates when its ends hold one digit (one would be a discontinuous nice
            // loop) and both cross candidates when they differ (its `checkAics`).
            let hodoku_aic = kind == Kind::Aic && hodoku;
            if hodoku_aic && !single(e) {
                continue;
            }
            match kind {
                Kind::X | Kind::Xy | Kind::Aic => {
                    // s or e is true.
                    let mut elims = Vec::new();
                    if a.digit == b.digit {
                        elims = seeing_both(ctx, a.cells, b.cells, a.digit);
                        if hodoku_aic && elims.len() < 2 {
                            continue;
                        }
                    } else if kind == Kind::Aic && single(s) && single(e) {
                        let (ca, cb) = (a.cells.first().unwrap_or(0), b.cells.first().unwrap_or(0));
                        if ca != cb && ctx.geo.sees(ca, cb) {
                            let (x, y) = (
                                ctx.cand[ca].contains(b.digit),
                                ctx.cand[cb].contains(a.digit),
                            );
                            if hodoku_aic && !(x && y) {
                                continue;
                            }
                            if x {
                                elims.push(Candidate::new(ca, b.digit));
                            }
                            if y {
                                elims.push(Candidate::new(cb, a.digit));
                            }
                        }
                    }
                    if !elims.is_empty() {
                        if let Some(chain) = chain_of() {
                            sink(step(info, chain, elims, Vec::new()))?;
                        }
                    }
                }
                Kind::NiceLoop => {
                    // Continuous: e and s also weakly linked, so every weak link of the
                    // loop is in fact strong.
                    if weak_of_s[e / 64] & (1 << (e % 64)) == 0 {
                        continue;
                    }
                    let loop_states = states(from_off, end);
                    let start_cell = a.cells.first().unwrap_or(NO_CELL);
                    if lasso && is_lasso(g, &loop_states, start_cell) {
                        continue;
                    }
                    if let Some(found) =
                        continuous_step(ctx, g, info, &loop_states, |c| !grouped || uses_group(c))
                    {
                        sink(found)?;
                    }
                }
            }
        }
        if kind == Kind::NiceLoop && single(s) {
            // Discontinuous: s true forces s false, or s false forces s true.
            on.run(g, s, true, limit);
            let from_on = &on.seen;
            let cell = g.nodes[s].cells.first().unwrap_or(0);
            if from_on[s * 2].0 != u32::MAX {
                let chain = loop_path(g, from_on, s * 2, cell, lasso);
                if chain.len() >= 3 && (!grouped || uses_group(&chain)) {
                    let elim = vec![Candidate::new(cell, g.nodes[s].digit)];
                    sink(step(info, chain, elim, Vec::new()))?;
                }
            }
            if from_off[s * 2 + 1].0 != u32::MAX {
                let chain = loop_path(g, from_off, s * 2 + 1, cell, lasso);
                if chain.len() >= 3 && (!grouped || uses_group(&chain)) {
                    // Written as HoDoKu does: the cell's other candidates go.
                    let d = g.nodes[s].digit;
                    let others = ctx.cand[cell]
                        .iter()
                        .filter(|&x| x != d)
                        .map(|x| Candidate::new(cell, x))
                        .collect();
                    sink(step(info, chain, others, Vec::new()))?;
                }
            }
            // s false forces another digit x of its cell false: x goes (HoDoKu's
            // discontinuous loop with a strong first and a weak last link).
            let d = g.nodes[s].digit;
            for x in ctx.cand[cell].iter().filter(|&x| x != d) {
                let Some(e) = g.index.cell(cell, x) else {
                    continue;
                };
                if from_off[e * 2].0 == u32::MAX {
                    continue;
                }
                let chain = loop_path(g, from_off, e * 2, cell, lasso);
                let back_outside = chain
                    .len()
                    .checked_sub(2)
                    .and_then(|i| chain.get(i))
                    .is_some_and(|n| !n.cells.contains(&cell));
                if back_outside && (!grouped || uses_group(&chain)) {
                    sink(step(info, chain, vec![Candidate::new(cell, x)], Vec::new()))?;
                }
            }
            // Continuous, as HoDoKu finds them from a bivalue cell: s true leads to its
            // other digit false, which (the cell being bivalue) makes s true again.
            if ctx.cand[cell].len() == 2 {
                let other = ctx.cand[cell].iter().find(|&x| x != g.nodes[s].digit);
                let e = other.and_then(|x| g.index.cell(cell, x));
                if let Some(e) = e.filter(|&e| from_on[e * 2].0 != u32::MAX) {
                    let loop_states = states(from_on, e * 2);
                    let leaves = loop_states
                        .get(1)
                        .is_some_and(|&st| !g.nodes[st / 2].cells.contains(cell));
                    if loop_states.len() >= 4 && leaves && !is_lasso(g, &loop_states, cell) {
                        if let Some(found) = continuous_step(ctx, g, info, &loop_states, |c| {
                            !grouped || uses_group(c)
                        }) {
                            sink(found)?;
                        }
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The step of a continuous loop through `loop_states` (written closed, first node last
/// again), when it removes something and its chain is `wanted` (the grouped techniques
/// want a group or set in it).
fn continuous_step(
    ctx: &Ctx,
    g: &Graph,
    info: &'static TechniqueInfo,
    loop_states: &[usize],
    wanted: impl Fn(&[ChainNode]) -> bool,
) -> Option<Step> {
    let chain = nodes_of(g, loop_states);
    if !wanted(&chain) {
        return None;
    }
    let elims = continuous(ctx, g, loop_states);
    if elims.is_empty() {
        return None;
    }
    let mut looped = chain.clone();
    looped.push(chain[0].clone());
    Some(step(info, looped, elims, Vec::new()))
}

/// Eliminations of a continuous loop (its states in order, the last linked back to the
/// first). Counting true nodes over the strong links and over the weak links shows every
/// link holds exactly one true node: a weak link between cells removes its digit from
/// every cell seeing both ends, one inside a cell the cell's other digits, and a set
/// crossed by a strong link (missing one of its two digits) keeps all its other digits.
/// As in HoDoKu, a weak link between cells removes nothing from the loop's own cells
/// (those of its groups and sets included).
fn continuous(ctx: &Ctx, g: &Graph, states: &[usize]) -> Vec<Candidate> {
    let mut out = Vec::new();
    let n = states.len();
    let on_loop = states
        .iter()
        .fold(CellSet::EMPTY, |m, &st| m.or(span(g, st / 2)));
    for i in 0..n {
        let (sa, sb) = (states[i], states[(i + 1) % n]);
        let (a, b) = (&g.nodes[sa / 2], &g.nodes[sb / 2]);
        let (a_on, b_on) = (sa % 2 == 1, sb % 2 == 1);
        if a_on && !b_on {
            if a.digit == b.digit {
                let elims = seeing_both(ctx, a.cells, b.cells, a.digit);
                out.extend(elims.into_iter().filter(|e| !on_loop.contains(e.cell)));
            } else if a.cells == b.cells && a.cells.len() == 1 && a.als == NO_ALS {
                if let Some(c) = a.cells.first() {
                    for d in ctx.cand[c].iter() {
                        if d != a.digit && d != b.digit {
                            out.push(Candidate::new(c, d));
                        }
                    }
                }
            }
        } else if !a_on && b_on && a.als != NO_ALS && a.als == b.als {
            if let Some(&(cells, digits)) = g.als.get(a.als as usize) {
                for z in digits.iter().filter(|&z| z != a.digit && z != b.digit) {
                    let held = cells.and(ctx.digit[usize::from(z)]);
                    out.extend(seeing_both(ctx, held, held, z));
                }
            }
        }
    }
    // Nodes of the loop itself stay.
    out.retain(|e| {
        !states.iter().any(|&st| {
            let n = &g.nodes[st / 2];
            n.digit == e.digit && n.cells.contains(e.cell)
        })
    });
    out.sort_unstable();
    out.dedup();
    out
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Chains { chains } = &step.pattern else {
        return step.name().to_string();
    };
    let chain = chains.first().map(Vec::as_slice).unwrap_or(&[]);
    let start: Vec<Cell> = chain.first().map(|n| n.cells.clone()).unwrap_or_default();
    match detail {
        Detail::Nudge => format!(
            "Look at {}",
            start.first().map(|&c| g.cell_name(c)).unwrap_or_default()
        ),
        Detail::Technique => format!(
            "There is {} {}: follow strong and weak links",
            article(step.name()),
            step.name()
        ),
        Detail::Full => format!(
            "{}: {}; so {}",
            step.name(),
            linked_text(g, chain),
            effect_text(g, step)
        ),
    }
}

/// [`chain_text`], saying why a strong link that no complete house gives holds:
/// "r9c3<>5 -> r9c1=5 (row 9 must hold 5)" on a honeycomb, where row 9 is a run.
fn linked_text(g: &Geometry, nodes: &[ChainNode]) -> String {
    let mut parts = Vec::with_capacity(nodes.len());
    for (i, n) in nodes.iter().enumerate() {
        let mut text = chain_text(g, std::slice::from_ref(n));
        if let Some(prev) = i.checked_sub(1).and_then(|j| nodes.get(j)) {
            let link = !prev.on && n.on && prev.digit == n.digit;
            if link {
                let all: Vec<Cell> = prev.cells.iter().chain(&n.cells).copied().collect();
                let shared: Vec<HouseId> = all
                    .first()
                    .map_or(&[][..], |&c| g.houses_of(c))
                    .iter()
                    .copied()
                    .filter(|&h| all.iter().all(|c| g.house(h).cells.contains(c)))
                    .collect();
                let complete = shared.iter().any(|&h| g.house(h).rule == Rule::Complete);
                if !complete && !shared.is_empty() {
                    let d = crate::geometry::digit_char(n.digit);
                    text = format!("{text} ({} must hold {d})", house_list(g, &shared));
                }
            }
        }
        parts.push(text);
    }
    parts.join(" -> ")
}

#[cfg(test)]
mod tests {
    use super::linked_text;
    use crate::format::parse_line;
    use crate::puzzle::{Grid, Variant};
    use crate::solver::logic::step::ChainNode;

    fn node(cell: usize, digit: u8, on: bool) -> ChainNode {
        ChainNode {
            cells: vec![cell],
            digit,
            on,
            als: Vec::new(),
        }
    }

    /// A strong link that only a run gives says so; one a complete house gives needs no word.
    #[test]
    fn run_links_say_why_they_hold() {
        let honey = parse_line(".".repeat(61).as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let g = Grid::from_puzzle(&honey);
        let g = g.geometry();
        let row9: Vec<usize> = g
            .cells()
            .filter(|&c| g.cell_name(c).starts_with("r9"))
            .collect();
        let text = linked_text(g, &[node(row9[2], 5, false), node(row9[0], 5, true)]);
        assert!(text.ends_with("=5 (row 9 must hold 5)"), "{text}");
        let plain = parse_line(".".repeat(81).as_bytes(), Variant::Standard, "t", 1)
            .unwrap()
            .unwrap();
        let p = Grid::from_puzzle(&plain);
        let text = linked_text(p.geometry(), &[node(2, 5, false), node(0, 5, true)]);
        assert_eq!(text, "r1c3<>5 -> r1c1=5");
    }
}
