//! `vdl match`: a referee that plays games between players (XBoard engines, the built-in search, or a
//! random mover) on any rule file, judging every move and every result with the reference interpreter.
//!
//! Each game starts from the start position, optionally after a few random opening plies shared by a
//! group of games, with the players rotating through the seats, so that for two players each opening
//! is played once with each colour. The referee keeps the clocks: an engine that exceeds its time,
//! sends an illegal move, stops answering or crashes loses the game, and the record says which.
//!
//! A result the rules let a player claim (a third repetition, the move rule) ends the game at once.
//!
//! XBoard engines are driven in force mode: before its turn an engine receives the moves played since
//! it last moved, then `time`, `otim` and `go`; after its `move`, `force`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use vdl_runtime::search::{Limits, MaterialEvaluator, Searcher};
use vdl_runtime::{Interpreter, Variant};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Uniformly random legal moves.
    Random,
    /// The runtime's search on the interpreter, in this process.
    Search,
    /// An external engine speaking XBoard (CECP v2), started with this shell command.
    XBoard(String),
}

impl PlayerSpec {
    /// Reads `random`, `search` or `xboard:COMMAND`.
    ///
    /// # Errors
    ///
    /// Returns a message for anything else.
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        match text {
            "random" => Ok(PlayerSpec::Random),
            "search" => Ok(PlayerSpec::Search),
            _ => match text.strip_prefix("xboard:") {
                Some(command) if !command.trim().is_empty() => {
                    Ok(PlayerSpec::XBoard(command.trim().to_string()))
                }
                _ => Err(format!(
                    "a player is `random`, `search` or `xboard:COMMAND`, not `{text}`"
                )),
            },
        }
    }

    /// A short name for reports.
    pub fn label(&self) -> String {
        match self {
            PlayerSpec::Random => "random".into(),
            PlayerSpec::Search => "search".into(),
            PlayerSpec::XBoard(command) => command.clone(),
        }
    }
}

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The players; game `g` gives seat `s` to player `(s + g) % players`.
    pub players: Vec<PlayerSpec>,
    /// The number of games.
    pub games: usize,
    /// The seed of the random openings and the random players.
    pub seed: u64,
    /// Random plies played before the players take over; each opening serves one round of seats.
    pub opening_plies: usize,
    /// Each player's time for the game.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// A depth limit: the in-process search then ignores the clock; XBoard engines get `sd`.
    pub depth: Option<u32>,
    /// A fixed time per move instead of a game clock: XBoard engines get `st`, and a move that takes
    /// more than twice this plus two seconds loses on time.
    pub move_time: Option<Duration>,
    /// Games still going after this many plies are drawn by adjudication.
    pub max_plies: usize,
    /// The variant name sent to XBoard engines (default: the engine protocol's name of the game).
    pub variant: Option<String>,
    /// Engine options (`NAME=VALUE`: the rule file's options under their engine names, and any
    /// given for the engines), each sent to the XBoard engines that offer an option of that name.
    pub options: Vec<(String, String)>,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// For each seat, the index of the player in it.
    pub seats: Vec<usize>,
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Why the game ended (`checkmate`, `time forfeit by ...`, `adjudication after 400 plies`).
    pub reason: String,
    /// Whether the result comes from a fault (illegal move, time, crash) rather than the rules.
    pub fault: Option<usize>,
    /// The moves played, in the game's notation.
    pub moves: Vec<String>,
    /// Each seat's points, when the game ended by its rules and scores games (`scoring`).
    pub points: Option<Vec<f64>>,
}

/// A simple seeded generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// An XBoard engine process.
struct XBoardEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    usermove: bool,
    options: Vec<String>,
    /// Moves played since the engine last heard of the game.
    unsent: Vec<String>,
    /// The last `ping` number sent.
    pings: u32,
}

impl XBoardEngine {
    fn start(command: &str) -> Result<XBoardEngine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine input")?;
        let stdout = child.stdout.take().ok_or("no engine output")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = XBoardEngine {
            child,
            stdin,
            lines,
            usermove: false,
            options: Vec::new(),
            unsent: Vec::new(),
            pings: 0,
        };
        engine.send("xboard\nprotover 2")?;
        // Features until `done=1`; an engine that never says it is done gets two seconds.
        let deadline = Instant::now() + Duration::from_secs(2);
        while let Some(line) = engine.line_until(deadline)? {
            if !line.starts_with("feature") {
                continue;
            }
            engine.usermove |= line.contains("usermove=1");
            for (at, _) in line.match_indices("option=\"") {
                let rest = &line[at + 8..];
                let name = rest.split(" -").next().unwrap_or_default();
                engine.options.push(name.to_string());
            }
            if line.contains("done=1") {
                break;
            }
        }
        Ok(engine)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine stopped reading ({e})"))
    }

    /// The next line before `deadline`, `None` at the deadline, or an error when the engine has gone.
    fn line_until(&mut self, deadline: Instant) -> Result<Option<String>, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(Some(line)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err("the engine exited".into()),
        }
    }

    fn new_game(&mut self, config: &MatchConfig, variant: &str) -> Result<(), String> {
        self.unsent.clear();
        self.send("new")?;
        if variant != "normal" {
            self.send(&format!("variant {variant}"))?;
        }
        for (name, value) in &config.options {
            if self.options.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                self.send(&format!("option {name}={value}"))?;
            }
        }
        if let Some(time) = config.move_time {
            // `st` takes whole seconds.
            self.send(&format!("st {}", time.as_secs().max(1)))?;
        } else {
            let seconds = config.base.as_secs();
            self.send(&format!(
                "level 0 {}:{:02} {}",
                seconds / 60,
                seconds % 60,
                config.increment.as_secs_f64()
            ))?;
        }
        if let Some(depth) = config.depth {
            self.send(&format!("sd {depth}"))?;
        }
        self.send("force\npost")?;
        self.synchronise()
    }

    /// Sends `ping` and drops every line until the `pong`, so that nothing left over from an earlier
    /// game (a move sent after a claim) is read as an answer in this one.
    fn synchronise(&mut self) -> Result<(), String> {
        self.pings += 1;
        let ping = self.pings;
        self.send(&format!("ping {ping}"))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        let expected = format!("pong {ping}");
        while let Some(line) = self.line_until(deadline)? {
            if line.trim() == expected {
                return Ok(());
            }
        }
        Err("no answer to ping".into())
    }

    fn quit(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player's answer to "your move".
enum Answer {
    Move(String),
    Resign,
    Claim(String),
    Fault(String),
}

/// Plays a match, calling `on_game` after each game; returns every game's record.
///
/// # Errors
///
/// Returns a message when a player cannot be started or the configuration does not fit the game.
pub fn play_match(
    interpreter: &Interpreter,
    config: &MatchConfig,
    mut on_game: impl FnMut(usize, &GameRecord),
) -> Result<Vec<GameRecord>, String> {
    let seats = interpreter
        .game
        .players
        .iter()
        .filter(|p| !p.neutral)
        .count();
    if config.players.len() != seats {
        return Err(format!(
            "the game has {seats} players; {} were given",
            config.players.len()
        ));
    }
    let info = vdl_runtime::protocol::GameInfo::new(&interpreter.game);
    let variant_name = config
        .variant
        .clone()
        .unwrap_or_else(|| vdl_runtime::protocol::xboard::variant_name(&info));
    let mut engines: Vec<Option<XBoardEngine>> = Vec::new();
    for spec in &config.players {
        engines.push(match spec {
            PlayerSpec::XBoard(command) => Some(XBoardEngine::start(command)?),
            _ => None,
        });
    }
    let evaluator = MaterialEvaluator::new(&interpreter.game);
    let mut searchers: Vec<Searcher<_>> = config.players.iter().map(|_| Searcher::new()).collect();
    let mut rng = Rng(config.seed);
    let mut records = Vec::new();
    let mut opening: Vec<String> = Vec::new();
    for game in 0..config.games {
        if game % seats == 0 {
            opening = random_opening(interpreter, config.opening_plies, &mut rng);
        }
        let seat_players: Vec<usize> = (0..seats).map(|s| (s + game) % seats).collect();
        for (player, engine) in engines.iter_mut().enumerate() {
            if let Some(engine) = engine {
                if let Err(message) = engine.new_game(config, &variant_name) {
                    return Err(format!("{}: {message}", config.players[player].label()));
                }
            }
        }
        for searcher in &mut searchers {
            searcher.clear();
        }
        let record = play_game(
            interpreter,
            config,
            &evaluator,
            &seat_players,
            &opening,
            &mut engines,
            &mut searchers,
            &mut rng,
        );
        on_game(game, &record);
        records.push(record);
    }
    for engine in engines.iter_mut().flatten() {
        engine.quit();
    }
    Ok(records)
}

fn random_opening(interpreter: &Interpreter, plies: usize, rng: &mut Rng) -> Vec<String> {
    let mut position = interpreter.start();
    let mut texts = Vec::new();
    for _ in 0..plies {
        if interpreter.outcome(&mut position).is_some() {
            break;
        }
        let mut moves = Vec::new();
        interpreter.legal_moves(&mut position, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        texts.push(interpreter.write_protocol_move(&position, mv));
        interpreter.make(&mut position, mv);
    }
    texts
}

#[allow(clippy::too_many_arguments)]
fn play_game(
    interpreter: &Interpreter,
    config: &MatchConfig,
    evaluator: &MaterialEvaluator,
    seat_players: &[usize],
    opening: &[String],
    engines: &mut [Option<XBoardEngine>],
    searchers: &mut [Searcher<vdl_runtime::interp::Move>],
    rng: &mut Rng,
) -> GameRecord {
    let mut position = interpreter.start();
    let mut record = GameRecord {
        seats: seat_players.to_vec(),
        winner: None,
        reason: String::new(),
        fault: None,
        moves: Vec::new(),
        points: None,
    };
    let mut clocks = vec![config.base; seat_players.len()];
    for text in opening {
        let Ok(mv) = interpreter.parse_move(&mut position, text) else {
            break;
        };
        interpreter.make(&mut position, mv);
        record.moves.push(text.clone());
        for engine in engines.iter_mut().flatten() {
            engine.unsent.push(text.clone());
        }
    }
    loop {
        if let Some(result) = interpreter.outcome(&mut position) {
            record.points = interpreter.scores(&position, &result);
            record.winner = result.winner;
            record.reason = result.reason;
            return record;
        }
        // A draw (or win) a player could claim is taken at once, as a GUI would on a claim.
        if let Some(result) = interpreter.claimable(&position) {
            record.points = interpreter.scores(&position, &result);
            record.winner = result.winner;
            record.reason = format!("{} (claimed)", result.reason);
            return record;
        }
        if record.moves.len() >= config.max_plies {
            record.reason = format!("adjudication after {} plies", config.max_plies);
            return record;
        }
        let seat = position.side;
        let player = seat_players[seat];
        let opponent_clock = clocks
            .iter()
            .enumerate()
            .find(|(s, _)| *s != seat)
            .map(|(_, c)| *c)
            .unwrap_or_default();
        if let Some(time) = config.move_time {
            // Each move has the same time; the clocks do not carry over. A busy machine makes
            // engines overrun a little: only twice the time plus two seconds loses.
            clocks = vec![time * 2 + Duration::from_secs(2); seat_players.len()];
        }
        let started = Instant::now();
        let answer = match (&config.players[player], engines[player].as_mut()) {
            (PlayerSpec::XBoard(_), Some(engine)) => {
                // Under a fixed time per move, the clocks an engine is told are that time, so that
                // engines that plan by `time` keep to it.
                let (own, other) = match config.move_time {
                    Some(time) => (time, time),
                    None => (clocks[seat], opponent_clock),
                };
                xboard_turn(engine, own, other, clocks[seat], interpreter, &position)
            }
            (PlayerSpec::Search, _) => {
                let limits = match config.depth {
                    Some(depth) => Limits::depth(depth),
                    None => match config.move_time {
                        Some(time) => Limits::time(time),
                        None => Limits::time(clocks[seat] / 30 + config.increment * 9 / 10),
                    },
                };
                let found = searchers[player].search(
                    interpreter,
                    evaluator,
                    &position,
                    &limits,
                    &AtomicBool::new(false),
                    &mut |_| {},
                );
                match found.best {
                    Some(mv) => Answer::Move(interpreter.write_protocol_move(&position, mv)),
                    None => Answer::Fault("the search found no move".into()),
                }
            }
            _ => {
                let mut moves = Vec::new();
                interpreter.legal_moves(&mut position, &mut moves);
                let mv = moves[rng.below(moves.len())];
                Answer::Move(interpreter.write_protocol_move(&position, mv))
            }
        };
        let spent = started.elapsed();
        // Random movers have no clock; neither has the search at a fixed depth.
        let timed = match config.players[player] {
            PlayerSpec::Random => false,
            PlayerSpec::Search => config.depth.is_none(),
            PlayerSpec::XBoard(_) => true,
        };
        let label = config.players[player].label();
        let forfeit = |record: &mut GameRecord, why: String| {
            record.fault = Some(seat);
            record.winner = (seat_players.len() == 2).then_some(1 - seat);
            record.reason = why;
        };
        if timed && spent > clocks[seat] {
            forfeit(
                &mut record,
                format!(
                    "time forfeit by {label} ({:.2} s used, {:.2} s left)",
                    spent.as_secs_f64(),
                    clocks[seat].as_secs_f64()
                ),
            );
            return record;
        }
        clocks[seat] = clocks[seat].saturating_sub(spent) + config.increment;
        match answer {
            Answer::Move(text) => match interpreter.parse_move(&mut position, &text) {
                Ok(mv) => {
                    interpreter.make(&mut position, mv);
                    record.moves.push(text.clone());
                    for (other, engine) in engines.iter_mut().enumerate() {
                        if let Some(engine) = engine {
                            if other != player {
                                engine.unsent.push(text.clone());
                            }
                        }
                    }
                }
                Err(_) => {
                    forfeit(&mut record, format!("illegal move {text} by {label}"));
                    return record;
                }
            },
            Answer::Resign => {
                forfeit(&mut record, format!("{label} resigns"));
                record.fault = None;
                return record;
            }
            Answer::Claim(claim) => {
                // A claim the rules do not confirm (the game is not over): recorded, drawn.
                record.reason = format!("unconfirmed claim by {label}: {claim}");
                return record;
            }
            Answer::Fault(why) => {
                forfeit(&mut record, format!("{label}: {why}"));
                return record;
            }
        }
    }
}

/// One turn of an XBoard engine: the moves it has not heard of, the clocks (`own` and `other`), `go`,
/// then its move, waited for until `allowed` (and a second) has passed.
fn xboard_turn(
    engine: &mut XBoardEngine,
    own: Duration,
    other: Duration,
    allowed: Duration,
    interpreter: &Interpreter,
    position: &vdl_runtime::interp::Position,
) -> Answer {
    let mut script = Vec::new();
    for text in std::mem::take(&mut engine.unsent) {
        script.push(if engine.usermove {
            format!("usermove {text}")
        } else {
            text
        });
    }
    script.push(format!(
        "time {}\notim {}\ngo",
        own.as_millis() / 10,
        other.as_millis() / 10
    ));
    if let Err(e) = engine.send(&script.join("\n")) {
        return Answer::Fault(e);
    }
    // A little grace beyond the clock so that a late move is judged as a time forfeit, not silence.
    let deadline = Instant::now() + allowed + Duration::from_secs(1);
    loop {
        let line = match engine.line_until(deadline) {
            Ok(Some(line)) => line,
            Ok(None) => return Answer::Fault("no move in time".into()),
            Err(e) => return Answer::Fault(e),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["move", text] => {
                let _ = engine.send("force");
                return Answer::Move((*text).to_string());
            }
            ["resign", ..] => return Answer::Resign,
            ["Illegal", "move", ..] | ["Illegal", "move:", ..] => {
                return Answer::Fault(format!("rejected a legal move ({line})"))
            }
            [first, ..] if ["1-0", "0-1", "1/2-1/2"].contains(first) => {
                let mut probe = position.clone();
                if interpreter.outcome(&mut probe).is_none() {
                    return Answer::Claim(line.clone());
                }
            }
            _ => {}
        }
    }
}

/// Wins, draws and losses per player.
pub fn tallies(records: &[GameRecord], players: usize) -> Vec<[usize; 3]> {
    let mut counts = vec![[0usize; 3]; players];
    for record in records {
        for (seat, &player) in record.seats.iter().enumerate() {
            let column = match record.winner {
                Some(w) if w == seat => 0,
                None => 1,
                Some(_) => 2,
            };
            counts[player][column] += 1;
        }
    }
    counts
}

/// Points per player: 1 for a win, 1/2 each for a two-player draw, `1/n` each for an n-player draw;
/// when the game says `scoring { series sum }`, the sum of the games' scores instead, for games that
/// ended by the rules.
pub fn scores(records: &[GameRecord], players: usize, game: &vdl_runtime::Game) -> Vec<f64> {
    let series_sum = game.scoring.as_ref().is_some_and(|s| s.series_sum);
    let mut points = vec![0.0; players];
    for record in records {
        if let (true, Some(game_points)) = (series_sum, &record.points) {
            for (seat, &player) in record.seats.iter().enumerate() {
                points[player] += game_points.get(seat).copied().unwrap_or(0.0);
            }
            continue;
        }
        match record.winner {
            Some(seat) => points[record.seats[seat]] += 1.0,
            None => {
                for &player in &record.seats {
                    points[player] += 1.0 / record.seats.len() as f64;
                }
            }
        }
    }
    points
}
