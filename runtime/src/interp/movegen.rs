//! Move generation: Betza legs walked on the position, promotions, drops, castling, and the legality
//! filter (a move may not leave one's royal piece attacked).

use crate::geometry::{bent_step, continuation_candidates, continuation_selects_after, side_after};
use crate::model::{CellId, Vec3};

use super::position::{Move, MoveKind, Occupant, Position};
use super::tables::{Interpreter, PreparedPart};

/// What the legality shortcut knows about a position.
enum Shortcut {
    /// The cells whose piece may be pinned to a royal piece (every other ordinary move of a non-royal
    /// piece is legal).
    Pins(Vec<CellId>),
    /// The cells (one bit each) the royal-safety test reads, royal and facing pieces' cells included:
    /// an ordinary move that changes none of them leaves the answer as it was (safe).
    Reads([u64; READ_WORDS]),
}

/// Words of the read set: boards of more cells do without [`Shortcut::Reads`].
const READ_WORDS: usize = 8;

/// What a walk is generating for.
struct Walk<'a> {
    origin: CellId,
    /// The player whose frame the move uses: its owner, or the player moving it (`perspective player`).
    mover: usize,
    owner: usize,
    piece: usize,
    part: &'a PreparedPart,
    base: Vec3,
    within: Option<usize>,
    /// Attack mode: captures onto empty cells count, capture restrictions are ignored.
    attacks: bool,
    /// A condition about the move itself (it names the `hurdle`), checked for each move.
    per_move: Option<&'a crate::model::Cond>,
    /// The cell the move hops over, while walking past it.
    hurdle: std::cell::Cell<u16>,
    /// The start cell of a later leg with `u`, while walking it: the piece that leg captures
    /// reappears there.
    unload: std::cell::Cell<u16>,
}

thread_local! {
    /// Move lists to reuse, so that generating moves does not allocate at every node.
    static SCRATCH: std::cell::RefCell<Vec<Vec<Move>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with an empty move list borrowed from a per-thread pool (calls may nest).
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Vec<Move>) -> R) -> R {
    let mut list = SCRATCH
        .with(|pool| pool.borrow_mut().pop())
        .unwrap_or_default();
    list.clear();
    let result = f(&mut list);
    SCRATCH.with(|pool| pool.borrow_mut().push(list));
    result
}

impl Interpreter {
    /// Appends the legal moves of the side to move.
    pub(super) fn generate_legal(&self, pos: &mut Position, out: &mut Vec<Move>) {
        with_scratch(|pseudo| self.generate_legal_from(pos, pseudo, out));
    }

    /// Counts the legal moves of the side to move.
    pub(super) fn count_legal(&self, pos: &mut Position) -> usize {
        with_scratch(|out| {
            self.generate_legal(pos, out);
            out.len()
        })
    }

    /// [`Interpreter::generate_legal`] with a list for the pseudo-legal moves.
    fn generate_legal_from(&self, pos: &mut Position, pseudo: &mut Vec<Move>, out: &mut Vec<Move>) {
        let before = out.len();
        self.legal_from_pseudo(pos, pseudo, out);
        if self.pass_when_stuck && out.len() == before {
            // `pass when_stuck`: a player with no legal move passes.
            let cell = self.royal_cell(pos, pos.side).unwrap_or(0);
            out.push(Move {
                kind: MoveKind::Pass,
                ..Move::normal(cell, cell)
            });
        }
    }

    /// The legal moves among the pseudo-legal ones (no pass for a player who is stuck). When a stop
    /// is requested meanwhile ([`crate::interrupt`]), it ends early with the legal moves found so far,
    /// at least one if there is any.
    fn legal_from_pseudo(&self, pos: &mut Position, pseudo: &mut Vec<Move>, out: &mut Vec<Move>) {
        let generation = crate::interrupt::Generation::begin(!self.must_capture);
        generation.arm(true);
        self.generate_pseudo(pos, pseudo);
        generation.arm(false);
        if self.must_capture {
            let captures: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|m| self.is_capture(pos, *m))
                .collect();
            let legal_captures: Vec<Move> = captures
                .into_iter()
                .filter(|m| self.is_legal(pos, *m))
                .collect();
            if !legal_captures.is_empty() {
                out.extend(legal_captures);
                return;
            }
        }
        // Whether the walks may have been cut short.
        let cut = generation.stopped();
        let before = out.len();
        self.filter_legal(pos, pseudo, out, &generation);
        if cut && out.len() == before {
            // None of the moves found before the stop is legal: find them all.
            pseudo.clear();
            self.generate_pseudo(pos, pseudo);
            self.filter_legal(pos, pseudo, out, &generation);
        }
    }

    /// Appends the legal moves of `pseudo`, or once `generation` is stopped, those found so far if
    /// there is one.
    fn filter_legal(
        &self,
        pos: &mut Position,
        pseudo: &[Move],
        out: &mut Vec<Move>,
        generation: &crate::interrupt::Generation,
    ) {
        let before = out.len();
        let shortcut = self.legality_shortcut(pos);
        let start = out.len();
        for &mv in pseudo {
            if out.len() > before && generation.stopped() {
                return;
            }
            let safe = !mv.peaceful
                && shortcut
                    .as_ref()
                    .is_some_and(|shortcut| self.cannot_expose(pos, mv, shortcut));
            if safe || self.is_legal(pos, mv) {
                out.push(mv);
            }
        }
        if let Some(condition) = &self.must_drop {
            // `must_drop`: a player who has a legal drop must drop.
            let drops = out[start..].iter().any(|m| m.kind == MoveKind::Drop);
            if drops
                && self.condition_holds(pos, &super::conditions::Scope::player(pos.side), condition)
            {
                let mut keep = start;
                for i in start..out.len() {
                    if out[i].kind == MoveKind::Drop {
                        out[keep] = out[i];
                        keep += 1;
                    }
                }
                out.truncate(keep);
            }
        }
    }

    /// When the side to move is not in check and every enemy attack is a plain leap or slide, a move
    /// by a non-royal piece can only expose a royal piece by leaving a line an enemy slider could use:
    /// returns the cells whose piece could be pinned, for [`Interpreter::cannot_expose`], or `None`
    /// when every move must be tested by playing it.
    fn legality_shortcut(&self, pos: &Position) -> Option<Shortcut> {
        let side = pos.side;
        // Taking the previous wall away may open a line: every move is tested.
        if !self.royal_check || self.walls.is_some() || self.royal_all {
            return None;
        }
        if !self.plain_attackers.get(side).copied().unwrap_or(false) {
            return if self.read_shortcut.get(side).copied().unwrap_or(false) {
                self.read_set(pos)
            } else {
                None
            };
        }
        if self.royal_attacked(pos, side) {
            return None;
        }
        // From each royal piece along each line an enemy slider could use: the first piece, when the
        // next piece beyond it (within the slider's range) is not the mover's own, may be pinned.
        let mut pinnable = Vec::new();
        for (royal, occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != side || !self.pieces[occ.piece()].royal {
                continue;
            }
            for &(v, range) in &self.slider_lines[side] {
                let mut cell = royal;
                let mut first = None;
                for _ in 0..range {
                    let Some(next) = self.step(cell, v) else {
                        break;
                    };
                    cell = next;
                    let here = pos.cells[cell];
                    if here.is_empty() {
                        continue;
                    }
                    match first {
                        None => first = Some(cell),
                        Some(candidate) => {
                            if here.owner() != side {
                                pinnable.push(candidate);
                            }
                            break;
                        }
                    }
                }
            }
        }
        Some(Shortcut::Pins(pinnable))
    }

    /// The cells the royal-safety test of the side to move reads (see [`Shortcut::Reads`]), when it
    /// is not in check and no royal pieces face each other; `None` otherwise.
    fn read_set(&self, pos: &Position) -> Option<Shortcut> {
        let side = pos.side;
        if pos.cells.len() > READ_WORDS * 64 {
            return None;
        }
        let mut bits = [0u64; READ_WORDS];
        let mut mark = |c: CellId| bits[c / 64] |= 1 << (c % 64);
        for (cell, occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != side || !self.pieces[occ.piece()].royal {
                continue;
            }
            mark(cell);
            for o in self.opponents(side) {
                if self.cell_attacked_reading(pos, cell, o, &mut mark) {
                    return None;
                }
            }
        }
        if self.facing {
            // As `royals_facing`: from each facing piece up its file.
            for (cell, occ) in pos.cells.iter().enumerate() {
                if occ.is_empty() || !self.pieces[occ.piece()].facing_illegal {
                    continue;
                }
                mark(cell);
                let mut current = cell;
                while let Some(next) = self.step(current, [0, 1, 0]) {
                    mark(next);
                    let other = pos.cells[next];
                    if !other.is_empty() {
                        if self.pieces[other.piece()].facing_illegal && other.owner() != occ.owner()
                        {
                            return None;
                        }
                        break;
                    }
                    current = next;
                }
            }
        }
        Some(Shortcut::Reads(bits))
    }

    /// Whether a move surely leaves the mover's royal pieces unattacked (see `legality_shortcut`):
    /// an ordinary move of a non-royal piece that could not be pinned, or that changes no cell the
    /// safety test reads.
    fn cannot_expose(&self, pos: &Position, mv: Move, shortcut: &Shortcut) -> bool {
        if mv.kind != MoveKind::Normal
            || mv.aux != Move::NONE
            || mv.aux2 != Move::NONE
            || mv.gate != 0
        {
            return false;
        }
        let from = mv.from as usize;
        match shortcut {
            Shortcut::Pins(pinnable) => {
                let moving = pos.cells[from];
                !moving.is_empty()
                    && !self.pieces[moving.piece()].royal
                    && (mv.piece == 0 || !self.pieces[mv.piece as usize - 1].royal)
                    && !pinnable.contains(&from)
            }
            Shortcut::Reads(bits) => {
                let to = mv.to as usize;
                let read = |c: usize| bits[c / 64] & (1 << (c % 64)) != 0;
                !mv.stack
                    && (mv.piece == 0 || !self.pieces[mv.piece as usize - 1].royal)
                    && !read(from)
                    && !read(to)
            }
        }
    }

    /// Whether the side to move has a legal move, stopping at the first.
    pub(super) fn any_legal(&self, pos: &mut Position) -> bool {
        with_scratch(|pseudo| {
            self.generate_pseudo(pos, pseudo);
            let shortcut = self.legality_shortcut(pos);
            pseudo.iter().any(|&mv| {
                (!mv.peaceful
                    && shortcut
                        .as_ref()
                        .is_some_and(|shortcut| self.cannot_expose(pos, mv, shortcut)))
                    || self.is_legal(pos, mv)
            })
        })
    }

    /// Appends the legal capturing moves.
    pub(super) fn generate_legal_captures(&self, pos: &mut Position, out: &mut Vec<Move>) {
        let mut pseudo = Vec::new();
        self.generate_pseudo(pos, &mut pseudo);
        if self.must_drop.is_some() {
            // A player who must drop has no capture when he has a legal drop.
            let mut legal = Vec::new();
            self.legal_from_pseudo(pos, &mut pseudo, &mut legal);
            out.extend(legal.into_iter().filter(|m| self.is_capture(pos, *m)));
            return;
        }
        pseudo.retain(|m| self.is_capture(pos, *m));
        let shortcut = self.legality_shortcut(pos);
        for mv in pseudo {
            if shortcut
                .as_ref()
                .is_some_and(|shortcut| self.cannot_expose(pos, mv, shortcut))
                || self.is_legal(pos, mv)
            {
                out.push(mv);
            }
        }
    }

    /// Tells whether a move captures something.
    pub(super) fn is_capture(&self, pos: &Position, mv: Move) -> bool {
        mv.kind == MoveKind::Normal
            && !mv.stack
            && !mv.merge
            && ((mv.to != mv.from && !pos.cells[mv.to as usize].is_empty()) || mv.aux != Move::NONE)
    }

    /// Appends pseudo-legal moves: every move the pieces, hand and castling rules allow, before the
    /// royal-safety filter.
    pub(super) fn generate_pseudo(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        let start = out.len();
        for (cell, &occ) in pos.cells.iter().enumerate() {
            // A frozen piece (`freeze after`) has no moves until the end of the turn.
            if !occ.is_empty() && !occ.is_frozen() && self.may_move_piece(pos, cell, occ, side) {
                if crate::interrupt::interrupted() {
                    break;
                }
                self.piece_moves(pos, cell, occ, side, false, out);
            }
        }
        if self.induction {
            // A friend induced to move (`mNxaN`) may repeat its own move or another inducer's.
            drop_repeats(out, start);
        }
        if !self.stack_moves.is_empty() {
            self.stacking(pos, out);
        }
        if !self.merge_moves.is_empty() {
            self.mergers(pos, out);
        }
        if !self.promotion_moves.is_empty() {
            self.promotions_as_moves(pos, out);
        }
        if self.hand_drops {
            self.drops(pos, out);
        }
        if !self.transfers.is_empty() {
            self.transfer_moves(pos, out);
        }
        if !self.pick_ups.is_empty() {
            self.pick_up_moves(pos, out);
        }
        for index in 0..self.castles.len() {
            self.castling(pos, index, out);
        }
        if let Some(zone) = self.gating {
            self.add_gatings(pos, zone, out);
        }
        if self.pass_allowed {
            // Written as the royal piece's cell twice; a game without one writes the first cell.
            let cell = self.royal_cell(pos, side).unwrap_or(0);
            out.push(Move {
                kind: MoveKind::Pass,
                ..Move::normal(cell, cell)
            });
        }
        if self.walls.is_some() {
            self.add_walls(pos, out, start);
        }
    }

    /// Calls `visit(rule, from, to)` for every one-step target of the side to move's pieces under
    /// per-piece, per-player rules (stacking, mergers) whose condition holds.
    fn one_step_targets<R: super::tables::StepRule>(
        &self,
        pos: &Position,
        rules_of: &[Vec<Vec<R>>],
        mut visit: impl FnMut(&R, CellId, CellId),
    ) {
        let side = pos.side;
        for (cell, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != side || occ.is_frozen() {
                continue;
            }
            let Some(rules) = rules_of
                .get(occ.piece())
                .and_then(|per_player| per_player.get(side))
            else {
                continue;
            };
            for rule in rules {
                if let Some(condition) = rule.condition() {
                    let scope = super::conditions::Scope::piece(side, cell);
                    if !self.condition_holds(pos, &scope, condition) {
                        continue;
                    }
                }
                for &v in rule.first() {
                    if let Some(to) = self.step(cell, v) {
                        visit(rule, cell, to);
                    }
                }
            }
        }
    }

    /// Stacking moves: a piece climbs onto an unstacked piece of a listed type (either owner).
    fn stacking(&self, pos: &Position, out: &mut Vec<Move>) {
        self.one_step_targets(pos, &self.stack_moves, |rule, from, to| {
            let target = pos.cells[to];
            let stacked = pos.stacks.iter().any(|&(c, _)| c == to);
            if !target.is_empty() && !stacked && rule.onto.contains(&target.piece()) {
                out.push(Move {
                    stack: true,
                    ..Move::normal(from, to)
                });
            }
        });
    }

    /// Merger moves: one step onto a friendly piece of a listed type, with the target in the zone; both
    /// become one piece of the `into` type. Generated here for interpreted and compiled engines alike
    /// (the compiled hook replaces only a piece's ordinary moves).
    fn mergers(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        self.one_step_targets(pos, &self.merge_moves, |rule, from, to| {
            let target = pos.cells[to];
            if target.is_empty()
                || target.owner() != side
                || !rule.onto.contains(&target.piece())
                || rule.zone.is_some_and(|z| !self.in_zone(z, side, to))
                || pos.stacks.iter().any(|&(c, _)| c == to || c == from)
            {
                return;
            }
            out.push(Move {
                merge: true,
                piece: rule.into as u8 + 1,
                ..Move::normal(from, to)
            });
        });
    }

    /// Promotions that are moves of their own (`promote_move`): the piece becomes one of the types
    /// on its cell, or with one step onto an empty cell; never a capture. A choice at its
    /// `count_limit` is not offered.
    fn promotions_as_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        let mut add = |rule: &super::tables::PromotionStep, from: CellId, to: CellId| {
            for &choice in &rule.choices {
                if self.below_limit(pos, choice, side) {
                    out.push(Move {
                        piece: choice as u8 + 1,
                        peaceful: rule.peaceful,
                        ..Move::normal(from, to)
                    });
                }
            }
        };
        for (cell, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != side || occ.is_frozen() {
                continue;
            }
            let Some(rules) = self
                .promotion_moves
                .get(occ.piece())
                .and_then(|per_player| per_player.get(side))
            else {
                continue;
            };
            for rule in rules.iter().filter(|r| r.in_place) {
                let holds = rule.condition.as_ref().is_none_or(|c| {
                    self.condition_holds(pos, &super::conditions::Scope::piece(side, cell), c)
                });
                if holds {
                    add(rule, cell, cell);
                }
            }
        }
        self.one_step_targets(pos, &self.promotion_moves, |rule, from, to| {
            if pos.cells[to].is_empty() {
                add(rule, from, to);
            }
        });
    }

    /// The piece an en-passant capture landing on `cell` takes: one a right names for that cell, of
    /// another owner (or any, under `captures any`).
    #[inline]
    fn en_passant_victim(&self, pos: &Position, w: &Walk, cell: CellId) -> Option<u16> {
        let &(_, victim) = pos.en_passant.iter().find(|(target, _)| *target == cell)?;
        let occ = pos.cells[victim];
        (!occ.is_empty()
            && (occ.owner() != w.owner || self.control.captures_any)
            && self.capturable_owner(occ.owner()))
        .then_some(victim as u16)
    }

    /// Whether a capture may take a piece of this owner at all: under `captures enemy` (the default)
    /// a neutral side's pieces are nobody's enemies; `captures any` lets captures take them too.
    #[inline]
    fn capturable_owner(&self, owner: usize) -> bool {
        owner < self.players || self.control.captures_any
    }

    /// The cell of one of `player`'s royal pieces (where a pass is written).
    fn royal_cell(&self, pos: &Position, player: usize) -> Option<CellId> {
        (0..pos.cells.len()).find(|&c| pos.cells[c].owner() == player && self.is_royal_at(pos, c))
    }

    /// Gating: a piece leaving its original cell in the gating zone may bring a piece from the hand onto
    /// the cell it vacates (for castling: the king's or the partner's cell).
    fn add_gatings(&self, pos: &Position, zone: usize, out: &mut Vec<Move>) {
        let side = pos.side;
        let Some(hand) = pos.hands.get(side) else {
            return;
        };
        let available: Vec<usize> = hand
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(p, _)| p)
            .collect();
        if available.is_empty() {
            return;
        }
        let count = out.len();
        for i in 0..count {
            let mv = out[i];
            let cells: Vec<u16> = match mv.kind {
                MoveKind::Normal => vec![mv.from],
                MoveKind::Castle => vec![mv.from, mv.aux],
                _ => continue,
            };
            for cell in cells {
                let occ = pos.cells[cell as usize];
                // A cell the move vacates (castling may land on the other's cell), its piece unmoved.
                let refilled = cell == mv.to || (mv.kind == MoveKind::Castle && cell == mv.aux2);
                if refilled || !occ.is_virgin() || !self.in_zone(zone, side, cell as usize) {
                    continue;
                }
                // A piece is gated only where it could be dropped (its `drop_zone`).
                for &piece in available.iter().filter(|&&piece| {
                    self.pieces[piece]
                        .drop_zone
                        .is_none_or(|z| self.in_zone(z, side, cell as usize))
                }) {
                    out.push(Move {
                        gate: piece as u8 + 1,
                        gate_cell: cell,
                        ..mv
                    });
                }
            }
        }
    }

    /// Generates the moves (or, with `attacks`, the attacked cells as moves) of the piece on `cell`.
    pub(super) fn piece_moves(
        &self,
        pos: &Position,
        cell: CellId,
        occ: Occupant,
        mover: usize,
        attacks: bool,
        out: &mut Vec<Move>,
    ) {
        let piece = occ.piece();
        let owner = occ.owner();
        // The player whose forward, zones and promotions the move uses (`perspective player`).
        let frame = self.frame_of(occ, mover);
        let frame_index = frame.min(self.moves[piece].len() - 1);
        // Pieces whose parts or paths can reach one result twice drop the repeats (one move per
        // distinct result); attacks need no such care.
        let start = out.len();
        let unique = !attacks && self.overlaps[piece][frame_index];
        if let Some(hook) = self.generator.as_ref().filter(|_| frame == owner) {
            let mut raw = Vec::new();
            if hook.0.piece_moves(pos, cell, occ, attacks, &mut raw) {
                for mv in raw {
                    let to = mv.to as usize;
                    if self.pieces[piece]
                        .confined
                        .is_some_and(|z| !self.in_zone(z, owner, to))
                    {
                        continue;
                    }
                    if attacks {
                        out.push(mv);
                    } else {
                        self.with_promotions(pos, piece, owner, cell, to, mv, out);
                    }
                }
                if unique {
                    drop_repeats(out, start);
                }
                return;
            }
        }
        self.interpreted_piece_moves(pos, cell, occ, frame, frame_index, attacks, out);
        if unique {
            drop_repeats(out, start);
        }
    }

    /// The interpreter's own generation of [`Interpreter::piece_moves`] (repeats included).
    #[allow(clippy::too_many_arguments)]
    fn interpreted_piece_moves(
        &self,
        pos: &Position,
        cell: CellId,
        occ: Occupant,
        frame: usize,
        frame_index: usize,
        attacks: bool,
        out: &mut Vec<Move>,
    ) {
        let sets = &self.moves[occ.piece()][frame_index];
        self.walk_move_sets(pos, cell, occ, frame, sets, attacks, false, out);
    }

    /// Move borrowing (`KxK`): the piece of walk `w` makes, from its own cell, the moves of the
    /// `lender` type (in its own frame, under its own piece rules), their parts with `x` left out.
    fn borrow(&self, pos: &Position, w: &Walk, lender: usize, out: &mut Vec<Move>) {
        let occ = pos.cells[w.origin];
        let Some(per_frame) = self.moves.get(lender) else {
            return;
        };
        let Some(sets) = per_frame.get(w.mover.min(per_frame.len().saturating_sub(1))) else {
            return;
        };
        self.walk_move_sets(pos, w.origin, occ, w.mover, sets, w.attacks, true, out);
    }

    /// The moves of `sets` for the piece `occ` on `cell`, in `frame`'s frame (the prepared reach of a
    /// wall too, [`Interpreter::add_walls`]).
    pub(super) fn walk_sets(
        &self,
        pos: &Position,
        cell: CellId,
        occ: Occupant,
        frame: usize,
        sets: &[super::tables::PreparedMoves],
        out: &mut Vec<Move>,
    ) {
        self.walk_move_sets(pos, cell, occ, frame, sets, false, false, out);
    }

    /// The moves of `sets` for the piece `occ` on `cell`; `borrowed`: sets of another type that the
    /// piece borrows (their parts with `x` are left out, so borrowing never chains).
    #[allow(clippy::too_many_arguments)]
    fn walk_move_sets(
        &self,
        pos: &Position,
        cell: CellId,
        occ: Occupant,
        frame: usize,
        sets: &[super::tables::PreparedMoves],
        attacks: bool,
        borrowed: bool,
        out: &mut Vec<Move>,
    ) {
        let piece = occ.piece();
        let owner = occ.owner();
        let board = self.game.cells[cell].board;
        let scope = super::conditions::Scope::piece(owner, cell);
        // `moves_only_on`: on its board, while its condition holds, its moves replace all others.
        let only = sets.iter().any(|s| {
            s.exclusive
                && s.boards.contains(&board)
                && s.condition
                    .as_ref()
                    .is_none_or(|c| self.condition_holds(pos, &scope, c))
        });
        for prepared in sets {
            if !prepared.boards.is_empty() && !prepared.boards.contains(&board) {
                continue;
            }
            if only && !prepared.exclusive {
                continue;
            }
            if let Some(zone) = prepared.from_zone {
                if !self.in_zone(zone, frame, cell) {
                    continue;
                }
            }
            if let Some(zone) = prepared.within {
                if !self.in_zone(zone, frame, cell) {
                    continue;
                }
            }
            let per_move = prepared
                .condition
                .as_ref()
                .filter(|c| c.mentions(crate::model::PieceRef::Hurdle));
            if let Some(condition) = prepared.condition.as_ref().filter(|_| per_move.is_none()) {
                let scope = super::conditions::Scope::piece(owner, cell);
                if !self.condition_holds(pos, &scope, condition) {
                    continue;
                }
            }
            for part in &prepared.parts {
                if part.part.initial && !occ.is_virgin() {
                    continue;
                }
                if borrowed && part.part.hand_on != crate::model::HandOn::None {
                    continue;
                }
                if part.part.atom == crate::geometry::UNIVERSAL_ATOM {
                    let walk = Walk {
                        origin: cell,
                        mover: frame,
                        owner,
                        piece,
                        part,
                        base: [0, 0, 0],
                        within: prepared.within,
                        attacks,
                        per_move,
                        hurdle: std::cell::Cell::new(Move::NONE),
                        unload: std::cell::Cell::new(Move::NONE),
                    };
                    self.universal(pos, &walk, out);
                    continue;
                }
                if part.part.vectors.is_empty() {
                    continue; // castling `O` is generated by castle rules
                }
                if part.part.path != crate::model::RiderPath::Straight {
                    for &first in &part.first {
                        let walk = Walk {
                            origin: cell,
                            mover: frame,
                            owner,
                            piece,
                            part,
                            base: part.base_for(first),
                            within: prepared.within,
                            attacks,
                            per_move,
                            hurdle: std::cell::Cell::new(Move::NONE),
                            unload: std::cell::Cell::new(Move::NONE),
                        };
                        self.bent_ride(pos, &walk, first, out);
                    }
                    continue;
                }
                if let Some(simple) = part.simple.filter(|_| prepared.within.is_none()) {
                    let walk = Walk {
                        origin: cell,
                        mover: frame,
                        owner,
                        piece,
                        part,
                        base: part.part.vectors[0],
                        within: None,
                        attacks,
                        per_move,
                        hurdle: std::cell::Cell::new(Move::NONE),
                        unload: std::cell::Cell::new(Move::NONE),
                    };
                    self.walk_simple(pos, &walk, simple, out);
                    continue;
                }
                for &first in &part.first {
                    let base = part.base_for(first);
                    let walk = Walk {
                        origin: cell,
                        mover: frame,
                        owner,
                        piece,
                        part,
                        base,
                        within: prepared.within,
                        attacks,
                        per_move,
                        hurdle: std::cell::Cell::new(Move::NONE),
                        unload: std::cell::Cell::new(Move::NONE),
                    };
                    self.walk(
                        pos,
                        &walk,
                        0,
                        cell,
                        first,
                        part.part.range != 1,
                        Move::NONE,
                        0,
                        out,
                    );
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        pos: &Position,
        w: &Walk,
        leg: usize,
        at: CellId,
        step: Vec3,
        rider: bool,
        locust: u16,
        last_side: i8,
        out: &mut Vec<Move>,
    ) {
        // A generation cut short by a stop ([`crate::interrupt`]), between the paths of a multi-leg
        // move (the pieces are checked in turn by `generate_pseudo`); attack tests are never cut.
        if leg > 0 && !w.attacks && crate::interrupt::interrupted() {
            return;
        }
        let legs = &w.part.part.legs;
        let modes = legs[leg].modes.as_bytes();
        let has = |c: u8| modes.contains(&c);
        let last = leg + 1 == legs.len();
        let max_steps = if rider {
            match w.part.part.range {
                0 | 1 => usize::MAX,
                n => n as usize,
            }
        } else {
            1
        };
        let inside = |cell: CellId| w.within.is_none_or(|z| self.in_zone(z, w.mover, cell));
        // `u` on a later leg: the piece this leg captures reappears where the leg starts.
        let outer_unload = w.unload.get();
        if leg > 0 && has(b'u') {
            w.unload.set(at as u16);
        }
        if last && (has(b'p') || has(b'g')) {
            self.hop(pos, w, at, step, max_steps, has(b'g'), locust, out);
            w.unload.set(outer_unload);
            return;
        }
        let mut current = at;
        let mut steps = 0;
        while steps < max_steps {
            steps += 1;
            let next = if last && has(b'o') {
                self.step_cylinder(current, step)
            } else {
                self.step(current, step)
            };
            let Some(next) = next else { break };
            if !inside(next) || (has(b'o') && next == w.origin) {
                break;
            }
            if steps == 1
                && !rider
                && (has(b'n') || has(b'j'))
                && !self.path_ok_vacated(pos, current, step, has(b'n'), has(b'j'), w.origin)
            {
                break;
            }
            // The moving piece has left its start cell: a later leg may pass it or end there (a
            // capture and return, `cabW`; an out-and-back null move, `mabW`).
            let occ = if next == w.origin {
                Occupant::EMPTY
            } else {
                pos.cells[next]
            };
            if last && has(b'x') {
                // Move borrowing: the leg ends on a friendly piece, whose type's moves the piece
                // makes from its own cell.
                if occ.is_empty() {
                    current = next;
                    continue;
                }
                if occ.owner() == w.owner {
                    self.borrow(pos, w, occ.piece(), out);
                }
                break;
            }
            if last {
                if occ.is_empty() {
                    let reaches = if w.attacks {
                        self.may_capture(modes)
                    } else {
                        self.may_move(modes)
                    };
                    if reaches {
                        self.emit(pos, w, next, locust, out);
                    }
                    if has(b'e') && !w.attacks {
                        if let Some(victim) = self.en_passant_victim(pos, w, next) {
                            self.emit(pos, w, next, victim, out);
                        }
                    }
                } else {
                    if self.can_take(w, occ, modes) {
                        self.emit(pos, w, next, locust, out);
                    }
                    break;
                }
            } else {
                let toggles = has(b'y') || has(b'g');
                // A leg may end on several kinds of cell: empty (`m`, `y`, or no mode letter), any
                // piece to hop (`p`, `g`), an enemy to capture (`c`), a friend to destroy (`d`).
                let hops = has(b'p') || has(b'g');
                // Induction (`x`): the leg ends on a friendly piece, which makes the remaining legs.
                let induces = has(b'x');
                let empty_ok = has(b'm')
                    || has(b'y')
                    || !modes
                        .iter()
                        .any(|c| matches!(c, b'p' | b'g' | b'c' | b'd' | b'x'));
                let proceeds = if occ.is_empty() {
                    empty_ok
                } else {
                    hops || (has(b'c')
                        && occ.owner() != w.owner
                        && self.capturable_owner(occ.owner()))
                        || (has(b'd') && occ.owner() == w.owner)
                        || (induces && occ.owner() == w.owner && !occ.is_frozen())
                };
                // The induced friend moves from its cell under its own piece rules.
                let induced;
                let w = if induces && !occ.is_empty() {
                    induced = Walk {
                        origin: next,
                        piece: occ.piece(),
                        hurdle: std::cell::Cell::new(Move::NONE),
                        unload: std::cell::Cell::new(Move::NONE),
                        ..*w
                    };
                    &induced
                } else {
                    w
                };
                if proceeds {
                    let captured = if !occ.is_empty() && !hops && (has(b'c') || has(b'd')) {
                        next as u16
                    } else {
                        locust
                    };
                    let outer_hurdle = w.hurdle.get();
                    if hops && !occ.is_empty() {
                        w.hurdle.set(next as u16);
                    }
                    let next_rider = if toggles { !rider } else { rider };
                    if let Some(continuations) = w.part.continuations(leg, w.base, step, last_side)
                    {
                        for &c in continuations {
                            let side = side_after(last_side, step, c);
                            self.walk(pos, w, leg + 1, next, c, next_rider, captured, side, out);
                        }
                    } else {
                        let (candidates, straight) =
                            continuation_candidates(w.base, self.game.dimensions);
                        let directions = &legs[leg + 1].directions;
                        for c in candidates {
                            if continuation_selects_after(directions, step, c, straight, last_side)
                            {
                                let side = side_after(last_side, step, c);
                                self.walk(
                                    pos,
                                    w,
                                    leg + 1,
                                    next,
                                    c,
                                    next_rider,
                                    captured,
                                    side,
                                    out,
                                );
                            }
                        }
                    }
                    w.hurdle.set(outer_hurdle);
                }
                if !occ.is_empty() {
                    break;
                }
            }
            current = next;
        }
        w.unload.set(outer_unload);
    }

    /// A crooked or circular rider (`zB`, `qN`): from the first step `first`, each later step bends
    /// (`geometry::bent_step`) to one side, then the other way round; the path stops at the first
    /// occupied cell (capturing it if it may), at the board's edge, at its range, or where it would
    /// come back to its start cell.
    fn bent_ride(&self, pos: &Position, w: &Walk, first: Vec3, out: &mut Vec<Move>) {
        let modes = w.part.part.legs[0].modes.as_bytes();
        let max_steps = match w.part.part.range {
            0 => usize::MAX,
            n => n as usize,
        };
        for side in [1, -1] {
            let mut current = w.origin;
            let mut step = first;
            for _ in 0..max_steps {
                let Some(next) = self.step(current, step) else {
                    break;
                };
                if next == w.origin || w.within.is_some_and(|z| !self.in_zone(z, w.mover, next)) {
                    break;
                }
                let occ = pos.cells[next];
                if occ.is_empty() {
                    let reaches = if w.attacks {
                        self.may_capture(modes)
                    } else {
                        self.may_move(modes)
                    };
                    if reaches {
                        self.emit(pos, w, next, Move::NONE, out);
                    }
                } else {
                    if self.can_take(w, occ, modes) {
                        self.emit(pos, w, next, Move::NONE, out);
                    }
                    break;
                }
                current = next;
                step = bent_step(w.part.part.path, first, step, side);
            }
        }
    }

    /// A plain one-leg leap or slide: the moves `walk` finds for it, in the same order.
    fn walk_simple(
        &self,
        pos: &Position,
        w: &Walk,
        simple: super::tables::SimplePart,
        out: &mut Vec<Move>,
    ) {
        let modes = w.part.part.legs[0].modes.as_bytes();
        let onto_empty = if w.attacks {
            simple.captures
        } else {
            simple.moves
        };
        for &v in &w.part.first {
            let mut current = w.origin;
            for _ in 0..simple.max_steps {
                let Some(next) = self.step(current, v) else {
                    break;
                };
                if simple.lame && !self.leap_path_ok(pos, current, v, true, false) {
                    break;
                }
                let occ = pos.cells[next];
                if occ.is_empty() {
                    if onto_empty {
                        self.emit(pos, w, next, Move::NONE, out);
                    }
                    if simple.en_passant && !w.attacks {
                        if let Some(victim) = self.en_passant_victim(pos, w, next) {
                            self.emit(pos, w, next, victim, out);
                        }
                    }
                } else {
                    if simple.captures && self.can_take(w, occ, modes) {
                        self.emit(pos, w, next, Move::NONE, out);
                    }
                    break;
                }
                current = next;
            }
        }
    }

    /// The universal leaper `U`: to any other cell of its board (inside the `within` zone, when the
    /// move set has one).
    fn universal(&self, pos: &Position, w: &Walk, out: &mut Vec<Move>) {
        let modes = w.part.part.legs[0].modes.as_bytes();
        let board = self.game.cells[w.origin].board;
        for (cell, info) in self.game.cells.iter().enumerate() {
            if cell == w.origin
                || info.board != board
                || w.within.is_some_and(|z| !self.in_zone(z, w.mover, cell))
            {
                continue;
            }
            let occ = pos.cells[cell];
            let ok = if occ.is_empty() {
                if w.attacks {
                    self.may_capture(modes)
                } else {
                    self.may_move(modes)
                }
            } else {
                self.can_take(w, occ, modes)
            };
            if ok {
                self.emit(pos, w, cell, Move::NONE, out);
            }
        }
    }

    /// A hopping final leg: `p` (cannon: ride to a screen, jump it, then move or capture beyond) or `g`
    /// (grasshopper: land right behind the screen).
    #[allow(clippy::too_many_arguments)]
    fn hop(
        &self,
        pos: &Position,
        w: &Walk,
        at: CellId,
        step: Vec3,
        max_steps: usize,
        grasshopper: bool,
        locust: u16,
        out: &mut Vec<Move>,
    ) {
        let modes = w
            .part
            .part
            .legs
            .last()
            .map(|l| l.modes.as_bytes())
            .unwrap_or(&[]);
        let _ = max_steps;
        let mut current = at;
        let mut screen = false;
        loop {
            let Some(next) = self.step(current, step) else {
                return;
            };
            if w.within.is_some_and(|z| !self.in_zone(z, w.mover, next)) {
                return;
            }
            let occ = if next == w.origin {
                Occupant::EMPTY
            } else {
                pos.cells[next]
            };
            if !screen {
                if !occ.is_empty() {
                    if self.pieces[w.piece].cannot_hop.contains(&occ.piece()) {
                        return;
                    }
                    screen = true;
                    // The piece hopped over, for a condition about the `hurdle`.
                    w.hurdle.set(next as u16);
                }
            } else {
                if occ.is_empty() {
                    let reaches = if w.attacks {
                        self.may_capture(modes)
                    } else {
                        self.may_move(modes)
                    };
                    if reaches {
                        self.emit(pos, w, next, locust, out);
                    }
                } else if self.can_take(w, occ, modes) {
                    self.emit(pos, w, next, locust, out);
                }
                if grasshopper || !occ.is_empty() {
                    return;
                }
            }
            current = next;
        }
    }

    /// Checks the cells a leaper passes: `n` needs them empty, `j` needs one occupied.
    pub(super) fn leap_path_ok(
        &self,
        pos: &Position,
        from: CellId,
        v: Vec3,
        lame: bool,
        jump: bool,
    ) -> bool {
        self.path_ok_reading(pos, from, v, lame, jump, &mut |_| {})
    }

    /// [`Interpreter::leap_path_ok`] for a later leg of a move whose piece has left `vacated`.
    fn path_ok_vacated(
        &self,
        pos: &Position,
        from: CellId,
        v: Vec3,
        lame: bool,
        jump: bool,
        vacated: CellId,
    ) -> bool {
        if vacated == from || self.step(from, v).is_none() {
            return self.leap_path_ok(pos, from, v, lame, jump);
        }
        let mut position_seen = false;
        let ok = self.path_ok_reading(pos, from, v, lame, jump, &mut |c| {
            position_seen |= c == vacated;
        });
        if !position_seen {
            return ok;
        }
        // The path crosses the vacated start cell: look again with it empty.
        let mut emptied = pos.clone();
        emptied.cells[vacated] = Occupant::EMPTY;
        self.leap_path_ok(&emptied, from, v, lame, jump)
    }

    /// [`Interpreter::leap_path_ok`], telling `read` the cells it looks at. The path is
    /// `geometry::lame_path`, walked without building it.
    #[inline]
    pub(super) fn path_ok_reading(
        &self,
        pos: &Position,
        from: CellId,
        v: Vec3,
        lame: bool,
        jump: bool,
        read: &mut impl FnMut(CellId),
    ) -> bool {
        if !lame && !jump {
            return true;
        }
        let abs = v.map(i32::abs);
        let max = abs[0].max(abs[1]).max(abs[2]);
        let straight = abs.iter().all(|&c| c == 0 || c == max);
        let mut blocked = |d: Vec3| match self.step(from, d) {
            Some(c) => {
                read(c);
                !pos.cells[c].is_empty()
            }
            None => true,
        };
        let (empty_path, occupied) = if straight {
            (
                max <= 1,
                (1..max).any(|k| blocked(v.map(|c| c.signum() * k))),
            )
        } else {
            let axis = (0..3).max_by_key(|&i| abs[i]).unwrap_or(0);
            let mut d = [0; 3];
            d[axis] = v[axis].signum();
            (false, blocked(d))
        };
        if empty_path {
            return !jump;
        }
        if lame {
            !occupied
        } else {
            occupied
        }
    }

    fn may_move(&self, modes: &[u8]) -> bool {
        modes.contains(&b'm') || !modes.iter().any(|c| matches!(c, b'c' | b'd' | b'e'))
    }

    fn may_capture(&self, modes: &[u8]) -> bool {
        may_capture(modes)
    }

    /// Tells whether the walking piece may take the occupant of its target.
    fn can_take(&self, w: &Walk, target: Occupant, modes: &[u8]) -> bool {
        if modes.contains(&b't') && self.pieces[target.piece()].royal {
            return false; // a tame piece never captures (or attacks) a royal one
        }
        let friendly = target.owner() == w.owner;
        if friendly && (modes.contains(&b'd') || !self.control.captures_any) {
            return modes.contains(&b'd');
        }
        if !self.may_capture(modes) {
            return false;
        }
        if w.attacks {
            return true;
        }
        if !self.capturable_owner(target.owner()) {
            return false;
        }
        let rules = &self.pieces[w.piece];
        if rules.never_captures || self.pieces[target.piece()].immune {
            return false;
        }
        match &rules.captures_only {
            Some((types, royal)) => {
                types.contains(&target.piece()) || (*royal && self.pieces[target.piece()].royal)
            }
            None => true,
        }
    }

    /// Emits a move to `to` (with promotions), or in attack mode the bare target.
    fn emit(&self, pos: &Position, w: &Walk, to: CellId, extra: u16, out: &mut Vec<Move>) {
        if w.attacks && to == w.origin && extra == Move::NONE {
            return; // a null move attacks nothing
        }
        if let Some(condition) = w.per_move {
            let hurdle = w.hurdle.get();
            let scope = super::conditions::Scope {
                hurdle: (hurdle != Move::NONE).then_some(hurdle as usize),
                ..super::conditions::Scope::piece(w.owner, w.origin)
            };
            if !self.condition_holds(pos, &scope, condition) {
                return;
            }
        }
        if let Some(zone) = self.pieces[w.piece].confined {
            if !self.in_zone(zone, w.owner, to) {
                return;
            }
        }
        let mut mv = Move::normal(w.origin, to);
        mv.aux = extra;
        let unload = w.unload.get();
        if unload != Move::NONE {
            if unload as usize == to {
                return; // the piece would reappear under the mover
            }
            mv.aux2 = unload; // where the leg that captured it started
        } else if w.part.part.legs[0].modes.contains('u') {
            mv.aux2 = w.origin as u16; // the captured piece reappears where the move started
        }
        mv.ep_source = w.part.ep_source && w.part.part.legs.len() == 1;
        if w.attacks {
            out.push(mv);
            return;
        }
        self.with_promotions(pos, w.piece, w.mover, w.origin, to, mv, out);
    }

    /// Adds a move with each promotion it allows or requires.
    #[allow(clippy::too_many_arguments)]
    fn with_promotions(
        &self,
        pos: &Position,
        piece: usize,
        owner: usize,
        from: CellId,
        to: CellId,
        mv: Move,
        out: &mut Vec<Move>,
    ) {
        let promotions = &self.game.pieces[piece].promotions;
        if promotions.is_empty() {
            out.push(mv);
            return;
        }
        // Choices are (type, pair): a pair promotion also puts a piece of the type on the cell left.
        let mut mandatory: Vec<(usize, bool)> = Vec::new();
        let mut optional: Vec<(usize, bool)> = Vec::new();
        let mut forced = false;
        for promotion in promotions {
            let applies = self.in_zone(promotion.zone, owner, to)
                || (promotion.leaving && self.in_zone(promotion.zone, owner, from));
            if !applies || (promotion.capturing && !self.is_capture(pos, mv)) {
                continue;
            }
            if let Some(condition) = &promotion.condition {
                let scope = super::conditions::Scope::piece(owner, from);
                if !self.condition_holds(pos, &scope, condition) {
                    continue;
                }
            }
            let list = if promotion.optional {
                &mut optional
            } else {
                &mut mandatory
            };
            let pair = promotion.pair.is_some();
            // From a reserve: only the types it holds; with none of them the piece stays.
            let row = promotion.reserve.map(|r| self.reserve_row(pos, r, owner));
            let available = |choice: usize| {
                row.is_none_or(|row| pos.hands.get(row).is_some_and(|h| h[choice] > 0))
            };
            if !promotion.optional && !promotion.choices.iter().any(|&c| available(c)) {
                continue;
            }
            forced |= !promotion.optional;
            for &choice in &promotion.choices {
                if !list.contains(&(choice, pair))
                    && available(choice)
                    && self.below_limit(pos, choice, owner)
                {
                    list.push((choice, pair));
                }
            }
        }
        let choices = if forced { mandatory } else { optional };
        if !forced {
            out.push(mv);
        }
        for (choice, pair) in choices {
            out.push(Move {
                piece: choice as u8 + 1,
                pair,
                ..mv
            });
        }
    }

    /// Tells whether a player may have one more piece of a type (`count_limit`).
    fn below_limit(&self, pos: &Position, piece: usize, owner: usize) -> bool {
        match self.pieces[piece].count_limit {
            Some(limit) => {
                let count = pos
                    .cells
                    .iter()
                    .filter(|o| !o.is_empty() && o.piece() == piece && o.owner() == owner)
                    .count();
                (count as u32) < limit
            }
            None => true,
        }
    }

    /// Drops from the hand onto empty cells.
    fn drops(&self, pos: &Position, out: &mut Vec<Move>) {
        let side = pos.side;
        let Some(hand) = pos.hands.get(side) else {
            return;
        };
        let pool = pos.hands.last().filter(|_| self.pool_drops);
        let held = |piece: usize| hand[piece] as usize + pool.map_or(0, |p| p[piece] as usize);
        for (piece, &count) in hand.iter().enumerate() {
            if count == 0 && pool.is_none_or(|p| p[piece] == 0) {
                continue;
            }
            let start = out.len();
            // The piece itself, and with `drop_promoted` each type promoted from it.
            self.drops_of(pos, piece, out);
            if self.drop_promoted {
                for form in
                    (0..self.pieces.len()).filter(|&p| self.pieces[p].promoted_from == Some(piece))
                {
                    self.drops_of(pos, form, out);
                }
            }
            if self.opposite_colours {
                self.keep_colours_free(pos, &held, out, start);
            }
        }
    }

    /// The colour of a cell: the parity of the sum of its coordinates (as `colour(CELL)`).
    fn colour(&self, cell: CellId) -> usize {
        let [x, y, z] = self.game.cells[cell].coord;
        ((x + y + z) & 1) as usize
    }

    /// `drop_opposite_colours`: removes, from the drops listed from `start`, a drop of a type with
    /// the rule onto a colour where a piece of that type of the dropping player stands, and a drop
    /// of another type that leaves fewer colours with a free cell for a type with the rule (no piece
    /// of it on that colour, an empty cell of its drop zone) than the pieces of that type still in
    /// the hand.
    fn keep_colours_free(
        &self,
        pos: &Position,
        held: &dyn Fn(usize) -> usize,
        out: &mut Vec<Move>,
        start: usize,
    ) {
        let side = pos.side;
        // Per type with the rule: the colours its pieces stand on, and the empty cells of each
        // colour where it could be dropped.
        let rules: Vec<(usize, [bool; 2], [usize; 2])> = (0..self.pieces.len())
            .filter(|&t| self.pieces[t].drop_opposite_colours)
            .map(|t| {
                let mut taken = [false; 2];
                let mut free = [0; 2];
                for (cell, occ) in pos.cells.iter().enumerate() {
                    if occ.is_empty() {
                        if self.pieces[t]
                            .drop_zone
                            .is_none_or(|z| self.in_zone(z, side, cell))
                        {
                            free[self.colour(cell)] += 1;
                        }
                    } else if occ.piece() == t && occ.owner() == side {
                        taken[self.colour(cell)] = true;
                    }
                }
                (t, taken, free)
            })
            .collect();
        let mut kept = start;
        for i in start..out.len() {
            let mv = out[i];
            let to = mv.to as usize;
            let dropped = mv.piece as usize - 1;
            let ok = rules.iter().all(|&(t, taken, free)| {
                if t == dropped {
                    return !taken[self.colour(to)];
                }
                let in_hand = held(t);
                if in_hand == 0 {
                    return true;
                }
                let zone_ok = self.pieces[t]
                    .drop_zone
                    .is_none_or(|z| self.in_zone(z, side, to));
                let open = (0..2)
                    .filter(|&k| {
                        let used = usize::from(zone_ok && self.colour(to) == k);
                        !taken[k] && free[k] > used
                    })
                    .count();
                open >= in_hand
            });
            if ok {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// The drops of a hand piece as the type `piece` (itself, or with `drop_promoted` a type promoted
    /// from it).
    fn drops_of(&self, pos: &Position, piece: usize, out: &mut Vec<Move>) {
        let side = pos.side;
        let rules = &self.pieces[piece];
        for (cell, occ) in pos.cells.iter().enumerate() {
            if !occ.is_empty() {
                continue;
            }
            if let Some(zone) = rules.drop_zone {
                if !self.in_zone(zone, side, cell) {
                    continue;
                }
            }
            if let Some(condition) = &self.drop_condition {
                let scope = super::conditions::Scope {
                    to: Some(cell),
                    ..super::conditions::Scope::player(side)
                };
                if !self.condition_holds(pos, &scope, condition) {
                    continue;
                }
            }
            if let Some(limit) = rules.drop_file_limit {
                let here = &self.game.cells[cell];
                let same_file = pos
                    .cells
                    .iter()
                    .enumerate()
                    .filter(|(c, o)| {
                        let other = &self.game.cells[*c];
                        !o.is_empty()
                            && o.piece() == piece
                            && o.owner() == side
                            && other.board == here.board
                            && other.coord[0] == here.coord[0]
                    })
                    .count();
                if same_file as u32 >= limit {
                    continue;
                }
            }
            out.push(Move {
                kind: MoveKind::Drop,
                piece: piece as u8 + 1,
                ..Move::normal(cell, cell)
            });
        }
    }

    /// Castling moves of one rule.
    fn castling(&self, pos: &Position, index: usize, out: &mut Vec<Move>) {
        let rule = &self.castles[index];
        let Some(king_type) = rule.king else { return };
        let side = pos.side;
        for (cell, &occ) in pos.cells.iter().enumerate() {
            if occ.is_empty()
                || occ.owner() != side
                || occ.piece() != king_type
                || (rule.king_virgin && !occ.is_virgin())
                || (rule.king_original && occ.is_promoted())
            {
                continue;
            }
            if !rule.from.is_empty() && !rule.from.contains(&cell) {
                continue;
            }
            if let Some(zone) = rule.from_zone {
                if !self.in_zone(zone, side, cell) {
                    continue;
                }
            }
            for (dir, partners) in &rule.directions {
                let Some((partner_cell, distance)) =
                    self.find_partner(pos, cell, *dir, rule, partners, side)
                else {
                    continue;
                };
                // A partner allowed only under a condition (`player` is the castling player).
                let partner_type = pos.cells[partner_cell].piece();
                let scope = super::conditions::Scope::piece(side, cell);
                let conditions: Vec<&crate::model::Cond> = rule
                    .partner_conditions
                    .iter()
                    .filter(|(d, t, _)| d == dir && *t == partner_type)
                    .map(|(_, _, c)| c)
                    .collect();
                if !conditions.is_empty()
                    && !conditions
                        .iter()
                        .any(|c| self.condition_holds(pos, &scope, c))
                {
                    continue;
                }
                let free = |c: CellId| c == cell || c == partner_cell || pos.cells[c].is_empty();
                let fixed = !rule.king_lands.is_empty() || !rule.partner_lands.is_empty();
                let king_to = if rule.king_lands.is_empty() {
                    self.step_n(cell, *dir, rule.king_steps)
                } else {
                    self.landing(side, cell, *dir, &rule.king_lands)
                };
                let Some(king_to) = king_to else {
                    continue;
                };
                let partner_to = if !rule.partner_lands.is_empty() {
                    self.landing(side, cell, *dir, &rule.partner_lands)
                } else if rule.partner_beyond {
                    self.step(king_to, *dir)
                } else {
                    self.step(king_to, [-dir[0], -dir[1], -dir[2]])
                };
                let Some(partner_to) = partner_to else {
                    continue;
                };
                if king_to == partner_to || !free(king_to) || !free(partner_to) {
                    continue;
                }
                // Every cell the king crosses must be free too; with fixed landing cells (Chess960)
                // also every cell the partner crosses.
                let crossed = if fixed {
                    self.line_between(cell, king_to)
                } else {
                    (1..rule.king_steps)
                        .filter_map(|k| self.step_n(cell, *dir, k))
                        .collect()
                };
                if crossed.iter().any(|&c| !free(c))
                    || (fixed
                        && self
                            .line_between(partner_cell, partner_to)
                            .iter()
                            .any(|&c| !free(c)))
                {
                    continue;
                }
                if rule.check_attacks && self.royal_check {
                    let attacked =
                        |c: CellId| self.opponents(side).any(|o| self.cell_attacked(pos, c, o));
                    if attacked(cell) || crossed.iter().any(|&c| attacked(c)) {
                        continue;
                    }
                }
                let _ = distance;
                out.push(Move {
                    kind: MoveKind::Castle,
                    aux: partner_cell as u16,
                    aux2: partner_to as u16,
                    ..Move::normal(cell, king_to)
                });
            }
        }
    }

    /// The cell of `cells` (the player's part of a zone) on the line through `from` along `dir`, on
    /// either side of it or `from` itself.
    fn landing(
        &self,
        side: usize,
        from: CellId,
        dir: Vec3,
        cells: &[crate::model::CellsOrZone],
    ) -> Option<CellId> {
        let listed = |c: CellId| {
            cells.iter().any(|l| match l {
                crate::model::CellsOrZone::Cell(x) => *x == c,
                crate::model::CellsOrZone::Zone(z) => self.in_zone(*z, side, c),
            })
        };
        if listed(from) {
            return Some(from);
        }
        let back = [-dir[0], -dir[1], -dir[2]];
        for d in [dir, back] {
            let mut current = from;
            while let Some(next) = self.step(current, d) {
                if listed(next) {
                    return Some(next);
                }
                current = next;
            }
        }
        None
    }

    /// The cells strictly between `a` and `b` on one line, and `b` (nothing when they are equal).
    fn line_between(&self, a: CellId, b: CellId) -> Vec<CellId> {
        let (ca, cb) = (self.game.cells[a].coord, self.game.cells[b].coord);
        let d = [
            (cb[0] - ca[0]).signum(),
            (cb[1] - ca[1]).signum(),
            (cb[2] - ca[2]).signum(),
        ];
        let mut out = Vec::new();
        let mut current = a;
        while current != b {
            match self.step(current, d) {
                Some(next) => {
                    out.push(next);
                    current = next;
                }
                None => break,
            }
        }
        out
    }

    /// Finds the castling partner along a direction: at the board edge, or at a distance in a range,
    /// with only empty cells before it, unmoved (and original) when the rule requires it.
    fn find_partner(
        &self,
        pos: &Position,
        from: CellId,
        dir: Vec3,
        rule: &super::tables::Castle,
        partners: &[usize],
        side: usize,
    ) -> Option<(CellId, i32)> {
        let at = rule.partner_at;
        let mut current = from;
        let mut k = 0;
        loop {
            k += 1;
            let next = self.step(current, dir)?;
            let occ = pos.cells[next];
            if !occ.is_empty() {
                let edge = self.step(next, dir).is_none();
                let placed = match at {
                    Some((lo, hi)) => (lo..=hi).contains(&k),
                    None => edge,
                };
                let ok = placed
                    && occ.owner() == side
                    && (occ.is_virgin() || !rule.partner_virgin)
                    && !(rule.partner_original && occ.is_promoted())
                    && partners.contains(&occ.piece());
                return ok.then_some((next, k));
            }
            current = next;
        }
    }

    pub(super) fn step_n(&self, from: CellId, dir: Vec3, n: i32) -> Option<CellId> {
        let mut current = from;
        for _ in 0..n {
            current = self.step(current, dir)?;
        }
        Some(current)
    }

    /// The players other than `side` (neutral sides excluded).
    pub(super) fn opponents(&self, side: usize) -> impl Iterator<Item = usize> {
        (0..self.players).filter(move |&p| p != side)
    }

    /// Tells whether any royal piece of `player` is attacked by an opponent.
    pub(super) fn royal_attacked(&self, pos: &Position, player: usize) -> bool {
        self.royals_attacked(pos, player, |cell| {
            self.opponents(player)
                .any(|o| self.cell_attacked(pos, cell, o))
        })
    }

    /// Tells whether `mover` gives check: a royal piece of one of his opponents (his partner is not
    /// one) is attacked by a piece of his. With two players this is the opponent's being in check;
    /// with four on two boards, a check given on the other board by its own players is not his.
    pub(super) fn gives_check(&self, pos: &Position, mover: usize) -> bool {
        let partner = self.partner(mover);
        self.opponents(mover)
            .filter(|&o| Some(o) != partner)
            .any(|o| self.royals_attacked(pos, o, |cell| self.cell_attacked(pos, cell, mover)))
    }

    /// Tells whether `player` is in check, `attacked` telling which cells are attacked: some royal
    /// piece of his stands on one, or under `royal_safety all` every one of them does.
    fn royals_attacked(
        &self,
        pos: &Position,
        player: usize,
        attacked: impl Fn(CellId) -> bool,
    ) -> bool {
        let mut royals = pos
            .cells
            .iter()
            .enumerate()
            .filter(|&(cell, occ)| {
                !occ.is_empty() && occ.owner() == player && self.is_royal_at(pos, cell)
            })
            .map(|(cell, _)| cell);
        if self.royal_all {
            let mut any = false;
            royals.all(|cell| {
                any = true;
                attacked(cell)
            }) && any
        } else {
            royals.any(attacked)
        }
    }

    /// Plays the move, checks that the mover's royal pieces are safe, and takes it back.
    fn is_legal(&self, pos: &mut Position, mv: Move) -> bool {
        let drop_mate_rule =
            mv.kind == MoveKind::Drop && self.pieces[mv.piece as usize - 1].no_drop_mate;
        let drop_check_rule = mv.kind == MoveKind::Drop && self.no_drop_check;
        if !self.royal_check
            && !self.forbid_checks
            && !drop_check_rule
            && !self.facing
            && !self.facing_break
            && !drop_mate_rule
            && !mv.peaceful
        {
            // Nothing to test: every pseudo-legal move is legal, and playing it (which may look for the
            // mover's next single move) would be wasted.
            return true;
        }
        let mover = pos.side;
        if !self.evades_as_allowed(pos, mv) {
            return false;
        }
        if mv.gate != 0 && self.royal_check && !self.gating_base_safe(pos, mv) {
            return false;
        }
        // Under `facing must_break`, a player who starts the turn facing must end it (or pass).
        let must_break = self.facing_break && self.royals_facing(pos, true);
        if must_break && mv.kind == MoveKind::Pass {
            // That pass is legal even in check (Fairy-Stockfish's bikjang).
            return true;
        }
        let undo = super::elimination::probing(|| self.make_move(pos, mv));
        let mut legal = !self.royal_check || self.royals_safe(pos, mover);
        if legal && mv.kind == MoveKind::Drop && self.pieces[mv.piece as usize - 1].no_drop_mate {
            // A drop of this type may not give checkmate (shogi's uchifuzume).
            let opponent = pos.side;
            if self.royal_attacked(pos, opponent) {
                let mut replies = Vec::new();
                self.generate_legal(pos, &mut replies);
                legal = !replies.is_empty();
            }
        }
        if legal && (self.forbid_checks || drop_check_rule || mv.peaceful) {
            legal = !self.gives_check(pos, mover);
        }
        if legal && mv.peaceful {
            // The new piece may not attack an enemy piece.
            let to = mv.to as usize;
            let occ = pos.cells[to];
            legal = with_scratch(|attacks| {
                self.piece_moves(pos, to, occ, mover, true, attacks);
                !attacks.iter().any(|a| {
                    let target = pos.cells[a.to as usize];
                    !target.is_empty() && target.owner() != mover && (target.owner() < self.players)
                })
            });
        }
        if legal && self.facing {
            legal = !self.royals_facing(pos, false);
        }
        if legal && must_break && mv.kind != MoveKind::Pass {
            legal = !self.royals_facing(pos, true);
        }
        self.unmake_move(pos, mv, undo);
        legal
    }

    /// A gating move is safe for the mover's royal pieces only when the same move without the gated
    /// piece is: the piece brought in from the hand shields nothing (as Fairy-Stockfish plays it).
    fn gating_base_safe(&self, pos: &mut Position, mv: Move) -> bool {
        let base = Move {
            gate: 0,
            gate_cell: Move::NONE,
            ..mv
        };
        let mover = pos.side;
        let undo = super::elimination::probing(|| self.make_move(pos, base));
        let safe = self.royals_safe(pos, mover);
        self.unmake_move(pos, base, undo);
        safe
    }

    /// After a move of `mover`, whether his royal pieces are safe.
    fn royals_safe(&self, pos: &mut Position, mover: usize) -> bool {
        if !self.effects.captures_remove_more() {
            !self.royal_attacked(pos, mover)
        } else {
            // Captures remove more than their victim: a move that removes one's own royal piece is
            // illegal, one that removes every enemy royal piece wins whatever else it exposes.
            let opponents_alive = self.opponents(mover).all(|o| self.has_royal(pos, o));
            self.has_royal(pos, mover) && (!opponents_alive || !self.royal_capturable(pos, mover))
        }
    }

    /// `check_evasion capture_checker`: while the mover is in check, a piece with the rule may only
    /// capture the piece giving check, and not move at all when two pieces give check.
    fn evades_as_allowed(&self, pos: &mut Position, mv: Move) -> bool {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::Castle) {
            return true;
        }
        let occ = pos.cells[mv.from as usize];
        if occ.is_empty()
            || !self.pieces[occ.piece()].evades_by_capture
            || !self.royal_attacked(pos, pos.side)
        {
            return true;
        }
        let to = mv.to as usize;
        let target = pos.cells[to];
        if mv.kind == MoveKind::Castle || target.is_empty() || target.owner() == pos.side {
            return false;
        }
        // The captured piece was the only one giving check when, without it, no royal piece of the
        // mover is attacked (the moving piece still on its cell).
        pos.cells[to] = Occupant::EMPTY;
        let still_checked = self.royal_attacked(pos, pos.side);
        pos.cells[to] = target;
        !still_checked
    }

    /// Tells whether two pieces with `facing illegal` (or, with `must_break`, `facing must_break`) of
    /// different sides see each other along a file with only empty cells between them (xiangqi's
    /// flying general).
    pub(super) fn royals_facing(&self, pos: &Position, must_break: bool) -> bool {
        let facing = |piece: usize| {
            if must_break {
                self.pieces[piece].facing_must_break
            } else {
                self.pieces[piece].facing_illegal
            }
        };
        // From each such piece up its file (a pair is found from its lower piece).
        for (cell, occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || !facing(occ.piece()) {
                continue;
            }
            let mut current = cell;
            while let Some(next) = self.step(current, [0, 1, 0]) {
                let other = pos.cells[next];
                if !other.is_empty() {
                    if facing(other.piece()) && other.owner() != occ.owner() {
                        return true;
                    }
                    break;
                }
                current = next;
            }
        }
        false
    }
}

/// Removes from `out[start..]` every move equal to an earlier one there, keeping the first of each.
fn drop_repeats(out: &mut Vec<Move>, start: usize) {
    let mut kept = start;
    for i in start..out.len() {
        let mv = out[i];
        if !out[start..kept].contains(&mv) {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Whether a first-leg vector belongs to a base atom's family (same multiset of absolute components).
pub(super) fn same_family(base: Vec3, v: Vec3) -> bool {
    let mut a = base.map(i32::abs);
    let mut b = v.map(i32::abs);
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Whether a final leg with these modes may capture an enemy: `c`, or no mode letter at all (`mc`).
pub(super) fn may_capture(modes: &[u8]) -> bool {
    modes.contains(&b'c') || !modes.iter().any(|c| matches!(c, b'm' | b'd' | b'e'))
}
