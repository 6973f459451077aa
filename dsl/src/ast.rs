//! The syntax tree of a rule file: what the grammar recognised, with a span on every node.
//!
//! An AST may be wrong; only the checker turns it into a model. The tree is uniform: every construct is a
//! [`Statement`], and the checker gives keywords and arguments their meaning (see `schema`).

use crate::span::Span;

/// A parsed rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The top-level statements in source order.
    pub statements: Vec<Statement>,
}

/// One statement: `keyword arguments [when condition] [{ block }]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// The keyword. For a bare condition statement (`when ...`) this is `when` or `unless`.
    pub keyword: Name,
    /// The arguments after the keyword.
    pub arguments: Vec<Value>,
    /// The `when`/`unless` condition, if any.
    pub condition: Option<Condition>,
    /// The nested block, if any.
    pub block: Option<Block>,
    /// The whole statement.
    pub span: Span,
}

/// A `{ ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements inside.
    pub statements: Vec<Statement>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A condition introduced by `when` (or negated by `unless`).
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// True for `unless`.
    pub negated: bool,
    /// The condition.
    pub expr: Expr,
    /// From the word `when`/`unless` to the end of the expression.
    pub span: Span,
}

/// A name (identifier) with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The text.
    pub text: String,
    /// Where it stands.
    pub span: Span,
}

/// An argument value.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// What kind of value.
    pub kind: ValueKind,
    /// Where it stands.
    pub span: Span,
}

/// The kinds of argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueKind {
    /// `8x8`, `10x8x4`.
    Size(Vec<u32>),
    /// `(1,-2)`.
    Vector(Vec<i32>),
    /// `1..8`, `a..h`.
    Range(Box<Value>, Box<Value>),
    /// `[a, b]`.
    List(Vec<Value>),
    /// `"text"`, with escapes resolved. `raw` tells whether the text equals the source bytes (no escapes),
    /// so that positions inside it can be mapped to the file.
    Str {
        /// The text.
        text: String,
        /// True when the string had no escapes.
        raw: bool,
    },
    /// `42`, `-1`; up to the range of a 64-bit unsigned integer (seeds).
    Int(i128),
    /// `pawn`, `captured.piece`.
    Path(Vec<Name>),
}

/// An expression in a condition.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What kind of expression.
    pub kind: ExprKind,
    /// Where it stands.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `a or b or c`.
    Or(Vec<Expr>),
    /// `a and b`.
    And(Vec<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// `a == b`, `a in b`.
    Compare(CompareOp, Box<Expr>, Box<Expr>),
    /// `a + b`, `a - b`.
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// `count(mover, pawn)`.
    Call(Name, Vec<Expr>),
    /// A literal or a path.
    Value(Value),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
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
    /// `in`
    In,
}

/// An arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
}

impl Statement {
    /// Returns the arguments' combined span, or the keyword's span when there are none.
    pub fn arguments_span(&self) -> Span {
        match (self.arguments.first(), self.arguments.last()) {
            (Some(first), Some(last)) => first.span.to(last.span),
            _ => self.keyword.span,
        }
    }

    /// Returns the statements of the block, or none.
    pub fn children(&self) -> &[Statement] {
        self.block
            .as_ref()
            .map(|b| b.statements.as_slice())
            .unwrap_or(&[])
    }
}

impl Value {
    /// Returns the single name of a one-segment path.
    pub fn as_name(&self) -> Option<&Name> {
        match &self.kind {
            ValueKind::Path(names) if names.len() == 1 => Some(&names[0]),
            _ => None,
        }
    }

    /// Returns the integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        match self.kind {
            ValueKind::Int(n) => i64::try_from(n).ok(),
            _ => None,
        }
    }

    /// Returns the string's text, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::Str { text, .. } => Some(text),
            _ => None,
        }
    }

    /// Describes the kind of value for messages ("a name", "a string").
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            ValueKind::Size(_) => "a size",
            ValueKind::Vector(_) => "a vector",
            ValueKind::Range(..) => "a range",
            ValueKind::List(_) => "a list",
            ValueKind::Str { .. } => "a string",
            ValueKind::Int(_) => "an integer",
            ValueKind::Path(p) if p.len() == 1 => "a name",
            ValueKind::Path(_) => "a dotted path",
        }
    }
}
