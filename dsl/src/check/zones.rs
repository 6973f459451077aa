//! Zones: each zone's cell specifications evaluated per player, with their conditions on
//! coordinates (`rank 8 when x > 2`).

use std::collections::HashMap;

use vdl_runtime::model::{Board, Zone};

use super::directive::{Arg, Directive};
use super::model::word;
use super::Checker;
use crate::ast::{self, ArithOp, CompareOp, ExprKind, Statement, Value, ValueKind};
use crate::error::ErrorKind;
use crate::limits::MAX_ZONES;
use crate::span::Span;

impl Checker {
    pub(super) fn build_zones(
        &mut self,
        statements: &[Statement],
        directives: &[Directive],
    ) -> Vec<Zone> {
        let players = self.players.order.len().max(1);
        let count = self.zones.order.len();
        let empty = |name: &String| Zone {
            name: name.clone(),
            cells: vec![Vec::new(); players],
        };
        let zone_statements: Vec<&Statement> = statements
            .iter()
            .filter(|s| s.keyword.text == "zone")
            .collect();
        if count > MAX_ZONES {
            let span = zone_statements
                .get(MAX_ZONES)
                .map(|s| s.span)
                .unwrap_or_default();
            self.error(span, ErrorKind::TooManyZones { count });
            return self.zones.order.iter().map(empty).collect();
        }
        // The first definition of each zone (a second one is a duplicate name, reported elsewhere).
        let mut definition: Vec<Option<&Directive>> = vec![None; count];
        for d in directives.iter().filter(|d| d.keyword == "zone") {
            if let Some(index) = self.zones.get(&word(d.arguments.first())) {
                definition[index].get_or_insert(d);
            }
        }
        // Each zone after the zones it refers to, depth first with a stack of its own. A zone on a cycle
        // of references stays unevaluated, and so empty.
        let mut zones: Vec<Option<Vec<Vec<usize>>>> = vec![None; count];
        let mut visited = vec![false; count];
        for root in 0..count {
            let mut stack = vec![(root, false)];
            while let Some((zone, referred_evaluated)) = stack.pop() {
                let Some(d) = definition[zone] else { continue };
                if referred_evaluated {
                    zones[zone] = self.zone_cells(&d.children, players, &zones);
                    continue;
                }
                if std::mem::replace(&mut visited[zone], true) {
                    continue;
                }
                stack.push((zone, true));
                let mut referred = Vec::new();
                zone_references(&d.children, &mut referred);
                stack.extend(
                    referred
                        .into_iter()
                        .filter(|&z| !visited[z])
                        .map(|z| (z, false)),
                );
            }
        }
        let mut spans: HashMap<&str, (Span, Span)> = HashMap::new();
        for s in &zone_statements {
            if let Some(name) = s.arguments.first().and_then(Value::as_name) {
                spans
                    .entry(name.text.as_str())
                    .or_insert((name.span, s.span));
            }
        }
        let mut out = Vec::new();
        for (index, name) in self.zones.order.clone().into_iter().enumerate() {
            let Some(cells) = zones[index].take() else {
                self.report_empty_zone(&name, &spans);
                out.push(empty(&name));
                continue;
            };
            if cells.iter().all(Vec::is_empty) {
                self.report_empty_zone(&name, &spans);
            }
            out.push(Zone { name, cells });
        }
        out
    }

    /// Reports an empty zone, unless an error inside its statement explains it.
    fn report_empty_zone(&mut self, name: &str, spans: &HashMap<&str, (Span, Span)>) {
        let (span, zone_span) = spans.get(name).copied().unwrap_or_default();
        let broken = self.problems.iter().any(|p| {
            !p.is_warning() && zone_span.start <= p.span.start && p.span.end <= zone_span.end
        });
        if !broken {
            self.error(
                span,
                ErrorKind::EmptyZone {
                    name: name.to_string(),
                },
            );
        }
    }

    /// Evaluates cell specifications; `None` while a referenced zone is not evaluated yet.
    fn zone_cells(
        &self,
        specs: &[Directive],
        players: usize,
        zones: &[Option<Vec<Vec<usize>>>],
    ) -> Option<Vec<Vec<usize>>> {
        let cells = self.cell_list.len();
        let mut out = vec![Vec::new(); players];
        let mut member = vec![vec![false; cells]; players];
        // Adds a cell once, in the order the specifications give.
        let add = |out: &mut Vec<Vec<usize>>, member: &mut Vec<Vec<bool>>, p: usize, c: usize| {
            if c < cells && !std::mem::replace(&mut member[p][c], true) {
                out[p].push(c);
            }
        };
        for spec in specs {
            match spec.keyword.as_str() {
                "for" => {
                    let Some(Arg::Player(p)) = spec.arguments.first() else {
                        continue;
                    };
                    let inner = self.zone_cells(&spec.children, players, zones)?;
                    for &c in &inner[*p] {
                        add(&mut out, &mut member, *p, c);
                    }
                }
                "except" => {
                    let removed = self.zone_cells(&spec.children, players, zones)?;
                    for p in 0..players {
                        let mut gone = vec![false; cells];
                        for &c in &removed[p] {
                            gone[c] = true;
                        }
                        out[p].retain(|&c| !gone[c]);
                        // A removed cell may be added again by a later specification.
                        for &c in &removed[p] {
                            member[p][c] = false;
                        }
                    }
                }
                _ => {
                    let spec_cells = self.spec_cells(spec, players, zones)?;
                    for (p, cells) in spec_cells.iter().enumerate() {
                        for &c in cells {
                            add(&mut out, &mut member, p, c);
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
                    let Some(board) = self.board_models.get(ca.board) else {
                        return same(Vec::new());
                    };
                    self.board_cells(board)
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
                        let file = board.files[cell.coord[0] as usize].as_str();
                        let rank = board.ranks[cell.coord[1] as usize].as_str();
                        if name.strip_prefix(file) == Some(rank)
                            || name.strip_prefix(rank) == Some(file)
                        {
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
                return Some(self.keep_where(spec, out));
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
                return Some(self.keep_where(spec, out));
            }
            _ => Vec::new(),
        };
        Some(self.keep_where(spec, vec![cells; players]))
    }

    /// Keeps the cells, of every player's part, for which the specification's condition on the
    /// coordinates holds.
    fn keep_where(&self, spec: &Directive, parts: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        let Some(condition) = &spec.coordinates else {
            return parts;
        };
        parts
            .into_iter()
            .map(|cells| {
                cells
                    .into_iter()
                    .filter(|&c| {
                        coordinate_condition(&condition.expr, self.cell_list[c].coord)
                            != condition.negated
                    })
                    .collect()
            })
            .collect()
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

/// Collects the zones that cell specifications refer to (`zone`, `enemies`), inside `for` and `except` too.
fn zone_references(specs: &[Directive], out: &mut Vec<usize>) {
    for spec in specs {
        if matches!(spec.keyword.as_str(), "zone" | "enemies") {
            out.extend(spec.arguments.iter().filter_map(|a| match a {
                Arg::Zone(z) => Some(*z),
                _ => None,
            }));
        }
        zone_references(&spec.children, out);
    }
}
