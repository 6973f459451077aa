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
  vdl perft FILE DEPTH [--fen FEN | --pgn FILE [--game N]] [--moves \"M1 M2 ...\"] [--divide]
            [--setup NAME=VALUE]
                                           count move paths with the reference interpreter;
                                           the last line on stdout is `nodes N`
  vdl emit FILE                            print the Rust code generated for a rule file
  vdl build FILE -o PATH [--cache-dir DIR] [--lto]
                                           build a native engine (answers `PATH perft ...`); engine
                                           crates are kept in DIR (default $VDL_CACHE_DIR, else
                                           $XDG_CACHE_HOME/vdl or ~/.cache/vdl) and reused while
                                           the rule file and vdl are unchanged; --lto: link-time
                                           optimisation (builds take minutes, engines up to 10% faster)
  vdl show FILE [--fen FEN | --pgn FILE [--game N]] [--moves \"M1 M2 ...\"] [--setup NAME=VALUE]
                                           draw a position for people (a PGN game's last one)
  vdl play FILE --random GAMES [--seed S] [--setup NAME=VALUE] [--max-plies N] [--engine compiled]
            [--pgn FILE]
                                           play random games to the end and summarise the results
                                           (at most N single moves, default 1000 turns' worth;
                                           1000 rounds with more than two players)
  vdl play FILE [--seats human,engine,...] [--depth N] [--pgn FILE]
                                           play in the terminal against the engine (moves in SAN
                                           or the game's notation), saving the game as PGN
  vdl engine FILE [xboard|uci|usi|line] [--setup NAME=VALUE]
                                           the interpreted engine on stdin/stdout (for GUIs)
  vdl match FILE --players P1,P2,... [--games N] [--time MIN+INC] [--move-time SECONDS] [--depth N]
            [--openings PLIES]
            [--seed S] [--max-plies N] [--variant NAME] [--setup NAME=VALUE]
            [--engine-option NAME=VALUE] [--pgn FILE] [--verbose]
                                           a referee: P is `random`, `search` or `xboard:COMMAND`
  vdl bench [--quick] [--only NAME]... [--fsf PROGRAM]
                                           perft speed: interpreter, compiled engine, Fairy-Stockfish
                                           (and shakmaty on chess, when built with --features shakmaty)
  vdl help                                 this text

Exit status: 0 no errors, 1 errors in a rule file, 2 usage or I/O error.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `vdl COMMAND --help` asks for the usage, as `vdl help` does.
    if args.len() > 1 && args[1..].iter().any(|a| a == "--help" || a == "-h") {
        outln!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("explain") => explain_command(&args[1..]),
        Some("perft") => perft_command(&args[1..]),
        Some("emit") => emit_command(&args[1..]),
        Some("build") => build_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("show") => show_command(&args[1..]),
        Some("play") => play_command(&args[1..]),
        Some("engine") => engine_command(&args[1..]),
        Some("match") => match_command(&args[1..]),
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

/// Reads a rule file: at most `MAX_SOURCE_BYTES` bytes, so that a huge file (or `/dev/zero`) is refused
/// at once instead of filling the memory.
fn read(path: &str) -> Result<String, ExitCode> {
    use std::io::Read;
    let limit = vdl_dsl::limits::MAX_SOURCE_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(limit as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| {
            eprintln!("error: cannot read `{path}`: {e}");
            ExitCode::from(2)
        })?;
    if bytes.len() > limit {
        eprintln!(
            "error: `{path}` is larger than {limit} bytes ({} MiB), the most a rule file may have",
            limit >> 20
        );
        return Err(ExitCode::from(2));
    }
    String::from_utf8(bytes).map_err(|e| {
        eprintln!(
            "error: `{path}` is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        );
        ExitCode::from(2)
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
                "{message}\nusage: vdl perft FILE DEPTH [--fen FEN | --pgn FILE [--game N]] [--moves \"...\"] [--divide] [--setup NAME=VALUE]"
            ))
        }
    };
    let game = match load_game(&positional[0]) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let interpreter = vdl_runtime::Interpreter::resolve_options(&game, &options.setups)
        .and_then(|chosen| vdl_runtime::Interpreter::with_options(game, &chosen));
    let interpreter = match interpreter {
        Ok(i) => i,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    if let Err(code) = readable(options.pgn.as_deref()) {
        return code;
    }
    let progress = std::io::stderr().is_terminal();
    match vdl_runtime::cli::run_perft(&interpreter, &options, &mut std::io::stdout(), progress) {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}

/// A file that cannot be opened is an I/O error (exit code 2), before anything reads it.
fn readable(path: Option<&str>) -> Result<(), ExitCode> {
    match path.map(std::fs::File::open) {
        Some(Err(e)) => {
            eprintln!("error: cannot read `{}`: {e}", path.unwrap_or_default());
            Err(ExitCode::from(2))
        }
        _ => Ok(()),
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
    const BUILD_USAGE: &str = "usage: vdl build FILE -o PATH [--cache-dir DIR] [--lto]";
    let (mut path, mut output, mut cache, mut lto) = (None, None, None, false);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-o" => match rest.next() {
                Some(value) => output = Some(value.clone()),
                None => return usage_error(BUILD_USAGE),
            },
            "--lto" => lto = true,
            "--cache-dir" => match rest.next() {
                Some(value) => cache = Some(vdl::build::cache::Cache::new(value)),
                None => return usage_error(BUILD_USAGE),
            },
            flag if flag.starts_with('-') => {
                return usage_error(&format!("unknown option `{flag}`\n{BUILD_USAGE}"))
            }
            _ if path.is_none() => path = Some(arg.clone()),
            _ => return usage_error(BUILD_USAGE),
        }
    }
    let (Some(path), Some(output)) = (path, output) else {
        return usage_error(BUILD_USAGE);
    };
    let cache = cache.unwrap_or_else(vdl::build::cache::Cache::for_user);
    match build_engine(&path, &cache, lto) {
        Ok((engine, started)) => {
            if let Err(message) = vdl::build::cache::install(&engine, std::path::Path::new(&output))
            {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
            match started {
                Some(started) => eprintln!(
                    "vdl: built {output} in {:.1} s",
                    started.elapsed().as_secs_f64()
                ),
                None => eprintln!("vdl: {path} is up to date: {output}"),
            }
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

/// Builds the engine of a rule file in the cache (with link-time optimisation if `lto`), printing
/// progress on stderr, and returns its path there with the time the build started (`None` when the
/// cache already had it).
fn build_engine(
    path: &str,
    cache: &vdl::build::cache::Cache,
    lto: bool,
) -> Result<(std::path::PathBuf, Option<std::time::Instant>), ExitCode> {
    use vdl::build::cache::{Progress, Request};
    let started = std::time::Instant::now();
    eprintln!("vdl: checking and generating {path}");
    let (source, code) = generated_code(path)?;
    let name = check_source(&source)
        .game
        .map(|g| g.name)
        .unwrap_or_else(|| "engine".into());
    eprintln!(
        "vdl: generated {} lines of Rust in {:.1} s",
        code.lines().count(),
        started.elapsed().as_secs_f64()
    );
    let request = Request {
        game: &name,
        source: &source,
        code: &code,
        lto,
    };
    let mut progress = |event: Progress| match event {
        Progress::Waiting(dir) => eprintln!(
            "vdl: waiting for another build of the same engine in {}",
            dir.display()
        ),
        Progress::Compiling(dir) => {
            eprintln!("vdl: compiling the engine crate {}", dir.display())
        }
    };
    match cache.build(&request, &mut progress, &vdl::build::compile_crate) {
        Ok(built) => {
            match cache.prune(vdl::build::cache::KEEP_PER_GAME) {
                Ok(removed) if !removed.is_empty() => eprintln!(
                    "vdl: removed {} older engine build{} of this cache",
                    removed.len(),
                    if removed.len() == 1 { "" } else { "s" }
                ),
                Ok(_) => {}
                Err(message) => eprintln!("warning: the engine cache was not pruned: {message}"),
            }
            Ok((built.engine, (!built.up_to_date).then_some(started)))
        }
        Err(message) => {
            eprintln!("error: {message}");
            Err(ExitCode::from(1))
        }
    }
}

fn bench_command(args: &[String]) -> ExitCode {
    use vdl::bench::{Measure, CASES};
    use vdl_runtime::Variant;
    let mut quick = false;
    let mut only: Vec<String> = Vec::new();
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
            "--only" => {
                i += 1;
                match args.get(i) {
                    Some(name) => only.push(name.clone()),
                    None => return usage_error("--only needs an example name, such as `chess`"),
                }
            }
            other => return usage_error(&format!("unknown option `{other}`")),
        }
        i += 1;
    }
    if let Some(name) = only.iter().find(|n| !CASES.iter().any(|c| c.variant == *n)) {
        let names: Vec<&str> = CASES.iter().map(|c| c.variant).collect();
        return usage_error(&format!(
            "`{name}` has no bench row; the rows are {}",
            names.join(", ")
        ));
    }
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let cache = vdl::build::cache::Cache::for_user();
    outln!("| variant | position | depth | nodes | interpreter n/s | compiled n/s | compiled / interpreter | Fairy-Stockfish n/s | compiled / FSF | interpreter / FSF | shakmaty n/s | compiled / shakmaty |");
    outln!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for case in CASES
        .iter()
        .filter(|c| only.is_empty() || only.iter().any(|n| n == c.variant))
    {
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
        // The bench measures the fastest engines vdl builds.
        let engine_path = match build_engine(&path_text, &cache, true) {
            Ok((engine, _)) => engine,
            Err(code) => return code,
        };
        eprintln!(
            "bench: {} {} depth {depth}: interpreter",
            case.variant, case.label
        );
        let started = std::time::Instant::now();
        let nodes = vdl_runtime::perft::perft(&interpreter, &mut position, depth);
        let interpreted = Measure {
            nodes,
            seconds: started.elapsed().as_secs_f64(),
        };
        eprintln!(
            "bench: {} {} depth {depth}: compiled engine",
            case.variant, case.label
        );
        let compiled = vdl::bench::engine(&engine_path, &case);
        let reference = if case.fairy_stockfish {
            eprintln!(
                "bench: {} {} depth {depth}: Fairy-Stockfish",
                case.variant, case.label
            );
            vdl::bench::fairy_stockfish(&fsf, &case)
        } else {
            Err("not a Fairy-Stockfish variant".to_string())
        };
        let rate = |m: &Result<Measure, String>| {
            m.as_ref()
                .map(|m| format!("{:.0}", m.rate()))
                .unwrap_or_else(|e| format!("({e})"))
        };
        let ratio = |a: &Result<Measure, String>, b: f64| match a {
            Ok(m) if b.is_finite() => format!("{:.2}", m.rate() / b),
            _ => "-".into(),
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
        let interpreter_over_fsf = if fsf_rate.is_finite() {
            format!("{:.2}", interpreted.rate() / fsf_rate)
        } else {
            "-".to_string()
        };
        outln!(
            "| {} | {} | {depth} | {nodes} | {:.0} | {} | {} | {} | {} | {interpreter_over_fsf} | {shakmaty} | {shakmaty_ratio} |",
            case.variant,
            case.label,
            interpreted.rate(),
            rate(&compiled),
            ratio(&compiled, interpreted.rate()),
            if case.fairy_stockfish { rate(&reference) } else { "-".to_string() },
            ratio(&compiled, fsf_rate),
        );
    }
    ExitCode::SUCCESS
}

/// Parses the options shared by `show` and `play`; returns the interpreter and the remaining flags.
fn game_with_setup(path: &str, setups: &[String]) -> Result<vdl_runtime::Interpreter, ExitCode> {
    let game = load_game(path)?;
    let options = vdl_runtime::Interpreter::resolve_options(&game, setups).map_err(|e| {
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
    let mut pgn = None;
    let mut game = 0;
    let mut setups = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--fen" => fen = value,
            "--moves" => moves = value,
            "--pgn" => pgn = value,
            "--game" => match vdl_runtime::cli::game_number(value.as_deref().unwrap_or_default()) {
                Ok(n) => game = n,
                Err(message) => return usage_error(&message),
            },
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
        return usage_error(
            "usage: vdl show FILE [--fen FEN | --pgn FILE [--game N]] [--moves \"...\"]",
        );
    };
    let interpreter = match game_with_setup(&path, &setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let options = vdl_runtime::cli::PerftOptions {
        fen,
        moves,
        pgn,
        game,
        ..Default::default()
    };
    if let Err(message) = vdl_runtime::cli::check_start_choice(&options) {
        return usage_error(&message);
    }
    if let Err(code) = readable(options.pgn.as_deref()) {
        return code;
    }
    let position = match vdl_runtime::cli::perft_position(&interpreter, &options) {
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
    let (rest, random) = match vdl_runtime::cli::parse_random_args(args) {
        Ok(parsed) => parsed,
        Err(message) => return usage_error(&message),
    };
    let mut path = None;
    let mut seats: Vec<String> = vec!["human".into(), "engine".into()];
    let mut depth: u32 = 4;
    let mut engine_kind = "interpreter".to_string();
    let pgn = random.pgn.clone();
    if pgn.as_deref() == Some("") {
        return usage_error("--pgn needs a file");
    }
    let mut i = 0;
    while i < rest.len() {
        let value = rest.get(i + 1).cloned().unwrap_or_default();
        match rest[i].as_str() {
            "--seats" => seats = value.split(',').map(str::to_string).collect(),
            "--depth" => match value.parse() {
                Ok(d) => depth = d,
                Err(_) => return usage_error(&format!("depth `{value}` is not a number")),
            },
            "--engine" => match value.as_str() {
                "interpreter" | "compiled" => engine_kind = value,
                _ => return usage_error("--engine takes `interpreter` or `compiled`"),
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
        return usage_error("usage: vdl play FILE [--random GAMES [--seed S] [--max-plies N] [--engine interpreter|compiled]] [--seats human,engine,...] [--depth N] [--pgn FILE] [--setup NAME=VALUE]");
    };
    if !args.iter().any(|a| a == "--random") {
        return play_interactive(&path, &random.setups, &seats, depth, pgn.as_deref());
    }
    if engine_kind == "compiled" {
        return random_games_compiled(&path, &random);
    }
    let interpreter = match game_with_setup(&path, &random.setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let info = vdl_runtime::protocol::GameInfo::of(&interpreter);
    let players = info.players.len();
    let mut random = random;
    // By default a game may last 1000 turns (of one or several single moves); with more than two
    // players, 1000 rounds of turns.
    let rounds = if players > 2 { players } else { 1 };
    random
        .max_plies
        .get_or_insert(1000 * rounds * interpreter.game.turn.moves.max(1) as usize);
    let side = |position: &vdl_runtime::interp::Position| position.side;
    match vdl_runtime::cli::play_random_games(&interpreter, &random, &info, &side) {
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `vdl play FILE --random N --engine compiled`: builds the game's engine, then lets it play.
fn random_games_compiled(path: &str, random: &vdl_runtime::cli::RandomOptions) -> ExitCode {
    let engine = match build_engine(path, &vdl::build::cache::Cache::for_user(), false) {
        Ok((engine, _)) => engine,
        Err(code) => return code,
    };
    let mut command = std::process::Command::new(&engine);
    command.args([
        "random".to_string(),
        random.games.to_string(),
        "--seed".into(),
        random.seed.to_string(),
    ]);
    if let Some(plies) = random.max_plies {
        command.args(["--max-plies".to_string(), plies.to_string()]);
    }
    if let Some(pgn) = &random.pgn {
        command.args(["--pgn", pgn]);
    }
    for setup in &random.setups {
        command.args(["--setup", setup]);
    }
    match command.status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: cannot run {}: {e}", engine.display());
            ExitCode::from(2)
        }
    }
}

/// A person plays against the engine (or several people, or engines) in the terminal.
fn play_interactive(
    path: &str,
    setups: &[String],
    seats: &[String],
    depth: u32,
    pgn: Option<&str>,
) -> ExitCode {
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
    let engine = vdl_runtime::protocol::Engine::from_interpreter(interpreter)
        .with_file_name(&file_stem(path));
    // The file is made before the game, so a path that cannot be written is known before anyone plays.
    let mut pgn_file = match pgn.map(std::fs::File::create).transpose() {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", pgn.unwrap_or_default());
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let played = match play_terminal(&engine, &parsed, stdin.lock(), std::io::stdout()) {
        Ok(played) => played,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (Some(pgn), Some(file)) = (pgn, pgn_file.as_mut()) else {
        return ExitCode::SUCCESS;
    };
    use vdl_runtime::Variant;
    let labels: Vec<String> = parsed
        .iter()
        .map(|seat| match seat {
            Seat::Human => "human".to_string(),
            Seat::Engine(_) => format!("vdl {} (depth {depth})", engine.info.title),
        })
        .collect();
    let start = engine.variant.write_position(&engine.variant.start());
    let record = vdl_runtime::pgn::record(
        &engine.info,
        &start,
        &played.start,
        "vdl play",
        1,
        &labels,
        played.moves,
        played.result.as_ref(),
    );
    match file.write_all(vdl_runtime::pgn::write(&record).as_bytes()) {
        Ok(()) => {
            eprintln!("the game is saved in {pgn}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write `{pgn}`: {e}");
            ExitCode::from(2)
        }
    }
}

/// `vdl engine FILE [xboard|uci|line] [--setup NAME=VALUE]`: the interpreted engine over a protocol.
fn engine_command(args: &[String]) -> ExitCode {
    let mut path = None;
    let mut mode = None;
    let mut setups = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--setup" => match args.get(i + 1) {
                Some(value) => {
                    setups.push(value.clone());
                    i += 1;
                }
                None => return usage_error("--setup needs NAME=VALUE or a value"),
            },
            "xboard" | "uci" | "usi" | "line" if path.is_some() && mode.is_none() => {
                mode = Some(args[i].clone());
            }
            other if !other.starts_with("--") && path.is_none() => path = Some(other.to_string()),
            other => return usage_error(&format!("unexpected `{other}`")),
        }
        i += 1;
    }
    let Some(path) = path else {
        return usage_error("usage: vdl engine FILE [xboard|uci|usi|line] [--setup NAME=VALUE]");
    };
    let interpreter = match game_with_setup(&path, &setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let engine = vdl_runtime::protocol::Engine::from_interpreter(interpreter)
        .with_file_name(&file_stem(&path));
    let input = std::io::BufReader::new(std::io::stdin());
    let output = std::io::stdout();
    let result = match mode.as_deref() {
        Some("xboard") => vdl_runtime::protocol::xboard::run(&engine, input, output),
        Some("uci") => vdl_runtime::protocol::uci::run(&engine, input, output),
        Some("usi") => vdl_runtime::protocol::uci::run_usi(&engine, input, output),
        Some("line") => vdl_runtime::protocol::line::run(&engine, input, output),
        _ => vdl_runtime::protocol::run(&engine, input, output),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// A rule file's name without its directory and extension (`team-mate-chess`).
fn file_stem(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// One refereed game as PGN: the seats' players, the time control, the variant's tags, the moves in
/// SAN and the result with how the game ended.
fn match_pgn(
    interpreter: &vdl_runtime::Interpreter,
    info: &vdl_runtime::protocol::GameInfo,
    game: usize,
    record: &vdl::referee::GameRecord,
    labels: &[String],
    time_control: &str,
) -> String {
    use vdl_runtime::Variant;
    let mut position = interpreter.start();
    let start = interpreter.write_position(&position);
    let mut moves = Vec::new();
    for text in &record.moves {
        let Ok(mv) = interpreter.parse_move(&mut position, text) else {
            break;
        };
        let side = position.side;
        moves.push((side, vdl_runtime::san::text(interpreter, &mut position, mv)));
        interpreter.make(&mut position, mv);
    }
    let seat_labels: Vec<String> = record.seats.iter().map(|&p| labels[p].clone()).collect();
    let result = vdl_runtime::GameResult {
        winner: record.winner,
        reason: record.reason.clone(),
    };
    let mut pgn = vdl_runtime::pgn::record(
        info,
        &start,
        &start,
        "vdl match",
        game + 1,
        &seat_labels,
        moves,
        Some(&result),
    );
    let after_result = pgn
        .tags
        .iter()
        .position(|(name, _)| name == "Result")
        .map_or(pgn.tags.len(), |i| i + 1);
    pgn.tags.insert(
        after_result,
        ("TimeControl".to_string(), time_control.to_string()),
    );
    vdl_runtime::pgn::write(&pgn)
}

/// Reads `MINUTES+INCREMENT` (`1+0.5`, `0.25+0`) as a base time and an increment in seconds.
fn parse_time_control(text: &str) -> Option<(std::time::Duration, std::time::Duration)> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let base: f64 = base.parse().ok()?;
    let increment: f64 = increment.parse().ok()?;
    if !(base > 0.0 && base.is_finite() && increment >= 0.0 && increment.is_finite()) {
        return None;
    }
    Some((
        std::time::Duration::from_secs_f64(base * 60.0),
        std::time::Duration::from_secs_f64(increment),
    ))
}

/// `vdl match`: plays games between engines, the built-in search and random movers, judged by the
/// interpreter, and prints each result and the score.
fn match_command(args: &[String]) -> ExitCode {
    use vdl::referee::{play_match, scores, MatchConfig, PlayerSpec};
    let mut path = None;
    let mut config = MatchConfig {
        players: Vec::new(),
        games: 2,
        seed: 1,
        opening_plies: 0,
        base: std::time::Duration::from_secs(60),
        increment: std::time::Duration::from_millis(500),
        depth: None,
        move_time: None,
        max_plies: 400,
        variant: None,
        options: Vec::new(),
    };
    let mut setups = Vec::new();
    let mut verbose = false;
    let mut pgn: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let number = |what: &str| -> Result<u64, ExitCode> {
            value
                .parse()
                .map_err(|_| usage_error(&format!("{what} `{value}` is not a number")))
        };
        match args[i].as_str() {
            "--players" => {
                let parsed: Result<Vec<PlayerSpec>, String> =
                    value.split(',').map(PlayerSpec::parse).collect();
                match parsed {
                    Ok(players) => config.players = players,
                    Err(message) => return usage_error(&message),
                }
            }
            "--games" => match number("games") {
                Ok(n) => config.games = n as usize,
                Err(code) => return code,
            },
            "--seed" => match number("seed") {
                Ok(n) => config.seed = n,
                Err(code) => return code,
            },
            "--openings" => match number("opening plies") {
                Ok(n) => config.opening_plies = n as usize,
                Err(code) => return code,
            },
            "--depth" => match number("depth") {
                Ok(n) => config.depth = Some(n as u32),
                Err(code) => return code,
            },
            "--max-plies" => match number("plies") {
                Ok(n) => config.max_plies = n as usize,
                Err(code) => return code,
            },
            "--time" => match parse_time_control(&value) {
                Some((base, increment)) => {
                    config.base = base;
                    config.increment = increment;
                }
                None => {
                    return usage_error(&format!(
                        "time control `{value}` is not MINUTES+SECONDS (`1+0.5`)"
                    ))
                }
            },
            "--move-time" => match value.parse::<f64>() {
                Ok(seconds) if seconds > 0.0 && seconds.is_finite() => {
                    config.move_time = Some(std::time::Duration::from_secs_f64(seconds));
                }
                _ => {
                    return usage_error(&format!(
                        "--move-time `{value}` is not a positive number of seconds"
                    ))
                }
            },
            "--variant" => config.variant = Some(value),
            "--engine-option" => match value.split_once('=') {
                Some((name, v)) => config.options.push((name.to_string(), v.to_string())),
                None => return usage_error("--engine-option takes NAME=VALUE"),
            },
            "--setup" => setups.push(value),
            "--pgn" => pgn = Some(value),
            "--verbose" => {
                verbose = true;
                i += 1;
                continue;
            }
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
        return usage_error(
            "usage: vdl match FILE --players P1,P2,... [--games N] [--time MIN+INC]",
        );
    };
    let interpreter = match game_with_setup(&path, &setups) {
        Ok(i) => i,
        Err(code) => return code,
    };
    // XBoard engines get the options under the names they show (`PairPromotion=0`).
    let info = vdl_runtime::protocol::GameInfo::new(&interpreter.game);
    for (name, value) in interpreter.chosen_options() {
        if let Some(option) = info.options.iter().find(|o| o.name == *name) {
            let sent = if option.is_switch() {
                u8::from(value == "on").to_string()
            } else {
                value.clone()
            };
            config.options.push((option.title.clone(), sent));
        }
    }
    let players: Vec<String> = interpreter
        .game
        .players
        .iter()
        .filter(|p| !p.neutral)
        .map(|p| p.name.clone())
        .collect();
    // Labels name players uniquely: a label given twice gets its position (`random#2`).
    let labels: Vec<String> = config
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let label = p.label();
            if config.players.iter().filter(|q| q.label() == label).count() > 1 {
                format!("{label}#{}", i + 1)
            } else {
                label
            }
        })
        .collect();
    // The PGN file is written afresh and each game appended as it ends, so a long match loses
    // nothing when it is stopped.
    let mut pgn_file = match pgn.as_deref().map(std::fs::File::create).transpose() {
        Ok(file) => file,
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", pgn.unwrap_or_default());
            return ExitCode::from(2);
        }
    };
    let mut pgn_info = info.clone();
    pgn_info.file_name = Some(file_stem(&path));
    // PGN's forms: `BASE+INCREMENT` in seconds, `1/SECONDS` for a fixed time per move.
    let time_control = match config.move_time {
        Some(time) => format!("1/{}", time.as_secs_f64()),
        None => format!(
            "{}+{}",
            config.base.as_secs_f64(),
            config.increment.as_secs_f64()
        ),
    };
    let result = play_match(&interpreter, &config, |game, record| {
        if let Some(file) = pgn_file.as_mut() {
            let text = match_pgn(
                &interpreter,
                &pgn_info,
                game,
                record,
                &labels,
                &time_control,
            );
            if let Err(e) = file.write_all(text.as_bytes()) {
                eprintln!("error: cannot write the PGN file: {e}");
            }
        }
        let seats: Vec<String> = record
            .seats
            .iter()
            .enumerate()
            .map(|(seat, &p)| format!("{}={}", players[seat], labels[p]))
            .collect();
        let outcome = match record.winner {
            Some(seat) => format!("{} ({}) wins", players[seat], labels[record.seats[seat]]),
            None => "draw".to_string(),
        };
        outln!(
            "game {}: {}: {outcome} by {}, {} plies",
            game + 1,
            seats.join(" "),
            record.reason,
            record.moves.len()
        );
        if verbose {
            outln!("  moves: {}", record.moves.join(" "));
        }
    });
    let records = match result {
        Ok(records) => records,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    let points = scores(&records, config.players.len(), &interpreter.game);
    let faults = records.iter().filter(|r| r.fault.is_some()).count();
    let counts = vdl::referee::tallies(&records, config.players.len());
    for ((label, score), [won, drawn, lost]) in labels.iter().zip(&points).zip(&counts) {
        outln!(
            "{label}: {score} / {} (won {won}, drawn {drawn}, lost {lost})",
            records.len()
        );
    }
    outln!("{} games, {faults} ended by a fault", records.len());
    ExitCode::SUCCESS
}
