//! XBoard (the Chess Engine Communication Protocol, version 2).
//!
//! Supported: `xboard`, `protover` (answered with `feature` lines), `accepted`/`rejected`, `new`,
//! `variant`, `force`, `go`, `playother`, `usermove` (and bare moves), `setboard`, `undo`, `remove`,
//! `ping`, `result`, `level`, `st`, `sd`, `time`, `otim`, `?`, `post`/`nopost`, `quit`, and the
//! commands an engine may ignore (`hard`, `easy`, `random`, `computer`, `name`, `rating`, `ics`, `draw`,
//! `hint`, `bk`, `cores`, `memory`, `.`). The engine answers `move M`, then the result line when its
//! move ends the game; illegal moves get `Illegal move: M`, unknown commands
//! `Error (unknown command): CMD`, bad arguments `Error (REASON): LINE`.
//!
//! Games XBoard knows (`normal`, `xiangqi`, `capablanca` ...) are played by its rules. Every other game
//! is an engine-defined variant: after `variant NAME` the engine sends `setup (PIECES)
//! WxH+HOLDINGS_PARENT FEN` and one `piece L& XBETZA` line per piece (castling as `isO2`), so XBoard
//! can draw the pieces and check their moves. Only games on one 2D board get a `setup` line. Squares
//! are named as XBoard names them: ranks count from 0 on boards of 10 ranks (`squares`).

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

mod setup;
mod squares;

pub use setup::{
    native_name, parent_variant, piece_lines, setup_line, variant_name, variant_names, xbetza,
    PieceTable, NATIVE_VARIANTS,
};
pub use squares::{square_name, Dialect};

use super::driver::{self, Handler, Interrupt, Request, Step};
use super::{describe_result, parse_count, play_all, Engine};
use crate::search::{self, mate_plies, Evaluator, Iteration, Limits, SearchResult, MAX_DEPTH};
use crate::variant::Variant;

/// Time per move when the GUI has given no time control.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// Moves left to the time control when the control has no move count.
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// Runs an XBoard session until `quit` or the end of input.
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
    let mut handler = XBoard::new(engine);
    driver::drive(input, output, &mut handler)
}

/// The text of a `feature option="..."` line: a switch is a check box, a short list a combo box,
/// anything else a string.
pub fn option_feature(option: &super::OptionInfo) -> String {
    if option.is_switch() {
        let on = u8::from(option.default == "on");
        return format!("{} -check {on}", option.title);
    }
    if option.is_listed() {
        let values: Vec<String> = option
            .values
            .iter()
            .map(|v| {
                if *v == option.default {
                    format!("*{v}")
                } else {
                    v.clone()
                }
            })
            .collect();
        return format!("{} -combo {}", option.title, values.join(" /// "));
    }
    format!("{} -string {}", option.title, option.default)
}

struct XBoard<V: Variant, E> {
    engine: Arc<Engine<V, E>>,
    position: V::Position,
    /// The moves played since the position was set, to take back.
    history: Vec<(V::Move, V::Undo)>,
    /// The player the engine plays, or `None` in force mode.
    engine_side: Option<usize>,
    /// Whether to send thinking output.
    post: bool,
    /// `sd`: the deepest search.
    depth: Option<u32>,
    /// `st`: the time per move.
    move_time: Option<Duration>,
    /// `level`: moves per time control (0: the whole game) and the increment.
    moves_per_control: u64,
    increment: Duration,
    /// `time`: the engine's clock.
    clock: Option<Duration>,
    /// Whether the running search's move is no longer wanted (`force`, `new` ... arrived meanwhile).
    discard: bool,
    new_game: bool,
    /// XBoard's square names and FEN dialect.
    dialect: Arc<Dialect>,
    /// The transposition table's size in bytes (`memory`).
    memory: Option<usize>,
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Handler<V, E> for XBoard<V, E> {
    fn engine(&self) -> Arc<Engine<V, E>> {
        Arc::clone(&self.engine)
    }

    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Step<V>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, arguments)) = words.split_first() else {
            return Ok(Step::Continue);
        };
        match command {
            "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "cores" | "." | "?" => {}
            "memory" => match arguments.first().map(|t| parse_count(t)) {
                Some(Ok(megabytes)) => {
                    self.memory = Some((megabytes.max(1) as usize).saturating_mul(1 << 20));
                }
                _ => writeln!(out, "Error (expected megabytes): {line}")?,
            },
            "protover" => self.features(out)?,
            "new" => self.new_game(),
            "variant" => self.variant(arguments, line, out)?,
            "force" => self.engine_side = None,
            "go" => {
                self.engine_side = Some(self.side());
                return self.think(out);
            }
            "playother" => {
                let players = self.engine.evaluator.players().max(1);
                self.engine_side = Some((self.side() + 1) % players);
            }
            "usermove" => match arguments {
                [text] => return self.user_move(text, out),
                _ => writeln!(out, "Error (expected one move): {line}")?,
            },
            "setboard" => {
                let fen = self.dialect.fen_from_xboard(&arguments.join(" "));
                self.set_board(&fen, out)?;
            }
            "undo" => self.take_back(1, line, out)?,
            "remove" => self.take_back(2, line, out)?,
            "ping" => match arguments {
                [] => writeln!(out, "Error (missing number): {line}")?,
                _ => writeln!(out, "pong {}", arguments.join(" "))?,
            },
            "result" => self.engine_side = None,
            "post" => self.post = true,
            "nopost" => self.post = false,
            "level" => self.level(arguments, line, out)?,
            "st" | "sd" | "time" | "otim" => self.limit(command, arguments, line, out)?,
            "quit" => return Ok(Step::Quit),
            "option" => self.set_option(&arguments.join(" "), line, out)?,
            _ => {
                // A bare move, from a GUI that ignored `usermove=1`.
                let text = self.dialect.from_xboard(command);
                let mut position = self.position.clone();
                if self.engine.variant.parse_move(&mut position, &text).is_ok()
                    && arguments.is_empty()
                {
                    return self.user_move(command, out);
                }
                writeln!(out, "Error (unknown command): {command}")?;
            }
        }
        Ok(Step::Continue)
    }

    fn interrupt(&mut self, line: &str, _out: &mut dyn Write) -> io::Result<Interrupt> {
        Ok(match line.split_whitespace().next() {
            None | Some("." | "hard" | "easy" | "computer" | "accepted" | "rejected") => {
                Interrupt::Handled
            }
            Some("?") => Interrupt::Stop,
            Some(
                "quit" | "force" | "new" | "result" | "setboard" | "undo" | "remove" | "variant",
            ) => {
                // The move being searched would be played in a game that has changed.
                self.discard = true;
                Interrupt::Stop
            }
            Some(_) => Interrupt::Later,
        })
    }

    fn relay(&self, report: String) -> String {
        self.dialect.to_xboard(&report)
    }

    fn finished(&mut self, result: SearchResult<V::Move>, out: &mut dyn Write) -> io::Result<()> {
        if std::mem::take(&mut self.discard) {
            return Ok(());
        }
        if let Some(mv) = result.best {
            let variant = &self.engine.variant;
            let text = self
                .dialect
                .to_xboard(&variant.write_protocol_move(&self.position, mv));
            writeln!(out, "move {text}")?;
            let undo = variant.make(&mut self.position, mv);
            self.history.push((mv, undo));
        }
        self.announce_result(out).map(|_| ())
    }
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> XBoard<V, E> {
    fn new(engine: &Engine<V, E>) -> Self {
        let start = engine.variant.write_position(&engine.variant.start());
        XBoard {
            dialect: Arc::new(Dialect::new(&engine.info, &start)),
            memory: None,
            engine: Arc::new(engine.clone()),
            position: engine.variant.start(),
            history: Vec::new(),
            engine_side: None,
            post: false,
            depth: None,
            move_time: None,
            moves_per_control: 0,
            increment: Duration::ZERO,
            clock: None,
            discard: false,
            new_game: true,
        }
    }

    fn side(&self) -> usize {
        self.engine.evaluator.side_to_move(&self.position)
    }

    fn features(&self, out: &mut dyn Write) -> io::Result<()> {
        let info = &self.engine.info;
        writeln!(out, "feature done=0")?;
        writeln!(
            out,
            "feature ping=1 setboard=1 usermove=1 playother=1 colors=0 time=1 draw=0 sigint=0 \
             sigterm=0 reuse=1 analyze=0 san=0 memory=1 myname=\"vdl {}\" variants=\"{}\"",
            info.title,
            variant_names(info).join(",")
        )?;
        for option in &info.options {
            writeln!(out, "feature option=\"{}\"", option_feature(option))?;
        }
        writeln!(out, "feature done=1")
    }

    /// `new`: the start position, the engine playing the second player, no depth limit.
    fn new_game(&mut self) {
        self.position = self.engine.variant.start();
        self.history.clear();
        self.engine_side = Some(1 % self.engine.evaluator.players().max(1));
        self.depth = None;
        self.new_game = true;
    }

    fn variant(&mut self, arguments: &[&str], line: &str, out: &mut dyn Write) -> io::Result<()> {
        let info = &self.engine.info;
        let known =
            |name: &str| variant_names(info).iter().any(|n| n == name) || info.answers_to(name);
        if !matches!(arguments, [name] if known(name)) {
            return writeln!(out, "Error (unsupported variant): {line}");
        }
        let start = self
            .engine
            .variant
            .write_position(&self.engine.variant.start());
        let own_start = start.clone();
        let start = self.dialect.fen_to_xboard(&start, parent_variant(info));
        if let Some(setup) = setup_line(info, &start) {
            writeln!(out, "{setup}")?;
            for piece in piece_lines(info, &own_start) {
                writeln!(out, "{piece}")?;
            }
        }
        Ok(())
    }

    /// `option NAME=VALUE`: changes one of the game's options; the game restarts from its start.
    fn set_option(&mut self, text: &str, line: &str, out: &mut dyn Write) -> io::Result<()> {
        let Some((name, value)) = text.split_once('=') else {
            return writeln!(out, "Error (expected option NAME=VALUE): {line}");
        };
        match super::with_option(&self.engine, name.trim(), value.trim()) {
            Ok(engine) => {
                self.engine = Arc::new(engine);
                self.position = self.engine.variant.start();
                self.history.clear();
                let start = self.engine.variant.write_position(&self.position);
                self.dialect = Arc::new(Dialect::new(&self.engine.info, &start));
                Ok(())
            }
            Err(message) => writeln!(out, "Error ({message}): {line}"),
        }
    }

    fn set_board(&mut self, fen: &str, out: &mut dyn Write) -> io::Result<()> {
        match self.engine.variant.parse_position(fen) {
            Ok(position) => {
                self.position = position;
                self.history.clear();
                Ok(())
            }
            Err(e) => writeln!(out, "tellusererror Illegal position: {e}"),
        }
    }

    fn take_back(&mut self, count: usize, line: &str, out: &mut dyn Write) -> io::Result<()> {
        if self.history.len() < count {
            return writeln!(out, "Error (no move to take back): {line}");
        }
        for _ in 0..count {
            if let Some((mv, undo)) = self.history.pop() {
                self.engine.variant.unmake(&mut self.position, mv, undo);
            }
        }
        Ok(())
    }

    /// Plays the opponent's move, written as XBoard writes it, then thinks if it is the engine's
    /// turn.
    fn user_move(&mut self, text: &str, out: &mut dyn Write) -> io::Result<Step<V>> {
        let variant = &self.engine.variant;
        let own = self.dialect.from_xboard(text);
        match play_all(variant, &self.position, &[own.as_str()]) {
            Ok((position, played)) => {
                self.position = position;
                self.history.extend(played);
            }
            Err(_) => {
                writeln!(out, "Illegal move: {text}")?;
                return Ok(Step::Continue);
            }
        }
        if self.announce_result(out)? {
            return Ok(Step::Continue);
        }
        self.think(out)
    }

    /// Starts a search if the engine is to move in a game not yet over.
    fn think(&mut self, out: &mut dyn Write) -> io::Result<Step<V>> {
        if self.engine_side != Some(self.side()) {
            return Ok(Step::Continue);
        }
        if self.announce_result(out)? {
            self.engine_side = None;
            return Ok(Step::Continue);
        }
        let time = self.move_time.or_else(|| self.clock.map(|c| self.share(c)));
        let limits = Limits {
            depth: self.depth,
            nodes: None,
            time: Some(time.unwrap_or(DEFAULT_MOVE_TIME)),
        };
        Ok(Step::Search(Request {
            report: self.post.then_some(thinking_line::<V> as driver::Report<V>),
            memory: self.memory,
            ..Request::new(
                self.position.clone(),
                limits,
                std::mem::take(&mut self.new_game),
            )
        }))
    }

    /// The time for one move from the clock: an even share of what is left until the next control
    /// plus most of the increment, never more than half the clock.
    fn share(&self, clock: Duration) -> Duration {
        let players = self.engine.evaluator.players().max(1);
        let moves_to_go = if self.moves_per_control > 0 {
            let played = (self.history.len() / players) as u64;
            self.moves_per_control - played % self.moves_per_control
        } else {
            DEFAULT_MOVES_TO_GO
        };
        let moves_to_go = moves_to_go.clamp(1, u64::from(u32::MAX)) as u32;
        let planned = clock / moves_to_go + self.increment * 3 / 4;
        planned.min(clock / 2).max(Duration::from_millis(1))
    }

    /// Writes the result line if the game is over, and tells whether it is.
    fn announce_result(&mut self, out: &mut dyn Write) -> io::Result<bool> {
        let Some(result) = self.engine.variant.outcome(&mut self.position) else {
            return Ok(false);
        };
        let score = match result.winner {
            Some(0) => "1-0",
            Some(1) => "0-1",
            Some(_) => "*",
            None => "1/2-1/2",
        };
        writeln!(
            out,
            "{score} {{{}}}",
            describe_result(&self.engine.info, &result)
        )?;
        Ok(true)
    }

    /// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds.
    fn level(&mut self, arguments: &[&str], line: &str, out: &mut dyn Write) -> io::Result<()> {
        let parsed = match arguments {
            [moves, base, increment] => parse_count(moves)
                .ok()
                .zip(parse_clock(base))
                .zip(parse_seconds(increment)),
            _ => None,
        };
        match parsed {
            Some(((moves, base), increment)) => {
                self.moves_per_control = moves;
                self.increment = increment;
                self.clock = Some(base);
                Ok(())
            }
            None => writeln!(
                out,
                "Error (expected level MOVES MINUTES[:SECONDS] INCREMENT): {line}"
            ),
        }
    }

    /// `st SECONDS`, `sd DEPTH`, `time CENTISECONDS`, `otim CENTISECONDS`.
    fn limit(
        &mut self,
        command: &str,
        arguments: &[&str],
        line: &str,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let [text] = arguments else {
            return writeln!(out, "Error (expected one number): {line}");
        };
        if command == "st" {
            return match parse_seconds(text) {
                Some(time) => {
                    self.move_time = Some(time);
                    Ok(())
                }
                None => writeln!(out, "Error (bad number): {line}"),
            };
        }
        let Ok(number) = parse_count(text) else {
            return writeln!(out, "Error (bad number): {line}");
        };
        match command {
            "sd" => self.depth = Some(number.clamp(1, u64::from(MAX_DEPTH)) as u32),
            "time" => self.clock = Some(Duration::from_millis(number.saturating_mul(10))),
            _ => {}
        }
        Ok(())
    }
}

/// Reads seconds, possibly with a fraction (`st 2.5`, an increment of `0.5`).
fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds: f64 = text.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds.min(1e9)))
}

/// Reads a base time: minutes, or `minutes:seconds`.
fn parse_clock(text: &str) -> Option<Duration> {
    let (minutes, seconds) = text.split_once(':').unwrap_or((text, "0"));
    let minutes = parse_count(minutes).ok()?.min(1_000_000_000);
    let seconds = parse_count(seconds).ok()?.min(1_000_000_000);
    Some(Duration::from_secs(minutes * 60 + seconds))
}

/// Thinking output: `DEPTH SCORE TIME NODES PV`, time in centiseconds, mates as 100000 + moves.
fn thinking_line<V: Variant>(
    variant: &V,
    position: &V::Position,
    iteration: &Iteration<'_, V::Move>,
    _line: usize,
) -> String {
    let score = match mate_plies(iteration.score) {
        Some(plies) => plies.signum() * (100_000 + (plies.abs() + 1) / 2),
        None => iteration.score,
    };
    format!(
        "{} {score} {} {} {}",
        iteration.depth,
        iteration.elapsed.as_millis() / 10,
        iteration.nodes,
        search::protocol_line_text(variant, position, iteration.pv).join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_texts() {
        assert_eq!(parse_clock("5"), Some(Duration::from_secs(300)));
        assert_eq!(parse_clock("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_seconds("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_seconds("-1"), None);
        assert_eq!(parse_seconds("inf"), None);
    }
}
