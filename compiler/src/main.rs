//! The `vdl` command: check rule files and explain their pieces.
//!
//! Exit codes: 0 success, 1 errors in a rule file, 2 usage or I/O errors.

use std::io::IsTerminal;
use std::process::ExitCode;

use vdl::{explain, report};
use vdl_dsl::check::check_source;

const USAGE: &str = "\
vdl: a declarative language for chess variants

Usage:
  vdl check FILE... [--format text|json]   validate rule files; diagnostics on stderr (json on stdout)
  vdl explain FILE [PIECE]                 draw each piece's moves on an empty board
  vdl help                                 this text

Exit status: 0 no errors, 1 errors in a rule file, 2 usage or I/O error.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") => check(&args[1..]),
        Some("explain") => explain_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            println!("vdl {}", env!("CARGO_PKG_VERSION"));
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
        println!("[{}]", items.join(","));
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
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}
