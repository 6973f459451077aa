//! Boards and cells: sizes, labels, name templates, holes, and the global cell table.

use std::collections::HashMap;

use vdl_runtime::model::{Board, Cell, Overflow};

use super::Checker;
use crate::ast::{Statement, Value, ValueKind};
use crate::error::{Error, ErrorKind};

pub use crate::limits::{MAX_CELLS, MAX_SIDE};

impl Checker {
    /// Builds every board's cells, so that cell names can be resolved by the statements that follow.
    /// Once the boards so far have more than [`MAX_CELLS`] cells, the boards after them are only counted,
    /// so that a file declaring many large boards cannot make the checker allocate without bound.
    pub(super) fn build_boards(&mut self, statements: &[Statement]) {
        self.dimensions = 2;
        let mut cells = 0usize;
        let mut over_limit = None;
        for s in statements.iter().filter(|s| s.keyword.text == "board") {
            if s.arguments.first().and_then(Value::as_name).is_none() {
                continue; // reported by the statement check
            }
            cells = cells.saturating_add(self.build_board(s, cells <= MAX_CELLS));
            if cells > MAX_CELLS && over_limit.is_none() {
                over_limit = Some(s.span);
            }
        }
        if let Some(span) = over_limit {
            self.error(span, ErrorKind::BoardTooLarge { cells });
        }
    }

    // Coordinates index three label lists at once, so index loops read best here.
    /// Builds one board and returns how many cells it declares (its positions less its holes); with
    /// `generate` false, only counts them.
    #[allow(clippy::needless_range_loop)]
    fn build_board(&mut self, s: &Statement, generate: bool) -> usize {
        let name = s.arguments[0]
            .as_name()
            .map(|n| n.text.clone())
            .unwrap_or_default();
        let child = |k: &str| s.children().iter().find(|c| c.keyword.text == k);
        let mut size = [8u32, 8, 1];
        let explicit_cells: Option<Vec<String>> = child("cells").map(|c| {
            c.arguments
                .iter()
                .filter_map(|v| v.as_name().map(|n| n.text.clone()))
                .collect()
        });
        if let Some(Value {
            kind: ValueKind::Size(dims),
            span,
        }) = s.arguments.get(1)
        {
            if dims.contains(&0) {
                self.error(*span, ErrorKind::ZeroSize);
                return 0;
            }
            if dims.iter().any(|&d| d > MAX_SIDE) {
                self.error(
                    *span,
                    ErrorKind::NumberOutOfRange {
                        min: 1,
                        max: MAX_SIDE as i64,
                    },
                );
                return 0;
            }
            size = [dims[0], dims[1], dims.get(2).copied().unwrap_or(1)];
        } else if let Some(cells) = &explicit_cells {
            size = [cells.len().max(1) as u32, 1, 1];
        }
        let holes_listed = s
            .children()
            .iter()
            .filter(|c| c.keyword.text == "hole")
            .map(|c| c.arguments.len())
            .sum::<usize>();
        let positions = size.iter().map(|&d| d as usize).product::<usize>();
        if !generate {
            return positions.saturating_sub(holes_listed);
        }
        let three_d = size[2] > 1 || child("levels").is_some();
        if three_d {
            self.dimensions = 3;
        }
        let errors_before = self.problems.len();
        let files = self.labels(child("files"), size[0], "files", LabelDefault::Letters);
        let ranks = self.labels(child("ranks"), size[1], "ranks", LabelDefault::Numbers);
        let levels = if three_d {
            self.labels(child("levels"), size[2], "levels", LabelDefault::Numbers)
        } else {
            vec![String::new()]
        };
        let template = match child("name").and_then(|c| c.arguments.first()) {
            Some(v) => {
                let text = v.as_str().unwrap_or_default().to_string();
                self.check_template(&text, v, three_d);
                text
            }
            None if three_d => "{file}{rank}{level}".to_string(),
            None => "{file}{rank}".to_string(),
        };
        let aliases: Vec<String> = s
            .children()
            .iter()
            .filter(|c| c.keyword.text == "alias")
            .filter_map(|c| c.arguments.first())
            .filter_map(|v| {
                let text = v.as_str()?.to_string();
                self.check_template(&text, v, three_d);
                Some(text)
            })
            .collect();
        if self.problems.len() > errors_before {
            return 0; // cells named from bad labels or templates would only repeat the error
        }
        let board_index = self.board_models.len();
        let first_cell = self.cell_list.len();
        let mut generated: Vec<(String, [i32; 3])> = Vec::new();
        for z in 0..size[2] as usize {
            for y in 0..size[1] as usize {
                for x in 0..size[0] as usize {
                    let cell_name = match &explicit_cells {
                        Some(names) => names.get(x).cloned().unwrap_or_default(),
                        None => fill(&template, &files[x], &ranks[y], &levels[z]),
                    };
                    generated.push((cell_name, [x as i32, y as i32, z as i32]));
                }
            }
        }
        // Holes refer to generated names of this board.
        let by_name: HashMap<&str, usize> = generated
            .iter()
            .enumerate()
            .rev()
            .map(|(i, (g, _))| (g.as_str(), i))
            .collect();
        let mut hole = vec![false; generated.len()];
        let mut hole_errors = Vec::new();
        for h in s.children().iter().filter(|c| c.keyword.text == "hole") {
            for v in &h.arguments {
                let Some(n) = v.as_name() else { continue };
                match by_name.get(n.text.as_str()) {
                    Some(&i) => hole[i] = true,
                    None => {
                        let suggestion =
                            super::suggest(&n.text, generated.iter().map(|(g, _)| g.as_str()));
                        hole_errors.push(Error::new(
                            n.span,
                            ErrorKind::UnknownCell {
                                name: n.text.clone(),
                                suggestion,
                                off_board: None,
                            },
                        ));
                    }
                }
            }
        }
        drop(by_name);
        self.problems.extend(hole_errors);
        let declared = hole.iter().filter(|&&h| !h).count();
        let mut reported_duplicate = false;
        for (i, (cell_name, coord)) in generated.into_iter().enumerate() {
            if hole[i] {
                continue;
            }
            if let Some(&other) = self.cells.get(&cell_name) {
                if !reported_duplicate {
                    let first_board = self
                        .board_models
                        .get(self.cell_list[other].board)
                        .map_or_else(|| name.clone(), |b| b.name.clone());
                    self.error(
                        s.arguments[0].span,
                        ErrorKind::DuplicateCell {
                            name: cell_name.clone(),
                            first_board,
                        },
                    );
                    reported_duplicate = true;
                }
                continue;
            }
            let id = self.cell_list.len();
            self.cells.insert(cell_name.clone(), id);
            for alias in &aliases {
                let alias_name = fill(
                    alias,
                    &files[coord[0] as usize],
                    &ranks[coord[1] as usize],
                    &levels[coord[2] as usize],
                );
                self.cells.entry(alias_name).or_insert(id);
            }
            self.cell_list.push(Cell {
                board: board_index,
                coord,
                name: cell_name,
            });
        }
        let capacity = child("capacity")
            .and_then(|c| c.arguments.first())
            .and_then(Value::as_int)
            .map(|n| n.max(0) as u32);
        self.board_templates
            .push(explicit_cells.is_none().then(|| template.clone()));
        self.board_models.push(Board {
            name,
            size,
            files,
            ranks,
            levels: if three_d { levels } else { Vec::new() },
            first_cell,
            cell_count: self.cell_list.len() - first_cell,
            capacity,
            overflow: if child("overflow")
                .and_then(|c| c.arguments.first())
                .and_then(Value::as_name)
                .is_some_and(|n| n.text == "capture")
            {
                Overflow::Capture
            } else {
                Overflow::Forbid
            },
            forward: None,
            aliases,
        });
        declared
    }

    fn check_template(&mut self, text: &str, value: &Value, three_d: bool) {
        let mut rest = text;
        let mut seen = Vec::new();
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                self.error(
                    value.span,
                    ErrorKind::InvalidTemplate {
                        detail: "`{` without `}`".into(),
                    },
                );
                return;
            };
            let field = &rest[open + 1..open + close];
            if !matches!(field, "file" | "rank" | "level") {
                self.error(
                    value.span,
                    ErrorKind::InvalidTemplate {
                        detail: format!("unknown field `{{{field}}}`"),
                    },
                );
                return;
            }
            seen.push(field.to_string());
            rest = &rest[open + close + 1..];
        }
        let needed: &[&str] = if three_d {
            &["file", "rank", "level"]
        } else {
            &["file", "rank"]
        };
        if let Some(missing) = needed.iter().find(|n| !seen.iter().any(|s| s == *n)) {
            self.error(
                value.span,
                ErrorKind::InvalidTemplate {
                    detail: format!("missing `{{{missing}}}`"),
                },
            );
        }
    }

    /// Reads a `files`/`ranks`/`levels` statement, or makes the default labels.
    fn labels(
        &mut self,
        statement: Option<&Statement>,
        count: u32,
        axis: &'static str,
        default: LabelDefault,
    ) -> Vec<String> {
        let Some(statement) = statement else {
            return (0..count).map(|i| default.label(i)).collect();
        };
        let mut out = Vec::new();
        for v in &statement.arguments {
            match &v.kind {
                ValueKind::Path(p) if p.len() == 1 => out.push(p[0].text.clone()),
                ValueKind::Int(n) => out.push(n.to_string()),
                ValueKind::Range(lo, hi) => match expand_range(lo, hi) {
                    Ok(labels) => out.extend(labels),
                    Err(detail) => self.error(v.span, ErrorKind::InvalidRange { detail }),
                },
                _ => {} // reported by the statement check
            }
        }
        if out.len() != count as usize {
            self.error(
                statement.arguments_span(),
                ErrorKind::LabelCount {
                    axis,
                    found: out.len(),
                    expected: count as usize,
                },
            );
            out.resize_with(count as usize, String::new);
        }
        out
    }
}

#[derive(Clone, Copy)]
enum LabelDefault {
    Letters,
    Numbers,
}

impl LabelDefault {
    fn label(self, i: u32) -> String {
        match self {
            LabelDefault::Numbers => (i + 1).to_string(),
            LabelDefault::Letters if i < 26 => ((b'a' + i as u8) as char).to_string(),
            LabelDefault::Letters => format!(
                "{}{}",
                (b'a' + (i / 26 - 1) as u8) as char,
                (b'a' + (i % 26) as u8) as char
            ),
        }
    }
}

/// Expands `a..h` or `1..8` into labels.
pub(super) fn expand_range(lo: &Value, hi: &Value) -> Result<Vec<String>, &'static str> {
    match (&lo.kind, &hi.kind) {
        (ValueKind::Int(a), ValueKind::Int(b)) => {
            if a > b {
                return Err("the start is after the end");
            }
            if b - a > 4096 {
                return Err("too many values");
            }
            Ok((*a..=*b).map(|n| n.to_string()).collect())
        }
        (ValueKind::Path(a), ValueKind::Path(b)) if a.len() == 1 && b.len() == 1 => {
            let (a, b) = (&a[0].text, &b[0].text);
            let (mut ca, mut cb) = (a.chars(), b.chars());
            match (ca.next(), ca.next(), cb.next(), cb.next()) {
                (Some(x), None, Some(y), None)
                    if x <= y && x.is_ascii_alphabetic() && y.is_ascii_alphabetic() =>
                {
                    Ok((x..=y).map(|c| c.to_string()).collect())
                }
                (Some(_), None, Some(_), None) => Err("the start is after the end"),
                _ => Err("a range of names goes from one letter to another"),
            }
        }
        _ => Err("both ends must be numbers or both single letters"),
    }
}

fn fill(template: &str, file: &str, rank: &str, level: &str) -> String {
    template
        .replace("{file}", file)
        .replace("{rank}", rank)
        .replace("{level}", level)
}
