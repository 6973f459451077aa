//! Positions and moves of the interpreter.

use crate::model::CellId;

/// Most players (and neutral sides) a position holds.
pub const MAX_PLAYERS: usize = 8;

/// What stands on a cell: a piece type, its owner and its flags, packed; `EMPTY` when nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Occupant(u16);

impl Occupant {
    /// An empty cell.
    pub const EMPTY: Occupant = Occupant(0);
    const VIRGIN: u16 = 1 << 12;
    const PROMOTED: u16 = 1 << 13;
    const FROZEN: u16 = 1 << 14;
    const WAITING: u16 = 1 << 15;

    /// Makes an occupant of piece type `piece` owned by `owner`.
    pub fn new(piece: usize, owner: usize, virgin: bool, promoted: bool) -> Occupant {
        let mut bits = (piece as u16 + 1) | ((owner as u16) << 8);
        if virgin {
            bits |= Self::VIRGIN;
        }
        if promoted {
            bits |= Self::PROMOTED;
        }
        Occupant(bits)
    }

    /// Tells whether the cell is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 & 0xff == 0
    }

    /// The piece type (meaningless when empty).
    #[inline]
    pub fn piece(self) -> usize {
        (self.0 & 0xff) as usize - 1
    }

    /// The owner (meaningless when empty).
    #[inline]
    pub fn owner(self) -> usize {
        ((self.0 >> 8) & 0xf) as usize
    }

    /// Whether the piece has not moved since the game began (or since it was created).
    #[inline]
    pub fn is_virgin(self) -> bool {
        self.0 & Self::VIRGIN != 0
    }

    /// Whether the piece got its type by promotion (FEN `~`).
    #[inline]
    pub fn is_promoted(self) -> bool {
        self.0 & Self::PROMOTED != 0
    }

    /// Whether the piece may not move again this turn.
    #[inline]
    pub fn is_frozen(self) -> bool {
        self.0 & Self::FROZEN != 0
    }

    /// The same piece, frozen or not.
    pub fn with_frozen(self, frozen: bool) -> Occupant {
        if frozen {
            Occupant(self.0 | Self::FROZEN)
        } else {
            Occupant(self.0 & !Self::FROZEN)
        }
    }

    /// Whether the piece was sent to its cell by a rule (`send`) and its owner has not moved since.
    #[inline]
    pub fn is_waiting(self) -> bool {
        self.0 & Self::WAITING != 0
    }

    /// The same piece, waiting or not.
    pub fn with_waiting(self, waiting: bool) -> Occupant {
        if waiting {
            Occupant(self.0 | Self::WAITING)
        } else {
            Occupant(self.0 & !Self::WAITING)
        }
    }

    /// The same piece, having moved.
    pub fn moved(self) -> Occupant {
        Occupant(self.0 & !Self::VIRGIN)
    }

    /// The raw bits, for hashing.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The occupant with these raw bits (see [`Occupant::bits`]): compact engines keep the piece
    /// under a stack this way.
    pub fn from_bits(bits: u16) -> Occupant {
        Occupant(bits)
    }
}

/// A position: cells, hands, side to move and the state the rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// What stands on each cell.
    pub cells: Vec<Occupant>,
    /// Pieces in hand: `hands[player][piece]`.
    pub hands: Vec<Vec<u8>>,
    /// The player to move.
    pub side: usize,
    /// En-passant rights: (cell that may be landed on, cell of the piece captured).
    pub en_passant: Vec<(CellId, CellId)>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove: u32,
    /// The move number, starting at 1, incremented after the last player's move.
    pub fullmove: u32,
    /// Checks given by each player.
    pub checks: [u32; MAX_PLAYERS],
    /// The incremental hash.
    pub hash: u64,
    /// Hashes of earlier positions, for repetition.
    pub history: Vec<u64>,
    /// For each move of `history`, in games with a `perpetual_check` line: the player who made it,
    /// times two, plus one when it gave check.
    pub check_history: Vec<u8>,
    /// A counting rule's count (`counting`), while it runs: where it began, plies since, the limit.
    pub count: Option<[u16; 3]>,
    /// The last move played, if known.
    pub last: Option<Move>,
    /// Consecutive passes just played.
    pub passes: u32,
    /// Single moves already made in the current turn (multi-move turns).
    pub turn_moves: u32,
    /// Eliminated players, one bit each.
    pub eliminated: u32,
    /// For each eliminated player, how many players were in the game when he dropped out (himself
    /// and those eliminated with him included), for scoring.
    pub dropped_among: [u8; MAX_PLAYERS],
    /// For each player checkmated by another (games that go on after a checkmate), the mater plus
    /// one; 0 for a player not checkmated. Checkmates delivered and the order of the checkmates
    /// (with `dropped_among`) follow from it.
    pub mated_by: [u8; MAX_PLAYERS],
    /// Pieces under the top piece of a cell (stacks), as (cell, piece below).
    pub stacks: Vec<(CellId, Occupant)>,
    /// Capture counters, in games that count captures: enemy pieces each player removed by his own
    /// moves, at `player * piece types + piece`; empty while nothing has been counted.
    pub captured: Vec<u32>,
    /// Whether a piece was removed (or a pawn moved) during the current turn: the turn then ends with
    /// the half-move counter at 0 (multi-move turns count turns, not single moves).
    pub reset_in_turn: bool,
}

impl Position {
    /// An empty position: no pieces, empty hands (one per player and a shared one), first player to move.
    pub fn empty(cells: usize, pieces: usize, players: usize) -> Position {
        Position {
            cells: vec![Occupant::EMPTY; cells],
            hands: vec![vec![0; pieces]; players + 1],
            side: 0,
            en_passant: Vec::new(),
            halfmove: 0,
            fullmove: 1,
            checks: [0; MAX_PLAYERS],
            hash: 0,
            history: Vec::new(),
            check_history: Vec::new(),
            count: None,
            last: None,
            passes: 0,
            turn_moves: 0,
            eliminated: 0,
            dropped_among: [0; MAX_PLAYERS],
            mated_by: [0; MAX_PLAYERS],
            stacks: Vec::new(),
            captured: Vec::new(),
            reset_in_turn: false,
        }
    }

    /// Tells whether a player has been eliminated.
    pub fn is_eliminated(&self, player: usize) -> bool {
        self.eliminated & (1 << player) != 0
    }

    /// How many enemy pieces of type `piece` `player` has captured (games that count captures).
    pub fn captured_count(&self, player: usize, piece: usize, pieces: usize) -> u32 {
        self.captured
            .get(player * pieces + piece)
            .copied()
            .unwrap_or(0)
    }
}

/// How a move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves from `from` to `to`, capturing what stands there (if anything) and what `captures`
    /// names.
    Normal,
    /// A piece from the hand is put on `to`.
    Drop,
    /// The king moves from `from` to `to` and its partner from `aux` to `aux2`.
    Castle,
    /// A pass.
    Pass,
    /// The mover takes his piece on `from` (also `to`) into his hand; `piece` is its type plus one.
    PickUp,
}

/// A move. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// How it is played.
    pub kind: MoveKind,
    /// The start cell (for drops: the target too).
    pub from: u16,
    /// The target cell.
    pub to: u16,
    /// Promotion target, dropped piece or (for a merger) the piece the two become, plus one; 0 for
    /// none.
    pub piece: u8,
    /// An extra captured cell (en passant, locust), or the castling partner's start; `NONE` if unused.
    pub aux: u16,
    /// The castling partner's target, or a gating cell; `NONE` if unused.
    pub aux2: u16,
    /// Set when the piece that moves creates en-passant rights (on the cells it passed).
    pub ep_source: bool,
    /// A piece from the hand gated onto `gate_cell`, plus one; 0 for none.
    pub gate: u8,
    /// The cell a gated piece enters (a cell the move vacates).
    pub gate_cell: u16,
    /// A pair promotion: a second piece of the promoted type is put on the cell the move left.
    pub pair: bool,
    /// A stacking move: the piece climbs onto the one on `to`, which stays below it.
    pub stack: bool,
    /// A merger: the piece moves onto a friendly piece on `to`, and both leave for one piece of type
    /// `piece - 1`, owned by the mover, on `to`. Not a capture.
    pub merge: bool,
    /// The cell the move puts a wall on, in the same ply (`turn { wall ... }`); `NONE` if none.
    pub wall: u16,
    /// A peaceful promotion move (`promote_move ... peaceful`): it may not give check, and the new
    /// piece may not attack an enemy piece.
    pub peaceful: bool,
}

impl Move {
    /// The marker for an unused cell field.
    pub const NONE: u16 = u16::MAX;

    /// A plain move.
    pub fn normal(from: usize, to: usize) -> Move {
        Move {
            kind: MoveKind::Normal,
            from: from as u16,
            to: to as u16,
            piece: 0,
            aux: Move::NONE,
            aux2: Move::NONE,
            ep_source: false,
            gate: 0,
            gate_cell: Move::NONE,
            pair: false,
            stack: false,
            merge: false,
            wall: Move::NONE,
            peaceful: false,
        }
    }
}

/// What [`crate::Variant::make`] saved to take a move back.
#[derive(Clone, Debug)]
pub struct Undo {
    pub(super) changed: ChangeLog,
    pub(super) hand_changes: Vec<(usize, usize, i8)>,
    pub(super) side: usize,
    pub(super) en_passant: Vec<(CellId, CellId)>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) checks: [u32; MAX_PLAYERS],
    pub(super) hash: u64,
    pub(super) last: Option<Move>,
    pub(super) passes: u32,
    pub(super) turn_moves: u32,
    pub(super) eliminated: u32,
    pub(super) dropped_among: [u8; MAX_PLAYERS],
    pub(super) mated_by: [u8; MAX_PLAYERS],
    pub(super) stacks: Vec<(CellId, Occupant)>,
    pub(super) captured: Vec<u32>,
    pub(super) reset_in_turn: bool,
    pub(super) count: Option<[u16; 3]>,
}

/// The cells a move changed, with what stood there before: a few inline, more on the heap (explosions),
/// so that making a move does not allocate.
#[derive(Clone, Debug, Default)]
pub(super) struct ChangeLog {
    inline: [(u16, Occupant); 6],
    len: usize,
    spill: Vec<(usize, Occupant)>,
}

impl ChangeLog {
    /// Records that `cell` held `old`.
    #[inline]
    pub(super) fn push(&mut self, cell: usize, old: Occupant) {
        if self.len < self.inline.len() && self.spill.is_empty() {
            self.inline[self.len] = (cell as u16, old);
            self.len += 1;
        } else {
            self.spill.push((cell, old));
        }
    }

    /// The changes, last first.
    pub(super) fn undo_order(&self) -> impl Iterator<Item = (usize, Occupant)> + '_ {
        self.spill.iter().rev().copied().chain(
            self.inline[..self.len]
                .iter()
                .rev()
                .map(|&(c, o)| (c as usize, o)),
        )
    }
}
