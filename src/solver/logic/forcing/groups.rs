//! Group nodes in forcing chains, as HoDoKu's tables have them: the candidates of a digit
//! where a box meets a line act as one node. A placement that sees all of them turns the
//! group off, which can leave one place (or one other group) in the line or box; a group
//! left as the only place of a house turns on and clears the rest of its line and box.
//! Each link still has a single premise, so the proof stays a chain. Used on HoDoKu's
//! rating path (plain 9x9), where its forcing chains carry group nodes.

use super::*;

/// Per candidate (`cell * 32 + digit`), the groups its fact turns off when set (`off`) and
/// on when removed (`on`), in the order the links are followed: `off[off_start[i]..
/// off_start[i + 1]]` are candidate `i`'s.
#[derive(Default)]
pub(super) struct GroupLinks {
    off_start: Vec<u32>,
    on_start: Vec<u32>,
    off: Vec<u16>,
    on: Vec<u16>,
}

/// Where a box and a line meet (cells shared by two houses).
pub(super) struct Group {
    cells: CellSet,
    houses: [HouseId; 2],
}

impl Engine<'_> {
    /// Turns group nodes on: every pair of houses sharing two or more cells.
    pub(super) fn use_groups(&mut self) {
        let t = &self.ctx.t;
        let mut of_house = vec![Vec::new(); t.house_sets.len()];
        for &(a, b, cells) in &t.overlaps {
            if a < b {
                of_house[a].push(self.groups.len());
                of_house[b].push(self.groups.len());
                self.groups.push(Group {
                    cells,
                    houses: [a, b],
                });
            }
        }
        self.groups_of_house = of_house;
        self.group_links = self.static_group_links();
    }

    /// The group facts that follow from each candidate's fact (on and off), which depend on
    /// the starting position alone: computed once per search instead of at every link.
    fn static_group_links(&self) -> GroupLinks {
        let g = self.ctx.geo;
        let slots = g.cell_count() * 32;
        let mut links = GroupLinks {
            off_start: vec![0; slots + 1],
            on_start: vec![0; slots + 1],
            off: Vec::new(),
            on: Vec::new(),
        };
        for slot in 0..slots {
            let (c, d) = (slot / 32, (slot % 32) as u8);
            links.off_start[slot] = links.off.len() as u32;
            links.on_start[slot] = links.on.len() as u32;
            if !self.ctx.empty.contains(c) || !self.ctx.cand[c].contains(d) {
                continue;
            }
            for &h in g.houses_of(c) {
                for &k in &self.groups_of_house[h] {
                    if !self.groups[k].cells.contains(c) && self.is_node(k, d) {
                        links.off.push(k as u16);
                    }
                }
                let mut rest = self.ctx.where_in(h, d);
                rest.remove(c);
                links
                    .on
                    .extend(self.group_of_places(h, rest).map(|k| k as u16));
            }
        }
        links.off_start[slots] = links.off.len() as u32;
        links.on_start[slots] = links.on.len() as u32;
        links
    }

    /// The fact of group `k` holding (or not) `d`.
    fn group_fact(&self, k: usize, d: u8, on: bool) -> Fact {
        fact(self.ctx.geo.cell_count() + k, d, on)
    }

    /// The group of fact cell `c` (a cell number past the grid's cells), if any.
    pub(super) fn group_of(&self, c: Cell) -> Option<usize> {
        c.checked_sub(self.ctx.geo.cell_count())
            .filter(|&k| k < self.groups.len())
    }

    /// The starting candidates of `d` in group `k`.
    pub(super) fn group_cells(&self, k: usize, d: u8) -> CellSet {
        self.ctx.digit[usize::from(d)].and(self.groups[k].cells)
    }

    /// Whether group `k` is a node for `d`: two or more starting candidates.
    fn is_node(&self, k: usize, d: u8) -> bool {
        self.group_cells(k, d).len() >= 2
    }

    /// A group fact is only a link: record it once.
    pub(super) fn derive_group(&self, b: &mut Branch, f: Fact, parent: u32, q: &mut Vec<Fact>) {
        if b.contradiction.is_some() || b.parent_of(f) != UNSET {
            return;
        }
        b.set_parent(f, parent);
        b.derived.push(f);
        q.push(f);
    }

    /// `p` holds `d`: groups of `d` in its houses that do not hold `p` are off.
    pub(super) fn groups_after_on(
        &self,
        b: &mut Branch,
        p: Cell,
        d: u8,
        f: Fact,
        q: &mut Vec<Fact>,
    ) {
        let l = &self.group_links;
        let slot = p * 32 + usize::from(d);
        for &k in &l.off[l.off_start[slot] as usize..l.off_start[slot + 1] as usize] {
            self.derive_group(b, self.group_fact(usize::from(k), d, false), f, q);
        }
    }

    /// `y` lost `d`: a house whose other places of `d` are one group turns that group on.
    pub(super) fn groups_after_off(
        &self,
        b: &mut Branch,
        y: Cell,
        d: u8,
        f: Fact,
        q: &mut Vec<Fact>,
    ) {
        let l = &self.group_links;
        let slot = y * 32 + usize::from(d);
        for &k in &l.on[l.on_start[slot] as usize..l.on_start[slot + 1] as usize] {
            self.derive_group(b, self.group_fact(usize::from(k), d, true), f, q);
        }
    }

    /// `rest`, the places of `d` left in house `h`, when it is one group: that group is on.
    fn group_left(
        &self,
        b: &mut Branch,
        h: HouseId,
        rest: CellSet,
        d: u8,
        f: Fact,
        q: &mut Vec<Fact>,
    ) {
        for k in self.group_of_places(h, rest) {
            self.derive_group(b, self.group_fact(k, d, true), f, q);
        }
    }

    /// The group of house `h` holding all of `places`, when they are two or more.
    fn group_of_places(&self, h: HouseId, places: CellSet) -> impl Iterator<Item = usize> + '_ {
        let list: &[usize] = match places.len() {
            0 | 1 => &[],
            _ => &self.groups_of_house[h],
        };
        list.iter()
            .copied()
            .filter(move |&k| places.is_subset(self.groups[k].cells))
    }

    /// The links of a group fact: on clears its line and box (cells and other groups); off
    /// leaves, in each of them, one place or one group that then holds the digit.
    pub(super) fn group_effects(
        &self,
        b: &mut Branch,
        k: usize,
        d: u8,
        on: bool,
        f: Fact,
        q: &mut Vec<Fact>,
    ) {
        let cells = self.groups[k].cells;
        for h in self.groups[k].houses {
            let rest = self.ctx.where_in(h, d).minus(cells);
            if on {
                for z in rest.iter() {
                    self.derive(b, fact(z, d, false), f, q);
                }
                for &k2 in &self.groups_of_house[h] {
                    let other = self.groups[k2].cells;
                    if k2 != k && other.and(cells).is_empty() && self.is_node(k2, d) {
                        self.derive_group(b, self.group_fact(k2, d, false), f, q);
                    }
                }
            } else if rest.len() == 1 {
                if let Some(x) = rest.first() {
                    self.derive(b, fact(x, d, true), f, q);
                }
            } else {
                self.group_left(b, h, rest, d, f, q);
            }
        }
    }
}
