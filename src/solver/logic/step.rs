//! A logical step: what a technique found, how to show it, and how to say it.
//! This is the contract between the logic solver, the CLI (`hint`, `explain`) and the player.

use super::techniques::TechniqueInfo;
use crate::geometry::{Cell, Digits, Geometry, HouseId};

/// A digit in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    pub cell: Cell,
    pub digit: u8,
}

impl Candidate {
    pub fn new(cell: Cell, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }
}

/// How the player should style a highlighted thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Cells or candidates that make up the pattern.
    Defining,
    /// Fish base sets.
    Base,
    /// Fish cover sets.
    Cover,
    Fin,
    Pivot,
    Pincer,
    ColorA,
    ColorB,
    Placement,
    Elimination,
}

/// Strong ("if not a then b") or weak ("if a then not b") link of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    Strong,
    Weak,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Cell(Cell),
    Candidate(Candidate),
    House(HouseId),
    Link(Candidate, Candidate, LinkKind),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Highlight {
    pub target: Target,
    pub role: Role,
}

/// The rungs of the hint ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Detail {
    /// Where to look ("look at row 3").
    Nudge,
    /// What to look for ("there is a naked pair in row 3").
    Technique,
    /// The whole step with cells and digits.
    Full,
}

/// What made a fact of a forcing net beyond a single.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Because {
    /// The rule of this run, cage or (by matching) complete house.
    Rule(HouseId),
    /// Inside the branch, the opposite assumption leads to a contradiction (nested net).
    Nested,
    /// Inside the branch, the opposite assumption's nested net leads to a contradiction
    /// (deep forcing net: two levels).
    Deep,
}

/// The typed shape of a step: what tests check and what the explanation is built from.
/// Each family fills the variant that fits it; a new family may add its own variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// A digit forced into a cell; `house` for full house and hidden single. `sets`: for a
    /// hidden single in a run or cage, the digit sets the house could still hold when the
    /// step was found (all contain the digit: that is why the house must hold it).
    Single {
        cell: Cell,
        digit: u8,
        house: Option<HouseId>,
        sets: Vec<Digits>,
    },
    /// A digit confined to the intersection of `base` and `cover`; `sets` as for `Single`,
    /// for a run or cage `base`.
    Intersection {
        digit: u8,
        base: HouseId,
        cover: HouseId,
        sets: Vec<Digits>,
    },
    /// `cells` hold exactly `digits` (naked) or `digits` live only in `cells` (hidden),
    /// inside `houses` (two for a locked subset).
    Subset {
        houses: Vec<HouseId>,
        cells: Vec<Cell>,
        digits: Digits,
        hidden: bool,
    },
    /// A fish on one digit: base and cover houses, fins.
    Fish {
        digit: u8,
        base: Vec<HouseId>,
        cover: Vec<HouseId>,
        fins: Vec<Cell>,
    },
    /// Single-digit chain: strong link `cells[0]-cells[1]`, weak link `cells[1]-cells[2]`,
    /// strong link `cells[2]-cells[3]`; `house` is the empty rectangle's box; `links` the
    /// houses of the strong links.
    SingleDigit {
        digit: u8,
        cells: Vec<Cell>,
        house: Option<HouseId>,
        links: Vec<HouseId>,
    },
    /// A wing: `pivot` (hinge) and `pincers`; `link` is the W-wing's strong link;
    /// `digit` the one eliminated.
    Wing {
        pivot: Option<Cell>,
        pincers: Vec<Cell>,
        link: Option<(Cell, Cell)>,
        digits: Digits,
        digit: u8,
    },
    /// A chain of cells (remote pair).
    Chain { cells: Vec<Cell>, digits: Digits },
    /// Two colours of conjugate chains (multi colours: `a` and `b` of two clusters each).
    Coloring {
        digit: u8,
        a: Vec<Cell>,
        b: Vec<Cell>,
        a2: Vec<Cell>,
        b2: Vec<Cell>,
    },
    /// Consecutive-run lines: for each house, the lowest digits of the runs it can still
    /// hold (`[1]` for a complete line); `placed` the digits already placed in them.
    Runs {
        houses: Vec<HouseId>,
        runs: Vec<Vec<u8>>,
        placed: Digits,
    },
    /// Killer sums: `cells` add up to `sum`; `house` is the cage when the cells are one,
    /// `region` the rows, columns or boxes of an innie/outie count (`outies`: the cells lie
    /// outside the region); `combos` the digit sets the cage can still hold.
    Sum {
        house: Option<HouseId>,
        region: Vec<HouseId>,
        cells: Vec<Cell>,
        sum: u32,
        combos: Vec<Digits>,
        outies: bool,
    },
    /// A digit taken from the known solution.
    Guess { cell: Cell, digit: u8 },
    /// Chains of inferences, each read in order (chains, loops, forcing chains and nets:
    /// one chain per branch).
    Chains { chains: Vec<Vec<ChainNode>> },
    /// Forcing chains and nets: one chain per branch and, per node, the run or cage whose
    /// own rule made that inference (`None`: peers, naked or hidden singles).
    Forcing {
        chains: Vec<Vec<ChainNode>>,
        /// Per node, what made it beyond singles.
        rules: Vec<Vec<Option<Because>>>,
        /// Why the grid broke, for a chain that ends in a contradiction.
        broken: Option<String>,
    },
    /// A Kraken fish: a finned fish (`name` says which) that eliminates nothing by itself,
    /// and per fin (type 1) or per fin and base candidate of one cover (type 2) the forcing
    /// chain to the eliminated candidate; `rules` as for `Forcing`.
    Kraken {
        digit: u8,
        base: Vec<HouseId>,
        cover: Vec<HouseId>,
        fins: Vec<Cell>,
        name: String,
        /// 1 or 2 (HoDoKu's Kraken types); for type 2, the cover whose candidates start.
        kind: u8,
        from_cover: Option<HouseId>,
        chains: Vec<Vec<ChainNode>>,
        rules: Vec<Vec<Option<Because>>>,
    },
    /// Almost locked sets and the restricted common digits that join them.
    Als {
        sets: Vec<(Vec<Cell>, Digits)>,
        rcc: Vec<u8>,
    },
    /// A deadly pattern (unique / hidden / avoidable rectangle): its four cells and digits.
    Rectangle { cells: Vec<Cell>, digits: Digits },
    /// Two steps of one kind found together (HoDoKu's dual and Siamese forms): per part its
    /// technique id, pattern and eliminations.
    Twin {
        parts: Vec<(&'static str, Pattern, Vec<Candidate>)>,
    },
    /// Templates of one digit: how many ways it can still fill the grid.
    Template { digit: u8, templates: usize },
    /// A run line taken case by case (run forcing): per run its lowest digit and, when
    /// following it breaks the grid, why; `depth`: nesting levels inside each case (0 for
    /// plain nets).
    RunCases {
        house: HouseId,
        cases: Vec<(u8, Option<String>)>,
        depth: u8,
    },
}

/// A node of a chain: `digit` is true (`on`) or false in one cell, or (a group node) in one
/// of several cells of a house, or (an ALS node) in the cells of an almost locked set.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ChainNode {
    pub cells: Vec<Cell>,
    pub digit: u8,
    pub on: bool,
    /// The cells of the almost locked set of an ALS node; empty for other nodes.
    pub als: Vec<Cell>,
}

/// One step of the human-style solver.
#[derive(Clone, Debug)]
pub struct Step {
    pub technique: &'static TechniqueInfo,
    pub placements: Vec<Candidate>,
    pub eliminations: Vec<Candidate>,
    pub highlights: Vec<Highlight>,
    pub pattern: Pattern,
}

impl PartialEq for Step {
    fn eq(&self, o: &Step) -> bool {
        self.technique.id == o.technique.id
            && self.placements == o.placements
            && self.eliminations == o.eliminations
            && self.pattern == o.pattern
    }
}

impl Step {
    /// A step of `technique` (an id of the table) with its pattern; add placements,
    /// eliminations and highlights with the builder calls.
    pub fn new(technique: &'static TechniqueInfo, pattern: Pattern) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            highlights: Vec::new(),
            pattern,
        }
    }

    pub fn id(&self) -> &'static str {
        self.technique.id
    }

    pub fn name(&self) -> &'static str {
        self.technique.name
    }

    pub fn place(mut self, cell: Cell, digit: u8) -> Step {
        self.placements.push(Candidate::new(cell, digit));
        self.highlights.push(Highlight {
            target: Target::Candidate(Candidate::new(cell, digit)),
            role: Role::Placement,
        });
        self
    }

    /// Sets the eliminations (sorted, so steps compare and print the same way every time).
    pub fn eliminate(mut self, mut elims: Vec<Candidate>) -> Step {
        elims.sort_unstable();
        elims.dedup();
        for &c in &elims {
            self.highlights.push(Highlight {
                target: Target::Candidate(c),
                role: Role::Elimination,
            });
        }
        self.eliminations = elims;
        self
    }

    pub fn highlight(mut self, target: Target, role: Role) -> Step {
        self.highlights.push(Highlight { target, role });
        self
    }

    pub fn house(self, house: HouseId, role: Role) -> Step {
        self.highlight(Target::House(house), role)
    }

    pub fn cells(mut self, cells: &[Cell], role: Role) -> Step {
        for &c in cells {
            self.highlights.push(Highlight {
                target: Target::Cell(c),
                role,
            });
        }
        self
    }

    pub fn candidates(mut self, cells: &[Cell], digits: Digits, role: Role) -> Step {
        for &c in cells {
            for d in digits.iter() {
                self.highlights.push(Highlight {
                    target: Target::Candidate(Candidate::new(c, d)),
                    role,
                });
            }
        }
        self
    }

    /// The houses the step points at (for JSON and highlights), in order, without repeats.
    pub fn houses(&self) -> Vec<HouseId> {
        let mut out = Vec::new();
        for h in &self.highlights {
            if let Target::House(id) = h.target {
                if !out.contains(&id) {
                    out.push(id);
                }
            }
        }
        out
    }

    /// The hint ladder: where to look, what to look for, or the whole step.
    pub fn explain(&self, geometry: &Geometry, detail: Detail) -> String {
        super::explain_step(self, geometry, detail)
    }
}

// ---- text helpers shared by the families ----

/// `r3c1`, `r3c1 and r3c5`, `r3c1, r3c5 and r7c5`.
pub fn cell_list(g: &Geometry, cells: &[Cell]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| g.cell_name(c)).collect();
    and_list(&names)
}

pub fn and_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: &[String]) -> String {
    match items.len() {
        0 | 1 => items.concat(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

pub fn house_name(g: &Geometry, h: HouseId) -> String {
    g.houses()
        .get(h)
        .map_or_else(|| "?".to_string(), |h| h.name())
}

pub fn house_list(g: &Geometry, houses: &[HouseId]) -> String {
    let names: Vec<String> = houses.iter().map(|&h| house_name(g, h)).collect();
    and_list(&names)
}

/// `1 and 7`, `1, 4 and 7`.
pub fn digit_list(d: Digits) -> String {
    let names: Vec<String> = d
        .iter()
        .map(|x| crate::geometry::digit_char(x).to_string())
        .collect();
    and_list(&names)
}

/// "remove 7 from r3c4 and r5c4; remove 2 from r1c1", grouped by digit.
pub fn removal_text(g: &Geometry, elims: &[Candidate]) -> String {
    let mut digits: Vec<u8> = elims.iter().map(|c| c.digit).collect();
    digits.sort_unstable();
    digits.dedup();
    let parts: Vec<String> = digits
        .iter()
        .map(|&d| {
            let cells: Vec<Cell> = elims
                .iter()
                .filter(|c| c.digit == d)
                .map(|c| c.cell)
                .collect();
            format!(
                "remove {} from {}",
                crate::geometry::digit_char(d),
                cell_list(g, &cells)
            )
        })
        .collect();
    parts.join("; ")
}

/// "place 5 in r1c2".
pub fn placement_text(g: &Geometry, places: &[Candidate]) -> String {
    let parts: Vec<String> = places
        .iter()
        .map(|c| {
            format!(
                "place {} in {}",
                crate::geometry::digit_char(c.digit),
                g.cell_name(c.cell)
            )
        })
        .collect();
    and_list(&parts)
}

/// What the step does, placements first.
pub fn effect_text(g: &Geometry, step: &Step) -> String {
    match (step.placements.is_empty(), step.eliminations.is_empty()) {
        (false, true) => placement_text(g, &step.placements),
        (true, false) => removal_text(g, &step.eliminations),
        (false, false) => format!(
            "{}; {}",
            placement_text(g, &step.placements),
            removal_text(g, &step.eliminations)
        ),
        (true, true) => "nothing changes".to_string(),
    }
}

/// "an XY-Wing" / "a Naked Pair": the article for a technique name.
pub fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'X') => "an",
        _ => "a",
    }
}

/// The digit sets a run or cage house can still hold (each digit of the set has a place,
/// each cell a digit of the set), in increasing order; empty for a `Complete` house. A
/// step keeps them so that its text can say why the house must hold a digit.
pub fn open_sets(grid: &crate::puzzle::Grid, h: HouseId) -> Vec<Digits> {
    let g = grid.geometry();
    let house = g.house(h);
    let Some(sets) = crate::solver::rules::digit_sets(house.rule, house.cells.len(), g.max_digit())
    else {
        return Vec::new();
    };
    let cand = |c: Cell| match grid.value(c) {
        0 => grid.candidates(c),
        v => Digits::single(v),
    };
    let once = house.cells.iter().fold(Digits::EMPTY, |m, &c| m | cand(c));
    sets.into_iter()
        .map(Digits)
        .filter(|&set| {
            set.is_subset(once) && house.cells.iter().all(|&c| !(cand(c) & set).is_empty())
        })
        .collect()
}

/// "row 7 must hold 4: every run it can still hold, 1-7 or 2-8, contains 4" (a run) or
/// "cage 3 must hold 4: the only combination it can still hold, 1+4+7, contains 4"; None
/// for a complete house, which holds every digit anyway.
pub fn must_hold_text(g: &Geometry, h: HouseId, digit: u8, sets: &[Digits]) -> Option<String> {
    let house = g.houses().get(h)?;
    let (what, join) = match house.rule {
        crate::geometry::Rule::Complete => return None,
        crate::geometry::Rule::ConsecutiveRun => ("run", "-"),
        crate::geometry::Rule::Cage { .. } => ("combination", "+"),
    };
    if sets.is_empty() {
        return None;
    }
    let shown: Vec<String> = sets
        .iter()
        .map(|s| {
            let ds: Vec<char> = s.iter().map(crate::geometry::digit_char).collect();
            match (join, ds.first(), ds.last()) {
                ("-", Some(lo), Some(hi)) => format!("{lo}-{hi}"),
                _ => ds.iter().map(char::to_string).collect::<Vec<_>>().join("+"),
            }
        })
        .collect();
    let list = or_list(&shown);
    let which = if sets.len() == 1 {
        format!("the only {what} it can still hold")
    } else {
        format!("every {what} it can still hold")
    };
    let d = crate::geometry::digit_char(digit);
    Some(format!(
        "{} must hold {d}: {which}, {list}, contains {d}",
        house.name()
    ))
}
