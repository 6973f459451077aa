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

use crate::model::{Arg, Directive, Expr, Game, PieceId};
use crate::variant::GameResult;

use super::position::{MoveKind, Occupant, Position, Undo};
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

/// What happens to a checkmated player's pieces, in the rule's order.
#[derive(Clone, Debug)]
enum Effect {
    /// `remove all [PIECES] of checkmated` (no pieces: all of them): they leave the game.
    Remove(Vec<PieceId>),
    /// `send all of checkmated RESERVE`: every piece left goes into the reserve.
    Send(usize),
}

/// A promotion on capture: `transform mover PIECE from RESERVE` under the rule's conditions.
#[derive(Clone, Debug)]
pub(super) struct Transform {
    conditions: Vec<Expr>,
    target: PieceId,
    reserve: Option<usize>,
}

/// The elimination rules of a game, read once from the model.
#[derive(Clone, Debug, Default)]
pub(super) struct Elimination {
    /// Whether checkmate eliminates the player instead of ending the game.
    pub(super) enabled: bool,
    /// Whether the player about to move checkmates every player whose royal piece he attacks.
    attacked_at_turn_start: bool,
    effects: Vec<Effect>,
    /// Whether an elimination restarts the move-rule count.
    resets: bool,
    /// Promotions on capture, in file order (the first that applies is played).
    pub(super) transforms: Vec<Transform>,
    /// Whether a promotion or transformation restarts the move-rule count (`on transform; reset
    /// move_rule`).
    pub(super) transform_resets: bool,
}

fn on(rule: &crate::model::Rule, event: &str) -> bool {
    rule.statements
        .iter()
        .any(|d| d.keyword == "on" && d.arguments.first().is_some_and(|a| a.is_word(event)))
}

fn words(d: &Directive) -> Vec<&str> {
    d.arguments
        .iter()
        .filter_map(|a| match a {
            Arg::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect()
}

fn reserve_of(game: &Game, d: &Directive) -> Option<usize> {
    d.arguments.iter().find_map(|a| match a {
        Arg::Reserve(r) => Some(*r),
        Arg::Word(w) => game.reserves.iter().position(|r| r.name == *w),
        _ => None,
    })
}

fn pieces_of(d: &Directive) -> Vec<PieceId> {
    let mut out = Vec::new();
    for a in &d.arguments {
        match a {
            Arg::Piece(p) => out.push(*p),
            Arg::List(items) => out.extend(items.iter().filter_map(Arg::as_piece)),
            _ => {}
        }
    }
    out
}

impl Elimination {
    pub(super) fn from_game(game: &Game) -> Elimination {
        let mut e = Elimination {
            attacked_at_turn_start: game.turn.iter().any(|d| {
                d.keyword == "checkmate_test"
                    && d.arguments
                        .first()
                        .is_some_and(|a| a.is_word("attacked_at_turn_start"))
            }),
            ..Elimination::default()
        };
        for rule in &game.rules {
            if on(rule, "checkmate")
                && rule.statements.iter().any(|d| {
                    d.keyword == "eliminate"
                        && d.condition.is_none()
                        && words(d).contains(&"checkmated")
                })
            {
                e.enabled = true;
                for d in rule.statements.iter().filter(|d| d.condition.is_none()) {
                    let w = words(d);
                    match d.keyword.as_str() {
                        "remove" if w.contains(&"checkmated") && w.first() == Some(&"all") => {
                            e.effects.push(Effect::Remove(pieces_of(d)))
                        }
                        "send" if w.contains(&"checkmated") => {
                            if let Some(r) = reserve_of(game, d) {
                                e.effects.push(Effect::Send(r));
                            }
                        }
                        "reset" if w.contains(&"move_rule") => e.resets = true,
                        _ => {}
                    }
                }
            }
            if on(rule, "capture") {
                for d in &rule.statements {
                    let w = words(d);
                    if d.keyword == "transform" && w.first() == Some(&"mover") {
                        if let Some(&target) = pieces_of(d).first() {
                            let mut conditions: Vec<Expr> = rule
                                .statements
                                .iter()
                                .filter(|s| s.keyword == "when")
                                .filter_map(|s| s.condition.clone())
                                .collect();
                            conditions.extend(d.condition.clone());
                            e.transforms.push(Transform {
                                conditions,
                                target,
                                reserve: reserve_of(game, d),
                            });
                        }
                    }
                }
            }
            if on(rule, "transform")
                && rule
                    .statements
                    .iter()
                    .any(|d| d.keyword == "reset" && words(d).contains(&"move_rule"))
            {
                e.transform_resets = true;
            }
        }
        e
    }
}

/// `captured.piece` replaced by the captured piece's type, so that the condition can be evaluated.
fn bind_captured(e: &Expr, victim: PieceId) -> Expr {
    match e {
        Expr::Or(parts) => Expr::Or(parts.iter().map(|p| bind_captured(p, victim)).collect()),
        Expr::And(parts) => Expr::And(parts.iter().map(|p| bind_captured(p, victim)).collect()),
        Expr::Not(inner) => Expr::Not(Box::new(bind_captured(inner, victim))),
        Expr::Compare(op, l, r) => Expr::Compare(
            op,
            Box::new(bind_captured(l, victim)),
            Box::new(bind_captured(r, victim)),
        ),
        Expr::Arith(op, l, r) => Expr::Arith(
            op,
            Box::new(bind_captured(l, victim)),
            Box::new(bind_captured(r, victim)),
        ),
        Expr::Call(name, args) => Expr::Call(
            name.clone(),
            args.iter().map(|a| bind_captured(a, victim)).collect(),
        ),
        Expr::Path(path) if path.len() == 2 && path[0] == "captured" && path[1] == "piece" => {
            Expr::Literal(Arg::Piece(victim))
        }
        other => other.clone(),
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

    /// Promotion on capture, after a capture of `victim` by the piece now on `to`: the first rule whose
    /// conditions hold replaces it with its type from the reserve (unmoved, as a new piece). Returns
    /// whether it did.
    pub(super) fn transform_after_capture(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        to: usize,
        victim: PieceId,
    ) -> bool {
        let occ = pos.cells[to];
        if occ.is_empty() {
            return false;
        }
        let scope = super::conditions::Scope {
            cell: to,
            owner: occ.owner(),
            player: occ.owner(),
            hurdle: None,
        };
        for t in &self.elimination.transforms {
            if !t
                .conditions
                .iter()
                .all(|c| self.condition_holds(pos, &scope, &bind_captured(c, victim)))
            {
                continue;
            }
            if let Some(reserve) = t.reserve {
                let row = self.reserve_row(pos, reserve, occ.owner());
                if pos.hands[row][t.target] == 0 {
                    continue;
                }
                Self::change_hand(pos, undo, row, t.target, -1);
            }
            self.put(
                pos,
                undo,
                to,
                Occupant::new(t.target, occ.owner(), true, true),
            );
            return true;
        }
        false
    }

    /// Removes an eliminated player's pieces as the elimination rule says and marks him out,
    /// recording who checkmated him (`mater`, none when he was stuck in check on his own turn).
    fn eliminate(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        player: usize,
        among: usize,
        mater: Option<usize>,
    ) {
        for effect in &self.elimination.effects {
            for cell in 0..pos.cells.len() {
                let occ = pos.cells[cell];
                if occ.is_empty() || occ.owner() != player {
                    continue;
                }
                match effect {
                    Effect::Remove(types) => {
                        if types.is_empty() || types.contains(&occ.piece()) {
                            self.put(pos, undo, cell, Occupant::EMPTY);
                        }
                    }
                    Effect::Send(reserve) => {
                        let row = self.reserve_row(pos, *reserve, player);
                        Self::change_hand(pos, undo, row, occ.piece(), 1);
                        self.put(pos, undo, cell, Occupant::EMPTY);
                    }
                }
            }
        }
        pos.eliminated |= 1 << player;
        pos.dropped_among[player] = among as u8;
        pos.mated_by[player] = mater.map_or(0, |m| m as u8 + 1);
        if self.elimination.resets {
            pos.halfmove = 0;
        }
    }

    /// Whether a line of the end block that is about the move just made ends the game now.
    fn ended_by_move(&self, pos: &Position) -> bool {
        self.game
            .end
            .iter()
            .filter(|r| {
                !matches!(
                    r.kind.as_str(),
                    "repetition" | "last_survivor" | "checkmate" | "stalemate" | "no_moves"
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

    fn start_turns_now(&self, pos: &mut Position, undo: &mut Undo) {
        loop {
            let side = pos.side;
            if self.elimination.attacked_at_turn_start {
                let victims: Vec<usize> = self
                    .opponents(side)
                    .filter(|&o| !pos.is_eliminated(o))
                    .filter(|&o| {
                        pos.cells.iter().enumerate().any(|(cell, occ)| {
                            !occ.is_empty()
                                && occ.owner() == o
                                && self.pieces[occ.piece()].royal
                                && self.cell_attacked(pos, cell, side)
                        })
                    })
                    .collect();
                let among = self.survivors(pos);
                for &v in &victims {
                    self.eliminate(pos, undo, v, among, Some(side));
                }
            }
            if self.survivors(pos) <= 1 {
                return;
            }
            if !self.royal_attacked(pos, side) || self.any_legal(pos) {
                return;
            }
            let among = self.survivors(pos);
            self.eliminate(pos, undo, side, among, None);
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
    pub(super) fn formation(&self, pos: &Position, args: &[Arg], player: usize) -> bool {
        let Some(Arg::List(size)) = args.first() else {
            return false;
        };
        let (w, h) = match size.as_slice() {
            [Arg::Int(w), Arg::Int(h), ..] => (*w as i32, *h as i32),
            _ => return false,
        };
        let Some(Arg::List(items)) = args.get(1) else {
            return false;
        };
        let mut wanted: Vec<PieceId> = items.iter().filter_map(Arg::as_piece).collect();
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

    /// The points of each player when the game ended with `result`, by the `scoring` block: a player
    /// who dropped out while N players were in the game scores `drop_out N`; when a player wins, the
    /// other players still in the game drop out together; the winner takes `total` minus the others'
    /// points (`winner remainder`); in a draw the players still in the game share what is left (`draw
    /// share`). `None` when the game has no scoring block.
    pub fn scores(&self, pos: &Position, result: &GameResult) -> Option<Vec<f64>> {
        if self.game.scoring.is_empty() {
            return None;
        }
        let mut total = 0.0;
        let mut drop_out: Vec<(usize, f64)> = Vec::new();
        for d in &self.game.scoring {
            match (d.keyword.as_str(), d.arguments.as_slice()) {
                ("total", [Arg::Int(n)]) => total = *n as f64,
                ("drop_out", [Arg::Int(n), Arg::Int(p)]) => drop_out.push((*n as usize, *p as f64)),
                _ => {}
            }
        }
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
