//! Bughouse on two boards (examples/bughouse-two-boards.vdl): teams of partners, captures into the
//! partner's hand and team results, on the reference interpreter and on the compiled engine (the hook
//! form: the game has no compact form).
//!
//! No engine counts this game, so the counts here come from chess: until a capture on one board can
//! change what the other board's player holds, the two boards are two independent chess games played
//! in turns (White on A, White on B, Black on A, Black on B). Chess has 20 first moves and 8,902 move
//! paths of three plies (the published perft of the start position), so the first four plies give
//! 20^4 paths and five give 8,902 × 20 × 20 (board A has had three plies, board B two).

use std::collections::BTreeSet;

use vdl_runtime::interp::Position;
use vdl_runtime::{perft::perft, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

#[allow(unused, clippy::all)]
mod game_bughouse_two_boards {
    include!(concat!(env!("OUT_DIR"), "/game_bughouse_two_boards.rs"));
}

const A_WHITE: usize = 0;
const A_BLACK: usize = 1;
const B_WHITE: usize = 2;
const B_BLACK: usize = 3;

fn interpreter() -> Interpreter {
    let path = workspace_root().join("examples/bughouse-two-boards.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    let game = checked.game.unwrap_or_else(|| {
        panic!(
            "bughouse-two-boards.vdl does not check: {:?}",
            checked.problems
        )
    });
    Interpreter::new(game).expect("the game loads")
}

fn engines() -> Vec<(&'static str, Interpreter)> {
    vec![
        ("interpreter", interpreter()),
        (
            "compiled",
            game_bughouse_two_boards::engine().expect("the compiled game loads"),
        ),
    ]
}

/// The position after `moves` from the start.
fn after(v: &Interpreter, moves: &str) -> Position {
    let mut pos = v.start();
    for text in moves.split_whitespace() {
        let mv = v
            .parse_move(&mut pos, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        v.make(&mut pos, mv);
    }
    pos
}

fn piece(v: &Interpreter, letter: &str) -> usize {
    v.game
        .pieces
        .iter()
        .position(|p| p.letter == letter)
        .expect("a piece")
}

fn moves(v: &Interpreter, pos: &mut Position) -> BTreeSet<String> {
    let mut list = Vec::new();
    v.legal_moves(pos, &mut list);
    list.iter().map(|&m| v.write_move(pos, m)).collect()
}

#[test]
fn the_first_plies_are_two_chess_games_in_turns() {
    for (name, v) in engines() {
        let mut pos = v.start();
        assert_eq!(pos.side, A_WHITE, "{name}");
        for (depth, expected) in [(1, 20), (2, 400), (3, 8_000), (4, 160_000)] {
            assert_eq!(
                perft(&v, &mut pos, depth),
                expected,
                "{name}: perft {depth}"
            );
        }
        // The first player's 20 moves are all on board A (files a..h in lower case).
        let first = moves(&v, &mut pos);
        assert_eq!(first.len(), 20, "{name}");
        assert!(
            first.contains("e2e4") && first.contains("g1f3"),
            "{name}: {first:?}"
        );
        // Then White on B moves, on board B only.
        let mut pos = after(&v, "e2e4");
        assert_eq!(pos.side, B_WHITE, "{name}");
        let second = moves(&v, &mut pos);
        assert_eq!(second.len(), 20, "{name}");
        assert!(
            second.contains("E2E4") && !second.contains("d2d4"),
            "{name}"
        );
    }
}

#[test]
fn five_plies_count_three_of_chess_on_one_board_and_two_on_the_other() {
    let v = game_bughouse_two_boards::engine().expect("the compiled game loads");
    assert_eq!(perft(&v, &mut v.start(), 5), 8_902 * 20 * 20);
}

#[test]
fn a_capture_goes_to_the_capturers_partners_hand() {
    for (name, v) in engines() {
        let pawn = piece(&v, "P");
        // White on A takes a pawn: it goes to Black on B, his partner.
        let pos = after(&v, "e2e4 E2E4 d7d5 E7E5 e4d5");
        let held: Vec<u32> = (0..4).map(|p| u32::from(pos.hands[p][pawn])).collect();
        assert_eq!(held, vec![0, 0, 0, 1], "{name}: pawns held by each player");
        // Black on A takes back with the queen: the pawn goes to White on B.
        let mut pos = after(&v, "e2e4 E2E4 d7d5 E7E5 e4d5 D2D4 d8d5");
        assert_eq!(pos.hands[B_WHITE][pawn], 1, "{name}");
        assert_eq!(pos.hands[B_BLACK][pawn], 1, "{name}");
        assert_eq!(pos.side, B_BLACK, "{name}");
        // Black on B may drop his pawn on every empty cell of ranks 2 to 7 of board B (rank 2: 2,
        // rank 3: 8, rank 4: 6, rank 5: 7, rank 6: 8, rank 7: 1), and nowhere on board A.
        let all = moves(&v, &mut pos);
        let drops: Vec<&String> = all.iter().filter(|m| m.starts_with("P@")).collect();
        assert_eq!(drops.len(), 32, "{name}: {drops:?}");
        assert!(
            drops
                .iter()
                .all(|m| m[2..].starts_with(|c: char| c.is_ascii_uppercase())),
            "{name}: {drops:?}"
        );
        // White on A, whose partner has captured nothing, has no drop.
        let mut pos = after(&v, "e2e4 E2E4 d7d5 E7E5 e4d5 D2D4 d8d5 E5D4");
        assert_eq!(
            pos.hands[A_WHITE][pawn], 1,
            "{name}: Black on B's capture goes to White on A"
        );
        assert_eq!(pos.side, A_WHITE, "{name}");
        assert!(moves(&v, &mut pos).iter().any(|m| m == "P@e6"), "{name}");
    }
}

#[test]
fn a_checkmate_wins_for_the_team_of_the_player_who_gave_it() {
    for (name, v) in engines() {
        // The fool's mate on board A: Black on A mates White on A. The player who moved last before
        // White on A is his own partner, Black on B; the game is Black on A's and his partner's.
        let mut pos = after(&v, "f2f3 A2A3 e7e5 A7A6 g2g4 B2B3 d8h4 B7B6");
        assert_eq!(pos.side, A_WHITE, "{name}");
        let result = v.outcome(&mut pos).expect("the game is over");
        assert_eq!(result.reason, "checkmate", "{name}");
        assert_eq!(result.winner, Some(A_BLACK), "{name}");
        assert_eq!(v.partner(A_BLACK), Some(B_WHITE), "{name}");
        // Before White on A's turn the game goes on: Black on B may still move.
        let mut pos = after(&v, "f2f3 A2A3 e7e5 A7A6 g2g4 B2B3 d8h4");
        assert_eq!(v.outcome(&mut pos), None, "{name}");
    }
}

#[test]
fn a_piece_from_the_partner_can_parry_a_mate() {
    for (name, v) in engines() {
        // As in the fool's mate, but Black on B has just taken a pawn on board B, which went to his
        // partner White on A: dropped on f2 or g3, it blocks the queen's check, and nothing else
        // does.
        let mut pos = after(&v, "f2f3 E2E4 e7e5 D7D5 g2g4 A2A3 d8h4 D5E4");
        assert_eq!(pos.side, A_WHITE, "{name}");
        assert_eq!(pos.hands[A_WHITE][piece(&v, "P")], 1, "{name}");
        let legal: Vec<String> = moves(&v, &mut pos).into_iter().collect();
        assert_eq!(
            legal,
            vec!["P@f2".to_string(), "P@g3".to_string()],
            "{name}"
        );
        assert_eq!(v.outcome(&mut pos), None, "{name}");
    }
}
