//! UCI, the Universal Chess Interface, for two-player games (a game with more players is searched
//! paranoid, its clocks read as `wtime` for every player but the second), and USI, its shogi form.
//!
//! Supported: `uci` (or `usi`), with the options `UCI_Variant` (the game's names), `Hash`,
//! `Clear Hash`, `MultiPV` and the game's own; `isready`, `setoption`, `ucinewgame` (`usinewgame`),
//! `position startpos|fen FEN|sfen SFEN [moves ...]`, `go` with `depth`, `nodes`, `movetime`,
//! `wtime`/`btime`/`winc`/`binc`/`movestogo` (USI: `btime`/`wtime`/`binc`/`winc`/`byoyomi`), `mate`,
//! `searchmoves`, `infinite` and `ponder`, `go perft N`, `d`, `stop`, `ponderhit`, `gameover`, `debug`
//! and `quit`. The engine answers `bestmove M` (`bestmove (none)`, USI `bestmove resign`, when the
//! game is over) after `info depth D [multipv K] score cp|mate X nodes N time T nps S pv ...` lines;
//! after `go infinite` or `go ponder` only once `stop` (or `quit`) comes, even when the search ended
//! first (a forced mate found); `ponderhit` stops a ponder search and answers at once. Malformed
//! input gets `info string error: ...`.
//!
//! USI names squares as shogi does (files numbered from the right, ranks lettered from the top: `7g7f`),
//! writes drops `P*5e` and positions as SFEN (the first player is `b`, hands `S2Pp`), counts mates in
//! plies and gives the first player's clock as `btime`.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use super::driver::{self, Handler, Interrupt, Request, Step};
use super::{parse_count, play_all, Engine, GameInfo};
use crate::search::{self, mate_plies, Evaluator, Iteration, Limits, SearchResult, MAX_DEPTH};
use crate::variant::Variant;

/// Moves left to the time control when the GUI does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The table size before `Hash` is set, in megabytes.
const DEFAULT_HASH: u64 = 16;
/// The largest table `Hash` may ask for, in megabytes.
const MAX_HASH: u64 = 65_536;
/// The most lines `MultiPV` may ask for.
const MAX_LINES: u64 = 256;

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

/// Runs a UCI session until `quit` or the end of input. A session that starts with `usi` speaks USI.
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
    let mut handler = Uci::new(engine, None);
    driver::drive(input, output, &mut handler)
}

/// Runs a USI session until `quit` or the end of input.
///
/// # Errors
///
/// Returns an error when writing fails.
pub fn run_usi<V, E, R, W>(engine: &Engine<V, E>, input: R, output: W) -> io::Result<()>
where
    V: Variant + Clone + Send + Sync,
    V::Position: Send,
    V::Move: Send + 'static,
    E: Evaluator<V> + Clone + Send + Sync,
    R: BufRead + Send + 'static,
    W: Write,
{
    let usi = Usi::new(&engine.info);
    let mut handler = Uci::new(engine, Some(usi));
    driver::drive(input, output, &mut handler)
}

struct Uci<V: Variant, E> {
    engine: Arc<Engine<V, E>>,
    position: V::Position,
    /// Whether the next search starts a new game (forgets the table).
    new_game: bool,
    /// The table size in megabytes (`Hash`).
    hash: u64,
    /// How many best lines to report (`MultiPV`).
    lines: usize,
    /// USI's names, in a USI session.
    usi: Option<Usi>,
    /// Whether the running (or last) search is `go infinite` or `go ponder` and no `stop`,
    /// `ponderhit` or `quit` has come: its `bestmove` waits for one.
    unbounded: bool,
    /// The `bestmove` line of such a search that ended on its own (a mate found), until then.
    held: Option<String>,
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
        // A held `bestmove` goes out on the command that ends the search, or before any command a GUI
        // sends only once it has its `bestmove` (which it should not send before `stop`); `isready`,
        // `debug` and `d` leave it held.
        if !matches!(command, "isready" | "debug" | "d") {
            self.unbounded = false;
            if let Some(text) = self.held.take() {
                writeln!(out, "{text}")?;
            }
        }
        match command {
            "uci" | "usi" => self.identify(command, out)?,
            "isready" => writeln!(out, "readyok")?,
            "debug" | "ponderhit" | "stop" | "register" | "gameover" => {}
            "setoption" => self.set_option(arguments, out)?,
            "ucinewgame" | "usinewgame" => {
                self.position = self.engine.variant.start();
                self.new_game = true;
            }
            "position" => match self.read_position(arguments) {
                Ok(position) => self.position = position,
                Err(message) => error(out, &message)?,
            },
            "go" if arguments.first() == Some(&"perft") => return self.perft(arguments, out),
            "go" => return Ok(Step::Search(self.go(arguments, out)?)),
            "d" => self.show(out)?,
            "quit" => return Ok(Step::Quit),
            _ => error(out, &format!("unknown command `{command}`"))?,
        }
        Ok(Step::Continue)
    }

    fn interrupt(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Interrupt> {
        Ok(match line.split_whitespace().next() {
            None | Some("debug") => Interrupt::Handled,
            Some("isready") => {
                writeln!(out, "readyok")?;
                Interrupt::Handled
            }
            // After `ponderhit` the engine owns the move: it answers with what the ponder search
            // has found, rather than search on without a limit.
            Some("stop" | "quit" | "ponderhit") => {
                self.unbounded = false;
                Interrupt::Stop
            }
            Some(_) => Interrupt::Later,
        })
    }

    fn finished(&mut self, result: SearchResult<V::Move>, out: &mut dyn Write) -> io::Result<()> {
        let text = match result.best {
            Some(mv) => {
                let text = self.engine.variant.write_protocol_move(&self.position, mv);
                format!("bestmove {}", self.to_protocol(&text))
            }
            None if self.usi.is_some() => "bestmove resign".to_string(),
            None => "bestmove (none)".to_string(),
        };
        if self.unbounded {
            self.held = Some(text);
            return Ok(());
        }
        writeln!(out, "{text}")
    }

    /// `go perft N`'s answer: the count of every root move (`M: N`, in ASCII order), then `Nodes
    /// searched: N`; when stopped, the root moves counted so far and `info string perft stopped`.
    fn counted(
        &mut self,
        mut counts: Vec<(String, u64)>,
        complete: bool,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for (text, _) in &mut counts {
            *text = self.to_protocol(text);
        }
        counts.sort();
        for (text, count) in &counts {
            writeln!(out, "{text}: {count}")?;
        }
        let nodes: u64 = counts.iter().map(|(_, n)| n).sum();
        if !complete {
            return writeln!(
                out,
                "info string perft stopped after {} root moves, {nodes} nodes",
                counts.len()
            );
        }
        writeln!(out)?;
        writeln!(out, "Nodes searched: {nodes}")
    }

    fn at_end(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.held.take() {
            Some(text) => writeln!(out, "{text}"),
            None => Ok(()),
        }
    }

    fn relay(&self, report: String) -> String {
        match &self.usi {
            Some(usi) => usi.line(&report),
            None => report,
        }
    }
}

impl<V: Variant + Clone, E: Evaluator<V> + Clone> Uci<V, E> {
    fn new(engine: &Engine<V, E>, usi: Option<Usi>) -> Self {
        Uci {
            engine: Arc::new(engine.clone()),
            position: engine.variant.start(),
            new_game: true,
            hash: DEFAULT_HASH,
            lines: 1,
            usi,
            unbounded: false,
            held: None,
        }
    }

    fn to_protocol(&self, text: &str) -> String {
        match &self.usi {
            Some(usi) => usi.to_usi(text),
            None => text.to_string(),
        }
    }

    fn protocol_to_own(&self, text: &str) -> String {
        match &self.usi {
            Some(usi) => usi.usi_to_own(text),
            None => text.to_string(),
        }
    }

    /// `uci` / `usi`: the engine's name and options.
    fn identify(&self, command: &str, out: &mut dyn Write) -> io::Result<()> {
        let info = &self.engine.info;
        writeln!(out, "id name vdl {}", info.title)?;
        writeln!(out, "id author the vdl authors")?;
        let vars: Vec<String> = info.names().iter().map(|n| format!("var {n}")).collect();
        writeln!(
            out,
            "option name UCI_Variant type combo default {} {}",
            info.name,
            vars.join(" ")
        )?;
        writeln!(
            out,
            "option name Hash type spin default {DEFAULT_HASH} min 1 max {MAX_HASH}"
        )?;
        writeln!(out, "option name Clear Hash type button")?;
        writeln!(
            out,
            "option name MultiPV type spin default 1 min 1 max {MAX_LINES}"
        )?;
        for option in &info.options {
            writeln!(out, "{}", option_line(option))?;
        }
        writeln!(out, "{command}ok")
    }

    /// `setoption name NAME [value VALUE]`: `UCI_Variant` (one of the game's names), `Hash` (in
    /// megabytes; USI's `USI_Hash` too), `Clear Hash`, `MultiPV`, or one of the game's options.
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
        let spin = |low: u64, high: u64| -> Result<u64, String> {
            let number = parse_count(&value).map_err(|e| format!("{name}: {e}"))?;
            Ok(number.clamp(low, high))
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
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
            "hash" | "usi_hash" => match spin(1, MAX_HASH) {
                Ok(megabytes) => {
                    self.hash = megabytes;
                    Ok(())
                }
                Err(message) => error(out, &message),
            },
            "clear hash" => {
                self.new_game = true;
                Ok(())
            }
            "multipv" => match spin(1, MAX_LINES) {
                Ok(lines) => {
                    self.lines = lines as usize;
                    Ok(())
                }
                Err(message) => error(out, &message),
            },
            "usi_ponder" | "ponder" => Ok(()),
            _ => match super::with_option(&self.engine, &name, &value) {
                Ok(engine) => {
                    self.engine = Arc::new(engine);
                    self.position = self.engine.variant.start();
                    self.new_game = true;
                    Ok(())
                }
                Err(message) => error(out, &message),
            },
        }
    }

    /// `position startpos|fen FEN|sfen SFEN [moves M1 M2 ...]`; on error the position stays as it was.
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
            ["sfen", sfen @ ..] if !sfen.is_empty() => {
                let fen = sfen_to_fen(&sfen.join(" "));
                variant
                    .parse_position(&fen)
                    .map_err(|e| format!("bad SFEN: {e}"))?
            }
            _ => {
                return Err(
                    "expected `position startpos|fen FEN|sfen SFEN [moves M1 M2 ...]`".into(),
                )
            }
        };
        let moves: Vec<String> = moves.iter().map(|m| self.protocol_to_own(m)).collect();
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        play_all(variant, &position, &texts)
            .map(|(position, _)| position)
            .map_err(|text| format!("illegal move `{}`", self.to_protocol(&text)))
    }

    /// `go perft N`: counted on the search thread ([`Step::Perft`]), so that `stop` and `quit` end it.
    fn perft(&self, arguments: &[&str], out: &mut dyn Write) -> io::Result<Step<V>> {
        let depth = match arguments.get(1).map(|t| parse_count(t)) {
            Some(Ok(depth)) => depth.min(u64::from(MAX_DEPTH)) as u32,
            Some(Err(message)) => {
                error(out, &format!("go perft: {message}"))?;
                return Ok(Step::Continue);
            }
            None => {
                error(out, "go perft needs a depth")?;
                return Ok(Step::Continue);
            }
        };
        if depth == 0 {
            writeln!(out)?;
            writeln!(out, "Nodes searched: 1")?;
            return Ok(Step::Continue);
        }
        Ok(Step::Perft(self.position.clone(), depth))
    }

    /// `d`: the position drawn, its FEN (and SFEN) and its hash key.
    fn show(&self, out: &mut dyn Write) -> io::Result<()> {
        let variant = &self.engine.variant;
        write!(out, "{}", variant.render(&self.position))?;
        let fen = variant.write_position(&self.position);
        writeln!(out, "Fen: {fen}")?;
        if self.usi.is_some() {
            writeln!(out, "Sfen: {}", fen_to_sfen(&fen))?;
        }
        writeln!(out, "Key: {:016X}", variant.hash(&self.position))
    }

    /// Reads the limits of `go`. A bad parameter gets an error and is skipped: `go` always searches, so
    /// a GUI waiting for `bestmove` gets one.
    fn go(&mut self, arguments: &[&str], out: &mut dyn Write) -> io::Result<Request<V>> {
        let mut limits = Limits::default();
        let mut infinite = false;
        // Clock of each side: remaining time and increment, in milliseconds.
        let (mut time, mut increment) = ([None; 2], [0u64; 2]);
        let mut moves_to_go = None;
        let mut byoyomi = 0;
        let mut among = Vec::new();
        let usi = self.usi.is_some();
        // USI's `btime` is the first player's clock (sente, black in shogi's terms).
        let first = if usi { "b" } else { "w" };
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
            "byoyomi",
        ];
        let mut words = arguments.iter().peekable();
        while let Some(&word) = words.next() {
            if matches!(word, "infinite" | "ponder") {
                infinite = true;
                continue;
            }
            if word == "searchmoves" {
                while let Some(&&text) = words.peek() {
                    if known.contains(&text) || matches!(text, "infinite" | "ponder") {
                        break;
                    }
                    words.next();
                    let own = self.protocol_to_own(text);
                    let mut position = self.position.clone();
                    match self.engine.variant.parse_move(&mut position, &own) {
                        Ok(mv) => among.push(mv),
                        Err(_) => error(out, &format!("searchmoves: illegal move `{text}`"))?,
                    }
                }
                continue;
            }
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
                    // UCI counts a mate in moves, USI in plies.
                    let plies = if usi {
                        number
                    } else {
                        number.saturating_mul(2)
                    };
                    limits.depth = Some(plies.min(u64::from(MAX_DEPTH)) as u32)
                }
                "nodes" => limits.nodes = Some(number),
                "movetime" => limits.time = Some(Duration::from_millis(number)),
                "byoyomi" => byoyomi = number,
                "movestogo" => moves_to_go = Some(number.max(1)),
                clock => {
                    let side = usize::from(!clock.starts_with(first));
                    if clock.ends_with("time") {
                        time[side] = Some(number);
                    } else {
                        increment[side] = number;
                    }
                }
            }
        }
        let side = usize::from(self.engine.evaluator.side_to_move(&self.position) == 1);
        if limits.time.is_none() {
            if let Some(remaining) = time[side] {
                let mut budget = budget(remaining, increment[side], moves_to_go);
                if byoyomi > 0 {
                    // Byoyomi is spent first, the main time only beyond it.
                    budget += Duration::from_millis(byoyomi * 9 / 10);
                }
                limits.time = Some(budget);
            } else if byoyomi > 0 {
                limits.time = Some(Duration::from_millis((byoyomi * 9 / 10).max(1)));
            }
        }
        if infinite {
            limits = Limits::default();
        }
        self.unbounded = infinite;
        let report = if usi {
            usi_info_line::<V> as driver::Report<V>
        } else {
            info_line::<V>
        };
        Ok(Request {
            report: Some(report),
            lines: self.lines,
            among,
            memory: Some((self.hash as usize).saturating_mul(1 << 20)),
            ..Request::new(
                self.position.clone(),
                limits,
                std::mem::take(&mut self.new_game),
            )
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

/// `info depth D [multipv K] score cp X nodes N time T nps S pv M1 M2 ...`; mates in moves.
fn info_line<V: Variant>(
    variant: &V,
    position: &V::Position,
    iteration: &Iteration<'_, V::Move>,
    line: usize,
) -> String {
    info(variant, position, iteration, line, false)
}

/// The USI form of [`info_line`]: mates in plies.
fn usi_info_line<V: Variant>(
    variant: &V,
    position: &V::Position,
    iteration: &Iteration<'_, V::Move>,
    line: usize,
) -> String {
    info(variant, position, iteration, line, true)
}

fn info<V: Variant>(
    variant: &V,
    position: &V::Position,
    iteration: &Iteration<'_, V::Move>,
    line: usize,
    plies: bool,
) -> String {
    let score = match mate_plies(iteration.score) {
        Some(n) if plies => format!("mate {n}"),
        // UCI counts mates in moves, not plies: negative when the engine is getting mated.
        Some(n) => format!("mate {}", n.signum() * ((n.abs() + 1) / 2)),
        None => format!("cp {}", iteration.score),
    };
    let millis = iteration.elapsed.as_millis().max(1) as u64;
    let multipv = if line > 0 {
        format!(" multipv {line}")
    } else {
        String::new()
    };
    format!(
        "info depth {}{multipv} score {score} nodes {} time {} nps {} pv {}",
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

/// USI's square names: files numbered from the right (`9` is the leftmost of nine), ranks lettered
/// from the top (`a` is the last player's back rank); drops are written `P*5e`.
#[derive(Clone, Debug, Default)]
struct Usi {
    to_usi: HashMap<String, String>,
    to_game: HashMap<String, String>,
    longest_game: usize,
    longest_usi: usize,
}

impl Usi {
    fn new(info: &GameInfo) -> Usi {
        let mut usi = Usi::default();
        let Some((files, ranks)) = info.flat_board() else {
            return usi;
        };
        for cell in &info.cells {
            let (x, y) = (cell.coord[0], cell.coord[1]);
            let rank = u8::try_from(ranks as i32 - 1 - y).ok().filter(|r| *r < 26);
            let (Some(rank), true) = (rank, x >= 0 && x < files as i32) else {
                continue;
            };
            let name = format!("{}{}", files as i32 - x, (b'a' + rank) as char);
            usi.longest_game = usi.longest_game.max(cell.name.len());
            usi.longest_usi = usi.longest_usi.max(name.len());
            usi.to_game.insert(name.clone(), cell.name.clone());
            usi.to_usi.insert(cell.name.clone(), name);
        }
        usi
    }

    fn to_usi(&self, text: &str) -> String {
        replace_names(text, &self.to_usi, self.longest_game).replace('@', "*")
    }

    fn usi_to_own(&self, text: &str) -> String {
        replace_names(&text.replace('*', "@"), &self.to_game, self.longest_usi)
    }

    /// An `info` line with its moves in USI's names.
    fn line(&self, report: &str) -> String {
        match report.split_once(" pv ") {
            Some((head, pv)) => format!("{head} pv {}", self.to_usi(pv)),
            None => report.to_string(),
        }
    }
}

/// `text` with every name `names` knows replaced, the longest first at each place.
fn replace_names(text: &str, names: &HashMap<String, String>, longest: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'scan: while let Some(c) = rest.chars().next() {
        for len in (1..=longest.min(rest.len())).rev() {
            if let Some(name) = rest.get(..len).and_then(|n| names.get(n)) {
                out.push_str(name);
                rest = &rest[len..];
                continue 'scan;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// An SFEN (`lnsgkgsnl/... b S2Pp 1`) as the game's FEN: the first player (`b` in SFEN) is `w`, the
/// hands go in brackets, the ply number becomes a move number.
pub fn sfen_to_fen(sfen: &str) -> String {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let board = fields.first().copied().unwrap_or_default();
    let side = match fields.get(1).copied() {
        Some("w") => "b",
        _ => "w",
    };
    let mut hand = String::new();
    let mut count = 0usize;
    for c in fields.get(2).copied().unwrap_or("-").chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d as usize;
        } else if c.is_ascii_alphabetic() {
            for _ in 0..count.clamp(1, 64) {
                hand.push(c);
            }
            count = 0;
        }
    }
    let ply: u64 = fields.get(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    format!("{board}[{hand}] {side} - - 0 {}", ply.div_ceil(2).max(1))
}

/// A position in the game's FEN as SFEN.
pub fn fen_to_sfen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let placement = fields.first().copied().unwrap_or_default();
    let (board, hand) = match placement.split_once('[') {
        Some((board, hand)) => (board, hand.trim_end_matches(']')),
        None => (placement, ""),
    };
    let second = fields.get(1) == Some(&"b");
    let mut counts: Vec<(char, usize)> = Vec::new();
    for c in hand.chars().filter(char::is_ascii_alphabetic) {
        match counts.iter_mut().find(|(l, _)| *l == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    counts.sort_by_key(|(c, _)| c.is_ascii_lowercase());
    let hand: String = counts
        .iter()
        .map(|(c, n)| {
            if *n > 1 {
                format!("{n}{c}")
            } else {
                c.to_string()
            }
        })
        .collect();
    let fullmove: u64 = fields.last().and_then(|n| n.parse().ok()).unwrap_or(1);
    let ply = 2 * (fullmove.max(1) - 1) + 1 + u64::from(second);
    format!(
        "{board} {} {} {ply}",
        if second { "w" } else { "b" },
        if hand.is_empty() { "-" } else { &hand }
    )
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

    #[test]
    fn sfen_and_fen() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1";
        assert_eq!(
            fen_to_sfen(start),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
        let later = "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bpp] b - - 1 3";
        let sfen = fen_to_sfen(later);
        assert_eq!(
            sfen,
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B2p 6"
        );
        assert_eq!(
            sfen_to_fen(&sfen),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bpp] b - - 0 3"
        );
    }
}
