//! Random games of the seed games, played to the end in lockstep by the reference interpreter and the
//! compiled engine: at every ply both must offer the same legal moves, and both must end the game the
//! same way, with a result the specification allows (section 7 of each file in shared/rules/).
//!
//! `VDL_SEED_GAMES` sets the number of games per game and setup (default 2; the full run is
//! `VDL_SEED_GAMES=1000 cargo test --release -p vdl-tests --test seed_games`), `VDL_SEED_SUBGAMES` the
//! number for each further sub-variant or setup (default 1; the full run uses 200). `VDL_SEED_ONLY`
//! (a game's file stem) plays only that game, `VDL_SEED_SETUP` (`subvariant=3`) only that setup, and
//! `VDL_SEED_RNG` seeds the random moves differently
//! (default 0x5eed), so that a long run can be split over several processes.

use std::collections::BTreeSet;

use vdl_runtime::{GameResult, Interpreter, Variant};
use vdl_tests::{read_text, workspace_root, Rng};

#[allow(unused, clippy::all)]
mod game_team_mate_chess {
    include!(concat!(env!("OUT_DIR"), "/game_team_mate_chess.rs"));
}

#[allow(unused, clippy::all)]
mod game_afterlife_chess {
    include!(concat!(env!("OUT_DIR"), "/game_afterlife_chess.rs"));
}

#[allow(unused, clippy::all)]
mod game_baccancat {
    include!(concat!(env!("OUT_DIR"), "/game_baccancat.rs"));
}

#[allow(unused, clippy::all)]
mod game_armies_of_faith_5 {
    include!(concat!(env!("OUT_DIR"), "/game_armies_of_faith_5.rs"));
}

#[allow(unused, clippy::all)]
mod game_lords_and_vassals {
    include!(concat!(env!("OUT_DIR"), "/game_lords_and_vassals.rs"));
}

/// The longest game played; a game still going then is a failure (every seed game has a move rule).
const MAX_PLIES: usize = 5000;

/// One game and setup to play: the example's stem, the `--setup` values, the results its
/// specification allows (the interpreter's reason names), and the compiled engine.
struct Case {
    stem: &'static str,
    setups: &'static [&'static str],
    allowed: &'static [&'static str],
    compiled: fn() -> Result<Interpreter, String>,
    main: bool,
}

/// Lords and Vassals §7: 5 lords or 5 vassals captured, no legal move, repetition, the no-capture limit.
const LORDS_AND_VASSALS_RESULTS: &[&str] = &[
    "captures",
    "no moves",
    "no_moves",
    "repetition",
    "move rule",
];

/// BacCanCat §7: W1 last survivor, W2 marriage (formation), W3 exhausted reserve (flag), D1 stalemate,
/// D2 repetition, D3 inactivity (move rule).
const BACCANCAT_RESULTS: &[&str] = &[
    "last_survivor",
    "formation",
    "flag",
    "stalemate",
    "repetition",
    "move rule",
];

const CASES: &[Case] = &[
    Case {
        stem: "team-mate-chess",
        setups: &[],
        // §7: checkmate, stalemate, no mating potential, the 64-move rule, threefold repetition.
        allowed: &[
            "checkmate",
            "stalemate",
            "insufficient material",
            "move rule",
            "repetition",
        ],
        compiled: game_team_mate_chess::engine,
        main: true,
    },
    Case {
        stem: "lords-and-vassals",
        setups: &["setup=seeded"],
        allowed: LORDS_AND_VASSALS_RESULTS,
        compiled: game_lords_and_vassals::engine,
        main: true,
    },
    Case {
        stem: "lords-and-vassals",
        setups: &["setup=fixed"],
        allowed: LORDS_AND_VASSALS_RESULTS,
        compiled: game_lords_and_vassals::engine,
        main: false,
    },
    Case {
        stem: "afterlife-chess",
        setups: &[],
        // §7: a Pharaoh ceasing to exist (the `extinction pharaoh loss` line: no Pharaoh left on any
        // board), threefold repetition, the fifty-move rule, no legal move (a draw).
        allowed: &["extinction", "repetition", "move rule", "no_moves"],
        compiled: game_afterlife_chess::engine,
        main: true,
    },
    Case {
        stem: "baccancat",
        setups: &["subvariant=1"],
        allowed: BACCANCAT_RESULTS,
        compiled: game_baccancat::engine,
        main: true,
    },
    Case {
        stem: "baccancat",
        setups: &["subvariant=2"],
        allowed: BACCANCAT_RESULTS,
        compiled: game_baccancat::engine,
        main: false,
    },
    Case {
        stem: "baccancat",
        setups: &["subvariant=3"],
        allowed: BACCANCAT_RESULTS,
        compiled: game_baccancat::engine,
        main: false,
    },
    Case {
        stem: "baccancat",
        setups: &["subvariant=4"],
        allowed: BACCANCAT_RESULTS,
        compiled: game_baccancat::engine,
        main: false,
    },
    Case {
        stem: "armies-of-faith-5",
        setups: &["variant=standard"],
        allowed: ARMIES_OF_FAITH_RESULTS,
        compiled: game_armies_of_faith_5::engine,
        main: true,
    },
    Case {
        stem: "armies-of-faith-5",
        setups: &["variant=raj"],
        allowed: ARMIES_OF_FAITH_RESULTS,
        compiled: game_armies_of_faith_5::engine,
        main: false,
    },
];

/// Armies of Faith 5 §7: a second checkmate by a player who already owns an Emperor, the third
/// checkmate, and the draws of §7.4 (every player passed, repetition, fifty rounds).
const ARMIES_OF_FAITH_RESULTS: &[&str] = &[
    "checkmates",
    "total_checkmates",
    "all_pass",
    "repetition",
    "move rule",
];

fn count(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn with_setups(mut engine: Interpreter, setups: &[&str]) -> Interpreter {
    let values: Vec<String> = setups.iter().map(|s| s.to_string()).collect();
    engine
        .set_options(&values)
        .unwrap_or_else(|e| panic!("setup {setups:?}: {e}"));
    engine
}

fn move_set(variant: &Interpreter, position: &mut vdl_runtime::interp::Position) -> Vec<String> {
    let mut moves = Vec::new();
    variant.legal_moves(position, &mut moves);
    let texts: BTreeSet<String> = moves
        .iter()
        .map(|m| variant.write_move(position, *m))
        .collect();
    texts.into_iter().collect()
}

/// Plays one random game in lockstep; returns its result and length.
fn play(
    reference: &Interpreter,
    compiled: &Interpreter,
    rng: &mut Rng,
    label: &str,
) -> (GameResult, usize) {
    let mut a = reference.start();
    let mut b = compiled.start();
    for ply in 0..MAX_PLIES {
        let expected = reference.outcome(&mut a);
        let got = compiled.outcome(&mut b);
        assert_eq!(got, expected, "{label}: outcome at ply {ply}");
        if let Some(result) = expected {
            return (result, ply);
        }
        let moves = move_set(reference, &mut a);
        assert_eq!(
            move_set(compiled, &mut b),
            moves,
            "{label}: legal moves at ply {ply} in {}",
            reference.write_position(&a)
        );
        assert!(
            !moves.is_empty(),
            "{label}: no legal move at ply {ply} but no result, in {}",
            reference.write_position(&a)
        );
        let text = rng.pick(&moves).clone();
        let mv = reference.parse_move(&mut a, &text).expect("listed move");
        reference.make(&mut a, mv);
        let mv = compiled.parse_move(&mut b, &text).expect("listed move");
        compiled.make(&mut b, mv);
    }
    panic!("{label}: still going after {MAX_PLIES} plies");
}

#[test]
fn random_seed_games_end_as_the_rules_allow_and_engines_agree() {
    let main_games = count("VDL_SEED_GAMES", 2);
    let sub_games = count("VDL_SEED_SUBGAMES", 1);
    let mut rng = Rng::new(count("VDL_SEED_RNG", 0x5eed) as u64);
    let only = std::env::var("VDL_SEED_ONLY").ok();
    let setup = std::env::var("VDL_SEED_SETUP").ok();
    for case in CASES
        .iter()
        .filter(|c| only.as_deref().is_none_or(|stem| stem == c.stem))
        .filter(|c| setup.as_deref().is_none_or(|s| c.setups.contains(&s)))
    {
        let path = workspace_root()
            .join("examples")
            .join(format!("{}.vdl", case.stem));
        let game = vdl_dsl::check::check_source(&read_text(&path))
            .game
            .unwrap_or_else(|| panic!("{} does not check", case.stem));
        let reference = with_setups(Interpreter::new(game).expect("loads"), case.setups);
        let compiled = with_setups(
            (case.compiled)().unwrap_or_else(|e| panic!("{}: {e}", case.stem)),
            case.setups,
        );
        let games = if case.main { main_games } else { sub_games };
        let mut tally: std::collections::BTreeMap<String, usize> = Default::default();
        let mut total_plies = 0;
        for game in 0..games {
            let label = format!("{} {:?} game {game}", case.stem, case.setups);
            let (result, plies) = play(&reference, &compiled, &mut rng, &label);
            assert!(
                case.allowed.iter().any(|r| result.reason.starts_with(r)),
                "{label}: ended by `{}` after {plies} plies, which section 7 does not allow",
                result.reason
            );
            total_plies += plies;
            let winner = result
                .winner
                .map_or("draw".to_string(), |w| format!("player {w}"));
            *tally
                .entry(format!("{winner} by {}", result.reason))
                .or_default() += 1;
        }
        eprintln!(
            "{} {:?}: {games} games, {total_plies} plies compared: {tally:?}",
            case.stem, case.setups
        );
    }
}
