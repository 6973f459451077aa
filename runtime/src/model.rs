//! The checked game model: plain data describing one game, built only by the `dsl` checker.
//!
//! Indices (`CellId`, `PieceId`, `PlayerId` ...) point into the vectors of [`Game`].

/// Index of a cell in [`Game::cells`].
pub type CellId = usize;
/// Index of a piece type in [`Game::pieces`].
pub type PieceId = usize;
/// Index of a player in [`Game::players`]; neutral sides follow the players.
pub type PlayerId = usize;
/// A vector of up to three integer coordinates (z is 0 on 2D boards).
pub type Vec3 = [i32; 3];

/// A whole game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    /// The identifier (`chess`).
    pub name: String,
    /// The display title.
    pub title: String,
    /// Other names engines accept for the game (`variant team-mate` in XBoard).
    pub aliases: Vec<String>,
    /// 2 or 3.
    pub dimensions: usize,
    /// The boards.
    pub boards: Vec<Board>,
    /// Every cell of every board.
    pub cells: Vec<Cell>,
    /// The players in turn order, then the neutral sides.
    pub players: Vec<Player>,
    /// The piece types.
    pub pieces: Vec<Piece>,
    /// The named zones.
    pub zones: Vec<Zone>,
    /// The start position.
    pub setup: Setup,
    /// Castling rules.
    pub castling: Vec<Directive>,
    /// Reserves and hands.
    pub reserves: Vec<Reserve>,
    /// Single moves per turn.
    pub moves_per_turn: u32,
    /// How the game ends.
    pub end: Vec<EndRule>,
    /// Triggered rules.
    pub rules: Vec<Rule>,
    /// The statements of the end block's `scoring { ... }` (points per game), if any.
    pub scoring: Vec<Directive>,
    /// Setup options.
    pub options: Vec<GameOption>,
    /// Turn statements beyond the move count (`pass`, `freeze` ...).
    pub turn: Vec<Directive>,
    /// The `custodian` rule, if the game has custodian capture.
    pub custodian: Option<Directive>,
    /// The move template of a `notation` block (`"{from}-{to}"`), if the game defines one.
    pub move_notation: Option<String>,
    /// The capture suffix of a `notation` block (`"x{cell}"`), accepted after a move on input.
    pub capture_suffix: Option<String>,
    /// How a pass is written (`pass "pass"` in a `notation` block), if the game says.
    pub pass_notation: Option<String>,
    /// The position template of a `notation` block (`"{board} {side} {moves_done}"`): the game's own
    /// position text, instead of FEN or the vdl position text.
    pub position_notation: Option<String>,
    /// Other top-level statements kept in general form (`captures any`, `transfer` blocks).
    pub directives: Vec<Directive>,
}

/// A board: a grid of cells, possibly with holes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    /// Its name.
    pub name: String,
    /// Files, ranks, levels.
    pub size: [u32; 3],
    /// File labels.
    pub files: Vec<String>,
    /// Rank labels.
    pub ranks: Vec<String>,
    /// Level labels (one, empty, on 2D boards).
    pub levels: Vec<String>,
    /// The first cell's index; the board's cells are contiguous in [`Game::cells`].
    pub first_cell: CellId,
    /// How many cells it has (holes excluded).
    pub cell_count: usize,
    /// Most pieces it may hold.
    pub capacity: Option<u32>,
    /// Whether a piece sent to the board when it is full captures an occupant (`overflow capture`).
    pub overflow_captures: bool,
    /// A forward direction fixed for every player, for moves on this board.
    pub forward: Option<Vec3>,
    /// Whether forward-relative moves are forbidden here.
    pub no_forward: bool,
    /// Alternative cell-name templates accepted on input.
    pub aliases: Vec<String>,
}

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The board it is on.
    pub board: usize,
    /// Its coordinates from 0.
    pub coord: Vec3,
    /// Its name (`e4`, `alpha1`).
    pub name: String,
}

/// A player or a neutral side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// Its name.
    pub name: String,
    /// Its display title.
    pub title: String,
    /// True for a neutral side.
    pub neutral: bool,
    /// Forward axes: one, or two for a corner frame.
    pub forward: Vec<Vec3>,
    /// Whether its pieces are written in upper case in FEN.
    pub upper_case: bool,
    /// Statements beyond the above (`movable_by`, `fen_prefix`).
    pub extra: Vec<Directive>,
}

/// A piece type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Piece {
    /// Its name.
    pub name: String,
    /// Its FEN letter(s), as written for the first player.
    pub letter: String,
    /// Its moves.
    pub moves: Vec<Moves>,
    /// Whether it is royal.
    pub royal: bool,
    /// Material value in centipawns, if given.
    pub value: Option<i32>,
    /// Whether it counts as a pawn for move-count rules.
    pub pawn: bool,
    /// Promotions.
    pub promotions: Vec<Promotion>,
    /// Stacking moves (`stacks BETZA onto PIECE...`): the moves, and the types it may climb onto.
    pub stacks: Vec<(Moves, Vec<PieceId>)>,
    /// Merger moves (`merge BETZA onto PIECE... into PIECE [in ZONE]`).
    pub merges: Vec<Merge>,
    /// Other properties (`captures_only`, `confined` ...).
    pub properties: Vec<Directive>,
}

/// A merger move: one step of the moves onto a friendly piece of one of the `onto` types (with the
/// target in the zone, when one is given); both pieces leave and a piece of the `into` type, owned by
/// the mover, stands on the target.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    /// The steps (single steps of the Betza parts, in the owner's frame; modes play no part).
    pub moves: Moves,
    /// The types it may merge with.
    pub onto: Vec<PieceId>,
    /// The type the two become.
    pub into: PieceId,
    /// The zone the target must lie in (for the mover's owner).
    pub zone: Option<usize>,
}

/// A set of moves with its restrictions.
#[derive(Clone, Debug, PartialEq)]
pub struct Moves {
    /// The Betza text.
    pub betza: String,
    /// The parsed parts.
    pub parts: Vec<MovePart>,
    /// Boards it is limited to (empty: all).
    pub boards: Vec<usize>,
    /// Whether these moves replace all others on those boards.
    pub exclusive: bool,
    /// The zone the piece must stand in to have these moves (`from ZONE`).
    pub from_zone: Option<usize>,
    /// The zone every cell of the move must lie in (`within ZONE`).
    pub within: Option<usize>,
    /// A condition on the position.
    pub condition: Option<Expr>,
}

/// One Betza part: legs sharing an atom.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePart {
    /// The legs, first to last.
    pub legs: Vec<Leg>,
    /// The atom letter.
    pub atom: char,
    /// The atom's base vectors.
    pub vectors: Vec<Vec3>,
    /// Steps: 1 for a leaper, 0 unlimited.
    pub range: u8,
    /// Only for an unmoved piece.
    pub initial: bool,
}

/// One leg of a move part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Leg {
    /// Direction letters.
    pub directions: String,
    /// Mode letters.
    pub modes: String,
}

/// A promotion rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Promotion {
    /// The zone that triggers it.
    pub zone: usize,
    /// The choices.
    pub choices: Vec<PieceId>,
    /// Whether the player may decline.
    pub optional: bool,
    /// Whether a move that starts in the zone qualifies too (`leaving`).
    pub leaving: bool,
    /// Pair promotion: the piece placed on the departure cell too, and its letter.
    pub pair: Option<String>,
    /// An extra condition.
    pub condition: Option<Expr>,
    /// The reserve the new piece is taken from (`from RESERVE`): only types it holds are choices.
    pub reserve: Option<usize>,
}

/// A named zone: cells per player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Zone {
    /// Its name.
    pub name: String,
    /// Cells for each player (index = `PlayerId`); an absolute zone has the same cells for all.
    pub cells: Vec<Vec<CellId>>,
}

/// The start position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// A FEN, if given.
    pub fen: Option<String>,
    /// Explicit placements and other setup statements.
    pub statements: Vec<Directive>,
}

/// A reserve or hand.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reserve {
    /// Its name.
    pub name: String,
    /// One per player (a hand) rather than shared.
    pub per_player: bool,
    /// Whether its pieces can be dropped.
    pub drops: bool,
    /// Initial content.
    pub holds: Vec<(PieceId, u32)>,
    /// The condition of each `holds` line (`holds gnu 8 when option.subvariant == 1`), in order.
    pub holds_when: Vec<Option<Expr>>,
    /// Whether captured pieces go here.
    pub captured_go_here: bool,
    /// Whether a captured promoted piece enters as a pawn (`demote_promoted`).
    pub demote_promoted: bool,
    /// The zone where its pieces enter play by gating (`gating ZONE`), instead of drops.
    pub gating: Option<usize>,
}

/// How a game may end.
#[derive(Clone, Debug, PartialEq)]
pub struct EndRule {
    /// The condition keyword (`checkmate`, `flag` ...).
    pub kind: String,
    /// Its arguments.
    pub arguments: Vec<Arg>,
    /// The result for the player it concerns.
    pub result: Outcome,
    /// False when a player may only claim it.
    pub automatic: bool,
    /// An extra condition.
    pub condition: Option<Expr>,
    /// Statements of its block (`mating_potential when ...`, `counting { ... }`).
    pub block: Vec<Directive>,
}

/// A game result from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player wins.
    Win,
    /// The player loses.
    Loss,
    /// A draw.
    Draw,
    /// Decided by points: the side with more wins, equal is a draw.
    Points,
}

/// A triggered rule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rule {
    /// Its name.
    pub name: String,
    /// Its statements in order: events, conditions and effects.
    pub statements: Vec<Directive>,
}

/// A setup option.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOption {
    /// Its name.
    pub name: String,
    /// Its values.
    pub values: Vec<String>,
    /// Its default value.
    pub default: Option<String>,
    /// The name XBoard and UCI show for it (`PairPromotion`), if it differs from `name`.
    pub engine_name: Option<String>,
    /// Another option's value that choosing this option implies (`selects setup seeded`).
    pub selects: Option<(String, String)>,
}

/// A checked statement kept in general form: its keyword, resolved arguments and condition.
#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    /// The keyword.
    pub keyword: String,
    /// The arguments.
    pub arguments: Vec<Arg>,
    /// The condition, if any.
    pub condition: Option<Expr>,
    /// Nested statements.
    pub children: Vec<Directive>,
}

/// A resolved argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A word (keyword, flag, event).
    Word(String),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A vector.
    Vector(Vec3),
    /// A piece type.
    Piece(PieceId),
    /// A player or neutral side.
    Player(PlayerId),
    /// A board.
    Board(usize),
    /// A zone.
    Zone(usize),
    /// A cell.
    Cell(CellId),
    /// A reserve.
    Reserve(usize),
    /// A list.
    List(Vec<Arg>),
    /// A range.
    Range(Box<Arg>, Box<Arg>),
}

impl Arg {
    /// The piece type, if this is one.
    pub fn as_piece(&self) -> Option<PieceId> {
        if let Arg::Piece(p) = self {
            Some(*p)
        } else {
            None
        }
    }

    /// The zone, if this is one.
    pub fn as_zone(&self) -> Option<usize> {
        if let Arg::Zone(z) = self {
            Some(*z)
        } else {
            None
        }
    }

    /// The board, if this is one.
    pub fn as_board(&self) -> Option<usize> {
        if let Arg::Board(b) = self {
            Some(*b)
        } else {
            None
        }
    }

    /// The vector, if this is one.
    pub fn as_vector(&self) -> Option<Vec3> {
        if let Arg::Vector(v) = self {
            Some(*v)
        } else {
            None
        }
    }

    /// The integer, if this is one.
    pub fn as_int(&self) -> Option<i64> {
        if let Arg::Int(n) = self {
            Some(*n)
        } else {
            None
        }
    }

    /// Whether this is the given word.
    pub fn is_word(&self, word: &str) -> bool {
        matches!(self, Arg::Word(w) if w == word)
    }
}

/// A condition expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Any of these.
    Or(Vec<Expr>),
    /// All of these.
    And(Vec<Expr>),
    /// Not this.
    Not(Box<Expr>),
    /// A comparison: operator (`==`, `!=`, `<`, `<=`, `>`, `>=`, `in`) and operands.
    Compare(&'static str, Box<Expr>, Box<Expr>),
    /// `+` or `-`.
    Arith(&'static str, Box<Expr>, Box<Expr>),
    /// A function call.
    Call(String, Vec<Expr>),
    /// A dotted path of names (`captured.piece`).
    Path(Vec<String>),
    /// A literal.
    Literal(Arg),
}
