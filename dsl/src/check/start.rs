//! The start position against the end rules: an `extinction` rule whose types a player does not have
//! on the boards at the start would end the game before the first move (E2049).
//!
//! The start positions are built by the interpreter, as `vdl perft` and `vdl play` build them: under
//! the options' defaults, and under each listed value of each option.

use vdl_runtime::model::Game;
use vdl_runtime::{Interpreter, Variant};

use super::Checker;
use crate::ast::Statement;
use crate::error::ErrorKind;
use crate::span::Span;

/// Most start positions built for one file (one per option value).
const MAX_STARTS: usize = 32;

/// An unconditional `extinction` rule: its piece types (`None`: `all`) and the span of their names.
struct Extinction {
    pieces: Option<Vec<usize>>,
    names: String,
    span: Span,
}

impl Checker {
    /// Reports the `extinction` rules that the start position already fulfils for some player.
    pub(super) fn check_start(&mut self, statements: &[Statement], game: &Game) {
        let rules: Vec<Extinction> = statements
            .iter()
            .filter(|s| s.keyword.text == "end")
            .flat_map(Statement::children)
            .filter(|s| s.keyword.text == "extinction" && s.condition.is_none())
            .filter_map(|s| self.extinction(s, game))
            .collect();
        if rules.is_empty() {
            return;
        }
        for (option, interpreter) in starts(game) {
            let start = interpreter.start();
            let mut reported = Vec::new();
            for (index, rule) in rules.iter().enumerate() {
                let players = game.players.iter().enumerate().filter(|(_, p)| !p.neutral);
                for (player, side) in players {
                    let alive = start.cells.iter().any(|o| {
                        !o.is_empty()
                            && o.owner() == player
                            && rule.pieces.as_ref().is_none_or(|p| p.contains(&o.piece()))
                    });
                    if alive {
                        continue;
                    }
                    reported.push(index);
                    self.error(
                        rule.span,
                        ErrorKind::ExtinctAtStart {
                            player: side.name.clone(),
                            pieces: rule.names.clone(),
                            option: option.clone(),
                        },
                    );
                    break;
                }
            }
            if !reported.is_empty() {
                // Unused names are warned about only in a file without errors.
                self.problems.retain(|p| {
                    !matches!(
                        p.kind,
                        ErrorKind::UnusedZone { .. } | ErrorKind::UnusedPiece { .. }
                    )
                });
                return; // one start position with the mistake is enough
            }
        }
    }

    /// Reads `extinction PIECE... RESULT ...` or `extinction all ...`.
    fn extinction(&self, s: &Statement, game: &Game) -> Option<Extinction> {
        let mut pieces = Some(Vec::new());
        let mut names = Vec::new();
        let mut span: Option<Span> = None;
        for v in &s.arguments {
            let Some(name) = v.as_name() else { break };
            if name.text == "all" {
                pieces = None;
            } else {
                let Some(index) = game.pieces.iter().position(|p| p.name == name.text) else {
                    break; // the result and what follows it
                };
                if let Some(p) = &mut pieces {
                    p.push(index);
                }
            }
            names.push(name.text.clone());
            span = Some(span.map_or(v.span, |s| s.to(v.span)));
        }
        Some(Extinction {
            pieces,
            names: names.join(" "),
            span: span?,
        })
    }
}

/// The interpreters of the start positions: the defaults first, then each listed value of each option
/// (`None`, or the option and value chosen).
fn starts(game: &Game) -> Vec<(Option<(String, String)>, Interpreter)> {
    let mut out = Vec::new();
    if let Ok(interpreter) = Interpreter::new(game.clone()) {
        out.push((None, interpreter));
    }
    for option in &game.options {
        for value in &option.values {
            if out.len() >= MAX_STARTS {
                return out;
            }
            let plain = !value.is_empty()
                && value
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if !plain || value == "text" || option.default.as_ref() == Some(value) {
                continue;
            }
            let chosen = [(option.name.clone(), value.clone())];
            if let Ok(interpreter) = Interpreter::with_options(game.clone(), &chosen) {
                out.push((Some(chosen[0].clone()), interpreter));
            }
        }
    }
    out
}
