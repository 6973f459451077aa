//! The recursive part of the search: alpha-beta over full-width plies, quiescence over captures, move
//! ordering and the bookkeeping shared by both (nodes, limits, principal variation, killer moves).

use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::table::{from_table, to_table, Bound, Entry, Table};
use super::{Evaluator, SearchResult, MATE, MAX_DEPTH};
use crate::variant::Variant;

/// Beyond any score.
const INFINITY: i32 = 2 * MATE;
/// The most capture plies searched after the full-width ones.
const QUIESCENCE_DEPTH: u32 = 6;
/// The most captures tried in a quiescence node, largest gains first. Without a bound, games where
/// nearly every move captures (Clobber, Antichess) would search their whole tree in quiescence.
const QUIESCENCE_WIDTH: usize = 4;
/// The deepest ply a line can reach: full-width plies, then quiescence plies.
const MAX_PLY: usize = MAX_DEPTH as usize + QUIESCENCE_DEPTH as usize;
/// How often (in nodes, a power of two) the clock and the stop flag are read.
const POLL_INTERVAL: u64 = 256;

/// Move-ordering keys: the table's move first, then captures by gain, then killer moves, then the rest
/// in generation order.
const TABLE_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 29;
const KILLER: i32 = 1 << 28;

/// How a child position is searched.
#[derive(Clone, Copy)]
enum Next {
    /// Full width, this many plies.
    Full(u32),
    /// Captures only, at most this many plies.
    Quiescence(u32),
}

/// One search in progress.
pub(super) struct Tree<'a, V: Variant, E> {
    variant: &'a V,
    evaluator: &'a E,
    table: &'a mut Table<V::Move>,
    stop: &'a AtomicBool,
    /// When to give up.
    pub deadline: Option<Instant>,
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
    /// Move lists by ply, kept so that the search does not allocate per node.
    move_lists: Vec<Vec<V::Move>>,
    scored_lists: Vec<Vec<(V::Move, i32)>>,
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
            move_lists: vec![Vec::new(); plies],
            scored_lists: vec![Vec::new(); plies],
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
            let score = self.child(
                position,
                mv,
                side,
                1,
                Next::Full(depth - 1),
                alpha,
                INFINITY,
            );
            if self.aborted {
                break;
            }
            if score > alpha {
                alpha = score;
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

    /// The alpha-beta search of a position to `depth` plies, scored for the side to move.
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
        if depth == 0 || ply >= MAX_PLY {
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
        let entry = self.table.probe(key);
        if let Some(entry) = entry.filter(|e| e.depth >= depth) {
            let score = from_table(entry.score, ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        self.variant.legal_moves(position, &mut moves);
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return self.terminal_score(position, ply);
        }
        let side = self.evaluator.side_to_move(position);
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

        self.path.push(key);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for &(mv, order) in &scored {
            let score = self.child(
                position,
                mv,
                side,
                ply + 1,
                Next::Full(depth - 1),
                alpha,
                beta,
            );
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
                if order < CAPTURE {
                    self.add_killer(ply, mv);
                }
                break;
            }
        }
        self.path.pop();
        self.scored_lists[ply] = scored;
        if self.aborted {
            return 0;
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

    /// Searches captures only until the position is quiet, standing pat on the static score.
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
        if !self.variant.has_legal_move(position) {
            return self.terminal_score(position, ply);
        }
        let stand_pat = self.static_score(position);
        if depth == 0 || ply >= MAX_PLY || stand_pat >= beta {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        // Only captures matter here: ask for them when the game can tell them apart.
        if !self.variant.legal_captures(position, &mut moves) {
            self.variant.legal_moves(position, &mut moves);
        }
        alpha = alpha.max(stand_pat);

        let side = self.evaluator.side_to_move(position);
        let before = self.evaluator.material(position, side);
        let mut captures = std::mem::take(&mut self.scored_lists[ply]);
        captures.clear();
        for &mv in &moves {
            let gain = self.gain(position, mv, side, before);
            if gain > 0 {
                captures.push((mv, gain));
            }
        }
        self.move_lists[ply] = moves;
        captures.sort_by_key(|&(_, gain)| Reverse(gain));
        captures.truncate(QUIESCENCE_WIDTH);

        let mut best = stand_pat;
        for &(mv, _) in &captures {
            let score = self.child(
                position,
                mv,
                side,
                ply + 1,
                Next::Quiescence(depth - 1),
                alpha,
                beta,
            );
            if self.aborted {
                break;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.scored_lists[ply] = captures;
        if self.aborted {
            0
        } else {
            best
        }
    }

    /// Plays `mv`, searches the position reached and takes the move back. The score is for `side`: it
    /// changes sign only when the turn passes to the other team.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        position: &mut V::Position,
        mv: V::Move,
        side: usize,
        ply: usize,
        next: Next,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let undo = self.variant.make(position, mv);
        let same_team = self.team(self.evaluator.side_to_move(position)) == self.team(side);
        let (low, high) = if same_team {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let score = match next {
            Next::Full(depth) => self.negamax(position, depth, ply, low, high),
            Next::Quiescence(depth) => self.quiescence(position, ply, low, high, depth),
        };
        self.variant.unmake(position, mv, undo);
        if same_team {
            score
        } else {
            -score
        }
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
        for &mv in moves {
            let order = if Some(mv) == table_move {
                TABLE_MOVE
            } else {
                let gain = self.gain(position, mv, side, before);
                if gain > 0 {
                    CAPTURE + gain.min(CAPTURE - 1)
                } else if killers[0] == Some(mv) {
                    KILLER + 1
                } else if killers[1] == Some(mv) {
                    KILLER
                } else {
                    0
                }
            };
            out.push((mv, order));
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

    /// The static score for the side to move: in paranoid search, the root player's score, negated for
    /// the coalition.
    fn static_score(&self, position: &V::Position) -> i32 {
        let side = self.evaluator.side_to_move(position);
        if self.paranoid {
            let score = self.evaluator.evaluate(position, self.root_player);
            if side == self.root_player {
                score
            } else {
                -score
            }
        } else {
            self.evaluator.evaluate(position, side)
        }
    }

    /// The team a player plays for: itself, or in paranoid search the root player or the coalition.
    fn team(&self, player: usize) -> usize {
        if self.paranoid {
            usize::from(player != self.root_player)
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

    /// Tells whether the search must stop, reading the clock and the stop flag now and then.
    fn should_stop(&mut self) -> bool {
        if !self.aborted {
            let polled = self.nodes & (POLL_INTERVAL - 1) == 0
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d));
            self.aborted = polled || self.nodes >= self.node_limit;
        }
        self.aborted
    }
}
