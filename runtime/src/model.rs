//! The checked game model: plain, typed data describing one game, built only by the `dsl` checker.
//!
//! Every construct a rule file may contain is a value here: enums and structs with resolved indices
//! (`CellId`, `PieceId`, `PlayerId` ... point into the vectors of [`Game`]). No stage after the checker
//! reads words to find out what a rule means: the interpreter and the compiler match on these types,
//! so a new construct cannot be added without every backend handling it.

pub mod cond;
pub mod end;
pub mod rules;

pub use cond::{
    BoardExpr, CellExpr, Compare, Cond, IntExpr, PieceRef, PieceSet, PieceTypeExpr, Place,
    PlayerExpr, Sides, Value,
};
pub use end::{Counting, EndKind, EndRule, EndTiming, Outcome, RankGroup, Scoring, Subject};
pub use rules::{Destination, Effect, Event, Into, Rule, Target, Who};

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
    /// Who designed the game (`author`), where its rules come from (`source`), what it derives from
    /// (`based_on`): shown by `vdl show --info` and kept for tools.
    pub credits: Credits,
    /// 2 or 3.
    pub dimensions: usize,
    /// The boards.
    pub boards: Vec<Board>,
    /// Every cell of every board.
    pub cells: Vec<Cell>,
    /// The players in declaration order, then the neutral sides.
    pub players: Vec<Player>,
    /// The piece types.
    pub pieces: Vec<Piece>,
    /// The named zones.
    pub zones: Vec<Zone>,
    /// The start position.
    pub setup: Setup,
    /// Castling rules.
    pub castling: Vec<Castle>,
    /// Reserves and hands.
    pub reserves: Vec<Reserve>,
    /// The turn structure.
    pub turn: Turn,
    /// How the game ends.
    pub end: Vec<EndRule>,
    /// How players are ranked when the game ends (`ranking`), empty when the game does not say.
    pub ranking: Vec<RankGroup>,
    /// Points per game (`scoring { ... }`).
    pub scoring: Option<Scoring>,
    /// Triggered rules, in file order.
    pub rules: Vec<Rule>,
    /// Setup options.
    pub options: Vec<GameOption>,
    /// Type maps (`typemap NAME { map ... to ... }`).
    pub typemaps: Vec<TypeMap>,
    /// Moves between boards (`transfer` blocks).
    pub transfers: Vec<Transfer>,
    /// Custodian capture, if the game has it.
    pub custodian: Option<Custodian>,
    /// The game's own move and position text (`notation { ... }`).
    pub notation: Notation,
    /// Whose pieces a capture may take (`captures enemy|any`).
    pub captures: CaptureScope,
}

/// Who made a game and where its rules come from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Credits {
    /// `author STR`.
    pub author: Option<String>,
    /// `source STR`.
    pub source: Option<String>,
    /// `based_on STR`.
    pub based_on: Option<String>,
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
    /// What a piece sent to the board when it is full does (`overflow capture|forbid`).
    pub overflow: Overflow,
    /// A forward direction fixed for every player, for moves on this board.
    pub forward: Option<Vec3>,
    /// Alternative cell-name templates accepted on input.
    pub aliases: Vec<String>,
}

/// What happens to a piece sent to a full board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Overflow {
    /// It does not arrive: it leaves the game (default).
    #[default]
    Forbid,
    /// It captures the occupant of the board's first cell, which leaves the game.
    Capture,
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
    /// The prefix of its pieces in position texts (`fen_prefix "c"`).
    pub fen_prefix: Option<String>,
    /// Who else may move its pieces (`movable_by`).
    pub movable_by: Vec<MovableBy>,
    /// Points added to its pieces' for a `points` result (`bonus_points`).
    pub bonus_points: i32,
    /// The player it plays with as a team (`partner`): a team wins and loses together, and its
    /// members are never each other's opponents in results and search.
    pub partner: Option<PlayerId>,
}

/// A `movable_by` line: players who may move a piece, under a condition.
#[derive(Clone, Debug, PartialEq)]
pub struct MovableBy {
    /// Who may move it.
    pub who: Vec<MoverSide>,
    /// The condition (`mover` the piece, `own` the player who would move it).
    pub condition: Option<Cond>,
}

/// A side named by `movable_by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoverSide {
    /// Every player.
    All,
    /// Every player but the owner.
    Enemy,
    /// Nobody (clears the side's default).
    None,
    /// One player.
    Player(PlayerId),
}

/// A piece type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Piece {
    /// Its name.
    pub name: String,
    /// Its display name (`name STR`), if given.
    pub title: Option<String>,
    /// Its FEN letter(s), as written for the first player.
    pub letter: String,
    /// Its moves.
    pub moves: Vec<Moves>,
    /// Whether, and when, it is royal.
    pub royal: Royalty,
    /// Material value in centipawns, if given.
    pub value: Option<i32>,
    /// Points it counts for a `points` result (janggi).
    pub points: i32,
    /// Whether it counts as a pawn for move-count rules and the hand type of promoted pieces.
    pub pawn: bool,
    /// Promotions.
    pub promotions: Vec<Promotion>,
    /// Promotions that are moves of their own (`promote_move`).
    pub promotion_moves: Vec<PromotionMove>,
    /// Stacking moves (`stacks BETZA onto PIECE...`).
    pub stacks: Vec<Stack>,
    /// Merger moves (`merge BETZA onto PIECE... into PIECE [in ZONE]`).
    pub merges: Vec<Merge>,
    /// The type it promoted from (`promoted_from`): what it becomes in a hand.
    pub promoted_from: Option<PieceId>,
    /// The type it becomes when captured into a hand (`demote_to`).
    pub demote_to: Option<PieceId>,
    /// Types it may not hop over (`cannot_hop`).
    pub cannot_hop: Vec<PieceId>,
    /// Royal facing rule (`facing illegal|must_break`).
    pub facing: Option<Facing>,
    /// How it may move while its owner is in check (`check_evasion`), when restricted.
    pub check_evasion: Option<CheckEvasion>,
    /// In whose frame it moves (`perspective`).
    pub perspective: Perspective,
    /// Who else may move it (`movable_by`); when given, replaces its side's lines.
    pub movable_by: Vec<MovableBy>,
    /// A zone where a piece read from a position text counts as unmoved (`virgin_in`).
    pub virgin_in: Option<usize>,
    /// The only types it may capture (`captures_only`): the listed types, and royal pieces when the
    /// flag is set.
    pub captures_only: Option<(Vec<PieceId>, bool)>,
    /// It never captures (`never_captures`).
    pub never_captures: bool,
    /// It cannot be captured (`immune`).
    pub immune: bool,
    /// The zone it may never leave (`confined`).
    pub confined: Option<usize>,
    /// Most pieces of the type a player may have (`count_limit`), for drops and promotions.
    pub count_limit: Option<u32>,
    /// Where it may be dropped (`drop_zone`).
    pub drop_zone: Option<usize>,
    /// A drop of it may not give checkmate (`no_drop_mate`).
    pub no_drop_mate: bool,
    /// Most pieces of the type a player may have on one file, for drops (`drop_file_limit`).
    pub drop_file_limit: Option<u32>,
    /// A player's pieces of the type are dropped on cells of different colours, and no other drop
    /// may leave too few colours free for those still in his hand (`drop_opposite_colours`).
    pub drop_opposite_colours: bool,
}

/// When a piece type is royal.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Royalty {
    /// Never.
    #[default]
    No,
    /// Always (`royal`).
    Yes,
    /// While the condition holds for the piece (`royal when COND`, `mover` being the piece).
    When(Cond),
}

impl Royalty {
    /// Whether the type may be royal at all.
    pub fn is_royal(&self) -> bool {
        !matches!(self, Royalty::No)
    }
}

/// The royal facing rule of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// Royal pieces may not face each other on an open file.
    Illegal,
    /// Facing is allowed, but any move other than a pass must break it.
    MustBreak,
}

/// How a piece may move while its owner is in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckEvasion {
    /// Only by capturing the piece that gives check, when only one does (makpong's king).
    CaptureChecker,
}

/// In whose frame a piece moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Perspective {
    /// Its owner's (default).
    #[default]
    Owner,
    /// The player moving it.
    Player,
}

/// A stacking move: one step onto a piece of the listed types, which then stands under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// The steps.
    pub moves: Moves,
    /// The types it may climb onto.
    pub onto: Vec<PieceId>,
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
    pub condition: Option<Cond>,
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
    /// How a one-leg rider's steps follow one another: straight, crooked (`z`) or circular (`q`).
    pub path: RiderPath,
    /// Whether a leg ends on a friendly piece that takes the move over (XBetza `x`).
    pub hand_on: HandOn,
}

/// What a part with XBetza's `x` does with the friendly piece its `x` leg ends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HandOn {
    /// No `x`: the piece makes the whole move itself.
    #[default]
    None,
    /// Induction (`x` on the leg of this index, before the last, as in `mNxaN`): the friendly piece
    /// that leg ends on makes the remaining legs; the piece that started the move stays.
    Induction(usize),
    /// Move borrowing (`x` on the last leg, as in `KxK`): the piece makes, from its own cell, the
    /// moves of the friendly piece's type (their parts with `x` left out).
    Borrowing,
}

impl MovePart {
    /// The leg of XBetza's `x`, if any, and whether it is the last.
    pub fn hand_on_from_legs(legs: &[Leg]) -> HandOn {
        match legs.iter().position(|l| l.modes.contains('x')) {
            None => HandOn::None,
            Some(i) if i + 1 == legs.len() => HandOn::Borrowing,
            Some(i) => HandOn::Induction(i),
        }
    }
}

/// How the steps of a one-leg rider follow one another (XBetza's `z` and `q` before the atom of a part
/// without `a`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RiderPath {
    /// Every step the same, along one line (`R`, `NN`).
    #[default]
    Straight,
    /// Crooked (`zB`, the boyscout; `zN`, the quintessence): each step turns a right angle, alternately
    /// to one side and back.
    Crooked,
    /// Circular (`qN`, the rose): each step turns by the atom's smallest turn, always the same way, until
    /// the path would close on its start cell.
    Circular,
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
    /// Whether only a move that captures promotes (`capturing`).
    pub capturing: bool,
    /// Pair promotion: the piece placed on the departure cell too, and its letter.
    pub pair: Option<String>,
    /// An extra condition (`mover` the promoting piece).
    pub condition: Option<Cond>,
    /// The reserve the new piece is taken from (`from RESERVE`): only types it holds are choices.
    pub reserve: Option<usize>,
}

/// A promotion that is a move of its own (`promote_move`, sittuyin's pawn): instead of moving, the
/// piece turns into one of the types where it stands (`in_place`) or with one step onto an empty cell
/// (`by BETZA`). Never a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct PromotionMove {
    /// The types it may become, each a separate move.
    pub choices: Vec<PieceId>,
    /// Whether it may promote on its own cell.
    pub in_place: bool,
    /// The steps onto an empty cell with which it may promote (single steps of the Betza parts, in
    /// the owner's frame), if any.
    pub steps: Option<Moves>,
    /// The move may not give check, and the new piece may not attack an enemy piece (`peaceful`).
    pub peaceful: bool,
    /// When it is allowed (`mover` the promoting piece, `own` its owner).
    pub condition: Option<Cond>,
}

/// A named zone: cells per player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Zone {
    /// Its name.
    pub name: String,
    /// Cells for each player (index = `PlayerId`); an absolute zone has the same cells for all.
    pub cells: Vec<Vec<CellId>>,
}

/// A value written in the file, or an option's chosen value (`option.seed`).
#[derive(Clone, Debug, PartialEq)]
pub enum Setting<T> {
    /// A literal.
    Fixed(T),
    /// The chosen value of an option.
    Option(usize),
}

/// The start position: setup blocks, each perhaps under an option condition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// The `setup` statements in file order.
    pub blocks: Vec<SetupBlock>,
}

/// One `setup` statement.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetupBlock {
    /// Its condition on the options (`setup when option.setup == fixed`).
    pub condition: Option<Cond>,
    /// The FEN written after `setup`, if any.
    pub fen: Option<String>,
    /// The statements of its block, each perhaps under an option condition.
    pub steps: Vec<Guarded<SetupStep>>,
}

/// A statement of a `setup` block.
#[derive(Clone, Debug, PartialEq)]
pub enum SetupStep {
    /// `fen FEN`: the start position.
    Fen(String),
    /// `place SIDE PIECE CELL...`.
    Place {
        /// The owner.
        side: PlayerId,
        /// The type.
        piece: PieceId,
        /// The cells.
        cells: Vec<CellId>,
    },
    /// `shuffle PLAYER [PIECES] in ZONE`: the pieces in a random order on the player's part of the
    /// zone.
    Shuffle {
        /// The owner.
        player: PlayerId,
        /// The pieces, in order before shuffling.
        pieces: Vec<PieceId>,
        /// The cells.
        zone: usize,
    },
    /// `fill RESERVE PIECE INT`: a reserve starts with INT pieces of the type.
    Fill {
        /// The reserve.
        reserve: usize,
        /// The type.
        piece: PieceId,
        /// How many.
        count: u32,
    },
    /// `seed INT`: the seed of `shuffle`.
    Seed(Setting<u64>),
    /// `arrange [PIECES] in ZONE by CODE`: a setup code's letters on the zone's cells.
    Arrange {
        /// The types the code may name.
        pieces: Vec<PieceId>,
        /// The cells.
        zone: usize,
        /// The code.
        code: Setting<String>,
    },
}

/// A value under an optional condition.
#[derive(Clone, Debug, PartialEq)]
pub struct Guarded<T> {
    /// The value.
    pub item: T,
    /// When it applies.
    pub condition: Option<Cond>,
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
    /// A condition on each drop (`drops when ...`: `to` the target cell, `own` the dropping player).
    pub drop_condition: Option<Cond>,
    /// Initial content, each line perhaps under an option condition (`holds gnu 8 when ...`); in a
    /// reserve per player, every player's part holds them.
    pub holds: Vec<Guarded<(PieceId, u32)>>,
    /// Whether captured pieces go here, and into whose part (`captured_go_here partner`).
    pub captured_go_here: Option<CapturesTo>,
    /// Whether a captured promoted piece enters as a pawn (`demote_promoted`).
    pub demote_promoted: bool,
    /// The zone where its pieces enter play by gating (`gating ZONE`), instead of drops.
    pub gating: Option<usize>,
    /// Whether a piece may also be dropped as a type promoted from it (`drop_promoted`).
    pub drop_promoted: bool,
    /// Whether a drop from it may not give check (`no_drop_check`).
    pub no_drop_check: bool,
    /// Pick-up moves into it (`pick_up`): a player takes one of his pieces off the board into his
    /// part of it, as a whole move.
    pub pick_ups: Vec<PickUp>,
    /// Whether a dropped piece stands unmoved (virgin), as a piece of the start position does
    /// (`drops_virgin`): it may castle and make its `i` moves.
    pub drops_virgin: bool,
}

/// Whose part of a hand a captured piece enters (`captured_go_here`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturesTo {
    /// The capturer's (crazyhouse, shogi).
    Captor,
    /// The capturer's partner's (`captured_go_here partner`: bughouse).
    Partner,
}

/// A pick-up move (`pick_up PIECES (from ZONE)? when COND`): instead of a move, a player takes one of
/// his pieces of these types off its cell into his hand.
#[derive(Clone, Debug, PartialEq)]
pub struct PickUp {
    /// The types that may be picked up; `All` is every type that is not royal.
    pub pieces: PieceSet,
    /// Only from cells of this zone (the player's part).
    pub from: Option<usize>,
    /// A condition on each pick-up (`mover` the piece, `own` its owner).
    pub condition: Option<Cond>,
}

/// A castling rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Castle {
    /// The piece that castles.
    pub king: Option<PieceId>,
    /// Partner types, each perhaps limited to directions and a condition.
    pub partners: Vec<CastlePartner>,
    /// Directions (board-absolute) the king may castle in.
    pub along: Vec<Vec3>,
    /// Where the partner stands.
    pub partner_at: PartnerAt,
    /// Cells the king moves.
    pub king_steps: u32,
    /// Where the partner lands.
    pub partner_to: PartnerTo,
    /// What the king and partners must be (`requires`); empty: an unmoved king and partner.
    pub requires: Vec<Requirement>,
    /// Whether the king may not castle out of, through or into check (default; `ignore_attacks`
    /// turns it off).
    pub check_attacks: bool,
    /// Cells the king must stand on (`from`), empty for anywhere.
    pub from: Vec<CellsOrZone>,
    /// Where the king lands (`king_lands`): the one of these cells on its line (either side of it,
    /// or its own cell), whatever its start; empty: `king_steps` cells towards the partner.
    pub king_lands: Vec<CellsOrZone>,
    /// Where the partner lands (`partner_lands`), as `king_lands`; empty: by `partner_to`.
    pub partner_lands: Vec<CellsOrZone>,
}

impl Castle {
    /// Whether a `requires` line (of `kind`, or of any kind) names the king: the word `king` or its
    /// type.
    pub fn requires_king(&self, kind: Option<Untouched>) -> bool {
        self.requires_any(kind, |p| {
            p == CastlePiece::King || Some(p) == self.king.map(CastlePiece::Piece)
        })
    }

    /// Whether a `requires` line (of `kind`, or of any kind) names the partner: the word `partner`
    /// or a partner type.
    pub fn requires_partner(&self, kind: Option<Untouched>) -> bool {
        self.requires_any(kind, |p| {
            p == CastlePiece::Partner
                || self
                    .partners
                    .iter()
                    .any(|l| l.pieces.iter().any(|&t| p == CastlePiece::Piece(t)))
        })
    }

    fn requires_any(&self, kind: Option<Untouched>, named: impl Fn(CastlePiece) -> bool) -> bool {
        self.requires
            .iter()
            .filter(|r| kind.is_none_or(|k| r.kind == k))
            .any(|r| r.pieces.iter().any(|&p| named(p)))
    }
}

/// A `partner` line.
#[derive(Clone, Debug, PartialEq)]
pub struct CastlePartner {
    /// The types.
    pub pieces: Vec<PieceId>,
    /// The directions, if limited.
    pub along: Vec<Vec3>,
    /// The condition (`player`/`own` the castling player).
    pub condition: Option<Cond>,
}

/// Where a castling partner stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PartnerAt {
    /// The piece at the board's edge (default).
    #[default]
    Edge,
    /// At a distance in the range, every cell between empty.
    Distance(u32, u32),
}

/// Where a castling partner lands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PartnerTo {
    /// On the cell the king crossed next to its arrival (default).
    #[default]
    Crossed,
    /// On the cell just past the king's arrival.
    Beyond,
}

/// A `requires` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Requirement {
    /// What the pieces must be.
    pub kind: Untouched,
    /// Which pieces.
    pub pieces: Vec<CastlePiece>,
}

/// How untouched a castling piece must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untouched {
    /// Not moved since it was created.
    Virgin,
    /// On its start cell since the start of the game.
    Original,
}

/// A piece a `requires` line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlePiece {
    /// The castling king.
    King,
    /// The partner.
    Partner,
    /// A type.
    Piece(PieceId),
}

/// A set of cells: one cell or a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellsOrZone {
    /// One cell.
    Cell(CellId),
    /// A zone (the player's part).
    Zone(usize),
}

/// The turn structure.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// The players in turn order (`order`), every player once.
    pub order: Vec<PlayerId>,
    /// Single moves per turn.
    pub moves: u32,
    /// When a player may pass.
    pub pass: Pass,
    /// What freezes the piece that moved for the rest of the turn.
    pub freeze: Vec<FreezeEvent>,
    /// Whether a multi-move turn ends early when the mover has no legal single move left.
    pub end_early_when_stuck: bool,
    /// How long an en-passant right lasts.
    pub en_passant_expires: EnPassantExpiry,
    /// When an en-passant right is part of the position.
    pub en_passant_right: EnPassantRight,
    /// What checkmate is.
    pub checkmate_test: CheckmateTest,
    /// When a capture is legal, only captures are.
    pub must_capture: bool,
    /// When the condition holds for the player to move (`Cond::Const(true)` without one) and he has
    /// a legal drop, only drops are legal (`must_drop`).
    pub must_drop: Option<Cond>,
    /// A move that gives check is illegal.
    pub forbid_checks: bool,
    /// Which of the mover's royal pieces a move may not leave attacked.
    pub royal_safety: RoyalSafety,
    /// What completes each move in the same ply: a wall on a cell (`wall ...`).
    pub wall: Option<Walling>,
}

/// A wall each move places after the piece has moved, in the same ply (Fairy-Stockfish's walling
/// rules): the cell becomes a wall, which no piece may enter, pass or capture (leaps jump over it).
/// Written `e2e4,e4d5`: the move, then its arrival cell and the wall's cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Walling {
    /// Where the wall may go.
    pub cells: WallCells,
    /// The zone the wall must be in (the mover's part), if limited.
    pub zone: Option<usize>,
    /// There is one wall only: placing it takes the previous one away (the duck of duck chess).
    pub single: bool,
}

/// Where a wall may go.
#[derive(Clone, Debug, PartialEq)]
pub enum WallCells {
    /// Any empty cell.
    Empty,
    /// An empty cell the moved piece reaches from its arrival cell with these moves, through empty
    /// cells (the arrows of the game of the Amazons).
    Reach(Box<Moves>),
    /// The cell the piece left.
    Vacated,
}

impl Default for Turn {
    fn default() -> Turn {
        Turn {
            order: Vec::new(),
            moves: 1,
            pass: Pass::Never,
            freeze: Vec::new(),
            end_early_when_stuck: false,
            en_passant_expires: EnPassantExpiry::NextMove,
            en_passant_right: EnPassantRight::Always,
            checkmate_test: CheckmateTest::NoMoves,
            royal_safety: RoyalSafety::Any,
            must_capture: false,
            must_drop: None,
            forbid_checks: false,
            wall: None,
        }
    }
}

/// When a player may pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pass {
    /// Never (default).
    #[default]
    Never,
    /// A player with no legal move passes.
    WhenStuck,
    /// Always.
    Allowed,
}

/// An event after which the piece that moved is frozen (`freeze after`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreezeEvent {
    /// Any move.
    Move,
    /// A move passing over an occupied cell.
    Jump,
    /// Stepping off a stack.
    Unpin,
    /// A move that removes a piece.
    Capture,
    /// A stacking move.
    Stack,
}

/// How long an en-passant right lasts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnPassantExpiry {
    /// For the next move only (default).
    #[default]
    NextMove,
    /// Until its creator's next turn.
    OwnerTurn,
}

/// When an en-passant right is part of the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnPassantRight {
    /// Always after a move that creates one (default).
    #[default]
    Always,
    /// Only when the player to move can take it.
    WhenCapturable,
}

/// Which of the mover's royal pieces a move may not leave attacked (`royal_safety`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RoyalSafety {
    /// Any of them (default): a move that leaves one royal piece attacked is illegal.
    #[default]
    Any,
    /// All of them (Spartan chess's two kings): a move is illegal only if it leaves every royal
    /// piece attacked, and a player is in check only when every royal piece is attacked.
    All,
}

/// What checkmate is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckmateTest {
    /// In check with no legal move (default).
    #[default]
    NoMoves,
    /// At the start of a player's turn, every other player whose royal piece he attacks.
    AttackedAtTurnStart,
}

/// A setup option.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameOption {
    /// Its name.
    pub name: String,
    /// Its values (`text` allows any; `Range(LO..HI)` written as such).
    pub values: Vec<String>,
    /// Its default value.
    pub default: Option<String>,
    /// A description for users (`describe`).
    pub description: Option<String>,
    /// The name XBoard and UCI show for it (`PairPromotion`), if it differs from `name`.
    pub engine_name: Option<String>,
    /// Another option's value that choosing this option implies (`selects setup seeded`).
    pub selects: Option<(String, String)>,
}

/// A `typemap` block: types and what they map to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeMap {
    /// Its name.
    pub name: String,
    /// (from, to) pairs; types not listed map to themselves.
    pub pairs: Vec<(PieceId, PieceId)>,
}

impl TypeMap {
    /// The type `piece` maps to, if the map lists it.
    pub fn get(&self, piece: PieceId) -> Option<PieceId> {
        self.pairs
            .iter()
            .find(|(f, _)| *f == piece)
            .map(|&(_, t)| t)
    }
}

/// A `transfer` block: a whole-turn move of a piece from some cells to others.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transfer {
    /// Its name.
    pub name: String,
    /// The types that may make it.
    pub pieces: Vec<PieceId>,
    /// Start cells.
    pub from: Vec<CellsOrZone>,
    /// Landing cells.
    pub to: Vec<CellsOrZone>,
    /// Whether the landing cell must be empty (else its occupant of any side is captured).
    pub empty_only: bool,
    /// The type it takes on arrival.
    pub become_piece: Option<PieceId>,
    /// Conditions (`mover` the piece, `own` its owner).
    pub conditions: Vec<Cond>,
}

/// Custodian capture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Custodian {
    /// Directions enclosures are looked for in.
    pub along: Vec<Vec3>,
    /// `enclose` lines.
    pub enclose: Vec<Enclose>,
    /// `corner` lines.
    pub corners: Vec<Corner>,
    /// Whether a captured stack loses only its top piece (`remove top`).
    pub top_only: bool,
    /// Whether the board edge acts as the far jaw.
    pub edge_jaw: bool,
}

/// An `enclose` line: a run of that many units of one side is captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enclose {
    /// Whose units: the mover's own (`friend`) or the opponent's.
    pub friend: bool,
    /// Fewest units in the run.
    pub min: usize,
    /// Most units in the run.
    pub max: usize,
}

/// A `corner` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corner {
    /// The corner cells.
    pub zone: usize,
    /// Whether enemy units are caught.
    pub enemy: bool,
    /// Whether the mover's own units are caught.
    pub friend: bool,
}

/// The game's own notation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notation {
    /// The move template (`"{from}-{to}"`), if given.
    pub move_template: Option<String>,
    /// The capture suffix (`"x{cell}"`), accepted after a move on input.
    pub capture_suffix: Option<String>,
    /// How a pass is written.
    pub pass: Option<String>,
    /// The position template (`"{board} {side} {moves_done}"`).
    pub position: Option<String>,
}

/// Whose pieces a capture may take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CaptureScope {
    /// The opponents' (default).
    #[default]
    Enemy,
    /// Anybody's, the capturing player's own included.
    Any,
}

impl Game {
    /// The players in turn order (the `order` line, or declaration order).
    pub fn turn_order(&self) -> Vec<PlayerId> {
        if self.turn.order.is_empty() {
            (0..self.players.iter().filter(|p| !p.neutral).count()).collect()
        } else {
            self.turn.order.clone()
        }
    }

    /// A few lines about the game for people: its title, credits, other names, options and piece
    /// names (`vdl explain` prints it first).
    pub fn summary(&self) -> String {
        let mut lines = vec![format!("{} ({})", self.title, self.name)];
        if let Some(author) = &self.credits.author {
            lines.push(format!("by {author}"));
        }
        if let Some(source) = &self.credits.source {
            lines.push(format!("source: {source}"));
        }
        if let Some(based_on) = &self.credits.based_on {
            lines.push(format!("based on: {based_on}"));
        }
        if !self.aliases.is_empty() {
            lines.push(format!("also called: {}", self.aliases.join(", ")));
        }
        for option in &self.options {
            let mut line = format!("option {}: {}", option.name, option.values.join(" "));
            if let Some(default) = &option.default {
                line.push_str(&format!(" (default {default})"));
            }
            if let Some(description) = &option.description {
                line.push_str(&format!(": {description}"));
            }
            lines.push(line);
        }
        let walls = self.wall_piece();
        for (id, piece) in self.pieces.iter().enumerate() {
            if Some(id) == walls {
                lines.push(
                    "walls (*): one after each move, in the same ply; they never move and block every move"
                        .to_string(),
                );
                continue;
            }
            if let Some(title) = &piece.title {
                lines.push(format!("piece {}: {title}", piece.name));
            }
        }
        lines.join("\n")
    }

    /// The piece type of walls, in a game with a `wall` rule: the checker adds it as the last type.
    pub fn wall_piece(&self) -> Option<PieceId> {
        self.turn.wall.as_ref().map(|_| self.pieces.len() - 1)
    }

    /// The neutral side that owns the walls, in a game with a `wall` rule: the checker adds it as
    /// the last side.
    pub fn wall_owner(&self) -> Option<PlayerId> {
        self.turn.wall.as_ref().map(|_| self.players.len() - 1)
    }

    /// Whether some piece type may be royal.
    pub fn has_royal(&self) -> bool {
        self.pieces.iter().any(|p| p.royal.is_royal())
    }
}
