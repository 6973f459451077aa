//! Start-position strings: checks a FEN (Fairy-Stockfish dialect) against the game's board and pieces.

use super::Checker;
use crate::ast::{Value, ValueKind};
use crate::error::ErrorKind;
use crate::span::Span;

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
        let placement_end = text.find(' ').unwrap_or(text.len());
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
        let fields: Vec<&str> = text.split_whitespace().collect();
        if let Some(side) = fields.get(1) {
            if !matches!(*side, "w" | "b") {
                let i = text[placement_end..]
                    .find(side)
                    .map_or(0, |i| i + placement_end);
                self.error(
                    at(i, side.len()),
                    ErrorKind::InvalidFen {
                        detail: format!("side to move `{side}` is not `w` or `b`"),
                    },
                );
            }
        }
        filled
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
