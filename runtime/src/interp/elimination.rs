//! Games that go on after a player is checkmated: elimination (`rule ... { on checkmate; eliminate
//! checkmated }`), the checkmate test at the start of a turn (`turn { checkmate_test
//! attacked_at_turn_start }`), a shared reserve that promotions draw from and eliminated armies refill
//! (`promote ... from RESERVE`, `send all of checkmated RESERVE`), promotion on capture (`rule ... {
//! on capture; when ...; transform mover PIECE from RESERVE }`), and the end lines these games need
//! (`last_survivor`, `formation`) with their scores (`scoring { ... }`).
//!
//! Everything a turn's start does is played inside `make` (through the change log, so unmake restores
//! it): after a move, unless the move ended the game, the player to move first checkmates every other
//! player whose royal piece he attacks, then, if he is in check with no legal move, is eliminated
//! himself and the next player's turn starts the same way. A position therefore always has a player to
//! move with a legal move, or is a finished game.

use crate::model::{CheckmateTest, Effect, EndKind, Event, Game, PlayerExpr, RankGroup};
use crate::variant::GameResult;

use super::position::{MoveKind, Position, Undo};
use super::tables::Interpreter;

thread_local! {
    /// Set while a turn's start is being played, when moves are only tried.
    static PROBING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with moves only tried: a move made meanwhile does not play the next turn's start.
pub(super) fn probing<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            PROBING.with(|p| p.set(self.0));
        }
    }
    let _restore = Restore(PROBING.with(|p| p.replace(true)));
    f()
}

/// The elimination rules of a game, read once from the model.
#[derive(Clone, Debug, Default)]
pub(super) struct Elimination {
    /// Whether checkmate may eliminate the player instead of ending the game (a rule `on
    /// checkmate` says `eliminate checkmated`; under a condition, a checkmate eliminates when it
    /// holds).
    pub(super) enabled: bool,
    /// Whether the player about to move checkmates every player whose royal piece he attacks.
    attacked_at_turn_start: bool,
}

impl Elimination {
    pub(super) fn from_game(game: &Game) -> Elimination {
        Elimination {
            attacked_at_turn_start: game.turn.checkmate_test == CheckmateTest::AttackedAtTurnStart,
            enabled: game.rules.iter().any(|rule| {
                rule.events.contains(&Event::Checkmate)
                    && rule
                        .effects
                        .iter()
                        .any(|e| matches!(e.item, Effect::Eliminate(PlayerExpr::Checkmated)))
            }),
        }
    }
}

impl Interpreter {
    /// The row of `pos.hands` a reserve uses for `player`: the shared row, or the player's own.
    pub(super) fn reserve_row(&self, pos: &Position, reserve: usize, player: usize) -> usize {
        if self
            .game
            .reserves
            .get(reserve)
            .is_some_and(|r| r.per_player)
        {
            player
        } else {
            pos.hands.len() - 1
        }
    }

    /// The players still in the game.
    pub(super) fn survivors(&self, pos: &Position) -> usize {
        (0..self.players).filter(|&p| !pos.is_eliminated(p)).count()
    }

    /// Who made the last move: the owner of the piece on its target (the previous player when the
    /// position has no last move or the game eliminates nobody).
    pub(super) fn last_mover(&self, pos: &Position) -> usize {
        if self.elimination.enabled {
            if let Some(mv) = pos.last {
                if matches!(
                    mv.kind,
                    MoveKind::Normal | MoveKind::Castle | MoveKind::Drop
                ) {
                    let occ = pos.cells[mv.to as usize];
                    if !occ.is_empty() {
                        return occ.owner();
                    }
                }
            }
        }
        self.previous_player(pos.side)
    }

    /// Plays a checkmate of `victim` by `mater` (`None`: a player in check with no legal move, who
    /// drops out by himself) as the checkmate rule says, statement by statement, and marks the
    /// victim out when an `eliminate` effect ran (returned). `delivering` are the cells of the
    /// mater's pieces that attacked the victim's royal piece when the checkmate was found; `among` is
    /// how many players were in the game then.
    fn checkmate(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        mater: Option<usize>,
        victim: usize,
        delivering: &[usize],
        among: usize,
    ) -> bool {
        let out = self.run_checkmate_rules(pos, undo, mater, victim, delivering);
        if out {
            pos.eliminated |= 1 << victim;
            pos.dropped_among[victim] = among as u8;
            pos.mated_by[victim] = mater.map_or(0, |m| m as u8 + 1);
        }
        out
    }

    /// The cells of `by`'s pieces that attack `cell` (the pieces delivering a checkmate).
    fn attackers_of(&self, pos: &Position, cell: usize, by: usize) -> Vec<usize> {
        let mut attacks = Vec::new();
        (0..pos.cells.len())
            .filter(|&c| {
                let occ = pos.cells[c];
                if occ.is_empty() || occ.owner() != by {
                    return false;
                }
                attacks.clear();
                self.piece_moves(pos, c, occ, by, true, &mut attacks);
                attacks.iter().any(|m| m.to as usize == cell)
            })
            .collect()
    }

    /// Whether a line of the end block that is about the move just made ends the game now.
    fn ended_by_move(&self, pos: &Position) -> bool {
        self.game
            .end
            .iter()
            .filter(|r| {
                !matches!(
                    r.kind,
                    EndKind::Repetition(_)
                        | EndKind::LastSurvivor
                        | EndKind::Checkmate
                        | EndKind::Stalemate
                        | EndKind::NoMoves
                )
            })
            .filter(|r| self.rule_applies(pos, r))
            .any(|r| self.immediate_rule(pos, r).is_some())
    }

    /// The start of the next turns after a move (the state hash is out of `pos.hash` while this runs):
    /// checkmates by the player about to move, then, for a player in check without a legal move, his
    /// elimination and the next player's turn.
    pub(super) fn start_turns(&self, pos: &mut Position, undo: &mut Undo) {
        // Moves played to test legality (inside this very procedure, too) need only the board after
        // them: the next turn's start is not played for them.
        if PROBING.with(|p| p.get()) || self.ended_by_move(pos) {
            return;
        }
        probing(|| self.start_turns_now(pos, undo));
    }

    /// Plays the start of the turn of the side to move on a position that does not have it played
    /// yet: checkmates of every player whose royal piece the side to move attacks, with what they do
    /// (a position text always holds a position after it, so this is for positions set up to be
    /// before it, such as a specification's "position at the start of the turn").
    pub fn start_turn(&self, pos: &mut Position) {
        let mut undo = super::make::save_state(pos);
        pos.en_passant = undo.en_passant.clone();
        if self.elimination.enabled {
            probing(|| self.start_turns_now(pos, &mut undo));
        }
        pos.hash = self.compute_hash(pos);
    }

    /// Plays the start of the turn of the side to move after a move, as `make_move` does unless the
    /// move ended the game: for compact engines, which leave it to the interpreter.
    pub fn play_turn_start(&self, pos: &mut Position) {
        if self.elimination.enabled && !self.ended_by_move(pos) {
            self.start_turn(pos);
        }
    }

    fn start_turns_now(&self, pos: &mut Position, undo: &mut Undo) {
        loop {
            let side = pos.side;
            if self.elimination.attacked_at_turn_start {
                // One look at the position: every other player whose royal piece the player about to
                // move attacks, in turn order from the next player, with the attacking pieces.
                let mut order = Vec::new();
                let mut next = self.next_player(side);
                while next != side && order.len() < self.players {
                    order.push(next);
                    next = self.next_player(next);
                }
                let victims: Vec<(usize, Vec<usize>)> = order
                    .into_iter()
                    .filter(|&o| !pos.is_eliminated(o))
                    .filter_map(|o| {
                        let royal = pos.cells.iter().enumerate().find(|(cell, occ)| {
                            !occ.is_empty()
                                && occ.owner() == o
                                && self.is_royal_at(pos, *cell)
                                && self.cell_attacked(pos, *cell, side)
                        })?;
                        Some((o, self.attackers_of(pos, royal.0, side)))
                    })
                    .collect();
                let among = self.survivors(pos);
                for (victim, delivering) in &victims {
                    self.checkmate(pos, undo, Some(side), *victim, delivering, among);
                }
            }
            if self.survivors(pos) <= 1 || self.pass_when_stuck {
                return;
            }
            if !self.royal_attacked(pos, side) || self.any_legal(pos) {
                return;
            }
            let among = self.survivors(pos);
            if !self.checkmate(pos, undo, None, side, &[], among) {
                // Not eliminated (the `eliminate` line's condition did not hold): the player stays
                // to move, checkmated, and the end lines decide.
                return;
            }
            if self.survivors(pos) <= 1 {
                return;
            }
            let mut next = self.next_player(side);
            while pos.is_eliminated(next) {
                next = self.next_player(next);
            }
            pos.side = next;
        }
    }

    /// `last_survivor`: one player is left.
    pub(super) fn last_survivor(&self, pos: &Position) -> Option<usize> {
        let mut alive = (0..self.players).filter(|&p| !pos.is_eliminated(p));
        match (alive.next(), alive.next()) {
            (Some(p), None) if pos.eliminated != 0 => Some(p),
            _ => None,
        }
    }

    /// `formation WxH [PIECES]`: one piece of each listed type of `player` fills a W×H rectangle.
    pub(super) fn formation(
        &self,
        pos: &Position,
        (w, h): (u32, u32),
        pieces: &[usize],
        player: usize,
    ) -> bool {
        let (w, h) = (w as i32, h as i32);
        let mut wanted = pieces.to_vec();
        wanted.sort_unstable();
        if wanted.len() != (w * h) as usize {
            return false;
        }
        for (cell, occ) in pos.cells.iter().enumerate() {
            // Only rectangles whose lower-left cell holds one of the player's pieces.
            if occ.is_empty() || occ.owner() != player || !wanted.contains(&occ.piece()) {
                continue;
            }
            let mut found = Vec::with_capacity(wanted.len());
            'cells: for dy in 0..h {
                for dx in 0..w {
                    match self.step(cell, [dx, dy, 0]) {
                        Some(c) if !pos.cells[c].is_empty() && pos.cells[c].owner() == player => {
                            found.push(pos.cells[c].piece())
                        }
                        _ => break 'cells,
                    }
                }
            }
            found.sort_unstable();
            if found == wanted {
                return true;
            }
        }
        false
    }

    /// The places of the players when the game ended with `result`, by the end block's `ranking`
    /// line: for each player the first and last place he shares (`(3, 4)`: third and fourth shared).
    /// The line lists groups in order: `winner`; `remaining`, the other players still in the game,
    /// sharing; `reverse_elimination`, the eliminated players, the last eliminated first, those
    /// eliminated in the same turn sharing. Players no group names share the last places. `None`
    /// when the game has no ranking line.
    pub fn ranking(&self, pos: &Position, result: &GameResult) -> Option<Vec<(usize, usize)>> {
        if self.game.ranking.is_empty() {
            return None;
        }
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let alive = |p: &usize| !pos.is_eliminated(*p);
        for group in &self.game.ranking {
            match group {
                RankGroup::Winner => groups.extend(result.winner.map(|w| vec![w])),
                RankGroup::Remaining => groups.push(
                    (0..self.players)
                        .filter(alive)
                        .filter(|&p| Some(p) != result.winner)
                        .collect(),
                ),
                RankGroup::ReverseElimination => {
                    let mut out: Vec<usize> = (0..self.players)
                        .filter(|p| pos.is_eliminated(*p))
                        .collect();
                    out.sort_by_key(|&p| pos.dropped_among[p]);
                    for p in out {
                        match groups.last_mut() {
                            Some(g)
                                if g.first().is_some_and(|&q| {
                                    pos.is_eliminated(q)
                                        && pos.dropped_among[q] == pos.dropped_among[p]
                                }) =>
                            {
                                g.push(p)
                            }
                            _ => groups.push(vec![p]),
                        }
                    }
                }
            }
        }
        let placed: Vec<usize> = groups.iter().flatten().copied().collect();
        groups.push((0..self.players).filter(|p| !placed.contains(p)).collect());
        let mut places = vec![(0, 0); self.players];
        let mut next = 1;
        for group in groups.iter().filter(|g| !g.is_empty()) {
            for &p in group {
                places[p] = (next, next + group.len() - 1);
            }
            next += group.len();
        }
        Some(places)
    }

    /// The points of each player when the game ended with `result`, by the `scoring` block: a player
    /// who dropped out while N players were in the game scores `drop_out N`; when a player wins, the
    /// other players still in the game drop out together; the winner takes `total` minus the others'
    /// points (`winner remainder`); in a draw the players still in the game share what is left (`draw
    /// share`). `None` when the game has no scoring block.
    pub fn scores(&self, pos: &Position, result: &GameResult) -> Option<Vec<f64>> {
        let scoring = self.game.scoring.as_ref()?;
        let total = scoring.total as f64;
        let drop_out: Vec<(usize, f64)> = scoring
            .drop_out
            .iter()
            .map(|&(n, p)| (n as usize, p as f64))
            .collect();
        let points_among = |n: usize| {
            drop_out
                .iter()
                .find(|(m, _)| *m == n)
                .map_or(0.0, |(_, p)| *p)
        };
        let mut scores = vec![0.0; self.players];
        let alive: Vec<usize> = (0..self.players)
            .filter(|&p| !pos.is_eliminated(p))
            .collect();
        for p in (0..self.players).filter(|&p| pos.is_eliminated(p)) {
            scores[p] = points_among(pos.dropped_among[p] as usize);
        }
        match result.winner {
            Some(w) => {
                for &p in alive.iter().filter(|&&p| p != w) {
                    scores[p] = points_among(alive.len());
                }
                let others: f64 = (0..self.players)
                    .filter(|&p| p != w)
                    .map(|p| scores[p])
                    .sum();
                scores[w] = total - others;
            }
            None => {
                let spent: f64 = scores.iter().sum();
                for &p in &alive {
                    scores[p] = (total - spent) / alive.len() as f64;
                }
            }
        }
        Some(scores)
    }
}
