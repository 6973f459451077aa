//! Team-Mate Chess: every test scenario of section 10 of the specification
//! (shared/rules/team-mate-chess.md, T1–T20) against examples/team-mate-chess.vdl, run on the reference
//! interpreter and on both forms of the compiled engine, the hook form and the compact form
//! (tests/build.rs generates them into OUT_DIR).
//!
//! Moves are compared as exact sets of the strings the engine writes, the coordinate notation of §6.7
//! and §6.8: `e2e4`, promotions `=X` (`e7e8=U`; the Brute pair is `e7e8=B`), castling as the king's move
//! (`e1g1`). White is player 0.
//!
//! "X is in check" is observed through the attack itself: the same position with the other side to move
//! must offer the capture of the king by the checking piece (the engines generate captures of a royal
//! piece as pseudo-legal moves; the legality filter only protects the mover's own king).

use std::collections::BTreeSet;

use vdl_runtime::{GameResult, Interpreter};
use vdl_tests::{read_text, workspace_root, AnyEngine, AnyPosition};

// Only this example's module of the generated code (tests/build.rs writes one file per example and
// `compiled.rs`, which includes all of them); including the single file keeps this test cheap to build.
#[allow(unused, clippy::all)]
mod game_team_mate_chess {
    include!(concat!(env!("OUT_DIR"), "/game_team_mate_chess.rs"));
}

/// One engine under test, with a name for the assertion messages.
struct Engine {
    name: &'static str,
    v: Box<dyn AnyEngine>,
}

fn interpreter() -> Engine {
    let path = workspace_root().join("examples/team-mate-chess.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    let game = checked
        .game
        .unwrap_or_else(|| panic!("team-mate-chess.vdl does not check: {:?}", checked.problems));
    Engine {
        name: "interpreter",
        v: Box::new(Interpreter::new(game).expect("team-mate-chess loads")),
    }
}

fn compiled() -> Engine {
    Engine {
        name: "compiled",
        v: Box::new(game_team_mate_chess::engine().expect("compiled team-mate-chess loads")),
    }
}

fn compact() -> Engine {
    Engine {
        name: "compact",
        v: Box::new(
            game_team_mate_chess::compact::fast_engine().expect("compact team-mate-chess loads"),
        ),
    }
}

/// Runs a scenario against the interpreter and against both forms of the compiled engine; all always
/// run, and the test fails naming every engine that failed.
fn for_both(scenario: fn(&Engine)) {
    vdl_tests::on_each_engine(
        [interpreter(), compiled(), compact()].map(|e| (e.name, e)),
        scenario,
    );
}

impl Engine {
    fn pos(&self, fen: &str) -> AnyPosition {
        self.v
            .parse_position(fen)
            .unwrap_or_else(|e| panic!("{}: cannot read `{fen}`: {e}", self.name))
    }

    /// All legal moves of the side to move, as written by the engine.
    fn moves(&self, pos: &mut AnyPosition) -> BTreeSet<String> {
        let moves = self.v.legal_moves(pos);
        let texts: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(
            texts.len(),
            moves.len(),
            "{}: two legal moves with the same text in {}",
            self.name,
            self.v.write_position(pos)
        );
        texts
    }

    /// The legal moves starting on one square.
    fn moves_from(&self, pos: &mut AnyPosition, from: &str) -> BTreeSet<String> {
        self.moves(pos)
            .into_iter()
            .filter(|m| m.starts_with(from))
            .collect()
    }

    /// Plays moves given as text; each must be legal.
    fn play(&self, pos: &mut AnyPosition, moves: &[&str]) {
        for text in moves {
            self.v
                .play(pos, text)
                .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        }
    }

    fn outcome(&self, pos: &mut AnyPosition) -> Option<GameResult> {
        self.v.outcome(pos)
    }

    /// The fields of the position string (board, side, castling, en passant, clocks).
    fn fields(&self, pos: &AnyPosition) -> Vec<String> {
        self.v
            .write_position(pos)
            .split_whitespace()
            .map(String::from)
            .collect()
    }

    fn board(&self, pos: &AnyPosition) -> String {
        self.fields(pos)[0].clone()
    }

    fn perft(&self, fen: &str, depth: u32) -> u64 {
        let mut pos = self.pos(fen);
        self.v.perft(&mut pos, depth)
    }

    /// Asserts the exact set of all legal moves.
    fn assert_moves(&self, fen: &str, expected: &str) {
        let mut pos = self.pos(fen);
        assert_eq!(
            self.moves(&mut pos),
            set(expected),
            "{}: all legal moves of `{fen}`",
            self.name
        );
    }

    /// Asserts the exact set of legal moves of the piece on `from`.
    fn assert_moves_from(&self, fen: &str, from: &str, expected: &str) {
        let mut pos = self.pos(fen);
        assert_eq!(
            self.moves_from(&mut pos, from),
            set(expected),
            "{}: legal moves from {from} in `{fen}`",
            self.name
        );
    }

    /// Whether the side to move is attacked by `capture` (e.g. `d4e6`, the checking piece taking the king
    /// on e6): the move is offered in the same position with the other side to move.
    fn king_attacked_by(&self, pos: &AnyPosition, capture: &str) -> bool {
        let mut fields = self.fields(pos);
        fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
        fields[3] = "-".to_string();
        let fen = fields.join(" ");
        let mut flipped = self.pos(&fen);
        self.moves(&mut flipped).contains(capture)
    }

    fn assert_in_check(&self, pos: &AnyPosition, capture: &str) {
        assert!(
            self.king_attacked_by(pos, capture),
            "{}: the side to move in `{}` should be in check by {capture}",
            self.name,
            self.v.write_position(pos)
        );
    }

    fn assert_not_over(&self, pos: &mut AnyPosition, what: &str) {
        let outcome = self.outcome(pos);
        assert!(
            outcome.is_none(),
            "{}: {what}: `{}` should not be over, got {outcome:?}",
            self.name,
            self.v.write_position(pos)
        );
    }

    /// Asserts the game is over with this winner and a reason containing `reason`, and that the ended
    /// position has no legal moves (§6.8).
    fn assert_result(
        &self,
        pos: &mut AnyPosition,
        winner: Option<usize>,
        reason: &str,
        what: &str,
    ) {
        let fen = self.v.write_position(pos);
        let outcome = self.outcome(pos);
        match &outcome {
            Some(r) if r.winner == winner && r.reason.contains(reason) => {}
            _ => panic!(
                "{}: {what}: `{fen}`: expected winner {winner:?} by `{reason}`, got {outcome:?}",
                self.name
            ),
        }
        assert!(
            self.moves(pos).is_empty(),
            "{}: {what}: the ended game `{fen}` still has legal moves",
            self.name
        );
    }
}

fn set(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(String::from).collect()
}

/// The eight promotion moves of one pawn move (`=U =F =E =M =N =C =J =B`, the last the Brute pair).
fn promotions(mv: &str) -> String {
    "UFEMNCJB".chars().map(|c| format!("{mv}={c} ")).collect()
}

const WHITE: Option<usize> = Some(0);
const DRAW: Option<usize> = None;

// ---------------------------------------------------------------------------------------------------
// T1 — initial position, move count and perft.

const T1: &str = "ufeakmnc/pppppppp/8/8/8/8/PPPPPPPP/UFEAKMNC w KQkq - 0 1";

fn t1_moves(e: &Engine) {
    let mut start = e.v.start();
    assert_eq!(e.v.write_position(&start), T1, "{}: start position", e.name);
    let pawns = "a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4";
    let pieces = "a1b3 b1d3 c1a3 c1e3 f1d3 f1h3 f1c4 g1f3 g1h3 h1g3 h1g4";
    let expected = set(&format!("{pawns} {pieces}"));
    assert_eq!(expected.len(), 27);
    assert_eq!(e.moves(&mut start), expected, "{}: T1 moves", e.name);
    e.assert_moves(T1, &format!("{pawns} {pieces}"));
    // No first move of White changes Black's 27 options.
    for mv in &expected {
        let mut pos = e.pos(T1);
        e.play(&mut pos, &[mv]);
        assert_eq!(
            e.moves(&mut pos).len(),
            27,
            "{}: Black's moves after {mv}",
            e.name
        );
    }
}

#[test]
fn t1_initial_moves() {
    for_both(t1_moves);
}

/// Perft rows above this many nodes run only when `VDL_PERFT_LIMIT` raises it (as in tests/perft.rs).
fn perft_limit() -> u64 {
    std::env::var("VDL_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

fn t1_perft(e: &Engine) {
    for (depth, nodes) in [(1, 27), (2, 729), (3, 20_378), (4, 564_773)]
        .into_iter()
        .filter(|&(_, n)| n <= perft_limit())
    {
        assert_eq!(e.perft(T1, depth), nodes, "{}: T1 perft({depth})", e.name);
    }
}

#[test]
fn t1_initial_perft() {
    for_both(t1_perft);
}

// ---------------------------------------------------------------------------------------------------
// T2 — perft of a position with every special rule.

const T2: &str = "u3k2c/1P2a1P1/2j5/3pP3/1C2B3/5M2/P4PPP/U3K2C w KQq d6 0 1";

fn t2_moves(e: &Engine) {
    let expected = format!(
        "a2a3 a2a4 g2g3 g2g4 h2h3 h2h4 e5e6 e5d6 {}{}{}{} a1b1 a1b3 a1c2 \
         b4a6 b4a7 b4c1 b4c2 b4c6 b4d3 b4d5 b4e3 f3c6 f3d1 f3d5 f3h5 e4d3 e4e3 h1g3 h1g4 \
         e1d1 e1d2 e1e2 e1f1 e1g1 e1c1",
        promotions("b7b8"),
        promotions("b7a8"),
        promotions("g7g8"),
        promotions("g7h8")
    );
    assert_eq!(set(&expected).len(), 65);
    e.assert_moves(T2, &expected);
    // Black's long castling is illegal in replies: the b7 pawn attacks c8.
    let mut pos = e.pos(T2);
    e.play(&mut pos, &["a2a3"]);
    let replies = e.moves(&mut pos);
    assert!(replies.contains("e8d8"), "{}: T2 reply e8d8", e.name);
    assert!(
        !replies.contains("e8c8"),
        "{}: T2 Black may not castle long",
        e.name
    );
    assert!(
        !replies.contains("e8g8"),
        "{}: T2 Black has no short right",
        e.name
    );
}

#[test]
fn t2_every_special_rule_moves() {
    for_both(t2_moves);
}

fn t2_perft(e: &Engine) {
    for (depth, nodes) in [(1, 65), (2, 1_894), (3, 104_135), (4, 3_107_054)]
        .into_iter()
        .filter(|&(_, n)| n <= perft_limit())
    {
        assert_eq!(e.perft(T2, depth), nodes, "{}: T2 perft({depth})", e.name);
    }
}

#[test]
fn t2_every_special_rule_perft() {
    for_both(t2_perft);
}

// ---------------------------------------------------------------------------------------------------
// T3 — Acromantula movement and blocking.

fn t3(e: &Engine) {
    e.assert_moves_from(
        "7k/8/6n1/3P4/3A4/8/8/7K w - - 0 1",
        "d4",
        "d4c4 d4e4 d4d3 d4f5 d4g6 d4f3 d4g2 d4b5 d4a6 d4b3 d4a2 d4c2 d4b1 d4e2 d4f1",
    );
    e.assert_moves_from(
        "7k/8/6n1/3P4/3A4/3P4/8/7K w - - 0 1",
        "d4",
        "d4c4 d4e4 d4f5 d4g6 d4f3 d4g2 d4b5 d4a6 d4b3 d4a2",
    );
}

#[test]
fn t3_acromantula_movement() {
    for_both(t3);
}

// ---------------------------------------------------------------------------------------------------
// T4 — Acromantula check, interposition on the turning square.

fn t4(e: &Engine) {
    let fen = "8/8/1n2k3/8/3A4/8/7P/7K b - - 0 1";
    e.assert_moves(fen, "b6d5 e6d6 e6d7 e6e5 e6e7 e6f6");
    let mut pos = e.pos(fen);
    e.assert_in_check(&pos, "d4e6");
    e.assert_not_over(&mut pos, "T4");
}

#[test]
fn t4_acromantula_check() {
    for_both(t4);
}

// ---------------------------------------------------------------------------------------------------
// T5 — Cobra movement.

fn t5(e: &Engine) {
    e.assert_moves_from(
        "7k/8/2p1P3/2P5/3C4/8/8/7K w - - 0 1",
        "d4",
        "d4b3 d4b5 d4c2 d4c6 d4e2 d4f3 d4f5 d4a3 d4a5 d4c1 d4e1 d4g3 d4g5",
    );
}

#[test]
fn t5_cobra_movement() {
    for_both(t5);
}

// ---------------------------------------------------------------------------------------------------
// T6 — Cobra camel check blocked on the knight square.

fn t6(e: &Engine) {
    let fen = "8/8/8/8/1n1k4/8/7P/2C4K b - - 0 1";
    e.assert_moves(fen, "b4d3 d4c3 d4c4 d4c5 d4d5 d4e3 d4e4 d4e5");
    let pos = e.pos(fen);
    e.assert_in_check(&pos, "c1d4");
}

#[test]
fn t6_cobra_camel_check() {
    for_both(t6);
}

// ---------------------------------------------------------------------------------------------------
// T7 — Adjutant movement.

fn t7(e: &Engine) {
    e.assert_moves_from(
        "8/7k/3n1p2/3P4/2PJ1p2/8/8/K7 w - - 0 1",
        "d4",
        "d4c5 d4b6 d4a7 d4e5 d4f6 d4c3 d4b2 d4e3 d4f2 d4g1 d4d6 d4d2 d4b4 d4f4",
    );
}

#[test]
fn t7_adjutant_movement() {
    for_both(t7);
}

// ---------------------------------------------------------------------------------------------------
// T8 — short-range leapers.

fn t8(e: &Engine) {
    e.assert_moves_from(
        "7k/8/5p2/4P3/3M4/2P5/8/7K w - - 0 1",
        "d4",
        "d4b2 d4a1 d4b6 d4a7 d4f2 d4g1 d4f6 d4g7",
    );
    for (piece, expected) in [
        ("F", "b2 b6 c4 d3 d5 e4 f2 f6"),
        ("E", "b2 b6 c3 c5 e3 e5 f2 f6"),
        ("U", "b3 b5 c2 c4 c6 d3 d5 e2 e4 e6 f3 f5"),
        ("N", "b3 b5 c2 c6 e2 e6 f3 f5"),
    ] {
        let fen = format!("7k/8/8/8/3{piece}4/8/P7/7K w - - 0 1");
        let expected: String = expected
            .split_whitespace()
            .map(|to| format!("d4{to} "))
            .collect();
        e.assert_moves_from(&fen, "d4", &expected);
    }
}

#[test]
fn t8_short_range_leapers() {
    for_both(t8);
}

// ---------------------------------------------------------------------------------------------------
// T9 — Brute check and Brute protection against the king.

fn t9(e: &Engine) {
    let fen = "8/8/4B3/4B3/4k3/8/8/K7 b - - 0 1";
    e.assert_moves(fen, "e4d3 e4e3 e4f3");
    let pos = e.pos(fen);
    e.assert_in_check(&pos, "e5e4");
}

#[test]
fn t9_brute_check_and_protection() {
    for_both(t9);
}

// ---------------------------------------------------------------------------------------------------
// T10 — a Brute never captures; a Brute on its first rank is immobile.

fn t10(e: &Engine) {
    e.assert_moves("7k/8/8/3B4/2np4/8/8/K3B3 w - - 0 1", "a1a2 a1b1 d5e4");
}

#[test]
fn t10_brute_never_captures() {
    for_both(t10);
}

// ---------------------------------------------------------------------------------------------------
// T11 — promotion options, pair placement, pair promotion with check.

fn t11(e: &Engine) {
    // (a)
    let fen = "7k/4P3/8/8/8/8/8/K7 w - - 0 1";
    e.assert_moves_from(fen, "e7", &promotions("e7e8"));
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["e7e8=B"]);
    assert_eq!(
        e.board(&pos),
        "4B2k/4B3/8/8/8/8/8/K7",
        "{}: T11a after e8=B",
        e.name
    );
    // (b)
    let fen = "4n2k/3P4/8/8/8/8/8/K7 w - - 0 1";
    e.assert_moves_from(
        fen,
        "d7",
        &format!("{}{}", promotions("d7d8"), promotions("d7e8")),
    );
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["d7e8=B"]);
    assert_eq!(
        e.board(&pos),
        "4B2k/3B4/8/8/8/8/8/K7",
        "{}: T11b after dxe8=B",
        e.name
    );
    // (c)
    let mut pos = e.pos("8/6P1/7k/8/8/8/8/2K5 w - - 0 1");
    e.play(&mut pos, &["g7g8=B"]);
    assert_eq!(
        e.board(&pos),
        "6B1/6B1/7k/8/8/8/8/2K5",
        "{}: T11c after g8=B",
        e.name
    );
    e.assert_in_check(&pos, "g7h6");
    assert_eq!(
        e.moves(&mut pos),
        set("h6g5 h6h5"),
        "{}: T11c Black's moves",
        e.name
    );
}

#[test]
fn t11_promotion_and_pair_promotion() {
    for_both(t11);
}

// ---------------------------------------------------------------------------------------------------
// T12 — Black pair promotion and Black Brute direction.

fn t12(e: &Engine) {
    let fen = "k7/8/8/8/8/8/3p4/7K b - - 0 1";
    e.assert_moves_from(fen, "d2", &promotions("d2d1"));
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["d2d1=B"]);
    assert_eq!(
        e.board(&pos),
        "k7/8/8/8/8/8/3b4/3b3K",
        "{}: T12 after d1=B",
        e.name
    );
    // Black Brutes move towards rank 8: d2 to c3 d3 e3, d1 to c2 e2 (d2 is its own Brute).
    e.play(&mut pos, &["h1g2"]);
    assert_eq!(
        e.moves(&mut pos),
        set("d2c3 d2d3 d2e3 d1c2 d1e2 a8a7 a8b7 a8b8"),
        "{}: T12 Black's moves after d1=B Kg2",
        e.name
    );
    // Their attacks (derived position: the White king next to the pair): the d2 Brute attacks c3, d3
    // (check) and e3; the d1 Brute attacks c2, d2 (protection) and e2. Only c4, d4, e4 remain.
    let fen = "k7/8/8/8/8/3K4/3b4/3b4 w - - 0 1";
    e.assert_moves(fen, "d3c4 d3d4 d3e4");
    let pos = e.pos(fen);
    e.assert_in_check(&pos, "d2d3");
}

#[test]
fn t12_black_pair_promotion() {
    for_both(t12);
}

// ---------------------------------------------------------------------------------------------------
// T13 — pair promotion resolves a pin that forbids single promotions.

fn t13(e: &Engine) {
    e.assert_moves(
        "8/1K1P3j/8/6k1/8/8/8/8 w - - 0 1",
        "d7d8=B b7a6 b7a7 b7a8 b7b6 b7b8 b7c6 b7c7 b7c8",
    );
}

#[test]
fn t13_pair_promotion_resolves_pin() {
    for_both(t13);
}

// ---------------------------------------------------------------------------------------------------
// T14 — en passant.

fn t14(e: &Engine) {
    let fen = "7k/8/8/3pP3/8/8/8/7K w - d6 0 1";
    e.assert_moves(fen, "e5d6 e5e6 h1g1 h1g2 h1h2");
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["e5d6"]);
    assert_eq!(
        e.board(&pos),
        "7k/8/3P4/8/8/8/8/7K",
        "{}: T14 after exd6",
        e.name
    );
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["h1g1", "h8g8"]);
    assert!(
        !e.moves(&mut pos).contains("e5d6"),
        "{}: T14 the en-passant right lasts one move only",
        e.name
    );
}

#[test]
fn t14_en_passant() {
    for_both(t14);
}

// ---------------------------------------------------------------------------------------------------
// T15 — castling.

fn t15(e: &Engine) {
    // (a)
    e.assert_moves_from(
        "4k3/8/8/8/6m1/8/PPPPPPPP/U3K2C w KQ - 0 1",
        "e1",
        "e1f1 e1g1",
    );
    // (b)
    let fen = "4k3/8/8/8/4m3/8/PPPPPPPP/U3K2C w KQ - 0 1";
    e.assert_moves_from(fen, "e1", "e1d1 e1f1 e1g1 e1c1");
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["e1g1"]);
    let fields = e.fields(&pos);
    assert_eq!(
        fields[0], "4k3/8/8/8/4m3/8/PPPPPPPP/U4CK1",
        "{}: T15b after O-O",
        e.name
    );
    assert_eq!(fields[2], "-", "{}: T15b castling rights after O-O", e.name);
    let mut pos = e.pos(fen);
    e.play(&mut pos, &["e1c1"]);
    assert_eq!(
        e.board(&pos),
        "4k3/8/8/8/4m3/8/PPPPPPPP/2KU3C",
        "{}: T15b after O-O-O",
        e.name
    );
    // (c)
    e.assert_moves_from(
        "u3k2c/pppppppp/8/4M3/8/8/8/4K3 b kq - 0 1",
        "e8",
        "e8d8 e8f8 e8g8 e8c8",
    );
    let mut pos = e.pos("u3k2c/pppppppp/8/4M3/8/8/8/4K3 b kq - 0 1");
    e.play(&mut pos, &["e8g8"]);
    assert_eq!(
        e.board(&pos),
        "u4ck1/pppppppp/8/4M3/8/8/8/4K3",
        "{}: T15c after O-O",
        e.name
    );
    let mut pos = e.pos("u3k2c/pppppppp/8/4M3/8/8/8/4K3 b kq - 0 1");
    e.play(&mut pos, &["e8c8"]);
    assert_eq!(
        e.board(&pos),
        "2ku3c/pppppppp/8/4M3/8/8/8/4K3",
        "{}: T15c after O-O-O",
        e.name
    );
}

#[test]
fn t15_castling() {
    for_both(t15);
}

// ---------------------------------------------------------------------------------------------------
// T16 — checkmates.

fn t16(e: &Engine) {
    let mut pos = e.pos("k7/2K5/1U6/2E5/8/8/8/8 b - - 0 1");
    e.assert_in_check(&pos, "b6a8");
    e.assert_result(&mut pos, WHITE, "checkmate", "T16a team mate");
    let mut pos = e.pos("7K/8/8/8/8/1B6/1B6/k7 b - - 0 1");
    e.assert_in_check(&pos, "b2a1");
    e.assert_result(&mut pos, WHITE, "checkmate", "T16b Brutes alone");
}

#[test]
fn t16_checkmates() {
    for_both(t16);
}

// ---------------------------------------------------------------------------------------------------
// T17 — stalemate.

fn t17(e: &Engine) {
    let mut pos = e.pos("k7/2K5/8/1U6/8/8/7P/8 b - - 0 1");
    assert!(
        !e.king_attacked_by(&pos, "b5a8"),
        "{}: T17 not in check",
        e.name
    );
    e.assert_result(&mut pos, DRAW, "stalemate", "T17");
}

#[test]
fn t17_stalemate() {
    for_both(t17);
}

// ---------------------------------------------------------------------------------------------------
// T18 — mating potential: a draw only when neither side has it.

const T18: &[(&str, bool)] = &[
    ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", false),
    ("4k3/8/8/8/8/8/8/2E1KM2 b - - 0 1", false),
    ("4k3/8/8/8/5j2/2M5/8/2E1K3 b - - 0 1", true),
    ("4k3/8/8/8/8/4J3/8/2E1K1M1 b - - 0 1", true),
    ("4k3/8/8/8/8/8/8/2EJK3 b - - 0 1", false),
    ("4k3/8/8/8/8/8/8/2M1KM2 b - - 0 1", true),
    ("4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 1", true),
    ("4k3/8/8/8/8/5N2/8/1N2K1N1 b - - 0 1", false),
    ("4k3/8/8/3n4/8/8/3B4/4K3 b - - 0 1", true),
    ("4k3/8/8/8/8/3B4/3B4/4K3 b - - 0 1", false),
    ("4k2c/8/8/8/8/8/8/3AK3 b - - 0 1", true),
];

fn t18(e: &Engine) {
    for &(fen, draw) in T18 {
        let mut pos = e.pos(fen);
        if draw {
            e.assert_result(&mut pos, DRAW, "insufficient material", "T18 draw row");
        } else {
            e.assert_not_over(&mut pos, "T18 play-on row");
        }
    }
    // The capture that ends the game.
    let mut pos = e.pos("4k3/8/8/8/3c4/5N2/8/u4M1K w - - 0 1");
    e.assert_not_over(&mut pos, "T18 before Nxd4");
    e.play(&mut pos, &["f3d4"]);
    e.assert_result(&mut pos, DRAW, "insufficient material", "T18 after Nxd4");
}

#[test]
fn t18_mating_potential() {
    for_both(t18);
}

// ---------------------------------------------------------------------------------------------------
// T19 — 64-move rule and mate precedence (the rule file's `move_rule 64`: 128 plies).

const T19: &str = "k7/2K5/8/2E5/2U5/8/8/8 w - - 127 80";

fn t19_perft(e: &Engine) {
    // §6.8: 25 moves; each checkmates, stalemates or brings the clock to 128.
    assert_eq!(e.perft(T19, 1), 25, "{}: T19 perft(1)", e.name);
    assert_eq!(e.perft(T19, 2), 0, "{}: T19 perft(2)", e.name);
}

#[test]
fn t19_perft_at_clock_127() {
    for_both(t19_perft);
}

fn t19_draw(e: &Engine) {
    // (b) a quiet move that does not mate brings the clock to 128: draw.
    let mut pos = e.pos(T19);
    e.assert_not_over(&mut pos, "T19 at clock 127");
    e.play(&mut pos, &["c5e7"]);
    assert_eq!(e.fields(&pos)[4], "128", "{}: T19b clock", e.name);
    e.assert_result(&mut pos, DRAW, "move rule", "T19b clock 128");
    // (c) from clock 126 the game goes on.
    let mut pos = e.pos("k7/2K5/8/2E5/2U5/8/8/8 w - - 126 80");
    e.play(&mut pos, &["c5e7"]);
    e.assert_not_over(&mut pos, "T19c clock 127");
}

#[test]
fn t19_move_rule_draw() {
    for_both(t19_draw);
}

// FAILS (interpreter, hence also the compiled engine, which shares its end-of-game code): the
// interpreter tests the position-only end rules (runtime/src/interp/end.rs `immediate_outcome`, which
// includes `move_rule`) before checkmate/stalemate, although the rule file lists `checkmate win` first
// and §7 gives checkmate precedence. From `k7/2K5/8/2E5/2U5/8/8/8 w - - 127 80`, after c4b6 the outcome
// is `draw by "move rule"` instead of White winning by checkmate.
fn t19_mate_precedence(e: &Engine) {
    // (a) 1. Ub6# is checkmate although the clock reaches 128.
    let mut pos = e.pos(T19);
    e.play(&mut pos, &["c4b6"]);
    e.assert_result(&mut pos, WHITE, "checkmate", "T19a Ub6# at clock 128");
}

#[test]
fn t19_mate_takes_precedence_over_move_rule() {
    for_both(t19_mate_precedence);
}

// ---------------------------------------------------------------------------------------------------
// T20 — threefold repetition (the rule file: `repetition 3 draw`, automatic).

const T20: &str = "3ak1n1/8/8/8/8/8/8/3AK1N1 w - - 0 1";
const T20_MOVES: [&str; 8] = [
    "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
];

fn t20_not_yet(e: &Engine) {
    // Before 4... Ng8 no position has occurred three times (after 3... Nf6: twice).
    let mut pos = e.pos(T20);
    e.assert_not_over(&mut pos, "T20 start");
    for (ply, mv) in T20_MOVES[..7].iter().enumerate() {
        e.play(&mut pos, &[mv]);
        e.assert_not_over(&mut pos, &format!("T20 after ply {} ({mv})", ply + 1));
    }
}

#[test]
fn t20_no_draw_before_the_third_occurrence() {
    for_both(t20_not_yet);
}

// FAILS (interpreter, hence also the compiled engine): the position hash includes each piece's
// "never moved" (virgin) flag. Reading the FEN marks Ng1/Ng8 (on their setup squares) as unmoved; after
// Nf3-g1 / Nf6-g8 they are marked moved, so the start position does not count as an earlier occurrence
// (§7.1: identity is pieces, side, castling rights and en passant only). After 4... Ng8 the outcome is
// `None` instead of a repetition draw; the interpreter draws only after 5... Nf6 (ply 10), the third
// occurrence of the position after 1... Nf6. (A freshly read FEN of the position after ply 4 hashes
// like the start; the played position does not.) The rule file's `repetition 3 draw` is automatic
// (no `claim`), as the spec requires.
fn t20(e: &Engine) {
    let mut pos = e.pos(T20);
    e.play(&mut pos, &T20_MOVES);
    e.assert_result(
        &mut pos,
        DRAW,
        "repetition",
        "T20 third occurrence after 4... Ng8",
    );
}

#[test]
fn t20_threefold_repetition() {
    for_both(t20);
}

// ---------------------------------------------------------------------------------------------------
// §6.7: the game writes and reads promotions as `=X`; the XBoard and UCI protocols keep their own form
// (the new piece's lower-case letter), which is read too.

fn protocol_form(e: &Engine) {
    let mut pos = e.pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let moves = e.v.legal_moves(&mut pos);
    let (_, pair) = moves
        .iter()
        .find(|(m, _)| m == "a7a8=B")
        .unwrap_or_else(|| panic!("{}: a7a8=B is listed", e.name));
    assert_eq!(pair, "a7a8b", "{}", e.name);
    let unicorn =
        e.v.parse_move(&mut pos, "a7a8u")
            .expect("the protocol form reads");
    assert_eq!(unicorn, "a7a8=U", "{}", e.name);
    assert!(e.v.parse_move(&mut pos, "a7a8=A").is_err(), "{}", e.name);
}

#[test]
fn protocols_keep_their_own_promotion_form() {
    for_both(protocol_form);
}
