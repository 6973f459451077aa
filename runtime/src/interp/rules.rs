//! Captures beyond replacement: custodian capture, and the check test of games whose captures remove
//! more than the captured piece (atomic chess). Effects go through `make`'s change log, so unmake
//! restores them.

use super::position::{Move, Occupant, Position, Undo};
use super::tables::Interpreter;

impl Interpreter {
    /// Whether the piece on `cell` is royal now: its type is `royal`, or `royal when` holds for it.
    pub(super) fn is_royal_at(&self, pos: &Position, cell: usize) -> bool {
        let occ = pos.cells[cell];
        if occ.is_empty() {
            return false;
        }
        let rules = &self.pieces[occ.piece()];
        rules.royal
            && rules.royal_when.as_ref().is_none_or(|c| {
                self.condition_holds(pos, &super::conditions::Scope::piece(occ.owner(), cell), c)
            })
    }

    fn clear(&self, pos: &mut Position, undo: &mut Undo, cell: usize) {
        if !pos.cells[cell].is_empty() {
            self.put(pos, undo, cell, Occupant::EMPTY);
        }
    }

    /// Whether a player still has a royal piece on the board.
    pub(super) fn has_royal(&self, pos: &Position, player: usize) -> bool {
        (0..pos.cells.len()).any(|c| {
            !pos.cells[c].is_empty() && pos.cells[c].owner() == player && self.is_royal_at(pos, c)
        })
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
                        && self.is_royal_at(pos, m.to as usize)
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
    ) -> Vec<(usize, Occupant)> {
        let Some(rule) = &self.game.custodian else {
            return Vec::new();
        };
        let (directions, edge) = (&rule.along, rule.edge_jaw);
        let mover = pos.cells[to].owner();
        let mine =
            |pos: &Position, c: usize| !pos.cells[c].is_empty() && pos.cells[c].owner() == mover;
        let theirs =
            |pos: &Position, c: usize| !pos.cells[c].is_empty() && pos.cells[c].owner() != mover;
        let mut caught: Vec<usize> = Vec::new();
        for enclose in &rule.enclose {
            let friend = enclose.friend;
            let (lo, hi) = (enclose.min, enclose.max);
            for &d in directions {
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
        for corner in &rule.corners {
            let (zone, enemy, friend) = (corner.zone, corner.enemy, corner.friend);
            for &d in directions {
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
        caught.sort_unstable();
        caught.dedup();
        let top_only = rule.top_only;
        let mut removed = Vec::with_capacity(caught.len());
        for &cell in &caught {
            removed.push((cell, pos.cells[cell]));
            match pos.stacks.iter().position(|&(c, _)| c == cell) {
                // `remove top`: the piece below stays, freed.
                Some(index) if top_only => {
                    let (_, below) = pos.stacks.remove(index);
                    self.put(pos, undo, cell, below);
                }
                // `remove unit`: the piece below goes with the top one.
                Some(index) => {
                    let (_, below) = pos.stacks.remove(index);
                    removed.push((cell, below));
                    self.clear(pos, undo, cell);
                }
                None => self.clear(pos, undo, cell),
            }
        }
        removed
    }
}
