//! Engine protocols: XBoard (CECP v2), UCI and vdl's own line protocol for any number of players
//! (docs/protocols.md), written once over the [`Variant`] trait and the search.
//!
//! Each protocol is a function taking a reader and a writer, so tests can drive it with a script. Input
//! lines are read on their own thread and the search runs on another, so `stop` (UCI), `?` (XBoard) and
//! `stop` (line protocol) interrupt a search; everything is written from the calling thread (`driver`).
//! Bad input never ends a session: every malformed line gets an error reply in the protocol's form.
//!
//! # Examples
//!
//! ```
//! use std::io::Cursor;
//! use vdl_runtime::protocol::{self, Engine};
//! use vdl_runtime::Interpreter;
//!
//! # fn demo(interpreter: Interpreter) -> std::io::Result<()> {
//! let engine = Engine::from_interpreter(interpreter);
//! let mut output = Vec::new();
//! protocol::run(&engine, Cursor::new("uci\nisready\ngo depth 1\n"), &mut output)?;
//! assert!(String::from_utf8_lossy(&output).contains("bestmove"));
//! # Ok(())
//! # }
//! ```

mod driver;
pub mod line;
pub mod uci;
pub mod xboard;

use std::io::{self, BufRead, Cursor, Read, Write};

use crate::interp::Interpreter;
use crate::model::Game;
use crate::search::{Evaluator, MaterialEvaluator};
use crate::variant::{GameResult, Variant};

/// A playable engine: the game's rules, its evaluation, what the protocols tell a user interface, and
/// what a session does when its input ends.
#[derive(Clone, Debug)]
pub struct Engine<V, E> {
    /// The rules.
    pub variant: V,
    /// The evaluation the search uses.
    pub evaluator: E,
    /// The game's names and pieces.
    pub info: GameInfo,
    /// What happens to a search when the input ends.
    pub end_of_input: EndOfInput,
}

/// What a session does with a search running when its input ends. Either way the search answers with
/// its best move, the lines read before the end are handled, and then the session ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndOfInput {
    /// Stop the search at once, as if `quit` had followed the last line: a user interface that has
    /// gone away leaves no engine thinking.
    #[default]
    Stop,
    /// Let a search with limits (depth, nodes or time) run to its end; only one without limits is
    /// stopped. A script that ends with `go depth 4` then gets the same answer whatever the timing.
    Finish,
}

impl<V, E> Engine<V, E> {
    /// The engine, also answering to the name of its rule file (`team-mate-chess` for
    /// `examples/team-mate-chess.vdl`) as a variant name.
    pub fn with_file_name(mut self, file_name: &str) -> Self {
        self.info.file_name = Some(file_name.to_string());
        self
    }
}

impl Engine<Interpreter, MaterialEvaluator> {
    /// Makes the engine of an interpreted game (or of a compiled one, which is an interpreter with a
    /// generator hook), evaluated by material and mobility.
    pub fn from_interpreter(interpreter: Interpreter) -> Self {
        let evaluator = MaterialEvaluator::new(&interpreter.game);
        let info = GameInfo::of(&interpreter);
        Engine {
            variant: interpreter,
            evaluator,
            info,
            end_of_input: EndOfInput::default(),
        }
    }
}

impl<G> Engine<crate::compact::Compiled<G>, crate::compact::CompactEvaluator<G>>
where
    G: crate::compact::CompactGame + Clone,
{
    /// Makes the engine of a game compiled to the compact form, evaluated by material and mobility.
    pub fn from_compact(compiled: crate::compact::Compiled<G>) -> Self {
        let evaluator = crate::compact::CompactEvaluator::new(&compiled);
        let info = GameInfo::of(&compiled.interpreter);
        Engine {
            variant: compiled,
            evaluator,
            info,
            end_of_input: EndOfInput::default(),
        }
    }
}

/// What the protocols tell a user interface about a game, beyond the [`Variant`] trait.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// The game's identifier (`chess`), its variant name in the protocols.
    pub name: String,
    /// Its display title.
    pub title: String,
    /// The players' names, in turn order.
    pub players: Vec<String>,
    /// Files, ranks and levels of each board.
    pub boards: Vec<[u32; 3]>,
    /// How many piece types a hand can hold (0 without drops).
    pub holdings: usize,
    /// The piece types.
    pub pieces: Vec<PieceInfo>,
    /// Other names the game is accepted under (`variant team-mate`).
    pub aliases: Vec<String>,
    /// The game's options, which XBoard and UCI offer as engine options.
    pub options: Vec<OptionInfo>,
    /// The name of the rule file without its extension, when known: another name the game answers
    /// to (`variant team-mate-chess`).
    pub file_name: Option<String>,
    /// Every cell: its name, board and coordinates.
    pub cells: Vec<CellInfo>,
    /// The castling rules.
    pub castling: Vec<crate::interp::CastlingSummary>,
}

/// One cell as user interfaces name it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellInfo {
    /// Its name in the game's notation (`e4`).
    pub name: String,
    /// The board it is on.
    pub board: usize,
    /// File, rank and level, from 0.
    pub coord: [i32; 3],
}

/// One option of a game as the protocols offer it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionInfo {
    /// The option's name in the rule file (`pair_promotion`).
    pub name: String,
    /// The name shown to user interfaces (`PairPromotion`).
    pub title: String,
    /// The values it takes (`on off`), as the rule file lists them.
    pub values: Vec<String>,
    /// Its default value.
    pub default: String,
}

impl OptionInfo {
    /// Whether the option is a switch: its values are exactly `on` and `off`.
    pub fn is_switch(&self) -> bool {
        let mut values: Vec<&str> = self.values.iter().map(String::as_str).collect();
        values.sort_unstable();
        values == ["off", "on"]
    }

    /// Whether the option takes one of a listed set of values (not a range or free text).
    pub fn is_listed(&self) -> bool {
        !self.values.is_empty()
            && self
                .values
                .iter()
                .all(|v| v != "text" && !v.starts_with("Range"))
    }

    /// The rule file's value for a value a user interface sends: `1`/`true` and `0`/`false` name the
    /// two states of a switch; anything else is taken as it is.
    pub fn value_from(&self, text: &str) -> String {
        if self.is_switch() {
            match text.to_ascii_lowercase().as_str() {
                "1" | "true" | "on" => return "on".into(),
                "0" | "false" | "off" => return "off".into(),
                _ => {}
            }
        }
        text.to_string()
    }
}

/// One piece type as a user interface sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceInfo {
    /// Its FEN letter(s) for the first player.
    pub letter: String,
    /// All its moves in XBetza, the rule file's strings one after the other.
    pub betza: String,
    /// Whether it is royal.
    pub royal: bool,
    /// Its moves in the XBetza dialect XBoard reads ([`xboard::xbetza`]).
    pub xbetza: String,
    /// Whether it promotes (has a `promote` rule).
    pub promotes: bool,
    /// For a promoted form without a letter of its own (written `+` and the base letter), the piece
    /// it is promoted from.
    pub promoted_from: Option<usize>,
}

impl GameInfo {
    /// Collects the names, boards and pieces of a game.
    pub fn new(game: &Game) -> GameInfo {
        let pieces: Vec<PieceInfo> = game
            .pieces
            .iter()
            .map(|piece| PieceInfo {
                letter: piece.letter.clone(),
                betza: piece.moves.iter().map(|m| m.betza.as_str()).collect(),
                royal: piece.royal.is_royal(),
                xbetza: xboard::xbetza(&piece.moves),
                promotes: !piece.promotions.is_empty(),
                promoted_from: None,
            })
            .collect();
        let drops = game.reserves.iter().any(|r| r.drops);
        let holdings = if drops {
            pieces
                .iter()
                .filter(|p| !p.royal && !p.letter.is_empty())
                .count()
        } else {
            0
        };
        GameInfo {
            name: game.name.clone(),
            title: game.title.clone(),
            players: game
                .players
                .iter()
                .filter(|p| !p.neutral)
                .map(|p| p.name.clone())
                .collect(),
            boards: game.boards.iter().map(|b| b.size).collect(),
            holdings,
            pieces,
            aliases: game.aliases.clone(),
            options: game
                .options
                .iter()
                .map(|o| OptionInfo {
                    name: o.name.clone(),
                    title: o.engine_name.clone().unwrap_or_else(|| o.name.clone()),
                    values: o.values.clone(),
                    default: o
                        .default
                        .clone()
                        .or_else(|| o.values.first().cloned())
                        .unwrap_or_default(),
                })
                .collect(),
            file_name: None,
            cells: game
                .cells
                .iter()
                .map(|cell| CellInfo {
                    name: cell.name.clone(),
                    board: cell.board,
                    coord: cell.coord,
                })
                .collect(),
            castling: Vec::new(),
        }
    }

    /// Collects what [`GameInfo::new`] does, plus what the interpreter prepared: the castling rules and
    /// the promoted forms of pieces.
    pub fn of(interpreter: &Interpreter) -> GameInfo {
        let mut info = GameInfo::new(&interpreter.game);
        info.castling = interpreter.castling_summaries();
        for (index, piece) in info.pieces.iter_mut().enumerate() {
            if piece.letter.is_empty() {
                piece.promoted_from = interpreter.promoted_from(index);
            }
        }
        info
    }

    /// The names the game answers to: its name, its aliases, then its file's name.
    pub fn names(&self) -> Vec<String> {
        let mut names = vec![self.name.clone()];
        for name in self.aliases.iter().chain(&self.file_name) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        names
    }

    /// Whether `name` is the game's name, one of its aliases or its file's name.
    pub fn answers_to(&self, name: &str) -> bool {
        self.names().iter().any(|n| n == name)
    }

    /// Files and ranks of the game's board, when it is played on a single 2D board.
    pub fn flat_board(&self) -> Option<(u32, u32)> {
        match self.boards.as_slice() {
            &[[files, ranks, levels]] if levels <= 1 => Some((files, ranks)),
            _ => None,
        }
    }

    /// The option a user interface names, by its title or its rule-file name (ignoring case).
    pub fn option(&self, name: &str) -> Option<&OptionInfo> {
        self.options
            .iter()
            .find(|o| o.title.eq_ignore_ascii_case(name) || o.name.eq_ignore_ascii_case(name))
    }

    /// Returns a player's name, or its number when the game does not name it.
    pub fn player_name(&self, player: usize) -> String {
        self.players
            .get(player)
            .cloned()
            .unwrap_or_else(|| player.to_string())
    }
}

/// Runs the protocol a mode names: `xboard`, `uci`, `usi`, `line`, or, for `""`, the one the first
/// line chooses ([`run`]); returns `None` for another mode.
pub fn run_mode<V, E, R, W>(
    engine: &Engine<V, E>,
    mode: &str,
    input: R,
    output: W,
) -> Option<io::Result<()>>
where
    V: Variant + Clone + Send + Sync,
    V::Position: Send,
    V::Move: Send + 'static,
    E: Evaluator<V> + Clone + Send + Sync,
    R: BufRead + Send + 'static,
    W: Write,
{
    match mode {
        "" => Some(run(engine, input, output)),
        "xboard" => Some(xboard::run(engine, input, output)),
        "uci" => Some(uci::run(engine, input, output)),
        "usi" => Some(uci::run_usi(engine, input, output)),
        "line" => Some(line::run(engine, input, output)),
        _ => None,
    }
}

/// Runs the protocol the first line asks for: `xboard`, `uci`, `usi`, or else the line protocol (which
/// then reads that first line as its first command). Blank lines before it are skipped.
///
/// # Errors
///
/// Returns an error when reading the first line or writing fails.
pub fn run<V, E, R, W>(engine: &Engine<V, E>, mut input: R, output: W) -> io::Result<()>
where
    V: Variant + Clone + Send + Sync,
    V::Position: Send,
    V::Move: Send + 'static,
    E: Evaluator<V> + Clone + Send + Sync,
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut first = Vec::new();
    loop {
        match driver::read_line_capped(&mut input, &mut first)? {
            None => return Ok(()),
            // Too long to be a protocol's name: the line protocol reports it.
            Some(true) => first = format!("{}\n", driver::TOO_LONG).into_bytes(),
            Some(false) => {}
        }
        if !String::from_utf8_lossy(&first).trim().is_empty() {
            break;
        }
    }
    let command = String::from_utf8_lossy(&first)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    let replayed = Cursor::new(first).chain(input);
    match command.as_str() {
        "xboard" => xboard::run(engine, replayed, output),
        "uci" => uci::run(engine, replayed, output),
        "usi" => uci::run_usi(engine, replayed, output),
        _ => line::run(engine, replayed, output),
    }
}

/// Reads a count: digits (saturating at the largest value rather than failing), or a negative number,
/// read as 0 (GUIs send negative clocks once a flag has fallen).
fn parse_count(text: &str) -> Result<u64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a number"));
    }
    if text.starts_with('-') {
        return Ok(0);
    }
    Ok(digits.parse().unwrap_or(u64::MAX))
}

/// The engine with one option changed, or a message naming what is wrong.
fn with_option<V: Variant + Clone, E: Clone>(
    engine: &Engine<V, E>,
    name: &str,
    value: &str,
) -> Result<Engine<V, E>, String> {
    let option = engine
        .info
        .option(name)
        .ok_or_else(|| format!("unknown option `{name}`"))?;
    let mut changed = engine.clone();
    let value = option.value_from(value);
    changed
        .variant
        .set_options(&[format!("{}={value}", option.name)])?;
    Ok(changed)
}

/// Moves played, with what takes each back.
type Played<V> = Vec<(<V as Variant>::Move, <V as Variant>::Undo)>;

/// Plays moves given as text from `position`, all or none: the position reached and the moves played,
/// or the text of the first illegal move.
fn play_all<V: Variant>(
    variant: &V,
    position: &V::Position,
    texts: &[&str],
) -> Result<(V::Position, Played<V>), String> {
    let mut position = position.clone();
    let mut played = Vec::with_capacity(texts.len());
    for text in texts {
        let mv = variant
            .parse_move(&mut position, text)
            .map_err(|_| (*text).to_string())?;
        let undo = variant.make(&mut position, mv);
        played.push((mv, undo));
    }
    Ok((position, played))
}

/// Describes a result for people: `white wins by checkmate`, `draw by stalemate`.
pub fn describe_result(info: &GameInfo, result: &GameResult) -> String {
    match result.winner {
        Some(winner) => format!("{} wins by {}", info.player_name(winner), result.reason),
        None => format!("draw by {}", result.reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_saturate_and_negative_clocks_are_zero() {
        assert_eq!(parse_count("12"), Ok(12));
        assert_eq!(parse_count("99999999999999999999999"), Ok(u64::MAX));
        assert_eq!(parse_count("-300"), Ok(0));
        assert!(parse_count("").is_err());
        assert!(parse_count("-").is_err());
        assert!(parse_count("1e3").is_err());
    }
}
