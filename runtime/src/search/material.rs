//! The evaluator for the interpreter's positions (which compiled engines share), derived once per game
//! from the rule model.
//!
//! - **Piece values**: the rule file's `value` when it gives one. Otherwise an estimate from the piece's
//!   moves on an empty board: each cell it reaches counts once (half for a move that only moves or only
//!   captures), a slide's farther cells count less (they are blocked more often), the average over the
//!   cells the piece may stand on (its confinement zone) is raised to a power above one (several ways
//!   of moving work together), and a pawn (`pawn` in the model) is worth 100 centipawns.
//! - **Piece-square tables**, one for the middle game and one for the ending, blended by the game
//!   phase (the non-pawn material left): a piece gains for each cell it reaches from a cell beyond
//!   its average; a pawn gains as it nears its promotion zone (or its far side); a royal piece keeps
//!   to its own back ranks and away from the centre while the enemy has material, and heads for the
//!   centre in the ending.
//! - **Pawn structure**, for pawns: a passed pawn (no enemy pawn stands on or attacks the cells
//!   ahead of it) gains, more as it advances and in the ending; a pawn behind another of its own
//!   loses.
//! - **King safety**, for royal pieces in the middle game: the player's pieces next to it shield it;
//!   enemy pieces near it threaten it, in proportion to their value.
//! - **Mop-up**: against an enemy left with at most a third of the player's material, that enemy's
//!   royal piece is driven to the edge and the player's pieces come near it.

use crate::geometry::{expand_on_empty, Frame, Shape};
use crate::interp::{Interpreter, Occupant, Position};
use crate::model::{EndKind, Game, Pass, Piece, Vec3};

use super::Evaluator;

/// The value of a pawn, when the rule file gives none.
const PAWN_VALUE: i32 = 100;
/// Estimated values: `VALUE_SCALE * mobility ^ VALUE_POWER`, where mobility is the weighted
/// average of cells reached (on 8x8 a knight comes out at 300, a bishop 345, a rook 494, a queen 929).
const VALUE_SCALE: f64 = 44.6;
const VALUE_POWER: f64 = 1.15;
/// The least an estimated value can be.
const MIN_VALUE: i32 = 50;
/// Each further step of a slide counts this much of the step before it.
const SLIDE_DECAY: f64 = 0.7;
/// Centipawns per weighted cell reached beyond the average, middle game and ending.
const MOBILITY_MG: f64 = 6.0;
const MOBILITY_EG: f64 = 4.0;
/// The same for pawns, whose few moves matter more each.
const PAWN_MOBILITY: f64 = 12.0;
/// Centipawns for a pawn at its promotion zone's edge (scaled by how far it has come).
const PAWN_ADVANCE_MG: f64 = 25.0;
const PAWN_ADVANCE_EG: f64 = 90.0;
/// A passed pawn: a base and a part growing with the square of its advance.
const PASSED_MG: (i32, i32) = (5, 40);
const PASSED_EG: (i32, i32) = (15, 130);
/// A pawn with another pawn of its own ahead of it.
const DOUBLED: (i32, i32) = (12, 25);
/// A royal piece: per rank away from its own back edge (middle game), per half cell from the
/// board's middle file (middle game, a bonus), per half cell from the centre (ending, a loss).
const ROYAL_RANK_MG: i32 = 18;
const ROYAL_SIDE_MG: i32 = 5;
const ROYAL_EDGE_EG: i32 = 5;
/// King safety: per friendly pawn and other piece next to the royal piece.
const SHIELD_PAWN: i32 = 10;
const SHIELD_PIECE: i32 = 4;
/// King safety: an enemy piece within this many cells of the royal piece threatens it by its value
/// times (`THREAT_RANGE` minus the distance), divided by this.
const THREAT_RANGE: i32 = 4;
const THREAT_DIVISOR: i32 = 160;
/// The bonus of the side to move.
const TEMPO: i32 = 10;
/// Centipawns per step (in half cells) a clearly weaker enemy's royal piece stands away from the
/// board's centre (the mop-up term).
const EDGE_PER_STEP: i32 = 6;
/// Centipawns per cell one of the player's pieces stands closer to that royal piece.
const NEAR_PER_CELL: i32 = 2;
/// The mop-up term applies to an enemy with at most this fraction of the player's material.
const MOP_UP_RATIO: i32 = 3;
/// Owners a position can name (four bits).
const MAX_OWNERS: usize = 16;
/// The phase scale: 256 is the middle game, 0 the ending.
const PHASE: i32 = 256;

/// The most cells the pawn-structure terms cover (larger boards go without them).
const STRUCTURE_CELLS: usize = 256;

/// A set of cells below [`STRUCTURE_CELLS`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Cells([u64; STRUCTURE_CELLS / 64]);

impl Cells {
    fn new(_cells: usize) -> Cells {
        Cells::default()
    }

    fn insert(&mut self, cell: usize) {
        if cell < STRUCTURE_CELLS {
            self.0[cell / 64] |= 1 << (cell % 64);
        }
    }

    fn contains(&self, cell: usize) -> bool {
        cell < STRUCTURE_CELLS && self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    fn meets(&self, other: &Cells) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// What a pawn needs for the structure terms, per player and cell.
#[derive(Clone, Debug, PartialEq)]
struct PawnCell {
    /// The cells it may move to by repeated non-capturing moves (ahead of it).
    ahead: Cells,
    /// The cells where an enemy pawn stops it: ahead of it, or attacking a cell ahead.
    stoppers: Cells,
    /// How far it has come towards promotion, 0 to 1.
    advance: f64,
    /// The bonus of a passed pawn here (middle game, ending).
    passed: (i32, i32),
}

/// The evaluation tables of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialEvaluator {
    players: usize,
    values: Vec<i32>,
    /// `pst[piece][player][cell]`: (middle game, ending) bonus of that player's piece on the cell.
    pst: Vec<Vec<Vec<(i16, i16)>>>,
    /// Whether each piece type is royal.
    royal: Vec<bool>,
    /// `pawns[piece][player][cell]` for pawn types; empty for the others.
    pawns: Vec<Vec<Vec<PawnCell>>>,
    /// Each cell's board and coordinates.
    places: Vec<(usize, Vec3)>,
    /// Each cell's distance from its board's centre, in half cells summed over the axes.
    edge: Vec<i32>,
    /// The non-pawn, non-royal material of the start position (both sides): the middle game.
    opening_material: i32,
    /// Whether the search may pass the turn to prove a position good (null move): two players, one
    /// move per turn, royal pieces, and no rule that makes having to move a disadvantage one can
    /// use (compulsory captures, winning by being stuck).
    null_move: bool,
}

/// What one pass over the pieces adds up, per owner.
struct Totals {
    material: [i32; MAX_OWNERS],
    /// Middle-game and ending positional terms.
    mg: [i32; MAX_OWNERS],
    eg: [i32; MAX_OWNERS],
    /// Non-pawn, non-royal material on the board (both sides).
    phase_material: i32,
}

impl MaterialEvaluator {
    /// Prepares the values and tables of a game.
    pub fn new(game: &Game) -> MaterialEvaluator {
        let players = game.players.iter().filter(|p| !p.neutral).count().max(1);
        let shapes = board_shapes(game);
        let cells = game.cells.len();
        let reach: Vec<Vec<Vec<Option<Reach>>>> = game
            .pieces
            .iter()
            .map(|piece| {
                let oriented = is_oriented(piece);
                let first = piece_reach(game, &shapes, piece, 0);
                (0..players)
                    .map(|player| {
                        if player > 0 && (oriented || confinement(piece).is_some()) {
                            piece_reach(game, &shapes, piece, player)
                        } else {
                            first.clone()
                        }
                    })
                    .collect()
            })
            .collect();
        let edge: Vec<i32> = game
            .cells
            .iter()
            .map(|cell| {
                let size = game.boards[cell.board].size;
                (0..3)
                    .map(|i| (2 * cell.coord[i] - (size[i] as i32 - 1)).abs())
                    .sum()
            })
            .collect();
        let mut values = Vec::with_capacity(game.pieces.len());
        let mut averages = Vec::with_capacity(game.pieces.len());
        for (piece, counts) in game.pieces.iter().zip(&reach) {
            let all: Vec<f64> = counts
                .iter()
                .flatten()
                .flatten()
                .map(|r| r.weighted)
                .collect();
            let average = if all.is_empty() {
                0.0
            } else {
                all.iter().sum::<f64>() / all.len() as f64
            };
            averages.push(average);
            let estimate = if piece.pawn {
                PAWN_VALUE
            } else {
                ((VALUE_SCALE * average.powf(VALUE_POWER)).round() as i32).max(MIN_VALUE)
            };
            values.push(piece.value.unwrap_or(estimate));
        }
        let pawns: Vec<Vec<Vec<PawnCell>>> = game
            .pieces
            .iter()
            .enumerate()
            .map(|(index, piece)| {
                if piece.pawn {
                    (0..players)
                        .map(|player| pawn_cells(game, &shapes, index, player, players))
                        .collect()
                } else {
                    Vec::new()
                }
            })
            .collect();
        let pst = game
            .pieces
            .iter()
            .enumerate()
            .map(|(index, piece)| {
                (0..players)
                    .map(|player| {
                        (0..cells)
                            .map(|cell| {
                                let Some(r) = reach[index][player][cell] else {
                                    return (0, 0);
                                };
                                let extra = r.weighted - averages[index];
                                let (mg, eg) = if piece.royal.is_royal() {
                                    let rank = back_rank_distance(game, player, cell);
                                    let side = side_distance(game, player, cell);
                                    (
                                        -ROYAL_RANK_MG * rank + ROYAL_SIDE_MG * side,
                                        (extra * MOBILITY_EG).round() as i32
                                            - ROYAL_EDGE_EG * edge[cell],
                                    )
                                } else if piece.pawn {
                                    let advance = pawns[index][player][cell].advance;
                                    (
                                        (extra * PAWN_MOBILITY + advance * PAWN_ADVANCE_MG).round()
                                            as i32,
                                        (extra * PAWN_MOBILITY / 2.0
                                            + advance * advance * PAWN_ADVANCE_EG)
                                            .round() as i32,
                                    )
                                } else {
                                    (
                                        (extra * MOBILITY_MG).round() as i32,
                                        (extra * MOBILITY_EG).round() as i32,
                                    )
                                };
                                (clamp16(mg), clamp16(eg))
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let mut evaluator = MaterialEvaluator {
            players,
            values,
            pst,
            royal: game.pieces.iter().map(|p| p.royal.is_royal()).collect(),
            pawns,
            places: game.cells.iter().map(|c| (c.board, c.coord)).collect(),
            edge,
            opening_material: 0,
            null_move: players == 2
                && game.turn.moves <= 1
                && game.pieces.iter().any(|p| p.royal.is_royal())
                && !game.turn.must_capture
                && game.turn.pass == Pass::Never
                && !game.end.iter().any(|rule| {
                    matches!(rule.kind, EndKind::Stalemate | EndKind::NoMoves)
                        && rule.result == crate::model::Outcome::Win
                }),
        };
        evaluator.opening_material = evaluator.start_material(game);
        evaluator
    }

    /// The non-pawn, non-royal material of the start position, read from the setup's FEN board
    /// letters when there is one; otherwise that of one of each piece type per player.
    fn start_material(&self, game: &Game) -> i32 {
        let mut total = 0;
        if let Some(fen) = game.setup.blocks.iter().find_map(|b| b.fen.as_ref()) {
            let board = fen.split_whitespace().next().unwrap_or_default();
            for (index, piece) in game.pieces.iter().enumerate() {
                if piece.royal.is_royal() || piece.pawn || piece.letter.chars().count() != 1 {
                    continue;
                }
                let letter = piece.letter.chars().next().unwrap_or(' ');
                let count = board
                    .chars()
                    .filter(|c| c.eq_ignore_ascii_case(&letter))
                    .count() as i32;
                total += count * self.values[index];
            }
        }
        if total == 0 {
            total = (0..self.values.len())
                .filter(|&p| !self.royal[p] && self.pawns[p].is_empty())
                .map(|p| self.values[p])
                .sum::<i32>()
                * self.players as i32;
        }
        total.max(1)
    }

    /// Returns the value of each piece type, in centipawns.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The value of a piece type.
    pub(crate) fn value(&self, piece: usize) -> i32 {
        self.values.get(piece).copied().unwrap_or(0)
    }

    /// Whether the search may try a null move for `player` here: the game allows it, and the player
    /// has a piece other than pawns and royal pieces (without one, zugzwang is likely).
    pub(crate) fn null_move_for(
        &self,
        cells: impl Iterator<Item = (usize, Occupant)>,
        player: usize,
    ) -> bool {
        self.null_move
            && cells.into_iter().any(|(_, o)| {
                !o.is_empty()
                    && o.owner() == player
                    && !self.royal[o.piece()]
                    && self.pawns[o.piece()].is_empty()
            })
    }

    /// Adds up each player's material (pieces on the board and in hand).
    pub(crate) fn material_of(
        &self,
        cells: impl Iterator<Item = (usize, Occupant)>,
        hand: impl Fn(usize, usize) -> u8,
    ) -> [i32; MAX_OWNERS] {
        let mut totals = [0; MAX_OWNERS];
        for (_, occupant) in cells {
            if occupant.is_empty() || occupant.owner() >= self.players {
                continue;
            }
            totals[occupant.owner()] += self.value(occupant.piece());
        }
        self.add_hands(&mut totals, hand);
        totals
    }

    fn add_hands(&self, totals: &mut [i32; MAX_OWNERS], hand: impl Fn(usize, usize) -> u8) {
        for (player, total) in totals.iter_mut().enumerate().take(self.players) {
            for (piece, value) in self.values.iter().enumerate() {
                let count = hand(player, piece);
                if count > 0 {
                    *total += i32::from(count) * value;
                }
            }
        }
    }

    /// The full static score for `player` of a position given by its occupied cells, hands and
    /// eliminations: material, tables, pawn structure, king safety and mop-up, balanced against the
    /// other players still in the game, plus a bonus for the side to move.
    pub(crate) fn evaluate_pieces(
        &self,
        cells: impl Iterator<Item = (usize, Occupant)>,
        hand: impl Fn(usize, usize) -> u8,
        eliminated: impl Fn(usize) -> bool + Copy,
        side: usize,
        player: usize,
    ) -> i32 {
        // The pieces, gathered once.
        let mut pieces: [(u16, u8, u8); 256] = [(0, 0, 0); 256];
        let mut count = 0;
        let mut totals = Totals {
            material: [0; MAX_OWNERS],
            mg: [0; MAX_OWNERS],
            eg: [0; MAX_OWNERS],
            phase_material: 0,
        };
        let mut overflow = Vec::new();
        for (cell, occupant) in cells {
            if occupant.is_empty() || occupant.owner() >= self.players {
                continue;
            }
            let (piece, owner) = (occupant.piece(), occupant.owner());
            let value = self.value(piece);
            totals.material[owner] += value;
            let (mg, eg) = self.pst[piece][owner][cell];
            totals.mg[owner] += i32::from(mg);
            totals.eg[owner] += i32::from(eg);
            if !self.royal[piece] && self.pawns[piece].is_empty() {
                totals.phase_material += value;
            }
            let entry = (cell as u16, piece as u8, owner as u8);
            if count < pieces.len() {
                pieces[count] = entry;
                count += 1;
            } else {
                overflow.push(entry);
            }
        }
        self.add_hands(&mut totals.material, hand);
        let all: Vec<(u16, u8, u8)>;
        let pieces: &[(u16, u8, u8)] = if overflow.is_empty() {
            &pieces[..count]
        } else {
            all = pieces.iter().copied().chain(overflow).collect();
            &all
        };
        self.pawn_structure(pieces, &mut totals);
        self.king_safety(pieces, &mut totals);
        let phase = (totals.phase_material * PHASE / self.opening_material).clamp(0, PHASE);
        let mut scores = [0; MAX_OWNERS];
        for (owner, score) in scores.iter_mut().enumerate().take(self.players) {
            *score = totals.material[owner]
                + (totals.mg[owner] * phase + totals.eg[owner] * (PHASE - phase)) / PHASE;
        }
        let mut score = self.balance(&scores, eliminated, player)
            + self.mop_up(&totals.material, pieces, eliminated, player);
        score += if side == player { TEMPO } else { -TEMPO };
        score
    }

    /// Passed and doubled pawns.
    fn pawn_structure(&self, pieces: &[(u16, u8, u8)], totals: &mut Totals) {
        if self.places.len() > STRUCTURE_CELLS {
            return;
        }
        let mut masks = [Cells::default(); MAX_OWNERS];
        let mut any = false;
        for &(cell, piece, owner) in pieces {
            if !self.pawns[piece as usize].is_empty() {
                masks[owner as usize].insert(cell as usize);
                any = true;
            }
        }
        if !any {
            return;
        }
        let mut enemies = [Cells::default(); MAX_OWNERS];
        for (owner, enemy) in enemies.iter_mut().enumerate().take(self.players) {
            for (other, mask) in masks.iter().enumerate().take(self.players) {
                if other != owner {
                    for (e, m) in enemy.0.iter_mut().zip(mask.0) {
                        *e |= m;
                    }
                }
            }
        }
        for &(cell, piece, owner) in pieces {
            let (cell, piece, owner) = (cell as usize, piece as usize, owner as usize);
            let Some(info) = self.pawns[piece].get(owner).map(|p| &p[cell]) else {
                continue;
            };
            if info.ahead.is_empty() {
                continue;
            }
            let doubled = info.ahead.meets(&masks[owner]);
            if doubled {
                totals.mg[owner] -= DOUBLED.0;
                totals.eg[owner] -= DOUBLED.1;
            } else if !info.stoppers.meets(&enemies[owner]) {
                totals.mg[owner] += info.passed.0;
                totals.eg[owner] += info.passed.1;
            }
        }
    }

    /// Shelter and threats around royal pieces (middle-game terms).
    fn king_safety(&self, pieces: &[(u16, u8, u8)], totals: &mut Totals) {
        for &(cell, piece, owner) in pieces {
            if !self.royal[piece as usize] {
                continue;
            }
            let (board, at) = self.places[cell as usize];
            let mut safety = 0;
            for &(other, kind, who) in pieces {
                if other == cell {
                    continue;
                }
                let (b, c) = self.places[other as usize];
                if b != board {
                    continue;
                }
                let distance = (0..3).map(|i| (c[i] - at[i]).abs()).max().unwrap_or(0);
                let kind = kind as usize;
                if who == owner {
                    if distance == 1 {
                        safety += if self.pawns[kind].is_empty() {
                            SHIELD_PIECE
                        } else {
                            SHIELD_PAWN
                        };
                    }
                } else if distance < THREAT_RANGE
                    && !self.royal[kind]
                    && self.pawns[kind].is_empty()
                {
                    safety -= self.value(kind) * (THREAT_RANGE - distance) / THREAT_DIVISOR;
                }
            }
            totals.mg[owner as usize] += safety;
        }
    }

    /// The mop-up term: against an enemy still in the game with at most a third of the player's
    /// material, a bonus for that enemy's royal pieces standing near the edge, and for the player's
    /// pieces standing near them, so that a won ending is driven to a checkmate.
    fn mop_up(
        &self,
        material: &[i32; MAX_OWNERS],
        pieces: &[(u16, u8, u8)],
        eliminated: impl Fn(usize) -> bool,
        player: usize,
    ) -> i32 {
        let own = material.get(player).copied().unwrap_or(0);
        let weak = |o: usize| {
            o != player
                && o < self.players.min(MAX_OWNERS)
                && !eliminated(o)
                && material[o] * MOP_UP_RATIO <= own
        };
        if !(0..self.players.min(MAX_OWNERS)).any(weak) {
            return 0;
        }
        let mut bonus = 0;
        for &(cell, piece, owner) in pieces {
            if !self.royal[piece as usize] || !weak(owner as usize) {
                continue;
            }
            let cell = cell as usize;
            bonus += EDGE_PER_STEP * self.edge.get(cell).copied().unwrap_or(0);
            let (board, at) = self.places[cell];
            for &(other, _, mine) in pieces {
                if mine as usize != player {
                    continue;
                }
                let (b, c) = self.places[other as usize];
                if b == board {
                    let distance = (0..3).map(|i| (c[i] - at[i]).abs()).max().unwrap_or(0);
                    bonus -= NEAR_PER_CELL * distance;
                }
            }
        }
        bonus
    }

    /// A two-player balance: the player's total minus the opponent's.
    pub(crate) fn two_player_balance(totals: &[i32; MAX_OWNERS], player: usize) -> i32 {
        totals[player.min(1)] - totals[1 - player.min(1)]
    }

    /// A player's total minus the average total of the other players still in the game.
    pub(crate) fn balance(
        &self,
        totals: &[i32; MAX_OWNERS],
        eliminated: impl Fn(usize) -> bool,
        player: usize,
    ) -> i32 {
        let mut sum = 0;
        let mut others = 0;
        for (p, &total) in totals.iter().enumerate().take(self.players.min(MAX_OWNERS)) {
            if p != player && !eliminated(p) {
                sum += total;
                others += 1;
            }
        }
        let own = totals.get(player).copied().unwrap_or(0);
        if others == 0 {
            own
        } else {
            own - sum / others
        }
    }

    /// What a move of `mover` onto a cell holding `taken` (possibly also `extra`) and promoting to
    /// `promotion` wins in material.
    pub(crate) fn capture_gain(
        &self,
        mover: Occupant,
        taken: &[Occupant],
        promotion: Option<usize>,
    ) -> i32 {
        let mut gain = 0;
        for &victim in taken {
            if !victim.is_empty() {
                // Taking an own piece loses it; an enemy's is won.
                gain += if victim.owner() == mover.owner() {
                    -self.value(victim.piece())
                } else {
                    self.value(victim.piece())
                };
            }
        }
        if let Some(piece) = promotion {
            gain += self.value(piece) - self.value(mover.piece());
        }
        gain
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
        let totals = self.material_of(position.cells.iter().copied().enumerate(), |p, piece| {
            hand_count(position, p, piece)
        });
        self.balance(&totals, |p| position.is_eliminated(p), player)
    }

    fn evaluate(&self, position: &Position, player: usize) -> i32 {
        self.evaluate_pieces(
            position.cells.iter().copied().enumerate(),
            |p, piece| hand_count(position, p, piece),
            |p| position.is_eliminated(p),
            position.side,
            player,
        )
    }

    /// The value of what a plain move captures, plus what a promotion adds. Moves whose effects go
    /// further (capture rules, drops, gating) are left to the search to play out.
    fn move_gain(&self, position: &Position, mv: crate::interp::Move) -> Option<i32> {
        let (mover, _, _) = plain_move(position, mv)?;
        let taken = [mv.to, mv.aux].map(|c| {
            if c == crate::interp::Move::NONE {
                Occupant::EMPTY
            } else {
                position.cells[c as usize]
            }
        });
        let promotion = (mv.piece > 0).then(|| mv.piece as usize - 1);
        Some(self.capture_gain(mover, &taken, promotion))
    }

    fn capture(&self, position: &Position, mv: crate::interp::Move) -> Option<super::Capture> {
        let (mover, from, to) = plain_move(position, mv)?;
        let _ = from;
        let victim = position.cells[to];
        if victim.is_empty()
            || victim.owner() == mover.owner()
            || mv.aux != crate::interp::Move::NONE
        {
            return None;
        }
        Some(super::Capture {
            to,
            attacker: self.value(mover.piece()),
            victim: self.value(victim.piece()),
        })
    }

    fn history_index(&self, position: &Position, mv: crate::interp::Move) -> Option<usize> {
        use crate::interp::MoveKind;
        let cells = self.places.len();
        let piece = match mv.kind {
            MoveKind::Drop => (mv.piece as usize).checked_sub(1)?,
            MoveKind::Pass => return None,
            _ => {
                let occ = *position.cells.get(mv.from as usize)?;
                if occ.is_empty() {
                    return None;
                }
                occ.piece()
            }
        };
        let to = mv.to as usize;
        (to < cells).then(|| (piece * MAX_OWNERS + position.side.min(MAX_OWNERS - 1)) * cells + to)
    }

    fn history_size(&self) -> usize {
        self.values.len() * MAX_OWNERS * self.places.len()
    }

    fn null_move_allowed(&self, position: &Position) -> bool {
        self.null_move_for(position.cells.iter().copied().enumerate(), position.side)
    }
}

/// The mover, start and target of a plain move (no capture rules, drops, gating, pairs, stacks or
/// mergers).
fn plain_move(position: &Position, mv: crate::interp::Move) -> Option<(Occupant, usize, usize)> {
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
    let mover = *position.cells.get(mv.from as usize)?;
    if mover.is_empty() {
        return None;
    }
    Some((mover, mv.from as usize, mv.to as usize))
}

fn hand_count(position: &Position, player: usize, piece: usize) -> u8 {
    position
        .hands
        .get(player)
        .and_then(|h| h.get(piece))
        .copied()
        .unwrap_or(0)
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
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

fn board_shapes(game: &Game) -> Vec<BoardShape> {
    game.boards
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
        .collect()
}

/// Whether a piece's moves depend on the player's orientation (direction letters on first legs).
fn is_oriented(piece: &Piece) -> bool {
    piece
        .moves
        .iter()
        .flat_map(|m| &m.parts)
        .any(|p| p.legs.first().is_some_and(|l| !l.directions.is_empty()))
        || piece.moves.iter().any(|m| m.from_zone.is_some())
}

/// The zone a piece is confined to (`confined ZONE`), if any.
fn confinement(piece: &Piece) -> Option<usize> {
    piece.confined
}

/// What a piece reaches from one cell on an empty board.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Reach {
    /// Cells reached, each weighted (half for move-only or capture-only cells; farther slide steps
    /// less).
    weighted: f64,
}

/// The cells of a zone for a player.
fn zone_cells(game: &Game, zone: usize, player: usize, cells: usize) -> Cells {
    let mut set = Cells::new(cells);
    if let Some(z) = game.zones.get(zone) {
        let list = z.cells.get(player).or_else(|| z.cells.first());
        for &cell in list.into_iter().flatten() {
            set.insert(cell);
        }
    }
    set
}

/// The cells one piece reaches from a cell, with how: for each target, whether it moves and
/// captures there, and its distance in steps of the part.
fn targets_from(
    game: &Game,
    shapes: &[BoardShape],
    piece: &Piece,
    player: usize,
    cell: usize,
    zones: &dyn Fn(usize) -> bool,
) -> Option<Vec<(Vec3, bool, bool, u32)>> {
    let player_frame = Frame {
        forward: game
            .players
            .get(player)
            .map(|p| p.forward.clone())
            .unwrap_or_default(),
    };
    let at = &game.cells[cell];
    let board = &game.boards[at.board];
    let frame = match board.forward {
        Some(forward) => Frame {
            forward: vec![forward],
        },
        None => player_frame,
    };
    let mut applies = false;
    let mut out: Vec<(Vec3, bool, bool, u32)> = Vec::new();
    let mut index: std::collections::HashMap<Vec3, usize> = std::collections::HashMap::new();
    for moves in piece
        .moves
        .iter()
        .filter(|m| m.boards.is_empty() || m.boards.contains(&at.board))
    {
        if let Some(zone) = moves.from_zone {
            if !zones(zone) {
                continue;
            }
        }
        applies = true;
        for part in moves.parts.iter().filter(|p| !p.initial) {
            let step = part
                .vectors
                .iter()
                .map(|v| v.iter().map(|c| c.abs()).max().unwrap_or(1))
                .min()
                .unwrap_or(1)
                .max(1);
            let rider = part.range != 1;
            for (target, reach) in
                expand_on_empty(part, at.coord, &frame, &shapes[at.board], game.dimensions)
            {
                let distance = (0..3)
                    .map(|i| (target[i] - at.coord[i]).abs())
                    .max()
                    .unwrap_or(0);
                let steps = if rider && part.legs.len() == 1 {
                    (distance / step).max(1) as u32
                } else {
                    1
                };
                match index.get(&target) {
                    Some(&i) => {
                        let entry = &mut out[i];
                        entry.1 |= reach.moves;
                        entry.2 |= reach.captures;
                        entry.3 = entry.3.min(steps);
                    }
                    None => {
                        index.insert(target, out.len());
                        out.push((target, reach.moves, reach.captures, steps));
                    }
                }
            }
        }
    }
    applies.then_some(out)
}

/// The reach of one piece for one player, cell by cell: `None` where none of its moves apply
/// (another board) or it may not stand (outside its confinement zone).
fn piece_reach(
    game: &Game,
    shapes: &[BoardShape],
    piece: &Piece,
    player: usize,
) -> Vec<Option<Reach>> {
    let cells = game.cells.len();
    let confined = confinement(piece).map(|z| zone_cells(game, z, player, cells));
    let zone_sets: Vec<Cells> = (0..game.zones.len())
        .map(|z| zone_cells(game, z, player, cells))
        .collect();
    let cell_at: std::collections::HashMap<(usize, Vec3), usize> = game
        .cells
        .iter()
        .enumerate()
        .map(|(i, c)| ((c.board, c.coord), i))
        .collect();
    (0..cells)
        .map(|cell| {
            if confined.as_ref().is_some_and(|z| !z.contains(cell)) {
                return None;
            }
            let in_zone = |zone: usize| zone_sets.get(zone).is_some_and(|z| z.contains(cell));
            let targets = targets_from(game, shapes, piece, player, cell, &in_zone)?;
            let board = game.cells[cell].board;
            let index_of = |at: Vec3| cell_at.get(&(board, at)).copied();
            let weighted = targets
                .iter()
                .filter(|(at, ..)| match &confined {
                    Some(zone) => index_of(*at).is_some_and(|c| zone.contains(c)),
                    None => true,
                })
                .map(|&(_, moves, captures, steps)| {
                    let mode = if moves && captures { 1.0 } else { 0.5 };
                    mode * SLIDE_DECAY.powi(steps as i32 - 1)
                })
                .sum();
            Some(Reach { weighted })
        })
        .collect()
}

/// A cell's distance (in ranks) from the player's own back edge of its board.
fn back_rank_distance(game: &Game, player: usize, cell: usize) -> i32 {
    let Some(forward) = game.players.get(player).and_then(|p| p.forward.first()) else {
        return 0;
    };
    let at = &game.cells[cell];
    let dot = |c: Vec3| (0..3).map(|i| c[i] * forward[i]).sum::<i32>();
    let least = game
        .cells
        .iter()
        .filter(|c| c.board == at.board)
        .map(|c| dot(c.coord))
        .min()
        .unwrap_or(0);
    dot(at.coord) - least
}

/// A cell's distance, in half cells, from its board's middle across the player's forward axis.
fn side_distance(game: &Game, player: usize, cell: usize) -> i32 {
    let Some(forward) = game.players.get(player).and_then(|p| p.forward.first()) else {
        return 0;
    };
    let at = &game.cells[cell];
    let size = game.boards[at.board].size;
    (0..2)
        .filter(|&i| forward[i] == 0)
        .map(|i| (2 * at.coord[i] - (size[i] as i32 - 1)).abs())
        .sum()
}

/// The structure tables of a pawn type for a player: the cells ahead of each cell, the cells where
/// an enemy pawn stops it, and how far it has come.
fn pawn_cells(
    game: &Game,
    shapes: &[BoardShape],
    index: usize,
    player: usize,
    players: usize,
) -> Vec<PawnCell> {
    let cells = game.cells.len();
    let piece = &game.pieces[index];
    let cell_at = |board: usize, at: Vec3| {
        game.cells
            .iter()
            .position(|c| c.board == board && c.coord == at)
    };
    let zone_sets: Vec<Cells> = (0..game.zones.len())
        .map(|z| zone_cells(game, z, player, cells))
        .collect();
    // One step of non-capturing moves from each cell, and the capture targets of each player's pawns.
    let step = |p: &Piece, who: usize, cell: usize, captures: bool| -> Vec<usize> {
        let in_zone = |zone: usize| {
            zone_cells(game, zone, who, cells).contains(cell)
                || (who == player && zone_sets[zone].contains(cell))
        };
        targets_from(game, shapes, p, who, cell, &in_zone)
            .unwrap_or_default()
            .into_iter()
            .filter(|&(_, moves, caps, _)| if captures { caps } else { moves })
            .filter_map(|(at, ..)| cell_at(game.cells[cell].board, at))
            .collect()
    };
    let promotion: Option<Cells> = if piece.promotions.is_empty() {
        None
    } else {
        let mut set = Cells::new(cells);
        for p in &piece.promotions {
            for c in 0..cells {
                if zone_cells(game, p.zone, player, cells).contains(c) {
                    set.insert(c);
                }
            }
        }
        Some(set)
    };
    // Distance in moves to the promotion zone (or to the farthest rank reached), by a backward
    // breadth-first search over the move graph.
    let next: Vec<Vec<usize>> = (0..cells).map(|c| step(piece, player, c, false)).collect();
    let mut distance = vec![u32::MAX; cells];
    let goal: Vec<bool> = match &promotion {
        Some(zone) => (0..cells).map(|c| zone.contains(c)).collect(),
        None => {
            let best = (0..cells)
                .map(|c| back_rank_distance(game, player, c))
                .max()
                .unwrap_or(0);
            (0..cells)
                .map(|c| back_rank_distance(game, player, c) == best)
                .collect()
        }
    };
    let mut frontier: Vec<usize> = (0..cells).filter(|&c| goal[c]).collect();
    for &c in &frontier {
        distance[c] = 0;
    }
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut newer = Vec::new();
        for c in 0..cells {
            if distance[c] == u32::MAX && next[c].iter().any(|t| frontier.contains(t)) {
                distance[c] = d;
                newer.push(c);
            }
        }
        frontier = newer;
    }
    let longest = distance
        .iter()
        .filter(|&&d| d != u32::MAX)
        .max()
        .copied()
        .unwrap_or(0)
        .max(1);
    // Enemy pawn capture targets, per cell, for the stopper sets.
    let enemy_attacks: Vec<Vec<usize>> = if promotion.is_some() {
        (0..cells)
            .map(|c| {
                let mut all = Vec::new();
                for enemy in (0..players).filter(|&e| e != player) {
                    for p in game.pieces.iter().filter(|p| p.pawn) {
                        all.extend(step(p, enemy, c, true));
                    }
                }
                all
            })
            .collect()
    } else {
        vec![Vec::new(); cells]
    };
    (0..cells)
        .map(|cell| {
            let advance = if distance[cell] == u32::MAX {
                0.0
            } else {
                1.0 - f64::from(distance[cell]) / f64::from(longest)
            };
            let mut ahead = Cells::new(cells);
            let mut stoppers = Cells::new(cells);
            if promotion.is_some() && distance[cell] != u32::MAX && distance[cell] > 0 {
                // Cells ahead: those reached by non-capturing moves that bring it nearer.
                let mut todo = vec![cell];
                while let Some(c) = todo.pop() {
                    for &t in &next[c] {
                        if distance[t] < distance[c] && !ahead.contains(t) {
                            ahead.insert(t);
                            todo.push(t);
                        }
                    }
                }
                for (c, attacks) in enemy_attacks.iter().enumerate() {
                    if ahead.contains(c) || attacks.iter().any(|&t| ahead.contains(t)) {
                        stoppers.insert(c);
                    }
                }
            }
            let a2 = advance * advance;
            PawnCell {
                ahead,
                stoppers,
                advance,
                passed: (
                    PASSED_MG.0 + (f64::from(PASSED_MG.1) * a2) as i32,
                    PASSED_EG.0 + (f64::from(PASSED_EG.1) * a2) as i32,
                ),
            }
        })
        .collect()
}
