//! Game end: the end rules that hold automatically, in the order the rule file gives them.

use crate::model::{Arg, EndRule, Outcome};
use crate::variant::GameResult;

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
        let no_move_kinds = ["checkmate", "stalemate", "no_moves"];
        for rule in self.game.end.iter().filter(|r| self.rule_applies(pos, r)) {
            if no_move_kinds.contains(&rule.kind.as_str()) {
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
                winner: Some(self.previous_player(pos.side)),
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
        let applies = match rule.kind.as_str() {
            "checkmate" => in_check,
            "stalemate" => !in_check,
            _ => true,
        };
        applies.then(|| self.result(rule, self.previous_player(side), Some(side)))
    }

    /// A rule decided by the position alone (flags, checks, extinction, bare king, royal capture, move
    /// limits), checked before moves are generated.
    pub(super) fn immediate_rule(&self, pos: &Position, rule: &EndRule) -> Option<GameResult> {
        let side = pos.side;
        let previous = self.last_mover(pos);
        {
            let pieces: Vec<usize> = rule.arguments.iter().filter_map(Arg::as_piece).collect();
            match rule.kind.as_str() {
                "flag" => {
                    let Some(Arg::Zone(zone)) = rule.arguments.first() else {
                        return None;
                    };
                    let after_reply = rule
                        .arguments
                        .iter()
                        .any(|a| matches!(a, Arg::Word(w) if w == "after_reply"));
                    let reached = |player: usize| {
                        pos.cells.iter().enumerate().any(|(cell, occ)| {
                            !occ.is_empty()
                                && occ.owner() == player
                                && pieces.contains(&occ.piece())
                                && self.in_zone(*zone, player, cell)
                        })
                    };
                    if after_reply {
                        // The player who reached the zone wins once the opponent has replied; if the
                        // reply reached it too, the game is drawn.
                        if reached(side) {
                            let winner = if reached(previous) { None } else { Some(side) };
                            return Some(GameResult {
                                winner,
                                reason: "flag".into(),
                            });
                        }
                        if reached(previous) && side == 0 {
                            return Some(GameResult {
                                winner: Some(previous),
                                reason: "flag".into(),
                            });
                        }
                    } else if reached(previous) {
                        return Some(self.result(rule, previous, Some(side)));
                    }
                }
                "checks" => {
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    if pos.checks.get(previous).copied().unwrap_or(0) as i64 >= *n {
                        return Some(self.result(rule, previous, Some(side)));
                    }
                }
                "extinction" => {
                    let all = rule
                        .arguments
                        .iter()
                        .any(|a| matches!(a, Arg::Word(w) if w == "all"));
                    for player in [side, previous] {
                        let alive = pos.cells.iter().any(|o| {
                            !o.is_empty()
                                && o.owner() == player
                                && (all || pieces.contains(&o.piece()))
                        });
                        if !alive {
                            return Some(self.result_for_victim(rule, player));
                        }
                    }
                }
                "royal_capture" => {
                    for player in [side, previous] {
                        let alive = pos.cells.iter().any(|o| {
                            !o.is_empty() && o.owner() == player && self.pieces[o.piece()].royal
                        });
                        if !alive {
                            return Some(self.result_for_victim(rule, player));
                        }
                    }
                }
                "bare_king" => {
                    let bared_back = rule
                        .arguments
                        .iter()
                        .any(|a| matches!(a, Arg::Word(w) if w == "unless_bared_back"));
                    let bare = |player: usize| {
                        pos.cells.iter().all(|o| {
                            o.is_empty() || o.owner() != player || self.pieces[o.piece()].royal
                        })
                    };
                    if bare(side) && !bare(previous) {
                        // A bared player may bare the opponent back if the opponent has just one piece
                        // besides the king (shatranj); that is decided after the reply.
                        let others = pos
                            .cells
                            .iter()
                            .filter(|o| {
                                !o.is_empty()
                                    && o.owner() == previous
                                    && !self.pieces[o.piece()].royal
                            })
                            .count();
                        if bared_back && others == 1 && self.can_bare_back(pos) {
                            return None;
                        }
                        return Some(self.result_for_victim(rule, side));
                    }
                }
                "drop_mate" => {
                    let last = pos.last?;
                    if last.kind == MoveKind::Drop
                        && pieces.contains(&(last.piece as usize - 1))
                        && self.royal_attacked(pos, side)
                    {
                        let mut scratch = pos.clone();
                        let mut moves = Vec::new();
                        self.generate_legal(&mut scratch, &mut moves);
                        if moves.is_empty() {
                            return Some(self.result(rule, previous, Some(side)));
                        }
                    }
                }
                "facing"
                    // Facing persists only through a pass (any other move must break it), so two
                    // consecutive facing positions mean: facing now, after a pass.
                    if self.facing_break && pos.passes > 0 && self.royals_facing(pos, true) => {
                        return Some(GameResult {
                            winner: None,
                            reason: "facing".into(),
                        });
                    }
                "insufficient_material"
                    if rule.condition.is_none() && (0..self.players).all(|p| !self.can_mate(pos, rule, p)) =>
                {
                    return Some(GameResult { winner: None, reason: "insufficient material".into() });
                }
                "all_pass"
                    if pos.passes as usize >= self.players => {
                        return Some(GameResult {
                            winner: None,
                            reason: "all pass".into(),
                        });
                    }
                "result" if rule.condition.is_some() => {
                    return Some(self.result(rule, previous, Some(side)));
                }
                "captures" => {
                    // Enemy pieces of the listed types (or of any type) captured by a player's own
                    // moves; counters only grow on the mover's moves, so the mover is tested first.
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    let all = rule.arguments.iter().any(|a| a.is_word("all"));
                    let kinds = self.game.pieces.len();
                    for player in [side, previous] {
                        let count: u32 = (0..kinds)
                            .filter(|&piece| all || pieces.contains(&piece))
                            .map(|piece| pos.captured_count(player, piece, kinds))
                            .sum();
                        if count as i64 >= *n {
                            let other = self.next_player(player);
                            return Some(self.result(rule, player, Some(other)));
                        }
                    }
                }
                "move_limit" => {
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    if pos.history.len() as i64 >= *n {
                        return Some(GameResult {
                            winner: None,
                            reason: "move limit".into(),
                        });
                    }
                }
                "move_rule" => {
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    // N moves by each player: by each player still in the game when players are
                    // eliminated.
                    let players = if self.elimination.enabled {
                        self.survivors(pos) as i64
                    } else {
                        2
                    };
                    if pos.halfmove as i64 >= players * *n {
                        return Some(GameResult {
                            winner: None,
                            reason: "move rule".into(),
                        });
                    }
                }
                "checkmates" => {
                    // A player who has delivered N checkmates (games that go on after one).
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    if let Some(p) = (0..self.players).find(|&p| {
                        pos.mated_by.iter().filter(|&&m| m as usize == p + 1).count() as i64 >= *n
                    }) {
                        return Some(self.result(rule, p, None));
                    }
                }
                "total_checkmates" => {
                    // The Nth checkmate of the game: the player who delivered the latest one.
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    let total = pos.mated_by.iter().filter(|&&m| m != 0).count() as i64;
                    if total >= *n {
                        let latest = (0..self.players)
                            .filter(|&p| pos.mated_by[p] != 0)
                            .min_by_key(|&p| pos.dropped_among[p])?;
                        let mater = pos.mated_by[latest] as usize - 1;
                        return Some(self.result(rule, mater, None));
                    }
                }
                // Every player still in the game passed on his latest turn.
                "all_pass" if pos.passes as usize >= self.survivors(pos).max(1) => {
                    return Some(self.result(rule, self.last_mover(pos), None));
                }
                "last_survivor" => {
                        if let Some(player) = self.last_survivor(pos) {
                            return Some(self.result(rule, player, None));
                        }
                    }
                "formation" if self.formation(pos, &rule.arguments, previous) => {
                    return Some(self.result(rule, previous, Some(side)));
                }
                "repetition" => {
                    let Some(Arg::Int(n)) = rule.arguments.first() else {
                        return None;
                    };
                    let seen = pos.history.iter().filter(|&&h| h == pos.hash).count() + 1;
                    if seen as i64 >= *n {
                        return Some(GameResult {
                            winner: None,
                            reason: "repetition".into(),
                        });
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether an end rule is tested now: it ends the game by itself, its condition holds, and, for a
    /// rule `at turn_start`, no single move of the current turn has been made yet.
    pub(super) fn rule_applies(&self, pos: &Position, rule: &EndRule) -> bool {
        let at_turn_start = rule.arguments.iter().any(|a| a.is_word("turn_start"));
        rule.automatic && (!at_turn_start || pos.turn_moves == 0) && self.rule_condition(pos, rule)
    }

    /// Whether an end rule's `when` condition holds (rules without one always apply).
    fn rule_condition(&self, pos: &Position, rule: &EndRule) -> bool {
        let scope = super::conditions::Scope {
            cell: 0,
            owner: pos.side,
            player: pos.side,
            hurdle: None,
        };
        rule.condition
            .as_ref()
            .is_none_or(|c| self.condition_holds(pos, &scope, c))
    }

    /// Whether a player still has mating potential: the rule's `mating_potential when ...` condition
    /// (with `side` the player tested), or the built-in test.
    fn can_mate(&self, pos: &Position, rule: &EndRule, player: usize) -> bool {
        match rule
            .block
            .iter()
            .find(|d| d.keyword == "mating_potential")
            .and_then(|d| d.condition.as_ref())
        {
            Some(condition) => {
                let scope = super::conditions::Scope {
                    cell: 0,
                    owner: player,
                    player: pos.side,
                    hurdle: None,
                };
                self.condition_holds(pos, &scope, condition)
            }
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
            if occ.is_empty() || occ.owner() != player || self.pieces[occ.piece()].royal {
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
            let target = pos.cells[m.to as usize];
            !target.is_empty() && target.owner() != pos.side && !self.pieces[target.piece()].royal
        })
    }

    /// The result of a rule: `win` goes to `actor`, `loss` to `subject`, with an explicit subject word
    /// (`mover`, `victim`, a player) taking precedence.
    fn result(&self, rule: &EndRule, actor: usize, subject: Option<usize>) -> GameResult {
        let victim = subject.unwrap_or(self.next_player(actor));
        let named = rule.arguments.iter().find_map(|a| match a {
            Arg::Word(w) if w == "victim" => Some(victim),
            Arg::Word(w) if w == "mover" => Some(actor),
            Arg::Player(p) => Some(*p),
            _ => None,
        });
        let winner = match rule.result {
            Outcome::Win => Some(named.unwrap_or(actor)),
            Outcome::Loss => {
                let loser = named.unwrap_or(victim);
                Some(if loser == actor { victim } else { actor })
            }
            Outcome::Draw | Outcome::Points => None,
        };
        GameResult {
            winner,
            reason: rule.kind.clone(),
        }
    }

    /// The result of a rule that happens to `victim` (extinction, bare king).
    fn result_for_victim(&self, rule: &EndRule, victim: usize) -> GameResult {
        let other = self.next_player(victim);
        let named_victim = rule
            .arguments
            .iter()
            .any(|a| matches!(a, Arg::Word(w) if w == "victim"));
        let winner = match rule.result {
            Outcome::Win if named_victim => Some(victim),
            Outcome::Win | Outcome::Loss => Some(other),
            Outcome::Draw | Outcome::Points => None,
        };
        GameResult {
            winner,
            reason: rule.kind.clone(),
        }
    }
}
