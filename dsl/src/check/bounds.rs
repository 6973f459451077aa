//! Board bounds: where a cell name that is on no board would be, and labels written outside a board.
//!
//! An unknown cell name is split by a board's name template into its file, rank and level; when that
//! works, the error names the board, its bounds and the labels it does not have (`i9` on a chess board:
//! no file `i`, no rank `9`), or says that the cell is a hole. Zone specifications `rank`, `file`,
//! `level` (and their ranges) and `column` must name labels the board has (E2048).

use vdl_runtime::model::Board;

use super::Checker;
use crate::ast::{Statement, Value, ValueKind};
use crate::error::{ErrorKind, OffBoard};
use crate::schema::{specs, Context};

const AXES: [&str; 3] = ["file", "rank", "level"];

/// A cell name split into labels: (axis, label, whether the board has it).
type Parts = Vec<(usize, String, bool)>;

impl Checker {
    /// Where an unknown cell name would be: the board whose name template splits it best (most labels
    /// the board has). `strict`: the name may be something else than a cell (a zone, a value in a
    /// condition), so at least one of its labels must be the board's.
    pub(super) fn off_board(&self, name: &str, strict: bool) -> Option<OffBoard> {
        self.locate(name, strict, None)
    }

    /// Where a cell name would be on one board.
    pub(super) fn off_board_of(&self, name: &str, board: &Board) -> Option<OffBoard> {
        self.locate(name, false, Some(&board.name))
    }

    fn locate(&self, name: &str, strict: bool, only: Option<&str>) -> Option<OffBoard> {
        let mut best: Option<(usize, &Board, Parts)> = None;
        for (board, template) in self.board_models.iter().zip(&self.board_templates) {
            let Some(template) = template else { continue };
            if only.is_some_and(|only| only != board.name) {
                continue;
            }
            let axes = axes_of(board);
            let Some(parts) = split(name, template, &axes) else {
                continue;
            };
            let valid = parts.iter().filter(|(_, _, ok)| *ok).count();
            if best.as_ref().is_none_or(|(v, _, _)| valid > *v) {
                best = Some((valid, board, parts));
            }
        }
        let (valid, board, parts) = best?;
        if strict && valid == 0 {
            return None;
        }
        Some(OffBoard {
            board: board.name.clone(),
            bounds: bounds(board),
            missing: parts
                .into_iter()
                .filter(|(_, _, ok)| !ok)
                .map(|(axis, label, _)| (AXES[axis], label))
                .collect(),
        })
    }

    /// Zone specifications that name ranks, files or levels (`rank 8`, `files a..c`) or columns must
    /// name ones the board has (E2048); a label outside the board would leave the zone silently short.
    pub(super) fn check_zone_labels(&mut self, statements: &[Statement]) {
        if self.board_models.is_empty() {
            return; // no board: reported on its own
        }
        for zone in statements.iter().filter(|s| s.keyword.text == "zone") {
            for spec in zone.children() {
                self.check_zone_spec(spec);
            }
        }
    }

    fn check_zone_spec(&mut self, spec: &Statement) {
        let is_spec = |word: &str| specs(Context::Zone).iter().any(|s| s.keyword == word);
        if !is_spec(&spec.keyword.text) || spec.keyword.text == "except" {
            // `white rank 8`, `except rank 8`, `except white rank 8`: the specification follows.
            let Some(first) = spec.arguments.first().and_then(Value::as_name) else {
                return;
            };
            let inner = Statement {
                keyword: first.clone(),
                arguments: spec.arguments[1..].to_vec(),
                condition: None,
                block: None,
                span: spec.span,
            };
            return self.check_zone_spec(&inner);
        }
        let axis = match spec.keyword.text.as_str() {
            "file" | "files" => 0,
            "rank" | "ranks" => 1,
            "level" | "levels" => 2,
            "column" => return self.check_columns(spec),
            _ => return,
        };
        // `on BOARD`, or the first board.
        let board = match spec.arguments.iter().position(|v| is_word(v, "on")) {
            Some(i) => spec
                .arguments
                .get(i + 1)
                .and_then(Value::as_name)
                .and_then(|n| self.board_models.iter().find(|b| b.name == n.text)),
            None => self.board_models.first(),
        };
        let Some(board) = board.cloned() else {
            return; // an unknown board is reported by the statement check
        };
        let labels = &axes_of(&board)[axis];
        let mut check = |v: &Value| {
            let Some(label) = label_text(v) else { return };
            if !labels.contains(&label) {
                self.error(
                    v.span,
                    ErrorKind::LabelNotOnBoard {
                        axis: AXES[axis],
                        label,
                        board: Some(board.name.clone()),
                        bounds: bounds(&board),
                    },
                );
            }
        };
        match spec.arguments.first().map(|v| &v.kind) {
            Some(ValueKind::Range(lo, hi)) => {
                check(lo);
                check(hi);
            }
            Some(_) => check(&spec.arguments[0]),
            None => {}
        }
    }

    /// `column NAME...`: some board's file and rank (in either order) spell each NAME.
    fn check_columns(&mut self, spec: &Statement) {
        for v in &spec.arguments {
            let Some(name) = v.as_name() else { continue };
            let spelt = self.board_models.iter().any(|board| {
                board.files.iter().any(|f| {
                    board
                        .ranks
                        .iter()
                        .any(|r| name.text == format!("{f}{r}") || name.text == format!("{r}{f}"))
                })
            });
            if spelt {
                continue;
            }
            let (board, bounds) = match self.board_models.as_slice() {
                [one] => (Some(one.name.clone()), bounds(one)),
                all => (
                    None,
                    all.iter()
                        .map(|b| format!("`{}`: {}", b.name, bounds(b)))
                        .collect::<Vec<_>>()
                        .join("; "),
                ),
            };
            self.error(
                name.span,
                ErrorKind::LabelNotOnBoard {
                    axis: "column",
                    label: name.text.clone(),
                    board,
                    bounds,
                },
            );
        }
    }
}

/// A board's bounds for messages: `files a..h, ranks 1..8` (and levels on a 3D board).
pub(super) fn bounds(board: &Board) -> String {
    // `a..h` for labels in sequence (letters or numbers), else the labels themselves when few.
    let span = |labels: &[String]| {
        let code = |l: &String| match l.parse::<i64>() {
            Ok(n) => Some(n),
            Err(_) => {
                let mut chars = l.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Some(c as i64),
                    _ => None,
                }
            }
        };
        let in_sequence = labels
            .windows(2)
            .all(|w| matches!((code(&w[0]), code(&w[1])), (Some(a), Some(b)) if b == a + 1));
        match labels {
            [] => String::new(),
            [one] => one.clone(),
            [first, .., last] if in_sequence || labels.len() > 12 => format!("{first}..{last}"),
            _ => labels.join(" "),
        }
    };
    let mut out = format!("files {}, ranks {}", span(&board.files), span(&board.ranks));
    if !board.levels.is_empty() {
        out.push_str(&format!(", levels {}", span(&board.levels)));
    }
    out
}

fn axes_of(board: &Board) -> [Vec<String>; 3] {
    [
        board.files.clone(),
        board.ranks.clone(),
        board.levels.clone(),
    ]
}

enum Token {
    Literal(String),
    Field(usize),
}

fn tokens(template: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        let field = AXES
            .iter()
            .position(|a| rest.starts_with(&format!("{{{a}}}")));
        match field {
            Some(axis) => {
                out.push(Token::Field(axis));
                rest = &rest[AXES[axis].len() + 2..];
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                match out.last_mut() {
                    Some(Token::Literal(l)) => l.push(c),
                    _ => out.push(Token::Literal(c.to_string())),
                }
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// Splits a cell name by a template into (axis, label, whether the board has it), choosing the split
/// with the most labels the board has. A part must look like a label of its axis: digits where the
/// labels are numbers, letters (as long as the labels) where they are letters.
fn split(
    name: &str,
    template: &str,
    axes: &[Vec<String>; 3],
) -> Option<Vec<(usize, String, bool)>> {
    let tokens = tokens(template);
    let mut best: Option<Parts> = None;
    let mut parts = Vec::new();
    walk(name, &tokens, axes, &mut parts, &mut best);
    best
}

fn walk(
    rest: &str,
    tokens: &[Token],
    axes: &[Vec<String>; 3],
    parts: &mut Parts,
    best: &mut Option<Parts>,
) {
    let Some((token, more)) = tokens.split_first() else {
        if rest.is_empty() {
            let valid = |p: &Parts| p.iter().filter(|x| x.2).count();
            if best.as_ref().is_none_or(|b| valid(parts) > valid(b)) {
                *best = Some(parts.clone());
            }
        }
        return;
    };
    match token {
        Token::Literal(l) => {
            if let Some(r) = rest.strip_prefix(l.as_str()) {
                walk(r, more, axes, parts, best);
            }
        }
        Token::Field(axis) => {
            let labels = &axes[*axis];
            for end in rest
                .char_indices()
                .map(|(i, c)| i + c.len_utf8())
                .collect::<Vec<_>>()
            {
                let part = &rest[..end];
                if !looks_like(part, labels) {
                    continue;
                }
                parts.push((*axis, part.to_string(), labels.iter().any(|l| l == part)));
                walk(&rest[end..], more, axes, parts, best);
                parts.pop();
            }
        }
    }
}

fn looks_like(part: &str, labels: &[String]) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let letters = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic());
    if labels.is_empty() {
        return false;
    }
    if labels.iter().all(|l| digits(l)) {
        return digits(part) && part.len() <= 4;
    }
    let (short, long) = labels.iter().fold((usize::MAX, 0), |(s, l), x| {
        (s.min(x.chars().count()), l.max(x.chars().count()))
    });
    let length = (short..=long).contains(&part.chars().count());
    if labels.iter().all(|l| letters(l)) {
        return letters(part) && length;
    }
    length
}

fn is_word(v: &Value, word: &str) -> bool {
    v.as_name().is_some_and(|n| n.text == word)
}

/// A label as written: a name or an integer.
fn label_text(v: &Value) -> Option<String> {
    match &v.kind {
        ValueKind::Int(n) => Some(n.to_string()),
        ValueKind::Path(p) if p.len() == 1 => Some(p[0].text.clone()),
        _ => None,
    }
}
