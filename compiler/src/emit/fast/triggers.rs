//! The triggered rules on captured and arriving pieces ([`FastTriggers`]) and the waiting pieces
//! in the compact form's generated code.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::lower::fast::{FastAction, FastNewOwner, FastRule, FastTriggers, FastWhere};

use super::Emitter;

/// The parts of the position that keep the waiting pieces (all empty without them).
#[derive(Default)]
pub(super) struct WaitingBoard {
    /// The field of [`Board`](super) holding their cells.
    pub field: TokenStream,
    /// Its value in the empty position.
    pub init: TokenStream,
    /// Its part of the computed hash.
    pub hash: TokenStream,
    /// What `put` adds for a waiting occupant.
    pub put: TokenStream,
    /// What `occupant` and `pieces` append to the occupant they build.
    pub occupant: TokenStream,
    /// The function giving the keys of waiting cells.
    pub keys: TokenStream,
}

/// The parts of `play` that run the rules and keep the waiting pieces (all empty without them).
#[derive(Default)]
pub(super) struct TriggerMake {
    /// The tables and functions the rules use.
    pub items: TokenStream,
    /// At the start of `play`: what the waiting pieces were.
    pub start: TokenStream,
    /// Before the captures of a move: the list of its victims.
    pub victims: TokenStream,
    /// Before the piece on `to` is captured: it is noted.
    pub note_to: TokenStream,
    /// Before the piece taken en passant on `victim` is captured.
    pub note_victim: TokenStream,
    /// After the moved piece's flags are set: its waiting status moves with it.
    pub moved: TokenStream,
    /// After the move's own changes: the rules.
    pub rules: TokenStream,
    /// At the end of the move: the mover's pieces that were waiting have waited; the hash.
    pub end: TokenStream,
}

impl Emitter<'_> {
    pub(super) fn waiting_board(&self) -> WaitingBoard {
        if !self.ir.waiting {
            return WaitingBoard::default();
        }
        let zero = self.zero();
        WaitingBoard {
            field: quote! {
                /// The cells of the pieces waiting since a rule sent them (`mover.waited` is 0).
                waiting: Bits,
            },
            init: quote! { waiting: #zero, },
            hash: quote! { hash ^= waiting_keys(self.waiting); },
            put: quote! {
                if occupant.is_waiting() {
                    board.waiting |= bit(cell);
                }
            },
            occupant: quote! { .with_waiting(board.waiting & bit(cell) != 0) },
            keys: quote! {
                /// The keys of waiting cells (the unmoved cells' keys, rotated).
                fn waiting_keys(cells: Bits) -> u64 {
                    flag_keys(cells, VIRGIN_KEYS).rotate_left(29)
                }
            },
        }
    }

    pub(super) fn trigger_make(&self) -> TriggerMake {
        let ir = self.ir;
        let mut make = TriggerMake::default();
        if ir.waiting {
            let sends = ir.triggers.as_ref().is_some_and(|t| t.sends);
            let (start, end) = if sends {
                (
                    quote! {
                        let old_waiting = board.waiting;
                        // The mover's waiting pieces as they are: those still there unchanged after
                        // the move have waited.
                        let waited = board.waiting & board.colors[mover];
                        let before = if waited != 0 { Some((board.cells, board.virgin, board.promoted)) } else { None };
                    },
                    quote! {
                        if let Some((cells, virgin, promoted)) = before {
                            let mut waited = waited;
                            while waited != 0 {
                                let cell = waited.trailing_zeros() as usize;
                                waited &= waited - 1;
                                let b = bit(cell);
                                if board.cells[cell] == cells[cell]
                                    && board.waiting & b != 0
                                    && (board.virgin ^ virgin) & b == 0
                                    && (board.promoted ^ promoted) & b == 0
                                {
                                    board.waiting &= !b;
                                }
                            }
                        }
                        board.hash ^= waiting_keys(old_waiting ^ board.waiting);
                    },
                )
            } else {
                (
                    quote! { let old_waiting = board.waiting; },
                    quote! { board.hash ^= waiting_keys(old_waiting ^ board.waiting); },
                )
            };
            make.start = start;
            make.end = end;
            // A piece keeps its status when it moves; a new one (a promotion, a `become`) is not
            // waiting, nor is what a capture left.
            make.moved = quote! {
                let was_waiting = board.waiting & bit(from) != 0;
                board.waiting &= !gone;
                if was_waiting && mv.piece == 0 {
                    board.waiting |= bit(to);
                }
            };
        }
        let Some(triggers) = &ir.triggers else {
            return make;
        };
        make.victims = quote! {
            // The captured pieces, as they stood: cell, code, unmoved, promoted.
            let mut victims = [(0usize, EMPTY, false, false); 2];
        };
        make.note_to = quote! {
            victims[0] = (to, board.cells[to], board.virgin & bit(to) != 0, board.promoted & bit(to) != 0);
        };
        make.note_victim = quote! {
            victims[1] = (victim, board.cells[victim], board.virgin & bit(victim) != 0, board.promoted & bit(victim) != 0);
        };
        let capture_call = if triggers.captured.is_empty() {
            quote! {}
        } else {
            quote! {
                for &(cell, code, virgin, promoted) in &victims {
                    if code != EMPTY {
                        fired |= on_capture(board, mover, cell, code, virgin, promoted);
                    }
                }
            }
        };
        let enter_call = if triggers.entered.is_empty() {
            quote! {}
        } else {
            quote! {
                if board.cells[to] != EMPTY {
                    fired |= on_enter(board, mover, to);
                }
            }
        };
        let on_transform = if triggers.reset_on_transform {
            quote! {
                if mv.piece > 0 || fired & 1 != 0 {
                    resets = true;
                }
            }
        } else {
            quote! {}
        };
        let on_transfer = if triggers.reset_on_transfer {
            quote! {
                if BOARD_OF_CELL[from] != BOARD_OF_CELL[to] || fired & 2 != 0 {
                    resets = true;
                }
            }
        } else {
            quote! {}
        };
        make.rules = quote! {
            // The triggered rules: bit 0 of `fired` a piece changed type, bit 1 a sent piece
            // arrived on another board, bit 2 a rule restarts the move rule's count.
            let mut fired = 0u8;
            #capture_call
            #enter_call
            #on_transform
            #on_transfer
            if fired & 4 != 0 {
                resets = true;
            }
        };
        make.items = self.trigger_items(triggers);
        make
    }

    /// The tables of the rules' conditions and the functions running them.
    fn trigger_items(&self, triggers: &FastTriggers) -> TokenStream {
        let no = self.no();
        let boards = self
            .ir
            .boards
            .iter()
            .map(|&b| Literal::u8_unsuffixed(b as u8));
        let mut items = vec![quote! {
            /// Per cell, its board.
            const BOARD_OF_CELL: [u8; CELLS] = [#(#boards),*];
        }];
        let mut capture_rules = Vec::new();
        for (k, rule) in triggers.captured.iter().enumerate() {
            capture_rules.push(self.trigger_rule(rule, &format!("CAPTURE_{k}"), &mut items));
        }
        let mut enter_rules = Vec::new();
        for (k, rule) in triggers.entered.iter().enumerate() {
            enter_rules.push(self.trigger_rule(rule, &format!("ENTER_{k}"), &mut items));
        }
        if !triggers.captured.is_empty() {
            items.push(quote! {
                /// Puts a piece a rule sends on `at`, capturing what stands there; it arrives
                /// waiting.
                fn arrive(board: &mut Board, at: usize, code: u8, virgin: bool, promoted: bool) {
                    if board.cells[at] != EMPTY {
                        board.remove(at);
                    }
                    board.place(at, code);
                    let b = bit(at);
                    board.virgin &= !b;
                    board.promoted &= !b;
                    if virgin {
                        board.virgin |= b;
                    }
                    if promoted {
                        board.promoted |= b;
                    }
                    board.waiting |= b;
                }

                /// The `on capture` rules for the piece captured on `cell` (`code` and its flags as
                /// it stood, the conditions' participant), in transit until a rule places it or
                /// it leaves the game; returns what they did (see `fired` in `play`).
                fn on_capture(board: &mut Board, mover: usize, cell: usize, code: u8, virgin: bool, promoted: bool) -> u8 {
                    let original = code as usize - 1;
                    let (mut piece, mut virgin, mut promoted) = (code, virgin, promoted);
                    let mut fired = 0u8;
                    #(#capture_rules)*
                    let _ = (piece, virgin, promoted, original);
                    fired
                }
            });
        }
        if !triggers.entered.is_empty() {
            items.push(quote! {
                /// The `on enter` rules for the piece on the arrival cell `cell`, in the order the
                /// interpreter fires them; returns what they did (see `fired` in `play`).
                fn on_enter(board: &mut Board, mover: usize, cell: usize) -> u8 {
                    let mut fired = 0u8;
                    #(#enter_rules)*
                    fired
                }
            });
        }
        let _ = no;
        quote! { #(#items)* }
    }

    /// One rule: its conditions' tables go into `items`. In `on_capture` the participant is the
    /// captured piece as it stood (`original`) and `piece` the one in transit; in `on_enter` the
    /// piece on `cell`.
    fn trigger_rule(
        &self,
        rule: &FastRule,
        name: &str,
        items: &mut Vec<TokenStream>,
    ) -> TokenStream {
        let captured = rule.zone.is_none();
        let participant = if captured {
            quote! { original }
        } else {
            quote! { (board.cells[cell] as usize - 1) }
        };
        let when = self.trigger_table(&rule.when, &format_ident!("{}_WHEN", name), items);
        let zone = match &rule.zone {
            Some(cells) => {
                let cells = cells.iter().map(|&b| self.bits(b));
                quote! { [#(#cells),*][mover] & bit(cell) != 0 && }
            }
            None => quote! {},
        };
        let no = self.no();
        let mut effects = Vec::new();
        for (j, effect) in rule.effects.iter().enumerate() {
            let action = match &effect.action {
                FastAction::ResetMoveRule => quote! { fired |= 4; },
                FastAction::Remove => quote! { piece = EMPTY; },
                FastAction::Transform { into, owner } => {
                    let into = into
                        .iter()
                        .map(|t| Literal::u8_unsuffixed(t.map_or(0, |t| t as u8 + 1)));
                    let owner = match owner {
                        FastNewOwner::Same => quote! { (code as usize - 1) % #no },
                        FastNewOwner::Player(p) => {
                            let p = Literal::usize_unsuffixed(*p);
                            quote! { #p }
                        }
                    };
                    let apply = if captured {
                        quote! {
                            piece = new;
                            virgin = false;
                            promoted = false;
                        }
                    } else {
                        quote! {
                            board.remove(cell);
                            board.place(cell, new);
                            board.virgin &= !bit(cell);
                            board.promoted &= !bit(cell);
                        }
                    };
                    let code = if captured {
                        quote! { piece }
                    } else {
                        quote! { board.cells[cell] }
                    };
                    quote! {
                        let code = #code;
                        if code != EMPTY {
                            /// Per type, the type it becomes plus one (0: it stays).
                            const INTO: [u8; PIECES] = [#(#into),*];
                            let kind = INTO[(code as usize - 1) / #no];
                            if kind != 0 {
                                let new = (1 + (kind as usize - 1) * #no + #owner) as u8;
                                #apply
                                fired |= 1;
                            }
                        }
                    }
                }
                FastAction::Send {
                    cells,
                    capacity,
                    overflow,
                    board,
                } => {
                    let all = self.all_colors(quote!(board));
                    let cells = self.bits(*cells);
                    let full = match capacity {
                        Some(c) => {
                            let c = Literal::u32_unsuffixed(*c);
                            quote! { occupied.count_ones() >= #c || occupied == cells }
                        }
                        None => quote! { occupied == cells },
                    };
                    let overflow = if *overflow {
                        quote! { else if occupied != 0 { Some(occupied.trailing_zeros() as usize) } }
                    } else {
                        quote! {}
                    };
                    let target = Literal::u8_unsuffixed(*board as u8);
                    quote! {
                        if piece != EMPTY {
                            let cells: Bits = #cells;
                            let occupied = (#all) & cells;
                            let arrival = if !(#full) {
                                Some((cells & !occupied).trailing_zeros() as usize)
                            } #overflow else {
                                None
                            };
                            if let Some(at) = arrival {
                                arrive(board, at, piece, virgin, promoted);
                                if BOARD_OF_CELL[cell] != #target {
                                    fired |= 2;
                                }
                            }
                            piece = EMPTY;
                        }
                    }
                }
            };
            let action = match &effect.when {
                None => action,
                Some(table) => {
                    let table =
                        self.trigger_table(table, &format_ident!("{}_EFFECT_{}", name, j), items);
                    quote! {
                        if #table[mover][#participant] & bit(cell) != 0 {
                            #action
                        }
                    }
                }
            };
            effects.push(action);
        }
        quote! {
            if #zone #when[mover][#participant] & bit(cell) != 0 {
                #(#effects)*
            }
        }
    }

    /// A condition's table ([`FastWhere`]) as a constant named `name`, pushed onto `items`.
    fn trigger_table(
        &self,
        table: &FastWhere,
        name: &proc_macro2::Ident,
        items: &mut Vec<TokenStream>,
    ) -> proc_macro2::Ident {
        let players = Literal::usize_unsuffixed(table.len());
        let codes = Literal::usize_unsuffixed(table.first().map_or(0, Vec::len));
        let rows = table.iter().map(|row| {
            let cells = row.iter().map(|&b| self.bits(b));
            quote! { [#(#cells),*] }
        });
        items.push(quote! {
            /// Per moving player and piece code less one, the cells where the condition holds.
            static #name: [[Bits; #codes]; #players] = [#(#rows),*];
        });
        name.clone()
    }
}
