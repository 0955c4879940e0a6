//! What the box holds: the two kinds of creature, and what one cell holds.

/// The two kinds of creature. Both fall; only shubbles may leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Creature {
    /// Blue, `o`.
    Shubble,
    /// Red, `x`.
    Smole,
}

impl Creature {
    /// Its character in a state string: `o` or `x`.
    pub const fn symbol(self) -> char {
        match self {
            Creature::Shubble => 'o',
            Creature::Smole => 'x',
        }
    }

    /// `shubble` or `smole`, for messages and the event log.
    pub const fn name(self) -> &'static str {
        match self {
            Creature::Shubble => "shubble",
            Creature::Smole => "smole",
        }
    }
}

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// Nothing: `.`.
    Empty,
    /// A shubble or a smole.
    Creature(Creature),
    /// The stot: `@`.
    Stot,
}

impl Content {
    /// Its character in a state string: `.`, `o`, `x` or `@`.
    pub const fn symbol(self) -> char {
        match self {
            Content::Empty => '.',
            Content::Creature(c) => c.symbol(),
            Content::Stot => '@',
        }
    }
}
