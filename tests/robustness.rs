//! The checker on mutated and random input: it must not panic or hang, every span must lie inside the
//! source on character boundaries, and every diagnostic must render with its `file:line:column`.
//!
//! Inputs come from a deterministic generator, so a failure names the seed and iteration that replay it.
//! `VDL_FUZZ_ITERATIONS` and `VDL_FUZZ_SEED` override the defaults for a longer or different run.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use vdl_dsl::check::check_source;
use vdl_tests::{line_column, read_text, vdl_files, workspace_root, Rng};

/// Default number of inputs; keeps the test around a few seconds in a debug build.
const ITERATIONS: usize = 8000;
/// Default seed.
const SEED: u64 = 0x7664_6c5f_6675_7a7a;
/// Longest time one check may take before the test reports a hang.
const HANG: Duration = Duration::from_secs(20);
/// The file name given to `render_text`.
const FILE: &str = "fuzz.vdl";

/// Fragments that stress the lexer, the grammar and the checker.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "\\",
    "..",
    ".",
    ",",
    ";",
    "\n",
    "\r",
    "\t",
    " ",
    "//",
    "(1,",
    "(0,0)",
    "(0,0,0)",
    "(1,2,3,4)",
    "when",
    "unless",
    "not",
    "and",
    "or",
    "in",
    "==",
    "!=",
    "<=",
    "+",
    "-",
    "-0",
    "x",
    "8x8",
    "0x8",
    "65x8",
    "64x64",
    "3x3x3",
    "a..h",
    "1..8",
    "8..1",
    "h..a",
    "piece",
    "board",
    "player",
    "neutral",
    "zone",
    "setup",
    "end",
    "game",
    "atom",
    "letter",
    "moves",
    "royal",
    "promote in",
    "to",
    "rank",
    "files",
    "ranks",
    "name",
    "hole",
    "cells",
    "forward",
    "count(",
    "in_check(mover)",
    "option.",
    "mover",
    "e4",
    "z9",
    "a1",
    "_",
    "'",
    "é",
    "→",
    "𝄞",
    "\u{0}",
    "\u{200b}",
    "\u{feff}",
    "ǅ",
    "\u{301}",
    "99999999999999999999999999999999",
    "4294967296",
    "2147483648",
    "18446744073709551616",
];

/// Letters a Betza string may contain, and some it may not.
const BETZA: &[u8] = b"WFDNAHCZGRBQKOUIJLTfblrvshmcdetpgynjouxizqak[]()-0123456789# ";

/// Builds the corpus: every example, plus a small valid game so that mutations start from something
/// that checks.
fn corpus() -> Vec<String> {
    let mut texts: Vec<String> = vdl_files(&workspace_root().join("examples"))
        .iter()
        .map(|p| read_text(p))
        .collect();
    texts.push(
        "game mini\nboard main 8x8\nplayer white\nplayer black\npiece king { letter \"K\"; moves \"K\"; royal }\n\
         setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\nend { checkmate win }\n"
            .to_string(),
    );
    texts
}

/// A random string of tokens and characters.
fn garbage(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(60) {
        match rng.below(4) {
            0 => out.push(char::from(*rng.pick(BETZA))),
            1 => out.push(char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')),
            _ => out.push_str(TOKENS[rng.below(TOKENS.len())]),
        }
    }
    out
}

/// A Betza-like string of random letters.
fn betza_letters(rng: &mut Rng) -> String {
    (0..1 + rng.below(8))
        .map(|_| char::from(*rng.pick(BETZA)))
        .collect()
}

/// Applies one random edit. Most edits work on characters, so the text stays valid UTF-8; byte edits are
/// kept only when the result is still UTF-8.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let len = chars.len();
    let at = |rng: &mut Rng| rng.below(len + 1);
    let range = |rng: &mut Rng| {
        let start = rng.below(len + 1);
        let end = (start + rng.below(40)).min(len);
        (start, end)
    };
    match rng.below(11) {
        0 => {
            let (s, e) = range(rng);
            chars.drain(s..e);
        }
        1 | 2 => {
            let i = at(rng);
            chars.splice(i..i, rng.pick(TOKENS).chars());
        }
        3 => {
            let (s, e) = range(rng);
            let copy: Vec<char> = chars[s..e].to_vec();
            let i = at(rng);
            chars.splice(i..i, copy);
        }
        4 => {
            let (s1, e1) = range(rng);
            let (s2, e2) = range(rng);
            if e1 <= s2 {
                let second: Vec<char> = chars[s2..e2].to_vec();
                let first: Vec<char> = chars[s1..e1].to_vec();
                chars.splice(s2..e2, first);
                chars.splice(s1..e1, second);
            }
        }
        5 => {
            // Random Betza letters right after a quote, that is inside a string.
            let quotes: Vec<usize> = chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '"')
                .map(|(i, _)| i + 1)
                .collect();
            let i = if quotes.is_empty() {
                at(rng)
            } else {
                *rng.pick(&quotes)
            };
            chars.splice(i..i, betza_letters(rng).chars());
        }
        6 => {
            // A long number, next to digits when there are some.
            let digits: Vec<usize> = chars
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            let i = if digits.is_empty() {
                at(rng)
            } else {
                *rng.pick(&digits)
            };
            let number: String = (0..1 + rng.below(40))
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            chars.splice(i..i, number.chars());
        }
        7 => {
            let i = at(rng);
            let c = *rng.pick(&[
                '\u{0}', 'é', '→', '𝄞', '\u{200b}', '\u{feff}', '\r', 'ǅ', '\u{301}', '\u{7f}',
            ]);
            chars.insert(i, c);
        }
        8 => {
            let i = at(rng);
            chars.splice(i..i, garbage(rng).chars());
        }
        9 => {
            let (s, e) = range(rng);
            chars.truncate(if rng.one_in(2) { s } else { e });
        }
        _ => {
            // A byte edit, kept only if the text is still UTF-8.
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                bytes[i] = rng.below(256) as u8;
            }
            return String::from_utf8(bytes).unwrap_or_else(|_| text.to_string());
        }
    }
    chars.into_iter().collect()
}

thread_local! {
    /// Set on the fuzzing thread: its caught panics are reported with their input, not printed.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs a panic hook that stays silent on quiet threads and prints as usual elsewhere.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
}

/// Checks one input; returns whether it got past the parser, or a description of what is wrong.
fn check_one(source: &str) -> Result<bool, String> {
    install_quiet_hook();
    let checked = panic::catch_unwind(AssertUnwindSafe(|| check_source(source)))
        .map_err(|e| format!("check_source panicked: {}", panic_text(&e)))?;
    for problem in &checked.problems {
        let (start, end) = (problem.span.start as usize, problem.span.end as usize);
        if start > end || end > source.len() {
            return Err(format!(
                "{} span {start}..{end} is outside the source (length {})",
                problem.code(),
                source.len()
            ));
        }
        if !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            return Err(format!(
                "{} span {start}..{end} is not on character boundaries",
                problem.code()
            ));
        }
    }
    let rendered =
        panic::catch_unwind(|| vdl::report::render_text(FILE, source, &checked.problems, false))
            .map_err(|e| format!("render_text panicked: {}", panic_text(&e)))?;
    for problem in &checked.problems {
        let (line, column) = line_column(source, problem.span.start as usize);
        let location = format!("{FILE}:{line}:{column}");
        if !rendered.contains(&location) {
            return Err(format!(
                "{} at {:?}: the rendered text does not name {location}:\n{rendered}",
                problem.code(),
                problem.span
            ));
        }
    }
    Ok(!checked.problems.iter().any(|p| p.code().starts_with("E0")))
}

fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Generates input number `iteration` of a run.
fn input(rng: &mut Rng, corpus: &[String]) -> String {
    if rng.one_in(10) {
        return garbage(rng);
    }
    let mut text = rng.pick(corpus).clone();
    for _ in 0..1 + rng.below(6) {
        text = mutate(rng, &text);
    }
    text
}

#[test]
fn the_checker_survives_mutated_input() {
    let iterations = env_number("VDL_FUZZ_ITERATIONS", ITERATIONS as u64) as usize;
    let seed = env_number("VDL_FUZZ_SEED", SEED);
    let corpus = corpus();
    assert!(corpus.len() > 1, "no examples found");

    // The checks run on a worker thread, so that a hang is reported with its input instead of stalling
    // the suite. The worker sends each input before checking it, and `None` when done.
    let (sender, receiver) = mpsc::channel::<Option<(usize, String)>>();
    let worker = std::thread::spawn(move || {
        QUIET.with(|q| q.set(true));
        let mut rng = Rng::new(seed);
        // One failure per kind (its message without numbers), shrunk to a small reproduction.
        let mut failures: Vec<(String, usize, String, String)> = Vec::new();
        let mut parsed = 0;
        for iteration in 0..iterations {
            let source = input(&mut rng, &corpus);
            if sender.send(Some((iteration, source.clone()))).is_err() {
                break;
            }
            let outcome = check_one(&source);
            parsed += usize::from(outcome == Ok(true));
            if let Err(problem) = outcome {
                let kind = failure_kind(&problem);
                if !failures.iter().any(|f| f.0 == kind) && failures.len() < MAX_REPORTED {
                    let small = shrink(&source, &kind);
                    let problem = check_one(&small).err().unwrap_or(problem);
                    failures.push((kind, iteration, small, problem));
                }
            }
        }
        let _ = sender.send(None);
        (failures, parsed)
    });

    let started = Instant::now();
    let mut checked = 0;
    let mut last = (0, String::new());
    loop {
        match receiver.recv_timeout(HANG) {
            Ok(Some(sent)) => {
                checked += 1;
                last = sent;
            }
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!(
                    "a check took more than {HANG:?} (seed {seed:#x}, iteration {}); input: {:?}",
                    last.0, last.1
                )
            }
        }
    }
    let (failures, parsed) = worker.join().expect("the worker thread does not panic");
    let report: Vec<String> = failures
        .iter()
        .map(|(_, iteration, source, problem)| {
            format!("seed {seed:#x}, iteration {iteration}: {problem}\nshrunk input: {source:?}")
        })
        .collect();
    assert!(
        report.is_empty(),
        "{} kinds of failure in {checked} inputs:\n\n{}",
        report.len(),
        report.join("\n\n")
    );
    eprintln!(
        "checked {checked} inputs ({parsed} past the parser) in {:?}",
        started.elapsed()
    );
}

/// Most kinds of failure reported by one run.
const MAX_REPORTED: usize = 12;

/// A failure's kind: its first line without numbers, so that one bug is reported once.
fn failure_kind(problem: &str) -> String {
    problem
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect()
}

/// Makes a failing input smaller while it fails the same way: drops lines, then runs of characters.
fn shrink(source: &str, kind: &str) -> String {
    let fails = |text: &str| {
        check_one(text)
            .err()
            .is_some_and(|p| failure_kind(&p) == kind)
    };
    let mut lines: Vec<&str> = source.split_inclusive('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let mut fewer = lines.clone();
        fewer.remove(i);
        if fails(&fewer.concat()) {
            lines = fewer;
        } else {
            i += 1;
        }
    }
    let mut chars: Vec<char> = lines.concat().chars().collect();
    let mut size = chars.len() / 2;
    let mut budget = 3000;
    while size > 0 && budget > 0 {
        let mut start = 0;
        while start < chars.len() && budget > 0 {
            budget -= 1;
            let end = (start + size).min(chars.len());
            let candidate: String = chars[..start].iter().chain(&chars[end..]).collect();
            if fails(&candidate) {
                chars.drain(start..end);
            } else {
                start += size;
            }
        }
        size /= 2;
    }
    chars.into_iter().collect()
}

#[test]
fn the_examples_render_with_locations() {
    for path in vdl_files(&workspace_root().join("examples")) {
        let source = read_text(&path);
        if let Err(problem) = check_one(&source) {
            panic!("{}: {problem}", path.display());
        }
    }
}

/// A complete small game with `{}` replaced by the text under test.
const GAME: &str = "game g\nboard main 8x8\nplayer white\nplayer black\npiece king { letter \"K\"; moves \"K\"; royal }\n{}\nend { checkmate win }\n";

#[test]
fn edge_inputs() {
    let in_game = |text: &str| GAME.replace("{}", text);
    let cases = [
        String::new(),
        "\n".into(),
        "\u{0}".into(),
        "é".into(),
        "\"".into(),
        "{".into(),
        "}".into(),
        "game".into(),
        "game g\nboard b 0x0".into(),
        "game g\nboard b 99999999999x99999999999".into(),
        "game g\nboard b 64x64x64".into(),
        "piece p { moves \"\" }".into(),
        "piece p { moves \"\\\"\" }".into(),
        "piece p { moves \"é\" }".into(),
        "piece p { moves \"aaaaaaaa\" }".into(),
        "setup \"8/8/8/8/8/8/8/8 w\" when".into(),
        "end { result win when ((((((((((((((((((((x)))))))))))))))))))) }".into(),
        // A Betza range beyond u32 (betza.rs accumulates the digits in a u32).
        in_game(
            "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\npiece p { moves \"W99999999999999999999\" }",
        ),
        // A FEN digit run near usize::MAX followed by a piece (fen.rs adds to the file count).
        in_game("setup \"4k3/8/8/8/8/8/8/18446744073709551615K w - - 0 1\""),
        // A non-ASCII character in a FEN rank (fen.rs reports it with a one-byte span).
        in_game("setup \"4k3/8/8/8/8/8/8/4K2é w - - 0 1\""),
        // A piece declared twice, then a lettered piece in the FEN (fen.rs indexes the unused-piece table).
        in_game(
            "piece king { letter \"Q\"; moves \"Q\" }\nsetup \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"",
        ),
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|source| {
            check_one(source)
                .err()
                .map(|problem| format!("input {source:?}:\n  {problem}"))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} edge inputs fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The game of [`GAME`] with a stalemate rule whose condition is `condition`.
fn with_condition(condition: &str) -> String {
    GAME.replace("{}", "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"")
        .replace(
            "end { checkmate win }",
            &format!("end {{ checkmate win; stalemate draw when {condition} }}"),
        )
}

/// Inputs that once overflowed the stack, ran out of memory or took minutes: each gets a located
/// diagnostic with the code of the limit it goes over.
#[test]
fn hostile_inputs_get_the_limits_diagnostics() {
    let nested = |open: &str, inner: &str, close: &str, n: usize| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    let many_boards: String = (0..300)
        .map(|i| format!("board b{i} 64x64x64 {{ name \"b{i}_{{file}}{{rank}}_{{level}}\" }}\n"))
        .collect();
    let many_zones: String = (0..2000)
        .map(|i| format!("zone z{i} {{ cells a1 }}\n"))
        .collect();
    let mut too_large = GAME.replace("{}", "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"");
    while too_large.len() <= vdl_dsl::limits::MAX_SOURCE_BYTES {
        too_large.push_str("// a comment line to make the file larger than its limit\n");
    }
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "2000 nested parentheses",
            with_condition(&nested("(", "in_check(mover)", ")", 2000)),
            "E0010",
        ),
        (
            "5000 nested calls",
            with_condition(&nested("count(", "mover", ")", 5000)),
            "E0010",
        ),
        (
            "30,000 `not`s",
            with_condition(&format!("{}in_check(mover)", "not ".repeat(30_000))),
            "E0011",
        ),
        (
            "a sum of 50,000 terms",
            with_condition(&format!(
                "count(mover, king) == {}",
                vec!["1"; 50_000].join(" + ")
            )),
            "E0011",
        ),
        (
            "5000 nested lists",
            GAME.replace(
                "{}",
                &format!("zone z {{ cells {} }}", nested("[", "a1", "]", 5000)),
            ),
            "E0010",
        ),
        (
            "5000 nested blocks",
            GAME.replace("{}", &nested("piece p { ", "letter \"P\"", " }", 5000)),
            "E0010",
        ),
        (
            "300 boards of 64x64x64",
            GAME.replace("board main 8x8\n", &many_boards)
                .replace("{}", "setup { place white king b0_a1_1 }"),
            "E2016",
        ),
        ("2000 zones", GAME.replace("{}", &many_zones), "E2046"),
        (
            "a Betza string of 100,000 atoms",
            GAME.replace(
                "{}",
                &format!(
                    "piece x {{ letter \"X\"; moves \"{}\" }}",
                    "K".repeat(100_000)
                ),
            ),
            "E2047",
        ),
        ("a file over the size limit", too_large, "E0012"),
    ];
    // A test thread's stack, as a user interface would give a worker thread.
    let failures = std::thread::spawn(move || {
        cases
            .iter()
            .filter_map(|(name, source, code)| {
                let found = match check_one(source) {
                    Err(problem) => return Some(format!("{name}: {problem}")),
                    Ok(_) => check_source(source).problems,
                };
                (!found.iter().any(|p| p.code() == *code)).then(|| {
                    let codes: Vec<&str> = found.iter().map(|p| p.code()).collect();
                    format!("{name}: expected {code}, found {codes:?}")
                })
            })
            .collect::<Vec<String>>()
    })
    .join()
    .expect("no stack overflow or panic");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// E2016 counts the cells of the boards as declared: a 64x64x64 board has 262,144 (some of whose
/// default names coincide, which is E2030, not fewer cells).
#[test]
fn the_cell_limit_counts_every_cell() {
    let source = GAME
        .replace("board main 8x8", "board main 64x64x64")
        .replace("{}", "setup { place white king a11; place black king a81 }");
    let checked = check_source(&source);
    let messages: Vec<String> = checked
        .problems
        .iter()
        .filter(|p| p.code() == "E2016")
        .map(|p| vdl::report::render_text(FILE, &source, std::slice::from_ref(p), false))
        .collect();
    assert_eq!(messages.len(), 1, "{:?}", checked.problems);
    assert!(messages[0].contains("262144 cells"), "{}", messages[0]);
}

/// Input as deep as the limits allow checks, loads and runs: 64 levels of brackets and a condition 128
/// levels deep (a comparison under 127 `not`s), evaluated on every move of the piece.
#[test]
fn input_at_the_limits_checks_and_runs() {
    let depth = vdl_dsl::limits::MAX_EXPR_DEPTH;
    let nesting = vdl_dsl::limits::MAX_NESTING;
    // An odd number of `not`s turns `!=` into `==`, an even number leaves it.
    let compare = if (depth - 1) % 2 == 1 { "!=" } else { "==" };
    let condition = format!(
        "{}{}mover.piece {compare} king{}",
        "(".repeat(nesting - 1),
        "not ".repeat(depth - 1),
        ")".repeat(nesting - 1)
    );
    let source = GAME
        .replace(
            "moves \"K\"; royal",
            &format!("moves \"K\" when {condition}; royal"),
        )
        .replace("{}", "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"");
    let nodes = std::thread::spawn(move || {
        let checked = check_source(&source);
        let game = checked
            .game
            .unwrap_or_else(|| panic!("does not check: {:?}", checked.problems));
        let interpreter = vdl_runtime::Interpreter::new(game).expect("the game loads");
        let mut position = vdl_runtime::Variant::start(&interpreter);
        vdl_runtime::perft::perft(&interpreter, &mut position, 2)
    })
    .join()
    .expect("no stack overflow or panic");
    // Two lone kings: 5 moves for White from e1, 5 for Black from e8 after each.
    assert_eq!(nodes, 25);
}
