//! Scripted sessions of the engine protocols (XBoard, UCI, the line protocol and the choice between
//! them), with well-formed and malformed input. A session reads the whole script, then runs to its end:
//! lines that arrive during a search wait for it, so replies come in script order. No test depends on
//! timing: searches are limited by depth, or stopped by a later line, and the engines let a search with
//! limits finish after the end of the script (`EndOfInput::Finish`).

use std::io::Cursor;

use vdl_runtime::protocol::{self, EndOfInput, Engine};
use vdl_runtime::search::MaterialEvaluator;
use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, workspace_root, Rng};

type InterpretedEngine = Engine<Interpreter, MaterialEvaluator>;

fn engine(name: &str) -> InterpretedEngine {
    let path = workspace_root()
        .join("examples")
        .join(format!("{name}.vdl"));
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .unwrap_or_else(|| panic!("{name} does not check"));
    let mut engine = Engine::from_interpreter(Interpreter::new(game).expect("a start position"))
        .with_file_name(name);
    // The scripts end while their last search runs: let it finish, so that no reply depends on timing.
    engine.end_of_input = EndOfInput::Finish;
    engine
}

/// Which protocol a script is for.
#[derive(Clone, Copy)]
enum Protocol {
    Any,
    XBoard,
    Uci,
    Line,
}

/// Runs a script and returns the output lines.
fn session(engine: &InterpretedEngine, protocol: Protocol, script: &str) -> Vec<String> {
    let input = Cursor::new(script.to_string());
    let mut output = Vec::new();
    let result = match protocol {
        Protocol::Any => protocol::run(engine, input, &mut output),
        Protocol::XBoard => protocol::xboard::run(engine, input, &mut output),
        Protocol::Uci => protocol::uci::run(engine, input, &mut output),
        Protocol::Line => protocol::line::run(engine, input, &mut output),
    };
    result.expect("writing to a vector does not fail");
    String::from_utf8(output)
        .expect("UTF-8 output")
        .lines()
        .map(String::from)
        .collect()
}

/// The lines starting with `prefix`.
fn starting<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|l| l.starts_with(prefix))
        .map(String::as_str)
        .collect()
}

/// Tells whether `text` is a legal move after `moves` from the start.
fn is_legal_after(engine: &InterpretedEngine, moves: &[&str], text: &str) -> bool {
    let variant = &engine.variant;
    let mut position = variant.start();
    for m in moves {
        let mv = variant.parse_move(&mut position, m).expect("a legal move");
        variant.make(&mut position, mv);
    }
    variant.parse_move(&mut position, text).is_ok()
}

// ----------------------------------------------------------------------------------------------------
// UCI
// ----------------------------------------------------------------------------------------------------

#[test]
fn uci_handshake_position_and_search() {
    let chess = engine("chess");
    let out = session(
        &chess,
        Protocol::Uci,
        "uci\nisready\nsetoption name UCI_Variant value chess\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\n",
    );
    let ok = out.iter().position(|l| l == "uciok").expect("uciok");
    assert_eq!(
        out[..3],
        [
            "id name vdl Chess",
            "id author the vdl authors",
            "option name UCI_Variant type combo default chess var chess",
        ]
    );
    let options = &out[3..ok];
    for name in ["Hash", "MultiPV", "Clear Hash"] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{options:?}"
        );
    }
    assert_eq!(out[ok + 1], "readyok");
    let infos = starting(&out, "info depth");
    assert_eq!(infos.len(), 2, "{out:?}");
    assert!(
        infos[1].starts_with("info depth 2 score cp "),
        "{}",
        infos[1]
    );
    assert!(infos[1].contains(" pv "));
    let best = starting(&out, "bestmove ");
    assert_eq!(best.len(), 1);
    let mv = best[0].trim_start_matches("bestmove ");
    assert!(is_legal_after(&chess, &["e2e4", "e7e5"], mv), "{mv}");
    assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
}

#[test]
fn uci_reports_a_win_in_one() {
    let hill = engine("kingofthehill");
    let out = session(
        &hill,
        Protocol::Uci,
        "position fen 8/8/8/8/8/3K4/8/k7 w - - 0 1\ngo depth 3\n",
    );
    assert!(out.iter().any(|l| l.contains("score mate 1")), "{out:?}");
    let best = starting(&out, "bestmove ");
    assert!(
        best == ["bestmove d3d4"] || best == ["bestmove d3e4"],
        "{out:?}"
    );
}

#[test]
fn uci_answers_malformed_input_with_errors() {
    let chess = engine("chess");
    let script = [
        "",
        "   ",
        "frobnicate",
        "position",
        "position fen",
        "position fen not a fen at all",
        "position startpos moves e2e4",
        "position startpos moves e7e5",
        "setoption name Hash value 16",
        "setoption name UCI_Variant value shogi",
        "setoption",
        "go depth x nodes",
        "go depth 99999999999999999999999 movetime 18446744073709551615 wtime -5",
        "stop",
        "isready",
    ]
    .join("\n");
    let out = session(&chess, Protocol::Uci, &script);
    let errors = starting(&out, "info string error: ");
    // `setoption name Hash value 16` is accepted.
    assert_eq!(errors.len(), 9, "{out:?}");
    assert!(errors[0].contains("unknown command `frobnicate`"));
    assert!(errors[3].contains("bad FEN"));
    assert!(errors[4].contains("illegal move `e7e5`"));
    // Every `go` searches, even with bad parameters, and the position is the last good one.
    let best = starting(&out, "bestmove ");
    assert_eq!(best.len(), 2, "{out:?}");
    for line in best {
        assert!(
            is_legal_after(&chess, &["e2e4"], line.trim_start_matches("bestmove ")),
            "{line}"
        );
    }
    // `isready` is answered at once, even during a search.
    assert_eq!(starting(&out, "readyok").len(), 1);
}

#[test]
fn uci_stop_ends_an_infinite_search_and_so_does_the_end_of_input() {
    let chess = engine("chess");
    let out = session(&chess, Protocol::Uci, "go infinite\nisready\nstop\ngo\n");
    assert_eq!(starting(&out, "bestmove ").len(), 2, "{out:?}");
    assert_eq!(starting(&out, "readyok").len(), 1);
}

#[test]
fn uci_infinite_search_answers_only_after_stop_even_when_it_ends_first() {
    let chess = engine("chess");
    // Scholar's mate in one: the search proves the mate at depth 1 and ends by itself. `d` waits
    // for the search and does not end it; the `bestmove` waits for the end of input (a `stop`).
    let position =
        "position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    let out = session(
        &chess,
        Protocol::Uci,
        &format!("{position}\ngo infinite\nd\n"),
    );
    let fen = out.iter().position(|l| l.starts_with("Fen: "));
    let best = out.iter().position(|l| l == "bestmove f3f7");
    assert!(fen.is_some() && best.is_some() && fen < best, "{out:?}");
    assert_eq!(starting(&out, "bestmove ").len(), 1, "{out:?}");
    // `stop` sends it.
    let out = session(
        &chess,
        Protocol::Uci,
        &format!("{position}\ngo infinite\nd\nstop\nd\n"),
    );
    assert_eq!(starting(&out, "bestmove ").len(), 1, "{out:?}");
    assert_eq!(starting(&out, "Fen: ").len(), 2, "{out:?}");
}

#[test]
fn uci_quit_ends_the_session() {
    let chess = engine("chess");
    let out = session(&chess, Protocol::Uci, "isready\nquit\nisready\n");
    assert_eq!(out, ["readyok"]);
}

#[test]
fn uci_game_over_has_no_best_move() {
    let chess = engine("chess");
    let out = session(
        &chess,
        Protocol::Uci,
        "position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1\ngo depth 2\n",
    );
    assert_eq!(out, ["bestmove (none)"]);
}

// ----------------------------------------------------------------------------------------------------
// XBoard
// ----------------------------------------------------------------------------------------------------

#[test]
fn xboard_handshake_announces_features() {
    let chess = engine("chess");
    let out = session(
        &chess,
        Protocol::XBoard,
        "xboard\nprotover 2\nvariant normal\n",
    );
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0], "feature done=0");
    for feature in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "myname=\"vdl Chess\"",
        "variants=\"normal\"",
    ] {
        assert!(out[1].contains(feature), "{feature} missing: {}", out[1]);
    }
    assert_eq!(out[2], "feature done=1");
}

#[test]
fn xboard_sends_setup_and_pieces_for_engine_defined_variants() {
    let minishogi = engine("minishogi");
    let out = session(
        &minishogi,
        Protocol::XBoard,
        "xboard\nprotover 2\nvariant minishogi\nvariant shogi\n",
    );
    assert!(out[1].contains("variants=\"minishogi\""));
    let setup = starting(&out, "setup ");
    assert_eq!(setup.len(), 1, "{out:?}");
    // Promoted forms sit 11 slots after their bases, as XBoard pairs them; the parent variant is
    // shogi, whose FEN has no castling and en-passant fields.
    assert_eq!(
        setup[0],
        "setup (P.BR.S.....+.++G+....Kp.br.s.....+.++g+....k) 5x5+5_shogi rbsgk/4p/5/P4/KGSBR[] w 0 1"
    );
    let pieces = starting(&out, "piece ");
    for piece in ["piece R& R", "piece K& K", "piece +P& WfF", "piece +B& BW"] {
        assert!(pieces.contains(&piece), "{piece}: {pieces:?}");
    }
    assert_eq!(
        out.last().map(String::as_str),
        Some("Error (unsupported variant): variant shogi")
    );
}

#[test]
fn xboard_engine_replies_to_user_moves() {
    let chess = engine("chess");
    let out = session(
        &chess,
        Protocol::XBoard,
        "xboard\nprotover 2\nnew\nsd 2\npost\nusermove e2e4\nping 7\n",
    );
    let moves = starting(&out, "move ");
    assert_eq!(moves.len(), 1, "{out:?}");
    assert!(is_legal_after(
        &chess,
        &["e2e4"],
        moves[0].trim_start_matches("move ")
    ));
    // Thinking output: depth, score, time, nodes, moves.
    assert_eq!(starting(&out, "2 ").len(), 1, "{out:?}");
    // The pong comes after the move.
    assert_eq!(out.last().map(String::as_str), Some("pong 7"));
}

#[test]
fn xboard_go_plays_the_side_to_move_and_announces_the_result() {
    let hill = engine("kingofthehill");
    let script =
        "xboard\nprotover 2\nnew\nforce\nsetboard 8/8/8/8/8/3K4/8/k7 w - - 0 1\nsd 3\ngo\n";
    let out = session(&hill, Protocol::XBoard, script);
    let moves = starting(&out, "move ");
    assert!(moves == ["move d3d4"] || moves == ["move d3e4"], "{out:?}");
    assert!(
        out.last()
            .is_some_and(|l| l.starts_with("1-0 {white wins by")),
        "{out:?}"
    );
}

#[test]
fn xboard_answers_malformed_input_with_errors() {
    let chess = engine("chess");
    let script = [
        "xboard",
        "",
        "frobnicate",
        "usermove e2e5",
        "usermove",
        "setboard this is not a fen",
        "level 40 x 0",
        "level 40 5",
        "st -3",
        "sd 99999999999999999999999",
        "time lots",
        "ping",
        "undo",
        "remove",
        "force",
        "usermove e2e4",
        "e7e5",
        "undo",
        "ping 1",
    ]
    .join("\n");
    let out = session(&chess, Protocol::XBoard, &script);
    assert_eq!(out.len(), 12, "{out:?}");
    assert!(
        out[3].starts_with("tellusererror Illegal position: "),
        "{}",
        out[3]
    );
    let others: Vec<&String> = out
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, l)| l)
        .collect();
    assert_eq!(
        others,
        [
            "Error (unknown command): frobnicate",
            "Illegal move: e2e5",
            "Error (expected one move): usermove",
            "Error (expected level MOVES MINUTES[:SECONDS] INCREMENT): level 40 x 0",
            "Error (expected level MOVES MINUTES[:SECONDS] INCREMENT): level 40 5",
            "Error (bad number): st -3",
            "Error (bad number): time lots",
            "Error (missing number): ping",
            "Error (no move to take back): undo",
            "Error (no move to take back): remove",
            "pong 1",
        ]
    );
}

#[test]
fn xboard_question_mark_makes_the_engine_move_now() {
    let chess = engine("chess");
    // A thousand seconds per move, cut short by `?`.
    let out = session(
        &chess,
        Protocol::XBoard,
        "xboard\nnew\nforce\nst 1000\ngo\n?\n",
    );
    let moves = starting(&out, "move ");
    assert_eq!(moves.len(), 1, "{out:?}");
    assert!(is_legal_after(
        &chess,
        &[],
        moves[0].trim_start_matches("move ")
    ));
}

#[test]
fn xboard_force_while_thinking_discards_the_move() {
    let chess = engine("chess");
    let out = session(
        &chess,
        Protocol::XBoard,
        "xboard\nnew\nforce\nst 1000\ngo\nforce\nping 2\n",
    );
    assert_eq!(out, ["pong 2"]);
}

// ----------------------------------------------------------------------------------------------------
// The line protocol
// ----------------------------------------------------------------------------------------------------

#[test]
fn line_protocol_session() {
    let chess = engine("chess");
    let script =
        "game\nturn\nplay e2e4 e7e5\nfen\nturn\nundo\nfen\nmoves\ngo depth 2\nresult\nisready\n";
    let out = session(&chess, Protocol::Line, script);
    assert_eq!(out[0], "game chess players white black");
    assert_eq!(out[1], "turn white");
    assert_eq!(out[2], "ok");
    assert_eq!(
        out[3],
        "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert_eq!(out[4], "turn white");
    assert_eq!(out[5], "ok");
    assert_eq!(
        out[6],
        "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert!(out[7].starts_with("moves "));
    assert_eq!(out[7].split_whitespace().count(), 21);
    let best: Vec<&str> = out[8].split_whitespace().collect();
    assert_eq!(best[0], "bestmove");
    assert!(is_legal_after(&chess, &["e2e4"], best[1]), "{}", out[8]);
    assert_eq!(best[2..6], ["score", "cp", best[4], "depth"]);
    assert_eq!(best[6], "2");
    assert_eq!(out[9..], ["result none", "readyok"]);
}

#[test]
fn line_protocol_answers_malformed_input_with_errors() {
    let chess = engine("chess");
    let script = [
        "",
        "bogus",
        "play",
        "play e2e4 e7e6 e1e5",
        "position",
        "position 9/9/9 w - - 0 1",
        "position start moves e2e4 e2e4",
        "undo",
        "undo 5",
        "undo x y",
        "go depth",
        "go speed 3",
        "go depth abc",
        "fen",
    ]
    .join("\n");
    let out = session(&chess, Protocol::Line, &script);
    let errors = starting(&out, "error ");
    assert_eq!(errors.len(), 12, "{out:?}");
    assert_eq!(errors[0], "error unknown command: bogus");
    assert_eq!(errors[2], "error illegal move: e1e5");
    assert!(
        errors[4].starts_with("error bad position: "),
        "{}",
        errors[4]
    );
    // Nothing was changed by the bad lines.
    assert_eq!(
        out.last().map(String::as_str),
        Some("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
}

#[test]
fn line_protocol_plays_four_player_games() {
    let baccancat = engine("baccancat");
    let out = session(&baccancat, Protocol::Line, "game\nturn\ngo depth 1\n");
    assert!(out[0].starts_with("game baccancat players "));
    assert_eq!(out[0].split_whitespace().count(), 7);
    let best: Vec<&str> = out[2].split_whitespace().collect();
    assert_eq!(best[0], "bestmove");
    assert!(is_legal_after(&baccancat, &[], best[1]));
    let played = session(
        &baccancat,
        Protocol::Line,
        &format!("play {}\nturn\n", best[1]),
    );
    assert_eq!(played[0], "ok");
    assert_ne!(played[1], out[1]);
}

#[test]
fn line_protocol_reports_results() {
    let hill = engine("kingofthehill");
    let out = session(
        &hill,
        Protocol::Line,
        "position 8/8/8/8/8/3K4/8/k7 w - - 0 1\nresult\nplay d3d4\nresult\nmoves\ngo depth 1\n",
    );
    assert_eq!(out[..3], ["ok", "result none", "ok"]);
    assert!(out[3].starts_with("result win white "), "{}", out[3]);
    assert_eq!(out[4..], ["moves", "bestmove none"]);
}

#[test]
fn line_protocol_quit_ends_the_session_and_its_search() {
    let chess = engine("chess");
    assert_eq!(
        session(&chess, Protocol::Line, "quit\nfen\n"),
        Vec::<String>::new()
    );
    let out = session(&chess, Protocol::Line, "go infinite\nquit\nfen\n");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("bestmove "));
}

#[test]
fn line_protocol_stop_ends_an_infinite_search() {
    let chess = engine("chess");
    let out = session(&chess, Protocol::Line, "go infinite\nstop\nisready\n");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("bestmove "));
    assert_eq!(out[1], "readyok");
}

// ----------------------------------------------------------------------------------------------------
// Choosing the protocol, and random input
// ----------------------------------------------------------------------------------------------------

#[test]
fn the_first_line_chooses_the_protocol() {
    let chess = engine("chess");
    assert_eq!(
        session(&chess, Protocol::Any, "\n\nuci\nquit\n")
            .last()
            .map(String::as_str),
        Some("uciok")
    );
    assert_eq!(
        session(&chess, Protocol::Any, "xboard\nprotover 2\n")[0],
        "feature done=0"
    );
    assert_eq!(session(&chess, Protocol::Any, "turn\n"), ["turn white"]);
    assert!(session(&chess, Protocol::Any, "").is_empty());
    assert!(session(&chess, Protocol::Any, "\n \n").is_empty());
}

#[test]
fn random_lines_never_end_a_session() {
    let chess = engine("chess");
    // Words of every protocol; searches are kept short by `go depth 1`, `sd 1` and `st 0.01`.
    let words = [
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "e2e4",
        "e7e5",
        "g1f3",
        "setoption",
        "name",
        "value",
        "UCI_Variant",
        "ucinewgame",
        "stop",
        "xboard",
        "protover",
        "2",
        "new",
        "force",
        "usermove",
        "setboard",
        "undo",
        "remove",
        "ping",
        "result",
        "level",
        "time",
        "otim",
        "play",
        "turn",
        "game",
        "help",
        "8/8/8/8/8/8/8/8",
        "w",
        "-",
        "0",
        "1",
        "-1",
        "999999999999999999999",
        "\u{fffd}",
        "é",
        "@",
        "",
        "\t",
    ];
    let mut rng = Rng::new(0x00c0_ffee);
    for protocol in [Protocol::Uci, Protocol::XBoard, Protocol::Line] {
        let mut script = match protocol {
            Protocol::XBoard => String::from("xboard\nsd 1\nst 0.01\n"),
            _ => String::new(),
        };
        for _ in 0..300 {
            let count = rng.below(5);
            let line: Vec<&str> = (0..count).map(|_| *rng.pick(&words)).collect();
            script.push_str(&line.join(" "));
            script.push('\n');
            if rng.one_in(20) {
                script.push_str("go depth 1\n");
            }
        }
        script.push_str("isready\nping 9\n");
        let out = session(&chess, protocol, &script);
        assert!(!out.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------------
// Terminal play

fn terminal(
    script: &str,
    seats: &[vdl_runtime::play::Seat],
) -> (String, vdl_runtime::play::Played) {
    let engine = engine("chess");
    let mut output = Vec::new();
    let played = vdl_runtime::play::play_terminal(
        &engine,
        seats,
        Cursor::new(script.to_string()),
        &mut output,
    )
    .expect("in-memory IO");
    (String::from_utf8(output).expect("UTF-8"), played)
}

#[test]
fn terminal_play_answers_moves_illegal_moves_and_undo() {
    use vdl_runtime::play::Seat;
    use vdl_runtime::search::Limits;
    let (text, result) = terminal(
        "e2e5\nmoves\ne2e4\nundo\nquit\n",
        &[Seat::Human, Seat::Engine(Limits::depth(1))],
    );
    assert!(text.contains("illegal move `e2e5`"), "{text}");
    assert!(text.contains("g1f3"), "the move list: {text}");
    assert!(text.contains("black (engine) plays"), "{text}");
    // After `undo` the start position is drawn again with White to move.
    let last_board = text.rsplit("main\n").next().expect("a board");
    assert!(last_board.contains("P P P P P P P P"), "{last_board}");
    assert_eq!(result.result, None);
}

#[test]
fn terminal_play_reports_the_end_of_the_game() {
    use vdl_runtime::play::Seat;
    // Fool's mate, typed by two people.
    let (text, result) = terminal("f2f3\ne7e5\ng2g4\nd8h4\n", &[Seat::Human, Seat::Human]);
    assert!(text.contains("game over: black wins (checkmate)"), "{text}");
    assert_eq!(result.result.and_then(|r| r.winner), Some(1));
}

#[test]
fn xboard_offers_the_games_options_and_accepts_its_aliases() {
    let engine = engine("team-mate-chess");
    let lines = session(
        &engine,
        Protocol::XBoard,
        "xboard\nprotover 2\nvariant team-mate\nvariant nonsense\n",
    );
    assert!(lines
        .iter()
        .any(|l| l.contains("variants=\"teammate,team-mate,team-mate-chess\"")));
    assert!(lines
        .iter()
        .any(|l| l == "feature option=\"PairPromotion -check 1\""));
    assert_eq!(starting(&lines, "setup ").len(), 1, "{lines:?}");
    assert_eq!(
        starting(&lines, "Error (unsupported variant)"),
        ["Error (unsupported variant): variant nonsense"]
    );
}

#[test]
fn xboard_pair_promotion_option_removes_the_brute_pair() {
    let engine = engine("team-mate-chess");
    let script = |option: &str| {
        format!(
            "xboard\nprotover 2\nvariant team-mate\n{option}\nsetboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1\n\
             force\nusermove a7a8b\nping 1\n"
        )
    };
    let on = session(&engine, Protocol::XBoard, &script("option PairPromotion=1"));
    assert!(starting(&on, "Illegal move").is_empty(), "{on:?}");
    let off = session(&engine, Protocol::XBoard, &script("option PairPromotion=0"));
    assert_eq!(starting(&off, "Illegal move").len(), 1, "{off:?}");
    let bad = session(
        &engine,
        Protocol::XBoard,
        "xboard\noption NoSuchThing=1\noption PairPromotion\n",
    );
    assert_eq!(starting(&bad, "Error").len(), 2, "{bad:?}");
}

#[test]
fn uci_offers_the_games_options() {
    let engine = engine("team-mate-chess");
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let lines = session(
        &engine,
        Protocol::Uci,
        &format!(
            "uci\nsetoption name UCI_Variant value team-mate\nsetoption name PairPromotion value false\n\
             position fen {fen} moves a7a8b\nsetoption name PairPromotion value maybe\nisready\n"
        ),
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name PairPromotion type check default true"));
    // With the option off, the pair promotion is not a legal move; `maybe` is no value of it.
    assert_eq!(starting(&lines, "info string error").len(), 2, "{lines:?}");
}

#[test]
fn xboard_numbers_the_ranks_of_ten_rank_boards_from_zero() {
    let xiangqi = engine("xiangqi");
    // XBoard knows xiangqi: no setup. MaxQi and XBoard write the cannon's opening h3e3 as h2e2.
    let out = session(
        &xiangqi,
        Protocol::XBoard,
        "xboard\nprotover 2\nvariant xiangqi\nnew\nforce\nusermove h2e2\nusermove h9g7\n\
         usermove b0c2\nusermove h3e3\nsd 1\ngo\n",
    );
    assert!(starting(&out, "setup ").is_empty(), "{out:?}");
    assert!(starting(&out, "piece ").is_empty(), "{out:?}");
    assert_eq!(starting(&out, "Illegal move"), ["Illegal move: h3e3"]);
    let reply = starting(&out, "move ");
    assert_eq!(reply.len(), 1, "{out:?}");
    let text = reply[0].trim_start_matches("move ");
    let ranks: Vec<u32> = text.chars().filter_map(|c| c.to_digit(10)).collect();
    assert!(text.len() == 4 && ranks.iter().all(|r| *r <= 9), "{text}");
    // Back in the game's own names (ranks 1 to 10), the reply is legal.
    let own: String = text
        .chars()
        .map(|c| {
            c.to_digit(10)
                .map_or(c.to_string(), |d| (d + 1).to_string())
        })
        .collect();
    assert!(
        is_legal_after(&xiangqi, &["h3e3", "h10g8", "b1c3"], &own),
        "{own}"
    );
}

#[test]
fn xboard_plays_its_own_variants_by_its_rules() {
    for name in ["capablanca", "xiangqi", "shogi", "seirawan"] {
        let game = engine(name);
        let out = session(
            &game,
            Protocol::XBoard,
            &format!("xboard\nprotover 2\nvariant {name}\n"),
        );
        assert!(
            starting(&out, "setup ").is_empty() && starting(&out, "piece ").is_empty(),
            "{name}: {out:?}"
        );
        assert!(starting(&out, "Error").is_empty(), "{name}: {out:?}");
    }
}

#[test]
fn xboard_describes_castling_and_grants_the_rights_its_fen_cannot_write() {
    let team_mate = engine("team-mate-chess");
    // XBoard sends the second engine the start position with `-` for castling: its KQkq find only
    // rooks, and Team-Mate Chess castles with a cobra and a unicorn.
    let script = |board: &str| {
        format!(
            "xboard\nprotover 2\nvariant team-mate-chess\nnew\nforce\n\
             setboard ufeak2c/pppppppp/8/8/8/8/PPPPPPPP/{board} w - - 0 1\nusermove e1g1\nping 1\n"
        )
    };
    let out = session(&team_mate, Protocol::XBoard, &script("UFEAK2C"));
    assert!(starting(&out, "Error").is_empty(), "{out:?}");
    assert!(
        starting(&out, "piece ").contains(&"piece K& KisO2"),
        "{out:?}"
    );
    assert!(starting(&out, "Illegal move").is_empty(), "{out:?}");
    // Without the partner on its start cell there is nothing to grant.
    let out = session(&team_mate, Protocol::XBoard, &script("UFEAK3"));
    assert_eq!(
        starting(&out, "Illegal move"),
        ["Illegal move: e1g1"],
        "{out:?}"
    );
}

#[test]
fn xboard_castling_partners_away_from_the_edge_are_skipped_with_j() {
    let shako = engine("shako");
    let out = session(
        &shako,
        Protocol::XBoard,
        "xboard\nprotover 2\nvariant shako\n",
    );
    assert!(
        starting(&out, "piece ").contains(&"piece K& KisjO2"),
        "{out:?}"
    );
}

// ----------------------------------------------------------------------------------------------------
// The end of input, and overlong lines
// ----------------------------------------------------------------------------------------------------

/// Runs a script on an engine that stops at the end of its input (the default, as for a user interface
/// that has gone away) and returns the output, failing if the session is still running a minute after
/// its script ended: each script asks for a search of 1000 seconds.
fn session_that_stops(protocol: Protocol, script: &'static str) -> Vec<String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut chess = engine("chess");
        chess.end_of_input = EndOfInput::Stop;
        let _ = sender.send(session(&chess, protocol, script));
    });
    receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the engine still thinks a minute after the end of its input")
}

#[test]
fn the_end_of_input_stops_a_search_with_limits() {
    let xboard = session_that_stops(Protocol::XBoard, "xboard\nnew\nst 1000\ngo\n");
    let moves = starting(&xboard, "move ");
    assert_eq!(moves.len(), 1, "{xboard:?}");
    assert!(is_legal_after(
        &chess_engine(),
        &[],
        moves[0].trim_start_matches("move ")
    ));
    let uci = session_that_stops(
        Protocol::Uci,
        "uci\nposition startpos\ngo movetime 1000000\n",
    );
    assert_eq!(starting(&uci, "bestmove ").len(), 1, "{uci:?}");
    let line = session_that_stops(Protocol::Line, "go time 1000000\n");
    assert_eq!(starting(&line, "bestmove ").len(), 1, "{line:?}");
    // Lines read before the end are still handled; their searches stop at once too.
    let two = session_that_stops(
        Protocol::Uci,
        "go movetime 1000000\ngo movetime 1000000\nisready\n",
    );
    assert_eq!(starting(&two, "bestmove ").len(), 2, "{two:?}");
}

fn chess_engine() -> InterpretedEngine {
    engine("chess")
}

#[test]
fn an_overlong_line_gets_an_error_reply() {
    let chess = engine("chess");
    let long = format!(
        "position startpos moves {}\nisready\n",
        "e2e4 ".repeat(300_000)
    );
    for (protocol, script, error) in [
        (
            Protocol::Uci,
            format!("uci\n{long}"),
            "info string error: unknown command `line-longer-than-1-MiB-ignored`",
        ),
        (
            Protocol::XBoard,
            format!("xboard\n{long}"),
            "Error (unknown command): line-longer-than-1-MiB-ignored",
        ),
        (
            Protocol::Line,
            long.clone(),
            "error unknown command: line-longer-than-1-MiB-ignored",
        ),
    ] {
        let out = session(&chess, protocol, &script);
        assert!(out.iter().any(|l| l == error), "{out:?}");
    }
    // The protocol is still chosen, and the session goes on after the line.
    let out = session(&chess, Protocol::Uci, &format!("uci\n{long}"));
    assert_eq!(out.last().map(String::as_str), Some("readyok"), "{out:?}");
}

#[allow(unused, clippy::all)]
mod game_chess {
    include!(concat!(env!("OUT_DIR"), "/game_chess.rs"));
}

#[test]
fn terminal_play_searches_on_the_compact_form() {
    use vdl_runtime::play::{compact_think, play_terminal_with, Seat};
    use vdl_runtime::search::Limits;
    let fast = game_chess::compact::fast_engine().expect("chess has a compact form");
    let think = compact_think(&fast);
    // A mate in one: the compact form's search finds it, as a move of the interpreter.
    let interpreter = &fast.interpreter;
    let mut mate = interpreter
        .parse_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        .expect("a position");
    let found = think(&mate, &Limits::depth(2));
    let want = interpreter.parse_move(&mut mate, "a1a8").expect("legal");
    assert_eq!(found.best, Some(want));
    assert_eq!(found.pv, vec![want]);
    // At the terminal the engine seat answers with a move the interpreter plays.
    let engine = Engine::from_interpreter(interpreter.clone());
    let mut output = Vec::new();
    let played = play_terminal_with(
        &engine,
        &[Seat::Human, Seat::Engine(Limits::depth(2))],
        &think,
        Cursor::new("e2e4\nquit\n".to_string()),
        &mut output,
    )
    .expect("in-memory IO");
    let text = String::from_utf8(output).expect("UTF-8");
    assert!(text.contains("black (engine) plays"), "{text}");
    assert_eq!(played.moves.len(), 2, "{text}");
    assert_eq!(played.moves[1].0, 1);
}
