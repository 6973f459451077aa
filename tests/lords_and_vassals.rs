//! Lords and Vassals scenarios (shared/rules/lords-and-vassals.md, section 10) that the interpreter
//! runs so far: the seeded setup (S1), the opening moves with pins (S2) and custodian captures (S6, S7,
//! S9, S10). Freezing, the early end of a turn and the position strings with stacks come next.

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

/// Plays one single move from a scenario position and returns the board part of the result.
fn after(fen: &str, mv: &str) -> String {
    let variant = game(&[]);
    let mut position = variant.parse_position(fen).expect("scenario position");
    let parsed = variant
        .parse_move(&mut position, mv)
        .expect("legal scenario move");
    variant.make(&mut position, parsed);
    variant
        .write_position(&position)
        .split_whitespace()
        .next()
        .expect("a board")
        .to_string()
}

#[test]
fn custodian_captures_of_the_specification() {
    // S6 (a) basic capture, (b) safe entry between two enemies.
    assert_eq!(
        after("8/8/8/3l4/3L4/2v5/8/7L b", "c3-d3"),
        "8/8/8/3l4/8/3v4/8/7L"
    );
    assert_eq!(
        after("8/8/8/8/2L1L3/3v4/8/7L b", "d3-d4"),
        "8/8/8/8/2LvL3/8/8/7L"
    );
    // S7 self-capture.
    assert_eq!(
        after("8/8/8/8/8/3v4/1vl5/7L b", "d3-d2"),
        "8/8/8/8/8/8/1v1v4/7L"
    );
    // S9 the nearest own unit closes the sandwich; open rows and static sandwiches do not capture.
    assert_eq!(
        after("8/8/3v4/3V4/3l4/1LV1VlLv/3v4/L7 b", "d2-d3"),
        "8/8/3v4/3V4/3l4/1LVv1lLv/8/L7"
    );
    // S10 corner capture, enemy and own.
    assert_eq!(
        after("8/8/8/8/8/v7/8/Vl5L b", "a3-a2"),
        "8/8/8/8/8/8/v7/1l5L"
    );
    assert_eq!(
        after("6vl/8/7v/8/8/8/8/L7 b", "h6-h7"),
        "6v1/7v/8/8/8/8/8/L7"
    );
}
