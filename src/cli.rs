//! The command line (design.md section 4): subcommands over the library.

use crate::batch;
use crate::format::{self, ParseError};
use crate::generate::{Level, Symmetry};
use crate::progress::Progress;
use crate::puzzle::{Puzzle, Variant};
use crate::solver::exact;
use clap::{Parser, Subcommand};
use output::Output;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "termdoku",
    version,
    about = "Terminal Sudoku player and solving coach"
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Without a subcommand, the player: `termdoku PUZZLE` is `termdoku play PUZZLE`.
    #[command(flatten)]
    pub play: PlayOpts,
}

impl Cli {
    /// The command to run: `play` with the top-level arguments when none is named.
    pub fn command(self) -> Command {
        self.command.unwrap_or(Command::Play(self.play))
    }
}

/// The player's arguments, the same after `play` and on the bare command.
#[derive(clap::Args, Debug, Default)]
pub struct PlayOpts {
    /// A puzzle file (line, TOML, grid or f-puzzles JSON) or the puzzle itself (a line, a
    /// grid, or an f-puzzles or SudokuPad share link).
    pub puzzle: Option<String>,
    #[arg(long, value_enum)]
    pub variant: Option<Variant>,
    /// The level of a new game (from the puzzles/ folder).
    #[arg(long, value_enum)]
    pub difficulty: Option<Level>,
    /// The grid side of a new game: 4, 6, 9 or 16 (standard has them all; the other
    /// variants are 9x9).
    #[arg(long, value_parser = values::grid_size)]
    pub size: Option<usize>,
    /// Which puzzle of a file of several (1-based; default: the one last played from it,
    /// else the first).
    #[arg(long, requires = "puzzle", value_parser = clap::value_parser!(u64).range(1..))]
    pub index: Option<u64>,
    #[command(flatten)]
    pub position: PositionOpts,
}

/// A position with pencil marks beside the puzzle (`hint`, `explain`, `play`).
#[derive(clap::Args, Debug, Default)]
pub struct PositionOpts {
    /// Pencil marks to start from (a file, or the grid itself): one whitespace-separated
    /// token per cell, row-major, the cell's candidate digits (the digit alone for a filled
    /// cell). The forum's 9-line layout with |, -, + is read too. For a standard 9x9 grid
    /// given without a puzzle, a single-digit token is a placed cell.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub marks: Option<String>,
    /// Entries placed after the givens, in line format ('.' for none).
    #[arg(long, value_name = "LINE")]
    pub placed: Option<String>,
}

impl PositionOpts {
    fn is_set(&self) -> bool {
        self.marks.is_some() || self.placed.is_some()
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The full-screen player (the default with no subcommand): resumes the last game, or
    /// opens PUZZLE, or a new game of the given variant and difficulty.
    Play(PlayOpts),
    /// Solve puzzles: one answer line per puzzle (a grid or JSON file is one puzzle).
    Solve {
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// Print the number of solutions: 0, 1 or 2+.
        #[arg(long, conflicts_with = "first")]
        count: bool,
        /// Print the first solution found without proving uniqueness.
        #[arg(long)]
        first: bool,
        /// A puzzle file (line, TOML, grid or f-puzzles JSON), - for standard input (the
        /// default), or the puzzle itself (a line, a grid, or a share link).
        file: Option<String>,
    },
    /// Generate puzzles with one solution, rated at the level asked for.
    Generate(GenerateArgs),
    /// Show the next logical step of a puzzle, or of a position with --marks/--placed.
    Hint {
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// One JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Only this technique (name, id or HoDoKu code), even one off the default path
        /// (Kraken fish, large mutant fish): its first step here, or why there is none.
        #[arg(long, value_name = "T")]
        technique: Option<String>,
        /// Which puzzle of a file of several (1-based; default: the first, and stderr says
        /// how many the file holds).
        #[arg(long, requires = "puzzle", value_parser = clap::value_parser!(u64).range(1..))]
        index: Option<u64>,
        #[command(flatten)]
        position: PositionOpts,
        /// A puzzle (a line, a grid or a share link) or a puzzle file (optional with --marks
        /// on standard 9x9).
        #[arg(required_unless_present = "marks")]
        puzzle: Option<String>,
    },
    /// Show the whole logical solution path of a puzzle, or of a position with
    /// --marks/--placed.
    Explain {
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// One JSON object per step, then a summary object.
        #[arg(long)]
        json: bool,
        /// Which puzzle of a file of several (1-based; default: the first, and stderr says
        /// how many the file holds).
        #[arg(long, requires = "puzzle", value_parser = clap::value_parser!(u64).range(1..))]
        index: Option<u64>,
        #[command(flatten)]
        position: PositionOpts,
        /// A puzzle (a line, a grid or a share link) or a puzzle file (optional with --marks
        /// on standard 9x9).
        #[arg(required_unless_present = "marks")]
        puzzle: Option<String>,
    },
    /// List the solving techniques (id, name, family, level, score, variants), or show one.
    Techniques {
        /// A technique: its name, id (any case, dashes optional) or HoDoKu code.
        name: Option<String>,
        /// Only the techniques that occur in this variant.
        #[arg(long, value_enum)]
        variant: Option<Variant>,
        /// JSON lines instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The player's trainer: drills of a technique from the bank, graded (or a picker).
    Train {
        /// The technique: its name, id (any case, dashes optional) or HoDoKu code.
        technique: Option<String>,
        /// The variant to train on (default: the saved game's).
        #[arg(long, value_enum)]
        variant: Option<Variant>,
    },
    /// The player as an SSH service: anyone with a key plays with `ssh -t -p PORT HOST`.
    Serve {
        /// The address and port to listen on.
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:2222")]
        listen: String,
        /// The folder of the players' games and the host key.
        #[arg(long, value_name = "DIR", default_value = "termdoku-data")]
        data: PathBuf,
        /// The host key (OpenSSH format); made (Ed25519) in the data folder if not given.
        /// Servers behind one address share one key file.
        #[arg(long, value_name = "FILE")]
        host_key: Option<PathBuf>,
        /// The players' database: `postgres://USER@HOST/DB` (several servers may share
        /// it), or an SQLite file; `termdoku.db` in the data folder if not given.
        #[arg(long, value_name = "URL|FILE")]
        database: Option<String>,
        /// The limits (TOML: `[limits]` and `[hints]`; see the README); built-in if not given.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Every connection starts with a PROXY header (v1 or v2) naming the client: for a
        /// server behind a load balancer such as HAProxy (`send-proxy-v2`).
        #[arg(long)]
        proxy_protocol: bool,
    },
    /// Drills: positions where a technique is the next logical step, as JSON lines.
    Drill {
        /// The technique: its name, id (any case, dashes optional) or HoDoKu code.
        #[arg(long, required_unless_present = "bank")]
        technique: Option<String>,
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// How many drills.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        count: u64,
        /// The same seed gives the same drills.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds of search before giving up (with --bank: per variant).
        #[arg(long, default_value_t = 60.0, value_parser = values::seconds)]
        budget: f64,
        /// Write the drill bank (puzzles/drills.jsonl) for every technique and variant.
        #[arg(long, conflicts_with_all = ["technique", "count", "budget"])]
        bank: bool,
        /// With --bank: puzzles walked on standard (a tenth of it on each other variant, a
        /// twentieth on killer: their puzzles cost 3 to 15 times more), so that the bank
        /// depends on the seed and this number only, not on the machine's speed.
        #[arg(long, requires = "bank", default_value_t = 6000)]
        puzzles: u64,
    },
    /// Rate puzzles: level and score per puzzle.
    Rate {
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// A puzzle file (line, TOML, grid or f-puzzles JSON), - for standard input (the
        /// default), or the puzzle itself (a line, a grid, or a share link).
        file: Option<String>,
    },
    /// Measure solver throughput over a whole file (parsing included), or with --generate
    /// the generator's CPU time per puzzle.
    Bench {
        /// The variant (default standard; with --generate, every variant).
        #[arg(long, value_enum)]
        variant: Option<Variant>,
        /// Measure the logic solver (rating every puzzle) instead of the exact solver.
        #[arg(long, conflicts_with = "generate")]
        logic: bool,
        /// Time drill searches: median time to a fresh drill per technique family, over
        /// --count searches per technique (default 3) from --seed, each given up after
        /// --budget seconds (default 60).
        #[arg(long, conflicts_with_all = ["generate", "logic"])]
        drills: bool,
        /// Worker threads (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=values::MAX_THREADS))]
        threads: Option<u64>,
        /// Time the generator: median, p95, max and mean CPU time per puzzle for each
        /// variant and level, over --count puzzles of --seed.
        #[arg(long)]
        generate: bool,
        /// With --generate: one level instead of all five.
        #[arg(long, value_enum, requires = "generate")]
        difficulty: Option<Level>,
        /// With --generate: puzzles per variant and level (default 100).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        count: Option<u64>,
        /// With --generate: the seed (puzzles are deterministic per seed).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// With --generate: CPU seconds after which a variant and level stops early.
        #[arg(long, default_value_t = 60.0, value_parser = values::seconds)]
        budget: f64,
        /// With --generate: print each row's clue-count histogram.
        #[arg(long, requires = "generate")]
        givens: bool,
        /// With --generate: the grid size (4, 6, 9 or 16; default 9). Variants that are not
        /// generated at that size, or levels it cannot reach, get a row saying so.
        #[arg(long = "size", requires = "generate", value_parser = values::grid_size)]
        gen_size: Option<usize>,
        /// With --logic: also list the N slowest hints (puzzle, step, technique).
        #[arg(long, requires = "logic", default_value_t = 0)]
        slowest: usize,
        /// With --logic: time each hint from an empty memory, like a first hint at that
        /// position (by default each puzzle's walk starts empty and learns as it goes, like
        /// a player asking for a hint at every step).
        #[arg(long, requires = "logic")]
        cold: bool,
        #[arg(required_unless_present_any = ["generate", "drills"])]
        file: Option<PathBuf>,
    },
    /// Write a puzzle in another format: a 0-1 integer program (lp), f-puzzles JSON or
    /// share links (fpuzzles), the pasted grid form (grid), or print puzzles as SVG or PDF
    /// (one a page, a position with marks, or a booklet).
    Export {
        #[arg(long, value_enum)]
        format: ExportFormat,
        #[arg(long, value_enum, default_value = "standard")]
        variant: Variant,
        /// With --format fpuzzles: the f-puzzles and SudokuPad share links instead of JSON.
        #[arg(long)]
        link: bool,
        /// A puzzle string, grid, share link or puzzle file (svg/pdf: also a save file).
        puzzle: String,
        #[command(flatten)]
        print: print_cli::PrintArgs,
    },
}

/// Formats of `export`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// CPLEX LP (glpsol --lp, HiGHS, CBC).
    Lp,
    /// f-puzzles JSON (with --link: the f-puzzles and SudokuPad share links).
    Fpuzzles,
    /// The grid form: one row a line, boxes set apart by | and -.
    Grid,
    /// A printable page as SVG.
    Svg,
    /// Printable pages as PDF (a booklet with --per-page).
    Pdf,
}

/// Exit statuses of design.md section 4.
pub const EXIT_OK: i32 = 0;
pub const EXIT_PUZZLE: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// Runs a subcommand and returns the exit status.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Play(PlayOpts {
            puzzle,
            variant,
            difficulty,
            size,
            index,
            position,
        }) => {
            let start = if position.is_set() {
                match coach_cli::load_position(
                    variant.unwrap_or_default(),
                    puzzle.as_deref(),
                    index,
                    position.marks.as_deref(),
                    position.placed.as_deref(),
                ) {
                    Ok((pos, _)) => Some(pos),
                    Err(code) => return code,
                }
            } else {
                None
            };
            crate::tui::play(crate::tui::PlayArgs {
                puzzle: if start.is_some() { None } else { puzzle },
                variant,
                difficulty: difficulty.map(|l| l.name().to_string()),
                size,
                index: index.map(|i| i as usize),
                start,
                train: None,
            })
        }
        Command::Train { technique, variant } => train_cli::train(technique.as_deref(), variant),
        Command::Serve {
            listen,
            data,
            host_key,
            database,
            config,
            proxy_protocol,
        } => crate::serve::serve(crate::serve::ServeArgs {
            listen,
            data,
            host_key,
            database,
            config,
            proxy_protocol,
        }),
        Command::Solve {
            variant,
            count,
            first,
            file,
        } => {
            let mode = if count {
                SolveMode::Count
            } else if first {
                SolveMode::First
            } else {
                SolveMode::Unique
            };
            solve_command(variant, mode, file.as_deref())
        }
        Command::Hint {
            variant,
            json,
            technique: Some(t),
            index,
            position,
            puzzle,
        } => match coach_cli::resolve_any(&t, Some(variant)) {
            Ok(info) => {
                logic_cli::hint_technique(variant, json, info, puzzle.as_deref(), index, &position)
            }
            Err(e) => {
                eprintln!("termdoku: {e}");
                EXIT_USAGE
            }
        },
        Command::Hint {
            variant,
            json,
            technique: None,
            index,
            position,
            puzzle,
        } => logic_cli::hint(variant, json, puzzle.as_deref(), index, &position),
        Command::Explain {
            variant,
            json,
            index,
            position,
            puzzle,
        } => logic_cli::explain(variant, json, puzzle.as_deref(), index, &position),
        Command::Techniques {
            name,
            variant,
            json,
        } => coach_cli::techniques_command(name.as_deref(), variant, json),
        Command::Drill {
            bank: true,
            seed,
            puzzles,
            ..
        } => coach_cli::bank_command(seed, puzzles),
        Command::Drill {
            technique,
            variant,
            count,
            seed,
            budget,
            ..
        } => coach_cli::drill_command(
            technique.as_deref().unwrap_or(""),
            variant,
            count,
            seed,
            budget,
        ),
        Command::Bench {
            drills: true,
            count,
            seed,
            budget,
            ..
        } => coach_cli::bench_drills(count.unwrap_or(3), seed, budget),
        Command::Rate { variant, file } => logic_cli::rate(variant, file.as_deref()),
        Command::Bench {
            generate: true,
            variant,
            difficulty,
            count,
            seed,
            budget,
            givens,
            gen_size,
            ..
        } => {
            let levels = difficulty.map_or_else(|| Level::ALL.to_vec(), |l| vec![l]);
            let size = gen_size.unwrap_or(9);
            // At another size only the variants that have one: honeycomb is fixed and the
            // diagonal rule is defined for 9x9.
            let variants = variant.map_or_else(
                || match size {
                    9 => Variant::ALL.to_vec(),
                    _ => vec![Variant::Standard, Variant::Jigsaw, Variant::Killer],
                },
                |v| vec![v],
            );
            gen_bench::run(&gen_bench::GenBench {
                variants,
                levels,
                size,
                count: count.unwrap_or(100),
                seed,
                budget,
                givens,
            })
        }
        Command::Bench {
            variant,
            logic,
            threads,
            slowest,
            cold,
            file: Some(file),
            ..
        } => {
            let variant = variant.unwrap_or_default();
            let threads = threads.map(|t| t as usize);
            if logic {
                logic_cli::bench(variant, threads, &file, slowest, cold)
            } else {
                bench_command(variant, threads, &file)
            }
        }
        Command::Bench { file: None, .. } => {
            eprintln!("termdoku: bench needs a FILE (or --generate)");
            EXIT_USAGE
        }
        Command::Generate(args) => generate_command(args),
        Command::Export {
            format, link: true, ..
        } if format != ExportFormat::Fpuzzles => {
            // Said, not dropped: the user asked for a link and would get a file instead.
            eprintln!("termdoku: --link goes with --format fpuzzles");
            EXIT_USAGE
        }
        Command::Export {
            format: ExportFormat::Lp,
            variant,
            puzzle,
            print,
            ..
        } => export_command(variant, &puzzle, &print),
        Command::Export {
            format: format @ (ExportFormat::Fpuzzles | ExportFormat::Grid),
            variant,
            link,
            puzzle,
            print,
        } => format_cli::export(format == ExportFormat::Grid, link, variant, &puzzle, &print),
        Command::Export {
            format: format @ (ExportFormat::Svg | ExportFormat::Pdf),
            variant,
            puzzle,
            print,
            ..
        } => print_cli::export(format == ExportFormat::Pdf, variant, &puzzle, &print),
    }
}

/// `export --format lp`: refuses (exit 1) a puzzle whose givens clash or that has no
/// solution, since any feasible point of the program is meant to be the solution.
fn export_command(variant: Variant, arg: &str, print: &print_cli::PrintArgs) -> i32 {
    if let Some(option) = print
        .print_only()
        .or(print.title.is_some().then_some("--title"))
    {
        eprintln!("termdoku: {option} goes with --format svg or pdf");
        return EXIT_USAGE;
    }
    let puzzle = match format_cli::chosen_puzzle(arg, variant, print.index) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let problem = if !puzzle.conflicts().is_empty() {
        Some(clash_message(&puzzle))
    } else if exact::solve(&puzzle, 1).count == 0 {
        Some("unsolvable".to_string())
    } else {
        None
    };
    if let Some(m) = problem {
        eprintln!("{}: {m}", logic_cli::place(arg));
        return EXIT_PUZZLE;
    }
    print_cli::write_to(
        print_cli::output_path(print.output.as_deref(), arg, print.index, "lp").as_deref(),
        crate::export::lp(&puzzle).as_bytes(),
    )
}

mod coach_cli;
mod format_cli;
mod gen_bench;
mod gen_limits;
mod logic_cli;
mod output;
mod print_cli;
mod train_cli;
mod values;

#[derive(Clone, Copy, PartialEq, Eq)]
enum SolveMode {
    Unique,
    Count,
    First,
}

/// Opens `FILE|-|PUZZLE` through the one loader (`format::open`): a stream of puzzles.
fn open_input(file: Option<&str>, variant: Variant) -> Result<(String, format::Items), ParseError> {
    let source = format::open(file.unwrap_or("-"), variant)?;
    Ok((source.name, source.items))
}

fn solution_line(values: &[u8]) -> String {
    values
        .iter()
        .map(|&d| crate::geometry::digit_char(d))
        .collect()
}

fn solve_command(variant: Variant, mode: SolveMode, file: Option<&str>) -> i32 {
    let (name, items) = match open_input(file, variant) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let limit = if mode == SolveMode::First { 1 } else { 2 };
    let mut out = Output::buffered();
    let mut status = EXIT_OK;
    let mut seen_any = false;
    batch::map_ordered(
        items,
        batch::default_threads(),
        512,
        |item| match item {
            Ok((_, Some(p))) if p.conflicts().is_empty() => Some(exact::solve(p, limit)),
            _ => None,
        },
        |item, result| {
            let (line, puzzle) = match item {
                Ok((line, Some(p))) => (line, p),
                Ok((_, None)) => return ControlFlow::Continue(()),
                Err(e) => {
                    eprintln!("termdoku: {e}");
                    status = EXIT_USAGE;
                    seen_any = true;
                    return out.line("error");
                }
            };
            seen_any = true;
            let Some(s) = result else {
                // Clashing givens: the same word and message in every command.
                eprintln!("{name}:{line}: {}", clash_message(&puzzle));
                status = status.max(EXIT_PUZZLE);
                return out.line(if mode == SolveMode::Count {
                    "0"
                } else {
                    INVALID
                });
            };
            let problem = match s.count {
                0 => Some("unsolvable"),
                1 => None,
                _ if mode == SolveMode::Unique => Some("multiple solutions"),
                _ => None,
            };
            if let Some(p) = problem {
                if mode != SolveMode::Count || s.count == 0 {
                    eprintln!("{name}:{line}: {p}");
                }
                status = status.max(EXIT_PUZZLE);
            }
            match mode {
                SolveMode::Count => out.line(match s.count {
                    0 => "0",
                    1 => "1",
                    _ => "2+",
                }),
                _ => match (&s.first, s.count) {
                    (None, _) => out.line("unsolvable"),
                    (Some(_), n) if n > 1 && mode == SolveMode::Unique => out.line("multiple"),
                    (Some(v), _) => out.line(solution_line(v)),
                },
            }
        },
    );
    if !seen_any && !out.closed() {
        eprintln!("termdoku: {name}: empty input (expected puzzle lines)");
        return EXIT_USAGE;
    }
    out.finish(status)
}

/// The word printed for a puzzle whose givens clash (two equal digits in one house), by
/// every command: `solve`, `rate`, `hint`, `explain`, `export`.
pub const INVALID: &str = "invalid";

/// "invalid: r1c1 and r1c5 both hold 7" for the first clash of a puzzle.
pub(crate) fn clash_message(puzzle: &Puzzle) -> String {
    match puzzle.conflicts().first() {
        Some(&(a, b)) => {
            let g = puzzle.geometry();
            format!(
                "{INVALID}: {} and {} both hold {}",
                g.cell_name(a),
                g.cell_name(b),
                crate::geometry::digit_char(puzzle.givens[a])
            )
        }
        None => INVALID.to_string(),
    }
}

fn bench_command(variant: Variant, threads: Option<usize>, file: &std::path::Path) -> i32 {
    let threads = threads.unwrap_or_else(batch::default_threads);
    let name = file.display().to_string();
    let mut out = Output::per_line();
    for (label, limit) in [("first solution", 1), ("solve + uniqueness", 2)] {
        let start = Instant::now();
        let (_, items) = match open_input(Some(&name), variant) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("termdoku: {e}");
                return EXIT_USAGE;
            }
        };
        let progress = Progress::start(label, 0);
        let (mut puzzles, mut errors, mut counts) = (0usize, 0usize, [0usize; 3]);
        batch::map_ordered(
            items,
            threads,
            1024,
            |item| match item {
                Ok((_, Some(p))) => Some(exact::count(p, limit)),
                _ => None,
            },
            |item, result| {
                if let Err(e) = item {
                    // The first pass names each unreadable line; the second only counts.
                    if limit == 1 {
                        eprintln!("termdoku: {e}");
                    }
                    errors += 1;
                }
                if let Some(c) = result {
                    puzzles += 1;
                    counts[c.min(2)] += 1;
                    // The bar reads the clock on every step: per puzzle that is a few
                    // percent of a 9x9 solve, so it moves a thousand at a time.
                    if puzzles % 1024 == 0 {
                        progress.add(1024);
                    }
                }
                ControlFlow::Continue(())
            },
        );
        drop(progress);
        if puzzles == 0 {
            eprintln!("termdoku: {name}: no puzzles to time (expected puzzle lines)");
            return EXIT_USAGE;
        }
        let secs = start.elapsed().as_secs_f64();
        let line = format!(
            "{name}: {label}: {puzzles} puzzles in {secs:.3} s = {:.0} puzzles/s ({threads} threads; {} none, {} one, {} more{})",
            puzzles as f64 / secs.max(1e-9),
            counts[0],
            counts[1],
            counts[2],
            if errors > 0 { format!(", {errors} unreadable lines") } else { String::new() }
        );
        if out.line(line).is_break() {
            break;
        }
        if errors > 0 && limit == 2 {
            // Timed anyway, but the input was not all read: design.md's exit status 2.
            return out.finish(EXIT_USAGE);
        }
    }
    out.finish(EXIT_OK)
}

/// The options of `generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    #[arg(long, value_enum, default_value = "standard")]
    variant: Variant,
    /// The level (default medium; with --technique, the highest level allowed, by default
    /// the technique's own).
    #[arg(long, value_enum)]
    difficulty: Option<Level>,
    /// How many puzzles; each is printed as soon as it is found.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Seed of the run: the same seed gives the same puzzles (default: from the clock,
    /// reported on stderr).
    #[arg(long)]
    seed: Option<u64>,
    /// Clue symmetry (default rotate180; none for killer).
    #[arg(long, value_enum)]
    symmetry: Option<Symmetry>,
    /// Print TOML instead of lines (always for jigsaw and killer): a puzzle file for one
    /// puzzle, a collection of `[[puzzle]]` tables for several.
    #[arg(long)]
    toml: bool,
    /// Training mode: the hardest step of the logical solution (`explain`'s `hardest`) is
    /// this technique (name, id or HoDoKu code, e.g. x-wing, X-Wing, xwing, 0300).
    #[arg(long)]
    technique: Option<String>,
    /// With --technique: seconds per puzzle before giving up, for a technique too rare to
    /// be the hardest step by chance (default 60).
    #[arg(long, requires = "technique", value_parser = values::seconds)]
    budget: Option<f64>,
    /// Grid side for square variants: 4, 6, 9 or 16.
    #[arg(long, default_value_t = 9, value_parser = values::grid_size)]
    size: usize,
    /// Print each puzzle's generation time and a median / p95 summary on stderr.
    #[arg(long)]
    stats: bool,
}

fn generate_command(a: GenerateArgs) -> i32 {
    use crate::generate::{self, Generator, Options};
    let variant = a.variant;
    let technique = match a
        .technique
        .as_deref()
        .map(|t| coach_cli::resolve(t, Some(variant)))
    {
        Some(Err(e)) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
        Some(Ok(t)) => Some(t),
        None => None,
    };
    let level = match (a.difficulty, technique) {
        (Some(l), _) => l,
        (None, Some(t)) => t.level,
        (None, None) => Level::Medium,
    };
    if let Some(why) = gen_limits::unsupported(variant, a.size, level) {
        eprintln!("termdoku: {why}");
        return EXIT_USAGE;
    }
    let mut opts = Options::new(variant, level);
    opts.size = a.size;
    opts.technique = technique.map(|t| t.id.to_string());
    opts.time_budget =
        technique.map(|_| std::time::Duration::from_secs_f64(a.budget.unwrap_or(60.0)));
    if let Some(sym) = a.symmetry {
        opts.symmetry = sym;
    }
    let seed = a.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("termdoku: seed {s}");
        s
    });
    let generator = match Generator::new(opts, seed) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("termdoku: {e}");
            return EXIT_USAGE;
        }
    };
    let toml = a.toml || matches!(variant, Variant::Jigsaw | Variant::Killer);
    let progress = Progress::start("generating", usize::try_from(a.count).unwrap_or(0));
    let mut out = Output::per_line();
    // Grows with the puzzles printed, never ahead of them (--count may be huge).
    let mut times = Vec::new();
    for i in 0..a.count {
        let start = Instant::now();
        let result = generator.generate(i);
        let elapsed = start.elapsed();
        let g = match result {
            Ok(g) => g,
            Err(e) => {
                drop(progress);
                eprintln!("termdoku: puzzle {}: {e}", i + 1);
                return EXIT_PUZZLE;
            }
        };
        progress.add(1);
        if a.stats {
            times.push(elapsed);
        }
        let r = &g.rating;
        let level = generate::level_name(r.level);
        let text = if toml {
            let mut p = g.puzzle.clone();
            p.source = Some(format!("termdoku generate --seed {seed} #{}", i + 1));
            if a.count > 1 {
                // Several puzzles make one TOML collection (as in `puzzles/`).
                format!(
                    "# puzzle {}: {level} {}\n{}",
                    i + 1,
                    r.score,
                    generate::shipped::write_collection([&p])
                )
            } else {
                format!("# {level} {}\n{}", r.score, format::write_toml(&p))
            }
        } else {
            format!("{}  # {level} {}\n", format::write_line(&g.puzzle), r.score)
        };
        if out.text(format_args!("{text}")).is_break() {
            break;
        }
        if a.stats {
            eprintln!(
                "puzzle {}: {:.2} ms, {} attempts, {level} {}, {} givens",
                i + 1,
                elapsed.as_secs_f64() * 1e3,
                g.attempts,
                r.score,
                g.puzzle.given_count()
            );
        }
    }
    drop(progress);
    if a.stats && !times.is_empty() {
        times.sort_unstable();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        let p95 = times[(times.len() * 95).div_ceil(100).saturating_sub(1)];
        let total: f64 = times.iter().map(|&d| ms(d)).sum();
        eprintln!(
            "{} puzzles: median {:.2} ms, p95 {:.2} ms, max {:.2} ms, mean {:.2} ms",
            times.len(),
            ms(times[times.len() / 2]),
            ms(p95),
            ms(times[times.len() - 1]),
            total / times.len() as f64
        );
    }
    out.finish(EXIT_OK)
}
