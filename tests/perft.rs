//! Perft against the reference tables in tests/perft/ (Fairy-Stockfish 11.1 and published chess values),
//! for every example that has a table.
//!
//! The default run checks every row up to `VDL_PERFT_LIMIT` nodes (default 100000); set the variable to
//! a larger number, or run `cargo test --release -p vdl-tests --test perft -- --ignored` for every row.

use std::path::Path;

use vdl_runtime::{perft::perft, Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root};

/// One position of a table with its expected counts.
struct Entry {
    id: String,
    fen: String,
    moves: Vec<String>,
    counts: Vec<(u32, u64)>,
}

fn read_table(path: &Path) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for line in read_text(path).lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => entries.push(Entry {
                id: rest.to_string(),
                fen: String::new(),
                moves: Vec::new(),
                counts: Vec::new(),
            }),
            "fen" => entries.last_mut().expect("id first").fen = rest.to_string(),
            "moves" => {
                entries.last_mut().expect("id first").moves =
                    rest.split_whitespace().map(String::from).collect()
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok()).expect("a depth");
                let nodes = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a node count");
                entries
                    .last_mut()
                    .expect("id first")
                    .counts
                    .push((depth, nodes));
            }
            other => panic!("{}: unknown line `{other}`", path.display()),
        }
    }
    entries
}

fn interpreter(example: &Path) -> Interpreter {
    let checked = vdl_dsl::check::check_source(&read_text(example));
    let game = checked.game.unwrap_or_else(|| {
        panic!(
            "{} does not check: {:?}",
            example.display(),
            checked.problems
        )
    });
    Interpreter::new(game).unwrap_or_else(|e| panic!("{}: {e}", example.display()))
}

/// Runs every table row up to `limit` nodes; returns (rows checked, failures).
fn run_tables(limit: u64) -> (usize, Vec<String>) {
    let root = workspace_root();
    let mut checked = 0;
    let mut failures = Vec::new();
    for example in vdl_files(&root.join("examples")) {
        let name = example
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_string();
        let table = root.join("tests/perft").join(format!("{name}.perft"));
        if !table.exists() {
            continue;
        }
        let variant = interpreter(&example);
        for entry in read_table(&table) {
            let mut position = match variant.parse_position(&entry.fen) {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{name} {}: FEN rejected: {e}", entry.id));
                    continue;
                }
            };
            for &(depth, nodes) in entry.counts.iter().filter(|(_, n)| *n <= limit) {
                let got = perft(&variant, &mut position, depth);
                checked += 1;
                if got != nodes {
                    failures.push(format!(
                        "{name} {} depth {depth}: expected {nodes}, got {got}",
                        entry.id
                    ));
                }
            }
        }
    }
    (checked, failures)
}

#[test]
fn perft_tables_match_up_to_the_node_limit() {
    let limit = std::env::var("VDL_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let (checked, failures) = run_tables(limit);
    assert!(checked > 100, "only {checked} rows checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "the full tables take minutes; run with --release -- --ignored"]
fn perft_tables_match_in_full() {
    let (checked, failures) = run_tables(u64::MAX);
    assert!(
        failures.is_empty(),
        "{} of {checked} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The tables give each random position also as moves from the start: playing them must reach a
/// position with the same board, side and counts (this checks move notation and make).
#[test]
fn moves_from_the_start_reach_the_table_positions() {
    let root = workspace_root();
    let mut replayed = 0;
    for example in vdl_files(&root.join("examples")) {
        let name = example
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a name")
            .to_string();
        let table = root.join("tests/perft").join(format!("{name}.perft"));
        if !table.exists() {
            continue;
        }
        let variant = interpreter(&example);
        for entry in read_table(&table)
            .into_iter()
            .filter(|e| !e.moves.is_empty())
        {
            let mut position = variant.start();
            for text in &entry.moves {
                let mv = variant
                    .parse_move(&mut position, text)
                    .unwrap_or_else(|e| panic!("{name} {}: {e}", entry.id));
                variant.make(&mut position, mv);
            }
            let written = variant.write_position(&position);
            // The hand's letters may come in any order (Fairy-Stockfish orders them by its internal
            // piece numbering).
            let board = |fen: &str| {
                let mut fields: Vec<String> =
                    fen.split_whitespace().take(2).map(String::from).collect();
                if let Some(open) = fields[0].find('[') {
                    let mut hand: Vec<char> = fields[0][open..]
                        .chars()
                        .filter(char::is_ascii_alphabetic)
                        .collect();
                    hand.sort_unstable();
                    fields[0] = format!(
                        "{}[{}]",
                        &fields[0][..open],
                        hand.into_iter().collect::<String>()
                    );
                }
                fields.join(" ")
            };
            assert_eq!(board(&written), board(&entry.fen), "{name} {}", entry.id);
            let mut from_fen = variant.parse_position(&entry.fen).expect("table FEN");
            assert_eq!(
                perft(&variant, &mut position, 2),
                perft(&variant, &mut from_fen, 2),
                "{name} {}",
                entry.id
            );
            replayed += 1;
        }
    }
    assert!(replayed >= 20, "only {replayed} positions replayed");
}
