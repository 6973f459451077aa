//! Emission: the IR as Rust source, built with `quote!` and formatted with prettyplease. The output is
//! deterministic: tables and functions come in piece and player order, with no timestamps.
//!
//! The generated module holds, per specialised piece and player, constant leap and ray tables indexed
//! by cell and one generation function with the move's modes baked in; a `Compiled` type implementing
//! `vdl_runtime::interp::Generator` dispatches to them; `engine()` builds the interpreter's shared parts
//! from the embedded rule file and plugs the generator in.

mod fast;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::lower::{Ir, PartGen, PartKind, PieceGen, NONE};

/// Emits the Rust source of a compiled game.
///
/// # Errors
///
/// Returns a message if the generated tokens do not parse as a Rust file (a compiler bug).
pub fn emit(ir: &Ir) -> Result<String, String> {
    let tokens = emit_module(ir);
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    let body = prettyplease::unparse(&file);
    Ok(format!(
        "// Generated from `{}` by vdl; do not edit.\n\n{body}",
        ir.source_path
    ))
}

fn emit_module(ir: &Ir) -> TokenStream {
    let source = Literal::string(&ir.source);
    let name = Literal::string(&ir.name);
    let file_name = Literal::string(
        &std::path::Path::new(&ir.source_path)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    let mut tables = Vec::new();
    let mut functions = Vec::new();
    let mut arms = Vec::new();
    for (index, generator) in ir.generators.iter().enumerate() {
        let function = format_ident!("generate_{}", index);
        let (part_tables, body) = emit_piece(index, generator);
        tables.extend(part_tables);
        let doc = format!(
            "Moves of the {} for player {}.",
            generator.piece_name, generator.player
        );
        functions.push(quote! {
            #[doc = #doc]
            fn #function(position: &Position, cell: usize, occupant: Occupant, attacks: bool, out: &mut Vec<Move>) {
                let owner = occupant.owner();
                #body
            }
        });
        let piece = Literal::usize_unsuffixed(generator.piece);
        let player = Literal::usize_unsuffixed(generator.player);
        arms.push(
            quote! { (#piece, #player) => #function(position, cell, occupant, attacks, out), },
        );
    }
    let fast_form = emit_fast_form(ir);
    quote! {
        use std::sync::Arc;
        use vdl_runtime::interp::{Generator, Move, Occupant, Position};

        /// The rule file this engine was compiled from.
        pub const SOURCE: &str = #source;
        /// The game's identifier.
        pub const NAME: &str = #name;
        /// The rule file's name without its extension, another name engines accept for the game.
        pub const FILE_NAME: &str = #file_name;
        /// The marker for "no cell" in the tables.
        const NONE: u16 = u16::MAX;

        #(#tables)*
        #(#functions)*

        /// The compiled move generator of this game.
        pub struct Compiled;

        impl Generator for Compiled {
            fn piece_moves(&self, position: &Position, cell: usize, occupant: Occupant, attacks: bool, out: &mut Vec<Move>) -> bool {
                match (occupant.piece(), occupant.owner()) {
                    #(#arms)*
                    _ => return false,
                }
                true
            }

            fn game_name(&self) -> &'static str {
                NAME
            }
        }

        /// Builds the engine: the shared runtime for this game with the compiled generator plugged in.
        ///
        /// # Errors
        ///
        /// Returns a message when the embedded rule file does not check (it did when it was compiled).
        pub fn engine() -> Result<vdl_runtime::Interpreter, String> {
            let checked = vdl_dsl::check::check_source(SOURCE);
            let game = checked.game.ok_or_else(|| format!("{} does not check", NAME))?;
            Ok(vdl_runtime::Interpreter::new(game)?.with_generator(Arc::new(Compiled)))
        }

        #fast_form
    }
}

/// Emits the compact form when the game fits the fast profile, and `perft`, which runs on the fastest
/// engine the game has.
fn emit_fast_form(ir: &Ir) -> TokenStream {
    let perft_doc = "Runs the perft command on the fastest engine of this game.";
    let serve_doc = "Runs an engine protocol (`xboard`, `uci`, `line`, or chosen from the first line for `\"\"`) on the fastest engine of this game; `None` for another mode.";
    match &ir.fast {
        Ok(fast_ir) => {
            let items = fast::emit_fast(fast_ir);
            quote! {
                /// The compact form of this game: bitboards, move generation with legality from pins and
                /// checks, and make.
                pub mod compact {
                    use super::{NAME, SOURCE};
                    use vdl_runtime::compact::{CompactGame, CompactKind, CompactMove, CompactState, Compiled};
                    use vdl_runtime::interp::Occupant;

                    #items
                }

                #[doc = #perft_doc]
                ///
                /// # Errors
                ///
                /// Returns a message naming a bad FEN or an illegal move.
                pub fn perft(options: &vdl_runtime::cli::PerftOptions, out: &mut dyn std::io::Write, progress: bool) -> Result<u64, String> {
                    let mut engine = compact::fast_engine()?;
                    vdl_runtime::Variant::set_options(&mut engine, &options.setups)?;
                    vdl_runtime::cli::run_perft(&engine, options, out, progress)
                }

                #[doc = #serve_doc]
                ///
                /// # Errors
                ///
                /// Returns a message when the engine cannot be built.
                pub fn serve<R: std::io::BufRead + Send + 'static, W: std::io::Write>(mode: &str, input: R, output: W) -> Result<Option<std::io::Result<()>>, String> {
                    let engine = vdl_runtime::protocol::Engine::from_compact(compact::fast_engine()?).with_file_name(FILE_NAME);
                    Ok(vdl_runtime::protocol::run_mode(&engine, mode, input, output))
                }
            }
        }
        Err(reason) => {
            let reason = Literal::string(reason);
            quote! {
                /// Why this game has no compact form (it runs on the interpreter with compiled move generation).
                pub const FALLBACK: &str = #reason;

                #[doc = #perft_doc]
                ///
                /// # Errors
                ///
                /// Returns a message naming a bad FEN or an illegal move.
                pub fn perft(options: &vdl_runtime::cli::PerftOptions, out: &mut dyn std::io::Write, progress: bool) -> Result<u64, String> {
                    let mut engine = engine()?;
                    vdl_runtime::Variant::set_options(&mut engine, &options.setups)?;
                    vdl_runtime::cli::run_perft(&engine, options, out, progress)
                }

                #[doc = #serve_doc]
                ///
                /// # Errors
                ///
                /// Returns a message when the engine cannot be built.
                pub fn serve<R: std::io::BufRead + Send + 'static, W: std::io::Write>(mode: &str, input: R, output: W) -> Result<Option<std::io::Result<()>>, String> {
                    let engine = vdl_runtime::protocol::Engine::from_interpreter(engine()?).with_file_name(FILE_NAME);
                    Ok(vdl_runtime::protocol::run_mode(&engine, mode, input, output))
                }
            }
        }
    }
}

fn u16s(values: &[u16], width: usize) -> TokenStream {
    let items = (0..width).map(|i| Literal::u16_unsuffixed(values.get(i).copied().unwrap_or(NONE)));
    quote! { [#(#items),*] }
}

/// Emits the tables and the body of one piece's generation function.
fn emit_piece(index: usize, generator: &PieceGen) -> (Vec<TokenStream>, TokenStream) {
    let mut tables = Vec::new();
    let mut blocks = Vec::new();
    for (part_index, part) in generator.parts.iter().enumerate() {
        let table = format_ident!("TABLE_{}_{}", index, part_index);
        let (table_tokens, body) = emit_part(&table, part);
        tables.push(table_tokens);
        let mut block = body;
        if part.initial {
            block = quote! { if occupant.is_virgin() { #block } };
        }
        if let Some(cells) = &part.from_cells {
            let zone = format_ident!("FROM_{}_{}", index, part_index);
            let flags = cells
                .iter()
                .map(|&b| if b { quote!(true) } else { quote!(false) });
            let count = Literal::usize_unsuffixed(cells.len());
            tables.push(quote! { static #zone: [bool; #count] = [#(#flags),*]; });
            block = quote! { if #zone[cell] { #block } };
        }
        blocks.push(block);
    }
    (tables, quote! { #(#blocks)* })
}

/// Emits one part: its table and the loop that walks it.
fn emit_part(table: &proc_macro2::Ident, part: &PartGen) -> (TokenStream, TokenStream) {
    let moves = part.moves;
    let captures = part.captures;
    let ep_source = part.ep_source;
    // What to do on an empty target, and on an occupied one; only the branches this part needs.
    let plain = if ep_source {
        quote! { Move { ep_source: !attacks, ..Move::normal(cell, to) } }
    } else {
        quote! { Move::normal(cell, to) }
    };
    let empty_move = match (moves, captures) {
        (true, true) => quote! { out.push(#plain); },
        (true, false) => quote! { if !attacks { out.push(#plain); } },
        (false, true) => quote! { if attacks { out.push(Move::normal(cell, to)); } },
        (false, false) => quote! {},
    };
    let en_passant = if part.en_passant {
        quote! {
            if !attacks {
                if let Some(&(_, victim)) = position.en_passant.iter().find(|(target, _)| *target == to) {
                    let taken = position.cells[victim];
                    if !taken.is_empty() && taken.owner() != owner {
                        out.push(Move { aux: victim as u16, ..Move::normal(cell, to) });
                    }
                }
            }
        }
    } else {
        quote! {}
    };
    let on_empty = quote! { #empty_move #en_passant };
    // Captures by a part that creates en-passant rights create them too (a xiangqi elephant's capture
    // passes its midpoint), as in the interpreter.
    let on_occupied = if captures {
        quote! {
            if target.owner() != owner {
                out.push(#plain);
            }
        }
    } else {
        quote! {}
    };
    match &part.kind {
        PartKind::Leap(leaps) => {
            let width = leaps.iter().map(Vec::len).max().unwrap_or(0).max(1);
            let rows = leaps.iter().map(|row| {
                let items = (0..width).map(|i| {
                    let (to, block, need) = row.get(i).copied().unwrap_or((NONE, NONE, NONE));
                    let (to, block, need) = (
                        Literal::u16_unsuffixed(to),
                        Literal::u16_unsuffixed(block),
                        Literal::u16_unsuffixed(need),
                    );
                    quote! { (#to, #block, #need) }
                });
                quote! { [#(#items),*] }
            });
            let (w, n) = (
                Literal::usize_unsuffixed(width),
                Literal::usize_unsuffixed(leaps.len()),
            );
            let table_tokens =
                quote! { static #table: [[(u16, u16, u16); #w]; #n] = [#(#rows),*]; };
            let lame = leaps.iter().flatten().any(|&(_, block, _)| block != NONE);
            let jump = leaps.iter().flatten().any(|&(_, _, need)| need != NONE);
            let lame_check = if lame {
                quote! { if block != NONE && !position.cells[block as usize].is_empty() { continue; } }
            } else {
                quote! {}
            };
            let jump_check = if jump {
                quote! { if need != NONE && position.cells[need as usize].is_empty() { continue; } }
            } else {
                quote! {}
            };
            let body = quote! {
                for &(to, block, need) in #table[cell].iter() {
                    if to == NONE { break; }
                    let _ = (block, need);
                    #lame_check
                    #jump_check
                    let to = to as usize;
                    let target = position.cells[to];
                    if target.is_empty() { #on_empty } else { #on_occupied }
                }
            };
            (table_tokens, body)
        }
        PartKind::Ride(lines) | PartKind::Hop(lines, _) | PartKind::Grasshop(lines) => {
            let directions = lines.iter().map(Vec::len).max().unwrap_or(0).max(1);
            let length = lines
                .iter()
                .flatten()
                .map(Vec::len)
                .max()
                .unwrap_or(0)
                .max(1);
            let rows = lines.iter().map(|row| {
                let dirs = (0..directions)
                    .map(|d| u16s(row.get(d).map(Vec::as_slice).unwrap_or(&[]), length));
                quote! { [#(#dirs),*] }
            });
            let (d, l, n) = (
                Literal::usize_unsuffixed(directions),
                Literal::usize_unsuffixed(length),
                Literal::usize_unsuffixed(lines.len()),
            );
            let table_tokens = quote! { static #table: [[[u16; #l]; #d]; #n] = [#(#rows),*]; };
            let walk = match &part.kind {
                PartKind::Ride(_) => quote! {
                    for &to in line.iter() {
                        if to == NONE { break; }
                        let to = to as usize;
                        let target = position.cells[to];
                        if target.is_empty() { #on_empty } else { #on_occupied break; }
                    }
                },
                PartKind::Hop(..) => quote! {
                    let mut screen = false;
                    for &to in line.iter() {
                        if to == NONE { break; }
                        let to = to as usize;
                        let target = position.cells[to];
                        if !screen {
                            if !target.is_empty() { screen = true; }
                            continue;
                        }
                        if target.is_empty() { #on_empty } else { #on_occupied break; }
                    }
                },
                _ => quote! {
                    let mut cells = line.iter().take_while(|&&c| c != NONE).map(|&c| c as usize);
                    for screen in cells.by_ref() {
                        if !position.cells[screen].is_empty() { break; }
                    }
                    if let Some(to) = cells.next() {
                        let target = position.cells[to];
                        if target.is_empty() { #on_empty } else { #on_occupied }
                    }
                },
            };
            let body = quote! {
                for line in #table[cell].iter() {
                    #walk
                }
            };
            (table_tokens, body)
        }
    }
}
