//! Bit-plane exact solver for geometries of up to 128 cells (every variant but 16x16).
//!
//! One mask per digit holds the cells where that digit can still go, and every house is a
//! mask too, so singles, run windows and cage combinations are a few word operations per
//! house instead of a walk over its cells. Same rules and search as the reference solver in
//! [`super::exact`], which it is tested against. The body is compiled twice, for 64-bit
//! masks (honeycomb, 4x4, 6x6: half the work per operation) and 128-bit masks (9x9).

use super::exact::Solutions;
use crate::geometry::{Digits, Geometry};

/// The largest geometry this solver takes.
pub const MAX_CELLS: usize = 128;

mod wide {
    use super::super::exact::{digit_sets, Solutions};
    use crate::geometry::{Digits, Geometry};
    type Mask = u128;
    include!("planes_body.rs");
}

mod narrow {
    use super::super::exact::{digit_sets, Solutions};
    use crate::geometry::{Digits, Geometry};
    type Mask = u64;
    include!("planes_body.rs");
}

/// Counts solutions of a candidate grid; None when the geometry is too large for planes.
pub fn solve(geometry: &Geometry, candidates: &[Digits], limit: usize) -> Option<Solutions> {
    let n = geometry.cell_count();
    if candidates.len() != n {
        return None;
    }
    match n {
        0..=64 => Some(narrow::solve(geometry, candidates, limit)),
        65..=MAX_CELLS => Some(wide::solve(geometry, candidates, limit)),
        _ => None,
    }
}
