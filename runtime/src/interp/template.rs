//! A game's own position text, as its `notation { position "..." }` template lays it out: fields
//! separated by spaces, each a `{FIELD}` of this list (docs/fen.md), with exactly one of `{board}` and
//! `{pieces}`:
//!
//! - `{board}`: the FEN board (upper case for the `letters upper` player), a stack written
//!   `(TOP BOTTOM)` with no space, e.g. `(lV)`;
//! - `{pieces}`: `-` or the pieces joined by `,` with no spaces, each the owner's `fen_prefix`, the
//!   piece's letters, `~` if it got its type by promotion, and the cell: `cKjs4,pKjz4,iCMev2`.
//!   Without prefixes, a two-player game with a `letters upper` player writes the letters in the
//!   owner's case (`Ke1,ke8`), other games the owner's index (`0Ke1`). Written grouped by owner in
//!   declaration order, each group in cell order (file, rank, level); read in any order, cell names
//!   or their aliases, each item in exactly one way. Pieces read count as unmoved where the start
//!   position has the same piece (or, with `virgin_in`, in that zone); stacks cannot be written;
//! - `{side}`: `w` or `b` in a two-player game with a `letters upper` player, otherwise the
//!   player's `fen_prefix` (or his name);
//! - `{moves_done}`: single moves already made in the current turn;
//! - `{frozen}`: `-` or the cells of frozen pieces joined by `,` (`CELL/x` for a frozen bottom piece
//!   of a stack, `x` its letter in lower case);
//! - `{captures}`: the capture counters, for each player in declaration order, for each piece type in
//!   declaration order, joined by `,`;
//! - `{en_passant}`: `-` or the pending rights joined by `,`, each `LAND:CAPTURED` (`fs2:es2`);
//! - `{checkmates}`: `-` or the checkmates in the order they happened, each the mater's code then the
//!   checkmated player's (codes as `{side}` writes them; `-` as the mater for a player eliminated
//!   without one), those of one turn joined by `+`, turns by `,`: `ci,pb+pi`. Reading replays them
//!   into `eliminated`, `dropped_among` and `mated_by`;
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
        // The pieces come first in every order of fields: frozen flags need them.
        let mut order: Vec<(&str, &str)> = fields.iter().copied().zip(values).collect();
        order.sort_by_key(|(field, _)| !matches!(*field, "board" | "pieces"));
        for (field, value) in order {
            match field {
                "board" => self.read_template_board(value, &mut position)?,
                "pieces" => self.read_pieces(value, &mut position)?,
                "side" => position.side = self.read_side(value)?,
                "en_passant" => {
                    let rights = self.read_en_passant(value, &position)?;
                    position.en_passant = rights;
                }
                "checkmates" => self.read_checkmates(value, &mut position)?,
                "moves_done" => {
                    position.turn_moves = number(value)?;
                    if position.turn_moves >= self.game.turn.moves.max(1) {
                        return Err(TextError::new(format!(
                            "{value} single moves done: a turn has {}",
                            self.game.turn.moves.max(1)
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
        if position.is_eliminated(position.side) {
            return Err(TextError::new(format!(
                "the player to move, {}, is out of the game",
                self.game.players[position.side].name
            )));
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
                "pieces" => self.write_pieces(pos),
                "side" => self.player_code(pos.side),
                "en_passant" => self.write_en_passant(pos),
                "checkmates" => self.write_checkmates(pos),
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
                if chars[i] == '*' {
                    // A hole, as in FEN.
                    if let Some(cell) = self.grids[0].cells.get(y * width + x).copied().flatten() {
                        return Err(TextError::new(format!(
                            "`*` marks a hole, but `{}` is a cell of the board (rank `{rank}`)",
                            self.game.cells[cell].name
                        )));
                    }
                    x += 1;
                    i += 1;
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
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push('*'); // a hole, as in FEN
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

/// One way of reading an item of `{pieces}`: owner, piece type, cell, promoted.
type PieceReading = (usize, usize, usize, bool);

impl Interpreter {
    /// A player's `fen_prefix`, if the rule file gives one.
    pub(super) fn fen_prefix(&self, player: usize) -> Option<&str> {
        self.game
            .players
            .get(player)?
            .fen_prefix
            .as_deref()
            .filter(|s| !s.is_empty())
    }

    /// Whether the owners of pieces are told apart by letter case: two players, one of them
    /// `letters upper`.
    fn uses_case(&self) -> bool {
        self.game.players.iter().filter(|p| !p.neutral).count() == 2
            && self.game.players.iter().any(|p| p.upper_case && !p.neutral)
    }

    /// How `{side}` and `{checkmates}` write a player: `w`/`b` in a two-player game with a `letters
    /// upper` player, otherwise the player's `fen_prefix`, or his name when he has none.
    pub(super) fn player_code(&self, player: usize) -> String {
        if self.uses_case() {
            return if player == self.upper_player() {
                "w".into()
            } else {
                "b".into()
            };
        }
        if let Some(prefix) = self.fen_prefix(player) {
            return prefix.to_string();
        }
        self.game
            .players
            .get(player)
            .map_or_else(|| "?".into(), |p| p.name.clone())
    }

    /// The players that take turns (neutral sides excluded).
    fn turn_players(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.game.players.len()).filter(|&p| !self.game.players[p].neutral)
    }

    fn read_side(&self, value: &str) -> Result<usize, TextError> {
        if let Some(p) = self
            .turn_players()
            .find(|&p| self.player_code(p) == value || self.game.players[p].name == value)
        {
            return Ok(p);
        }
        let codes: Vec<String> = self
            .turn_players()
            .map(|p| format!("`{}`", self.player_code(p)))
            .collect();
        let listed = match codes.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => codes.join(""),
        };
        Err(TextError::new(format!(
            "side to move `{value}` is not {listed}"
        )))
    }

    /// How `{pieces}` writes a piece type of an owner, before its cell: the owner's `fen_prefix` and
    /// the piece's letters; without prefixes, the letters in the owner's case (two players, one
    /// `letters upper`), or the owner's index and the letters (as in the vdl position text).
    fn piece_token(&self, piece: usize, owner: usize) -> String {
        let letter = match self.pieces[piece].promoted_from {
            Some(base) if self.game.pieces[piece].letter.is_empty() => {
                format!("+{}", self.game.pieces[base].letter)
            }
            _ => self.game.pieces[piece].letter.clone(),
        };
        match self.fen_prefix(owner) {
            Some(prefix) => format!("{prefix}{letter}"),
            None if self.uses_case() => self.piece_text(piece, owner),
            None => format!("{owner}{letter}"),
        }
    }

    /// A cell by its name or by a name one of its board's `alias` templates gives it.
    pub(super) fn cell_by_name(&self, name: &str) -> Option<usize> {
        if let Some(cell) = self.cell_id(name) {
            return Some(cell);
        }
        self.game.cells.iter().position(|cell| {
            let board = &self.game.boards[cell.board];
            let label = |labels: &[String], i: i32| -> String {
                labels.get(i as usize).cloned().unwrap_or_default()
            };
            board.aliases.iter().any(|alias| {
                alias
                    .replace("{file}", &label(&board.files, cell.coord[0]))
                    .replace("{rank}", &label(&board.ranks, cell.coord[1]))
                    .replace("{level}", &label(&board.levels, cell.coord[2]))
                    == name
            })
        })
    }

    /// Writes `{pieces}`: `-`, or the pieces joined by `,`, grouped by owner in declaration order,
    /// each group in cell order (board, then file, rank and level: the order of file-first names);
    /// a piece is its token, `~` when it got its type by promotion, and its
    /// cell (`cKjs4`, `iCMev2`). Only the top piece of a stack is written.
    fn write_pieces(&self, pos: &Position) -> String {
        let mut cells: Vec<usize> = (0..pos.cells.len()).collect();
        cells.sort_by_key(|&c| {
            let cell = &self.game.cells[c];
            (cell.board, cell.coord[0], cell.coord[1], cell.coord[2])
        });
        let mut items = Vec::new();
        for owner in 0..self.game.players.len() {
            for &cell in &cells {
                let occ = pos.cells[cell];
                if occ.is_empty() || occ.owner() != owner {
                    continue;
                }
                items.push(format!(
                    "{}{}{}",
                    self.piece_token(occ.piece(), owner),
                    if occ.is_promoted() { "~" } else { "" },
                    self.game.cells[cell].name
                ));
            }
        }
        if items.is_empty() {
            "-".into()
        } else {
            items.join(",")
        }
    }

    /// The readings of one item of `{pieces}`.
    fn piece_readings(&self, item: &str) -> Vec<PieceReading> {
        let mut readings = Vec::new();
        for owner in 0..self.game.players.len() {
            for piece in 0..self.game.pieces.len() {
                let token = self.piece_token(piece, owner);
                let Some(rest) = item.strip_prefix(token.as_str()) else {
                    continue;
                };
                let (promoted, name) = match rest.strip_prefix('~') {
                    Some(name) => (true, name),
                    None => (false, rest),
                };
                if let Some(cell) = self.cell_by_name(name) {
                    readings.push((owner, piece, cell, promoted));
                }
            }
        }
        readings
    }

    /// Why an item of `{pieces}` has no reading.
    fn unreadable_piece(&self, item: &str) -> TextError {
        let owners: Vec<usize> = (0..self.game.players.len())
            .filter(|&o| match self.fen_prefix(o) {
                Some(prefix) => item.starts_with(prefix),
                None => true,
            })
            .collect();
        if owners.is_empty() {
            return TextError::new(format!(
                "piece `{item}` does not start with a player's prefix"
            ));
        }
        // The longest piece token the item starts with leaves the cell name.
        let longest = owners
            .iter()
            .flat_map(|&o| (0..self.game.pieces.len()).map(move |p| self.piece_token(p, o)))
            .filter(|t| item.starts_with(t.as_str()))
            .max_by_key(String::len);
        match longest {
            None => TextError::new(format!("piece `{item}`: unknown piece letter")),
            Some(token) => {
                let rest = &item[token.len()..];
                TextError::new(format!(
                    "piece `{item}`: no cell `{}`",
                    rest.trim_start_matches('~')
                ))
            }
        }
    }

    /// Reads `{pieces}` (see [`Interpreter::write_pieces`]). A piece counts as unmoved when it stands
    /// where the start position has the same piece, or, for a type with `virgin_in ZONE`, in that zone.
    fn read_pieces(&self, text: &str, position: &mut Position) -> Result<(), TextError> {
        if text == "-" {
            return Ok(());
        }
        for item in text.split(',') {
            if item.is_empty() {
                return Err(TextError::new(format!("empty piece in `{text}`")));
            }
            let readings = self.piece_readings(item);
            let (owner, piece, cell, promoted) = match readings.as_slice() {
                [] => return Err(self.unreadable_piece(item)),
                [one] => *one,
                many => {
                    let ways: Vec<String> = many
                        .iter()
                        .map(|&(o, p, c, _)| {
                            format!(
                                "{} {} on {}",
                                self.game.players[o].name,
                                self.game.pieces[p].name,
                                self.game.cells[c].name
                            )
                        })
                        .collect();
                    return Err(TextError::new(format!(
                        "piece `{item}` is ambiguous: {}",
                        ways.join(", ")
                    )));
                }
            };
            if !position.cells[cell].is_empty() {
                return Err(TextError::new(format!(
                    "piece `{item}`: `{}` already holds a piece",
                    self.game.cells[cell].name
                )));
            }
            let virgin = match self.pieces[piece].virgin_in {
                Some(zone) => self.in_zone(zone, owner, cell),
                None => {
                    self.start_position.cells.get(cell)
                        == Some(&Occupant::new(piece, owner, true, false))
                }
            };
            position.cells[cell] = Occupant::new(piece, owner, virgin && !promoted, promoted);
        }
        Ok(())
    }

    /// Writes `{en_passant}`: `-`, or `LAND:CAPTURED` pairs joined by `,`.
    fn write_en_passant(&self, pos: &Position) -> String {
        if pos.en_passant.is_empty() {
            return "-".into();
        }
        pos.en_passant
            .iter()
            .map(|&(land, captured)| {
                format!(
                    "{}:{}",
                    self.game.cells[land].name, self.game.cells[captured].name
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Reads `{en_passant}`: the landing cell must be empty and the captured cell hold a piece.
    fn read_en_passant(
        &self,
        text: &str,
        position: &Position,
    ) -> Result<Vec<(usize, usize)>, TextError> {
        let mut rights = Vec::new();
        if text == "-" {
            return Ok(rights);
        }
        for pair in text.split(',') {
            let (land, captured) = pair.split_once(':').ok_or_else(|| {
                TextError::new(format!("en passant `{pair}` is not LAND:CAPTURED"))
            })?;
            let cell = |name: &str| {
                self.cell_by_name(name)
                    .ok_or_else(|| TextError::new(format!("en passant `{pair}`: no cell `{name}`")))
            };
            let (land_cell, captured_cell) = (cell(land)?, cell(captured)?);
            if !position.cells[land_cell].is_empty() {
                return Err(TextError::new(format!(
                    "en passant `{pair}`: `{land}` is not empty"
                )));
            }
            if position.cells[captured_cell].is_empty() {
                return Err(TextError::new(format!(
                    "en passant `{pair}`: no piece on `{captured}` to capture"
                )));
            }
            rights.push((land_cell, captured_cell));
        }
        Ok(rights)
    }

    /// Writes `{checkmates}`: `-`, or the checkmates in the order they happened, each the mater's code
    /// then the checkmated player's (`ci`), those of one turn joined by `+`, the turns by `,`
    /// (`ci,pb+pi`). A player eliminated without a mater (stuck in check on his own turn) is written
    /// with `-` as the mater (`-b`). The turns are told apart by `dropped_among`.
    fn write_checkmates(&self, pos: &Position) -> String {
        let n = self.players.max(1);
        let mut out: Vec<usize> = (0..self.players)
            .filter(|&p| pos.is_eliminated(p))
            .collect();
        if out.is_empty() {
            return "-".into();
        }
        // Last turns first by the players left, then in the order a turn processes them: turn order
        // from the player after the mater.
        out.sort_by_key(|&p| {
            let order = match pos.mated_by[p] {
                0 => n + p,
                m => (p + n - (m as usize - 1)) % n,
            };
            (std::cmp::Reverse(pos.dropped_among[p]), order)
        });
        let item = |p: usize| -> String {
            let mater = match pos.mated_by[p] {
                0 => "-".to_string(),
                m => self.player_code(m as usize - 1),
            };
            format!("{mater}{}", self.player_code(p))
        };
        let mut text = String::new();
        for (i, &p) in out.iter().enumerate() {
            if i > 0 {
                let same_turn = pos.dropped_among[p] == pos.dropped_among[out[i - 1]];
                text.push(if same_turn { '+' } else { ',' });
            }
            text.push_str(&item(p));
        }
        text
    }

    /// The readings of one checkmate `MATER CHECKMATED` (mater `None` for `-`).
    fn checkmate_readings(&self, item: &str) -> Vec<(Option<usize>, usize)> {
        let mut readings = Vec::new();
        let maters: Vec<(Option<usize>, String)> = std::iter::once((None, "-".to_string()))
            .chain(self.turn_players().map(|p| (Some(p), self.player_code(p))))
            .collect();
        for (mater, code) in maters {
            let Some(rest) = item.strip_prefix(code.as_str()) else {
                continue;
            };
            for victim in self.turn_players() {
                if self.player_code(victim) == rest {
                    readings.push((mater, victim));
                }
            }
        }
        readings
    }

    /// Reads `{checkmates}` (see [`Interpreter::write_checkmates`]): replaying the list sets
    /// `eliminated`, `dropped_among` (the players left before the turn's checkmates) and `mated_by`.
    fn read_checkmates(&self, text: &str, position: &mut Position) -> Result<(), TextError> {
        if text == "-" {
            return Ok(());
        }
        let name = |p: usize| self.game.players[p].name.as_str();
        for turn in text.split(',') {
            let among = self
                .turn_players()
                .filter(|&p| !position.is_eliminated(p))
                .count();
            let mut turn_mater: Option<Option<usize>> = None;
            for item in turn.split('+') {
                let (mater, victim) = match self.checkmate_readings(item).as_slice() {
                    [one] => *one,
                    [] => {
                        return Err(TextError::new(format!(
                            "checkmate `{item}` in `{text}` is not a mater's code then the checkmated player's"
                        )))
                    }
                    _ => {
                        return Err(TextError::new(format!(
                            "checkmate `{item}` in `{text}` is ambiguous"
                        )))
                    }
                };
                if mater == Some(victim) {
                    return Err(TextError::new(format!(
                        "checkmate `{item}`: {} cannot checkmate himself",
                        name(victim)
                    )));
                }
                if position.is_eliminated(victim) {
                    return Err(TextError::new(format!(
                        "checkmate `{item}`: {} is already out",
                        name(victim)
                    )));
                }
                if let Some(m) = mater.filter(|&m| position.is_eliminated(m)) {
                    return Err(TextError::new(format!(
                        "checkmate `{item}`: the mater, {}, is out",
                        name(m)
                    )));
                }
                if turn_mater.is_some_and(|t| t != mater) {
                    return Err(TextError::new(format!(
                        "checkmates `{turn}` of one turn have different maters"
                    )));
                }
                turn_mater = Some(mater);
                position.eliminated |= 1 << victim;
                position.dropped_among[victim] = among as u8;
                position.mated_by[victim] = mater.map_or(0, |m| m as u8 + 1);
            }
        }
        if self.turn_players().all(|p| position.is_eliminated(p)) {
            return Err(TextError::new(format!(
                "checkmates `{text}` leave no player in the game"
            )));
        }
        Ok(())
    }
}
