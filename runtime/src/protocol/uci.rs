//! UCI, the Universal Chess Interface, for two-player games (a game with more players is searched
//! paranoid, its clocks read as `wtime` for every player but the second).
//!
//! Supported: `uci` (with the option `UCI_Variant`, a combo holding the game's name), `isready`,
//! `setoption`, `ucinewgame`, `position startpos|fen FEN [moves ...]`, `go` with `depth`, `nodes`,
//! `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo`, `mate` and `infinite`, `stop`, `ponderhit`,
//! `debug` and `quit`. The engine answers `bestmove M` (`bestmove (none)` when the game is over) after
//! `info depth D score cp|mate X nodes N time T nps S pv ...` lines. Malformed input gets
//! `info string error: ...`.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use super::driver::{self, Handler, Interrupt, Request, Step};
use super::{parse_count, play_all, Engine};
use crate::search::{self, mate_plies, Evaluator, Iteration, Limits, SearchResult, MAX_DEPTH};
use crate::variant::Variant;

/// Moves left to the time control when the GUI does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// The `option name ...` line of one of the game's options: a switch is a check box, a listed set of
/// values a combo box, anything else a string.
fn option_line(option: &super::OptionInfo) -> String {
    if option.is_switch() {
        format!(
            "option name {} type check default {}",
            option.title,
            option.default == "on"
        )
    } else if option.is_listed() {
        let vars: Vec<String> = option.values.iter().map(|v| format!("var {v}")).collect();
        format!(
            "option name {} type combo default {} {}",
            option.title,
            option.default,
            vars.join(" ")
        )
    } else {
        format!(
            "option name {} type string default {}",
            option.title, option.default
        )
    }
}

/// Runs a UCI session until `quit` or the end of input.
///
/// # Errors
///
/// Returns an error when writing fails.
pub fn run<V, E, R, W>(engine: &Engine<V, E>, input: R, output: W) -> io::Result<()>
where
    V: Variant + Clone + Send + Sync,
    V::Position: Send,
    V::Move: Send + 'static,
    E: Evaluator<V> + Clone + Send + Sync,
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut handler = Uci {
        engine: Arc::new(engine.clone()),
        position: engine.variant.start(),
        new_game: true,
    };
    driver::drive(input, output, &mut handler)
}

struct Uci<V: Variant, E> {
    engine: Arc<Engine<V, E>>,
    position: V::Position,
    /// Whether the next search starts a new game (forgets the table).
    new_game: bool,
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Handler<V, E> for Uci<V, E> {
    fn engine(&self) -> Arc<Engine<V, E>> {
        Arc::clone(&self.engine)
    }

    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Step<V>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            return Ok(Step::Continue);
        };
        match command {
            "uci" => {
                let info = &self.engine.info;
                writeln!(out, "id name vdl {}", info.title)?;
                writeln!(out, "id author the vdl authors")?;
                writeln!(
                    out,
                    "option name UCI_Variant type combo default {0} var {0}",
                    info.name
                )?;
                for option in &info.options {
                    writeln!(out, "{}", option_line(option))?;
                }
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "debug" | "ponderhit" | "stop" | "register" => {}
            "setoption" => self.set_option(arguments, out)?,
            "ucinewgame" => {
                self.position = self.engine.variant.start();
                self.new_game = true;
            }
            "position" => match self.read_position(arguments) {
                Ok(position) => self.position = position,
                Err(message) => error(out, &message)?,
            },
            "go" => return Ok(Step::Search(self.go(arguments, out)?)),
            "quit" => return Ok(Step::Quit),
            _ => error(out, &format!("unknown command `{command}`"))?,
        }
        Ok(Step::Continue)
    }

    fn interrupt(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Interrupt> {
        Ok(match line.split_whitespace().next() {
            None | Some("ponderhit" | "debug") => Interrupt::Handled,
            Some("isready") => {
                writeln!(out, "readyok")?;
                Interrupt::Handled
            }
            Some("stop" | "quit") => Interrupt::Stop,
            Some(_) => Interrupt::Later,
        })
    }

    fn finished(&mut self, result: SearchResult<V::Move>, out: &mut dyn Write) -> io::Result<()> {
        match result.best {
            Some(mv) => writeln!(
                out,
                "bestmove {}",
                self.engine.variant.write_protocol_move(&self.position, mv)
            ),
            None => writeln!(out, "bestmove (none)"),
        }
    }
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Uci<V, E> {
    /// `setoption name NAME [value VALUE]`: only `UCI_Variant`, set to this game's name, is accepted.
    fn set_option(&mut self, arguments: &[&str], out: &mut dyn Write) -> io::Result<()> {
        let value_at = arguments.iter().position(|w| *w == "value");
        let name = arguments
            .get(1..value_at.unwrap_or(arguments.len()))
            .map(|words| words.join(" "))
            .unwrap_or_default();
        let value = value_at
            .map(|i| arguments[i + 1..].join(" "))
            .unwrap_or_default();
        if arguments.first() != Some(&"name") || name.is_empty() {
            return error(out, "expected `setoption name NAME [value VALUE]`");
        }
        if !name.eq_ignore_ascii_case("UCI_Variant") {
            return match super::with_option(&self.engine, &name, &value) {
                Ok(engine) => {
                    self.engine = Arc::new(engine);
                    self.position = self.engine.variant.start();
                    self.new_game = true;
                    Ok(())
                }
                Err(message) => error(out, &message),
            };
        }
        if !self.engine.info.answers_to(&value) {
            return error(
                out,
                &format!(
                    "unknown variant `{value}` (this engine plays `{}`)",
                    self.engine.info.name
                ),
            );
        }
        Ok(())
    }

    /// `position startpos|fen FEN [moves M1 M2 ...]`; on error the position stays as it was.
    fn read_position(&self, arguments: &[&str]) -> Result<V::Position, String> {
        let variant = &self.engine.variant;
        let (setup, moves) = match arguments.iter().position(|w| *w == "moves") {
            Some(at) => (&arguments[..at], &arguments[at + 1..]),
            None => (arguments, &[][..]),
        };
        let position = match setup {
            ["startpos"] => variant.start(),
            ["fen", fen @ ..] if !fen.is_empty() => variant
                .parse_position(&fen.join(" "))
                .map_err(|e| format!("bad FEN: {e}"))?,
            _ => return Err("expected `position startpos|fen FEN [moves M1 M2 ...]`".into()),
        };
        play_all(variant, &position, moves)
            .map(|(position, _)| position)
            .map_err(|text| format!("illegal move `{text}`"))
    }

    /// Reads the limits of `go`. A bad parameter gets an error and is skipped: `go` always searches, so
    /// a GUI waiting for `bestmove` gets one.
    fn go(&mut self, arguments: &[&str], out: &mut dyn Write) -> io::Result<Request<V>> {
        let mut limits = Limits::default();
        let mut infinite = false;
        // Clock of each side: remaining time and increment, in milliseconds.
        let (mut time, mut increment) = ([None; 2], [0u64; 2]);
        let mut moves_to_go = None;
        let mut words = arguments.iter();
        while let Some(&word) = words.next() {
            if matches!(word, "infinite" | "ponder") {
                infinite = true;
                continue;
            }
            let known = [
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "mate",
            ];
            if !known.contains(&word) {
                error(out, &format!("unknown go parameter `{word}`"))?;
                continue;
            }
            let number = match words.next().map(|text| parse_count(text)) {
                Some(Ok(number)) => number,
                Some(Err(message)) => {
                    error(out, &format!("go {word}: {message}"))?;
                    continue;
                }
                None => {
                    error(out, &format!("go {word} needs a number"))?;
                    continue;
                }
            };
            match word {
                "depth" => limits.depth = Some(number.min(u64::from(MAX_DEPTH)) as u32),
                "mate" => {
                    limits.depth = Some(number.saturating_mul(2).min(u64::from(MAX_DEPTH)) as u32)
                }
                "nodes" => limits.nodes = Some(number),
                "movetime" => limits.time = Some(Duration::from_millis(number)),
                "wtime" => time[0] = Some(number),
                "btime" => time[1] = Some(number),
                "winc" => increment[0] = number,
                "binc" => increment[1] = number,
                _ => moves_to_go = Some(number.max(1)),
            }
        }
        let side = usize::from(self.engine.evaluator.side_to_move(&self.position) == 1);
        if limits.time.is_none() {
            if let Some(remaining) = time[side] {
                limits.time = Some(budget(remaining, increment[side], moves_to_go));
            }
        }
        if infinite {
            limits = Limits::default();
        }
        Ok(Request {
            position: self.position.clone(),
            limits,
            new_game: std::mem::take(&mut self.new_game),
            report: Some(info_line::<V>),
        })
    }
}

/// The time for one move: an even share of the clock plus most of the increment, never more than half
/// of what is left.
fn budget(remaining: u64, increment: u64, moves_to_go: Option<u64>) -> Duration {
    let share = remaining / moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO);
    let planned = share.saturating_add(increment / 4 * 3);
    Duration::from_millis(planned.min(remaining / 2).max(1))
}

/// `info depth D score cp X nodes N time T nps S pv M1 M2 ...`.
fn info_line<V: Variant>(
    variant: &V,
    position: &V::Position,
    iteration: &Iteration<'_, V::Move>,
) -> String {
    let score = match mate_plies(iteration.score) {
        // UCI counts mates in moves, not plies: negative when the engine is getting mated.
        Some(plies) => format!("mate {}", plies.signum() * ((plies.abs() + 1) / 2)),
        None => format!("cp {}", iteration.score),
    };
    let millis = iteration.elapsed.as_millis().max(1) as u64;
    format!(
        "info depth {} score {score} nodes {} time {} nps {} pv {}",
        iteration.depth,
        iteration.nodes,
        iteration.elapsed.as_millis(),
        iteration.nodes.saturating_mul(1000) / millis,
        search::protocol_line_text(variant, position, iteration.pv).join(" ")
    )
}

/// `info string error: MESSAGE`.
fn error(out: &mut dyn Write, message: &str) -> io::Result<()> {
    writeln!(out, "info string error: {message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_shares_the_clock() {
        assert_eq!(budget(60_000, 0, None), Duration::from_millis(2_000));
        assert_eq!(
            budget(60_000, 1_000, Some(10)),
            Duration::from_millis(6_750)
        );
        assert_eq!(budget(100, 10_000, None), Duration::from_millis(50));
        assert_eq!(budget(0, 0, None), Duration::from_millis(1));
        assert_eq!(
            budget(u64::MAX, u64::MAX, Some(1)),
            Duration::from_millis(u64::MAX / 2)
        );
    }
}
