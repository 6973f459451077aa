//! Making and unmaking moves, and the position hash. Make records every changed cell so that unmake is
//! its exact inverse, whatever the move did.

use super::effects::MoveEvents;
use super::position::{Move, MoveKind, Occupant, Position, Undo};
use super::tables::Interpreter;

/// Mixes a value into a well-spread 64-bit key (SplitMix64's finaliser).
#[inline]
pub(super) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline]
/// The key of a piece on a cell. Whether the piece has moved is part of the key only for types where it
/// matters (initial moves, castling, gating), so that a position reached again counts as a repetition.
fn cell_key(cell: usize, occ: Occupant, virgin_matters: u64) -> u64 {
    if occ.is_empty() {
        0
    } else {
        let occ = if virgin_matters & (1 << occ.piece()) != 0 {
            occ
        } else {
            occ.moved()
        };
        mix(((cell as u64) << 16) | occ.bits() as u64)
    }
}

#[inline]
fn hand_key(player: usize, piece: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        mix(0x1000_0000_0000 | ((player as u64) << 24) | ((piece as u64) << 8) | count as u64)
    }
}

fn state_key(pos: &Position) -> u64 {
    let mut key = mix(0x2000_0000_0000
        | pos.side as u64
        | (pos.turn_moves as u64) << 8
        | (pos.eliminated as u64) << 16);
    for &(cell, below) in &pos.stacks {
        key ^= mix(0x5000_0000_0000 | ((cell as u64) << 16) | below.bits() as u64);
    }
    for (index, &count) in pos.captured.iter().enumerate() {
        if count > 0 {
            key ^= mix(0x6000_0000_0000 | ((index as u64) << 16) | count as u64);
        }
    }
    for &(target, victim) in &pos.en_passant {
        key ^= mix(0x3000_0000_0000 | ((target as u64) << 20) | victim as u64);
    }
    for (player, &checks) in pos.checks.iter().enumerate() {
        if checks > 0 {
            key ^= mix(0x4000_0000_0000 | ((player as u64) << 16) | checks as u64);
        }
    }
    key
}

impl Interpreter {
    /// Computes the hash from scratch.
    pub(crate) fn compute_hash(&self, pos: &Position) -> u64 {
        let mut hash = state_key(pos);
        for (cell, &occ) in pos.cells.iter().enumerate() {
            hash ^= cell_key(cell, occ, self.virgin_matters);
        }
        for (player, hand) in pos.hands.iter().enumerate() {
            for (piece, &count) in hand.iter().enumerate() {
                hash ^= hand_key(player, piece, count);
            }
        }
        hash
    }

    pub(super) fn put(&self, pos: &mut Position, undo: &mut Undo, cell: usize, occ: Occupant) {
        self.set_cell(pos, undo, cell, occ);
    }

    fn set_cell(&self, pos: &mut Position, undo: &mut Undo, cell: usize, occ: Occupant) {
        let old = pos.cells[cell];
        undo.changed.push(cell, old);
        pos.hash ^=
            cell_key(cell, old, self.virgin_matters) ^ cell_key(cell, occ, self.virgin_matters);
        pos.cells[cell] = occ;
    }

    pub(super) fn change_hand(
        pos: &mut Position,
        undo: &mut Undo,
        player: usize,
        piece: usize,
        delta: i8,
    ) {
        let old = pos.hands[player][piece];
        let new = (old as i16 + delta as i16).clamp(0, 255) as u8;
        pos.hash ^= hand_key(player, piece, old) ^ hand_key(player, piece, new);
        pos.hands[player][piece] = new;
        undo.hand_changes.push((player, piece, delta));
    }

    /// The type a captured piece takes in the captor's hand.
    pub(super) fn hand_type(&self, occ: Occupant) -> usize {
        if self.demote_promoted && occ.is_promoted() {
            return self.pawn_type().unwrap_or(occ.piece());
        }
        let rules = &self.pieces[occ.piece()];
        rules
            .demote_to
            .or(rules.promoted_from)
            .unwrap_or(occ.piece())
    }

    fn pawn_type(&self) -> Option<usize> {
        self.pieces.iter().position(|p| p.pawn)
    }

    /// Plays a move and returns what is needed to take it back.
    pub(super) fn make_move(&self, pos: &mut Position, mv: Move) -> Undo {
        let old_state = state_key(pos);
        let mut undo = save_state(pos);
        pos.hash ^= old_state;
        pos.history.push(undo.hash);
        let mover = pos.side;
        let from = mv.from as usize;
        let to = mv.to as usize;
        let mut resets = false;
        let mut captured_any = false;
        let waiting_before = self.waiting_pieces(pos, mover);
        match mv.kind {
            MoveKind::Normal => {
                let occ = pos.cells[from];
                // What the move is, for `freeze after`: decided on the board before it changes.
                let unpin = pos.stacks.iter().any(|&(c, _)| c == from);
                let jump = self.freeze.jump && self.passes_over_piece(pos, from, to);
                // The captured pieces with their cells, for the rules that react to captures.
                let mut victims = Vec::new();
                if mv.stack {
                    // The piece below stays, held under the one that climbed onto it.
                    pos.stacks.push((to, pos.cells[to]));
                } else if mv.merge {
                    // A merger: the friendly piece on `to` joins the mover; nothing is captured.
                } else if !pos.cells[to].is_empty() && to != from {
                    // (A move back to its start cell, a capture and return or a null move, takes
                    // nothing there.)
                    victims.push((to, pos.cells[to]));
                }
                if mv.aux != Move::NONE {
                    let extra = mv.aux as usize;
                    if !pos.cells[extra].is_empty() {
                        victims.push((extra, pos.cells[extra]));
                        self.set_cell(pos, &mut undo, extra, Occupant::EMPTY);
                    }
                }
                // `u`: the captured piece reappears on the start cell instead of leaving the board.
                let unloaded = if mv.aux2 != Move::NONE {
                    victims.pop().map(|(_, o)| o)
                } else {
                    None
                };
                // A transfer's `become` is a change of type, not a promotion a capture could undo.
                let transfer = self.game.cells[from].board != self.game.cells[to].board;
                // A promotion from a reserve takes the piece from it; the new piece has not moved.
                let pool = if mv.piece > 0 && !mv.pair && !mv.merge {
                    self.game.pieces[occ.piece()]
                        .promotions
                        .iter()
                        .find_map(|p| p.reserve)
                } else {
                    None
                };
                if let Some(reserve) = pool {
                    let row = self.reserve_row(pos, reserve, occ.owner());
                    Self::change_hand(pos, &mut undo, row, mv.piece as usize - 1, -1);
                }
                let placed = if mv.merge {
                    // The merged piece is a new piece of the mover's, not a promoted one.
                    Occupant::new(mv.piece as usize - 1, occ.owner(), false, false)
                } else if mv.piece > 0 {
                    // A promotion back to the type the piece was promoted from is a demotion.
                    let demotion =
                        self.pieces[occ.piece()].promoted_from == Some(mv.piece as usize - 1);
                    Occupant::new(
                        mv.piece as usize - 1,
                        occ.owner(),
                        pool.is_some(),
                        !transfer && !demotion,
                    )
                } else {
                    occ.moved()
                };
                self.set_cell(pos, &mut undo, from, Occupant::EMPTY);
                self.set_cell(pos, &mut undo, to, placed);
                // Leaving a stack frees the piece below.
                if let Some(index) = pos.stacks.iter().position(|&(c, _)| c == from) {
                    let (_, below) = pos.stacks.remove(index);
                    self.set_cell(pos, &mut undo, from, below);
                }
                if mv.pair {
                    self.set_cell(
                        pos,
                        &mut undo,
                        from,
                        Occupant::new(mv.piece as usize - 1, occ.owner(), false, true),
                    );
                }
                if let Some(victim) = unloaded {
                    self.set_cell(pos, &mut undo, mv.aux2 as usize, victim.moved());
                }
                // A merger removes a piece, like a capture: it restarts the move-rule count too.
                resets = !victims.is_empty()
                    || unloaded.is_some()
                    || mv.merge
                    || self.pieces[occ.piece()].pawn;
                if self.game.custodian.is_some() {
                    let enclosed = self.custodian(pos, &mut undo, to);
                    resets |= !enclosed.is_empty();
                    victims.extend(enclosed);
                }
                captured_any = !victims.is_empty();
                if self.counts_captures {
                    self.count_captures(pos, mover, victims.iter().map(|(_, o)| o));
                }
                let freeze = self.freeze;
                let frozen = freeze.moved
                    || (freeze.jump && jump)
                    || (freeze.unpin && unpin)
                    || (freeze.stack && mv.stack)
                    || (freeze.capture && !victims.is_empty());
                if frozen && !pos.cells[to].is_empty() {
                    self.set_cell(pos, &mut undo, to, pos.cells[to].with_frozen(true));
                }
                if self.effects.is_active() || (self.captures_to_hand && !victims.is_empty()) {
                    let fired = self.run_move_rules(
                        pos,
                        &mut undo,
                        &MoveEvents {
                            player: mover,
                            from: Some(from),
                            to,
                            victims: &victims,
                            promoted: mv.piece > 0 && !mv.merge && !transfer,
                            dropped: false,
                            transferred: transfer,
                            transformed: mv.piece > 0,
                        },
                    );
                    resets |= fired.reset;
                }
                if mv.ep_source {
                    self.record_en_passant(pos, from, to);
                }
            }
            MoveKind::Drop => {
                let piece = mv.piece as usize - 1;
                // A promoted type is never in a hand: with `drop_promoted` it is dropped from its
                // base (and stands promoted).
                let promoted = self.pieces[piece]
                    .promoted_from
                    .filter(|_| self.drop_promoted);
                let held = promoted.unwrap_or(piece);
                // From the player's own hand, else from the reserve shared by everybody.
                let row = if pos.hands[mover][held] > 0 {
                    mover
                } else {
                    pos.hands.len() - 1
                };
                Self::change_hand(pos, &mut undo, row, held, -1);
                self.set_cell(
                    pos,
                    &mut undo,
                    to,
                    Occupant::new(piece, mover, self.drops_virgin, promoted.is_some()),
                );
                if self.effects.is_active() {
                    resets |= self.after_plain_move(pos, &mut undo, mover, None, to, true);
                }
            }
            MoveKind::Castle => {
                let king = pos.cells[from];
                let partner = pos.cells[mv.aux as usize];
                self.set_cell(pos, &mut undo, from, Occupant::EMPTY);
                self.set_cell(pos, &mut undo, mv.aux as usize, Occupant::EMPTY);
                self.set_cell(pos, &mut undo, to, king.moved());
                self.set_cell(pos, &mut undo, mv.aux2 as usize, partner.moved());
                if self.effects.is_active() {
                    resets |= self.after_plain_move(pos, &mut undo, mover, Some(from), to, false);
                }
            }
            MoveKind::Pass => {}
            MoveKind::PickUp => {
                // Into the mover's hand (a pick-up's reserve is one per player), as the type a
                // captured piece would take there.
                let occ = pos.cells[from];
                let held = self.picked_up_type(occ);
                Self::change_hand(pos, &mut undo, mover, held, 1);
                self.set_cell(pos, &mut undo, from, Occupant::EMPTY);
            }
        }
        if mv.gate > 0 {
            let piece = mv.gate as usize - 1;
            Self::change_hand(pos, &mut undo, mover, piece, -1);
            self.set_cell(
                pos,
                &mut undo,
                mv.gate_cell as usize,
                Occupant::new(piece, mover, false, false),
            );
        }
        if mv.wall != Move::NONE {
            self.place_wall(pos, &mut undo, mv);
        }
        self.end_waiting(pos, &mut undo, &waiting_before);
        pos.passes = if mv.kind == MoveKind::Pass {
            pos.passes + 1
        } else {
            0
        };
        pos.reset_in_turn |= resets;
        // A turn is `moves_per_turn` single moves, or fewer with `end_early_when_stuck` when the mover
        // has no legal single move left; then the next player still in the game moves.
        pos.turn_moves += 1;
        let turn_over = pos.turn_moves >= self.game.turn.moves.max(1)
            || (self.end_early && !self.any_legal(pos));
        if turn_over {
            // The half-move counter counts turns: a turn that removed a piece restarts it.
            pos.halfmove = if pos.reset_in_turn {
                0
            } else {
                pos.halfmove + 1
            };
            pos.reset_in_turn = false;
            pos.turn_moves = 0;
            if self.freeze.is_used() {
                self.thaw(pos, &mut undo);
            }
            let mut next = self.next_player(mover);
            while pos.is_eliminated(next) && next != mover {
                next = self.next_player(next);
            }
            pos.side = next;
            if self.turn_index(pos.side) <= self.turn_index(mover) {
                pos.fullmove += 1;
            }
        }
        pos.last = Some(mv);
        if self.en_passant_when_capturable && !pos.en_passant.is_empty() {
            self.keep_capturable_en_passant(pos);
        }
        if turn_over && self.elimination.enabled {
            self.start_turns(pos, &mut undo);
        }
        if self.en_passant_owner_turn {
            self.keep_en_passant_until_owner_turn(pos, &undo, turn_over);
        }
        if self.has_checks_rule || self.tracks_check_history {
            let gave_check = self.gives_check(pos, mover);
            if gave_check && self.has_checks_rule {
                pos.checks[mover] += 1;
            }
            if self.tracks_check_history {
                pos.check_history
                    .push(((mover as u8) << 1) | u8::from(gave_check));
            }
        }
        if self.counts {
            self.update_count(pos, captured_any);
        }
        pos.hash ^= state_key(pos);
        undo
    }

    /// Passes the turn without moving, for the search's null move: only in two-player games with one
    /// move per turn and nothing that happens at a turn's start. Taken back by `unmake_move`.
    pub(super) fn make_null_move(&self, pos: &mut Position) -> Option<Undo> {
        if self.players != 2
            || self.game.turn.moves > 1
            || self.elimination.enabled
            || self.en_passant_owner_turn
            || self.freeze.is_used()
            || self.has_checks_rule
        {
            return None;
        }
        let old_state = state_key(pos);
        let undo = save_state(pos);
        pos.hash ^= old_state;
        pos.history.push(undo.hash);
        let mover = pos.side;
        if self.tracks_check_history {
            // A pass gives no check (`unmake_move` takes the entry back).
            pos.check_history.push((mover as u8) << 1);
        }
        pos.side = self.next_player(mover);
        if pos.side <= mover {
            pos.fullmove += 1;
        }
        pos.halfmove += 1;
        pos.last = None;
        pos.passes = 0;
        pos.hash ^= state_key(pos);
        Some(undo)
    }

    /// Takes back a move.
    pub(super) fn unmake_move(&self, pos: &mut Position, _mv: Move, undo: Undo) {
        for (cell, occ) in undo.changed.undo_order() {
            pos.cells[cell] = occ;
        }
        for &(player, piece, delta) in undo.hand_changes.iter().rev() {
            pos.hands[player][piece] = (pos.hands[player][piece] as i16 - delta as i16) as u8;
        }
        pos.side = undo.side;
        pos.en_passant = undo.en_passant;
        pos.halfmove = undo.halfmove;
        pos.fullmove = undo.fullmove;
        pos.checks = undo.checks;
        pos.hash = undo.hash;
        pos.last = undo.last;
        pos.passes = undo.passes;
        pos.turn_moves = undo.turn_moves;
        pos.eliminated = undo.eliminated;
        pos.dropped_among = undo.dropped_among;
        pos.mated_by = undo.mated_by;
        pos.stacks = undo.stacks;
        pos.captured = undo.captured;
        pos.reset_in_turn = undo.reset_in_turn;
        pos.count = undo.count;
        pos.history.pop();
        if self.tracks_check_history {
            pos.check_history.pop();
        }
    }

    /// Runs the rules after a drop or castling (no capture, no promotion).
    fn after_plain_move(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        player: usize,
        from: Option<usize>,
        to: usize,
        dropped: bool,
    ) -> bool {
        let events = MoveEvents {
            player,
            from,
            to,
            victims: &[],
            promoted: false,
            dropped,
            transferred: false,
            transformed: false,
        };
        self.run_move_rules(pos, undo, &events).reset
    }

    /// Whether a move passes over an occupied cell on the straight line from `from` to `to` (a jump,
    /// for `freeze after jump`).
    fn passes_over_piece(&self, pos: &Position, from: usize, to: usize) -> bool {
        let (a, b) = (&self.game.cells[from], &self.game.cells[to]);
        if a.board != b.board {
            return false;
        }
        let d = [
            b.coord[0] - a.coord[0],
            b.coord[1] - a.coord[1],
            b.coord[2] - a.coord[2],
        ];
        let steps = d.iter().map(|c| c.abs()).max().unwrap_or(0);
        if steps < 2 || !d.iter().all(|&c| c == 0 || c.abs() == steps) {
            return false;
        }
        let unit = d.map(|c| c.signum());
        (1..steps).any(|k| {
            self.step_n(from, unit, k)
                .is_some_and(|cell| !pos.cells[cell].is_empty())
        })
    }

    /// Counts the enemy pieces among `removed` for `mover` (self-captures count for nobody).
    fn count_captures<'a>(
        &self,
        pos: &mut Position,
        mover: usize,
        removed: impl Iterator<Item = &'a Occupant>,
    ) {
        let pieces = self.game.pieces.len();
        for victim in removed.filter(|v| !v.is_empty() && v.owner() != mover) {
            if pos.captured.is_empty() {
                pos.captured = vec![0; self.game.players.len() * pieces];
            }
            if let Some(count) = pos.captured.get_mut(mover * pieces + victim.piece()) {
                *count += 1;
            }
        }
    }

    /// Clears every frozen flag at the end of a turn, on the board and under stacks.
    fn thaw(&self, pos: &mut Position, undo: &mut Undo) {
        for cell in 0..pos.cells.len() {
            let occ = pos.cells[cell];
            if !occ.is_empty() && occ.is_frozen() {
                self.set_cell(pos, undo, cell, occ.with_frozen(false));
            }
        }
        for (_, below) in pos.stacks.iter_mut() {
            *below = below.with_frozen(false);
        }
    }

    /// Under `en_passant_expires owner_turn`, keeps the rights of earlier moves until the player who
    /// created them (the owner of the piece that would be taken) starts his next turn (the rest of
    /// his own turn included, with several moves per turn); a right whose piece has left its cell, or
    /// been taken, is gone.
    fn keep_en_passant_until_owner_turn(&self, pos: &mut Position, undo: &Undo, turn_over: bool) {
        let side = pos.side;
        let changed: Vec<usize> = undo.changed.undo_order().map(|(cell, _)| cell).collect();
        // A right ends when the owner of its piece starts a turn.
        let lasts = |occ: Occupant| !(occ.is_empty() || (turn_over && occ.owner() == side));
        let kept: Vec<(usize, usize)> = undo
            .en_passant
            .iter()
            .copied()
            .filter(|&(_, victim)| !changed.contains(&victim) && lasts(pos.cells[victim]))
            .collect();
        pos.en_passant
            .retain(|&(_, victim)| lasts(pos.cells[victim]));
        for right in kept {
            if !pos.en_passant.contains(&right) {
                pos.en_passant.push(right);
            }
        }
    }

    /// Drops the en-passant rights the player to move has no move to take (`en_passant_right
    /// when_capturable`).
    fn keep_capturable_en_passant(&self, pos: &mut Position) {
        let mut moves = Vec::new();
        self.generate_pseudo(pos, &mut moves);
        let rights = std::mem::take(&mut pos.en_passant);
        pos.en_passant = rights
            .into_iter()
            .filter(|&(target, victim)| {
                moves
                    .iter()
                    .any(|m| m.to as usize == target && m.aux as usize == victim)
            })
            .collect();
    }

    /// After a lame or initial leap, the cells it passed become en-passant targets.
    fn record_en_passant(&self, pos: &mut Position, from: usize, to: usize) {
        let (a, b) = (self.game.cells[from].coord, self.game.cells[to].coord);
        let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let steps = d.iter().map(|c| c.abs()).max().unwrap_or(0);
        let straight = d.iter().all(|&c| c == 0 || c.abs() == steps);
        if !straight || steps < 2 {
            return;
        }
        let unit = d.map(|c| c.signum());
        for k in 1..steps {
            if let Some(cell) = self.step_n(from, unit, k) {
                pos.en_passant.push((cell, to));
            }
        }
    }

    /// Where a player stands in the turn order.
    pub(super) fn turn_index(&self, player: usize) -> usize {
        self.turn_order
            .iter()
            .position(|&p| p == player)
            .unwrap_or(0)
    }

    /// The player who moves after `player`.
    pub(super) fn next_player(&self, player: usize) -> usize {
        let n = self.turn_order.len().max(1);
        self.turn_order
            .get((self.turn_index(player) + 1) % n)
            .copied()
            .unwrap_or(0)
    }

    /// The player who moved before `player`.
    pub(super) fn previous_player(&self, player: usize) -> usize {
        let n = self.turn_order.len().max(1);
        self.turn_order
            .get((self.turn_index(player) + n - 1) % n)
            .copied()
            .unwrap_or(0)
    }

    /// The player's partner (`partner`), if he plays in a team.
    pub fn partner(&self, player: usize) -> Option<usize> {
        self.game.players.get(player).and_then(|p| p.partner)
    }

    /// The nearest player before `player` in the turn order who plays against him: the previous
    /// player, skipping his partner (who may move between his opponents in a game of teams).
    pub(super) fn opponent_before(&self, player: usize) -> usize {
        let mut other = self.previous_player(player);
        if Some(other) == self.partner(player) {
            other = self.previous_player(other);
        }
        other
    }

    /// The nearest player after `player` in the turn order who plays against him.
    pub(super) fn opponent_after(&self, player: usize) -> usize {
        let mut other = self.next_player(player);
        if Some(other) == self.partner(player) {
            other = self.next_player(other);
        }
        other
    }
}

/// What a move must restore, saved before it: the move takes the en-passant rights out of the
/// position (they are made anew).
pub(super) fn save_state(pos: &mut Position) -> Undo {
    Undo {
        changed: super::position::ChangeLog::default(),
        hand_changes: Vec::new(),
        side: pos.side,
        en_passant: std::mem::take(&mut pos.en_passant),
        halfmove: pos.halfmove,
        fullmove: pos.fullmove,
        checks: pos.checks,
        hash: pos.hash,
        last: pos.last,
        passes: pos.passes,
        turn_moves: pos.turn_moves,
        eliminated: pos.eliminated,
        dropped_among: pos.dropped_among,
        mated_by: pos.mated_by,
        stacks: pos.stacks.clone(),
        captured: pos.captured.clone(),
        reset_in_turn: pos.reset_in_turn,
        count: pos.count,
    }
}
