//! The computer player (`builtin`, `builtin:LEVEL`, `builtin:mcts`,
//! `builtin:mcts:LEVEL`): the engine's two searches, played for the match
//! (game 1's result carried into game 2, §9.2), within a budget by level
//! and, under the wall clock, a share of its clock. `builtin` plays game 1
//! with alpha–beta and game 2 with the tree search, whose playouts see the
//! clock race to the match's end (BENCHMARKS.md, issue 22); `builtin:mcts`
//! plays both games with the tree search.

use std::time::{Duration, Instant};

use super::player::{answer_of, costs, Answer, Clock, Go, Player};
use super::protocol::Message;
use crate::engine::action::{Action, EmptyAt};
use crate::engine::mcts::{Budget, TreeSearch};
use crate::engine::objective::GameTally;
use crate::engine::position::Position;
use crate::engine::search::{Found, Limits, Searcher};
use crate::model::turn::Step;
use crate::rules::result::GameResult;

/// The alpha–beta levels: positions searched per turn. Level 6's
/// 3,000,000 take the time its 2,400,000 took before alpha–beta stopped
/// allocating (BENCHMARKS.md, issue 22).
pub const LEVEL_NODES: [u64; 6] = [1_000, 5_000, 20_000, 60_000, 600_000, 3_000_000];

/// The tree search's levels: iterations per turn. Level 5's 48,000 and
/// level 6's 192,000 take the time their 32,000 and 128,000 took before
/// the playouts stopped allocating. Over 240 matches against three
/// opponents level 5's won 195 where 32,000 won 190; level 6 with both
/// new budgets won 69 of 80 against two where the old ones won 66
/// (BENCHMARKS.md, issue 22).
pub const LEVEL_ITERATIONS: [u64; 6] = [500, 2_000, 6_000, 16_000, 48_000, 192_000];

/// The level `builtin` plays at.
pub const DEFAULT_LEVEL: u8 = 5;

/// On fields of this many cells or fewer (3 × 3) the computer player
/// searches every distinct turn with alpha–beta, to the end of the game
/// when that fits in [`EXACT_NODES`] positions, whichever search it uses
/// elsewhere.
pub const EXACT_CELLS: usize = 9;
/// The positions a turn on a small field may search: about a quarter of a
/// second, well inside the default thinking bound, so that the position
/// budget, not the clock, ends the search and the play is reproducible.
pub const EXACT_NODES: u64 = 500_000;

/// Which search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Game 1 with alpha–beta (iterative deepening, a transposition
    /// table), game 2 with the tree search: `builtin`.
    AlphaBetaThenTree,
    /// Monte-Carlo tree search with playouts to the end of the game, in
    /// both games: `builtin:mcts`.
    TreeSearch,
}

/// The computer player.
pub struct ComputerPlayer {
    engine: Engine,
    level: u8,
    searcher: Searcher,
    tree: TreeSearch,
    /// The game being played, as the match hears it.
    tally: GameTally,
    game: u8,
    /// Game 1's result, once heard: game 2 is played for the match.
    game_one: Option<GameResult>,
}

impl ComputerPlayer {
    /// The default player (`builtin:LEVEL`) at `level` (1 to 6).
    pub fn new(level: u8) -> ComputerPlayer {
        ComputerPlayer::with_engine(Engine::AlphaBetaThenTree, level)
    }

    /// The player of `engine` at `level` (1 to 6).
    pub fn with_engine(engine: Engine, level: u8) -> ComputerPlayer {
        ComputerPlayer {
            engine,
            level: level.clamp(1, LEVEL_NODES.len() as u8),
            searcher: Searcher::new(),
            tree: TreeSearch::new(),
            tally: GameTally::default(),
            game: 0,
            game_one: None,
        }
    }

    /// Its alpha–beta budget in a position of `cells` cells, with no
    /// clock: positions by level, and every distinct turn on small fields.
    pub fn budget(&self, cells: usize) -> Limits {
        let nodes = LEVEL_NODES[usize::from(self.level) - 1];
        let exact = cells <= EXACT_CELLS;
        Limits {
            nodes: if exact { nodes.max(EXACT_NODES) } else { nodes },
            deadline: None,
            every_action: exact,
        }
    }

    /// The position of `go` as it plays it: in game 2, for the match,
    /// game 1's result carried.
    pub fn position(&self, go: &Go<'_>) -> Position {
        Position::in_match(go.state, costs(go.clock), self.game_one)
    }

    /// What its alpha–beta search finds in `position` within `limits`
    /// (none once the game ended).
    pub fn search(&mut self, position: &Position, limits: Limits) -> Option<Found> {
        self.searcher.best(position, limits)
    }

    /// What it plays in `position`, stopping at `deadline` if the budget
    /// of its level is not spent by then: the exhaustive alpha–beta search
    /// on small fields, else its engine's for the game.
    pub fn think(&mut self, position: &Position, deadline: Option<Instant>) -> Option<Found> {
        let cells = position.size().cells();
        // Game 2, played for the match once game 1's result is known.
        let for_the_match = position.game_one().is_some();
        let alpha_beta = match self.engine {
            Engine::AlphaBetaThenTree => !for_the_match,
            Engine::TreeSearch => false,
        };
        if alpha_beta || cells <= EXACT_CELLS {
            let limits = Limits {
                deadline,
                ..self.budget(cells)
            };
            return self.searcher.best(position, limits);
        }
        let budget = Budget {
            iterations: LEVEL_ITERATIONS[usize::from(self.level) - 1],
            deadline,
        };
        self.tree.best(position, budget)
    }
}

/// How long to think over a turn: under the virtual clock thinking costs
/// nothing, so most of the bound; under the wall clock thinking is the
/// turn's duration, charged to the team's clock and the game's, so a share
/// of what is left spread over the turns the team still expects to play
/// (about one per two objects left on the field, at least ten), and never
/// more than a fortieth of it, as chess engines budget a move.
pub fn thinking_time(clock: Clock, limit: Duration, position: &Position) -> Duration {
    match clock {
        Clock::Virtual => limit.mul_f64(0.8),
        Clock::Wall => {
            let left = position.time_left();
            let turns = u64::from(position.on_field() / 2).clamp(10, 200);
            let share = (left / turns).min(left / 40);
            limit.min(Duration::from_millis(share))
        }
    }
}

impl Player for ComputerPlayer {
    fn label(&self) -> String {
        match self.engine {
            Engine::AlphaBetaThenTree => format!("builtin:{}", self.level),
            Engine::TreeSearch => format!("builtin:mcts:{}", self.level),
        }
    }

    fn tell(&mut self, message: &Message<'_>) {
        match *message {
            Message::Game { number, .. } => {
                self.searcher.clear();
                self.tree.clear();
                self.game = number;
                self.tally = GameTally::default();
                if number == 1 {
                    self.game_one = None;
                }
            }
            Message::Played {
                team,
                charged,
                steps,
            } => {
                let cleared = steps
                    .unwrap_or_default()
                    .iter()
                    .map(|step| match step {
                        Step::Clear(items) => items.iter().map(|item| item.count).sum(),
                        _ => 0,
                    })
                    .sum();
                self.tally.turn(team, charged, cleared);
            }
            Message::Result { territory } if self.game == 1 => {
                self.game_one = Some(self.tally.result(territory));
            }
            _ => {}
        }
    }

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        let position = self.position(go);
        let think = thinking_time(go.clock, go.limit, &position);
        let action = self
            .think(&position, Some(Instant::now() + think))
            .map_or(Action::pass(EmptyAt::None), |found| found.action);
        answer_of(&action, go.state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read;
    use crate::model::event::Event;
    use crate::model::team::PerTeam;
    use crate::play::arena::{play_match, PlayOptions};
    use crate::play::suite::{practice_setup, practice_start};
    use crate::rules::game::Policy;

    /// A computer player that remembers what it believed game 1's result
    /// was when game 2 began.
    struct Listener {
        player: ComputerPlayer,
        heard: Option<GameResult>,
    }

    impl Player for Listener {
        fn label(&self) -> String {
            self.player.label()
        }

        fn tell(&mut self, message: &Message<'_>) {
            self.player.tell(message);
        }

        fn answer(&mut self, go: &Go<'_>) -> Answer {
            if go.state.game == 2 && self.heard.is_none() {
                self.heard = self.player.position(go).game_one().copied();
            }
            self.player.answer(go)
        }
    }

    #[test]
    fn game_one_as_heard_over_the_match_is_the_referees_result() {
        for seed in 1..=3 {
            let mut a = Listener {
                player: ComputerPlayer::with_engine(Engine::TreeSearch, 1),
                heard: None,
            };
            let mut b = Listener {
                player: ComputerPlayer::new(1),
                heard: None,
            };
            let options = PlayOptions {
                clock: Clock::Virtual,
                ..PlayOptions::default()
            };
            let record = play_match(
                &practice_setup(seed),
                PerTeam {
                    a: &mut a,
                    b: &mut b,
                },
                &options,
            )
            .expect("a legal match");
            let mut refereed = None;
            read(record.to_string().as_bytes(), Policy::Strict, |entry| {
                if entry.game == Some(1) && matches!(entry.event, Event::GameEnd { .. }) {
                    refereed = GameResult::of(&entry.event);
                }
            });
            assert!(refereed.is_some(), "seed {seed}");
            assert_eq!(a.heard, refereed, "seed {seed}, A");
            assert_eq!(b.heard, refereed, "seed {seed}, B");
        }
    }

    #[test]
    fn under_the_wall_clock_thinking_is_a_share_of_the_time_left() {
        let position = Position::of(&practice_start(1), costs(Clock::Wall));
        let limit = Duration::from_secs(60);
        let think = thinking_time(Clock::Wall, limit, &position);
        // 120 s on the clock, 180 s in the game: at most a fortieth.
        assert!(think <= Duration::from_secs(3), "{think:?}");
        assert!(think >= Duration::from_millis(500), "{think:?}");
        assert_eq!(
            thinking_time(Clock::Virtual, limit, &position),
            limit.mul_f64(0.8)
        );
    }
}
