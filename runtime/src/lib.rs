//! The vdl runtime: the checked game model shared by the interpreter and compiled engines, and board
//! geometry (cells, directions, move expansion).
//!
//! `runtime` never sees the grammar, the AST or diagnostics: the `dsl` crate builds a [`model::Game`] and
//! everything downstream starts from it.
#![warn(missing_docs)]

pub mod geometry;
pub mod model;

pub use model::Game;
