//! The reference interpreter: runs any checked game directly from its model. It is vdl's reference
//! semantics; compiled engines are tested against it.
//!
//! `tables` prepares per-player move vectors, zones and hashing keys once; `movegen` walks Betza legs on
//! the position; `make` plays and takes back moves; `end` decides outcomes; `fen` reads and writes
//! positions; `notation` writes moves.

mod attacks;
mod conditions;
mod control;
mod display;
mod effects;
mod end;
mod extended;
mod fen;
mod generator;
mod make;
mod movegen;
mod notation;
mod position;
mod rules;
mod setup;
mod tables;
mod transfer;

pub use generator::Generator;
pub use position::{Move, MoveKind, Occupant, Position, Undo};
pub use tables::Interpreter;

use crate::variant::{GameResult, TextError, Variant};

impl Variant for Interpreter {
    type Position = Position;
    type Move = Move;
    type Undo = Undo;

    fn set_options(&mut self, values: &[String]) -> Result<(), String> {
        self.rechoose(values)
    }

    fn start(&self) -> Position {
        self.start_position.clone()
    }

    fn legal_moves(&self, position: &mut Position, moves: &mut Vec<Move>) {
        // A game ended by a rule about the position has no moves; one where the side to move is stuck
        // has none anyway, so the full decision (which generates the moves) is not needed here.
        if self.immediate_outcome(position).is_some() {
            return;
        }
        self.generate_legal(position, moves);
    }

    fn has_legal_move(&self, position: &mut Position) -> bool {
        self.immediate_outcome(position).is_none() && self.any_legal(position)
    }

    fn legal_captures(&self, position: &mut Position, moves: &mut Vec<Move>) -> bool {
        if self.immediate_outcome(position).is_none() {
            self.generate_legal_captures(position, moves);
        }
        true
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

    fn parse_move(&self, position: &mut Position, text: &str) -> Result<Move, TextError> {
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        moves
            .iter()
            .copied()
            .find(|m| self.names_move(position, *m, text))
            .ok_or_else(|| {
                TextError::new(format!(
                    "illegal move `{text}` in position {}",
                    self.write_position(position)
                ))
            })
    }
}
