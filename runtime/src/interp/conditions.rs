//! Conditions on moves and rules, evaluated on a position: `in_check(P)`, `count(P, PIECES [, ZONE])`,
//! option values, comparisons, `and`/`or`/`not` and integer arithmetic. The participants are `mover`
//! (the piece whose moves are generated) and `player` (the side to move).

use crate::model::{Arg, CellId, Expr};

use super::position::Position;
use super::tables::Interpreter;

/// What a condition can see.
pub(super) struct Scope {
    /// The cell of the piece concerned.
    pub cell: CellId,
    /// Its owner.
    pub owner: usize,
    /// The side to move.
    pub player: usize,
    /// The cell a hopping move jumps over (`hurdle`), when the condition is about one move.
    pub hurdle: Option<CellId>,
}

/// Whether an expression mentions a name (`hurdle`): such conditions are evaluated per move.
pub(super) fn mentions(e: &Expr, name: &str) -> bool {
    match e {
        Expr::Or(parts) | Expr::And(parts) => parts.iter().any(|p| mentions(p, name)),
        Expr::Not(inner) => mentions(inner, name),
        Expr::Compare(_, l, r) | Expr::Arith(_, l, r) => mentions(l, name) || mentions(r, name),
        Expr::Call(_, args) => args.iter().any(|a| mentions(a, name)),
        Expr::Path(path) => path.first().is_some_and(|p| p == name),
        Expr::Literal(_) => false,
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(i64),
    Bool(bool),
    Player(usize),
    Players(Vec<usize>),
    Word(String),
    Pieces(Vec<usize>, bool),
    Zone(usize),
    Unknown,
}

impl Interpreter {
    /// Evaluates a condition; what it cannot evaluate counts as true.
    pub(super) fn condition_holds(&self, pos: &Position, scope: &Scope, e: &Expr) -> bool {
        !matches!(self.eval(pos, scope, e), Value::Bool(false))
    }

    fn eval(&self, pos: &Position, scope: &Scope, e: &Expr) -> Value {
        match e {
            Expr::And(parts) => {
                Value::Bool(parts.iter().all(|p| self.condition_holds(pos, scope, p)))
            }
            Expr::Or(parts) => {
                Value::Bool(parts.iter().any(|p| self.condition_holds(pos, scope, p)))
            }
            Expr::Not(inner) => match self.eval(pos, scope, inner) {
                Value::Bool(b) => Value::Bool(!b),
                _ => Value::Unknown,
            },
            Expr::Compare(op, l, r) => {
                let (a, b) = (self.eval(pos, scope, l), self.eval(pos, scope, r));
                if *op == "in" {
                    return match (a, b) {
                        (Value::Player(p), Value::Players(list)) => Value::Bool(list.contains(&p)),
                        (Value::Pieces(these, false), Value::Pieces(list, all)) => {
                            Value::Bool(all || these.iter().all(|p| list.contains(p)))
                        }
                        _ => Value::Unknown,
                    };
                }
                match (a, b) {
                    (Value::Int(a), Value::Int(b)) => Value::Bool(match *op {
                        "==" => a == b,
                        "!=" => a != b,
                        "<" => a < b,
                        "<=" => a <= b,
                        ">" => a > b,
                        ">=" => a >= b,
                        _ => return Value::Unknown,
                    }),
                    (Value::Unknown, _) | (_, Value::Unknown) => Value::Unknown,
                    (a, b) => match *op {
                        "==" => Value::Bool(a == b),
                        "!=" => Value::Bool(a != b),
                        _ => Value::Unknown,
                    },
                }
            }
            Expr::Arith(op, l, r) => match (self.eval(pos, scope, l), self.eval(pos, scope, r)) {
                (Value::Int(a), Value::Int(b)) => {
                    Value::Int(if *op == "+" { a + b } else { a - b })
                }
                _ => Value::Unknown,
            },
            Expr::Call(name, args) => self.call(pos, scope, name, args),
            Expr::Path(path) => self.path(pos, scope, path),
            Expr::Literal(arg) => match arg {
                Arg::Int(n) => Value::Int(*n),
                Arg::Player(p) => Value::Player(*p),
                Arg::Piece(p) => Value::Pieces(vec![*p], false),
                Arg::Zone(z) => Value::Zone(*z),
                Arg::Word(w) | Arg::Str(w) => Value::Word(w.clone()),
                Arg::List(items) => {
                    let pieces: Vec<usize> = items.iter().filter_map(Arg::as_piece).collect();
                    let players: Vec<usize> = items
                        .iter()
                        .filter_map(|a| match a {
                            Arg::Player(p) => Some(*p),
                            Arg::Word(w) => self.game.players.iter().position(|p| p.name == *w),
                            _ => None,
                        })
                        .collect();
                    if !items.is_empty() && players.len() == items.len() {
                        Value::Players(players)
                    } else if pieces.len() == items.len() {
                        Value::Pieces(pieces, false)
                    } else {
                        Value::Unknown
                    }
                }
                _ => Value::Unknown,
            },
        }
    }

    fn path(&self, pos: &Position, scope: &Scope, path: &[String]) -> Value {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["option", name] => match self.option_value(name) {
                Some(v) => v.parse().map(Value::Int).unwrap_or(Value::Word(v)),
                None => Value::Unknown,
            },
            ["mover", "owner"] | ["own"] | ["side"] => Value::Player(scope.owner),
            ["mover", "stacked"] => Value::Bool(pos.stacks.iter().any(|&(c, _)| c == scope.cell)),
            ["mover", "piece"] => Value::Pieces(vec![pos.cells[scope.cell].piece()], false),
            // 0 while a piece a rule sent is waiting for its owner's next move, 1 afterwards.
            ["mover", "waited"] => Value::Int(i64::from(!pos.cells[scope.cell].is_waiting())),
            ["enemy"] if self.players == 2 => Value::Player(self.next_player(scope.owner)),
            ["hurdle", field] => match scope.hurdle {
                Some(cell) => {
                    let occ = pos.cells[cell];
                    match *field {
                        "piece" if !occ.is_empty() => Value::Pieces(vec![occ.piece()], false),
                        "owner" if !occ.is_empty() => Value::Player(occ.owner()),
                        "stacked" => Value::Bool(pos.stacks.iter().any(|&(c, _)| c == cell)),
                        _ => Value::Unknown,
                    }
                }
                None => Value::Unknown,
            },
            ["player"] | ["side_to_move"] => Value::Player(scope.player),
            ["all"] => Value::Pieces(Vec::new(), true),
            [name] => match self.game.players.iter().position(|p| p.name == *name) {
                Some(p) => Value::Player(p),
                None => Value::Word(name.to_string()),
            },
            _ => Value::Unknown,
        }
    }

    fn call(&self, pos: &Position, scope: &Scope, name: &str, args: &[Expr]) -> Value {
        if name == "held" {
            // `held(RESERVE, PIECE)`: how many pieces of the type the reserve holds (for the player
            // concerned, when it is one per player).
            let reserve = match args.first() {
                Some(Expr::Literal(Arg::Reserve(r))) => Some(*r),
                Some(Expr::Path(p)) if p.len() == 1 => {
                    self.game.reserves.iter().position(|r| r.name == p[0])
                }
                _ => None,
            };
            let piece = match args.get(1).map(|a| self.eval(pos, scope, a)) {
                Some(Value::Pieces(p, false)) if p.len() == 1 => Some(p[0]),
                _ => None,
            };
            return match (reserve, piece) {
                (Some(r), Some(p)) => {
                    let row = self.reserve_row(pos, r, scope.owner);
                    Value::Int(
                        pos.hands
                            .get(row)
                            .and_then(|h| h.get(p))
                            .copied()
                            .unwrap_or(0) as i64,
                    )
                }
                _ => Value::Unknown,
            };
        }
        let values: Vec<Value> = args.iter().map(|a| self.eval(pos, scope, a)).collect();
        match (name, values.as_slice()) {
            ("in_check", [Value::Player(p)]) => Value::Bool(self.royal_attacked(pos, *p)),
            ("count", [Value::Player(p), Value::Pieces(types, all), rest @ ..]) => {
                let zone = rest.iter().find_map(|v| {
                    if let Value::Zone(z) = v {
                        Some(*z)
                    } else {
                        None
                    }
                });
                let board = rest.iter().find_map(|v| match v {
                    Value::Word(name) => self.game.boards.iter().position(|b| b.name == *name),
                    _ => None,
                });
                let n = pos
                    .cells
                    .iter()
                    .enumerate()
                    .filter(|(cell, o)| {
                        !o.is_empty()
                            && o.owner() == *p
                            && (*all || types.contains(&o.piece()))
                            && zone.is_none_or(|z| self.in_zone(z, *p, *cell))
                            && board.is_none_or(|b| self.game.cells[*cell].board == b)
                    })
                    .count();
                Value::Int(n as i64)
            }
            ("near", [_, Value::Word(pattern), Value::Player(p), kinds @ ..])
                if !kinds.is_empty() =>
            {
                let mut types = Vec::new();
                let mut all = false;
                for kind in kinds {
                    match kind {
                        Value::Pieces(listed, every) => {
                            types.extend(listed.iter().copied());
                            all |= *every;
                        }
                        _ => return Value::Unknown,
                    }
                }
                Value::Bool(self.near(pos, scope.cell, pattern, *p, &types, all))
            }
            ("has_moved", [_]) => Value::Bool(!pos.cells[scope.cell].is_virgin()),
            ("stack_count", [Value::Player(p)]) => Value::Int(
                pos.stacks
                    .iter()
                    .filter(|&&(c, _)| pos.cells[c].owner() == *p)
                    .count() as i64,
            ),
            _ => Value::Unknown,
        }
    }
}

impl Interpreter {
    /// `near(mover, PATTERN, SIDE, PIECES)`: whether a piece of `player` of one of `types` stands one
    /// leap of the pattern's atoms (`W`, `F`, `K`, `D`, `A`, `N`) away from `cell`, on the same board.
    fn near(
        &self,
        pos: &Position,
        cell: CellId,
        pattern: &str,
        player: usize,
        types: &[usize],
        all: bool,
    ) -> bool {
        let mut vectors: Vec<[i32; 3]> = Vec::new();
        for atom in pattern.chars() {
            let bases: &[[i32; 2]] = match atom {
                'W' => &[[1, 0]],
                'F' => &[[1, 1]],
                'K' => &[[1, 0], [1, 1]],
                'D' => &[[2, 0]],
                'A' => &[[2, 2]],
                'N' => &[[2, 1]],
                _ => &[],
            };
            for &[a, b] in bases {
                for (x, y) in [(a, b), (b, a)] {
                    for sx in [-1, 1] {
                        for sy in [-1, 1] {
                            let v = [x * sx, y * sy, 0];
                            if !vectors.contains(&v) {
                                vectors.push(v);
                            }
                        }
                    }
                }
            }
        }
        vectors.iter().any(|&v| {
            self.step(cell, v).is_some_and(|c| {
                let occ = pos.cells[c];
                !occ.is_empty() && occ.owner() == player && (all || types.contains(&occ.piece()))
            })
        })
    }
}
