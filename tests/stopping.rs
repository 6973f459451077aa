//! The search notices a stop and its deadline at once, however slow its nodes are: it reads the stop
//! flag at every node and the clock about once a millisecond, not after a fixed number of nodes. The
//! game is chess behind a wrapper that counts move generations (and can make each one slow).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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
