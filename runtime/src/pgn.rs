//! PGN: games written with the tags XBoard writes for variants (`Variant`, `FEN`, `SetUp`), their
//! moves in SAN ([`crate::san`]) or the game's own notation, and read back (docs/protocols.md).

use crate::variant::Variant;

/// A game to write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The tags in order (the seven-tag roster first, as [`roster`] gives it).
    pub tags: Vec<(String, String)>,
    /// The moves: for each, the player who made it and its text.
    pub moves: Vec<(usize, String)>,
    /// The move number of the first move.
    pub first_number: u32,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// How the game ended, written as a comment before the result.
    pub comment: Option<String>,
}

/// The seven-tag roster: Event, Site, Date (today), Round, White, Black, Result.
pub fn roster(
    event: &str,
    round: usize,
    white: &str,
    black: &str,
    result: &str,
) -> Vec<(String, String)> {
    [
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
        ("Result", result.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Today's date as PGN writes it (`2024.05.17`, in UTC).
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The calendar date of a day counted from 1970-01-01.
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Writes a game: its tags, then the moves numbered by rounds (a number before the first player's
/// move, `N...` when the game starts with another's), wrapped at 79 columns, the comment and the
/// result.
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    for (name, value) in &record.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    let mut tokens = movetext(&record.moves, record.first_number);
    if let Some(comment) = &record.comment {
        tokens.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    tokens.push(record.result.clone());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The moves as PGN numbers them: `N.` before each round's first player's move, `N...` when the
/// moves start with another player's.
pub fn movetext(moves: &[(usize, String)], first_number: u32) -> Vec<String> {
    let mut tokens: Vec<String> = Vec::new();
    let mut number = first_number.max(1);
    let mut previous: Option<usize> = None;
    for (side, text) in moves {
        match previous {
            None if *side == 0 => tokens.push(format!("{number}.")),
            None => tokens.push(format!("{number}...")),
            Some(p) if *side == 0 && p != 0 => {
                number += 1;
                tokens.push(format!("{number}."));
            }
            _ => {}
        }
        tokens.push(text.clone());
        previous = Some(*side);
    }
    tokens
}

/// A finished (or abandoned) game as a record: the seven-tag roster (for more than two players a
/// `Players` tag names each player's seat), the variant's tags ([`variant_tags`]), the moves, and the
/// result with its description as the final comment. `start` is the game's start position and `from`
/// the position this game started from, both in the game's FEN; `labels` name who played each seat.
#[allow(clippy::too_many_arguments)]
pub fn record(
    info: &crate::protocol::GameInfo,
    start: &str,
    from: &str,
    event: &str,
    round: usize,
    labels: &[String],
    moves: Vec<(usize, String)>,
    result: Option<&crate::variant::GameResult>,
) -> Record {
    let players = info.players.len();
    let token = result_token(result.and_then(|r| r.winner), result.is_some(), players);
    let label = |seat: usize| labels.get(seat).cloned().unwrap_or_else(|| "?".into());
    let mut tags = roster(event, round, &label(0), &label(1), token);
    if players != 2 {
        tags.retain(|(name, _)| name != "White" && name != "Black");
        let seats: Vec<String> = (0..players)
            .map(|seat| format!("{}={}", info.player_name(seat), label(seat)))
            .collect();
        tags.insert(4, ("Players".to_string(), seats.join(", ")));
    }
    tags.extend(variant_tags(info, start, from));
    let first_number = from
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    Record {
        tags,
        moves,
        first_number,
        result: token.to_string(),
        comment: result.map(|r| crate::protocol::describe_result(info, r)),
    }
}

/// A replayed game: the position reached and the moves played.
pub type Replayed<V> = (<V as Variant>::Position, Vec<<V as Variant>::Move>);

/// A game read from a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The tags in order.
    pub tags: Vec<(String, String)>,
    /// The move texts, without numbers, comments, variations and annotations glyphs.
    pub moves: Vec<String>,
    /// The result token, if the movetext ends with one.
    pub result: Option<String>,
}

impl Game {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position's FEN, when the game gives one (`FEN`, with `SetUp "1"` or without `SetUp`).
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN").filter(|_| self.tag("SetUp") != Some("0"))
    }
}

/// Reads every game of a PGN text.
///
/// # Errors
///
/// Returns a message naming the line of a malformed tag or an unclosed comment or variation.
pub fn read(text: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    let mut game = Game::default();
    let mut in_moves = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let finish = |game: &mut Game, games: &mut Vec<Game>| {
        if !game.tags.is_empty() || !game.moves.is_empty() || game.result.is_some() {
            games.push(std::mem::take(game));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '%' if i == 0 || chars[i - 1] == '\n' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '[' => {
                if in_moves {
                    finish(&mut game, &mut games);
                    in_moves = false;
                }
                let (tag, next) = read_tag(&chars, i, line)?;
                game.tags.push(tag);
                i = next;
            }
            '{' => {
                let start = line;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(format!("line {start}: unclosed comment"));
                }
                i += 1;
                in_moves = true;
            }
            '(' => {
                let start = line;
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        '{' => {
                            while i < chars.len() && chars[i] != '}' {
                                i += 1;
                            }
                        }
                        '\n' => line += 1,
                        _ => {}
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(format!("line {start}: unclosed variation"));
                }
                i += 1;
            }
            _ => {
                in_moves = true;
                let mut j = i;
                while j < chars.len()
                    && !chars[j].is_whitespace()
                    && !matches!(chars[j], '{' | '(' | ';' | '[' | ')')
                {
                    j += 1;
                }
                let token: String = chars[i..j].iter().collect();
                i = j;
                if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = Some(token);
                    finish(&mut game, &mut games);
                    in_moves = false;
                    continue;
                }
                if token.starts_with('$') {
                    continue;
                }
                // A move number, possibly glued to its move (`12.e4`, `12...e5`).
                let digits = token.chars().take_while(char::is_ascii_digit).count();
                let rest = &token[digits..];
                let text = if digits > 0 && rest.starts_with('.') {
                    rest.trim_start_matches('.')
                } else {
                    token.as_str()
                };
                if !text.is_empty() {
                    game.moves.push(text.to_string());
                }
            }
        }
    }
    finish(&mut game, &mut games);
    Ok(games)
}

/// Reads the tag that opens at `chars[at]` (`[NAME "VALUE"]`, on one line, `\\` and `\"` escaped in
/// the value); returns it and the index after its `]`.
fn read_tag(chars: &[char], at: usize, line: usize) -> Result<((String, String), usize), String> {
    let unclosed = || format!("line {line}: unclosed tag (a tag is [NAME \"VALUE\"] on one line)");
    let at_end = |j: usize| j >= chars.len() || chars[j] == '\n';
    let mut j = at + 1;
    while !at_end(j) && chars[j].is_whitespace() {
        j += 1;
    }
    let mut name = String::new();
    while !at_end(j) && !chars[j].is_whitespace() && !matches!(chars[j], '"' | ']') {
        name.push(chars[j]);
        j += 1;
    }
    while !at_end(j) && chars[j].is_whitespace() {
        j += 1;
    }
    if at_end(j) {
        return Err(unclosed());
    }
    if name.is_empty() || chars[j] != '"' {
        return Err(format!(
            "line {line}: the value of tag {} is not quoted",
            if name.is_empty() { "[]" } else { &name }
        ));
    }
    j += 1;
    let mut value = String::new();
    loop {
        if at_end(j) {
            return Err(unclosed());
        }
        match chars[j] {
            '\\' if !at_end(j + 1) => {
                value.push(chars[j + 1]);
                j += 2;
            }
            '"' => break,
            c => {
                value.push(c);
                j += 1;
            }
        }
    }
    j += 1;
    while !at_end(j) && chars[j].is_whitespace() {
        j += 1;
    }
    if at_end(j) {
        return Err(unclosed());
    }
    if chars[j] != ']' {
        return Err(format!(
            "line {line}: tag {name} has more than one value: a tag is [NAME \"VALUE\"]"
        ));
    }
    Ok(((name, value), j + 1))
}

/// Replays a game: from its FEN (or the start position), each move read as SAN or in the game's own
/// notation, after `translate` (which may rewrite another program's squares and letters). Returns the
/// position reached and the moves.
///
/// # Errors
///
/// Returns a message naming a bad FEN or the first move that is not legal, with its number.
pub fn replay<V: Variant>(
    variant: &V,
    game: &Game,
    translate: &dyn Fn(&str) -> String,
) -> Result<Replayed<V>, String> {
    replay_counting(variant, game, translate).map_err(|(_, message)| message)
}

/// [`replay`], with the number of moves read before a failure.
fn replay_counting<V: Variant>(
    variant: &V,
    game: &Game,
    translate: &dyn Fn(&str) -> String,
) -> Result<Replayed<V>, (usize, String)> {
    let mut position = match game.fen() {
        Some(fen) => variant
            .parse_position(&translate_fen(fen, translate))
            .map_err(|e| (0, format!("bad FEN tag: {e}")))?,
        None => variant.start(),
    };
    let mut moves = Vec::with_capacity(game.moves.len());
    for (ply, text) in game.moves.iter().enumerate() {
        let mv = crate::san::parse(variant, &mut position, &translate(text))
            .map_err(|e| (ply, format!("move {} ({text}): {e}", ply + 1)))?;
        variant.make(&mut position, mv);
        moves.push(mv);
    }
    Ok((position, moves))
}

/// Replays a game as [`replay`] does, first in the game's own names, then as XBoard saves games:
/// on a board of 10 ranks with ranks counted from 0, and in xiangqi `H` and `E` for the horse and
/// elephant a game may write `N` and `B`; and a `FEN` tag of the start position without castling rights
/// read with the start position's rights (XBoard writes `-` for partners it does not draw as rooks,
/// while it allows their castling).
///
/// # Errors
///
/// Returns the message of the attempt that read furthest when none reads.
pub fn replay_any<V: Variant>(variant: &V, game: &Game) -> Result<Replayed<V>, String> {
    let start = variant.write_position(&variant.start());
    let mut games = vec![game.clone()];
    if let Some(fen) = game.fen() {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let own: Vec<&str> = start.split_whitespace().collect();
        if fields.len() >= 3 && own.len() >= 3 && fields[..2] == own[..2] && fields[2] != own[2] {
            let mut fixed = fields.clone();
            fixed[2] = own[2];
            let mut with_rights = game.clone();
            for (name, value) in &mut with_rights.tags {
                if name == "FEN" {
                    *value = fixed.join(" ");
                }
            }
            games.push(with_rights);
        }
    }
    let placement = start.split_whitespace().next().unwrap_or_default();
    let board = placement.split('[').next().unwrap_or_default().to_string();
    let ten_ranks = board.split('/').count() == 10;
    let has = |c: char| board.contains(c);
    let letters = has('n') && has('b') && !has('h') && !has('e');
    let xboard = move |text: &str| -> String {
        let mut out = String::new();
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            // Every number in a move is a rank: of a square, or a disambiguating one (`E0e2`).
            if c.is_ascii_digit() {
                let digits: String = chars[i..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .collect();
                let rank: u32 = digits.parse().unwrap_or(0);
                out.push_str(&(rank + 1).to_string());
                i += digits.len();
                continue;
            }
            out.push(match c {
                'H' if letters => 'N',
                'E' if letters => 'B',
                other => other,
            });
            i += 1;
        }
        out
    };
    let own = |text: &str| text.to_string();
    let mut furthest: Option<(usize, String)> = None;
    for game in &games {
        let translations: Vec<&dyn Fn(&str) -> String> = if ten_ranks {
            vec![&own, &xboard]
        } else {
            vec![&own]
        };
        for translate in translations {
            match replay_counting(variant, game, translate) {
                Ok(replayed) => return Ok(replayed),
                Err(failure) => {
                    if furthest.as_ref().is_none_or(|(ply, _)| failure.0 > *ply) {
                        furthest = Some(failure);
                    }
                }
            }
        }
    }
    Err(furthest.map(|(_, message)| message).unwrap_or_default())
}

/// The move texts of a game in SAN (or the game's own notation where SAN has no form), each with the
/// player who made it (`side` tells whose turn a position is).
pub fn san_moves<V: Variant>(
    variant: &V,
    start: &V::Position,
    moves: &[V::Move],
    side: &dyn Fn(&V::Position) -> usize,
) -> Vec<(usize, String)> {
    let mut position = start.clone();
    let mut texts = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mover = side(&position);
        texts.push((mover, crate::san::text(variant, &mut position, mv)));
        variant.make(&mut position, mv);
    }
    texts
}

/// The tags XBoard writes for a variant after the seven-tag roster: `Variant` (unless orthodox chess)
/// and, for an engine-defined variant or a game that does not start from the start position, `FEN`
/// and `SetUp`.
pub fn variant_tags(
    info: &crate::protocol::GameInfo,
    start: &str,
    from: &str,
) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    let name = crate::protocol::xboard::variant_name(info);
    if name != "normal" {
        tags.push(("Variant".to_string(), name));
    }
    let native = crate::protocol::xboard::native_name(info).is_some();
    if !native || start != from {
        tags.push(("FEN".to_string(), from.to_string()));
        tags.push(("SetUp".to_string(), "1".to_string()));
    }
    tags
}

/// The result token of a game of two players: `1-0`, `0-1`, `1/2-1/2`; `*` for an unfinished game or
/// one of more players.
pub fn result_token(winner: Option<usize>, finished: bool, players: usize) -> &'static str {
    match (finished, winner) {
        (false, _) => "*",
        _ if players != 2 => "*",
        (true, Some(0)) => "1-0",
        (true, Some(_)) => "0-1",
        (true, None) => "1/2-1/2",
    }
}

/// A FEN with its en-passant field translated (its only field naming a cell).
fn translate_fen(fen: &str, translate: &dyn Fn(&str) -> String) -> String {
    fen.split_whitespace()
        .enumerate()
        .map(|(i, field)| {
            if i == 3 && field != "-" {
                translate(field)
            } else {
                field.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(19_782), (2024, 2, 29));
    }

    #[test]
    fn written_games_read_back() {
        let record = Record {
            tags: roster("test", 1, "A \"x\"", "B", "0-1"),
            moves: vec![(1, "e5".into()), (0, "Nf3".into()), (1, "Nc6".into())],
            first_number: 4,
            result: "0-1".into(),
            comment: Some("black wins by {checkmate}".into()),
        };
        let text = write(&record);
        assert!(
            text.contains("\n4... e5 5. Nf3 Nc6 {black wins by {checkmate)} 0-1\n"),
            "{text}"
        );
        let games = read(&format!("{text}{text}")).expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("White"), Some("A \"x\""));
        assert_eq!(games[0].moves, ["e5", "Nf3", "Nc6"]);
        assert_eq!(games[1].result.as_deref(), Some("0-1"));
    }

    #[test]
    fn movetext_noise_is_skipped() {
        let games = read(
            "[Event \"x\"]\n\n1.e4 $1 e5 (1... c5 {Sicilian} 2. Nf3) 2.Nf3!? ; rest\n2...Nc6 *\n",
        )
        .expect("reads");
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3!?", "Nc6"]);
        assert!(read("[Event \"x\"\n").is_err());
        assert!(read("1. e4 {open").is_err());
    }
}
