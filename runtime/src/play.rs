//! Terminal play: people and the engine take the seats of a game in any combination, with the board
//! drawn after every move and the moves so far listed under it. People type moves in SAN (`Nf3`,
//! `exd5`, `O-O`, `P@e4`) or in the game's own notation (`g1f3`); a check is announced, `moves` lists
//! the legal moves, `undo` takes back the last move a person made (and the engine's replies since)
//! and says which, `claim` takes a result the rules let a player claim (the engine claims a win at
//! once, a draw unless its search finds it ahead), `help` and `quit`. It takes a reader and a writer,
//! so tests can drive it.

use std::io::{self, BufRead, Write};

use crate::compact::{CompactEvaluator, CompactGame, CompactPosition, Compiled};
use crate::interp::{Interpreter, Move, Position};
use crate::protocol::{describe_result, Engine};
use crate::search::{search, Limits, MaterialEvaluator, SearchResult};
use crate::variant::{GameResult, Variant};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person typing moves.
    Human,
    /// The engine, searching within these limits.
    Engine(Limits),
}

/// A game played in the terminal: how it ended and its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    /// The result, or `None` when a person quit (or the input ended) first.
    pub result: Option<GameResult>,
    /// The position the game started from, in the game's FEN.
    pub start: String,
    /// The moves: the player who made each, and its text (SAN where the game has it).
    pub moves: Vec<(usize, String)>,
}

/// One move played, with what it took to take it back.
struct Ply {
    before: crate::interp::Position,
    side: usize,
    text: String,
}

/// Plays a game in the terminal until it ends or a person quits.
///
/// # Errors
///
/// Returns an error when reading or writing fails.
pub fn play_terminal<R: BufRead, W: Write>(
    engine: &Engine<Interpreter, MaterialEvaluator>,
    seats: &[Seat],
    input: R,
    output: W,
) -> io::Result<Played> {
    let think = |position: &Position, limits: &Limits| {
        search(&engine.variant, &engine.evaluator, position, limits)
    };
    play_terminal_with(engine, seats, &think, input, output)
}

/// How an engine seat finds its move in a position of the interpreter: the search's result, its
/// moves the interpreter's.
pub type Think<'a> = dyn Fn(&Position, &Limits) -> SearchResult<Move> + 'a;

/// [`play_terminal`] with the engine seats' search done by `think` (a compiled engine's, on its own
/// position: [`compact_think`]); the board, the moves people type and the end of the game are the
/// interpreter's.
///
/// # Errors
///
/// Returns the error of reading the input or writing the output.
pub fn play_terminal_with<R: BufRead, W: Write>(
    engine: &Engine<Interpreter, MaterialEvaluator>,
    seats: &[Seat],
    think: &Think<'_>,
    mut input: R,
    mut output: W,
) -> io::Result<Played> {
    let variant = &engine.variant;
    let mut position = variant.start();
    let mut history: Vec<Ply> = Vec::new();
    let start = variant.write_position(&position);
    let finish = |history: &[Ply], result: Option<GameResult>| Played {
        result,
        start: start.clone(),
        moves: history.iter().map(|p| (p.side, p.text.clone())).collect(),
    };
    let first_number = position.fullmove;
    let seat = |side: usize| seats.get(side).or(seats.last()).unwrap_or(&Seat::Human);
    loop {
        write!(output, "\n{}", variant.render(&position))?;
        if !history.is_empty() {
            let listed: Vec<(usize, String)> =
                history.iter().map(|p| (p.side, p.text.clone())).collect();
            writeln!(
                output,
                "moves: {}",
                crate::pgn::movetext(&listed, first_number).join(" ")
            )?;
        }
        if let Some(result) = variant.outcome(&mut position) {
            writeln!(output, "game over: {}", over(engine, &result))?;
            return Ok(finish(&history, Some(result)));
        }
        let side = position.side;
        let name = variant.game.players[side].name.clone();
        if variant.in_check(&mut position) {
            writeln!(output, "{name} is in check")?;
        }
        let claim = variant.claimable(&position);
        match seat(side) {
            Seat::Engine(limits) => {
                let found = think(&position, limits);
                // As a player would: a win is claimed at once, a draw unless the search finds the
                // engine ahead.
                if let Some(result) = claim
                    .filter(|r| r.winner == Some(side) || (r.winner.is_none() && found.score <= 0))
                {
                    writeln!(
                        output,
                        "{name} (engine) claims: {}",
                        describe_result(&engine.info, &result)
                    )?;
                    writeln!(output, "game over: {}", over(engine, &result))?;
                    return Ok(finish(&history, Some(result)));
                }
                let Some(mv) = found.best else {
                    writeln!(output, "{name} has no move")?;
                    return Ok(finish(&history, None));
                };
                let text = crate::san::text(variant, &mut position, mv);
                writeln!(output, "{name} (engine) plays {text}")?;
                history.push(Ply {
                    before: position.clone(),
                    side,
                    text,
                });
                variant.make(&mut position, mv);
            }
            Seat::Human => {
                if let Some(result) = &claim {
                    writeln!(
                        output,
                        "{name} may claim {} (type `claim`)",
                        describe_result(&engine.info, result)
                    )?;
                }
                write!(
                    output,
                    "{name} to move (a move such as e4, Nf3 or g1f3, `moves`, `undo`, `claim`, `help` or `quit`): "
                )?;
                output.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(output)?;
                    return Ok(finish(&history, None));
                }
                match line.trim() {
                    "" => {}
                    "quit" => return Ok(finish(&history, None)),
                    "help" => writeln!(
                        output,
                        "type a move in SAN (e4, Nf3, exd5, O-O, e8=Q, P@e4) or as `moves` lists it in \
                         the game's notation (e2e4); `undo` takes back your last move and the replies \
                         to it; `claim` claims a draw (or win) the rules allow"
                    )?,
                    "moves" => {
                        let mut moves = Vec::new();
                        variant.legal_moves(&mut position, &mut moves);
                        let texts = crate::san::texts(variant, &position, &moves);
                        writeln!(output, "{}", texts.join(" "))?;
                    }
                    "claim" => match claim {
                        Some(result) => {
                            writeln!(output, "game over: {}", over(engine, &result))?;
                            return Ok(finish(&history, Some(result)));
                        }
                        None => writeln!(output, "there is nothing to claim")?,
                    },
                    "undo" => {
                        // The last move a person made, and the engine's replies since.
                        let mut undone = Vec::new();
                        while let Some(ply) = history.pop() {
                            position = ply.before;
                            undone.push(format!(
                                "{} ({})",
                                ply.text, variant.game.players[ply.side].name
                            ));
                            if matches!(seat(ply.side), Seat::Human) {
                                break;
                            }
                        }
                        undone.reverse();
                        if undone.is_empty() {
                            writeln!(output, "nothing to undo")?;
                        } else {
                            writeln!(output, "took back {}", undone.join(", "))?;
                        }
                    }
                    text => match crate::san::parse(variant, &mut position, text) {
                        Ok(mv) => {
                            let text = crate::san::text(variant, &mut position, mv);
                            history.push(Ply {
                                before: position.clone(),
                                side,
                                text,
                            });
                            variant.make(&mut position, mv);
                        }
                        Err(e) if e.message.contains("ambiguous") => {
                            writeln!(output, "{e}")?;
                        }
                        Err(_) => writeln!(
                            output,
                            "illegal move `{text}`: type `moves` to list the legal ones"
                        )?,
                    },
                }
            }
        }
    }
}

/// The end of a game for people: `black wins (checkmate)`, `draw (stalemate)`.
fn over(engine: &Engine<Interpreter, MaterialEvaluator>, result: &GameResult) -> String {
    match result.winner {
        Some(w) => {
            let players = &engine.variant.game.players;
            match engine.variant.partner(w) {
                Some(p) => format!(
                    "{} and {} win ({})",
                    players[w].name, players[p].name, result.reason
                ),
                None => format!("{} wins ({})", players[w].name, result.reason),
            }
        }
        None => format!("draw ({})", result.reason),
    }
}

/// The search of a compiled engine's compact form for [`play_terminal_with`]: the position is
/// converted to the compact form's, searched there, and the moves found are read back by their text
/// (each move's text is its own).
pub fn compact_think<G: CompactGame + Clone>(
    compiled: &Compiled<G>,
) -> impl Fn(&Position, &Limits) -> SearchResult<Move> + '_ {
    let evaluator = CompactEvaluator::new(compiled);
    move |position: &Position, limits: &Limits| {
        let compact = CompactPosition::new(compiled.from_interpreter(position));
        let found = search(compiled, &evaluator, &compact, limits);
        // The principal variation's moves after the first are in later positions: only the best
        // move is read back.
        let best = found.best.and_then(|mv| {
            let text = compiled.write_move(&compact, mv);
            let mut position = position.clone();
            compiled.interpreter.parse_move(&mut position, &text).ok()
        });
        SearchResult {
            pv: best.into_iter().collect(),
            best,
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
        }
    }
}
