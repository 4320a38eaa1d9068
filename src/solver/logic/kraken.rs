//! Kraken fish (HoDoKu): a finned fish that eliminates nothing by itself, completed by
//! forcing chains.
//!
//! In a finned fish either the fish holds or a fin is true.
//! * Type 1: a candidate the fish without fins would eliminate (in a cover, outside the
//!   base, or a base candidate in two covers) goes if every fin, set true, takes it out by a
//!   chain.
//! * Type 2: if the fish holds, each cover holds the digit in one of its base candidates
//!   (not one in two covers); so any candidate that every such base candidate of one cover
//!   and every fin take out by chains goes, whatever its digit.
//!
//! As in HoDoKu's default Kraken search: basic and Franken fish of two to four houses, at
//! most two fins and no endo fins; chains are forcing chains (single-premise inferences).
//! On request only (HoDoKu leaves it off its default path), under a node budget.

use super::complex_fish::{search_digit, Budget, Shape};
use super::forcing::ChainImplications;
use super::step::{cell_list, effect_text, house_list, house_name};
use super::{
    Candidate, CellSet, ChainNode, Ctx, Detail, Highlight, LinkKind, Pattern, Role, Sink, Step,
    Target, TechniqueInfo,
};
use crate::geometry::{digit_char, Cell, Digits, Geometry, HouseId};
use std::ops::ControlFlow;

/// Base and cover nodes of one request, shared out among the digits (every digit gets its
/// turn): about a second at worst on top1465 positions (release build). Each fish costs
/// more than a plain one (two chain checks per cover), so the budget is lower than
/// [`complex_fish::BUDGET_ON_REQUEST`](super::complex_fish::BUDGET_ON_REQUEST).
pub const BUDGET: usize = 500_000;

/// A finned fish the cover search found, as the Kraken checks read it.
pub(super) struct Fish<'a> {
    pub digit: u8,
    pub base: &'a [HouseId],
    pub covers: &'a [HouseId],
    /// Every base candidate, fins included.
    pub union: CellSet,
    pub fins: CellSet,
    /// Base candidates in two covers (cannibalistic).
    pub twice: CellSet,
    /// The digit's candidates per house.
    pub cands: &'a [CellSet],
}

pub fn find(ctx: &Ctx, info: &'static TechniqueInfo, sink: &mut Sink) -> ControlFlow<()> {
    let imp = ChainImplications::new(ctx);
    let budget = Budget::new(BUDGET);
    let mut found: Vec<Step> = Vec::new();
    for digit in 1..=ctx.geo.max_digit() {
        let cells = ctx.digit[usize::from(digit)];
        if cells.is_empty() {
            continue;
        }
        budget.refill(BUDGET / usize::from(ctx.geo.max_digit()));
        // Every chain starts at a candidate of the fish digit: what each one takes out.
        let mut offs = vec![Vec::new(); ctx.geo.cell_count()];
        for c in cells.iter() {
            offs[c] = imp.offs(Candidate::new(c, digit));
        }
        for n in Shape::sizes() {
            if n + 2 > usize::from(ctx.geo.max_digit()) {
                continue;
            }
            let _ = search_digit(
                ctx,
                info,
                digit,
                Shape::kraken(n),
                &budget,
                Some(&offs),
                &mut |s: Step| {
                    // One step per elimination, the first (smallest) fish found (HoDoKu).
                    if !found.iter().any(|f| f.eliminations == s.eliminations) {
                        found.push(s);
                    }
                    ControlFlow::Continue(())
                },
            );
        }
    }
    budget.report(ctx);
    for s in found {
        sink(with_chains(&imp, s))?;
    }
    ControlFlow::Continue(())
}

/// The Kraken steps of one finned fish (chains are traced later, for the steps kept).
pub(super) fn at_fish(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    fish: &Fish,
    offs: &[Vec<CellSet>],
    sink: &mut Sink,
) -> ControlFlow<()> {
    let d = fish.digit;
    let off = |c: Cell, digit: u8| {
        offs.get(c)
            .and_then(|o| o.get(usize::from(digit)))
            .copied()
            .unwrap_or(CellSet::EMPTY)
    };
    let mut covered = CellSet::EMPTY;
    for &h in fish.covers {
        covered = covered.or(fish.cands[h]);
    }
    // Type 1: what the fish would eliminate, taken out by a chain from every fin.
    let mut reach = covered.minus(fish.union).or(fish.twice);
    for f in fish.fins.iter() {
        reach = reach.and(off(f, d));
    }
    for target in reach.iter() {
        let starts = fish.fins.to_vec();
        sink(step(
            ctx,
            info,
            fish,
            1,
            None,
            &starts,
            Candidate::new(target, d),
        ))?;
    }
    // Type 2: per cover, its base candidates (not cannibalistic) and the fins.
    for &h in fish.covers {
        let inside = fish.cands[h].and(fish.union).minus(fish.twice);
        // A cover holding only base candidates gives a plain forcing chain (HoDoKu).
        if inside == fish.cands[h] {
            continue;
        }
        let starts = inside.or(fish.fins);
        for e in 1..=ctx.geo.max_digit() {
            let mut hit = ctx.digit[usize::from(e)].minus(starts);
            for s in starts.iter() {
                if hit.is_empty() {
                    break;
                }
                hit = hit.and(off(s, e));
            }
            for target in hit.iter() {
                let list = starts.to_vec();
                let t = Candidate::new(target, e);
                sink(step(ctx, info, fish, 2, Some(h), &list, t))?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// A Kraken step whose chains are the start nodes only, until [`with_chains`].
fn step(
    ctx: &Ctx,
    info: &'static TechniqueInfo,
    fish: &Fish,
    kind: u8,
    from_cover: Option<HouseId>,
    starts: &[Cell],
    target: Candidate,
) -> Step {
    let d = fish.digit;
    let chains = starts
        .iter()
        .map(|&c| {
            vec![ChainNode {
                cells: vec![c],
                digit: d,
                on: true,
                als: Vec::new(),
            }]
        })
        .collect();
    let mut step = Step::new(
        info,
        Pattern::Kraken {
            digit: d,
            base: fish.base.to_vec(),
            cover: fish.covers.to_vec(),
            fins: fish.fins.to_vec(),
            name: fish_name(ctx, fish),
            kind,
            from_cover,
            chains,
            rules: Vec::new(),
        },
    )
    .eliminate(vec![target]);
    for &h in fish.base {
        step = step.house(h, Role::Base);
    }
    for &h in fish.covers {
        step = step.house(h, Role::Cover);
    }
    let body = fish.union.minus(fish.fins).to_vec();
    let fins = fish.fins.to_vec();
    step.candidates(&body, Digits::single(d), Role::Defining)
        .candidates(&fins, Digits::single(d), Role::Fin)
}

/// The fish a Kraken fish grows from: "Finned Swordfish", "Sashimi X-Wing", "Finned Franken
/// Jellyfish".
fn fish_name(ctx: &Ctx, fish: &Fish) -> String {
    let class = |hs: &[HouseId]| {
        let first = hs.first().and_then(|&h| ctx.t.line_class[h])?;
        hs.iter()
            .all(|&h| ctx.t.line_class[h] == Some(first))
            .then_some(first)
    };
    let size = match fish.base.len() {
        2 => "X-Wing",
        3 => "Swordfish",
        _ => "Jellyfish",
    };
    match (class(fish.base), class(fish.covers)) {
        (Some(a), Some(b)) if a != b => {
            let mut cover = CellSet::EMPTY;
            for &h in fish.covers {
                cover = cover.or(fish.cands[h]);
            }
            // Sashimi: a base line keeps at most one candidate in the cover without its fins.
            let sashimi = fish
                .base
                .iter()
                .any(|&h| fish.cands[h].and(cover).minus(fish.fins).len() <= 1);
            let kind = if sashimi { "Sashimi" } else { "Finned" };
            format!("{kind} {size}")
        }
        _ => format!("Finned Franken {size}"),
    }
}

/// Traces each chain of a step from its start to the eliminated candidate, and highlights
/// the links.
fn with_chains(imp: &ChainImplications, mut step: Step) -> Step {
    let Some(&target) = step.eliminations.first() else {
        return step;
    };
    let mut links = Vec::new();
    if let Pattern::Kraken { chains, rules, .. } = &mut step.pattern {
        let mut all_rules = Vec::new();
        for chain in chains.iter_mut() {
            let Some(start) = chain.first().map(|n| Candidate::new(n.cells[0], n.digit)) else {
                continue;
            };
            let (nodes, why) = imp.chain(start, target);
            if !nodes.is_empty() {
                *chain = nodes;
            }
            for w in chain.windows(2) {
                let kind = if w[1].on {
                    LinkKind::Strong
                } else {
                    LinkKind::Weak
                };
                links.push(Target::Link(
                    Candidate::new(w[0].cells[0], w[0].digit),
                    Candidate::new(w[1].cells[0], w[1].digit),
                    kind,
                ));
            }
            all_rules.push(why);
        }
        *rules = all_rules;
    }
    for target in links {
        step.highlights.push(Highlight {
            target,
            role: Role::Defining,
        });
    }
    step
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Kraken {
        digit,
        base,
        cover,
        fins,
        name,
        kind,
        from_cover,
        chains,
        rules,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let d = digit_char(*digit);
    let s = if fins.len() == 1 { "" } else { "s" };
    match detail {
        Detail::Nudge => format!("Look at {d} in {}", house_list(g, base)),
        Detail::Technique => format!(
            "There is a Kraken Fish on {d}: a {name} whose fin{s} chains link to an elimination"
        ),
        Detail::Full => {
            let texts: Vec<String> = chains
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    super::chain_text::ruled_text(g, c, rules.get(i).map_or(&[][..], |r| r))
                })
                .collect();
            let fish = format!(
                "{} (type {kind}) on {d}: a {name} with base {} and cover {}, and the fin{s} {}",
                step.name(),
                house_list(g, base),
                house_list(g, cover),
                cell_list(g, fins),
            );
            let why = match (kind, from_cover) {
                (2, Some(h)) => format!(
                    "either the fish holds, and {} holds its {d} in one of its base cells, or a \
                     fin holds {d}; every one of these removes the same candidate: {}",
                    house_name(g, *h),
                    texts.join("; ")
                ),
                _ => format!(
                    "without the fin{s} the fish would take {d} out of the cover, and each fin \
                     takes it out too: {}",
                    texts.join("; ")
                ),
            };
            format!("{fish}; {why}; so {}", effect_text(g, step))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::reglib;
    use super::super::{find_all, Detail};
    use crate::puzzle::Grid;

    /// Positions on the rating path of top1465 puzzles 1 and 36 (HoDoKu library notation)
    /// and those puzzles' solutions.
    const TOP1: &str =
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186";
    const TOP36: &str =
        "854926371326871954917543682789165423543297816162438795431782569675319248298654137";

    /// Every Kraken step of a position: its eliminations keep the solution's digits.
    fn kraken(g: &Grid, solution: &str) -> Vec<(String, String)> {
        let sol = solution.as_bytes();
        find_all(g, "kraken-fish")
            .iter()
            .map(|s| {
                for e in &s.eliminations {
                    assert_ne!(sol[e.cell] - b'0', e.digit, "unsound: {e:?}");
                }
                let e = s.eliminations[0];
                let name = format!("{}{}{}", e.digit, e.cell / 9 + 1, e.cell % 9 + 1);
                (name, s.explain(g.geometry(), Detail::Full))
            })
            .collect()
    }

    /// HoDoKu: Finned X-Wing 9 r56 c36, fin r5c4 linked to r1c6 by
    /// r5c4=9 -> r5c4<>4 -> r5c6=4 -> ... -> r1c9=9 -> r1c6<>9 (the chain needs the placed
    /// cell's other candidate, which plain forcing chains do not record).
    #[test]
    fn kraken_type_1_links_the_fin_to_the_target() {
        let g = reglib(
            "4...3.......6..8..........1....5..9..8....6...7.2........1+927..5+13...+94+29+2+7.+4.+1..",
            "513 913 523 923 533 933 643 444 446 447 449 153 253 453 459 163 463 663 466 678 878 \
             679 879 894 696 896 398 598 399 599",
        );
        let found = kraken(&g, TOP1);
        let (_, text) = found.iter().find(|(e, _)| e == "916").expect("r1c6<>9");
        assert!(text.starts_with("Kraken Fish (type "), "{text}");
        assert!(text.contains(" -> r1c6<>9"), "{text}");
        assert!(text.ends_with("remove 9 from r1c6"), "{text}");
    }

    #[test]
    fn kraken_type_1_with_two_fins_of_a_franken_swordfish() {
        let g = reglib(
            "....+2.+371+32.8.+1....+1.5.3...7.9+16......+32..8+1.1.+2.......3+1..25..6...1..4.+2.....+1..",
            "411 911 612 812 613 414 423 523 831 433 833 638 938 939 548 552 755 556 559 764 465 \
             565 765 965 368 369 974 475 775 878 879 882 783 984 586 786 492 592 892 593 793 994 \
             495 795 895 995 796 896 996 698 998",
        );
        let found = kraken(&g, TOP36);
        let (_, text) = found.iter().find(|(e, _)| e == "459").expect("r5c9<>4");
        assert!(text.contains("Finned"), "{text}");
        assert!(text.contains(" -> r5c9<>4"), "{text}");
    }

    /// Type 2 (found as such before): every start of one cover removes 5 from r3c2.
    #[test]
    fn kraken_type_2_joins_a_cover_and_its_fins() {
        let g = reglib(
            "4...3.......6..8..........1....5..9..8....6...7.2........1+927..5+13...+94+29+2+7.+4.+1..",
            "512 513 913 516 916 518 922 523 923 126 526 726 228 329 529 729 632 533 933 734 834 \
             436 936 237 537 538 643 444 446 447 349 449 153 253 453 354 754 459 163 463 663 466 \
             678 878 679 879 894 696 896 398 598 399 599",
        );
        let found = kraken(&g, TOP1);
        assert!(
            found
                .iter()
                .any(|(e, t)| e == "532" && t.contains(" -> r3c2<>5")),
            "{found:?}"
        );
    }
}
