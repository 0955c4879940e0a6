//! A game position as a searcher sees it: the state of §3–§8 in small
//! fixed arrays that copy in one move, a Zobrist key kept as it changes,
//! and the OpenSpiel-like interface of §15.2 (`apply`, `is_terminal`,
//! `returns`). It is built from the referee's [`GameState`] and must agree
//! with the referee on every turn (a property test plays both side by
//! side); the referee stays the authority of every match.

use super::action::{Action, EmptyAt, Kind};
use super::cost::{self, CostModel};
use crate::model::event::End;
use crate::model::field::{Cell, Size};
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::rules::result::{GameResult, MatchResult};

/// The most cells a field has (16 × 16, §1.2).
pub const MAX_CELLS: usize = 256;

/// No cell: a team without a current territory.
const NO_CELL: u16 = u16::MAX;

use super::objective::{self, OBJECT, TERRITORY};

/// A position: whose turn, every cell, both teams' containers, stocks and
/// clocks.
#[derive(Clone, Debug)]
pub struct Position {
    size: Size,
    capacity: u32,
    costs: CostModel,
    counts: [u16; MAX_CELLS],
    /// 0 nobody, 1 A, 2 B.
    owners: [u8; MAX_CELLS],
    current: [u16; 2],
    load: [u32; 2],
    stock: [u32; 2],
    cleared: [u32; 2],
    team_left: [u64; 2],
    game_left: u64,
    time_used: [u64; 2],
    out: [bool; 2],
    territory: [u32; 2],
    on_field: u32,
    to_move: Team,
    ended: Option<End>,
    key: u64,
    /// In game 2, game 1's result: the match's standing that every
    /// position of game 2 carries (§9.2 adds the games up).
    game_one: Option<GameResult>,
    /// Game 1's value from A's side (0 in game 1).
    carried: i64,
}

/// A 64-bit mix (splitmix64's finaliser): the Zobrist number of one fact.
const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// What a Zobrist number describes.
#[derive(Clone, Copy)]
enum Fact {
    Count = 1,
    Owner,
    Current,
    Load,
    Stock,
    TeamLeft,
    GameLeft,
    Out,
    ToMove,
    Cleared,
}

fn zobrist(fact: Fact, at: usize, value: u64) -> u64 {
    mix(((fact as u64) << 56) ^ ((at as u64) << 40) ^ value)
}

const fn owner_code(team: Option<Team>) -> u8 {
    match team {
        None => 0,
        Some(Team::A) => 1,
        Some(Team::B) => 2,
    }
}

const fn owner_of(code: u8) -> Option<Team> {
    match code {
        1 => Some(Team::A),
        2 => Some(Team::B),
        _ => None,
    }
}

impl Position {
    /// One territory difference, in the units of [`Position::value`]: it
    /// outweighs any difference of objects and time (§9.2's order).
    pub const TERRITORY: i64 = TERRITORY;
    /// One object cleared, in the units of [`Position::value`].
    pub const OBJECT: i64 = OBJECT;
    /// A match won, in a search's values: more than any margin of a game
    /// not yet over (a finished game 2 is worth the match it decides).
    pub const MATCH_WON: i64 = objective::MATCH_WON;

    /// The referee's state as a position, turns priced by `costs`.
    pub fn of(state: &GameState, costs: CostModel) -> Position {
        let size = state.size();
        let mut position = Position {
            size,
            capacity: state.params.capacity,
            costs,
            counts: [0; MAX_CELLS],
            owners: [0; MAX_CELLS],
            current: [NO_CELL; 2],
            load: [state.load.a, state.load.b],
            stock: [state.stock.a, state.stock.b],
            cleared: [state.cleared.a, state.cleared.b],
            team_left: [state.team_left.a, state.team_left.b],
            game_left: state.game_left,
            time_used: [state.time_used.a, state.time_used.b],
            out: [state.out.a, state.out.b],
            territory: [state.territory(Team::A), state.territory(Team::B)],
            on_field: state.on_field(),
            to_move: state.to_move,
            ended: state.ended.or_else(|| state.end_reason()),
            key: 0,
            game_one: None,
            carried: 0,
        };
        for (index, cell) in size.all().enumerate() {
            position.counts[index] = state.count(cell) as u16;
            position.owners[index] = owner_code(state.owner(cell));
        }
        for team in Team::BOTH {
            if let Some(cell) = state.current[team] {
                position.current[team.index()] = size.index(cell) as u16;
            }
        }
        position.key = position.full_key();
        position
    }

    fn full_key(&self) -> u64 {
        let mut key = 0;
        for index in 0..self.size.cells() {
            key ^= zobrist(Fact::Count, index, u64::from(self.counts[index]));
            key ^= zobrist(Fact::Owner, index, u64::from(self.owners[index]));
        }
        for t in 0..2 {
            key ^= zobrist(Fact::Current, t, u64::from(self.current[t]));
            key ^= zobrist(Fact::Load, t, u64::from(self.load[t]));
            key ^= zobrist(Fact::Stock, t, u64::from(self.stock[t]));
            key ^= zobrist(Fact::TeamLeft, t, self.team_left[t]);
            key ^= zobrist(Fact::Out, t, u64::from(self.out[t]));
            key ^= zobrist(Fact::Cleared, t, u64::from(self.cleared[t]));
        }
        key ^= zobrist(Fact::GameLeft, 0, self.game_left);
        key ^ zobrist(Fact::ToMove, 0, self.to_move.index() as u64)
    }

    /// The referee's state as a position of the match: in game 2, with
    /// game 1's result carried when it is known (as
    /// [`Position::after_game_one`]).
    pub fn in_match(state: &GameState, costs: CostModel, game_one: Option<GameResult>) -> Position {
        let position = Position::of(state, costs);
        match game_one {
            Some(game_one) if state.game == 2 => position.after_game_one(game_one),
            _ => position,
        }
    }

    /// The same position of game 2, game 1 having ended with `game_one`:
    /// its values become the match's (§9.2), the two games added up.
    pub fn after_game_one(mut self, game_one: GameResult) -> Position {
        self.carried = objective::value_of(&game_one);
        self.game_one = Some(game_one);
        self
    }

    /// Game 1's result, in a position of game 2 that knows it.
    pub fn game_one(&self) -> Option<&GameResult> {
        self.game_one.as_ref()
    }

    /// This game's result so far (at the end, its result).
    pub fn game_result(&self) -> GameResult {
        let per_team = |[a, b]: [u32; 2]| PerTeam { a, b };
        GameResult::from_totals(
            per_team(self.territory),
            per_team(self.cleared),
            PerTeam {
                a: self.time_used[0],
                b: self.time_used[1],
            },
        )
    }

    /// A finished game's value for a search, from A's side: after game 2,
    /// with game 1 known, the match it decides ([`Position::MATCH_WON`]
    /// won, its negation lost, 0 tied, then the margin scaled down); after
    /// game 1, [`Position::value`], the margin it adds to the totals.
    pub fn final_value(&self) -> i64 {
        match self.game_one {
            Some(_) => objective::decided(self.value()),
            None => self.value(),
        }
    }

    /// A's chance of winning the match from a finished game: certain (1,
    /// ½ for a tie left to janken, 0) after game 2 when game 1 is known;
    /// after game 1, the chance that its margin holds.
    pub fn win_chance(&self) -> f64 {
        match self.game_one {
            Some(_) => objective::decided_chance(self.value()),
            None => objective::chance_of(self.value()),
        }
    }

    /// The match's result, in game 2 once it has ended and when game 1's
    /// result is known: the referee's decision (§9.2).
    pub fn match_result(&self) -> Option<MatchResult> {
        let game_one = self.game_one?;
        self.is_terminal()
            .then(|| MatchResult::decide(&[game_one, self.game_result()], None))
    }

    /// The Zobrist key of everything that decides the rest of the game and
    /// its worth to the match: counts, owners, currents, loads, stocks,
    /// clocks (and so the time used), who moves, and the objects cleared
    /// (which decide the match when the territory is level, §9.2).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Rows and columns.
    pub fn size(&self) -> Size {
        self.size
    }

    /// How the position prices turns.
    pub fn costs(&self) -> CostModel {
        self.costs
    }

    /// The container's capacity.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// The team to move.
    pub fn to_move(&self) -> Team {
        self.to_move
    }

    /// Objects on the cell at `index`.
    pub fn count(&self, index: usize) -> u32 {
        u32::from(self.counts[index])
    }

    /// Who owns the cell at `index`.
    pub fn owner(&self, index: usize) -> Option<Team> {
        owner_of(self.owners[index])
    }

    /// The index of `team`'s current cell, if it has one.
    pub fn current(&self, team: Team) -> Option<usize> {
        let current = self.current[team.index()];
        (current != NO_CELL).then_some(usize::from(current))
    }

    /// Objects in `team`'s container.
    pub fn load(&self, team: Team) -> u32 {
        self.load[team.index()]
    }

    /// Objects left in `team`'s stock.
    pub fn stock(&self, team: Team) -> u32 {
        self.stock[team.index()]
    }

    /// Cells `team` owns.
    pub fn territory(&self, team: Team) -> u32 {
        self.territory[team.index()]
    }

    /// Objects `team` has cleared.
    pub fn cleared(&self, team: Team) -> u32 {
        self.cleared[team.index()]
    }

    /// Time charged to `team`, ms.
    pub fn time_used(&self, team: Team) -> u64 {
        self.time_used[team.index()]
    }

    /// `team`'s clock, ms.
    pub fn team_left(&self, team: Team) -> u64 {
        self.team_left[team.index()]
    }

    /// The game clock, ms.
    pub fn game_left(&self) -> u64 {
        self.game_left
    }

    /// True when `team` is out of time.
    pub fn is_out(&self, team: Team) -> bool {
        self.out[team.index()]
    }

    /// Objects on the whole field.
    pub fn on_field(&self) -> u32 {
        self.on_field
    }

    /// The time the team to move may use: the less of its clock and the
    /// game clock (§7.2).
    pub fn time_left(&self) -> u64 {
        self.team_left[self.to_move.index()].min(self.game_left)
    }

    /// The indices of the cells next to the cell at `index`.
    pub fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let size = self.size;
        size.neighbours(size.cell(index))
            .map(move |cell| size.index(cell))
    }

    /// The cell at `index`.
    pub fn cell(&self, index: usize) -> Cell {
        self.size.cell(index)
    }

    /// True once the game has ended (§8.1).
    pub fn is_terminal(&self) -> bool {
        self.ended.is_some()
    }

    /// Why the game ended, once it has.
    pub fn ended(&self) -> Option<End> {
        self.ended
    }

    /// The match's standing from A's side, in one number ordered as §9.2
    /// orders a match: the territory difference, then the objects cleared,
    /// then the time used (less is better), over game 1 (when the position
    /// carries it) and this game so far. Its sign at the end of game 2 is
    /// the match's winner (§9.3: two game wins mean the larger territory
    /// total); in game 1
    /// it is game 1's part of the totals.
    pub fn value(&self) -> i64 {
        let territory = i64::from(self.territory[0]) - i64::from(self.territory[1]);
        territory * TERRITORY + self.accumulated()
    }

    /// This game's part of [`Position::value`], game 1 left out.
    pub fn game_value(&self) -> i64 {
        self.value() - self.carried
    }

    /// The part of [`Position::value`] that only grows with the game
    /// (objects, time, and what game 1 carries), which a key leaves out.
    pub fn accumulated(&self) -> i64 {
        let objects = i64::from(self.cleared[0]) - i64::from(self.cleared[1]);
        let time = self.time_used[1] as i64 - self.time_used[0] as i64;
        objects * OBJECT + time + self.carried
    }

    /// Each team's return (OpenSpiel's `returns`): [`Position::value`] for
    /// A, its negation for B.
    pub fn returns(&self) -> PerTeam<i64> {
        let value = self.value();
        PerTeam {
            a: value,
            b: -value,
        }
    }

    /// What `action` would take off the clock of the team to move, before
    /// any timeout: its cost in this position's model (a timeout costs all
    /// that is left).
    pub fn cost(&self, action: &Action) -> u64 {
        match (action.kind, self.costs) {
            (Kind::Timeout, _) => self.time_left(),
            (_, CostModel::Flat(ms)) => ms.max(1),
            (kind, CostModel::Virtual) => {
                let objects: u64 = action.counts().iter().map(|&n| u64::from(n)).sum();
                let empty = if action.empty == EmptyAt::None {
                    0
                } else {
                    cost::EMPTY_MS
                };
                empty
                    + match kind {
                        Kind::Clear => cost::clear_ms(action.cells().len(), objects),
                        Kind::Place => cost::place_ms(objects),
                        Kind::Move => cost::MOVE_MS,
                        Kind::Pass | Kind::Timeout => cost::PASS_MS,
                    }
            }
        }
    }

    /// Plays `action` (one of [`Position::legal_actions`] or
    /// [`Position::every_action`]) for the team to move: a turn that costs
    /// more than the time left times out (§7.2), charging what is left and
    /// doing nothing else.
    pub fn apply(&mut self, action: &Action) {
        let team = self.to_move;
        let t = team.index();
        let left = self.time_left();
        let cost = self.cost(action);
        let charged = if cost > left || action.kind == Kind::Timeout {
            left
        } else {
            if action.empty == EmptyAt::Before {
                self.set_load(t, 0);
            }
            match action.kind {
                Kind::Clear => {
                    let mut taken = 0;
                    for (&cell, &n) in action.cells().iter().zip(action.counts()) {
                        let index = usize::from(cell);
                        let left = self.count(index) - n;
                        self.set_count(index, left);
                        if left == 0 {
                            self.set_owner(index, Some(team));
                        }
                        taken += n;
                    }
                    self.key ^= zobrist(Fact::Cleared, t, u64::from(self.cleared[t]))
                        ^ zobrist(Fact::Cleared, t, u64::from(self.cleared[t] + taken));
                    self.cleared[t] += taken;
                    self.set_load(t, self.load[t] + taken);
                }
                Kind::Place => {
                    let mut placed = 0;
                    for (&cell, &n) in action.cells().iter().zip(action.counts()) {
                        let index = usize::from(cell);
                        if let Some(owner) = self.owner(index) {
                            self.set_owner(index, None);
                            if self.current(owner) == Some(index) {
                                self.set_current(owner.index(), NO_CELL);
                            }
                        }
                        self.set_count(index, self.count(index) + n);
                        placed += n;
                    }
                    self.set_stock(t, self.stock[t] - placed);
                }
                Kind::Move => self.set_current(t, u16::from(action.cells()[0])),
                Kind::Pass | Kind::Timeout => {}
            }
            if action.empty == EmptyAt::After {
                self.set_load(t, 0);
            }
            cost
        };
        self.charge(t, charged);
    }

    fn charge(&mut self, t: usize, charged: u64) {
        self.key ^= zobrist(Fact::TeamLeft, t, self.team_left[t]);
        self.team_left[t] -= charged;
        self.key ^= zobrist(Fact::TeamLeft, t, self.team_left[t]);
        self.key ^= zobrist(Fact::GameLeft, 0, self.game_left);
        self.game_left -= charged;
        self.key ^= zobrist(Fact::GameLeft, 0, self.game_left);
        self.time_used[t] += charged;
        if self.team_left[t] == 0 && !self.out[t] {
            self.out[t] = true;
            self.key ^= zobrist(Fact::Out, t, 0) ^ zobrist(Fact::Out, t, 1);
        }
        let team = self.to_move;
        let next = if self.out[team.other().index()] {
            team
        } else {
            team.other()
        };
        if next != team {
            self.key ^= zobrist(Fact::ToMove, 0, team.index() as u64)
                ^ zobrist(Fact::ToMove, 0, next.index() as u64);
            self.to_move = next;
        }
        self.ended = if self.on_field == 0 {
            Some(End::Cleared)
        } else if self.game_left == 0 {
            Some(End::Time)
        } else if self.out[0] && self.out[1] {
            Some(End::BothOut)
        } else {
            None
        };
    }

    fn set_count(&mut self, index: usize, count: u32) {
        let old = self.counts[index];
        self.key ^= zobrist(Fact::Count, index, u64::from(old));
        self.on_field = self.on_field - u32::from(old) + count;
        self.counts[index] = count as u16;
        self.key ^= zobrist(Fact::Count, index, u64::from(count));
    }

    fn set_owner(&mut self, index: usize, owner: Option<Team>) {
        let old = self.owners[index];
        if let Some(team) = owner_of(old) {
            self.territory[team.index()] -= 1;
        }
        if let Some(team) = owner {
            self.territory[team.index()] += 1;
        }
        let new = owner_code(owner);
        self.key ^= zobrist(Fact::Owner, index, u64::from(old))
            ^ zobrist(Fact::Owner, index, u64::from(new));
        self.owners[index] = new;
    }

    fn set_current(&mut self, t: usize, cell: u16) {
        self.key ^= zobrist(Fact::Current, t, u64::from(self.current[t]))
            ^ zobrist(Fact::Current, t, u64::from(cell));
        self.current[t] = cell;
    }

    fn set_load(&mut self, t: usize, load: u32) {
        self.key ^= zobrist(Fact::Load, t, u64::from(self.load[t]))
            ^ zobrist(Fact::Load, t, u64::from(load));
        self.load[t] = load;
    }

    fn set_stock(&mut self, t: usize, stock: u32) {
        self.key ^= zobrist(Fact::Stock, t, u64::from(self.stock[t]))
            ^ zobrist(Fact::Stock, t, u64::from(stock));
        self.stock[t] = stock;
    }
}
