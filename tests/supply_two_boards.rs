//! Supply chess on two boards (examples/supply-two-boards.vdl): xiangqi for two teams, captures into
//! the partner's hand, drops on the player's own half of his own board that may not give check, and
//! the flying general and the palace on each board, on the reference interpreter and on the compiled
//! engine (the hook form: the game has no compact form).
//!
//! No engine counts this game, so the counts here come from Fairy-Stockfish 11.1's single-board supply
//! (`/usr/games/fairy-stockfish`, `setoption name UCI_Variant value supply`, `go perft N`), which is
//! the game of one board with the hands as the position gives them. The round is Red on A, Red on B,
//! Black on A, Black on B, and a piece captured on one board goes to the hand of the capturer's
//! partner on the other board, who moves two plies later. So:
//! - perft 1 is the moves of Red on A, one board's supply perft 1;
//! - perft 2 is perft 1 of board A times perft 1 of board B: what Red on A captures goes to Black on B,
//!   who has not moved yet, so Red on B's moves do not depend on Red on A's;
//! - perft 3 adds Black on A's replies, with his hand as Red on B's move left it: it is the sum, over
//!   Red on B's moves, of board A's supply perft 2 with Black's hand holding what that move took.

use std::collections::BTreeSet;

use vdl_runtime::interp::Position;
use vdl_runtime::{perft::perft, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

#[allow(unused, clippy::all)]
mod game_supply_two_boards {
    include!(concat!(env!("OUT_DIR"), "/game_supply_two_boards.rs"));
}

const A_RED: usize = 0;
const A_BLACK: usize = 1;
const B_RED: usize = 2;
const B_BLACK: usize = 3;

/// Both Red players take a horse with a cannon and both Black players take the cannon back with a
/// chariot: each player holds one piece, taken by his partner on the other board. Board A (and board B
/// alike) is the supply position `1rbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR[Cn] w`.
const HANDS: &str = "b3b10 B3B10 a10b10 A10B10";

fn interpreter() -> Interpreter {
    let path = workspace_root().join("examples/supply-two-boards.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    let game = checked.game.unwrap_or_else(|| {
        panic!(
            "supply-two-boards.vdl does not check: {:?}",
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
            game_supply_two_boards::engine().expect("the compiled game loads"),
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

/// The cells of the drops among `moves`.
fn drop_cells(moves: &BTreeSet<String>) -> BTreeSet<String> {
    moves
        .iter()
        .filter_map(|m| m.split_once('@').map(|(_, cell)| cell.to_string()))
        .collect()
}

/// The rank of a cell name (`e10` → 10).
fn rank(cell: &str) -> u32 {
    cell[1..].parse().expect("a rank")
}

#[test]
fn the_first_plies_count_as_single_board_supply() {
    for (name, v) in engines() {
        let mut pos = v.start();
        assert_eq!(pos.side, A_RED, "{name}");
        // Fairy-Stockfish supply from the start: perft 1 = 44, perft 2 = 1,920; with Black holding a
        // horse ([n]) perft 2 = 3,192. Of Red on B's 44 first moves two take a horse (the cannons'
        // b3b10 and h3h10), which then reaches Black on A: perft 3 = 42 × 1,920 + 2 × 3,192.
        for (depth, expected) in [(1, 44), (2, 44 * 44), (3, 42 * 1_920 + 2 * 3_192)] {
            assert_eq!(
                perft(&v, &mut pos, depth),
                expected,
                "{name}: perft {depth}"
            );
        }
        // The first player's moves are all on board A, the second's all on board B.
        let first = moves(&v, &mut pos);
        assert!(first.contains("h3e3") && first.contains("b3b10"), "{name}");
        assert!(first
            .iter()
            .all(|m| m.starts_with(|c: char| c.is_ascii_lowercase())));
        let mut pos = after(&v, "h3e3");
        assert_eq!(pos.side, B_RED, "{name}");
        let second = moves(&v, &mut pos);
        assert_eq!(second.len(), 44, "{name}");
        assert!(second
            .iter()
            .all(|m| m.starts_with(|c: char| c.is_ascii_uppercase())));
    }
}

#[test]
fn a_position_with_hands_counts_as_single_board_supply() {
    for (name, v) in engines() {
        let mut pos = after(&v, HANDS);
        let (cannon, horse) = (piece(&v, "C"), piece(&v, "N"));
        let held: Vec<(u32, u32)> = (0..4)
            .map(|p| {
                (
                    u32::from(pos.hands[p][cannon]),
                    u32::from(pos.hands[p][horse]),
                )
            })
            .collect();
        // Each capture went to the capturer's partner: Red on A's horse to Black on B, Red on B's to
        // Black on A, each Black player's cannon to the Red player of the other board.
        assert_eq!(held, vec![(1, 0), (0, 1), (1, 0), (0, 1)], "{name}");
        assert_eq!(pos.side, A_RED, "{name}");
        // Fairy-Stockfish supply, 1rbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR[Cn] w:
        // perft 1 = 63, perft 2 = 4,583 (and 4,583 with [Cnn]: a second horse adds no drop). Red on
        // B's 63 moves are the same; only h3h10 captures, a horse, which Black on A already holds.
        for (depth, expected) in [(1, 63), (2, 63 * 63), (3, 63 * 4_583)] {
            assert_eq!(
                perft(&v, &mut pos, depth),
                expected,
                "{name}: perft {depth}"
            );
        }
    }
}

#[test]
fn a_capture_on_one_board_goes_to_the_partners_hand_on_the_other() {
    for (name, v) in engines() {
        let horse = piece(&v, "N");
        // Red on A's cannon takes the horse on b10: it goes to Black on B, his partner.
        let pos = after(&v, "b3b10");
        let held: Vec<u8> = (0..4).map(|p| pos.hands[p][horse]).collect();
        assert_eq!(held, vec![0, 0, 0, 1], "{name}: horses held by each player");
        // At his turn Black on B may drop it on every empty cell of his own half of board B (ranks 6
        // to 10: 9 + 4 + 7 + 9 + 0, B10 now holding Red's cannon), and nowhere on board A.
        let mut pos = after(&v, "b3b10 B3B10 a10b10");
        assert_eq!(pos.side, B_BLACK, "{name}");
        let cells = drop_cells(&moves(&v, &mut pos));
        assert_eq!(cells.len(), 29, "{name}: {cells:?}");
        assert!(
            cells
                .iter()
                .all(|c| c.starts_with(|c: char| c.is_ascii_uppercase()) && rank(c) >= 6),
            "{name}: {cells:?}"
        );
        // Red on A holds nothing yet: his partner has taken nothing.
        let mut pos = after(&v, "b3b10 B3B10 a10b10 A10A9");
        assert_eq!(pos.side, A_RED, "{name}");
        assert!(drop_cells(&moves(&v, &mut pos)).is_empty(), "{name}");
    }
}

#[test]
fn drops_stay_on_the_players_own_half_of_his_own_board_and_give_no_check() {
    for (name, v) in engines() {
        // Red on A holds a cannon: the board's supply perft 1 lists 29 drops, on every empty cell of
        // ranks 1 to 5 of board A (0 + 9 + 8 + 4 + 9) but e5, where the cannon would check the
        // general on e10 over the soldier on e7.
        let mut pos = after(&v, HANDS);
        let cells = drop_cells(&moves(&v, &mut pos));
        assert_eq!(cells.len(), 29, "{name}: {cells:?}");
        assert!(
            cells
                .iter()
                .all(|c| c.starts_with(|c: char| c.is_ascii_lowercase()) && rank(c) <= 5),
            "{name}: {cells:?}"
        );
        assert!(
            cells.contains("e2") && !cells.contains("e5") && !cells.contains("e6"),
            "{name}"
        );
        // Black on A holds a horse: his drops are on ranks 6 to 10 of board A only.
        let mut pos = after(&v, &format!("{HANDS} a4a5 A4A5"));
        assert_eq!(pos.side, A_BLACK, "{name}");
        let cells = drop_cells(&moves(&v, &mut pos));
        assert!(
            !cells.is_empty()
                && cells
                    .iter()
                    .all(|c| c.starts_with(|c: char| c.is_ascii_lowercase()) && rank(c) >= 6),
            "{name}: {cells:?}"
        );
    }
}

#[test]
fn a_check_on_the_other_board_does_not_forbid_a_drop() {
    for (name, v) in engines() {
        // Black on B's cannon goes to E5 and checks Red on B over the soldier on E4. Red on A, who
        // moves next, still drops his cannon: the check was given on the other board, not by his
        // drop. Board A is then the supply position
        // 1rbakabnr/9/1c5c1/4p1p1p/p1p6/P1P6/4P1P1P/7C1/9/RNBAKABNR[Cn] w, whose perft 1 is 64, 29 of them
        // drops.
        let line = format!("{HANDS} a4a5 A4A5 a7a6 B8B5 c4c5 I4I5 c7c6 B5E5");
        let mut pos = after(&v, &line);
        assert_eq!(pos.side, A_RED, "{name}");
        let all = moves(&v, &mut pos);
        assert_eq!(all.len(), 64, "{name}");
        assert_eq!(drop_cells(&all).len(), 29, "{name}");
        // Red on B is in check at his turn.
        let mut pos = after(&v, &format!("{line} C@b2"));
        assert_eq!(pos.side, B_RED, "{name}");
        assert!(v.in_check(&mut pos), "{name}");
    }
}

#[test]
fn the_flying_general_holds_on_each_board() {
    for (name, v) in engines() {
        // On each board a Red soldier takes the Black soldier on the e file and stands alone between
        // the generals: it may go on, not aside.
        let line = "e4e5 E4E5 e7e6 E7E6 e5e6 E5E6 a7a6 A7A6";
        let mut pos = after(&v, line);
        assert_eq!(pos.side, A_RED, "{name}");
        let a = moves(&v, &mut pos);
        assert!(a.contains("e6e7"), "{name}: {a:?}");
        assert!(!a.contains("e6d6") && !a.contains("e6f6"), "{name}: {a:?}");
        let mut pos = after(&v, &format!("{line} a4a5"));
        assert_eq!(pos.side, B_RED, "{name}");
        let b = moves(&v, &mut pos);
        assert!(b.contains("E6E7"), "{name}: {b:?}");
        assert!(!b.contains("E6D6") && !b.contains("E6F6"), "{name}: {b:?}");
        // Once Red on B's soldier has moved on, the soldier of board A still may not step aside.
        let mut pos = after(&v, &format!("{line} a4a5 E6E7 i7i6 A6A5"));
        assert_eq!(pos.side, A_RED, "{name}");
        let a = moves(&v, &mut pos);
        assert!(!a.contains("e6d6") && !a.contains("e6f6"), "{name}: {a:?}");
    }
}

#[test]
fn the_palace_holds_on_each_board() {
    for (name, v) in engines() {
        // The general and the advisors stay in their palace: from the start, Red on A's general has
        // only e1e2 and each advisor only its step to e2.
        let mut pos = v.start();
        let first = moves(&v, &mut pos);
        let palace: BTreeSet<&str> = first
            .iter()
            .map(String::as_str)
            .filter(|m| m.starts_with("e1") || m.starts_with("d1") || m.starts_with("f1"))
            .collect();
        assert_eq!(palace, BTreeSet::from(["d1e2", "e1e2", "f1e2"]), "{name}");
        // The general walks to d3, the palace's corner: c3 and d4 are outside.
        let walk = "e1e2 A1A2 a7a6 A10A9 e2e3 A2A1 a6a5 A9A10 e3d3 A1A2 i7i6 A10A9";
        let mut pos = after(&v, walk);
        assert_eq!(pos.side, A_RED, "{name}");
        let corner = moves(&v, &mut pos);
        assert!(corner.contains("d3d2") && corner.contains("d3e3"), "{name}");
        assert!(
            !corner.contains("d3c3") && !corner.contains("d3d4"),
            "{name}"
        );
        // Red on A's cannon takes Black on A's advisor on d10 (over Black's cannon on d8): Black on B
        // may drop it only on the six empty cells of his own palace on board B.
        let mut pos = after(&v, "h3d3 A1A2 b8d8 A10A9 d3d10 A2A1 a10a9");
        assert_eq!(pos.side, B_BLACK, "{name}");
        assert_eq!(pos.hands[B_BLACK][piece(&v, "A")], 1, "{name}");
        let cells = drop_cells(&moves(&v, &mut pos));
        assert_eq!(
            cells,
            ["D8", "E8", "F8", "D9", "E9", "F9"]
                .into_iter()
                .map(String::from)
                .collect(),
            "{name}"
        );
    }
}
