//! Positions as text: Fairy-Stockfish's FEN dialect for single-board games (pieces, `+` promoted
//! pieces, `~` markers, `[hand]`, side, castling rights as KQkq or file letters, en passant, an n-check
//! field `3+3`, half-move and full-move counters).

use crate::variant::TextError;

use super::position::{Occupant, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Reads the start position, in which every piece stands on its start cell: a FEN, or for games
    /// FEN cannot describe (several boards, 3D boards, more or fewer than two players) the vdl position
    /// text, whose pieces then all count as unmoved.
    pub(super) fn read_start_fen(&self, text: &str) -> Result<Position, TextError> {
        if self.uses_fen() {
            return self.parse_fen(text, true);
        }
        let mut position = self.read_extended(text)?;
        for occ in position.cells.iter_mut().filter(|o| !o.is_empty()) {
            *occ = Occupant::new(occ.piece(), occ.owner(), true, occ.is_promoted())
                .with_waiting(occ.is_waiting());
        }
        position.hash = self.compute_hash(&position);
        Ok(position)
    }

    /// Reads a position.
    pub(super) fn read_fen(&self, text: &str) -> Result<Position, TextError> {
        let position = if let Some(template) = &self.game.notation.position {
            self.read_template(template, text)?
        } else if !self.uses_fen() {
            self.read_extended(text)?
        } else {
            self.parse_fen(text, false)?
        };
        self.check_position(&position)?;
        Ok(position)
    }

    /// Refuses a position that no game of these rules can reach, naming the field at fault: a neutral
    /// side or a player out of the game to move, more single moves done than a turn has, or a royal
    /// piece in a hand (unless the start position has one there, as in placement games).
    fn check_position(&self, position: &Position) -> Result<(), TextError> {
        let side =
            self.game.players.get(position.side).ok_or_else(|| {
                TextError::new(format!("side to move: no player {}", position.side))
            })?;
        if side.neutral {
            return Err(TextError::new(format!(
                "side to move: `{}` is a neutral side, not a player",
                side.name
            )));
        }
        if position.is_eliminated(position.side) {
            return Err(TextError::new(format!(
                "side to move: `{}` is out of the game",
                side.name
            )));
        }
        let per_turn = self.game.turn.moves.max(1);
        if position.turn_moves >= per_turn {
            return Err(TextError::new(format!(
                "moves done in the turn: {}, but a turn has {per_turn} single move{}",
                position.turn_moves,
                if per_turn == 1 { "" } else { "s" }
            )));
        }
        for (piece, rules) in self.game.pieces.iter().enumerate() {
            // Always royal: a type royal only under a condition may be captured while it is not.
            if rules.royal != crate::model::Royalty::Yes {
                continue;
            }
            let most = |p: &Position| {
                p.hands
                    .iter()
                    .map(|h| h.get(piece).copied().unwrap_or(0))
                    .max()
                    .unwrap_or(0)
            };
            if most(position) > most(&self.start_position) {
                return Err(TextError::new(format!(
                    "hand: `{}` is a royal piece, which is never in a hand in this game",
                    self.game.pieces[piece].letter
                )));
            }
        }
        Ok(())
    }

    pub(super) fn board_dims(&self) -> Result<(usize, usize), TextError> {
        match self.game.boards.as_slice() {
            [board] if board.size[2] == 1 => Ok((board.size[0] as usize, board.size[1] as usize)),
            _ => Err(TextError::new("positions of games with several boards or 3D boards use the vdl position extension, not FEN")),
        }
    }

    /// Finds the piece type and owner of a FEN letter (`P`, `p`, `+P`).
    pub(super) fn letter_piece(&self, letter: &str) -> Option<(usize, usize)> {
        let (promoted, base) = match letter.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, letter),
        };
        let upper = base.chars().next()?.is_ascii_uppercase();
        let owner = if upper {
            self.upper_player()
        } else {
            self.lower_player()
        };
        let base_piece = self
            .game
            .pieces
            .iter()
            .position(|p| p.letter.eq_ignore_ascii_case(base))?;
        if !promoted {
            return Some((base_piece, owner));
        }
        let promoted_piece = self
            .pieces
            .iter()
            .position(|r| r.promoted_from == Some(base_piece))?;
        Some((promoted_piece, owner))
    }

    pub(super) fn upper_player(&self) -> usize {
        self.game
            .players
            .iter()
            .position(|p| p.upper_case && !p.neutral)
            .unwrap_or(0)
    }

    pub(super) fn lower_player(&self) -> usize {
        self.game
            .players
            .iter()
            .position(|p| !p.upper_case && !p.neutral)
            .unwrap_or(1)
    }

    /// The FEN text of a piece for its owner.
    pub(super) fn piece_text(&self, piece: usize, owner: usize) -> String {
        let text = match self.pieces[piece].promoted_from {
            Some(base) if self.game.pieces[piece].letter.is_empty() => {
                format!("+{}", self.game.pieces[base].letter)
            }
            _ => self.game.pieces[piece].letter.clone(),
        };
        if owner == self.upper_player() {
            text.to_ascii_uppercase()
        } else {
            text.to_ascii_lowercase()
        }
    }

    fn parse_fen(&self, text: &str, is_start: bool) -> Result<Position, TextError> {
        let (width, height) = self.board_dims()?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        let placement = *fields.first().ok_or_else(|| TextError::new("empty FEN"))?;
        let (grid, pocket) = match placement.find('[') {
            Some(open) => (
                &placement[..open],
                Some(placement[open + 1..].trim_end_matches(']')),
            ),
            None => (placement, None),
        };
        let players = self.game.players.len().max(2);
        let mut cells = vec![Occupant::EMPTY; self.game.cells.len()];
        // One hand per player, then the reserve shared by everybody (as in `Position::empty`).
        let mut hands = vec![vec![0u8; self.game.pieces.len()]; players + 1];
        let ranks: Vec<&str> = grid.split('/').collect();
        if ranks.len() != height {
            return Err(TextError::new(format!(
                "FEN `{text}` has {} ranks, the board has {height}",
                ranks.len()
            )));
        }
        let first = self.game.boards[0].first_cell;
        for (r, rank) in ranks.iter().enumerate() {
            let y = height - 1 - r;
            let chars: Vec<char> = rank.chars().collect();
            let mut x = 0usize;
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    x = x.saturating_add(read_count(&chars, &mut i));
                    continue;
                }
                if c == '*' {
                    // A hole (Fairy-Stockfish's wall square), or a wall on a cell in a game with walls.
                    if let Some(cell) = self.grids[0].cells.get(y * width + x).copied().flatten() {
                        if let Some(walls) = &self.walls {
                            cells[cell] = walls.wall;
                            x += 1;
                            i += 1;
                            continue;
                        }
                        return Err(TextError::new(format!(
                            "`*` marks a hole, but `{}` is a cell of the board (FEN rank `{rank}`)",
                            self.game.cells[cell].name
                        )));
                    }
                    x += 1;
                    i += 1;
                    continue;
                }
                let mut letter = String::new();
                if c == '+' {
                    letter.push('+');
                    i += 1;
                }
                let Some(&l) = chars.get(i).filter(|c| c.is_ascii_alphabetic()) else {
                    return Err(TextError::new(format!(
                        "unexpected `{c}` in FEN rank `{rank}`"
                    )));
                };
                letter.push(l);
                i += 1;
                let promoted = chars.get(i) == Some(&'~');
                if promoted {
                    i += 1;
                }
                let (piece, owner) = self
                    .letter_piece(&letter)
                    .ok_or_else(|| TextError::new(format!("no piece has the letter `{letter}`")))?;
                if x >= width {
                    return Err(TextError::new(format!(
                        "FEN rank `{rank}` is longer than {width} cells"
                    )));
                }
                let cell = self.grids[0]
                    .cells
                    .get(y * width + x)
                    .copied()
                    .flatten()
                    .ok_or_else(|| {
                        TextError::new(format!("FEN places a piece on a hole in rank `{rank}`"))
                    })?;
                cells[cell] =
                    Occupant::new(piece, owner, false, promoted || letter.starts_with('+'));
                x += 1;
            }
            if x != width {
                return Err(TextError::new(format!(
                    "FEN rank `{rank}` has {x} cells, the board has {width} files"
                )));
            }
        }
        let _ = first;
        if let Some(pocket) = pocket {
            for c in pocket.chars().filter(|c| c.is_ascii_alphabetic()) {
                let (piece, owner) = self
                    .letter_piece(&c.to_string())
                    .ok_or_else(|| TextError::new(format!("no piece has the letter `{c}`")))?;
                hands[owner][piece] = hands[owner][piece].saturating_add(1);
            }
        }
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => self.upper_player(),
            "b" => self.lower_player(),
            other => {
                return Err(TextError::new(format!(
                    "side to move `{other}` is not `w` or `b`"
                )))
            }
        };
        // Virginity: pieces on their start cells, castling pieces by the castling field.
        for (cell, occ) in cells.iter_mut().enumerate() {
            if occ.is_empty() {
                continue;
            }
            let rules = &self.pieces[occ.piece()];
            let virgin = match rules.virgin_in {
                Some(zone) => self.in_zone(zone, occ.owner(), cell),
                None => {
                    is_start
                        || self.start_position.cells.get(cell)
                            == Some(&Occupant::new(occ.piece(), occ.owner(), true, false))
                }
            };
            let gated = self
                .gating
                .is_some_and(|zone| self.in_zone(zone, occ.owner(), cell));
            if self.is_castling_piece(occ.piece()) || gated {
                *occ = Occupant::new(occ.piece(), occ.owner(), false, occ.is_promoted());
            } else if virgin {
                *occ = Occupant::new(occ.piece(), occ.owner(), true, occ.is_promoted());
            }
        }
        let castling = fields.get(2).copied().unwrap_or("-");
        self.apply_castling_field(&mut cells, castling, width)?;
        let mut position = Position {
            cells,
            hands,
            side,
            ..Position::empty(0, 0, players)
        };
        let mut rest = fields.iter().skip(3).copied().peekable();
        if let Some(ep) = rest.next() {
            if ep != "-" {
                let target = self.cell_id(ep).ok_or_else(|| {
                    TextError::new(format!("en-passant cell `{ep}` is not on the board"))
                })?;
                let previous = self.previous_player(side);
                let forward = self.game.players[previous]
                    .forward
                    .first()
                    .copied()
                    .unwrap_or([0, 1, 0]);
                if let Some(victim) = self.step(target, forward) {
                    position.en_passant.push((target, victim));
                }
            }
        }
        if let Some(field) = rest.peek().copied().filter(|f| f.contains('+')) {
            rest.next();
            let total = self.checks_needed();
            for (player, remaining) in field.split('+').enumerate().take(players) {
                let remaining: u32 = remaining
                    .parse()
                    .map_err(|_| TextError::new(format!("bad check counter `{field}`")))?;
                let index = if player == 0 {
                    self.upper_player()
                } else {
                    self.lower_player()
                };
                position.checks[index] = total.saturating_sub(remaining);
            }
        }
        if let Some(halfmove) = rest.next() {
            position.halfmove = halfmove
                .parse()
                .map_err(|_| TextError::new(format!("bad half-move counter `{halfmove}`")))?;
        }
        if let Some(fullmove) = rest.next() {
            position.fullmove = fullmove
                .parse()
                .map_err(|_| TextError::new(format!("bad move number `{fullmove}`")))?;
        }
        if let Some(extra) = rest.next() {
            return Err(TextError::new(format!(
                "unexpected field `{extra}` after the move number: a FEN ends there"
            )));
        }
        position.hash = self.compute_hash(&position);
        Ok(position)
    }

    fn checks_needed(&self) -> u32 {
        self.game
            .end
            .iter()
            .find_map(|r| match r.kind {
                crate::model::EndKind::Checks(n) => Some(n),
                _ => None,
            })
            .unwrap_or(3)
    }

    fn is_castling_piece(&self, piece: usize) -> bool {
        self.castles.iter().any(|c| {
            c.king == Some(piece)
                || c.directions
                    .iter()
                    .any(|(_, partners)| partners.contains(&piece))
        })
    }

    /// Looks a cell up by name.
    pub(super) fn cell_id(&self, name: &str) -> Option<usize> {
        self.game.cells.iter().position(|c| c.name == name)
    }

    /// Grants castling rights: `K`/`Q` (outermost partner towards the h or a side), or file letters.
    fn apply_castling_field(
        &self,
        cells: &mut [Occupant],
        field: &str,
        width: usize,
    ) -> Result<(), TextError> {
        if field == "-" || self.castles.is_empty() {
            return Ok(());
        }
        for c in field.chars() {
            let player = if c.is_ascii_uppercase() {
                self.upper_player()
            } else {
                self.lower_player()
            };
            let Some((king_cell, king)) = self.castling_king(cells, player) else {
                continue;
            };
            // File letters name cells of the castling rank: the rank the king starts on (where it
            // stands, when the start position itself is read).
            let y = self
                .castling_king(&self.start_position.cells, player)
                .map_or(self.game.cells[king_cell].coord[1], |(cell, _)| {
                    self.game.cells[cell].coord[1]
                });
            let row: Vec<usize> = (0..width)
                .filter_map(|x| {
                    self.grids[0]
                        .cells
                        .get(y as usize * width + x)
                        .copied()
                        .flatten()
                })
                .collect();
            let partner_ok = |cell: usize| {
                let occ = cells[cell];
                !occ.is_empty()
                    && occ.owner() == player
                    && self.is_castling_piece(occ.piece())
                    && cell != king_cell
            };
            let king_x = self.game.cells[king_cell].coord[0];
            let partner = match c.to_ascii_uppercase() {
                'K' => row
                    .iter()
                    .copied()
                    .rev()
                    .find(|&cell| partner_ok(cell) && self.game.cells[cell].coord[0] > king_x),
                'Q' => row
                    .iter()
                    .copied()
                    .find(|&cell| partner_ok(cell) && self.game.cells[cell].coord[0] < king_x),
                f if f.is_ascii_alphabetic() => row
                    .get((f as u8 - b'A') as usize)
                    .copied()
                    .filter(|&cell| !cells[cell].is_empty() && cells[cell].owner() == player),
                _ => return Err(TextError::new(format!("bad castling field `{field}`"))),
            };
            // A castling right means an unmoved king; with gating, a file letter is the right of
            // the piece on that file alone (the king's own file names the king).
            let gating_letter =
                self.gating.is_some() && !matches!(c.to_ascii_uppercase(), 'K' | 'Q');
            if !gating_letter || partner == Some(king_cell) {
                cells[king_cell] = Occupant::new(king, player, true, false);
            }
            if let Some(cell) = partner.filter(|&cell| cell != king_cell) {
                let occ = cells[cell];
                cells[cell] = Occupant::new(occ.piece(), occ.owner(), true, occ.is_promoted());
            }
        }
        Ok(())
    }

    fn castling_king(&self, cells: &[Occupant], player: usize) -> Option<(usize, usize)> {
        let kings: Vec<usize> = self.castles.iter().filter_map(|c| c.king).collect();
        cells
            .iter()
            .enumerate()
            .find(|(_, o)| !o.is_empty() && o.owner() == player && kings.contains(&o.piece()))
            .map(|(cell, o)| (cell, o.piece()))
    }

    /// Writes a position as FEN.
    pub(super) fn write_fen(&self, pos: &Position) -> String {
        if let Some(template) = &self.game.notation.position {
            return self.write_template(template, pos);
        }
        if !self.uses_fen() {
            return self.write_extended(pos);
        }
        let Ok((width, height)) = self.board_dims() else {
            return String::from("?");
        };
        let mut out = String::new();
        for y in (0..height).rev() {
            let mut empty = 0;
            for x in 0..width {
                let Some(cell) = self.grids[0].cells[y * width + x] else {
                    // A hole, written as Fairy-Stockfish writes a wall square.
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push('*');
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
                out.push_str(&self.piece_text(occ.piece(), occ.owner()));
                if occ.is_promoted() && self.demote_promoted {
                    out.push('~');
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if y > 0 {
                out.push('/');
            }
        }
        if self.game.reserves.iter().any(|r| r.per_player) {
            out.push('[');
            for player in [self.upper_player(), self.lower_player()] {
                for (piece, &count) in pos
                    .hands
                    .get(player)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                {
                    for _ in 0..count {
                        out.push_str(&self.piece_text(piece, player));
                    }
                }
            }
            out.push(']');
        }
        out.push_str(if pos.side == self.upper_player() {
            " w "
        } else {
            " b "
        });
        out.push_str(&self.castling_text(pos, width));
        out.push(' ');
        match pos.en_passant.first() {
            Some(&(target, _)) => out.push_str(&self.game.cells[target].name),
            None => out.push('-'),
        }
        if self.has_checks_rule {
            let total = self.checks_needed();
            let remaining =
                |p: usize| total.saturating_sub(pos.checks.get(p).copied().unwrap_or(0));
            out.push_str(&format!(
                " {}+{}",
                remaining(self.upper_player()),
                remaining(self.lower_player())
            ));
        }
        out.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
        out
    }

    fn castling_text(&self, pos: &Position, width: usize) -> String {
        let mut out = String::new();
        for player in [self.upper_player(), self.lower_player()] {
            let Some((king_cell, _)) = self.castling_king(&pos.cells, player) else {
                continue;
            };
            // The castling rank: the rank the king starts on.
            let y = self
                .castling_king(&self.start_position.cells, player)
                .map_or(self.game.cells[king_cell].coord[1], |(cell, _)| {
                    self.game.cells[cell].coord[1]
                }) as usize;
            let row: Vec<usize> = (0..width)
                .filter_map(|x| self.grids[0].cells[y * width + x])
                .collect();
            let mut letters = String::new();
            // Cells whose right `K` or `Q` already gives.
            let mut covered = Vec::new();
            if pos.cells[king_cell].is_virgin() {
                let king_x = self.game.cells[king_cell].coord[0];
                let candidates = |cell: &usize| {
                    let occ = pos.cells[*cell];
                    !occ.is_empty()
                        && occ.owner() == player
                        && occ.is_virgin()
                        && self.is_castling_piece(occ.piece())
                        && *cell != king_cell
                };
                if let Some(&east) = row
                    .iter()
                    .rev()
                    .find(|c| candidates(c) && self.game.cells[**c].coord[0] > king_x)
                {
                    letters.push('K');
                    covered.extend([king_cell, east]);
                }
                if let Some(&west) = row
                    .iter()
                    .find(|c| candidates(c) && self.game.cells[**c].coord[0] < king_x)
                {
                    letters.push('Q');
                    covered.extend([king_cell, west]);
                }
            }
            // Gating rights: the file letter of every other unmoved piece on its gating cell.
            if let Some(zone) = self.gating {
                for (x, &cell) in row.iter().enumerate() {
                    let occ = pos.cells[cell];
                    if !occ.is_empty()
                        && occ.owner() == player
                        && occ.is_virgin()
                        && self.in_zone(zone, player, cell)
                        && !covered.contains(&cell)
                    {
                        letters.push((b'A' + x as u8) as char);
                    }
                }
            }
            if player != self.upper_player() {
                letters = letters.to_ascii_lowercase();
            }
            out.push_str(&letters);
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }
}

/// Reads a run of digits at `chars[*i]` (a count of empty cells), saturating rather than overflowing.
pub(super) fn read_count(chars: &[char], i: &mut usize) -> usize {
    let mut n = 0usize;
    while *i < chars.len() && chars[*i].is_ascii_digit() {
        n = n
            .saturating_mul(10)
            .saturating_add(chars[*i].to_digit(10).unwrap_or(0) as usize);
        *i += 1;
    }
    n
}
