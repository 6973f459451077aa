//! A checked statement in general form, the checker's own intermediate: its keyword, its arguments
//! matched against the vocabulary with names resolved, its typed condition and its block. The model
//! builder (`check::model`) turns directives into typed model values; no directive leaves the checker.

use vdl_runtime::model::{Cond, Vec3};

use crate::ast;
use crate::span::Span;

/// A statement matched against its vocabulary entry.
#[derive(Clone, Debug)]
pub(super) struct Directive {
    /// The keyword.
    pub keyword: String,
    /// The arguments.
    pub arguments: Vec<Arg>,
    /// The typed condition, if any.
    pub condition: Option<Cond>,
    /// A zone specification's condition on coordinates, evaluated by the checker.
    pub coordinates: Option<ast::Condition>,
    /// Nested statements.
    pub children: Vec<Directive>,
    /// The whole statement.
    pub span: Span,
}

/// A resolved argument.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Arg {
    /// A word (keyword, flag, event).
    Word(String),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A vector.
    Vector(Vec3),
    /// A piece type.
    Piece(usize),
    /// A player or neutral side.
    Player(usize),
    /// A board.
    Board(usize),
    /// A zone.
    Zone(usize),
    /// A cell.
    Cell(usize),
    /// A reserve.
    Reserve(usize),
    /// An option's chosen value (`option.seed`).
    Option(usize),
    /// A list.
    List(Vec<Arg>),
    /// A range.
    Range(Box<Arg>, Box<Arg>),
}

impl Arg {
    /// The piece type, if this is one.
    pub fn as_piece(&self) -> Option<usize> {
        if let Arg::Piece(p) = self {
            Some(*p)
        } else {
            None
        }
    }

    /// The zone, if this is one.
    pub fn as_zone(&self) -> Option<usize> {
        if let Arg::Zone(z) = self {
            Some(*z)
        } else {
            None
        }
    }

    /// The board, if this is one.
    pub fn as_board(&self) -> Option<usize> {
        if let Arg::Board(b) = self {
            Some(*b)
        } else {
            None
        }
    }

    /// The vector, if this is one.
    pub fn as_vector(&self) -> Option<Vec3> {
        if let Arg::Vector(v) = self {
            Some(*v)
        } else {
            None
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        if let Arg::Int(n) = self {
            Some(*n)
        } else {
            None
        }
    }

    /// Whether this is the given word.
    pub fn is_word(&self, word: &str) -> bool {
        matches!(self, Arg::Word(w) if w == word)
    }

    /// The word, if this is one.
    pub fn as_word(&self) -> Option<&str> {
        if let Arg::Word(w) = self {
            Some(w)
        } else {
            None
        }
    }
}

impl Directive {
    /// The first child with this keyword.
    pub fn child(&self, keyword: &str) -> Option<&Directive> {
        self.children.iter().find(|c| c.keyword == keyword)
    }

    /// The children with this keyword.
    pub fn children_named<'a>(&'a self, keyword: &'a str) -> impl Iterator<Item = &'a Directive> {
        self.children.iter().filter(move |c| c.keyword == keyword)
    }

    /// The words among the arguments.
    pub fn words(&self) -> Vec<&str> {
        self.arguments.iter().filter_map(Arg::as_word).collect()
    }
}
