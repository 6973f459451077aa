//! Positions drawn for people: every board as a grid with its file and rank labels, several boards
//! (and the levels of a 3D board) side by side, pieces by their letters (upper case for the first
//! player and lower case for the second in two-player games, the owner's `fen_prefix` then the
//! letters when the owner has one (`cK`, `pMD`), `digit+LETTER` by player index otherwise); a stack
//! shows its top piece then the piece below (`lV`), and a frozen piece is marked `'`. Under the
//! boards: the hands, the players out of the game (with who checkmated them) and the player to move.

use super::position::{Occupant, Position};
use super::tables::Interpreter;

impl Interpreter {
    /// Draws a position.
    pub fn render(&self, pos: &Position) -> String {
        let two_players = self.game.players.len() - usize::from(self.walls.is_some()) == 2;
        let token = |occ: Occupant| -> String {
            if occ.is_empty() {
                return ".".into();
            }
            if self.walls.as_ref().is_some_and(|w| w.is_wall(occ)) {
                return "*".into();
            }
            let letter = &self.game.pieces[occ.piece()].letter;
            let letter = if letter.is_empty() {
                "?"
            } else {
                letter.as_str()
            };
            if let Some(prefix) = self.fen_prefix(occ.owner()) {
                format!("{prefix}{}", letter.to_ascii_uppercase())
            } else if two_players {
                if self.game.players[occ.owner()].upper_case {
                    letter.to_ascii_uppercase()
                } else {
                    letter.to_ascii_lowercase()
                }
            } else {
                format!("{}{}", occ.owner(), letter.to_ascii_uppercase())
            }
        };
        // A cell: its piece, the piece below it on a stack, and `'` when the top piece is frozen.
        let cell_text = |cell: usize| -> String {
            let occ = pos.cells[cell];
            let mut text = token(occ);
            if let Some(&(_, below)) = pos.stacks.iter().find(|&&(c, _)| c == cell) {
                text.push_str(&token(below));
            }
            if !occ.is_empty() && occ.is_frozen() {
                text.push('\'');
            }
            text
        };
        let width = (0..pos.cells.len())
            .map(|c| cell_text(c).chars().count())
            .max()
            .unwrap_or(1)
            .max(
                self.game
                    .boards
                    .iter()
                    .flat_map(|b| b.files.iter())
                    .map(|f| f.chars().count())
                    .max()
                    .unwrap_or(1),
            );
        // One block of lines per board level.
        let mut blocks: Vec<Vec<String>> = Vec::new();
        for (index, board) in self.game.boards.iter().enumerate() {
            let grid = &self.grids[index];
            let rank_width = board
                .ranks
                .iter()
                .map(|r| r.chars().count())
                .max()
                .unwrap_or(1);
            for z in (0..grid.size[2]).rev() {
                let mut lines = Vec::new();
                let title = if grid.size[2] > 1 {
                    format!(
                        "{} level {}",
                        board.name,
                        board.levels.get(z as usize).cloned().unwrap_or_default()
                    )
                } else {
                    board.name.clone()
                };
                lines.push(title);
                for y in (0..grid.size[1]).rev() {
                    let mut line = format!(
                        "{:>rank_width$} ",
                        board.ranks.get(y as usize).cloned().unwrap_or_default()
                    );
                    for x in 0..grid.size[0] {
                        let cell = grid.cells[((z * grid.size[1] + y) * grid.size[0] + x) as usize];
                        let text = match cell {
                            Some(c) => cell_text(c),
                            None => " ".into(),
                        };
                        line.push_str(&format!(" {text:>width$}"));
                    }
                    lines.push(line);
                }
                let mut files = " ".repeat(rank_width + 1);
                for x in 0..grid.size[0] {
                    files.push_str(&format!(
                        " {:>width$}",
                        board.files.get(x as usize).cloned().unwrap_or_default()
                    ));
                }
                lines.push(files);
                blocks.push(lines);
            }
        }
        // Side by side, wrapping to keep lines under about 120 columns.
        let mut out = String::new();
        let mut row: Vec<Vec<String>> = Vec::new();
        let mut row_width = 0;
        let flush = |row: &mut Vec<Vec<String>>, out: &mut String| {
            let height = row.iter().map(Vec::len).max().unwrap_or(0);
            let widths: Vec<usize> = row
                .iter()
                .map(|b| b.iter().map(|l| l.chars().count()).max().unwrap_or(0))
                .collect();
            for i in 0..height {
                let mut line = String::new();
                for (b, block) in row.iter().enumerate() {
                    let text = block.get(i).cloned().unwrap_or_default();
                    line.push_str(&format!("{text:<w$}    ", w = widths[b]));
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
            row.clear();
        };
        for block in blocks {
            let w = block.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 4;
            if row_width + w > 120 && !row.is_empty() {
                flush(&mut row, &mut out);
                out.push('\n');
                row_width = 0;
            }
            row_width += w;
            row.push(block);
        }
        flush(&mut row, &mut out);
        for (player, hand) in pos.hands.iter().enumerate() {
            if hand.iter().any(|&n| n > 0) {
                let name = self
                    .game
                    .players
                    .get(player)
                    .map(|p| p.name.as_str())
                    .unwrap_or("shared");
                let pieces: Vec<String> = hand
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(p, &n)| format!("{}x{}", n, self.game.pieces[p].letter))
                    .collect();
                out.push_str(&format!("in hand ({name}): {}\n", pieces.join(" ")));
            }
        }
        if pos.eliminated != 0 {
            let mut out_players: Vec<usize> = (0..self.game.players.len())
                .filter(|&p| pos.is_eliminated(p))
                .collect();
            // In the order they dropped out.
            out_players.sort_by_key(|&p| std::cmp::Reverse(pos.dropped_among[p]));
            let items: Vec<String> = out_players
                .iter()
                .map(|&p| {
                    let name = &self.game.players[p].name;
                    match pos.mated_by[p] {
                        0 => name.clone(),
                        m => format!(
                            "{name} (checkmated by {})",
                            self.game.players[m as usize - 1].name
                        ),
                    }
                })
                .collect();
            out.push_str(&format!("out: {}\n", items.join(", ")));
        }
        out.push_str(&format!(
            "{} to move\n",
            self.game
                .players
                .get(pos.side)
                .map(|p| p.name.as_str())
                .unwrap_or("?")
        ));
        out
    }
}
