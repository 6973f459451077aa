//! Armies of Faith 5: every test scenario of section 10 of the specification
//! (shared/rules/armies-of-faith-5.md, scenarios 1–20), against examples/armies-of-faith-5.vdl, run
//! on the reference interpreter and on both forms of the compiled engine, the hook form and the
//! compact form (tests/build.rs generates them into OUT_DIR), plus the draw rules of section 7.4 and the perft convention of section 6.11.
//!
//! Positions are built from the scenarios' piece lists (`cK js4, iCM ev2`: owner letter, piece
//! code, cell). A scenario "at the start of X's turn" is set up with X to move and the start of the
//! turn (checkmate detection and processing, section 7.1) played by `Interpreter::start_turn`; every
//! other position is one in which the player to move is about to move. Moves are written as in
//! section 6.11 (`ey2xdy3=CD`, `gt2+ht2`, `pass`).

use std::collections::BTreeSet;
use std::sync::Arc;

use vdl_runtime::compact::{CompactPosition, Compiled};
use vdl_runtime::interp::{Occupant, Position};
use vdl_runtime::{perft::perft, GameResult, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root};

#[allow(unused, clippy::all)]
mod game_armies_of_faith_5 {
    include!(concat!(env!("OUT_DIR"), "/game_armies_of_faith_5.rs"));
}

const C: usize = 0;
const P: usize = 1;
const B: usize = 2;
const I: usize = 3;
const OWNERS: &str = "cpbi";

struct Engine {
    name: &'static str,
    v: Interpreter,
    /// The compact form, which then lists, counts and plays the moves.
    compact: Option<Compiled<game_armies_of_faith_5::compact::Fast>>,
}

fn game() -> vdl_runtime::model::Game {
    let path = workspace_root().join("examples/armies-of-faith-5.vdl");
    let checked = vdl_dsl::check::check_source(&read_text(&path));
    checked.game.unwrap_or_else(|| {
        panic!(
            "armies-of-faith-5.vdl does not check: {:?}",
            checked.problems
        )
    })
}

fn options(raj: bool) -> Vec<(String, String)> {
    let value = if raj { "raj" } else { "standard" };
    vec![("variant".to_string(), value.to_string())]
}

fn interpreter(raj: bool) -> Engine {
    Engine {
        name: "interpreter",
        v: Interpreter::with_options(game(), &options(raj)).expect("the game loads"),
        compact: None,
    }
}

fn compiled(raj: bool) -> Engine {
    Engine {
        name: "compiled",
        v: Interpreter::with_options(game(), &options(raj))
            .expect("the game loads")
            .with_generator(Arc::new(game_armies_of_faith_5::Compiled)),
        compact: None,
    }
}

fn compact(raj: bool) -> Engine {
    let mut c = game_armies_of_faith_5::compact::fast_engine().expect("the compact game loads");
    let value = if raj { "raj" } else { "standard" };
    c.set_options(&[format!("variant={value}")])
        .expect("the variant is an option");
    Engine {
        name: "compact",
        v: c.interpreter.clone(),
        compact: Some(c),
    }
}

fn for_both(scenario: fn(&Engine)) {
    for_both_in(false, scenario);
}

/// Runs a scenario (with or without the Raj option) on both engines; the test fails naming every
/// engine that failed.
fn for_both_in(raj: bool, scenario: fn(&Engine)) {
    vdl_tests::on_each_engine(
        [interpreter(raj), compiled(raj), compact(raj)].map(|e| (e.name, e)),
        scenario,
    );
}

fn set(moves: &str) -> BTreeSet<String> {
    moves.split_whitespace().map(String::from).collect()
}

/// `from` followed by each target (`"ev2", "bu2 xbv1"` -> `ev2-bu2 ev2xbv1`): a target starting with
/// `x` is a capture, `+` a merger.
fn from(cell: &str, targets: &str) -> BTreeSet<String> {
    targets
        .split_whitespace()
        .map(|t| match t.chars().next() {
            Some('x' | '+') => format!("{cell}{t}"),
            _ => format!("{cell}-{t}"),
        })
        .collect()
}

/// A move once unpromoted and once with each promotion (the scenarios' "opt {...}").
fn opt(mv: &str, codes: &str) -> BTreeSet<String> {
    let mut out = comp(mv, codes);
    out.insert(mv.to_string());
    out
}

/// A move only with one of the promotions (the scenarios' "comp {...}").
fn comp(mv: &str, codes: &str) -> BTreeSet<String> {
    codes
        .split_whitespace()
        .map(|c| format!("{mv}={c}"))
        .collect()
}

fn union(sets: impl IntoIterator<Item = BTreeSet<String>>) -> BTreeSet<String> {
    sets.into_iter().flatten().collect()
}

impl Engine {
    fn piece(&self, code: &str) -> usize {
        self.v
            .game
            .pieces
            .iter()
            .position(|p| p.letter == code)
            .unwrap_or_else(|| panic!("no piece `{code}`"))
    }

    fn cell(&self, name: &str) -> usize {
        self.v
            .game
            .cells
            .iter()
            .position(|c| c.name == name)
            .unwrap_or_else(|| panic!("no cell `{name}`"))
    }

    /// A position with `side` to move and the listed pieces (`cK js4, pK jz4`), nothing else.
    fn pos(&self, side: usize, pieces: &str) -> Position {
        let mut pos = self.v.start();
        for c in pos.cells.iter_mut() {
            *c = Occupant::EMPTY;
        }
        pos.side = side;
        for item in pieces.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (piece, cell) = item.split_once(' ').expect("`oCODE cell`");
            let owner = OWNERS
                .find(&piece[..1])
                .unwrap_or_else(|| panic!("no owner `{}`", &piece[..1]));
            let occ = Occupant::new(self.piece(&piece[1..]), owner, true, false);
            pos.cells[self.cell(cell)] = occ;
        }
        pos.hash = self.v.full_hash(&pos);
        pos
    }

    /// A position at the start of `side`'s turn: the start of the turn is played on it.
    fn turn_start(&self, side: usize, pieces: &str) -> Position {
        let mut pos = self.pos(side, pieces);
        self.v.start_turn(&mut pos);
        pos
    }

    /// Marks earlier checkmates, `(mater, checkmated)` in order, one per turn.
    fn history(&self, pos: &mut Position, checkmates: &[(usize, usize)]) {
        let mut among = 4;
        for &(mater, victim) in checkmates {
            pos.eliminated |= 1 << victim;
            pos.dropped_among[victim] = among;
            pos.mated_by[victim] = mater as u8 + 1;
            among -= 1;
        }
        pos.hash = self.v.full_hash(pos);
    }

    /// All legal moves, as written; no two share a text (section 6.11).
    fn moves(&self, pos: &mut Position) -> BTreeSet<String> {
        if let Some(c) = &self.compact {
            return vdl_tests::compact_moves(c, pos);
        }
        let mut moves = Vec::new();
        self.v.legal_moves(pos, &mut moves);
        let texts: BTreeSet<String> = moves.iter().map(|m| self.v.write_move(pos, *m)).collect();
        assert_eq!(texts.len(), moves.len(), "two moves with one text");
        texts
    }

    /// The legal moves of the piece on `cell`.
    fn moves_of(&self, pos: &mut Position, cell: &str) -> BTreeSet<String> {
        self.moves(pos)
            .into_iter()
            .filter(|m| {
                m.strip_prefix(cell)
                    .is_some_and(|rest| rest.starts_with(['-', 'x', '+']))
            })
            .collect()
    }

    fn play(&self, pos: &mut Position, moves: &str) {
        if let Some(c) = &self.compact {
            vdl_tests::compact_play(c, pos, moves);
            return;
        }
        for text in moves.split_whitespace() {
            let mv = self
                .v
                .parse_move(pos, text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            self.v.make(pos, mv);
        }
    }

    /// What stands on a cell, as the scenarios write it (`cEM`), or `.`.
    fn at(&self, pos: &Position, cell: &str) -> String {
        let occ = pos.cells[self.cell(cell)];
        if occ.is_empty() {
            return ".".into();
        }
        format!(
            "{}{}",
            &OWNERS[occ.owner()..occ.owner() + 1],
            self.v.game.pieces[occ.piece()].letter
        )
    }

    /// Asserts what stands on cells: `"js4 cEM, is4 cES, as1 ."`.
    fn expect(&self, pos: &Position, cells: &str) {
        for item in cells.split(',').map(str::trim) {
            let (cell, want) = item.split_once(' ').expect("`cell piece`");
            assert_eq!(self.at(pos, cell), want, "on {cell}");
        }
    }

    /// The pieces of a player, as `CODE cell` sorted.
    fn army(&self, pos: &Position, player: usize) -> Vec<String> {
        let mut out: Vec<String> = pos
            .cells
            .iter()
            .enumerate()
            .filter(|(_, o)| !o.is_empty() && o.owner() == player)
            .map(|(c, o)| {
                format!(
                    "{} {}",
                    self.v.game.pieces[o.piece()].letter,
                    self.v.game.cells[c].name
                )
            })
            .collect();
        out.sort();
        out
    }

    /// Perft on the engine (the compact form's own when it has one).
    fn perft(&self, pos: &mut Position, depth: u32) -> u64 {
        match &self.compact {
            Some(c) => perft(c, &mut CompactPosition::new(c.from_interpreter(pos)), depth),
            None => perft(&self.v, pos, depth),
        }
    }

    fn outcome(&self, pos: &mut Position) -> Option<GameResult> {
        self.v.outcome(pos)
    }

    /// The ranking of a finished game as `[(first, last place)]` per player C, P, B, I.
    fn ranking(&self, pos: &mut Position) -> Vec<(usize, usize)> {
        let result = self.outcome(pos).expect("the game is over");
        self.v
            .ranking(pos, &result)
            .expect("the game ranks its players")
    }
}

#[test]
fn s01_camel_has_sixteen_targets() {
    for_both(|e| {
        let mut pos = e.pos(I, "cK js4, pK jz4, bK az4, iK as4, iCM ev2");
        assert_eq!(
            e.moves_of(&mut pos, "ev2"),
            from(
                "ev2",
                "bu2 bv1 bv3 bw2 ds2 dy2 es1 es3 ey1 ey3 fs2 fy2 hu2 hv1 hv3 hw2"
            )
        );
    });
}

#[test]
fn s02_camel_returns_in_five_moves() {
    for_both(|e| {
        let mut pos = e.pos(I, "cK js4, pK jz4, bK az4, iK as4, iCM bt1");
        let others = ["js4-js3 jz4-jz3 az4-az3", "js3-js4 jz3-jz4 az3-az4"];
        for (i, camel) in ["bt1-cw1", "cw1-dt1", "dt1-ew1", "ew1-bw2", "bw2-bt1"]
            .iter()
            .enumerate()
        {
            e.play(&mut pos, camel);
            e.play(&mut pos, others[i % 2]);
        }
        e.expect(&pos, "bt1 iCM, bw2 .");
    });
}

#[test]
fn s03_metropolitan() {
    for_both(|e| {
        let mut pos = e.pos(B, "cK js4, pK jz4, bK dx4, iK as4, bMT as1, bP cs2, cN bv1");
        let moves = e.moves_of(&mut pos, "as1");
        assert_eq!(
            moves,
            from(
                "as1",
                "bt1 cu1 dv1 ew1 fx1 gy1 hz1 bs2 cs3 ds4 at2 au3 av4 \
                 ct1 dt1 et1 ft1 gt1 ht1 it1 jt1 bu1 xbv1 \
                 bs3 bs4 \
                 au2 av2 aw2 ax2 ay2 az2 at3 at4"
            )
        );
        assert_eq!(moves.len(), 33);
    });
}

#[test]
fn s04_ancress() {
    for_both(|e| {
        let mut pos = e.pos(
            P,
            "cK js4, pK hx4, bK az4, iK as4, pA jz1, pP iz2, bN jw1, cB hy1, cN iy1",
        );
        let moves = e.moves_of(&mut pos, "jz1");
        assert_eq!(
            moves,
            from(
                "jz1",
                "iz1 hz1 gz1 fz1 ez1 dz1 cz1 bz1 az1 jy1 jx1 xjw1 jz2 jz3 jz4 \
                 xhy1 hz2 gz3 fz4 \
                 ix1 hw1 gv1 fu1 et1 ds1 jx2 jw3 jv4 \
                 iz3 hz4 jy3 jx4"
            )
        );
        assert_eq!(moves.len(), 32);
        assert!(!moves.contains("jz1xiy1"));
    });
}

#[test]
fn s05_pawn_double_step_from_pawn_start_cells() {
    for_both(|e| {
        let pieces =
            "cK js4, pK jz4, bK az4, iK as4, iP dt2, iP du4, iR et1, cN eu2, cB et3, pP du1";
        let mut pos = e.pos(I, pieces);
        assert_eq!(
            e.moves_of(&mut pos, "dt2"),
            from("dt2", "et2 ft2 du2 dv2 xeu2 xet3 xdu1")
        );
        assert_eq!(e.moves_of(&mut pos, "du4"), from("du4", "eu4 dv4"));
        // The double step belongs to the cell: a Pawn that stepped onto dt2 has the same moves.
        let mut pos = e.pos(I, &pieces.replace("iP dt2", "iP ds2"));
        e.play(&mut pos, "ds2-dt2 js4-js3 jz4-jz3 az4-az3");
        assert_eq!(
            e.moves_of(&mut pos, "dt2"),
            from("dt2", "et2 ft2 du2 dv2 xeu2 xet3 xdu1")
        );
    });
}

#[test]
fn s06_en_passant_with_four_players() {
    for_both(|e| {
        let start = e.pos(C, "cK js4, pK jz4, bK az4, iK as4, cP gs2, pP ft1, iP es3");
        let mut pos = start.clone();
        assert_eq!(e.moves_of(&mut pos, "gs2"), from("gs2", "fs2 es2 gt2 gu2"));
        e.play(&mut pos, "gs2-es2");
        assert_eq!(e.moves_of(&mut pos, "ft1"), from("ft1", "et1 fs1 xfs2"));
        let mut taken = pos.clone();
        e.play(&mut taken, "ft1xfs2");
        e.expect(&taken, "es2 ., fs2 pP, ft1 .");
        // The Islamic Pawn may take it too, on its own turn.
        e.play(&mut pos, "jz4-jy4 az4-ay4");
        assert_eq!(e.moves_of(&mut pos, "es3"), from("es3", "et3 fs3 xfs2"));
        // The right expires when the Catholic turn begins.
        e.play(&mut pos, "as4-at4 js4-js3");
        assert_eq!(e.moves_of(&mut pos, "ft1"), from("ft1", "et1 fs1"));
    });
}

#[test]
fn s07a_yeoman_promotion_zone() {
    for_both(|e| {
        let mut pos = e.pos(I, "cK ev4, pK jz4, bK az4, iK as4, iY gs2, cR hs2");
        let choices = "PC CV CM R N";
        let want = union([
            from("gs2", "gt1 gt3"),
            opt("gs2-hs1", choices),
            opt("gs2-hs3", choices),
            opt("gs2-ht2", choices),
            opt("gs2xhs2", choices),
        ]);
        assert_eq!(e.moves_of(&mut pos, "gs2"), want);
        assert_eq!(want.len(), 26);
    });
}

#[test]
fn s07b_yeoman_compulsory_promotion_on_a_king_column() {
    for_both(|e| {
        let mut pos = e.pos(I, "cK ev4, pK jz4, bK az4, iK as4, iY is2, cN it2");
        let choices = "PC CV CM R N";
        let want = union([
            comp("is2-js1", choices),
            comp("is2-js3", choices),
            opt("is2-it1", choices),
            opt("is2-it3", choices),
            opt("is2-jt2", choices),
            opt("is2xit2", choices),
        ]);
        assert_eq!(e.moves_of(&mut pos, "is2"), want);
        assert_eq!(want.len(), 34);
    });
}

#[test]
fn s08_pawn_promotion_choices() {
    for_both(|e| {
        let mut pos = e.pos(
            C,
            "cK js4, pK jz4, bK ew4, iK as4, cP ey2, cP bz3, bN dy3, bR az4",
        );
        let choices = "PO CD B R N";
        let ey2 = union([
            from("ey2", "ez2"),
            opt("ey2-dy2", choices),
            opt("ey2xdy3", choices),
        ]);
        assert_eq!(e.moves_of(&mut pos, "ey2"), ey2);
        assert_eq!(ey2.len(), 13);
        let bz3 = union([comp("bz3-az3", choices), comp("bz3xaz4", choices)]);
        assert_eq!(e.moves_of(&mut pos, "bz3"), bz3);
        assert_eq!(bz3.len(), 10);
    });
}

#[test]
fn s09_merger_into_a_queen() {
    for_both(|e| {
        let mut pos = e.pos(I, "cK ev4, pK jz4, bK az4, iK as4, iP gt2, iY ht2, cY hu2");
        assert_eq!(
            e.moves_of(&mut pos, "gt2"),
            union([from("gt2", "gu2 +ht2"), opt("gt2xhu2", "PC CL CM R N")])
        );
        let choices = "PC CV CM R N";
        let yeoman = union([
            opt("ht2-hu1", choices),
            opt("ht2-hu3", choices),
            opt("ht2-it1", choices),
            opt("ht2-it3", choices),
            opt("ht2xhu2", choices),
            from("ht2", "iu2"),
        ]);
        assert_eq!(e.moves_of(&mut pos, "ht2"), yeoman);
        assert_eq!(yeoman.len(), 31);
        e.play(&mut pos, "gt2+ht2");
        e.expect(&pos, "gt2 ., ht2 iQ");
    });
}

const TEN: &str = "cK js4, pK jz4, bK az4, iK as1, cR jt1, cR js2, cR jt2, pR bz1";

#[test]
fn s10a_pass_without_check() {
    for_both(|e| {
        let mut pos = e.pos(I, TEN);
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        assert_eq!(pos.side, C);
        assert_eq!(pos.eliminated, 0);
        e.expect(&pos, "js4 cK, as1 iK");
        assert!(e.outcome(&mut pos).is_none());
    });
}

#[test]
fn s10b_checkmate_when_the_attackers_turn_begins() {
    for_both(|e| {
        let mut pos = e.pos(I, &format!("{TEN}, cR ds1, cQ is4"));
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        assert_eq!(pos.side, C);
        assert_eq!(pos.eliminated, 1 << I);
        assert!(e.army(&pos, I).is_empty());
        e.expect(
            &pos,
            "js4 cEM, is4 cES, ds1 cDU, jt1 cR, js2 cR, jt2 cR, jz4 pK, az4 bK",
        );
        assert!(e.outcome(&mut pos).is_none());
        // The rotation is now C, P, B.
        e.play(&mut pos, "js4-is3");
        assert_eq!(pos.side, P);
        e.play(&mut pos, "jz4-jy4");
        assert_eq!(pos.side, B);
        e.play(&mut pos, "az4-ay4");
        assert_eq!(pos.side, C);
    });
}

const ELEVEN: &str =
    "cK js4, cR jt1, cR js2, cR jt2, cR dz1, pK jz4, pR bz1, pR ds1, pQ iz2, bK az4, iK as1";

#[test]
fn s11a_rescue_then_checkmate_by_the_rescuer() {
    for_both(|e| {
        let mut pos = e.pos(I, ELEVEN);
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        assert_eq!((pos.side, pos.eliminated), (C, 0));
        e.play(&mut pos, "dz1xds1");
        assert_eq!((pos.side, pos.eliminated), (P, 0));
        e.play(&mut pos, "jz4-jy4 az4-ay4");
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        assert_eq!((pos.side, pos.eliminated), (C, 1 << I));
        assert_eq!(pos.mated_by[I] as usize, C + 1);
        e.expect(&pos, "js4 cEM, ds1 cDU, jy4 pK, iz2 pQ");
    });
}

#[test]
fn s11b_checkmate_stolen_by_the_attacker() {
    for_both(|e| {
        let mut pos = e.pos(I, ELEVEN);
        e.play(&mut pos, "pass js4-js3");
        assert_eq!((pos.side, pos.eliminated), (P, 1 << I));
        assert_eq!(pos.mated_by[I] as usize, P + 1);
        e.expect(&pos, "jz4 pEM, iz2 pES, ds1 pDU, js3 cK, dz1 cR");
    });
}

#[test]
fn s12_knight_and_bishop_deliver_together() {
    for_both(|e| {
        let mut pos = e.turn_start(
            P,
            "cK js4, cR jt1, cR js2, cR jt2, pK jz4, pN bu1, pB cu1, pQ iz2, bK az4, iK as1, \
             iQ ev2, iP dt2",
        );
        assert_eq!(pos.eliminated, 1 << I);
        assert!(e.army(&pos, I).is_empty());
        e.expect(&pos, "bu1 pCC, cu1 pGV, iz2 pES, jz4 pEM, ev2 ., dt2 .");
        assert_eq!(pos.side, P);
        // P -> B -> C -> P.
        e.play(&mut pos, "jz4-jy4");
        assert_eq!(pos.side, B);
        e.play(&mut pos, "az4-ay4");
        assert_eq!(pos.side, C);
        e.play(&mut pos, "js4-is3");
        assert_eq!(pos.side, P);
    });
}

#[test]
fn s13_pawn_in_the_zone_becomes_a_usurper() {
    for_both(|e| {
        let mut pos = e.turn_start(
            I,
            "cK jt2, pK jz4, bK az4, iK as4, iP is2, iQ bs2, iQ as3, iN cs2",
        );
        assert_eq!(pos.eliminated, 1 << C);
        e.expect(&pos, "jt2 ., is2 iUS, bs2 iES, as3 iES, as4 iEM, cs2 iN");
        assert!(e.outcome(&mut pos).is_none());
        assert_eq!(pos.side, I);
    });
}

#[test]
fn s14a_second_checkmate_by_an_emperor_wins() {
    for_both(|e| {
        let mut pos = e.pos(C, "cEM js4, cR ay4, pK jz4, bK az4");
        e.history(&mut pos, &[(C, I)]);
        e.v.start_turn(&mut pos);
        assert!(pos.is_eliminated(B));
        let result = e.outcome(&mut pos).expect("the game is over");
        assert_eq!(result.winner, Some(C));
        assert_eq!(e.ranking(&mut pos), vec![(1, 1), (2, 2), (3, 3), (4, 4)]);
        // A finished game has no moves.
        assert!(e.moves(&mut pos).is_empty());
        assert_eq!(e.perft(&mut pos, 1), 0);
    });
}

#[test]
fn s14b_second_checkmate_without_an_emperor_goes_on() {
    for_both(|e| {
        let mut pos = e.pos(P, "cEM js4, pK jz4, pR jy4, bK az4");
        e.history(&mut pos, &[(C, I)]);
        e.v.start_turn(&mut pos);
        assert!(pos.is_eliminated(C));
        assert!(e.outcome(&mut pos).is_none());
        e.expect(&pos, "jz4 pEM, jy4 pDU, js4 .");
        assert_eq!(pos.side, P);
        e.play(&mut pos, "jz4-iz4");
        assert_eq!(pos.side, B);
    });
}

#[test]
fn s14c_double_checkmate() {
    for_both(|e| {
        let mut pos = e.turn_start(P, "cK js4, pK jz4, pN bu1, pR bz4, bK az4, iK as1");
        assert_eq!(pos.eliminated, (1 << B) | (1 << I));
        e.expect(&pos, "jz4 pEM, bz4 pDU, bu1 pCC");
        let result = e.outcome(&mut pos).expect("the game is over");
        assert_eq!(result.winner, Some(P));
        assert_eq!(e.ranking(&mut pos), vec![(2, 2), (1, 1), (3, 4), (3, 4)]);
    });
}

#[test]
fn s15_third_checkmate_wins() {
    for_both(|e| {
        let mut pos = e.pos(B, "pEM jz4, bK az4, bR fz4");
        e.history(&mut pos, &[(C, I), (P, C)]);
        e.v.start_turn(&mut pos);
        assert!(pos.is_eliminated(P));
        let result = e.outcome(&mut pos).expect("the game is over");
        assert_eq!(result.winner, Some(B));
        assert_eq!(e.ranking(&mut pos), vec![(3, 3), (2, 2), (1, 1), (4, 4)]);
    });
}

#[test]
fn s16_raj_replacement() {
    for_both_in(true, |e| {
        let pos = e.turn_start(
            C,
            "cK js4, cN bu2, pK jz4, bK az4, iK as2, iCV as1, iCL bs1, iCM bt1, iQ bs2, \
             iPC bs3, iR at1, iN cs1, iY ct1, iP dt1, iES ev3, iUS ew3, iCC ex3, iDU ey3, \
             iGV ez3, iCF fz3",
        );
        assert_eq!(pos.eliminated, 1 << I);
        assert!(e.army(&pos, I).is_empty());
        e.expect(
            &pos,
            "as2 ., bs2 ., ev3 ., as1 cMS, at1 cMS, ey3 cMS, bs1 cSH, bt1 cSH, ez3 cSH, \
             fz3 cSH, bs3 cNB, cs1 cNB, ct1 cNB, dt1 cNB, ew3 cNB, ex3 cNB, bu2 cCC, js4 cEM",
        );
        assert_eq!(e.army(&pos, C).len(), 15);
    });
    // Without the option the checkmated army is removed.
    for_both(|e| {
        let pos = e.turn_start(C, "cK js4, cN bu2, pK jz4, bK az4, iK as2, iR at1, iP dt1");
        assert!(e.army(&pos, I).is_empty());
        e.expect(&pos, "at1 ., dt1 ., bu2 cCC, js4 cEM");
    });
}

#[test]
fn s17_raj_pieces() {
    for_both(|e| {
        let kings = "cK js4, pK jz4, bK az4, iK as4";
        for (piece, targets) in [
            ("MS", "cv2 gv2 et2 ex2 ev4 dv2 ew2"),
            ("NB", "ct4 cx4 gt4 gx4 dw1 dw3"),
            ("SH", "ct2 cx2 gt2 gx2 cv4 gv4 et4 ex4 dw2 dv1 dv3 ew1 ew3"),
        ] {
            let mut pos = e.pos(C, &format!("{kings}, c{piece} ev2"));
            assert_eq!(e.moves_of(&mut pos, "ev2"), from("ev2", targets), "{piece}");
        }
    });
}

#[test]
fn s18a_emperor() {
    for_both(|e| {
        let mut pos = e.pos(C, "cEM ev2, pK jz4, bK az4, iK as4");
        let moves = e.moves_of(&mut pos, "ev2");
        assert_eq!(moves.len(), 30);
        for far in ["ct4", "cx4", "gt4", "gx4"] {
            assert!(moves.contains(&format!("ev2-{far}")), "{far}");
        }
    });
}

#[test]
fn s18b_pope() {
    for_both(|e| {
        let mut pos = e.pos(C, "cK js4, pK jz4, bK az4, iK as4, cPO ev2");
        let moves = e.moves_of(&mut pos, "ev2");
        assert_eq!(
            moves,
            from(
                "ev2",
                "dv2 fv2 eu2 ew2 ev1 ev3 \
                 du1 du3 dw1 dw3 fu1 fu3 fw1 fw3 ct4 cx4 gt4 gx4 \
                 du2 ct2 bs2 dw2 cx2 by2 az2 fu2 gt2 hs2 fw2 gx2 hy2 iz2 \
                 dv1 dv3 cv4 fv1 fv3 gv4 eu1 eu3 et4 ew1 ew3 ex4"
            )
        );
        assert_eq!(moves.len(), 44);
    });
}

#[test]
fn s19_initial_position() {
    for_both(|e| {
        let start = e.v.start();
        for (side, count) in [(C, 74), (P, 74), (B, 74), (I, 116)] {
            let mut pos = start.clone();
            pos.side = side;
            pos.hash = e.v.full_hash(&pos);
            let moves = e.moves(&mut pos);
            assert_eq!(moves.len(), count, "player {side}");
            // Cells are three characters; the fourth tells a capture (rank x is in cell names).
            assert!(moves.iter().all(|m| m.as_bytes()[3] != b'x'), "no captures");
        }
        let mut pos = start.clone();
        assert_eq!(e.moves_of(&mut pos, "hs2"), from("hs2", "fs1 fs3 ft2 gu2"));
        assert_eq!(
            e.moves_of(&mut pos, "hu2"),
            from("hu2", "gu1 gu3 gv2 hv1 hv3")
        );
        assert_eq!(e.moves_of(&mut pos, "gt3"), from("gt3", "ft3 et3 gu3 gv3"));
        pos.side = I;
        pos.hash = e.v.full_hash(&pos);
        assert_eq!(
            e.moves_of(&mut pos, "cu2"),
            from("cu2", "cv1 cv3 du1 du3 dv2")
        );
        assert_eq!(
            e.moves_of(&mut pos, "bt1"),
            from("bt1", "aw1 bw2 cw1 es1 et2 eu1")
        );
    });
}

#[test]
fn s20_a_royal_piece_is_never_captured() {
    for_both(|e| {
        let mut pos = e.turn_start(C, "cK js4, cR ds1, pK hu2, bK az4, iK as1");
        assert_eq!(pos.eliminated, 1 << I);
        e.expect(&pos, "js4 cEM, ds1 cDU");
        let moves = e.moves(&mut pos);
        assert_eq!(moves.len(), 31);
        assert!(!moves.contains("js4xhu2"));
        assert_eq!(moves.iter().filter(|m| m.starts_with("js4")).count(), 6);
        e.play(&mut pos, "ds1-dt1");
        assert_eq!((pos.side, pos.eliminated), (P, 1 << I));
        let moves = e.moves(&mut pos);
        assert_eq!(moves.len(), 21);
        assert!(moves.iter().all(|m| m.starts_with("hu2")));
    });
}

#[test]
fn draw_by_repetition() {
    for_both(|e| {
        let mut pos = e.pos(C, "cK js4, pK jz4, bK az4, iK as4");
        let round = "js4-js3 jz4-jz3 az4-az3 as4-as3 js3-js4 jz3-jz4 az3-az4 as3-as4";
        e.play(&mut pos, round);
        assert!(e.outcome(&mut pos).is_none());
        e.play(&mut pos, round);
        let result = e.outcome(&mut pos).expect("third occurrence");
        assert_eq!(
            (result.winner, result.reason.as_str()),
            (None, "repetition")
        );
        // Everyone still in the game shares the top places.
        assert_eq!(e.ranking(&mut pos), vec![(1, 4); 4]);
    });
}

#[test]
fn draw_by_fifty_rounds_counts_remaining_players() {
    for_both(|e| {
        // Four players: 200 turns.
        let mut pos = e.pos(C, "cK js4, pK jz4, bK az4, iK as4");
        pos.halfmove = 199;
        e.play(&mut pos, "js4-js3");
        let result = e.outcome(&mut pos).expect("fifty rounds");
        assert_eq!((result.winner, result.reason.as_str()), (None, "move rule"));
        // Two players left: 100 turns; the eliminated are ranked below them.
        let mut pos = e.pos(C, "cK js4, pK jz4");
        e.history(&mut pos, &[(C, I), (P, B)]);
        pos.halfmove = 98;
        e.play(&mut pos, "js4-js3");
        assert!(e.outcome(&mut pos).is_none());
        e.play(&mut pos, "jz4-jz3");
        assert!(e.outcome(&mut pos).is_some());
        assert_eq!(e.ranking(&mut pos), vec![(1, 2), (1, 2), (3, 3), (4, 4)]);
    });
}

#[test]
fn draw_when_every_player_passes() {
    for_both(|e| {
        // Catholic and Protestant are left. Each King stands in a corner its forward directions
        // lead out of, walled in by its own Pawns, which cannot move either: both must pass.
        let walled = |o: &str, cells: &str| -> String {
            cells
                .split_whitespace()
                .map(|c| format!("{o}P {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let pieces = format!(
            "cK az1, {}, pK as1, {}",
            walled("c", "bz1 ay1 by1 az2 bz2 ay2 by2"),
            walled("p", "bs1 at1 bt1 as2 bs2 at2 bt2")
        );
        let mut pos = e.pos(C, &pieces);
        e.history(&mut pos, &[(C, I), (P, B)]);
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        assert!(e.outcome(&mut pos).is_none());
        assert_eq!(e.moves(&mut pos), set("pass"));
        e.play(&mut pos, "pass");
        let result = e.outcome(&mut pos).expect("every player passed");
        assert_eq!((result.winner, result.reason.as_str()), (None, "all_pass"));
        assert_eq!(e.ranking(&mut pos), vec![(1, 2), (1, 2), (3, 3), (4, 4)]);
    });
}

#[test]
fn perft_of_the_start_position_agrees_between_engines() {
    let (a, b) = (interpreter(false), compiled(false));
    assert_eq!(perft(&a.v, &mut a.v.start(), 1), 74);
    assert_eq!(perft(&b.v, &mut b.v.start(), 1), 74);
    let two = perft(&a.v, &mut a.v.start(), 2);
    assert_eq!(two, perft(&b.v, &mut b.v.start(), 2));
    let three = perft(&a.v, &mut a.v.start(), 3);
    assert_eq!(three, perft(&b.v, &mut b.v.start(), 3));
    let c = compact(false);
    for (depth, nodes) in [(1, 74), (2, two), (3, three)] {
        assert_eq!(
            c.perft(&mut c.v.start(), depth),
            nodes,
            "compact, depth {depth}"
        );
    }
}
