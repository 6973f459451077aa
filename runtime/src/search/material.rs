//! The evaluator for the interpreter's positions (which compiled engines share): material from piece
//! values plus a small mobility term.
//!
//! A piece's value is the rule file's `value` when it gives one. Otherwise it is estimated from the
//! piece's mobility: the average number of cells its moves reach on an empty board, over every cell it
//! may stand on and every player's orientation. The mobility term rewards a piece for standing where
//! its moves reach more cells than that average, so pieces head for the centre. Against an enemy left
//! with at most a third of the player's material, a mop-up term rewards that enemy's royal piece
//! standing near the edge and the player's pieces standing near it.

use crate::geometry::{expand_on_empty, Frame, Shape};
use crate::interp::{Interpreter, Position};
use crate::model::{Game, Piece, Vec3};

use super::Evaluator;

/// Centipawns for a piece whose moves reach no cell at all.
const BASE_VALUE: f64 = 50.0;
/// Centipawns per cell a piece reaches on average, for estimated values: a knight (5.25 cells on an
/// 8x8 board) comes out at 223, a rook (14) at 512 and a queen (22.75) at 801.
const VALUE_PER_CELL: f64 = 33.0;
/// Centipawns per cell reached beyond the piece's average, for the mobility term.
const MOBILITY_PER_CELL: f64 = 2.0;
/// Centipawns per step (in half cells) a clearly weaker enemy's royal piece stands away from the
/// board's centre (the mop-up term).
const EDGE_PER_STEP: i32 = 6;
/// Centipawns per cell one of the player's pieces stands closer to that royal piece.
const NEAR_PER_CELL: i32 = 2;
/// The mop-up term applies to an enemy with at most this fraction of the player's material.
const MOP_UP_RATIO: i32 = 3;
/// Owners a position can name (four bits).
const MAX_OWNERS: usize = 16;

/// Material and mobility from the game model.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialEvaluator {
    players: usize,
    values: Vec<i32>,
    /// `mobility[piece][player][cell]`: the bonus of that player's piece standing on the cell.
    mobility: Vec<Vec<Vec<i16>>>,
    /// Whether each piece type is royal.
    royal: Vec<bool>,
    /// Each cell's board and coordinates.
    places: Vec<(usize, Vec3)>,
    /// Each cell's distance from its board's centre, in half cells summed over the axes.
    edge: Vec<i32>,
}

impl MaterialEvaluator {
    /// Prepares the values and mobility tables of a game.
    pub fn new(game: &Game) -> MaterialEvaluator {
        let players = game.players.iter().filter(|p| !p.neutral).count().max(1);
        let reach = reach_counts(game, players);
        let mut values = Vec::with_capacity(game.pieces.len());
        let mut mobility = Vec::with_capacity(game.pieces.len());
        for (piece, counts) in game.pieces.iter().zip(reach) {
            let all: Vec<u32> = counts.iter().flatten().flatten().copied().collect();
            let average = if all.is_empty() {
                0.0
            } else {
                all.iter().sum::<u32>() as f64 / all.len() as f64
            };
            values.push(
                piece
                    .value
                    .unwrap_or((BASE_VALUE + VALUE_PER_CELL * average).round() as i32),
            );
            mobility.push(
                counts
                    .iter()
                    .map(|cells| {
                        cells
                            .iter()
                            .map(|c| match c {
                                Some(n) => {
                                    ((*n as f64 - average) * MOBILITY_PER_CELL).round() as i16
                                }
                                None => 0,
                            })
                            .collect()
                    })
                    .collect(),
            );
        }
        let edge = game
            .cells
            .iter()
            .map(|cell| {
                let size = game.boards[cell.board].size;
                (0..3)
                    .map(|i| (2 * cell.coord[i] - (size[i] as i32 - 1)).abs())
                    .sum()
            })
            .collect();
        MaterialEvaluator {
            players,
            values,
            mobility,
            royal: game.pieces.iter().map(|p| p.royal.is_royal()).collect(),
            places: game.cells.iter().map(|c| (c.board, c.coord)).collect(),
            edge,
        }
    }

    /// Returns the value of each piece type, in centipawns.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Adds up each player's pieces on the board and in hand, with or without the mobility term.
    fn totals(&self, position: &Position, with_mobility: bool) -> [i32; MAX_OWNERS] {
        self.totals_of(
            position.cells.iter().copied().enumerate(),
            |player, piece| {
                position
                    .hands
                    .get(player)
                    .and_then(|h| h.get(piece))
                    .copied()
                    .unwrap_or(0)
            },
            with_mobility,
        )
    }

    /// Adds up each player's pieces given as (cell, occupant) and hand counts.
    pub(crate) fn totals_of(
        &self,
        cells: impl Iterator<Item = (usize, crate::interp::Occupant)>,
        hand: impl Fn(usize, usize) -> u8,
        with_mobility: bool,
    ) -> [i32; MAX_OWNERS] {
        let mut totals = [0; MAX_OWNERS];
        for (cell, occupant) in cells {
            if occupant.is_empty() || occupant.owner() >= self.players {
                continue;
            }
            let (piece, owner) = (occupant.piece(), occupant.owner());
            totals[owner] += self.values.get(piece).copied().unwrap_or(0);
            if with_mobility {
                totals[owner] += i32::from(self.mobility[piece][owner][cell]);
            }
        }
        for (player, total) in totals.iter_mut().enumerate().take(self.players) {
            for (piece, value) in self.values.iter().enumerate() {
                *total += i32::from(hand(player, piece)) * value;
            }
        }
        totals
    }

    /// A two-player balance: the player's total minus the opponent's.
    pub(crate) fn two_player_balance(totals: &[i32; MAX_OWNERS], player: usize) -> i32 {
        totals[player.min(1)] - totals[1 - player.min(1)]
    }

    /// The value of a piece type.
    pub(crate) fn value(&self, piece: usize) -> i32 {
        self.values.get(piece).copied().unwrap_or(0)
    }

    /// The number of cells its mobility tables cover.
    pub(crate) fn cells(&self) -> usize {
        self.mobility
            .first()
            .and_then(|players| players.first())
            .map_or(0, Vec::len)
    }

    /// The mop-up term: against an enemy still in the game with at most a third of the player's
    /// material, a bonus for that enemy's royal pieces standing near the edge, and for the player's
    /// pieces standing near them, so that a won ending is driven to a checkmate.
    fn mop_up(&self, totals: &[i32; MAX_OWNERS], position: &Position, player: usize) -> i32 {
        let own = totals.get(player).copied().unwrap_or(0);
        let weak = |o: usize| {
            o != player
                && o < self.players.min(MAX_OWNERS)
                && !position.is_eliminated(o)
                && totals[o] * MOP_UP_RATIO <= own
        };
        let mut bonus = 0;
        for (cell, occ) in position.cells.iter().enumerate() {
            if occ.is_empty() || !self.royal[occ.piece()] || !weak(occ.owner()) {
                continue;
            }
            bonus += EDGE_PER_STEP * self.edge.get(cell).copied().unwrap_or(0);
            let (board, at) = self.places[cell];
            for (other, mine) in position.cells.iter().enumerate() {
                if mine.is_empty() || mine.owner() != player {
                    continue;
                }
                let (b, c) = self.places[other];
                if b == board {
                    let distance = (0..3).map(|i| (c[i] - at[i]).abs()).max().unwrap_or(0);
                    bonus -= NEAR_PER_CELL * distance;
                }
            }
        }
        bonus
    }

    /// A player's total minus the average total of the other players still in the game.
    fn balance(&self, totals: &[i32; MAX_OWNERS], position: &Position, player: usize) -> i32 {
        let others: Vec<i32> = (0..self.players.min(MAX_OWNERS))
            .filter(|&p| p != player && !position.is_eliminated(p))
            .map(|p| totals[p])
            .collect();
        let own = totals.get(player).copied().unwrap_or(0);
        if others.is_empty() {
            own
        } else {
            own - others.iter().sum::<i32>() / others.len() as i32
        }
    }
}

impl Evaluator<Interpreter> for MaterialEvaluator {
    fn players(&self) -> usize {
        self.players
    }

    fn side_to_move(&self, position: &Position) -> usize {
        position.side
    }

    fn material(&self, position: &Position, player: usize) -> i32 {
        self.balance(&self.totals(position, false), position, player)
    }

    fn evaluate(&self, position: &Position, player: usize) -> i32 {
        let totals = self.totals(position, true);
        self.balance(&totals, position, player) + self.mop_up(&totals, position, player)
    }

    /// The value of what a plain move captures, plus what a promotion adds. Moves whose effects go
    /// further (capture rules, drops, gating) are left to the search to play out.
    fn move_gain(&self, position: &Position, mv: crate::interp::Move) -> Option<i32> {
        use crate::interp::MoveKind;
        if mv.kind != MoveKind::Normal
            || mv.gate != 0
            || mv.pair
            || mv.stack
            || mv.merge
            || mv.aux2 != crate::interp::Move::NONE
        {
            return None;
        }
        let value = |piece: usize| self.values.get(piece).copied().unwrap_or(0);
        let mover = position.cells[mv.from as usize];
        if mover.is_empty() {
            return None;
        }
        let mut gain = 0;
        for cell in [mv.to, mv.aux] {
            if cell == crate::interp::Move::NONE {
                continue;
            }
            let taken = position.cells[cell as usize];
            if !taken.is_empty() {
                // Taking an own piece loses it; an enemy's is won (the balance counts enemies on average,
                // which ordering does not need).
                gain += if taken.owner() == mover.owner() {
                    -value(taken.piece())
                } else {
                    value(taken.piece())
                };
            }
        }
        if mv.piece > 0 {
            gain += value(mv.piece as usize - 1) - value(mover.piece());
        }
        Some(gain)
    }
}

/// One board's cells by coordinate.
struct BoardShape {
    size: [i32; 3],
    present: Vec<bool>,
}

impl Shape for BoardShape {
    fn contains(&self, at: Vec3) -> bool {
        let inside = (0..3).all(|i| (0..self.size[i]).contains(&at[i]));
        inside && self.present[self.index(at)]
    }
}

impl BoardShape {
    fn index(&self, at: Vec3) -> usize {
        ((at[2] * self.size[1] + at[1]) * self.size[0] + at[0]) as usize
    }
}

/// For each piece, player and cell: how many cells the piece's moves reach from there on an empty
/// board, or `None` where none of its moves apply (another board).
fn reach_counts(game: &Game, players: usize) -> Vec<Vec<Vec<Option<u32>>>> {
    let shapes: Vec<BoardShape> = game
        .boards
        .iter()
        .enumerate()
        .map(|(index, board)| {
            let size = board.size.map(|s| s.max(1) as i32);
            let mut shape = BoardShape {
                size,
                present: vec![false; (size[0] * size[1] * size[2]) as usize],
            };
            for cell in game.cells.iter().filter(|c| c.board == index) {
                let at = shape.index(cell.coord);
                shape.present[at] = true;
            }
            shape
        })
        .collect();
    game.pieces
        .iter()
        .map(|piece| {
            // Without direction letters on first legs, every player's orientation gives the same counts.
            let oriented = piece
                .moves
                .iter()
                .flat_map(|m| &m.parts)
                .any(|p| p.legs.first().is_some_and(|l| !l.directions.is_empty()));
            let first: Vec<Option<u32>> = piece_reach(game, &shapes, piece, 0);
            (0..players)
                .map(|player| {
                    if oriented && player > 0 {
                        piece_reach(game, &shapes, piece, player)
                    } else {
                        first.clone()
                    }
                })
                .collect()
        })
        .collect()
}

/// The counts of one piece for one player, cell by cell.
fn piece_reach(
    game: &Game,
    shapes: &[BoardShape],
    piece: &Piece,
    player: usize,
) -> Vec<Option<u32>> {
    let player_frame = Frame {
        forward: game
            .players
            .get(player)
            .map(|p| p.forward.clone())
            .unwrap_or_default(),
    };
    game.cells
        .iter()
        .map(|cell| {
            let board = &game.boards[cell.board];
            let frame = match board.forward {
                Some(forward) => Frame {
                    forward: vec![forward],
                },
                None => player_frame.clone(),
            };
            let mut applies = false;
            let mut targets: Vec<Vec3> = Vec::new();
            for moves in piece
                .moves
                .iter()
                .filter(|m| m.boards.is_empty() || m.boards.contains(&cell.board))
            {
                applies = true;
                for part in moves.parts.iter().filter(|p| !p.initial) {
                    let reached = expand_on_empty(
                        part,
                        cell.coord,
                        &frame,
                        &shapes[cell.board],
                        game.dimensions,
                    );
                    targets.extend(reached.into_iter().map(|(at, _)| at));
                }
            }
            targets.sort_unstable();
            targets.dedup();
            applies.then_some(targets.len() as u32)
        })
        .collect()
}
