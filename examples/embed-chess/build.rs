//! Compiles the chess rule file into Rust in OUT_DIR, for `include!` in src/main.rs.

fn main() {
    let rule_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../chess.vdl");
    println!("cargo:rerun-if-changed={}", rule_file.display());
    vdl::build::generate_to_out_dir(&rule_file, "chess").unwrap_or_else(|e| panic!("{e}"));
}
