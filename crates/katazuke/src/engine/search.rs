//! The search of §15.2: alpha–beta over turns with iterative deepening and
//! a transposition table keyed by [`Position::key`]. Values are kept from
//! A's side ([`Position::value`]): A maximises, B minimises, and a team
//! whose opponent is out simply moves twice. A subtree that reached the
//! end of the game on every line is *solved*; when the root is, the search
//! stops. A solved root is the game's *exact* value only when every
//! distinct turn was searched, not the pruned ones.

use std::time::Instant;

use super::action::{sign, Action, Kind};
use super::objective::{in_cells, OBJECT, TERRITORY};
use super::position::Position;
use crate::model::team::Team;

/// How far one search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions to visit at most (deterministic: the same answer on every
    /// machine).
    pub nodes: u64,
    /// A wall-clock instant to stop at, if any (not deterministic).
    pub deadline: Option<Instant>,
    /// Search every distinct turn ([`Position::every_action`]) instead of
    /// the pruned ones, when there are few enough.
    pub every_action: bool,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The best turn for the team to move.
    pub action: Action,
    /// Its value from A's side.
    pub value: i64,
    /// The depth of the last search completed (turns).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// True when every line searched reached the end of the game.
    pub solved: bool,
    /// True when, moreover, every distinct turn was searched
    /// ([`Position::every_action`]): the value is then the game's exact
    /// result under best play.
    pub exact: bool,
    /// A's chance of winning the match, as the tree search estimates it
    /// (none from the alpha–beta search, whose value is a margin).
    pub chance: Option<f64>,
}

impl Found {
    /// The value as `team`'s score, in cells of territory (objects and time
    /// as fractions of a cell), as `katazuke suggest` tells it.
    pub fn score_in_cells(&self, team: Team) -> f64 {
        sign(team) as f64 * in_cells(self.value)
    }

    /// `team`'s chance of winning the match, when the search estimates one.
    pub fn chance_for(&self, team: Team) -> Option<f64> {
        self.chance.map(|chance| {
            if team == Team::A {
                chance
            } else {
                1.0 - chance
            }
        })
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    /// The value less the position's [`Position::accumulated`] part.
    value: i64,
    depth: u32,
    bound: Bound,
    best: Option<Action>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// The depth of an entry whose subtree reached the end everywhere: good
/// for any depth.
const SOLVED: u32 = u32::MAX;

/// Entries of the transposition table (a power of two).
const TABLE_SIZE: usize = 1 << 18;

/// A searcher and its transposition table, kept from one search to the
/// next of the same game.
pub struct Searcher {
    table: Vec<Entry>,
    nodes: u64,
    limits: Limits,
    stopped: bool,
    /// Some position of this game was searched over the pruned turns only
    /// (its table's solved entries are then solved over those).
    pruned: bool,
    /// Lists of turns to reuse, one taken by each node on the path being
    /// searched and given back when it is done: after the first few
    /// positions, listing a position's turns allocates nothing.
    spare_lists: Vec<Vec<Action>>,
    /// The scores [`order_with`] sorts by, reused likewise.
    scores: Vec<Scored>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with an empty table.
    pub fn new() -> Searcher {
        Searcher {
            table: vec![Entry::default(); TABLE_SIZE],
            nodes: 0,
            limits: Limits {
                nodes: 0,
                deadline: None,
                every_action: false,
            },
            stopped: false,
            pruned: false,
            spare_lists: Vec::new(),
            scores: Vec::new(),
        }
    }

    /// Forgets every position (between games, whose keys do not mix).
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.pruned = false;
    }

    /// The best turn for the team to move in `position` within `limits`
    /// (none when the game has ended).
    pub fn best(&mut self, position: &Position, limits: Limits) -> Option<Found> {
        if position.is_terminal() {
            return None;
        }
        self.limits = limits;
        self.nodes = 0;
        self.stopped = false;
        let mut actions = Vec::new();
        self.actions_into(position, &mut actions);
        let mut found = Found {
            action: *actions.first()?,
            value: evaluate(position),
            depth: 0,
            nodes: 0,
            solved: false,
            exact: false,
            chance: None,
        };
        for depth in 1.. {
            let Some((action, value, solved)) = self.root(position, &actions, depth) else {
                break;
            };
            found = Found {
                action,
                value,
                depth,
                nodes: self.nodes,
                solved,
                exact: solved && !self.pruned,
                chance: None,
            };
            if solved || self.nodes >= self.limits.nodes {
                break;
            }
        }
        found.nodes = self.nodes;
        Some(found)
    }

    /// The value of `position` searched `depth` turns deep (a position
    /// after a turn, judged as the root's own turns were), within the
    /// node budget of `limits`.
    pub fn value_at(&mut self, position: &Position, depth: u32, limits: Limits) -> i64 {
        self.limits = limits;
        self.nodes = 0;
        self.stopped = false;
        self.search(position, depth, i64::MIN + 1, i64::MAX - 1).0
    }

    /// The turns of `position` to search, best first, written into
    /// `actions`.
    fn actions_into(&mut self, position: &Position, actions: &mut Vec<Action>) {
        let every = if self.limits.every_action {
            position.every_action()
        } else {
            None
        };
        match every {
            Some(every) => *actions = every,
            None => {
                self.pruned = true;
                position.legal_actions_into(actions);
            }
        }
        order_with(position, actions, &mut self.scores);
    }

    /// One iteration at the root; none when stopped before the first turn
    /// was searched to the end.
    fn root(
        &mut self,
        position: &Position,
        actions: &[Action],
        depth: u32,
    ) -> Option<(Action, i64, bool)> {
        let maximise = position.to_move() == Team::A;
        let mut ordered = actions.to_vec();
        if let Some(best) = self.probe(position).and_then(|entry| entry.best) {
            if let Some(at) = ordered.iter().position(|&action| action == best) {
                ordered[..=at].rotate_right(1);
            }
        }
        let (mut alpha, mut beta) = (i64::MIN + 1, i64::MAX - 1);
        let mut best: Option<(Action, i64)> = None;
        let mut exact = true;
        for action in ordered {
            let mut child = position.clone();
            child.apply(&action);
            let (value, child_exact) = self.search(&child, depth - 1, alpha, beta);
            if self.stopped {
                break;
            }
            exact &= child_exact;
            let better = match best {
                None => true,
                Some((_, so_far)) => {
                    if maximise {
                        value > so_far
                    } else {
                        value < so_far
                    }
                }
            };
            if better {
                best = Some((action, value));
                if maximise {
                    alpha = alpha.max(value);
                } else {
                    beta = beta.min(value);
                }
            }
        }
        if self.stopped {
            return None;
        }
        let (action, value) = best?;
        self.store(position, value, depth, Bound::Exact, Some(action), exact);
        Some((action, value, exact))
    }

    /// The value of `position` searched `depth` turns deep within
    /// `alpha..beta`, and whether it is exact.
    fn search(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> (i64, bool) {
        self.nodes += 1;
        if position.is_terminal() {
            return (position.final_value(), true);
        }
        if self.nodes >= self.limits.nodes
            || (self.nodes.is_multiple_of(1024)
                && self
                    .limits
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.stopped = true;
        }
        if self.stopped || depth == 0 {
            return (evaluate(position), false);
        }
        let mut hint = None;
        if let Some(entry) = self.probe(position) {
            if entry.depth >= depth {
                let value = entry.value + position.accumulated();
                let solved = entry.depth == SOLVED;
                match entry.bound {
                    Bound::Exact => return (value, solved),
                    Bound::Lower if value >= beta => return (value, solved),
                    Bound::Upper if value <= alpha => return (value, solved),
                    _ => {}
                }
            }
            hint = entry.best;
        }
        let maximise = position.to_move() == Team::A;
        let (alpha0, beta0) = (alpha, beta);
        let mut best_value = if maximise { i64::MIN } else { i64::MAX };
        let mut best_action = None;
        let mut exact = true;
        // The table's turn first, and the others generated only when it
        // did not cut the search off: most positions of an alpha-beta
        // search end at their first turn.
        let mut first = hint;
        let mut others: Option<Vec<Action>> = None;
        let mut next = 0;
        for tried in 0.. {
            let action = match first.take() {
                Some(action) => action,
                None => {
                    let others = match &mut others {
                        Some(others) => others,
                        None => {
                            let mut list = self.spare_lists.pop().unwrap_or_default();
                            self.actions_into(position, &mut list);
                            others.insert(list)
                        }
                    };
                    let Some(at) = others[next..]
                        .iter()
                        .position(|&action| Some(action) != hint)
                    else {
                        break;
                    };
                    next += at + 1;
                    others[next - 1]
                }
            };
            let mut child = position.clone();
            child.apply(&action);
            let (value, child_exact) =
                self.principal(&child, depth - 1, alpha, beta, tried == 0, maximise);
            exact &= child_exact;
            if (maximise && value > best_value) || (!maximise && value < best_value) {
                best_value = value;
                best_action = Some(action);
            }
            if maximise {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta || self.stopped {
                break;
            }
        }
        if let Some(list) = others {
            self.spare_lists.push(list);
        }
        if self.stopped {
            return (best_value, false);
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(position, best_value, depth, bound, best_action, exact);
        (best_value, exact)
    }

    /// A child's value within `alpha..beta`: the first child with the
    /// whole window, the others first with a null window that only asks
    /// whether they beat the best so far (principal variation search), and
    /// again with the whole window when they do.
    fn principal(
        &mut self,
        child: &Position,
        depth: u32,
        alpha: i64,
        beta: i64,
        first: bool,
        maximise: bool,
    ) -> (i64, bool) {
        if first || beta.saturating_sub(alpha) <= 1 {
            return self.search(child, depth, alpha, beta);
        }
        let (low, high) = if maximise {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let (value, exact) = self.search(child, depth, low, high);
        if !self.stopped && value > alpha && value < beta {
            self.search(child, depth, alpha, beta)
        } else {
            (value, exact)
        }
    }

    fn probe(&self, position: &Position) -> Option<Entry> {
        let entry = self.table[slot(position.key())];
        (entry.key == position.key() && entry.best.is_some()).then_some(entry)
    }

    fn store(
        &mut self,
        position: &Position,
        value: i64,
        depth: u32,
        bound: Bound,
        best: Option<Action>,
        exact: bool,
    ) {
        let entry = &mut self.table[slot(position.key())];
        let depth = if exact { SOLVED } else { depth };
        if entry.key == position.key() && entry.depth > depth {
            return;
        }
        *entry = Entry {
            key: position.key(),
            value: value - position.accumulated(),
            depth,
            bound,
            best,
        };
    }
}

fn slot(key: u64) -> usize {
    (key as usize) & (TABLE_SIZE - 1)
}

/// What an object of stock is worth while the opponent has a cell to
/// cancel: a third of a cell.
const STOCK_WORTH: i64 = TERRITORY / 3;

/// A turn with its place in the list and its score, negated so that the
/// best sorts first.
type Scored = (i64, usize, Action);

/// Puts the likeliest good turns first: claims, then cancels, then the
/// objects they take; moves, then passes; the timeout last. Turns that
/// score the same keep their order.
pub fn order(position: &Position, actions: &mut [Action]) {
    order_with(position, actions, &mut Vec::new());
}

/// [`order`] with the scores kept in `scores`, which alpha–beta reuses at
/// every position it expands.
fn order_with(position: &Position, actions: &mut [Action], scores: &mut Vec<Scored>) {
    // Each score once (counting a turn's claims is not free), and the
    // place breaks ties, so an unstable sort keeps equal turns in order.
    scores.clear();
    scores.extend(
        actions
            .iter()
            .enumerate()
            .map(|(at, action)| (-promise(position, action), at, *action)),
    );
    scores.sort_unstable_by_key(|&(score, at, _)| (score, at));
    for (slot, &(_, _, action)) in actions.iter_mut().zip(scores.iter()) {
        *slot = action;
    }
}

/// How likely `action` is to be good, as [`order`] ranks turns.
fn promise(position: &Position, action: &Action) -> i64 {
    match action.kind {
        Kind::Clear => claims(position, action) * 1_000 + i64::from(action.objects()),
        Kind::Place => cancels(position, action) * 900 + 50,
        Kind::Move => 20,
        Kind::Pass => 0,
        Kind::Timeout => -1,
    }
}

/// How many cells `action`, a clear, claims: those it takes the last
/// objects of.
pub fn claims(position: &Position, action: &Action) -> i64 {
    action
        .cells()
        .iter()
        .zip(action.counts())
        .filter(|(&cell, &n)| position.count(usize::from(cell)) == n)
        .count() as i64
}

/// How many owned cells `action`, a place, cancels.
pub fn cancels(position: &Position, action: &Action) -> i64 {
    action
        .cells()
        .iter()
        .filter(|&&cell| position.owner(usize::from(cell)).is_some())
        .count() as i64
}

/// A position's worth from A's side before its end: the standing
/// ([`Position::value`]) and what each team can take next: cells it could
/// claim from where it stands, cells of its opponent it could cancel, and
/// its stock as cancels to come.
pub fn evaluate(position: &Position) -> i64 {
    let mut value = position.value();
    for team in Team::BOTH {
        if position.is_out(team) {
            continue;
        }
        // Each object of stock is a cancel to come while the opponent has
        // cells: worth a third of a cell, so that a cancel is played when
        // it gains, not as soon as one is in reach (measured: +81 ± 48 Elo
        // at level 3 over 200 matches, on two sets of fields; a half or a
        // whole cell makes the player hoard, a sixth gains less).
        let to_cancel = position.territory(team.other()).min(position.stock(team));
        value += sign(team) * STOCK_WORTH * i64::from(to_cancel);
        let Some(current) = position.current(team) else {
            continue;
        };
        let room = position.capacity() - position.load(team);
        let mut claimable = 0;
        let mut near = 0;
        let mut cancels = 0;
        for next in position.neighbours(current) {
            let count = position.count(next);
            if count > 0 && count <= position.capacity() {
                if count <= room {
                    claimable += 1;
                } else {
                    near += 1;
                }
            }
            if position.owner(next) == Some(team.other()) && position.stock(team) > 0 {
                cancels += 1;
            }
        }
        let worth = TERRITORY / 4 * claimable.min(3)
            + TERRITORY / 8 * near.min(3)
            + TERRITORY / 5 * cancels.min(position.stock(team)).min(2) as i64
            + OBJECT * i64::from(position.load(team).min(room)) / 4;
        value += sign(team) * worth;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cost::CostModel;
    use crate::engine::random_game_positions;

    fn positions() -> Vec<Position> {
        random_game_positions(1..=4, CostModel::Virtual)
    }

    #[test]
    fn order_ranks_by_promise_and_keeps_equal_turns_in_their_listed_order() {
        let mut ties = 0;
        for position in positions() {
            let listed = position.legal_actions();
            let mut ordered = listed.clone();
            order(&position, &mut ordered);
            let place = |action: &Action| listed.iter().position(|a| a == action);
            for pair in ordered.windows(2) {
                let (one, two) = (promise(&position, &pair[0]), promise(&position, &pair[1]));
                assert!(one >= two, "{pair:?} out of order");
                if one == two {
                    ties += 1;
                    assert!(place(&pair[0]) < place(&pair[1]), "{pair:?} swapped");
                }
            }
            assert_eq!(ordered.len(), listed.len());
        }
        // Enough equal turns that an unstable sort would swap some.
        assert!(ties > 500, "{ties} ties");
    }

    #[test]
    fn a_node_lists_its_own_turns_in_a_list_another_node_used() {
        let mut searcher = Searcher::new();
        let mut list = Vec::new();
        for position in positions() {
            searcher.actions_into(&position, &mut list);
            let mut fresh = position.legal_actions();
            order(&position, &mut fresh);
            assert_eq!(list, fresh);
        }
    }

    /// A search that runs until it has answered.
    const UNLIMITED: Limits = Limits {
        nodes: u64::MAX,
        deadline: None,
        every_action: false,
    };

    /// Plain minimax over the lists a node searches, `depth` turns deep:
    /// what alpha-beta must return, in whatever order it tries the turns.
    fn minimax(searcher: &mut Searcher, position: &Position, depth: u32) -> i64 {
        if position.is_terminal() {
            return position.final_value();
        }
        if depth == 0 {
            return evaluate(position);
        }
        let mut actions = Vec::new();
        searcher.actions_into(position, &mut actions);
        let values = actions.iter().map(|action| {
            let mut child = position.clone();
            child.apply(action);
            minimax(searcher, &child, depth - 1)
        });
        if position.to_move() == Team::A {
            values.max().unwrap_or(i64::MIN)
        } else {
            values.min().unwrap_or(i64::MAX)
        }
    }

    #[test]
    fn the_table_turns_change_how_much_is_searched_not_the_value() {
        let mut hinted_nodes = 0;
        let mut fresh_nodes = 0;
        let mut checked = 0;
        for position in positions().iter().step_by(2) {
            // A search two turns deep leaves the table's turn of the root
            // and of its children, which the search three deep tries first.
            let mut hinted = Searcher::new();
            hinted.value_at(position, 2, UNLIMITED);
            let with_hints = hinted.value_at(position, 3, UNLIMITED);
            hinted_nodes += hinted.nodes;
            let mut fresh = Searcher::new();
            let without = fresh.value_at(position, 3, UNLIMITED);
            fresh_nodes += fresh.nodes;
            assert_eq!(with_hints, without);
            assert_eq!(with_hints, minimax(&mut fresh, position, 3));
            checked += 1;
        }
        assert!(checked > 40, "{checked} positions");
        // The table's turns make the search cheaper, as they are there for.
        assert!(
            hinted_nodes < fresh_nodes,
            "{hinted_nodes} against {fresh_nodes}"
        );
    }

    #[test]
    fn a_node_searches_each_of_its_turns_once_whichever_the_table_names() {
        let mut plain = Searcher::new();
        for position in positions().iter().step_by(3) {
            let mut listed = Vec::new();
            plain.actions_into(position, &mut listed);
            for hint in [0, listed.len() / 2, listed.len() - 1] {
                let mut searcher = Searcher::new();
                searcher.limits = UNLIMITED;
                // A shallower entry: it names a turn to try first, and
                // cannot answer for the search one turn deep.
                searcher.store(position, 0, 0, Bound::Exact, Some(listed[hint]), false);
                let (value, _) = searcher.search(position, 1, i64::MIN + 1, i64::MAX - 1);
                // Nothing is cut off in a whole window, so the search
                // visits the position, each of its turns' positions once,
                // and again each turn that beats those tried before it
                // (principal variation search asks those again with the
                // whole window): the table's turn first, then the list's.
                let order = std::iter::once(listed[hint]).chain(
                    listed
                        .iter()
                        .copied()
                        .filter(|&action| action != listed[hint]),
                );
                let values: Vec<i64> = order
                    .map(|action| {
                        let mut child = position.clone();
                        child.apply(&action);
                        minimax(&mut plain, &child, 0)
                    })
                    .collect();
                let maximise = position.to_move() == Team::A;
                let mut best = values[0];
                let mut asked_again = 0;
                for &value in &values[1..] {
                    if (maximise && value > best) || (!maximise && value < best) {
                        best = value;
                        asked_again += 1;
                    }
                }
                let expected = 1 + values.len() as u64 + asked_again;
                assert_eq!(searcher.nodes, expected, "table's turn {hint}");
                assert_eq!(value, best);
            }
        }
    }
}
