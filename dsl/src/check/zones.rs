//! Zones: each zone's cell specifications evaluated per player, with their conditions on
//! coordinates (`rank 8 when x > 2`).

use vdl_runtime::model::{Board, Zone};

use super::directive::{Arg, Directive};
use super::model::word;
use super::Checker;
use crate::ast::{self, ArithOp, CompareOp, ExprKind, Statement, Value, ValueKind};
use crate::error::ErrorKind;

impl Checker {
    pub(super) fn build_zones(
        &mut self,
        statements: &[Statement],
        directives: &[Directive],
    ) -> Vec<Zone> {
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
        let cells = match &spec.coordinates {
            Some(condition) => cells
                .into_iter()
                .filter(|&c| {
                    coordinate_condition(&condition.expr, self.cell_list[c].coord)
                        != condition.negated
                })
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

/// Evaluates a zone specification's condition over a cell's 0-based coordinates `x`, `y`, `z` (the
/// checker has made sure it holds nothing else).
fn coordinate_condition(e: &ast::Expr, coord: [i32; 3]) -> bool {
    fn value(e: &ast::Expr, coord: [i32; 3]) -> i64 {
        match &e.kind {
            ExprKind::Value(v) => match &v.kind {
                ValueKind::Int(n) => i64::try_from(*n).unwrap_or(0),
                ValueKind::Path(p) => match p[0].text.as_str() {
                    "x" => coord[0] as i64,
                    "y" => coord[1] as i64,
                    _ => coord[2] as i64,
                },
                _ => 0,
            },
            ExprKind::Arith(op, l, r) => {
                let (l, r) = (value(l, coord), value(r, coord));
                if *op == ArithOp::Add {
                    l.saturating_add(r)
                } else {
                    l.saturating_sub(r)
                }
            }
            _ => 0,
        }
    }
    match &e.kind {
        ExprKind::And(parts) => parts.iter().all(|p| coordinate_condition(p, coord)),
        ExprKind::Or(parts) => parts.iter().any(|p| coordinate_condition(p, coord)),
        ExprKind::Not(inner) => !coordinate_condition(inner, coord),
        ExprKind::Compare(op, l, r) => {
            let (l, r) = (value(l, coord), value(r, coord));
            match op {
                CompareOp::Eq => l == r,
                CompareOp::Ne => l != r,
                CompareOp::Lt => l < r,
                CompareOp::Le => l <= r,
                CompareOp::Gt => l > r,
                CompareOp::Ge => l >= r,
                CompareOp::In => false,
            }
        }
        _ => false,
    }
}
