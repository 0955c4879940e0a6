//! The match as text and data: the results `check` prints (JSON and for
//! people).

pub mod report;
