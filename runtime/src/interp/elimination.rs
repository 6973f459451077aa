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

/// The pieces a checkmate rule's statement is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whose {
    /// The checkmated player's pieces.
    Checkmated,
    /// The pieces of the player who delivered the checkmate.
    Mater,
    /// The mater's pieces that attacked the checkmated royal piece when the checkmate was found.
    Delivering,
}

/// The type a transformed piece takes.
#[derive(Clone, Debug)]
enum Into {
    /// One type for every transformed piece.
    Piece(PieceId),
    /// A `typemap`: types it does not list are left alone.
    Map(Vec<(PieceId, PieceId)>),
}

/// What a checkmate does, one statement of the rule, in the rule's order.
#[derive(Clone, Debug)]
enum Effect {
    /// `remove all [PIECES] of checkmated` (no pieces: all of them): they leave the game.
    Remove(Vec<PieceId>),
    /// `send all of checkmated RESERVE`: every piece left goes into the reserve.
    Send(usize),
    /// `transform all [PIECES] of WHOSE INTO` / `transform delivering by MAP`: pieces change type on
    /// their cells (no pieces listed: all of them).
    Transform(Whose, Vec<PieceId>, Into),
    /// `convert checkmated mater`: the checkmated player's pieces change owner (and so use the new
    /// owner's forward directions and zones).
    Convert,
    /// `eliminate checkmated`: the player leaves the game; his turns are skipped.
    Eliminate,
    /// `reset move_rule`: the move-rule count restarts.
    ResetMoveRule,
}

/// A statement of a checkmate rule with its `when` condition.
#[derive(Clone, Debug)]
struct Step {
    effect: Effect,
    condition: Option<Expr>,
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
    /// What a checkmate does, in the rule's order.
    steps: Vec<Step>,
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

/// The pairs of a `typemap` block named `name`: (from, to) for every type it maps.
fn typemap(game: &Game, name: &str) -> Option<Vec<(PieceId, PieceId)>> {
    let block = game
        .directives
        .iter()
        .find(|d| d.keyword == "typemap" && d.arguments.first().is_some_and(|a| a.is_word(name)))?;
    let mut pairs = Vec::new();
    for map in block.children.iter().filter(|c| c.keyword == "map") {
        let pieces = pieces_of(map);
        if let Some((&to, from)) = pieces.split_last() {
            pairs.extend(from.iter().map(|&f| (f, to)));
        }
    }
    Some(pairs)
}

/// Reads one statement of a checkmate rule (`on checkmate`).
fn checkmate_effect(game: &Game, d: &Directive) -> Option<Effect> {
    let w = words(d);
    let whose = if w.contains(&"delivering") {
        Whose::Delivering
    } else if w.contains(&"mater") && d.keyword != "convert" {
        Whose::Mater
    } else {
        Whose::Checkmated
    };
    match d.keyword.as_str() {
        "remove" if whose == Whose::Checkmated && w.contains(&"all") => {
            Some(Effect::Remove(pieces_of(d)))
        }
        "send" if w.contains(&"checkmated") => reserve_of(game, d).map(Effect::Send),
        "transform" => {
            let pieces = pieces_of(d);
            if let Some(map) = w.iter().position(|&x| x == "by").and_then(|i| w.get(i + 1)) {
                Some(Effect::Transform(
                    whose,
                    pieces,
                    Into::Map(typemap(game, map)?),
                ))
            } else {
                let (&to, from) = pieces.split_last()?;
                Some(Effect::Transform(whose, from.to_vec(), Into::Piece(to)))
            }
        }
        "convert" if w.contains(&"checkmated") && w.contains(&"mater") => Some(Effect::Convert),
        "eliminate" if w.contains(&"checkmated") => Some(Effect::Eliminate),
        "reset" if w.contains(&"move_rule") => Some(Effect::ResetMoveRule),
        _ => None,
    }
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
                for d in &rule.statements {
                    if let Some(effect) = checkmate_effect(game, d) {
                        e.steps.push(Step {
                            effect,
                            condition: d.condition.clone(),
                        });
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

    /// Plays a checkmate of `victim` by `mater` (`None`: a player in check with no legal move, who
    /// drops out by himself) as the checkmate rule says, statement by statement, and marks the
    /// victim out. `delivering` are the cells of the mater's pieces that attacked the victim's royal
    /// piece when the checkmate was found; `among` is how many players were in the game then.
    fn checkmate(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        mater: Option<usize>,
        victim: usize,
        delivering: &[usize],
        among: usize,
    ) {
        let owned_by = |pos: &Position, player: usize| -> Vec<usize> {
            (0..pos.cells.len())
                .filter(|&c| !pos.cells[c].is_empty() && pos.cells[c].owner() == player)
                .collect()
        };
        let scope = super::conditions::Scope {
            cell: 0,
            owner: mater.unwrap_or(victim),
            player: mater.unwrap_or(victim),
            hurdle: None,
        };
        let mut out = false;
        for step in &self.elimination.steps {
            if step
                .condition
                .as_ref()
                .is_some_and(|c| !self.condition_holds(pos, &scope, c))
            {
                continue;
            }
            match &step.effect {
                Effect::Remove(types) => {
                    for cell in owned_by(pos, victim) {
                        if types.is_empty() || types.contains(&pos.cells[cell].piece()) {
                            self.put(pos, undo, cell, Occupant::EMPTY);
                        }
                    }
                }
                Effect::Send(reserve) => {
                    let row = self.reserve_row(pos, *reserve, victim);
                    for cell in owned_by(pos, victim) {
                        Self::change_hand(pos, undo, row, pos.cells[cell].piece(), 1);
                        self.put(pos, undo, cell, Occupant::EMPTY);
                    }
                }
                Effect::Transform(whose, types, into) => {
                    let (owner, cells) = match whose {
                        Whose::Checkmated => (victim, owned_by(pos, victim)),
                        Whose::Mater => match mater {
                            Some(m) => (m, owned_by(pos, m)),
                            None => continue,
                        },
                        Whose::Delivering => match mater {
                            Some(m) => (m, delivering.to_vec()),
                            None => continue,
                        },
                    };
                    for cell in cells {
                        let occ = pos.cells[cell];
                        if occ.is_empty() || occ.owner() != owner {
                            continue;
                        }
                        let piece = occ.piece();
                        if !types.is_empty() && !types.contains(&piece) {
                            continue;
                        }
                        let target = match into {
                            Into::Piece(p) => Some(*p),
                            Into::Map(pairs) => {
                                pairs.iter().find(|(f, _)| *f == piece).map(|&(_, t)| t)
                            }
                        };
                        if let Some(target) = target.filter(|&t| t != piece) {
                            let new = Occupant::new(target, owner, false, true);
                            self.put(pos, undo, cell, new);
                        }
                    }
                }
                Effect::Convert => {
                    let Some(m) = mater else { continue };
                    for cell in owned_by(pos, victim) {
                        let occ = pos.cells[cell];
                        let new = Occupant::new(occ.piece(), m, false, occ.is_promoted());
                        self.put(pos, undo, cell, new);
                    }
                }
                Effect::Eliminate => out = true,
                Effect::ResetMoveRule => pos.halfmove = 0,
            }
        }
        if out || self.elimination.enabled {
            pos.eliminated |= 1 << victim;
            pos.dropped_among[victim] = among as u8;
            pos.mated_by[victim] = mater.map_or(0, |m| m as u8 + 1);
        }
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

    fn start_turns_now(&self, pos: &mut Position, undo: &mut Undo) {
        loop {
            let side = pos.side;
            if self.elimination.attacked_at_turn_start {
                // One look at the position: every other player whose royal piece the player about to
                // move attacks, in turn order from the next player, with the attacking pieces.
                let victims: Vec<(usize, Vec<usize>)> = (1..self.players)
                    .map(|k| (side + k) % self.players)
                    .filter(|&o| !pos.is_eliminated(o))
                    .filter_map(|o| {
                        let royal = pos.cells.iter().enumerate().find(|(cell, occ)| {
                            !occ.is_empty()
                                && occ.owner() == o
                                && self.pieces[occ.piece()].royal
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
            self.checkmate(pos, undo, None, side, &[], among);
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

    /// The places of the players when the game ended with `result`, by the end block's `ranking`
    /// line: for each player the first and last place he shares (`(3, 4)`: third and fourth shared).
    /// The line lists groups in order: `winner`; `remaining`, the other players still in the game,
    /// sharing; `reverse_elimination`, the eliminated players, the last eliminated first, those
    /// eliminated in the same turn sharing. Players no group names share the last places. `None`
    /// when the game has no ranking line.
    pub fn ranking(&self, pos: &Position, result: &GameResult) -> Option<Vec<(usize, usize)>> {
        let line = self
            .game
            .directives
            .iter()
            .find(|d| d.keyword == "ranking")?;
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let alive = |p: &usize| !pos.is_eliminated(*p);
        for word in words(line) {
            match word {
                "winner" => groups.extend(result.winner.map(|w| vec![w])),
                "remaining" => groups.push(
                    (0..self.players)
                        .filter(alive)
                        .filter(|&p| Some(p) != result.winner)
                        .collect(),
                ),
                "reverse_elimination" => {
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
                _ => {}
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
