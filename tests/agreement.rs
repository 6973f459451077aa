//! Compiled engines against the reference interpreter: for every example, the legal move sets agree at
//! every ply of random playouts, and perft agrees with the reference tables (in tests/perft.rs the
//! interpreter is checked against the same tables).

use std::collections::BTreeSet;

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root, Rng};

include!(concat!(env!("OUT_DIR"), "/compiled.rs"));

#[path = "coverage_cases.rs"]
mod coverage_cases;

fn interpreter(stem: &str) -> Interpreter {
    let path = workspace_root()
        .join("examples")
        .join(format!("{stem}.vdl"));
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("examples check");
    Interpreter::new(game).expect("examples load")
}

fn move_set<V: Variant>(variant: &V, position: &mut V::Position) -> BTreeSet<String> {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let texts: BTreeSet<String> = moves
        .iter()
        .map(|m| variant.write_move(position, *m))
        .collect();
    assert_eq!(
        variant.count_legal_moves(position),
        moves.len() as u64,
        "counted and listed moves differ in {}",
        variant.write_position(position)
    );
    texts
}

fn games() -> usize {
    std::env::var("VDL_AGREEMENT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

/// Plays random games on both engines, comparing the legal move sets, position text and outcome at every
/// ply and checking the compiled engine's make/unmake and incremental hash; returns the number of
/// positions compared.
fn agree_on_playouts<V: Variant>(stem: &str, compiled: &V, rng: &mut Rng) -> usize {
    let reference = interpreter(stem);
    let mut positions = 0;
    for _ in 0..games() {
        let mut a = reference.start();
        let mut b = compiled.start();
        for ply in 0..60 {
            let expected = move_set(&reference, &mut a);
            let got = move_set(compiled, &mut b);
            assert_eq!(
                got,
                expected,
                "{stem}: ply {ply} of a playout, position {}",
                reference.write_position(&a)
            );
            assert_eq!(
                compiled.write_position(&b),
                reference.write_position(&a),
                "{stem}: ply {ply}"
            );
            assert_eq!(
                compiled.hash(&b),
                compiled.full_hash(&b),
                "{stem}: incremental hash at ply {ply}"
            );
            assert_eq!(
                compiled.outcome(&mut b),
                reference.outcome(&mut a),
                "{stem}: outcome at ply {ply}"
            );
            assert_eq!(
                compiled.in_check(&mut b),
                reference.in_check(&mut a),
                "{stem}: check at ply {ply}, position {}",
                reference.write_position(&a)
            );
            // The search's pass: the other side to move, taken back exactly.
            let (before, hash) = (compiled.write_position(&b), compiled.hash(&b));
            if let Some(undo) = compiled.make_null(&mut b) {
                assert_eq!(
                    compiled.hash(&b),
                    compiled.full_hash(&b),
                    "{stem}: hash after a pass at ply {ply}"
                );
                assert_ne!(compiled.hash(&b), hash, "{stem}: a pass changes the hash");
                compiled.unmake_null(&mut b, undo);
                assert_eq!(
                    (compiled.write_position(&b), compiled.hash(&b)),
                    (before, hash),
                    "{stem}: a pass taken back at ply {ply}"
                );
            }
            positions += 1;
            if expected.is_empty() {
                break;
            }
            let text = rng
                .pick(&expected.iter().cloned().collect::<Vec<_>>())
                .clone();
            let mv = reference.parse_move(&mut a, &text).expect("listed move");
            reference.make(&mut a, mv);
            let mv = compiled.parse_move(&mut b, &text).expect("listed move");
            let (before, hash) = (compiled.write_position(&b), compiled.hash(&b));
            let undo = compiled.make(&mut b, mv);
            compiled.unmake(&mut b, mv, undo);
            assert_eq!(
                (compiled.write_position(&b), compiled.hash(&b)),
                (before, hash),
                "{stem}: unmake of {text}"
            );
            compiled.make(&mut b, mv);
        }
    }
    positions
}

#[test]
fn compiled_and_interpreted_move_sets_agree_on_random_playouts() {
    let mut rng = Rng::new(0xa9ee);
    let mut positions = 0;
    for (stem, build) in ENGINES {
        let compiled = build().unwrap_or_else(|e| panic!("{stem}: {e}"));
        positions += agree_on_playouts(stem, &compiled, &mut rng);
    }
    assert!(positions > 1000, "only {positions} positions compared");
}

#[test]
fn compact_and_interpreted_move_sets_agree_on_random_playouts() {
    let mut rng = Rng::new(0xc0de);
    let mut positions = 0;
    let mut engines = 0;
    macro_rules! check {
        ($stem:expr, $build:expr) => {{
            let compiled = $build().unwrap_or_else(|e| panic!("{}: {e}", $stem));
            positions += agree_on_playouts($stem, &compiled, &mut rng);
            engines += 1;
        }};
    }
    for_each_compact!(check);
    assert!(engines >= 30, "only {engines} compact engines");
    assert!(positions > 500, "only {positions} positions compared");
}

fn perft_limit() -> u64 {
    std::env::var("VDL_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

/// Checks every perft row of the example's reference table up to `limit` nodes; returns the number of
/// rows checked.
fn perft_rows<V: Variant>(
    stem: &str,
    compiled: &V,
    limit: u64,
    failures: &mut Vec<String>,
) -> usize {
    let table = workspace_root()
        .join("tests/perft")
        .join(format!("{stem}.perft"));
    if !table.exists() {
        return 0;
    }
    let mut checked = 0;
    let mut fen = String::new();
    for line in read_text(&table).lines() {
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth: u32 = parts.next().and_then(|d| d.parse().ok()).expect("a depth");
            let nodes: u64 = parts.next().and_then(|n| n.parse().ok()).expect("a count");
            if nodes > limit {
                continue;
            }
            let mut position = compiled
                .parse_position(&fen)
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            let got = vdl_runtime::perft::perft(compiled, &mut position, depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{stem} `{fen}` depth {depth}: expected {nodes}, compiled {got}"
                ));
            }
        }
    }
    checked
}

/// Every perft row of the reference tables (up to `VDL_PERFT_LIMIT` nodes, default 20000) with the
/// compiled engine: compiled == reference (tests/perft.rs checks interpreter == reference).
#[test]
fn compiled_engines_match_the_perft_tables() {
    let limit = perft_limit();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (stem, build) in ENGINES {
        let compiled = build().unwrap_or_else(|e| panic!("{stem}: {e}"));
        checked += perft_rows(stem, &compiled, limit, &mut failures);
    }
    assert!(checked > 100, "only {checked} rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same rows with the compact engines, with a higher default limit (`VDL_COMPACT_PERFT_LIMIT`,
/// default 200000) since they are fast.
#[test]
fn compact_engines_match_the_perft_tables() {
    let limit = std::env::var("VDL_COMPACT_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let mut checked = 0;
    let mut failures = Vec::new();
    macro_rules! check {
        ($stem:expr, $build:expr) => {{
            let compiled = $build().unwrap_or_else(|e| panic!("{}: {e}", $stem));
            checked += perft_rows($stem, &compiled, limit, &mut failures);
        }};
    }
    for_each_compact!(check);
    assert!(checked > 50, "only {checked} rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A UCI session with a compact engine; returns the `bestmove` answers.
fn uci_best_moves(script: &str) -> Vec<String> {
    let mut engine = vdl_runtime::protocol::Engine::from_compact(
        game_chess::compact::fast_engine().expect("chess builds"),
    );
    engine.end_of_input = vdl_runtime::protocol::EndOfInput::Finish;
    let mut output = Vec::new();
    vdl_runtime::protocol::run_mode(
        &engine,
        "uci",
        std::io::Cursor::new(script.to_string()),
        &mut output,
    )
    .expect("uci is a mode")
    .expect("writing to a vector does not fail");
    let text = String::from_utf8(output).expect("UTF-8 output");
    assert!(text.contains("info depth "), "{text}");
    text.lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
        .collect()
}

/// The protocols run on a compact engine: a UCI search finds a mate in one and answers legal moves.
#[test]
fn uci_searches_with_a_compact_engine() {
    let mate = uci_best_moves("uci\nposition fen k7/8/1K6/8/8/8/8/7R w - - 0 1\ngo depth 3\n");
    assert_eq!(mate, ["h1h8"]);
    let reply = uci_best_moves("uci\nposition startpos moves e2e4\ngo depth 3\n");
    assert_eq!(reply.len(), 1);
    let reference = interpreter("chess");
    let mut position = reference.start();
    let e4 = reference.parse_move(&mut position, "e2e4").expect("legal");
    reference.make(&mut position, e4);
    assert!(
        reference.parse_move(&mut position, &reply[0]).is_ok(),
        "{} is not legal after e2e4",
        reply[0]
    );
}

/// The semantic-coverage cases (tests/coverage.rs) on their compiled engines: the hook form and, where
/// the case fits it, the compact form.
#[test]
fn coverage_cases_hold_on_the_compiled_engines() {
    let cases = coverage_cases::cases();
    let mut failures = Vec::new();
    for (stem, build) in CASE_ENGINES {
        let case = cases.iter().find(|c| c.name == *stem).expect("a case");
        match build() {
            Ok(engine) => failures.extend(
                coverage_cases::run_on_interpreter(case, &engine)
                    .into_iter()
                    .map(|f| format!("{stem} (compiled): {f}")),
            ),
            Err(e) => failures.push(format!("{stem} (compiled): {e}")),
        }
    }
    macro_rules! compact {
        ($stem:expr, $build:expr) => {{
            let case = cases.iter().find(|c| c.name == $stem).expect("a case");
            let reference = coverage_cases::interpreter_of(&case.source).expect("the case checks");
            for e in &case.expectations {
                let mut engine = $build().expect("the compact form builds");
                // Claims are asked of a second engine of the game, on the compact position.
                let claims = $build().expect("the compact form builds");
                if let Err(m) = coverage_cases::check(
                    &mut engine,
                    &reference.game,
                    &|p| vdl_runtime::Variant::claimable(&claims, p),
                    &|engine, position, depth| {
                        let evaluator = vdl_runtime::compact::CompactEvaluator::new(engine);
                        let limits = vdl_runtime::search::Limits::depth(depth);
                        vdl_runtime::search::search(engine, &evaluator, position, &limits)
                            .best
                            .map(|m| engine.write_move(position, m))
                    },
                    e,
                ) {
                    failures.push(format!("{} (compact) line {}: {m}", $stem, e.line));
                }
            }
        }};
    }
    for_each_compact_case!(compact);
    assert_eq!(CASE_ENGINES.len(), cases.len(), "every case is compiled");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Claims that depend on more than the position are made on a compact engine as on the
/// interpreter: minishogi's `perpetual_check 4 loss mover claim`, a rook checking from a4 and a5
/// while the king steps between e5 and e4 (the fourth occurrence after 12 moves); kings stepping out
/// and back without a check make a plain repetition (`repetition 4 loss white claim`).
#[test]
fn history_claims_are_made_on_a_compact_engine() {
    fn claims<V: Variant>(v: &V, fen: &str, moves: &str) -> Option<(Option<usize>, String)> {
        let mut position = v.parse_position(fen).expect("a position");
        for mv in moves.split_whitespace() {
            let m = v.parse_move(&mut position, mv).expect("legal");
            v.make(&mut position, m);
        }
        v.claimable(&position).map(|r| (r.winner, r.reason))
    }
    let checking = "a4a5 e5e4 a5a4 e4e5 ".repeat(3);
    let quiet = "a1b1 e5d5 b1a1 d5e5 ".repeat(3);
    let minishogi = game_minishogi::compact::fast_engine().expect("minishogi builds");
    for (fen, moves, expected) in [
        ("4k/R4/5/5/K4[] w - - 0 1", &checking, "perpetual_check"),
        ("4k/5/5/2R2/K4[] w - - 0 1", &quiet, "repetition"),
    ] {
        let on_compact = claims(&minishogi, fen, moves);
        let on_interpreter = claims(&interpreter("minishogi"), fen, moves);
        assert_eq!(on_compact, on_interpreter, "{fen} {moves}");
        assert_eq!(
            on_compact.as_ref().map(|(_, reason)| reason.as_str()),
            Some(expected),
            "{fen} {moves}"
        );
    }
}
