//! Standard Algebraic Notation for any game of two players on one 2D board, written once over the
//! [`Variant`] trait: `Nf3`, `exd5`, `Rae1`, `N5xd4`, `e8=Q`, `O-O`, `O-O-O`, drops `P@e4`, shogi
//! promotions `Bxb2+` (and `=` for a promotion declined), gating `/H`, with `+` for check and `#` for
//! checkmate. Fairy pieces are written with their letters; a piece written `P` is a pawn (no letter,
//! the file for captures and sideways moves). A piece is named more fully only when another legal move
//! of the same piece type reaches the same cell: by its file, else its rank, else its cell. Games
//! without move facts (more players or boards) and moves SAN has no form for keep the game's own
//! notation (docs/protocols.md).
//!
//! Reading accepts SAN (with or without `x`, `=`, check marks and annotations `!?`), over-qualified
//! forms (`Ng1f3`, `N1f3`), `0-0`, `P*e4`, and the game's own move notation.

use crate::variant::{MoveFacts, TextError, Variant};

/// The SAN of every legal move in `position`, without check marks, in the order of `moves`; each text
/// names one move only.
pub fn texts<V: Variant>(variant: &V, position: &V::Position, moves: &[V::Move]) -> Vec<String> {
    let facts: Vec<Option<MoveFacts>> = moves
        .iter()
        .map(|&mv| variant.move_facts(position, mv))
        .collect();
    let mut texts: Vec<String> = moves
        .iter()
        .zip(&facts)
        .enumerate()
        .map(|(i, (&mv, fact))| match fact {
            Some(f) if !f.special => write(f, i, &facts),
            _ => variant.write_move(position, mv),
        })
        .collect();
    // Where two moves still read alike (moves SAN cannot tell apart), the start cell is written; then
    // the game's own notation.
    for round in 0..2 {
        let repeated: Vec<usize> = (0..texts.len())
            .filter(|&i| texts.iter().filter(|t| **t == texts[i]).count() > 1)
            .collect();
        for i in repeated {
            texts[i] = match (&facts[i], round) {
                (Some(f), 0) if !f.special && f.from.is_some() => full(f),
                _ => variant.write_move(position, moves[i]),
            };
        }
    }
    texts
}

/// The SAN of one legal move, with `+` when it gives check and `#` when it mates.
pub fn text<V: Variant>(variant: &V, position: &mut V::Position, mv: V::Move) -> String {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let mut text = match moves.iter().position(|&m| m == mv) {
        Some(i) => texts(variant, position, &moves).swap_remove(i),
        None => variant.write_move(position, mv),
    };
    if variant.move_facts(position, mv).is_some() {
        text.push_str(check_mark(variant, position, mv));
    }
    text
}

/// `+` when a move gives check, `#` when it also leaves no legal move, else nothing.
fn check_mark<V: Variant>(variant: &V, position: &mut V::Position, mv: V::Move) -> &'static str {
    let undo = variant.make(position, mv);
    let mark = if !variant.in_check(position) {
        ""
    } else if variant.has_legal_move(position) {
        "+"
    } else {
        "#"
    };
    variant.unmake(position, mv, undo);
    mark
}

/// Whether a piece letter is a pawn's: SAN gives pawns no letter.
fn is_pawn(letter: &str) -> bool {
    letter == "P"
}

/// Writes move `index` of a position whose legal moves have `all` facts.
fn write(facts: &MoveFacts, index: usize, all: &[Option<MoveFacts>]) -> String {
    let to = facts.to.as_ref().map_or("", |s| s.name.as_str());
    let mut text = String::new();
    if let Some(kingside) = facts.castle {
        text.push_str(if kingside { "O-O" } else { "O-O-O" });
    } else if facts.drop {
        text = format!("{}@{to}", facts.piece);
    } else {
        let from = facts.from.as_ref();
        // The other legal moves of the same piece type to the same cell, from other cells.
        let rivals: Vec<&MoveFacts> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != index)
            .filter_map(|(_, f)| f.as_ref())
            .filter(|f| {
                !f.special
                    && !f.drop
                    && f.castle.is_none()
                    && f.piece == facts.piece
                    && f.to == facts.to
                    && f.from.is_some()
                    && f.from.as_ref() != from
            })
            .collect();
        let same_file = |f: &&MoveFacts| f.from.as_ref().map(|s| &s.file) == from.map(|s| &s.file);
        let same_rank = |f: &&MoveFacts| f.from.as_ref().map(|s| &s.rank) == from.map(|s| &s.rank);
        if is_pawn(&facts.piece) {
            let straight =
                from.is_some_and(|f| facts.to.as_ref().is_some_and(|t| t.file == f.file));
            if facts.capture || !straight {
                text.push_str(from.map_or("", |f| f.file.as_str()));
                if rivals.iter().any(same_file) {
                    text.push_str(from.map_or("", |f| f.rank.as_str()));
                }
            } else if !rivals.is_empty() {
                text.push_str(from.map_or("", |f| f.name.as_str()));
            }
        } else {
            text.push_str(&facts.piece);
            if !rivals.is_empty() {
                let part = if !rivals.iter().any(same_file) {
                    from.map(|f| f.file.as_str())
                } else if !rivals.iter().any(same_rank) {
                    from.map(|f| f.rank.as_str())
                } else {
                    from.map(|f| f.name.as_str())
                };
                text.push_str(part.unwrap_or_default());
            }
        }
        if facts.capture {
            text.push('x');
        }
        text.push_str(to);
    }
    push_suffixes(&mut text, facts, index, all);
    text
}

/// The fully qualified form: piece letter (none for a pawn), start cell, `x`, target, suffixes.
fn full(facts: &MoveFacts) -> String {
    let mut text = String::new();
    if !is_pawn(&facts.piece) {
        text.push_str(&facts.piece);
    }
    text.push_str(facts.from.as_ref().map_or("", |s| s.name.as_str()));
    if facts.capture {
        text.push('x');
    }
    text.push_str(facts.to.as_ref().map_or("", |s| s.name.as_str()));
    push_suffixes(&mut text, facts, usize::MAX, &[]);
    text
}

/// Promotion (`=Q`, shogi's `+`, or `=` when another legal move makes the same step promoting to the
/// piece's promoted form) and gating (`/H`).
fn push_suffixes(text: &mut String, facts: &MoveFacts, index: usize, all: &[Option<MoveFacts>]) {
    match facts.promotion.as_deref() {
        Some("+") => text.push('+'),
        Some(letter) => {
            text.push('=');
            text.push_str(letter);
        }
        None => {
            let declined = all.iter().enumerate().any(|(i, f)| {
                i != index
                    && f.as_ref().is_some_and(|f| {
                        f.promotion.as_deref() == Some("+")
                            && f.from == facts.from
                            && f.to == facts.to
                            && f.piece == facts.piece
                    })
            });
            if declined {
                text.push('=');
            }
        }
    }
    if let Some(gate) = &facts.gate {
        text.push('/');
        text.push_str(gate);
    }
}

/// The forms a move is accepted in, normalized ([`normalize`]): its SAN, then the piece (none for a
/// pawn) with the start cell, file or rank, whether SAN needs them or not.
fn forms(facts: &MoveFacts, san: &str) -> Vec<String> {
    let mut forms = vec![normalize(san)];
    if facts.special || facts.castle.is_some() || facts.drop {
        return forms;
    }
    let (Some(from), Some(to)) = (&facts.from, &facts.to) else {
        return forms;
    };
    let mut suffix = String::new();
    push_suffixes(&mut suffix, facts, usize::MAX, &[]);
    let letter = if is_pawn(&facts.piece) {
        ""
    } else {
        facts.piece.as_str()
    };
    for start in [&from.name, &from.file, &from.rank] {
        forms.push(normalize(&format!("{letter}{start}{}{suffix}", to.name)));
    }
    forms
}

/// A move text reduced to what tells moves apart: no `x`, `:` or `-`, no `=` before a letter,
/// `0` castling as `O`, `*` drops as `@`, no annotations (`!`, `?`) or mate mark (`#`).
fn normalize(text: &str) -> String {
    let text = text
        .trim()
        .trim_end_matches(['!', '?'])
        .trim_end_matches('#');
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            'x' | ':' | '-' => {}
            '=' if chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic()) => {}
            '0' if text.starts_with("0-0") => out.push('O'),
            '*' => out.push('@'),
            _ => out.push(c),
        }
    }
    out
}

/// Reads a move in SAN, or in the game's own notation.
///
/// # Errors
///
/// Returns an error naming the text when no legal move, or more than one, reads so.
pub fn parse<V: Variant>(
    variant: &V,
    position: &mut V::Position,
    text: &str,
) -> Result<V::Move, TextError> {
    let text = text.trim();
    if let Ok(mv) = variant.parse_move(position, text) {
        return Ok(mv);
    }
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let sans = texts(variant, position, &moves);
    let accepted: Vec<Vec<String>> = moves
        .iter()
        .zip(&sans)
        .map(|(&mv, san)| match variant.move_facts(position, mv) {
            Some(facts) => forms(&facts, san),
            None => vec![normalize(san)],
        })
        .collect();
    let wanted = normalize(text);
    // A trailing `+` is a check mark, unless it is a shogi promotion: the text is read as it is first.
    let mut candidates = vec![wanted.clone()];
    if let Some(stripped) = wanted.strip_suffix('+') {
        candidates.push(stripped.to_string());
    }
    for candidate in candidates {
        let found: Vec<usize> = (0..moves.len())
            .filter(|&i| accepted[i].contains(&candidate))
            .collect();
        match found.as_slice() {
            [i] => return Ok(moves[*i]),
            [] => continue,
            several => {
                let names: Vec<&str> = several.iter().map(|&i| sans[i].as_str()).collect();
                return Err(TextError::new(format!(
                    "move `{text}` is ambiguous: {}",
                    names.join(", ")
                )));
            }
        }
    }
    // A piece move named without the start SAN needs (`Rb3` for two rooks): ambiguous.
    let loose: Vec<usize> = (0..moves.len())
        .filter(|&i| {
            variant
                .move_facts(position, moves[i])
                .and_then(|facts| loose_form(&facts))
                .is_some_and(|form| form == wanted || wanted.strip_suffix('+') == Some(&form))
        })
        .collect();
    if loose.len() > 1 {
        let names: Vec<&str> = loose.iter().map(|&i| sans[i].as_str()).collect();
        return Err(TextError::new(format!(
            "move `{text}` is ambiguous: {}",
            names.join(", ")
        )));
    }
    Err(TextError::new(format!(
        "illegal move `{text}` in position {}",
        variant.write_position(position)
    )))
}

/// A piece move's form without its start, normalized (`Rb3`); none for pawns, drops, castling and
/// moves SAN has no form for.
fn loose_form(facts: &MoveFacts) -> Option<String> {
    if facts.special || facts.castle.is_some() || facts.drop || is_pawn(&facts.piece) {
        return None;
    }
    let mut text = format!("{}{}", facts.piece, facts.to.as_ref()?.name);
    push_suffixes(&mut text, facts, usize::MAX, &[]);
    Some(normalize(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms() {
        assert_eq!(normalize("Nxe5+"), "Ne5+");
        assert_eq!(normalize("e8=Q#"), "e8Q");
        assert_eq!(normalize("0-0-0"), "OOO");
        assert_eq!(normalize("P*e4"), "P@e4");
        assert_eq!(normalize("Bb2="), "Bb2=");
        assert_eq!(normalize("exd5!?"), "ed5");
    }
}
