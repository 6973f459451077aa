//! Property-based fuzzing (proptest) of everything vdl reads from people: rule files, positions and
//! move text, and sessions of the XBoard, UCI and line protocols. The properties:
//!
//! - nothing panics;
//! - nothing hangs: each input is handled on a worker thread within [`HANG`];
//! - every problem with a rule file is a diagnostic with a code (`E` or `W` and four digits) and a span
//!   inside the file, rendered with its `file:line:column`; every refused position or move is a one-line
//!   message; every accepted position writes a text that reads back to the same position; every move
//!   that reads is legal, and making and unmaking it restores the position.
//!
//! The inputs start from a corpus: the examples, the diagnostics inputs, and the hostile rule files of
//! the robustness issue (deep nesting, long sums, many zones, huge boards, long Betza legs), scaled
//! down to stay fast in a debug build. Mutations delete, insert, repeat and duplicate text, so a
//! failing case shrinks to a short list of edits.
//!
//! `VDL_FUZZ_CASES=N` sets the number of cases of each property (default [`CASES`], a few seconds in all);
//! `VDL_FUZZ_CASES=2000 cargo test --release -p vdl-tests --test fuzz` is the long run.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use vdl_runtime::protocol::{self, Engine};
use vdl_runtime::search::MaterialEvaluator;
use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{line_column, read_text, vdl_files, workspace_root};

/// Cases of each property in the default run.
const CASES: u32 = 48;
/// Longest time one input may take (a debug build, on a loaded machine) before it counts as a hang.
const HANG: Duration = Duration::from_secs(30);
/// The file name diagnostics are rendered with.
const FILE: &str = "fuzz.vdl";

fn cases() -> u32 {
    std::env::var("VDL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES)
}

/// Default seed: the default run is the same on every machine.
const SEED: u64 = 0x7664_6c5f_7072_6f70;

/// A runner with the seed of `VDL_FUZZ_SEED` (or [`SEED`]), so that a failure can be replayed.
fn runner() -> TestRunner {
    let seed = std::env::var("VDL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SEED);
    let mut bytes = [0u8; 32];
    for (i, chunk) in bytes.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(
            &(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_le_bytes(),
        );
    }
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        // A hang costs `HANG` per shrinking step: keep shrinking short.
        max_shrink_time: 120_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Runs `f` on a worker thread; an error names a panic or a hang.
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = panic::catch_unwind(AssertUnwindSafe(f));
        let _ = send.send(result);
    });
    match receive.recv_timeout(HANG) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(payload)) => Err(format!("panicked: {}", panic_text(&payload))),
        Err(_) => Err(format!("did not finish within {HANG:?}")),
    }
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

// ----------------------------------------------------------------------------------------------------
// Edits
// ----------------------------------------------------------------------------------------------------

/// One edit of a text. Positions are `Index`es, so an edit applies to any text and shrinks well.
#[derive(Clone, Debug)]
enum Edit {
    Delete(Index, usize),
    Insert(Index, Index),
    /// A fragment written many times in a row: deep nesting, long sums, many statements.
    Repeat(Index, Index, usize),
    Duplicate(Index, usize, Index),
    Char(Index, char),
    Truncate(Index),
}

fn edit(most_repeats: usize) -> impl Strategy<Value = Edit> {
    let fragment = any::<Index>;
    prop_oneof![
        2 => (any::<Index>(), 1..40usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        3 => (any::<Index>(), fragment()).prop_map(|(at, f)| Edit::Insert(at, f)),
        1 => (any::<Index>(), fragment(), 2..most_repeats)
            .prop_map(|(at, f, n)| Edit::Repeat(at, f, n)),
        1 => (any::<Index>(), 1..200usize, any::<Index>())
            .prop_map(|(at, n, to)| Edit::Duplicate(at, n, to)),
        1 => (any::<Index>(), any::<char>()).prop_map(|(at, c)| Edit::Char(at, c)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

/// Applies edits to a text, working on characters so that it stays UTF-8.
fn apply(text: &str, edits: &[Edit], fragments: &[&str]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let len = chars.len();
        let at = |i: &Index| if len == 0 { 0 } else { i.index(len + 1) };
        match e {
            Edit::Delete(i, n) => {
                let s = at(i);
                chars.drain(s..(s + n).min(len));
            }
            Edit::Insert(i, f) => {
                let s = at(i);
                chars.splice(s..s, fragments[f.index(fragments.len())].chars());
            }
            Edit::Repeat(i, f, n) => {
                let s = at(i);
                let piece = fragments[f.index(fragments.len())].repeat(*n);
                chars.splice(s..s, piece.chars());
            }
            Edit::Duplicate(i, n, to) => {
                let s = at(i);
                let copy: Vec<char> = chars[s..(s + n).min(len)].to_vec();
                let t = at(to);
                chars.splice(t..t, copy);
            }
            Edit::Char(i, c) => {
                let s = at(i);
                chars.insert(s, *c);
            }
            Edit::Truncate(i) => chars.truncate(at(i)),
        }
    }
    chars.into_iter().collect()
}

// ----------------------------------------------------------------------------------------------------
// Rule files
// ----------------------------------------------------------------------------------------------------

/// Fragments of rule files: brackets, keywords, operators, names, numbers, odd characters.
const RULE_FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "\"",
    ";",
    "\n",
    " ",
    "//",
    "..",
    ",",
    "not ",
    " and ",
    " or ",
    " + ",
    " - ",
    " == ",
    " >= ",
    "count(",
    "count(white, king)",
    "in_check(mover)",
    "when ",
    "unless ",
    "piece p { moves \"W\" }\n",
    "zone z { cells a1 }\n",
    "board b 8x8\n",
    "player p\n",
    "frob 1\n",
    "setup \"8/8/8/8/8/8/8/8 w - - 0 1\"\n",
    "rule r { on capture }\n",
    "option o { values a b; default a }\n",
    "atom X (1,2)\n",
    "end { checkmate win }\n",
    "letter \"Q\"\n",
    "moves \"",
    "RaR",
    "mRa",
    "pR",
    "a",
    "W",
    "K",
    "Q",
    "N",
    "99",
    "0",
    "-1",
    "64x64",
    "64x64x64",
    "0x0",
    "a1",
    "z99",
    "king",
    "mover",
    "é",
    "\u{0}",
    "\u{feff}",
    "𝄞",
    "\t",
    "\r",
    "18446744073709551616",
];

/// The rule-file corpus: examples, diagnostics inputs, and the hostile inputs of the robustness issue.
fn rule_corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let root = workspace_root();
        let mut texts: Vec<String> = Vec::new();
        for dir in [
            "examples",
            "tests/inputs/check/ok",
            "tests/inputs/check/err",
            "tests/coverage",
        ] {
            texts.extend(vdl_files(&root.join(dir)).iter().map(|p| read_text(p)));
        }
        texts.extend(hostile_rule_files());
        texts
    })
}

/// A small game with `{}` where more statements go and `COND` as a draw condition.
const GAME: &str = "game mini\nboard main 8x8\nplayer white\nplayer black\n\
    piece king { letter \"K\"; moves \"K\"; royal }\n{}\n\
    end { checkmate win; stalemate draw when COND }\n";

/// The cases of the robustness issue (deep nesting, long sums, many zones, a huge board, long legs),
/// each a little past its limit, and a few deep but legal ones.
pub fn hostile_rule_files() -> Vec<String> {
    let setup = "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"";
    let with = |cond: &str| GAME.replace("{}", setup).replace("COND", cond);
    let base = "count(white, king) >= 1";
    let nested = |open: &str, inner: &str, close: &str, n: usize| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    let zones: String = (0..1100)
        .map(|i| format!("zone z{i} {{ cells a1 }}\n"))
        .collect();
    vec![
        with(&nested("(", "in_check(mover)", ")", 2000)),
        with(&nested("count(", "mover", ")", 500)),
        with(&format!("{}{base}", "not ".repeat(3000))),
        with(&format!(
            "count(white, king) == {}",
            vec!["1"; 5000].join(" + ")
        )),
        with(&nested("(", base, ")", 62)),
        with(&format!("{}{base}", "not ".repeat(126))),
        with(&vec![base; 2000].join(" and ")),
        GAME.replace("{}", &format!("{setup}\n{zones}"))
            .replace("COND", base),
        GAME.replace("board main 8x8", "board main 64x64x64")
            .replace("{}", "setup { place white king a1_1 }")
            .replace("COND", base),
        GAME.replace("board main 8x8", "board main 64x64")
            .replace(
                "{}",
                "piece rider { letter \"R\"; moves \"mRamRamRamR\" }\n\
                 setup { place white king a1; place black king bl64; place white rider af32 }",
            )
            .replace("COND", base),
        GAME.replace(
            "{}",
            &format!("{setup}\npiece p {{ moves \"{}\" }}", "W".repeat(3000)),
        )
        .replace("COND", base),
        GAME.replace("{}", &format!("{setup}\n{}", "}".repeat(3000)))
            .replace("COND", base),
        GAME.replace("{}", &format!("{setup}\n{}", "frob 1; ".repeat(3000)))
            .replace("COND", base),
    ]
}

/// Checks one rule file and, when it checks, loads it and plays every move of its start position.
fn check_rule_file(source: String) -> Result<(), String> {
    let checked = vdl_dsl::check::check_source(&source);
    for problem in &checked.problems {
        let code = problem.code();
        let well_formed = code.len() == 5
            && (code.starts_with('E') || code.starts_with('W'))
            && code[1..].chars().all(|c| c.is_ascii_digit());
        if !well_formed {
            return Err(format!("a problem without a code: {code:?}"));
        }
        let (start, end) = (problem.span.start as usize, problem.span.end as usize);
        if start > end || end > source.len() {
            return Err(format!("{code}: span {start}..{end} outside the file"));
        }
        if !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            return Err(format!(
                "{code}: span {start}..{end} not on character boundaries"
            ));
        }
    }
    let rendered = vdl::report::render_text(FILE, &source, &checked.problems, false);
    let json = vdl::report::render_json(FILE, &source, &checked.problems);
    if !json.starts_with('[') || !json.ends_with(']') {
        return Err("the JSON report is not an array".into());
    }
    for problem in checked.problems.iter().take(vdl::report::MAX_SHOWN) {
        let (line, column) = line_column(&source, problem.span.start as usize);
        let location = format!("{FILE}:{line}:{column}");
        if !rendered.contains(&location) {
            return Err(format!(
                "{}: the report does not name {location}",
                problem.code()
            ));
        }
    }
    let Some(game) = checked.game else {
        return Ok(());
    };
    let interpreter = match Interpreter::new(game) {
        Ok(interpreter) => interpreter,
        Err(message) => return Err(format!("checks but does not load: {message}")),
    };
    let mut position = interpreter.start();
    let text = interpreter.write_position(&position);
    let reread = interpreter
        .parse_position(&text)
        .map_err(|e| format!("the start position {text:?} does not read back: {e}"))?;
    if interpreter.write_position(&reread) != text {
        return Err(format!(
            "the start position {text:?} reads back differently"
        ));
    }
    let mut moves = Vec::new();
    interpreter.legal_moves(&mut position, &mut moves);
    for mv in moves {
        let undo = interpreter.make(&mut position, mv);
        let _ = interpreter.outcome(&mut position);
        interpreter.unmake(&mut position, mv, undo);
    }
    if interpreter.write_position(&position) != text {
        return Err("make and unmake do not restore the start position".into());
    }
    Ok(())
}

#[test]
fn rule_files() {
    let corpus = rule_corpus();
    let strategy = (0..corpus.len(), prop::collection::vec(edit(3000), 0..6));
    runner()
        .run(&strategy, |(seed, edits)| {
            let source = apply(&corpus[seed], &edits, RULE_FRAGMENTS);
            let outcome = bounded(move || check_rule_file(source)).and_then(|r| r);
            prop_assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
            Ok(())
        })
        .unwrap();
}

/// Every seed of the corpus as it is (the hostile inputs among them).
#[test]
fn rule_file_seeds() {
    let failures: Vec<String> = rule_corpus()
        .iter()
        .enumerate()
        .filter_map(|(i, source)| {
            let source = source.clone();
            bounded(move || check_rule_file(source))
                .and_then(|r| r)
                .err()
                .map(|e| format!("seed {i}: {e}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----------------------------------------------------------------------------------------------------
// Positions and moves
// ----------------------------------------------------------------------------------------------------

/// Games whose position and move text differ: FEN with hands, promoted pieces and check counters,
/// several boards, more players, 3D boards, stacks.
const TEXT_GAMES: &[&str] = &[
    "examples/chess.vdl",
    "examples/crazyhouse.vdl",
    "examples/shogi.vdl",
    "examples/xiangqi.vdl",
    "examples/3check.vdl",
    "examples/seirawan.vdl",
    "examples/ataxx.vdl",
    "examples/armies-of-faith-5.vdl",
    "examples/team-mate-chess.vdl",
    "examples/lords-and-vassals.vdl",
    "examples/baccancat.vdl",
    "examples/afterlife-chess.vdl",
    "tests/inputs/movegen/three_d.vdl",
];

/// An interpreter per game of [`TEXT_GAMES`], loaded when first used.
fn text_game(index: usize) -> &'static Interpreter {
    static GAMES: OnceLock<Vec<OnceLock<Interpreter>>> = OnceLock::new();
    let games = GAMES.get_or_init(|| TEXT_GAMES.iter().map(|_| OnceLock::new()).collect());
    games[index].get_or_init(|| {
        let source = read_text(&workspace_root().join(TEXT_GAMES[index]));
        let game = vdl_dsl::check::check_source(&source)
            .game
            .unwrap_or_else(|| panic!("{} does not check", TEXT_GAMES[index]));
        Interpreter::new(game).expect("loads")
    })
}

/// Fragments of positions and moves.
const TEXT_FRAGMENTS: &[&str] = &[
    "/",
    "//",
    "8",
    "9",
    "0",
    "99999999999999999999",
    "[",
    "]",
    "+",
    "~",
    "*",
    "(",
    ")",
    "(0K)",
    "(white K)",
    "|",
    " ",
    "-",
    "w",
    "b",
    "KQkq",
    "e9",
    "3+3",
    "K",
    "k",
    "Q",
    "P",
    "p",
    "e2e4",
    "=",
    "@",
    "x",
    "é",
    "\u{0}",
    "\n",
    "a1",
    "z0",
    "1",
    "2",
    "-1",
    " 0 1",
    "turn=99999",
];

/// Positions to mutate: the start, and the positions after a few first moves.
fn seed_positions(game: &Interpreter) -> Vec<String> {
    let mut position = game.start();
    let mut out = vec![game.write_position(&position)];
    for _ in 0..6 {
        let mut moves = Vec::new();
        game.legal_moves(&mut position, &mut moves);
        let Some(&mv) = moves.get(moves.len() / 2) else {
            break;
        };
        game.make(&mut position, mv);
        out.push(game.write_position(&position));
    }
    out
}

/// Reads a mutated position and mutated move texts in it.
fn check_text(
    game: &'static Interpreter,
    text: String,
    move_edits: Vec<Edit>,
) -> Result<(), String> {
    // A message may quote the text it refuses, line breaks and all, but adds none of its own.
    let one_line = |message: &str, input: &str, what: &str| -> Result<(), String> {
        let own_breaks = message.matches('\n').count() > input.matches('\n').count() * 2;
        if message.trim().is_empty() || own_breaks {
            Err(format!(
                "{what}: the error is not a one-line message: {message:?}"
            ))
        } else {
            Ok(())
        }
    };
    let mut position = match game.parse_position(&text) {
        Ok(position) => position,
        Err(e) => return one_line(&e.to_string(), &text, &format!("position {text:?}")),
    };
    let written = game.write_position(&position);
    let reread = game
        .parse_position(&written)
        .map_err(|e| format!("{text:?} reads, but its text {written:?} does not: {e}"))?;
    if game.write_position(&reread) != written {
        return Err(format!(
            "{text:?} reads as {written:?}, which reads differently"
        ));
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut position, &mut moves);
    let _ = game.outcome(&mut position);
    let mut texts: Vec<String> = moves
        .iter()
        .map(|m| game.write_move(&position, *m))
        .collect();
    texts.push("e2e4".into());
    for base in texts.iter().take(8) {
        let attempt = apply(base, &move_edits, TEXT_FRAGMENTS);
        match game.parse_move(&mut position, &attempt) {
            Ok(mv) => {
                if !moves.contains(&mv) {
                    return Err(format!(
                        "`{attempt}` reads as a move that is not legal in {written}"
                    ));
                }
                let undo = game.make(&mut position, mv);
                let _ = game.write_position(&position);
                game.unmake(&mut position, mv, undo);
                if game.write_position(&position) != written {
                    return Err(format!("making and unmaking `{attempt}` changes {written}"));
                }
            }
            Err(e) => one_line(
                &e.to_string(),
                &format!("{attempt}{written}"),
                &format!("move {attempt:?} in {written}"),
            )?,
        }
    }
    Ok(())
}

#[test]
fn positions_and_moves() {
    let strategy = (
        0..TEXT_GAMES.len(),
        any::<Index>(),
        prop::collection::vec(edit(100), 0..5),
        prop::collection::vec(edit(10), 0..3),
    );
    runner()
        .run(&strategy, |(index, seed, edits, move_edits)| {
            let outcome = bounded(move || {
                let game = text_game(index);
                let seeds = seed_positions(game);
                let text = apply(&seeds[seed.index(seeds.len())], &edits, TEXT_FRAGMENTS);
                check_text(game, text, move_edits)
            })
            .and_then(|r| r);
            prop_assert!(
                outcome.is_ok(),
                "{}: {}",
                TEXT_GAMES[index],
                outcome.unwrap_err()
            );
            Ok(())
        })
        .unwrap();
}

// ----------------------------------------------------------------------------------------------------
// Protocols
// ----------------------------------------------------------------------------------------------------

type InterpretedEngine = Engine<Interpreter, MaterialEvaluator>;

const PROTOCOL_GAMES: &[&str] = &["chess", "crazyhouse", "shogi", "armies-of-faith-5"];

fn protocol_engine(index: usize) -> &'static InterpretedEngine {
    static ENGINES: OnceLock<Vec<OnceLock<InterpretedEngine>>> = OnceLock::new();
    let engines = ENGINES.get_or_init(|| PROTOCOL_GAMES.iter().map(|_| OnceLock::new()).collect());
    engines[index].get_or_init(|| {
        let name = PROTOCOL_GAMES[index];
        let path = workspace_root().join(format!("examples/{name}.vdl"));
        let game = vdl_dsl::check::check_source(&read_text(&path))
            .game
            .expect("checks");
        // The end of the script stops a running search, as when a GUI goes away.
        Engine::from_interpreter(Interpreter::new(game).expect("loads")).with_file_name(name)
    })
}

/// Commands of each protocol, with `{}` where an argument goes.
const XBOARD: &[&str] = &[
    "xboard",
    "protover 2",
    "new",
    "variant {}",
    "force",
    "go",
    "playother",
    "st {}",
    "sd {}",
    "time {}",
    "otim {}",
    "level {} {} {}",
    "usermove {}",
    "{}",
    "?",
    "ping {}",
    "draw",
    "result {} {}",
    "setboard {}",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "name {}",
    "computer",
    "option {}={}",
    "memory {}",
    "cores {}",
    "nps {}",
    "white",
    "black",
    "random",
    "accepted {}",
    "rejected {}",
    "edit",
    "#",
    "c",
    ".",
    "hint",
    "bk",
    "exit",
    "analyze",
];
const UCI: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption name {} value {}",
    "setoption name {}",
    "position startpos",
    "position startpos moves {} {}",
    "position fen {}",
    "position fen {} moves {}",
    "go depth {}",
    "go nodes {}",
    "go movetime {}",
    "go wtime {} btime {} winc {} binc {}",
    "go movestogo {} wtime {}",
    "go mate {}",
    "go infinite",
    "go perft {}",
    "go searchmoves {} {}",
    "go",
    "stop",
    "ponderhit",
    "d",
    "{}",
    "register later",
    "debug on",
];
const LINE: &[&str] = &[
    "game",
    "game {}",
    "position",
    "position {}",
    "fen",
    "fen {}",
    "turn",
    "moves",
    "play {}",
    "play {} {}",
    "undo",
    "go",
    "go {}",
    "go depth {}",
    "go movetime {}",
    "go nodes {}",
    "stop",
    "result",
    "isready",
    "help",
    "{}",
    "setup {}={}",
];

/// Arguments; `MOVE` and `FEN` stand for a legal move and a position of the game.
const ARGUMENTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "40",
    "1000",
    "99999999999999999999",
    "2.5",
    "1:30",
    "e2e4",
    "e7e5",
    "g1f3",
    "e1g1",
    "e7e8q",
    "@",
    "P@e4",
    "MOVE",
    "MOVE",
    "MOVE",
    "FEN",
    "FEN",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "x",
    "chess",
    "normal",
    "shogi",
    "1-0",
    "1/2-1/2",
    "{mate}",
    "Hash",
    "MultiPV",
    "é",
    "\u{0}",
    "",
    "  ",
];

/// Builds a script from command and argument choices.
fn script(
    engine: &InterpretedEngine,
    commands: &[&str],
    lines: &[(Index, Vec<Index>, Vec<Edit>)],
) -> String {
    let variant = &engine.variant;
    let mut position = variant.start();
    let fen = variant.write_position(&position);
    let mut moves = Vec::new();
    variant.legal_moves(&mut position, &mut moves);
    let move_texts: Vec<String> = moves
        .iter()
        .map(|m| variant.write_protocol_move(&position, *m))
        .collect();
    let mut out = String::new();
    for (command, arguments, edits) in lines {
        let template = commands[command.index(commands.len())];
        let mut line = String::new();
        let mut args = arguments.iter();
        for (i, part) in template.split("{}").enumerate() {
            if i > 0 {
                let pick = args
                    .next()
                    .map_or("1", |a| ARGUMENTS[a.index(ARGUMENTS.len())]);
                let value = match pick {
                    "MOVE" if !move_texts.is_empty() => {
                        move_texts[args.len() % move_texts.len()].clone()
                    }
                    "FEN" => fen.clone(),
                    other => other.to_string(),
                };
                line.push_str(&apply(&value, edits, TEXT_FRAGMENTS));
            }
            line.push_str(part);
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[test]
fn protocol_sessions() {
    let line = (
        any::<Index>(),
        prop::collection::vec(any::<Index>(), 0..5),
        prop::collection::vec(edit(5), 0..2),
    );
    let strategy = (
        0..4usize,
        0..PROTOCOL_GAMES.len(),
        prop::collection::vec(line, 0..16),
    );
    runner()
        .run(&strategy, |(protocol, game, lines)| {
            let engine = protocol_engine(game);
            let (commands, header): (&[&str], &str) = match protocol {
                0 => (XBOARD, "xboard\nprotover 2\n"),
                1 => (UCI, "uci\n"),
                2 => (LINE, ""),
                _ => (UCI, ""),
            };
            let text = format!("{header}{}", script(engine, commands, &lines));
            let script_text = text.clone();
            let outcome = bounded(move || {
                let input = std::io::Cursor::new(text.clone().into_bytes());
                let mut output = Vec::new();
                let result = match protocol {
                    0 => protocol::xboard::run(engine, input, &mut output),
                    1 => protocol::uci::run(engine, input, &mut output),
                    2 => protocol::line::run(engine, input, &mut output),
                    _ => protocol::run(engine, input, &mut output),
                };
                match result {
                    Ok(()) => String::from_utf8(output)
                        .map(|_| ())
                        .map_err(|_| "the replies are not UTF-8".to_string()),
                    Err(e) => Err(format!("the session failed: {e}")),
                }
            })
            .and_then(|r| r);
            prop_assert!(
                outcome.is_ok(),
                "{}: {} in the session {script_text:?}",
                PROTOCOL_GAMES[game],
                outcome.unwrap_err()
            );
            Ok(())
        })
        .unwrap();
}
