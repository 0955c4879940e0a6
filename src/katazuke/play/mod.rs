//! Playing matches rather than checking them: random legal matches from a
//! seed.

pub mod random;
