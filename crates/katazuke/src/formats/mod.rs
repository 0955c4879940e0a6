//! The match as text and data: the results `check` prints (JSON and for
//! people), events as JSON lines and event logs read back, boards and
//! captions.

pub mod ascii;
pub mod caption;
pub mod event_json;
pub mod event_log;
pub mod report;
