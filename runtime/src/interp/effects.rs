//! Rules that move pieces between boards and change their type as part of a move: `on capture` rules
//! whose effects `transform captured PIECE` and `send captured BOARD`, `on enter ZONE` rules whose
//! effects `transform mover PIECE [owner PLAYER]`, and `on transform` / `on transfer` rules that
//! `reset move_rule`. A captured piece that no rule sends anywhere leaves the game.
//!
//! A piece a rule sends is *waiting* until its owner has completed a move after the one that sent it
//! (`mover.waited` is 0 while it waits, 1 afterwards). Effects go through `make`'s change log, so
//! unmake restores them.

use crate::model::{Arg, CellId, Directive, Expr, Game, PieceId, PlayerId};

use super::position::{Occupant, Position, Undo};
use super::tables::Interpreter;

/// The sending and transforming rules of a game, prepared once.
#[derive(Clone, Debug, Default)]
pub(super) struct Effects {
    /// `on capture` rules with `transform` or `send` effects, in file order.
    capture: Vec<Triggered>,
    /// `on enter ZONE` rules with `transform` effects, with their zone.
    enter: Vec<(usize, Triggered)>,
    /// Whether a transformation (a promotion included) resets the move-rule count.
    pub reset_on_transform: bool,
    /// Whether a move from one board to another resets the move-rule count.
    pub reset_on_transfer: bool,
    /// Whether some rule sends pieces (so the waiting status is kept).
    pub sends: bool,
}

/// One triggered rule: its conditions and its effects in order.
#[derive(Clone, Debug)]
struct Triggered {
    conditions: Vec<Expr>,
    effects: Vec<Directive>,
}

/// What a rule's condition can see: the captured piece and the piece that moved, with their cells.
struct Event {
    captured: Option<(CellId, Occupant)>,
    mover: (CellId, Occupant),
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Word(String),
    Player(PlayerId),
    Piece(PieceId),
    Int(i64),
    Bool(bool),
    List(Vec<Value>),
    Unknown,
}

impl Effects {
    /// Reads the rules of a game.
    pub(super) fn new(game: &Game) -> Effects {
        let mut effects = Effects::default();
        for rule in &game.rules {
            let Some(on) = rule.statements.iter().find(|d| d.keyword == "on") else {
                continue;
            };
            let event = match on.arguments.first() {
                Some(Arg::Word(w)) => w.as_str(),
                _ => continue,
            };
            let triggered = Triggered {
                conditions: rule
                    .statements
                    .iter()
                    .filter(|d| d.keyword == "when")
                    .filter_map(|d| d.condition.clone())
                    .collect(),
                effects: rule
                    .statements
                    .iter()
                    .filter(|d| matches!(d.keyword.as_str(), "transform" | "send"))
                    .cloned()
                    .collect(),
            };
            let resets = rule.statements.iter().any(|d| {
                d.keyword == "reset" && d.arguments.first().is_some_and(|a| a.is_word("move_rule"))
            });
            match event {
                "capture" if !triggered.effects.is_empty() => {
                    effects.sends |= triggered.effects.iter().any(|d| d.keyword == "send");
                    effects.capture.push(triggered);
                }
                "enter" if !triggered.effects.is_empty() => {
                    if let Some(zone) = on.arguments.get(1).and_then(Arg::as_zone) {
                        effects.enter.push((zone, triggered));
                    }
                }
                "transform" => effects.reset_on_transform |= resets,
                "transfer" => effects.reset_on_transfer |= resets,
                _ => {}
            }
        }
        effects
    }

    /// Whether the game has rules this module runs.
    pub(super) fn is_active(&self) -> bool {
        !self.capture.is_empty() || !self.enter.is_empty()
    }
}

impl Interpreter {
    /// The waiting pieces of `player`, before a move, for [`Interpreter::end_waiting`].
    pub(super) fn waiting_pieces(&self, pos: &Position, player: usize) -> Vec<(CellId, Occupant)> {
        if !self.effects.sends {
            return Vec::new();
        }
        pos.cells
            .iter()
            .enumerate()
            .filter(|(_, o)| !o.is_empty() && o.is_waiting() && o.owner() == player)
            .map(|(c, o)| (c, *o))
            .collect()
    }

    /// After a move: pieces of the mover that were already waiting before it and are still there have
    /// now waited.
    pub(super) fn end_waiting(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        before: &[(CellId, Occupant)],
    ) {
        for &(cell, occ) in before {
            if pos.cells[cell] == occ {
                self.put(pos, undo, cell, occ.with_waiting(false));
            }
        }
    }

    /// Runs the capture and enter rules of a move by `mover` that took `victims` (cell and piece) and
    /// ended on `to`. Returns whether a transformation or a transfer happened that resets the move
    /// rule.
    pub(super) fn apply_effects(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        mover: usize,
        to: CellId,
        victims: &[(CellId, Occupant)],
    ) -> bool {
        let mut resets = false;
        let moved = pos.cells[to];
        for &(cell, victim) in victims {
            let mut piece = victim;
            let mut destination: Option<Vec<CellId>> = None;
            for rule in &self.effects.capture {
                let event = Event {
                    captured: Some((cell, piece)),
                    mover: (to, moved),
                };
                if !self.rule_holds(&rule.conditions, &event) {
                    continue;
                }
                for effect in &rule.effects {
                    if effect
                        .condition
                        .as_ref()
                        .is_some_and(|c| !self.effect_condition(c, &event))
                    {
                        continue;
                    }
                    match effect.keyword.as_str() {
                        "transform" => {
                            piece = self.transformed(effect, piece);
                            resets |= self.effects.reset_on_transform;
                        }
                        "send" => destination = Some(self.destination(effect, piece)),
                        _ => {}
                    }
                }
            }
            if let Some(cells) = destination {
                self.send(pos, undo, &cells, piece);
                resets |= self.effects.reset_on_transfer;
            }
        }
        if pos.cells[to].is_empty() {
            return resets;
        }
        for (zone, rule) in &self.effects.enter {
            let landed = pos.cells[to];
            if landed.is_empty() || !self.in_zone(*zone, mover, to) {
                continue;
            }
            let event = Event {
                captured: None,
                mover: (to, landed),
            };
            if !self.rule_holds(&rule.conditions, &event) {
                continue;
            }
            for effect in rule.effects.iter().filter(|d| d.keyword == "transform") {
                if effect
                    .condition
                    .as_ref()
                    .is_some_and(|c| !self.effect_condition(c, &event))
                {
                    continue;
                }
                let changed = self.transformed(effect, landed);
                if changed != landed {
                    self.put(pos, undo, to, changed);
                    resets |= self.effects.reset_on_transform;
                }
            }
        }
        resets
    }

    /// A piece after `transform SUBJECT PIECE [owner PLAYER]`.
    fn transformed(&self, effect: &Directive, occ: Occupant) -> Occupant {
        let piece = effect
            .arguments
            .iter()
            .find_map(Arg::as_piece)
            .unwrap_or(occ.piece());
        let owner = effect
            .arguments
            .iter()
            .position(|a| a.is_word("owner"))
            .and_then(|i| effect.arguments.get(i + 1))
            .and_then(|a| self.player_named(a))
            .unwrap_or(occ.owner());
        Occupant::new(piece, owner, false, false).with_waiting(occ.is_waiting())
    }

    /// The cells `send SUBJECT PLACE` may put a piece on: a board's cells, a zone's (for the piece's
    /// owner) or one cell.
    fn destination(&self, effect: &Directive, occ: Occupant) -> Vec<CellId> {
        let Some(place) = effect.arguments.get(1) else {
            return Vec::new();
        };
        match place {
            Arg::Zone(zone) => (0..self.game.cells.len())
                .filter(|&c| self.in_zone(*zone, occ.owner(), c))
                .collect(),
            Arg::Board(board) => self.board_cells(*board),
            Arg::Cell(cell) => vec![*cell],
            Arg::Word(name) => match self.game.boards.iter().position(|b| b.name == *name) {
                Some(board) => self.board_cells(board),
                None => self
                    .game
                    .cells
                    .iter()
                    .position(|c| c.name == *name)
                    .into_iter()
                    .collect(),
            },
            _ => Vec::new(),
        }
    }

    fn board_cells(&self, board: usize) -> Vec<CellId> {
        let b = &self.game.boards[board];
        (b.first_cell..b.first_cell + b.cell_count).collect()
    }

    /// Puts a sent piece on the first empty destination cell; on a full board with `overflow
    /// capture`, the newcomer captures the occupant of the first cell (it leaves the game); otherwise
    /// the piece leaves the game.
    fn send(&self, pos: &mut Position, undo: &mut Undo, cells: &[CellId], occ: Occupant) {
        let arriving = occ.with_waiting(true);
        if let Some(&cell) = cells.iter().find(|&&c| pos.cells[c].is_empty()) {
            self.put(pos, undo, cell, arriving);
        } else if let Some(&cell) = cells.first() {
            if self.game.boards[self.game.cells[cell].board].overflow_captures {
                self.put(pos, undo, cell, arriving);
            }
        }
    }

    fn player_named(&self, arg: &Arg) -> Option<PlayerId> {
        match arg {
            Arg::Player(p) => Some(*p),
            Arg::Word(name) => self.game.players.iter().position(|p| p.name == *name),
            _ => None,
        }
    }

    fn rule_holds(&self, conditions: &[Expr], event: &Event) -> bool {
        conditions.iter().all(|c| self.effect_condition(c, event))
    }

    /// Evaluates a rule condition about the event; what it cannot evaluate counts as true.
    fn effect_condition(&self, e: &Expr, event: &Event) -> bool {
        !matches!(self.effect_value(e, event), Value::Bool(false))
    }

    fn effect_value(&self, e: &Expr, event: &Event) -> Value {
        match e {
            Expr::And(parts) => Value::Bool(parts.iter().all(|p| self.effect_condition(p, event))),
            Expr::Or(parts) => Value::Bool(parts.iter().any(|p| self.effect_condition(p, event))),
            Expr::Not(inner) => match self.effect_value(inner, event) {
                Value::Bool(b) => Value::Bool(!b),
                _ => Value::Unknown,
            },
            Expr::Compare(op, l, r) => {
                let (a, b) = (self.effect_value(l, event), self.effect_value(r, event));
                if a == Value::Unknown || b == Value::Unknown {
                    return Value::Unknown;
                }
                match (*op, &a, &b) {
                    ("==", ..) => Value::Bool(a == b),
                    ("!=", ..) => Value::Bool(a != b),
                    ("in", _, Value::List(items)) => Value::Bool(items.contains(&a)),
                    (op, Value::Int(x), Value::Int(y)) => Value::Bool(match op {
                        "<" => x < y,
                        "<=" => x <= y,
                        ">" => x > y,
                        ">=" => x >= y,
                        _ => return Value::Unknown,
                    }),
                    _ => Value::Unknown,
                }
            }
            Expr::Path(path) => self.event_path(path, event),
            Expr::Literal(arg) => self.event_arg(arg),
            Expr::Arith(..) | Expr::Call(..) => Value::Unknown,
        }
    }

    fn event_arg(&self, arg: &Arg) -> Value {
        match arg {
            Arg::Piece(p) => Value::Piece(*p),
            Arg::Player(p) => Value::Player(*p),
            Arg::Int(n) => Value::Int(*n),
            Arg::Word(w) | Arg::Str(w) => self.name_value(w),
            Arg::List(items) => Value::List(items.iter().map(|a| self.event_arg(a)).collect()),
            _ => Value::Unknown,
        }
    }

    fn name_value(&self, name: &str) -> Value {
        match self.game.players.iter().position(|p| p.name == name) {
            Some(p) => Value::Player(p),
            None => Value::Word(name.to_string()),
        }
    }

    fn event_path(&self, path: &[String], event: &Event) -> Value {
        let subject = match path.first().map(String::as_str) {
            Some("captured") => event.captured,
            Some("mover") => Some(event.mover),
            Some(name) if path.len() == 1 => return self.name_value(name),
            _ => return Value::Unknown,
        };
        let Some((cell, occ)) = subject else {
            return Value::Unknown;
        };
        match path.get(1).map(String::as_str) {
            Some("piece") => Value::Piece(occ.piece()),
            Some("owner") => Value::Player(occ.owner()),
            Some("board") => {
                Value::Word(self.game.boards[self.game.cells[cell].board].name.clone())
            }
            Some("cell") => Value::Word(self.game.cells[cell].name.clone()),
            _ => Value::Unknown,
        }
    }
}
