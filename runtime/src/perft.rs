//! Perft: counting the leaf nodes of the legal move tree, the yardstick of move-generator correctness.

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
