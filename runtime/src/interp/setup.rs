//! Start positions built from `setup` statements (`place`, `shuffle`, `arrange`, `fill`, `seed`), under
//! the values of the game's options, for games whose start is not a single FEN.

use crate::model::{Arg, Directive, Expr};
use crate::variant::TextError;

use super::position::{Occupant, Position};
use super::tables::Interpreter;

/// SplitMix64, as the Lords and Vassals specification (§5.2) defines it.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Interpreter {
    /// The value of an option: the one chosen, or its default.
    pub(super) fn option_value(&self, name: &str) -> Option<String> {
        self.chosen_options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| {
                self.game
                    .options
                    .iter()
                    .find(|o| o.name == name)
                    .and_then(|o| o.default.clone())
            })
    }

    /// Evaluates a condition that depends only on options (`option.variant == raj`); conditions about
    /// anything else count as true here.
    pub(super) fn option_condition(&self, e: &Expr) -> bool {
        match e {
            Expr::And(parts) => parts.iter().all(|p| self.option_condition(p)),
            Expr::Or(parts) => parts.iter().any(|p| self.option_condition(p)),
            Expr::Not(inner) => !self.option_condition(inner),
            Expr::Compare(op, l, r) => match (self.option_operand(l), self.option_operand(r)) {
                (Some(a), Some(b)) => match *op {
                    "==" => a == b,
                    "!=" => a != b,
                    _ => true,
                },
                _ => true,
            },
            _ => true,
        }
    }

    fn option_operand(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::Path(p) if p.len() == 2 && p[0] == "option" => self.option_value(&p[1]),
            Expr::Path(p) if p.len() == 1 => Some(p[0].clone()),
            Expr::Literal(Arg::Int(n)) => Some(n.to_string()),
            Expr::Literal(Arg::Str(s)) | Expr::Literal(Arg::Word(s)) => Some(s.clone()),
            _ => None,
        }
    }

    fn arg_value(&self, arg: &Arg) -> Option<String> {
        match arg {
            Arg::List(items) if matches!(items.as_slice(), [Arg::Word(o), Arg::Word(_)] if o == "option") =>
            {
                let Arg::Word(name) = &items[1] else {
                    return None;
                };
                self.option_value(name)
            }
            Arg::Int(n) => Some(n.to_string()),
            Arg::Str(s) | Arg::Word(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// Builds the start position from the setup statements that apply under the options.
    pub(super) fn build_setup(&self) -> Result<Position, TextError> {
        let players = self.game.players.len().max(2);
        let mut position = Position::empty(self.game.cells.len(), self.game.pieces.len(), players);
        let setups: Vec<&Directive> = self
            .game
            .setup
            .statements
            .iter()
            .filter(|d| {
                d.condition
                    .as_ref()
                    .is_none_or(|c| self.option_condition(c))
            })
            .collect();
        let mut rng = SplitMix(0);
        for setup in &setups {
            if let Some(seed) = setup
                .children
                .iter()
                .find(|c| c.keyword == "seed")
                .and_then(|c| c.arguments.first())
                .and_then(|a| self.arg_value(a))
            {
                rng = SplitMix(
                    seed.parse()
                        .map_err(|_| TextError::new(format!("seed `{seed}` is not a number")))?,
                );
            }
        }
        for setup in setups {
            for statement in setup.children.iter().filter(|c| {
                c.condition
                    .as_ref()
                    .is_none_or(|e| self.option_condition(e))
            }) {
                self.apply_setup_statement(&mut position, statement, &mut rng)?;
            }
        }
        // A shared reserve's initial content (`holds`), each line under its option condition.
        let shared = position.hands.len() - 1;
        for reserve in self.game.reserves.iter().filter(|r| !r.per_player) {
            for (index, &(piece, n)) in reserve.holds.iter().enumerate() {
                let when = reserve.holds_when.get(index).and_then(Option::as_ref);
                if when.is_none_or(|c| self.option_condition(c)) {
                    let count = &mut position.hands[shared][piece];
                    *count = (*count as u32 + n).min(255) as u8;
                }
            }
        }
        position.hash = self.compute_hash(&position);
        Ok(position)
    }

    fn apply_setup_statement(
        &self,
        position: &mut Position,
        statement: &Directive,
        rng: &mut SplitMix,
    ) -> Result<(), TextError> {
        let args = statement.arguments.as_slice();
        match statement.keyword.as_str() {
            "place" => {
                let (Some(Arg::Player(owner)), Some(Arg::Piece(piece))) =
                    (args.first(), args.get(1))
                else {
                    return Ok(());
                };
                for arg in &args[2..] {
                    if let Arg::Cell(cell) = arg {
                        position.cells[*cell] = Occupant::new(*piece, *owner, true, false);
                    }
                }
            }
            "shuffle" | "arrange" => {
                let Some(Arg::Player(owner)) =
                    args.first().filter(|_| statement.keyword == "shuffle")
                else {
                    return self.arrange(position, args);
                };
                let Some(Arg::List(items)) = args.get(1) else {
                    return Ok(());
                };
                let mut pieces: Vec<usize> = items.iter().filter_map(Arg::as_piece).collect();
                for i in (1..pieces.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    pieces.swap(i, j);
                }
                let Some(Arg::Zone(zone)) = args.iter().find(|a| matches!(a, Arg::Zone(_))) else {
                    return Ok(());
                };
                let cells = &self.game.zones[*zone].cells[*owner];
                for (cell, piece) in cells.iter().zip(pieces) {
                    position.cells[*cell] = Occupant::new(piece, *owner, true, false);
                }
            }
            "fill" => {
                let (Some(Arg::Reserve(reserve)), Some(Arg::Piece(piece)), Some(Arg::Int(n))) =
                    (args.first(), args.get(1), args.get(2))
                else {
                    return Ok(());
                };
                let row = if self.game.reserves[*reserve].per_player {
                    0
                } else {
                    position.hands.len() - 1
                };
                position.hands[row][*piece] = (*n).clamp(0, 255) as u8;
            }
            _ => {}
        }
        Ok(())
    }

    /// `arrange [PIECES] in ZONE by CODE`: letter k of each player's part of the code is the piece on
    /// that player's cell k of the zone.
    fn arrange(&self, position: &mut Position, args: &[Arg]) -> Result<(), TextError> {
        let Some(Arg::Zone(zone)) = args.iter().find(|a| matches!(a, Arg::Zone(_))) else {
            return Ok(());
        };
        let Some(code) = args.last().and_then(|a| self.arg_value(a)) else {
            return Ok(());
        };
        let parts: Vec<&str> = code.split('/').collect();
        let real_players = self.players;
        if parts.len() != real_players {
            return Err(TextError::new(format!(
                "setup code `{code}` needs {real_players} parts separated by `/`"
            )));
        }
        for (owner, part) in parts.iter().enumerate() {
            let cells = &self.game.zones[*zone].cells[owner];
            if part.chars().count() != cells.len() {
                return Err(TextError::new(format!(
                    "setup code part `{part}` needs {} letters",
                    cells.len()
                )));
            }
            for (cell, letter) in cells.iter().zip(part.chars()) {
                let piece = self
                    .game
                    .pieces
                    .iter()
                    .position(|p| p.letter.eq_ignore_ascii_case(&letter.to_string()))
                    .ok_or_else(|| {
                        TextError::new(format!("setup code letter `{letter}` names no piece"))
                    })?;
                position.cells[*cell] = Occupant::new(piece, owner, true, false);
            }
        }
        Ok(())
    }
}
