//! The XBetza parser: a Betza string to a list of move parts, each a chain of legs.
//!
//! Naming follows the parser convention of the grammar crate: `parse_x` consumes an x or fails, `maybe_x`
//! consumes one if present. Every error points at the exact character inside the string: positions are
//! byte offsets into the rule file (`base` is the offset of the string's first character).
//!
//! Supported letters (anything else is an error, unlike Fairy-Stockfish which skips unknown letters):
//! atoms `W F D N A H C Z G R B Q K O U` and atoms declared with `atom`; directions `f b l r v s h`;
//! modes `m c d e t p g y n j o u`; `i` (initial), `a` (again); `z` and `q`: before the atom of a part
//! without `a` they make a crooked or circular rider (`zB`, `qN`), on a later leg they are turn letters
//! among the directions (opposite to or like the previous turn). `u` on a later leg goes with that leg's
//! capture (E1013). `x` ends a leg on a friendly piece: on a leg before the last, that piece makes the
//! remaining legs (induction, `mNxaN`); on the last leg, the moving piece moves as that piece (move
//! borrowing, `KxK`); misplaced, E1014.

use crate::error::{Error, ErrorKind};
use crate::span::Span;
pub use vdl_runtime::model::RiderPath;

/// A parsed Betza string: the union of its parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Betza {
    /// The parts in order: `fmWfceF` has two.
    pub parts: Vec<Part>,
}

/// One atom with its modifiers: `ifmnD`.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The legs, first to last; a part without `a` has one.
    pub legs: Vec<Leg>,
    /// The atom letter as written (`K`, `Q`, a custom letter).
    pub atom: char,
    /// Base leap vectors of the atom, one per component (K has W and F), with 3 coordinates.
    pub vectors: Vec<[i32; 3]>,
    /// Maximum number of steps: 1 for a leaper, 0 for unlimited.
    pub range: u8,
    /// `i`: only for a piece that has not moved.
    pub initial: bool,
    /// `z` / `q` on a part without `a`: a crooked or circular rider.
    pub path: RiderPath,
    /// The text of the part, from its first modifier to the end of its range.
    pub span: Span,
}

/// One leg of a part: directions and modes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Leg {
    /// Direction letters in order (`f`, `r`, `s` ...).
    pub directions: String,
    /// Mode letters in order (`m`, `c`, `p` ...).
    pub modes: String,
}

/// Letters of the castling and universal atoms, which have no vectors of their own.
pub const CASTLING: char = 'O';
/// The universal leaper: any cell of the board except its own.
pub const UNIVERSAL: char = 'U';

/// Returns the base vectors of a built-in atom.
pub fn builtin_atom(letter: char) -> Option<(&'static [[i32; 3]], u8)> {
    const W: [i32; 3] = [1, 0, 0];
    const F: [i32; 3] = [1, 1, 0];
    Some(match letter {
        'W' => (&[W], 1),
        'F' => (&[F], 1),
        'D' => (&[[2, 0, 0]], 1),
        'N' => (&[[2, 1, 0]], 1),
        'A' => (&[[2, 2, 0]], 1),
        'H' => (&[[3, 0, 0]], 1),
        'C' => (&[[3, 1, 0]], 1),
        'Z' => (&[[3, 2, 0]], 1),
        'G' => (&[[3, 3, 0]], 1),
        'R' => (&[W], 0),
        'B' => (&[F], 0),
        'Q' => (&[W, F], 0),
        'K' => (&[W, F], 1),
        CASTLING | UNIVERSAL => (&[], 1),
        _ => return None,
    })
}

const DIRECTIONS: &str = "fblrvsh";

const MODES: &str = "mcdetpgynjoux";

/// Parses a Betza string. `base` is the byte offset of the string's first character in the file, or
/// `None` when the string had escapes (then errors point at the whole string, `whole`). `custom` lists
/// atoms declared with `atom` (letter, vector).
///
/// # Errors
///
/// Returns every problem found in the string.
pub fn parse_betza(
    text: &str,
    base: Option<usize>,
    whole: Span,
    custom: &[(char, [i32; 3])],
) -> Result<Betza, Vec<Error>> {
    let mut parser = BetzaParser {
        chars: text.char_indices().collect(),
        pos: 0,
        base,
        whole,
        custom,
        errors: Vec::new(),
    };
    let betza = parser.parse_parts();
    if parser.errors.is_empty() {
        Ok(betza)
    } else {
        Err(parser.errors)
    }
}

struct BetzaParser<'a> {
    chars: Vec<(usize, char)>,
    pos: usize,
    base: Option<usize>,
    whole: Span,
    custom: &'a [(char, [i32; 3])],
    errors: Vec<Error>,
}

impl BetzaParser<'_> {
    fn span_at(&self, index: usize, len: usize) -> Span {
        match self.base {
            Some(base) => {
                let start = self
                    .chars
                    .get(index)
                    .map(|c| c.0)
                    .unwrap_or_else(|| self.text_len());
                let end = self
                    .chars
                    .get(index + len)
                    .map(|c| c.0)
                    .unwrap_or_else(|| self.text_len());
                Span::new(
                    base + start,
                    base + end.max(start + 1).min(self.text_len().max(start + 1)),
                )
            }
            None => self.whole,
        }
    }

    fn text_len(&self) -> usize {
        self.chars
            .last()
            .map(|(i, c)| i + c.len_utf8())
            .unwrap_or(0)
    }

    /// Records an error, once per kind in a string: `((((W))))` is one mistake, not eight.
    fn error(&mut self, index: usize, len: usize, kind: ErrorKind) {
        if self.errors.iter().any(|e| e.kind == kind) {
            return;
        }
        let span = self.span_at(index, len);
        self.errors.push(Error::new(span, kind));
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|c| c.1)
    }

    fn parse_parts(&mut self) -> Betza {
        let mut parts = Vec::new();
        if self.chars.is_empty() {
            self.errors
                .push(Error::new(self.whole, ErrorKind::BetzaEmpty));
        }
        while self.pos < self.chars.len() {
            let before = self.errors.len();
            match self.parse_part() {
                Some(part) if self.errors.len() == before => parts.push(part),
                Some(_) => {}
                None => break,
            }
        }
        Betza { parts }
    }

    /// Parses modifiers, an atom and an optional range.
    fn parse_part(&mut self) -> Option<Part> {
        let start = self.pos;
        let errors_before = self.errors.len();
        let mut legs = vec![Leg::default()];
        let mut leg_starts = vec![self.pos];
        let mut initial = false;
        // `z` and `q` before the first `a`: the legacy crooked and circular riders.
        let mut first_turns: Vec<(char, usize)> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                // A letter already reported is the likelier fault than a missing atom.
                if self.errors.len() == errors_before {
                    self.error(start, self.pos - start, ErrorKind::BetzaMissingAtom);
                }
                return None;
            };
            if c.is_ascii_uppercase() {
                break;
            }
            let first_leg = legs.len() == 1;
            let leg = legs.last_mut().expect("at least one leg");
            match c {
                'a' => {
                    legs.push(Leg::default());
                    leg_starts.push(self.pos + 1);
                }
                'i' => initial = true,
                'z' | 'q' if first_leg => first_turns.push((c, self.pos)),
                'z' | 'q' => leg.directions.push(c),
                c if DIRECTIONS.contains(c) => leg.directions.push(c),
                c if MODES.contains(c) => leg.modes.push(c),
                '[' | ']' => self.error(
                    self.pos,
                    1,
                    ErrorKind::BetzaUnsupported {
                        what: "bracket notation",
                    },
                ),
                '(' | ')' => self.error(
                    self.pos,
                    1,
                    ErrorKind::BetzaUnsupported {
                        what: "repeated groups in parentheses",
                    },
                ),
                '-' => self.error(
                    self.pos,
                    1,
                    ErrorKind::BetzaUnsupported {
                        what: "the `-` continuation operator",
                    },
                ),
                'k' => self.error(
                    self.pos,
                    1,
                    ErrorKind::BetzaUnsupported {
                        what: "the imitator mode `k`",
                    },
                ),
                _ => self.error(self.pos, 1, ErrorKind::BetzaUnknownLetter { letter: c }),
            }
            self.pos += 1;
        }
        let atom_at = self.pos;
        let atom = self.peek().expect("an uppercase letter follows");
        self.pos += 1;
        let (vectors, mut range): (Vec<[i32; 3]>, u8) = match builtin_atom(atom) {
            Some((v, r)) => (v.to_vec(), r),
            None => match self.custom.iter().find(|(l, _)| *l == atom) {
                Some((_, v)) => (vec![*v], 1),
                None => {
                    let kind = match atom {
                        'L' => ErrorKind::BetzaAmbiguousAtom {
                            letter: 'L',
                            use_instead: 'C',
                        },
                        'J' => ErrorKind::BetzaAmbiguousAtom {
                            letter: 'J',
                            use_instead: 'Z',
                        },
                        'I' => ErrorKind::BetzaUnsupported {
                            what: "the imitator atom `I`",
                        },
                        _ => ErrorKind::BetzaUnknownLetter { letter: atom },
                    };
                    self.error(atom_at, 1, kind);
                    (Vec::new(), 1)
                }
            },
        };
        // Doubling (`NN`) makes a rider; digits give a range.
        if self.peek() == Some(atom) && atom != CASTLING && atom != UNIVERSAL {
            self.pos += 1;
            range = 0;
        } else if let Some(d) = self.peek().filter(char::is_ascii_digit) {
            let digits_at = self.pos;
            let mut value = d.to_digit(10).unwrap_or(0);
            self.pos += 1;
            while let Some(d) = self.peek().filter(char::is_ascii_digit) {
                value = value
                    .saturating_mul(10)
                    .saturating_add(d.to_digit(10).unwrap_or(0));
                self.pos += 1;
            }
            if value > 99 {
                self.error(
                    digits_at,
                    self.pos - digits_at,
                    ErrorKind::BetzaRangeTooLarge,
                );
            }
            range = value.min(99) as u8;
        } else if atom == CASTLING {
            self.error(atom_at, 1, ErrorKind::BetzaCastlingRange);
        }
        self.check_legs(&legs, &leg_starts);
        self.check_hand_on(&legs, &leg_starts, atom);
        let path = self.rider_path(&first_turns, &legs, atom, range);
        Some(Part {
            legs,
            atom,
            vectors,
            range,
            initial,
            path,
            span: self.span_at(start, self.pos - start),
        })
    }

    /// The path of a part from its first-leg `z` / `q` letters (E1012 where they mean nothing).
    fn rider_path(
        &mut self,
        turns: &[(char, usize)],
        legs: &[Leg],
        atom: char,
        range: u8,
    ) -> RiderPath {
        let Some(&(letter, at)) = turns.first() else {
            return RiderPath::Straight;
        };
        let misplaced = |reason| ErrorKind::BetzaTurnMisplaced { letter, reason };
        let reason = if legs.len() > 1 {
            Some("on the first leg of a move with `a` legs there is no turn before it to follow")
        } else if let Some(&(other, other_at)) = turns.iter().find(|(c, _)| *c != letter) {
            self.error(
                other_at,
                1,
                ErrorKind::BetzaTurnMisplaced {
                    letter: other,
                    reason: "a rider is either crooked (`z`) or circular (`q`), not both",
                },
            );
            return RiderPath::Straight;
        } else if atom == CASTLING || atom == UNIVERSAL {
            Some("castling and the universal leaper have no path to bend")
        } else if range == 1 {
            Some("a leaper has no path to bend; write a rider (`zB`, `qNN`, `zW0`)")
        } else if legs[0].modes.chars().any(|m| !"mcdt".contains(m)) {
            Some("a crooked or circular rider only moves (`m`), captures (`c`, `d`) or is tame (`t`)")
        } else {
            None
        };
        if let Some(reason) = reason {
            self.error(at, 1, misplaced(reason));
            return RiderPath::Straight;
        }
        if letter == 'z' {
            RiderPath::Crooked
        } else {
            RiderPath::Circular
        }
    }

    /// Checks the legs of a part with `x` (E1014): one leg carries it, alone among its modes, no
    /// leg up to it captures or unloads (the piece it ends on makes the move), and the atom has a path.
    fn check_hand_on(&mut self, legs: &[Leg], leg_starts: &[usize], atom: char) {
        let with_x: Vec<usize> = (0..legs.len())
            .filter(|&i| legs[i].modes.contains('x'))
            .collect();
        let Some(&first) = with_x.first() else {
            return;
        };
        let find = |this: &Self, leg: usize, letter: char, nth: usize| -> usize {
            (leg_starts[leg]..this.chars.len())
                .filter(|&i| this.chars[i].1 == letter)
                .nth(nth)
                .unwrap_or(leg_starts[leg])
        };
        let reason = if atom == CASTLING || atom == UNIVERSAL {
            Some((
                first,
                0,
                "castling and the universal leaper have no leg that ends on a piece",
            ))
        } else if legs[first].modes.chars().filter(|&c| c == 'x').count() > 1 {
            Some((first, 1, "`x` is written once"))
        } else if let Some(&second) = with_x.get(1) {
            Some((
                second,
                0,
                "a move is handed on once: only one leg may end with `x`",
            ))
        } else if legs[first].modes.chars().any(|c| c != 'x') {
            Some((
                first,
                0,
                "the leg with `x` only ends on a friendly piece; it has no other mode",
            ))
        } else if legs[..first]
            .iter()
            .any(|l| l.modes.contains(['c', 'd', 'u', 'e']))
        {
            Some((
                first,
                0,
                "the legs before `x` only lead to the friendly piece; they may not capture",
            ))
        } else {
            None
        };
        if let Some((leg, nth, reason)) = reason {
            let at = find(self, leg, 'x', nth);
            self.error(at, 1, ErrorKind::BetzaHandOnMisplaced { reason });
        }
    }

    /// Checks the placement of leg-specific letters.
    fn check_legs(&mut self, legs: &[Leg], leg_starts: &[usize]) {
        let last = legs.len() - 1;
        for (index, leg) in legs.iter().enumerate() {
            let leg_start = leg_starts[index];
            let find = |this: &Self, letter: char| -> usize {
                (leg_start..this.chars.len())
                    .find(|&i| this.chars[i].1 == letter)
                    .unwrap_or(leg_start)
            };
            for letter in leg.modes.chars() {
                let misplaced =
                    (index == last && letter == 'y') || (index != last && letter == 'e');
                if misplaced {
                    let at = find(self, letter);
                    self.error(
                        at,
                        1,
                        ErrorKind::BetzaModeMisplaced {
                            letter,
                            final_leg: index == last,
                        },
                    );
                }
            }
            if index > 0 && leg.modes.contains('u') {
                // The final leg captures unless it only moves (`m` without `c`, `d`, `e`).
                let captures = |i: usize, l: &Leg| {
                    l.modes.contains(['c', 'd', 'e'])
                        || (i == last && !l.modes.contains(['m', 'c', 'd', 'e']))
                };
                let reason = if !leg.modes.contains(['c', 'd']) {
                    Some("a later leg unloads the piece it captures itself; give it `c` or `d`")
                } else if legs[index - 1].modes.contains(['p', 'g']) {
                    Some("this leg starts on the piece the leg before it hops over")
                } else if legs
                    .iter()
                    .enumerate()
                    .any(|(i, l)| i != index && (captures(i, l) || l.modes.contains('u')))
                {
                    Some("another leg captures or unloads too; with `u` the move captures once (end the last leg with `m`)")
                } else {
                    None
                };
                if let Some(reason) = reason {
                    let at = find(self, 'u');
                    self.error(at, 1, ErrorKind::BetzaUnloadMisplaced { reason });
                }
            }
            if leg.directions.contains('h') && leg.directions.len() == 1 {
                let at = find(self, 'h');
                self.error(at, 1, ErrorKind::BetzaLoneHalf);
            }
        }
    }
}

impl Betza {
    /// Returns true if any part needs three-dimensional vectors.
    pub fn is_3d(&self) -> bool {
        self.parts
            .iter()
            .any(|p| p.vectors.iter().any(|v| v[2] != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Betza, Vec<Error>> {
        parse_betza(text, Some(0), Span::new(0, text.len()), &[('T', [1, 1, 1])])
    }

    fn codes(text: &str) -> Vec<(&'static str, u32)> {
        parse(text)
            .err()
            .unwrap_or_default()
            .iter()
            .map(|e| (e.code(), e.span.start))
            .collect()
    }

    #[test]
    fn parses_the_fide_pawn() {
        let betza = parse("fmWfceFifmnD").expect("valid");
        assert_eq!(betza.parts.len(), 3);
        assert_eq!(betza.parts[0].legs[0].directions, "f");
        assert_eq!(betza.parts[0].legs[0].modes, "m");
        assert_eq!(betza.parts[1].legs[0].modes, "ce");
        assert!(betza.parts[2].initial);
        assert_eq!(betza.parts[2].legs[0].modes, "mn");
        assert_eq!(betza.parts[2].atom, 'D');
    }

    #[test]
    fn ranges_and_doubling() {
        let betza = parse("NNW4R").expect("valid");
        let ranges: Vec<u8> = betza.parts.iter().map(|p| p.range).collect();
        assert_eq!(ranges, vec![0, 4, 0]);
        assert_eq!(parse("BD0").expect("valid").parts[1].range, 0);
    }

    #[test]
    fn legs_split_on_a() {
        let betza = parse("mafsW").expect("valid");
        assert_eq!(betza.parts[0].legs.len(), 2);
        assert_eq!(betza.parts[0].legs[1].directions, "fs");
        let griffon = parse("FyafsF").expect("valid");
        assert_eq!(griffon.parts.len(), 2);
        assert_eq!(griffon.parts[1].legs[0].modes, "y");
    }

    #[test]
    fn custom_atoms() {
        assert_eq!(parse("TT").expect("valid").parts[0].range, 0);
        assert!(parse("TT").expect("valid").is_3d());
    }

    #[test]
    fn errors_point_inside_the_string() {
        assert_eq!(codes("fmWkF"), vec![("E1005", 3)]);
        assert_eq!(codes("fmWL"), vec![("E1002", 3)]);
        assert_eq!(codes("fmW#F"), vec![("E1001", 3)]);
        assert_eq!(codes("fm"), vec![("E1003", 0)]);
        assert_eq!(codes("O"), vec![("E1006", 0)]);
        assert_eq!(codes("W100"), vec![("E1007", 1)]);
        assert_eq!(codes("hW"), vec![("E1008", 0)]);
        assert_eq!(codes("mayW"), vec![("E1010", 2)]);
        assert_eq!(codes("eamW"), vec![("E1010", 0)]);
    }

    #[test]
    fn crooked_and_circular_riders() {
        assert_eq!(
            parse("zB").expect("valid").parts[0].path,
            RiderPath::Crooked
        );
        assert_eq!(
            parse("qNN").expect("valid").parts[0].path,
            RiderPath::Circular
        );
        assert_eq!(
            parse("fzR").expect("valid").parts[0].legs[0].directions,
            "f"
        );
        assert_eq!(
            parse("NN").expect("valid").parts[0].path,
            RiderPath::Straight
        );
        // On a later leg they are turn letters among the directions.
        let falcon = parse("afsafzK").expect("valid");
        assert_eq!(falcon.parts[0].legs[2].directions, "fz");
        assert_eq!(falcon.parts[0].path, RiderPath::Straight);
        assert_eq!(
            parse("NafqN").expect("valid").parts[1].legs[1].directions,
            "fq"
        );
        assert_eq!(codes("zF"), vec![("E1012", 0)]);
        assert_eq!(codes("zafsK"), vec![("E1012", 0)]);
        assert_eq!(codes("zqB"), vec![("E1012", 1)]);
        assert_eq!(codes("zpR"), vec![("E1012", 0)]);
        assert_eq!(codes("qU"), vec![("E1012", 0)]);
    }

    #[test]
    fn unload_on_a_later_leg() {
        assert_eq!(parse("RafucR").expect("valid").parts[1].legs[1].modes, "uc");
        assert!(parse("afudQ").is_ok());
        assert!(parse("mafucafmW").is_ok());
        assert_eq!(codes("RafumR"), vec![("E1013", 3)]);
        assert_eq!(codes("cafucR"), vec![("E1013", 3)]);
        assert_eq!(codes("afucaW"), vec![("E1013", 2)]);
        assert_eq!(codes("pafucW"), vec![("E1013", 3)]);
    }

    #[test]
    fn induction_and_borrowing() {
        let relay = parse("mNxaN").expect("valid");
        assert_eq!(relay.parts[1].legs[0].modes, "x");
        assert_eq!(relay.parts[1].legs.len(), 2);
        assert_eq!(parse("KxK").expect("valid").parts[1].legs[0].modes, "x");
        assert!(parse("mafxW").is_ok());
        assert!(parse("xRafcW").is_ok());
        assert_eq!(codes("xaxaN"), vec![("E1014", 2)]);
        assert_eq!(codes("mxaN"), vec![("E1014", 1)]);
        assert_eq!(codes("cafxaW"), vec![("E1014", 3)]);
        assert_eq!(codes("xxK"), vec![("E1014", 1)]);
        assert_eq!(codes("xU"), vec![("E1014", 0)]);
    }

    #[test]
    fn empty_string_is_an_error() {
        assert_eq!(
            parse_betza("", Some(5), Span::new(4, 6), &[]).unwrap_err()[0].code(),
            "E1004"
        );
    }
}
