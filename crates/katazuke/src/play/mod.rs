//! Playing matches rather than checking them (§15): players (built-in
//! ones, a person, and external programs over the line protocol), a match
//! refereed as it is played, what a match is set up with, tournaments,
//! seeded practice matches, and random legal matches.

pub mod arena;
pub mod computer;
pub mod elo;
pub mod fields_file;
pub mod io_log;
pub mod latency;
pub mod pentanomial;
pub mod player;
mod process_group;
pub mod program;
pub mod protocol;
pub mod random;
pub mod spec;
pub mod sprt;
pub mod starts;
pub mod suite;
pub mod tournament;
