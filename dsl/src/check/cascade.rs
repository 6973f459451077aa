//! Follow-on errors. One mistake can break a declaration (a misspelt `piece` or `letter`, a bad
//! argument, a board whose cells could not be made), and every later use of what it declares then fails
//! too: each letter of the setup FEN, each reference to the piece, zone or player, each cell of the
//! board. Those errors say nothing the first one does not, so once the mistake itself is reported they
//! are dropped: one mistake gives one error.
//!
//! The rules are applied to the finished list of problems, from facts about the file: which
//! declarations are broken (misspelt, or with an error inside them and missing from the model), and
//! which statements were misspelt (an E2001 with a suggestion says which keyword was meant).

use std::collections::{HashMap, HashSet};

use vdl_runtime::model::Game;

use super::Checker;
use crate::ast::{Statement, Value, ValueKind};
use crate::error::{Error, ErrorKind};
use crate::schema::{specs, Context};
use crate::span::Span;

/// What is broken in a file.
#[derive(Debug, Default)]
struct Broken {
    /// Names whose declaration is broken, with the kind it meant to declare (`None`: a statement of no
    /// known keyword declared it, so it may be of any kind). A declaration whose name is lost (`piece 5`)
    /// is `None` here: any unknown name of its kind may have been it.
    names: Vec<(Option<&'static str>, Option<String>)>,
    /// A board could not be built (or its statement is misspelt): any cell name may have been one of
    /// its cells, and a FEN may have been meant for it.
    boards: bool,
    /// A broken board statement was three-dimensional: the game's dimension is not known.
    dimensions: bool,
    /// A player or neutral side could not be declared.
    players: bool,
    /// The game has too few players (E2036), so unknown players may be the missing ones.
    too_few_players: bool,
    /// The boards have more cells than vdl supports (E2016): a move-table estimate over those cells
    /// says nothing more.
    too_many_cells: bool,
    /// Letters of custom Betza atoms whose `atom` statement is broken (`None`: its letter is lost).
    atoms: Vec<Option<char>>,
    /// Zones whose declaration has an error, and the zones made of them.
    zones: Vec<String>,
    /// Spans of board statements whose size or shape is broken.
    board_spans: Vec<Span>,
    /// The letters of pieces whose letter was lost with a broken statement: `Some` when it can be read
    /// from the broken statement, `None` when it cannot (then any FEN letter may have been it).
    letters: Vec<Option<String>>,
    /// A piece meant to be `royal` is broken.
    royal: bool,
    /// Misspelt statements: the keyword meant and the span of the misspelt keyword.
    misspelt: Vec<(String, Span)>,
}

/// `Broken` indexed for the questions `follows` asks of every problem, so that dropping follow-ons
/// stays linear in the number of problems and statements.
#[derive(Debug, Default)]
struct Lookup {
    /// The kinds of broken declarations whose name is lost (`None`: of any kind).
    nameless: Vec<Option<&'static str>>,
    /// The kinds of the broken declarations of each name.
    named: HashMap<String, Vec<Option<&'static str>>>,
    /// The keywords misspelt statements meant.
    meant: HashSet<String>,
    /// Where misspelt statements meaning a moving keyword (`moves` ...) are, sorted.
    misspelt_moving: Vec<Span>,
    /// The broken board statements, sorted.
    board_spans: Vec<Span>,
    /// A broken letter could not be read: any FEN letter may have been it.
    any_letter: bool,
    /// The broken letters that could be read, in upper case.
    letters: HashSet<String>,
    zones: HashSet<String>,
    /// The first `piece` statement of each name.
    pieces: HashMap<String, Span>,
}

/// The statements a misspelt keyword may have been meant as that give a piece its moves.
const MOVING: [&str; 4] = ["moves", "moves_only_on", "stacks", "merge"];

impl Lookup {
    fn new(broken: &Broken, statements: &[Statement]) -> Lookup {
        let mut lookup = Lookup::default();
        for (kind, name) in &broken.names {
            match name {
                None => lookup.nameless.push(*kind),
                Some(name) => lookup.named.entry(name.clone()).or_default().push(*kind),
            }
        }
        lookup.nameless.sort_unstable();
        lookup.nameless.dedup();
        for kinds in lookup.named.values_mut() {
            kinds.sort_unstable();
            kinds.dedup();
        }
        for (keyword, span) in &broken.misspelt {
            lookup.meant.insert(keyword.clone());
            if MOVING.contains(&keyword.as_str()) {
                lookup.misspelt_moving.push(*span);
            }
        }
        lookup.misspelt_moving.sort_unstable();
        lookup.board_spans = broken.board_spans.clone();
        lookup.board_spans.sort_unstable();
        for letter in &broken.letters {
            match letter {
                None => lookup.any_letter = true,
                Some(l) => {
                    lookup.letters.insert(l.to_ascii_uppercase());
                }
            }
        }
        lookup.zones = broken.zones.iter().cloned().collect();
        for s in statements.iter().filter(|s| s.keyword.text == "piece") {
            if let Some(name) = s.arguments.first().and_then(Value::as_name) {
                lookup.pieces.entry(name.text.clone()).or_insert(s.span);
            }
        }
        lookup
    }

    /// Whether a broken declaration of `name` may have been of `kind` (`any`, or kinds joined by
    /// ` or `).
    fn broken_name(&self, kind: &str, name: &str) -> bool {
        let matches = |k: &Option<&str>| {
            k.is_none_or(|k| kind == "any" || kind.split(" or ").any(|w| w == k))
        };
        self.nameless.iter().any(matches)
            || self
                .named
                .get(name)
                .is_some_and(|kinds| kinds.iter().any(matches))
    }

    /// Whether a span in `sorted` lies within `outer`.
    fn any_within(sorted: &[Span], outer: Span) -> bool {
        let first = sorted.partition_point(|s| s.start < outer.start);
        sorted[first..]
            .iter()
            .take_while(|s| s.start <= outer.end)
            .any(|s| within(*s, outer))
    }

    /// Whether `inner` lies within a span of `sorted` (spans that do not overlap, as statements).
    fn within_any(sorted: &[Span], inner: Span) -> bool {
        let after = sorted.partition_point(|s| s.start <= inner.start);
        sorted[..after]
            .iter()
            .rev()
            .take(1)
            .any(|s| within(inner, *s))
    }
}

/// The spans of a file's errors (not warnings), sorted, to ask which statements have one.
struct ErrorSpans(Vec<Span>);

impl ErrorSpans {
    fn new(problems: &[Error]) -> ErrorSpans {
        let mut spans: Vec<Span> = problems
            .iter()
            .filter(|p| !p.is_warning())
            .map(|p| p.span)
            .collect();
        spans.sort_unstable();
        ErrorSpans(spans)
    }

    fn has_error_in(&self, span: Span) -> bool {
        Lookup::any_within(&self.0, span)
    }
}

impl Checker {
    /// Drops the problems that follow from another reported mistake.
    pub(super) fn drop_follow_ons(&self, statements: &[Statement], game: &Game) -> Vec<Error> {
        let errors = ErrorSpans::new(&self.problems);
        let broken = self.broken(statements, game, &errors);
        let lookup = Lookup::new(&broken, statements);
        let problems = &self.problems;
        let mut kept: Vec<Error> = Vec::new();
        let mut dropped = 0;
        // One error per unknown FEN letter (either case): its first use.
        let mut letters: Vec<(String, Span)> = problems
            .iter()
            .filter_map(|p| match &p.kind {
                ErrorKind::FenUnknownLetter { letter } => {
                    Some((letter.trim_start_matches('+').to_ascii_uppercase(), p.span))
                }
                _ => None,
            })
            .collect();
        letters.sort_by_key(|(_, span)| *span);
        let mut first_use: HashMap<String, Span> = HashMap::new();
        for (letter, span) in letters {
            first_use.entry(letter).or_insert(span);
        }
        let repeated = |problem: &Error| match &problem.kind {
            ErrorKind::FenUnknownLetter { letter } => {
                let letter = letter.trim_start_matches('+').to_ascii_uppercase();
                first_use
                    .get(&letter)
                    .is_some_and(|first| *first != problem.span)
            }
            _ => false,
        };
        for problem in problems {
            if !problem.is_warning()
                && (repeated(problem) || self.follows(problem, &broken, &lookup))
            {
                dropped += 1;
            } else {
                kept.push(problem.clone());
            }
        }
        // A follow-on is dropped only because its cause is reported; never leave a file without errors.
        if dropped > 0 && !kept.iter().any(|p| !p.is_warning()) {
            kept = problems.clone();
        }
        merge_repeats(self.locate_cells(kept))
    }

    /// Says where an unknown cell would be (its board, the board's bounds, the labels it lacks), and
    /// reads an unknown zone-or-cell or value in a condition that a board's names split into labels,
    /// one of them the board's, as an unknown cell.
    fn locate_cells(&self, mut problems: Vec<Error>) -> Vec<Error> {
        for problem in &mut problems {
            // A name that may be something else than a cell, and is close to a known name that is not
            // a cell, is more likely that name misspelt.
            let other =
                |s: &Option<String>| s.as_ref().is_some_and(|s| !self.cells.contains_key(s));
            let (name, strict) = match &problem.kind {
                ErrorKind::UnknownCell { name, .. } => (name.clone(), false),
                ErrorKind::UnknownName {
                    kind,
                    name,
                    suggestion,
                } if kind.contains("cell") && !other(suggestion) => (name.clone(), true),
                ErrorKind::UnknownPath { path, suggestion } if !other(suggestion) => {
                    (path.clone(), true)
                }
                _ => continue,
            };
            if let Some(off_board) = self.off_board(&name, strict) {
                problem.kind = ErrorKind::UnknownCell {
                    name,
                    suggestion: None,
                    off_board: Some(off_board),
                };
            }
        }
        problems
    }

    /// Tells whether a problem only repeats a mistake that `broken` records.
    fn follows(&self, problem: &Error, broken: &Broken, lookup: &Lookup) -> bool {
        use ErrorKind::*;
        let meant = |keyword: &str| lookup.meant.contains(keyword);
        let broken_name = |kind: &str, name: &str| lookup.broken_name(kind, name);
        match &problem.kind {
            UnknownName { kind, name, .. } => {
                broken_name(kind, name)
                    || (broken.boards && kind.contains("cell"))
                    || ((broken.players || broken.too_few_players) && *kind == "player")
            }
            UnknownPath { path, .. } => broken_name("any", path) || broken.too_few_players,
            UnknownCell { .. } => broken.boards,
            NotADestination { name } => {
                broken_name("board or zone or reserve", name) || broken.boards
            }
            // The cells a board with a broken shape statement names are not the ones it meant.
            DuplicateCell { .. } => broken.boards,
            BetzaUnknownLetter { letter } => broken
                .atoms
                .iter()
                .any(|a| a.map_or(letter.is_ascii_uppercase(), |a| a == *letter)),
            // Labels counted against a size that was lost.
            LabelCount { .. } => Lookup::within_any(&lookup.board_spans, problem.span),
            BetzaAtomDimension { .. } | VectorDimension { .. } | BetzaNoDirection { .. } => {
                broken.dimensions
            }
            FenUnknownLetter { letter } => {
                let letter = letter.trim_start_matches('+');
                broken.boards
                    || lookup.any_letter
                    || lookup.letters.contains(&letter.to_ascii_uppercase())
            }
            InvalidFen { .. } | FenRankWidth { .. } => broken.boards,
            EmptyZone { name } => broken.boards || lookup.zones.contains(name),
            LabelNotOnBoard { .. } => broken.boards,
            MissingStatement { keyword, .. } => meant(keyword),
            NoSetup => meant("setup"),
            NoEnd => meant("end"),
            TooFewPlayers { .. } => broken.players,
            MoveTablesTooLarge { .. } => broken.too_many_cells,
            NoRoyal { .. } => broken.royal,
            PieceWithoutMoves { name } => lookup
                .pieces
                .get(name)
                .is_some_and(|piece| Lookup::any_within(&lookup.misspelt_moving, *piece)),
            _ => false,
        }
    }

    /// Collects what is broken in the file.
    fn broken(&self, statements: &[Statement], game: &Game, errors: &ErrorSpans) -> Broken {
        let mut broken = Broken::default();
        let boards: HashSet<&str> = game.boards.iter().map(|b| b.name.as_str()).collect();
        let mut pieces: HashMap<&str, &vdl_runtime::model::Piece> = HashMap::new();
        for p in &game.pieces {
            pieces.entry(p.name.as_str()).or_insert(p);
        }
        let suggested: HashMap<Span, &String> = self
            .problems
            .iter()
            .filter_map(|p| match &p.kind {
                ErrorKind::UnknownStatement {
                    suggestion: Some(meant),
                    ..
                } => Some((p.span, meant)),
                _ => None,
            })
            .collect();
        for problem in &self.problems {
            if let ErrorKind::UnknownStatement {
                suggestion: Some(meant),
                ..
            } = &problem.kind
            {
                broken.misspelt.push((meant.clone(), problem.span));
            }
        }
        // Too few players, or no board at all: the missing ones are what unknown names may be.
        for problem in &self.problems {
            match &problem.kind {
                ErrorKind::TooFewPlayers { .. } => broken.too_few_players = true,
                ErrorKind::BoardTooLarge { .. } => broken.too_many_cells = true,
                ErrorKind::MissingStatement {
                    keyword: "board", ..
                } => {
                    broken.boards = true;
                    broken.dimensions = true;
                    broken.names.push((Some("board"), None));
                }
                _ => {}
            }
        }
        for s in statements {
            let spelt = specs(Context::Top)
                .iter()
                .any(|spec| spec.keyword == s.keyword.text);
            let keyword = if spelt {
                Some(s.keyword.text.clone())
            } else {
                suggested.get(&s.keyword.span).map(|m| m.to_string())
            };
            if !errors.has_error_in(s.span) {
                continue;
            }
            let name = s.arguments.first().and_then(|v| {
                v.as_name()
                    .map(|n| n.text.clone())
                    .or_else(|| v.as_str().map(str::to_string))
            });
            if keyword.as_deref() == Some("atom") {
                let mut chars = name.iter().flat_map(|n| n.chars());
                broken.atoms.push(match (chars.next(), chars.next()) {
                    (Some(letter), None) => Some(letter),
                    _ => None,
                });
                continue;
            }
            let kind = match keyword.as_deref() {
                Some("board") => Some("board"),
                Some("player" | "neutral") => Some("player"),
                Some("zone") => Some("zone"),
                Some("piece") => Some("piece"),
                Some("reserve") => Some("reserve"),
                Some("option") => Some("option"),
                Some("rule") => Some("rule"),
                Some("typemap") => Some("typemap"),
                Some(_) => continue,
                None if spelt => continue,
                None => None,
            };
            // A declaration that failed, or a statement of no known keyword with a name after it.
            let registered = spelt && s.arguments.first().and_then(Value::as_name).is_some();
            if !registered || kind.is_none() {
                broken.names.push((kind, name.clone()));
            }
            match kind {
                Some("board") => {
                    let built = spelt && name.as_deref().is_some_and(|n| boards.contains(n));
                    // A misspelt `files`, `cells`, `name` ... gives the board other cell names.
                    let shape = s.children().iter().any(|c| {
                        let meant = child_keyword(Context::Board, &c.keyword.text);
                        SHAPE.contains(&meant.as_deref().unwrap_or(""))
                            && errors.has_error_in(c.span)
                    });
                    let size = errors.has_error_in(s.arguments_span());
                    if !built || shape || size {
                        broken.boards = true;
                        broken.board_spans.push(s.span);
                        broken.dimensions |= s.children().iter().any(|c| {
                            child_keyword(Context::Board, &c.keyword.text).as_deref()
                                == Some("levels")
                        }) || s
                            .arguments
                            .iter()
                            .any(|v| matches!(&v.kind, ValueKind::Size(d) if d.len() == 3));
                    }
                }
                Some("option") => {
                    // The values it lists, which conditions compare options with.
                    for values in s.children().iter().filter(|c| {
                        child_keyword(Context::Option, &c.keyword.text).as_deref() == Some("values")
                    }) {
                        for v in &values.arguments {
                            if let Some(n) = v.as_name() {
                                broken.names.push((None, Some(n.text.clone())));
                            }
                        }
                    }
                }
                Some("player") => broken.players |= !registered,
                Some("piece") => self.broken_piece(s, spelt, name.as_deref(), &pieces, &mut broken),
                _ => {}
            }
        }
        broken.zones = broken_zones(statements, |span| errors.has_error_in(span));
        broken
    }

    /// A piece whose letter or royalty was lost with a broken statement: the piece is missing from the
    /// model, or its `letter`/`royal` statement is.
    fn broken_piece(
        &self,
        s: &Statement,
        spelt: bool,
        name: Option<&str>,
        pieces: &HashMap<&str, &vdl_runtime::model::Piece>,
        broken: &mut Broken,
    ) {
        let model = name
            .filter(|_| spelt)
            .and_then(|name| pieces.get(name).copied());
        let meant = |c: &Statement, keyword: &str| {
            child_keyword(Context::Piece, &c.keyword.text).as_deref() == Some(keyword)
        };
        if let Some(letter) = s.children().iter().find(|c| meant(c, "letter")) {
            if model.is_none_or(|p| p.letter.is_empty() || !valid_letter(&p.letter)) {
                let recovered = letter
                    .arguments
                    .first()
                    .and_then(|v| {
                        v.as_str()
                            .map(str::to_string)
                            .or_else(|| v.as_name().map(|n| n.text.clone()))
                    })
                    .filter(|l| valid_letter(l));
                broken.letters.push(recovered);
            }
        }
        if s.children().iter().any(|c| meant(c, "royal"))
            && model.is_none_or(|p| !p.royal.is_royal())
        {
            broken.royal = true;
        }
    }
}

/// The same unknown name (keyword, cell, Betza letter, function) written in several places is one
/// mistake, often in the declaration all of them refer to (`piece rok` and every `rook`): one error,
/// at the first place, with the others as its `also` places.
fn merge_repeats(mut problems: Vec<Error>) -> Vec<Error> {
    use ErrorKind::*;
    fn key(kind: &ErrorKind) -> Option<String> {
        Some(match kind {
            // An unknown piece `king` and an unknown value `king` in a condition: one word.
            UnknownName { name, .. }
            | UnknownPath { path: name, .. }
            | NotADestination { name }
            | UnknownOptionValue { value: name, .. } => format!("name {name}"),
            UnknownCell {
                off_board: Some(off),
                ..
            } if !off.missing.is_empty() => {
                // `beta1` and `beta3` when the board has no file `beta`: one mistake.
                let missing: Vec<String> = off
                    .missing
                    .iter()
                    .map(|(a, l)| format!("{a} {l}"))
                    .collect();
                format!("labels {} {}", off.board, missing.join(" "))
            }
            UnknownCell { name, .. } => format!("cell {name}"),
            UnknownStatement {
                keyword, context, ..
            } => format!("statement {context} {keyword}"),
            UnknownFunction { name, .. } => format!("function {name}"),
            BetzaUnknownLetter { letter } => format!("betza {letter}"),
            _ => return None,
        })
    }
    problems.sort_by_key(|p| p.span);
    let mut out: Vec<Error> = Vec::new();
    // The index in `out` of the first error of each key.
    let mut firsts: HashMap<String, usize> = HashMap::new();
    for problem in problems {
        let Some(k) = key(&problem.kind) else {
            out.push(problem);
            continue;
        };
        match firsts.get(&k) {
            Some(&first) if out[first].span != problem.span => out[first].also.push(problem.span),
            Some(_) => {}
            None => {
                firsts.insert(k, out.len());
                out.push(problem);
            }
        }
    }
    out
}

/// Zones with an error in their declaration, and the zones whose specifications name one of them
/// (those cannot be evaluated either).
fn broken_zones(statements: &[Statement], has_error_in: impl Fn(Span) -> bool) -> Vec<String> {
    let zones: Vec<(&str, &Statement)> = statements
        .iter()
        .filter(|s| s.keyword.text == "zone")
        .filter_map(|s| Some((s.arguments.first()?.as_name()?.text.as_str(), s)))
        .collect();
    // The zones that name each word.
    let mut naming: HashMap<String, Vec<&str>> = HashMap::new();
    for (name, s) in &zones {
        for word in names_in(s) {
            naming.entry(word).or_default().push(name);
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for (name, s) in &zones {
        if has_error_in(s.span) && seen.insert(name) {
            out.push(name.to_string());
        }
    }
    let mut next = 0;
    while next < out.len() {
        if let Some(users) = naming.get(&out[next]) {
            for user in users {
                if seen.insert(user) {
                    out.push(user.to_string());
                }
            }
        }
        next += 1;
    }
    out
}

/// Every name written in a statement's block, as arguments or keywords (`zone camp`, `except enemies
/// camp`).
fn names_in(s: &Statement) -> Vec<String> {
    let mut out = Vec::new();
    for c in s.children() {
        out.push(c.keyword.text.clone());
        out.extend(
            c.arguments
                .iter()
                .filter_map(|v| v.as_name().map(|n| n.text.clone())),
        );
        out.extend(names_in(c));
    }
    out
}

/// Board statements that decide which cells a board has and their names.
const SHAPE: &[&str] = &["cells", "files", "ranks", "levels", "name", "alias"];

/// The statement of a block a keyword means: itself, or the one it is a typo of.
fn child_keyword(context: Context, keyword: &str) -> Option<String> {
    let table = specs(context);
    if table.iter().any(|s| s.keyword == keyword) {
        return Some(keyword.to_string());
    }
    super::suggest(keyword, table.iter().map(|s| s.keyword))
}

/// A letter a FEN can write: ASCII letters only.
pub(super) fn valid_letter(letter: &str) -> bool {
    !letter.is_empty() && letter.chars().all(|c| c.is_ascii_alphabetic())
}

fn within(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}
