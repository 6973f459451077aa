//! Triggered rules: a `rule` block's `on`, `when` and effect lines as a typed [`Rule`].
//!
//! Effect arguments are read here, against the events the rule listens to: a target the events do not
//! provide (`captured` in a rule `on move`), an effect they cannot run (`eliminate` outside `on
//! checkmate`) or a malformed target is an error at the exact argument.

use vdl_runtime::model::{
    Destination, Effect, Event, Guarded, Into, PieceRef, PieceSet, PlayerExpr, Rule, Target, Who,
};

use super::directive::{Arg, Directive};
use super::model::word;
use super::Checker;
use crate::ast::{Statement, Value};
use crate::error::ErrorKind;
use crate::span::Span;

/// What the rule's events have in common.
#[derive(Clone, Copy, Debug)]
struct Provides {
    mover: bool,
    captured: bool,
    checkmate: bool,
}

impl Checker {
    /// Builds a rule; `None` (with errors reported) when it is malformed.
    pub(super) fn build_rule(&mut self, d: &Directive, statements: &[Statement]) -> Option<Rule> {
        let ast = statements.iter().find(|s| s.span == d.span);
        let lines: &[Statement] = ast.map(Statement::children).unwrap_or(&[]);
        let line_of = |child: &Directive| lines.iter().find(|s| s.span == child.span);
        let name_span = ast
            .and_then(|s| s.arguments.first())
            .map(|v| v.span)
            .unwrap_or(d.span);
        let mut rule = Rule {
            name: word(d.arguments.first()),
            events: Vec::new(),
            conditions: Vec::new(),
            effects: Vec::new(),
        };
        let mut ok = true;
        for child in d.children_named("on") {
            match self.event(child, line_of(child)) {
                Some(event) => rule.events.push(event),
                None => ok = false,
            }
        }
        if rule.events.is_empty() {
            if ok {
                self.error(
                    name_span,
                    ErrorKind::MissingStatement {
                        keyword: "on",
                        context: "a `rule` block",
                    },
                );
            }
            return None;
        }
        let provides = Provides {
            mover: rule.events.iter().all(|e| *e != Event::Checkmate),
            captured: rule.events.iter().all(|e| *e == Event::Capture),
            checkmate: rule.events.iter().all(|e| *e == Event::Checkmate),
        };
        if rule.events.contains(&Event::Checkmate) && !provides.checkmate {
            self.error(
                name_span,
                ErrorKind::InvalidEffect {
                    detail: "a rule `on checkmate` cannot listen to other events too".into(),
                },
            );
            return None;
        }
        for child in &d.children {
            match child.keyword.as_str() {
                "on" => {}
                "when" | "unless" => rule.conditions.extend(child.condition.clone()),
                _ => {
                    let Some(line) = line_of(child) else {
                        continue;
                    };
                    match self.effect(child, line, provides) {
                        Some(effect) => rule.effects.push(Guarded {
                            item: effect,
                            condition: child.condition.clone(),
                        }),
                        None => ok = false,
                    }
                }
            }
        }
        ok.then_some(rule)
    }

    fn event(&mut self, d: &Directive, line: Option<&Statement>) -> Option<Event> {
        let span_of = |i: usize| {
            line.and_then(|l| l.arguments.get(i))
                .map(|v| v.span)
                .unwrap_or(d.span)
        };
        let word = d.arguments.first().and_then(Arg::as_word).unwrap_or("");
        let zone = d.arguments.get(1).and_then(Arg::as_zone);
        let event = match word {
            "capture" => Event::Capture,
            "move" => Event::Move,
            "enter" | "leave" => {
                let Some(zone) = zone else {
                    self.error(
                        span_of(1).to(span_of(0)),
                        ErrorKind::InvalidEffect {
                            detail: format!("`on {word}` needs a zone: `on {word} ZONE`"),
                        },
                    );
                    return None;
                };
                if word == "enter" {
                    Event::Enter(zone)
                } else {
                    Event::Leave(zone)
                }
            }
            "check" => Event::Check,
            "checkmate" => Event::Checkmate,
            "drop" => Event::Drop,
            "promotion" => Event::Promotion,
            "transform" => Event::Transform,
            "transfer" => Event::Transfer,
            _ => return None, // reported by the statement check
        };
        let takes = if matches!(event, Event::Enter(_) | Event::Leave(_)) {
            2
        } else {
            1
        };
        if d.arguments.len() > takes {
            self.error(
                span_of(takes),
                ErrorKind::TooManyArguments {
                    keyword: format!("on {word}"),
                },
            );
            return None;
        }
        Some(event)
    }

    fn effect(&mut self, d: &Directive, line: &Statement, provides: Provides) -> Option<Effect> {
        let mut args = Args {
            values: &line.arguments,
            at: 0,
            end: line.span,
        };
        let keyword = d.keyword.as_str();
        let effect = match keyword {
            "remove" => Effect::Remove(self.target(&mut args, provides)?),
            "send" => {
                let target = self.target(&mut args, provides)?;
                let v = args.next_value(self, "where to send the pieces")?;
                let name = v.as_name().map(|n| n.text.as_str()).unwrap_or("");
                let dest = if let Some(b) = self.boards.get(name) {
                    Destination::Board(b)
                } else if let Some(z) = self.zones.get(name) {
                    self.used_zones[z] = true;
                    Destination::Zone(z)
                } else if let Some(r) = self.reserves.get(name) {
                    Destination::Reserve(r)
                } else if let Some(&c) = self.cells.get(name) {
                    Destination::Cell(c)
                } else {
                    self.error(
                        v.span,
                        ErrorKind::NotADestination {
                            name: name.to_string(),
                        },
                    );
                    return None;
                };
                Effect::Send(target, dest)
            }
            "transform" => {
                let target = self.target(&mut args, provides)?;
                let into = if args.peek_word() == Some("by") {
                    args.at += 1;
                    let v = args.next_value(self, "a typemap")?;
                    Into::Map(self.lookup(v, "typemap")?)
                } else {
                    let v = args.next_value(self, "the piece they become")?;
                    Into::Piece(self.lookup(v, "piece")?)
                };
                let mut owner = None;
                let mut from = None;
                while let Some(w) = args.peek_word() {
                    match w {
                        "owner" => {
                            args.at += 1;
                            let v = args.next_value(self, "a player")?;
                            owner = Some(self.effect_player(v, provides)?);
                        }
                        "from" => {
                            args.at += 1;
                            let v = args.next_value(self, "a reserve")?;
                            from = Some(self.lookup(v, "reserve")?);
                        }
                        _ => break,
                    }
                }
                Effect::Transform {
                    target,
                    into,
                    owner,
                    from,
                }
            }
            "convert" => {
                // `convert PLAYER PLAYER`: every piece of the first becomes the second's; otherwise
                // `convert TARGET (to PLAYER)?`, by default to the player who moved.
                let first_is_player = args.peek().and_then(Value::as_name).is_some_and(|n| {
                    matches!(n.text.as_str(), "mater" | "checkmated")
                        || self.players.get(&n.text).is_some()
                });
                if first_is_player {
                    let v = args.next_value(self, "the player whose pieces change owner")?;
                    let from = self.effect_player(v, provides)?;
                    let v = args.next_value(self, "their new owner")?;
                    let to = self.effect_player(v, provides)?;
                    Effect::Convert {
                        target: Target {
                            who: Who::All(PieceSet::All, from),
                            except: Vec::new(),
                        },
                        to,
                    }
                } else {
                    let target = self.target(&mut args, provides)?;
                    let to = if args.peek_word() == Some("to") {
                        args.at += 1;
                        let v = args.next_value(self, "the new owner")?;
                        self.effect_player(v, provides)?
                    } else if provides.mover {
                        PlayerExpr::Own
                    } else {
                        PlayerExpr::Mater
                    };
                    Effect::Convert { target, to }
                }
            }
            "eliminate" => {
                if !provides.checkmate {
                    return self.not_here(line, "`eliminate` runs in rules `on checkmate` only");
                }
                let v = args.next_value(self, "the player eliminated")?;
                let p = self.effect_player(v, provides)?;
                if p != PlayerExpr::Checkmated {
                    self.error(
                        v.span,
                        ErrorKind::InvalidEffect {
                            detail: "a checkmate eliminates the checkmated player: `eliminate checkmated`"
                                .into(),
                        },
                    );
                    return None;
                }
                Effect::Eliminate(p)
            }
            "add" => {
                args.at = args.values.len();
                match d.arguments.as_slice() {
                    [Arg::Reserve(r), Arg::Piece(p)] => Effect::Add(*r, *p),
                    _ => return None,
                }
            }
            "reset" => {
                args.at = args.values.len();
                Effect::ResetMoveRule
            }
            _ => return None, // reported by the statement check
        };
        if let Some(extra) = args.values.get(args.at) {
            self.error(
                extra.span,
                ErrorKind::TooManyArguments {
                    keyword: keyword.to_string(),
                },
            );
            return None;
        }
        Some(effect)
    }

    fn not_here<T>(&mut self, line: &Statement, detail: &str) -> Option<T> {
        self.error(
            line.keyword.span,
            ErrorKind::InvalidEffect {
                detail: detail.to_string(),
            },
        );
        None
    }

    /// A target: `mover`/`moved`/`captor`, `captured`, `delivering`, `adjacent PIECE`, or `all [PIECES]
    /// of SIDE`, then perhaps `except PIECE...`.
    fn target(&mut self, args: &mut Args, provides: Provides) -> Option<Target> {
        let v = args.next_value(self, "the pieces it applies to")?;
        let name = v.as_name().map(|n| n.text.as_str()).unwrap_or("");
        let who = match name {
            "mover" | "moved" | "captor" | "captured" => Who::Piece(self.participant(v, provides)?),
            "delivering" if provides.checkmate => Who::Delivering,
            "delivering" => return self.unavailable_target(v, provides),
            "adjacent" => {
                let around = args.next_value(self, "the piece whose neighbours are meant")?;
                Who::Adjacent(self.participant(around, provides)?)
            }
            "enclosed" => {
                let by = args.next_value(self, "the piece that encloses")?;
                Who::Enclosed(self.participant(by, provides)?)
            }
            "all" => {
                let pieces = match args.peek() {
                    Some(next) if next.as_name().is_some_and(|n| n.text == "of") => PieceSet::All,
                    Some(_) => {
                        let next = args.next_value(self, "piece types")?;
                        PieceSet::Types(self.piece_types(next)?)
                    }
                    None => PieceSet::All,
                };
                match args.next_value(self, "`of SIDE`")? {
                    of if of.as_name().is_some_and(|n| n.text == "of") => {}
                    other => {
                        self.error(
                            other.span,
                            ErrorKind::WrongArgument {
                                expected: "`of`".into(),
                                found: other.describe(),
                            },
                        );
                        return None;
                    }
                }
                let side = args.next_value(self, "whose pieces")?;
                Who::All(pieces, self.effect_player(side, provides)?)
            }
            _ => {
                self.error(
                    v.span,
                    ErrorKind::WrongArgument {
                        expected: "a target (`mover`, `captured`, `adjacent ...`, `enclosed ...`, `all ... of ...`, `delivering`)"
                            .into(),
                        found: v.describe(),
                    },
                );
                return None;
            }
        };
        let mut except = Vec::new();
        if args.peek_word() == Some("except") {
            args.at += 1;
            while let Some(next) = args.peek() {
                match next.as_name().and_then(|n| self.pieces.get(&n.text)) {
                    Some(p) => {
                        self.used_pieces[p] = true;
                        except.push(p);
                        args.at += 1;
                    }
                    None => break,
                }
            }
            if except.is_empty() {
                self.error(
                    args.span_here(),
                    ErrorKind::MissingArgument {
                        keyword: "except".into(),
                        expected: "piece types".into(),
                    },
                );
                return None;
            }
        }
        Some(Target { who, except })
    }

    fn participant(&mut self, v: &Value, provides: Provides) -> Option<PieceRef> {
        let name = v.as_name().map(|n| n.text.as_str()).unwrap_or("");
        match name {
            "mover" | "moved" | "captor" if provides.mover => Some(PieceRef::Mover),
            "captured" if provides.captured => Some(PieceRef::Captured),
            "mover" | "moved" | "captor" | "captured" => self.unavailable_target(v, provides),
            _ => {
                self.error(
                    v.span,
                    ErrorKind::WrongArgument {
                        expected: "`mover` or `captured`".into(),
                        found: v.describe(),
                    },
                );
                None
            }
        }
    }

    fn unavailable_target<T>(&mut self, v: &Value, provides: Provides) -> Option<T> {
        let mut available = Vec::new();
        if provides.mover {
            available.push("`mover`");
        }
        if provides.captured {
            available.push("`captured`");
        }
        if provides.checkmate {
            available.extend(["`mater`", "`checkmated`", "`delivering`"]);
        }
        self.error(
            v.span,
            ErrorKind::ParticipantUnavailable {
                name: v.as_name().map(|n| n.text.clone()).unwrap_or_default(),
                here: "this rule",
                available: available.join(", "),
            },
        );
        None
    }

    fn piece_types(&mut self, v: &Value) -> Option<Vec<usize>> {
        match &v.kind {
            crate::ast::ValueKind::List(items) => {
                let mut out = Vec::new();
                for item in items {
                    out.push(self.lookup(item, "piece")?);
                }
                for &p in &out {
                    self.used_pieces[p] = true;
                }
                Some(out)
            }
            _ => {
                let p = self.lookup(v, "piece")?;
                self.used_pieces[p] = true;
                Some(vec![p])
            }
        }
    }

    fn effect_player(&mut self, v: &Value, provides: Provides) -> Option<PlayerExpr> {
        let name = v.as_name().map(|n| n.text.as_str()).unwrap_or("");
        match name {
            "mater" if provides.checkmate => Some(PlayerExpr::Mater),
            "checkmated" if provides.checkmate => Some(PlayerExpr::Checkmated),
            "mater" | "checkmated" => self.unavailable_target(v, provides),
            _ => Some(PlayerExpr::Literal(self.lookup(v, "player")?)),
        }
    }
}

/// The arguments of an effect line, read left to right.
struct Args<'a> {
    values: &'a [Value],
    at: usize,
    end: Span,
}

impl<'a> Args<'a> {
    fn peek(&self) -> Option<&'a Value> {
        self.values.get(self.at)
    }

    fn peek_word(&self) -> Option<&'a str> {
        self.peek()
            .and_then(Value::as_name)
            .map(|n| n.text.as_str())
    }

    fn next_value(&mut self, checker: &mut Checker, expected: &str) -> Option<&'a Value> {
        match self.values.get(self.at) {
            Some(v) => {
                self.at += 1;
                Some(v)
            }
            None => {
                checker.error(
                    self.span_here(),
                    ErrorKind::MissingArgument {
                        keyword: "the effect".into(),
                        expected: expected.to_string(),
                    },
                );
                None
            }
        }
    }

    fn span_here(&self) -> Span {
        self.values
            .get(self.at.saturating_sub(1))
            .map(|v| v.span)
            .unwrap_or(self.end)
    }
}
