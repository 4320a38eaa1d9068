//! Honeycomb (Hanidoku): 61 hexagonal cells in rows of 5,6,7,8,9,8,7,6,5, with 9 rows,
//! 9 `/` lines and 9 `\` lines. Nine-cell lines hold 1..=9; shorter ones a consecutive run.

use super::{Geometry, House, HouseKind, Rule, Shape};

/// Cells in row `i` (1-based).
pub fn row_length(i: usize) -> usize {
    9 - (i as isize - 5).unsigned_abs()
}

/// The `/` line index `b` of cell (i, j), both 1-based.
pub fn forward_line(i: usize, j: usize) -> usize {
    j + i.saturating_sub(5)
}

/// The `\` line index `c` of cell (i, j), both 1-based.
pub fn backward_line(i: usize, j: usize) -> usize {
    j + 5usize.saturating_sub(i)
}

pub fn honeycomb() -> Geometry {
    let lengths: Vec<usize> = (1..=9).map(row_length).collect();
    let mut cells = Vec::new(); // (i, j) per cell index
    for (i, &len) in lengths.iter().enumerate() {
        for j in 1..=len {
            cells.push((i + 1, j));
        }
    }
    let rule = |n: usize| {
        if n == 9 {
            Rule::Complete
        } else {
            Rule::ConsecutiveRun
        }
    };
    let mut houses = Vec::new();
    for r in 1..=9 {
        let members: Vec<usize> = (0..cells.len()).filter(|&k| cells[k].0 == r).collect();
        houses.push(House {
            kind: HouseKind::Row(r as u8),
            rule: rule(members.len()),
            cells: members,
        });
    }
    for b in 1..=9 {
        let members: Vec<usize> = (0..cells.len())
            .filter(|&k| forward_line(cells[k].0, cells[k].1) == b)
            .collect();
        houses.push(House {
            kind: HouseKind::Forward(b as u8),
            rule: rule(members.len()),
            cells: members,
        });
    }
    for c in 1..=9 {
        let members: Vec<usize> = (0..cells.len())
            .filter(|&k| backward_line(cells[k].0, cells[k].1) == c)
            .collect();
        houses.push(House {
            kind: HouseKind::Backward(c as u8),
            rule: rule(members.len()),
            cells: members,
        });
    }
    Geometry::build(Shape::Honeycomb, 9, lengths, houses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_match_the_design_notation() {
        let g = honeycomb();
        let f1 = g.find_house(HouseKind::Forward(1)).unwrap();
        let names: Vec<String> = g.house(f1).cells.iter().map(|&c| g.cell_name(c)).collect();
        assert_eq!(names, ["r1c1", "r2c1", "r3c1", "r4c1", "r5c1"]);
        let r1c1 = g.parse_cell("r1c1").unwrap();
        let b5 = g.find_house(HouseKind::Backward(5)).unwrap();
        assert!(g.house(b5).cells.contains(&r1c1));
        let mut sizes: Vec<usize> = g.houses().iter().map(|h| h.cells.len()).collect();
        sizes.sort_unstable();
        assert_eq!(sizes.iter().sum::<usize>(), 61 * 3);
        assert_eq!(
            g.houses()
                .iter()
                .filter(|h| h.rule == Rule::Complete)
                .count(),
            3
        );
    }
}
