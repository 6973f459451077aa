//! Checker tests on small inputs and on the examples: the model that comes out, not only the absence of
//! errors.

use super::check_source;

const CHESS: &str = include_str!("../../../examples/chess.vdl");

#[test]
fn chess_builds_the_expected_model() {
    let checked = check_source(CHESS);
    assert!(checked.problems.is_empty(), "{:?}", checked.problems);
    let game = checked.game.expect("chess checks");
    assert_eq!(game.cells.len(), 64);
    assert_eq!(game.cells[0].name, "a1");
    assert_eq!(game.cells[63].name, "h8");
    assert_eq!(
        game.players
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["white", "black"]
    );
    let king = game
        .pieces
        .iter()
        .find(|p| p.name == "king")
        .expect("a king");
    assert_eq!(king.royal, vdl_runtime::model::Royalty::Yes);
    let pawn = game
        .pieces
        .iter()
        .find(|p| p.name == "pawn")
        .expect("a pawn");
    assert_eq!(pawn.moves[0].parts.len(), 3);
    assert_eq!(pawn.promotions[0].choices.len(), 4);
    let last = &game.zones[pawn.promotions[0].zone];
    let names = |cells: &[usize]| {
        cells
            .iter()
            .map(|&c| game.cells[c].name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&last.cells[0])[0], "a8");
    assert_eq!(names(&last.cells[1])[7], "h1");
    assert!(game
        .end
        .iter()
        .any(|e| e.kind == vdl_runtime::model::EndKind::Repetition(3) && !e.automatic));
    assert!(game
        .end
        .iter()
        .any(|e| e.kind == vdl_runtime::model::EndKind::Checkmate && e.automatic));
}

#[test]
fn every_error_in_a_file_is_reported_in_order() {
    let source = CHESS
        .replace("moves \"N\"", "moves \"Nk\"")
        .replace("royal }", "royal; mvoes \"K\" }");
    let checked = check_source(&source);
    let codes: Vec<&str> = checked.problems.iter().map(|p| p.code()).collect();
    assert_eq!(codes, ["E1005", "E2001"]);
    assert!(checked.game.is_none());
    let k = source.find("Nk").expect("present") + 1;
    assert_eq!(checked.problems[0].span.start as usize, k);
}

#[test]
fn three_d_names_accept_both_orders() {
    let source = r#"
game cube
board space 3x2x2 { files a..c; ranks s t; levels 1..2; alias "{rank}{file}{level}" }
player one { forward (1,0,0) }
player two { forward (-1,0,0) }
atom T (1,1,1)
piece king { letter K; moves "WFT"; royal }
setup { place one king as1; place two king tc2 }
end { checkmate win }
"#;
    let checked = check_source(source);
    assert!(!checked.has_errors(), "{:?}", checked.problems);
    let game = checked.game.expect("valid");
    assert_eq!(game.dimensions, 3);
    assert_eq!(game.cells.len(), 12);
    assert_eq!(game.cells.last().map(|c| c.name.as_str()), Some("ct2"));
}

#[test]
fn overlapping_placements_are_reported_at_the_second() {
    let source = CHESS.replace(
        "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"",
        "setup { place white king e1; place black king e1 }",
    );
    let checked = check_source(&source);
    let overlap = checked
        .problems
        .iter()
        .find(|p| p.code() == "E2010")
        .expect("an overlap");
    assert_eq!(&source[overlap.span.range()], "e1");
    assert!(overlap.span.start as usize > source.find("white king e1").expect("present"));
}

#[test]
fn all_examples_check_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("examples exist") {
        let path = entry.expect("readable").path();
        if path.extension().is_some_and(|e| e == "vdl") {
            let source = std::fs::read_to_string(&path).expect("UTF-8");
            let checked = check_source(&source);
            assert!(
                !checked.has_errors(),
                "{}: {:?}",
                path.display(),
                checked.problems
            );
            count += 1;
        }
    }
    assert!(count >= 26, "only {count} examples");
}

/// A 64x64 board with 63 long-moving pieces (62 KB of rule file) is refused by the move-table limit
/// with one located error, before anything is generated.
#[test]
fn the_move_table_limit_refuses_a_huge_game_once() {
    let betza = "QNNCCZZAADDWWFFHHGG".repeat(3);
    let mut source = String::from("game huge\nboard main 64x64\nplayer white\nplayer black\n");
    source.push_str("piece king { letter \"K\"; moves \"K\"; royal }\n");
    for i in 0..62 {
        source.push_str(&format!(
            "piece p{i} {{ letter \"P{i}\"; moves \"{betza}\" }} // {}\n",
            "-".repeat(900)
        ));
    }
    source.push_str("setup { place white king a1; place black king a64 }\nend { checkmate win }\n");
    assert!(source.len() > 60_000, "{}", source.len());
    let checked = check_source(&source);
    let over: Vec<_> = checked
        .problems
        .iter()
        .filter(|p| p.code() == "E2050")
        .collect();
    assert_eq!(over.len(), 1, "{:?}", checked.problems);
    let first = source
        .find(&format!("\"{betza}\""))
        .expect("the first string");
    assert_eq!(over[0].span.start as usize, first);
    assert!(checked.game.is_none());
}
