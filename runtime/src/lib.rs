//! The vdl runtime: the checked game model shared by the interpreter and compiled engines, board
//! geometry, the [`Variant`] trait, the reference interpreter, perft, search, the engine protocols,
//! and SAN and PGN.
//!
//! `runtime` never sees the grammar, the AST or diagnostics: the `dsl` crate builds a [`model::Game`] and
//! everything downstream starts from it.
#![warn(missing_docs)]

pub mod cli;
pub mod compact;
pub mod geometry;
pub mod interp;
pub mod interrupt;
pub mod model;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod protocol;
pub mod san;
pub mod search;
pub mod variant;

pub use interp::Interpreter;
pub use model::Game;
pub use variant::{GameResult, MoveFacts, Square, TextError, Variant};
