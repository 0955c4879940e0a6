//! Shards put back together: the results files of a tournament's shards,
//! read and checked, make the results of the whole tournament.
//!
//! Every file's header must be the same tournament's (entrants, format,
//! fields by count and SHA-256, clocks, policy, seed), naming its shard;
//! the shards must be 1 to N, each once, and each complete: every match
//! of the schedule once, in the file of the shard it belongs to. Each line
//! is checked as a run checks it on resuming, against the schedule (its
//! place, field, entrants and letters) and against itself (winner and
//! criterion from its totals, game wins its territory allows, territory
//! from start cells and clears, a millisecond a turn); what needs the
//! fields themselves, the totals each field allows, is checked by the run
//! that wrote the file, every time it resumes.
//!
//! The whole tournament's results file is then its header without the
//! shard and the lines in schedule order: byte for byte the file a single
//! run with `-j 1` writes.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::results_file::{check_outcome, json_line, Header};
use super::schedule::schedule_of;
use super::standings::standings_of;
use super::{io_error, MatchOutcome, Standings, TournamentError, TournamentKind, MAX_MATCHES};
use edge::{BoundedLines, Shard};

/// A whole tournament put together from its shards.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The results file's first line, as a single run writes it.
    header: Header,
    /// Every match, in schedule order.
    pub outcomes: Vec<MatchOutcome>,
    /// The standings over them.
    pub standings: Standings,
}

impl Merged {
    /// The whole tournament's results file.
    pub fn results_file(&self) -> String {
        let mut text = json_line(&self.header);
        for outcome in &self.outcomes {
            text += &json_line(outcome);
        }
        text
    }
}

/// Reads the results files at `paths`, one per shard, and puts them
/// together (see the module's description).
pub fn merge_results(paths: &[PathBuf]) -> Result<Merged, TournamentError> {
    let shards_problem = |problem: String| Err(TournamentError::Shards(problem));
    if paths.is_empty() {
        return shards_problem("no results files to merge".into());
    }
    let mut first: Option<(PathBuf, Header)> = None;
    let mut by_shard: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut count = None;
    let mut outcomes: BTreeMap<usize, MatchOutcome> = BTreeMap::new();
    for path in paths {
        let (header, shard, lines) = read_shard(path)?;
        let foreign = |problem: String| TournamentError::Foreign {
            path: path.clone(),
            problem,
        };
        match &first {
            None => first = Some((path.clone(), header.clone())),
            Some((first_path, expected)) => {
                let unsharded = |header: &Header| Header {
                    shard: None,
                    ..header.clone()
                };
                if unsharded(&header) != unsharded(expected) {
                    return Err(foreign(format!(
                        "its header is another tournament's than {}'s",
                        first_path.display()
                    )));
                }
            }
        }
        match count {
            None => count = Some(shard.count()),
            Some(count) if count != shard.count() => {
                return shards_problem(format!(
                    "{} is a shard of {}, the files before it of {count}",
                    path.display(),
                    shard.count()
                ))
            }
            Some(_) => {}
        }
        if let Some(earlier) = by_shard.insert(shard.index(), path.clone()) {
            return shards_problem(format!(
                "shard {shard} is given twice: {} and {}",
                earlier.display(),
                path.display()
            ));
        }
        for (line, outcome) in lines {
            if !shard.contains(outcome.pairing) {
                return Err(TournamentError::Damaged {
                    path: path.clone(),
                    line,
                    problem: format!("match {} is not one of shard {shard}'s", outcome.pairing),
                });
            }
            outcomes.insert(outcome.pairing, outcome);
        }
    }
    let (Some((_, header)), Some(count)) = (first, count) else {
        return shards_problem("no results files to merge".into());
    };
    let missing: Vec<String> = (1..=count)
        .filter(|index| !by_shard.contains_key(index))
        .map(|index| index.to_string())
        .collect();
    if !missing.is_empty() {
        return shards_problem(format!(
            "shard{} {} of {count} {} missing",
            if missing.len() == 1 { "" } else { "s" },
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" }
        ));
    }
    let kind = header
        .format
        .parse::<TournamentKind>()
        .map_err(TournamentError::Setup)?;
    let schedule = schedule_of(kind, header.entrants.len(), header.fields);
    for (&index, path) in &by_shard {
        let shard =
            Shard::new(index, count).map_err(|error| TournamentError::Setup(error.to_string()))?;
        let expected = schedule
            .iter()
            .filter(|pairing| shard.contains(pairing.index))
            .count();
        let played = outcomes
            .keys()
            .filter(|&&pairing| shard.contains(pairing))
            .count();
        if played < expected {
            return shards_problem(format!(
                "shard {shard} ({}) has played {played} of its {expected} matches: run it \
                 again to finish it, then merge",
                path.display()
            ));
        }
    }
    let outcomes: Vec<MatchOutcome> = outcomes.into_values().collect();
    let standings = standings_of(header.entrants.clone(), &schedule, &outcomes);
    Ok(Merged {
        header: Header {
            shard: None,
            ..header
        },
        outcomes,
        standings,
    })
}

/// A shard's results file: its header, its shard, and its matches with
/// their line numbers, each checked against the schedule and itself.
#[allow(clippy::type_complexity)]
fn read_shard(path: &Path) -> Result<(Header, Shard, Vec<(usize, MatchOutcome)>), TournamentError> {
    let foreign = |problem: String| TournamentError::Foreign {
        path: path.to_path_buf(),
        problem,
    };
    let damaged = |line: usize, problem: String| TournamentError::Damaged {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let metadata = fs::metadata(path).map_err(io_error(path))?;
    if !metadata.is_file() {
        return Err(foreign("it is not a regular file".into()));
    }
    let mut file = fs::File::open(path).map_err(io_error(path))?;
    let mut last = [0];
    if metadata.len() > 0 {
        file.seek(SeekFrom::End(-1))
            .and_then(|_| file.read_exact(&mut last))
            .and_then(|()| file.rewind())
            .map_err(io_error(path))?;
    }
    if last[0] != b'\n' && metadata.len() > 0 {
        return Err(TournamentError::Shards(format!(
            "{}'s last line is cut short (its run was stopped): run that shard again to \
             finish it, then merge",
            path.display()
        )));
    }
    let mut header = None;
    let mut schedule = Vec::new();
    let mut shard = Shard::WHOLE;
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    let mut lines = Vec::new();
    for line in BoundedLines::new(BufReader::new(file)) {
        let (number, text) =
            line.map_err(|error| damaged(error.line, error.problem.to_string()))?;
        let Some(header) = &header else {
            let read: Header = serde_json::from_str(&text)
                .map_err(|_| foreign("its first line is not a tournament's header".into()))?;
            shard = match &read.shard {
                None => Shard::WHOLE,
                Some(text) => Shard::parse(text, |_| None, "")
                    .map_err(|error| foreign(format!("its header's shard: {error}")))?,
            };
            let kind = read
                .format
                .parse::<TournamentKind>()
                .map_err(|problem| foreign(format!("its header's format: {problem}")))?;
            let matches = kind.pairs_among(read.entrants.len()) * read.fields as u128;
            if matches > MAX_MATCHES as u128 {
                return Err(foreign(format!(
                    "its header's schedule has {matches} matches, more than {MAX_MATCHES}"
                )));
            }
            schedule = schedule_of(kind, read.entrants.len(), read.fields);
            header = Some(read);
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        let outcome: MatchOutcome = serde_json::from_str(&text)
            .map_err(|error| damaged(number, format!("not a match's result: {error}")))?;
        check_outcome(&outcome, &schedule, &header.entrants, None)
            .map_err(|problem| damaged(number, problem))?;
        if let Some(earlier) = seen.insert(outcome.pairing, number) {
            return Err(damaged(
                number,
                format!("match {} is already on line {earlier}", outcome.pairing),
            ));
        }
        lines.push((number, outcome));
    }
    let header = header.ok_or_else(|| foreign("it is empty".into()))?;
    Ok((header, shard, lines))
}
