//! Compact engines: the fast form the compiler emits for games that fit its profile (boards of at
//! most 511 cells in all, two players or more, leaps, slides, pawn-like moves, castling, promotions). The
//! generated code owns a bitboard position and its move generation, make and legality; this module
//! turns it into a [`Variant`], converting to and from the interpreter's position only on cold paths:
//! reading and writing text, and deciding outcomes beyond "no legal move".

use std::fmt;

mod bits;
mod tables;
pub use bits::{Wide, MAX_WORDS};
pub use tables::{box_steps, step_table, NO_STEP};

use crate::interp::{Move, MoveKind, Occupant, Position, MAX_PLAYERS};
use crate::search::{Capture, Evaluator, MaterialEvaluator};
use crate::variant::{GameResult, MoveFacts, TextError, Variant};
use crate::Interpreter;

/// The marker for "no cell" in compact moves.
pub const NO_CELL: u8 = u8::MAX;

/// The marker for "no cell" in the cell tables of engines whose board has more than 255 cells
/// (their cells are `u16`; [`CompactMove::cell`]).
pub const NO_WIDE_CELL: u16 = u16::MAX;

/// The most cells a compact engine's board may have: cells are written in a byte of a
/// [`CompactMove`] and one bit of its `high` byte, and one value of those nine bits is "no cell".
pub const MAX_CELLS: usize = 511;

/// A cell field of a [`CompactMove`], for [`CompactMove::cell`] and [`CompactMove::with_cell`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum CellField {
    /// `from`.
    From,
    /// `to`.
    To,
    /// `aux`.
    Aux,
    /// `aux2`.
    Aux2,
    /// `gate_cell`.
    GateCell,
    /// `wall`.
    Wall,
}

/// How a compact move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CompactKind {
    /// A piece moves from `from` to `to`, capturing what stands there.
    Normal,
    /// A double step: a normal move that leaves an en-passant right on `aux`.
    DoubleStep,
    /// An en-passant capture of the piece on `aux`.
    EnPassant,
    /// Castling: the king from `from` to `to`, its partner from `aux` to `aux2`.
    Castle,
    /// A piece from the hand put on `to`.
    Drop,
    /// A pair promotion: a normal move promoting to `piece`, which also puts a piece of the new
    /// type on `from`.
    Pair,
    /// A pass (`turn { pass allowed }`): nothing moves; `from` and `to` are the cell it is written
    /// with (the royal piece's, or the first cell).
    Pass,
    /// A promotion that is a move of its own (`promote_move`): the piece on `from` becomes `piece`
    /// on `to`, its own cell or an empty one; it captures nothing.
    Promote,
    /// An unload (XBetza `u`, the tug's pull): a normal move whose captured piece is put down on
    /// `aux2` instead of leaving the board.
    Unload,
    /// A stacking move (`stacks`): the piece on `from`, not the top of a stack, climbs onto the
    /// piece on `to`, which stays under it.
    Stack,
    /// A normal move of the top piece of a stack: it leaves the stack, and the piece below stands
    /// free on `from` again.
    Unstack,
    /// A stacking move of the top piece of a stack: it leaves its stack (freeing the piece below
    /// on `from`) and climbs onto the piece on `to`.
    Restack,
    /// A merger move (`merge`): the piece on `from` steps onto a piece of its owner's on `to`,
    /// and the two become one piece of type `piece`.
    Merge,
    /// A pick-up (`pick_up`): the piece on `from` (of type `piece`) goes into its owner's hand.
    PickUp,
}

impl CompactKind {
    /// Whether the move leaves a stack (the mover was the top piece of one on `from`): the
    /// interpreter's "unpin" of `freeze after unpin`.
    #[inline]
    pub fn leaves_stack(self) -> bool {
        matches!(self, CompactKind::Unstack | CompactKind::Restack)
    }

    /// Whether the move climbs onto the piece on `to` (a stacking move).
    #[inline]
    pub fn stacks(self) -> bool {
        matches!(self, CompactKind::Stack | CompactKind::Restack)
    }
}

/// A move of a compact engine: ten bytes, `Copy`. On boards of up to 255 cells a cell field is
/// the cell (or [`NO_CELL`]) and `high` is 0; on larger boards each cell field holds the low byte
/// of its cell and `high` one more bit ([`CompactMove::cell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompactMove {
    /// How it is played.
    pub kind: CompactKind,
    /// The start cell (for drops, the target).
    pub from: u8,
    /// The target cell.
    pub to: u8,
    /// The promotion or dropped piece type plus one; 0 for none.
    pub piece: u8,
    /// The en-passant cell, the captured pawn's cell or the castling partner's start; `NO_CELL` if unused.
    pub aux: u8,
    /// The castling partner's target, or the cell an unloaded piece is put down on; `NO_CELL` if
    /// unused.
    pub aux2: u8,
    /// The type gated from the hand plus one (gating); 0 for none.
    pub gate: u8,
    /// The cell the gated piece is put on; `NO_CELL` if unused.
    pub gate_cell: u8,
    /// The cell the move's wall is put on (`turn { wall ... }`); `NO_CELL` if none.
    pub wall: u8,
    /// The ninth bit of each cell field on boards of more than 255 cells, bit `k` for the
    /// [`CellField`] `k`; 0 on smaller boards.
    pub high: u8,
}

impl CompactMove {
    /// A plain move, promoting to `piece` (plus one) when not 0.
    #[inline]
    pub fn normal(from: usize, to: usize, piece: u8) -> CompactMove {
        CompactMove {
            kind: CompactKind::Normal,
            from: from as u8,
            to: to as u8,
            piece,
            aux: NO_CELL,
            aux2: NO_CELL,
            gate: 0,
            gate_cell: NO_CELL,
            wall: NO_CELL,
            high: 0,
        }
    }

    /// A plain move on a board of more than 255 cells, promoting to `piece` (plus one) when not 0.
    #[inline]
    pub fn wide(from: usize, to: usize, piece: u8) -> CompactMove {
        CompactMove::normal(0, 0, piece)
            .with_cell(CellField::From, from as u16)
            .with_cell(CellField::To, to as u16)
    }

    /// A cell field: the cell, or [`NO_WIDE_CELL`] for none. Cells 0 to 254 are the field's byte
    /// with the high bit clear, 255 is the byte 255 with the high bit set, and cells 256 to 510 are
    /// 256 plus the byte with the high bit set; the byte 255 with the high bit clear is no cell
    /// (so moves of boards of up to 255 cells read the same in both forms).
    #[inline]
    pub fn cell(self, field: CellField) -> u16 {
        let low = match field {
            CellField::From => self.from,
            CellField::To => self.to,
            CellField::Aux => self.aux,
            CellField::Aux2 => self.aux2,
            CellField::GateCell => self.gate_cell,
            CellField::Wall => self.wall,
        };
        match (low, self.high >> field as u8 & 1 != 0) {
            (NO_CELL, false) => NO_WIDE_CELL,
            (low, false) => low as u16,
            (NO_CELL, true) => 255,
            (low, true) => 256 + low as u16,
        }
    }

    /// The move with a cell field set to `cell` ([`NO_WIDE_CELL`] for none), as
    /// [`CompactMove::cell`] reads it.
    #[inline]
    pub fn with_cell(mut self, field: CellField, cell: u16) -> CompactMove {
        let (low, high) = match cell {
            NO_WIDE_CELL => (NO_CELL, false),
            0..=254 => (cell as u8, false),
            255 => (NO_CELL, true),
            _ => ((cell - 256) as u8, true),
        };
        let slot = match field {
            CellField::From => &mut self.from,
            CellField::To => &mut self.to,
            CellField::Aux => &mut self.aux,
            CellField::Aux2 => &mut self.aux2,
            CellField::GateCell => &mut self.gate_cell,
            CellField::Wall => &mut self.wall,
        };
        *slot = low;
        let bit = 1 << field as u8;
        self.high = if high {
            self.high | bit
        } else {
            self.high & !bit
        };
        self
    }

    /// The compact form of an interpreter move of a game in the compact form. Whether the move
    /// leaves a stack depends on the position, which the move does not tell: a stacking move is
    /// [`CompactKind::Stack`], any other a kind that leaves no stack.
    pub fn from_interpreter(mv: Move) -> CompactMove {
        let kind = match mv.kind {
            MoveKind::Drop => CompactKind::Drop,
            MoveKind::Pass => CompactKind::Pass,
            MoveKind::Castle => CompactKind::Castle,
            MoveKind::PickUp => CompactKind::PickUp,
            _ if mv.stack => CompactKind::Stack,
            _ if mv.merge => CompactKind::Merge,
            _ if mv.aux2 != Move::NONE => CompactKind::Unload,
            _ if mv.pair => CompactKind::Pair,
            _ if mv.peaceful => CompactKind::Promote,
            _ if mv.aux != Move::NONE => CompactKind::EnPassant,
            _ if mv.ep_source => CompactKind::DoubleStep,
            _ => CompactKind::Normal,
        };
        let cell = |c: u16| if c == Move::NONE { NO_WIDE_CELL } else { c };
        CompactMove {
            kind,
            gate: mv.gate,
            ..CompactMove::normal(0, 0, mv.piece)
        }
        .with_cell(CellField::From, mv.from)
        .with_cell(CellField::To, mv.to)
        .with_cell(CellField::Aux, cell(mv.aux))
        .with_cell(CellField::Aux2, cell(mv.aux2))
        .with_cell(CellField::GateCell, cell(mv.gate_cell))
        .with_cell(CellField::Wall, cell(mv.wall))
    }

    /// The same move in the interpreter's terms.
    pub fn to_interpreter(self) -> Move {
        let cell = |field: CellField| match self.cell(field) {
            NO_WIDE_CELL => Move::NONE,
            c => c,
        };
        let base = Move {
            piece: self.piece,
            gate: self.gate,
            gate_cell: cell(CellField::GateCell),
            wall: cell(CellField::Wall),
            ..Move::normal(cell(CellField::From) as usize, cell(CellField::To) as usize)
        };
        match self.kind {
            CompactKind::Normal | CompactKind::Unstack => base,
            CompactKind::Stack | CompactKind::Restack => Move {
                stack: true,
                ..base
            },
            CompactKind::DoubleStep => Move {
                ep_source: true,
                ..base
            },
            CompactKind::EnPassant => Move {
                aux: cell(CellField::Aux),
                ..base
            },
            CompactKind::Castle => Move {
                kind: MoveKind::Castle,
                aux: cell(CellField::Aux),
                aux2: cell(CellField::Aux2),
                ..base
            },
            CompactKind::Drop => Move {
                kind: MoveKind::Drop,
                ..base
            },
            CompactKind::Pair => Move { pair: true, ..base },
            CompactKind::Merge => Move {
                merge: true,
                ..base
            },
            CompactKind::Pass => Move {
                kind: MoveKind::Pass,
                ..base
            },
            CompactKind::PickUp => Move {
                kind: MoveKind::PickUp,
                ..base
            },
            CompactKind::Promote => Move {
                peaceful: true,
                ..base
            },
            CompactKind::Unload => Move {
                aux2: cell(CellField::Aux2),
                ..base
            },
        }
    }
}

/// Who is out of a game that goes on after a checkmate (the interpreter's `Position` fields of the
/// same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Elimination {
    /// The eliminated players, one bit each.
    pub eliminated: u32,
    /// Per player, how many players were in the game when he dropped out.
    pub dropped_among: [u8; MAX_PLAYERS],
    /// Per player, who checkmated him, plus one (0: nobody).
    pub mated_by: [u8; MAX_PLAYERS],
}

/// The side to move and the counters of a compact position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompactState {
    /// The player to move.
    pub side: usize,
    /// The en-passant right: (cell that may be landed on, cell of the piece captured).
    pub en_passant: Option<(usize, usize)>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number.
    pub fullmove: u32,
    /// The last move played, if known.
    pub last: Option<CompactMove>,
}

/// What the compiler emits for a game in the compact form: its position, move generation and make.
pub trait CompactGame: Send + Sync {
    /// The compact position (copied to take a move back).
    type Position: Clone + fmt::Debug;

    /// An empty board, first player to move.
    fn empty(&self) -> Self::Position;
    /// Puts a piece on an empty cell (the hash is refreshed by [`CompactGame::refresh_hash`]).
    fn put(&self, position: &mut Self::Position, cell: usize, occupant: Occupant);
    /// What stands on a cell.
    fn occupant(&self, position: &Self::Position, cell: usize) -> Occupant;
    /// Sets the side to move, en-passant right and counters.
    fn set_state(&self, position: &mut Self::Position, state: CompactState);
    /// The side to move, en-passant right and counters.
    fn state(&self, position: &Self::Position) -> CompactState;

    /// Every en-passant right, the latest first, in games whose rights last until their owner's
    /// next turn (`en_passant_expires owner_turn`: one per player); `None` when the right of
    /// [`CompactGame::state`] is the only one.
    fn en_passant_rights(&self, _position: &Self::Position) -> Option<Vec<(usize, usize)>> {
        None
    }

    /// In games that go on after a checkmate: whether the start of the turn of the side to move
    /// has something to play (he attacks another player's royal piece under `checkmate_test
    /// attacked_at_turn_start`, or he is checkmated), which the interpreter then plays.
    fn turn_start_pending(&self, _position: &Self::Position) -> bool {
        false
    }

    /// In games that go on after a checkmate: the eliminated players (one bit each), and per player
    /// how many players were in the game when he dropped out and who checkmated him (plus one).
    fn elimination(&self, _position: &Self::Position) -> Option<Elimination> {
        None
    }

    /// Sets what [`CompactGame::elimination`] reads.
    fn set_elimination(&self, _position: &mut Self::Position, _state: &Elimination) {}

    /// Sets the rights [`CompactGame::en_passant_rights`] lists: (target, victim).
    fn set_en_passant_rights(&self, _position: &mut Self::Position, _rights: &[(usize, usize)]) {}
    /// Sets how many pieces of a type a player holds in hand.
    fn set_hand(&self, position: &mut Self::Position, player: usize, piece: usize, count: u8);
    /// How many pieces of a type a player holds in hand.
    fn hand(&self, position: &Self::Position, player: usize, piece: usize) -> u8;
    /// The checks each player has given, in games that count them (a `checks` end rule).
    fn checks(&self, _position: &Self::Position) -> [u32; 2] {
        [0; 2]
    }
    /// Sets the checks each player has given (the hash is refreshed by
    /// [`CompactGame::refresh_hash`]).
    fn set_checks(&self, _position: &mut Self::Position, _checks: [u32; 2]) {}
    /// The passes made in a row up to the position, in games with passing (not part of the hash,
    /// as in the interpreter).
    fn passes(&self, _position: &Self::Position) -> u32 {
        0
    }
    /// Sets the passes made in a row.
    fn set_passes(&self, _position: &mut Self::Position, _passes: u32) {}
    /// The stacks: per stacked cell, in cell order, the piece under its top piece (games with
    /// stacking moves).
    fn stacks(&self, _position: &Self::Position) -> Vec<(usize, Occupant)> {
        Vec::new()
    }
    /// Puts a piece under the piece on `cell`, making it a stack (the hash is refreshed by
    /// [`CompactGame::refresh_hash`]). Games without stacking moves have no stacks and ignore it.
    fn put_below(&self, _position: &mut Self::Position, _cell: usize, _occupant: Occupant) {}
    /// In games of several single moves per turn: the single moves made in the current turn, and
    /// whether one of them removed a piece or moved a pawn (the turn then restarts the half-move
    /// counter).
    fn turn(&self, _position: &Self::Position) -> (u32, bool) {
        (0, false)
    }
    /// Sets the single moves made in the current turn and whether one of them restarts the
    /// half-move counter (the hash is refreshed by [`CompactGame::refresh_hash`]).
    fn set_turn(&self, _position: &mut Self::Position, _moves: u32, _resets: bool) {}
    /// In games with a counting rule: its count while it runs (as `Position::count`).
    fn count(&self, _position: &Self::Position) -> Option<[u16; 3]> {
        None
    }

    /// Sets the counting rule's count (not part of the hash).
    fn set_count(&self, _position: &mut Self::Position, _count: Option<[u16; 3]>) {}

    /// In games that count captures: the enemy pieces of a type a player has captured by his own
    /// moves.
    fn captures(&self, _position: &Self::Position, _player: usize, _piece: usize) -> u32 {
        0
    }
    /// Sets a capture counter (the hash is refreshed by [`CompactGame::refresh_hash`]).
    fn set_captures(&self, _position: &mut Self::Position, _player: usize, _piece: usize, _n: u32) {
    }
    /// Recomputes the hash from scratch and stores it.
    fn refresh_hash(&self, position: &mut Self::Position);
    /// The incrementally kept hash.
    fn hash(&self, position: &Self::Position) -> u64;

    /// Appends the legal moves (the caller has checked that the game is not over).
    fn legal_moves(&self, position: &Self::Position, moves: &mut Vec<CompactMove>);
    /// Counts the legal moves without listing them.
    fn count_legal_moves(&self, position: &Self::Position) -> u64;
    /// Plays a legal move.
    fn make(&self, position: &mut Self::Position, mv: CompactMove);
    /// Tells whether an end rule other than checkmate and stalemate might hold (a cheap test; the
    /// interpreter then decides).
    fn may_have_ended(&self, position: &Self::Position) -> bool;
    /// Tells whether the side to move has a royal piece under attack.
    fn in_check(&self, _position: &Self::Position) -> bool {
        false
    }
    /// The promotion rules whose condition depends on option values only, as (piece type, rule
    /// index): the engine holds one switch for each.
    fn switches(&self) -> &'static [(usize, usize)] {
        &[]
    }
    /// Sets the switches of [`CompactGame::switches`], in their order.
    fn set_switches(&mut self, _values: &[bool]) {}
    /// The conditions of triggered rules that depend on option values only, as (rule index,
    /// condition index): the engine holds one switch for each.
    fn rule_switches(&self) -> &'static [(usize, usize)] {
        &[]
    }
    /// Sets the switches of [`CompactGame::rule_switches`], in their order.
    fn set_rule_switches(&mut self, _values: &[bool]) {}
    /// Whether the game has a reserve shared by the players: its counts are the hand row after the
    /// players' ([`CompactGame::set_hand`] and [`CompactGame::hand`] with the number of players).
    fn shared_reserve(&self) -> bool {
        false
    }
    /// The occupied cells with their occupants (the evaluation reads them; generated code walks
    /// its bitboards).
    fn pieces<'a>(
        &'a self,
        position: &'a Self::Position,
    ) -> impl Iterator<Item = (usize, Occupant)> + 'a;
}

/// A compiled game in the compact form, with the interpreter for text and outcomes.
#[derive(Clone, Debug)]
pub struct Compiled<G> {
    /// The generated code.
    pub game: G,
    /// The interpreter of the same game, for the cold paths.
    pub interpreter: Interpreter,
    /// The occurrences that end the game by an automatic `repetition N` rule, if it has one.
    repetition: Option<usize>,
    /// The fewest single moves after which an automatic `move_limit N` rule may end the game (its
    /// condition aside), if it has one.
    move_limit: Option<usize>,
    /// The fewest occurrences of a position at which an automatic `perpetual_check N` rule may end
    /// the game (its condition aside), if it has one.
    perpetual: Option<usize>,
    /// Whether positions keep, per move played, who moved and whether he gave check (the game has
    /// a `perpetual_check` rule, automatic or claimed, between two players moving once a turn).
    tracks_checks: bool,
}

/// A position of a compact engine: the generated position and the hashes of the positions played
/// before it, oldest first (for repetition).
#[derive(Clone, Debug)]
pub struct CompactPosition<P> {
    /// The generated position.
    pub board: P,
    /// The hashes of the earlier positions of the game.
    pub history: Vec<u64>,
    /// Per move played, `(mover << 1) | gave_check`, when the engine tracks checks (as the
    /// interpreter's `Position::check_history`); else empty.
    pub checks: Vec<u8>,
}

impl<P> CompactPosition<P> {
    /// A position without a history.
    pub fn new(board: P) -> CompactPosition<P> {
        CompactPosition {
            board,
            history: Vec::new(),
            checks: Vec::new(),
        }
    }
}

impl<G: CompactGame> Compiled<G> {
    /// The players who take turns (the neutral sides aside).
    pub fn players(&self) -> usize {
        let game = &self.interpreter.game;
        game.players.iter().filter(|p| !p.neutral).count().max(1)
    }

    /// Pairs generated code with the interpreter of its game.
    pub fn new(game: G, interpreter: Interpreter) -> Compiled<G> {
        use crate::model::EndKind;
        // The counts of the game's automatic end rules of one kind.
        let counts = |count: fn(&EndKind) -> Option<u32>| {
            let end = &interpreter.game.end;
            end.iter()
                .filter(|r| r.automatic)
                .filter_map(move |r| count(&r.kind))
                .map(|n| n as usize)
        };
        let repetition = counts(|k| match k {
            EndKind::Repetition(n) => Some(*n),
            _ => None,
        })
        .next();
        let move_limit = counts(|k| match k {
            EndKind::MoveLimit(n) => Some(*n),
            _ => None,
        })
        .min();
        let perpetual = counts(|k| match k {
            EndKind::PerpetualCheck(n) => Some(*n),
            _ => None,
        })
        .min();
        let game_model = &interpreter.game;
        let tracks_checks = game_model
            .end
            .iter()
            .any(|r| matches!(r.kind, EndKind::PerpetualCheck(_)))
            && game_model.players.iter().filter(|p| !p.neutral).count() == 2
            && game_model.turn.moves <= 1;
        let mut compiled = Compiled {
            game,
            interpreter,
            repetition,
            move_limit,
            perpetual,
            tracks_checks,
        };
        compiled.refresh_switches();
        compiled
    }

    /// Sets the generated code's option switches from the interpreter's option values.
    fn refresh_switches(&mut self) {
        let values: Vec<bool> = self
            .game
            .switches()
            .iter()
            .map(|&(piece, rule)| self.interpreter.promotion_enabled(piece, rule))
            .collect();
        if !values.is_empty() {
            self.game.set_switches(&values);
        }
        let values: Vec<bool> = self
            .game
            .rule_switches()
            .iter()
            .map(|&(rule, condition)| self.interpreter.rule_condition_enabled(rule, condition))
            .collect();
        if !values.is_empty() {
            self.game.set_rule_switches(&values);
        }
    }

    /// How often the position occurred before (its hash among the earlier ones).
    fn occurrences_before(&self, position: &CompactPosition<G::Position>) -> usize {
        let hash = self.game.hash(&position.board);
        position.history.iter().filter(|&&h| h == hash).count()
    }

    /// The interpreter's form of a compact position with its history: the earlier positions equal
    /// to this one carry its interpreter hash, the others a different one.
    fn to_interpreter_with_history(&self, position: &CompactPosition<G::Position>) -> Position {
        let mut reference = self.to_interpreter(&position.board);
        let hash = self.game.hash(&position.board);
        let other = !reference.hash;
        reference.history = position
            .history
            .iter()
            .map(|&h| if h == hash { reference.hash } else { other })
            .collect();
        if self.tracks_checks {
            reference.check_history.clone_from(&position.checks);
        }
        reference
    }

    /// The compact form of an interpreter position.
    pub fn from_interpreter(&self, position: &Position) -> G::Position {
        let mut compact = self.game.empty();
        for (cell, &occupant) in position.cells.iter().enumerate() {
            if !occupant.is_empty() {
                self.game.put(&mut compact, cell, occupant);
            }
        }
        for &(cell, below) in &position.stacks {
            self.game.put_below(&mut compact, cell, below);
        }
        let players = self.players();
        let rows = players + usize::from(self.game.shared_reserve());
        for (player, hand) in position.hands.iter().enumerate().take(rows) {
            for (piece, &count) in hand.iter().enumerate() {
                if count > 0 {
                    self.game.set_hand(&mut compact, player, piece, count);
                }
            }
        }
        let state = CompactState {
            side: position.side,
            en_passant: position.en_passant.first().copied(),
            halfmove: position.halfmove,
            fullmove: position.fullmove,
            last: position.last.map(CompactMove::from_interpreter),
        };
        self.game.set_state(&mut compact, state);
        self.game
            .set_en_passant_rights(&mut compact, &position.en_passant);
        self.game.set_elimination(
            &mut compact,
            &Elimination {
                eliminated: position.eliminated,
                dropped_among: position.dropped_among,
                mated_by: position.mated_by,
            },
        );
        self.game
            .set_checks(&mut compact, [position.checks[0], position.checks[1]]);
        self.game.set_passes(&mut compact, position.passes);
        self.game.set_count(&mut compact, position.count);
        self.game
            .set_turn(&mut compact, position.turn_moves, position.reset_in_turn);
        let pieces = self.interpreter.game.pieces.len();
        for player in 0..players.min(2) {
            for piece in 0..pieces {
                let count = position.captured_count(player, piece, pieces);
                if count > 0 {
                    self.game.set_captures(&mut compact, player, piece, count);
                }
            }
        }
        self.game.refresh_hash(&mut compact);
        compact
    }

    /// The interpreter's form of a compact position (without the history of earlier positions).
    pub fn to_interpreter(&self, compact: &G::Position) -> Position {
        let game = &self.interpreter.game;
        let players = self.players();
        let mut position = Position::empty(game.cells.len(), game.pieces.len(), players);
        for (cell, occupant) in position.cells.iter_mut().enumerate() {
            *occupant = self.game.occupant(compact, cell);
        }
        position.stacks = self.game.stacks(compact);
        let rows = players + usize::from(self.game.shared_reserve());
        for (player, hand) in position.hands.iter_mut().enumerate().take(rows) {
            for (piece, count) in hand.iter_mut().enumerate() {
                *count = self.game.hand(compact, player, piece);
            }
        }
        let state = self.game.state(compact);
        position.side = state.side;
        position.en_passant = match self.game.en_passant_rights(compact) {
            Some(rights) => rights,
            None => state.en_passant.into_iter().collect(),
        };
        position.halfmove = state.halfmove;
        position.fullmove = state.fullmove;
        position.last = state.last.map(CompactMove::to_interpreter);
        position.checks[..2].copy_from_slice(&self.game.checks(compact));
        position.passes = self.game.passes(compact);
        position.count = self.game.count(compact);
        if let Some(state) = self.game.elimination(compact) {
            position.eliminated = state.eliminated;
            position.dropped_among = state.dropped_among;
            position.mated_by = state.mated_by;
        }
        (position.turn_moves, position.reset_in_turn) = self.game.turn(compact);
        let pieces = game.pieces.len();
        let mut counted = vec![0; game.players.len() * pieces];
        for (i, count) in counted.iter_mut().take(2 * pieces).enumerate() {
            *count = self.game.captures(compact, i / pieces, i % pieces);
        }
        // The interpreter's counters stay empty until a capture is counted.
        if counted.iter().any(|&n| n > 0) {
            position.captured = counted;
        }
        position.hash = self.interpreter.compute_hash(&position);
        position
    }

    /// Tells whether the game has ended by a rule other than checkmate or stalemate.
    fn has_ended_early(&self, position: &CompactPosition<G::Position>) -> bool {
        // A perpetual check needs its position to recur as often.
        let repeated = self
            .repetition
            .into_iter()
            .chain(self.perpetual)
            .min()
            .is_some_and(|n| self.occurrences_before(position) + 1 >= n);
        // The moves played are the positions before them (as the interpreter counts them).
        let limited = self.move_limit.is_some_and(|n| position.history.len() >= n);
        (repeated || limited || self.game.may_have_ended(&position.board))
            && self
                .interpreter
                .immediate_outcome(&self.to_interpreter_with_history(position))
                .is_some()
    }
}

impl<G: CompactGame> Variant for Compiled<G> {
    type Position = CompactPosition<G::Position>;
    type Move = CompactMove;
    type Undo = G::Position;

    fn start(&self) -> CompactPosition<G::Position> {
        CompactPosition::new(self.from_interpreter(&self.interpreter.start()))
    }

    fn legal_moves(&self, position: &mut Self::Position, moves: &mut Vec<CompactMove>) {
        if !self.has_ended_early(position) {
            self.game.legal_moves(&position.board, moves);
        }
    }

    fn count_legal_moves(&self, position: &mut Self::Position) -> u64 {
        if self.has_ended_early(position) {
            0
        } else {
            self.game.count_legal_moves(&position.board)
        }
    }

    fn has_legal_move(&self, position: &mut Self::Position) -> bool {
        self.count_legal_moves(position) > 0
    }

    fn in_check(&self, position: &mut Self::Position) -> bool {
        self.game.in_check(&position.board)
    }

    /// Only positions since the last capture or pawn move can recur; the half-move counter counts
    /// turns, each of up to `moves` single moves.
    fn repeats(&self, position: &Self::Position) -> bool {
        let hash = self.game.hash(&position.board);
        let per_turn = self.interpreter.game.turn.moves.max(1) as usize;
        let since = (self.game.state(&position.board).halfmove as usize + 1) * per_turn
            + self.game.turn(&position.board).0 as usize;
        let recent = position.history.len().min(since);
        position.history[position.history.len() - recent..].contains(&hash)
    }

    /// A pass: the other side to move, no en-passant right; none in games of more than two
    /// players, of several single moves per turn or with frozen pieces, as in the interpreter.
    fn make_null(&self, position: &mut Self::Position) -> Option<G::Position> {
        let turn = &self.interpreter.game.turn;
        if turn.moves > 1 || !turn.freeze.is_empty() || self.players() > 2 {
            return None;
        }
        let board = &mut position.board;
        let undo = board.clone();
        position.history.push(self.game.hash(board));
        let mut state = self.game.state(board);
        if self.tracks_checks {
            position.checks.push((state.side as u8) << 1);
        }
        state.side = 1 - state.side.min(1);
        state.en_passant = None;
        state.halfmove += 1;
        state.last = None;
        self.game.set_state(board, state);
        // The interpreter's null move is no pass of the game: it ends a row of passes.
        self.game.set_passes(board, 0);
        self.game.refresh_hash(board);
        Some(undo)
    }

    fn unmake_null(&self, position: &mut Self::Position, undo: G::Position) {
        position.board = undo;
        position.history.pop();
        if self.tracks_checks {
            position.checks.pop();
        }
    }

    fn make(&self, position: &mut Self::Position, mv: CompactMove) -> G::Position {
        let undo = position.board.clone();
        position.history.push(self.game.hash(&position.board));
        // Read only when checks are kept, to spare `state` on every other make.
        let mover = self
            .tracks_checks
            .then(|| self.game.state(&position.board).side);
        self.game.make(&mut position.board, mv);
        if let Some(mover) = mover {
            // Two players, one move a turn: the opponent now moves, in check when the move gave it.
            let gave_check = self.game.in_check(&position.board);
            position
                .checks
                .push(((mover as u8) << 1) | u8::from(gave_check));
        }
        if self.game.turn_start_pending(&position.board) {
            // A checkmate at the turn's start: the interpreter plays what it does.
            let mut reference = self.to_interpreter(&position.board);
            self.interpreter.play_turn_start(&mut reference);
            position.board = self.from_interpreter(&reference);
        }
        undo
    }

    fn unmake(&self, position: &mut Self::Position, _mv: CompactMove, undo: G::Position) {
        position.board = undo;
        position.history.pop();
        if self.tracks_checks {
            position.checks.pop();
        }
    }

    fn outcome(&self, position: &mut Self::Position) -> Option<GameResult> {
        self.interpreter
            .outcome(&mut self.to_interpreter_with_history(position))
    }

    fn partner(&self, player: usize) -> Option<usize> {
        self.interpreter.partner(player)
    }

    fn hash(&self, position: &Self::Position) -> u64 {
        self.game.hash(&position.board)
    }

    fn full_hash(&self, position: &Self::Position) -> u64 {
        let mut copy = position.board.clone();
        self.game.refresh_hash(&mut copy);
        self.game.hash(&copy)
    }

    fn parse_position(&self, text: &str) -> Result<Self::Position, TextError> {
        Ok(CompactPosition::new(
            self.from_interpreter(&self.interpreter.parse_position(text)?),
        ))
    }

    fn write_position(&self, position: &Self::Position) -> String {
        self.interpreter
            .write_position(&self.to_interpreter_with_history(position))
    }

    fn write_move(&self, position: &Self::Position, mv: CompactMove) -> String {
        self.interpreter.write_move(
            &self.to_interpreter_with_history(position),
            mv.to_interpreter(),
        )
    }

    fn write_protocol_move(&self, position: &Self::Position, mv: CompactMove) -> String {
        self.interpreter.write_protocol_move(
            &self.to_interpreter_with_history(position),
            mv.to_interpreter(),
        )
    }

    fn claimable(&self, position: &Self::Position) -> Option<GameResult> {
        self.interpreter
            .claimable(&self.to_interpreter_with_history(position))
    }

    fn scores(&self, position: &Self::Position, result: &GameResult) -> Option<Vec<f64>> {
        self.interpreter
            .scores(&self.to_interpreter_with_history(position), result)
    }

    fn ranking(
        &self,
        position: &Self::Position,
        result: &GameResult,
    ) -> Option<Vec<(usize, usize)>> {
        self.interpreter
            .ranking(&self.to_interpreter_with_history(position), result)
    }

    fn move_facts(&self, position: &Self::Position, mv: CompactMove) -> Option<MoveFacts> {
        self.interpreter.move_facts(
            &self.to_interpreter_with_history(position),
            mv.to_interpreter(),
        )
    }

    fn render(&self, position: &Self::Position) -> String {
        self.interpreter
            .render(&self.to_interpreter_with_history(position))
    }

    /// Reads a move as the interpreter does (a board's `alias` names, a `capture_suffix`, `-` for a
    /// capture's `x`), then finds the legal move written the same way.
    fn parse_move(
        &self,
        position: &mut Self::Position,
        text: &str,
    ) -> Result<CompactMove, TextError> {
        let mut reference = self.to_interpreter_with_history(position);
        let read = self.interpreter.parse_move(&mut reference, text)?;
        let written = self.interpreter.write_move(&reference, read);
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        moves
            .into_iter()
            .find(|m| self.write_move(position, *m) == written)
            .ok_or_else(|| {
                TextError::new(format!(
                    "illegal move `{text}` in position {}",
                    self.write_position(position)
                ))
            })
    }

    /// Options decide the start position, chosen by the interpreter, and switch promotion rules
    /// (moves, castling and automatic end rules under conditions keep a game out of the compact
    /// form).
    fn set_options(&mut self, values: &[String]) -> Result<(), String> {
        self.interpreter.set_options(values)?;
        self.refresh_switches();
        Ok(())
    }
}

/// The evaluator on compact positions (two players), for the search: the same terms as
/// [`MaterialEvaluator`], read from the compact position.
#[derive(Clone, Debug)]
pub struct CompactEvaluator<G> {
    material: MaterialEvaluator,
    game: G,
    cells: usize,
    players: usize,
}

impl<G: CompactGame + Clone> CompactEvaluator<G> {
    /// The evaluator of a compiled game: its values and tables.
    pub fn new(compiled: &Compiled<G>) -> CompactEvaluator<G> {
        CompactEvaluator {
            material: MaterialEvaluator::new(&compiled.interpreter.game),
            game: compiled.game.clone(),
            cells: compiled.interpreter.game.cells.len(),
            players: compiled.players(),
        }
    }

    /// A plain move's mover, victim cell and promotion.
    fn plain(&self, position: &G::Position, mv: CompactMove) -> Option<(Occupant, usize)> {
        if !matches!(
            mv.kind,
            CompactKind::Normal
                | CompactKind::DoubleStep
                | CompactKind::EnPassant
                | CompactKind::Pair
                | CompactKind::Unstack
        ) {
            return None;
        }
        let mover = self
            .game
            .occupant(position, mv.cell(CellField::From) as usize);
        if mover.is_empty() {
            return None;
        }
        let victim = if mv.kind == CompactKind::EnPassant {
            mv.cell(CellField::Aux)
        } else {
            mv.cell(CellField::To)
        };
        Some((mover, victim as usize))
    }
}

impl<G: CompactGame + Clone> Evaluator<Compiled<G>> for CompactEvaluator<G> {
    fn players(&self) -> usize {
        self.players
    }

    fn side_to_move(&self, position: &CompactPosition<G::Position>) -> usize {
        let position = &position.board;
        self.game.state(position).side
    }

    fn material(&self, position: &CompactPosition<G::Position>, player: usize) -> i32 {
        let position = &position.board;
        let totals = self
            .material
            .material_of(self.game.pieces(position), |p, piece| {
                self.game.hand(position, p, piece)
            });
        if self.players == 2 {
            MaterialEvaluator::two_player_balance(&totals, player)
        } else {
            self.material.balance(&totals, |_| false, player)
        }
    }

    fn evaluate(&self, position: &CompactPosition<G::Position>, player: usize) -> i32 {
        let position = &position.board;
        self.material.evaluate_pieces(
            self.game.pieces(position),
            |p, piece| self.game.hand(position, p, piece),
            |_| false,
            self.game.state(position).side,
            player,
        )
    }

    /// The value of what a plain move or en-passant capture takes, plus what a promotion adds.
    fn move_gain(&self, position: &CompactPosition<G::Position>, mv: CompactMove) -> Option<i32> {
        let position = &position.board;
        let (mover, victim) = self.plain(position, mv)?;
        let taken = self.game.occupant(position, victim);
        let taken = if !taken.is_empty() && taken.owner() != mover.owner() {
            taken
        } else {
            Occupant::EMPTY
        };
        let promotion = (mv.piece > 0).then(|| mv.piece as usize - 1);
        Some(self.material.capture_gain(mover, &[taken], promotion))
    }

    fn capture(&self, position: &CompactPosition<G::Position>, mv: CompactMove) -> Option<Capture> {
        let position = &position.board;
        let (mover, victim) = self.plain(position, mv)?;
        let taken = self.game.occupant(position, victim);
        if taken.is_empty()
            || taken.owner() == mover.owner()
            || victim != mv.cell(CellField::To) as usize
        {
            return None;
        }
        Some(Capture {
            to: victim,
            attacker: self.material.value(mover.piece()),
            victim: self.material.value(taken.piece()),
        })
    }

    fn history_index(
        &self,
        position: &CompactPosition<G::Position>,
        mv: CompactMove,
    ) -> Option<usize> {
        let position = &position.board;
        let piece = if mv.kind == CompactKind::Drop {
            (mv.piece as usize).checked_sub(1)?
        } else {
            let mover = self
                .game
                .occupant(position, mv.cell(CellField::From) as usize);
            if mover.is_empty() {
                return None;
            }
            mover.piece()
        };
        let side = self.game.state(position).side.min(self.players - 1);
        let to = mv.cell(CellField::To) as usize;
        (to < self.cells).then(|| (piece * self.players + side) * self.cells + to)
    }

    fn history_size(&self) -> usize {
        self.material.values().len() * self.players * self.cells
    }

    fn null_move_allowed(&self, position: &CompactPosition<G::Position>) -> bool {
        let position = &position.board;
        self.material
            .null_move_for(self.game.pieces(position), self.game.state(position).side)
    }
}

/// The Zobrist keys of a compact engine: `N` keys from a seed (SplitMix64), computed at compile time.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out[i] = z ^ (z >> 31);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{CellField, CompactKind, CompactMove, NO_CELL, NO_WIDE_CELL};
    use crate::interp::Move;

    const FIELDS: [CellField; 6] = [
        CellField::From,
        CellField::To,
        CellField::Aux,
        CellField::Aux2,
        CellField::GateCell,
        CellField::Wall,
    ];

    /// Every cell of the largest board, and no cell, reads back from every field of a move without
    /// changing the others, and survives the round trip through the interpreter's move.
    #[test]
    fn cells_of_nine_bits_read_back() {
        let cells = (0..super::MAX_CELLS as u16).chain([NO_WIDE_CELL]);
        for cell in cells {
            for field in FIELDS {
                let base = CompactMove::wide(300, 17, 0).with_cell(CellField::Aux, 255);
                let mv = base.with_cell(field, cell);
                assert_eq!(mv.cell(field), cell, "{field:?} {cell}");
                for other in FIELDS.into_iter().filter(|&f| f != field) {
                    assert_eq!(
                        mv.cell(other),
                        base.cell(other),
                        "{field:?} {cell} {other:?}"
                    );
                }
            }
            if cell != NO_WIDE_CELL {
                let mv = CompactMove {
                    kind: CompactKind::EnPassant,
                    ..CompactMove::wide(cell as usize, 510 - cell as usize, 0)
                }
                .with_cell(CellField::Aux, cell);
                let back = mv.to_interpreter();
                assert_eq!((back.from, back.to, back.aux), (cell, 510 - cell, cell));
                assert_eq!(back.gate_cell, Move::NONE);
                assert_eq!(CompactMove::from_interpreter(back), mv);
            }
        }
        // Moves of boards of up to 255 cells are the cells themselves.
        let small = CompactMove::normal(254, 3, 0);
        assert_eq!(
            (small.from, small.to, small.aux, small.high),
            (254, 3, NO_CELL, 0)
        );
        assert_eq!(CompactMove::wide(254, 3, 0), small);
        assert_eq!(small.cell(CellField::Aux), NO_WIDE_CELL);
    }
}
