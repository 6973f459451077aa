//! Who may move a piece, and in whose frame. A player moves their own pieces; `movable_by` on a neutral
//! side or on a piece type lets other players move them too (under a condition), and `perspective
//! player` makes a piece move in the frame of the player moving it (forward, zones, promotion) rather
//! than in its owner's. `captures any` lets captures take the mover's own pieces as well.

use crate::model::{CaptureScope, Game, MovableBy, MoverSide, Perspective};

use super::conditions::Scope;
use super::position::{Occupant, Position};
use super::tables::Interpreter;

/// The control rules of a game, prepared once.
#[derive(Clone, Debug, Default)]
pub(super) struct Control {
    /// Per piece type: whether it moves in the frame of the player moving it (`perspective player`).
    pub perspective_player: Vec<bool>,
    /// Per piece type: its `movable_by` statements; when there are some, they replace the side's.
    pub piece_movers: Vec<Vec<MovableBy>>,
    /// Per player or neutral side: its `movable_by` statements.
    pub side_movers: Vec<Vec<MovableBy>>,
    /// Whether some piece may be moved by a player other than its owner.
    pub borrowed: bool,
    /// Whether captures may take the capturing player's own pieces (`captures any`).
    pub captures_any: bool,
}

impl Control {
    /// Reads the control rules of a game.
    pub(super) fn new(game: &Game) -> Control {
        let piece_movers: Vec<Vec<MovableBy>> =
            game.pieces.iter().map(|p| p.movable_by.clone()).collect();
        let side_movers: Vec<Vec<MovableBy>> =
            game.players.iter().map(|p| p.movable_by.clone()).collect();
        let admits_someone = |m: &MovableBy| !m.who.iter().all(|w| *w == MoverSide::None);
        let borrowed = piece_movers
            .iter()
            .chain(side_movers.iter())
            .flatten()
            .any(admits_someone);
        Control {
            perspective_player: game
                .pieces
                .iter()
                .map(|p| p.perspective == Perspective::Player)
                .collect(),
            piece_movers,
            side_movers,
            borrowed,
            captures_any: game.captures == CaptureScope::Any,
        }
    }
}

impl Interpreter {
    /// Whether `player` may move the piece on `cell` this turn.
    pub(super) fn may_move_piece(
        &self,
        pos: &Position,
        cell: usize,
        occ: Occupant,
        player: usize,
    ) -> bool {
        let owner = occ.owner();
        if owner == player {
            return true;
        }
        if !self.control.borrowed {
            return false;
        }
        let piece_rules = &self.control.piece_movers[occ.piece()];
        let rules = if piece_rules.is_empty() {
            match self.control.side_movers.get(owner) {
                Some(rules) => rules,
                None => return false,
            }
        } else {
            piece_rules
        };
        let owner_is_player = owner < self.players;
        let admits = |who: &MoverSide| match who {
            MoverSide::All => true,
            MoverSide::Enemy => owner_is_player,
            MoverSide::Player(p) => *p == player,
            MoverSide::None => false,
        };
        // In a `movable_by` condition, `own` and `enemy` are seen from the player who would move it.
        let scope = Scope::piece(player, cell);
        rules.iter().any(|m| {
            m.who.iter().any(admits)
                && m.condition
                    .as_ref()
                    .is_none_or(|c| self.condition_holds(pos, &scope, c))
        })
    }

    /// The player whose frame a piece moves in when `mover` moves it: the mover for pieces with
    /// `perspective player`, otherwise the owner.
    pub(super) fn frame_of(&self, occ: Occupant, mover: usize) -> usize {
        if self
            .control
            .perspective_player
            .get(occ.piece())
            .copied()
            .unwrap_or(false)
        {
            mover
        } else {
            occ.owner()
        }
    }
}
