//! Compact engines: the fast form the compiler emits for games that fit its profile (one board of at
//! most 128 cells, two players, leaps, slides, pawn-like moves, castling, promotions). The generated
//! code owns a bitboard position and its move generation, make and legality; this module turns it into
//! a [`Variant`], converting to and from the interpreter's position only on cold paths: reading and
//! writing text, and deciding outcomes beyond "no legal move".

use std::fmt;

use crate::interp::{Move, MoveKind, Occupant, Position};
use crate::search::{Capture, Evaluator, MaterialEvaluator};
use crate::variant::{GameResult, MoveFacts, TextError, Variant};
use crate::Interpreter;

/// The marker for "no cell" in compact moves.
pub const NO_CELL: u8 = u8::MAX;

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
}

/// A move of a compact engine: six bytes, `Copy`.
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
    /// The castling partner's target; `NO_CELL` if unused.
    pub aux2: u8,
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
        }
    }

    /// The compact form of an interpreter move of a game in the compact form.
    pub fn from_interpreter(mv: Move) -> CompactMove {
        let cell = |c: u16| if c == Move::NONE { NO_CELL } else { c as u8 };
        let kind = match mv.kind {
            MoveKind::Drop => CompactKind::Drop,
            MoveKind::Castle => CompactKind::Castle,
            _ if mv.aux != Move::NONE => CompactKind::EnPassant,
            _ if mv.ep_source => CompactKind::DoubleStep,
            _ => CompactKind::Normal,
        };
        CompactMove {
            kind,
            from: mv.from as u8,
            to: mv.to as u8,
            piece: mv.piece,
            aux: cell(mv.aux),
            aux2: cell(mv.aux2),
        }
    }

    /// The same move in the interpreter's terms.
    pub fn to_interpreter(self) -> Move {
        let cell = |c: u8| if c == NO_CELL { Move::NONE } else { c as u16 };
        let base = Move {
            piece: self.piece,
            ..Move::normal(self.from as usize, self.to as usize)
        };
        match self.kind {
            CompactKind::Normal => base,
            CompactKind::DoubleStep => Move {
                ep_source: true,
                ..base
            },
            CompactKind::EnPassant => Move {
                aux: cell(self.aux),
                ..base
            },
            CompactKind::Castle => Move {
                kind: MoveKind::Castle,
                aux: cell(self.aux),
                aux2: cell(self.aux2),
                ..base
            },
            CompactKind::Drop => Move {
                kind: MoveKind::Drop,
                ..base
            },
        }
    }
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
    /// Sets how many pieces of a type a player holds in hand.
    fn set_hand(&self, position: &mut Self::Position, player: usize, piece: usize, count: u8);
    /// How many pieces of a type a player holds in hand.
    fn hand(&self, position: &Self::Position, player: usize, piece: usize) -> u8;
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
}

impl<G: CompactGame> Compiled<G> {
    /// Pairs generated code with the interpreter of its game.
    pub fn new(game: G, interpreter: Interpreter) -> Compiled<G> {
        Compiled { game, interpreter }
    }

    /// The compact form of an interpreter position.
    pub fn from_interpreter(&self, position: &Position) -> G::Position {
        let mut compact = self.game.empty();
        for (cell, &occupant) in position.cells.iter().enumerate() {
            if !occupant.is_empty() {
                self.game.put(&mut compact, cell, occupant);
            }
        }
        for (player, hand) in position.hands.iter().enumerate().take(2) {
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
        self.game.refresh_hash(&mut compact);
        compact
    }

    /// The interpreter's form of a compact position (without the history of earlier positions).
    pub fn to_interpreter(&self, compact: &G::Position) -> Position {
        let game = &self.interpreter.game;
        let players = game.players.iter().filter(|p| !p.neutral).count().max(1);
        let mut position = Position::empty(game.cells.len(), game.pieces.len(), players);
        for (cell, occupant) in position.cells.iter_mut().enumerate() {
            *occupant = self.game.occupant(compact, cell);
        }
        for (player, hand) in position.hands.iter_mut().enumerate().take(2) {
            for (piece, count) in hand.iter_mut().enumerate() {
                *count = self.game.hand(compact, player, piece);
            }
        }
        let state = self.game.state(compact);
        position.side = state.side;
        position.en_passant = state.en_passant.into_iter().collect();
        position.halfmove = state.halfmove;
        position.fullmove = state.fullmove;
        position.last = state.last.map(CompactMove::to_interpreter);
        position.hash = self.interpreter.compute_hash(&position);
        position
    }

    /// Tells whether the game has ended by a rule other than checkmate or stalemate.
    fn has_ended_early(&self, position: &G::Position) -> bool {
        self.game.may_have_ended(position)
            && self
                .interpreter
                .immediate_outcome(&self.to_interpreter(position))
                .is_some()
    }
}

impl<G: CompactGame> Variant for Compiled<G> {
    type Position = G::Position;
    type Move = CompactMove;
    type Undo = G::Position;

    fn start(&self) -> G::Position {
        self.from_interpreter(&self.interpreter.start())
    }

    fn legal_moves(&self, position: &mut G::Position, moves: &mut Vec<CompactMove>) {
        if !self.has_ended_early(position) {
            self.game.legal_moves(position, moves);
        }
    }

    fn count_legal_moves(&self, position: &mut G::Position) -> u64 {
        if self.has_ended_early(position) {
            0
        } else {
            self.game.count_legal_moves(position)
        }
    }

    fn has_legal_move(&self, position: &mut G::Position) -> bool {
        self.count_legal_moves(position) > 0
    }

    fn in_check(&self, position: &mut G::Position) -> bool {
        self.game.in_check(position)
    }

    /// A pass: the other side to move, no en-passant right (every compact game has two players and
    /// one move per turn).
    fn make_null(&self, position: &mut G::Position) -> Option<G::Position> {
        let undo = position.clone();
        let mut state = self.game.state(position);
        state.side = 1 - state.side.min(1);
        state.en_passant = None;
        state.halfmove += 1;
        state.last = None;
        self.game.set_state(position, state);
        self.game.refresh_hash(position);
        Some(undo)
    }

    fn unmake_null(&self, position: &mut G::Position, undo: G::Position) {
        *position = undo;
    }

    fn make(&self, position: &mut G::Position, mv: CompactMove) -> G::Position {
        let undo = position.clone();
        self.game.make(position, mv);
        undo
    }

    fn unmake(&self, position: &mut G::Position, _mv: CompactMove, undo: G::Position) {
        *position = undo;
    }

    fn outcome(&self, position: &mut G::Position) -> Option<GameResult> {
        self.interpreter.outcome(&mut self.to_interpreter(position))
    }

    fn hash(&self, position: &G::Position) -> u64 {
        self.game.hash(position)
    }

    fn full_hash(&self, position: &G::Position) -> u64 {
        let mut copy = position.clone();
        self.game.refresh_hash(&mut copy);
        self.game.hash(&copy)
    }

    fn parse_position(&self, text: &str) -> Result<G::Position, TextError> {
        Ok(self.from_interpreter(&self.interpreter.parse_position(text)?))
    }

    fn write_position(&self, position: &G::Position) -> String {
        self.interpreter
            .write_position(&self.to_interpreter(position))
    }

    fn write_move(&self, position: &G::Position, mv: CompactMove) -> String {
        self.interpreter
            .write_move(&self.to_interpreter(position), mv.to_interpreter())
    }

    fn write_protocol_move(&self, position: &G::Position, mv: CompactMove) -> String {
        self.interpreter
            .write_protocol_move(&self.to_interpreter(position), mv.to_interpreter())
    }

    fn claimable(&self, position: &G::Position) -> Option<GameResult> {
        self.interpreter.claimable(&self.to_interpreter(position))
    }

    fn scores(&self, position: &G::Position, result: &GameResult) -> Option<Vec<f64>> {
        self.interpreter
            .scores(&self.to_interpreter(position), result)
    }

    fn ranking(&self, position: &G::Position, result: &GameResult) -> Option<Vec<(usize, usize)>> {
        self.interpreter
            .ranking(&self.to_interpreter(position), result)
    }

    fn move_facts(&self, position: &G::Position, mv: CompactMove) -> Option<MoveFacts> {
        self.interpreter
            .move_facts(&self.to_interpreter(position), mv.to_interpreter())
    }

    fn render(&self, position: &G::Position) -> String {
        self.interpreter.render(&self.to_interpreter(position))
    }

    /// Reads a move as the interpreter does (a board's `alias` names, a `capture_suffix`, `-` for a
    /// capture's `x`), then finds the legal move written the same way.
    fn parse_move(&self, position: &mut G::Position, text: &str) -> Result<CompactMove, TextError> {
        let mut reference = self.to_interpreter(position);
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

    /// Options decide only the start position in the compact form (moves, promotions, castling and
    /// automatic end rules under conditions keep a game out of it): the interpreter chooses them.
    fn set_options(&mut self, values: &[String]) -> Result<(), String> {
        self.interpreter.set_options(values)
    }
}

/// The evaluator on compact positions (two players), for the search: the same terms as
/// [`MaterialEvaluator`], read from the compact position.
#[derive(Clone, Debug)]
pub struct CompactEvaluator<G> {
    material: MaterialEvaluator,
    game: G,
    cells: usize,
}

impl<G: CompactGame + Clone> CompactEvaluator<G> {
    /// The evaluator of a compiled game: its values and tables.
    pub fn new(compiled: &Compiled<G>) -> CompactEvaluator<G> {
        CompactEvaluator {
            material: MaterialEvaluator::new(&compiled.interpreter.game),
            game: compiled.game.clone(),
            cells: compiled.interpreter.game.cells.len(),
        }
    }

    /// A plain move's mover, victim cell and promotion.
    fn plain(&self, position: &G::Position, mv: CompactMove) -> Option<(Occupant, usize)> {
        if !matches!(
            mv.kind,
            CompactKind::Normal | CompactKind::DoubleStep | CompactKind::EnPassant
        ) {
            return None;
        }
        let mover = self.game.occupant(position, mv.from as usize);
        if mover.is_empty() {
            return None;
        }
        let victim = if mv.kind == CompactKind::EnPassant {
            mv.aux
        } else {
            mv.to
        };
        Some((mover, victim as usize))
    }
}

impl<G: CompactGame + Clone> Evaluator<Compiled<G>> for CompactEvaluator<G> {
    fn players(&self) -> usize {
        2
    }

    fn side_to_move(&self, position: &G::Position) -> usize {
        self.game.state(position).side
    }

    fn material(&self, position: &G::Position, player: usize) -> i32 {
        let totals = self
            .material
            .material_of(self.game.pieces(position), |p, piece| {
                self.game.hand(position, p, piece)
            });
        MaterialEvaluator::two_player_balance(&totals, player)
    }

    fn evaluate(&self, position: &G::Position, player: usize) -> i32 {
        self.material.evaluate_pieces(
            self.game.pieces(position),
            |p, piece| self.game.hand(position, p, piece),
            |_| false,
            self.game.state(position).side,
            player,
        )
    }

    /// The value of what a plain move or en-passant capture takes, plus what a promotion adds.
    fn move_gain(&self, position: &G::Position, mv: CompactMove) -> Option<i32> {
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

    fn capture(&self, position: &G::Position, mv: CompactMove) -> Option<Capture> {
        let (mover, victim) = self.plain(position, mv)?;
        let taken = self.game.occupant(position, victim);
        if taken.is_empty() || taken.owner() == mover.owner() || victim != mv.to as usize {
            return None;
        }
        Some(Capture {
            to: victim,
            attacker: self.material.value(mover.piece()),
            victim: self.material.value(taken.piece()),
        })
    }

    fn history_index(&self, position: &G::Position, mv: CompactMove) -> Option<usize> {
        let piece = if mv.kind == CompactKind::Drop {
            (mv.piece as usize).checked_sub(1)?
        } else {
            let mover = self.game.occupant(position, mv.from as usize);
            if mover.is_empty() {
                return None;
            }
            mover.piece()
        };
        let side = self.game.state(position).side.min(1);
        let to = mv.to as usize;
        (to < self.cells).then(|| (piece * 2 + side) * self.cells + to)
    }

    fn history_size(&self) -> usize {
        self.material.values().len() * 2 * self.cells
    }

    fn null_move_allowed(&self, position: &G::Position) -> bool {
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
