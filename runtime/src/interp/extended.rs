//! The vdl position text, for games FEN cannot describe (several boards, 3D boards, more than two
//! players, neutral pieces). docs/fen.md defines it:
//!
//! `BOARDS SIDE HANDS EN-PASSANT HALFMOVE FULLMOVE [CHECKS]`, where BOARDS lists each board (`|` between
//! boards; levels top to bottom with `//` between them; ranks top to bottom with `/` between them; holes
//! are skipped), a digit run counts empty cells, and a piece is `(OWNER LETTERS)` — the owner's index
//! then the piece's letters, e.g. `(0K)` or `(3CM)` — followed by `*` if it has not moved and `~` if it
//! was promoted. Extra fields: `checks=`, `turn=`, `out=NAME[:N[:MATER]]` (eliminated players, with
//! how many players were in the game when each dropped out and who checkmated him) and `under=`.

use crate::variant::TextError;

use super::position::{Occupant, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Whether positions of this game are written in Fairy-Stockfish's FEN (one 2D board, two players,
    /// no neutral side).
    pub(super) fn uses_fen(&self) -> bool {
        self.game.boards.len() == 1
            && self.game.boards[0].size[2] == 1
            && self.sides_without_walls() == 2
    }

    /// The players and neutral sides, the walls' side left out (walls are written `*`).
    fn sides_without_walls(&self) -> usize {
        self.game.players.len() - usize::from(self.walls.is_some())
    }

    /// Whether pieces may be written as FEN letters in their owner's case: two players, one of them
    /// `letters upper`, no neutral side.
    pub(super) fn letter_case_pieces(&self) -> bool {
        self.sides_without_walls() == 2
            && self.game.players.iter().filter(|p| p.upper_case).count() == 1
    }

    /// Cells of a board in text order: levels top to bottom, ranks top to bottom, files left to right.
    fn text_order(&self, board: usize) -> Vec<Vec<Vec<usize>>> {
        let grid = &self.grids[board];
        let [w, h, d] = grid.size;
        (0..d)
            .rev()
            .map(|z| {
                (0..h)
                    .rev()
                    .map(|y| {
                        (0..w)
                            .filter_map(|x| grid.cells[((z * h + y) * w + x) as usize])
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }

    /// Writes a position in the vdl position text.
    pub(super) fn write_extended(&self, pos: &Position) -> String {
        let mut boards = Vec::new();
        for board in 0..self.game.boards.len() {
            let levels: Vec<String> = self
                .text_order(board)
                .iter()
                .map(|ranks| {
                    ranks
                        .iter()
                        .map(|cells| {
                            let mut out = String::new();
                            let mut empty = 0;
                            for &cell in cells {
                                let occ = pos.cells[cell];
                                if occ.is_empty() {
                                    empty += 1;
                                    continue;
                                }
                                if empty > 0 {
                                    out.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                out.push_str(&format!(
                                    "({}{})",
                                    occ.owner(),
                                    self.game.pieces[occ.piece()].letter
                                ));
                                if occ.is_virgin() {
                                    out.push('*');
                                }
                                if occ.is_promoted() {
                                    out.push('~');
                                }
                                if occ.is_waiting() {
                                    out.push('^');
                                }
                            }
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                            }
                            out
                        })
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .collect();
            boards.push(levels.join("//"));
        }
        let hands: Vec<String> = pos
            .hands
            .iter()
            .enumerate()
            .filter(|(_, hand)| hand.iter().any(|&n| n > 0))
            .map(|(owner, hand)| {
                let name = self
                    .game
                    .players
                    .get(owner)
                    .map(|p| p.name.clone())
                    .unwrap_or_else(|| "shared".into());
                let letters: String = hand
                    .iter()
                    .enumerate()
                    .flat_map(|(piece, &n)| {
                        std::iter::repeat_n(
                            format!("({})", self.game.pieces[piece].letter),
                            n as usize,
                        )
                    })
                    .collect();
                format!("{name}:{letters}")
            })
            .collect();
        let en_passant: Vec<String> = pos
            .en_passant
            .iter()
            .map(|&(t, v)| format!("{}>{}", self.game.cells[t].name, self.game.cells[v].name))
            .collect();
        let mut text = format!(
            "{} {} {} {} {} {}",
            boards.join("|"),
            self.game.players[pos.side].name,
            if hands.is_empty() {
                "-".into()
            } else {
                hands.join(",")
            },
            if en_passant.is_empty() {
                "-".into()
            } else {
                en_passant.join(",")
            },
            pos.halfmove,
            pos.fullmove
        );
        if pos.checks.iter().any(|&c| c > 0) {
            text.push_str(&format!(
                " checks={}",
                pos.checks[..self.game.players.len().min(super::position::MAX_PLAYERS)]
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ));
        }
        if pos.turn_moves > 0 {
            text.push_str(&format!(" turn={}", pos.turn_moves));
        }
        if pos.eliminated != 0 {
            // NAME, then `:N` when known how many players were in the game when he dropped out, then
            // `:MATER` when a player checkmated him.
            let out: Vec<String> = self
                .game
                .players
                .iter()
                .enumerate()
                .filter(|(i, _)| pos.is_eliminated(*i))
                .map(|(i, p)| {
                    let mut item = p.name.clone();
                    if pos.dropped_among[i] > 0 || pos.mated_by[i] > 0 {
                        item.push_str(&format!(":{}", pos.dropped_among[i]));
                    }
                    if let Some(mater) = (pos.mated_by[i] as usize).checked_sub(1) {
                        let name = self
                            .game
                            .players
                            .get(mater)
                            .map_or("?", |m| m.name.as_str());
                        item.push_str(&format!(":{name}"));
                    }
                    item
                })
                .collect();
            text.push_str(&format!(" out={}", out.join(",")));
        }
        if !pos.stacks.is_empty() {
            let stacks: Vec<String> = pos
                .stacks
                .iter()
                .map(|&(cell, o)| {
                    format!(
                        "{}:({}{})",
                        self.game.cells[cell].name,
                        o.owner(),
                        self.game.pieces[o.piece()].letter
                    )
                })
                .collect();
            text.push_str(&format!(" under={}", stacks.join(",")));
        }
        text
    }

    /// Reads a position in the vdl position text.
    pub(super) fn read_extended(&self, text: &str) -> Result<Position, TextError> {
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(TextError::new("an empty position"));
        }
        // Fields after the boards may be left out: the first player to move, no hands, no en-passant
        // rights, the counters at their start.
        let first_player = self.game.players.first().map_or("", |p| p.name.as_str());
        for (index, default) in [first_player, "-", "-", "0", "1"].into_iter().enumerate() {
            if fields.len() == index + 1 {
                fields.push(default);
            }
        }
        let players = self.game.players.len().max(2);
        let mut cells = vec![Occupant::EMPTY; self.game.cells.len()];
        let boards: Vec<&str> = fields[0].split('|').collect();
        if boards.len() != self.game.boards.len() {
            return Err(TextError::new(format!(
                "{} boards given, the game has {}",
                boards.len(),
                self.game.boards.len()
            )));
        }
        for (board, board_text) in boards.iter().enumerate() {
            let order = self.text_order(board);
            let levels: Vec<&str> = board_text.split("//").collect();
            if levels.len() != order.len() {
                return Err(TextError::new(format!(
                    "board `{}` has {} levels, {} given",
                    self.game.boards[board].name,
                    order.len(),
                    levels.len()
                )));
            }
            for (level_text, level_cells) in levels.iter().zip(&order) {
                let ranks: Vec<&str> = level_text.split('/').collect();
                if ranks.len() != level_cells.len() {
                    return Err(TextError::new(format!(
                        "board `{}` has {} ranks, {} given",
                        self.game.boards[board].name,
                        level_cells.len(),
                        ranks.len()
                    )));
                }
                for (rank_text, rank_cells) in ranks.iter().zip(level_cells) {
                    self.read_rank(rank_text, rank_cells, &mut cells)?;
                }
            }
        }
        let side = match self.game.players.iter().position(|p| p.name == fields[1]) {
            Some(side) => side,
            // A two-player game written with letters in the owner's case: `w` or `b`, as in FEN.
            None if self.letter_case_pieces() && fields[1] == "w" => self.upper_player(),
            None if self.letter_case_pieces() && fields[1] == "b" => self.lower_player(),
            None => {
                return Err(TextError::new(format!(
                    "side to move: no player is called `{}`",
                    fields[1]
                )))
            }
        };
        let mut hands = vec![vec![0u8; self.game.pieces.len()]; players + 1];
        if fields[2] != "-" {
            for group in fields[2].split(',') {
                let (name, letters) = group
                    .split_once(':')
                    .ok_or_else(|| TextError::new(format!("hand `{group}` is not NAME:PIECES")))?;
                let row = match self.game.players.iter().position(|p| p.name == name) {
                    Some(i) => i,
                    None if name == "shared" => players,
                    None => return Err(TextError::new(format!("no player is called `{name}`"))),
                };
                for token in letters.split(['(', ')']).filter(|t| !t.is_empty()) {
                    let piece = self.piece_by_letter(token)?;
                    hands[row][piece] = hands[row][piece].saturating_add(1);
                }
            }
        }
        let mut en_passant = Vec::new();
        if fields[3] != "-" {
            for pair in fields[3].split(',') {
                let (t, v) = pair.split_once('>').ok_or_else(|| {
                    TextError::new(format!("en passant `{pair}` is not TARGET>VICTIM"))
                })?;
                let cell = |name: &str| {
                    self.cell_id(name)
                        .ok_or_else(|| TextError::new(format!("no cell `{name}`")))
                };
                en_passant.push((cell(t)?, cell(v)?));
            }
        }
        let number = |s: &str| {
            s.parse::<u32>()
                .map_err(|_| TextError::new(format!("`{s}` is not a number")))
        };
        let mut position = Position {
            cells,
            hands,
            side,
            en_passant,
            halfmove: number(fields[4])?,
            fullmove: number(fields[5])?,
            ..Position::empty(0, 0, players)
        };
        for extra in &fields[6..] {
            if let Some(list) = extra.strip_prefix("checks=") {
                for (player, n) in list.split(',').enumerate().take(players) {
                    position.checks[player] = number(n)?;
                }
            } else if let Some(n) = extra.strip_prefix("turn=") {
                position.turn_moves = number(n)?;
                let per_turn = self.game.turn.moves.max(1);
                if position.turn_moves >= per_turn {
                    return Err(TextError::new(format!(
                        "`{extra}`: a turn has {per_turn} single move{}, so at most {} can be done",
                        if per_turn == 1 { "" } else { "s" },
                        per_turn - 1
                    )));
                }
            } else if let Some(list) = extra.strip_prefix("out=") {
                let player = |name: &str| {
                    self.game
                        .players
                        .iter()
                        .position(|p| p.name == name)
                        .ok_or_else(|| TextError::new(format!("no player is called `{name}`")))
                };
                for item in list.split(',') {
                    let mut parts = item.split(':');
                    let p = player(parts.next().unwrap_or_default())?;
                    position.eliminated |= 1 << p;
                    if let Some(among) = parts.next() {
                        position.dropped_among[p] = among.parse::<u8>().map_err(|_| {
                            TextError::new(format!("out `{item}`: `{among}` is not a number"))
                        })?;
                    }
                    if let Some(mater) = parts.next() {
                        position.mated_by[p] = player(mater)? as u8 + 1;
                    }
                    if parts.next().is_some() {
                        return Err(TextError::new(format!(
                            "out `{item}` is not NAME[:PLAYERS[:MATER]]"
                        )));
                    }
                }
            } else if let Some(list) = extra.strip_prefix("under=") {
                for item in list.split(',') {
                    let (cell, token) = item.split_once(':').ok_or_else(|| {
                        TextError::new(format!("stack `{item}` is not CELL:(PIECE)"))
                    })?;
                    let cell = self
                        .cell_id(cell)
                        .ok_or_else(|| TextError::new(format!("no cell `{cell}`")))?;
                    let mut below = vec![Occupant::EMPTY];
                    self.read_rank(token, &[0], &mut below)?;
                    position.stacks.push((cell, below[0]));
                }
            } else {
                return Err(TextError::new(format!("unknown field `{extra}`")));
            }
        }
        position.hash = self.compute_hash(&position);
        Ok(position)
    }

    fn piece_by_letter(&self, letters: &str) -> Result<usize, TextError> {
        self.game
            .pieces
            .iter()
            .position(|p| p.letter == letters)
            .ok_or_else(|| TextError::new(format!("no piece has the letters `{letters}`")))
    }

    fn read_rank(
        &self,
        text: &str,
        rank_cells: &[usize],
        cells: &mut [Occupant],
    ) -> Result<(), TextError> {
        let chars: Vec<char> = text.chars().collect();
        let mut index = 0usize;
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii_digit() {
                index = index.saturating_add(super::fen::read_count(&chars, &mut i));
                continue;
            }
            if self.letter_case_pieces() && (chars[i] == '+' || chars[i].is_ascii_alphabetic()) {
                // A piece as FEN writes it: its letter in its owner's case (`+X` for a promoted type
                // without letters of its own), `~` after a piece that got its type by promotion.
                let mut letter = String::new();
                if chars[i] == '+' {
                    letter.push('+');
                    i += 1;
                }
                let Some(&c) = chars.get(i).filter(|c| c.is_ascii_alphabetic()) else {
                    return Err(TextError::new(format!("unexpected `+` in rank `{text}`")));
                };
                letter.push(c);
                i += 1;
                let (piece, owner) = self
                    .letter_piece(&letter)
                    .ok_or_else(|| TextError::new(format!("no piece has the letter `{letter}`")))?;
                let mut promoted = letter.starts_with('+');
                let mut virgin = false;
                while let Some(&flag) = chars.get(i).filter(|c| matches!(**c, '*' | '~')) {
                    virgin |= flag == '*';
                    promoted |= flag == '~';
                    i += 1;
                }
                let cell = *rank_cells.get(index).ok_or_else(|| {
                    TextError::new(format!(
                        "rank `{text}` is longer than {} cells",
                        rank_cells.len()
                    ))
                })?;
                cells[cell] = Occupant::new(piece, owner, virgin, promoted);
                index += 1;
                continue;
            }
            if chars[i] != '(' {
                return Err(TextError::new(format!(
                    "unexpected `{}` in rank `{text}`",
                    chars[i]
                )));
            }
            let close = chars[i..]
                .iter()
                .position(|&c| c == ')')
                .ok_or_else(|| TextError::new(format!("unclosed `(` in rank `{text}`")))?
                + i;
            let token: String = chars[i + 1..close].iter().collect();
            let digits: String = token.chars().take_while(char::is_ascii_digit).collect();
            let owner: usize = digits
                .parse()
                .map_err(|_| TextError::new(format!("piece `({token})` has no owner number")))?;
            if owner >= self.game.players.len() {
                return Err(TextError::new(format!(
                    "piece `({token})`: no player {owner}"
                )));
            }
            let piece = self.piece_by_letter(&token[digits.len()..])?;
            i = close + 1;
            let mut virgin = false;
            let mut promoted = false;
            let mut waiting = false;
            while let Some(&flag) = chars.get(i).filter(|c| matches!(**c, '*' | '~' | '^')) {
                virgin |= flag == '*';
                promoted |= flag == '~';
                waiting |= flag == '^';
                i += 1;
            }
            let cell = *rank_cells.get(index).ok_or_else(|| {
                TextError::new(format!(
                    "rank `{text}` is longer than {} cells",
                    rank_cells.len()
                ))
            })?;
            cells[cell] = Occupant::new(piece, owner, virgin, promoted).with_waiting(waiting);
            index += 1;
        }
        if index != rank_cells.len() {
            return Err(TextError::new(format!(
                "rank `{text}` has {index} cells, the board has {}",
                rank_cells.len()
            )));
        }
        Ok(())
    }
}
