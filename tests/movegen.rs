//! Move generation and position text on small games (`inputs/movegen/`), each case run on the
//! interpreter, the compiled hook form and, where the game has one, the compact form. Expected figures
//! come from independent engines (Sjaak II 1.4.1 `perft`, Fairy-Stockfish through pyffish 0.0.90
//! `legal_moves`) or from hand counts, as each case says.

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

/// What the cases ask of an engine, the same for every engine.
pub trait Probe {
    /// Perft from a position.
    fn perft(&self, fen: &str, depth: u32) -> Result<u64, String>;
    /// The legal moves as listed (repeats kept), and their count as counted.
    fn moves(&self, fen: &str) -> Result<(Vec<String>, u64), String>;
    /// The position text after playing moves from a position.
    fn after(&self, fen: &str, moves: &[&str]) -> Result<String, String>;
    /// The legal moves after playing moves from a position (for what the text does not hold).
    fn moves_after(&self, fen: &str, moves: &[&str]) -> Result<Vec<String>, String>;
    /// The same, checking at every move that unmake restores the position text and hash and that
    /// the incremental hash is the recomputed one.
    fn after_checked(&self, fen: &str, moves: &[&str]) -> Result<String, String>;
}

impl<V: Variant> Probe for V {
    fn perft(&self, fen: &str, depth: u32) -> Result<u64, String> {
        let mut position = self.parse_position(fen).map_err(|e| e.to_string())?;
        Ok(vdl_runtime::perft::perft(self, &mut position, depth))
    }

    fn moves(&self, fen: &str) -> Result<(Vec<String>, u64), String> {
        let mut position = self.parse_position(fen).map_err(|e| e.to_string())?;
        let mut moves = Vec::new();
        self.legal_moves(&mut position, &mut moves);
        let texts = moves
            .iter()
            .map(|&m| self.write_move(&position, m))
            .collect();
        Ok((texts, self.count_legal_moves(&mut position)))
    }

    fn after(&self, fen: &str, moves: &[&str]) -> Result<String, String> {
        Ok(self.write_position(&played(self, fen, moves)?))
    }

    fn moves_after(&self, fen: &str, moves: &[&str]) -> Result<Vec<String>, String> {
        let mut position = played(self, fen, moves)?;
        let mut list = Vec::new();
        self.legal_moves(&mut position, &mut list);
        Ok(list
            .iter()
            .map(|&m| self.write_move(&position, m))
            .collect())
    }

    fn after_checked(&self, fen: &str, moves: &[&str]) -> Result<String, String> {
        let mut position = self.parse_position(fen).map_err(|e| e.to_string())?;
        for text in moves {
            let mv = self
                .parse_move(&mut position, text)
                .map_err(|e| e.to_string())?;
            let before = (self.write_position(&position), self.hash(&position));
            let undo = self.make(&mut position, mv);
            if self.hash(&position) != self.full_hash(&position) {
                return Err(format!("incremental hash after {text} from `{}`", before.0));
            }
            self.unmake(&mut position, mv, undo);
            if (self.write_position(&position), self.hash(&position)) != before {
                return Err(format!("unmake of {text} from `{}`", before.0));
            }
            self.make(&mut position, mv);
        }
        Ok(self.write_position(&position))
    }
}

/// The position after playing moves (as text) from a position.
fn played<V: Variant>(v: &V, fen: &str, moves: &[&str]) -> Result<V::Position, String> {
    let mut position = v.parse_position(fen).map_err(|e| e.to_string())?;
    for text in moves {
        let mv = v
            .parse_move(&mut position, text)
            .map_err(|e| e.to_string())?;
        v.make(&mut position, mv);
    }
    Ok(position)
}

pub type Build = fn() -> Result<Box<dyn Probe>, String>;

include!(concat!(env!("OUT_DIR"), "/movegen.rs"));

/// The interpreter of an input, and its compiled engines: (name, engine).
fn engines(stem: &str) -> Vec<(String, Box<dyn Probe>)> {
    let path = workspace_root()
        .join("tests/inputs/movegen")
        .join(format!("{stem}.vdl"));
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .unwrap_or_else(|| panic!("{stem} does not check"));
    let mut out: Vec<(String, Box<dyn Probe>)> = vec![(
        "interpreter".into(),
        Box::new(Interpreter::new(game).unwrap_or_else(|e| panic!("{stem}: {e}"))),
    )];
    let &(_, hook, compact) = MOVEGEN
        .iter()
        .find(|(s, _, _)| *s == stem)
        .unwrap_or_else(|| panic!("{stem} is not compiled"));
    out.push((
        "hook form".into(),
        hook().unwrap_or_else(|e| panic!("{stem}: {e}")),
    ));
    if let Some(compact) = compact {
        out.push((
            "compact form".into(),
            compact().unwrap_or_else(|e| panic!("{stem}: {e}")),
        ));
    }
    out
}

/// Perft at depths 1 to 4 from each position on every engine of an input, which must have a compact
/// form: each compiled engine counts what the interpreter counts, and the count is not zero.
fn perft_agrees(stem: &str, fens: &[&str]) {
    perft_agrees_to(stem, fens, 4);
}

/// [`perft_agrees`] at depths 1 to `most`.
fn perft_agrees_to(stem: &str, fens: &[&str], most: u32) {
    let engines = engines(stem);
    assert_eq!(engines.len(), 3, "{stem}.vdl has a compact form");
    for fen in fens {
        for depth in 1..=most {
            let want = engines[0].1.perft(fen, depth).expect("reads");
            assert!(want > 0, "`{fen}` perft {depth}");
            for (name, engine) in &engines[1..] {
                assert_eq!(
                    engine.perft(fen, depth).expect("reads"),
                    want,
                    "{name}: `{fen}` perft {depth}"
                );
            }
        }
    }
}

/// Checks perft rows `(fen, [perft 1, perft 2, ...])` on every engine of an input, and that the
/// listed moves of each position have no repeats and agree with the count.
fn perft_rows(stem: &str, rows: &[(&str, &[u64])], want_compact: bool) {
    let engines = engines(stem);
    assert_eq!(
        engines.len() == 3,
        want_compact,
        "{stem}: whether the game has a compact form"
    );
    let mut failures = Vec::new();
    for (name, engine) in &engines {
        for (fen, counts) in rows {
            let (moves, counted) = engine.moves(fen).unwrap_or_else(|e| panic!("{e}"));
            let mut sorted = moves.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() != moves.len() || counted != moves.len() as u64 {
                failures.push(format!(
                    "{stem} {name} `{fen}`: {} listed, {} distinct, {counted} counted: {moves:?}",
                    moves.len(),
                    sorted.len()
                ));
            }
            for (depth, &want) in counts.iter().enumerate() {
                let got = engine
                    .perft(fen, depth as u32 + 1)
                    .unwrap_or_else(|e| panic!("{e}"));
                if got != want {
                    failures.push(format!(
                        "{stem} {name} `{fen}` perft {}: {got}, expected {want}",
                        depth + 1
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `KW`, `QR` and `WaW` (W, then two W steps) generate each result once. Sjaak II's `perft` (pieces
/// `leap (1,0)|(1,1)`, `slide (D,A,H,V)` and `leap ((1,0)+(1,0))&((2,0)|(1,1))|(1,0)`, which
/// generate target sets) gives every figure; pyffish agrees on the `KW` and `QR` moves (11 and 30 with
/// the king's three in the first two positions). `WaW` is a move of two legs, which the compact
/// form unrolls into paths, so the game has a compact form too.
#[test]
fn each_result_is_generated_once() {
    perft_rows(
        "dedupe",
        &[
            ("k7/8/8/8/3W4/8/8/7K w - - 0 1", &[15, 45, 696, 3862]),
            ("k7/8/8/3a4/3Wa3/8/8/7K w - - 0 1", &[12, 192, 2707]),
            ("k7/8/8/8/3A4/8/8/7K w - - 0 1", &[11]),
            ("k7/8/8/8/3Q4/8/8/7K w - - 0 1", &[30]),
            (
                "q3k3/8/2w5/3a4/1A1W4/5Q2/8/7K w - - 0 1",
                &[42, 1171, 45399],
            ),
            (
                "q1q1k3/2w5/8/3aW3/1A6/2Q5/8/4K3 b - - 0 1",
                &[41, 1575, 62258],
            ),
        ],
        true,
    );
}

/// The same in a game of the compact form: a knight that is also a lame knight (`NmafsW`, Sjaak II
/// `leap (2,1)`) and `WmaW`, whose two-step paths the compact form keeps as steps through a cell that
/// must be empty.
#[test]
fn each_result_is_generated_once_in_the_compact_form() {
    perft_rows(
        "dedupe_compact",
        &[
            (
                "q1h1k3/2w5/8/3aW3/1A4H1/2Q5/8/4K3 w - - 0 1",
                &[45, 1460, 64553],
            ),
            (
                "4k3/3h4/2h1w3/3a4/2WHQ3/3A4/8/4K3 b - - 0 1",
                &[27, 1058, 27584],
            ),
        ],
        true,
    );
}

/// Moves that end on their start cell (XBetza's igui `cabW` and the null move of `mabW`), and a
/// lion-like piece with locust captures. The lion's figures are Sjaak II's `perft` for its two-step
/// leaper `leap (1,0)+(1,0)` (which leaps to the D and F cells, captures one step away, captures and
/// steps on or back, and passes by stepping out and back through an empty cell). The igui piece's are
/// hand counts: from the start, the piece captures d5 or e4 without moving (2) and the king has 5
/// moves; after either capture Black has 5 king moves and the other igui capture, after a king move 5
/// and both igui captures: 6 + 6 + 5 × 7 = 47.
#[test]
fn moves_back_to_the_start_cell() {
    perft_rows(
        "igui",
        &[
            ("4k3/8/8/3i4/3Ii3/8/8/4K3 w - - 0 1", &[7, 47]),
            ("4k3/8/8/8/3L4/8/8/4K3 w - - 0 1", &[14, 66, 939, 5758]),
            ("4k3/8/8/3l4/3Ll3/8/8/4K3 w - - 0 1", &[23, 491, 6745]),
            ("3k4/2l5/8/1L1l4/2L5/4l3/8/3K4 b - - 0 1", &[29, 467, 13539]),
            ("4k3/8/8/3l4/2LLl3/3L4/8/4K3 w - - 0 1", &[38, 883, 24898]),
        ],
        false,
    );
}

/// A capture and return is written as XBoard writes it, two legs through the captured cell
/// (`d4e4,e4d4`), a null move as the piece's cell twice (`d4d4`, Fairy-Stockfish's form of a pass);
/// both read back, and play as they should: the igui piece stays and its victim leaves, the null move
/// changes nothing but the side to move (and the half-move counter).
#[test]
fn moves_back_to_the_start_cell_as_text() {
    for (name, engine) in engines("igui") {
        let start = "4k3/8/8/3i4/3Ii3/8/8/4K3 w - - 0 1";
        let (moves, _) = engine.moves(start).unwrap_or_else(|e| panic!("{e}"));
        for text in ["d4d5,d5d4", "d4e4,e4d4"] {
            assert!(
                moves.iter().any(|m| m == text),
                "{name}: {text} in {moves:?}"
            );
        }
        assert_eq!(
            engine.after(start, &["d4e4,e4d4"]).as_deref(),
            Ok("4k3/8/8/3i4/3I4/8/8/4K3 b - - 0 1"),
            "{name}"
        );
        let lone = "4k3/8/8/8/3L4/8/8/4K3 w - - 3 7";
        let (moves, _) = engine.moves(lone).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            moves.iter().filter(|m| *m == "d4d4").count(),
            1,
            "{name}: one null move in {moves:?}"
        );
        assert_eq!(
            engine.after(lone, &["d4d4"]).as_deref(),
            Ok("4k3/8/8/8/3L4/8/8/4K3 b - - 4 7"),
            "{name}"
        );
        // The igui capture attacks the cell: the black king may not step next to the piece.
        let (moves, _) = engine
            .moves("8/8/3k4/8/3I4/8/8/4K3 b - - 0 1")
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            moves.len() == 7 && !moves.iter().any(|m| m == "d6d5"),
            "{name}: {moves:?}"
        );
    }
}

/// Random games with the lion and the igui piece: make and unmake restore the position and hash, the
/// incremental hash is the recomputed one, the position text reads back, and attack detection agrees
/// with generating every piece's attacks.
#[test]
fn moves_back_to_the_start_cell_in_random_games() {
    let path = workspace_root().join("tests/inputs/movegen/igui.vdl");
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("checks");
    let interpreter = Interpreter::new(game).expect("loads");
    let mut rng = vdl_tests::Rng::new(0x1601);
    for start in [
        "4k3/8/8/3i4/3Ii3/8/8/4K3 w - - 0 1",
        "3k4/1il5/2i5/1LIl4/2Li4/4l3/2I5/3K4 w - - 0 1",
    ] {
        for _ in 0..6 {
            let mut position = interpreter.parse_position(start).expect("reads");
            for ply in 0..40 {
                let text = interpreter.write_position(&position);
                interpreter
                    .check_attacks(&position)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(
                    interpreter.write_position(&interpreter.parse_position(&text).expect("reads")),
                    text
                );
                let mut moves = Vec::new();
                interpreter.legal_moves(&mut position, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let hash = interpreter.hash(&position);
                    let undo = interpreter.make(&mut position, mv);
                    assert_eq!(
                        interpreter.hash(&position),
                        interpreter.full_hash(&position),
                        "{text}: hash after {}",
                        interpreter.write_move(&position, mv)
                    );
                    interpreter.unmake(&mut position, mv, undo);
                    assert_eq!(interpreter.write_position(&position), text, "ply {ply}");
                    assert_eq!(interpreter.hash(&position), hash);
                }
                let mv = moves[rng.below(moves.len())];
                interpreter.make(&mut position, mv);
            }
        }
    }
}

/// `within ZONE` on the universal leaper, on every engine, the compact form's leap tables too: the
/// move starts and ends in the zone (hand counts: from d2
/// in White's camp, ranks 1 and 2, the leaper has the 14 other free cells there and the king 4 moves;
/// from d4, outside the camp, the leaper has none).
#[test]
fn the_universal_leaper_keeps_within_its_zone() {
    perft_rows(
        "universal_within",
        &[
            ("4k3/8/8/8/8/8/3U4/4K3 w - - 0 1", &[18, 90]),
            ("4k3/8/8/8/3U4/8/8/4K3 w - - 0 1", &[5, 25]),
            ("3uk3/8/8/8/8/8/3U4/4K3 b - - 0 1", &[18, 324]),
        ],
        true,
    );
}

/// Holes written `*`, as Fairy-Stockfish writes wall squares: pyffish 0.0.90 reads these positions
/// in its `chess` variant (walls on the same cells) and gives every perft figure and the position
/// after a move; every engine writes the positions back unchanged.
#[test]
fn holes_are_read_and_written_as_walls() {
    let rows: &[(&str, &[u64])] = &[
        ("4k3/8/1*6/3**3/3**3/8/1*6/R3K*2 w - - 0 1", &[14, 65, 910]),
        (
            "r1b1k3/8/1*n5/3**3/1N1**Q2/8/1*6/R3K*1B b - - 0 1",
            &[24, 793, 16253],
        ),
        (
            "k7/8/1*6/3**3/3**3/4B3/1*6/K1R2*2 w - - 0 1",
            &[18, 51, 915],
        ),
    ];
    perft_rows("holes", rows, true);
    for (name, engine) in engines("holes") {
        for (fen, _) in rows {
            assert_eq!(engine.after(fen, &[]).as_deref(), Ok(*fen), "{name}");
        }
        assert_eq!(
            engine.after(rows[0].0, &["a1a8"]).as_deref(),
            Ok("R3k3/8/1*6/3**3/3**3/8/1*6/4K*2 b - - 1 1"),
            "{name}"
        );
        // The same position with digits over the holes still reads (as positions written before).
        assert_eq!(
            engine
                .after("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &[])
                .as_deref(),
            Ok(rows[0].0),
            "{name}"
        );
        assert!(
            engine
                .after("4k3/8/8/8/8/8/8/R2*K3 w - - 0 1", &[])
                .is_err(),
            "{name}: `*` on d1, which is a cell"
        );
    }
}

/// A 3D board with a FEN setup: levels from the top down separated by `//`, pieces as FEN letters.
/// It is the position the same game reaches with `place` statements, with the same perft; the
/// position is written in the vdl position text, which reads back. Hand count of perft 1: the king in
/// its corner has 3 wazir and 3 ferz steps, the rook in the centre one step each of 6 ways.
#[test]
fn a_three_dimensional_setup_reads_as_the_same_position_as_placing_its_pieces() {
    let path = workspace_root().join("tests/inputs/movegen/three_d.vdl");
    let text = read_text(&path);
    let placed = text.replace(
        "setup \"2k/3/3//3/1R1/3//3/3/K2 w - - 0 1\"",
        "setup { place white king a11; place white rook b22; place black king c33 }",
    );
    assert_ne!(placed, text, "the setup line");
    let game = vdl_dsl::check::check_source(&placed).game.expect("checks");
    let reference = Interpreter::new(game).expect("loads");
    let start = reference.write_position(&reference.start());
    assert_eq!(start, "2(1K)*/3/3//3/1(0R)*1/3//3/3/(0K)*2 white - - 0 1");
    let mut position = reference.start();
    let counts: Vec<u64> = (1..=3)
        .map(|d| vdl_runtime::perft::perft(&reference, &mut position, d))
        .collect();
    assert_eq!(counts[0], 12);
    let rows: Vec<(&str, &[u64])> = vec![
        ("2k/3/3//3/1R1/3//3/3/K2 w - - 0 1", counts.as_slice()),
        (start.as_str(), counts.as_slice()),
        ("2(1K)/3/3//3/1(0R)1/3//3/3/(0K)2 white", counts.as_slice()),
    ];
    perft_rows("three_d", &rows, true);
    for (name, engine) in engines("three_d") {
        assert_eq!(
            engine.after(&start, &[]).as_deref(),
            Ok(start.as_str()),
            "{name}"
        );
        assert_eq!(
            engine
                .after("2k/3/3//3/1R1/3//3/3/K2 w", &["b22b21"])
                .as_deref(),
            Ok("2(1K)/3/3//3/3/3//3/1(0R)1/(0K)2 black - - 1 1"),
            "{name}"
        );
    }
}

/// The exact moves of one position on every engine, sorted.
fn exact_moves(stem: &str, fen: &str, want: &[&str]) {
    let mut want: Vec<String> = want.iter().map(|m| m.to_string()).collect();
    want.sort();
    for (name, engine) in engines(stem) {
        let (mut moves, counted) = engine.moves(fen).unwrap_or_else(|e| panic!("{e}"));
        moves.sort();
        assert_eq!(moves, want, "{stem} {name} `{fen}`");
        assert_eq!(counted, want.len() as u64, "{stem} {name} `{fen}` counted");
    }
}

/// Crooked and circular riders, counted by hand on an empty board (White's king on h1 has g1, g2 and
/// h2; on h8 g8, g7 and h7):
/// - the rose `qNN` on a1 leaps b3 or c2 first. Clockwise from b3: d4, f3, g1 (then off the board);
///   anticlockwise from b3: a5. Clockwise from c2: e1; anticlockwise from c2: d4, c6, a7. Nine cells
///   (d4 by two paths, one move).
/// - the boyscout `zB` on a1: b2, then turning left a3, b4, a5, b6, a7, b8, or right c1, d2, e1, f2,
///   g1, h2: thirteen cells.
/// - the quintessence `zNN` on a1: b3 then d2, e4, g3, h5 (the other turn leaves the board); c2 then
///   b4, d5, c7, e8: ten cells.
/// - the falcon `afsafzK` on a1: the camel cells b4, d2 and the zebra cells c4, d3, each along a path
///   of a step, a 45-degree turn and the turn back.
#[test]
fn crooked_and_circular_riders_by_hand() {
    let king = ["h1g1", "h1g2", "h1h2"];
    let with_king = |cells: &[&str]| -> Vec<String> {
        cells
            .iter()
            .map(|c| format!("a1{c}"))
            .chain(king.iter().map(|m| m.to_string()))
            .collect()
    };
    let rose = with_king(&["b3", "d4", "f3", "g1", "a5", "c2", "e1", "c6", "a7"]);
    let quintessence = with_king(&["b3", "d2", "e4", "g3", "h5", "c2", "b4", "d5", "c7", "e8"]);
    let falcon = with_king(&["b4", "d2", "c4", "d3"]);
    let boyscout: Vec<String> = [
        "b2", "a3", "b4", "a5", "b6", "a7", "b8", "c1", "d2", "e1", "f2", "g1", "h2",
    ]
    .iter()
    .map(|c| format!("a1{c}"))
    .chain(["h8g8", "h8g7", "h8h7"].iter().map(|m| m.to_string()))
    .collect();
    let as_str = |v: &[String]| v.iter().map(String::as_str).collect::<Vec<_>>().join(" ");
    for (fen, want) in [
        ("k7/8/8/8/8/8/8/O6K w - - 0 1", &rose),
        ("k7/8/8/8/8/8/8/P6K w - - 0 1", &rose),
        ("3k3K/8/8/8/8/8/8/B7 w - - 0 1", &boyscout),
        ("3k3K/8/8/8/8/8/8/C7 w - - 0 1", &boyscout),
        ("k7/8/8/8/8/8/8/N6K w - - 0 1", &quintessence),
        ("k7/8/8/8/8/8/8/M6K w - - 0 1", &quintessence),
        ("k7/8/8/8/8/8/8/F6K w - - 0 1", &falcon),
    ] {
        let want = as_str(want);
        exact_moves("bent", fen, &want.split(' ').collect::<Vec<_>>());
    }
}

/// A crooked or circular rider and the same piece written leg by leg with later-leg turn letters
/// (`qNN` and `NafqN...`, `zB` and `FazF...`, `zNN` and `NazN...`) count the same perft among other
/// pieces, their checks included.
#[test]
fn crooked_and_circular_riders_equal_their_legs() {
    let positions = [
        "kb4o1/8/2n5/3O4/8/1B3N2/8/7K w - - 0 1",
        "4k3/1o6/3b4/4N3/2n5/5O2/1B6/4K3 b - - 0 1",
        "k7/8/2B5/8/4O3/8/2N5/4K2o w - - 0 1",
    ];
    let legs = |fen: &str| -> String {
        let (board, rest) = fen.split_once(' ').expect("a side");
        let board: String = board
            .chars()
            .map(|c| match c {
                'O' => 'P',
                'o' => 'p',
                'B' => 'C',
                'b' => 'c',
                'N' => 'M',
                'n' => 'm',
                other => other,
            })
            .collect();
        format!("{board} {rest}")
    };
    for (name, engine) in engines("bent") {
        for fen in positions {
            for depth in 1..=3 {
                let bent = engine.perft(fen, depth).unwrap_or_else(|e| panic!("{e}"));
                let written = engine
                    .perft(&legs(fen), depth)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert!(bent > 0, "{name} `{fen}` perft {depth} is 0");
                assert_eq!(bent, written, "{name} `{fen}` perft {depth}");
            }
        }
    }
}

/// XBetza's `x` (`relay.vdl`): the relay `mNxaN` induces a friend a knight's leap away to leap as a
/// knight; the king `KxK` borrows the moves of the friends next to it. Counted by hand with White's
/// relay a1, rook b3, knight d2 and king c1 against Black's king e8: the relay's c2 (b3 is a friend)
/// and, induced, the rook's knight leaps a5, c5 and d4 (d2 and c1 are friends, a1 straight back); the
/// rook's fourteen; the knight's b1, c4, e4, f3, f1; the king's b1, b2, c2, d1 and, borrowing the
/// knight's leaps, a2, d3 and e2.
#[test]
fn induction_and_borrowing_by_hand() {
    exact_moves(
        "relay",
        "4k3/8/8/8/8/1R6/3N4/E1K5 w - - 0 1",
        &[
            "a1c2", "b3a5", "b3c5", "b3d4", "b3b1", "b3b2", "b3b4", "b3b5", "b3b6", "b3b7", "b3b8",
            "b3a3", "b3c3", "b3d3", "b3e3", "b3f3", "b3g3", "b3h3", "d2b1", "d2c4", "d2e4", "d2f3",
            "d2f1", "c1b1", "c1b2", "c1c2", "c1d1", "c1a2", "c1d3", "c1e2",
        ],
    );
}

/// `relay.vdl` against a second move generator written from the pieces' definitions
/// (`python3 tests/reference/relay.py "FEN" DEPTH`): induced captures and checks, an induced king,
/// moves borrowed into and out of check, and results reached both by a piece and by its inducer.
#[test]
fn induction_and_borrowing_against_a_second_generator() {
    let rows: &[(&str, &[u64])] = &[
        (
            "rnbekbnr/8/8/8/8/8/8/RNBEKBNR w - - 0 1",
            &[47, 2075, 92737],
        ),
        ("4k3/8/8/8/8/8/8/R1E1K3 w - - 0 1", &[17, 80, 1715]),
        (
            "r3k2r/8/2n1e3/1N3b2/3E4/1R2B3/4K3/8 w - - 0 1",
            &[37, 1627, 54196],
        ),
        (
            "r3k2r/8/2n1e3/1N3b2/3E4/1R2B3/4K3/8 b - - 0 1",
            &[47, 1616, 71244],
        ),
        ("4k3/3e4/8/2b1n3/8/3KR3/4E3/8 b - - 0 1", &[27, 344, 7933]),
        ("3rk3/8/4E3/8/1b6/8/3K4/2E1R3 w - - 0 1", &[14, 348, 7989]),
    ];
    perft_rows("relay", rows, false);
}

/// Stacks (`stacks.vdl`, 5x5, positions in the `{board} {side}` text, a stack written
/// `(TOP BOTTOM)`), counted by hand:
/// - White's lord on c3 between Black's lord c4, Black's vassal b3, White's vassal d3 and Black's
///   lord on top of a White vassal on c2: no step (all four neighbours full), the jump over the
///   unstacked enemy lord to c5 (not over the stacked one), and climbing onto either vassal, b3 or
///   d3; White's vassal d3 steps to d2, d4, e3 (it does not jump the lord). Black: the lord on c4
///   steps to b4, c5, d4 (its jump over c3 lands on the full c2); the vassal b3 steps to a3, b2, b4;
///   the lord on top of the stack steps off to b2, c1, d2 and neither jumps nor climbs (it is
///   stacked).
/// - With White's lord on top of the b3 vassal, it steps off to a3, b2, b4 or c3, and the vassal d3
///   also has c3.
/// - The raider on c3 steps, captures diagonally (b4, d2) and, while Black controls a stack or White
///   has fewer than five pieces on top, steps diagonally (b2, d4); on top of a stack the same, and
///   with a free Black vassal beside it it climbs onto it (b3) from the stack.
/// - With White's four vassals on a5..d5 and the raider (five pieces), the raider's diagonal steps
///   come only with a Black stack on the board (a White vassal under a Black lord does not count
///   for White); a White lord on top of a Black vassal counts for White.
#[test]
fn stacks_by_hand() {
    let cases: &[(&str, &[&str])] = &[
        (
            "5/2l2/1vLV1/2(lV)2/5 w",
            &["c3c5", "c3b3", "c3d3", "d3d2", "d3d4", "d3e3"],
        ),
        (
            "5/2l2/1vLV1/2(lV)2/5 b",
            &[
                "c4b4", "c4c5", "c4d4", "b3a3", "b3b2", "b3b4", "c2b2", "c2c1", "c2d2",
            ],
        ),
        (
            "5/2l2/1(Lv)1V1/2(lV)2/5 w",
            &[
                "b3a3", "b3b2", "b3b4", "b3c3", "d3c3", "d3d2", "d3d4", "d3e3",
            ],
        ),
        (
            "5/1v3/2R2/3v1/5 w",
            &[
                "c3b3", "c3c2", "c3c4", "c3d3", "c3b4", "c3d2", "c3b2", "c3d4",
            ],
        ),
        (
            "5/1v3/2(Rv)2/5/5 w",
            &[
                "c3b3", "c3c2", "c3c4", "c3d3", "c3b4", "c3b2", "c3d2", "c3d4",
            ],
        ),
        (
            "5/5/1v(Rv)2/5/5 w",
            &[
                "c3c2", "c3c4", "c3d3", "c3b2", "c3b4", "c3d2", "c3d4", "c3b3",
            ],
        ),
        (
            "VVVV1/5/2R2/5/5 w",
            &[
                "a5a4", "b5b4", "c5c4", "d5d4", "d5e5", "c3b3", "c3c2", "c3c4", "c3d3",
            ],
        ),
        (
            "VVVV1/5/2R2/5/(lV)4 w",
            &[
                "a5a4", "b5b4", "c5c4", "d5d4", "d5e5", "c3b3", "c3c2", "c3c4", "c3d3", "c3b2",
                "c3b4", "c3d2", "c3d4",
            ],
        ),
        (
            "VVVV1/5/2R2/5/(Lv)4 w",
            &[
                "a5a4", "b5b4", "c5c4", "d5d4", "d5e5", "c3b3", "c3c2", "c3c4", "c3d3", "a1a2",
                "a1b1",
            ],
        ),
    ];
    for (fen, want) in cases {
        exact_moves("stacks", fen, want);
    }
    // Climbing onto a piece, stepping off (the piece below stands free again), capturing from the
    // top of a stack and climbing from one stack onto another piece.
    let after: &[(&str, &[&str], &str)] = &[
        (
            "5/2l2/1vLV1/2(lV)2/5 w",
            &["c3b3"],
            "5/2l2/1(Lv)1V1/2(lV)2/5 b",
        ),
        (
            "5/2l2/1vLV1/2(lV)2/5 w",
            &["c3d3"],
            "5/2l2/1v1(LV)1/2(lV)2/5 b",
        ),
        (
            "5/2l2/1vLV1/2(lV)2/5 w",
            &["c3b3", "c2c1", "b3b4"],
            "5/1Ll2/1v1V1/2V2/2l2 b",
        ),
        ("5/1v3/2(Rv)2/5/5 w", &["c3b4"], "5/1R3/2v2/5/5 b"),
        ("5/5/1v(Rv)2/5/5 w", &["c3b3"], "5/5/1(Rv)v2/5/5 b"),
    ];
    for (name, engine) in engines("stacks") {
        for (fen, moves, want) in after {
            assert_eq!(
                engine.after(fen, moves).as_deref(),
                Ok(*want),
                "{name}: `{fen}` after {moves:?}"
            );
        }
    }
}

/// Stacks in random games: at every ply each compiled engine (the compact form among them)
/// reaches the interpreter's position text by its own moves (unmake restoring each one, the
/// incremental hash the recomputed one), lists the same moves there and counts the same perft from
/// it.
#[test]
fn stacks_agree_with_the_interpreter_in_random_games() {
    let engines = engines("stacks");
    assert_eq!(engines.len(), 3, "stacks.vdl has a compact form");
    let (_, reference) = &engines[0];
    let mut rng = vdl_tests::Rng::new(0x57ac);
    let mut stacked = 0;
    for start in [
        "lvrvl/v1v1v/5/V1V1V/LVRVL w",
        "l(Lv)r1l/v1v1v/2(Rv)2/V1V1V/L(lV)1VL b",
    ] {
        for _ in 0..4 {
            let mut played: Vec<String> = Vec::new();
            for ply in 0..40 {
                let text = reference.after(start, &refs(&played)).expect("plays");
                stacked += text.matches('(').count();
                let moves = same_ply(&engines, start, &played, &text, ply, true);
                if moves.is_empty() {
                    break;
                }
                played.push(moves[rng.below(moves.len())].clone());
            }
        }
    }
    assert!(stacked > 50, "only {stacked} stacks seen");
}

/// One ply of a random game on every compiled engine of an input (`engines[0]` is the interpreter):
/// each reaches the interpreter's position `text` by playing `played` from `start` (checking unmake
/// and the incremental hash at every move when `checked`), lists the same moves there and counts the
/// same perft 2. Returns the interpreter's moves, sorted.
fn same_ply(
    engines: &[(String, Box<dyn Probe>)],
    start: &str,
    played: &[String],
    text: &str,
    ply: usize,
    checked: bool,
) -> Vec<String> {
    let reference = &engines[0].1;
    let (mut moves, _) = reference.moves(text).expect("reads");
    moves.sort();
    let perft = reference.perft(text, 2).expect("reads");
    for (name, engine) in &engines[1..] {
        let reached = if checked {
            engine.after_checked(start, &refs(played))
        } else {
            engine.after(start, &refs(played))
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(reached, text, "{name}: ply {ply} after {played:?}");
        let (mut got, counted) = engine.moves(text).expect("reads");
        got.sort();
        assert_eq!(got, moves, "{name}: `{text}`");
        assert_eq!(counted, moves.len() as u64, "{name}: `{text}` counted");
        assert_eq!(
            engine.perft(text, 2).expect("reads"),
            perft,
            "{name}: `{text}` perft 2"
        );
    }
    moves
}

fn refs(moves: &[String]) -> Vec<&str> {
    moves.iter().map(String::as_str).collect()
}

/// Perft of `stacks.vdl` from positions with stacks: every compiled engine counts what the
/// interpreter counts.
#[test]
fn stacks_perft_agrees_with_the_interpreter() {
    perft_agrees(
        "stacks",
        &[
            "lvrvl/v1v1v/5/V1V1V/LVRVL w",
            "l(Lv)r1l/v1v1v/2(Rv)2/V1V1V/L(lV)1VL w",
            "5/1(lV)(rV)2/1L1v1/2V2/R1(Lv)1l b",
        ],
    );
}

/// Moves under conditions with a royal piece (`conditions.vdl`, 6x6), counted by hand. White's king
/// d2 and jumper d3 against Black's king d6 and jumper d4: the king steps to c1, d1, e1, c2, e2 (the
/// jumper's diagonal captures reach c3 and e3) and, Black having fewer than ten pieces, leaps to b2
/// and f2 (d4 is full); the jumper steps to c3 and e3, jumps the enemy jumper to d5 and, White
/// having no rook, leaps as a knight to its eight cells. With a Black rook on d4 instead, the
/// jumper is pinned (no move, its jump over the rook included) and the king also has c3 and e3.
#[test]
fn moves_under_conditions_with_a_royal_piece_by_hand() {
    exact_moves(
        "conditions",
        "3k2/6/3j2/3J2/3K2/6 w",
        &[
            "d2c1", "d2d1", "d2e1", "d2c2", "d2e2", "d2b2", "d2f2", "d3c3", "d3e3", "d3d5", "d3b2",
            "d3b4", "d3f2", "d3f4", "d3c1", "d3e1", "d3c5", "d3e5",
        ],
    );
    exact_moves(
        "conditions",
        "3k2/6/3r2/3J2/3K2/6 w",
        &[
            "d2c1", "d2d1", "d2e1", "d2c2", "d2e2", "d2c3", "d2e3", "d2b2", "d2f2",
        ],
    );
}

/// Perft of `conditions.vdl`, with pins and checks: every compiled engine counts what the
/// interpreter counts.
#[test]
fn moves_under_conditions_with_a_royal_piece_agree_with_the_interpreter() {
    perft_agrees(
        "conditions",
        &[
            "rjkjjr/jjjjjj/6/6/JJJJJJ/RJKJJR w",
            "2k3/1j4/2J3/6/1R1j2/2K3 w",
            "2k3/2r3/2J3/1j4/2K3/6 w",
            "r1k3/2j3/6/1J1J2/2K1j1/6 b",
        ],
    );
}

/// Capturing leaps under a condition (`conditional_captures.vdl`, 5x5), counted by hand: the
/// knight leaps and takes as a knight only while the enemy has three pieces or more. White's knight
/// a1 and king c1 against Black's king c5 and knight b3: Black has two pieces, so the knight only
/// steps (a2, b1) and the king has b1, b2, c2, d1, d2 (Black's knight, facing two pieces, attacks
/// nothing). With a Black pawn on d4 the knight also leaps to b3 (taking) and c2. With a White rook
/// on b1 instead, Black's knight attacks and checks the king on c1: the rook takes it (b1b3) or the
/// king goes to b2, c2 or d1 (d2 is attacked); White's knight still cannot leap.
#[test]
fn capturing_leaps_under_a_condition_by_hand() {
    let stem = "conditional_captures";
    let king = ["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"];
    let mut quiet = vec!["a1a2", "a1b1"];
    quiet.extend(king);
    exact_moves(stem, "2k2/5/1n3/5/N1K2 w", &quiet);
    let mut leaps = quiet.clone();
    leaps.extend(["a1b3", "a1c2"]);
    exact_moves(stem, "2k2/3p1/1n3/5/N1K2 w", &leaps);
    exact_moves(
        stem,
        "2k2/5/1n3/5/NRK2 w",
        &["b1b3", "c1b2", "c1c2", "c1d1"],
    );
}

/// Perft of `conditional_captures.vdl`, where captures switch the knights' leaps on and off:
/// every compiled engine counts what the interpreter counts.
#[test]
fn capturing_leaps_under_a_condition_agree_with_the_interpreter() {
    perft_agrees_to(
        "conditional_captures",
        &[
            "rnk1n/pp1pp/5/PP1PP/RNK1N w",
            "2k1n/5/5/5/RNK2 w",
            "1nk2/p4/5/2N2/R1K1n b",
            "n1k2/5/1N3/5/R1K1n w",
        ],
        5,
    );
}

/// Cannon hops under a condition on the hurdle (`hurdle_captures.vdl`, 6x6, nothing royal), counted
/// by hand: the cannon hops, moving or taking, only over a pawn. White's cannon a1 and pawn c1
/// against Black's cannon e1: the cannon slides a2-a6 and b1, hops the pawn to d1 and takes on e1;
/// the pawn steps to c2. With a rook on c1 instead the cannon has only its slides, and the rook
/// c2-c6, b1, d1 and takes on e1.
#[test]
fn capturing_hops_under_a_condition_on_the_hurdle_by_hand() {
    let stem = "hurdle_captures";
    let slides = ["a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1b1"];
    let mut over_pawn = slides.to_vec();
    over_pawn.extend(["a1d1", "a1e1", "c1c2"]);
    exact_moves(stem, "5r/6/6/6/6/C1P1c1 w", &over_pawn);
    let mut over_rook = slides.to_vec();
    over_rook.extend(["c1c2", "c1c3", "c1c4", "c1c5", "c1c6", "c1b1", "c1d1", "c1e1"]);
    exact_moves(stem, "5r/6/6/6/6/C1R1c1 w", &over_rook);
}

/// Perft of `hurdle_captures.vdl`: every compiled engine counts what the interpreter counts.
#[test]
fn capturing_hops_under_a_condition_on_the_hurdle_agree_with_the_interpreter() {
    perft_agrees_to(
        "hurdle_captures",
        &[
            "c1r1rc/pppppp/6/6/PPPPPP/C1R1RC w",
            "2r3/2p3/6/2c3/2P3/C1R1c1 b",
            "c1r1rc/1p1p1p/p1p1p1/1P1P1P/P1P1P1/C1R1RC b",
        ],
        4,
    );
}

/// En-passant rights that last until their creator's next turn, two single moves a turn
/// (`lasting_rights.vdl`, 5x6), counted by hand: White's pawns b2 and d2 both step two (b4, d4) in one
/// turn, beside Black's pawns on a4 and c4. Black may then take either en passant: a4b3 and c4b3 over
/// b3, c4d3 over d3, besides a4a3, c4c3 and his king's five steps from c6. After Black takes c4d3 the
/// right over b3 still stands for his second single move (a4b3); the hash and unmake agree on every
/// engine along the way. (The position text of a two-player game holds one right, the latest.)
#[test]
fn lasting_en_passant_rights_by_hand() {
    let start = "2k2/5/p1p2/5/1P1P1/2K2 w - - 0 1";
    let mut want = vec![
        "a4a3", "a4b3", "c4b3", "c4c3", "c4d3", "c6b5", "c6b6", "c6c5", "c6d5", "c6d6",
    ];
    want.sort_unstable();
    for (name, engine) in engines("lasting_rights") {
        for played in [&["b2b4", "d2d4"][..], &["b2b4", "d2d4", "c4d3"]] {
            engine
                .after_checked(start, played)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let mut moves = engine
            .moves_after(start, &["b2b4", "d2d4"])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        moves.sort();
        assert_eq!(moves, want, "{name}");
        let moves = engine
            .moves_after(start, &["b2b4", "d2d4", "c4d3"])
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(moves.iter().any(|m| m == "a4b3"), "{name}: {moves:?}");
    }
}

/// Perft of `lasting_rights.vdl`, and random games favouring double steps, compared at every ply:
/// every compiled engine agrees with the interpreter.
#[test]
fn lasting_en_passant_rights_of_two_moves_a_turn_agree_with_the_interpreter() {
    let start = "2k2/ppppp/5/5/PPPPP/2K2 w - - 0 1";
    perft_agrees_to(
        "lasting_rights",
        &[
            start,
            "2k2/5/p1p2/5/1P1P1/2K2 w - - 0 1",
            "2k2/1p1p1/5/P1P2/5/2K2 b - - 0 1",
        ],
        5,
    );
    random_games(
        ("lasting_rights", start),
        (0x001a_57e9, 8, 40),
        |_, _| {},
        often_two_cells,
    );
}

/// Pick-up moves with a royal piece (`pick_ups.vdl`, 5x5), counted by hand: White's rook a3 is
/// pinned by Black's rook a5 against the king on a1, so it may not be picked up (and moves only along
/// the file: a2, a4, a5); the knight c3 may (N^c3) or leap to its eight cells; the king is never
/// picked up and steps to a2, b1, b2: 15 moves.
#[test]
fn pick_ups_by_hand() {
    exact_moves(
        "pick_ups",
        "r3k/5/R1N2/5/K4 w - - 0 1",
        &[
            "N^c3", "a1a2", "a1b1", "a1b2", "a3a2", "a3a4", "a3a5", "c3a2", "c3a4", "c3b1", "c3b5",
            "c3d1", "c3d5", "c3e2", "c3e4",
        ],
    );
}

/// Perft of `pick_ups.vdl`, pieces picked up and dropped again: every compiled engine counts what
/// the interpreter counts.
#[test]
fn pick_ups_agree_with_the_interpreter() {
    perft_agrees(
        "pick_ups",
        &[
            "rnk1r/ppppp/5/PPPPP/RNK1R w - - 0 1",
            "r3k/5/R1N2/5/K4 w - - 0 1",
            "r3k/1p3/R1N2/3P1/K4[Nn] b - - 0 1",
        ],
    );
}

/// Turns of several single moves in random games (`turns.vdl`: stacks, frozen pieces, capture
/// counters, end rules at the start of a turn): at every single move each compiled engine reaches
/// the interpreter's position text by its own moves (the single moves made in the turn, the frozen
/// pieces and the counters included), lists the same moves there and counts the same perft from it.
#[test]
fn turns_agree_with_the_interpreter_in_random_games() {
    let engines = engines("turns");
    assert_eq!(engines.len(), 3, "turns.vdl has a compact form");
    let (_, reference) = &engines[0];
    let mut rng = vdl_tests::Rng::new(0x7a2e);
    let (mut frozen, mut within) = (0, 0);
    for start in [
        "lvrvl/v1v1v/5/V1V1V/LVRVL w 0 - 0,0,0,0,0,0",
        "l(Lv)r1l/v1v1v/2(Rv)2/V1V1V/L(lV)1VL b 1 c5 1,0,0,0,0,0",
    ] {
        for _ in 0..4 {
            let mut played: Vec<String> = Vec::new();
            for ply in 0..60 {
                let text = reference.after(start, &refs(&played)).expect("plays");
                let fields: Vec<&str> = text.split(' ').collect();
                frozen += usize::from(fields[3] != "-");
                within += usize::from(fields[2] != "0");
                let moves = same_ply(&engines, start, &played, &text, ply, true);
                if moves.is_empty() {
                    break;
                }
                played.push(moves[rng.below(moves.len())].clone());
            }
        }
    }
    assert!(
        frozen > 20,
        "only {frozen} positions with frozen pieces seen"
    );
    assert!(within > 50, "only {within} positions within a turn seen");
}

/// Perft of `turns.vdl` at the start of a turn and within one (frozen pieces, a frozen piece under
/// a stack): every compiled engine counts what the interpreter counts.
#[test]
fn turns_perft_agrees_with_the_interpreter() {
    perft_agrees(
        "turns",
        &[
            "lvrvl/v1v1v/5/V1V1V/LVRVL w 0 - 0,0,0,0,0,0",
            "l(Lv)r1l/v1v1v/2(Rv)2/V1V1V/L(lV)1VL b 1 c5 1,0,0,0,0,0",
            "5/1(lV)(rV)2/1L1v1/2V2/R1(Lv)1l w 2 b3,c1/v 0,1,0,1,0,0",
        ],
    );
}

/// Custodian capture (`custodian.vdl`, 8x8, and `custodian_stacks.vdl`, 6x6 with stacks written
/// `(TOP BOTTOM)`), worked out by hand; captured pieces go to the captor's hand in `custodian.vdl`:
/// - the rook h1e1 closes Black's d2, c3, b4 on the diagonal with White's a5: all three are taken
///   (the half-move count restarts); with a fourth Black unit on a5 the run is too long and nothing
///   is taken;
/// - a1e1 closes f2, g3, h4 against the board's edge (`edge_jaw`);
/// - a1e1 puts White's own e2 and e3 between e1 and White's e4 (`enclose friend 2`);
/// - h1b1 next to the corner a1, whose neighbours a2, b1, b2 are then all White's: the unit on a1
///   is taken, Black's or White's (`corner corners enemy friend`);
/// - on stacks, d1c1 closes the stack b1 against a1: only its top piece is taken, Black's lord or
///   (between two more of White's units) White's own, and the vassal below stands free; c1b1 takes
///   the corner unit a1, a stack losing its top piece;
/// - in `custodian_units.vdl` (`remove unit`) the same moves take the whole stack: b1 and a1 are
///   left empty.
#[test]
fn custodian_by_hand() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "custodian",
            "8/8/8/P7/1p6/2p5/3p4/7R w - - 0 1",
            "h1e1",
            "8/8/8/P7/8/8/8/4R3[PPP] b - - 0 1",
        ),
        (
            "custodian",
            "8/8/8/p7/1p6/2p5/3p4/7R w - - 0 1",
            "h1e1",
            "8/8/8/p7/1p6/2p5/3p4/4R3[] b - - 1 1",
        ),
        (
            "custodian",
            "8/8/8/8/7p/6p1/5p2/R7 w - - 0 1",
            "a1e1",
            "8/8/8/8/8/8/8/4R3[PPP] b - - 0 1",
        ),
        (
            "custodian",
            "8/8/8/8/4P3/4P3/4P3/R7 w - - 0 1",
            "a1e1",
            "8/8/8/8/4P3/8/8/4R3[PP] b - - 0 1",
        ),
        (
            "custodian",
            "8/8/8/8/8/8/PP6/P6R w - - 0 1",
            "h1b1",
            "8/8/8/8/8/8/PP6/1R6[P] b - - 0 1",
        ),
        (
            "custodian",
            "8/8/8/8/8/8/PP6/p6R w - - 0 1",
            "h1b1",
            "8/8/8/8/8/8/PP6/1R6[P] b - - 0 1",
        ),
        (
            "custodian_stacks",
            "6/6/6/6/6/L(lV)1L2 w",
            "d1c1",
            "6/6/6/6/6/LVL3 b",
        ),
        (
            "custodian_stacks",
            "6/6/6/6/6/L(Lv)1L2 w",
            "d1c1",
            "6/6/6/6/6/LvL3 b",
        ),
        (
            "custodian_stacks",
            "6/6/6/6/V5/v1L3 w",
            "c1b1",
            "6/6/6/6/V5/1L4 b",
        ),
        (
            "custodian_stacks",
            "6/6/6/6/V5/(lV)1L3 w",
            "c1b1",
            "6/6/6/6/V5/VL4 b",
        ),
        (
            "custodian_units",
            "6/6/6/6/6/L(lV)1L2 w",
            "d1c1",
            "6/6/6/6/6/L1L3 b",
        ),
        (
            "custodian_units",
            "6/6/6/6/V5/(lV)1L3 w",
            "c1b1",
            "6/6/6/6/V5/1L4 b",
        ),
    ];
    for stem in ["custodian", "custodian_stacks", "custodian_units"] {
        let engines = engines(stem);
        assert_eq!(engines.len(), 3, "{stem}.vdl has a compact form");
        for (name, engine) in &engines {
            for (_, fen, mv, want) in cases.iter().filter(|c| c.0 == stem) {
                assert_eq!(
                    engine.after_checked(fen, &[mv]).as_deref(),
                    Ok(*want),
                    "{name}: `{fen}` after {mv}"
                );
            }
        }
    }
}

/// Custodian capture in random games: at every ply each compiled engine reaches the interpreter's
/// position text by its own moves (keeping its hash and unmaking exactly), lists the same moves
/// there and counts the same perft from it; pieces are captured along the way.
#[test]
fn custodian_agrees_with_the_interpreter_in_random_games() {
    let mut rng = vdl_tests::Rng::new(0xc057);
    for (stem, starts, plies) in [
        (
            "custodian",
            &[
                "rnpppnr1/8/p1p1p1p1/8/8/1P1P1P1P/8/1RNPPPNR w - - 0 1",
                "r1p1p1n1/1p1p1p1p/8/8/8/8/P1P1P1P1/1N1P1P1R b - - 0 1",
            ][..],
            60,
        ),
        (
            "custodian_stacks",
            &[
                "lvlvlv/vlvlvl/6/6/LVLVLV/VLVLVL w",
                "l(Lv)l1lv/v1v1vl/2(lV)3/6/LVLV(Lv)V/V1V1VL b",
            ][..],
            80,
        ),
        (
            "custodian_units",
            &[
                "lvlvlv/vlvlvl/6/6/LVLVLV/VLVLVL w",
                "l(Lv)l1lv/v1v1vl/2(lV)3/6/LVLV(Lv)V/V1V1VL b",
            ][..],
            80,
        ),
    ] {
        let engines = engines(stem);
        assert_eq!(engines.len(), 3, "{stem}.vdl has a compact form");
        let (_, reference) = &engines[0];
        let mut fewer = 0;
        for start in starts {
            // The units on the board (not in hand).
            let units = |text: &str| {
                let board = text.split([' ', '[']).next().unwrap_or("");
                board.chars().filter(|c| c.is_ascii_alphabetic()).count()
            };
            let initial = units(start);
            for _ in 0..4 {
                let mut played: Vec<String> = Vec::new();
                let mut least = initial;
                for ply in 0..plies {
                    let text = reference.after(start, &refs(&played)).expect("plays");
                    least = least.min(units(&text));
                    let moves = same_ply(&engines, start, &played, &text, ply, false);
                    if moves.is_empty() {
                        break;
                    }
                    played.push(moves[rng.below(moves.len())].clone());
                }
                for (name, engine) in &engines[1..] {
                    engine
                        .after_checked(start, &refs(&played))
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                }
                if least < initial {
                    fewer += 1;
                }
            }
        }
        assert!(fewer >= 4, "{stem}: only {fewer} games captured anything");
    }
}

/// Perft of the custodian inputs from positions where captures come soon: every compiled engine
/// counts what the interpreter counts.
#[test]
fn custodian_perft_agrees_with_the_interpreter() {
    for (stem, fens) in [
        (
            "custodian",
            &[
                "rnpppnr1/8/p1p1p1p1/8/8/1P1P1P1P/8/1RNPPPNR w - - 0 1",
                "r2p2n1/1p1P1p1p/2pPp3/8/3n4/P1P3P1/1p3P1N/1R5R w - - 0 1",
                "8/2pp1p2/1P2P1p1/2ppP3/1P1Pp3/8/p5P1/R3n2R[Pp] b - - 0 1",
            ][..],
        ),
        (
            "custodian_stacks",
            &[
                "lvlvlv/vlvlvl/6/6/LVLVLV/VLVLVL w",
                "l(Lv)l1lv/v1v1vl/2(lV)3/1L4/LV1V(Lv)V/V1V1VL b",
                "1v1l1v/l(lV)1L2/1V1l1L/2vV2/L1(Lv)1v1/V3L1 w",
            ][..],
        ),
        (
            "custodian_units",
            &[
                "l(Lv)l1lv/v1v1vl/2(lV)3/1L4/LV1V(Lv)V/V1V1VL b",
                "1v1l1v/l(lV)1L2/1V1l1L/2vV2/L1(Lv)1v1/V3L1 w",
            ][..],
        ),
    ] {
        perft_agrees(stem, fens);
    }
}

/// The start of `four_players.vdl` (four players in two teams on one 10x10 board).
const FOUR_PLAYERS: &str = "2(2R)*(2N)*(2B)*(2K)*(2Q)*(2C)*2/2(2P)*(2P)*(2P)*(2P)*(2P)*(2P)*2/\
    (1C)*(1P)*6(3P)*(3C)*/(1Q)*(1P)*6(3P)*(3Q)*/(1K)*(1P)*6(3P)*(3K)*/(1B)*(1P)*6(3P)*(3B)*/\
    (1N)*(1P)*6(3P)*(3N)*/(1R)*(1P)*6(3P)*(3R)*/2(0P)*(0P)*(0P)*(0P)*(0P)*(0P)*2/\
    2(0R)*(0N)*(0B)*(0K)*(0Q)*(0C)*2 p0 - - 0 1";

/// Four players in the compact form: perft from the start, and from a position where the first
/// player may castle, agrees with the interpreter.
#[test]
fn four_players_perft_agrees_with_the_interpreter() {
    let engines = engines("four_players");
    let castling = engines[0]
        .1
        .after(
            FOUR_PLAYERS,
            &[
                "d1c3", "b8c8", "h9h8", "i3h3", "f2f3", "b7c7", "g9g8", "i4h4", "e1f2", "b6c6",
                "f9f8", "i5h5",
            ],
        )
        .expect("plays");
    let (moves, _) = engines[0].1.moves(&castling).expect("reads");
    assert!(moves.iter().any(|m| m == "f1d1"), "castling in {moves:?}");
    perft_agrees("four_players", &[FOUR_PLAYERS, &castling]);
}

/// Four players in random games: at every ply each compiled engine (the compact form among them)
/// reaches the interpreter's position by its own moves (unmake and the incremental hash checked),
/// lists the same moves and counts the same perft 2; the games drop pieces a partner captured and
/// reach positions where a player may castle.
#[test]
fn four_players_agree_with_the_interpreter_in_random_games() {
    let (mut drops, mut castling) = (0, 0);
    let castles = ["f1d1", "a6a4", "f10d10", "j6j4"];
    random_games(
        ("four_players", FOUR_PLAYERS),
        (0x4_9a3e, 3, 120),
        |_, moves| {
            castling += moves
                .iter()
                .filter(|m| castles.contains(&m.as_str()))
                .count()
        },
        |moves, rng| {
            let mv = moves[rng.below(moves.len())].clone();
            drops += usize::from(mv.contains('@'));
            mv
        },
    );
    assert!(drops > 10, "only {drops} drops played");
    assert!(castling > 0, "no position where a player may castle");
}

/// Random games from `start` on every engine of an input (`stem`), compared at each ply by
/// `same_ply` (unmake and the hash checked): `games` games of at most `plies` plies from the
/// random `seed`; `observe` sees the interpreter's position text and moves at each ply, and
/// `choose` picks the move played among the moves.
fn random_games(
    (stem, start): (&str, &str),
    (seed, games, plies): (u64, usize, usize),
    mut observe: impl FnMut(&str, &[String]),
    mut choose: impl FnMut(&[String], &mut vdl_tests::Rng) -> String,
) {
    let engines = engines(stem);
    assert_eq!(engines.len(), 3, "{stem}.vdl has a compact form");
    let reference = &engines[0].1;
    let mut rng = vdl_tests::Rng::new(seed);
    for _ in 0..games {
        let mut played: Vec<String> = Vec::new();
        for ply in 0..plies {
            let text = reference.after(start, &refs(&played)).expect("plays");
            let moves = same_ply(&engines, start, &played, &text, ply, true);
            if moves.is_empty() {
                break;
            }
            observe(&text, &moves);
            played.push(choose(&moves, &mut rng));
        }
    }
}

/// The start of `four_pawns.vdl` (four players, en-passant rights until the owner's next turn).
const FOUR_PAWNS: &str = "3(2R)*(2K)*3/2(2P)*(2P)*(2P)*(2P)*2/1(1P)*4(3P)*1/(1K)*(1P)*4(3P)*(3R)*/\
    (1R)*(1P)*4(3P)*(3K)*/1(1P)*4(3P)*1/2(0P)*(0P)*(0P)*(0P)*2/3(0K)*(0R)*3 p0 - - 0 1";

/// En-passant rights that last until their owner's next turn, among four players: at every ply of
/// random games each compiled engine agrees with the interpreter (position, moves, perft 2), and
/// the games reach positions where rights of several players stand at once.
#[test]
fn lasting_en_passant_rights_agree_with_the_interpreter() {
    perft_agrees("four_pawns", &[FOUR_PAWNS]);
    let mut several = 0;
    random_games(
        ("four_pawns", FOUR_PAWNS),
        (0xe9_a55e, 6, 60),
        |text, _| several += usize::from(text.split(' ').nth(3).is_some_and(|f| f.contains(','))),
        often_two_cells,
    );
    assert!(
        several > 5,
        "only {several} positions with rights of several players"
    );
}

/// Whether a move written `a2a4` goes two cells along a file or a rank of a board of at most nine
/// ranks.
/// A random move, every other ply one of two cells along a line (the double steps among them) when
/// there is one.
fn often_two_cells(moves: &[String], rng: &mut vdl_tests::Rng) -> String {
    let two: Vec<&String> = moves.iter().filter(|m| two_cells(m)).collect();
    if !two.is_empty() && rng.below(2) == 0 {
        two[rng.below(two.len())].clone()
    } else {
        moves[rng.below(moves.len())].clone()
    }
}

fn two_cells(mv: &str) -> bool {
    let b = mv.as_bytes();
    if b.len() != 4 {
        return false;
    }
    let (df, dr) = (
        (b[0] as i32 - b[2] as i32).abs(),
        (b[1] as i32 - b[3] as i32).abs(),
    );
    (df, dr) == (0, 2) || (df, dr) == (2, 0)
}

/// The start of `two_boards.vdl` (8x6 main board, 5x5 annex with ranks 7..11; `*`: unmoved).
const TWO_BOARDS: &str = "r*n*b*q*k*b*n*r*/p*p*p*p*p*p*p*p*/8/8/P*P*P*P*P*P*P*P*/R*N*B*Q*K*B*N*R*|\
                          n*b*r*1q*/p*p*p*p*p*/5/P*P*P*P*P*/Q*1R*B*N* w - - 0 1";

/// The start of `raumschach.vdl` (5x5x5, levels from the top down; `*`: unmoved).
const RAUMSCHACH: &str = "r*n*k*n*r*/p*p*p*p*p*/5/5/5//b*u*q*b*u*/p*p*p*p*p*/5/5/5//5/5/5/5/5//\
                          5/5/5/P*P*P*P*P*/B*U*Q*B*U*//5/5/5/P*P*P*P*P*/R*N*K*N*R* w - - 0 1";

/// Several boards and a 3D board, counted by hand:
/// - `two_boards.vdl` at the start: on the main board each of the eight pawns steps or double-steps
///   (16) and each knight has two cells (4); on the annex each pawn steps (5; its double step lands
///   on a Black pawn), the queen a7 and the rook c7 each have b7, the knight e7 has d9 and the
///   bishop d7 nothing: 28.
/// - with a pawn in White's hand, White's moved pawn on a2 and both kings: drops on the 28 empty
///   cells of ranks 2..5 of the main board off file a, and on all 15 cells of ranks 8..10 of the
///   annex (its file a is another board's file), the pawn's step and the king's five: 49.
/// - `raumschach.vdl` at the start: the pawns of level 1 step forward (5; up is a pawn of level 2),
///   those of level 2 forward or up (10), each knight has 6 cells, the bishops 6 and 7, the
///   unicorns 4 and 3, the queen 14 (3 up, 4 along its rank's diagonals up, 3 up the file's
///   diagonal, 4 triagonal): 61.
///
/// Every engine, the compact form among them, counts them and the interpreter's perft 2 and 3.
#[test]
fn several_boards_and_3d_boards_by_hand() {
    let two_boards_rows: Vec<(&str, Vec<u64>)> = vec![
        (TWO_BOARDS, vec![28]),
        ("4k3/8/8/8/P7/4K3|5/5/5/5/5 w white:(P) - 0 1", vec![49]),
    ];
    for (stem, rows) in [
        ("two_boards", two_boards_rows),
        ("raumschach", vec![(RAUMSCHACH, vec![61])]),
    ] {
        let engines = engines(stem);
        let reference = &engines[0].1;
        let rows: Vec<(&str, Vec<u64>)> = rows
            .into_iter()
            .map(|(fen, mut counts)| {
                for depth in 2..=3 {
                    counts.push(reference.perft(fen, depth).expect("reads"));
                }
                (fen, counts)
            })
            .collect();
        let rows: Vec<(&str, &[u64])> = rows.iter().map(|(f, c)| (*f, c.as_slice())).collect();
        perft_rows(stem, &rows, true);
    }
}

/// Several boards and 3D boards in random games: at every ply each compiled engine (the compact form
/// among them) reaches the interpreter's position text by its own moves (unmake restoring each one,
/// the incremental hash the recomputed one), lists the same moves there and counts the same perft 2
/// from it. The games castle, promote, capture into the hand and drop on both boards; in 3D, captures
/// explode (`atomic_3d.vdl`) and drops and moves convert the stones around them (`ataxx_3d.vdl`), on
/// the 26 cells around a cell.
#[test]
fn several_boards_and_3d_boards_agree_with_the_interpreter_in_random_games() {
    let mut rng = vdl_tests::Rng::new(0xb0a2d5);
    let mut seen = std::collections::BTreeMap::new();
    for (stem, starts, plies) in [
        (
            "two_boards",
            &[
                TWO_BOARDS,
                "r*3k*2r*/1P6/8/8/6p1/R*3K*2R*|5/1P3/5/3p1/5 w white:(N),black:(P) - 0 1",
            ][..],
            80,
        ),
        (
            "raumschach",
            &[
                RAUMSCHACH,
                "5/5/5/5/k4//P4/5/5/5/5//5/2u2/5/5/5//5/5/5/5/5//5/5/5/1p3/3QK w - - 0 1",
            ][..],
            60,
        ),
        ("three_d", &["2k/3/3//3/1R1/3//3/3/K2 w - - 0 1"][..], 40),
        (
            "atomic_3d",
            &["r*k*2/p*p*2/4/4//2n*q*/2p*p*/4/4//4/4/P*P*2/Q*N*2//4/4/2P*P*/2K*R* w - - 0 1"][..],
            40,
        ),
        (
            "ataxx_3d",
            &["P3/4/4/3p//p3/4/4/3P w white:(P)(P)(P)(P)(P)(P)(P)(P),\
               black:(P)(P)(P)(P)(P)(P)(P)(P) - 0 1"][..],
            40,
        ),
    ] {
        let engines = engines(stem);
        assert_eq!(engines.len(), 3, "{stem}.vdl has a compact form");
        let (_, reference) = &engines[0];
        for start in starts {
            for _ in 0..3 {
                let mut played: Vec<String> = Vec::new();
                let mut before: Option<[usize; 2]> = None;
                for ply in 0..plies {
                    let text = reference.after(start, &refs(&played)).expect("plays");
                    // The pieces of each player on the boards, written `(0P)`, `(1P)`.
                    let board = text.split(' ').next().unwrap_or("");
                    let units = [board.matches("(0").count(), board.matches("(1").count()];
                    if let Some(before) = before {
                        let lost: Vec<usize> =
                            (0..2).map(|p| before[p].saturating_sub(units[p])).collect();
                        // A capture that takes three pieces or more explodes; a stone lost in
                        // ataxx is converted.
                        if lost.iter().sum::<usize>() >= 3 {
                            *seen.entry((stem, "blast")).or_insert(0) += 1;
                        }
                        if lost.iter().any(|&n| n > 0) {
                            *seen.entry((stem, "loss")).or_insert(0) += 1;
                        }
                    }
                    before = Some(units);
                    let moves = same_ply(&engines, start, &played, &text, ply, true);
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[rng.below(moves.len())].clone();
                    let kind = if mv.contains('@') {
                        "drop"
                    } else if mv.ends_with(|c: char| c.is_ascii_alphabetic()) {
                        "promotion"
                    } else if ["e1g1", "e1c1", "e6g6", "e6c6"].contains(&mv.as_str()) {
                        "castling"
                    } else {
                        "other"
                    };
                    *seen.entry((stem, kind)).or_insert(0) += 1;
                    played.push(mv);
                }
            }
        }
    }
    for (stem, kind) in [
        ("two_boards", "drop"),
        ("two_boards", "promotion"),
        ("two_boards", "castling"),
        ("raumschach", "promotion"),
        ("three_d", "other"),
        ("atomic_3d", "blast"),
        ("ataxx_3d", "drop"),
        ("ataxx_3d", "loss"),
    ] {
        assert!(
            seen.get(&(stem, kind)).is_some_and(|&n| n > 0),
            "{stem}: no {kind} played in {seen:?}"
        );
    }
}

/// The start of `board_moves.vdl` (a 6x6 main board, then the 1x6 corridor H1..H6).
const BOARD_MOVES: &str = "kpw3/sss3/6/6/3SSS/3WPK|w/1/P/p/1/W w - - 0 1";

/// Moves limited to boards (`moves ... on BOARD`, `moves_only_on`, a corridor's own forward),
/// counted by hand at the start of `board_moves.vdl`: on the main board the warrior d1 has b2, c3,
/// e3 and c2 and the slaves step to d3, e3 and f3 (king and priest are shut in); in the corridor
/// the warrior H1 steps to H2 or takes H3 (its knight and ferz moves are replaced there) and the
/// priest H4 steps to H5, leaps to H2 or takes H6 (it slides only on the main board): 12. Every
/// engine, the compact form among them, counts them and the interpreter's perft 2 and 3 (where
/// taking Black's corridor priest ends the game: a piece count on one board); in random games each
/// compiled engine agrees with the interpreter at every ply, corridor moves among them.
#[test]
fn moves_limited_to_boards() {
    let reference = &engines("board_moves")[0].1;
    let mut counts = vec![12];
    for depth in 2..=3 {
        counts.push(reference.perft(BOARD_MOVES, depth).expect("reads"));
    }
    perft_rows("board_moves", &[(BOARD_MOVES, counts.as_slice())], true);
    let mut corridor = 0;
    random_games(
        ("board_moves", BOARD_MOVES),
        (0xb0a2d, 6, 60),
        |_, _| {},
        |moves, rng| {
            let mv = moves[rng.below(moves.len())].clone();
            corridor += usize::from(mv.starts_with('H'));
            mv
        },
    );
    assert!(corridor > 5, "only {corridor} corridor moves played");
}

/// The start of `own_captures.vdl`.
const OWN_CAPTURES: &str = "rnc1nr/pppppp/6/6/PPPPPP/RNC1NR w - - 0 1";

/// Captures of any piece, one's own included (`captures any`), counted by hand at the start of
/// `own_captures.vdl`: six pawn steps; the knights b1 (a3, c3, takes d2) and e1 (d3, f3, takes
/// c2); the rooks take the pawn above and the piece beside them (2 each); the cannon steps to d1
/// and, hopping the pawn c2, the knight e1 and the knight b1, takes the cannon c6, the rook f1 and
/// the rook a1: 20. Every engine, the compact form among them, counts them and the interpreter's
/// perft 2 and 3; in random games each compiled engine agrees with the interpreter at every ply,
/// and players take their own pieces.
#[test]
fn captures_of_own_pieces() {
    let reference = &engines("own_captures")[0].1;
    let mut counts = vec![20];
    for depth in 2..=3 {
        counts.push(reference.perft(OWN_CAPTURES, depth).expect("reads"));
    }
    perft_rows("own_captures", &[(OWN_CAPTURES, counts.as_slice())], true);
    // Pieces of each side on the board, and the side to move.
    let census = |text: &str| {
        let board = text.split(' ').next().unwrap_or("");
        let white = board.chars().filter(char::is_ascii_uppercase).count();
        let black = board.chars().filter(char::is_ascii_lowercase).count();
        (white, black, text.split(' ').nth(1) == Some("w"))
    };
    let mut before: Option<(usize, usize, bool)> = None;
    let mut own = 0;
    random_games(
        ("own_captures", OWN_CAPTURES),
        (0x0c4e, 6, 80),
        |text, _| {
            let now = census(text);
            if let Some((white, black, white_moved)) = before {
                let lost = if white_moved {
                    white > now.0
                } else {
                    black > now.1
                };
                own += usize::from(lost && now.2 != white_moved);
            }
            before = Some(now);
        },
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(own > 5, "only {own} captures of one's own pieces played");
}

/// The start of `neutral_movers.vdl` and `neutral_any.vdl` (owners 0 White, 1 Black, 2 gray).
const NEUTRAL_MOVERS: &str = "(1R)*2(1C)*1(1R)*/1(1S)*(1S)*1(1S)*(1S)*/4(2M)*1/1(2M)*(2E)*2(0E)*/\
                              (0S)*(0S)*1(0S)*(0S)*1/(0R)*1(0C)*2(0R)* white - - 0 1";

/// The owner of the piece on a cell (`b3`) of a 6x6 board in a position text, if any.
fn owner_on(text: &str, cell: &str) -> Option<u8> {
    let (file, rank) = (cell.as_bytes()[0] - b'a', cell.as_bytes()[1] - b'1');
    let board = text.split(' ').next()?;
    let row = board.split('/').nth(5 - rank as usize)?;
    let (mut x, mut chars) = (0u8, row.chars().peekable());
    while let Some(c) = chars.next() {
        if let Some(n) = c.to_digit(10) {
            x += n as u8;
        } else if c == '(' {
            let owner = chars.next()?.to_digit(10)? as u8;
            for c in chars.by_ref() {
                if c == ')' {
                    break;
                }
            }
            if x == file {
                return Some(owner);
            }
            x += 1;
        }
    }
    None
}

/// Pieces moved by players who do not own them (`neutral` sides, `movable_by` on a side and on a
/// piece type, under `near(mover, ...)` and piece-count conditions, `perspective player`), counted
/// by hand at the start of `neutral_movers.vdl`: the rooks a1 (b1) and f1 (e1, d1, f2), the chief
/// (b1, c2, d1), the slaves a2, d2 and e2 one step each (b2 is blocked by gray's mercenary, which
/// it may not take), gray's mercenaries north as White sees it (b4, and e4 takes e5), gray's
/// sethling while White has two rooks (c2, c4, d3) and White's sethling (e3, f2, f4): 18. Under
/// `captures any` (`neutral_any.vdl`) also a1xa2, a1xc1, a2xb3, b2xc3, c1xb2, c1xd2, c3xb3,
/// d2xc3, e2xf3, f1xc1 and f1xf3: 29. Every engine, the compact form among them, counts them and
/// the interpreter's perft 2 and 3; in random games each compiled engine agrees with the
/// interpreter at every ply, and players move gray's pieces and each other's.
#[test]
fn pieces_moved_by_players_who_do_not_own_them() {
    for (stem, first) in [("neutral_movers", 18), ("neutral_any", 29)] {
        let reference = &engines(stem)[0].1;
        let mut counts = vec![first];
        for depth in 2..=3 {
            counts.push(reference.perft(NEUTRAL_MOVERS, depth).expect("reads"));
        }
        perft_rows(stem, &[(NEUTRAL_MOVERS, counts.as_slice())], true);
        let (mut gray, mut enemy) = (0, 0);
        let text = std::cell::RefCell::new(String::new());
        random_games(
            (stem, NEUTRAL_MOVERS),
            (0x9e07, 8, 80),
            |now, _| *text.borrow_mut() = now.to_string(),
            |moves, rng| {
                let text = text.borrow();
                let mv = moves[rng.below(moves.len())].clone();
                let mover = if text.contains(" white ") { 0 } else { 1 };
                match owner_on(&text, &mv[..2]) {
                    Some(2) => gray += 1,
                    Some(owner) if owner != mover => enemy += 1,
                    _ => {}
                }
                mv
            },
        );
        assert!(gray > 4, "{stem}: only {gray} moves of gray pieces played");
        assert!(enemy > 0, "{stem}: no move of an enemy piece played");
    }
}

/// `capturable_rights.vdl` before White's double step f2-f4, with Black's chief next to White's
/// pawn e4 (Black may move it and take en passant on f3) and away from it.
const CAPTURABLE_RIGHTS: [&str; 2] = [
    "n5/3c2/4P1/6/5P/C5 w - - 0 1",
    "n5/2c3/4P1/6/5P/C5 w - - 0 1",
];

/// En-passant rights that count only when a capture can take them (`en_passant_right
/// when_capturable`), with enemy pieces that may take them: after f2-f4 the right on f3 stays when
/// Black's chief stands next to White's pawn e4, which Black may then move and take en passant with
/// (Black's 12 moves, counted by hand: the chief's 8, two knight moves, e4-e3 and e4xf3), and is
/// gone when the chief stands away. Every engine, the compact form among them, reaches the same
/// positions and perft; in random games each compiled engine agrees with the interpreter at every
/// ply, and rights are kept.
#[test]
fn en_passant_rights_only_when_capturable() {
    let engines = engines("capturable_rights");
    assert_eq!(engines.len(), 3, "capturable_rights.vdl has a compact form");
    for (start, right) in CAPTURABLE_RIGHTS.iter().zip([" f3 ", " - "]) {
        for (name, engine) in &engines {
            let text = engine.after(start, &["f2f4"]).expect("plays");
            assert!(text.contains(right), "{name}: `{text}` after f2f4");
        }
    }
    let after = engines[0]
        .1
        .after(CAPTURABLE_RIGHTS[0], &["f2f4"])
        .expect("plays");
    let (moves, _) = engines[0].1.moves(&after).expect("reads");
    assert_eq!(moves.len(), 12, "{moves:?}");
    perft_agrees_to("capturable_rights", &CAPTURABLE_RIGHTS, 4);
    let start = "n1c2n/pppppp/6/6/PPPPPP/N2C1N w - - 0 1";
    perft_agrees_to("capturable_rights", &[start], 4);
    let mut kept = 0;
    random_games(
        ("capturable_rights", start),
        (0xe9a5, 10, 60),
        |text, _| kept += usize::from(text.split(' ').nth(3) != Some("-")),
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(kept > 0, "no en-passant right kept");
}

/// The start of `transfers.vdl` (a 5x5 main board, then the bench x, y).
const TRANSFERS: &str = "(1R)*1(1C)*(1N)*(1R)*/5/5/5/(0R)*(0N)*(0C)*1(0R)*|2 white - - 0 1";

/// Transfers between boards (`transfer`, `target empty` and `any`, `become`, a condition on piece
/// counts), counted by hand at the start of `transfers.vdl`: the chief's four steps, the rooks a1
/// (a2..a4, takes a5) and e1 (e2..e4, takes e5, d1), the knight's three leaps, each of the rooks and
/// the knight to x or y (6) and the chief to x while White has both rooks: 23. Every engine, the
/// compact form among them, counts them and the interpreter's perft 2 and 3; in random games each
/// compiled engine agrees with the interpreter at every ply, and pieces go to the bench and come
/// back.
#[test]
fn transfers_between_boards() {
    let reference = &engines("transfers")[0].1;
    let mut counts = vec![23];
    for depth in 2..=3 {
        counts.push(reference.perft(TRANSFERS, depth).expect("reads"));
    }
    perft_rows("transfers", &[(TRANSFERS, counts.as_slice())], true);
    let (mut out, mut back) = (0, 0);
    random_games(
        ("transfers", TRANSFERS),
        (0x7a5f, 8, 80),
        |_, _| {},
        |moves, rng| {
            let mv = moves[rng.below(moves.len())].clone();
            if mv.starts_with(['x', 'y']) {
                back += 1;
            } else if mv.contains(['x', 'y']) {
                out += 1;
            }
            mv
        },
    );
    assert!(
        out > 5 && back > 5,
        "{out} transfers to the bench, {back} back"
    );
}

/// The start of `four_kings.vdl` (four players, checkmated players out of the game).
const FOUR_KINGS: &str = "3(2N)*(2K)*(2R)*2/8/(1Q)*7/(1K)*6(3Q)*/(1R)*6(3K)*/7(3R)*/8/\
    2(0R)*(0K)*(0N)*3 p0 - - 0 1";

/// A game that goes on after a checkmate, among four players: at every ply of random games each
/// compiled engine (the compact form among them, which leaves the start of a turn with a
/// checkmate to the interpreter) agrees with the interpreter (position, moves, perft 2), and
/// players are checkmated out of the games.
#[test]
fn eliminations_agree_with_the_interpreter_in_random_games() {
    perft_agrees("four_kings", &[FOUR_KINGS]);
    let mut fewer = 0;
    random_games(
        ("four_kings", FOUR_KINGS),
        (0x0e11_4a7e, 6, 60),
        |text, _| {
            let board = text.split(' ').next().unwrap_or("");
            let armies = ["(0", "(1", "(2", "(3"]
                .iter()
                .filter(|a| board.contains(*a))
                .count();
            fewer += usize::from(armies < 4);
        },
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(fewer > 10, "only {fewer} positions after a checkmate");
}

/// The start of `four_emperors.vdl` (four players, kings and emperors royal and `immune`).
const FOUR_EMPERORS: &str = "3(2N)*(2K)*(2R)*2/8/(1Q)*7/(1K)*6(3Q)*/(1R)*6(3K)*/7(3R)*/8/\
    2(0R)*(0K)*(0N)*3 p0 - - 0 1";

/// Royal pieces that cannot be captured, of two types (a checkmate makes the mater's king an
/// emperor): at every ply of random games each compiled engine (the compact form among them)
/// agrees with the interpreter (position, moves, perft 2), no move takes a king or an emperor, and
/// the games reach positions with an emperor.
#[test]
fn immune_royal_pieces_of_two_types_agree_with_the_interpreter() {
    perft_agrees("four_emperors", &[FOUR_EMPERORS]);
    let mut emperors = 0;
    random_games(
        ("four_emperors", FOUR_EMPERORS),
        (0x1_3e7e, 8, 80),
        |text, moves| {
            let board = text.split(' ').next().unwrap_or("");
            emperors += usize::from(board.contains("E)"));
            // No move lands on a king or an emperor.
            let royal_cells = royal_cells(board);
            for mv in moves {
                let to = &mv[mv.len() - 2..];
                assert!(
                    !royal_cells.contains(&to.to_string()),
                    "{mv} takes a royal piece in `{text}`"
                );
            }
        },
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(emperors > 10, "only {emperors} positions with an emperor");
}

/// The cells of the kings and emperors on an 8x8 board written as in `FOUR_EMPERORS`.
fn royal_cells(board: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (r, rank) in board.split('/').enumerate() {
        let mut file = 0u8;
        let mut chars = rank.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else if c == '(' {
                let unit: String = chars.by_ref().take_while(|&c| c != ')').collect();
                if chars.peek() == Some(&'*') {
                    chars.next();
                }
                if unit.ends_with('K') || unit.ends_with('E') {
                    out.push(format!("{}{}", (b'a' + file) as char, 8 - r));
                }
                file += 1;
            }
        }
    }
    out
}

/// The start of `owner_promotions.vdl` (four players whose promotions depend on the owner).
const OWNER_PROMOTIONS: &str = "4(2K)*3/4(1P)*(3P)*2/3(1P)*(3P)*(0P)*(0P)*1/(1K)*(0P)*(0P)*5/\
    2(2P)*3(2P)*(3K)*/1(2P)*1(3P)*(1P)*(2P)*2/2(3P)*(1P)*4/3(0K)*4 p0 - - 0 1";

/// Promotions whose rules depend on the promoting pawn's owner, among four players: perft agrees
/// with the interpreter, and at every ply of random games each compiled engine (the compact form
/// among them) agrees with it (position, moves, perft 2), the games offering each player's own
/// choices: a knight (p0), a rook (p1 and p3), a bishop (p1, p3, p0 on the far edge) and a queen
/// (p0 and p2).
#[test]
fn promotions_by_owner_agree_with_the_interpreter() {
    perft_agrees("owner_promotions", &[OWNER_PROMOTIONS]);
    let mut choices = std::collections::BTreeSet::new();
    random_games(
        ("owner_promotions", OWNER_PROMOTIONS),
        (0x3_e79a, 8, 60),
        |_, moves| {
            for mv in moves {
                if let Some(c) = mv.chars().last().filter(char::is_ascii_alphabetic) {
                    choices.insert(c.to_ascii_lowercase());
                }
            }
        },
        |moves, rng| {
            // A promotion when there is one, every other ply.
            let promotions: Vec<&String> = moves
                .iter()
                .filter(|m| m.ends_with(|c: char| c.is_ascii_alphabetic()))
                .collect();
            if !promotions.is_empty() && rng.below(2) == 0 {
                promotions[rng.below(promotions.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            }
        },
    );
    for c in ['n', 'r', 'b', 'q'] {
        assert!(choices.contains(&c), "no promotion to {c} in {choices:?}");
    }
}

/// The start of `four_passes.vdl` (four players whose pieces move forward only, passing when stuck).
const FOUR_PASSES: &str =
    "3(2R)*(2K)*3/2(2P)*(2P)*(2P)*(2P)*2/1(1P)*4(3P)*1/(1K)*(1P)*4(3P)*(3R)*/\
    (1R)*(1P)*4(3P)*(3K)*/1(1P)*4(3P)*1/2(0P)*(0P)*(0P)*(0P)*2/3(0K)*(0R)*3 p0 - - 0 1";

/// Passes of stuck players among four, in a game that goes on after a checkmate: perft agrees
/// with the interpreter, and at every ply of random games each compiled engine (the compact form
/// among them) agrees with it (position, moves, perft 2), the games reaching passes, checkmates
/// and their end (every player still in passing: a draw; or a player's second checkmate, or the
/// third of the game).
#[test]
fn passes_among_four_agree_with_the_interpreter() {
    perft_agrees("four_passes", &[FOUR_PASSES]);
    let engines = engines("four_passes");
    // The games are played on the interpreter, which sees their ends (the passes in a row and
    // the repetitions are not in the position text).
    let path = workspace_root().join("tests/inputs/movegen/four_passes.vdl");
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("checks");
    let interpreter = Interpreter::new(game).expect("builds");
    let (mut passes, mut fewer, mut ends) = (0, 0, 0);
    let mut rng = vdl_tests::Rng::new(0x9a55);
    for _ in 0..10 {
        let mut position = interpreter.parse_position(FOUR_PASSES).expect("reads");
        let mut played: Vec<String> = Vec::new();
        for ply in 0..300 {
            if interpreter.outcome(&mut position).is_some() {
                ends += 1;
                break;
            }
            let text = interpreter.write_position(&position);
            let moves = same_ply(&engines, FOUR_PASSES, &played, &text, ply, true);
            passes += usize::from(moves.len() == 1 && moves[0] == "pass");
            let board = text.split(' ').next().unwrap_or("");
            fewer += usize::from(["(0", "(1", "(2", "(3"].iter().any(|a| !board.contains(*a)));
            let mv = moves[rng.below(moves.len())].clone();
            let parsed = interpreter.parse_move(&mut position, &mv).expect("legal");
            interpreter.make(&mut position, parsed);
            played.push(mv);
        }
    }
    assert!(passes > 10, "only {passes} positions with a pass");
    assert!(fewer > 10, "only {fewer} positions after a checkmate");
    assert!(ends > 3, "only {ends} games ended");
}

/// The start of `mergers.vdl` (pawns and yeomen that merge into queens in the far half).
const MERGERS: &str = "4kb1r/8/5yp1/YY1Ypp1p/PPP1y1yy/2YP4/8/R1B1K3 w - - 0 1";

/// Merger moves, counted by hand: with White's king e1, pawn b4 and yeoman b5, the moves are the
/// king's five, the yeoman's steps to a6 and c6 and the merger b4+b5, which leaves a queen on b5
/// and restarts the halfmove clock; with a Black bishop on a5 the pawn is pinned: b4+b5 is gone,
/// b4xa5 comes. Every engine, the compact form among them, lists those, and perft agrees with the
/// interpreter from the start and from those positions.
#[test]
fn mergers_by_hand() {
    let free = "4k3/8/8/1Y6/1P6/8/8/4K3 w - - 7 1";
    let pinned = "4k3/8/8/bY6/1P6/8/8/4K3 w - - 0 1";
    let engines = engines("mergers");
    assert_eq!(engines.len(), 3, "mergers.vdl has a compact form");
    let king = ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"];
    for (fen, more) in [
        (free, ["b4+b5", "b5a6", "b5c6"]),
        (pinned, ["b4a5", "b5a6", "b5c6"]),
    ] {
        let mut want: Vec<String> = king
            .iter()
            .chain(more.iter())
            .map(|m| m.to_string())
            .collect();
        want.sort();
        for (name, engine) in &engines {
            let (mut got, counted) = engine.moves(fen).expect("reads");
            got.sort();
            assert_eq!(got, want, "{name}: `{fen}`");
            assert_eq!(counted, want.len() as u64, "{name}: `{fen}` counted");
        }
    }
    for (name, engine) in &engines {
        assert_eq!(
            engine.after_checked(free, &["b4+b5"]).expect("plays"),
            "4k3/8/8/1Q6/8/8/8/4K3 b - - 0 1",
            "{name}"
        );
    }
    perft_agrees_to("mergers", &[MERGERS, free, pinned], 3);
}

/// Merger moves in random games: at every ply each compiled engine (the compact form among
/// them) agrees with the interpreter (position, moves, perft 2), and the games merge pieces.
#[test]
fn mergers_agree_with_the_interpreter_in_random_games() {
    let mut merged = 0;
    random_games(
        ("mergers", MERGERS),
        (0x3e_a9e5, 6, 80),
        |_, _| {},
        |moves, rng| {
            let mv = moves[rng.below(moves.len())].clone();
            merged += usize::from(mv.contains('+'));
            mv
        },
    );
    assert!(merged > 5, "only {merged} mergers played");
}

/// Boards of more than 128 cells in the compact form (bitboards of several words):
/// `wide_chess16.vdl` (16x16, cells beyond a byte: riders, leapers, a lame leaper, cannons, pawns
/// with en passant and promotion, castling) and `wide_drops.vdl` (12x12 crazyhouse). In random
/// games, at every ply each compiled engine reaches the interpreter's position text by its own
/// moves (unmake restoring each one, the incremental hash the recomputed one), lists the same
/// moves there and counts the same perft 2.
#[test]
fn wide_boards_agree_with_the_interpreter_in_random_games() {
    for (stem, start, plies) in [
        (
            "wide_chess16",
            "rcnwbhzqkzhbwncr/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/RCNWBHZQKZHBWNCR w KQkq - 0 1",
            60,
        ),
        (
            "wide_drops",
            "rnbcqkwzcbnr/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/RNBCQKWZCBNR[] w KQkq - 0 1",
            40,
        ),
    ] {
        random_games(
            (stem, start),
            (0x71de, 2, plies),
            |_, _| {},
            |moves, rng| moves[rng.below(moves.len())].clone(),
        );
    }
}

/// Perft 1 and 2 of the boards of more than 128 cells from positions with castling, a double step
/// open to an en-passant capture, promotions on the next move (by a capture too), a rook on the
/// last cell (255, whose moves carry the cell's ninth bit), cannons, lame leapers and, in
/// `wide_drops.vdl`, pieces in hand, and in `wide_holes.vdl` a board that is no whole box (its step
/// table written out): every compiled engine counts what the interpreter counts.
#[test]
fn wide_boards_perft_agrees_with_the_interpreter() {
    for (stem, fens) in [
        (
            "wide_chess16",
            &[
                "r7k6r/1P14/16/2c10C2/16/4h6H4/16/3w8Z3/16/16/16/16/7p8/16/6P7p1/R7K6R w KQkq - 0 1",
                "r7k6r/1P14/16/2c10C2/16/4h6H4/16/3w8Z3/16/16/16/16/7p8/16/6P7p1/R7K6R b KQkq - 0 1",
            ][..],
        ),
        (
            "wide_drops",
            &[
                "r4k5r/1P10/12/2c6C2/12/3n4N3/12/12/6p5/12/5P4p1/R4K5R[QNpc] w KQkq - 0 1",
                "r4k5r/1P10/12/2c6C2/12/3n4N3/12/12/6p5/12/5P4p1/R4K5R[QNpc] b KQkq - 0 1",
            ][..],
        ),
        (
            "wide_holes",
            &[
                "**2r2k2**/*4p5*/2n6c2/12/12/4q7/7Q4/12/12/2N6C2/*5P4*/**2K2R2** w - - 0 1",
                "**2r2k2**/*4p5*/2n6c2/12/12/4q7/7Q4/12/12/2N6C2/*5P4*/**2K2R2** b - - 0 1",
            ][..],
        ),
    ] {
        perft_agrees_to(stem, fens, 2);
    }
}

/// The boards of a position text of a game with several boards, in order.
fn boards_of(text: &str) -> Vec<&str> {
    text.split(' ').next().unwrap_or("").split('|').collect()
}

/// The start of `captured_rules.vdl` (a 4x4 main board, the grave g h, the prison p q).
const CAPTURED_RULES: &str = "(1R)*(1G)*(1C)*(1R)*/(1A)*(1A)*(1A)*(1A)*/(0A)*(0A)*(0A)*(0A)*/\
                              (0R)*(0C)*(0G)*(0R)*|2|2 white - - 0 1";

/// Rules on the captured piece (`transform captured`, `send captured` to a board and to a cell,
/// `remove captured`, a board's `capacity` and `overflow capture`, conditions on the captured
/// piece's type, owner and board as it was): b2a3, worked out by hand, makes Black's man a ghost
/// (it was a man: only `ghosts` and `prisons` apply) in the prison's first cell, waiting and no
/// longer unmoved; every engine, the compact form among them, plays it so. Each compiled engine
/// counts the interpreter's perft from the start and from a position with the grave and the prison
/// taken; in random games it agrees with the interpreter at every ply, and the grave, the prison
/// and the cell q all get occupants.
#[test]
fn rules_on_the_captured_piece_agree_with_the_interpreter() {
    let after = "(1R)*(1G)*(1C)*(1R)*/(0A)(1A)*(1A)*(1A)*/(0A)*1(0A)*(0A)*/(0R)*(0C)*(0G)*(0R)*\
                 |2|(1G)^1 black - - 0 1";
    let engines = engines("captured_rules");
    assert_eq!(engines.len(), 3, "captured_rules.vdl has a compact form");
    for (name, engine) in &engines {
        assert_eq!(
            engine
                .after_checked(CAPTURED_RULES, &["b2a3"])
                .expect("plays"),
            after,
            "{name}"
        );
    }
    perft_agrees(
        "captured_rules",
        &[
            CAPTURED_RULES,
            "(1R)*1(1C)*1/(1A)*1(1A)*(1A)*/(0A)*(0G)(1A)*(0A)*/(0R)*(0C)*1(0R)*|(0A)1|(1A)(1G) \
             white - - 0 5",
        ],
    );
    let (mut grave, mut prison, mut cell_q) = (0, 0, 0);
    random_games(
        ("captured_rules", CAPTURED_RULES),
        (0x0ca9_7e0d, 8, 60),
        |text, _| {
            let boards = boards_of(text);
            grave += usize::from(boards.get(1).is_some_and(|b| *b != "2"));
            prison += usize::from(boards.get(2).is_some_and(|b| *b != "2"));
            cell_q += usize::from(boards.get(2).is_some_and(|b| b.ends_with([')', '^', '*'])));
        },
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(
        grave > 10 && prison > 10 && cell_q > 2,
        "grave {grave}, prison {prison}, q {cell_q} positions occupied"
    );
}

/// The start of `enter_rules.vdl` (a 5x5 board, owners 0 White, 1 Black, 2 gray).
const ENTER_RULES: &str = "(1Q)*1(1C)*2/(1A)*(1A)*1(1A)*(1A)*/1(2M)*1(2M)*1/(0A)*(0A)*1(0A)*(0A)*/\
                           2(0C)*1(0Q)* white - - 0 1";

/// Rules on entering zones (`on enter ZONE`, `transform mover` into a type and by a type map, to
/// a new owner, the gray side's too; bare and effect conditions on the arriving piece's type and
/// owner, the effects' decided one after the other; the events in the order they first appear
/// among the rules): each compiled engine, the compact form among them, counts the interpreter's
/// perft from the start and from a position with rovers next to both edges and queens next to
/// c3; in random games it agrees with the interpreter at every ply, and pieces change type without
/// a capture.
#[test]
fn rules_on_entering_zones_agree_with_the_interpreter() {
    perft_agrees(
        "enter_rules",
        &[
            ENTER_RULES,
            "2(1C)*2/(2M)1(2M)2/1(0Q)2(1Q)/(2M)4/2(0C)2 white - - 0 1",
            "2(1C)*2/(2M)1(2M)2/1(0Q)2(1Q)/(2M)4/2(0C)2 black - - 0 1",
        ],
    );
    // The pieces of each type, from the letters of the board.
    let census = |text: &str| {
        let board = boards_of(text)[0].to_ascii_lowercase();
        ['c', 'a', 'q', 'm'].map(|t| board.matches(t).count())
    };
    let mut before: Option<[usize; 4]> = None;
    let mut changed = 0;
    random_games(
        ("enter_rules", ENTER_RULES),
        (0xe7e5, 8, 60),
        |text, _| {
            let now = census(text);
            if let Some(old) = before {
                // As many pieces as before, but not of the same types.
                changed += usize::from(
                    old.iter().sum::<usize>() == now.iter().sum::<usize>() && old != now,
                );
            }
            before = Some(now);
        },
        |moves, rng| moves[rng.below(moves.len())].clone(),
    );
    assert!(
        changed > 5,
        "only {changed} changes of type without a capture"
    );
}

/// The start of `waiting.vdl` (a 4x4 main board and limbo, L).
const WAITING: &str = "(1N)*(1N)*(1C)*(1R)*/2(1N)*1/1(0N)*2/(0R)*(0C)*(0N)*(0N)*|1 white - - 0 1";

/// Waiting pieces (`mover.waited` in a transfer's condition, the waiting status in the position,
/// its hash and its text, `^`), worked out by hand: b2a4 sends Black's knight to limbo, waiting;
/// after Black's c3a2 it has waited, and Black may bring it back to a4, the empty cell of his home
/// rank, on his next move. Every engine, the compact form among them, plays and lists it so; each
/// compiled engine counts the interpreter's perft from the start and from positions with a piece
/// waiting in limbo and one that has waited; in random games it agrees with the interpreter at
/// every ply, and pieces come back from limbo.
#[test]
fn waiting_pieces_agree_with_the_interpreter() {
    let sent = "(0N)(1N)*(1C)*(1R)*/2(1N)*1/4/(0R)*(0C)*(0N)*(0N)*|(1N)*^ black - - 0 1";
    let waited = "(0N)(1N)*(1C)*(1R)*/4/(1N)3/(0R)*(0C)*(0N)*(0N)*|(1N)* white - - 1 2";
    let engines = engines("waiting");
    assert_eq!(engines.len(), 3, "waiting.vdl has a compact form");
    for (name, engine) in &engines {
        let text = engine.after_checked(WAITING, &["b2a4"]).expect("plays");
        assert_eq!(text, sent, "{name}");
        assert!(
            !engine
                .moves(&text)
                .expect("reads")
                .0
                .iter()
                .any(|m| m.starts_with('L')),
            "{name}: a waiting piece leaves limbo"
        );
        assert_eq!(
            engine
                .after_checked(WAITING, &["b2a4", "c3a2"])
                .expect("plays"),
            waited,
            "{name}"
        );
        let next = engine
            .after(WAITING, &["b2a4", "c3a2", "a4b2"])
            .expect("plays");
        let (moves, _) = engine.moves(&next).expect("reads");
        assert!(
            moves.iter().any(|m| m == "La4"),
            "{name}: no way back from limbo in {moves:?}"
        );
    }
    perft_agrees("waiting", &[WAITING, sent, waited]);
    let mut back = 0;
    random_games(
        ("waiting", WAITING),
        (0x3a17, 40, 60),
        |_, _| {},
        |moves, rng| {
            // A way back from limbo, when there is one, every other time.
            let home = moves.iter().find(|m| m.starts_with('L'));
            let mv = match home {
                Some(mv) if rng.below(2) == 0 => mv.clone(),
                _ => moves[rng.below(moves.len())].clone(),
            };
            back += usize::from(mv.starts_with('L'));
            mv
        },
    );
    assert!(back > 5, "only {back} pieces back from limbo");
}

/// The start of `reset_on_transform.vdl` and `reset_on_transfer.vdl`, three turns after the move
/// rule's count last restarted (a fourth draws the game).
const RESETS: &str = "(1R)*1(1N)*(1C)*/1(1A)*2/2(0A)*1/(0C)*(0N)*1(0R)*|2 white - - 3 1";

/// The move rule's count restarted by triggered rules (`on transform; reset move_rule`, `on
/// transfer; reset move_rule`), in two games that differ only in that event: each compiled engine,
/// the compact form among them, counts the interpreter's perft, to depth 5, from a position one
/// turn before the move rule draws (so that every restart changes the count, and the two games'
/// counts differ); in random games it agrees with the interpreter at every ply.
#[test]
fn move_rule_resets_by_rules_agree_with_the_interpreter() {
    let mut counts = Vec::new();
    for stem in ["reset_on_transform", "reset_on_transfer"] {
        perft_agrees_to(stem, &[RESETS], 5);
        counts.push(engines(stem)[0].1.perft(RESETS, 4).expect("reads"));
        random_games(
            (stem, RESETS),
            (0x5e7, 6, 40),
            |_, _| {},
            |moves, rng| moves[rng.below(moves.len())].clone(),
        );
    }
    assert_ne!(
        counts[0], counts[1],
        "the two events restart the count alike"
    );
}

/// The start of `shared_pool.vdl` (four players and one reserve they share).
const SHARED_POOL: &str = "4(2K)*1(2R)*1/2(2P)*(2P)*(2P)*(2P)*2/1(1P)*(2B)*2(3B)*(3P)*(3R)*/\
    (1K)*(1P)*4(3P)*1/1(1P)*4(3P)*(3K)*/(1R)*(1P)*(1B)*2(0B)*(3P)*1/2(0P)*(0P)*(0P)*(0P)*2/\
    1(0R)*1(0K)*4 p0 shared:(Q)(N)(N) - 0 1";

/// A later position of `shared_pool.vdl`: pawns of each player one step from promotion, and a rook
/// that may take a bishop.
const SHARED_POOL_LATE: &str = "4(2K)1(2R)(3R)/1(0P)(0P)5/6(1P)1/(1K)7/7(3K)/(1R)4(0B)2/\
    1(3P)4(2P)1/1(0R)1(0K)4 p0 shared:(Q)(N)(N) - 0 1";

/// A reserve shared by four players, promotions taken from it, a rule `on capture` that makes a
/// rook taking a bishop (or a bishop taking a rook) a queen from the reserve, `on transform; reset
/// move_rule`, moves under a condition on their owner, castling partners per player with
/// `requires virgin partner`, and `flag` and `formation` ends among four: perft agrees with the
/// interpreter, and at every ply of random games each compiled engine (the compact form among
/// them) agrees with it (position, moves, perft 2), the games promoting from the reserve,
/// castling, and emptying the reserve of its queen.
#[test]
fn a_shared_reserve_agrees_with_the_interpreter() {
    perft_agrees_to("shared_pool", &[SHARED_POOL, SHARED_POOL_LATE], 3);
    let castles = [
        "d1b1", "d1f3", "a5a3", "a5c3", "e8g8", "e8c6", "h4h6", "h4f6",
    ];
    let (mut promotions, mut castled, mut queen_taken) = (0, 0, 0);
    let engines = engines("shared_pool");
    assert_eq!(engines.len(), 3, "shared_pool.vdl has a compact form");
    let reference = &engines[0].1;
    let mut rng = vdl_tests::Rng::new(0x5_4a2e);
    for game in 0..12 {
        let start = if game % 2 == 0 {
            SHARED_POOL
        } else {
            SHARED_POOL_LATE
        };
        let mut played: Vec<String> = Vec::new();
        for ply in 0..80 {
            let text = reference.after(start, &refs(&played)).expect("plays");
            // A game won by the last survivor at the start of an eliminated player's turn leaves
            // him to move, which position text does not read.
            if reference.moves(&text).is_err() {
                break;
            }
            let moves = same_ply(&engines, start, &played, &text, ply, true);
            if moves.is_empty() {
                break;
            }
            if !text.contains("(Q)") {
                queen_taken += 1;
            }
            let special: Vec<&String> = moves
                .iter()
                .filter(|m| {
                    m.ends_with(|c: char| c.is_ascii_alphabetic()) || castles.contains(&m.as_str())
                })
                .collect();
            let mv = if !special.is_empty() && rng.below(2) == 0 {
                special[rng.below(special.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            if mv.ends_with(|c: char| c.is_ascii_alphabetic()) {
                promotions += 1;
            }
            if castles.contains(&mv.as_str()) {
                castled += 1;
            }
            played.push(mv);
        }
    }
    assert!(promotions > 0, "no promotion from the reserve");
    assert!(castled > 0, "no castling");
    assert!(queen_taken > 0, "the reserve never gave its queen");
}

/// The start of `owner_castling.vdl`.
const OWNER_CASTLING: &str = "n1k2r/1ppp2/4b1/4B1/1PPP2/R1K2N w KQkq - 0 1";

/// Moves under a condition on their owner, and castling partners per player that need only be
/// unmoved themselves (`requires virgin partner`): perft agrees with the interpreter, and at every
/// ply of random games each compiled engine (the compact form among them) agrees with it
/// (position, moves, perft 2), the games castling with a rook, with white's bishop and with
/// black's knight, and with a king that moved before.
#[test]
fn owner_moves_and_castling_partners_agree_with_the_interpreter() {
    perft_agrees("owner_castling", &[OWNER_CASTLING]);
    let mut castles = std::collections::BTreeSet::new();
    random_games(
        ("owner_castling", OWNER_CASTLING),
        (0x0c_a571e, 16, 40),
        |_, _| {},
        |moves, rng| {
            // Castling when there is one, else a king move every fourth ply.
            let castling: Vec<&String> = moves
                .iter()
                .filter(|m| ["c1a1", "c1e3", "c6a6", "c6e6"].contains(&m.as_str()))
                .collect();
            let kings: Vec<&String> = moves
                .iter()
                .filter(|m| m.starts_with("c1") || m.starts_with("c6"))
                .collect();
            let mv = if !castling.is_empty() && rng.below(2) == 0 {
                castling[rng.below(castling.len())].clone()
            } else if !kings.is_empty() && rng.below(4) == 0 {
                kings[rng.below(kings.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            if ["c1a1", "c1e3", "c6a6", "c6e6"].contains(&mv.as_str()) {
                castles.insert(mv.clone());
            }
            mv
        },
    );
    assert!(castles.len() >= 3, "castled only {castles:?}");
}

/// The start of `capture_transforms.vdl`.
const CAPTURE_TRANSFORMS: &str = "1(1N)*2(1R)*(1K)*/2(1P)*(1P)*(1P)*1/2(2R)*3/6/\
    1(0P)*(0P)*(0P)*1(2K)*/(0K)*(0R)*2(0N)*1 white shared:(Q) - 0 1";

/// A position of `capture_transforms.vdl` where white's rook may take black's knight.
const CAPTURE_TRANSFORMS_OPEN: &str = "1(1N)*2(1R)*(1K)*/2(1P)*(1P)*(1P)*1/2(2R)*3/6/\
    1(0R)(0P)*(0P)*1(2K)*/(0K)*3(0N)*1 white shared:(Q) - 0 1";

/// Rules on captures that transform the capturing piece (from a shared reserve or not), under
/// conditions on types, counts, the reserve and an option, with `reset move_rule` effects and `on
/// transform; reset move_rule`: perft agrees with the interpreter, and at every ply of random
/// games each compiled engine (the compact form among them) agrees with it (position, moves,
/// perft 2), the games reaching a queen from the reserve and a pawn made a knight.
#[test]
fn rules_on_captures_that_transform_agree_with_the_interpreter() {
    perft_agrees(
        "capture_transforms",
        &[CAPTURE_TRANSFORMS, CAPTURE_TRANSFORMS_OPEN],
    );
    let (mut queens, mut knights) = (0, 0);
    for (start, seed) in [
        (CAPTURE_TRANSFORMS, 0x7_4a45),
        (CAPTURE_TRANSFORMS_OPEN, 0x7_4a46),
    ] {
        random_games(
            ("capture_transforms", start),
            (seed, 12, 40),
            |text, _| {
                let board = text.split(' ').next().unwrap_or("");
                queens += usize::from(board.contains(['Q', 'q']));
                // Only a pawn's capture adds a knight.
                knights += usize::from(board.matches(['N', 'n']).count() > 2);
            },
            |moves, rng| {
                // The rook's capture of the knight when it may, every other time.
                if moves.iter().any(|m| m == "b2b6") && rng.below(2) == 0 {
                    "b2b6".to_string()
                } else {
                    moves[rng.below(moves.len())].clone()
                }
            },
        );
    }
    assert!(queens > 0, "no queen from the reserve");
    assert!(knights > 0, "no pawn made a knight");
}
