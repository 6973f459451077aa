//! Merger moves (`merge BETZA onto PIECE... into PIECE in ZONE`): a small 2D game
//! (tests/inputs/check/ok/merger.vdl) and scenario 9 of Armies of Faith 5
//! (shared/rules/armies-of-faith-5.md §6.6, §6.11, §10), on the interpreter and the compiled engine.

use std::collections::BTreeSet;

use vdl_runtime::interp::{Occupant, Position};
use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

#[allow(unused, clippy::all)]
mod game_armies_of_faith_5 {
    include!(concat!(env!("OUT_DIR"), "/game_armies_of_faith_5.rs"));
}

fn load(path: &str) -> Interpreter {
    let checked = vdl_dsl::check::check_source(&read_text(&workspace_root().join(path)));
    let game = checked
        .game
        .unwrap_or_else(|| panic!("{path} does not check: {:?}", checked.problems));
    Interpreter::new(game).expect("the game loads")
}

fn mini() -> Interpreter {
    load("tests/inputs/check/ok/merger.vdl")
}

fn cell(v: &Interpreter, name: &str) -> usize {
    v.game
        .cells
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cell {name}"))
}

fn piece(v: &Interpreter, letter: &str) -> usize {
    v.game
        .pieces
        .iter()
        .position(|p| p.letter == letter)
        .unwrap_or_else(|| panic!("no piece {letter}"))
}

/// A position with only the listed pieces: (owner, letter, cell).
fn position(v: &Interpreter, side: usize, pieces: &[(usize, &str, &str)]) -> Position {
    let mut pos = v.start();
    for occ in pos.cells.iter_mut() {
        *occ = Occupant::EMPTY;
    }
    for &(owner, letter, at) in pieces {
        pos.cells[cell(v, at)] = Occupant::new(piece(v, letter), owner, false, false);
    }
    pos.side = side;
    pos.hash = v.full_hash(&pos);
    pos
}

fn moves<V: Variant>(v: &V, pos: &mut V::Position) -> BTreeSet<String> {
    let mut list = Vec::new();
    v.legal_moves(pos, &mut list);
    let texts: BTreeSet<String> = list.iter().map(|m| v.write_move(pos, *m)).collect();
    assert_eq!(texts.len(), list.len(), "two moves with the same text");
    texts
}

fn from(moves: &BTreeSet<String>, start: &str) -> BTreeSet<String> {
    moves
        .iter()
        .filter(|m| m.starts_with(start))
        .cloned()
        .collect()
}

fn set(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(String::from).collect()
}

fn at(v: &Interpreter, pos: &Position, name: &str) -> Option<(usize, String)> {
    let occ = pos.cells[cell(v, name)];
    (!occ.is_empty()).then(|| (occ.owner(), v.game.pieces[occ.piece()].letter.clone()))
}

/// Plays a move by its text and checks that make and unmake are exact and the hash incremental.
fn play_checked(v: &Interpreter, pos: &mut Position, text: &str) {
    let before = pos.clone();
    let mv = v.parse_move(pos, text).unwrap_or_else(|e| panic!("{e}"));
    let undo = v.make(pos, mv);
    assert_eq!(
        v.hash(pos),
        v.full_hash(pos),
        "incremental hash after {text}"
    );
    let after = pos.clone();
    v.unmake(pos, mv, undo);
    assert_eq!(*pos, before, "unmake of {text}");
    *pos = after;
}

#[test]
fn merger_onto_a_listed_friend_in_the_zone() {
    let v = mini();
    let mut pos = v.start();
    let all = moves(&v, &mut pos);
    // a2: a3 holds a friendly bishop (not listed), b3 a friendly knight on rank 3 (in the zone).
    assert_eq!(from(&all, "a2"), set("a2+b3"));
    // c1: the knight on c2 stands outside the zone (rank 2), and the empty fF cells are no targets.
    assert_eq!(from(&all, "c1"), set(""));
    assert_eq!(from(&all, "f4"), set("f4f5"));
    // Black merges in its own frame and zone (ranks 1..6 for black).
    let mut black = pos.clone();
    play_checked(&v, &mut black, "f4f5");
    assert_eq!(from(&moves(&v, &mut black), "a7"), set("a7a6 a7+b6"));
}

#[test]
fn merger_replaces_both_pieces_and_restarts_the_move_count() {
    let v = mini();
    let mut pos = v.start();
    pos.halfmove = 7;
    play_checked(&v, &mut pos, "a2+b3");
    assert_eq!(at(&v, &pos, "a2"), None);
    assert_eq!(at(&v, &pos, "b3"), Some((0, "Q".to_string())));
    assert_eq!(pos.halfmove, 0, "a merger restarts the move-rule count");
    let pieces = pos.cells.iter().filter(|o| !o.is_empty()).count();
    assert_eq!(pieces, 9, "one piece fewer than the 10 of the start");
    // The new queen moves at once on White's next turn.
    play_checked(&v, &mut pos, "e8d8");
    assert!(moves(&v, &mut pos).contains("b3b6"));
}

#[test]
fn merger_is_not_a_capture() {
    let v = mini();
    let mut pos = v.start();
    let mut list = Vec::new();
    v.legal_captures(&mut pos, &mut list);
    let captures: Vec<String> = list.iter().map(|m| v.write_move(&pos, *m)).collect();
    assert!(
        !captures.contains(&"a2+b3".to_string()),
        "a merger listed among captures: {captures:?}"
    );
}

#[test]
fn merger_steps_are_not_attacks() {
    let v = mini();
    // The white pawn on d4 would merge by fW onto d5 but captures only along fF: the black king may
    // step onto d5 (not attacked), not onto c5 (attacked by the capture).
    let mut pos = position(
        &v,
        1,
        &[
            (0, "K", "a1"),
            (0, "P", "d4"),
            (0, "N", "h3"),
            (1, "K", "c6"),
        ],
    );
    let black = moves(&v, &mut pos);
    assert!(black.contains("c6d5"), "d5 counted as attacked: {black:?}");
    assert!(
        !black.contains("c6c5"),
        "c5 is attacked by the pawn's fF capture"
    );
}

#[test]
fn merger_follows_the_legality_filter() {
    let v = mini();
    // The pawn on b2 is pinned along the b-file: merging onto c3 would expose the king.
    let mut pos = position(
        &v,
        0,
        &[
            (0, "K", "b1"),
            (0, "P", "b2"),
            (0, "N", "c3"),
            (1, "Q", "b8"),
            (1, "K", "h8"),
        ],
    );
    let white = moves(&v, &mut pos);
    assert!(!white.contains("b2+c3"), "a pinned pawn merged: {white:?}");
    // Without the pin, the merger is there.
    let mut free = position(
        &v,
        0,
        &[
            (0, "K", "a1"),
            (0, "P", "b2"),
            (0, "N", "c3"),
            (1, "Q", "b8"),
            (1, "K", "h8"),
        ],
    );
    assert!(moves(&v, &mut free).contains("b2+c3"));
}

// ---- Armies of Faith 5 ----

const CATHOLIC: usize = 0;
const PROTESTANT: usize = 1;
const BYZANTINE: usize = 2;
const ISLAMIC: usize = 3;

fn aof() -> Interpreter {
    load("examples/armies-of-faith-5.vdl")
}

/// Scenario 9: cK ev4, pK jz4, bK az4, iK as4, iP gt2, iY ht2, cY hu2, Islamic to move.
fn scenario_9(v: &Interpreter) -> Position {
    position(
        v,
        ISLAMIC,
        &[
            (CATHOLIC, "K", "ev4"),
            (PROTESTANT, "K", "jz4"),
            (BYZANTINE, "K", "az4"),
            (ISLAMIC, "K", "as4"),
            (ISLAMIC, "P", "gt2"),
            (ISLAMIC, "Y", "ht2"),
            (CATHOLIC, "Y", "hu2"),
        ],
    )
}

#[test]
fn armies_of_faith_scenario_9() {
    let v = aof();
    let compiled = game_armies_of_faith_5::engine().expect("the compiled engine loads");
    let mut pos = scenario_9(&v);
    let all = moves(&v, &mut pos);
    let pawn = "gt2-gu2 gt2+ht2 gt2xhu2 gt2xhu2=PC gt2xhu2=CL gt2xhu2=CM gt2xhu2=R gt2xhu2=N";
    assert_eq!(from(&all, "gt2"), set(pawn));
    let yeoman = from(&all, "ht2");
    assert_eq!(yeoman.len(), 31, "{yeoman:?}");
    assert!(yeoman.contains("ht2-iu2") && !yeoman.contains("ht2-iu2=R"));
    assert!(!yeoman.iter().any(|m| m.contains('+')), "{yeoman:?}");
    // The compiled engine (hook form) generates the same moves, the merger included.
    let mut compiled_pos = compiled
        .parse_position(&v.write_position(&pos))
        .expect("the position reads back");
    assert_eq!(moves(&compiled, &mut compiled_pos), all);
}

#[test]
fn armies_of_faith_merger_makes_an_islamic_queen() {
    let v = aof();
    let mut pos = scenario_9(&v);
    pos.halfmove = 12;
    // Rank-first cell names are read too (§6.11).
    play_checked(&v, &mut pos, "tg2+th2");
    assert_eq!(at(&v, &pos, "gt2"), None);
    assert_eq!(at(&v, &pos, "ht2"), Some((ISLAMIC, "Q".to_string())));
    assert_eq!(at(&v, &pos, "hu2"), Some((CATHOLIC, "Y".to_string())));
    assert_eq!(pos.halfmove, 0);
    assert_eq!(pos.side, CATHOLIC);
}

#[test]
fn armies_of_faith_no_merger_on_a_king_column_or_outside_the_zone() {
    let v = aof();
    // iP is2 with iY js2 in front of it (js: the Catholic King's column, compulsory promotion), and
    // iP et2 with iY ft2 (no camp): no merger either way.
    let mut pos = position(
        &v,
        ISLAMIC,
        &[
            (CATHOLIC, "K", "ev4"),
            (PROTESTANT, "K", "jz4"),
            (BYZANTINE, "K", "az4"),
            (ISLAMIC, "K", "as4"),
            (ISLAMIC, "P", "is2"),
            (ISLAMIC, "Y", "js2"),
            (ISLAMIC, "P", "et2"),
            (ISLAMIC, "Y", "ft2"),
        ],
    );
    let all = moves(&v, &mut pos);
    assert!(!all.iter().any(|m| m.contains('+')), "{all:?}");
}

/// Random Armies of Faith games, from the start and from a position where every army has a Pawn and a
/// Yeoman about to merge, that play a merger whenever one is legal: at every ply both engines offer the
/// same moves, make and unmake are exact and the hash incremental.
#[test]
fn armies_of_faith_random_games_with_mergers() {
    let v = aof();
    let compiled = game_armies_of_faith_5::engine().expect("the compiled engine loads");
    let mut rng = vdl_tests::Rng::new(0x5eed_aaf5);
    let mut mergers = 0;
    let pairs = position(
        &v,
        ISLAMIC,
        &[
            (CATHOLIC, "K", "js4"),
            (PROTESTANT, "K", "jz4"),
            (BYZANTINE, "K", "az4"),
            (ISLAMIC, "K", "as4"),
            (ISLAMIC, "P", "gt2"),
            (ISLAMIC, "Y", "ht2"),
            (CATHOLIC, "P", "dt3"),
            (CATHOLIC, "Y", "ct3"),
            (PROTESTANT, "P", "dy3"),
            (PROTESTANT, "Y", "cy3"),
            (BYZANTINE, "P", "gy3"),
            (BYZANTINE, "Y", "hy3"),
            (CATHOLIC, "R", "ev1"),
            (ISLAMIC, "N", "fw2"),
        ],
    );
    for game in 0..4 {
        let mut a = if game == 0 { v.start() } else { pairs.clone() };
        let mut b = compiled
            .parse_position(&v.write_position(&a))
            .expect("the position reads back");
        for ply in 0..300 {
            let expected = moves(&v, &mut a);
            assert_eq!(moves(&compiled, &mut b), expected, "ply {ply}");
            if expected.is_empty() {
                break;
            }
            let list: Vec<String> = expected.iter().cloned().collect();
            let text = match list.iter().find(|m| m.contains('+')) {
                Some(merger) => {
                    mergers += 1;
                    merger.clone()
                }
                None => {
                    // Mostly Pawn and Yeoman moves, so that they reach the enemy camps.
                    let infantry: Vec<String> = list
                        .iter()
                        .filter(|m| at(&v, &a, &m[..3]).is_some_and(|(_, l)| l == "P" || l == "Y"))
                        .cloned()
                        .collect();
                    if !infantry.is_empty() && !rng.one_in(4) {
                        rng.pick(&infantry).clone()
                    } else {
                        rng.pick(&list).clone()
                    }
                }
            };
            play_checked(&v, &mut a, &text);
            let mv = compiled.parse_move(&mut b, &text).expect("listed move");
            compiled.make(&mut b, mv);
            assert_eq!(
                compiled.write_position(&b),
                v.write_position(&a),
                "ply {ply}"
            );
        }
    }
    eprintln!("mergers played: {mergers}");
    assert!(mergers > 0, "no merger in the random games");
}
