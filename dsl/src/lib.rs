//! The vdl language: text to a checked game model.
//!
//! `parse` turns text into an [`ast::File`]; `betza` parses piece moves; `check` validates the AST and
//! builds the model; `error` describes every problem as a diagnostic with a stable code.

pub mod ast;
pub mod betza;
pub mod check;
pub mod error;
pub mod limits;
pub mod parse;
pub mod schema;
pub mod span;

pub use error::{Error, ErrorKind};
pub use span::Span;
