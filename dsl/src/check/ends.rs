//! The `end` block: end lines, `ranking` and `scoring`, as typed model values; and the whole-game
//! checks about how a game ends.

use vdl_runtime::model::{
    Counting, EndKind, EndRule, EndTiming, Game, Outcome, PieceSet, RankGroup, Scoring, Subject,
};

use super::directive::{Arg, Directive};
use super::model::{int, piece_list};
use super::Checker;
use crate::ast::Statement;
use crate::error::ErrorKind;
use crate::span::Span;

impl Checker {
    pub(super) fn build_end(&mut self, d: &Directive, game: &mut Game) {
        for line in &d.children {
            match line.keyword.as_str() {
                "ranking" => {
                    game.ranking = line
                        .words()
                        .iter()
                        .filter_map(|w| match *w {
                            "winner" => Some(RankGroup::Winner),
                            "remaining" => Some(RankGroup::Remaining),
                            "reverse_elimination" => Some(RankGroup::ReverseElimination),
                            _ => None,
                        })
                        .collect()
                }
                "scoring" => game.scoring = Some(build_scoring(line)),
                _ => {
                    if let Some(rule) = build_end_rule(line) {
                        game.end.push(rule);
                    }
                }
            }
        }
    }

    pub(super) fn check_end(&mut self, statements: &[Statement], anchor: Span, game: &Game) {
        let end = statements.iter().find(|s| s.keyword.text == "end");
        match end {
            None => self.error(anchor, ErrorKind::NoEnd),
            Some(end) if end.children().is_empty() => {
                self.error(end.keyword.span, ErrorKind::NoEnd)
            }
            Some(end) => {
                let has_royal = game.has_royal();
                for s in end.children() {
                    if matches!(s.keyword.text.as_str(), "checkmate" | "royal_capture")
                        && !has_royal
                        && !game.pieces.is_empty()
                    {
                        self.error(
                            s.keyword.span,
                            ErrorKind::NoRoyal {
                                rule: s.keyword.text.clone(),
                            },
                        );
                    }
                }
            }
        }
    }
}

fn build_scoring(d: &Directive) -> Scoring {
    let mut scoring = Scoring::default();
    for child in &d.children {
        match child.keyword.as_str() {
            "total" => scoring.total = int(child.arguments.first()).max(0) as u32,
            "drop_out" => scoring.drop_out.push((
                int(child.arguments.first()).max(0) as u32,
                int(child.arguments.get(1)).max(0) as u32,
            )),
            // The winner taking the rest and survivors sharing it in a draw are how scoring works;
            // these lines say so explicitly.
            "winner" | "draw" => {}
            "series" => scoring.series_sum = true,
            other => debug_assert!(false, "scoring statement `{other}` has no model"),
        }
    }
    scoring
}

/// The words an end line's arguments may hold besides its own: result, subject, `claim`, `at`.
fn outcome(arguments: &[Arg]) -> Option<Outcome> {
    arguments.iter().find_map(|a| match a.as_word() {
        Some("win") => Some(Outcome::Win),
        Some("loss") => Some(Outcome::Loss),
        Some("draw") => Some(Outcome::Draw),
        Some("points") => Some(Outcome::Points),
        _ => None,
    })
}

fn build_end_rule(d: &Directive) -> Option<EndRule> {
    let args = d.arguments.as_slice();
    let result = outcome(args)?;
    let result_at = args
        .iter()
        .position(|a| matches!(a.as_word(), Some("win" | "loss" | "draw" | "points")))
        .unwrap_or(0);
    let subject = match args.get(result_at + 1) {
        Some(Arg::Word(w)) if w == "victim" => Subject::Victim,
        Some(Arg::Word(w)) if w == "mover" => Subject::Mover,
        Some(Arg::Player(p)) => Subject::Player(*p),
        _ => Subject::Default,
    };
    let automatic = !args.iter().any(|a| a.is_word("claim"));
    let timing = match args.iter().position(|a| a.is_word("at")) {
        Some(i) if args.get(i + 1).is_some_and(|a| a.is_word("turn_start")) => EndTiming::TurnStart,
        _ => EndTiming::AfterMove,
    };
    let first = args.first();
    let count = || int(first).max(0) as u32;
    let pieces = |from: usize| -> Vec<usize> {
        args.iter()
            .skip(from)
            .take(result_at.saturating_sub(from))
            .filter_map(Arg::as_piece)
            .collect()
    };
    let piece_set = |from: usize| -> PieceSet {
        if args[from..result_at].iter().any(|a| a.is_word("all")) {
            PieceSet::All
        } else {
            PieceSet::Types(pieces(from))
        }
    };
    let kind = match d.keyword.as_str() {
        "checkmate" => EndKind::Checkmate,
        "stalemate" => EndKind::Stalemate,
        "no_moves" => EndKind::NoMoves,
        "royal_capture" => EndKind::RoyalCapture,
        "extinction" => EndKind::Extinction(piece_set(0)),
        "flag" => EndKind::Flag {
            zone: first.and_then(Arg::as_zone).unwrap_or(0),
            pieces: pieces(1),
            after_reply: args.iter().any(|a| a.is_word("after_reply")),
        },
        "checks" => EndKind::Checks(count()),
        "bare_king" => EndKind::BareKing {
            unless_bared_back: args.iter().any(|a| a.is_word("unless_bared_back")),
        },
        "drop_mate" => EndKind::DropMate(pieces(0)),
        "perpetual_check" => EndKind::PerpetualCheck(count()),
        "facing" => EndKind::Facing(count()),
        "counting" => EndKind::Counting(build_counting(d)),
        "repetition" => EndKind::Repetition(count()),
        "move_rule" => EndKind::MoveRule(count()),
        "move_limit" => EndKind::MoveLimit(count()),
        "insufficient_material" => EndKind::InsufficientMaterial(
            d.child("mating_potential")
                .and_then(|m| m.condition.clone()),
        ),
        "result" => EndKind::Result,
        "checkmates" => EndKind::Checkmates(count()),
        "total_checkmates" => EndKind::TotalCheckmates(count()),
        "all_pass" => EndKind::AllPass,
        "captures" => EndKind::Captures(count(), piece_set(1)),
        "formation" => {
            let (width, height) = match first {
                Some(Arg::List(size)) => (
                    int(size.first()).max(1) as u32,
                    int(size.get(1)).max(1) as u32,
                ),
                _ => (1, 1),
            };
            EndKind::Formation {
                width,
                height,
                pieces: piece_list(args.get(1)),
            }
        }
        "last_survivor" => EndKind::LastSurvivor,
        other => {
            debug_assert!(false, "end line `{other}` has no model");
            return None;
        }
    };
    Some(EndRule {
        kind,
        result,
        subject,
        automatic,
        timing,
        condition: d.condition.clone(),
    })
}

fn build_counting(d: &Directive) -> Counting {
    let mut counting = Counting {
        start: None,
        restart: Vec::new(),
        limits: Vec::new(),
        begin: Vec::new(),
    };
    for child in &d.children {
        let condition = child.condition.clone();
        match child.keyword.as_str() {
            "start" => {
                counting.start = Some(condition.unwrap_or(vdl_runtime::model::Cond::Const(true)))
            }
            "restart" => counting.restart.push(condition),
            "limit" => counting
                .limits
                .push((int(child.arguments.first()).max(1) as u32, condition)),
            "begin" => counting.begin.push((
                child
                    .arguments
                    .first()
                    .is_some_and(|a| a.is_word("piece_count")),
                condition,
            )),
            other => debug_assert!(false, "counting statement `{other}` has no model"),
        }
    }
    counting
}
