//! The `notation` block: the position template, whose fields the runtime reads and writes (docs/fen.md).

use super::Checker;
use crate::ast::{Statement, ValueKind};
use crate::error::ErrorKind;
use crate::span::Span;

impl Checker {
    /// `notation { position "..." }`: `{FIELD}`s of the known fields separated by spaces, each at most
    /// once, with exactly one of `{board}` and `{pieces}` (anywhere). The label points at the field at
    /// fault inside the string.
    pub(super) fn check_position_template(&mut self, statements: &[Statement]) {
        const FIELDS: &[&str] = &[
            "board",
            "pieces",
            "side",
            "moves_done",
            "frozen",
            "captures",
            "halfmove",
            "fullmove",
            "en_passant",
            "checkmates",
        ];
        let templates = statements
            .iter()
            .filter(|s| s.keyword.text == "notation")
            .flat_map(Statement::children)
            .filter(|s| s.keyword.text == "position")
            .filter_map(|s| s.arguments.first());
        for value in templates {
            let ValueKind::Str { text, raw } = &value.kind else {
                continue;
            };
            let mut seen: Vec<&str> = Vec::new();
            let mut offset = 0;
            for token in text.split(' ') {
                let start = offset;
                offset += token.len() + 1;
                if token.is_empty() {
                    continue;
                }
                let span = if *raw {
                    let at = value.span.start as usize + 1 + start;
                    Span::new(at, at + token.len())
                } else {
                    value.span
                };
                let field = token
                    .strip_prefix('{')
                    .and_then(|t| t.strip_suffix('}'))
                    .filter(|f| !f.contains(['{', '}']));
                let detail = match field {
                    None => Some(format!("`{token}` is not a `{{FIELD}}`")),
                    Some(f) if !FIELDS.contains(&f) => Some(format!("unknown field `{token}`")),
                    Some(f) if seen.contains(&f) => Some(format!("`{token}` is given twice")),
                    Some(f @ ("board" | "pieces"))
                        if seen.iter().any(|s| matches!(*s, "board" | "pieces")) =>
                    {
                        let other = if f == "board" { "pieces" } else { "board" };
                        Some(format!(
                            "`{token}` and `{{{other}}}` both place the pieces: keep one"
                        ))
                    }
                    Some(f) => {
                        seen.push(f);
                        None
                    }
                };
                if let Some(detail) = detail {
                    self.error(span, ErrorKind::InvalidPositionTemplate { detail });
                    return;
                }
            }
            if !seen.iter().any(|s| matches!(*s, "board" | "pieces")) {
                self.error(
                    value.span,
                    ErrorKind::InvalidPositionTemplate {
                        detail: "no `{board}` or `{pieces}`: one of them places the pieces".into(),
                    },
                );
            }
        }
    }
}
