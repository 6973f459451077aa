//! SAN and PGN: vdl's SAN of chess moves against python-chess's (`san/chess.san`, an independent
//! source), games of every example written as PGN and read back to the same positions, and games that
//! the XBoard GUI saved (`pgn/`) read back.

use vdl_runtime::protocol::Engine;
use vdl_runtime::search::MaterialEvaluator;
use vdl_runtime::{pgn, san, Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root, Rng};

fn game(path: &std::path::Path) -> Option<Engine<Interpreter, MaterialEvaluator>> {
    let name = path.file_stem()?.to_str()?.to_string();
    let game = vdl_dsl::check::check_source(&read_text(path)).game?;
    Some(Engine::from_interpreter(Interpreter::new(game).ok()?).with_file_name(&name))
}

fn example(name: &str) -> Engine<Interpreter, MaterialEvaluator> {
    game(
        &workspace_root()
            .join("examples")
            .join(format!("{name}.vdl")),
    )
    .unwrap_or_else(|| panic!("{name} does not check"))
}

#[test]
fn san_is_python_chess_san() {
    let chess = example("chess");
    let variant = &chess.variant;
    let text = read_text(&workspace_root().join("tests/san/chess.san"));
    let mut positions = 0;
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut blocks = text.split("\nfen ").skip(1);
    for block in blocks.by_ref() {
        let mut lines = block.lines();
        let fen = lines.next().expect("a FEN");
        let mut position = variant.parse_position(fen).expect("the FEN reads");
        positions += 1;
        let expected: Vec<(&str, &str)> = lines
            .filter_map(|l| l.strip_prefix("move "))
            .map(|l| l.split_once(' ').expect("move UCI SAN"))
            .collect();
        let mut moves = Vec::new();
        variant.legal_moves(&mut position, &mut moves);
        let mut ours: Vec<String> = moves
            .iter()
            .map(|&m| variant.write_protocol_move(&position, m))
            .collect();
        ours.sort();
        let theirs: Vec<String> = expected.iter().map(|(u, _)| u.to_string()).collect();
        if ours != theirs {
            failures.push(format!("{fen}: moves {ours:?}, python-chess {theirs:?}"));
            continue;
        }
        for (uci, expected_san) in expected {
            let mv = variant.parse_move(&mut position, uci).expect("legal");
            let written = san::text(variant, &mut position, mv);
            if written != expected_san {
                failures.push(format!(
                    "{fen}: {uci} written {written}, python-chess {expected_san}"
                ));
            }
            // Every form a person might type reads back to the move.
            for form in [
                expected_san.to_string(),
                expected_san.trim_end_matches(['+', '#']).to_string(),
                expected_san.replace('x', ""),
                uci.to_string(),
            ] {
                match san::parse(variant, &mut position, &form) {
                    Ok(read) if read == mv => {}
                    other => failures.push(format!("{fen}: `{form}` read as {other:?}")),
                }
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        positions > 300 && checked > 8000,
        "{positions} positions, {checked} moves"
    );
}

#[test]
fn ambiguous_and_illegal_san_is_refused() {
    let chess = example("chess");
    let variant = &chess.variant;
    // Rooks on b1 and b4 both reach b2 and b3.
    let mut position = variant
        .parse_position("7k/8/8/8/1R6/8/8/1R2K3 w - - 0 1")
        .expect("reads");
    let error = san::parse(variant, &mut position, "Rb3").expect_err("two rooks reach b3");
    assert!(error.message.contains("ambiguous"), "{error}");
    assert!(san::parse(variant, &mut position, "R4b3").is_ok());
    assert!(san::parse(variant, &mut position, "R1b3").is_ok());
    assert!(san::parse(variant, &mut position, "Rb1b3").is_ok());
    assert!(san::parse(variant, &mut position, "Qd4").is_err());
    assert!(san::parse(variant, &mut position, "O-O").is_err());
}

/// A random game of at most `plies` plies from the start: the moves.
fn random_game<V: Variant>(variant: &V, rng: &mut Rng, plies: usize) -> Vec<V::Move> {
    let mut position = variant.start();
    let mut played = Vec::new();
    for _ in 0..plies {
        if variant.outcome(&mut position).is_some() {
            break;
        }
        let mut moves = Vec::new();
        variant.legal_moves(&mut position, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = *rng.pick(&moves);
        variant.make(&mut position, mv);
        played.push(mv);
    }
    played
}

#[test]
fn every_example_reads_back_the_games_it_writes() {
    let mut rng = Rng::new(14);
    let mut failures = Vec::new();
    let mut games = 0;
    for path in vdl_files(&workspace_root().join("examples")) {
        let Some(engine) = game(&path) else { continue };
        let variant = &engine.variant;
        let name = engine.info.name.clone();
        for round in 0..2 {
            let moves = random_game(variant, &mut rng, 60);
            let start = variant.start();
            let texts = pgn::san_moves(variant, &start, &moves, &|p| p.side);
            let start_text = variant.write_position(&start);
            let record = pgn::record(
                &engine.info,
                &start_text,
                &start_text,
                "test",
                round + 1,
                &["a".to_string(), "b".to_string()],
                texts.clone(),
                None,
            );
            let written = pgn::write(&record);
            let read = match pgn::read(&written) {
                Ok(read) => read,
                Err(e) => {
                    failures.push(format!("{name}: {e}\n{written}"));
                    continue;
                }
            };
            assert_eq!(read.len(), 1, "{written}");
            match pgn::replay_any(variant, &read[0]) {
                Ok((end, replayed)) => {
                    if replayed != moves {
                        failures.push(format!("{name}: other moves read back\n{written}"));
                    }
                    // The same positions, ply by ply.
                    let mut a = start.clone();
                    let mut b = variant.start();
                    for (x, y) in moves.iter().zip(&replayed) {
                        variant.make(&mut a, *x);
                        variant.make(&mut b, *y);
                        if variant.write_position(&a) != variant.write_position(&b) {
                            failures.push(format!("{name}: positions differ\n{written}"));
                            break;
                        }
                    }
                    if variant.write_position(&end) != variant.write_position(&a) {
                        failures.push(format!("{name}: another end position\n{written}"));
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}\n{written}")),
            }
            games += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(games > 80, "{games} games");
}

#[test]
fn chess_pgn_has_the_roster_and_no_variant_tags() {
    let chess = example("chess");
    let variant = &chess.variant;
    let mut position = variant.start();
    let mut texts = Vec::new();
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = variant.parse_move(&mut position, uci).expect("legal");
        texts.push((position.side, san::text(variant, &mut position, mv)));
        variant.make(&mut position, mv);
    }
    let result = variant.outcome(&mut position).expect("mate");
    let start = variant.write_position(&variant.start());
    let record = pgn::record(
        &chess.info,
        &start,
        &start,
        "fools",
        1,
        &["w".into(), "b".into()],
        texts,
        Some(&result),
    );
    let text = pgn::write(&record);
    let names: Vec<&str> = record.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    );
    assert!(
        text.ends_with("\n\n1. f3 e5 2. g4 Qh4# {black wins by checkmate} 0-1\n\n"),
        "{text}"
    );
}

#[test]
fn engine_defined_variants_get_variant_fen_and_setup_tags() {
    let engine = example("team-mate-chess");
    let variant = &engine.variant;
    let start = variant.write_position(&variant.start());
    let record = pgn::record(&engine.info, &start, &start, "e", 1, &[], Vec::new(), None);
    let tags: Vec<(&str, &str)> = record
        .tags
        .iter()
        .skip(7)
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Variant", "teammate"),
            ("FEN", start.as_str()),
            ("SetUp", "1")
        ]
    );
    // XBoard's own variants name the variant only, unless the game starts elsewhere.
    let xiangqi = example("xiangqi");
    let start = xiangqi.variant.write_position(&xiangqi.variant.start());
    let record = pgn::record(&xiangqi.info, &start, &start, "e", 1, &[], Vec::new(), None);
    assert_eq!(record.tags[7], ("Variant".into(), "xiangqi".into()));
    assert_eq!(record.tags.len(), 8);
}

/// The games the XBoard GUI saved in `pgn/` (XBoard 4.9 against Fairy-Max and MaxQi: chess,
/// capablanca, ranks from 0 on the 10-rank xiangqi board and its `H` and `E`, castling rights left
/// out of Team-Mate Chess's FEN): each reads to its last move, and where XBoard adjudicated a
/// checkmate the interpreter finds the same winner there.
#[test]
fn games_saved_by_xboard_read_back() {
    let dir = workspace_root().join("tests/pgn");
    let mut read = 0;
    let mut mates = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/pgn")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("pgn"))
        .collect();
    paths.sort();
    for path in paths {
        let text = read_text(&path);
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let engine = example(stem.split('.').next().unwrap_or_default());
        let variant = &engine.variant;
        for (number, game) in pgn::read(&text).expect("reads").iter().enumerate() {
            let (mut end, moves) =
                pgn::replay_any(variant, game).unwrap_or_else(|e| panic!("{stem} {number}: {e}"));
            assert_eq!(moves.len(), game.moves.len());
            read += 1;
            if text
                .split("[Event ")
                .nth(number + 1)
                .is_some_and(|g| g.contains("adjudication: Checkmate"))
            {
                let outcome = variant.outcome(&mut end);
                let winner = match game.result.as_deref() {
                    Some("1-0") => Some(0),
                    Some("0-1") => Some(1),
                    other => panic!("{stem} {number}: a checkmate with result {other:?}"),
                };
                assert_eq!(
                    outcome.as_ref().map(|r| r.winner),
                    Some(winner),
                    "{stem} game {}: {outcome:?}",
                    number + 1
                );
                mates += 1;
            }
        }
    }
    assert!(read >= 20 && mates >= 15, "{read} games, {mates} mates");
}

/// `vdl play --random N --pgn FILE`: every game saved is read back with as many plies as its summary
/// line counts, to the position where it ended, and with the result the summary names.
#[test]
fn random_games_save_what_they_played() {
    for name in ["chess", "xiangqi", "crazyhouse", "armies-of-faith-5"] {
        let engine = example(name);
        let variant = &engine.variant;
        let players = engine.info.players.clone();
        let options = vdl_runtime::cli::RandomOptions {
            games: 3,
            seed: 11,
            max_plies: Some(120),
            ..Default::default()
        };
        let (mut summary, mut saved) = (Vec::new(), Vec::new());
        let mut record = vdl_runtime::cli::RandomRecord {
            info: &engine.info,
            side: &|p: &vdl_runtime::interp::Position| p.side,
            out: &mut saved,
            error: None,
        };
        vdl_runtime::cli::run_random_games(
            variant,
            &players,
            &options,
            &mut summary,
            Some(&mut record),
        );
        assert!(record.error.is_none());
        let summary = String::from_utf8(summary).expect("utf-8");
        let saved = String::from_utf8(saved).expect("utf-8");
        let games = pgn::read(&saved).unwrap_or_else(|e| panic!("{name}: {e}\n{saved}"));
        let lines: Vec<&str> = summary.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 3, "{name}: {saved}");
        assert_eq!(lines.len(), 3, "{name}: {summary}");
        for (game, line) in games.iter().zip(&lines) {
            let (_, moves) =
                pgn::replay_any(variant, game).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                line.ends_with(&format!(", {} plies", moves.len()))
                    || line.contains(&format!(", {} plies,", moves.len())),
                "{name}: {line} but {} moves saved",
                moves.len()
            );
            let token = game.result.as_deref().unwrap_or("*");
            let expected = if players.len() != 2 || line.contains("unfinished") {
                "*"
            } else if line.contains("draw") {
                "1/2-1/2"
            } else if line.contains(&format!("{} wins", players[0])) {
                "1-0"
            } else {
                "0-1"
            };
            assert_eq!(token, expected, "{name}: {line}");
        }
    }
}
