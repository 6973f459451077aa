//! Model building: turns the checked directives into a [`Game`] and runs the whole-game checks (a way
//! to end, a start position, royal pieces, letters, zones, unused names).

use vdl_runtime::model::{
    Arg, Board, Directive, EndRule, Expr, Game, GameOption, Leg, Merge, MovePart, Moves, Outcome,
    Piece, Player, Promotion, Reserve, Rule, Setup, Zone,
};

use super::Checker;
use crate::ast::{Statement, Value, ValueKind};
use crate::error::ErrorKind;
use crate::span::Span;

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 8;
/// Most piece types a game may have.
pub const MAX_PIECES: usize = 64;

impl Checker {
    /// Builds the model from the top-level statements and their checked directives.
    pub(super) fn build_model(
        &mut self,
        statements: &[Statement],
        directives: &[Directive],
    ) -> Game {
        let mut game = Game {
            dimensions: self.dimensions,
            moves_per_turn: 1,
            ..Game::default()
        };
        game.cells = self.cell_list.clone();
        game.boards = self.board_models.clone();
        let file_start = Span::new(0, 0);
        let game_statement = statements.iter().find(|s| s.keyword.text == "game");
        let anchor = game_statement.map(|s| s.keyword.span).unwrap_or(file_start);
        if game_statement.is_none() {
            self.error(
                file_start,
                ErrorKind::MissingStatement {
                    keyword: "game",
                    context: "the file",
                },
            );
        }
        if self.board_models.is_empty() && !statements.iter().any(|s| s.keyword.text == "board") {
            self.error(
                anchor,
                ErrorKind::MissingStatement {
                    keyword: "board",
                    context: "the file",
                },
            );
        }
        for d in directives {
            match d.keyword.as_str() {
                "game" => self.build_game(d, &mut game),
                "board" => self.build_board_directions(d, &mut game),
                "player" | "neutral" => game.players.push(build_player(d, game.players.len())),
                "piece" => game.pieces.push(self.build_piece(d)),
                "setup" => build_setup(d, &mut game.setup),
                "reserve" => game.reserves.push(build_reserve(d)),
                "castle" => game.castling.push(d.clone()),
                "turn" => build_turn(d, &mut game),
                "end" => {
                    game.end
                        .extend(d.children.iter().filter_map(build_end_rule));
                    if let Some(scoring) = d.children.iter().find(|c| c.keyword == "scoring") {
                        game.scoring = scoring.children.clone();
                    }
                    if let Some(ranking) = d.children.iter().find(|c| c.keyword == "ranking") {
                        game.directives.push(ranking.clone());
                    }
                }
                "rule" => game.rules.push(Rule {
                    name: word(d.arguments.first()),
                    statements: d.children.clone(),
                }),
                "option" => game.options.push(build_option(d)),
                "custodian" => game.custodian = Some(d.clone()),
                "captures" | "transfer" | "typemap" => game.directives.push(d.clone()),
                "notation" => {
                    let template = |keyword: &str| {
                        d.children
                            .iter()
                            .find(|c| c.keyword == keyword)
                            .and_then(|c| match c.arguments.first() {
                                Some(Arg::Str(template)) => Some(template.clone()),
                                _ => None,
                            })
                    };
                    game.move_notation = template("move");
                    game.capture_suffix = template("capture_suffix");
                    game.pass_notation = template("pass");
                    game.position_notation = template("position");
                }
                _ => {}
            }
        }
        self.check_players(statements, anchor);
        self.check_pieces(statements);
        game.zones = self.build_zones(statements, directives);
        self.check_setup(statements, anchor, &game);
        self.check_end(statements, anchor, &game);
        self.check_freeze(statements);
        self.check_position_template(statements);
        self.check_transfers(statements);
        // Unused names are only worth a warning once the file is otherwise right: a broken setup or a
        // misspelt reference would make them look unused.
        if !self.problems.iter().any(|p| !p.is_warning()) {
            self.warn_unused(statements);
        }
        game
    }

    fn build_game(&mut self, d: &Directive, game: &mut Game) {
        game.name = word(d.arguments.first());
        game.title = match d.arguments.get(1) {
            Some(Arg::Str(s)) => s.clone(),
            _ => game.name.clone(),
        };
        for child in &d.children {
            match (child.keyword.as_str(), child.arguments.first()) {
                ("title", Some(Arg::Str(s))) => game.title = s.clone(),
                ("aliases", _) => {
                    game.aliases
                        .extend(child.arguments.iter().filter_map(|a| match a {
                            Arg::Str(s) => Some(s.clone()),
                            _ => None,
                        }))
                }
                _ => {}
            }
        }
    }

    fn build_board_directions(&mut self, d: &Directive, game: &mut Game) {
        let name = word(d.arguments.first());
        if let Some(board) = game.boards.iter_mut().find(|b| b.name == name) {
            for child in &d.children {
                if let ("forward", Some(Arg::Vector(v))) =
                    (child.keyword.as_str(), child.arguments.first())
                {
                    board.forward = Some(*v);
                }
            }
        }
    }

    fn build_piece(&mut self, d: &Directive) -> Piece {
        let mut piece = Piece {
            name: word(d.arguments.first()),
            ..Piece::default()
        };
        for child in &d.children {
            match (child.keyword.as_str(), child.arguments.as_slice()) {
                ("letter", [Arg::Str(s)]) => piece.letter = s.clone(),
                ("royal", _) => piece.royal = true,
                ("pawn", _) => piece.pawn = true,
                ("value", [Arg::Int(v)]) => piece.value = Some(*v as i32),
                ("moves", [Arg::Str(betza), rest @ ..]) => {
                    piece
                        .moves
                        .push(self.build_moves(betza, rest, false, child.condition.clone()))
                }
                ("stacks", [Arg::Str(betza), _, onto @ ..]) => {
                    let moves = self.build_moves(betza, &[], false, child.condition.clone());
                    piece
                        .stacks
                        .push((moves, onto.iter().filter_map(Arg::as_piece).collect()));
                }
                ("merge", [Arg::Str(betza), rest @ ..]) => {
                    // `onto` PIECE... `into` PIECE [`in` ZONE]
                    let moves = self.build_moves(betza, &[], false, child.condition.clone());
                    let into_at = rest.iter().position(|a| a.is_word("into"));
                    let onto = rest[..into_at.unwrap_or(rest.len())]
                        .iter()
                        .filter_map(Arg::as_piece)
                        .collect();
                    let into = into_at
                        .and_then(|i| rest.get(i + 1))
                        .and_then(Arg::as_piece);
                    if let Some(into) = into {
                        piece.merges.push(Merge {
                            moves,
                            onto,
                            into,
                            zone: rest.iter().find_map(Arg::as_zone),
                        });
                    }
                }
                ("moves_only_on", [Arg::Board(b), Arg::Str(betza)]) => {
                    piece.moves.push(self.build_moves(
                        betza,
                        &[Arg::Word("on".into()), Arg::Board(*b)],
                        true,
                        child.condition.clone(),
                    ))
                }
                ("promote", [_, Arg::Zone(zone), _, rest @ ..]) => {
                    let choices = rest.iter().filter_map(Arg::as_piece).collect();
                    let optional = rest
                        .iter()
                        .any(|a| matches!(a, Arg::Word(w) if w == "optional"));
                    piece.promotions.push(Promotion {
                        zone: *zone,
                        choices,
                        optional,
                        leaving: rest
                            .iter()
                            .any(|a| matches!(a, Arg::Word(w) if w == "leaving")),
                        pair: None,
                        condition: child.condition.clone(),
                        reserve: rest.iter().find_map(|a| match a {
                            Arg::Reserve(r) => Some(*r),
                            _ => None,
                        }),
                    });
                }
                (
                    "promote_pair",
                    [_, Arg::Zone(zone), _, Arg::Piece(target), _, Arg::Str(letter)],
                ) => piece.promotions.push(Promotion {
                    zone: *zone,
                    choices: vec![*target],
                    optional: false,
                    leaving: false,
                    pair: Some(letter.clone()),
                    condition: child.condition.clone(),
                    reserve: None,
                }),
                _ => piece.properties.push(child.clone()),
            }
        }
        piece
    }

    fn build_moves(
        &mut self,
        betza: &str,
        rest: &[Arg],
        exclusive: bool,
        condition: Option<Expr>,
    ) -> Moves {
        let parts = crate::betza::parse_betza(betza, None, Span::default(), &self.atoms)
            .map(|b| {
                b.parts
                    .into_iter()
                    .map(|p| MovePart {
                        legs: p
                            .legs
                            .into_iter()
                            .map(|l| Leg {
                                directions: l.directions,
                                modes: l.modes,
                            })
                            .collect(),
                        atom: p.atom,
                        vectors: p.vectors,
                        range: p.range,
                        initial: p.initial,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let boards = rest.iter().filter_map(Arg::as_board).collect();
        let zone_after = |word: &str| {
            rest.windows(2).find_map(|w| match w {
                [Arg::Word(k), Arg::Zone(z)] if k == word => Some(*z),
                _ => None,
            })
        };
        Moves {
            betza: betza.to_string(),
            parts,
            boards,
            exclusive,
            condition,
            from_zone: zone_after("from"),
            within: zone_after("within"),
        }
    }

    fn check_players(&mut self, statements: &[Statement], anchor: Span) {
        let count = self.player_count;
        if count < 2 {
            let span = statements
                .iter()
                .find(|s| s.keyword.text == "player")
                .map(|s| s.span)
                .unwrap_or(anchor);
            self.error(span, ErrorKind::TooFewPlayers { count });
        }
        if self.players.order.len() > MAX_PLAYERS {
            let span = statements
                .iter()
                .filter(|s| s.keyword.text == "player" || s.keyword.text == "neutral")
                .nth(MAX_PLAYERS)
                .map(|s| s.span)
                .unwrap_or(anchor);
            self.error(
                span,
                ErrorKind::TooManyPlayers {
                    count: self.players.order.len(),
                },
            );
        }
    }

    /// A `merge` move is one plain step onto a friendly piece: its Betza parts have no modes, legs or
    /// `i` (E2045).
    fn check_merge_steps(&mut self, merge: &Statement) {
        let Some(v) = merge.arguments.first() else {
            return;
        };
        let ValueKind::Str { text, raw } = &v.kind else {
            return;
        };
        let base = raw.then_some(v.span.start as usize + 1);
        let Ok(betza) = crate::betza::parse_betza(text, base, v.span, &self.atoms) else {
            return; // reported where the statement's arguments are checked
        };
        for part in &betza.parts {
            let plain = part.legs.len() == 1
                && part.legs[0].modes.is_empty()
                && !part.initial
                && !part.vectors.is_empty();
            if !plain {
                let written = base
                    .and_then(|b| {
                        let start = (part.span.start as usize).checked_sub(b)?;
                        let end = (part.span.end as usize).checked_sub(b)?;
                        text.get(start..end)
                    })
                    .unwrap_or(text)
                    .to_string();
                self.error(part.span, ErrorKind::MergeNotAStep { part: written });
            }
        }
    }

    fn check_pieces(&mut self, statements: &[Statement]) {
        let pieces: Vec<&Statement> = statements
            .iter()
            .filter(|s| s.keyword.text == "piece")
            .collect();
        if pieces.len() > MAX_PIECES {
            self.error(
                pieces[MAX_PIECES].span,
                ErrorKind::TooManyPieces {
                    count: pieces.len(),
                },
            );
        }
        let mut letters: Vec<(String, Span)> = Vec::new();
        for s in pieces {
            let name = s.arguments.first().and_then(Value::as_name);
            for merge in s.children().iter().filter(|c| c.keyword.text == "merge") {
                self.check_merge_steps(merge);
            }
            let moving = ["moves", "moves_only_on", "stacks", "merge"];
            if !s
                .children()
                .iter()
                .any(|c| moving.contains(&c.keyword.text.as_str()))
            {
                if let Some(name) = name {
                    self.error(
                        name.span,
                        ErrorKind::PieceWithoutMoves {
                            name: name.text.clone(),
                        },
                    );
                }
            }
            if let Some(letter) = s
                .children()
                .iter()
                .find(|c| c.keyword.text == "letter")
                .and_then(|c| c.arguments.first())
            {
                let text = letter
                    .as_str()
                    .map(str::to_string)
                    .or_else(|| letter.as_name().map(|n| n.text.clone()))
                    .unwrap_or_default();
                let key = text.to_ascii_uppercase();
                if let Some((_, first)) = letters.iter().find(|(l, _)| *l == key) {
                    self.error(
                        letter.span,
                        ErrorKind::DuplicateLetter {
                            letter: text.clone(),
                            first: *first,
                        },
                    );
                } else {
                    letters.push((key, letter.span));
                }
            }
        }
    }

    fn check_setup(&mut self, statements: &[Statement], anchor: Span, game: &Game) {
        // Aligned with the declared names, which `used_pieces` is indexed by (a duplicate declaration is
        // in `game.pieces` but not among the names).
        self.piece_letters = self
            .pieces
            .order
            .iter()
            .map(|name| {
                game.pieces
                    .iter()
                    .find(|p| p.name == *name)
                    .map(|p| p.letter.clone())
                    .unwrap_or_default()
            })
            .collect();
        let setups: Vec<&Statement> = statements
            .iter()
            .filter(|s| s.keyword.text == "setup")
            .collect();
        if setups.is_empty() {
            self.error(anchor, ErrorKind::NoSetup);
        }
        for setup in setups {
            let mut placed: Vec<(usize, Span)> = Vec::new();
            let mut fens: Vec<&Value> = setup.arguments.iter().take(1).collect();
            fens.extend(
                setup
                    .children()
                    .iter()
                    .filter(|c| c.keyword.text == "fen")
                    .filter_map(|c| c.arguments.first()),
            );
            for fen in fens {
                if matches!(fen.kind, crate::ast::ValueKind::Str { .. }) {
                    for cell in self.check_fen(fen) {
                        placed.push((cell, fen.span));
                    }
                }
            }
            for place in setup
                .children()
                .iter()
                .filter(|c| c.keyword.text == "place" && c.condition.is_none())
            {
                for v in place.arguments.iter().skip(2) {
                    let Some(name) = v.as_name() else { continue };
                    let Some(&cell) = self.cells.get(&name.text) else {
                        continue;
                    };
                    if let Some((_, first)) = placed.iter().find(|(c, _)| *c == cell) {
                        self.error(
                            v.span,
                            ErrorKind::OverlappingSetup {
                                cell: name.text.clone(),
                                first: *first,
                            },
                        );
                    } else {
                        placed.push((cell, v.span));
                    }
                }
            }
        }
    }

    fn check_end(&mut self, statements: &[Statement], anchor: Span, game: &Game) {
        let end = statements.iter().find(|s| s.keyword.text == "end");
        match end {
            None => self.error(anchor, ErrorKind::NoEnd),
            Some(end) if end.children().is_empty() => {
                self.error(end.keyword.span, ErrorKind::NoEnd)
            }
            Some(end) => {
                let has_royal = game.pieces.iter().any(|p| p.royal);
                for s in end.children() {
                    if matches!(s.keyword.text.as_str(), "checkmate" | "royal_capture")
                        && !has_royal
                        && !game.pieces.is_empty()
                    {
                        self.error(
                            s.keyword.span,
                            ErrorKind::NoRoyal {
                                rule: s.keyword.text.clone(),
                            },
                        );
                    }
                }
            }
        }
    }

    /// `freeze after EVENT`: the event must be one that happens to the piece that moves.
    fn check_freeze(&mut self, statements: &[Statement]) {
        const FREEZE_EVENTS: &[&str] = &["move", "jump", "unpin", "capture", "stack"];
        let freezes = statements
            .iter()
            .filter(|s| s.keyword.text == "turn")
            .flat_map(Statement::children)
            .filter(|s| s.keyword.text == "freeze");
        // The first argument is `after`; a missing event is reported by the statement's schema.
        let events = freezes.flat_map(|s| s.arguments.iter().skip(1));
        for value in events {
            let ValueKind::Path(path) = &value.kind else {
                continue;
            };
            let event = path
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(".");
            if !FREEZE_EVENTS.contains(&event.as_str()) {
                let suggestion = super::suggest(&event, FREEZE_EVENTS.iter().copied());
                self.error(
                    value.span,
                    ErrorKind::UnknownFreezeEvent { event, suggestion },
                );
            }
        }
    }

    /// A transfer needs the pieces it moves, where they start and where they go.
    fn check_transfers(&mut self, statements: &[Statement]) {
        for transfer in statements.iter().filter(|s| s.keyword.text == "transfer") {
            let span = transfer
                .arguments
                .first()
                .map(|a| a.span)
                .unwrap_or(transfer.keyword.span);
            for keyword in ["pieces", "from", "to"] {
                if !transfer
                    .children()
                    .iter()
                    .any(|c| c.keyword.text == keyword)
                {
                    self.error(
                        span,
                        ErrorKind::MissingStatement {
                            keyword,
                            context: "a `transfer` block",
                        },
                    );
                }
            }
        }
    }

    fn warn_unused(&mut self, statements: &[Statement]) {
        for s in statements {
            let Some(name) = s.arguments.first().and_then(Value::as_name) else {
                continue;
            };
            match s.keyword.text.as_str() {
                "zone" => {
                    if let Some(i) = self.zones.get(&name.text) {
                        if !self.used_zones[i] {
                            self.error(
                                name.span,
                                ErrorKind::UnusedZone {
                                    name: name.text.clone(),
                                },
                            );
                        }
                    }
                }
                "piece" => {
                    if let Some(i) = self.pieces.get(&name.text) {
                        if !self.used_pieces[i] {
                            self.error(
                                name.span,
                                ErrorKind::UnusedPiece {
                                    name: name.text.clone(),
                                },
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn word(arg: Option<&Arg>) -> String {
    match arg {
        Some(Arg::Word(w)) | Some(Arg::Str(w)) => w.clone(),
        _ => String::new(),
    }
}

fn build_player(d: &Directive, index: usize) -> Player {
    let mut player = Player {
        name: word(d.arguments.first()),
        title: match d.arguments.get(1) {
            Some(Arg::Str(s)) => s.clone(),
            _ => word(d.arguments.first()),
        },
        neutral: d.keyword == "neutral",
        forward: Vec::new(),
        upper_case: index == 0,
        extra: Vec::new(),
    };
    for child in &d.children {
        match (child.keyword.as_str(), child.arguments.as_slice()) {
            ("forward", vectors) => {
                player.forward = vectors.iter().filter_map(Arg::as_vector).collect()
            }
            ("letters", [Arg::Word(w)]) => player.upper_case = w == "upper",
            _ => player.extra.push(child.clone()),
        }
    }
    if player.forward.is_empty() {
        player.forward = vec![if index.is_multiple_of(2) {
            [0, 1, 0]
        } else {
            [0, -1, 0]
        }];
    }
    player
}

fn build_setup(d: &Directive, setup: &mut Setup) {
    if let Some(Arg::Str(fen)) = d.arguments.first() {
        if d.condition.is_none() || setup.fen.is_none() {
            setup.fen = Some(fen.clone());
        }
    }
    setup.statements.push(d.clone());
}

fn build_reserve(d: &Directive) -> Reserve {
    let mut reserve = Reserve {
        name: word(d.arguments.first()),
        ..Reserve::default()
    };
    for child in &d.children {
        match (child.keyword.as_str(), child.arguments.as_slice()) {
            ("per_player", _) => reserve.per_player = true,
            ("drops", _) => reserve.drops = true,
            ("captured_go_here", _) => reserve.captured_go_here = true,
            ("demote_promoted", _) => reserve.demote_promoted = true,
            ("gating", [Arg::Zone(z)]) => reserve.gating = Some(*z),
            ("holds", [Arg::Piece(p), Arg::Int(n)]) => {
                reserve.holds.push((*p, *n as u32));
                reserve.holds_when.push(child.condition.clone());
            }
            _ => {}
        }
    }
    reserve
}

fn build_turn(d: &Directive, game: &mut Game) {
    for child in &d.children {
        match (child.keyword.as_str(), child.arguments.as_slice()) {
            ("moves", [Arg::Int(n)]) => game.moves_per_turn = *n as u32,
            _ => game.turn.push(child.clone()),
        }
    }
}

fn build_end_rule(d: &Directive) -> Option<EndRule> {
    let result = d.arguments.iter().find_map(|a| match a {
        Arg::Word(w) if w == "win" => Some(Outcome::Win),
        Arg::Word(w) if w == "loss" => Some(Outcome::Loss),
        Arg::Word(w) if w == "draw" => Some(Outcome::Draw),
        Arg::Word(w) if w == "points" => Some(Outcome::Points),
        _ => None,
    })?;
    let automatic = !d
        .arguments
        .iter()
        .any(|a| matches!(a, Arg::Word(w) if w == "claim"));
    let arguments = d.arguments.iter().filter(|a| !matches!(a, Arg::Word(w) if matches!(w.as_str(), "win" | "loss" | "draw" | "points" | "claim"))).cloned().collect();
    Some(EndRule {
        kind: d.keyword.clone(),
        arguments,
        result,
        automatic,
        condition: d.condition.clone(),
        block: d.children.clone(),
    })
}

fn build_option(d: &Directive) -> GameOption {
    let mut option = GameOption {
        name: word(d.arguments.first()),
        ..GameOption::default()
    };
    let show = |a: &Arg| match a {
        Arg::Word(w) | Arg::Str(w) => w.clone(),
        Arg::Int(n) => n.to_string(),
        other => format!("{other:?}"),
    };
    for child in &d.children {
        match child.keyword.as_str() {
            "values" => option.values = child.arguments.iter().map(show).collect(),
            "default" => option.default = child.arguments.first().map(show),
            "engine_name" => option.engine_name = child.arguments.first().map(show),
            "selects" => {
                if let [name, value] = child.arguments.as_slice() {
                    option.selects = Some((show(name), show(value)));
                }
            }
            _ => {}
        }
    }
    option
}

/// Zones: evaluates each zone's cell specifications per player.
impl Checker {
    fn build_zones(&mut self, statements: &[Statement], directives: &[Directive]) -> Vec<Zone> {
        let zone_directives: Vec<&Directive> =
            directives.iter().filter(|d| d.keyword == "zone").collect();
        let players = self.players.order.len().max(1);
        let mut zones: Vec<Option<Vec<Vec<usize>>>> = vec![None; self.zones.order.len()];
        for _ in 0..=zone_directives.len() {
            for d in &zone_directives {
                let Some(index) = self.zones.get(&word(d.arguments.first())) else {
                    continue;
                };
                if zones[index].is_some() {
                    continue;
                }
                if let Some(cells) = self.zone_cells(&d.children, players, &zones) {
                    zones[index] = Some(cells);
                }
            }
        }
        let mut out = Vec::new();
        for (index, name) in self.zones.order.clone().into_iter().enumerate() {
            let cells = zones[index]
                .clone()
                .unwrap_or_else(|| vec![Vec::new(); players]);
            if cells.iter().all(Vec::is_empty) {
                let span = statements
                    .iter()
                    .filter(|s| s.keyword.text == "zone")
                    .find_map(|s| {
                        s.arguments
                            .first()
                            .and_then(Value::as_name)
                            .filter(|n| n.text == name)
                            .map(|n| n.span)
                    })
                    .unwrap_or_default();
                let zone_span = statements
                    .iter()
                    .find(|s| {
                        s.keyword.text == "zone"
                            && s.arguments
                                .first()
                                .and_then(Value::as_name)
                                .is_some_and(|n| n.text == name)
                    })
                    .map(|s| s.span)
                    .unwrap_or_default();
                let broken = self.problems.iter().any(|p| {
                    !p.is_warning()
                        && zone_span.start <= p.span.start
                        && p.span.end <= zone_span.end
                });
                if !broken {
                    self.error(span, ErrorKind::EmptyZone { name: name.clone() });
                }
            }
            out.push(Zone { name, cells });
        }
        out
    }

    /// Evaluates cell specifications; `None` while a referenced zone is not evaluated yet.
    fn zone_cells(
        &self,
        specs: &[Directive],
        players: usize,
        zones: &[Option<Vec<Vec<usize>>>],
    ) -> Option<Vec<Vec<usize>>> {
        let mut out = vec![Vec::new(); players];
        for spec in specs {
            match spec.keyword.as_str() {
                "for" => {
                    let Some(Arg::Player(p)) = spec.arguments.first() else {
                        continue;
                    };
                    let inner = self.zone_cells(&spec.children, players, zones)?;
                    for c in &inner[*p] {
                        if !out[*p].contains(c) {
                            out[*p].push(*c);
                        }
                    }
                }
                "except" => {
                    let removed = self.zone_cells(&spec.children, players, zones)?;
                    for p in 0..players {
                        out[p].retain(|c| !removed[p].contains(c));
                    }
                }
                _ => {
                    let cells = self.spec_cells(spec, players, zones)?;
                    for p in 0..players {
                        for c in &cells[p] {
                            if !out[p].contains(c) {
                                out[p].push(*c);
                            }
                        }
                    }
                }
            }
        }
        Some(out)
    }

    fn spec_cells(
        &self,
        spec: &Directive,
        players: usize,
        zones: &[Option<Vec<Vec<usize>>>],
    ) -> Option<Vec<Vec<usize>>> {
        let args = spec.arguments.as_slice();
        let board_of = |args: &[Arg]| -> usize { args.iter().find_map(Arg::as_board).unwrap_or(0) };
        let same = |cells: Vec<usize>| Some(vec![cells; players]);
        let cells: Vec<usize> = match spec.keyword.as_str() {
            "cells" => args
                .iter()
                .filter_map(|a| if let Arg::Cell(c) = a { Some(*c) } else { None })
                .collect(),
            "rank" | "ranks" | "file" | "files" | "level" | "levels" => {
                let Some(board) = self.board_models.get(board_of(args)) else {
                    return same(Vec::new());
                };
                let axis = match spec.keyword.as_str() {
                    "rank" | "ranks" => 1,
                    "file" | "files" => 0,
                    _ => 2,
                };
                let labels: &[String] = match axis {
                    0 => &board.files,
                    1 => &board.ranks,
                    _ => &board.levels,
                };
                let wanted = label_positions(labels, args.first());
                self.board_cells(board)
                    .filter(|&c| wanted.contains(&(self.cell_list[c].coord[axis] as usize)))
                    .collect()
            }
            "rect" => match args {
                [Arg::Cell(a), Arg::Cell(b)] => {
                    let (ca, cb) = (&self.cell_list[*a], &self.cell_list[*b]);
                    let lo: Vec<i32> = (0..3).map(|i| ca.coord[i].min(cb.coord[i])).collect();
                    let hi: Vec<i32> = (0..3).map(|i| ca.coord[i].max(cb.coord[i])).collect();
                    (0..self.cell_list.len())
                        .filter(|&c| {
                            let cell = &self.cell_list[c];
                            cell.board == ca.board
                                && (0..3).all(|i| (lo[i]..=hi[i]).contains(&cell.coord[i]))
                        })
                        .collect()
                }
                _ => Vec::new(),
            },
            "column" => {
                let mut out = Vec::new();
                for a in args {
                    let Arg::Word(name) = a else { continue };
                    for (id, cell) in self.cell_list.iter().enumerate() {
                        let board = &self.board_models[cell.board];
                        let file = &board.files[cell.coord[0] as usize];
                        let rank = &board.ranks[cell.coord[1] as usize];
                        if *name == format!("{file}{rank}") || *name == format!("{rank}{file}") {
                            out.push(id);
                        }
                    }
                }
                out
            }
            "board" => match args.first() {
                Some(Arg::Board(b)) => self
                    .board_models
                    .get(*b)
                    .map(|board| self.board_cells(board).collect())
                    .unwrap_or_default(),
                _ => Vec::new(),
            },
            "zone" => {
                let mut out = vec![Vec::new(); players];
                for a in args {
                    let Arg::Zone(z) = a else { continue };
                    let inner = zones[*z].as_ref()?;
                    for p in 0..players {
                        out[p].extend(inner[p].iter().copied());
                    }
                }
                return Some(out);
            }
            "enemies" => {
                let Some(Arg::Zone(z)) = args.first() else {
                    return same(Vec::new());
                };
                let inner = zones[*z].as_ref()?;
                let real = self.player_count.max(1);
                let out = (0..players)
                    .map(|p| {
                        (0..real)
                            .filter(|&q| q != p)
                            .flat_map(|q| inner[q].iter().copied())
                            .collect()
                    })
                    .collect();
                return Some(out);
            }
            _ => Vec::new(),
        };
        let cells = match &spec.condition {
            Some(condition) => cells
                .into_iter()
                .filter(|&c| coordinate_condition(condition, self.cell_list[c].coord))
                .collect(),
            None => cells,
        };
        same(cells)
    }

    fn board_cells<'a>(&'a self, board: &'a Board) -> impl Iterator<Item = usize> + 'a {
        board.first_cell..board.first_cell + board.cell_count
    }
}

/// Positions of the labels an argument names: one label, or a range of labels.
fn label_positions(labels: &[String], arg: Option<&Arg>) -> Vec<usize> {
    let text = |a: &Arg| match a {
        Arg::Word(w) => w.clone(),
        Arg::Int(n) => n.to_string(),
        _ => String::new(),
    };
    match arg {
        Some(Arg::Range(lo, hi)) => {
            let (lo, hi) = (text(lo), text(hi));
            match (
                labels.iter().position(|l| *l == lo),
                labels.iter().position(|l| *l == hi),
            ) {
                (Some(a), Some(b)) => (a.min(b)..=a.max(b)).collect(),
                _ => Vec::new(),
            }
        }
        Some(a) => labels
            .iter()
            .position(|l| *l == text(a))
            .into_iter()
            .collect(),
        None => Vec::new(),
    }
}

/// Evaluates a condition over a cell's 0-based coordinates `x`, `y`, `z` (zone specifications).
fn coordinate_condition(e: &Expr, coord: [i32; 3]) -> bool {
    fn value(e: &Expr, coord: [i32; 3]) -> Option<i64> {
        match e {
            Expr::Literal(Arg::Int(n)) => Some(*n),
            Expr::Path(p) if p.len() == 1 => match p[0].as_str() {
                "x" => Some(coord[0] as i64),
                "y" => Some(coord[1] as i64),
                "z" => Some(coord[2] as i64),
                _ => None,
            },
            Expr::Arith(op, l, r) => {
                let (l, r) = (value(l, coord)?, value(r, coord)?);
                Some(if *op == "+" { l + r } else { l - r })
            }
            _ => None,
        }
    }
    match e {
        Expr::And(parts) => parts.iter().all(|p| coordinate_condition(p, coord)),
        Expr::Or(parts) => parts.iter().any(|p| coordinate_condition(p, coord)),
        Expr::Not(inner) => !coordinate_condition(inner, coord),
        Expr::Compare(op, l, r) => match (value(l, coord), value(r, coord)) {
            (Some(l), Some(r)) => match *op {
                "==" => l == r,
                "!=" => l != r,
                "<" => l < r,
                "<=" => l <= r,
                ">" => l > r,
                ">=" => l >= r,
                _ => false,
            },
            _ => true,
        },
        _ => true,
    }
}
