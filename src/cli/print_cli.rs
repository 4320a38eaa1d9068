//! `export --format svg|pdf`: one puzzle a page, a player's position with pencil marks, or a
//! booklet of a whole collection; and the options and output file every `export` shares.

use super::{EXIT_OK, EXIT_USAGE};
use crate::coach::marks;
use crate::format;
use crate::geometry::Digits;
use crate::print::booklet::{self, Booklet, Entry};
use crate::print::layout::{describe, puzzle_page};
use crate::print::{pdf, svg, Fill, Page, Paper};
use crate::progress::Progress;
use crate::puzzle::{Puzzle, Variant};
use crate::solver::exact;
use clap::builder::PossibleValue;
use clap::ValueEnum;
use rayon::prelude::*;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

impl ValueEnum for Paper {
    fn value_variants<'a>() -> &'a [Self] {
        &Paper::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// The options of `export`: `-o` and `--index` for every format (`--title` for f-puzzles
/// too), the rest for svg/pdf.
#[derive(clap::Args, Debug, Default)]
pub struct PrintArgs {
    /// The file to write (default: standard output), replaced whole or left as it was; for
    /// an SVG of every puzzle of a file, a folder.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Which puzzle of a file of several (1-based; lp, fpuzzles and grid take the first
    /// by default).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
    /// svg/pdf: the page size.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    /// svg/pdf: print a player's position: a pencil-mark grid (a file, or the grid itself)
    /// as `play --marks` reads it. A save file given as PUZZLE prints its position too.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub marks: Option<String>,
    /// svg/pdf: print a player's position: the entries placed after the givens, in line
    /// format ('.' for none), with or without --marks.
    #[arg(long, value_name = "LINE")]
    pub placed: Option<String>,
    /// svg/pdf: tint jigsaw regions.
    #[arg(long)]
    pub tint: bool,
    /// svg/pdf: rate puzzles whose file gives no difficulty (slow on hard puzzles).
    #[arg(long)]
    pub rate: bool,
    /// pdf: a booklet of every puzzle of the file, this many a page.
    #[arg(long, value_parser = per_page)]
    pub per_page: Option<usize>,
    /// pdf: add the solutions on closing pages of the booklet.
    #[arg(long)]
    pub solutions: bool,
    /// svg/pdf/fpuzzles: the title (svg/pdf default: the puzzle's own, else the file's
    /// name).
    #[arg(long)]
    pub title: Option<String>,
}

impl PrintArgs {
    /// The first option set that only a printed page uses, for the text formats to refuse
    /// rather than drop in silence (`--title` is f-puzzles' too).
    pub(super) fn print_only(&self) -> Option<&'static str> {
        [
            (self.marks.is_some(), "--marks"),
            (self.placed.is_some(), "--placed"),
            (self.paper != Paper::A4, "--paper"),
            (self.tint, "--tint"),
            (self.rate, "--rate"),
            (self.per_page.is_some(), "--per-page"),
            (self.solutions, "--solutions"),
        ]
        .into_iter()
        .find_map(|(set, name)| set.then_some(name))
    }
}

fn per_page(s: &str) -> Result<usize, String> {
    match s {
        "1" | "2" | "4" | "6" => s.parse().map_err(|_| String::new()),
        _ => Err("puzzles per page are 1, 2, 4 or 6".into()),
    }
}

fn usage(e: impl std::fmt::Display) -> i32 {
    eprintln!("termdoku: {e}");
    EXIT_USAGE
}

/// A puzzle to print with what is known about it.
struct Job {
    puzzle: Puzzle,
    entries: Option<Vec<u8>>,
    marks: Option<Vec<Digits>>,
}

/// A save file's game (what the player left), when `path` is one.
fn saved_game(path: &Path) -> Option<Job> {
    let bytes = format::read_small_file(path).ok()?;
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[start] != b'{' {
        return None;
    }
    let (game, _, _) = crate::game::save::parse_save(&bytes).ok()?;
    let puzzle = game.puzzle().clone();
    let entries = game
        .values()
        .iter()
        .zip(&puzzle.givens)
        .map(|(&v, &g)| if g != 0 { 0 } else { v })
        .collect();
    Some(Job {
        marks: Some(game.all_marks().to_vec()),
        entries: Some(entries),
        puzzle,
    })
}

/// `termdoku export --format svg|pdf`.
pub fn export(as_pdf: bool, variant: Variant, arg: &str, args: &PrintArgs) -> i32 {
    let path = Path::new(arg);
    let from_file = std::fs::symlink_metadata(path).is_ok();
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|_| from_file);
    let booklet = args.per_page.is_some() || args.solutions;
    if !as_pdf && booklet {
        return usage("--per-page and --solutions make a PDF booklet: use --format pdf");
    }
    let position = args.marks.is_some() || args.placed.is_some();
    if booklet && (position || args.index.is_some()) {
        return usage(
            "a booklet prints a whole file: --per-page/--solutions go without --marks, \
             --placed and --index",
        );
    }
    let mut jobs: Vec<Job> = Vec::new();
    if let Some(job) = from_file.then(|| saved_game(path)).flatten() {
        jobs.push(job);
    } else {
        let puzzles = if from_file {
            format::load_file(path, variant)
        } else {
            format::load_puzzle(arg, variant).map(|p| vec![p])
        };
        match puzzles {
            Ok(ps) if ps.is_empty() => return usage(format_args!("{arg}: no puzzles")),
            Ok(ps) => jobs.extend(ps.into_iter().map(|puzzle| Job {
                puzzle,
                entries: None,
                marks: None,
            })),
            Err(e) => return usage(e),
        }
    }
    let count = jobs.len();
    if let Some(i) = args.index {
        let i = i as usize;
        if i > count {
            return usage(format_args!("{arg} holds {count} puzzle(s): no puzzle {i}"));
        }
        jobs = jobs.into_iter().skip(i - 1).take(1).collect();
    }
    if position {
        if jobs.len() > 1 {
            return usage(format_args!(
                "{arg} holds {count} puzzles: choose the one the position belongs to with \
                 --index N"
            ));
        }
        if let Some(job) = jobs.first_mut() {
            if let Err(code) = add_position(job, args.marks.as_deref(), args.placed.as_deref()) {
                return code;
            }
        }
    }
    // A puzzle whose givens break its rules is printed as asked, but not in silence: a
    // page to solve that cannot be solved is worth a word.
    for (k, job) in jobs.iter().enumerate() {
        if !job.puzzle.conflicts().is_empty() {
            let no = args.index.map_or(k + 1, |i| i as usize);
            let number = if count > 1 {
                format!(" No. {no}")
            } else {
                String::new()
            };
            let name = if from_file { arg } else { "<arg>" };
            eprintln!(
                "termdoku: warning: {name}{number}: {}; printed as it is",
                super::clash_message(&job.puzzle)
            );
        }
    }
    let number = args.index.unwrap_or(1);
    let title_of = |p: &Puzzle| {
        args.title
            .clone()
            .or_else(|| p.title.clone())
            .or_else(|| match (&stem, count > 1) {
                (Some(s), true) => Some(format!("{s} No. {number}")),
                (Some(s), false) => Some(s.clone()),
                (None, _) => None,
            })
            .unwrap_or_else(|| "termdoku puzzle".to_string())
    };
    if as_pdf && (booklet || jobs.len() > 1) {
        let out = output_path(args.output.as_deref(), arg, None, "pdf");
        let title = args
            .title
            .clone()
            .or(stem)
            .unwrap_or_else(|| "termdoku puzzles".into());
        let per_page = args.per_page.unwrap_or(1);
        return write_to(out.as_deref(), &make_booklet(&title, &jobs, per_page, args));
    }
    if jobs.len() > 1 {
        let Some(dir) = &args.output else {
            return usage(format_args!(
                "{arg} holds {count} puzzles: choose one with --index N, or write one SVG each \
                 with -o DIR"
            ));
        };
        let base = args
            .title
            .clone()
            .or(stem)
            .unwrap_or_else(|| "termdoku".into());
        return svg_folder(dir, &jobs, args, &base);
    }
    let Some(job) = jobs.first() else {
        return usage(format_args!("{arg}: no puzzles"));
    };
    let title = title_of(&job.puzzle);
    let page = single_page(job, &title, args);
    let ext = if as_pdf { "pdf" } else { "svg" };
    let out = output_path(args.output.as_deref(), arg, args.index, ext);
    if as_pdf {
        write_to(out.as_deref(), &pdf::write(&[page], &title))
    } else {
        write_to(out.as_deref(), svg::write(&page, &title).as_bytes())
    }
}

/// Where an export goes: `-o FILE` as given, or into an existing folder `-o DIR` as `cp`
/// would, named after the puzzle file (`top95-3.svg` for `top95.txt --index 3`; `puzzle.svg`
/// for a puzzle given on the command line), and said, since the user did not name it.
pub(super) fn output_path(
    output: Option<&Path>,
    arg: &str,
    index: Option<u64>,
    ext: &str,
) -> Option<PathBuf> {
    let out = output?;
    if !out.is_dir() {
        return Some(out.to_path_buf());
    }
    let path = Path::new(arg);
    let stem = path
        .file_stem()
        .filter(|_| std::fs::symlink_metadata(path).is_ok())
        .map(|s| s.to_string_lossy().into_owned());
    let name = match (stem, index) {
        (Some(s), Some(i)) => format!("{s}-{i}.{ext}"),
        (Some(s), None) => format!("{s}.{ext}"),
        (None, _) => format!("puzzle.{ext}"),
    };
    let mut file = out.join(name);
    // Never over the puzzle file itself (`export --format grid set.grid.txt -o .`).
    let same = |a: &Path| std::fs::canonicalize(a).ok();
    if same(&file).is_some() && same(&file) == same(path) {
        file = out.join(format!("{}-export.{ext}", file_stem_of(&file)));
    }
    eprintln!("termdoku: writing {}", file.display());
    Some(file)
}

/// A file name without the extension `output_path` gave it.
fn file_stem_of(file: &Path) -> String {
    let name = file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.split('.').next().unwrap_or_default().to_string()
}

/// Reads the pencil-mark grid and the placed entries for the job's puzzle, as
/// `hint --marks --placed` does. Without a mark grid only the entries are printed.
fn add_position(job: &mut Job, marks: Option<&str>, placed: Option<&str>) -> Result<(), i32> {
    let text = marks
        .map(marks::marks_argument)
        .transpose()
        .map_err(usage)?;
    let pos = marks::read_position(
        Some(&job.puzzle),
        text.as_ref().map(|(t, n)| (t.as_str(), n.as_str())),
        placed.map(|l| (l, "--placed")),
    )
    .map_err(usage)?;
    let g = pos.grid.geometry();
    job.marks = text
        .is_some()
        .then(|| g.cells().map(|c| pos.grid.candidates(c)).collect());
    job.entries = Some(
        g.cells()
            .map(|c| {
                if job.puzzle.givens[c] != 0 {
                    0
                } else {
                    pos.grid.value(c)
                }
            })
            .collect(),
    );
    Ok(())
}

fn difficulty(p: &Puzzle, rate: bool) -> Option<String> {
    p.difficulty
        .clone()
        .or_else(|| rate.then(|| crate::solver::rate::rate(p).level.name().to_string()))
}

fn single_page(job: &Job, title: &str, args: &PrintArgs) -> Page {
    let fill = Fill {
        entries: job.entries.as_deref(),
        marks: job.marks.as_deref(),
        tint: args.tint,
        no_cages: false,
    };
    let subtitle = describe(&job.puzzle, difficulty(&job.puzzle, args.rate).as_deref());
    puzzle_page(args.paper, title, &subtitle, &job.puzzle, &fill)
}

fn make_booklet(title: &str, jobs: &[Job], per_page: usize, args: &PrintArgs) -> Vec<u8> {
    let many = jobs.len() >= 100;
    let progress = many.then(|| {
        Progress::start(
            if args.solutions { "solving" } else { "reading" },
            jobs.len(),
        )
    });
    // Rating and solving are the slow part: one puzzle per task.
    let entries: Vec<Entry> = jobs
        .par_iter()
        .map(|j| {
            let (solution, not_unique) = if args.solutions {
                let s = exact::solve(&j.puzzle, 2);
                (s.first, s.count > 1)
            } else {
                (None, false)
            };
            if let Some(p) = &progress {
                p.add(1);
            }
            Entry {
                puzzle: &j.puzzle,
                difficulty: difficulty(&j.puzzle, args.rate),
                solution,
                not_unique,
            }
        })
        .collect();
    drop(progress);
    let b = Booklet {
        title,
        paper: args.paper,
        per_page,
        solutions: args.solutions,
        tint: args.tint,
    };
    let drawn = entries.len() * if args.solutions { 2 } else { 1 };
    let progress = many.then(|| Progress::start("drawing", drawn));
    let pages = booklet::pages(&b, &entries, &|| {
        if let Some(p) = &progress {
            p.add(1);
        }
    });
    pdf::write(&pages, title)
}

/// One SVG per puzzle in `dir`, titled with the puzzle's own title or `base` and its number.
/// Pages an earlier export left beyond the new set are removed, so the folder holds the
/// set just written; only files named as this writes them and still as it wrote them go.
fn svg_folder(dir: &Path, jobs: &[Job], args: &PrintArgs, base: &str) -> i32 {
    if dir.exists() && !dir.is_dir() {
        return usage(format_args!(
            "{}: not a folder: a file of {} puzzles gives one SVG each, written into a \
             folder (or choose one with --index N)",
            dir.display(),
            jobs.len()
        ));
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return usage(format_args!("{}: {e}", dir.display()));
    }
    let width = jobs.len().to_string().len().max(3);
    let mut written = std::collections::HashSet::new();
    for (i, job) in jobs.iter().enumerate() {
        let title = match (&args.title, &job.puzzle.title) {
            (None, Some(t)) => t.clone(),
            _ => format!("{base} No. {}", i + 1),
        };
        let page = single_page(job, &title, args);
        let name = format!("puzzle-{:0width$}.svg", i + 1);
        let file = dir.join(&name);
        if let Err(e) = write_file(&file, svg::write(&page, &title).as_bytes()) {
            return usage(format_args!("{}: {e}", file.display()));
        }
        written.insert(name);
    }
    let stale = earlier_pages(dir, &written);
    let mut removed = 0;
    for file in &stale {
        match std::fs::remove_file(file) {
            Ok(()) => removed += 1,
            Err(e) => eprintln!("termdoku: {}: an earlier page kept: {e}", file.display()),
        }
    }
    if removed > 0 {
        eprintln!(
            "termdoku: {}: removed {removed} page(s) of an earlier export beyond the {} written",
            dir.display(),
            jobs.len()
        );
    }
    EXIT_OK
}

/// The pages of an earlier export in `dir` that are not in `written`: `puzzle-N.svg`
/// files (any width of N) that begin as termdoku writes a page.
fn earlier_pages(dir: &Path, written: &std::collections::HashSet<String>) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let number = name.strip_prefix("puzzle-")?.strip_suffix(".svg")?;
            let ours = !number.is_empty()
                && number.bytes().all(|b| b.is_ascii_digit())
                && !written.contains(&name);
            ours.then(|| e.path())
        })
        .filter(|path| {
            use std::io::Read;
            let mut start = Vec::new();
            let read = std::fs::File::open(path).and_then(|f| f.take(128).read_to_end(&mut start));
            read.is_ok() && svg::written_here(&start)
        })
        .collect();
    out.sort();
    out
}

/// Writes `bytes` to `output` ([`write_file`]) or to standard output; errors name the
/// file and exit 2.
pub(super) fn write_to(output: Option<&Path>, bytes: &[u8]) -> i32 {
    match output {
        Some(path) => match write_file(path, bytes) {
            Ok(()) => EXIT_OK,
            Err(e) => usage(format_args!("{}: {e}", path.display())),
        },
        None => {
            let mut out = std::io::stdout().lock();
            if bytes.starts_with(b"%PDF") && out.is_terminal() {
                return usage("a PDF is not for the terminal: use -o FILE or redirect the output");
            }
            match out.write_all(bytes).and_then(|()| out.flush()) {
                Ok(()) => EXIT_OK,
                // A closed pipe (`| head`) is the reader's choice, not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
                Err(e) => usage(format_args!("standard output: {e}")),
            }
        }
    }
}

/// Writes an output file whole or not at all: through a temporary file beside it and a
/// rename, so a full disk or a killed run never leaves half a page where a good file was.
/// A symbolic link is followed (its target is replaced, the link kept), an existing file
/// keeps its permissions, and what is not a regular file (`/dev/stdout`, a pipe) is
/// written in place, since renaming over it would replace the device itself.
pub(super) fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let existing = std::fs::metadata(path).ok();
    match &existing {
        Some(m) if m.is_dir() => return Err(std::io::Error::other("is a folder, not a file")),
        Some(m) if !m.is_file() => return std::fs::write(path, bytes),
        _ => {}
    }
    let target = real_path(path);
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = target.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    {
        // The usual 0666 less the umask, as a plain write would create it.
        use std::os::unix::fs::OpenOptionsExt;
        open.mode(0o666);
    }
    let mut file = open.open(&tmp)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| match &existing {
            Some(m) => file.set_permissions(m.permissions()),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Where writing `path` lands: the end of its chain of symbolic links (even a dangling
/// one, whose target is created), else the path itself.
fn real_path(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let mut p = path.to_path_buf();
    // A bounded walk: a loop of links ends as the path it reached.
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(to) => p = p.parent().map_or_else(|| to.clone(), |dir| dir.join(&to)),
            Err(_) => break,
        }
    }
    p
}
