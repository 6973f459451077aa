//! How a game ends: the lines of the `end` block, the ranking and the scoring.

use super::{Cond, PieceId, PieceSet, PlayerId};

/// A line of the `end` block.
#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    /// What ends the game.
    pub kind: EndKind,
    /// The result for the player it concerns.
    pub result: Outcome,
    /// Who gets the result, when not the default.
    pub subject: Subject,
    /// False when a player may only claim it.
    pub automatic: bool,
    /// When it is tested.
    pub timing: EndTiming,
    /// An extra condition (`own` the player to move).
    pub condition: Option<Cond>,
}

/// What ends a game.
#[derive(Clone, Debug, PartialEq)]
pub enum EndKind {
    /// A player is in check with no legal move.
    Checkmate,
    /// A player is not in check and has no legal move.
    Stalemate,
    /// A player has no legal move.
    NoMoves,
    /// A player has no royal piece left.
    RoyalCapture,
    /// A player has no piece of the types left.
    Extinction(PieceSet),
    /// A piece of the types stands in the player's part of the zone.
    Flag {
        /// The zone.
        zone: usize,
        /// The types.
        pieces: Vec<PieceId>,
        /// Tested at the start of the player's next turn, after one reply.
        after_reply: bool,
    },
    /// A player has given that many checks.
    Checks(u32),
    /// A player has only royal pieces left.
    BareKing {
        /// He first gets one move to bare the opponent back.
        unless_bared_back: bool,
    },
    /// A drop of one of the types gives checkmate.
    DropMate(Vec<PieceId>),
    /// A position occurs for the Nth time and one player gave check with every move of the cycle.
    PerpetualCheck(u32),
    /// Royal pieces under `facing must_break` faced each other in N consecutive positions.
    Facing(u32),
    /// A counting rule reaches its limit.
    Counting(Counting),
    /// The same position occurs for the Nth time.
    Repetition(u32),
    /// N moves by each player without a capture, a pawn move or a reset.
    MoveRule(u32),
    /// The game has lasted N moves.
    MoveLimit(u32),
    /// No side has mating potential (`mating_potential when`, `own` the side tested; the built-in
    /// test without it).
    InsufficientMaterial(Option<Cond>),
    /// Its condition holds.
    Result,
    /// A player has delivered N checkmates.
    Checkmates(u32),
    /// The Nth checkmate of the game is delivered.
    TotalCheckmates(u32),
    /// Every player still in the game passed on his latest turn.
    AllPass,
    /// A player has captured N enemy pieces of the types by his own moves.
    Captures(u32, PieceSet),
    /// One piece of each listed type of the player who just moved fills a W×H rectangle.
    Formation {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// The types, one per cell.
        pieces: Vec<PieceId>,
    },
    /// One player is left.
    LastSurvivor,
}

impl EndKind {
    /// The keyword of the line, for messages and result reasons.
    pub fn keyword(&self) -> &'static str {
        match self {
            EndKind::Checkmate => "checkmate",
            EndKind::Stalemate => "stalemate",
            EndKind::NoMoves => "no_moves",
            EndKind::RoyalCapture => "royal_capture",
            EndKind::Extinction(_) => "extinction",
            EndKind::Flag { .. } => "flag",
            EndKind::Checks(_) => "checks",
            EndKind::BareKing { .. } => "bare_king",
            EndKind::DropMate(_) => "drop_mate",
            EndKind::PerpetualCheck(_) => "perpetual_check",
            EndKind::Facing(_) => "facing",
            EndKind::Counting(_) => "counting",
            EndKind::Repetition(_) => "repetition",
            EndKind::MoveRule(_) => "move_rule",
            EndKind::MoveLimit(_) => "move_limit",
            EndKind::InsufficientMaterial(_) => "insufficient_material",
            EndKind::Result => "result",
            EndKind::Checkmates(_) => "checkmates",
            EndKind::TotalCheckmates(_) => "total_checkmates",
            EndKind::AllPass => "all_pass",
            EndKind::Captures(..) => "captures",
            EndKind::Formation { .. } => "formation",
            EndKind::LastSurvivor => "last_survivor",
        }
    }
}

/// A counting rule (Thai makruk): after every move, a count runs while `start` holds; the line
/// applies once the count exceeds the limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Counting {
    /// When the count runs (`own` the player to move, the counting side).
    pub start: Option<Cond>,
    /// When it restarts after a capture (`restart on capture when ...`).
    pub restart: Vec<Option<Cond>>,
    /// The limits, the first whose condition holds applying; `None` lines always apply.
    pub limits: Vec<(u32, Option<Cond>)>,
    /// Where the count begins (`begin piece_count|zero when ...`): the first line whose condition
    /// holds; `true` for the number of pieces on the board, `false` for zero (the default).
    pub begin: Vec<(bool, Option<Cond>)>,
}

/// When an end line is tested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndTiming {
    /// After every single move (default; `at move`).
    #[default]
    AfterMove,
    /// When a player is about to start a turn (`at turn_start`).
    TurnStart,
}

/// A game result from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player wins.
    Win,
    /// The player loses.
    Loss,
    /// A draw.
    Draw,
    /// Decided by points: the player with more wins, equal is a draw.
    Points,
}

/// Who an end line's result goes to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Subject {
    /// `win` to the player who brought it about, `loss` to the player it happens to (default).
    #[default]
    Default,
    /// The player it happens to (`victim`).
    Victim,
    /// The player who made the move (`mover`).
    Mover,
    /// A named player.
    Player(PlayerId),
}

/// A group of the `ranking` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankGroup {
    /// The winner.
    Winner,
    /// The other players still in the game, sharing a place.
    Remaining,
    /// The eliminated players, last eliminated first.
    ReverseElimination,
}

/// Points per game: a player who drops out while N players are in the game scores `drop_out N`; when
/// a player wins, the others still in the game drop out together; the winner takes the rest of the
/// total; in a draw the players still in the game share what is left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scoring {
    /// Points distributed per game.
    pub total: u32,
    /// (players in the game, points) for a player who drops out.
    pub drop_out: Vec<(u32, u32)>,
    /// Whether a match's total is the sum of its games' scores (`series sum`), rather than one point
    /// per win.
    pub series_sum: bool,
}
