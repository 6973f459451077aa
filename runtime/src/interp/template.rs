//! A game's own position text, as its `notation { position "..." }` template lays it out: fields
//! separated by spaces, each a `{FIELD}` of this list (docs/fen.md):
//!
//! - `{board}`: the FEN board (upper case for the `letters upper` player), a stack written
//!   `(TOP BOTTOM)` with no space, e.g. `(lV)`;
//! - `{side}`: `w` (the upper-case player) or `b`;
//! - `{moves_done}`: single moves already made in the current turn;
//! - `{frozen}`: `-` or the cells of frozen pieces joined by `,` (`CELL/x` for a frozen bottom piece
//!   of a stack, `x` its letter in lower case);
//! - `{captures}`: the capture counters, for each player in declaration order, for each piece type in
//!   declaration order, joined by `,`;
//! - `{halfmove}`, `{fullmove}`: as in FEN.
//!
//! Fields after the first may be left out on input; they then take their start values. A position in
//! the middle of a turn whose mover has no legal single move left is read as the start of the next
//! player's turn (`end_early_when_stuck`).

use crate::variant::TextError;

use super::position::{Occupant, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Reads a position laid out by the game's position template.
    pub(super) fn read_template(&self, template: &str, text: &str) -> Result<Position, TextError> {
        let fields = template_fields(template);
        let values: Vec<&str> = text.split_whitespace().collect();
        if values.is_empty() {
            return Err(TextError::new("empty position"));
        }
        if values.len() > fields.len() {
            return Err(TextError::new(format!(
                "position `{text}` has {} fields, the game's positions have {}",
                values.len(),
                fields.len()
            )));
        }
        let players = self.game.players.len().max(2);
        let mut position = Position::empty(self.game.cells.len(), self.game.pieces.len(), players);
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| TextError::new(format!("`{s}` is not a number")))
        };
        // The board comes first in every order of fields: frozen flags need its pieces.
        let mut order: Vec<(&str, &str)> = fields.iter().copied().zip(values).collect();
        order.sort_by_key(|(field, _)| *field != "board");
        for (field, value) in order {
            match field {
                "board" => self.read_template_board(value, &mut position)?,
                "side" => {
                    position.side = match value {
                        "w" => self.upper_player(),
                        "b" => self.lower_player(),
                        other => {
                            return Err(TextError::new(format!(
                                "side to move `{other}` is not `w` or `b`"
                            )))
                        }
                    }
                }
                "moves_done" => {
                    position.turn_moves = number(value)?;
                    if position.turn_moves >= self.game.moves_per_turn.max(1) {
                        return Err(TextError::new(format!(
                            "{value} single moves done: a turn has {}",
                            self.game.moves_per_turn.max(1)
                        )));
                    }
                }
                "frozen" => self.read_frozen(value, &mut position)?,
                "captures" => {
                    let counts: Vec<u32> =
                        value.split(',').map(number).collect::<Result<_, _>>()?;
                    let expected = self.game.players.len() * self.game.pieces.len();
                    if counts.len() != expected {
                        return Err(TextError::new(format!(
                            "capture counters `{value}`: {expected} numbers expected"
                        )));
                    }
                    if counts.iter().any(|&n| n > 0) {
                        position.captured = counts;
                    }
                }
                "halfmove" => position.halfmove = number(value)?,
                "fullmove" => position.fullmove = number(value)?,
                other => return Err(TextError::new(format!("unknown position field `{other}`"))),
            }
        }
        position.hash = self.compute_hash(&position);
        if position.turn_moves > 0 && self.end_early && !self.any_legal(&mut position) {
            // A turn ends as soon as the mover has no legal single move left, so the position is the
            // start of the next player's turn.
            position.turn_moves = 0;
            position.side = self.next_player(position.side);
            for occ in position.cells.iter_mut().filter(|o| !o.is_empty()) {
                *occ = occ.with_frozen(false);
            }
            for (_, below) in position.stacks.iter_mut() {
                *below = below.with_frozen(false);
            }
            position.hash = self.compute_hash(&position);
        }
        Ok(position)
    }

    /// Writes a position laid out by the game's position template.
    pub(super) fn write_template(&self, template: &str, pos: &Position) -> String {
        template_fields(template)
            .iter()
            .map(|field| match *field {
                "board" => self.write_template_board(pos),
                "side" if pos.side == self.upper_player() => "w".into(),
                "side" => "b".into(),
                "moves_done" => pos.turn_moves.to_string(),
                "frozen" => self.write_frozen(pos),
                "captures" => {
                    let kinds = self.game.pieces.len();
                    (0..self.game.players.len())
                        .flat_map(|player| {
                            (0..kinds).map(move |piece| pos.captured_count(player, piece, kinds))
                        })
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                }
                "halfmove" => pos.halfmove.to_string(),
                "fullmove" => pos.fullmove.to_string(),
                _ => "?".into(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn read_template_board(&self, text: &str, position: &mut Position) -> Result<(), TextError> {
        let (width, height) = self.board_dims()?;
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != height {
            return Err(TextError::new(format!(
                "board `{text}` has {} ranks, the board has {height}",
                ranks.len()
            )));
        }
        for (r, rank) in ranks.iter().enumerate() {
            let y = height - 1 - r;
            let chars: Vec<char> = rank.chars().collect();
            let mut x = 0usize;
            let mut i = 0;
            while i < chars.len() {
                if chars[i].is_ascii_digit() {
                    x = x.saturating_add(super::fen::read_count(&chars, &mut i));
                    continue;
                }
                // One piece, or a stack `(TOP BOTTOM)`.
                let unit = if chars[i] == '(' {
                    let close =
                        chars[i..].iter().position(|&c| c == ')').ok_or_else(|| {
                            TextError::new(format!("unclosed `(` in rank `{rank}`"))
                        })? + i;
                    let inner = &chars[i + 1..close];
                    i = close + 1;
                    inner
                } else {
                    i += 1;
                    &chars[i - 1..i]
                };
                let pieces = self.read_unit(unit, rank)?;
                let cell = (x < width)
                    .then(|| self.grids[0].cells.get(y * width + x).copied().flatten())
                    .flatten()
                    .ok_or_else(|| {
                        TextError::new(format!("rank `{rank}` does not fit the board"))
                    })?;
                position.cells[cell] = pieces[0];
                if let Some(&below) = pieces.get(1) {
                    position.stacks.push((cell, below));
                }
                x += 1;
            }
            if x != width {
                return Err(TextError::new(format!(
                    "rank `{rank}` has {x} cells, the board has {width} files"
                )));
            }
        }
        Ok(())
    }

    /// The pieces of one unit, top first: one piece, or a stack of two.
    fn read_unit(&self, unit: &[char], rank: &str) -> Result<Vec<Occupant>, TextError> {
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < unit.len() {
            let mut letter = String::new();
            if unit[i] == '+' {
                letter.push('+');
                i += 1;
            }
            let Some(&c) = unit.get(i).filter(|c| c.is_ascii_alphabetic()) else {
                return Err(TextError::new(format!(
                    "unexpected character in rank `{rank}`"
                )));
            };
            letter.push(c);
            i += 1;
            let (piece, owner) = self
                .letter_piece(&letter)
                .ok_or_else(|| TextError::new(format!("no piece has the letter `{letter}`")))?;
            pieces.push(Occupant::new(piece, owner, false, letter.starts_with('+')));
        }
        if pieces.is_empty() || pieces.len() > 2 {
            return Err(TextError::new(format!(
                "a stack in rank `{rank}` must hold two pieces"
            )));
        }
        Ok(pieces)
    }

    fn write_template_board(&self, pos: &Position) -> String {
        let Ok((width, height)) = self.board_dims() else {
            return "?".into();
        };
        let mut ranks = Vec::new();
        for y in (0..height).rev() {
            let mut out = String::new();
            let mut empty = 0;
            for x in 0..width {
                let Some(cell) = self.grids[0].cells[y * width + x] else {
                    continue;
                };
                let occ = pos.cells[cell];
                if occ.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let top = self.piece_text(occ.piece(), occ.owner());
                match pos.stacks.iter().find(|&&(c, _)| c == cell) {
                    Some(&(_, below)) => out.push_str(&format!(
                        "({top}{})",
                        self.piece_text(below.piece(), below.owner())
                    )),
                    None => out.push_str(&top),
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            ranks.push(out);
        }
        ranks.join("/")
    }

    fn read_frozen(&self, text: &str, position: &mut Position) -> Result<(), TextError> {
        if text == "-" {
            return Ok(());
        }
        for item in text.split(',') {
            let (name, bottom) = match item.split_once('/') {
                Some((name, _letter)) => (name, true),
                None => (item, false),
            };
            let cell = self
                .cell_id(name)
                .ok_or_else(|| TextError::new(format!("no cell `{name}`")))?;
            if bottom {
                let entry = position
                    .stacks
                    .iter_mut()
                    .find(|(c, _)| *c == cell)
                    .ok_or_else(|| TextError::new(format!("no stack on `{name}`")))?;
                entry.1 = entry.1.with_frozen(true);
            } else if position.cells[cell].is_empty() {
                return Err(TextError::new(format!("no piece on `{name}` to freeze")));
            } else {
                position.cells[cell] = position.cells[cell].with_frozen(true);
            }
        }
        Ok(())
    }

    fn write_frozen(&self, pos: &Position) -> String {
        let mut items: Vec<(usize, String)> = Vec::new();
        for (cell, occ) in pos.cells.iter().enumerate() {
            if !occ.is_empty() && occ.is_frozen() {
                items.push((cell, self.game.cells[cell].name.clone()));
            }
        }
        for &(cell, below) in &pos.stacks {
            if below.is_frozen() {
                let letter = self.game.pieces[below.piece()].letter.to_ascii_lowercase();
                items.push((cell, format!("{}/{letter}", self.game.cells[cell].name)));
            }
        }
        if items.is_empty() {
            return "-".into();
        }
        items.sort();
        items
            .into_iter()
            .map(|(_, text)| text)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The field names of a position template, in order (`"{board} {side}"` gives `board`, `side`).
fn template_fields(template: &str) -> Vec<&str> {
    template
        .split_whitespace()
        .map(|t| t.trim_start_matches('{').trim_end_matches('}'))
        .collect()
}
