//! Afterlife Chess: every test scenario of section 10 of the specification
//! (shared/rules/afterlife-chess.md, scenarios 1–20) against examples/afterlife-chess.vdl, run on the
//! reference interpreter and on both forms of the compiled engine, the hook form and the compact form
//! (tests/build.rs generates them into OUT_DIR).
//!
//! Moves are compared as exact sets of the strings the engine writes, in the notation of section 6:
//! `from-to`, `fromxto` for a capture. Scenario positions are written as piece lists: `P@a1` is a White
//! Pharaoh on a1, `p@L` a Black one in Limbo (eligible), `p@L^` a waiting one, `m@b4` a gray
//! Mercenary. Unless a scenario says otherwise, the four Sethlings stand on their start cells.

use std::collections::BTreeSet;

use vdl_runtime::interp::{Occupant, Position};
use vdl_runtime::{GameResult, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root, AnyEngine, AnyPosition};

#[allow(unused, clippy::all)]
mod game_afterlife_chess {
    include!(concat!(env!("OUT_DIR"), "/game_afterlife_chess.rs"));
}

const WHITE: usize = 0;
const BLACK: usize = 1;
const GRAY: usize = 2;

/// The Sethlings of the start position (section 10: present unless stated otherwise).
const SETHLINGS: &str = "e@alpha1 e@alpha3 e@delta1 e@delta3";

/// One engine under test, with a name for the assertion messages, and the interpreter, which reads
/// the game's model and the positions the scenarios look into.
struct Engine {
    name: &'static str,
    v: Box<dyn AnyEngine>,
    reference: Interpreter,
}

fn reference() -> Interpreter {
    let path = workspace_root().join("examples/afterlife-chess.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    let game = checked
        .game
        .unwrap_or_else(|| panic!("afterlife-chess.vdl does not check: {:?}", checked.problems));
    Interpreter::new(game).expect("afterlife-chess loads")
}

fn interpreter() -> Engine {
    Engine {
        name: "interpreter",
        v: Box::new(reference()),
        reference: reference(),
    }
}

fn compiled() -> Engine {
    Engine {
        name: "compiled",
        v: Box::new(game_afterlife_chess::engine().expect("compiled afterlife-chess loads")),
        reference: reference(),
    }
}

fn compact() -> Engine {
    Engine {
        name: "compact",
        v: Box::new(game_afterlife_chess::compact::fast_engine().expect("the compact form loads")),
        reference: reference(),
    }
}

/// Runs a scenario against the interpreter and against both forms of the compiled engine, the hook
/// form and the compact form; all always run, and the test fails naming every engine that failed.
fn for_both(scenario: fn(&Engine)) {
    vdl_tests::on_each_engine(
        [interpreter(), compiled(), compact()].map(|e| (e.name, e)),
        scenario,
    );
}

fn set(text: &str) -> BTreeSet<String> {
    text.split_whitespace().map(String::from).collect()
}

impl Engine {
    fn cell(&self, name: &str) -> usize {
        self.reference
            .game
            .cells
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("no cell {name}"))
    }

    /// A scenario position: the pieces listed (see the module documentation), `side` to move. It is
    /// written and read back, so that it goes through the position text.
    fn setup(&self, side: usize, pieces: &str) -> AnyPosition {
        let mut pos = Variant::start(&self.reference);
        for occ in pos.cells.iter_mut() {
            *occ = Occupant::EMPTY;
        }
        for token in pieces.split_whitespace() {
            let (letter, place) = token.split_once('@').expect("PIECE@CELL");
            let (cell, waiting) = match place.strip_suffix('^') {
                Some(cell) => (cell, true),
                None => (place, false),
            };
            let owner = match letter {
                "m" | "e" => GRAY,
                l if l.chars().all(|c| c.is_ascii_uppercase()) => WHITE,
                _ => BLACK,
            };
            let piece = self
                .reference
                .game
                .pieces
                .iter()
                .position(|p| p.letter.eq_ignore_ascii_case(letter))
                .unwrap_or_else(|| panic!("no piece {letter}"));
            pos.cells[self.cell(cell)] =
                Occupant::new(piece, owner, false, false).with_waiting(waiting);
        }
        pos.side = side;
        self.position(&pos)
    }

    /// The engine's position for an interpreter position, through the position text.
    fn position(&self, pos: &Position) -> AnyPosition {
        let text = Variant::write_position(&self.reference, pos);
        self.v
            .parse_position(&text)
            .unwrap_or_else(|e| panic!("cannot read back `{text}`: {e}"))
    }

    /// The interpreter's position for the engine's, through the position text (without the
    /// positions before it).
    fn view(&self, pos: &AnyPosition) -> Position {
        let text = self.v.write_position(pos);
        Variant::parse_position(&self.reference, &text)
            .unwrap_or_else(|e| panic!("cannot read `{text}`: {e}"))
    }

    /// A copy of a position (without the positions before it).
    fn copy(&self, pos: &AnyPosition) -> AnyPosition {
        self.position(&self.view(pos))
    }

    /// All legal moves of the side to move, as written by the engine.
    fn moves(&self, pos: &mut AnyPosition) -> BTreeSet<String> {
        let moves = self.v.legal_moves(pos);
        let texts: BTreeSet<String> = moves.iter().map(|(m, _)| m.clone()).collect();
        assert_eq!(
            texts.len(),
            moves.len(),
            "two legal moves with the same text in {}",
            self.v.write_position(pos)
        );
        texts
    }

    /// The legal moves starting on one cell.
    fn moves_from(&self, pos: &mut AnyPosition, from: &str) -> BTreeSet<String> {
        self.moves(pos)
            .into_iter()
            .filter(|m| m.split(['-', 'x']).next() == Some(from))
            .collect()
    }

    /// Plays moves given as text; each must be legal.
    fn play(&self, pos: &mut AnyPosition, moves: &[&str]) {
        for text in moves {
            self.v.play(pos, text).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// What stands on a cell: owner index and letter (`0S`), with `^` when waiting; `.` when empty.
    fn at(&self, pos: &AnyPosition, cell: &str) -> String {
        let occ = self.view(pos).cells[self.cell(cell)];
        if occ.is_empty() {
            return ".".into();
        }
        let mut text = format!(
            "{}{}",
            occ.owner(),
            self.reference.game.pieces[occ.piece()].letter
        );
        if occ.is_waiting() {
            text.push('^');
        }
        text
    }

    fn outcome(&self, pos: &mut AnyPosition) -> Option<GameResult> {
        self.v.outcome(pos)
    }

    fn assert_not_over(&self, pos: &mut AnyPosition) {
        let outcome = self.outcome(pos);
        assert!(
            outcome.is_none(),
            "`{}` should not be over, got {outcome:?}",
            self.v.write_position(pos)
        );
    }

    /// Asserts the game is over with this winner (None: a draw) and has no legal moves left.
    fn assert_result(&self, pos: &mut AnyPosition, winner: Option<usize>) {
        let fen = self.v.write_position(pos);
        let outcome = self.outcome(pos);
        assert!(
            matches!(&outcome, Some(r) if r.winner == winner),
            "`{fen}`: expected the winner {winner:?}, got {outcome:?}"
        );
        assert!(
            self.moves(pos).is_empty(),
            "the ended game `{fen}` has moves"
        );
    }
}

fn s1_initial(e: &Engine) {
    let mut pos = e.v.start();
    assert_eq!(
        e.moves(&mut pos),
        set(
            "c1xb1 c1xd1 c1xb2 c1xc2 c1xd2 b1-b3 b1-d3 a1-b3 a1xb2 a1xc2 d1-c3 d1xb2 d1xc2 \
             a2-a3 a2-a4 b2-b3 c2-c3 d2-d3 d2-d4 b4-b5 c4-c5"
        )
    );
    assert_eq!(e.v.perft(&mut e.v.start(), 1), 21);
    // By symmetry, Black has 21 moves too with Black to move.
    let mut black = e.view(&e.v.start());
    black.side = BLACK;
    let mut black = e.position(&black);
    let moves = e.moves(&mut black);
    assert_eq!(moves.len(), 21, "{moves:?}");
    assert!(moves.contains("b4-b3") && moves.contains("c4-c3"));
}

#[test]
fn s01_initial_position_perft_1() {
    for_both(s1_initial);
}

fn s2_priest(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 H@b3 p@d7 s@a4 w@d5 {SETHLINGS}"));
    assert_eq!(
        e.moves_from(&mut pos, "b3"),
        set("b3-a2 b3-c2 b3-c4 b3-b1 b3-b5 b3-d1 b3-d3")
    );
}

#[test]
fn s02_high_priest_never_captures_in_the_world() {
    for_both(s2_priest);
}

fn s3_mercenary(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("P@a1 p@d7 m@c2 {SETHLINGS}"));
    assert_eq!(e.moves(&mut pos), set("d7-c7 d7-c6 d7-d6 c2-c1"));
    e.play(&mut pos, &["c2-c1"]);
    assert_eq!(e.at(&pos, "c1"), "0S");
    assert_eq!(e.moves(&mut pos), set("a1-a2 a1-b1 a1-b2 c1-c2"));
}

#[test]
fn s03_mercenary_moved_by_black_is_enslaved_by_white() {
    for_both(s3_mercenary);
}

fn s4_mercenary_captures(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@c1 p@b7 m@b6 {SETHLINGS}"));
    e.play(&mut pos, &["b6xb7"]);
    assert_eq!(e.at(&pos, "L"), "1P^");
    assert_eq!(e.at(&pos, "b7"), "1S");
    e.assert_not_over(&mut pos);
    assert_eq!(e.moves(&mut pos), set("b7-b6"));
}

#[test]
fn s04_mercenary_captures_a_pharaoh() {
    for_both(s4_mercenary_captures);
}

fn s5_enemy_slave(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@b3 p@a7 s@c4 w@d5 {SETHLINGS}"));
    assert_eq!(e.moves_from(&mut pos, "c4"), set("c4-c5 c4xd5"));
    e.play(&mut pos, &["c4xd5"]);
    assert_eq!(e.at(&pos, "d5"), "1S");
    assert_eq!(e.at(&pos, "L"), "1W^");
}

#[test]
fn s05_moving_an_enemy_slave_next_to_ones_pharaoh() {
    for_both(s5_enemy_slave);
}

fn s6_freed_by_opponent(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("P@a5 S@c2 p@b3 {SETHLINGS}"));
    assert_eq!(e.moves_from(&mut pos, "c2"), set("c2-c1"));
    e.play(&mut pos, &["c2-c1"]);
    assert_eq!(e.at(&pos, "c1"), "0F");
}

#[test]
fn s06_slave_freed_by_the_opponents_move() {
    for_both(s6_freed_by_opponent);
}

fn s7_en_passant(e: &Engine) {
    let start = e.setup(WHITE, &format!("P@a1 S@d2 p@a7 s@c4 {SETHLINGS}"));
    let mut pos = e.copy(&start);
    e.play(&mut pos, &["d2-d4"]);
    assert_eq!(e.moves_from(&mut pos, "c4"), set("c4-c3 c4xd3"));
    let mut taken = e.copy(&pos);
    e.play(&mut taken, &["c4xd3"]);
    assert_eq!(e.at(&taken, "d4"), ".");
    assert_eq!(e.at(&taken, "d3"), "1S");
    assert_eq!(e.at(&taken, "L"), "0F^");
    // Any other move lets the right lapse.
    e.play(&mut pos, &["a7-a6", "a1-a2"]);
    assert_eq!(e.moves_from(&mut pos, "c4"), set("c4-c3"));
}

fn en_passant_possibility(e: &Engine) {
    // I22: the right is part of the position only when an en-passant capture is available.
    let field = |pos: &AnyPosition| {
        e.v.write_position(pos)
            .split_whitespace()
            .nth(3)
            .unwrap()
            .to_string()
    };
    let mut capturable = e.setup(WHITE, &format!("P@a1 S@d2 p@a7 s@c4 {SETHLINGS}"));
    e.play(&mut capturable, &["d2-d4"]);
    assert_eq!(field(&capturable), "d3>d4");
    let mut not_capturable = e.setup(WHITE, &format!("P@a1 S@d2 p@a7 s@a4 {SETHLINGS}"));
    e.play(&mut not_capturable, &["d2-d4"]);
    assert_eq!(field(&not_capturable), "-");
}

#[test]
fn en_passant_counts_only_when_it_can_be_taken() {
    for_both(en_passant_possibility);
}

#[test]
fn s07_double_step_and_en_passant() {
    for_both(s7_en_passant);
}

fn s8_chariot(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 W@b5 p@d6 f@L {SETHLINGS}"));
    e.play(&mut pos, &["b5-c7"]);
    assert_eq!(e.at(&pos, "c7"), "0C");
    // (b) the Chariot's moves, were White to move.
    let mut again = e.view(&pos);
    again.side = WHITE;
    let mut again = e.position(&again);
    assert_eq!(
        e.moves_from(&mut again, "c7"),
        set("c7-a7 c7-b7 c7-d7 c7-c6 c7-c5 c7-c4 c7-c3 c7-c2 c7-c1")
    );
    e.play(&mut pos, &["d6xc7"]);
    assert_eq!(e.at(&pos, "L"), "0W^");
    e.assert_not_over(&mut pos);
}

#[test]
fn s08_promotion_chariot_reversion_limbo_overwrite() {
    for_both(s8_chariot);
}

fn s9_self_capture(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@c1 W@a1 S@b2 p@L {SETHLINGS}"));
    e.play(&mut pos, &["a1xb2"]);
    assert_eq!(e.at(&pos, "L"), "0F^");
    e.assert_result(&mut pos, Some(WHITE));
}

#[test]
fn s09_self_capture_destroys_the_enemy_pharaoh_in_limbo() {
    for_both(s9_self_capture);
}

fn s10_gray_capture(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@c1 W@a1 p@L m@b3 {SETHLINGS}"));
    e.play(&mut pos, &["a1xb3"]);
    assert_eq!(e.at(&pos, "L"), "1P");
    e.assert_not_over(&mut pos);
    assert_eq!(e.moves(&mut pos), set("L-alpha2 Lxalpha1 Lxalpha3"));
}

#[test]
fn s10_capturing_a_gray_piece_does_not_touch_limbo() {
    for_both(s10_gray_capture);
}

fn s11_waiting(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("P@a1 S@d3 p@d7 w@c5 {SETHLINGS}"));
    e.play(&mut pos, &["c5xd3"]);
    assert_eq!(e.at(&pos, "L"), "0F^");
    assert_eq!(e.moves(&mut pos), set("a1-a2 a1-b1 a1-b2"));
    e.play(&mut pos, &["a1-a2", "d7-c7"]);
    assert_eq!(
        e.moves(&mut pos),
        set("a2-a1 a2-a3 a2-b1 a2-b2 a2-b3 L-alpha2 Lxalpha1 Lxalpha3")
    );
}

#[test]
fn s11_limbo_waiting_then_entry_into_the_twelve_hours() {
    for_both(s11_waiting);
}

fn s12_priest_destiny(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("P@a1 F@H1 p@d7 h@L {SETHLINGS}"));
    assert_eq!(e.moves(&mut pos), set("d7-c7 d7-c6 d7-d6 LxH1"));
    e.play(&mut pos, &["LxH1"]);
    assert_eq!(e.at(&pos, "H1"), "1H");
    assert_eq!(e.at(&pos, "L"), ".");
}

#[test]
fn s12_high_priests_destiny_and_entry_capture() {
    for_both(s12_priest_destiny);
}

fn s13_sethlings(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("P@a1 p@d7 F@alpha2 {SETHLINGS}"));
    assert_eq!(
        e.moves(&mut pos),
        set("d7-c7 d7-c6 d7-d6 alpha1xalpha2 alpha3xalpha2 delta1-delta2 delta3-delta2")
    );
    e.play(&mut pos, &["alpha1xalpha2"]);
    assert_eq!(e.at(&pos, "alpha2"), "2E");
    assert_eq!(e.at(&pos, "L"), ".");
    assert_eq!(e.moves(&mut pos), set("a1-a2 a1-b1 a1-b2"));
}

#[test]
fn s13_sethling_control() {
    for_both(s13_sethlings);
}

fn s14_sethling_destroys(e: &Engine) {
    let mut pos = e.setup(BLACK, &format!("W@a1 P@alpha2 p@d7 {SETHLINGS}"));
    e.play(&mut pos, &["alpha3xalpha2"]);
    e.assert_result(&mut pos, Some(BLACK));
}

#[test]
fn s14_a_sethling_destroys_a_pharaoh() {
    for_both(s14_sethling_destroys);
}

fn s15_frozen(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 p@d7 F@beta2 f@delta2 {SETHLINGS}"));
    assert_eq!(
        e.moves(&mut pos),
        set("a1-a2 a1-b1 a1-b2 beta2-alpha2 beta2-gamma2")
    );
}

#[test]
fn s15_both_colours_present_sethlings_frozen() {
    for_both(s15_frozen);
}

fn s16_warrior_hours(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 p@d7 W@beta2 {SETHLINGS}"));
    assert_eq!(
        e.moves_from(&mut pos, "beta2"),
        set("beta2xalpha1 beta2xalpha3 beta2xdelta1 beta2xdelta3")
    );
}

#[test]
fn s16_warrior_geometry_in_the_twelve_hours() {
    for_both(s16_warrior_hours);
}

fn s17_leaving(e: &Engine) {
    let mut pos = e.setup(WHITE, "W@a1 p@d7 P@delta2 e@delta1 e@delta3 w@H1");
    assert_eq!(
        e.moves_from(&mut pos, "delta2"),
        set("delta2xdelta1 delta2xdelta3 delta2-gamma2 delta2xH1")
    );
    e.play(&mut pos, &["delta2xH1"]);
    assert_eq!(e.at(&pos, "H1"), "0P");
    assert_eq!(e.at(&pos, "L"), ".");
}

#[test]
fn s17_leaving_the_twelve_hours() {
    for_both(s17_leaving);
}

fn s18_hall(e: &Engine) {
    let hall = format!("P@a1 p@d7 W@H1 f@H2 h@H3 {SETHLINGS}");
    let mut white = e.setup(WHITE, &hall);
    assert_eq!(e.moves_from(&mut white, "H1"), set("H1xH3"));
    let mut black = e.setup(BLACK, &hall);
    assert_eq!(e.moves_from(&mut black, "H3"), set("H3-H4 H3-H5 H3xH1"));
    assert_eq!(e.moves_from(&mut black, "H2"), set(""));
}

#[test]
fn s18_hall_movement() {
    for_both(s18_hall);
}

fn s19_redemption(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 F@H5 c@c1 p@d7 {SETHLINGS}"));
    assert_eq!(e.moves(&mut pos), set("a1-a2 a1-b1 a1-b2 H5-b1 H5-d1"));
    e.play(&mut pos, &["H5-b1"]);
    assert_eq!(e.at(&pos, "b1"), "0S");
    // It is an ordinary Slave, not a promoted piece.
    assert!(!e.v.write_position(&pos).contains('~'));
    assert!(["H1", "H2", "H3", "H4", "H5"]
        .iter()
        .all(|c| e.at(&pos, c) == "."));
    // A High Priest on the Feather has no reincarnation move.
    let mut priest = e.setup(WHITE, &format!("P@a1 H@H5 c@c1 p@d7 {SETHLINGS}"));
    assert_eq!(e.moves_from(&mut priest, "H5"), set("H5-H3"));
}

#[test]
fn s19_reincarnation() {
    for_both(s19_redemption);
}

fn s20_stalemate(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@H4 h@H5 p@d7 {SETHLINGS}"));
    assert_eq!(e.moves(&mut pos), set(""));
    e.assert_result(&mut pos, None);
}

#[test]
fn s20_no_legal_move_is_a_draw() {
    for_both(s20_stalemate);
}

// Section 7 beyond the scenarios: the fifty-move count and its resets, repetition over the whole state.

fn move_rule_resets(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 W@b5 p@d7 F@L m@c3 {SETHLINGS}"));
    e.play(&mut pos, &["a1-a2", "d7-d6"]);
    assert_eq!(e.view(&pos).halfmove, 2, "plain moves count");
    e.play(&mut pos, &["L-alpha2"]);
    assert_eq!(e.view(&pos).halfmove, 0, "a transfer resets the count");
    e.play(&mut pos, &["d6-d5", "b5-c7"]);
    assert_eq!(e.at(&pos, "c7"), "0C");
    assert_eq!(e.view(&pos).halfmove, 0, "a promotion resets the count");
    e.play(&mut pos, &["c3-c2", "a2-a1"]);
    assert_eq!(e.view(&pos).halfmove, 2, "a Mercenary step counts");
    e.play(&mut pos, &["c2-c1"]);
    assert_eq!(e.at(&pos, "c1"), "0S");
    assert_eq!(e.view(&pos).halfmove, 0, "an enslavement resets the count");
    // 100 plies without a reset draw the game.
    let mut quiet = e.view(&e.setup(WHITE, &format!("P@a1 p@d7 {SETHLINGS}")));
    quiet.halfmove = 99;
    let mut quiet = e.position(&quiet);
    e.play(&mut quiet, &["a1-a2"]);
    e.assert_result(&mut quiet, None);
}

#[test]
fn move_rule_counts_transfers_and_transformations() {
    for_both(move_rule_resets);
}

fn repetition(e: &Engine) {
    let mut pos = e.setup(WHITE, &format!("P@a1 p@d7 {SETHLINGS}"));
    e.play(&mut pos, &["a1-a2", "d7-d6", "a2-a1", "d6-d7"]);
    e.assert_not_over(&mut pos);
    e.play(&mut pos, &["a1-a2", "d7-d6", "a2-a1", "d6-d7"]);
    e.assert_result(&mut pos, None);
    // The Limbo status is part of the position.
    let waiting = e.setup(WHITE, &format!("P@a1 p@d7 f@L^ {SETHLINGS}"));
    let eligible = e.setup(WHITE, &format!("P@a1 p@d7 f@L {SETHLINGS}"));
    assert_ne!(e.v.hash(&waiting), e.v.hash(&eligible));
}

#[test]
fn threefold_repetition_is_a_draw() {
    for_both(repetition);
}

fn perft_agreement(e: &Engine) {
    // Not a count from the specification: the interpreter's own, so that both engines are held to it.
    let mut pos = e.v.start();
    assert_eq!(e.v.perft(&mut pos, 3), 10037);
}

#[test]
fn perft_3_from_the_start() {
    for_both(perft_agreement);
}

fn random_games_end_by_section_7(e: &Engine) {
    // Random games end only with the results of section 7: a Pharaoh that ceased to exist (its owner,
    // who has no Pharaoh left on any board, Limbo included, loses), repetition, the move rule or no
    // legal move (draws).
    let pharaoh = e
        .reference
        .game
        .pieces
        .iter()
        .position(|p| p.name == "pharaoh")
        .expect("a Pharaoh");
    let mut rng = vdl_tests::Rng::new(1);
    for _ in 0..60 {
        let mut pos = e.v.start();
        for _ in 0..400 {
            let moves = e.v.legal_moves(&mut pos);
            if moves.is_empty() {
                break;
            }
            let (mv, _) = rng.pick(&moves);
            e.v.play(&mut pos, mv).unwrap_or_else(|e| panic!("{e}"));
        }
        let Some(result) = e.outcome(&mut pos) else {
            continue;
        };
        match result.winner {
            Some(winner) => {
                let loser = 1 - winner;
                assert_eq!(result.reason, "extinction", "{result:?}");
                assert!(
                    !e.view(&pos)
                        .cells
                        .iter()
                        .any(|o| !o.is_empty() && o.owner() == loser && o.piece() == pharaoh),
                    "the loser still has a Pharaoh: {}",
                    e.v.write_position(&pos)
                );
            }
            None => assert!(
                ["repetition", "move rule", "no_moves"].contains(&result.reason.as_str()),
                "{result:?}"
            ),
        }
    }
}

#[test]
fn random_games_end_only_by_section_7() {
    for_both(random_games_end_by_section_7);
}

/// At every ply of random games the compact form reaches the interpreter's position (its text:
/// Limbo's waiting status, the half-move count and the en-passant right included), lists the same
/// moves, counts the same perft 2 and ends the game alike; the games send pieces to Limbo and bring
/// them back.
#[test]
fn the_compact_form_agrees_with_the_interpreter_in_random_games() {
    let (reference, compact) = (interpreter(), compact());
    let mut rng = vdl_tests::Rng::new(0xaf7e);
    let (mut waiting, mut destinies) = (0, 0);
    for _ in 0..20 {
        let (mut a, mut b) = (reference.v.start(), compact.v.start());
        for ply in 0..200 {
            let text = reference.v.write_position(&a);
            assert_eq!(compact.v.write_position(&b), text, "ply {ply}");
            assert_eq!(
                compact.outcome(&mut b).map(|r| r.winner),
                reference.outcome(&mut a).map(|r| r.winner),
                "`{text}`"
            );
            let moves = reference.moves(&mut a);
            assert_eq!(compact.moves(&mut b), moves, "`{text}`");
            assert_eq!(
                compact.v.perft(&mut b, 2),
                reference.v.perft(&mut a, 2),
                "`{text}` perft 2"
            );
            if moves.is_empty() {
                break;
            }
            waiting += usize::from(reference.at(&a, "L").ends_with('^'));
            let moves: Vec<&String> = moves.iter().collect();
            let mv = *rng.pick(&moves);
            destinies += usize::from(mv.starts_with('L'));
            reference.play(&mut a, &[mv]);
            compact.play(&mut b, &[mv]);
        }
    }
    assert!(
        waiting > 20 && destinies > 2,
        "{waiting} positions with a waiting piece, {destinies} moves out of Limbo"
    );
}
