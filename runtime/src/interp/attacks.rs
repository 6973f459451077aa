//! Attack detection by looking outwards from the attacked cell: for each single-leg move part of each
//! piece type, step backwards along its vectors and see whether such a piece stands there. Multi-leg
//! parts fall back to generating the moves of the pieces of that type.

use crate::model::{CellId, Vec3};

use super::position::Position;
use super::tables::Interpreter;

impl Interpreter {
    /// Tells whether a piece of `by` attacks `cell`.
    pub(super) fn cell_attacked(&self, pos: &Position, cell: CellId, by: usize) -> bool {
        // Piece types (as bits) whose attacks need forward generation (multi-leg moves and the like).
        let mut forward_types: u64 = 0;
        for piece in 0..self.game.pieces.len() {
            let player_moves = &self.moves[piece];
            let Some(sets) = player_moves.get(by) else {
                continue;
            };
            for prepared in sets {
                for part in &prepared.parts {
                    let legs = &part.part.legs;
                    if legs.len() != 1
                        || prepared.within.is_some()
                        || !prepared.boards.is_empty()
                        || self.pieces[piece].confined.is_some()
                    {
                        forward_types |= 1 << piece;
                        continue;
                    }
                    let modes = legs[0].modes.as_bytes();
                    if !may_capture(modes) {
                        continue;
                    }
                    let hop = modes.contains(&b'p');
                    let grasshopper = modes.contains(&b'g');
                    let lame = modes.contains(&b'n');
                    let jump = modes.contains(&b'j');
                    let rider = part.part.range != 1;
                    let max_steps = match part.part.range {
                        0 | 1 => usize::MAX,
                        n => n as usize,
                    };
                    let attacker = |c: CellId| {
                        let occ = pos.cells[c];
                        !occ.is_empty()
                            && occ.owner() == by
                            && occ.piece() == piece
                            && (!part.part.initial || occ.is_virgin())
                            && prepared.from_zone.is_none_or(|z| self.in_zone(z, by, c))
                    };
                    for &v in &part.first {
                        let back = [-v[0], -v[1], -v[2]];
                        let found = if hop || grasshopper {
                            self.hopper_attacks(pos, cell, back, grasshopper, piece, &attacker)
                        } else if rider {
                            self.rider_attacks(pos, cell, back, max_steps, &attacker)
                        } else {
                            match self.step(cell, back) {
                                Some(from) => {
                                    attacker(from) && self.leap_clear(pos, from, v, lame, jump)
                                }
                                None => false,
                            }
                        };
                        if found {
                            return true;
                        }
                    }
                }
            }
        }
        if forward_types == 0 {
            return false;
        }
        let mut scratch = Vec::new();
        for (from, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != by || forward_types & (1 << occ.piece()) == 0 {
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

    /// The path condition of a lame (`n`) or jumping (`j`) leap from `from` along `v`.
    fn leap_clear(&self, pos: &Position, from: CellId, v: Vec3, lame: bool, jump: bool) -> bool {
        if !lame && !jump {
            return true;
        }
        let path = crate::geometry::lame_path(v);
        if path.is_empty() {
            return !jump;
        }
        let occupied = path
            .iter()
            .any(|&d| self.step(from, d).is_none_or(|c| !pos.cells[c].is_empty()));
        if lame {
            !occupied
        } else {
            occupied
        }
    }
}

fn may_capture(modes: &[u8]) -> bool {
    modes.contains(&b'c') || !modes.iter().any(|c| matches!(c, b'm' | b'd' | b'e'))
}
