//! A live match at the desk (the contest's timer PC): games started by the
//! operator, turns entered as the teams play them and refereed at once,
//! the clock of the team to move running between turns, timeouts when it
//! runs out (§7), undo, pause and comments, each written into the record.
//!
//! Nothing here reads a clock: every call is given `now`, milliseconds on
//! the desk's own monotonic clock, so that a session is the same function
//! of its calls in a test as at the desk.

use std::fmt::Write as _;

use crate::log::lines;
use crate::log::record::{write_turn_line, GameRecord};
use crate::model::code::Code;
use crate::model::setup::MatchSetup;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Play, Seconds, Turn};
use crate::rules::game::{GameReferee, Policy};
use crate::rules::result::{GameResult, MatchResult};

/// How a turn's duration is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeskClock {
    /// Measured: from the end of the turn before (or the game's start) to
    /// the turn's end, pauses left out. A clock that runs out ends the
    /// team's turn with `timeout`.
    Wall,
    /// Entered with each turn: for typing in a paper record, and tests.
    Manual,
}

/// Why the desk refused something. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeskError {
    /// The turn breaks a rule: its code (§10) and what is wrong, ending
    /// with the rule's section.
    Rule {
        /// The rule's code.
        code: Code,
        /// What is wrong.
        message: String,
    },
    /// The request is for another turn than the one being played: the
    /// page that sent it is behind (another browser acted first).
    OutOfOrder(String),
    /// Not now: no game is being played, the desk is paused, the match
    /// is over.
    NotNow(String),
    /// The request itself is wrong (a duration missing or out of range).
    Bad(String),
}

impl std::fmt::Display for DeskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeskError::Rule { code, message } => write!(f, "{message} [{code}]"),
            DeskError::OutOfOrder(why) | DeskError::NotNow(why) | DeskError::Bad(why) => {
                f.write_str(why)
            }
        }
    }
}

impl std::error::Error for DeskError {}

/// A turn as the operator enters it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnEntry {
    /// The game it is for, 1 or 2.
    pub game: u8,
    /// Its number in the game, from 1: the turn being played.
    pub turn: u32,
    /// Its steps in the grammar of §11.2 (`clear b1:2 a2:2`, short forms
    /// too), or `timeout`.
    pub steps: String,
    /// Its duration in ms: required under [`DeskClock::Manual`], ignored
    /// under the wall clock, which measures it.
    pub duration: Option<u64>,
    /// A comment kept with the turn.
    pub comment: Option<String>,
}

/// What became of a turn entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entered {
    /// Applied now.
    Applied,
    /// The same turn had been applied already (sent twice): nothing done.
    AlreadyApplied,
}

/// A line of a game's record: a turn, or a note of the desk's (a pause,
/// an undo), written as a comment line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Line {
    Turn(Turn, Option<String>),
    Note(String),
}

/// A game started at the desk.
#[derive(Clone, Debug)]
struct GamePlayed {
    referee: GameReferee,
    lines: Vec<Line>,
}

impl GamePlayed {
    fn turns(&self) -> impl Iterator<Item = (&Turn, &Option<String>)> {
        self.lines.iter().filter_map(|line| match line {
            Line::Turn(turn, comment) => Some((turn, comment)),
            Line::Note(_) => None,
        })
    }
}

/// The running turn's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TurnClock {
    /// When the turn began.
    began: u64,
    /// Time paused within it, before `paused_at`.
    paused: u64,
    /// When the current pause began, if paused.
    paused_at: Option<u64>,
}

impl TurnClock {
    fn new(began: u64) -> TurnClock {
        TurnClock {
            began,
            paused: 0,
            paused_at: None,
        }
    }

    /// The turn's time so far, pauses left out.
    fn elapsed(&self, now: u64) -> u64 {
        let until = self.paused_at.unwrap_or(now).max(self.began);
        (until - self.began).saturating_sub(self.paused)
    }
}

/// A match at the desk.
#[derive(Clone, Debug)]
pub struct DeskSession {
    /// The record's header, as given (its lines up to the first game).
    header: String,
    setup: MatchSetup,
    clock: DeskClock,
    games: Vec<GamePlayed>,
    /// The running turn's clock, while a game is played.
    turn_clock: Option<TurnClock>,
    /// The teams' names, from the header.
    names: PerTeam<String>,
    /// The janken's winner, when the match needed one.
    janken: Option<Team>,
    /// Bumped by every change, so that pages know when to redraw.
    version: u64,
}

impl DeskSession {
    /// A match about to begin: `header` is the record's header text (the
    /// parameters file's lines before its first game), `setup` its
    /// parameters and both games' starts.
    pub fn new(header: &str, setup: MatchSetup, clock: DeskClock) -> DeskSession {
        let mut header = header.trim_end().to_string();
        header.push('\n');
        let names = crate::log::reader::read_setup(header.as_bytes())
            .map(|read| read.start.teams)
            .unwrap_or_else(|_| PerTeam::from_fn(|team| team.letter().to_string()));
        DeskSession {
            names,
            header,
            setup,
            clock,
            games: Vec::new(),
            turn_clock: None,
            janken: None,
            version: 0,
        }
    }

    /// How durations are known.
    pub fn clock(&self) -> DeskClock {
        self.clock
    }

    /// The match's parameters and starts.
    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    /// The teams' names, as the header gives them.
    pub fn names(&self) -> &PerTeam<String> {
        &self.names
    }

    /// Bumped by every change.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The game being played or last played, if one has started.
    pub fn state(&self) -> Option<&GameState> {
        self.games.last().map(|game| game.referee.state())
    }

    /// Games started, 0 to 2.
    pub fn games_started(&self) -> u8 {
        self.games.len() as u8
    }

    /// True while the clock is stopped by a pause.
    pub fn is_paused(&self) -> bool {
        self.turn_clock
            .is_some_and(|clock| clock.paused_at.is_some())
    }

    /// True while a game is being played.
    pub fn in_game(&self) -> bool {
        self.state().is_some_and(|state| state.ended.is_none())
    }

    /// Each game's result, of the games that ended.
    pub fn results(&self) -> Vec<GameResult> {
        self.games
            .iter()
            .map(|game| game.referee.state())
            .filter(|state| state.ended.is_some())
            .map(GameResult::of_state)
            .collect()
    }

    /// The match's result once both games ended (criterion 5 left to the
    /// janken until it is entered).
    pub fn match_result(&self) -> Option<MatchResult> {
        let results = self.results();
        (results.len() == 2).then(|| MatchResult::decide(&results, self.janken))
    }

    /// True once both games ended and the winner is known.
    pub fn is_over(&self) -> bool {
        self.match_result()
            .is_some_and(|result| !result.needs_janken())
    }

    /// The time the team to move has used of its turn so far.
    pub fn turn_elapsed(&self, now: u64) -> u64 {
        self.turn_clock.map_or(0, |clock| clock.elapsed(now))
    }

    /// Each team's clock and the game clock as they stand at `now`: the
    /// running turn's time taken from the mover's and the game's.
    pub fn clocks(&self, now: u64) -> Option<(PerTeam<u64>, u64)> {
        let state = self.state()?;
        let mut team_left = state.team_left;
        let mut game_left = state.game_left;
        if state.ended.is_none() && self.clock == DeskClock::Wall {
            let used = self.turn_elapsed(now).min(state.time_left(state.to_move));
            team_left[state.to_move] -= used;
            game_left -= used;
        }
        Some((team_left, game_left))
    }

    /// Sets up another match before game 1 starts, from a parameters
    /// file's text (its header, and optionally both games' start lines;
    /// symmetric starts when it gives none).
    pub fn set_up(&mut self, text: &str) -> Result<(), DeskError> {
        if !self.games.is_empty() {
            return Err(DeskError::NotNow(
                "the match has begun: a new one is set up before game 1 starts".into(),
            ));
        }
        let setup = super::setup::setup_of(text.as_bytes(), None)
            .map_err(|problem| DeskError::Bad(problem.0))?;
        let version = self.version;
        *self = DeskSession::new(super::setup::header_of(text), setup, self.clock);
        self.version = version + 1;
        Ok(())
    }

    /// Starts the next game: game 1, or game 2 once game 1 has ended.
    pub fn start_game(&mut self, now: u64) -> Result<u8, DeskError> {
        if self.in_game() {
            return Err(DeskError::NotNow(format!(
                "game {} is being played",
                self.games.len()
            )));
        }
        if self.games.len() == 2 {
            return Err(DeskError::NotNow("both games have been played".into()));
        }
        let number = self.games.len() as u8 + 1;
        let referee = self.referee_of(self.games.len())?;
        let ended = referee.state().ended.is_some();
        self.games.push(GamePlayed {
            referee,
            lines: Vec::new(),
        });
        self.turn_clock = (!ended).then(|| TurnClock::new(now));
        self.version += 1;
        Ok(number)
    }

    /// Enters a turn: checked against the rules before anything is
    /// applied. The same turn entered twice is applied once.
    pub fn enter(&mut self, now: u64, entry: &TurnEntry) -> Result<Entered, DeskError> {
        self.catch_up(now);
        let Some(game) = self.games.last() else {
            return Err(DeskError::NotNow("no game has started".into()));
        };
        let state = game.referee.state();
        let expected = (state.game, state.turns + 1);
        if (entry.game, entry.turn) != expected {
            let earlier = self.played_turn(entry.game, entry.turn);
            if let Some(turn) = earlier {
                if self.same_as_entered(turn, entry) {
                    return Ok(Entered::AlreadyApplied);
                }
            }
            return Err(DeskError::OutOfOrder(format!(
                "this is game {}, turn {}; the turn entered was for game {}, turn {}",
                expected.0, expected.1, entry.game, entry.turn
            )));
        }
        if self.is_paused() {
            return Err(DeskError::NotNow("the desk is paused: resume first".into()));
        }
        let team = state.to_move;
        let play = match read_play(team, &entry.steps, state)? {
            Play::Timeout => Play::Timeout,
            Play::Steps { steps, .. } => Play::Steps {
                duration: self.duration(now, entry)?,
                steps,
            },
        };
        let comment = entry
            .comment
            .as_deref()
            .map(one_line)
            .filter(|comment| !comment.is_empty());
        // The referee checks the turn (§10.6.8: the game not over, then
        // the time, then each step) and applies nothing it refuses.
        self.apply(now, Turn { team, play }, comment)?;
        Ok(Entered::Applied)
    }

    /// Takes back the last turn of the game being played (or of the game
    /// that just ended, before the next starts); a note in the record says
    /// what was taken back.
    pub fn undo(&mut self, now: u64, game: u8, turn: u32) -> Result<(), DeskError> {
        self.catch_up(now);
        let Some(played) = self.games.last() else {
            return Err(DeskError::NotNow("no game has started".into()));
        };
        let state = played.referee.state();
        if state.turns == 0 {
            return Err(DeskError::NotNow(format!(
                "game {} has no turn to take back",
                state.game
            )));
        }
        if (game, turn) != (state.game, state.turns) {
            return Err(DeskError::OutOfOrder(format!(
                "the last turn is game {}, turn {}; the undo was for game {game}, turn {turn}",
                state.game, state.turns
            )));
        }
        let number = state.turns as usize;
        let index = self.games.len() - 1;
        let mut lines = self.games[index].lines.clone();
        let Some(at) = lines
            .iter()
            .rposition(|line| matches!(line, Line::Turn(..)))
        else {
            return Err(DeskError::NotNow("there is no turn to take back".into()));
        };
        if let Line::Turn(taken, _) = lines.remove(at) {
            let mut undone = String::new();
            let _ = write_turn_line(&mut undone, number, &taken, None);
            lines.push(Line::Note(format!("undone: {}", undone.trim())));
        }
        let mut referee = self.referee_of(index)?;
        for line in &lines {
            if let Line::Turn(turn, comment) = line {
                // Every turn kept was applied before: it applies again.
                let _ = referee.play(turn.clone(), None, comment.as_deref(), &mut |_, _| {});
            }
        }
        self.games[index] = GamePlayed { referee, lines };
        self.turn_clock = Some(TurnClock::new(now));
        self.version += 1;
        Ok(())
    }

    /// Stops the running clock (an organiser's problem).
    pub fn pause(&mut self, now: u64) -> Result<(), DeskError> {
        self.catch_up(now);
        let in_game = self.in_game();
        let Some(clock) = self.turn_clock.as_mut().filter(|_| in_game) else {
            return Err(DeskError::NotNow("no clock is running".into()));
        };
        if clock.paused_at.is_some() {
            return Err(DeskError::NotNow("the desk is paused already".into()));
        }
        clock.paused_at = Some(now);
        self.version += 1;
        Ok(())
    }

    /// Starts the clock again after a pause; the record notes how long it
    /// stood.
    pub fn resume(&mut self, now: u64) -> Result<(), DeskError> {
        let Some(clock) = self.turn_clock.as_mut() else {
            return Err(DeskError::NotNow("the desk is not paused".into()));
        };
        let Some(since) = clock.paused_at.take() else {
            return Err(DeskError::NotNow("the desk is not paused".into()));
        };
        let stood = now.saturating_sub(since);
        clock.paused += stood;
        if let Some(game) = self.games.last_mut() {
            game.lines
                .push(Line::Note(format!("paused {} s", Seconds(stood))));
        }
        self.version += 1;
        Ok(())
    }

    /// Adds `text` to the comment of the last turn played.
    pub fn comment(&mut self, game: u8, turn: u32, text: &str) -> Result<(), DeskError> {
        let text = one_line(text);
        if text.is_empty() {
            return Err(DeskError::Bad("the comment is empty".into()));
        }
        let Some(played) = self
            .games
            .get_mut(usize::from(game).wrapping_sub(1))
            .filter(|_| turn > 0)
        else {
            return Err(DeskError::OutOfOrder(format!("there is no game {game}")));
        };
        let mut seen = 0;
        for line in &mut played.lines {
            if let Line::Turn(_, comment) = line {
                seen += 1;
                if seen == turn {
                    *comment = Some(match comment.take() {
                        Some(before) => format!("{before}; {text}"),
                        None => text,
                    });
                    self.version += 1;
                    return Ok(());
                }
            }
        }
        Err(DeskError::OutOfOrder(format!(
            "game {game} has no turn {turn} yet"
        )))
    }

    /// Enters the janken's winner, when the match needs one (§9.2,
    /// criterion 5).
    pub fn janken(&mut self, winner: Team) -> Result<(), DeskError> {
        match self.match_result() {
            Some(result) if result.needs_janken() || self.janken.is_some() => {
                self.janken = Some(winner);
                self.version += 1;
                Ok(())
            }
            _ => Err(DeskError::NotNow(
                "a janken decides only a match level on every count after both games".into(),
            )),
        }
    }

    /// Under the wall clock, ends every turn whose clock ran out before `now`
    /// with `timeout` (§7.3), as the timer PC would. True if any did.
    pub fn catch_up(&mut self, now: u64) -> bool {
        let mut changed = false;
        while self.clock == DeskClock::Wall && self.in_game() && !self.is_paused() {
            let (Some(state), Some(clock)) = (self.state(), self.turn_clock) else {
                break;
            };
            let left = state.time_left(state.to_move);
            // A turn that ends with exactly its time left is completed
            // (§7.2): the clock has run out only past it.
            if clock.elapsed(now) <= left {
                break;
            }
            // The next turn began when this one's time ran out.
            let ran_out = clock.began + clock.paused + left;
            let team = state.to_move;
            let timeout = Turn {
                team,
                play: Play::Timeout,
            };
            // A timeout is always legal while the game goes on.
            if self
                .apply(ran_out, timeout, Some("the clock ran out".into()))
                .is_err()
            {
                break;
            }
            changed = true;
        }
        changed
    }

    /// The record so far: the header, each game's start lines, turns,
    /// notes and result, and the winner once known (§11.2).
    pub fn record_text(&self) -> String {
        let mut text = self.header.clone();
        for (index, game) in self.games.iter().enumerate() {
            let setup = &self.setup.games()[index];
            let record = GameRecord {
                first: setup.first,
                start: setup.start.clone(),
                current: setup.current,
                turns: Vec::new(),
            };
            let _ = write!(text, "\ngame {}\n", index + 1);
            let _ = record.write_start(&mut text);
            let mut number = 0;
            for line in &game.lines {
                match line {
                    Line::Turn(turn, comment) => {
                        number += 1;
                        let _ = write_turn_line(&mut text, number, turn, comment.as_deref());
                    }
                    Line::Note(note) => {
                        let _ = writeln!(text, "# {note}");
                    }
                }
            }
            let state = game.referee.state();
            if state.ended.is_some() {
                let _ = writeln!(
                    text,
                    "result: A {} B {}",
                    state.territory(Team::A),
                    state.territory(Team::B)
                );
            }
        }
        if let Some(result) = self.match_result() {
            let mut end = String::new();
            if let Some(winner) = result.winner {
                let _ = writeln!(end, "winner: {winner}");
            }
            if let Some(janken) = self.janken {
                let _ = writeln!(end, "janken: {janken}");
            }
            if !end.is_empty() {
                text.push('\n');
                text.push_str(&end);
            }
        }
        text
    }

    /// The turn `turn` of game `game`, if it has been played.
    fn played_turn(&self, game: u8, turn: u32) -> Option<&Turn> {
        let played = self.games.get(usize::from(game).checked_sub(1)?)?;
        played
            .turns()
            .nth(turn.checked_sub(1)? as usize)
            .map(|(turn, _)| turn)
    }

    /// True when `entry` says what `turn` did (a page that sent it twice).
    fn same_as_entered(&self, turn: &Turn, entry: &TurnEntry) -> bool {
        let Some(state) = self.state() else {
            return false;
        };
        match read_play(turn.team, &entry.steps, state) {
            Ok(Play::Timeout) => turn.play == Play::Timeout,
            Ok(Play::Steps { steps, .. }) => {
                matches!(&turn.play, Play::Steps { steps: played, .. } if *played == steps)
            }
            Err(_) => false,
        }
    }

    /// The entered turn's duration: measured, or given.
    fn duration(&self, now: u64, entry: &TurnEntry) -> Result<u64, DeskError> {
        match self.clock {
            DeskClock::Wall => Ok(self.turn_elapsed(now)),
            DeskClock::Manual => match entry.duration {
                Some(ms) if ms <= 7_200_000 => Ok(ms),
                Some(ms) => Err(DeskError::Bad(format!(
                    "a duration of {} s is longer than any game (§2.1)",
                    Seconds(ms)
                ))),
                None => Err(DeskError::Bad(
                    "under the manual clock each turn gives its duration".into(),
                )),
            },
        }
    }

    /// Game `index + 1` as it begins, refereed strictly.
    fn referee_of(&self, index: usize) -> Result<GameReferee, DeskError> {
        let game = &self.setup.games()[index];
        GameReferee::start(
            index as u8 + 1,
            self.setup.params(),
            game.first,
            game.start.clone(),
            game.current,
            Policy::Strict,
            &mut |_, _| {},
        )
        .map_err(|violation| DeskError::Rule {
            code: violation.code,
            message: violation.message,
        })
    }

    /// Writes a note of the desk's into the game's record.
    pub(super) fn note(&mut self, note: String) {
        if let Some(game) = self.games.last_mut() {
            game.lines.push(Line::Note(note));
            self.version += 1;
        }
    }

    /// Referees `turn` and, if the referee takes it, writes it down and
    /// starts the next turn's clock at `now`.
    pub(super) fn apply(
        &mut self,
        now: u64,
        turn: Turn,
        comment: Option<String>,
    ) -> Result<(), DeskError> {
        let Some(game) = self.games.last_mut() else {
            return Err(DeskError::NotNow("no game has started".into()));
        };
        game.referee
            .play(turn.clone(), None, comment.as_deref(), &mut |_, _| {})
            .map_err(|violation| DeskError::Rule {
                code: violation.code,
                message: violation.message,
            })?;
        game.lines.push(Line::Turn(turn, comment));
        let ended = game.referee.state().ended.is_some();
        self.turn_clock = (!ended).then(|| TurnClock::new(now));
        self.version += 1;
        Ok(())
    }
}

/// A turn's steps read in the grammar of §11.2 (short forms allowed), for
/// `team` on the game's field: `timeout`, or steps with no duration yet.
fn read_play(team: Team, text: &str, state: &GameState) -> Result<Play, DeskError> {
    let text = lines::trim_blanks(text);
    if text == "timeout" {
        return Ok(Play::Timeout);
    }
    if text.contains('#') {
        return Err(DeskError::Bad(
            "steps have no comment; give it as the comment".into(),
        ));
    }
    if text.contains(['\n', '\r']) {
        return Err(DeskError::Bad("a turn's steps are one line".into()));
    }
    if text.is_empty() {
        return Err(DeskError::Bad(
            "no steps: a turn is an action (clear, place, move, pass) or timeout".into(),
        ));
    }
    let line = format!("{team} 0 {text}");
    match lines::turn(&lines::split(&line), state.size()) {
        Ok(read) => Ok(read.play),
        Err(error) => Err(DeskError::Rule {
            code: error.code,
            message: error.message,
        }),
    }
}

/// A comment as one line: line breaks become spaces, and the ends are
/// trimmed.
fn one_line(text: &str) -> String {
    text.split(['\n', '\r'])
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
