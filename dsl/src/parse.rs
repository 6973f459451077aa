//! Text to AST: runs the pest grammar and builds [`ast::File`], reporting syntax errors with exact spans.

use pest::iterators::Pair;
use pest::Parser;

use crate::ast::{self, ArithOp, CompareOp, Expr, ExprKind, Name, Statement, Value, ValueKind};
use crate::error::{Error, ErrorKind};
use crate::limits::{MAX_EXPR_DEPTH, MAX_NESTING, MAX_SOURCE_BYTES};
use crate::span::Span;

#[derive(pest_derive::Parser)]
#[grammar = "grammar.pest"]
struct Grammar;

/// Parses a rule file into its AST.
///
/// # Errors
///
/// Returns the syntax errors found: unbalanced brackets and unterminated strings are all reported; other
/// syntax errors stop at the first one.
pub fn parse_file(source: &str) -> Result<ast::File, Vec<Error>> {
    if source.len() > MAX_SOURCE_BYTES {
        let mut at = MAX_SOURCE_BYTES;
        while !source.is_char_boundary(at) {
            at -= 1;
        }
        let end = source[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8());
        return Err(vec![Error::new(
            Span::new(at, end),
            ErrorKind::FileTooLarge {
                bytes: source.len(),
            },
        )]);
    }
    let lexical = check_brackets_and_strings(source);
    if !lexical.is_empty() {
        return Err(lexical);
    }
    let joined = join_bracketed_lines(source);
    let source = joined.as_str();
    let mut pairs =
        Grammar::parse(Rule::file, source).map_err(|e| vec![syntax_error(source, e)])?;
    let file = pairs.next().expect("the grammar always yields a file pair");
    let mut errors = Vec::new();
    let statements = file
        .into_inner()
        .filter(|p| p.as_rule() == Rule::statement)
        .map(|p| parse_statement(p, &mut errors))
        .collect();
    if errors.is_empty() {
        Ok(ast::File { statements })
    } else {
        Err(errors)
    }
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn parse_name(pair: Pair<Rule>) -> Name {
    Name {
        text: pair.as_str().to_string(),
        span: span_of(&pair),
    }
}

fn parse_statement(pair: Pair<Rule>, errors: &mut Vec<Error>) -> Statement {
    let span = span_of(&pair);
    let mut inner = pair.into_inner().peekable();
    let first = inner
        .next()
        .expect("a statement has a keyword or a condition");
    if first.as_rule() == Rule::condition {
        let condition = parse_condition(first, errors);
        let word = if condition.negated { "unless" } else { "when" };
        let keyword = Name {
            text: word.to_string(),
            span: Span::new(span.start as usize, span.start as usize + word.len()),
        };
        return Statement {
            keyword,
            arguments: Vec::new(),
            condition: Some(condition),
            block: None,
            span,
        };
    }
    let keyword = parse_name(first);
    let mut arguments = Vec::new();
    let mut condition = None;
    let mut block = None;
    for part in inner {
        match part.as_rule() {
            Rule::condition => condition = Some(parse_condition(part, errors)),
            Rule::block => {
                let block_span = span_of(&part);
                let statements = part
                    .into_inner()
                    .filter(|p| p.as_rule() == Rule::statement)
                    .map(|p| parse_statement(p, errors))
                    .collect();
                block = Some(ast::Block {
                    statements,
                    span: block_span,
                });
            }
            _ => arguments.push(parse_value(part, errors)),
        }
    }
    Statement {
        keyword,
        arguments,
        condition,
        block,
        span,
    }
}

fn parse_condition(pair: Pair<Rule>, errors: &mut Vec<Error>) -> ast::Condition {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let word = inner
        .next()
        .expect("a condition starts with when or unless");
    let mut builder = ExprBuilder {
        errors,
        too_deep: false,
    };
    let (expr, _) = builder.build(inner.next().expect("a condition has an expression"));
    ast::Condition {
        negated: word.as_str() == "unless",
        expr,
        span,
    }
}

fn parse_value(pair: Pair<Rule>, errors: &mut Vec<Error>) -> Value {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::size => {
            let mut dims = Vec::new();
            for part in pair.as_str().split('x') {
                match part.parse::<u32>() {
                    Ok(n) => dims.push(n),
                    Err(_) => {
                        errors.push(Error::new(span, ErrorKind::NumberTooLarge));
                        dims.push(0);
                    }
                }
            }
            ValueKind::Size(dims)
        }
        Rule::vector => {
            let comps = pair
                .into_inner()
                .map(|p| {
                    let s = span_of(&p);
                    match p.as_str().parse::<i32>() {
                        Ok(n) => n,
                        Err(_) => {
                            errors.push(Error::new(s, ErrorKind::NumberTooLarge));
                            0
                        }
                    }
                })
                .collect::<Vec<_>>();
            if comps.len() > 3 {
                errors.push(Error::new(
                    span,
                    ErrorKind::VectorArity { found: comps.len() },
                ));
            }
            ValueKind::Vector(comps)
        }
        Rule::range => {
            let mut inner = pair.into_inner();
            let lo = parse_value(inner.next().expect("range start"), errors);
            let hi = parse_value(inner.next().expect("range end"), errors);
            ValueKind::Range(Box::new(lo), Box::new(hi))
        }
        Rule::list => ValueKind::List(pair.into_inner().map(|p| parse_value(p, errors)).collect()),
        Rule::string => {
            let raw_text = pair.into_inner().next().map(|p| p.as_str()).unwrap_or("");
            let raw = !raw_text.contains('\\');
            ValueKind::Str {
                text: unescape(raw_text),
                raw,
            }
        }
        Rule::integer => match pair.as_str().parse::<i128>() {
            Ok(n) if n.abs() <= u64::MAX as i128 => ValueKind::Int(n),
            _ => {
                errors.push(Error::new(span, ErrorKind::NumberTooLarge));
                ValueKind::Int(0)
            }
        },
        Rule::path | Rule::name => {
            if pair.as_rule() == Rule::name {
                ValueKind::Path(vec![parse_name(pair)])
            } else {
                ValueKind::Path(pair.into_inner().map(parse_name).collect())
            }
        }
        other => unreachable!("not a value rule: {other:?}"),
    };
    Value { kind, span }
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Builds condition expressions, keeping them at most [`MAX_EXPR_DEPTH`] levels deep: the first node
/// that would go deeper is reported (E0011) and left out, so that no later stage sees a deeper tree.
struct ExprBuilder<'e> {
    errors: &'e mut Vec<Error>,
    /// Set once the condition has been reported too deep, so it is reported once.
    too_deep: bool,
}

impl ExprBuilder<'_> {
    /// Returns the expression and its depth (a literal or path is 0 levels deep).
    fn build(&mut self, pair: Pair<Rule>) -> (Expr, usize) {
        let span = span_of(&pair);
        match pair.as_rule() {
            Rule::expr | Rule::disjunct => {
                let is_or = pair.as_rule() == Rule::expr;
                let mut operator = None;
                let mut parts = Vec::new();
                let mut depth = 0;
                for p in pair.into_inner() {
                    if matches!(p.as_rule(), Rule::or_op | Rule::and_op) {
                        operator.get_or_insert(span_of(&p));
                        continue;
                    }
                    let (part, d) = self.build(p);
                    depth = depth.max(d);
                    parts.push(part);
                }
                if parts.len() == 1 {
                    return (parts.pop().expect("one part"), depth);
                }
                let kind = if is_or {
                    ExprKind::Or(parts)
                } else {
                    ExprKind::And(parts)
                };
                self.nest(Expr { kind, span }, depth, operator.unwrap_or(span))
            }
            Rule::conjunct => {
                let mut nots = Vec::new();
                let mut operand = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::not_op => nots.push(span_of(&p)),
                        _ => operand = Some(self.build(p)),
                    }
                }
                let (mut expr, mut depth) = operand.expect("a conjunct has an operand");
                // The innermost `not` applies first.
                for at in nots.into_iter().rev() {
                    if self.too_deep {
                        break;
                    }
                    let not = Expr {
                        kind: ExprKind::Not(Box::new(expr)),
                        span,
                    };
                    (expr, depth) = self.nest(not, depth, at);
                }
                (expr, depth)
            }
            Rule::comparison => {
                let mut inner = pair.into_inner();
                let (left, left_depth) = self.build(inner.next().expect("left operand"));
                match (inner.next(), inner.next()) {
                    (Some(op), Some(right)) => {
                        let at = span_of(&op);
                        let op = match op.as_str() {
                            "==" => CompareOp::Eq,
                            "!=" => CompareOp::Ne,
                            "<" => CompareOp::Lt,
                            "<=" => CompareOp::Le,
                            ">" => CompareOp::Gt,
                            ">=" => CompareOp::Ge,
                            _ => CompareOp::In,
                        };
                        let (right, right_depth) = self.build(right);
                        let compare = Expr {
                            kind: ExprKind::Compare(op, Box::new(left), Box::new(right)),
                            span,
                        };
                        self.nest(compare, left_depth.max(right_depth), at)
                    }
                    _ => (left, left_depth),
                }
            }
            Rule::sum => {
                let mut inner = pair.into_inner();
                let (mut left, mut depth) = self.build(inner.next().expect("first term"));
                while let (Some(op), Some(right)) = (inner.next(), inner.next()) {
                    if self.too_deep {
                        break;
                    }
                    let at = span_of(&op);
                    let op = if op.as_str() == "+" {
                        ArithOp::Add
                    } else {
                        ArithOp::Sub
                    };
                    let (right, right_depth) = self.build(right);
                    let s = left.span.to(right.span);
                    let arith = Expr {
                        kind: ExprKind::Arith(op, Box::new(left), Box::new(right)),
                        span: s,
                    };
                    (left, depth) = self.nest(arith, depth.max(right_depth), at);
                }
                (left, depth)
            }
            Rule::term => {
                let inner = pair.into_inner().next().expect("a term has content");
                self.build(inner)
            }
            Rule::call => {
                let mut inner = pair.into_inner();
                let name = parse_name(inner.next().expect("a call has a name"));
                let at = name.span;
                let mut depth = 0;
                let mut args = Vec::new();
                for p in inner {
                    let (arg, d) = self.build(p);
                    depth = depth.max(d);
                    args.push(arg);
                }
                let call = Expr {
                    kind: ExprKind::Call(name, args),
                    span,
                };
                self.nest(call, depth, at)
            }
            _ => (
                Expr {
                    kind: ExprKind::Value(parse_value(pair, self.errors)),
                    span,
                },
                0,
            ),
        }
    }

    /// Returns `node`, one level above children at most `depth` deep, or, when that is deeper than the
    /// limit, reports the operator at `at` (once) and returns a placeholder without children.
    fn nest(&mut self, node: Expr, depth: usize, at: Span) -> (Expr, usize) {
        if depth < MAX_EXPR_DEPTH {
            return (node, depth + 1);
        }
        if !self.too_deep {
            self.too_deep = true;
            self.errors
                .push(Error::new(at, ErrorKind::ExpressionTooDeep));
        }
        let placeholder = Expr {
            kind: ExprKind::Value(Value {
                kind: ValueKind::Int(0),
                span: node.span,
            }),
            span: node.span,
        };
        (placeholder, 0)
    }
}

/// Blanks line breaks and comments inside `( )` and `[ ]` with spaces, so that a condition or list may
/// span several lines. Byte offsets are unchanged, so spans still point into the original text.
fn join_bracketed_lines(source: &str) -> String {
    let mut bytes = source.as_bytes().to_vec();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let start = i;
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                if depth > 0 {
                    // Only ASCII bytes are replaced, so the text stays valid UTF-8: a multi-byte
                    // character in a comment becomes as many spaces as it has bytes.
                    for b in &mut bytes[start..i] {
                        *b = b' ';
                    }
                }
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'\n' if depth > 0 => bytes[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    String::from_utf8(bytes).unwrap_or_else(|_| source.to_string())
}

/// Finds unterminated strings and unbalanced brackets before the grammar runs, so that each gets its own
/// precise error instead of pest's "expected ..." at a later point. Brackets nested deeper than
/// [`MAX_NESTING`] stop the scan: the grammar, the AST builder and the checker recurse on brackets, and
/// this bounds how deep.
fn check_brackets_and_strings(source: &str) -> Vec<Error> {
    let bytes = source.as_bytes();
    let mut errors = Vec::new();
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' && i + 1 < bytes.len() && bytes[i + 1] != b'\n' {
                        2
                    } else {
                        1
                    };
                }
                if i >= bytes.len() || bytes[i] != b'"' {
                    errors.push(Error::new(
                        Span::new(start, start + 1),
                        ErrorKind::UnterminatedString,
                    ));
                    continue;
                }
            }
            open @ (b'{' | b'(' | b'[') => {
                if stack.len() == MAX_NESTING {
                    // Deeper input would only make every later stage recurse deeper: stop here.
                    errors.push(Error::new(
                        Span::new(i, i + 1),
                        ErrorKind::NestingTooDeep { open: open as char },
                    ));
                    return errors;
                }
                stack.push((open, i));
            }
            close @ (b'}' | b')' | b']') => {
                let want = match close {
                    b'}' => b'{',
                    b')' => b'(',
                    _ => b'[',
                };
                match stack.last() {
                    Some(&(open, _)) if open == want => {
                        stack.pop();
                    }
                    Some(&(open, at)) => {
                        errors.push(Error::new(
                            Span::new(i, i + 1),
                            ErrorKind::MismatchedBracket {
                                open: open as char,
                                close: close as char,
                                open_span: Span::new(at, at + 1),
                            },
                        ));
                        stack.pop();
                    }
                    None => errors.push(Error::new(
                        Span::new(i, i + 1),
                        ErrorKind::UnmatchedClose {
                            close: close as char,
                        },
                    )),
                }
            }
            _ => {}
        }
        i += 1;
    }
    for (open, at) in stack {
        errors.push(Error::new(
            Span::new(at, at + 1),
            ErrorKind::UnclosedBracket { open: open as char },
        ));
    }
    errors
}

/// Turns pest's error into a syntax error at the byte where parsing failed.
fn syntax_error(source: &str, error: pest::error::Error<Rule>) -> Error {
    let at = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let end = source[at..]
        .chars()
        .next()
        .filter(|c| *c != '\n')
        .map(|c| at + c.len_utf8())
        .unwrap_or(at);
    let found = source[at..].chars().next();
    let expected = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&'static str> =
                positives.iter().filter_map(|r| rule_phrase(*r)).collect();
            words.sort_unstable();
            words.dedup();
            words
        }
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let kind = match found {
        None => ErrorKind::UnexpectedEnd { expected },
        Some(c) if !c.is_ascii() => ErrorKind::InvalidCharacter { found: c },
        Some(c) => ErrorKind::UnexpectedToken { found: c, expected },
    };
    Error::new(Span::new(at, end), kind)
}

/// Human phrases for grammar rules, used in "expected ..." messages.
fn rule_phrase(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::statement | Rule::keyword => "a statement",
        Rule::expr
        | Rule::disjunct
        | Rule::conjunct
        | Rule::comparison
        | Rule::sum
        | Rule::term => "an expression",
        Rule::value
        | Rule::size
        | Rule::vector
        | Rule::range
        | Rule::list
        | Rule::string
        | Rule::integer
        | Rule::path
        | Rule::name => "a value",
        Rule::block => "a block",
        Rule::condition | Rule::cond_word => "`when`",
        Rule::sep => "a line break or `;`",
        Rule::EOI => "the end of the file",
        Rule::cmp_op => "a comparison",
        Rule::or_op | Rule::and_op => "`and` or `or`",
        Rule::add_op => "`+` or `-`",
        _ => return None,
    })
}
