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

mod error;
mod merge;
mod results_file;
mod schedule;
mod sequential;
mod standings;
#[cfg(test)]
mod tests;
mod workers;

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::arena::{play_match, PlayOptions};
use super::io_log::IoLog;
use super::latency::{Latency, Timed};
use super::spec::PlayerSpec;
use super::sprt::{Decision, Sprt, SprtStatus};
use crate::log::reader::{read, read_setup};
use crate::log::record::{GameRecord, MatchRecord};
use crate::model::event::Event;
use crate::model::setup::MatchSetup;
use crate::model::team::{PerTeam, Team};
use crate::rules::game::Policy;
use crate::rules::result::MatchResult;
use crate::TEMPORARY_PREFIX;
use edge::{LockError, RunLock, Shard, MAX_LINE_BYTES};

use error::io_error;
pub use error::TournamentError;
pub use merge::{merge_results, Merged};
use results_file::{check_folder, json_line, lock_path, write_line};
pub use schedule::{Pairing, TournamentKind, MAX_ENTRANTS, MAX_MATCHES};
use sequential::SequentialTest;
pub use standings::Standings;
use workers::{play_all, Enough};

/// Games in a match (§9.2).
const GAMES_PER_MATCH: u32 = 2;

/// The most matches played at once (`jobs`): each runs on a thread of its
/// own, and a program entrant is a process per match.
pub const MAX_JOBS: usize = 256;

/// A tournament to be played.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Who plays, in the order the schedule and the results name them.
    pub entrants: Vec<PlayerSpec>,
    /// The fields every pair plays on.
    pub fields: Vec<MatchSetup>,
    /// Who meets whom.
    pub kind: TournamentKind,
    /// How each match is played.
    pub options: PlayOptions,
    /// Where the players' seeds come from.
    pub seed: u64,
    /// A sequential test between the two entrants: stop as soon as it
    /// decides (see [`Sprt`]).
    pub sprt: Option<Sprt>,
    /// A folder for each match's I/O log (`match-INDEX.log`, see
    /// [`IoLog`]), written for the matches with a program
    /// in them.
    pub io_logs: Option<PathBuf>,
    /// The part of the schedule this run plays: match `p` belongs to
    /// shard `p % N + 1` of `N` ([`Shard::WHOLE`] for all of it). Each
    /// shard has a results file of its own; [`merge_results`] puts them
    /// together.
    pub shard: Shard,
}

/// Told of each match as soon as it is played and in the results file, so
/// that a caller can show how far the tournament is: the library owns no
/// terminal (as the box's batch and solver tell theirs). A closure taking
/// a [`MatchOutcome`] is one.
pub trait TournamentProgress {
    /// `outcome` has been played and written to the results file.
    fn match_played(&mut self, outcome: &MatchOutcome);

    /// Under an SPRT, after each match: where the test stands over the
    /// matches it has read (see [`Tournament::sprt`]).
    fn test_read(&mut self, _status: &SprtStatus) {}
}

impl<F: FnMut(&MatchOutcome)> TournamentProgress for F {
    fn match_played(&mut self, outcome: &MatchOutcome) {
        self(outcome)
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

impl Tournament {
    /// Opens and plays the tournament on `results` (see
    /// [`Tournament::open`] and `Session::play`).
    pub fn run(
        &self,
        results: &Path,
        jobs: usize,
        records_dir: Option<&Path>,
        progress: &mut dyn TournamentProgress,
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
        // The same file under another name (a hard link) has a lock file
        // of its own: the file itself is locked too, so that every name of
        // it is refused while a run plays on it.
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                return Err(TournamentError::Busy {
                    path: results.to_path_buf(),
                    held: LockError::Held {
                        path: results.to_path_buf(),
                        holder: "another run that names it otherwise (a link to it)".into(),
                    },
                })
            }
            Err(fs::TryLockError::Error(error)) => return Err(unwritable(error.to_string())),
        }
        let checked = if made {
            Ok((0, Vec::new()))
        } else {
            self.read_results(results, &file, &schedule)
        };
        let ready = checked.and_then(|(complete, outcomes)| {
            let folders = [
                ("the records folder", records_dir),
                ("the I/O logs folder", self.io_logs.as_deref()),
            ];
            for (what, dir) in folders {
                if let Some(dir) = dir {
                    check_folder(dir).map_err(|problem| TournamentError::Unwritable {
                        what,
                        path: dir.to_path_buf(),
                        problem,
                    })?;
                }
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
        if self.sprt.is_some() && self.shard != Shard::WHOLE {
            return setup(
                "an SPRT reads the matches in order and decides where to stop: it cannot be \
                 split into shards (play it on one machine, with -j)"
                    .into(),
            );
        }
        if self.sprt.is_some() && self.entrants.len() != 2 {
            return setup(format!(
                "an SPRT tests one player against another: {} entrants given, two needed",
                self.entrants.len()
            ));
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

    /// Plays one match with fresh players and referees its record.
    fn play(
        &self,
        pairing: &Pairing,
        records_dir: Option<&Path>,
    ) -> Result<Played, TournamentError> {
        let failed = |problem: String| TournamentError::Match {
            index: pairing.index,
            problem,
        };
        let specs = PerTeam::from_fn(|team| &self.entrants[pairing.entrant(team)]);
        let log = match &self.io_logs {
            Some(dir) if specs.a.is_program() || specs.b.is_program() => {
                let path = dir.join(format!("match-{}.log", pairing.index));
                Some(IoLog::create(&path).map_err(io_error(&path))?)
            }
            _ => None,
        };
        let mut players = PerTeam::from_fn(|team| {
            let seed = player_seed(self.seed, pairing.index, team);
            Timed::new(match &log {
                Some(log) => specs[team].create_logged(seed, log.for_team(team)),
                None => specs[team].create(seed),
            })
        });
        let record = play_match(
            &self.fields[pairing.field],
            PerTeam {
                a: &mut players.a,
                b: &mut players.b,
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
        Ok(Played {
            outcome,
            latency: PerTeam::from_fn(|team| players[team].latency()),
        })
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

    /// The number of matches this run plays in all: the schedule's, or
    /// its shard's.
    pub fn total(&self) -> usize {
        let shard = self.tournament.shard;
        self.schedule
            .iter()
            .filter(|pairing| shard.contains(pairing.index))
            .count()
    }

    /// Plays every match of the schedule that the results file does not
    /// hold yet, `jobs` at a time (1 to [`MAX_JOBS`]), appending each to
    /// it as it ends (and its record to `RECORDS/match-INDEX.ktz`, if
    /// asked for) and telling `progress`; then the standings over all of
    /// the file's matches. Under an SPRT no match starts once the test
    /// has decided, and the matches in flight then are still played and
    /// written (they count in the standings, not in the test).
    ///
    /// On an error the matches in flight are still waited for and
    /// written, so that a rerun need not play them again.
    pub fn play(
        self,
        jobs: usize,
        progress: &mut dyn TournamentProgress,
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
        let mut test = tournament
            .sprt
            .map(|sprt| SequentialTest::new(sprt, schedule.len()));
        if let Some(test) = test.as_mut() {
            for outcome in &outcomes {
                test.record(&schedule[outcome.pairing], outcome);
            }
        }
        let decided = |test: &mut Option<SequentialTest>| {
            test.as_mut()
                .is_some_and(|test| test.status().decision != Decision::Continue)
        };
        let pending: Vec<Pairing> = if decided(&mut test) {
            Vec::new()
        } else {
            schedule
                .iter()
                .filter(|pairing| {
                    tournament.shard.contains(pairing.index) && !done.contains(&pairing.index)
                })
                .copied()
                .collect()
        };
        let mut latency = vec![Latency::default(); tournament.entrants.len()];
        // Under a test, a match starts only within 2 × jobs − 1 places of
        // the first unended one, so that the matches played past its
        // decision stay that few however long one of them stalls.
        let window = test.as_ref().map(|_| 2 * jobs - 1);
        let play = |pairing: &Pairing| tournament.play(pairing, records_dir.as_deref());
        play_all(&pending, jobs, window, &play, &mut |played| {
            let Played {
                outcome,
                latency: timed,
            } = played;
            write_line(&mut file, &results, &outcome)?;
            let pairing = &schedule[outcome.pairing];
            for team in Team::BOTH {
                let entrant = pairing.entrant(team);
                latency[entrant] = latency[entrant].merged(timed[team]);
            }
            progress.match_played(&outcome);
            let mut enough = Enough::No;
            if let Some(test) = test.as_mut() {
                let status = test.record(pairing, &outcome);
                progress.test_read(&status);
                if status.decision != Decision::Continue {
                    enough = Enough::Yes;
                }
            }
            outcomes.push(outcome);
            Ok(enough)
        })?;
        let mut standings = tournament.standings(&schedule, &outcomes);
        standings.sprt = test.as_mut().map(SequentialTest::status);
        for row in &mut standings.rows {
            row.latency = latency[row.entrant];
        }
        Ok(standings)
    }
}

/// A match played: its result, and how long each team's player took to
/// answer (measured, so not part of the result).
struct Played {
    outcome: MatchOutcome,
    latency: PerTeam<Latency>,
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
/// A field as the text that identifies it: its `.ktz` header and both
/// games' starts, without names or turns.
fn field_text(field: &MatchSetup) -> String {
    let games = field
        .games()
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
        params: field.params().clone(),
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
