//! The `vdl` command end to end: output formats and exit codes (0 success, 1 errors in the input, 2
//! usage or I/O errors).

use std::process::{Command, Output};

fn vdl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vdl"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("vdl runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_last_and_divides() {
    let output = vdl(&["perft", "examples/chess.vdl", "2", "--divide"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"nodes 400"));
    assert_eq!(lines.len(), 21, "20 root moves, then the total");
    assert!(lines.contains(&"e2e4: 20"));
    assert!(stderr(&output).contains("nodes/s"));
}

#[test]
fn perft_plays_moves_and_reads_positions() {
    let output = vdl(&["perft", "examples/chess.vdl", "1", "--moves", "e2e4 e7e5"]);
    assert_eq!(stdout(&output).lines().last(), Some("nodes 29"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = vdl(&["perft", "examples/chess.vdl", "1", "--fen", kiwipete]);
    assert_eq!(stdout(&output).lines().last(), Some("nodes 48"));
}

#[test]
fn bad_positions_and_illegal_moves_are_errors_naming_them() {
    let output = vdl(&[
        "perft",
        "examples/chess.vdl",
        "1",
        "--fen",
        "rnbqkbnr/pppppppp/8/8 w - - 0 1",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("bad FEN"), "{}", stderr(&output));
    let output = vdl(&["perft", "examples/chess.vdl", "1", "--moves", "e2e5"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("illegal move `e2e5`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn usage_and_io_errors_exit_with_2() {
    assert_eq!(vdl(&[]).status.code(), Some(2));
    assert_eq!(vdl(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(vdl(&["perft", "examples/chess.vdl"]).status.code(), Some(2));
    assert_eq!(vdl(&["check", "no/such/file.vdl"]).status.code(), Some(2));
}

#[test]
fn check_reports_errors_with_exit_1_and_json() {
    let dir = std::env::temp_dir().join(format!("vdl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bad.vdl");
    std::fs::write(&file, "game g\nboard main 8x8\nplayer a\nplayer b\npiece k { letter K; moves \"fmWL\"; royal }\nsetup \"8/8/8/8/8/8/8/K6k w\"\nend { checkmate win }\n").expect("write");
    let path = file.to_str().expect("UTF-8 path");
    let output = vdl(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("error[E1002]"),
        "{}",
        stderr(&output)
    );
    let output = vdl(&["check", "--format", "json", path]);
    assert_eq!(output.status.code(), Some(1));
    let json = stdout(&output);
    assert!(
        json.starts_with('[') && json.contains("\"code\":\"E1002\"") && json.contains("\"line\":5"),
        "{json}"
    );
    let output = vdl(&["check", "examples/chess.vdl"]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn show_and_random_play_work_on_a_seed_game() {
    let output = vdl(&["show", "examples/team-mate-chess.vdl", "--moves", "e2e4"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("black to move"));
    let output = vdl(&[
        "play",
        "examples/team-mate-chess.vdl",
        "--random",
        "2",
        "--seed",
        "7",
        "--max-plies",
        "50",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output)
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("2 games:")),
        "{}",
        stdout(&output)
    );
}

#[test]
fn armies_of_faith_positions_passes_and_setups() {
    // §10 scenario 10(a): Islamic, not in check, has no legal move and passes.
    let fen = "cKjs4,cRjt1,cRjs2,cRjt2,pKjz4,pRbz1,bKaz4,iKas1 i - - 0";
    let output = vdl(&[
        "perft",
        "examples/armies-of-faith-5.vdl",
        "1",
        "--fen",
        fen,
        "--divide",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "pass: 1\nnodes 1\n");
    // Rank-first cell names are read (`tb1` = `bt1`), file-first written.
    let output = vdl(&[
        "show",
        "examples/armies-of-faith-5.vdl",
        "--fen",
        "cKjs4,pKjz4,bKaz4,iKas4,iCMtb1 i - - 0",
        "--moves",
        "tb1-wc1",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("cKjs4,pKjz4,bKaz4,iKas4,iCMcw1 c - - 1"),
        "{}",
        stdout(&output)
    );
    // §6.11 setups: `standard` and `raj` (74 first moves either way); anything else is refused.
    for setup in ["standard", "raj", "variant=raj"] {
        let output = vdl(&[
            "perft",
            "examples/armies-of-faith-5.vdl",
            "1",
            "--setup",
            setup,
        ]);
        assert_eq!(stdout(&output), "nodes 74\n", "{setup}");
    }
    let output = vdl(&[
        "perft",
        "examples/armies-of-faith-5.vdl",
        "1",
        "--setup",
        "rajah",
    ]);
    assert_ne!(output.status.code(), Some(0));
}

#[test]
fn emit_prints_deterministic_rust() {
    let first = stdout(&vdl(&["emit", "examples/dobutsu.vdl"]));
    let second = stdout(&vdl(&["emit", "examples/dobutsu.vdl"]));
    assert!(first.starts_with("// Generated from `examples/dobutsu.vdl` by vdl; do not edit."));
    assert_eq!(first, second);
}

/// The score line of a player in `vdl match` output: `LABEL: POINTS / GAMES`.
fn match_score(text: &str, label: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{label}: ")))
        .and_then(|rest| rest.split(" / ").next())
        .and_then(|points| points.parse().ok())
        .unwrap_or_else(|| panic!("no score for {label} in\n{text}"))
}

#[test]
fn match_referees_the_search_against_a_random_mover() {
    let output = vdl(&[
        "match",
        "examples/losalamos.vdl",
        "--players",
        "search,random",
        "--depth",
        "2",
        "--games",
        "2",
        "--max-plies",
        "200",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("game 1: white=search black=random"), "{text}");
    assert!(text.contains("game 2: white=random black=search"), "{text}");
    assert!(text.contains("2 games, 0 ended by a fault"), "{text}");
    assert!(match_score(&text, "search") >= 1.5, "{text}");
}

#[test]
fn match_drives_xboard_engines() {
    let engine = format!(
        "xboard:{} engine examples/losalamos.vdl xboard",
        env!("CARGO_BIN_EXE_vdl")
    );
    let players = format!("{engine},random");
    let output = vdl(&[
        "match",
        "examples/losalamos.vdl",
        "--players",
        &players,
        "--depth",
        "2",
        "--games",
        "2",
        "--openings",
        "2",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("2 games, 0 ended by a fault"), "{text}");
    assert!(!text.contains("illegal"), "{text}");
    assert!(match_score(&text, &engine[7..]) >= 1.5, "{text}");
}

#[test]
fn match_rejects_bad_players_and_counts() {
    let output = vdl(&["match", "examples/chess.vdl", "--players", "search,human"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("xboard:COMMAND"));
    let output = vdl(&["match", "examples/chess.vdl", "--players", "search"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("the game has 2 players; 1 were given"));
    let output = vdl(&[
        "match",
        "examples/chess.vdl",
        "--players",
        "search,random",
        "--time",
        "x",
    ]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn setup_accepts_the_specifications_forms() {
    // Lords and Vassals §5.3: `seed:<n>` and a setup code; seed 1 gives this code (§5.4).
    let seeded = vdl(&[
        "show",
        "examples/lords-and-vassals.vdl",
        "--setup",
        "seed:1",
    ]);
    let coded = vdl(&[
        "show",
        "examples/lords-and-vassals.vdl",
        "--setup",
        "LVVLLVVLVLVVLVLL/LVVLLVVVLLLVVLLV",
    ]);
    let default = vdl(&["show", "examples/lords-and-vassals.vdl"]);
    assert_eq!(seeded.status.code(), Some(0), "{}", stderr(&seeded));
    assert_eq!(stdout(&seeded), stdout(&coded));
    assert_ne!(stdout(&seeded), stdout(&default));
    let bad = vdl(&["show", "examples/chess.vdl", "--setup", "seed:1"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("no option of the game has the value `seed:1`"));
}
