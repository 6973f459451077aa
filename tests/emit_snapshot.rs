//! The generated Rust of one small variant, as a snapshot: emission is deterministic and reviewable.

use vdl_tests::{read_text, workspace_root};

#[test]
fn generated_code_of_dobutsu() {
    let path = workspace_root().join("examples/dobutsu.vdl");
    let code =
        vdl::build::generate("examples/dobutsu.vdl", &read_text(&path)).expect("dobutsu compiles");
    insta::assert_snapshot!(code);
}

#[test]
fn emission_is_deterministic() {
    let path = workspace_root().join("examples/chess.vdl");
    let source = read_text(&path);
    let first = vdl::build::generate("examples/chess.vdl", &source).expect("chess compiles");
    let second = vdl::build::generate("examples/chess.vdl", &source).expect("chess compiles");
    assert_eq!(first, second);
    assert!(first.starts_with("// Generated from `examples/chess.vdl` by vdl; do not edit."));
}
