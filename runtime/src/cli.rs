//! The perft command shared by `vdl perft` and every compiled engine (`ENGINE perft ...`), so both print
//! exactly the same output: per-move counts with `--divide`, then `nodes N` as the last line on stdout;
//! time and nodes per second on stderr, and root-move progress when stderr is a terminal.

use std::io::Write;

use crate::variant::Variant;

/// The options of a perft run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftOptions {
    /// The depth in plies.
    pub depth: u32,
    /// The position to start from, instead of the start position.
    pub fen: Option<String>,
    /// Moves played first, separated by spaces.
    pub moves: Option<String>,
    /// Whether to print the count of each root move.
    pub divide: bool,
    /// Option values (`--setup NAME=VALUE` or a bare value), for [`Variant::set_options`].
    pub setups: Vec<String>,
    /// A PGN file whose game is played first (from its FEN tag or the start), before `moves`.
    pub pgn: Option<String>,
    /// Which game of the PGN file, from 1 (0 when not given: the first).
    pub game: usize,
}

/// Reads `DEPTH [--fen FEN] [--moves "..."] [--pgn FILE [--game N]] [--divide] [--setup X]...` plus
/// any other positional arguments, which are returned in order before the depth (`vdl perft` has the
/// rule file there).
///
/// # Errors
///
/// Returns a usage message.
pub fn parse_perft_args(
    args: &[String],
    leading: usize,
) -> Result<(Vec<String>, PerftOptions), String> {
    let mut positional = Vec::new();
    let mut options = PerftOptions::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                i += 1;
                options.fen = Some(args.get(i).ok_or("--fen needs a position")?.clone());
            }
            "--moves" => {
                i += 1;
                options.moves = Some(args.get(i).ok_or("--moves needs a list of moves")?.clone());
            }
            "--divide" => options.divide = true,
            "--pgn" => {
                i += 1;
                options.pgn = Some(args.get(i).ok_or("--pgn needs a file")?.clone());
            }
            "--game" => {
                i += 1;
                options.game = game_number(args.get(i).ok_or("--game needs a number")?)?;
            }
            "--setup" => {
                i += 1;
                options.setups.push(
                    args.get(i)
                        .ok_or("--setup needs NAME=VALUE or a value")?
                        .clone(),
                );
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            other => positional.push(other.to_string()),
        }
        i += 1;
    }
    if positional.len() != leading + 1 {
        return Err(
            "expected DEPTH [--fen FEN] [--moves \"M1 M2 ...\"] [--pgn FILE [--game N]] [--divide] \
             [--setup NAME=VALUE]"
                .into(),
        );
    }
    let depth_text = positional.pop().unwrap_or_default();
    options.depth = depth_text
        .parse()
        .map_err(|_| format!("depth `{depth_text}` is not a number"))?;
    check_start_choice(&options)?;
    Ok((positional, options))
}

/// Reads the number of a game in a PGN file (`--game N`), counted from 1.
///
/// # Errors
///
/// Returns a usage message for anything but a positive number.
pub fn game_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("games are counted from 1: --game 0 names none".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("game `{text}` is not a number")),
    }
}

/// Refuses a start given twice (`--fen` with `--pgn`) and `--game` without `--pgn`.
///
/// # Errors
///
/// Returns a usage message.
pub fn check_start_choice(options: &PerftOptions) -> Result<(), String> {
    if options.fen.is_some() && options.pgn.is_some() {
        return Err("--fen and --pgn both give the position: use one".into());
    }
    if options.game != 0 && options.pgn.is_none() {
        return Err("--game chooses a game of the --pgn file: give --pgn FILE".into());
    }
    Ok(())
}

/// The position given by a FEN (or the start), with moves played from it (in SAN or the game's own
/// notation).
///
/// # Errors
///
/// Returns a message naming a bad FEN or an illegal move.
pub fn position_from<V: Variant>(
    variant: &V,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<V::Position, String> {
    let position = match fen {
        Some(text) => variant
            .parse_position(text)
            .map_err(|e| format!("bad FEN: {e}"))?,
        None => variant.start(),
    };
    play_moves(variant, position, moves)
}

/// Plays moves given as text, separated by spaces, from `position`.
fn play_moves<V: Variant>(
    variant: &V,
    mut position: V::Position,
    moves: Option<&str>,
) -> Result<V::Position, String> {
    for text in moves.iter().flat_map(|m| m.split_whitespace()) {
        let mv = crate::san::parse(variant, &mut position, text).map_err(|e| e.to_string())?;
        variant.make(&mut position, mv);
    }
    Ok(position)
}

/// The position at the end of game `game` (from 1) of a PGN file, with the game's moves.
///
/// # Errors
///
/// Returns a message naming an unreadable file, a missing game, a bad FEN tag or an illegal move.
pub fn pgn_game<V: Variant>(
    variant: &V,
    path: &str,
    game: usize,
) -> Result<(crate::pgn::Game, crate::pgn::Replayed<V>), String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    let games =
        crate::pgn::read(&String::from_utf8_lossy(&text)).map_err(|e| format!("{path}: {e}"))?;
    let index = game.max(1);
    let chosen = games
        .into_iter()
        .nth(index - 1)
        .ok_or_else(|| format!("`{path}` has no game {index}"))?;
    let (position, moves) = crate::pgn::replay_any(variant, &chosen)
        .map_err(|e| format!("{path}, game {index}: {e}"))?;
    Ok((chosen, (position, moves)))
}

/// The position a perft run starts from: a PGN game's end, or a FEN (or the start), then the moves.
///
/// # Errors
///
/// Returns a message naming what does not read.
pub fn perft_position<V: Variant>(
    variant: &V,
    options: &PerftOptions,
) -> Result<V::Position, String> {
    match &options.pgn {
        Some(path) => {
            let (_, (position, _)) = pgn_game(variant, path, options.game)?;
            play_moves(variant, position, options.moves.as_deref())
        }
        None => position_from(variant, options.fen.as_deref(), options.moves.as_deref()),
    }
}

/// Runs perft and prints the result.
///
/// # Errors
///
/// Returns a message naming a bad FEN or an illegal move.
pub fn run_perft<V: Variant>(
    variant: &V,
    options: &PerftOptions,
    out: &mut dyn Write,
    progress: bool,
) -> Result<u64, String> {
    let mut position = perft_position(variant, options)?;
    let started = std::time::Instant::now();
    let nodes = if options.depth == 0 {
        1
    } else {
        let mut results =
            crate::perft::divide(variant, &mut position, options.depth, |done, total| {
                if progress {
                    eprint!("\r{done}/{total} root moves");
                }
            });
        if progress {
            eprint!("\r");
        }
        if options.divide {
            // Root moves in ASCII order of their text, so that lists from different generators compare
            // line by line.
            results.sort();
            for (text, count) in &results {
                let _ = writeln!(out, "{text}: {count}");
            }
        }
        results.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{seconds:.3} s, {:.0} nodes/s",
        nodes as f64 / seconds.max(1e-9)
    );
    let _ = writeln!(out, "nodes {nodes}");
    Ok(nodes)
}

/// The options of a run of random games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomOptions {
    /// How many games.
    pub games: usize,
    /// The seed of the move choices.
    pub seed: u64,
    /// Games still going after this many single moves are reported unfinished (default: 1000).
    pub max_plies: Option<usize>,
    /// Option values (`--setup`), for [`Variant::set_options`].
    pub setups: Vec<String>,
    /// Where the games are saved as PGN (`--pgn FILE`), if anywhere.
    pub pgn: Option<String>,
}

impl Default for RandomOptions {
    fn default() -> Self {
        RandomOptions {
            games: 1,
            seed: 1,
            max_plies: None,
            setups: Vec::new(),
            pgn: None,
        }
    }
}

/// Reads `--random GAMES [--seed S] [--max-plies N] [--setup X]...`, returning the other arguments.
///
/// # Errors
///
/// Returns a usage message.
pub fn parse_random_args(args: &[String]) -> Result<(Vec<String>, RandomOptions), String> {
    let mut options = RandomOptions::default();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).ok_or(format!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--random" => {
                let v = value()?;
                options.games = v
                    .parse()
                    .map_err(|_| format!("`{v}` is not a number of games"))?;
            }
            "--seed" => {
                let v = value()?;
                options.seed = v
                    .parse()
                    .map_err(|_| format!("seed `{v}` is not a number"))?;
            }
            "--max-plies" => {
                let v = value()?;
                options.max_plies = Some(
                    v.parse()
                        .map_err(|_| format!("`{v}` is not a number of plies"))?,
                );
            }
            "--setup" => options.setups.push(value()?.clone()),
            "--pgn" => options.pgn = Some(value()?.clone()),
            _ => {
                rest.push(args[i].clone());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Ok((rest, options))
}

/// A ranking as people write it: `1 Protestant, 2 Catholic, 3-4 Byzantine Islamic`.
pub fn ranking_text(places: &[(usize, usize)], name: &dyn Fn(usize) -> String) -> String {
    let mut order: Vec<usize> = (0..places.len()).collect();
    order.sort_by_key(|&p| places[p]);
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let (first, last) = places[order[i]];
        let mut names = Vec::new();
        while i < order.len() && places[order[i]] == (first, last) {
            names.push(name(order[i]));
            i += 1;
        }
        let place = if first == last {
            first.to_string()
        } else {
            format!("{first}-{last}")
        };
        parts.push(format!("{place} {}", names.join(" ")));
    }
    parts.join(", ")
}

/// Where [`run_random_games`] saves its games as PGN: the game's protocol facts (names, notation),
/// whose turn a position is, and the output.
pub struct RandomRecord<'a, V: Variant> {
    /// The game's names and conventions, for the PGN tags.
    pub info: &'a crate::protocol::GameInfo,
    /// The player to move in a position.
    pub side: &'a dyn Fn(&V::Position) -> usize,
    /// The PGN text goes here, one game after another.
    pub out: &'a mut dyn Write,
    /// The first write error, if any: the games go on, and the caller reports it.
    pub error: Option<std::io::Error>,
}

impl<V: Variant> RandomRecord<'_, V> {
    fn write(
        &mut self,
        variant: &V,
        game: usize,
        players: usize,
        start: &V::Position,
        moves: &[V::Move],
        result: Option<&crate::variant::GameResult>,
    ) {
        if self.error.is_some() {
            return;
        }
        let text = variant.write_position(start);
        let labels = vec!["random".to_string(); players];
        let sans = crate::pgn::san_moves(variant, start, moves, self.side);
        let record = crate::pgn::record(
            self.info,
            &variant.write_position(&variant.start()),
            &text,
            "vdl play --random",
            game,
            &labels,
            sans,
            result,
        );
        if let Err(e) = self.out.write_all(crate::pgn::write(&record).as_bytes()) {
            self.error = Some(e);
        }
    }
}

/// [`run_random_games`] on standard output for the players `info` names, saving the games as PGN in `options.pgn` when it names a
/// file (created or truncated first). Returns the number of unfinished games, or a message naming
/// the file that could not be written.
pub fn play_random_games<V: Variant>(
    variant: &V,
    options: &RandomOptions,
    info: &crate::protocol::GameInfo,
    side: &dyn Fn(&V::Position) -> usize,
) -> Result<usize, String> {
    let players = &info.players;
    let stdout = &mut std::io::stdout();
    let Some(path) = options.pgn.as_deref() else {
        return Ok(run_random_games(variant, players, options, stdout, None));
    };
    let cannot = |e: std::io::Error| format!("cannot write `{path}`: {e}");
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(cannot)?);
    let mut record = RandomRecord {
        info,
        side,
        out: &mut out,
        error: None,
    };
    let unfinished = run_random_games(variant, players, options, stdout, Some(&mut record));
    if let Some(e) = record.error.take() {
        return Err(cannot(e));
    }
    out.flush().map_err(cannot)?;
    eprintln!("the games are saved in {path}");
    Ok(unfinished)
}

/// Plays random games (each legal move equally likely, from a SplitMix64 stream seeded with
/// `options.seed`) to their end and prints one line per game with its result and length, then a
/// summary: the same output for `vdl play --random` and a built engine's `random` command.
/// `players` names the players in turn order. With `record`, each game is also written there as PGN
/// (see [`RandomRecord`]). Returns the number of unfinished games.
pub fn run_random_games<V: Variant>(
    variant: &V,
    players: &[String],
    options: &RandomOptions,
    out: &mut dyn Write,
    mut record: Option<&mut RandomRecord<'_, V>>,
) -> usize {
    let mut state = options.seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let name = |p: usize| players.get(p).cloned().unwrap_or_else(|| p.to_string());
    let mut wins = vec![0usize; players.len()];
    let (mut draws, mut unfinished) = (0usize, 0usize);
    let mut moves = Vec::new();
    let max_plies = options.max_plies.unwrap_or(1000);
    for game in 1..=options.games {
        let mut position = variant.start();
        let start = position.clone();
        let mut played = Vec::new();
        let mut plies = 0;
        let result = loop {
            if let Some(result) = variant.outcome(&mut position) {
                break Some(result);
            }
            // A result the rules let a player claim is claimed at once, as a player would.
            if let Some(mut result) = variant.claimable(&position) {
                result.reason = format!("{}, claimed", result.reason);
                break Some(result);
            }
            if plies >= max_plies {
                break None;
            }
            moves.clear();
            variant.legal_moves(&mut position, &mut moves);
            if moves.is_empty() {
                break None;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            variant.make(&mut position, mv);
            played.push(mv);
            plies += 1;
        };
        if let Some(record) = record.as_mut() {
            record.write(
                variant,
                game,
                players.len(),
                &start,
                &played,
                result.as_ref(),
            );
        }
        let text = match &result {
            Some(r) => match r.winner {
                Some(w) => {
                    if let Some(count) = wins.get_mut(w) {
                        *count += 1;
                    }
                    match variant.partner(w) {
                        // A team wins together.
                        Some(partner) => {
                            format!("{} and {} win ({})", name(w), name(partner), r.reason)
                        }
                        None => format!("{} wins ({})", name(w), r.reason),
                    }
                }
                None => {
                    draws += 1;
                    format!("draw ({})", r.reason)
                }
            },
            None => {
                unfinished += 1;
                format!("unfinished after {max_plies} plies")
            }
        };
        // Games that score games (`scoring`) show each player's points.
        let points = result
            .as_ref()
            .and_then(|r| variant.scores(&position, r))
            .map(|scores| {
                let each: Vec<String> = scores
                    .iter()
                    .enumerate()
                    .map(|(p, s)| format!("{} {s}", name(p)))
                    .collect();
                format!(", points {}", each.join(" "))
            })
            .unwrap_or_default();
        let ranking = result
            .as_ref()
            .and_then(|r| variant.ranking(&position, r))
            .map(|places| format!(", ranking {}", ranking_text(&places, &name)))
            .unwrap_or_default();
        let _ = writeln!(out, "game {game}: {text}, {plies} plies{points}{ranking}");
    }
    let summary: Vec<String> = players
        .iter()
        .zip(&wins)
        .map(|(p, w)| format!("{p} {w}"))
        .collect();
    let _ = writeln!(
        out,
        "{} games: {}, draws {draws}, unfinished {unfinished}",
        options.games,
        summary.join(", ")
    );
    unfinished
}
