//! Transfers: whole-turn moves of a player's own piece from one set of cells to another, usually on
//! another board (`transfer NAME { pieces ...; from ...; to ...; target empty|any; become PIECE; when
//! ... }`). They are written `from-to` like any move; `target any` captures the occupant of the
//! landing cell, whatever its side.

use crate::model::{CellId, CellsOrZone, Cond, Game, PieceId};

use super::conditions::Scope;
use super::position::{Move, Position};
use super::tables::Interpreter;

/// One prepared `transfer` block.
#[derive(Clone, Debug)]
pub(super) struct Transfer {
    /// The piece types it moves.
    pieces: Vec<PieceId>,
    /// Where the piece stands: cells and zones.
    from: Vec<CellsOrZone>,
    /// Where it may go: cells and zones.
    to: Vec<CellsOrZone>,
    /// Whether the landing cell must be empty (`target empty`).
    empty_only: bool,
    /// The type it takes on arrival (`become`).
    arrives_as: Option<PieceId>,
    /// Conditions on the piece and the position (`when`), with `mover` the piece transferred.
    conditions: Vec<Cond>,
}

/// Reads the `transfer` blocks of a game.
pub(super) fn transfers(game: &Game) -> Vec<Transfer> {
    game.transfers
        .iter()
        .map(|t| Transfer {
            pieces: t.pieces.clone(),
            from: t.from.clone(),
            to: t.to.clone(),
            empty_only: t.empty_only,
            arrives_as: t.become_piece,
            conditions: t.conditions.clone(),
        })
        .collect()
}

impl Interpreter {
    /// Appends the transfer moves of the side to move.
    pub(super) fn transfer_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        for transfer in &self.transfers {
            for from in self.transfer_cells(&transfer.from, side) {
                let occ = pos.cells[from];
                if occ.is_empty() || occ.owner() != side || !transfer.pieces.contains(&occ.piece())
                {
                    continue;
                }
                let scope = Scope::piece(side, from);
                if !transfer
                    .conditions
                    .iter()
                    .all(|c| self.condition_holds(pos, &scope, c))
                {
                    continue;
                }
                for to in self.transfer_cells(&transfer.to, side) {
                    if to == from || (transfer.empty_only && !pos.cells[to].is_empty()) {
                        continue;
                    }
                    let mut mv = Move::normal(from, to);
                    if let Some(piece) = transfer.arrives_as {
                        mv.piece = piece as u8 + 1;
                    }
                    out.push(mv);
                }
            }
        }
    }

    /// The cells named by a transfer's `from` or `to`, for a player.
    fn transfer_cells(&self, places: &[CellsOrZone], player: usize) -> Vec<CellId> {
        let mut cells = Vec::new();
        for place in places {
            match place {
                CellsOrZone::Cell(cell) => cells.push(*cell),
                CellsOrZone::Zone(zone) => cells
                    .extend((0..self.game.cells.len()).filter(|&c| self.in_zone(*zone, player, c))),
            }
        }
        cells
    }
}
