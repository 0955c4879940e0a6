//! The box as text and data: the ASCII picture (BOX.md §7), the frame dump
//! (§8), the event log as JSON Lines (written and read back), and the words
//! of captions.

pub mod ascii;
pub mod caption;
pub mod event_log;
pub mod frame_dump;
