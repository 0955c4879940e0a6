//! A match record built in code, written as a `.ktz` log in the canonical
//! form (§11.6): for programs that play matches and for tests.

use std::fmt;

use crate::model::field::Cell;
use crate::model::params::Params;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Play, Seconds, Turn};

/// One game of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Who takes turn 1.
    pub first: Team,
    /// Each team's start cells: one for the first team, two for the second.
    pub start: PerTeam<Vec<Cell>>,
    /// Each team's current territory, one of its start cells.
    pub current: PerTeam<Cell>,
    /// The turns in order, each with its comment.
    pub turns: Vec<(Turn, Option<String>)>,
}

/// A whole match: names, parameters (the same for both games), the two
/// games, and the janken if one was needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// The teams' names.
    pub names: PerTeam<Option<String>>,
    /// The parameters of both games.
    pub params: Params,
    /// Game 1, then game 2.
    pub games: Vec<GameRecord>,
    /// The janken winner, when the log records one.
    pub janken: Option<Team>,
}

impl fmt::Display for MatchRecord {
    /// The `.ktz` log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "katazuke 1")?;
        for team in Team::BOTH {
            if let Some(name) = &self.names[team] {
                writeln!(f, "{team}: {name}")?;
            }
        }
        let params = &self.params;
        writeln!(f, "capacity: {}", params.capacity)?;
        if params.stock.first == params.stock.second {
            writeln!(f, "stock: {}", params.stock.first)?;
        } else {
            writeln!(f, "stock: {} {}", params.stock.first, params.stock.second)?;
        }
        writeln!(f, "team time: {}", Seconds(params.team_time))?;
        writeln!(f, "game time: {}", Seconds(params.game_time))?;
        writeln!(f, "field:")?;
        for row in params.field.rows() {
            let counts: Vec<String> = row.iter().map(u32::to_string).collect();
            writeln!(f, "  {}", counts.join(" "))?;
        }
        for (index, game) in self.games.iter().enumerate() {
            writeln!(f)?;
            writeln!(f, "game {}", index + 1)?;
            game.write_start(f)?;
            for (number, (turn, comment)) in game.turns.iter().enumerate() {
                write_turn_line(f, number + 1, turn, comment.as_deref())?;
            }
        }
        if let Some(team) = self.janken {
            writeln!(f)?;
            writeln!(f, "janken: {team}")?;
        }
        Ok(())
    }
}

impl GameRecord {
    /// The game's `first:` and start lines (§11.2), the second team's
    /// current cell marked `*`.
    pub fn write_start(&self, f: &mut impl fmt::Write) -> fmt::Result {
        writeln!(f, "first: {}", self.first)?;
        for team in [self.first, self.first.other()] {
            let cells: Vec<String> = self.start[team]
                .iter()
                .map(|&cell| {
                    if team != self.first && cell == self.current[team] {
                        format!("{cell}*")
                    } else {
                        cell.to_string()
                    }
                })
                .collect();
            writeln!(f, "{team} start: {}", cells.join(" "))?;
        }
        Ok(())
    }
}

/// A turn line as the canonical form writes it (§11.6): its number, team,
/// duration and steps (or `timeout`), and its comment.
pub fn write_turn_line(
    f: &mut impl fmt::Write,
    number: usize,
    turn: &Turn,
    comment: Option<&str>,
) -> fmt::Result {
    write!(f, "{number:>2}. {} ", turn.team)?;
    match &turn.play {
        Play::Timeout => write!(f, "timeout")?,
        play => write!(f, "{play}")?,
    }
    if let Some(comment) = comment {
        write!(f, "  # {comment}")?;
    }
    writeln!(f)
}
