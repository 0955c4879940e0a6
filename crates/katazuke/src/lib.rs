//! 片付けマス (Katazuke-masu), the two-team territory game of
//! `docs/KATAZUKE.md`: a referee of match logs, its replay GIF, and matches
//! played between programs and a computer player.
//!
//! The engine is event-sourced, in stages that each know nothing of the
//! ones after it: the vocabulary (teams, the field, [`Params`], [`Turn`]s,
//! [`Event`]s, a [`GameState`] as a fold over them, a [`MatchSetup`]), the
//! rules (a [`GameReferee`] referees a game turn by turn into events; a
//! [`MatchResult`] decides the match; [`Frames`] are derived from the
//! events), the `.ktz` log ([`read`] referees a log from the top and hands
//! every [`Entry`] to a [`Sink`] as it is found; [`canonical`] rewrites
//! it), text and pictures of the events ([`report_text`], [`board`],
//! [`write_replay`]), the computer player's engine ([`Position`],
//! [`Searcher`]) and matches played as they are refereed ([`play_match`],
//! [`Tournament`]), and a live match at the desk ([`DeskSession`]). The modules are private: what a caller uses is
//! re-exported here.
//!
//! ```
//! use katazuke::{read, Policy};
//!
//! let log = b"katazuke 1\ncapacity: 4\nstock: 1\nfield:\n  1 2\n  2 1\n";
//! let verdict = read(log, Policy::Strict, |_| {});
//! // A header alone is no match: the games are missing (§10.2).
//! assert_eq!(verdict.exit_status(), 2);
//! ```

mod desk;
mod draw;
mod engine;
mod formats;
mod log;
mod model;
mod play;
mod rules;

/// How the hidden temporary files that `katazuke` writes beside its outputs
/// begin (`.katazuke-XXXXXX.tmp`, renamed over the output when complete).
pub const TEMPORARY_PREFIX: &str = ".katazuke-";

// The vocabulary.
pub use model::code::{Code, Severity};
pub use model::event::{Entry, Event, GameStart, HeaderParams, MatchStart};
pub use model::field::{Cell, CellNameError, Field, FieldError, Size, MAX_COUNT};
pub use model::params::{
    ParamError, Params, Stock, CAPACITIES, DEFAULT_GAME_TIME, DEFAULT_TEAM_TIME, GAME_TIMES,
    STOCKS, TEAM_TIMES,
};
pub use model::setup::{GameSetup, MatchSetup, Setup, SetupProblem};
pub use model::state::GameState;
pub use model::team::{PerTeam, Role, Team};
pub use model::turn::{ClockTime, Item, Play, Seconds, Step, Turn};

// The rules.
pub use rules::frames::{Effect, Frame, FrameFold, FrameKind, Frames, TurnSummary};
pub use rules::game::{GameReferee, Policy};
pub use rules::legality::Violation;
pub use rules::result::{GameResult, MatchResult, CRITERIA};

// The `.ktz` log.
pub use log::canonical::{canonical, write_canonical, CanonicalError};
pub use log::reader::{
    read, read_into, read_setup, read_unfinished, read_unfinished_into, Diagnostic, Handlers, Sink,
    Tally, Verdict,
};
pub use log::record::{GameRecord, MatchRecord};

// Text and pictures of the events.
pub use draw::animation::{
    write_replay, write_replay_streamed, CanvasFit, ReplayOptions, SMALLEST_LEGIBLE_CELL,
};
pub use draw::renderer::{DrawOptions, Renderer};
pub use formats::ascii::board;
pub use formats::event_log::{read_events, read_events_into, EventLogError};
pub use formats::report::{report_text, CheckJson, Results};

// The computer player's engine.
pub use engine::action::Action;
pub use engine::annotate::{annotate, Annotator};
pub use engine::cost::{virtual_duration, CostModel};
pub use engine::explain::explain;
pub use engine::mcts::{Budget, TreeSearch};
pub use engine::position::Position;
pub use engine::search::{Found, Limits, Searcher};

// Matches played as they are refereed.
pub use engine::seeded::Seeded;
pub use play::arena::{play_match, OnIllegal, PlayOptions};
pub use play::computer::{
    thinking_time, ComputerPlayer, Engine, DEFAULT_LEVEL, LEVEL_ITERATIONS, LEVEL_NODES,
};
pub use play::elo::{Elo, Score};
pub use play::fields_file::{read_fields, FieldsFileError, MAX_FIELDS};
pub use play::io_log::{IoLog, TeamLog};
pub use play::latency::{Latency, Timed};
pub use play::pentanomial::Pairs;
pub use play::player::{Clock, GreedyPlayer, Player, RandomPlayer};
pub use play::program::stop_every_program;
pub use play::random::{random_match, random_params, random_start};
pub use play::spec::PlayerSpec;
pub use play::sprt::{Decision, Sprt, SprtStatus};
pub use play::starts::symmetric_start;
pub use play::suite::practice_setup;
pub use play::tournament::{
    merge_results, MatchOutcome, Merged, Standings, Tournament, TournamentError, TournamentKind,
    TournamentProgress, MAX_ENTRANTS, MAX_JOBS, MAX_MATCHES,
};

pub use desk::{
    header_of, resume, setup_of, DeskClock, DeskError, DeskSession, Entered, ResumeError, TurnEntry,
};
#[cfg(feature = "desk")]
pub use desk::{serve, DeskOptions, MAX_BODY_BYTES};

// The README's example runs as a test, so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
