//! Triggered rules: `rule NAME { on EVENT; when ...; EFFECT... }`.
//!
//! After a move, the events it caused fire in a fixed order (captures, one per captured piece; then
//! entering and leaving zones, promotion, drop, transfer, transformation, the move itself, check); at
//! the start of a turn, checkmates. Every rule listening to an event whose bare conditions hold runs
//! its effects in order, each under its own condition.

use super::{CellId, Cond, PieceId, PieceRef, PieceSet, PlayerExpr};

/// A triggered rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Its name.
    pub name: String,
    /// The events it listens to (`on` lines).
    pub events: Vec<Event>,
    /// The bare conditions (`when`/`unless` lines); all must hold.
    pub conditions: Vec<Cond>,
    /// The effects in order, each perhaps under a condition.
    pub effects: Vec<super::Guarded<Effect>>,
}

/// An event a rule listens to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A piece was captured (once per captured piece): `mover`, `captured`, `from`, `to`.
    Capture,
    /// A move ended on a cell of the zone (the mover's part): `mover`, `from`, `to`.
    Enter(usize),
    /// A move started on a cell of the zone and ended outside it.
    Leave(usize),
    /// A piece promoted.
    Promotion,
    /// A piece was dropped (`mover` the dropped piece).
    Drop,
    /// A piece moved from one board to another (a transfer move, or a piece a rule sent).
    Transfer,
    /// A piece changed type during the move (promotion, `transform`, `become`).
    Transform,
    /// Any move (passes excluded).
    Move,
    /// A move gave check to an opponent.
    Check,
    /// A player was checkmated (`mater`, `checkmated`, `delivering`).
    Checkmate,
}

impl Event {
    /// The event's word in a rule file.
    pub fn keyword(self) -> &'static str {
        match self {
            Event::Capture => "capture",
            Event::Enter(_) => "enter",
            Event::Leave(_) => "leave",
            Event::Promotion => "promotion",
            Event::Drop => "drop",
            Event::Transfer => "transfer",
            Event::Transform => "transform",
            Event::Move => "move",
            Event::Check => "check",
            Event::Checkmate => "checkmate",
        }
    }
}

/// What a rule does.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// The target pieces leave the game.
    Remove(Target),
    /// The target pieces go to a place.
    Send(Target, Destination),
    /// The target pieces change type (and owner).
    Transform {
        /// Which pieces.
        target: Target,
        /// What they become.
        into: Into,
        /// Their new owner, if it changes.
        owner: Option<PlayerExpr>,
        /// The reserve the new piece comes from: without one there, nothing happens.
        from: Option<usize>,
    },
    /// The target pieces change owner: they become `to`'s (the moving player's by default), on their
    /// cells, and use their new owner's forward direction and zones from then on.
    Convert {
        /// Which pieces.
        target: Target,
        /// Their new owner.
        to: PlayerExpr,
    },
    /// The player leaves the game.
    Eliminate(PlayerExpr),
    /// One piece of the type goes into the reserve (the moving player's part of a reserve per
    /// player).
    Add(usize, PieceId),
    /// The move-rule count restarts.
    ResetMoveRule,
}

/// Which pieces an effect applies to.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The pieces.
    pub who: Who,
    /// Types left alone (`except PIECE...`).
    pub except: Vec<PieceId>,
}

/// The pieces a target names.
#[derive(Clone, Debug, PartialEq)]
pub enum Who {
    /// A participant: the piece that moved (`mover`, `moved`, `captor`) or the captured piece.
    Piece(PieceRef),
    /// The pieces on the cells one king step around a participant's cell, on its board.
    Adjacent(PieceRef),
    /// The pieces of other players enclosed by the participant: from its cell along every king
    /// direction, a run of one or more of them closed by a piece of the participant's owner (Othello).
    Enclosed(PieceRef),
    /// Every piece of the types of a player (`all [PIECES] of SIDE`).
    All(PieceSet, PlayerExpr),
    /// The mater's pieces that attacked the checkmated royal piece (`delivering`).
    Delivering,
}

/// Where `send` puts pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A board: its first empty cell (capacity and overflow apply).
    Board(usize),
    /// A zone: its first empty cell (the piece owner's part).
    Zone(usize),
    /// A cell.
    Cell(CellId),
    /// A reserve (the owner's part of one per player).
    Reserve(usize),
}

/// What `transform` turns pieces into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Into {
    /// One type.
    Piece(PieceId),
    /// A type map (types it does not list stay as they are).
    Map(usize),
}
