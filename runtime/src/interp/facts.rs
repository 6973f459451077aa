//! What a move does, for notations that name pieces (SAN): the moving piece, its cells, capture,
//! promotion, castling, drops and gating (the `Variant::move_facts` of the interpreter).

use crate::variant::{MoveFacts, Square};

use super::position::{Move, MoveKind, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// The facts of a legal move, for a game of two players on one 2D board.
    pub(super) fn facts(&self, pos: &Position, mv: Move) -> Option<MoveFacts> {
        let game = &self.game;
        let players = game.players.iter().filter(|p| !p.neutral).count();
        let [board] = game.boards.as_slice() else {
            return None;
        };
        if players != 2 || board.size[2] > 1 {
            return None;
        }
        let square = |cell: u16| -> Option<Square> {
            let cell = game.cells.get(cell as usize)?;
            let label =
                |labels: &[String], i: i32| labels.get(i as usize).cloned().unwrap_or_default();
            Some(Square {
                name: cell.name.clone(),
                file: label(&board.files, cell.coord[0]),
                rank: label(&board.ranks, cell.coord[1]),
            })
        };
        let moving = pos.cells.get(mv.from as usize).copied();
        let mut facts = MoveFacts::default();
        match mv.kind {
            // SAN has no pick-up: the game's notation writes it (`N^c3`).
            MoveKind::Pass | MoveKind::PickUp => facts.special = true,
            MoveKind::Drop => {
                facts.piece = self.san_letter(mv.piece as usize - 1);
                facts.to = square(mv.to);
                facts.drop = true;
            }
            MoveKind::Castle => {
                let moving = moving.filter(|o| !o.is_empty())?;
                facts.piece = self.san_letter(moving.piece());
                facts.from = square(mv.from);
                facts.to = square(mv.to);
                let x = |cell: u16| game.cells[cell as usize].coord[0];
                facts.castle = Some(x(mv.aux) > x(mv.from));
            }
            MoveKind::Normal => {
                if mv.merge || mv.stack {
                    facts.special = true;
                    return Some(facts);
                }
                let moving = moving.filter(|o| !o.is_empty())?;
                facts.piece = self.san_letter(moving.piece());
                facts.from = square(mv.from);
                facts.to = square(mv.to);
                facts.capture = self.is_capture(pos, mv);
                if mv.piece > 0 {
                    let target = mv.piece as usize - 1;
                    let form = game.pieces[target].letter.is_empty()
                        && self.pieces[target].promoted_from == Some(moving.piece());
                    facts.promotion = Some(if form {
                        "+".to_string()
                    } else {
                        self.san_letter(target)
                    });
                }
            }
        }
        if mv.gate > 0 {
            facts.gate = Some(self.san_letter(mv.gate as usize - 1));
        }
        Some(facts)
    }

    /// A piece's letter as SAN writes it: upper case, and `+` with the base's letter for a promoted
    /// form without one.
    fn san_letter(&self, piece: usize) -> String {
        let letter = &self.game.pieces[piece].letter;
        if letter.is_empty() {
            if let Some(base) = self.pieces[piece].promoted_from {
                return format!("+{}", self.game.pieces[base].letter.to_ascii_uppercase());
            }
        }
        letter.to_ascii_uppercase()
    }
}
