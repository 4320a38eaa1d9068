//! The text of a chain of candidates, shared by chains and forcing chains and nets.

use super::step::{Because, ChainNode};
use crate::geometry::{digit_char, Geometry, Rule};

fn node_text(g: &Geometry, n: &ChainNode) -> String {
    let cells: Vec<String> = n.cells.iter().map(|&c| g.cell_name(c)).collect();
    let name = if !n.als.is_empty() {
        // "ALS{r1c1,r1c2,r1c3}=5": the set holds 5 (or, with <>, lacks it).
        let all: Vec<String> = n.als.iter().map(|&c| g.cell_name(c)).collect();
        format!("ALS{{{}}}", all.join(","))
    } else if cells.len() == 1 {
        cells[0].clone()
    } else {
        format!("{{{}}}", cells.join(","))
    };
    format!(
        "{}{}{}",
        name,
        if n.on { "=" } else { "<>" },
        digit_char(n.digit)
    )
}

/// "r1c2=5 -> r1c7<>5 -> r3c7=5".
pub fn chain_text(g: &Geometry, nodes: &[ChainNode]) -> String {
    nodes
        .iter()
        .map(|n| node_text(g, n))
        .collect::<Vec<_>>()
        .join(" -> ")
}

/// A chain whose run and cage inferences say which house made them, and whose nested
/// removals say why: "r1c1=5 -> r1c2<>4 (run of row 1) -> r2c3=6 (row 2 needs 6)",
/// "r1c1=5 -> r4c4<>2 (r4c4=2 would lead to a contradiction)", two levels down "(... by a
/// nested net)".
pub(super) fn ruled_text(g: &Geometry, nodes: &[ChainNode], rules: &[Option<Because>]) -> String {
    nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let base = node_text(g, n);
            let h = match rules.get(i) {
                Some(Some(Because::Rule(h))) => *h,
                Some(Some(why @ (Because::Nested | Because::Deep))) => {
                    let opposite = ChainNode {
                        on: !n.on,
                        ..n.clone()
                    };
                    let what = node_text(g, &opposite);
                    let how = match why {
                        Because::Deep => " by a nested net",
                        _ => "",
                    };
                    return format!("{base} ({what} would lead to a contradiction{how})");
                }
                _ => return base,
            };
            let name = super::step::house_name(g, h);
            match (n.on, g.house(h).rule) {
                (true, _) => format!("{base} ({name} needs {})", digit_char(n.digit)),
                (false, Rule::ConsecutiveRun) => format!("{base} (run of {name})"),
                (false, Rule::Complete) => format!("{base} (Hall set in {name})"),
                (false, _) => format!("{base} (sum of {name})"),
            }
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}
