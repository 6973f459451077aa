//! Attack detection by looking outwards from the attacked cell: for each single-leg move part of each
//! piece type, step backwards along its vectors and see whether such a piece stands there. Multi-leg
//! parts fall back to generating the moves of the pieces of that type.

use crate::model::{CellId, Vec3};

use super::movegen::may_capture;
use super::position::Position;
use super::tables::Interpreter;

/// How one attack vector is checked from the attacked cell.
#[derive(Clone, Debug)]
pub(super) enum ProbeKind {
    /// A leap, possibly lame (`n`) or must-jump (`j`).
    Leap { lame: bool, jump: bool },
    /// A slide of at most this many steps.
    Ride(usize),
    /// A cannon hop (`p`).
    Hop,
    /// A grasshopper hop (`g`).
    Grasshop,
}

/// One attack vector of one piece type, seen from the attacked cell.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    piece: usize,
    forward: Vec3,
    back: Vec3,
    kind: ProbeKind,
    initial: bool,
    from_zone: Option<usize>,
}

/// Everything needed to decide whether a player attacks a cell: probes for single-leg parts, and the
/// piece types (as bits) whose attacks need their moves generated (multi-leg, conditional, confined).
#[derive(Clone, Debug, Default)]
pub(super) struct AttackPlan {
    probes: Vec<Probe>,
    forward_types: u64,
    /// Per piece type: how far (in cells, along any axis) its forward-generated attacks reach, or
    /// `i32::MAX` when they slide; attackers farther from the cell are skipped.
    reach: Vec<i32>,
}

impl Interpreter {
    /// Prepares the attack plan of every player.
    pub(super) fn attack_plans(&self) -> Vec<AttackPlan> {
        (0..self.game.players.len())
            .map(|by| {
                let mut plan = AttackPlan {
                    reach: vec![0; self.game.pieces.len()],
                    ..AttackPlan::default()
                };
                for piece in 0..self.game.pieces.len() {
                    let Some(sets) = self.moves[piece].get(by) else {
                        continue;
                    };
                    for prepared in sets {
                        for part in &prepared.parts {
                            let legs = &part.part.legs;
                            let modes = legs.last().map(|l| l.modes.as_bytes()).unwrap_or(&[]);
                            if !may_capture(modes) && legs.len() == 1 {
                                continue;
                            }
                            if legs.len() != 1
                                || part.part.vectors.is_empty()
                                || prepared.within.is_some()
                                || prepared.condition.is_some()
                                || !prepared.boards.is_empty()
                                || self.pieces[piece].confined.is_some()
                                || modes.iter().any(|c| matches!(c, b'o' | b'u' | b't'))
                            {
                                plan.forward_types |= 1 << piece;
                                plan.reach[piece] =
                                    plan.reach[piece].max(part_reach(&part.part, &self.game));
                                continue;
                            }
                            let kind = if modes.contains(&b'g') {
                                ProbeKind::Grasshop
                            } else if modes.contains(&b'p') {
                                ProbeKind::Hop
                            } else if part.part.range != 1 {
                                ProbeKind::Ride(if part.part.range == 0 {
                                    usize::MAX
                                } else {
                                    part.part.range as usize
                                })
                            } else {
                                ProbeKind::Leap {
                                    lame: modes.contains(&b'n'),
                                    jump: modes.contains(&b'j'),
                                }
                            };
                            for &v in &part.first {
                                plan.probes.push(Probe {
                                    piece,
                                    forward: v,
                                    back: [-v[0], -v[1], -v[2]],
                                    kind: kind.clone(),
                                    initial: part.part.initial,
                                    from_zone: prepared.from_zone,
                                });
                            }
                        }
                    }
                }
                plan
            })
            .collect()
    }

    /// Tells whether a piece of `by` attacks `cell`.
    pub(super) fn cell_attacked(&self, pos: &Position, cell: CellId, by: usize) -> bool {
        let Some(plan) = self.attack_plans.get(by) else {
            return false;
        };
        for probe in &plan.probes {
            let attacker = |c: CellId| {
                let occ = pos.cells[c];
                !occ.is_empty()
                    && occ.owner() == by
                    && occ.piece() == probe.piece
                    && (!probe.initial || occ.is_virgin())
                    && probe.from_zone.is_none_or(|z| self.in_zone(z, by, c))
            };
            let found = match probe.kind {
                ProbeKind::Leap { lame, jump } => match self.step(cell, probe.back) {
                    Some(from) => {
                        attacker(from) && self.leap_path_ok(pos, from, probe.forward, lame, jump)
                    }
                    None => false,
                },
                ProbeKind::Ride(max) => self.rider_attacks(pos, cell, probe.back, max, &attacker),
                ProbeKind::Hop => {
                    self.hopper_attacks(pos, cell, probe.back, false, probe.piece, &attacker)
                }
                ProbeKind::Grasshop => {
                    self.hopper_attacks(pos, cell, probe.back, true, probe.piece, &attacker)
                }
            };
            if found {
                return true;
            }
        }
        if plan.forward_types == 0 {
            return false;
        }
        let mut scratch = Vec::new();
        let target = &self.game.cells[cell];
        for (from, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != by || plan.forward_types & (1 << occ.piece()) == 0 {
                continue;
            }
            let source = &self.game.cells[from];
            let reach = plan.reach[occ.piece()];
            if reach != i32::MAX
                && (source.board != target.board
                    || (0..3).any(|i| (source.coord[i] - target.coord[i]).abs() > reach))
            {
                continue;
            }
            scratch.clear();
            self.piece_moves(pos, from, occ, by, true, &mut scratch);
            if scratch.iter().any(|m| m.to as usize == cell) {
                return true;
            }
        }
        false
    }

    fn rider_attacks(
        &self,
        pos: &Position,
        cell: CellId,
        back: Vec3,
        max_steps: usize,
        attacker: &dyn Fn(CellId) -> bool,
    ) -> bool {
        let mut current = cell;
        let mut steps = 0;
        while steps < max_steps {
            steps += 1;
            let Some(next) = self.step(current, back) else {
                return false;
            };
            if !pos.cells[next].is_empty() {
                return attacker(next);
            }
            current = next;
        }
        false
    }

    /// Cannon (`p`) and grasshopper (`g`) attacks, seen from the target: a screen, then the attacker.
    fn hopper_attacks(
        &self,
        pos: &Position,
        cell: CellId,
        back: Vec3,
        grasshopper: bool,
        piece: usize,
        attacker: &dyn Fn(CellId) -> bool,
    ) -> bool {
        let mut current = cell;
        // Find the screen: right behind the target for a grasshopper, the first piece for a cannon.
        let screen = loop {
            let Some(next) = self.step(current, back) else {
                return false;
            };
            if !pos.cells[next].is_empty() {
                break next;
            }
            if grasshopper {
                return false;
            }
            current = next;
        };
        if self.pieces[piece]
            .cannot_hop
            .contains(&pos.cells[screen].piece())
        {
            return false;
        }
        let mut current = screen;
        loop {
            let Some(next) = self.step(current, back) else {
                return false;
            };
            if !pos.cells[next].is_empty() {
                return attacker(next);
            }
            current = next;
        }
    }
}

/// How far a move part can reach along any axis: the sum over its legs of the atom's largest step (a
/// 45° turn of a compass step keeps its length), or `i32::MAX` if a leg may slide or wrap around, or the
/// part has no plain geometry (castling, the universal leaper, several boards).
fn part_reach(part: &crate::model::MovePart, game: &crate::model::Game) -> i32 {
    if part.vectors.is_empty() || game.boards.len() > 1 {
        return i32::MAX;
    }
    let unbounded = part
        .legs
        .iter()
        .any(|l| l.modes.contains('y') || l.modes.contains('g') || l.modes.contains('o'));
    if part.range != 1 || unbounded {
        return i32::MAX;
    }
    let step = part
        .vectors
        .iter()
        .flat_map(|v| v.iter())
        .map(|c| c.abs())
        .max()
        .unwrap_or(0);
    step.saturating_mul(part.legs.len() as i32)
}
