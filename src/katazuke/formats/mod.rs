//! The match as text and data: the results `check` prints (JSON and for
//! people).

pub mod ascii;
pub mod caption;
pub mod event_log;
pub mod report;
