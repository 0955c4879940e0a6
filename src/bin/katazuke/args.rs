//! The command line's arguments, their help and examples.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use shubbles::katazuke::rules::game::Policy;

const EXAMPLES: &str = "\
Examples:
  katazuke check examples/katazuke/practice.ktz          # results and the winner
  katazuke check --json match.ktz                         # the same as one JSON object
  katazuke replay examples/katazuke/practice.ktz -o practice.gif
  katazuke events match.ktz > match.jsonl
  katazuke fmt match.ktz -o match.ktz                     # canonical rewrite
  katazuke ascii match.ktz --turn 1:9                     # the board after game 1, turn 9

MATCH is a .ktz match log (KATAZUKE.md §11), or - for standard input.
Exit status: 0 valid, 2 a malformed log or bad usage, 3 a rule broken,
1 any other error (for example an unwritable output file).
Rules, log format and decisions: KATAZUKE.md (shared/spec/KATAZUKE.md).";

/// Referee 片付けマス (Katazuke-masu) match logs and turn them into replay
/// GIFs: the two-team territory game of KATAZUKE.md.
#[derive(Parser, Debug)]
#[command(name = "katazuke", version, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check a match log turn by turn and print each game's results and the
    /// match winner with the deciding criterion.
    #[command(after_help = "\
Examples:
  katazuke check examples/katazuke/practice.ktz
  katazuke check --json match.ktz | jq .match
  katazuke check --illegal=pass match.ktz     # report every illegal turn, count each as a pass

Every problem is one line on standard error: FILE:LINE:COL: error[CODE]
game G, turn T, TEAM (ROLE): what is wrong (§N). Warnings (W-...) do not
change the exit status. With --json, standard output holds exactly the one
JSON object of KATAZUKE.md §14.1, whatever the outcome.")]
    Check(CheckArgs),
    /// Print the match's events as JSON Lines (KATAZUKE.md §12).
    #[command(after_help = "\
Examples:
  katazuke events match.ktz > match.jsonl
  katazuke replay --from-events match.jsonl -o match.gif   # the same GIF as from match.ktz

One JSON object per line: match_start, game_start, turn_start, clear, claim,
place, cancel, move, empty, pass, timeout, illegal, team_out, turn_end,
game_end, match_end. A log with a problem gives the events up to it, then
the message and its exit status.")]
    Events(EventsArgs),
    /// Write the replay GIF: a start frame per game, a frame per turn, an end
    /// frame per game, and a summary (KATAZUKE.md §13).
    #[command(after_help = "\
Examples:
  katazuke replay examples/katazuke/practice.ktz -o practice.gif
  katazuke replay match.ktz -o game2.gif --game 2 --from-turn 10 --comments
  katazuke replay --from-events match.jsonl -o match.gif

Each frame shows one second (--delay), the summary three. The GIF is
written whole or not at all; a log that cannot be refereed writes none.")]
    Replay(ReplayArgs),
    /// Rewrite a match log canonically: long step names, turn numbers
    /// written, one space between fields, comments kept (KATAZUKE.md §11.6).
    #[command(after_help = "\
Examples:
  katazuke fmt match.ktz                 # prints the canonical log
  katazuke fmt match.ktz -o match.ktz    # rewrites the file in place, whole or not at all

Idempotent: formatting a formatted log changes nothing. A malformed log is
refused (exit status 2).")]
    Fmt(FmtArgs),
    /// Print the board as text: counts, A/B for territory, * on a current
    /// territory, and each team's container, stock and clock.
    #[command(after_help = "\
Examples:
  katazuke ascii match.ktz                # the board at the end of each game
  katazuke ascii match.ktz --turn 1:9     # after game 1, turn 9 (1:0 is the start)
  katazuke ascii match.ktz --every        # after every turn")]
    Ascii(AsciiArgs),
}

/// What to do with an illegal turn (§10.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Illegal {
    /// Stop at the first rule broken.
    Strict,
    /// Count an illegal turn as a pass with its duration charged, report
    /// every one and go on.
    Pass,
}

impl Illegal {
    pub fn policy(self) -> Policy {
        match self {
            Illegal::Strict => Policy::Strict,
            Illegal::Pass => Policy::Pass,
        }
    }
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The match log (.ktz), or - for standard input.
    #[arg(value_name = "MATCH")]
    pub file: PathBuf,
    /// What to do with an illegal turn.
    #[arg(long, value_name = "POLICY", default_value = "strict")]
    pub illegal: Illegal,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub source: MatchArgs,
    /// Print the results as one JSON object (KATAZUKE.md §14.1).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct EventsArgs {
    #[command(flatten)]
    pub source: MatchArgs,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The match log (.ktz), or - for standard input.
    #[arg(value_name = "MATCH", required_unless_present = "from_events")]
    pub file: Option<PathBuf>,
    /// Draw from an event log written by `katazuke events` instead.
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    pub from_events: Option<PathBuf>,
    /// What to do with an illegal turn.
    #[arg(long, value_name = "POLICY", default_value = "strict")]
    pub illegal: Illegal,
    /// Where to write the GIF; - writes to standard output.
    #[arg(short, long, value_name = "FILE.gif", default_value = "katazuke.gif")]
    pub output: PathBuf,
    /// How long each frame shows, in hundredths of a second.
    #[arg(long, value_name = "CS", default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..=6000))]
    pub delay: u16,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = 64, value_parser = clap::value_parser!(u32).range(24..=160))]
    pub cell: u32,
    /// Mark the cells the team to move may clear or place on.
    #[arg(long)]
    pub hints: bool,
    /// Add each turn's comment from the log to its caption.
    #[arg(long)]
    pub comments: bool,
    /// Only this game (1 or 2), without the summary.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=2))]
    pub game: Option<u8>,
    /// Begin each game at this turn (its frame shows the state after it).
    #[arg(long, value_name = "K")]
    pub from_turn: Option<u32>,
}

#[derive(Args, Debug)]
pub struct FmtArgs {
    /// The match log (.ktz), or - for standard input.
    #[arg(value_name = "MATCH")]
    pub file: PathBuf,
    /// Write the canonical log here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct AsciiArgs {
    #[command(flatten)]
    pub source: MatchArgs,
    /// The board after turn K of game G (G:0 is the game's start).
    #[arg(long, value_name = "G:K", conflicts_with = "every")]
    pub turn: Option<String>,
    /// The board after every turn, with a header naming it.
    #[arg(long)]
    pub every: bool,
}
