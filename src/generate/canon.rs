//! An invariant of 9x9 puzzles under the Sudoku symmetries: digit relabelling, row
//! permutations within a band, band permutations, the same for columns and stacks, and
//! transposition.
//!
//! Equivalent puzzles always get equal invariants, so puzzles whose invariants differ are
//! certainly not equivalent; that is all the variety test needs, at a tiny fraction of the
//! cost of a full minlex canonical form (which searches 3.4 million row/column arrangements
//! per puzzle). The features are fine enough that distinct random puzzles practically never
//! share one.

use super::rng::Rng;

/// The invariant of a 9x9 puzzle (givens in row-major order, 0 = empty).
pub fn invariant(givens: &[u8; 81]) -> Vec<u32> {
    let mut row = [0u32; 9];
    let mut col = [0u32; 9];
    let mut bx = [0u32; 9];
    let mut band = [0u32; 3];
    let mut stack = [0u32; 3];
    let mut freq = [0u32; 10];
    // Per digit, givens in each band and in each stack.
    let mut digit_band = [[0u32; 3]; 10];
    let mut digit_stack = [[0u32; 3]; 10];
    for (i, &d) in givens.iter().enumerate() {
        if d == 0 || d > 9 {
            continue;
        }
        let (r, c) = (i / 9, i % 9);
        row[r] += 1;
        col[c] += 1;
        bx[r / 3 * 3 + c / 3] += 1;
        band[r / 3] += 1;
        stack[c / 3] += 1;
        freq[usize::from(d)] += 1;
        digit_band[usize::from(d)][r / 3] += 1;
        digit_stack[usize::from(d)][c / 3] += 1;
    }
    let pair = |a: u32, b: u32| (a.min(b) << 4) | a.max(b);
    let mut cells: Vec<u32> = Vec::new();
    for (i, &d) in givens.iter().enumerate() {
        if d == 0 || d > 9 {
            continue;
        }
        let (r, c) = (i / 9, i % 9);
        let d = usize::from(d);
        let lines = pair(row[r], col[c]);
        let blocks = pair(band[r / 3], stack[c / 3]);
        let same = pair(digit_band[d][r / 3], digit_stack[d][c / 3]);
        cells.push(lines << 24 | bx[r / 3 * 3 + c / 3] << 20 | freq[d] << 16 | blocks << 8 | same);
    }
    cells.sort_unstable();
    let mut freqs: Vec<u32> = freq[1..].to_vec();
    freqs.sort_unstable();
    let mut lines: Vec<u32> = row.iter().chain(&col).copied().collect();
    lines.sort_unstable();
    let mut out = freqs;
    out.extend(lines);
    out.extend(cells);
    out
}

/// A random member of the puzzle's symmetry class (for tests of the invariant).
pub fn random_transform(givens: &[u8; 81], rng: &mut Rng) -> [u8; 81] {
    let perm = |rng: &mut Rng| -> [usize; 9] {
        let mut bands = [0usize, 1, 2];
        rng.shuffle(&mut bands);
        let mut out = [0usize; 9];
        for (k, &b) in bands.iter().enumerate() {
            let mut inner = [0usize, 1, 2];
            rng.shuffle(&mut inner);
            for j in 0..3 {
                out[k * 3 + j] = b * 3 + inner[j];
            }
        }
        out
    };
    let rows = perm(rng);
    let cols = perm(rng);
    let mut labels = [0u8, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    rng.shuffle(&mut labels[1..]);
    let transpose = rng.below(2) == 1;
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = (rows[r], cols[c]);
            let src = if transpose { sc * 9 + sr } else { sr * 9 + sc };
            out[r * 9 + c] = labels[usize::from(givens[src])];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (d, b) in g.iter_mut().zip(s.bytes()) {
            *d = if b.is_ascii_digit() { b - b'0' } else { 0 };
        }
        g
    }

    #[test]
    fn invariant_survives_every_symmetry() {
        let p = parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            assert_eq!(invariant(&random_transform(&p, &mut rng)), invariant(&p));
        }
    }

    #[test]
    fn invariant_separates_a_changed_clue() {
        let p = parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let mut q = p;
        q[1] = 9; // one more given
        assert_ne!(invariant(&p), invariant(&q));
    }
}
