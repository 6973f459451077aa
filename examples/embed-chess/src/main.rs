//! A program that embeds a vdl game without the `vdl` command: the build script generates the compiled
//! chess engine into OUT_DIR, and this program counts its move tree with the compact form (the hook form,
//! `chess::engine()`, is the interpreter with compiled move generation).
//!
//!     cargo run --release -p vdl-embed-chess -- 5

#[allow(unused, clippy::all)]
mod chess {
    include!(concat!(env!("OUT_DIR"), "/chess.rs"));
}

use vdl_runtime::Variant;

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let engine = chess::compact::fast_engine().expect("the embedded rule file checks");
    let mut position = engine.start();
    let nodes = vdl_runtime::perft::perft(&engine, &mut position, depth);
    println!("{} perft({depth}) = {nodes}", chess::NAME);
}
