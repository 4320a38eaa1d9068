//! `termdoku export --format lp`: a puzzle as the 0-1 integer program of the source method,
//! in CPLEX LP format (read by glpsol, HiGHS, CBC, CPLEX, Gurobi).
//!
//! Variables: `x_R_C_D` = 1 when cell rRcC holds digit D (honeycomb: C counts within the
//! row), and for every consecutive-run house one `s_H_L` per run L..L+len-1 that the givens
//! allow, = 1 when the house holds that run. Constraints: one digit per cell; each digit once
//! in every `Complete` house; in a run house each digit appears exactly when the chosen run
//! contains it; in a cage each digit at most once and the digits add up to the sum; givens
//! fixed to 1.

use crate::geometry::{Digits, Rule};
use crate::puzzle::Puzzle;
use std::fmt::Write;

fn var(puzzle: &Puzzle, cell: usize, d: u8) -> String {
    let (r, c) = puzzle.geometry().coords(cell);
    format!("x_{r}_{c}_{d}")
}

/// Appends `terms` as a constraint body, wrapping long rows (LP lines stay readable).
fn row(out: &mut String, name: &str, terms: &[String], rhs: &str) {
    let _ = write!(out, " {name}:");
    for (i, t) in terms.iter().enumerate() {
        if i > 0 && i % 10 == 0 {
            out.push_str("\n   ");
        }
        let t = t.trim();
        if i == 0 {
            let _ = write!(out, " {t}");
        } else if let Some(neg) = t.strip_prefix('-') {
            let _ = write!(out, " - {}", neg.trim());
        } else {
            let _ = write!(out, " + {t}");
        }
    }
    let _ = writeln!(out, " {rhs}");
}

/// The LP text of a puzzle.
pub fn lp(puzzle: &Puzzle) -> String {
    let g = puzzle.geometry();
    let n = g.max_digit();
    let mut out = String::new();
    let mut binaries: Vec<String> = Vec::new();
    let _ = writeln!(
        out,
        "\\ termdoku: {} puzzle, {} cells; any feasible point is the solution",
        puzzle.variant(),
        g.cell_count()
    );
    out.push_str("Minimize\n obj: 0 x_1_1_1\nSubject To\n");
    for cell in g.cells() {
        let terms: Vec<String> = (1..=n).map(|d| var(puzzle, cell, d)).collect();
        binaries.extend(terms.iter().cloned());
        let (r, c) = g.coords(cell);
        row(&mut out, &format!("cell_{r}_{c}"), &terms, "= 1");
    }
    for (h, house) in g.houses().iter().enumerate() {
        let h1 = h + 1;
        match house.rule {
            Rule::Complete => {
                for d in 1..=n {
                    let terms: Vec<String> =
                        house.cells.iter().map(|&c| var(puzzle, c, d)).collect();
                    row(&mut out, &format!("house_{h1}_{d}"), &terms, "= 1");
                }
            }
            Rule::ConsecutiveRun => {
                let len = house.cells.len() as u8;
                let mut placed = Digits::EMPTY;
                for &c in &house.cells {
                    let v = puzzle.givens[c];
                    if v != 0 {
                        placed.insert(v);
                    }
                }
                // Only the runs that contain every given of the house.
                let lows: Vec<u8> = (1..=(n + 1).saturating_sub(len))
                    .filter(|&lo| placed.is_subset(Digits::range(lo, lo + len - 1)))
                    .collect();
                let starts: Vec<String> = lows.iter().map(|lo| format!("s_{h1}_{lo}")).collect();
                binaries.extend(starts.iter().cloned());
                if starts.is_empty() {
                    // No run fits: an infeasible row says so to the solver.
                    let _ = writeln!(out, " run_{h1}: {} >= 2", var(puzzle, house.cells[0], 1));
                    continue;
                }
                row(&mut out, &format!("run_{h1}"), &starts, "= 1");
                for d in 1..=n {
                    let mut terms: Vec<String> =
                        house.cells.iter().map(|&c| var(puzzle, c, d)).collect();
                    for &lo in &lows {
                        if (lo..lo + len).contains(&d) {
                            terms.push(format!("-s_{h1}_{lo}"));
                        }
                    }
                    row(&mut out, &format!("run_{h1}_{d}"), &terms, "= 0");
                }
            }
            Rule::Cage { sum } => {
                // One binary per digit set that fits the cage, as for runs: the sum row
                // alone leaves the relaxation so loose that MILP solvers stall on killers.
                let combos = crate::solver::rules::combinations(n, house.cells.len(), sum);
                let picks: Vec<String> =
                    (1..=combos.len()).map(|i| format!("k_{h1}_{i}")).collect();
                binaries.extend(picks.iter().cloned());
                if !picks.is_empty() {
                    row(&mut out, &format!("combo_{h1}"), &picks, "= 1");
                }
                for d in 1..=n {
                    let mut terms: Vec<String> =
                        house.cells.iter().map(|&c| var(puzzle, c, d)).collect();
                    for (i, &set) in combos.iter().enumerate() {
                        if Digits(set).contains(d) {
                            terms.push(format!("-k_{h1}_{}", i + 1));
                        }
                    }
                    row(&mut out, &format!("cage_{h1}_{d}"), &terms, "= 0");
                }
                let terms: Vec<String> = house
                    .cells
                    .iter()
                    .flat_map(|&c| (1..=n).map(move |d| (c, d)))
                    .map(|(c, d)| format!("{d} {}", var(puzzle, c, d)))
                    .collect();
                row(&mut out, &format!("sum_{h1}"), &terms, &format!("= {sum}"));
            }
        }
    }
    for cell in g.cells() {
        let v = puzzle.givens[cell];
        if v != 0 {
            let (r, c) = g.coords(cell);
            let _ = writeln!(out, " given_{r}_{c}: {} = 1", var(puzzle, cell, v));
        }
    }
    out.push_str("Binary\n");
    for chunk in binaries.chunks(10) {
        let _ = writeln!(out, " {}", chunk.join(" "));
    }
    out.push_str("End\n");
    out
}

/// Reads the digits back from `(variable name, value)` pairs of a solver's answer: the
/// grid in cell order, 0 where no `x` variable is 1.
pub fn grid_from_values<'a>(
    puzzle: &Puzzle,
    values: impl IntoIterator<Item = (&'a str, f64)>,
) -> Vec<u8> {
    let g = puzzle.geometry();
    let mut grid = vec![0u8; g.cell_count()];
    for (name, v) in values {
        if v < 0.5 {
            continue;
        }
        let mut parts = name
            .strip_prefix("x_")
            .into_iter()
            .flat_map(|s| s.split('_'));
        let (Some(r), Some(c), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(r), Ok(c), Ok(d)) = (r.parse(), c.parse(), d.parse::<u8>()) else {
            continue;
        };
        if let Some(cell) = g.cell_at(r, c) {
            grid[cell] = d;
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_line;
    use crate::puzzle::Variant;

    #[test]
    fn honeycomb_lp_has_runs_and_givens() {
        let line = "..........4....16..53....7.9.........3............46.........";
        let p = parse_line(line.as_bytes(), Variant::Honeycomb, "t", 1)
            .unwrap()
            .unwrap();
        let text = lp(&p);
        assert!(text.starts_with("\\ termdoku: honeycomb"));
        assert!(text.contains(" cell_1_1: x_1_1_1 + x_1_1_2"));
        assert!(text.contains("\nBinary\n") && text.ends_with("End\n"));
        // Row 1 (5 cells, no givens) may hold any of the five runs.
        assert!(text.contains(" run_1: s_1_1 + s_1_2 + s_1_3 + s_1_4 + s_1_5 = 1"));
        assert!(text.contains(" given_2_6: x_2_6_4 = 1"), "{text}");
        let vals = [("x_2_6_4", 1.0), ("x_1_1_2", 0.0), ("s_1_1", 1.0)];
        let grid = grid_from_values(&p, vals);
        assert_eq!(grid[p.geometry().cell_at(2, 6).unwrap()], 4);
        assert_eq!(grid.iter().filter(|&&d| d != 0).count(), 1);
    }
}
