//! The hook through which a compiled engine replaces the interpreter's hot path: move generation for
//! the pieces it has specialised code for. Everything else (promotions, legality, game end, text) stays
//! shared, so compiled and interpreted engines agree by construction outside the specialised code, and
//! the agreement tests check the specialised code against the interpreter.

use std::fmt;
use std::sync::Arc;

use super::position::{Move, Occupant, Position};

/// Specialised move generation, emitted by the compiler for one game.
pub trait Generator: Send + Sync {
    /// Appends the moves of the piece on `cell` before promotion (or, with `attacks`, the cells it
    /// attacks), and returns true; returns false, appending nothing, for a piece the interpreter must
    /// generate itself.
    fn piece_moves(
        &self,
        position: &Position,
        cell: usize,
        occupant: Occupant,
        attacks: bool,
        out: &mut Vec<Move>,
    ) -> bool;

    /// The name of the game it was generated for.
    fn game_name(&self) -> &'static str;
}

/// A shared generator, cloneable with the interpreter.
#[derive(Clone)]
pub(super) struct Hook(pub Arc<dyn Generator>);

impl fmt::Debug for Hook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Generator({})", self.0.game_name())
    }
}
