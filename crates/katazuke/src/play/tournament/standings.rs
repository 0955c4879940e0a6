//! The standings: match points, game results and the §9.2 totals per
//! entrant, Elo with its error bar, and the cross table.

use super::{MatchOutcome, Pairing, Tournament, GAMES_PER_MATCH};
use crate::model::team::Team;
use crate::play::elo::{Elo, Score};
use crate::play::latency::Latency;
use crate::play::pentanomial::Pairs;
use crate::play::sprt::SprtStatus;

impl Tournament {
    /// The standings over `outcomes`, matches of `schedule` (those of
    /// pairings not in it are left out; a results file never gives any).
    /// The same outcomes in any order give the same standings.
    pub(super) fn standings(&self, schedule: &[Pairing], outcomes: &[MatchOutcome]) -> Standings {
        standings_of(self.names(), schedule, outcomes)
    }
}

/// The standings of the entrants `names` over `outcomes`, matches of
/// `schedule` (see [`Tournament::standings`]).
pub(super) fn standings_of(
    names: Vec<String>,
    schedule: &[Pairing],
    outcomes: &[MatchOutcome],
) -> Standings {
    let n = names.len();
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
                pairs: tally.pairs,
                pair_elo: tally.pairs.elo(),
                latency: Latency::default(),
            }
        })
        .collect();
    let cross = order
        .iter()
        .map(|&row| order.iter().map(|&column| cross[row][column]).collect())
        .collect();
    Standings {
        rows,
        cross,
        sprt: None,
    }
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
    pairs: Pairs,
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
        self.pairs.add(won, lost);
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
    /// [`crate::play::elo`]).
    pub elo: Elo,
    /// Its matches by the points their two games gave it (see
    /// [`crate::play::pentanomial`]).
    pub pairs: Pairs,
    /// Its performance from its games counted in pairs.
    pub pair_elo: Elo,
    /// How long it took to answer in the matches this run played (times
    /// are measured, not results: a results file does not keep them).
    pub latency: Latency,
}

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// In rank order.
    pub rows: Vec<Standing>,
    /// `cross[r][c]`: what the entrant of `rows[r]` scored against that of
    /// `rows[c]`; none when they did not meet.
    pub cross: Vec<Vec<Option<Versus>>>,
    /// The sequential test's state, if the tournament ran one.
    pub sprt: Option<SprtStatus>,
}

/// Names longer than this are shortened in the table.
pub(super) const NAME_CHARS: usize = 28;

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
            "Pairs (0-2)",
            "Elo (pairs)",
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
                row.pairs.to_string(),
                format!("{:.0}", row.pair_elo),
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
        let mut text = columns(&standings) + "\n" + &columns(&cross);
        if let Some(status) = &self.sprt {
            text += &format!("\n{status}\n");
        }
        text
    }

    /// How long each entrant took to answer in the matches this run
    /// played, a line each in rank order; empty when it played none.
    /// Kept apart from [`Standings::table`], which is the same on every
    /// run of the same results.
    pub fn answer_times(&self) -> String {
        if self.rows.iter().all(|row| row.latency.answers == 0) {
            return String::new();
        }
        let mut times = vec![["Rank", "Name", "Answers", "Mean (ms)", "Worst (ms)"]
            .map(String::from)
            .to_vec()];
        for row in &self.rows {
            let ms = |value: Option<f64>| value.map_or("-".into(), |ms| format!("{ms:.1}"));
            times.push(vec![
                row.rank.to_string(),
                short_name(&row.name),
                row.latency.answers.to_string(),
                ms(row.latency.mean_ms()),
                ms(row.latency.worst_ms()),
            ]);
        }
        format!("Answer times, matches of this run:\n{}", columns(&times))
    }
}

/// `name`, or its beginning and end around `…` when it is too long: a
/// program's command line tends to differ from another's at the end.
pub(super) fn short_name(name: &str) -> String {
    let chars: Vec<char> = edge::printable(name).chars().collect();
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
