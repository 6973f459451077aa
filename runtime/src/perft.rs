//! Perft: counting the leaf nodes of the legal move tree, the yardstick of move-generator correctness.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::variant::Variant;

/// Counts the move paths of `depth` plies. A finished game has no moves.
pub fn perft<V: Variant>(variant: &V, position: &mut V::Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<V::Move>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(variant, position, depth, &mut buffers)
}

/// Perft with one move list per ply, reused across the tree.
fn perft_with<V: Variant>(
    variant: &V,
    position: &mut V::Position,
    depth: u32,
    buffers: &mut [Vec<V::Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return variant.count_legal_moves(position);
    }
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 0;
    };
    moves.clear();
    variant.legal_moves(position, moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = variant.make(position, mv);
        nodes += perft_with(variant, position, depth - 1, deeper);
        variant.unmake(position, mv, undo);
    }
    nodes
}

/// Counts per root move (`--divide`), calling `progress` after each root move with (done, total).
pub fn divide<V: Variant>(
    variant: &V,
    position: &mut V::Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let total = moves.len();
    let mut out = Vec::with_capacity(total);
    for (i, mv) in moves.into_iter().enumerate() {
        let text = variant.write_move(position, mv);
        let undo = variant.make(position, mv);
        let nodes = if depth <= 1 {
            1
        } else {
            perft(variant, position, depth - 1)
        };
        variant.unmake(position, mv, undo);
        out.push((text, nodes));
        progress(i + 1, total);
    }
    out
}

/// Counts per root move like [`divide`], until `stop` is raised: the flag is read at every node, so a
/// stop is noticed within one node's move generation. Returns the root moves counted, in move
/// generation order, and whether every root move was counted (`false`: stopped).
pub fn divide_until<V: Variant>(
    variant: &V,
    position: &mut V::Position,
    depth: u32,
    stop: &AtomicBool,
) -> (Vec<(String, u64)>, bool) {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let mut buffers: Vec<Vec<V::Move>> = (0..depth).map(|_| Vec::new()).collect();
    let mut out = Vec::with_capacity(moves.len());
    for mv in moves {
        if stop.load(Ordering::Relaxed) {
            return (out, false);
        }
        let text = variant.write_move(position, mv);
        let undo = variant.make(position, mv);
        let nodes = if depth <= 1 {
            Some(1)
        } else {
            perft_until(variant, position, depth - 1, &mut buffers, stop)
        };
        variant.unmake(position, mv, undo);
        match nodes {
            Some(nodes) => out.push((text, nodes)),
            None => return (out, false),
        }
    }
    (out, true)
}

/// Perft with one move list per ply, reading `stop` at every node; `None` when stopped.
fn perft_until<V: Variant>(
    variant: &V,
    position: &mut V::Position,
    depth: u32,
    buffers: &mut [Vec<V::Move>],
    stop: &AtomicBool,
) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    if depth == 1 {
        return Some(variant.count_legal_moves(position));
    }
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return Some(0);
    };
    moves.clear();
    variant.legal_moves(position, moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = variant.make(position, mv);
        let counted = perft_until(variant, position, depth - 1, deeper, stop);
        variant.unmake(position, mv, undo);
        nodes += counted?;
    }
    Some(nodes)
}
