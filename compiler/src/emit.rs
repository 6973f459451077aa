//! Emission: the IR as Rust source, built with `quote!` and formatted with prettyplease. The output is
//! deterministic: tables and functions come in piece and player order, with no timestamps.
//!
//! The generated module holds, per specialised piece and player, constant leap and ray tables indexed
//! by cell and one generation function with the move's modes baked in; a `Compiled` type implementing
//! `vdl_runtime::interp::Generator` dispatches to them; `engine()` builds the interpreter's shared parts
//! from the embedded rule file and plugs the generator in.

mod fast;
mod pack;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::lower::{Ir, PartGen, PartKind, PieceGen, NONE};

/// The most lines the generated source of an example may have: per-cell data is packed into static
/// tables, so the size grows with what the tables hold, not with the code around them.
pub const MAX_LINES: usize = 20_000;

/// Emits the Rust source of a compiled game.
///
/// The move tables are formatted one at a time, so that the memory emission needs grows with the
/// largest table rather than with all of them together.
///
/// # Errors
///
/// Returns a message if the generated tokens do not parse as a Rust file (a compiler bug).
pub fn emit(ir: &Ir) -> Result<String, String> {
    let mut tables = Tables::default();
    let (head, rest) = emit_module(ir, &mut tables);
    let mut out = format!(
        "// Generated from `{}` by vdl; do not edit.\n\n",
        ir.source_path
    );
    out.push_str(&format_items(head)?);
    for (index, kind) in tables.kinds.iter().enumerate() {
        out.push_str(&emit_table(&table_name(index).to_string(), kind));
    }
    out.push_str(&format_items(rest)?);
    Ok(pack::pack_tables(&out))
}

/// Formats a sequence of items as prettyplease prints a file.
fn format_items(tokens: TokenStream) -> Result<String, String> {
    let file: syn::File =
        syn::parse2(tokens).map_err(|e| format!("generated code does not parse: {e}"))?;
    Ok(prettyplease::unparse(&file))
}

/// The move tables of the hook form, each emitted once however many parts and players walk it (a
/// rook's lines serve every player, and a cannon's quiet and capturing parts share theirs).
#[derive(Default)]
struct Tables<'a> {
    kinds: Vec<&'a PartKind>,
}

impl<'a> Tables<'a> {
    /// The name of the table holding the geometry of `kind`, registering it if it is new.
    fn name(&mut self, kind: &'a PartKind) -> proc_macro2::Ident {
        let index = match self.kinds.iter().position(|k| same_table(k, kind)) {
            Some(index) => index,
            None => {
                self.kinds.push(kind);
                self.kinds.len() - 1
            }
        };
        table_name(index)
    }
}

fn table_name(index: usize) -> proc_macro2::Ident {
    format_ident!("TABLE_{}", index)
}

/// Whether two parts' geometries are emitted as the same table.
fn same_table(a: &PartKind, b: &PartKind) -> bool {
    match (a, b) {
        (PartKind::Leap(x), PartKind::Leap(y)) => x == y,
        (
            PartKind::Ride(x) | PartKind::Hop(x, _) | PartKind::Grasshop(x),
            PartKind::Ride(y) | PartKind::Hop(y, _) | PartKind::Grasshop(y),
        ) => x == y,
        _ => false,
    }
}

/// Emits the module around the tables: what comes before them and what comes after.
fn emit_module<'a>(ir: &'a Ir, tables: &mut Tables<'a>) -> (TokenStream, TokenStream) {
    let source = Literal::string(&ir.source);
    let name = Literal::string(&ir.name);
    let file_name = Literal::string(
        &std::path::Path::new(&ir.source_path)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    let mut zones = Vec::new();
    let mut functions = Vec::new();
    let mut arms = Vec::new();
    for (index, generator) in ir.generators.iter().enumerate() {
        let function = format_ident!("generate_{}", index);
        let (part_zones, body) = emit_piece(index, generator, tables);
        zones.extend(part_zones);
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
    let head = quote! {
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
    };
    let rest = quote! {
        #(#zones)*
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
    };
    (head, rest)
}

/// Emits the compact form when the game fits the fast profile, and `perft`, which runs on the fastest
/// engine the game has.
fn emit_fast_form(ir: &Ir) -> TokenStream {
    let perft_doc = "Runs the perft command on the fastest engine of this game.";
    let play_doc = "Plays at the terminal from the start position with the option values `setups` (`NAME=VALUE`): the board, people's moves and the end of the game on the interpreter, the engine seats' search on the fastest engine of this game.";
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

                #[doc = #play_doc]
                ///
                /// # Errors
                ///
                /// Returns a message when the engine cannot be built or an option value is unknown.
                pub fn play<R: std::io::BufRead, W: std::io::Write>(seats: &[vdl_runtime::play::Seat], setups: &[String], input: R, output: W) -> Result<std::io::Result<vdl_runtime::play::Played>, String> {
                    let mut fast = compact::fast_engine()?;
                    vdl_runtime::Variant::set_options(&mut fast, setups)?;
                    let engine = vdl_runtime::protocol::Engine::from_interpreter(fast.interpreter.clone());
                    let think = vdl_runtime::play::compact_think(&fast);
                    Ok(vdl_runtime::play::play_terminal_with(&engine, seats, &think, input, output))
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

                #[doc = #play_doc]
                ///
                /// # Errors
                ///
                /// Returns a message when the engine cannot be built or an option value is unknown.
                pub fn play<R: std::io::BufRead, W: std::io::Write>(seats: &[vdl_runtime::play::Seat], setups: &[String], input: R, output: W) -> Result<std::io::Result<vdl_runtime::play::Played>, String> {
                    let mut interpreter = engine()?;
                    vdl_runtime::Variant::set_options(&mut interpreter, setups)?;
                    let engine = vdl_runtime::protocol::Engine::from_interpreter(interpreter);
                    Ok(vdl_runtime::play::play_terminal(&engine, seats, input, output))
                }
            }
        }
    }
}

/// Emits the zone tables and the body of one piece's generation function, registering its move
/// tables.
fn emit_piece<'a>(
    index: usize,
    generator: &'a PieceGen,
    tables: &mut Tables<'a>,
) -> (Vec<TokenStream>, TokenStream) {
    let mut zones = Vec::new();
    let mut blocks = Vec::new();
    for (part_index, part) in generator.parts.iter().enumerate() {
        let table = tables.name(&part.kind);
        let mut block = emit_part(&table, part);
        if part.initial {
            block = quote! { if occupant.is_virgin() { #block } };
        }
        if let Some(cells) = &part.from_cells {
            let zone = format_ident!("FROM_{}_{}", index, part_index);
            let flags = cells
                .iter()
                .map(|&b| if b { quote!(true) } else { quote!(false) });
            let count = Literal::usize_unsuffixed(cells.len());
            zones.push(quote! { static #zone: [bool; #count] = [#(#flags),*]; });
            block = quote! { if #zone[cell] { #block } };
        }
        blocks.push(block);
    }
    (zones, quote! { #(#blocks)* })
}

/// Emits a move table: per cell, leaps as (target, cell that must be empty, cell that must be
/// occupied), or, per cell and direction, the cells along the line; `NONE` pads the rows.
fn emit_table(table: &str, kind: &PartKind) -> String {
    // Tables are data: written as text, a row per cell, with `NONE` for padding, rather than through
    // the formatter, which would give every number a line of its own.
    let cell = |values: Vec<String>| values.join(", ");
    let number = |v: u16| {
        if v == NONE {
            "NONE".to_string()
        } else {
            v.to_string()
        }
    };
    let (doc, ty, rows): (&str, String, Vec<String>) = match kind {
        PartKind::Leap(leaps) => {
            let width = leaps.iter().map(Vec::len).max().unwrap_or(0).max(1);
            let rows = leaps
                .iter()
                .map(|row| {
                    let items = (0..width).map(|i| {
                        let (to, block, need) = row.get(i).copied().unwrap_or((NONE, NONE, NONE));
                        format!("({}, {}, {})", number(to), number(block), number(need))
                    });
                    format!("[{}]", cell(items.collect()))
                })
                .collect();
            (
                "Per cell: leaps as (target, cell that must be empty, cell that must be occupied).",
                format!("[[(u16, u16, u16); {width}]; {}]", leaps.len()),
                rows,
            )
        }
        PartKind::Ride(lines) | PartKind::Hop(lines, _) | PartKind::Grasshop(lines) => {
            let (directions, length) = line_shape(lines);
            let rows = lines
                .iter()
                .map(|row| {
                    let dirs = (0..directions).map(|d| {
                        let line = row.get(d).map(Vec::as_slice).unwrap_or(&[]);
                        let items =
                            (0..length).map(|i| number(line.get(i).copied().unwrap_or(NONE)));
                        format!("[{}]", cell(items.collect()))
                    });
                    format!("[{}]", cell(dirs.collect()))
                })
                .collect();
            (
                "Per cell and direction: the cells along the line, in order.",
                format!("[[[u16; {length}]; {directions}]; {}]", lines.len()),
                rows,
            )
        }
    };
    let mut out = format!("/// {doc}\nstatic {table}: {ty} = [\n");
    for (index, row) in rows.iter().enumerate() {
        out.push_str(&format!("    {row}, // cell {index}\n"));
    }
    out.push_str("];\n");
    out
}

/// The directions and the longest line of a line table.
fn line_shape(lines: &[Vec<Vec<u16>>]) -> (usize, usize) {
    let directions = lines.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let length = lines
        .iter()
        .flatten()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    (directions, length)
}

/// Emits the loop that walks one part's table.
fn emit_part(table: &proc_macro2::Ident, part: &PartGen) -> TokenStream {
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
            quote! {
                for &(to, block, need) in #table[cell].iter() {
                    if to == NONE { break; }
                    let _ = (block, need);
                    #lame_check
                    #jump_check
                    let to = to as usize;
                    let target = position.cells[to];
                    if target.is_empty() { #on_empty } else { #on_occupied }
                }
            }
        }
        PartKind::Ride(_) | PartKind::Hop(..) | PartKind::Grasshop(_) => {
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
            quote! {
                for line in #table[cell].iter() {
                    #walk
                }
            }
        }
    }
}
