//! The perft command shared by `vdl perft` and every compiled engine (`ENGINE perft ...`), so both print
//! exactly the same output: per-move counts with `--divide`, then `nodes N` as the last line on stdout;
//! time and nodes per second on stderr, and root-move progress when stderr is a terminal.

use std::io::Write;

use crate::variant::Variant;

/// The options of a perft run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftOptions {
    /// The depth in plies.
    pub depth: u32,
    /// The position to start from, instead of the start position.
    pub fen: Option<String>,
    /// Moves played first, separated by spaces.
    pub moves: Option<String>,
    /// Whether to print the count of each root move.
    pub divide: bool,
}

/// Reads `DEPTH [--fen FEN] [--moves "..."] [--divide]` plus any other positional arguments, which are
/// returned in order before the depth (`vdl perft` has the rule file there).
///
/// # Errors
///
/// Returns a usage message.
pub fn parse_perft_args(
    args: &[String],
    leading: usize,
) -> Result<(Vec<String>, PerftOptions), String> {
    let mut positional = Vec::new();
    let mut options = PerftOptions::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                i += 1;
                options.fen = Some(args.get(i).ok_or("--fen needs a position")?.clone());
            }
            "--moves" => {
                i += 1;
                options.moves = Some(args.get(i).ok_or("--moves needs a list of moves")?.clone());
            }
            "--divide" => options.divide = true,
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            other => positional.push(other.to_string()),
        }
        i += 1;
    }
    if positional.len() != leading + 1 {
        return Err("expected DEPTH [--fen FEN] [--moves \"M1 M2 ...\"] [--divide]".into());
    }
    let depth_text = positional.pop().unwrap_or_default();
    options.depth = depth_text
        .parse()
        .map_err(|_| format!("depth `{depth_text}` is not a number"))?;
    Ok((positional, options))
}

/// The position given by a FEN (or the start), with moves played from it.
///
/// # Errors
///
/// Returns a message naming a bad FEN or an illegal move.
pub fn position_from<V: Variant>(
    variant: &V,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<V::Position, String> {
    let mut position = match fen {
        Some(text) => variant
            .parse_position(text)
            .map_err(|e| format!("bad FEN: {e}"))?,
        None => variant.start(),
    };
    for text in moves.iter().flat_map(|m| m.split_whitespace()) {
        let mv = variant
            .parse_move(&mut position, text)
            .map_err(|e| e.to_string())?;
        variant.make(&mut position, mv);
    }
    Ok(position)
}

/// Runs perft and prints the result.
///
/// # Errors
///
/// Returns a message naming a bad FEN or an illegal move.
pub fn run_perft<V: Variant>(
    variant: &V,
    options: &PerftOptions,
    out: &mut dyn Write,
    progress: bool,
) -> Result<u64, String> {
    let mut position = position_from(variant, options.fen.as_deref(), options.moves.as_deref())?;
    let started = std::time::Instant::now();
    let nodes = if options.depth == 0 {
        1
    } else {
        let mut results =
            crate::perft::divide(variant, &mut position, options.depth, |done, total| {
                if progress {
                    eprint!("\r{done}/{total} root moves");
                }
            });
        if progress {
            eprint!("\r");
        }
        if options.divide {
            // Root moves in ASCII order of their text, so that lists from different generators compare
            // line by line.
            results.sort();
            for (text, count) in &results {
                let _ = writeln!(out, "{text}: {count}");
            }
        }
        results.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{seconds:.3} s, {:.0} nodes/s",
        nodes as f64 / seconds.max(1e-9)
    );
    let _ = writeln!(out, "nodes {nodes}");
    Ok(nodes)
}
