//! Compiled engines against the reference interpreter: for every example, the legal move sets agree at
//! every ply of random playouts, and perft agrees with the reference tables (in tests/perft.rs the
//! interpreter is checked against the same tables).

use std::collections::BTreeSet;

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root, Rng};

include!(concat!(env!("OUT_DIR"), "/compiled.rs"));

fn interpreter(stem: &str) -> Interpreter {
    let path = workspace_root()
        .join("examples")
        .join(format!("{stem}.vdl"));
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("examples check");
    Interpreter::new(game).expect("examples load")
}

fn move_set(
    variant: &Interpreter,
    position: &mut vdl_runtime::interp::Position,
) -> BTreeSet<String> {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    moves
        .iter()
        .map(|m| variant.write_move(position, *m))
        .collect()
}

#[test]
fn compiled_and_interpreted_move_sets_agree_on_random_playouts() {
    let games: usize = std::env::var("VDL_AGREEMENT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut rng = Rng::new(0xa9ee);
    let mut positions = 0;
    for (stem, build) in ENGINES {
        let compiled = build().unwrap_or_else(|e| panic!("{stem}: {e}"));
        let reference = interpreter(stem);
        for _ in 0..games {
            let mut a = reference.start();
            let mut b = compiled.start();
            for ply in 0..60 {
                let expected = move_set(&reference, &mut a);
                let got = move_set(&compiled, &mut b);
                assert_eq!(
                    got,
                    expected,
                    "{stem}: ply {ply} of a playout, position {}",
                    reference.write_position(&a)
                );
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
                compiled.make(&mut b, mv);
            }
        }
    }
    assert!(positions > 1000, "only {positions} positions compared");
}

/// Every perft row of the reference tables (up to `VDL_PERFT_LIMIT` nodes, default 20000) with the
/// compiled engine: compiled == reference (tests/perft.rs checks interpreter == reference).
#[test]
fn compiled_engines_match_the_perft_tables() {
    let limit: u64 = std::env::var("VDL_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let root = workspace_root();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (stem, build) in ENGINES {
        let table = root.join("tests/perft").join(format!("{stem}.perft"));
        if !table.exists() {
            continue;
        }
        let compiled = build().unwrap_or_else(|e| panic!("{stem}: {e}"));
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
                let got = vdl_runtime::perft::perft(&compiled, &mut position, depth);
                checked += 1;
                if got != nodes {
                    failures.push(format!(
                        "{stem} `{fen}` depth {depth}: expected {nodes}, compiled {got}"
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
