//! Moves of several legs as trees: the paths from one cell (or the attacks on one cell) share the
//! cells they pass, so each cell's paths are laid out as a tree in depth-first order. An entry is
//! `(cell, flags, end)`: the cell is a target when it is empty ([`QUIET`]) or occupied
//! ([`CAPTURE`]), the entries after it (up to `end`, relative to the cell's first entry) need it
//! empty ([`PASS_EMPTY`]) or occupied ([`PASS_FULL`]), and `end` is where the walk goes on when the
//! cell does not let it in. One walk over the occupied cells then finds every target.

use std::collections::BTreeMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::Emitter;
use crate::lower::fast::Bits;

/// The cell is a target when it is empty.
pub(super) const QUIET: u8 = 1;
/// The cell is a target when it is occupied (a capture, or the attacker of an attack).
pub(super) const CAPTURE: u8 = 2;
/// The entries below need the cell empty.
pub(super) const PASS_EMPTY: u8 = 4;
/// The entries below need the cell occupied.
pub(super) const PASS_FULL: u8 = 8;

/// One path: the cells it needs (cell, whether occupied), its target and the target's flags.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PathItem {
    pub needs: Vec<(usize, bool)>,
    pub target: usize,
    pub flags: u8,
}

impl PathItem {
    /// A path from its sets of cells that must be empty and occupied.
    pub(super) fn new(empty: Bits, occupied: Bits, target: usize, flags: u8) -> PathItem {
        let mut needs: Vec<(usize, bool)> = empty.cells().map(|c| (c, false)).collect();
        needs.extend(occupied.cells().map(|c| (c, true)));
        PathItem {
            needs,
            target,
            flags,
        }
    }
}

/// The entries of one cell's tree, `(cell, flags, end)`.
pub(super) type Entry = (usize, u8, usize);

/// The tree of `items` in depth-first order: at each level, the need most paths share opens a
/// subtree; the targets of the paths whose needs are all met come last, or with the entry of their
/// cell.
pub(super) fn tree(items: Vec<PathItem>) -> Vec<Entry> {
    let mut out = Vec::new();
    level(items, &mut out);
    out
}

fn level(items: Vec<PathItem>, out: &mut Vec<Entry>) {
    let (done, mut rest): (Vec<_>, Vec<_>) = items.into_iter().partition(|i| i.needs.is_empty());
    let mut targets: BTreeMap<usize, u8> = BTreeMap::new();
    for item in done {
        *targets.entry(item.target).or_default() |= item.flags;
    }
    while !rest.is_empty() {
        let mut counts: BTreeMap<(usize, bool), usize> = BTreeMap::new();
        for item in &rest {
            for &need in &item.needs {
                *counts.entry(need).or_default() += 1;
            }
        }
        let most = counts.values().copied().max().unwrap_or(0);
        let need = counts
            .iter()
            .find(|(_, &n)| n == most)
            .map(|(&k, _)| k)
            .expect("a path with needs");
        let (mut with, without): (Vec<_>, Vec<_>) =
            rest.into_iter().partition(|i| i.needs.contains(&need));
        for item in &mut with {
            item.needs.retain(|&n| n != need);
        }
        let pass = if need.1 { PASS_FULL } else { PASS_EMPTY };
        let flags = pass | targets.remove(&need.0).unwrap_or(0);
        let at = out.len();
        out.push((need.0, flags, 0));
        level(with, out);
        out[at].2 = out.len();
        rest = without;
    }
    for (cell, flags) in targets {
        let end = out.len() + 1;
        out.push((cell, flags, end));
    }
}

/// The targets a walk of `entries` finds: (empty targets, occupied targets). What generated code
/// does, for the tests.
#[cfg(test)]
fn walk(entries: &[Entry], occupied: Bits) -> (Bits, Bits) {
    let (mut quiet, mut full) = (Bits::ZERO, Bits::ZERO);
    let mut i = 0;
    while i < entries.len() {
        let (cell, flags, end) = entries[i];
        let taken = occupied.contains(cell);
        if taken && flags & CAPTURE != 0 {
            full |= Bits::bit(cell);
        } else if !taken && flags & QUIET != 0 {
            quiet |= Bits::bit(cell);
        }
        let enter = if taken { PASS_FULL } else { PASS_EMPTY };
        i = if flags & enter != 0 { i + 1 } else { end };
    }
    (quiet, full)
}

impl Emitter<'_> {
    /// The tables of one piece's paths, `NAME` (every entry) and `NAME_AT` (per player and cell,
    /// where its entries start; the next cell's start ends them), from each player's per-cell
    /// paths. Players with the same trees share their entries.
    pub(super) fn path_tables(
        &self,
        name: &str,
        doc: &str,
        players: &[Vec<Vec<PathItem>>],
    ) -> TokenStream {
        let cell_ty = self.cell_ty();
        let mut pool: Vec<Entry> = Vec::new();
        let mut starts: Vec<Vec<usize>> = Vec::new();
        let mut trees: Vec<Vec<Vec<Entry>>> = Vec::new();
        for cells in players {
            let built: Vec<Vec<Entry>> = cells.iter().map(|c| tree(c.clone())).collect();
            if let Some(q) = trees.iter().position(|t| *t == built) {
                starts.push(starts[q].clone());
                trees.push(built);
                continue;
            }
            let mut row = Vec::with_capacity(built.len() + 1);
            for entries in &built {
                row.push(pool.len());
                pool.extend(entries.iter().copied());
            }
            row.push(pool.len());
            starts.push(row);
            trees.push(built);
        }
        let longest = trees.iter().flatten().map(Vec::len).max().unwrap_or(0);
        let end_ty = if longest <= usize::from(u16::MAX) {
            quote!(u16)
        } else {
            quote!(u32)
        };
        let entries = pool.iter().map(|&(cell, flags, end)| {
            let cell = self.cell_lit(Some(cell));
            let flags = Literal::u8_unsuffixed(flags);
            let end = Literal::usize_unsuffixed(end);
            quote! { (#cell, #flags, #end) }
        });
        let rows = starts.iter().map(|row| {
            let row = row.iter().map(|&s| Literal::u32_unsuffixed(s as u32));
            quote! { [#(#row),*] }
        });
        let (pool_name, at_name) = (format_ident!("{}", name), format_ident!("{}_AT", name));
        let len = Literal::usize_unsuffixed(pool.len());
        let no = self.no();
        let at_doc = format!("Per player and cell, where the cell's entries in `{name}` start.");
        quote! {
            #[doc = #doc]
            static #pool_name: [(#cell_ty, u8, #end_ty); #len] = [#(#entries),*];
            #[doc = #at_doc]
            static #at_name: [[u32; CELLS + 1]; #no] = [#(#rows),*];
        }
    }

    /// The entries of `cell`'s tree in the path tables `name` for player `player`.
    pub(super) fn path_entries(
        &self,
        name: &str,
        player: TokenStream,
        cell: TokenStream,
    ) -> TokenStream {
        let (pool, at) = (format_ident!("{}", name), format_ident!("{}_AT", name));
        quote! { &#pool[#at[#player][#cell] as usize..#at[#player][#cell + 1] as usize] }
    }

    /// The function that finds, in one cell's tree of attacks, the cells passed by the paths whose
    /// attacker stands at their start: a move from or onto one of them may open or close an attack
    /// on that cell (`risky`). Only where some tree of attacks has entries.
    pub(super) fn path_risk(&self) -> TokenStream {
        let depth = self
            .ir
            .pieces
            .iter()
            .flat_map(|p| &p.players)
            .flat_map(|m| m.path_attacks.iter().flatten())
            .map(|(_, empty, full)| (empty.count_ones() + full.count_ones()) as usize)
            .max();
        let Some(depth) = depth else {
            return quote! {};
        };
        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let size = Literal::usize_unsuffixed(depth + 1);
        let (capture, pass) = (
            Literal::u8_unsuffixed(CAPTURE),
            Literal::u8_unsuffixed(PASS_EMPTY | PASS_FULL),
        );
        quote! {
            /// The cells passed by the paths of one cell's tree of attacks whose attacker is among
            /// `attackers`, whatever stands on them.
            fn path_risk<E: Copy + Into<u32>>(entries: &[(#cell_ty, u8, E)], attackers: Bits) -> Bits {
                // Per depth in the tree: where the subtree ends, and the cells passed to get there.
                let mut ends = [0usize; #size];
                let mut passed: [Bits; #size] = [#zero; #size];
                let mut depth = 0;
                let mut risky: Bits = #zero;
                for (i, &(cell, flags, end)) in entries.iter().enumerate() {
                    while depth > 0 && ends[depth] <= i {
                        depth -= 1;
                    }
                    let at = bit(cell as usize);
                    if flags & #capture != 0 && attackers & at != 0 {
                        risky |= passed[depth];
                    }
                    if flags & #pass != 0 {
                        depth += 1;
                        ends[depth] = end.into() as usize;
                        passed[depth] = passed[depth - 1] | at;
                    }
                }
                risky
            }
        }
    }

    /// The function that walks one cell's tree over the occupied cells: (empty targets, occupied
    /// targets).
    pub(super) fn path_walk(&self) -> TokenStream {
        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let (quiet, capture, pass_empty, pass_full) = (
            Literal::u8_unsuffixed(QUIET),
            Literal::u8_unsuffixed(CAPTURE),
            Literal::u8_unsuffixed(PASS_EMPTY),
            Literal::u8_unsuffixed(PASS_FULL),
        );
        quote! {
            /// Walks one cell's tree of paths over the occupied cells: the targets found empty and
            /// those found occupied. An entry is (cell, 1: target when empty, 2: when occupied, 4:
            /// the entries below need it empty, 8: occupied; where the walk goes on otherwise).
            fn walk_paths<E: Copy + Into<u32>>(entries: &[(#cell_ty, u8, E)], occupied: Bits) -> (Bits, Bits) {
                let (mut quiet, mut full): (Bits, Bits) = (#zero, #zero);
                let mut i = 0;
                while i < entries.len() {
                    let (cell, flags, end) = entries[i];
                    let at = bit(cell as usize);
                    let taken = occupied & at != 0;
                    if taken {
                        if flags & #capture != 0 {
                            full |= at;
                        }
                    } else if flags & #quiet != 0 {
                        quiet |= at;
                    }
                    let enter = if taken { #pass_full } else { #pass_empty };
                    i = if flags & enter != 0 { i + 1 } else { end.into() as usize };
                }
                (quiet, full)
            }
        }
    }
}

/// The cells passed by the paths of `entries` whose target is among `attackers`: what generated
/// `path_risk` does, for the tests.
#[cfg(test)]
fn risk(entries: &[Entry], attackers: Bits) -> Bits {
    let mut stack: Vec<(usize, Bits)> = vec![(usize::MAX, Bits::ZERO)];
    let mut risky = Bits::ZERO;
    for (i, &(cell, flags, end)) in entries.iter().enumerate() {
        while stack.len() > 1 && stack.last().is_some_and(|&(e, _)| e <= i) {
            stack.pop();
        }
        let passed = stack.last().map_or(Bits::ZERO, |&(_, p)| p);
        if flags & CAPTURE != 0 && attackers.contains(cell) {
            risky |= passed;
        }
        if flags & (PASS_EMPTY | PASS_FULL) != 0 {
            stack.push((end, passed | Bits::bit(cell)));
        }
    }
    risky
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cells: &[usize]) -> Bits {
        cells.iter().fold(Bits::ZERO, |s, &c| s | Bits::bit(c))
    }

    /// A rook-like ride 1, 2, 3 and a cannon over 1 to 2: the walk finds what each path allows.
    fn ride_and_hop() -> Vec<PathItem> {
        vec![
            PathItem::new(set(&[]), set(&[]), 1, QUIET | CAPTURE),
            PathItem::new(set(&[1]), set(&[]), 2, QUIET | CAPTURE),
            PathItem::new(set(&[1, 2]), set(&[]), 3, QUIET | CAPTURE),
            PathItem::new(set(&[]), set(&[1]), 2, CAPTURE),
        ]
    }

    #[test]
    fn shared_cells_open_one_subtree() {
        let entries = tree(ride_and_hop());
        // Cell 1 is a target and opens the ride (empty) and the hop (occupied): two entries.
        assert_eq!(entries.iter().filter(|e| e.0 == 1).count(), 2);
        assert_eq!(entries.len(), 5);
    }

    #[test]
    fn the_walk_finds_the_targets_the_paths_allow() {
        let entries = tree(ride_and_hop());
        assert_eq!(walk(&entries, set(&[])), (set(&[1, 2, 3]), set(&[])));
        assert_eq!(walk(&entries, set(&[2])), (set(&[1]), set(&[2])));
        // Over the screen on 1 the hop takes 2; the ride stops at 1.
        assert_eq!(walk(&entries, set(&[1, 2])), (set(&[]), set(&[1, 2])));
        assert_eq!(walk(&entries, set(&[1])), (set(&[]), set(&[1])));
    }

    #[test]
    fn the_risk_is_the_cells_passed_by_paths_from_an_attacker() {
        let entries = tree(ride_and_hop());
        // An attacker on 3 attacks along the ride over 1 and 2.
        assert_eq!(risk(&entries, set(&[3])), set(&[1, 2]));
        // On 2: over 1, by the ride (1 empty) and by the hop (1 occupied).
        assert_eq!(risk(&entries, set(&[2])), set(&[1]));
        // On 1, next to the cell: nothing between.
        assert_eq!(risk(&entries, set(&[1])), set(&[]));
    }
}
