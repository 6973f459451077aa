//! What user interfaces are told about a game beyond its model: its castling rules and the promoted
//! forms of pieces, as the interpreter prepared them.

use super::tables::Interpreter;

/// One castling rule as a user interface describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CastlingSummary {
    /// The piece that castles (the king).
    pub king: usize,
    /// For each direction along the rank, `+1` (towards higher files) or `-1`, the partner types.
    pub partners: Vec<(i32, Vec<usize>)>,
    /// How many cells the king moves.
    pub king_steps: u32,
    /// How far from the king the partner stands (`partner_at 3..3`), or `None` for the partner at the
    /// board's edge.
    pub partner_distance: Option<(i32, i32)>,
}

impl Interpreter {
    /// The castling rules, one per `castle` block.
    pub fn castling_summaries(&self) -> Vec<CastlingSummary> {
        self.castles
            .iter()
            .filter_map(|castle| {
                let king = castle.king?;
                let mut partners: Vec<(i32, Vec<usize>)> = Vec::new();
                for (direction, types) in &castle.directions {
                    if direction[1] != 0 || direction[2] != 0 || direction[0] == 0 {
                        continue;
                    }
                    let sign = direction[0].signum();
                    match partners.iter_mut().find(|(s, _)| *s == sign) {
                        Some((_, list)) => list.extend(types.iter().copied()),
                        None => partners.push((sign, types.clone())),
                    }
                }
                Some(CastlingSummary {
                    king,
                    partners,
                    king_steps: castle.king_steps.max(0) as u32,
                    partner_distance: castle.partner_at,
                })
            })
            .collect()
    }

    /// The piece a promoted form was promoted from (`promoted_from` in the rule file).
    pub fn promoted_from(&self, piece: usize) -> Option<usize> {
        self.pieces.get(piece).and_then(|rules| rules.promoted_from)
    }
}
