//! The shubbles-and-smoles puzzle box of `docs/BOX.md`: 29 cells, blue
//! shubbles and red smoles that fall, a stot to move, a box to turn, one
//! opening under cell 28; and every step of a run shown as a picture.
//!
//! The engine is event-sourced, in stages that each know nothing of the
//! ones after it: the vocabulary ([`Cell`]s, [`Creature`]s,
//! [`Operation`]s, [`Event`]s, [`State`]s), the rules (operations become
//! events, a [`Scenario`]'s run is a stream of them and a [`State`] a fold
//! over them, and the stream becomes [`Frame`]s), text formats (the ASCII
//! [`picture`], the frame dump, the event log), pictures ([`Renderer`],
//! [`write_gif`], [`write_smooth_gif`]), then the uses of the whole:
//! [`solve`] (shortest answers), [`Table`] (every stable state's distance,
//! built once) and [`Batch`] (many scenarios at once).
//! Pictures become GIF and PNG bytes in the [`reel`] crate, which knows no
//! game: the box plugs into it as a painter of its pictures. The modules
//! are private: what a caller uses is re-exported here.
//!
//! ```
//! use shubbles::Scenario;
//!
//! let scenario = Scenario::parse(".........@...o....ooo..xox...", "+>|<-v+^+", false)?;
//! assert_eq!(scenario.run().result(), "o........@..o....oox...xo....");
//! assert_eq!(scenario.frames().count(), 26);
//! # Ok::<(), shubbles::InputError>(())
//! ```

mod batch;
mod draw;
mod formats;
mod model;
mod progress;
mod rules;
mod solve;
mod table;

/// How the hidden temporary files that the box's tools write beside their
/// outputs begin (`.shubbles-XXXXXX.tmp`, renamed over the output when it
/// is complete): a leftover says where it came from.
pub const TEMPORARY_PREFIX: &str = ".shubbles-";

// The vocabulary.
pub use model::creature::{Content, Creature};
pub use model::event::{Blocked, Entry, Event, Failure};
pub use model::geometry::{Cell, CellSet, Direction, Orientation, CELL_COUNT};
pub use model::input_error::InputError;
pub use model::operation::{format_operations, parse_operations, Operation, Rotation};
pub use model::state::State;

// The rules.
pub use rules::engine::{
    legal_operations, perform, perform_quietly, seeded_legal_operations, settle,
};
pub use rules::frames::Frame;
pub use rules::scenario::{Outcome, Scenario};

// Text and pictures.
pub use draw::animation::{write_gif, FRAME_DELAY_CENTISECONDS};
pub use draw::options::{
    RenderOptions, RenderOptionsError, SmoothRate, CELL_SIZES, SMALLEST_LEGIBLE_CELL_SIZE,
};
pub use draw::renderer::Renderer;
pub use draw::smooth::{
    smooth_picture, write_smooth_gif, SMOOTH_DELAY_CENTISECONDS, SMOOTH_HOLD_CENTISECONDS,
};
pub use formats::ascii::picture;
pub use formats::event_log::{read_event_log, write_event_log, EventLog, LogError};
pub use formats::frame_dump::write_frame_dump;
pub use reel;
pub use reel::{write_png, EncodeError, Loops};

// Shortest answers, searched for or read from the table.
pub use solve::{
    progress_line, solve, solve_with_table, SolveError, SolveOutcome, SolveProgress, SolveReport,
    MAX_STATES,
};
pub use table::{
    build_file, partial_path, BuildSummary, FileError, LayerStatistics, Mismatch, Table,
    TableError, TableProgress, TableStatistics, MAX_SHUBBLES as TABLE_MAX_SHUBBLES, TABLE_VERSION,
};

// Many scenarios at once.
pub use batch::manifest::{
    manifest_name, merge_manifests, read_manifest, resumable_entries, Header, JobStatus,
    ManifestError, ManifestLine, ManifestWriter, MergeSummary, MANIFEST_VERSION,
};
pub use batch::{
    check_name, Batch, BatchProgress, Format, InvalidLine, Job, LineProblem, Location, NameError,
    NotWritten, Rendered, Shard, ShardError, Summary, UnknownFormat, Written, MAX_NAME_BYTES,
};
pub use progress::NoProgress;

// The README's example runs as a test, so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
