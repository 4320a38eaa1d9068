//! Where each technique of the table can occur, and what `termdoku techniques` prints.

use crate::puzzle::Variant;
use crate::solver::logic::{techniques, Family, TechniqueInfo};

/// Whether a technique can occur in a variant, by the rules it needs: run and cage
/// techniques need their houses; box-line intersections and fish need houses that share
/// several cells and parallel complete lines, which honeycomb lacks; uniqueness arguments
/// need every house complete (no cages, no runs); Hall sets beyond the subsets need houses
/// that are not complete.
pub fn occurs_in(t: &TechniqueInfo, v: Variant) -> bool {
    use Variant::*;
    match t.family {
        Family::Runs => v == Honeycomb,
        // Run forcing takes run lines case by case.
        Family::Forcing if t.id.ends_with("run-forcing") => v == Honeycomb,
        // Deep nets look for run lines (only where a honeycomb's nets are stuck).
        Family::Forcing if t.id == "deep-forcing-net" => v == Honeycomb,
        Family::Cages => v == Killer,
        Family::Matching => matches!(v, Killer | Honeycomb),
        Family::Uniqueness => matches!(v, Standard | Diagonal | Jigsaw),
        // Templates need rows that are complete houses of every digit.
        Family::Templates => matches!(v, Standard | Diagonal | Jigsaw),
        Family::Intersections | Family::Fish | Family::ComplexFish | Family::SueDeCoq => {
            v != Honeycomb
        }
        Family::Subsets if t.id.starts_with("locked-") => v != Honeycomb,
        Family::LastResort => false,
        _ => true,
    }
}

/// The variants where a technique can occur.
pub fn variants(t: &TechniqueInfo) -> Vec<Variant> {
    Variant::ALL
        .into_iter()
        .filter(|&v| occurs_in(t, v))
        .collect()
}

/// A technique only some variants' own houses give (runs, cages, Hall sets), as opposed to
/// a classic one that standard Sudoku has too.
pub fn is_variant_technique(t: &TechniqueInfo) -> bool {
    !occurs_in(t, Variant::Standard)
}

/// The table rows a user may name, in search order.
pub fn nameable() -> impl Iterator<Item = &'static TechniqueInfo> {
    techniques().iter().filter(|t| t.is_nameable())
}

/// `x-wing` does not occur in honeycomb: the error of a technique asked for a variant.
pub fn check_variant(t: &TechniqueInfo, v: Variant) -> Result<(), String> {
    if occurs_in(t, v) {
        Ok(())
    } else {
        let list: Vec<&str> = variants(t).iter().map(|v| v.name()).collect();
        Err(format!(
            "{} ({}) does not occur in {} (it occurs in: {})",
            t.name,
            t.id,
            v.name(),
            list.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::logic::technique;

    #[test]
    fn variant_techniques_belong_to_their_variants() {
        let t = |id| technique(id).unwrap();
        assert_eq!(variants(t("run-range")), vec![Variant::Honeycomb]);
        assert_eq!(variants(t("run-forcing")), vec![Variant::Honeycomb]);
        assert_eq!(variants(t("forcing-net")).len(), 5);
        assert_eq!(variants(t("cage-combination")), vec![Variant::Killer]);
        assert!(!occurs_in(t("x-wing"), Variant::Honeycomb));
        assert!(occurs_in(t("x-wing"), Variant::Killer));
        assert!(!occurs_in(t("unique-rectangle-1"), Variant::Killer));
        assert_eq!(variants(t("naked-single")).len(), 5);
        assert!(check_variant(t("x-wing"), Variant::Honeycomb)
            .unwrap_err()
            .contains("X-Wing (x-wing) does not occur in honeycomb"));
        assert!(nameable().all(|t| !variants(t).is_empty()));
    }
}
