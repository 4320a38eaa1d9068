//! `hint`, `explain`, `rate` and `bench --logic`: the logic solver on the command line.

use super::output::Output;
use super::{clash_message, open_input, EXIT_OK, EXIT_PUZZLE, EXIT_USAGE};
use crate::batch;
use crate::geometry::Geometry;
use crate::progress::Progress;
use crate::puzzle::{Grid, Puzzle, Variant};
use crate::solver::exact;
use crate::solver::logic::{self, Detail, Step};
use crate::solver::rate::{self, Rating};
use serde_json::json;
use std::ops::ControlFlow;
use std::time::Instant;

/// Why a puzzle cannot be coached: conflicting givens, no solution, or several.
fn check(puzzle: &Puzzle) -> Result<Vec<u8>, String> {
    if !puzzle.conflicts().is_empty() {
        return Err(clash_message(puzzle));
    }
    let s = exact::solve(puzzle, 2);
    match (s.count, s.first) {
        (1, Some(sol)) => Ok(sol),
        (0, _) | (_, None) => Err("unsolvable".into()),
        _ => Err("not unique (multiple solutions)".into()),
    }
}

fn load(arg: &str, variant: Variant, index: Option<u64>) -> Result<(Puzzle, Vec<u8>), i32> {
    let puzzle = super::format_cli::picked_puzzle(arg, variant, index).map_err(|e| {
        eprintln!("termdoku: {e}");
        EXIT_USAGE
    })?;
    let sol = check(&puzzle).map_err(|m| {
        eprintln!("{}: {m}", place(arg));
        EXIT_PUZZLE
    })?;
    Ok((puzzle, sol))
}

/// Where a `PUZZLE` argument's puzzle is, for messages: `FILE:1` or `<arg>:1`.
pub(super) fn place(arg: &str) -> String {
    if std::path::Path::new(arg).is_file() {
        format!("{arg}:1")
    } else {
        "<arg>:1".to_string()
    }
}

/// The JSON object of one step (design.md section 4).
pub fn step_json(step: &Step, g: &Geometry) -> serde_json::Value {
    let cands = |v: &[logic::Candidate]| -> Vec<serde_json::Value> {
        v.iter()
            .map(|c| json!({"cell": g.cell_name(c.cell), "digit": c.digit}))
            .collect()
    };
    let houses: Vec<String> = step
        .houses()
        .into_iter()
        .filter_map(|h| g.houses().get(h).map(|h| h.name()))
        .collect();
    json!({
        "technique": step.id(),
        "name": step.name(),
        "level": step.technique.level,
        "score": step.technique.score,
        "placements": cands(&step.placements),
        "eliminations": cands(&step.eliminations),
        "houses": houses,
        "text": step.explain(g, Detail::Full),
    })
}

fn summary_json(r: &Rating) -> serde_json::Value {
    json!({
        "solved": r.solved,
        "steps": r.steps,
        "level": r.level,
        "score": r.score,
        "hardest": r.hardest,
        "guesses": r.guesses,
    })
}

/// The starting grid and solution of `hint` and `explain`: the puzzle, or the position
/// that `--marks`/`--placed` describe.
fn start(
    variant: Variant,
    arg: Option<&str>,
    index: Option<u64>,
    position: &super::PositionOpts,
) -> Result<(Grid, Vec<u8>), i32> {
    if position.is_set() {
        let (pos, sol) = super::coach_cli::load_position(
            variant,
            arg,
            index,
            position.marks.as_deref(),
            position.placed.as_deref(),
        )?;
        return Ok((pos.grid, sol));
    }
    let (puzzle, sol) = load(arg.unwrap_or_default(), variant, index)?;
    Ok((Grid::from_puzzle(&puzzle), sol))
}

pub fn hint(
    variant: Variant,
    json: bool,
    arg: Option<&str>,
    index: Option<u64>,
    position: &super::PositionOpts,
) -> i32 {
    let (grid, sol) = match start(variant, arg, index, position) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let g = grid.geometry();
    let mut out = Output::buffered();
    let _ = match logic::next_step(&grid, Some(&sol), &mut logic::SolverMemory::new()) {
        Some(step) if json => out.line(step_json(&step, g)),
        Some(step) => out.line(step.explain(g, Detail::Full)),
        None if json => out.line(json!({"solved": true})),
        None => out.line("The puzzle is already solved."),
    };
    out.finish(EXIT_OK)
}

/// `hint --technique T`: the first step of one technique, or that it has none here, or
/// (for a bounded search that ran out) how much was searched.
pub fn hint_technique(
    variant: Variant,
    json: bool,
    info: &'static logic::TechniqueInfo,
    arg: Option<&str>,
    index: Option<u64>,
    position: &super::PositionOpts,
) -> i32 {
    let (grid, sol) = match start(variant, arg, index, position) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let g = grid.geometry();
    let mut out = Output::buffered();
    let (step, searched) = logic::find_technique(&grid, info, Some(&sol));
    let _ = match (step, searched) {
        (Some(step), _) if json => out.line(step_json(&step, g)),
        (Some(step), _) => out.line(step.explain(g, Detail::Full)),
        (None, searched) => {
            let text = match searched {
                Some(s) => format!(
                    "{}: searched {} of {} {}; no step found within the limit",
                    info.name, s.done, s.total, s.unit
                ),
                None => format!("No {} in this position", info.name),
            };
            if json {
                out.line(json!({
                    "technique": info.id,
                    "found": false,
                    "complete": searched.is_none(),
                    "searched": searched.map(|s| s.done),
                    "of": searched.map(|s| s.total),
                    "text": text,
                }))
            } else {
                out.line(text)
            }
        }
    };
    out.finish(EXIT_OK)
}

pub fn explain(
    variant: Variant,
    json: bool,
    arg: Option<&str>,
    index: Option<u64>,
    position: &super::PositionOpts,
) -> i32 {
    let (grid, sol) = match start(variant, arg, index, position) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let geometry = grid.geometry_arc();
    let g = &*geometry;
    // Each step is written when found (a hard honeycomb takes seconds to minutes): on a
    // terminal the lines are the progress; written to a file or a pipe, a step count on
    // the terminal says the work goes on.
    let progress = (!std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .then(|| Progress::start("steps", 0));
    let mut out = Output::per_line();
    let mut memory = logic::SolverMemory::new();
    let mut n = 0;
    let (steps, solved) = rate::walk(grid, |grid| {
        let step = logic::next_step(grid, Some(&sol), &mut memory)?;
        n += 1;
        let written = if json {
            out.line(step_json(&step, g))
        } else {
            out.line(format_args!("{n:3}. {}", step.explain(g, Detail::Full)))
        };
        if let Some(p) = &progress {
            p.add(1);
        }
        // A closed reader stops the walk.
        written.is_continue().then_some(step)
    });
    drop(progress);
    if out.closed() {
        return out.finish(EXIT_OK);
    }
    let rating = Rating::of_path(&steps, solved);
    let _ = if json {
        out.line(summary_json(&rating))
    } else {
        out.line(format_args!(
            "{} in {} steps: {} {} (hardest: {}; {} guess{})",
            if rating.solved { "Solved" } else { "Stopped" },
            rating.steps,
            rating.level,
            rating.score,
            rating
                .hardest
                .and_then(logic::technique)
                .map_or("none", |t| t.name),
            rating.guesses,
            if rating.guesses == 1 { "" } else { "es" }
        ))
    };
    out.finish(EXIT_OK)
}

/// "hard 1240", with guesses named when the logic had to take any.
fn rating_line(r: &Rating) -> String {
    match r.guesses {
        0 => format!("{} {}", r.level, r.score),
        1 => format!("{} {} (1 guess)", r.level, r.score),
        n => format!("{} {} ({n} guesses)", r.level, r.score),
    }
}

pub fn rate(variant: Variant, file: Option<&str>) -> i32 {
    let (name, items) = match open_input(file, variant) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let mut out = Output::per_line();
    let mut status = EXIT_OK;
    let mut seen = false;
    // Ratings written to a file or a pipe show nothing for minutes on a hard set: count
    // them on the terminal (on a terminal's stdout the lines themselves are the progress).
    let progress = (!std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .then(|| Progress::start("rated", 0));
    batch::map_ordered(
        items,
        batch::default_threads(),
        64,
        |item| match item {
            Ok((_, Some(p))) => {
                Some(check(p).map(|sol| rate::solve_grid(Grid::from_puzzle(p), Some(&sol)).1))
            }
            _ => None,
        },
        |item, result| {
            let line = match item {
                Ok((_, None)) => return ControlFlow::Continue(()),
                Ok((line, Some(_))) => line,
                Err(e) => {
                    eprintln!("termdoku: {e}");
                    status = EXIT_USAGE;
                    seen = true;
                    return out.line("error");
                }
            };
            seen = true;
            if let Some(p) = &progress {
                p.add(1);
            }
            match result {
                Some(Ok(r)) => out.line(rating_line(&r)),
                Some(Err(m)) => {
                    // The same words as `solve`: invalid, unsolvable, multiple.
                    let word = if m.starts_with("not unique") {
                        "multiple"
                    } else if m.starts_with("unsolvable") {
                        "unsolvable"
                    } else {
                        super::INVALID
                    };
                    eprintln!("{name}:{line}: {m}");
                    status = status.max(EXIT_PUZZLE);
                    out.line(word)
                }
                None => ControlFlow::Continue(()),
            }
        },
    );
    drop(progress);
    if !seen && !out.closed() {
        eprintln!("termdoku: {name}: empty input (expected puzzle lines)");
        return EXIT_USAGE;
    }
    out.finish(status)
}

pub fn bench(
    variant: Variant,
    threads: Option<usize>,
    file: &std::path::Path,
    slowest: usize,
    cold: bool,
) -> i32 {
    let threads = threads.unwrap_or_else(batch::default_threads);
    let name = file.display().to_string();
    let (_, items) = match open_input(Some(&name), variant) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    // Parse and solve exactly first, so the figure is the logic solver's alone. Like
    // `rate`, only puzzles with one solution are rated: the others have no single
    // logical path (and an empty 16x16 grid would take hours of guessing).
    let (mut puzzles, mut unreadable, mut refused) = (Vec::new(), 0usize, 0usize);
    for item in items {
        match item {
            Ok((_, None)) => {}
            Ok((line, Some(p))) => match check(&p) {
                Ok(sol) => puzzles.push((p, sol)),
                Err(m) => {
                    if refused < 3 {
                        eprintln!("{name}:{line}: {m}: not timed");
                    }
                    refused += 1;
                }
            },
            Err(e) => {
                eprintln!("termdoku: {e}");
                unreadable += 1;
            }
        }
    }
    if refused > 3 {
        eprintln!(
            "termdoku: {name}: {refused} puzzles not timed (invalid, unsolvable or not unique)"
        );
    }
    if puzzles.is_empty() {
        eprintln!("termdoku: {name}: no puzzle with one solution to time");
        return EXIT_USAGE;
    }
    let progress = Progress::start("rating", puzzles.len());
    let start = Instant::now();
    let (mut n, mut solved, mut no_guess, mut steps) = (0usize, 0usize, 0usize, 0usize);
    batch::map_ordered(
        puzzles.iter(),
        threads,
        64,
        |(p, sol)| rate::solve_grid(Grid::from_puzzle(p), Some(sol)).1,
        |_, r| {
            n += 1;
            solved += usize::from(r.solved);
            no_guess += usize::from(r.solved && r.guesses == 0);
            steps += r.steps;
            progress.add(1);
            ControlFlow::Continue(())
        },
    );
    drop(progress);
    let secs = start.elapsed().as_secs_f64();
    let mut out = Output::per_line();
    let _ = out.line(format_args!(
        "{name}: logic rating: {n} puzzles in {secs:.3} s = {:.0} puzzles/s ({threads} threads; {} steps; {no_guess} finished without a guess = {:.1}%; {solved} solved)",
        n as f64 / secs.max(1e-9),
        steps,
        100.0 * no_guess as f64 / (n.max(1)) as f64
    ));
    // One thread: a player waits for one hint at a time.
    if !out.closed() {
        hint_latency(&mut out, &name, &puzzles, 1, slowest, cold);
    }
    out.finish(if unreadable > 0 { EXIT_USAGE } else { EXIT_OK })
}

/// Times `next_step` on every position along each puzzle's solution path and prints the
/// percentiles: the delay a player waits after pressing the hint key. `slowest` > 0 also
/// lists that many of the slowest hints, to show which technique to speed up.
///
/// What searches remember between positions is dropped before each puzzle (the rating pass
/// above saw the same positions), and with `cold` before each position too.
fn hint_latency(
    out: &mut Output,
    name: &str,
    puzzles: &[(Puzzle, Vec<u8>)],
    threads: usize,
    slowest: usize,
    cold: bool,
) {
    let progress = Progress::start("hints", puzzles.len());
    // (ms, puzzle number from 1, step number from 1, technique)
    let mut times: Vec<(f64, usize, usize, &'static str)> = Vec::new();
    let mut count = 0;
    batch::map_ordered(
        puzzles.iter(),
        threads,
        16,
        |(p, sol)| {
            let mut grid = Grid::from_puzzle(p);
            let mut out = Vec::new();
            let mut memory = logic::SolverMemory::new();
            while !grid.is_solved() {
                if cold {
                    memory.forget();
                }
                let start = Instant::now();
                let Some(step) = logic::next_step(&grid, Some(sol), &mut memory) else {
                    break;
                };
                let ms = start.elapsed().as_secs_f64() * 1e3;
                out.push((ms, out.len() + 1, step.name()));
                logic::apply(&mut grid, &step);
            }
            out
        },
        |_, t| {
            count += 1;
            times.extend(t.into_iter().map(|(ms, k, tech)| (ms, count, k, tech)));
            progress.add(1);
            ControlFlow::Continue(())
        },
    );
    drop(progress);
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let pct = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q) as usize)
            .map_or(0.0, |t| t.0)
    };
    let _ = out.line(format_args!(
        "{name}: next hint{} over {} positions: p50 {:.3} ms, p95 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        if cold { " (cold)" } else { "" },
        times.len(),
        pct(0.5),
        pct(0.95),
        pct(0.99),
        times.last().map_or(0.0, |t| t.0)
    ));
    for &(ms, puzzle, step, technique) in times.iter().rev().take(slowest) {
        if out
            .line(format_args!(
                "  {ms:9.3} ms  puzzle {puzzle} step {step}: {technique}"
            ))
            .is_break()
        {
            break;
        }
    }
}
