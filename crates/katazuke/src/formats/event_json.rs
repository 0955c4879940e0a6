//! One event as a line of JSON (§12): [`Entry::to_json`] writes it with
//! its keys in the order of the spec, [`Entry::from_json`] reads it back
//! and names what is wrong with a line that is not one.

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::model::event::{End, Entry, Event, GameStart, HeaderParams, MatchStart};
use crate::model::field::{Cell, Field};
use crate::model::params::{Params, Stock};
use crate::model::team::Team;
use crate::model::turn::Item;

/// Items as `[["b1",2],["a2",2]]`.
struct Items<'a>(&'a [Item]);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|item| (item.cell, item.count)))
    }
}

/// Parameters as the event log writes them.
fn params_json(
    field: Option<&Field>,
    capacity: Option<u32>,
    stock: Option<Stock>,
    team_time: u64,
    game_time: u64,
) -> Value {
    serde_json::json!({
        "field": field.map(Field::rows),
        "capacity": capacity,
        "stock": stock.map(|stock| [stock.first, stock.second]),
        "team_time": team_time,
        "game_time": game_time,
    })
}

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("v", &1)?;
        map.serialize_entry("ev", self.event.name())?;
        if let Some(game) = self.game {
            map.serialize_entry("game", &game)?;
            map.serialize_entry("turn", &self.turn)?;
            map.serialize_entry("t", &self.t)?;
        }
        match &self.event {
            Event::MatchStart(start) => {
                let MatchStart { teams, params } = start.as_ref();
                map.serialize_entry("teams", teams)?;
                // The key order of a json! object is serde_json's; the
                // fields are written here in the order of §2.1.
                let params = params_json(
                    params.field.as_ref(),
                    params.capacity,
                    params.stock,
                    params.team_time,
                    params.game_time,
                );
                map.serialize_entry("params", &OrderedParams(&params))?;
            }
            Event::GameStart(game) => {
                let GameStart {
                    first,
                    field,
                    start,
                    current,
                    removed,
                    params,
                } = game.as_ref();
                map.serialize_entry("first", first)?;
                map.serialize_entry("second", &first.other())?;
                map.serialize_entry("field", field)?;
                map.serialize_entry("start", start)?;
                map.serialize_entry("current", current)?;
                map.serialize_entry("removed", &Items(removed))?;
                let params = params_json(
                    Some(&params.field),
                    Some(params.capacity),
                    Some(params.stock),
                    params.team_time,
                    params.game_time,
                );
                map.serialize_entry("params", &OrderedParams(&params))?;
            }
            Event::TurnStart {
                team,
                role,
                team_left,
                game_left,
            } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("role", role)?;
                map.serialize_entry("team_left", team_left)?;
                map.serialize_entry("game_left", game_left)?;
            }
            Event::Clear { team, items, load } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("items", &Items(items))?;
                map.serialize_entry("load", load)?;
            }
            Event::Claim { team, cell } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("cell", cell)?;
            }
            Event::Place { team, items, stock } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("items", &Items(items))?;
                map.serialize_entry("stock", stock)?;
            }
            Event::Cancel {
                cell,
                owner,
                was_current,
            } => {
                map.serialize_entry("cell", cell)?;
                map.serialize_entry("owner", owner)?;
                map.serialize_entry("was_current", was_current)?;
            }
            Event::Move { team, from, to } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("from", from)?;
                map.serialize_entry("to", to)?;
            }
            Event::Empty { team, amount } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("amount", amount)?;
            }
            Event::Pass { team } | Event::TeamOut { team } => {
                map.serialize_entry("team", team)?;
            }
            Event::Timeout {
                team,
                recorded,
                charged,
            } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("recorded", recorded)?;
                map.serialize_entry("charged", charged)?;
            }
            Event::Illegal {
                team,
                code,
                message,
            } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("code", code)?;
                map.serialize_entry("message", message)?;
            }
            Event::TurnEnd {
                team,
                charged,
                team_left,
                game_left,
                comment,
            } => {
                map.serialize_entry("team", team)?;
                map.serialize_entry("charged", charged)?;
                map.serialize_entry("team_left", team_left)?;
                map.serialize_entry("game_left", game_left)?;
                map.serialize_entry("comment", comment)?;
            }
            Event::GameEnd {
                reason,
                territory,
                objects,
                time_used,
                winner,
            } => {
                map.serialize_entry("reason", reason.name())?;
                map.serialize_entry("territory", territory)?;
                map.serialize_entry("objects", objects)?;
                map.serialize_entry("time_used", time_used)?;
                map.serialize_entry("winner", winner)?;
            }
            Event::MatchEnd {
                wins,
                territory,
                objects,
                time_used,
                winner,
                criterion,
                janken,
            } => {
                map.serialize_entry("wins", wins)?;
                map.serialize_entry("territory", territory)?;
                map.serialize_entry("objects", objects)?;
                map.serialize_entry("time_used", time_used)?;
                map.serialize_entry("winner", winner)?;
                map.serialize_entry("criterion", criterion)?;
                map.serialize_entry("janken", janken)?;
            }
        }
        map.end()
    }
}

/// The parameters object with its keys in the order of §2.1 (a
/// `serde_json::Map` would sort them).
struct OrderedParams<'a>(&'a Value);

impl Serialize for OrderedParams<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(5))?;
        for key in ["field", "capacity", "stock", "team_time", "game_time"] {
            map.serialize_entry(key, &self.0[key])?;
        }
        map.end()
    }
}

/// Why a line of an event log is not an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryError(pub String);

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EntryError {}

/// The fields of one line, taken one by one.
struct Fields {
    map: Map<String, Value>,
}

impl Fields {
    fn take<T: serde::de::DeserializeOwned>(&mut self, key: &str) -> Result<T, EntryError> {
        let value = self
            .map
            .remove(key)
            .ok_or_else(|| EntryError(format!("missing field \"{key}\"")))?;
        serde_json::from_value(value)
            .map_err(|error| EntryError(format!("field \"{key}\": {error}")))
    }

    fn items(&mut self, key: &str) -> Result<Vec<Item>, EntryError> {
        let pairs: Vec<(Cell, u32)> = self.take(key)?;
        Ok(pairs
            .into_iter()
            .map(|(cell, count)| Item { cell, count })
            .collect())
    }

    fn params(&mut self, whole: bool) -> Result<HeaderParams, EntryError> {
        let mut params = Fields {
            map: self.take("params")?,
        };
        let field: Option<Vec<Vec<u32>>> = params.take("field")?;
        let field = field
            .map(|rows| Field::new(&rows))
            .transpose()
            .map_err(|error| EntryError(format!("params.field: {error}")))?;
        let capacity: Option<u32> = params.take("capacity")?;
        let stock: Option<[u32; 2]> = params.take("stock")?;
        let header = HeaderParams {
            field,
            capacity,
            stock: stock.map(|[first, second]| Stock { first, second }),
            team_time: params.take("team_time")?,
            game_time: params.take("game_time")?,
        };
        params.done()?;
        if whole && (header.field.is_none() || header.capacity.is_none() || header.stock.is_none())
        {
            return Err(EntryError(
                "a game's params need field, capacity and stock".into(),
            ));
        }
        Ok(header)
    }

    fn done(self) -> Result<(), EntryError> {
        match self.map.keys().next() {
            Some(key) => Err(EntryError(format!("unexpected field \"{key}\""))),
            None => Ok(()),
        }
    }
}

impl Entry {
    /// Reads one line of `katazuke events` back.
    pub fn from_json(line: &str) -> Result<Entry, EntryError> {
        let value: Value =
            serde_json::from_str(line).map_err(|error| EntryError(format!("not JSON: {error}")))?;
        let Value::Object(map) = value else {
            return Err(EntryError("not a JSON object".into()));
        };
        let mut fields = Fields { map };
        let version: u64 = fields.take("v")?;
        if version != 1 {
            return Err(EntryError(format!("version {version}, expected 1")));
        }
        let name: String = fields.take("ev")?;
        let in_game = !matches!(name.as_str(), "match_start" | "match_end");
        let (game, turn, t) = if in_game {
            let game: u8 = fields.take("game")?;
            (Some(game), fields.take("turn")?, fields.take("t")?)
        } else {
            (None, 0, 0)
        };
        let event = match name.as_str() {
            "match_start" => Event::MatchStart(Box::new(MatchStart {
                teams: fields.take("teams")?,
                params: fields.params(false)?,
            })),
            "game_start" => {
                let first: Team = fields.take("first")?;
                let second: Team = fields.take("second")?;
                if second != first.other() {
                    return Err(EntryError("second must be the other team".into()));
                }
                let field = fields.take("field")?;
                let start = fields.take("start")?;
                let current = fields.take("current")?;
                let removed = fields.items("removed")?;
                let header = fields.params(true)?;
                let (Some(whole_field), Some(capacity), Some(stock)) =
                    (header.field, header.capacity, header.stock)
                else {
                    return Err(EntryError("incomplete game params".into()));
                };
                Event::GameStart(Box::new(GameStart {
                    first,
                    field,
                    start,
                    current,
                    removed,
                    params: Params {
                        field: whole_field,
                        capacity,
                        stock,
                        team_time: header.team_time,
                        game_time: header.game_time,
                    },
                }))
            }
            "turn_start" => Event::TurnStart {
                team: fields.take("team")?,
                role: fields.take("role")?,
                team_left: fields.take("team_left")?,
                game_left: fields.take("game_left")?,
            },
            "clear" => Event::Clear {
                team: fields.take("team")?,
                items: fields.items("items")?,
                load: fields.take("load")?,
            },
            "claim" => Event::Claim {
                team: fields.take("team")?,
                cell: fields.take("cell")?,
            },
            "place" => Event::Place {
                team: fields.take("team")?,
                items: fields.items("items")?,
                stock: fields.take("stock")?,
            },
            "cancel" => Event::Cancel {
                cell: fields.take("cell")?,
                owner: fields.take("owner")?,
                was_current: fields.take("was_current")?,
            },
            "move" => Event::Move {
                team: fields.take("team")?,
                from: fields.take("from")?,
                to: fields.take("to")?,
            },
            "empty" => Event::Empty {
                team: fields.take("team")?,
                amount: fields.take("amount")?,
            },
            "pass" => Event::Pass {
                team: fields.take("team")?,
            },
            "timeout" => Event::Timeout {
                team: fields.take("team")?,
                recorded: fields.take("recorded")?,
                charged: fields.take("charged")?,
            },
            "illegal" => Event::Illegal {
                team: fields.take("team")?,
                code: fields.take("code")?,
                message: fields.take("message")?,
            },
            "team_out" => Event::TeamOut {
                team: fields.take("team")?,
            },
            "turn_end" => Event::TurnEnd {
                team: fields.take("team")?,
                charged: fields.take("charged")?,
                team_left: fields.take("team_left")?,
                game_left: fields.take("game_left")?,
                comment: fields.take("comment")?,
            },
            "game_end" => {
                let reason: String = fields.take("reason")?;
                Event::GameEnd {
                    reason: End::from_name(&reason)
                        .ok_or_else(|| EntryError(format!("unknown reason {reason:?}")))?,
                    territory: fields.take("territory")?,
                    objects: fields.take("objects")?,
                    time_used: fields.take("time_used")?,
                    winner: fields.take("winner")?,
                }
            }
            "match_end" => Event::MatchEnd {
                wins: fields.take("wins")?,
                territory: fields.take("territory")?,
                objects: fields.take("objects")?,
                time_used: fields.take("time_used")?,
                winner: fields.take("winner")?,
                criterion: fields.take("criterion")?,
                janken: fields.take("janken")?,
            },
            other => return Err(EntryError(format!("unknown event \"{other}\""))),
        };
        fields.done()?;
        Ok(Entry {
            game,
            turn,
            t,
            event,
        })
    }

    /// The line `katazuke events` writes.
    pub fn to_json(&self) -> String {
        // Every key is a string and every value plain data: this cannot
        // fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::team::{PerTeam, Role};

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn lines_look_like_the_spec_example() {
        let entry = Entry {
            game: Some(1),
            turn: 9,
            t: 22000,
            event: Event::TurnStart {
                team: Team::A,
                role: Role::First,
                team_left: 7500,
                game_left: 14000,
            },
        };
        assert_eq!(
            entry.to_json(),
            r#"{"v":1,"ev":"turn_start","game":1,"turn":9,"t":22000,"team":"A","role":"first","team_left":7500,"game_left":14000}"#
        );
        let place = Entry {
            game: Some(1),
            turn: 9,
            t: 22000,
            event: Event::Place {
                team: Team::A,
                items: vec![Item {
                    cell: cell("d2"),
                    count: 1,
                }],
                stock: 1,
            },
        };
        assert_eq!(
            place.to_json(),
            r#"{"v":1,"ev":"place","game":1,"turn":9,"t":22000,"team":"A","items":[["d2",1]],"stock":1}"#
        );
        let end = Entry {
            game: Some(1),
            turn: 9,
            t: 24000,
            event: Event::TurnEnd {
                team: Team::A,
                charged: 2000,
                team_left: PerTeam { a: 5500, b: 10500 },
                game_left: 12000,
                comment: Some("cancels B's territory d2".into()),
            },
        };
        assert_eq!(
            end.to_json(),
            r#"{"v":1,"ev":"turn_end","game":1,"turn":9,"t":24000,"team":"A","charged":2000,"team_left":{"A":5500,"B":10500},"game_left":12000,"comment":"cancels B's territory d2"}"#
        );
        for entry in [entry, place, end] {
            assert_eq!(Entry::from_json(&entry.to_json()), Ok(entry));
        }
    }

    #[test]
    fn a_line_that_is_not_an_event_says_why() {
        let error = Entry::from_json(r#"{"v":1,"ev":"pass","game":1,"turn":1,"t":0}"#).unwrap_err();
        assert_eq!(error.to_string(), "missing field \"team\"");
        let error =
            Entry::from_json(r#"{"v":1,"ev":"pass","game":1,"turn":1,"t":0,"team":"A","x":1}"#)
                .unwrap_err();
        assert_eq!(error.to_string(), "unexpected field \"x\"");
        assert!(Entry::from_json(r#"{"v":2,"ev":"pass"}"#).is_err());
        assert!(Entry::from_json("[]").is_err());
    }
}
