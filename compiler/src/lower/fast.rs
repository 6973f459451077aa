//! The fast profile: games the compiler can emit as a compact bitboard engine, lowered to [`FastIr`].
//!
//! A game fits when its boards (2D or 3D, several too, without transfers between them) have at most
//! 511 cells in all ([`MAX_CELLS`]), and it has two players (or more, with the features `check_players` allows) and
//! no neutral side, one
//! move per turn, no triggered rules but captures that explode (atomic chess) and rules converting
//! the enemy pieces next to or enclosed by the piece that moved or was dropped (in games without
//! royal pieces, castling, gating or en passant), rules about the captured piece and the piece
//! arriving in a zone, and move-rule resets on transformations and transfers (`triggers`, in
//! games without royal pieces), rules on captures that transform the piece that moved (from a
//! reserve or not, under conditions on types, counts, pieces held and options) and
//! `on transform; reset move_rule`, custodian capture (in games without royal pieces
//! or walls), no turn statements but `must_capture`,
//! `forbid_checks`, `royal_safety`, `pass allowed` and `pass when_stuck`, and pieces without
//! special properties (`captures_only`,
//! `cannot_hop`, `count_limit` and a royal piece's `facing` aside) whose moves are leaps (lame and
//! initial ones too, and the universal leaper `U`), unlimited slides, cannon hops (leaps, slides and hops also `within` a zone),
//! en-passant captures, moves of several legs that only pass empty or occupied cells, and crooked
//! and circular riders (both unrolled into paths), and pulls (`afucR`, an unload on a later leg);
//! castling (with original pieces, to fixed landing cells, and with partners per player),
//! promotions (in pairs, on captures only, switched by options, under conditions on piece counts,
//! and from a reserve), a reserve shared by the players, hands and drops (under
//! conditions on piece counts, `near(to, ...)` and `enclosed(to)`), and end rules
//! that the interpreter can be asked about cheaply (checkmate, stalemate, no moves, drop mates,
//! bare king, flag, extinction, the move rule, repetition, checks given and a move limit, all
//! under conditions too, `insufficient_material` and `result` on piece counts, checks and the player to move, `all_pass`
//! and `facing N`). [`fast_profile`] names the
//! first feature that does not fit.

use std::collections::HashMap;

mod steps;
mod triggers;

pub use triggers::{FastAction, FastEffect, FastNewOwner, FastRule, FastTriggers, FastWhere};

use vdl_runtime::geometry::{
    bent_step, continuation_candidates, continuation_selects, continuation_selects_after,
    first_leg_selects, lame_path, side_after, symmetric_variants, Frame,
};
use vdl_runtime::model::{
    Board, BoardExpr, CapturesTo, Castle, Cell, CellExpr, CellsOrZone, CheckEvasion, CheckmateTest,
    Compare, Cond, Effect, EnPassantExpiry, EnPassantRight, EndKind, Event, Facing, FreezeEvent,
    Game, Guarded, IntExpr, MoverSide, PartnerAt, PartnerTo, Pass, Perspective, Piece, PieceRef,
    PieceSet, PieceTypeExpr, Place, Player, PlayerExpr, Reserve, RoyalSafety, Royalty, Rule, Sides,
    Target, Turn, Untouched, Value, Vec3, WallCells, Who,
};

/// The largest board the compact form supports ([`vdl_runtime::compact::MAX_CELLS`]): bitboards
/// of up to 512 bits (`u64` up to 64 cells, `u128` up to 128, [`vdl_runtime::compact::Wide`]
/// above), and cells of nine bits in the engines' moves, one value of which is "no cell".
pub const MAX_CELLS: usize = vdl_runtime::compact::MAX_CELLS;

/// The most words of per-cell leap and ray tables the compact form writes out: per table of
/// bitboards, cells x the 64-bit words of a bitboard. On boards of more than 128 cells the tables
/// made of the board's leaps and rides are computed when the engine compiles ([`StepTable`]) and
/// do not count; Armies of Faith 5 writes out none of its 640 (they would be 256,000 words). A
/// game above it falls back to the hook form, whose tables grow with the moves instead.
pub const MAX_TABLE_WORDS: usize = 200_000;

/// The most step vectors a large board's tables are computed from ([`StepTable`]); Armies of
/// Faith 5 has 100.
pub const MAX_STEP_VECTORS: usize = 512;

/// The most entries (cells x step vectors) of a step table written out, for boards that are not
/// whole boxes (whose step table the engine computes itself); above it the per-cell tables are
/// written out instead, under [`MAX_TABLE_WORDS`].
pub const MAX_WRITTEN_STEPS: usize = 32_768;

/// A bitboard in the IR: bit `i` is cell `i`, on every board the compact form supports.
pub type Bits = vdl_runtime::compact::Wide<{ vdl_runtime::compact::MAX_WORDS }>;

/// What emission needs for the compact form of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct FastIr {
    /// Number of cells.
    pub cells: usize,
    /// The players who move (two, or more: every other player is an enemy, a partner too, as in
    /// the interpreter).
    pub players: usize,
    /// `en_passant_expires owner_turn` with more than two players: each player's latest
    /// en-passant right lasts until his next turn starts (or its pawn is taken), so the position
    /// holds one per player.
    pub en_passant_lasts: bool,
    /// Per player, his partner (`partner`): a check to him is no check given (`forbid_checks`,
    /// `no_drop_check`).
    pub partners: Vec<Option<usize>>,
    /// Games that go on after a checkmate (more than two players, a rule `on checkmate` that
    /// eliminates): the position holds who is out, the turn passes over the eliminated players,
    /// and the interpreter plays the start of a turn that has a checkmate to play.
    pub elimination: Option<FastElimination>,
    /// The piece types, in the model's order.
    pub pieces: Vec<FastPiece>,
    /// Slide directions: per direction, per cell, the cells along it in order.
    pub directions: Vec<Direction>,
    /// Castling rules.
    pub castles: Vec<FastCastle>,
    /// The royal piece type, if the game has one and leaving it attacked is illegal (the first
    /// of [`FastIr::royal_types`]).
    pub royal: Option<usize>,
    /// Every royal piece type: a player's royal pieces are his pieces of all of them (a piece
    /// may become one of another royal type, as a King that a checkmate makes an Emperor).
    pub royal_types: Vec<usize>,
    /// End rules decided by the position alone, tested cheaply before moves are generated (the
    /// interpreter then decides).
    pub early_ends: Vec<EarlyEnd>,
    /// Hands, if the game has them.
    pub hands: Option<FastHands>,
    /// Whether royal pieces may not face each other on a file or rank with nothing between
    /// (xiangqi's flying general): each then attacks the other along orthogonal lines.
    pub facing: bool,
    /// `facing must_break` (janggi's bikjang): a player whose royal piece faces the enemy's on a
    /// file at the start of his turn must end the facing, or pass.
    pub facing_break: bool,
    /// The piece types that cannot be captured (`immune`): no move takes them, but they attack and
    /// are attacked as any other.
    pub immune: Vec<usize>,
    /// The piece types that hoppers with `cannot_hop` may not hop (one list for all of them).
    pub unhoppable: Vec<usize>,
    /// The piece types whose unmoved flag belongs to a position's identity (hash and repetition),
    /// as the interpreter decides it: those with initial moves, castling or `virgin_in`.
    pub virgin_matters: Vec<usize>,
    /// The promotion rules whose condition depends on option values only: (piece type, rule
    /// index). The engine holds one switch per entry, set from the option values.
    pub switches: Vec<(usize, usize)>,
    /// The conditions of promotion rules on the position (piece counts), evaluated on the
    /// position before the move with the side to move as `own`.
    pub conditions: Vec<FastCond>,
    /// `turn { must_capture }`: when a capture is legal, only captures are.
    pub must_capture: bool,
    /// `turn { must_drop (when COND)? }`: while the condition holds (with the side to move as
    /// `own`) and a drop is legal, only drops are.
    pub must_drop: Option<FastCond>,
    /// `turn { forbid_checks }`: a move that leaves an enemy royal piece attacked is illegal.
    pub forbid_checks: bool,
    /// `turn { royal_safety all }`: a move is illegal only when it leaves every royal piece of the
    /// mover attacked (and a player is in check only when all of them are).
    pub royal_all: bool,
    /// `royal when COND` on the one royal type: its pieces of a player are royal only while the
    /// condition holds for him (`own`), a condition on his own piece counts.
    pub royal_when: Option<FastCond>,
    /// Whether positions count the checks each player has given (the game has a `checks` rule).
    pub counts_checks: bool,
    /// The counting rule's count, kept in the position when the game has one (`counting`,
    /// automatic or claimed).
    pub counting: Option<FastCounting>,
    /// Per piece type: the most pieces of it a player may have for a promotion to it
    /// (`count_limit`).
    pub count_limits: Vec<Option<u32>>,
    /// Per piece type: the type it is promoted from (`promoted_from`), when one of its promotion
    /// choices goes back to it: that promotion is a demotion, which leaves the piece unpromoted.
    pub demotes_to: Vec<Option<usize>>,
    /// When a player may pass: `turn { pass allowed }` (a move that leaves his royal piece safe)
    /// or `turn { pass when_stuck }` (the only move of a player without another). With passes the
    /// position counts the passes in a row, as the interpreter does (`all_pass`, `facing N`).
    pub pass: Pass,
    /// The effects of the triggered rules, in the order the interpreter plays them after a move.
    pub conversions: Vec<FastConversion>,
    /// The king directions (eight, 26 in 3D; indices in [`FastIr::directions`]) when a rule converts pieces
    /// or a drop condition counts the pieces a cell encloses (`enclosed`); empty otherwise.
    pub king_directions: Vec<usize>,
    /// Whether a rule or the drop condition looks at the pieces a cell encloses (`enclosed`).
    pub encloses: bool,
    /// Captures explode (atomic chess's rule).
    pub explosion: Option<Explosion>,
    /// `turn { wall ... }`: every move is followed, in the same ply, by a wall on a cell.
    pub walls: Option<FastWalls>,
    /// The sides that own pieces: the players, then the neutral sides (whose pieces move only
    /// when `movable_by` lets a player move them). Piece codes, colours and frames count them all.
    pub owners: usize,
    /// The pieces players may move without owning them (`movable_by`).
    pub borrowed: Vec<FastBorrow>,
    /// The tables of the `near(mover, ...)` tests of `movable_by` and `transfer` conditions (per
    /// cell, the cells one leap away).
    pub mover_near: Vec<Vec<Bits>>,
    /// The `transfer` moves, in declaration order.
    pub transfers: Vec<FastTransfer>,
    /// Per cell, the index of its board (read when the game has transfers: a move between boards
    /// is not a promotion).
    pub boards: Vec<usize>,
    /// `en_passant_right when_capturable`: a right stays after the double step only when the
    /// next player has a capture that takes it, ignoring royal safety (two players, one move a
    /// turn).
    pub en_passant_when_capturable: bool,
    /// `captures any`: a capture may take any piece, the capturing player's own included (in
    /// games without royal pieces, hands, castling, walls, stacks, custodian or exploding captures).
    pub captures_any: bool,
    /// Whether pieces stack (`stacks`): the position then holds, per cell, the piece under a top
    /// piece ([`FastPiece::stacks`]).
    pub stacking: bool,
    /// The turn order, turns of several single moves, frozen pieces and the capture counters.
    pub turns: FastTurns,
    /// Custodian capture (`custodian { ... }`), after every move of a piece on the board.
    pub custodian: Option<FastCustodian>,
    /// The triggered rules on captured pieces, on entering zones and on transformations and
    /// transfers (the others are `conversions` and `explosion`).
    pub triggers: Option<FastTriggers>,
    /// Whether the position keeps the pieces that are waiting (sent by a rule, their owner has not
    /// moved since): a rule sends pieces or a condition reads `mover.waited`.
    pub waiting: bool,
    /// The rules `on capture` that transform the piece that moved, in file order.
    pub capture_rules: Vec<FastCaptureRule>,
    /// The conditions of those rules that depend on option values only: (rule index in the game,
    /// condition index). The engine holds one switch per entry, set from the option values.
    pub rule_switches: Vec<(usize, usize)>,
    /// A rule `on transform; reset move_rule`: a move that changes a piece's type (a promotion, or
    /// a rule's transformation) restarts the move-rule count.
    pub transform_resets: bool,
    /// On boards of more than 128 cells, the steps the engine's per-cell tables are computed from
    /// when it compiles ([`vdl_runtime::compact::step_table`]); empty on smaller boards.
    pub steps: StepTable,
}

/// The steps of a large board: per step vector (slide directions, then the displacements of the
/// pieces' leaps), the cell it reaches from each cell.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepTable {
    /// The step vectors.
    pub vectors: Vec<Vec3>,
    /// Per cell, per vector, the cell reached on the same board.
    pub to: Vec<Vec<Option<usize>>>,
    /// When every board is a whole box numbered file first, then rank, then level: per board its
    /// first cell and size, from which the engine computes [`StepTable::to`] itself
    /// ([`vdl_runtime::compact::box_steps`]).
    pub boxes: Option<Vec<(usize, [u32; 3])>>,
}

/// A rule `on capture` in the compact form: after a capture by a move, when its conditions hold
/// (on the position after the move, with the captured piece off the board), its effects in order.
#[derive(Clone, Debug, PartialEq)]
pub struct FastCaptureRule {
    /// The indices in [`FastIr::rule_switches`] of its conditions on options: all must be on.
    pub switches: Vec<usize>,
    /// Its other conditions: all must hold.
    pub conditions: Vec<RuleCond>,
    /// Its effects.
    pub effects: Vec<RuleEffect>,
}

/// An effect of a [`FastCaptureRule`].
#[derive(Clone, Debug, PartialEq)]
pub enum RuleEffect {
    /// `transform mover (TYPE | by TYPEMAP) (from RESERVE)?`: the piece on the arrival cell
    /// becomes one of the type its own type maps to (none for the types of `except`, those the map
    /// does not list and those that would stay as they are); from a reserve (hand row `row`) only
    /// when it holds one, which it gives, and the new piece stands unmoved and promoted.
    Transform {
        /// Per type, the type it becomes, if it changes.
        into: Vec<Option<usize>>,
        /// The hand row it comes from, if from a reserve.
        row: Option<usize>,
    },
    /// `reset move_rule`.
    Reset,
}

/// A condition of a [`FastCaptureRule`].
#[derive(Clone, Debug, PartialEq)]
pub enum RuleCond {
    /// A constant.
    Const(bool),
    /// Negation.
    Not(Box<RuleCond>),
    /// Conjunction.
    All(Vec<RuleCond>),
    /// Disjunction.
    Any(Vec<RuleCond>),
    /// The piece on the arrival cell (`mover.piece`) is of one of these types.
    Mover(Vec<usize>),
    /// The captured piece (`captured.piece`) is of one of these types.
    Captured(Vec<usize>),
    /// A condition on piece counts and pieces held, `own` the player who moved.
    Counts(FastCond),
}

/// What the start of a turn tests in a game that goes on after a checkmate.
#[derive(Clone, Debug, PartialEq)]
pub struct FastElimination {
    /// `checkmate_test attacked_at_turn_start`: the player about to move checkmates every player
    /// whose royal piece he attacks.
    pub attacked_at_turn_start: bool,
}

/// Turns in the compact form (`turn { order; moves N; end_early_when_stuck; freeze after ... }`) and
/// the capture counters of `captures` end rules, as the interpreter plays them: a turn is `moves`
/// single moves (fewer with `end_early`), a piece frozen by one of them may not move again until
/// its owner's turn ends, and the half-move counter counts turns.
#[derive(Clone, Debug, PartialEq)]
pub struct FastTurns {
    /// Single moves per turn (1: every move ends the turn).
    pub moves: u32,
    /// The player who moves last in the turn order: after his turn the move number grows.
    pub last: usize,
    /// The turn order (with more than two players, who moves after whom).
    pub order: Vec<usize>,
    /// `end_early_when_stuck`: a turn ends when the mover has no legal single move left.
    pub end_early: bool,
    /// `freeze after move`: every normal move freezes the piece that moved.
    pub freeze_move: bool,
    /// `freeze after jump`: a move passing over an occupied cell on a straight line freezes it.
    pub freeze_jump: bool,
    /// `freeze after capture`: a move that removes a piece freezes it.
    pub freeze_capture: bool,
    /// `freeze after unpin`: a move of the top piece of a stack freezes it.
    pub freeze_unpin: bool,
    /// `freeze after stack`: a stacking move freezes the piece that climbed.
    pub freeze_stack: bool,
    /// For `freeze after jump`: per start cell, each cell on a straight line at least two steps
    /// away, with the cells strictly between (empty when nothing freezes after a jump).
    pub between: Vec<Vec<(usize, Bits)>>,
    /// Whether positions count, per player and piece type, the enemy pieces he captured by his
    /// own moves (`captures` end rules, or a `{captures}` field in the position text).
    pub counts_captures: bool,
}

impl FastTurns {
    /// Whether a single move may freeze a piece.
    pub fn freezes(&self) -> bool {
        self.freeze_move
            || self.freeze_jump
            || self.freeze_capture
            || self.freeze_unpin
            || self.freeze_stack
    }
}

/// An effect of a triggered rule: enemy pieces around the piece that moved (`mover`, on the move's
/// arrival cell) become the mover's (`convert adjacent mover`, `convert enclosed mover`).
#[derive(Clone, Debug, PartialEq)]
pub struct FastConversion {
    /// Whether it follows drops only (`on drop`), rather than every move but a pass (`on move`).
    pub drops_only: bool,
    /// Which pieces it converts.
    pub target: ConversionTarget,
    /// The types it leaves alone (`except`).
    pub except: Vec<usize>,
    /// The player they go to (`to PLAYER`), or `None` for the mover (`to own`).
    pub to: Option<usize>,
}

/// The pieces a [`FastConversion`] names, around the arrival cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConversionTarget {
    /// Those one king step away (`adjacent mover`).
    Adjacent,
    /// Those the mover encloses (`enclosed mover`): along each king direction, a run of enemy
    /// pieces closed by one of the mover's.
    Enclosed,
}

/// A capture that explodes: `rule NAME { on capture; remove adjacent moved except PIECES; remove
/// moved }`. After the capture the capturing piece leaves the game, and so does every piece, of
/// either side, one king step around its arrival cell, except the `immune` types.
#[derive(Clone, Debug, PartialEq)]
pub struct Explosion {
    /// The types the blast leaves alone (`except`); the royal type is never one of them.
    pub immune: Vec<usize>,
    /// Per cell, the cells one king step around it.
    pub neighbours: Vec<Bits>,
}

/// A walling rule (`turn { wall ... }`) in the compact form. Walls are pieces of the wall type
/// owned by nobody: they stand in that type's bitboard, never in a player's.
#[derive(Clone, Debug, PartialEq)]
pub struct FastWalls {
    /// The wall piece type.
    pub piece: usize,
    /// The neutral side that owns the walls.
    pub owner: usize,
    /// Where a wall may go, decided on the position after the move.
    pub cells: FastWallCells,
    /// Per player, the cells a wall may go on (the whole board without `in ZONE`).
    pub zone: Vec<Bits>,
    /// One wall only: placing it takes the previous one away (the duck).
    pub single: bool,
}

/// Where a wall may go after a move.
#[derive(Clone, Debug, PartialEq)]
pub enum FastWallCells {
    /// Any empty cell.
    Empty,
    /// The cell the piece left.
    Vacated,
    /// The empty cells the moved piece reaches from its arrival cell with these quiet leaps and
    /// slides, per player.
    Reach(Vec<FastMoves>),
}

/// A counting rule (`counting`, makruk's): its conditions on piece counts, `own` the player to
/// move after each single move (the counting side). The position keeps the count: where it began,
/// the plies since and the limit, as the interpreter's `Position::count`.
#[derive(Clone, Debug, PartialEq)]
pub struct FastCounting {
    /// When the count runs (`start when`), if limited.
    pub start: Option<FastCond>,
    /// When a capture restarts it (`restart on capture when`), each line perhaps under a condition.
    pub restart: Vec<Option<FastCond>>,
    /// The limits, the first whose condition holds applying.
    pub limits: Vec<(u32, Option<FastCond>)>,
    /// Where it begins: the first line whose condition holds; `true` for the number of pieces on
    /// the board.
    pub begin: Vec<(bool, Option<FastCond>)>,
}

/// A cheap test for an end rule decided by the position alone.
#[derive(Clone, Debug, PartialEq)]
pub enum EarlyEnd {
    /// A player has only pieces of these types (the royal ones) left (`bare_king`).
    BareRoyal(Vec<usize>),
    /// A piece of these types stands in its owner's zone (`flag`): per player, the zone's cells.
    Reached(Vec<usize>, Vec<Bits>),
    /// A player has no piece of these types left, or none at all for `None` (`extinction`).
    Extinct(Option<Vec<usize>>),
    /// The half-move counter has reached this many plies (`move_rule N`: 2N).
    MoveRule(u32),
    /// A player has given this many checks (`checks N`).
    Checks(u32),
    /// Neither player has mating potential by the rule's condition (`insufficient_material` with
    /// `mating_potential when`), evaluated exactly with the player tested as `own`.
    Insufficient(FastCond),
    /// Neither player has a non-royal piece of these types (the built-in mating-material test
    /// can only fail then; the interpreter decides).
    NoneOf(Vec<usize>),
    /// Both players passed on their latest turn (`all_pass`).
    AllPass,
    /// The royal pieces (under `facing must_break`) face each other now, after this many passes in
    /// a row less one (`facing N`).
    Facing(u32),
    /// The condition of a `result` rule holds, with the side to move as `own`.
    Result(FastCond),
    /// A player has captured this many enemy pieces of these types (`captures N TYPES`).
    Captures(u32, Vec<usize>),
    /// The player who moved last has at least these many pieces of each type a `formation`
    /// needs: (type, count).
    Formation(Vec<(usize, u32)>),
    /// A player has been checkmated or eliminated (`last_survivor`, `checkmates N`,
    /// `total_checkmates N`, in games that go on after a checkmate).
    Checkmated,
    /// The count of the counting rule exceeds its limit (`counting`).
    CountOver,
}

/// A condition on piece counts, for end rules decided by material.
#[derive(Clone, Debug, PartialEq)]
pub enum FastCond {
    /// A constant.
    Const(bool),
    /// Negation.
    Not(Box<FastCond>),
    /// All of them.
    All(Vec<FastCond>),
    /// Any of them.
    Any(Vec<FastCond>),
    /// A comparison.
    Compare(Compare, FastInt, FastInt),
    /// A number within a range (inclusive).
    Between(FastInt, i64, i64),
    /// The piece the condition is about (on `from`) stands in a zone: per player, its cells.
    MoverIn(Vec<Bits>),
    /// A player's royal piece is attacked (`in_check(P)`, in end conditions): `own`, the
    /// opponent or one player.
    InCheck(FastOwners),
    /// A player is one of these (`P in [...]`, `P == PLAYER`, in end conditions).
    PlayerIn(FastOwners, Vec<usize>),
    /// No piece stands on the cell (`empty(CELL)`, a cell named), in games without walls.
    Empty(usize),
    /// A piece of some types that some players own stands one leap from the drop's target cell
    /// `to` (`near(to, ...)`), or from the cell of the piece a player may move (`near(mover, ...)`
    /// in `movable_by`).
    Near {
        /// Whose surroundings: the drop's target (`false`) or the piece's cell (`true`).
        mover: bool,
        /// The table of the leaps' cells from each cell (index in [`FastHands::near`] for a drop,
        /// in [`FastIr::mover_near`] for a piece).
        table: usize,
        /// Whose pieces.
        owners: FastOwners,
        /// Of which types.
        pieces: Vec<usize>,
    },
}

/// Pieces of one type and owner that another player may move (`movable_by`), in games without
/// royal pieces and with `captures any` (their moves take any piece, as the mover's own would).
#[derive(Clone, Debug, PartialEq)]
pub struct FastBorrow {
    /// The piece type.
    pub piece: usize,
    /// Whose pieces.
    pub owner: usize,
    /// The player who may move them.
    pub mover: usize,
    /// The side whose frame (forward, zones, promotions) they move in: the mover's under
    /// `perspective player`, else the owner's.
    pub frame: usize,
    /// When the mover may move one, about its cell `from` with `own` the mover.
    pub condition: FastCond,
}

/// A `transfer` block: a whole turn's move of a player's own piece of some types from some cells to
/// others (usually on another board), in games without royal pieces, hands, walls or stacks.
#[derive(Clone, Debug, PartialEq)]
pub struct FastTransfer {
    /// The types it moves.
    pub pieces: Vec<usize>,
    /// Per player, the cells it starts from.
    pub from: Vec<Bits>,
    /// Per player, the cells it may land on.
    pub to: Vec<Bits>,
    /// Whether the landing cell must be empty (else its occupant, of any side, is captured).
    pub empty_only: bool,
    /// The type the piece takes on arrival (`become`).
    pub becomes: Option<usize>,
    /// When the player may make it, about the piece on `from` with `own` its owner.
    pub condition: FastCond,
}

/// A number in a [`FastCond`].
#[derive(Clone, Debug, PartialEq)]
pub enum FastInt {
    /// A constant.
    Const(i64),
    /// A sum.
    Add(Box<FastInt>, Box<FastInt>),
    /// A difference.
    Sub(Box<FastInt>, Box<FastInt>),
    /// The number of pieces of some types that some players own, on the cells of a zone (per
    /// owner) or anywhere.
    Count {
        /// Whose pieces.
        owners: FastOwners,
        /// Of which types.
        pieces: Vec<usize>,
        /// Per player, the zone's cells for that player's pieces.
        zone: Option<Vec<Bits>>,
    },
    /// The number of pieces of a type that a player holds in hand (`held`).
    Held {
        /// Whose hand.
        owner: FastOwners,
        /// Of which type.
        piece: usize,
    },
    /// The enemy pieces a piece of `own` on the drop's target cell `to` would enclose
    /// (`enclosed(to)`).
    Enclosed,
    /// Whether the piece on `from` has waited (`mover.waited`: 0 while it is waiting, else 1).
    Waited,
}

/// Whose pieces a count counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FastOwners {
    /// The player the condition is about.
    Own,
    /// That player's opponent.
    Opponent,
    /// The player to move.
    ToMove,
    /// One player.
    Player(usize),
    /// Both players.
    Both,
}

/// A slide direction.
#[derive(Clone, Debug, PartialEq)]
pub struct Direction {
    /// Its vector.
    pub vector: Vec3,
    /// The cells a move along it must start, pass and end on (`moves ... within ZONE`), if limited:
    /// the lines then stop where they leave them.
    pub within: Option<Bits>,
    /// Per cell, the cells along it.
    pub lines: Vec<Vec<usize>>,
    /// Whether cell indices grow along it (the first blocker is then the lowest bit).
    pub ascending: bool,
}

/// One piece type.
#[derive(Clone, Debug, PartialEq)]
pub struct FastPiece {
    /// Its name.
    pub name: String,
    /// Whether its moves reset the move-rule counter.
    pub pawn: bool,
    /// The only types it may capture (`captures_only`), if limited; its attacks are not.
    pub captures_only: Option<Vec<usize>>,
    /// Whether its hops may not go over the types of [`FastIr::unhoppable`] (`cannot_hop`).
    pub cannot_hop: bool,
    /// `check_evasion capture_checker`: while its owner is in check, it only captures the piece
    /// giving check, and does not move at all when several do.
    pub captures_checker: bool,
    /// Its promotions that are moves of their own (`promote_move`).
    pub promotion_moves: Vec<FastPromotionMove>,
    /// Its stacking moves (`stacks`).
    pub stacks: Vec<FastStack>,
    /// Its merger moves (`merge`).
    pub merges: Vec<FastMerge>,
    /// Per side, the hand row its promotions take the new piece from, if from a reserve.
    pub promotion_rows: Vec<Option<usize>>,
    /// Its moves for each of the two players.
    pub players: Vec<FastMoves>,
}

/// The moves of one piece type for one player.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct FastMoves {
    /// Per cell: targets on empty cells by plain leaps.
    pub quiet_leaps: Vec<Bits>,
    /// Per cell: targets with an enemy piece by plain leaps.
    pub capture_leaps: Vec<Bits>,
    /// Per cell: the cells from which this piece attacks it by leaps.
    pub attacked_from: Vec<Bits>,
    /// Per cell: the cells from which this piece attacks it by leaps while unmoved (initial
    /// capturing leaps).
    pub initial_attacked_from: Vec<Bits>,
    /// Per cell: the cells from which it captures en passant onto it.
    pub en_passant_from: Option<Vec<Bits>>,
    /// Quiet slides (direction indices).
    pub quiet_slides: Vec<usize>,
    /// Capturing slides (direction indices).
    pub capture_slides: Vec<usize>,
    /// Quiet cannon hops: slides beyond one occupied cell (direction indices).
    pub quiet_hops: Vec<usize>,
    /// Capturing cannon hops (direction indices).
    pub capture_hops: Vec<usize>,
    /// Pulls (`afucR`, the tug's): along these directions (indices), a slide over empty cells to
    /// one of them and on to the first piece, an enemy, which is taken and put down on the cell
    /// where the second slide began. Each direction is also a capturing slide, whose attacks cover
    /// the pull's.
    pub pulls: Vec<usize>,
    /// Per cell: (cell, cell that must be empty) from which this piece captures it by lame leaps.
    pub lame_attacks: Vec<Vec<(usize, usize)>>,
    /// Steps of an unmoved piece or over an empty cell: per cell, the list.
    pub steps: Vec<Vec<Step>>,
    /// Multi-leg moves and crooked and circular riders as paths: per cell, the list.
    pub paths: Vec<Vec<Path>>,
    /// Per cell: (cell, cells that must be empty, cells that must be occupied) from which this
    /// piece captures it by a path.
    pub path_attacks: Vec<Vec<(usize, Bits, Bits)>>,
    /// Its promotion, if every rule offers the same choices without a pair or a condition.
    pub promotion: Option<FastPromotion>,
    /// Its promotion rules one by one, when they differ (choices, pairs, option switches).
    pub promotion_rules: Vec<FastPromotionRule>,
    /// Its moves under a condition on the mover, the piece it hops (`hurdle`) or the stacks.
    pub conditional: Vec<FastConditional>,
}

impl FastMoves {
    /// A plain leap from `from` to `to`, to an empty cell (`quiet`) or capturing, which then
    /// attacks `to`.
    fn add_leap(&mut self, from: usize, to: usize, quiet: bool, captures: bool) {
        if quiet {
            self.quiet_leaps[from] |= Bits::bit(to);
        }
        if captures {
            self.capture_leaps[from] |= Bits::bit(to);
            self.attacked_from[to] |= Bits::bit(from);
        }
    }
}

/// A move of several legs, unrolled for one start cell: the cells its legs pass must be empty or
/// occupied (screens it hops) as given, and it ends on `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Path {
    /// The target.
    pub to: usize,
    /// The cells that must be empty.
    pub empty: Bits,
    /// The cells that must be occupied.
    pub occupied: Bits,
    /// Whether it may go to an empty cell.
    pub quiet: bool,
    /// Whether it may capture.
    pub capture: bool,
}

/// One promotion rule of a piece type, for one player.
#[derive(Clone, Debug, PartialEq)]
pub struct FastPromotionRule {
    /// Target cells where it applies.
    pub to: Bits,
    /// Start cells from which it applies to every target (`leaving`).
    pub from: Bits,
    /// Whether the player may decline it.
    pub optional: bool,
    /// The choices (piece types), in order.
    pub choices: Vec<usize>,
    /// Whether a second piece of the chosen type is put on the cell left (`promote_pair`).
    pub pair: bool,
    /// The index in [`FastIr::switches`] of the option condition it needs, if any.
    pub switch: Option<usize>,
    /// The index in [`FastIr::conditions`] of the condition on the position it needs, if any.
    pub condition: Option<usize>,
    /// Whether it applies to captures only (`capturing`).
    pub capturing: bool,
    /// The hand row it takes the new piece from (`from RESERVE`): only the types held there are
    /// choices, a compulsory rule without one applies not, and the new piece stands unmoved.
    pub reserve: Option<usize>,
}

/// A non-capturing leap that needs an unmoved piece or an empty cell on its way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The target.
    pub to: usize,
    /// The cell that must be empty, if any.
    pub block: Option<usize>,
    /// Whether only an unmoved piece has it.
    pub initial: bool,
    /// The cell that becomes an en-passant target, if any.
    pub en_passant: Option<usize>,
    /// Whether it may go to an empty cell.
    pub quiet: bool,
    /// Whether it may capture.
    pub capture: bool,
    /// Whether the moves it belongs to need the player in check (`true`) or not in check
    /// (`false`: `unless in_check(mover.owner)`), if they have that condition.
    pub in_check: Option<bool>,
}

/// The promotions of a piece type: every rule offers the same choices; a move is promoted by force
/// when a compulsory rule applies, and may be when an optional one does.
#[derive(Clone, Debug, PartialEq)]
pub struct FastPromotion {
    /// The choices.
    pub choices: Vec<usize>,
    /// Target cells where promotion is compulsory.
    pub forced_to: Bits,
    /// Start cells from which promotion is compulsory (`leaving`).
    pub forced_from: Bits,
    /// Target cells where promotion is optional.
    pub optional_to: Bits,
    /// Start cells from which promotion is optional (`leaving`).
    pub optional_from: Bits,
}

/// Hands: where captured pieces go and how pieces are dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct FastHands {
    /// Whether the reserve is one shared by the players (a hand row after theirs), which only
    /// promotions and rules take pieces from.
    pub shared: bool,
    /// Whether pieces in hand can be dropped.
    pub drops: bool,
    /// Whether captured pieces go to a hand: the captor's, or his partner's (`captured_go_here
    /// partner`).
    pub captures_to_hand: bool,
    /// Per player, whose hand the pieces he captures go to (his own, or his partner's).
    pub receivers: Vec<usize>,
    /// Per piece type: the type it takes in hand.
    pub hand_type: Vec<usize>,
    /// Per piece type: the type in hand it is dropped from (itself, or with `drop_promoted` the
    /// type it is promoted from; it then stands promoted).
    pub drop_from: Vec<usize>,
    /// The type a captured promoted piece takes in hand (`demote_promoted`), if any.
    pub promoted_to: Option<usize>,
    /// Per piece type, per player: the cells it may be dropped on.
    pub drop_zones: Vec<Vec<Bits>>,
    /// Per piece type: whether it may not be dropped on a file holding one of its owner's pieces of
    /// the type (`drop_file_limit 1`).
    pub one_per_file: Vec<bool>,
    /// Per cell: the cells of its file.
    pub files: Vec<Bits>,
    /// `no_drop_check`: a drop may not leave an enemy royal piece attacked.
    pub no_drop_check: bool,
    /// Per piece type: `no_drop_mate` (a drop of it may not checkmate: the drop that gives check
    /// is played on a copy, and the opponent must have a legal reply).
    pub no_drop_mate: Vec<bool>,
    /// The `pick_up` lines: a player's move may take one of his pieces into his hand.
    pub pick_ups: Vec<FastPickUp>,
    /// `gating ZONE`: per player, the zone's cells, where a piece leaving its start cell may bring
    /// a hand piece onto the cell it vacates.
    pub gating: Option<Vec<Bits>>,
    /// `drops_virgin`: a dropped piece stands unmoved.
    pub drops_virgin: bool,
    /// Per piece type: `drop_opposite_colours` (its pieces of one player are dropped on cells of
    /// different colours, and other drops leave room for them).
    pub opposite_colours: Vec<bool>,
    /// The cells of each colour (the parity of the sum of the coordinates).
    pub colours: [Bits; 2],
    /// `drops when COND`: the condition on each drop, with `own` the dropping player and `to` the
    /// target cell.
    pub drop_condition: Option<FastCond>,
    /// The tables of the drop condition's `near` tests: per cell, the cells one leap away.
    pub near: Vec<Vec<Bits>>,
}

/// A `pick_up` line: instead of a move, a player takes a piece of his of these types off the board
/// into his hand (as the type a captured piece would take there); the move restarts nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct FastPickUp {
    /// The types it picks up (never a royal one).
    pub pieces: Vec<usize>,
    /// Per player, the cells it picks up from (`from ZONE`), if limited.
    pub from: Option<Vec<Bits>>,
    /// Its condition, with `own` the player and the piece on `from`.
    pub condition: Option<MoveCond>,
}

/// A promotion that is a move of its own (`promote_move`): never a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct FastPromotionMove {
    /// The types it may become, each a separate move.
    pub choices: Vec<usize>,
    /// Whether it may promote on its own cell.
    pub in_place: bool,
    /// Per player, per cell: the cells one of its steps reaches (onto empty cells only).
    pub steps: Vec<Vec<Bits>>,
    /// The move may give no check, and the new piece may attack no enemy piece (`peaceful`).
    pub peaceful: bool,
    /// When it is allowed, with `own` the owner and the promoting piece on `from`.
    pub condition: Option<FastCond>,
}

/// A castling rule.
#[derive(Clone, Debug, PartialEq)]
pub struct FastCastle {
    /// The king's type.
    pub king: usize,
    /// Per direction: the direction index (in [`FastIr::directions`]) and the partner types.
    pub sides: Vec<(usize, Vec<usize>)>,
    /// The partner's distance range, or `None` for the board's edge.
    pub partner_at: Option<(usize, usize)>,
    /// How far the king moves.
    pub king_steps: usize,
    /// How far from the king's start the partner lands.
    pub partner_steps: usize,
    /// Whether the king may not castle out of or through an attack.
    pub check_attacks: bool,
    /// The cells the king may castle from, per player (`None`: any).
    pub from: Option<Vec<Bits>>,
    /// Whether the king must be an original piece (`requires original`): unmoved and not
    /// created during the game (not promoted).
    pub king_original: bool,
    /// Whether the partner must be an original piece.
    pub partner_original: bool,
    /// Whether the king must be unmoved (`requires` names it, or there is no `requires`).
    pub king_virgin: bool,
    /// Whether the partner must be unmoved.
    pub partner_virgin: bool,
    /// Per player, per entry of `sides`: his partner types there (a partner's condition on the
    /// castling player decided for him).
    pub player_partners: Vec<Vec<Vec<usize>>>,
    /// Per player, per entry of `sides`: the partner types there only while a condition on piece
    /// counts holds (with `own` the castling player), each with its condition.
    pub player_conditional: Vec<Vec<Vec<(usize, FastCond)>>>,
    /// With fixed landing cells (`king_lands`, `partner_lands`, Chess960): per entry of `sides`,
    /// where the king and the partner land.
    pub fixed: Option<Vec<FixedLanding>>,
}

/// Where castling along one direction puts the king and the partner when their landing cells are
/// fixed: the cells from the partner to its landing cell are read along the direction or back.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedLanding {
    /// The direction opposite to the side's (index in [`FastIr::directions`]).
    pub back: usize,
    /// Per player, per cell of the king: the king's landing cell, the partner's, and the cells the
    /// king crosses (strictly between its start and its landing cell, and the landing cell); `None`
    /// when there is no landing cell for one of them, or both would land on the same cell.
    pub lands: Vec<Vec<Option<(usize, usize, Bits)>>>,
}

/// Lowers a game to the compact form, or says which feature does not fit.
///
/// # Errors
///
/// Returns the reason the game falls back to the interpreter-based engine.
pub fn fast_profile(game: &Game) -> Result<FastIr, String> {
    let explodes = check_game(game)?;
    // Cells are indexed across the boards; a step never leaves its board.
    let index = cell_index(game);
    let step = |cell: usize, v: Vec3| -> Option<usize> {
        let Cell { board, coord, .. } = &game.cells[cell];
        let c = coord;
        index
            .get(&(*board, [c[0] + v[0], c[1] + v[1], c[2] + v[2]]))
            .copied()
    };
    let mut lowering = Lowering {
        game,
        step: &step,
        directions: Vec::new(),
        switches: Vec::new(),
        conditions: Vec::new(),
        king_directions: Vec::new(),
        drops_enclose: false,
    };
    let mut pieces = Vec::new();
    for piece in &game.pieces {
        let mut players = Vec::new();
        // The two players (a walls' side owns no moving piece).
        for (player, info) in game.players.iter().enumerate().take(sides_of(game)) {
            let frame = Frame {
                forward: info.forward.clone(),
            };
            players.push(
                lowering
                    .lower_moves(piece, player, &frame)
                    .map_err(|e| format!("piece {}: {e}", piece.name))?,
            );
        }
        let limited = piece.captures_only.is_some() || piece.never_captures;
        if limited
            && players
                .iter()
                .any(|m: &FastMoves| m.en_passant_from.is_some())
        {
            return Err(format!(
                "piece {}: en passant with `captures_only` or `never_captures`",
                piece.name
            ));
        }
        // `never_captures` limits the captures to no type; the moves still attack.
        let captures_only = if piece.never_captures {
            Some(Vec::new())
        } else {
            piece.captures_only.as_ref().map(|(types, royal)| {
                (0..game.pieces.len())
                    .filter(|t| types.contains(t) || (*royal && game.pieces[*t].royal.is_royal()))
                    .collect()
            })
        };
        let promotion_moves = piece
            .promotion_moves
            .iter()
            .map(|rule| lowering.lower_promotion_move(piece, rule))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("piece {}: {e}", piece.name))?;
        let stacks = lowering
            .lower_stacks(piece)
            .map_err(|e| format!("piece {}: {e}", piece.name))?;
        let merges = lowering
            .lower_merges(piece)
            .map_err(|e| format!("piece {}: {e}", piece.name))?;
        // A promotion of the type takes the new piece from the reserve of its first rule that names
        // one (the interpreter's `make_move`): per side, the hand row.
        let promotion_rows = (0..sides_of(game))
            .map(|side| {
                piece.promotions.iter().find_map(|p| p.reserve).map(|r| {
                    if game.reserves[r].per_player {
                        side
                    } else {
                        movers_of(game)
                    }
                })
            })
            .collect();
        pieces.push(FastPiece {
            promotion_rows,
            stacks,
            merges,
            promotion_moves,
            name: piece.name.clone(),
            pawn: piece.pawn,
            captures_only,
            cannot_hop: !piece.cannot_hop.is_empty(),
            captures_checker: piece.check_evasion == Some(CheckEvasion::CaptureChecker),
            players,
        });
    }
    let castles = game
        .castling
        .iter()
        .map(|d| lowering.lower_castle(d))
        .collect::<Result<Vec<_>, _>>()?;
    // The evasion limit applies to targets: not to double steps or castling, which are listed apart.
    for (index, piece) in pieces.iter().enumerate() {
        let double_steps = piece
            .players
            .iter()
            .any(|m| m.steps.iter().flatten().any(|s| s.en_passant.is_some()));
        if piece.captures_checker && (double_steps || castles.iter().any(|c| c.king == index)) {
            return Err(format!(
                "piece {} has `check_evasion` with double steps or castling",
                piece.name
            ));
        }
    }
    // Pulls are listed apart from the targets and tested by playing them: not under the rules
    // that filter or extend the targets or change what a capture does (`must_capture`,
    // `check_evasion`, gating, facing, explosions).
    if let Some(piece) = pieces
        .iter()
        .find(|p| p.players.iter().any(|m| !m.pulls.is_empty()))
    {
        let gating = game.reserves.iter().any(|r| r.gating.is_some());
        let facing = game.pieces.iter().any(|p| p.facing.is_some());
        if game.turn.must_capture
            || gating
            || facing
            || piece.captures_checker
            || explodes.is_some()
        {
            return Err(format!(
                "piece {}: a pull with `must_capture`, `check_evasion`, gating, facing or \
                 explosions",
                piece.name
            ));
        }
    }
    let royals: Vec<usize> = (0..game.pieces.len())
        .filter(|&p| game.pieces[p].royal.is_royal())
        .collect();
    if royals.len() > 1 {
        // Facing, blasts, checks given and promotions to a royal type follow one royal type.
        let crowns = game.pieces.iter().any(|p| {
            p.promotions
                .iter()
                .any(|rule| rule.choices.iter().any(|c| royals.contains(c)))
                || p.promotion_moves
                    .iter()
                    .any(|rule| rule.choices.iter().any(|c| royals.contains(c)))
        });
        let feature = [
            (game.pieces.iter().any(|p| p.facing.is_some()), "`facing`"),
            (explodes.is_some(), "captures that explode"),
            (
                game.end
                    .iter()
                    .any(|r| matches!(r.kind, EndKind::Checks(_))),
                "a `checks` rule",
            ),
            (crowns, "promotions to a royal type"),
            (game.reserves.iter().any(|r| r.drops), "drops"),
        ]
        .into_iter()
        .find_map(|(present, name)| present.then_some(name));
        if let Some(feature) = feature {
            return Err(format!("more than one royal piece type with {feature}"));
        }
    }
    check_stacking(game, &pieces, &royals)?;
    let facing_break = game
        .pieces
        .iter()
        .any(|p| p.facing == Some(Facing::MustBreak));
    let mut unhoppable: Vec<usize> = Vec::new();
    for piece in game.pieces.iter().filter(|p| !p.cannot_hop.is_empty()) {
        let mut types = piece.cannot_hop.clone();
        types.sort_unstable();
        types.dedup();
        if !unhoppable.is_empty() && unhoppable != types {
            return Err("`cannot_hop` with different types for different pieces".into());
        }
        unhoppable = types;
    }
    let promotes = game.pieces.iter().any(|p| !p.promotions.is_empty());
    let drops = game.reserves.iter().any(|r| r.drops);
    if facing_break && (promotes || drops) {
        // Their legality tests change the board in ways the facing test does not follow.
        return Err("`facing must_break` with promotions or drops".into());
    }
    if !unhoppable.is_empty() && (promotes || drops || !game.castling.is_empty()) {
        // Their legality tests do not follow the type of a piece that becomes a screen.
        return Err("`cannot_hop` with promotions, drops or castling".into());
    }
    let mut early_ends = Vec::new();
    for rule in game.end.iter().filter(|r| r.automatic) {
        match &rule.kind {
            EndKind::BareKing { .. } => early_ends.push(EarlyEnd::BareRoyal(royals.clone())),
            // Royal pieces are not protected (no move is illegal for leaving one attacked): a
            // player without any has lost them.
            EndKind::RoyalCapture => early_ends.push(EarlyEnd::Extinct(Some(royals.clone()))),
            EndKind::Flag { zone, pieces, .. } => {
                let cells = (0..sides_of(game))
                    .map(|p| cell_set(&game.zones[*zone].cells[p]))
                    .collect();
                early_ends.push(EarlyEnd::Reached(pieces.clone(), cells));
            }
            EndKind::Extinction(set) => early_ends.push(EarlyEnd::Extinct(match set {
                PieceSet::All => None,
                PieceSet::Types(types) => Some(types.clone()),
                PieceSet::Royal => Some(royals.clone()),
            })),
            EndKind::MoveRule(n) => early_ends.push(EarlyEnd::MoveRule(2 * n)),
            EndKind::AllPass => early_ends.push(EarlyEnd::AllPass),
            // Only pieces with `facing must_break` end a game by facing.
            EndKind::Facing(n) if facing_break => early_ends.push(EarlyEnd::Facing(*n)),
            EndKind::Checks(n) => early_ends.push(EarlyEnd::Checks(*n)),
            EndKind::InsufficientMaterial(Some(condition)) => {
                early_ends.push(EarlyEnd::Insufficient(lower_end_cond(game, condition)?));
            }
            EndKind::Result => {
                if let Some(condition) = &rule.condition {
                    early_ends.push(EarlyEnd::Result(lower_end_cond(game, condition)?));
                }
            }
            EndKind::Captures(n, set) => {
                let types = (0..game.pieces.len())
                    .filter(|&t| set.contains(t, |p| game.pieces[p].royal.is_royal()))
                    .collect();
                early_ends.push(EarlyEnd::Captures(*n, types));
            }
            EndKind::Formation { pieces, .. } => {
                let mut need: Vec<(usize, u32)> = Vec::new();
                for &t in pieces {
                    match need.iter_mut().find(|(p, _)| *p == t) {
                        Some((_, n)) => *n += 1,
                        None => need.push((t, 1)),
                    }
                }
                early_ends.push(EarlyEnd::Formation(need));
            }
            EndKind::Checkmates(_) | EndKind::TotalCheckmates(_) | EndKind::LastSurvivor
                if !early_ends.contains(&EarlyEnd::Checkmated) =>
            {
                early_ends.push(EarlyEnd::Checkmated);
            }
            EndKind::Counting(_) => early_ends.push(EarlyEnd::CountOver),
            EndKind::InsufficientMaterial(None) => {
                // The built-in test: a player with only knights (`N`) and bishops (`B`) besides
                // royal pieces may lack mating material; anything else mates.
                let strong = (0..game.pieces.len())
                    .filter(|&t| {
                        let piece = &game.pieces[t];
                        let betza: Vec<&str> =
                            piece.moves.iter().map(|m| m.betza.as_str()).collect();
                        !piece.royal.is_royal() && !matches!(betza.as_slice(), ["N"] | ["B"])
                    })
                    .collect();
                early_ends.push(EarlyEnd::NoneOf(strong));
            }
            _ => {}
        }
    }
    let virgin_matters = (0..game.pieces.len())
        .filter(|&t| {
            let piece = &game.pieces[t];
            piece
                .moves
                .iter()
                .any(|m| m.parts.iter().any(|p| p.initial))
                || piece.virgin_in.is_some()
                || game
                    .castling
                    .iter()
                    .any(|c| c.king == Some(t) || c.partners.iter().any(|p| p.pieces.contains(&t)))
        })
        .collect();
    let facing = game
        .pieces
        .iter()
        .any(|p| p.facing == Some(Facing::Illegal));
    if facing || facing_break {
        for v in [[0, 1, 0], [0, -1, 0]] {
            lowering.direction(v, None)?;
        }
    }
    let hands = lowering.lower_hands()?;
    let rules = own_rules(game);
    let triggers = if triggers::are_triggers(&rules) {
        Some(triggers::lower_triggers(game, &rules)?)
    } else {
        None
    };
    let conversions = if explodes.is_some() || triggers.is_some() {
        Vec::new()
    } else {
        lower_conversions(&rules)?
    };
    if !conversions.is_empty() {
        // The legality tests, castling, gating and the en-passant right do not follow the pieces
        // a rule converts after the move.
        let en_passant = pieces.iter().any(|p| {
            p.players.iter().any(|m| {
                m.en_passant_from.is_some()
                    || m.steps.iter().flatten().any(|s| s.en_passant.is_some())
            })
        });
        if !royals.is_empty()
            || !castles.is_empty()
            || en_passant
            || hands.as_ref().is_some_and(|h| h.gating.is_some())
        {
            return Err(
                "a triggered rule with royal pieces, castling, gating or en passant".into(),
            );
        }
        // Adjacent cells are the first along each king direction.
        lowering.king_directions()?;
    }
    // Under gating, any piece on a start cell of the zone carries the gating right.
    let virgin_matters = if hands.as_ref().is_some_and(|h| h.gating.is_some()) {
        (0..game.pieces.len()).collect()
    } else {
        virgin_matters
    };
    let royal_all = game.turn.royal_safety == RoyalSafety::All;
    if royal_all && hands.as_ref().is_some_and(|h| h.drops) {
        return Err("drops under `royal_safety all`".into());
    }
    // `in_check` of moves tests every royal piece under `royal_safety all`.
    let conditional = pieces.iter().any(|p| {
        p.players
            .iter()
            .any(|m| m.steps.iter().flatten().any(|s| s.in_check.is_some()))
    });
    if royal_all && conditional {
        return Err("moves under an `in_check` condition with `royal_safety all`".into());
    }
    let royal_capture = royal_capture_game(game, &pieces, hands.as_ref(), &early_ends)?;
    let counting = lower_counting(game, &pieces)?;
    let royal_when = lower_royal_when(game, &pieces, &royals, hands.as_ref())?;
    let walls = lower_walls(game, &mut lowering, &royals, hands.is_some())?;
    let immune = lower_immune(game, &pieces, explodes.is_some(), walls.as_ref())?;
    let turns = lower_turns(
        game,
        &pieces,
        &castles,
        walls.is_some(),
        explodes.is_some(),
        hands.is_some() && !royals.is_empty(),
    )?;
    let directions = lowering.directions;
    let encloses = lowering.drops_enclose
        || conversions
            .iter()
            .any(|c| c.target == ConversionTarget::Enclosed);
    let king_directions = lowering.king_directions;
    let count_limits: Vec<Option<u32>> = game.pieces.iter().map(|p| p.count_limit).collect();
    if count_limits.iter().any(Option::is_some) && game.pieces.len() > 64 {
        return Err("`count_limit` with more than 64 piece types".into());
    }
    let demotes_to = game
        .pieces
        .iter()
        .map(|p| {
            p.promoted_from
                .filter(|from| p.promotions.iter().any(|r| r.choices.contains(from)))
        })
        .collect();
    let counts_checks = game
        .end
        .iter()
        .any(|r| matches!(r.kind, EndKind::Checks(_)));
    let explosion = match explodes {
        Some(immune) => {
            // The legality tests of these features do not follow a blast.
            let crowns = royals.iter().any(|r| {
                pieces.iter().any(|p| {
                    p.players.iter().any(|m| {
                        m.promotion.as_ref().is_some_and(|p| p.choices.contains(r))
                            || m.promotion_rules
                                .iter()
                                .any(|rule| rule.choices.contains(r))
                    })
                })
            });
            let pairs = pieces.iter().any(|p| {
                p.players
                    .iter()
                    .any(|m| m.promotion_rules.iter().any(|rule| rule.pair))
            });
            let feature = [
                (hands.is_some(), "hands"),
                (game.turn.must_capture, "`must_capture`"),
                (game.turn.forbid_checks, "`forbid_checks`"),
                (royal_all, "`royal_safety all`"),
                (game.turn.pass != Pass::Never, "passes"),
                (facing || facing_break, "`facing`"),
                (counts_checks, "a `checks` rule"),
                (conditional, "moves under an `in_check` condition"),
                (
                    pieces.iter().any(|p| p.captures_checker),
                    "`check_evasion capture_checker`",
                ),
                (
                    pieces.iter().any(|p| !p.promotion_moves.is_empty()),
                    "`promote_move`",
                ),
                (pairs, "pair promotions"),
                (crowns, "promotions to a royal piece"),
                (!unhoppable.is_empty(), "`cannot_hop`"),
            ]
            .into_iter()
            .find_map(|(present, name)| present.then_some(name));
            if let Some(feature) = feature {
                return Err(format!("captures that explode, with {feature}"));
            }
            let neighbours = (0..game.cells.len())
                .map(|cell| {
                    king_steps(game.dimensions)
                        .into_iter()
                        .filter_map(|v| step(cell, v))
                        .fold(Bits::ZERO, |around, next| around | Bits::bit(next))
                })
                .collect();
            Some(Explosion { immune, neighbours })
        }
        None => None,
    };
    let stacking = uses_stacks(&pieces);
    let custodian = lower_custodian(game, &step, &royals, explosion.is_some(), stacking)?;
    // When every rule is one `lower_triggers` plays (its `on transform; reset move_rule` too), the
    // rules on captures that transform the mover are none of them.
    let (capture_rules, rule_switches, transform_resets) = if triggers.is_some() {
        (Vec::new(), Vec::new(), false)
    } else {
        lower_effect_rules(game)?
    };
    let (borrowed, mut mover_near) = lower_borrowed(game, &step, &royals)?;
    let transfers = lower_transfers(game, &step, &royals, &mut mover_near)?;
    let waiting = triggers.as_ref().is_some_and(|t| t.sends)
        || pieces.iter().any(|p| {
            p.players
                .iter()
                .any(|m| m.conditional.iter().any(|c| c.condition.reads_waited()))
        })
        || borrowed
            .iter()
            .any(|b| triggers::reads_waited(&b.condition))
        || transfers
            .iter()
            .any(|t| triggers::reads_waited(&t.condition));
    // Mergers and unloads are played apart from the moves whose victims and arrivals the rules
    // follow.
    if (waiting || triggers.is_some())
        && pieces
            .iter()
            .any(|p| !p.merges.is_empty() || p.players.iter().any(|m| !m.pulls.is_empty()))
    {
        return Err("triggered rules or waiting pieces with merger moves or pulls".into());
    }
    // The waiting status moves with a piece on the moves make plays as a piece leaving its cell
    // for another; these change pieces in other ways.
    if waiting {
        let feature = [
            (!castles.is_empty(), "castling"),
            (explosion.is_some(), "captures that explode"),
            (custodian.is_some(), "custodian capture"),
            (stacking, "stacks"),
            (walls.is_some(), "walls"),
            (!conversions.is_empty(), "rules converting pieces"),
        ]
        .into_iter()
        .find_map(|(present, name)| present.then_some(name));
        if let Some(feature) = feature {
            return Err(format!("waiting pieces with {feature}"));
        }
    }
    let mut ir = FastIr {
        triggers,
        waiting,
        players: movers_of(game),
        owners: sides_of(game),
        borrowed,
        mover_near,
        transfers,
        boards: game.cells.iter().map(|c| c.board).collect(),
        elimination: eliminates(game).then(|| FastElimination {
            attacked_at_turn_start: game.turn.checkmate_test == CheckmateTest::AttackedAtTurnStart,
        }),
        partners: game.players[..movers_of(game)]
            .iter()
            .map(|p| p.partner)
            .collect(),
        en_passant_lasts: (movers_of(game) > 2 || game.turn.moves > 1)
            && game.turn.en_passant_expires == EnPassantExpiry::OwnerTurn,
        custodian,
        capture_rules,
        rule_switches,
        transform_resets,
        explosion,
        count_limits,
        demotes_to,
        hands,
        facing,
        facing_break,
        unhoppable,
        immune,
        virgin_matters,
        switches: lowering.switches,
        conditions: lowering.conditions,
        must_capture: game.turn.must_capture,
        pass: game.turn.pass,
        conversions,
        king_directions,
        encloses,
        must_drop: game
            .turn
            .must_drop
            .as_ref()
            .map(|c| {
                lower_count_cond(game, c)
                    .map_err(|_| "a `must_drop` condition on more than piece counts".to_string())
            })
            .transpose()?,
        forbid_checks: game.turn.forbid_checks,
        royal_all,
        royal_when,
        // The interpreter counts checks when the game has a `checks` rule, claimed or not.
        counts_checks,
        counting,
        cells: game.cells.len(),
        pieces,
        directions,
        castles,
        // Under `royal_capture` no move is illegal for the royal pieces' sake, and nothing else
        // asks which pieces are royal (`royal_capture_game`).
        royal: if royal_capture {
            None
        } else {
            royals.first().copied()
        },
        royal_types: if royal_capture {
            Vec::new()
        } else {
            royals.clone()
        },
        early_ends,
        walls,
        stacking,
        turns,
        captures_any: game.captures == vdl_runtime::model::CaptureScope::Any,
        en_passant_when_capturable: game.turn.en_passant_right == EnPassantRight::WhenCapturable,
        steps: StepTable::default(),
    };
    check_players(game, &ir)?;
    if ir.cells > 128 {
        ir.steps = step_table(game, &ir, &step);
    }
    let words = if ir.cells <= 64 {
        1
    } else {
        ir.cells.div_ceil(64)
    };
    let table_words = written_table_words(&ir, words);
    if table_words > MAX_TABLE_WORDS {
        return Err(format!(
            "tables of {table_words} words, more than {MAX_TABLE_WORDS} (the per-cell leap and \
             ray tables written out: cells x bitboard words each)"
        ));
    }
    check_merges(&ir)?;
    Ok(ir)
}

/// The steps of a large board: the slide directions and every displacement a leap table holds,
/// with the cell each reaches from each cell.
fn step_table(game: &Game, ir: &FastIr, step: &dyn Fn(usize, Vec3) -> Option<usize>) -> StepTable {
    let mut vectors: Vec<Vec3> = Vec::new();
    let add = |v: Vec3, vectors: &mut Vec<Vec3>| {
        if v != [0, 0, 0] && !vectors.contains(&v) {
            vectors.push(v);
        }
    };
    for direction in &ir.directions {
        add(direction.vector, &mut vectors);
    }
    let mut seen = std::collections::BTreeSet::new();
    for piece in &ir.pieces {
        for moves in &piece.players {
            let tables = [
                &moves.quiet_leaps,
                &moves.capture_leaps,
                &moves.attacked_from,
                &moves.initial_attacked_from,
            ];
            let extra = moves.en_passant_from.iter();
            for table in tables.into_iter().chain(extra) {
                for (from, targets) in table.iter().enumerate() {
                    let a = &game.cells[from];
                    for to in targets.cells() {
                        let t = &game.cells[to];
                        if t.board == a.board {
                            seen.insert([
                                t.coord[0] - a.coord[0],
                                t.coord[1] - a.coord[1],
                                t.coord[2] - a.coord[2],
                            ]);
                        }
                    }
                }
            }
        }
    }
    for v in seen {
        add(v, &mut vectors);
    }
    // Pieces leaping to a great many distances make a table the emitter would take long to match
    // against them (and each table of such leaps is then likely no union of steps): their tables
    // are written out.
    let boxes = step_boxes(game);
    if vectors.len() > MAX_STEP_VECTORS
        || (boxes.is_none() && vectors.len() * ir.cells > MAX_WRITTEN_STEPS)
    {
        return StepTable::default();
    }
    let to = (0..ir.cells)
        .map(|cell| vectors.iter().map(|&v| step(cell, v)).collect())
        .collect();
    StepTable { boxes, vectors, to }
}

impl StepTable {
    /// The leaps and rides (indices of [`StepTable::vectors`]) whose union is `values` at every
    /// cell, if there are such (`steps.rs`).
    pub fn cover(&self, values: &[Bits]) -> Option<(Vec<usize>, Vec<usize>)> {
        steps::cover(self, values)
    }
}

/// The words of the per-cell leap and ray tables the compact form writes out: those that are no
/// union of the board's steps ([`StepTable::cover`]).
fn written_table_words(ir: &FastIr, words: usize) -> usize {
    let size = |table: &[Bits]| {
        if ir.steps.cover(table).is_some() || table.iter().all(|&b| b == 0) {
            0
        } else {
            table.len() * words
        }
    };
    let rays: usize = ir
        .directions
        .iter()
        .map(|d| {
            let masks: Vec<Bits> = d
                .lines
                .iter()
                .map(|line| line.iter().fold(Bits::ZERO, |m, &c| m | Bits::bit(c)))
                .collect();
            size(&masks)
        })
        .sum();
    // The leap tables of a piece, one row per player, as the emitter writes them: a table equal
    // to one written before is not written again.
    let mut written: Vec<Vec<&[Bits]>> = Vec::new();
    let mut leaps = 0;
    for piece in &ir.pieces {
        let kinds: [fn(&FastMoves) -> &[Bits]; 4] = [
            |m| &m.quiet_leaps,
            |m| &m.capture_leaps,
            |m| &m.attacked_from,
            |m| &m.initial_attacked_from,
        ];
        for kind in kinds {
            let rows: Vec<&[Bits]> = piece.players.iter().map(kind).collect();
            if !written.contains(&rows) {
                leaps += rows.iter().map(|r| size(r)).sum::<usize>();
                written.push(rows);
            }
        }
        leaps += piece
            .players
            .iter()
            .map(|m| m.en_passant_from.as_deref().map_or(0, size))
            .sum::<usize>();
    }
    rays + leaps
}

/// Per board, its first cell and size, when every board is a whole box whose cells are numbered
/// file first, then rank, then level.
fn step_boxes(game: &Game) -> Option<Vec<(usize, [u32; 3])>> {
    let mut boxes = Vec::new();
    for (index, board) in game.boards.iter().enumerate() {
        let [files, ranks, levels] = board.size.map(|n| n as usize);
        if board.cell_count != files * ranks * levels {
            return None;
        }
        let first = board.first_cell;
        for i in 0..board.cell_count {
            let cell = game.cells.get(first + i)?;
            let coord = [i % files, i / files % ranks, i / (files * ranks)].map(|n| n as i32);
            if cell.board != index || cell.coord != coord {
                return None;
            }
        }
        boxes.push((first, board.size));
    }
    Some(boxes)
}

/// Who may move the pieces of another side (`movable_by` on a side or, replacing it, on a piece
/// type), per piece type, owner and mover, with the tables of their `near` tests; or why the
/// compact form cannot. Their moves are generated as their owner's pieces' are, without royal
/// pieces (whose safety would depend on them).
fn lower_borrowed(
    game: &Game,
    step: &dyn Fn(usize, Vec3) -> Option<usize>,
    royals: &[usize],
) -> Result<(Vec<FastBorrow>, Vec<Vec<Bits>>), String> {
    let (players, owners) = (movers_of(game), sides_of(game));
    let mut borrowed = Vec::new();
    let mut near = Vec::new();
    for (piece, info) in game.pieces.iter().enumerate() {
        for owner in 0..owners {
            let rules = if info.movable_by.is_empty() {
                &game.players[owner].movable_by
            } else {
                &info.movable_by
            };
            for mover in (0..players).filter(|&m| m != owner) {
                let mut conditions = Vec::new();
                for rule in rules {
                    let admits = rule.who.iter().any(|w| match w {
                        MoverSide::All => true,
                        MoverSide::Enemy => owner < players,
                        MoverSide::Player(p) => *p == mover,
                        MoverSide::None => false,
                    });
                    if !admits {
                        continue;
                    }
                    conditions.push(match &rule.condition {
                        None => FastCond::Const(true),
                        Some(c) => {
                            let mut site = Site::Borrow {
                                step,
                                near: &mut near,
                            };
                            lower_cond(game, c, &mut site).map_err(|_| {
                                "a `movable_by` condition other than piece counts, `near(mover, \
                                 ...)` and `mover in ZONE`"
                                    .to_string()
                            })?
                        }
                    });
                }
                if conditions.is_empty() {
                    continue;
                }
                let frame = if info.perspective == Perspective::Player {
                    mover
                } else {
                    owner
                };
                borrowed.push(FastBorrow {
                    piece,
                    owner,
                    mover,
                    frame,
                    condition: if conditions.len() == 1 {
                        conditions.remove(0)
                    } else {
                        FastCond::Any(conditions)
                    },
                });
            }
        }
    }
    if !borrowed.is_empty() {
        let turn = &game.turn;
        let feature = if !royals.is_empty() {
            Some("royal pieces")
        } else if players > 2 {
            Some("more than two players")
        } else if game.pieces.iter().any(|p| !p.promotion_moves.is_empty()) {
            Some("`promote_move`")
        } else if game.pieces.iter().any(|p| !p.stacks.is_empty()) {
            Some("stacks")
        } else if game.custodian.is_some() || turn.wall.is_some() {
            Some("custodian capture or walls")
        } else if turn.moves > 1 || !turn.freeze.is_empty() {
            Some("turns of several moves or freezing")
        } else {
            None
        };
        if let Some(feature) = feature {
            return Err(format!("`movable_by` with {feature}"));
        }
    }
    Ok((borrowed, near))
}

/// The `transfer` blocks, with the tables of their `near` tests added to `near`; or why the compact
/// form cannot play them.
fn lower_transfers(
    game: &Game,
    step: &dyn Fn(usize, Vec3) -> Option<usize>,
    royals: &[usize],
    near: &mut Vec<Vec<Bits>>,
) -> Result<Vec<FastTransfer>, String> {
    if game.transfers.is_empty() {
        return Ok(Vec::new());
    }
    let feature = if !royals.is_empty() {
        Some("royal pieces")
    } else if !game.reserves.is_empty() {
        Some("reserves")
    } else if game.turn.wall.is_some() || game.pieces.iter().any(|p| !p.stacks.is_empty()) {
        Some("walls or stacks")
    } else if game.turn.moves > 1 || game.turn.must_capture {
        Some("turns of several moves or `must_capture`")
    } else {
        None
    };
    if let Some(feature) = feature {
        return Err(format!("transfers with {feature}"));
    }
    let players = movers_of(game);
    let cells_of = |places: &[CellsOrZone], player: usize| {
        let mut cells = Bits::ZERO;
        for place in places {
            match place {
                CellsOrZone::Cell(c) => cells |= Bits::bit(*c),
                CellsOrZone::Zone(z) => cells |= cell_set(&game.zones[*z].cells[player]),
            }
        }
        cells
    };
    let mut out = Vec::new();
    for t in &game.transfers {
        let mut conditions = Vec::new();
        for c in &t.conditions {
            let mut site = Site::Borrow {
                step,
                near: &mut *near,
            };
            conditions.push(lower_cond(game, c, &mut site).map_err(|_| {
                format!(
                    "the transfer `{}` under a condition other than piece counts, `near(mover, \
                     ...)` and `mover in ZONE`",
                    t.name
                )
            })?);
        }
        out.push(FastTransfer {
            pieces: t.pieces.clone(),
            from: (0..players).map(|p| cells_of(&t.from, p)).collect(),
            to: (0..players).map(|p| cells_of(&t.to, p)).collect(),
            empty_only: t.empty_only,
            becomes: t.become_piece,
            condition: match conditions.len() {
                0 => FastCond::Const(true),
                1 => conditions.remove(0),
                _ => FastCond::All(conditions),
            },
        });
    }
    Ok(out)
}

/// The features the compact form does not implement together with merger moves: they are
/// generated and tested as moves onto a friendly piece, with no later leg, rule or blast.
fn check_merges(ir: &FastIr) -> Result<(), String> {
    if ir.pieces.iter().all(|p| p.merges.is_empty()) {
        return Ok(());
    }
    let feature = [
        (ir.stacking, "stacks"),
        (ir.captures_any, "`captures any`"),
        (!ir.unhoppable.is_empty(), "`cannot_hop`"),
        (ir.facing, "`facing`"),
        (ir.explosion.is_some(), "captures that explode"),
        (ir.custodian.is_some(), "custodian capture"),
        (!ir.conversions.is_empty(), "triggered rules"),
        (ir.walls.is_some(), "walls"),
        (ir.must_capture, "`must_capture`"),
        (
            ir.turns.moves > 1 || ir.turns.freezes(),
            "turns of several moves or freezing",
        ),
        (
            ir.hands.as_ref().is_some_and(|h| h.gating.is_some()),
            "gating",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!("merger moves with {feature}")),
        None => Ok(()),
    }
}

/// With more than two players the compact form has the moves, legality, promotions, castling,
/// en passant, hands and drops, and end rules the interpreter decides once a player has no legal
/// move; the first other feature is named.
fn check_players(game: &Game, ir: &FastIr) -> Result<(), String> {
    if ir.players == 2 {
        return Ok(());
    }
    if 1 + ir.players * ir.pieces.len() > usize::from(u8::MAX) {
        return Err(format!(
            "{} players with {} piece types",
            ir.players,
            ir.pieces.len()
        ));
    }
    let hands = ir.hands.as_ref();
    let any_moves =
        |test: &dyn Fn(&FastMoves) -> bool| ir.pieces.iter().any(|p| p.players.iter().any(test));
    let feature = [
        (ir.explosion.is_some(), "captures that explode"),
        (ir.walls.is_some(), "walls"),
        (ir.stacking, "stacks"),
        (ir.custodian.is_some(), "custodian capture"),
        (!ir.conversions.is_empty(), "triggered rules"),
        (
            own_rules(game).iter().any(|r| !is_effect_rule(r)),
            "triggered rules",
        ),
        (
            ir.turns.moves > 1 || ir.turns.freezes(),
            "turns of several moves or freezing",
        ),
        (ir.turns.counts_captures, "capture counters"),
        (ir.counts_checks, "a `checks` rule"),
        (ir.facing_break, "`facing must_break`"),
        (ir.must_capture, "`must_capture`"),
        (ir.must_drop.is_some(), "`must_drop`"),
        (ir.royal_all, "`royal_safety all`"),
        (!ir.conditions.is_empty(), "promotions under conditions"),
        (
            ir.pieces.iter().any(|p| !p.promotion_moves.is_empty()),
            "`promote_move`",
        ),
        (any_moves(&|m| !m.pulls.is_empty()), "pulls"),
        (
            any_moves(&|m| m.conditional.iter().any(|c| c.condition.names_opponent())),
            "moves under conditions on the opponent",
        ),
        (
            ir.pieces.iter().any(|p| p.captures_checker),
            "`check_evasion capture_checker`",
        ),
        (
            hands.is_some_and(|h| {
                h.gating.is_some()
                    || h.drop_condition.is_some()
                    || h.opposite_colours.iter().any(|&o| o)
            }),
            "gating or drops under conditions",
        ),
        (
            ir.early_ends.iter().any(|e| {
                !matches!(
                    e,
                    EarlyEnd::MoveRule(_)
                        | EarlyEnd::Extinct(_)
                        | EarlyEnd::Checkmated
                        | EarlyEnd::AllPass
                        | EarlyEnd::Reached(..)
                        | EarlyEnd::Formation(_)
                )
            }),
            "end rules decided on the position other than `move_rule`, `extinction`, `all_pass`, \
             `flag` and `formation`",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!("{} players with {feature}", ir.players)),
        None => Ok(()),
    }
}

/// The turn order, turns of several single moves, freezing and the capture counters, or why the
/// compact form does not implement them with the rest of the game.
fn lower_turns(
    game: &Game,
    pieces: &[FastPiece],
    castles: &[FastCastle],
    walls: bool,
    explodes: bool,
    royal_drops: bool,
) -> Result<FastTurns, String> {
    let turn = &game.turn;
    let moves = turn.moves.max(1);
    let en_passant = pieces.iter().any(|p| {
        p.players.iter().any(|m| {
            m.en_passant_from.is_some() || m.steps.iter().flatten().any(|s| s.en_passant.is_some())
        })
    });
    let facing_break = game
        .pieces
        .iter()
        .any(|p| p.facing == Some(Facing::MustBreak));
    if moves > 1 {
        // En-passant rights for the next single move, walls and the facing to break at a turn's
        // start follow single moves differently from turns in the interpreter; the compact form
        // keeps to one move a turn.
        // A royal piece may be captured within a turn (attacked by one single move, taken by the
        // next): with hands it may then be dropped, and the compact form's drops never test the
        // safety of the piece dropped.
        // Rights that last until their owner's next turn are kept per single move
        // (`FastIr::en_passant_lasts`).
        let lasting = turn.en_passant_expires == EnPassantExpiry::OwnerTurn;
        let feature = [
            (en_passant && !lasting, "en passant"),
            (walls, "walls"),
            (facing_break, "`facing must_break`"),
            (royal_drops, "royal pieces and drops"),
        ]
        .into_iter()
        .find_map(|(present, name)| present.then_some(name));
        if let Some(feature) = feature {
            return Err(format!("turn {{ moves {moves} }} with {feature}"));
        }
    }
    // With one move a turn a frozen piece thaws at once, but a position read from text may hold
    // frozen pieces: they are kept for every number of moves.
    let frozen = |event: FreezeEvent| turn.freeze.contains(&event);
    let (freeze_move, freeze_jump, freeze_capture) = (
        frozen(FreezeEvent::Move),
        frozen(FreezeEvent::Jump),
        frozen(FreezeEvent::Capture),
    );
    // Without stacking moves nothing leaves or climbs onto a stack.
    let stacking = uses_stacks(pieces);
    let (freeze_unpin, freeze_stack) = (
        stacking && frozen(FreezeEvent::Unpin),
        stacking && frozen(FreezeEvent::Stack),
    );
    if !turn.freeze.is_empty() && (!castles.is_empty() || explodes) {
        // Castling moves frozen pieces and a blast removes them; the frozen cells follow neither.
        return Err("`freeze after` with castling or captures that explode".into());
    }
    let mut between = Vec::new();
    if freeze_jump {
        let index = cell_index(game);
        for from in &game.cells {
            let mut lines = Vec::new();
            for (to, cell) in game.cells.iter().enumerate() {
                if cell.board != from.board {
                    continue;
                }
                let d = [0, 1, 2].map(|k| cell.coord[k] - from.coord[k]);
                let steps = d.iter().map(|c| c.abs()).max().unwrap_or(0);
                if steps < 2 || !d.iter().all(|&c| c == 0 || c.abs() == steps) {
                    continue;
                }
                let unit = d.map(i32::signum);
                let mut cells: Bits = Bits::ZERO;
                for k in 1..steps {
                    let at = [0, 1, 2].map(|i| from.coord[i] + unit[i] * k);
                    if let Some(&c) = index.get(&(from.board, at)) {
                        cells |= Bits::bit(c);
                    }
                }
                if cells != 0 {
                    lines.push((to, cells));
                }
            }
            between.push(lines);
        }
    }
    let sides = movers_of(game);
    let order: Vec<usize> = if turn.order.is_empty() {
        (0..sides).collect()
    } else {
        turn.order.clone()
    };
    let order_plain = turn.order.len() == 2 && turn.order.contains(&0) && turn.order.contains(&1);
    let last = if sides > 2 {
        let mut players = order.clone();
        players.sort_unstable();
        if players != (0..sides).collect::<Vec<_>>() {
            return Err("a turn order that is not one turn of each player".into());
        }
        order[sides - 1]
    } else if walls || !order_plain {
        if !turn.order.iter().enumerate().all(|(i, &p)| i == p) {
            return Err("turn { order }".into());
        }
        1
    } else {
        turn.order[1]
    };
    let counts_captures = game
        .end
        .iter()
        .any(|r| matches!(r.kind, EndKind::Captures(..)))
        || game
            .notation
            .position
            .as_deref()
            .is_some_and(|t| t.contains("{captures}"));
    Ok(FastTurns {
        moves,
        last,
        order,
        end_early: moves > 1 && turn.end_early_when_stuck,
        freeze_move,
        freeze_jump,
        freeze_capture,
        freeze_unpin,
        freeze_stack,
        between,
        counts_captures,
    })
}

/// The walling rule, or why the compact form does not implement it with the rest of the game.
fn lower_walls(
    game: &Game,
    lowering: &mut Lowering<'_>,
    royals: &[usize],
    hands: bool,
) -> Result<Option<FastWalls>, String> {
    let (Some(rule), Some(piece), Some(owner)) =
        (&game.turn.wall, game.wall_piece(), game.wall_owner())
    else {
        return Ok(None);
    };
    // A wall may shield a royal piece, and taking the duck away may expose one: the compact form's
    // legality tests follow neither.
    if !royals.is_empty() {
        return Err("walls with a royal piece".into());
    }
    if hands || game.turn.pass != Pass::Never || game.turn.must_capture || !game.rules.is_empty() {
        return Err("walls with hands, passing, `must_capture` or triggered rules".into());
    }
    let zone = (0..sides_of(game))
        .map(|p| match rule.zone {
            None => cell_set(0..game.cells.len()),
            Some(z) => cell_set(&game.zones[z].cells[p]),
        })
        .collect();
    let cells = match &rule.cells {
        WallCells::Empty => FastWallCells::Empty,
        WallCells::Vacated => FastWallCells::Vacated,
        WallCells::Reach(moves) => {
            let shooter = Piece {
                moves: vec![(**moves).clone()],
                confined: None,
                ..game.pieces[piece].clone()
            };
            let mut per_player = Vec::new();
            for (player, info) in game.players.iter().enumerate().take(sides_of(game)) {
                let frame = Frame {
                    forward: info.forward.clone(),
                };
                let lowered = lowering.lower_move_lists(&shooter, player, &frame)?;
                // Walls land on empty cells: capturing parts reach none, and only plain leaps and
                // slides are followed.
                let plain = lowered.quiet_hops.is_empty()
                    && lowered.capture_hops.is_empty()
                    && lowered.en_passant_from.is_none()
                    && lowered.steps.iter().all(Vec::is_empty)
                    && lowered.paths.iter().all(Vec::is_empty)
                    && lowered.conditional.is_empty();
                if !plain {
                    return Err(
                        "a wall `reach` with moves other than plain leaps and slides".into(),
                    );
                }
                per_player.push(lowered);
            }
            FastWallCells::Reach(per_player)
        }
    };
    Ok(Some(FastWalls {
        piece,
        owner,
        cells,
        zone,
        single: rule.single,
    }))
}

/// What a condition may look at besides piece counts and pieces held.
enum Site<'a> {
    /// Nothing more (`must_drop`, and end rules but those of [`Site::End`]).
    Counts,
    /// The conditions of `result` and `insufficient_material`, which the interpreter decides once
    /// they hold (so that a test of them need not be exact but may not miss): `in_check(P)` and
    /// which player `P` is, `own` the player to move.
    End,
    /// The zone the piece it is about (on `from`) stands in (promotions).
    Mover,
    /// A drop's target cell `to` (`drops when`): `near(to, ...)`, whose tables it collects, and
    /// `enclosed(to)`, which it notes.
    Drop {
        /// The cell one leap away from a cell, if any.
        step: &'a dyn Fn(usize, Vec3) -> Option<usize>,
        /// The tables of the `near` tests (per cell, the cells one leap away).
        near: &'a mut Vec<Vec<Bits>>,
        /// Whether the condition counts enclosed pieces.
        enclosed: &'a mut bool,
    },
    /// A piece another player may move (`movable_by ... when`), `own` that player: `near(mover,
    /// ...)`, whose tables it collects, and `mover in ZONE`.
    Borrow {
        /// The cell one leap away from a cell, if any.
        step: &'a dyn Fn(usize, Vec3) -> Option<usize>,
        /// The tables of the `near` tests (per cell, the cells one leap away).
        near: &'a mut Vec<Vec<Bits>>,
    },
}

/// Whether a rule is one the compact form plays as a [`FastCaptureRule`] or as
/// [`FastIr::transform_resets`]: `on capture` with `transform mover` and `reset move_rule` effects
/// without conditions of their own, or `on transform; reset move_rule` without conditions.
fn is_effect_rule(rule: &Rule) -> bool {
    let plain = rule.effects.iter().all(|e| e.condition.is_none());
    match rule.events.as_slice() {
        [Event::Capture] => {
            plain
                && rule.effects.iter().all(|e| {
                    matches!(
                        &e.item,
                        Effect::Transform {
                            target: Target {
                                who: Who::Piece(PieceRef::Mover),
                                ..
                            },
                            owner: None,
                            ..
                        } | Effect::ResetMoveRule
                    )
                })
        }
        [Event::Transform] => {
            plain
                && rule.conditions.is_empty()
                && rule
                    .effects
                    .iter()
                    .all(|e| matches!(e.item, Effect::ResetMoveRule))
        }
        _ => false,
    }
}

/// The rules [`is_effect_rule`] takes, lowered: the rules on captures, their switches on options,
/// and whether a transformation resets the move rule; or why the compact form cannot play them.
#[allow(clippy::type_complexity)]
fn lower_effect_rules(
    game: &Game,
) -> Result<(Vec<FastCaptureRule>, Vec<(usize, usize)>, bool), String> {
    let elimination = eliminates(game);
    let mut rules = Vec::new();
    let mut switches = Vec::new();
    let mut resets = false;
    for (index, rule) in game.rules.iter().enumerate() {
        if elimination && rule.events.iter().all(|e| *e == Event::Checkmate) {
            continue;
        }
        if !is_effect_rule(rule) {
            continue;
        }
        if rule.events.as_slice() == [Event::Transform] {
            resets = true;
            continue;
        }
        let mut lowered = FastCaptureRule {
            switches: Vec::new(),
            conditions: Vec::new(),
            effects: Vec::new(),
        };
        for (c, condition) in rule.conditions.iter().enumerate() {
            if options_only(condition) {
                lowered.switches.push(switches.len());
                switches.push((index, c));
            } else {
                lowered.conditions.push(
                    lower_rule_cond(game, condition)
                        .map_err(|e| format!("the triggered rule `{}`: {e}", rule.name))?,
                );
            }
        }
        for effect in &rule.effects {
            lowered.effects.push(match &effect.item {
                Effect::Transform {
                    target, into, from, ..
                } => {
                    let row = match from {
                        None => None,
                        Some(r) if game.reserves.len() == 1 && !game.reserves[*r].per_player => {
                            Some(movers_of(game))
                        }
                        Some(_) => {
                            return Err(format!(
                                "the triggered rule `{}`: a transformation from a reserve per \
                                 player",
                                rule.name
                            ))
                        }
                    };
                    let into = (0..game.pieces.len())
                        .map(|t| {
                            let new = match into {
                                vdl_runtime::model::Into::Piece(p) => Some(*p),
                                vdl_runtime::model::Into::Map(m) => game.typemaps[*m].get(t),
                            };
                            new.filter(|&n| n != t && !target.except.contains(&t))
                        })
                        .collect();
                    RuleEffect::Transform { into, row }
                }
                _ => RuleEffect::Reset,
            });
        }
        // The legality tests see the moving piece's own type: a royal piece may neither become
        // another type nor a piece become a royal one.
        let royal = |t: &usize| game.pieces[*t].royal.is_royal();
        let movers = mover_bound(&lowered.conditions);
        let transforms = lowered.effects.iter().any(|e| match e {
            RuleEffect::Transform { into, .. } => into.iter().enumerate().any(|(t, new)| {
                new.is_some_and(|n| {
                    royal(&n) || (royal(&t) && movers.as_ref().is_none_or(|m| m.contains(&t)))
                })
            }),
            RuleEffect::Reset => false,
        });
        if transforms && game.pieces.iter().any(|p| p.royal.is_royal()) {
            return Err(format!(
                "the triggered rule `{}`: a transformation of or into a royal piece",
                rule.name
            ));
        }
        rules.push(lowered);
    }
    if !rules.is_empty() {
        // Only a capture by replacement is followed by the rules: one victim, on the arrival cell.
        let feature = [
            (game.custodian.is_some(), "custodian capture"),
            (
                game.reserves.iter().any(|r| r.captured_go_here.is_some()),
                "captures going to a hand",
            ),
            (
                game.pieces.iter().any(|p| {
                    p.moves.iter().any(|m| {
                        m.parts.iter().any(|part| {
                            part.legs.len() > 1 || part.legs.iter().any(|l| l.modes.contains('e'))
                        })
                    }) || !p.stacks.is_empty()
                        || !p.merges.is_empty()
                }),
                "en passant, moves of several legs, stacks or mergers",
            ),
            (game.turn.wall.is_some(), "walls"),
            (
                own_rules(game)
                    .iter()
                    .any(|r| r.events.contains(&Event::Capture) && !is_effect_rule(r)),
                "other rules on captures",
            ),
        ]
        .into_iter()
        .find_map(|(present, name)| present.then_some(name));
        if let Some(feature) = feature {
            return Err(format!("rules on captures with {feature}"));
        }
    }
    Ok((rules, switches, resets))
}

/// The types the piece that moved may be of when all of `conditions` hold, if they say.
fn mover_bound(conditions: &[RuleCond]) -> Option<Vec<usize>> {
    fn bound(c: &RuleCond) -> Option<Vec<usize>> {
        match c {
            RuleCond::Mover(types) => Some(types.clone()),
            RuleCond::All(cs) => mover_bound(cs),
            RuleCond::Any(cs) => {
                let mut union = Vec::new();
                for c in cs {
                    union.extend(bound(c)?);
                }
                Some(union)
            }
            _ => None,
        }
    }
    conditions.iter().find_map(bound)
}

/// A condition of a rule on captures.
fn lower_rule_cond(game: &Game, cond: &Cond) -> Result<RuleCond, String> {
    let piece_of = |v: &Value| match v {
        Value::Piece(PieceTypeExpr::TypeOf(r @ (PieceRef::Mover | PieceRef::Captured))) => Some(*r),
        _ => None,
    };
    let literal = |v: &Value| match v {
        Value::Piece(PieceTypeExpr::Literal(t)) => Some(*t),
        _ => None,
    };
    let types = |r: PieceRef, list: Vec<usize>| match r {
        PieceRef::Mover => RuleCond::Mover(list),
        _ => RuleCond::Captured(list),
    };
    Ok(match cond {
        Cond::Const(b) => RuleCond::Const(*b),
        Cond::Not(c) => RuleCond::Not(Box::new(lower_rule_cond(game, c)?)),
        Cond::All(cs) => RuleCond::All(
            cs.iter()
                .map(|c| lower_rule_cond(game, c))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Any(cs) => RuleCond::Any(
            cs.iter()
                .map(|c| lower_rule_cond(game, c))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Equal(a, b) => match (piece_of(a), literal(b), piece_of(b), literal(a)) {
            (Some(r), Some(t), _, _) | (_, _, Some(r), Some(t)) => types(r, vec![t]),
            _ => {
                return Err("a condition other than on types, piece counts and pieces held".into())
            }
        },
        Cond::Member(a, list) => match (piece_of(a), list.iter().map(literal).collect()) {
            (Some(r), Some(list)) => types(r, list),
            _ => {
                return Err("a condition other than on types, piece counts and pieces held".into())
            }
        },
        _ => {
            let counts = lower_count_cond(game, cond).map_err(|_| {
                "a condition other than on types, piece counts and pieces held".to_string()
            })?;
            // `enemy` and both players' pieces are two players' notions in the counts.
            if movers_of(game) > 2 && names_opponent(&counts) {
                return Err("a condition on the enemy's pieces with more than two players".into());
            }
            RuleCond::Counts(counts)
        }
    })
}

/// Whether a number names the opponent's or both players' pieces.
fn int_names_opponent(n: &FastInt) -> bool {
    match n {
        FastInt::Add(a, b) | FastInt::Sub(a, b) => int_names_opponent(a) || int_names_opponent(b),
        FastInt::Count { owners, .. } | FastInt::Held { owner: owners, .. } => {
            matches!(owners, FastOwners::Opponent | FastOwners::Both)
        }
        FastInt::Const(_) | FastInt::Enclosed | FastInt::Waited => false,
    }
}

/// Whether a condition on counts names the opponent or both players' pieces.
fn names_opponent(cond: &FastCond) -> bool {
    let int = int_names_opponent;
    match cond {
        FastCond::Not(c) => names_opponent(c),
        FastCond::All(cs) | FastCond::Any(cs) => cs.iter().any(names_opponent),
        FastCond::Compare(_, a, b) => int(a) || int(b),
        FastCond::Between(n, ..) => int(n),
        FastCond::Near { owners, .. } => matches!(owners, FastOwners::Opponent | FastOwners::Both),
        FastCond::InCheck(owner) | FastCond::PlayerIn(owner, _) => {
            matches!(owner, FastOwners::Opponent)
        }
        _ => false,
    }
}

/// The effects of the triggered rules in the order the interpreter plays them after a move (the
/// rules on drops, then those on moves, each in file order), or why the compact form cannot.
fn lower_conversions(rules: &[Rule]) -> Result<Vec<FastConversion>, String> {
    let rules: Vec<&Rule> = rules.iter().filter(|r| !is_effect_rule(r)).collect();
    for rule in &rules {
        if !rule.conditions.is_empty() {
            return Err(format!(
                "the triggered rule `{}` under a condition",
                rule.name
            ));
        }
        if let Some(event) = rule
            .events
            .iter()
            .find(|e| !matches!(e, Event::Move | Event::Drop))
        {
            return Err(format!(
                "the triggered rule `{}` on {}",
                rule.name,
                event.keyword()
            ));
        }
    }
    let mut out = Vec::new();
    for event in [Event::Drop, Event::Move] {
        for rule in rules.iter().filter(|r| r.events.contains(&event)) {
            for effect in &rule.effects {
                let target = match effect {
                    Guarded {
                        item:
                            Effect::Convert {
                                target: Target { who, except },
                                to: to @ (PlayerExpr::Own | PlayerExpr::Literal(_)),
                            },
                        condition: None,
                    } => {
                        let to = match to {
                            PlayerExpr::Literal(p) => Some(*p),
                            _ => None,
                        };
                        match who {
                            Who::Adjacent(PieceRef::Mover) => {
                                Some((ConversionTarget::Adjacent, except, to))
                            }
                            Who::Enclosed(PieceRef::Mover) => {
                                Some((ConversionTarget::Enclosed, except, to))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some((target, except, to)) = target else {
                    return Err(format!(
                        "the triggered rule `{}`: an effect other than `convert adjacent mover` and `convert enclosed mover` (to the mover or a player named)",
                        rule.name
                    ));
                };
                out.push(FastConversion {
                    drops_only: event == Event::Drop,
                    target,
                    except: except.clone(),
                    to,
                });
            }
        }
    }
    Ok(out)
}

/// The steps to the cells around a cell (the interpreter's `neighbours`): eight in 2D, 26 in 3D.
fn king_steps(dimensions: usize) -> Vec<Vec3> {
    let levels = if dimensions == 3 { -1..=1 } else { 0..=0 };
    let mut out = Vec::new();
    for dz in levels {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy, dz) != (0, 0, 0) {
                    out.push([dx, dy, dz]);
                }
            }
        }
    }
    out
}

/// Each cell by its board and coordinates (cells are indexed across the boards).
fn cell_index(game: &Game) -> HashMap<(usize, Vec3), usize> {
    game.cells
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.board, c.coord), i))
        .collect()
}

/// The set of the given cells.
fn cell_set<C: std::borrow::Borrow<usize>>(cells: impl IntoIterator<Item = C>) -> Bits {
    cells
        .into_iter()
        .fold(Bits::ZERO, |m, c| m | Bits::bit(*c.borrow()))
}

/// A condition on piece counts (a `mating_potential when`), or why the compact form cannot test it.
fn lower_count_cond(game: &Game, cond: &Cond) -> Result<FastCond, String> {
    lower_cond(game, cond, &mut Site::Counts)
}

/// The condition of a `result` or `insufficient_material` rule ([`Site::End`]).
fn lower_end_cond(game: &Game, cond: &Cond) -> Result<FastCond, String> {
    lower_cond(game, cond, &mut Site::End)
}

/// A player in an end condition, `own` the player to move.
fn end_player(game: &Game, p: &PlayerExpr) -> Option<FastOwners> {
    match p {
        PlayerExpr::Own | PlayerExpr::ToMove => Some(FastOwners::Own),
        PlayerExpr::Opponent if movers_of(game) == 2 => Some(FastOwners::Opponent),
        PlayerExpr::Literal(p) if *p < movers_of(game) => Some(FastOwners::Player(*p)),
        _ => None,
    }
}

/// The players a list of values names, when each is a declared player.
fn literal_players(values: &[&Value]) -> Option<Vec<usize>> {
    values
        .iter()
        .map(|v| match v {
            Value::Player(PlayerExpr::Literal(p)) => Some(*p),
            _ => None,
        })
        .collect()
}

/// A condition on piece counts, and what else its site allows.
fn lower_cond(game: &Game, cond: &Cond, site: &mut Site) -> Result<FastCond, String> {
    let refuse = || "an end condition on more than piece counts".to_string();
    Ok(match cond {
        Cond::Const(b) => FastCond::Const(*b),
        Cond::Not(c) => FastCond::Not(Box::new(lower_cond(game, c, site)?)),
        Cond::All(cs) => FastCond::All(
            cs.iter()
                .map(|c| lower_cond(game, c, site))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Any(cs) => FastCond::Any(
            cs.iter()
                .map(|c| lower_cond(game, c, site))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Near {
            cell,
            leaps,
            side,
            types,
        } => {
            let (mover, step, near) = match (cell, site) {
                (CellExpr::To, Site::Drop { step, near, .. }) => (false, step, near),
                (CellExpr::Of(PieceRef::Mover) | CellExpr::From, Site::Borrow { step, near }) => {
                    (true, step, near)
                }
                _ => return Err(refuse()),
            };
            let table: Vec<Bits> = (0..game.cells.len())
                .map(|cell| {
                    leaps
                        .iter()
                        .filter_map(|&v| step(cell, v))
                        .fold(Bits::ZERO, |m, c| m | Bits::bit(c))
                })
                .collect();
            let index = match near.iter().position(|t| *t == table) {
                Some(index) => index,
                None => {
                    near.push(table);
                    near.len() - 1
                }
            };
            FastCond::Near {
                mover,
                table: index,
                owners: lower_sides(side).ok_or_else(refuse)?,
                pieces: (0..game.pieces.len())
                    .filter(|&t| types.contains(t, |p| game.pieces[p].royal.is_royal()))
                    .collect(),
            }
        }
        Cond::InZone(PieceRef::Mover, zone, None)
            if matches!(site, Site::Mover | Site::Borrow { .. }) =>
        {
            FastCond::MoverIn(
                (0..sides_of(game))
                    .map(|p| cell_set(&game.zones[*zone].cells[p]))
                    .collect(),
            )
        }
        Cond::Compare(op, a, b) => FastCond::Compare(
            *op,
            lower_count_int(game, a, site)?,
            lower_count_int(game, b, site)?,
        ),
        Cond::Between(n, lo, hi) => FastCond::Between(lower_count_int(game, n, site)?, *lo, *hi),
        Cond::InCheck(p) if matches!(site, Site::End) => {
            FastCond::InCheck(end_player(game, p).ok_or_else(refuse)?)
        }
        Cond::Empty(CellExpr::Literal(cell)) if game.turn.wall.is_none() => FastCond::Empty(*cell),
        Cond::Member(Value::Player(p), list) if matches!(site, Site::End) => FastCond::PlayerIn(
            end_player(game, p).ok_or_else(refuse)?,
            literal_players(&list.iter().collect::<Vec<_>>()).ok_or_else(refuse)?,
        ),
        Cond::Equal(Value::Player(p), other) if matches!(site, Site::End) => FastCond::PlayerIn(
            end_player(game, p).ok_or_else(refuse)?,
            literal_players(&[other]).ok_or_else(refuse)?,
        ),
        Cond::Equal(..)
        | Cond::Member(..)
        | Cond::OptionIs(..)
        | Cond::InCheck(_)
        | Cond::Attacked(..)
        | Cond::InZone(..)
        | Cond::HasMoved(_)
        | Cond::Empty(_)
        | Cond::Adjacent(..)
        | Cond::Eliminated(_)
        | Cond::Stacked(_) => return Err(refuse()),
    })
}

/// Whose pieces a side names, for two players.
fn lower_sides(side: &Sides) -> Option<FastOwners> {
    Some(match side {
        Sides::One(PlayerExpr::Own) => FastOwners::Own,
        Sides::One(PlayerExpr::Opponent) | Sides::Enemies => FastOwners::Opponent,
        Sides::One(PlayerExpr::ToMove) => FastOwners::ToMove,
        Sides::One(PlayerExpr::Literal(p)) => FastOwners::Player(*p),
        Sides::Any => FastOwners::Both,
        Sides::List(list) => match list.as_slice() {
            [p] => FastOwners::Player(*p),
            [a, b] if a != b => FastOwners::Both,
            _ => return None,
        },
        Sides::One(_) => return None,
    })
}

fn lower_count_int(game: &Game, int: &IntExpr, site: &mut Site) -> Result<FastInt, String> {
    let refuse = || "an end condition on more than piece counts".to_string();
    Ok(match int {
        IntExpr::Const(n) => FastInt::Const(*n),
        IntExpr::Add(a, b) => FastInt::Add(
            Box::new(lower_count_int(game, a, site)?),
            Box::new(lower_count_int(game, b, site)?),
        ),
        IntExpr::Sub(a, b) => FastInt::Sub(
            Box::new(lower_count_int(game, a, site)?),
            Box::new(lower_count_int(game, b, site)?),
        ),
        IntExpr::Enclosed(CellExpr::To) => match site {
            Site::Drop { enclosed, .. } => {
                **enclosed = true;
                FastInt::Enclosed
            }
            _ => return Err(refuse()),
        },
        IntExpr::Count {
            side,
            pieces,
            place,
        } => {
            let owners = lower_sides(side).ok_or_else(refuse)?;
            let pieces = (0..game.pieces.len())
                .filter(|&t| pieces.contains(t, |p| game.pieces[p].royal.is_royal()))
                .collect();
            let zone = match place {
                None => None,
                // A board's cells, the same for every player.
                Some(Place::Board(b)) => {
                    let cells = cell_set(
                        (0..game.cells.len())
                            .filter(|&c| game.cells[c].board == *b)
                            .collect::<Vec<_>>(),
                    );
                    Some(vec![cells; sides_of(game)])
                }
                Some(Place::Zone(z)) => Some(
                    (0..sides_of(game))
                        .map(|p| cell_set(&game.zones[*z].cells[p]))
                        .collect(),
                ),
            };
            FastInt::Count {
                owners,
                pieces,
                zone,
            }
        }
        IntExpr::Held(reserve, piece, player) => {
            // The compact form holds one reserve per player, or one shared reserve, the hand row
            // after the players' (`FastIr::hands`).
            let Some(info) = game.reserves.get(*reserve) else {
                return Err(refuse());
            };
            if !info.per_player {
                return Ok(FastInt::Held {
                    owner: FastOwners::Player(movers_of(game)),
                    piece: *piece,
                });
            }
            let owner = match player {
                None | Some(PlayerExpr::Own) => FastOwners::Own,
                Some(PlayerExpr::Opponent) => FastOwners::Opponent,
                Some(PlayerExpr::ToMove) => FastOwners::ToMove,
                Some(PlayerExpr::Literal(p)) => FastOwners::Player(*p),
                Some(_) => return Err(refuse()),
            };
            FastInt::Held {
                owner,
                piece: *piece,
            }
        }
        IntExpr::Waited(PieceRef::Mover) if matches!(site, Site::Borrow { .. }) => FastInt::Waited,
        IntExpr::Option(_)
        | IntExpr::Distance(..)
        | IntExpr::Colour(_)
        | IntExpr::LegalMoves(_)
        | IntExpr::StackCount(_)
        | IntExpr::Waited(_)
        | IntExpr::Enclosed(_) => return Err(refuse()),
    })
}

/// The condition of moves on whether their mover's owner is in check: `Some(true)` for
/// `when in_check(...)`, `Some(false)` for `unless in_check(...)`, `None` for any other.
fn check_condition(cond: &Cond) -> Option<bool> {
    let mover = |p: &PlayerExpr| {
        matches!(
            p,
            PlayerExpr::Own | PlayerExpr::ToMove | PlayerExpr::OwnerOf(PieceRef::Mover)
        )
    };
    match cond {
        Cond::InCheck(p) if mover(p) => Some(true),
        Cond::Not(inner) => match inner.as_ref() {
            Cond::InCheck(p) if mover(p) => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// Marks the steps a block of moves under a check condition added since `before` with the
/// condition; refuses the block when it added anything but quiet steps without an en-passant
/// right (its moves would need their attacks and results under the condition too).
fn mark_conditional_steps(
    before: &FastMoves,
    out: &mut FastMoves,
    in_check: Option<bool>,
) -> Result<(), String> {
    let refuse = || "moves with a condition or limited to a zone".to_string();
    let steps_only = FastMoves {
        steps: out.steps.clone(),
        ..before.clone()
    };
    if steps_only != *out {
        return Err(refuse());
    }
    for (cell, steps) in out.steps.iter_mut().enumerate() {
        for step in &mut steps[before.steps[cell].len()..] {
            if step.capture || step.en_passant.is_some() {
                return Err(refuse());
            }
            step.in_check = in_check;
        }
    }
    Ok(())
}

/// Whether a condition depends on option values only (the interpreter's `option_condition`).
fn options_only(cond: &Cond) -> bool {
    fn int(e: &IntExpr) -> bool {
        match e {
            IntExpr::Const(_) | IntExpr::Option(_) => true,
            IntExpr::Add(a, b) | IntExpr::Sub(a, b) => int(a) && int(b),
            _ => false,
        }
    }
    match cond {
        Cond::Const(_) | Cond::OptionIs(..) => true,
        Cond::Not(c) => options_only(c),
        Cond::All(cs) | Cond::Any(cs) => cs.iter().all(options_only),
        Cond::Compare(_, a, b) => int(a) && int(b),
        Cond::Between(n, ..) => int(n),
        _ => false,
    }
}

/// A promotion rule's condition for the pieces of `player`: comparisons of the mover's owner
/// with a player (`mover.owner == catholic`, `mover.owner in [...]`) become constants, and so do
/// the `not`, `and` and `or` they decide.
/// Whether a condition compares the mover's owner with a player (`mover.owner == ...`, `mover.owner
/// in [...]`), which [`fix_owner`] decides.
fn names_owner(cond: &Cond) -> bool {
    let owner = |v: &Value| matches!(v, Value::Player(PlayerExpr::OwnerOf(PieceRef::Mover)));
    match cond {
        Cond::Equal(a, b) => owner(a) || owner(b),
        Cond::Member(a, _) => owner(a),
        Cond::Not(c) => names_owner(c),
        Cond::All(cs) | Cond::Any(cs) => cs.iter().any(names_owner),
        _ => false,
    }
}

/// With `own`, `own` (the castling player of a castling partner's condition) is `player` too.
fn fix_owner(cond: &Cond, player: usize, own: bool) -> Cond {
    let known = |v: &Value| match v {
        Value::Player(PlayerExpr::OwnerOf(PieceRef::Mover)) => Some(player),
        Value::Player(PlayerExpr::Own) if own => Some(player),
        Value::Player(PlayerExpr::Literal(p)) => Some(*p),
        _ => None,
    };
    match cond {
        Cond::Equal(a, b) => match (known(a), known(b)) {
            (Some(a), Some(b)) => Cond::Const(a == b),
            _ => cond.clone(),
        },
        Cond::Member(a, list) => {
            match (known(a), list.iter().map(known).collect::<Option<Vec<_>>>()) {
                (Some(a), Some(list)) => Cond::Const(list.contains(&a)),
                _ => cond.clone(),
            }
        }
        Cond::Not(c) => match fix_owner(c, player, own) {
            Cond::Const(b) => Cond::Const(!b),
            c => Cond::Not(Box::new(c)),
        },
        Cond::All(cs) | Cond::Any(cs) => {
            let all = matches!(cond, Cond::All(_));
            let mut kept = Vec::new();
            for c in cs {
                match fix_owner(c, player, own) {
                    // `false` decides an `and`, `true` an `or`; the other constant drops out.
                    Cond::Const(b) if b != all => return Cond::Const(b),
                    Cond::Const(_) => {}
                    c => kept.push(c),
                }
            }
            match (kept.len(), all) {
                (0, _) => Cond::Const(all),
                (1, _) => kept.remove(0),
                (_, true) => Cond::All(kept),
                (_, false) => Cond::Any(kept),
            }
        }
        _ => cond.clone(),
    }
}

/// Whether the game goes on after a checkmate with more than two players: a rule `on checkmate`
/// eliminates the checkmated player. The interpreter then plays those rules at the turn's start
/// (`FastIr::elimination`).
pub fn eliminates(game: &Game) -> bool {
    movers_of(game) > 2
        && game.rules.iter().any(|rule| {
            rule.events.contains(&Event::Checkmate)
                && rule
                    .effects
                    .iter()
                    .any(|e| matches!(e.item, Effect::Eliminate(PlayerExpr::Checkmated)))
        })
}

/// The triggered rules the compact form plays itself: with elimination, all but those `on
/// checkmate`, which the interpreter plays at the turn's start.
fn own_rules(game: &Game) -> Vec<Rule> {
    let elimination = eliminates(game);
    game.rules
        .iter()
        .filter(|r| !(elimination && r.events.iter().all(|e| *e == Event::Checkmate)))
        .cloned()
        .collect()
}

/// The players, who take turns: the sides before the neutral ones.
pub fn movers_of(game: &Game) -> usize {
    game.players.iter().filter(|p| !p.neutral).count()
}

/// The sides that own pieces: every side but the walls' neutral one (the last).
pub fn sides_of(game: &Game) -> usize {
    game.players.len() - usize::from(game.turn.wall.is_some())
}

/// Game-level features outside the profile. Every part of the model is looked at: what the compact
/// form does not implement sends the game to the hook form, and what only the interpreter reads
/// (text, options, outcomes beyond the position) is named as such. Returns the types an explosion
/// spares when captures explode ([`explosion_rule`]).
fn check_game(game: &Game) -> Result<Option<Vec<usize>>, String> {
    let Game {
        // Names, text, options, setup and scoring: the interpreter reads and writes them for every
        // form.
        name: _,
        title: _,
        aliases: _,
        credits: _,
        setup: _,
        options: _,
        notation: _,
        ranking: _,
        scoring: _,
        typemaps: _,
        zones: _,
        dimensions,
        boards,
        cells,
        players,
        pieces,
        castling,
        // Lowered by `lower_hands`.
        reserves: _,
        turn,
        end,
        rules,
        transfers,
        custodian,
        captures,
    } = game;
    // The compact form follows the cells: its tables step from cell to cell on one board (in 3D
    // too, with the 3D symmetries and king steps), and cells are indexed across the boards.
    let _ = dimensions;
    for board in boards {
        let Board {
            // Text: the interpreter reads and writes cell names.
            name: _,
            files: _,
            ranks: _,
            levels: _,
            aliases: _,
            // The geometry, through the cells.
            size: _,
            first_cell: _,
            cell_count: _,
            // Only pieces sent to a board (rule effects, transfers) find it full.
            capacity: _,
            overflow: _,
            // Only moves limited to boards take the board's forward.
            forward: _,
        } = board;
    }
    if cells.len() > MAX_CELLS {
        return Err(format!("more than {MAX_CELLS} cells"));
    }
    // The walls' neutral side, the last one, owns no piece that moves; other neutral sides follow
    // two players and own pieces that move only when `movable_by` lets a player move them.
    let movers = movers_of(game);
    if movers < 2 {
        return Err("fewer than two players".into());
    }
    let sides = &players[..movers];
    if sides_of(game) > movers {
        if movers > 2 {
            return Err("a neutral side with more than two players".into());
        }
        if !game.reserves.is_empty() || game.custodian.is_some() {
            return Err("a neutral side with reserves or custodian capture".into());
        }
    }
    for player in players {
        let Player {
            name: _,
            title: _,
            neutral: _,
            forward: _,
            upper_case: _,
            fen_prefix: _,
            bonus_points: _,
            movable_by,
            partner,
        } = player;
        // Lowered by `lower_borrowed`.
        let _ = movable_by;
        // Lowered into the IR (`FastIr::enemies`, and the hands captures go to).
        let _ = partner;
    }
    check_turn(turn, sides.len(), eliminates(game))?;
    // Rules on captures may be an explosion; the others are lowered by `lower_conversions` (those
    // of a checkmate are the interpreter's, `own_rules`).
    let _ = rules;
    let rules = &own_rules(game);
    // Rules about the captured piece and the arriving one are lowered by `lower_triggers`; the
    // rules on captures that transform the mover, by `lower_effect_rules`.
    let all_triggers = triggers::are_triggers(rules);
    let rules: Vec<Rule> = rules
        .iter()
        .filter(|r| !is_effect_rule(r))
        .cloned()
        .collect();
    let explosion = if all_triggers {
        None
    } else if rules.iter().any(|r| r.events.contains(&Event::Capture)) {
        explosion_rule(&rules, pieces).map_err(|e| {
            // Name the first rule that is none of the forms the compact form plays.
            match rules
                .iter()
                .find(|r| !triggers::are_triggers(std::slice::from_ref(*r)))
            {
                Some(rule) if rules.len() > 1 => format!(
                    "the triggered rule `{}` (the compact form plays rules about the captured or \
                     arriving piece, the mover's transformation on a capture, conversions, or one \
                     explosion)",
                    rule.name
                ),
                _ => e,
            }
        })?
    } else {
        None
    };
    // Lowered by `lower_custodian`.
    let _ = custodian;
    // Lowered by `lower_transfers`.
    let _ = transfers;
    if *captures == vdl_runtime::model::CaptureScope::Any {
        // The moves take any piece in the way; what knows whose a piece is stays the enemies'.
        let feature = if pieces.iter().any(|p| p.royal.is_royal()) {
            Some("royal pieces")
        } else if !game.reserves.is_empty() {
            Some("reserves")
        } else if !castling.is_empty() {
            Some("castling")
        } else if turn.wall.is_some() {
            Some("walls")
        } else if custodian.is_some() {
            Some("custodian capture")
        } else if pieces.iter().any(|p| !p.stacks.is_empty()) {
            Some("stacks")
        } else if explosion.is_some() {
            Some("captures that explode")
        } else if end.iter().any(|r| matches!(r.kind, EndKind::Captures(..))) {
            Some("a `captures` end rule")
        } else {
            None
        };
        if let Some(feature) = feature {
            return Err(format!("captures of one's own pieces, with {feature}"));
        }
    }
    for rule in end.iter().filter(|r| r.automatic) {
        let fits = match &rule.kind {
            // Repetition: the compact engine keeps the hashes of the positions played.
            EndKind::Checkmate
            | EndKind::Stalemate
            | EndKind::NoMoves
            | EndKind::BareKing { .. }
            | EndKind::DropMate(_)
            | EndKind::Flag { .. }
            | EndKind::Extinction(_)
            | EndKind::Repetition(_)
            | EndKind::MoveRule(_)
            // The compact position counts the checks given.
            | EndKind::Checks(_) => true,
            // Passes in a row are counted in the compact position, and facing royal pieces are
            // found on it; the interpreter decides the rule (under a condition on piece counts
            // too).
            // The capture counters are kept in the compact position, formations are found by the
            // interpreter once the player who moved has the pieces for one (under a condition on
            // piece counts too).
            EndKind::AllPass
            | EndKind::Facing(_)
            | EndKind::Captures(..)
            | EndKind::Formation { .. } => rule
                .condition
                .as_ref()
                .is_none_or(|c| options_only(c) || lower_count_cond(game, c).is_ok()),
            EndKind::InsufficientMaterial(condition) => match condition {
                Some(c) => lower_end_cond(game, c).is_ok(),
                None => true,
            },
            // Decided by its condition on piece counts, checks and players (`EarlyEnd::Result`).
            EndKind::Result => rule
                .condition
                .as_ref()
                .is_some_and(|c| lower_end_cond(game, c).is_ok()),
            // Decided by the interpreter once a checkmate happened (`EarlyEnd::Checkmated`).
            EndKind::Checkmates(_) | EndKind::TotalCheckmates(_) | EndKind::LastSurvivor => {
                eliminates(game)
            }
            // The compact position keeps the hashes of the positions played, one per move.
            EndKind::MoveLimit(_) => true,
            // The compact engine then has no royal pieces to keep safe (`royal_capture_game`).
            EndKind::RoyalCapture => true,
            // The compact position keeps who gave check with each move (`CompactPosition::checks`)
            // between two players moving once a turn; the interpreter decides once the position
            // recurred as often as the rule needs.
            EndKind::PerpetualCheck(_) => sides_of(game) == 2 && game.turn.moves <= 1,
            // The compact position keeps the count (`FastIr::counting`).
            EndKind::Counting(_) => true,
        };
        // Checkmate, stalemate and no-moves rules decide only when the side to move has no legal
        // move, and then the interpreter evaluates their conditions (outcomes convert); so do the
        // rules on passes once the compact position's cheap test holds (their conditions were
        // checked above). The cheap tests of bare kings, flags, extinction, the move rule, checks,
        // repetition and insufficient material ask nothing of the rule's condition: they hold whenever the rule may (the
        // condition only narrows it), and the interpreter then decides with the condition.
        let conditions_fit = matches!(
            rule.kind,
            EndKind::Checkmate
                | EndKind::Stalemate
                | EndKind::NoMoves
                | EndKind::DropMate(_)
                | EndKind::BareKing { .. }
                | EndKind::Flag { .. }
                | EndKind::Extinction(_)
                | EndKind::MoveRule(_)
                | EndKind::Checks(_)
                | EndKind::Repetition(_)
                | EndKind::MoveLimit(_)
                | EndKind::InsufficientMaterial(_)
                | EndKind::RoyalCapture
                | EndKind::PerpetualCheck(_)
                | EndKind::Counting(_)
                | EndKind::AllPass
                | EndKind::Facing(_)
                | EndKind::Captures(..)
                | EndKind::Formation { .. }
                | EndKind::Checkmates(_)
                | EndKind::TotalCheckmates(_)
                | EndKind::LastSurvivor
        );
        let conditional =
            rule.condition.is_some() && !conditions_fit && rule.kind != EndKind::Result;
        if !fits || conditional {
            return Err(format!("the automatic end rule `{}`", rule.kind.keyword()));
        }
    }
    for castle in castling {
        check_castle(castle)?;
    }
    // The wall type (`FastIr::walls`) never moves and is never captured: nothing of it is read
    // as a piece's.
    let wall = turn.wall.as_ref().map(|_| pieces.len() - 1);
    for (index, piece) in pieces.iter().enumerate() {
        if Some(index) != wall {
            check_piece(piece, !castling.is_empty())?;
        }
    }
    Ok(explosion)
}

/// Whether the game is won by capturing royal pieces (`royal_capture`): the interpreter then lets
/// them stand attacked, and the compact form has no royal pieces but in the end rules' tests. Only
/// without the features that ask whether a royal piece is attacked: checks given or forbidden,
/// `in_check` conditions, check evasion, facing, explosions, drop mates, elimination and
/// `royal_safety all`.
fn royal_capture_game(
    game: &Game,
    pieces: &[FastPiece],
    hands: Option<&FastHands>,
    early_ends: &[EarlyEnd],
) -> Result<bool, String> {
    if !game.end.iter().any(|r| r.kind == EndKind::RoyalCapture) {
        return Ok(false);
    }
    let in_check_moves = pieces.iter().any(|p| {
        p.players
            .iter()
            .any(|m| m.steps.iter().flatten().any(|s| s.in_check.is_some()))
    });
    let in_check_ends = early_ends.iter().any(|e| match e {
        EarlyEnd::Insufficient(c) | EarlyEnd::Result(c) => reads_check(c),
        _ => false,
    });
    let end = |f: fn(&EndKind) -> bool| game.end.iter().any(|r| f(&r.kind));
    let feature = [
        (end(|k| matches!(k, EndKind::Checks(_))), "a `checks` rule"),
        (
            end(|k| {
                matches!(
                    k,
                    EndKind::DropMate(_)
                        | EndKind::Checkmates(_)
                        | EndKind::TotalCheckmates(_)
                        | EndKind::LastSurvivor
                )
            }),
            "drop mates or elimination",
        ),
        (game.turn.forbid_checks, "`forbid_checks`"),
        (
            hands.is_some_and(|h| h.no_drop_check || h.no_drop_mate.contains(&true)),
            "`no_drop_check` or `no_drop_mate`",
        ),
        (in_check_moves || in_check_ends, "`in_check` conditions"),
        (
            game.pieces.iter().any(|p| p.check_evasion.is_some()),
            "`check_evasion`",
        ),
        (game.pieces.iter().any(|p| p.facing.is_some()), "`facing`"),
        (!game.rules.is_empty(), "triggered rules"),
        (
            game.turn.royal_safety == RoyalSafety::All,
            "`royal_safety all`",
        ),
        (
            game.turn.checkmate_test != CheckmateTest::NoMoves,
            "`checkmate_test`",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!("`royal_capture` with {feature}")),
        None => Ok(true),
    }
}

/// The counting rule, if the game has one (automatic or claimed), or why the compact form cannot
/// keep its count: the captures that restart it are those of the piece on the target or taken en
/// passant, so not with the moves and rules that remove pieces otherwise.
fn lower_counting(game: &Game, pieces: &[FastPiece]) -> Result<Option<FastCounting>, String> {
    let Some(counting) = game.end.iter().find_map(|r| match &r.kind {
        EndKind::Counting(c) => Some(c),
        _ => None,
    }) else {
        return Ok(None);
    };
    let feature = [
        (!game.rules.is_empty(), "triggered rules"),
        (game.custodian.is_some(), "custodian capture"),
        (
            pieces
                .iter()
                .any(|p| !p.stacks.is_empty() || p.players.iter().any(|m| !m.pulls.is_empty())),
            "stacks or pulls",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    if let Some(feature) = feature {
        return Err(format!("a counting rule with {feature}"));
    }
    let cond = |c: &Option<Cond>| {
        c.as_ref()
            .map(|c| {
                lower_count_cond(game, c).map_err(|_| {
                    "a counting rule's condition on more than piece counts".to_string()
                })
            })
            .transpose()
    };
    Ok(Some(FastCounting {
        start: cond(&counting.start)?,
        restart: counting
            .restart
            .iter()
            .map(cond)
            .collect::<Result<_, _>>()?,
        limits: counting
            .limits
            .iter()
            .map(|(n, c)| Ok((*n, cond(c)?)))
            .collect::<Result<_, String>>()?,
        begin: counting
            .begin
            .iter()
            .map(|(p, c)| Ok((*p, cond(c)?)))
            .collect::<Result<_, String>>()?,
    }))
}

/// The condition of a `royal when` type, or why the compact form cannot follow it. The royal pieces
/// are found before a move and stay so after it: the condition counts only the player's own
/// pieces, which his moves do not change (no promotions, drops, mergers, stacks, rules or captures
/// of his own pieces), and nothing asks about the enemy's royal pieces after the move.
fn lower_royal_when(
    game: &Game,
    pieces: &[FastPiece],
    royals: &[usize],
    hands: Option<&FastHands>,
) -> Result<Option<FastCond>, String> {
    let Some(condition) = game.pieces.iter().find_map(|p| match &p.royal {
        Royalty::When(c) => Some(c),
        _ => None,
    }) else {
        return Ok(None);
    };
    let refuse = |what: &str| Err(format!("`royal when` with {what}"));
    if royals.len() > 1 {
        return refuse("more than one royal type");
    }
    let promotes = game
        .pieces
        .iter()
        .any(|p| !p.promotions.is_empty() || !p.promotion_moves.is_empty());
    let end = |f: fn(&EndKind) -> bool| game.end.iter().any(|r| f(&r.kind));
    let feature = [
        (promotes, "promotions"),
        (hands.is_some_and(|h| h.drops), "drops"),
        (
            pieces
                .iter()
                .any(|p| !p.merges.is_empty() || !p.stacks.is_empty()),
            "mergers or stacks",
        ),
        (!game.rules.is_empty(), "triggered rules"),
        (
            game.captures == vdl_runtime::model::CaptureScope::Any,
            "`captures any`",
        ),
        (game.turn.forbid_checks, "`forbid_checks`"),
        (
            hands.is_some_and(|h| h.no_drop_check || h.no_drop_mate.contains(&true)),
            "`no_drop_check` or `no_drop_mate`",
        ),
        (
            end(|k| {
                matches!(
                    k,
                    EndKind::Checks(_)
                        | EndKind::Checkmates(_)
                        | EndKind::TotalCheckmates(_)
                        | EndKind::LastSurvivor
                        | EndKind::RoyalCapture
                )
            }),
            "checks given, elimination or royal capture",
        ),
        (game.pieces.iter().any(|p| p.facing.is_some()), "`facing`"),
        (
            game.turn.royal_safety == RoyalSafety::All,
            "`royal_safety all`",
        ),
        (game.custodian.is_some(), "custodian capture"),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    if let Some(feature) = feature {
        return refuse(feature);
    }
    let lowered = lower_count_cond(game, condition)
        .map_err(|_| "`royal when` with a condition on more than piece counts".to_string())?;
    if !counts_own_only(&lowered) {
        return refuse("a condition on pieces other than the player's own");
    }
    Ok(Some(lowered))
}

/// Whether a condition counts only the pieces of `own` (and constants).
fn counts_own_only(c: &FastCond) -> bool {
    fn int(n: &FastInt) -> bool {
        match n {
            FastInt::Add(a, b) | FastInt::Sub(a, b) => int(a) && int(b),
            FastInt::Count { owners, .. } => matches!(owners, FastOwners::Own),
            FastInt::Const(_) => true,
            FastInt::Held { .. } | FastInt::Enclosed | FastInt::Waited => false,
        }
    }
    match c {
        FastCond::Const(_) => true,
        FastCond::Not(c) => counts_own_only(c),
        FastCond::All(cs) | FastCond::Any(cs) => cs.iter().all(counts_own_only),
        FastCond::Compare(_, a, b) => int(a) && int(b),
        FastCond::Between(n, ..) => int(n),
        FastCond::MoverIn(_)
        | FastCond::InCheck(_)
        | FastCond::PlayerIn(..)
        | FastCond::Near { .. }
        | FastCond::Empty(_) => false,
    }
}

/// Whether a condition asks whether a player is in check.
fn reads_check(c: &FastCond) -> bool {
    match c {
        FastCond::InCheck(_) => true,
        FastCond::Not(c) => reads_check(c),
        FastCond::All(cs) | FastCond::Any(cs) => cs.iter().any(reads_check),
        FastCond::Const(_)
        | FastCond::Compare(..)
        | FastCond::Between(..)
        | FastCond::MoverIn(_)
        | FastCond::PlayerIn(..)
        | FastCond::Empty(_)
        | FastCond::Near { .. } => false,
    }
}

/// The types spared by the explosion of captures, when the game's triggered rules are one explosion
/// (atomic chess's `on capture; remove adjacent moved except PIECES; remove moved`, without
/// conditions, sparing no royal type); `None` without triggered rules. Any other rule keeps the game
/// out of the compact form.
fn explosion_rule(rules: &[Rule], pieces: &[Piece]) -> Result<Option<Vec<usize>>, String> {
    let Some(rule) = rules.first() else {
        return Ok(None);
    };
    let Rule {
        name,
        events,
        conditions,
        effects,
    } = rule;
    let refuse = |what: &str| {
        Err(format!(
            "the triggered rule `{name}` ({what}; the compact form implements only \
             `on capture; remove adjacent moved except PIECES; remove moved`)"
        ))
    };
    if events.as_slice() != [Event::Capture] {
        return refuse("an event other than `capture`");
    }
    if !conditions.is_empty() || effects.iter().any(|e| e.condition.is_some()) {
        return refuse("a condition");
    }
    let items: Vec<&Effect> = effects.iter().map(|e| &e.item).collect();
    let mut immune = match items.as_slice() {
        [Effect::Remove(Target {
            who: Who::Adjacent(PieceRef::Mover),
            except,
        }), Effect::Remove(Target {
            who: Who::Piece(PieceRef::Mover),
            except: spared,
        })] if spared.is_empty() => except.clone(),
        _ => return refuse("other effects"),
    };
    if immune.iter().any(|&t| pieces[t].royal.is_royal()) {
        return refuse("a royal type spared by the blast");
    }
    if let Some(other) = rules.get(1) {
        return Err(format!(
            "the triggered rule `{}` (the compact form implements one rule, an explosion)",
            other.name
        ));
    }
    immune.sort_unstable();
    immune.dedup();
    Ok(Some(immune))
}

fn check_turn(turn: &Turn, sides: usize, eliminates: bool) -> Result<(), String> {
    let Turn {
        order,
        moves,
        // Lowered into the IR (`FastIr::pass`).
        pass: _,
        freeze,
        end_early_when_stuck,
        en_passant_expires,
        en_passant_right,
        checkmate_test,
        must_capture,
        must_drop,
        forbid_checks,
        royal_safety,
        wall,
    } = turn;
    // Lowered into the IR: `must_capture`, `must_drop`, `forbid_checks` and `royal_safety` (either
    // value).
    let _ = (must_capture, must_drop, forbid_checks);
    match royal_safety {
        RoyalSafety::Any | RoyalSafety::All => {}
    }
    // Lowered into the IR (`FastIr::turns`, with what they may not be combined with): the order,
    // several moves per turn, `end_early_when_stuck`, and freezing after every event.
    let _ = (order, moves, end_early_when_stuck, freeze);
    // The first turn statement the compact form does not implement, as written.
    // With more than two players and one move a turn, or two players and several, a right that
    // lasts until its owner's turn is kept per player, one per single move of his turn
    // (`FastIr::en_passant_lasts`).
    let lasting = (sides > 2 && *moves <= 1) || (sides == 2 && *moves > 1);
    let statement = if *en_passant_expires != EnPassantExpiry::NextMove && !lasting {
        Some("en_passant_expires owner_turn".to_string())
    } else if *en_passant_right != EnPassantRight::Always && (sides > 2 || *moves > 1) {
        Some("en_passant_right when_capturable".to_string())
    } else if *checkmate_test != CheckmateTest::NoMoves && !eliminates {
        Some("checkmate_test attacked_at_turn_start".to_string())
    } else {
        // `wall` is lowered (`FastIr::walls`).
        let _ = wall;
        None
    };
    match statement {
        None => Ok(()),
        Some(statement) => Err(format!("turn {{ {statement} }}")),
    }
}

fn check_castle(castle: &Castle) -> Result<(), String> {
    let Castle {
        king,
        partners,
        along: _,
        partner_at: _,
        king_steps: _,
        partner_to: _,
        requires,
        check_attacks: _,
        from: _,
        // Lowered by `lower_castle` (`FastCastle::fixed`).
        king_lands: _,
        partner_lands: _,
    } = castle;
    // Lowered by `lower_castle`: the partners' conditions on the castling player
    // (`FastCastle::player_partners`), and what `requires` names unmoved or original, as the interpreter
    // decides it (`FastCastle::king_virgin`, `FastCastle::partner_virgin`).
    let _ = (king, partners, requires);
    Ok(())
}

/// The types that cannot be captured (`immune`), or why the compact form does not take them:
/// only the moves' captures leave them out, so not the captures of blasts, custodian capture,
/// stacks or en passant.
fn lower_immune(
    game: &Game,
    pieces: &[FastPiece],
    explodes: bool,
    walls: Option<&FastWalls>,
) -> Result<Vec<usize>, String> {
    // Walls are nobody's pieces: no move takes them anyway.
    let immune: Vec<usize> = (0..game.pieces.len())
        .filter(|&p| game.pieces[p].immune && walls.is_none_or(|w| w.piece != p))
        .collect();
    if immune.is_empty() {
        return Ok(immune);
    }
    let double_steps = immune.iter().any(|&t| {
        pieces[t]
            .players
            .iter()
            .any(|m| m.steps.iter().flatten().any(|s| s.en_passant.is_some()))
    });
    let feature = [
        (explodes, "captures that explode"),
        (game.custodian.is_some(), "custodian capture"),
        (uses_stacks(pieces), "stacks"),
        (double_steps, "en passant"),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!("`immune` with {feature}")),
        None => Ok(immune),
    }
}

fn check_piece(piece: &Piece, castling: bool) -> Result<(), String> {
    let Piece {
        name,
        // Text and evaluation only.
        title: _,
        letter: _,
        value: _,
        points: _,
        virgin_in: _,
        // Lowered with the moves, the promotions and the hands.
        moves: _,
        promotions: _,
        pawn: _,
        confined: _,
        promoted_from: _,
        demote_to: _,
        drop_zone: _,
        drop_file_limit: _,
        royal,
        // Lowered by `lower_merges` (`FastPiece::merges`).
        merges: _,
        facing,
        // Lowered with the moves (`FastPiece::captures_checker`).
        check_evasion: _,
        // Lowered by `lower_borrowed`: a player moves his own pieces in his frame.
        perspective: _,
        movable_by: _,
        // Lowered with the moves: it limits captures, not attacks.
        captures_only: _,
        // Lowered with the hops (`FastIr::unhoppable`).
        cannot_hop: _,
        // Lowered with the moves: no type in `FastPiece::captures_only`.
        never_captures: _,
        // Lowered with the captures (`FastIr::immune`).
        immune: _,
        // Limits promotions (`FastIr::count_limits`); drops ignore it, as in the interpreter.
        count_limit: _,
        // Lowered with the hands (`FastHands::no_drop_mate`).
        no_drop_mate: _,
        // Lowered with the hands (`FastHands::opposite_colours`).
        drop_opposite_colours: _,
        // Lowered with the moves (`FastPiece::promotion_moves`).
        promotion_moves: _,
        // Lowered by `lower_stacks` (`FastPiece::stacks`).
        stacks: _,
    } = piece;
    // `royal when` is lowered by `lower_royal_when`.
    if facing.is_some() {
        if !royal.is_royal() {
            return Err(format!("piece {name} has `facing` but is not royal"));
        }
        if castling {
            return Err("facing royal pieces with castling".into());
        }
    }
    Ok(())
}

struct Lowering<'a> {
    game: &'a Game,
    step: &'a dyn Fn(usize, Vec3) -> Option<usize>,
    directions: Vec<Direction>,
    switches: Vec<(usize, usize)>,
    conditions: Vec<FastCond>,
    /// The king directions, once a rule converts pieces or a drop condition counts enclosed ones.
    king_directions: Vec<usize>,
    /// Whether the drop condition counts enclosed pieces.
    drops_enclose: bool,
}

impl Lowering<'_> {
    /// Adds the king directions, eight in 2D and 26 in 3D, in the interpreter's order (see
    /// [`FastIr::king_directions`]).
    fn king_directions(&mut self) -> Result<(), String> {
        let mut out = Vec::new();
        for v in king_steps(self.game.dimensions) {
            out.push(self.direction(v, None)?);
        }
        self.king_directions = out;
        Ok(())
    }

    /// The index of a slide direction, limited to the cells `within` if given, adding it (and
    /// checking that bit scans can follow it).
    fn direction(&mut self, vector: Vec3, within: Option<Bits>) -> Result<usize, String> {
        if let Some(i) = self
            .directions
            .iter()
            .position(|d| d.vector == vector && d.within == within)
        {
            return Ok(i);
        }
        let cells = self.game.cells.len();
        let inside = |cell: usize| within.is_none_or(|w| w & Bits::bit(cell) != 0);
        let lines: Vec<Vec<usize>> = (0..cells)
            .map(|cell| {
                let mut line = Vec::new();
                if !inside(cell) {
                    return line;
                }
                let mut at = cell;
                while let Some(next) = (self.step)(at, vector).filter(|&n| inside(n)) {
                    line.push(next);
                    at = next;
                }
                line
            })
            .collect();
        let ascending = (0..cells)
            .find_map(|c| lines[c].first().map(|&n| n > c))
            .unwrap_or(true);
        for (cell, line) in lines.iter().enumerate() {
            let mut previous = cell;
            for &next in line {
                if (next > previous) != ascending {
                    return Err(format!("cells along {vector:?} are not in index order"));
                }
                previous = next;
            }
        }
        self.directions.push(Direction {
            vector,
            within,
            lines,
            ascending,
        });
        Ok(self.directions.len() - 1)
    }

    fn lower_moves(
        &mut self,
        piece: &Piece,
        player: usize,
        frame: &Frame,
    ) -> Result<FastMoves, String> {
        let mut out = self.lower_move_lists(piece, player, frame)?;
        let index = self
            .game
            .pieces
            .iter()
            .position(|p| std::ptr::eq(p, piece))
            .ok_or("a piece outside the game")?;
        self.lower_promotion(piece, index, player, &mut out)?;
        Ok(out)
    }

    /// The moves of a piece's `moves` lines (without its promotions).
    fn lower_move_lists(
        &mut self,
        piece: &Piece,
        player: usize,
        frame: &Frame,
    ) -> Result<FastMoves, String> {
        let cells = self.game.cells.len();
        let mut out = FastMoves {
            quiet_leaps: vec![Bits::ZERO; cells],
            capture_leaps: vec![Bits::ZERO; cells],
            attacked_from: vec![Bits::ZERO; cells],
            initial_attacked_from: vec![Bits::ZERO; cells],
            steps: vec![Vec::new(); cells],
            lame_attacks: vec![Vec::new(); cells],
            paths: vec![Vec::new(); cells],
            path_attacks: vec![Vec::new(); cells],
            ..FastMoves::default()
        };
        // A confined piece never moves out of its zone.
        let confined: Option<Vec<bool>> = piece.confined.map(|z| {
            let mut member = vec![false; cells];
            for &c in &self.game.zones[z].cells[player] {
                member[c] = true;
            }
            member
        });
        let allowed = |to: usize| confined.as_ref().is_none_or(|m| m[to]);
        // `moves ... on BOARD` starts only on those boards, and `moves_only_on BOARD` replaces the
        // piece's other lists there: each list has the cells it starts from (a step never leaves
        // its board, so the whole move stays on them).
        let board_cells = |boards: &[usize]| {
            cell_set(
                (0..cells)
                    .filter(|&c| boards.contains(&self.game.cells[c].board))
                    .collect::<Vec<_>>(),
            )
        };
        for moves in &exclusive_boards(self.game, &piece.moves) {
            let region: Option<Bits> =
                (!moves.boards.is_empty()).then(|| board_cells(&moves.boards));
            // A corridor's own forward, the same for every player, orients the moves limited to it.
            let corridor = vdl_runtime::geometry::board_frame(self.game, moves);
            let frame = corridor.as_ref().unwrap_or(frame);
            // `within ZONE`: the moves start, pass and end on the zone's cells (leaps: start and
            // end there; slides and hops along lines cut where they leave it).
            let zone: Option<Bits> = moves
                .within
                .map(|z| cell_set(&self.game.zones[z].cells[player]));
            let inside = |cell: usize| zone.is_none_or(|w| w & Bits::bit(cell) != 0);
            let on_board = |cell: usize| region.is_none_or(|r| r & Bits::bit(cell) != 0);
            // Slides and hops follow lines cut to the zone and to the boards.
            let within = match (zone, region) {
                (Some(z), Some(r)) => Some(z & r),
                (z, r) => z.or(r),
            };
            // Moves under a condition on whether the mover is in check: only quiet steps (the
            // king's initial leap of Cambodian chess), marked with it.
            // A condition on the mover's owner is decided for this player: moves whose condition
            // is then false are not his, and those whose condition is then true are plain.
            let owned = moves
                .condition
                .as_ref()
                .filter(|c| names_owner(c))
                .map(|c| fix_owner(c, player, false));
            let owned = match owned {
                Some(Cond::Const(false)) => continue,
                Some(Cond::Const(true)) => None,
                _ => moves.condition.as_ref(),
            };
            let in_check = match owned {
                None => None,
                Some(condition) => match check_condition(condition) {
                    Some(in_check) => Some(in_check),
                    None => {
                        // Other conditions: on the mover, its hurdle, the stacks and piece counts.
                        let lowered =
                            self.lower_conditional(piece, moves, condition, player, frame)?;
                        out.conditional.push(lowered);
                        continue;
                    }
                },
            };
            let before = in_check.map(|_| out.clone());
            // `from ZONE`: the moves exist only from the zone's cells (leaps only).
            let from_zone: Option<Vec<bool>> = moves.from_zone.map(|z| {
                let mut member = vec![false; cells];
                for &c in &self.game.zones[z].cells[player] {
                    member[c] = true;
                }
                member
            });
            let starts = |from: usize| {
                from_zone.as_ref().is_none_or(|m| m[from]) && inside(from) && on_board(from)
            };
            let allowed = |to: usize| allowed(to) && inside(to);
            for part in &moves.parts {
                if part.hand_on != vdl_runtime::model::HandOn::None {
                    return Err("induction or move borrowing (XBetza `x`)".into());
                }
                if part.vectors.is_empty() {
                    if part.atom != vdl_runtime::geometry::UNIVERSAL_ATOM {
                        return Err("a special move".into());
                    }
                    self.lower_universal(part, &starts, &allowed, &mut out)?;
                    continue;
                }
                if part.path != vdl_runtime::model::RiderPath::Straight {
                    if zone.is_some() || part.initial {
                        return Err("a crooked or circular rider that is initial or zoned".into());
                    }
                    let cells = Cells {
                        starts: &starts,
                        allowed: &allowed,
                    };
                    self.lower_bent(part, frame, &cells, &mut out)?;
                    continue;
                }
                if let Some(vectors) = pull_vectors(part, frame, self.game.dimensions) {
                    if within.is_some()
                        || part.initial
                        || confined.is_some()
                        || from_zone.is_some()
                        || !piece.promotions.is_empty()
                    {
                        return Err("a pull that is initial, confined, zoned or promotes".into());
                    }
                    for v in vectors {
                        let d = self.direction(v, None)?;
                        if !out.pulls.contains(&d) {
                            out.pulls.push(d);
                        }
                    }
                    continue;
                }
                if part.legs.len() >= 2 {
                    if zone.is_some() {
                        return Err("a move of several legs within a zone".into());
                    }
                    // `from ZONE` limits the start cells, `confined` the targets (as the
                    // interpreter's `emit` decides it).
                    let cells = Cells {
                        starts: &starts,
                        allowed: &allowed,
                    };
                    if is_lame_leap(part) {
                        self.lower_two_legs(part, frame, &cells, &mut out)?;
                    } else {
                        self.lower_paths(part, frame, &cells, &mut out)?;
                    }
                    continue;
                }
                let modes = part.legs[0].modes.as_str();
                if modes.chars().any(|c| !"mcenp".contains(c)) {
                    return Err(format!("the move modes `{modes}`"));
                }
                let has = |c: char| modes.contains(c);
                let explicit = has('m') || has('c') || has('e');
                let quiet = has('m') || !explicit;
                let captures = has('c') || !explicit;
                let mut vectors: Vec<Vec3> = Vec::new();
                for base in &part.vectors {
                    for v in symmetric_variants(*base, self.game.dimensions) {
                        if first_leg_selects(&part.legs[0].directions, v, frame)
                            && !vectors.contains(&v)
                        {
                            vectors.push(v);
                        }
                    }
                }
                if part.range != 1 {
                    if part.range != 0
                        || has('n')
                        || has('e')
                        || part.initial
                        || confined.is_some()
                        || from_zone.is_some()
                    {
                        return Err("a limited, lame, initial, confined or zoned slide".into());
                    }
                    for v in vectors {
                        let d = self.direction(v, within)?;
                        self.direction([-v[0], -v[1], -v[2]], within)?;
                        let (quiet_list, capture_list) = if has('p') {
                            (&mut out.quiet_hops, &mut out.capture_hops)
                        } else {
                            (&mut out.quiet_slides, &mut out.capture_slides)
                        };
                        if quiet && !quiet_list.contains(&d) {
                            quiet_list.push(d);
                        }
                        if captures && !capture_list.contains(&d) {
                            capture_list.push(d);
                        }
                    }
                    continue;
                }
                if has('p') {
                    return Err("a hopping leap".into());
                }
                let special = has('n') || part.initial;
                if special && zone.is_some() {
                    return Err("a lame or initial leap within a zone".into());
                }
                if special && has('e') {
                    return Err("an initial or lame en-passant capture".into());
                }
                if captures && part.initial && has('n') {
                    return Err("a capturing initial lame leap".into());
                }
                let ep_source = part.initial || has('n');
                for cell in (0..cells).filter(|&c| starts(c)) {
                    for &v in &vectors {
                        let Some(to) = (self.step)(cell, v).filter(|&t| allowed(t)) else {
                            continue;
                        };
                        if special {
                            let path = lame_path(v);
                            let block = if has('n') {
                                if path.len() > 1 {
                                    return Err("a lame leap of more than one step".into());
                                }
                                match path.first() {
                                    Some(&d) => Some(
                                        (self.step)(cell, d).ok_or("a lame leap off the board")?,
                                    ),
                                    None => None,
                                }
                            } else {
                                None
                            };
                            let passed = passed_cells(v);
                            let en_passant = match passed {
                                Some(1) if ep_source => (self.step)(cell, unit(v)),
                                Some(n) if ep_source && n > 1 => {
                                    return Err("an initial leap passing several cells".into())
                                }
                                _ => None,
                            };
                            if captures {
                                match block {
                                    Some(block) => out.lame_attacks[to].push((cell, block)),
                                    // An initial capturing leap attacks while the piece is unmoved.
                                    None => out.initial_attacked_from[to] |= Bits::bit(cell),
                                }
                            }
                            let step = Step {
                                to,
                                block,
                                initial: part.initial,
                                en_passant,
                                quiet,
                                capture: captures,
                                in_check: None,
                            };
                            if !out.steps[cell].contains(&step) {
                                out.steps[cell].push(step);
                            }
                            continue;
                        }
                        out.add_leap(cell, to, quiet, captures);
                        if has('e') {
                            out.en_passant_from
                                .get_or_insert_with(|| vec![Bits::ZERO; cells])[to] |=
                                Bits::bit(cell);
                        }
                    }
                }
            }
            if let Some(before) = before {
                mark_conditional_steps(&before, &mut out, in_check)?;
            }
        }
        if out.pulls.iter().any(|d| !out.capture_slides.contains(d)) {
            return Err("a pull without a capturing slide the same way".into());
        }
        Ok(out)
    }

    /// The universal leaper `U`: a leap from each start cell to every other cell of its board that
    /// the move allows (`within` its zone, `confined`), as the interpreter's `universal` walks it.
    fn lower_universal(
        &self,
        part: &vdl_runtime::model::MovePart,
        starts: &dyn Fn(usize) -> bool,
        allowed: &dyn Fn(usize) -> bool,
        out: &mut FastMoves,
    ) -> Result<(), String> {
        let modes = part.legs[0].modes.as_str();
        if part.initial || modes.chars().any(|c| !"mc".contains(c)) {
            return Err(format!(
                "the universal leaper, initial or with the modes `{modes}`"
            ));
        }
        let explicit = modes.contains('m') || modes.contains('c');
        let quiet = modes.contains('m') || !explicit;
        let captures = modes.contains('c') || !explicit;
        let cells = &self.game.cells;
        for from in (0..cells.len()).filter(|&c| starts(c)) {
            let board = cells[from].board;
            for to in (0..cells.len()).filter(|&t| t != from && cells[t].board == board) {
                if allowed(to) {
                    out.add_leap(from, to, quiet, captures);
                }
            }
        }
        Ok(())
    }

    /// A move of several legs as paths from every cell: what the interpreter's leg walker finds,
    /// with the occupancy it reads written as cells that must be empty or occupied.
    fn lower_paths(
        &mut self,
        part: &vdl_runtime::model::MovePart,
        frame: &Frame,
        cells: &Cells,
        out: &mut FastMoves,
    ) -> Result<(), String> {
        let legs = &part.legs;
        for (i, leg) in legs.iter().enumerate() {
            let allowed = if i + 1 == legs.len() { "mc" } else { "mpy" };
            if leg.modes.chars().any(|c| !allowed.contains(c)) {
                return Err(format!("a multi-leg move with the modes `{}`", leg.modes));
            }
        }
        if part.initial {
            return Err("an initial multi-leg move".into());
        }
        let dims = self.game.dimensions;
        let mut first = Vec::new();
        for base in &part.vectors {
            for v in symmetric_variants(*base, dims) {
                if first_leg_selects(&legs[0].directions, v, frame) && !first.contains(&v) {
                    first.push(v);
                }
            }
        }
        for cell in (0..self.game.cells.len()).filter(|&c| (cells.starts)(c)) {
            let mut paths = Vec::new();
            for &v in &first {
                let base = part
                    .vectors
                    .iter()
                    .copied()
                    .find(|b| same_family(*b, v))
                    .unwrap_or(part.vectors[0]);
                let walk = PathWalk {
                    part,
                    base,
                    origin: cell,
                };
                self.walk_path(
                    &walk,
                    0,
                    cell,
                    v,
                    part.range != 1,
                    0,
                    (Bits::ZERO, Bits::ZERO),
                    &mut paths,
                )?;
            }
            paths.retain(|p| (cells.allowed)(p.to));
            for path in merge_paths(paths) {
                if path.capture {
                    out.path_attacks[path.to].push((cell, path.empty, path.occupied));
                }
                out.paths[cell].push(path);
            }
        }
        Ok(())
    }

    /// A crooked or circular rider (`zB`, `qNN`) as paths from every cell: each cell of a bent
    /// path, as the interpreter's `bent_ride` walks it (both bends of every first step, up to the
    /// edge, the range or the start cell), is the target of a path whose earlier cells must be
    /// empty.
    fn lower_bent(
        &mut self,
        part: &vdl_runtime::model::MovePart,
        frame: &Frame,
        cells: &Cells,
        out: &mut FastMoves,
    ) -> Result<(), String> {
        let modes = part.legs[0].modes.as_str();
        if modes.chars().any(|c| !"mc".contains(c)) {
            return Err(format!(
                "a crooked or circular rider with the modes `{modes}`"
            ));
        }
        let quiet = modes.contains('m') || !modes.contains('c');
        let capture = modes.contains('c') || !modes.contains('m');
        let max_steps = match part.range {
            0 => usize::MAX,
            n => n as usize,
        };
        let mut first = Vec::new();
        for base in &part.vectors {
            for v in symmetric_variants(*base, self.game.dimensions) {
                if first_leg_selects(&part.legs[0].directions, v, frame) && !first.contains(&v) {
                    first.push(v);
                }
            }
        }
        for cell in (0..self.game.cells.len()).filter(|&c| (cells.starts)(c)) {
            let mut paths = Vec::new();
            for &v in &first {
                for side in [1, -1] {
                    let (mut current, mut step, mut empty): (usize, Vec3, Bits) =
                        (cell, v, Bits::ZERO);
                    for _ in 0..max_steps {
                        let Some(next) = (self.step)(current, step).filter(|&n| n != cell) else {
                            break;
                        };
                        if (cells.allowed)(next) {
                            paths.push(Path {
                                to: next,
                                empty,
                                occupied: Bits::ZERO,
                                quiet,
                                capture,
                            });
                        }
                        empty |= Bits::bit(next);
                        current = next;
                        step = bent_step(part.path, v, step, side);
                    }
                }
            }
            for path in merge_paths(paths) {
                if path.capture {
                    out.path_attacks[path.to].push((cell, path.empty, path.occupied));
                }
                out.paths[cell].push(path);
            }
        }
        Ok(())
    }

    /// One leg of [`Lowering::lower_paths`], as the interpreter's `walk` takes it, for either
    /// occupancy of every cell it reads.
    #[allow(clippy::too_many_arguments)]
    fn walk_path(
        &self,
        w: &PathWalk,
        leg: usize,
        at: usize,
        step: Vec3,
        rider: bool,
        last_side: i8,
        (mut empty, occupied): (Bits, Bits),
        out: &mut Vec<Path>,
    ) -> Result<(), String> {
        let legs = &w.part.legs;
        let modes = legs[leg].modes.as_str();
        let has = |c: char| modes.contains(c);
        let last = leg + 1 == legs.len();
        let max_steps = if rider {
            match w.part.range {
                0 | 1 => usize::MAX,
                n => n as usize,
            }
        } else {
            1
        };
        let mut current = at;
        let mut steps = 0;
        while steps < max_steps {
            steps += 1;
            let Some(next) = (self.step)(current, step) else {
                break;
            };
            // The moving piece has left its start cell: later legs see it empty.
            let origin = next == w.origin;
            let bit: Bits = Bits::bit(next);
            let may_be_empty = origin || occupied & bit == 0;
            let may_be_occupied = !origin && empty & bit == 0;
            if last {
                if origin {
                    return Err("a move back to its start cell".into());
                }
                let quiet = has('m') || !has('c');
                let capture = has('c') || !has('m');
                if may_be_empty && quiet {
                    out.push(Path {
                        to: next,
                        empty,
                        occupied,
                        quiet: true,
                        capture: false,
                    });
                }
                if may_be_occupied && capture {
                    out.push(Path {
                        to: next,
                        empty,
                        occupied,
                        quiet: false,
                        capture: true,
                    });
                }
            } else {
                let toggles = has('y');
                let hops = has('p');
                let empty_ok = has('m') || has('y') || !hops;
                let next_rider = if toggles { !rider } else { rider };
                let (candidates, straight) = continuation_candidates(w.base, self.game.dimensions);
                let directions = &legs[leg + 1].directions;
                // `z` and `q` turn relative to the move's last turn to a side.
                let mut branch = |masks: (Bits, Bits)| -> Result<(), String> {
                    for &c in &candidates {
                        if continuation_selects_after(directions, step, c, straight, last_side) {
                            let side = side_after(last_side, step, c);
                            self.walk_path(w, leg + 1, next, c, next_rider, side, masks, out)?;
                        }
                    }
                    Ok(())
                };
                if may_be_empty && empty_ok {
                    let e = if origin { empty } else { empty | bit };
                    branch((e, occupied))?;
                }
                if may_be_occupied && hops {
                    branch((empty, occupied | bit))?;
                }
            }
            if !may_be_empty {
                break;
            }
            if !origin {
                empty |= bit;
            }
            current = next;
        }
        Ok(())
    }

    /// A two-leg leap whose first leg only passes an empty cell (the xiangqi horse `mafsW`): a lame leap
    /// blocked on that cell.
    fn lower_two_legs(
        &mut self,
        part: &vdl_runtime::model::MovePart,
        frame: &Frame,
        cells: &Cells,
        out: &mut FastMoves,
    ) -> Result<(), String> {
        let (first, last) = (&part.legs[0], &part.legs[1]);
        if part.range != 1 || first.modes != "m" || last.modes.chars().any(|c| !"mc".contains(c)) {
            return Err("a two-leg move other than a lame leap".into());
        }
        let explicit = last.modes.contains('m') || last.modes.contains('c');
        let quiet = last.modes.contains('m') || !explicit;
        let capture = last.modes.contains('c') || !explicit;
        let dims = self.game.dimensions;
        for cell in (0..self.game.cells.len()).filter(|&c| (cells.starts)(c)) {
            let mut seen = Vec::new();
            for base in &part.vectors {
                let (candidates, straight) = continuation_candidates(*base, dims);
                for v in symmetric_variants(*base, dims) {
                    if !first_leg_selects(&first.directions, v, frame) {
                        continue;
                    }
                    let Some(middle) = (self.step)(cell, v) else {
                        continue;
                    };
                    for &c in &candidates {
                        if !continuation_selects(&last.directions, v, c, straight) {
                            continue;
                        }
                        let Some(to) = (self.step)(middle, c) else {
                            continue;
                        };
                        if to == cell {
                            return Err("a move back to its start cell".into());
                        }
                        if !(cells.allowed)(to) || seen.contains(&(to, middle)) {
                            continue;
                        }
                        seen.push((to, middle));
                        if capture {
                            out.lame_attacks[to].push((cell, middle));
                        }
                        let step = Step {
                            to,
                            block: Some(middle),
                            initial: false,
                            en_passant: None,
                            quiet,
                            capture,
                            in_check: None,
                        };
                        if !out.steps[cell].contains(&step) {
                            out.steps[cell].push(step);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn lower_promotion(
        &mut self,
        piece: &Piece,
        piece_index: usize,
        player: usize,
        out: &mut FastMoves,
    ) -> Result<(), String> {
        // The rules of this player's pieces: a condition on the mover's owner is decided here, and
        // a rule whose condition is then false is not one of his.
        let mut rules: Vec<(usize, vdl_runtime::model::Promotion)> = Vec::new();
        for (index, rule) in piece.promotions.iter().enumerate() {
            let mut rule = rule.clone();
            if let Some(c) = &rule.condition {
                let fixed = fix_owner(c, player, false);
                match fixed {
                    Cond::Const(false) => continue,
                    Cond::Const(true) => rule.condition = None,
                    _ if fixed == *c => {}
                    // The option switches evaluate the rule's own condition.
                    _ if options_only(&fixed) => {
                        return Err(
                            "a promotion under a condition on options and the mover's owner".into(),
                        )
                    }
                    _ => rule.condition = Some(fixed),
                }
            }
            rules.push((index, rule));
        }
        let Some((_, first)) = rules.first() else {
            return Ok(());
        };
        let dedup = |list: &[usize]| {
            let mut same = Vec::new();
            for &c in list {
                if !same.contains(&c) {
                    same.push(c);
                }
            }
            same
        };
        let zone_of = |promotion: &vdl_runtime::model::Promotion| {
            cell_set(&self.game.zones[promotion.zone].cells[player])
        };
        for (_, promotion) in &rules {
            if promotion.reserve.is_some() && self.game.reserves.len() != 1 {
                return Err("a promotion from one of several reserves".into());
            }
            if promotion.capturing && out.en_passant_from.is_some() {
                return Err("a promotion only on captures, with en passant".into());
            }
            if let Some(c) = promotion.condition.as_ref().filter(|c| !options_only(c)) {
                lower_count_cond(self.game, c)
                    .map_err(|_| "a promotion under a condition on more than piece counts")?;
            }
        }
        let choices = dedup(&first.choices);
        // A promotion to a royal type adds a royal piece, which the legality test of that choice
        // counts (rule by rule).
        let royal_choice = rules.iter().any(|(_, p)| {
            p.choices
                .iter()
                .any(|&c| self.game.pieces[c].royal.is_royal())
        });
        let uniform = !royal_choice
            && rules.iter().all(|(_, p)| {
                p.pair.is_none()
                    && p.reserve.is_none()
                    && p.condition.is_none()
                    && !p.capturing
                    && dedup(&p.choices) == choices
            });
        if uniform {
            let mut promotion = FastPromotion {
                choices,
                forced_to: Bits::ZERO,
                forced_from: Bits::ZERO,
                optional_to: Bits::ZERO,
                optional_from: Bits::ZERO,
            };
            for (_, rule) in &rules {
                let zone = zone_of(rule);
                let (to, from) = if rule.optional {
                    (&mut promotion.optional_to, &mut promotion.optional_from)
                } else {
                    (&mut promotion.forced_to, &mut promotion.forced_from)
                };
                *to |= zone;
                if rule.leaving {
                    *from |= zone;
                }
            }
            out.promotion = Some(promotion);
            return Ok(());
        }
        for &(index, ref rule) in &rules {
            let zone = zone_of(rule);
            let mut condition = None;
            let switch = match &rule.condition {
                Some(c) if !options_only(c) => {
                    let lowered = lower_count_cond(self.game, c)?;
                    condition = Some(match self.conditions.iter().position(|x| *x == lowered) {
                        Some(i) => i,
                        None => {
                            self.conditions.push(lowered);
                            self.conditions.len() - 1
                        }
                    });
                    None
                }
                Some(_) => {
                    let key = (piece_index, index);
                    Some(match self.switches.iter().position(|&s| s == key) {
                        Some(i) => i,
                        None => {
                            self.switches.push(key);
                            self.switches.len() - 1
                        }
                    })
                }
                None => None,
            };
            out.promotion_rules.push(FastPromotionRule {
                to: zone,
                from: if rule.leaving { zone } else { Bits::ZERO },
                optional: rule.optional,
                choices: rule.choices.clone(),
                pair: rule.pair.is_some(),
                switch,
                condition,
                capturing: rule.capturing,
                // The hand row of the reserve it takes the new piece from: the player's own, or
                // the shared one after the players'.
                reserve: rule.reserve.map(|r| {
                    if self.game.reserves[r].per_player {
                        player
                    } else {
                        movers_of(self.game)
                    }
                }),
            });
        }
        Ok(())
    }

    fn lower_promotion_move(
        &mut self,
        piece: &Piece,
        rule: &vdl_runtime::model::PromotionMove,
    ) -> Result<FastPromotionMove, String> {
        let game = self.game;
        for &choice in &rule.choices {
            let new = &game.pieces[choice];
            // The new piece's attacks, for `peaceful`, are its leaps (`FastMoves::capture_leaps`).
            let leaps_only = new.moves.iter().all(|m| {
                m.condition.is_none()
                    && m.parts.iter().all(|p| {
                        p.legs.len() == 1
                            && p.range == 1
                            && !p.initial
                            && !p.legs[0].modes.contains(['n', 'p', 'e'])
                    })
            });
            if new.royal.is_royal() || new.count_limit.is_some() || !leaps_only {
                return Err("`promote_move` to a royal, limited or not leaping type".into());
            }
        }
        let steps = match &rule.steps {
            None => vec![vec![Bits::ZERO; game.cells.len()]; sides_of(game)],
            Some(moves) => {
                let stepper = Piece {
                    moves: vec![moves.clone()],
                    confined: None,
                    ..piece.clone()
                };
                let mut per_player = Vec::new();
                for (player, info) in game.players.iter().enumerate().take(sides_of(game)) {
                    let frame = Frame {
                        forward: info.forward.clone(),
                    };
                    let lowered = self.lower_move_lists(&stepper, player, &frame)?;
                    per_player.push(
                        (0..game.cells.len())
                            .map(|c| lowered.quiet_leaps[c] | lowered.capture_leaps[c])
                            .collect(),
                    );
                }
                per_player
            }
        };
        let condition = rule
            .condition
            .as_ref()
            .map(|c| lower_cond(game, c, &mut Site::Mover))
            .transpose()
            .map_err(|_| "a `promote_move` condition on more than counts and the mover's zone")?;
        Ok(FastPromotionMove {
            choices: rule.choices.clone(),
            in_place: rule.in_place,
            steps,
            peaceful: rule.peaceful,
            condition,
        })
    }

    fn lower_hands(&mut self) -> Result<Option<FastHands>, String> {
        let game = self.game;
        let reserve = match game.reserves.as_slice() {
            [] => return Ok(None),
            [reserve] => reserve,
            _ => return Err("several reserves".into()),
        };
        let Reserve {
            name: _,
            per_player,
            drops,
            drop_condition,
            // Read from the start position.
            holds: _,
            captured_go_here,
            demote_promoted,
            gating,
            drop_promoted,
            no_drop_check,
            pick_ups,
            drops_virgin,
        } = reserve;
        if !per_player && (gating.is_some() || captured_go_here.is_some()) {
            return Err("a shared reserve with gating or captures going there".into());
        }
        // Drops from a shared reserve take from its row (the players' rows are empty).
        let colours = game.pieces.iter().any(|p| p.drop_opposite_colours);
        if !per_player && *drops && (colours || game.turn.must_drop.is_some()) {
            return Err(
                "drops from a shared reserve with `drop_opposite_colours` or `must_drop`".into(),
            );
        }
        if gating.is_some() && *drop_promoted {
            return Err("gating with `drop_promoted`".into());
        }
        let (mut near, mut enclosed) = (Vec::new(), false);
        let mut site = Site::Drop {
            step: self.step,
            near: &mut near,
            enclosed: &mut enclosed,
        };
        let drop_condition = drop_condition
            .as_ref()
            .map(|c| lower_cond(game, c, &mut site))
            .transpose()
            .map_err(|_| {
                "a `drops when` condition on more than piece counts, pieces held, `near(to, ...)` and `enclosed(to)`"
                    .to_string()
            })?;
        if enclosed {
            self.king_directions()?;
            self.drops_enclose = true;
        }
        let pick_ups = self.lower_pick_ups(pick_ups)?;
        let cells = game.cells.len();
        let mut hand_type = Vec::new();
        let drop_from = game
            .pieces
            .iter()
            .enumerate()
            .map(|(index, piece)| {
                piece
                    .promoted_from
                    .filter(|_| *drop_promoted)
                    .unwrap_or(index)
            })
            .collect();
        let mut drop_zones = Vec::new();
        let mut one_per_file = Vec::new();
        for (index, piece) in game.pieces.iter().enumerate() {
            let demote = piece.demote_to.or(piece.promoted_from);
            hand_type.push(demote.unwrap_or(index));
            let zone = piece.drop_zone;
            drop_zones.push(
                (0..sides_of(game))
                    .map(|player| match zone {
                        Some(z) => cell_set(&game.zones[z].cells[player]),
                        None => Bits::below(cells),
                    })
                    .collect(),
            );
            let limit = piece.drop_file_limit;
            match limit {
                None => one_per_file.push(false),
                Some(1) => one_per_file.push(true),
                Some(_) => return Err("a drop file limit other than 1".into()),
            }
        }
        let promoted_to = if *demote_promoted {
            Some(
                game.pieces
                    .iter()
                    .position(|p| p.pawn)
                    .ok_or("demote_promoted without a pawn")?,
            )
        } else {
            None
        };
        let files = (0..cells)
            .map(|c| {
                (0..cells)
                    .filter(|&o| {
                        let (a, b) = (&game.cells[o], &game.cells[c]);
                        a.board == b.board && a.coord[0] == b.coord[0]
                    })
                    .fold(Bits::ZERO, |m, o| m | Bits::bit(o))
            })
            .collect();
        let no_drop_mate: Vec<bool> = game.pieces.iter().map(|p| p.no_drop_mate).collect();
        if no_drop_mate.contains(&true) {
            // The opponent's replies are counted by the generation of one move a turn between two
            // players, without `must_capture` or passes.
            let feature = [
                (sides_of(game) != 2, "more than two players"),
                (game.turn.moves > 1, "several moves a turn"),
                (game.turn.must_capture, "`must_capture`"),
                (game.turn.pass != Pass::Never, "passes"),
                (game.turn.wall.is_some(), "walls"),
            ]
            .into_iter()
            .find_map(|(present, name)| present.then_some(name));
            if let Some(feature) = feature {
                return Err(format!("`no_drop_mate` with {feature}"));
            }
        }
        Ok(Some(FastHands {
            shared: !per_player,
            drops: *drops,
            captures_to_hand: captured_go_here.is_some(),
            receivers: (0..sides_of(game))
                .map(|player| match captured_go_here {
                    Some(CapturesTo::Partner) => game.players[player].partner.unwrap_or(player),
                    None | Some(CapturesTo::Captor) => player,
                })
                .collect(),
            hand_type,
            drop_from,
            promoted_to,
            drop_zones,
            one_per_file,
            no_drop_check: *no_drop_check,
            no_drop_mate,
            pick_ups,
            gating: gating.map(|z| {
                (0..sides_of(game))
                    .map(|player| cell_set(&game.zones[z].cells[player]))
                    .collect()
            }),
            drops_virgin: *drops_virgin,
            opposite_colours: game
                .pieces
                .iter()
                .map(|p| p.drop_opposite_colours)
                .collect(),
            colours: [0, 1].map(|k| {
                (0..cells)
                    .filter(|&c| {
                        let [x, y, z] = game.cells[c].coord;
                        ((x + y + z) & 1) as usize == k
                    })
                    .fold(Bits::ZERO, |m, c| m | Bits::bit(c))
            }),
            files,
            drop_condition,
            near,
        }))
    }

    fn lower_castle(&mut self, castle: &Castle) -> Result<FastCastle, String> {
        let king = castle.king;
        let along = castle.along.clone();
        let partners: Vec<(Vec<usize>, Vec<Vec3>)> = castle
            .partners
            .iter()
            .map(|p| (p.pieces.clone(), p.along.clone()))
            .collect();
        let partner_at = match castle.partner_at {
            PartnerAt::Edge => None,
            PartnerAt::Distance(lo, hi) => Some((lo as usize, hi as usize)),
        };
        let king_steps = castle.king_steps as usize;
        let beyond = castle.partner_to == PartnerTo::Beyond;
        let check_attacks = castle.check_attacks;
        let from: Option<Vec<Bits>> = (!castle.from.is_empty()).then(|| {
            let mut sets = vec![Bits::ZERO; sides_of(self.game)];
            for place in &castle.from {
                match place {
                    CellsOrZone::Cell(c) => sets.iter_mut().for_each(|s| *s |= Bits::bit(*c)),
                    CellsOrZone::Zone(z) => {
                        for (player, set) in sets.iter_mut().enumerate() {
                            for &c in &self.game.zones[*z].cells[player] {
                                *set |= Bits::bit(c);
                            }
                        }
                    }
                }
            }
            sets
        });
        let king = king.ok_or("castling without a king")?;
        if king_steps == 0 {
            return Err("castling without king steps".into());
        }
        let mut sides: Vec<(usize, Vec<usize>)> = Vec::new();
        for (types, dirs) in partners {
            let dirs = if dirs.is_empty() { along.clone() } else { dirs };
            for dir in dirs {
                let index = self.direction(dir, None)?;
                match sides.iter_mut().find(|(d, _)| *d == index) {
                    Some((_, list)) => list.extend(types.iter().copied()),
                    None => sides.push((index, types.clone())),
                }
            }
        }
        // Per player, the partner types of each side: a type listed under a condition along a
        // direction (and not without one there) is his partner when one of its conditions holds
        // for him, as the interpreter decides it (`partner_conditions`).
        let mut player_partners = Vec::new();
        let mut player_conditional = Vec::new();
        for player in 0..sides_of(self.game) {
            let mut per_side = Vec::new();
            let mut conditional_sides = Vec::new();
            for (direction, types) in &sides {
                let vector = self.directions[*direction].vector;
                let mut kept = Vec::new();
                let mut conditional: Vec<(usize, FastCond)> = Vec::new();
                for &t in types {
                    let lines = castle.partners.iter().filter(|p| {
                        p.pieces.contains(&t)
                            && if p.along.is_empty() {
                                along.contains(&vector)
                            } else {
                                p.along.contains(&vector)
                            }
                    });
                    let mut allowed = false;
                    let mut conditions = Vec::new();
                    for line in lines {
                        match &line.condition {
                            None => allowed = true,
                            Some(c) => match fix_owner(c, player, true) {
                                Cond::Const(b) => allowed |= b,
                                other => conditions.push(
                                    lower_count_cond(self.game, &other).map_err(|_| {
                                        "a castling partner under a condition on more than the \
                                         castling player and piece counts"
                                            .to_string()
                                    })?,
                                ),
                            },
                        }
                    }
                    if allowed {
                        if !kept.contains(&t) {
                            kept.push(t);
                        }
                    } else if !conditions.is_empty() && !conditional.iter().any(|(c, _)| *c == t) {
                        conditional.push((t, FastCond::Any(conditions)));
                    }
                }
                per_side.push(kept);
                conditional_sides.push(conditional);
            }
            player_partners.push(per_side);
            player_conditional.push(conditional_sides);
        }
        let fixed = if castle.king_lands.is_empty() && castle.partner_lands.is_empty() {
            None
        } else {
            let mut landings = Vec::new();
            for &(direction, _) in &sides {
                landings.push(self.fixed_landing(castle, direction)?);
            }
            Some(landings)
        };
        Ok(FastCastle {
            fixed,
            king,
            sides,
            partner_at,
            king_steps,
            partner_steps: if beyond {
                king_steps + 1
            } else {
                king_steps - 1
            },
            check_attacks,
            from,
            king_original: castle.requires_king(Some(Untouched::Original)),
            partner_original: castle.requires_partner(Some(Untouched::Original)),
            king_virgin: castle.requires.is_empty() || castle.requires_king(None),
            partner_virgin: castle.requires.is_empty() || castle.requires_partner(None),
            player_partners,
            player_conditional,
        })
    }
}

impl Lowering<'_> {
    /// The landing cells of castling along one direction with fixed landing cells, as the
    /// interpreter finds them (`movegen::castling`, `landing`, `line_between`).
    fn fixed_landing(&mut self, castle: &Castle, direction: usize) -> Result<FixedLanding, String> {
        let dir = self.directions[direction].vector;
        if dir.iter().any(|c| c.abs() > 1) {
            return Err("castling to fixed landing cells along a leap".into());
        }
        let back_vector = [-dir[0], -dir[1], -dir[2]];
        let back = self.direction(back_vector, None)?;
        let game = self.game;
        let step = self.step;
        let landing = |player: usize, from: usize, cells: &[CellsOrZone]| -> Option<usize> {
            let listed = |c: usize| {
                cells.iter().any(|l| match l {
                    CellsOrZone::Cell(x) => *x == c,
                    CellsOrZone::Zone(z) => game.zones[*z].cells[player].contains(&c),
                })
            };
            if listed(from) {
                return Some(from);
            }
            for d in [dir, back_vector] {
                let mut current = from;
                while let Some(next) = step(current, d) {
                    if listed(next) {
                        return Some(next);
                    }
                    current = next;
                }
            }
            None
        };
        // The cells strictly between `a` and `b` on the line, and `b`.
        let between = |a: usize, b: usize| -> Bits {
            let (ca, cb) = (game.cells[a].coord, game.cells[b].coord);
            let d = [
                (cb[0] - ca[0]).signum(),
                (cb[1] - ca[1]).signum(),
                (cb[2] - ca[2]).signum(),
            ];
            let mut out: Bits = Bits::ZERO;
            let mut current = a;
            while current != b {
                match step(current, d) {
                    Some(next) => {
                        out |= Bits::bit(next);
                        current = next;
                    }
                    None => break,
                }
            }
            out
        };
        let mut lands = Vec::new();
        for player in 0..sides_of(game) {
            let mut row = Vec::new();
            for cell in 0..game.cells.len() {
                let king_to = if castle.king_lands.is_empty() {
                    (0..castle.king_steps).try_fold(cell, |at, _| step(at, dir))
                } else {
                    landing(player, cell, &castle.king_lands)
                };
                let partner_to = king_to.and_then(|king_to| {
                    if !castle.partner_lands.is_empty() {
                        landing(player, cell, &castle.partner_lands)
                    } else if castle.partner_to == PartnerTo::Beyond {
                        step(king_to, dir)
                    } else {
                        step(king_to, back_vector)
                    }
                });
                row.push(match (king_to, partner_to) {
                    (Some(k), Some(p)) if k != p => Some((k, p, between(cell, k))),
                    _ => None,
                });
            }
            lands.push(row);
        }
        Ok(FixedLanding { back, lands })
    }
}

/// The cells a move set's moves of several legs start from (`from ZONE`) and may end on
/// (`confined`).
struct Cells<'a> {
    starts: &'a dyn Fn(usize) -> bool,
    allowed: &'a dyn Fn(usize) -> bool,
}

/// What [`Lowering::walk_path`] walks: the part, its base vector and the start cell.
struct PathWalk<'a> {
    part: &'a vdl_runtime::model::MovePart,
    base: Vec3,
    origin: usize,
}

/// The directions of a pull (`afucR`, XBetza's unload on a later leg): two unlimited rider legs,
/// the first moving over empty cells, the second going straight on and capturing with `u`; `None`
/// for any other part.
/// A piece's move lists with `moves_only_on` made explicit: every other list names the boards it
/// has, without those where a `moves_only_on` list always replaces it, and on a board where one
/// replaces it under a condition it holds while no such condition does (the interpreter's
/// `only`). The `moves_only_on` lists stay as they are.
fn exclusive_boards(
    game: &Game,
    lists: &[vdl_runtime::model::Moves],
) -> Vec<vdl_runtime::model::Moves> {
    if lists.iter().all(|m| !m.exclusive) {
        return lists.to_vec();
    }
    let mut out = Vec::new();
    for moves in lists {
        if moves.exclusive {
            out.push(moves.clone());
            continue;
        }
        // Per board of the list, the conditions of the `moves_only_on` lists there (`None`: one
        // holds always); boards with the same conditions make one list.
        let mut groups: Vec<(Vec<Cond>, Vec<usize>)> = Vec::new();
        for board in 0..game.boards.len() {
            if !moves.boards.is_empty() && !moves.boards.contains(&board) {
                continue;
            }
            let over: Option<Vec<Cond>> = lists
                .iter()
                .filter(|m| m.exclusive && m.boards.contains(&board))
                .map(|m| m.condition.clone())
                .collect();
            let Some(over) = over else { continue };
            match groups.iter_mut().find(|(c, _)| *c == over) {
                Some((_, boards)) => boards.push(board),
                None => groups.push((over, vec![board])),
            }
        }
        for (over, boards) in groups {
            let boards = if boards.len() == game.boards.len() {
                Vec::new()
            } else {
                boards
            };
            let condition = if over.is_empty() {
                moves.condition.clone()
            } else {
                let unless = Cond::Not(Box::new(Cond::Any(over)));
                Some(match &moves.condition {
                    Some(c) => Cond::All(vec![c.clone(), unless]),
                    None => unless,
                })
            };
            out.push(vdl_runtime::model::Moves {
                boards,
                condition,
                ..moves.clone()
            });
        }
    }
    out
}

fn pull_vectors(
    part: &vdl_runtime::model::MovePart,
    frame: &Frame,
    dimensions: usize,
) -> Option<Vec<Vec3>> {
    let [first, second] = part.legs.as_slice() else {
        return None;
    };
    let mut modes: Vec<char> = second.modes.chars().collect();
    modes.sort_unstable();
    if part.range != 0 || !matches!(first.modes.as_str(), "" | "m") || modes != ['c', 'u'] {
        return None;
    }
    let mut vectors = Vec::new();
    for base in &part.vectors {
        let (candidates, straight) = continuation_candidates(*base, dimensions);
        for v in symmetric_variants(*base, dimensions) {
            if !first_leg_selects(&first.directions, v, frame) || vectors.contains(&v) {
                continue;
            }
            // The second leg goes straight on, and only straight on.
            let on: Vec<&Vec3> = candidates
                .iter()
                .filter(|&&c| continuation_selects(&second.directions, v, c, straight))
                .collect();
            if on != [&v] {
                return None;
            }
            vectors.push(v);
        }
    }
    Some(vectors)
}

/// Whether a two-leg part is a lame leap: a first step onto an empty cell, then one more step.
fn is_lame_leap(part: &vdl_runtime::model::MovePart) -> bool {
    let (first, last) = (&part.legs[0], &part.legs[part.legs.len() - 1]);
    part.legs.len() == 2
        && part.range == 1
        && first.modes == "m"
        && last.modes.chars().all(|c| "mc".contains(c))
}

/// Whether a first-leg vector belongs to a base atom's family (same absolute components).
fn same_family(base: Vec3, v: Vec3) -> bool {
    let mut a = base.map(i32::abs);
    let mut b = v.map(i32::abs);
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Paths without repeats, and with pairs that differ only in whether one cell is empty or
/// occupied joined into one that does not read the cell.
fn merge_paths(mut paths: Vec<Path>) -> Vec<Path> {
    loop {
        let mut joined = false;
        'outer: for i in 0..paths.len() {
            for j in 0..paths.len() {
                let (a, b) = (paths[i], paths[j]);
                if i == j || a.to != b.to || a.quiet != b.quiet || a.capture != b.capture {
                    continue;
                }
                let moved = a.empty & !b.empty;
                if moved.count_ones() == 1
                    && b.empty == a.empty & !moved
                    && b.occupied == a.occupied | moved
                {
                    paths[i].empty &= !moved;
                    paths.remove(j);
                    joined = true;
                    break 'outer;
                }
            }
        }
        if !joined {
            break;
        }
    }
    let mut unique: Vec<Path> = Vec::new();
    for path in paths {
        if !unique.contains(&path) {
            unique.push(path);
        }
    }
    unique
}

/// For a straight leap, the number of cells it passes over.
fn passed_cells(v: Vec3) -> Option<usize> {
    let steps = v.iter().map(|c| c.abs()).max().unwrap_or(0);
    let straight = v.iter().all(|&c| c == 0 || c.abs() == steps);
    (straight && steps >= 1).then_some(steps as usize - 1)
}

fn unit(v: Vec3) -> Vec3 {
    v.map(i32::signum)
}

// Stacks and moves under conditions on the mover, its hurdle and the stacks.

/// A stacking rule of a piece type (`stacks BETZA onto PIECES when COND`): one step onto a piece of
/// the `onto` types, of either owner, that is not under a stack already; that piece then stands
/// under the mover, which alone moves (leaving the stack frees the piece below).
#[derive(Clone, Debug, PartialEq)]
pub struct FastStack {
    /// Per player, per cell: the cells one of its steps reaches.
    pub steps: Vec<Vec<Bits>>,
    /// The types it climbs onto.
    pub onto: Vec<usize>,
    /// When it may, with `own` the mover's owner and the mover on `from`.
    pub condition: Option<MoveCond>,
}

/// A merger move (`merge BETZA onto PIECES into PIECE in ZONE`): one step onto a piece of the
/// mover's own of the listed types; the two become one piece of the `into` type, moved and not
/// promoted, and the move restarts the move rule's count.
#[derive(Clone, Debug, PartialEq)]
pub struct FastMerge {
    /// Per player, per cell: the cells one of its steps reaches, in the zone for that player.
    pub steps: Vec<Vec<Bits>>,
    /// The types it merges with.
    pub onto: Vec<usize>,
    /// The type the two become.
    pub into: usize,
    /// When it may, with `own` the mover's owner and the mover on `from`.
    pub condition: Option<MoveCond>,
}

/// The moves of one `moves ... when COND` line: quiet leaps and quiet paths, each move listed when
/// the condition holds (for a path naming the `hurdle`, with the one cell it hops as the hurdle).
#[derive(Clone, Debug, PartialEq)]
pub struct FastConditional {
    /// The condition, with `own` the mover's owner and the mover on `from`.
    pub condition: MoveCond,
    /// Per cell: targets on empty cells by plain leaps.
    pub quiet_leaps: Vec<Bits>,
    /// Per cell: quiet paths (each with exactly one cell that must be occupied, the hurdle, when
    /// the condition names it).
    pub paths: Vec<Vec<Path>>,
    /// Quiet cannon hops (direction indices): slides beyond the first occupied cell, the hurdle,
    /// to the empty cells before the next one.
    pub quiet_hops: Vec<usize>,
    /// Capturing cannon hops (direction indices): the first occupied cell beyond the hurdle, under
    /// a condition on the hurdle, or on piece counts that no move of the other player changes.
    pub capture_hops: Vec<usize>,
    /// Per cell: targets of capturing plain leaps (under a condition that no move of the other
    /// player changes, [`stable_attack_condition`]).
    pub capture_leaps: Vec<Bits>,
    /// Per target cell: the cells those leaps attack it from.
    pub attacked_from: Vec<Bits>,
}

/// A condition on a move, compiled to tests on the position: the mover (on `from`), the piece it
/// hops (`hurdle`), the stacks and piece counts.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveCond {
    /// A constant.
    Const(bool),
    /// Negation.
    Not(Box<MoveCond>),
    /// All of them.
    All(Vec<MoveCond>),
    /// Any of them.
    Any(Vec<MoveCond>),
    /// The mover is the top piece of a stack (`mover.stacked`).
    MoverStacked,
    /// The hurdle is the top piece of a stack (`hurdle.stacked`).
    HurdleStacked,
    /// The hurdle is of one of these types (`hurdle.piece == T`, `hurdle.piece in [...]`).
    HurdleType(Vec<usize>),
    /// The hurdle belongs to this player (`hurdle.owner == mover.owner`, ...).
    HurdleOwner(FastOwners),
    /// A comparison.
    Compare(Compare, MoveInt, MoveInt),
    /// A number within a range (inclusive).
    Between(MoveInt, i64, i64),
    /// A player is out of the game (`eliminated(P)`: the mover's owner or one player), in games
    /// where checkmates eliminate.
    Eliminated(FastOwners),
    /// The mover stands on one of these cells (`mover.cell == CELL`, `mover.board == BOARD`).
    MoverOn(Bits),
    /// The mover's cell is attacked by the enemy (`attacked(mover)`, two players).
    MoverAttacked,
}

/// A number in a [`MoveCond`].
#[derive(Clone, Debug, PartialEq)]
pub enum MoveInt {
    /// A sum.
    Add(Box<MoveInt>, Box<MoveInt>),
    /// A difference.
    Sub(Box<MoveInt>, Box<MoveInt>),
    /// The stacks whose top piece a player owns (`stack_count(P)`).
    StackCount(FastOwners),
    /// A constant or a count of pieces (top pieces only).
    Count(FastInt),
}

impl MoveCond {
    /// Whether one of its tests holds `leaf`, or one of the numbers it compares holds `number`.
    fn reads(&self, leaf: &dyn Fn(&MoveCond) -> bool, number: &dyn Fn(&MoveInt) -> bool) -> bool {
        match self {
            MoveCond::Not(c) => c.reads(leaf, number),
            MoveCond::All(cs) | MoveCond::Any(cs) => cs.iter().any(|c| c.reads(leaf, number)),
            MoveCond::Compare(_, a, b) => number(a) || number(b),
            MoveCond::Between(n, ..) => number(n),
            other => leaf(other),
        }
    }

    /// Whether it names the piece the move hops (`hurdle`).
    pub fn names_hurdle(&self) -> bool {
        self.reads(
            &|c| {
                matches!(
                    c,
                    MoveCond::HurdleStacked | MoveCond::HurdleType(_) | MoveCond::HurdleOwner(_)
                )
            },
            &|_| false,
        )
    }

    /// Whether it reads only numbers of pieces (on the board, in hand, of stacks) and who is out:
    /// nothing of the piece it is about, so that it has one value in a position.
    pub fn counts_only(&self) -> bool {
        !self.reads(
            &|c| !matches!(c, MoveCond::Const(_) | MoveCond::Eliminated(_)),
            &|n| n.any(&|n| matches!(n, MoveInt::Count(c) if reads_piece(c))),
        )
    }

    /// Whether it reads whether the mover has waited (`mover.waited`).
    pub fn reads_waited(&self) -> bool {
        self.reads(&|_| false, &|n| {
            n.any(&|n| matches!(n, MoveInt::Count(FastInt::Waited)))
        })
    }

    /// Whether it reads the stacks (`stacked`, `stack_count`).
    pub fn names_stacks(&self) -> bool {
        self.reads(
            &|c| matches!(c, MoveCond::MoverStacked | MoveCond::HurdleStacked),
            &|n| n.any(&|n| matches!(n, MoveInt::StackCount(_))),
        )
    }

    /// Whether it names the opponent or both players (which with more than two players the
    /// compact form does not tell apart).
    pub fn names_opponent(&self) -> bool {
        let owners = |o: &FastOwners| matches!(o, FastOwners::Opponent | FastOwners::Both);
        self.reads(
            &|c| match c {
                MoveCond::HurdleOwner(o) | MoveCond::Eliminated(o) => owners(o),
                _ => false,
            },
            &|n| {
                n.any(&|n| match n {
                    MoveInt::StackCount(o) => owners(o),
                    MoveInt::Count(n) => int_names_opponent(n),
                    MoveInt::Add(..) | MoveInt::Sub(..) => false,
                })
            },
        )
    }
}

impl MoveInt {
    /// Whether it or one of its terms holds `f`.
    fn any(&self, f: &dyn Fn(&MoveInt) -> bool) -> bool {
        match self {
            MoveInt::Add(a, b) | MoveInt::Sub(a, b) => a.any(f) || b.any(f),
            other => f(other),
        }
    }
}

/// Whether a number reads the piece or the cell it is about (`mover.waited`, `enclosed(to)`).
fn reads_piece(n: &FastInt) -> bool {
    match n {
        FastInt::Add(a, b) | FastInt::Sub(a, b) => reads_piece(a) || reads_piece(b),
        FastInt::Waited | FastInt::Enclosed => true,
        FastInt::Const(_) | FastInt::Count { .. } | FastInt::Held { .. } => false,
    }
}

/// Whether the position needs its stacks: some piece stacks, or a condition of moves reads the
/// stacks (which the position text may then hold).
fn uses_stacks(pieces: &[FastPiece]) -> bool {
    pieces.iter().any(|p| {
        !p.stacks.is_empty()
            || p.players
                .iter()
                .flat_map(|m| &m.conditional)
                .any(|c| c.condition.names_stacks())
    })
}

/// The player a move condition names, seen from the mover's owner (`own`); the side to move is
/// the mover's owner in the compact form (no `movable_by`).
fn mover_side(p: &PlayerExpr) -> Option<FastOwners> {
    match p {
        PlayerExpr::Own | PlayerExpr::ToMove | PlayerExpr::OwnerOf(PieceRef::Mover) => {
            Some(FastOwners::Own)
        }
        PlayerExpr::Opponent => Some(FastOwners::Opponent),
        PlayerExpr::Literal(p) => Some(FastOwners::Player(*p)),
        _ => None,
    }
}

/// Whether a condition of capturing moves reads only what the other player's moves leave alone, in
/// a game of two: the number of all the enemy's pieces (the other player's, seen from the piece's
/// owner), in games where a move never adds, merges, hides or removes one of the mover's own
/// pieces (no drops, mergers, stacks, triggered rules, custodian capture or `captures any`).
fn stable_attack_condition(game: &Game, c: &MoveCond) -> bool {
    let all: Vec<usize> = (0..game.pieces.len()).collect();
    fn int(n: &MoveInt, all: &[usize]) -> bool {
        match n {
            MoveInt::Add(a, b) | MoveInt::Sub(a, b) => int(a, all) && int(b, all),
            MoveInt::Count(FastInt::Const(_)) => true,
            MoveInt::Count(FastInt::Count {
                owners: FastOwners::Opponent,
                pieces,
                zone: None,
            }) => {
                let mut types = pieces.clone();
                types.sort_unstable();
                types == all
            }
            MoveInt::Count(_) | MoveInt::StackCount(_) => false,
        }
    }
    fn cond(c: &MoveCond, all: &[usize]) -> bool {
        match c {
            MoveCond::Const(_) => true,
            MoveCond::Not(c) => cond(c, all),
            MoveCond::All(cs) | MoveCond::Any(cs) => cs.iter().all(|c| cond(c, all)),
            MoveCond::Compare(_, a, b) => int(a, all) && int(b, all),
            MoveCond::Between(n, ..) => int(n, all),
            _ => false,
        }
    }
    let game_fits = sides_of(game) == 2
        && game.reserves.iter().all(|r| !r.drops)
        && game
            .pieces
            .iter()
            .all(|p| p.merges.is_empty() && p.stacks.is_empty())
        && game.rules.is_empty()
        && game.custodian.is_none()
        && game.captures != vdl_runtime::model::CaptureScope::Any;
    game_fits && cond(c, &all)
}

/// The condition of a one-step rule's moves (stacking, mergers), which has no hurdle; `what` names
/// the moves in the refusal.
fn step_rule_cond(
    game: &Game,
    moves: &vdl_runtime::model::Moves,
    what: &str,
) -> Result<Option<MoveCond>, String> {
    let condition = moves
        .condition
        .as_ref()
        .map(|c| lower_move_cond(game, c))
        .transpose()?;
    if condition.as_ref().is_some_and(MoveCond::names_hurdle) {
        return Err(format!("{what} under a condition on a hurdle"));
    }
    Ok(condition)
}

/// `A == B` about where the mover stands: its cell or its board.
fn mover_place(game: &Game, a: &Value, b: &Value) -> Option<MoveCond> {
    let cells: Vec<usize> = match (a, b) {
        (Value::Cell(CellExpr::Of(PieceRef::Mover)), Value::Cell(CellExpr::Literal(c))) => {
            vec![*c]
        }
        (Value::Board(BoardExpr::Of(PieceRef::Mover)), Value::Board(BoardExpr::Literal(b))) => (0
            ..game.cells.len())
            .filter(|&c| game.cells[c].board == *b)
            .collect(),
        _ => return None,
    };
    Some(MoveCond::MoverOn(cell_set(cells)))
}

/// `A == B` about the hurdle: its type or its owner.
fn hurdle_equal(a: &Value, b: &Value) -> Option<MoveCond> {
    match (a, b) {
        (
            Value::Piece(PieceTypeExpr::TypeOf(PieceRef::Hurdle)),
            Value::Piece(PieceTypeExpr::Literal(t)),
        ) => Some(MoveCond::HurdleType(vec![*t])),
        (Value::Player(PlayerExpr::OwnerOf(PieceRef::Hurdle)), Value::Player(p)) => {
            mover_side(p).map(MoveCond::HurdleOwner)
        }
        _ => None,
    }
}

/// A condition of moves or of a stacking rule, or why the compact form cannot test it.
fn lower_move_cond(game: &Game, cond: &Cond) -> Result<MoveCond, String> {
    let refuse = |what: &str| format!("moves under a condition on {what}");
    Ok(match cond {
        Cond::Const(b) => MoveCond::Const(*b),
        Cond::Not(c) => MoveCond::Not(Box::new(lower_move_cond(game, c)?)),
        Cond::All(cs) => MoveCond::All(
            cs.iter()
                .map(|c| lower_move_cond(game, c))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Any(cs) => MoveCond::Any(
            cs.iter()
                .map(|c| lower_move_cond(game, c))
                .collect::<Result<_, _>>()?,
        ),
        Cond::Stacked(PieceRef::Mover) => MoveCond::MoverStacked,
        Cond::Stacked(PieceRef::Hurdle) => MoveCond::HurdleStacked,
        Cond::Equal(a, b) => hurdle_equal(a, b)
            .or_else(|| hurdle_equal(b, a))
            .or_else(|| mover_place(game, a, b))
            .or_else(|| mover_place(game, b, a))
            .ok_or_else(|| refuse("values other than the hurdle's type and owner"))?,
        Cond::Member(Value::Piece(PieceTypeExpr::TypeOf(PieceRef::Hurdle)), list) => {
            let types = list
                .iter()
                .map(|v| match v {
                    Value::Piece(PieceTypeExpr::Literal(t)) => Some(*t),
                    _ => None,
                })
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| refuse("the hurdle's type in a list of more than types"))?;
            MoveCond::HurdleType(types)
        }
        Cond::Compare(op, a, b) => {
            MoveCond::Compare(*op, lower_move_int(game, a)?, lower_move_int(game, b)?)
        }
        Cond::Between(n, lo, hi) => MoveCond::Between(lower_move_int(game, n)?, *lo, *hi),
        Cond::Stacked(PieceRef::Captured) => return Err(refuse("`captured.stacked`")),
        Cond::Member(..) => return Err(refuse("membership other than the hurdle's type")),
        Cond::OptionIs(..) => return Err(refuse("option values")),
        Cond::InCheck(_) => return Err(refuse("`in_check` combined with other tests")),
        Cond::Attacked(
            CellExpr::Of(PieceRef::Mover),
            Sides::Enemies | Sides::One(PlayerExpr::Opponent),
        ) if sides_of(game) == 2 => MoveCond::MoverAttacked,
        Cond::Attacked(..) => return Err(refuse("`attacked` of more than the mover by the enemy")),
        Cond::InZone(..) => return Err(refuse("`in` a zone")),
        Cond::HasMoved(_) => return Err(refuse("`has_moved`")),
        Cond::Empty(_) => return Err(refuse("`empty`")),
        Cond::Adjacent(..) => return Err(refuse("`adjacent`")),
        // Nobody is ever out of a game whose checkmates do not eliminate.
        Cond::Eliminated(_) if !eliminates(game) => MoveCond::Const(false),
        Cond::Eliminated(p) => match mover_side(p) {
            Some(owner @ (FastOwners::Own | FastOwners::Player(_))) => MoveCond::Eliminated(owner),
            _ => {
                return Err(refuse(
                    "`eliminated` of a player other than the mover's owner or one named",
                ))
            }
        },
        Cond::Near { .. } => return Err(refuse("`near`")),
    })
}

fn lower_move_int(game: &Game, int: &IntExpr) -> Result<MoveInt, String> {
    Ok(match int {
        IntExpr::StackCount(p) => MoveInt::StackCount(
            mover_side(p).ok_or("moves under a condition on the stacks of a piece's owner")?,
        ),
        IntExpr::Add(a, b) => MoveInt::Add(
            Box::new(lower_move_int(game, a)?),
            Box::new(lower_move_int(game, b)?),
        ),
        IntExpr::Sub(a, b) => MoveInt::Sub(
            Box::new(lower_move_int(game, a)?),
            Box::new(lower_move_int(game, b)?),
        ),
        IntExpr::Waited(PieceRef::Mover) => MoveInt::Count(FastInt::Waited),
        other => MoveInt::Count(
            lower_count_int(game, other, &mut Site::Counts).map_err(|_| {
                "moves under a condition on numbers other than piece and stack counts".to_string()
            })?,
        ),
    })
}

impl Lowering<'_> {
    /// The `pick_up` lines of the reserve, or why the compact form cannot play them.
    fn lower_pick_ups(
        &self,
        lines: &[vdl_runtime::model::PickUp],
    ) -> Result<Vec<FastPickUp>, String> {
        let game = self.game;
        if lines.is_empty() {
            return Ok(Vec::new());
        }
        let feature = [
            (sides_of(game) != 2, "more than two players"),
            (game.turn.must_capture, "`must_capture`"),
            (game.turn.wall.is_some(), "walls"),
            (!game.turn.freeze.is_empty(), "freezing"),
            (game.pieces.iter().any(|p| !p.stacks.is_empty()), "stacks"),
            (!game.rules.is_empty(), "triggered rules"),
        ]
        .into_iter()
        .find_map(|(present, name)| present.then_some(name));
        if let Some(feature) = feature {
            return Err(format!("pick-up moves with {feature}"));
        }
        lines
            .iter()
            .map(|line| {
                // `all` is every type that is not royal (as the interpreter reads it).
                let royal = |t: usize| game.pieces[t].royal.is_royal();
                let pieces = (0..game.pieces.len())
                    .filter(|&t| match &line.pieces {
                        PieceSet::All => !royal(t),
                        set => set.contains(t, royal),
                    })
                    .collect();
                let from = line.from.map(|z| {
                    (0..sides_of(game))
                        .map(|p| cell_set(&game.zones[z].cells[p]))
                        .collect()
                });
                let condition = line
                    .condition
                    .as_ref()
                    .map(|c| lower_move_cond(game, c))
                    .transpose()
                    .map_err(|e| format!("pick-up moves: {e}"))?;
                if condition.as_ref().is_some_and(MoveCond::names_hurdle) {
                    return Err("pick-up moves under a condition on a hurdle".into());
                }
                Ok(FastPickUp {
                    pieces,
                    from,
                    condition,
                })
            })
            .collect()
    }

    /// The moves of one `moves ... when COND` line whose condition is not about check: quiet leaps
    /// and quiet paths only.
    fn lower_conditional(
        &mut self,
        piece: &Piece,
        moves: &vdl_runtime::model::Moves,
        condition: &Cond,
        player: usize,
        frame: &Frame,
    ) -> Result<FastConditional, String> {
        let condition = lower_move_cond(self.game, condition)?;
        let plain = Piece {
            moves: vec![vdl_runtime::model::Moves {
                condition: None,
                ..moves.clone()
            }],
            ..piece.clone()
        };
        let lowered = self.lower_move_lists(&plain, player, frame)?;
        let FastMoves {
            quiet_leaps,
            capture_leaps,
            attacked_from,
            initial_attacked_from,
            en_passant_from,
            quiet_slides,
            capture_slides,
            quiet_hops,
            capture_hops,
            pulls,
            lame_attacks,
            steps,
            paths,
            path_attacks,
            promotion,
            promotion_rules,
            conditional,
        } = lowered;
        // Capturing leaps attack under the condition: only under one the other player's moves
        // cannot change, so that the legality test may read it before the move.
        // Without royal pieces no legality test reads attacks before a move, and attack tests
        // decide a condition on piece counts on the position they look at.
        let captures = capture_leaps.iter().any(|&b| b != 0);
        let royals = self.game.pieces.iter().any(|p| p.royal.is_royal());
        let stable = stable_attack_condition(self.game, &condition)
            || (!royals && condition.counts_only());
        if captures && !stable {
            return Err(
                "moves that capture under a condition other than on the enemy's piece count".into(),
            );
        }
        // Capturing hops attack over a hurdle the condition is tested on where the attack is
        // looked for: on the position, in games without royal pieces (the legality test looks at
        // the position after a move through its occupancy, not its pieces' types).
        let hurdle_only = !condition.reads(
            &|c| {
                !matches!(
                    c,
                    MoveCond::Const(_)
                        | MoveCond::HurdleType(_)
                        | MoveCond::HurdleOwner(_)
                        | MoveCond::HurdleStacked
                )
            },
            &|_| true,
        );
        if !capture_hops.is_empty() && !(stable || (hurdle_only && !royals)) {
            return Err(
                "hops that capture under a condition other than on the enemy's piece count, or \
                 on the hurdle in a game without royal pieces"
                    .into(),
            );
        }
        let quiet_only = initial_attacked_from.iter().all(|&b| b == 0)
            && en_passant_from.is_none()
            && quiet_slides.is_empty()
            && capture_slides.is_empty()
            && pulls.is_empty()
            && lame_attacks.iter().all(Vec::is_empty)
            && steps.iter().all(Vec::is_empty)
            && path_attacks.iter().all(Vec::is_empty)
            && paths.iter().flatten().all(|p| p.quiet && !p.capture)
            && promotion.is_none()
            && promotion_rules.is_empty()
            && conditional.is_empty();
        if !quiet_only {
            return Err(
                "moves under a condition other than plain leaps, quiet paths and cannon hops"
                    .into(),
            );
        }
        // Only cannon hops: the hurdle is each one's screen.
        let screens = !(quiet_hops.is_empty() && capture_hops.is_empty())
            && quiet_leaps.iter().all(|&b| b == 0)
            && paths.iter().all(Vec::is_empty);
        if condition.names_hurdle() && !screens {
            // The hurdle is then the one cell the move hops: a cannon hop's screen, or, one step a
            // leg, the cell of the one leg that
            // only hops (a leg that may hop or pass an empty cell leaves the hurdle to the board).
            let one_hop = moves.parts.iter().all(|part| {
                let (last, earlier) = part.legs.split_last().expect("a move has a leg");
                part.range == 1
                    && !last.modes.contains('p')
                    && !last.modes.contains('y')
                    && earlier.iter().filter(|l| l.modes == "p").count() == 1
                    && earlier.iter().all(|l| {
                        l.modes == "p" || !(l.modes.contains('p') || l.modes.contains('y'))
                    })
            });
            if !one_hop {
                return Err("a condition on the hurdle of a move other than one hop".into());
            }
            if quiet_leaps.iter().any(|&b| b != 0) {
                return Err("a condition on the hurdle of a move that hops nothing".into());
            }
            if paths.iter().flatten().any(|p| p.occupied.count_ones() != 1) {
                return Err("a condition on the hurdle of a move that hops several cells".into());
            }
        }
        if captures && condition.names_hurdle() {
            return Err("a condition on the hurdle of a capturing leap".into());
        }
        Ok(FastConditional {
            condition,
            quiet_leaps,
            paths,
            quiet_hops,
            capture_hops,
            capture_leaps,
            attacked_from,
        })
    }

    /// A piece's stacking rules (`stacks`), as the interpreter prepares them: per player, the
    /// first-leg steps of its parts.
    fn lower_merges(&mut self, piece: &Piece) -> Result<Vec<FastMerge>, String> {
        if piece.merges.len() > 1 {
            // Their moves may repeat one another.
            return Err("several `merge` lines".into());
        }
        let mut out = Vec::new();
        for merge in &piece.merges {
            let condition = step_rule_cond(self.game, &merge.moves, "a merger move")?;
            let game = self.game;
            let royal = |t: &usize| game.pieces[*t].royal.is_royal();
            if piece.royal.is_royal() || royal(&merge.into) || merge.onto.iter().any(royal) {
                // The legality test follows neither a royal piece that moves onto another nor
                // a new one.
                return Err("a merger move of, onto or into a royal piece".into());
            }
            let mut steps = Vec::new();
            for (player, info) in game.players.iter().enumerate().take(sides_of(game)) {
                let frame = Frame {
                    forward: info.forward.clone(),
                };
                let zone = merge.zone.map(|z| cell_set(&game.zones[z].cells[player]));
                let mut vectors: Vec<Vec3> = Vec::new();
                for part in &merge.moves.parts {
                    for base in &part.vectors {
                        for v in symmetric_variants(*base, game.dimensions) {
                            if first_leg_selects(&part.legs[0].directions, v, &frame)
                                && !vectors.contains(&v)
                            {
                                vectors.push(v);
                            }
                        }
                    }
                }
                steps.push(
                    (0..game.cells.len())
                        .map(|cell| {
                            let reach = vectors
                                .iter()
                                .filter_map(|&v| (self.step)(cell, v))
                                .fold(Bits::ZERO, |m, c| m | Bits::bit(c));
                            zone.map_or(reach, |z| reach & z)
                        })
                        .collect(),
                );
            }
            let mut onto = merge.onto.clone();
            onto.sort_unstable();
            onto.dedup();
            out.push(FastMerge {
                steps,
                onto,
                into: merge.into,
                condition,
            });
        }
        Ok(out)
    }

    fn lower_stacks(&mut self, piece: &Piece) -> Result<Vec<FastStack>, String> {
        if piece.stacks.len() > 1 {
            // Their moves may repeat one another, which the interpreter lists twice.
            return Err("several `stacks` lines".into());
        }
        let mut out = Vec::new();
        for stack in &piece.stacks {
            let condition = step_rule_cond(self.game, &stack.moves, "a stacking move")?;
            let mut steps = Vec::new();
            for info in self.game.players.iter().take(sides_of(self.game)) {
                let frame = Frame {
                    forward: info.forward.clone(),
                };
                let mut vectors: Vec<Vec3> = Vec::new();
                for part in &stack.moves.parts {
                    for base in &part.vectors {
                        for v in symmetric_variants(*base, self.game.dimensions) {
                            if first_leg_selects(&part.legs[0].directions, v, &frame)
                                && !vectors.contains(&v)
                            {
                                vectors.push(v);
                            }
                        }
                    }
                }
                steps.push(
                    (0..self.game.cells.len())
                        .map(|cell| {
                            vectors
                                .iter()
                                .filter_map(|&v| (self.step)(cell, v))
                                .fold(Bits::ZERO, |m, c| m | Bits::bit(c))
                        })
                        .collect(),
                );
            }
            let mut onto = stack.onto.clone();
            onto.sort_unstable();
            onto.dedup();
            out.push(FastStack {
                steps,
                onto,
                condition,
            });
        }
        Ok(out)
    }
}

/// The features the compact form does not implement together with stacks or with moves under
/// conditions on the mover, its hurdle and the stacks.
fn check_stacking(game: &Game, pieces: &[FastPiece], royals: &[usize]) -> Result<(), String> {
    let stacking = uses_stacks(pieces);
    let conditional = pieces
        .iter()
        .any(|p| p.players.iter().any(|m| !m.conditional.is_empty()));
    if conditional && game.turn.wall.is_some() {
        return Err(
            "moves under a condition on the mover, its hurdle or the stacks, with walls".into(),
        );
    }
    if !stacking {
        return Ok(());
    }
    let moves =
        |test: &dyn Fn(&FastMoves) -> bool| pieces.iter().any(|p| p.players.iter().any(test));
    let en_passant = moves(&|m| {
        m.en_passant_from.is_some() || m.steps.iter().flatten().any(|s| s.en_passant.is_some())
    });
    let feature = [
        (!royals.is_empty(), "a royal piece"),
        (!game.reserves.is_empty(), "hands"),
        (
            game.pieces
                .iter()
                .any(|p| !p.promotions.is_empty() || !p.promotion_moves.is_empty()),
            "promotions",
        ),
        (!game.castling.is_empty(), "castling"),
        (en_passant, "en passant"),
        (moves(&|m| !m.pulls.is_empty()), "pulls"),
        (!game.rules.is_empty(), "triggered rules"),
        (game.turn.wall.is_some(), "walls"),
        (game.turn.must_capture, "`must_capture`"),
        (game.turn.forbid_checks, "`forbid_checks`"),
        (game.turn.pass != Pass::Never, "passes"),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!("stacking moves with {feature}")),
        None => Ok(()),
    }
}

/// Custodian capture in the compact form. After a move of a piece on the board (not a drop, a
/// castling or a pass) the interpreter looks from the arrival cell along each `along` direction:
/// `enclose` lines catch a run of units closed by another of the mover's units (or the edge, with
/// `edge_jaw`), `corner` lines a unit next to the arrival cell, on a corner cell, whose every
/// neighbour along those directions is the mover's. Everything caught is removed at once; with
/// `remove top` a stack loses only its top piece.
#[derive(Clone, Debug, PartialEq)]
pub struct FastCustodian {
    /// Per `along` direction, per cell, the next cell along it.
    pub steps: Vec<Vec<Option<usize>>>,
    /// The `enclose` lines that can catch something, in file order.
    pub enclose: Vec<FastEnclose>,
    /// The `corner` lines, in file order.
    pub corners: Vec<FastCorner>,
    /// Per cell, the cells one `along` step away from it.
    pub around: Vec<Bits>,
    /// `remove top`: a captured stack loses only its top piece.
    pub top_only: bool,
    /// `edge_jaw`: the board's edge closes a run of enemy units.
    pub edge_jaw: bool,
}

/// An `enclose` line of [`FastCustodian`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastEnclose {
    /// Whether the run is of the mover's own units (caught at exactly `min` units, when the next
    /// unit is the mover's too) rather than the opponent's.
    pub friend: bool,
    /// Fewest units in the run (at least one).
    pub min: usize,
    /// Most units in the run (at least `min`).
    pub max: usize,
}

/// A `corner` line of [`FastCustodian`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastCorner {
    /// The corner cells, per player (the zone as the mover sees it).
    pub cells: [Bits; 2],
    /// Whether enemy units are caught.
    pub enemy: bool,
    /// Whether the mover's own units are caught.
    pub friend: bool,
}

/// The game's custodian capture, or why the compact form does not implement it with the rest of
/// the game.
fn lower_custodian(
    game: &Game,
    step: &dyn Fn(usize, Vec3) -> Option<usize>,
    royals: &[usize],
    explodes: bool,
    stacking: bool,
) -> Result<Option<FastCustodian>, String> {
    let Some(rule) = &game.custodian else {
        return Ok(None);
    };
    let vdl_runtime::model::Custodian {
        along,
        enclose,
        corners,
        top_only,
        edge_jaw,
    } = rule;
    // The legality tests follow neither the pieces removed after the move nor walls, which the
    // interpreter counts as enemy units.
    let feature = [
        (!royals.is_empty(), "a royal piece"),
        (explodes, "captures that explode"),
        (game.turn.wall.is_some(), "walls"),
        // Under `remove unit` the piece below a caught stack goes too: a second victim, which the
        // compact form does not put into a hand or count.
        (
            stacking
                && !top_only
                && (game.reserves.iter().any(|r| r.captured_go_here.is_some())
                    || game
                        .end
                        .iter()
                        .any(|r| matches!(r.kind, EndKind::Captures(..)))),
            "stacks under `remove unit`, and captures going to a hand or counted",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    if let Some(feature) = feature {
        return Err(format!("custodian capture with {feature}"));
    }
    let cells = game.cells.len();
    let steps: Vec<Vec<Option<usize>>> = along
        .iter()
        .map(|&v| (0..cells).map(|c| step(c, v)).collect())
        .collect();
    let around = (0..cells)
        .map(|c| {
            steps
                .iter()
                .filter_map(|s| s[c])
                .fold(Bits::ZERO, |m: Bits, n| m | Bits::bit(n))
        })
        .collect();
    // A run of enemy units is caught only when it has one at least; a friendly run of none
    // catches nothing, nor does a line whose longest run is shorter than its shortest.
    let enclose = enclose
        .iter()
        .map(|e| FastEnclose {
            friend: e.friend,
            min: if e.friend { e.min } else { e.min.max(1) },
            max: e.max,
        })
        .filter(|e| e.min >= 1 && e.min <= e.max)
        .collect();
    let corners = corners
        .iter()
        .map(|c| FastCorner {
            cells: [0, 1].map(|p| game.zones[c.zone].cells.get(p).map_or(Bits::ZERO, cell_set)),
            enemy: c.enemy,
            friend: c.friend,
        })
        .collect();
    Ok(Some(FastCustodian {
        steps,
        enclose,
        corners,
        around,
        top_only: *top_only,
        edge_jaw: *edge_jaw,
    }))
}
