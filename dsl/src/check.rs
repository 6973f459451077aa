//! AST to model: resolves names, validates every statement against the vocabulary (`schema`) and builds
//! the [`Game`] model. All problems in a file are collected and returned sorted by position.

mod boards;
mod bounds;
mod cascade;
mod cond;
mod directive;
mod ends;
mod fen;
mod model;
mod notation;
mod pieces;
mod rules;
mod start;
mod statements;
mod zones;

use std::collections::HashMap;

use vdl_runtime::model::Game;

use crate::ast::{self, Statement};
use crate::error::{Error, ErrorKind};
use crate::parse::parse_file;
use crate::schema::Context;
use crate::span::Span;

/// The result of checking a file: the model when there are no errors, and every diagnostic (errors and
/// warnings) sorted by position.
#[derive(Debug)]
pub struct Checked {
    /// The game, present when no error was found.
    pub game: Option<Game>,
    /// Errors and warnings, sorted by position.
    pub problems: Vec<Error>,
}

impl Checked {
    /// Returns true if any problem is an error (not a warning).
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| !p.is_warning())
    }
}

/// Parses and checks a rule file.
pub fn check_source(source: &str) -> Checked {
    let file = match parse_file(source) {
        Ok(file) => file,
        Err(mut errors) => {
            errors.sort_by_key(|e| e.span);
            return Checked {
                game: None,
                problems: errors,
            };
        }
    };
    check_file(&file)
}

/// Checks a parsed rule file.
pub fn check_file(file: &ast::File) -> Checked {
    reset_suggestions();
    let mut checker = Checker::default();
    checker.collect_declarations(&file.statements);
    checker.build_boards(&file.statements);
    let directives = checker.check_block(&file.statements, Context::Top);
    checker.check_zone_labels(&file.statements);
    let game = checker.build_model(&file.statements, &directives);
    if !checker.problems.iter().any(|p| !p.is_warning()) {
        checker.check_start(&file.statements, &game);
    }
    let mut problems = checker.drop_follow_ons(&file.statements, &game);
    problems.sort_by_key(|e| (e.span, e.code()));
    problems.dedup();
    let has_errors = problems.iter().any(|p| !p.is_warning());
    Checked {
        game: if has_errors { None } else { Some(game) },
        problems,
    }
}

/// A declared name: its index among its kind and where it was declared.
#[derive(Clone, Copy, Debug)]
struct Declared {
    index: usize,
    span: Span,
}

/// The names of one kind, in declaration order.
#[derive(Debug, Default)]
struct Names {
    order: Vec<String>,
    map: HashMap<String, Declared>,
}

impl Names {
    fn declare(&mut self, name: &ast::Name, kind: &'static str, problems: &mut Vec<Error>) {
        if let Some(first) = self.map.get(&name.text) {
            problems.push(Error::new(
                name.span,
                ErrorKind::DuplicateName {
                    kind,
                    name: name.text.clone(),
                    first: first.span,
                },
            ));
            return;
        }
        self.map.insert(
            name.text.clone(),
            Declared {
                index: self.order.len(),
                span: name.span,
            },
        );
        self.order.push(name.text.clone());
    }

    fn get(&self, name: &str) -> Option<usize> {
        self.map.get(name).map(|d| d.index)
    }

    fn suggest(&self, name: &str) -> Option<String> {
        suggest(name, self.order.iter().map(String::as_str))
    }
}

/// The checker's state: declarations, cells and collected problems.
#[derive(Debug, Default)]
struct Checker {
    boards: Names,
    players: Names,
    zones: Names,
    pieces: Names,
    reserves: Names,
    options: Names,
    rules: Names,
    maps: Names,
    /// Number of real players (the first entries of `players`); neutral sides follow.
    player_count: usize,
    /// Custom Betza atoms.
    atoms: Vec<(char, [i32; 3])>,
    /// Cells by name (and alias), with the board index.
    cells: HashMap<String, usize>,
    cell_list: Vec<vdl_runtime::model::Cell>,
    board_models: Vec<vdl_runtime::model::Board>,
    /// Each board's cell-name template (`None` for a board of listed cells), aligned with
    /// `board_models`.
    board_templates: Vec<Option<String>>,
    /// Whether the game declares castling (a FEN's castling field is read only then).
    castling: bool,
    /// Whether the game has walls (`turn { wall ... }`): a FEN's `*` on a cell is then a wall.
    walls: bool,
    dimensions: usize,
    /// Names used somewhere, for unused warnings.
    used_zones: Vec<bool>,
    used_pieces: Vec<bool>,
    /// Words listed as option values.
    option_value_words: Vec<String>,
    /// Per option, its values as text (a range as `LO..HI`).
    option_values_of: Vec<Vec<String>>,
    /// While a rule block is checked: what its events provide to conditions.
    rule_scope: Option<cond::RuleScope>,
    /// FEN letters by piece index, for start-position checks.
    piece_letters: Vec<String>,
    /// Betza legs of the move strings read so far (`limits::MAX_BETZA_LEGS`).
    betza_legs: usize,
    /// Estimated move-table entries of the move strings read so far
    /// (`limits::MAX_MOVE_TABLE_ENTRIES`).
    move_table_entries: usize,
    problems: Vec<Error>,
}

impl Checker {
    fn error(&mut self, span: Span, kind: ErrorKind) {
        self.problems.push(Error::new(span, kind));
    }

    /// First pass: every declared name, so that later statements may refer to names declared below them.
    fn collect_declarations(&mut self, statements: &[Statement]) {
        let mut players = Vec::new();
        let mut neutrals = Vec::new();
        for s in statements {
            self.castling |= s.keyword.text == "castle";
            self.walls |=
                s.keyword.text == "turn" && s.children().iter().any(|c| c.keyword.text == "wall");
            let Some(name) = s.arguments.first().and_then(ast::Value::as_name) else {
                continue;
            };
            let (names, kind) = match s.keyword.text.as_str() {
                "board" => (&mut self.boards, "board"),
                "player" => {
                    players.push(name.clone());
                    continue;
                }
                "neutral" => {
                    neutrals.push(name.clone());
                    continue;
                }
                "zone" => (&mut self.zones, "zone"),
                "piece" => (&mut self.pieces, "piece"),
                "reserve" => (&mut self.reserves, "reserve"),
                "option" => {
                    let mut texts = Vec::new();
                    for values in s.children().iter().filter(|c| c.keyword.text == "values") {
                        self.option_value_words.extend(
                            values
                                .arguments
                                .iter()
                                .filter_map(|v| v.as_name().map(|n| n.text.clone())),
                        );
                        texts.extend(values.arguments.iter().map(option_value_text));
                    }
                    if self.options.get(&name.text).is_none() {
                        self.option_values_of.push(texts);
                    }
                    (&mut self.options, "option")
                }
                "rule" => (&mut self.rules, "rule"),

                "typemap" => (&mut self.maps, "typemap"),
                "atom" => {
                    if let Some(vector) = s.arguments.get(1) {
                        self.declare_atom(name, vector);
                    }
                    continue;
                }
                _ => continue,
            };
            names.declare(name, kind, &mut self.problems);
        }
        for name in players.iter().chain(&neutrals) {
            self.players.declare(name, "player", &mut self.problems);
        }
        self.player_count = players.len();
        self.used_zones = vec![false; self.zones.order.len()];
        self.used_pieces = vec![false; self.pieces.order.len()];
    }

    fn declare_atom(&mut self, name: &ast::Name, vector: &ast::Value) {
        let mut chars = name.text.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            self.error(
                name.span,
                ErrorKind::WrongArgument {
                    expected: "a single capital letter".into(),
                    found: "a name",
                },
            );
            return;
        };
        if !letter.is_ascii_uppercase()
            || crate::betza::builtin_atom(letter).is_some()
            || letter == 'L'
            || letter == 'J'
        {
            self.error(
                name.span,
                ErrorKind::WrongArgument {
                    expected: "a capital letter that is not a built-in atom".into(),
                    found: "a built-in atom",
                },
            );
            return;
        }
        if let ast::ValueKind::Vector(v) = &vector.kind {
            let mut out = [0; 3];
            for (i, c) in v.iter().take(3).enumerate() {
                out[i] = *c;
            }
            if out == [0, 0, 0] {
                self.error(vector.span, ErrorKind::ZeroVector);
            }
            self.atoms.push((letter, out));
        }
    }
}

/// An option value as text: a name, an integer, a string, or a range `LO..HI`.
pub(crate) fn option_value_text(v: &ast::Value) -> String {
    match &v.kind {
        ast::ValueKind::Path(p) => p
            .iter()
            .map(|n| n.text.as_str())
            .collect::<Vec<_>>()
            .join("."),
        ast::ValueKind::Int(n) => n.to_string(),
        ast::ValueKind::Str { text, .. } => text.clone(),
        ast::ValueKind::Range(lo, hi) => {
            format!("{}..{}", option_value_text(lo), option_value_text(hi))
        }
        _ => String::new(),
    }
}

/// Names longer than this get no suggestion: comparing two names costs the product of their lengths.
const SUGGEST_MAX_LEN: usize = 64;

/// The work (characters compared) all suggestions for one file may take. A file with many unknown
/// names among many declared ones would otherwise cost their product; past the budget, unknown names
/// are reported without a suggestion.
const SUGGEST_BUDGET: usize = 20_000_000;

thread_local! {
    /// What is left of [`SUGGEST_BUDGET`] for the file being checked.
    static SUGGEST_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(SUGGEST_BUDGET) };
}

/// Gives the next file checked on this thread the whole suggestion budget.
fn reset_suggestions() {
    SUGGEST_LEFT.with(|left| left.set(SUGGEST_BUDGET));
}

/// Returns the candidate closest to `name` when it is close enough to be a likely typo.
pub(crate) fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (name.len() / 3).max(1);
    let length = name.chars().count();
    if length > SUGGEST_MAX_LEN {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // The distance is at least the difference in length.
        let other = c.chars().count();
        if other.abs_diff(length) > limit || other > SUGGEST_MAX_LEN {
            continue;
        }
        let cost = (length + 1) * (other + 1);
        let affordable = SUGGEST_LEFT.with(|left| {
            let l = left.get();
            left.set(l.saturating_sub(cost));
            l >= cost
        });
        if !affordable {
            return None;
        }
        let d = distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Edit distance counting an insertion, a deletion, a substitution or a swap of two neighbouring
/// characters as one edit (`peice` is one edit from `piece`).
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: distance between the first i characters of a and the first j of b.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j - 1] + cost)
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests;
