//! `techniques`, `drill`, `bench --drills`, and reading positions with pencil marks for
//! `hint`, `explain` and `play`.

use super::output::Output;
use super::{EXIT_OK, EXIT_PUZZLE, EXIT_USAGE};
use crate::coach::drill::{self, Budget, Drill};
use crate::coach::marks::{self, Position};
use crate::coach::names;
use crate::coach::pages;
use crate::format;
use crate::puzzle::Variant;
use crate::solver::logic::{parse_technique, techniques, Detail, Family, Role, TechniqueInfo};
use serde_json::json;
use std::time::Duration;

/// The technique a user names, checked for the variant and for being tried by the solver.
pub fn resolve(name: &str, variant: Option<Variant>) -> Result<&'static TechniqueInfo, String> {
    let t = resolve_any(name, variant)?;
    if !t.enabled {
        return Err(format!(
            "{} ({}) is switched off in the technique table: the solver never takes it, so no \
             position has it as its next step",
            t.name, t.id
        ));
    }
    Ok(t)
}

/// Like [`resolve`], switched-off techniques included (`hint --technique` runs them on
/// request, as HoDoKu does for Kraken fish and the largest fish).
pub fn resolve_any(name: &str, variant: Option<Variant>) -> Result<&'static TechniqueInfo, String> {
    let t = parse_technique(name).map_err(|e| e.to_string())?;
    if let Some(v) = variant {
        names::check_variant(t, v)?;
    }
    Ok(t)
}

/// Reads `--marks` (a file, or the grid itself) and `--placed` beside an optional puzzle
/// into a position with its solution. Errors are printed; the exit status is returned.
pub fn load_position(
    variant: Variant,
    puzzle: Option<&str>,
    index: Option<u64>,
    marks: Option<&str>,
    placed: Option<&str>,
) -> Result<(Position, Vec<u8>), i32> {
    let usage = |e: &dyn std::fmt::Display| {
        eprintln!("termdoku: {e}");
        EXIT_USAGE
    };
    let puzzle = match puzzle {
        Some(arg) => {
            Some(super::format_cli::picked_puzzle(arg, variant, index).map_err(|e| usage(&e))?)
        }
        None if variant != Variant::Standard => {
            return Err(usage(
                &"--marks without a puzzle reads a standard 9x9 grid only: give the puzzle too",
            ))
        }
        None => None,
    };
    if let Some(p) = &puzzle {
        if !p.conflicts().is_empty() {
            eprintln!("termdoku: {}", super::clash_message(p));
            return Err(EXIT_PUZZLE);
        }
    }
    let marks_text = marks
        .map(marks::marks_argument)
        .transpose()
        .map_err(|e| usage(&e))?;
    let pos = marks::read_position(
        puzzle.as_ref(),
        marks_text.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
        placed.map(|l| (l, "--placed")),
    )
    .map_err(|e| usage(&e))?;
    match pos.solution() {
        Ok(sol) => Ok((pos, sol)),
        Err(e) => {
            eprintln!("termdoku: {e}");
            Err(EXIT_PUZZLE)
        }
    }
}

/// `termdoku techniques [NAME] [--variant V] [--json]`.
pub fn techniques_command(name: Option<&str>, variant: Option<Variant>, json: bool) -> i32 {
    let mut out = Output::buffered();
    let row = |t: &TechniqueInfo| {
        json!({
            "id": t.id,
            "name": t.name,
            "family": t.family.name(),
            "level": t.level,
            "score": t.score,
            "order": t.order,
            "enabled": t.enabled,
            "hodoku": t.hodoku_code(),
            "variants": names::variants(t).iter().map(|v| v.name()).collect::<Vec<_>>(),
        })
    };
    if let Some(name) = name {
        let t = match parse_technique(name) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("termdoku: {e}");
                return EXIT_USAGE;
            }
        };
        if let Some(v) = variant {
            if let Err(e) = names::check_variant(t, v) {
                eprintln!("termdoku: {e}");
                return EXIT_USAGE;
            }
        }
        let page = pages::page(t.id);
        let example = pages::example(t.id);
        if json {
            let mut r = row(t);
            r["page"] = json!(page.map(|p| json!({
                "pattern": p.pattern,
                "why": p.why,
                "spot": p.spot,
            })));
            r["example"] = json!(example.as_ref().map(example_json));
            let _ = out.line(r);
        } else {
            let variants: Vec<&str> = names::variants(t).iter().map(|v| v.name()).collect();
            let page = page_body(t, page, example.as_ref(), color_stdout());
            let _ = out.text(format_args!(
                "{} ({})\nfamily:       {}\nlevel:        {}\nscore:        {}\nsearch order: {}{}\nHoDoKu code:  {}\nvariants:     {}\n\n{page}",
                t.name,
                t.id,
                t.family.name(),
                t.level,
                t.score,
                t.order,
                if t.enabled { "" } else { " (switched off: the solver does not try it)" },
                t.hodoku_code().unwrap_or("-"),
                variants.join(", "),
            ));
        }
        return out.finish(EXIT_OK);
    }
    let rows = names::nameable().filter(|t| variant.is_none_or(|v| names::occurs_in(t, v)));
    if !json {
        let _ = out.line(format_args!(
            "{:<26} {:<28} {:<14} {:<8} {:>5}  variants",
            "id", "name", "family", "level", "score"
        ));
    }
    for t in rows {
        let written = if json {
            out.line(row(t))
        } else {
            let variants: Vec<&str> = names::variants(t).iter().map(|v| v.name()).collect();
            out.line(format_args!(
                "{:<26} {:<28} {:<14} {:<8} {:>5}  {}{}",
                t.id,
                t.name,
                t.family.name(),
                t.level.name(),
                t.score,
                variants.join(","),
                if t.enabled { "" } else { "  (off)" }
            ))
        };
        if written.is_break() {
            break;
        }
    }
    out.finish(EXIT_OK)
}

/// The example of a page as JSON: the position (as a drill gives it) and its step.
fn example_json(ex: &pages::Example) -> serde_json::Value {
    let p = &ex.position;
    let puzzle = match ex.variant {
        Variant::Jigsaw | Variant::Killer => format::write_toml(&p.puzzle),
        _ => format::write_line(&p.puzzle),
    };
    json!({
        "variant": ex.variant.name(),
        "puzzle": puzzle,
        "placed": marks::placed_line(&p.placed),
        "marks": marks::write_marks(&p.grid),
        "step": super::logic_cli::step_json(&ex.step, p.grid.geometry()),
    })
}

/// Colour for stdout: a terminal, and no `NO_COLOR`.
fn color_stdout() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// ANSI colour of a role on a terminal (the markers carry the role without it).
fn ansi(role: Role) -> &'static str {
    match role {
        Role::Elimination => "\x1b[1;31m",
        Role::Placement => "\x1b[1;32m",
        Role::Defining | Role::Base => "\x1b[1;34m",
        Role::Cover => "\x1b[36m",
        Role::Fin => "\x1b[35m",
        Role::Pivot | Role::Pincer => "\x1b[33m",
        Role::ColorA => "\x1b[1;36m",
        Role::ColorB => "\x1b[1;35m",
    }
}

/// A page as text: its three parts, the example position drawn with the step's roles
/// (markers, and colours on a terminal), and the step's text.
fn page_body(
    t: &TechniqueInfo,
    page: Option<&pages::PageText>,
    example: Option<&pages::Example>,
    color: bool,
) -> String {
    let mut out = String::new();
    if let Some(p) = page {
        for l in pages::text_lines(p, 80) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    let Some(ex) = example else {
        out.push_str(&format!(
            "The drill bank has no position for {} yet.\n",
            t.name
        ));
        return out;
    };
    out.push_str(&format!(
        "On a position from the drill bank ({}):\n\n",
        ex.variant.name()
    ));
    for row in pages::draw(&ex.position, &ex.step) {
        let mut line = String::new();
        for (text, role) in row {
            match role.filter(|_| color) {
                Some(r) => line.push_str(&format!("{}{text}\x1b[0m", ansi(r))),
                None => line.push_str(&text),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    out.push_str(pages::LEGEND);
    out.push_str("\n\n");
    let text = ex.step.explain(ex.position.grid.geometry(), Detail::Full);
    for l in pages::wrap(&text, 80, "") {
        out.push_str(&l);
        out.push('\n');
    }
    out.push_str(&format!(
        "\nPractise it: termdoku train {} (or termdoku drill --technique {})\n",
        t.id, t.id
    ));
    out
}

/// The JSON object of a drill (issue 19): technique, variant, puzzle (line, or TOML text
/// for jigsaw and killer), placed line, mark grid, and the step `hint --json` prints.
pub fn drill_json(d: &Drill) -> serde_json::Value {
    let v = d.puzzle.variant();
    let puzzle = match v {
        Variant::Jigsaw | Variant::Killer => format::write_toml(&d.puzzle),
        _ => format::write_line(&d.puzzle),
    };
    json!({
        "technique": d.technique.id,
        "variant": v.name(),
        "puzzle": puzzle,
        "placed": marks::placed_line(&d.placed),
        "marks": marks::write_marks(&d.grid),
        "step": super::logic_cli::step_json(&d.step, d.puzzle.geometry()),
    })
}

/// `termdoku drill --technique T [--variant V] [--count N] [--seed S] [--budget SECS]`.
pub fn drill_command(technique: &str, variant: Variant, count: u64, seed: u64, budget: f64) -> i32 {
    let t = match resolve(technique, Some(variant)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    let budget = Budget {
        puzzles: u64::MAX,
        time: Duration::from_secs_f64(budget),
    };
    let progress = crate::progress::Progress::start("puzzles walked", 0);
    let h = drill::find_reporting(variant, t, count, seed, budget, &mut |walked, found| {
        progress.set(walked, format!("{found} of {count} drills; puzzles walked"));
    });
    drop(progress);
    let mut out = Output::per_line();
    for d in &h.drills {
        if out.line(drill_json(d)).is_break() {
            return out.finish(EXIT_OK);
        }
    }
    if h.drills.len() < count {
        eprintln!(
            "termdoku: found {} of {count} {} drills in {} {variant} puzzles ({:.0} s budget): \
             it is rare there; raise --budget for more",
            h.drills.len(),
            t.id,
            h.puzzles,
            budget.time.as_secs_f64()
        );
        return out.finish(EXIT_PUZZLE);
    }
    out.finish(EXIT_OK)
}

/// `termdoku drill --bank --seed S --puzzles N`: the drill bank on standard output, a
/// header line first (seed, the command that regenerates it, the table's fingerprint, and
/// what could not be found).
pub fn bank_command(seed: u64, puzzles: u64) -> i32 {
    let mut drills = Vec::new();
    let mut missing = Vec::new();
    for v in Variant::ALL {
        let quota: Vec<usize> = techniques()
            .iter()
            .map(|t| drill::bank_quota(t, v))
            .collect();
        let walked = match v {
            Variant::Standard => puzzles,
            Variant::Killer => puzzles / 20,
            _ => puzzles / 10,
        };
        let progress =
            crate::progress::Progress::start(&format!("{v}"), usize::try_from(walked).unwrap_or(0));
        let h = drill::harvest_reporting(
            v,
            seed,
            &quota,
            Budget {
                puzzles: walked,
                time: Duration::MAX,
            },
            &mut |done, found| progress.set(done, format!("{v}: {found} drills")),
        );
        drop(progress);
        eprintln!(
            "{v}: {} drills from {} puzzles in {:.1} s",
            h.drills.len(),
            h.puzzles,
            h.elapsed.as_secs_f64()
        );
        for (t, &want) in techniques().iter().zip(&quota) {
            let got = h.drills.iter().filter(|d| d.technique.id == t.id).count();
            if got < want {
                missing.push(json!({
                    "technique": t.id,
                    "variant": v.name(),
                    "found": got,
                    "wanted": want,
                    "why": format!(
                        "the first step at only {got} positions of the {} puzzles walked",
                        h.puzzles
                    ),
                }));
            }
        }
        drills.extend(h.drills);
    }
    let mut out = Output::buffered();
    let header = json!({
        "termdoku-drill-bank": 1,
        "seed": seed,
        "command": format!("termdoku drill --bank --seed {seed} --puzzles {puzzles} > puzzles/drills.jsonl"),
        "table": drill::table_hash(),
        "drills": drills.len(),
        "missing": missing,
    });
    let _ = out.line(header);
    for d in &drills {
        if out.line(drill_json(d)).is_break() {
            break;
        }
    }
    out.finish(EXIT_OK)
}

/// Families timed by `bench --drills`, as the issue groups them.
const GROUPS: &[(&str, &[Family])] = &[
    ("singles", &[Family::Singles]),
    ("subsets", &[Family::Subsets, Family::Intersections]),
    ("fish", &[Family::Fish, Family::ComplexFish]),
    (
        "wings",
        &[Family::Wings, Family::SingleDigit, Family::Coloring],
    ),
    ("chains", &[Family::Chains]),
    ("als", &[Family::Als, Family::SueDeCoq]),
    ("uniqueness", &[Family::Uniqueness]),
    ("forcing", &[Family::Forcing, Family::Templates]),
];

/// `termdoku bench --drills`: wall time to a fresh drill (a search from a new seed for one
/// drill) per family, `count` searches per technique, each given up after `budget` s.
pub fn bench_drills(count: u64, seed: u64, budget: f64) -> i32 {
    let mut out = Output::per_line();
    let budget = Budget {
        puzzles: u64::MAX,
        time: Duration::from_secs_f64(budget),
    };
    let variant_group = ("variant techniques", &[][..]);
    for &(group, families) in GROUPS.iter().chain(std::iter::once(&variant_group)) {
        let members: Vec<&TechniqueInfo> = names::nameable()
            .filter(|t| t.enabled)
            .filter(|t| {
                if families.is_empty() {
                    names::is_variant_technique(t)
                } else {
                    families.contains(&t.family) && !names::is_variant_technique(t)
                }
            })
            .collect();
        let mut all = Vec::new();
        let mut slowest: Option<(f64, &str, usize)> = None;
        let mut missed = 0;
        // The techniques whose own median misses the 1 s aim, named with their figure.
        let mut over_1s = Vec::new();
        for t in &members {
            let v = names::variants(t).first().copied().unwrap_or_default();
            let mut times = Vec::new();
            for i in 0..count {
                let h = drill::find(v, t, 1, seed.wrapping_add(i), budget);
                let ms = h.elapsed.as_secs_f64() * 1e3;
                if h.drills.is_empty() {
                    missed += 1;
                }
                times.push(ms);
            }
            times.sort_by(f64::total_cmp);
            let med = times[times.len() / 2];
            if slowest.is_none_or(|s| med > s.0) {
                slowest = Some((med, t.id, times.len()));
            }
            if med > 1000.0 {
                over_1s.push(format!("{} {med:.0} ms", t.id));
            }
            all.extend(times);
        }
        all.sort_by(f64::total_cmp);
        let Some(&median) = all.get(all.len() / 2) else {
            continue;
        };
        let line = format!(
            "{group:<20} median {median:9.1} ms over {} searches ({} techniques; {missed} found nothing within {:.0} s){}",
            all.len(),
            members.len(),
            budget.time.as_secs_f64(),
            slowest.map_or(String::new(), |(ms, id, _)| format!("; slowest {id} {ms:.1} ms")),
        );
        let line = if over_1s.is_empty() {
            line
        } else {
            format!("{line}; over 1 s: {}", over_1s.join(", "))
        };
        if out.line(line).is_break() {
            break;
        }
    }
    out.finish(EXIT_OK)
}
