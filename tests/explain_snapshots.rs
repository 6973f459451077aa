//! Snapshots of `vdl explain` (every piece's moves drawn on an empty board) for each example that checks.
//!
//! Examples that do not check yet are skipped, not failed: they are being fixed separately, and the
//! diagnostics tests cover the checker. `chess.vdl` must always check.

use vdl_dsl::check::check_source;
use vdl_tests::{read_text, workspace_root};

#[test]
fn explain() {
    insta::glob!("../examples", "*.vdl", |path| {
        let checked = check_source(&read_text(path));
        let Some(game) = checked.game else {
            eprintln!("skipped {}: it does not check yet", path.display());
            return;
        };
        let text = vdl::explain::explain(&game, None)
            .unwrap_or_else(|e| panic!("explain {}: {e}", path.display()));
        insta::assert_snapshot!(text);
    });
}

#[test]
fn chess_checks_cleanly() {
    let path = workspace_root().join("examples/chess.vdl");
    let source = read_text(&path);
    let checked = check_source(&source);
    assert!(
        checked.problems.is_empty() && checked.game.is_some(),
        "examples/chess.vdl should check without problems:\n{}",
        vdl::report::render_text("chess.vdl", &source, &checked.problems, false)
    );
}

#[test]
fn explaining_one_piece_of_chess() {
    let checked = check_source(&read_text(&workspace_root().join("examples/chess.vdl")));
    let game = checked.game.expect("chess checks");
    let knight = vdl::explain::explain(&game, Some("knight")).expect("chess has a knight");
    assert!(knight.starts_with("piece knight (N)"), "{knight}");
    let error = vdl::explain::explain(&game, Some("dragon")).expect_err("chess has no dragon");
    assert!(
        error.contains("no piece `dragon`") && error.contains("knight"),
        "{error}"
    );
}
