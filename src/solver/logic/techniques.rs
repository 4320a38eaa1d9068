//! The technique table: ids, names, families, levels, scores and search order as data.
//! Order, levels and scores are HoDoKu 2.2's defaults, so that ratings can be compared.

use std::fmt;

/// Difficulty levels, as HoDoKu's.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Unfair,
    Extreme,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }

    /// The largest score a puzzle of this level may have (HoDoKu's defaults).
    pub fn max_score(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme => u32::MAX,
        }
    }

    pub(crate) fn next(self) -> Level {
        match self {
            Level::Easy => Level::Medium,
            Level::Medium => Level::Hard,
            Level::Hard => Level::Unfair,
            _ => Level::Extreme,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        let l = s.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|x| x.name() == l)
            .ok_or_else(|| {
                format!("unknown level '{s}' (expected easy, medium, hard, unfair or extreme)")
            })
    }
}

/// Which family (and so which file) finds a technique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Singles,
    Intersections,
    Subsets,
    Fish,
    SingleDigit,
    Wings,
    Coloring,
    Uniqueness,
    /// Consecutive-run lines (honeycomb): `runs.rs`.
    Runs,
    /// Hall sets by bipartite matching: `matching.rs`.
    Matching,
    /// Killer cage sums: `cages.rs`.
    Cages,
    Chains,
    Als,
    /// Franken and mutant fish: `complex_fish.rs`.
    ComplexFish,
    /// Sue de Coq: `sue_de_coq.rs`.
    SueDeCoq,
    Forcing,
    /// Every placement of one digit: `templates.rs`.
    Templates,
    /// Steps taken from the known solution.
    LastResort,
}

/// One row of the technique table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TechniqueInfo {
    /// kebab-case id used in JSON, tests and configuration.
    pub id: &'static str,
    pub name: &'static str,
    pub family: Family,
    pub level: Level,
    /// Added to the rating score each time the technique is used.
    pub score: u32,
    /// Search order: the solver tries techniques by increasing order.
    pub order: u32,
    /// Tried by [`next_step`](super::next_step) by default.
    pub enabled: bool,
}

const fn info(
    id: &'static str,
    name: &'static str,
    family: Family,
    level: Level,
    score: u32,
    order: u32,
) -> TechniqueInfo {
    TechniqueInfo {
        id,
        name,
        family,
        level,
        score,
        order,
        enabled: true,
    }
}

use Family as F;
use Level as L;

/// The table, sorted by `order` (a unit test keeps it so).
static TABLE: &[TechniqueInfo] = &[
    // id                             name                                  family           level       score order
    info("full-house", "Full House", F::Singles, L::Easy, 4, 100),
    info("naked-single", "Naked Single", F::Singles, L::Easy, 4, 200),
    info(
        "hidden-single",
        "Hidden Single",
        F::Singles,
        L::Easy,
        14,
        300,
    ),
    info("run-range", "Run Range", F::Runs, L::Easy, 20, 350),
    info(
        "cage-combination",
        "Cage Combination",
        F::Cages,
        L::Easy,
        20,
        360,
    ),
    info(
        "locked-pair",
        "Locked Pair",
        F::Subsets,
        L::Medium,
        40,
        1000,
    ),
    info(
        "locked-triple",
        "Locked Triple",
        F::Subsets,
        L::Medium,
        60,
        1100,
    ),
    info(
        "locked-candidates-pointing",
        "Locked Candidates (Pointing)",
        F::Intersections,
        L::Medium,
        50,
        1200,
    ),
    info(
        "locked-candidates-claiming",
        "Locked Candidates (Claiming)",
        F::Intersections,
        L::Medium,
        50,
        1210,
    ),
    info(
        "run-sequence-enumeration",
        "Run Sequence Enumeration",
        F::Runs,
        L::Medium,
        50,
        1250,
    ),
    info(
        "innie-outie",
        "Innies and Outies",
        F::Cages,
        L::Medium,
        60,
        1260,
    ),
    info("naked-pair", "Naked Pair", F::Subsets, L::Medium, 60, 1300),
    info(
        "naked-triple",
        "Naked Triple",
        F::Subsets,
        L::Medium,
        80,
        1400,
    ),
    info(
        "hidden-pair",
        "Hidden Pair",
        F::Subsets,
        L::Medium,
        70,
        1500,
    ),
    info(
        "hidden-triple",
        "Hidden Triple",
        F::Subsets,
        L::Medium,
        100,
        1600,
    ),
    info(
        "naked-quadruple",
        "Naked Quadruple",
        F::Subsets,
        L::Hard,
        120,
        2000,
    ),
    info(
        "hidden-quadruple",
        "Hidden Quadruple",
        F::Subsets,
        L::Hard,
        150,
        2100,
    ),
    info("hall-set", "Hall Set", F::Matching, L::Hard, 160, 2150),
    info(
        "run-pair-enumeration",
        "Run Pair Enumeration",
        F::Runs,
        L::Hard,
        180,
        2160,
    ),
    // Fish on run lines that must hold a digit (honeycomb): one bitmask per line. On the
    // default path (every-25th hard honeycomb) it leaves one guess of two.
    info("line-fish", "Line Fish", F::Runs, L::Hard, 170, 2165),
    // Three lines that cross pairwise at once: costlier than pairs, stronger than any
    // pattern a honeycomb's three complete lines allow, and far cheaper than a net.
    // On request only: on the default path (every-25th hard honeycomb) it took about a dozen
    // steps a puzzle but spared the nets almost nothing (363 net steps in three puzzles),
    // unlocked no guess, and made the rating about 19% slower (182 s against 153 s).
    TechniqueInfo {
        enabled: false,
        ..info(
            "run-triple-enumeration",
            "Run Triple Enumeration",
            F::Runs,
            L::Unfair,
            250,
            2170,
        )
    },
    info("x-wing", "X-Wing", F::Fish, L::Hard, 140, 2200),
    info("swordfish", "Swordfish", F::Fish, L::Hard, 150, 2300),
    info("jellyfish", "Jellyfish", F::Fish, L::Hard, 160, 2400),
    info("remote-pair", "Remote Pair", F::Wings, L::Hard, 110, 2800),
    info("bug-plus-1", "BUG+1", F::Uniqueness, L::Hard, 100, 2900),
    info(
        "skyscraper",
        "Skyscraper",
        F::SingleDigit,
        L::Hard,
        130,
        3000,
    ),
    info(
        "2-string-kite",
        "2-String Kite",
        F::SingleDigit,
        L::Hard,
        150,
        3100,
    ),
    // HoDoKu 2.2 leaves dual forms out of its default path; they score as the single form.
    TechniqueInfo {
        enabled: false,
        ..info(
            "dual-2-string-kite",
            "Dual 2-String Kite",
            F::SingleDigit,
            L::Hard,
            150,
            3110,
        )
    },
    info(
        "turbot-fish",
        "Turbot Fish",
        F::SingleDigit,
        L::Hard,
        120,
        3120,
    ),
    info(
        "empty-rectangle",
        "Empty Rectangle",
        F::SingleDigit,
        L::Hard,
        120,
        3170,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "dual-empty-rectangle",
            "Dual Empty Rectangle",
            F::SingleDigit,
            L::Hard,
            120,
            3180,
        )
    },
    info("w-wing", "W-Wing", F::Wings, L::Hard, 150, 3200),
    info("xy-wing", "XY-Wing", F::Wings, L::Hard, 160, 3300),
    info("xyz-wing", "XYZ-Wing", F::Wings, L::Hard, 180, 3400),
    info(
        "unique-rectangle-1",
        "Uniqueness Test 1",
        F::Uniqueness,
        L::Hard,
        100,
        3500,
    ),
    info(
        "unique-rectangle-2",
        "Uniqueness Test 2",
        F::Uniqueness,
        L::Hard,
        100,
        3600,
    ),
    info(
        "unique-rectangle-3",
        "Uniqueness Test 3",
        F::Uniqueness,
        L::Hard,
        100,
        3700,
    ),
    info(
        "unique-rectangle-4",
        "Uniqueness Test 4",
        F::Uniqueness,
        L::Hard,
        100,
        3800,
    ),
    info(
        "unique-rectangle-5",
        "Uniqueness Test 5",
        F::Uniqueness,
        L::Hard,
        100,
        3900,
    ),
    info(
        "unique-rectangle-6",
        "Uniqueness Test 6",
        F::Uniqueness,
        L::Hard,
        100,
        4000,
    ),
    info(
        "hidden-rectangle",
        "Hidden Rectangle",
        F::Uniqueness,
        L::Hard,
        100,
        4010,
    ),
    info(
        "avoidable-rectangle-1",
        "Avoidable Rectangle Type 1",
        F::Uniqueness,
        L::Hard,
        100,
        4020,
    ),
    info(
        "avoidable-rectangle-2",
        "Avoidable Rectangle Type 2",
        F::Uniqueness,
        L::Hard,
        100,
        4030,
    ),
    info(
        "finned-x-wing",
        "Finned X-Wing",
        F::Fish,
        L::Hard,
        130,
        4100,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-x-wing",
            "Siamese Finned X-Wing",
            F::Fish,
            L::Hard,
            130,
            4105,
        )
    },
    info(
        "sashimi-x-wing",
        "Sashimi X-Wing",
        F::Fish,
        L::Hard,
        150,
        4200,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-sashimi-x-wing",
            "Siamese Sashimi X-Wing",
            F::Fish,
            L::Hard,
            150,
            4205,
        )
    },
    info(
        "finned-swordfish",
        "Finned Swordfish",
        F::Fish,
        L::Unfair,
        200,
        4300,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-swordfish",
            "Siamese Finned Swordfish",
            F::Fish,
            L::Unfair,
            200,
            4305,
        )
    },
    info(
        "sashimi-swordfish",
        "Sashimi Swordfish",
        F::Fish,
        L::Unfair,
        240,
        4400,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-sashimi-swordfish",
            "Siamese Sashimi Swordfish",
            F::Fish,
            L::Unfair,
            240,
            4405,
        )
    },
    info(
        "finned-jellyfish",
        "Finned Jellyfish",
        F::Fish,
        L::Unfair,
        250,
        4500,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-jellyfish",
            "Siamese Finned Jellyfish",
            F::Fish,
            L::Unfair,
            250,
            4505,
        )
    },
    info(
        "sashimi-jellyfish",
        "Sashimi Jellyfish",
        F::Fish,
        L::Unfair,
        260,
        4600,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-sashimi-jellyfish",
            "Siamese Sashimi Jellyfish",
            F::Fish,
            L::Unfair,
            260,
            4605,
        )
    },
    info(
        "sue-de-coq",
        "Sue de Coq",
        F::SueDeCoq,
        L::Unfair,
        250,
        5300,
    ),
    info(
        "simple-colors-trap",
        "Simple Colors Trap",
        F::Coloring,
        L::Hard,
        150,
        5330,
    ),
    info(
        "simple-colors-wrap",
        "Simple Colors Wrap",
        F::Coloring,
        L::Hard,
        150,
        5331,
    ),
    info(
        "multi-colors-1",
        "Multi Colors 1",
        F::Coloring,
        L::Hard,
        200,
        5360,
    ),
    info(
        "multi-colors-2",
        "Multi Colors 2",
        F::Coloring,
        L::Hard,
        200,
        5361,
    ),
    info("x-chain", "X-Chain", F::Chains, L::Unfair, 260, 5400),
    info("xy-chain", "XY-Chain", F::Chains, L::Unfair, 260, 5500),
    info("nice-loop", "Nice Loop", F::Chains, L::Unfair, 280, 5600),
    info("aic", "AIC", F::Chains, L::Unfair, 280, 5610),
    info(
        "grouped-nice-loop",
        "Grouped Nice Loop",
        F::Chains,
        L::Unfair,
        300,
        5650,
    ),
    info(
        "grouped-aic",
        "Grouped AIC",
        F::Chains,
        L::Unfair,
        300,
        5660,
    ),
    // HoDoKu's grouped loops and AICs with ALS nodes: off in its default path.
    TechniqueInfo {
        enabled: false,
        ..info(
            "als-nice-loop",
            "Grouped Nice Loop with ALS",
            F::Chains,
            L::Unfair,
            320,
            5670,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "als-aic",
            "Grouped AIC with ALS",
            F::Chains,
            L::Unfair,
            320,
            5680,
        )
    },
    info("als-xz", "ALS-XZ", F::Als, L::Unfair, 300, 5700),
    info("als-xy-wing", "ALS-XY-Wing", F::Als, L::Unfair, 320, 5800),
    info("als-chain", "ALS-Chain", F::Als, L::Unfair, 340, 5900),
    TechniqueInfo {
        enabled: false,
        ..info(
            "death-blossom",
            "Death Blossom",
            F::Als,
            L::Unfair,
            360,
            6000,
        )
    },
    info(
        "franken-x-wing",
        "Franken X-Wing",
        F::ComplexFish,
        L::Unfair,
        300,
        6100,
    ),
    info(
        "franken-swordfish",
        "Franken Swordfish",
        F::ComplexFish,
        L::Unfair,
        350,
        6200,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "franken-jellyfish",
            "Franken Jellyfish",
            F::ComplexFish,
            L::Unfair,
            370,
            6300,
        )
    },
    info(
        "finned-franken-x-wing",
        "Finned Franken X-Wing",
        F::ComplexFish,
        L::Unfair,
        390,
        6700,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-franken-x-wing",
            "Siamese Finned Franken X-Wing",
            F::ComplexFish,
            L::Unfair,
            390,
            6705,
        )
    },
    info(
        "finned-franken-swordfish",
        "Finned Franken Swordfish",
        F::ComplexFish,
        L::Unfair,
        410,
        6800,
    ),
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-franken-swordfish",
            "Siamese Finned Franken Swordfish",
            F::ComplexFish,
            L::Unfair,
            410,
            6805,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-franken-jellyfish",
            "Finned Franken Jellyfish",
            F::ComplexFish,
            L::Unfair,
            430,
            6900,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-franken-jellyfish",
            "Siamese Finned Franken Jellyfish",
            F::ComplexFish,
            L::Unfair,
            430,
            6905,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "mutant-x-wing",
            "Mutant X-Wing",
            F::ComplexFish,
            L::Extreme,
            450,
            7300,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "mutant-swordfish",
            "Mutant Swordfish",
            F::ComplexFish,
            L::Extreme,
            450,
            7400,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "mutant-jellyfish",
            "Mutant Jellyfish",
            F::ComplexFish,
            L::Extreme,
            450,
            7500,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-x-wing",
            "Finned Mutant X-Wing",
            F::ComplexFish,
            L::Extreme,
            470,
            7900,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-mutant-x-wing",
            "Siamese Finned Mutant X-Wing",
            F::ComplexFish,
            L::Extreme,
            470,
            7905,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-swordfish",
            "Finned Mutant Swordfish",
            F::ComplexFish,
            L::Extreme,
            470,
            8000,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-mutant-swordfish",
            "Siamese Finned Mutant Swordfish",
            F::ComplexFish,
            L::Extreme,
            470,
            8005,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-jellyfish",
            "Finned Mutant Jellyfish",
            F::ComplexFish,
            L::Extreme,
            470,
            8100,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "siamese-finned-mutant-jellyfish",
            "Siamese Finned Mutant Jellyfish",
            F::ComplexFish,
            L::Extreme,
            470,
            8105,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-squirmbag",
            "Finned Mutant Squirmbag",
            F::ComplexFish,
            L::Extreme,
            470,
            8200,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-whale",
            "Finned Mutant Whale",
            F::ComplexFish,
            L::Extreme,
            470,
            8300,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "finned-mutant-leviathan",
            "Finned Mutant Leviathan",
            F::ComplexFish,
            L::Extreme,
            470,
            8400,
        )
    },
    // HoDoKu's Kraken fish (0371, 0372): off its default path, as in HoDoKu.
    TechniqueInfo {
        enabled: false,
        ..info(
            "kraken-fish",
            "Kraken Fish",
            F::ComplexFish,
            L::Extreme,
            500,
            8420,
        )
    },
    // Run lines taken case by case (honeycomb): after every pattern, before forcing chains.
    // About 1 ms a search on a hard honeycomb (a plain net per run of each line).
    info(
        "run-forcing",
        "Run Forcing",
        F::Forcing,
        L::Extreme,
        450,
        8450,
    ),
    info(
        "forcing-chain",
        "Forcing Chain",
        F::Forcing,
        L::Extreme,
        500,
        8500,
    ),
    info(
        "forcing-net",
        "Forcing Net",
        F::Forcing,
        L::Extreme,
        700,
        8600,
    ),
    // Each run case nested one level, then two: the last technique before a guess. On
    // request only: one level is cheap (0.2-0.3 s where the nets are stuck) but unlocks
    // none of the hard honeycombs' guesses, and two levels take minutes.
    TechniqueInfo {
        enabled: false,
        ..info(
            "nested-run-forcing",
            "Nested Run Forcing",
            F::Forcing,
            L::Extreme,
            750,
            8650,
        )
    },
    // Forcing nets nested two levels (honeycombs only): the last technique before a guess.
    // It finishes all 22 hard honeycombs that guessed (hanicue-hard), at about 0.1 s a
    // step, but every step it takes follows a full nested-net search that found nothing,
    // so those puzzles rate 1.3-2.6 times slower (every-25th sample: 86 s -> 92 s).
    info(
        "deep-forcing-net",
        "Deep Forcing Net",
        F::Forcing,
        L::Extreme,
        800,
        8680,
    ),
    // HoDoKu 2.2 leaves templates out of its default path.
    TechniqueInfo {
        enabled: false,
        ..info(
            "template-set",
            "Template Set",
            F::Templates,
            L::Extreme,
            10000,
            8700,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info(
            "template-delete",
            "Template Delete",
            F::Templates,
            L::Extreme,
            10000,
            8800,
        )
    },
    TechniqueInfo {
        enabled: false,
        ..info("guess", "Guess", F::LastResort, L::Extreme, 10000, 8900)
    },
];

/// Every technique, in search order.
pub fn techniques() -> &'static [TechniqueInfo] {
    TABLE
}

/// The table row of an id.
pub fn technique(id: &str) -> Option<&'static TechniqueInfo> {
    TABLE.iter().find(|t| t.id == id)
}

/// The `guess` row (always present).
pub fn guess_info() -> &'static TechniqueInfo {
    &TABLE[TABLE.len() - 1]
}

/// HoDoKu 2.2's technique codes (the first field of its regression library), by id: users
/// coming from HoDoKu may name a technique by its code.
static HODOKU_CODES: &[(&str, &str)] = &[
    ("full-house", "0000"),
    ("hidden-single", "0002"),
    ("naked-single", "0003"),
    ("locked-candidates-pointing", "0100"),
    ("locked-candidates-claiming", "0101"),
    ("locked-pair", "0110"),
    ("locked-triple", "0111"),
    ("naked-pair", "0200"),
    ("naked-triple", "0201"),
    ("naked-quadruple", "0202"),
    ("hidden-pair", "0210"),
    ("hidden-triple", "0211"),
    ("hidden-quadruple", "0212"),
    ("x-wing", "0300"),
    ("swordfish", "0301"),
    ("jellyfish", "0302"),
    ("finned-x-wing", "0310"),
    ("finned-swordfish", "0311"),
    ("finned-jellyfish", "0312"),
    ("sashimi-x-wing", "0320"),
    ("sashimi-swordfish", "0321"),
    ("sashimi-jellyfish", "0322"),
    ("franken-x-wing", "0330"),
    ("franken-swordfish", "0331"),
    ("franken-jellyfish", "0332"),
    ("finned-franken-x-wing", "0340"),
    ("finned-franken-swordfish", "0341"),
    ("finned-franken-jellyfish", "0342"),
    ("mutant-x-wing", "0350"),
    ("mutant-swordfish", "0351"),
    ("mutant-jellyfish", "0352"),
    ("finned-mutant-x-wing", "0360"),
    ("finned-mutant-swordfish", "0361"),
    ("finned-mutant-jellyfish", "0362"),
    ("siamese-finned-x-wing", "03101"),
    ("siamese-sashimi-x-wing", "03201"),
    ("siamese-finned-swordfish", "03111"),
    ("siamese-sashimi-swordfish", "03211"),
    ("siamese-finned-jellyfish", "03121"),
    ("siamese-sashimi-jellyfish", "03221"),
    ("siamese-finned-franken-x-wing", "03401"),
    ("siamese-finned-franken-swordfish", "03411"),
    ("siamese-finned-franken-jellyfish", "03421"),
    ("siamese-finned-mutant-x-wing", "03601"),
    ("siamese-finned-mutant-swordfish", "03611"),
    ("siamese-finned-mutant-jellyfish", "03621"),
    ("finned-mutant-squirmbag", "0363"),
    ("finned-mutant-whale", "0364"),
    ("finned-mutant-leviathan", "0365"),
    ("kraken-fish", "0371"),
    ("kraken-fish", "0372"),
    ("skyscraper", "0400"),
    ("2-string-kite", "0401"),
    ("empty-rectangle", "0402"),
    ("turbot-fish", "0403"),
    ("dual-2-string-kite", "0404"),
    ("dual-empty-rectangle", "0405"),
    ("simple-colors-trap", "0500"),
    ("simple-colors-wrap", "0501"),
    ("multi-colors-1", "0502"),
    ("multi-colors-2", "0503"),
    ("unique-rectangle-1", "0600"),
    ("unique-rectangle-2", "0601"),
    ("unique-rectangle-3", "0602"),
    ("unique-rectangle-4", "0603"),
    ("unique-rectangle-5", "0604"),
    ("unique-rectangle-6", "0605"),
    ("hidden-rectangle", "0606"),
    ("avoidable-rectangle-1", "0607"),
    ("avoidable-rectangle-2", "0608"),
    ("bug-plus-1", "0610"),
    ("x-chain", "0701"),
    ("xy-chain", "0702"),
    ("remote-pair", "0703"),
    ("nice-loop", "0707"),
    ("nice-loop", "0706"),
    ("aic", "0708"),
    ("grouped-nice-loop", "0710"),
    ("grouped-nice-loop", "0709"),
    ("grouped-aic", "0711"),
    ("als-nice-loop", "0710-3"),
    ("als-nice-loop", "0710-4"),
    ("als-nice-loop", "0709-2"),
    ("als-aic", "0711-3"),
    ("als-aic", "0711-4"),
    ("xy-wing", "0800"),
    ("xyz-wing", "0801"),
    ("w-wing", "0803"),
    ("als-xz", "0901"),
    ("als-xy-wing", "0902"),
    ("als-chain", "0903"),
    ("death-blossom", "0904"),
    ("sue-de-coq", "1101"),
    ("template-set", "1201"),
    ("template-delete", "1202"),
    ("forcing-chain", "1301"),
    ("forcing-chain", "1302"),
    ("forcing-net", "1303"),
    ("forcing-net", "1304"),
];

/// The technique of a HoDoKu code as its regression library writes it: `0300`, `03111`, or
/// with a variant suffix (`0606-1`), which names the same technique as the bare code.
pub fn by_hodoku_code(code: &str) -> Option<&'static TechniqueInfo> {
    // A variant of its own row first (`0710-3`: with ALS nodes), else the bare code.
    let base = code.split('-').next().unwrap_or(code);
    HODOKU_CODES
        .iter()
        .find(|(_, c)| *c == code)
        .or_else(|| HODOKU_CODES.iter().find(|(_, c)| *c == base))
        .and_then(|(id, _)| technique(id))
}

impl TechniqueInfo {
    /// HoDoKu's code for the technique, when HoDoKu has it.
    pub fn hodoku_code(&self) -> Option<&'static str> {
        HODOKU_CODES
            .iter()
            .find(|(id, _)| *id == self.id)
            .map(|&(_, code)| code)
    }

    /// Whether a user may ask for it by name: every row but `guess`, which is no technique.
    pub fn is_nameable(&self) -> bool {
        self.family != Family::LastResort
    }
}

impl Family {
    /// The kebab-case name printed in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Family::Singles => "singles",
            Family::Intersections => "intersections",
            Family::Subsets => "subsets",
            Family::Fish => "fish",
            Family::SingleDigit => "single-digit",
            Family::Wings => "wings",
            Family::Coloring => "coloring",
            Family::Uniqueness => "uniqueness",
            Family::Runs => "runs",
            Family::Matching => "matching",
            Family::Cages => "cages",
            Family::Chains => "chains",
            Family::Als => "als",
            Family::ComplexFish => "complex-fish",
            Family::SueDeCoq => "sue-de-coq",
            Family::Forcing => "forcing",
            Family::Templates => "templates",
            Family::LastResort => "last-resort",
        }
    }
}

/// A technique name that matches no row: the message lists the valid ids by family.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown technique '{name}'; valid names (any case, spaces or dashes optional, or HoDoKu codes such as 0300):\n{}", valid_ids_by_family())]
pub struct UnknownTechnique {
    pub name: String,
}

/// Lowercase letters and digits only: `X-Wing`, `x-wing` and `xwing` all give `xwing`.
fn squash(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The technique a user names, in any form the program prints: the display name (`X-Wing`),
/// the id (`x-wing`), either squashed (`xwing`), any case; or HoDoKu's code (`0300`, and
/// `0300-1` for a HoDoKu variant of it).
pub fn parse_technique(name: &str) -> Result<&'static TechniqueInfo, UnknownTechnique> {
    let unknown = || UnknownTechnique {
        name: name.trim().to_string(),
    };
    let key = name.trim();
    let code = key.split('-').next().unwrap_or(key);
    if (4..=5).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_digit()) {
        return by_hodoku_code(key).ok_or_else(unknown);
    }
    let key = squash(key);
    if key.is_empty() {
        return Err(unknown());
    }
    TABLE
        .iter()
        .filter(|t| t.is_nameable())
        .find(|t| squash(t.id) == key || squash(t.name) == key)
        .ok_or_else(unknown)
}

/// "singles: full-house naked-single hidden-single" and so on, one family a line, in table
/// order.
pub fn valid_ids_by_family() -> String {
    let mut families: Vec<(Family, Vec<&str>)> = Vec::new();
    for t in TABLE.iter().filter(|t| t.is_nameable()) {
        match families.iter_mut().find(|(f, _)| *f == t.family) {
            Some((_, ids)) => ids.push(t.id),
            None => families.push((t.family, vec![t.id])),
        }
    }
    families
        .iter()
        .map(|(f, ids)| format!("  {}: {}", f.name(), ids.join(" ")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_kebab_case() {
        assert!(TABLE.windows(2).all(|w| w[0].order < w[1].order));
        for (i, t) in TABLE.iter().enumerate() {
            assert!(TABLE[..i].iter().all(|o| o.id != t.id), "{} twice", t.id);
            assert!(t
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        }
        assert_eq!(guess_info().id, "guess");
        assert_eq!(technique("x-wing").map(|t| t.score), Some(140));
    }

    #[test]
    fn every_printed_form_names_its_technique() {
        for t in TABLE.iter().filter(|t| t.is_nameable()) {
            let upper = t.name.to_ascii_uppercase();
            for form in [t.id, t.name, &upper, &squash(t.id), &squash(t.name)] {
                assert_eq!(parse_technique(form).map(|x| x.id), Ok(t.id), "{form}");
            }
            if let Some(code) = t.hodoku_code() {
                assert_eq!(parse_technique(code).map(|x| x.id), Ok(t.id), "{code}");
            }
        }
        assert_eq!(parse_technique(" XWing ").map(|t| t.id), Ok("x-wing"));
        assert_eq!(parse_technique("0300-1").map(|t| t.id), Ok("x-wing"));
        assert_eq!(parse_technique("bug+1").map(|t| t.id), Ok("bug-plus-1"));
    }

    #[test]
    fn unknown_names_list_the_valid_ones_by_family() {
        for bad in ["x wong", "", "9999", "guess"] {
            let e = parse_technique(bad).err().map(|e| e.to_string());
            let e = e.unwrap_or_default();
            assert!(e.starts_with("unknown technique"), "{bad}: {e}");
            assert!(e.contains("fish: x-wing swordfish"), "{e}");
            assert!(
                e.contains("singles: full-house naked-single hidden-single"),
                "{e}"
            );
        }
    }

    #[test]
    fn hodoku_codes_name_real_rows_once() {
        for (i, (id, code)) in HODOKU_CODES.iter().enumerate() {
            assert!(technique(id).is_some(), "{id}");
            assert!(
                HODOKU_CODES[..i].iter().all(|(_, c)| c != code),
                "{code} twice"
            );
        }
    }
}
