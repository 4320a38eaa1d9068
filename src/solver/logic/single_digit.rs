//! Single-digit patterns: skyscraper, 2-string kite, turbot fish, empty rectangle.
//!
//! All are built from strong links (a digit with exactly two places in a `Complete` house):
//! two strong links joined by a weak link mean one of the two outer ends holds the digit,
//! so cells that see both ends lose it.

use super::step::{article, cell_list, effect_text, house_list, house_name};
use super::{
    is_box_like, CellSet, Ctx, Detail, LineClass, LinkKind, Pattern, Role, Sink, Step, Target,
    TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId, Rule};
use std::ops::ControlFlow;

/// A strong link in house `h` between `a` and `b` (both orientations are listed).
#[derive(Clone, Copy)]
pub(crate) struct Link {
    h: HouseId,
    a: Cell,
    b: Cell,
}

/// A digit's strong links, and (with at most 128 links, `masked`) as bit masks over them:
/// per link the links whose near end sees its near end (the weak link every pattern
/// needs), links by the direction of their house (`class_index`) and all links on lines.
/// Built once per position for the four techniques.
pub(crate) struct Strong {
    links: Vec<Link>,
    masked: bool,
    partners: Vec<u128>,
    by_class: [u128; 4],
    on_lines: u128,
}

impl Strong {
    fn build(ctx: &Ctx, digit: u8) -> Strong {
        let links = links(ctx, digit);
        let masked = links.len() <= 128 && ctx.geo.cell_count() <= 256;
        let mut st = Strong {
            links,
            masked,
            partners: Vec::new(),
            by_class: [0; 4],
            on_lines: 0,
        };
        if !masked {
            return st;
        }
        let mut by_a = [0u128; 256];
        let mut ends = CellSet::EMPTY;
        for (k, l) in st.links.iter().enumerate() {
            by_a[l.a] |= 1 << k;
            ends.insert(l.a);
            if let Some(c) = line_class(ctx, l.h) {
                st.by_class[class_index(c)] |= 1 << k;
                st.on_lines |= 1 << k;
            }
        }
        st.partners = st
            .links
            .iter()
            .map(|l| {
                let near = ctx.t.peers[l.a].and(ends);
                near.iter().fold(0u128, |m, c| m | by_a[c])
            })
            .collect();
        st
    }
}

/// The strong links of every digit with four or more candidates (indexed by digit).
fn strong_links<'a>(ctx: &'a Ctx) -> &'a [Option<Strong>] {
    ctx.cache.strong_links.get_or_init(|| {
        (0..=ctx.geo.max_digit())
            .map(|d| (d > 0 && ctx.digit[usize::from(d)].len() >= 4).then(|| Strong::build(ctx, d)))
            .collect()
    })
}

fn links(ctx: &Ctx, digit: u8) -> Vec<Link> {
    let mut out = Vec::new();
    for &(h, must) in ctx.strong_houses() {
        let w = ctx.where_in(h, digit);
        if w.len() == 2 && must.contains(digit) {
            let mut it = w.iter();
            let (Some(x), Some(y)) = (it.next(), it.next()) else {
                continue;
            };
            out.push(Link { h, a: x, b: y });
            out.push(Link { h, a: y, b: x });
        }
    }
    out
}

#[inline]
fn line_class(ctx: &Ctx, h: HouseId) -> Option<LineClass> {
    ctx.t.line_class[h]
}

fn class_index(c: LineClass) -> usize {
    match c {
        LineClass::Row => 0,
        LineClass::Column => 1,
        LineClass::Forward => 2,
        LineClass::Backward => 3,
    }
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    if info.id.starts_with("dual-") {
        return duals(ctx, info, sink);
    }
    if !matches!(
        info.id,
        "skyscraper" | "2-string-kite" | "turbot-fish" | "empty-rectangle"
    ) {
        return ControlFlow::Continue(());
    }
    for digit in 1..=ctx.geo.max_digit() {
        if ctx.digit[usize::from(digit)].len() < 4 {
            continue;
        }
        // Strong links in runs and cages depend on other digits (what the house must hold).
        let local = ctx.t.all_complete;
        super::digit_local(ctx, info.id, digit, local, sink, |sink| {
            let Some(Some(strong)) = strong_links(ctx).get(usize::from(digit)) else {
                return ControlFlow::Continue(());
            };
            if info.id == "empty-rectangle" {
                empty_rectangle(ctx, info, digit, &strong.links, sink)
            } else {
                two_links(ctx, info, digit, strong, sink)
            }
        })?;
    }
    ControlFlow::Continue(())
}

/// Two kites through the same two box cells, or two empty rectangles in the same box,
/// with different eliminations: HoDoKu's dual forms, one step for both. As in HoDoKu, the
/// two may be on different digits (each part is sound on its own).
fn duals(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let kite = info.id == "dual-2-string-kite";
    let single_id = if kite {
        "2-string-kite"
    } else {
        "empty-rectangle"
    };
    let Some(single) = super::technique(single_id) else {
        return ControlFlow::Continue(());
    };
    let mut found: Vec<Step> = Vec::new();
    let _ = find(ctx, single, &mut |s: Step| {
        found.push(s);
        ControlFlow::Continue(())
    });
    // Kites: the weak link's ends (the box cells), any digit; empty rectangles: the box
    // and its candidates (HoDoKu's fins), so one digit.
    let key = |s: &Step| match &s.pattern {
        Pattern::SingleDigit { cells, .. } if kite && cells.len() == 4 => {
            Some((CellSet::from_cells([cells[1], cells[2]]), 0))
        }
        Pattern::SingleDigit {
            digit,
            house: Some(b),
            ..
        } if !kite => Some((CellSet::from_cells([*b]), *digit)),
        _ => None,
    };
    for (i, a) in found.iter().enumerate() {
        for b in &found[i + 1..] {
            let same = key(a).is_some() && key(a) == key(b);
            if same && a.eliminations.first() != b.eliminations.first() {
                sink(super::twin(info, a, b))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Which two-link pattern is sought; decided once, not per pair of links.
#[derive(PartialEq)]
enum TwoLinkKind {
    Skyscraper,
    Kite,
    Turbot,
}

/// Two strong links `b1 = a1 - a2 = b2` with the weak link `a1 - a2`.
fn two_links(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    digit: u8,
    strong: &Strong,
    sink: &mut Sink,
) -> ControlFlow<()> {
    let links = &strong.links;
    let all = ctx.digit[usize::from(digit)];
    let kind = match info.id {
        "skyscraper" => TwoLinkKind::Skyscraper,
        "2-string-kite" => TwoLinkKind::Kite,
        _ => TwoLinkKind::Turbot,
    };
    // Every kind needs the weak link `l1.a - l2.a`, and skyscrapers and kites their line
    // directions: with the masks, only the later links passing those are visited (in
    // order, as a scan of all later links would meet them).
    let masked = strong.masked;
    for (i, l1) in links.iter().enumerate() {
        let mut partners = 0u128;
        if masked {
            partners = later_partners(ctx, strong, &kind, i, l1);
        }
        let mut next = i;
        loop {
            let k = if masked {
                if partners == 0 {
                    break;
                }
                let k = partners.trailing_zeros() as usize;
                partners &= partners - 1;
                k
            } else {
                next += 1;
                if next >= links.len() {
                    break;
                }
                next
            };
            let l2 = &links[k];
            let four = [l1.b, l1.a, l2.a, l2.b];
            if !pair_fits(ctx, &kind, l1, l2, &four) {
                continue;
            }
            let targets = ctx
                .seen_by_all(&[l1.b, l2.b])
                .and(all)
                .minus(CellSet::from_cells(four));
            if targets.is_empty() {
                continue;
            }
            sink(two_link_step(ctx, info, digit, l1, l2, four, targets))?;
        }
    }
    ControlFlow::Continue(())
}

/// With the masks: the links after `l1` (index `i`) that pass its weak link and the kind's
/// line directions.
fn later_partners(ctx: &Ctx, strong: &Strong, kind: &TwoLinkKind, i: usize, l1: &Link) -> u128 {
    let mut partners = strong.partners[i];
    // Only later links (`i + 1..`).
    partners &= if i + 1 >= 128 { 0 } else { !0u128 << (i + 1) };
    let c1 = line_class(ctx, l1.h).map(class_index);
    partners &= match (kind, c1) {
        (TwoLinkKind::Skyscraper, Some(c)) => strong.by_class[c],
        (TwoLinkKind::Kite, Some(c)) => strong.on_lines & !strong.by_class[c],
        (TwoLinkKind::Turbot, _) => !0,
        (_, None) => 0,
    };
    partners
}

/// Whether links `l1` and `l2` (ends `four`) form the pattern of `kind`: different houses,
/// the kind's line directions, four distinct cells, the weak link and the kind's shape.
fn pair_fits(ctx: &Ctx, kind: &TwoLinkKind, l1: &Link, l2: &Link, four: &[Cell; 4]) -> bool {
    if l1.h == l2.h {
        return false;
    }
    // The kinds' line-direction conditions first: table lookups that reject most
    // pairs before the cell tests below.
    let (c1, c2) = (line_class(ctx, l1.h), line_class(ctx, l2.h));
    let classes_fit = match kind {
        TwoLinkKind::Skyscraper => c1.is_some() && c1 == c2,
        TwoLinkKind::Kite => c1.is_some() && c2.is_some() && c1 != c2,
        TwoLinkKind::Turbot => true,
    };
    if !classes_fit {
        return false;
    }
    if (0..4).any(|x| (x + 1..4).any(|y| four[x] == four[y])) {
        return false;
    }
    // The weak link.
    if !ctx.t.peers[l1.a].contains(l2.a) {
        return false;
    }
    // Houses through both weak-link ends (no allocation: this runs per link pair).
    let shared = || {
        ctx.geo
            .houses_of(l1.a)
            .iter()
            .copied()
            .filter(|&h| ctx.t.house_sets[h].contains(l2.a))
    };
    match kind {
        TwoLinkKind::Skyscraper => {
            // Parallel links whose near ends share a cross line, far ends do not.
            shared().any(|h| line_class(ctx, h).is_some_and(|c| Some(c) != c1))
                && !ctx
                    .geo
                    .houses_of(l1.b)
                    .iter()
                    .any(|&h| ctx.t.house_sets[h].contains(l2.b) && line_class(ctx, h).is_some())
        }
        TwoLinkKind::Kite => {
            // A row link and a column link whose near ends share a box.
            shared().any(|h| is_box_like(ctx.geo.house(h).kind))
                && shared().next().is_some_and(|first| {
                    !ctx.t.house_sets[first].contains(l1.b)
                        && !ctx.t.house_sets[first].contains(l2.b)
                })
        }
        TwoLinkKind::Turbot => true,
    }
}

/// The step of links `l1` and `l2`: `digit` goes from `targets`.
fn two_link_step(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    digit: u8,
    l1: &Link,
    l2: &Link,
    four: [Cell; 4],
    targets: CellSet,
) -> Step {
    let d = Digits::single(digit);
    let c = |cell| super::Candidate::new(cell, digit);
    Step::new(
        info,
        Pattern::SingleDigit {
            digit,
            cells: four.to_vec(),
            house: None,
            links: vec![l1.h, l2.h],
        },
    )
    .eliminate(ctx.elims(targets, digit))
    .candidates(&four, d, Role::Defining)
    .highlight(
        Target::Link(c(l1.b), c(l1.a), LinkKind::Strong),
        Role::Defining,
    )
    .highlight(
        Target::Link(c(l1.a), c(l2.a), LinkKind::Weak),
        Role::Defining,
    )
    .highlight(
        Target::Link(c(l2.a), c(l2.b), LinkKind::Strong),
        Role::Defining,
    )
}

/// A box whose candidates lie on one row and one column (the cross), and a strong link
/// from that row: if the target in the cross's column held the digit, the link would empty
/// the box.
fn empty_rectangle(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    digit: u8,
    links: &[Link],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let all = ctx.digit[usize::from(digit)];
    let mut from_row: Vec<Link> = Vec::new();
    for &b in &ctx.t.complete {
        if !is_box_like(ctx.geo.house(b).kind) {
            continue;
        }
        let s = ctx.where_in(b, digit);
        if s.len() < 2 {
            continue;
        }
        let bset = ctx.t.house_sets[b];
        // Lines missing the box can be neither the cross's row nor its column.
        let lines = &ctx.t.crossing_lines[b];
        for &r in lines {
            let rs = ctx.t.house_sets[r];
            // Tested per row before the column loop: the same skips, fewer tests.
            if rs.and(bset).is_empty() {
                continue;
            }
            // The cross needs s ⊆ r ∪ c, s ⊄ r and s ⊄ c: the candidates off the row must
            // all lie on the column.
            let rest = s.minus(rs);
            if rest.is_empty() {
                continue;
            }
            // The links that can go with this box and row (none of the tests depends on
            // the column), listed on the first column that fits.
            let mut listed = false;
            for &c in lines {
                let cs = ctx.t.house_sets[c];
                if !rest.is_subset(cs) || line_class(ctx, r) == line_class(ctx, c) {
                    continue;
                }
                if cs.and(bset).is_empty() || s.is_subset(cs) {
                    continue;
                }
                if !listed {
                    listed = true;
                    from_row.clear();
                    from_row.extend(links.iter().filter(|l| {
                        line_class(ctx, l.h).is_some()
                            && ctx.t.house_sets[l.h].and(bset).is_empty()
                            && rs.contains(l.a)
                            && !rs.contains(l.b)
                    }));
                }
                for l in &from_row {
                    let targets = cs
                        .and(all)
                        .minus(bset)
                        .and(ctx.t.peers[l.b])
                        .minus(CellSet::from_cells([l.a, l.b]));
                    if targets.is_empty() {
                        continue;
                    }
                    let box_cells = s.to_vec();
                    let d = Digits::single(digit);
                    sink(
                        Step::new(
                            info,
                            Pattern::SingleDigit {
                                digit,
                                cells: vec![l.a, l.b],
                                house: Some(b),
                                links: vec![l.h],
                            },
                        )
                        .eliminate(ctx.elims(targets, digit))
                        .house(b, Role::Defining)
                        .candidates(&box_cells, d, Role::Defining)
                        .candidates(&[l.a, l.b], d, Role::Defining)
                        .highlight(
                            Target::Link(
                                super::Candidate::new(l.a, digit),
                                super::Candidate::new(l.b, digit),
                                LinkKind::Strong,
                            ),
                            Role::Defining,
                        ),
                    )?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::SingleDigit {
        digit,
        cells,
        house,
        links,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    match (detail, house) {
        (Detail::Nudge, Some(b)) => format!("Look at {d} in {}", house_name(g, *b)),
        (Detail::Nudge, None) => format!("Look at the {d}s"),
        (Detail::Technique, _) => {
            format!("There is {} {} on {d}", article(step.name()), step.name())
        }
        (Detail::Full, Some(b)) if cells.len() == 2 => format!(
            "{} on {d}: the {d}s of {} lie on one row and one column; with the strong link \
             {}{}, one of them holds {d} either way: {}",
            step.name(),
            house_name(g, *b),
            cell_list(g, cells).replace(" and ", " = "),
            must_hold(g, links, d),
            effect_text(g, step)
        ),
        (Detail::Full, _) if cells.len() == 4 => format!(
            "{} on {d}: {} = {} - {} = {}{}, so {} or {} holds {d}: {}",
            step.name(),
            g.cell_name(cells[0]),
            g.cell_name(cells[1]),
            g.cell_name(cells[2]),
            g.cell_name(cells[3]),
            must_hold(g, links, d),
            g.cell_name(cells[0]),
            g.cell_name(cells[3]),
            effect_text(g, step)
        ),
        _ => format!("{}: {}", step.name(), effect_text(g, step)),
    }
}

/// Why the strong links of runs and cages hold (those of complete houses need no word):
/// " (/ line 3 and cage 5 must hold 2)".
fn must_hold(g: &Geometry, links: &[HouseId], d: char) -> String {
    let mut special: Vec<HouseId> = links
        .iter()
        .copied()
        .filter(|&h| g.house(h).rule != Rule::Complete)
        .collect();
    special.dedup();
    if special.is_empty() {
        return String::new();
    }
    format!(" ({} must hold {d})", house_list(g, &special))
}

#[cfg(test)]
mod tests {
    use super::super::testutil::grid;
    use super::super::{find_all, Detail};
    use crate::geometry::Digits;

    /// Digit 1 only in the listed cells (1-based row, col).
    fn ones(cells: &[(usize, usize)]) -> crate::puzzle::Grid {
        let mut g = grid(&".".repeat(81));
        for c in 0..81 {
            if !cells.contains(&(c / 9 + 1, c % 9 + 1)) {
                g.set_candidates(c, Digits::range(2, 9));
            }
        }
        g
    }

    #[test]
    fn skyscraper_hits_cells_seeing_both_roofs() {
        // Rows 1 and 5: 1 in c1 and c4 / c1 and c6; other 1s in r2c5, r2c6 and r3c8.
        let g = ones(&[
            (1, 1),
            (1, 4),
            (5, 1),
            (5, 6),
            (2, 5),
            (2, 6),
            (3, 8),
            (8, 8),
        ]);
        let steps = find_all(&g, "skyscraper");
        let s = steps.first().expect("skyscraper");
        let names: Vec<String> = s
            .eliminations
            .iter()
            .map(|e| g.geometry().cell_name(e.cell))
            .collect();
        // The roofs are r1c4 and r5c6: only r2c6 sees both (box 2 and column 6).
        assert_eq!(names, ["r2c6"]);
        assert!(s
            .explain(g.geometry(), Detail::Full)
            .starts_with("Skyscraper on 1"));
    }

    /// HoDoKu's library, line 665: two kites through the box cells r8c2 and r9c3, one on
    /// 3 and one on 7, make one Dual 2-String Kite with both eliminations.
    #[test]
    fn dual_kite_takes_both_kites_through_the_same_box_cells() {
        let g = super::super::testutil::reglib(
            "2+5479..3168...42....9.......9+6......7+48.6.1.2.+2.....6..+1+5...4....25+4..1646..819.5",
            "536 344 345 545 346 364 365 565 366 371 381",
        );
        let elims = super::super::testutil::elims(&g, "dual-2-string-kite");
        assert_eq!(elims, ["334 738"]);
        let step = &find_all(&g, "dual-2-string-kite")[0];
        let text = step.explain(g.geometry(), Detail::Full);
        assert!(
            text.starts_with("Dual 2-String Kite, two patterns on the same cells at once. First, 2-String Kite on 3"),
            "{text}"
        );
        assert!(text.contains("Second, 2-String Kite on 7"), "{text}");
    }
}
