//! Monte-Carlo tree search over whole turns (§15.2's `--mcts`,
//! `builtin:mcts`, and game 2 of `builtin`): UCT selection, progressive
//! widening over the pruned turns of [`Position::legal_actions`] in the
//! alpha–beta search's order, and the match's win chance as the reward:
//! each new leaf is played out to the end of its game by the light policy
//! of [`super::playout`], and the end judged by [`Position::win_chance`]
//! (in game 2 the match won, tied or lost; in game 1 the chance that its
//! margin holds). In game 2 a tenth of the reward is the match's margin,
//! so that once the match is beyond doubt the search still plays for a
//! wider one instead of carelessly (every line would be worth the same);
//! the chance it reports is the match's alone. A turn that ends game 2
//! with the match won is certain and is played before any search, so that
//! share never trades a won match for cells. Selection in game 2 also
//! weighs each node's static estimate of the match, backed up by minimax
//! through the tree ([`BACKUP_WEIGHT`]). The tree is kept from one turn to
//! the next when the new position is in it.
//!
//! Why playouts to the end: game 2 is a clock race (a team ahead whose
//! clock covers the game clock may end the game at any turn), which a
//! static estimate at the search's horizon misjudges; a playout reaches
//! the end. Judged by the estimate instead, the tree search took 4 of 20
//! matches from `builtin:5`; with these playouts 14 of 40, and in game 2
//! of `builtin` it gains over alpha–beta (BENCHMARKS.md, issue 22). The
//! search is deterministic: a budget of iterations, not of time, ends it
//! (a deadline only guards the clock), and the playouts' numbers are
//! seeded afresh for each game.

use std::time::Instant;

use super::action::{sign, Action};
use super::objective::{chance_of, in_cells, logistic, TERRITORY};
use super::playout::play_out;
use super::position::Position;
use super::search::{evaluate, order, Found};
use super::seeded::Seeded;
use crate::model::team::Team;

/// How far one tree search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Iterations at most (deterministic).
    pub iterations: u64,
    /// A wall-clock instant to stop at, if any (not deterministic).
    pub deadline: Option<Instant>,
}

/// UCT's exploration constant, for rewards between 0 and 1. Measured at
/// level 5 against `builtin:5` over 40 fields: 0.3, 0.5 and 0.8 gave 18,
/// 14 and 12 matches of 40.
const EXPLORATION: f64 = 0.3;
/// The playouts' seed at the start of each game.
const PLAYOUT_SEED: u64 = 0x2545_F491_4F6C_DD1D;
/// A node with `n` visits has at most `1 + WIDENING · √n` children: the
/// likeliest turns first, more as the node proves worth it.
const WIDENING: f64 = 1.0;
/// Turns a node below the root may try at most, the likeliest first.
const CANDIDATES: usize = 24;
/// The share of game 2's reward that is the match's margin rather than
/// the match won: enough that a match beyond doubt is still played for a
/// wider margin (all its lines would otherwise be worth the same, and the
/// search played them carelessly: `builtin:3` won 8 of 16 games of the
/// manual's tournament, 14 with this share, 13 with 2 drawn once the
/// playouts picked among their three best, and 14 with the backups of
/// [`BACKUP_WEIGHT`]), small enough that a won match outweighs a lost one
/// whatever their margins (0.9 against 0.1), and a certain win
/// ([`certain_win`]) is taken before any line is weighed.
const MARGIN_SHARE: f64 = 0.1;
/// The margin, in cells, at which that share is about three quarters
/// earned: the scale of its logistic curve.
const MARGIN_SPREAD: f64 = 6.0;
/// In game 2, the weight that selection gives a child's backed-up
/// estimate against its playouts' mean reward (implicit minimax backups,
/// Lanctot and others, 2014): each node keeps the static estimate's
/// chance of the match ([`evaluate`] through [`chance_of`]), backed up by
/// minimax over the children the tree has. Measured at level 5 over
/// 1,040 matches against `spar3` and `spar2`, paired with the search
/// without it: 110 results better, 80 worse (BENCHMARKS.md, issue 22).
/// Game 1 of `builtin:mcts` keeps the plain mean: the backups were not
/// shown to help it there.
const BACKUP_WEIGHT: f64 = 0.3;

#[derive(Clone, Debug)]
struct Node {
    /// The turn that led here (the root's is unused).
    action: Action,
    /// Who played it: the team whose reward the node sums.
    mover: Team,
    key: u64,
    visits: u32,
    /// Sum of the mover's rewards (what selection weighs).
    reward: f64,
    /// Sum of the mover's chances to win (what the search reports).
    wins: f64,
    /// Sum of the leaves' values from A's side, in cells (for the score).
    margin: f64,
    children: Vec<u32>,
    /// Turns not yet tried, the likeliest last (popped first); none until
    /// the node is first left.
    untried: Option<Vec<Action>>,
    /// The mover's chance by the static estimate, backed up by minimax
    /// over the children (0 when the search does not back up).
    estimate: f64,
}

/// A tree search and its tree, kept from one search to the next of the
/// same game.
pub struct TreeSearch {
    nodes: Vec<Node>,
    /// The playouts' numbers.
    random: Seeded,
    /// The nodes an iteration passes, and the turns a playout lists at
    /// each position: kept, so that an iteration allocates only what the
    /// tree keeps (a new node's turns, a parent's list of children).
    path: Vec<usize>,
    playout_actions: Vec<Action>,
    /// [`BACKUP_WEIGHT`] in game 2, 0 in game 1: set by each search.
    backup_weight: f64,
}

impl Default for TreeSearch {
    fn default() -> TreeSearch {
        TreeSearch::new()
    }
}

impl TreeSearch {
    /// A search with no tree.
    pub fn new() -> TreeSearch {
        TreeSearch {
            nodes: Vec::new(),
            random: Seeded::new(PLAYOUT_SEED),
            path: Vec::new(),
            playout_actions: Vec::new(),
            backup_weight: 0.0,
        }
    }

    /// Forgets the tree and starts the playouts' numbers afresh (between
    /// games).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.random = Seeded::new(PLAYOUT_SEED);
    }

    /// The best turn for the team to move in `position` within `budget`
    /// (none when the game has ended): the root's most visited turn.
    pub fn best(&mut self, position: &Position, budget: Budget) -> Option<Found> {
        if position.is_terminal() {
            return None;
        }
        if let Some(found) = certain_win(position) {
            return Some(found);
        }
        self.backup_weight = if position.game_one().is_some() {
            BACKUP_WEIGHT
        } else {
            0.0
        };
        self.reroot(position);
        let mut iterations = 0;
        while iterations < budget.iterations {
            if iterations % 64 == 0
                && budget
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline)
            {
                break;
            }
            self.iterate(position);
            iterations += 1;
        }
        let root = &self.nodes[0];
        let best = root
            .children
            .iter()
            .map(|&child| &self.nodes[child as usize])
            .max_by(|one, other| {
                one.visits
                    .cmp(&other.visits)
                    .then(one.reward.total_cmp(&other.reward))
            })?;
        let visits = f64::from(best.visits.max(1));
        let chance = best.wins / visits;
        Some(Found {
            action: best.action,
            value: (best.margin / visits * TERRITORY as f64) as i64,
            depth: 1,
            nodes: iterations,
            solved: false,
            exact: false,
            chance: Some(if position.to_move() == Team::A {
                chance
            } else {
                1.0 - chance
            }),
        })
    }

    /// Keeps the part of the tree under `position` when it is there (the
    /// turns since the last search were ones it had tried), else starts a
    /// new one.
    fn reroot(&mut self, position: &Position) {
        let key = position.key();
        let found = self.nodes.first().and_then(|root| {
            if root.key == key {
                return Some(0);
            }
            // Two turns deep: the own turn and the opponent's (or the own
            // again when the opponent is out).
            root.children.iter().find_map(|&child| {
                let node = &self.nodes[child as usize];
                if node.key == key {
                    return Some(child as usize);
                }
                node.children
                    .iter()
                    .copied()
                    .find(|&grandchild| self.nodes[grandchild as usize].key == key)
                    .map(|grandchild| grandchild as usize)
            })
        });
        let Some(found) = found else {
            self.nodes.clear();
            self.nodes
                .push(Node::root(position, self.backup_weight > 0.0));
            return;
        };
        if found == 0 {
            return;
        }
        // Copy the subtree under `found` into a new arena.
        let mut kept = Vec::new();
        let mut queue = vec![(found, usize::MAX)];
        while let Some((old, parent)) = queue.pop() {
            let mut node = self.nodes[old].clone();
            let children = std::mem::take(&mut node.children);
            let at = kept.len();
            kept.push(node);
            if parent != usize::MAX {
                kept[parent].children.push(at as u32);
            }
            for &child in children.iter().rev() {
                queue.push((child as usize, at));
            }
        }
        self.nodes = kept;
    }

    /// One iteration: down the tree by UCT, widening where the visits
    /// allow, a new leaf played out to the end of the game, and the reward
    /// taken back up.
    fn iterate(&mut self, root: &Position) {
        let mut position = root.clone();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        path.push(0);
        loop {
            let at = *path.last().unwrap_or(&0);
            if position.is_terminal() {
                break;
            }
            let visits = self.nodes[at].visits;
            let children = self.nodes[at].children.len();
            let untried = self.nodes[at].untried.get_or_insert_with(|| {
                let mut actions = position.legal_actions();
                order(&position, &mut actions);
                // Below the root, only the likeliest turns: the widening
                // seldom reaches further, and the lists are the tree's
                // memory.
                if at != 0 {
                    actions.truncate(CANDIDATES);
                }
                actions.reverse();
                actions
            });
            let room = 1.0 + WIDENING * f64::from(visits).sqrt();
            if (children as f64) < room {
                if let Some(action) = untried.pop() {
                    let mover = position.to_move();
                    position.apply(&action);
                    let estimate = self.backup_weight > 0.0;
                    self.nodes
                        .push(Node::new(action, mover, &position, estimate));
                    let index = self.nodes.len() - 1;
                    self.nodes[at].children.push(index as u32);
                    path.push(index);
                    break;
                }
            }
            let Some(next) = self.select(at) else {
                break;
            };
            position.apply(&self.nodes[next].action);
            path.push(next);
        }
        play_out(&mut position, &mut self.random, &mut self.playout_actions);
        let chance = position.win_chance();
        let margin = in_cells(position.value());
        let reward = if position.game_one().is_some() {
            (1.0 - MARGIN_SHARE) * chance + MARGIN_SHARE * logistic(margin, MARGIN_SPREAD)
        } else {
            chance
        };
        for &index in &path {
            let node = &mut self.nodes[index];
            let (reward, chance) = if node.mover == Team::A {
                (reward, chance)
            } else {
                (1.0 - reward, 1.0 - chance)
            };
            node.visits += 1;
            node.reward += reward;
            node.wins += chance;
            node.margin += margin;
        }
        if self.backup_weight > 0.0 {
            self.back_up_estimates(&path);
        }
        self.path = path;
    }

    /// Each node of `path` above its leaf takes the best of its
    /// children's estimates, from its mover's side (minimax).
    fn back_up_estimates(&mut self, path: &[usize]) {
        for &index in path.iter().rev().skip(1) {
            let node = &self.nodes[index];
            let Some(&first) = node.children.first() else {
                continue;
            };
            // The children's mover is the team to move here: the opponent
            // of this node's mover, or the same team when the opponent is
            // out.
            let same_mover = self.nodes[first as usize].mover == node.mover;
            let best = node
                .children
                .iter()
                .map(|&child| self.nodes[child as usize].estimate)
                .fold(f64::MIN, f64::max);
            self.nodes[index].estimate = if same_mover { best } else { 1.0 - best };
        }
    }

    /// The child of `at` with the best upper confidence bound.
    fn select(&self, at: usize) -> Option<usize> {
        let parent = &self.nodes[at];
        let log = f64::from(parent.visits.max(1)).ln();
        // Each bound once (a comparison would compute both of its own).
        parent
            .children
            .iter()
            .map(|&child| {
                let node = &self.nodes[child as usize];
                let visits = f64::from(node.visits.max(1));
                let mean = (1.0 - self.backup_weight) * node.reward / visits
                    + self.backup_weight * node.estimate;
                let bound = mean + EXPLORATION * (log / visits).sqrt();
                (bound, child as usize)
            })
            .max_by(|one, other| one.0.total_cmp(&other.0))
            .map(|(_, index)| index)
    }
}

/// A turn that ends game 2 and wins the match for the team to move, the
/// widest such win when there are several: certain, where playing on is
/// only estimated to win, and so always taken. Without this rule the
/// margin's share of the reward would trade a won match for a chance at
/// a wider one (leading the match, the search played on past `timeout`).
fn certain_win(position: &Position) -> Option<Found> {
    position.game_one()?;
    let mover = position.to_move();
    let (action, after) = position
        .legal_actions()
        .into_iter()
        .filter_map(|action| {
            let mut after = position.clone();
            after.apply(&action);
            let won = after.match_result()?.winner == Some(mover);
            won.then_some((action, after))
        })
        .max_by_key(|(_, after)| sign(mover) * after.value())?;
    Some(Found {
        action,
        value: after.value(),
        depth: 1,
        nodes: 0,
        solved: true,
        exact: false,
        chance: Some(if mover == Team::A { 1.0 } else { 0.0 }),
    })
}

impl Node {
    /// A node not yet visited: `position`, reached by `mover`'s `action`,
    /// with its static estimate when `estimate`.
    fn new(action: Action, mover: Team, position: &Position, estimate: bool) -> Node {
        let estimate = if estimate {
            // A's chance, then the mover's.
            let chance = if position.is_terminal() {
                position.win_chance()
            } else {
                chance_of(evaluate(position))
            };
            if mover == Team::A {
                chance
            } else {
                1.0 - chance
            }
        } else {
            0.0
        };
        Node {
            action,
            mover,
            key: position.key(),
            visits: 0,
            reward: 0.0,
            wins: 0.0,
            margin: 0.0,
            children: Vec::new(),
            untried: None,
            estimate,
        }
    }

    /// The root: `position` itself (its action and mover are unused).
    fn root(position: &Position, estimate: bool) -> Node {
        Node::new(
            Action::TIMEOUT,
            position.to_move().other(),
            position,
            estimate,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cost::CostModel;
    use crate::model::team::PerTeam;
    use crate::play::suite::practice_start;
    use crate::rules::result::GameResult;

    /// A search of 2,000 iterations from the start of the practice match
    /// of `seed`, in game 2 after a level game 1 when `game_two`.
    fn searched(seed: u64, game_two: bool) -> TreeSearch {
        let mut position = Position::of(&practice_start(seed), CostModel::Virtual);
        if game_two {
            position = position.after_game_one(GameResult::from_totals(
                PerTeam { a: 12, b: 12 },
                PerTeam { a: 30, b: 31 },
                PerTeam {
                    a: 90_000,
                    b: 90_000,
                },
            ));
        }
        let mut search = TreeSearch::new();
        let budget = Budget {
            iterations: 2_000,
            deadline: None,
        };
        search.best(&position, budget).expect("a turn");
        search
    }

    #[test]
    fn in_game_two_each_node_keeps_the_minimax_of_its_childrens_estimates() {
        // Told from A's side: where A is to move, a node is worth the
        // best of its children for A; where B is, the worst.
        for seed in 1..=3 {
            let search = searched(seed, true);
            let for_a = |node: &Node| match node.mover {
                Team::A => node.estimate,
                Team::B => 1.0 - node.estimate,
            };
            let mut inner = 0;
            for node in &search.nodes {
                assert!((0.0..=1.0).contains(&node.estimate), "seed {seed}");
                let children: Vec<&Node> = node
                    .children
                    .iter()
                    .map(|&child| &search.nodes[child as usize])
                    .collect();
                let Some(to_move) = children.first().map(|child| child.mover) else {
                    continue;
                };
                let values = children.iter().map(|child| for_a(child));
                let expected = match to_move {
                    Team::A => values.fold(0.0, f64::max),
                    Team::B => values.fold(1.0, f64::min),
                };
                assert!((for_a(node) - expected).abs() < 1e-12, "seed {seed}");
                inner += 1;
            }
            assert!(inner > 20, "seed {seed}: {inner} inner nodes");
        }
    }

    #[test]
    fn in_game_one_the_search_keeps_no_estimates() {
        let search = searched(1, false);
        assert!(search.nodes.len() > 100);
        assert!(search.nodes.iter().all(|node| node.estimate == 0.0));
    }

    #[test]
    fn the_same_position_and_budget_give_the_same_legal_turn() {
        for seed in 1..=4 {
            let position = Position::of(&practice_start(seed), CostModel::Virtual);
            let budget = Budget {
                iterations: 2_000,
                deadline: None,
            };
            let one = TreeSearch::new().best(&position, budget).expect("a turn");
            let two = TreeSearch::new().best(&position, budget).expect("a turn");
            assert_eq!(one, two, "seed {seed}");
            assert_eq!(one.nodes, 2_000);
            assert!(
                position.legal_actions().contains(&one.action),
                "seed {seed}"
            );
            let chance = one.chance.expect("a chance");
            assert!((0.0..=1.0).contains(&chance), "seed {seed}: {chance}");
        }
    }
}
