//! Clue symmetry: the orbits of cells that are kept or removed together.

use crate::geometry::{honeycomb, Cell, Geometry, Shape};

/// How the givens of a generated puzzle are arranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    None,
    /// Half turn: the classic newspaper symmetry.
    #[default]
    Rotate180,
    /// Quarter turns (square grids only).
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Reflection in the main diagonal (square grids only).
    Diagonal,
}

impl Symmetry {
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Rotate180,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Diagonal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotate180 => "rotate180",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Diagonal => "diagonal",
        }
    }

    pub fn parse(s: &str) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|v| v.name() == s)
    }

    /// Whether the symmetry maps this geometry's cells onto its cells.
    pub fn fits(self, geometry: &Geometry) -> bool {
        match geometry.shape() {
            Shape::Square { .. } => true,
            Shape::Honeycomb => matches!(
                self,
                Symmetry::None | Symmetry::Rotate180 | Symmetry::Mirror
            ),
        }
    }
}

/// The images of a cell under the symmetry group, the cell itself included.
fn images(symmetry: Symmetry, geometry: &Geometry, cell: Cell) -> Vec<Cell> {
    let mut out = vec![cell];
    match geometry.shape() {
        Shape::Square { size: n, .. } => {
            let (r, c) = (cell / n, cell % n);
            let at = |r: usize, c: usize| r * n + c;
            match symmetry {
                Symmetry::None => {}
                Symmetry::Rotate180 => out.push(at(n - 1 - r, n - 1 - c)),
                Symmetry::Rotate90 => {
                    out.push(at(c, n - 1 - r));
                    out.push(at(n - 1 - r, n - 1 - c));
                    out.push(at(n - 1 - c, r));
                }
                Symmetry::Mirror => out.push(at(r, n - 1 - c)),
                Symmetry::Diagonal => out.push(at(c, r)),
            }
        }
        Shape::Honeycomb => {
            let (i, j) = geometry.coords(cell);
            let (i, j) = (usize::from(i), usize::from(j));
            let len = honeycomb::row_length(i);
            let image = match symmetry {
                // Rows are mirrored top to bottom with equal lengths, so a half turn is
                // simply the reversed cell order.
                Symmetry::Rotate180 => geometry.cell_at(10 - i, len + 1 - j),
                Symmetry::Mirror => geometry.cell_at(i, len + 1 - j),
                _ => None,
            };
            out.extend(image);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Partitions the cells into orbits (each listed once, in cell order).
pub fn orbits(symmetry: Symmetry, geometry: &Geometry) -> Vec<Vec<Cell>> {
    let mut seen = vec![false; geometry.cell_count()];
    let mut out = Vec::new();
    for cell in geometry.cells() {
        if seen[cell] {
            continue;
        }
        let orbit = images(symmetry, geometry, cell);
        for &c in &orbit {
            seen[c] = true;
        }
        out.push(orbit);
    }
    out
}

/// True when the givens (0 = empty) look the same under the symmetry.
pub fn is_symmetric(symmetry: Symmetry, geometry: &Geometry, givens: &[u8]) -> bool {
    orbits(symmetry, geometry)
        .iter()
        .all(|o| o.iter().all(|&c| (givens[c] == 0) == (givens[o[0]] == 0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::square;

    #[test]
    fn orbit_sizes() {
        let g = square::standard(9).unwrap();
        assert_eq!(orbits(Symmetry::None, &g).len(), 81);
        assert_eq!(orbits(Symmetry::Rotate180, &g).len(), 41);
        assert_eq!(orbits(Symmetry::Rotate90, &g).len(), 21);
        assert_eq!(orbits(Symmetry::Mirror, &g).len(), 45);
        assert_eq!(orbits(Symmetry::Diagonal, &g).len(), 45);
        let h = honeycomb::honeycomb();
        assert_eq!(orbits(Symmetry::Rotate180, &h).len(), 31);
        let o = orbits(Symmetry::Rotate180, &h);
        assert!(o.iter().all(|o| o.len() == 1 || o[0] + o[1] == 60));
        assert!(!Symmetry::Rotate90.fits(&h));
    }
}
