//! The semantic-coverage cases under `tests/coverage/`: reading their `// expect` and `// covers:`
//! lines and checking them on an engine (tests/coverage.rs on the interpreter, tests/agreement.rs on
//! the compiled engines).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::Path;

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root};

/// One `// expect` line.
#[derive(Clone, Debug)]
pub struct Expectation {
    pub line: usize,
    pub options: Vec<String>,
    pub from: Option<String>,
    pub after: Vec<String>,
    pub check: Check,
}

#[derive(Clone, Debug)]
pub enum Check {
    Perft(usize, u64),
    Moves(BTreeSet<String>),
    Result(Option<(Option<String>, String)>),
    Claim(Option<(Option<String>, String)>),
    Position(String),
    Rejects(String),
    Summary(String),
    /// Each player's points for the finished game (`None`: the game scores no games).
    Scores(Option<Vec<f64>>),
    /// Each player's first and last place for the finished game (`None`: no ranking).
    Ranking(Option<Vec<(usize, usize)>>),
    /// The move a search to this depth chooses.
    Best(u32, String),
    /// Each player's points in a match (`vdl match`) made of the finished game alone.
    Series(Vec<f64>),
}

/// The search of an engine: the move it chooses in a position, searching to a depth (`None`: no
/// legal move).
pub type Search<'a, V> = &'a dyn Fn(&V, &<V as Variant>::Position, u32) -> Option<String>;

/// A covered line: its index, the entries, and whether they state a default.
#[derive(Clone, Debug)]
pub struct Covered {
    pub line: usize,
    pub entries: Vec<String>,
    pub default: bool,
}

pub struct Case {
    pub name: String,
    pub source: String,
    pub expectations: Vec<Expectation>,
    pub covered: Vec<Covered>,
}

pub fn cases() -> Vec<Case> {
    vdl_files(&workspace_root().join("tests/coverage"))
        .iter()
        .map(|p| read_case(p))
        .collect()
}

pub fn read_case(path: &Path) -> Case {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    read_case_text(&name, &read_text(path))
}

/// A case from its name and text.
pub fn read_case_text(name: &str, source: &str) -> Case {
    let (name, source) = (name.to_string(), source.to_string());
    let mut expectations = Vec::new();
    let mut covered = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("// expect ") {
            expectations.push(
                parse_expectation(index + 1, rest)
                    .unwrap_or_else(|e| panic!("{name}:{}: {e}", index + 1)),
            );
        } else if let Some(at) = line.find("// covers:") {
            let text = &line[at + "// covers:".len()..];
            let default = text.contains("(default)");
            let entries = text
                .replace("(default)", "")
                .split(',')
                .map(|e| e.trim().to_string())
                .filter(|e| !e.is_empty())
                .collect();
            covered.push(Covered {
                line: index,
                entries,
                default,
            });
        }
    }
    Case {
        name,
        source,
        expectations,
        covered,
    }
}

pub fn parse_expectation(line: usize, text: &str) -> Result<Expectation, String> {
    let starts_prefix = ["with ", "from ", "after "]
        .iter()
        .any(|p| text.trim_start().starts_with(p));
    let (prefix, check) = if starts_prefix {
        // The first `:` outside the quoted position (a hand in the position text has colons).
        let mut quoted = false;
        let at = text
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == ':' && !quoted
            })
            .map(|(at, _)| at)
            .ok_or("no `:` between the position and the check")?;
        (&text[..at], &text[at + 1..])
    } else {
        ("", text)
    };
    let mut options = Vec::new();
    let mut from = None;
    let mut after = Vec::new();
    let mut rest = prefix.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("with ") {
            let (value, tail) = r.split_once(' ').unwrap_or((r, ""));
            options.push(value.to_string());
            rest = tail.trim();
        } else if let Some(r) = rest.strip_prefix("from \"") {
            let (position, tail) = r.split_once('"').ok_or("unterminated position")?;
            from = Some(position.to_string());
            rest = tail.trim();
        } else if let Some(r) = rest.strip_prefix("after ") {
            after = r.split_whitespace().map(String::from).collect();
            rest = "";
        } else {
            return Err(format!("cannot read `{rest}`"));
        }
    }
    let words: Vec<&str> = check.split_whitespace().collect();
    let outcome = |words: &[&str]| -> Result<Option<(Option<String>, String)>, String> {
        match words {
            ["none"] => Ok(None),
            ["draw", reason @ ..] => Ok(Some((None, reason.join(" ")))),
            ["win", player, reason @ ..] => Ok(Some((Some(player.to_string()), reason.join(" ")))),
            _ => Err(format!("cannot read the result `{}`", words.join(" "))),
        }
    };
    let check = match words.as_slice() {
        ["perft", depth, nodes] => Check::Perft(
            depth.parse().map_err(|_| "bad depth")?,
            nodes.parse().map_err(|_| "bad node count")?,
        ),
        ["moves", "-"] => Check::Moves(BTreeSet::new()),
        ["moves", moves @ ..] => Check::Moves(moves.iter().map(|m| m.to_string()).collect()),
        ["result", rest @ ..] => Check::Result(outcome(rest)?),
        ["claim", rest @ ..] => Check::Claim(outcome(rest)?),
        ["position", ..] => Check::Position(
            check
                .trim()
                .trim_start_matches("position")
                .trim()
                .to_string(),
        ),
        ["rejects", mv] => Check::Rejects(mv.to_string()),
        ["scores", "none"] => Check::Scores(None),
        ["scores", points @ ..] => Check::Scores(Some(
            points
                .iter()
                .map(|p| p.parse().map_err(|_| format!("bad score `{p}`")))
                .collect::<Result<_, _>>()?,
        )),
        ["ranking", "none"] => Check::Ranking(None),
        ["ranking", places @ ..] => Check::Ranking(Some(
            places
                .iter()
                .map(|p| {
                    let (first, last) = p.split_once('-').unwrap_or((p, p));
                    match (first.parse(), last.parse()) {
                        (Ok(first), Ok(last)) => Ok((first, last)),
                        _ => Err(format!("bad place `{p}`")),
                    }
                })
                .collect::<Result<_, _>>()?,
        )),
        ["best", depth, mv] => Check::Best(depth.parse().map_err(|_| "bad depth")?, mv.to_string()),
        ["series", points @ ..] if !points.is_empty() => Check::Series(
            points
                .iter()
                .map(|p| p.parse().map_err(|_| format!("bad score `{p}`")))
                .collect::<Result<_, _>>()?,
        ),
        ["summary", ..] => Check::Summary(
            check
                .trim()
                .trim_start_matches("summary")
                .trim()
                .to_string(),
        ),
        _ => return Err(format!("unknown check `{}`", check.trim())),
    };
    Ok(Expectation {
        line,
        options,
        from,
        after,
        check,
    })
}

pub fn interpreter_of(source: &str) -> Result<Interpreter, String> {
    let checked = vdl_dsl::check::check_source(source);
    let game = checked.game.ok_or_else(|| {
        let codes: Vec<&str> = checked.problems.iter().map(|p| p.code()).collect();
        format!("rejected ({})", codes.join(", "))
    })?;
    Interpreter::new(game)
}

pub fn perft<V: Variant>(v: &V, position: &mut V::Position, depth: usize) -> u64 {
    let mut moves = Vec::new();
    v.legal_moves(position, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves {
        let undo = v.make(position, mv);
        nodes += perft(v, position, depth - 1);
        v.unmake(position, mv, undo);
    }
    nodes
}

pub fn player_name(game: &vdl_runtime::model::Game, winner: Option<usize>) -> Option<String> {
    winner.map(|w| {
        game.players
            .get(w)
            .map_or(w.to_string(), |p| p.name.clone())
    })
}

/// Checks one expectation on an engine; `Err` says what differed.
pub fn check<V: Variant>(
    v: &mut V,
    game: &vdl_runtime::model::Game,
    claim: &dyn Fn(&V::Position) -> Option<vdl_runtime::GameResult>,
    search: Search<'_, V>,
    e: &Expectation,
) -> Result<(), String> {
    v.set_options(&e.options)?;
    let mut position = match &e.from {
        Some(text) => v.parse_position(text).map_err(|e| e.message)?,
        None => v.start(),
    };
    for mv in &e.after {
        let parsed = v.parse_move(&mut position, mv).map_err(|e| e.message)?;
        v.make(&mut position, parsed);
    }
    let result =
        |r: Option<vdl_runtime::GameResult>| r.map(|r| (player_name(game, r.winner), r.reason));
    match &e.check {
        Check::Perft(depth, nodes) => {
            let got = perft(v, &mut position, *depth);
            (got == *nodes)
                .then_some(())
                .ok_or(format!("perft {depth}: expected {nodes}, got {got}"))
        }
        Check::Moves(expected) => {
            let mut moves = Vec::new();
            v.legal_moves(&mut position, &mut moves);
            let got: BTreeSet<String> = moves.iter().map(|m| v.write_move(&position, *m)).collect();
            if got.len() != moves.len() {
                return Err(format!(
                    "{} moves listed, {} distinct",
                    moves.len(),
                    got.len()
                ));
            }
            (got == *expected)
                .then_some(())
                .ok_or(format!("moves: expected {expected:?}, got {got:?}"))
        }
        Check::Result(expected) => {
            let got = result(v.outcome(&mut position));
            (got == *expected)
                .then_some(())
                .ok_or(format!("result: expected {expected:?}, got {got:?}"))
        }
        Check::Claim(expected) => {
            let got = result(claim(&position));
            (got == *expected)
                .then_some(())
                .ok_or(format!("claim: expected {expected:?}, got {got:?}"))
        }
        Check::Position(expected) => {
            let got = v.write_position(&position);
            (got == *expected)
                .then_some(())
                .ok_or(format!("position: expected `{expected}`, got `{got}`"))
        }
        Check::Rejects(mv) => match v.parse_move(&mut position, mv) {
            Err(_) => Ok(()),
            Ok(_) => Err(format!("`{mv}` is legal")),
        },
        Check::Scores(expected) => {
            let result = v.outcome(&mut position).ok_or("the game has not ended")?;
            let got = v.scores(&position, &result);
            (got == *expected)
                .then_some(())
                .ok_or(format!("scores: expected {expected:?}, got {got:?}"))
        }
        Check::Ranking(expected) => {
            let result = v.outcome(&mut position).ok_or("the game has not ended")?;
            let got = v.ranking(&position, &result);
            (got == *expected)
                .then_some(())
                .ok_or(format!("ranking: expected {expected:?}, got {got:?}"))
        }
        Check::Best(depth, expected) => {
            let got = search(v, &position, *depth).ok_or("no legal move")?;
            (got == *expected).then_some(()).ok_or(format!(
                "best move at depth {depth}: expected {expected}, got {got}"
            ))
        }
        Check::Series(expected) => {
            let result = v.outcome(&mut position).ok_or("the game has not ended")?;
            let players = game.players.iter().filter(|p| !p.neutral).count();
            let record = vdl::referee::GameRecord {
                seats: (0..players).collect(),
                winner: result.winner,
                reason: result.reason.clone(),
                fault: None,
                moves: Vec::new(),
                points: v.scores(&position, &result),
            };
            let got = vdl::referee::scores(&[record], players, game);
            (got == *expected)
                .then_some(())
                .ok_or(format!("match points: expected {expected:?}, got {got:?}"))
        }
        Check::Summary(text) => {
            let summary = game.summary();
            summary
                .contains(text.as_str())
                .then_some(())
                .ok_or(format!("summary `{summary}` lacks `{text}`"))
        }
    }
}

/// Runs every expectation of a case on an interpreter-backed engine; returns the failures.
pub fn run_on_interpreter(case: &Case, engine: &Interpreter) -> Vec<String> {
    let game = engine.game.clone();
    case.expectations
        .iter()
        .filter_map(|e| {
            let mut engine = engine.clone();
            let claims = engine.clone();
            check(&mut engine, &game, &|p| claims.claimable(p), &best_move, e)
                .err()
                .map(|m| format!("line {}: {m}", e.line))
        })
        .collect()
}

/// The move the runtime's search chooses on an interpreter-backed engine, to `depth` plies.
pub fn best_move(
    engine: &Interpreter,
    position: &<Interpreter as Variant>::Position,
    depth: u32,
) -> Option<String> {
    let evaluator = vdl_runtime::search::MaterialEvaluator::new(&engine.game);
    let limits = vdl_runtime::search::Limits::depth(depth);
    vdl_runtime::search::search(engine, &evaluator, position, &limits)
        .best
        .map(|m| engine.write_move(position, m))
}

/// The source with a covered line's construct taken out.
pub fn mutate(source: &str, covered: &Covered) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let line = lines[covered.line];
    let code = line.split("//").next().unwrap_or("");
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    if covered.entries.iter().all(|e| e.ends_with(".when")) {
        let cut = [" when ", " unless "]
            .iter()
            .filter_map(|k| code.find(k))
            .min()
            .expect("a `.when` entry on a line with a condition");
        let end = code[cut..].find('{').map_or(code.len(), |b| cut + b);
        out[covered.line] = format!("{}{}", &code[..cut], &code[end..]);
        return out.join("\n");
    }
    if covered
        .entries
        .iter()
        .all(|e| END_WORDS.contains(&e.as_str()))
    {
        out[covered.line] = without_end_words(code, &covered.entries);
        return out.join("\n");
    }
    let opens = code.matches('{').count();
    let closes = code.matches('}').count();
    if opens > closes {
        // A block statement: remove it up to its closing brace.
        let mut depth = 0i32;
        for (i, l) in lines.iter().enumerate().skip(covered.line) {
            let c = l.split("//").next().unwrap_or("");
            depth += c.matches('{').count() as i32 - c.matches('}').count() as i32;
            out[i] = String::new();
            if depth <= 0 {
                break;
            }
        }
    } else {
        out[covered.line] = String::new();
    }
    out.join("\n")
}

/// The words of an end line that modify its result: a case covering only these removes just the
/// words (`at turn_start` and `at move` together), so that it shows what the word itself changes.
const END_WORDS: &[&str] = &[
    "end.*.at",
    "end.*.turn_start",
    "end.*.move",
    "end.*.claim",
    "end.*.mover",
    "end.*.victim",
    "end.*.player",
];

/// An end line without the modifier words `entries` name (the player for `end.*.player`: the word
/// after the result).
fn without_end_words(code: &str, entries: &[String]) -> String {
    let cut = [" when ", " unless ", "{"]
        .iter()
        .filter_map(|k| code.find(k))
        .min()
        .unwrap_or(code.len());
    let (head, tail) = code.split_at(cut);
    let indent = &head[..head.len() - head.trim_start().len()];
    let words: Vec<&str> = head.split_whitespace().collect();
    let named = |w: &str| entries.iter().any(|e| e == &format!("end.*.{w}"));
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let after_result = i > 0 && ["win", "loss", "draw", "points"].contains(&words[i - 1]);
        let subject_word = [
            "victim",
            "mover",
            "claim",
            "at",
            "after_reply",
            "unless_bared_back",
        ];
        if w == "at" && (named("at") || named(words.get(i + 1).copied().unwrap_or(""))) {
            i += 2;
            continue;
        }
        if (w == "claim" || w == "victim" || w == "mover") && named(w) {
            i += 1;
            continue;
        }
        if after_result && !subject_word.contains(&w) && named("player") {
            i += 1;
            continue;
        }
        kept.push(w);
        i += 1;
    }
    format!("{indent}{} {}", kept.join(" "), tail.trim_start())
}
