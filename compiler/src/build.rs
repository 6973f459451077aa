//! Engine crates: the generated module plus a `main` that answers `ENGINE perft ...`, depending on the
//! vdl runtime by path, built offline in release mode; [`cache`] keeps them, one per distinct build.

pub mod cache;

use std::path::{Path, PathBuf};
use std::process::Command;

use vdl_dsl::check::check_source;

/// Checks, lowers and emits a rule file.
///
/// # Errors
///
/// Returns the checker's problems (as rendered text is the caller's business) or an emission error.
pub fn generate(source_path: &str, source: &str) -> Result<String, GenerateError> {
    let checked = check_source(source);
    let Some(game) = checked.game else {
        return Err(GenerateError::Check(checked.problems));
    };
    let ir = crate::lower::lower(&game, source_path, source);
    crate::emit::emit(&ir).map_err(GenerateError::Emit)
}

/// Why generation failed.
#[derive(Debug)]
pub enum GenerateError {
    /// The rule file has errors.
    Check(Vec<vdl_dsl::Error>),
    /// The generated code does not parse (a compiler bug).
    Emit(String),
}

/// For build scripts: generates the code of a rule file into `OUT_DIR/<name>.rs`, to be used with
/// `include!(concat!(env!("OUT_DIR"), "/<name>.rs"))` inside a module (the code refers to the crates
/// `vdl_runtime` and `vdl_dsl`, which the including crate must depend on).
///
/// # Errors
///
/// Returns a message when the file cannot be read or written, or does not check.
pub fn generate_to_out_dir(rule_file: &Path, name: &str) -> Result<PathBuf, String> {
    let out_dir =
        std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set: call this from a build script")?;
    let source = std::fs::read_to_string(rule_file)
        .map_err(|e| format!("cannot read {}: {e}", rule_file.display()))?;
    let code = match generate(&rule_file.display().to_string(), &source) {
        Ok(code) => code,
        Err(GenerateError::Check(problems)) => {
            let codes: Vec<&str> = problems
                .iter()
                .filter(|p| !p.is_warning())
                .map(|p| p.code())
                .collect();
            return Err(format!(
                "{} does not check: {}",
                rule_file.display(),
                codes.join(", ")
            ));
        }
        Err(GenerateError::Emit(message)) => return Err(message),
    };
    let path = Path::new(&out_dir).join(format!("{name}.rs"));
    std::fs::write(&path, code).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The crates generated engines depend on, found next to this crate's sources.
pub fn workspace_crate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name)
}

/// A package name Cargo accepts, from a game name.
fn package_name(game: &str) -> String {
    let cleaned: String = game
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("vdl-engine-{}", cleaned.trim_matches('-'))
}

/// Writes an engine crate named `package` for generated code into `dir`, with the workspace's
/// `Cargo.lock`, so that it builds offline against the dependency versions vdl itself was tested with.
///
/// The release profile has one codegen unit, and link-time optimisation only with `lto`: thin LTO
/// re-optimises the whole runtime for every engine (about 25 s of the 30 to 45 s an engine took on
/// two cores) for 10% of perft speed on chess and none measurable on xiangqi or the hook-form games
/// (docs/performance.md).
///
/// # Errors
///
/// Returns the IO error.
pub fn write_crate(dir: &Path, package: &str, generated: &str, lto: bool) -> std::io::Result<()> {
    std::fs::create_dir_all(dir.join("src"))?;
    let runtime = workspace_crate("runtime").canonicalize()?;
    let dsl = workspace_crate("dsl").canonicalize()?;
    let lto = if lto { "lto = \"thin\"\n" } else { "" };
    let manifest = format!(
        "[package]\nname = \"{package}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nvdl-runtime = {{ path = {:?} }}\nvdl-dsl = {{ path = {:?} }}\n\n\
         [profile.release]\ncodegen-units = 1\n{lto}\n[workspace]\n",
        runtime.display().to_string(),
        dsl.display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest)?;
    let lock = workspace_crate("Cargo.lock");
    if lock.is_file() && !dir.join("Cargo.lock").is_file() {
        std::fs::copy(lock, dir.join("Cargo.lock"))?;
    }
    std::fs::write(dir.join("src/generated.rs"), generated)?;
    std::fs::write(dir.join("src/main.rs"), ENGINE_MAIN)?;
    Ok(())
}

/// Compiles an engine crate offline in release mode in `target_dir`, Cargo printing its progress on
/// the standard error, and returns the path of the binary.
///
/// # Errors
///
/// Returns a message when Cargo cannot be run or the build fails.
pub fn compile_crate(dir: &Path, package: &str, target_dir: &Path) -> Result<PathBuf, String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--offline", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo build of the engine crate in {} failed",
            dir.display()
        ));
    }
    Ok(target_dir
        .join("release")
        .join(format!("{package}{}", std::env::consts::EXE_SUFFIX)))
}

/// The engine's `main`: the shared perft command over the compiled game.
const ENGINE_MAIN: &str = r#"//! A vdl engine compiled for one game.

#[allow(unused, clippy::all)]
mod generated;

use std::io::{BufReader, IsTerminal};
use std::process::ExitCode;

const USAGE: &str = "usage: ENGINE [help | xboard | uci | usi | line | play [human|engine,...] | perft DEPTH [--fen FEN] [--moves \"M1 M2 ...\"] [--divide] [--setup NAME=VALUE] | random GAMES [--seed S] [--max-plies N] [--setup NAME=VALUE] [--pgn FILE]]
  with no argument, the protocol is chosen from the first line read (`xboard`, `uci`, else the line protocol)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if matches!(args.first().map(String::as_str), Some("help" | "--help" | "-h")) {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let mut engine = match generated::engine() {
        Ok(engine) => engine,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
    };
    let mode = args.first().map(String::as_str).unwrap_or("");
    if mode == "perft" {
        let options = match vdl_runtime::cli::parse_perft_args(&args[1..], 0) {
            Ok((_, options)) => options,
            Err(message) => {
                eprintln!("error: {message}\n{USAGE}");
                return ExitCode::from(2);
            }
        };
        return match generated::perft(&options, &mut std::io::stdout(), std::io::stderr().is_terminal()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(1)
            }
        };
    }
    if mode == "random" {
        let mut arguments = vec!["--random".to_string()];
        arguments.extend(args[1..].iter().cloned());
        let options = match vdl_runtime::cli::parse_random_args(&arguments) {
            Ok((rest, options)) if rest.is_empty() => options,
            Ok((rest, _)) => {
                eprintln!("error: unexpected `{}`\n{USAGE}", rest.join(" "));
                return ExitCode::from(2);
            }
            Err(message) => {
                eprintln!("error: {message}\n{USAGE}");
                return ExitCode::from(2);
            }
        };
        if let Err(message) = vdl_runtime::Variant::set_options(&mut engine, &options.setups) {
            eprintln!("error: {message}");
            return ExitCode::from(1);
        }
        let mut options = options;
        options.max_plies.get_or_insert(1000 * engine.game.turn.moves.max(1) as usize);
        let info = vdl_runtime::protocol::GameInfo::of(&engine);
        let side = |position: &vdl_runtime::interp::Position| position.side;
        return match vdl_runtime::cli::play_random_games(&engine, &options, &info, &side) {
            Ok(_) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        };
    }
    // The protocols and the engine's search in terminal play run on the fastest engine of the game.
    let result = if mode == "play" {
        use vdl_runtime::play::Seat;
        let seats: Vec<Seat> = args
            .get(1)
            .map(String::as_str)
            .unwrap_or("human,engine")
            .split(',')
            .map(|s| if s == "engine" { Seat::Engine(vdl_runtime::search::Limits::depth(4)) } else { Seat::Human })
            .collect();
        let input = BufReader::new(std::io::stdin());
        match generated::play(&seats, &[], input, std::io::stdout()) {
            Ok(played) => played.map(|_| ()),
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(1);
            }
        }
    } else {
        match generated::serve(mode, BufReader::new(std::io::stdin()), std::io::stdout()) {
            Ok(Some(result)) => result,
            Ok(None) => {
                eprintln!("error: unknown command `{mode}`\n{USAGE}");
                return ExitCode::from(2);
            }
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(1);
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
"#;
