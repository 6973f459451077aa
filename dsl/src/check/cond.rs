//! Conditions: types a `when`/`unless` expression and resolves its names into a model [`Cond`].
//!
//! Each statement that may carry a condition gives it a [`Site`], which decides the participants it
//! may name (`mover`, `captured`, `hurdle` ...) and what `own` means. A name the site does not provide,
//! a comparison between values of different types, an unknown property or function is an error here,
//! so a condition in the model can always be evaluated.

use vdl_runtime::model::{
    BoardExpr, CellExpr, Compare, Cond, IntExpr, PieceRef, PieceSet, PieceTypeExpr, Place,
    PlayerExpr, Sides, Value,
};

use super::Checker;
use crate::ast::{self, ArithOp, CompareOp, ExprKind, ValueKind};
use crate::error::ErrorKind;
use crate::schema::FUNCTIONS;
use crate::span::Span;

/// Where a condition stands, which decides what it can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Site {
    /// Only option values: setup, reserve contents.
    Options,
    /// A piece's `moves`, `stacks` or `merge`: `mover` the piece (`own` its owner); `hurdle` for moves
    /// whose every part hops.
    Move { hurdle: bool },
    /// `movable_by`: `mover` the piece, `own` the player who would move it.
    Movable,
    /// `promote`: `mover` the promoting piece.
    Promotion,
    /// `royal when`: `mover` the piece.
    Royal,
    /// A castling `partner`: `own`/`player` the castling player.
    Castle,
    /// A `transfer`: `mover` the piece, `own` its owner.
    Transfer,
    /// A reserve's `drops`: `to` the target cell, `own` the dropping player.
    Drop,
    /// A reserve's `pick_up`: `mover` the piece, `own` its owner.
    PickUp,
    /// An end line, a counting line: `own` the player to move.
    End,
    /// `mating_potential`: `own`/`side` the side tested.
    Material,
    /// A rule: what its events provide.
    Rule(RuleScope),
}

/// What a rule's events provide to its conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct RuleScope {
    /// `mover`, `from`, `to`.
    pub mover: bool,
    /// `captured`.
    pub captured: bool,
    /// `mater`, `checkmated`.
    pub checkmate: bool,
}

impl Site {
    fn describe(self) -> &'static str {
        match self {
            Site::Options => "a condition on options",
            Site::Move { .. } => "a move condition",
            Site::Movable => "a `movable_by` condition",
            Site::Promotion => "a promotion condition",
            Site::Royal => "a `royal` condition",
            Site::Castle => "a castling condition",
            Site::Transfer => "a transfer condition",
            Site::Drop => "a drop condition",
            Site::PickUp => "a pick-up condition",
            Site::End => "an end condition",
            Site::Material => "a `mating_potential` condition",
            Site::Rule(_) => "this rule",
        }
    }

    /// Whether the condition sees a position (all but option conditions).
    fn has_position(self) -> bool {
        self != Site::Options
    }

    fn has_piece(self, piece: PieceRef) -> bool {
        match (self, piece) {
            (
                Site::Move { .. }
                | Site::Movable
                | Site::Promotion
                | Site::Royal
                | Site::Transfer
                | Site::PickUp,
                PieceRef::Mover,
            ) => true,
            (Site::Move { hurdle }, PieceRef::Hurdle) => hurdle,
            (Site::Rule(scope), PieceRef::Mover) => scope.mover,
            (Site::Rule(scope), PieceRef::Captured) => scope.captured,
            _ => false,
        }
    }

    fn has_move_cells(self) -> bool {
        matches!(self, Site::Rule(RuleScope { mover: true, .. }))
    }

    fn has_to(self) -> bool {
        self.has_move_cells() || self == Site::Drop
    }

    fn has_checkmate(self) -> bool {
        matches!(
            self,
            Site::Rule(RuleScope {
                checkmate: true,
                ..
            })
        )
    }

    /// The participant names this site provides, for messages.
    fn available(self) -> String {
        let mut names: Vec<&str> = Vec::new();
        for (name, piece) in [
            ("mover", PieceRef::Mover),
            ("captured", PieceRef::Captured),
            ("hurdle", PieceRef::Hurdle),
        ] {
            if self.has_piece(piece) {
                names.push(name);
            }
        }
        if self.has_move_cells() {
            names.extend(["from", "to"]);
        } else if self.has_to() {
            names.push("to");
        }
        if self.has_checkmate() {
            names.extend(["mater", "checkmated"]);
        }
        if self.has_position() {
            names.extend(["own", "enemy", "any", "side_to_move"]);
        }
        if self == Site::Material {
            names.push("side");
        }
        names.push("option.NAME");
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A typed term while a condition is checked.
#[derive(Clone, Debug)]
enum Term {
    Bool(Cond),
    Int(IntExpr),
    Player(PlayerExpr),
    PieceType(PieceTypeExpr),
    Piece(PieceRef),
    Cell(CellExpr),
    Board(BoardExpr),
    Zone(usize),
    Reserve(usize),
    Option(usize),
    /// A word that is one of some option's values, or a string.
    Word(String),
    /// `enemy`: the opponents (a player in a two-player game).
    Enemy,
    /// `any`.
    AnySide,
    /// `all` or `royal`.
    Pieces(PieceSet),
    List(Vec<Term>),
    Range(i64, i64),
}

impl Term {
    fn describe(&self) -> &'static str {
        match self {
            Term::Bool(_) => "a truth value",
            Term::Int(_) => "an integer",
            Term::Player(_) => "a player",
            Term::PieceType(_) => "a piece type",
            Term::Piece(_) => "a piece",
            Term::Cell(_) => "a cell",
            Term::Board(_) => "a board",
            Term::Zone(_) => "a zone",
            Term::Reserve(_) => "a reserve",
            Term::Option(_) => "an option value",
            Term::Word(_) => "a word",
            Term::Enemy => "`enemy`",
            Term::AnySide => "`any`",
            Term::Pieces(_) => "a set of piece types",
            Term::List(_) => "a list",
            Term::Range(..) => "a range",
        }
    }
}

impl Checker {
    /// Checks a `when`/`unless` condition at a site and returns it typed (`unless` negated); `None`
    /// after reporting an error.
    pub(super) fn check_condition(
        &mut self,
        condition: &ast::Condition,
        site: Site,
    ) -> Option<Cond> {
        let cond = self.expect_bool(&condition.expr, site)?;
        Some(if condition.negated {
            Cond::Not(Box::new(cond))
        } else {
            cond
        })
    }

    fn expect_bool(&mut self, e: &ast::Expr, site: Site) -> Option<Cond> {
        match self.cterm(e, site)? {
            Term::Bool(c) => Some(c),
            other => self.mismatch(e.span, "a truth value", &other),
        }
    }

    fn expect_int(&mut self, e: &ast::Expr, site: Site) -> Option<IntExpr> {
        let term = self.cterm(e, site)?;
        self.int_of(term, e.span)
    }

    fn int_of(&mut self, term: Term, span: Span) -> Option<IntExpr> {
        match term {
            Term::Int(n) => Some(n),
            Term::Option(o) if self.numeric_option(o) => Some(IntExpr::Option(o)),
            other => self.mismatch(span, "an integer", &other),
        }
    }

    fn mismatch<T>(&mut self, span: Span, expected: &'static str, found: &Term) -> Option<T> {
        self.error(
            span,
            ErrorKind::ConditionType {
                expected,
                found: found.describe(),
            },
        );
        None
    }

    /// Whether every value an option may take is an integer.
    fn numeric_option(&self, option: usize) -> bool {
        let values = &self.option_values_of[option];
        !values.is_empty()
            && values
                .iter()
                .all(|v| v.parse::<i64>().is_ok() || v.contains(".."))
    }

    fn cterm(&mut self, e: &ast::Expr, site: Site) -> Option<Term> {
        match &e.kind {
            ExprKind::Or(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.push(self.expect_bool(p, site)?);
                }
                Some(Term::Bool(Cond::Any(out)))
            }
            ExprKind::And(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.push(self.expect_bool(p, site)?);
                }
                Some(Term::Bool(Cond::All(out)))
            }
            ExprKind::Not(inner) => Some(Term::Bool(Cond::Not(Box::new(
                self.expect_bool(inner, site)?,
            )))),
            ExprKind::Arith(op, l, r) => {
                let (l, r) = (self.expect_int(l, site)?, self.expect_int(r, site)?);
                Some(Term::Int(match op {
                    ArithOp::Add => IntExpr::Add(Box::new(l), Box::new(r)),
                    ArithOp::Sub => IntExpr::Sub(Box::new(l), Box::new(r)),
                }))
            }
            ExprKind::Compare(op, l, r) => self.compare(*op, l, r, site),
            ExprKind::Call(name, args) => self.call(name, args, e.span, site),
            ExprKind::Value(v) => self.value_term(v, site),
        }
    }

    fn value_term(&mut self, v: &ast::Value, site: Site) -> Option<Term> {
        match &v.kind {
            ValueKind::Int(n) => match i64::try_from(*n) {
                Ok(n) => Some(Term::Int(IntExpr::Const(n))),
                Err(_) => {
                    self.error(
                        v.span,
                        ErrorKind::NumberOutOfRange {
                            min: i64::MIN,
                            max: i64::MAX,
                        },
                    );
                    None
                }
            },
            ValueKind::Str { text, .. } => Some(Term::Word(text.clone())),
            ValueKind::List(items) => {
                let mut out = Vec::new();
                for item in items {
                    out.push(self.value_term(item, site)?);
                }
                Some(Term::List(out))
            }
            ValueKind::Range(lo, hi) => match (lo.as_int(), hi.as_int()) {
                (Some(lo), Some(hi)) => Some(Term::Range(lo, hi)),
                _ => {
                    self.error(
                        v.span,
                        ErrorKind::ConditionType {
                            expected: "a range of integers",
                            found: "a range of names",
                        },
                    );
                    None
                }
            },
            ValueKind::Path(path) => self.path_term(path, site),
            ValueKind::Size(_) | ValueKind::Vector(_) => {
                self.error(
                    v.span,
                    ErrorKind::ConditionType {
                        expected: "a value a condition can compare",
                        found: v.describe(),
                    },
                );
                None
            }
        }
    }

    fn path_term(&mut self, path: &[ast::Name], site: Site) -> Option<Term> {
        let root = &path[0];
        if root.text == "option" {
            let Some(name) = path.get(1) else {
                self.error(
                    root.span,
                    ErrorKind::ConditionType {
                        expected: "`option.NAME`",
                        found: "`option` alone",
                    },
                );
                return None;
            };
            let option = self.option_index(name)?;
            return self.no_more(path, 2, Term::Option(option));
        }
        if let Some(piece) = participant(&root.text) {
            if !site.has_piece(piece) {
                return self.unavailable(root, site);
            }
            return match path.get(1) {
                None => self.no_more(path, 1, Term::Piece(piece)),
                Some(property) => {
                    let term = match property.text.as_str() {
                        "piece" => Term::PieceType(PieceTypeExpr::TypeOf(piece)),
                        "owner" => Term::Player(PlayerExpr::OwnerOf(piece)),
                        "board" => Term::Board(BoardExpr::Of(piece)),
                        "cell" => Term::Cell(CellExpr::Of(piece)),
                        "stacked" => Term::Bool(Cond::Stacked(piece)),
                        "waited" => Term::Int(IntExpr::Waited(piece)),
                        _ => {
                            self.error(
                                property.span,
                                ErrorKind::UnknownProperty {
                                    property: property.text.clone(),
                                    of: root.text.clone(),
                                },
                            );
                            return None;
                        }
                    };
                    self.no_more(path, 2, term)
                }
            };
        }
        if path.len() > 1 {
            self.error(
                path[1].span,
                ErrorKind::UnknownProperty {
                    property: path[1].text.clone(),
                    of: root.text.clone(),
                },
            );
            return None;
        }
        let text = root.text.as_str();
        let position_word = |term: Term| (term, true);
        let (term, needs_position) = match text {
            "true" => (Term::Bool(Cond::Const(true)), false),
            "false" => (Term::Bool(Cond::Const(false)), false),
            "to" if site.has_to() => (Term::Cell(CellExpr::To), false),
            "from" | "to" if site.has_move_cells() => (
                Term::Cell(if text == "from" {
                    CellExpr::From
                } else {
                    CellExpr::To
                }),
                false,
            ),
            "from" | "to" => return self.unavailable(root, site),
            "mater" | "checkmated" if site.has_checkmate() => (
                Term::Player(if text == "mater" {
                    PlayerExpr::Mater
                } else {
                    PlayerExpr::Checkmated
                }),
                false,
            ),
            "mater" | "checkmated" => return self.unavailable(root, site),
            "own" => position_word(Term::Player(PlayerExpr::Own)),
            "side" if site == Site::Material => position_word(Term::Player(PlayerExpr::Own)),
            "side" => return self.unavailable(root, site),
            "player" | "side_to_move" => position_word(Term::Player(if site == Site::Castle {
                PlayerExpr::Own
            } else {
                PlayerExpr::ToMove
            })),
            "enemy" => position_word(Term::Enemy),
            "any" => position_word(Term::AnySide),
            "all" => (Term::Pieces(PieceSet::All), false),
            "royal" => (Term::Pieces(PieceSet::Royal), false),
            _ => match self.declared_term(text) {
                Some(term) => (term, false),
                None => {
                    let suggestion = self.suggest_condition_name(text);
                    self.error(
                        root.span,
                        ErrorKind::UnknownPath {
                            path: text.to_string(),
                            suggestion,
                        },
                    );
                    return None;
                }
            },
        };
        if needs_position && !site.has_position() {
            return self.unavailable(root, site);
        }
        Some(term)
    }

    fn no_more(&mut self, path: &[ast::Name], used: usize, term: Term) -> Option<Term> {
        match path.get(used) {
            None => Some(term),
            Some(extra) => {
                self.error(
                    extra.span,
                    ErrorKind::UnknownProperty {
                        property: extra.text.clone(),
                        of: path[..used]
                            .iter()
                            .map(|n| n.text.as_str())
                            .collect::<Vec<_>>()
                            .join("."),
                    },
                );
                None
            }
        }
    }

    fn unavailable<T>(&mut self, name: &ast::Name, site: Site) -> Option<T> {
        self.error(
            name.span,
            ErrorKind::ParticipantUnavailable {
                name: name.text.clone(),
                here: site.describe(),
                available: site.available(),
            },
        );
        None
    }

    /// A declared name (piece, player, zone, board, reserve, cell) or an option's value word.
    fn declared_term(&mut self, text: &str) -> Option<Term> {
        if let Some(p) = self.pieces.get(text) {
            self.used_pieces[p] = true;
            return Some(Term::PieceType(PieceTypeExpr::Literal(p)));
        }
        if let Some(p) = self.players.get(text) {
            return Some(Term::Player(PlayerExpr::Literal(p)));
        }
        if let Some(z) = self.zones.get(text) {
            self.used_zones[z] = true;
            return Some(Term::Zone(z));
        }
        if let Some(b) = self.boards.get(text) {
            return Some(Term::Board(BoardExpr::Literal(b)));
        }
        if let Some(r) = self.reserves.get(text) {
            return Some(Term::Reserve(r));
        }
        if let Some(&c) = self.cells.get(text) {
            return Some(Term::Cell(CellExpr::Literal(c)));
        }
        if self.option_value_words.iter().any(|w| w == text) {
            return Some(Term::Word(text.to_string()));
        }
        None
    }

    fn suggest_condition_name(&self, text: &str) -> Option<String> {
        let words = [
            "mover",
            "captured",
            "hurdle",
            "moved",
            "captor",
            "from",
            "to",
            "own",
            "enemy",
            "any",
            "side",
            "side_to_move",
            "player",
            "mater",
            "checkmated",
            "true",
            "false",
            "all",
            "royal",
        ];
        let candidates: Vec<&str> = words
            .iter()
            .copied()
            .chain(self.pieces.order.iter().map(String::as_str))
            .chain(self.players.order.iter().map(String::as_str))
            .chain(self.zones.order.iter().map(String::as_str))
            .chain(self.boards.order.iter().map(String::as_str))
            .chain(self.reserves.order.iter().map(String::as_str))
            .collect();
        super::suggest(text, candidates.into_iter())
    }

    fn option_index(&mut self, name: &ast::Name) -> Option<usize> {
        match self.options.get(&name.text) {
            Some(o) => Some(o),
            None => {
                let suggestion = self.options.suggest(&name.text);
                self.error(
                    name.span,
                    ErrorKind::UnknownName {
                        kind: "option",
                        name: name.text.clone(),
                        suggestion,
                    },
                );
                None
            }
        }
    }

    fn compare(&mut self, op: CompareOp, l: &ast::Expr, r: &ast::Expr, site: Site) -> Option<Term> {
        let (a, b) = (self.cterm(l, site)?, self.cterm(r, site)?);
        let cond = match op {
            CompareOp::In => self.membership(a, b, r.span)?,
            CompareOp::Eq | CompareOp::Ne => {
                let equal = self.equality(a, b, r.span)?;
                match (op, equal) {
                    (CompareOp::Ne, Cond::Compare(Compare::Eq, x, y)) => {
                        Cond::Compare(Compare::Ne, x, y)
                    }
                    (CompareOp::Ne, c) => Cond::Not(Box::new(c)),
                    (_, c) => c,
                }
            }
            _ => {
                let cmp = match op {
                    CompareOp::Lt => Compare::Lt,
                    CompareOp::Le => Compare::Le,
                    CompareOp::Gt => Compare::Gt,
                    _ => Compare::Ge,
                };
                let a = self.int_of(a, l.span)?;
                let b = self.int_of(b, r.span)?;
                Cond::Compare(cmp, a, b)
            }
        };
        Some(Term::Bool(cond))
    }

    /// `A == B`.
    fn equality(&mut self, a: Term, b: Term, span: Span) -> Option<Cond> {
        match (a, b) {
            (Term::Option(o), Term::Word(w)) | (Term::Word(w), Term::Option(o)) => {
                self.option_test(o, vec![w], span)
            }
            (Term::Option(o), Term::Int(IntExpr::Const(n)))
            | (Term::Int(IntExpr::Const(n)), Term::Option(o)) => {
                self.option_test(o, vec![n.to_string()], span)
            }
            (Term::Bool(x), Term::Bool(y)) => Some(Cond::Any(vec![
                Cond::All(vec![x.clone(), y.clone()]),
                Cond::All(vec![Cond::Not(Box::new(x)), Cond::Not(Box::new(y))]),
            ])),
            (a, b) => {
                let a_int = matches!(a, Term::Int(_) | Term::Option(_));
                let b_int = matches!(b, Term::Int(_) | Term::Option(_));
                if a_int || b_int {
                    let x = self.int_of(a, span)?;
                    let y = self.int_of(b, span)?;
                    return Some(Cond::Compare(Compare::Eq, x, y));
                }
                let x = self.value_of(a, span)?;
                let y = self.value_of(b, span)?;
                if std::mem::discriminant(&x) != std::mem::discriminant(&y) {
                    self.error(
                        span,
                        ErrorKind::ConditionType {
                            expected: value_kind(&x),
                            found: value_kind(&y),
                        },
                    );
                    return None;
                }
                Some(Cond::Equal(x, y))
            }
        }
    }

    /// `A in LIST` or `N in LO..HI`.
    fn membership(&mut self, a: Term, b: Term, span: Span) -> Option<Cond> {
        match (a, b) {
            (Term::Option(o), Term::List(items)) => {
                let mut words = Vec::new();
                for item in items {
                    match item {
                        Term::Word(w) => words.push(w),
                        Term::Int(IntExpr::Const(n)) => words.push(n.to_string()),
                        other => return self.mismatch(span, "option values", &other),
                    }
                }
                self.option_test(o, words, span)
            }
            (a, Term::Range(lo, hi)) => {
                let n = self.int_of(a, span)?;
                Some(Cond::Between(n, lo, hi))
            }
            (a, Term::List(items)) => {
                let x = self.value_of(a, span)?;
                let mut list = Vec::new();
                for item in items {
                    let y = self.value_of(item, span)?;
                    if std::mem::discriminant(&x) != std::mem::discriminant(&y) {
                        self.error(
                            span,
                            ErrorKind::ConditionType {
                                expected: value_kind(&x),
                                found: value_kind(&y),
                            },
                        );
                        return None;
                    }
                    list.push(y);
                }
                Some(Cond::Member(x, list))
            }
            (_, other) => self.mismatch(span, "a list or a range", &other),
        }
    }

    fn option_test(&mut self, option: usize, words: Vec<String>, span: Span) -> Option<Cond> {
        let values = &self.option_values_of[option];
        let free = values.iter().any(|v| v == "text" || v.contains(".."));
        if !free {
            if let Some(w) = words.iter().find(|w| !values.contains(w)) {
                self.error(
                    span,
                    ErrorKind::UnknownOptionValue {
                        option: self.options.order[option].clone(),
                        value: w.clone(),
                    },
                );
                return None;
            }
        }
        Some(Cond::OptionIs(option, words))
    }

    /// A term as a value `==` and `in` compare.
    fn value_of(&mut self, term: Term, span: Span) -> Option<Value> {
        match term {
            Term::Player(p) => Some(Value::Player(p)),
            Term::Enemy if self.player_count == 2 => Some(Value::Player(PlayerExpr::Opponent)),
            Term::PieceType(t) => Some(Value::Piece(t)),
            Term::Cell(c) => Some(Value::Cell(c)),
            Term::Piece(p) => Some(Value::Cell(CellExpr::Of(p))),
            Term::Board(b) => Some(Value::Board(b)),
            other => self.mismatch(span, "a player, piece type, cell or board", &other),
        }
    }

    fn player_of(&mut self, e: &ast::Expr, site: Site) -> Option<PlayerExpr> {
        match self.cterm(e, site)? {
            Term::Player(p) => Some(p),
            Term::Enemy if self.player_count == 2 => Some(PlayerExpr::Opponent),
            Term::Piece(p) => Some(PlayerExpr::OwnerOf(p)),
            other => self.mismatch(e.span, "a player", &other),
        }
    }

    fn sides_of(&mut self, e: &ast::Expr, site: Site) -> Option<Sides> {
        match self.cterm(e, site)? {
            Term::Player(p) => Some(Sides::One(p)),
            Term::Piece(p) => Some(Sides::One(PlayerExpr::OwnerOf(p))),
            Term::Enemy => Some(Sides::Enemies),
            Term::AnySide => Some(Sides::Any),
            Term::List(items) => {
                let mut players = Vec::new();
                for item in items {
                    match item {
                        Term::Player(PlayerExpr::Literal(p)) => players.push(p),
                        other => return self.mismatch(e.span, "a list of players", &other),
                    }
                }
                Some(Sides::List(players))
            }
            other => self.mismatch(e.span, "a player, `own`, `enemy` or `any`", &other),
        }
    }

    fn pieces_of(&mut self, e: &ast::Expr, site: Site) -> Option<PieceSet> {
        match self.cterm(e, site)? {
            Term::Pieces(set) => Some(set),
            Term::PieceType(PieceTypeExpr::Literal(p)) => Some(PieceSet::Types(vec![p])),
            Term::List(items) => {
                let mut types = Vec::new();
                for item in items {
                    match item {
                        Term::PieceType(PieceTypeExpr::Literal(p)) => types.push(p),
                        other => return self.mismatch(e.span, "a list of piece types", &other),
                    }
                }
                Some(PieceSet::Types(types))
            }
            other => self.mismatch(e.span, "piece types, `all` or `royal`", &other),
        }
    }

    fn cell_of(&mut self, e: &ast::Expr, site: Site) -> Option<CellExpr> {
        match self.cterm(e, site)? {
            Term::Cell(c) => Some(c),
            Term::Piece(p) => Some(CellExpr::Of(p)),
            other => self.mismatch(e.span, "a cell or a piece", &other),
        }
    }

    fn piece_of(&mut self, e: &ast::Expr, site: Site) -> Option<PieceRef> {
        match self.cterm(e, site)? {
            Term::Piece(p) => Some(p),
            other => self.mismatch(e.span, "a piece (`mover`, `captured`, `hurdle`)", &other),
        }
    }

    fn call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Expr],
        span: Span,
        site: Site,
    ) -> Option<Term> {
        let Some(f) = FUNCTIONS.iter().find(|f| f.name == name.text) else {
            let suggestion = super::suggest(&name.text, FUNCTIONS.iter().map(|f| f.name));
            self.error(
                name.span,
                ErrorKind::UnknownFunction {
                    name: name.text.clone(),
                    suggestion,
                },
            );
            return None;
        };
        if args.len() < f.min || args.len() > f.max {
            let expected = if f.min == f.max {
                format!("{} argument{}", f.min, if f.min == 1 { "" } else { "s" })
            } else {
                format!("{} to {} arguments", f.min, f.max)
            };
            self.error(
                span,
                ErrorKind::WrongArity {
                    name: name.text.clone(),
                    expected,
                    found: args.len(),
                },
            );
            return None;
        }
        if f.name != "option" && !site.has_position() {
            return self.unavailable(name, site);
        }
        let term = match f.name {
            "count" => {
                let side = self.sides_of(&args[0], site)?;
                let pieces = match args.get(1) {
                    Some(a) => self.pieces_of(a, site)?,
                    None => PieceSet::All,
                };
                let place = match args.get(2) {
                    None => None,
                    Some(a) => match self.cterm(a, site)? {
                        Term::Zone(z) => Some(Place::Zone(z)),
                        Term::Board(BoardExpr::Literal(b)) => Some(Place::Board(b)),
                        other => return self.mismatch(a.span, "a zone or a board", &other),
                    },
                };
                Term::Int(IntExpr::Count {
                    side,
                    pieces,
                    place,
                })
            }
            "in_check" => Term::Bool(Cond::InCheck(self.player_of(&args[0], site)?)),
            "attacked" => {
                let cell = self.cell_of(&args[0], site)?;
                let by = match args.get(1) {
                    Some(a) => self.sides_of(a, site)?,
                    None => Sides::Enemies,
                };
                Term::Bool(Cond::Attacked(cell, by))
            }
            "in_zone" => {
                let piece = self.piece_of(&args[0], site)?;
                let zone = match self.cterm(&args[1], site)? {
                    Term::Zone(z) => z,
                    other => return self.mismatch(args[1].span, "a zone", &other),
                };
                let player = match args.get(2) {
                    Some(a) => Some(self.player_of(a, site)?),
                    None => None,
                };
                Term::Bool(Cond::InZone(piece, zone, player))
            }
            "has_moved" => Term::Bool(Cond::HasMoved(self.piece_of(&args[0], site)?)),
            "empty" => Term::Bool(Cond::Empty(self.cell_of(&args[0], site)?)),
            "adjacent" => Term::Bool(Cond::Adjacent(
                self.cell_of(&args[0], site)?,
                self.cell_of(&args[1], site)?,
            )),
            "distance" => Term::Int(IntExpr::Distance(
                self.cell_of(&args[0], site)?,
                self.cell_of(&args[1], site)?,
            )),
            "colour" => Term::Int(IntExpr::Colour(self.cell_of(&args[0], site)?)),
            "owner" => match self.cterm(&args[0], site)? {
                Term::Piece(p) => Term::Player(PlayerExpr::OwnerOf(p)),
                Term::Cell(c) => Term::Player(PlayerExpr::OwnerAt(c)),
                other => return self.mismatch(args[0].span, "a piece or a cell", &other),
            },
            "piece_at" => Term::PieceType(PieceTypeExpr::At(self.cell_of(&args[0], site)?)),
            "legal_moves" => Term::Int(IntExpr::LegalMoves(self.player_of(&args[0], site)?)),
            "eliminated" => Term::Bool(Cond::Eliminated(self.player_of(&args[0], site)?)),
            "option" => match &args[0].kind {
                ExprKind::Value(v) if v.as_name().is_some() => {
                    let option = self.option_index(v.as_name().expect("a name"))?;
                    Term::Option(option)
                }
                _ => {
                    self.error(
                        args[0].span,
                        ErrorKind::ConditionType {
                            expected: "an option name",
                            found: "an expression",
                        },
                    );
                    return None;
                }
            },
            "near" => {
                let cell = self.cell_of(&args[0], site)?;
                let leaps = self.near_leaps(&args[1])?;
                let side = self.sides_of(&args[2], site)?;
                let mut types = Vec::new();
                let mut all = false;
                for a in &args[3..] {
                    match self.pieces_of(a, site)? {
                        PieceSet::All => all = true,
                        PieceSet::Types(t) => types.extend(t),
                        PieceSet::Royal => {
                            return self.mismatch(
                                a.span,
                                "piece types or `all`",
                                &Term::Pieces(PieceSet::Royal),
                            )
                        }
                    }
                }
                Term::Bool(Cond::Near {
                    cell,
                    leaps,
                    side,
                    types: if all {
                        PieceSet::All
                    } else {
                        PieceSet::Types(types)
                    },
                })
            }
            "held" => {
                let reserve = match self.cterm(&args[0], site)? {
                    Term::Reserve(r) => r,
                    other => return self.mismatch(args[0].span, "a reserve", &other),
                };
                let piece = match self.cterm(&args[1], site)? {
                    Term::PieceType(PieceTypeExpr::Literal(p)) => p,
                    other => return self.mismatch(args[1].span, "a piece type", &other),
                };
                let player = match args.get(2) {
                    Some(arg) => Some(self.player_of(arg, site)?),
                    None => None,
                };
                Term::Int(IntExpr::Held(reserve, piece, player))
            }
            "stack_count" => Term::Int(IntExpr::StackCount(self.player_of(&args[0], site)?)),
            "enclosed" => Term::Int(IntExpr::Enclosed(self.cell_of(&args[0], site)?)),
            other => unreachable!("function `{other}` listed in FUNCTIONS but not typed"),
        };
        Some(term)
    }

    /// The leaps of `near`'s Betza string: every atom must be a plain leaper.
    fn near_leaps(&mut self, e: &ast::Expr) -> Option<Vec<vdl_runtime::model::Vec3>> {
        let ExprKind::Value(v) = &e.kind else {
            return self.mismatch(e.span, "a Betza string", &Term::Bool(Cond::Const(true)));
        };
        let ValueKind::Str { text, raw } = &v.kind else {
            self.error(
                v.span,
                ErrorKind::ConditionType {
                    expected: "a Betza string",
                    found: v.describe(),
                },
            );
            return None;
        };
        let base = raw.then_some(v.span.start as usize + 1);
        let betza = match crate::betza::parse_betza(text, base, v.span, &self.atoms) {
            Ok(b) => b,
            Err(errors) => {
                self.problems.extend(errors);
                return None;
            }
        };
        let mut leaps = Vec::new();
        for part in &betza.parts {
            let plain = part.legs.len() == 1
                && part.legs[0].modes.is_empty()
                && part.legs[0].directions.is_empty()
                && part.range == 1
                && !part.initial
                && !part.vectors.is_empty();
            if !plain {
                self.error(
                    part.span,
                    ErrorKind::ConditionType {
                        expected: "plain leaper atoms (such as `K`, `W`, `N`)",
                        found: "a part with modifiers",
                    },
                );
                return None;
            }
            for base in &part.vectors {
                for v in vdl_runtime::geometry::symmetric_variants(*base, self.dimensions) {
                    if !leaps.contains(&v) {
                        leaps.push(v);
                    }
                }
            }
        }
        Some(leaps)
    }
}

/// The participant piece a name stands for.
fn participant(name: &str) -> Option<PieceRef> {
    match name {
        "mover" | "moved" | "captor" => Some(PieceRef::Mover),
        "captured" => Some(PieceRef::Captured),
        "hurdle" => Some(PieceRef::Hurdle),
        _ => None,
    }
}

fn value_kind(v: &Value) -> &'static str {
    match v {
        Value::Player(_) => "a player",
        Value::Piece(_) => "a piece type",
        Value::Cell(_) => "a cell",
        Value::Board(_) => "a board",
    }
}
