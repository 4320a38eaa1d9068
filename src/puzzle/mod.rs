//! A puzzle: a layout (variant, size, regions, cages), its geometry, and the givens.

mod grid;

pub use grid::Grid;

use crate::geometry::square::{self, CageSpec, LayoutError};
use crate::geometry::{honeycomb, Cell, Geometry, Rule};
use std::fmt;
use std::sync::Arc;

/// The variant names of the command line and of TOML files.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    #[default]
    Standard,
    Diagonal,
    Jigsaw,
    Killer,
    Honeycomb,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Standard,
        Variant::Diagonal,
        Variant::Jigsaw,
        Variant::Killer,
        Variant::Honeycomb,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Diagonal => "diagonal",
            Variant::Jigsaw => "jigsaw",
            Variant::Killer => "killer",
            Variant::Honeycomb => "honeycomb",
        }
    }

    pub fn parse(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == s)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything about a puzzle except its givens: enough to build the geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub variant: Variant,
    /// Side length for square grids (9 for honeycomb, where it is unused).
    pub size: usize,
    /// The X rule on both long diagonals.
    pub diagonals: bool,
    /// Jigsaw region label per cell.
    pub regions: Option<Vec<char>>,
    pub cages: Vec<CageSpec>,
}

impl Layout {
    pub fn new(variant: Variant, size: usize) -> Layout {
        Layout {
            variant,
            size: if variant == Variant::Honeycomb {
                9
            } else {
                size
            },
            diagonals: variant == Variant::Diagonal,
            regions: None,
            cages: Vec::new(),
        }
    }

    /// Number of cells this layout has.
    pub fn cell_count(&self) -> usize {
        match self.variant {
            Variant::Honeycomb => 61,
            _ => self.size * self.size,
        }
    }

    /// Whether the geometry follows from variant, size and diagonals alone (no regions,
    /// no cages): such layouts can share one (see [`Geometries`]).
    fn is_plain(&self) -> bool {
        self.regions.is_none() && self.cages.is_empty()
    }

    pub fn geometry(&self) -> Result<Geometry, LayoutError> {
        match self.variant {
            Variant::Honeycomb => Ok(honeycomb::honeycomb()),
            _ => square::square(
                self.size,
                self.regions.as_deref(),
                self.diagonals,
                &self.cages,
            ),
        }
    }
}

/// Geometries of plain layouts, built once and shared by the puzzles of one reader:
/// building peers is far dearer than solving an easy 9x9, so a file of a million lines must
/// not rebuild it. Owned by whoever reads many puzzles (no global cache).
#[derive(Default)]
pub struct Geometries(Vec<(Variant, usize, bool, Arc<Geometry>)>);

impl Geometries {
    /// The geometry of `layout`, shared with earlier puzzles of the same plain layout.
    pub fn of(&mut self, layout: &Layout) -> Result<Arc<Geometry>, LayoutError> {
        if !layout.is_plain() {
            return Ok(Arc::new(layout.geometry()?));
        }
        let key = (layout.variant, layout.size, layout.diagonals);
        if let Some(e) = self.0.iter().find(|e| (e.0, e.1, e.2) == key) {
            return Ok(Arc::clone(&e.3));
        }
        let g = Arc::new(layout.geometry()?);
        self.0.push((key.0, key.1, key.2, Arc::clone(&g)));
        Ok(g)
    }
}

/// A puzzle: layout, geometry and givens (0 = empty).
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub layout: Layout,
    pub givens: Vec<u8>,
    pub title: Option<String>,
    pub source: Option<String>,
    pub difficulty: Option<String>,
    geometry: Arc<Geometry>,
}

impl PartialEq for Puzzle {
    fn eq(&self, o: &Puzzle) -> bool {
        self.layout == o.layout
            && self.givens == o.givens
            && self.title == o.title
            && self.source == o.source
            && self.difficulty == o.difficulty
    }
}

/// Why givens do not fit a layout.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error(transparent)]
    Layout(#[from] LayoutError),
    #[error("{found} cells, expected {expected}")]
    CellCount { found: usize, expected: usize },
    #[error("{cell}: digit {digit} is out of range 1-{max}")]
    DigitRange { cell: String, digit: u8, max: u8 },
}

impl Puzzle {
    pub fn new(layout: Layout, givens: Vec<u8>) -> Result<Puzzle, PuzzleError> {
        let geometry = Arc::new(layout.geometry()?);
        Puzzle::with_geometry(layout, geometry, givens)
    }

    /// Like [`Puzzle::new`], taking the geometry from `geometries` (many puzzles of one
    /// layout share it).
    pub fn in_geometries(
        layout: Layout,
        givens: Vec<u8>,
        geometries: &mut Geometries,
    ) -> Result<Puzzle, PuzzleError> {
        let geometry = geometries.of(&layout)?;
        Puzzle::with_geometry(layout, geometry, givens)
    }

    /// Like [`Puzzle::new`], sharing an already built geometry of the same layout.
    pub fn with_geometry(
        layout: Layout,
        geometry: Arc<Geometry>,
        givens: Vec<u8>,
    ) -> Result<Puzzle, PuzzleError> {
        if givens.len() != geometry.cell_count() {
            return Err(PuzzleError::CellCount {
                found: givens.len(),
                expected: geometry.cell_count(),
            });
        }
        // The largest value first (no early exit, so it vectorizes), the position only on error.
        let max = geometry.max_digit();
        let largest = givens.iter().fold(0, |m, &d| m.max(d));
        if let Some(c) = (largest > max)
            .then(|| givens.iter().position(|&d| d > max))
            .flatten()
        {
            return Err(PuzzleError::DigitRange {
                cell: geometry.cell_name(c),
                digit: givens[c],
                max: geometry.max_digit(),
            });
        }
        Ok(Puzzle {
            layout,
            givens,
            title: None,
            source: None,
            difficulty: None,
            geometry,
        })
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    pub fn geometry_arc(&self) -> Arc<Geometry> {
        Arc::clone(&self.geometry)
    }

    pub fn variant(&self) -> Variant {
        self.layout.variant
    }

    pub fn given_count(&self) -> usize {
        self.givens.iter().filter(|&&d| d != 0).count()
    }

    /// Pairs of cells whose givens break a rule at once (equal digits in one house).
    pub fn conflicts(&self) -> Vec<(Cell, Cell)> {
        let g = &*self.geometry;
        let mut out = Vec::new();
        for c in g.cells() {
            if self.givens[c] == 0 {
                continue;
            }
            for &p in g.peers(c) {
                if p > c && self.givens[p] == self.givens[c] {
                    out.push((c, p));
                }
            }
        }
        out
    }

    /// Checks a full assignment against every rule directly (not through any solver):
    /// givens kept, each house's digits distinct and obeying its rule.
    pub fn check_solution(&self, values: &[u8]) -> Result<(), String> {
        let g = &*self.geometry;
        if values.len() != g.cell_count() {
            return Err(format!(
                "{} values for {} cells",
                values.len(),
                g.cell_count()
            ));
        }
        for c in g.cells() {
            if !(1..=g.max_digit()).contains(&values[c]) {
                return Err(format!("{} holds {}", g.cell_name(c), values[c]));
            }
            if self.givens[c] != 0 && self.givens[c] != values[c] {
                return Err(format!(
                    "{} changes given {}",
                    g.cell_name(c),
                    self.givens[c]
                ));
            }
        }
        for house in g.houses() {
            let mut digits: Vec<u32> = house.cells.iter().map(|&c| u32::from(values[c])).collect();
            digits.sort_unstable();
            if digits.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("{} repeats a digit", house.name()));
            }
            let ok = match house.rule {
                Rule::Complete => digits.len() == usize::from(g.max_digit()),
                Rule::ConsecutiveRun => {
                    digits.last().copied().unwrap_or(0) + 1 - digits.first().copied().unwrap_or(1)
                        == digits.len() as u32
                }
                Rule::Cage { sum } => digits.iter().sum::<u32>() == sum,
            };
            if !ok {
                return Err(format!("{} breaks its {:?} rule", house.name(), house.rule));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checker_rejects_each_rule_break() {
        let layout = Layout::new(Variant::Standard, 4);
        let p = Puzzle::new(layout, vec![0; 16]).unwrap();
        let good = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        assert_eq!(p.check_solution(&good), Ok(()));
        let mut bad = good;
        bad.swap(0, 1); // columns 1 and 2 now repeat
        assert!(p.check_solution(&bad).is_err());
        let given = Puzzle::new(Layout::new(Variant::Standard, 4), {
            let mut v = vec![0; 16];
            v[0] = 2;
            v
        })
        .unwrap();
        assert!(given.check_solution(&good).unwrap_err().contains("given"));
    }

    #[test]
    fn conflicts_name_both_cells() {
        let mut givens = vec![0; 81];
        givens[0] = 5;
        givens[80] = 5;
        let p = Puzzle::new(Layout::new(Variant::Diagonal, 9), givens).unwrap();
        assert_eq!(p.conflicts(), vec![(0, 80)]);
        let plain = Puzzle::new(Layout::new(Variant::Standard, 9), p.givens.clone()).unwrap();
        assert!(plain.conflicts().is_empty());
    }
}
