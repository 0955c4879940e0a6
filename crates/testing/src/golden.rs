//! Pictures compared pixel for pixel with the golden PNGs of a crate's
//! `frames/` folder.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use reel::write_png;
use tiny_skia::Pixmap;

/// A crate's golden PNGs and where a test keeps what it drew when they
/// differ.
pub struct Golden {
    /// The folder of golden PNGs (a crate's `frames/`).
    pub frames: PathBuf,
    /// Where pictures that differ are saved for a look (the test's
    /// `CARGO_TARGET_TMPDIR`).
    pub drawn: PathBuf,
}

impl Golden {
    /// The golden PNGs of the crate at `manifest_dir` (its `frames/`), with
    /// differing pictures kept in `target_tmpdir`: a test passes its own
    /// `CARGO_MANIFEST_DIR` and `CARGO_TARGET_TMPDIR`.
    pub fn of_crate(manifest_dir: &str, target_tmpdir: &str) -> Golden {
        Golden {
            frames: Path::new(manifest_dir).join("frames"),
            drawn: PathBuf::from(target_tmpdir),
        }
    }
}

/// True when `SHUBBLES_BLESS=1`: the PNGs are to be written, not compared.
pub fn blessing() -> bool {
    std::env::var("SHUBBLES_BLESS").is_ok_and(|v| v == "1")
}

/// Writes `pixmap` to `path` as a PNG, making its folder.
pub fn save(pixmap: &Pixmap, path: &Path) {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    }
    let file = File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    write_png(pixmap, BufWriter::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

impl Golden {
    /// Compares `actual` with `frames/NAME` (or writes it there when blessing)
    /// and says how they differ; what was drawn is kept under the target
    /// folder for a look. `test` names the test to bless with.
    pub fn compare(&self, name: &str, actual: &Pixmap, test: &str) -> Option<String> {
        let path = self.frames.join(name);
        if blessing() {
            save(actual, &path);
            return None;
        }
        let expected = Pixmap::load_png(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}; to create it run SHUBBLES_BLESS=1 cargo test --test {test}",
                path.display()
            )
        });
        if expected == *actual {
            return None;
        }
        let drawn = self.drawn.join(name);
        save(actual, &drawn);
        let detail = if (expected.width(), expected.height()) != (actual.width(), actual.height()) {
            format!(
                "size {}x{} instead of {}x{}",
                actual.width(),
                actual.height(),
                expected.width(),
                expected.height()
            )
        } else {
            let differing = expected
                .pixels()
                .iter()
                .zip(actual.pixels())
                .filter(|(a, b)| a != b)
                .count();
            format!("{differing} pixels differ")
        };
        Some(format!("{name}: {detail} (drawn: {})", drawn.display()))
    }
}

/// Fails with every mismatch, and how to accept an intended change.
pub fn assert_none_differ(mismatches: &[String], test: &str) {
    assert!(
        mismatches.is_empty(),
        "frames differ from the golden PNGs:\n{}\nIf the change is intended, look at the drawn \
         files, then run SHUBBLES_BLESS=1 cargo test --test {test}",
        mismatches.join("\n")
    );
}

/// Fails unless the committed file at `path` holds `made` byte for byte;
/// when blessing, writes `made` there first. `test` names the test to
/// bless with (`cargo test -p CRATE --test TEST`).
pub fn assert_committed(path: &Path, made: &[u8], test: &str) {
    if blessing() {
        std::fs::write(path, made).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let committed = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        committed == made,
        "{} is out of date ({} bytes committed, {} made); regenerate it with SHUBBLES_BLESS=1 cargo test {test}",
        path.display(),
        committed.len(),
        made.len()
    );
}
