//! Traces of branches and the text of a forcing step.

use super::*;

use crate::solver::logic::chain_text::ruled_text;

impl Engine<'_> {
    /// The chain to `f` and, per node, the run or cage whose rule made it.
    pub(super) fn trace_rules(
        &self,
        b: &Branch,
        f: Fact,
    ) -> (Vec<ChainNode>, Vec<Option<Because>>) {
        let nodes = self.trace(b, f);
        let rules = nodes
            .iter()
            .map(|n| {
                let f = fact(n.cells[0], n.digit, n.on);
                b.why.iter().find(|(x, _)| *x == f).map(|&(_, h)| h)
            })
            .collect();
        (nodes, rules)
    }

    /// A step's pattern from the branches' chains to their facts.
    pub(super) fn pattern(&self, ends: &[(&Branch, Fact)]) -> Pattern {
        let (chains, rules) = ends.iter().map(|&(b, f)| self.trace_rules(b, f)).unzip();
        let broken = match ends {
            [(b, _)] => b.contradiction.as_ref().map(|(_, why)| why.clone()),
            _ => None,
        };
        Pattern::Forcing {
            chains,
            rules,
            broken,
        }
    }

    /// The chain of facts leading to `f`, from the assumption.
    pub(super) fn trace(&self, b: &Branch, f: Fact) -> Vec<ChainNode> {
        let mut out = Vec::new();
        let mut cur = f;
        let mut guard = 0;
        while cur != NONE && cur != UNSET && guard < 200 {
            let (c, d, on) = unfact(cur);
            let cells = match self.group_of(c) {
                Some(k) => self.group_cells(k, d).iter().collect(),
                None => vec![c],
            };
            out.push(ChainNode {
                cells,
                digit: d,
                on,
                als: Vec::new(),
            });
            cur = b.parent_of(cur);
            guard += 1;
        }
        out.reverse();
        out
    }
}

pub fn explain(step: &Step, g: &Geometry, detail: Detail) -> String {
    let Pattern::Forcing {
        chains,
        rules,
        broken,
    } = &step.pattern
    else {
        return step.name().to_string();
    };
    let start = chains
        .first()
        .and_then(|c| c.first())
        .map(|n| g.cell_name(n.cells[0]))
        .unwrap_or_default();
    match detail {
        Detail::Nudge => format!("Try an assumption at {start} and follow it"),
        Detail::Technique => format!(
            "There is {} {}: assume a candidate and follow what it forces{}",
            crate::solver::logic::step::article(step.name()),
            step.name(),
            if step.technique.id == "deep-forcing-net" {
                ", removing on the way every candidate whose own nested net breaks"
            } else {
                ""
            }
        ),
        Detail::Full => {
            let text = |i: usize| ruled_text(g, &chains[i], rules.get(i).map_or(&[][..], |r| r));
            let body = if chains.len() == 1 {
                let c = &chains[0];
                let ends_broken = step.placements.is_empty() || c.first().is_some_and(|n| !n.on);
                if ends_broken {
                    match broken {
                        Some(why) => format!("{} leads to a contradiction ({why})", text(0)),
                        None => format!("{} leads to a contradiction", text(0)),
                    }
                } else {
                    text(0)
                }
            } else {
                let parts: Vec<String> = (0..chains.len()).map(text).collect();
                format!("every case leads to the same result: {}", parts.join("; "))
            };
            format!("{}: {}; so {}", step.name(), body, effect_text(g, step))
        }
    }
}
