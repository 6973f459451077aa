//! Malformed positions and moves never panic: mutated FENs and move strings are fed to the reader of
//! every example, and each either reads or gives an error.

use vdl_runtime::{Interpreter, Variant};
use vdl_tests::{read_text, vdl_files, workspace_root, Rng};

const NOISE: &[&str] = &[
    "/",
    "9",
    "99999999999999999999",
    "[",
    "]",
    "+",
    "~",
    "(",
    ")",
    "(0K)",
    "*",
    "|",
    "//",
    " ",
    "-",
    "w",
    "b",
    "é",
    "\0",
    "KQkq",
    "e9",
    "3+3",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        match rng.below(4) {
            0 if !chars.is_empty() => {
                let at = rng.below(chars.len());
                chars.remove(at);
            }
            1 => {
                let at = rng.below(chars.len() + 1);
                let noise: Vec<char> = rng.pick(NOISE).chars().collect();
                for (i, c) in noise.into_iter().enumerate() {
                    chars.insert(at + i, c);
                }
            }
            2 if chars.len() > 2 => {
                let (a, b) = (rng.below(chars.len()), rng.below(chars.len()));
                chars.swap(a, b);
            }
            _ => chars.truncate(rng.below(chars.len() + 1)),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_positions_and_moves_never_panic() {
    let mut rng = Rng::new(0xfe11);
    let mut tried = 0;
    for example in vdl_files(&workspace_root().join("examples")) {
        let game = vdl_dsl::check::check_source(&read_text(&example))
            .game
            .expect("examples check");
        let variant = Interpreter::new(game).expect("examples load");
        let mut start = variant.start();
        let text = variant.write_position(&start);
        let mut moves = Vec::new();
        variant.legal_moves(&mut start, &mut moves);
        let move_texts: Vec<String> = moves
            .iter()
            .map(|m| variant.write_move(&start, *m))
            .collect();
        for _ in 0..150 {
            let bad = mutate(&mut rng, &text);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                if let Ok(mut position) = variant.parse_position(&bad) {
                    // A position that reads must also be usable.
                    let mut list = Vec::new();
                    variant.legal_moves(&mut position, &mut list);
                    let _ = variant.write_position(&position);
                }
            }));
            assert!(
                outcome.is_ok(),
                "{}: reading `{bad}` panicked",
                example.display()
            );
            if let Some(mv) = move_texts.first() {
                let bad_move = mutate(&mut rng, mv);
                let mut position = variant.start();
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let _ = variant.parse_move(&mut position, &bad_move);
                }));
                assert!(
                    outcome.is_ok(),
                    "{}: a mutated move panicked",
                    example.display()
                );
            }
            tried += 1;
        }
    }
    assert!(tried > 1000);
}

// ---------------------------------------------------------------------------------------------
// The `{pieces}`, `{side}`, `{en_passant}` and `{checkmates}` fields of position templates, on
// Armies of Faith 5 (`position "{pieces} {side} {en_passant} {checkmates} {halfmove}"`, its §10).
// ---------------------------------------------------------------------------------------------

const CATHOLIC: usize = 0;
const PROTESTANT: usize = 1;
const BYZANTINE: usize = 2;
const ISLAMIC: usize = 3;

fn armies_of_faith() -> Interpreter {
    let path = workspace_root().join("examples/armies-of-faith-5.vdl");
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("armies-of-faith-5.vdl checks");
    Interpreter::new(game).expect("armies-of-faith-5.vdl loads")
}

fn interpreter(source: &str) -> Interpreter {
    let checked = vdl_dsl::check::check_source(source);
    let game = checked
        .game
        .unwrap_or_else(|| panic!("does not check: {:?}", checked.problems));
    Interpreter::new(game).expect("loads")
}

/// The cell and piece name of a cell, for assertions.
fn piece_on(v: &Interpreter, pos: &vdl_runtime::interp::Position, cell: &str) -> (usize, String) {
    let game = &v.game;
    let id = game
        .cells
        .iter()
        .position(|c| c.name == cell)
        .expect("a cell");
    let occ = pos.cells[id];
    assert!(!occ.is_empty(), "no piece on {cell}");
    (occ.owner(), game.pieces[occ.piece()].letter.clone())
}

/// Writes, reads back and writes again: the same text and the same hash.
fn assert_round_trip(v: &Interpreter, pos: &vdl_runtime::interp::Position) -> String {
    let text = v.write_position(pos);
    let reread = v
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("`{text}` does not read back: {e}"));
    assert_eq!(v.write_position(&reread), text, "written again");
    assert_eq!(v.hash(&reread), v.hash(pos), "hash of `{text}`");
    assert_eq!(reread.eliminated, pos.eliminated, "eliminated in `{text}`");
    assert_eq!(reread.mated_by, pos.mated_by, "mated_by in `{text}`");
    let players = v.game.players.len();
    for p in (0..players).filter(|&p| pos.is_eliminated(p)) {
        assert_eq!(
            reread.dropped_among[p], pos.dropped_among[p],
            "dropped_among[{p}] in `{text}`"
        );
    }
    text
}

fn read_error(v: &Interpreter, text: &str) -> String {
    match v.parse_position(text) {
        Ok(_) => panic!("`{text}` reads"),
        Err(e) => e.message,
    }
}

#[test]
fn armies_of_faith_scenario_position_reads_and_writes() {
    let v = armies_of_faith();
    // §10 scenario 1: cK js4, pK jz4, bK az4, iK as4, iCM ev2, Islamic to move.
    let mut pos = v
        .parse_position("cKjs4,pKjz4,bKaz4,iKas4,iCMev2 i")
        .expect("scenario 1 reads");
    assert_eq!(pos.side, ISLAMIC);
    assert_eq!(piece_on(&v, &pos, "js4"), (CATHOLIC, "K".into()));
    assert_eq!(piece_on(&v, &pos, "jz4"), (PROTESTANT, "K".into()));
    assert_eq!(piece_on(&v, &pos, "az4"), (BYZANTINE, "K".into()));
    assert_eq!(piece_on(&v, &pos, "ev2"), (ISLAMIC, "CM".into()));
    assert_eq!(pos.cells.iter().filter(|o| !o.is_empty()).count(), 5);
    // Grouped by player in declaration order, each group in cell order; the other fields at their
    // start values.
    assert_eq!(
        v.write_position(&pos),
        "cKjs4,pKjz4,bKaz4,iKas4,iCMev2 i - - 0"
    );
    // The Camel has its 16 moves (and the King 7).
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves);
    assert_eq!(moves.len(), 23);
    // Rank-first cell names (the board's alias) and any order of the items read the same.
    let same = v
        .parse_position("iCMve2,iKsa4,bKza4,pKjz4,cKjs4 i - - 0")
        .expect("aliases read");
    assert_eq!(v.hash(&same), v.hash(&pos));
    assert_eq!(
        v.write_position(&same),
        "cKjs4,pKjz4,bKaz4,iKas4,iCMev2 i - - 0"
    );
    // A piece that got its type by promotion keeps its `~`.
    let promoted = v
        .parse_position("cKjs4,cCD~az1,pKjz4,bKaz4,iKas4 p - - 7")
        .expect("a promoted piece reads");
    assert_eq!(
        assert_round_trip(&v, &promoted),
        "cCD~az1,cKjs4,pKjz4,bKaz4,iKas4 p - - 7"
    );
}

#[test]
fn armies_of_faith_en_passant_and_checkmates() {
    let v = armies_of_faith();
    // §10 scenario 6 after gs2-es2: the Protestant Pawn ft1 may take on fs2, removing es2.
    let mut pos = v
        .parse_position("cKjs4,cPes2,pKjz4,pPft1,bKaz4,iKas4,iPes3 p fs2:es2 - 0")
        .expect("en passant reads");
    let land = v.game.cells.iter().position(|c| c.name == "fs2").unwrap();
    let captured = v.game.cells.iter().position(|c| c.name == "es2").unwrap();
    assert_eq!(pos.en_passant, vec![(land, captured)]);
    assert_round_trip(&v, &pos);
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| v.write_move(&pos, m)).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("ft1") && t.contains("fs2")),
        "{texts:?}"
    );

    // §10 scenario 14(a): Catholic checkmated Islamic earlier.
    let pos = v
        .parse_position("cEMjs4,cRay4,pKjz4,bKaz4 c - ci 0")
        .expect("checkmates read");
    assert_eq!(pos.eliminated, 1 << ISLAMIC);
    assert_eq!(pos.mated_by[ISLAMIC], CATHOLIC as u8 + 1);
    assert_eq!(pos.dropped_among[ISLAMIC], 4);
    assert_eq!(
        assert_round_trip(&v, &pos),
        "cRay4,cEMjs4,pKjz4,bKaz4 c - ci 0"
    );

    // §10 scenario 15: Catholic checkmated Islamic, then Protestant checkmated Catholic.
    let pos = v
        .parse_position("pEMjz4,bKaz4,bRfz4 b - ci,pc 3")
        .expect("two checkmates read");
    assert_eq!(pos.dropped_among[ISLAMIC], 4);
    assert_eq!(pos.dropped_among[CATHOLIC], 3);
    assert_eq!(pos.mated_by[CATHOLIC], PROTESTANT as u8 + 1);
    assert_eq!(
        assert_round_trip(&v, &pos),
        "pEMjz4,bKaz4,bRfz4 b - ci,pc 3"
    );

    // Two checkmates in one turn share the players left; they are written in the order the turn
    // processes them (turn order from the player after the mater), and read in any order.
    let pos = v
        .parse_position("pEMjz4 p - cb,pi+pc 0")
        .expect("a double checkmate reads");
    assert_eq!(pos.dropped_among[BYZANTINE], 4);
    assert_eq!(pos.dropped_among[ISLAMIC], 3);
    assert_eq!(pos.dropped_among[CATHOLIC], 3);
    assert_eq!(assert_round_trip(&v, &pos), "pEMjz4 p - cb,pi+pc 0");
    let swapped = v
        .parse_position("pEMjz4 p - cb,pc+pi 0")
        .expect("the other order reads");
    assert_eq!(v.write_position(&swapped), "pEMjz4 p - cb,pi+pc 0");
    assert_eq!(v.hash(&swapped), v.hash(&pos));
}

#[test]
fn armies_of_faith_round_trip_after_a_checkmate() {
    let v = armies_of_faith();
    // Byzantine moves; at the start of the Islamic turn the Rook ds4 attacks the Catholic King.
    let mut pos = v
        .parse_position("cKjs4,pKjz4,bKaz4,iKas1,iRds4 b")
        .expect("reads");
    let mut moves = Vec::new();
    v.legal_moves(&mut pos, &mut moves);
    assert!(!moves.is_empty());
    for &mv in &moves {
        let before = pos.clone();
        let undo = v.make(&mut pos, mv);
        assert_eq!(
            pos.eliminated,
            1 << CATHOLIC,
            "{}",
            v.write_move(&before, mv)
        );
        assert_eq!(pos.mated_by[CATHOLIC], ISLAMIC as u8 + 1);
        assert_eq!(pos.dropped_among[CATHOLIC], 4);
        let text = assert_round_trip(&v, &pos);
        assert!(text.ends_with(" i - ic 0"), "{text}");
        assert!(v
            .render(&pos)
            .contains("out: catholic (checkmated by islamic)"));
        v.unmake(&mut pos, mv, undo);
    }
}

#[test]
fn armies_of_faith_round_trip_after_random_moves() {
    let v = armies_of_faith();
    let mut rng = Rng::new(0xa0f5);
    let mut with_en_passant = 0;
    for _ in 0..3 {
        let mut pos = v.start();
        for _ in 0..120 {
            assert_round_trip(&v, &pos);
            with_en_passant += usize::from(!pos.en_passant.is_empty());
            let mut moves = Vec::new();
            v.legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            v.make(&mut pos, mv);
        }
    }
    assert!(with_en_passant > 0, "no en-passant rights met");
    // Whole random games, for positions after eliminations.
    let mut after_eliminations = 0;
    for _ in 0..3 {
        let mut pos = v.start();
        for ply in 0..3000 {
            if ply % 25 == 0 || (pos.eliminated != 0 && ply % 4 == 0) {
                assert_round_trip(&v, &pos);
                after_eliminations += usize::from(pos.eliminated != 0);
            }
            if v.outcome(&mut pos).is_some() {
                break;
            }
            let mut moves = Vec::new();
            v.legal_moves(&mut pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            v.make(&mut pos, mv);
        }
    }
    assert!(after_eliminations > 0, "no eliminations met");
    // The start position's pieces count as unmoved, as in the start position itself.
    let start = v.start();
    let reread = v.parse_position(&v.write_position(&start)).unwrap();
    assert_eq!(reread.cells, start.cells);
}

#[test]
fn armies_of_faith_bad_positions_are_named() {
    let v = armies_of_faith();
    let cases = [
        ("cKjs4,cZZjs3 c", "piece `cZZjs3`: unknown piece letter"),
        ("cKjs9 c", "piece `cKjs9`: no cell `js9`"),
        (
            "xKjs4 c",
            "piece `xKjs4` does not start with a player's prefix",
        ),
        (
            "cKjs4,pKjs4 c",
            "piece `pKjs4`: `js4` already holds a piece",
        ),
        (
            "cKjs4,pKjz4 w",
            "side to move `w` is not `c`, `p`, `b` or `i`",
        ),
        ("cKjs4,pKjz4 c fs2", "en passant `fs2` is not LAND:CAPTURED"),
        (
            "cKjs4,pKjz4 c fs2:es9",
            "en passant `fs2:es9`: no cell `es9`",
        ),
        (
            "cKjs4,pKjz4 c fs2:es2",
            "en passant `fs2:es2`: no piece on `es2` to capture",
        ),
        (
            "cKjs4,cPes2,pKjz4 c es2:es2",
            "en passant `es2:es2`: `es2` is not empty",
        ),
        (
            "cKjs4,pKjz4 c - cx",
            "checkmate `cx` in `cx` is not a mater's code then the checkmated player's",
        ),
        (
            "cKjs4,pKjz4 c - cc",
            "checkmate `cc`: catholic cannot checkmate himself",
        ),
        (
            "cKjs4,pKjz4 c - ci,pi",
            "checkmate `pi`: islamic is already out",
        ),
        (
            "cKjs4,pKjz4 p - ci,ip",
            "checkmate `ip`: the mater, islamic, is out",
        ),
        (
            "cKjs4,pKjz4 c - pb+ci",
            "checkmates `pb+ci` of one turn have different maters",
        ),
        (
            "cKjs4,pKjz4 i - ci",
            "the player to move, islamic, is out of the game",
        ),
        (
            "cKjs4,pKjz4 c - ci,cb,cp,-c",
            "checkmates `ci,cb,cp,-c` leave no player",
        ),
    ];
    for (text, message) in cases {
        let error = read_error(&v, text);
        assert!(
            error.contains(message),
            "`{text}`: `{error}` does not say `{message}`"
        );
    }
}

#[test]
fn pieces_that_read_two_ways_are_rejected() {
    // The items `xKKa1` is the King-King of `x` or the King of `xK`.
    let v = interpreter(
        r#"
game twins
board main 4x4
player one { fen_prefix "x" }
player two { fen_prefix "xK" }
piece king { letter K; moves "K"; royal }
piece double { letter KK; moves "W" }
setup { place one king a1; place two king d4; place one double b1 }
notation { position "{pieces} {side}" }
end { checkmate win }
"#,
    );
    let error = read_error(&v, "xKKa1,xKKd4 w");
    assert!(error.contains("piece `xKKa1` is ambiguous"), "`{error}`");
    // The pieces are written with the prefixes; a two-player game keeps `w`/`b` for `{side}` (the
    // first player has upper-case letters by default).
    let start = v.start();
    assert_eq!(v.write_position(&start), "xKa1,xKKb1,xKKd4 w");
}

#[test]
fn two_player_games_write_pieces_by_case() {
    // Without prefixes, `{pieces}` uses the letter case of FEN and `{side}` keeps `w`/`b`.
    let v = interpreter(
        r#"
game mini
board main 8x8
player white { letters upper }
player black
piece king { letter K; moves "K"; royal }
piece rook { letter R; moves "R" }
setup "4k3/8/8/8/8/8/8/R3K3 b - - 3 9"
notation { position "{side} {pieces} {halfmove} {fullmove}" }
end { checkmate win }
"#,
    );
    let start = v.start();
    let text = v.write_position(&start);
    assert_eq!(text, "b Ra1,Ke1,ke8 3 9");
    assert_round_trip(&v, &start);
    assert_eq!(
        read_error(&v, "c Ke1,ke8"),
        "side to move `c` is not `w` or `b`"
    );
}

#[test]
fn games_without_prefixes_or_case_write_owner_indices() {
    // Three players, no prefixes: owners by their index, `{side}` by name, `{checkmates}` by name.
    let v = interpreter(
        r#"
game trio
board main 6x6
player red
player green
player blue
piece king { letter K; moves "K"; royal }
setup { place red king a1; place green king f6; place blue king a6 }
notation { position "{pieces} {side} {checkmates}" }
end { checkmate win }
"#,
    );
    let start = v.start();
    assert_eq!(v.write_position(&start), "0Ka1,1Kf6,2Ka6 red -");
    let pos = v.parse_position("0Ka1,1Kf6 green redblue").expect("reads");
    assert_eq!(pos.eliminated, 1 << 2);
    assert_eq!(pos.mated_by[2], 1);
    assert_eq!(assert_round_trip(&v, &pos), "0Ka1,1Kf6 green redblue");
    assert_eq!(
        read_error(&v, "0Ka1 yellow"),
        "side to move `yellow` is not `red`, `green` or `blue`"
    );
}

#[test]
fn vdl_position_text_keeps_eliminations() {
    // BacCanCat has no position template: its `out=` field keeps when and by whom a player dropped
    // out, and still reads the older bare names.
    let path = workspace_root().join("examples/baccancat.vdl");
    let game = vdl_dsl::check::check_source(&read_text(&path))
        .game
        .expect("baccancat.vdl checks");
    let v = Interpreter::new(game).expect("loads");
    let names: Vec<String> = v.game.players.iter().map(|p| p.name.clone()).collect();
    let mut pos = v.start();
    pos.eliminated = 1 << 1 | 1 << 2;
    pos.dropped_among[1] = 4;
    pos.mated_by[1] = 1;
    pos.dropped_among[2] = 3;
    let text = v.write_position(&pos);
    let out = format!(" out={}:4:{},{}:3", names[1], names[0], names[2]);
    assert!(text.ends_with(&out), "`{text}` does not end with `{out}`");
    let reread = v.parse_position(&text).expect("reads back");
    assert_eq!(reread.eliminated, pos.eliminated);
    assert_eq!(reread.dropped_among, pos.dropped_among);
    assert_eq!(reread.mated_by, pos.mated_by);
    assert_eq!(v.write_position(&reread), text);
    // The older form.
    let old = text.replace(&out, &format!(" out={},{}", names[1], names[2]));
    let reread = v.parse_position(&old).expect("the older form reads");
    assert_eq!(reread.eliminated, pos.eliminated);
    assert_eq!(reread.dropped_among, [0; 8]);
    assert_eq!(reread.mated_by, [0; 8]);
    let bad = text.replace(&out, &format!(" out={}:x", names[1]));
    assert!(read_error(&v, &bad).contains("is not a number"));
}

/// Positions no game of the rules can reach are refused, and the message names the field at fault.
#[test]
fn impossible_positions_are_refused_naming_the_field() {
    let game = |stem: &str| {
        let path = workspace_root().join(format!("examples/{stem}.vdl"));
        interpreter(&read_text(&path))
    };
    let chess = game("chess");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(chess.parse_position(start).is_ok());
    assert!(read_error(&chess, &format!("{start} junk")).contains("unexpected field `junk`"));
    assert!(read_error(&chess, &format!("{start} 0 1")).contains("unexpected field `0`"));

    let crazyhouse = game("crazyhouse");
    let hand = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1";
    assert!(crazyhouse.parse_position(hand).is_ok());
    for royal in ["[K]", "[Pk]"] {
        let text = hand.replace("[Pp]", royal);
        let message = read_error(&crazyhouse, &text);
        assert!(
            message.starts_with("hand: `K` is a royal piece"),
            "{message}"
        );
    }
    let shogi = game("shogi");
    let message = read_error(
        &shogi,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[K] w - - 0 1",
    );
    assert!(
        message.starts_with("hand: `K` is a royal piece"),
        "{message}"
    );

    // Afterlife Chess: a neutral side (gray, owner 2) in the vdl position text.
    let afterlife = game("afterlife-chess");
    let start = afterlife.write_position(&afterlife.start());
    assert!(start.contains(" white - - 0 1"), "{start}");
    let with = |old: &str, new: &str| start.replacen(old, new, 1);
    let message = read_error(&afterlife, &with(" white ", " gray "));
    assert_eq!(
        message,
        "side to move: `gray` is a neutral side, not a player"
    );
    let message = read_error(&afterlife, &format!("{start} turn=99999"));
    assert!(
        message.starts_with("`turn=99999`: a turn has 1 single move"),
        "{message}"
    );
    let message = read_error(&afterlife, &format!("{start} out=white"));
    assert_eq!(message, "side to move: `white` is out of the game");
    assert!(afterlife
        .parse_position(&format!("{start} out=black"))
        .is_ok());
}
