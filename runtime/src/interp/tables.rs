//! What the interpreter prepares once from the model: grids for stepping, per-player move vectors,
//! zone membership, castling rules, piece properties and the start position.

use crate::geometry::{first_leg_selects, symmetric_variants, Frame};
use crate::model::{
    CellId, CellsOrZone, Cond, EnPassantExpiry, EnPassantRight, EndKind, FreezeEvent, Game,
    MovePart, PartnerAt, PartnerTo, Pass, PieceId, Royalty, Untouched, Vec3,
};

use super::position::Position;

/// The reference interpreter of one game.
#[derive(Clone, Debug)]
pub struct Interpreter {
    /// The game it runs.
    pub game: Game,
    pub(super) start_position: Position,
    pub(super) grids: Vec<Grid>,
    /// Per piece, per player: its move sets.
    pub(super) moves: Vec<Vec<Vec<PreparedMoves>>>,
    /// Per piece, per player: whether two of its moves may have the same result (two parts or two
    /// paths reaching one cell), so that generation must drop repeats (`overlap`).
    pub(super) overlaps: Vec<Vec<bool>>,
    /// Per zone, per player, per cell: membership.
    pub(super) zones: Vec<Vec<Vec<bool>>>,
    pub(super) castles: Vec<Castle>,
    pub(super) pieces: Vec<PieceRules>,
    pub(super) players: usize,
    pub(super) hand_drops: bool,
    /// Whether pieces may be dropped from a reserve shared by everybody (a drop takes the piece from
    /// the player's own hand when it holds one, else from the shared reserve).
    pub(super) pool_drops: bool,
    /// `drop_promoted`: a hand piece may also be dropped as a type promoted from it.
    pub(super) drop_promoted: bool,
    /// Whether some type has `drop_opposite_colours`.
    pub(super) opposite_colours: bool,
    /// `drops_virgin`: a dropped piece stands unmoved.
    pub(super) drops_virgin: bool,

    /// The condition on drops (`drops when ...`), if the reserve gives one.
    pub(super) drop_condition: Option<Cond>,
    /// `no_drop_check`: a drop may not give check.
    pub(super) no_drop_check: bool,
    /// `must_drop`: when the condition holds for the player to move and he has a legal drop, only
    /// drops are legal.
    pub(super) must_drop: Option<Cond>,
    pub(super) captures_to_hand: bool,
    /// `captured_go_here partner`: a captured piece enters the capturer's partner's hand.
    pub(super) captures_to_partner: bool,
    pub(super) demote_promoted: bool,
    pub(super) must_capture: bool,
    /// Whether an en-passant right is kept only when the player to move can take it.
    pub(super) en_passant_when_capturable: bool,
    /// Whether en-passant rights last until their creator's next turn begins (`en_passant_expires
    /// owner_turn`) rather than for the next move only.
    pub(super) en_passant_owner_turn: bool,
    pub(super) forbid_checks: bool,
    /// Whether moves that leave one's royal piece attacked are illegal.
    pub(super) royal_check: bool,
    pub(super) has_checks_rule: bool,
    /// Whether each move's check is recorded (`perpetual_check`).
    pub(super) tracks_check_history: bool,
    /// Whether a counting rule's count is kept (`counting`).
    pub(super) counts: bool,
    /// Whether some piece has `facing illegal`.
    pub(super) facing: bool,
    /// Whether some piece has `facing must_break`.
    pub(super) facing_break: bool,
    /// The gating zone, when a reserve's pieces enter play by gating.
    pub(super) gating: Option<usize>,
    /// Whether a player may pass.
    pub(super) pass_allowed: bool,
    /// Whether some piece induces a friend to move (XBetza `x` before the last leg, `mNxaN`): its
    /// moves start from other pieces' cells, so repeats are removed across pieces.
    pub(super) induction: bool,
    /// Whether a player with no legal move passes (`turn { pass when_stuck }`).
    pub(super) pass_when_stuck: bool,
    /// The walling rule (`turn { wall ... }`), if the game has one.
    pub(super) walls: Option<super::walls::Walls>,
    /// `royal_safety all`: only leaving every royal piece attacked is illegal (and is check).
    pub(super) royal_all: bool,
    /// Per player: whether every enemy attack is a plain leap or slide (no hops, lame or multi-leg
    /// moves, conditions), which allows the legality shortcut.
    pub(super) plain_attackers: Vec<bool>,
    /// Per player: whether the legality shortcut may use the cells the royal-safety test reads (every
    /// enemy attack is found by probes, and moves change only their own cells).
    pub(super) read_shortcut: Vec<bool>,
    /// Per player: the enemy slide directions and their ranges, for the legality shortcut.
    pub(super) slider_lines: Vec<Vec<(Vec3, u32)>>,
    /// Piece types (as bits) for which having moved matters: initial moves, castling, gating.
    pub(super) virgin_matters: u64,
    /// Per piece, per player: stacking moves (`stacks BETZA onto PIECE...`).
    pub(super) stack_moves: Vec<Vec<Vec<StackMove>>>,
    /// Per piece, per player: merger moves (`merge BETZA onto PIECE... into PIECE [in ZONE]`); empty
    /// when the game has none.
    pub(super) merge_moves: Vec<Vec<Vec<MergeMove>>>,
    /// Per piece, per player: promotions that are moves of their own (`promote_move`); empty when
    /// the game has none.
    pub(super) promotion_moves: Vec<Vec<Vec<PromotionStep>>>,
    /// Cell names by the boards' `alias` templates, with their cells (accepted when reading moves).
    pub(super) alias_names: Vec<(String, CellId)>,
    /// Per player: how to detect its attacks.
    pub(super) attack_plans: Vec<super::attacks::AttackPlan>,
    /// Compiled move generation, when a compiled engine provides it.
    pub(super) generator: Option<super::generator::Hook>,
    /// Elimination, turn-start checkmates, reserve promotions and promotion on capture.
    pub(super) elimination: super::elimination::Elimination,
    /// The players in turn order.
    pub(super) turn_order: Vec<usize>,
    /// Option values chosen for this game (others take their defaults).
    pub(super) chosen_options: Vec<(String, String)>,
    /// What freezes a piece for the rest of its owner's turn (`freeze after EVENT`).
    pub(super) freeze: Freeze,
    /// Whether a multi-move turn ends early when the mover has no legal single move left.
    pub(super) end_early: bool,
    /// Whether captures are counted per player and piece type (`captures` end lines, `{captures}`).
    pub(super) counts_captures: bool,
    /// Who may move which pieces, in whose frame (`movable_by`, `perspective`, `captures any`).
    pub(super) control: super::control::Control,
    /// The `transfer` moves between boards.
    pub(super) transfers: Vec<super::transfer::Transfer>,
    /// The `pick_up` lines of the reserves.
    pub(super) pick_ups: Vec<super::pickup::PickUpRule>,
    /// Rules that send and transform pieces (`on capture`, `on enter`), and the waiting status.
    pub(super) effects: super::effects::Effects,
}

/// The events after which the piece that moved is frozen until the end of the turn.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Freeze {
    /// Any move.
    pub moved: bool,
    /// A move that passes over an occupied cell.
    pub jump: bool,
    /// The top piece of a stack stepping off it.
    pub unpin: bool,
    /// A move that removes a piece (of either side).
    pub capture: bool,
    /// A stacking move.
    pub stack: bool,
}

impl Freeze {
    /// Reads the `freeze after EVENT` statements of a `turn` block.
    fn from_turn(events: &[FreezeEvent]) -> Freeze {
        let mut freeze = Freeze::default();
        for event in events {
            match event {
                FreezeEvent::Move => freeze.moved = true,
                FreezeEvent::Jump => freeze.jump = true,
                FreezeEvent::Unpin => freeze.unpin = true,
                FreezeEvent::Capture => freeze.capture = true,
                FreezeEvent::Stack => freeze.stack = true,
            }
        }
        freeze
    }

    /// Whether any event freezes.
    pub fn is_used(self) -> bool {
        self.moved || self.jump || self.unpin || self.capture || self.stack
    }
}

/// A board's cells by coordinate, for stepping.
#[derive(Clone, Debug)]
pub(super) struct Grid {
    pub size: [i32; 3],
    pub cells: Vec<Option<CellId>>,
}

/// One `moves` statement, prepared for a player.
#[derive(Clone, Debug)]
pub(super) struct PreparedMoves {
    pub parts: Vec<PreparedPart>,
    pub boards: Vec<usize>,
    pub from_zone: Option<usize>,
    pub within: Option<usize>,
    pub condition: Option<Cond>,
    /// `moves_only_on`: on its boards (while its condition holds) these moves replace the others.
    pub exclusive: bool,
}

/// One Betza part, with its first-leg vectors in the player's frame.
#[derive(Clone, Debug)]
pub(super) struct PreparedPart {
    pub part: MovePart,
    pub first: Vec<Vec3>,
    /// Whether its moves create en-passant rights on the cells they pass.
    pub ep_source: bool,
    /// For a plain one-leg leap or slide: how it is walked.
    pub simple: Option<SimplePart>,
    /// For a multi-leg part, the vectors each later leg may continue with, by the leg before it,
    /// the part's base vector, the step just taken and (for a leg with the turn letters `z`, `q`) the
    /// side of the move's last turn: `continuations[leg]` holds `(base, step, side, next vectors)` for
    /// the turn from `leg` to `leg + 1` (side 0 for a leg without turn letters).
    pub continuations: Vec<Vec<Continuation>>,
}

/// One entry of [`PreparedPart::continuations`]: (base vector, step, side of the last turn, next vectors).
pub(super) type Continuation = (Vec3, Vec3, i8, Vec<Vec3>);

impl PreparedPart {
    /// The part's base vector a first-leg vector belongs to (same absolute components), which
    /// decides its continuations.
    pub fn base_for(&self, first: Vec3) -> Vec3 {
        self.part
            .vectors
            .iter()
            .copied()
            .find(|b| super::movegen::same_family(*b, first))
            .unwrap_or(self.part.vectors[0])
    }

    /// The vectors the leg after `leg` may continue with after `step`, in a move whose last turn to a
    /// side was to `last_side` (`None`: not prepared).
    #[inline]
    pub fn continuations(
        &self,
        leg: usize,
        base: Vec3,
        step: Vec3,
        last_side: i8,
    ) -> Option<&[Vec3]> {
        let side = if turns_to_a_side(&self.part.legs.get(leg + 1)?.directions) {
            last_side
        } else {
            0
        };
        self.continuations
            .get(leg)?
            .iter()
            .find(|(b, s, d, _)| *b == base && *s == step && *d == side)
            .map(|(_, _, _, next)| next.as_slice())
    }
}

/// Whether a continuation leg's directions name a turn relative to the previous one (`z`, `q`).
pub(super) fn turns_to_a_side(directions: &str) -> bool {
    directions.contains(['z', 'q'])
}

/// A one-leg leap or slide (modes `m`, `c`, `e`, `n` at most), walked without the general leg
/// machinery.
#[derive(Clone, Copy, Debug)]
pub(super) struct SimplePart {
    /// Whether it moves onto empty cells.
    pub moves: bool,
    /// Whether it captures (and attacks).
    pub captures: bool,
    /// The most steps along a vector: 1 for a leaper.
    pub max_steps: usize,
    /// Whether it captures en passant (`e`).
    pub en_passant: bool,
    /// Whether it is a lame leap (`n`): the cells it passes must be empty.
    pub lame: bool,
}

/// A stacking move of a piece for a player: the cells it may climb onto, and onto which types.
#[derive(Clone, Debug)]
pub(super) struct StackMove {
    pub first: Vec<Vec3>,
    pub onto: Vec<PieceId>,
    pub condition: Option<Cond>,
}

/// A per-piece rule of one-step moves onto a piece (stacking, mergers).
pub(super) trait StepRule {
    /// The steps, in the player's frame.
    fn first(&self) -> &[Vec3];
    /// The rule's condition, if any.
    fn condition(&self) -> Option<&Cond>;
}

impl StepRule for StackMove {
    fn first(&self) -> &[Vec3] {
        &self.first
    }
    fn condition(&self) -> Option<&Cond> {
        self.condition.as_ref()
    }
}

impl StepRule for MergeMove {
    fn first(&self) -> &[Vec3] {
        &self.first
    }
    fn condition(&self) -> Option<&Cond> {
        self.condition.as_ref()
    }
}

/// A merger move of a piece for a player: the steps onto a friendly piece of an `onto` type, with the
/// target in `zone` (for that player), that leave a piece of the `into` type there.
#[derive(Clone, Debug)]
pub(super) struct MergeMove {
    pub first: Vec<Vec3>,
    pub onto: Vec<PieceId>,
    pub into: PieceId,
    pub zone: Option<usize>,
    pub condition: Option<Cond>,
}

/// A promotion move of a piece for a player (`promote_move`): the types it may become, on its own
/// cell and with the steps onto an empty cell.
#[derive(Clone, Debug)]
pub(super) struct PromotionStep {
    pub first: Vec<Vec3>,
    pub choices: Vec<PieceId>,
    pub in_place: bool,
    pub peaceful: bool,
    pub condition: Option<Cond>,
}

impl StepRule for PromotionStep {
    fn first(&self) -> &[Vec3] {
        &self.first
    }
    fn condition(&self) -> Option<&Cond> {
        self.condition.as_ref()
    }
}

/// A castling rule.
#[derive(Clone, Debug, Default)]
pub(super) struct Castle {
    pub king: Option<PieceId>,
    /// (direction, partner types).
    pub directions: Vec<(Vec3, Vec<PieceId>)>,
    pub partner_at: Option<(i32, i32)>,
    pub king_steps: i32,
    pub partner_beyond: bool,
    pub check_attacks: bool,
    pub from: Vec<CellId>,
    pub from_zone: Option<usize>,
    /// Whether the king must not have moved: unless `requires` lines leave the king out.
    pub king_virgin: bool,
    /// Partners allowed only under a condition (`partner bishop along southwest when player ==
    /// sw`): (direction, type, condition); a type also listed without a condition needs none.
    pub partner_conditions: Vec<(Vec3, PieceId, Cond)>,
    /// Whether the partner must not have moved (`requires virgin partner`, or no `requires` line).
    pub partner_virgin: bool,
    /// Whether the king and partner must be original pieces (`requires original`): unmoved and not
    /// created during the game.
    pub king_original: bool,
    /// See `king_original`.
    pub partner_original: bool,
    /// Fixed landing cells of the king and the partner (`king_lands`, `partner_lands`).
    pub king_lands: Vec<CellsOrZone>,
    pub partner_lands: Vec<CellsOrZone>,
}

/// The cell names the boards' `alias` templates give (`{rank}{file}{level}`), other than the cells'
/// own names.
fn alias_names(game: &Game) -> Vec<(String, CellId)> {
    let mut names = Vec::new();
    for (id, cell) in game.cells.iter().enumerate() {
        let board = &game.boards[cell.board];
        let label = |labels: &[String], i: i32| labels.get(i as usize).cloned().unwrap_or_default();
        for template in &board.aliases {
            let name = template
                .replace("{file}", &label(&board.files, cell.coord[0]))
                .replace("{rank}", &label(&board.ranks, cell.coord[1]))
                .replace("{level}", &label(&board.levels, cell.coord[2]));
            if name != cell.name && !game.cells.iter().any(|c| c.name == name) {
                names.push((name, id));
            }
        }
    }
    names
}

/// Piece properties beyond moves.
#[derive(Clone, Debug, Default)]
pub(super) struct PieceRules {
    /// Whether the type may be royal.
    pub royal: bool,
    /// The condition under which a piece of the type is royal (`royal when`).
    pub royal_when: Option<Cond>,
    pub pawn: bool,
    /// `None`: captures anything; otherwise only these types (or royals).
    pub captures_only: Option<(Vec<PieceId>, bool)>,
    pub never_captures: bool,
    pub immune: bool,
    pub confined: Option<usize>,
    pub demote_to: Option<PieceId>,
    pub promoted_from: Option<PieceId>,
    pub count_limit: Option<u32>,
    pub drop_zone: Option<usize>,
    pub no_drop_mate: bool,
    pub drop_file_limit: Option<u32>,
    /// `drop_opposite_colours`: the player's pieces of the type go on cells of different colours.
    pub drop_opposite_colours: bool,
    pub cannot_hop: Vec<PieceId>,
    pub facing_illegal: bool,
    pub facing_must_break: bool,
    /// `check_evasion capture_checker`: in check, it may only capture the (single) checking piece.
    pub evades_by_capture: bool,
    pub virgin_in: Option<usize>,
}

impl Interpreter {
    /// Prepares a game for interpretation.
    ///
    /// # Errors
    ///
    /// Returns a message when the start position cannot be read.
    pub fn new(game: Game) -> Result<Interpreter, String> {
        Interpreter::with_options(game, &[])
    }

    /// Prepares a game with chosen option values (`--setup`); options not given take their defaults.
    ///
    /// # Errors
    ///
    /// Returns a message when an option or value is unknown or the start position cannot be built.
    pub fn with_options(game: Game, options: &[(String, String)]) -> Result<Interpreter, String> {
        for (name, value) in options {
            let Some(option) = game.options.iter().find(|o| o.name == *name) else {
                let names: Vec<&str> = game.options.iter().map(|o| o.name.as_str()).collect();
                return Err(format!(
                    "the game has no option `{name}` (options: {})",
                    names.join(", ")
                ));
            };
            let in_range = |range: &str| {
                let Some((lo, hi)) = range.split_once("..") else {
                    return false;
                };
                match (
                    lo.parse::<i128>(),
                    hi.parse::<i128>(),
                    value.parse::<i128>(),
                ) {
                    (Ok(lo), Ok(hi), Ok(v)) => (lo..=hi).contains(&v),
                    _ => false,
                }
            };
            let listed = option
                .values
                .iter()
                .any(|v| v == value || v == "text" || in_range(v));
            if !listed {
                return Err(format!(
                    "option `{name}` has no value `{value}` (values: {})",
                    option.values.join(", ")
                ));
            }
        }
        let players = game.players.iter().filter(|p| !p.neutral).count().max(1);
        let grids = game
            .boards
            .iter()
            .enumerate()
            .map(|(index, board)| {
                let size = [
                    board.size[0] as i32,
                    board.size[1] as i32,
                    board.size[2] as i32,
                ];
                let mut cells = vec![None; (size[0] * size[1] * size[2]) as usize];
                for (id, cell) in game
                    .cells
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.board == index)
                {
                    let [x, y, z] = cell.coord;
                    cells[((z * size[1] + y) * size[0] + x) as usize] = Some(id);
                }
                Grid { size, cells }
            })
            .collect();
        let zones = game
            .zones
            .iter()
            .map(|zone| {
                (0..game.players.len())
                    .map(|p| {
                        let mut member = vec![false; game.cells.len()];
                        for &c in zone.cells.get(p).map(Vec::as_slice).unwrap_or(&[]) {
                            member[c] = true;
                        }
                        member
                    })
                    .collect()
            })
            .collect();
        let moves: Vec<Vec<Vec<PreparedMoves>>> = game
            .pieces
            .iter()
            .map(|piece| {
                game.players
                    .iter()
                    .map(|player| {
                        let frame = Frame {
                            forward: player.forward.clone(),
                        };
                        piece
                            .moves
                            .iter()
                            .map(|m| {
                                let frame = crate::geometry::board_frame(&game, m)
                                    .unwrap_or_else(|| frame.clone());
                                prepare_moves(m, &frame, game.dimensions)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let extent = game.boards.iter().flat_map(|b| b.size).max().unwrap_or(1) as i32;
        // Two move sets of a piece both apply only if they share a board and, when both start from
        // a zone, the zones share a cell (for the player whose frame the sets are prepared in).
        let overlaps: Vec<Vec<bool>> = moves
            .iter()
            .map(|per_player| {
                per_player
                    .iter()
                    .enumerate()
                    .map(|(player, sets)| {
                        let co_apply = |a: &PreparedMoves, b: &PreparedMoves| {
                            let boards = a.boards.is_empty()
                                || b.boards.is_empty()
                                || a.boards.iter().any(|x| b.boards.contains(x));
                            let starts = match (a.from_zone, b.from_zone) {
                                (Some(x), Some(y)) => {
                                    let cells = |z: usize| -> &[CellId] {
                                        game.zones[z].cells.get(player).map_or(&[], Vec::as_slice)
                                    };
                                    cells(x).iter().any(|c| cells(y).contains(c))
                                }
                                _ => true,
                            };
                            boards && starts
                        };
                        super::overlap::may_overlap(sets, extent, game.dimensions, co_apply)
                    })
                    .collect()
            })
            .collect();
        let pieces: Vec<PieceRules> = game.pieces.iter().map(piece_rules).collect();
        let pieces_facing = pieces.iter().any(|p| p.facing_illegal);
        let pieces_break = pieces.iter().any(|p| p.facing_must_break);
        let castles = game.castling.iter().map(castle_rule).collect();
        let has_end = |f: fn(&EndKind) -> bool| game.end.iter().any(|e| f(&e.kind));
        // Royal pieces may not be left attacked, unless the game is won by capturing them.
        let royal_check =
            pieces.iter().any(|p| p.royal) && !has_end(|k| matches!(k, EndKind::RoyalCapture));
        let turn = &game.turn;
        let reserve_flag = |f: fn(&crate::model::Reserve) -> bool| game.reserves.iter().any(f);
        let mut interpreter = Interpreter {
            start_position: Position::empty(0, 0, 0),
            grids,
            moves,
            overlaps,
            zones,
            castles,
            pieces,
            players,
            hand_drops: reserve_flag(|r| r.drops),
            pool_drops: reserve_flag(|r| r.drops && !r.per_player),
            drop_promoted: reserve_flag(|r| r.drops && r.drop_promoted),
            drops_virgin: reserve_flag(|r| r.drops && r.drops_virgin),
            opposite_colours: game.pieces.iter().any(|p| p.drop_opposite_colours),

            drop_condition: game
                .reserves
                .iter()
                .find(|r| r.drops)
                .and_then(|r| r.drop_condition.clone()),
            no_drop_check: reserve_flag(|r| r.drops && r.no_drop_check),
            must_drop: turn.must_drop.clone(),
            captures_to_hand: reserve_flag(|r| r.captured_go_here.is_some()),
            captures_to_partner: reserve_flag(|r| {
                r.captured_go_here == Some(crate::model::CapturesTo::Partner)
            }),
            demote_promoted: reserve_flag(|r| r.demote_promoted),
            must_capture: turn.must_capture,
            en_passant_owner_turn: turn.en_passant_expires == EnPassantExpiry::OwnerTurn,
            en_passant_when_capturable: turn.en_passant_right == EnPassantRight::WhenCapturable,
            forbid_checks: turn.forbid_checks,
            royal_check,
            has_checks_rule: has_end(|k| matches!(k, EndKind::Checks(_))),
            tracks_check_history: has_end(|k| matches!(k, EndKind::PerpetualCheck(_))),
            counts: has_end(|k| matches!(k, EndKind::Counting(_))),
            facing: pieces_facing,
            facing_break: pieces_break,
            gating: game.reserves.iter().find_map(|r| r.gating),
            chosen_options: options.to_vec(),
            freeze: Freeze::from_turn(&turn.freeze),
            end_early: turn.end_early_when_stuck,
            counts_captures: has_end(|k| matches!(k, EndKind::Captures(..)))
                || game
                    .notation
                    .position
                    .as_deref()
                    .is_some_and(|t| t.contains("{captures}")),
            plain_attackers: Vec::new(),
            read_shortcut: Vec::new(),
            attack_plans: Vec::new(),
            stack_moves: Vec::new(),
            merge_moves: Vec::new(),
            promotion_moves: Vec::new(),
            alias_names: alias_names(&game),
            virgin_matters: 0,
            slider_lines: Vec::new(),
            generator: None,
            control: super::control::Control::new(&game),
            transfers: super::transfer::transfers(&game),
            pick_ups: super::pickup::pick_up_rules(&game),
            effects: super::effects::Effects::new(&game),
            elimination: super::elimination::Elimination::from_game(&game),
            pass_when_stuck: turn.pass == Pass::WhenStuck,
            walls: walls(&game),
            royal_all: turn.royal_safety == crate::model::RoyalSafety::All,
            pass_allowed: turn.pass == Pass::Allowed,
            induction: game.pieces.iter().any(|p| {
                p.moves.iter().any(|m| {
                    m.parts
                        .iter()
                        .any(|p| matches!(p.hand_on, crate::model::HandOn::Induction(_)))
                })
            }),
            turn_order: game.turn_order(),
            game,
        };
        interpreter.attack_plans = interpreter.attack_plans();
        interpreter.stack_moves = interpreter.prepare_stack_moves();
        interpreter.merge_moves = interpreter.prepare_merge_moves();
        interpreter.promotion_moves = interpreter.prepare_promotion_moves();
        interpreter.virgin_matters = interpreter.virgin_relevance();
        interpreter.prepare_legality_shortcut();
        interpreter.start_position = interpreter.build_setup().map_err(|e| e.message)?;
        Ok(interpreter)
    }

    /// A table per piece type and player, made by `make` from the piece and the player's frame.
    fn per_piece_and_player<T>(
        &self,
        make: impl Fn(&crate::model::Piece, &Frame) -> Vec<T>,
    ) -> Vec<Vec<Vec<T>>> {
        self.game
            .pieces
            .iter()
            .map(|piece| {
                self.game
                    .players
                    .iter()
                    .map(|player| {
                        let frame = Frame {
                            forward: player.forward.clone(),
                        };
                        make(piece, &frame)
                    })
                    .collect()
            })
            .collect()
    }

    fn prepare_stack_moves(&self) -> Vec<Vec<Vec<StackMove>>> {
        self.per_piece_and_player(|piece, frame| {
            piece
                .stacks
                .iter()
                .map(|stack| StackMove {
                    first: self.single_steps(&stack.moves, frame),
                    onto: stack.onto.clone(),
                    condition: stack.moves.condition.clone(),
                })
                .collect()
        })
    }

    fn prepare_merge_moves(&self) -> Vec<Vec<Vec<MergeMove>>> {
        if self.game.pieces.iter().all(|p| p.merges.is_empty()) {
            return Vec::new();
        }
        self.per_piece_and_player(|piece, frame| {
            piece
                .merges
                .iter()
                .map(|merge| MergeMove {
                    first: self.single_steps(&merge.moves, frame),
                    onto: merge.onto.clone(),
                    into: merge.into,
                    zone: merge.zone,
                    condition: merge.moves.condition.clone(),
                })
                .collect()
        })
    }

    fn prepare_promotion_moves(&self) -> Vec<Vec<Vec<PromotionStep>>> {
        if self
            .game
            .pieces
            .iter()
            .all(|p| p.promotion_moves.is_empty())
        {
            return Vec::new();
        }
        self.per_piece_and_player(|piece, frame| {
            piece
                .promotion_moves
                .iter()
                .map(|rule| PromotionStep {
                    first: rule
                        .steps
                        .as_ref()
                        .map(|m| self.single_steps(m, frame))
                        .unwrap_or_default(),
                    choices: rule.choices.clone(),
                    in_place: rule.in_place,
                    peaceful: rule.peaceful,
                    condition: rule.condition.clone(),
                })
                .collect()
        })
    }

    /// The first steps of a move set's parts in a player's frame, each vector once (stacking and
    /// merger moves go one step).
    fn single_steps(&self, moves: &crate::model::Moves, frame: &Frame) -> Vec<Vec3> {
        let mut first = Vec::new();
        for part in &moves.parts {
            for base in &part.vectors {
                for v in symmetric_variants(*base, self.game.dimensions) {
                    if first_leg_selects(&part.legs[0].directions, v, frame) && !first.contains(&v)
                    {
                        first.push(v);
                    }
                }
            }
        }
        first
    }

    fn virgin_relevance(&self) -> u64 {
        let mut mask = 0u64;
        let has_part = |piece: usize, test: &dyn Fn(&MovePart) -> bool| {
            self.game.pieces[piece]
                .moves
                .iter()
                .any(|m| m.parts.iter().any(test))
        };
        // A piece that borrows moves (`KxK`) may borrow initial ones.
        let any_initial = (0..self.pieces.len()).any(|p| has_part(p, &|part| part.initial));
        for (piece, rules) in self.pieces.iter().enumerate() {
            let initial = has_part(piece, &|part| part.initial)
                || (any_initial
                    && has_part(piece, &|part| {
                        part.hand_on == crate::model::HandOn::Borrowing
                    }));
            let castling = self.castles.iter().any(|c| {
                c.king == Some(piece) || c.directions.iter().any(|(_, ps)| ps.contains(&piece))
            });
            if initial || castling || self.gating.is_some() || rules.virgin_in.is_some() {
                mask |= 1 << piece;
            }
        }
        mask
    }

    fn prepare_legality_shortcut(&mut self) {
        // Parts that never capture cannot attack; the others must be plain leaps or slides.
        let plain_part = |p: &PreparedPart| {
            let modes = p.part.legs.last().map(|l| l.modes.as_str()).unwrap_or("");
            let captures =
                modes.contains('c') || !modes.chars().any(|c| matches!(c, 'm' | 'd' | 'e'));
            !captures
                || (p.part.legs.len() == 1
                    && p.part.path == crate::model::RiderPath::Straight
                    && !modes.chars().any(|c| "npgjuodx".contains(c))
                    && !p.part.vectors.is_empty())
        };
        let players = self.game.players.len();
        let conditional_royal = self.pieces.iter().any(|p| p.royal_when.is_some());
        let special_rules = self.effects.captures_remove_more()
            || conditional_royal
            || self.forbid_checks
            || self.facing
            || self.facing_break
            || self.game.turn.moves > 1;
        self.plain_attackers =
            (0..players)
                .map(|me| {
                    !special_rules
                        && self.moves.iter().all(|per_player| {
                            per_player.iter().enumerate().filter(|(o, _)| *o != me).all(
                                |(_, sets)| {
                                    sets.iter().all(|s| {
                                        s.condition.is_none()
                                            && s.within.is_none()
                                            && s.parts.iter().all(plain_part)
                                    })
                                },
                            )
                        })
                })
                .collect();
        // Rules under which a move changes more than its own cells, or legality asks more than
        // whether a royal piece is attacked (and royal pieces facing each other).
        let other_rules = self.effects.is_active()
            || conditional_royal
            || self.forbid_checks
            || self.facing_break
            || self.game.turn.moves > 1
            || self.game.custodian.is_some()
            || !self.transfers.is_empty()
            || self.freeze.is_used();
        self.read_shortcut = (0..players)
            .map(|me| {
                !other_rules
                    && self
                        .attack_plans
                        .iter()
                        .enumerate()
                        .all(|(o, plan)| o == me || plan.forward_types == 0)
            })
            .collect();
        self.slider_lines = (0..players)
            .map(|me| {
                let mut lines: Vec<(Vec3, u32)> = Vec::new();
                for per_player in &self.moves {
                    for (_, sets) in per_player.iter().enumerate().filter(|(o, _)| *o != me) {
                        for part in sets.iter().flat_map(|s| &s.parts) {
                            if part.part.range == 1 {
                                continue;
                            }
                            let range = if part.part.range == 0 {
                                u32::MAX
                            } else {
                                part.part.range as u32
                            };
                            for &v in &part.first {
                                let back = [-v[0], -v[1], -v[2]];
                                if !lines.contains(&(back, range)) {
                                    lines.push((back, range));
                                }
                            }
                        }
                    }
                }
                lines
            })
            .collect();
    }

    /// Plugs in compiled move generation (a compiled engine's hot path).
    pub fn with_generator(
        mut self,
        generator: std::sync::Arc<dyn super::Generator>,
    ) -> Interpreter {
        self.generator = Some(super::generator::Hook(generator));
        self
    }

    /// Resolves `--setup` values: `NAME=VALUE` or `NAME:VALUE` (`seed:7`), a bare value that one of
    /// the game's options lists, or else a bare value for the game's one free-text option (a setup
    /// code). NAME is an option's name or its `engine_name` (as XBoard and UCI show it). An option
    /// with `selects OTHER VALUE` also sets that other option, unless it is given.
    ///
    /// # Errors
    ///
    /// Returns a message when a bare value belongs to no option.
    pub fn resolve_options(
        game: &Game,
        values: &[String],
    ) -> Result<Vec<(String, String)>, String> {
        let named = |name: &str| {
            game.options
                .iter()
                .find(|o| o.name == name)
                .or_else(|| {
                    game.options
                        .iter()
                        .find(|o| o.engine_name.as_deref() == Some(name))
                })
                .map(|o| o.name.clone())
        };
        let mut chosen: Vec<(String, String)> = Vec::new();
        for v in values {
            let pair = if let Some((name, value)) = v.split_once('=') {
                (
                    named(name).unwrap_or_else(|| name.to_string()),
                    value.to_string(),
                )
            } else if let Some((name, value)) = v
                .split_once(':')
                .and_then(|(n, value)| Some((named(n)?, value)))
            {
                (name, value.to_string())
            } else if let Some(option) = game
                .options
                .iter()
                .find(|o| o.values.iter().any(|x| x == v))
            {
                (option.name.clone(), v.clone())
            } else {
                let free: Vec<_> = game
                    .options
                    .iter()
                    .filter(|o| o.values.iter().any(|x| x == "text"))
                    .collect();
                match free.as_slice() {
                    [option] => (option.name.clone(), v.clone()),
                    _ => return Err(format!("no option of the game has the value `{v}`")),
                }
            };
            chosen.push(pair);
        }
        let implied: Vec<(String, String)> = chosen
            .iter()
            .filter_map(|(name, _)| game.options.iter().find(|o| o.name == *name))
            .filter_map(|o| o.selects.clone())
            .filter(|(name, _)| !chosen.iter().any(|(n, _)| n == name))
            .collect();
        chosen.extend(implied);
        Ok(chosen)
    }

    /// The option values chosen so far (options not listed take their defaults).
    pub fn chosen_options(&self) -> &[(String, String)] {
        &self.chosen_options
    }

    /// Chooses option values over those chosen before, keeping the compiled generator.
    pub(super) fn rechoose(&mut self, values: &[String]) -> Result<(), String> {
        let mut chosen = self.chosen_options.clone();
        for (name, value) in Interpreter::resolve_options(&self.game, values)? {
            chosen.retain(|(n, _)| *n != name);
            chosen.push((name, value));
        }
        let generator = self.generator.take();
        let rebuilt = Interpreter::with_options(self.game.clone(), &chosen);
        self.generator = generator.clone();
        let mut rebuilt = rebuilt?;
        rebuilt.generator = generator;
        *self = rebuilt;
        Ok(())
    }

    /// Returns the cell at `from + v` on the same board, if it exists.
    #[inline]
    pub(super) fn step(&self, from: CellId, v: Vec3) -> Option<CellId> {
        let cell = &self.game.cells[from];
        let grid = &self.grids[cell.board];
        let (x, y, z) = (
            cell.coord[0] + v[0],
            cell.coord[1] + v[1],
            cell.coord[2] + v[2],
        );
        if x < 0 || y < 0 || z < 0 || x >= grid.size[0] || y >= grid.size[1] || z >= grid.size[2] {
            return None;
        }
        grid.cells[((z * grid.size[1] + y) * grid.size[0] + x) as usize]
    }

    /// Like [`Interpreter::step`], but files wrap around (the `o` cylinder mode).
    pub(super) fn step_cylinder(&self, from: CellId, v: Vec3) -> Option<CellId> {
        let cell = &self.game.cells[from];
        let grid = &self.grids[cell.board];
        let x = (cell.coord[0] + v[0]).rem_euclid(grid.size[0]);
        let (y, z) = (cell.coord[1] + v[1], cell.coord[2] + v[2]);
        if y < 0 || z < 0 || y >= grid.size[1] || z >= grid.size[2] {
            return None;
        }
        grid.cells[((z * grid.size[1] + y) * grid.size[0] + x) as usize]
    }

    /// Tells whether a cell is in a zone for a player.
    #[inline]
    pub(super) fn in_zone(&self, zone: usize, player: usize, cell: CellId) -> bool {
        self.zones[zone].get(player).is_some_and(|z| z[cell])
    }
}

/// A game's walling rule, with its `reach` moves prepared in each player's frame.
fn walls(game: &Game) -> Option<super::walls::Walls> {
    let rule = game.turn.wall.as_ref()?;
    let reach = match &rule.cells {
        crate::model::WallCells::Reach(moves) => game
            .players
            .iter()
            .map(|player| {
                let frame = Frame {
                    forward: player.forward.clone(),
                };
                vec![prepare_moves(moves, &frame, game.dimensions)]
            })
            .collect(),
        _ => Vec::new(),
    };
    Some(super::walls::Walls::new(
        rule,
        game.wall_piece()?,
        game.wall_owner()?,
        reach,
    ))
}

fn prepare_moves(moves: &crate::model::Moves, frame: &Frame, dimensions: usize) -> PreparedMoves {
    let parts = moves
        .parts
        .iter()
        .map(|part| {
            let mut first = Vec::new();
            for base in &part.vectors {
                for v in symmetric_variants(*base, dimensions) {
                    if first_leg_selects(&part.legs[0].directions, v, frame) && !first.contains(&v)
                    {
                        first.push(v);
                    }
                }
            }
            let ep_source = part.initial || part.legs.iter().any(|l| l.modes.contains('n'));
            let modes = part.legs[0].modes.as_bytes();
            let simple = (part.legs.len() == 1
                && part.path == crate::model::RiderPath::Straight
                && !part.vectors.is_empty()
                && part.atom != crate::geometry::UNIVERSAL_ATOM
                && modes.iter().all(|c| matches!(c, b'm' | b'c' | b'e' | b'n')))
            .then(|| SimplePart {
                moves: modes.contains(&b'm') || !modes.iter().any(|c| matches!(c, b'c' | b'e')),
                captures: super::movegen::may_capture(modes),
                en_passant: modes.contains(&b'e'),
                lame: modes.contains(&b'n') && part.range == 1,
                max_steps: match part.range {
                    0 => usize::MAX,
                    n => n as usize,
                },
            });
            let continuations = (0..part.legs.len().saturating_sub(1))
                .map(|leg| {
                    let directions = &part.legs[leg + 1].directions;
                    let sides: &[i8] = if turns_to_a_side(directions) {
                        &[-1, 0, 1]
                    } else {
                        &[0]
                    };
                    let mut table = Vec::new();
                    for &base in &part.vectors {
                        let (candidates, straight) =
                            crate::geometry::continuation_candidates(base, dimensions);
                        for &step in &candidates {
                            for &side in sides {
                                let next = candidates
                                    .iter()
                                    .copied()
                                    .filter(|&c| {
                                        crate::geometry::continuation_selects_after(
                                            directions, step, c, straight, side,
                                        )
                                    })
                                    .collect();
                                table.push((base, step, side, next));
                            }
                        }
                    }
                    table
                })
                .collect();
            PreparedPart {
                part: part.clone(),
                first,
                ep_source,
                simple,
                continuations,
            }
        })
        .collect();
    PreparedMoves {
        parts,
        boards: moves.boards.clone(),
        from_zone: moves.from_zone,
        within: moves.within,
        condition: moves.condition.clone(),
        exclusive: moves.exclusive,
    }
}

fn piece_rules(piece: &crate::model::Piece) -> PieceRules {
    PieceRules {
        royal: piece.royal.is_royal(),
        royal_when: match &piece.royal {
            Royalty::When(c) => Some(c.clone()),
            Royalty::No | Royalty::Yes => None,
        },
        pawn: piece.pawn,
        captures_only: piece.captures_only.clone(),
        never_captures: piece.never_captures,
        immune: piece.immune,
        confined: piece.confined,
        demote_to: piece.demote_to,
        promoted_from: piece.promoted_from,
        count_limit: piece.count_limit,
        drop_zone: piece.drop_zone,
        no_drop_mate: piece.no_drop_mate,
        drop_file_limit: piece.drop_file_limit,
        drop_opposite_colours: piece.drop_opposite_colours,
        cannot_hop: piece.cannot_hop.clone(),
        facing_illegal: piece.facing == Some(crate::model::Facing::Illegal),
        facing_must_break: piece.facing == Some(crate::model::Facing::MustBreak),
        evades_by_capture: piece.check_evasion == Some(crate::model::CheckEvasion::CaptureChecker),
        virgin_in: piece.virgin_in,
    }
}

fn castle_rule(rule: &crate::model::Castle) -> Castle {
    let mut castle = Castle {
        king: rule.king,
        partner_at: match rule.partner_at {
            PartnerAt::Edge => None,
            PartnerAt::Distance(lo, hi) => Some((lo as i32, hi as i32)),
        },
        king_steps: rule.king_steps as i32,
        partner_beyond: rule.partner_to == PartnerTo::Beyond,
        check_attacks: rule.check_attacks,
        king_lands: rule.king_lands.clone(),
        partner_lands: rule.partner_lands.clone(),
        ..Castle::default()
    };
    for from in &rule.from {
        match from {
            CellsOrZone::Cell(c) => castle.from.push(*c),
            CellsOrZone::Zone(z) => castle.from_zone = Some(*z),
        }
    }
    // Without `requires` lines the king and the partner must be unmoved; with them, what they say.
    castle.king_virgin = rule.requires.is_empty() || rule.requires_king(None);
    castle.partner_virgin = rule.requires.is_empty() || rule.requires_partner(None);
    castle.king_original = rule.requires_king(Some(Untouched::Original));
    castle.partner_original = rule.requires_partner(Some(Untouched::Original));
    let along = &rule.along;
    let unconditional: Vec<(Vec3, PieceId)> = rule
        .partners
        .iter()
        .filter(|p| p.condition.is_none())
        .flat_map(|p| {
            let dirs = if p.along.is_empty() { along } else { &p.along };
            dirs.iter()
                .flat_map(move |&d| p.pieces.iter().map(move |&t| (d, t)))
        })
        .collect();
    for partner in &rule.partners {
        let dirs = if partner.along.is_empty() {
            along.clone()
        } else {
            partner.along.clone()
        };
        for dir in dirs {
            if let Some(condition) = &partner.condition {
                for &t in partner
                    .pieces
                    .iter()
                    .filter(|&&t| !unconditional.contains(&(dir, t)))
                {
                    castle.partner_conditions.push((dir, t, condition.clone()));
                }
            }
            match castle.directions.iter_mut().find(|(d, _)| *d == dir) {
                Some((_, list)) => list.extend(partner.pieces.iter().copied()),
                None => castle.directions.push((dir, partner.pieces.clone())),
            }
        }
    }
    castle
}
