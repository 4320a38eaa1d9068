//! Combinations of variant, size and level that `generate` refuses at once (exit 2) rather
//! than search for minutes: each was measured to give nothing within 15 s, or to give up
//! after 20000 attempts because the size cannot reach the level.

use crate::generate::Level;
use crate::puzzle::Variant;

/// Why this combination is not offered, or None when it is.
pub fn unsupported(variant: Variant, size: usize, level: Level) -> Option<String> {
    let size = if variant == Variant::Honeycomb {
        9
    } else {
        size
    };
    let highest = match (variant, size) {
        // Singles solve any unique 4x4 grid; cages give killer a little more room.
        (Variant::Killer, 4) => Level::Hard,
        (_, 4) => Level::Easy,
        // The cage and region searches do not finish a 16x16 grid in minutes.
        (Variant::Killer, 16) => {
            return Some(
                "killer puzzles are generated up to 9x9: a 16x16 killer takes longer than \
                 minutes to find"
                    .into(),
            )
        }
        (Variant::Jigsaw, 16) => Level::Easy,
        _ => Level::Extreme,
    };
    (level > highest).then(|| {
        format!(
            "no {} {variant} {size}x{size} puzzles: the highest level generated for this \
             size is {} ({})",
            level.name(),
            highest.name(),
            if size == 4 {
                "a 4x4 grid needs no harder logic"
            } else {
                "harder ones take longer than minutes to find"
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slow_combinations_are_named() {
        assert!(unsupported(Variant::Killer, 16, Level::Easy).is_some());
        assert!(unsupported(Variant::Jigsaw, 16, Level::Medium).is_some());
        assert!(unsupported(Variant::Jigsaw, 16, Level::Easy).is_none());
        assert!(unsupported(Variant::Standard, 4, Level::Medium).is_some());
        assert!(unsupported(Variant::Standard, 16, Level::Extreme).is_none());
        assert!(unsupported(Variant::Honeycomb, 16, Level::Extreme).is_none());
    }
}
