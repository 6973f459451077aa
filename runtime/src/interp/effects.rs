//! Triggered rules: one engine runs every `rule` of the game, for the events of a move and for
//! checkmates at a turn's start.
//!
//! After a move, events fire in this order: a capture for each captured piece (by replacement, en
//! passant or custodian capture), entering and leaving zones, promotion, drop, transfer (a move or a
//! rule took a piece to another board), transformation (a promotion or a rule changed a piece's type),
//! the move itself, check. For each event the rules listening to it run in file order: when their bare
//! conditions hold, their effects in order, each under its own condition. A captured piece is in
//! transit while its capture rules run: they may transform it, send it somewhere or remove it; after
//! them it goes into the captor's hand (`captured_go_here`) or leaves the game.
//!
//! A piece a rule sends to a board is *waiting* until its owner has completed a move after the one
//! that sent it (`mover.waited` is 0 while it waits, 1 afterwards). Effects go through `make`'s change
//! log, so unmake restores them.

use crate::model::{
    CellId, Destination, Effect, Event, Game, Into, Overflow, PieceRef, PlayerId, Rule, Target, Who,
};

use super::conditions::Scope;
use super::position::{Occupant, Position, Undo};
use super::tables::Interpreter;

/// The rules of a game, prepared once.
#[derive(Clone, Debug, Default)]
pub(super) struct Effects {
    /// Every rule, in file order.
    rules: Vec<Rule>,
    /// Whether some rule listens to each kind of move event.
    listens: Listens,
    /// Whether some rule sends pieces (so the waiting status is kept).
    pub sends: bool,
    /// Whether a capture may remove more than the captured piece (an explosion): then whether a
    /// royal piece is in check is found by playing the captures out.
    removes_more: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct Listens {
    capture: bool,
    zones: bool,
    promotion: bool,
    drop: bool,
    transfer: bool,
    transform: bool,
    moves: bool,
    check: bool,
}

/// What a single move did, for the rules that react to it.
pub(super) struct MoveEvents<'a> {
    /// The player who moved.
    pub player: PlayerId,
    /// The start cell (none for a drop).
    pub from: Option<CellId>,
    /// The arrival cell.
    pub to: CellId,
    /// The captured pieces with their cells, already off the board.
    pub victims: &'a [(CellId, Occupant)],
    /// Whether the move promoted a piece.
    pub promoted: bool,
    /// Whether it was a drop.
    pub dropped: bool,
    /// Whether it took a piece to another board.
    pub transferred: bool,
    /// Whether it changed a piece's type (a promotion, a transfer's `become`).
    pub transformed: bool,
}

/// What the rules of a move did that the move rule needs to know.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fired {
    /// A `reset move_rule` ran.
    pub reset: bool,
}

/// The pieces and players an effect can name, while a rule runs.
struct Run<'a> {
    scope: Scope,
    /// The captured piece while it is in transit (`None` once it is gone or placed).
    transit: Option<Occupant>,
    /// The mater's pieces that attacked the checkmated royal piece.
    delivering: &'a [CellId],
    /// In a checkmate rule: transformations mark pieces promoted.
    checkmate: bool,
    changed_type: bool,
    changed_board: bool,
    reset: bool,
    /// An `eliminate` effect ran (its rule's and its own conditions held).
    eliminate: bool,
}

impl Effects {
    /// Reads the rules of a game.
    pub(super) fn new(game: &Game) -> Effects {
        let mut effects = Effects {
            rules: game.rules.clone(),
            ..Effects::default()
        };
        for rule in &game.rules {
            for event in &rule.events {
                let l = &mut effects.listens;
                match event {
                    Event::Capture => l.capture = true,
                    Event::Enter(_) | Event::Leave(_) => l.zones = true,
                    Event::Promotion => l.promotion = true,
                    Event::Drop => l.drop = true,
                    Event::Transfer => l.transfer = true,
                    Event::Transform => l.transform = true,
                    Event::Move => l.moves = true,
                    Event::Check => l.check = true,
                    Event::Checkmate => {}
                }
            }
            for effect in &rule.effects {
                match &effect.item {
                    Effect::Send(..) => effects.sends = true,
                    Effect::Remove(target)
                        if rule.events.contains(&Event::Capture)
                            && target.who != Who::Piece(PieceRef::Captured) =>
                    {
                        effects.removes_more = true
                    }
                    _ => {}
                }
            }
        }
        effects
    }

    /// Whether some rule reacts to moves (so that a move may change more than its own cells).
    pub(super) fn is_active(&self) -> bool {
        let l = self.listens;
        l.capture
            || l.zones
            || l.promotion
            || l.drop
            || l.transfer
            || l.transform
            || l.moves
            || l.check
    }

    /// Whether a capture may remove more than the captured piece.
    pub(super) fn captures_remove_more(&self) -> bool {
        self.removes_more
    }
}

impl Interpreter {
    /// The waiting pieces of `player`, before a move, for [`Interpreter::end_waiting`].
    pub(super) fn waiting_pieces(&self, pos: &Position, player: usize) -> Vec<(CellId, Occupant)> {
        if !self.effects.sends {
            return Vec::new();
        }
        pos.cells
            .iter()
            .enumerate()
            .filter(|(_, o)| !o.is_empty() && o.is_waiting() && o.owner() == player)
            .map(|(c, o)| (c, *o))
            .collect()
    }

    /// After a move: pieces of the mover that were already waiting before it and are still there have
    /// now waited.
    pub(super) fn end_waiting(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        before: &[(CellId, Occupant)],
    ) {
        for &(cell, occ) in before {
            if pos.cells[cell] == occ {
                self.put(pos, undo, cell, occ.with_waiting(false));
            }
        }
    }

    /// Runs the rules for the events of a move, and sends each captured piece where it goes.
    pub(super) fn run_move_rules(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        ev: &MoveEvents,
    ) -> Fired {
        let base = Scope {
            own: ev.player,
            mover: Some(ev.to),
            from: ev.from,
            to: Some(ev.to),
            ..Scope::default()
        };
        let mut fired = Fired::default();
        let mut transformed = ev.transformed;
        let mut transferred = ev.transferred;
        for &(cell, victim) in ev.victims {
            let mut run = Run {
                scope: Scope {
                    captured: Some((cell, victim)),
                    ..base
                },
                transit: Some(victim),
                delivering: &[],
                checkmate: false,
                changed_type: false,
                changed_board: false,
                reset: false,
                eliminate: false,
            };
            if self.effects.listens.capture {
                self.fire(pos, undo, Event::Capture, &mut run);
            }
            if let Some(piece) = run.transit {
                if self.captures_to_hand {
                    let kind = self.hand_type(piece);
                    let receiver = match self.partner(ev.player) {
                        Some(partner) if self.captures_to_partner => partner,
                        _ => ev.player,
                    };
                    Self::change_hand(pos, undo, receiver, kind, 1);
                }
            }
            transformed |= run.changed_type;
            transferred |= run.changed_board;
            fired.reset |= run.reset;
        }
        let mut events = Vec::new();
        if self.effects.listens.zones && !pos.cells[ev.to].is_empty() {
            for rule in &self.effects.rules {
                for &event in &rule.events {
                    let happened = match event {
                        Event::Enter(z) => self.in_zone(z, ev.player, ev.to),
                        Event::Leave(z) => ev.from.is_some_and(|f| {
                            self.in_zone(z, ev.player, f) && !self.in_zone(z, ev.player, ev.to)
                        }),
                        _ => false,
                    };
                    if happened && !events.contains(&event) {
                        events.push(event);
                    }
                }
            }
        }
        if ev.promoted {
            events.push(Event::Promotion);
        }
        if ev.dropped {
            events.push(Event::Drop);
        }
        let mut run = Run {
            scope: base,
            transit: None,
            delivering: &[],
            checkmate: false,
            changed_type: false,
            changed_board: false,
            reset: false,
            eliminate: false,
        };
        for event in events {
            self.fire(pos, undo, event, &mut run);
        }
        transformed |= run.changed_type;
        transferred |= run.changed_board;
        if transferred && self.effects.listens.transfer {
            self.fire(pos, undo, Event::Transfer, &mut run);
        }
        if (transformed || run.changed_type) && self.effects.listens.transform {
            self.fire(pos, undo, Event::Transform, &mut run);
        }
        if self.effects.listens.moves {
            self.fire(pos, undo, Event::Move, &mut run);
        }
        if self.effects.listens.check
            && self
                .opponents(ev.player)
                .any(|o| self.royal_attacked(pos, o))
        {
            self.fire(pos, undo, Event::Check, &mut run);
        }
        fired.reset |= run.reset;
        fired
    }

    /// Runs the checkmate rules for a checkmate of `victim` by `mater`; returns whether an
    /// `eliminate` effect ran (the rule's bare conditions and the effect's own held).
    pub(super) fn run_checkmate_rules(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        mater: Option<PlayerId>,
        victim: PlayerId,
        delivering: &[CellId],
    ) -> bool {
        let mut run = Run {
            scope: Scope {
                own: mater.unwrap_or(victim),
                mater,
                checkmated: Some(victim),
                ..Scope::default()
            },
            transit: None,
            delivering,
            checkmate: true,
            changed_type: false,
            changed_board: false,
            reset: false,
            eliminate: false,
        };
        self.fire(pos, undo, Event::Checkmate, &mut run);
        run.eliminate
    }

    /// Runs the rules listening to an event.
    fn fire(&self, pos: &mut Position, undo: &mut Undo, event: Event, run: &mut Run) {
        for rule in self
            .effects
            .rules
            .iter()
            .filter(|r| r.events.contains(&event))
        {
            if !rule
                .conditions
                .iter()
                .all(|c| self.condition_holds(pos, &run.scope, c))
            {
                continue;
            }
            for effect in &rule.effects {
                if effect
                    .condition
                    .as_ref()
                    .is_some_and(|c| !self.condition_holds(pos, &run.scope, c))
                {
                    continue;
                }
                self.apply(pos, undo, &effect.item, run);
            }
        }
    }

    fn apply(&self, pos: &mut Position, undo: &mut Undo, effect: &Effect, run: &mut Run) {
        match effect {
            Effect::Remove(target) => {
                if self.targets_transit(target, run) {
                    run.transit = None;
                }
                for cell in self.target_cells(pos, target, run) {
                    self.put(pos, undo, cell, Occupant::EMPTY);
                }
            }
            Effect::Send(target, destination) => {
                if self.targets_transit(target, run) {
                    if let (Some(piece), Some((from, _))) = (run.transit.take(), run.scope.captured)
                    {
                        self.send(pos, undo, from, piece, *destination, run);
                    }
                }
                for cell in self.target_cells(pos, target, run) {
                    let piece = pos.cells[cell];
                    self.put(pos, undo, cell, Occupant::EMPTY);
                    self.send(pos, undo, cell, piece, *destination, run);
                }
            }
            Effect::Transform {
                target,
                into,
                owner,
                from,
            } => {
                let new_owner = owner.as_ref().and_then(|o| self.player(pos, &run.scope, o));
                if self.targets_transit(target, run) {
                    if let Some(piece) = run.transit {
                        if let Some(kind) = self.transformed_type(piece.piece(), *into) {
                            let owner = new_owner.unwrap_or(piece.owner());
                            run.transit = Some(
                                Occupant::new(kind, owner, false, false)
                                    .with_waiting(piece.is_waiting()),
                            );
                            run.changed_type = true;
                        }
                    }
                }
                for cell in self.target_cells(pos, target, run) {
                    let occ = pos.cells[cell];
                    let Some(kind) = self.transformed_type(occ.piece(), *into) else {
                        continue;
                    };
                    let owner = new_owner.unwrap_or(occ.owner());
                    if let Some(reserve) = from {
                        let row = self.reserve_row(pos, *reserve, owner);
                        if pos.hands[row][kind] == 0 {
                            continue;
                        }
                        Self::change_hand(pos, undo, row, kind, -1);
                    }
                    // A piece taken from a reserve is new and unmoved; types changed by a checkmate
                    // count as promoted.
                    let new =
                        Occupant::new(kind, owner, from.is_some(), from.is_some() || run.checkmate)
                            .with_waiting(occ.is_waiting());
                    self.put(pos, undo, cell, new);
                    run.changed_type = true;
                }
            }
            Effect::Convert { target, to } => {
                let Some(to) = self.player(pos, &run.scope, to) else {
                    return;
                };
                for cell in self.target_cells(pos, target, run) {
                    let occ = pos.cells[cell];
                    if occ.owner() != to {
                        let new = Occupant::new(occ.piece(), to, false, occ.is_promoted());
                        self.put(pos, undo, cell, new);
                    }
                }
            }
            // Played by the turn's start, which marks the player out (see `elimination`).
            Effect::Eliminate(_) => run.eliminate = true,
            Effect::Add(reserve, piece) => {
                let row = self.reserve_row(pos, *reserve, run.scope.own);
                Self::change_hand(pos, undo, row, *piece, 1);
            }
            Effect::ResetMoveRule => {
                run.reset = true;
                if run.checkmate {
                    pos.halfmove = 0;
                }
            }
        }
    }

    /// Whether an effect's target is the captured piece in transit.
    fn targets_transit(&self, target: &Target, run: &Run) -> bool {
        target.who == Who::Piece(PieceRef::Captured)
            && run
                .transit
                .is_some_and(|p| !target.except.contains(&p.piece()))
    }

    /// The cells of the pieces on the board an effect's target names.
    fn target_cells(&self, pos: &Position, target: &Target, run: &Run) -> Vec<CellId> {
        let keep = |cell: &CellId| {
            let occ = pos.cells[*cell];
            !occ.is_empty() && !target.except.contains(&occ.piece())
        };
        let cells: Vec<CellId> = match &target.who {
            Who::Piece(PieceRef::Mover) => run.scope.mover.into_iter().collect(),
            Who::Piece(PieceRef::Captured | PieceRef::Hurdle) => Vec::new(),
            Who::Adjacent(piece) => {
                let center = match piece {
                    PieceRef::Mover => run.scope.mover,
                    PieceRef::Captured => run.scope.captured.map(|(c, _)| c),
                    PieceRef::Hurdle => None,
                };
                match center {
                    Some(center) => self.neighbours(center),
                    None => Vec::new(),
                }
            }
            Who::Enclosed(piece) => match piece {
                PieceRef::Mover => run
                    .scope
                    .mover
                    .filter(|&c| !pos.cells[c].is_empty())
                    .map(|c| self.enclosed_by(pos, c, pos.cells[c].owner()))
                    .unwrap_or_default(),
                PieceRef::Captured | PieceRef::Hurdle => Vec::new(),
            },
            Who::All(types, player) => match self.player(pos, &run.scope, player) {
                Some(player) => (0..pos.cells.len())
                    .filter(|&c| {
                        let occ = pos.cells[c];
                        !occ.is_empty() && occ.owner() == player && self.in_set(types, occ.piece())
                    })
                    .collect(),
                None => Vec::new(),
            },
            Who::Delivering => run
                .delivering
                .iter()
                .copied()
                .filter(|&c| {
                    let occ = pos.cells[c];
                    !occ.is_empty() && Some(occ.owner()) == run.scope.mater
                })
                .collect(),
        };
        cells.into_iter().filter(keep).collect()
    }

    /// The pieces of other players that a piece of `owner` on `cell` encloses: from the cell along
    /// every king direction, a run of one or more of them closed by a piece of `owner`.
    pub(super) fn enclosed_by(&self, pos: &Position, cell: CellId, owner: PlayerId) -> Vec<CellId> {
        let mut out = Vec::new();
        for dir in self.king_directions() {
            let mut run = Vec::new();
            let mut at = cell;
            let closed = loop {
                let Some(next) = self.step(at, dir) else {
                    break false;
                };
                let occ = pos.cells[next];
                if occ.is_empty() || occ.owner() >= self.players {
                    break false;
                }
                if occ.owner() == owner {
                    break true;
                }
                run.push(next);
                at = next;
            };
            if closed {
                out.extend(run);
            }
        }
        out
    }

    fn king_directions(&self) -> Vec<crate::model::Vec3> {
        let three_d = self.game.dimensions == 3;
        let mut out = Vec::new();
        for dz in if three_d { -1..=1 } else { 0..=0 } {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy, dz) != (0, 0, 0) {
                        out.push([dx, dy, dz]);
                    }
                }
            }
        }
        out
    }

    /// The cells one king step around a cell, on its board.
    fn neighbours(&self, cell: CellId) -> Vec<CellId> {
        let three_d = self.game.dimensions == 3;
        let mut out = Vec::new();
        for dz in if three_d { -1..=1 } else { 0..=0 } {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy, dz) != (0, 0, 0) {
                        out.extend(self.step(cell, [dx, dy, dz]));
                    }
                }
            }
        }
        out
    }

    fn transformed_type(&self, piece: usize, into: Into) -> Option<usize> {
        let kind = match into {
            Into::Piece(p) => p,
            Into::Map(m) => self.game.typemaps.get(m)?.get(piece)?,
        };
        (kind != piece).then_some(kind)
    }

    /// Puts a piece taken from `from` where `send` says: a board's, zone's or cell's first empty cell
    /// (on a full board with `overflow capture`, the newcomer captures the occupant of its first cell;
    /// otherwise the piece leaves the game), or into a reserve.
    fn send(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        from: CellId,
        piece: Occupant,
        destination: Destination,
        run: &mut Run,
    ) {
        let cells: Vec<CellId> = match destination {
            Destination::Reserve(reserve) => {
                let row = self.reserve_row(pos, reserve, piece.owner());
                Self::change_hand(pos, undo, row, piece.piece(), 1);
                return;
            }
            Destination::Board(board) => {
                let b = &self.game.boards[board];
                let cells: Vec<CellId> = (b.first_cell..b.first_cell + b.cell_count).collect();
                let held = cells.iter().filter(|&&c| !pos.cells[c].is_empty()).count();
                if b.capacity.is_some_and(|cap| held >= cap as usize) {
                    if b.overflow == Overflow::Capture {
                        if let Some(&first) = cells.iter().find(|&&c| !pos.cells[c].is_empty()) {
                            self.arrive(pos, undo, from, first, piece, run);
                        }
                    }
                    return;
                }
                cells
            }
            Destination::Zone(zone) => (0..self.game.cells.len())
                .filter(|&c| self.in_zone(zone, piece.owner(), c))
                .collect(),
            Destination::Cell(cell) => vec![cell],
        };
        if let Some(&cell) = cells.iter().find(|&&c| pos.cells[c].is_empty()) {
            self.arrive(pos, undo, from, cell, piece, run);
        } else if let Some(&cell) = cells.first() {
            let board = self.game.cells[cell].board;
            if self.game.boards[board].overflow == Overflow::Capture {
                self.arrive(pos, undo, from, cell, piece, run);
            }
        }
    }

    fn arrive(
        &self,
        pos: &mut Position,
        undo: &mut Undo,
        from: CellId,
        cell: CellId,
        piece: Occupant,
        run: &mut Run,
    ) {
        self.put(pos, undo, cell, piece.with_waiting(true));
        if self.game.cells[cell].board != self.game.cells[from].board {
            run.changed_board = true;
        }
    }
}
