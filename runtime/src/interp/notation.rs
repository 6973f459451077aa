//! Moves as text, as Fairy-Stockfish writes them: `e2e4`, `e7e8q`, `P@e4`, shogi promotion `+`, castling
//! as the king's move.

use super::position::{Move, MoveKind, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Writes a move.
    pub(super) fn move_text(&self, pos: &Position, mv: Move) -> String {
        let mut text = self.base_move_text(pos, mv);
        if mv.gate > 0 {
            text.push_str(
                &self.game.pieces[mv.gate as usize - 1]
                    .letter
                    .to_ascii_lowercase(),
            );
        }
        text
    }

    fn base_move_text(&self, pos: &Position, mv: Move) -> String {
        let name = |cell: u16| self.game.cells[cell as usize].name.as_str();
        match mv.kind {
            MoveKind::Drop => {
                let piece = mv.piece as usize - 1;
                format!(
                    "{}@{}",
                    self.piece_text(piece, self.upper_player_index()),
                    name(mv.to)
                )
            }
            MoveKind::Pass => format!("{}{}", name(mv.from), name(mv.from)),
            MoveKind::Castle if mv.gate > 0 && mv.gate_cell == mv.aux => {
                format!("{}{}", name(mv.from), name(mv.aux))
            }
            MoveKind::Castle => format!("{}{}", name(mv.from), name(mv.to)),
            MoveKind::Normal
                if self.game.move_notation.as_deref().is_some_and(|t| {
                    mv.piece == 0 || t.contains("{promotion}") || t.contains("{x}")
                }) =>
            {
                // `{x}` is `x` for a capture and `-` otherwise; `{promotion}` the letter of the type a
                // promotion gives. A template with `{x}` and without `{promotion}` writes forced
                // promotions as plain moves.
                let template = self.game.move_notation.as_deref().unwrap_or("{from}{to}");
                let promotion = match mv.piece {
                    0 => String::new(),
                    p => self.game.pieces[p as usize - 1].letter.to_ascii_lowercase(),
                };
                template
                    .replace("{from}", name(mv.from))
                    .replace("{to}", name(mv.to))
                    .replace("{x}", if self.is_capture(pos, mv) { "x" } else { "-" })
                    .replace("{promotion}", &promotion)
            }
            MoveKind::Normal => {
                let mut text = format!("{}{}", name(mv.from), name(mv.to));
                if mv.piece > 0 {
                    let target = mv.piece as usize - 1;
                    let moving = pos.cells[mv.from as usize];
                    if !moving.is_empty()
                        && self.pieces[target].promoted_from == Some(moving.piece())
                    {
                        text.push('+');
                    } else {
                        text.push_str(&self.game.pieces[target].letter.to_ascii_lowercase());
                    }
                }
                text
            }
        }
    }

    fn upper_player_index(&self) -> usize {
        self.game
            .players
            .iter()
            .position(|p| p.upper_case && !p.neutral)
            .unwrap_or(0)
    }
}

impl Interpreter {
    /// Whether `text` names the move: its written form, or, with a `{x}` template, the same with `-`
    /// for a capture (readers accept both).
    pub(super) fn names_move(&self, pos: &Position, mv: Move, text: &str) -> bool {
        let written = self.move_text(pos, mv);
        if written == text {
            return true;
        }
        let dashed = self
            .game
            .move_notation
            .as_deref()
            .is_some_and(|t| t.contains("{x}"))
            && mv.kind == MoveKind::Normal
            && self.is_capture(pos, mv);
        dashed
            && self
                .game
                .move_notation
                .as_deref()
                .unwrap_or_default()
                .replace("{from}", &self.game.cells[mv.from as usize].name)
                .replace("{to}", &self.game.cells[mv.to as usize].name)
                .replace("{x}", "-")
                .replace("{promotion}", "")
                == text
    }
}
