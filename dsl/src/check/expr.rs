//! Conditions: checks function names, arities and the names paths start with.

use vdl_runtime::model::{Arg, Expr};

use super::Checker;
use crate::ast::{self, ArithOp, CompareOp, ExprKind, ValueKind};
use crate::error::ErrorKind;
use crate::schema::{CONTEXT_NAMES, FUNCTIONS};

impl Checker {
    /// Checks a `when`/`unless` condition and returns it as a model expression (`unless` negated).
    pub(super) fn check_condition(&mut self, condition: &ast::Condition) -> Expr {
        let expr = self.check_expr(&condition.expr);
        if condition.negated {
            Expr::Not(Box::new(expr))
        } else {
            expr
        }
    }

    fn check_expr(&mut self, e: &ast::Expr) -> Expr {
        match &e.kind {
            ExprKind::Or(parts) => Expr::Or(parts.iter().map(|p| self.check_expr(p)).collect()),
            ExprKind::And(parts) => Expr::And(parts.iter().map(|p| self.check_expr(p)).collect()),
            ExprKind::Not(inner) => Expr::Not(Box::new(self.check_expr(inner))),
            ExprKind::Compare(op, l, r) => {
                let op = match op {
                    CompareOp::Eq => "==",
                    CompareOp::Ne => "!=",
                    CompareOp::Lt => "<",
                    CompareOp::Le => "<=",
                    CompareOp::Gt => ">",
                    CompareOp::Ge => ">=",
                    CompareOp::In => "in",
                };
                Expr::Compare(
                    op,
                    Box::new(self.check_expr(l)),
                    Box::new(self.check_expr(r)),
                )
            }
            ExprKind::Arith(op, l, r) => {
                let op = if *op == ArithOp::Add { "+" } else { "-" };
                Expr::Arith(
                    op,
                    Box::new(self.check_expr(l)),
                    Box::new(self.check_expr(r)),
                )
            }
            ExprKind::Call(name, args) => {
                let checked: Vec<Expr> = args.iter().map(|a| self.check_expr(a)).collect();
                match FUNCTIONS.iter().find(|f| f.name == name.text) {
                    None => {
                        let suggestion =
                            super::suggest(&name.text, FUNCTIONS.iter().map(|f| f.name));
                        self.error(
                            name.span,
                            ErrorKind::UnknownFunction {
                                name: name.text.clone(),
                                suggestion,
                            },
                        );
                    }
                    Some(f) if args.len() < f.min || args.len() > f.max => {
                        let expected = if f.min == f.max {
                            format!("{} argument{}", f.min, if f.min == 1 { "" } else { "s" })
                        } else {
                            format!("{} to {} arguments", f.min, f.max)
                        };
                        self.error(
                            e.span,
                            ErrorKind::WrongArity {
                                name: name.text.clone(),
                                expected,
                                found: args.len(),
                            },
                        );
                    }
                    Some(_) => {}
                }
                Expr::Call(name.text.clone(), checked)
            }
            ExprKind::Value(v) => match &v.kind {
                ValueKind::Path(path) => {
                    self.check_path(path);
                    let literal = self.literal(v);
                    match literal {
                        Arg::Word(_) => Expr::Path(path.iter().map(|n| n.text.clone()).collect()),
                        other => Expr::Literal(other),
                    }
                }
                ValueKind::List(items) => {
                    for item in items {
                        if let ValueKind::Path(p) = &item.kind {
                            self.check_path(p);
                        }
                    }
                    Expr::Literal(self.literal(v))
                }
                _ => Expr::Literal(self.literal(v)),
            },
        }
    }

    /// A path must start with something the condition can see: a declared name, a cell, a participant of
    /// the move or event, or `option.NAME`.
    pub(super) fn check_path(&mut self, path: &[ast::Name]) {
        let root = &path[0];
        let text = root.text.as_str();
        if text == "option" {
            match path.get(1) {
                Some(name) if self.options.get(&name.text).is_none() => {
                    let suggestion = self.options.suggest(&name.text);
                    self.error(
                        name.span,
                        ErrorKind::UnknownName {
                            kind: "option",
                            name: name.text.clone(),
                            suggestion,
                        },
                    );
                }
                _ => {}
            }
            return;
        }
        let known = CONTEXT_NAMES.contains(&text)
            || self.pieces.get(text).is_some()
            || self.players.get(text).is_some()
            || self.zones.get(text).is_some()
            || self.boards.get(text).is_some()
            || self.reserves.get(text).is_some()
            || self.options.get(text).is_some()
            || self.maps.get(text).is_some()
            || self.cells.contains_key(text)
            || self.option_values().any(|v| v == text);
        if !known {
            let candidates: Vec<String> = CONTEXT_NAMES
                .iter()
                .map(|s| s.to_string())
                .chain(self.pieces.order.iter().cloned())
                .chain(self.players.order.iter().cloned())
                .chain(self.zones.order.iter().cloned())
                .chain(self.boards.order.iter().cloned())
                .collect();
            let suggestion = super::suggest(text, candidates.iter().map(String::as_str));
            self.error(
                root.span,
                ErrorKind::UnknownPath {
                    path: text.to_string(),
                    suggestion,
                },
            );
        }
    }
}
