//! Lords and Vassals: every test scenario of section 10 of the specification
//! (shared/rules/lords-and-vassals.md, S1–S20) and the perft example of section 6.10, against
//! examples/lords-and-vassals.vdl, run on the reference interpreter and on both forms of the compiled
//! engine, the hook form and the compact form (tests/build.rs generates them into OUT_DIR).
//!
//! Positions are the specification's position strings (section 6.9, the rule file's `position`
//! template): `<board> <side> <done> <frozen> <counts>`. Moves are `<from>-<to>`; "moves of X" are the
//! legal single moves starting on X. Black is player 0.

use std::collections::BTreeSet;
use std::sync::Arc;

use vdl_runtime::interp::Position;
use vdl_runtime::Interpreter;
use vdl_tests::{read_text, workspace_root, AnyEngine, AnyPosition};

// Only this example's module of the generated code; including the single file keeps this test cheap to
// build.
#[allow(unused, clippy::all)]
mod game_lords_and_vassals {
    include!(concat!(env!("OUT_DIR"), "/game_lords_and_vassals.rs"));
}

const BLACK: usize = 0;
const WHITE: usize = 1;

/// One engine under test, with a name for the assertion messages.
struct Engine {
    name: &'static str,
    v: Box<dyn AnyEngine>,
}

fn game() -> vdl_runtime::model::Game {
    let path = workspace_root().join("examples/lords-and-vassals.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    checked.game.unwrap_or_else(|| {
        panic!(
            "lords-and-vassals.vdl does not check: {:?}",
            checked.problems
        )
    })
}

fn options(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

fn interpreter(setup: &[(&str, &str)]) -> Engine {
    Engine {
        name: "interpreter",
        v: Box::new(Interpreter::with_options(game(), &options(setup)).expect("the game loads")),
    }
}

fn compact(setup: &[(&str, &str)]) -> Engine {
    use vdl_runtime::Variant;
    let mut v = game_lords_and_vassals::compact::fast_engine().expect("the compact form loads");
    let values: Vec<String> = setup.iter().map(|(n, v)| format!("{n}={v}")).collect();
    v.set_options(&values).expect("the options apply");
    Engine {
        name: "compact",
        v: Box::new(v),
    }
}

fn compiled(setup: &[(&str, &str)]) -> Engine {
    let v = if setup.is_empty() {
        game_lords_and_vassals::engine().expect("the compiled game loads")
    } else {
        Interpreter::with_options(game(), &options(setup))
            .expect("the game loads")
            .with_generator(Arc::new(game_lords_and_vassals::Compiled))
    };
    Engine {
        name: "compiled",
        v: Box::new(v),
    }
}

/// Runs a scenario against the interpreter and against both forms of the compiled engine, the hook
/// form and the compact form; all always run, and the test fails naming every engine that failed.
fn for_both(scenario: fn(&Engine)) {
    for_both_with(&[], scenario);
}

fn for_both_with(setup: &[(&str, &str)], scenario: fn(&Engine)) {
    vdl_tests::on_each_engine(
        [interpreter(setup), compiled(setup), compact(setup)].map(|e| (e.name, e)),
        scenario,
    );
}

fn set(moves: &str) -> BTreeSet<String> {
    moves.split_whitespace().map(String::from).collect()
}

impl Engine {
    fn pos(&self, text: &str) -> AnyPosition {
        self.v
            .parse_position(text)
            .unwrap_or_else(|e| panic!("cannot read `{text}`: {e}"))
    }

    fn text(&self, pos: &AnyPosition) -> String {
        self.v.write_position(pos)
    }

    /// All legal single moves, as written; no two share a text (section 6.10).
    fn moves(&self, pos: &mut AnyPosition) -> BTreeSet<String> {
        let moves = self.v.legal_moves(pos);
        let texts: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(texts.len(), moves.len(), "two moves with one text");
        texts
    }

    /// The legal single moves of the unit on `cell`.
    fn moves_of(&self, pos: &mut AnyPosition, cell: &str) -> BTreeSet<String> {
        let prefix = format!("{cell}-");
        self.moves(pos)
            .into_iter()
            .filter(|m| m.starts_with(&prefix))
            .collect()
    }

    /// Plays single moves given as text; each must be legal.
    fn play(&self, pos: &mut AnyPosition, moves: &str) {
        for text in moves.split_whitespace() {
            self.v.play(pos, text).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// Plays moves from a position and returns the position string reached.
    fn after(&self, start: &str, moves: &str) -> String {
        let mut pos = self.pos(start);
        self.play(&mut pos, moves);
        self.text(&pos)
    }

    fn winner(&self, pos: &mut AnyPosition) -> Option<Option<usize>> {
        self.v.outcome(pos).map(|r| r.winner)
    }
}

#[test]
fn s1_seed_zero_gives_the_specified_setup() {
    for_both(|e| {
        assert_eq!(
            e.text(&e.v.start()),
            "LLVLVLVV/VLVVLLLV/8/8/8/8/vlllvvlv/lvvvlllv b 0 - 0,0,0,0"
        );
    });
}

#[test]
fn s1_seed_one_and_its_setup_code_agree() {
    // §5.3 / S1: seed 1 gives the setup code LVVLLVVLVLVVLVLL/LVVLLVVVLLLVVLLV.
    let seeded = interpreter(&[("seed", "1")]);
    let fixed = interpreter(&[
        ("setup", "fixed"),
        ("code", "LVVLLVVLVLVVLVLL/LVVLLVVVLLLVVLLV"),
    ]);
    assert_eq!(seeded.text(&seeded.v.start()), fixed.text(&fixed.v.start()));
    for_both_with(&[("seed", "1")], |e| {
        // Black's home from the code's first half: a1..h1 = LVVLLVVL, a2..h2 = VLVVLVLL.
        assert!(e
            .text(&e.v.start())
            .ends_with("/vlvvlvll/lvvllvvl b 0 - 0,0,0,0"));
    });
}

#[test]
fn s2_opening_moves_and_self_captures() {
    for_both(|e| {
        let mut start = e.v.start();
        assert_eq!(
            e.moves(&mut start),
            set("a2-a3 b2-b3 c2-c3 d2-d3 e2-e3 f2-f3 g2-g3 h2-h3 \
                 a1-a2 a1-b1 b2-a2 b2-b1 c2-c1 d2-d1 d2-e2 e1-d1 e1-e2 f1-f2 g1-h1 g2-f2 g2-h2")
        );
        let initial = e.text(&start);
        // (a) the pin a1-a2 self-captures b2; the lord on a2 is frozen.
        let mut pos = e.pos(&initial);
        e.play(&mut pos, "a2-a3 a1-a2");
        assert_eq!(
            e.text(&pos),
            "LLVLVLVV/VLVVLLLV/8/8/8/v7/l1llvvlv/1vvvlllv b 2 a2 0,0,0,0"
        );
        assert!(e.moves_of(&mut pos, "a2").is_empty());
        // (b) the pin e1-e2 self-captures d2 and f2.
        assert_eq!(
            e.after(&initial, "e1-e2"),
            "LLVLVLVV/VLVVLLLV/8/8/8/8/vll1(lv)1lv/lvvv1llv b 1 e2 0,0,0,0"
        );
    });
}

#[test]
fn s3_vassal_moves() {
    for_both(|e| {
        let mut pos = e.pos("8/6v1/6v1/3V4/3vL3/3(Lv)4/8/7L b");
        assert_eq!(e.moves_of(&mut pos, "d4"), set("d4-c4 d4-d6"));
        assert_eq!(e.moves_of(&mut pos, "g6"), set("g6-f6 g6-g5 g6-h6"));
    });
}

#[test]
fn s4_lord_moves_and_the_stack_limit() {
    for_both(|e| {
        let mut pos = e.pos("8/8/4L3/3vlV2/8/8/8/7L b");
        assert_eq!(e.moves_of(&mut pos, "e5"), set("e5-e4 e5-e7 e5-d5 e5-f5"));
        let mut pos = e.pos("7(lV)/8/4L3/3vlV2/8/8/8/(lv)6L b");
        assert_eq!(e.moves_of(&mut pos, "e5"), set("e5-e4 e5-e7"));
    });
}

#[test]
fn s5_stacks_move_only_by_unpinning() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/3v4/2v(lV)4/3L4/8/7L b");
        assert_eq!(e.moves_of(&mut pos, "d4"), set("d4-e4"));
        let mut pos = e.pos("8/8/8/3v4/2v(lV)4/3L4/8/7L w");
        assert!(e.moves_of(&mut pos, "d4").is_empty());
        assert_eq!(e.moves_of(&mut pos, "d3"), set("d3-c3 d3-d2 d3-e3"));
    });
}

#[test]
fn s6_basic_capture_freezing_and_safe_entry() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/3l4/3L4/2v5/8/7L b");
        e.play(&mut pos, "c3-d3");
        assert_eq!(e.text(&pos), "8/8/8/3l4/8/3v4/8/7L b 1 d3 1,0,0,0");
        assert!(e.moves_of(&mut pos, "d3").is_empty());

        let mut pos = e.pos("8/8/8/8/2L1L3/3v4/8/7L b");
        e.play(&mut pos, "d3-d4");
        assert_eq!(e.text(&pos), "8/8/8/8/2LvL3/8/8/7L b 1 - 0,0,0,0");
        assert_eq!(e.moves_of(&mut pos, "d4"), set("d4-d3 d4-d5"));
    });
}

#[test]
fn s7_self_capture() {
    for_both(|e| {
        assert_eq!(
            e.after("8/8/8/8/8/3v4/1vl5/7L b", "d3-d2"),
            "8/8/8/8/8/8/1v1v4/7L b 1 d2 0,0,0,0"
        );
    });
}

#[test]
fn s8_line_capture_including_a_stack() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/2LV(Lv)l2/1v6/8/8/7L b");
        e.play(&mut pos, "b4-b5");
        assert_eq!(e.text(&pos), "8/8/8/1v2vl2/8/8/8/7L b 1 b5 2,1,0,0");
        assert_eq!(e.moves_of(&mut pos, "e5"), set("e5-d5 e5-e4 e5-e6"));
    });
}

#[test]
fn s9_the_nearest_own_unit_closes_the_sandwich() {
    for_both(|e| {
        assert_eq!(
            e.after("8/8/3v4/3V4/3l4/1LV1VlLv/3v4/L7 b", "d2-d3"),
            "8/8/3v4/3V4/3l4/1LVv1lLv/8/L7 b 1 d3 0,1,0,0"
        );
    });
}

#[test]
fn s10_corner_capture_of_enemy_and_own_units() {
    for_both(|e| {
        assert_eq!(
            e.after("8/8/8/8/8/v7/8/Vl5L b", "a3-a2"),
            "8/8/8/8/8/8/v7/1l5L b 1 a2 0,1,0,0"
        );
        assert_eq!(
            e.after("6vl/8/7v/8/8/8/8/L7 b", "h6-h7"),
            "6v1/7v/8/8/8/8/8/L7 b 1 h7 0,0,0,0"
        );
    });
}

#[test]
fn s11_capturing_a_stack_frees_the_vassal() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/5v2/4(Lv)3/4l3/8/7L b");
        e.play(&mut pos, "f5-e5");
        assert_eq!(e.text(&pos), "8/8/8/4v3/4v3/4l3/8/7L b 1 e5 1,0,0,0");
        assert_eq!(e.moves_of(&mut pos, "e4"), set("e4-d4 e4-f4"));
        assert!(e.moves_of(&mut pos, "e5").is_empty());
    });
}

#[test]
fn s12_a_full_turn_pin_then_unpin_to_capture() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/2lV4/8/3v4/8/v6L b");
        e.play(&mut pos, "c5-d5 d3-d4 d5-d6");
        assert_eq!(e.text(&pos), "8/8/3l4/8/3v4/8/8/v6L b 3 d6 0,1,0,0");
        e.play(&mut pos, "a1-a2");
        assert_eq!(e.text(&pos), "8/8/3l4/8/3v4/8/v7/7L w 0 - 0,1,0,0");
    });
}

#[test]
fn s13_a_jump_freezes_and_the_turn_ends_early() {
    for_both(|e| {
        let start = "7L/8/8/3V4/3v4/8/8/8 b";
        assert_eq!(
            e.after(start, "d4-d6"),
            "7L/8/3v4/3V4/8/8/8/8 w 0 - 0,0,0,0"
        );
        // §6.10: perft(1) = 4 and perft(2) = 18, with no pass ply.
        let mut pos = e.pos(start);
        assert_eq!(e.v.perft(&mut pos, 1), 4);
        assert_eq!(e.v.perft(&mut pos, 2), 18);
        let mut pos = e.pos(start);
        e.play(&mut pos, "d4-d6");
        assert_eq!(
            e.moves(&mut pos),
            set("h8-g8 h8-h7 d5-c5 d5-d4 d5-e5 d5-d7")
        );
    });
}

#[test]
fn s14_an_unpin_lifts_the_stack_limit() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/3V4/3l4/8/8/(lv)6(lV) b");
        assert_eq!(e.moves_of(&mut pos, "d4"), set("d4-c4 d4-d3 d4-e4"));
        e.play(&mut pos, "a1-a2");
        assert_eq!(e.text(&pos), "8/8/8/3V4/3l4/8/l7/v6(lV) b 1 a2 0,0,0,0");
        assert_eq!(e.moves_of(&mut pos, "d4"), set("d4-c4 d4-d3 d4-e4 d4-d5"));
    });
}

#[test]
fn s15_a_pin_that_captures_freezes_the_lord() {
    for_both(|e| {
        let mut pos = e.pos("8/8/3v4/3L4/2lV4/8/8/7L b");
        e.play(&mut pos, "c4-d4");
        assert_eq!(e.text(&pos), "8/8/3v4/8/3(lV)4/8/8/7L b 1 d4 1,0,0,0");
        assert!(e.moves_of(&mut pos, "d4").is_empty());
    });
}

#[test]
fn s16_several_captures_in_one_move() {
    for_both(|e| {
        assert_eq!(
            e.after("8/8/4L3/8/2lV1LVv/4v3/8/7L b", "e3-e4"),
            "8/8/4L3/8/2l1v2v/8/8/7L b 1 e4 1,2,0,0"
        );
    });
}

#[test]
fn s17_a_jump_that_captures_on_landing() {
    for_both(|e| {
        assert_eq!(
            e.after("8/3l4/3V4/8/3L4/3l4/8/7L b", "d3-d5"),
            "8/3l4/8/3l4/3L4/8/8/7L b 1 d5 0,1,0,0"
        );
    });
}

#[test]
fn s18_the_fifth_lord_wins_in_the_middle_of_a_turn() {
    for_both(|e| {
        let mut pos = e.pos("7L/8/8/4l3/4L3/8/4v3/8 b 1 - 4,4,0,0");
        assert_eq!(e.winner(&mut pos), None, "4 lords and 4 vassals do not win");
        e.play(&mut pos, "e2-e3");
        assert!(e.text(&pos).ends_with(" 5,4,0,0"));
        assert_eq!(e.winner(&mut pos), Some(Some(BLACK)));
        assert!(e.moves(&mut pos).is_empty(), "an ended game has no moves");
        assert_eq!(e.v.perft(&mut pos, 1), 0);
    });
}

#[test]
fn s19_no_legal_move_at_the_start_of_a_turn_loses() {
    for_both(|e| {
        let mut pos = e.pos("8/8/8/8/8/4v3/3l4/1vlLlv2 b 3 - 0,0,0,0");
        e.play(&mut pos, "e3-d3");
        assert_eq!(e.text(&pos), "8/8/8/8/8/3v4/3l4/1vlLlv2 w 0 - 0,0,0,0");
        assert_eq!(e.winner(&mut pos), Some(Some(BLACK)));
        assert!(e.moves(&mut pos).is_empty());
    });
}

#[test]
fn s20_threefold_repetition_of_turn_start_positions() {
    for_both(|e| {
        let start = "7L/8/8/8/3l4/8/8/8 b";
        let mut pos = e.pos(start);
        let cycle = "d4-d5 d5-d4 d4-d5 d5-d4 h8-h7 h7-h8 h8-h7 h7-h8";
        e.play(&mut pos, cycle);
        assert_eq!(e.text(&pos), "7L/8/8/8/3l4/8/8/8 b 0 - 0,0,0,0");
        assert_eq!(e.winner(&mut pos), None, "the second occurrence");
        // Mid-turn positions repeat too, but only turn-start positions count.
        e.play(&mut pos, "d4-d5 d5-d4 d4-d5 d5-d4 h8-h7 h7-h8 h8-h7");
        assert_eq!(e.winner(&mut pos), None);
        e.play(&mut pos, "h7-h8");
        assert_eq!(
            e.winner(&mut pos),
            Some(None),
            "the third occurrence is a draw"
        );
        assert!(e.moves(&mut pos).is_empty());
    });
}

#[test]
fn the_no_capture_limit_counts_completed_turns() {
    // §7.4: 100 consecutive completed turns without a removal draw; a removal restarts the count at
    // the end of its turn. The count is not part of the position string, so it is set directly, on the
    // engines whose positions are the interpreter's (not the compact form).
    fn halfmove(pos: &mut AnyPosition) -> &mut u32 {
        &mut pos
            .downcast_mut::<Position>()
            .expect("an interpreter position")
            .halfmove
    }
    let scenario: fn(&Engine) = |e| {
        let mut pos = e.pos("7L/8/8/8/3l4/8/8/8 b");
        *halfmove(&mut pos) = 99;
        e.play(&mut pos, "d4-d5 d5-d6 d6-d7");
        assert_eq!(e.winner(&mut pos), None, "99 turns and a part");
        e.play(&mut pos, "d7-d8");
        assert_eq!(e.winner(&mut pos), Some(None), "100 completed turns");

        let mut pos = e.pos("8/8/8/3l4/3L4/2v5/8/7L b");
        *halfmove(&mut pos) = 99;
        e.play(&mut pos, "c3-d3 d5-d6 d6-d7 d7-d8");
        assert_eq!(*halfmove(&mut pos), 0, "the turn removed a piece");
        assert_eq!(e.winner(&mut pos), None);
    };
    vdl_tests::on_each_engine(
        [interpreter(&[]), compiled(&[])].map(|e| (e.name, e)),
        scenario,
    );
}

#[test]
fn capture_suffixes_are_accepted_when_they_name_every_captured_cell() {
    // §6.9, §6.10: `x<cell>` for every captured unit, in any order, or none at all.
    for_both(|e| {
        let s16 = "8/8/4L3/8/2lV1LVv/4v3/8/7L b";
        let result = "8/8/4L3/8/2l1v2v/8/8/7L b 1 e4 1,2,0,0";
        assert_eq!(e.after(s16, "e3-e4xd4xf4xg4"), result);
        assert_eq!(e.after(s16, "e3-e4xg4xd4xf4"), result);
        for wrong in [
            "e3-e4xd4",
            "e3-e4xd4xf4xg4xe6",
            "e3-e4xd4xd4xf4xg4",
            "e3-e4x",
        ] {
            let mut pos = e.pos(s16);
            assert!(
                e.v.parse_move(&mut pos, wrong).is_err(),
                "`{wrong}` is rejected"
            );
        }
        // S12's unpin captures the vassal left on the lord's start cell.
        let s12 = "8/8/8/2lV4/8/3v4/8/v6L b";
        assert_eq!(
            e.after(s12, "c5-d5 d3-d4 d5-d6xd5"),
            "8/8/3l4/8/3v4/8/8/v6L b 3 d6 0,1,0,0"
        );
    });
}

#[test]
fn position_strings_round_trip() {
    for_both(|e| {
        for text in [
            "LLVLVLVV/VLVVLLLV/8/8/8/8/vlllvvlv/lvvvlllv b 0 - 0,0,0,0",
            "8/8/3l4/8/3v4/8/8/v6L b 3 d6 0,1,0,0",
            "7(lV)/8/4L3/3vlV2/8/8/8/(lv)6L w 2 a1,a1/v,e5 3,4,1,2",
        ] {
            let pos = e.pos(text);
            assert_eq!(e.text(&pos), text);
            assert_eq!(e.v.hash(&pos), e.v.full_hash(&pos));
        }
        // A turn whose mover has no single move left has ended (§6.2 step 5).
        assert_eq!(
            e.text(&e.pos("7L/8/3v4/3V4/8/8/8/8 b 1 d6 0,0,0,0")),
            "7L/8/3v4/3V4/8/8/8/8 w 0 - 0,0,0,0"
        );
        // Fields after the side default to `0 - 0,0,0,0`.
        assert_eq!(
            e.text(&e.pos("8/8/8/8/8/8/8/l6L w")),
            "8/8/8/8/8/8/8/l6L w 0 - 0,0,0,0"
        );
        for bad in [
            "8/8/8/8/8/8/8/l6L w 4",
            "8/8/8/8/8/8/8/l6L w 0 c3",
            "8/8/8/8/8/8/8/l6L w 0 - 1,2,3",
            "8/8/8/8/8/8/8/(lVv)6L w",
            "8/8/8/8/8/8/8/l6L x",
        ] {
            assert!(e.v.parse_position(bad).is_err(), "`{bad}` is rejected");
        }
        let _ = WHITE;
    });
}
