//! Statement checking: matches each statement against its block's vocabulary, resolves the names in its
//! arguments, types its condition for the statement's site and returns it as a [`Directive`].

use super::cond::{RuleScope, Site};
use super::directive::{Arg, Directive};
use super::Checker;
use crate::ast::{Statement, Value, ValueKind};
use crate::error::ErrorKind;
use crate::schema::{specs, Arg as ArgSpec, Context, Count, Kind, Spec, WITHOUT_EFFECT};
use crate::span::Span;

impl Checker {
    /// Checks one statement in a block of the given context. `owner` is the player a per-player zone
    /// specification belongs to.
    pub(super) fn check_statement(
        &mut self,
        s: &Statement,
        context: Context,
        owner: Option<usize>,
    ) -> Option<Directive> {
        let keyword = s.keyword.text.as_str();
        if keyword == "when" || keyword == "unless" {
            return self.check_bare_condition(s, context);
        }
        if context == Context::Zone && keyword == "except" {
            return self.check_except(s, owner);
        }
        if context == Context::Zone && owner.is_none() {
            if let Some(player) = self.players.get(keyword) {
                return self.check_owned_zone_spec(s, player);
            }
        }
        let table = specs(context);
        if let Some((_, _, why)) = WITHOUT_EFFECT
            .iter()
            .find(|(c, k, _)| *c == context && *k == keyword)
        {
            self.error(
                s.keyword.span,
                ErrorKind::WithoutEffect {
                    keyword: keyword.to_string(),
                    why,
                },
            );
            return None;
        }
        let Some(spec) = table.iter().find(|spec| spec.keyword == keyword) else {
            if context == Context::Zone && owner.is_none() && self.is_owner_prefix(s) {
                let suggestion = self.players.suggest(keyword);
                self.error(
                    s.keyword.span,
                    ErrorKind::UnknownName {
                        kind: "player",
                        name: keyword.to_string(),
                        suggestion,
                    },
                );
                return None;
            }
            let mut candidates: Vec<&str> = table.iter().map(|spec| spec.keyword).collect();
            if context == Context::Zone {
                candidates.extend(self.players.order.iter().map(String::as_str));
            }
            let suggestion = super::suggest(keyword, candidates.into_iter());
            self.error(
                s.keyword.span,
                ErrorKind::UnknownStatement {
                    keyword: keyword.to_string(),
                    context: context.describe(),
                    suggestion,
                },
            );
            return None;
        };
        let arguments = self.match_arguments(s, spec, &s.arguments);
        if let Some(arguments) = &arguments {
            self.check_values(s, arguments);
        }
        let (condition, coordinates) = self.statement_condition(s, spec, context);
        let children = match (&s.block, spec.block) {
            (Some(block), Some(Context::Rule)) => {
                let saved = self.rule_scope.replace(rule_scope(&block.statements));
                let children = self.check_block(&block.statements, Context::Rule);
                self.rule_scope = saved;
                children
            }
            (Some(block), Some(inner)) => self.check_block(&block.statements, inner),
            (Some(block), None) => {
                self.error(
                    block.span,
                    ErrorKind::UnexpectedBlock {
                        keyword: keyword.to_string(),
                    },
                );
                Vec::new()
            }
            (None, Some(_)) if spec.block_required => {
                self.error(
                    s.keyword.span,
                    ErrorKind::MissingBlock {
                        keyword: keyword.to_string(),
                    },
                );
                Vec::new()
            }
            (None, _) => Vec::new(),
        };
        Some(Directive {
            keyword: keyword.to_string(),
            arguments: arguments?,
            condition,
            coordinates,
            children,
            span: s.span,
        })
    }

    /// `NAME rank 8` in a zone: an unknown word followed by a cell specification is meant as a player.
    fn is_owner_prefix(&self, s: &Statement) -> bool {
        s.arguments
            .first()
            .and_then(Value::as_name)
            .is_some_and(|n| {
                specs(Context::Zone)
                    .iter()
                    .any(|spec| spec.keyword == n.text && spec.keyword != "except")
            })
    }

    /// A bare `when`/`unless` line: allowed in `rule` and `transfer` blocks, where it restricts the
    /// whole block.
    fn check_bare_condition(&mut self, s: &Statement, context: Context) -> Option<Directive> {
        let site = match context {
            Context::Rule => Site::Rule(self.rule_scope.unwrap_or_default()),
            Context::Transfer => Site::Transfer,
            _ => {
                self.error(
                    s.keyword.span,
                    ErrorKind::BareCondition {
                        context: context.describe(),
                    },
                );
                return None;
            }
        };
        let condition = s
            .condition
            .as_ref()
            .and_then(|c| self.check_condition(c, site));
        Some(Directive {
            keyword: s.keyword.text.clone(),
            arguments: Vec::new(),
            condition,
            coordinates: None,
            children: Vec::new(),
            span: s.span,
        })
    }

    /// The condition of a statement, typed for its site; a zone specification's condition on
    /// coordinates is kept for the checker to evaluate. A statement that takes no condition and has
    /// one is an error.
    fn statement_condition(
        &mut self,
        s: &Statement,
        spec: &Spec,
        context: Context,
    ) -> (
        Option<vdl_runtime::model::Cond>,
        Option<crate::ast::Condition>,
    ) {
        let Some(condition) = &s.condition else {
            return (None, None);
        };
        if !spec.condition {
            self.error(
                condition.span,
                ErrorKind::ConditionNotAllowed {
                    keyword: s.keyword.text.clone(),
                },
            );
            return (None, None);
        }
        if context == Context::Zone {
            self.check_coordinate_condition(&condition.expr);
            return (None, Some(condition.clone()));
        }
        let site = self.site_of(s, context);
        (self.check_condition(condition, site), None)
    }

    /// What a statement's condition can see.
    fn site_of(&mut self, s: &Statement, context: Context) -> Site {
        match (context, s.keyword.text.as_str()) {
            (Context::Piece, "moves") => Site::Move {
                hurdle: self.every_part_hops(s),
            },
            (Context::Piece, "moves_only_on" | "stacks" | "merge") => Site::Move { hurdle: false },
            (Context::Piece | Context::Player, "movable_by") => Site::Movable,
            (Context::Piece, "promote" | "promote_pair" | "promote_move") => Site::Promotion,
            (Context::Piece, "royal") => Site::Royal,
            (Context::Castle, _) => Site::Castle,
            (Context::Transfer, _) => Site::Transfer,
            (Context::Reserve, "drops") => Site::Drop,
            (Context::Reserve, "pick_up") => Site::PickUp,
            (Context::Turn, "must_drop") => Site::End,
            (Context::End | Context::Counting, _) => Site::End,
            (Context::Material, _) => Site::Material,
            (Context::Rule, _) => Site::Rule(self.rule_scope.unwrap_or_default()),
            _ => Site::Options,
        }
    }

    /// Whether every part of a `moves` statement's Betza string hops (a `p` or `g` leg), so that its
    /// condition may name the `hurdle`.
    fn every_part_hops(&mut self, s: &Statement) -> bool {
        let Some(ValueKind::Str { text, .. }) = s.arguments.first().map(|v| &v.kind) else {
            return false;
        };
        match crate::betza::parse_betza(text, None, Span::default(), &self.atoms) {
            Ok(betza) => betza.parts.iter().all(|p| {
                p.legs
                    .iter()
                    .any(|l| l.modes.contains('p') || l.modes.contains('g'))
            }),
            Err(_) => false,
        }
    }

    /// A zone specification's condition: integers, `x`, `y`, `z`, `+`, `-`, comparisons and `and`,
    /// `or`, `not` only.
    fn check_coordinate_condition(&mut self, e: &crate::ast::Expr) {
        use crate::ast::ExprKind;
        match &e.kind {
            ExprKind::Or(parts) | ExprKind::And(parts) => {
                for p in parts {
                    self.check_coordinate_condition(p);
                }
            }
            ExprKind::Not(inner) => self.check_coordinate_condition(inner),
            ExprKind::Compare(op, l, r) if *op != crate::ast::CompareOp::In => {
                self.check_coordinate_term(l);
                self.check_coordinate_term(r);
            }
            _ => self.error(
                e.span,
                ErrorKind::ConditionType {
                    expected: "a comparison of cell coordinates (`x`, `y`, `z`)",
                    found: "something else",
                },
            ),
        }
    }

    fn check_coordinate_term(&mut self, e: &crate::ast::Expr) {
        use crate::ast::ExprKind;
        match &e.kind {
            ExprKind::Arith(_, l, r) => {
                self.check_coordinate_term(l);
                self.check_coordinate_term(r);
            }
            ExprKind::Value(v) => match &v.kind {
                ValueKind::Int(_) => {}
                ValueKind::Path(p)
                    if p.len() == 1 && matches!(p[0].text.as_str(), "x" | "y" | "z") => {}
                _ => self.error(
                    v.span,
                    ErrorKind::ConditionType {
                        expected: "an integer or a coordinate (`x`, `y`, `z`)",
                        found: v.describe(),
                    },
                ),
            },
            _ => self.error(
                e.span,
                ErrorKind::ConditionType {
                    expected: "an integer or a coordinate (`x`, `y`, `z`)",
                    found: "something else",
                },
            ),
        }
    }

    /// Checks what the argument kinds alone cannot: a promotion with no choice, a capacity of zero, an
    /// option whose default it does not list, a `send` to no place.
    fn check_values(&mut self, s: &Statement, arguments: &[Arg]) {
        match s.keyword.text.as_str() {
            "promote" if !arguments.iter().any(|a| matches!(a, Arg::Piece(_))) => {
                self.error(s.keyword.span, ErrorKind::EmptyPromotion)
            }
            "promote_move"
                if !arguments.iter().any(|a| a.is_word("in_place"))
                    && !arguments.iter().any(|a| a.is_word("by")) =>
            {
                self.error(
                    s.keyword.span,
                    ErrorKind::MissingArgument {
                        keyword: "promote_move".into(),
                        expected: "`in_place` or `by BETZA` (where the new piece stands)".into(),
                    },
                )
            }
            "capacity" if matches!(arguments.first(), Some(Arg::Int(0))) => {
                self.error(s.arguments_span(), ErrorKind::ZeroCapacity)
            }
            "send" => {
                // The last argument is where the pieces go (`send captured limbo`,
                // `send all of checkmated pool`).
                let Some(place) = s.arguments.last() else {
                    return;
                };
                let Some(name) = place.as_name().map(|n| n.text.clone()) else {
                    return;
                };
                let known = self.boards.get(&name).is_some()
                    || self.zones.get(&name).is_some()
                    || self.reserves.get(&name).is_some()
                    || self.cells.contains_key(&name);
                if !known && s.arguments.len() >= 2 {
                    self.error(place.span, ErrorKind::NotADestination { name });
                }
            }
            "option" => {
                let values = s.children().iter().find(|c| c.keyword.text == "values");
                let default = s
                    .children()
                    .iter()
                    .find(|c| c.keyword.text == "default")
                    .and_then(|c| c.arguments.first());
                let (Some(values), Some(default)) = (values, default) else {
                    return;
                };
                let show = |v: &Value| match &v.kind {
                    ValueKind::Path(p) => p
                        .iter()
                        .map(|n| n.text.as_str())
                        .collect::<Vec<_>>()
                        .join("."),
                    ValueKind::Int(n) => n.to_string(),
                    ValueKind::Str { text, .. } => text.clone(),
                    _ => String::new(),
                };
                let wanted = show(default);
                let listed = values.arguments.iter().any(|v| match &v.kind {
                    ValueKind::Range(lo, hi) => match (lo.as_int(), hi.as_int(), default.as_int()) {
                        (Some(lo), Some(hi), Some(d)) => (lo..=hi).contains(&d),
                        _ => matches!((&lo.kind, &hi.kind, &default.kind), (ValueKind::Int(l), ValueKind::Int(h), ValueKind::Int(d)) if l <= d && d <= h),
                    },
                    _ => show(v) == wanted || show(v) == "text",
                });
                if !listed {
                    let option = s
                        .arguments
                        .first()
                        .and_then(Value::as_name)
                        .map(|n| n.text.clone())
                        .unwrap_or_default();
                    self.error(
                        default.span,
                        ErrorKind::UnknownOptionValue {
                            option,
                            value: wanted,
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// Checks the statements of a block, including statements that may appear only once.
    pub(super) fn check_block(
        &mut self,
        statements: &[Statement],
        context: Context,
    ) -> Vec<Directive> {
        let mut seen: Vec<(&str, crate::span::Span)> = Vec::new();
        let mut out = Vec::new();
        for s in statements {
            let once = specs(context)
                .iter()
                .any(|spec| spec.keyword == s.keyword.text && spec.once);
            if once && s.condition.is_none() {
                if let Some((_, first)) = seen.iter().find(|(k, _)| *k == s.keyword.text) {
                    self.error(
                        s.keyword.span,
                        ErrorKind::DuplicateStatement {
                            keyword: s.keyword.text.clone(),
                            first: *first,
                        },
                    );
                    continue;
                }
                seen.push((s.keyword.text.as_str(), s.keyword.span));
            }
            out.extend(self.check_statement(s, context, None));
        }
        out
    }

    /// `white rank 8` inside a zone: a cell specification that belongs to one player.
    fn check_owned_zone_spec(&mut self, s: &Statement, player: usize) -> Option<Directive> {
        let inner = self.nested_spec(s)?;
        let directive = self.check_statement(&inner, Context::Zone, Some(player))?;
        Some(Directive {
            keyword: "for".into(),
            arguments: vec![Arg::Player(player)],
            condition: None,
            coordinates: None,
            children: vec![directive],
            span: s.span,
        })
    }

    /// `except rank 8`: a cell specification whose cells are removed.
    fn check_except(&mut self, s: &Statement, owner: Option<usize>) -> Option<Directive> {
        let inner = self.nested_spec(s)?;
        let directive = self.check_statement(&inner, Context::Zone, owner)?;
        Some(Directive {
            keyword: "except".into(),
            arguments: Vec::new(),
            condition: None,
            coordinates: None,
            children: vec![directive],
            span: s.span,
        })
    }

    /// Reads `KEYWORD ARGS...` from a statement's arguments as a statement of its own.
    fn nested_spec(&mut self, s: &Statement) -> Option<Statement> {
        let Some(first) = s.arguments.first() else {
            self.error(
                s.keyword.span,
                ErrorKind::MissingArgument {
                    keyword: s.keyword.text.clone(),
                    expected: "a cell specification".into(),
                },
            );
            return None;
        };
        let Some(name) = first.as_name() else {
            self.error(
                first.span,
                ErrorKind::WrongArgument {
                    expected: "a cell specification".into(),
                    found: first.describe(),
                },
            );
            return None;
        };
        Some(Statement {
            keyword: name.clone(),
            arguments: s.arguments[1..].to_vec(),
            condition: s.condition.clone(),
            block: s.block.clone(),
            span: s.span,
        })
    }

    /// Matches arguments against a statement's argument specification.
    fn match_arguments(
        &mut self,
        s: &Statement,
        spec: &Spec,
        values: &[Value],
    ) -> Option<Vec<Arg>> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut ok = true;
        for (index, arg) in spec.args.iter().enumerate() {
            let stop = stop_words(&spec.args[index + 1..]);
            match *arg {
                ArgSpec::Keyword(word) => match values.get(at) {
                    Some(v) if v.as_name().is_some_and(|n| n.text == word) => {
                        out.push(Arg::Word(word.to_string()));
                        at += 1;
                    }
                    Some(v) => {
                        self.error(
                            v.span,
                            ErrorKind::WrongArgument {
                                expected: format!("`{word}`"),
                                found: v.describe(),
                            },
                        );
                        return None;
                    }
                    None => {
                        self.error(
                            s.arguments_span(),
                            ErrorKind::MissingArgument {
                                keyword: s.keyword.text.clone(),
                                expected: format!("`{word}`"),
                            },
                        );
                        return None;
                    }
                },
                ArgSpec::OptKeyword(word, kind, count) => {
                    if values
                        .get(at)
                        .and_then(Value::as_name)
                        .is_some_and(|n| n.text == word)
                    {
                        out.push(Arg::Word(word.to_string()));
                        at += 1;
                        ok &= self.match_kind(s, kind, count, values, &mut at, &stop, &mut out);
                    }
                }
                ArgSpec::Value(kind, count) => {
                    ok &= self.match_kind(s, kind, count, values, &mut at, &stop, &mut out)
                }
            }
            if !ok {
                return None;
            }
        }
        if let Some(extra) = values.get(at) {
            self.error(
                extra.span,
                ErrorKind::TooManyArguments {
                    keyword: s.keyword.text.clone(),
                },
            );
            return None;
        }
        Some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn match_kind(
        &mut self,
        s: &Statement,
        kind: Kind,
        count: Count,
        values: &[Value],
        at: &mut usize,
        stop: &[&str],
        out: &mut Vec<Arg>,
    ) -> bool {
        let mut matched = 0;
        while let Some(v) = values.get(*at) {
            if v.as_name().is_some_and(|n| stop.contains(&n.text.as_str())) || !fits(kind, v) {
                break;
            }
            match self.resolve(kind, v) {
                Some(arg) => out.push(arg),
                None => return false,
            }
            *at += 1;
            matched += 1;
            if matches!(count, Count::One | Count::Optional) {
                break;
            }
        }
        if matched == 0 && matches!(count, Count::One | Count::Many) {
            let expected = describe_kind(kind);
            match values.get(*at) {
                Some(v) => self.error(
                    v.span,
                    ErrorKind::WrongArgument {
                        expected,
                        found: v.describe(),
                    },
                ),
                None => self.error(
                    s.arguments_span().to(s.keyword.span),
                    ErrorKind::MissingArgument {
                        keyword: s.keyword.text.clone(),
                        expected,
                    },
                ),
            }
            return false;
        }
        true
    }

    /// Resolves one value of a kind: names to indices, strings checked as Betza or FEN.
    fn resolve(&mut self, kind: Kind, v: &Value) -> Option<Arg> {
        if let ValueKind::Path(p) = &v.kind {
            if p.len() == 2 && p[0].text == "option" {
                return self.resolve_option_path(v);
            }
        }
        let name = v.as_name().map(|n| n.text.as_str()).unwrap_or("");
        let arg = match kind {
            Kind::NewName | Kind::Ident => Arg::Word(name.to_string()),
            Kind::Word(_) => Arg::Word(name.to_string()),
            Kind::Piece => self.lookup_piece(v)?,
            Kind::PieceOr(words) if words.contains(&name) => Arg::Word(name.to_string()),
            Kind::PieceOr(_) => self.lookup_piece(v)?,
            Kind::PieceList => match &v.kind {
                ValueKind::List(items) => {
                    let mut list = Vec::new();
                    for item in items {
                        list.push(self.lookup_piece(item)?);
                    }
                    Arg::List(list)
                }
                _ => self.lookup_piece(v)?,
            },
            Kind::Board => Arg::Board(self.lookup(v, "board")?),
            Kind::Zone => {
                let zone = self.lookup(v, "zone")?;
                self.used_zones[zone] = true;
                Arg::Zone(zone)
            }
            Kind::Player => {
                let player = self.lookup(v, "player")?;
                Arg::Player(player)
            }
            Kind::SideOr(words) if words.contains(&name) => Arg::Word(name.to_string()),
            Kind::SideOr(_) => Arg::Player(self.lookup(v, "player")?),
            Kind::Reserve => Arg::Reserve(self.lookup(v, "reserve")?),
            Kind::Place => match (self.boards.get(name), self.reserves.get(name)) {
                (Some(b), _) => Arg::Board(b),
                (None, Some(r)) => Arg::Reserve(r),
                (None, None) => {
                    let suggestion = super::suggest(
                        name,
                        self.boards
                            .order
                            .iter()
                            .chain(&self.reserves.order)
                            .map(String::as_str),
                    );
                    self.error(
                        v.span,
                        ErrorKind::UnknownName {
                            kind: "board or reserve",
                            name: name.to_string(),
                            suggestion,
                        },
                    );
                    return None;
                }
            },
            Kind::OptionName => {
                let index = self.lookup(v, "option")?;
                Arg::Word(self.options.order[index].clone())
            }
            Kind::Cell => Arg::Cell(self.lookup_cell(v)?),
            Kind::Int => Arg::Int(self.int_value(v, i64::MIN, i64::MAX)?),
            Kind::IntIn(min, max) => Arg::Int(self.int_value(v, min, max)?),
            Kind::Str | Kind::Fen => Arg::Str(v.as_str().unwrap_or_default().to_string()),
            Kind::Letter => Arg::Str(
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| name.to_string()),
            ),
            Kind::Cells => match (self.zones.get(name), self.cells.get(name)) {
                (Some(z), _) => {
                    self.used_zones[z] = true;
                    Arg::Zone(z)
                }
                (None, Some(&c)) => Arg::Cell(c),
                (None, None) => {
                    let suggestion = super::suggest(
                        name,
                        self.zones
                            .order
                            .iter()
                            .map(String::as_str)
                            .chain(self.cell_list.iter().map(|c| c.name.as_str())),
                    );
                    self.error(
                        v.span,
                        ErrorKind::UnknownName {
                            kind: "zone or cell",
                            name: name.to_string(),
                            suggestion,
                        },
                    );
                    return None;
                }
            },
            Kind::Term => self.term(v)?,
            Kind::Betza => {
                self.parse_betza_value(v)?;
                Arg::Str(v.as_str().unwrap_or_default().to_string())
            }
            Kind::Size => match &v.kind {
                ValueKind::Size(d) => Arg::List(d.iter().map(|&n| Arg::Int(n as i64)).collect()),
                _ => return None,
            },
            Kind::Vector => Arg::Vector(self.vector_value(v)?),
            Kind::Range | Kind::LabelOrRange | Kind::Label | Kind::Any => self.literal(v),
        };
        Some(arg)
    }

    fn resolve_option_path(&mut self, v: &Value) -> Option<Arg> {
        let ValueKind::Path(p) = &v.kind else {
            return None;
        };
        if self.options.get(&p[1].text).is_none() {
            let suggestion = self.options.suggest(&p[1].text);
            self.error(
                p[1].span,
                ErrorKind::UnknownName {
                    kind: "option",
                    name: p[1].text.clone(),
                    suggestion,
                },
            );
            return None;
        }
        self.options.get(&p[1].text).map(Arg::Option)
    }

    fn int_value(&mut self, v: &Value, min: i64, max: i64) -> Option<i64> {
        match v.as_int() {
            Some(n) if (min..=max).contains(&n) => Some(n),
            _ => {
                self.error(v.span, ErrorKind::NumberOutOfRange { min, max });
                None
            }
        }
    }

    /// Reads a vector or a compass word, checking its dimension against the game's.
    pub(super) fn vector_value(&mut self, v: &Value) -> Option<[i32; 3]> {
        let mut out = [0; 3];
        match &v.kind {
            ValueKind::Vector(c) => {
                if c.len() == 3 && self.dimensions == 2 {
                    self.error(
                        v.span,
                        ErrorKind::VectorDimension {
                            found: 3,
                            expected: 2,
                        },
                    );
                    return None;
                }
                if c.len() == 2 && self.dimensions == 3 {
                    self.error(
                        v.span,
                        ErrorKind::VectorDimension {
                            found: 2,
                            expected: 3,
                        },
                    );
                    return None;
                }
                for (i, x) in c.iter().take(3).enumerate() {
                    out[i] = *x;
                }
            }
            ValueKind::Path(p) if p.len() == 1 => {
                let (x, y) = match p[0].text.as_str() {
                    "north" => (0, 1),
                    "south" => (0, -1),
                    "east" => (1, 0),
                    "west" => (-1, 0),
                    "northeast" => (1, 1),
                    "northwest" => (-1, 1),
                    "southeast" => (1, -1),
                    "southwest" => (-1, -1),
                    _ => {
                        self.error(
                            v.span,
                            ErrorKind::WrongArgument {
                                expected: "a vector or a compass direction".into(),
                                found: "a name",
                            },
                        );
                        return None;
                    }
                };
                out = [x, y, 0];
            }
            _ => return None,
        }
        if out == [0, 0, 0] {
            self.error(v.span, ErrorKind::ZeroVector);
            return None;
        }
        Some(out)
    }

    /// Converts a value to a model argument without resolving names against a kind (names that are
    /// declared things are resolved; other names stay words).
    pub(super) fn literal(&mut self, v: &Value) -> Arg {
        match &v.kind {
            ValueKind::Size(d) => Arg::List(d.iter().map(|&n| Arg::Int(n as i64)).collect()),
            ValueKind::Vector(c) => {
                let mut out = [0; 3];
                for (i, x) in c.iter().take(3).enumerate() {
                    out[i] = *x;
                }
                Arg::Vector(out)
            }
            ValueKind::Range(lo, hi) => {
                Arg::Range(Box::new(self.literal(lo)), Box::new(self.literal(hi)))
            }
            ValueKind::List(items) => Arg::List(items.iter().map(|i| self.literal(i)).collect()),
            ValueKind::Str { text, .. } => Arg::Str(text.clone()),
            ValueKind::Int(n) => Arg::Int(i64::try_from(*n).unwrap_or(i64::MAX)),
            ValueKind::Path(p) => {
                let text = p
                    .iter()
                    .map(|n| n.text.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                if p.len() == 1 {
                    if let Some(i) = self.pieces.get(&text) {
                        self.used_pieces[i] = true;
                        return Arg::Piece(i);
                    }
                    if let Some(i) = self.zones.get(&text) {
                        self.used_zones[i] = true;
                        return Arg::Zone(i);
                    }
                }
                Arg::Word(text)
            }
        }
    }

    /// A term: every name in it must be known (declared, a participant word, or a cell).
    fn term(&mut self, v: &Value) -> Option<Arg> {
        match &v.kind {
            ValueKind::Path(p) => {
                self.check_term_name(p);
                Some(self.literal(v))
            }
            ValueKind::List(items) => {
                let mut out = Vec::new();
                for item in items {
                    out.push(self.term(item)?);
                }
                Some(Arg::List(out))
            }
            _ => Some(self.literal(v)),
        }
    }

    pub(super) fn lookup(&mut self, v: &Value, kind: &'static str) -> Option<usize> {
        let Some(name) = v.as_name() else {
            self.error(
                v.span,
                ErrorKind::WrongArgument {
                    expected: format!("a {kind} name"),
                    found: v.describe(),
                },
            );
            return None;
        };
        let names = match kind {
            "board" => &self.boards,
            "zone" => &self.zones,
            "player" => &self.players,
            "reserve" => &self.reserves,
            "option" => &self.options,
            "typemap" => &self.maps,
            _ => &self.pieces,
        };
        match names.get(&name.text) {
            Some(i) => Some(i),
            None => {
                let suggestion = names.suggest(&name.text);
                self.error(
                    name.span,
                    ErrorKind::UnknownName {
                        kind,
                        name: name.text.clone(),
                        suggestion,
                    },
                );
                None
            }
        }
    }

    fn lookup_piece(&mut self, v: &Value) -> Option<Arg> {
        let index = self.lookup(v, "piece")?;
        self.used_pieces[index] = true;
        Some(Arg::Piece(index))
    }

    pub(super) fn lookup_cell(&mut self, v: &Value) -> Option<usize> {
        let name = v.as_name()?;
        match self.cells.get(&name.text) {
            Some(&id) => Some(id),
            None => {
                let suggestion =
                    super::suggest(&name.text, self.cell_list.iter().map(|c| c.name.as_str()));
                self.error(
                    name.span,
                    ErrorKind::UnknownCell {
                        name: name.text.clone(),
                        suggestion,
                        off_board: None,
                    },
                );
                None
            }
        }
    }

    /// How many entries the engines' move tables may need for a Betza string (see
    /// [`crate::limits::MAX_MOVE_TABLE_ENTRIES`]): for every part, every player and every cell, each
    /// direction of each leg holds the cells a step or a slide reaches, at most the board's longest
    /// side. The universal leaper and castling have no tables.
    fn move_table_estimate(&self, betza: &crate::betza::Betza) -> usize {
        let longest_side = self
            .board_models
            .iter()
            .flat_map(|b| b.size)
            .max()
            .unwrap_or(1) as usize;
        let per_cell: usize = betza
            .parts
            .iter()
            .map(|part| {
                let mut directions: Vec<[i32; 3]> = Vec::new();
                for &base in &part.vectors {
                    for v in vdl_runtime::geometry::symmetric_variants(base, self.dimensions) {
                        if !directions.contains(&v) {
                            directions.push(v);
                        }
                    }
                }
                let reach = match part.range {
                    1 => 1,
                    0 => longest_side.saturating_sub(1).max(1),
                    range => (range as usize).min(longest_side.saturating_sub(1).max(1)),
                };
                part.legs.len() * directions.len() * reach
            })
            .sum();
        per_cell
            .saturating_mul(self.cell_list.len())
            .saturating_mul(self.player_count.max(1))
    }

    /// How many paths a Betza part may take from one cell (see [`crate::limits::MAX_MOVE_PATHS`]):
    /// the product over its legs of the directions and the cells a step or a slide reaches. A leg after
    /// `y` or `g` slides even when the part leaps, so a part with those letters counts every leg as a
    /// slide.
    fn move_paths(&self, part: &crate::betza::Part) -> u64 {
        let longest_side = self
            .board_models
            .iter()
            .flat_map(|b| b.size)
            .max()
            .unwrap_or(1) as u64;
        let slide = longest_side.saturating_sub(1).max(1);
        let mut directions: Vec<[i32; 3]> = Vec::new();
        for &base in &part.vectors {
            for v in vdl_runtime::geometry::symmetric_variants(base, self.dimensions) {
                if !directions.contains(&v) {
                    directions.push(v);
                }
            }
        }
        let toggles = part
            .legs
            .iter()
            .any(|l| l.modes.contains('y') || l.modes.contains('g'));
        let reach = match part.range {
            1 if toggles => slide,
            1 => 1,
            0 => slide,
            range => (range as u64).min(slide),
        };
        let per_leg = (directions.len() as u64).max(1).saturating_mul(reach);
        // A later leg takes at most as many directions as its letters select after any step (a turn
        // letter `z` or `q` one side only, once the move has turned).
        let later = |leg: &crate::betza::Leg| -> u64 {
            use vdl_runtime::geometry::{continuation_candidates, continuation_selects_after};
            let most = part
                .vectors
                .iter()
                .map(|&base| {
                    let (candidates, straight) = continuation_candidates(base, self.dimensions);
                    candidates
                        .iter()
                        .flat_map(|&step| [-1i8, 0, 1].map(|side| (step, side)))
                        .map(|(step, side)| {
                            candidates
                                .iter()
                                .filter(|&&c| {
                                    continuation_selects_after(
                                        &leg.directions,
                                        step,
                                        c,
                                        straight,
                                        side,
                                    )
                                })
                                .count() as u64
                        })
                        .max()
                        .unwrap_or(0)
                })
                .sum::<u64>();
            most.min(directions.len() as u64)
                .max(1)
                .saturating_mul(reach)
        };
        part.legs.iter().enumerate().fold(1u64, |paths, (i, leg)| {
            paths.saturating_mul(if i == 0 { per_leg } else { later(leg) })
        })
    }

    /// Parses a Betza string argument, reporting errors inside the string.
    pub(super) fn parse_betza_value(&mut self, v: &Value) -> Option<crate::betza::Betza> {
        let ValueKind::Str { text, raw } = &v.kind else {
            return None;
        };
        let base = raw.then_some(v.span.start as usize + 1);
        match crate::betza::parse_betza(text, base, v.span, &self.atoms) {
            Ok(betza) => {
                let before = self.betza_legs;
                self.betza_legs += betza.parts.iter().map(|p| p.legs.len()).sum::<usize>();
                if self.betza_legs > crate::limits::MAX_BETZA_LEGS {
                    if before <= crate::limits::MAX_BETZA_LEGS {
                        self.error(v.span, ErrorKind::TooManyBetzaLegs);
                    }
                    return None;
                }
                if let Some((part, paths)) = betza
                    .parts
                    .iter()
                    .filter(|p| p.legs.len() > 1)
                    .map(|p| (p, self.move_paths(p)))
                    .find(|(_, paths)| *paths > crate::limits::MAX_MOVE_PATHS)
                {
                    let text = base
                        .and_then(|b| {
                            let start = (part.span.start as usize).checked_sub(b)?;
                            let end = (part.span.end as usize).checked_sub(b)?;
                            text.get(start..end)
                        })
                        .unwrap_or(text)
                        .to_string();
                    self.error(part.span, ErrorKind::TooManyMovePaths { part: text, paths });
                    return None;
                }
                let before = self.move_table_entries;
                self.move_table_entries = before.saturating_add(self.move_table_estimate(&betza));
                if self.move_table_entries > crate::limits::MAX_MOVE_TABLE_ENTRIES {
                    if before <= crate::limits::MAX_MOVE_TABLE_ENTRIES {
                        self.error(
                            v.span,
                            ErrorKind::MoveTablesTooLarge {
                                entries: self.move_table_entries,
                            },
                        );
                    }
                    return None;
                }
                if self.dimensions == 2 {
                    self.check_betza_directions(&betza);
                } else if let Some(part) = betza.parts.iter().find(|p| {
                    p.path != crate::betza::RiderPath::Straight
                        || p.legs.iter().any(|l| l.directions.contains(['z', 'q']))
                }) {
                    // A turn's side (left or right) is defined in a plane only.
                    let letter = if part.path == crate::betza::RiderPath::Circular
                        || part.legs.iter().any(|l| l.directions.contains('q'))
                    {
                        'q'
                    } else {
                        'z'
                    };
                    self.error(
                        part.span,
                        ErrorKind::BetzaTurnMisplaced {
                            letter,
                            reason: "turns to a side are defined on two-dimensional boards only",
                        },
                    );
                    return None;
                }
                if betza.is_3d() && self.dimensions == 2 {
                    let atom = betza
                        .parts
                        .iter()
                        .find(|p| p.vectors.iter().any(|x| x[2] != 0))
                        .map(|p| p.atom)
                        .unwrap_or('?');
                    self.error(
                        v.span,
                        ErrorKind::BetzaAtomDimension {
                            atom,
                            board_dims: 2,
                        },
                    );
                    return None;
                }
                Some(betza)
            }
            Err(errors) => {
                self.problems.extend(errors);
                None
            }
        }
    }
}

impl Checker {
    /// Flags first-leg direction letters that select no move of their atom (E1009), and repeated letters
    /// on orthogonal atoms, where order and repetition mean nothing (W1001).
    fn check_betza_directions(&mut self, betza: &crate::betza::Betza) {
        use vdl_runtime::geometry::{first_leg_selects, symmetric_variants, Frame};
        let frame = Frame {
            forward: vec![[0, 1, 0]],
        };
        for part in &betza.parts {
            let directions = &part.legs[0].directions;
            if directions.is_empty() || part.vectors.is_empty() {
                continue;
            }
            let selects = part.vectors.iter().any(|base| {
                symmetric_variants(*base, 2)
                    .into_iter()
                    .any(|v| first_leg_selects(directions, v, &frame))
            });
            if !selects {
                self.error(part.span, ErrorKind::BetzaNoDirection { atom: part.atom });
                continue;
            }
            let orthogonal = part.vectors.iter().all(|v| v[1] == 0 && v[2] == 0);
            let mut seen = String::new();
            for c in directions.chars() {
                if orthogonal && seen.contains(c) {
                    self.error(
                        part.span,
                        ErrorKind::BetzaRedundant {
                            text: directions.clone(),
                        },
                    );
                    break;
                }
                seen.push(c);
            }
        }
    }
}

/// Words that end a repeated argument: the literal keywords of the specifications that follow.
fn stop_words(rest: &[ArgSpec]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for arg in rest {
        match *arg {
            ArgSpec::Keyword(w) | ArgSpec::OptKeyword(w, ..) => out.push(w),
            ArgSpec::Value(Kind::Word(words), _) => out.extend_from_slice(words),
            _ => {}
        }
    }
    out
}

/// Tells whether a value has the right shape for a kind (names are resolved later).
fn fits(kind: Kind, v: &Value) -> bool {
    let is_name = v.as_name().is_some();
    let is_option = matches!(&v.kind, ValueKind::Path(p) if p.len() == 2 && p[0].text == "option");
    match kind {
        Kind::NewName
        | Kind::Piece
        | Kind::PieceOr(_)
        | Kind::Board
        | Kind::Zone
        | Kind::Player
        | Kind::SideOr(_)
        | Kind::Reserve
        | Kind::Place
        | Kind::OptionName
        | Kind::Cell
        | Kind::Ident => is_name,
        Kind::PieceList => is_name || matches!(v.kind, ValueKind::List(_)),
        Kind::Letter => is_name || matches!(v.kind, ValueKind::Str { .. }),
        Kind::Cells => is_name,
        Kind::Term => true,
        Kind::Word(words) => v
            .as_name()
            .is_some_and(|n| words.contains(&n.text.as_str())),
        Kind::Int | Kind::IntIn(..) => matches!(v.kind, ValueKind::Int(_)) || is_option,
        Kind::Str | Kind::Betza | Kind::Fen => matches!(v.kind, ValueKind::Str { .. }) || is_option,
        Kind::Size => matches!(v.kind, ValueKind::Size(_)),
        Kind::Vector => matches!(v.kind, ValueKind::Vector(_)) || is_name,
        Kind::Range => matches!(v.kind, ValueKind::Range(..)),
        Kind::Label => is_name || matches!(v.kind, ValueKind::Int(_)),
        Kind::LabelOrRange => is_name || matches!(v.kind, ValueKind::Int(_) | ValueKind::Range(..)),
        Kind::Any => true,
    }
}

/// Describes what a kind expects, for messages.
fn describe_kind(kind: Kind) -> String {
    match kind {
        Kind::NewName => "a new name".into(),
        Kind::Piece | Kind::PieceList => "a piece".into(),
        Kind::PieceOr(words) => format!(
            "a piece or {}",
            words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Kind::Board => "a board".into(),
        Kind::Zone => "a zone".into(),
        Kind::Player => "a player".into(),
        Kind::SideOr(_) => "a player".into(),
        Kind::Reserve => "a reserve".into(),
        Kind::Place => "a board or a reserve".into(),
        Kind::OptionName => "an option".into(),
        Kind::Cell => "a cell".into(),
        Kind::Int | Kind::IntIn(..) => "an integer".into(),
        Kind::Str => "a string".into(),
        Kind::Betza => "a Betza string".into(),
        Kind::Fen => "a FEN string".into(),
        Kind::Size => "a size like `8x8`".into(),
        Kind::Vector => "a vector".into(),
        Kind::Range => "a range like `1..8`".into(),
        Kind::Label => "a label".into(),
        Kind::LabelOrRange => "labels or a range".into(),
        Kind::Word(words) => format!(
            "one of {}",
            words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Kind::Ident => "a name".into(),
        Kind::Letter => "a letter".into(),
        Kind::Cells => "cells or a zone".into(),
        Kind::Term => "a value".into(),
        Kind::Any => "a value".into(),
    }
}

/// What a rule's `on` lines provide to its conditions: what every listed event provides.
fn rule_scope(statements: &[Statement]) -> RuleScope {
    let mut scope: Option<RuleScope> = None;
    for s in statements.iter().filter(|s| s.keyword.text == "on") {
        let event = s
            .arguments
            .first()
            .and_then(Value::as_name)
            .map(|n| n.text.as_str())
            .unwrap_or("");
        let provides = match event {
            "capture" => RuleScope {
                mover: true,
                captured: true,
                checkmate: false,
            },
            "checkmate" => RuleScope {
                mover: false,
                captured: false,
                checkmate: true,
            },
            _ => RuleScope {
                mover: true,
                captured: false,
                checkmate: false,
            },
        };
        scope = Some(match scope {
            None => provides,
            Some(s) => RuleScope {
                mover: s.mover && provides.mover,
                captured: s.captured && provides.captured,
                checkmate: s.checkmate && provides.checkmate,
            },
        });
    }
    scope.unwrap_or_default()
}

impl Checker {
    /// A name in an effect's arguments must be known: a declared name, a cell or a target word.
    fn check_term_name(&mut self, path: &[crate::ast::Name]) {
        let root = &path[0];
        let text = root.text.as_str();
        if path.len() > 1 {
            self.error(
                path[1].span,
                ErrorKind::UnknownProperty {
                    property: path[1].text.clone(),
                    of: text.to_string(),
                },
            );
            return;
        }
        let known = crate::schema::TARGET_WORDS.contains(&text)
            || self.pieces.get(text).is_some()
            || self.players.get(text).is_some()
            || self.zones.get(text).is_some()
            || self.boards.get(text).is_some()
            || self.reserves.get(text).is_some()
            || self.maps.get(text).is_some()
            || self.cells.contains_key(text);
        if !known {
            let candidates: Vec<String> = crate::schema::TARGET_WORDS
                .iter()
                .map(|s| s.to_string())
                .chain(self.pieces.order.iter().cloned())
                .chain(self.players.order.iter().cloned())
                .chain(self.zones.order.iter().cloned())
                .chain(self.boards.order.iter().cloned())
                .chain(self.reserves.order.iter().cloned())
                .chain(self.maps.order.iter().cloned())
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
