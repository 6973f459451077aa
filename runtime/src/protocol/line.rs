//! vdl's line protocol, for games of any number of players: one command per line, one reply per
//! command (docs/protocols.md). Errors are replied as `error MESSAGE`; the session goes on.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use super::driver::{self, Handler, Interrupt, Request, Step};
use super::{parse_count, play_all, Engine};
use crate::search::{self, mate_plies, Evaluator, Limits, SearchResult, MAX_DEPTH};
use crate::variant::Variant;

/// How long `go` searches when given no limit.
const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// The commands, as `help` lists them.
const COMMANDS: &str = "game position fen turn moves play undo go stop result isready help quit";

/// Runs a line-protocol session until `quit` or the end of input.
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
    let mut handler = Lines {
        engine: Arc::new(engine.clone()),
        position: engine.variant.start(),
        history: Vec::new(),
        new_game: true,
    };
    driver::drive(input, output, &mut handler)
}

struct Lines<V: Variant, E> {
    engine: Arc<Engine<V, E>>,
    position: V::Position,
    /// The moves played since the position was set, to take back.
    history: Vec<(V::Move, V::Undo)>,
    new_game: bool,
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Handler<V, E> for Lines<V, E> {
    fn engine(&self) -> Arc<Engine<V, E>> {
        Arc::clone(&self.engine)
    }

    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Step<V>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            return Ok(Step::Continue);
        };
        let info = &self.engine.info;
        match command {
            "game" => writeln!(out, "game {} players {}", info.name, info.players.join(" "))?,
            "position" => self.set_position(arguments, out)?,
            "fen" => writeln!(
                out,
                "fen {}",
                self.engine.variant.write_position(&self.position)
            )?,
            "turn" => {
                let side = self.engine.evaluator.side_to_move(&self.position);
                writeln!(out, "turn {}", info.player_name(side))?;
            }
            "moves" => {
                let variant = &self.engine.variant;
                let mut moves = Vec::new();
                variant.legal_moves(&mut self.position, &mut moves);
                let mut texts: Vec<String> = moves
                    .iter()
                    .map(|&mv| variant.write_move(&self.position, mv))
                    .collect();
                texts.sort();
                writeln!(
                    out,
                    "{}",
                    ["moves".to_string()]
                        .into_iter()
                        .chain(texts)
                        .collect::<Vec<_>>()
                        .join(" ")
                )?;
            }
            "play" if arguments.is_empty() => writeln!(out, "error play needs moves")?,
            "play" => match play_all(&self.engine.variant, &self.position, arguments) {
                Ok((position, played)) => {
                    self.position = position;
                    self.history.extend(played);
                    writeln!(out, "ok")?;
                }
                Err(text) => writeln!(out, "error illegal move: {text}")?,
            },
            "undo" => self.undo(arguments, out)?,
            "go" => match read_limits(arguments) {
                Ok(limits) => {
                    return Ok(Step::Search(Request::new(
                        self.position.clone(),
                        limits,
                        std::mem::take(&mut self.new_game),
                    )));
                }
                Err(message) => writeln!(out, "error {message}")?,
            },
            "stop" => {}
            "result" => match self.engine.variant.outcome(&mut self.position) {
                None => writeln!(out, "result none")?,
                Some(result) => match result.winner {
                    Some(winner) => writeln!(
                        out,
                        "result win {} {}",
                        info.player_name(winner),
                        result.reason
                    )?,
                    None => writeln!(out, "result draw {}", result.reason)?,
                },
            },
            "isready" => writeln!(out, "readyok")?,
            "help" => writeln!(out, "commands {COMMANDS}")?,
            "quit" => return Ok(Step::Quit),
            _ => writeln!(out, "error unknown command: {command}")?,
        }
        Ok(Step::Continue)
    }

    fn interrupt(&mut self, line: &str, _out: &mut dyn Write) -> io::Result<Interrupt> {
        Ok(match line.split_whitespace().next() {
            None => Interrupt::Handled,
            Some("stop" | "quit") => Interrupt::Stop,
            Some(_) => Interrupt::Later,
        })
    }

    fn finished(&mut self, result: SearchResult<V::Move>, out: &mut dyn Write) -> io::Result<()> {
        // Commands that change the position wait for the search: this is still its root.
        let root = &self.position;
        let Some(best) = result.best else {
            return writeln!(out, "bestmove none");
        };
        let score = match mate_plies(result.score) {
            Some(plies) => format!("mate {plies}"),
            None => format!("cp {}", result.score),
        };
        let variant = &self.engine.variant;
        writeln!(
            out,
            "bestmove {} score {score} depth {} nodes {} pv {}",
            variant.write_move(root, best),
            result.depth,
            result.nodes,
            search::line_text(variant, root, &result.pv).join(" ")
        )
    }
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Lines<V, E> {
    /// `position start | FEN [moves M1 M2 ...]`; on error the position stays as it was.
    fn set_position(&mut self, arguments: &[&str], out: &mut dyn Write) -> io::Result<()> {
        let variant = &self.engine.variant;
        let (setup, moves) = match arguments.iter().position(|w| *w == "moves") {
            Some(at) => (&arguments[..at], &arguments[at + 1..]),
            None => (arguments, &[][..]),
        };
        let position = match setup {
            [] => return writeln!(out, "error position needs `start` or a FEN"),
            ["start" | "startpos"] => variant.start(),
            fen => match variant.parse_position(&fen.join(" ")) {
                Ok(position) => position,
                Err(e) => return writeln!(out, "error bad position: {e}"),
            },
        };
        match play_all(variant, &position, moves) {
            Ok((position, played)) => {
                self.position = position;
                self.history = played;
                writeln!(out, "ok")
            }
            Err(text) => writeln!(out, "error illegal move: {text}"),
        }
    }

    /// `undo [N]`: takes back N moves (1 by default), all or none.
    fn undo(&mut self, arguments: &[&str], out: &mut dyn Write) -> io::Result<()> {
        let count = match arguments {
            [] => 1,
            [text] => match parse_count(text) {
                Ok(count) => count,
                Err(message) => return writeln!(out, "error {message}"),
            },
            _ => return writeln!(out, "error undo takes at most one number"),
        };
        if count > self.history.len() as u64 {
            return writeln!(out, "error only {} moves to undo", self.history.len());
        }
        for _ in 0..count {
            if let Some((mv, undo)) = self.history.pop() {
                self.engine.variant.unmake(&mut self.position, mv, undo);
            }
        }
        writeln!(out, "ok")
    }
}

/// Reads `[depth N] [nodes N] [time MS]`, or `infinite`; without any, the search takes a second.
fn read_limits(arguments: &[&str]) -> Result<Limits, String> {
    if arguments == ["infinite"] {
        return Ok(Limits::default());
    }
    let mut limits = Limits::default();
    for pair in arguments.chunks(2) {
        let [name, value] = pair else {
            return Err(format!("go {} needs a number", pair[0]));
        };
        let number = parse_count(value).map_err(|message| format!("go {name}: {message}"))?;
        match *name {
            "depth" => limits.depth = Some(number.clamp(1, u64::from(MAX_DEPTH)) as u32),
            "nodes" => limits.nodes = Some(number),
            "time" => limits.time = Some(Duration::from_millis(number)),
            _ => {
                return Err(format!(
                    "unknown go limit `{name}` (depth, nodes, time or infinite)"
                ))
            }
        }
    }
    if limits.is_infinite() {
        limits.time = Some(DEFAULT_TIME);
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        assert_eq!(read_limits(&["depth", "3"]), Ok(Limits::depth(3)));
        assert_eq!(read_limits(&[]), Ok(Limits::time(DEFAULT_TIME)));
        assert_eq!(read_limits(&["infinite"]), Ok(Limits::default()));
        assert_eq!(
            read_limits(&["depth", "99999999999999999999"]),
            Ok(Limits::depth(MAX_DEPTH))
        );
        assert!(read_limits(&["depth"]).is_err());
        assert!(read_limits(&["depth", "x"]).is_err());
        assert!(read_limits(&["width", "3"]).is_err());
    }
}
