//! A match played and refereed at once (§15.1): each turn is asked of the
//! team's player, timed by the clock in use, checked by the referee and
//! told to both players; what a player could not do (answer in time, answer
//! at all, answer legally) becomes a timeout or a pass, and never stops
//! the match. The result is a match record that `katazuke check` accepts.

use std::time::{Duration, Instant};

use super::player::{Answer, Clock, Go, Player, Silence};
use super::protocol::{read_answer, Message};
use crate::engine::action::Words;
use crate::engine::cost::{virtual_duration, PASS_MS};
use crate::log::record::{GameRecord, MatchRecord};
use crate::model::event::Event;
use crate::model::params::Params;
use crate::model::setup::{GameSetup, MatchSetup};
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Play, Step, Turn};
use crate::rules::game::{GameReferee, Policy};
use crate::rules::legality::{check_steps, Violation};

/// What becomes of a player that answers garbage, an illegal turn, or
/// cannot answer at all (§15.1 `--illegal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OnIllegal {
    /// The turn is a pass (its time charged).
    #[default]
    Pass,
    /// The team lets its clock run out: out for the game.
    Out,
}

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayOptions {
    /// Which clock runs.
    pub clock: Clock,
    /// Under the virtual clock, how long a player may think over a turn.
    pub think: Duration,
    /// What an illegal or missing answer becomes.
    pub illegal: OnIllegal,
    /// Under the wall clock, how late an answer may come and still count
    /// (charged the time that was left): the slack of measuring a
    /// program's time through pipes and a busy scheduler, as
    /// cutechess-cli's `timemargin`.
    pub margin: Duration,
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            clock: Clock::Wall,
            think: Duration::from_millis(1_000),
            illegal: OnIllegal::Pass,
            margin: Duration::ZERO,
        }
    }
}

/// Plays a whole match between `players` (A's and B's) and returns its
/// record, each turn's comment saying what went wrong, if anything. An
/// error only when a start is not one §3.1 allows (every answer is
/// judged before the referee sees it, so the referee refuses no turn).
pub fn play_match(
    setup: &MatchSetup,
    players: PerTeam<&mut dyn Player>,
    options: &PlayOptions,
) -> Result<MatchRecord, Violation> {
    let PerTeam { a, b } = players;
    let mut players: [&mut dyn Player; 2] = [a, b];
    for (team, player) in Team::BOTH.into_iter().zip(players.iter_mut()) {
        player.tell(&Message::Match { you: team });
    }
    let mut games = Vec::new();
    for (index, game) in setup.games().iter().enumerate() {
        games.push(play_game(
            index as u8 + 1,
            setup.params(),
            game,
            &mut players,
            options,
        )?);
    }
    for player in players.iter_mut() {
        player.tell(&Message::Quit);
    }
    let names = PerTeam::from_fn(|team| Some(record_name(&players[team.index()].label())));
    Ok(MatchRecord {
        names,
        params: setup.params().clone(),
        games,
        janken: None,
    })
}

/// A label as a log's team name: at most 40 characters, no `#` (which
/// would start a comment).
fn record_name(label: &str) -> String {
    label
        .chars()
        .map(|c| if c == '#' || c.is_control() { '_' } else { c })
        .take(40)
        .collect::<String>()
        .trim()
        .to_string()
}

fn play_game(
    number: u8,
    params: &Params,
    game: &GameSetup,
    players: &mut [&mut dyn Player; 2],
    options: &PlayOptions,
) -> Result<GameRecord, Violation> {
    let mut referee = GameReferee::start(
        number,
        params,
        game.first,
        game.start.clone(),
        game.current,
        Policy::Strict,
        &mut |_, _| {},
    )?;
    for player in players.iter_mut() {
        player.tell(&Message::Game {
            number,
            params,
            first: game.first,
            start: &game.start,
            current: game.current,
        });
    }
    let mut turns = Vec::new();
    while referee.state().ended.is_none() {
        let state = referee.state();
        let team = state.to_move;
        let left = state.time_left(team);
        let limit = match options.clock {
            Clock::Wall => Duration::from_millis(left).saturating_add(options.margin),
            Clock::Virtual => options.think,
        };
        let asked = Instant::now();
        let answer = players[team.index()].answer(&Go {
            state,
            clock: options.clock,
            limit,
        });
        // Whole milliseconds, rounded up: an answer takes some time, and a
        // turn of 0 ms would be a warning of the log (§10.4).
        let mut elapsed = (asked.elapsed().as_micros() as u64).div_ceil(1000).max(1);
        let late = match options.clock {
            Clock::Wall
                if elapsed > left && elapsed - left <= options.margin.as_millis() as u64 =>
            {
                let late = elapsed - left;
                elapsed = left;
                Some(late)
            }
            _ => None,
        };
        let (turn, mut comment) = judge(state, answer, elapsed, options);
        if let (Some(late), None) = (late, &comment) {
            comment = Some(format!(
                "answered {late} ms after its clock ran out, within the time margin: charged the {left} ms left"
            ));
        }
        let mut charged = 0;
        let mut note = |_: &GameState, event: Event| {
            if let Event::TurnEnd { charged: c, .. } = event {
                charged = c;
            }
        };
        // `judge` checked the steps: the referee takes them.
        referee.play(turn.clone(), None, None, &mut note)?;
        let applied = match &turn.play {
            Play::Steps { steps, .. } => Some(steps.as_slice()),
            Play::Timeout => None,
        };
        for player in players.iter_mut() {
            player.tell(&Message::Played {
                team,
                charged,
                steps: applied,
            });
        }
        turns.push((turn, comment));
    }
    let state = referee.state();
    let territory = PerTeam::from_fn(|team| state.territory(team));
    for player in players.iter_mut() {
        player.tell(&Message::Result { territory });
    }
    Ok(GameRecord {
        first: game.first,
        start: game.start.clone(),
        current: game.current,
        turns,
    })
}

/// The turn an answer stands for: steps that break a rule are illegal
/// whatever they would cost, and legal ones that cost more than the time
/// left time out (§7.2).
fn judge(
    state: &GameState,
    answer: Answer,
    elapsed: u64,
    options: &PlayOptions,
) -> (Turn, Option<String>) {
    let team = state.to_move;
    let left = state.time_left(team);
    let timeout = |comment: String| {
        (
            Turn {
                team,
                play: Play::Timeout,
            },
            Some(comment),
        )
    };
    let steps = match answer {
        Answer::Steps(steps) => steps,
        Answer::Timeout => {
            return (
                Turn {
                    team,
                    play: Play::Timeout,
                },
                None,
            )
        }
        Answer::Line(line) => match read_answer(team, &line, state) {
            Ok(Some(steps)) => steps,
            Ok(None) => return judge(state, Answer::Timeout, elapsed, options),
            Err(message) => {
                return illegal(
                    state,
                    &format!("{}: {message}", quoted(&line)),
                    elapsed,
                    options,
                )
            }
        },
        Answer::Unreadable(why) => return illegal(state, &why, elapsed, options),
        Answer::Silent(Silence::Overran) => {
            let limit = match options.clock {
                Clock::Wall => left,
                Clock::Virtual => options.think.as_millis() as u64,
            };
            return timeout(format!("no answer within {limit} ms: stopped"));
        }
        Answer::Silent(Silence::Crashed(what)) => return illegal(state, &what, PASS_MS, options),
    };
    if let Err(violation) = check_steps(state, &steps) {
        let reason = format!(
            "{}: {} [{}]",
            quoted(&Words(&steps).to_string()),
            violation.message,
            violation.code
        );
        return illegal(state, &reason, elapsed, options);
    }
    let duration = match options.clock {
        Clock::Virtual => virtual_duration(&steps),
        Clock::Wall => elapsed,
    };
    if duration > left {
        return timeout(format!(
            "{} would take {duration} ms, {left} ms were left",
            Words(&steps)
        ));
    }
    (
        Turn {
            team,
            play: Play::Steps { duration, steps },
        },
        None,
    )
}

/// What an illegal or missing answer becomes under the policy, with a
/// comment that says why.
fn illegal(
    state: &GameState,
    reason: &str,
    elapsed: u64,
    options: &PlayOptions,
) -> (Turn, Option<String>) {
    let team = state.to_move;
    let duration = match options.clock {
        Clock::Virtual => PASS_MS,
        Clock::Wall => elapsed,
    };
    let play = if options.illegal == OnIllegal::Out || duration > state.time_left(team) {
        Play::Timeout
    } else {
        Play::Steps {
            duration,
            steps: vec![Step::Pass],
        }
    };
    let what = match (&play, options.illegal) {
        (Play::Timeout, OnIllegal::Out) => "out for the game",
        (Play::Timeout, OnIllegal::Pass) => "too late for a pass",
        _ => "counted as a pass",
    };
    (
        Turn { team, play },
        Some(format!("illegal: {reason}; {what}")),
    )
}

/// A program's line as a comment shows it: quoted, printable, short.
fn quoted(line: &str) -> String {
    let shown: String = edge::printable(line).chars().take(60).collect();
    format!("{shown:?}")
}
