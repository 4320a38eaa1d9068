//! Square grids: N x N with boxes, optional X diagonals, jigsaw regions and killer cages.

use super::{Cell, Diagonal, Geometry, House, HouseKind, Rule, Shape};

/// Why a square layout cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("unsupported grid size {0} (expected 4, 6, 9 or 16)")]
    UnsupportedSize(usize),
    #[error("region {region} has {found} cells, expected {expected}")]
    RegionSize {
        region: char,
        found: usize,
        expected: usize,
    },
    #[error("region {region} is not connected")]
    RegionDisconnected { region: char },
    #[error("{found} regions, expected {expected}")]
    RegionCount { found: usize, expected: usize },
    #[error("cage {cage}: {cell} is already in cage {other}")]
    CageOverlap {
        cage: usize,
        cell: String,
        other: usize,
    },
    #[error("cage {cage}: {cell} appears twice")]
    CageRepeat { cage: usize, cell: String },
    #[error("cage {cage}: sum {sum} is impossible for {cells} distinct digits (possible: {min}..={max})")]
    CageSum {
        cage: usize,
        sum: u32,
        cells: usize,
        min: u32,
        max: u32,
    },
    #[error("cage {cage} has no cells")]
    CageEmpty { cage: usize },
}

/// A killer cage: a sum over distinct digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageSpec {
    pub sum: u32,
    pub cells: Vec<Cell>,
}

/// Box height and width for a supported size.
pub fn box_dims(size: usize) -> Result<(usize, usize), LayoutError> {
    match size {
        4 => Ok((2, 2)),
        6 => Ok((2, 3)),
        9 => Ok((3, 3)),
        16 => Ok((4, 4)),
        _ => Err(LayoutError::UnsupportedSize(size)),
    }
}

/// The plain N x N grid with boxes.
pub fn standard(size: usize) -> Result<Geometry, LayoutError> {
    square(size, None, false, &[])
}

/// A square grid: boxes unless `regions` (one label per cell) replaces them, the two long
/// diagonals when `diagonals`, and killer cages.
pub fn square(
    size: usize,
    regions: Option<&[char]>,
    diagonals: bool,
    cages: &[CageSpec],
) -> Result<Geometry, LayoutError> {
    let (br, bc) = box_dims(size)?;
    let at = |r: usize, c: usize| r * size + c;
    let mut houses = Vec::new();
    for r in 0..size {
        houses.push(House {
            kind: HouseKind::Row(r as u8 + 1),
            rule: Rule::Complete,
            cells: (0..size).map(|c| at(r, c)).collect(),
        });
    }
    for c in 0..size {
        houses.push(House {
            kind: HouseKind::Column(c as u8 + 1),
            rule: Rule::Complete,
            cells: (0..size).map(|r| at(r, c)).collect(),
        });
    }
    match regions {
        None => {
            for b in 0..size {
                let (r0, c0) = ((b / (size / bc)) * br, (b % (size / bc)) * bc);
                let cells = (0..size).map(|i| at(r0 + i / bc, c0 + i % bc)).collect();
                houses.push(House {
                    kind: HouseKind::Box(b as u8 + 1),
                    rule: Rule::Complete,
                    cells,
                });
            }
        }
        Some(labels) => houses.extend(region_houses(size, labels)?),
    }
    if diagonals {
        houses.push(House {
            kind: HouseKind::Diagonal(Diagonal::Main),
            rule: Rule::Complete,
            cells: (0..size).map(|i| at(i, i)).collect(),
        });
        houses.push(House {
            kind: HouseKind::Diagonal(Diagonal::Anti),
            rule: Rule::Complete,
            cells: (0..size).map(|i| at(size - 1 - i, i)).collect(),
        });
    }
    houses.extend(cage_houses(size, cages)?);
    Ok(Geometry::build(
        Shape::Square {
            size,
            box_rows: br,
            box_cols: bc,
        },
        size as u8,
        vec![size; size],
        houses,
    ))
}

fn region_houses(size: usize, labels: &[char]) -> Result<Vec<House>, LayoutError> {
    let mut names: Vec<char> = labels.to_vec();
    names.sort_unstable();
    names.dedup();
    let mut houses = Vec::new();
    for &name in &names {
        let cells: Vec<Cell> = (0..labels.len()).filter(|&i| labels[i] == name).collect();
        if cells.len() != size {
            return Err(LayoutError::RegionSize {
                region: name,
                found: cells.len(),
                expected: size,
            });
        }
        if !connected(size, &cells) {
            return Err(LayoutError::RegionDisconnected { region: name });
        }
        houses.push(House {
            kind: HouseKind::Region(name),
            rule: Rule::Complete,
            cells,
        });
    }
    if names.len() != size {
        return Err(LayoutError::RegionCount {
            found: names.len(),
            expected: size,
        });
    }
    Ok(houses)
}

/// The up to four orthogonal neighbours of cell `c` in an N x N grid.
pub fn neighbours(size: usize, c: usize) -> impl Iterator<Item = usize> {
    let (r, col) = (c / size, c % size);
    [
        (r > 0).then(|| c - size),
        (r + 1 < size).then(|| c + size),
        (col > 0).then(|| c - 1),
        (col + 1 < size).then(|| c + 1),
    ]
    .into_iter()
    .flatten()
}

/// Orthogonal connectivity of a set of cells in an N x N grid.
pub fn connected(size: usize, cells: &[Cell]) -> bool {
    let Some(&start) = cells.first() else {
        return true;
    };
    let mut seen = vec![start];
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for n in neighbours(size, c) {
            if cells.contains(&n) && !seen.contains(&n) {
                seen.push(n);
                stack.push(n);
            }
        }
    }
    seen.len() == cells.len()
}

/// The smallest and largest sums of `k` distinct digits from `1..=n`.
pub fn sum_bounds(k: usize, n: usize) -> (u32, u32) {
    let k = k as u32;
    let n = n as u32;
    (k * (k + 1) / 2, k * (2 * n + 1 - k) / 2)
}

fn cage_houses(size: usize, cages: &[CageSpec]) -> Result<Vec<House>, LayoutError> {
    let name = |c: Cell| format!("r{}c{}", c / size + 1, c % size + 1);
    let mut owner: Vec<Option<usize>> = vec![None; size * size];
    let mut houses = Vec::new();
    for (i, cage) in cages.iter().enumerate() {
        let number = i + 1;
        if cage.cells.is_empty() {
            return Err(LayoutError::CageEmpty { cage: number });
        }
        for (j, &c) in cage.cells.iter().enumerate() {
            if cage.cells[..j].contains(&c) {
                return Err(LayoutError::CageRepeat {
                    cage: number,
                    cell: name(c),
                });
            }
            if let Some(other) = owner[c] {
                return Err(LayoutError::CageOverlap {
                    cage: number,
                    cell: name(c),
                    other,
                });
            }
            owner[c] = Some(number);
        }
        let k = cage.cells.len();
        let (min, max) = if k <= size {
            sum_bounds(k, size)
        } else {
            (u32::MAX, 0)
        };
        if cage.sum < min || cage.sum > max {
            return Err(LayoutError::CageSum {
                cage: number,
                sum: cage.sum,
                cells: k,
                min: min.min(max),
                max,
            });
        }
        houses.push(House {
            kind: HouseKind::Cage(number as u16),
            rule: Rule::Cage { sum: cage.sum },
            cells: cage.cells.clone(),
        });
    }
    Ok(houses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_by_six_boxes_are_two_by_three() {
        let g = standard(6).unwrap();
        let b2 = &g.houses()[g.find_house(HouseKind::Box(2)).unwrap()];
        assert_eq!(b2.cells, vec![3, 4, 5, 9, 10, 11]);
        assert!(g.cells().all(|c| g.peers(c).len() == 5 + 5 + 2));
    }

    #[test]
    fn sixteen_uses_digits_to_g() {
        let g = standard(16).unwrap();
        assert_eq!(g.max_digit(), 16);
        assert_eq!(g.houses().len(), 48);
    }

    #[test]
    fn diagonals_add_peers_on_the_diagonals_only() {
        let g = square(9, None, true, &[]).unwrap();
        assert_eq!(g.houses().len(), 29);
        assert_eq!(g.peers(0).len(), 20 + 6); // r1c1: 8 diagonal cells, 2 already in its box
        assert_eq!(g.peers(1).len(), 20);
        assert!(!g.is_plain_9x9());
    }

    #[test]
    fn jigsaw_regions_are_checked() {
        let ok: Vec<char> = "AABBAABBCCDDCCDD".chars().collect();
        assert!(square(4, Some(&ok), false, &[]).is_ok());
        let wrong_size: Vec<char> = "AAAAABBBCCDDCCDD".chars().collect();
        assert_eq!(
            square(4, Some(&wrong_size), false, &[]).unwrap_err(),
            LayoutError::RegionSize {
                region: 'A',
                found: 5,
                expected: 4
            }
        );
        let split: Vec<char> = "ABBABAABCCDDCCDD".chars().collect();
        assert_eq!(
            square(4, Some(&split), false, &[]).unwrap_err(),
            LayoutError::RegionDisconnected { region: 'A' }
        );
    }

    #[test]
    fn impossible_cage_sums_are_refused() {
        let cages = [CageSpec {
            sum: 18,
            cells: vec![0, 1],
        }];
        let err = square(9, None, false, &cages).unwrap_err();
        assert!(err.to_string().contains("possible: 3..=17"), "{err}");
        let overlap = [
            CageSpec {
                sum: 3,
                cells: vec![0, 1],
            },
            CageSpec {
                sum: 3,
                cells: vec![1, 2],
            },
        ];
        assert!(matches!(
            square(9, None, false, &overlap),
            Err(LayoutError::CageOverlap { .. })
        ));
    }
}
