//! The generated Rust of one small variant, as a snapshot: emission is deterministic and reviewable.

use vdl_tests::{read_text, vdl_files, workspace_root};

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

#[test]
fn generated_code_of_every_example_is_bounded() {
    for path in vdl_files(&workspace_root().join("examples")) {
        let name = path.display().to_string();
        let code = vdl::build::generate(&name, &read_text(&path)).expect("the example compiles");
        let lines = code.lines().count();
        assert!(
            lines <= vdl::emit::MAX_LINES,
            "{name}: {lines} generated lines, more than {}",
            vdl::emit::MAX_LINES
        );
        // Tables are packed: inside a static table, no run of lines each holding one short value.
        let mut in_table = false;
        let mut single = 0;
        for line in code.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with("static ") && trimmed.ends_with("= [") {
                in_table = true;
            } else if trimmed == "];" {
                in_table = false;
            } else if in_table
                && trimmed.ends_with(',')
                && trimmed.len() < 12
                && !trimmed.starts_with([']', ')'])
            {
                single += 1;
            }
        }
        assert!(
            single < 200,
            "{name}: {single} lines of one short value each"
        );
    }
}
