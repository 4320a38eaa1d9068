//! Random jigsaw regions: N orthogonally connected regions of N cells each.
//!
//! Starts from the boxes and swaps boundary cells between neighbouring regions, keeping
//! each swap only when both regions stay connected. Swapping (rather than growing regions
//! from seeds) never strands cells, so every step yields a valid layout.

use super::rng::Rng;
use crate::geometry::square::{box_dims, connected, neighbours, LayoutError};

/// A random region label (`A`, `B`, ...) per cell, labelled in order of first appearance.
pub fn random_regions(size: usize, rng: &mut Rng) -> Result<Vec<char>, LayoutError> {
    let (br, bc) = box_dims(size)?;
    let n = size * size;
    let mut region: Vec<usize> = (0..n)
        .map(|c| (c / size / br) * (size / bc) + (c % size) / bc)
        .collect();
    // Enough successful swaps to carry every cell a few steps from its box.
    let target = 3 * n;
    let mut done = 0;
    let mut tries = 0;
    while done < target && tries < 50 * n {
        tries += 1;
        let a = rng.below(n);
        let ra = region[a];
        let nb: Vec<usize> = neighbours(size, a).filter(|&x| region[x] != ra).collect();
        let Some(&b) = rng.pick(&nb) else { continue };
        let rb = region[b];
        // A cell of region B, other than b, touching region A after a leaves it.
        let givers: Vec<usize> = (0..n)
            .filter(|&c| {
                region[c] == rb && c != b && neighbours(size, c).any(|x| x != a && region[x] == ra)
            })
            .collect();
        let Some(&c) = rng.pick(&givers) else {
            continue;
        };
        region[a] = rb;
        region[c] = ra;
        let cells_of = |r: usize| (0..n).filter(|&x| region[x] == r).collect::<Vec<_>>();
        if connected(size, &cells_of(ra)) && connected(size, &cells_of(rb)) {
            done += 1;
        } else {
            region[a] = ra;
            region[c] = rb;
        }
    }
    // Relabel by first appearance so the letters read A, B, C ... from the top left.
    let mut names: Vec<Option<char>> = vec![None; size];
    let mut next = b'A';
    let mut out = Vec::with_capacity(n);
    for &r in &region {
        let name = *names[r].get_or_insert_with(|| {
            let ch = next as char;
            next += 1;
            ch
        });
        out.push(name);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::square;

    #[test]
    fn regions_are_valid_and_not_boxes() {
        let mut rng = Rng::new(3);
        for size in [4, 6, 9] {
            let labels = random_regions(size, &mut rng).unwrap();
            square::square(size, Some(&labels), false, &[]).unwrap();
            let cells = |g: &crate::geometry::Geometry| -> Vec<Vec<usize>> {
                g.houses()[2 * size..]
                    .iter()
                    .map(|h| h.cells.clone())
                    .collect()
            };
            let boxes = square::standard(size).unwrap();
            let g = square::square(size, Some(&labels), false, &[]).unwrap();
            assert_ne!(cells(&g), cells(&boxes));
        }
    }
}
