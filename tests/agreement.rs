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
