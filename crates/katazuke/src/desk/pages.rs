//! The desk's pages, served from the binary: plain HTML, CSS and
//! JavaScript, no build step and nothing fetched from the network.

/// The desk (`/`): the operator's page, and an advisor's.
pub const DESK_HTML: &str = include_str!("pages/desk.html");
/// The audience screen (`/screen`), read-only.
pub const SCREEN_HTML: &str = include_str!("pages/screen.html");
/// Both pages' script.
pub const DESK_JS: &str = include_str!("pages/desk.js");
/// Both pages' style.
pub const DESK_CSS: &str = include_str!("pages/desk.css");
