//! Conditions, typed: what a `when`/`unless` says, with every name resolved by the checker.
//!
//! Every node has one type (truth value, integer, player, piece type, cell, board), so evaluation is
//! total: nothing is "unknown". Which participants a condition may name (`mover`, `captured`,
//! `hurdle` ...) depends on the statement it belongs to; the checker only builds a condition whose
//! participants the statement provides.

use super::{CellId, PieceId, PlayerId, Vec3};

/// A condition: a truth value.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// `true` or `false`.
    Const(bool),
    /// `not C` (and `unless C`).
    Not(Box<Cond>),
    /// `C and C ...`.
    All(Vec<Cond>),
    /// `C or C ...`.
    Any(Vec<Cond>),
    /// An integer comparison: `count(own, pawn) >= 2`.
    Compare(Compare, IntExpr, IntExpr),
    /// `A == B` between two values of one type (`!=` is its negation).
    Equal(Value, Value),
    /// `A in [B, C]`: equal to one of the listed values.
    Member(Value, Vec<Value>),
    /// `N in LO..HI`.
    Between(IntExpr, i64, i64),
    /// An option's chosen value is one of these texts (`option.variant == raj`).
    OptionIs(usize, Vec<String>),
    /// `in_check(PLAYER)`: one of the player's royal pieces is attacked.
    InCheck(PlayerExpr),
    /// `attacked(CELL, BY)`: a piece of BY attacks the cell.
    Attacked(CellExpr, Sides),
    /// `in_zone(PIECE, ZONE, PLAYER)`: the piece stands in the zone (the part of PLAYER, or of its
    /// owner).
    InZone(PieceRef, usize, Option<PlayerExpr>),
    /// `has_moved(PIECE)`: the piece has moved since it was placed.
    HasMoved(PieceRef),
    /// `empty(CELL)`: nothing stands on the cell.
    Empty(CellExpr),
    /// `adjacent(A, B)`: the two cells are one king step apart on one board.
    Adjacent(CellExpr, CellExpr),
    /// `eliminated(PLAYER)`.
    Eliminated(PlayerExpr),
    /// `PIECE.stacked`: the piece stands on a stack (on top of it).
    Stacked(PieceRef),
    /// `near(CELL, BETZA, SIDE, TYPES...)`: a piece of SIDE of one of TYPES stands one leap of the
    /// vectors away from the cell (or the piece's cell), on its board.
    Near {
        /// The cell whose surroundings are looked at.
        cell: CellExpr,
        /// The leaps, all directions included.
        leaps: Vec<Vec3>,
        /// Whose pieces count.
        side: Sides,
        /// Which types count.
        types: PieceSet,
    },
}

/// An integer comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Compare {
    /// Applies the comparison.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Compare::Eq => a == b,
            Compare::Ne => a != b,
            Compare::Lt => a < b,
            Compare::Le => a <= b,
            Compare::Gt => a > b,
            Compare::Ge => a >= b,
        }
    }
}

/// An integer.
#[derive(Clone, Debug, PartialEq)]
pub enum IntExpr {
    /// A literal.
    Const(i64),
    /// `A + B`.
    Add(Box<IntExpr>, Box<IntExpr>),
    /// `A - B`.
    Sub(Box<IntExpr>, Box<IntExpr>),
    /// A numeric option's chosen value (`option.subvariant`).
    Option(usize),
    /// `count(SIDE, PIECES, WHERE)`: pieces of SIDE of the types on the cells of WHERE (everywhere
    /// when absent).
    Count {
        /// Whose pieces.
        side: Sides,
        /// Which types.
        pieces: PieceSet,
        /// Where.
        place: Option<Place>,
    },
    /// `distance(A, B)`: king steps between two cells of one board.
    Distance(CellExpr, CellExpr),
    /// `colour(CELL)`: the parity of the sum of its coordinates.
    Colour(CellExpr),
    /// `legal_moves(PLAYER)`: how many legal moves the player would have.
    LegalMoves(PlayerExpr),
    /// `held(RESERVE, PIECE, PLAYER?)`: pieces of the type in the reserve (for a reserve per player,
    /// the part of PLAYER, by default the player concerned).
    Held(usize, PieceId, Option<PlayerExpr>),
    /// `stack_count(PLAYER)`: stacks the player controls.
    StackCount(PlayerExpr),
    /// `PIECE.waited`: 0 while a piece a rule sent waits for its owner's next move, 1 afterwards.
    Waited(PieceRef),
    /// `enclosed(CELL)`: the pieces of other players a piece of `own` standing on the cell would
    /// enclose (from the cell along every king direction, runs closed by a piece of `own`).
    Enclosed(CellExpr),
}

/// A value compared by `==`, `!=` and `in`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A player or neutral side (none for an empty cell's owner).
    Player(PlayerExpr),
    /// A piece type (none for an empty cell).
    Piece(PieceTypeExpr),
    /// A cell.
    Cell(CellExpr),
    /// A board.
    Board(BoardExpr),
}

/// A player.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerExpr {
    /// A declared player or neutral side.
    Literal(PlayerId),
    /// `own`: the player the statement concerns (see each statement).
    Own,
    /// `side_to_move`.
    ToMove,
    /// `PIECE.owner` and `owner(PIECE)`.
    OwnerOf(PieceRef),
    /// `owner(CELL)`: the owner of what stands on a cell.
    OwnerAt(CellExpr),
    /// `enemy` in a two-player game: the other player.
    Opponent,
    /// `mater` in a checkmate rule.
    Mater,
    /// `checkmated` in a checkmate rule.
    Checkmated,
}

/// A set of players, for `count`, `attacked` and `near`.
#[derive(Clone, Debug, PartialEq)]
pub enum Sides {
    /// One player.
    One(PlayerExpr),
    /// `enemy`: every player but the one concerned (neutral sides excluded).
    Enemies,
    /// `any`: every player and neutral side.
    Any,
    /// A list of declared players.
    List(Vec<PlayerId>),
}

/// A set of piece types.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceSet {
    /// `all`: every type.
    All,
    /// `royal`: the royal types.
    Royal,
    /// The listed types.
    Types(Vec<PieceId>),
}

impl PieceSet {
    /// Whether the set holds a type (`royal` tells which types are royal).
    pub fn contains(&self, piece: PieceId, royal: impl Fn(PieceId) -> bool) -> bool {
        match self {
            PieceSet::All => true,
            PieceSet::Royal => royal(piece),
            PieceSet::Types(types) => types.contains(&piece),
        }
    }
}

/// A piece taking part in the move or event the statement is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceRef {
    /// `mover`: the piece moving (in a rule: the piece that moved, on its arrival cell; `moved` and
    /// `captor` are other names for it).
    Mover,
    /// `captured`: the piece a capture took.
    Captured,
    /// `hurdle`: the piece a hopping leg passes over.
    Hurdle,
}

/// A piece type.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceTypeExpr {
    /// A declared type.
    Literal(PieceId),
    /// `PIECE.piece`.
    TypeOf(PieceRef),
    /// `piece_at(CELL)`.
    At(CellExpr),
}

/// A cell.
#[derive(Clone, Debug, PartialEq)]
pub enum CellExpr {
    /// A cell name.
    Literal(CellId),
    /// `PIECE.cell`, or a piece passed where a cell is expected.
    Of(PieceRef),
    /// `from`: the move's start cell.
    From,
    /// `to`: the move's arrival cell.
    To,
}

/// A board.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardExpr {
    /// A declared board.
    Literal(usize),
    /// `PIECE.board`.
    Of(PieceRef),
}

/// Where pieces are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A zone: each piece is looked up in its owner's part.
    Zone(usize),
    /// A board.
    Board(usize),
}

impl Cond {
    /// Whether the condition names a participant (so that it is evaluated per move, not per piece).
    pub fn mentions(&self, piece: PieceRef) -> bool {
        let mut found = false;
        self.visit_pieces(&mut |p| found |= p == piece);
        found
    }

    /// Whether the condition names `from` or `to`.
    pub fn mentions_cells(&self) -> bool {
        let mut found = false;
        self.visit_cells(&mut |c| found |= matches!(c, CellExpr::From | CellExpr::To));
        found
    }

    /// Calls `f` with every participant piece the condition names.
    pub fn visit_pieces(&self, f: &mut impl FnMut(PieceRef)) {
        self.visit(&mut |node| match node {
            Node::Piece(p) => f(p),
            Node::Cell(CellExpr::Of(p)) | Node::Board(BoardExpr::Of(p)) => f(*p),
            _ => {}
        });
    }

    fn visit_cells(&self, f: &mut impl FnMut(&CellExpr)) {
        self.visit(&mut |node| {
            if let Node::Cell(c) = node {
                f(c)
            }
        });
    }

    fn visit(&self, f: &mut impl FnMut(Node)) {
        match self {
            Cond::Const(_) | Cond::OptionIs(..) => {}
            Cond::Not(c) => c.visit(f),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| c.visit(f)),
            Cond::Compare(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Cond::Equal(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Cond::Member(a, list) => {
                a.visit(f);
                list.iter().for_each(|v| v.visit(f));
            }
            Cond::Between(a, ..) => a.visit(f),
            Cond::InCheck(p) | Cond::Eliminated(p) => p.visit(f),
            Cond::Attacked(c, s) => {
                f(Node::Cell(c));
                s.visit(f);
            }
            Cond::InZone(p, _, player) => {
                f(Node::Piece(*p));
                if let Some(player) = player {
                    player.visit(f);
                }
            }
            Cond::HasMoved(p) | Cond::Stacked(p) => f(Node::Piece(*p)),
            Cond::Empty(c) => f(Node::Cell(c)),
            Cond::Adjacent(a, b) => {
                f(Node::Cell(a));
                f(Node::Cell(b));
            }
            Cond::Near { cell, side, .. } => {
                f(Node::Cell(cell));
                side.visit(f);
            }
        }
    }
}

/// A node handed to a visitor.
enum Node<'a> {
    Piece(PieceRef),
    Cell(&'a CellExpr),
    Board(&'a BoardExpr),
}

impl IntExpr {
    fn visit(&self, f: &mut impl FnMut(Node)) {
        match self {
            IntExpr::Const(_) | IntExpr::Option(_) | IntExpr::Held(_, _, None) => {}
            IntExpr::Held(_, _, Some(p)) => p.visit(f),
            IntExpr::Add(a, b) | IntExpr::Sub(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            IntExpr::Count { side, .. } => side.visit(f),
            IntExpr::Distance(a, b) => {
                f(Node::Cell(a));
                f(Node::Cell(b));
            }
            IntExpr::Colour(c) | IntExpr::Enclosed(c) => f(Node::Cell(c)),
            IntExpr::LegalMoves(p) | IntExpr::StackCount(p) => p.visit(f),
            IntExpr::Waited(p) => f(Node::Piece(*p)),
        }
    }
}

impl Value {
    fn visit(&self, f: &mut impl FnMut(Node)) {
        match self {
            Value::Player(p) => p.visit(f),
            Value::Piece(PieceTypeExpr::Literal(_)) => {}
            Value::Piece(PieceTypeExpr::TypeOf(p)) => f(Node::Piece(*p)),
            Value::Piece(PieceTypeExpr::At(c)) | Value::Cell(c) => f(Node::Cell(c)),
            Value::Board(b) => f(Node::Board(b)),
        }
    }
}

impl PlayerExpr {
    fn visit(&self, f: &mut impl FnMut(Node)) {
        match self {
            PlayerExpr::OwnerOf(p) => f(Node::Piece(*p)),
            PlayerExpr::OwnerAt(c) => f(Node::Cell(c)),
            PlayerExpr::Literal(_)
            | PlayerExpr::Own
            | PlayerExpr::ToMove
            | PlayerExpr::Opponent
            | PlayerExpr::Mater
            | PlayerExpr::Checkmated => {}
        }
    }
}

impl Sides {
    fn visit(&self, f: &mut impl FnMut(Node)) {
        if let Sides::One(p) = self {
            p.visit(f);
        }
    }
}
