//! The `.ktz` match log (§11): its lines read one at a time, a reader that
//! referees a whole log from the top, and the canonical rewrite.

pub mod canonical;
pub mod lines;
pub mod reader;
pub mod record;
