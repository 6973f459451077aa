//! The recursive part of the search: principal-variation search over full-width plies with null-move
//! pruning, late-move reductions, futility pruning and check extensions; quiescence over captures
//! with static exchange evaluation; move ordering (the table's move, winning captures, killer
//! moves, history) and the bookkeeping shared by all of it (nodes, limits, principal variation).

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::table::{from_table, to_table, Bound, Entry, Table};
use super::{Evaluator, SearchResult, MATE, MATE_BOUND, MAX_DEPTH};
use crate::variant::Variant;

/// Beyond any score.
const INFINITY: i32 = 2 * MATE;
/// The most capture plies searched after the full-width ones.
const QUIESCENCE_DEPTH: u32 = 6;
/// The most captures tried in a quiescence node, best first. Without a bound, games where nearly
/// every move captures (Clobber, Antichess) would search their whole tree in quiescence.
const QUIESCENCE_WIDTH: usize = 4;
/// The deepest ply a line can reach: full-width plies with extensions, then quiescence plies.
const MAX_PLY: usize = 2 * MAX_DEPTH as usize + QUIESCENCE_DEPTH as usize;
/// How often the clock is read, at most: about once a millisecond (see [`ClockPoll`]).
const POLL_PERIOD: Duration = Duration::from_millis(1);
/// The most nodes between two readings of the clock, however fast nodes are.
const MAX_POLL_INTERVAL: u32 = 4096;
/// The least depth at which a null move is tried, and its reduction (plus a quarter of the depth).
const NULL_MOVE_DEPTH: u32 = 3;
const NULL_MOVE_REDUCTION: u32 = 2;
/// Late-move reductions: from this depth, after this many moves.
const LMR_DEPTH: u32 = 3;
const LMR_MOVES: usize = 3;
/// Futility margins per remaining ply (reverse futility at the node, futility of quiet moves).
const FUTILITY_MARGIN: i32 = 120;
const FUTILITY_DEPTH: u32 = 3;
/// Quiescence: captures that cannot bring the score near alpha even with this margin are skipped.
const DELTA_MARGIN: i32 = 200;
/// History scores are halved when one reaches this.
const HISTORY_LIMIT: i32 = 1 << 20;

/// Move-ordering keys: the table's move first, then winning and even captures by gain, then killer
/// moves, then quiet moves by history, then losing captures.
const TABLE_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;
const LOSING: i32 = -(1 << 28);

/// One search in progress.
pub(super) struct Tree<'a, V: Variant, E> {
    variant: &'a V,
    evaluator: &'a E,
    table: &'a mut Table<V::Move>,
    stop: &'a AtomicBool,
    /// When to give up.
    pub deadline: Option<Instant>,
    /// When to read the clock next.
    clock: ClockPoll,
    /// How many nodes to visit at most.
    pub node_limit: u64,
    /// Nodes visited.
    pub nodes: u64,
    /// Set when a limit was reached: every score computed since is meaningless.
    pub aborted: bool,
    root_player: usize,
    /// Whether the game is searched as the root player against a coalition of all the others.
    paranoid: bool,
    /// Mixed into hashes: paranoid scores depend on the root player.
    salt: u64,
    /// Hashes of the positions from the root to the current node, for repetitions.
    path: Vec<u64>,
    /// Principal variations by ply (a triangular table).
    pv: Vec<Vec<V::Move>>,
    killers: Vec<[Option<V::Move>; 2]>,
    /// Quiet moves that caused cut-offs, by [`Evaluator::history_index`].
    history: Vec<i32>,
    /// Move lists by ply, kept so that the search does not allocate per node.
    move_lists: Vec<Vec<V::Move>>,
    scored_lists: Vec<Vec<(V::Move, i32)>>,
    /// Scratch lists for the static exchange evaluation.
    exchange_lists: Vec<Vec<V::Move>>,
}

impl<'a, V: Variant, E: Evaluator<V>> Tree<'a, V, E> {
    /// Prepares a search from the root player's point of view.
    pub fn new(
        variant: &'a V,
        evaluator: &'a E,
        table: &'a mut Table<V::Move>,
        stop: &'a AtomicBool,
        root_player: usize,
    ) -> Self {
        let paranoid = evaluator.players() > 2;
        let plies = MAX_PLY + 2;
        Tree {
            variant,
            evaluator,
            table,
            stop,
            deadline: None,
            clock: ClockPoll::default(),
            node_limit: u64::MAX,
            nodes: 0,
            aborted: false,
            root_player,
            paranoid,
            salt: if paranoid {
                (root_player as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            } else {
                0
            },
            path: Vec::with_capacity(plies),
            pv: vec![Vec::new(); plies],
            killers: vec![[None; 2]; plies],
            history: vec![0; evaluator.history_size()],
            move_lists: vec![Vec::new(); plies],
            scored_lists: vec![Vec::new(); plies],
            exchange_lists: Vec::new(),
        }
    }

    /// Sorts the root moves: the table's move, then captures, then the rest.
    pub fn order_root(&mut self, position: &mut V::Position, root_moves: &mut [V::Move]) {
        let table_move = self.table.probe(self.key(position)).and_then(|e| e.best);
        let side = self.evaluator.side_to_move(position);
        let mut scored = Vec::with_capacity(root_moves.len());
        self.score_moves(position, side, root_moves, table_move, 0, &mut scored);
        scored.sort_by_key(|&(_, order)| Reverse(order));
        for (slot, (mv, _)) in root_moves.iter_mut().zip(scored) {
            *slot = mv;
        }
    }

    /// Searches every root move to `depth` plies and returns the best with its score, or `None` when
    /// stopped before the first move was searched. The best move is moved to the front for the next
    /// iteration.
    pub fn search_root(
        &mut self,
        position: &mut V::Position,
        root_moves: &mut Vec<V::Move>,
        depth: u32,
    ) -> Option<(V::Move, i32)> {
        let side = self.evaluator.side_to_move(position);
        let key = self.key(position);
        self.path.clear();
        self.path.push(key);
        let mut alpha = -INFINITY;
        let mut best = None;
        for (index, &mv) in root_moves.iter().enumerate() {
            let score = if index == 0 {
                self.child(position, mv, side, 1, depth - 1, alpha, INFINITY)
            } else {
                // Principal-variation search: prove the move worse with a null window first.
                let probe = self.child(position, mv, side, 1, depth - 1, alpha, alpha + 1);
                if probe > alpha && !self.aborted {
                    self.child(position, mv, side, 1, depth - 1, alpha, INFINITY)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if score > alpha || best.is_none() {
                alpha = alpha.max(score);
                best = Some((index, mv, score));
                self.set_pv(0, mv);
            }
        }
        self.path.clear();
        let (index, mv, score) = best?;
        let moved = root_moves.remove(index);
        root_moves.insert(0, moved);
        Some((mv, score))
    }

    /// Returns the principal variation of the last improvement at the root.
    pub fn root_pv(&self) -> Vec<V::Move> {
        self.pv[0].clone()
    }

    /// Halves the history scores between iterations, so that recent cut-offs count most.
    pub fn age_history(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Stores a completed iteration's result at the root, for the next search.
    pub fn store_root(
        &mut self,
        position: &V::Position,
        result: &SearchResult<V::Move>,
        depth: u32,
    ) {
        let key = self.key(position);
        self.table.store(Entry {
            key,
            best: result.best,
            score: to_table(result.score, 0),
            depth,
            bound: Bound::Exact,
        });
    }

    /// Scores a position without legal moves (or ended by the rules) for the side to move.
    pub fn terminal_score(&mut self, position: &mut V::Position, ply: usize) -> i32 {
        let side = self.evaluator.side_to_move(position);
        match self.variant.outcome(position).and_then(|r| r.winner) {
            None => 0,
            Some(winner) if self.team(winner) == self.team(side) => MATE - ply as i32,
            Some(_) => -MATE + ply as i32,
        }
    }

    /// The principal-variation search of a position to `depth` plies, scored for the side to move.
    fn negamax(
        &mut self,
        position: &mut V::Position,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.should_stop() {
            return 0;
        }
        if depth == 0 || ply >= MAX_PLY - QUIESCENCE_DEPTH as usize {
            return self.quiescence(position, ply, alpha, beta, QUIESCENCE_DEPTH);
        }
        self.nodes += 1;
        self.pv[ply].clear();
        let key = self.key(position);
        if self.path.contains(&key) || (ply > 0 && self.variant.repeats(position)) {
            // A repetition on the line searched, or of a position of the game: call it a draw rather
            // than go round in circles.
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let entry = self.table.probe(key);
        if let Some(entry) = entry.filter(|e| e.depth >= depth) {
            let score = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable && (!pv_node || entry.bound == Bound::Exact) {
                return score;
            }
        }

        let in_check = self.variant.in_check(position);
        let side = self.evaluator.side_to_move(position);
        let two_sided = !self.paranoid;
        let static_score = if in_check {
            -INFINITY
        } else {
            self.static_score(position)
        };
        if two_sided && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left, the position will hold.
            if depth <= FUTILITY_DEPTH && static_score - FUTILITY_MARGIN * depth as i32 >= beta {
                return static_score;
            }
            // Null move: even passing the turn keeps the score above beta.
            if depth >= NULL_MOVE_DEPTH
                && static_score >= beta
                && self.evaluator.null_move_allowed(position)
            {
                if let Some(undo) = self.variant.make_null(position) {
                    let reduction = NULL_MOVE_REDUCTION + depth / 4;
                    self.path.push(key);
                    let score = -self.negamax(
                        position,
                        depth.saturating_sub(1 + reduction),
                        ply + 1,
                        -beta,
                        -beta + 1,
                    );
                    self.path.pop();
                    self.variant.unmake_null(position, undo);
                    if self.aborted {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        self.variant.legal_moves(position, &mut moves);
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return self.terminal_score(position, ply);
        }
        let mut scored = std::mem::take(&mut self.scored_lists[ply]);
        scored.clear();
        self.score_moves(
            position,
            side,
            &moves,
            entry.and_then(|e| e.best),
            ply,
            &mut scored,
        );
        self.move_lists[ply] = moves;
        scored.sort_by_key(|&(_, order)| Reverse(order));

        // Futility: with a quiet move unable to lift the score to alpha, only forcing moves are tried.
        let futile = two_sided
            && !pv_node
            && !in_check
            && depth <= FUTILITY_DEPTH
            && alpha.abs() < MATE_BOUND
            && static_score + FUTILITY_MARGIN * depth as i32 <= alpha;

        self.path.push(key);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        for index in 0..scored.len() {
            let (mv, order) = scored[index];
            let quiet = order < KILLER && order > LOSING;
            let undo = self.variant.make(position, mv);
            let gives_check = self.variant.in_check(position);
            if futile && quiet && searched > 0 && !gives_check {
                self.variant.unmake(position, mv, undo);
                continue;
            }
            // A move that checks is searched a ply deeper.
            let extension = u32::from(gives_check && ply < 2 * depth as usize + 4);
            let new_depth = depth - 1 + extension;
            let score = if searched == 0 {
                self.search_made(position, side, ply + 1, new_depth, alpha, beta)
            } else {
                // Late quiet moves are searched shallower first; a null window proves the rest worse.
                let reduction = if depth >= LMR_DEPTH
                    && searched >= LMR_MOVES
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    let r = lmr(depth, searched) + u32::from(!pv_node);
                    r.min(new_depth.saturating_sub(1))
                } else {
                    0
                };
                let mut score = self.search_made(
                    position,
                    side,
                    ply + 1,
                    new_depth - reduction,
                    alpha,
                    alpha + 1,
                );
                if score > alpha && reduction > 0 && !self.aborted {
                    score = self.search_made(position, side, ply + 1, new_depth, alpha, alpha + 1);
                }
                if score > alpha && score < beta && pv_node && !self.aborted {
                    score = self.search_made(position, side, ply + 1, new_depth, alpha, beta);
                }
                score
            };
            self.variant.unmake(position, mv, undo);
            searched += 1;
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            if score > alpha {
                alpha = score;
                self.set_pv(ply, mv);
            }
            if alpha >= beta {
                if quiet {
                    self.add_killer(ply, mv);
                    self.reward(position, mv, depth, &scored[..index]);
                }
                break;
            }
        }
        self.path.pop();
        self.scored_lists[ply] = scored;
        if self.aborted {
            return 0;
        }
        if best == -INFINITY {
            // Every move was pruned as futile (never the first): the static score stands.
            best = static_score.max(original_alpha);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            key,
            best: best_move,
            score: to_table(best, ply),
            depth,
            bound,
        });
        best
    }

    /// Searches a captures-only tree until the position is quiet, standing pat on the static score.
    fn quiescence(
        &mut self,
        position: &mut V::Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.pv[ply].clear();
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        // Only captures matter here: ask for them when the game can tell them apart.
        let captures_only = self.variant.legal_captures(position, &mut moves);
        let stuck = if captures_only {
            moves.is_empty() && !self.variant.has_legal_move(position)
        } else {
            self.variant.legal_moves(position, &mut moves);
            moves.is_empty()
        };
        if stuck {
            self.move_lists[ply] = moves;
            return self.terminal_score(position, ply);
        }
        let stand_pat = self.static_score(position);
        if depth == 0 || ply >= MAX_PLY || stand_pat >= beta {
            self.move_lists[ply] = moves;
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);

        let side = self.evaluator.side_to_move(position);
        let before = self.evaluator.material(position, side);
        let mut captures = std::mem::take(&mut self.scored_lists[ply]);
        captures.clear();
        for &mv in &moves {
            let gain = self.gain(position, mv, side, before);
            if gain > 0 && (self.paranoid || stand_pat + gain + DELTA_MARGIN > alpha) {
                captures.push((mv, gain));
            }
        }
        captures.sort_by_key(|&(_, gain)| Reverse(gain));
        let mut best = stand_pat;
        let mut tried = 0;
        for &(mv, _) in &captures {
            if tried >= QUIESCENCE_WIDTH {
                break;
            }
            // Captures that lose material in the exchange cannot raise the score.
            if !self.paranoid && self.exchange(position, mv, &mut moves) < 0 {
                continue;
            }
            tried += 1;
            let score = self.child_quiescence(position, mv, side, ply + 1, depth - 1, alpha, beta);
            if self.aborted {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.move_lists[ply] = moves;
        self.scored_lists[ply] = captures;
        if self.aborted {
            0
        } else {
            best
        }
    }

    /// Plays `mv`, searches the position reached to `depth` and takes the move back.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        position: &mut V::Position,
        mv: V::Move,
        side: usize,
        ply: usize,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let undo = self.variant.make(position, mv);
        let extension = u32::from(self.variant.in_check(position));
        let score = self.search_made(position, side, ply, depth + extension, alpha, beta);
        self.variant.unmake(position, mv, undo);
        score
    }

    /// Plays a capture, searches the position reached by quiescence to `depth` and takes it back.
    #[allow(clippy::too_many_arguments)]
    fn child_quiescence(
        &mut self,
        position: &mut V::Position,
        mv: V::Move,
        side: usize,
        ply: usize,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let undo = self.variant.make(position, mv);
        let (same, low, high) = self.window(position, side, alpha, beta);
        let score = self.quiescence(position, ply, low, high, depth);
        self.variant.unmake(position, mv, undo);
        if same {
            score
        } else {
            -score
        }
    }

    /// Searches the position reached by a move of `side` (already made) to `depth`. The score is for
    /// `side`: it changes sign only when the turn passes to the other team.
    fn search_made(
        &mut self,
        position: &mut V::Position,
        side: usize,
        ply: usize,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (same, low, high) = self.window(position, side, alpha, beta);
        let score = self.negamax(position, depth, ply, low, high);
        if same {
            score
        } else {
            -score
        }
    }

    /// Whether the player to move now plays for `side`'s team, and the window from his side.
    fn window(
        &self,
        position: &V::Position,
        side: usize,
        alpha: i32,
        beta: i32,
    ) -> (bool, i32, i32) {
        let same_team = self.team(self.evaluator.side_to_move(position)) == self.team(side);
        if same_team {
            (true, alpha, beta)
        } else {
            (false, -beta, -alpha)
        }
    }

    /// The static exchange evaluation of a capture: what it wins once both sides have recaptured on
    /// its target cell with their least valuable pieces for as long as that pays. Moves that are not
    /// plain captures count as even.
    fn exchange(
        &mut self,
        position: &mut V::Position,
        mv: V::Move,
        scratch: &mut Vec<V::Move>,
    ) -> i32 {
        let Some(capture) = self.evaluator.capture(position, mv) else {
            return 0;
        };
        if capture.attacker <= capture.victim {
            return capture.victim - capture.attacker;
        }
        let _ = scratch;
        let mut lists = std::mem::take(&mut self.exchange_lists);
        let mut gains = [0i32; 16];
        gains[0] = capture.victim;
        let mut on_cell = capture.attacker;
        let mut made = Vec::with_capacity(8);
        let undo = self.variant.make(position, mv);
        made.push((mv, undo));
        let mut depth = 1;
        while depth < gains.len() {
            if lists.len() < depth {
                lists.push(Vec::new());
            }
            let replies = &mut lists[depth - 1];
            replies.clear();
            if !self.variant.legal_captures(position, replies) {
                self.variant.legal_moves(position, replies);
            }
            let mut cheapest: Option<(V::Move, i32)> = None;
            for &reply in replies.iter() {
                if let Some(c) = self.evaluator.capture(position, reply) {
                    if c.to == capture.to && cheapest.is_none_or(|(_, v)| c.attacker < v) {
                        cheapest = Some((reply, c.attacker));
                    }
                }
            }
            let Some((reply, attacker)) = cheapest else {
                break;
            };
            gains[depth] = on_cell - gains[depth - 1];
            on_cell = attacker;
            let undo = self.variant.make(position, reply);
            made.push((reply, undo));
            depth += 1;
        }
        while let Some((m, undo)) = made.pop() {
            self.variant.unmake(position, m, undo);
        }
        self.exchange_lists = lists;
        while depth > 1 {
            depth -= 1;
            gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        }
        gains[0]
    }

    /// Gives each move its ordering key.
    fn score_moves(
        &mut self,
        position: &mut V::Position,
        side: usize,
        moves: &[V::Move],
        table_move: Option<V::Move>,
        ply: usize,
        out: &mut Vec<(V::Move, i32)>,
    ) {
        let before = self.evaluator.material(position, side);
        let killers = self.killers[ply];
        let mut scratch = Vec::new();
        for &mv in moves {
            let order = if Some(mv) == table_move {
                TABLE_MOVE
            } else {
                let gain = self.gain(position, mv, side, before);
                if gain > 0 {
                    let losing = self
                        .evaluator
                        .capture(position, mv)
                        .is_some_and(|c| c.attacker > c.victim)
                        && !self.paranoid
                        && self.exchange(position, mv, &mut scratch) < 0;
                    if losing {
                        LOSING + gain.min(KILLER - 1)
                    } else {
                        CAPTURE + gain.min(CAPTURE - 1)
                    }
                } else if killers[0] == Some(mv) {
                    KILLER + 1
                } else if killers[1] == Some(mv) {
                    KILLER
                } else {
                    self.evaluator
                        .history_index(position, mv)
                        .and_then(|i| self.history.get(i))
                        .copied()
                        .unwrap_or(0)
                }
            };
            out.push((mv, order));
        }
    }

    /// Credits a quiet move that caused a cut-off, and debits the quiet moves tried before it.
    fn reward(
        &mut self,
        position: &V::Position,
        mv: V::Move,
        depth: u32,
        before: &[(V::Move, i32)],
    ) {
        let bonus = (depth * depth) as i32;
        if let Some(i) = self.evaluator.history_index(position, mv) {
            if let Some(h) = self.history.get_mut(i) {
                *h += bonus;
                if *h >= HISTORY_LIMIT {
                    self.history.iter_mut().for_each(|h| *h /= 2);
                }
            }
        }
        for &(other, order) in before {
            if order < KILLER && order > LOSING {
                if let Some(i) = self.evaluator.history_index(position, other) {
                    if let Some(h) = self.history.get_mut(i) {
                        *h = (*h - bonus).max(0);
                    }
                }
            }
        }
    }

    /// How much material the mover gains by playing `mv`.
    fn gain(&self, position: &mut V::Position, mv: V::Move, side: usize, before: i32) -> i32 {
        if let Some(gain) = self.evaluator.move_gain(position, mv) {
            return gain;
        }
        let undo = self.variant.make(position, mv);
        let after = self.evaluator.material(position, side);
        self.variant.unmake(position, mv, undo);
        after - before
    }

    /// The static score for the side to move: in paranoid search, the root player's score (with his
    /// partner's, in a game of teams), negated for the coalition.
    fn static_score(&self, position: &V::Position) -> i32 {
        let side = self.evaluator.side_to_move(position);
        if self.paranoid {
            let mut score = self.evaluator.evaluate(position, self.root_player);
            if let Some(partner) = self.variant.partner(self.root_player) {
                score += self.evaluator.evaluate(position, partner);
            }
            if self.team(side) == 0 {
                score
            } else {
                -score
            }
        } else {
            self.evaluator.evaluate(position, side)
        }
    }

    /// The team a player plays for: itself, or in paranoid search the root player (and his partner, in
    /// a game of teams) or the coalition.
    fn team(&self, player: usize) -> usize {
        if self.paranoid {
            let ours = player == self.root_player
                || self.variant.partner(self.root_player) == Some(player);
            usize::from(!ours)
        } else {
            player
        }
    }

    fn key(&self, position: &V::Position) -> u64 {
        self.variant.hash(position) ^ self.salt
    }

    fn set_pv(&mut self, ply: usize, mv: V::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn add_killer(&mut self, ply: usize, mv: V::Move) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }

    /// Tells whether the search must stop: the stop flag is read at every node, the clock about once a
    /// millisecond, so that a stop or the deadline is noticed at once however slow nodes are.
    fn should_stop(&mut self) -> bool {
        if !self.aborted {
            self.aborted = self.nodes >= self.node_limit
                || self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| self.clock.passed(d));
        }
        self.aborted
    }
}

/// Decides when to read the clock: every `interval` calls, where the interval adapts so that readings
/// come about every [`POLL_PERIOD`], whether a node takes nanoseconds or milliseconds.
struct ClockPoll {
    /// Calls left before the next reading.
    countdown: u32,
    /// Calls between two readings.
    interval: u32,
    /// The last reading.
    last: Option<Instant>,
}

impl Default for ClockPoll {
    fn default() -> Self {
        ClockPoll {
            countdown: 1,
            interval: 1,
            last: None,
        }
    }
}

impl ClockPoll {
    /// Tells whether `deadline` has passed, reading the clock only when the countdown runs out.
    fn passed(&mut self, deadline: Instant) -> bool {
        self.countdown -= 1;
        if self.countdown > 0 {
            return false;
        }
        let now = Instant::now();
        if let Some(last) = self.last {
            let since = now.saturating_duration_since(last);
            if since > 2 * POLL_PERIOD {
                self.interval = (self.interval / 2).max(1);
            } else if since < POLL_PERIOD / 2 {
                self.interval = (self.interval * 2).min(MAX_POLL_INTERVAL);
            }
        }
        self.last = Some(now);
        self.countdown = self.interval;
        now >= deadline
    }
}

/// The late-move reduction for a move searched after `moves` others at `depth`.
fn lmr(depth: u32, moves: usize) -> u32 {
    let r = (f64::from(depth).ln() * (moves as f64).ln() / 2.2) as u32;
    r.max(1)
}
