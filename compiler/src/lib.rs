//! The vdl tool's library: rendering diagnostics and piece diagrams. The binary (`main.rs`) does the IO.

pub mod explain;
pub mod report;
