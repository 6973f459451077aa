//! Lowering: the checked model to the IR that emission needs: the compact form when the game fits the
//! fast profile (see [`fast`]), and, for every piece and player whose moves the compiler specialises
//! in the hook form, per-cell leap tables and ray tables with the move's modes baked in.
//!
//! A piece is specialised when all its moves are single-leg Betza parts (leapers, riders, lame and
//! must-jump leaps, cannons and grasshoppers, initial-only, en passant, `from ZONE`) without conditions
//! or board limits, and captures are unrestricted (they take any piece of another player: no `captures
//! any`, no neutral side); other pieces (those with induction or move borrowing, `x`, among them) stay
//! with the interpreter's generator.

pub mod fast;

use std::collections::HashMap;

use vdl_runtime::geometry::{first_leg_selects, lame_path, symmetric_variants, Frame};
use vdl_runtime::model::{Game, Vec3};

/// The marker for "no cell" in emitted tables.
pub const NONE: u16 = u16::MAX;

/// What emission needs for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ir {
    /// The game's identifier.
    pub name: String,
    /// The path of the rule file, for the header.
    pub source_path: String,
    /// The rule file's text, embedded so that the engine builds the shared parts of its model.
    pub source: String,
    /// Number of cells.
    pub cells: usize,
    /// Specialised generators, one per (piece, player).
    pub generators: Vec<PieceGen>,
    /// The compact form, or why the game does not fit its profile.
    pub fast: Result<fast::FastIr, String>,
}

/// The specialised moves of one piece type for one player.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceGen {
    /// The piece type's index.
    pub piece: usize,
    /// The piece type's name.
    pub piece_name: String,
    /// The player's index.
    pub player: usize,
    /// Its move parts.
    pub parts: Vec<PartGen>,
}

/// One specialised move part.
#[derive(Clone, Debug, PartialEq)]
pub struct PartGen {
    /// How it moves.
    pub kind: PartKind,
    /// It may move to an empty cell.
    pub moves: bool,
    /// It may capture an enemy piece.
    pub captures: bool,
    /// It may capture en passant.
    pub en_passant: bool,
    /// Only an unmoved piece has it.
    pub initial: bool,
    /// Its moves create en-passant rights on the cells they pass.
    pub ep_source: bool,
    /// The cells it may start from (`from ZONE`), if limited.
    pub from_cells: Option<Vec<bool>>,
}

/// The geometry of a part.
#[derive(Clone, Debug, PartialEq)]
pub enum PartKind {
    /// Single leaps: per cell, (target, cell that must be empty or `NONE`, cell that must be occupied
    /// or `NONE`).
    Leap(Vec<Vec<(u16, u16, u16)>>),
    /// Slides: per cell, per direction, the cells in order (up to the range).
    Ride(Vec<Vec<Vec<u16>>>),
    /// Cannon hops: per cell, per direction, the whole line; the screens it may not hop.
    Hop(Vec<Vec<Vec<u16>>>, Vec<usize>),
    /// Grasshopper hops: per cell, per direction, the whole line.
    Grasshop(Vec<Vec<Vec<u16>>>),
}

/// Lowers a checked game.
pub fn lower(game: &Game, source_path: &str, source: &str) -> Ir {
    let index: HashMap<(usize, [i32; 3]), usize> = game
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.board, c.coord), i))
        .collect();
    let step = |cell: usize, v: Vec3| -> Option<usize> {
        let c = &game.cells[cell];
        index
            .get(&(
                c.board,
                [c.coord[0] + v[0], c.coord[1] + v[1], c.coord[2] + v[2]],
            ))
            .copied()
    };
    // The specialised code captures any piece of another owner: games whose captures also take the
    // mover's own pieces, or never a neutral side's, stay with the interpreter's generator.
    let restricted_game = game.pieces.iter().any(|p| p.immune)
        || game.captures == vdl_runtime::model::CaptureScope::Any
        || game.players.iter().any(|p| p.neutral);
    let mut generators = Vec::new();
    for (piece_index, piece) in game.pieces.iter().enumerate() {
        let restricted = restricted_game
            || piece.captures_only.is_some()
            || piece.never_captures
            || !piece.cannot_hop.is_empty();
        if restricted || game.boards.len() != 1 {
            continue;
        }
        for (player_index, player) in game.players.iter().enumerate().filter(|(_, p)| !p.neutral) {
            let frame = Frame {
                forward: player.forward.clone(),
            };
            if let Some(parts) = lower_piece(game, piece, player_index, &frame, &step) {
                generators.push(PieceGen {
                    piece: piece_index,
                    piece_name: piece.name.clone(),
                    player: player_index,
                    parts,
                });
            }
        }
    }
    Ir {
        name: game.name.clone(),
        source_path: source_path.to_string(),
        source: source.to_string(),
        cells: game.cells.len(),
        generators,
        fast: fast::fast_profile(game),
    }
}

fn lower_piece(
    game: &Game,
    piece: &vdl_runtime::model::Piece,
    player: usize,
    frame: &Frame,
    step: &dyn Fn(usize, Vec3) -> Option<usize>,
) -> Option<Vec<PartGen>> {
    let mut parts = Vec::new();
    for moves in &piece.moves {
        if moves.condition.is_some()
            || moves.within.is_some()
            || !moves.boards.is_empty()
            || moves.exclusive
        {
            return None;
        }
        let from_cells = moves.from_zone.map(|z| {
            let mut member = vec![false; game.cells.len()];
            for &c in &game.zones[z].cells[player] {
                member[c] = true;
            }
            member
        });
        for part in &moves.parts {
            // Crooked and circular riders bend: their cells are not a line, the interpreter walks them,
            // as it does the moves that a friendly piece makes or lends (`x`, never a single plain leg).
            if part.legs.len() != 1
                || part.hand_on != vdl_runtime::model::HandOn::None
                || part.vectors.is_empty()
                || part.path != vdl_runtime::model::RiderPath::Straight
            {
                return None;
            }
            let modes = part.legs[0].modes.as_str();
            if modes.chars().any(|c| !"mcenjpg".contains(c)) {
                return None;
            }
            let has = |c: char| modes.contains(c);
            let explicit = has('m') || has('c') || has('e');
            let moves_ok = has('m') || !explicit;
            let captures = has('c') || !explicit;
            let mut vectors: Vec<Vec3> = Vec::new();
            for base in &part.vectors {
                for v in symmetric_variants(*base, game.dimensions) {
                    if first_leg_selects(&part.legs[0].directions, v, frame)
                        && !vectors.contains(&v)
                    {
                        vectors.push(v);
                    }
                }
            }
            let rider = part.range != 1;
            let max = if part.range <= 1 {
                usize::MAX
            } else {
                part.range as usize
            };
            let line = |cell: usize, v: Vec3, limit: usize| -> Vec<u16> {
                let mut out = Vec::new();
                let mut at = cell;
                while out.len() < limit {
                    match step(at, v) {
                        Some(next) => {
                            out.push(next as u16);
                            at = next;
                        }
                        None => break,
                    }
                }
                out
            };
            let kind = if has('p') || has('g') {
                if !rider || has('n') || has('j') {
                    return None;
                }
                let lines = (0..game.cells.len())
                    .map(|c| vectors.iter().map(|&v| line(c, v, usize::MAX)).collect())
                    .collect();
                if has('g') {
                    PartKind::Grasshop(lines)
                } else {
                    PartKind::Hop(lines, Vec::new())
                }
            } else if rider {
                if has('n') || has('j') {
                    return None;
                }
                PartKind::Ride(
                    (0..game.cells.len())
                        .map(|c| vectors.iter().map(|&v| line(c, v, max)).collect())
                        .collect(),
                )
            } else {
                let leaps = (0..game.cells.len())
                    .map(|c| {
                        vectors
                            .iter()
                            .filter_map(|&v| {
                                let to = step(c, v)?;
                                let path = lame_path(v);
                                let first = path.first().and_then(|&d| step(c, d));
                                let (block, need) = match (has('n'), has('j')) {
                                    (true, _) if path.len() == 1 => {
                                        (first.map_or(NONE, |x| x as u16), NONE)
                                    }
                                    (_, true) if path.len() == 1 => {
                                        (NONE, first.map_or(NONE, |x| x as u16))
                                    }
                                    _ => (NONE, NONE),
                                };
                                Some((to as u16, block, need))
                            })
                            .collect()
                    })
                    .collect();
                if (has('n') || has('j')) && vectors.iter().any(|&v| lame_path(v).len() > 1) {
                    return None;
                }
                PartKind::Leap(leaps)
            };
            parts.push(PartGen {
                kind,
                moves: moves_ok,
                captures,
                en_passant: has('e'),
                initial: part.initial,
                ep_source: part.initial || has('n'),
                from_cells: from_cells.clone(),
            });
        }
    }
    Some(parts)
}
