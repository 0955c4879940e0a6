//! The results file: its header, its lines read back and checked
//! against the schedule, its lock, and lines written whole.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    field_text, io_error, MatchOutcome, Pairing, Tournament, TournamentError, GAMES_PER_MATCH,
};
use crate::model::setup::MatchSetup;
use crate::model::team::{PerTeam, Team};
use crate::play::arena::OnIllegal;
use crate::play::player::Clock;
use crate::rules::result::{MatchResult, CRITERIA};
use crate::TEMPORARY_PREFIX;
use edge::{BadLine, BoundedLines, Shard};

/// The results file's format, in its header.
const RESULTS_VERSION: u32 = 1;

/// The results file's first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Header {
    pub(super) tournament: u32,
    pub(super) format: String,
    pub(super) entrants: Vec<String>,
    pub(super) fields: usize,
    pub(super) fields_sha256: String,
    pub(super) clock: String,
    pub(super) think_ms: u64,
    pub(super) illegal: String,
    /// Left out at 0, so that the files of runs before the margin existed
    /// are still this tournament's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) time_margin_ms: u64,
    pub(super) seed: u64,
    /// `K/N` for shard K of N, none for the whole tournament: last, so
    /// that the shards' headers without it are the whole run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) shard: Option<String>,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

impl Tournament {
    pub(super) fn header(&self) -> Header {
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
            format: self.kind.name().into(),
            entrants: self.names(),
            fields: self.fields.len(),
            fields_sha256,
            clock: match self.options.clock {
                Clock::Wall => "wall",
                Clock::Virtual => "virtual",
            }
            .into(),
            think_ms: u64::try_from(self.options.think.as_millis()).unwrap_or(u64::MAX),
            illegal: match self.options.illegal {
                OnIllegal::Pass => "pass",
                OnIllegal::Out => "out",
            }
            .into(),
            time_margin_ms: u64::try_from(self.options.margin.as_millis()).unwrap_or(u64::MAX),
            seed: self.seed,
            shard: (self.shard != Shard::WHOLE).then(|| self.shard.to_string()),
        }
    }

    /// Reads the results file `file` (named `path`) a line at a time: how
    /// many of its bytes are complete lines worth keeping (0 when the
    /// header itself is missing or cut short), and the matches they hold.
    /// A last line without its line break was cut short by a kill and is
    /// left out.
    pub(super) fn read_results(
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
                check_outcome(&outcome, schedule, &names, Some(&self.fields)).map_err(damaged)?;
                if !self.shard.contains(outcome.pairing) {
                    return Err(damaged(format!(
                        "match {} is not one of shard {}'s (a shard of {} plays match p when \
                         p % {} + 1 is its number)",
                        outcome.pairing,
                        self.shard,
                        self.shard.count(),
                        self.shard.count()
                    )));
                }
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
}

/// `FILE.lock` beside the results file, found through its real path, so
/// that the same file named another way (relative, through a symbolic
/// link) has the same lock.
pub(super) fn lock_path(results: &Path) -> PathBuf {
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
pub(super) fn check_folder(dir: &Path) -> Result<(), String> {
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
/// Checks that `outcome` is the match the schedule has at its place, true
/// to itself, and (given `fields`) within what its field and clocks allow.
pub(super) fn check_outcome(
    outcome: &MatchOutcome,
    schedule: &[Pairing],
    names: &[String],
    fields: Option<&[MatchSetup]>,
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
    // The totals each field allows, when the fields are at hand (a run
    // has them; a merge of shards does not).
    if let Some(fields) = fields {
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
    }
    // Territory comes only from start cells (three a team over the two
    // games, §3.1) and from cells a team cleared, each by at least one
    // object (§6.1); and every turn charges at least a millisecond (§7).
    for team in Team::BOTH {
        let (cells, objects) = (territory[team], outcome.objects[team]);
        if u64::from(cells) > 3 + u64::from(objects) {
            return Err(format!(
                "match {index} gives {team} {cells} cells of territory with {objects} objects \
                 cleared, which cannot be: a team holds its 3 start cells and the cells it \
                 cleared (§3.1, §6.1)"
            ));
        }
    }
    let time = outcome.time_used.a.saturating_add(outcome.time_used.b);
    if u64::from(outcome.turns) > time {
        return Err(format!(
            "match {index} has {} turns in {time} ms, which cannot be: every turn takes at \
             least a millisecond (§7)",
            outcome.turns
        ));
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
        let params = field.params();
        let counts = &params.field;
        let total: u64 = counts.counts().iter().map(|&count| u64::from(count)).sum();
        let stocks = u64::from(params.stock.first) + u64::from(params.stock.second);
        let objects = field
            .games()
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
        let games = field.games().len() as u64;
        Limits {
            territory: games * counts.size().cells() as u64,
            objects,
            team_time: games * params.team_time.min(params.game_time),
            game_time: games * params.game_time,
        }
    }
}

pub(super) fn json_line(value: &impl Serialize) -> String {
    // Plain structs of strings and numbers always serialise.
    serde_json::to_string(value).unwrap_or_default() + "\n"
}

/// Writes one line at once and waits for the disk, so that a kill leaves
/// the file true up to its last complete line.
pub(super) fn write_line(
    file: &mut fs::File,
    path: &Path,
    value: &impl Serialize,
) -> Result<(), TournamentError> {
    file.write_all(json_line(value).as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(io_error(path))
}
