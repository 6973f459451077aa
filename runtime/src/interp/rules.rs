//! Triggered rules run by the interpreter: `rule` blocks `on capture` whose effects remove pieces
//! (`remove moved`, `remove captured`, `remove adjacent TARGET except PIECE...`), as atomic chess's
//! explosion. Effects go through `make`'s change log, so unmake restores them.

use crate::model::{Arg, Directive, Vec3};

use super::position::{Move, Occupant, Position, Undo};
use super::tables::Interpreter;

/// A rule that fires after every capture and removes pieces.
#[derive(Clone, Debug)]
pub(super) struct CaptureRule {
    /// The `remove` effects, in order.
    pub removals: Vec<Removal>,
}

/// Which pieces a `remove` effect takes off the board.
#[derive(Clone, Debug)]
pub(super) enum Removal {
    /// The piece that moved, on its target cell.
    Moved,
    /// The pieces around the target cell (8 neighbours on the same board), except these types.
    Adjacent { except: Vec<usize> },
}

/// Reads the rules the interpreter runs from the model; other rules are left to later stages.
pub(super) fn capture_rules(rules: &[crate::model::Rule]) -> Vec<CaptureRule> {
    let mut out = Vec::new();
    for rule in rules {
        let on_capture = rule.statements.iter().any(|d| {
            d.keyword == "on" && matches!(d.arguments.first(), Some(Arg::Word(w)) if w == "capture")
        });
        if !on_capture {
            continue;
        }
        let removals: Vec<Removal> = rule
            .statements
            .iter()
            .filter(|d| d.keyword == "remove")
            .filter_map(removal)
            .collect();
        if !removals.is_empty() {
            out.push(CaptureRule { removals });
        }
    }
    out
}

fn removal(d: &Directive) -> Option<Removal> {
    let words: Vec<&str> = d
        .arguments
        .iter()
        .filter_map(|a| {
            if let Arg::Word(w) = a {
                Some(w.as_str())
            } else {
                None
            }
        })
        .collect();
    match words.as_slice() {
        ["moved"] => Some(Removal::Moved),
        ["adjacent", "moved", ..] => {
            let except = d.arguments.iter().filter_map(Arg::as_piece).collect();
            Some(Removal::Adjacent { except })
        }
        _ => None,
    }
}

impl Interpreter {
    /// Runs the capture rules after a capturing move to `to`.
    pub(super) fn after_capture(&self, pos: &mut Position, undo: &mut Undo, mv: Move) {
        let to = mv.to as usize;
        for rule in &self.capture_rules {
            for removal in &rule.removals {
                match removal {
                    Removal::Moved => self.clear(pos, undo, to),
                    Removal::Adjacent { except } => {
                        for dx in -1..=1 {
                            for dy in -1..=1 {
                                if (dx, dy) == (0, 0) {
                                    continue;
                                }
                                let Some(cell) = self.step(to, [dx, dy, 0]) else {
                                    continue;
                                };
                                let occ = pos.cells[cell];
                                if !occ.is_empty() && !except.contains(&occ.piece()) {
                                    self.clear(pos, undo, cell);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn clear(&self, pos: &mut Position, undo: &mut Undo, cell: usize) {
        if !pos.cells[cell].is_empty() {
            self.put(pos, undo, cell, Occupant::EMPTY);
        }
    }

    /// Whether a player still has a royal piece on the board.
    pub(super) fn has_royal(&self, pos: &Position, player: usize) -> bool {
        pos.cells
            .iter()
            .any(|o| !o.is_empty() && o.owner() == player && self.pieces[o.piece()].royal)
    }

    /// In games whose captures remove more than the captured piece, a royal piece is in check only when
    /// an enemy piece can capture it without losing its own royal piece (atomic chess: kings that touch
    /// cannot check each other): such captures are played out to find out.
    pub(super) fn royal_capturable(&self, pos: &mut Position, player: usize) -> bool {
        let saved = pos.side;
        let mut exposed = false;
        for opponent in self.opponents(player) {
            pos.side = opponent;
            let mut moves = Vec::new();
            self.generate_pseudo(pos, &mut moves);
            pos.side = saved;
            let captures: Vec<Move> = moves
                .into_iter()
                .filter(|m| {
                    let target = pos.cells[m.to as usize];
                    self.is_capture(pos, *m)
                        && !target.is_empty()
                        && target.owner() == player
                        && self.pieces[target.piece()].royal
                })
                .collect();
            for mv in captures {
                pos.side = opponent;
                let undo = super::elimination::probing(|| self.make_move(pos, mv));
                let hit = !self.has_royal(pos, player) && self.has_royal(pos, opponent);
                self.unmake_move(pos, mv, undo);
                pos.side = saved;
                if hit {
                    exposed = true;
                    break;
                }
            }
            if exposed {
                break;
            }
        }
        exposed
    }
}

impl Interpreter {
    /// Custodian capture after a move to `to`: the moved unit is the active jaw, any unit of the mover
    /// the other one. Every enclosure found (`enclose`, `corner`, `edge_jaw`) is removed at once; with
    /// `remove top` a captured stack loses only its top piece. Returns the pieces removed.
    pub(super) fn custodian(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        to: usize,
    ) -> Vec<Occupant> {
        let Some(rule) = &self.game.custodian else {
            return Vec::new();
        };
        let mover = pos.cells[to].owner();
        let mine =
            |pos: &Position, c: usize| !pos.cells[c].is_empty() && pos.cells[c].owner() == mover;
        let theirs =
            |pos: &Position, c: usize| !pos.cells[c].is_empty() && pos.cells[c].owner() != mover;
        let directions: Vec<Vec3> = rule
            .children
            .iter()
            .filter(|d| d.keyword == "along")
            .flat_map(|d| d.arguments.iter().filter_map(Arg::as_vector))
            .collect();
        let edge = rule.children.iter().any(|d| d.keyword == "edge_jaw");
        let mut caught: Vec<usize> = Vec::new();
        for child in &rule.children {
            match child.keyword.as_str() {
                "enclose" => {
                    let friend = child.arguments.first().is_some_and(|a| a.is_word("friend"));
                    let (lo, hi) = count_range(child.arguments.get(1));
                    for &d in &directions {
                        let mut run = Vec::new();
                        let mut at = to;
                        let closed = loop {
                            match self.step(at, d) {
                                Some(next)
                                    if run.len() < hi
                                        && (if friend {
                                            mine(pos, next)
                                        } else {
                                            theirs(pos, next)
                                        }) =>
                                {
                                    run.push(next);
                                    at = next;
                                }
                                Some(next) => break mine(pos, next) && !run.is_empty(),
                                None => break edge && !friend && !run.is_empty(),
                            }
                        };
                        // A friendly run is caught only at its exact length (the next own unit closes it).
                        let run = if friend {
                            run.into_iter().take(lo).collect::<Vec<_>>()
                        } else {
                            run
                        };
                        let closed = if friend {
                            run.len() == lo
                                && self
                                    .step(*run.last().unwrap_or(&to), d)
                                    .is_some_and(|c| mine(pos, c))
                        } else {
                            closed
                        };
                        if closed && (lo..=hi).contains(&run.len()) {
                            caught.extend(run);
                        }
                    }
                }
                "corner" => {
                    let Some(zone) = child.arguments.first().and_then(Arg::as_zone) else {
                        continue;
                    };
                    let enemy = child.arguments.iter().any(|a| a.is_word("enemy"));
                    let friend = child.arguments.iter().any(|a| a.is_word("friend"));
                    for &d in &directions {
                        let Some(c) = self.step(to, d) else { continue };
                        let occ = pos.cells[c];
                        if occ.is_empty() || !self.in_zone(zone, mover, c) {
                            continue;
                        }
                        let side_ok = if occ.owner() == mover { friend } else { enemy };
                        let enclosed = directions
                            .iter()
                            .filter_map(|&e| self.step(c, e))
                            .all(|n| mine(pos, n));
                        if side_ok && enclosed {
                            caught.push(c);
                        }
                    }
                }
                _ => {}
            }
        }
        caught.sort_unstable();
        caught.dedup();
        let top_only = rule.children.iter().any(|d| {
            d.keyword == "remove" && d.arguments.first().is_some_and(|a| a.is_word("top"))
        });
        let mut removed = Vec::with_capacity(caught.len());
        for &cell in &caught {
            removed.push(pos.cells[cell]);
            match pos
                .stacks
                .iter()
                .position(|&(c, _)| c == cell)
                .filter(|_| top_only)
            {
                Some(index) => {
                    let (_, below) = pos.stacks.remove(index);
                    self.put(pos, undo, cell, below);
                }
                None => self.clear(pos, undo, cell),
            }
        }
        removed
    }
}

/// An enclosure size: `1` or `1..6`.
fn count_range(arg: Option<&Arg>) -> (usize, usize) {
    match arg {
        Some(Arg::Int(n)) => (*n as usize, *n as usize),
        Some(Arg::Range(lo, hi)) => (
            lo.as_int().unwrap_or(1) as usize,
            hi.as_int().unwrap_or(1) as usize,
        ),
        _ => (1, 1),
    }
}
