//! Pick-up moves: instead of a move, a player takes one of his pieces off the board into his hand
//! (`reserve NAME { per_player; drops; pick_up PIECES (from ZONE)? when COND }`). Written `N^c3`: the
//! piece's letter, `^` and the cell it leaves.

use crate::model::{Cond, Game, PieceSet};

use super::conditions::Scope;
use super::position::{Move, MoveKind, Occupant, Position};
use super::tables::Interpreter;

/// One prepared `pick_up` line.
#[derive(Clone, Debug)]
pub(super) struct PickUpRule {
    /// Per piece type: whether the line picks it up.
    pieces: Vec<bool>,
    /// Only from cells of this zone (the player's part).
    from: Option<usize>,
    /// The line's condition, with `mover` the piece.
    condition: Option<Cond>,
}

/// Reads the `pick_up` lines of a game's reserves. `all` is every type that is not royal (the checker
/// refuses royal types by name).
pub(super) fn pick_up_rules(game: &Game) -> Vec<PickUpRule> {
    game.reserves
        .iter()
        .flat_map(|r| &r.pick_ups)
        .map(|p| PickUpRule {
            pieces: game
                .pieces
                .iter()
                .enumerate()
                .map(|(index, piece)| match &p.pieces {
                    PieceSet::All => !piece.royal.is_royal(),
                    PieceSet::Royal => piece.royal.is_royal(),
                    PieceSet::Types(types) => types.contains(&index),
                })
                .collect(),
            from: p.from,
            condition: p.condition.clone(),
        })
        .collect()
}

impl Interpreter {
    /// Appends the pick-up moves of the side to move: one per own piece that some line allows, on a
    /// cell of its zone, with its condition holding. Frozen pieces and pieces on a stack stay.
    pub(super) fn pick_up_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        for (cell, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty()
                || occ.owner() != side
                || occ.is_frozen()
                || pos.stacks.iter().any(|&(c, _)| c == cell)
            {
                continue;
            }
            let allowed = self.pick_ups.iter().any(|rule| {
                rule.pieces.get(occ.piece()).copied().unwrap_or(false)
                    && rule.from.is_none_or(|zone| self.in_zone(zone, side, cell))
                    && rule.condition.as_ref().is_none_or(|condition| {
                        self.condition_holds(pos, &Scope::piece(side, cell), condition)
                    })
            });
            if allowed {
                out.push(Move {
                    kind: MoveKind::PickUp,
                    piece: occ.piece() as u8 + 1,
                    ..Move::normal(cell, cell)
                });
            }
        }
    }

    /// The piece a pick-up puts into the hand: as a captured piece would enter it (a promoted piece
    /// as the type it was promoted from).
    pub(super) fn picked_up_type(&self, occ: Occupant) -> usize {
        self.hand_type(occ)
    }
}
