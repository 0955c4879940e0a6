//! The computer player's strength and search speed, the full sample of
//! BENCHMARKS.md (the tests play a small one):
//!
//! `cargo run --release --example strength -- [OPPONENT [MATCHES [LEVEL]]]`
//! plays MATCHES seeded practice matches (default 200, seeds 1 to MATCHES)
//! of `builtin:LEVEL` (default: the default level) against OPPONENT (`greedy`, `random` or a
//! level), on alternate sides, under the virtual clock, and prints the
//! wins. `-- search [LEVEL]` instead times the search on the positions of
//! 20 practice matches, each to the budget of LEVEL (default the default
//! level), and prints positions per second and the depth reached.

use std::time::{Duration, Instant};

use katazuke::{
    play_match, practice_setup, read, CostModel, Event, GameState, MatchResult, PlayOptions,
    Policy, Position,
};
use katazuke::{
    Clock, ComputerPlayer, GreedyPlayer, Player, RandomPlayer, DEFAULT_LEVEL, LEVEL_NODES,
};
use katazuke::{Limits, PerTeam, Searcher, Team};
use rayon::prelude::*;

fn opponent(name: &str, seed: u64) -> Result<Box<dyn Player + Send>, String> {
    Ok(match name {
        "greedy" => Box::new(GreedyPlayer),
        "random" => Box::new(RandomPlayer::new(seed)),
        level => Box::new(ComputerPlayer::new(
            level
                .parse()
                .map_err(|_| format!("strength: unknown opponent {level:?}"))?,
        )),
    })
}

fn options() -> PlayOptions {
    PlayOptions {
        clock: Clock::Virtual,
        // The node budget, not the time, ends every search.
        think: Duration::from_secs(600),
        ..PlayOptions::default()
    }
}

/// Whether `builtin:level` wins the practice match of `seed`.
fn strong_wins(name: &str, seed: u64, level: u8) -> Result<bool, String> {
    let setup = practice_setup(seed);
    let mut strong = ComputerPlayer::new(level);
    let mut other = opponent(name, seed)?;
    let strong_team = if seed % 2 == 1 { Team::A } else { Team::B };
    let players = if strong_team == Team::A {
        PerTeam {
            a: &mut strong as &mut dyn Player,
            b: other.as_mut() as &mut dyn Player,
        }
    } else {
        PerTeam {
            a: other.as_mut() as &mut dyn Player,
            b: &mut strong as &mut dyn Player,
        }
    };
    let record = play_match(&setup, players, &options()).map_err(|error| error.to_string())?;
    let mut winner = None;
    read(record.to_string().as_bytes(), Policy::Strict, |record| {
        if let Some(result) = MatchResult::of(&record.event) {
            winner = result.winner;
        }
    });
    Ok(winner == Some(strong_team))
}

/// Every position before a turn of `matches` practice matches of the
/// computer player against greedy.
fn positions(matches: u64) -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 1..=matches {
        let setup = practice_setup(seed);
        let (mut strong, mut greedy) = (ComputerPlayer::new(DEFAULT_LEVEL), GreedyPlayer);
        let players = PerTeam {
            a: &mut strong as &mut dyn Player,
            b: &mut greedy as &mut dyn Player,
        };
        let Ok(record) = play_match(&setup, players, &options()) else {
            continue;
        };
        let mut state: Option<GameState> = None;
        read(
            record.to_string().as_bytes(),
            Policy::Strict,
            |record| match &record.event {
                Event::GameStart(start) => {
                    state = Some(GameState::after_start(record.game.unwrap_or(1), start));
                }
                event => {
                    if let Some(state) = &mut state {
                        if let Event::TurnStart { .. } = event {
                            positions.push(Position::of(state, CostModel::Virtual));
                        }
                        state.apply(event);
                    }
                }
            },
        );
    }
    positions
}

/// The LEVEL argument, the default level when absent.
fn level_argument(text: Option<&String>) -> Result<u8, String> {
    let levels = 1..=LEVEL_NODES.len() as u8;
    match text.map(|n| n.parse::<u8>()) {
        None => Ok(DEFAULT_LEVEL),
        Some(Ok(level)) if levels.contains(&level) => Ok(level),
        Some(_) => Err(format!(
            "strength: LEVEL is {} to {}",
            levels.start(),
            levels.end()
        )),
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("search") {
        let positions = positions(20);
        let level = level_argument(args.get(1))?;
        let nodes = LEVEL_NODES[usize::from(level) - 1];
        let limits = Limits {
            nodes,
            deadline: None,
            every_action: false,
        };
        let mut searcher = Searcher::new();
        let started = Instant::now();
        let mut visited = 0;
        let mut depths = 0;
        for position in &positions {
            searcher.clear();
            if let Some(found) = searcher.best(position, limits) {
                visited += found.nodes;
                depths += u64::from(found.depth);
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "{} positions searched to {nodes} nodes each: {visited} nodes in {seconds:.2} s, {:.0} nodes per second, {:.1} ms a turn, {:.2} turns deep on average",
            positions.len(),
            visited as f64 / seconds,
            1000.0 * seconds / positions.len() as f64,
            depths as f64 / positions.len() as f64
        );
        return Ok(());
    }
    let name = args.first().cloned().unwrap_or_else(|| "greedy".into());
    let matches: u64 = args
        .get(1)
        .map_or(Ok(200), |n| n.parse())
        .map_err(|_| "strength: MATCHES is a number")?;
    let level = level_argument(args.get(2))?;
    let started = Instant::now();
    let results: Vec<bool> = (1..=matches)
        .into_par_iter()
        .map(|seed| strong_wins(&name, seed, level))
        .collect::<Result<_, _>>()?;
    let wins = results.iter().filter(|&&won| won).count();
    println!(
        "builtin:{level} against {name}: won {wins} of {matches} matches ({:.1} %) in {:.1} s",
        100.0 * wins as f64 / matches as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
