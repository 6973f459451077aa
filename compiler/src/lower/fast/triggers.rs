//! Triggered rules on the captured piece, on entering zones and on the changes a move made, in
//! the compact form ([`FastTriggers`]).
//!
//! The interpreter (`runtime/src/interp/effects.rs`) runs them after a move in this order: for each
//! captured piece, while it is in transit, the `on capture` rules (they may transform it, send it to
//! a board or a cell, remove it); then the `on enter ZONE` rules for the piece on the arrival cell
//! (events in the order they first appear among the rules, each with its rules in file order);
//! then `on transfer` (the move went to another board, or a sent piece arrived on another board
//! than the one it was captured on) and `on transform` (the move or a rule changed a piece's type).
//! A piece a rule sends is waiting until its owner has completed a move after it arrived
//! (`mover.waited`): the compact position keeps the waiting pieces' cells.
//!
//! The conditions these rules may have look at one participant only (the captured piece in `on
//! capture` rules, the piece on the arrival cell in `on enter` rules: its type, owner, cell and
//! board) and at the player who moved: they are decided ahead, per moving player, per piece code
//! and per cell ([`FastWhere`]).

use vdl_runtime::model::{
    BoardExpr, CellExpr, Cond, Destination, Effect, Event, Game, IntExpr, Into, Overflow, PieceRef,
    PieceTypeExpr, PlayerExpr, Rule, Target, Value, Who,
};

use super::{cell_set, movers_of, sides_of, Bits, FastCond, FastInt};

/// The triggered rules the compact form plays after a move (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct FastTriggers {
    /// The `on capture` rules, in file order: run for each captured piece, about it.
    pub captured: Vec<FastRule>,
    /// The `on enter ZONE` rules, in the order the interpreter fires them, about the piece on
    /// the arrival cell.
    pub entered: Vec<FastRule>,
    /// An `on transform` rule resets the move-rule count (`reset move_rule`).
    pub reset_on_transform: bool,
    /// An `on transfer` rule resets the move-rule count.
    pub reset_on_transfer: bool,
    /// A rule sends pieces: the pieces it sends wait until their owner has moved.
    pub sends: bool,
}

/// Where a condition on a participant holds: per moving player, per piece code less one (type
/// times sides plus owner), the participant's cells.
pub type FastWhere = Vec<Vec<Bits>>;

/// A triggered rule about one participant.
#[derive(Clone, Debug, PartialEq)]
pub struct FastRule {
    /// Its name.
    pub name: String,
    /// For `on enter ZONE`: per moving player, the zone's cells (the arrival cell must be one).
    pub zone: Option<Vec<Bits>>,
    /// Its bare conditions.
    pub when: FastWhere,
    /// Its effects in order, each perhaps under its own condition.
    pub effects: Vec<FastEffect>,
}

/// An effect of a [`FastRule`] on its participant.
#[derive(Clone, Debug, PartialEq)]
pub struct FastEffect {
    /// Its own condition, if any (decided when it runs, on the participant as it is then).
    pub when: Option<FastWhere>,
    /// What it does.
    pub action: FastAction,
}

/// What an effect does.
#[derive(Clone, Debug, PartialEq)]
pub enum FastAction {
    /// The participant changes type (per type, the type it becomes; `None`: it stays, and keeps
    /// its owner) and perhaps owner. The new piece is neither unmoved nor promoted.
    Transform {
        /// Per type, the new type.
        into: Vec<Option<usize>>,
        /// Its new owner.
        owner: FastNewOwner,
    },
    /// The captured piece goes to the first empty cell of these (a board's, or one cell); when
    /// there is none or the board holds `capacity` pieces, under `overflow capture` it captures
    /// the occupant of the first occupied cell, else it leaves the game. It arrives waiting.
    Send {
        /// The cells, in order.
        cells: Bits,
        /// The most pieces the board holds (`capacity`; only for a board).
        capacity: Option<u32>,
        /// `overflow capture`.
        overflow: bool,
        /// The board of the cells.
        board: usize,
    },
    /// The captured piece leaves the game (it would anyway, once the rules have run).
    Remove,
    /// The move-rule count restarts.
    ResetMoveRule,
}

/// Who owns a transformed piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastNewOwner {
    /// Its owner.
    Same,
    /// A player.
    Player(usize),
}

/// Whether the rules are of the kinds [`lower_triggers`] lowers (each on one event among
/// `capture`, `enter`, `transform` and `transfer`, their effects about the captured piece, the
/// piece that moved, or the move rule): it then names what it cannot play.
pub(super) fn are_triggers(rules: &[Rule]) -> bool {
    !rules.is_empty()
        && rules.iter().all(|rule| {
            let about = match rule.events.as_slice() {
                [Event::Capture] => PieceRef::Captured,
                [Event::Enter(_)] => PieceRef::Mover,
                [Event::Transform | Event::Transfer] => return rule.conditions.is_empty(),
                _ => return false,
            };
            rule.effects.iter().all(|e| match &e.item {
                Effect::Remove(t) | Effect::Send(t, _) | Effect::Transform { target: t, .. } => {
                    t.who == Who::Piece(about)
                }
                Effect::ResetMoveRule => true,
                _ => false,
            })
        })
}

/// The game's triggered rules in the compact form, when [`are_triggers`] holds for them; or why
/// it cannot play them.
pub(super) fn lower_triggers(game: &Game, rules: &[Rule]) -> Result<FastTriggers, String> {
    check_features(game)?;
    let mut triggers = FastTriggers {
        captured: Vec::new(),
        entered: Vec::new(),
        reset_on_transform: false,
        reset_on_transfer: false,
        sends: false,
    };
    // The zone events in the order they first appear, each with its rules in file order.
    let mut zones: Vec<usize> = Vec::new();
    for rule in rules {
        if let [Event::Enter(z)] = rule.events.as_slice() {
            if !zones.contains(z) {
                zones.push(*z);
            }
        }
    }
    for rule in rules {
        match rule.events.as_slice() {
            [Event::Capture] => {
                let lowered = lower_rule(game, rule, PieceRef::Captured, None)?;
                triggers.sends |= lowered
                    .effects
                    .iter()
                    .any(|e| matches!(e.action, FastAction::Send { .. }));
                triggers.captured.push(lowered);
            }
            [event @ (Event::Transform | Event::Transfer)] => {
                if rule
                    .effects
                    .iter()
                    .any(|e| e.item != Effect::ResetMoveRule || e.condition.is_some())
                {
                    return Err(format!(
                        "the triggered rule `{}` (on {}: the compact form implements only \
                         `reset move_rule`)",
                        rule.name,
                        event.keyword()
                    ));
                }
                if *event == Event::Transform {
                    triggers.reset_on_transform = true;
                } else {
                    triggers.reset_on_transfer = true;
                }
            }
            _ => {}
        }
    }
    for zone in zones {
        for rule in rules
            .iter()
            .filter(|r| r.events.as_slice() == [Event::Enter(zone)])
        {
            let cells = (0..movers_of(game))
                .map(|p| cell_set(&game.zones[zone].cells[p]))
                .collect();
            triggers
                .entered
                .push(lower_rule(game, rule, PieceRef::Mover, Some(cells))?);
        }
    }
    Ok(triggers)
}

/// The features the compact form does not play together with these rules.
fn check_features(game: &Game) -> Result<(), String> {
    let turn = &game.turn;
    let feature = [
        (
            game.pieces.iter().any(|p| p.royal.is_royal()),
            "royal pieces",
        ),
        (movers_of(game) > 2, "more than two players"),
        (!game.reserves.is_empty(), "reserves"),
        (!game.castling.is_empty(), "castling"),
        (game.pieces.iter().any(|p| !p.stacks.is_empty()), "stacks"),
        (game.custodian.is_some(), "custodian capture"),
        (turn.wall.is_some(), "walls"),
        // Rules run after each single move, their resets of the move rule counting for the turn;
        // a piece a rule sends waits for its owner's next move, which several moves a turn would
        // make a different wait.
        (
            turn.moves > 1
                && game
                    .rules
                    .iter()
                    .any(|r| r.effects.iter().any(|e| matches!(e.item, Effect::Send(..)))),
            "turns of several moves and rules that send pieces",
        ),
        (!turn.freeze.is_empty(), "freezing"),
        (
            game.pieces.iter().any(|p| !p.promotion_moves.is_empty()),
            "`promote_move`",
        ),
        (
            game.end
                .iter()
                .any(|r| matches!(r.kind, vdl_runtime::model::EndKind::Captures(..))),
            "a `captures` end rule",
        ),
    ]
    .into_iter()
    .find_map(|(present, name)| present.then_some(name));
    match feature {
        Some(feature) => Err(format!(
            "triggered rules on captured and arriving pieces, with {feature}"
        )),
        None => Ok(()),
    }
}

/// A rule about one participant.
fn lower_rule(
    game: &Game,
    rule: &Rule,
    about: PieceRef,
    zone: Option<Vec<Bits>>,
) -> Result<FastRule, String> {
    let refuse = |what: &str| format!("the triggered rule `{}` ({what})", rule.name);
    let bare = match rule.conditions.as_slice() {
        [] => Cond::Const(true),
        [one] => one.clone(),
        many => Cond::All(many.to_vec()),
    };
    let when = decide(game, &bare, about).map_err(|e| refuse(&e))?;
    let mut effects = Vec::new();
    for effect in &rule.effects {
        let when = match &effect.condition {
            None => None,
            Some(c) => Some(decide(game, c, about).map_err(|e| refuse(&e))?),
        };
        let action = match &effect.item {
            Effect::ResetMoveRule => FastAction::ResetMoveRule,
            Effect::Remove(t) if about == PieceRef::Captured && t.except.is_empty() => {
                FastAction::Remove
            }
            Effect::Send(t, destination) if about == PieceRef::Captured && t.except.is_empty() => {
                lower_send(game, *destination).ok_or_else(|| {
                    refuse("a `send` to a zone or a reserve; the compact form sends to boards and cells")
                })?
            }
            Effect::Transform {
                target: Target { except, .. },
                into,
                owner,
                from: None,
            } => {
                let into = (0..game.pieces.len())
                    .map(|piece| {
                        let kind = match into {
                            Into::Piece(p) => Some(*p),
                            Into::Map(m) => game.typemaps.get(*m).and_then(|map| map.get(piece)),
                        };
                        kind.filter(|&k| k != piece && !except.contains(&piece))
                    })
                    .collect();
                let owner = match owner {
                    None => FastNewOwner::Same,
                    Some(PlayerExpr::Literal(p)) => FastNewOwner::Player(*p),
                    Some(_) => return Err(refuse("a new owner other than a player")),
                };
                FastAction::Transform { into, owner }
            }
            _ => {
                return Err(refuse(
                    "an effect other than `transform`, `send`, `remove` and `reset move_rule`",
                ))
            }
        };
        effects.push(FastEffect { when, action });
    }
    Ok(FastRule {
        name: rule.name.clone(),
        zone,
        when,
        effects,
    })
}

/// Where a captured piece is sent, or `None` for a zone or reserve.
fn lower_send(game: &Game, destination: Destination) -> Option<FastAction> {
    match destination {
        Destination::Board(b) => {
            let board = &game.boards[b];
            Some(FastAction::Send {
                cells: cell_set(board.first_cell..board.first_cell + board.cell_count),
                capacity: board.capacity,
                overflow: board.overflow == Overflow::Capture,
                board: b,
            })
        }
        Destination::Cell(cell) => {
            let board = game.cells[cell].board;
            Some(FastAction::Send {
                cells: Bits::bit(cell),
                capacity: None,
                overflow: game.boards[board].overflow == Overflow::Capture,
                board,
            })
        }
        Destination::Zone(_) | Destination::Reserve(_) => None,
    }
}

/// The participant a condition is decided for.
#[derive(Clone, Copy)]
struct Case {
    about: PieceRef,
    player: usize,
    piece: usize,
    owner: usize,
    cell: usize,
    board: usize,
}

/// Where a condition about `about` holds, or what in it the compact form cannot decide ahead.
fn decide(game: &Game, cond: &Cond, about: PieceRef) -> Result<FastWhere, String> {
    let sides = sides_of(game);
    let mut table = Vec::new();
    for player in 0..movers_of(game) {
        let mut row = Vec::new();
        for code in 0..game.pieces.len() * sides {
            let mut cells = Bits::ZERO;
            for (cell, info) in game.cells.iter().enumerate() {
                let case = Case {
                    about,
                    player,
                    piece: code / sides,
                    owner: code % sides,
                    cell,
                    board: info.board,
                };
                if holds(cond, &case)? {
                    cells |= Bits::bit(cell);
                }
            }
            row.push(cells);
        }
        table.push(row);
    }
    Ok(table)
}

/// A condition on the participant and the player who moved, as the interpreter evaluates it.
fn holds(cond: &Cond, case: &Case) -> Result<bool, String> {
    Ok(match cond {
        Cond::Const(b) => *b,
        Cond::Not(c) => !holds(c, case)?,
        Cond::All(cs) => {
            let mut all = true;
            for c in cs {
                all &= holds(c, case)?;
            }
            all
        }
        Cond::Any(cs) => {
            let mut any = false;
            for c in cs {
                any |= holds(c, case)?;
            }
            any
        }
        Cond::Equal(a, b) => value(a, case)? == value(b, case)?,
        Cond::Member(a, list) => {
            let a = value(a, case)?;
            let mut found = false;
            for b in list {
                found |= value(b, case)? == a;
            }
            found
        }
        Cond::Compare(op, a, b) => op.holds(constant(a)?, constant(b)?),
        Cond::Between(n, lo, hi) => (*lo..=*hi).contains(&constant(n)?),
        _ => return Err(unsupported()),
    })
}

fn unsupported() -> String {
    "a condition on more than the type, owner, cell and board of the piece it is about".into()
}

fn constant(n: &IntExpr) -> Result<i64, String> {
    Ok(match n {
        IntExpr::Const(v) => *v,
        IntExpr::Add(a, b) => constant(a)?.saturating_add(constant(b)?),
        IntExpr::Sub(a, b) => constant(a)?.saturating_sub(constant(b)?),
        _ => return Err(unsupported()),
    })
}

/// A value for `==` and `in`, as the interpreter's `value`: a kind and an index.
fn value(v: &Value, case: &Case) -> Result<(u8, usize), String> {
    let me = |p: &PieceRef| {
        if *p == case.about {
            Ok(())
        } else {
            Err(unsupported())
        }
    };
    Ok(match v {
        Value::Player(PlayerExpr::Literal(p)) => (0, *p),
        Value::Player(PlayerExpr::Own | PlayerExpr::ToMove) => (0, case.player),
        Value::Player(PlayerExpr::OwnerOf(p)) => {
            me(p)?;
            (0, case.owner)
        }
        Value::Piece(PieceTypeExpr::Literal(t)) => (1, *t),
        Value::Piece(PieceTypeExpr::TypeOf(p)) => {
            me(p)?;
            (1, case.piece)
        }
        Value::Cell(CellExpr::Literal(c)) => (2, *c),
        Value::Cell(CellExpr::Of(p)) => {
            me(p)?;
            (2, case.cell)
        }
        Value::Board(BoardExpr::Literal(b)) => (3, *b),
        Value::Board(BoardExpr::Of(p)) => {
            me(p)?;
            (3, case.board)
        }
        _ => return Err(unsupported()),
    })
}

/// Whether a condition of moves reads whether a piece has waited (`mover.waited`): the position
/// then keeps the waiting pieces.
pub(super) fn reads_waited(cond: &FastCond) -> bool {
    fn int(n: &FastInt) -> bool {
        match n {
            FastInt::Waited => true,
            FastInt::Add(a, b) | FastInt::Sub(a, b) => int(a) || int(b),
            FastInt::Const(_)
            | FastInt::Count { .. }
            | FastInt::Held { .. }
            | FastInt::Enclosed => false,
        }
    }
    match cond {
        FastCond::Not(c) => reads_waited(c),
        FastCond::All(cs) | FastCond::Any(cs) => cs.iter().any(reads_waited),
        FastCond::Compare(_, a, b) => int(a) || int(b),
        FastCond::Between(n, ..) => int(n),
        FastCond::Const(_)
        | FastCond::MoverIn(_)
        | FastCond::Near { .. }
        | FastCond::InCheck(_)
        | FastCond::Empty(_)
        | FastCond::PlayerIn(..) => false,
    }
}
