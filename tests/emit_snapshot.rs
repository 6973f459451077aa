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
        let most = vdl::emit::MAX_LINES;
        assert!(
            lines <= most,
            "{name}: {lines} generated lines, more than {most}"
        );
        // Tables are packed: inside a static table, no run of lines each holding one short value.
        // (A line ending a filled row may hold one; two in a row are the formatter's layout.)
        let mut in_table = false;
        let mut previous_single = false;
        let mut single = 0;
        for line in code.lines() {
            let trimmed = line.trim();
            let is_single = in_table
                && trimmed.ends_with(',')
                && trimmed.len() < 12
                && !trimmed.starts_with([']', ')'])
                && !trimmed.contains(':');
            if trimmed.starts_with("static ") && trimmed.ends_with("= [") {
                in_table = true;
            } else if trimmed == "];" {
                in_table = false;
            } else if is_single && previous_single {
                single += 1;
            }
            previous_single = is_single;
        }
        assert!(
            single == 0,
            "{name}: {single} lines of one short value each after another"
        );
    }
}

#[test]
fn tables_over_the_limit_are_not_written_out() {
    // 14 piece types leaping each within a zone of its own on a 506-cell board: their tables are no
    // union of the board's steps and no two are alike, so the compact form falls back rather than
    // writing them out.
    let path = workspace_root().join("tests/inputs/emit/wide_zoned.vdl");
    let source = read_text(&path);
    let code = vdl::build::generate("wide_zoned.vdl", &source).expect("it compiles");
    let reason = code
        .lines()
        .find(|l| l.contains("const FALLBACK"))
        .expect("the game falls back");
    // 14 types x 2 players x 2 tables (quiet and capture alike, attacked from) x 506 cells x 8
    // words; the king's steps and the tables of no move are not written out.
    assert!(reason.contains("tables of 226688 words"), "{reason}");
    assert!(code.lines().count() <= vdl::emit::MAX_LINES);
    // With one zone for all of them their tables are alike: written once, under one name each.
    let one_zone = (1..14).fold(source.clone(), |text, i| {
        text.replace(&format!("within west{i} "), "within west0 ")
    });
    let code = vdl::build::generate("one_zone.vdl", &one_zone).expect("it compiles");
    assert!(!code.contains("const FALLBACK"));
    assert!(code.contains("use QUIET_1 as QUIET_2;"), "the tables are written once");
    // The same pieces leaping anywhere make tables of steps: the compact form takes them, computed.
    let free = (0..14).fold(source, |text, i| text.replace(&format!(" within west{i} }}"), " }"));
    let code = vdl::build::generate("wide.vdl", &free).expect("it compiles");
    assert!(!code.contains("const FALLBACK"));
    assert!(code.contains("step_table(") && code.contains("box_steps(&STEP_BOARDS"));
    assert!(code.lines().count() <= vdl::emit::MAX_LINES);
}
