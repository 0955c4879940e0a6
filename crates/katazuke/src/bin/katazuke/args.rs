//! The command line's arguments, their help and examples.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use katazuke::{Policy, DEFAULT_LEVEL, MAX_JOBS};

const EXAMPLES: &str = "\
Examples:
  katazuke check examples/katazuke/practice.ktz          # results and the winner
  katazuke check --json match.ktz                         # the same as one JSON object
  katazuke replay examples/katazuke/practice.ktz -o practice.gif
  katazuke events match.ktz > match.jsonl
  katazuke fmt match.ktz -o match.ktz                     # canonical rewrite
  katazuke ascii match.ktz --turn 1:9                     # the board after game 1, turn 9
  katazuke play --A builtin --B builtin:greedy --clock virtual -o match.ktz
  katazuke play --A 'python3 examples/katazuke/player.py' --B builtin --gif match.gif
  katazuke suggest match.ktz --at 1:9                     # the engine's turn after game 1, turn 9
  katazuke tournament builtin builtin:greedy builtin:random --fields 4 -j 2

MATCH is a .ktz match log (KATAZUKE.md §11), or - for standard input.
Exit status: 0 valid, 2 a malformed log or bad usage, 3 a rule broken,
1 any other error (for example an output file that cannot be written;
play and tournament check theirs before they start, and refuse them with 2).
Rules, log format and decisions: docs/KATAZUKE.md in the repository.";

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
  katazuke replay match.ktz -o match.webp --max-size 10MB

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
    /// Play a match between two players (programs over the line protocol,
    /// built-in players or a person), refereed as it goes (KATAZUKE.md
    /// §15.1).
    #[command(after_help = PLAY_HELP)]
    Play(PlayArgs),
    /// The engine's best turn in a position of a match log, which may stop
    /// anywhere (KATAZUKE.md §15.2).
    #[command(after_help = "\
Examples:
  katazuke suggest match.ktz                      # where the log stops, at builtin's level
  katazuke suggest match.ktz --at 1:9             # after game 1, turn 9 (1:0 is the start)
  katazuke suggest match.ktz --at 2:4 --level 3   # quicker, a little weaker
  katazuke suggest match.ktz --at 2:4 --json      # one JSON object
  katazuke suggest match.ktz --at 2:4 --mcts      # the tree search's turn

The engine plays for the match, not the game (§9.2): in game 2 its values
carry game 1's result, and the second line says what the turn means for
the match (\"ends the game: wins the match on criterion 2\"). The search
is alpha-beta with iterative deepening and a transposition table in game
1 and a Monte-Carlo tree search with playouts to the end of the game in
game 2 (which also gives the chance to win the match), as `builtin`
plays, under the virtual clock of §15.1 (with --mcts, the tree search in
both games); the score is the expected
territory difference for the team to move, in cells, over the match so
far (objects and time break ties, §9.2). On fields of 3x3 or smaller it
searches every distinct turn, to the end of the game when that fits in
500,000 positions, and then says
`exact`; elsewhere `searched to the end of the game over the pruned turns`
means every line ended, among the turns the pruning keeps.")]
    Suggest(SuggestArgs),
    /// Play a round robin (or gauntlet) of players over a set of fields,
    /// in parallel and resumable, and print the standings with Elo
    /// (KATAZUKE.md §15.3).
    #[command(after_help = "\
Examples:
  katazuke tournament builtin builtin:greedy builtin:random --fields 4 -j 2
  katazuke tournament 'python3 bot.py' builtin:2 builtin --gauntlet --results bots.jsonl
  katazuke tournament builtin:1 builtin:3 --params match.ktz --fields 10 --records matches/
  katazuke tournament builtin:4 builtin:3 --clock virtual -j 2 --sprt elo0=0 elo1=30
  katazuke tournament builtin builtin:mcts --fields-file book.ktz --fields-order shuffled

Each pairing plays a full match (two games, first and second swapped) on
every field. Results are appended to the results file as each match ends;
run the same command again after an interruption and only the missing
matches are played. Fields: --params gives the parameters (and, if it has
them, the start cells of the first field); --fields N seeded practice
fields otherwise (5x5 to 7x7, --seed); --fields-file plays a book of
fields, in order or shuffled.

Statistics: Elo with its 95 % error bar from match points, and from the
games counted in pairs (a match's two games are a pair: 'Pairs (0-2)' counts
the matches that gave 0, ½, 1, 1½ and 2 points, as fastchess's pentanomial
report does). --sprt plays until the sequential test decides (up to
--fields, 10,000 by default under --sprt), printing its log-likelihood
ratio and bounds after every match.")]
    Tournament(TournamentArgs),
    /// Put the results files of a tournament's shards together: check
    /// that they are its shards 1 to N, each complete, and print the
    /// standings of the whole tournament.
    #[command(after_help = "\
Examples:
  katazuke tournament-merge tournament-*-of-4.jsonl
  katazuke tournament-merge shards/*.jsonl -o whole.jsonl

Each file's header must be the same tournament's, naming its shard; each
line is checked against the schedule and against itself, as a resumed run
checks it. -o writes the whole tournament's results file: byte for byte
what one run with -j 1 writes.")]
    TournamentMerge(TournamentMergeArgs),
    /// Run a live match in the browser: the desk (the contest's timer PC), an audience screen and a team's advisor
    #[command(after_help = DESK_HELP)]
    Desk(DeskArgs),
}

const DESK_HELP: &str = "\
Examples:
  katazuke desk --params examples/katazuke/practice.ktz --record match.ktz
  katazuke desk --resume match.ktz                       # after a crash or a power cut
  katazuke desk --advise A --record ours.ktz             # a team's own laptop
  katazuke desk --bind 0.0.0.0 --port 8737               # screens on other machines

Open the printed address: the desk enters each team's turn (click cells or
type the steps, then Enter), runs the clocks and referees every turn at
once; /screen is the audience screen, read-only. The record is rewritten
after every turn, and the event log (.jsonl) and replay GIF (.gif) are
written beside it when the match ends. Bound to another address than
127.0.0.1, every change needs the token it prints. Keys on the desk: C
clear, L place, M move, S pass, E empty after, Enter end the turn, Esc
clear the entry, P pause or resume, U undo, G start the next game.";

#[derive(Args, Debug)]
pub struct DeskArgs {
    /// The match's header and start cells (a .ktz header, and optionally
    /// both games' start lines); the worked example's parameters if none
    #[arg(long, value_name = "FILE.ktz")]
    pub params: Option<PathBuf>,
    /// Where the record is kept, rewritten after every turn; an existing
    /// file is refused (continue it with --resume)
    #[arg(long, value_name = "FILE.ktz")]
    pub record: Option<PathBuf>,
    /// Continue the match of this record (and keep writing it, unless
    /// --record names another file); --params gives game 2's start cells
    /// if the record stops in game 1 and game 2 is not game 1 swapped
    #[arg(long, value_name = "FILE.ktz")]
    pub resume: Option<PathBuf>,
    /// The address to serve on; another than 127.0.0.1 needs the token
    /// printed for every change
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: std::net::IpAddr,
    /// The port; 0 picks a free one
    #[arg(long, default_value_t = 8737, value_name = "N")]
    pub port: u16,
    /// Run as a team's advisor: no referee's authority, the computer
    /// player's suggestion for this team
    #[arg(long, value_name = "TEAM", value_parser = ["A", "B"])]
    pub advise: Option<String>,
    /// How a turn's duration is known: measured (wall), or typed with
    /// each turn (manual: for entering a paper record, and tests)
    #[arg(long, value_enum, default_value_t = DeskClockArg::Wall)]
    pub clock: DeskClockArg,
    /// The advisor's level (1 to 6)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub level: u8,
}

/// How the desk knows a turn's duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeskClockArg {
    /// Measured by the desk.
    Wall,
    /// Typed with each turn.
    Manual,
}

#[derive(Args, Debug)]
pub struct TournamentMergeArgs {
    /// The shards' results files, in any order.
    #[arg(value_name = "FILE.jsonl", num_args = 1.., required = true)]
    pub files: Vec<PathBuf>,
    /// Also write the whole tournament's results file here.
    #[arg(short, long, value_name = "FILE.jsonl")]
    pub output: Option<PathBuf>,
}

const PLAY_HELP: &str = "\
Examples:
  katazuke play --A builtin --B builtin:greedy --clock virtual -o match.ktz
  katazuke play --A 'python3 examples/katazuke/player.py' --B builtin --gif match.gif
  katazuke play --A ./my-bot --B human --params examples/katazuke/practice.ktz

Players: a program's command line (run by sh), builtin (the computer
player, level 5: alpha-beta in game 1, its Monte-Carlo tree search in
game 2), builtin:1 to builtin:6, builtin:mcts (the tree search in both
games, level 5) and builtin:mcts:1 to builtin:mcts:6,
builtin:greedy, builtin:random, or human. The computer player plays for
the match: in game 2 it counts game 1's result (§9.2). A program reads the protocol on standard input and answers each
`go` with one line of steps (docs/manual-katazuke.md, 'Playing programs'). Under
--clock wall a turn lasts from `go` to the answer and a program that
overruns its clock is stopped (timeout); under --clock virtual a turn lasts
what its steps cost (§15.1) and a program may think --think-ms. A program
that crashes, closes its output or answers garbage or an illegal turn has
that turn counted per --illegal; the record says why in the turn's
comment. The record is valid for `katazuke check`.";

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
    /// Where to write the replay (default katazuke.gif; .webp or .apng for
    /// --format webp or apng); - writes to standard output. The extension
    /// chooses the format: .gif, .webp, .apng or .png (an animated PNG).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub animation: edge::AnimationArgs,
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
    /// Add to each turn's caption the engine's preferred turn and how much
    /// the played one lost, in cells (`?!` 0.3 or more, `?` one or
    /// more).
    #[arg(long)]
    pub annotate: bool,
    /// With --annotate, the engine's level (1 to 6).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=6), requires = "annotate")]
    pub annotate_level: u8,
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

/// Which clock times the turns (§15.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClockArg {
    /// From `go` to the answer, as measured.
    Wall,
    /// What the steps cost: reproducible bit for bit.
    Virtual,
}

/// What an illegal, garbled or missing answer becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IllegalAnswer {
    /// A pass, its time charged.
    Pass,
    /// The team is out for the game.
    Out,
}

/// The order in which a fields file is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FieldsOrder {
    /// As the file has them.
    InOrder,
    /// Shuffled by --seed: the same order for the same seed.
    Shuffled,
}

/// Where start cells come from when the parameters file gives none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StartArg {
    /// Three random cells from --seed, the same in both games.
    Random,
    /// The first team in the centre, the second at the two ends of the
    /// centre row.
    Symmetric,
}

#[derive(Args, Debug)]
pub struct PlayingArgs {
    /// A .ktz header (the lines before `game 1`: capacity, stock, clocks,
    /// field), optionally with both games' first: and start lines; a whole
    /// match log works too. Default: the worked example's parameters
    /// (KATAZUKE.md §11.4).
    #[arg(long, value_name = "FILE", help_heading = OPENINGS)]
    pub params: Option<PathBuf>,
    /// Which clock times the turns.
    #[arg(long, value_name = "CLOCK", default_value = "wall", help_heading = TIME_CONTROL)]
    pub clock: ClockArg,
    /// Under --clock virtual, how long a program may think over one turn,
    /// in ms, before it is stopped.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000), help_heading = TIME_CONTROL)]
    pub think_ms: u64,
    /// Under --clock wall, how many ms past its clock an answer may come
    /// and still count (charged the time that was left): slack for
    /// measuring through pipes on a busy machine.
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000), help_heading = TIME_CONTROL)]
    pub time_margin: u64,
    /// What an illegal, garbled or missing answer becomes.
    #[arg(long, value_name = "POLICY", default_value = "pass", help_heading = TIME_CONTROL)]
    pub illegal: IllegalAnswer,
    /// Start cells when the parameters give none.
    #[arg(long, value_name = "HOW", default_value = "random", help_heading = OPENINGS)]
    pub start: StartArg,
    /// The seed of random start cells, practice fields and builtin:random.
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = OPENINGS)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Team A's player: a command line, builtin or builtin:LEVEL, builtin:mcts
    /// or builtin:mcts:LEVEL, builtin:greedy, builtin:random or human.
    #[arg(long = "A", value_name = "PLAYER")]
    pub a: String,
    /// Team B's player.
    #[arg(long = "B", value_name = "PLAYER")]
    pub b: String,
    #[command(flatten)]
    pub playing: PlayingArgs,
    /// Where to write the match record (.ktz); - or nothing for standard
    /// output.
    #[arg(short, long, value_name = "FILE.ktz")]
    pub output: Option<PathBuf>,
    /// Also write the match's events (JSON Lines, §12) here.
    #[arg(long, value_name = "FILE.jsonl")]
    pub events: Option<PathBuf>,
    /// Also write the replay here: a GIF, or by the extension a lossless
    /// WebP (.webp) or an animated PNG (.apng, .png).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Log every line sent to and received from the programs, with the
    /// seconds since the match began, to this file as the match goes.
    #[arg(long, value_name = "FILE.log")]
    pub log_io: Option<PathBuf>,
    /// Say nothing on standard error but problems.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct SuggestArgs {
    /// The match log (.ktz), or - for standard input; it may stop anywhere.
    #[arg(value_name = "MATCH")]
    pub file: PathBuf,
    /// The position after turn K of game G (G:0 is the start); by default
    /// where the log stops.
    #[arg(long, value_name = "G:K")]
    pub at: Option<String>,
    /// The engine's level, 1 to 6 (1,000 to 3,000,000 positions searched;
    /// 600,000 at level 5); by default the level builtin plays at.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LEVEL, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub level: u8,
    /// Search with the Monte-Carlo tree search in game 1 too
    /// (builtin:mcts), not alpha-beta; on fields of 3x3 or smaller both
    /// search exhaustively.
    #[arg(long)]
    pub mcts: bool,
    /// Print one JSON object instead.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The players (at least two): command lines, builtin or builtin:LEVEL,
    /// builtin:mcts or builtin:mcts:LEVEL, builtin:greedy, builtin:random.
    #[arg(value_name = "PLAYER", num_args = 2.., required = true, help_heading = PLAYERS)]
    pub players: Vec<String>,
    /// The first player plays each of the others, instead of every pair.
    #[arg(long, help_heading = PLAYERS)]
    pub gauntlet: bool,
    /// How many fields each pairing plays (4; 10,000 under --sprt, which
    /// stops when it decides).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000), help_heading = OPENINGS)]
    pub fields: Option<u32>,
    /// Play the fields of this file (an opening book): .ktz headers one
    /// after another, each from its `katazuke 1` line, with or without
    /// start cells (without, --start gives them). Every pairing plays
    /// each of them; --fields N takes the first N.
    #[arg(long, value_name = "FILE", conflicts_with = "params", help_heading = OPENINGS)]
    pub fields_file: Option<PathBuf>,
    /// The order of the fields file's fields: as written, or shuffled by
    /// --seed.
    #[arg(long, value_name = "ORDER", default_value = "in-order", requires = "fields_file", help_heading = OPENINGS)]
    pub fields_order: FieldsOrder,
    #[command(flatten)]
    pub playing: PlayingArgs,
    /// A sequential probability ratio test of the first player against
    /// the second: words elo0=E0 elo1=E1 [alpha=A] [beta=B] (alpha and
    /// beta 0.05 unless given); stop when it accepts either.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..=4, help_heading = STATISTICS)]
    pub sprt: Option<Vec<String>>,
    /// Matches played at once.
    #[arg(short = 'j', long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_JOBS as i64), help_heading = RUNNING)]
    pub jobs: u32,
    /// The results file (JSON Lines), appended as matches end and read
    /// back to resume [default: tournament.jsonl; tournament-K-of-N.jsonl
    /// for a shard].
    #[arg(long, value_name = "FILE.jsonl", help_heading = RUNNING)]
    pub results: Option<PathBuf>,
    /// Play shard K of N only: match p belongs to shard p % N + 1. auto
    /// takes it from a Slurm array job (SLURM_ARRAY_TASK_ID, _COUNT, _MIN)
    /// or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with the count
    /// from auto/N or KATAZUKE_SHARD_COUNT). Each shard has a results file
    /// of its own; `katazuke tournament-merge` puts them together.
    #[arg(long, value_name = "K/N", help_heading = RUNNING)]
    pub shard: Option<String>,
    /// Also keep each match's record (.ktz) in this folder.
    #[arg(long, value_name = "DIR", help_heading = RUNNING)]
    pub records: Option<PathBuf>,
    /// Log every line sent to and received from each program, with the
    /// seconds since the match began, to DIR/match-INDEX.log (for the
    /// matches a program plays).
    #[arg(long, value_name = "DIR", help_heading = RUNNING)]
    pub log_io: Option<PathBuf>,
    /// Say nothing on standard error but problems.
    #[arg(short, long, help_heading = RUNNING)]
    pub quiet: bool,
}

/// The headings of `tournament --help`, in the order a cutechess-cli or
/// fastchess user looks for its options.
const PLAYERS: &str = "Players and format";
const OPENINGS: &str = "Fields and start cells (the openings)";
const TIME_CONTROL: &str = "Time control and illegal answers";
const STATISTICS: &str = "Statistics";
const RUNNING: &str = "Running and output";
