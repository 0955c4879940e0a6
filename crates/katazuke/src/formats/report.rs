//! The results of a refereed match, as `check` prints them: the JSON
//! object of §14.1 and a report for people. Both are folds over the
//! match's events and the reader's verdict.

use serde::Serialize;

use crate::log::reader::Diagnostic;
use crate::model::code::Code;
use crate::model::event::{Entry, Event};
use crate::model::team::{PerTeam, Team};
use crate::model::turn::Seconds;
use crate::rules::result::{GameResult, MatchResult, CRITERIA};

/// One game's line of the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameReport {
    /// 1 or 2.
    pub game: u8,
    /// The first team.
    pub first: Team,
    /// `cleared`, `time` or `both-out`.
    pub end: &'static str,
    /// Turns played.
    pub turns: u32,
    /// Territory, objects, time used and the winner.
    #[serde(flatten)]
    pub result: GameResult,
}

/// What the events say about the match: its games' and its own results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// The teams' names.
    pub names: PerTeam<String>,
    /// Each game that ended.
    pub games: Vec<GameReport>,
    /// The match, once it ended.
    pub result: Option<MatchResult>,
    first: Option<Team>,
}

impl Results {
    /// Folds one more event into the results.
    pub fn apply(&mut self, entry: &Entry) {
        match &entry.event {
            Event::MatchStart(start) => self.names = start.teams.clone(),
            Event::GameStart(game) => self.first = Some(game.first),
            Event::GameEnd { reason, .. } => {
                if let Some(result) = GameResult::of(&entry.event) {
                    self.games.push(GameReport {
                        game: entry.game.unwrap_or(0),
                        first: self.first.unwrap_or(Team::A),
                        end: reason.name(),
                        turns: entry.turn,
                        result,
                    });
                }
            }
            Event::MatchEnd { .. } => self.result = MatchResult::of(&entry.event),
            _ => {}
        }
    }
}

#[derive(Serialize)]
struct DiagnosticJson<'a> {
    code: Code,
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<Option<usize>>,
    game: Option<u8>,
    turn: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    team: Option<Option<Team>>,
    message: &'a str,
}

/// The one JSON object of `check --json` (§14.1), keys in its order,
/// written a piece at a time so that the entries of a log of millions of
/// turns are streamed, never kept: [`CheckJson::head`], then each illegal
/// turn ([`CheckJson::illegal`]), [`CheckJson::between`], each warning
/// ([`CheckJson::warning`]), and [`CheckJson::tail`]. Entries after the
/// first of their list begin with a comma.
pub struct CheckJson {
    entries: usize,
}

impl CheckJson {
    /// The object's start, up to the opening of `illegal`.
    pub fn head(results: &Results, valid: bool) -> (CheckJson, String) {
        #[derive(Serialize)]
        struct Head<'a> {
            valid: bool,
            games: Option<&'a [GameReport]>,
            #[serde(rename = "match")]
            match_: Option<MatchResult>,
        }
        let head = Head {
            valid,
            games: valid.then_some(results.games.as_slice()),
            match_: results.result.filter(|_| valid),
        };
        let json = serde_json::to_string(&head).unwrap_or_default();
        // `{"valid":…,"match":…}` opened again for the lists.
        let open = json.strip_suffix('}').unwrap_or(&json);
        (CheckJson { entries: 0 }, format!("{open},\"illegal\":["))
    }

    fn entry(&mut self, json: DiagnosticJson<'_>) -> String {
        let comma = if self.entries > 0 { "," } else { "" };
        self.entries += 1;
        format!(
            "{comma}{}",
            serde_json::to_string(&json).unwrap_or_default()
        )
    }

    /// An entry of `illegal`.
    pub fn illegal(&mut self, d: &Diagnostic) -> String {
        self.entry(DiagnosticJson {
            code: d.code,
            line: d.line,
            column: None,
            game: d.game,
            turn: d.turn,
            team: Some(d.team),
            message: &d.message,
        })
    }

    /// What closes `illegal` and opens `warnings`.
    pub fn between(&mut self) -> &'static str {
        self.entries = 0;
        "],\"warnings\":["
    }

    /// An entry of `warnings`.
    pub fn warning(&mut self, d: &Diagnostic) -> String {
        self.entry(DiagnosticJson {
            code: d.code,
            line: d.line,
            column: None,
            game: d.game,
            turn: d.turn,
            team: None,
            message: &d.message,
        })
    }

    /// What closes `warnings`, then the `error` when there is one, and the
    /// object.
    pub fn tail(error: Option<&Diagnostic>) -> String {
        match error {
            None => "]}".to_string(),
            Some(d) => {
                let error = DiagnosticJson {
                    code: d.code,
                    line: d.line,
                    column: Some(d.column),
                    game: d.game,
                    turn: d.turn,
                    team: Some(d.team),
                    message: &d.message,
                };
                format!(
                    "],\"error\":{}}}",
                    serde_json::to_string(&error).unwrap_or_default()
                )
            }
        }
    }
}

/// The report for people: a table per game, the totals, and who wins by
/// which criterion.
pub fn report_text(results: &Results) -> String {
    let mut text = String::new();
    let name = |team: Team| {
        let name = &results.names[team];
        if name.is_empty() || name == team.letter() {
            team.to_string()
        } else {
            format!("{team} ({})", edge::printable(name))
        }
    };
    text += &format!("{} against {}\n\n", name(Team::A), name(Team::B));
    text += &format!(
        "{:<10} {:<8} {:>6}  {:>11}  {:>9}  {:>15}  {}\n",
        "", "first", "turns", "territory", "objects", "time used (s)", "winner"
    );
    let row = |label: &str,
               first: &str,
               turns: String,
               territory: PerTeam<u32>,
               objects: PerTeam<u32>,
               time: PerTeam<u64>,
               winner: String| {
        format!(
            "{label:<10} {first:<8} {turns:>6}  {:>11}  {:>9}  {:>15}  {winner}\n",
            format!("{} / {}", territory.a, territory.b),
            format!("{} / {}", objects.a, objects.b),
            format!("{} / {}", Seconds(time.a), Seconds(time.b)),
        )
    };
    for game in &results.games {
        let end = match game.end {
            "time" => "time",
            "cleared" => "cleared",
            _ => "both out",
        };
        text += &row(
            &format!("game {}", game.game),
            game.first.letter(),
            game.turns.to_string(),
            game.result.territory,
            game.result.objects,
            game.result.time_used,
            format!(
                "{} (end: {end})",
                game.result
                    .winner
                    .map_or("drawn".to_string(), |team| team.to_string())
            ),
        );
    }
    if let Some(result) = &results.result {
        text += &row(
            "total",
            "",
            String::new(),
            result.territory,
            result.objects,
            result.time_used,
            format!("wins {} / {}", result.wins.a, result.wins.b),
        );
        text += "\n(A / B in every column)\n";
        text += &match (result.winner, result.criterion) {
            (Some(team), Some(criterion)) => format!(
                "match: {} wins by criterion {criterion} ({})\n",
                name(team),
                CRITERIA[usize::from(criterion) - 1]
            ),
            _ => "match: tied on criteria 1-4: to be decided by janken (§9.4)\n".to_string(),
        };
    }
    text
}
