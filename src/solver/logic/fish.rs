//! Basic fish (X-wing, swordfish, jellyfish) with finned and sashimi forms.
//!
//! Base and cover sets are lines of two directions (rows and columns; on other layouts any
//! two classes of parallel `Complete` lines). A digit in n base lines confined to n cover
//! lines leaves the rest of the cover lines. With fins (base candidates outside the cover),
//! only cover cells that see every fin lose the digit. Sashimi: a base line keeps at most
//! one candidate in the cover once the fins are set aside.

use super::step::{article, cell_list, effect_text, house_list};
use super::{CellSet, Ctx, Detail, Pattern, Role, Sink, Step, TechniqueInfo};
use crate::geometry::{digit_char, Digits, Geometry, HouseId};
use std::ops::ControlFlow;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Basic,
    /// Finned and sashimi fish: one enumeration finds both.
    Finned,
}

/// Siamese fish: the technique, the fish its name follows, and the fish both parts come
/// from (a finned and a sashimi fish of a size pair up).
const SIAMESE: &[(&str, &str, &[&str])] = &[
    (
        "siamese-finned-x-wing",
        "finned-x-wing",
        &["finned-x-wing", "sashimi-x-wing"],
    ),
    (
        "siamese-sashimi-x-wing",
        "sashimi-x-wing",
        &["finned-x-wing", "sashimi-x-wing"],
    ),
    (
        "siamese-finned-swordfish",
        "finned-swordfish",
        &["finned-swordfish", "sashimi-swordfish"],
    ),
    (
        "siamese-sashimi-swordfish",
        "sashimi-swordfish",
        &["finned-swordfish", "sashimi-swordfish"],
    ),
    (
        "siamese-finned-jellyfish",
        "finned-jellyfish",
        &["finned-jellyfish", "sashimi-jellyfish"],
    ),
    (
        "siamese-sashimi-jellyfish",
        "sashimi-jellyfish",
        &["finned-jellyfish", "sashimi-jellyfish"],
    ),
    (
        "siamese-finned-franken-x-wing",
        "finned-franken-x-wing",
        &["finned-franken-x-wing"],
    ),
    (
        "siamese-finned-franken-swordfish",
        "finned-franken-swordfish",
        &["finned-franken-swordfish"],
    ),
    (
        "siamese-finned-franken-jellyfish",
        "finned-franken-jellyfish",
        &["finned-franken-jellyfish"],
    ),
    (
        "siamese-finned-mutant-x-wing",
        "finned-mutant-x-wing",
        &["finned-mutant-x-wing"],
    ),
    (
        "siamese-finned-mutant-swordfish",
        "finned-mutant-swordfish",
        &["finned-mutant-swordfish"],
    ),
    (
        "siamese-finned-mutant-jellyfish",
        "finned-mutant-jellyfish",
        &["finned-mutant-jellyfish"],
    ),
];

/// Siamese fish (HoDoKu): two finned fish of one digit on the same base houses whose
/// different covers and fins give different eliminations, taken as one step. At least one
/// of the two is the fish the technique is named after.
/// At most this many Siamese pairs per technique and position.
const MAX_SIAMESE_PAIRS: usize = 2_000;

pub(crate) fn siamese(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let Some(&(_, named, from)) = SIAMESE.iter().find(|(id, _, _)| *id == info.id) else {
        return ControlFlow::Continue(());
    };
    let mut found: Vec<Step> = Vec::new();
    for t in from.iter().filter_map(|id| super::technique(id)) {
        let _ = super::find_with(ctx, t, &mut |s: Step| {
            found.push(s);
            ControlFlow::Continue(())
        });
    }
    let base = |s: &Step| match &s.pattern {
        Pattern::Fish { digit, base, .. } => {
            let mut b = base.clone();
            b.sort_unstable();
            Some((*digit, b))
        }
        _ => None,
    };
    // Only fish of one digit on one base set pair up: group by that first (a position can
    // hold tens of thousands of finned mutant fish, and trying all pairs took minutes),
    // then take the pairs in the order of the finders, as before.
    let mut keyed: Vec<_> = found
        .iter()
        .enumerate()
        .filter_map(|(i, s)| base(s).map(|k| (k, i)))
        .collect();
    keyed.sort();
    // Large mutant fish on a wide-open grid share a base by the thousand: the pairs are
    // bounded so a request answers in time (this technique is off the default path).
    let mut pairs = Vec::new();
    'groups: for group in keyed.chunk_by(|x, y| x.0 == y.0) {
        for (k, (_, i)) in group.iter().enumerate() {
            for (_, j) in &group[k + 1..] {
                if found[*i].eliminations.first() != found[*j].eliminations.first() {
                    pairs.push((*i, *j));
                    if pairs.len() >= MAX_SIAMESE_PAIRS {
                        break 'groups;
                    }
                }
            }
        }
    }
    pairs.sort_unstable();
    for (i, j) in pairs {
        let (a, b) = (&found[i], &found[j]);
        if a.id() == named {
            sink(super::twin(info, a, b))?;
        } else if b.id() == named {
            sink(super::twin(info, b, a))?;
        }
    }
    ControlFlow::Continue(())
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if info.id.starts_with("siamese-") {
        return siamese(ctx, info, sink);
    }
    let (n, kind, partner) = match info.id {
        "x-wing" => (2, Kind::Basic, None),
        "swordfish" => (3, Kind::Basic, None),
        "jellyfish" => (4, Kind::Basic, None),
        "finned-x-wing" => (2, Kind::Finned, Some("sashimi-x-wing")),
        "finned-swordfish" => (3, Kind::Finned, Some("sashimi-swordfish")),
        "finned-jellyfish" => (4, Kind::Finned, Some("sashimi-jellyfish")),
        "sashimi-x-wing" => (2, Kind::Finned, Some("finned-x-wing")),
        "sashimi-swordfish" => (3, Kind::Finned, Some("finned-swordfish")),
        "sashimi-jellyfish" => (4, Kind::Finned, Some("finned-jellyfish")),
        _ => return ControlFlow::Continue(()),
    };
    if kind == Kind::Basic {
        return each_search(ctx, [info, info], n, kind, sink);
    }
    // Finned and sashimi fish of a size come from the same enumeration and sit next to each
    // other in the table, so the steps of both are found once per position and each
    // technique takes its own (in the order the enumeration met them).
    let Some(slot) = ctx.cache.finned_fish.get(n - 2) else {
        return ControlFlow::Continue(());
    };
    let steps = slot.get_or_init(|| {
        let partner = partner.and_then(super::technique).unwrap_or(info);
        let sashimi = info.id.starts_with("sashimi");
        let infos = if sashimi {
            [partner, info]
        } else {
            [info, partner]
        };
        let mut all = Vec::new();
        let _ = each_search(ctx, infos, n, kind, &mut |s: Step| {
            all.push(s);
            ControlFlow::Continue(())
        });
        all
    });
    for s in steps {
        if s.technique.id == info.id {
            sink(s.clone())?;
        }
    }
    ControlFlow::Continue(())
}

/// Every digit, every pair of line directions (base, cover). `infos`: the technique of a
/// finned fish, then of a sashimi one (the same for basic fish).
fn each_search(
    ctx: &Ctx,
    infos: [&'static TechniqueInfo; 2],
    n: usize,
    kind: Kind,
    sink: &mut Sink,
) -> ControlFlow<()> {
    // Scratch space for `search`, set up once rather than per digit and direction.
    let mut bases = [Base {
        h: 0,
        cells: CellSet::EMPTY,
        hits: 0,
    }; 64];
    for digit in 1..=ctx.geo.max_digit() {
        if ctx.digit[usize::from(digit)].is_empty() {
            continue;
        }
        // Fish lines are complete houses: a digit's fish depend on its cells alone.
        super::digit_local(ctx, infos[0].id, digit, true, sink, |sink| {
            for (bi, (_, base_lines)) in ctx.t.lines.iter().enumerate() {
                for (ci, (_, cover_lines)) in ctx.t.lines.iter().enumerate() {
                    if bi != ci {
                        let b = &mut bases;
                        let pos = &ctx.t.line_pos[ci];
                        search(
                            ctx,
                            infos,
                            digit,
                            n,
                            kind,
                            base_lines,
                            cover_lines,
                            pos,
                            b,
                            sink,
                        )?;
                    }
                }
            }
            ControlFlow::Continue(())
        })?;
    }
    ControlFlow::Continue(())
}

/// A base line that can take part in a fish: its candidates and the cover lines they touch.
#[derive(Clone, Copy)]
struct Base {
    h: HouseId,
    cells: CellSet,
    /// Bit `i`: the line has a candidate in `cover_lines[i]`.
    hits: u64,
}

#[allow(clippy::too_many_arguments)]
fn search(
    ctx: &Ctx,
    infos: [&'static TechniqueInfo; 2],
    digit: u8,
    n: usize,
    kind: Kind,
    base_lines: &[HouseId],
    cover_lines: &[HouseId],
    cover_pos: &[u8],
    bases: &mut [Base; 64],
    sink: &mut Sink,
) -> ControlFlow<()> {
    // Cover lines are tracked as bits; no layout has more than 64 parallel lines.
    if cover_lines.len() > 64 || n == 0 || n > MAX_N {
        return ControlFlow::Continue(());
    }
    // Basic fish need 2..=n candidates per base line; finned ones allow more (the fins).
    let (min_per_line, max_per_line) = if kind == Kind::Basic {
        (2, n as u32)
    } else {
        (1, n as u32 + 3)
    };
    // A basic fish covers exactly n lines; a finned one n+1..=n+3 (the rest are fins).
    let max_hit = if kind == Kind::Basic { n } else { n + 3 } as u32;
    let mut nb = 0;
    for &h in base_lines {
        let cells = ctx.where_in(h, digit);
        if !(min_per_line..=max_per_line).contains(&cells.len()) || nb == bases.len() {
            continue;
        }
        // Lines of one class are disjoint: each cell lies on at most one cover line.
        let mut hits = 0u64;
        for c in cells.iter() {
            match cover_pos.get(c) {
                Some(&p) if p < 64 => hits |= 1 << p,
                _ => {}
            }
        }
        if hits.count_ones() <= max_hit {
            bases[nb] = Base { h, cells, hits };
            nb += 1;
        }
    }
    if nb < n {
        return ControlFlow::Continue(());
    }
    let st = State {
        ctx,
        infos,
        digit,
        n,
        kind,
        max_hit,
        cover_lines,
        all: ctx.digit[usize::from(digit)],
    };
    let mut combo = [0usize; MAX_N];
    // Base combinations in lexicographic order (as before the search was made
    // allocation-free), pruned as soon as the union touches too many cover lines.
    st.bases(&bases[..nb], 0, 0, CellSet::EMPTY, 0, &mut combo, sink)
}

const MAX_N: usize = 4;
/// At most n + 3 cover lines are hit (pruned in `bases`).
const MAX_HIT: usize = MAX_N + 3;

struct State<'a, 'c> {
    ctx: &'a Ctx<'c>,
    infos: [&'static TechniqueInfo; 2],
    digit: u8,
    n: usize,
    kind: Kind,
    max_hit: u32,
    cover_lines: &'a [HouseId],
    all: CellSet,
}

impl State<'_, '_> {
    #[allow(clippy::too_many_arguments)]
    fn bases(
        &self,
        bases: &[Base],
        start: usize,
        depth: usize,
        u: CellSet,
        hits: u64,
        combo: &mut [usize; MAX_N],
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        if depth == self.n {
            return self.found(bases, combo, u, hits, sink);
        }
        for i in start..bases.len() {
            if bases.len() - i < self.n - depth {
                break;
            }
            let h = hits | bases[i].hits;
            if h.count_ones() > self.max_hit {
                continue;
            }
            combo[depth] = i;
            self.bases(
                bases,
                i + 1,
                depth + 1,
                u.or(bases[i].cells),
                h,
                combo,
                sink,
            )?;
        }
        ControlFlow::Continue(())
    }

    fn found(
        &self,
        bases: &[Base],
        combo: &[usize; MAX_N],
        u: CellSet,
        hits: u64,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        let combo = &combo[..self.n];
        let (hit, hit_count) = self.hit_lines(hits);
        let hit = &hit[..hit_count];
        match self.kind {
            Kind::Basic => self.basic(bases, combo, hit, u, sink),
            Kind::Finned => self.finned(bases, combo, hit, u, sink),
        }
    }

    /// The cover lines in `hits`, in order, and how many there are.
    fn hit_lines(&self, hits: u64) -> ([HouseId; MAX_HIT], usize) {
        let hit_count = hits.count_ones() as usize;
        let mut hit = [0 as HouseId; MAX_HIT];
        let mut k = 0;
        for (i, &h) in self.cover_lines.iter().enumerate() {
            if hits & (1 << i) != 0 {
                hit[k] = h;
                k += 1;
            }
        }
        (hit, hit_count)
    }

    /// A basic fish: the base candidates lie on exactly n cover lines.
    fn basic(
        &self,
        bases: &[Base],
        combo: &[usize],
        hit: &[HouseId],
        u: CellSet,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        let ctx = self.ctx;
        if hit.len() != self.n {
            return ControlFlow::Continue(());
        }
        let cover = hit
            .iter()
            .fold(CellSet::EMPTY, |m, &h| m.or(ctx.t.house_sets[h]));
        let targets = cover.and(self.all).minus(u);
        if targets.is_empty() {
            return ControlFlow::Continue(());
        }
        let elims = ctx.elims(targets, self.digit);
        sink(make(
            self.infos[0],
            self.digit,
            &base_houses(bases, combo),
            hit,
            &[],
            u,
            elims,
        ))
    }

    /// A finned (or sashimi) fish: more than n lines hit, n of them chosen as cover.
    fn finned(
        &self,
        bases: &[Base],
        combo: &[usize],
        hit: &[HouseId],
        u: CellSet,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        if hit.len() <= self.n {
            return ControlFlow::Continue(());
        }
        match self.fin_sight(hit, u) {
            Some(sight) => self.cover_choices(bases, combo, hit, u, &sight, sink),
            None => ControlFlow::Continue(()),
        }
    }

    /// What the possible targets see of the fins of each choice, or `None` when no choice
    /// of cover lines can eliminate anything.
    fn fin_sight(&self, hit: &[HouseId], u: CellSet) -> Option<FinSight> {
        let (ctx, n) = (self.ctx, self.n);
        // Parallel lines are disjoint, so the fins of a choice of cover lines are
        // the base candidates outside every hit line plus those on the hit lines
        // left out; targets must see all of them. Per hit line: its fins' common
        // peers among the possible targets, so a choice costs a few bitset ANDs.
        let covered = hit
            .iter()
            .fold(CellSet::EMPTY, |m, &h| m.or(ctx.t.house_sets[h]));
        let loose = u.minus(covered);
        let mut possible = covered.and(self.all).minus(u);
        for f in loose.iter() {
            possible = possible.and(ctx.t.peers[f]);
        }
        if possible.is_empty() {
            return None;
        }
        let mut seen = [CellSet::EMPTY; MAX_HIT];
        // Hit lines whose fins no possible target sees: every useful choice covers
        // them, so more than n of them rule the combination out.
        let mut required = 0u64;
        // A target needs every line whose base candidates it does not see, plus its
        // own (which it sees): `missed[k]` holds the targets more than k lines miss,
        // so those in `missed[n - 1]` can never go. Most combinations end here.
        let mut missed = [CellSet::EMPTY; MAX_N];
        for (i, &h) in hit.iter().enumerate() {
            let mut t = possible;
            for f in u.and(ctx.t.house_sets[h]).iter() {
                if t.is_empty() {
                    break;
                }
                t = t.and(ctx.t.peers[f]);
            }
            seen[i] = t;
            if t.is_empty() {
                required |= 1 << i;
            }
            let not = possible.minus(t);
            for k in (1..n).rev() {
                missed[k] = missed[k].or(missed[k - 1].and(not));
            }
            missed[0] = missed[0].or(not);
            // `missed` only grows: once every target is out, the rest cannot help.
            if possible.minus(missed[n - 1]).is_empty() {
                return None;
            }
        }
        if possible.minus(missed[n - 1]).is_empty() {
            return None;
        }
        if required.count_ones() as usize > n {
            return None;
        }
        Some(FinSight {
            possible,
            seen,
            required,
        })
    }

    /// Every choice of n cover lines among the hit ones, in lexicographic order, and the
    /// step of each that eliminates something.
    fn cover_choices(
        &self,
        bases: &[Base],
        combo: &[usize],
        hit: &[HouseId],
        u: CellSet,
        sight: &FinSight,
        sink: &mut Sink,
    ) -> ControlFlow<()> {
        let (ctx, n) = (self.ctx, self.n);
        let hit_count = hit.len();
        let mut pick = [0usize; MAX_N];
        for (i, p) in pick.iter_mut().enumerate().take(n) {
            *p = i;
        }
        loop {
            let mut chosen = 0u64;
            for &i in &pick[..n] {
                chosen |= 1 << i;
            }
            let mut targets = CellSet::EMPTY;
            let mut cover = CellSet::EMPTY;
            if chosen & sight.required == sight.required {
                for &i in &pick[..n] {
                    cover = cover.or(ctx.t.house_sets[hit[i]]);
                }
                targets = sight.possible.and(cover);
            }
            for (i, t) in sight.seen[..hit_count].iter().enumerate() {
                if chosen & (1 << i) == 0 {
                    targets = targets.and(*t);
                }
            }
            if !targets.is_empty() {
                let sashimi = combo.iter().any(|&i| bases[i].cells.and(cover).len() <= 1);
                let fins = u.minus(cover).to_vec();
                let cov: Vec<HouseId> = pick[..n].iter().map(|&i| hit[i]).collect();
                let elims = ctx.elims(targets, self.digit);
                sink(make(
                    self.infos[usize::from(sashimi)],
                    self.digit,
                    &base_houses(bases, combo),
                    &cov,
                    &fins,
                    u,
                    elims,
                ))?;
            }
            // Next combination: bump the rightmost index that can move.
            let mut j = n;
            while j > 0 && pick[j - 1] == hit_count - n + j - 1 {
                j -= 1;
            }
            if j == 0 {
                break ControlFlow::Continue(());
            }
            pick[j - 1] += 1;
            for x in j..n {
                pick[x] = pick[x - 1] + 1;
            }
        }
    }
}

/// For a finned fish: the targets that survive the fins outside every hit line, per hit
/// line those that see its fins, and the hit lines every useful choice must cover.
struct FinSight {
    possible: CellSet,
    seen: [CellSet; MAX_HIT],
    required: u64,
}

/// The base lines of a combination.
fn base_houses(bases: &[Base], combo: &[usize]) -> Vec<HouseId> {
    combo.iter().map(|&i| bases[i].h).collect()
}

fn make(
    info: &'static TechniqueInfo,
    digit: u8,
    base: &[HouseId],
    cover: &[HouseId],
    fins: &[usize],
    u: CellSet,
    elims: Vec<super::Candidate>,
) -> Step {
    let mut step = Step::new(
        info,
        Pattern::Fish {
            digit,
            base: base.to_vec(),
            cover: cover.to_vec(),
            fins: fins.to_vec(),
        },
    )
    .eliminate(elims);
    for &h in base {
        step = step.house(h, Role::Base);
    }
    for &h in cover {
        step = step.house(h, Role::Cover);
    }
    let body: Vec<usize> = u.iter().filter(|c| !fins.contains(c)).collect();
    step.candidates(&body, Digits::single(digit), Role::Defining)
        .candidates(fins, Digits::single(digit), Role::Fin)
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    if matches!(step.pattern, Pattern::Kraken { .. }) {
        return super::kraken::explain(step, g, detail);
    }
    let Pattern::Fish {
        digit,
        base,
        cover,
        fins,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    match detail {
        Detail::Nudge => format!("Look at {d} in {}", house_list(g, base)),
        Detail::Technique => format!("There is {} {} on {d}", article(step.name()), step.name()),
        Detail::Full if fins.is_empty() => format!(
            "{} on {d}: in {}, {d} can only go in {}, so remove {d} from the other cells of \
             those: {}",
            step.name(),
            house_list(g, base),
            house_list(g, cover),
            effect_text(g, step)
        ),
        Detail::Full => format!(
            "{} on {d}: in {}, {d} can only go in {} or in the fin{} {}; either way the \
             cells that see the fin{} lose {d}: {}",
            step.name(),
            house_list(g, base),
            house_list(g, cover),
            if fins.len() == 1 { "" } else { "s" },
            cell_list(g, fins),
            if fins.len() == 1 { "" } else { "s" },
            effect_text(g, step)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, Detail};
    use crate::geometry::Digits;

    /// A grid where digit 1 is a candidate only in the given cells of the given rows.
    fn with_ones(rows: &[(usize, &[usize])]) -> crate::puzzle::Grid {
        let mut g = grid(&".".repeat(81));
        for r in 1..=9 {
            for c in 1..=9 {
                let cell = (r - 1) * 9 + c - 1;
                let keep = rows
                    .iter()
                    .find(|(rr, _)| *rr == r)
                    .is_none_or(|(_, cols)| cols.contains(&c));
                if !keep {
                    g.set_candidates(cell, Digits::range(2, 9));
                }
            }
        }
        g
    }

    #[test]
    fn x_wing_clears_its_columns() {
        let g = with_ones(&[(2, &[3, 8]), (7, &[3, 8])]);
        let steps = find_all(&g, "x-wing");
        let s = steps
            .iter()
            .find(|s| s.eliminations.len() == 14)
            .expect("x-wing");
        assert!(s
            .eliminations
            .iter()
            .all(|e| [2, 7].contains(&(e.cell % 9))));
        assert!(s.explain(g.geometry(), Detail::Full).starts_with(
            "X-Wing on 1: in row 2 and row 7, 1 can only go in column 3 and column 8"
        ));
    }

    #[test]
    fn finned_x_wing_only_hits_the_fin_box() {
        // Rows 1 and 5 hold 1 in columns 2 and 5; r1c3 is a fin in box 1.
        let g = with_ones(&[(1, &[2, 5, 3]), (5, &[2, 5])]);
        let steps = find_all(&g, "finned-x-wing");
        let s = steps
            .iter()
            .find(|s| matches!(&s.pattern, super::Pattern::Fish { fins, .. } if fins == &vec![2]))
            .expect("fin r1c3");
        // Column 2 cells in box 1 outside row 1: r2c2 and r3c2.
        let names: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| g.geometry().cell_name(e.cell))
            .collect();
        assert_eq!(names, ["r2c2", "r3c2"]);
    }

    /// HoDoKu's library, line 462: two finned swordfish on 8 with the same base lines and
    /// other fins, taken as one Siamese Finned Swordfish.
    #[test]
    fn siamese_fish_joins_two_fish_on_the_same_base() {
        let g = super::super::testutil::reglib(
            "4..5.769.........2.68....3.65.2.4..9....3.4.....9........8..........3..73894.....",
            "",
        );
        let all = super::super::testutil::elims(&g, "siamese-finned-swordfish");
        assert!(all.contains(&"815 827 828".to_string()), "{all:?}");
        let singles = super::super::testutil::elims(&g, "finned-swordfish");
        assert!(!singles.contains(&"815 827 828".to_string()), "{singles:?}");
    }
}
