use super::super::testutil::grid;
use super::super::{find_all, next_step, SolverMemory};
use super::{search, Engine, Mode};
use std::ops::ControlFlow;

/// The rule memo stores, beside each result, the result for the masks it leaves (what a
/// net asks next): that is only right if the rule keeps everything it kept once.
#[test]
fn a_run_rule_keeps_what_it_kept() {
    let mut next = super::super::testutil::xorshift(0x9E37_79B9_7F4A_7C15u64);
    let mut narrowed = 0;
    for len in 5..=9usize {
        let sets: Vec<u16> = (1..=10 - len)
            .map(|lo| (((1u32 << len) - 1) << (lo - 1)) as u16)
            .collect();
        for _ in 0..20_000 {
            let masks: Vec<u16> = (0..len).map(|_| next() as u16 & 0x1ff).collect();
            let once = super::engine::rule_out(&sets, &masks);
            if once.broken {
                continue;
            }
            let kept: Vec<u16> = masks
                .iter()
                .zip(&once.allowed)
                .map(|(&m, &a)| m & a)
                .collect();
            narrowed += usize::from(kept != masks);
            let twice = super::engine::rule_out(&sets, &kept);
            assert!(!twice.broken, "{masks:?}");
            assert_eq!(&twice.allowed[..len], &kept[..], "{masks:?}");
            assert_eq!(twice.must, once.must, "{masks:?}");
        }
    }
    assert!(
        narrowed > 1000,
        "the sample must exercise the rule: {narrowed}"
    );
}

/// A hard puzzle (top1465 #1 style) where the first step beyond the basic techniques
/// is a forcing step; every forcing step found must keep the true digits.
#[test]
fn forcing_steps_are_sound_on_a_hard_puzzle() {
    let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let g = grid(line);
    let p = crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Standard, "t", 1)
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
    assert!(next_step(&g, None, &mut super::super::SolverMemory::new()).is_some());
}

/// On a honeycomb grid the chains follow the run rules of the lines (which the old
/// propagation, singles in complete houses only, could not), stay sound, and say which
/// line made each such inference.
#[test]
fn honeycomb_chains_use_the_run_rules() {
    use crate::format::parse_line;
    use crate::puzzle::{Grid, Variant};
    let line = "..........4....16..53....7.9.........3............46.........";
    let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
        .unwrap()
        .unwrap();
    let g = Grid::from_puzzle(&p);
    let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
    let steps = find_all(&g, "forcing-chain");
    assert!(!steps.is_empty());
    let mut ruled = 0;
    for s in &steps {
        for e in &s.eliminations {
            assert_ne!(sol[e.cell], e.digit);
        }
        for pl in &s.placements {
            assert_eq!(sol[pl.cell], pl.digit);
        }
        let text = s.explain(g.geometry(), super::Detail::Full);
        if text.contains(" (run of ") || text.contains(" needs ") {
            ruled += 1;
        }
    }
    assert!(ruled > 0, "no chain names a run rule");
}

/// A honeycomb (made by termdoku's generator) whose path meets nested nets within a few
/// steps, and its solution.
fn nested_net_puzzle() -> (crate::puzzle::Grid, Vec<u8>) {
    let (p, sol) = honeycomb_line("......3......9.7.............................6.5......8......");
    (crate::puzzle::Grid::from_puzzle(&p), sol)
}

/// Calls `at` on each position of the nested-net puzzle's logical path, up to `steps`
/// positions (the path's steps taken with one warm memory).
fn walk_nested(steps: usize, mut at: impl FnMut(&crate::puzzle::Grid)) {
    let (mut g, sol) = nested_net_puzzle();
    let mut memory = SolverMemory::new();
    for _ in 0..steps {
        if g.is_solved() {
            break;
        }
        at(&g);
        let step = next_step(&g, Some(&sol), &mut memory).expect("a step");
        crate::solver::logic::apply(&mut g, &step);
    }
}

/// A honeycomb puzzle from its line, and its solution.
fn honeycomb_line(line: &str) -> (crate::puzzle::Puzzle, Vec<u8>) {
    let p = crate::format::parse_line(line.as_bytes(), crate::puzzle::Variant::Honeycomb, "t", 1)
        .unwrap()
        .unwrap();
    let sol = crate::solver::exact::solve(&p, 2).first.unwrap();
    (p, sol)
}

/// A nested net's proof starts at its assumption and says why a removal made inside the
/// branch holds, rather than starting at that removal as if it were assumed.
#[test]
fn a_nested_net_shows_its_assumption_and_why() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let mut nested = None;
    let mut memory = SolverMemory::new();
    for _ in 0..8 {
        let s = next_step(&g, Some(&sol), &mut memory).expect("a step");
        for e in &s.eliminations {
            assert_ne!(sol[e.cell], e.digit);
        }
        let text = s.explain(g.geometry(), super::Detail::Full);
        if text.contains("would lead to a contradiction") {
            nested = Some((s, text));
            break;
        }
        apply(&mut g, &s);
    }
    let (s, text) = nested.expect("a nested net within 8 steps");
    // "Forcing Net: r3c4=6 -> r2c3<>7 (r2c3=7 would lead ...) -> ...; so remove 6 from r3c4"
    let target = &s.eliminations[0];
    let assumed = format!(
        "Forcing Net: {}={} -> ",
        g.geometry().cell_name(target.cell),
        crate::geometry::digit_char(target.digit)
    );
    assert!(text.starts_with(&assumed), "{text}");
}

/// The first useful step of the net search at `g` and the mode that found it, trying
/// `modes` in turn as `find` does.
fn first_by_mode(g: &crate::puzzle::Grid, modes: &[Mode]) -> Option<(Mode, super::Step)> {
    let memory = SolverMemory::new();
    let ctx = super::Ctx::new(g, &memory);
    let e = Engine::new(&ctx);
    let info = super::super::technique("forcing-net").expect("forcing-net");
    let mut reach = Vec::new();
    for &mode in modes {
        let mut found = None;
        let _ = search(
            &e,
            info,
            mode,
            &mut |s: super::Step| {
                if super::super::useful(g, &s) {
                    found = Some(s);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            },
            &mut reach,
        );
        if let Some(s) = found {
            return Some((mode, s));
        }
    }
    None
}

/// Known nesting removes candidates where plain nets find nothing, soundly, and says
/// which inner candidate would lead to a contradiction.
#[test]
fn known_nesting_finds_what_plain_nets_miss() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let mut known = 0;
    let mut memory = SolverMemory::new();
    for _ in 0..40 {
        if g.is_solved() {
            break;
        }
        if let Some((Mode::Known, s)) = first_by_mode(&g, &[Mode::Net, Mode::Known]) {
            for x in &s.eliminations {
                assert_ne!(
                    sol[x.cell],
                    x.digit,
                    "{}",
                    s.explain(g.geometry(), super::Detail::Full)
                );
            }
            let text = s.explain(g.geometry(), super::Detail::Full);
            assert!(text.contains("would lead to a contradiction"), "{text}");
            known += 1;
        }
        let step = next_step(&g, Some(&sol), &mut memory).expect("a step");
        apply(&mut g, &step);
    }
    assert!(
        known >= 1,
        "the path should meet a step only known nesting finds"
    );
}

/// What nested branches left on earlier positions only saves time: along a path with
/// nested nets, each step found with that memory (breakers forgotten) is the step found
/// from an empty one, and every elimination is sound.
#[test]
fn remembered_branches_change_no_step() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let mut memory = SolverMemory::new();
    let mut nets = 0;
    for _ in 0..40 {
        if g.is_solved() {
            break;
        }
        memory.forget_breakers();
        let warm = next_step(&g, Some(&sol), &mut memory).expect("a step");
        let cold = next_step(&g, Some(&sol), &mut SolverMemory::new()).expect("a step");
        let text = |s: &super::Step| s.explain(g.geometry(), super::Detail::Full);
        assert_eq!(text(&warm), text(&cold));
        for x in &warm.eliminations {
            assert_ne!(sol[x.cell], x.digit, "{}", text(&warm));
        }
        nets += usize::from(warm.id() == "forcing-net");
        apply(&mut g, &warm);
    }
    assert!(nets >= 3, "the path should meet forcing nets");
}

/// Breakers remembered from earlier positions choose steps, so a walk starts with a
/// fresh memory: solving a puzzle gives the same path whatever was solved before.
#[test]
fn a_walk_does_not_depend_on_earlier_walks() {
    use crate::solver::rate::solve_grid;
    let (g, sol) = nested_net_puzzle();
    let names = |steps: &[super::Step]| {
        let geo = g.geometry();
        steps
            .iter()
            .map(|s| s.explain(geo, super::Detail::Full))
            .collect::<Vec<_>>()
    };
    let first = names(&solve_grid(g.clone(), Some(&sol)).0);
    // Half way through, so that breakers of later positions are remembered.
    let mut half = g.clone();
    let (steps, _) = solve_grid(g.clone(), Some(&sol));
    for s in &steps[..steps.len() / 2] {
        crate::solver::logic::apply(&mut half, s);
    }
    let _ = solve_grid(half, Some(&sol));
    assert_eq!(first, names(&solve_grid(g.clone(), Some(&sol)).0));
}

/// A known solution only orders the search: along a path with nested nets, the step
/// found with it is the step found without it (from the same memory of breakers).
#[test]
fn the_solution_changes_no_step() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let mut nets = 0;
    let mut memory = SolverMemory::new();
    for _ in 0..10 {
        memory.forget_breakers();
        let with = next_step(&g, Some(&sol), &mut memory).expect("a step");
        memory.forget_breakers();
        let without = next_step(&g, None, &mut memory).expect("a step");
        let text = |s: &super::Step| s.explain(g.geometry(), super::Detail::Full);
        assert_eq!(text(&with), text(&without));
        assert_eq!(with.eliminations, without.eliminations);
        assert_eq!(with.placements, without.placements);
        nets += usize::from(with.id() == "forcing-net");
        apply(&mut g, &with);
    }
    assert!(nets >= 2, "the path should meet forcing nets");
}

/// A hint worker keeps its memory, breakers included, for a whole game: the steps it
/// gives may differ from a fresh walk's, but every one is sound and the walk solves.
#[test]
fn a_warm_memory_gives_sound_steps() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let mut memory = SolverMemory::new();
    while !g.is_solved() {
        let s = next_step(&g, Some(&sol), &mut memory).expect("a step");
        for x in &s.eliminations {
            assert_ne!(sol[x.cell], x.digit, "{}", s.id());
        }
        for x in &s.placements {
            assert_eq!(sol[x.cell], x.digit, "{}", s.id());
        }
        apply(&mut g, &s);
    }
}

/// Puzzle 4 of the hard honeycombs (`hanicue-hard.txt`) where it needed a guess: plain and
/// nested nets are stuck there (the walk reached a guess), and its solution.
fn stuck_honeycomb() -> (crate::puzzle::Grid, Vec<u8>) {
    let (p, sol) = honeycomb_line("............................................2........46.8..7.");
    let mut marks = include_str!("../../../../tests/honeycomb_hard_marks.txt").lines();
    let (m, placed) = (marks.next().unwrap(), marks.next().unwrap());
    let pos =
        crate::coach::marks::read_position(Some(&p), Some((m, "marks")), Some((placed, "placed")))
            .unwrap();
    (pos.grid, sol)
}

/// Two levels down, a branch the nets could not break does break: the step keeps the
/// solution and its proof names the inner assumption ruled out by a nested net.
#[test]
fn a_deep_net_breaks_where_nested_nets_are_stuck() {
    use super::super::{find_first, technique};
    let (g, sol) = stuck_honeycomb();
    let info = technique("deep-forcing-net").unwrap();
    assert!(info.enabled, "on the default path, last before a guess");
    let step = find_first(&g, info, Some(&sol), &mut |_| true).expect("a deep net");
    assert!(!step.eliminations.is_empty());
    for e in &step.eliminations {
        assert_ne!(sol[e.cell], e.digit, "removes the true digit");
    }
    let geo = g.geometry();
    assert_eq!(
        step.explain(geo, super::Detail::Full),
        "Deep Forcing Net: r8c3=1 -> r1c2<>7 (r1c2=7 would lead to a contradiction by a \
         nested net) -> r1c2=8 -> r5c6<>8 -> r5c8=8 -> r6c7<>8 -> r3c5=1 (\\ line 7 needs 1) \
         -> r5c5<>1 leads to a contradiction (r5c5 has no candidate left); so remove 1 from r8c3"
    );
    assert_eq!(
        step.explain(geo, super::Detail::Nudge),
        "Try an assumption at r8c3 and follow it"
    );
    assert_eq!(
        step.explain(geo, super::Detail::Technique),
        "There is a Deep Forcing Net: assume a candidate and follow what it forces, removing \
         on the way every candidate whose own nested net breaks"
    );
}

/// Plain grids never take a deep net: their nets nest as deep as they need.
#[test]
fn a_deep_net_leaves_plain_grids_alone() {
    let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    assert!(find_all(&grid(line), "deep-forcing-net").is_empty());
}

/// Every forcing-net step of a position (nested verities included): those found with a
/// memory that knows where each nested branch ends (so the verities make only the branches
/// they can use) are those found from an empty memory, in the same order.
#[test]
fn known_branch_ends_change_no_verity() {
    use crate::solver::logic::apply;
    let (mut g, sol) = nested_net_puzzle();
    let info = super::super::technique("forcing-net").expect("forcing-net");
    let all = |g: &crate::puzzle::Grid, memory: &SolverMemory| {
        let ctx = super::Ctx::new(g, memory).with_solution(Some(&sol));
        let mut out = Vec::new();
        let _ = super::find(&ctx, info, &mut |s| {
            out.push(s.explain(g.geometry(), super::Detail::Full));
            ControlFlow::Continue(())
        });
        out
    };
    // Walk to the first position whose step needs a nested net.
    let mut memory = SolverMemory::new();
    for _ in 0..8 {
        let s = next_step(&g, Some(&sol), &mut memory).expect("a step");
        if s.explain(g.geometry(), super::Detail::Full)
            .contains("would lead to a contradiction")
        {
            break;
        }
        apply(&mut g, &s);
    }
    let cold = all(&g, &SolverMemory::new());
    let mut warm_memory = SolverMemory::new();
    let _ = all(&g, &warm_memory);
    warm_memory.forget_breakers();
    let warm = all(&g, &warm_memory);
    assert_eq!(warm, cold);
    assert!(
        cold.iter()
            .any(|t| t.contains("would lead to a contradiction")),
        "the position has nested steps"
    );
}

/// Where the nets of a position prove that forcing chains find nothing, the chain search
/// run in full finds nothing: along a walk that meets forcing chains, at every position.
#[test]
fn chains_the_nets_rule_out_find_nothing() {
    let info = super::super::technique("forcing-chain").expect("forcing-chain");
    let (mut barren, mut found) = (0, 0);
    walk_nested(40, |g| {
        let bound_memory = SolverMemory::new();
        let ruled_out = super::bound::chains_barren(&super::Ctx::new(g, &bound_memory));
        let chain_memory = SolverMemory::new();
        let ctx = super::Ctx::new(g, &chain_memory);
        let mut e = Engine::new(&ctx);
        e.cell_links = true;
        let mut steps = 0;
        let _ = search(
            &e,
            info,
            Mode::Chain,
            &mut |s: super::Step| {
                steps += usize::from(super::super::useful(g, &s));
                ControlFlow::Continue(())
            },
            &mut Vec::new(),
        );
        assert!(!(ruled_out && steps > 0), "{steps} chain steps ruled out");
        barren += usize::from(ruled_out);
        found += usize::from(steps > 0);
    });
    assert!(
        barren >= 3 && found >= 3,
        "{barren} barren, {found} with chains"
    );
}

/// A net taken from the position's shared ones is the net derived afresh, fact for fact
/// and parent for parent, at every position of a walk (known-nesting and nested branches
/// start from it).
#[test]
fn a_shared_net_is_the_net_made_afresh() {
    let mut shared = 0;
    walk_nested(12, |g| {
        let net_memory = SolverMemory::new();
        let ctx = super::Ctx::new(g, &net_memory);
        let e = Engine::new(&ctx);
        assert!(e.shares_nets());
        for c in ctx.empty.iter() {
            for d in ctx.cand[c].iter() {
                let assume = super::fact(c, d, true);
                let first = e.branch(assume, Mode::Net);
                let kept = e.branch(assume, Mode::Net);
                let mut fresh = e.root();
                let mut queue = Vec::new();
                e.derive(&mut fresh, assume, super::NONE, &mut queue);
                e.run(&mut fresh, &mut queue, Mode::Net);
                for b in [&first, &kept] {
                    assert_eq!(b.derived, fresh.derived);
                    assert_eq!(b.parent, fresh.parent);
                    assert_eq!(b.cand, fresh.cand);
                    assert_eq!(b.value, fresh.value);
                    assert_eq!(b.contradiction, fresh.contradiction);
                }
                shared += 1;
            }
        }
    });
    assert!(shared > 500, "{shared}");
}

/// What the chain bound rests on: a forcing chain breaks only where the net of the same
/// assumption breaks, and every fact of an unbroken chain holds where that net ends (both
/// states of every candidate, at every position of a walk).
#[test]
fn every_chain_fact_holds_in_its_nets_end() {
    let mut facts = 0;
    walk_nested(12, |g| {
        let m = SolverMemory::new();
        let ctx = super::Ctx::new(g, &m);
        let nets = Engine::new(&ctx);
        let mut chains = Engine::new(&ctx);
        chains.cell_links = true;
        for c in ctx.empty.iter() {
            for d in ctx.cand[c].iter() {
                for on in [true, false] {
                    let assume = super::fact(c, d, on);
                    let chain = chains.branch(assume, Mode::Chain);
                    let net = nets.branch(assume, Mode::Net);
                    if net.contradiction.is_some() {
                        continue;
                    }
                    assert!(chain.contradiction.is_none());
                    let end = super::engine::masks_of(&net);
                    for &f in &chain.derived {
                        let (fc, fd, fon) = super::unfact(f);
                        let bit = 1u16 << (fd - 1);
                        match fon {
                            true => assert_eq!(end[fc], bit),
                            false => assert_eq!(end[fc] & bit, 0),
                        }
                        facts += 1;
                    }
                }
            }
        }
    });
    assert!(facts > 10_000, "{facts}");
}

/// Net ends agree on a fact a verity would take when every end removes the same candidate
/// or places the same digit; not when each removes a different one, nor in a group of one.
#[test]
fn net_ends_agree_only_on_common_facts() {
    let g =
        grid("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........");
    let m = SolverMemory::new();
    let ctx = super::Ctx::new(&g, &m);
    let c = ctx
        .empty
        .iter()
        .find(|&c| ctx.cand[c].len() >= 3)
        .expect("a cell");
    let start: Vec<u16> = (0..81).map(|x| super::super::mask(&ctx, x)).collect();
    let digits: Vec<u8> = ctx.cand[c].iter().collect();
    let without = |d: u8| {
        let mut e = start.clone();
        e[c] &= !(1 << (d - 1));
        e
    };
    let placed = |d: u8| {
        let mut e = start.clone();
        e[c] = 1 << (d - 1);
        e
    };
    let agree =
        |ends: &[&Vec<u16>]| super::bound::agree(&ctx, &mut ends.iter().map(|e| Some(&e[..])));
    let (a, b) = (digits[0], digits[1]);
    assert!(agree(&[&without(a), &without(a)]));
    assert!(agree(&[&placed(a), &placed(a)]));
    assert!(!agree(&[&placed(a), &placed(b), &without(a)]));
    assert!(!agree(&[&without(a), &without(b)]));
    // Placing two different digits removes a third from both.
    assert!(agree(&[&placed(a), &placed(b)]));
    assert!(!agree(&[&without(a)]));
    assert!(super::bound::agree(
        &ctx,
        &mut [None, Some(&start[..])].into_iter()
    ));
}
