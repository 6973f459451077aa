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
        let mut position = self.parse_position(fen).map_err(|e| e.to_string())?;
        for text in moves {
            let mv = self
                .parse_move(&mut position, text)
                .map_err(|e| e.to_string())?;
            self.make(&mut position, mv);
        }
        Ok(self.write_position(&position))
    }
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
/// the king's three in the first two positions).
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
        false,
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
