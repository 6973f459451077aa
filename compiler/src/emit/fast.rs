//! Emission of the compact form: bitboard tables as `static` arrays, a `Board` position, per-player
//! move generation with legality from pins and checks, attack detection, and make; a `Fast` type
//! implementing `vdl_runtime::compact::CompactGame`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::lower::fast::{
    Bits, ConversionTarget, EarlyEnd, FastCond, FastConditional, FastCustodian, FastInt, FastIr,
    FastMoves, FastOwners, FastPiece, FastWallCells, MoveCond, MoveInt, RuleCond, RuleEffect,
};
use vdl_runtime::compact::CellField;
use vdl_runtime::model::{Compare, Pass};

mod paths;
mod triggers;

/// Emits the compact form's items.
pub fn emit_fast(ir: &FastIr) -> TokenStream {
    let e = Emitter {
        ir,
        shared: std::cell::Cell::new(false),
    };
    let tables = e.tables();
    let board = e.board();
    let attacks = e.attacks();
    let generation = e.generation();
    let make = e.make();
    let walls = e.walls();
    let game = e.game();
    let conversions = e.conversions();
    let royal_now = match &ir.royal_when {
        Some(condition) => {
            let condition = e.count_cond(condition);
            quote! {
                /// Whether player `own`'s pieces of the royal type are royal now (`royal when`).
                fn royal_now(board: &Board, own: usize) -> bool {
                    #condition
                }
            }
        }
        None => quote! {},
    };
    quote! {
        #tables
        #board
        #conversions
        #royal_now
        #attacks
        #generation
        #make
        #walls
        #game
    }
}

/// One per-cell table of a block of moves under a condition.
type BlockTable = fn(&FastConditional) -> &Vec<Bits>;

/// A player's attack tests and pin scans ([`Emitter::attack_checks`]).
type AttackTokens = (Vec<TokenStream>, Vec<TokenStream>);

struct Emitter<'a> {
    ir: &'a FastIr,
    /// While emitting the body of a function shared by the players: the player is then the
    /// const generic `US` rather than a number.
    shared: std::cell::Cell<bool>,
}

impl Emitter<'_> {
    fn wide(&self) -> bool {
        self.ir.cells > 64
    }

    /// The words of the bitboard on boards of more than 128 cells ([`vdl_runtime::compact::Wide`]),
    /// 0 on smaller boards (`u64` or `u128`).
    fn words(&self) -> usize {
        if self.ir.cells > 128 {
            self.ir.cells.div_ceil(64)
        } else {
            0
        }
    }

    /// Whether some step of a piece type needs its player in check or not in check.
    fn conditional_steps(players: &[FastMoves]) -> bool {
        players
            .iter()
            .any(|m| m.steps.iter().flatten().any(|s| s.in_check.is_some()))
    }

    /// Whether some step of the game needs its player in check or not in check.
    fn any_conditional_steps(&self) -> bool {
        self.ir
            .pieces
            .iter()
            .any(|p| Self::conditional_steps(&p.players))
    }

    /// A bitboard literal, in hexadecimal so that rows of the board can be read off.
    fn bits(&self, value: Bits) -> TokenStream {
        let hex = |text: String| {
            let literal = syn::LitInt::new(&text, proc_macro2::Span::call_site());
            quote! { #literal }
        };
        let words = self.words();
        if words > 0 {
            // A constant of the wide type: its words, lowest first.
            let words = value.0[..words].iter().map(|&w| {
                hex(if w == 0 {
                    "0".to_string()
                } else {
                    format!("{w:#018x}")
                })
            });
            return quote! { Wide([#(#words),*]) };
        }
        let value = value.0[0] as u128 | (value.0[1] as u128) << 64;
        hex(if value == 0 {
            "0".to_string()
        } else if self.wide() {
            format!("{value:#034x}")
        } else {
            format!("{:#018x}", value as u64)
        })
    }

    /// Whether cells are `u16` in the tables and the position (boards of more than 255 cells,
    /// whose moves keep a ninth bit of each cell in `CompactMove::high`).
    fn big(&self) -> bool {
        self.ir.cells > 255
    }

    /// The type of a cell in the tables and the position.
    fn cell_ty(&self) -> TokenStream {
        if self.big() {
            quote!(u16)
        } else {
            quote!(u8)
        }
    }

    /// A cell in a table, or the marker for none.
    fn cell_lit(&self, cell: Option<usize>) -> Literal {
        match cell {
            Some(c) => Literal::usize_unsuffixed(c),
            None if self.big() => Literal::u16_unsuffixed(u16::MAX),
            None => Literal::u8_unsuffixed(u8::MAX),
        }
    }

    /// A cell field of the move `mv`, of the type of [`Emitter::cell_ty`].
    fn mv_cell(&self, field: CellField) -> TokenStream {
        if self.big() {
            let variant = format_ident!("{}", format!("{field:?}"));
            return quote! { mv.cell(CellField::#variant) };
        }
        let name = format_ident!(
            "{}",
            match field {
                CellField::From => "from",
                CellField::To => "to",
                CellField::Aux => "aux",
                CellField::Aux2 => "aux2",
                CellField::GateCell => "gate_cell",
                CellField::Wall => "wall",
            }
        );
        quote! { mv.#name }
    }

    /// The generated code that builds the moves with more than two cells, in the form of the
    /// board's cell type: on boards of more than 255 cells the cells are set by
    /// `CompactMove::with_cell`.
    fn move_code(&self, what: &str) -> TokenStream {
        let big = self.big();
        match (what, big) {
            ("no_cell", false) => quote! { const NO_CELL: u8 = vdl_runtime::compact::NO_CELL; },
            ("no_cell", true) => {
                quote! { const NO_CELL: u16 = vdl_runtime::compact::NO_WIDE_CELL; }
            }
            ("push_double_step", false) => quote! {
                out.push(CompactMove { kind: CompactKind::DoubleStep, aux: ep, ..CompactMove::normal(from, to as usize, 0) });
            },
            ("push_double_step", true) => quote! {
                out.push(CompactMove { kind: CompactKind::DoubleStep, ..CompactMove::wide(from, to as usize, 0).with_cell(CellField::Aux, ep) });
            },
            ("push_en_passant", false) => quote! {
                out.push(CompactMove { kind: CompactKind::EnPassant, aux: victim as u8, ..CompactMove::normal(from, target, 0) });
            },
            ("push_en_passant", true) => quote! {
                out.push(CompactMove { kind: CompactKind::EnPassant, ..CompactMove::wide(from, target, 0).with_cell(CellField::Aux, victim as u16) });
            },
            ("unload_move", false) => quote! {
                CompactMove { kind: CompactKind::Unload, aux2: back as u8, ..CompactMove::normal(from, at, 0) }
            },
            ("unload_move", true) => quote! {
                CompactMove { kind: CompactKind::Unload, ..CompactMove::wide(from, at, 0).with_cell(CellField::Aux2, back as u16) }
            },
            ("castle_fields", false) => quote! {
                aux: partner as u8,
                aux2: partner_to as u8,
                ..CompactMove::normal(cell, king_to, 0)
            },
            ("castle_fields", true) => quote! {
                ..CompactMove::wide(cell, king_to, 0)
                    .with_cell(CellField::Aux, partner as u16)
                    .with_cell(CellField::Aux2, partner_to as u16)
            },
            ("gate_move", false) => quote! {
                CompactMove { gate: piece as u8 + 1, gate_cell: cell, ..mv }
            },
            ("gate_move", true) => quote! {
                CompactMove { gate: piece as u8 + 1, ..mv.with_cell(CellField::GateCell, cell) }
            },
            ("wall_move", false) => quote! {
                CompactMove { wall: cells.trailing_zeros() as u8, ..mv }
            },
            ("wall_move", true) => quote! {
                mv.with_cell(CellField::Wall, cells.trailing_zeros() as u16)
            },
            _ => unreachable!("no generated code {what}"),
        }
    }

    /// The constructor of a plain move.
    fn normal(&self) -> TokenStream {
        if self.big() {
            quote! { CompactMove::wide }
        } else {
            quote! { CompactMove::normal }
        }
    }

    /// The empty bitboard.
    fn zero(&self) -> TokenStream {
        if self.words() > 0 {
            quote! { Bits::ZERO }
        } else {
            quote! { 0 }
        }
    }

    /// A per-cell table of bitboards: on large boards, the step vectors it is made of when there
    /// are such, else its values.
    fn per_cell(&self, values: &[Bits]) -> TokenStream {
        if let Some((leaps, rides)) = self.ir.steps.cover(values) {
            let (leaps, rides) = (
                leaps.into_iter().map(|v| Literal::u16_unsuffixed(v as u16)),
                rides.into_iter().map(|v| Literal::u16_unsuffixed(v as u16)),
            );
            return quote! { step_table(&STEP_CELLS, &[#(#leaps),*], &[#(#rides),*]) };
        }
        let items = values.iter().map(|&v| self.bits(v));
        quote! { [#(#items),*] }
    }

    /// The step table of a large board ([`crate::lower::fast::StepTable`]): computed by the
    /// engine's compiler from whole boxes, or written out.
    fn step_cells(&self) -> TokenStream {
        let steps = &self.ir.steps;
        if steps.vectors.is_empty() {
            return quote! {};
        }
        let n = Literal::usize_unsuffixed(steps.vectors.len());
        let vectors = steps.vectors.iter().map(|v| {
            let [x, y, z] = v.map(Literal::i32_unsuffixed);
            quote! { [#x, #y, #z] }
        });
        let table = match &steps.boxes {
            Some(boxes) => {
                let count = Literal::usize_unsuffixed(boxes.len());
                let boxes = boxes.iter().map(|(first, size)| {
                    let first = Literal::usize_unsuffixed(*first);
                    let [x, y, z] = size.map(Literal::u32_unsuffixed);
                    quote! { (#first, [#x, #y, #z]) }
                });
                quote! {
                    use vdl_runtime::compact::box_steps;
                    /// The boards: first cell and files, ranks, levels.
                    const STEP_BOARDS: [(usize, [u32; 3]); #count] = [#(#boxes),*];
                    /// Per cell, the cell each step vector reaches, or `NO_STEP`.
                    const STEP_CELLS: [[u16; #n]; CELLS] = box_steps(&STEP_BOARDS, &STEP_VECTORS);
                }
            }
            None => {
                let rows = steps.to.iter().map(|row| {
                    let cells = row
                        .iter()
                        .map(|to| Literal::u16_unsuffixed(to.map_or(u16::MAX, |c| c as u16)));
                    quote! { [#(#cells),*] }
                });
                quote! {
                    /// Per cell, the cell each step vector reaches, or `NO_STEP`.
                    const STEP_CELLS: [[u16; #n]; CELLS] = [#(#rows),*];
                }
            }
        };
        quote! {
            use vdl_runtime::compact::step_table;
            /// The step vectors the per-cell tables are made of: (files, ranks, levels).
            const STEP_VECTORS: [[i32; 3]; #n] = [#(#vectors),*];
            #table
        }
    }

    /// `mask` (royal pieces of `player` on `board`), or none while `royal when` does not hold for
    /// him.
    fn royal_gate(
        &self,
        mask: TokenStream,
        board: TokenStream,
        player: TokenStream,
    ) -> TokenStream {
        if self.ir.royal_when.is_none() {
            return mask;
        }
        let zero = self.zero();
        quote! { (if royal_now(&#board, #player) { #mask } else { #zero }) }
    }

    /// Under lasting en-passant rights (`FastIr::en_passant_lasts`): the rights a player may hold
    /// at once, one per single move of his turn.
    fn right_slots(&self) -> usize {
        self.ir.turns.moves.max(1) as usize
    }

    /// The royal pieces on `board` (of every royal type), if the game has any.
    fn royal_bits(&self, board: TokenStream) -> Option<TokenStream> {
        let types: Vec<_> = self.ir.royal_types.iter().map(|&r| self.piece(r)).collect();
        match types.as_slice() {
            [] => None,
            [r] => Some(quote! { #board.pieces[#r] }),
            _ => Some(quote! { (#(#board.pieces[#types])|*) }),
        }
    }

    /// The constant naming a piece type's index: its name in upper case, or `PIECE_<index>` when that
    /// is not an identifier or clashes with another item.
    fn piece(&self, index: usize) -> proc_macro2::Ident {
        const TAKEN: &[&str] = &[
            "CELLS",
            "PIECES",
            "ALL",
            "EMPTY",
            "NO_CELL",
            "RESETS_COUNTER",
            "KEY_COUNT",
            "KEYS",
            "VIRGIN_KEYS",
            "PROMOTED_KEYS",
            "EN_PASSANT_KEYS",
            "SIDE_KEY",
            "HAND_KEYS",
            "HAND_TYPE",
            "PROMOTED_TO_HAND",
            "CAPTURES_TO_HAND",
            "CUSTODIAN_STEPS",
            "CUSTODIAN_AROUND",
            "FILES",
            "TURN_KEY",
            "FROZEN_KEYS",
            "CAPTURE_KEYS",
            "MOVES_PER_TURN",
            "BETWEEN",
            "NAME",
            "SOURCE",
            "SELF",
            "SUPER",
            "CRATE",
        ];
        let name = |i: usize| -> String {
            self.ir.pieces[i]
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_uppercase()
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        let own = name(index);
        let clashes = own.is_empty()
            || own.starts_with(|c: char| c.is_ascii_digit() || c == '_')
            || own.contains(|c: char| c.is_ascii_digit())
            || TAKEN.contains(&own.as_str())
            || (0..self.ir.pieces.len()).any(|i| i != index && name(i) == own);
        if clashes {
            format_ident!("PIECE_{}", index)
        } else {
            format_ident!("{}", own)
        }
    }

    /// The union of the bitboards of the piece types `types` (both players' pieces).
    fn pieces_of(&self, types: &[usize]) -> TokenStream {
        let mut types = types.to_vec();
        types.sort_unstable();
        types.dedup();
        let pieces = types.iter().map(|&t| self.piece(t));
        quote! { #(board.pieces[#pieces])|* }
    }

    fn code(&self, piece: usize, owner: usize) -> Literal {
        Literal::u8_unsuffixed((1 + piece * self.ir.owners + owner) as u8)
    }

    /// The pieces of every side (the players and the neutral sides) on `board`, as `a | b | ...`.
    fn all_colors(&self, board: TokenStream) -> TokenStream {
        let all = (0..self.ir.owners).map(Literal::usize_unsuffixed);
        quote! { #(#board.colors[#all])|* }
    }

    /// The number of sides that own pieces (the players, then the neutral sides), as a literal.
    fn no(&self) -> Literal {
        Literal::usize_unsuffixed(self.ir.owners)
    }

    /// The number of players who move, as a literal.
    fn np(&self) -> Literal {
        Literal::usize_unsuffixed(self.ir.players)
    }

    /// Whether a promotion rule takes the new piece from a reserve.
    fn promotes_from_reserves(&self) -> bool {
        self.ir.pieces.iter().any(|p| {
            p.players
                .iter()
                .any(|m| m.promotion_rules.iter().any(|r| r.reserve.is_some()))
        })
    }

    /// The rows of hands: one per player, and the shared reserve's after them.
    fn hand_rows(&self) -> usize {
        self.ir.players + usize::from(self.ir.hands.as_ref().is_some_and(|h| h.shared))
    }

    /// [`Emitter::hand_rows`] as a literal.
    fn rows(&self) -> Literal {
        Literal::usize_unsuffixed(self.hand_rows())
    }

    /// Whether the game has more than two players.
    fn many(&self) -> bool {
        self.ir.players > 2
    }

    /// The union of the pieces of `player`'s enemies (every other player) on `board`.
    fn enemies_of(&self, board: TokenStream, player: usize) -> TokenStream {
        if self.shared.get() {
            let all = (0..self.ir.players).map(Literal::usize_unsuffixed);
            return quote! { ((#(#board.colors[#all])|*) & !#board.colors[US]) };
        }
        let others = (0..self.ir.players)
            .filter(|&p| p != player)
            .map(Literal::usize_unsuffixed);
        quote! { (#(#board.colors[#others])|*) }
    }

    /// Player `index` in generated code: its number, or `US` in a function shared by the players.
    fn player_lit(&self, index: usize) -> TokenStream {
        if self.shared.get() {
            quote! { US }
        } else {
            let index = Literal::usize_unsuffixed(index);
            quote! { #index }
        }
    }

    /// The enemy of player `us_index` as `attacked` takes it: the other player, or with more than two
    /// players `PLAYERS + us` for all of them.
    fn enemy_lit(&self, us_index: usize) -> TokenStream {
        let players = Literal::usize_unsuffixed(self.ir.players);
        match (self.shared.get(), self.many()) {
            (true, true) => quote! { (#players + US) },
            (true, false) => quote! { (1 - US) },
            (false, true) => {
                let them = Literal::usize_unsuffixed(self.ir.players + us_index);
                quote! { #them }
            }
            (false, false) => {
                let them = Literal::usize_unsuffixed(1 - us_index);
                quote! { #them }
            }
        }
    }

    fn first(&self, direction: usize, bits: TokenStream) -> TokenStream {
        if self.ir.directions[direction].ascending {
            quote! { ((#bits).trailing_zeros() as usize) }
        } else {
            quote! { ((Bits::BITS - 1 - (#bits).leading_zeros()) as usize) }
        }
    }

    fn ray(direction: usize) -> proc_macro2::Ident {
        format_ident!("RAYS_{}", direction)
    }

    /// Slide targets along one direction from `cell` with `occupied` blocking (blockers included).
    fn slide(&self, direction: usize, cell: TokenStream, occupied: TokenStream) -> TokenStream {
        let ray = Self::ray(direction);
        let first = self.first(direction, quote!(blockers));
        quote! {{
            let ray = #ray[#cell];
            let blockers = ray & #occupied;
            if blockers == 0 { ray } else { ray ^ #ray[#first] }
        }}
    }

    fn tables(&self) -> TokenStream {
        let rows = self.rows();
        let no_cell = self.move_code("no_cell");
        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let ir = self.ir;
        let cells = Literal::usize_unsuffixed(ir.cells);
        let pieces = Literal::usize_unsuffixed(ir.pieces.len());
        let no = self.no();
        let words = self.words();
        let bits_type = if words > 0 {
            let words = Literal::usize_unsuffixed(words);
            quote!(Wide<#words>)
        } else if self.wide() {
            quote!(u128)
        } else {
            quote!(u64)
        };
        let all = self.bits(Bits::below(ir.cells));
        let mut items = vec![self.step_cells()];
        if ir.pieces.iter().flat_map(|p| &p.players).any(|m| {
            m.paths.iter().any(|p| !p.is_empty()) || m.path_attacks.iter().any(|p| !p.is_empty())
        }) {
            items.push(self.path_walk());
            items.push(self.path_risk());
        }
        for (index, direction) in ir.directions.iter().enumerate() {
            let ray = Self::ray(index);
            let masks: Vec<Bits> = direction
                .lines
                .iter()
                .map(|line| line.iter().fold(Bits::ZERO, |m, &c| m | Bits::bit(c)))
                .collect();
            let table = self.per_cell(&masks);
            let doc = match direction.within {
                None => format!("The cells along {:?} from each cell.", direction.vector),
                Some(_) => format!(
                    "The cells along {:?} from each cell, within a zone (`moves ... within`).",
                    direction.vector
                ),
            };
            items.push(quote! { #[doc = #doc] static #ray: [Bits; CELLS] = #table; });
        }
        let mut written: Vec<(Vec<&[Bits]>, proc_macro2::Ident)> = Vec::new();
        for (index, piece) in ir.pieces.iter().enumerate() {
            let mut tables: Vec<(&str, Vec<&[Bits]>)> = vec![
                (
                    "QUIET",
                    piece
                        .players
                        .iter()
                        .map(|m| m.quiet_leaps.as_slice())
                        .collect(),
                ),
                (
                    "CAPTURE",
                    piece
                        .players
                        .iter()
                        .map(|m| m.capture_leaps.as_slice())
                        .collect(),
                ),
                (
                    "ATTACKED_FROM",
                    piece
                        .players
                        .iter()
                        .map(|m| m.attacked_from.as_slice())
                        .collect(),
                ),
                (
                    "INITIAL_ATTACKED_FROM",
                    piece
                        .players
                        .iter()
                        .map(|m| m.initial_attacked_from.as_slice())
                        .collect(),
                ),
            ];
            if piece.players.iter().any(|m| m.en_passant_from.is_some()) {
                let empty = vec![Bits::ZERO; ir.cells];
                let rows: Vec<&[Bits]> = piece
                    .players
                    .iter()
                    .map(|m| m.en_passant_from.as_deref().unwrap_or(&[]))
                    .collect();
                let rows: Vec<Vec<Bits>> = rows
                    .iter()
                    .map(|r| {
                        if r.is_empty() {
                            empty.clone()
                        } else {
                            r.to_vec()
                        }
                    })
                    .collect();
                let name = format_ident!("EN_PASSANT_FROM_{}", index);
                let players = rows.iter().map(|r| self.per_cell(r));
                items.push(quote! { static #name: [[Bits; CELLS]; #no] = [#(#players),*]; });
            }
            for (k, rule) in piece.promotion_moves.iter().enumerate() {
                if rule.steps.iter().flatten().all(|&b| b == 0) {
                    continue;
                }
                let name = format_ident!("PROMOTION_STEPS_{}_{}", index, k);
                let players = rule.steps.iter().map(|r| self.per_cell(r));
                let doc = format!(
                    "The steps of a promotion move of the {} for each player, per cell.",
                    piece.name
                );
                items.push(
                    quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #no] = [#(#players),*]; },
                );
            }
            for (kind, rows) in tables.drain(..) {
                if rows.iter().all(|r| r.iter().all(|&b| b == 0)) {
                    continue;
                }
                let name = format_ident!("{}_{}", kind, index);
                // A table equal to one written before (pieces that leap alike, or a piece whose
                // captures are its quiet leaps) is that table under a second name.
                if let Some((_, first)) = written.iter().find(|(r, _)| *r == rows) {
                    items.push(quote! { use #first as #name; });
                    continue;
                }
                written.push((rows.clone(), name.clone()));
                let players = rows.iter().map(|r| self.per_cell(r));
                let doc = format!(
                    "{kind} leaps of the {} for each player, per cell.",
                    piece.name
                );
                items.push(
                    quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #no] = [#(#players),*]; },
                );
            }
            let width = piece
                .players
                .iter()
                .flat_map(|m| m.steps.iter().map(Vec::len))
                .max()
                .unwrap_or(0);
            if width > 0 {
                let name = format_ident!("STEPS_{}", index);
                let w = Literal::usize_unsuffixed(width);
                let conditional = Self::conditional_steps(&piece.players);
                let players = piece.players.iter().map(|m| {
                    let rows = m.steps.iter().map(|row| {
                        let entries = (0..width).map(|i| match row.get(i) {
                            Some(s) => {
                                let to = self.cell_lit(Some(s.to));
                                let block =
                                    self.cell_lit(s.block);
                                let ep =
                                    self.cell_lit(s.en_passant);
                                let (initial, quiet, capture) = (s.initial, s.quiet, s.capture);
                                if conditional {
                                    let check = Literal::u8_unsuffixed(match s.in_check {
                                        None => 0,
                                        Some(false) => 1,
                                        Some(true) => 2,
                                    });
                                    quote! { (#to, #block, #initial, #ep, #quiet, #capture, #check) }
                                } else {
                                    quote! { (#to, #block, #initial, #ep, #quiet, #capture) }
                                }
                            }
                            None if conditional => {
                                quote! { (NO_CELL, NO_CELL, false, NO_CELL, false, false, 0) }
                            }
                            None => quote! { (NO_CELL, NO_CELL, false, NO_CELL, false, false) },
                        });
                        quote! { [#(#entries),*] }
                    });
                    quote! { [#(#rows),*] }
                });
                if conditional {
                    let doc = format!(
                        "Steps of the {} that need an empty cell on the way or an unmoved piece: (target, cell that must be empty, unmoved only, en-passant cell, quiet, capturing, 1: only when not in check, 2: only in check).",
                        piece.name
                    );
                    items.push(quote! { #[doc = #doc] static #name: [[[(#cell_ty, #cell_ty, bool, #cell_ty, bool, bool, u8); #w]; CELLS]; #no] = [#(#players),*]; });
                } else {
                    let doc = format!(
                        "Steps of the {} that need an empty cell on the way or an unmoved piece: (target, cell that must be empty, unmoved only, en-passant cell, quiet, capturing).",
                        piece.name
                    );
                    items.push(quote! { #[doc = #doc] static #name: [[[(#cell_ty, #cell_ty, bool, #cell_ty, bool, bool); #w]; CELLS]; #no] = [#(#players),*]; });
                }
            }
            let width = piece
                .players
                .iter()
                .flat_map(|m| m.lame_attacks.iter().map(Vec::len))
                .max()
                .unwrap_or(0);
            if width > 0 {
                let name = format_ident!("LAME_ATTACKS_{}", index);
                let w = Literal::usize_unsuffixed(width);
                let players = piece.players.iter().map(|m| {
                    let rows = m.lame_attacks.iter().map(|row| {
                        let entries = (0..width).map(|i| match row.get(i) {
                            Some(&(from, block)) => {
                                let (from, block) =
                                    (self.cell_lit(Some(from)), self.cell_lit(Some(block)));
                                quote! { (#from, #block) }
                            }
                            None => quote! { (NO_CELL, NO_CELL) },
                        });
                        quote! { [#(#entries),*] }
                    });
                    quote! { [#(#rows),*] }
                });
                let doc = format!("The cells from which the {} captures each cell by a lame leap, with the cell that must be empty.", piece.name);
                items.push(quote! { #[doc = #doc] static #name: [[[(#cell_ty, #cell_ty); #w]; CELLS]; #no] = [#(#players),*]; });
            }
            if piece
                .players
                .iter()
                .any(|m| m.paths.iter().any(|p| !p.is_empty()))
            {
                let players: Vec<Vec<Vec<paths::PathItem>>> = piece
                    .players
                    .iter()
                    .map(|m| {
                        m.paths
                            .iter()
                            .map(|row| {
                                row.iter()
                                    .map(|p| {
                                        let flags = (u8::from(p.quiet) * paths::QUIET)
                                            | (u8::from(p.capture) * paths::CAPTURE);
                                        paths::PathItem::new(p.empty, p.occupied, p.to, flags)
                                    })
                                    .collect()
                            })
                            .collect()
                    })
                    .collect();
                let doc = format!(
                    "Moves of several legs of the {} from each cell, as trees (see `walk_paths`).",
                    piece.name
                );
                items.push(self.path_tables(&format!("PATHS_{index}"), &doc, &players));
            }
            if piece
                .players
                .iter()
                .any(|m| m.path_attacks.iter().any(|p| !p.is_empty()))
            {
                let players: Vec<Vec<Vec<paths::PathItem>>> = piece
                    .players
                    .iter()
                    .map(|m| {
                        m.path_attacks
                            .iter()
                            .map(|row| {
                                row.iter()
                                    .map(|&(from, empty, full)| {
                                        paths::PathItem::new(empty, full, from, paths::CAPTURE)
                                    })
                                    .collect()
                            })
                            .collect()
                    })
                    .collect();
                let doc = format!(
                    "The cells from which the {} captures each cell by a move of several legs, as trees (see `walk_paths`): an occupied target is such a cell.",
                    piece.name
                );
                items.push(self.path_tables(&format!("PATH_ATTACKS_{index}"), &doc, &players));
            }
            if piece.players.iter().any(|m| m.promotion.is_some()) {
                // The promotions of the players, for a generation function they share.
                let (zones, lists): (Vec<_>, Vec<_>) = piece
                    .players
                    .iter()
                    .map(|m| match &m.promotion {
                        Some(p) => {
                            let bits = [p.forced_to, p.forced_from, p.optional_to, p.optional_from]
                                .map(|b| self.bits(b));
                            let choices = p
                                .choices
                                .iter()
                                .map(|&c| Literal::u8_unsuffixed(c as u8 + 1));
                            (quote! { (#(#bits),*) }, quote! { &[#(#choices),*] })
                        }
                        None => (quote! { (#zero, #zero, #zero, #zero) }, quote! { &[] }),
                    })
                    .unzip();
                let (zones_name, lists_name) = (
                    format_ident!("PROMOTION_ZONES_{}", index),
                    format_ident!("PROMOTION_CHOICES_{}", index),
                );
                let doc = format!(
                    "The promotions of the {} for each player: compulsory on (targets, or from), optional on (targets, or from).",
                    piece.name
                );
                items.push(quote! {
                    #[doc = #doc]
                    static #zones_name: [(Bits, Bits, Bits, Bits); #no] = [#(#zones),*];
                    /// The promotion choices (piece type plus one) for each player.
                    static #lists_name: [&[u8]; #no] = [#(#lists),*];
                });
            }
            if piece.players.iter().any(|m| !m.promotion_rules.is_empty()) {
                // Where the rules apply, for a generation function the players share.
                let zones = piece.players.iter().map(|m| {
                    let mut zones = [Bits::ZERO; 4];
                    for rule in &m.promotion_rules {
                        let at = if rule.capturing { 2 } else { 0 };
                        zones[at] |= rule.to;
                        zones[at + 1] |= rule.from;
                    }
                    let zones = zones.map(|b| self.bits(b));
                    quote! { (#(#zones),*) }
                });
                let name = format_ident!("PROMOTION_RULE_ZONES_{}", index);
                let doc = format!(
                    "Where the promotion rules of the {} apply for each player: (targets, or from) of every move, (targets, or from) of captures.",
                    piece.name
                );
                items.push(quote! {
                    #[doc = #doc]
                    static #name: [(Bits, Bits, Bits, Bits); #no] = [#(#zones),*];
                });
            }
            if piece.players.iter().any(|m| !m.promotion_rules.is_empty()) {
                let name = format_ident!("PROMOTIONS_{}", index);
                let players = piece.players.iter().map(|m| {
                    let rules = m.promotion_rules.iter().map(|r| {
                        let (to, from) = (self.bits(r.to), self.bits(r.from));
                        let optional = r.optional;
                        let choices = r.choices.iter().map(|&c| Literal::u8_unsuffixed(c as u8 + 1));
                        let (pair, capturing) = (r.pair, r.capturing);
                        let switch = Literal::u8_unsuffixed(r.switch.map_or(u8::MAX, |s| s as u8));
                        let condition = Literal::u8_unsuffixed(r.condition.map_or(u8::MAX, |s| s as u8));
                        let reserve = if self.promotes_from_reserves() {
                            let row = Literal::u8_unsuffixed(r.reserve.map_or(u8::MAX, |s| s as u8));
                            quote! { , reserve: #row }
                        } else {
                            quote! {}
                        };
                        quote! { PromotionRule { to: #to, from: #from, optional: #optional, choices: &[#(#choices),*], pair: #pair, switch: #switch, condition: #condition, capturing: #capturing #reserve } }
                    });
                    quote! { &[#(#rules),*] }
                });
                let doc = format!("The promotion rules of the {} for each player.", piece.name);
                items.push(
                    quote! { #[doc = #doc] static #name: [&[PromotionRule]; #no] = [#(#players),*]; },
                );
            }
        }
        for (index, castle) in ir.castles.iter().enumerate() {
            if let Some(from) = &castle.from {
                let name = format_ident!("CASTLE_FROM_{}", index);
                let sets = from.iter().map(|&b| self.bits(b));
                items.push(quote! { static #name: [Bits; #no] = [#(#sets),*]; });
            }
            if let Some(fixed) = &castle.fixed {
                for (side, landing) in fixed.iter().enumerate() {
                    let name = format_ident!("CASTLE_LANDS_{}_{}", index, side);
                    let players = landing.lands.iter().map(|row| {
                        let entries = row.iter().map(|entry| match entry {
                            Some((king, partner, crossed)) => {
                                let (king, partner) =
                                    (self.cell_lit(Some(*king)), self.cell_lit(Some(*partner)));
                                let crossed = self.bits(*crossed);
                                quote! { (#king, #partner, #crossed) }
                            }
                            None => quote! { (NO_CELL, NO_CELL, #zero) },
                        });
                        quote! { [#(#entries),*] }
                    });
                    let doc = "Castling with fixed landing cells, per player and cell of the king: the king's landing cell, the partner's, and the cells the king crosses.";
                    items.push(quote! { #[doc = #doc] static #name: [[(#cell_ty, #cell_ty, Bits); CELLS]; #no] = [#(#players),*]; });
                }
                continue;
            }
            for &(direction, _) in &castle.sides {
                let name = format_ident!("LINE_{}", direction);
                if items
                    .iter()
                    .any(|t| t.to_string().contains(&format!("static {name} ")))
                {
                    continue;
                }
                let lines = &ir.directions[direction].lines;
                let width = lines.iter().map(Vec::len).max().unwrap_or(0).max(1);
                let w = Literal::usize_unsuffixed(width);
                let rows = lines.iter().map(|line| {
                    let entries = (0..width).map(|i| self.cell_lit(line.get(i).copied()));
                    quote! { [#(#entries),*] }
                });
                items.push(quote! { static #name: [[#cell_ty; #w]; CELLS] = [#(#rows),*]; });
            }
        }
        for (index, piece) in ir.pieces.iter().enumerate() {
            let name = self.piece(index);
            let value = Literal::usize_unsuffixed(index);
            let doc = format!("The {}.", piece.name);
            items.push(quote! { #[doc = #doc] const #name: usize = #value; });
        }
        let pawns = ir.pieces.iter().map(|p| p.pawn);
        let switches = Literal::usize_unsuffixed(ir.switches.len());
        let promotion_rule = if ir
            .pieces
            .iter()
            .any(|p| p.players.iter().any(|m| !m.promotion_rules.is_empty()))
        {
            let most = ir
                .pieces
                .iter()
                .flat_map(|p| &p.players)
                .map(|m| {
                    m.promotion_rules
                        .iter()
                        .map(|r| r.choices.len())
                        .sum::<usize>()
                })
                .max()
                .unwrap_or(0)
                .max(1);
            let most = Literal::usize_unsuffixed(most);
            let conditions = Literal::usize_unsuffixed(ir.conditions.len());
            let condition_functions = ir.conditions.iter().enumerate().map(|(k, c)| {
                let name = format_ident!("promotion_condition_{}", k);
                let body = self.count_cond(c);
                quote! {
                    /// Whether a condition of promotion rules holds for player `own`, before the move.
                    fn #name(board: &Board, own: usize) -> bool {
                        let _ = own;
                        #body
                    }
                }
            });
            let reserve_field = if self.promotes_from_reserves() {
                quote! {
                    /// The hand row of the reserve it takes the new piece from, or `u8::MAX`.
                    reserve: u8,
                }
            } else {
                quote! {}
            };
            quote! {
                /// The number of promotion conditions on the position.
                const CONDITIONS: usize = #conditions;
                #(#condition_functions)*
                /// One promotion rule of a piece type for one player.
                struct PromotionRule {
                    /// The targets where it applies.
                    to: Bits,
                    /// The start cells from which it applies to every target (`leaving`).
                    from: Bits,
                    /// Whether it may be declined.
                    optional: bool,
                    /// The choices: piece type plus one.
                    choices: &'static [u8],
                    /// Whether a second piece of the chosen type is put on the cell left.
                    pair: bool,
                    /// The option switch it needs, or `u8::MAX`.
                    switch: u8,
                    /// The condition on the position it needs, or `u8::MAX`.
                    condition: u8,
                    /// Whether it applies to captures only.
                    capturing: bool,
                    #reserve_field
                }
                /// The most promotion choices of one piece type for one player.
                const MOST_CHOICES: usize = #most;
            }
        } else {
            quote! {}
        };
        let check_keys = if ir.counts_checks { 2 } else { 0 };
        let stack_keys = if ir.stacking { ir.cells } else { 0 };
        let (turn_keys, turn_items) = self.turn_keys(check_keys + stack_keys);
        items.extend(turn_items);
        let key_count = Literal::usize_unsuffixed(
            (ir.owners * ir.pieces.len() + 4) * ir.cells
                + (ir.players - 1)
                + self.hand_rows() * ir.pieces.len()
                + check_keys
                + stack_keys
                + turn_keys,
        );
        items.push(self.stack_tables());
        if ir.counts_checks {
            items.push(quote! {
                /// The keys of the checks each player has given.
                const CHECK_KEYS: usize = HAND_KEYS + #rows * PIECES;
            });
        }
        if let Some(explosion) = &ir.explosion {
            let table = self.per_cell(&explosion.neighbours);
            items.push(quote! {
                /// The cells one king step around each cell (the reach of an explosion).
                static NEIGHBOURS: [Bits; CELLS] = #table;
            });
        }
        if let Some(hands) = &ir.hands {
            let types = hands
                .hand_type
                .iter()
                .map(|&t| Literal::usize_unsuffixed(t));
            let files = self.per_cell(&hands.files);
            let captures = hands.captures_to_hand;
            let promoted = match hands.promoted_to {
                Some(p) => {
                    let p = Literal::usize_unsuffixed(p);
                    quote! { Some(#p) }
                }
                None => quote! { None },
            };
            items.push(quote! {
                /// The type each piece type takes in hand when captured.
                const HAND_TYPE: [usize; PIECES] = [#(#types),*];
                /// The type a captured promoted piece takes in hand, if promoted pieces are demoted.
                const PROMOTED_TO_HAND: Option<usize> = #promoted;
                /// Whether captured pieces go to the captor's hand.
                const CAPTURES_TO_HAND: bool = #captures;
                /// The cells of each cell's file.
                static FILES: [Bits; CELLS] = #files;
            });
            if hands.opposite_colours.iter().any(|&o| o) {
                let opposite = &hands.opposite_colours;
                let colours = hands.colours.map(|c| self.bits(c));
                let zones = hands.drop_zones.iter().map(|per_player| {
                    let cells = per_player.iter().map(|&b| self.bits(b));
                    quote! { [#(#cells),*] }
                });
                items.push(quote! {
                    /// Per type: `drop_opposite_colours`.
                    const OPPOSITE_COLOURS: [bool; PIECES] = [#(#opposite),*];
                    /// The cells of each colour.
                    const COLOURS: [Bits; 2] = [#(#colours),*];
                    /// Per type and player: the cells it may be dropped on.
                    const DROP_CELLS: [[Bits; 2]; PIECES] = [#(#zones),*];

                    /// `drop_opposite_colours`: the cells where player `us` may drop a piece of type
                    /// `dropped`: not a colour on which one of his pieces of that type stands, if it has
                    /// the rule, and for each other type with the rule that he holds, only cells that
                    /// leave at least as many colours with a free cell for it (none of its pieces on
                    /// that colour, an empty cell of its drop zone) as he holds.
                    fn colour_room(board: &Board, own: Bits, empty: Bits, us: usize, dropped: usize) -> Bits {
                        let mut allowed = ALL;
                        for t in 0..PIECES {
                            if !OPPOSITE_COLOURS[t] {
                                continue;
                            }
                            let mine = board.pieces[t] & own;
                            let taken = [mine & COLOURS[0] != 0, mine & COLOURS[1] != 0];
                            if t == dropped {
                                for k in 0..2 {
                                    if taken[k] {
                                        allowed &= !COLOURS[k];
                                    }
                                }
                                continue;
                            }
                            let held = board.hands[us][t] as usize;
                            if held == 0 {
                                continue;
                            }
                            let zone = DROP_CELLS[t][us];
                            let free = [0, 1].map(|k| (empty & zone & COLOURS[k]).count_ones() as usize);
                            for k in 0..2 {
                                for inside in [true, false] {
                                    let open = (0..2)
                                        .filter(|&j| !taken[j] && free[j] > usize::from(inside && j == k))
                                        .count();
                                    if open < held {
                                        allowed &= !(COLOURS[k] & if inside { zone } else { !zone });
                                    }
                                }
                            }
                        }
                        allowed
                    }
                });
            }
        }
        let side_keys = Literal::usize_unsuffixed(ir.players - 1);
        let empty_doc = format!(
            " The code of an empty cell in the mailbox (a piece is `1 + {} * type + owner`).",
            ir.owners
        );
        let wide_use = if self.big() {
            quote! { use vdl_runtime::compact::{CellField, Wide}; }
        } else if words > 0 {
            quote! { use vdl_runtime::compact::Wide; }
        } else {
            quote! {}
        };
        quote! {
            #wide_use
            /// A bitboard: bit `i` stands for cell `i`.
            pub type Bits = #bits_type;
            /// The number of cells.
            const CELLS: usize = #cells;
            /// The number of piece types.
            const PIECES: usize = #pieces;
            /// Every cell.
            const ALL: Bits = #all;
            #[doc = #empty_doc]
            const EMPTY: u8 = 0;
            /// The marker for "no cell".
            #no_cell
            /// Whether each piece type's moves reset the move-rule counter.
            const RESETS_COUNTER: [bool; PIECES] = [#(#pawns),*];
            const KEY_COUNT: usize = #key_count;
            /// Zobrist keys: pieces by code and cell, then unmoved, promoted and en-passant cells, then the side.
            static KEYS: [u64; KEY_COUNT] = vdl_runtime::compact::keys::<KEY_COUNT>(0x7664_6c00);
            const VIRGIN_KEYS: usize = (#no * PIECES + 1) * CELLS;
            const PROMOTED_KEYS: usize = (#no * PIECES + 2) * CELLS;
            const EN_PASSANT_KEYS: usize = (#no * PIECES + 3) * CELLS;
            const SIDE_KEY: usize = (#no * PIECES + 4) * CELLS;
            const HAND_KEYS: usize = SIDE_KEY + #side_keys;
            /// The number of option switches of promotion rules.
            const SWITCHES: usize = #switches;

            #promotion_rule

            #(#items)*
        }
    }

    fn board(&self) -> TokenStream {
        let rows = self.rows();
        let cell_ty = self.cell_ty();
        let (checks_field, checks_hash, checks_key) = if self.ir.counts_checks {
            (
                quote! {
                    /// The checks each player has given.
                    checks: [u32; 2],
                },
                quote! {
                    hash ^= check_key(0, self.checks[0]) ^ check_key(1, self.checks[1]);
                },
                quote! {
                    /// The key of the number of checks a player has given.
                    fn check_key(player: usize, count: u32) -> u64 {
                        KEYS[CHECK_KEYS + player].wrapping_mul(count as u64)
                    }
                },
            )
        } else {
            (quote! {}, quote! {}, quote! {})
        };
        let facing_field = if self.ir.facing_break {
            quote! {
                /// Whether the royal pieces face each other (`facing must_break`): every move but a
                /// pass must end it.
                facing: bool,
            }
        } else {
            quote! {}
        };
        let count_field = if self.ir.counting.is_some() {
            quote! {
                /// The counting rule's count while it runs: where it began, plies since, the limit
                /// (not part of the hash, as in the interpreter).
                count: Option<[u16; 3]>,
            }
        } else {
            quote! {}
        };
        let passes_field = if self.ir.pass != Pass::Never {
            quote! {
                /// The passes made in a row up to this position (not part of the hash).
                passes: u32,
            }
        } else {
            quote! {}
        };
        let (stack_fields, _, stack_hash, stack_methods) = self.stack_board();
        let rules_field = if self.ir.rule_switches.is_empty() {
            quote! {}
        } else {
            let n = Literal::usize_unsuffixed(self.ir.rule_switches.len());
            quote! {
                /// The option switches of the rules on captures, copied from the engine that made
                /// the position (not part of the hash).
                rules_on: [bool; #n],
            }
        };
        let (turn_fields, turn_hash, turn_items) = self.turn_board();
        let waiting = self.waiting_board();
        let (waiting_field, waiting_hash, waiting_keys) =
            (waiting.field, waiting.hash, waiting.keys);
        let thaw_removed = self.thaw_removed();
        let np = self.np();
        let no = self.no();
        let (rights_field, rights_hash, right_key) = if self.ir.en_passant_lasts {
            let slots = Literal::usize_unsuffixed(self.right_slots());
            (
                quote! {
                    /// Per player, `RIGHT_SLOTS` en-passant rights, each until his next turn:
                    /// (target, victim), oldest first.
                    rights: [(#cell_ty, #cell_ty); #np * #slots],
                },
                quote! {
                    for (slot, &(target, _)) in self.rights.iter().enumerate() {
                        if target != NO_CELL {
                            hash ^= right_key(slot / RIGHT_SLOTS, target);
                        }
                    }
                },
                quote! {
                    /// The en-passant rights a player may hold at once: one per single move of a turn.
                    const RIGHT_SLOTS: usize = #slots;

                    /// The key of a player's en-passant right to `target`.
                    fn right_key(player: usize, target: #cell_ty) -> u64 {
                        KEYS[EN_PASSANT_KEYS + target as usize].rotate_left(8 * player as u32 + 1)
                    }
                },
            )
        } else {
            (quote! {}, quote! {}, quote! {})
        };
        let (elimination_field, elimination_hash) = if self.ir.elimination.is_some() {
            (
                quote! {
                    /// The eliminated players (one bit each); per player, how many were in the game
                    /// when he dropped out, and who checkmated him (plus one).
                    eliminated: u32,
                    dropped_among: [u8; #np],
                    mated_by: [u8; #np],
                },
                quote! {
                    let mut state = self.eliminated as u64;
                    for player in 0..#np {
                        state = (state << 16) ^ ((self.dropped_among[player] as u64) << 8) ^ self.mated_by[player] as u64;
                        hash ^= KEYS[SIDE_KEY].rotate_left(player as u32 + 7).wrapping_mul(state | 1);
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let (side_hash, side_key) = if self.many() {
            (
                quote! { side_key(self.side) },
                quote! {
                    /// The key of the side to move (none for the first player).
                    fn side_key(side: u8) -> u64 {
                        if side == 0 { 0 } else { KEYS[SIDE_KEY + side as usize - 1] }
                    }
                },
            )
        } else {
            (
                quote! { if self.side == 1 { KEYS[SIDE_KEY] } else { 0 } },
                quote! {},
            )
        };
        let matters = self.ir.virgin_matters.iter().map(|&t| self.piece(t));
        let identity = if self.ir.virgin_matters.is_empty() {
            self.zero()
        } else {
            quote! { self.virgin & (#(self.pieces[#matters])|*) }
        };
        let bit_function = if self.words() > 0 {
            quote! {
                #[inline]
                fn bit(cell: usize) -> Bits {
                    Bits::bit(cell)
                }
            }
        } else {
            quote! {
                #[inline]
                fn bit(cell: usize) -> Bits {
                    (1 as Bits) << cell
                }
            }
        };
        quote! {
            /// A position in the compact form: bitboards by piece type and by owner, and a mailbox.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Board {
                pieces: [Bits; PIECES],
                colors: [Bits; #no],
                virgin: Bits,
                promoted: Bits,
                cells: [u8; CELLS],
                hands: [[u8; PIECES]; #rows],
                #rights_field
                #elimination_field
                last: Option<CompactMove>,
                side: u8,
                en_passant: #cell_ty,
                victim: #cell_ty,
                halfmove: u32,
                fullmove: u32,
                hash: u64,
                #checks_field
                #count_field
                #passes_field
                #stack_fields
                #turn_fields
                #waiting_field
                #rules_field
            }

            #stack_methods

            /// What move generation knows about the side to move.
            struct Context {
                occupied: Bits,
                own: Bits,
                enemy: Bits,
                empty: Bits,
                royals: Bits,
                check_every: bool,
                pinned: Bits,
                risky: Bits,
                #facing_field
            }

            #bit_function

            impl Board {
                fn place(&mut self, cell: usize, code: u8) {
                    let piece = (code as usize - 1) / #no;
                    let owner = (code as usize - 1) % #no;
                    self.pieces[piece] ^= bit(cell);
                    self.colors[owner] ^= bit(cell);
                    self.cells[cell] = code;
                    self.hash ^= KEYS[code as usize * CELLS + cell];
                }

                fn remove(&mut self, cell: usize) {
                    let code = self.cells[cell];
                    let piece = (code as usize - 1) / #no;
                    let owner = (code as usize - 1) % #no;
                    self.pieces[piece] ^= bit(cell);
                    self.colors[owner] ^= bit(cell);
                    self.cells[cell] = EMPTY;
                    self.hash ^= KEYS[code as usize * CELLS + cell];
                    #thaw_removed
                }

                fn computed_hash(&self) -> u64 {
                    let mut hash = #side_hash;
                    for cell in 0..CELLS {
                        let code = self.cells[cell];
                        if code != EMPTY {
                            hash ^= KEYS[code as usize * CELLS + cell];
                        }
                    }
                    hash ^= flag_keys(self.identity_virgin(), VIRGIN_KEYS) ^ flag_keys(self.promoted, PROMOTED_KEYS);
                    if self.en_passant != NO_CELL {
                        hash ^= KEYS[EN_PASSANT_KEYS + self.en_passant as usize];
                    }
                    #rights_hash
                    #elimination_hash
                    for player in 0..#rows {
                        for piece in 0..PIECES {
                            hash ^= hand_key(player, piece, self.hands[player][piece]);
                        }
                    }
                    #checks_hash
                    #stack_hash
                    #turn_hash
                    #waiting_hash
                    hash
                }

                /// The unmoved cells that belong to the position's identity: those of the types whose
                /// unmoved flag matters (initial moves, castling, `virgin_in`).
                #[inline]
                fn identity_virgin(&self) -> Bits {
                    #identity
                }

                /// Changes the count of a piece type in a player's hand.
                fn add_to_hand(&mut self, player: usize, piece: usize, delta: i32) {
                    let old = self.hands[player][piece];
                    let new = (old as i32 + delta).clamp(0, 255) as u8;
                    self.hash ^= hand_key(player, piece, old) ^ hand_key(player, piece, new);
                    self.hands[player][piece] = new;
                }
            }

            #checks_key
            #side_key
            #right_key
            #turn_items
            #waiting_keys

            /// The key of a hand count.
            fn hand_key(player: usize, piece: usize, count: u8) -> u64 {
                KEYS[HAND_KEYS + player * PIECES + piece].wrapping_mul(count as u64)
            }

            /// The keys of flagged cells.
            fn flag_keys(mut cells: Bits, base: usize) -> u64 {
                let mut key = 0;
                while cells != 0 {
                    key ^= KEYS[base + cells.trailing_zeros() as usize];
                    cells &= cells - 1;
                }
                key
            }
        }
    }

    /// The directions scanned from a cell to find `by`'s sliding attackers, with their piece types.
    /// Facing royal pieces count as sliding along their file.
    fn slider_scans(&self, by: usize) -> Vec<(usize, Vec<usize>)> {
        let mut scans = self.scans(by, |m| &m.capture_slides);
        if let (true, Some(royal)) = (self.ir.facing, self.ir.royal) {
            for v in [[0, 1, 0], [0, -1, 0]] {
                let d = self
                    .ir
                    .directions
                    .iter()
                    .position(|x| x.vector == v && x.within.is_none())
                    .expect("lowering adds the file directions");
                match scans.iter_mut().find(|(s, _)| *s == d) {
                    Some((_, types)) => types.push(royal),
                    None => scans.push((d, vec![royal])),
                }
            }
        }
        scans
    }

    /// The directions scanned from a cell to find `by`'s hopping attackers, with their piece types,
    /// and whether those hoppers may not hop the unhoppable types (`cannot_hop`).
    fn hop_scans(&self, by: usize) -> Vec<(usize, Vec<usize>, bool)> {
        let mut scans: Vec<(usize, Vec<usize>, bool)> = Vec::new();
        for limited in [false, true] {
            let of = self.scans_of(by, |m| &m.capture_hops, |p| p.cannot_hop == limited);
            scans.extend(of.into_iter().map(|(d, codes)| (d, codes, limited)));
        }
        scans
    }

    /// The direction opposite to direction `d`, within the same zone.
    fn back(&self, d: usize) -> usize {
        let (v, within) = (self.ir.directions[d].vector, self.ir.directions[d].within);
        self.ir
            .directions
            .iter()
            .position(|x| x.vector == [-v[0], -v[1], -v[2]] && x.within == within)
            .expect("lowering adds reverse directions")
    }

    /// The directions scanned from a cell to find `by`'s hopping attackers under a condition.
    fn conditional_hop_scans(&self, by: usize) -> Vec<usize> {
        let mut scans: Vec<usize> = self
            .ir
            .pieces
            .iter()
            .flat_map(|p| &p.players[by].conditional)
            .flat_map(|b| &b.capture_hops)
            .map(|&d| self.back(d))
            .collect();
        scans.sort_unstable();
        scans.dedup();
        scans
    }

    fn scans(
        &self,
        by: usize,
        lines: impl Fn(&FastMoves) -> &Vec<usize>,
    ) -> Vec<(usize, Vec<usize>)> {
        self.scans_of(by, lines, |_| true)
    }

    /// The directions scanned for the attackers among the piece types `filter` selects.
    fn scans_of(
        &self,
        by: usize,
        lines: impl Fn(&FastMoves) -> &Vec<usize>,
        filter: impl Fn(&FastPiece) -> bool,
    ) -> Vec<(usize, Vec<usize>)> {
        let mut scans: Vec<(usize, Vec<usize>)> = Vec::new();
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            if !filter(piece) {
                continue;
            }
            for &d in lines(&piece.players[by]) {
                let back = self.back(d);
                match scans.iter_mut().find(|(s, _)| *s == back) {
                    Some((_, types)) => types.push(index),
                    None => scans.push((back, vec![index])),
                }
            }
        }
        scans
    }

    /// The codes of the pieces of `types` owned by `by_index`, matched against `code`: literal
    /// codes, or with `symbolic`, codes less the owner `by` (a variable), alike for every owner.
    fn owned_codes(
        &self,
        types: &[usize],
        by_index: usize,
        symbolic: bool,
        code: TokenStream,
    ) -> TokenStream {
        if symbolic {
            let codes = types.iter().map(|&t| self.code(t, 0));
            quote! { matches!((#code as usize).wrapping_sub(by), #(#codes)|*) }
        } else {
            let codes = types.iter().map(|&t| self.code(t, by_index));
            quote! { matches!(#code, #(#codes)|*) }
        }
    }

    /// The tests of whether `by_index`'s pieces in `them` attack `cell`, each returning `true`
    /// when one does, and the scans of his sliders that pin a piece of `own` to the royal piece on
    /// `king`. With `symbolic`, the player is the variable `by`: the tokens are then the same for
    /// players whose tables and pieces are alike.
    fn attack_checks(
        &self,
        by_index: usize,
        symbolic: bool,
    ) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let by = if symbolic {
            quote!(by)
        } else {
            let by = Literal::usize_unsuffixed(by_index);
            quote!(#by)
        };
        let mut checks = Vec::new();
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            if piece.players[by_index]
                .attacked_from
                .iter()
                .any(|&b| b != 0)
            {
                let table = format_ident!("ATTACKED_FROM_{}", index);
                let piece_index = self.piece(index);
                checks.push(quote! {
                    if #table[#by][cell] & board.pieces[#piece_index] & them != 0 {
                        return true;
                    }
                });
            }
            if piece.players[by_index]
                .initial_attacked_from
                .iter()
                .any(|&b| b != 0)
            {
                let table = format_ident!("INITIAL_ATTACKED_FROM_{}", index);
                let piece_index = self.piece(index);
                checks.push(quote! {
                    if #table[#by][cell] & board.pieces[#piece_index] & them & board.virgin != 0 {
                        return true;
                    }
                });
            }
        }
        // Capturing leaps under a condition attack while it holds for `by` (it reads what the
        // other player's moves leave alone).
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            for (k, block) in piece.players[by_index].conditional.iter().enumerate() {
                if block.attacked_from.iter().all(|&b| b == 0) {
                    continue;
                }
                let table = format_ident!("COND_ATTACKED_FROM_{}_{}", index, k);
                let piece_index = self.piece(index);
                let condition = self.move_cond(&block.condition);
                checks.push(quote! {
                    if #table[#by][cell] & board.pieces[#piece_index] & them != 0 && {
                        let own: usize = #by;
                        let _ = own;
                        #condition
                    } {
                        return true;
                    }
                });
            }
        }
        // Capturing hops under a condition attack over a screen while it holds for `by`, the
        // screen being the hurdle.
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            for block in &piece.players[by_index].conditional {
                for &d in &block.capture_hops {
                    let back = self.back(d);
                    let ray = Self::ray(back);
                    let screen = self.first(back, quote!(blockers));
                    let at = self.first(back, quote!(beyond));
                    let piece_index = self.piece(index);
                    let condition = self.move_cond(&block.condition);
                    let hoppable = if piece.cannot_hop {
                        quote! { && unhoppable(board) & bit(#screen) == 0 }
                    } else {
                        quote! {}
                    };
                    checks.push(quote! {{
                        let blockers = #ray[cell] & occupied;
                        if #ray[cell] & board.pieces[#piece_index] & them != 0 && blockers != 0 #hoppable {
                            let hurdle = #screen;
                            let beyond = #ray[hurdle] & occupied;
                            if beyond != 0 {
                                let at = #at;
                                if board.pieces[#piece_index] & them & bit(at) != 0 && {
                                    let own: usize = #by;
                                    let _ = (own, hurdle);
                                    #condition
                                } {
                                    return true;
                                }
                            }
                        }
                    }});
                }
            }
        }
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            if piece.players[by_index]
                .lame_attacks
                .iter()
                .all(Vec::is_empty)
            {
                continue;
            }
            let table = format_ident!("LAME_ATTACKS_{}", index);
            let piece_index = self.piece(index);
            checks.push(quote! {
                for &(from, block) in #table[#by][cell].iter() {
                    if from == NO_CELL {
                        break;
                    }
                    if board.pieces[#piece_index] & them & bit(from as usize) != 0 && occupied & bit(block as usize) == 0 {
                        return true;
                    }
                }
            });
        }
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            if piece.players[by_index]
                .path_attacks
                .iter()
                .all(Vec::is_empty)
            {
                continue;
            }
            let entries =
                self.path_entries(&format!("PATH_ATTACKS_{index}"), by.clone(), quote!(cell));
            let piece_index = self.piece(index);
            checks.push(quote! {
                if board.pieces[#piece_index] & them != 0 {
                    let (_, from) = walk_paths(#entries, occupied);
                    if board.pieces[#piece_index] & them & from != 0 {
                        return true;
                    }
                }
            });
        }
        for (direction, types, limited) in &self.hop_scans(by_index) {
            let ray = Self::ray(*direction);
            let owned = self.owned_codes(types, by_index, symbolic, quote!(board.cells[at]));
            let hoppers = self.pieces_of(types);
            let screen = self.first(*direction, quote!(blockers));
            let at = self.first(*direction, quote!(beyond));
            // Hoppers with `cannot_hop` do not attack over an unhoppable screen.
            let hoppable = if *limited {
                quote! { && unhoppable(board) & bit(#screen) == 0 }
            } else {
                quote! {}
            };
            // Only a line with a hopper on it is scanned.
            checks.push(quote! {{
                let blockers = #ray[cell] & occupied;
                if #ray[cell] & (#hoppers) & them != 0 && blockers != 0 #hoppable {
                    let beyond = #ray[#screen] & occupied;
                    if beyond != 0 {
                        let at = #at;
                        if them & bit(at) != 0 && #owned {
                            return true;
                        }
                    }
                }
            }});
        }
        let scans = self.slider_scans(by_index);
        for (direction, types) in &scans {
            let ray = Self::ray(*direction);
            let first = self.first(*direction, quote!(blockers));
            let owned = self.owned_codes(types, by_index, symbolic, quote!(board.cells[at]));
            let sliders = self.pieces_of(types);
            // Only a line with a slider on it is scanned.
            checks.push(quote! {{
                let blockers = #ray[cell] & occupied;
                if #ray[cell] & (#sliders) & them != 0 && blockers != 0 {
                    let at = #first;
                    if them & bit(at) != 0 && #owned {
                        return true;
                    }
                }
            }});
        }
        // Pins by `by`'s sliders.
        let mut scans_tokens = Vec::new();
        for (direction, types) in &scans {
            let ray = Self::ray(*direction);
            let first = self.first(*direction, quote!(blockers));
            let second = self.first(*direction, quote!(beyond));
            let owned = self.owned_codes(types, by_index, symbolic, quote!(board.cells[pinner]));
            scans_tokens.push(quote! {{
                let blockers = #ray[king] & occupied;
                if blockers != 0 {
                    let at = #first;
                    if own & bit(at) != 0 {
                        let beyond = #ray[at] & occupied;
                        if beyond != 0 {
                            let pinner = #second;
                            if #owned {
                                pinned |= bit(at);
                            }
                        }
                    }
                }
            }});
        }
        (checks, scans_tokens)
    }

    fn attacks(&self) -> TokenStream {
        let zero = self.zero();
        let players = self.ir.players;
        let checks: Vec<_> = (0..players)
            .map(|by| self.attack_checks(by, false))
            .collect();
        let symbolic: Vec<_> = (0..players)
            .map(|by| self.attack_checks(by, true))
            .collect();
        let players_lit = Literal::usize_unsuffixed(players);
        let same = |part: fn(&AttackTokens) -> &Vec<TokenStream>| {
            let text = |s| {
                let tokens = part(s);
                quote! { #(#tokens)* }.to_string()
            };
            let first = text(&symbolic[0]);
            symbolic.iter().all(|s| text(s) == first)
        };
        // One test for every player when their tokens are alike, with the player a variable.
        let attacked_by = if same(|s| &s.0) {
            let tests = &symbolic[0].0;
            quote! { #(#tests)* false }
        } else {
            let arms = checks.iter().enumerate().map(|(by, (tests, _))| {
                let by = Literal::usize_unsuffixed(by);
                quote! { #by => { #(#tests)* false } }
            });
            quote! {
                match by {
                    #(#arms)*
                    _ => false,
                }
            }
        };
        // Pins of a player's pieces by his enemies' sliders.
        let pin_functions = if symbolic.iter().all(|s| s.1.is_empty()) {
            quote! {
                /// The pieces of player `us` pinned to the royal piece on `king` by his enemies
                /// (no piece of this game pins).
                fn pinned(board: &Board, us: usize, king: usize, occupied: Bits, own: Bits) -> Bits {
                    #zero
                }
            }
        } else if same(|s| &s.1) {
            let scans = &symbolic[0].1;
            quote! {
                /// The pieces of player `us` pinned to the royal piece on `king` by his enemies.
                fn pinned(board: &Board, us: usize, king: usize, occupied: Bits, own: Bits) -> Bits {
                    let mut pinned = #zero;
                    for by in 0..#players_lit {
                        if by != us {
                            #(#scans)*
                        }
                    }
                    pinned
                }
            }
        } else {
            let arms = (0..players).map(|pinned_player| {
                let scans = (0..players)
                    .filter(|&by| by != pinned_player)
                    .flat_map(|by| checks[by].1.iter());
                let pinned_player = Literal::usize_unsuffixed(pinned_player);
                quote! { #pinned_player => { #(#scans)* } }
            });
            quote! {
                /// The pieces of player `us` pinned to the royal piece on `king` by his enemies.
                fn pinned(board: &Board, us: usize, king: usize, occupied: Bits, own: Bits) -> Bits {
                    let mut pinned = #zero;
                    match us {
                        #(#arms)*
                        _ => {}
                    }
                    pinned
                }
            }
        };
        // With more than two players, `by` = PLAYERS + p stands for every enemy of player p: each
        // one's attacks are tested with his own pieces among `them`.
        let combined = if self.many() {
            quote! {
                if by >= #players_lit {
                    let us = by - #players_lit;
                    return (0..#players_lit).any(|by| by != us && attacked_by(board, cell, by, occupied, them & board.colors[by]));
                }
            }
        } else {
            quote! {}
        };
        let safe = if self.ir.royal_all {
            quote! {
                /// Tells whether the `royals` are safe from `by` (`royal_safety all`): some of them is
                /// not attacked, or there is none.
                fn safe(board: &Board, mut royals: Bits, by: usize, occupied: Bits, them: Bits) -> bool {
                    if royals == 0 {
                        return true;
                    }
                    while royals != 0 {
                        if !attacked(board, royals.trailing_zeros() as usize, by, occupied, them) {
                            return true;
                        }
                        royals &= royals - 1;
                    }
                    false
                }
            }
        } else {
            quote! {
                /// Tells whether none of the `royals` is attacked by `by`.
                fn safe(board: &Board, mut royals: Bits, by: usize, occupied: Bits, them: Bits) -> bool {
                    while royals != 0 {
                        if attacked(board, royals.trailing_zeros() as usize, by, occupied, them) {
                            return false;
                        }
                        royals &= royals - 1;
                    }
                    true
                }
            }
        };
        let spared = match &self.ir.explosion {
            Some(explosion) => {
                let immune = explosion.immune.iter().map(|&t| self.piece(t));
                quote! {
                    /// The pieces an explosion leaves standing around its centre (`except`).
                    #[inline]
                    fn spared(board: &Board) -> Bits {
                        #zero #(| board.pieces[#immune])*
                    }
                }
            }
            None => quote! {},
        };
        let survives = match (&self.ir.explosion, self.ir.royal) {
            (Some(_), Some(r)) => {
                let r = self.piece(r);
                quote! {
                    /// After a move, in a game whose captures explode: whether the `royals` of the
                    /// player who moved are safe from `by`, with `occupied` standing and `them` being
                    /// `by`'s pieces. He must keep one; when `by` has none left he is safe, otherwise
                    /// no capture by `by` may blow up all of his while one of `by`'s survives (the
                    /// capturing piece and its neighbours go, so royal pieces that touch cannot take
                    /// each other).
                    fn survives(board: &Board, royals: Bits, by: usize, occupied: Bits, them: Bits) -> bool {
                        if royals == 0 {
                            return false;
                        }
                        let enemy_royals = board.pieces[#r] & them;
                        let mut targets = royals;
                        while targets != 0 {
                            let cell = targets.trailing_zeros() as usize;
                            targets &= targets - 1;
                            let blast = bit(cell) | NEIGHBOURS[cell];
                            let left = enemy_royals & !blast;
                            if royals & !blast != 0 || left == 0 {
                                continue;
                            }
                            // With one enemy royal piece left, it may not be the capturing piece.
                            let attackers = if left & (left - 1) == 0 { them & !left } else { them };
                            if attacked(board, cell, by, occupied, attackers) {
                                return false;
                            }
                        }
                        true
                    }
                }
            }
            _ => quote! {},
        };
        let unhoppable = if self.ir.unhoppable.is_empty() {
            quote! {}
        } else {
            let types = self.ir.unhoppable.iter().map(|&t| self.piece(t));
            quote! {
                /// The cells of the pieces that hoppers with `cannot_hop` may not hop.
                #[inline]
                fn unhoppable(board: &Board) -> Bits {
                    #zero #(| board.pieces[#types])*
                }
            }
        };
        let facing = if self.ir.facing_break {
            let dir = |v: [i32; 3]| {
                self.ir
                    .directions
                    .iter()
                    .position(|x| x.vector == v && x.within.is_none())
                    .expect("lowering adds the file directions")
            };
            let (up, down) = (dir([0, 1, 0]), dir([0, -1, 0]));
            let (up_ray, down_ray) = (Self::ray(up), Self::ray(down));
            let (up_first, down_first) = (
                self.first(up, quote!(blockers)),
                self.first(down, quote!(blockers)),
            );
            quote! {
                /// Whether a royal piece in `own` and one in `enemy` face each other on a file with
                /// only empty cells between (`facing must_break`).
                fn royals_facing(occupied: Bits, own: Bits, enemy: Bits) -> bool {
                    let mut royals = own;
                    while royals != 0 {
                        let cell = royals.trailing_zeros() as usize;
                        royals &= royals - 1;
                        let blockers = #up_ray[cell] & occupied;
                        if blockers != 0 && enemy & bit(#up_first) != 0 {
                            return true;
                        }
                        let blockers = #down_ray[cell] & occupied;
                        if blockers != 0 && enemy & bit(#down_first) != 0 {
                            return true;
                        }
                    }
                    false
                }
            }
        } else {
            quote! {}
        };
        let others_facing = match (self.many() && self.ir.facing, self.ir.royal) {
            (true, Some(r)) => {
                let r = self.piece(r);
                let up = self
                    .ir
                    .directions
                    .iter()
                    .position(|x| x.vector == [0, 1, 0] && x.within.is_none())
                    .expect("lowering adds the file directions");
                let ray = Self::ray(up);
                let first = self.first(up, quote!(blockers));
                let second = self.first(up, quote!(beyond));
                let no = self.no();
                quote! {
                    /// The owner of the piece on `cell`.
                    #[inline]
                    fn owner_at(board: &Board, cell: usize) -> usize {
                        (board.cells[cell] as usize - 1) % #no
                    }

                    /// Along the files, with `occupied` standing, between the royal pieces in `others`:
                    /// whether two of different players face each other, and the pieces that alone
                    /// stand between two of them.
                    fn facing_scan(board: &Board, occupied: Bits, others: Bits) -> (bool, Bits) {
                        let mut royals = others;
                        let mut between: Bits = #zero;
                        while royals != 0 {
                            let cell = royals.trailing_zeros() as usize;
                            royals &= royals - 1;
                            let blockers = #ray[cell] & occupied;
                            if blockers == 0 {
                                continue;
                            }
                            let at = #first;
                            if others & bit(at) != 0 && owner_at(board, at) != owner_at(board, cell) {
                                return (true, between);
                            }
                            let beyond = #ray[at] & occupied;
                            if beyond != 0 {
                                let far = #second;
                                if others & bit(far) != 0 && owner_at(board, far) != owner_at(board, cell) {
                                    between |= bit(at);
                                }
                            }
                        }
                        (false, between)
                    }

                    /// Whether two royal pieces of players other than the owner of `own` (those on
                    /// `gone` taken) face each other on a file, with `occupied` standing.
                    fn others_facing(board: &Board, occupied: Bits, own: Bits, gone: Bits) -> bool {
                        facing_scan(board, occupied, board.pieces[#r] & !own & !gone).0
                    }

                    /// The pieces that alone stand between two royal pieces of players other than the
                    /// owner of `own` on a file.
                    fn openings(board: &Board, occupied: Bits, own: Bits) -> Bits {
                        facing_scan(board, occupied, board.pieces[#r] & !own).1
                    }
                }
            }
            _ => quote! {},
        };
        quote! {
            #unhoppable
            #facing
            #others_facing

            /// Tells whether `by` attacks `cell`, with `occupied` blocking and only `by`'s pieces in `them`
            /// attacking (with more than two players, `PLAYERS + p` stands for every enemy of `p`).
            #[inline]
            fn attacked(board: &Board, cell: usize, by: usize, occupied: Bits, them: Bits) -> bool {
                #combined
                attacked_by(board, cell, by, occupied, them)
            }

            /// Tells whether player `by` attacks `cell`, with `occupied` blocking and only his pieces
            /// in `them` attacking.
            fn attacked_by(board: &Board, cell: usize, by: usize, occupied: Bits, them: Bits) -> bool {
                #attacked_by
            }

            #safe
            #spared
            #survives

            #pin_functions
        }
    }

    fn generation(&self) -> TokenStream {
        let no = self.no();
        let push_en_passant = self.move_code("push_en_passant");
        let normal = self.normal();
        let zero = self.zero();
        let ir = self.ir;
        // Under `must_capture` each generation function also lists captures only (`CAPTURES`): no
        // cell counts as empty for a target, and castling is left out.
        let mc = ir.must_capture;
        let mut functions = Vec::new();
        let (movable_init, movable) = self.movable();
        // One generation function per player, or one shared by the players (the player a const
        // generic) when their bodies are alike with the player a variable.
        let player_fn = |us_index: usize| -> (TokenStream, TokenStream) {
            // The enemy: with more than two players, `PLAYERS + us` stands for all of them (see
            // `attacked`).
            let enemies: Vec<usize> = (0..ir.players).filter(|&p| p != us_index).collect();
            let (us, them) = (self.player_lit(us_index), self.enemy_lit(us_index));
            let royals = match self.royal_bits(quote!(board)) {
                Some(r) => self.royal_gate(quote! { #r & own }, quote!(board), us.clone()),
                None => self.zero(),
            };
            let mut pieces = Vec::new();
            for index in 0..ir.pieces.len() {
                let piece_index = self.piece(index);
                let movers = quote! { board.pieces[#piece_index] & #movable };
                pieces.extend(self.piece_block(index, us_index, movers));
            }
            pieces.extend(self.borrowed_blocks(us_index));
            pieces.extend(self.transfer_blocks(us_index));
            pieces.extend(self.stacking_moves(us_index));
            pieces.extend(self.merge_moves(us_index));
            // `promote_move`: promotions as moves of their own, each tested by playing it.
            for (index, piece) in ir.pieces.iter().enumerate() {
                let piece_index = self.piece(index);
                for (k, rule) in piece.promotion_moves.iter().enumerate() {
                    let condition = match &rule.condition {
                        Some(c) => {
                            let c = self.count_cond(c);
                            quote! {{ let own = #us; let _ = own; #c }}
                        }
                        None => quote! { true },
                    };
                    let in_place = if rule.in_place {
                        quote! { bit(from) }
                    } else {
                        self.zero()
                    };
                    let steps = if rule.steps.iter().flatten().any(|&b| b != 0) {
                        let table = format_ident!("PROMOTION_STEPS_{}_{}", index, k);
                        quote! { | (#table[#us][from] & cx.empty) }
                    } else {
                        quote! {}
                    };
                    let choices = rule
                        .choices
                        .iter()
                        .map(|&c| Literal::u8_unsuffixed(c as u8 + 1));
                    let peaceful = rule.peaceful;
                    // A peaceful promotion is a kind of its own (the interpreter's `peaceful` move).
                    let kind = if peaceful {
                        quote! { CompactKind::Promote }
                    } else {
                        quote! { CompactKind::Normal }
                    };
                    pieces.push(quote! {{
                        let mut movers = board.pieces[#piece_index] & #movable;
                        while movers != 0 {
                            let from = movers.trailing_zeros() as usize;
                            movers &= movers - 1;
                            if !#condition {
                                continue;
                            }
                            let mut targets: Bits = #in_place #steps;
                            while targets != 0 {
                                let to = targets.trailing_zeros() as usize;
                                targets &= targets - 1;
                                for &choice in &[#(#choices),*] {
                                    let mv = CompactMove { kind: #kind, ..#normal(from, to, choice) };
                                    if promotion_move_legal(board, mv, #peaceful) {
                                        count += 1;
                                        if LIST {
                                            out.push(mv);
                                        }
                                    }
                                }
                            }
                        }
                    }});
                }
            }
            let mut en_passant = Vec::new();
            for (index, piece) in ir.pieces.iter().enumerate() {
                if piece.players[us_index].en_passant_from.is_none() {
                    continue;
                }
                let table = format_ident!("EN_PASSANT_FROM_{}", index);
                let piece_index = self.piece(index);
                en_passant.push(quote! {
                    let mut movers = #table[#us][target] & board.pieces[#piece_index] & own;
                    while movers != 0 {
                        let from = movers.trailing_zeros() as usize;
                        movers &= movers - 1;
                        if legal_after(board, &cx, them, from, target, bit(victim)) {
                            count += 1;
                            if LIST {
                                #push_en_passant
                            }
                        }
                    }
                });
            }
            let en_passant = if en_passant.is_empty() {
                quote! {}
            } else if ir.en_passant_lasts {
                // One right per player, each until his next turn: those of the enemies.
                quote! {
                    for (slot, &(target, victim)) in board.rights.iter().enumerate() {
                        if slot / RIGHT_SLOTS == #us || target == NO_CELL {
                            continue;
                        }
                        let (target, victim) = (target as usize, victim as usize);
                        if cx.occupied & bit(target) == 0 && cx.enemy & bit(victim) != 0 {
                            #(#en_passant)*
                        }
                    }
                }
            } else {
                quote! {
                    if board.en_passant != NO_CELL {
                        let target = board.en_passant as usize;
                        let victim = board.victim as usize;
                        if cx.occupied & bit(target) == 0 && cx.enemy & bit(victim) != 0 {
                            #(#en_passant)*
                        }
                    }
                }
            };
            let castling = self.castling(us_index);
            let castling = if mc && !ir.castles.is_empty() {
                quote! {
                    if !CAPTURES {
                        #castling
                    }
                }
            } else {
                castling
            };
            let drops = self.drops(us_index);
            let pick_ups = self.pick_ups(us_index);
            // A pass: legal when it leaves the royal pieces safe (or ends no facing under `facing
            // must_break`), written with the first royal
            // piece's cell (or the first cell); under `must_capture` not among the captures.
            let pass = if ir.pass == Pass::Allowed {
                // Under `facing must_break` a player facing may pass even in check.
                let safe = if ir.facing_break {
                    quote! { (cx.facing || safe(board, royals, them, occupied, enemy)) }
                } else {
                    quote! { safe(board, royals, them, occupied, enemy) }
                };
                let when = if mc {
                    quote! { !CAPTURES && #safe }
                } else {
                    quote! { #safe }
                };
                quote! {
                    if #when {
                        count += 1;
                        if LIST {
                            let cell = if royals == 0 { 0 } else { royals.trailing_zeros() as usize };
                            out.push(CompactMove { kind: CompactKind::Pass, ..#normal(cell, cell, 0) });
                        }
                    }
                }
            } else {
                quote! {}
            };
            let name = format_ident!("generate_{}", us_index);
            let wrapper_name = name.clone();
            let us_number = Literal::usize_unsuffixed(us_index);
            let doc =
                format!("Counts (and with `LIST`, appends) the legal moves of player {us_index}.");
            let mut risky = Vec::new();
            // In a function shared by more than two players, the enemies are the variable `by`,
            // with the tables any player has.
            let shared_many = self.shared.get() && self.many();
            let risk_enemies = if shared_many {
                vec![usize::MAX]
            } else {
                enemies.clone()
            };
            for &by_index in &risk_enemies {
                // Each enemy's tables with his pieces (with two players, all enemy pieces).
                let (by, enemy) = if shared_many {
                    (quote! { by }, quote! { board.colors[by] })
                } else if self.many() {
                    let by = Literal::usize_unsuffixed(by_index);
                    (quote! { #by }, quote! { board.colors[#by] })
                } else {
                    (quote! { #them }, quote! { enemy })
                };
                let has = |table: fn(&FastMoves) -> bool, piece: &crate::lower::fast::FastPiece| {
                    if shared_many {
                        piece.players.iter().any(table)
                    } else {
                        table(&piece.players[by_index])
                    }
                };
                // Lame leaps first, then paths, each in the order of the types.
                let (mut lame, mut paths) = (Vec::new(), Vec::new());
                for (index, piece) in ir.pieces.iter().enumerate() {
                    let piece_index = self.piece(index);
                    if has(|m| !m.lame_attacks.iter().all(Vec::is_empty), piece) {
                        let table = format_ident!("LAME_ATTACKS_{}", index);
                        lame.push(quote! {
                            for &(from, block) in #table[#by][king].iter() {
                                if from == NO_CELL {
                                    break;
                                }
                                if board.pieces[#piece_index] & #enemy & bit(from as usize) != 0 {
                                    risky |= bit(block as usize);
                                }
                            }
                        });
                    }
                    if has(|m| !m.path_attacks.iter().all(Vec::is_empty), piece) {
                        // The cells passed by the paths onto the royal piece from an attacker.
                        let entries = self.path_entries(
                            &format!("PATH_ATTACKS_{index}"),
                            quote!(#by),
                            quote!(king),
                        );
                        paths.push(quote! {
                            let attackers = board.pieces[#piece_index] & #enemy;
                            if attackers != 0 {
                                risky |= path_risk(#entries, attackers);
                            }
                        });
                    }
                }
                if shared_many {
                    let players = Literal::usize_unsuffixed(ir.players);
                    risky.push(quote! {
                        for by in 0..#players {
                            if by != US {
                                #(#lame)*
                                #(#paths)*
                            }
                        }
                    });
                } else {
                    risky.extend(lame);
                    risky.extend(paths);
                }
            }
            // Along a line of the enemy's hoppers (the side to move not in check), only an own
            // first piece that moves, a capture of the first piece, a piece put before an enemy
            // first piece (which it may then hop over) and an own second piece that moves with
            // an enemy third piece behind it change who attacks the royal piece along the line: a
            // piece put anywhere else is the mover's own, so it neither attacks nor makes an
            // enemy piece the second one.
            let hoppers = if self.shared.get() {
                (0..ir.players).collect()
            } else {
                enemies.clone()
            };
            let mut directions: Vec<usize> = hoppers
                .iter()
                .flat_map(|&by| {
                    let hops = self.hop_scans(by).into_iter().map(|(d, _, _)| d);
                    hops.chain(self.conditional_hop_scans(by))
                })
                .collect();
            directions.sort_unstable();
            directions.dedup();
            for direction in directions {
                let ray = Self::ray(direction);
                let first = self.first(direction, quote!(blockers));
                let second = self.first(direction, quote!(beyond));
                let third = self.first(direction, quote!(further));
                risky.push(quote! {{
                    let blockers = #ray[king] & occupied;
                    if blockers != 0 {
                        let first = #first;
                        risky |= if enemy & bit(first) != 0 { #ray[king] ^ #ray[first] } else { bit(first) };
                        let beyond = #ray[first] & occupied;
                        if beyond != 0 {
                            let second = #second;
                            let further = #ray[second] & occupied;
                            if own & bit(second) != 0 && further != 0 && enemy & bit(#third) != 0 {
                                risky |= bit(second);
                            }
                        }
                    }
                }});
            }
            let context = if ir.royal.is_some() {
                quote! {
                    let (check_every, pinned, risky) = if royals == 0 {
                        (false, #zero, #zero)
                    } else if royals & (royals - 1) != 0 {
                        (true, #zero, #zero)
                    } else {
                        let king = royals.trailing_zeros() as usize;
                        let mut risky: Bits = #zero;
                        #(#risky)*
                        (attacked(board, king, them, occupied, enemy), pinned(board, #us, king, occupied, own), risky)
                    };
                }
            } else {
                quote! { let (check_every, pinned, risky) = (false, #zero, #zero); }
            };
            // When captures explode, a player without a royal piece has no legal move, and every
            // capture is tested (its blast may open lines or take royal pieces).
            let context = match (&ir.explosion, ir.royal) {
                (Some(_), Some(_)) => quote! {
                    if royals == 0 {
                        return 0;
                    }
                    #context
                    let risky = risky | enemy;
                },
                // With more than two players, a piece that alone stands between two other
                // players' royal pieces on a file gets the full test, which asks that they do not
                // face each other after the move.
                (None, Some(_)) if self.many() && ir.facing => quote! {
                    #context
                    let pinned = pinned | openings(board, occupied, own);
                },
                _ => context,
            };
            // The piece types the player may promote to (`count_limit`): bit `t` for type `t`.
            let mut limits = Vec::new();
            for (index, limit) in ir.count_limits.iter().enumerate() {
                if let Some(limit) = limit {
                    let piece = self.piece(index);
                    let limit = Literal::u32_unsuffixed(*limit);
                    limits.push(quote! {
                        if (board.pieces[#piece] & own).count_ones() >= #limit {
                            below_limit &= !(1u64 << #piece);
                        }
                    });
                }
            }
            let below_limit = if limits.is_empty() {
                quote! {}
            } else {
                quote! {
                    let mut below_limit: u64 = u64::MAX;
                    #(#limits)*
                }
            };
            // Whether the player is in check, for moves under that condition.
            let in_check = if self.any_conditional_steps() {
                quote! { let in_check = !safe(board, royals, them, occupied, enemy); }
            } else {
                quote! {}
            };
            let has_rules = ir
                .pieces
                .iter()
                .any(|p| p.players.iter().any(|m| !m.promotion_rules.is_empty()));
            let conditions = if has_rules {
                let values = (0..ir.conditions.len()).map(|k| {
                    let name = format_ident!("promotion_condition_{}", k);
                    quote! { #name(board, #us) }
                });
                quote! {
                    let conditions: [bool; CONDITIONS] = [#(#values),*];
                    let _ = conditions;
                }
            } else {
                quote! {}
            };
            // Walls block every move and are nobody's.
            // Neutral pieces stand in the way of every move.
            let neutral = (ir.players..ir.owners).map(Literal::usize_unsuffixed);
            let neutral_bits = quote! { #(| board.colors[#neutral])* };
            let wall_bits = match &ir.walls {
                Some(_) => quote! { | board.pieces[WALL] },
                None => quote! {},
            };
            let (captures_param, empty) = if mc {
                (
                    quote! { , const CAPTURES: bool },
                    quote! { if CAPTURES { #zero } else { !occupied & ALL } },
                )
            } else {
                (quote! {}, quote! { !occupied & ALL })
            };
            let facing_init = match (ir.facing_break, ir.royal) {
                (true, Some(r)) => {
                    let r = self.piece(r);
                    quote! { facing: royals_facing(occupied, royals, board.pieces[#r] & enemy) }
                }
                _ => quote! {},
            };
            // `captures any`: every piece in the way may be taken, own ones too.
            let cx_sides = if ir.captures_any {
                quote! { own: #zero, enemy: occupied, }
            } else {
                quote! { own, enemy, }
            };
            let enemy_bits = if self.many() {
                self.enemies_of(quote!(board), us_index)
            } else {
                quote! { board.colors[#them] }
            };
            let (name, generics, doc) = if self.shared.get() {
                (
                    format_ident!("generate"),
                    quote! { <const US: usize, const LIST: bool #captures_param> },
                    "Counts (and with `LIST`, appends) the legal moves of player `US`.".to_string(),
                )
            } else {
                (name, quote! { <const LIST: bool #captures_param> }, doc)
            };
            let captures_arg = if mc {
                quote! { , CAPTURES }
            } else {
                quote! {}
            };
            let wrapper_doc = doc.clone();
            let wrapper = quote! {
                #[doc = #wrapper_doc]
                #[inline(always)]
                fn #wrapper_name<const LIST: bool #captures_param>(board: &Board, switches: &[bool; SWITCHES], out: &mut Vec<CompactMove>) -> u64 {
                    generate::<#us_number, LIST #captures_arg>(board, switches, out)
                }
            };
            (
                wrapper,
                quote! {
                    #[doc = #doc]
                    fn #name #generics (board: &Board, switches: &[bool; SWITCHES], out: &mut Vec<CompactMove>) -> u64 {
                        let _ = switches;
                        let them = #them;
                        let own = board.colors[#us];
                        #movable_init
                        let enemy = #enemy_bits;
                        let occupied = own | enemy #neutral_bits #wall_bits;
                        let royals: Bits = #royals;
                        #context
                        #in_check
                        #below_limit
                        let cx = Context { occupied, #cx_sides empty: #empty, royals, check_every, pinned, risky, #facing_init };
                        #conditions
                        let mut count = 0;
                        #(#pieces)*
                        #en_passant
                        #castling
                        #drops
                        #pick_ups
                        #pass
                        count
                    }
                },
            )
        };
        let shared: Vec<(TokenStream, TokenStream)> = {
            self.shared.set(true);
            let bodies = (0..ir.players).map(player_fn).collect();
            self.shared.set(false);
            bodies
        };
        let first = shared[0].1.to_string();
        if shared.iter().all(|(_, f)| f.to_string() == first) {
            functions.push(shared[0].1.clone());
            functions.extend(shared.into_iter().map(|(wrapper, _)| wrapper));
        } else {
            functions.extend((0..ir.players).map(|p| player_fn(p).1));
        }
        let borrowed_functions = self.borrowed_functions();
        let en_passant_capturable = self.en_passant_capturable();
        let mover_near = ir.mover_near.iter().enumerate().map(|(index, table)| {
            let name = format_ident!("MOVER_NEAR_{}", index);
            let table = self.per_cell(table);
            quote! {
                /// The cells one leap of a `near(mover, ...)` test away from each cell.
                static #name: [Bits; CELLS] = #table;
            }
        });
        let promote = if ir
            .pieces
            .iter()
            .any(|p| p.players.iter().any(|m| !m.promotion_rules.is_empty()))
        {
            // A promotion to a royal type adds a royal piece on `to` (and on `from` for a pair),
            // which its legality test counts.
            let crowns = ir.royal.filter(|&r| {
                ir.pieces.iter().any(|p| {
                    p.players.iter().any(|m| {
                        m.promotion_rules
                            .iter()
                            .any(|rule| rule.choices.contains(&r))
                    })
                })
            });
            let crown = match crowns {
                Some(r) => {
                    let code = Literal::u8_unsuffixed(r as u8 + 1);
                    quote! {
                        if choice == #code {
                            let occupied = (cx.occupied & !bit(from)) | bit(to) | if pair { bit(from) } else { #zero };
                            let mut royals = (cx.royals & !bit(from)) | bit(to);
                            if pair {
                                royals |= bit(from);
                            }
                            if safe(board, royals, them, occupied, cx.enemy & !bit(to)) {
                                count += 1;
                                if LIST {
                                    let kind = if pair { CompactKind::Pair } else { CompactKind::Normal };
                                    out.push(CompactMove { kind, ..#normal(from, to, choice) });
                                }
                            }
                            continue;
                        }
                    }
                }
                None => quote! {},
            };
            // From a reserve, only the types it holds are choices, and a compulsory rule without
            // one of them applies not.
            let (held, no_choice, available) = if self.promotes_from_reserves() {
                (
                    quote! {
                        let held = |choice: u8| rule.reserve == u8::MAX || board.hands[rule.reserve as usize][choice as usize - 1] > 0;
                    },
                    quote! { !rule.choices.iter().any(|&c| held(c)) },
                    quote! { held(choice) && },
                )
            } else {
                (quote! {}, quote! { rule.choices.is_empty() }, quote! {})
            };
            quote! {
                /// Counts (and with `LIST`, appends) the legal moves from `from` to `targets`, all in
                /// the zone of some promotion rule: the rules that apply (switched on, for the target
                /// or leaving their zone) give the choices, in order; a compulsory one among them
                /// removes the move without promotion.
                #[allow(clippy::too_many_arguments)]
                fn promote<const LIST: bool>(board: &Board, cx: &Context, them: usize, from: usize, mut targets: Bits, rules: &[PromotionRule], switches: &[bool; SWITCHES], conditions: &[bool; CONDITIONS], below_limit: u64, out: &mut Vec<CompactMove>) -> u64 {
                    let mut count = 0;
                    while targets != 0 {
                        let to = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        let mut forced = false;
                        let mut compulsory = [(0u8, false); MOST_CHOICES];
                        let mut optional = [(0u8, false); MOST_CHOICES];
                        let (mut compulsory_len, mut optional_len) = (0, 0);
                        for rule in rules {
                            if rule.to & bit(to) == 0 && rule.from & bit(from) == 0 {
                                continue;
                            }
                            if rule.switch != u8::MAX && !switches[rule.switch as usize] {
                                continue;
                            }
                            if rule.condition != u8::MAX && !conditions[rule.condition as usize] {
                                continue;
                            }
                            if rule.capturing && cx.enemy & bit(to) == 0 {
                                continue;
                            }
                            #held
                            if !rule.optional && #no_choice {
                                continue;
                            }
                            forced |= !rule.optional;
                            let (list, len) = if rule.optional {
                                (&mut optional, &mut optional_len)
                            } else {
                                (&mut compulsory, &mut compulsory_len)
                            };
                            for &choice in rule.choices {
                                if #available below_limit & (1 << (choice - 1)) != 0 && !list[..*len].contains(&(choice, rule.pair)) {
                                    list[*len] = (choice, rule.pair);
                                    *len += 1;
                                }
                            }
                        }
                        let tested = check(cx, from) || cx.risky & bit(to) != 0;
                        let moved = !tested || legal_after(board, cx, them, from, to, #zero);
                        // A pair promotion leaves a piece on `from`: only `to` changes.
                        let paired = !tested || legal_after(board, cx, them, to, to, #zero);
                        let choices = if forced {
                            &compulsory[..compulsory_len]
                        } else {
                            if moved {
                                count += 1;
                                if LIST {
                                    out.push(#normal(from, to, 0));
                                }
                            }
                            &optional[..optional_len]
                        };
                        for &(choice, pair) in choices {
                            #crown
                            if pair && paired {
                                count += 1;
                                if LIST {
                                    out.push(CompactMove { kind: CompactKind::Pair, ..#normal(from, to, choice) });
                                }
                            } else if !pair && moved {
                                count += 1;
                                if LIST {
                                    out.push(#normal(from, to, choice));
                                }
                            }
                        }
                    }
                    count
                }
            }
        } else {
            quote! {}
        };
        let every = if ir.facing_break {
            quote! { cx.check_every || cx.facing }
        } else {
            quote! { cx.check_every }
        };
        // With `cannot_hop`, the attacks after the move read the screens' types from a copy of the
        // board where the unhoppable types have moved too.
        let screens = if ir.unhoppable.is_empty() {
            quote! {}
        } else {
            let types = ir.unhoppable.iter().map(|&t| self.piece(t));
            quote! {
                let mut after = *board;
                let mover = (board.cells[from] as usize - 1) / #no;
                for piece in [#(#types),*] {
                    after.pieces[piece] &= !(bit(from) | bit(to) | victim);
                    if mover == piece {
                        after.pieces[piece] |= bit(to);
                    }
                }
                let board = &after;
            }
        };
        let facing_after = match (ir.facing_break, ir.royal) {
            (true, Some(r)) => {
                let r = self.piece(r);
                quote! { && !(cx.facing && royals_facing(occupied, royals, board.pieces[#r] & enemy)) }
            }
            _ => quote! {},
        };
        // With more than two players, no two other players' royal pieces may face each other
        // after the move either (the interpreter's `facing illegal`).
        let facing_after = match (self.many() && ir.facing, ir.royal) {
            (true, Some(_)) => {
                quote! { #facing_after && !others_facing(board, occupied, cx.own, victim | bit(to)) }
            }
            _ => facing_after,
        };
        let promotion_moves = self.promotion_move_legality();
        let safe_after = self.safe_after();
        // A capture explodes: the capturing piece, the victim and the neighbours of `to` but the
        // spared types go.
        let blast = if ir.explosion.is_some() && ir.royal.is_some() {
            quote! {
                if (cx.enemy & bit(to)) | victim != 0 {
                    let gone = (NEIGHBOURS[to] & cx.occupied & !spared(board)) | bit(from) | bit(to) | victim;
                    return survives(board, cx.royals & !gone, them, cx.occupied & !gone, cx.enemy & !gone);
                }
            }
        } else {
            quote! {}
        };
        let played = self.played_legality();
        quote! {
            #promotion_moves
            #played

            /// Whether a move of the piece on `from` needs the full legality test.
            #[inline]
            fn check(cx: &Context, from: usize) -> bool {
                #every || (cx.pinned | cx.royals | cx.risky) & bit(from) != 0
            }

            /// Tells whether moving from `from` to `to` (also capturing on `victim`) leaves the royal pieces safe.
            fn legal_after(board: &Board, cx: &Context, them: usize, from: usize, to: usize, victim: Bits) -> bool {
                #blast
                let occupied = (cx.occupied & !bit(from) & !victim) | bit(to);
                let enemy = cx.enemy & !bit(to) & !victim;
                let royals = if cx.royals & bit(from) != 0 {
                    (cx.royals & !bit(from)) | bit(to)
                } else {
                    cx.royals
                };
                #screens
                #safe_after(board, royals, them, occupied, enemy) #facing_after
            }

            /// Counts (and with `LIST`, appends) the legal moves from `from` to `targets`, with promotions:
            /// compulsory on `forced` targets, optional on `optional` ones.
            #[allow(clippy::too_many_arguments)]
            #[inline]
            fn add<const LIST: bool>(board: &Board, cx: &Context, them: usize, from: usize, targets: Bits, forced: Bits, optional: Bits, choices: &[u8], out: &mut Vec<CompactMove>) -> u64 {
                let tested = if check(cx, from) { targets } else { targets & cx.risky };
                let mut count = 0;
                let mut set = targets;
                if !LIST {
                    let safe = targets & !tested;
                    let k = choices.len() as u64;
                    count = (safe & forced).count_ones() as u64 * k
                        + (safe & optional & !forced).count_ones() as u64 * (k + 1)
                        + (safe & !optional & !forced).count_ones() as u64;
                    set = tested;
                }
                while set != 0 {
                    let to = set.trailing_zeros() as usize;
                    set &= set - 1;
                    if tested & bit(to) != 0 && !legal_after(board, cx, them, from, to, #zero) {
                        continue;
                    }
                    if (forced | optional) & bit(to) != 0 {
                        if forced & bit(to) == 0 {
                            count += 1;
                            if LIST {
                                out.push(#normal(from, to, 0));
                            }
                        }
                        for &choice in choices {
                            count += 1;
                            if LIST {
                                out.push(#normal(from, to, choice));
                            }
                        }
                    } else {
                        count += 1;
                        if LIST {
                            out.push(#normal(from, to, 0));
                        }
                    }
                }
                count
            }

            #promote

            #(#mover_near)*

            #(#borrowed_functions)*

            #en_passant_capturable

            #(#functions)*
        }
    }

    /// The pieces a borrowing player may capture with a borrowed piece (`board`, `occupied` in
    /// scope): any under `captures any`, else those of the players other than its owner.
    fn borrow_takes(&self, borrow: &crate::lower::fast::FastBorrow) -> TokenStream {
        if self.ir.captures_any {
            return quote! { occupied };
        }
        let zero = self.zero();
        let others = (0..self.ir.players)
            .filter(|&p| p != borrow.owner)
            .map(Literal::usize_unsuffixed);
        quote! { (#zero #(| board.colors[#others])*) }
    }

    /// Per `movable_by` entry `k`, `borrowed_<k>(board)`: the cells of the pieces its player may
    /// move without owning them (those where its condition holds for him).
    fn borrowed_functions(&self) -> Vec<TokenStream> {
        let zero = self.zero();
        let mut functions = Vec::new();
        for (k, borrow) in self.ir.borrowed.iter().enumerate() {
            let name = format_ident!("borrowed_{}", k);
            let piece_index = self.piece(borrow.piece);
            let owner = Literal::usize_unsuffixed(borrow.owner);
            let us = Literal::usize_unsuffixed(borrow.mover);
            let candidates = quote! { board.pieces[#piece_index] & board.colors[#owner] };
            let body = match &borrow.condition {
                FastCond::Const(true) => candidates,
                condition => {
                    let condition = self.count_cond(condition);
                    quote! {
                        let own = #us;
                        let _ = own;
                        let mut cells = #candidates;
                        let mut movers: Bits = #zero;
                        while cells != 0 {
                            let from = cells.trailing_zeros() as usize;
                            cells &= cells - 1;
                            if #condition {
                                movers |= bit(from);
                            }
                        }
                        movers
                    }
                }
            };
            let doc = format!(
                " The pieces of type {} and side {} that player {} may move.",
                borrow.piece, borrow.owner, borrow.mover
            );
            functions.push(quote! {
                #[doc = #doc]
                fn #name(board: &Board) -> Bits {
                    #body
                }
            });
        }
        functions
    }

    /// The moves of the pieces player `us_index` may move without owning them (`movable_by`):
    /// those of the cells where the condition holds for him, in their frame, taking what their
    /// owner's own moves would take (any piece under `captures any`), en passant too.
    fn borrowed_blocks(&self, us_index: usize) -> Vec<TokenStream> {
        let ir = self.ir;
        let push_en_passant = self.move_code("push_en_passant");
        let mut blocks = Vec::new();
        for (k, borrow) in ir.borrowed.iter().enumerate() {
            if borrow.mover != us_index {
                continue;
            }
            let name = format_ident!("borrowed_{}", k);
            let takes = self.borrow_takes(borrow);
            let moves = self.piece_block(borrow.piece, borrow.frame, quote!(borrowed));
            let en_passant = match ir.pieces[borrow.piece].players[borrow.frame].en_passant_from {
                Some(_) => {
                    let table = format_ident!("EN_PASSANT_FROM_{}", borrow.piece);
                    let frame = Literal::usize_unsuffixed(borrow.frame);
                    quote! {
                        if board.en_passant != NO_CELL {
                            let target = board.en_passant as usize;
                            let victim = board.victim as usize;
                            if cx.occupied & bit(target) == 0 && cx.enemy & bit(victim) != 0 {
                                let mut movers = #table[#frame][target] & borrowed;
                                while movers != 0 {
                                    let from = movers.trailing_zeros() as usize;
                                    movers &= movers - 1;
                                    count += 1;
                                    if LIST {
                                        #push_en_passant
                                    }
                                }
                            }
                        }
                    }
                }
                None => quote! {},
            };
            if moves.is_none() && en_passant.is_empty() {
                continue;
            }
            blocks.push(quote! {{
                let borrowed: Bits = #name(board);
                let takes: Bits = #takes;
                let cx = Context { own: cx.occupied & !takes, enemy: takes, ..cx };
                #moves
                #en_passant
            }});
        }
        blocks
    }

    /// The `transfer` moves of player `us_index`: his pieces of the listed types on the start cells,
    /// where the condition holds, to the landing cells (empty ones only under `target empty`, else
    /// taking what stands there, whoever owns it), taking on the `become` type.
    fn transfer_blocks(&self, us_index: usize) -> Vec<TokenStream> {
        let zero = self.zero();
        let us = self.player_lit(us_index);
        let mut blocks = Vec::new();
        for transfer in &self.ir.transfers {
            let types = transfer.pieces.iter().map(|&t| self.piece(t));
            let from = self.bits(transfer.from[us_index]);
            let to = self.bits(transfer.to[us_index]);
            let condition = match &transfer.condition {
                FastCond::Const(true) => quote! {},
                condition => {
                    let condition = self.count_cond(condition);
                    quote! {
                        if !{ let own = #us; let _ = own; #condition } {
                            continue;
                        }
                    }
                }
            };
            let landing = if transfer.empty_only {
                quote! { & cx.empty }
            } else {
                quote! {}
            };
            let (forced, choices) = match transfer.becomes {
                Some(t) => {
                    let code = Literal::u8_unsuffixed(t as u8 + 1);
                    (quote! { targets }, quote! { &[#code] })
                }
                None => (zero.clone(), quote! { &[] }),
            };
            blocks.push(quote! {{
                let mut movers = own & (#zero #(| board.pieces[#types])*) & #from;
                while movers != 0 {
                    let from = movers.trailing_zeros() as usize;
                    movers &= movers - 1;
                    #condition
                    let targets: Bits = #to & !bit(from) #landing;
                    count += add::<LIST>(board, &cx, them, from, targets, #forced, #zero, #choices, out);
                }
            }});
        }
        blocks
    }

    /// `en_passant_right when_capturable`: `en_passant_capturable(board)` tells whether the player
    /// to move has a capture that takes the en-passant right (royal safety aside), with his own
    /// pieces or those he may move.
    fn en_passant_capturable(&self) -> TokenStream {
        let ir = self.ir;
        if !ir.en_passant_when_capturable {
            return quote! {};
        }
        let occupied = self.all_colors(quote!(board));
        let mut arms = Vec::new();
        for us_index in 0..ir.players {
            let us = Literal::usize_unsuffixed(us_index);
            let enemy = if ir.captures_any {
                quote! { occupied }
            } else {
                let them = Literal::usize_unsuffixed(1 - us_index);
                quote! { board.colors[#them] }
            };
            let mut tests = Vec::new();
            for (index, piece) in ir.pieces.iter().enumerate() {
                if piece.players[us_index].en_passant_from.is_none() {
                    continue;
                }
                let table = format_ident!("EN_PASSANT_FROM_{}", index);
                let piece_index = self.piece(index);
                tests.push(quote! {
                    (#enemy & bit(victim) != 0 && #table[#us][target] & board.pieces[#piece_index] & board.colors[#us] != 0)
                });
            }
            for (k, borrow) in ir.borrowed.iter().enumerate() {
                if borrow.mover != us_index
                    || ir.pieces[borrow.piece].players[borrow.frame]
                        .en_passant_from
                        .is_none()
                {
                    continue;
                }
                let name = format_ident!("borrowed_{}", k);
                let table = format_ident!("EN_PASSANT_FROM_{}", borrow.piece);
                let frame = Literal::usize_unsuffixed(borrow.frame);
                let takes = self.borrow_takes(borrow);
                tests.push(quote! {
                    (#takes & bit(victim) != 0 && #table[#frame][target] & #name(board) != 0)
                });
            }
            let test = any_of(tests.into_iter());
            arms.push(quote! { #us => #test, });
        }
        quote! {
            /// Whether the player to move has a capture that takes the en-passant right, royal
            /// safety aside (`en_passant_right when_capturable`).
            fn en_passant_capturable(board: &Board) -> bool {
                let target = board.en_passant as usize;
                let victim = board.victim as usize;
                let occupied = #occupied;
                if occupied & bit(target) != 0 {
                    return false;
                }
                match board.side {
                    #(#arms)*
                    _ => false,
                }
            }
        }
    }

    /// The generation of the moves of the pieces of type `index` on the cells `movers` (an
    /// expression), in the frame of side `us_index` (its tables, zones and promotions); `None`
    /// when the type has no moves there.
    fn piece_block(
        &self,
        index: usize,
        us_index: usize,
        movers: TokenStream,
    ) -> Option<TokenStream> {
        let ir = self.ir;
        let zero = self.zero();
        let mc = ir.must_capture;
        let push_double_step = self.move_code("push_double_step");
        let us = self.player_lit(us_index);
        let piece = &ir.pieces[index];
        let moves = &piece.players[us_index];
        // The enemy pieces it may capture (`captures_only` limits them).
        // Never an `immune` piece.
        let spared = if ir.immune.is_empty() {
            quote! {}
        } else {
            let types = ir.immune.iter().map(|&t| self.piece(t));
            quote! { & !(#(board.pieces[#types])|*) }
        };
        let (takes, takes_init) = match &piece.captures_only {
            None if ir.immune.is_empty() => (quote! { cx.enemy }, quote! {}),
            None => (
                quote! { takes },
                quote! { let takes: Bits = cx.enemy #spared; },
            ),
            Some(types) => {
                let types = types.iter().map(|&t| self.piece(t));
                (
                    quote! { takes },
                    quote! { let takes: Bits = cx.enemy & (#zero #(| board.pieces[#types])*) #spared; },
                )
            }
        };
        let limited = piece.captures_only.is_some() || !ir.immune.is_empty();
        let mut targets = Vec::new();
        if moves.quiet_leaps.iter().any(|&b| b != 0) {
            let t = format_ident!("QUIET_{}", index);
            targets.push(quote! { targets |= #t[#us][from] & cx.empty; });
        }
        if moves.capture_leaps.iter().any(|&b| b != 0) {
            let t = format_ident!("CAPTURE_{}", index);
            targets.push(quote! { targets |= #t[#us][from] & #takes; });
        }
        let mut slides: Vec<usize> = moves.quiet_slides.clone();
        for &d in &moves.capture_slides {
            if !slides.contains(&d) {
                slides.push(d);
            }
        }
        slides.sort_unstable();
        for d in slides {
            let mask = match (
                moves.quiet_slides.contains(&d),
                moves.capture_slides.contains(&d),
            ) {
                // Walls and neutral pieces are neither own nor enemy pieces.
                (true, true)
                    if !limited && !mc && ir.walls.is_none() && ir.owners == ir.players =>
                {
                    quote! { !cx.own }
                }
                (true, true) if !limited => quote! { (cx.empty | cx.enemy) },
                (true, true) => quote! { (cx.empty | #takes) },
                (true, false) => quote! { cx.empty },
                _ => quote! { #takes },
            };
            let slide = self.slide(d, quote!(from), quote!(cx.occupied));
            targets.push(quote! { targets |= #slide & #mask; });
        }
        let mut hops: Vec<usize> = moves.quiet_hops.clone();
        for &d in &moves.capture_hops {
            if !hops.contains(&d) {
                hops.push(d);
            }
        }
        hops.sort_unstable();
        for d in hops {
            let ray = Self::ray(d);
            let screen = self.first(d, quote!(blockers));
            let at = self.first(d, quote!(beyond));
            let quiet = moves.quiet_hops.contains(&d);
            let capture = moves.capture_hops.contains(&d);
            let open = match (quiet, mc) {
                (true, false) => quote! { targets |= after; },
                (true, true) => quote! { targets |= after & cx.empty; },
                (false, _) => quote! {},
            };
            let quiet_part = match (quiet, mc) {
                (true, false) => quote! { targets |= after ^ #ray[at] ^ bit(at); },
                (true, true) => {
                    quote! { targets |= (after ^ #ray[at] ^ bit(at)) & cx.empty; }
                }
                (false, _) => quote! {},
            };
            let capture_part = if capture {
                quote! { targets |= bit(at) & #takes; }
            } else {
                quote! {}
            };
            // `cannot_hop`: no hop over an unhoppable screen.
            let hoppable = if piece.cannot_hop {
                quote! { && unhoppable(board) & bit(#screen) == 0 }
            } else {
                quote! {}
            };
            targets.push(quote! {{
                let blockers = #ray[from] & cx.occupied;
                if blockers != 0 #hoppable {
                    let after = #ray[#screen];
                    let beyond = after & cx.occupied;
                    if beyond == 0 {
                        #open
                    } else {
                        let at = #at;
                        #quiet_part
                        #capture_part
                    }
                }
            }});
        }
        let mut choices_init = quote! {};
        let (forced, optional, choices) = match &moves.promotion {
            Some(p) => {
                let list: Vec<Literal> = p
                    .choices
                    .iter()
                    .map(|&c| Literal::u8_unsuffixed(c as u8 + 1))
                    .collect();
                let choices = if p.choices.iter().any(|&c| ir.count_limits[c].is_some()) {
                    // The choices the player may still have one more of (`count_limit`).
                    let n = Literal::usize_unsuffixed(list.len());
                    choices_init = quote! {
                        let mut choice_buf = [0u8; #n];
                        let mut choice_len = 0;
                        for &choice in [#(#list),*].iter() {
                            if below_limit & (1 << (choice - 1)) != 0 {
                                choice_buf[choice_len] = choice;
                                choice_len += 1;
                            }
                        }
                    };
                    quote! { &choice_buf[..choice_len] }
                } else {
                    quote! { &[#(#list),*] }
                };
                if self.shared.get() && choices_init.is_empty() {
                    // The player's zones and choices from the tables of every player.
                    let zones = format_ident!("PROMOTION_ZONES_{}", index);
                    let list = format_ident!("PROMOTION_CHOICES_{}", index);
                    (
                        quote! { (if bit(from) & #zones[US].1 != 0 { ALL } else { #zones[US].0 }) },
                        quote! { (if bit(from) & #zones[US].3 != 0 { ALL } else { #zones[US].2 }) },
                        quote! { #list[US] },
                    )
                } else {
                    (
                        self.promotion_zone(p.forced_to, p.forced_from),
                        self.promotion_zone(p.optional_to, p.optional_from),
                        choices,
                    )
                }
            }
            None => (self.zero(), self.zero(), quote! { &[] }),
        };
        targets.extend(self.conditional_targets(index, us_index, &takes));
        let has_steps = moves.steps.iter().any(|s| !s.is_empty());
        let has_paths = moves.paths.iter().any(|s| !s.is_empty());
        if targets.is_empty() && !has_steps && !has_paths && moves.pulls.is_empty() {
            return None;
        }
        let paths = if has_paths {
            let entries = self.path_entries(&format!("PATHS_{index}"), quote!(#us), quote!(from));
            quote! {
                let (quiet, full) = walk_paths(#entries, cx.occupied);
                targets |= (quiet & cx.empty) | (full & #takes);
            }
        } else {
            quote! {}
        };
        // Steps to one target by several paths (or a step that is also a leap) are one move:
        // steps without an en-passant cell join the leap and slide targets, and all of them
        // are added once.
        let steps = if has_steps {
            let table = format_ident!("STEPS_{}", index);
            let (pattern, condition) = if Self::conditional_steps(&piece.players) {
                (
                    quote! { (to, block, initial, ep, quiet, capture, needs) },
                    quote! {
                        if (needs == 1 && in_check) || (needs == 2 && !in_check) {
                            continue;
                        }
                    },
                )
            } else {
                (
                    quote! { (to, block, initial, ep, quiet, capture) },
                    quote! {},
                )
            };
            quote! {
                for &#pattern in #table[#us][from].iter() {
                    if to == NO_CELL {
                        break;
                    }
                    #condition
                    let target = bit(to as usize);
                    if (initial && board.virgin & bit(from) == 0)
                        || (block != NO_CELL && cx.occupied & bit(block as usize) != 0)
                        || !((quiet && cx.empty & target != 0) || (capture && #takes & target != 0))
                    {
                        continue;
                    }
                    if ep == NO_CELL {
                        targets |= target;
                    } else if !(check(&cx, from) || cx.risky & target != 0) || legal_after(board, &cx, them, from, to as usize, #zero) {
                        count += 1;
                        if LIST {
                            #push_double_step
                        }
                    }
                }
            }
        } else {
            quote! {}
        };
        let added = if moves.promotion_rules.is_empty() {
            quote! { count += add::<LIST>(board, &cx, them, from, targets, #forced, #optional, #choices, out); }
        } else {
            let table = format_ident!("PROMOTIONS_{}", index);
            let (mut to_zone, mut from_zone) = (Bits::ZERO, Bits::ZERO);
            let (mut capture_to, mut capture_from) = (Bits::ZERO, Bits::ZERO);
            for rule in &moves.promotion_rules {
                if rule.capturing {
                    capture_to |= rule.to;
                    capture_from |= rule.from;
                } else {
                    to_zone |= rule.to;
                    from_zone |= rule.from;
                }
            }
            let zone = self.promotion_zone(to_zone, from_zone);
            let shared_zones = format_ident!("PROMOTION_RULE_ZONES_{}", index);
            // Rules of captures only (`capturing`) apply to the targets with an enemy piece.
            let zone = if self.shared.get() {
                quote! {
                    (if bit(from) & #shared_zones[US].1 != 0 { ALL } else { #shared_zones[US].0 })
                        | ((if bit(from) & #shared_zones[US].3 != 0 { ALL } else { #shared_zones[US].2 }) & cx.enemy)
                }
            } else if capture_to | capture_from == 0 {
                zone
            } else {
                let capture = self.promotion_zone(capture_to, capture_from);
                quote! { (#zone) | ((#capture) & cx.enemy) }
            };
            let limit = if ir.count_limits.iter().any(Option::is_some) {
                quote! { below_limit }
            } else {
                quote! { u64::MAX }
            };
            quote! {
                let zone: Bits = #zone;
                count += add::<LIST>(board, &cx, them, from, targets & !zone, #zero, #zero, &[], out);
                count += promote::<LIST>(board, &cx, them, from, targets & zone, #table[#us], switches, &conditions, #limit, out);
            }
        };
        // `check_evasion capture_checker`: in check, only the captures after which the
        // royal pieces, the mover still in its place, are safe: those of the only checker.
        let evasion = if piece.captures_checker {
            quote! {
                if !safe(board, cx.royals, them, cx.occupied, cx.enemy) {
                    let mut captures = targets & cx.enemy;
                    targets = #zero;
                    while captures != 0 {
                        let at = captures.trailing_zeros() as usize;
                        captures &= captures - 1;
                        if safe(board, cx.royals, them, cx.occupied & !bit(at), cx.enemy & !bit(at)) {
                            targets |= bit(at);
                        }
                    }
                }
            }
        } else {
            quote! {}
        };
        // Pulls: to the first piece along the direction, an enemy put down on a cell
        // passed.
        let pulls = moves.pulls.iter().map(|&d| {
            let ray = Self::ray(d);
            let at = self.first(d, quote!(blockers));
            quote! {{
                let blockers = #ray[from] & cx.occupied;
                if blockers != 0 {
                    let at = #at;
                    let passed = #ray[from] & !#ray[at] & !bit(at);
                    count += pulls::<LIST>(board, from, at, passed, #takes, out);
                }
            }}
        });
        // A normal move of the top piece of a stack leaves it (`CompactKind::Unstack`).
        let added = if ir.stacking {
            quote! {
                let start = out.len();
                #added
                if LIST && board.stacked & bit(from) != 0 {
                    for mv in &mut out[start..] {
                        mv.kind = CompactKind::Unstack;
                    }
                }
            }
        } else {
            added
        };
        let add = quote! {
            let mut targets: Bits = #zero;
            #(#targets)*
            #steps
            #paths
            #evasion
            #added
            #(#pulls)*
        };
        Some(quote! {
            {
                #takes_init
                #choices_init
                let mut movers = #movers;
                while movers != 0 {
                    let from = movers.trailing_zeros() as usize;
                    movers &= movers - 1;
                    #add
                }
            }
        })
    }

    /// The targets where a promotion applies for a move from `from`: the zone's cells, or every cell
    /// when the move leaves a `leaving` zone.
    fn promotion_zone(&self, to: Bits, from: Bits) -> TokenStream {
        let to = self.bits(to);
        if from == 0 {
            quote! { #to }
        } else {
            let from = self.bits(from);
            quote! { if bit(from) & #from != 0 { ALL } else { #to } }
        }
    }

    /// `pulls` and `played_legal`, the pulls' generation and legality test (the move played on a
    /// copy), when a piece has them.
    fn played_legality(&self) -> TokenStream {
        let all_after = self.all_colors(quote!(after));
        let unload_move = self.move_code("unload_move");
        let ir = self.ir;
        if ir
            .pieces
            .iter()
            .all(|p| p.players.iter().all(|m| m.pulls.is_empty()))
        {
            return quote! {};
        }
        let own_royals = match self.royal_bits(quote!(after)) {
            Some(r) => self.royal_gate(
                quote! { #r & after.colors[mover] },
                quote!(after),
                quote!(mover),
            ),
            None => self.zero(),
        };
        quote! {
            /// Whether a move that also moves an enemy piece (a pull) leaves the mover's royal
            /// pieces safe, played on a copy.
            fn played_legal(board: &Board, mv: CompactMove) -> bool {
                let mover = board.side as usize;
                let them = 1 - mover;
                let mut after = *board;
                play(&mut after, mv);
                safe(&after, #own_royals, them, #all_after, after.colors[them])
            }

            /// Counts (and with `LIST`, appends) the legal pulls of the piece on `from` to `at`, the
            /// first piece along a line, when it is one of `takes`: it is put down on one of the
            /// `passed` cells.
            fn pulls<const LIST: bool>(board: &Board, from: usize, at: usize, mut passed: Bits, takes: Bits, out: &mut Vec<CompactMove>) -> u64 {
                if takes & bit(at) == 0 {
                    return 0;
                }
                let mut count = 0;
                while passed != 0 {
                    let back = passed.trailing_zeros() as usize;
                    passed &= passed - 1;
                    let mv = #unload_move;
                    if played_legal(board, mv) {
                        count += 1;
                        if LIST {
                            out.push(mv);
                        }
                    }
                }
                count
            }
        }
    }

    /// The legality test of `promote_move` moves, if the game has them: played on a copy, the
    /// mover's royal pieces safe, and with `peaceful` no check given and no enemy piece attacked
    /// by the new piece (whose attacks are leaps, as the lowering ensures).
    fn promotion_move_legality(&self) -> TokenStream {
        let all_after = self.all_colors(quote!(after));
        let m_to = self.mv_cell(CellField::To);
        let zero = self.zero();
        let ir = self.ir;
        let choices: Vec<usize> = {
            let mut all: Vec<usize> = ir
                .pieces
                .iter()
                .flat_map(|p| {
                    p.promotion_moves
                        .iter()
                        .flat_map(|r| r.choices.iter().copied())
                })
                .collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        if ir.pieces.iter().all(|p| p.promotion_moves.is_empty()) {
            return quote! {};
        }
        let arms = choices.iter().filter_map(|&c| {
            let leaps = ir.pieces[c]
                .players
                .iter()
                .any(|m| m.capture_leaps.iter().any(|&b| b != 0));
            leaps.then(|| {
                let code = Literal::u8_unsuffixed(c as u8 + 1);
                let table = format_ident!("CAPTURE_{}", c);
                quote! { #code => #table[mover][to], }
            })
        });
        let (own_royals, enemy_royals) = match self.royal_bits(quote!(after)) {
            Some(r) => (
                self.royal_gate(
                    quote! { #r & after.colors[mover] },
                    quote!(after),
                    quote!(mover),
                ),
                self.royal_gate(
                    quote! { #r & after.colors[them] },
                    quote!(after),
                    quote!(them),
                ),
            ),
            None => (self.zero(), self.zero()),
        };
        quote! {
            /// `promote_move`: whether the promotion move leaves the mover's royal pieces safe, and
            /// with `peaceful`, gives no check and leaves the new piece attacking no enemy piece.
            fn promotion_move_legal(board: &Board, mv: CompactMove, peaceful: bool) -> bool {
                let mover = board.side as usize;
                let them = 1 - mover;
                let mut after = *board;
                play(&mut after, mv);
                let occupied = #all_after;
                if !safe(&after, #own_royals, them, occupied, after.colors[them]) {
                    return false;
                }
                if !peaceful {
                    return true;
                }
                if !safe(&after, #enemy_royals, mover, occupied, after.colors[mover]) {
                    return false;
                }
                let to = #m_to as usize;
                let attacks: Bits = match mv.piece {
                    #(#arms)*
                    _ => #zero,
                };
                attacks & after.colors[them] == 0
            }
        }
    }

    /// Drops from the hand of player `us`.
    fn drops(&self, us: usize) -> TokenStream {
        let normal = self.normal();
        let zero = self.zero();
        let player = self.player_lit(us);
        let Some(hands) = self.ir.hands.as_ref().filter(|h| h.drops) else {
            return quote! {};
        };
        let mut blocks = Vec::new();
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            let piece_index = self.piece(index);
            let zone = self.bits(hands.drop_zones[index][us]);
            let files = if hands.one_per_file[index] {
                quote! {
                    let mut same = board.pieces[#piece_index] & cx.own;
                    while same != 0 {
                        targets &= !FILES[same.trailing_zeros() as usize];
                        same &= same - 1;
                    }
                }
            } else {
                quote! {}
            };
            let code = Literal::u8_unsuffixed(index as u8 + 1);
            let _ = piece;
            // Dropped from its own count in hand, or (`drop_promoted`) from its base type's.
            let held = self.piece(hands.drop_from[index]);
            let colours = if hands.opposite_colours.iter().any(|&o| o) {
                let index = Literal::usize_unsuffixed(index);
                quote! { targets &= colour_room(board, cx.own, cx.empty, #player, #index); }
            } else {
                quote! {}
            };
            let condition = if hands.drop_condition.is_some() {
                quote! { targets = drop_targets(board, #player, targets); }
            } else {
                quote! {}
            };
            // A shared reserve's row is the one after the players'.
            let row = if hands.shared {
                let row = Literal::usize_unsuffixed(self.ir.players);
                quote! { #row }
            } else {
                player.clone()
            };
            blocks.push(quote! {
                if board.hands[#row][#held] > 0 {
                    let mut targets = cx.empty & #zone;
                    #files
                    #colours
                    #condition
                    let tested = if cx.check_every { targets } else { targets & cx.risky };
                    if !LIST {
                        count += (targets & !tested).count_ones() as u64;
                        targets = tested;
                    }
                    while targets != 0 {
                        let to = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        if tested & bit(to) != 0 && !legal_after(board, &cx, them, to, to, #zero) {
                            continue;
                        }
                        count += 1;
                        if LIST {
                            out.push(CompactMove { kind: CompactKind::Drop, ..#normal(to, to, #code) });
                        }
                    }
                }
            });
        }
        quote! { #(#blocks)* }
    }

    /// The pick-up moves of player `us` (a block counting and, with `LIST`, listing them): each of
    /// his pieces of a line's types, on the line's cells, with its condition holding, once; legal
    /// when the royal pieces stay safe without it.
    fn pick_ups(&self, us: usize) -> TokenStream {
        let Some(hands) = self.ir.hands.as_ref().filter(|h| !h.pick_ups.is_empty()) else {
            return quote! {};
        };
        let zero = self.zero();
        let normal = self.normal();
        let player = self.player_lit(us);
        let no = self.no();
        let lines = hands.pick_ups.iter().map(|line| {
            let pieces = self.pieces_of(&line.pieces);
            let from = match &line.from {
                Some(cells) => {
                    let cells = cells.iter().map(|&b| self.bits(b));
                    quote! { & [#(#cells),*][#player] }
                }
                None => quote! {},
            };
            let condition = self.skip_unless(line.condition.as_ref(), &player);
            quote! {{
                let mut cells = (#pieces) & own #from & !picked;
                while cells != 0 {
                    let from = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    #condition
                    picked |= bit(from);
                }
            }}
        });
        quote! {{
            // Pick-ups: a piece into its owner's hand.
            let own = board.colors[#player];
            let mut picked: Bits = #zero;
            #(#lines)*
            while picked != 0 {
                let from = picked.trailing_zeros() as usize;
                picked &= picked - 1;
                if check(&cx, from) && !safe(board, cx.royals, them, cx.occupied & !bit(from), cx.enemy) {
                    continue;
                }
                count += 1;
                if LIST {
                    let piece = ((board.cells[from] as usize - 1) / #no) as u8 + 1;
                    out.push(CompactMove { kind: CompactKind::PickUp, ..#normal(from, from, piece) });
                }
            }
        }}
    }

    /// The test of the royal pieces' safety after a move: [`Self::attacks`]'s `safe`, or `survives`
    /// when captures explode.
    fn safe_after(&self) -> proc_macro2::Ident {
        if self.ir.explosion.is_some() && self.ir.royal.is_some() {
            format_ident!("survives")
        } else {
            format_ident!("safe")
        }
    }

    fn castling(&self, us: usize) -> TokenStream {
        let castle_fields = self.move_code("castle_fields");
        let zero = self.zero();
        let player = self.player_lit(us);
        let safe_after = self.safe_after();
        let mut blocks = Vec::new();
        for (index, castle) in self.ir.castles.iter().enumerate() {
            let king = self.piece(castle.king);
            let from = if castle.from.is_some() {
                let name = format_ident!("CASTLE_FROM_{}", index);
                quote! { & #name[#player] }
            } else {
                quote! {}
            };
            let mut sides = Vec::new();
            for (side, (direction, _)) in castle.sides.iter().enumerate() {
                let partners = &castle.player_partners[us][side];
                let conditional = &castle.player_conditional[us][side];
                if partners.is_empty() && conditional.is_empty() {
                    continue;
                }
                let ray = Self::ray(*direction);
                let line = format_ident!("LINE_{}", direction);
                let first = self.first(*direction, quote!(blockers));
                // Whether the partner cell holds one of the player's partner pieces.
                let partner_is = if self.shared.get() && self.ir.pieces.len() <= 64 {
                    // Each player's partner types as a mask, for a function the players share.
                    let masks = castle.player_partners.iter().map(|sides| {
                        let mask = sides[side].iter().fold(0u64, |m, &t| m | 1 << t);
                        Literal::u64_unsuffixed(mask)
                    });
                    let owners = Literal::usize_unsuffixed(self.ir.owners);
                    quote! {{
                        let code = board.cells[partner] as usize;
                        code != 0 && (code - 1) % #owners == US && [#(#masks),*][US] >> ((code - 1) / #owners) & 1 != 0
                    }}
                } else if partners.is_empty() {
                    quote! { false }
                } else {
                    let codes = partners.iter().map(|&p| self.code(p, us));
                    quote! { matches!(board.cells[partner], #(#codes)|*) }
                };
                // The partner types allowed while their condition holds for the castling player.
                let partner_is = if conditional.is_empty() {
                    partner_is
                } else {
                    let owners = Literal::usize_unsuffixed(self.ir.owners);
                    let tests = conditional.iter().map(|(t, condition)| {
                        let t = Literal::usize_unsuffixed(*t);
                        let condition = self.count_cond(condition);
                        quote! {
                            (board.cells[partner] as usize == 1 + #t * #owners + #player && {
                                let own: usize = #player;
                                #condition
                            })
                        }
                    });
                    quote! { (#partner_is #(|| #tests)*) }
                };
                let placed = match castle.partner_at {
                    None => quote! { #ray[partner] == 0 },
                    Some((lo, hi)) => {
                        let (lo, hi) = (lo as u32, hi as u32);
                        quote! { (#lo..=#hi).contains(&(#ray[cell] ^ #ray[partner]).count_ones()) }
                    }
                };
                // An original partner (`requires original`) is unmoved and not promoted.
                let unusable = if castle.partner_original {
                    quote! { (board.virgin & !board.promoted) & bit(partner) == 0 }
                } else if castle.partner_virgin {
                    quote! { board.virgin & bit(partner) == 0 }
                } else {
                    quote! { false }
                };
                if let Some(fixed) = &castle.fixed {
                    let lands = format_ident!("CASTLE_LANDS_{}_{}", index, side);
                    let back = Self::ray(fixed[side].back);
                    let attacks = if castle.check_attacks && self.ir.royal.is_some() {
                        quote! {
                            attacked(board, cell, them, cx.occupied, cx.enemy) || {
                                let mut cells = crossed;
                                let mut hit = false;
                                while cells != 0 {
                                    if attacked(board, cells.trailing_zeros() as usize, them, cx.occupied, cx.enemy) {
                                        hit = true;
                                        break;
                                    }
                                    cells &= cells - 1;
                                }
                                hit
                            }
                        }
                    } else {
                        quote! { false }
                    };
                    sides.push(quote! {
                        loop {
                            let blockers = #ray[cell] & cx.occupied;
                            if blockers == 0 {
                                break;
                            }
                            let partner = #first;
                            if !(#placed) || #unusable || !#partner_is {
                                break;
                            }
                            let (king_to, partner_to, crossed) = #lands[#player][cell];
                            if king_to == NO_CELL {
                                break;
                            }
                            let (king_to, partner_to) = (king_to as usize, partner_to as usize);
                            // The cells the partner crosses, and its landing cell.
                            let path = if partner == partner_to {
                                #zero
                            } else if #ray[partner] & bit(partner_to) != 0 {
                                #ray[partner] ^ #ray[partner_to]
                            } else {
                                #back[partner] ^ #back[partner_to]
                            };
                            let others = cx.occupied & !bit(cell) & !bit(partner);
                            if (crossed | path | bit(king_to) | bit(partner_to)) & others != 0 {
                                break;
                            }
                            if #attacks {
                                break;
                            }
                            let occupied = others | bit(king_to) | bit(partner_to);
                            let royals = if cx.royals & bit(cell) != 0 { (cx.royals & !bit(cell)) | bit(king_to) } else { cx.royals };
                            if #safe_after(board, royals, them, occupied, cx.enemy) {
                                count += 1;
                                if LIST {
                                    out.push(CompactMove {
                                        kind: CompactKind::Castle,
                                        #castle_fields
                                    });
                                }
                            }
                            break;
                        }
                    });
                    continue;
                }
                let king_to_index = Literal::usize_unsuffixed(castle.king_steps - 1);
                let partner_to = if castle.partner_steps == 0 {
                    quote! { cell }
                } else {
                    let i = Literal::usize_unsuffixed(castle.partner_steps - 1);
                    quote! { #line[cell][#i] as usize }
                };
                let crossed = Literal::usize_unsuffixed(castle.king_steps - 1);
                let attacks = if castle.check_attacks && self.ir.royal.is_some() {
                    quote! {
                        attacked(board, cell, them, cx.occupied, cx.enemy)
                            || line[..#crossed].iter().any(|&c| attacked(board, c as usize, them, cx.occupied, cx.enemy))
                    }
                } else {
                    quote! { false }
                };
                let width = self.ir.directions[*direction]
                    .lines
                    .iter()
                    .map(Vec::len)
                    .max()
                    .unwrap_or(0)
                    .max(1);
                if castle.king_steps > width || castle.partner_steps > width {
                    continue;
                }
                sides.push(quote! {
                    loop {
                        let blockers = #ray[cell] & cx.occupied;
                        if blockers == 0 {
                            break;
                        }
                        let partner = #first;
                        if !(#placed) || #unusable || !#partner_is {
                            break;
                        }
                        let line = &#line[cell];
                        if line[#king_to_index] == NO_CELL || (#partner_to) == NO_CELL as usize {
                            break;
                        }
                        let king_to = line[#king_to_index] as usize;
                        let partner_to = #partner_to;
                        let free = |c: usize| c == cell || c == partner || cx.occupied & bit(c) == 0;
                        if !free(king_to) || !free(partner_to) || line[..#crossed].iter().any(|&c| c == NO_CELL || !free(c as usize)) {
                            break;
                        }
                        if #attacks {
                            break;
                        }
                        let occupied = (cx.occupied & !bit(cell) & !bit(partner)) | bit(king_to) | bit(partner_to);
                        let royals = if cx.royals & bit(cell) != 0 { (cx.royals & !bit(cell)) | bit(king_to) } else { cx.royals };
                        if #safe_after(board, royals, them, occupied, cx.enemy) {
                            count += 1;
                            if LIST {
                                out.push(CompactMove {
                                    kind: CompactKind::Castle,
                                    #castle_fields
                                });
                            }
                        }
                        break;
                    }
                });
            }
            let original = if castle.king_original {
                quote! { & !board.promoted }
            } else {
                quote! {}
            };
            let virgin = if castle.king_virgin {
                quote! { & board.virgin }
            } else {
                quote! {}
            };
            blocks.push(quote! {
                let mut kings = board.pieces[#king] & cx.own #virgin #original #from;
                while kings != 0 {
                    let cell = kings.trailing_zeros() as usize;
                    kings &= kings - 1;
                    #(#sides)*
                }
            });
        }
        quote! { #(#blocks)* }
    }

    /// A [`FastCond`] as a Rust expression over `board` and `own`.
    fn count_cond(&self, c: &FastCond) -> TokenStream {
        let zero = self.zero();
        match c {
            FastCond::Const(b) => quote! { #b },
            FastCond::Not(inner) => {
                let inner = self.count_cond(inner);
                quote! { !(#inner) }
            }
            FastCond::All(parts) => all_of(parts.iter().map(|p| self.count_cond(p))),
            FastCond::Any(parts) => any_of(parts.iter().map(|p| self.count_cond(p))),
            FastCond::Compare(op, a, b) => {
                let (a, b) = (self.count_int(a), self.count_int(b));
                let op = compare_op(*op);
                quote! { ((#a) #op (#b)) }
            }
            FastCond::MoverIn(cells) => {
                let cells = cells.iter().map(|&b| self.bits(b));
                quote! { ([#(#cells),*][own] & bit(from) != 0) }
            }
            FastCond::Near {
                mover,
                table,
                owners,
                pieces,
            } => {
                let (table, cell) = if *mover {
                    (format_ident!("MOVER_NEAR_{}", table), quote!(from))
                } else {
                    (format_ident!("NEAR_{}", table), quote!(to))
                };
                let owned = match owners {
                    FastOwners::Own => quote! { board.colors[own] },
                    FastOwners::Opponent => quote! { board.colors[1 - own] },
                    FastOwners::ToMove => quote! { board.colors[board.side as usize] },
                    FastOwners::Player(p) => {
                        let p = Literal::usize_unsuffixed(*p);
                        quote! { board.colors[#p] }
                    }
                    FastOwners::Both => {
                        let all = (0..self.ir.owners).map(Literal::usize_unsuffixed);
                        quote! { (#(board.colors[#all])|*) }
                    }
                };
                let types = pieces.iter().map(|&t| self.piece(t));
                quote! { (#table[#cell] & #owned & (#zero #(| board.pieces[#types])*) != 0) }
            }
            FastCond::Between(n, lo, hi) => {
                let n = self.count_int(n);
                let (lo, hi) = (Literal::i64_suffixed(*lo), Literal::i64_suffixed(*hi));
                quote! { (#lo..=#hi).contains(&(#n)) }
            }
            FastCond::PlayerIn(owner, players) => {
                let player = Self::cond_player(owner);
                let players = players.iter().map(|&p| Literal::usize_unsuffixed(p));
                quote! { matches!(#player, #(#players)|*) }
            }
            FastCond::Empty(cell) => {
                let all = self.all_colors(quote!(board));
                let cell = Literal::usize_unsuffixed(*cell);
                quote! { ((#all) & bit(#cell) == 0) }
            }
            FastCond::InCheck(owner) => {
                let player = Self::cond_player(owner);
                let Some(royals) = self.royal_bits(quote!(board)) else {
                    return quote! { false };
                };
                let gated = self.royal_gate(
                    quote! { #royals & board.colors[player] },
                    quote!(board),
                    quote!(player),
                );
                let players = self.ir.players;
                let all = self.all_colors(quote!(board));
                let walls = if self.ir.walls.is_some() {
                    quote! { | board.pieces[WALL] }
                } else {
                    quote! {}
                };
                let by = if self.many() {
                    let players = Literal::usize_unsuffixed(players);
                    quote! { #players + player }
                } else {
                    quote! { 1 - player }
                };
                // As the interpreter decides it: some royal piece of the player is attacked, or
                // under `royal_safety all` every one (and he has one).
                let verdict = if self.ir.royal_all {
                    quote! { any && every }
                } else {
                    quote! { any }
                };
                quote! {{
                    let player: usize = #player;
                    let occupied = #all #walls;
                    let them = occupied & !board.colors[player];
                    let mut royals: Bits = #gated;
                    let (mut any, mut every) = (false, true);
                    while royals != 0 {
                        let hit = attacked(board, royals.trailing_zeros() as usize, #by, occupied, them);
                        any |= hit;
                        every &= hit;
                        royals &= royals - 1;
                    }
                    #verdict
                }}
            }
        }
    }

    /// The player a condition names, over `board` and `own`.
    fn cond_player(owner: &FastOwners) -> TokenStream {
        match owner {
            FastOwners::Own => quote! { own },
            FastOwners::Opponent => quote! { (1 - own) },
            FastOwners::ToMove => quote! { (board.side as usize) },
            FastOwners::Player(p) => {
                let p = Literal::usize_unsuffixed(*p);
                quote! { #p }
            }
            FastOwners::Both => unreachable!("a condition names one player"),
        }
    }

    /// A [`FastInt`] as a Rust `i64` expression over `board` and `own`.
    fn count_int(&self, n: &FastInt) -> TokenStream {
        let zero = self.zero();
        match n {
            FastInt::Const(v) => {
                let v = Literal::i64_suffixed(*v);
                quote! { #v }
            }
            FastInt::Add(a, b) => {
                let (a, b) = (self.count_int(a), self.count_int(b));
                quote! { (#a).saturating_add(#b) }
            }
            FastInt::Sub(a, b) => {
                let (a, b) = (self.count_int(a), self.count_int(b));
                quote! { (#a).saturating_sub(#b) }
            }
            FastInt::Count {
                owners,
                pieces,
                zone,
            } => {
                let owners: Vec<TokenStream> = match owners {
                    FastOwners::Both => (0..self.ir.owners)
                        .map(|o| {
                            let o = Literal::usize_unsuffixed(o);
                            quote! { #o }
                        })
                        .collect(),
                    one => vec![Self::cond_player(one)],
                };
                let types = pieces.iter().map(|&t| self.piece(t));
                let mask = quote! { (#zero #(| board.pieces[#types])*) };
                let counts = owners.iter().map(|o| {
                    let zone = match zone {
                        Some(cells) => {
                            let cells = cells.iter().map(|&b| self.bits(b));
                            quote! { & [#(#cells),*][#o] }
                        }
                        None => quote! {},
                    };
                    quote! { ((board.colors[#o] & #mask #zone).count_ones() as i64) }
                });
                quote! { (0i64 #(+ #counts)*) }
            }
            FastInt::Held { owner, piece } => {
                let owner = match owner {
                    FastOwners::Both => {
                        let piece = self.piece(*piece);
                        return quote! { (board.hands[0][#piece] as i64 + board.hands[1][#piece] as i64) };
                    }
                    one => Self::cond_player(one),
                };
                let piece = self.piece(*piece);
                quote! { (board.hands[#owner][#piece] as i64) }
            }
            FastInt::Enclosed => quote! { (enclosed(board, to, own).count_ones() as i64) },
            FastInt::Waited => quote! { ((board.waiting & bit(from) == 0) as i64) },
        }
    }

    /// The tables and functions of the drop condition (`drops when`) and of the rules converting
    /// pieces: the cells one leap away (`near`), the pieces a cell encloses, the neighbours of a
    /// cell, and the conversion itself.
    fn conversions(&self) -> TokenStream {
        let no = self.no();
        let zero = self.zero();
        let ir = self.ir;
        let mut items = Vec::new();
        if let Some(hands) = &ir.hands {
            for (index, table) in hands.near.iter().enumerate() {
                let name = format_ident!("NEAR_{}", index);
                let table = self.per_cell(table);
                items.push(quote! {
                    /// The cells one leap of a `near` test away from each cell.
                    static #name: [Bits; CELLS] = #table;
                });
            }
            if let Some(condition) = &hands.drop_condition {
                let body = self.count_cond(condition);
                items.push(quote! {
                    /// The cells among `targets` where player `own` may drop a piece, by the
                    /// condition on drops (`drops when`).
                    fn drop_targets(board: &Board, own: usize, mut targets: Bits) -> Bits {
                        let _ = own;
                        let mut allowed = #zero;
                        while targets != 0 {
                            let to = targets.trailing_zeros() as usize;
                            targets &= targets - 1;
                            if #body {
                                allowed |= bit(to);
                            }
                        }
                        allowed
                    }
                });
            }
        }
        if ir.encloses {
            let directions = ir.king_directions.iter().map(|&d| {
                let ray = Self::ray(d);
                let first = self.first(d, quote!(stops));
                quote! {
                    let stops = #ray[cell] & !enemy;
                    if stops != 0 {
                        let stop = #first;
                        if own & bit(stop) != 0 {
                            out |= #ray[cell] & !#ray[stop] & !bit(stop);
                        }
                    }
                }
            });
            items.push(quote! {
                /// The enemy pieces a piece of `owner` on `cell` encloses: along each king
                /// direction, a run of them closed by a piece of `owner`'s.
                fn enclosed(board: &Board, cell: usize, owner: usize) -> Bits {
                    let (own, enemy) = (board.colors[owner], board.colors[1 - owner]);
                    let mut out = #zero;
                    #(#directions)*
                    out
                }
            });
        }
        if ir
            .conversions
            .iter()
            .any(|c| c.target == ConversionTarget::Adjacent)
        {
            let neighbours: Vec<Bits> = (0..ir.cells)
                .map(|cell| {
                    ir.king_directions
                        .iter()
                        .filter_map(|&d| ir.directions[d].lines[cell].first())
                        .fold(Bits::ZERO, |m, &c| m | Bits::bit(c))
                })
                .collect();
            let neighbours = self.per_cell(&neighbours);
            items.push(quote! {
                /// The cells one king step away from each cell.
                static NEIGHBOURS: [Bits; CELLS] = #neighbours;
            });
        }
        if !ir.conversions.is_empty() {
            items.push(quote! {
                /// Gives the pieces on `cells` to player `to`; they stand moved.
                fn convert(board: &mut Board, mut cells: Bits, to: usize) {
                    board.virgin &= !cells;
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let piece = (board.cells[cell] as usize - 1) / #no;
                        board.remove(cell);
                        board.place(cell, (1 + piece * #no + to) as u8);
                    }
                }
            });
        }
        quote! { #(#items)* }
    }

    /// In the arm of normal moves of `play`: the piece a move takes (`taken`), the new piece a
    /// promotion takes from a reserve, and the rules on captures and transformations, as the
    /// interpreter plays them after the move.
    fn effect_rules(&self) -> (TokenStream, TokenStream, TokenStream) {
        let ir = self.ir;
        let no = self.no();
        let from_reserve = if ir
            .pieces
            .iter()
            .any(|p| p.promotion_rows.iter().any(Option::is_some))
        {
            let rows = ir.pieces.iter().map(|p| {
                let rows = (0..ir.owners).map(|side| {
                    Literal::u8_unsuffixed(
                        p.promotion_rows
                            .get(side)
                            .copied()
                            .flatten()
                            .map_or(u8::MAX, |r| r as u8),
                    )
                });
                quote! { [#(#rows),*] }
            });
            quote! {
                if mv.piece > 0 && kind != CompactKind::Pair {
                    /// Per type and owner, the hand row its promotions take the new piece from.
                    const PROMOTION_ROWS: [[u8; #no]; PIECES] = [#(#rows),*];
                    let row = PROMOTION_ROWS[(code as usize - 1) / #no][(code as usize - 1) % #no];
                    if row != u8::MAX {
                        // The new piece comes from the reserve, unmoved.
                        board.add_to_hand(row as usize, mv.piece as usize - 1, -1);
                        board.virgin |= bit(to);
                    }
                }
            }
        } else {
            quote! {}
        };
        if ir.capture_rules.is_empty() && !ir.transform_resets {
            return (quote! {}, from_reserve, quote! {});
        }
        let record_taken = quote! {
            let taken = if to != from { board.cells[to] } else { EMPTY };
        };
        let rules = ir.capture_rules.iter().map(|rule| {
            let mut tests: Vec<TokenStream> = rule
                .switches
                .iter()
                .map(|&s| {
                    let s = Literal::usize_unsuffixed(s);
                    quote! { board.rules_on[#s] }
                })
                .collect();
            tests.extend(rule.conditions.iter().map(|c| self.rule_cond(c)));
            let test = all_of(tests.into_iter());
            let effects = rule.effects.iter().map(|effect| match effect {
                RuleEffect::Reset => quote! { resets = true; },
                RuleEffect::Transform { into, row } => {
                    let into = into
                        .iter()
                        .map(|n| Literal::u8_unsuffixed(n.map_or(u8::MAX, |n| n as u8)));
                    let (held, take, fresh) = match row {
                        Some(r) => {
                            let r = Literal::usize_unsuffixed(*r);
                            (
                                quote! { && board.hands[#r][new] > 0 },
                                quote! { board.add_to_hand(#r, new, -1); },
                                quote! {
                                    board.virgin |= bit(to);
                                    board.promoted |= bit(to);
                                },
                            )
                        }
                        None => (
                            quote! {},
                            quote! {},
                            quote! {
                                board.virgin &= !bit(to);
                                board.promoted &= !bit(to);
                            },
                        ),
                    };
                    quote! {
                        let code = board.cells[to];
                        let (piece, owner) = ((code as usize - 1) / #no, (code as usize - 1) % #no);
                        // Per type, the type it becomes (`u8::MAX`: it stays).
                        let new = [#(#into),*][piece];
                        let new = new as usize;
                        if new != u8::MAX as usize #held {
                            #take
                            board.remove(to);
                            board.place(to, (1 + new * #no + owner) as u8);
                            #fresh
                            transformed = true;
                        }
                    }
                }
            });
            quote! {
                if #test {
                    #(#effects)*
                }
            }
        });
        let resets = if ir.transform_resets {
            quote! {
                // A change of type restarts the move-rule count (`on transform; reset move_rule`).
                if mv.piece > 0 || transformed {
                    resets = true;
                }
            }
        } else {
            quote! {}
        };
        let capture_rules = quote! {
            let mut transformed = false;
            if taken != EMPTY {
                // The rules on captures, in file order, on the position after the move.
                let own = mover;
                let captured = (taken as usize - 1) / #no;
                let _ = (own, captured);
                #(#rules)*
            }
            #resets
        };
        (record_taken, from_reserve, capture_rules)
    }

    /// A [`RuleCond`] as a Rust expression over `board`, `to`, `captured` and `own`.
    fn rule_cond(&self, c: &RuleCond) -> TokenStream {
        let no = self.no();
        match c {
            RuleCond::Const(b) => quote! { #b },
            RuleCond::Not(inner) => {
                let inner = self.rule_cond(inner);
                quote! { !(#inner) }
            }
            RuleCond::All(parts) => all_of(parts.iter().map(|p| self.rule_cond(p))),
            RuleCond::Any(parts) => any_of(parts.iter().map(|p| self.rule_cond(p))),
            RuleCond::Mover(types) => {
                let types = types.iter().map(|&t| self.piece(t));
                quote! { matches!((board.cells[to] as usize - 1) / #no, #(#types)|*) }
            }
            RuleCond::Captured(types) => {
                let types = types.iter().map(|&t| self.piece(t));
                quote! { matches!(captured, #(#types)|*) }
            }
            RuleCond::Counts(c) => self.count_cond(c),
        }
    }

    fn make(&self) -> TokenStream {
        let all_board = self.all_colors(quote!(board));
        let m_wall = self.mv_cell(CellField::Wall);
        let m_to = self.mv_cell(CellField::To);
        let m_gate_cell = self.mv_cell(CellField::GateCell);
        let m_from = self.mv_cell(CellField::From);
        let m_aux2 = self.mv_cell(CellField::Aux2);
        let m_aux = self.mv_cell(CellField::Aux);
        // A promoted piece stays its owner's, whoever moved it (`movable_by`).
        let promoted_owner = if self.ir.borrowed.is_empty() {
            quote!(mover)
        } else {
            let no = self.no();
            quote!(((code as usize - 1) % #no))
        };
        let np = self.np();
        let no = self.no();
        let (clear_en_passant, record_en_passant) = if self.ir.en_passant_lasts {
            (
                quote! {
                    // A right ends when its pawn is taken or leaves its cell (its owner's next turn
                    // ends the others).
                    for slot in 0..#np * RIGHT_SLOTS {
                        let (target, victim) = board.rights[slot];
                        if target != NO_CELL
                            && (victim == #m_to
                                || (victim == #m_from && mv.kind != CompactKind::Drop)
                                || (mv.kind == CompactKind::EnPassant && victim == #m_aux))
                        {
                            board.hash ^= right_key(slot / RIGHT_SLOTS, target);
                            board.rights[slot] = (NO_CELL, NO_CELL);
                        }
                    }
                },
                quote! {
                    // The mover's first free slot (he has one per single move of his turn).
                    let base = mover * RIGHT_SLOTS;
                    let slot = (base..base + RIGHT_SLOTS)
                        .find(|&s| board.rights[s].0 == NO_CELL)
                        .unwrap_or(base + RIGHT_SLOTS - 1);
                    if board.rights[slot].0 != NO_CELL {
                        board.hash ^= right_key(mover, board.rights[slot].0);
                    }
                    board.rights[slot] = (#m_aux, #m_to);
                    board.hash ^= right_key(mover, #m_aux);
                },
            )
        } else {
            (
                quote! {
                    if board.en_passant != NO_CELL {
                        board.hash ^= KEYS[EN_PASSANT_KEYS + board.en_passant as usize];
                        board.en_passant = NO_CELL;
                        board.victim = NO_CELL;
                    }
                },
                quote! {
                    board.en_passant = #m_aux;
                    board.victim = #m_to;
                    board.hash ^= KEYS[EN_PASSANT_KEYS + #m_aux as usize];
                },
            )
        };
        let (custodian_items, custodian_call) = self.emit_custodian();
        // A promotion back to the type a piece was promoted from is a demotion: the piece stands
        // unpromoted.
        let promotes = if self.ir.demotes_to.iter().all(Option::is_none) {
            quote! { mv.piece > 0 || was_promoted }
        } else {
            let back = self
                .ir
                .demotes_to
                .iter()
                .map(|d| Literal::u8_unsuffixed(d.map_or(u8::MAX, |t| t as u8 + 1)));
            quote! {{
                /// Per type, the type it is promoted from (plus one) when it may be demoted to it.
                const DEMOTES_TO: [u8; PIECES] = [#(#back),*];
                if mv.piece > 0 {
                    DEMOTES_TO[(code as usize - 1) / #no] != mv.piece
                } else {
                    was_promoted
                }
            }}
        };
        // A change of type on a move between boards (a transfer's `become`) is no promotion.
        let promotes = if self.ir.transfers.is_empty() {
            promotes
        } else {
            let boards = self
                .ir
                .boards
                .iter()
                .map(|&b| Literal::u8_unsuffixed(b as u8));
            quote! {{
                /// Per cell, its board.
                const BOARD_OF: [u8; CELLS] = [#(#boards),*];
                if mv.piece > 0 && BOARD_OF[from] != BOARD_OF[to] { false } else { #promotes }
            }}
        };
        let (to_hand, drop) = if let Some(hands) = &self.ir.hands {
            // The row drops take from: the mover's, or a shared reserve's after the players'.
            let drop_row = if hands.shared {
                let row = Literal::usize_unsuffixed(self.ir.players);
                quote! { #row }
            } else {
                quote! { mover }
            };
            // Whose hand a capture goes to: the captor's, or his partner's.
            let receiver = if hands.receivers.iter().enumerate().all(|(i, &r)| i == r) {
                quote! { mover }
            } else {
                let receivers = hands
                    .receivers
                    .iter()
                    .map(|&r| Literal::usize_unsuffixed(r));
                quote! { [#(#receivers),*][mover] }
            };
            (
                quote! {
                    /// Puts the piece captured on `cell` into the captor's hand, if captures go there.
                    fn to_hand(board: &mut Board, mover: usize, cell: usize) {
                        if CAPTURES_TO_HAND {
                            let kind = hand_kind(board, cell);
                            board.add_to_hand(#receiver, kind, 1);
                        }
                    }

                    /// The type the piece on `cell` takes in hand (captured or picked up).
                    fn hand_kind(board: &Board, cell: usize) -> usize {
                        let piece = (board.cells[cell] as usize - 1) / #no;
                        match PROMOTED_TO_HAND {
                            Some(pawn) if board.promoted & bit(cell) != 0 => pawn,
                            _ => HAND_TYPE[piece],
                        }
                    }
                },
                {
                    if hands.drop_from.iter().enumerate().all(|(i, &f)| i == f) {
                        quote! {
                            let piece = mv.piece as usize - 1;
                            board.add_to_hand(#drop_row, piece, -1);
                            board.place(to, (1 + piece * #no + mover) as u8);
                        }
                    } else {
                        let from = hands
                            .drop_from
                            .iter()
                            .map(|&f| Literal::usize_unsuffixed(f));
                        quote! {
                            /// The type in hand each type is dropped from (`drop_promoted`: a promoted type
                            /// from its base, and it stands promoted).
                            const DROP_FROM: [usize; PIECES] = [#(#from),*];
                            let piece = mv.piece as usize - 1;
                            board.add_to_hand(#drop_row, DROP_FROM[piece], -1);
                            board.place(to, (1 + piece * #no + mover) as u8);
                            if DROP_FROM[piece] != piece {
                                board.promoted |= bit(to);
                            }
                        }
                    }
                },
            )
        } else {
            (
                quote! {
                    fn to_hand(_board: &mut Board, _mover: usize, _cell: usize) {}
                },
                quote! {},
            )
        };
        // `drops_virgin`: a dropped piece stands unmoved.
        let drop = if self.ir.hands.as_ref().is_some_and(|h| h.drops_virgin) {
            quote! {
                #drop
                board.virgin |= bit(to);
            }
        } else {
            drop
        };
        let count_check = match (self.ir.counts_checks, self.ir.royal) {
            (true, Some(r)) => {
                let r = self.piece(r);
                quote! {
                    // A move that leaves an enemy royal piece attacked is a check given.
                    let royals = board.pieces[#r] & board.colors[1 - mover];
                    if !safe(board, royals, mover, #all_board, board.colors[mover]) {
                        let given = board.checks[mover];
                        board.hash ^= check_key(mover, given) ^ check_key(mover, given + 1);
                        board.checks[mover] = given + 1;
                    }
                }
            }
            _ => quote! {},
        };
        let (pass_arm, passes) = if self.ir.pass != Pass::Never {
            (
                quote! { CompactKind::Pass => {} },
                quote! {
                    board.passes = if mv.kind == CompactKind::Pass { board.passes + 1 } else { 0 };
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let pulls = self
            .ir
            .pieces
            .iter()
            .any(|p| p.players.iter().any(|m| !m.pulls.is_empty()));
        let (freeze_init, unload_init) = (self.freeze_init(true), self.freeze_init(false));
        let unload_freeze = self.freeze_after(false);
        let freeze = self.freeze_after(true);
        let (mark_captured, update_count, captured_init) = self.counting_update();
        // A pick-up: the piece goes into the mover's hand as a captured one would, and the move
        // restarts nothing.
        let pick_up_arm = if self
            .ir
            .hands
            .as_ref()
            .is_some_and(|h| !h.pick_ups.is_empty())
        {
            quote! {
                CompactKind::PickUp => {
                    let kind = hand_kind(board, from);
                    board.remove(from);
                    board.add_to_hand(mover, kind, 1);
                    board.virgin &= !bit(from);
                    board.promoted &= !bit(from);
                }
            }
        } else {
            quote! {}
        };
        let (count_to, count_victim) = (
            self.count_victim(quote!(to)),
            self.count_victim(quote!(victim)),
        );
        let (turn_tail, end_turn) = self.turn_tail();
        // An unload: the captured piece is put down on `aux2`, moved, with its promoted flag;
        // nothing goes to a hand, and the move counter restarts.
        let unload_arm = if pulls {
            quote! {
                CompactKind::Unload => {
                    let back = #m_aux2 as usize;
                    #unload_init
                    let (code, victim) = (board.cells[from], board.cells[to]);
                    board.remove(to);
                    board.remove(from);
                    board.place(to, code);
                    board.place(back, victim);
                    let promoted = board.promoted;
                    board.promoted &= !(bit(from) | bit(to) | bit(back));
                    if promoted & bit(from) != 0 {
                        board.promoted |= bit(to);
                    }
                    if promoted & bit(to) != 0 {
                        board.promoted |= bit(back);
                    }
                    board.virgin &= !(bit(from) | bit(to) | bit(back));
                    resets = true;
                    #custodian_call
                    #unload_freeze
                }
            }
        } else {
            quote! {}
        };
        // The rules, in order: the enemy pieces around the arrival cell become the mover's.
        let all_owners = self.all_colors(quote!(board));
        let conversions = self.ir.conversions.iter().map(|c| {
            // To the mover: the enemy pieces; to a player named: every piece not already his.
            let (cells, receiver) = match (c.target, c.to) {
                (ConversionTarget::Adjacent, None) => (
                    quote! { NEIGHBOURS[to] & board.colors[1 - mover] },
                    quote!(mover),
                ),
                (ConversionTarget::Enclosed, None) => {
                    (quote! { enclosed(board, to, mover) }, quote!(mover))
                }
                (target, Some(p)) => {
                    let p = Literal::usize_unsuffixed(p);
                    let around = match target {
                        ConversionTarget::Adjacent => quote! { NEIGHBOURS[to] & (#all_owners) },
                        ConversionTarget::Enclosed => quote! { enclosed(board, to, mover) },
                    };
                    (quote! { #around & !board.colors[#p] }, quote!(#p))
                }
            };
            let cells = if c.except.is_empty() {
                cells
            } else {
                let types = c.except.iter().map(|&t| self.piece(t));
                quote! { #cells & !(#(board.pieces[#types])|*) }
            };
            let event = if c.drops_only {
                quote! { mv.kind == CompactKind::Drop }
            } else {
                quote! { mv.kind != CompactKind::Pass }
            };
            quote! {
                if #event {
                    convert(board, #cells, #receiver);
                }
            }
        });
        let conversions = quote! { #(#conversions)* };
        let gate = if self.ir.hands.as_ref().is_some_and(|h| h.gating.is_some()) {
            quote! {
                if mv.gate > 0 {
                    // Gating: the hand piece onto the vacated cell, neither unmoved nor promoted.
                    let piece = mv.gate as usize - 1;
                    board.add_to_hand(mover, piece, -1);
                    board.place(#m_gate_cell as usize, (1 + piece * #no + mover) as u8);
                }
            }
        } else {
            quote! {}
        };
        // A capture explodes: the capturing piece on `to` and its neighbours but the spared types
        // leave the game.
        let (captures, explode) = if self.ir.explosion.is_some() {
            (
                quote! {
                    let captured = (to != from && board.cells[to] != EMPTY)
                        || (kind == CompactKind::EnPassant && board.cells[#m_aux as usize] != EMPTY);
                },
                quote! {
                    if captured {
                        let mut blast = (NEIGHBOURS[to] & (#all_board) & !spared(board)) | bit(to);
                        board.promoted &= !blast;
                        board.virgin &= !blast;
                        while blast != 0 {
                            board.remove(blast.trailing_zeros() as usize);
                            blast &= blast - 1;
                        }
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let wall = match &self.ir.walls {
            Some(walls) => {
                let clear = if walls.single {
                    quote! {
                        // One wall only: the previous one is taken away.
                        let mut old = board.pieces[WALL];
                        while old != 0 {
                            board.remove_wall(old.trailing_zeros() as usize);
                            old &= old - 1;
                        }
                    }
                } else {
                    quote! {}
                };
                quote! {
                    if #m_wall != NO_CELL {
                        #clear
                        board.place_wall(#m_wall as usize);
                    }
                }
            }
            None => quote! {},
        };
        let (stack_before, stack_after) = self.stack_make();
        let rules = self.trigger_make();
        let (rules_items, rules_start, rules_victims, note_to, note_victim) = (
            rules.items,
            rules.start,
            rules.victims,
            rules.note_to,
            rules.note_victim,
        );
        let (rules_moved, rules_run, rules_end) = (rules.moved, rules.rules, rules.end);
        let (record_taken, from_reserve, capture_rules) = self.effect_rules();
        // A merger: the pieces on `from` and `to` leave, one of the new type stands on `to`,
        // moved and not promoted; the move rule's count restarts.
        let merge_arm = if self.ir.pieces.iter().any(|p| !p.merges.is_empty()) {
            quote! {
                CompactKind::Merge => {
                    board.remove(to);
                    board.remove(from);
                    board.place(to, 1 + (mv.piece - 1) * #np + mover as u8);
                    board.promoted &= !(bit(from) | bit(to));
                    board.virgin &= !(bit(from) | bit(to));
                    resets = true;
                }
            }
        } else {
            quote! {}
        };
        quote! {
            #to_hand
            #end_turn
            #custodian_items
            #rules_items

            /// Plays a legal move.
            fn play(board: &mut Board, mv: CompactMove) {
                let from = #m_from as usize;
                let to = #m_to as usize;
                let mover = board.side as usize;
                #clear_en_passant
                let (old_virgin, old_promoted) = (board.identity_virgin(), board.promoted);
                #captured_init
                #rules_start
                let mut resets = false;
                match mv.kind {
                    CompactKind::Castle => {
                        let (partner, partner_to) = (#m_aux as usize, #m_aux2 as usize);
                        let king = board.cells[from];
                        let rook = board.cells[partner];
                        board.remove(from);
                        board.remove(partner);
                        board.place(to, king);
                        board.place(partner_to, rook);
                        let moved = |flags: Bits| {
                            let mut out = flags & !bit(from) & !bit(partner);
                            if flags & bit(from) != 0 { out |= bit(to); }
                            if flags & bit(partner) != 0 { out |= bit(partner_to); }
                            out
                        };
                        board.promoted = moved(board.promoted);
                        board.virgin &= !(bit(from) | bit(partner) | bit(to) | bit(partner_to));
                    }
                    CompactKind::Drop => {
                        #drop
                    }
                    #pick_up_arm
                    #unload_arm
                    #pass_arm
                    #merge_arm
                    kind => {
                        let code = board.cells[from];
                        #stack_before
                        #freeze_init
                        #captures
                        #rules_victims
                        #record_taken
                        let mut gone = bit(from) | bit(to);
                        if to != from && board.cells[to] != EMPTY {
                            #note_to
                            #count_to
                            #mark_captured
                            to_hand(board, mover, to);
                            board.remove(to);
                            resets = true;
                        }
                        if kind == CompactKind::EnPassant {
                            let victim = #m_aux as usize;
                            if board.cells[victim] != EMPTY {
                                #note_victim
                                #count_victim
                                #mark_captured
                                to_hand(board, mover, victim);
                                board.remove(victim);
                                resets = true;
                            }
                            gone |= bit(victim);
                        }
                        board.remove(from);
                        let placed = if mv.piece > 0 { 1 + (mv.piece - 1) * #no + #promoted_owner as u8 } else { code };
                        board.place(to, placed);
                        resets |= RESETS_COUNTER[(code as usize - 1) / #no];
                        let was_promoted = board.promoted & bit(from) != 0;
                        board.promoted &= !gone;
                        if #promotes {
                            board.promoted |= bit(to);
                        }
                        board.virgin &= !gone;
                        #rules_moved
                        if kind == CompactKind::Pair {
                            board.place(from, placed);
                            board.promoted |= bit(from);
                        }
                        #from_reserve
                        #capture_rules
                        #stack_after
                        #rules_run
                        if kind == CompactKind::DoubleStep {
                            #record_en_passant
                        }
                        #explode
                        #custodian_call
                        #freeze
                    }
                }
                #gate
                #conversions
                #wall
                #rules_end
                board.hash ^= flag_keys(old_virgin ^ board.identity_virgin(), VIRGIN_KEYS)
                    ^ flag_keys(old_promoted ^ board.promoted, PROMOTED_KEYS);
                #turn_tail
                #passes
                #count_check
                #update_count
            }
        }
    }

    /// The `CompactGame` methods listing and counting the legal moves, and the functions they call
    /// for `must_capture`, `forbid_checks`, `no_drop_check`, `must_drop` and `pass when_stuck`.
    fn legal_moves(&self) -> (TokenStream, TokenStream) {
        let normal = self.normal();
        if self.ir.pass != Pass::WhenStuck {
            return self.move_methods(
                &format_ident!("legal_moves"),
                &format_ident!("count_legal_moves"),
            );
        }
        // `pass when_stuck`: the moves but the pass are listed and counted by methods of `Fast`;
        // a player without one passes.
        let (list, count) = (
            format_ident!("moves_but_pass"),
            format_ident!("count_but_pass"),
        );
        let (helpers, methods) = self.move_methods(&list, &count);
        let cell = match self.royal_bits(quote!(board)) {
            Some(r) => {
                let royals = self.royal_gate(
                    quote! { #r & board.colors[board.side as usize] },
                    quote!(board),
                    quote!(board.side as usize),
                );
                quote! {
                    let royals = #royals;
                    let cell = if royals == 0 { 0 } else { royals.trailing_zeros() as usize };
                }
            }
            None => quote! { let cell = 0; },
        };
        let helpers = quote! {
            #helpers

            impl Fast {
                #methods
            }
        };
        let methods = quote! {
            fn legal_moves(&self, board: &Board, moves: &mut Vec<CompactMove>) {
                let start = moves.len();
                self.#list(board, moves);
                if moves.len() == start {
                    // Written as the royal piece's cell twice; a game without one writes the first cell.
                    #cell
                    moves.push(CompactMove { kind: CompactKind::Pass, ..#normal(cell, cell, 0) });
                }
            }

            fn count_legal_moves(&self, board: &Board) -> u64 {
                self.#count(board).max(1)
            }
        };
        (helpers, methods)
    }

    /// The call of the side to move's generation function (`generate_<player>`, written by `call`):
    /// with two players an `if`, with more a `match`.
    fn by_side(players: usize, call: impl Fn(proc_macro2::Ident) -> TokenStream) -> TokenStream {
        if players == 2 {
            let (first, second) = (
                call(format_ident!("generate_0")),
                call(format_ident!("generate_1")),
            );
            return quote! {
                if board.side == 0 {
                    #first
                } else {
                    #second
                }
            };
        }
        let arms = (0..players).map(|p| {
            let side = if p + 1 == players {
                quote! { _ }
            } else {
                let p = Literal::u8_unsuffixed(p as u8);
                quote! { #p }
            };
            let call = call(format_ident!("generate_{}", p));
            quote! { #side => #call, }
        });
        quote! {
            match board.side {
                #(#arms)*
            }
        }
    }

    /// [`Emitter::legal_moves`] with the methods named `list_fn` and `count_fn`.
    fn move_methods(
        &self,
        list_fn: &proc_macro2::Ident,
        count_fn: &proc_macro2::Ident,
    ) -> (TokenStream, TokenStream) {
        let m_to = self.mv_cell(CellField::To);
        let m_from = self.mv_cell(CellField::From);
        let m_aux2 = self.mv_cell(CellField::Aux2);
        let m_aux = self.mv_cell(CellField::Aux);
        let gate_move = self.move_code("gate_move");
        let mc = self.ir.must_capture;
        // `no_drop_check` forbids the checks of drops only.
        let drop_checks = self.ir.hands.as_ref().is_some_and(|h| h.no_drop_check);
        // The types whose drops may not checkmate (`no_drop_mate`).
        let drop_mates: Vec<usize> = self.ir.hands.as_ref().map_or(Vec::new(), |h| {
            (0..h.no_drop_mate.len())
                .filter(|&t| h.no_drop_mate[t])
                .collect()
        });
        let fc = self.ir.forbid_checks || drop_checks || !drop_mates.is_empty();
        let mut helpers = quote! {};
        // A call that counts (and with `list`, appends to `out`) the legal moves, or only the
        // captures with `captures`.
        let players = self.ir.players;
        let call: Box<dyn Fn(bool, bool, TokenStream) -> TokenStream> = if !mc && !fc {
            Box::new(move |list: bool, _: bool, out: TokenStream| {
                Self::by_side(players, |name| {
                    quote! { #name::<#list>(board, &self.switches, #out) }
                })
            })
        } else {
            let (param, arg) = if mc {
                (quote! { , const CAPTURES: bool }, quote! { , CAPTURES })
            } else {
                (quote! {}, quote! {})
            };
            let dispatch = Self::by_side(players, |name| {
                quote! { #name::<LIST #arg>(board, switches, out) }
            });
            helpers.extend(quote! {
                /// Counts (and with `LIST`, appends) the pseudo-legal moves of the side to move that leave
                /// its royal pieces safe (only captures with `CAPTURES`).
                fn side_moves<const LIST: bool #param>(board: &Board, switches: &[bool; SWITCHES], out: &mut Vec<CompactMove>) -> u64 {
                    #dispatch
                }
            });
            if fc {
                // The moves as one function of `CAPTURES`: those that give check are listed and
                // dropped.
                let generic = if mc {
                    quote! { <const CAPTURES: bool> }
                } else {
                    quote! {}
                };
                let tested = if self.ir.forbid_checks {
                    quote! { true }
                } else if drop_checks {
                    quote! { mv.kind == CompactKind::Drop }
                } else {
                    quote! { false }
                };
                // A drop of a `no_drop_mate` type that gives check is played on a copy: the
                // opponent must have a legal reply.
                let (mate_test, mate_fn) = if drop_mates.is_empty() {
                    (quote! { false }, quote! {})
                } else {
                    let codes = drop_mates
                        .iter()
                        .map(|&t| Literal::u8_unsuffixed(t as u8 + 1));
                    (
                        quote! { (mv.kind == CompactKind::Drop && matches!(mv.piece, #(#codes)|*) && drop_mates(board, switches, mv)) },
                        quote! {
                            /// Tells whether a drop checkmates: it gives check and the opponent has
                            /// no legal reply (`no_drop_mate`).
                            fn drop_mates(board: &Board, switches: &[bool; SWITCHES], mv: CompactMove) -> bool {
                                if !gives_check(board, mv) {
                                    return false;
                                }
                                let mut after = *board;
                                play(&mut after, mv);
                                let mut replies = Vec::new();
                                without_checks(&after, switches, &mut replies) == 0
                            }
                        },
                    )
                };
                let royal = match self.royal_bits(quote!(after)) {
                    Some(r) if players > 2 => {
                        // The royal pieces of the mover's enemies but his partner.
                        let checked = (0..players).map(|p| {
                            let others = (0..players)
                                .filter(|&o| o != p && Some(o) != self.ir.partners[p])
                                .map(Literal::usize_unsuffixed);
                            quote! { #(after.colors[#others])|* }
                        });
                        quote! { #r & [#(#checked),*][mover] }
                    }
                    Some(r) => {
                        quote! { #r & after.colors[1 - mover] }
                    }
                    None => self.zero(),
                };
                let occupied = {
                    let all = (0..players).map(Literal::usize_unsuffixed);
                    quote! { #(after.colors[#all])|* }
                };
                helpers.extend(quote! {
                    /// Tells whether a move leaves an enemy royal piece attacked (`forbid_checks`,
                    /// `no_drop_check`).
                    fn gives_check(board: &Board, mv: CompactMove) -> bool {
                        let mover = board.side as usize;
                        let mut after = *board;
                        play(&mut after, mv);
                        let royals: Bits = #royal;
                        !safe(&after, royals, mover, #occupied, after.colors[mover])
                    }

                    #mate_fn

                    /// Appends the legal moves (only captures with `CAPTURES`): those that give no check
                    /// (with `no_drop_check`, the drops that give none and every other move; with
                    /// `no_drop_mate`, all but the drops that checkmate).
                    fn without_checks #generic (board: &Board, switches: &[bool; SWITCHES], out: &mut Vec<CompactMove>) -> u64 {
                        let start = out.len();
                        side_moves::<true #arg>(board, switches, out);
                        let mut kept = start;
                        for i in start..out.len() {
                            let mv = out[i];
                            if !(#tested && gives_check(board, mv)) && !#mate_test {
                                out[kept] = mv;
                                kept += 1;
                            }
                        }
                        out.truncate(kept);
                        (kept - start) as u64
                    }
                });
            }
            Box::new(
                move |list: bool, captures: bool, out: TokenStream| match (fc, mc) {
                    (true, true) => {
                        quote! { without_checks::<#captures>(board, &self.switches, #out) }
                    }
                    (true, false) => quote! { without_checks(board, &self.switches, #out) },
                    (false, true) => {
                        quote! { side_moves::<#list, #captures>(board, &self.switches, #out) }
                    }
                    (false, false) => quote! { side_moves::<#list>(board, &self.switches, #out) },
                },
            )
        };
        let list_all = call(true, false, quote!(moves));
        if self.ir.walls.is_some() {
            // Each move is listed with a wall on each cell it may go on (the profile leaves out
            // hands and `must_capture`).
            let list_base = call(true, false, quote!(moves));
            let methods = quote! {
                fn legal_moves(&self, board: &Board, moves: &mut Vec<CompactMove>) {
                    let start = moves.len();
                    #list_all;
                    add_walls(board, moves, start);
                }

                fn count_legal_moves(&self, board: &Board) -> u64 {
                    thread_local! {
                        /// The moves counted, without their walls (kept to spare an allocation per count).
                        static SCRATCH: std::cell::RefCell<Vec<CompactMove>> = const { std::cell::RefCell::new(Vec::new()) };
                    }
                    SCRATCH.with_borrow_mut(|moves| {
                        moves.clear();
                        #list_base;
                        count_walls(board, moves)
                    })
                }
            };
            return (helpers, methods);
        }
        let gating = self.ir.hands.as_ref().and_then(|h| h.gating.as_ref());
        if self.ir.must_drop.is_none() && gating.is_none() {
            return (
                helpers,
                self.plain_methods(mc, &call, list_all, list_fn, count_fn),
            );
        }
        let mut gate = quote! {};
        if let (Some(zone), Some(hands)) = (gating, self.ir.hands.as_ref()) {
            // Per type and player: the cells it may be gated on (the zone and its drop zone).
            let zones = hands.drop_zones.iter().map(|per_player| {
                let cells = (0..2).map(|p| self.bits(per_player[p] & zone[p]));
                quote! { [#(#cells),*] }
            });
            helpers.extend(quote! {
                /// Per type and player: the cells where it may be gated.
                const GATE_CELLS: [[Bits; 2]; PIECES] = [#(#zones),*];

                /// Gating: adds, for each move from `start` on of a piece leaving its unmoved cell in
                /// the zone (for castling, the king's or the partner's), the same move bringing each
                /// type held onto that cell. Its legality is the move's: the gated piece shields
                /// nothing.
                fn add_gatings(board: &Board, moves: &mut Vec<CompactMove>, start: usize) {
                    let side = board.side as usize;
                    let hand = board.hands[side];
                    if hand.iter().all(|&n| n == 0) {
                        return;
                    }
                    let end = moves.len();
                    for i in start..end {
                        let mv = moves[i];
                        let cells = match mv.kind {
                            CompactKind::Normal => [#m_from, NO_CELL],
                            CompactKind::Castle => [#m_from, #m_aux],
                            _ => continue,
                        };
                        for cell in cells {
                            // A cell the move vacates, its piece unmoved.
                            if cell == NO_CELL || cell == #m_to || cell == #m_aux2 || board.virgin & bit(cell as usize) == 0 {
                                continue;
                            }
                            for piece in 0..PIECES {
                                if hand[piece] > 0 && GATE_CELLS[piece][side] & bit(cell as usize) != 0 {
                                    moves.push(#gate_move);
                                }
                            }
                        }
                    }
                }
            });
            gate = quote! { add_gatings(board, moves, start); };
        }
        let mut keep = quote! {};
        if let Some(condition) = &self.ir.must_drop {
            keep = quote! { keep_drops(board, moves, start); };
            let body = self.count_cond(condition);
            helpers.extend(quote! {
                /// Whether the `must_drop` condition holds for player `own`.
                fn must_drop_holds(board: &Board, own: usize) -> bool {
                    let _ = own;
                    #body
                }

                /// `must_drop`: keeps only the drops among the moves from `start` on, if one of
                /// them is a drop and the condition holds for the side to move.
                fn keep_drops(board: &Board, moves: &mut Vec<CompactMove>, start: usize) {
                    if moves[start..].iter().any(|m| m.kind == CompactKind::Drop) && must_drop_holds(board, board.side as usize) {
                        let mut kept = start;
                        for i in start..moves.len() {
                            if moves[i].kind == CompactKind::Drop {
                                moves[kept] = moves[i];
                                kept += 1;
                            }
                        }
                        moves.truncate(kept);
                    }
                }
            });
        }
        // Gating adds to the moves listed, captures included; under `must_capture`, `must_drop`
        // keeps the drops only when no capture is legal (as the interpreter decides).
        let all = quote! {
            let start = moves.len();
            #list_all;
            #gate
            #keep
        };
        let listed = if mc {
            let list_captures = call(true, true, quote!(moves));
            quote! {
                let start = moves.len();
                if #list_captures == 0 {
                    #all
                } else {
                    #gate
                }
            }
        } else {
            all
        };
        let methods = quote! {
            fn #list_fn(&self, board: &Board, moves: &mut Vec<CompactMove>) {
                #listed
            }

            fn #count_fn(&self, board: &Board) -> u64 {
                let mut moves = Vec::new();
                self.#list_fn(board, &mut moves);
                moves.len() as u64
            }
        };
        (helpers, methods)
    }

    /// The legal-move methods without gating or `must_drop`: counted in bulk where they can be.
    fn plain_methods(
        &self,
        mc: bool,
        call: &dyn Fn(bool, bool, TokenStream) -> TokenStream,
        list_all: TokenStream,
        list_fn: &proc_macro2::Ident,
        count_fn: &proc_macro2::Ident,
    ) -> TokenStream {
        if mc {
            // `must_capture`: the captures if any is legal, else every move.
            let list_captures = call(true, true, quote!(moves));
            let count_captures = call(false, true, quote!(&mut scratch));
            let count_all = call(false, false, quote!(&mut scratch));
            quote! {
                fn #list_fn(&self, board: &Board, moves: &mut Vec<CompactMove>) {
                    if #list_captures == 0 {
                        #list_all;
                    }
                }

                fn #count_fn(&self, board: &Board) -> u64 {
                    let mut scratch = Vec::new();
                    let captures = #count_captures;
                    if captures > 0 {
                        captures
                    } else {
                        scratch.clear();
                        #count_all
                    }
                }
            }
        } else {
            let count = call(false, false, quote!(&mut scratch));
            quote! {
                fn #list_fn(&self, board: &Board, moves: &mut Vec<CompactMove>) {
                    #list_all;
                }

                fn #count_fn(&self, board: &Board) -> u64 {
                    let mut scratch = Vec::new();
                    #count
                }
            }
        }
    }

    /// The walling rule (`turn { wall ... }`): the wall type's constants, placing and removing
    /// walls, and the cells a move's wall may go on.
    fn walls(&self) -> TokenStream {
        let all_after = self.all_colors(quote!(after));
        let all_board = self.all_colors(quote!(board));
        let no = self.no();
        let wall_move = self.move_code("wall_move");
        let m_to = self.mv_cell(CellField::To);
        let m_from = self.mv_cell(CellField::From);
        let zero = self.zero();
        let Some(walls) = &self.ir.walls else {
            return quote! {};
        };
        let piece = self.piece(walls.piece);
        let code = self.code(walls.piece, 0);
        let owner = Literal::usize_unsuffixed(walls.owner);
        let zone = walls.zone.iter().map(|&z| self.bits(z));
        // The cells a wall may go on, given `occupied` after the move, before the zone.
        let (tables, cells) = match &walls.cells {
            FastWallCells::Empty => (quote! {}, quote! { !occupied & ALL }),
            FastWallCells::Vacated => (
                quote! {},
                quote! {
                    match mv.kind {
                        CompactKind::Drop | CompactKind::Pass => #zero,
                        _ => bit(#m_from as usize) & !occupied,
                    }
                },
            ),
            FastWallCells::Reach(players) => {
                let leaps = players.iter().map(|m| self.per_cell(&m.quiet_leaps));
                let arms = players.iter().enumerate().map(|(player, m)| {
                    let player = Literal::usize_unsuffixed(player);
                    let slides = m.quiet_slides.iter().map(|&d| {
                        let slide = self.slide(d, quote!(to), quote!(occupied));
                        quote! { reached |= #slide; }
                    });
                    quote! {
                        #player => {
                            let mut reached = REACH_LEAPS[#player][to];
                            #(#slides)*
                            reached
                        }
                    }
                });
                (
                    quote! {
                        /// Per player and cell, the cells a wall reaches from there by leaps (`reach`).
                        static REACH_LEAPS: [[Bits; CELLS]; #no] = [#(#leaps),*];
                    },
                    quote! {{
                        let to = #m_to as usize;
                        let reached = match board.side {
                            #(#arms)*
                            _ => #zero,
                        };
                        reached & !occupied
                    }},
                )
            }
        };
        quote! {
            /// The wall type (`turn { wall ... }`): its pieces are nobody's and block every move.
            const WALL: usize = #piece;
            /// The mailbox code of a wall.
            const WALL_CODE: u8 = #code;
            /// The neutral side that owns the walls.
            const WALL_OWNER: usize = #owner;
            /// Per player, the cells a wall may go on.
            const WALL_ZONE: [Bits; 2] = [#(#zone),*];
            #tables

            impl Board {
                fn place_wall(&mut self, cell: usize) {
                    self.pieces[WALL] |= bit(cell);
                    self.cells[cell] = WALL_CODE;
                    self.hash ^= KEYS[WALL_CODE as usize * CELLS + cell];
                }

                fn remove_wall(&mut self, cell: usize) {
                    self.pieces[WALL] &= !bit(cell);
                    self.cells[cell] = EMPTY;
                    self.hash ^= KEYS[WALL_CODE as usize * CELLS + cell];
                }
            }

            /// The cells the wall of a move (without its wall) may go on, decided on the position
            /// after it.
            fn wall_cells(board: &Board, mv: CompactMove) -> Bits {
                let before = #all_board | board.pieces[WALL];
                let occupied = match mv.kind {
                    CompactKind::Normal | CompactKind::DoubleStep => (before & !bit(#m_from as usize)) | bit(#m_to as usize),
                    _ => {
                        let mut after = *board;
                        play(&mut after, mv);
                        #all_after | after.pieces[WALL]
                    }
                };
                (#cells) & WALL_ZONE[board.side as usize]
            }

            /// Replaces each move from `start` on by its variants with a wall on each cell it may
            /// go on; a move with none is not legal.
            fn add_walls(board: &Board, moves: &mut Vec<CompactMove>, start: usize) {
                let end = moves.len();
                for i in start..end {
                    let mv = moves[i];
                    let mut cells = wall_cells(board, mv);
                    while cells != 0 {
                        moves.push(#wall_move);
                        cells &= cells - 1;
                    }
                }
                moves.drain(start..end);
            }

            /// The number of moves with their walls the moves stand for.
            fn count_walls(board: &Board, moves: &[CompactMove]) -> u64 {
                moves.iter().map(|&mv| wall_cells(board, mv).count_ones() as u64).sum()
            }
        }
    }

    fn game(&self) -> TokenStream {
        let rows = self.rows();
        let all_board = self.all_colors(quote!(board));
        let cell_ty = self.cell_ty();
        let np = self.np();
        let no = self.no();
        let all_colors = {
            let all = (0..self.ir.owners).map(Literal::usize_unsuffixed);
            quote! { #(board.colors[#all])|* }
        };
        let (elimination_init, elimination_methods) = match (
            &self.ir.elimination,
            self.royal_bits(quote!(board)),
        ) {
            (Some(elimination), royal) => {
                let attacks = match (elimination.attacked_at_turn_start, royal) {
                    (true, Some(r)) => {
                        quote! {
                            // He checkmates every player still in the game whose royal piece he attacks.
                            for player in 0..#np {
                                if player != side && board.eliminated & (1 << player) == 0 {
                                    let royals = #r & board.colors[player];
                                    if !safe(board, royals, side, occupied, board.colors[side]) {
                                        return true;
                                    }
                                }
                            }
                        }
                    }
                    _ => quote! {},
                };
                (
                    quote! { eliminated: 0, dropped_among: [0; #np], mated_by: [0; #np], },
                    quote! {
                        fn turn_start_pending(&self, board: &Board) -> bool {
                            let side = board.side as usize;
                            let occupied: Bits = #all_colors;
                            let _ = (side, occupied);
                            #attacks
                            self.in_check(board) && self.count_legal_moves(board) == 0
                        }

                        fn elimination(&self, board: &Board) -> Option<vdl_runtime::compact::Elimination> {
                            let mut state = vdl_runtime::compact::Elimination { eliminated: board.eliminated, ..Default::default() };
                            state.dropped_among[..#np].copy_from_slice(&board.dropped_among);
                            state.mated_by[..#np].copy_from_slice(&board.mated_by);
                            Some(state)
                        }

                        fn set_elimination(&self, board: &mut Board, state: &vdl_runtime::compact::Elimination) {
                            board.eliminated = state.eliminated;
                            board.dropped_among.copy_from_slice(&state.dropped_among[..#np]);
                            board.mated_by.copy_from_slice(&state.mated_by[..#np]);
                        }
                    },
                )
            }
            _ => (quote! {}, quote! {}),
        };
        let (rights_init, rights_methods) = if self.ir.en_passant_lasts {
            let order = self
                .ir
                .turns
                .order
                .iter()
                .map(|&p| Literal::usize_unsuffixed(p));
            let slots = Literal::usize_unsuffixed(self.right_slots());
            // In the middle of a turn the side to move moved last.
            let start = if self.multi() {
                quote! { usize::from(board.turn_moves == 0) }
            } else {
                quote! { 1 }
            };
            (
                quote! { rights: [(NO_CELL, NO_CELL); #np * #slots], },
                quote! {
                    fn en_passant_rights(&self, board: &Board) -> Option<Vec<(usize, usize)>> {
                        // The latest first: from the player who moved last, back along the turn
                        // order, each player's latest first.
                        const ORDER: [usize; #np] = [#(#order),*];
                        let at = ORDER.iter().position(|&p| p == board.side as usize).unwrap_or(0);
                        let start = #start;
                        let rights = (start..start + #np)
                            .flat_map(|back| {
                                let player = ORDER[(at + #np * 2 - back) % #np];
                                (0..RIGHT_SLOTS).rev().map(move |k| board.rights[player * RIGHT_SLOTS + k])
                            })
                            .filter(|&(target, _)| target != NO_CELL)
                            .map(|(target, victim)| (target as usize, victim as usize))
                            .collect();
                        Some(rights)
                    }

                    fn set_en_passant_rights(&self, board: &mut Board, rights: &[(usize, usize)]) {
                        // The single right of `set_state` is not used; each player's rights fill his
                        // slots oldest first (the list gives the latest first).
                        board.en_passant = NO_CELL;
                        board.victim = NO_CELL;
                        for &(target, victim) in rights.iter().rev() {
                            let code = board.cells[victim];
                            if code != EMPTY && target < CELLS {
                                let base = ((code as usize - 1) % #no) * RIGHT_SLOTS;
                                if let Some(slot) = (base..base + RIGHT_SLOTS).find(|&s| board.rights[s].0 == NO_CELL) {
                                    board.rights[slot] = (target as #cell_ty, victim as #cell_ty);
                                }
                            }
                        }
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };

        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let (put_wall, occupant_wall) = if self.ir.walls.is_some() {
            (
                quote! {
                    if occupant.owner() == WALL_OWNER {
                        board.place_wall(cell);
                        return;
                    }
                },
                quote! {
                    if code == WALL_CODE {
                        return Occupant::new(WALL, WALL_OWNER, false, false);
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let mut tests = Vec::new();
        let mut potentials = Vec::new();
        // An end condition as a function of the board and `own`, added to `functions`; its name.
        let condition_fn =
            |functions: &mut Vec<TokenStream>, prefix: &str, doc: &str, condition: &FastCond| {
                let name = format_ident!("{}_{}", prefix, functions.len());
                let body = self.count_cond(condition);
                functions.push(quote! {
                    #[doc = #doc]
                    fn #name(board: &Board, own: usize) -> bool {
                        let _ = own;
                        #body
                    }
                });
                name
            };
        for end in &self.ir.early_ends {
            if let Some(test) = self.turn_early_end(end) {
                tests.push(test);
                continue;
            }
            let mask = |pieces: &[usize]| {
                let items = pieces.iter().map(|&p| self.piece(p));
                quote! { (#zero #(| board.pieces[#items])*) }
            };
            tests.push(match end {
                EarlyEnd::Checkmated => quote! { board.eliminated != 0 || board.mated_by.iter().any(|&m| m != 0) },
                EarlyEnd::CountOver => quote! {
                    board.count.is_some_and(|[begin, plies, limit]| begin as u32 + plies as u32 / 2 > limit as u32)
                },
                EarlyEnd::BareRoyal(royals) => match royals.as_slice() {
                    [] => quote! { true },
                    royals => {
                        let r = mask(royals);
                        quote! { board.colors[0] & !#r == 0 || board.colors[1] & !#r == 0 }
                    }
                },
                EarlyEnd::Reached(pieces, zones) if self.many() => {
                    let mask = mask(pieces);
                    let reached = zones.iter().take(self.ir.players).enumerate().map(|(p, &z)| {
                        let (p, z) = (Literal::usize_unsuffixed(p), self.bits(z));
                        quote! { (board.colors[#p] & #z) }
                    });
                    quote! { #mask & (#(#reached)|*) != 0 }
                }
                EarlyEnd::Reached(pieces, zones) => {
                    let mask = mask(pieces);
                    let (zone0, zone1) = (self.bits(zones[0]), self.bits(zones[1]));
                    quote! { #mask & ((board.colors[0] & #zone0) | (board.colors[1] & #zone1)) != 0 }
                }
                EarlyEnd::Extinct(Some(pieces)) => {
                    let mask = mask(pieces);
                    let players = (0..self.ir.players).map(Literal::usize_unsuffixed);
                    quote! { #(#mask & board.colors[#players] == 0)||* }
                }
                EarlyEnd::Extinct(None) => {
                    let players = (0..self.ir.players).map(Literal::usize_unsuffixed);
                    quote! { #(board.colors[#players] == 0)||* }
                }
                EarlyEnd::MoveRule(plies) => {
                    let plies = Literal::u32_unsuffixed(*plies);
                    quote! { board.halfmove >= #plies }
                }
                EarlyEnd::Checks(n) => {
                    let n = Literal::u32_unsuffixed(*n);
                    quote! { board.checks[0] >= #n || board.checks[1] >= #n }
                }
                EarlyEnd::Insufficient(condition) => {
                    let name = condition_fn(
                        &mut potentials,
                        "mating_potential",
                        " Whether player `own` has mating potential by the `insufficient_material` rule.",
                        condition,
                    );
                    quote! { !#name(board, 0) && !#name(board, 1) }
                }
                EarlyEnd::NoneOf(pieces) => {
                    let mask = mask(pieces);
                    quote! { #mask == 0 }
                }
                // Every player still in the game passed on his latest turn.
                EarlyEnd::AllPass => match (self.ir.players, &self.ir.elimination) {
                    (2, _) => quote! { board.passes >= 2 },
                    (n, None) => {
                        let n = Literal::u32_unsuffixed(n as u32);
                        quote! { board.passes >= #n }
                    }
                    (n, Some(_)) => {
                        let n = Literal::u32_unsuffixed(n as u32);
                        quote! { board.passes >= (#n - board.eliminated.count_ones()).max(1) }
                    }
                },
                EarlyEnd::Facing(n) => {
                    let passes = if self.ir.pass != Pass::Never {
                        quote! { board.passes }
                    } else {
                        quote! { 0u32 }
                    };
                    let n = Literal::u32_unsuffixed(*n);
                    let r = self.piece(self.ir.royal.expect("facing needs a royal piece"));
                    quote! {
                        #passes + 1 >= #n && royals_facing(#all_board, board.pieces[#r] & board.colors[0], board.pieces[#r] & board.colors[1])
                    }
                }
                EarlyEnd::Result(condition) => {
                    let name = condition_fn(
                        &mut potentials,
                        "result",
                        " Whether the condition of a `result` rule holds, with the side to move as `own`.",
                        condition,
                    );
                    quote! { #name(board, board.side as usize) }
                }
                EarlyEnd::Captures(..) | EarlyEnd::Formation(_) => unreachable!("turn_early_end"),
            });
        }
        let may_end = if tests.is_empty() {
            quote! { let _ = board; false }
        } else {
            quote! { #((#tests))||* }
        };
        let in_check = match self.royal_bits(quote!(board)) {
            Some(r) => {
                if self.many() {
                    let players = self.ir.players;
                    let all = (0..players).map(Literal::usize_unsuffixed);
                    let royals = self.royal_gate(
                        quote! { #r & board.colors[us] },
                        quote!(board),
                        quote!(us),
                    );
                    quote! {
                        let us = board.side as usize;
                        let royals = #royals;
                        let occupied = #(board.colors[#all])|*;
                        !safe(board, royals, #players + us, occupied, occupied & !board.colors[us])
                    }
                } else {
                    let royals = self.royal_gate(
                        quote! { #r & board.colors[us] },
                        quote!(board),
                        quote!(us),
                    );
                    quote! {
                        let us = board.side as usize;
                        let them = 1 - us;
                        let royals = #royals;
                        !safe(board, royals, them, #all_board, board.colors[them])
                    }
                }
            }
            None => quote! { let _ = board; false },
        };
        let (count_init, count_methods) = if self.ir.counting.is_some() {
            (
                quote! { count: None, },
                quote! {
                    fn count(&self, board: &Board) -> Option<[u16; 3]> {
                        board.count
                    }

                    fn set_count(&self, board: &mut Board, count: Option<[u16; 3]>) {
                        board.count = count;
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let (checks_init, checks_methods) = if self.ir.counts_checks {
            (
                quote! { checks: [0; 2], },
                quote! {
                    fn checks(&self, board: &Board) -> [u32; 2] {
                        board.checks
                    }

                    fn set_checks(&self, board: &mut Board, checks: [u32; 2]) {
                        board.checks = checks;
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let (passes_init, passes_methods) = if self.ir.pass != Pass::Never {
            (
                quote! { passes: 0, },
                quote! {
                    fn passes(&self, board: &Board) -> u32 {
                        board.passes
                    }

                    fn set_passes(&self, board: &mut Board, passes: u32) {
                        board.passes = passes;
                    }
                },
            )
        } else {
            (quote! {}, quote! {})
        };
        let switch_list = self.ir.switches.iter().map(|&(piece, rule)| {
            let (piece, rule) = (
                Literal::usize_unsuffixed(piece),
                Literal::usize_unsuffixed(rule),
            );
            quote! { (#piece, #rule) }
        });
        let (helpers, legal_moves) = self.legal_moves();
        let (_, stack_init, _, _) = self.stack_board();
        let stack_game = self.stack_game_methods();
        let single_count = if self.ir.pass == Pass::WhenStuck {
            format_ident!("count_but_pass")
        } else {
            format_ident!("count_legal_moves")
        };
        let waiting = self.waiting_board();
        let (waiting_init, waiting_put, waiting_occupant) =
            (waiting.init, waiting.put, waiting.occupant);
        let [turn_init, turn_methods, turn_put, turn_occupant, turn_make] =
            self.turn_game(&single_count);
        let shared = if self.ir.hands.as_ref().is_some_and(|h| h.shared) {
            quote! {
                fn shared_reserve(&self) -> bool {
                    true
                }
            }
        } else {
            quote! {}
        };
        let (rule_switch_field, rule_switch_items, rule_switch_methods, rules_init) =
            if self.ir.rule_switches.is_empty() {
                (quote! {}, quote! {}, shared, quote! {})
            } else {
                let n = Literal::usize_unsuffixed(self.ir.rule_switches.len());
                let list = self.ir.rule_switches.iter().map(|&(rule, condition)| {
                    let (rule, condition) = (
                        Literal::usize_unsuffixed(rule),
                        Literal::usize_unsuffixed(condition),
                    );
                    quote! { (#rule, #condition) }
                });
                (
                    quote! { rule_switches: [bool; RULE_SWITCHES], },
                    quote! {
                        /// The number of option switches of rules on captures.
                        const RULE_SWITCHES: usize = #n;
                        /// The conditions of rules on captures switched by options: (rule index,
                        /// condition index).
                        static RULE_SWITCHED: [(usize, usize); RULE_SWITCHES] = [#(#list),*];
                    },
                    quote! {
                        #shared

                        fn rule_switches(&self) -> &'static [(usize, usize)] {
                            &RULE_SWITCHED
                        }

                        fn set_rule_switches(&mut self, values: &[bool]) {
                            for (switch, &value) in self.rule_switches.iter_mut().zip(values) {
                                *switch = value;
                            }
                        }
                    },
                    quote! { rules_on: self.rule_switches, },
                )
            };
        quote! {
            #helpers
            #(#potentials)*

            /// The compact form of this game: the option switches of its promotion rules.
            #[derive(Clone, Copy, Debug, Default)]
            pub struct Fast {
                switches: [bool; SWITCHES],
                #rule_switch_field
            }

            /// The promotion rules switched by options: (piece type, rule index).
            static SWITCHED: [(usize, usize); SWITCHES] = [#(#switch_list),*];
            #rule_switch_items

            impl CompactGame for Fast {
                type Position = Board;
                #rule_switch_methods

                fn switches(&self) -> &'static [(usize, usize)] {
                    &SWITCHED
                }

                fn set_switches(&mut self, values: &[bool]) {
                    for (switch, &value) in self.switches.iter_mut().zip(values) {
                        *switch = value;
                    }
                }

                fn empty(&self) -> Board {
                    Board {
                        pieces: [#zero; PIECES],
                        colors: [#zero; #no],
                        virgin: #zero,
                        promoted: #zero,
                        cells: [EMPTY; CELLS],
                        hands: [[0; PIECES]; #rows],
                        #rights_init
                        #elimination_init
                        last: None,
                        side: 0,
                        en_passant: NO_CELL,
                        victim: NO_CELL,
                        halfmove: 0,
                        fullmove: 1,
                        hash: 0,
                        #checks_init
                        #count_init
                        #passes_init
                        #stack_init
                        #turn_init
                        #waiting_init
                        #rules_init
                    }
                }

                fn put(&self, board: &mut Board, cell: usize, occupant: Occupant) {
                    #put_wall
                    board.place(cell, (1 + occupant.piece() * #no + occupant.owner()) as u8);
                    if occupant.is_virgin() {
                        board.virgin |= bit(cell);
                    }
                    if occupant.is_promoted() {
                        board.promoted |= bit(cell);
                    }
                    #turn_put
                    #waiting_put
                }

                fn occupant(&self, board: &Board, cell: usize) -> Occupant {
                    let code = board.cells[cell];
                    if code == EMPTY {
                        return Occupant::EMPTY;
                    }
                    #occupant_wall
                    let code = code as usize - 1;
                    Occupant::new(code / #no, code % #no, board.virgin & bit(cell) != 0, board.promoted & bit(cell) != 0) #turn_occupant #waiting_occupant
                }

                fn set_state(&self, board: &mut Board, state: CompactState) {
                    board.side = state.side as u8;
                    let (target, victim) = state.en_passant.map_or((NO_CELL, NO_CELL), |(t, v)| (t as #cell_ty, v as #cell_ty));
                    board.en_passant = target;
                    board.victim = victim;
                    board.halfmove = state.halfmove;
                    board.fullmove = state.fullmove;
                    board.last = state.last;
                }

                fn state(&self, board: &Board) -> CompactState {
                    CompactState {
                        side: board.side as usize,
                        en_passant: (board.en_passant != NO_CELL).then_some((board.en_passant as usize, board.victim as usize)),
                        halfmove: board.halfmove,
                        fullmove: board.fullmove,
                        last: board.last,
                    }
                }

                #checks_methods
                #count_methods

                #passes_methods

                #stack_game
                #turn_methods

                #rights_methods
                #elimination_methods

                fn set_hand(&self, board: &mut Board, player: usize, piece: usize, count: u8) {
                    board.hands[player][piece] = count;
                }

                fn hand(&self, board: &Board, player: usize, piece: usize) -> u8 {
                    board.hands[player][piece]
                }

                fn refresh_hash(&self, board: &mut Board) {
                    board.hash = board.computed_hash();
                }

                fn hash(&self, board: &Board) -> u64 {
                    board.hash
                }

                #legal_moves

                fn make(&self, board: &mut Board, mv: CompactMove) {
                    play(board, mv);
                    #turn_make
                }

                fn may_have_ended(&self, board: &Board) -> bool {
                    #may_end
                }

                fn in_check(&self, board: &Board) -> bool {
                    #in_check
                }

                fn pieces<'a>(&'a self, board: &'a Board) -> impl Iterator<Item = (usize, Occupant)> + 'a {
                    let mut occupied = #all_colors;
                    std::iter::from_fn(move || {
                        if occupied == 0 {
                            return None;
                        }
                        let cell = occupied.trailing_zeros() as usize;
                        occupied &= occupied - 1;
                        let code = board.cells[cell] as usize - 1;
                        Some((cell, Occupant::new(code / #no, code % #no, board.virgin & bit(cell) != 0, board.promoted & bit(cell) != 0) #waiting_occupant))
                    })
                }
            }

            /// Builds the compact engine: the generated position and moves, with the interpreter of the
            /// embedded rule file for text and outcomes.
            ///
            /// # Errors
            ///
            /// Returns a message when the embedded rule file does not check (it did when it was compiled).
            pub fn fast_engine() -> Result<Compiled<Fast>, String> {
                let checked = vdl_dsl::check::check_source(SOURCE);
                let game = checked.game.ok_or_else(|| format!("{} does not check", NAME))?;
                Ok(Compiled::new(Fast::default(), vdl_runtime::Interpreter::new(game)?))
            }
        }
    }
}

// Stacks and moves under conditions on the mover, its hurdle and the stacks.
impl Emitter<'_> {
    /// The tables of stacking rules (`STACK_STEPS_<piece>_<k>`: per player, per cell, the cells a
    /// step reaches) and of moves under conditions (`COND_QUIET_<piece>_<k>`, `COND_PATHS_<piece>_<k>`).
    fn stack_tables(&self) -> TokenStream {
        let rows = self.rows();
        let np = self.np();
        let no = self.no();
        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let ir = self.ir;
        let mut items = Vec::new();
        if ir.stacking {
            // After the hand keys and the keys of checks.
            let start = if ir.counts_checks {
                quote! { CHECK_KEYS + 2 }
            } else {
                quote! { HAND_KEYS + #rows * PIECES }
            };
            items.push(quote! {
                /// The keys of stacks: per cell, multiplied by the piece below (its occupant's bits).
                const STACK_KEYS: usize = #start;
            });
        }
        for (index, piece) in ir.pieces.iter().enumerate() {
            for (k, merge) in piece.merges.iter().enumerate() {
                let name = format_ident!("MERGE_STEPS_{}_{}", index, k);
                let players = merge.steps.iter().map(|s| self.per_cell(s));
                let doc = format!(
                    "The cells the {} merges onto by a step of its merger rule (in its zone), per player and cell.",
                    piece.name
                );
                items.push(
                    quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #np] = [#(#players),*]; },
                );
            }
            for (k, stack) in piece.stacks.iter().enumerate() {
                let name = format_ident!("STACK_STEPS_{}_{}", index, k);
                let players = stack.steps.iter().map(|s| self.per_cell(s));
                let doc = format!(
                    "The cells the {} climbs onto by a step of its stacking rule, per player and cell.",
                    piece.name
                );
                items.push(
                    quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #no] = [#(#players),*]; },
                );
            }
            let blocks = piece.players[0].conditional.len();
            let sides = piece.players.len();
            for k in 0..blocks {
                let block = |p: usize| &piece.players[p].conditional[k];
                // The capturing leaps and, per target, the cells they attack it from.
                let leap_tables: [(BlockTable, &str, _); 2] = [
                    (
                        |b| &b.capture_leaps,
                        "Capturing leaps of the {} under a condition, per player and cell.",
                        format_ident!("COND_CAPTURE_{}_{}", index, k),
                    ),
                    (
                        |b| &b.attacked_from,
                        "The cells the {}'s capturing leaps under a condition attack each cell from, per player.",
                        format_ident!("COND_ATTACKED_FROM_{}_{}", index, k),
                    ),
                ];
                for (of, what, name) in leap_tables {
                    if (0..sides).any(|p| of(block(p)).iter().any(|&b| b != 0)) {
                        let players = (0..sides).map(|p| self.per_cell(of(block(p))));
                        let doc = what.replace("{}", &piece.name);
                        items.push(quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #no] = [#(#players),*]; });
                    }
                }
                if (0..sides).any(|p| block(p).quiet_leaps.iter().any(|&b| b != 0)) {
                    let name = format_ident!("COND_QUIET_{}_{}", index, k);
                    let players = (0..sides).map(|p| self.per_cell(&block(p).quiet_leaps));
                    let doc = format!(
                        "Quiet leaps of the {} under a condition, per player and cell.",
                        piece.name
                    );
                    items.push(quote! { #[doc = #doc] static #name: [[Bits; CELLS]; #no] = [#(#players),*]; });
                }
                let width = (0..sides)
                    .flat_map(|p| block(p).paths.iter().map(Vec::len))
                    .max()
                    .unwrap_or(0);
                if width > 0 {
                    let name = format_ident!("COND_PATHS_{}_{}", index, k);
                    let w = Literal::usize_unsuffixed(width);
                    let players = (0..sides).map(|p| {
                        let rows = block(p).paths.iter().map(|row| {
                            let entries = (0..width).map(|i| match row.get(i) {
                                Some(path) => {
                                    let to = self.cell_lit(Some(path.to));
                                    let (empty, occupied) =
                                        (self.bits(path.empty), self.bits(path.occupied));
                                    quote! { (#to, #empty, #occupied) }
                                }
                                None => quote! { (NO_CELL, #zero, #zero) },
                            });
                            quote! { [#(#entries),*] }
                        });
                        quote! { [#(#rows),*] }
                    });
                    let doc = format!(
                        "Quiet moves of several legs of the {} under a condition: (target, cells that must be empty, cells that must be occupied).",
                        piece.name
                    );
                    items.push(quote! { #[doc = #doc] static #name: [[[(#cell_ty, Bits, Bits); #w]; CELLS]; #no] = [#(#players),*]; });
                }
            }
        }
        quote! { #(#items)* }
    }

    /// The player a [`FastOwners`] names, as an index expression over `own`.
    fn owner_index(owners: FastOwners) -> TokenStream {
        match owners {
            FastOwners::Own | FastOwners::ToMove => quote! { own },
            FastOwners::Opponent => quote! { (1 - own) },
            FastOwners::Player(p) => {
                let p = Literal::usize_unsuffixed(p);
                quote! { #p }
            }
            // `mover_side` never gives both players.
            FastOwners::Both => quote! { own },
        }
    }

    /// A [`MoveCond`] as a Rust `bool` expression over `board`, `own` (the mover's owner), `from`
    /// and, when it names the hurdle, `hurdle`.
    fn move_cond(&self, c: &MoveCond) -> TokenStream {
        let zero = self.zero();
        match c {
            MoveCond::Const(b) => quote! { #b },
            MoveCond::Not(inner) => {
                let inner = self.move_cond(inner);
                quote! { !(#inner) }
            }
            MoveCond::All(parts) => all_of(parts.iter().map(|p| self.move_cond(p))),
            MoveCond::Any(parts) => any_of(parts.iter().map(|p| self.move_cond(p))),
            MoveCond::MoverStacked => quote! { (board.stacked & bit(from) != 0) },
            MoveCond::HurdleStacked => quote! { (board.stacked & bit(hurdle) != 0) },
            MoveCond::HurdleType(types) => {
                let types = types.iter().map(|&t| self.piece(t));
                quote! { ((#zero #(| board.pieces[#types])*) & bit(hurdle) != 0) }
            }
            MoveCond::HurdleOwner(owners) => {
                let owner = Self::owner_index(*owners);
                quote! { (board.colors[#owner] & bit(hurdle) != 0) }
            }
            MoveCond::Compare(op, a, b) => {
                let (a, b) = (self.move_int(a), self.move_int(b));
                let op = compare_op(*op);
                quote! { ((#a) #op (#b)) }
            }
            MoveCond::Between(n, lo, hi) => {
                let n = self.move_int(n);
                let (lo, hi) = (Literal::i64_suffixed(*lo), Literal::i64_suffixed(*hi));
                quote! { (#lo..=#hi).contains(&(#n)) }
            }
            MoveCond::Eliminated(owners) => {
                let owner = Self::owner_index(*owners);
                quote! { (board.eliminated & (1 << #owner) != 0) }
            }
            MoveCond::MoverOn(cells) => {
                let cells = self.bits(*cells);
                quote! { (bit(from) & #cells != 0) }
            }
            MoveCond::MoverAttacked => {
                let all = self.all_colors(quote!(board));
                quote! { attacked(board, from, 1 - own, #all, board.colors[1 - own]) }
            }
        }
    }

    /// In a loop over the cells `from` of a player's pieces: `continue` unless the condition holds
    /// for `player` (`own`); nothing without one.
    fn skip_unless(&self, condition: Option<&MoveCond>, player: &TokenStream) -> TokenStream {
        match condition {
            Some(c) => {
                let c = self.move_cond(c);
                quote! {
                    if !{ let own: usize = #player; let _ = own; #c } {
                        continue;
                    }
                }
            }
            None => quote! {},
        }
    }

    /// A [`MoveInt`] as a Rust `i64` expression over `board` and `own`.
    fn move_int(&self, n: &MoveInt) -> TokenStream {
        match n {
            MoveInt::Add(a, b) => {
                let (a, b) = (self.move_int(a), self.move_int(b));
                quote! { (#a).saturating_add(#b) }
            }
            MoveInt::Sub(a, b) => {
                let (a, b) = (self.move_int(a), self.move_int(b));
                quote! { (#a).saturating_sub(#b) }
            }
            MoveInt::StackCount(owners) => {
                let owner = Self::owner_index(*owners);
                quote! { ((board.stacked & board.colors[#owner]).count_ones() as i64) }
            }
            MoveInt::Count(int) => self.count_int(int),
        }
    }

    /// The targets a piece type's moves under conditions add for player `us` from `from`
    /// (statements joining the piece's `targets`).
    fn conditional_targets(
        &self,
        index: usize,
        us: usize,
        takes: &TokenStream,
    ) -> Vec<TokenStream> {
        let piece = &self.ir.pieces[index];
        let us_literal = self.player_lit(us);
        let mut out = Vec::new();
        for (k, block) in piece.players[us].conditional.iter().enumerate() {
            let condition = self.move_cond(&block.condition);
            let leaps = piece
                .players
                .iter()
                .any(|m| m.conditional[k].quiet_leaps.iter().any(|&b| b != 0));
            let has_paths = piece
                .players
                .iter()
                .any(|m| m.conditional[k].paths.iter().any(|p| !p.is_empty()));
            let leaps = if leaps {
                let table = format_ident!("COND_QUIET_{}_{}", index, k);
                quote! { targets |= #table[#us_literal][from] & cx.empty; }
            } else {
                quote! {}
            };
            let capture_leaps = piece
                .players
                .iter()
                .any(|m| m.conditional[k].capture_leaps.iter().any(|&b| b != 0));
            let leaps = if capture_leaps {
                let table = format_ident!("COND_CAPTURE_{}_{}", index, k);
                quote! {
                    #leaps
                    targets |= #table[#us_literal][from] & #takes;
                }
            } else {
                leaps
            };
            let per_path = block.condition.names_hurdle();
            let paths = if has_paths {
                let table = format_ident!("COND_PATHS_{}_{}", index, k);
                let test = if per_path {
                    quote! {
                        let hurdle = full.trailing_zeros() as usize;
                        let own: usize = #us_literal;
                        let _ = own;
                        if !(#condition) {
                            continue;
                        }
                    }
                } else {
                    quote! {}
                };
                quote! {
                    for &(to, empty, full) in #table[#us_literal][from].iter() {
                        if to == NO_CELL {
                            break;
                        }
                        if cx.occupied & empty != 0 || cx.occupied & full != full || cx.empty & bit(to as usize) == 0 {
                            continue;
                        }
                        #test
                        targets |= bit(to as usize);
                    }
                }
            } else {
                quote! {}
            };
            // Cannon hops: the condition is tested with the screen as the hurdle when it names it.
            let mut directions = block.quiet_hops.clone();
            for &d in &block.capture_hops {
                if !directions.contains(&d) {
                    directions.push(d);
                }
            }
            directions.sort_unstable();
            let hops = directions.into_iter().map(|d| {
                let ray = Self::ray(d);
                let screen = self.first(d, quote!(blockers));
                let at = self.first(d, quote!(beyond));
                let capture = if block.capture_hops.contains(&d) {
                    quote! { targets |= bit(at) & #takes; }
                } else {
                    quote! {}
                };
                let quiet = block.quiet_hops.contains(&d);
                let land = if quiet {
                    quote! {
                        if beyond == 0 {
                            targets |= after & cx.empty;
                        } else {
                            let at = #at;
                            targets |= (after ^ #ray[at] ^ bit(at)) & cx.empty;
                            #capture
                        }
                    }
                } else {
                    quote! {
                        if beyond != 0 {
                            let at = #at;
                            #capture
                        }
                    }
                };
                let hoppable = if piece.cannot_hop {
                    quote! { && unhoppable(board) & bit(#screen) == 0 }
                } else {
                    quote! {}
                };
                let test = if per_path {
                    quote! {
                        let own: usize = #us_literal;
                        let _ = own;
                        #condition
                    }
                } else {
                    quote! { true }
                };
                quote! {{
                    let blockers = #ray[from] & cx.occupied;
                    if blockers != 0 #hoppable {
                        let hurdle = #screen;
                        if { #test } {
                            let after = #ray[hurdle];
                            let beyond = after & cx.occupied;
                            #land
                        }
                    }
                }}
            });
            let hops = quote! { #(#hops)* };
            if per_path {
                out.push(quote! {{ #paths #hops }});
            } else {
                out.push(quote! {
                    if { let own: usize = #us_literal; let _ = own; #condition } {
                        #leaps
                        #paths
                        #hops
                    }
                });
            }
        }
        out
    }

    /// The merger moves of player `us` (blocks counting and, with `LIST`, listing them): one step
    /// onto a piece of his of the listed types, tested as a move onto an empty cell would be.
    fn merge_moves(&self, us: usize) -> Vec<TokenStream> {
        let normal = self.normal();
        let zero = self.zero();
        let us_literal = self.player_lit(us);
        let mut out = Vec::new();
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            let piece_index = self.piece(index);
            for (k, merge) in piece.merges.iter().enumerate() {
                let table = format_ident!("MERGE_STEPS_{}_{}", index, k);
                let onto = self.pieces_of(&merge.onto);
                let into = Literal::u8_unsuffixed(merge.into as u8 + 1);
                let condition = self.skip_unless(merge.condition.as_ref(), &us_literal);
                out.push(quote! {{
                    let onto: Bits = (#onto) & own;
                    let mut movers = board.pieces[#piece_index] & own;
                    while movers != 0 {
                        let from = movers.trailing_zeros() as usize;
                        movers &= movers - 1;
                        #condition
                        let targets = #table[#us_literal][from] & onto;
                        if targets == #zero {
                            continue;
                        }
                        let tested = if check(&cx, from) { targets } else { targets & cx.risky };
                        let mut set = targets;
                        if !LIST {
                            count += (targets & !tested).count_ones() as u64;
                            set = tested;
                        }
                        while set != 0 {
                            let to = set.trailing_zeros() as usize;
                            set &= set - 1;
                            if tested & bit(to) != 0 && !legal_after(board, &cx, them, from, to, #zero) {
                                continue;
                            }
                            count += 1;
                            if LIST {
                                out.push(CompactMove { kind: CompactKind::Merge, ..#normal(from, to, #into) });
                            }
                        }
                    }
                }});
            }
        }
        out
    }

    /// The stacking moves of player `us` (blocks counting and, with `LIST`, listing them).
    fn stacking_moves(&self, us: usize) -> Vec<TokenStream> {
        let normal = self.normal();
        let us_literal = self.player_lit(us);
        let mut out = Vec::new();
        for (index, piece) in self.ir.pieces.iter().enumerate() {
            let piece_index = self.piece(index);
            for (k, stack) in piece.stacks.iter().enumerate() {
                let table = format_ident!("STACK_STEPS_{}_{}", index, k);
                let condition = match &stack.condition {
                    Some(c) => {
                        let c = self.move_cond(c);
                        quote! {{ let own: usize = #us_literal; let _ = own; #c }}
                    }
                    None => quote! { true },
                };
                let onto = self.pieces_of(&stack.onto);
                let movable = self.movable().1;
                out.push(quote! {{
                    let onto: Bits = (#onto) & !board.stacked;
                    let mut movers = board.pieces[#piece_index] & #movable;
                    while movers != 0 {
                        let from = movers.trailing_zeros() as usize;
                        movers &= movers - 1;
                        if !#condition {
                            continue;
                        }
                        let mut targets = #table[#us_literal][from] & onto;
                        count += targets.count_ones() as u64;
                        if LIST {
                            let kind = if board.stacked & bit(from) != 0 { CompactKind::Restack } else { CompactKind::Stack };
                            while targets != 0 {
                                let to = targets.trailing_zeros() as usize;
                                targets &= targets - 1;
                                out.push(CompactMove { kind, ..#normal(from, to, 0) });
                            }
                        }
                    }
                }});
            }
        }
        out
    }

    /// The position's stack fields, their initial values, their part of the hash and the
    /// board's stack methods.
    fn stack_board(&self) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
        let no = self.no();
        let zero = self.zero();
        if !self.ir.stacking {
            return (quote! {}, quote! {}, quote! {}, quote! {});
        }
        let (freeze_below, thaw_below) = self.frozen_below();
        (
            quote! {
                /// The cells holding a stack (a piece under the top piece, which alone is in the
                /// other bitboards and the mailbox).
                stacked: Bits,
                /// Per stacked cell, the piece below: its occupant's bits.
                below: [u16; CELLS],
            },
            quote! {
                stacked: #zero,
                below: [0; CELLS],
            },
            quote! {
                let mut stacks = self.stacked;
                while stacks != 0 {
                    let cell = stacks.trailing_zeros() as usize;
                    stacks &= stacks - 1;
                    hash ^= stack_key(cell, self.below[cell]);
                }
            },
            quote! {
                impl Board {
                    /// A stacking move's first half: the piece on `to` goes under (it leaves the
                    /// bitboards and the mailbox, kept with its flags in `below`).
                    fn stack_onto(&mut self, to: usize) {
                        let code = self.cells[to] as u16;
                        let piece = (code - 1) / #no;
                        let owner = (code - 1) % #no;
                        let mut below = (piece + 1) | (owner << 8);
                        if self.virgin & bit(to) != 0 {
                            below |= 1 << 12;
                        }
                        if self.promoted & bit(to) != 0 {
                            below |= 1 << 13;
                        }
                        #freeze_below
                        self.remove(to);
                        self.virgin &= !bit(to);
                        self.promoted &= !bit(to);
                        self.below[to] = below;
                        self.stacked |= bit(to);
                        self.hash ^= stack_key(to, below);
                    }

                    /// The top piece of the stack on `from` has left it (the cell is empty): the
                    /// piece below stands free there again, with its flags.
                    fn unstack(&mut self, from: usize) {
                        let below = self.below[from];
                        self.hash ^= stack_key(from, below);
                        self.stacked &= !bit(from);
                        self.below[from] = 0;
                        let piece = (below & 0xff) as usize - 1;
                        let owner = ((below >> 8) & 0xf) as usize;
                        self.place(from, (1 + piece * #no + owner) as u8);
                        if below & (1 << 12) != 0 {
                            self.virgin |= bit(from);
                        }
                        if below & (1 << 13) != 0 {
                            self.promoted |= bit(from);
                        }
                        #thaw_below
                    }
                }

                /// The key of a stack on `cell` with the piece `below` under its top piece.
                fn stack_key(cell: usize, below: u16) -> u64 {
                    (KEYS[STACK_KEYS + cell] | 1).wrapping_mul(below as u64)
                }
            },
        )
    }

    /// What make does for stacks in the arm of normal moves: before the move (the piece on `to`
    /// goes under the mover) and after it (the piece under the mover's start cell stands free).
    fn stack_make(&self) -> (TokenStream, TokenStream) {
        if !self.ir.stacking {
            return (quote! {}, quote! {});
        }
        (
            quote! {
                if kind.stacks() {
                    board.stack_onto(to);
                }
            },
            quote! {
                if kind.leaves_stack() {
                    board.unstack(from);
                }
            },
        )
    }

    /// The `CompactGame` methods of stacks (reading and writing them for the interpreter's text).
    fn stack_game_methods(&self) -> TokenStream {
        if !self.ir.stacking {
            return quote! {};
        }
        quote! {
            fn stacks(&self, board: &Board) -> Vec<(usize, Occupant)> {
                let mut out = Vec::new();
                let mut stacks = board.stacked;
                while stacks != 0 {
                    let cell = stacks.trailing_zeros() as usize;
                    stacks &= stacks - 1;
                    out.push((cell, Occupant::from_bits(board.below[cell])));
                }
                out
            }

            fn put_below(&self, board: &mut Board, cell: usize, occupant: Occupant) {
                if occupant.is_empty() {
                    return;
                }
                board.stacked |= bit(cell);
                board.below[cell] = occupant.bits();
            }
        }
    }
}

/// Turns of several single moves, frozen pieces and the capture counters (`FastIr::turns`).
impl Emitter<'_> {
    /// Whether a turn has several single moves.
    fn multi(&self) -> bool {
        self.ir.turns.moves > 1
    }

    /// How many Zobrist keys the turn's state needs after the hand keys and the `before` keys that
    /// follow them (checks, stacks), and the constants naming them: one for the single moves made in the turn, one per cell for the
    /// frozen pieces, one per player and piece type for the capture counters.
    fn turn_keys(&self, before: usize) -> (usize, Vec<TokenStream>) {
        let rows = self.rows();
        let turns = &self.ir.turns;
        let mut count = 0;
        let mut items = Vec::new();
        let base = Literal::usize_unsuffixed(before);
        let mut at = |count: &mut usize, name: &str, n: usize| {
            let name = format_ident!("{}", name);
            let offset = Literal::usize_unsuffixed(*count);
            items.push(quote! {
                const #name: usize = HAND_KEYS + #rows * PIECES + #base + #offset;
            });
            *count += n;
        };
        if self.multi() {
            at(&mut count, "TURN_KEY", 1);
        }
        if turns.freezes() {
            at(&mut count, "FROZEN_KEYS", self.ir.cells);
        }
        if turns.counts_captures {
            at(&mut count, "CAPTURE_KEYS", 2 * self.ir.pieces.len());
        }
        (count, items)
    }

    /// The position's fields for the turn's state, their terms of the hash, and the functions on
    /// them.
    fn turn_board(&self) -> (TokenStream, TokenStream, TokenStream) {
        let no = self.no();
        let cell_ty = self.cell_ty();
        let turns = &self.ir.turns;
        let (mut fields, mut hash, mut items) = (quote! {}, quote! {}, quote! {});
        if self.multi() {
            fields.extend(quote! {
                /// The single moves made in the current turn.
                turn_moves: u32,
                /// Whether a single move of the current turn removed a piece or moved a pawn (not
                /// part of the hash).
                reset_in_turn: bool,
            });
            hash.extend(quote! { hash ^= turn_key(self.turn_moves); });
            let moves = Literal::u32_unsuffixed(turns.moves);
            items.extend(quote! {
                /// Single moves per turn.
                const MOVES_PER_TURN: u32 = #moves;

                /// The key of the number of single moves made in the turn.
                fn turn_key(moves: u32) -> u64 {
                    KEYS[TURN_KEY].wrapping_mul(moves as u64)
                }
            });
        }
        if turns.freezes() {
            fields.extend(quote! {
                /// The pieces frozen until the end of the turn (`freeze after`).
                frozen: Bits,
            });
            hash.extend(quote! { hash ^= flag_keys(self.frozen, FROZEN_KEYS); });
            items.extend(quote! {
                impl Board {
                    /// Freezes the piece on `cell` until the end of the turn.
                    fn freeze(&mut self, cell: usize) {
                        if self.frozen & bit(cell) == 0 {
                            self.frozen |= bit(cell);
                            self.hash ^= KEYS[FROZEN_KEYS + cell];
                        }
                    }
                }
            });
        }
        if turns.freezes() && self.ir.stacking {
            items.extend(quote! {
                /// The frozen flag of a piece under a stack (its occupant's bit).
                const FROZEN_BELOW: u16 = 1 << 14;
            });
        }
        if turns.freeze_jump {
            let lines = turns.between.iter().map(|lines| {
                let entries = lines.iter().map(|&(to, cells)| {
                    let to = self.cell_lit(Some(to));
                    let cells = self.bits(cells);
                    quote! { (#to, #cells) }
                });
                quote! { &[#(#entries),*] }
            });
            items.extend(quote! {
                /// Per start cell: the cells on a straight line at least two steps away, with the
                /// cells strictly between.
                static BETWEEN: [&[(#cell_ty, Bits)]; CELLS] = [#(#lines),*];

                /// Whether a move from `from` to `to` passes over an occupied cell on a straight
                /// line (a jump, for `freeze after jump`).
                fn jumped(from: usize, to: usize, occupied: Bits) -> bool {
                    BETWEEN[from]
                        .iter()
                        .find(|&&(cell, _)| cell as usize == to)
                        .is_some_and(|&(_, cells)| cells & occupied != 0)
                }
            });
        }
        if turns.counts_captures {
            fields.extend(quote! {
                /// The enemy pieces each player captured by his own moves, per type.
                captured: [[u32; PIECES]; 2],
            });
            hash.extend(quote! {
                for player in 0..2 {
                    for piece in 0..PIECES {
                        hash ^= capture_key(player, piece, self.captured[player][piece]);
                    }
                }
            });
            items.extend(quote! {
                /// The key of a capture counter.
                fn capture_key(player: usize, piece: usize, count: u32) -> u64 {
                    KEYS[CAPTURE_KEYS + player * PIECES + piece].wrapping_mul(count as u64)
                }

                impl Board {
                    /// Counts the piece on `cell`, about to be captured by `mover`, if it is an enemy's.
                    fn count_capture(&mut self, mover: usize, cell: usize) {
                        let code = self.cells[cell] as usize - 1;
                        if code % #no != mover {
                            let piece = code / #no;
                            let old = self.captured[mover][piece];
                            self.hash ^= capture_key(mover, piece, old) ^ capture_key(mover, piece, old + 1);
                            self.captured[mover][piece] = old + 1;
                        }
                    }
                }
            });
        }
        (fields, hash, items)
    }

    /// In the stacks' `stack_onto` and `unstack`: a frozen piece that goes under keeps its frozen
    /// flag in `below` (the occupant's bit), and has it again when it stands free.
    fn frozen_below(&self) -> (TokenStream, TokenStream) {
        if !self.ir.turns.freezes() {
            return (quote! {}, quote! {});
        }
        (
            quote! {
                if self.frozen & bit(to) != 0 {
                    below |= FROZEN_BELOW;
                }
            },
            quote! {
                if below & FROZEN_BELOW != 0 {
                    self.freeze(from);
                }
            },
        )
    }

    /// In `Board::remove`: a piece leaving the board takes its frozen flag with it.
    fn thaw_removed(&self) -> TokenStream {
        if self.ir.turns.freezes() {
            quote! {
                if self.frozen & bit(cell) != 0 {
                    self.frozen ^= bit(cell);
                    self.hash ^= KEYS[FROZEN_KEYS + cell];
                }
            }
        } else {
            quote! {}
        }
    }

    /// The generation functions' movers, the own pieces not frozen: their definition and name.
    fn movable(&self) -> (TokenStream, TokenStream) {
        if self.ir.turns.freezes() {
            (
                quote! { let movable = own & !board.frozen; let _ = movable; },
                quote! { movable },
            )
        } else {
            (quote! {}, quote! { own })
        }
    }

    /// Before a normal move changes the board: whether it jumps and whether it captures, as
    /// `freeze after` needs them.
    fn freeze_init(&self, capture: bool) -> TokenStream {
        let all_board = self.all_colors(quote!(board));
        let turns = &self.ir.turns;
        let mut init = quote! {};
        if turns.freeze_jump {
            init.extend(quote! { let jump = jumped(from, to, #all_board); });
        }
        if turns.freeze_capture && capture {
            init.extend(quote! { let took = to != from && board.cells[to] != EMPTY; });
        }
        init
    }

    /// After a normal move (an unload with `capture` false: its victim is put down again):
    /// freezes the piece that moved if the move is one of the `freeze after` events.
    fn freeze_after(&self, capture: bool) -> TokenStream {
        let turns = &self.ir.turns;
        let mut events = Vec::new();
        if turns.freeze_move {
            events.push(quote! { true });
        }
        if turns.freeze_jump {
            events.push(quote! { jump });
        }
        if turns.freeze_capture && capture {
            events.push(quote! { took });
        }
        if turns.freeze_capture && self.ir.custodian.is_some() {
            events.push(quote! { custodian_caught });
        }
        if self.ir.stacking && turns.freeze_unpin {
            events.push(quote! { kind.leaves_stack() });
        }
        if self.ir.stacking && turns.freeze_stack {
            events.push(quote! { kind.stacks() });
        }
        if events.is_empty() {
            return quote! {};
        }
        quote! {
            if #(#events)||* {
                board.freeze(to);
            }
        }
    }

    /// Counts the piece on `cell`, about to be captured, when the game counts captures.
    /// The counting rule's update after a single move (`FastIr::counting`), as the interpreter's
    /// `update_count`: the statement marking a capture, the update (once the player to move, the
    /// counting side `own`, is known) and the flag's declaration.
    fn counting_update(&self) -> (TokenStream, TokenStream, TokenStream) {
        let Some(counting) = &self.ir.counting else {
            return (quote! {}, quote! {}, quote! {});
        };
        let holds = |c: &Option<FastCond>| match c {
            Some(c) => self.count_cond(c),
            None => quote! { true },
        };
        let start = holds(&counting.start);
        let restart = if counting.restart.is_empty() {
            quote! { false }
        } else {
            let lines = counting.restart.iter().map(holds);
            quote! { (#(#lines)||*) }
        };
        let mut limit = quote! { u16::MAX };
        for (n, c) in counting.limits.iter().rev() {
            let n = Literal::u16_unsuffixed((*n).min(u32::from(u16::MAX)) as u16);
            let c = holds(c);
            limit = quote! { if #c { #n } else { #limit } };
        }
        let all = self.all_colors(quote!(board));
        let mut begin = quote! { 0u16 };
        for (pieces, c) in counting.begin.iter().rev() {
            let value = if *pieces {
                quote! { (#all).count_ones() as u16 }
            } else {
                quote! { 0u16 }
            };
            let c = holds(c);
            begin = quote! { if #c { #value } else { #begin } };
        }
        (
            quote! { captured = true; },
            quote! {
                // The counting rule: the count runs while its start condition holds for the player
                // to move, and begins again after a capture that restarts it.
                {
                    let own = board.side as usize;
                    let _ = own;
                    if !(#start) {
                        board.count = None;
                    } else {
                        match board.count {
                            Some([begin, plies, limit]) if !(captured && #restart) => {
                                board.count = Some([begin, plies.saturating_add(1), limit]);
                            }
                            _ => {
                                let limit: u16 = #limit;
                                let begin: u16 = #begin;
                                board.count = Some([begin, 0, limit]);
                            }
                        }
                    }
                }
            },
            quote! { let mut captured = false; },
        )
    }

    fn count_victim(&self, cell: TokenStream) -> TokenStream {
        if self.ir.turns.counts_captures {
            quote! { board.count_capture(mover, #cell); }
        } else {
            quote! {}
        }
    }

    /// Under lasting en-passant rights: the rights of `player`, whose turn starts, end.
    fn expire_rights(&self, player: TokenStream) -> TokenStream {
        if !self.ir.en_passant_lasts {
            return quote! {};
        }
        quote! {
            let base = #player as usize * RIGHT_SLOTS;
            for slot in base..base + RIGHT_SLOTS {
                let (target, _) = board.rights[slot];
                if target != NO_CELL {
                    board.hash ^= right_key(#player as usize, target);
                    board.rights[slot] = (NO_CELL, NO_CELL);
                }
            }
        }
    }

    /// The end of a single move: the side changes when it ends the turn; and the function that
    /// ends a turn, when turns have several single moves.
    fn turn_tail(&self) -> (TokenStream, TokenStream) {
        let zero = self.zero();
        let last = Literal::usize_unsuffixed(self.ir.turns.last);
        // The move number grows after the last player's turn; with eliminated players passed
        // over, when the turn goes back along the turn order.
        let round_over = if self.ir.elimination.is_some() {
            let mut index = vec![0; self.ir.players];
            for (i, &p) in self.ir.turns.order.iter().enumerate() {
                index[p] = i;
            }
            let index: Vec<Literal> = index.into_iter().map(Literal::usize_unsuffixed).collect();
            quote! { [#(#index),*][board.side as usize] <= [#(#index),*][mover] }
        } else {
            quote! { mover == #last }
        };
        let thaw = if self.ir.turns.freezes() {
            let under = if self.ir.stacking {
                quote! {
                    let mut stacks = board.stacked;
                    while stacks != 0 {
                        let cell = stacks.trailing_zeros() as usize;
                        stacks &= stacks - 1;
                        let below = board.below[cell];
                        if below & FROZEN_BELOW != 0 {
                            board.hash ^= stack_key(cell, below) ^ stack_key(cell, below & !FROZEN_BELOW);
                            board.below[cell] = below & !FROZEN_BELOW;
                        }
                    }
                }
            } else {
                quote! {}
            };
            quote! {
                board.hash ^= flag_keys(board.frozen, FROZEN_KEYS);
                board.frozen = #zero;
                #under
            }
        } else {
            quote! {}
        };
        let next_side = if self.many() {
            let next: Vec<Literal> = (0..self.ir.players)
                .map(|p| {
                    let at = self
                        .ir
                        .turns
                        .order
                        .iter()
                        .position(|&o| o == p)
                        .unwrap_or(0);
                    let next = self.ir.turns.order[(at + 1) % self.ir.players];
                    Literal::u8_unsuffixed(next as u8)
                })
                .collect();
            let expire = self.expire_rights(quote!(next));
            let skip = if self.ir.elimination.is_some() {
                quote! {
                    while board.eliminated & (1 << next) != 0 && next != board.side {
                        next = [#(#next),*][next as usize];
                    }
                }
            } else {
                quote! {}
            };
            quote! {
                let mut next: u8 = [#(#next),*][board.side as usize];
                #skip
                board.hash ^= side_key(board.side) ^ side_key(next);
                board.side = next;
                #expire
            }
        } else {
            let expire = self.expire_rights(quote!(board.side));
            quote! {
                board.side ^= 1;
                board.hash ^= KEYS[SIDE_KEY];
                #expire
            }
        };
        // `en_passant_right when_capturable`: a right nobody can take is no right.
        let keep_capturable = if self.ir.en_passant_when_capturable {
            quote! {
                if board.en_passant != NO_CELL && !en_passant_capturable(board) {
                    board.hash ^= KEYS[EN_PASSANT_KEYS + board.en_passant as usize];
                    board.en_passant = NO_CELL;
                    board.victim = NO_CELL;
                }
            }
        } else {
            quote! {}
        };
        if !self.multi() {
            return (
                quote! {
                    board.halfmove = if resets { 0 } else { board.halfmove + 1 };
                    board.last = Some(mv);
                    #thaw
                    #next_side
                    if #round_over {
                        board.fullmove += 1;
                    }
                    #keep_capturable
                },
                quote! {},
            );
        }
        (
            quote! {
                board.last = Some(mv);
                board.reset_in_turn |= resets;
                board.hash ^= turn_key(board.turn_moves) ^ turn_key(board.turn_moves + 1);
                board.turn_moves += 1;
                if board.turn_moves >= MOVES_PER_TURN {
                    end_turn(board);
                }
            },
            quote! {
                /// Ends the turn of the side to move: the half-move counter counts the turn (from 0
                /// when one of its single moves removed a piece or moved a pawn), the frozen pieces
                /// thaw and the other player moves.
                fn end_turn(board: &mut Board) {
                    let mover = board.side as usize;
                    board.halfmove = if board.reset_in_turn { 0 } else { board.halfmove + 1 };
                    board.reset_in_turn = false;
                    board.hash ^= turn_key(board.turn_moves);
                    board.turn_moves = 0;
                    #thaw
                    #next_side
                    if #round_over {
                        board.fullmove += 1;
                    }
                }
            },
        )
    }

    /// The `CompactGame` parts of the turn's state: the fields of an empty position, the methods
    /// reading and setting them, the frozen flag of `put` and `occupant`, and the early end of a
    /// turn after a real move (`end_early_when_stuck`: the mover has no legal single move left;
    /// `count` is the method counting the legal moves but the pass of a player who is stuck).
    fn turn_game(&self, count: &proc_macro2::Ident) -> [TokenStream; 5] {
        let zero = self.zero();
        let turns = &self.ir.turns;
        let (mut init, mut methods) = (quote! {}, quote! {});
        let (mut put, mut occupant, mut make) = (quote! {}, quote! {}, quote! {});
        if self.multi() {
            init.extend(quote! { turn_moves: 0, reset_in_turn: false, });
            methods.extend(quote! {
                fn turn(&self, board: &Board) -> (u32, bool) {
                    (board.turn_moves, board.reset_in_turn)
                }

                fn set_turn(&self, board: &mut Board, moves: u32, resets: bool) {
                    board.turn_moves = moves;
                    board.reset_in_turn = resets;
                }
            });
            if turns.end_early {
                make = quote! {
                    if board.turn_moves > 0 && self.#count(board) == 0 {
                        end_turn(board);
                    }
                };
            }
        }
        if turns.freezes() {
            init.extend(quote! { frozen: #zero, });
            put = quote! {
                if occupant.is_frozen() {
                    board.frozen |= bit(cell);
                }
            };
            occupant = quote! { .with_frozen(board.frozen & bit(cell) != 0) };
        }
        if turns.counts_captures {
            init.extend(quote! { captured: [[0; PIECES]; 2], });
            methods.extend(quote! {
                fn captures(&self, board: &Board, player: usize, piece: usize) -> u32 {
                    board.captured[player][piece]
                }

                fn set_captures(&self, board: &mut Board, player: usize, piece: usize, count: u32) {
                    board.captured[player][piece] = count;
                }
            });
        }
        [init, methods, put, occupant, make]
    }

    /// The cheap tests of the `captures` and `formation` end rules.
    fn turn_early_end(&self, end: &EarlyEnd) -> Option<TokenStream> {
        match end {
            EarlyEnd::Captures(n, pieces) => {
                let n = Literal::u32_unsuffixed(*n);
                let sum = |player: usize| {
                    let player = Literal::usize_unsuffixed(player);
                    let terms: Vec<TokenStream> = pieces
                        .iter()
                        .map(|&t| {
                            let t = self.piece(t);
                            quote! { board.captured[#player][#t] }
                        })
                        .collect();
                    if terms.is_empty() {
                        quote! { 0 }
                    } else {
                        quote! { (#(#terms)+*) }
                    }
                };
                let (first, second) = (sum(0), sum(1));
                Some(quote! { #first >= #n || #second >= #n })
            }
            EarlyEnd::Formation(need) if self.many() => {
                // With more than two players, any player who has the pieces for one (the
                // interpreter decides whose move it was).
                let players = (0..self.ir.players).map(|p| {
                    let p = Literal::usize_unsuffixed(p);
                    let terms = need.iter().map(|&(t, count)| {
                        let t = self.piece(t);
                        let count = Literal::u32_unsuffixed(count);
                        quote! { (board.pieces[#t] & board.colors[#p]).count_ones() >= #count }
                    });
                    quote! { (true #(&& #terms)*) }
                });
                Some(quote! { #(#players)||* })
            }
            EarlyEnd::Formation(need) => {
                let terms = need.iter().map(|&(t, count)| {
                    let t = self.piece(t);
                    let count = Literal::u32_unsuffixed(count);
                    quote! { (board.pieces[#t] & board.colors[1 - board.side as usize]).count_ones() >= #count }
                });
                Some(quote! { true #(&& #terms)* })
            }
            _ => None,
        }
    }
}

impl Emitter<'_> {
    /// Custodian capture: the tables and the `custodian` function make calls after a move of a
    /// piece on the board (its arm of normal moves and unloads), and that call.
    fn emit_custodian(&self) -> (TokenStream, TokenStream) {
        let cell_ty = self.cell_ty();
        let zero = self.zero();
        let Some(rule) = &self.ir.custodian else {
            return (quote! {}, quote! {});
        };
        let FastCustodian {
            steps,
            enclose,
            corners,
            around,
            top_only,
            edge_jaw,
        } = rule;
        let directions = Literal::usize_unsuffixed(steps.len());
        let steps = steps.iter().map(|line| {
            let cells = line.iter().map(|&c| self.cell_lit(c));
            quote! { [#(#cells),*] }
        });
        let around = self.per_cell(around);
        let encloses = enclose.iter().map(|e| {
            let (min, max) = (
                Literal::usize_unsuffixed(e.min),
                Literal::usize_unsuffixed(e.max),
            );
            if e.friend {
                // Exactly `min` of the mover's units, then one more of his.
                quote! {{
                    let (mut run, mut len, mut at): (Bits, usize, usize) = (#zero, 0, to);
                    while len < #min {
                        let next = steps[at];
                        if next == NO_CELL || own & bit(next as usize) == 0 {
                            break;
                        }
                        run |= bit(next as usize);
                        len += 1;
                        at = next as usize;
                    }
                    if len == #min {
                        let next = steps[at];
                        if next != NO_CELL && own & bit(next as usize) != 0 {
                            caught |= run;
                        }
                    }
                }}
            } else {
                // Up to `max` enemy units, closed by one of the mover's (or the edge).
                quote! {{
                    let (mut run, mut len, mut at): (Bits, usize, usize) = (#zero, 0, to);
                    let closed = loop {
                        let next = steps[at];
                        if next == NO_CELL {
                            break #edge_jaw && len > 0;
                        }
                        let next = next as usize;
                        if len < #max && enemy & bit(next) != 0 {
                            run |= bit(next);
                            len += 1;
                            at = next;
                        } else {
                            break own & bit(next) != 0 && len > 0;
                        }
                    };
                    if closed && len >= #min {
                        caught |= run;
                    }
                }}
            }
        });
        let corners = corners.iter().map(|c| {
            let cells = c.cells.map(|b| self.bits(b));
            let (enemy, friend) = (c.enemy, c.friend);
            quote! {{
                const CORNER: [Bits; 2] = [#(#cells),*];
                for steps in CUSTODIAN_STEPS.iter() {
                    let next = steps[to];
                    if next == NO_CELL {
                        continue;
                    }
                    let next = next as usize;
                    if (own | enemy) & bit(next) == 0 || CORNER[mover] & bit(next) == 0 {
                        continue;
                    }
                    let side = if own & bit(next) != 0 { #friend } else { #enemy };
                    if side && CUSTODIAN_AROUND[next] & !own == 0 {
                        caught |= bit(next);
                    }
                }
            }}
        });
        let count = self.count_victim(quote!(cell));
        let unstack = match (*top_only, self.ir.stacking) {
            // `remove top`: the piece below stays, freed.
            (true, true) => quote! {
                if board.stacked & bit(cell) != 0 {
                    board.unstack(cell);
                }
            },
            // `remove unit`: the piece below leaves the board with the top one.
            (false, true) => quote! {
                if board.stacked & bit(cell) != 0 {
                    board.hash ^= stack_key(cell, board.below[cell]);
                    board.stacked &= !bit(cell);
                    board.below[cell] = 0;
                }
            },
            (_, false) => quote! {},
        };
        (
            quote! {
                /// Per `along` direction of custodian capture, per cell, the next cell along it.
                static CUSTODIAN_STEPS: [[#cell_ty; CELLS]; #directions] = [#(#steps),*];
                /// Per cell, the cells one `along` step away from it.
                static CUSTODIAN_AROUND: [Bits; CELLS] = #around;

                /// Custodian capture after a move of `mover`'s piece to `to`: everything it catches
                /// is removed at once (into the captor's hand, if captures go there). Whether it
                /// caught anything.
                fn custodian(board: &mut Board, to: usize, mover: usize) -> bool {
                    let (own, enemy) = (board.colors[mover], board.colors[1 - mover]);
                    let _ = (own, enemy);
                    let mut caught: Bits = #zero;
                    for steps in CUSTODIAN_STEPS.iter() {
                        let _ = steps;
                        #(#encloses)*
                    }
                    #(#corners)*
                    let mut cells = caught;
                    while cells != 0 {
                        let cell = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        to_hand(board, mover, cell);
                        #count
                        board.remove(cell);
                        board.virgin &= !bit(cell);
                        board.promoted &= !bit(cell);
                        #unstack
                    }
                    caught != 0
                }
            },
            quote! {
                let custodian_caught = custodian(board, to, mover);
                resets |= custodian_caught;
            },
        )
    }
}

/// The conjunction of conditions as a Rust expression (`true` for none).
fn all_of(parts: impl Iterator<Item = TokenStream>) -> TokenStream {
    let parts: Vec<TokenStream> = parts.collect();
    if parts.is_empty() {
        quote! { true }
    } else {
        quote! { (#((#parts))&&*) }
    }
}

/// The disjunction of conditions as a Rust expression (`false` for none).
fn any_of(parts: impl Iterator<Item = TokenStream>) -> TokenStream {
    let parts: Vec<TokenStream> = parts.collect();
    if parts.is_empty() {
        quote! { false }
    } else {
        quote! { (#((#parts))||*) }
    }
}

/// A comparison operator as a Rust token.
fn compare_op(op: Compare) -> TokenStream {
    match op {
        Compare::Eq => quote! { == },
        Compare::Ne => quote! { != },
        Compare::Lt => quote! { < },
        Compare::Le => quote! { <= },
        Compare::Gt => quote! { > },
        Compare::Ge => quote! { >= },
    }
}
