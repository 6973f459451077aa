//! The search notices a stop and its deadline at once, however slow its nodes are: it reads the stop
//! flag at every node and the clock about once a millisecond, not after a fixed number of nodes. The
//! game is chess behind a wrapper that counts move generations (and can make each one slow).
//!
//! The protocols' long commands (`go perft N`) run on the search thread: `stop`, `quit` and the end of
//! input end them, on the interpreter, a compact engine and a hook-form engine. Those tests measure
//! only that the session ends and what it wrote, under a generous watchdog.

use std::cell::Cell;
use std::io::{BufReader, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use vdl_runtime::protocol::{self, EndOfInput, Engine};
use vdl_runtime::search::{Evaluator, Limits, Searcher};
use vdl_runtime::{GameResult, Interpreter, TextError, Variant};
use vdl_tests::{read_text, workspace_root};

type Position = <Interpreter as Variant>::Position;
type Move = <Interpreter as Variant>::Move;

/// Chess that counts its move generations, raises `stop` at generation `stop_at`, and sleeps `delay`
/// in each one.
struct Watched<'a> {
    chess: Interpreter,
    stop: &'a AtomicBool,
    stop_at: u64,
    delay: Duration,
    generations: Cell<u64>,
}

impl Variant for Watched<'_> {
    type Position = Position;
    type Move = Move;
    type Undo = <Interpreter as Variant>::Undo;

    fn start(&self) -> Position {
        self.chess.start()
    }
    fn legal_moves(&self, position: &mut Position, moves: &mut Vec<Move>) {
        let n = self.generations.get() + 1;
        self.generations.set(n);
        if n == self.stop_at {
            self.stop.store(true, Ordering::Relaxed);
        }
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        self.chess.legal_moves(position, moves);
    }
    fn make(&self, position: &mut Position, mv: Move) -> Self::Undo {
        self.chess.make(position, mv)
    }
    fn unmake(&self, position: &mut Position, mv: Move, undo: Self::Undo) {
        self.chess.unmake(position, mv, undo);
    }
    fn outcome(&self, position: &mut Position) -> Option<GameResult> {
        self.chess.outcome(position)
    }
    fn hash(&self, position: &Position) -> u64 {
        self.chess.hash(position)
    }
    fn full_hash(&self, position: &Position) -> u64 {
        self.chess.full_hash(position)
    }
    fn parse_position(&self, text: &str) -> Result<Position, TextError> {
        self.chess.parse_position(text)
    }
    fn write_position(&self, position: &Position) -> String {
        self.chess.write_position(position)
    }
    fn write_move(&self, position: &Position, mv: Move) -> String {
        self.chess.write_move(position, mv)
    }
}

/// Every position scores 0: the search then has no cut-offs to finish early.
struct Flat;

impl Evaluator<Watched<'_>> for Flat {
    fn players(&self) -> usize {
        2
    }
    fn side_to_move(&self, position: &Position) -> usize {
        position.side
    }
    fn material(&self, _position: &Position, _player: usize) -> i32 {
        0
    }
}

fn chess() -> Interpreter {
    let source = read_text(&workspace_root().join("examples/chess.vdl"));
    let game = vdl_dsl::check::check_source(&source)
        .game
        .expect("chess checks");
    Interpreter::new(game).expect("chess loads")
}

/// The start position.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Searches chess from `fen` until stopped; returns how many move generations there were.
fn generations(fen: &str, stop_at: u64, delay: Duration, limits: &Limits) -> u64 {
    let stop = AtomicBool::new(false);
    let watched = Watched {
        chess: chess(),
        stop: &stop,
        stop_at,
        delay,
        generations: Cell::new(0),
    };
    let start = watched.parse_position(fen).expect("a chess position");
    let result = Searcher::new().search(&watched, &Flat, &start, limits, &stop, &mut |_| {});
    assert!(
        result.best.is_some(),
        "a stopped search still answers a move"
    );
    watched.generations.get()
}

#[test]
fn a_stop_is_noticed_at_the_next_node() {
    for stop_at in [2, 10, 100, 300] {
        let seen = generations(START, stop_at, Duration::ZERO, &Limits::default());
        // The node that raised the flag finishes its move list; the next node stops.
        assert!(
            seen <= stop_at + 1,
            "stop raised at generation {stop_at}, search went on to {seen}"
        );
    }
}

#[test]
fn the_deadline_is_noticed_with_slow_nodes() {
    // Three queens: about 50 moves, so the first iteration has about 50 nodes (a generation each, and
    // one for the root). At 2 ms or more a node, a 20 ms search notices its deadline after at most 11
    // of them. Reading the clock only every 256 nodes, it would finish the whole iteration first.
    let seen = generations(
        "k7/8/8/8/8/8/8/1QQQK3 w - - 0 1",
        u64::MAX,
        Duration::from_millis(2),
        &Limits::time(Duration::from_millis(20)),
    );
    assert!(
        seen <= 15,
        "{seen} move generations in a 20 ms search of 2 ms nodes"
    );
}

#[allow(unused, clippy::all)]
mod game_chess {
    include!(concat!(env!("OUT_DIR"), "/game_chess.rs"));
}

#[allow(unused, clippy::all)]
mod game_janggi {
    include!(concat!(env!("OUT_DIR"), "/game_janggi.rs"));
}

/// How long a session may take to end after the line or the end of input that ends it. The engines
/// take milliseconds; a perft of 40 plies would take forever.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Output shared with the test while a session writes it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .expect("not poisoned")
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("not poisoned")).into_owned()
    }

    /// Waits until the output has a line starting with `line`; fails after the watchdog.
    fn wait_for(&self, line: &str) {
        let started = Instant::now();
        while !self.text().lines().any(|l| l.starts_with(line)) {
            assert!(
                started.elapsed() < WATCHDOG,
                "no `{line}` in the output: {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A session of `mode` running on its own thread, fed through a pipe the test writes to.
struct Running {
    input: Option<std::io::PipeWriter>,
    output: Shared,
    ended: mpsc::Receiver<()>,
}

impl Running {
    fn start<V, E>(engine: Engine<V, E>, mode: &'static str) -> Running
    where
        V: Variant + Clone + Send + Sync + 'static,
        V::Position: Send,
        V::Move: Send + 'static,
        E: Evaluator<V> + Clone + Send + Sync + 'static,
    {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        let output = Shared::default();
        let (done, ended) = mpsc::channel();
        let out = output.clone();
        std::thread::spawn(move || {
            protocol::run_mode(&engine, mode, BufReader::new(reader), out)
                .expect("a mode")
                .expect("the session runs");
            let _ = done.send(());
        });
        Running {
            input: Some(writer),
            output,
            ended,
        }
    }

    fn send(&mut self, lines: &str) {
        let input = self.input.as_mut().expect("input open");
        input
            .write_all(lines.as_bytes())
            .expect("the session reads");
    }

    /// Closes the input.
    fn close(&mut self) {
        self.input = None;
    }

    /// Waits for the session to end; fails after the watchdog. Returns its output.
    fn ended(self) -> String {
        let ended = self.ended.recv_timeout(WATCHDOG);
        let text = self.output.text();
        assert!(ended.is_ok(), "the session still runs: {text:?}");
        text
    }
}

/// The three forms of chess-like engines: the interpreter, the compact form, the hook form (Janggi,
/// which has no compact form: the interpreter with compiled generation plugged in).
fn each_form(check: impl Fn(&str, &mut dyn FnMut(&'static str) -> Running)) {
    check("interpreted chess", &mut |mode| {
        Running::start(Engine::from_interpreter(chess()), mode)
    });
    check("compact chess", &mut |mode| {
        Running::start(
            Engine::from_compact(game_chess::compact::fast_engine().expect("chess builds")),
            mode,
        )
    });
    check("hook-form janggi", &mut |mode| {
        Running::start(
            Engine::from_interpreter(game_janggi::engine().expect("janggi builds")),
            mode,
        )
    });
}

const STOPPED: &str = "info string perft stopped";

#[test]
fn the_end_of_input_ends_a_perft() {
    each_form(|name, start| {
        for mode in ["uci", "usi"] {
            let mut session = start(mode);
            session.send(&format!("{mode}\ngo perft 40\n"));
            session.close();
            let text = session.ended();
            assert!(text.contains(STOPPED), "{name} {mode}: {text:?}");
            assert!(!text.contains("Nodes searched"), "{name} {mode}: {text:?}");
        }
    });
}

#[test]
fn stop_ends_a_perft_and_the_session_goes_on() {
    each_form(|name, start| {
        let mut session = start("uci");
        session.send("uci\ngo perft 40\n");
        std::thread::sleep(Duration::from_millis(50));
        // `isready` is answered during the count, `stop` ends it, and the next count runs in full.
        session.send("isready\nstop\ngo perft 2\nisready\n");
        session.output.wait_for("Nodes searched: ");
        session.send("quit\n");
        // The input stays open: `quit` alone ends the session.
        let text = session.ended();
        let stopped = text.find(STOPPED);
        let counted = text.find("Nodes searched: ");
        assert!(stopped.is_some() && stopped < counted, "{name}: {text:?}");
        assert_eq!(text.matches("readyok").count(), 2, "{name}: {text:?}");
        assert_eq!(
            text.matches("Nodes searched").count(),
            1,
            "{name}: {text:?}"
        );
    });
}

#[test]
fn quit_ends_a_perft_with_the_input_still_open() {
    each_form(|name, start| {
        let mut session = start("uci");
        session.send("uci\nposition startpos moves e2e4\ngo perft 40\n");
        session.output.wait_for("uciok");
        std::thread::sleep(Duration::from_millis(50));
        session.send("quit\n");
        let text = session.ended();
        assert!(text.contains(STOPPED), "{name}: {text:?}");
    });
}

#[test]
fn a_perft_with_a_script_that_finishes_searches_runs_to_its_end() {
    // With `EndOfInput::Finish`, a count whose script has ended completes: it has a depth.
    let mut engine = Engine::from_interpreter(chess());
    engine.end_of_input = EndOfInput::Finish;
    let mut session = Running::start(engine, "uci");
    session.send("uci\ngo perft 3\n");
    session.close();
    let text = session.ended();
    assert!(text.contains("Nodes searched: 8902"), "{text:?}");
}

/// Two-leg rook riders (`RaR`: a rook move, then another from where it ends) on a 16x16 board: every
/// move of theirs is one of about 900 paths, and one move generation walks them all.
fn riders() -> Interpreter {
    let source = "game riders\nboard main 16x16\nplayer white\nplayer black\n\
        piece king { letter \"K\"; moves \"K\"; royal }\n\
        piece rider { letter \"R\"; moves \"RaR\" }\n\
        setup \"15k/16/16/10R5/16/16/2R10R2/16/16/13R2/16/4R11/10R5/16/16/K15 w - - 0 1\"\n\
        end { checkmate win; stalemate draw }\n";
    let game = vdl_dsl::check::check_source(source)
        .game
        .expect("the riders check");
    Interpreter::new(game).expect("the riders load")
}

/// Generates the legal moves of `position` inside `watch`.
fn generated(
    game: &Interpreter,
    position: &Position,
    watch: impl FnOnce(&mut dyn FnMut()),
) -> Vec<Move> {
    let mut moves = Vec::new();
    watch(&mut || game.legal_moves(&mut position.clone(), &mut moves));
    moves
}

#[test]
fn a_stop_cuts_a_long_move_generation_short_and_keeps_a_legal_move() {
    use vdl_runtime::interrupt;
    let game = riders();
    let position = game.start();
    let all = generated(&game, &position, |generate| generate());
    assert!(all.len() > 1000, "{} moves", all.len());
    let raised = Arc::new(AtomicBool::new(true));
    let lowered = Arc::new(AtomicBool::new(false));
    let cut_by_stop = generated(&game, &position, |generate| {
        interrupt::watching(Arc::clone(&raised), generate)
    });
    let cut_by_deadline = generated(&game, &position, |generate| {
        interrupt::until(Some(Instant::now()), generate)
    });
    for cut in [&cut_by_stop, &cut_by_deadline] {
        assert!(
            !cut.is_empty() && cut.len() < all.len(),
            "{} of {} moves",
            cut.len(),
            all.len()
        );
        assert!(cut.iter().all(|mv| all.contains(mv)), "only legal moves");
    }
    // Watched but not raised, or with a deadline to come: every move.
    let watched = generated(&game, &position, |generate| {
        interrupt::watching(Arc::clone(&lowered), generate)
    });
    let in_time = generated(&game, &position, |generate| {
        interrupt::until(
            Instant::now().checked_add(Duration::from_secs(3600)),
            generate,
        )
    });
    assert_eq!(watched, all);
    assert_eq!(in_time, all);
    // A search stopped before it starts still answers with a legal move.
    let evaluator = vdl_runtime::search::MaterialEvaluator::new(&game.game);
    let result = interrupt::watching(Arc::clone(&raised), || {
        Searcher::new().search(
            &game,
            &evaluator,
            &position,
            &Limits::default(),
            &raised,
            &mut |_| {},
        )
    });
    assert!(
        result.best.is_some_and(|mv| all.contains(&mv)),
        "{result:?}"
    );
}
