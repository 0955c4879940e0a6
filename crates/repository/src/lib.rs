//! This crate has no code of its own. Its tests (`tests/`) check the
//! repository as a whole: the crate graph and the import graph inside each
//! crate (`architecture.rs`) and that every `§` cited anywhere names a
//! section of the rules in `docs/` (`rules_references.rs`).
