//! Conditions evaluated on a position: the model's typed [`Cond`], with the participants a statement
//! provides in a [`Scope`]. Evaluation is total: the checker only builds conditions whose
//! participants the statement provides, so a missing participant (a bug) reads as absent, which makes
//! the comparisons about it false.

use crate::model::{
    BoardExpr, CellExpr, CellId, Cond, IntExpr, PieceRef, PieceSet, PieceTypeExpr, Place,
    PlayerExpr, PlayerId, Sides, Value,
};

use super::position::{Occupant, Position};
use super::tables::Interpreter;

/// What a condition can see besides the position.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Scope {
    /// The player the statement concerns (`own`).
    pub own: PlayerId,
    /// The cell of the piece concerned (`mover`), read on the board.
    pub mover: Option<CellId>,
    /// The captured piece and the cell it stood on.
    pub captured: Option<(CellId, Occupant)>,
    /// The cell a hopping leg passes over (`hurdle`).
    pub hurdle: Option<CellId>,
    /// The move's start and arrival cells.
    pub from: Option<CellId>,
    /// See `from`.
    pub to: Option<CellId>,
    /// In a checkmate rule: who checkmated, and whom.
    pub mater: Option<PlayerId>,
    /// See `mater`.
    pub checkmated: Option<PlayerId>,
}

impl Scope {
    /// The scope of a statement about the piece on `cell`, concerning `own`.
    pub fn piece(own: PlayerId, cell: CellId) -> Scope {
        Scope {
            own,
            mover: Some(cell),
            from: Some(cell),
            ..Scope::default()
        }
    }

    /// The scope of a statement about a player only.
    pub fn player(own: PlayerId) -> Scope {
        Scope {
            own,
            ..Scope::default()
        }
    }
}

/// Distance between cells of different boards: farther than any comparison in a rule file.
const FAR: i64 = i64::MAX / 4;

impl Interpreter {
    /// Evaluates a condition.
    pub(super) fn condition_holds(&self, pos: &Position, scope: &Scope, c: &Cond) -> bool {
        match c {
            Cond::Const(b) => *b,
            Cond::Not(inner) => !self.condition_holds(pos, scope, inner),
            Cond::All(parts) => parts.iter().all(|p| self.condition_holds(pos, scope, p)),
            Cond::Any(parts) => parts.iter().any(|p| self.condition_holds(pos, scope, p)),
            Cond::Compare(op, a, b) => op.holds(self.int(pos, scope, a), self.int(pos, scope, b)),
            Cond::Equal(a, b) => self.value(pos, scope, a) == self.value(pos, scope, b),
            Cond::Member(a, list) => {
                let a = self.value(pos, scope, a);
                list.iter().any(|b| self.value(pos, scope, b) == a)
            }
            Cond::Between(n, lo, hi) => (*lo..=*hi).contains(&self.int(pos, scope, n)),
            Cond::OptionIs(option, words) => self.option_is(*option, words),
            Cond::InCheck(p) => self
                .player(pos, scope, p)
                .is_some_and(|p| self.royal_attacked(pos, p)),
            Cond::Attacked(cell, by) => match self.cell(pos, scope, cell) {
                Some(cell) => self
                    .side_members(pos, scope, by)
                    .into_iter()
                    .any(|p| self.cell_attacked(pos, cell, p)),
                None => false,
            },
            Cond::InZone(piece, zone, player) => match self.piece_at(pos, scope, *piece) {
                Some((cell, occ)) => {
                    let player = match player {
                        Some(p) => self.player(pos, scope, p),
                        None => Some(occ.owner()),
                    };
                    player.is_some_and(|p| self.in_zone(*zone, p, cell))
                }
                None => false,
            },
            Cond::HasMoved(piece) => self
                .piece_at(pos, scope, *piece)
                .is_some_and(|(_, occ)| !occ.is_virgin()),
            Cond::Empty(cell) => self
                .cell(pos, scope, cell)
                .is_some_and(|c| pos.cells[c].is_empty()),
            Cond::Adjacent(a, b) => matches!(
                (self.cell(pos, scope, a), self.cell(pos, scope, b)),
                (Some(a), Some(b)) if self.king_distance(a, b) == 1
            ),
            Cond::Eliminated(p) => self
                .player(pos, scope, p)
                .is_some_and(|p| pos.is_eliminated(p)),
            Cond::Stacked(piece) => self
                .piece_at(pos, scope, *piece)
                .is_some_and(|(cell, _)| pos.stacks.iter().any(|&(c, _)| c == cell)),
            Cond::Near {
                cell,
                leaps,
                side,
                types,
            } => {
                let Some(cell) = self.cell(pos, scope, cell) else {
                    return false;
                };
                let owners = self.side_members(pos, scope, side);
                leaps.iter().any(|&v| {
                    self.step(cell, v).is_some_and(|c| {
                        let occ = pos.cells[c];
                        !occ.is_empty()
                            && owners.contains(&occ.owner())
                            && self.in_set(types, occ.piece())
                    })
                })
            }
        }
    }

    /// Whether a promotion rule's condition, which depends on option values only, holds under the
    /// current option values (compiled engines switch such rules on and off).
    pub(crate) fn promotion_enabled(&self, piece: usize, rule: usize) -> bool {
        self.game
            .pieces
            .get(piece)
            .and_then(|p| p.promotions.get(rule))
            .is_some_and(|r| {
                r.condition
                    .as_ref()
                    .is_none_or(|c| self.option_condition(c))
            })
    }

    /// Whether condition `condition` of triggered rule `rule`, one that depends on option values
    /// only, holds under the current option values (the compact form's rule switches).
    pub(crate) fn rule_condition_enabled(&self, rule: usize, condition: usize) -> bool {
        self.game
            .rules
            .get(rule)
            .and_then(|r| r.conditions.get(condition))
            .is_some_and(|c| self.option_condition(c))
    }

    /// Evaluates a condition that depends on option values only (setup, reserve contents): the
    /// checker allows nothing else there.
    pub(super) fn option_condition(&self, c: &Cond) -> bool {
        match c {
            Cond::Const(b) => *b,
            Cond::Not(inner) => !self.option_condition(inner),
            Cond::All(parts) => parts.iter().all(|p| self.option_condition(p)),
            Cond::Any(parts) => parts.iter().any(|p| self.option_condition(p)),
            Cond::OptionIs(option, words) => self.option_is(*option, words),
            Cond::Compare(op, a, b) => op.holds(self.static_int(a), self.static_int(b)),
            Cond::Between(n, lo, hi) => (*lo..=*hi).contains(&self.static_int(n)),
            Cond::Equal(..)
            | Cond::Member(..)
            | Cond::InCheck(_)
            | Cond::Attacked(..)
            | Cond::InZone(..)
            | Cond::HasMoved(_)
            | Cond::Empty(_)
            | Cond::Adjacent(..)
            | Cond::Eliminated(_)
            | Cond::Stacked(_)
            | Cond::Near { .. } => {
                debug_assert!(
                    false,
                    "a condition on the position where only options are seen"
                );
                false
            }
        }
    }

    fn static_int(&self, e: &IntExpr) -> i64 {
        match e {
            IntExpr::Const(n) => *n,
            IntExpr::Add(a, b) => self.static_int(a).saturating_add(self.static_int(b)),
            IntExpr::Sub(a, b) => self.static_int(a).saturating_sub(self.static_int(b)),
            IntExpr::Option(o) => self.option_int(*o),
            _ => {
                debug_assert!(
                    false,
                    "a number from the position where only options are seen"
                );
                0
            }
        }
    }

    fn option_is(&self, option: usize, words: &[String]) -> bool {
        let Some(name) = self.game.options.get(option).map(|o| o.name.as_str()) else {
            return false;
        };
        self.option_value(name).is_some_and(|v| words.contains(&v))
    }

    fn option_int(&self, option: usize) -> i64 {
        self.game
            .options
            .get(option)
            .and_then(|o| self.option_value(&o.name))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    fn int(&self, pos: &Position, scope: &Scope, e: &IntExpr) -> i64 {
        match e {
            IntExpr::Const(n) => *n,
            IntExpr::Add(a, b) => self
                .int(pos, scope, a)
                .saturating_add(self.int(pos, scope, b)),
            IntExpr::Sub(a, b) => self
                .int(pos, scope, a)
                .saturating_sub(self.int(pos, scope, b)),
            IntExpr::Option(o) => self.option_int(*o),
            IntExpr::Count {
                side,
                pieces,
                place,
            } => {
                let owners = self.side_members(pos, scope, side);
                pos.cells
                    .iter()
                    .enumerate()
                    .filter(|(cell, o)| {
                        !o.is_empty()
                            && owners.contains(&o.owner())
                            && self.in_set(pieces, o.piece())
                            && match place {
                                None => true,
                                Some(Place::Zone(z)) => self.in_zone(*z, o.owner(), *cell),
                                Some(Place::Board(b)) => self.game.cells[*cell].board == *b,
                            }
                    })
                    .count() as i64
            }
            IntExpr::Distance(a, b) => match (self.cell(pos, scope, a), self.cell(pos, scope, b)) {
                (Some(a), Some(b)) => self.king_distance(a, b),
                _ => FAR,
            },
            IntExpr::Colour(c) => self.cell(pos, scope, c).map_or(0, |c| {
                let [x, y, z] = self.game.cells[c].coord;
                ((x + y + z) & 1) as i64
            }),
            IntExpr::LegalMoves(p) => match self.player(pos, scope, p) {
                Some(p) => {
                    let mut scratch = pos.clone();
                    scratch.side = p;
                    self.count_legal(&mut scratch) as i64
                }
                None => 0,
            },
            IntExpr::Held(reserve, piece, player) => {
                let player = match player {
                    Some(p) => match self.player(pos, scope, p) {
                        Some(p) => p,
                        None => return 0,
                    },
                    None => scope.own,
                };
                let row = self.reserve_row(pos, *reserve, player);
                pos.hands
                    .get(row)
                    .and_then(|h| h.get(*piece))
                    .copied()
                    .unwrap_or(0) as i64
            }
            IntExpr::StackCount(p) => match self.player(pos, scope, p) {
                Some(p) => pos
                    .stacks
                    .iter()
                    .filter(|&&(c, _)| !pos.cells[c].is_empty() && pos.cells[c].owner() == p)
                    .count() as i64,
                None => 0,
            },
            IntExpr::Enclosed(cell) => self
                .cell(pos, scope, cell)
                .map_or(0, |c| self.enclosed_by(pos, c, scope.own).len() as i64),
            IntExpr::Waited(piece) => self
                .piece_at(pos, scope, *piece)
                .map_or(0, |(_, occ)| i64::from(!occ.is_waiting())),
        }
    }

    /// A value for `==` and `in`: a player, type, cell or board, or nothing.
    fn value(&self, pos: &Position, scope: &Scope, v: &Value) -> Option<(u8, usize)> {
        match v {
            Value::Player(p) => self.player(pos, scope, p).map(|p| (0, p)),
            Value::Piece(t) => self.piece_type(pos, scope, t).map(|p| (1, p)),
            Value::Cell(c) => self.cell(pos, scope, c).map(|c| (2, c)),
            Value::Board(b) => self.board(pos, scope, b).map(|b| (3, b)),
        }
    }

    pub(super) fn player(&self, pos: &Position, scope: &Scope, p: &PlayerExpr) -> Option<PlayerId> {
        match p {
            PlayerExpr::Literal(p) => Some(*p),
            PlayerExpr::Own => Some(scope.own),
            PlayerExpr::ToMove => Some(pos.side),
            PlayerExpr::OwnerOf(piece) => self.piece_at(pos, scope, *piece).map(|(_, o)| o.owner()),
            PlayerExpr::OwnerAt(cell) => self
                .cell(pos, scope, cell)
                .map(|c| pos.cells[c])
                .filter(|o| !o.is_empty())
                .map(|o| o.owner()),
            PlayerExpr::Opponent => Some(self.next_player(scope.own)),
            PlayerExpr::Mater => scope.mater,
            PlayerExpr::Checkmated => scope.checkmated,
        }
    }

    fn piece_type(&self, pos: &Position, scope: &Scope, t: &PieceTypeExpr) -> Option<usize> {
        match t {
            PieceTypeExpr::Literal(p) => Some(*p),
            PieceTypeExpr::TypeOf(piece) => {
                self.piece_at(pos, scope, *piece).map(|(_, o)| o.piece())
            }
            PieceTypeExpr::At(cell) => self
                .cell(pos, scope, cell)
                .map(|c| pos.cells[c])
                .filter(|o| !o.is_empty())
                .map(|o| o.piece()),
        }
    }

    fn cell(&self, pos: &Position, scope: &Scope, c: &CellExpr) -> Option<CellId> {
        match c {
            CellExpr::Literal(c) => Some(*c),
            CellExpr::Of(piece) => self.piece_at(pos, scope, *piece).map(|(c, _)| c),
            CellExpr::From => scope.from,
            CellExpr::To => scope.to,
        }
    }

    fn board(&self, pos: &Position, scope: &Scope, b: &BoardExpr) -> Option<usize> {
        match b {
            BoardExpr::Literal(b) => Some(*b),
            BoardExpr::Of(piece) => self
                .piece_at(pos, scope, *piece)
                .map(|(c, _)| self.game.cells[c].board),
        }
    }

    /// A participant piece: its cell and what stands there (the captured piece as it was).
    fn piece_at(
        &self,
        pos: &Position,
        scope: &Scope,
        piece: PieceRef,
    ) -> Option<(CellId, Occupant)> {
        let on_board = |cell: CellId| Some((cell, pos.cells[cell])).filter(|(_, o)| !o.is_empty());
        match piece {
            PieceRef::Mover => scope.mover.and_then(on_board),
            PieceRef::Hurdle => scope.hurdle.and_then(on_board),
            PieceRef::Captured => scope.captured,
        }
    }

    /// The players (and neutral sides) a set names.
    fn side_members(&self, pos: &Position, scope: &Scope, sides: &Sides) -> Vec<PlayerId> {
        match sides {
            Sides::One(p) => self.player(pos, scope, p).into_iter().collect(),
            Sides::Enemies => (0..self.players).filter(|&p| p != scope.own).collect(),
            Sides::Any => (0..self.game.players.len()).collect(),
            Sides::List(list) => list.clone(),
        }
    }

    /// Whether a type is in a set.
    pub(super) fn in_set(&self, set: &PieceSet, piece: usize) -> bool {
        set.contains(piece, |p| self.game.pieces[p].royal.is_royal())
    }

    /// King steps between two cells of one board (far apart across boards).
    fn king_distance(&self, a: CellId, b: CellId) -> i64 {
        let (a, b) = (&self.game.cells[a], &self.game.cells[b]);
        if a.board != b.board {
            return FAR;
        }
        (0..3)
            .map(|i| (a.coord[i] - b.coord[i]).abs() as i64)
            .max()
            .unwrap_or(0)
    }
}
