//! PGN on the command line: `vdl match --pgn` and `vdl play --pgn` save games that `vdl show --pgn`
//! and `vdl perft --pgn` read, terminal play in SAN, and the errors for bad PGN input (snapshots of
//! the exit code and the message).

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn vdl_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vdl"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("vdl runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("vdl ends")
}

fn vdl(args: &[&str]) -> Output {
    vdl_with_input(args, "")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("vdl-pgn-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The last line `vdl show` prints: the position's FEN.
fn shown_fen(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    stdout(output)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn match_saves_games_that_show_and_perft_read() {
    let dir = scratch("match");
    let file = dir.join("games.pgn");
    let path = file.to_str().expect("UTF-8 path");
    let output = vdl(&[
        "match",
        "examples/chess.vdl",
        "--players",
        "random,random",
        "--games",
        "3",
        "--seed",
        "5",
        "--max-plies",
        "300",
        "--pgn",
        path,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = std::fs::read_to_string(&file).expect("the PGN file");
    assert_eq!(text.matches("[Event \"vdl match\"]").count(), 3, "{text}");
    assert_eq!(text.matches("[Round ").count(), 3);
    assert!(text.contains("[White \"random#1\"]"), "{text}");
    assert!(text.contains("[TimeControl \"60+0.5\"]"), "{text}");
    assert!(
        !text.contains("[Variant "),
        "orthodox chess has no Variant tag: {text}"
    );
    // Each game's result tag agrees with the result the referee printed.
    let printed = stdout(&output);
    for (round, game) in text.split("[Event ").skip(1).enumerate() {
        let tag = game
            .lines()
            .find_map(|l| l.strip_prefix("[Result \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .expect("a Result tag");
        let line = printed
            .lines()
            .find(|l| l.starts_with(&format!("game {}:", round + 1)))
            .expect("the referee's line");
        let expected = if line.contains(": white (random") {
            "1-0"
        } else if line.contains(": black (random") {
            "0-1"
        } else {
            "1/2-1/2"
        };
        assert_eq!(tag, expected, "{line}\n{game}");
        assert!(game.trim_end().ends_with(tag), "{game}");
    }
    for game in ["1", "2", "3"] {
        let shown = vdl(&["show", "examples/chess.vdl", "--pgn", path, "--game", game]);
        let fen = shown_fen(&shown);
        // perft from the game's end equals perft from its FEN.
        let from_pgn = vdl(&[
            "perft",
            "examples/chess.vdl",
            "2",
            "--pgn",
            path,
            "--game",
            game,
        ]);
        let from_fen = vdl(&["perft", "examples/chess.vdl", "2", "--fen", &fen]);
        assert_eq!(from_pgn.status.code(), Some(0), "{}", stderr(&from_pgn));
        assert_eq!(
            stdout(&from_pgn).lines().last(),
            stdout(&from_fen).lines().last()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn match_saves_variants_with_their_tags() {
    let dir = scratch("variants");
    for (game, variant) in [
        ("xiangqi", "[Variant \"xiangqi\"]"),
        ("team-mate-chess", "[Variant \"teammate\"]"),
        ("crazyhouse", "[Variant \"crazyhouse\"]"),
    ] {
        let file = dir.join(format!("{game}.pgn"));
        let path = file.to_str().expect("UTF-8 path");
        let rules = format!("examples/{game}.vdl");
        let output = vdl(&[
            "match",
            &rules,
            "--players",
            "random,random",
            "--games",
            "1",
            "--max-plies",
            "120",
            "--pgn",
            path,
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = std::fs::read_to_string(&file).expect("the PGN file");
        assert!(text.contains(variant), "{text}");
        assert_eq!(
            text.contains("[SetUp \"1\"]"),
            game == "team-mate-chess",
            "only the engine-defined variant gives its FEN: {text}"
        );
        let shown = vdl(&["show", &rules, "--pgn", path]);
        shown_fen(&shown);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn terminal_play_reads_san_and_saves_the_game() {
    let dir = scratch("play");
    let file = dir.join("game.pgn");
    let path = file.to_str().expect("UTF-8 path");
    let output = vdl_with_input(
        &[
            "play",
            "examples/chess.vdl",
            "--seats",
            "human,human",
            "--pgn",
            path,
        ],
        "f3\ne5\nNc3\nundo\ng4\nQh5\nQh4#\n",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("took back Nc3 (white)"), "{text}");
    assert!(text.contains("illegal move `Qh5`"), "{text}");
    assert!(text.contains("moves: 1. f3 e5 2. g4 Qh4#"), "{text}");
    assert!(text.contains("game over: black wins (checkmate)"), "{text}");
    let saved = std::fs::read_to_string(&file).expect("the PGN file");
    assert!(
        saved.ends_with("\n1. f3 e5 2. g4 Qh4# {black wins by checkmate} 0-1\n\n"),
        "{saved}"
    );
    assert!(saved.contains("[White \"human\"]"), "{saved}");
    let shown = vdl(&["show", "examples/chess.vdl", "--pgn", path]);
    assert_eq!(
        shown_fen(&shown),
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn random_chess_games_end_by_the_rules_or_a_claim() {
    let output = vdl(&["play", "examples/chess.vdl", "--random", "4", "--seed", "3"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.ends_with("unfinished 0\n"), "{text}");
    assert!(text.contains(", claimed)"), "{text}");
}

/// The exit code and the error of a command, for a snapshot.
/// A usage error's message is kept, not the help text after it.
fn failure(args: &[&str]) -> String {
    let output = vdl(args);
    let text = stderr(&output);
    let message = text.split("\n\n").next().unwrap_or_default();
    format!(
        "vdl {}\nexit {:?}\n{message}",
        args.join(" "),
        output.status.code(),
    )
}

#[test]
fn bad_pgn_input_is_an_error_naming_it() {
    let inputs = "compiler/tests/inputs/pgn";
    for (name, extra) in [
        ("unclosed_tag", &[][..]),
        ("unquoted_tag", &[]),
        ("unclosed_comment", &[]),
        ("unclosed_variation", &[]),
        ("illegal_move", &["--game", "2"]),
        ("bad_fen_tag", &[]),
        ("ambiguous_move", &[]),
        ("empty", &[]),
    ] {
        let file = format!("{inputs}/{name}.pgn");
        let mut args = vec!["show", "examples/chess.vdl", "--pgn", file.as_str()];
        args.extend(extra);
        insta::assert_snapshot!(format!("show_{name}"), failure(&args));
    }
    let file = format!("{inputs}/illegal_move.pgn");
    let cases: [(&str, Vec<&str>); 6] = [
        (
            "perft_no_such_game",
            vec![
                "perft",
                "examples/chess.vdl",
                "1",
                "--pgn",
                &file,
                "--game",
                "3",
            ],
        ),
        (
            "perft_game_zero",
            vec![
                "perft",
                "examples/chess.vdl",
                "1",
                "--pgn",
                &file,
                "--game",
                "0",
            ],
        ),
        (
            "perft_fen_and_pgn",
            vec![
                "perft",
                "examples/chess.vdl",
                "1",
                "--pgn",
                &file,
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
            ],
        ),
        (
            "show_game_without_pgn",
            vec!["show", "examples/chess.vdl", "--game", "2"],
        ),
        (
            "show_no_such_file",
            vec!["show", "examples/chess.vdl", "--pgn", "no/such/file.pgn"],
        ),
        (
            "play_pgn_in_no_directory",
            vec![
                "play",
                "examples/chess.vdl",
                "--pgn",
                "no/such/dir/game.pgn",
            ],
        ),
    ];
    for (name, args) in cases {
        insta::assert_snapshot!(name, failure(&args));
    }
}
