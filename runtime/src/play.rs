//! Terminal play: people and the engine take the seats of a game in any combination, with the board
//! drawn after every move, moves typed in the game's notation, `undo`, `moves`, `help` and `quit`, and a
//! clear message for an illegal move. It takes a reader and a writer, so tests can drive it.

use std::io::{self, BufRead, Write};

use crate::interp::Interpreter;
use crate::protocol::Engine;
use crate::search::{search, Limits, MaterialEvaluator};
use crate::variant::{GameResult, Variant};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person typing moves.
    Human,
    /// The engine, searching within these limits.
    Engine(Limits),
}

/// Plays a game in the terminal until it ends or a person quits; returns the result, if any.
///
/// # Errors
///
/// Returns an error when reading or writing fails.
pub fn play_terminal<R: BufRead, W: Write>(
    engine: &Engine<Interpreter, MaterialEvaluator>,
    seats: &[Seat],
    mut input: R,
    mut output: W,
) -> io::Result<Option<GameResult>> {
    let variant = &engine.variant;
    let mut position = variant.start();
    let mut history = Vec::new();
    loop {
        write!(output, "\n{}", variant.render(&position))?;
        if let Some(result) = variant.outcome(&mut position) {
            let winner = match result.winner {
                Some(w) => format!("{} wins", variant.game.players[w].name),
                None => "draw".to_string(),
            };
            writeln!(output, "game over: {winner} ({})", result.reason)?;
            return Ok(Some(result));
        }
        let side = position.side;
        let name = variant.game.players[side].name.clone();
        match seats.get(side).or(seats.last()).unwrap_or(&Seat::Human) {
            Seat::Engine(limits) => {
                let found = search(variant, &engine.evaluator, &position, limits);
                let Some(mv) = found.best else {
                    writeln!(output, "{name} has no move")?;
                    return Ok(None);
                };
                writeln!(
                    output,
                    "{name} (engine) plays {}",
                    variant.write_move(&position, mv)
                )?;
                history.push(position.clone());
                variant.make(&mut position, mv);
            }
            Seat::Human => {
                write!(
                    output,
                    "{name} to move (a move, `moves`, `undo`, `help` or `quit`): "
                )?;
                output.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(output)?;
                    return Ok(None);
                }
                match line.trim() {
                    "" => {}
                    "quit" => return Ok(None),
                    "help" => writeln!(output, "type a move as listed by `moves` (e.g. e2e4); `undo` takes back the last move")?,
                    "moves" => {
                        let mut moves = Vec::new();
                        variant.legal_moves(&mut position, &mut moves);
                        let texts: Vec<String> = moves.iter().map(|m| variant.write_move(&position, *m)).collect();
                        writeln!(output, "{}", texts.join(" "))?;
                    }
                    "undo" => {
                        // Back to this player's previous turn: the engine's replies are taken back too.
                        let mut undone = false;
                        while let Some(previous) = history.pop() {
                            position = previous;
                            undone = true;
                            if position.side == side {
                                break;
                            }
                        }
                        if !undone {
                            writeln!(output, "nothing to undo")?;
                        }
                    }
                    text => match variant.parse_move(&mut position, text) {
                        Ok(mv) => {
                            history.push(position.clone());
                            variant.make(&mut position, mv);
                        }
                        Err(_) => writeln!(output, "illegal move `{text}`: type `moves` to list the legal ones")?,
                    },
                }
            }
        }
    }
}
