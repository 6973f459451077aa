//! Moves as text, as Fairy-Stockfish writes them: `e2e4`, `e7e8q`, `P@e4`, shogi promotion `+`, castling
//! as the king's move; a game's `move` template (`{from}-{to}`) instead, with its `capture_suffix`
//! accepted on input.

use crate::variant::TextError;

use super::position::{Move, MoveKind, Occupant, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Writes a move.
    pub(super) fn move_text(&self, pos: &Position, mv: Move) -> String {
        self.move_text_as(pos, mv, true)
    }

    /// Writes a move as the XBoard and UCI protocols do: Fairy-Stockfish's form, whatever the game's
    /// `notation` block says.
    pub(super) fn protocol_move_text(&self, pos: &Position, mv: Move) -> String {
        self.move_text_as(pos, mv, false)
    }

    /// Writes a move, in the game's own notation or (`own` false) in Fairy-Stockfish's form.
    fn move_text_as(&self, pos: &Position, mv: Move, own: bool) -> String {
        let mut text = self.base_move_text(pos, mv, own);
        if mv.gate > 0 {
            text.push_str(
                &self.game.pieces[mv.gate as usize - 1]
                    .letter
                    .to_ascii_lowercase(),
            );
        }
        if mv.wall != Move::NONE {
            // The wall after the move, as Fairy-Stockfish writes it: `e2e4,e4d5`.
            let name = |cell: u16| self.game.cells[cell as usize].name.as_str();
            let arrival = if mv.kind == MoveKind::Pass {
                mv.from
            } else {
                mv.to
            };
            text.push(',');
            text.push_str(name(arrival));
            text.push_str(name(mv.wall));
        }
        text
    }

    fn base_move_text(&self, pos: &Position, mv: Move, own: bool) -> String {
        let name = |cell: u16| self.game.cells[cell as usize].name.as_str();
        let template = self.game.notation.move_template.as_deref().filter(|_| own);
        match mv.kind {
            MoveKind::Drop => {
                let piece = mv.piece as usize - 1;
                format!(
                    "{}@{}",
                    self.piece_text(piece, self.upper_player_index()),
                    name(mv.to)
                )
            }
            // A pick-up: the piece's letter, `^` and the cell it leaves (`N^c3`).
            MoveKind::PickUp => {
                let piece = mv.piece as usize - 1;
                format!(
                    "{}^{}",
                    self.piece_text(piece, self.upper_player_index()),
                    name(mv.from)
                )
            }
            MoveKind::Pass => match self.game.notation.pass.as_ref().filter(|_| own) {
                Some(text) => text.clone(),
                None => format!("{}{}", name(mv.from), name(mv.from)),
            },
            MoveKind::Castle if mv.gate > 0 && mv.gate_cell == mv.aux => {
                format!("{}{}", name(mv.from), name(mv.aux))
            }
            MoveKind::Castle if template.is_some() => self.templated_move(pos, mv),
            // Castling with fixed landing cells (Chess960) is written as the king taking its
            // partner, as Fairy-Stockfish writes it: `e1h1`.
            MoveKind::Castle if self.castles.iter().any(|c| !c.king_lands.is_empty()) => {
                format!("{}{}", name(mv.from), name(mv.aux))
            }
            MoveKind::Castle => format!("{}{}", name(mv.from), name(mv.to)),
            MoveKind::Normal
                if template.is_some_and(|t| {
                    mv.piece == 0 || mv.merge || t.contains("{x}") || t.contains("{promotion}")
                }) =>
            {
                self.templated_move(pos, mv)
            }
            MoveKind::Normal if mv.merge => format!("{}+{}", name(mv.from), name(mv.to)),
            MoveKind::Normal => {
                // A capture on the way (locust; a capture and return ends on its start cell) is
                // written as XBoard writes it, two legs through the captured cell: `d4e5,e5d4`.
                let locust = mv.aux != Move::NONE
                    && mv.aux2 == Move::NONE
                    && !pos.en_passant.contains(&(mv.to as usize, mv.aux as usize));
                // An unload on a later leg (`afucR`) is written through the cell the captured piece
                // reappears on, where the capturing leg started: `a1c1,c1e1` (and the kill cell of a
                // capture on the way after it: `a1b1,b1c1,c1d1`).
                let unload = mv.aux2 != Move::NONE && mv.aux2 != mv.from;
                let mut text = if unload {
                    let back = name(mv.aux2);
                    if mv.aux != Move::NONE {
                        let kill = name(mv.aux);
                        format!("{}{back},{back}{kill},{kill}{}", name(mv.from), name(mv.to))
                    } else {
                        format!("{}{back},{back}{}", name(mv.from), name(mv.to))
                    }
                } else if locust {
                    let kill = name(mv.aux);
                    format!("{}{kill},{kill}{}", name(mv.from), name(mv.to))
                } else {
                    format!("{}{}", name(mv.from), name(mv.to))
                };
                if mv.piece > 0 {
                    let target = mv.piece as usize - 1;
                    let moving = pos.cells[mv.from as usize];
                    if !moving.is_empty()
                        && self.pieces[target].promoted_from == Some(moving.piece())
                    {
                        text.push('+');
                    } else if !moving.is_empty()
                        && self.pieces[moving.piece()].promoted_from == Some(target)
                    {
                        text.push('-');
                    } else {
                        text.push_str(&self.promotion_letter(pos, mv).to_ascii_lowercase());
                    }
                }
                text
            }
        }
    }

    /// A move by the game's template: `{from}`, `{to}`, `{sep}` (`x` when the move captures, `+` for a
    /// merger, else `-`) and `{promotion}` (`=` and the new piece's letter, or nothing; a merger's
    /// result is not written).
    fn templated_move(&self, pos: &Position, mv: Move) -> String {
        let capture = mv.kind == MoveKind::Normal && self.is_capture(pos, mv);
        self.templated_move_as(pos, mv, capture)
    }

    /// The letter a promotion is written with: the new type's, or for a pair promotion the `letter`
    /// of its `promote_pair` line.
    fn promotion_letter(&self, pos: &Position, mv: Move) -> &str {
        let target = mv.piece as usize - 1;
        let moving = pos.cells[mv.from as usize];
        let pair = (mv.pair && !moving.is_empty())
            .then(|| {
                self.game.pieces[moving.piece()]
                    .promotions
                    .iter()
                    .filter(|p| p.choices.contains(&target))
                    .find_map(|p| p.pair.as_deref())
            })
            .flatten();
        pair.unwrap_or(self.game.pieces[target].letter.as_str())
    }

    /// A move in the `move` template, written as a capture (`x`) or not (`-`).
    fn templated_move_as(&self, pos: &Position, mv: Move, capture: bool) -> String {
        let name = |cell: u16| self.game.cells[cell as usize].name.as_str();
        let template = self
            .game
            .notation
            .move_template
            .as_deref()
            .unwrap_or("{from}{to}");
        let promotion = if mv.piece > 0 && !mv.merge {
            format!("={}", self.promotion_letter(pos, mv))
        } else {
            String::new()
        };
        let sep = if mv.merge {
            "+"
        } else if capture {
            "x"
        } else {
            "-"
        };
        template
            .replace("{from}", name(mv.from))
            .replace("{to}", name(mv.to))
            .replace("{sep}", sep)
            .replace("{x}", sep)
            .replace("{promotion}", &promotion)
    }

    /// Reads a move among the legal ones: its written form, optionally followed, when the game has a
    /// `capture_suffix`, by one suffix per captured cell, every captured cell exactly once in any order.
    pub(super) fn read_move(&self, pos: &mut Position, text: &str) -> Result<Move, TextError> {
        let mut moves = Vec::new();
        self.legal_moves_of(pos, &mut moves);
        // The game's notation first; then the protocols' form (`e7e8q` where the game writes `e7e8=Q`).
        if let Some(&mv) = moves.iter().find(|&&mv| self.names_move(pos, mv, text)) {
            return Ok(mv);
        }
        if let Some(&mv) = moves
            .iter()
            .find(|&&mv| self.protocol_move_text(pos, mv) == text)
        {
            return Ok(mv);
        }
        for &mv in &moves {
            let written = self.move_text(pos, mv);
            if self.names_move(pos, mv, text) {
                return Ok(mv);
            }
            let (Some(suffix), Some(rest)) = (
                &self.game.notation.capture_suffix,
                text.strip_prefix(&written),
            ) else {
                continue;
            };
            if rest.is_empty() {
                continue;
            }
            let mut named: Vec<String> = Vec::new();
            if !self.read_suffixes(suffix, rest, &mut named) {
                continue;
            }
            let mut captured: Vec<String> = self
                .captured_cells(pos, mv)
                .into_iter()
                .map(|c| self.game.cells[c].name.clone())
                .collect();
            named.sort();
            captured.sort();
            if named == captured {
                return Ok(mv);
            }
            return Err(TextError::new(format!(
                "move `{text}` captures {}",
                if captured.is_empty() {
                    "nothing".to_string()
                } else {
                    captured.join(", ")
                }
            )));
        }
        // Cells named by a board's `alias` template: read as the cells' own names.
        if let Some(plain) = self.without_aliases(text) {
            if let Ok(mv) = self.read_move(pos, &plain) {
                return Ok(mv);
            }
        }
        Err(TextError::new(format!(
            "illegal move `{text}` in position {}",
            self.write_fen(pos)
        )))
    }

    /// `text` with every cell name written by an `alias` template replaced by the cell's own name
    /// (the longest name wins where several start at the same place); `None` when it has none.
    fn without_aliases(&self, text: &str) -> Option<String> {
        if self.alias_names.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut replaced = false;
        while let Some(c) = rest.chars().next() {
            let own = self
                .game
                .cells
                .iter()
                .map(|cell| cell.name.len())
                .filter(|&n| n > 0 && rest.get(..n).is_some_and(|p| self.is_cell_name(p)))
                .max()
                .unwrap_or(0);
            let alias = self
                .alias_names
                .iter()
                .filter(|(name, _)| rest.starts_with(name.as_str()))
                .max_by_key(|(name, _)| name.len());
            match alias {
                Some((name, cell)) if name.len() > own => {
                    out.push_str(&self.game.cells[*cell].name);
                    rest = &rest[name.len()..];
                    replaced = true;
                }
                _ if own > 0 => {
                    out.push_str(&rest[..own]);
                    rest = &rest[own..];
                }
                _ => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        replaced.then_some(out)
    }

    fn is_cell_name(&self, text: &str) -> bool {
        self.game.cells.iter().any(|c| c.name == text)
    }

    /// Splits `text` into capture suffixes (`x{cell}`), collecting the cell names; false if it is not
    /// a run of them.
    fn read_suffixes(&self, suffix: &str, mut text: &str, cells: &mut Vec<String>) -> bool {
        let (prefix, after) = suffix.split_once("{cell}").unwrap_or((suffix, ""));
        while !text.is_empty() {
            let Some(rest) = text.strip_prefix(prefix) else {
                return false;
            };
            // The longest cell name that the rest of the suffix follows.
            let found = self
                .game
                .cells
                .iter()
                .filter(|c| {
                    rest.strip_prefix(c.name.as_str())
                        .is_some_and(|r| r.starts_with(after))
                })
                .max_by_key(|c| c.name.len());
            let Some(cell) = found else {
                return false;
            };
            cells.push(cell.name.clone());
            text = &rest[cell.name.len() + after.len()..];
        }
        true
    }

    /// The cells whose unit a move captures: played and taken back, every cell besides its target that
    /// changed (frozen flags aside) other than the start cell becoming empty (or showing the piece
    /// below a stack), and the target when it held a piece taken by replacement.
    fn captured_cells(&self, pos: &mut Position, mv: Move) -> Vec<usize> {
        let before = pos.cells.clone();
        let from = mv.from as usize;
        let left_behind = pos
            .stacks
            .iter()
            .find(|&&(c, _)| c == from)
            .map_or(Occupant::EMPTY, |&(_, below)| below);
        let replaced = mv.kind == MoveKind::Normal
            && !mv.stack
            && !mv.merge
            && mv.to != mv.from
            && !before[mv.to as usize].is_empty();
        let undo = super::elimination::probing(|| self.make_move(pos, mv));
        let mut cells: Vec<usize> = (0..before.len())
            .filter(|&c| c != mv.to as usize)
            .filter(|&c| {
                let now = pos.cells[c].with_frozen(false);
                if c == from && mv.kind == MoveKind::Normal && !mv.pair && mv.gate == 0 {
                    now != left_behind.with_frozen(false)
                } else {
                    before[c].with_frozen(false) != now
                }
            })
            .collect();
        self.unmake_move(pos, mv, undo);
        if replaced {
            cells.push(mv.to as usize);
        }
        cells
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
            .notation
            .move_template
            .as_deref()
            .is_some_and(|t| t.contains("{x}") || t.contains("{sep}"))
            && mv.kind == MoveKind::Normal
            && self.is_capture(pos, mv);
        dashed && self.templated_move_as(pos, mv, false) == text
    }
}
