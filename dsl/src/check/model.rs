//! Model building: turns the checked directives into a typed [`Game`] and runs the whole-game checks (a
//! way to end, a start position, royal pieces, letters, unused names). Pieces, rules, end lines and
//! zones have modules of their own.

use vdl_runtime::model::{
    CaptureScope, Castle, CastlePartner, CastlePiece, CellsOrZone, CheckmateTest, Corner, Credits,
    Custodian, EnPassantExpiry, EnPassantRight, Enclose, FreezeEvent, Game, GameOption, Guarded,
    MovableBy, MoverSide, Notation, PartnerAt, PartnerTo, Pass, Player, Requirement, Reserve,
    Setting, SetupBlock, SetupStep, Transfer, Turn, TypeMap, Untouched,
};

use super::directive::{Arg, Directive};
use super::Checker;
use crate::ast::{Statement, Value};
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
                "game" => build_game(d, &mut game),
                "board" => build_board_forward(d, &mut game),
                "player" | "neutral" => {
                    let player = build_player(d, game.players.len());
                    game.players.push(player);
                }
                "piece" => {
                    let piece = self.build_piece(d);
                    game.pieces.push(piece);
                }
                "setup" => game.setup.blocks.push(build_setup(d)),
                "reserve" => game.reserves.push(build_reserve(d)),
                "castle" => game.castling.push(build_castle(d)),
                "turn" => game.turn = self.build_turn(d),
                "end" => self.build_end(d, &mut game),
                "rule" => {
                    if let Some(rule) = self.build_rule(d, statements) {
                        game.rules.push(rule);
                    }
                }
                "option" => game.options.push(build_option(d)),
                "typemap" => game.typemaps.push(build_typemap(d)),
                "transfer" => game.transfers.push(build_transfer(d)),
                "custodian" => game.custodian = Some(build_custodian(d)),
                "notation" => game.notation = build_notation(d),
                "captures" => {
                    game.captures = if d.arguments.first().is_some_and(|a| a.is_word("any")) {
                        CaptureScope::Any
                    } else {
                        CaptureScope::Enemy
                    }
                }
                // Atoms are read with the declarations, zones by `build_zones`.
                "atom" | "zone" => {}
                other => debug_assert!(false, "top-level statement `{other}` has no model"),
            }
        }
        split_by_board_forward(&mut game);

        self.check_players(statements, anchor);
        self.check_elimination(statements, &game);
        self.check_turn_order(statements, &game);
        self.check_pieces(statements);
        game.zones = self.build_zones(statements, directives);
        self.check_setup(statements, anchor, &game);
        self.check_end(statements, anchor, &game);
        self.check_freeze(statements);
        self.check_walling(statements);
        self.check_position_template(statements);
        self.check_transfers(statements);
        self.check_castles(statements);
        self.check_pick_ups(statements, &game);
        self.check_partners(statements, &game);
        self.check_drop_rules(statements, &game);
        self.check_drop_statements(statements);
        // Unused names are only worth a warning once the file is otherwise right: a broken setup or a
        // misspelt reference would make them look unused.
        if !self.problems.iter().any(|p| !p.is_warning()) {
            self.warn_unused(statements);
        }
        add_wall_type(&mut game);
        game
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

    /// Rules `on checkmate` and `checkmate_test attacked_at_turn_start` run only in games where
    /// checkmate may eliminate a player (a rule `on checkmate` with an `eliminate checkmated`,
    /// perhaps under a condition); elsewhere checkmate ends the game and they would never run.
    fn check_elimination(&mut self, statements: &[Statement], game: &Game) {
        use vdl_runtime::model::{CheckmateTest, Effect, Event, PlayerExpr};
        let eliminates = game.rules.iter().any(|rule| {
            rule.events.contains(&Event::Checkmate)
                && rule
                    .effects
                    .iter()
                    .any(|e| matches!(e.item, Effect::Eliminate(PlayerExpr::Checkmated)))
        });
        if eliminates {
            return;
        }
        for rule in statements.iter().filter(|s| s.keyword.text == "rule") {
            let on_checkmate = rule.children().iter().find(|c| {
                c.keyword.text == "on"
                    && c.arguments
                        .first()
                        .and_then(Value::as_name)
                        .is_some_and(|n| n.text == "checkmate")
            });
            if let Some(on) = on_checkmate {
                self.error(
                    on.span,
                    ErrorKind::NeverRuns {
                        what: "a rule `on checkmate`".into(),
                        why: "checkmate ends this game".into(),
                        help: CHECKMATE_GOES_ON,
                    },
                );
            }
        }
        if game.turn.checkmate_test == CheckmateTest::AttackedAtTurnStart {
            if let Some(line) = statements
                .iter()
                .filter(|s| s.keyword.text == "turn")
                .flat_map(Statement::children)
                .find(|s| s.keyword.text == "checkmate_test")
            {
                self.error(
                    line.span,
                    ErrorKind::NeverRuns {
                        what: "`checkmate_test attacked_at_turn_start`".into(),
                        why: "checkmate ends this game".into(),
                        help: CHECKMATE_GOES_ON,
                    },
                );
            }
        }
    }

    /// `turn { order ... }` lists every player exactly once, and no neutral side.
    fn check_turn_order(&mut self, statements: &[Statement], game: &Game) {
        let Some(order) = statements
            .iter()
            .filter(|s| s.keyword.text == "turn")
            .flat_map(Statement::children)
            .find(|s| s.keyword.text == "order")
        else {
            return;
        };
        let mut seen = Vec::new();
        for v in &order.arguments {
            let Some(p) = v.as_name().and_then(|n| self.players.get(&n.text)) else {
                continue; // reported by the statement check
            };
            let problem = if game.players.get(p).is_some_and(|p| p.neutral) {
                Some("a neutral side has no turn")
            } else if seen.contains(&p) {
                Some("listed twice")
            } else {
                None
            };
            if let Some(problem) = problem {
                self.error(
                    v.span,
                    ErrorKind::InvalidTurnOrder {
                        detail: problem.into(),
                    },
                );
                return;
            }
            seen.push(p);
        }
        if seen.len() != self.player_count && !order.arguments.is_empty() {
            let missing: Vec<String> = (0..self.player_count)
                .filter(|p| !seen.contains(p))
                .map(|p| format!("`{}`", self.players.order[p]))
                .collect();
            self.error(
                order.arguments_span(),
                ErrorKind::InvalidTurnOrder {
                    detail: format!(
                        "every player must be listed: {} missing",
                        missing.join(", ")
                    ),
                },
            );
        }
    }

    /// Partners name each other: each `partner` line names another player whose own `partner` line
    /// names this one, and no neutral side has a partner. Captures sent to the partner's hand need a
    /// hand per player and a partner for every player.
    fn check_partners(&mut self, statements: &[Statement], game: &Game) {
        let sides = statements
            .iter()
            .filter(|s| matches!(s.keyword.text.as_str(), "player" | "neutral"));
        for side in sides {
            let Some(line) = side.children().iter().find(|c| c.keyword.text == "partner") else {
                continue;
            };
            let span = line.arguments.first().map_or(line.keyword.span, |a| a.span);
            let name = side.arguments.first().and_then(|a| a.as_name());
            let Some(index) = game
                .players
                .iter()
                .position(|p| name.is_some_and(|n| n.text == p.name))
            else {
                continue;
            };
            // A partner index past the players comes from a player whose declaration failed, which
            // is reported already.
            let Some(partner) = game.players[index]
                .partner
                .filter(|&p| p < game.players.len())
            else {
                continue;
            };
            let detail = if game.players[index].neutral {
                Some("a neutral side plays for nobody, so it has no partner".to_string())
            } else if partner == index {
                Some(format!(
                    "`{}` cannot be its own partner",
                    game.players[index].name
                ))
            } else if game.players[partner].neutral {
                Some(format!(
                    "`{}` is a neutral side",
                    game.players[partner].name
                ))
            } else if game.players[partner].partner != Some(index) {
                Some(format!(
                    "`{}` does not name `{}` as its partner",
                    game.players[partner].name, game.players[index].name
                ))
            } else {
                None
            };
            if let Some(detail) = detail {
                self.error(
                    span,
                    ErrorKind::InvalidPartner {
                        detail,
                        help: "partners name each other: `player a { partner b }` and `player b { partner a }`",
                    },
                );
            }
        }
        for reserve in statements.iter().filter(|s| s.keyword.text == "reserve") {
            let has = |keyword: &str| reserve.children().iter().any(|c| c.keyword.text == keyword);
            let Some(line) = reserve.children().iter().find(|c| {
                c.keyword.text == "captured_go_here"
                    && c.arguments
                        .iter()
                        .any(|a| a.as_name().is_some_and(|n| n.text == "partner"))
            }) else {
                continue;
            };
            let span = line.arguments.first().map_or(line.keyword.span, |a| a.span);
            let alone: Vec<&str> = game
                .players
                .iter()
                .filter(|p| !p.neutral && p.partner.is_none())
                .map(|p| p.name.as_str())
                .collect();
            if !has("per_player") {
                self.error(
                    span,
                    ErrorKind::InvalidPartner {
                        detail: "a reserve shared by everybody has no partner's part".into(),
                        help: "add `per_player` to the reserve",
                    },
                );
            } else if !alone.is_empty() {
                self.error(
                    span,
                    ErrorKind::InvalidPartner {
                        detail: format!("captures go to the partner's hand, but `{}` has no partner", alone.join("`, `")),
                        help: "give every player a partner (`player a { partner b }`), or write `captured_go_here` for the capturer's own hand",
                    },
                );
            }
        }
    }

    /// `must_drop` and `no_drop_check` speak of drops: in a game without them they would never run.
    fn check_drop_rules(&mut self, statements: &[Statement], game: &Game) {
        const HELP: &str =
            "add `drops` to the reserve the pieces are dropped from, or remove the line";
        for reserve in statements.iter().filter(|s| s.keyword.text == "reserve") {
            let drops = reserve.children().iter().any(|c| c.keyword.text == "drops");
            let line = reserve
                .children()
                .iter()
                .find(|c| c.keyword.text == "no_drop_check");
            if let (false, Some(line)) = (drops, line) {
                self.error(
                    line.keyword.span,
                    ErrorKind::NeverRuns {
                        what: "`no_drop_check`".into(),
                        why: "nothing is dropped from this reserve".into(),
                        help: HELP,
                    },
                );
            }
        }
        if !game.reserves.iter().any(|r| r.drops) {
            let line = statements
                .iter()
                .filter(|s| s.keyword.text == "turn")
                .flat_map(|t| t.children())
                .find(|c| c.keyword.text == "must_drop");
            if let Some(line) = line {
                self.error(
                    line.keyword.span,
                    ErrorKind::NeverRuns {
                        what: "`must_drop`".into(),
                        why: "this game has no drops".into(),
                        help: HELP,
                    },
                );
            }
        }
    }

    /// A `pick_up` line puts the piece into its owner's hand, from which it must be able to come back,
    /// and never takes a royal piece; a game with walls has no pick-ups (a wall follows a piece's
    /// arrival).
    fn check_pick_ups(&mut self, statements: &[Statement], game: &Game) {
        let wall = statements
            .iter()
            .filter(|s| s.keyword.text == "turn")
            .flat_map(|t| t.children())
            .find(|c| c.keyword.text == "wall");
        for reserve in statements.iter().filter(|s| s.keyword.text == "reserve") {
            let has = |keyword: &str| reserve.children().iter().any(|c| c.keyword.text == keyword);
            let pick_ups = reserve
                .children()
                .iter()
                .filter(|c| c.keyword.text == "pick_up");
            for line in pick_ups {
                let span = line.keyword.span;
                if !has("per_player") {
                    self.error(
                        span,
                        ErrorKind::InvalidPickUp {
                            detail: "a piece picked up goes to its owner's hand, and this reserve is shared by everybody".into(),
                            help: "add `per_player` to the reserve",
                        },
                    );
                } else if !has("drops") && !has("gating") {
                    self.error(
                        span,
                        ErrorKind::InvalidPickUp {
                            detail: "a piece picked up into this reserve could never come back".into(),
                            help: "add `drops` (or `gating`) to the reserve; a piece that leaves the game for good is removed by a rule (`remove`)",
                        },
                    );
                }
                for arg in &line.arguments {
                    let crate::ast::ValueKind::Path(path) = &arg.kind else {
                        continue;
                    };
                    let [name] = path.as_slice() else { continue };
                    let name = &name.text;
                    let royal = game
                        .pieces
                        .iter()
                        .any(|p| &p.name == name && p.royal.is_royal());
                    if royal {
                        self.error(
                            arg.span,
                            ErrorKind::InvalidPickUp {
                                detail: format!("`{name}` is royal, and its owner would be left without it"),
                                help: "pick up pieces that are not royal (`all` is every type that is not royal)",
                            },
                        );
                    }
                }
                if let Some(wall) = wall {
                    self.error(
                        span,
                        ErrorKind::Contradiction {
                            this: "pick_up".into(),
                            other: "wall".into(),
                            other_span: wall.keyword.span,
                        },
                    );
                }
            }
        }
    }

    /// A castling rule may not both ignore attacks and forbid castling through check.
    fn check_castles(&mut self, statements: &[Statement]) {
        for castle in statements.iter().filter(|s| s.keyword.text == "castle") {
            let ignore = castle
                .children()
                .iter()
                .find(|c| c.keyword.text == "ignore_attacks");
            let through = castle
                .children()
                .iter()
                .find(|c| c.keyword.text == "not_through_check");
            if let (Some(ignore), Some(through)) = (ignore, through) {
                self.error(
                    ignore.keyword.span,
                    ErrorKind::Contradiction {
                        this: "ignore_attacks".into(),
                        other: "not_through_check".into(),
                        other_span: through.keyword.span,
                    },
                );
            }
            // Fixed landing cells replace the counted steps.
            for (this, other) in [
                ("king_lands", "king_steps"),
                ("partner_lands", "partner_to"),
            ] {
                let find = |k: &str| castle.children().iter().find(|c| c.keyword.text == k);
                if let (Some(this_line), Some(other_line)) = (find(this), find(other)) {
                    self.error(
                        this_line.keyword.span,
                        ErrorKind::Contradiction {
                            this: this.into(),
                            other: other.into(),
                            other_span: other_line.keyword.span,
                        },
                    );
                }
            }
        }
        for reserve in statements.iter().filter(|s| s.keyword.text == "reserve") {
            let per_player = reserve
                .children()
                .iter()
                .find(|c| c.keyword.text == "per_player");
            let shared = reserve
                .children()
                .iter()
                .find(|c| c.keyword.text == "shared");
            if let (Some(per_player), Some(shared)) = (per_player, shared) {
                self.error(
                    shared.keyword.span,
                    ErrorKind::Contradiction {
                        this: "shared".into(),
                        other: "per_player".into(),
                        other_span: per_player.keyword.span,
                    },
                );
            }
        }
    }

    /// `drop_opposite_colours` and `drops_virgin` need drops (E2109); dropped pieces
    /// that stand virgin cannot be told from original ones (E2106 against `requires original`).
    fn check_drop_statements(&mut self, statements: &[Statement]) {
        let reserves: Vec<&Statement> = statements
            .iter()
            .filter(|s| s.keyword.text == "reserve")
            .collect();
        let has = |s: &Statement, keyword: &str| {
            s.children()
                .iter()
                .find(|c| c.keyword.text == keyword)
                .map(|c| c.keyword.span)
        };
        let drops = reserves.iter().any(|r| has(r, "drops").is_some());
        if !drops {
            let lines = statements
                .iter()
                .filter(|s| matches!(s.keyword.text.as_str(), "turn" | "piece"))
                .flat_map(Statement::children)
                .filter(|c| matches!(c.keyword.text.as_str(), "drop_opposite_colours"));
            for line in lines {
                self.error(
                    line.keyword.span,
                    ErrorKind::NeverRuns {
                        what: format!("`{}`", line.keyword.text),
                        why: "this game has no drops".into(),
                        help: "add `drops` to the reserve the pieces are dropped from, or remove the line",
                    },
                );
            }
        }
        for reserve in &reserves {
            let Some(virgin) = has(reserve, "drops_virgin") else {
                continue;
            };
            if has(reserve, "drops").is_none() {
                self.error(
                    virgin,
                    ErrorKind::NeverRuns {
                        what: "`drops_virgin`".into(),
                        why: "nothing is dropped from this reserve".into(),
                        help: "add `drops` to the reserve the pieces are dropped from, or remove the line",
                    },
                );
                continue;
            }
            let original = statements
                .iter()
                .filter(|s| s.keyword.text == "castle")
                .flat_map(Statement::children)
                .find(|c| {
                    c.keyword.text == "requires"
                        && c.arguments
                            .first()
                            .and_then(Value::as_name)
                            .is_some_and(|n| n.text == "original")
                });
            if let Some(original) = original {
                self.error(
                    virgin,
                    ErrorKind::Contradiction {
                        this: "drops_virgin".into(),
                        other: "requires original".into(),
                        other_span: original.span,
                    },
                );
            }
        }
    }

    /// A `merge` move is one plain step onto a friendly piece, a `promote_move ... by` one onto an
    /// empty cell: their Betza parts have no modes, legs or `i` (E2045).
    fn check_merge_steps(&mut self, statement: &Statement) {
        let by = statement
            .arguments
            .iter()
            .position(|a| a.as_name().is_some_and(|n| n.text == "by"));
        let v = match (statement.keyword.text.as_str(), by) {
            ("merge", _) => statement.arguments.first(),
            (_, Some(i)) => statement.arguments.get(i + 1),
            _ => None,
        };
        let Some(v) = v else {
            return;
        };
        let crate::ast::ValueKind::Str { text, raw } = &v.kind else {
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
                self.error(
                    part.span,
                    ErrorKind::MergeNotAStep {
                        part: written,
                        merge: statement.keyword.text == "merge",
                    },
                );
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
        // In a game with drops a piece may enter play only by being dropped (Othello's discs).
        let drops = statements
            .iter()
            .filter(|s| s.keyword.text == "reserve")
            .flat_map(Statement::children)
            .any(|c| c.keyword.text == "drops");
        for s in pieces {
            let name = s.arguments.first().and_then(Value::as_name);
            for steps in s
                .children()
                .iter()
                .filter(|c| matches!(c.keyword.text.as_str(), "merge" | "promote_move"))
            {
                self.check_merge_steps(steps);
            }
            let moving = ["moves", "moves_only_on", "stacks", "merge"];
            if !drops
                && !s
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
        let mut letters: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        for p in &game.pieces {
            letters
                .entry(p.name.as_str())
                .or_insert_with(|| match p.promoted_from {
                    // A promoted type is written `+` and its base's letter.
                    Some(base) if p.letter.is_empty() => format!(
                        "+{}",
                        game.pieces.get(base).map_or("", |b| b.letter.as_str())
                    ),
                    _ => p.letter.clone(),
                });
        }
        self.piece_letters = self
            .pieces
            .order
            .iter()
            .map(|name| letters.get(name.as_str()).cloned().unwrap_or_default())
            .collect();
        let setups: Vec<&Statement> = statements
            .iter()
            .filter(|s| s.keyword.text == "setup")
            .collect();
        if setups.is_empty() {
            self.error(anchor, ErrorKind::NoSetup);
        }
        for setup in setups {
            let mut placed: std::collections::HashMap<usize, Span> =
                std::collections::HashMap::new();
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
                    for cell in self.check_fen(fen, &game.players) {
                        placed.entry(cell).or_insert(fen.span);
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
                    if let Some(first) = placed.get(&cell) {
                        let first = *first;
                        self.error(
                            v.span,
                            ErrorKind::OverlappingSetup {
                                cell: name.text.clone(),
                                first,
                            },
                        );
                    } else {
                        placed.insert(cell, v.span);
                    }
                }
            }
        }
    }

    /// `freeze after EVENT`: the event must be one that happens to the piece that moves.
    /// A `wall` line: `reach` needs the Betza moves that reach the wall's cell; the other kinds take
    /// none.
    fn check_walling(&mut self, statements: &[Statement]) {
        let walls = statements
            .iter()
            .filter(|s| s.keyword.text == "turn")
            .flat_map(Statement::children)
            .filter(|s| s.keyword.text == "wall");
        for wall in walls {
            let kind = wall
                .arguments
                .first()
                .and_then(Value::as_name)
                .map(|n| n.text.as_str());
            let betza = wall
                .arguments
                .iter()
                .find(|v| matches!(v.kind, crate::ast::ValueKind::Str { .. }));
            match (kind, betza) {
                (Some("reach"), None) => self.error(
                    wall.span,
                    ErrorKind::MissingArgument {
                        keyword: "wall reach".into(),
                        expected: "the Betza moves that reach the wall's cell, e.g. `\"mQ\"`"
                            .into(),
                    },
                ),
                (Some("empty" | "vacated"), Some(extra)) => self.error(
                    extra.span,
                    ErrorKind::TooManyArguments {
                        keyword: format!("wall {}", kind.unwrap_or_default()),
                    },
                ),
                _ => {}
            }
        }
    }

    fn check_freeze(&mut self, statements: &[Statement]) {
        let freezes = statements
            .iter()
            .filter(|s| s.keyword.text == "turn")
            .flat_map(Statement::children)
            .filter(|s| s.keyword.text == "freeze");
        // The first argument is `after`; a missing event is reported by the statement's schema.
        let events = freezes.flat_map(|s| s.arguments.iter().skip(1));
        for value in events {
            let crate::ast::ValueKind::Path(path) = &value.kind else {
                continue;
            };
            let event = path
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join(".");
            if freeze_event(&event).is_none() {
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

    fn build_turn(&mut self, d: &Directive) -> Turn {
        let mut turn = Turn::default();
        for child in &d.children {
            let word = child.arguments.first().and_then(Arg::as_word).unwrap_or("");
            match child.keyword.as_str() {
                "order" => {
                    turn.order = child
                        .arguments
                        .iter()
                        .filter_map(|a| match a {
                            Arg::Player(p) => Some(*p),
                            _ => None,
                        })
                        .collect()
                }
                "moves" => turn.moves = int(child.arguments.first()).max(1) as u32,
                "pass" => {
                    turn.pass = match word {
                        "when_stuck" => Pass::WhenStuck,
                        "allowed" => Pass::Allowed,
                        _ => Pass::Never,
                    }
                }
                "freeze" => {
                    for w in child.words() {
                        if let Some(event) = freeze_event(w) {
                            if !turn.freeze.contains(&event) {
                                turn.freeze.push(event);
                            }
                        }
                    }
                }
                // Eliminated players are always skipped; the statement says so explicitly.
                "skip_eliminated" => {}
                "end_early_when_stuck" => turn.end_early_when_stuck = true,
                "en_passant_expires" => {
                    turn.en_passant_expires = if word == "owner_turn" {
                        EnPassantExpiry::OwnerTurn
                    } else {
                        EnPassantExpiry::NextMove
                    }
                }
                "en_passant_right" => {
                    turn.en_passant_right = if word == "when_capturable" {
                        EnPassantRight::WhenCapturable
                    } else {
                        EnPassantRight::Always
                    }
                }
                "checkmate_test" => {
                    turn.checkmate_test = if word == "attacked_at_turn_start" {
                        CheckmateTest::AttackedAtTurnStart
                    } else {
                        CheckmateTest::NoMoves
                    }
                }
                "royal_safety" => {
                    turn.royal_safety = if word == "all" {
                        vdl_runtime::model::RoyalSafety::All
                    } else {
                        vdl_runtime::model::RoyalSafety::Any
                    }
                }
                "must_capture" => turn.must_capture = true,
                "must_drop" => {
                    turn.must_drop = Some(
                        child
                            .condition
                            .clone()
                            .unwrap_or(vdl_runtime::model::Cond::Const(true)),
                    )
                }
                "forbid_checks" => turn.forbid_checks = true,
                "wall" => turn.wall = self.build_walling(child),
                other => debug_assert!(false, "turn statement `{other}` has no model"),
            }
        }
        turn
    }
}

/// In a game with a `wall` rule, walls are pieces of a type of their own (the last, letter `*`) owned by
/// a neutral side of their own (the last side): nobody's enemy, they never move, are never captured
/// and block every move (leaps jump over them).
fn add_wall_type(game: &mut Game) {
    if game.turn.wall.is_none() {
        return;
    }
    game.pieces.push(vdl_runtime::model::Piece {
        name: "(wall)".into(),
        title: Some("Wall".into()),
        letter: "*".into(),
        immune: true,
        never_captures: true,
        value: Some(0),
        ..vdl_runtime::model::Piece::default()
    });
    game.players.push(vdl_runtime::model::Player {
        name: "(walls)".into(),
        title: "Walls".into(),
        neutral: true,
        forward: vec![[0, 1, 0]],
        upper_case: false,
        fen_prefix: None,
        movable_by: Vec::new(),
        bonus_points: 0,
        partner: None,
    });
}

/// The help of a checkmate rule that never runs.
const CHECKMATE_GOES_ON: &str = "checkmate eliminates a player, and the game goes on, when a rule `on checkmate` says `eliminate checkmated`";

impl Checker {
    /// `wall empty|reach BETZA|vacated (in ZONE)? single?`; a Betza string goes with `reach` only
    /// (`check_walling` reports the other forms).
    fn build_walling(&mut self, d: &Directive) -> Option<vdl_runtime::model::Walling> {
        use vdl_runtime::model::{WallCells, Walling};
        let betza = d.arguments.iter().find_map(|a| match a {
            Arg::Str(s) => Some(s.clone()),
            _ => None,
        });
        let cells = match (d.arguments.first().and_then(Arg::as_word), betza) {
            (Some("reach"), Some(betza)) => {
                WallCells::Reach(Box::new(self.build_moves(&betza, Vec::new(), false, None)))
            }
            (Some("empty"), None) => WallCells::Empty,
            (Some("vacated"), None) => WallCells::Vacated,
            _ => return None,
        };
        Some(Walling {
            cells,
            zone: d.arguments.iter().find_map(Arg::as_zone),
            single: d.arguments.iter().any(|a| a.is_word("single")),
        })
    }
}

/// The events `freeze after` accepts.
const FREEZE_EVENTS: &[&str] = &["move", "jump", "unpin", "capture", "stack"];

fn freeze_event(word: &str) -> Option<FreezeEvent> {
    Some(match word {
        "move" => FreezeEvent::Move,
        "jump" => FreezeEvent::Jump,
        "unpin" => FreezeEvent::Unpin,
        "capture" => FreezeEvent::Capture,
        "stack" => FreezeEvent::Stack,
        _ => return None,
    })
}

/// The text of a name or string argument.
pub(super) fn word(arg: Option<&Arg>) -> String {
    match arg {
        Some(Arg::Word(w)) | Some(Arg::Str(w)) => w.clone(),
        _ => String::new(),
    }
}

/// The integer of an argument (0 when it is not one, which the statement check has reported).
pub(super) fn int(arg: Option<&Arg>) -> i64 {
    arg.and_then(Arg::as_int).unwrap_or(0)
}

/// An integer or string argument that may be an option's value.
fn setting<T>(arg: Option<&Arg>, fixed: impl Fn(&Arg) -> Option<T>) -> Option<Setting<T>> {
    match arg? {
        Arg::Option(o) => Some(Setting::Option(*o)),
        other => fixed(other).map(Setting::Fixed),
    }
}

fn build_game(d: &Directive, game: &mut Game) {
    game.name = word(d.arguments.first());
    game.title = match d.arguments.get(1) {
        Some(Arg::Str(s)) => s.clone(),
        _ => game.name.clone(),
    };
    let mut credits = Credits::default();
    for child in &d.children {
        let text = || word(child.arguments.first());
        match child.keyword.as_str() {
            "title" => game.title = text(),
            "author" => credits.author = Some(text()),
            "source" => credits.source = Some(text()),
            "based_on" => credits.based_on = Some(text()),
            "aliases" => game
                .aliases
                .extend(child.arguments.iter().map(|a| word(Some(a)))),
            other => debug_assert!(false, "game statement `{other}` has no model"),
        }
    }
    game.credits = credits;
}

/// A board's `forward` holds for every move made on it: a move set not limited to boards becomes one
/// set per group of boards sharing a forward (boards without one use the players' own), so that each
/// backend reads the frame from the boards a set is limited to.
fn split_by_board_forward(game: &mut Game) {
    if game.boards.iter().all(|b| b.forward.is_none()) {
        return;
    }
    let mut groups: Vec<(Option<vdl_runtime::model::Vec3>, Vec<usize>)> = Vec::new();
    for (index, board) in game.boards.iter().enumerate() {
        match groups.iter_mut().find(|(f, _)| *f == board.forward) {
            Some((_, boards)) => boards.push(index),
            None => groups.push((board.forward, vec![index])),
        }
    }
    for piece in &mut game.pieces {
        let sets = std::mem::take(&mut piece.moves);
        for set in sets {
            if !set.boards.is_empty() {
                piece.moves.push(set);
                continue;
            }
            for (_, boards) in &groups {
                piece.moves.push(vdl_runtime::model::Moves {
                    boards: boards.clone(),
                    ..set.clone()
                });
            }
        }
    }
}

fn build_board_forward(d: &Directive, game: &mut Game) {
    let name = word(d.arguments.first());
    if let Some(board) = game.boards.iter_mut().find(|b| b.name == name) {
        if let Some(v) = d
            .child("forward")
            .and_then(|c| c.arguments.first())
            .and_then(Arg::as_vector)
        {
            board.forward = Some(v);
        }
    }
}

pub(super) fn movable_by(d: &Directive) -> MovableBy {
    MovableBy {
        who: d
            .arguments
            .iter()
            .filter_map(|a| match a {
                Arg::Word(w) if w == "all" => Some(MoverSide::All),
                Arg::Word(w) if w == "enemy" => Some(MoverSide::Enemy),
                Arg::Word(w) if w == "none" => Some(MoverSide::None),
                Arg::Player(p) => Some(MoverSide::Player(*p)),
                _ => None,
            })
            .collect(),
        condition: d.condition.clone(),
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
        upper_case: index == 0,
        ..Player::default()
    };
    for child in &d.children {
        match child.keyword.as_str() {
            "forward" => {
                player.forward = child.arguments.iter().filter_map(Arg::as_vector).collect()
            }
            "letters" => {
                player.upper_case = child.arguments.first().is_some_and(|a| a.is_word("upper"))
            }
            "fen_prefix" => player.fen_prefix = Some(word(child.arguments.first())),
            "movable_by" => player.movable_by.push(movable_by(child)),
            "bonus_points" => player.bonus_points = int(child.arguments.first()) as i32,
            "partner" => {
                player.partner = match child.arguments.first() {
                    Some(Arg::Player(p)) => Some(*p),
                    _ => None,
                }
            }
            other => debug_assert!(false, "player statement `{other}` has no model"),
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

fn build_setup(d: &Directive) -> SetupBlock {
    let mut block = SetupBlock {
        condition: d.condition.clone(),
        fen: match d.arguments.first() {
            Some(Arg::Str(fen)) => Some(fen.clone()),
            _ => None,
        },
        steps: Vec::new(),
    };
    for child in &d.children {
        let args = child.arguments.as_slice();
        let step = match child.keyword.as_str() {
            "fen" => SetupStep::Fen(word(args.first())),
            "place" => SetupStep::Place {
                side: match args.first() {
                    Some(Arg::Player(p)) => *p,
                    _ => 0,
                },
                piece: args.get(1).and_then(Arg::as_piece).unwrap_or(0),
                cells: args
                    .iter()
                    .skip(2)
                    .filter_map(|a| match a {
                        Arg::Cell(c) => Some(*c),
                        _ => None,
                    })
                    .collect(),
            },
            "shuffle" => SetupStep::Shuffle {
                player: match args.first() {
                    Some(Arg::Player(p)) => *p,
                    _ => 0,
                },
                pieces: piece_list(args.get(1)),
                zone: args.iter().find_map(Arg::as_zone).unwrap_or(0),
            },
            "fill" => SetupStep::Fill {
                reserve: match args.first() {
                    Some(Arg::Reserve(r)) => *r,
                    _ => 0,
                },
                piece: args.get(1).and_then(Arg::as_piece).unwrap_or(0),
                count: int(args.get(2)).max(0) as u32,
            },
            "seed" => match setting(args.first(), |a| a.as_int().map(|n| n as u64)) {
                Some(seed) => SetupStep::Seed(seed),
                None => continue,
            },
            "arrange" => SetupStep::Arrange {
                pieces: piece_list(args.first()),
                zone: args.iter().find_map(Arg::as_zone).unwrap_or(0),
                code: match setting(args.last(), |a| match a {
                    Arg::Str(s) => Some(s.clone()),
                    _ => None,
                }) {
                    Some(code) => code,
                    None => continue,
                },
            },
            other => {
                debug_assert!(false, "setup statement `{other}` has no model");
                continue;
            }
        };
        block.steps.push(Guarded {
            item: step,
            condition: child.condition.clone(),
        });
    }
    block
}

/// The pieces of a piece or list argument.
pub(super) fn piece_list(arg: Option<&Arg>) -> Vec<usize> {
    match arg {
        Some(Arg::Piece(p)) => vec![*p],
        Some(Arg::List(items)) => items.iter().filter_map(Arg::as_piece).collect(),
        _ => Vec::new(),
    }
}

fn build_reserve(d: &Directive) -> Reserve {
    let mut reserve = Reserve {
        name: word(d.arguments.first()),
        ..Reserve::default()
    };
    for child in &d.children {
        match (child.keyword.as_str(), child.arguments.as_slice()) {
            ("per_player", _) => reserve.per_player = true,
            // The default, said explicitly.
            ("shared", _) => {}
            ("drops", _) => {
                reserve.drops = true;
                reserve.drop_condition = child.condition.clone();
            }
            ("captured_go_here", args) => {
                reserve.captured_go_here = Some(if args.iter().any(|a| a.is_word("partner")) {
                    vdl_runtime::model::CapturesTo::Partner
                } else {
                    vdl_runtime::model::CapturesTo::Captor
                })
            }
            ("demote_promoted", _) => reserve.demote_promoted = true,
            ("drop_promoted", _) => reserve.drop_promoted = true,
            ("no_drop_check", _) => reserve.no_drop_check = true,
            ("pick_up", args) => {
                let all = args.iter().any(|a| a.is_word("all"));
                reserve.pick_ups.push(vdl_runtime::model::PickUp {
                    pieces: if all {
                        vdl_runtime::model::PieceSet::All
                    } else {
                        vdl_runtime::model::PieceSet::Types(
                            args.iter().filter_map(Arg::as_piece).collect(),
                        )
                    },
                    from: args.windows(2).find_map(|w| match w {
                        [Arg::Word(k), Arg::Zone(z)] if k == "from" => Some(*z),
                        _ => None,
                    }),
                    condition: child.condition.clone(),
                })
            }
            ("drops_virgin", _) => reserve.drops_virgin = true,
            ("gating", [Arg::Zone(z)]) => reserve.gating = Some(*z),
            ("holds", [Arg::Piece(p), Arg::Int(n)]) => reserve.holds.push(Guarded {
                item: (*p, *n as u32),
                condition: child.condition.clone(),
            }),
            (other, _) => debug_assert!(false, "reserve statement `{other}` has no model"),
        }
    }
    reserve
}

fn cells_or_zones(args: &[Arg]) -> Vec<CellsOrZone> {
    args.iter()
        .filter_map(|a| match a {
            Arg::Cell(c) => Some(CellsOrZone::Cell(*c)),
            Arg::Zone(z) => Some(CellsOrZone::Zone(*z)),
            _ => None,
        })
        .collect()
}

fn build_castle(d: &Directive) -> Castle {
    let mut castle = Castle {
        king: None,
        partners: Vec::new(),
        along: Vec::new(),
        partner_at: PartnerAt::Edge,
        king_steps: 2,
        partner_to: PartnerTo::Crossed,
        requires: Vec::new(),
        check_attacks: true,
        from: Vec::new(),
        king_lands: Vec::new(),
        partner_lands: Vec::new(),
    };
    for child in &d.children {
        let args = child.arguments.as_slice();
        match child.keyword.as_str() {
            "king" => castle.king = args.first().and_then(Arg::as_piece),
            "partner" => castle.partners.push(CastlePartner {
                pieces: args.iter().filter_map(Arg::as_piece).collect(),
                along: args.iter().filter_map(Arg::as_vector).collect(),
                condition: child.condition.clone(),
            }),
            "along" => castle.along = args.iter().filter_map(Arg::as_vector).collect(),
            "partner_at" => {
                castle.partner_at = match args.first() {
                    Some(Arg::Range(lo, hi)) => PartnerAt::Distance(
                        lo.as_int().unwrap_or(1).max(1) as u32,
                        hi.as_int().unwrap_or(1).max(1) as u32,
                    ),
                    Some(Arg::Int(n)) => PartnerAt::Distance(*n as u32, *n as u32),
                    _ => PartnerAt::Edge,
                }
            }
            "king_steps" => castle.king_steps = int(args.first()).max(1) as u32,
            "partner_to" => {
                castle.partner_to = if args.first().is_some_and(|a| a.is_word("beyond")) {
                    PartnerTo::Beyond
                } else {
                    PartnerTo::Crossed
                }
            }
            "requires" => castle.requires.push(Requirement {
                kind: if args.first().is_some_and(|a| a.is_word("original")) {
                    Untouched::Original
                } else {
                    Untouched::Virgin
                },
                pieces: args
                    .iter()
                    .skip(1)
                    .filter_map(|a| match a {
                        Arg::Word(w) if w == "king" => Some(CastlePiece::King),
                        Arg::Word(w) if w == "partner" => Some(CastlePiece::Partner),
                        Arg::Piece(p) => Some(CastlePiece::Piece(*p)),
                        _ => None,
                    })
                    .collect(),
            }),
            "ignore_attacks" => castle.check_attacks = false,
            // The default, said explicitly (a contradiction with `ignore_attacks` is an error).
            "not_through_check" => {}
            "from" => castle.from = cells_or_zones(args),
            "king_lands" => castle.king_lands = cells_or_zones(args),
            "partner_lands" => castle.partner_lands = cells_or_zones(args),
            other => debug_assert!(false, "castle statement `{other}` has no model"),
        }
    }
    castle
}

fn build_option(d: &Directive) -> GameOption {
    let mut option = GameOption {
        name: word(d.arguments.first()),
        ..GameOption::default()
    };
    for child in &d.children {
        let show = |a: &Arg| show_value(a);
        match child.keyword.as_str() {
            "values" => option.values = child.arguments.iter().map(show).collect(),
            "default" => option.default = child.arguments.first().map(show),
            "describe" => option.description = child.arguments.first().map(show),
            "engine_name" => option.engine_name = child.arguments.first().map(show),
            "selects" => {
                if let [name, value] = child.arguments.as_slice() {
                    option.selects = Some((show(name), show(value)));
                }
            }
            other => debug_assert!(false, "option statement `{other}` has no model"),
        }
    }
    option
}

/// An option value as text: a range is `LO..HI`.
fn show_value(a: &Arg) -> String {
    match a {
        Arg::Word(w) | Arg::Str(w) => w.clone(),
        Arg::Int(n) => n.to_string(),
        Arg::Range(lo, hi) => format!("{}..{}", show_value(lo), show_value(hi)),
        Arg::Piece(_) | Arg::Zone(_) => String::new(),
        _ => String::new(),
    }
}

fn build_typemap(d: &Directive) -> TypeMap {
    let mut map = TypeMap {
        name: word(d.arguments.first()),
        pairs: Vec::new(),
    };
    for line in d.children_named("map") {
        let pieces: Vec<usize> = line.arguments.iter().filter_map(Arg::as_piece).collect();
        if let Some((&to, from)) = pieces.split_last() {
            map.pairs.extend(from.iter().map(|&f| (f, to)));
        }
    }
    map
}

fn build_transfer(d: &Directive) -> Transfer {
    let arguments = |keyword: &str| {
        d.child(keyword)
            .map(|c| c.arguments.clone())
            .unwrap_or_default()
    };
    Transfer {
        name: word(d.arguments.first()),
        pieces: arguments("pieces")
            .iter()
            .filter_map(Arg::as_piece)
            .collect(),
        from: cells_or_zones(&arguments("from")),
        to: cells_or_zones(&arguments("to")),
        empty_only: arguments("target").iter().any(|a| a.is_word("empty")),
        become_piece: arguments("become").iter().find_map(Arg::as_piece),
        conditions: d
            .children
            .iter()
            .filter(|c| c.keyword == "when" || c.keyword == "unless")
            .filter_map(|c| c.condition.clone())
            .chain(d.condition.clone())
            .collect(),
    }
}

fn build_custodian(d: &Directive) -> Custodian {
    let mut custodian = Custodian::default();
    for child in &d.children {
        let args = child.arguments.as_slice();
        match child.keyword.as_str() {
            "along" => custodian.along = args.iter().filter_map(Arg::as_vector).collect(),
            "enclose" => {
                let (min, max) = match args.get(1) {
                    Some(Arg::Int(n)) => (*n as usize, *n as usize),
                    Some(Arg::Range(lo, hi)) => (
                        lo.as_int().unwrap_or(1) as usize,
                        hi.as_int().unwrap_or(1) as usize,
                    ),
                    _ => (1, 1),
                };
                custodian.enclose.push(Enclose {
                    friend: args.first().is_some_and(|a| a.is_word("friend")),
                    min: min.min(max),
                    max: max.max(min),
                });
            }
            "corner" => custodian.corners.push(Corner {
                zone: args.first().and_then(Arg::as_zone).unwrap_or(0),
                enemy: args.iter().any(|a| a.is_word("enemy")),
                friend: args.iter().any(|a| a.is_word("friend")),
            }),
            "remove" => custodian.top_only = args.first().is_some_and(|a| a.is_word("top")),
            "edge_jaw" => custodian.edge_jaw = true,
            other => debug_assert!(false, "custodian statement `{other}` has no model"),
        }
    }
    custodian
}

fn build_notation(d: &Directive) -> Notation {
    let template = |keyword: &str| d.child(keyword).map(|c| word(c.arguments.first()));
    Notation {
        move_template: template("move"),
        capture_suffix: template("capture_suffix"),
        pass: template("pass"),
        position: template("position"),
    }
}
