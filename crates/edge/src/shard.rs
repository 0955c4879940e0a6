//! One shard of a piece of work split over many runs (machines, array
//! jobs) that share nothing but the input: a batch of scenarios, the
//! matches of a tournament.
//!
//! The rule: the item at position `p` (counted from 0 over the whole
//! work: a batch's scenario lines, a tournament's schedule) belongs to
//! shard `p % N + 1` of `N`. It depends on the input alone, never on
//! threads or machines, and deals neighbouring items (often of similar
//! size) to different shards.

use std::fmt;

/// Shard `index` of `count`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// All of the input: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`, if `1 <= index <= count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// The shard as `--shard` takes it: `K/N`; `auto` (the array job's
    /// own, from the environment that `environment` reads); `auto/N` (the
    /// index from the environment, the count given). `count_variable` is
    /// the tool's own variable for the count under a Kubernetes Indexed
    /// Job (`SHUBBLES_SHARD_COUNT`, say).
    pub fn parse(
        text: &str,
        environment: impl Fn(&str) -> Option<String>,
        count_variable: &'static str,
    ) -> Result<Shard, ShardError> {
        let number = |what: &'static str, value: &str| {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| ShardError::NotANumber {
                    what,
                    value: value.to_string(),
                })
        };
        let (index, count) = text.split_once('/').unwrap_or((text, ""));
        if index == "auto" {
            let given = match count {
                "" => None,
                count => Some(number("the shard count", count)?),
            };
            return Shard::from_environment(environment, given, count_variable);
        }
        if count.is_empty() {
            return Err(ShardError::Form(text.to_string()));
        }
        Shard::new(
            number("the shard", index)?,
            number("the shard count", count)?,
        )
    }

    /// The shard an array job runs as: Slurm's `SLURM_ARRAY_TASK_ID` among
    /// `SLURM_ARRAY_TASK_COUNT` (counted from `SLURM_ARRAY_TASK_MIN`), or a
    /// Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (from 0), whose
    /// count is `count` or `count_variable` (Kubernetes does not set it:
    /// the Job's manifest does).
    fn from_environment(
        environment: impl Fn(&str) -> Option<String>,
        count: Option<u32>,
        count_variable: &'static str,
    ) -> Result<Shard, ShardError> {
        let number = |name: &'static str| -> Result<Option<u32>, ShardError> {
            match environment(name) {
                None => Ok(None),
                Some(value) => value
                    .trim()
                    .parse()
                    .map(Some)
                    .map_err(|_| ShardError::NotANumber { what: name, value }),
            }
        };
        if let Some(task) = number("SLURM_ARRAY_TASK_ID")? {
            let first = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let count = match count {
                Some(count) => count,
                None => number("SLURM_ARRAY_TASK_COUNT")?
                    .ok_or(ShardError::NoCount { count_variable })?,
            };
            let index = task
                .checked_sub(first)
                .ok_or(ShardError::OutOfRange { index: task, count })?;
            return Shard::new(index + 1, count);
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            let count = match count {
                Some(count) => count,
                None => number(count_variable)?.ok_or(ShardError::NoCount { count_variable })?,
            };
            return Shard::new(index.saturating_add(1), count);
        }
        Err(ShardError::NoEnvironment)
    }

    /// From 1.
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many shards the input is split into.
    pub const fn count(self) -> u32 {
        self.count
    }

    /// True for the item at `position` (from 0) if it is this shard's.
    pub fn contains(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }
}

/// All of the input.
impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard that cannot be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// Not `K/N`, `auto` or `auto/N`.
    Form(String),
    /// A part that is not a whole number.
    NotANumber {
        /// Which part, or which variable.
        what: &'static str,
        /// What it was.
        value: String,
    },
    /// `K` is not between 1 and `N`.
    OutOfRange {
        /// The shard.
        index: u32,
        /// The count.
        count: u32,
    },
    /// `auto` outside an array job.
    NoEnvironment,
    /// `auto` where the environment gives an index but no count.
    NoCount {
        /// The tool's variable for the count.
        count_variable: &'static str,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Form(text) => write!(
                f,
                "'{text}' is not a shard: expected K/N (such as 2/8), auto or auto/N"
            ),
            ShardError::NotANumber { what, value } => {
                write!(f, "{what} must be a whole number, not '{value}'")
            }
            ShardError::OutOfRange { count: 0, .. } => {
                write!(f, "the work is split into 1 shard at least, not 0")
            }
            ShardError::OutOfRange { index, count } => write!(
                f,
                "shard {index} of {count} does not exist: shards are numbered 1 to {count}"
            ),
            ShardError::NoEnvironment => write!(
                f,
                "--shard auto found neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX; give --shard K/N"
            ),
            ShardError::NoCount { count_variable } => write!(
                f,
                "--shard auto found a shard index but no count: give --shard auto/N or set SLURM_ARRAY_TASK_COUNT or {count_variable}"
            ),
        }
    }
}

impl std::error::Error for ShardError {}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNT: &str = "TOOL_SHARD_COUNT";

    fn none(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn shards_together_hold_every_position_once() {
        for count in 1..=7 {
            let shards: Vec<Shard> = (1..=count).map(|k| Shard::new(k, count).unwrap()).collect();
            for position in 0..100 {
                let holders = shards.iter().filter(|s| s.contains(position)).count();
                assert_eq!(holders, 1, "position {position} of {count} shards");
            }
        }
        assert!(Shard::WHOLE.contains(12_345));
    }

    #[test]
    fn shards_are_read_from_the_option_or_the_array_job() {
        assert_eq!(Shard::parse("2/8", none, COUNT), Shard::new(2, 8));
        assert_eq!(Shard::parse("2/8", none, COUNT).unwrap().to_string(), "2/8");
        let slurm = |name: &str| match name {
            "SLURM_ARRAY_TASK_ID" => Some("5".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("1".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("8".to_string()),
            _ => None,
        };
        assert_eq!(Shard::parse("auto", slurm, COUNT), Shard::new(5, 8));
        let kubernetes = |name: &str| (name == "JOB_COMPLETION_INDEX").then(|| "0".to_string());
        assert_eq!(Shard::parse("auto/4", kubernetes, COUNT), Shard::new(1, 4));
        assert_eq!(
            Shard::parse("auto", kubernetes, COUNT),
            Err(ShardError::NoCount {
                count_variable: COUNT
            })
        );
        assert_eq!(
            Shard::parse("auto", none, COUNT),
            Err(ShardError::NoEnvironment)
        );
    }

    #[test]
    fn impossible_shards_are_refused_with_what_to_give() {
        for (text, message) in [
            (
                "0/4",
                "shard 0 of 4 does not exist: shards are numbered 1 to 4",
            ),
            (
                "5/4",
                "shard 5 of 4 does not exist: shards are numbered 1 to 4",
            ),
            (
                "3",
                "'3' is not a shard: expected K/N (such as 2/8), auto or auto/N",
            ),
            ("a/4", "the shard must be a whole number, not 'a'"),
            ("1/0", "the work is split into 1 shard at least, not 0"),
        ] {
            assert_eq!(
                Shard::parse(text, none, COUNT).unwrap_err().to_string(),
                message,
                "{text}"
            );
        }
    }
}
