//! Piece types: a `piece` block's statements as a typed [`Piece`].

use vdl_runtime::model::{
    CheckEvasion, Cond, Facing, Leg, Merge, MovePart, Moves, Perspective, Piece, Promotion,
    PromotionMove, Royalty, Stack,
};

use super::directive::{Arg, Directive};
use super::model::{int, word};
use super::Checker;
use crate::span::Span;

impl Checker {
    pub(super) fn build_piece(&mut self, d: &Directive) -> Piece {
        let mut piece = Piece {
            name: word(d.arguments.first()),
            ..Piece::default()
        };
        for child in &d.children {
            let args = child.arguments.as_slice();
            let condition = || child.condition.clone();
            match child.keyword.as_str() {
                "letter" => piece.letter = word(args.first()),
                "name" => piece.title = Some(word(args.first())),
                "royal" => {
                    piece.royal = match condition() {
                        Some(c) => Royalty::When(c),
                        None => Royalty::Yes,
                    }
                }
                "pawn" => piece.pawn = true,
                "value" => piece.value = Some(int(args.first()) as i32),
                "points" => piece.points = int(args.first()) as i32,
                "moves" => {
                    let betza = word(args.first());
                    let boards = after_word(args, "on")
                        .iter()
                        .filter_map(Arg::as_board)
                        .collect();
                    let mut moves = self.build_moves(&betza, boards, false, condition());
                    moves.from_zone = zone_after(args, "from");
                    moves.within = zone_after(args, "within");
                    piece.moves.push(moves);
                }
                "moves_only_on" => {
                    let board = args.first().and_then(Arg::as_board).into_iter().collect();
                    let betza = word(args.get(1));
                    piece
                        .moves
                        .push(self.build_moves(&betza, board, true, condition()));
                }
                "stacks" => {
                    let betza = word(args.first());
                    piece.stacks.push(Stack {
                        moves: self.build_moves(&betza, Vec::new(), false, condition()),
                        onto: args.iter().filter_map(Arg::as_piece).collect(),
                    });
                }
                "merge" => {
                    // BETZA `onto` PIECE... `into` PIECE [`in` ZONE]
                    let betza = word(args.first());
                    let into_at = args.iter().position(|a| a.is_word("into"));
                    let onto = args[..into_at.unwrap_or(args.len())]
                        .iter()
                        .filter_map(Arg::as_piece)
                        .collect();
                    if let Some(into) = into_at
                        .and_then(|i| args.get(i + 1))
                        .and_then(Arg::as_piece)
                    {
                        piece.merges.push(Merge {
                            moves: self.build_moves(&betza, Vec::new(), false, condition()),
                            onto,
                            into,
                            zone: args.iter().find_map(Arg::as_zone),
                        });
                    }
                }
                "promote" => {
                    let rest = args.get(3..).unwrap_or(&[]);
                    piece.promotions.push(Promotion {
                        zone: args.get(1).and_then(Arg::as_zone).unwrap_or(0),
                        choices: rest.iter().filter_map(Arg::as_piece).collect(),
                        optional: rest.iter().any(|a| a.is_word("optional")),
                        leaving: rest.iter().any(|a| a.is_word("leaving")),
                        capturing: rest.iter().any(|a| a.is_word("capturing")),
                        pair: None,
                        condition: condition(),
                        reserve: rest.iter().find_map(|a| match a {
                            Arg::Reserve(r) => Some(*r),
                            _ => None,
                        }),
                    });
                }
                "promote_move" => {
                    // `to` PIECE... [`in_place`] [`by` BETZA] [`peaceful`]
                    let betza = args
                        .iter()
                        .position(|a| a.is_word("by"))
                        .map(|i| word(args.get(i + 1)));
                    let steps = betza.map(|b| self.build_moves(&b, Vec::new(), false, None));
                    piece.promotion_moves.push(PromotionMove {
                        choices: args.iter().filter_map(Arg::as_piece).collect(),
                        in_place: args.iter().any(|a| a.is_word("in_place")),
                        steps,
                        peaceful: args.iter().any(|a| a.is_word("peaceful")),
                        condition: condition(),
                    });
                }
                "promote_pair" => piece.promotions.push(Promotion {
                    zone: args.get(1).and_then(Arg::as_zone).unwrap_or(0),
                    choices: args.get(3).and_then(Arg::as_piece).into_iter().collect(),
                    optional: false,
                    leaving: false,
                    capturing: false,
                    pair: Some(word(args.get(5))),
                    condition: condition(),
                    reserve: None,
                }),
                "promoted_from" => piece.promoted_from = args.first().and_then(Arg::as_piece),
                "demote_to" => piece.demote_to = args.first().and_then(Arg::as_piece),
                "cannot_hop" => piece.cannot_hop = args.iter().filter_map(Arg::as_piece).collect(),
                "facing" => {
                    piece.facing = Some(if args.first().is_some_and(|a| a.is_word("must_break")) {
                        Facing::MustBreak
                    } else {
                        Facing::Illegal
                    })
                }
                "check_evasion" => piece.check_evasion = Some(CheckEvasion::CaptureChecker),
                "perspective" => {
                    piece.perspective = if args.first().is_some_and(|a| a.is_word("player")) {
                        Perspective::Player
                    } else {
                        Perspective::Owner
                    }
                }
                "movable_by" => piece.movable_by.push(super::model::movable_by(child)),
                "virgin_in" => piece.virgin_in = args.first().and_then(Arg::as_zone),
                "captures_only" => {
                    piece.captures_only = Some((
                        args.iter().filter_map(Arg::as_piece).collect(),
                        args.iter().any(|a| a.is_word("royal")),
                    ))
                }
                "never_captures" => piece.never_captures = true,
                "immune" => piece.immune = true,
                "confined" => piece.confined = args.first().and_then(Arg::as_zone),
                "count_limit" => piece.count_limit = Some(int(args.first()).max(0) as u32),
                "drop_zone" => piece.drop_zone = args.first().and_then(Arg::as_zone),
                "no_drop_mate" => piece.no_drop_mate = true,
                "drop_opposite_colours" => piece.drop_opposite_colours = true,
                "drop_file_limit" => piece.drop_file_limit = Some(int(args.first()).max(0) as u32),
                other => debug_assert!(false, "piece statement `{other}` has no model"),
            }
        }
        piece
    }

    pub(super) fn build_moves(
        &mut self,
        betza: &str,
        boards: Vec<usize>,
        exclusive: bool,
        condition: Option<Cond>,
    ) -> Moves {
        let parts = crate::betza::parse_betza(betza, None, Span::default(), &self.atoms)
            .map(|b| {
                b.parts
                    .into_iter()
                    .map(|p| {
                        let legs: Vec<Leg> = p
                            .legs
                            .into_iter()
                            .map(|l| Leg {
                                directions: l.directions,
                                modes: l.modes,
                            })
                            .collect();
                        MovePart {
                            hand_on: MovePart::hand_on_from_legs(&legs),
                            legs,
                            atom: p.atom,
                            vectors: p.vectors,
                            range: p.range,
                            initial: p.initial,
                            path: p.path,
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        Moves {
            betza: betza.to_string(),
            parts,
            boards,
            exclusive,
            condition,
            from_zone: None,
            within: None,
        }
    }
}

/// The arguments after a keyword up to the next keyword word.
fn after_word<'a>(args: &'a [Arg], keyword: &str) -> &'a [Arg] {
    match args.iter().position(|a| a.is_word(keyword)) {
        Some(i) => {
            let rest = &args[i + 1..];
            let end = rest
                .iter()
                .position(|a| matches!(a, Arg::Word(_)))
                .unwrap_or(rest.len());
            &rest[..end]
        }
        None => &[],
    }
}

fn zone_after(args: &[Arg], keyword: &str) -> Option<usize> {
    args.windows(2).find_map(|w| match w {
        [Arg::Word(k), Arg::Zone(z)] if k == keyword => Some(*z),
        _ => None,
    })
}
