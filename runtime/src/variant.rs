//! The trait every variant implements, interpreted or compiled: move generation, make/unmake, outcome,
//! hashing and text. Everything above it (perft, search, protocols, the CLI) is written once against it.

use std::fmt;

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<usize>,
    /// The end rule that decided it (`checkmate`, `stalemate`, `flag` ...).
    pub reason: String,
}

/// A position or move text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextError {
    /// What is wrong, naming the offending part.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TextError {}

impl TextError {
    /// Makes an error with a message.
    pub fn new(message: impl Into<String>) -> TextError {
        TextError {
            message: message.into(),
        }
    }
}

/// A cell as notations that name files and ranks write it (SAN's disambiguation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Square {
    /// The cell's name (`e4`).
    pub name: String,
    /// Its file's label (`e`).
    pub file: String,
    /// Its rank's label (`4`).
    pub rank: String,
}

/// What a move does, as notations that name pieces write it (SAN, PGN).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveFacts {
    /// The moving (or dropped) piece's letter as the first player writes it (`N`); a promoted form
    /// without a letter of its own is `+` and its base's letter (`+P`).
    pub piece: String,
    /// The start cell; none for drops and passes.
    pub from: Option<Square>,
    /// The target cell; none for passes.
    pub to: Option<Square>,
    /// Whether the move captures.
    pub capture: bool,
    /// The piece promoted to: its letter, or `+` for the moving piece's promoted form.
    pub promotion: Option<String>,
    /// For castling: `true` when the king goes towards higher files (`O-O`), `false` otherwise.
    pub castle: Option<bool>,
    /// Whether the move drops a piece from the hand.
    pub drop: bool,
    /// The letter of a piece brought in from the hand on the start cell (gating).
    pub gate: Option<String>,
    /// Whether the move is one that SAN has no form for (a pass, a merger, a stacking move, a move
    /// between boards): it is written in the game's own notation.
    pub special: bool,
}

/// A playable game: positions, legal moves, make/unmake, outcome and text.
pub trait Variant {
    /// A position.
    type Position: Clone;
    /// A move.
    type Move: Copy + Eq + fmt::Debug;
    /// What [`Variant::make`] returns so that [`Variant::unmake`] can restore the position exactly.
    type Undo;

    /// Returns the start position.
    fn start(&self) -> Self::Position;
    /// Appends the legal moves of the side to move (none when the game is over).
    fn legal_moves(&self, position: &mut Self::Position, moves: &mut Vec<Self::Move>);
    /// Tells whether the side to move has a legal move (a game over has none). Implementations may
    /// stop at the first one found.
    fn has_legal_move(&self, position: &mut Self::Position) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        !moves.is_empty()
    }

    /// Counts the legal moves of the side to move (perft's last ply). Implementations may count without
    /// listing the moves.
    fn count_legal_moves(&self, position: &mut Self::Position) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        moves.len() as u64
    }

    /// Appends the legal moves that capture, and returns true; returns false, appending nothing, when
    /// the game cannot tell captures apart (the search then plays moves out to find them).
    fn legal_captures(&self, _position: &mut Self::Position, _moves: &mut Vec<Self::Move>) -> bool {
        false
    }

    /// Tells whether the side to move has a royal piece under attack (the search extends checks and
    /// never prunes them). The default knows no checks.
    fn in_check(&self, _position: &mut Self::Position) -> bool {
        false
    }

    /// Passes the turn without moving (the search's null move), when the game can: two players, one
    /// move per turn. Returns `None`, leaving the position unchanged, when it cannot. The pass is
    /// taken back with [`Variant::unmake_null`].
    fn make_null(&self, _position: &mut Self::Position) -> Option<Self::Undo> {
        None
    }

    /// Takes back a pass made with [`Variant::make_null`].
    fn unmake_null(&self, _position: &mut Self::Position, _undo: Self::Undo) {}

    /// Chooses option values, each `NAME=VALUE` or a bare value one of the game's options lists
    /// (`--setup`, XBoard and UCI options); values given earlier and not named again are kept, and the
    /// start position follows the new values.
    ///
    /// # Errors
    ///
    /// Returns a message naming an unknown option or value; the game is then unchanged.
    fn set_options(&mut self, values: &[String]) -> Result<(), String> {
        match values.first() {
            None => Ok(()),
            Some(v) => Err(format!("the game has no option for `{v}`")),
        }
    }

    /// Whether the position occurred before in the game (the search scores a return to an earlier
    /// position as a draw). The default knows no history.
    fn repeats(&self, _position: &Self::Position) -> bool {
        false
    }

    /// Each player's points for a finished game, when the game scores games (`scoring`); `None`
    /// otherwise.
    fn scores(&self, _position: &Self::Position, _result: &GameResult) -> Option<Vec<f64>> {
        None
    }

    /// The places of the players when the game ended with `result`, in games that rank them
    /// (`ranking` in the end block): for each player, the first and last place he shares. `None`
    /// for games without a ranking.
    fn ranking(
        &self,
        _position: &Self::Position,
        _result: &GameResult,
    ) -> Option<Vec<(usize, usize)>> {
        None
    }

    /// The result a player could claim now (`repetition 3 draw claim`, `move_rule 50 draw claim`),
    /// which does not end the game by itself. The default knows none.
    fn claimable(&self, _position: &Self::Position) -> Option<GameResult> {
        None
    }

    /// What a legal move does, for notations that name pieces (SAN); `None` when the game is not
    /// played by two players on one 2D board, or cannot tell.
    fn move_facts(&self, _position: &Self::Position, _mv: Self::Move) -> Option<MoveFacts> {
        None
    }

    /// Draws a position for people (UCI's `d`); the default writes its FEN.
    fn render(&self, position: &Self::Position) -> String {
        format!("{}\n", self.write_position(position))
    }

    /// Plays a move.
    fn make(&self, position: &mut Self::Position, mv: Self::Move) -> Self::Undo;
    /// Takes back a move played with [`Variant::make`].
    fn unmake(&self, position: &mut Self::Position, mv: Self::Move, undo: Self::Undo);
    /// Returns the result if the game has ended automatically by the rules.
    fn outcome(&self, position: &mut Self::Position) -> Option<GameResult>;
    /// Returns the player's partner in a game of teams (`partner`): a result's winner wins with
    /// his partner, and the search plays for both. `None` by default.
    fn partner(&self, player: usize) -> Option<usize> {
        let _ = player;
        None
    }
    /// Returns the position's hash (incrementally maintained).
    fn hash(&self, position: &Self::Position) -> u64;
    /// Recomputes the hash from scratch, to check the incremental one.
    fn full_hash(&self, position: &Self::Position) -> u64;
    /// Reads a position in the game's FEN dialect.
    ///
    /// # Errors
    ///
    /// Returns what is wrong with the text.
    fn parse_position(&self, text: &str) -> Result<Self::Position, TextError>;
    /// Writes a position in the game's FEN dialect.
    fn write_position(&self, position: &Self::Position) -> String;
    /// Writes a move in the game's move notation.
    fn write_move(&self, position: &Self::Position, mv: Self::Move) -> String;

    /// Writes a move as the XBoard and UCI protocols write it: coordinates, a promotion as the new
    /// piece's lower-case letter (`e7e8q`), whatever the game's own notation (`notation { move ... }`).
    fn write_protocol_move(&self, position: &Self::Position, mv: Self::Move) -> String {
        self.write_move(position, mv)
    }

    /// Reads a move: one of the legal moves whose text matches, in the game's notation or else in the
    /// protocols' form.
    ///
    /// # Errors
    ///
    /// Returns an error naming the move when it is not legal here.
    fn parse_move(
        &self,
        position: &mut Self::Position,
        text: &str,
    ) -> Result<Self::Move, TextError> {
        let mut moves = Vec::new();
        self.legal_moves(position, &mut moves);
        moves
            .iter()
            .copied()
            .find(|m| self.write_move(position, *m) == text)
            .or_else(|| {
                moves
                    .iter()
                    .copied()
                    .find(|m| self.write_protocol_move(position, *m) == text)
            })
            .ok_or_else(|| {
                TextError::new(format!(
                    "illegal move `{text}` in position {}",
                    self.write_position(position)
                ))
            })
    }
}
