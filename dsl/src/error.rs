//! Every error a user can cause, as data, and its rendering as a codespan-reporting diagnostic.
//!
//! Codes are stable: `E0xxx` syntax, `E1xxx` Betza, `E2xxx` semantic checks, `W2xxx` warnings. A code is
//! never reused or renumbered; docs/errors.md has a page for each.

use codespan_reporting::diagnostic::{Diagnostic, Label, Severity};

use crate::limits::{
    MAX_BETZA_LEGS, MAX_CELLS, MAX_EXPR_DEPTH, MAX_MOVE_PATHS, MAX_MOVE_TABLE_ENTRIES, MAX_NESTING,
    MAX_SOURCE_BYTES, MAX_ZONES,
};
use crate::span::Span;

/// A problem found in a rule file: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// The exact bytes at fault.
    pub span: Span,
    /// What is wrong.
    pub kind: ErrorKind,
    /// Other places where the same mistake is written (the same unknown name used again), reported
    /// with this error instead of as errors of their own.
    pub also: Vec<Span>,
}

/// Where a cell name that is on no board would be: the board whose name template splits it into
/// labels, the board's bounds (`files a..h, ranks 1..8`), and the labels of the name that the board
/// does not have (none: the cell is a hole).
#[derive(Clone, Debug, PartialEq)]
pub struct OffBoard {
    pub board: String,
    pub bounds: String,
    pub missing: Vec<(&'static str, String)>,
}

/// Most `also` places labelled in one diagnostic; the rest are counted in a note.
const MAX_ALSO_LABELS: usize = 4;

/// The kinds of problem, each with the facts needed to explain it.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    // ---- syntax ----
    /// An unexpected character.
    UnexpectedToken {
        found: char,
        expected: Vec<&'static str>,
    },
    /// A string without its closing quote on the same line.
    UnterminatedString,
    /// `{`, `(` or `[` never closed.
    UnclosedBracket { open: char },
    /// `}`, `)` or `]` with nothing to close.
    UnmatchedClose { close: char },
    /// A closing bracket of the wrong kind.
    MismatchedBracket {
        open: char,
        close: char,
        open_span: Span,
    },
    /// A number that does not fit.
    NumberTooLarge,
    /// A vector with more than 3 components.
    VectorArity { found: usize },
    /// A character outside the language (outside strings and comments).
    InvalidCharacter { found: char },
    /// The file ends in the middle of a statement.
    UnexpectedEnd { expected: Vec<&'static str> },
    /// Brackets nested deeper than `limits::MAX_NESTING`.
    NestingTooDeep { open: char },
    /// A condition deeper than `limits::MAX_EXPR_DEPTH`.
    ExpressionTooDeep,
    /// A source longer than `limits::MAX_SOURCE_BYTES`.
    FileTooLarge { bytes: usize },

    // ---- Betza ----
    /// A letter XBetza does not have.
    BetzaUnknownLetter { letter: char },
    /// `L` or `J`, whose meaning differs between tools.
    BetzaAmbiguousAtom { letter: char, use_instead: char },
    /// Modifiers not followed by an atom.
    BetzaMissingAtom,
    /// An empty Betza string.
    BetzaEmpty,
    /// A known XBetza feature vdl does not implement.
    BetzaUnsupported { what: &'static str },
    /// `O` without its range.
    BetzaCastlingRange,
    /// A range above 99.
    BetzaRangeTooLarge,
    /// `h` with no direction letter to pair with.
    BetzaLoneHalf,
    /// Direction letters that select no move of the atom.
    BetzaNoDirection { atom: char },
    /// A mode letter on a leg where it means nothing.
    BetzaModeMisplaced { letter: char, final_leg: bool },
    /// A 3D atom on a 2D board.
    BetzaAtomDimension { atom: char, board_dims: usize },
    /// A crooked or circular turn (`z`, `q`) where it means nothing.
    BetzaTurnMisplaced { letter: char, reason: &'static str },
    /// An unload (`u`) on a later leg where it means nothing.
    BetzaUnloadMisplaced { reason: &'static str },
    /// An induction or borrowing leg (`x`) where it means nothing.
    BetzaHandOnMisplaced { reason: &'static str },

    // ---- semantic checks ----
    /// A keyword that is not a statement of this block.
    UnknownStatement {
        keyword: String,
        context: &'static str,
        suggestion: Option<String>,
    },
    /// A name declared twice.
    DuplicateName {
        kind: &'static str,
        name: String,
        first: Span,
    },
    /// A reference to an undeclared name.
    UnknownName {
        kind: &'static str,
        name: String,
        suggestion: Option<String>,
    },
    /// A statement missing an argument.
    MissingArgument { keyword: String, expected: String },
    /// An argument of the wrong kind.
    WrongArgument {
        expected: String,
        found: &'static str,
    },
    /// More arguments than the statement takes.
    TooManyArguments { keyword: String },
    /// A statement that may appear only once.
    DuplicateStatement { keyword: String, first: Span },
    /// A required statement is missing.
    MissingStatement {
        keyword: &'static str,
        context: &'static str,
    },
    /// A cell name that is on no board; `off_board` says where it would be, when a board's name
    /// template splits it into labels.
    UnknownCell {
        name: String,
        suggestion: Option<String>,
        off_board: Option<OffBoard>,
    },
    /// Two pieces placed on one cell.
    OverlappingSetup { cell: String, first: Span },
    /// A zone without cells.
    EmptyZone { name: String },
    /// A game with no way to end.
    NoEnd,
    /// A piece with no moves.
    PieceWithoutMoves { name: String },
    /// A FEN letter used by two pieces.
    DuplicateLetter { letter: String, first: Span },
    /// A promotion with no choice.
    EmptyPromotion,
    /// A board beyond vdl's limits.
    BoardTooLarge { cells: usize },
    /// More players than vdl supports.
    TooManyPlayers { count: usize },
    /// More piece types than vdl supports.
    TooManyPieces { count: usize },
    /// A FEN that does not parse.
    InvalidFen { detail: String },
    /// A FEN letter no piece has.
    FenUnknownLetter { letter: String },
    /// A FEN rank with the wrong number of cells (`rank: None`: every rank, with the same number).
    FenRankWidth {
        rank: Option<usize>,
        found: usize,
        expected: usize,
    },
    /// An end rule about royal pieces in a game without one.
    NoRoyal { rule: String },
    /// A vector whose dimension does not match the boards.
    VectorDimension { found: usize, expected: usize },
    /// A function that conditions do not have.
    UnknownFunction {
        name: String,
        suggestion: Option<String>,
    },
    /// A function called with the wrong number of arguments.
    WrongArity {
        name: String,
        expected: String,
        found: usize,
    },
    /// A range whose ends do not form a range.
    InvalidRange { detail: &'static str },
    /// A board dimension of zero.
    ZeroSize,
    /// A capacity of zero.
    ZeroCapacity,
    /// A cell-name template that is not valid.
    InvalidTemplate { detail: String },
    /// The same cell name produced twice.
    DuplicateCell { name: String, first_board: String },
    /// A zero forward vector.
    ZeroVector,
    /// An option value that the option does not list.
    UnknownOptionValue { option: String, value: String },
    /// No start position.
    NoSetup,
    /// Labels that do not match the board's size.
    LabelCount {
        axis: &'static str,
        found: usize,
        expected: usize,
    },
    /// A number outside its allowed range.
    NumberOutOfRange { min: i64, max: i64 },
    /// A game with fewer than two players.
    TooFewPlayers { count: usize },
    /// A path that a condition cannot use.
    UnknownPath {
        path: String,
        suggestion: Option<String>,
    },
    /// A block after a statement that takes none.
    UnexpectedBlock { keyword: String },
    /// A statement that needs a block and has none.
    MissingBlock { keyword: String },
    /// A piece placed on a cell that is not in the zone it must stay in, or a setup inconsistent with
    /// the rules.
    InvalidSetup { detail: String },
    /// `freeze after EVENT` with an event that does not happen to a moving piece.
    UnknownFreezeEvent {
        event: String,
        suggestion: Option<String>,
    },
    /// A position template field that is not one of the known fields, or a template that is not a
    /// run of `{FIELD}`s starting with `{board}`.
    InvalidPositionTemplate { detail: String },
    /// A `send` effect whose last argument is not a place pieces can be sent to.
    NotADestination { name: String },
    /// More zones than `limits::MAX_ZONES`.
    TooManyZones { count: usize },
    /// More Betza legs in all move strings than `limits::MAX_BETZA_LEGS`.
    TooManyBetzaLegs,
    /// Move strings whose engine tables would hold more than `limits::MAX_MOVE_TABLE_ENTRIES`
    /// entries.
    MoveTablesTooLarge { entries: usize },
    /// A Betza part that can take more paths from one cell than `limits::MAX_MOVE_PATHS`.
    TooManyMovePaths { part: String, paths: u64 },
    /// A `merge` Betza part that is not a plain step: modes, `a` legs, `i`, castling or the universal
    /// leaper.
    MergeNotAStep {
        part: String,
        /// A `merge` (else a `promote_move ... by`).
        merge: bool,
    },
    /// A rank, file, level or column label (in a zone specification) that the board does not have.
    /// `board: None`: no board has it (a column, with several boards).
    LabelNotOnBoard {
        axis: &'static str,
        label: String,
        board: Option<String>,
        bounds: String,
    },
    /// A condition names a participant the statement does not provide (`captured` in a rule `on
    /// move`, `hurdle` on a move that hops over nothing).
    ParticipantUnavailable {
        name: String,
        here: &'static str,
        available: String,
    },
    /// A condition compares or passes values of the wrong type.
    ConditionType {
        expected: &'static str,
        found: &'static str,
    },
    /// `mover.colour`: a property the participant does not have.
    UnknownProperty { property: String, of: String },
    /// A `when`/`unless` on a statement that takes none.
    ConditionNotAllowed { keyword: String },
    /// A bare `when`/`unless` line outside `rule` and `transfer` blocks.
    BareCondition { context: &'static str },
    /// A turn order that does not list every player once.
    InvalidTurnOrder { detail: String },
    /// Two statements that contradict each other.
    Contradiction {
        this: String,
        other: String,
        other_span: Span,
    },
    /// A statement that is not in the language because it would change nothing.
    WithoutEffect { keyword: String, why: &'static str },
    /// A `pick_up` line that cannot work: into a reserve shared by everybody or from which nothing
    /// comes back, or of a royal type.
    InvalidPickUp { detail: String, help: &'static str },
    /// A rule effect the rule's events cannot run, or a malformed one.
    InvalidEffect { detail: String },
    /// A statement that nothing would ever run in this game.
    NeverRuns {
        what: String,
        why: String,
        help: &'static str,
    },
    /// A `partner` line that does not make a team of two, or a capture sent to partners that some
    /// player does not have.
    InvalidPartner { detail: String, help: &'static str },

    /// An `extinction` rule that a player fulfils in the start position: the game would be over
    /// before the first move. `option`: the option value whose start position it is, when not the
    /// defaults'.
    ExtinctAtStart {
        player: String,
        pieces: String,
        option: Option<(String, String)>,
    },

    // ---- warnings ----
    /// A zone nothing refers to.
    UnusedZone { name: String },
    /// A piece that can never be on the board.
    UnusedPiece { name: String },
    /// Direction letters written twice.
    BetzaRedundant { text: String },
}

impl Error {
    /// Makes an error.
    pub fn new(span: Span, kind: ErrorKind) -> Error {
        Error {
            span,
            kind,
            also: Vec::new(),
        }
    }

    /// Returns true for warnings.
    pub fn is_warning(&self) -> bool {
        self.code().starts_with('W')
    }

    /// Returns the stable code.
    pub fn code(&self) -> &'static str {
        use ErrorKind::*;
        match &self.kind {
            UnexpectedToken { .. } => "E0001",
            UnterminatedString => "E0002",
            UnclosedBracket { .. } => "E0003",
            UnmatchedClose { .. } => "E0004",
            MismatchedBracket { .. } => "E0005",
            NumberTooLarge => "E0006",
            VectorArity { .. } => "E0007",
            InvalidCharacter { .. } => "E0008",
            UnexpectedEnd { .. } => "E0009",
            NestingTooDeep { .. } => "E0010",
            ExpressionTooDeep => "E0011",
            FileTooLarge { .. } => "E0012",
            BetzaUnknownLetter { .. } => "E1001",
            BetzaAmbiguousAtom { .. } => "E1002",
            BetzaMissingAtom => "E1003",
            BetzaEmpty => "E1004",
            BetzaUnsupported { .. } => "E1005",
            BetzaCastlingRange => "E1006",
            BetzaRangeTooLarge => "E1007",
            BetzaLoneHalf => "E1008",
            BetzaNoDirection { .. } => "E1009",
            BetzaModeMisplaced { .. } => "E1010",
            BetzaAtomDimension { .. } => "E1011",
            BetzaTurnMisplaced { .. } => "E1012",
            BetzaUnloadMisplaced { .. } => "E1013",
            BetzaHandOnMisplaced { .. } => "E1014",
            UnknownStatement { .. } => "E2001",
            DuplicateName { .. } => "E2002",
            UnknownName { .. } => "E2003",
            MissingArgument { .. } => "E2004",
            WrongArgument { .. } => "E2005",
            TooManyArguments { .. } => "E2006",
            DuplicateStatement { .. } => "E2007",
            MissingStatement { .. } => "E2008",
            UnknownCell { .. } => "E2009",
            OverlappingSetup { .. } => "E2010",
            EmptyZone { .. } => "E2011",
            NoEnd => "E2012",
            PieceWithoutMoves { .. } => "E2013",
            DuplicateLetter { .. } => "E2014",
            EmptyPromotion => "E2015",
            BoardTooLarge { .. } => "E2016",
            TooManyPlayers { .. } => "E2017",
            TooManyPieces { .. } => "E2018",
            InvalidFen { .. } => "E2019",
            FenUnknownLetter { .. } => "E2020",
            FenRankWidth { .. } => "E2021",
            NoRoyal { .. } => "E2022",
            VectorDimension { .. } => "E2023",
            UnknownFunction { .. } => "E2024",
            WrongArity { .. } => "E2025",
            InvalidRange { .. } => "E2026",
            ZeroSize => "E2027",
            ZeroCapacity => "E2028",
            InvalidTemplate { .. } => "E2029",
            DuplicateCell { .. } => "E2030",
            ZeroVector => "E2031",
            UnknownOptionValue { .. } => "E2032",
            NoSetup => "E2033",
            LabelCount { .. } => "E2034",
            NumberOutOfRange { .. } => "E2035",
            TooFewPlayers { .. } => "E2036",
            UnknownPath { .. } => "E2037",
            UnexpectedBlock { .. } => "E2038",
            MissingBlock { .. } => "E2039",
            InvalidSetup { .. } => "E2040",
            UnknownFreezeEvent { .. } => "E2041",
            InvalidPositionTemplate { .. } => "E2042",
            NotADestination { .. } => "E2043",
            MergeNotAStep { .. } => "E2045",
            TooManyZones { .. } => "E2046",
            TooManyBetzaLegs => "E2047",
            MoveTablesTooLarge { .. } => "E2050",
            TooManyMovePaths { .. } => "E2051",
            LabelNotOnBoard { .. } => "E2048",
            ExtinctAtStart { .. } => "E2049",
            ParticipantUnavailable { .. } => "E2100",
            ConditionType { .. } => "E2101",
            UnknownProperty { .. } => "E2102",
            ConditionNotAllowed { .. } => "E2103",
            BareCondition { .. } => "E2104",
            InvalidTurnOrder { .. } => "E2105",
            Contradiction { .. } => "E2106",
            WithoutEffect { .. } => "E2110",
            InvalidEffect { .. } => "E2108",
            InvalidPickUp { .. } => "E2111",
            InvalidPartner { .. } => "E2112",
            NeverRuns { .. } => "E2109",
            UnusedZone { .. } => "W2001",
            UnusedPiece { .. } => "W2002",
            BetzaRedundant { .. } => "W1001",
        }
    }

    /// Renders the error as a diagnostic for `file_id`.
    pub fn to_diagnostic<F: Copy>(&self, file_id: F) -> Diagnostic<F> {
        let (message, label, help) = self.describe();
        let severity = if self.is_warning() {
            Severity::Warning
        } else {
            Severity::Error
        };
        let mut labels = vec![Label::primary(file_id, self.span.range()).with_message(label)];
        for (span, text) in self.secondary() {
            labels.push(Label::secondary(file_id, span.range()).with_message(text));
        }
        for span in self.also.iter().take(MAX_ALSO_LABELS) {
            labels.push(Label::secondary(file_id, span.range()).with_message("also here"));
        }
        let mut notes = Vec::new();
        if let Some(help) = help {
            notes.push(format!("help: {help}"));
        }
        if self.also.len() > MAX_ALSO_LABELS {
            notes.push(format!(
                "note: written in {} more places",
                self.also.len() - MAX_ALSO_LABELS
            ));
        }
        Diagnostic::new(severity)
            .with_code(self.code())
            .with_message(message)
            .with_labels(labels)
            .with_notes(notes)
    }

    fn secondary(&self) -> Vec<(Span, String)> {
        use ErrorKind::*;
        match &self.kind {
            MismatchedBracket {
                open, open_span, ..
            } => vec![(*open_span, format!("`{open}` opened here"))],
            DuplicateName { first, .. } => vec![(*first, "first declared here".into())],
            DuplicateStatement { first, .. } => vec![(*first, "first given here".into())],
            OverlappingSetup { first, .. } => vec![(*first, "first placed here".into())],
            DuplicateLetter { first, .. } => vec![(*first, "first used here".into())],
            Contradiction {
                other, other_span, ..
            } => vec![(*other_span, format!("`{other}` here"))],
            _ => Vec::new(),
        }
    }

    /// Returns the message, the primary label and the help line.
    fn describe(&self) -> (String, String, Option<String>) {
        use ErrorKind::*;
        let did_you_mean = |s: &Option<String>| s.as_ref().map(|s| format!("did you mean `{s}`?"));
        match &self.kind {
            UnexpectedToken { found, expected } => (
                format!("unexpected `{}`", found.escape_default()),
                if expected.is_empty() { "not expected here".into() } else { format!("expected {}", expected.join(", ")) },
                Some("a statement is `keyword arguments [when condition] [{ block }]`, ended by a line break or `;`".into()),
            ),
            UnterminatedString => (
                "unterminated string".into(),
                "this string has no closing `\"` on its line".into(),
                Some("close the string with `\"` before the end of the line".into()),
            ),
            UnclosedBracket { open } => (
                format!("unclosed `{open}`"),
                "opened here and never closed".into(),
                Some(format!("add the matching `{}`", closing(*open))),
            ),
            UnmatchedClose { close } => (format!("unmatched `{close}`"), "nothing to close here".into(), Some("remove it".into())),
            MismatchedBracket { open, close, .. } => (
                format!("`{close}` does not close `{open}`"),
                format!("expected `{}`", closing(*open)),
                None,
            ),
            NumberTooLarge => ("number too large".into(), "does not fit".into(), Some("numbers are limited to the range of a 64-bit integer".into())),
            VectorArity { found } => (
                format!("a vector has 2 or 3 components, this one has {found}"),
                "too many components".into(),
                Some("write (x, y) on 2D boards and (x, y, z) on 3D boards".into()),
            ),
            InvalidCharacter { found } => (
                format!("invalid character `{found}`"),
                "not part of the language".into(),
                Some("non-ASCII text may appear only inside strings and comments".into()),
            ),
            UnexpectedEnd { expected } => (
                "unexpected end of file".into(),
                if expected.is_empty() { "the file ends here".into() } else { format!("expected {}", expected.join(", ")) },
                None,
            ),
            NestingTooDeep { open } => (
                format!("brackets nested more than {MAX_NESTING} deep"),
                format!("this `{open}` opens level {}", MAX_NESTING + 1),
                Some(format!("vdl reads at most {MAX_NESTING} levels of `( )`, `[ ]` and `{{ }}` inside each other; write the part with fewer levels")),
            ),
            ExpressionTooDeep => (
                format!("condition nested more than {MAX_EXPR_DEPTH} levels deep"),
                format!("level {} starts here", MAX_EXPR_DEPTH + 1),
                Some("each `not`, `and`, `or`, comparison, `+`, `-` and function call is one level; split the condition, e.g. into several `when` lines or rules".into()),
            ),
            FileTooLarge { bytes } => (
                format!("the file has {bytes} bytes; a rule file may have up to {MAX_SOURCE_BYTES} ({} MiB)", MAX_SOURCE_BYTES >> 20),
                "the limit is reached here".into(),
                None,
            ),
            BetzaUnknownLetter { letter } => (
                format!("unknown Betza letter `{letter}`"),
                "XBetza has no such letter".into(),
                Some("atoms are W F D N A H C Z G R B Q K O U (and atoms declared with `atom`); see docs/language.md, Betza cheat sheet".into()),
            ),
            BetzaAmbiguousAtom { letter, use_instead } => (
                format!("atom `{letter}` is ambiguous"),
                "XBoard and Fairy-Stockfish disagree on this letter".into(),
                Some(format!("write `{use_instead}` instead")),
            ),
            BetzaMissingAtom => (
                "Betza modifiers without an atom".into(),
                "expected an atom letter after these modifiers".into(),
                Some("modifiers come before an atom, e.g. `fmW`".into()),
            ),
            BetzaEmpty => ("empty Betza string".into(), "no moves here".into(), Some("write at least one atom, e.g. \"K\"".into())),
            BetzaUnsupported { what } => (
                format!("unsupported XBetza feature: {what}"),
                "vdl does not implement this".into(),
                Some("write the move with `a` legs instead; see docs/language.md".into()),
            ),
            BetzaCastlingRange => (
                "castling atom `O` needs a range".into(),
                "expected a number after `O`".into(),
                Some("write `O2` for a king that moves two squares".into()),
            ),
            BetzaRangeTooLarge => ("Betza range too large".into(), "ranges go up to 99".into(), Some("use 0 for an unlimited rider".into())),
            BetzaLoneHalf => (
                "`h` needs a direction letter".into(),
                "`h` alone means nothing".into(),
                Some("write `fh`, `bh`, `lh`, `rh`, `hl` or `hr`".into()),
            ),
            BetzaNoDirection { atom } => (
                format!("these direction letters select no move of `{atom}`"),
                "no direction left".into(),
                Some("remove the letters that contradict each other".into()),
            ),
            BetzaModeMisplaced { letter, final_leg } => (
                format!("`{letter}` cannot be used on {} leg", if *final_leg { "the final" } else { "a non-final" }),
                "misplaced mode".into(),
                Some(if *final_leg {
                    "`y` belongs to a leg before an `a`".into()
                } else {
                    "`e` belongs to the final leg".into()
                }),
            ),
            BetzaAtomDimension { atom, board_dims } => (
                format!("atom `{atom}` is three-dimensional but the game's boards have {board_dims} dimensions"),
                "3D atom".into(),
                None,
            ),
            BetzaTurnMisplaced { letter, reason } => (
                format!("`{letter}` cannot be used here: {reason}"),
                "misplaced crooked or circular turn".into(),
                Some("`z` and `q` make a rider crooked or circular (`zB`, `qNN`) or, on a leg after an `a`, turn the other way than (`z`) or the same way as (`q`) the previous turn (`afsafzK`); see docs/language.md, section 3.3".into()),
            ),
            BetzaUnloadMisplaced { reason } => (
                format!("`u` cannot be used here: {reason}"),
                "misplaced unload".into(),
                Some("on a later leg, `u` goes with that leg's capture (`c` or `d`), the move's only one: the piece it takes reappears where the leg started, e.g. `afucR`".into()),
            ),
            BetzaHandOnMisplaced { reason } => (
                format!("`x` cannot be used here: {reason}"),
                "misplaced `x`".into(),
                Some("`x` ends a leg on a friendly piece: before `a`, that piece makes the remaining legs (`mNxaN`, the knight-relay knight); on the last leg, the moving piece moves as that piece (`KxK`); see docs/language.md, section 3.10".into()),
            ),
            UnknownStatement { keyword, context, suggestion } => (
                format!("unknown statement `{keyword}` in {context}"),
                "not a statement here".into(),
                did_you_mean(suggestion).or(Some(format!("docs/language.md lists the statements of {context}"))),
            ),
            DuplicateName { kind, name, .. } => (
                format!("{kind} `{name}` is declared twice"),
                "declared again here".into(),
                Some(format!("rename one of the two {kind}s")),
            ),
            UnknownName { kind, name, suggestion } => (
                format!("unknown {kind} `{name}`"),
                format!("no {kind} has this name"),
                did_you_mean(suggestion).or(Some(format!("declare the {kind} first"))),
            ),
            MissingArgument { keyword, expected } => (
                format!("`{keyword}` needs {expected}"),
                format!("expected {expected}"),
                None,
            ),
            WrongArgument { expected, found } => (
                format!("expected {expected}, found {found}"),
                format!("expected {expected}"),
                None,
            ),
            TooManyArguments { keyword } => (
                format!("too many arguments for `{keyword}`"),
                "unexpected argument".into(),
                Some("remove it, or check the statement's syntax in docs/language.md".into()),
            ),
            DuplicateStatement { keyword, .. } => (
                format!("`{keyword}` may appear only once here"),
                "given again here".into(),
                Some("remove one of them".into()),
            ),
            MissingStatement { keyword, context } => (
                format!("{context} has no `{keyword}` statement"),
                format!("`{keyword}` is required"),
                None,
            ),
            UnknownCell { name, suggestion, off_board: None } => (
                format!("cell `{name}` is not on any board"),
                "no such cell".into(),
                did_you_mean(suggestion),
            ),
            UnknownCell { name, off_board: Some(OffBoard { board, missing, .. }), .. } if missing.is_empty() => (
                format!("`{name}` is a hole of board `{board}`"),
                "a hole".into(),
                Some("no piece can stand on a hole: the board's `hole` statement removes this cell".into()),
            ),
            UnknownCell { name, off_board: Some(OffBoard { board, bounds, missing }), .. } => (
                format!("`{name}` is not a cell of board `{board}` ({bounds})"),
                missing.iter().map(|(axis, label)| format!("no {axis} `{label}`")).collect::<Vec<_>>().join(", "),
                Some("name a cell inside the board, or make the board larger".into()),
            ),
            OverlappingSetup { cell, .. } => (
                format!("two pieces are placed on `{cell}`"),
                "placed again here".into(),
                Some("each cell holds one piece (unless stacking is declared)".into()),
            ),
            EmptyZone { name } => (
                format!("zone `{name}` has no cells"),
                "empty zone".into(),
                Some("give it cells, ranks, files or other zones".into()),
            ),
            NoEnd => (
                "the game can never end".into(),
                "no end condition".into(),
                Some("give the game end conditions, e.g. `end { checkmate win }`".into()),
            ),
            PieceWithoutMoves { name } => (
                format!("piece `{name}` has no moves"),
                "this piece can never move".into(),
                Some("add a `moves \"...\"` statement".into()),
            ),
            DuplicateLetter { letter, .. } => (
                format!("letter `{letter}` is used by two pieces"),
                "used again here".into(),
                Some("FEN letters must be unique".into()),
            ),
            EmptyPromotion => ("promotion without a choice".into(), "no piece to promote to".into(), Some("list at least one piece after `to`".into())),
            BoardTooLarge { cells } => (
                format!("the game has {cells} cells; vdl supports up to {MAX_CELLS}"),
                "too large".into(),
                None,
            ),
            TooManyPlayers { count } => (format!("{count} players; vdl supports up to 8"), "too many players".into(), None),
            TooManyPieces { count } => (format!("{count} piece types; vdl supports up to 64"), "too many piece types".into(), None),
            InvalidFen { detail } => (
                format!("invalid FEN: {detail}"),
                detail.clone(),
                Some("docs/fen.md describes the FEN fields vdl reads".into()),
            ),
            FenUnknownLetter { letter } => (
                format!("no piece has the FEN letter `{letter}`"),
                "unknown piece letter".into(),
                Some("declare a piece with `letter` or fix the FEN".into()),
            ),
            FenRankWidth { rank: Some(rank), found, expected } => (
                format!("FEN rank field {rank} (counted from the top) has {found} cells, the board has {expected} files"),
                format!("{found} cells"),
                None,
            ),
            FenRankWidth { rank: None, found, expected } => (
                format!("every FEN rank field has {found} cells, the board has {expected} files"),
                format!("{found} cells in each rank"),
                Some("make the board's width and the FEN agree".into()),
            ),
            NoRoyal { rule } => (
                format!("`{rule}` needs a royal piece, and no piece is `royal`"),
                "no royal piece".into(),
                Some("mark the king `royal`".into()),
            ),
            VectorDimension { found, expected } => (
                format!("a {found}-dimensional vector in a {expected}-dimensional game"),
                "wrong dimension".into(),
                None,
            ),
            UnknownFunction { name, suggestion } => (
                format!("unknown function `{name}`"),
                "conditions have no such function".into(),
                did_you_mean(suggestion).or(Some("docs/language.md lists the condition functions".into())),
            ),
            WrongArity { name, expected, found } => (
                format!("`{name}` takes {expected}, given {found}"),
                "wrong number of arguments".into(),
                None,
            ),
            InvalidRange { detail } => (format!("invalid range: {detail}"), (*detail).into(), None),
            ZeroSize => ("a board dimension is zero".into(), "zero-sized".into(), Some("each dimension is at least 1".into())),
            ZeroCapacity => ("a capacity of zero".into(), "nothing could ever stand here".into(), None),
            InvalidTemplate { detail } => (format!("invalid cell-name template: {detail}"), detail.clone(), Some("use `{file}`, `{rank}` and `{level}`".into())),
            DuplicateCell { name, first_board } => (
                format!("cell name `{name}` is used twice"),
                format!("also a cell of board `{first_board}`"),
                Some("cell names must be unique across all boards".into()),
            ),
            ZeroVector => ("a zero vector".into(), "no direction".into(), None),
            UnknownOptionValue { option, value } => (
                format!("option `{option}` has no value `{value}`"),
                "not one of the option's values".into(),
                None,
            ),
            NoSetup => ("the game has no start position".into(), "no `setup`".into(), Some("add `setup \"FEN\"` or a `setup { ... }` block".into())),
            LabelCount { axis, found, expected } => (
                format!("{found} labels for {expected} {axis}"),
                format!("expected {expected} labels"),
                None,
            ),
            NumberOutOfRange { min, max } => (format!("number out of range {min}..{max}"), "out of range".into(), None),
            TooFewPlayers { count } => (format!("a game needs at least 2 players, this one has {count}"), "too few players".into(), None),
            UnknownPath { path, suggestion } => (
                format!("unknown value `{path}` in a condition"),
                "not a name, a cell or a known property".into(),
                did_you_mean(suggestion),
            ),
            UnexpectedBlock { keyword } => (
                format!("`{keyword}` takes no block"),
                "unexpected block".into(),
                Some("remove the braces, or check the statement in docs/language.md".into()),
            ),
            MissingBlock { keyword } => (
                format!("`{keyword}` needs a block"),
                "expected `{ ... }` after this".into(),
                None,
            ),
            InvalidSetup { detail } => (format!("invalid setup: {detail}"), detail.clone(), None),
            UnknownFreezeEvent { event, suggestion } => (
                format!("a piece cannot be frozen after `{event}`"),
                "not an event of a moving piece".into(),
                Some(match suggestion {
                    Some(s) => format!("did you mean `{s}`? freeze after one of: move, jump, unpin, capture, stack"),
                    None => "freeze after one of: move, jump, unpin, capture, stack".into(),
                }),
            ),
            InvalidPositionTemplate { detail } => (
                format!("invalid position template: {detail}"),
                detail.clone(),
                Some("write `{FIELD}`s separated by spaces, with one of `{board}` and `{pieces}`; fields: board, pieces, side, moves_done, frozen, captures, en_passant, checkmates, halfmove, fullmove".into()),
            ),
            NotADestination { name } => (
                format!("`{name}` is not a place pieces can be sent to"),
                "not a board, zone, cell or reserve".into(),
                Some("end `send` with a board, a zone, a cell or a reserve: `send captured limbo`".into()),
            ),
            ParticipantUnavailable { name, here, available } => (
                format!("`{name}` is not available in {here}"),
                "not available here".into(),
                Some(if available.is_empty() { "nothing about a move or event can be named here".into() } else { format!("available here: {available}") }),
            ),
            ConditionType { expected, found } => (
                format!("expected {expected}, found {found}"),
                format!("{found} here"),
                Some("docs/language.md section 1.5 gives the types of names, properties and functions".into()),
            ),
            UnknownProperty { property, of } => (
                format!("`{of}` has no property `{property}`"),
                "unknown property".into(),
                Some("pieces have `.piece`, `.owner`, `.board`, `.cell`, `.stacked` and `.waited`".into()),
            ),
            ConditionNotAllowed { keyword } => (
                format!("`{keyword}` takes no condition"),
                "no condition allowed here".into(),
                Some("docs/language.md section 2 marks the statements that may carry `when`".into()),
            ),
            BareCondition { context } => (
                format!("a bare condition in {context}"),
                "restricts nothing here".into(),
                Some("bare `when`/`unless` lines belong in `rule` and `transfer` blocks; elsewhere put the condition on a statement".into()),
            ),
            InvalidTurnOrder { detail } => (
                format!("invalid turn order: {detail}"),
                detail.clone(),
                Some("`order` lists every player once, in the order they move".into()),
            ),
            Contradiction { this, other, .. } => (
                format!("`{this}` contradicts `{other}`"),
                "contradicts".into(),
                Some("keep one of them".into()),
            ),
            WithoutEffect { keyword, why } => (
                format!("`{keyword}` would change nothing, so it is not in the language"),
                "no effect".into(),
                Some(format!("delete the line: {why}")),
            ),
            NeverRuns { what, why, help } => (
                format!("{what} never runs: {why}"),
                "never runs".into(),
                Some((*help).into()),
            ),
            InvalidPartner { detail, help } => (
                format!("invalid partner: {detail}"),
                "not possible here".into(),
                Some((*help).into()),
            ),
            InvalidPickUp { detail, help } => (
                format!("invalid pick-up: {detail}"),
                "not possible here".into(),
                Some((*help).into()),
            ),
            InvalidEffect { detail } => (
                format!("invalid rule effect: {detail}"),
                "not possible here".into(),
                Some("docs/language.md section 2.11 lists each event's participants and effects".into()),
            ),
            MergeNotAStep { part, merge: true } => (
                format!("a merger moves by plain steps, but `{part}` is not one"),
                "modes, legs or `i` in a `merge` move".into(),
                Some("write the steps without mode letters or `a` legs: the merger's target is always a friendly piece, `merge \"fWfF\" onto yeoman into queen`".into()),
            ),
            MergeNotAStep { part, merge: false } => (
                format!("a promotion move goes by plain steps, but `{part}` is not one"),
                "modes, legs or `i` in `promote_move ... by`".into(),
                Some("write the steps without mode letters or `a` legs: the promotion's target is always an empty cell, `promote_move to ferz in_place by \"F\"`".into()),
            ),
            TooManyZones { count } => (format!("{count} zones; vdl supports up to {MAX_ZONES}"), "too many zones".into(), None),
            TooManyBetzaLegs => (
                format!("the move strings have more than {MAX_BETZA_LEGS} Betza legs in all"),
                "this string goes over the limit".into(),
                Some("each atom is one leg and each `a` adds one; write fewer or shorter move strings".into()),
            ),
            MoveTablesTooLarge { entries } => (
                format!("the move tables of this game would hold more than {MAX_MOVE_TABLE_ENTRIES} entries"),
                format!("this string takes the estimate to {entries}"),
                Some("every direction of every move is tabulated for each cell and player, a slide up to the board's longest side; use fewer pieces, moves or cells, or shorter ranges".into()),
            ),
            TooManyMovePaths { part, paths } => (
                format!("the move `{part}` can take {paths} paths from one cell; vdl supports up to {MAX_MOVE_PATHS}"),
                "too many paths".into(),
                Some("each leg multiplies the paths by its directions and, for a slide, the board's longest side; use fewer legs, leaps instead of slides, or ranges".into()),
            ),
            LabelNotOnBoard { axis, label, board: Some(board), bounds } => (
                format!("{axis} `{label}` is not a {axis} of board `{board}` ({bounds})"),
                format!("no such {axis}"),
                Some(format!("name a {axis} of the board, or change the board's size or labels")),
            ),
            LabelNotOnBoard { axis, label, board: None, bounds } => (
                format!("{axis} `{label}` is not a {axis} of any board ({bounds})"),
                format!("no such {axis}"),
                Some(format!("name a {axis} of a board, or change the boards' sizes or labels")),
            ),
            ExtinctAtStart { player, pieces, option } => {
                let what = if pieces == "all" { "no piece".to_string() } else { format!("no {}", pieces.replace(' ', " or ")) };
                let when = match option {
                    Some((name, value)) => format!(" (with option `{name}` = `{value}`)"),
                    None => String::new(),
                };
                (
                    format!("`extinction {pieces}` ends the game before the first move: `{player}` has {what} on the board at the start{when}"),
                    format!("`{player}` starts with {what}"),
                    Some(if pieces == "all" {
                        "give each player a piece on the board in the setup, or remove the rule; pieces in a hand or reserve do not count".into()
                    } else {
                        "give each player one on the board in the setup, or remove the rule; pieces in a hand or reserve do not count".into()
                    }),
                )
            }
            UnusedZone { name } => (format!("zone `{name}` is never used"), "unused".into(), None),
            UnusedPiece { name } => (
                format!("piece `{name}` is never placed, promoted to or created"),
                "unused piece".into(),
                None,
            ),
            BetzaRedundant { text } => (format!("redundant Betza letters `{text}`"), "redundant".into(), None),
        }
    }
}

fn closing(open: char) -> char {
    match open {
        '{' => '}',
        '(' => ')',
        _ => ']',
    }
}
