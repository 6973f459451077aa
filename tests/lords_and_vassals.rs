//! Lords and Vassals scenarios (shared/rules/lords-and-vassals.md, section 10) that the interpreter
//! runs so far: the seeded setup (S1) and the opening moves with pins (S2). Custodian capture,
//! freezing and the early end of a turn come next.

use std::collections::BTreeSet;

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

fn game(options: &[(&str, &str)]) -> Interpreter {
    let path = workspace_root().join("examples/lords-and-vassals.vdl");
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("the rule file checks");
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    Interpreter::with_options(game, &options).expect("the game loads")
}

#[test]
fn s1_seed_zero_gives_the_specified_setup() {
    let variant = game(&[]);
    let text = variant.write_position(&variant.start());
    assert_eq!(
        text.split_whitespace().take(2).collect::<Vec<_>>(),
        ["LLVLVLVV/VLVVLLLV/8/8/8/8/vlllvvlv/lvvvlllv", "b"]
    );
}

#[test]
fn s1_seed_one_and_a_setup_code_agree() {
    // §5.3 / S1: seed 1 gives the setup code LVVLLVVLVLVVLVLL/LVVLLVVVLLLVVLLV.
    let seeded = game(&[("seed", "1")]);
    let fixed = game(&[
        ("setup", "fixed"),
        ("code", "LVVLLVVLVLVVLVLL/LVVLLVVVLLLVVLLV"),
    ]);
    assert_eq!(
        seeded.write_position(&seeded.start()),
        fixed.write_position(&fixed.start())
    );
}

#[test]
fn s2_black_has_eight_steps_and_thirteen_pins() {
    let variant = game(&[]);
    let mut position = variant.start();
    let mut moves = Vec::new();
    variant.legal_moves(&mut position, &mut moves);
    let got: BTreeSet<String> = moves
        .iter()
        .map(|m| variant.write_move(&position, *m))
        .collect();
    let expected: BTreeSet<String> = "a2-a3 b2-b3 c2-c3 d2-d3 e2-e3 f2-f3 g2-g3 h2-h3 \
         a1-a2 a1-b1 b2-a2 b2-b1 c2-c1 d2-d1 d2-e2 e1-d1 e1-e2 f1-f2 g1-h1 g2-f2 g2-h2"
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(got, expected);
}
