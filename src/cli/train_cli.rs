//! `termdoku train [TECHNIQUE] [--variant V]`: the player with its trainer open.

use super::coach_cli::resolve;
use super::EXIT_USAGE;
use crate::coach::bank;
use crate::puzzle::Variant;

/// Checks the technique (named, on the variant, with drills in the bank) before the
/// player starts, so a typo is an error on the terminal, not a screen.
pub fn train(technique: Option<&str>, variant: Option<Variant>) -> i32 {
    let technique = match technique {
        Some(name) => match resolve(name, variant) {
            Ok(t) => {
                let v = variant.unwrap_or_default();
                if bank::count(t.id, v) == 0 {
                    eprintln!(
                        "termdoku: the drill bank has no {} drill on {v}; `termdoku drill --technique {} --variant {v}` makes some",
                        t.name, t.id
                    );
                    return EXIT_USAGE;
                }
                Some(t)
            }
            Err(e) => {
                eprintln!("termdoku: {e}");
                return EXIT_USAGE;
            }
        },
        None => None,
    };
    crate::tui::play(crate::tui::PlayArgs {
        train: Some(crate::tui::TrainArgs {
            technique,
            // A named technique without --variant trains on standard, as the check did.
            variant: variant.or(technique.map(|_| Variant::Standard)),
        }),
        ..Default::default()
    })
}
