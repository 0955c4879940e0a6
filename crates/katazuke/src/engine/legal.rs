//! The legal turns of a position, in a canonical order (§15.2):
//! [`Position::every_action`], every distinct legal turn (for exact play on
//! small fields), and [`Position::legal_actions`], the same with dominated
//! turns pruned.

use super::action::{Action, EmptyAt, Kind};
use super::cost::{self, CostModel};
use super::position::Position;

/// The largest number of distinct turns [`Position::every_action`] lists
/// before it gives up (the product of counts grows fast on big fields).
pub const EVERY_ACTION_LIMIT: usize = 20_000;

impl Position {
    /// The cells next to the mover's current territory, if it has one.
    fn around_current(&self) -> Cells {
        match self.current(self.to_move()) {
            Some(current) => Cells::of(self.neighbours(current)),
            None => Cells::default(),
        }
    }

    /// The mover's own cells other than its current one, in index order.
    fn other_own_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let team = self.to_move();
        let current = self.current(team);
        (0..self.size().cells())
            .filter(move |&index| self.owner(index) == Some(team) && Some(index) != current)
    }

    /// Every distinct legal turn of the team to move, each once, in a
    /// canonical order: clears (every split of at most the room over the
    /// neighbours), places (every split of at most the stock), moves,
    /// passes, each with and without an emptying (after the action: before
    /// it only a clear differs, and a clear may not follow one), then the
    /// timeout. None when there would be more than `EVERY_ACTION_LIMIT`.
    pub fn every_action(&self) -> Option<Vec<Action>> {
        if self.is_terminal() {
            return Some(Vec::new());
        }
        let team = self.to_move();
        let around = self.around_current();
        let room = self.capacity() - self.load(team);
        let mut plain = Vec::new();
        let counts: Vec<u32> = around.iter().map(|&index| self.count(index)).collect();
        splits(&around, &counts, room, &mut |items| {
            plain.push(Action::clear(items, EmptyAt::None));
        })?;
        let stock = self.stock(team);
        let unlimited: Vec<u32> = around.iter().map(|_| stock).collect();
        splits(&around, &unlimited, stock, &mut |items| {
            plain.push(Action::with_items(
                Kind::Place,
                items.iter().copied(),
                EmptyAt::None,
            ));
        })?;
        for index in self.other_own_cells() {
            plain.push(Action::move_to(index, EmptyAt::None));
        }
        plain.push(Action::pass(EmptyAt::None));
        if plain.len() * 2 + 1 > EVERY_ACTION_LIMIT {
            return None;
        }
        let mut actions = Vec::with_capacity(plain.len() * 2 + 1);
        for action in plain {
            actions.push(action);
            actions.push(action.with_empty(EmptyAt::After));
        }
        actions.push(Action::TIMEOUT);
        Some(actions)
    }

    /// The legal turns worth searching, in a canonical order, with
    /// dominated ones pruned:
    ///
    /// * clears take whole cells (each claims its cell) and at most one cell
    ///   in part, as much as the room allows short of claiming it (and, on
    ///   the virtual clock, as much as the time left allows when that is
    ///   less); splitting an amount otherwise over cells only costs more
    ///   time;
    /// * places put one object on each cell of a set of neighbours of the
    ///   current territory that are the opponent's (each cancels it) or
    ///   hold no object (which the team may then claim), as many as the
    ///   stock covers: a cancel and a seed, or two seeds, in one turn, then
    ///   two cells claimed in one clear. More objects on a cell are left
    ///   out: each counts for whoever clears it (criterion 3), and they
    ///   make a cancel dearer to undo, but listing the whole stock on one
    ///   cell as well changed 14 results of 82, 7 each way (BENCHMARKS.md);
    /// * moves go to own cells that touch something to clear or cancel;
    /// * an emptying comes only with a load: after a clear, before any
    ///   other action;
    /// * turns that cost more than the time left are one timeout, always
    ///   listed last: letting the clock run out can be worth it, as it
    ///   takes the time from the game clock too.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    /// [`Position::legal_actions`] written into `actions`, which it clears
    /// first: a playout lists the turns of every position it passes, and
    /// one list reused saves an allocation at each.
    pub fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.is_terminal() {
            return;
        }
        let team = self.to_move();
        let load = self.load(team);
        let room = self.capacity() - load;
        let around = self.around_current();
        let with_empty = |actions: &mut Vec<Action>, action: Action, load_after: u32| {
            actions.push(action);
            if load_after > 0 {
                actions.push(action.with_empty(if action.kind == Kind::Clear {
                    EmptyAt::After
                } else {
                    EmptyAt::Before
                }));
            }
        };
        // Clears: every set of whole cells that fits, with at most one
        // cell in part.
        let full = Cells::of(
            around
                .iter()
                .copied()
                .filter(|&index| self.count(index) > 0),
        );
        // The items of one clear, on the stack: this runs at every
        // position the search expands. Four whole cells at most, and one
        // in part.
        let mut buffer = [(0usize, 0u32); 5];
        for mask in 0u32..(1 << full.len()) {
            let mut wholes = 0;
            for (bit, &index) in full.iter().enumerate() {
                if mask & (1 << bit) != 0 {
                    buffer[wholes] = (index, self.count(index));
                    wholes += 1;
                }
            }
            let whole = &buffer[..wholes];
            let taken: u32 = whole.iter().map(|&(_, n)| n).sum();
            if taken > room {
                continue;
            }
            if !whole.is_empty() {
                let action = Action::clear(whole, EmptyAt::None);
                with_empty(actions, action, load + taken);
            }
            for (bit, &index) in full.iter().enumerate() {
                let part = (room - taken).min(self.count(index) - 1);
                if mask & (1 << bit) != 0 || part == 0 {
                    continue;
                }
                let mut with_part = buffer;
                with_part[wholes] = (index, part);
                let items = &mut with_part[..=wholes];
                items.sort_unstable();
                let action = Action::clear(items, EmptyAt::None);
                with_empty(actions, action, load + taken + part);
                // And as much as the time left allows, when that is less.
                let over = self.cost(&action).saturating_sub(self.time_left());
                let fits = u64::from(part).saturating_sub(over.div_ceil(cost::OBJECT_MS));
                if over > 0 && fits > 0 && self.costs() == CostModel::Virtual {
                    let fits = fits as u32;
                    for item in items.iter_mut().filter(|item| item.0 == index) {
                        item.1 = fits;
                    }
                    let action = Action::clear(items, EmptyAt::None);
                    with_empty(actions, action, load + taken + fits);
                }
            }
        }
        // Places: cancels, and objects to claim, one on each cell of any
        // set the stock covers.
        let stock = self.stock(team);
        let opponent = team.other();
        let targets = Cells::of(around.iter().copied().filter(|&index| {
            self.owner(index) == Some(opponent)
                || (self.owner(index).is_none() && self.count(index) == 0)
        }));
        for mask in 1u32..(1 << targets.len()) {
            if mask.count_ones() > stock {
                continue;
            }
            // Built straight from the set: no allocation on this hot path.
            let items = targets
                .iter()
                .enumerate()
                .filter(|(bit, _)| mask & (1 << bit) != 0)
                .map(|(_, &index)| (index, 1));
            let action = Action::with_items(Kind::Place, items, EmptyAt::None);
            with_empty(actions, action, load);
        }
        // Moves to own cells with something to do around them.
        for index in self.other_own_cells() {
            let useful = self.neighbours(index).any(|next| {
                self.count(next) > 0 || (stock > 0 && self.owner(next) == Some(team.other()))
            });
            if useful {
                with_empty(actions, Action::move_to(index, EmptyAt::None), load);
            }
        }
        with_empty(actions, Action::pass(EmptyAt::None), load);
        let left = self.time_left();
        // Pricing every turn is a tenth of a playout's time, and until a
        // clock's last seconds (13 to 15 at the practice capacities of 4
        // to 8) every turn fits.
        if left < self.dearest_listed_turn() {
            actions.retain(|action| self.cost(action) <= left);
        }
        actions.push(Action::TIMEOUT);
    }

    /// The most a turn [`Position::legal_actions_into`] lists can cost: a
    /// clear of every cell around the current one that fills the
    /// container, then an emptying (a clear's own cost, 2 s and more, is
    /// above a place on every neighbour, a move's or a pass's).
    fn dearest_listed_turn(&self) -> u64 {
        match self.costs() {
            CostModel::Flat(ms) => ms.max(1),
            CostModel::Virtual => {
                cost::clear_ms(MOST_NEIGHBOURS, u64::from(self.capacity())) + cost::EMPTY_MS
            }
        }
    }
}

/// A cell's neighbours at most (up, down, left and right): the most cells
/// a listed clear or place can have.
const MOST_NEIGHBOURS: usize = 4;

/// At most [`MOST_NEIGHBOURS`] cells, on the stack: the turns are listed at
/// every position a search or playout passes.
#[derive(Clone, Copy, Debug, Default)]
struct Cells {
    indices: [usize; MOST_NEIGHBOURS],
    len: usize,
}

impl Cells {
    /// The first [`MOST_NEIGHBOURS`] of `indices`.
    fn of(indices: impl Iterator<Item = usize>) -> Cells {
        let mut cells = Cells::default();
        for index in indices.take(MOST_NEIGHBOURS) {
            cells.indices[cells.len] = index;
            cells.len += 1;
        }
        cells
    }
}

impl std::ops::Deref for Cells {
    type Target = [usize];

    fn deref(&self) -> &[usize] {
        &self.indices[..self.len]
    }
}

/// Calls `each` with every split `(cell, n ≥ 1)` over a non-empty subset of
/// `cells`, `n ≤ most[i]` for each and at most `total` in all, in a
/// canonical order (cells in the given order). None when there are more
/// than [`EVERY_ACTION_LIMIT`].
fn splits(
    cells: &[usize],
    most: &[u32],
    total: u32,
    each: &mut impl FnMut(&[(usize, u32)]),
) -> Option<()> {
    fn walk(
        cells: &[usize],
        most: &[u32],
        total: u32,
        items: &mut Vec<(usize, u32)>,
        found: &mut usize,
        each: &mut impl FnMut(&[(usize, u32)]),
    ) -> Option<()> {
        let Some((&cell, rest)) = cells.split_first() else {
            if !items.is_empty() {
                *found += 1;
                if *found > EVERY_ACTION_LIMIT {
                    return None;
                }
                each(items);
            }
            return Some(());
        };
        walk(rest, &most[1..], total, items, found, each)?;
        for n in 1..=most[0].min(total) {
            items.push((cell, n));
            walk(rest, &most[1..], total - n, items, found, each)?;
            items.pop();
        }
        Some(())
    }
    let mut found = 0;
    walk(cells, most, total, &mut Vec::new(), &mut found, each)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::random_game_positions;

    /// Where the filter is skipped, every turn is listed: none may cost
    /// more than the bound, and the bound must be a cost some turn has,
    /// or a bound too small would drop turns unseen.
    #[test]
    fn the_dearest_listed_turn_costs_the_bound_and_no_turn_costs_more() {
        for costs in [CostModel::Virtual, CostModel::Flat(700)] {
            let mut reached = 0;
            for position in random_game_positions(1..=40, costs) {
                let dearest = position.dearest_listed_turn();
                for action in position.legal_actions() {
                    if action == Action::TIMEOUT {
                        continue;
                    }
                    let cost = position.cost(&action);
                    assert!(cost <= dearest, "{costs:?}: {action:?} costs {cost}");
                    reached += usize::from(cost == dearest);
                }
            }
            assert!(reached > 0, "{costs:?}: no turn costs the bound");
        }
    }
}
