//! Attack detection by looking outwards from the attacked cell: for each single-leg move part of each
//! piece type (and each two-leg lame leap such as the xiangqi horse `mafsW`, and each bent rider such
//! as the Gryphon `yafsF`), step backwards along its vectors and see whether such a piece stands there.
//! Other multi-leg parts fall back to generating the moves of the pieces of that type.

use crate::model::{CellId, Vec3};

use super::movegen::may_capture;
use super::position::Position;
use super::tables::Interpreter;

/// How one attack vector is checked from the attacked cell.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum ProbeKind {
    /// A leap, possibly lame (`n`) or must-jump (`j`).
    Leap { lame: bool, jump: bool },
    /// A slide of at most this many steps.
    Ride(usize),
    /// A cannon hop (`p`).
    Hop,
    /// A grasshopper hop (`g`).
    Grasshop,
    /// A two-leg leap whose first leg (`first`, lame/jump flags) must end on an empty cell, the second
    /// (`forward`) being a leap with the given lame/jump flags.
    Lame {
        first: Vec3,
        first_lame: bool,
        first_jump: bool,
        lame: bool,
        jump: bool,
    },
    /// A bent rider (`yafsF`, the Gryphon; `yafsW`, the Anchorite): a one-step first leg (`first`) to
    /// an empty cell, then a slide along `forward`.
    Bent { first: Vec3 },
}

/// One attack vector of one piece type, seen from the attacked cell.
#[derive(Clone, Debug)]
pub(super) struct Probe {
    piece: usize,
    /// The piece types (as bits) the probe looks for: `piece`, and the types of merged probes.
    pieces: u64,
    forward: Vec3,
    back: Vec3,
    kind: ProbeKind,
    initial: bool,
    from_zone: Option<usize>,
    /// The zone the piece may not leave (`confined`): it attacks only cells inside.
    confined: Option<usize>,
}

/// Everything needed to decide whether a player attacks a cell: probes for single-leg parts, and the
/// piece types (as bits) whose attacks need their moves generated (multi-leg, conditional, confined).
#[derive(Clone, Debug, Default)]
pub(super) struct AttackPlan {
    probes: Vec<Probe>,
    pub(super) forward_types: u64,
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
                    // When a `moves_only_on` replaces other moves of the piece on its board, which
                    // moves it has there depends on the position: its attacks are generated.
                    let exclusive = sets.iter().any(|e| {
                        e.exclusive
                            && sets.iter().any(|s| {
                                !s.exclusive
                                    && (s.boards.is_empty()
                                        || s.boards.iter().any(|b| e.boards.contains(b)))
                            })
                    });
                    for prepared in sets {
                        for part in &prepared.parts {
                            let legs = &part.part.legs;
                            let modes = legs.last().map(|l| l.modes.as_bytes()).unwrap_or(&[]);
                            if !may_capture(modes) && legs.len() == 1 {
                                continue;
                            }
                            let confined = self.pieces[piece].confined;
                            let plain_setting = !part.part.vectors.is_empty()
                                && prepared.within.is_none()
                                && prepared.condition.is_none()
                                && prepared.boards.is_empty()
                                && !exclusive;
                            if legs.len() == 2 && plain_setting {
                                if let Some(bent) =
                                    self.bent_probes(part, piece, prepared, confined)
                                {
                                    plan.probes.extend(bent);
                                    continue;
                                }
                                if let Some(lame) =
                                    self.lame_probes(part, piece, prepared, confined)
                                {
                                    plan.probes.extend(lame);
                                    continue;
                                }
                            }
                            if legs.len() != 1
                                || !plain_setting
                                || part.part.path != crate::model::RiderPath::Straight
                                || modes.iter().any(|c| matches!(c, b'o' | b'u' | b't' | b'x'))
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
                                    pieces: 1 << piece,
                                    forward: v,
                                    back: [-v[0], -v[1], -v[2]],
                                    kind: kind.clone(),
                                    initial: part.part.initial,
                                    from_zone: prepared.from_zone,
                                    confined,
                                });
                            }
                        }
                    }
                }
                plan.probes = merge_probes(std::mem::take(&mut plan.probes));
                plan
            })
            .collect()
    }

    /// The probes of a two-leg part that is a bent rider: a first leg of one step that must end on an
    /// empty cell and turns into a slide (`y`), then slides and may capture (modes `m`, `c`): the
    /// Gryphon and the Anchorite. Returns `None` when the part is not of that form.
    fn bent_probes(
        &self,
        part: &super::tables::PreparedPart,
        piece: usize,
        prepared: &super::tables::PreparedMoves,
        confined: Option<usize>,
    ) -> Option<Vec<Probe>> {
        let legs = &part.part.legs;
        let first_modes = legs[0].modes.as_bytes();
        let last_modes = legs[1].modes.as_bytes();
        if part.part.range != 1
            || !first_modes.contains(&b'y')
            || !first_modes.iter().all(|c| matches!(c, b'm' | b'y'))
            || !last_modes.iter().all(|c| matches!(c, b'm' | b'c'))
        {
            return None;
        }
        if !may_capture(last_modes) {
            return Some(Vec::new());
        }
        let mut probes = Vec::new();
        for &first in &part.first {
            let base = part.base_for(first);
            for &c in part.continuations(0, base, first, 0)? {
                probes.push(Probe {
                    piece,
                    pieces: 1 << piece,
                    forward: c,
                    back: [-c[0], -c[1], -c[2]],
                    kind: ProbeKind::Bent { first },
                    initial: part.part.initial,
                    from_zone: prepared.from_zone,
                    confined,
                });
            }
        }
        Some(probes)
    }

    /// The probes of a two-leg part that is a lame leap: a first leg of one step that must end on an
    /// empty cell (modes `m`, `n`, `j` only), then a leap that may capture (modes `m`, `c`, `n`, `j`).
    /// Returns `None` when the part is not of that form; an empty list when it cannot capture.
    fn lame_probes(
        &self,
        part: &super::tables::PreparedPart,
        piece: usize,
        prepared: &super::tables::PreparedMoves,
        confined: Option<usize>,
    ) -> Option<Vec<Probe>> {
        let legs = &part.part.legs;
        let first_modes = legs[0].modes.as_bytes();
        let last_modes = legs[1].modes.as_bytes();
        if part.part.range != 1
            || !first_modes.iter().all(|c| matches!(c, b'm' | b'n' | b'j'))
            || !last_modes
                .iter()
                .all(|c| matches!(c, b'm' | b'c' | b'n' | b'j'))
        {
            return None;
        }
        if !may_capture(last_modes) {
            return Some(Vec::new());
        }
        let mut probes: Vec<Probe> = Vec::new();
        for &first in &part.first {
            // The same continuations as the walk (`movegen::walk`) tries.
            let base = part.base_for(first);
            let (candidates, straight) =
                crate::geometry::continuation_candidates(base, self.game.dimensions);
            for c in candidates {
                if !crate::geometry::continuation_selects(&legs[1].directions, first, c, straight)
                    || c == [-first[0], -first[1], -first[2]]
                {
                    continue; // (a step back to the start cell is a null move: no attack)
                }
                let kind = ProbeKind::Lame {
                    first,
                    first_lame: first_modes.contains(&b'n'),
                    first_jump: first_modes.contains(&b'j'),
                    lame: last_modes.contains(&b'n'),
                    jump: last_modes.contains(&b'j'),
                };
                if probes.iter().any(|p| {
                    p.forward == c
                        && matches!(p.kind, ProbeKind::Lame { first: f, .. } if f == first)
                }) {
                    continue;
                }
                probes.push(Probe {
                    piece,
                    pieces: 1 << piece,
                    forward: c,
                    back: [-c[0], -c[1], -c[2]],
                    kind,
                    initial: part.part.initial,
                    from_zone: prepared.from_zone,
                    confined,
                });
            }
        }
        Some(probes)
    }

    /// Compares attack detection with move generation on `pos`: for every player and cell, whether
    /// the player attacks the cell must be what generating the attacks of all his pieces says
    /// (cells of his own pieces aside).
    /// Returns the first disagreement, for tests.
    ///
    /// # Errors
    ///
    /// Names the player and cell where the two differ.
    pub fn check_attacks(&self, pos: &Position) -> Result<(), String> {
        let mut moves = Vec::new();
        for by in 0..self.game.players.len() {
            let mut generated = vec![false; pos.cells.len()];
            for (from, &occ) in pos.cells.iter().enumerate() {
                if occ.is_empty() || occ.owner() != by {
                    continue;
                }
                moves.clear();
                self.piece_moves(pos, from, occ, by, true, &mut moves);
                for m in &moves {
                    // A capture on the way attacks its cell (a capture and return ends on its start).
                    if m.aux != super::position::Move::NONE {
                        generated[m.aux as usize] = true;
                    }
                    if m.to != m.from {
                        generated[m.to as usize] = true;
                    }
                }
            }
            // Cells of the player's own pieces are left out: generation never lands on them.
            for (cell, &want) in generated.iter().enumerate() {
                let own = !pos.cells[cell].is_empty() && pos.cells[cell].owner() == by;
                if !own && self.cell_attacked(pos, cell, by) != want {
                    return Err(format!(
                        "player {} attacks {}: generation says {want}, detection says {}",
                        self.game.players[by].name, self.game.cells[cell].name, !want
                    ));
                }
            }
        }
        Ok(())
    }

    /// Tells whether a piece of `by` attacks `cell`.
    pub(super) fn cell_attacked(&self, pos: &Position, cell: CellId, by: usize) -> bool {
        self.cell_attacked_reading(pos, cell, by, &mut |_| {})
    }

    /// Like [`Interpreter::cell_attacked`], telling `read` every cell the answer depends on (when
    /// the player's plan needs no forward generation, see `AttackPlan::forward_types`): the answer
    /// stays the same while none of those cells changes.
    #[inline]
    pub(super) fn cell_attacked_reading(
        &self,
        pos: &Position,
        cell: CellId,
        by: usize,
        read: &mut impl FnMut(CellId),
    ) -> bool {
        let Some(plan) = self.attack_plans.get(by) else {
            return false;
        };
        for probe in &plan.probes {
            if probe.confined.is_some_and(|z| !self.in_zone(z, by, cell)) {
                continue;
            }
            let attacker = |c: CellId| {
                let occ = pos.cells[c];
                !occ.is_empty()
                    && occ.owner() == by
                    && probe.pieces & (1 << occ.piece()) != 0
                    && (!probe.initial || occ.is_virgin())
                    && probe.from_zone.is_none_or(|z| self.in_zone(z, by, c))
            };
            let found = match probe.kind {
                ProbeKind::Leap { lame, jump } => match self.step(cell, probe.back) {
                    Some(from) => {
                        read(from);
                        attacker(from)
                            && self.path_ok_reading(pos, from, probe.forward, lame, jump, read)
                    }
                    None => false,
                },
                ProbeKind::Lame {
                    first,
                    first_lame,
                    first_jump,
                    lame,
                    jump,
                } => {
                    let back = [-first[0], -first[1], -first[2]];
                    match self
                        .step(cell, probe.back)
                        .and_then(|mid| Some((mid, self.step(mid, back)?)))
                    {
                        Some((mid, from)) => {
                            read(from);
                            attacker(from) && {
                                read(mid);
                                pos.cells[mid].is_empty()
                                    && self.path_ok_reading(
                                        pos, from, first, first_lame, first_jump, read,
                                    )
                                    && self.path_ok_reading(
                                        pos,
                                        mid,
                                        probe.forward,
                                        lame,
                                        jump,
                                        read,
                                    )
                            }
                        }
                        None => false,
                    }
                }
                ProbeKind::Ride(max) => {
                    self.rider_attacks(pos, cell, probe.back, max, &attacker, read)
                }
                ProbeKind::Bent { first } => {
                    // Back along the slide: every empty cell on the way may be where the piece
                    // turned, coming from one first-leg step before it.
                    let back = [-first[0], -first[1], -first[2]];
                    let mut found = false;
                    let mut current = cell;
                    while let Some(turn) = self.step(current, probe.back) {
                        read(turn);
                        if !pos.cells[turn].is_empty() {
                            break;
                        }
                        if let Some(from) = self.step(turn, back) {
                            read(from);
                            if attacker(from) {
                                found = true;
                                break;
                            }
                        }
                        current = turn;
                    }
                    found
                }
                ProbeKind::Hop => {
                    self.hopper_attacks(pos, cell, probe.back, false, probe.piece, &attacker, read)
                }
                ProbeKind::Grasshop => {
                    self.hopper_attacks(pos, cell, probe.back, true, probe.piece, &attacker, read)
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
            if scratch
                .iter()
                .any(|m| m.to as usize == cell || m.aux as usize == cell)
            {
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
        read: &mut impl FnMut(CellId),
    ) -> bool {
        let mut current = cell;
        let mut steps = 0;
        while steps < max_steps {
            steps += 1;
            let Some(next) = self.step(current, back) else {
                return false;
            };
            read(next);
            if !pos.cells[next].is_empty() {
                return attacker(next);
            }
            current = next;
        }
        false
    }

    /// Cannon (`p`) and grasshopper (`g`) attacks, seen from the target: a screen, then the attacker.
    #[allow(clippy::too_many_arguments)]
    fn hopper_attacks(
        &self,
        pos: &Position,
        cell: CellId,
        back: Vec3,
        grasshopper: bool,
        piece: usize,
        attacker: &dyn Fn(CellId) -> bool,
        read: &mut impl FnMut(CellId),
    ) -> bool {
        let mut current = cell;
        // Find the screen: right behind the target for a grasshopper, the first piece for a cannon.
        let screen = loop {
            let Some(next) = self.step(current, back) else {
                return false;
            };
            read(next);
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
            read(next);
            if !pos.cells[next].is_empty() {
                return attacker(next);
            }
            current = next;
        }
    }
}

/// Merges probes that look along the same vector in the same way for different piece types (a rook's
/// and a queen's slide), keeping the first one's place. Hops stay apart: their screens depend on the
/// piece type (`cannot_hop`).
fn merge_probes(probes: Vec<Probe>) -> Vec<Probe> {
    let mut merged: Vec<Probe> = Vec::with_capacity(probes.len());
    for probe in probes {
        let hop = matches!(probe.kind, ProbeKind::Hop | ProbeKind::Grasshop);
        let same = merged.iter_mut().find(|m| {
            !hop && m.back == probe.back
                && m.forward == probe.forward
                && m.kind == probe.kind
                && m.initial == probe.initial
                && m.from_zone == probe.from_zone
                && m.confined == probe.confined
        });
        match same {
            Some(m) => m.pieces |= probe.pieces,
            None => merged.push(probe),
        }
    }
    merged
}

/// How far a move part can reach along any axis: the sum over its legs of the atom's largest step (a
/// 45° turn of a compass step keeps its length), or `i32::MAX` if a leg may slide or wrap around, or the
/// part has no plain geometry (castling, the universal leaper, several boards).
fn part_reach(part: &crate::model::MovePart, game: &crate::model::Game) -> i32 {
    if part.vectors.is_empty() || game.boards.len() > 1 {
        return i32::MAX;
    }
    // Riders, leaps that turn into riders, cylinders and moves borrowed from another piece (`x`).
    let unbounded = part.path != crate::model::RiderPath::Straight
        || part.legs.iter().any(|l| {
            l.modes.contains('y')
                || l.modes.contains('g')
                || l.modes.contains('o')
                || l.modes.contains('x')
        });
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
