//! Start-position strings: checks a FEN (Fairy-Stockfish dialect) against the game's board and pieces.

use super::Checker;
use crate::ast::{Value, ValueKind};
use crate::error::ErrorKind;
use crate::span::Span;
use vdl_runtime::model::Board;

impl Checker {
    /// Checks a FEN for a game with one 2D board. Returns the cells it fills, for overlap checks.
    pub(super) fn check_fen(&mut self, v: &Value) -> Vec<usize> {
        let ValueKind::Str { text, raw } = &v.kind else {
            return Vec::new();
        };
        if self.board_models.len() != 1 || self.dimensions != 2 {
            return Vec::new(); // multi-board and 3D positions use the vdl extension, checked when loaded
        }
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
                if c == '~' || c == '*' {
                    x += usize::from(c == '*');
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
                    filled.push(board.first_cell + y * width + x);
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
