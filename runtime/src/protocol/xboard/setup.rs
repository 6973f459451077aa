//! How a game is described to XBoard: its variant name, and for games XBoard does not know, the
//! `setup` line (piece table, board size, holdings, parent variant, start position) and one `piece`
//! line per piece with its moves in the XBetza dialect XBoard reads (docs/protocols.md).

use super::super::{GameInfo, PieceInfo};
use crate::model::MovePart;

/// The variants XBoard plays by its own rules (its `VARIANT_NAMES`, without `fairy`, the catch-all it
/// lets engines define). For these the engine sends no `setup` and no `piece` line: XBoard ignores them
/// while it tests legality, and uses its own rules, pieces and start position.
pub const NATIVE_VARIANTS: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
];

/// XBoard's piece images, in the order of its piece table: slot `i` of a `setup` table gives the
/// letter drawn with image `i`; the last slot is the king.
const IMAGES: &[u8; 22] = b"PNBRQFEACWMOHIJGDVLSUK";
/// The king's slot.
const KING: usize = 21;
/// A piece in slot `s` below this promotes to the piece in slot `s + PROMOTED` (XBoard's pairing).
const PROMOTED: usize = 11;

/// The variant name XBoard knows the game by: orthodox chess is `normal`, a game named or aliased
/// like one of XBoard's own variants takes that name, anything else its own name.
pub fn variant_name(info: &GameInfo) -> String {
    if info.name == "chess" {
        return "normal".into();
    }
    native_name(info).unwrap_or_else(|| info.name.clone())
}

/// The XBoard variant the game is, when XBoard plays it by its own rules: chess, or a game whose
/// name or alias is one of [`NATIVE_VARIANTS`].
pub fn native_name(info: &GameInfo) -> Option<String> {
    if info.name == "chess" {
        return Some("normal".into());
    }
    std::iter::once(&info.name)
        .chain(&info.aliases)
        .find(|name| NATIVE_VARIANTS.contains(&name.as_str()))
        .cloned()
}

/// The names listed in the `variants` feature: the XBoard name first, then every other name the
/// game answers to.
pub fn variant_names(info: &GameInfo) -> Vec<String> {
    let mut names = vec![variant_name(info)];
    for name in info.names() {
        // Orthodox chess is `normal` to XBoard (`variant chess` is still accepted).
        let chess = info.name == "chess" && name == "chess";
        if !chess && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Where each piece is drawn: for each of XBoard's 22 slots, the piece in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTable {
    /// The piece in each slot (`None`: the image is not used).
    pub slots: [Option<usize>; 22],
}

impl PieceTable {
    /// Chooses a slot for every piece: the royal piece in the king's slot, the pawn (`P`) in the
    /// pawn's (XBoard promotes only that one on the last rank), each other piece in the slot of its
    /// letter when free, else in a free one. A piece whose promoted form has no letter (shogi) goes
    /// to a slot whose partner slot (`+11`) takes that form; `None` when a piece finds no slot.
    pub fn new(info: &GameInfo) -> Option<PieceTable> {
        let mut slots: [Option<usize>; 22] = [None; 22];
        let pieces = &info.pieces;
        let shogi = pieces.iter().any(|p| p.promoted_from.is_some());
        let image = |piece: &PieceInfo| -> Option<usize> {
            let letter = single_letter(piece)?;
            IMAGES[..KING]
                .iter()
                .position(|&c| c == letter.to_ascii_uppercase() as u8)
        };
        let has_form = |index: usize| pieces.iter().any(|p| p.promoted_from == Some(index));
        let mut placed = vec![false; pieces.len()];
        // The royal piece.
        if let Some(king) = pieces
            .iter()
            .position(|p| p.royal && single_letter(p).is_some())
        {
            slots[KING] = Some(king);
            placed[king] = true;
        }
        // The pawn.
        if let Some(pawn) = pieces
            .iter()
            .position(|p| single_letter(p) == Some('P') && !p.royal)
        {
            slots[0] = Some(pawn);
            placed[pawn] = true;
        }
        // Pieces with letterless promoted forms: in a slot below 11 (XBoard's shogi rules promote
        // only slots below 9; slots 1 and 4 are its knight and lance, which must promote on the last
        // ranks).
        for (index, piece) in pieces.iter().enumerate() {
            if placed[index] || !has_form(index) {
                continue;
            }
            if let Some(slot) = image(piece).filter(|&s| s < PROMOTED && slots[s].is_none()) {
                slots[slot] = Some(index);
                placed[index] = true;
            }
        }
        for (index, piece) in pieces.iter().enumerate() {
            if placed[index] || !has_form(index) || single_letter(piece).is_none() {
                continue;
            }
            let preferred = if shogi {
                &[2, 3, 5, 6, 7, 8, 9, 10, 1, 4][..]
            } else {
                &[5, 6, 7, 8, 9, 10, 4, 1, 2, 3][..]
            };
            let slot = preferred
                .iter()
                .copied()
                .find(|&s| slots[s].is_none() && slots[s + PROMOTED].is_none())?;
            slots[slot] = Some(index);
            placed[index] = true;
        }
        // Promoted forms beside their bases.
        for (index, piece) in pieces.iter().enumerate() {
            let Some(base) = piece.promoted_from.filter(|_| piece.letter.is_empty()) else {
                continue;
            };
            let Some(slot) = slots.iter().position(|&s| s == Some(base)) else {
                continue;
            };
            if slot < PROMOTED && slots[slot + PROMOTED].is_none() {
                slots[slot + PROMOTED] = Some(index);
                placed[index] = true;
            }
        }
        // Every other piece with a letter: its own image, else a free slot.
        let mut rest = Vec::new();
        for (index, piece) in pieces.iter().enumerate() {
            if placed[index] || single_letter(piece).is_none() {
                continue;
            }
            match image(piece).filter(|&s| slots[s].is_none() && s != 0) {
                Some(slot) => {
                    slots[slot] = Some(index);
                    placed[index] = true;
                }
                None => rest.push(index),
            }
        }
        for index in rest {
            let slot = (1..KING).find(|&s| slots[s].is_none())?;
            slots[slot] = Some(index);
        }
        Some(PieceTable { slots })
    }

    /// The table as a `setup` line writes it: white's letters (`+` for a promoted form), then
    /// black's, `.` for unused images.
    pub fn text(&self, info: &GameInfo) -> String {
        let white: String = self
            .slots
            .iter()
            .map(|slot| match slot {
                None => '.',
                Some(piece) => match single_letter(&info.pieces[*piece]) {
                    Some(letter) => letter.to_ascii_uppercase(),
                    None => '+',
                },
            })
            .collect();
        format!("{white}{}", white.to_ascii_lowercase())
    }

    /// Whether a piece is drawn as XBoard's rook (the only partner XBoard's FEN castling rights
    /// `KQkq` find).
    pub fn is_rook(&self, piece: usize) -> bool {
        self.slots[3] == Some(piece)
    }
}

/// The single ASCII letter of a piece, if it has one.
fn single_letter(piece: &PieceInfo) -> Option<char> {
    let mut chars = piece.letter.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
        _ => None,
    }
}

/// XBoard's parent variant for an engine-defined game: `shogi` for games with drops and promoted
/// forms, `crazyhouse` for other games with drops, else `fairy`.
pub fn parent_variant(info: &GameInfo) -> &'static str {
    let promoted_forms = info.pieces.iter().any(|p| p.promoted_from.is_some());
    match (info.holdings > 0, promoted_forms) {
        (true, true) => "shogi",
        (true, false) => "crazyhouse",
        _ => "fairy",
    }
}

/// The `setup` line of an engine-defined variant: XBoard's piece table, the board size with holdings,
/// the parent variant and the start position (written for XBoard). `None` for the variants XBoard
/// plays by its own rules and for games XBoard cannot show (several boards, 3D, pieces it cannot
/// draw).
pub fn setup_line(info: &GameInfo, start: &str) -> Option<String> {
    if native_name(info).is_some() {
        return None;
    }
    let (files, ranks) = info.flat_board()?;
    let table = PieceTable::new(info)?;
    let parent = parent_variant(info);
    Some(format!(
        "setup ({}) {files}x{ranks}+{}_{parent} {start}",
        table.text(info),
        holdings_size(info, &table)
    ))
}

/// How many piece types XBoard must keep in hand: hands are indexed by a piece's place among the
/// table's pieces (promoted forms and the king aside), so up to the last piece that can be held.
fn holdings_size(info: &GameInfo, table: &PieceTable) -> usize {
    if info.holdings == 0 {
        return 0;
    }
    let mut count = 0;
    let mut size = 0;
    for slot in 0..KING {
        let Some(piece) = table.slots[slot] else {
            continue;
        };
        if info.pieces[piece].promoted_from.is_some() && info.pieces[piece].letter.is_empty() {
            continue;
        }
        count += 1;
        size = count;
    }
    size
}

/// The `piece` lines: each drawn piece's moves in XBetza for both colours (`&`), promoted forms as
/// `+L`. A king that castles gets `O` moves (`isO2`, with a `j` per cell between the partner and the
/// board's edge); castling that differs between the sides is described per colour, since each colour
/// sees the east on its other hand. `start` is the start position in the game's FEN.
pub fn piece_lines(info: &GameInfo, start: &str) -> Vec<String> {
    let Some(table) = PieceTable::new(info) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for slot in table.slots.iter().flatten() {
        let piece = &info.pieces[*slot];
        let id = match single_letter(piece) {
            Some(letter) => letter.to_ascii_uppercase().to_string(),
            None => match piece
                .promoted_from
                .and_then(|base| single_letter(&info.pieces[base]))
            {
                Some(base) => format!("+{}", base.to_ascii_uppercase()),
                None => continue,
            },
        };
        let (white, black) = castling_moves(info, *slot, start);
        if white == black {
            let all = format!("{}{white}", piece.xbetza);
            if !all.is_empty() {
                lines.push(format!("piece {id}& {all}"));
            }
        } else {
            lines.push(format!("piece {id} {}{white}", piece.xbetza));
            lines.push(format!(
                "piece {} {}{black}",
                id.to_ascii_lowercase(),
                piece.xbetza
            ));
        }
    }
    lines
}

/// The castling moves of a piece in XBetza, for White and for Black: `isO2` when both sides castle
/// alike, else one part per side (`irO2ilO2`, White's right hand being the east).
fn castling_moves(info: &GameInfo, piece: usize, start: &str) -> (String, String) {
    let (Some((width, _)), Some(king_file)) = (info.flat_board(), king_file(info, piece, start))
    else {
        return (String::new(), String::new());
    };
    // (east, cells between the partner and the edge, king steps) per castling direction.
    let mut sides: Vec<(bool, usize, u32)> = Vec::new();
    for castling in info.castling.iter().filter(|c| c.king == piece) {
        for (direction, _) in &castling.partners {
            let east = *direction > 0;
            let skip = match castling.partner_distance {
                None => 0,
                Some((near, far)) if near == far => {
                    let partner = if east {
                        king_file + near
                    } else {
                        king_file - near
                    };
                    let edge = if east { width as i32 - 1 } else { 0 };
                    (edge - partner).unsigned_abs() as usize
                }
                Some(_) => 0,
            };
            if !sides.iter().any(|(e, _, _)| *e == east) {
                sides.push((east, skip, castling.king_steps));
            }
        }
    }
    let write = |white: bool| -> String {
        let [east, west] = [true, false].map(|e| sides.iter().find(|(x, _, _)| *x == e));
        if let (Some(a), Some(b)) = (east, west) {
            if a.1 == b.1 && a.2 == b.2 {
                return format!("is{}O{}", "j".repeat(a.1), a.2);
            }
        }
        let mut text = String::new();
        for (east, skip, steps) in &sides {
            let hand = if *east == white { 'r' } else { 'l' };
            text.push_str(&format!("i{hand}{}O{steps}", "j".repeat(*skip)));
        }
        text
    };
    (write(true), write(false))
}

/// The file of a piece's first appearance on the start position's first rank that holds it (the
/// king's start file).
fn king_file(info: &GameInfo, piece: usize, start: &str) -> Option<i32> {
    let letter = single_letter(&info.pieces[piece])?.to_ascii_uppercase();
    let placement = start.split_whitespace().next()?.split('[').next()?;
    for rank in placement.split('/').rev() {
        let mut file = 0i32;
        let chars: Vec<char> = rank.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii_digit() {
                let mut n = 0i32;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    n = n
                        .saturating_mul(10)
                        .saturating_add(chars[i] as i32 - '0' as i32);
                    i += 1;
                }
                file += n;
                continue;
            }
            if chars[i] == letter {
                return Some(file);
            }
            if chars[i].is_ascii_alphabetic() {
                file += 1;
            }
            i += 1;
        }
    }
    None
}

/// A piece's moves as XBoard reads XBetza: each part with `i` first, then per leg its directions and
/// its modes in XBoard's order (`m c d e t p g o y n j`) joined by `a`, then the atom and its range.
/// Parts XBoard cannot read (custom atoms, the universal leaper, 3D steps, unloading, crooked and
/// circular riders, turn letters `z` `q`, induction `x`) are left out:
/// XBoard stops reading a description at the first thing it does not know.
pub fn xbetza(moves: &[crate::model::Moves]) -> String {
    moves
        .iter()
        .flat_map(|moves| moves.parts.iter())
        .filter_map(xbetza_part)
        .collect()
}

fn xbetza_part(part: &MovePart) -> Option<String> {
    const ATOMS: &str = "WFDNAHCZGRBQKO";
    const MODES: &str = "mcdetpgoynj";
    if !ATOMS.contains(part.atom)
        || part.vectors.iter().any(|v| v[2] != 0)
        || part.path != crate::model::RiderPath::Straight
    {
        return None;
    }
    let mut text = String::new();
    if part.initial {
        text.push('i');
    }
    for (index, leg) in part.legs.iter().enumerate() {
        if index > 0 {
            text.push('a');
        }
        if leg.directions.chars().any(|c| !"fblrvsh".contains(c)) {
            return None;
        }
        text.push_str(&leg.directions);
        if leg.modes.chars().any(|c| !MODES.contains(c)) {
            return None;
        }
        for mode in MODES.chars() {
            text.extend(leg.modes.chars().filter(|&m| m == mode));
        }
    }
    text.push(part.atom);
    let rider = matches!(part.atom, 'R' | 'B' | 'Q');
    match part.range {
        0 if rider => {}
        1 if !rider => {}
        range => text.push_str(&range.to_string()),
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Leg, Moves};

    fn part(legs: &[(&str, &str)], atom: char, range: u8, initial: bool) -> MovePart {
        MovePart {
            legs: legs
                .iter()
                .map(|(directions, modes)| Leg {
                    directions: (*directions).into(),
                    modes: (*modes).into(),
                })
                .collect(),
            atom,
            vectors: vec![[1, 0, 0]],
            range,
            initial,
            path: crate::model::RiderPath::Straight,
            hand_on: crate::model::HandOn::None,
        }
    }

    #[test]
    fn xbetza_is_written_in_xboards_order() {
        let moves = Moves {
            parts: vec![
                part(&[("f", "nm")], 'D', 1, true),
                part(&[("", "ec"), ("", "")], 'F', 1, false),
                part(&[("", "pc")], 'R', 0, false),
                part(&[("", "jj")], 'R', 4, false),
                part(&[("", "")], 'N', 0, false),
                part(&[("", "u")], 'R', 0, false),
                part(&[("", "")], 'U', 1, false),
            ],
            betza: String::new(),
            boards: Vec::new(),
            exclusive: false,
            from_zone: None,
            within: None,
            condition: None,
        };
        assert_eq!(xbetza(&[moves]), "ifmnDceaFcpRjjR4N0");
    }
}
