//! Start positions built from `setup` statements (`place`, `shuffle`, `arrange`, `fill`, `seed`), under
//! the values of the game's options, for games whose start is not a single FEN.

use crate::model::{Guarded, Setting, SetupBlock, SetupStep};
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

    fn setting_text<T: ToString>(&self, setting: &Setting<T>) -> Option<String> {
        match setting {
            Setting::Fixed(v) => Some(v.to_string()),
            Setting::Option(o) => self
                .game
                .options
                .get(*o)
                .and_then(|o| self.option_value(&o.name)),
        }
    }

    /// Builds the start position: the FEN of the setup blocks that apply under the options (if any),
    /// then their statements in order.
    pub(super) fn build_setup(&self) -> Result<Position, TextError> {
        let players = self.game.players.len().max(2);
        let blocks: Vec<&SetupBlock> = self
            .game
            .setup
            .blocks
            .iter()
            .filter(|b| {
                b.condition
                    .as_ref()
                    .is_none_or(|c| self.option_condition(c))
            })
            .collect();
        let applies = |step: &&Guarded<SetupStep>| {
            step.condition
                .as_ref()
                .is_none_or(|c| self.option_condition(c))
        };
        let fen = blocks
            .iter()
            .flat_map(|b| {
                b.fen
                    .iter()
                    .cloned()
                    .chain(
                        b.steps
                            .iter()
                            .filter(applies)
                            .filter_map(|s| match &s.item {
                                SetupStep::Fen(fen) => Some(fen.clone()),
                                _ => None,
                            }),
                    )
            })
            .last();
        let mut position = match fen {
            Some(fen) => self.read_start_fen(&fen)?,
            None => {
                let mut p = Position::empty(self.game.cells.len(), self.game.pieces.len(), players);
                p.side = self.turn_order.first().copied().unwrap_or(0);
                p
            }
        };
        let mut rng = SplitMix(0);
        for step in blocks.iter().flat_map(|b| b.steps.iter()).filter(applies) {
            if let SetupStep::Seed(seed) = &step.item {
                let text = self.setting_text(seed).unwrap_or_default();
                rng = SplitMix(
                    text.parse()
                        .map_err(|_| TextError::new(format!("seed `{text}` is not a number")))?,
                );
            }
        }
        for step in blocks.iter().flat_map(|b| b.steps.iter()).filter(applies) {
            self.apply_setup_step(&mut position, &step.item, &mut rng)?;
        }
        // A reserve's initial content (`holds`), each line under its option condition: the shared
        // row, or every player's hand.
        let shared = position.hands.len() - 1;
        for reserve in &self.game.reserves {
            for hold in &reserve.holds {
                if !hold
                    .condition
                    .as_ref()
                    .is_none_or(|c| self.option_condition(c))
                {
                    continue;
                }
                let (piece, n) = hold.item;
                let rows: Vec<usize> = if reserve.per_player {
                    (0..self.players).collect()
                } else {
                    vec![shared]
                };
                for row in rows {
                    let count = &mut position.hands[row][piece];
                    *count = (*count as u32 + n).min(255) as u8;
                }
            }
        }
        position.hash = self.compute_hash(&position);
        Ok(position)
    }

    fn apply_setup_step(
        &self,
        position: &mut Position,
        step: &SetupStep,
        rng: &mut SplitMix,
    ) -> Result<(), TextError> {
        match step {
            SetupStep::Fen(_) | SetupStep::Seed(_) => {}
            SetupStep::Place { side, piece, cells } => {
                for &cell in cells {
                    position.cells[cell] = Occupant::new(*piece, *side, true, false);
                }
            }
            SetupStep::Shuffle {
                player,
                pieces,
                zone,
            } => {
                let mut pieces = pieces.clone();
                for i in (1..pieces.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    pieces.swap(i, j);
                }
                let cells = &self.game.zones[*zone].cells[*player];
                for (cell, piece) in cells.iter().zip(pieces) {
                    position.cells[*cell] = Occupant::new(piece, *player, true, false);
                }
            }
            SetupStep::Fill {
                reserve,
                piece,
                count,
            } => {
                let rows: Vec<usize> = if self.game.reserves[*reserve].per_player {
                    (0..self.players).collect()
                } else {
                    vec![position.hands.len() - 1]
                };
                for row in rows {
                    position.hands[row][*piece] = (*count).min(255) as u8;
                }
            }
            SetupStep::Arrange { zone, code, .. } => {
                let code = self.setting_text(code).unwrap_or_default();
                self.arrange(position, *zone, &code)?;
            }
        }
        Ok(())
    }

    /// `arrange [PIECES] in ZONE by CODE`: letter k of each player's part of the code is the piece on
    /// that player's cell k of the zone.
    fn arrange(&self, position: &mut Position, zone: usize, code: &str) -> Result<(), TextError> {
        let parts: Vec<&str> = code.split('/').collect();
        let real_players = self.players;
        if parts.len() != real_players {
            return Err(TextError::new(format!(
                "setup code `{code}` needs {real_players} parts separated by `/`"
            )));
        }
        for (owner, part) in parts.iter().enumerate() {
            let cells = &self.game.zones[zone].cells[owner];
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
