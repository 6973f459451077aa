//! The reference interpreter: runs any checked game directly from its model. It is vdl's reference
//! semantics; compiled engines are tested against it.
//!
//! `tables` prepares per-player move vectors, zones and hashing keys once; `movegen` walks Betza legs on
//! the position; `make` plays and takes back moves; `end` decides outcomes; `fen` reads and writes
//! positions (`template` in a game's own layout); `notation` writes and reads moves.

mod attacks;
mod conditions;
mod control;
mod describe;
mod display;
mod effects;
mod elimination;
mod end;
mod extended;
mod facts;
mod fen;
mod generator;
mod make;
mod movegen;
mod notation;
mod overlap;
mod pickup;
mod position;
mod rules;
mod setup;
mod tables;
mod template;
mod transfer;
mod walls;

pub use describe::CastlingSummary;
pub use generator::Generator;
pub use position::{Move, MoveKind, Occupant, Position, Undo, MAX_PLAYERS};
pub use tables::Interpreter;

use crate::variant::{GameResult, MoveFacts, TextError, Variant};

impl Interpreter {
    /// Appends the legal moves of the side to move: none when the game has ended by a rule about the
    /// position; one where the side to move is stuck has none anyway, so the full decision (which
    /// generates the moves) is not needed here.
    fn legal_moves_of(&self, position: &mut Position, moves: &mut Vec<Move>) {
        if self.immediate_outcome(position).is_none() {
            self.generate_legal(position, moves);
        }
    }
}

impl Variant for Interpreter {
    type Position = Position;
    type Move = Move;
    type Undo = Undo;

    fn repeats(&self, position: &Position) -> bool {
        // Only positions since the last capture or pawn move can recur; the half-move counter counts
        // turns, each of up to `moves_per_turn` single moves.
        let per_turn = self.game.turn.moves.max(1) as usize;
        let since = (position.halfmove as usize + 1) * per_turn + position.turn_moves as usize;
        let recent = position.history.len().min(since);
        position.history[position.history.len() - recent..].contains(&position.hash)
    }

    fn set_options(&mut self, values: &[String]) -> Result<(), String> {
        self.rechoose(values)
    }

    fn start(&self) -> Position {
        self.start_position.clone()
    }

    fn legal_moves(&self, position: &mut Position, moves: &mut Vec<Move>) {
        self.legal_moves_of(position, moves);
    }

    fn count_legal_moves(&self, position: &mut Position) -> u64 {
        if self.immediate_outcome(position).is_some() {
            return 0;
        }
        self.count_legal(position) as u64
    }

    fn has_legal_move(&self, position: &mut Position) -> bool {
        self.immediate_outcome(position).is_none()
            && (self.pass_when_stuck || self.any_legal(position))
    }

    fn legal_captures(&self, position: &mut Position, moves: &mut Vec<Move>) -> bool {
        if self.immediate_outcome(position).is_none() {
            self.generate_legal_captures(position, moves);
        }
        true
    }

    fn in_check(&self, position: &mut Position) -> bool {
        self.royal_check && self.royal_attacked(position, position.side)
    }

    fn make_null(&self, position: &mut Position) -> Option<Undo> {
        self.make_null_move(position)
    }

    fn unmake_null(&self, position: &mut Position, undo: Undo) {
        self.unmake_move(position, Move::normal(0, 0), undo)
    }

    fn claimable(&self, position: &Position) -> Option<GameResult> {
        Interpreter::claimable(self, position)
    }

    fn move_facts(&self, position: &Position, mv: Move) -> Option<MoveFacts> {
        self.facts(position, mv)
    }

    fn render(&self, position: &Position) -> String {
        Interpreter::render(self, position)
    }

    fn make(&self, position: &mut Position, mv: Move) -> Undo {
        self.make_move(position, mv)
    }

    fn unmake(&self, position: &mut Position, mv: Move, undo: Undo) {
        self.unmake_move(position, mv, undo)
    }

    fn outcome(&self, position: &mut Position) -> Option<GameResult> {
        self.decide(position)
    }

    fn partner(&self, player: usize) -> Option<usize> {
        Interpreter::partner(self, player)
    }

    fn scores(&self, position: &Position, result: &GameResult) -> Option<Vec<f64>> {
        Interpreter::scores(self, position, result)
    }

    fn ranking(&self, position: &Position, result: &GameResult) -> Option<Vec<(usize, usize)>> {
        Interpreter::ranking(self, position, result)
    }

    fn hash(&self, position: &Position) -> u64 {
        position.hash
    }

    fn full_hash(&self, position: &Position) -> u64 {
        self.compute_hash(position)
    }

    fn parse_position(&self, text: &str) -> Result<Position, TextError> {
        self.read_fen(text)
    }

    fn write_position(&self, position: &Position) -> String {
        self.write_fen(position)
    }

    fn write_move(&self, position: &Position, mv: Move) -> String {
        self.move_text(position, mv)
    }

    fn write_protocol_move(&self, position: &Position, mv: Move) -> String {
        self.protocol_move_text(position, mv)
    }

    fn parse_move(&self, position: &mut Position, text: &str) -> Result<Move, TextError> {
        self.read_move(position, text)
    }
}
