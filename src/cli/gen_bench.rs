//! `termdoku bench --generate`: generator speed per variant and level, as CPU time per
//! puzzle (the thread's own clock, so other processes on a shared machine barely move it).

use super::gen_limits;
use super::output::Output;
use super::EXIT_OK;
use crate::generate::{Generator, Level, Options};
use crate::puzzle::Variant;
use std::time::Duration;

/// What to measure.
pub struct GenBench {
    pub variants: Vec<Variant>,
    pub levels: Vec<Level>,
    /// Grid size (9 unless asked).
    pub size: usize,
    pub count: u64,
    pub seed: u64,
    /// CPU seconds per row after which the row stops early (slow levels).
    pub budget: f64,
    /// Print the clue-count histogram of each row.
    pub givens: bool,
}

/// CPU time used by this thread (zero where the platform cannot tell).
fn thread_cpu() -> Duration {
    cpu_time::ThreadTime::try_now().map_or(Duration::ZERO, |t| t.as_duration())
}

/// The value at quantile `q` of sorted `xs`.
fn quantile(xs: &[f64], q: f64) -> f64 {
    let i = ((xs.len() as f64 * q).ceil() as usize).clamp(1, xs.len().max(1)) - 1;
    xs.get(i).copied().unwrap_or(0.0)
}

pub fn run(b: &GenBench) -> i32 {
    let mut out = Output::per_line();
    let _ = out.line(format_args!(
        "generator CPU time per puzzle ({}x{}, seed {}, up to {} puzzles or {:.0} CPU s per row)",
        b.size, b.size, b.seed, b.count, b.budget
    ));
    for &v in &b.variants {
        for &level in &b.levels {
            if out.closed() {
                return out.finish(EXIT_OK);
            }
            if let Some(why) = gen_limits::unsupported(v, b.size, level) {
                let _ = out.line(format_args!("{v:<9} {:<7} skipped: {why}", level.name()));
                continue;
            }
            let mut opts = Options::new(v, level);
            opts.size = b.size;
            let gen = match Generator::new(opts, b.seed) {
                Ok(g) => g,
                Err(e) => {
                    let _ = out.line(format_args!("{v:<9} {:<7} {e}", level.name()));
                    continue;
                }
            };
            let (mut ms, mut givens, mut attempts, mut failed) = (Vec::new(), Vec::new(), 0, 0);
            let mut spent = 0.0;
            for i in 0..b.count {
                if spent > b.budget {
                    break;
                }
                let start = thread_cpu();
                let result = gen.generate(i);
                let t = (thread_cpu() - start).as_secs_f64();
                spent += t;
                ms.push(t * 1e3);
                match result {
                    Ok(g) => {
                        givens.push(g.puzzle.given_count());
                        attempts += g.attempts;
                    }
                    Err(_) => failed += 1,
                }
            }
            ms.sort_by(f64::total_cmp);
            givens.sort_unstable();
            let n = ms.len();
            let mean = ms.iter().sum::<f64>() / n.max(1) as f64;
            let _ = out.line(format_args!(
                "{v:<9} {:<7} n={n:<4} median {:>9.2} ms  p95 {:>9.2} ms  max {:>9.2} ms  mean {:>9.2} ms  attempts {:.1}  givens {}-{}{}",
                level.name(),
                quantile(&ms, 0.5),
                quantile(&ms, 0.95),
                ms.last().copied().unwrap_or(0.0),
                mean,
                attempts as f64 / givens.len().max(1) as f64,
                givens.first().copied().unwrap_or(0),
                givens.last().copied().unwrap_or(0),
                if failed > 0 { format!("  ({failed} gave up)") } else { String::new() },
            ));
            if b.givens && !givens.is_empty() {
                let mut hist = String::new();
                let mut i = 0;
                while i < givens.len() {
                    let k = givens[i..].iter().take_while(|&&x| x == givens[i]).count();
                    hist.push_str(&format!(" {}:{k}", givens[i]));
                    i += k;
                }
                let _ = out.line(format_args!("  givens (count:puzzles){hist}"));
            }
        }
    }
    out.finish(EXIT_OK)
}
