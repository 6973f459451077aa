//! The vocabulary: which statements each block accepts, and what their arguments are.
//!
//! The grammar is uniform, so this table is where the language's constructs are defined. The checker
//! matches each statement against its block's table (`check::statements`), resolves names and builds
//! the model. docs/language.md documents every entry.

/// A kind of block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Context {
    /// The top level of a file.
    Top,
    /// `game { ... }`
    Game,
    /// `board { ... }`
    Board,
    /// `player { ... }` and `neutral { ... }`
    Player,
    /// `zone { ... }`
    Zone,
    /// `piece { ... }`
    Piece,
    /// `setup { ... }`
    Setup,
    /// `reserve { ... }`
    Reserve,
    /// `castle { ... }`
    Castle,
    /// `turn { ... }`
    Turn,
    /// `rule { ... }`
    Rule,
    /// `end { ... }`
    End,
    /// `option { ... }`
    Option,
    /// `typemap { ... }`
    TypeMap,
    /// `transfer { ... }`
    Transfer,
    /// `custodian { ... }`
    Custodian,
    /// `notation { ... }`
    Notation,
    /// `scoring { ... }` inside `end`
    Scoring,
    /// `insufficient_material { ... }` inside `end`
    Material,
    /// `counting { ... }` inside `end`
    Counting,
}

impl Context {
    /// Every kind of block.
    pub const ALL: [Context; 20] = [
        Context::Top,
        Context::Game,
        Context::Board,
        Context::Player,
        Context::Zone,
        Context::Piece,
        Context::Setup,
        Context::Reserve,
        Context::Castle,
        Context::Turn,
        Context::Rule,
        Context::End,
        Context::Option,
        Context::TypeMap,
        Context::Transfer,
        Context::Custodian,
        Context::Notation,
        Context::Scoring,
        Context::Material,
        Context::Counting,
    ];

    /// The block's short name in vocabulary entries (`piece` in `piece.royal`).
    pub fn name(self) -> &'static str {
        match self {
            Context::Top => "top",
            Context::Game => "game",
            Context::Board => "board",
            Context::Player => "player",
            Context::Zone => "zone",
            Context::Piece => "piece",
            Context::Setup => "setup",
            Context::Reserve => "reserve",
            Context::Castle => "castle",
            Context::Turn => "turn",
            Context::Rule => "rule",
            Context::End => "end",
            Context::Option => "option",
            Context::TypeMap => "typemap",
            Context::Transfer => "transfer",
            Context::Custodian => "custodian",
            Context::Notation => "notation",
            Context::Scoring => "scoring",
            Context::Material => "material",
            Context::Counting => "counting",
        }
    }

    /// Describes the block for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Context::Top => "the top level",
            Context::Game => "a `game` block",
            Context::Board => "a `board` block",
            Context::Player => "a `player` block",
            Context::Zone => "a `zone` block",
            Context::Piece => "a `piece` block",
            Context::Setup => "a `setup` block",
            Context::Reserve => "a `reserve` block",
            Context::Castle => "a `castle` block",
            Context::Turn => "a `turn` block",
            Context::Rule => "a `rule` block",
            Context::End => "an `end` block",
            Context::Option => "an `option` block",
            Context::TypeMap => "a `typemap` block",
            Context::Transfer => "a `transfer` block",
            Context::Custodian => "a `custodian` block",
            Context::Notation => "a `notation` block",
            Context::Scoring => "a `scoring` block",
            Context::Material => "an `insufficient_material` block",
            Context::Counting => "a `counting` block",
        }
    }
}

/// What an argument position accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A new name being declared.
    NewName,
    /// A declared piece.
    Piece,
    /// A declared piece, or one of the listed words.
    PieceOr(&'static [&'static str]),
    /// A declared board.
    Board,
    /// A declared zone.
    Zone,
    /// A declared player.
    Player,
    /// A declared player or neutral side, or one of the listed words.
    SideOr(&'static [&'static str]),
    /// A declared reserve.
    Reserve,
    /// A board or a reserve.
    Place,
    /// A declared option.
    OptionName,
    /// A cell name.
    Cell,
    /// An integer.
    Int,
    /// An integer in a range.
    IntIn(i64, i64),
    /// A string.
    Str,
    /// A Betza string.
    Betza,
    /// A FEN string.
    Fen,
    /// A board size.
    Size,
    /// A vector, or a compass word for a 2D unit vector.
    Vector,
    /// A range of labels or integers.
    Range,
    /// A board label: a name or an integer.
    Label,
    /// A board label, or a range of labels.
    LabelOrRange,
    /// One of the listed words.
    Word(&'static [&'static str]),
    /// A name that is not resolved (a flag, a letter, an event word).
    Ident,
    /// A list of pieces.
    PieceList,
    /// A FEN letter: a name or a string.
    Letter,
    /// Cells or a zone.
    Cells,
    /// A term of an effect or event: a declared name, a participant (`mover`, `captured` ...), a list,
    /// a number or a string; unknown names are errors.
    Term,
    /// Any value.
    Any,
}

/// How many times an argument may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly once.
    One,
    /// Zero or once.
    Optional,
    /// Once or more.
    Many,
    /// Zero or more.
    Any,
}

/// One argument position: a literal keyword, or a value of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A value of the kind, `Count` times.
    Value(Kind, Count),
    /// A literal word that must appear (`to` in `promote in ZONE to ...`).
    Keyword(&'static str),
    /// A literal word that may appear; what follows it is part of the same optional group.
    OptKeyword(&'static str, Kind, Count),
}

/// A statement of a block.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The keyword.
    pub keyword: &'static str,
    /// The arguments, in order.
    pub args: &'static [Arg],
    /// The block it opens, if it may have one.
    pub block: Option<Context>,
    /// Whether the block is required.
    pub block_required: bool,
    /// Whether it may appear only once in its block.
    pub once: bool,
    /// Whether it may carry a `when` condition.
    pub condition: bool,
}

const fn stmt(keyword: &'static str, args: &'static [Arg]) -> Spec {
    Spec {
        keyword,
        args,
        block: None,
        block_required: false,
        once: false,
        condition: false,
    }
}
const fn once(keyword: &'static str, args: &'static [Arg]) -> Spec {
    Spec {
        keyword,
        args,
        block: None,
        block_required: false,
        once: true,
        condition: false,
    }
}
const fn cond(keyword: &'static str, args: &'static [Arg]) -> Spec {
    Spec {
        keyword,
        args,
        block: None,
        block_required: false,
        once: false,
        condition: true,
    }
}
const fn cond_block(
    keyword: &'static str,
    args: &'static [Arg],
    block: Context,
    required: bool,
) -> Spec {
    Spec {
        condition: true,
        ..with_block(keyword, args, block, required)
    }
}
const fn with_block(
    keyword: &'static str,
    args: &'static [Arg],
    block: Context,
    required: bool,
) -> Spec {
    Spec {
        keyword,
        args,
        block: Some(block),
        block_required: required,
        once: false,
        condition: false,
    }
}

use Arg::{Keyword as Kw, OptKeyword as OptKw, Value as V};
use Count::{Any as ZeroOrMore, Many, One, Optional};

/// Words accepted where a result is expected.
pub const RESULTS: &[&str] = &["win", "loss", "draw", "points"];
/// Events that rules may react to (`on EVENT`).
pub const EVENTS: &[&str] = &[
    "capture",
    "move",
    "enter",
    "leave",
    "check",
    "checkmate",
    "drop",
    "promotion",
    "transform",
    "transfer",
];
/// When an end condition is tested.
const AT: Arg = OptKw("at", Kind::Word(&["turn_start", "move"]), One);
const CLAIM: Arg = V(Kind::Word(&["claim"]), Optional);
const RESULT: Arg = V(Kind::Word(RESULTS), One);
/// Whom a result applies to, when not the default.
const SUBJECT: Arg = V(Kind::SideOr(&["mover", "victim"]), Optional);

const TOP: &[Spec] = &[
    Spec {
        once: true,
        ..with_block(
            "game",
            &[V(Kind::Letter, One), V(Kind::Str, Optional)],
            Context::Game,
            false,
        )
    },
    with_block(
        "board",
        &[V(Kind::NewName, One), V(Kind::Size, Optional)],
        Context::Board,
        false,
    ),
    with_block(
        "player",
        &[V(Kind::NewName, One), V(Kind::Str, Optional)],
        Context::Player,
        false,
    ),
    with_block(
        "neutral",
        &[V(Kind::NewName, One), V(Kind::Str, Optional)],
        Context::Player,
        false,
    ),
    stmt("atom", &[V(Kind::Ident, One), V(Kind::Vector, One)]),
    with_block("zone", &[V(Kind::NewName, One)], Context::Zone, true),
    with_block("piece", &[V(Kind::NewName, One)], Context::Piece, true),
    Spec {
        once: true,
        ..cond_block("setup", &[V(Kind::Fen, Optional)], Context::Setup, false)
    },
    with_block("reserve", &[V(Kind::NewName, One)], Context::Reserve, false),
    with_block(
        "castle",
        &[V(Kind::NewName, Optional)],
        Context::Castle,
        true,
    ),
    Spec {
        once: true,
        ..with_block("turn", &[], Context::Turn, true)
    },
    with_block("rule", &[V(Kind::NewName, One)], Context::Rule, true),
    Spec {
        once: true,
        ..with_block("end", &[], Context::End, true)
    },
    with_block("option", &[V(Kind::NewName, One)], Context::Option, true),
    with_block("typemap", &[V(Kind::NewName, One)], Context::TypeMap, true),
    with_block(
        "transfer",
        &[V(Kind::NewName, One)],
        Context::Transfer,
        true,
    ),
    with_block(
        "custodian",
        &[V(Kind::NewName, Optional)],
        Context::Custodian,
        true,
    ),
    Spec {
        once: true,
        ..with_block("notation", &[], Context::Notation, true)
    },
    once("captures", &[V(Kind::Word(&["any", "enemy"]), One)]),
];

const TYPEMAP: &[Spec] = &[stmt(
    "map",
    &[V(Kind::Piece, Many), Kw("to"), V(Kind::Piece, One)],
)];

const TRANSFER: &[Spec] = &[
    once("pieces", &[V(Kind::Piece, Many)]),
    once("from", &[V(Kind::Cells, Many)]),
    once("to", &[V(Kind::Cells, Many)]),
    once("target", &[V(Kind::Word(&["empty", "any"]), One)]),
    once("become", &[V(Kind::Piece, One)]),
];

const CUSTODIAN: &[Spec] = &[
    once("along", &[V(Kind::Vector, Many)]),
    stmt(
        "enclose",
        &[
            V(Kind::Word(&["enemy", "friend"]), One),
            V(Kind::LabelOrRange, One),
        ],
    ),
    stmt(
        "corner",
        &[
            V(Kind::Zone, One),
            V(Kind::Word(&["enemy", "friend"]), Many),
        ],
    ),
    once("remove", &[V(Kind::Word(&["top", "unit"]), One)]),
    once("edge_jaw", &[]),
];

const NOTATION: &[Spec] = &[
    once("move", &[V(Kind::Str, One)]),
    once("capture_suffix", &[V(Kind::Str, One)]),
    once("pass", &[V(Kind::Str, One)]),
    once("position", &[V(Kind::Str, One)]),
];

const SCORING: &[Spec] = &[
    once("total", &[V(Kind::IntIn(0, 1000), One)]),
    stmt(
        "drop_out",
        &[V(Kind::IntIn(1, 8), One), V(Kind::IntIn(0, 1000), One)],
    ),
    once("winner", &[V(Kind::Word(&["remainder"]), One)]),
    once("draw", &[V(Kind::Word(&["share"]), One)]),
    once("series", &[V(Kind::Word(&["sum"]), One)]),
];

const MATERIAL: &[Spec] = &[cond("mating_potential", &[])];

const COUNTING: &[Spec] = &[
    cond("start", &[]),
    cond("restart", &[Kw("on"), V(Kind::Word(&["capture"]), One)]),
    cond("limit", &[V(Kind::IntIn(1, 10000), One)]),
    cond("begin", &[V(Kind::Word(&["piece_count", "zero"]), One)]),
];

const GAME: &[Spec] = &[
    once("title", &[V(Kind::Str, One)]),
    once("author", &[V(Kind::Str, One)]),
    once("source", &[V(Kind::Str, One)]),
    once("based_on", &[V(Kind::Str, One)]),
    once("aliases", &[V(Kind::Str, Many)]),
];

/// Statements that are not in the language because they would change nothing, each with its block
/// and why: the checker rejects them with `E2110` rather than as unknown.
pub const WITHOUT_EFFECT: &[(Context, &str, &str)] = &[(
    Context::Board,
    "no_forward",
    "moves depend on a forward direction only through their direction letters (`f`, `b`, `l`, `r`, `v`, `s`), so a board whose moves have none needs no statement",
)];

const BOARD: &[Spec] = &[
    once("files", &[V(Kind::LabelOrRange, Many)]),
    once("ranks", &[V(Kind::LabelOrRange, Many)]),
    once("levels", &[V(Kind::LabelOrRange, Many)]),
    once("name", &[V(Kind::Str, One)]),
    stmt("alias", &[V(Kind::Str, One)]),
    stmt("hole", &[V(Kind::Ident, Many)]), // resolved against the board's own grid when it is built
    once("cells", &[V(Kind::Ident, Many)]),
    once("capacity", &[V(Kind::IntIn(0, 4096), One)]),
    once("forward", &[V(Kind::Vector, One)]),
    once("overflow", &[V(Kind::Word(&["capture", "forbid"]), One)]),
];

const PLAYER: &[Spec] = &[
    once("forward", &[V(Kind::Vector, Many)]),
    once("letters", &[V(Kind::Word(&["upper", "lower"]), One)]),
    once("fen_prefix", &[V(Kind::Str, One)]),
    cond("movable_by", &[V(Kind::SideOr(&["all", "none"]), Many)]),
    once("bonus_points", &[V(Kind::IntIn(-100_000, 100_000), One)]),
    once("partner", &[V(Kind::Player, One)]),
];

/// Cell specifications, shared by zones and other cell sets.
const ZONE: &[Spec] = &[
    cond("cells", &[V(Kind::Cell, Many)]),
    cond(
        "rank",
        &[V(Kind::Label, One), OptKw("on", Kind::Board, One)],
    ),
    cond(
        "ranks",
        &[V(Kind::Range, One), OptKw("on", Kind::Board, One)],
    ),
    cond(
        "file",
        &[V(Kind::Label, One), OptKw("on", Kind::Board, One)],
    ),
    cond(
        "files",
        &[V(Kind::Range, One), OptKw("on", Kind::Board, One)],
    ),
    cond(
        "level",
        &[V(Kind::Label, One), OptKw("on", Kind::Board, One)],
    ),
    cond(
        "levels",
        &[V(Kind::Range, One), OptKw("on", Kind::Board, One)],
    ),
    cond("rect", &[V(Kind::Cell, One), V(Kind::Cell, One)]),
    cond("column", &[V(Kind::Ident, Many)]),
    cond("board", &[V(Kind::Board, One)]),
    cond("zone", &[V(Kind::Zone, Many)]),
    cond("enemies", &[V(Kind::Zone, One)]),
    cond("except", &[V(Kind::Any, Many)]), // checked as the specification it names
];

const PIECE: &[Spec] = &[
    once("letter", &[V(Kind::Letter, One)]),
    once("name", &[V(Kind::Str, One)]),
    cond(
        "moves",
        &[
            V(Kind::Betza, One),
            OptKw("on", Kind::Board, Many),
            OptKw("from", Kind::Zone, One),
            OptKw("within", Kind::Zone, One),
        ],
    ),
    once("promoted_from", &[V(Kind::Piece, One)]),
    once("cannot_hop", &[V(Kind::Piece, Many)]),
    once("facing", &[V(Kind::Word(&["illegal", "must_break"]), One)]),
    once("check_evasion", &[V(Kind::Word(&["capture_checker"]), One)]),
    once("points", &[V(Kind::IntIn(-100_000, 100_000), One)]),
    cond(
        "stacks",
        &[V(Kind::Betza, One), Kw("onto"), V(Kind::Piece, Many)],
    ),
    cond(
        "merge",
        &[
            V(Kind::Betza, One),
            Kw("onto"),
            V(Kind::Piece, Many),
            Kw("into"),
            V(Kind::Piece, One),
            OptKw("in", Kind::Zone, One),
        ],
    ),
    once("perspective", &[V(Kind::Word(&["owner", "player"]), One)]),
    cond("movable_by", &[V(Kind::SideOr(&["all", "enemy"]), Many)]),
    once("virgin_in", &[V(Kind::Zone, One)]),
    cond("moves_only_on", &[V(Kind::Board, One), V(Kind::Betza, One)]),
    Spec {
        once: true,
        ..cond("royal", &[])
    },
    once("value", &[V(Kind::IntIn(-100_000, 100_000), One)]),
    once("pawn", &[]),
    once("captures_only", &[V(Kind::PieceOr(&["royal"]), Many)]),
    once("never_captures", &[]),
    once("immune", &[]),
    once("confined", &[V(Kind::Zone, One)]),
    cond(
        "promote",
        &[
            Kw("in"),
            V(Kind::Zone, One),
            Kw("to"),
            V(Kind::Piece, ZeroOrMore),
            V(Kind::Word(&["optional", "mandatory"]), Optional),
            V(Kind::Word(&["leaving"]), Optional),
            V(Kind::Word(&["capturing"]), Optional),
            OptKw("from", Kind::Reserve, One),
        ],
    ),
    cond(
        "promote_move",
        &[
            Kw("to"),
            V(Kind::Piece, Many),
            V(Kind::Word(&["in_place"]), Optional),
            OptKw("by", Kind::Betza, One),
            V(Kind::Word(&["peaceful"]), Optional),
        ],
    ),
    cond(
        "promote_pair",
        &[
            Kw("in"),
            V(Kind::Zone, One),
            Kw("to"),
            V(Kind::Piece, One),
            Kw("letter"),
            V(Kind::Str, One),
        ],
    ),
    once("demote_to", &[V(Kind::Piece, One)]),
    once("count_limit", &[V(Kind::IntIn(1, 4096), One)]),
    once("drop_zone", &[V(Kind::Zone, One)]),
    once("no_drop_mate", &[]),
    once("drop_file_limit", &[V(Kind::IntIn(1, 64), One)]),
    once("drop_opposite_colours", &[]),
];

const SETUP: &[Spec] = &[
    cond("fen", &[V(Kind::Fen, One)]),
    cond(
        "place",
        &[
            V(Kind::SideOr(&[]), One),
            V(Kind::Piece, One),
            V(Kind::Cell, Many),
        ],
    ),
    cond(
        "shuffle",
        &[
            V(Kind::Player, One),
            V(Kind::PieceList, One),
            Kw("in"),
            V(Kind::Zone, One),
        ],
    ),
    cond(
        "fill",
        &[
            V(Kind::Reserve, One),
            V(Kind::Piece, One),
            V(Kind::IntIn(0, 4096), One),
        ],
    ),
    once("seed", &[V(Kind::Int, One)]),
    cond(
        "arrange",
        &[
            V(Kind::PieceList, One),
            Kw("in"),
            V(Kind::Zone, One),
            Kw("by"),
            V(Kind::Str, One),
        ],
    ),
];

const RESERVE: &[Spec] = &[
    once("per_player", &[]),
    once("shared", &[]),
    Spec {
        once: true,
        ..cond("drops", &[])
    },
    cond(
        "holds",
        &[V(Kind::Piece, One), V(Kind::IntIn(0, 4096), One)],
    ),
    once("captured_go_here", &[V(Kind::Word(&["partner"]), Optional)]),
    once("demote_promoted", &[]),
    once("gating", &[V(Kind::Zone, One)]),
    once("drop_promoted", &[]),
    once("no_drop_check", &[]),
    cond(
        "pick_up",
        &[
            V(Kind::PieceOr(&["all"]), Many),
            OptKw("from", Kind::Zone, One),
        ],
    ),
    once("drops_virgin", &[]),
];

const CASTLE: &[Spec] = &[
    once("king", &[V(Kind::Piece, One)]),
    cond(
        "partner",
        &[V(Kind::Piece, Many), OptKw("along", Kind::Vector, Many)],
    ),
    once("along", &[V(Kind::Vector, Many)]),
    once("partner_at", &[V(Kind::Any, One)]),
    once("king_steps", &[V(Kind::IntIn(1, 32), One)]),
    once("partner_to", &[V(Kind::Word(&["crossed", "beyond"]), One)]),
    once("king_lands", &[V(Kind::Cells, Many)]),
    once("partner_lands", &[V(Kind::Cells, Many)]),
    stmt(
        "requires",
        &[
            V(Kind::Word(&["virgin", "original"]), One),
            V(Kind::PieceOr(&["king", "partner"]), Many),
        ],
    ),
    once("ignore_attacks", &[]),
    once("from", &[V(Kind::Cells, Many)]),
    once("not_through_check", &[]),
];

const TURN: &[Spec] = &[
    once("order", &[V(Kind::Player, Many)]),
    once("moves", &[V(Kind::IntIn(1, 16), One)]),
    once(
        "pass",
        &[V(Kind::Word(&["never", "when_stuck", "allowed"]), One)],
    ),
    stmt("freeze", &[Kw("after"), V(Kind::Ident, Many)]),
    once("skip_eliminated", &[]),
    once("end_early_when_stuck", &[]),
    once(
        "en_passant_expires",
        &[V(Kind::Word(&["owner_turn", "next_move"]), One)],
    ),
    once(
        "en_passant_right",
        &[V(Kind::Word(&["always", "when_capturable"]), One)],
    ),
    once(
        "checkmate_test",
        &[V(Kind::Word(&["attacked_at_turn_start", "no_moves"]), One)],
    ),
    once("must_capture", &[]),
    Spec {
        once: true,
        ..cond("must_drop", &[])
    },
    once("forbid_checks", &[]),
    once("royal_safety", &[V(Kind::Word(&["any", "all"]), One)]),
    once(
        "wall",
        &[
            V(Kind::Word(&["empty", "reach", "vacated"]), One),
            V(Kind::Betza, Optional),
            OptKw("in", Kind::Zone, One),
            V(Kind::Word(&["single"]), Optional),
        ],
    ),
];

const RULE: &[Spec] = &[
    stmt(
        "on",
        &[V(Kind::Word(EVENTS), One), V(Kind::Term, ZeroOrMore)],
    ),
    cond("transform", &[V(Kind::Term, Many)]),
    cond("send", &[V(Kind::Term, Many)]),
    cond("remove", &[V(Kind::Term, Many)]),
    cond("add", &[V(Kind::Reserve, One), V(Kind::Piece, One)]),
    cond("eliminate", &[V(Kind::Term, Many)]),
    cond("convert", &[V(Kind::Term, Many)]),
    cond("reset", &[V(Kind::Word(&["move_rule"]), One)]),
];

const END: &[Spec] = &[
    cond("checkmate", &[RESULT, SUBJECT, CLAIM, AT]),
    cond("stalemate", &[RESULT, SUBJECT, CLAIM, AT]),
    cond("no_moves", &[RESULT, SUBJECT, CLAIM, AT]),
    cond("royal_capture", &[RESULT, SUBJECT, CLAIM, AT]),
    cond(
        "extinction",
        &[V(Kind::PieceOr(&["all"]), Many), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "flag",
        &[
            V(Kind::Zone, One),
            V(Kind::Piece, Many),
            RESULT,
            SUBJECT,
            CLAIM,
            AT,
            V(Kind::Word(&["after_reply"]), Optional),
        ],
    ),
    cond(
        "checks",
        &[V(Kind::IntIn(1, 1000), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "bare_king",
        &[
            RESULT,
            SUBJECT,
            CLAIM,
            AT,
            V(Kind::Word(&["unless_bared_back"]), Optional),
        ],
    ),
    cond(
        "drop_mate",
        &[V(Kind::Piece, Many), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "perpetual_check",
        &[V(Kind::IntIn(2, 100), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "facing",
        &[V(Kind::IntIn(1, 100), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    Spec {
        block: Some(Context::Counting),
        block_required: true,
        ..cond("counting", &[RESULT, SUBJECT, CLAIM])
    },
    cond(
        "repetition",
        &[V(Kind::IntIn(2, 100), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "move_rule",
        &[V(Kind::IntIn(1, 10000), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "move_limit",
        &[V(Kind::IntIn(1, 100000), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    Spec {
        block: Some(Context::Material),
        ..cond("insufficient_material", &[RESULT, SUBJECT, CLAIM, AT])
    },
    cond("result", &[RESULT, SUBJECT, CLAIM, AT]),
    cond(
        "checkmates",
        &[V(Kind::IntIn(1, 100), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond(
        "total_checkmates",
        &[V(Kind::IntIn(1, 100), One), RESULT, SUBJECT, CLAIM, AT],
    ),
    cond("all_pass", &[RESULT, SUBJECT, CLAIM, AT]),
    cond(
        "captures",
        &[
            V(Kind::IntIn(1, 1000), One),
            V(Kind::PieceOr(&["all"]), Many),
            RESULT,
            SUBJECT,
            CLAIM,
            AT,
        ],
    ),
    cond(
        "formation",
        &[
            V(Kind::Size, One),
            V(Kind::PieceList, One),
            RESULT,
            SUBJECT,
            CLAIM,
            AT,
        ],
    ),
    cond("last_survivor", &[RESULT, SUBJECT, CLAIM, AT]),
    once(
        "ranking",
        &[V(
            Kind::Word(&["winner", "remaining", "reverse_elimination"]),
            Many,
        )],
    ),
    Spec {
        once: true,
        ..with_block("scoring", &[], Context::Scoring, true)
    },
];

const OPTION: &[Spec] = &[
    once("values", &[V(Kind::Any, Many)]),
    once("default", &[V(Kind::Any, One)]),
    once("describe", &[V(Kind::Str, One)]),
    once("engine_name", &[V(Kind::Str, One)]),
    once("selects", &[V(Kind::Any, One), V(Kind::Any, One)]),
];

/// Returns the statements a block accepts.
pub fn specs(context: Context) -> &'static [Spec] {
    match context {
        Context::Top => TOP,
        Context::Game => GAME,
        Context::Board => BOARD,
        Context::Player => PLAYER,
        Context::Zone => ZONE,
        Context::Piece => PIECE,
        Context::Setup => SETUP,
        Context::Reserve => RESERVE,
        Context::Castle => CASTLE,
        Context::Turn => TURN,
        Context::Rule => RULE,
        Context::End => END,
        Context::Option => OPTION,
        Context::TypeMap => TYPEMAP,
        Context::Transfer => TRANSFER,
        Context::Custodian => CUSTODIAN,
        Context::Notation => NOTATION,
        Context::Scoring => SCORING,
        Context::Material => MATERIAL,
        Context::Counting => COUNTING,
    }
}

/// A function usable in conditions: name, minimum and maximum argument count.
pub struct Function {
    /// The name.
    pub name: &'static str,
    /// Fewest arguments.
    pub min: usize,
    /// Most arguments.
    pub max: usize,
}

const fn func(name: &'static str, min: usize, max: usize) -> Function {
    Function { name, min, max }
}

/// The functions conditions may call.
pub const FUNCTIONS: &[Function] = &[
    func("count", 1, 3),
    func("in_check", 1, 1),
    func("attacked", 1, 2),
    func("in_zone", 2, 3),
    func("has_moved", 1, 1),
    func("empty", 1, 1),
    func("adjacent", 2, 2),
    func("distance", 2, 2),
    func("colour", 1, 1),
    func("owner", 1, 1),
    func("piece_at", 1, 1),
    func("legal_moves", 1, 1),
    func("eliminated", 1, 1),
    func("option", 1, 1),
    func("near", 4, 12),
    func("held", 2, 3),
    func("stack_count", 1, 1),
    func("enclosed", 1, 1),
];

/// The names a condition may use besides declared names (docs/language.md section 1.5).
pub const CONDITION_NAMES: &[&str] = &[
    "mover",
    "moved",
    "captor",
    "captured",
    "hurdle",
    "from",
    "to",
    "own",
    "enemy",
    "any",
    "side",
    "side_to_move",
    "player",
    "mater",
    "checkmated",
    "true",
    "false",
    "all",
    "royal",
    "option",
];

/// The properties of a piece in a condition (`mover.piece`).
pub const PROPERTIES: &[&str] = &["piece", "owner", "board", "cell", "stacked", "waited"];

/// The words of effect targets (docs/language.md section 2.11).
pub const TARGET_WORDS: &[&str] = &[
    "mover",
    "moved",
    "captor",
    "captured",
    "delivering",
    "mater",
    "checkmated",
    "adjacent",
    "enclosed",
    "all",
    "of",
    "to",
    "except",
    "by",
    "owner",
    "from",
];

/// Every entry of the vocabulary, as `BLOCK.KEYWORD` for a statement, `BLOCK.KEYWORD.WORD` for one of
/// its argument words or optional keywords, `BLOCK.KEYWORD.when` for its condition, `end.*.WORD` for
/// the result, subject, `claim` and `at` words every end line takes, `BLOCK.when`/`BLOCK.unless` for
/// bare conditions, `zone.for_player` for a zone line that belongs to one player, `function.NAME`,
/// `name.NAME`, `property.NAME` and `target.WORD`. The semantic-coverage test (tests/coverage.rs)
/// demands a case for each.
pub fn vocabulary() -> Vec<String> {
    let mut out = Vec::new();
    let shared = [AT, CLAIM, RESULT, SUBJECT];
    for context in Context::ALL {
        let block = context.name();
        for spec in specs(context) {
            let entry = format!("{block}.{}", spec.keyword);
            out.push(entry.clone());
            if spec.condition {
                out.push(format!("{entry}.when"));
            }
            for arg in spec.args {
                if context == Context::End && shared.contains(arg) {
                    continue;
                }
                let words: Vec<&str> = match *arg {
                    Arg::Value(Kind::Word(words), _) if words.len() > 1 => words.to_vec(),
                    // An optional flag word (`leaving`, `single`, `after_reply`, ...).
                    Arg::Value(Kind::Word(words), Count::Optional) => words.to_vec(),
                    Arg::Value(Kind::PieceOr(words) | Kind::SideOr(words), _) => words.to_vec(),
                    Arg::OptKeyword(word, Kind::Word(words), _) if words.len() > 1 => {
                        std::iter::once(word).chain(words.iter().copied()).collect()
                    }
                    Arg::OptKeyword(word, ..) => vec![word],
                    _ => Vec::new(),
                };
                out.extend(words.into_iter().map(|w| format!("{entry}.{w}")));
            }
        }
    }
    for arg in shared {
        match arg {
            Arg::Value(Kind::Word(words) | Kind::SideOr(words), _) => {
                out.extend(words.iter().map(|w| format!("end.*.{w}")))
            }
            Arg::OptKeyword(word, Kind::Word(words), _) => {
                out.push(format!("end.*.{word}"));
                out.extend(words.iter().map(|w| format!("end.*.{w}")));
            }
            _ => {}
        }
    }
    out.extend(["end.*.player".to_string()]);
    out.extend(
        [
            "rule.when",
            "rule.unless",
            "transfer.when",
            "zone.for_player",
        ]
        .map(String::from),
    );
    out.extend(FUNCTIONS.iter().map(|f| format!("function.{}", f.name)));
    out.extend(CONDITION_NAMES.iter().map(|n| format!("name.{n}")));
    out.extend(PROPERTIES.iter().map(|n| format!("property.{n}")));
    out.extend(TARGET_WORDS.iter().map(|n| format!("target.{n}")));
    out
}
