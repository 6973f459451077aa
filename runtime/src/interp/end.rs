//! Game end: the end rules that hold automatically, in the order the rule file gives them.

use crate::model::{Counting, EndKind, EndRule, EndTiming, Outcome, Subject};
use crate::variant::GameResult;

use super::conditions::Scope;
use super::position::{MoveKind, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Decides whether the game has ended: first the rules about the position reached, then, when the
    /// side to move has no legal move, checkmate, stalemate or no-moves rules.
    ///
    /// The rules are tried in the order the rule file gives them, so that, say, a checkmate listed
    /// before the move rule wins over it.
    pub(super) fn decide(&self, pos: &mut Position) -> Option<GameResult> {
        // A player who cannot move passes under `pass when_stuck`: nobody is ever stuck.
        let stuck = !self.pass_when_stuck && !self.any_legal(pos);
        for rule in self.game.end.iter().filter(|r| self.rule_applies(pos, r)) {
            if matches!(
                rule.kind,
                EndKind::Checkmate | EndKind::Stalemate | EndKind::NoMoves
            ) {
                if stuck {
                    if let Some(result) = self.no_move_rule(pos, rule) {
                        return Some(result);
                    }
                }
            } else if let Some(result) = self.immediate_rule(pos, rule) {
                return Some(result);
            }
        }
        if stuck {
            // Without a rule for it, a player who cannot move has lost.
            return Some(GameResult {
                winner: Some(self.opponent_before(pos.side)),
                reason: "no moves".into(),
            });
        }
        None
    }

    /// Whether a game-ending rule decided by the position alone holds.
    pub(crate) fn immediate_outcome(&self, pos: &Position) -> Option<GameResult> {
        self.game
            .end
            .iter()
            .filter(|r| self.rule_applies(pos, r))
            .find_map(|rule| self.immediate_rule(pos, rule))
    }

    /// The result a player could claim now: the first rule that is only claimed (`repetition 3 draw
    /// claim`, `move_rule 50 draw claim`) and holds in this position.
    pub fn claimable(&self, pos: &Position) -> Option<GameResult> {
        self.game
            .end
            .iter()
            .filter(|r| !r.automatic && self.rule_condition(pos, r))
            .find_map(|rule| self.immediate_rule(pos, rule))
    }

    /// A checkmate, stalemate or no-moves rule, when the side to move has no legal move.
    fn no_move_rule(&self, pos: &Position, rule: &EndRule) -> Option<GameResult> {
        let side = pos.side;
        let in_check = self.royal_attacked(pos, side);
        let applies = match rule.kind {
            EndKind::Checkmate => in_check,
            EndKind::Stalemate => !in_check,
            _ => true,
        };
        // In a game of teams the winner is an opponent, never the partner who moved last.
        applies.then(|| self.result(pos, rule, self.opponent_before(side), Some(side)))
    }

    /// A rule decided by the position alone (flags, checks, extinction, bare king, royal capture, move
    /// limits), checked before moves are generated.
    pub(super) fn immediate_rule(&self, pos: &Position, rule: &EndRule) -> Option<GameResult> {
        let side = pos.side;
        let previous = self.last_mover(pos);
        match &rule.kind {
            // Decided when the side to move has no legal move (`decide`).
            EndKind::Checkmate | EndKind::Stalemate | EndKind::NoMoves => None,
            EndKind::Flag {
                zone,
                pieces,
                after_reply,
            } => {
                let reached = |player: usize| {
                    pos.cells.iter().enumerate().any(|(cell, occ)| {
                        !occ.is_empty()
                            && occ.owner() == player
                            && pieces.contains(&occ.piece())
                            && self.in_zone(*zone, player, cell)
                    })
                };
                if *after_reply {
                    // Tested for the player to move only: he wins when he still stands in the zone
                    // once the opponent has replied (the reply may capture the piece). If the first
                    // player reached it and the reply reached it too, the game is drawn.
                    if reached(side) {
                        let both = reached(previous) && side == self.turn_order[0];
                        return Some(GameResult {
                            winner: (!both).then_some(side),
                            reason: "flag".into(),
                        });
                    }
                    None
                } else if reached(previous) {
                    Some(self.result(pos, rule, previous, Some(side)))
                } else {
                    None
                }
            }
            EndKind::Checks(n) => (pos.checks.get(previous).copied().unwrap_or(0) >= *n)
                .then(|| self.result(pos, rule, previous, Some(side))),
            EndKind::Extinction(set) => {
                for player in [side, previous] {
                    let alive = pos.cells.iter().any(|o| {
                        !o.is_empty() && o.owner() == player && self.in_set(set, o.piece())
                    });
                    if !alive {
                        return Some(self.result_for_victim(pos, rule, player));
                    }
                }
                None
            }
            EndKind::RoyalCapture => {
                for player in [side, previous] {
                    if !self.has_royal(pos, player) {
                        return Some(self.result_for_victim(pos, rule, player));
                    }
                }
                None
            }
            EndKind::BareKing { unless_bared_back } => {
                let bare = |player: usize| {
                    (0..pos.cells.len()).all(|c| {
                        let o = pos.cells[c];
                        o.is_empty() || o.owner() != player || self.is_royal_at(pos, c)
                    })
                };
                if bare(side) && !bare(previous) {
                    // A bared player may bare the opponent back if the opponent has just one piece
                    // besides the king (shatranj); that is decided after the reply.
                    let others = (0..pos.cells.len())
                        .filter(|&c| {
                            let o = pos.cells[c];
                            !o.is_empty() && o.owner() == previous && !self.is_royal_at(pos, c)
                        })
                        .count();
                    if *unless_bared_back && others == 1 && self.can_bare_back(pos) {
                        return None;
                    }
                    return Some(self.result_for_victim(pos, rule, side));
                }
                None
            }
            EndKind::DropMate(pieces) => {
                let last = pos.last?;
                if last.kind == MoveKind::Drop
                    && pieces.contains(&(last.piece as usize - 1))
                    && self.royal_attacked(pos, side)
                {
                    let mut scratch = pos.clone();
                    if !self.any_legal(&mut scratch) {
                        return Some(self.result(pos, rule, previous, Some(side)));
                    }
                }
                None
            }
            EndKind::PerpetualCheck(n) => {
                let checker = self.perpetual_checker(pos, *n)?;
                let other = self.next_player(checker);
                Some(self.result(pos, rule, checker, Some(other)))
            }
            // Facing persists only through a pass (any other move must break it): facing now,
            // after N - 1 passes, is N consecutive facing positions (one is the position itself).
            EndKind::Facing(n) => {
                (self.facing_break && pos.passes + 1 >= *n && self.royals_facing(pos, true))
                    .then(|| self.result(pos, rule, previous, Some(side)))
            }
            EndKind::Counting(_) => {
                let [begin, plies, limit] = pos.count?;
                ((begin as u32 + plies as u32 / 2) > limit as u32)
                    .then(|| self.result(pos, rule, previous, Some(side)))
            }
            EndKind::Repetition(n) => {
                let seen = pos.history.iter().filter(|&&h| h == pos.hash).count() + 1;
                (seen >= *n as usize).then(|| self.result(pos, rule, previous, Some(side)))
            }
            EndKind::MoveRule(n) => {
                // N moves by each player: by each player still in the game when players are
                // eliminated.
                let players = if self.elimination.enabled {
                    self.survivors(pos) as u32
                } else {
                    2
                };
                (pos.halfmove >= players * n).then(|| self.result(pos, rule, previous, Some(side)))
            }
            EndKind::MoveLimit(n) => (pos.history.len() >= *n as usize)
                .then(|| self.result(pos, rule, previous, Some(side))),
            EndKind::InsufficientMaterial(condition) => (0..self.players)
                .all(|p| !self.can_mate(pos, condition.as_ref(), p))
                .then(|| self.result(pos, rule, previous, Some(side))),
            EndKind::Result => rule
                .condition
                .is_some()
                .then(|| self.result(pos, rule, previous, Some(side))),
            EndKind::Checkmates(n) => {
                // A player who has delivered N checkmates (games that go on after one).
                let p = (0..self.players).find(|&p| {
                    pos.mated_by
                        .iter()
                        .filter(|&&m| m as usize == p + 1)
                        .count()
                        >= *n as usize
                })?;
                Some(self.result(pos, rule, p, None))
            }
            EndKind::TotalCheckmates(n) => {
                // The Nth checkmate of the game: the player who delivered the latest one.
                let total = pos.mated_by.iter().filter(|&&m| m != 0).count();
                if total < *n as usize {
                    return None;
                }
                let latest = (0..self.players)
                    .filter(|&p| pos.mated_by[p] != 0)
                    .min_by_key(|&p| pos.dropped_among[p])?;
                let mater = pos.mated_by[latest] as usize - 1;
                Some(self.result(pos, rule, mater, None))
            }
            // Every player still in the game passed on his latest turn.
            EndKind::AllPass => (pos.passes as usize >= self.survivors(pos).max(1))
                .then(|| self.result(pos, rule, self.last_mover(pos), None)),
            EndKind::Captures(n, set) => {
                // Enemy pieces of the listed types (or of any type) captured by a player's own
                // moves; counters only grow on the mover's moves, so the mover is tested first.
                let kinds = self.game.pieces.len();
                for player in [side, previous] {
                    let count: u32 = (0..kinds)
                        .filter(|&piece| self.in_set(set, piece))
                        .map(|piece| pos.captured_count(player, piece, kinds))
                        .sum();
                    if count >= *n {
                        let other = self.next_player(player);
                        return Some(self.result(pos, rule, player, Some(other)));
                    }
                }
                None
            }
            EndKind::Formation {
                width,
                height,
                pieces,
            } => self
                .formation(pos, (*width, *height), pieces, previous)
                .then(|| self.result(pos, rule, previous, Some(side))),
            EndKind::LastSurvivor => {
                let player = self.last_survivor(pos)?;
                Some(self.result(pos, rule, player, None))
            }
        }
    }

    /// Whether an end rule is tested now: it ends the game by itself, its condition holds, and, for a
    /// rule `at turn_start`, no single move of the current turn has been made yet.
    pub(super) fn rule_applies(&self, pos: &Position, rule: &EndRule) -> bool {
        let at_turn_start = rule.timing == EndTiming::TurnStart;
        rule.automatic && (!at_turn_start || pos.turn_moves == 0) && self.rule_condition(pos, rule)
    }

    /// Whether an end rule's `when` condition holds (rules without one always apply).
    fn rule_condition(&self, pos: &Position, rule: &EndRule) -> bool {
        rule.condition
            .as_ref()
            .is_none_or(|c| self.condition_holds(pos, &Scope::player(pos.side), c))
    }

    /// Whether a player still has mating potential: the rule's `mating_potential when ...` condition
    /// (with `side` the player tested), or the built-in test.
    fn can_mate(
        &self,
        pos: &Position,
        condition: Option<&crate::model::Cond>,
        player: usize,
    ) -> bool {
        match condition {
            Some(condition) => self.condition_holds(pos, &Scope::player(player), condition),
            None => self.has_mating_material(pos, player),
        }
    }

    /// The built-in mating-material test (FIDE's dead positions, generalised): a player can still mate
    /// with a pawn, with any piece that is not a knight (`N`) or bishop (`B`), or with two such minor
    /// pieces besides the royal ones, unless they are bishops all on cells of one colour.
    fn has_mating_material(&self, pos: &Position, player: usize) -> bool {
        let mut minors = 0;
        let mut bishop_colours = [false; 2];
        let mut knights = 0;
        for (cell, occ) in pos.cells.iter().enumerate() {
            if occ.is_empty() || occ.owner() != player || self.is_royal_at(pos, cell) {
                continue;
            }
            let piece = &self.game.pieces[occ.piece()];
            let betza: Vec<&str> = piece.moves.iter().map(|m| m.betza.as_str()).collect();
            match betza.as_slice() {
                ["N"] => knights += 1,
                ["B"] => {
                    let c = self.game.cells[cell].coord;
                    bishop_colours[((c[0] + c[1]) & 1) as usize] = true;
                }
                _ => return true,
            }
            minors += 1;
        }
        minors >= 2 && (knights > 0 || (bishop_colours[0] && bishop_colours[1]))
    }

    /// Whether the side to move can capture the opponent's last non-royal piece (shatranj's bare king).
    fn can_bare_back(&self, pos: &Position) -> bool {
        let mut scratch = pos.clone();
        let mut moves = Vec::new();
        self.generate_legal(&mut scratch, &mut moves);
        moves.iter().any(|m| {
            let to = m.to as usize;
            let target = pos.cells[to];
            !target.is_empty() && target.owner() != pos.side && !self.is_royal_at(pos, to)
        })
    }

    /// The player who gave check with every one of his moves since the current position last
    /// occurred, when it now occurs for the `n`th time.
    fn perpetual_checker(&self, pos: &Position, n: u32) -> Option<usize> {
        let occurrences: Vec<usize> = pos
            .history
            .iter()
            .enumerate()
            .filter(|(_, &h)| h == pos.hash)
            .map(|(i, _)| i)
            .collect();
        if occurrences.len() + 1 < n as usize || pos.check_history.len() != pos.history.len() {
            return None;
        }
        // The cycle: the plies after the earliest of the last n-1 occurrences.
        let start = occurrences[occurrences.len() + 1 - n as usize];
        let cycle = &pos.check_history[start..];
        let players: Vec<usize> = cycle.iter().map(|m| (m >> 1) as usize).collect();
        let checkers: Vec<usize> = (0..self.players)
            .filter(|p| players.contains(p))
            .filter(|&p| cycle.iter().all(|m| (m >> 1) as usize != p || m & 1 == 1))
            .collect();
        match checkers.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Updates the counting rule's count after a move (Thai makruk's counting).
    pub(super) fn update_count(&self, pos: &mut Position, captured: bool) {
        let Some(counting) = self.game.end.iter().find_map(|r| match &r.kind {
            EndKind::Counting(c) => Some(c),
            _ => None,
        }) else {
            return;
        };
        let scope = Scope::player(pos.side);
        let runs = counting
            .start
            .as_ref()
            .is_none_or(|c| self.condition_holds(pos, &scope, c));
        if !runs {
            pos.count = None;
            return;
        }
        let restart = captured
            && counting.restart.iter().any(|c| {
                c.as_ref()
                    .is_none_or(|c| self.condition_holds(pos, &scope, c))
            });
        match pos.count {
            Some([begin, plies, limit]) if !restart => {
                pos.count = Some([begin, plies.saturating_add(1), limit]);
            }
            _ => pos.count = Some(self.count_start(pos, counting, &scope)),
        }
    }

    fn count_start(&self, pos: &Position, counting: &Counting, scope: &Scope) -> [u16; 3] {
        let holds = |c: &Option<crate::model::Cond>| {
            c.as_ref()
                .is_none_or(|c| self.condition_holds(pos, scope, c))
        };
        let limit = counting
            .limits
            .iter()
            .find(|(_, c)| holds(c))
            .map_or(u16::MAX, |(n, _)| (*n).min(u16::MAX as u32) as u16);
        let pieces = pos.cells.iter().filter(|o| !o.is_empty()).count() as u16;
        let begin = match counting.begin.iter().find(|(_, c)| holds(c)) {
            Some((true, _)) => pieces,
            _ => 0,
        };
        [begin, 0, limit]
    }

    /// The result of a rule: `win` goes to `actor`, `loss` to `subject`, with an explicit subject
    /// (`mover`, `victim`, a player) taking precedence; `points` compares the players' points.
    fn result(
        &self,
        pos: &Position,
        rule: &EndRule,
        actor: usize,
        subject: Option<usize>,
    ) -> GameResult {
        let victim = subject.unwrap_or(self.opponent_after(actor));
        let named = match rule.subject {
            Subject::Default => None,
            Subject::Victim => Some(victim),
            Subject::Mover => Some(actor),
            Subject::Player(p) => Some(p),
        };
        let winner = match rule.result {
            Outcome::Win => Some(named.unwrap_or(actor)),
            Outcome::Loss => {
                let loser = named.unwrap_or(victim);
                Some(if loser == actor { victim } else { actor })
            }
            Outcome::Draw => None,
            Outcome::Points => self.points_winner(pos),
        };
        GameResult {
            winner,
            reason: reason(&rule.kind).into(),
        }
    }

    /// The result of a rule that happens to `victim` (extinction, bare king).
    fn result_for_victim(&self, pos: &Position, rule: &EndRule, victim: usize) -> GameResult {
        let other = self.opponent_after(victim);
        let winner = match (rule.result, rule.subject) {
            (Outcome::Win, Subject::Victim) => Some(victim),
            (Outcome::Win | Outcome::Loss, Subject::Player(p)) => {
                Some(if rule.result == Outcome::Win {
                    p
                } else {
                    self.opponent_after(p)
                })
            }
            (Outcome::Win | Outcome::Loss, _) => Some(other),
            (Outcome::Draw, _) => None,
            (Outcome::Points, _) => self.points_winner(pos),
        };
        GameResult {
            winner,
            reason: reason(&rule.kind).into(),
        }
    }

    /// The player with the most points (his pieces' `points` plus his `bonus_points`); none on a tie.
    pub(super) fn points_winner(&self, pos: &Position) -> Option<usize> {
        let points: Vec<i64> = (0..self.players)
            .map(|p| {
                let on_board: i64 = pos
                    .cells
                    .iter()
                    .filter(|o| !o.is_empty() && o.owner() == p)
                    .map(|o| self.game.pieces[o.piece()].points as i64)
                    .sum();
                on_board + self.game.players[p].bonus_points as i64
            })
            .collect();
        let best = *points.iter().max()?;
        let mut leaders = (0..self.players).filter(|&p| points[p] == best);
        match (leaders.next(), leaders.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    }
}

/// The reason a result gives for an end line.
fn reason(kind: &EndKind) -> &'static str {
    match kind {
        EndKind::MoveRule(_) => "move rule",
        EndKind::MoveLimit(_) => "move limit",
        EndKind::InsufficientMaterial(_) => "insufficient material",
        other => other.keyword(),
    }
}
