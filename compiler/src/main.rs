//! The `vdl` command: check rule files and explain their pieces.
//!
//! Exit codes: 0 success, 1 errors in a rule file, 2 usage or I/O errors.

use std::io::{IsTerminal, Write};

/// Prints to stdout, ignoring a closed pipe (`vdl show ... | head`) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

/// Prints a line to stdout, ignoring a closed pipe.
macro_rules! outln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
use std::process::ExitCode;

use vdl::{explain, report};
use vdl_dsl::check::check_source;

const USAGE: &str = "\
vdl: a declarative language for chess variants

Usage:
  vdl check FILE... [--format text|json]   validate rule files; diagnostics on stderr (json on stdout)
  vdl explain FILE [PIECE]                 draw each piece's moves on an empty board
  vdl perft FILE DEPTH [--fen FEN] [--moves \"M1 M2 ...\"] [--divide]
                                           count move paths with the reference interpreter;
                                           the last line on stdout is `nodes N`
  vdl emit FILE                            print the Rust code generated for a rule file
  vdl build FILE -o PATH                   build a native engine (answers `PATH perft ...`)
  vdl show FILE [--fen FEN] [--moves \"M1 M2 ...\"] [--setup NAME=VALUE]
                                           draw a position for people
  vdl play FILE --random GAMES [--seed S] [--setup NAME=VALUE] [--max-plies N]
                                           play random games to the end and summarise the results
  vdl bench [--quick] [--fsf PROGRAM]      perft speed: interpreter, compiled engine, Fairy-Stockfish
                                           (and shakmaty on chess, when built with --features shakmaty)
  vdl help                                 this text

Exit status: 0 no errors, 1 errors in a rule file, 2 usage or I/O error.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("explain") => explain_command(&args[1..]),
        Some("perft") => perft_command(&args[1..]),
        Some("emit") => emit_command(&args[1..]),
        Some("build") => build_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("show") => show_command(&args[1..]),
        Some("play") => play_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            outln!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            outln!("vdl {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown command `{other}`")),
        None => usage_error("no command given"),
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

fn read(path: &str) -> Result<String, ExitCode> {
    std::fs::read(path)
        .map_err(|e| {
            eprintln!("error: cannot read `{path}`: {e}");
            ExitCode::from(2)
        })
        .and_then(|bytes| {
            String::from_utf8(bytes).map_err(|e| {
                eprintln!(
                    "error: `{path}` is not UTF-8 text (byte {})",
                    e.utf8_error().valid_up_to()
                );
                ExitCode::from(2)
            })
        })
}

fn check(args: &[String]) -> ExitCode {
    let mut files = Vec::new();
    let mut json = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--format" => {
                match args.get(i + 1).map(String::as_str) {
                    Some("json") => json = true,
                    Some("text") => json = false,
                    _ => return usage_error("--format takes `text` or `json`"),
                }
                i += 1;
            }
            flag if flag.starts_with("--") => {
                return usage_error(&format!("unknown option `{flag}`"))
            }
            path => files.push(path.to_string()),
        }
        i += 1;
    }
    if files.is_empty() {
        return usage_error("`vdl check` needs at least one file");
    }
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut failed = false;
    let mut json_items = Vec::new();
    for path in &files {
        let source = match read(path) {
            Ok(s) => s,
            Err(code) => return code,
        };
        let checked = check_source(&source);
        failed |= checked.has_errors();
        if json {
            let items = report::render_json(path, &source, &checked.problems);
            json_items.push(
                items
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string(),
            );
        } else {
            eprint!(
                "{}",
                report::render_text(path, &source, &checked.problems, colour)
            );
        }
    }
    if json {
        let items: Vec<String> = json_items.into_iter().filter(|s| !s.is_empty()).collect();
        outln!("[{}]", items.join(","));
    } else if !failed {
        eprintln!(
            "{} file{} checked, no errors",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        );
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn explain_command(args: &[String]) -> ExitCode {
    let (path, piece) = match args {
        [path] => (path, None),
        [path, piece] => (path, Some(piece.as_str())),
        _ => return usage_error("usage: vdl explain FILE [PIECE]"),
    };
    let source = match read(path) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let checked = check_source(&source);
    let Some(game) = checked.game else {
        let colour = std::io::stderr().is_terminal();
        eprint!(
            "{}",
            report::render_text(path, &source, &checked.problems, colour)
        );
        return ExitCode::from(1);
    };
    match explain::explain(&game, piece) {
        Ok(text) => {
            out!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// Loads and checks a rule file, printing diagnostics; `None` (with the exit code) when it has errors.
fn load_game(path: &str) -> Result<vdl_runtime::Game, ExitCode> {
    let source = read(path)?;
    let checked = check_source(&source);
    match checked.game {
        Some(game) => Ok(game),
        None => {
            let colour = std::io::stderr().is_terminal();
            eprint!(
                "{}",
                report::render_text(path, &source, &checked.problems, colour)
            );
            Err(ExitCode::from(1))
        }
    }
}

fn perft_command(args: &[String]) -> ExitCode {
    let (positional, options) = match vdl_runtime::cli::parse_perft_args(args, 1) {
        Ok(parsed) => parsed,
        Err(message) => {
            return usage_error(&format!(
                "{message}\nusage: vdl perft FILE DEPTH [--fen FEN] [--moves \"...\"] [--divide]"
            ))
        }
    };
    let game = match load_game(&positional[0]) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let interpreter = match vdl_runtime::Interpreter::new(game) {
        Ok(i) => i,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    let progress = std::io::stderr().is_terminal();
    match vdl_runtime::cli::run_perft(&interpreter, &options, &mut std::io::stdout(), progress) {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// Checks and generates code for a rule file, printing diagnostics on failure.
fn generated_code(path: &str) -> Result<(String, String), ExitCode> {
    let source = read(path)?;
    match vdl::build::generate(path, &source) {
        Ok(code) => Ok((source, code)),
        Err(vdl::build::GenerateError::Check(problems)) => {
            eprint!(
                "{}",
                report::render_text(path, &source, &problems, std::io::stderr().is_terminal())
            );
            Err(ExitCode::from(1))
        }
        Err(vdl::build::GenerateError::Emit(message)) => {
            eprintln!("error: {message}");
            Err(ExitCode::from(1))
        }
    }
}

fn emit_command(args: &[String]) -> ExitCode {
    let [path] = args else {
        return usage_error("usage: vdl emit FILE");
    };
    match generated_code(path) {
        Ok((_, code)) => {
            out!("{code}");
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

fn build_command(args: &[String]) -> ExitCode {
    let (path, output) = match args {
        [path, flag, output] if flag == "-o" => (path, output),
        [flag, output, path] if flag == "-o" => (path, output),
        _ => return usage_error("usage: vdl build FILE -o PATH"),
    };
    let (source, code) = match generated_code(path) {
        Ok(generated) => generated,
        Err(code) => return code,
    };
    let checked = check_source(&source);
    let name = checked
        .game
        .map(|g| g.name)
        .unwrap_or_else(|| "engine".into());
    let work = std::env::var_os("VDL_BUILD_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("vdl-engines"));
    let crate_dir = work.join(&name);
    let started = std::time::Instant::now();
    let package = match vdl::build::write_crate(&crate_dir, &name, &code) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "error: cannot write the engine crate in {}: {e}",
                crate_dir.display()
            );
            return ExitCode::from(2);
        }
    };
    let target = work.join("target");
    match vdl::build::build_crate(&crate_dir, &package, &target, std::path::Path::new(output)) {
        Ok(()) => {
            eprintln!("built {output} in {:.1} s", started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

fn bench_command(args: &[String]) -> ExitCode {
    use vdl::bench::{Measure, CASES};
    use vdl_runtime::Variant;
    let mut quick = false;
    let mut fsf = std::path::PathBuf::from("/usr/games/fairy-stockfish");
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--quick" => quick = true,
            "--fsf" => {
                i += 1;
                match args.get(i) {
                    Some(p) => fsf = p.into(),
                    None => return usage_error("--fsf needs a program"),
                }
            }
            other => return usage_error(&format!("unknown option `{other}`")),
        }
        i += 1;
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let work = std::env::temp_dir().join("vdl-engines");
    outln!("| variant | position | depth | nodes | interpreter n/s | compiled n/s | Fairy-Stockfish n/s | compiled / FSF | interpreter / FSF | shakmaty n/s | compiled / shakmaty |");
    outln!("|---|---|---|---|---|---|---|---|---|---|---|");
    for case in CASES {
        let depth = if quick { case.depth - 1 } else { case.depth };
        let case = vdl::bench::Case {
            depth,
            ..case.clone()
        };
        let path = examples.join(format!("{}.vdl", case.variant));
        let path_text = path.display().to_string();
        let game = match load_game(&path_text) {
            Ok(g) => g,
            Err(code) => return code,
        };
        let interpreter = match vdl_runtime::Interpreter::new(game.clone()) {
            Ok(i) => i,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(1);
            }
        };
        let mut position = match case.fen {
            Some(fen) => match interpreter.parse_position(fen) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            },
            None => interpreter.start(),
        };
        let started = std::time::Instant::now();
        let nodes = vdl_runtime::perft::perft(&interpreter, &mut position, depth);
        let interpreted = Measure {
            nodes,
            seconds: started.elapsed().as_secs_f64(),
        };
        let engine_path = work.join(format!("engine-{}", case.variant));
        let (_, code) = match generated_code(&path_text) {
            Ok(generated) => generated,
            Err(code) => return code,
        };
        let crate_dir = work.join(&game.name);
        let built = vdl::build::write_crate(&crate_dir, &game.name, &code)
            .map_err(|e| e.to_string())
            .and_then(|package| {
                vdl::build::build_crate(&crate_dir, &package, &work.join("target"), &engine_path)
            });
        let compiled = built.and_then(|()| vdl::bench::engine(&engine_path, &case));
        let reference = vdl::bench::fairy_stockfish(&fsf, &case);
        let rate = |m: &Result<Measure, String>| {
            m.as_ref()
                .map(|m| format!("{:.0}", m.rate()))
                .unwrap_or_else(|e| format!("({e})"))
        };
        let ratio = |a: &Result<Measure, String>, b: f64| {
            a.as_ref()
                .map(|m| format!("{:.2}", m.rate() / b))
                .unwrap_or_else(|_| "-".into())
        };
        let fsf_rate = reference.as_ref().map(|m| m.rate()).unwrap_or(f64::NAN);
        let (shakmaty, shakmaty_ratio) = if case.variant == "chess" {
            let measure = vdl::bench::shakmaty(&case);
            if let Ok(m) = &measure {
                if m.nodes != nodes {
                    eprintln!(
                        "warning: {}: shakmaty counts {} nodes, vdl {nodes}",
                        case.label, m.nodes
                    );
                }
            }
            let shakmaty_rate = measure.as_ref().map(|m| m.rate()).unwrap_or(f64::NAN);
            (rate(&measure), ratio(&compiled, shakmaty_rate))
        } else {
            ("-".to_string(), "-".to_string())
        };
        if let Ok(m) = &compiled {
            if m.nodes != nodes {
                eprintln!(
                    "warning: {} {}: the compiled engine counts {} nodes, the interpreter {nodes}",
                    case.variant, case.label, m.nodes
                );
            }
        }
        if let Ok(m) = &reference {
            if m.nodes != nodes {
                eprintln!(
                    "warning: {} {}: Fairy-Stockfish counts {} nodes, vdl {nodes}",
                    case.variant, case.label, m.nodes
                );
            }
        }
        outln!(
            "| {} | {} | {depth} | {nodes} | {:.0} | {} | {} | {} | {:.2} | {shakmaty} | {shakmaty_ratio} |",
            case.variant,
            case.label,
            interpreted.rate(),
            rate(&compiled),
            rate(&reference),
            ratio(&compiled, fsf_rate),
            interpreted.rate() / fsf_rate
        );
    }
    ExitCode::SUCCESS
}

/// Reads `--setup` values: `NAME=VALUE`, or a bare value that one of the game's options lists.
fn setup_options(
    game: &vdl_runtime::Game,
    values: &[String],
) -> Result<Vec<(String, String)>, String> {
    values
        .iter()
        .map(|v| match v.split_once('=') {
            Some((name, value)) => Ok((name.to_string(), value.to_string())),
            None => game
                .options
                .iter()
                .find(|o| o.values.iter().any(|x| x == v))
                .map(|o| (o.name.clone(), v.clone()))
                .ok_or_else(|| format!("no option of the game has the value `{v}`")),
        })
        .collect()
}

/// Parses the options shared by `show` and `play`; returns the interpreter and the remaining flags.
fn game_with_setup(path: &str, setups: &[String]) -> Result<vdl_runtime::Interpreter, ExitCode> {
    let game = load_game(path)?;
    let options = setup_options(&game, setups).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(1)
    })?;
    vdl_runtime::Interpreter::with_options(game, &options).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(1)
    })
}

fn show_command(args: &[String]) -> ExitCode {
    use vdl_runtime::Variant;
    let mut path = None;
    let mut fen = None;
    let mut moves = None;
    let mut setups = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--fen" => fen = value,
            "--moves" => moves = value,
            "--setup" => setups.extend(value),
            other if !other.starts_with("--") && path.is_none() => {
                path = Some(other.to_string());
                i += 1;
                continue;
            }
            other => return usage_error(&format!("unexpected `{other}`")),
        }
        i += 2;
    }
    let Some(path) = path else {
        return usage_error("usage: vdl show FILE [--fen FEN] [--moves \"...\"]");
    };
    let interpreter = match game_with_setup(&path, &setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let position =
        match vdl_runtime::cli::position_from(&interpreter, fen.as_deref(), moves.as_deref()) {
            Ok(p) => p,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(1);
            }
        };
    out!("{}", interpreter.render(&position));
    outln!("{}", interpreter.write_position(&position));
    ExitCode::SUCCESS
}

fn play_command(args: &[String]) -> ExitCode {
    use vdl_runtime::Variant;
    let mut path = None;
    let mut games = None;
    let mut seed: u64 = 1;
    let mut max_plies: usize = 1000;
    let mut setups = Vec::new();
    let mut seats: Vec<String> = vec!["human".into(), "engine".into()];
    let mut depth: u32 = 4;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--random" => games = value.parse::<usize>().ok(),
            "--seed" => match value.parse() {
                Ok(s) => seed = s,
                Err(_) => return usage_error(&format!("seed `{value}` is not a number")),
            },
            "--max-plies" => match value.parse() {
                Ok(n) => max_plies = n,
                Err(_) => return usage_error(&format!("`{value}` is not a number of plies")),
            },
            "--setup" => setups.push(value),
            "--seats" => seats = value.split(',').map(str::to_string).collect(),
            "--depth" => match value.parse() {
                Ok(d) => depth = d,
                Err(_) => return usage_error(&format!("depth `{value}` is not a number")),
            },
            other if !other.starts_with("--") && path.is_none() => {
                path = Some(other.to_string());
                i += 1;
                continue;
            }
            other => return usage_error(&format!("unexpected `{other}`")),
        }
        i += 2;
    }
    let Some(path) = path else {
        return usage_error("usage: vdl play FILE [--random GAMES [--seed S] [--max-plies N]] [--seats human,engine,...] [--depth N] [--setup NAME=VALUE]");
    };
    let Some(games) = games else {
        return play_interactive(&path, &setups, &seats, depth);
    };
    let interpreter = match game_with_setup(&path, &setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let players: Vec<String> = interpreter
        .game
        .players
        .iter()
        .filter(|p| !p.neutral)
        .map(|p| p.name.clone())
        .collect();
    let mut wins = vec![0usize; players.len()];
    let (mut draws, mut unfinished) = (0usize, 0usize);
    for game in 1..=games {
        let mut position = interpreter.start();
        let mut plies = 0;
        let result = loop {
            if let Some(result) = interpreter.outcome(&mut position) {
                break Some(result);
            }
            if plies >= max_plies {
                break None;
            }
            let mut moves = Vec::new();
            interpreter.legal_moves(&mut position, &mut moves);
            if moves.is_empty() {
                break None;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            interpreter.make(&mut position, mv);
            plies += 1;
        };
        let text = match &result {
            Some(r) => match r.winner {
                Some(w) => {
                    wins[w] += 1;
                    format!(
                        "{} wins ({})",
                        players.get(w).cloned().unwrap_or_default(),
                        r.reason
                    )
                }
                None => {
                    draws += 1;
                    format!("draw ({})", r.reason)
                }
            },
            None => {
                unfinished += 1;
                format!("unfinished after {max_plies} plies")
            }
        };
        outln!("game {game}: {text}, {plies} plies");
    }
    let summary: Vec<String> = players
        .iter()
        .zip(&wins)
        .map(|(p, w)| format!("{p} {w}"))
        .collect();
    outln!(
        "{games} games: {}, draws {draws}, unfinished {unfinished}",
        summary.join(", ")
    );
    ExitCode::SUCCESS
}

/// A person plays against the engine (or several people, or engines) in the terminal.
fn play_interactive(path: &str, setups: &[String], seats: &[String], depth: u32) -> ExitCode {
    use vdl_runtime::play::{play_terminal, Seat};
    let interpreter = match game_with_setup(path, setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let mut parsed = Vec::new();
    for seat in seats {
        match seat.as_str() {
            "human" => parsed.push(Seat::Human),
            "engine" => parsed.push(Seat::Engine(vdl_runtime::search::Limits::depth(depth))),
            other => return usage_error(&format!("a seat is `human` or `engine`, not `{other}`")),
        }
    }
    let engine = vdl_runtime::protocol::Engine::from_interpreter(interpreter);
    let stdin = std::io::stdin();
    match play_terminal(&engine, &parsed, stdin.lock(), std::io::stdout()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
