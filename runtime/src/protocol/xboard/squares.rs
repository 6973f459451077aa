//! Squares, moves and positions as XBoard writes them, and their translation to and from the game's own
//! notation (docs/protocols.md).
//!
//! XBoard names a square by its file letter (`a` for the leftmost file) and its rank number, counted from
//! 1, except on boards of exactly 10 ranks, where ranks count from 0 (the CECP specification; MaxQi and
//! Fairy-Stockfish open xiangqi with `g0e2`, `h2e2`). A game's cells may be named otherwise (`a10`, or
//! labels of its own), so every move and position crossing the protocol is translated.

use std::collections::HashMap;

use super::super::GameInfo;
use super::setup::{native_name, PieceTable};

/// One castling right that XBoard's FEN cannot write (its `K` and `Q` find only partners drawn as
/// rooks), though XBoard allows the castling itself: granted back when a position from XBoard has
/// the king and the partner on their start cells.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HiddenRight {
    /// The right as the game's FEN writes it (`K`, `Q`, `k`, `q`).
    right: char,
    /// The king's start cell (file, rank) and letter.
    king: (usize, usize, String),
    /// The partner's start cell and letter.
    partner: (usize, usize, String),
}

/// The translation between the game's notation and XBoard's.
#[derive(Clone, Debug, Default)]
pub struct Dialect {
    to_xboard: HashMap<String, String>,
    to_game: HashMap<String, String>,
    /// The longest cell name, in bytes.
    longest: usize,
    /// Letters XBoard writes for pieces of its own variants that the game writes otherwise
    /// (xiangqi: XBoard's horse `H` and elephant `E` are the game's `N` and `B`).
    letters: Vec<(char, char)>,
    hidden_rights: Vec<HiddenRight>,
}

/// XBoard's name of the square at file `x`, rank `y` on a board of `ranks` ranks.
pub fn square_name(x: i32, y: i32, ranks: u32) -> Option<String> {
    let file = u8::try_from(x).ok().filter(|&x| x < 26)?;
    let rank = y + 1 - i32::from(ranks == 10);
    Some(format!("{}{rank}", (b'a' + file) as char))
}

impl Dialect {
    /// The translation for a game, with its start position in the game's FEN. Games that XBoard cannot
    /// show (several boards, 3D) keep their own notation.
    pub fn new(info: &GameInfo, start: &str) -> Dialect {
        let mut dialect = Dialect::default();
        let Some((_, ranks)) = info.flat_board() else {
            return dialect;
        };
        for cell in &info.cells {
            let Some(name) = square_name(cell.coord[0], cell.coord[1], ranks) else {
                continue;
            };
            dialect.longest = dialect.longest.max(cell.name.len());
            dialect.to_game.insert(name.clone(), cell.name.clone());
            dialect.to_xboard.insert(cell.name.clone(), name);
        }
        let native = native_name(info);
        if native.as_deref() == Some("xiangqi") {
            let has = |letter: &str| info.pieces.iter().any(|p| p.letter == letter);
            if has("N") && has("B") && !has("H") && !has("E") {
                dialect.letters = vec![('H', 'N'), ('E', 'B'), ('h', 'n'), ('e', 'b')];
            }
        }
        if native.is_none() {
            if let Some(table) = PieceTable::new(info) {
                dialect.hidden_rights = hidden_rights(info, &table, start);
            }
        }
        dialect
    }

    /// A move (or any text naming cells) written with XBoard's square names.
    pub fn to_xboard(&self, text: &str) -> String {
        if self.to_xboard.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        'scan: while let Some(c) = rest.chars().next() {
            for len in (1..=self.longest.min(rest.len())).rev() {
                let Some(name) = rest.get(..len) else {
                    continue;
                };
                if let Some(square) = self.to_xboard.get(name) {
                    out.push_str(square);
                    rest = &rest[len..];
                    continue 'scan;
                }
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        out
    }

    /// A move XBoard wrote, with the game's cell names.
    pub fn from_xboard(&self, text: &str) -> String {
        if self.to_game.is_empty() {
            return text.to_string();
        }
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_lowercase() {
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                // The longest run of digits that names a square (XBoard writes no leading zeros but
                // for rank 0 of a 10-rank board).
                let found = (1..=digits)
                    .rev()
                    .find_map(|n| self.to_game.get(&text[i..i + 1 + n]).map(|name| (name, n)));
                if let Some((name, n)) = found {
                    out.push_str(name);
                    i += 1 + n;
                    continue;
                }
            }
            let ch = text[i..].chars().next().unwrap_or_default();
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
        out
    }

    /// A position XBoard sent (`setboard`), in the game's FEN: XBoard's piece letters replaced, its
    /// square names translated, the castling and en-passant fields supplied where XBoard leaves them
    /// out (xiangqi, shogi), and castling rights XBoard cannot write granted back.
    pub fn fen_from_xboard(&self, fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let Some((&placement, rest)) = fields.split_first() else {
            return fen.to_string();
        };
        let placement: String = placement
            .chars()
            .map(|c| {
                self.letters
                    .iter()
                    .find(|(from, _)| *from == c)
                    .map_or(c, |(_, to)| *to)
            })
            .collect();
        let side = rest.first().copied().unwrap_or("w");
        let mut castling = None;
        let mut en_passant = None;
        let mut extra = Vec::new();
        let mut counters = Vec::new();
        for &field in rest.iter().skip(1) {
            if field.bytes().all(|b| b.is_ascii_digit()) {
                counters.push(field);
            } else if field.contains('+') {
                extra.push(field);
            } else if castling.is_none() && en_passant.is_none() && !self.is_square(field) {
                castling = Some(field.to_string());
            } else if en_passant.is_none() {
                en_passant = Some(if field == "-" {
                    "-".to_string()
                } else {
                    self.from_xboard(field)
                });
            }
        }
        let mut castling = castling.unwrap_or_else(|| "-".into());
        let grid = Grid::read(&placement);
        for hidden in &self.hidden_rights {
            let stands = |(x, y, letter): &(usize, usize, String)| {
                grid.at(*x, *y).is_some_and(|l| l == letter)
            };
            if !castling.contains(hidden.right) && stands(&hidden.king) && stands(&hidden.partner) {
                if castling == "-" {
                    castling.clear();
                }
                castling.push(hidden.right);
            }
        }
        let mut out = vec![placement, side.to_string(), castling];
        out.push(en_passant.unwrap_or_else(|| "-".into()));
        out.extend(extra.iter().map(|s| s.to_string()));
        out.extend(counters.iter().map(|s| s.to_string()));
        out.join(" ")
    }

    /// A position in the game's FEN as XBoard reads it (a `setup` line): square names translated, and
    /// for a shogi parent no castling and en-passant fields.
    pub fn fen_to_xboard(&self, fen: &str, parent: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut out: Vec<String> = Vec::new();
        for (index, field) in fields.iter().enumerate() {
            match index {
                2 | 3 if parent == "shogi" => {}
                3 if *field != "-" => out.push(self.to_xboard(field)),
                _ => out.push((*field).to_string()),
            }
        }
        out.join(" ")
    }

    fn is_square(&self, text: &str) -> bool {
        self.to_game.contains_key(text)
    }
}

/// The castling rights of the start position that XBoard's FEN cannot write: those whose partner is
/// not drawn as a rook.
fn hidden_rights(info: &GameInfo, table: &PieceTable, start: &str) -> Vec<HiddenRight> {
    let placement = start.split_whitespace().next().unwrap_or_default();
    let grid = Grid::read(placement);
    let mut hidden = Vec::new();
    for castling in &info.castling {
        let king = &info.pieces[castling.king].letter;
        for (direction, partners) in &castling.partners {
            if partners.iter().any(|&p| table.is_rook(p)) {
                continue;
            }
            for upper in [true, false] {
                let case = |letter: &str| {
                    if upper {
                        letter.to_ascii_uppercase()
                    } else {
                        letter.to_ascii_lowercase()
                    }
                };
                let king_letter = case(king);
                let Some((kx, ky)) = grid.find(&king_letter) else {
                    continue;
                };
                let letters: Vec<String> = partners
                    .iter()
                    .map(|&p| case(&info.pieces[p].letter))
                    .collect();
                // The outermost partner in that direction, as the game's FEN finds it.
                let mut xs: Vec<usize> = (0..grid.width(ky))
                    .filter(|&x| if *direction > 0 { x > kx } else { x < kx })
                    .collect();
                if *direction > 0 {
                    xs.reverse();
                }
                let Some(px) = xs
                    .into_iter()
                    .find(|&x| grid.at(x, ky).is_some_and(|l| letters.contains(l)))
                else {
                    continue;
                };
                let right = match (*direction > 0, upper) {
                    (true, true) => 'K',
                    (false, true) => 'Q',
                    (true, false) => 'k',
                    (false, false) => 'q',
                };
                let partner_letter = grid.at(px, ky).cloned().unwrap_or_default();
                hidden.push(HiddenRight {
                    right,
                    king: (kx, ky, king_letter),
                    partner: (px, ky, partner_letter),
                });
            }
        }
    }
    hidden
}

/// A FEN's piece placement as a grid of letters, rank 0 at the bottom.
struct Grid {
    ranks: Vec<Vec<Option<String>>>,
}

impl Grid {
    fn read(placement: &str) -> Grid {
        let board = placement.split('[').next().unwrap_or_default();
        let mut ranks: Vec<Vec<Option<String>>> = board
            .split('/')
            .map(|rank| {
                let mut cells = Vec::new();
                let chars: Vec<char> = rank.chars().collect();
                let mut i = 0;
                while i < chars.len() {
                    let c = chars[i];
                    if c.is_ascii_digit() {
                        let mut n = 0usize;
                        while i < chars.len() && chars[i].is_ascii_digit() {
                            n = n
                                .saturating_mul(10)
                                .saturating_add(chars[i] as usize - '0' as usize);
                            i += 1;
                        }
                        cells.extend(std::iter::repeat_n(None, n.min(1024)));
                        continue;
                    }
                    let mut letter = String::new();
                    if c == '+' {
                        letter.push('+');
                        i += 1;
                    }
                    if let Some(&l) = chars.get(i) {
                        letter.push(l);
                    }
                    i += 1;
                    if chars.get(i) == Some(&'~') {
                        i += 1;
                    }
                    cells.push(Some(letter));
                }
                cells
            })
            .collect();
        ranks.reverse();
        Grid { ranks }
    }

    fn at(&self, x: usize, y: usize) -> Option<&String> {
        self.ranks.get(y)?.get(x)?.as_ref()
    }

    fn width(&self, y: usize) -> usize {
        self.ranks.get(y).map_or(0, Vec::len)
    }

    fn find(&self, letter: &str) -> Option<(usize, usize)> {
        self.ranks.iter().enumerate().find_map(|(y, rank)| {
            rank.iter()
                .position(|cell| cell.as_deref() == Some(letter))
                .map(|x| (x, y))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_ranks_count_from_zero() {
        assert_eq!(square_name(0, 0, 10).as_deref(), Some("a0"));
        assert_eq!(square_name(8, 9, 10).as_deref(), Some("i9"));
        assert_eq!(square_name(0, 0, 8).as_deref(), Some("a1"));
        assert_eq!(square_name(1, 11, 12).as_deref(), Some("b12"));
        assert_eq!(square_name(26, 0, 8), None);
    }

    #[test]
    fn grids_read_counts_and_promoted_pieces() {
        let grid = Grid::read("r10/+P1k~/8[Pp]");
        assert_eq!(grid.at(0, 2).map(String::as_str), Some("r"));
        assert_eq!(grid.width(2), 11);
        assert_eq!(grid.at(0, 1).map(String::as_str), Some("+P"));
        assert_eq!(grid.at(2, 1).map(String::as_str), Some("k"));
        assert_eq!(grid.find("k"), Some((2, 1)));
    }
}
