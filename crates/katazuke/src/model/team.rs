//! The two teams, their roles in a game, and values kept per team.

use std::fmt;
use std::ops::{Index, IndexMut};

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A team of the match, named `A` or `B` for the whole match (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Team {
    /// Team `A`.
    A,
    /// Team `B`.
    B,
}

impl Team {
    /// Both teams, `A` first.
    pub const BOTH: [Team; 2] = [Team::A, Team::B];

    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::A => Team::B,
            Team::B => Team::A,
        }
    }

    /// `A` or `B`.
    pub const fn letter(self) -> &'static str {
        match self {
            Team::A => "A",
            Team::B => "B",
        }
    }

    /// The team a letter names, if any.
    pub fn from_letter(letter: &str) -> Option<Team> {
        match letter {
            "A" => Some(Team::A),
            "B" => Some(Team::B),
            _ => None,
        }
    }

    /// 0 for A, 1 for B: where a team's value is kept in an array.
    pub const fn index(self) -> usize {
        match self {
            Team::A => 0,
            Team::B => 1,
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

impl Serialize for Team {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.letter())
    }
}

impl<'de> Deserialize<'de> for Team {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Team, D::Error> {
        let letter = String::deserialize(deserializer)?;
        Team::from_letter(&letter)
            .ok_or_else(|| de::Error::custom(format!("unknown team {letter:?}: expected A or B")))
    }
}

/// A team's role in one game (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// 先手: takes turn 1, starts with one cell.
    First,
    /// 後手: starts with two cells.
    Second,
}

impl Role {
    /// `first` or `second`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::First => "first",
            Role::Second => "second",
        }
    }

    /// `1st` or `2nd`, for the replay's panels.
    pub const fn short(self) -> &'static str {
        match self {
            Role::First => "1st",
            Role::Second => "2nd",
        }
    }
}

/// One value for each team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PerTeam<T> {
    /// Team `A`'s.
    pub a: T,
    /// Team `B`'s.
    pub b: T,
}

impl<T> PerTeam<T> {
    /// `value(A)` and `value(B)`.
    pub fn from_fn(mut value: impl FnMut(Team) -> T) -> PerTeam<T> {
        PerTeam {
            a: value(Team::A),
            b: value(Team::B),
        }
    }

    /// Both values through `f`.
    pub fn map<U>(&self, mut f: impl FnMut(&T) -> U) -> PerTeam<U> {
        PerTeam {
            a: f(&self.a),
            b: f(&self.b),
        }
    }
}

impl<T> Index<Team> for PerTeam<T> {
    type Output = T;

    fn index(&self, team: Team) -> &T {
        match team.index() {
            0 => &self.a,
            _ => &self.b,
        }
    }
}

impl<T> IndexMut<Team> for PerTeam<T> {
    fn index_mut(&mut self, team: Team) -> &mut T {
        match team.index() {
            0 => &mut self.a,
            _ => &mut self.b,
        }
    }
}

/// As `{"A": …, "B": …}`, the form of KATAZUKE.md §12 and §14.1.
impl<T: Serialize> Serialize for PerTeam<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("A", &self.a)?;
        map.serialize_entry("B", &self.b)?;
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PerTeam<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PerTeam<T>, D::Error> {
        struct Teams<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Teams<T> {
            type Value = PerTeam<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(r#"an object {"A": …, "B": …}"#)
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<PerTeam<T>, M::Error> {
                let (mut a, mut b) = (None, None);
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "A" if a.is_none() => a = Some(map.next_value()?),
                        "B" if b.is_none() => b = Some(map.next_value()?),
                        other => {
                            return Err(de::Error::custom(format!(
                                "unexpected key {other:?}: expected A and B once each"
                            )))
                        }
                    }
                }
                match (a, b) {
                    (Some(a), Some(b)) => Ok(PerTeam { a, b }),
                    _ => Err(de::Error::custom("expected both A and B")),
                }
            }
        }
        deserializer.deserialize_map(Teams(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_team_values_are_a_then_b_in_json() {
        let values = PerTeam { a: 5, b: 6 };
        assert_eq!(serde_json::to_string(&values).unwrap(), r#"{"A":5,"B":6}"#);
        let back: PerTeam<u32> = serde_json::from_str(r#"{"B":6,"A":5}"#).unwrap();
        assert_eq!(back, values);
        assert!(serde_json::from_str::<PerTeam<u32>>(r#"{"A":5}"#).is_err());
        assert_eq!(values[Team::B], 6);
        assert_eq!(Team::A.other(), Team::B);
    }
}
