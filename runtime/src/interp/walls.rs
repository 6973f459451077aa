//! Two-part moves (`turn { wall ... }`): each move is followed, in the same ply, by a wall on a cell,
//! as Fairy-Stockfish's walling rules do (duck chess, the game of the Amazons, isolation). A wall is a
//! piece of the game's wall type, owned by the walls' neutral side (the checker adds both): it never
//! moves, is never captured and blocks every move. A move with its wall is one move, written
//! `e2e4,e4d5`: the move, then its arrival cell and the wall's cell.

use crate::model::{CellId, WallCells, Walling};

use super::position::{Move, MoveKind, Occupant, Position, Undo};
use super::tables::{Interpreter, PreparedMoves};

/// A game's walling rule, prepared.
#[derive(Clone, Debug)]
pub(super) struct Walls {
    /// Where walls may go (`empty`, `reach`, `vacated`).
    cells: WallCells,
    /// The zone a wall must be in, in the mover's frame.
    zone: Option<usize>,
    /// One wall only: placing it takes the previous one away (the duck).
    single: bool,
    /// The wall piece type and its owner.
    pub(super) wall: Occupant,
    /// For `reach`: per player, the moves that reach a wall's cell from the arrival cell.
    reach: Vec<Vec<PreparedMoves>>,
}

impl Walls {
    /// Prepares a walling rule; `reach` holds, per player, the prepared `reach` moves (empty for the
    /// other kinds).
    pub(super) fn new(
        rule: &Walling,
        piece: usize,
        owner: usize,
        reach: Vec<Vec<PreparedMoves>>,
    ) -> Walls {
        Walls {
            cells: rule.cells.clone(),
            zone: rule.zone,
            single: rule.single,
            wall: Occupant::new(piece, owner, false, false),
            reach,
        }
    }

    /// Whether `occupant` is a wall.
    #[inline]
    pub(super) fn is_wall(&self, occupant: Occupant) -> bool {
        !occupant.is_empty()
            && occupant.piece() == self.wall.piece()
            && occupant.owner() == self.wall.owner()
    }
}

impl Interpreter {
    /// Replaces each pseudo-legal move from `start` on by its variants with a wall on each cell the
    /// rule allows, decided on the position after the move (so a vacated cell is empty, the arrival
    /// cell is not, and the previous duck still stands). A move with no cell for its wall is dropped.
    pub(super) fn add_walls(&self, pos: &Position, out: &mut Vec<Move>, start: usize) {
        let Some(walls) = &self.walls else {
            return;
        };
        let moves: Vec<Move> = out.drain(start..).collect();
        let mut after = pos.clone();
        let mover = pos.side;
        let mut cells = Vec::new();
        for mv in moves {
            let undo = super::elimination::probing(|| {
                self.make_move(
                    &mut after,
                    Move {
                        wall: Move::NONE,
                        ..mv
                    },
                )
            });
            cells.clear();
            self.wall_cells(walls, &after, mover, mv, &mut cells);
            self.unmake_move(&mut after, mv, undo);
            out.extend(cells.iter().map(|&cell| Move {
                wall: cell as u16,
                ..mv
            }));
        }
    }

    /// The cells a wall may go on after `mv`, on the position after it.
    fn wall_cells(
        &self,
        walls: &Walls,
        after: &Position,
        mover: usize,
        mv: Move,
        cells: &mut Vec<CellId>,
    ) {
        let allowed = |cell: CellId| {
            after.cells[cell].is_empty() && walls.zone.is_none_or(|z| self.in_zone(z, mover, cell))
        };
        match &walls.cells {
            WallCells::Empty => cells.extend((0..after.cells.len()).filter(|&c| allowed(c))),
            WallCells::Vacated => {
                if mv.kind != MoveKind::Drop
                    && mv.kind != MoveKind::Pass
                    && allowed(mv.from as usize)
                {
                    cells.push(mv.from as usize);
                }
            }
            WallCells::Reach(_) => {
                if mv.kind == MoveKind::Pass {
                    return;
                }
                let arrival = mv.to as usize;
                let Some(sets) = walls.reach.get(mover) else {
                    return;
                };
                let mut reached = Vec::new();
                let occupant = Occupant::new(walls.wall.piece(), mover, false, false);
                self.walk_sets(after, arrival, occupant, mover, sets, &mut reached);
                for m in reached {
                    let cell = m.to as usize;
                    if allowed(cell) && !cells.contains(&cell) {
                        cells.push(cell);
                    }
                }
            }
        }
    }

    /// Puts the wall of `mv` on the board (taking the previous one away when there is only one).
    pub(super) fn place_wall(&self, pos: &mut Position, undo: &mut Undo, mv: Move) {
        let Some(walls) = &self.walls else {
            return;
        };
        if mv.wall == Move::NONE {
            return;
        }
        if walls.single {
            for cell in 0..pos.cells.len() {
                if walls.is_wall(pos.cells[cell]) {
                    self.put(pos, undo, cell, Occupant::EMPTY);
                }
            }
        }
        self.put(pos, undo, mv.wall as usize, walls.wall);
    }
}
