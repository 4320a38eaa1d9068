//! Random killer cages over a known solution: connected groups of cells with distinct
//! digits, their sums taken from the solution.

use super::rng::Rng;
use crate::geometry::square::{neighbours, CageSpec};

/// Cages covering every cell of a `size` x `size` solution. Sizes are drawn from
/// `min_len..=max_len`; a cell left with no free neighbour joins an adjacent cage that lacks
/// its digit, and stays a one-cell cage only when no such cage exists.
pub fn random_cages(
    solution: &[u8],
    size: usize,
    min_len: usize,
    max_len: usize,
    rng: &mut Rng,
) -> Vec<CageSpec> {
    let n = size * size;
    let mut owner: Vec<Option<usize>> = vec![None; n];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    for &start in &order {
        if owner[start].is_some() {
            continue;
        }
        let id = cages.len();
        let target = rng.range(min_len, max_len);
        let mut cells = vec![start];
        owner[start] = Some(id);
        while cells.len() < target {
            let frontier: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(size, c))
                .filter(|&x| {
                    owner[x].is_none() && cells.iter().all(|&c| solution[c] != solution[x])
                })
                .collect();
            let Some(&next) = rng.pick(&frontier) else {
                break;
            };
            owner[next] = Some(id);
            cells.push(next);
        }
        cages.push(cells);
    }
    // One-cell cages give a digit away; fold them into a neighbour where the digit fits.
    for id in 0..cages.len() {
        if cages[id].len() != 1 {
            continue;
        }
        let c = cages[id][0];
        let mut hosts: Vec<usize> = neighbours(size, c)
            .filter_map(|x| owner[x])
            .filter(|&h| {
                h != id
                    && cages[h].len() < max_len.max(2) + 1
                    && cages[h].iter().all(|&m| solution[m] != solution[c])
            })
            .collect();
        hosts.sort_unstable();
        hosts.dedup();
        if let Some(&h) = rng.pick(&hosts) {
            cages[h].push(c);
            cages[id].clear();
            owner[c] = Some(h);
        }
    }
    let mut out: Vec<CageSpec> = cages
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|mut cells| {
            cells.sort_unstable();
            CageSpec {
                sum: cells.iter().map(|&c| u32::from(solution[c])).sum(),
                cells,
            }
        })
        .collect();
    // Number cages from the top left, as a reader would.
    out.sort_by_key(|c| c.cells[0]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::square;

    #[test]
    fn cages_cover_the_grid_with_distinct_digits() {
        let solution: Vec<u8> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u8
            })
            .collect();
        let mut rng = Rng::new(11);
        let cages = random_cages(&solution, 9, 2, 5, &mut rng);
        let total: usize = cages.iter().map(|c| c.cells.len()).sum();
        assert_eq!(total, 81);
        // The geometry builder checks overlaps and sums.
        square::square(9, None, false, &cages).unwrap();
        assert!(cages.iter().all(|c| c.cells.len() <= 6));
    }
}
