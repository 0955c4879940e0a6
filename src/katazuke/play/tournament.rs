//! Tournaments (§15.3): a round robin or a gauntlet of players over a set
//! of fields, played in parallel into a results file that survives being
//! killed, and standings with a cross table and Elo ratings.
//!
//! **One match per pair and field.** A match already plays each field
//! twice with first and second swapped (§9.2), and the built-in players
//! forget everything between games, so on a field whose two games start
//! from the same cells (as [`super::suite::practice_setup`] and
//! [`GameSetup::swapped_pair`](super::arena::GameSetup::swapped_pair)
//! make them) a rematch with the teams' letters swapped would replay the
//! same two games in the other order: for deterministic players an exact
//! copy, which costs as much as a match, tells nothing, and makes the
//! error bars look narrower than they are. What letters can still change,
//! which team plays game 1's first role on a field whose games start
//! differently, is balanced by alternating them: on even fields the
//! earlier entrant of a pair is A, on odd ones the later.
//!
//! **The results file** is JSON Lines: a header that identifies the
//! tournament (entrants, format, clock, think time, illegal-answer policy,
//! seed, and the fields by count and SHA-256 of their `.ktz` text), then
//! one line per finished match, written and synced as soon as the match
//! ends. A killed run loses the matches in flight and at most a last line
//! cut short, which a rerun drops; the rerun plays only what is missing,
//! and refuses a file whose header is another tournament's. The file is
//! read back a line at a time within [`MAX_LINE_BYTES`], and every line
//! must be the result of the match the schedule has at its place, true to
//! itself: the winner and criterion the totals give (§9.2), game wins that
//! the territory allows (§9.1), totals the field and its clocks allow.
//! A line that is not is refused with its number rather than believed,
//! since the standings would silently follow it.
//!
//! **One run per results file.** A run holds an advisory lock on
//! `FILE.lock` beside the results file ([`RunLock`]) from before it reads
//! the file until it ends, so a second run on the same file is refused,
//! naming the first, instead of both playing every match and writing it
//! twice.
//!
//! **Bounded.** A schedule of more than [`MAX_MATCHES`] matches, or more
//! than [`MAX_ENTRANTS`] entrants (the cross table has a cell for every
//! two), is refused before anything is made of it.
//!
//! **Reproducible.** Every match starts its players fresh, seeded from the
//! tournament's seed and the match's index, and the standings are computed
//! from the lines whatever their order, so under the virtual clock a
//! resumed run ends with the standings of an uninterrupted one, as long as
//! the players do not look at the wall clock themselves (the built-in
//! search does when the think time, not its node budget, stops it).

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::arena::{play_match, MatchSetup, OnIllegal, PlayOptions};
use super::elo::{Elo, Score};
use super::player::Clock;
use super::spec::PlayerSpec;
use crate::katazuke::log::reader::{read, read_setup};
use crate::katazuke::log::record::{GameRecord, MatchRecord};
use crate::katazuke::model::event::Event;
use crate::katazuke::model::team::{PerTeam, Team};
use crate::katazuke::rules::game::Policy;
use crate::katazuke::rules::outcome::{MatchResult, CRITERIA};
use crate::katazuke::TEMPORARY_PREFIX;
use crate::run_lock::{LockError, RunLock};
use crate::text_input::{BadLine, BoundedLines, MAX_LINE_BYTES};

/// The results file's format, in its header.
const RESULTS_VERSION: u32 = 1;

/// Games in a match (§9.2).
const GAMES_PER_MATCH: u32 = 2;

/// The most matches a schedule may hold. The schedule, and on a resumed
/// run every result, are kept in memory; a million matches is already
/// days of play for programs that take a second a game.
pub const MAX_MATCHES: usize = 1_000_000;

/// The most entrants a tournament may have: its cross table has a cell
/// for every two of them, and a column each when printed.
pub const MAX_ENTRANTS: usize = 1_000;

/// The most matches played at once (`jobs`): each runs on a thread of its
/// own, and a program entrant is a process per match.
pub const MAX_JOBS: usize = 256;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Every entrant against every other.
    RoundRobin,
    /// The first entrant against each of the others: a new player
    /// measured against a set of known ones.
    Gauntlet,
}

impl Format {
    /// `round-robin` or `gauntlet`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }

    /// How many pairs of `entrants` meet.
    fn pairs_among(self, entrants: usize) -> u128 {
        let n = entrants as u128;
        match self {
            Format::RoundRobin => n * n.saturating_sub(1) / 2,
            Format::Gauntlet => n.saturating_sub(1),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "unknown tournament format {text:?}: round-robin or gauntlet"
            )),
        }
    }
}

/// A tournament to be played.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Who plays, in the order the schedule and the results name them.
    pub entrants: Vec<PlayerSpec>,
    /// The fields every pair plays on.
    pub fields: Vec<MatchSetup>,
    /// Who meets whom.
    pub format: Format,
    /// How each match is played.
    pub options: PlayOptions,
    /// Where the players' seeds come from.
    pub seed: u64,
}

/// One match of the schedule: entrant `a` as team A against `b` as team B
/// on field `field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its place in the schedule, from 0.
    pub index: usize,
    /// Team A's entrant.
    pub a: usize,
    /// Team B's entrant.
    pub b: usize,
    /// The field, an index into [`Tournament::fields`].
    pub field: usize,
}

impl Pairing {
    /// The entrant playing `team`.
    pub fn entrant(&self, team: Team) -> usize {
        match team {
            Team::A => self.a,
            Team::B => self.b,
        }
    }
}

/// A finished match: one line of the results file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchOutcome {
    /// The pairing's index in the schedule.
    pub pairing: usize,
    /// The field's index.
    pub field: usize,
    /// Team A's entrant, as named.
    pub a: String,
    /// Team B's entrant, as named.
    pub b: String,
    /// The match's winner; none when criteria 1–4 leave it level (§9.4).
    pub winner: Option<Team>,
    /// The deciding criterion of §9.2, 1 to 4.
    pub criterion: Option<u8>,
    /// Games won.
    pub wins: PerTeam<u32>,
    /// Territory over both games.
    pub territory: PerTeam<u32>,
    /// Objects cleared over both games.
    pub objects: PerTeam<u32>,
    /// Time used over both games, ms.
    pub time_used: PerTeam<u64>,
    /// Turns over both games.
    pub turns: u32,
}

/// Why a tournament could not be played to the end.
#[derive(Debug)]
pub enum TournamentError {
    /// The tournament is not one that can be played.
    Setup(String),
    /// A file could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// The results file is not this tournament's.
    Foreign {
        /// The results file.
        path: PathBuf,
        /// What differs.
        problem: String,
    },
    /// A line of the results file is not a result of this tournament.
    Damaged {
        /// The results file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// An output cannot be written: found before any match is played.
    Unwritable {
        /// `the results file` or `the records folder`.
        what: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        problem: String,
    },
    /// Another run is playing on the same results file.
    Busy {
        /// The results file.
        path: PathBuf,
        /// Its lock, held by the other run.
        held: LockError,
    },
    /// A match went wrong in a way no player can cause.
    Match {
        /// The pairing's index.
        index: usize,
        /// What went wrong.
        problem: String,
    },
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Setup(problem) => f.write_str(problem),
            TournamentError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TournamentError::Foreign { path, problem } => write!(
                f,
                "{} is not the results file of this tournament ({problem}); \
                 name another results file, or delete this one to start afresh",
                path.display()
            ),
            TournamentError::Damaged {
                path,
                line,
                problem,
            } => write!(
                f,
                "{} line {line}: {problem}; repair or delete the line to resume",
                path.display()
            ),
            TournamentError::Unwritable {
                what,
                path,
                problem,
            } => write!(f, "{what} {} cannot be written: {problem}", path.display()),
            TournamentError::Busy { path, held } => {
                write!(f, "{} is in use: {held}", path.display())
            }
            TournamentError::Match { index, problem } => write!(f, "match {index}: {problem}"),
        }
    }
}

impl std::error::Error for TournamentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TournamentError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> TournamentError + '_ {
    move |error| TournamentError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The results file's first line.
#[derive(Serialize)]
struct Header {
    tournament: u32,
    format: &'static str,
    entrants: Vec<String>,
    fields: usize,
    fields_sha256: String,
    clock: &'static str,
    think_ms: u64,
    illegal: &'static str,
    seed: u64,
}

impl Tournament {
    /// Every match to play, in a fixed order: field by field, and on each
    /// field the pairs in entrant order, so that a run cut short has
    /// played every pair about equally often. Refused when there would be
    /// more than [`MAX_MATCHES`].
    pub fn schedule(&self) -> Result<Vec<Pairing>, TournamentError> {
        let matches = self.check_size()?;
        let pairs = self.pairs();
        let mut schedule = Vec::with_capacity(matches);
        for field in 0..self.fields.len() {
            for &(earlier, later) in &pairs {
                let (a, b) = if field % 2 == 0 {
                    (earlier, later)
                } else {
                    (later, earlier)
                };
                schedule.push(Pairing {
                    index: schedule.len(),
                    a,
                    b,
                    field,
                });
            }
        }
        Ok(schedule)
    }

    /// The number of matches, if it is within [`MAX_MATCHES`] and the
    /// entrants within [`MAX_ENTRANTS`]: counted before anything the size
    /// of the schedule is made.
    fn check_size(&self) -> Result<usize, TournamentError> {
        let (entrants, fields) = (self.entrants.len(), self.fields.len());
        let matches = self.format.pairs_among(entrants) * fields as u128;
        if matches > MAX_MATCHES as u128 {
            return Err(TournamentError::Setup(format!(
                "a {} of {entrants} entrants on {fields} field{} is {matches} matches; \
                 a tournament may have at most {MAX_MATCHES} (fewer entrants or fields)",
                self.format,
                if fields == 1 { "" } else { "s" },
            )));
        }
        if entrants > MAX_ENTRANTS {
            return Err(TournamentError::Setup(format!(
                "{entrants} entrants: a tournament may have at most {MAX_ENTRANTS} \
                 (its cross table has a row and a column for each)"
            )));
        }
        // Within MAX_MATCHES, so within usize.
        Ok(matches as usize)
    }

    /// The pairs that meet, the earlier entrant first.
    fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.entrants.len();
        match self.format {
            Format::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
            Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        }
    }

    /// Opens and plays the tournament on `results` (see
    /// [`Tournament::open`] and [`Session::play`]).
    pub fn run(
        &self,
        results: &Path,
        jobs: usize,
        records_dir: Option<&Path>,
        progress: &mut dyn FnMut(&MatchOutcome),
    ) -> Result<Standings, TournamentError> {
        check_jobs(jobs)?;
        self.open(results, records_dir)?.play(jobs, progress)
    }

    /// Makes ready to play on `results`, before any match: checks the
    /// tournament, locks the results file against other runs, reads back
    /// and checks the matches it holds, checks that `records_dir` (if
    /// given) can be written, and then opens `results` for appending: a
    /// new file with this tournament's header, or the existing one cut
    /// after its last complete line. Nothing is written when any of that
    /// fails.
    pub fn open(
        &self,
        results: &Path,
        records_dir: Option<&Path>,
    ) -> Result<Session<'_>, TournamentError> {
        self.check()?;
        let schedule = self.schedule()?;
        let unwritable = |problem: String| TournamentError::Unwritable {
            what: "the results file",
            path: results.to_path_buf(),
            problem,
        };
        // Refused before its lock file is made beside it (in /dev, say).
        if let Ok(found) = fs::metadata(results) {
            if found.is_dir() {
                return Err(unwritable("it is a folder".into()));
            }
            if !found.is_file() {
                return Err(unwritable(
                    "it is not a regular file, and a results file is read back and appended to"
                        .into(),
                ));
            }
        }
        let lock = RunLock::acquire(&lock_path(results)).map_err(|error| match error {
            held @ LockError::Held { .. } => TournamentError::Busy {
                path: results.to_path_buf(),
                held,
            },
            LockError::Io { .. } => unwritable(error.to_string()),
        })?;
        // Made now if missing, while the lock is held, and removed again
        // if a check after it fails: a refused run leaves nothing.
        let opened = fs::OpenOptions::new().read(true).append(true).open(results);
        let (mut file, made) = match opened {
            Ok(file) => (file, false),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                let made = fs::OpenOptions::new()
                    .read(true)
                    .append(true)
                    .create_new(true)
                    .open(results)
                    .map_err(|error| unwritable(error.to_string()))?;
                (made, true)
            }
            Err(error) => return Err(unwritable(error.to_string())),
        };
        let checked = if made {
            Ok((0, Vec::new()))
        } else {
            self.read_results(results, &file, &schedule)
        };
        let ready = checked.and_then(|(complete, outcomes)| {
            if let Some(dir) = records_dir {
                check_folder(dir).map_err(|problem| TournamentError::Unwritable {
                    what: "the records folder",
                    path: dir.to_path_buf(),
                    problem,
                })?;
            }
            file.set_len(complete).map_err(io_error(results))?;
            if complete == 0 {
                write_line(&mut file, results, &self.header())?;
            }
            Ok(outcomes)
        });
        let outcomes = match ready {
            Ok(outcomes) => outcomes,
            Err(error) => {
                if made {
                    // Best effort: the error says what went wrong.
                    let _ = fs::remove_file(results);
                }
                return Err(error);
            }
        };
        Ok(Session {
            tournament: self,
            schedule,
            results: results.to_path_buf(),
            file,
            outcomes,
            records_dir: records_dir.map(Path::to_path_buf),
            _lock: lock,
        })
    }

    /// Refuses what cannot be played unattended, would make an ambiguous
    /// table or could not be written down: fewer than two entrants, a
    /// schedule too large, one entrant named twice, a person at the
    /// terminal, no fields, a field whose starts §3.1 or §9.2 forbid,
    /// names too long for a line of the results file.
    fn check(&self) -> Result<(), TournamentError> {
        let setup = |problem: String| Err(TournamentError::Setup(problem));
        if self.entrants.len() < 2 {
            return setup("a tournament needs at least two entrants".into());
        }
        self.check_size()?;
        let names = self.names();
        for (index, name) in names.iter().enumerate() {
            if names[..index].contains(name) {
                return setup(format!("{name} is an entrant twice"));
            }
        }
        if self.entrants.iter().any(PlayerSpec::is_human) {
            return setup("a tournament is played unattended: human cannot be an entrant".into());
        }
        if self.fields.is_empty() {
            return setup("a tournament needs at least one field".into());
        }
        for (index, field) in self.fields.iter().enumerate() {
            if let Err(error) = read_setup(field_text(field).as_bytes()) {
                return setup(format!(
                    "field {index} cannot be played: {}",
                    error.line_for(&format!("field {index}"))
                ));
            }
        }
        let longest = self.longest_line();
        if longest > MAX_LINE_BYTES {
            return setup(format!(
                "the entrants' names are too long: a line of the results file would take \
                 {longest} bytes, and a line may hold at most {} MiB",
                MAX_LINE_BYTES >> 20
            ));
        }
        Ok(())
    }

    /// The most bytes a line of the results file can take, its line break
    /// not counted: the header, or a result between the two entrants with
    /// the longest names and every number at its largest.
    fn longest_line(&self) -> usize {
        let names = self.names();
        let mut by_length: Vec<&String> = names.iter().collect();
        by_length.sort_by_key(|name| std::cmp::Reverse(json_line(name).len()));
        let largest = MatchOutcome {
            pairing: usize::MAX,
            field: usize::MAX,
            a: by_length
                .first()
                .map_or_else(String::new, |name| (*name).clone()),
            b: by_length
                .get(1)
                .map_or_else(String::new, |name| (*name).clone()),
            winner: Some(Team::A),
            criterion: Some(u8::MAX),
            wins: PerTeam::from_fn(|_| u32::MAX),
            territory: PerTeam::from_fn(|_| u32::MAX),
            objects: PerTeam::from_fn(|_| u32::MAX),
            time_used: PerTeam::from_fn(|_| u64::MAX),
            turns: u32::MAX,
        };
        json_line(&self.header())
            .len()
            .max(json_line(&largest).len())
            - 1
    }

    fn names(&self) -> Vec<String> {
        self.entrants.iter().map(PlayerSpec::to_string).collect()
    }

    fn header(&self) -> Header {
        let mut digest = Sha256::new();
        for field in &self.fields {
            digest.update(field_text(field).as_bytes());
        }
        let fields_sha256 = digest
            .finalize()
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        Header {
            tournament: RESULTS_VERSION,
            format: self.format.name(),
            entrants: self.names(),
            fields: self.fields.len(),
            fields_sha256,
            clock: match self.options.clock {
                Clock::Wall => "wall",
                Clock::Virtual => "virtual",
            },
            think_ms: u64::try_from(self.options.think.as_millis()).unwrap_or(u64::MAX),
            illegal: match self.options.illegal {
                OnIllegal::Pass => "pass",
                OnIllegal::Out => "out",
            },
            seed: self.seed,
        }
    }

    /// Reads the results file `file` (named `path`) a line at a time: how
    /// many of its bytes are complete lines worth keeping (0 when the
    /// header itself is missing or cut short), and the matches they hold.
    /// A last line without its line break was cut short by a kill and is
    /// left out.
    fn read_results(
        &self,
        path: &Path,
        mut file: &fs::File,
        schedule: &[Pairing],
    ) -> Result<(u64, Vec<MatchOutcome>), TournamentError> {
        let header = json_line(&self.header());
        let foreign = |problem: String| TournamentError::Foreign {
            path: path.to_path_buf(),
            problem,
        };
        let length = file.metadata().map_err(io_error(path))?.len();
        if length < header.len() as u64 {
            // Killed while the header was being written, or an empty file:
            // shorter than a header, so read at once.
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(io_error(path))?;
            return if header.as_bytes().starts_with(&bytes) {
                Ok((0, Vec::new()))
            } else {
                Err(foreign(
                    "its first line is not a tournament's header".into(),
                ))
            };
        }
        let mut last = [0];
        file.seek(SeekFrom::End(-1))
            .and_then(|_| file.read_exact(&mut last))
            .and_then(|()| file.rewind())
            .map_err(io_error(path))?;
        let ends_with_break = last[0] == b'\n';
        let taken = Cell::new(0);
        let lines = BoundedLines::new(Counted {
            inner: BufReader::new(file),
            taken: &taken,
        });
        let names = self.names();
        let mut complete = 0;
        let mut line_of: BTreeMap<usize, usize> = BTreeMap::new();
        let mut outcomes = Vec::new();
        for line in lines {
            let cut_short = taken.get() == length && !ends_with_break;
            let (number, text) = match line {
                Ok(line) => line,
                Err(error) if error.line == 1 => {
                    return Err(foreign(format!(
                        "its first line is not a tournament's header: {}",
                        error.problem
                    )))
                }
                // A kill can cut a line inside a character.
                Err(error) if cut_short && matches!(error.problem, BadLine::NotUtf8 { .. }) => {
                    break
                }
                Err(error) => {
                    return Err(match error.problem {
                        BadLine::Unreadable(error) => io_error(path)(error),
                        problem => TournamentError::Damaged {
                            path: path.to_path_buf(),
                            line: error.line,
                            problem: problem.to_string(),
                        },
                    })
                }
            };
            if number == 1 {
                // Even cut short, a first line this long is not the header
                // begun: the file is at least a header long.
                if text != header.trim_end() {
                    return Err(foreign(header_differences(&text, &self.header())));
                }
            } else if cut_short {
                break;
            } else if !text.trim().is_empty() {
                // A blank line (an editor's) holds no match.
                let damaged = |problem: String| TournamentError::Damaged {
                    path: path.to_path_buf(),
                    line: number,
                    problem,
                };
                let outcome: MatchOutcome = serde_json::from_str(&text)
                    .map_err(|error| damaged(format!("not a match's result: {error}")))?;
                check_outcome(&outcome, schedule, &self.fields, &names).map_err(damaged)?;
                if let Some(earlier) = line_of.insert(outcome.pairing, number) {
                    return Err(damaged(format!(
                        "match {} is already on line {earlier}",
                        outcome.pairing
                    )));
                }
                outcomes.push(outcome);
            }
            complete = taken.get();
        }
        Ok((complete, outcomes))
    }

    /// Plays `pending` on `jobs` threads, handing each outcome to `done` on
    /// this thread in the order they end. The first error, a match's or
    /// `done`'s, stops new matches from starting and is returned once the
    /// ones in flight have ended.
    fn play_all(
        &self,
        pending: &[Pairing],
        jobs: usize,
        records_dir: Option<&Path>,
        done: &mut dyn FnMut(MatchOutcome) -> Result<(), TournamentError>,
    ) -> Result<(), TournamentError> {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            for _ in 0..jobs.clamp(1, pending.len().max(1)) {
                let sender = sender.clone();
                let (next, stop) = (&next, &stop);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Some(pairing) = pending.get(next.fetch_add(1, Ordering::Relaxed))
                        else {
                            break;
                        };
                        if sender.send(self.play(pairing, records_dir)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            let mut first_error = None;
            for result in receiver {
                if let Err(error) = result.and_then(&mut *done) {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(error);
                }
            }
            first_error.map_or(Ok(()), Err)
        })
    }

    /// Plays one match with fresh players and referees its record.
    fn play(
        &self,
        pairing: &Pairing,
        records_dir: Option<&Path>,
    ) -> Result<MatchOutcome, TournamentError> {
        let failed = |problem: String| TournamentError::Match {
            index: pairing.index,
            problem,
        };
        let mut players = PerTeam::from_fn(|team| {
            self.entrants[pairing.entrant(team)].create(player_seed(self.seed, pairing.index, team))
        });
        let record = play_match(
            &self.fields[pairing.field],
            PerTeam {
                a: players.a.as_mut(),
                b: players.b.as_mut(),
            },
            &self.options,
        )
        .map_err(|violation| failed(format!("{violation} [{}]", violation.code)))?;
        let text = record.to_string();
        let outcome = self.outcome(pairing, &text).map_err(failed)?;
        if let Some(dir) = records_dir {
            let path = dir.join(format!("match-{}.ktz", pairing.index));
            reel::write_atomically(&path, TEMPORARY_PREFIX, |out| {
                out.write_all(text.as_bytes())
            })
            .map_err(io_error(&path))?;
        }
        Ok(outcome)
    }

    /// The result line of `pairing`'s match from its record's text, as
    /// the referee reads it.
    fn outcome(&self, pairing: &Pairing, text: &str) -> Result<MatchOutcome, String> {
        let mut result = None;
        let mut turns = 0;
        let verdict = read(text.as_bytes(), Policy::Strict, |record| {
            if let Event::TurnEnd { .. } = record.event {
                turns += 1;
            }
            result = result.or(MatchResult::of(&record.event));
        });
        if let Some(error) = verdict.error {
            return Err(format!(
                "its record is not a valid match: {}",
                error.line_for(&format!("match-{}.ktz", pairing.index))
            ));
        }
        let result = result.ok_or("its record has no result")?;
        Ok(MatchOutcome {
            pairing: pairing.index,
            field: pairing.field,
            a: self.entrants[pairing.a].to_string(),
            b: self.entrants[pairing.b].to_string(),
            winner: result.winner,
            criterion: result.criterion,
            wins: result.wins,
            territory: result.territory,
            objects: result.objects,
            time_used: result.time_used,
            turns,
        })
    }

    /// The standings over `outcomes`, matches of `schedule` (those of
    /// pairings not in it are left out; a results file never gives any).
    /// The same outcomes in any order give the same standings.
    fn standings(&self, schedule: &[Pairing], outcomes: &[MatchOutcome]) -> Standings {
        let n = self.entrants.len();
        let mut tallies = vec![Tally::default(); n];
        let mut cross: Vec<Vec<Option<Versus>>> = vec![vec![None; n]; n];
        for outcome in outcomes {
            let Some(pairing) = schedule.get(outcome.pairing) else {
                continue;
            };
            for team in Team::BOTH {
                let (me, them) = (pairing.entrant(team), pairing.entrant(team.other()));
                tallies[me].add(outcome, team);
                let versus = cross[me][them].get_or_insert_with(Versus::default);
                versus.points += match_points(outcome.winner, team);
                versus.matches += 1;
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| tallies[i].rank_before(&tallies[j]).then(i.cmp(&j)));
        let names = self.names();
        let rows = order
            .iter()
            .enumerate()
            .map(|(place, &entrant)| {
                let tally = &tallies[entrant];
                Standing {
                    rank: place + 1,
                    entrant,
                    name: names[entrant].clone(),
                    points: tally.matches.points(),
                    matches: tally.matches,
                    games: tally.games,
                    territory: tally.territory,
                    objects: tally.objects,
                    time_used: tally.time_used,
                    elo: tally.matches.elo(),
                }
            })
            .collect();
        let cross = order
            .iter()
            .map(|&row| order.iter().map(|&column| cross[row][column]).collect())
            .collect();
        Standings { rows, cross }
    }
}

/// A tournament made ready to play on its results file, which it holds
/// locked until it is dropped: see [`Tournament::open`].
pub struct Session<'t> {
    tournament: &'t Tournament,
    schedule: Vec<Pairing>,
    results: PathBuf,
    file: fs::File,
    outcomes: Vec<MatchOutcome>,
    records_dir: Option<PathBuf>,
    /// Held, not read: other runs are refused while it lives.
    _lock: RunLock,
}

impl Session<'_> {
    /// The matches the results file already held.
    pub fn finished(&self) -> &[MatchOutcome] {
        &self.outcomes
    }

    /// The number of matches in the schedule.
    pub fn total(&self) -> usize {
        self.schedule.len()
    }

    /// Plays every match of the schedule that the results file does not
    /// hold yet, `jobs` at a time (1 to [`MAX_JOBS`]), appending each to
    /// it as it ends (and its record to `RECORDS/match-INDEX.ktz`, if
    /// asked for) and telling `progress`; then the standings over all of
    /// the file's matches.
    ///
    /// On an error the matches in flight are still waited for and
    /// written, so that a rerun need not play them again.
    pub fn play(
        self,
        jobs: usize,
        progress: &mut dyn FnMut(&MatchOutcome),
    ) -> Result<Standings, TournamentError> {
        check_jobs(jobs)?;
        let Session {
            tournament,
            schedule,
            results,
            mut file,
            mut outcomes,
            records_dir,
            _lock,
        } = self;
        let done: BTreeSet<usize> = outcomes.iter().map(|outcome| outcome.pairing).collect();
        let pending: Vec<Pairing> = schedule
            .iter()
            .filter(|pairing| !done.contains(&pairing.index))
            .copied()
            .collect();
        tournament.play_all(&pending, jobs, records_dir.as_deref(), &mut |outcome| {
            write_line(&mut file, &results, &outcome)?;
            progress(&outcome);
            outcomes.push(outcome);
            Ok(())
        })?;
        Ok(tournament.standings(&schedule, &outcomes))
    }
}

fn check_jobs(jobs: usize) -> Result<(), TournamentError> {
    if (1..=MAX_JOBS).contains(&jobs) {
        Ok(())
    } else {
        Err(TournamentError::Setup(format!(
            "{jobs} matches at once: 1 to {MAX_JOBS}"
        )))
    }
}

/// `FILE.lock` beside the results file, found through its real path, so
/// that the same file named another way (relative, through a symbolic
/// link) has the same lock.
fn lock_path(results: &Path) -> PathBuf {
    let real = fs::canonicalize(results).ok().or_else(|| {
        let folder = match results.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(folder).ok()?.join(results.file_name()?))
    });
    let real = real.unwrap_or_else(|| results.to_path_buf());
    let mut name = real.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    real.with_file_name(name)
}

/// Makes `dir` if it is missing and checks that a file can be made in
/// it, by making one and removing it.
fn check_folder(dir: &Path) -> Result<(), String> {
    if fs::metadata(dir).is_ok_and(|found| !found.is_dir()) {
        return Err("it is not a folder".into());
    }
    let probe = dir.join(format!(
        "{TEMPORARY_PREFIX}{}-probe.tmp",
        std::process::id()
    ));
    fs::create_dir_all(dir)
        .and_then(|()| {
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&probe)
        })
        .and_then(|_| fs::remove_file(&probe))
        .map_err(|error| error.to_string())
}

/// A reader that counts the bytes taken from it: where the line just
/// read ends, to cut the results file after its last complete line.
struct Counted<'c, R> {
    inner: R,
    taken: &'c Cell<u64>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buffer)?;
        self.taken.set(self.taken.get() + read as u64);
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Counted<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.taken.set(self.taken.get() + amount as u64);
        self.inner.consume(amount);
    }
}

/// A field as the text that identifies it: its `.ktz` header and both
/// games' starts, without names or turns.
fn field_text(field: &MatchSetup) -> String {
    let games = field
        .games
        .iter()
        .map(|game| GameRecord {
            first: game.first,
            start: game.start.clone(),
            current: game.current,
            turns: Vec::new(),
        })
        .collect();
    MatchRecord {
        names: PerTeam::default(),
        params: field.params.clone(),
        games,
        janken: None,
    }
    .to_string()
}

/// A player's seed: one number per match and team, spread by SplitMix64
/// so that neighbouring matches draw unrelated sequences.
fn player_seed(seed: u64, index: usize, team: Team) -> u64 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    mix(seed ^ mix(index as u64 * 2 + team.index() as u64))
}

/// What the header on file has that this tournament's has not, key by
/// key, or why it is not a header at all.
fn header_differences(found: &str, expected: &Header) -> String {
    let found: serde_json::Value = match serde_json::from_str(found) {
        Ok(value @ serde_json::Value::Object(_)) if value.get("tournament").is_some() => value,
        _ => return "its first line is not a tournament's header".into(),
    };
    let expected = serde_json::to_value(expected).unwrap_or_default();
    let keys = expected.as_object().into_iter().flat_map(|map| map.keys());
    let differences: Vec<String> = keys
        .filter_map(|key| {
            let (there, here) = (found.get(key), expected.get(key));
            (there != here).then(|| {
                let there = there.map_or("nothing".into(), |value| value.to_string());
                let here = here.map_or("nothing".into(), |value| value.to_string());
                format!("{key} {there} there, {here} here")
            })
        })
        .collect();
    if differences.is_empty() {
        "its header is written differently".into()
    } else {
        differences.join("; ")
    }
}

/// Whether `outcome` is a true result of the match `schedule` has at its
/// place: between the entrants with the letters the schedule gives them,
/// on its field, with totals that field allows and the winner they give.
fn check_outcome(
    outcome: &MatchOutcome,
    schedule: &[Pairing],
    fields: &[MatchSetup],
    names: &[String],
) -> Result<(), String> {
    let index = outcome.pairing;
    let Some(pairing) = schedule.get(index) else {
        return Err(format!(
            "match {index} is not in the schedule of {} matches",
            schedule.len()
        ));
    };
    let (a, b) = (&names[pairing.a], &names[pairing.b]);
    if outcome.field == pairing.field && outcome.a == *b && outcome.b == *a {
        return Err(format!(
            "match {index} is {a} as A against {b} as B (the letters alternate from field \
             to field), not the other way round"
        ));
    }
    if outcome.field != pairing.field || outcome.a != *a || outcome.b != *b {
        return Err(format!(
            "match {index} is {a} against {b} on field {}, not {} against {} on field {}",
            pairing.field, outcome.a, outcome.b, outcome.field
        ));
    }
    let (wins, territory) = (outcome.wins, outcome.territory);
    if u64::from(wins.a) + u64::from(wins.b) > u64::from(GAMES_PER_MATCH) {
        return Err(format!(
            "match {index} has {} and {} game wins in a match of {GAMES_PER_MATCH} games",
            wins.a, wins.b
        ));
    }
    // A game is won by more territory and drawn with as much (§9.1): a
    // team has a cell at least for each game it won, and when the other
    // team won none, that many cells more than it.
    for team in Team::BOTH {
        let other = team.other();
        let floor = match wins[other] {
            0 => u64::from(territory[other]) + u64::from(wins[team]),
            _ => u64::from(wins[team]),
        };
        if u64::from(territory[team]) < floor {
            return Err(format!(
                "match {index} has game wins {}-{} with territory {}-{}, which cannot be: \
                 a game is won by more territory, and drawn with as much",
                wins.a, wins.b, territory.a, territory.b
            ));
        }
    }
    let limits = Limits::of(&fields[pairing.field]);
    let beyond = |what: &str, claimed: u64, most: u64| {
        (claimed > most).then(|| {
            format!(
                "match {index} has {claimed} {what} over both games, more than field {} \
                 allows ({most})",
                pairing.field
            )
        })
    };
    let sum = |pair: PerTeam<u32>| u64::from(pair.a) + u64::from(pair.b);
    let too_much = beyond("cells of territory", sum(territory), limits.territory)
        .or_else(|| beyond("objects cleared", sum(outcome.objects), limits.objects))
        .or_else(|| {
            let time = outcome.time_used;
            beyond("ms used by A", time.a, limits.team_time)
                .or_else(|| beyond("ms used by B", time.b, limits.team_time))
                .or_else(|| {
                    beyond(
                        "ms used by both teams",
                        time.a.saturating_add(time.b),
                        limits.game_time,
                    )
                })
        });
    if let Some(problem) = too_much {
        return Err(problem);
    }
    let decided = MatchResult::from_totals(
        GAMES_PER_MATCH,
        wins,
        territory,
        outcome.objects,
        outcome.time_used,
        None,
    );
    if (outcome.winner, outcome.criterion) != (decided.winner, decided.criterion) {
        return Err(format!(
            "match {index} says {}, but its totals give {}",
            decision(outcome.winner, outcome.criterion),
            decision(decided.winner, decided.criterion)
        ));
    }
    Ok(())
}

/// A match's winner and deciding criterion in words.
fn decision(winner: Option<Team>, criterion: Option<u8>) -> String {
    let named = criterion.and_then(|number| CRITERIA.get(usize::from(number).checked_sub(1)?));
    match (winner, criterion, named) {
        (Some(team), Some(number), Some(name)) => {
            format!("{team} wins by {name} (criterion {number})")
        }
        (None, None, _) => "no winner (level on criteria 1-4)".into(),
        (winner, criterion, _) => format!(
            "winner {} by criterion {}",
            winner.map_or("none".into(), |team| team.to_string()),
            criterion.map_or("none".into(), |number| number.to_string())
        ),
    }
}

/// The most a match on one field can total over both its games.
struct Limits {
    /// Cells owned by both teams: every cell, each game.
    territory: u64,
    /// Objects cleared by both teams: what the field holds after the
    /// start cells are emptied (§3.2), and both stocks.
    objects: u64,
    /// Time one team uses: its clock, and never more than the game's.
    team_time: u64,
    /// Time both teams use: the game clock.
    game_time: u64,
}

impl Limits {
    fn of(field: &MatchSetup) -> Limits {
        let params = &field.params;
        let counts = &params.field;
        let total: u64 = counts.counts().iter().map(|&count| u64::from(count)).sum();
        let stocks = u64::from(params.stock.first) + u64::from(params.stock.second);
        let objects = field
            .games
            .iter()
            .map(|game| {
                let emptied: u64 = Team::BOTH
                    .iter()
                    .flat_map(|&team| &game.start[team])
                    .map(|&cell| u64::from(counts.count(cell)))
                    .sum();
                total.saturating_sub(emptied) + stocks
            })
            .sum();
        let games = field.games.len() as u64;
        Limits {
            territory: games * counts.size().cells() as u64,
            objects,
            team_time: games * params.team_time.min(params.game_time),
            game_time: games * params.game_time,
        }
    }
}

fn json_line(value: &impl Serialize) -> String {
    // Plain structs of strings and numbers always serialise.
    serde_json::to_string(value).unwrap_or_default() + "\n"
}

/// Writes one line at once and waits for the disk, so that a kill leaves
/// the file true up to its last complete line.
fn write_line(
    file: &mut fs::File,
    path: &Path,
    value: &impl Serialize,
) -> Result<(), TournamentError> {
    file.write_all(json_line(value).as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(io_error(path))
}

/// 1 for a match won, ½ for one left level, 0 for one lost.
fn match_points(winner: Option<Team>, team: Team) -> f64 {
    match winner {
        Some(winner) if winner == team => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// An entrant's sums so far.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    matches: Score,
    games: Score,
    territory: u64,
    objects: u64,
    time_used: u64,
}

impl Tally {
    fn add(&mut self, outcome: &MatchOutcome, team: Team) {
        match outcome.winner {
            Some(winner) if winner == team => self.matches.wins += 1,
            Some(_) => self.matches.losses += 1,
            None => self.matches.draws += 1,
        }
        let (won, lost) = (outcome.wins[team], outcome.wins[team.other()]);
        self.games.wins += won;
        self.games.losses += lost;
        self.games.draws += GAMES_PER_MATCH.saturating_sub(won + lost);
        self.territory += u64::from(outcome.territory[team]);
        self.objects += u64::from(outcome.objects[team]);
        self.time_used += outcome.time_used[team];
    }

    /// Less when `self` ranks higher: the better share of the match
    /// points (entrants of a gauntlet play different numbers of matches),
    /// then more points, more games won than lost, and the §9.2 totals.
    fn rank_before(&self, other: &Tally) -> std::cmp::Ordering {
        let half_points = |tally: &Tally| u64::from(2 * tally.matches.wins + tally.matches.draws);
        let played = |tally: &Tally| u64::from(tally.matches.total());
        let margin = |tally: &Tally| i64::from(tally.games.wins) - i64::from(tally.games.losses);
        let share = |tally: &Tally, against: &Tally| half_points(tally) * played(against);
        (played(other) > 0)
            .cmp(&(played(self) > 0))
            .then(share(other, self).cmp(&share(self, other)))
            .then(half_points(other).cmp(&half_points(self)))
            .then(margin(other).cmp(&margin(self)))
            .then(other.territory.cmp(&self.territory))
            .then(other.objects.cmp(&self.objects))
            .then(self.time_used.cmp(&other.time_used))
    }
}

/// What one entrant scored against another.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Versus {
    /// Match points.
    pub points: f64,
    /// Matches played.
    pub matches: u32,
}

/// One entrant's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// From 1.
    pub rank: usize,
    /// Its index in [`Tournament::entrants`].
    pub entrant: usize,
    /// As named.
    pub name: String,
    /// Match points: 1 for a match won, ½ for one left level.
    pub points: f64,
    /// Matches won, left level (`draws`) and lost.
    pub matches: Score,
    /// Games won, drawn and lost.
    pub games: Score,
    /// Territory over all its games.
    pub territory: u64,
    /// Objects cleared over all its games.
    pub objects: u64,
    /// Time used over all its games, ms.
    pub time_used: u64,
    /// Its performance against its opponents, from its matches (see
    /// [`super::elo`]).
    pub elo: Elo,
}

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// In rank order.
    pub rows: Vec<Standing>,
    /// `cross[r][c]`: what the entrant of `rows[r]` scored against that of
    /// `rows[c]`; none when they did not meet.
    pub cross: Vec<Vec<Option<Versus>>>,
}

/// Names longer than this are shortened in the table.
const NAME_CHARS: usize = 28;

impl Standings {
    /// The standings as plain text: one line per entrant, then the cross
    /// table of match points, its columns numbered by rank.
    pub fn table(&self) -> String {
        let mut standings = vec![[
            "Rank",
            "Name",
            "Points",
            "Matches",
            "Elo",
            "Games W-D-L",
            "Territory",
            "Objects",
            "Time (s)",
        ]
        .map(String::from)
        .to_vec()];
        for row in &self.rows {
            let games = row.games;
            standings.push(vec![
                row.rank.to_string(),
                short_name(&row.name),
                format!("{:.1}", row.points),
                row.matches.total().to_string(),
                format!("{:.0}", row.elo),
                format!("{}-{}-{}", games.wins, games.draws, games.losses),
                row.territory.to_string(),
                row.objects.to_string(),
                format!("{:.1}", row.time_used as f64 / 1000.0),
            ]);
        }
        let mut cross = vec![["Rank", "Name"].map(String::from).to_vec()];
        cross[0].extend((1..=self.rows.len()).map(|rank| rank.to_string()));
        for (row, scores) in self.rows.iter().zip(&self.cross) {
            let mut line = vec![row.rank.to_string(), short_name(&row.name)];
            line.extend(scores.iter().map(|versus| match versus {
                Some(versus) => format!("{}/{}", versus.points, versus.matches),
                None => "-".into(),
            }));
            cross.push(line);
        }
        columns(&standings) + "\n" + &columns(&cross)
    }
}

/// `name`, or its beginning and end around `…` when it is too long: a
/// program's command line tends to differ from another's at the end.
fn short_name(name: &str) -> String {
    let chars: Vec<char> = crate::printable::printable(name).chars().collect();
    if chars.len() <= NAME_CHARS {
        return chars.into_iter().collect();
    }
    let head = NAME_CHARS / 3;
    let tail = NAME_CHARS - head - 1;
    let mut short: String = chars[..head].iter().collect();
    short.push('…');
    short.extend(&chars[chars.len() - tail..]);
    short
}

/// Rows of cells aligned in columns two spaces apart: the second column
/// (the names) to the left, the others to the right.
fn columns(rows: &[Vec<String>]) -> String {
    let mut widths = Vec::new();
    for row in rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, &width))| {
                if column == 1 {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        text += cells.join("  ").trim_end();
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::katazuke::play::suite::practice_setup;

    /// Fast and reproducible: the virtual clock, and thinking bounded so
    /// generously that the built-in search stops by its node count, never
    /// by the wall clock of a busy test machine.
    fn tiny(format: Format) -> Tournament {
        Tournament {
            entrants: ["builtin:random", "builtin:greedy", "builtin:1"]
                .iter()
                .map(|name| PlayerSpec::parse(name).expect("a built-in player"))
                .collect(),
            fields: vec![practice_setup(1), practice_setup(2)],
            format,
            options: PlayOptions {
                clock: Clock::Virtual,
                think: Duration::from_secs(600),
                illegal: OnIllegal::Pass,
            },
            seed: 7,
        }
    }

    fn lines(path: &Path) -> Vec<String> {
        fs::read_to_string(path)
            .expect("the results file")
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn round_robins_and_gauntlets_are_scheduled_fairly() {
        let round_robin = tiny(Format::RoundRobin).schedule().expect("small");
        // 3 pairs on each of 2 fields.
        assert_eq!(round_robin.len(), 6);
        assert!(round_robin.iter().enumerate().all(|(i, p)| p.index == i));
        let on = |field: usize| -> Vec<(usize, usize)> {
            round_robin
                .iter()
                .filter(|p| p.field == field)
                .map(|p| (p.a, p.b))
                .collect()
        };
        assert_eq!(on(0), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(on(1), [(1, 0), (2, 0), (2, 1)]);
        let gauntlet = tiny(Format::Gauntlet).schedule().expect("small");
        let pairs: Vec<(usize, usize, usize)> =
            gauntlet.iter().map(|p| (p.a, p.b, p.field)).collect();
        assert_eq!(pairs, [(0, 1, 0), (0, 2, 0), (1, 0, 1), (2, 0, 1)]);
        for format in [Format::RoundRobin, Format::Gauntlet] {
            assert_eq!(format.name().parse(), Ok(format));
        }
        assert!("swiss".parse::<Format>().is_err());
    }

    #[test]
    fn a_round_robin_is_played_and_written_down() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("results.jsonl");
        let records = dir.path().join("records");
        let tournament = tiny(Format::RoundRobin);
        let mut seen = Vec::new();
        let standings = tournament
            .run(&results, 2, Some(&records), &mut |outcome| {
                seen.push(outcome.pairing)
            })
            .expect("the tournament is played");
        seen.sort_unstable();
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);

        let lines = lines(&results);
        assert_eq!(lines.len(), 1 + 6);
        let header: serde_json::Value = serde_json::from_str(&lines[0]).expect("a JSON header");
        assert_eq!(header["entrants"][2], "builtin:1");
        assert_eq!(header["clock"], "virtual");
        let schedule = tournament.schedule().expect("small");
        for line in &lines[1..] {
            let outcome: MatchOutcome = serde_json::from_str(line).expect("a result line");
            let pairing = schedule[outcome.pairing];
            assert_eq!(outcome.a, tournament.entrants[pairing.a].to_string());
            assert_eq!(outcome.field, pairing.field);
            assert!(outcome.wins.a + outcome.wins.b <= 2);
            assert!(outcome.turns > 0);
            assert_eq!(outcome.winner.is_some(), outcome.criterion.is_some());
            let record = fs::read(records.join(format!("match-{}.ktz", outcome.pairing)))
                .expect("the match's record");
            let mut result = None;
            let verdict = read(&record, Policy::Strict, |r| {
                result = result.or(MatchResult::of(&r.event))
            });
            assert_eq!(verdict.error, None);
            let result = result.expect("the record's result");
            assert_eq!((result.winner, result.wins), (outcome.winner, outcome.wins));
            // builtin:1 beats builtin:random every time.
            for team in Team::BOTH {
                if pairing.entrant(team) == 2 && pairing.entrant(team.other()) == 0 {
                    assert_eq!(outcome.winner, Some(team), "{line}");
                }
            }
        }

        assert_eq!(standings.rows.len(), 3);
        assert!(standings.rows.iter().all(|row| row.matches.total() == 4));
        let total: f64 = standings.rows.iter().map(|row| row.points).sum();
        assert_eq!(total, 6.0);
        let random = standings
            .rows
            .iter()
            .position(|row| row.name == "builtin:random");
        let level_1 = standings
            .rows
            .iter()
            .position(|row| row.name == "builtin:1");
        let (random, level_1) = (random.expect("a row"), level_1.expect("a row"));
        assert!(level_1 < random);
        assert_eq!(
            standings.cross[level_1][random],
            Some(Versus {
                points: 2.0,
                matches: 2
            })
        );
        assert_eq!(standings.cross[random][random], None);
        let table = standings.table();
        assert!(table.contains("builtin:greedy"), "{table}");
        assert!(
            table
                .lines()
                .next()
                .unwrap_or_default()
                .starts_with("Rank  Name"),
            "{table}"
        );
    }

    #[test]
    fn a_run_cut_short_resumes_to_the_same_standings() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let tournament = tiny(Format::RoundRobin);
        let fresh_path = dir.path().join("fresh.jsonl");
        let fresh = tournament
            .run(&fresh_path, 2, None, &mut |_| {})
            .expect("the fresh run");

        // Killed after two matches, in the middle of writing a third.
        let cut_path = dir.path().join("cut.jsonl");
        let kept = lines(&fresh_path);
        let third = &kept[3];
        let cut = format!(
            "{}\n{}\n{}\n{}",
            kept[0],
            kept[1],
            kept[2],
            &third[..third.len() / 2]
        );
        fs::write(&cut_path, cut).expect("the cut file");
        let session = tournament.open(&cut_path, None).expect("readable");
        assert_eq!(session.finished().len(), 2);
        drop(session);

        let mut replayed = 0;
        let resumed = tournament
            .run(&cut_path, 1, None, &mut |_| replayed += 1)
            .expect("the resumed run");
        assert_eq!(replayed, 4);
        assert_eq!(resumed, fresh);
        assert_eq!(resumed.table(), fresh.table());
        let resumed_lines = lines(&cut_path);
        assert_eq!(resumed_lines.len(), 1 + 6);
        assert!(resumed_lines[1..]
            .iter()
            .all(|line| serde_json::from_str::<MatchOutcome>(line).is_ok()));
        let mut fresh_lines = kept;
        let mut resumed_lines = resumed_lines;
        fresh_lines.sort();
        resumed_lines.sort();
        assert_eq!(resumed_lines, fresh_lines);

        // Nothing left to play: the same standings again, file unchanged.
        let again = tournament
            .run(&cut_path, 2, None, &mut |_| panic!("nothing to play"))
            .expect("the finished run");
        assert_eq!(again, fresh);
        assert_eq!(lines(&cut_path).len(), 7);
    }

    #[test]
    fn another_tournaments_results_are_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("other.jsonl");
        let mut other = tiny(Format::Gauntlet);
        other.fields.truncate(1);
        other.entrants.truncate(2);
        other
            .run(&results, 1, None, &mut |_| {})
            .expect("the other tournament");
        let before = fs::read(&results).expect("its results");

        let error = tiny(Format::RoundRobin)
            .run(&results, 1, None, &mut |_| panic!("nothing is played"))
            .expect_err("another tournament's file");
        let message = error.to_string();
        assert!(
            matches!(error, TournamentError::Foreign { .. }),
            "{message}"
        );
        assert!(message.contains("other.jsonl"), "{message}");
        assert!(
            message.contains("format \"gauntlet\" there, \"round-robin\" here"),
            "{message}"
        );
        assert!(message.contains("delete"), "{message}");
        assert_eq!(fs::read(&results).expect("its results"), before);

        fs::write(&results, "not a results file\n").expect("a stray file");
        let round_robin = tiny(Format::RoundRobin);
        let message = round_robin
            .open(&results, None)
            .err()
            .expect("a stray file")
            .to_string();
        assert!(message.contains("not a tournament's header"), "{message}");
    }

    #[test]
    fn a_header_cut_short_starts_afresh_and_a_damaged_line_is_reported() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("results.jsonl");
        let mut tournament = tiny(Format::Gauntlet);
        tournament.fields.truncate(1);
        tournament.entrants.truncate(2);
        let header = json_line(&tournament.header());
        fs::write(&results, &header[..10]).expect("a cut header");
        tournament
            .run(&results, 1, None, &mut |_| {})
            .expect("played afresh");
        let written = lines(&results);
        assert_eq!((written.len(), written[0].as_str()), (2, header.trim_end()));

        fs::write(&results, format!("{header}{{\"pairing\": 0}}\n")).expect("a bad line");
        let message = tournament
            .open(&results, None)
            .err()
            .expect("a bad line")
            .to_string();
        assert!(
            message.contains("results.jsonl line 2: not a match's result"),
            "{message}"
        );
    }

    #[test]
    fn unplayable_tournaments_are_refused_before_any_match() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("results.jsonl");
        let refused = |tournament: Tournament| -> String {
            match tournament.run(&results, 1, None, &mut |_| panic!("nothing is played")) {
                Err(TournamentError::Setup(problem)) => problem,
                other => panic!("expected a refusal, found {other:?}"),
            }
        };
        let mut alone = tiny(Format::RoundRobin);
        alone.entrants.truncate(1);
        assert!(refused(alone).contains("two entrants"));
        let mut twice = tiny(Format::RoundRobin);
        twice.entrants[2] = PlayerSpec::Random;
        assert!(refused(twice).contains("builtin:random is an entrant twice"));
        let mut human = tiny(Format::RoundRobin);
        human.entrants[0] = PlayerSpec::Human;
        assert!(refused(human).contains("human"));
        let mut same_first = tiny(Format::RoundRobin);
        same_first.fields[1].games[1].first = same_first.fields[1].games[0].first;
        assert!(refused(same_first).starts_with("field 1 cannot be played"));
        assert!(!results.exists());
    }

    #[test]
    fn standings_rank_by_share_and_cross_table_by_rank() {
        let tournament = tiny(Format::Gauntlet);
        let schedule = tournament.schedule().expect("small");
        let outcome = |pairing: usize, winner: Option<Team>| {
            let p = schedule[pairing];
            MatchOutcome {
                pairing,
                field: p.field,
                a: tournament.entrants[p.a].to_string(),
                b: tournament.entrants[p.b].to_string(),
                winner,
                criterion: winner.map(|_| 2),
                wins: PerTeam { a: 1, b: 1 },
                territory: PerTeam { a: 10, b: 9 },
                objects: PerTeam { a: 5, b: 5 },
                time_used: PerTeam { a: 1_000, b: 2_000 },
                turns: 10,
            }
        };
        // Gauntlet: 0–1 and 0–2 on field 0 (0 is A), 1–0 and 2–0 on
        // field 1 (0 is B). Entrant 0 wins three and leaves one level.
        let outcomes = [
            outcome(0, Some(Team::A)),
            outcome(1, Some(Team::A)),
            outcome(2, Some(Team::B)),
            outcome(3, None),
        ];
        let standings = tournament.standings(&schedule, &outcomes);
        let mut reversed = outcomes.clone();
        reversed.reverse();
        assert_eq!(tournament.standings(&schedule, &reversed), standings);
        let order: Vec<usize> = standings.rows.iter().map(|row| row.entrant).collect();
        // Entrant 2 scored ½ of 2, entrant 1 nothing.
        assert_eq!(order, [0, 2, 1]);
        assert_eq!(standings.rows[0].points, 3.5);
        assert_eq!(
            standings.rows[0].matches,
            Score {
                wins: 3,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(
            standings.rows[0].games,
            Score {
                wins: 4,
                draws: 0,
                losses: 4
            }
        );
        assert_eq!(standings.rows[0].time_used, 6_000);
        assert_eq!(standings.rows[2].elo, Elo::AllLost);
        assert_eq!(
            standings.cross[1][0],
            Some(Versus {
                points: 0.5,
                matches: 2
            })
        );
        assert_eq!(standings.cross[1][2], None);
        let table = standings.table();
        assert!(
            table.contains("\n   2  builtin:1       0.5/2      -    -\n"),
            "{table}"
        );
    }

    #[test]
    fn schedules_are_refused_just_past_their_limits() {
        let mut large = tiny(Format::RoundRobin);
        large.entrants = (0..MAX_ENTRANTS)
            .map(|i| PlayerSpec::parse(&format!("player-{i}")).expect("a program"))
            .collect();
        // 1000 entrants meet in 499,500 pairs.
        large.fields = vec![practice_setup(1); 2];
        assert_eq!(large.schedule().expect("999,000 matches").len(), 999_000);
        large.fields.push(practice_setup(3));
        let refused = large.schedule().expect_err("1,498,500 matches");
        assert!(
            refused.to_string().contains("is 1498500 matches"),
            "{refused}"
        );

        large.format = Format::Gauntlet;
        assert_eq!(large.schedule().expect("2,997 matches").len(), 2_997);
        large
            .entrants
            .push(PlayerSpec::parse("one more").expect("a program"));
        let refused = large.schedule().expect_err("1,001 entrants");
        assert!(
            refused.to_string().starts_with("1001 entrants"),
            "{refused}"
        );
    }

    #[test]
    fn jobs_out_of_bounds_are_refused_before_the_file_is_made() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("results.jsonl");
        for jobs in [0, MAX_JOBS + 1] {
            let error = tiny(Format::RoundRobin)
                .run(&results, jobs, None, &mut |_| panic!("nothing is played"))
                .expect_err("too many or no jobs");
            assert!(error.to_string().ends_with(": 1 to 256"), "{error}");
        }
        assert!(!results.exists());
    }

    #[test]
    fn a_last_line_cut_inside_a_character_is_dropped_and_crlf_lines_are_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let results = dir.path().join("results.jsonl");
        let mut tournament = tiny(Format::Gauntlet);
        tournament.entrants = ["片付け 1", "片付け 2"]
            .iter()
            .map(|name| PlayerSpec::parse(name).expect("a program"))
            .collect();
        let level = |pairing: usize| MatchOutcome {
            pairing,
            field: pairing,
            a: tournament.entrants[pairing].to_string(),
            b: tournament.entrants[1 - pairing].to_string(),
            winner: None,
            criterion: None,
            wins: PerTeam { a: 0, b: 0 },
            territory: PerTeam { a: 3, b: 3 },
            objects: PerTeam { a: 0, b: 0 },
            time_used: PerTeam { a: 0, b: 0 },
            turns: 0,
        };
        let kept = json_line(&tournament.header()) + &json_line(&level(0));
        let cut = json_line(&level(1));
        // One byte into the three of 付.
        let inside = cut.find('付').expect("a name") + 1;
        let crlf = kept.replace('\n', "\r\n");
        let bytes = [crlf.as_bytes(), &cut.as_bytes()[..inside]].concat();
        assert!(String::from_utf8(bytes.clone()).is_err());
        fs::write(&results, bytes).expect("a cut file");
        let session = tournament.open(&results, None).expect("readable");
        assert_eq!(session.finished(), [level(0)]);
        assert_eq!(session.total(), 2);
        drop(session);
        assert_eq!(fs::read_to_string(&results).expect("the file"), crlf);
    }

    #[test]
    fn long_names_keep_both_ends() {
        let name = "python3 /home/someone/players/katazuke/alpha.py --level 4";
        let short = short_name(name);
        assert_eq!(short.chars().count(), NAME_CHARS);
        assert!(short.starts_with("python3 /"), "{short}");
        assert!(short.ends_with("alpha.py --level 4"), "{short}");
        assert_eq!(short_name("builtin:1"), "builtin:1");
    }
}
