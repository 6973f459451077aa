//! Malformed positions and moves never panic: mutated FENs and move strings are fed to the reader of
//! every example, and each either reads or gives an error.

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root, Rng};

const NOISE: &[&str] = &[
    "/",
    "9",
    "99999999999999999999",
    "[",
    "]",
    "+",
    "~",
    "(",
    ")",
    "(0K)",
    "*",
    "|",
    "//",
    " ",
    "-",
    "w",
    "b",
    "é",
    "\0",
    "KQkq",
    "e9",
    "3+3",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        match rng.below(4) {
            0 if !chars.is_empty() => {
                let at = rng.below(chars.len());
                chars.remove(at);
            }
            1 => {
                let at = rng.below(chars.len() + 1);
                let noise: Vec<char> = rng.pick(NOISE).chars().collect();
                for (i, c) in noise.into_iter().enumerate() {
                    chars.insert(at + i, c);
                }
            }
            2 if chars.len() > 2 => {
                let (a, b) = (rng.below(chars.len()), rng.below(chars.len()));
                chars.swap(a, b);
            }
            _ => chars.truncate(rng.below(chars.len() + 1)),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_positions_and_moves_never_panic() {
    let mut rng = Rng::new(0xfe11);
    let mut tried = 0;
    for example in vdl_files(&workspace_root().join("examples")) {
        let game = vdl_dsl::check::check_source(&read_text(&example))
            .game
            .expect("examples check");
        let variant = Interpreter::new(game).expect("examples load");
        let mut start = variant.start();
        let text = variant.write_position(&start);
        let mut moves = Vec::new();
        variant.legal_moves(&mut start, &mut moves);
        let move_texts: Vec<String> = moves
            .iter()
            .map(|m| variant.write_move(&start, *m))
            .collect();
        for _ in 0..150 {
            let bad = mutate(&mut rng, &text);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                if let Ok(mut position) = variant.parse_position(&bad) {
                    // A position that reads must also be usable.
                    let mut list = Vec::new();
                    variant.legal_moves(&mut position, &mut list);
                    let _ = variant.write_position(&position);
                }
            }));
            assert!(
                outcome.is_ok(),
                "{}: reading `{bad}` panicked",
                example.display()
            );
            if let Some(mv) = move_texts.first() {
                let bad_move = mutate(&mut rng, mv);
                let mut position = variant.start();
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let _ = variant.parse_move(&mut position, &bad_move);
                }));
                assert!(
                    outcome.is_ok(),
                    "{}: a mutated move panicked",
                    example.display()
                );
            }
            tried += 1;
        }
    }
    assert!(tried > 1000);
}
