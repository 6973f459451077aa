//! Game-tree search over any [`Variant`]: iterative deepening alpha-beta with a transposition table,
//! quiescence search over captures and move ordering, used by the engine protocols.
//!
//! The search is written once against the `Variant` trait plus an [`Evaluator`], which says whose turn it
//! is and how good a position is. Two-player games are searched with negamax; games of three or more
//! players with the paranoid assumption: every other player plays against the player to move at the root,
//! so the game becomes a two-team game (the root player against the rest) searched the same way. A turn
//! that stays with the same team (several moves per turn, or two opponents in a row) keeps the score's
//! sign instead of flipping it.
//!
//! A capture is any move after which the mover's material balance grew, which covers drops of captured
//! pieces, promotions and explosions without knowing how the game captures.
//!
//! # Examples
//!
//! ```
//! use vdl_runtime::search::{self, Limits, MaterialEvaluator};
//! use vdl_runtime::{Interpreter, Variant};
//!
//! # fn demo(game: vdl_runtime::Game) -> Result<(), String> {
//! let evaluator = MaterialEvaluator::new(&game);
//! let interpreter = Interpreter::new(game)?;
//! let result = search::search(&interpreter, &evaluator, &interpreter.start(), &Limits::depth(2));
//! assert!(result.best.is_some());
//! # Ok(())
//! # }
//! ```

mod material;
mod table;
mod tree;

pub use material::MaterialEvaluator;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::variant::Variant;
use table::Table;
use tree::Tree;

/// The score of a position where the side to move has won, minus the plies it takes; `-MATE` plus
/// plies for a loss.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest iteration the search runs.
pub const MAX_DEPTH: u32 = 64;

/// What the search needs to know about a game beyond the [`Variant`] trait: whose turn it is and how
/// good a position is for each player. Scores are in centipawns.
pub trait Evaluator<V: Variant> {
    /// Returns how many players take turns.
    fn players(&self) -> usize;

    /// Returns the player to move.
    fn side_to_move(&self, position: &V::Position) -> usize;

    /// Returns the material balance for `player`: their material minus the average of the other
    /// players'. A move after which the mover's balance grew counts as a capture.
    fn material(&self, position: &V::Position, player: usize) -> i32;

    /// Returns the static score for `player`: the material balance plus positional terms.
    fn evaluate(&self, position: &V::Position, player: usize) -> i32 {
        self.material(position, player)
    }

    /// Returns what `mv` wins in material for the player making it, when the evaluator can tell
    /// without playing the move (the search then skips making it just to order it).
    fn move_gain(&self, _position: &V::Position, _mv: V::Move) -> Option<i32> {
        None
    }

    /// Describes `mv` when it is a plain capture of one enemy piece on its target cell, for the
    /// static exchange evaluation; `None` for any other move.
    fn capture(&self, _position: &V::Position, _mv: V::Move) -> Option<Capture> {
        None
    }

    /// A small number that tells moves apart for the history heuristic (the moving piece, its owner
    /// and its target), below [`Evaluator::history_size`]; `None` when there is none.
    fn history_index(&self, _position: &V::Position, _mv: V::Move) -> Option<usize> {
        None
    }

    /// The number of history entries.
    fn history_size(&self) -> usize {
        0
    }

    /// Whether the search may pass the turn (a null move) to prove the position good: only where
    /// having to move is rarely a disadvantage.
    fn null_move_allowed(&self, _position: &V::Position) -> bool {
        false
    }
}

/// A plain capture, as the static exchange evaluation sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The cell captured on.
    pub to: usize,
    /// The value of the capturing piece.
    pub attacker: i32,
    /// The value of the captured piece.
    pub victim: i32,
}

/// How long the root moves' generation may go on after a stop (`interrupt::after`).
const ROOT_GRACE: std::time::Duration = std::time::Duration::from_millis(20);

/// When a search stops. Without any limit it runs until the stop flag is raised (or [`MAX_DEPTH`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration in plies (capped at [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// The most nodes to visit.
    pub nodes: Option<u64>,
    /// The most time to spend.
    pub time: Option<Duration>,
}

impl Limits {
    /// Limits the search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits the search to `time`.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Tells whether only the stop flag ends the search.
    pub fn is_infinite(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.time.is_none()
    }
}

/// One completed iteration of iterative deepening, as reported while searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<'a, M> {
    /// The depth in plies.
    pub depth: u32,
    /// The score for the side to move at the root.
    pub score: i32,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: &'a [M],
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The best move, or `None` when the game is over.
    pub best: Option<M>,
    /// Its score for the side to move (for a finished game: the game's result for the side to move).
    pub score: i32,
    /// The deepest completed iteration (0 when stopped before the first one finished).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
}

/// Returns the number of plies to the end of the game a score announces: positive when the side to
/// move wins, negative when it loses, `None` for an ordinary score.
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// A searcher: the state kept from one search to the next (the transposition table).
#[derive(Clone, Debug)]
pub struct Searcher<M> {
    table: Table<M>,
}

impl<M: Copy + Eq> Default for Searcher<M> {
    fn default() -> Self {
        Searcher::new()
    }
}

impl<M: Copy + Eq> Searcher<M> {
    /// Makes a searcher with a transposition table of 65,536 entries.
    pub fn new() -> Searcher<M> {
        Searcher::with_table_size(1 << 16)
    }

    /// Makes a searcher with a table of about `entries` entries (rounded down to a power of two).
    pub fn with_table_size(entries: usize) -> Searcher<M> {
        Searcher {
            table: Table::new(entries),
        }
    }

    /// Makes a searcher whose table takes at most `bytes` bytes (UCI's `Hash`, XBoard's `memory`),
    /// and at least one entry.
    pub fn with_memory(bytes: usize) -> Searcher<M> {
        Searcher::with_table_size(bytes / std::mem::size_of::<Option<table::Entry<M>>>())
    }

    /// The bytes its table takes.
    pub fn memory(&self) -> usize {
        self.table.len() * std::mem::size_of::<Option<table::Entry<M>>>()
    }

    /// Forgets everything learnt in earlier searches (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches `position` by iterative deepening until a limit is reached or `stop` is raised, calling
    /// `report` after each completed iteration. It returns a legal move whenever there is one, even
    /// when stopped at once.
    pub fn search<V, E>(
        &mut self,
        variant: &V,
        evaluator: &E,
        position: &V::Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<'_, M>),
    ) -> SearchResult<M>
    where
        V: Variant<Move = M>,
        E: Evaluator<V>,
    {
        self.search_among(variant, evaluator, position, limits, None, stop, report)
    }

    /// Searches like [`Searcher::search`], but only the root moves in `among` when given (UCI's
    /// `searchmoves`, and MultiPV: the best move, then the best of the others ...). A legal move in
    /// `among` is returned whenever there is one.
    #[allow(clippy::too_many_arguments)]
    pub fn search_among<V, E>(
        &mut self,
        variant: &V,
        evaluator: &E,
        position: &V::Position,
        limits: &Limits,
        among: Option<&[M]>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<'_, M>),
    ) -> SearchResult<M>
    where
        V: Variant<Move = M>,
        E: Evaluator<V>,
    {
        // A move generation that would pass the deadline ends early (`interrupt`).
        let deadline = limits.time.and_then(|t| Instant::now().checked_add(t));
        crate::interrupt::until(deadline, || {
            self.search_within(variant, evaluator, position, limits, among, stop, report)
        })
    }

    /// [`Searcher::search_among`], with the deadline watched.
    #[allow(clippy::too_many_arguments)]
    fn search_within<V, E>(
        &mut self,
        variant: &V,
        evaluator: &E,
        position: &V::Position,
        limits: &Limits,
        among: Option<&[M]>,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Iteration<'_, M>),
    ) -> SearchResult<M>
    where
        V: Variant<Move = M>,
        E: Evaluator<V>,
    {
        let started = Instant::now();
        let mut position = position.clone();
        let root_player = evaluator.side_to_move(&position);
        let mut tree = Tree::new(variant, evaluator, &mut self.table, stop, root_player);
        tree.deadline = limits.time.and_then(|t| started.checked_add(t));
        tree.node_limit = limits.nodes.unwrap_or(u64::MAX);

        let mut root_moves = Vec::new();
        // The root moves in full when they come quickly, so that a search stopped at once still
        // answers its best-ordered move; cut after a while when one generation is slow.
        crate::interrupt::after(ROOT_GRACE, || {
            variant.legal_moves(&mut position, &mut root_moves)
        });
        if let Some(among) = among.filter(|among| root_moves.iter().any(|m| among.contains(m))) {
            root_moves.retain(|m| among.contains(m));
        }
        if root_moves.is_empty() {
            return SearchResult {
                best: None,
                score: tree.terminal_score(&mut position, 0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        tree.order_root(&mut position, &mut root_moves);

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result = SearchResult {
            best: Some(root_moves[0]),
            score: 0,
            depth: 0,
            nodes: 0,
            pv: vec![root_moves[0]],
        };
        for depth in 1..=max_depth {
            tree.age_history();
            let iteration = tree.search_root(&mut position, &mut root_moves, depth);
            if let Some((best, score)) = iteration {
                result.best = Some(best);
                result.score = score;
                result.pv = tree.root_pv();
            }
            if tree.aborted {
                break;
            }
            result.depth = depth;
            tree.store_root(&position, &result, depth);
            report(&Iteration {
                depth,
                score: result.score,
                nodes: tree.nodes,
                elapsed: started.elapsed(),
                pv: &result.pv,
            });
            // A forced result within the horizon, or a single legal move, will not change with depth.
            let decided = mate_plies(result.score).is_some_and(|p| p.unsigned_abs() <= depth);
            // Another iteration takes several times as long as this one: do not start one that the
            // time limit would cut short.
            let late = limits.time.is_some_and(|t| started.elapsed() * 2 > t);
            if decided || root_moves.len() == 1 || late {
                break;
            }
        }
        result.nodes = tree.nodes;
        result
    }
}

/// Searches `position` with a fresh table, no stop flag and no reports.
pub fn search<V, E>(
    variant: &V,
    evaluator: &E,
    position: &V::Position,
    limits: &Limits,
) -> SearchResult<V::Move>
where
    V: Variant,
    E: Evaluator<V>,
{
    let stop = AtomicBool::new(false);
    Searcher::new().search(variant, evaluator, position, limits, &stop, &mut |_| {})
}

/// Writes the moves of a line from `position` in the game's notation, stopping at the first move that
/// is not legal (a line read from the transposition table may be stale).
pub fn line_text<V: Variant>(variant: &V, position: &V::Position, line: &[V::Move]) -> Vec<String> {
    line_text_with(variant, position, line, V::write_move)
}

/// [`line_text`] with the moves as the XBoard and UCI protocols write them
/// ([`Variant::write_protocol_move`]).
pub fn protocol_line_text<V: Variant>(
    variant: &V,
    position: &V::Position,
    line: &[V::Move],
) -> Vec<String> {
    line_text_with(variant, position, line, V::write_protocol_move)
}

fn line_text_with<V: Variant>(
    variant: &V,
    position: &V::Position,
    line: &[V::Move],
    write: fn(&V, &V::Position, V::Move) -> String,
) -> Vec<String> {
    let mut position = position.clone();
    let mut texts = Vec::with_capacity(line.len());
    let mut moves = Vec::new();
    for &mv in line {
        moves.clear();
        variant.legal_moves(&mut position, &mut moves);
        if !moves.contains(&mv) {
            break;
        }
        texts.push(write(variant, &position, mv));
        variant.make(&mut position, mv);
    }
    texts
}
