//! A game as it stands: counts, owners, current territories, containers,
//! stocks and clocks. It is a fold over the game's events
//! ([`GameState::apply`]); the referee advances its own state the same way.

use super::event::{End, Event, GameStart};
use super::field::{Cell, Size};
use super::params::Params;
use super::team::{PerTeam, Role, Team};

/// Everything that can be seen of a game at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    /// 1 or 2.
    pub game: u8,
    /// The game's parameters.
    pub params: Params,
    /// The first team.
    pub first: Team,
    counts: Vec<u32>,
    /// The sum of `counts`, kept as they change: whether the field is
    /// clear is asked after every turn.
    on_field: u32,
    owners: Vec<Option<Team>>,
    /// Each team's current territory, if it has one (§1.5, §6.4).
    pub current: PerTeam<Option<Cell>>,
    /// Objects in each container.
    pub load: PerTeam<u32>,
    /// Objects left in each stock.
    pub stock: PerTeam<u32>,
    /// Objects each team has cleared (§9.1).
    pub cleared: PerTeam<u32>,
    /// Objects each team has emptied.
    pub emptied: PerTeam<u32>,
    /// Objects placed so far, by both teams.
    pub placed: u32,
    /// Each team's clock, ms.
    pub team_left: PerTeam<u64>,
    /// The game clock, ms.
    pub game_left: u64,
    /// Time charged to each team, ms (§7.5).
    pub time_used: PerTeam<u64>,
    /// Teams out of time (§7.4).
    pub out: PerTeam<bool>,
    /// Turns played.
    pub turns: u32,
    /// Game time elapsed, ms.
    pub elapsed: u64,
    /// The team to move next.
    pub to_move: Team,
    /// Why the game ended, once it has.
    pub ended: Option<End>,
}

impl GameState {
    /// The state a `GameStart` event describes: counts after the start
    /// cells were cleared, their owners, full stocks and clocks.
    pub fn start(
        game: u8,
        params: &Params,
        first: Team,
        counts: Vec<u32>,
        start: &PerTeam<Vec<Cell>>,
        current: PerTeam<Cell>,
    ) -> GameState {
        let size = params.field.size();
        let mut owners = vec![None; size.cells()];
        for team in Team::BOTH {
            for &cell in &start[team] {
                owners[size.index(cell)] = Some(team);
            }
        }
        let role = |team: Team| {
            if team == first {
                Role::First
            } else {
                Role::Second
            }
        };
        GameState {
            game,
            params: params.clone(),
            first,
            on_field: counts.iter().sum(),
            counts,
            owners,
            current: current.map(|&cell| Some(cell)),
            load: PerTeam::default(),
            stock: PerTeam::from_fn(|team| params.stock.of(role(team))),
            cleared: PerTeam::default(),
            emptied: PerTeam::default(),
            placed: 0,
            team_left: PerTeam::from_fn(|_| params.team_time),
            game_left: params.game_time,
            time_used: PerTeam::default(),
            out: PerTeam::default(),
            turns: 0,
            elapsed: 0,
            to_move: first,
            ended: None,
        }
    }

    /// The state a game's `GameStart` event describes, in game `game`:
    /// where every fold over a game's events begins.
    pub fn after_start(game: u8, start: &GameStart) -> GameState {
        GameState::start(
            game,
            &start.params,
            start.first,
            start.field.concat(),
            &start.start,
            start.current,
        )
    }

    /// Rows and columns.
    pub fn size(&self) -> Size {
        self.params.field.size()
    }

    /// The role of `team` in this game.
    pub fn role(&self, team: Team) -> Role {
        if team == self.first {
            Role::First
        } else {
            Role::Second
        }
    }

    /// Objects on `cell` now.
    pub fn count(&self, cell: Cell) -> u32 {
        self.counts[self.size().index(cell)]
    }

    /// Every cell's count, row by row.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Who owns `cell`, if anyone.
    pub fn owner(&self, cell: Cell) -> Option<Team> {
        self.owners[self.size().index(cell)]
    }

    /// Cells `team` owns (§9.1).
    pub fn territory(&self, team: Team) -> u32 {
        self.owners
            .iter()
            .filter(|&&owner| owner == Some(team))
            .count() as u32
    }

    /// Objects on the whole field.
    pub fn on_field(&self) -> u32 {
        self.on_field
    }

    /// True when no cell holds an object (§8.1.1).
    pub fn is_cleared(&self) -> bool {
        self.on_field == 0
    }

    /// The time `team` may use in its turn: the less of its clock and the
    /// game clock (§7.2).
    pub fn time_left(&self, team: Team) -> u64 {
        self.team_left[team].min(self.game_left)
    }

    /// Whether the game ends now, and why (§8.1, in its order).
    pub fn end_reason(&self) -> Option<End> {
        if self.is_cleared() {
            Some(End::Cleared)
        } else if self.game_left == 0 {
            Some(End::Time)
        } else if self.out.a && self.out.b {
            Some(End::BothOut)
        } else {
            None
        }
    }

    /// The state after `event`: the fold that defines what every event of
    /// a game means.
    pub fn apply(&mut self, event: &Event) {
        let size = self.size();
        match event {
            Event::TurnStart { .. } => self.turns += 1,
            Event::Clear { team, items, load } => {
                for item in items {
                    let count = &mut self.counts[size.index(item.cell)];
                    let taken = item.count.min(*count);
                    *count -= taken;
                    self.on_field -= taken;
                    self.cleared[*team] += item.count;
                }
                self.load[*team] = *load;
            }
            Event::Claim { team, cell } => self.owners[size.index(*cell)] = Some(*team),
            Event::Place { team, items, stock } => {
                for item in items {
                    self.counts[size.index(item.cell)] += item.count;
                    self.on_field += item.count;
                    self.placed += item.count;
                }
                self.stock[*team] = *stock;
            }
            Event::Cancel {
                cell,
                owner,
                was_current,
            } => {
                self.owners[size.index(*cell)] = None;
                if *was_current {
                    self.current[*owner] = None;
                }
            }
            Event::Move { team, to, .. } => self.current[*team] = Some(*to),
            Event::Empty { team, amount } => {
                self.load[*team] = 0;
                self.emptied[*team] += amount;
            }
            Event::TeamOut { team } => self.out[*team] = true,
            Event::TurnEnd {
                team,
                charged,
                team_left,
                game_left,
                ..
            } => {
                self.team_left = *team_left;
                self.game_left = *game_left;
                self.time_used[*team] += charged;
                self.elapsed += charged;
                let other = team.other();
                self.to_move = if self.out[other] { *team } else { other };
            }
            Event::GameEnd { reason, .. } => self.ended = Some(*reason),
            Event::Pass { .. }
            | Event::Timeout { .. }
            | Event::Illegal { .. }
            | Event::MatchStart(_)
            | Event::GameStart(_)
            | Event::MatchEnd { .. } => {}
        }
    }
}
