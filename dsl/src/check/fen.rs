//! Start-position strings: checks a FEN (Fairy-Stockfish dialect) against the game's board and pieces.

use std::collections::HashMap;

use vdl_runtime::model::{Board, Player};

use super::Checker;
use crate::ast::{Value, ValueKind};
use crate::error::ErrorKind;
use crate::span::Span;

impl Checker {
    /// Checks a start position: a FEN for a game with one 2D board and two sides, the vdl position
    /// text for the others (several boards, 3D boards, more sides), as the loader reads them. Returns
    /// the cells it fills, for overlap checks.
    pub(super) fn check_fen(&mut self, v: &Value, players: &[Player]) -> Vec<usize> {
        let ValueKind::Str { text, raw } = &v.kind else {
            return Vec::new();
        };
        if self.board_models.is_empty() || players.len() > super::model::MAX_PLAYERS {
            return Vec::new(); // no board, or too many sides, is its own error
        }
        if self.board_models.len() != 1 || self.dimensions != 2 || players.len() > 2 {
            return self.check_position_text(v, text, *raw, players);
        }
        // The cells of the board by coordinates: holes have none.
        let cell_at: HashMap<(i32, i32), usize> = self
            .cell_list
            .iter()
            .enumerate()
            .filter(|(_, c)| c.board == 0)
            .map(|(i, c)| ((c.coord[0], c.coord[1]), i))
            .collect();
        let base = v.span.start as usize + 1;
        let at = |i: usize, len: usize| {
            if *raw {
                Span::new(base + i, base + i + len.max(1))
            } else {
                v.span
            }
        };
        let board = self.board_models[0].clone();
        let (width, height) = (board.size[0] as usize, board.size[1] as usize);
        let placement_end = text.find(char::is_whitespace).unwrap_or(text.len());
        let placement = &text[..placement_end];
        let (grid, pocket) = match placement.find('[') {
            Some(open) => (&placement[..open], Some((open, &placement[open..]))),
            None => (placement, None),
        };
        let ranks: Vec<&str> = grid.split('/').collect();
        if ranks.len() != height {
            self.error(
                at(0, grid.len()),
                ErrorKind::InvalidFen {
                    detail: format!("{} ranks, the board has {height}", ranks.len()),
                },
            );
            return Vec::new();
        }
        let mut filled = Vec::new();
        let mut widths = Vec::new();
        let mut offset = 0;
        for (r, rank) in ranks.iter().enumerate() {
            let y = height - 1 - r;
            if let Some((i, c)) = rank.char_indices().find(|(_, c)| !c.is_ascii()) {
                self.error(
                    at(offset + i, c.len_utf8()),
                    ErrorKind::InvalidFen {
                        detail: format!("unexpected `{c}`"),
                    },
                );
                return filled;
            }
            let bytes = rank.as_bytes();
            let mut x: usize = 0;
            let mut i = 0;
            while i < bytes.len() {
                let c = bytes[i] as char;
                if c.is_ascii_digit() {
                    let start = i;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    x = x.saturating_add(rank[start..i].parse::<usize>().unwrap_or(usize::MAX));
                    continue;
                }
                if c == '~' {
                    i += 1;
                    continue;
                }
                if c == '*' {
                    // A hole, as Fairy-Stockfish writes a wall square.
                    // A hole, or a wall on a cell in a game with walls.
                    if let Some(&cell) = cell_at
                        .get(&(x as i32, y as i32))
                        .filter(|_| x < width && !self.walls)
                    {
                        self.error(
                            at(offset + i, 1),
                            ErrorKind::InvalidFen {
                                detail: format!(
                                    "`*` marks a hole, and `{}` is a cell of the board",
                                    self.cell_list[cell].name
                                ),
                            },
                        );
                    }
                    x = x.saturating_add(1);
                    i += 1;
                    continue;
                }
                let start = i;
                if c == '+' {
                    i += 1;
                }
                if i >= bytes.len() || !bytes[i].is_ascii_alphabetic() {
                    self.error(
                        at(offset + start, 1),
                        ErrorKind::InvalidFen {
                            detail: format!("unexpected `{}`", c.escape_default()),
                        },
                    );
                    return filled;
                }
                i += 1;
                let letter = &rank[start..i];
                if !self.mark_letter(letter) {
                    self.error(
                        at(offset + start, i - start),
                        ErrorKind::FenUnknownLetter {
                            letter: letter.to_string(),
                        },
                    );
                }
                if x < width {
                    match cell_at.get(&(x as i32, y as i32)) {
                        Some(&cell) => filled.push(cell),
                        None => self.error(
                            at(offset + start, i - start),
                            ErrorKind::InvalidFen {
                                detail: format!(
                                    "a piece on the hole at file {} rank {} (write `*` there)",
                                    board.files.get(x).map_or("?", String::as_str),
                                    board.ranks.get(y).map_or("?", String::as_str)
                                ),
                            },
                        ),
                    }
                }
                x = x.saturating_add(1);
            }
            widths.push((x, at(offset, rank.len())));
            offset += rank.len() + 1;
        }
        self.check_rank_widths(&widths, width, at(0, grid.len()));
        if let Some((open, pocket)) = pocket {
            for (i, c) in pocket
                .char_indices()
                .filter(|(_, c)| c.is_ascii_alphabetic())
            {
                if !self.mark_letter(&c.to_string()) {
                    self.error(
                        at(open + i, 1),
                        ErrorKind::FenUnknownLetter {
                            letter: c.to_string(),
                        },
                    );
                }
            }
        }
        self.check_fen_fields(text, &at, &board);
        filled
    }

    /// The fields after the placement, as the loader reads them: side to move, castling rights (`KQkq`
    /// or file letters of the board), en-passant cell (a cell of the board), an optional n-check
    /// counter `N+N`, and the half-move and full-move counters.
    fn check_fen_fields(&mut self, text: &str, at: &dyn Fn(usize, usize) -> Span, board: &Board) {
        let mut fields = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    fields.push((s, &text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        let invalid = |detail: String| ErrorKind::InvalidFen { detail };
        if let Some(&(i, side)) = fields.get(1) {
            if !matches!(side, "w" | "b") {
                self.error(
                    at(i, side.len()),
                    invalid(format!("side to move `{side}` is not `w` or `b`")),
                );
            }
        }
        if let Some(&(i, castling)) = fields.get(2).filter(|_| self.castling) {
            let width = board.files.len();
            let wrong = castling.char_indices().find(|&(_, c)| {
                castling != "-"
                    && !matches!(c.to_ascii_uppercase(), 'K' | 'Q')
                    && !(c.is_ascii_alphabetic()
                        && ((c.to_ascii_uppercase() as u8 - b'A') as usize) < width)
            });
            if let Some((j, c)) = wrong {
                let detail = if c.is_ascii_alphabetic() {
                    let files = match board.files.as_slice() {
                        [first, .., last] => format!("{first}..{last}"),
                        _ => board.files.join(""),
                    };
                    format!("castling file `{c}` is off the board (files {files})")
                } else {
                    format!("unexpected `{}` in the castling field", c.escape_default())
                };
                self.error(at(i + j, c.len_utf8()), invalid(detail));
            }
        }
        let mut rest = fields.iter().skip(3).copied().peekable();
        if let Some((i, ep)) = rest.next() {
            let on_board = self.cell_list[board.first_cell..board.first_cell + board.cell_count]
                .iter()
                .any(|c| c.name == ep);
            if ep != "-" && !on_board {
                let off_board = self.off_board_of(ep, board);
                self.error(
                    at(i, ep.len()),
                    ErrorKind::UnknownCell {
                        name: ep.to_string(),
                        suggestion: None,
                        off_board,
                    },
                );
            }
        }
        let number = |s: &str| s.parse::<u32>().is_ok();
        if let Some(&(i, checks)) = rest.peek().filter(|(_, f)| f.contains('+')) {
            rest.next();
            if !checks.split('+').all(number) {
                self.error(
                    at(i, checks.len()),
                    invalid(format!("check counter `{checks}` is not `N+N`")),
                );
            }
        }
        for what in ["half-move counter", "move number"] {
            let Some((i, n)) = rest.next() else { break };
            if !number(n) {
                self.error(
                    at(i, n.len()),
                    invalid(format!("{what} `{n}` is not a number")),
                );
            }
        }
    }

    /// Rank fields whose cells do not fill the board's width (E2021): one error for the whole
    /// placement when every field has the same wrong width (the board's size and the FEN disagree),
    /// otherwise one per field.
    fn check_rank_widths(&mut self, widths: &[(usize, Span)], width: usize, grid: Span) {
        let first = widths.first().map_or(width, |(x, _)| *x);
        if widths.len() > 1 && first != width && widths.iter().all(|(x, _)| *x == first) {
            self.error(
                grid,
                ErrorKind::FenRankWidth {
                    rank: None,
                    found: first,
                    expected: width,
                },
            );
            return;
        }
        for (r, (x, span)) in widths.iter().enumerate() {
            if *x != width {
                self.error(
                    *span,
                    ErrorKind::FenRankWidth {
                        rank: Some(r + 1),
                        found: *x,
                        expected: width,
                    },
                );
            }
        }
    }

    /// Checks the vdl position text (docs/fen.md) of a start position: `BOARDS [SIDE [HANDS
    /// [EN-PASSANT [HALFMOVE [FULLMOVE [EXTRA...]]]]]]`, boards separated by `|`, levels (from the
    /// top) by `//`, ranks (from the top) by `/`, holes skipped; a piece is `(OWNER LETTERS)` with the
    /// flags `*`, `~`, `^`, or, in a two-player game with a `letters upper` player, a FEN letter in its
    /// owner's case.
    fn check_position_text(
        &mut self,
        v: &Value,
        text: &str,
        raw: bool,
        players: &[Player],
    ) -> Vec<usize> {
        let base = v.span.start as usize + 1;
        let at = |i: usize, len: usize| {
            if raw {
                Span::new(base + i, base + i + len.max(1))
            } else {
                v.span
            }
        };
        let letters_game =
            players.len() == 2 && players.iter().filter(|p| p.upper_case).count() == 1;
        let fields = pieces_of(text, 0, |c: char| c.is_whitespace());
        let Some(&(start, boards_text)) = fields.first() else {
            self.error(
                at(0, text.len()),
                ErrorKind::InvalidFen {
                    detail: "an empty position".into(),
                },
            );
            return Vec::new();
        };
        let boards = pieces_of(boards_text, start, |c| c == '|');
        if boards.len() != self.board_models.len() {
            self.error(
                at(start, boards_text.len()),
                ErrorKind::InvalidFen {
                    detail: format!(
                        "the game has {} (separated by `|`), {} given",
                        count(self.board_models.len(), "board"),
                        boards.len()
                    ),
                },
            );
            return Vec::new();
        }
        let mut filled = Vec::new();
        for (board, &(board_start, board_text)) in boards.iter().enumerate() {
            let model = self.board_models[board].clone();
            // The board's cells in text order: levels from the top, ranks from the top, files.
            let mut rows: Vec<Vec<Vec<usize>>> = Vec::new();
            for z in (0..model.size[2] as i32).rev() {
                let mut ranks = Vec::new();
                for y in (0..model.size[1] as i32).rev() {
                    let mut row: Vec<usize> = (0..self.cell_list.len())
                        .filter(|&c| {
                            let cell = &self.cell_list[c];
                            cell.board == board && cell.coord[1] == y && cell.coord[2] == z
                        })
                        .collect();
                    row.sort_by_key(|&c| self.cell_list[c].coord[0]);
                    ranks.push(row);
                }
                rows.push(ranks);
            }
            let levels = split_levels(board_text, board_start);
            if levels.len() != rows.len() {
                self.error(
                    at(board_start, board_text.len()),
                    ErrorKind::InvalidFen {
                        detail: format!(
                            "board `{}` has {} (from the top, separated by `//`), {} given",
                            model.name,
                            count(rows.len(), "level"),
                            levels.len()
                        ),
                    },
                );
                continue;
            }
            for (level, (&(level_start, level_text), ranks)) in levels.iter().zip(&rows).enumerate()
            {
                let rank_texts = pieces_of(level_text, level_start, |c| c == '/');
                if rank_texts.len() != ranks.len() {
                    self.error(
                        at(level_start, level_text.len()),
                        ErrorKind::InvalidFen {
                            detail: format!(
                                "board `{}` has {} (from the top, separated by `/`), {} given",
                                model.name,
                                count(ranks.len(), "rank"),
                                rank_texts.len()
                            ),
                        },
                    );
                    continue;
                }
                for (rank, (&(rank_start, rank_text), cells)) in
                    rank_texts.iter().zip(ranks).enumerate()
                {
                    let Some(count) = self.check_text_rank(
                        rank_text,
                        rank_start,
                        &at,
                        players.len(),
                        letters_game,
                    ) else {
                        continue;
                    };
                    if count.len() != cells.len() {
                        let where_ = if rows.len() > 1 {
                            format!(" of level {} (from the top)", level + 1)
                        } else {
                            String::new()
                        };
                        self.error(
                            at(rank_start, rank_text.len()),
                            ErrorKind::InvalidFen {
                                detail: format!(
                                    "rank {} (from the top){where_} of board `{}` has {} cells, {} given",
                                    rank + 1,
                                    model.name,
                                    cells.len(),
                                    count.len()
                                ),
                            },
                        );
                        continue;
                    }
                    filled.extend(
                        count
                            .iter()
                            .zip(cells)
                            .filter(|(occupied, _)| **occupied)
                            .map(|(_, &cell)| cell),
                    );
                }
            }
        }
        if let Some(&(side_start, side)) = fields.get(1) {
            let named = players.iter().any(|p| p.name == side);
            if !(named || (letters_game && matches!(side, "w" | "b"))) {
                let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
                self.error(
                    at(side_start, side.len()),
                    ErrorKind::InvalidFen {
                        detail: format!(
                            "the side to move `{side}` is not a player ({}{})",
                            names.join(", "),
                            if letters_game { ", or `w`, `b`" } else { "" }
                        ),
                    },
                );
            }
        }
        if let Some(&(hands_start, hands)) = fields.get(2).filter(|(_, h)| *h != "-") {
            for &(group_start, group) in &pieces_of(hands, hands_start, |c| c == ',') {
                let owner_ok = group.split_once(':').is_some_and(|(name, letters)| {
                    (name == "shared" || players.iter().any(|p| p.name == name))
                        && letters
                            .split(['(', ')'])
                            .filter(|t| !t.is_empty())
                            .all(|t| self.mark_exact_letters(t))
                });
                if !owner_ok {
                    self.error(
                        at(group_start, group.len()),
                        ErrorKind::InvalidFen {
                            detail: format!("the hand `{group}` is not NAME:(LETTERS)..."),
                        },
                    );
                }
            }
        }
        if let Some(&(ep_start, ep)) = fields.get(3).filter(|(_, e)| *e != "-") {
            for &(pair_start, pair) in &pieces_of(ep, ep_start, |c| c == ',') {
                let named = |n: &str| self.cell_list.iter().any(|c| c.name == n);
                let ok = pair
                    .split_once('>')
                    .is_some_and(|(t, v)| named(t) && named(v));
                if !ok {
                    self.error(
                        at(pair_start, pair.len()),
                        ErrorKind::InvalidFen {
                            detail: format!("the en-passant right `{pair}` is not TARGET>VICTIM"),
                        },
                    );
                }
            }
        }
        for &(number_start, number) in fields.iter().skip(4).take(2) {
            if number.parse::<u32>().is_err() {
                self.error(
                    at(number_start, number.len()),
                    ErrorKind::InvalidFen {
                        detail: format!("`{number}` is not a move counter"),
                    },
                );
            }
        }
        for &(extra_start, extra) in fields.iter().skip(6) {
            if let Some(detail) = self.extra_field_problem(extra, players) {
                self.error(
                    at(extra_start, extra.len()),
                    ErrorKind::InvalidFen { detail },
                );
            }
        }
        filled
    }

    /// What is wrong with an extra field of the vdl position text (`checks=N,N...`, `turn=N`,
    /// `out=NAME[:N[:MATER]],...`, `under=CELL:(OWNER LETTERS),...`), if anything.
    fn extra_field_problem(&mut self, extra: &str, players: &[Player]) -> Option<String> {
        let number = |t: &str| t.parse::<u32>().is_ok();
        let player = |t: &str| players.iter().any(|p| p.name == t);
        let ok = if let Some(list) = extra.strip_prefix("checks=") {
            list.split(',').all(number)
        } else if let Some(n) = extra.strip_prefix("turn=") {
            number(n)
        } else if let Some(list) = extra.strip_prefix("out=") {
            list.split(',').all(|item| {
                let parts: Vec<&str> = item.split(':').collect();
                player(parts[0])
                    && parts.get(1).is_none_or(|n| n.parse::<u8>().is_ok())
                    && parts.get(2).is_none_or(|m| player(m))
                    && parts.len() <= 3
            })
        } else if let Some(list) = extra.strip_prefix("under=") {
            list.split(',').all(|item| {
                item.split_once(':').is_some_and(|(cell, piece)| {
                    let inner = piece.strip_prefix('(').and_then(|p| p.strip_suffix(')'));
                    let owner_and_letters = inner.is_some_and(|inner| {
                        let digits: String =
                            inner.chars().take_while(char::is_ascii_digit).collect();
                        digits.parse::<usize>().is_ok_and(|o| o < players.len())
                            && self.mark_exact_letters(&inner[digits.len()..])
                    });
                    self.cell_list.iter().any(|c| c.name == cell) && owner_and_letters
                })
            })
        } else {
            return Some(format!(
                "unknown field `{extra}` (extra fields are `checks=`, `turn=`, `out=`, `under=`)"
            ));
        };
        (!ok).then(|| format!("the field `{extra}` does not read"))
    }

    /// Reads one rank of the vdl position text, reporting bad pieces; returns, per cell it covers,
    /// whether a piece stands there (`None` after an error in the rank).
    fn check_text_rank(
        &mut self,
        rank: &str,
        start: usize,
        at: &dyn Fn(usize, usize) -> Span,
        sides: usize,
        letters_game: bool,
    ) -> Option<Vec<bool>> {
        let chars: Vec<(usize, char)> = rank.char_indices().collect();
        let mut cells = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let (offset, c) = chars[i];
            if c.is_ascii_digit() {
                let mut n = 0usize;
                while i < chars.len() && chars[i].1.is_ascii_digit() {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(chars[i].1.to_digit(10).unwrap_or(0) as usize);
                    i += 1;
                }
                cells.extend(std::iter::repeat_n(false, n.min(1 << 16)));
                continue;
            }
            if c == '(' {
                let Some(close) = chars[i..].iter().position(|&(_, c)| c == ')') else {
                    self.error(
                        at(start + offset, rank.len() - offset),
                        ErrorKind::InvalidFen {
                            detail: "unclosed `(`".into(),
                        },
                    );
                    return None;
                };
                let inner: String = chars[i + 1..i + close].iter().map(|&(_, c)| c).collect();
                let digits: String = inner.chars().take_while(char::is_ascii_digit).collect();
                let letters = &inner[digits.len()..];
                let token_span = at(start + offset, close + 1);
                match digits.parse::<usize>() {
                    Ok(owner) if owner < sides => {}
                    _ => {
                        self.error(
                            token_span,
                            ErrorKind::InvalidFen {
                                detail: format!(
                                    "the piece `({inner})` names no owner: an owner is 0 to {}, the sides in declaration order",
                                    sides.saturating_sub(1)
                                ),
                            },
                        );
                        return None;
                    }
                }
                if !self.mark_exact_letters(letters) {
                    self.error(
                        token_span,
                        ErrorKind::FenUnknownLetter {
                            letter: letters.to_string(),
                        },
                    );
                }
                i += close + 1;
            } else if letters_game && (c == '+' || c.is_ascii_alphabetic()) {
                let mut end = i;
                if c == '+' {
                    end += 1;
                }
                if !chars
                    .get(end)
                    .is_some_and(|&(_, l)| l.is_ascii_alphabetic())
                {
                    self.error(
                        at(start + offset, 1),
                        ErrorKind::InvalidFen {
                            detail: format!("unexpected `{c}`"),
                        },
                    );
                    return None;
                }
                end += 1;
                let letter: String = chars[i..end].iter().map(|&(_, c)| c).collect();
                if !self.mark_letter(&letter) {
                    self.error(
                        at(start + offset, end - i),
                        ErrorKind::FenUnknownLetter { letter },
                    );
                }
                i = end;
            } else {
                self.error(
                    at(start + offset, c.len_utf8()),
                    ErrorKind::InvalidFen {
                        detail: if letters_game {
                            format!("unexpected `{c}`")
                        } else {
                            format!("unexpected `{c}` (a piece is `(OWNER LETTERS)`, e.g. `(0K)`)")
                        },
                    },
                );
                return None;
            }
            while i < chars.len() && matches!(chars[i].1, '*' | '~' | '^') {
                i += 1;
            }
            cells.push(true);
        }
        Some(cells)
    }

    /// Marks the piece whose letters are exactly these as used; false if there is none.
    fn mark_exact_letters(&mut self, letters: &str) -> bool {
        match self.piece_letters.iter().position(|l| l == letters) {
            Some(i) => {
                self.used_pieces[i] = true;
                true
            }
            None => false,
        }
    }

    /// Marks the piece with this FEN letter (either case) as used; false if there is none.
    fn mark_letter(&mut self, letter: &str) -> bool {
        let upper = letter.to_ascii_uppercase();
        match self
            .piece_letters
            .iter()
            .position(|l| l.to_ascii_uppercase() == upper)
        {
            Some(i) => {
                self.used_pieces[i] = true;
                true
            }
            None => false,
        }
    }
}

/// Splits `text` (found at byte `start` of the string) where `split` holds, with each piece's offset;
/// runs of separators that are whitespace give no empty pieces.
fn pieces_of(text: &str, start: usize, split: impl Fn(char) -> bool) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    let whitespace = split(' ');
    for (i, c) in text.char_indices() {
        if split(c) {
            if !(whitespace && from == i) {
                out.push((start + from, &text[from..i]));
            }
            from = i + c.len_utf8();
        }
    }
    if !(whitespace && from == text.len()) {
        out.push((start + from, &text[from..]));
    }
    out
}

/// Splits a board's text into its levels at `//`, with each level's offset.
fn split_levels(text: &str, start: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("//") {
        out.push((start + from, &text[from..from + i]));
        from += i + 2;
    }
    out.push((start + from, &text[from..]));
    out
}

/// `1 level`, `2 levels`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
