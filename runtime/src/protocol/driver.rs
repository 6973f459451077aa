//! The loop every protocol shares. Input lines are read on their own thread and the search runs on
//! another; both send events to the loop, which hands lines to the protocol's [`Handler`] and writes
//! everything, so output is never interleaved.
//!
//! While a search runs, each incoming line first goes to [`Handler::interrupt`], which may answer it at
//! once (UCI `isready`), stop the search (`stop`, `quit`, XBoard `?`) or leave it for later; lines left
//! for later are handled in order once the search has finished, so a script sees the same replies
//! whatever the timing.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::{self, Scope};

use super::{EndOfInput, Engine};
use std::time::Instant;

use crate::search::{Evaluator, Iteration, Limits, SearchResult, Searcher, MAX_DEPTH};
use crate::variant::Variant;

/// What a handler asks for after a command.
pub(super) enum Step<V: Variant> {
    /// Nothing more: read the next line.
    Continue,
    /// Start a search.
    Search(Request<V>),
    /// Count the move paths of a position, per root move (UCI's `go perft N`), on the search thread:
    /// `stop`, `quit` and the end of input end it like a search without limits.
    Perft(V::Position, u32),
    /// End the session.
    Quit,
}

/// A search to start.
pub(super) struct Request<V: Variant> {
    /// The position to search.
    pub position: V::Position,
    /// When to stop.
    pub limits: Limits,
    /// Whether to forget earlier searches first (a new game).
    pub new_game: bool,
    /// Formats a line about each completed iteration, if the protocol shows them.
    pub report: Option<Report<V>>,
    /// How many best lines to search and report (UCI's MultiPV): 1 searches as usual.
    pub lines: usize,
    /// The root moves to search (UCI's `searchmoves`); empty: all.
    pub among: Vec<V::Move>,
    /// The transposition table's size in bytes, when the session chose one.
    pub memory: Option<usize>,
}

impl<V: Variant> Request<V> {
    /// A search of `position` within `limits`, with one line and the table as it is.
    pub fn new(position: V::Position, limits: Limits, new_game: bool) -> Request<V> {
        Request {
            position,
            limits,
            new_game,
            report: None,
            lines: 1,
            among: Vec::new(),
            memory: None,
        }
    }
}

/// Formats a line about a completed iteration, given the root position and the line's number: 0 for a
/// search of one line, else 1 for the best line, 2, 3 ... for the others (MultiPV).
pub(super) type Report<V> =
    fn(&V, &<V as Variant>::Position, &Iteration<'_, <V as Variant>::Move>, usize) -> String;

/// What to do with a line that arrives while a search runs.
pub(super) enum Interrupt {
    /// Handle it after the search.
    Later,
    /// It has been dealt with.
    Handled,
    /// Stop the search, then handle the line.
    Stop,
}

/// A protocol's replies to commands.
pub(super) trait Handler<V: Variant, E> {
    /// The engine as the session has configured it (options change it), for the next search.
    fn engine(&self) -> Arc<Engine<V, E>>;
    /// Handles a command line while no search runs.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Step<V>>;
    /// Decides what to do with a line that arrives while a search runs.
    fn interrupt(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Interrupt>;
    /// Receives the result of a search that has ended.
    fn finished(&mut self, result: SearchResult<V::Move>, out: &mut dyn Write) -> io::Result<()>;
    /// Receives the counts of a [`Step::Perft`] that has ended: per root move (its text and count, in
    /// generation order), and whether every root move was counted (`false`: it was stopped).
    fn counted(
        &mut self,
        _counts: Vec<(String, u64)>,
        _complete: bool,
        _out: &mut dyn Write,
    ) -> io::Result<()> {
        Ok(())
    }
    /// Writes what is still owed when the input has ended and nothing runs (UCI: a `bestmove` held
    /// for a `stop` that will not come).
    fn at_end(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// The text to write for a report of the running search (XBoard renames its squares).
    fn relay(&self, report: String) -> String {
        report
    }
}

/// What the reader and search threads tell the loop.
enum Event<M> {
    Line(String),
    EndOfInput,
    Report(String),
    Done(Searcher<M>, SearchResult<M>),
    Counted(Vec<(String, u64)>, bool),
}

/// Runs a session: reads lines until `quit` or the end of input, handling them with `handler`. At the
/// end of input every search is stopped at once, or with [`EndOfInput::Finish`] only a search without
/// limits; lines read before the end are still handled.
pub(super) fn drive<V, E, R, W, H>(input: R, mut output: W, handler: &mut H) -> io::Result<()>
where
    V: Variant + Send + Sync,
    V::Position: Send,
    V::Move: Send + 'static,
    E: Evaluator<V> + Send + Sync,
    R: BufRead + Send + 'static,
    W: Write,
    H: Handler<V, E>,
{
    let (sender, receiver) = mpsc::channel();
    spawn_reader(input, sender.clone())?;
    let stop = Arc::new(AtomicBool::new(false));
    thread::scope(|scope| {
        let mut session = Session {
            scope,
            sender,
            stop: Arc::clone(&stop),
            _env: std::marker::PhantomData,
            searcher: Some(Searcher::new()),
            memory: None,
            searching: None,
            at_end: false,
        };
        let result = session.run(&receiver, &mut output, handler);
        // Leaving the scope waits for the search thread: make it end at once.
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// The loop's state.
struct Session<'scope, 'env, V: Variant> {
    scope: &'scope Scope<'scope, 'env>,
    sender: Sender<Event<V::Move>>,
    /// Raised to stop the running search; its threads also watch it inside a move generation
    /// (`crate::interrupt`), so that one slow generation does not delay a stop.
    stop: Arc<AtomicBool>,
    _env: std::marker::PhantomData<&'env ()>,
    /// The searcher, while no search borrows it.
    searcher: Option<Searcher<V::Move>>,
    /// The table size last asked for, in bytes.
    memory: Option<usize>,
    /// Whether a search runs, and if so whether it has no limits.
    searching: Option<bool>,
    /// Whether the input has ended.
    at_end: bool,
}

impl<'scope, 'env, V> Session<'scope, 'env, V>
where
    V: Variant + Send + Sync + 'scope,
    V::Position: Send + 'scope,
    V::Move: Send + 'static,
{
    fn run<E: Evaluator<V> + Send + Sync + 'scope, W: Write, H: Handler<V, E>>(
        &mut self,
        receiver: &Receiver<Event<V::Move>>,
        out: &mut W,
        handler: &mut H,
    ) -> io::Result<()> {
        let mut pending: VecDeque<String> = VecDeque::new();
        loop {
            while self.searching.is_none() {
                let Some(line) = pending.pop_front() else {
                    break;
                };
                let step = handler.command(&line, out)?;
                match step {
                    Step::Continue => {}
                    Step::Search(request) => {
                        self.start(request, handler.engine())?;
                        // Lines read already arrived during this search, as far as it is concerned.
                        for line in std::mem::take(&mut pending) {
                            self.arrived(line, &mut pending, handler, out)?;
                        }
                    }
                    Step::Perft(position, depth) => {
                        self.count(position, depth, handler.engine())?;
                        for line in std::mem::take(&mut pending) {
                            self.arrived(line, &mut pending, handler, out)?;
                        }
                    }
                    Step::Quit => return out.flush(),
                }
                out.flush()?;
            }
            if self.searching.is_none() && self.at_end {
                handler.at_end(out)?;
                return out.flush();
            }
            // The session holds a sender itself, so the channel never closes while it waits.
            let Ok(event) = receiver.recv() else {
                return Ok(());
            };
            match event {
                Event::Line(line) => self.arrived(line, &mut pending, handler, out)?,
                Event::EndOfInput => {
                    self.at_end = true;
                    let finish = handler.engine().end_of_input == EndOfInput::Finish;
                    if self.searching == Some(true) || (self.searching.is_some() && !finish) {
                        self.stop.store(true, Ordering::Relaxed);
                    }
                }
                Event::Report(text) => writeln!(out, "{}", handler.relay(text))?,
                Event::Done(searcher, result) => {
                    self.searcher = Some(searcher);
                    self.searching = None;
                    handler.finished(result, out)?;
                }
                Event::Counted(counts, complete) => {
                    self.searching = None;
                    handler.counted(counts, complete, out)?;
                }
            }
            out.flush()?;
        }
    }

    /// Takes an input line: queued while no search runs, else offered to the handler as an interrupt.
    fn arrived<E, W: Write, H: Handler<V, E>>(
        &mut self,
        line: String,
        pending: &mut VecDeque<String>,
        handler: &mut H,
        out: &mut W,
    ) -> io::Result<()> {
        if self.searching.is_none() {
            pending.push_back(line);
            return Ok(());
        }
        match handler.interrupt(&line, out)? {
            Interrupt::Later => pending.push_back(line),
            Interrupt::Handled => {}
            Interrupt::Stop => {
                self.stop.store(true, Ordering::Relaxed);
                pending.push_back(line);
            }
        }
        Ok(())
    }

    /// Starts counting move paths on the search thread, which sends the counts to the loop. Like a
    /// search with limits, it ends at `stop` or `quit`, and at the end of input unless the engine
    /// finishes such searches ([`EndOfInput::Finish`]).
    fn count<E: Evaluator<V> + Send + Sync + 'scope>(
        &mut self,
        mut position: V::Position,
        depth: u32,
        engine: Arc<Engine<V, E>>,
    ) -> io::Result<()> {
        let finish = engine.end_of_input == EndOfInput::Finish;
        self.stop.store(self.at_end && !finish, Ordering::Relaxed);
        self.searching = Some(false);
        let (stop, sender) = (Arc::clone(&self.stop), self.sender.clone());
        thread::Builder::new()
            .name("perft".into())
            .spawn_scoped(self.scope, move || {
                let (counts, complete) = crate::interrupt::watching(Arc::clone(&stop), || {
                    crate::perft::divide_until(&engine.variant, &mut position, depth, &stop)
                });
                let _ = sender.send(Event::Counted(counts, complete));
            })?;
        Ok(())
    }

    /// Starts a search on its own thread; it sends its reports and its result to the loop.
    fn start<E: Evaluator<V> + Send + Sync + 'scope>(
        &mut self,
        request: Request<V>,
        engine: Arc<Engine<V, E>>,
    ) -> io::Result<()> {
        let mut searcher = self.searcher.take().unwrap_or_default();
        match request.memory {
            Some(bytes) if Some(bytes) != self.memory => {
                searcher = Searcher::with_memory(bytes);
                self.memory = Some(bytes);
            }
            _ if request.new_game => searcher.clear(),
            _ => {}
        }
        let infinite = request.limits.is_infinite();
        // After the end of input a search stops at once (and still answers with a legal move); with
        // `EndOfInput::Finish`, only one without limits, which nothing else could stop.
        let finish = engine.end_of_input == EndOfInput::Finish;
        self.stop
            .store(self.at_end && (infinite || !finish), Ordering::Relaxed);
        self.searching = Some(infinite);
        let (stop, sender) = (Arc::clone(&self.stop), self.sender.clone());
        thread::Builder::new()
            .name("search".into())
            .spawn_scoped(self.scope, move || {
                let watched = Arc::clone(&stop);
                crate::interrupt::watching(watched, || {
                    let Request {
                        position,
                        limits,
                        report,
                        lines,
                        among,
                        ..
                    } = request;
                    let stop = &*stop;
                    let mut on_iteration = |iteration: &Iteration<'_, V::Move>, line: usize| {
                        if let Some(format) = report {
                            let text = format(&engine.variant, &position, iteration, line);
                            // The loop may have ended (quit); nobody needs the report then.
                            let _ = sender.send(Event::Report(text));
                        }
                    };
                    let among = (!among.is_empty()).then_some(among.as_slice());
                    let result = if lines > 1 {
                        search_lines(
                            &mut searcher,
                            &*engine,
                            &position,
                            &limits,
                            (lines, among),
                            stop,
                            &mut on_iteration,
                        )
                    } else {
                        searcher.search_among(
                            &engine.variant,
                            &engine.evaluator,
                            &position,
                            &limits,
                            among,
                            stop,
                            &mut |iteration| on_iteration(iteration, 0),
                        )
                    };
                    let _ = sender.send(Event::Done(searcher, result));
                });
            })?;
        Ok(())
    }
}

/// Longest input line read; the rest of a longer line is skipped, and the line is handled as the
/// unknown command [`TOO_LONG`], so that it gets the protocol's error reply instead of filling the memory.
pub(super) const MAX_LINE: usize = 1 << 20;

/// What an input line longer than [`MAX_LINE`] is read as.
pub(super) const TOO_LONG: &str = "line-longer-than-1-MiB-ignored";

/// Reads one line into `bytes` (cleared first), keeping at most [`MAX_LINE`] bytes of it. Returns
/// `Ok(None)` at the end of input, else whether the line was cut.
pub(super) fn read_line_capped<R: BufRead>(
    input: &mut R,
    bytes: &mut Vec<u8>,
) -> io::Result<Option<bool>> {
    bytes.clear();
    let mut read_any = false;
    let mut cut = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(read_any.then_some(cut));
        }
        read_any = true;
        let (line, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..=at], true),
            None => (chunk, false),
        };
        let room = MAX_LINE.saturating_sub(bytes.len());
        cut |= line.len() > room;
        bytes.extend_from_slice(&line[..line.len().min(room)]);
        let used = line.len();
        input.consume(used);
        if ends {
            return Ok(Some(cut));
        }
    }
}

/// Searches the best `lines` root moves (among `among`, if given) by iterative deepening: at each
/// depth the best move, then the best of the others, and so on, each reported with its line number.
/// The result is the best line's at the deepest depth all lines completed.
fn search_lines<V, E>(
    searcher: &mut Searcher<V::Move>,
    engine: &Engine<V, E>,
    position: &V::Position,
    limits: &Limits,
    (lines, among): (usize, Option<&[V::Move]>),
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Iteration<'_, V::Move>, usize),
) -> SearchResult<V::Move>
where
    V: Variant,
    E: Evaluator<V>,
{
    let started = Instant::now();
    let mut moves = Vec::new();
    engine
        .variant
        .legal_moves(&mut position.clone(), &mut moves);
    if let Some(among) = among.filter(|among| moves.iter().any(|m| among.contains(m))) {
        moves.retain(|m| among.contains(m));
    }
    let lines = lines.min(moves.len());
    let quiet = &mut |_: &Iteration<'_, V::Move>| {};
    if lines <= 1 {
        let among = Some(moves.as_slice());
        return searcher.search_among(
            &engine.variant,
            &engine.evaluator,
            position,
            limits,
            among,
            stop,
            &mut |iteration| report(iteration, 0),
        );
    }
    let mut best: Option<SearchResult<V::Move>> = None;
    let mut nodes = 0u64;
    let deepest = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let ended = |nodes: u64| {
        stop.load(Ordering::Relaxed)
            || limits.time.is_some_and(|t| started.elapsed() >= t)
            || limits.nodes.is_some_and(|n| nodes >= n)
    };
    for depth in 1..=deepest {
        let mut left = moves.clone();
        let mut complete = true;
        for line in 1..=lines {
            if ended(nodes) {
                complete = false;
                break;
            }
            let sub = Limits {
                depth: Some(depth),
                nodes: limits.nodes.map(|n| n - nodes),
                time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
            };
            let found = searcher.search_among(
                &engine.variant,
                &engine.evaluator,
                position,
                &sub,
                Some(&left),
                stop,
                quiet,
            );
            nodes += found.nodes;
            // A search cut short by a limit or `stop` leaves this depth unfinished (one that
            // stopped early because the result was decided has not been cut).
            if found.depth < depth && ended(nodes) {
                if best.is_none() {
                    best = Some(found);
                }
                complete = false;
                break;
            }
            let Some(mv) = found.best else {
                break;
            };
            report(
                &Iteration {
                    depth,
                    score: found.score,
                    nodes,
                    elapsed: started.elapsed(),
                    pv: &found.pv,
                },
                line,
            );
            left.retain(|m| *m != mv);
            if line == 1 {
                best = Some(SearchResult { depth, ..found });
            }
        }
        // Another depth takes several times as long as this one.
        if !complete || limits.time.is_some_and(|t| started.elapsed() * 2 > t) {
            break;
        }
    }
    let mut result = best.unwrap_or_else(|| SearchResult {
        best: moves.first().copied(),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: moves.first().copied().into_iter().collect(),
    });
    result.nodes = nodes;
    result
}

/// Reads input lines on a thread of their own, trimmed and with invalid UTF-8 replaced, until the end
/// of input or an input error.
fn spawn_reader<R, M>(mut input: R, sender: Sender<Event<M>>) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    M: Send + 'static,
{
    thread::Builder::new().name("input".into()).spawn(move || {
        let mut bytes = Vec::new();
        while let Ok(Some(cut)) = read_line_capped(&mut input, &mut bytes) {
            let line = if cut {
                TOO_LONG.to_string()
            } else {
                String::from_utf8_lossy(&bytes).trim().to_string()
            };
            if sender.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = sender.send(Event::EndOfInput);
    })?;
    Ok(())
}
