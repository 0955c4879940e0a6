//! A player as the command line names it: `builtin` (the computer player
//! at its default level), `builtin:1` to `builtin:6`, `builtin:greedy`,
//! `builtin:random`, `human`, or any other text, a program's command line.

use std::fmt;

use super::computer::{ComputerPlayer, Engine, DEFAULT_LEVEL, LEVEL_NODES};
use super::io_log::TeamLog;
use super::player::{GreedyPlayer, HumanPlayer, Player, RandomPlayer};
use super::program::Program;

/// Who plays a team.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// `builtin:random`.
    Random,
    /// `builtin:greedy`.
    Greedy,
    /// `builtin`, `builtin:LEVEL`, `builtin:mcts` or `builtin:mcts:LEVEL`.
    Computer(Engine, u8),
    /// `human`.
    Human,
    /// A command line.
    Program(String),
}

impl PlayerSpec {
    /// Reads a player's name; the message says what names there are.
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let text = text.trim();
        let levels = LEVEL_NODES.len();
        Ok(match text {
            "" => return Err("a player is a program's command line, builtin, builtin:LEVEL, builtin:mcts, builtin:mcts:LEVEL, builtin:greedy, builtin:random or human; found nothing".into()),
            "builtin" => PlayerSpec::Computer(Engine::AlphaBetaThenTree, DEFAULT_LEVEL),
            "builtin:mcts" => PlayerSpec::Computer(Engine::TreeSearch, DEFAULT_LEVEL),
            "builtin:random" => PlayerSpec::Random,
            "builtin:greedy" => PlayerSpec::Greedy,
            "human" => PlayerSpec::Human,
            _ => match text.strip_prefix("builtin:") {
                Some(level) => {
                    let (engine, level) = match level.strip_prefix("mcts:") {
                        Some(level) => (Engine::TreeSearch, level),
                        None => (Engine::AlphaBetaThenTree, level),
                    };
                    match level.parse::<u8>() {
                        Ok(level) if (1..=levels as u8).contains(&level) => {
                            PlayerSpec::Computer(engine, level)
                        }
                        _ => {
                            return Err(format!(
                                "unknown built-in player {text:?}: builtin, builtin:1 to builtin:{levels}, builtin:mcts, builtin:mcts:1 to builtin:mcts:{levels}, builtin:greedy or builtin:random"
                            ))
                        }
                    }
                }
                None => PlayerSpec::Program(text.to_string()),
            },
        })
    }

    /// A new player of this kind; `seed` seeds a random one.
    pub fn create(&self, seed: u64) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(GreedyPlayer),
            PlayerSpec::Computer(engine, level) => {
                Box::new(ComputerPlayer::with_engine(*engine, *level))
            }
            PlayerSpec::Human => Box::new(HumanPlayer),
            PlayerSpec::Program(command) => Box::new(Program::new(command)),
        }
    }

    /// The player, a program's lines written to `log` (the built-in
    /// players and a person exchange none).
    pub fn create_logged(&self, seed: u64, log: TeamLog) -> Box<dyn Player> {
        match self {
            PlayerSpec::Program(command) => Box::new(Program::logged(command, log)),
            _ => self.create(seed),
        }
    }

    /// True for a program, the one kind of player that speaks the
    /// protocol over pipes.
    pub fn is_program(&self) -> bool {
        matches!(self, PlayerSpec::Program(_))
    }

    /// True for a person at the terminal.
    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSpec::Human)
    }
}

impl fmt::Display for PlayerSpec {
    /// The name it was given, canonically (`builtin:3` for `builtin`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("builtin:random"),
            PlayerSpec::Greedy => f.write_str("builtin:greedy"),
            PlayerSpec::Computer(Engine::AlphaBetaThenTree, level) => write!(f, "builtin:{level}"),
            PlayerSpec::Computer(Engine::TreeSearch, level) => write!(f, "builtin:mcts:{level}"),
            PlayerSpec::Human => f.write_str("human"),
            PlayerSpec::Program(command) => f.write_str(command),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_and_written_back() {
        assert_eq!(
            PlayerSpec::parse("builtin"),
            Ok(PlayerSpec::Computer(
                Engine::AlphaBetaThenTree,
                DEFAULT_LEVEL
            ))
        );
        assert_eq!(
            PlayerSpec::parse("builtin:5"),
            Ok(PlayerSpec::Computer(Engine::AlphaBetaThenTree, 5))
        );
        assert_eq!(
            PlayerSpec::parse("builtin:mcts"),
            Ok(PlayerSpec::Computer(Engine::TreeSearch, DEFAULT_LEVEL))
        );
        assert_eq!(
            PlayerSpec::parse("builtin:mcts:6"),
            Ok(PlayerSpec::Computer(Engine::TreeSearch, 6))
        );
        assert!(PlayerSpec::parse("builtin:mcts:7").is_err());
        assert_eq!(PlayerSpec::parse("builtin:greedy"), Ok(PlayerSpec::Greedy));
        assert_eq!(
            PlayerSpec::parse(" python3 bot.py --fast "),
            Ok(PlayerSpec::Program("python3 bot.py --fast".into()))
        );
        let error = PlayerSpec::parse("builtin:9").unwrap_err();
        assert!(error.contains("builtin:1 to builtin:6"), "{error}");
        assert!(PlayerSpec::parse("builtin:grredy").is_err());
        assert!(PlayerSpec::parse("").is_err());
        for name in [
            "builtin:3",
            "builtin:mcts:2",
            "builtin:random",
            "human",
            "./bot",
        ] {
            assert_eq!(
                PlayerSpec::parse(name).map(|spec| spec.to_string()),
                Ok(name.into())
            );
        }
    }
}
