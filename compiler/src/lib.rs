//! The vdl tool's library: rendering diagnostics and piece diagrams, and the compiler (lowering to the
//! IR, emission of Rust, engine crates). The binary (`main.rs`) does the IO.

pub mod bench;
pub mod build;
pub mod emit;
pub mod explain;
pub mod lower;
pub mod referee;
pub mod report;
