//! What the lossless optimiser `gifsicle -O3` still saves on a GIF: the
//! yardstick of how small our GIFs are (issue 25: at most 0.2 %).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::transcript::NEED_TOOLS;

/// At most this share of a GIF may `gifsicle -O3` save.
pub const MOST_IT_MAY_SAVE: f64 = 0.002;

/// The share of `gif`'s bytes that `gifsicle -O3` saves (negative when
/// its output is larger), or `None` when gifsicle is not installed and
/// the tests may skip what needs it (CI installs it and says so with
/// [`NEED_TOOLS`]).
pub fn saving(gif: &[u8]) -> Option<f64> {
    let started = Command::new("gifsicle")
        .arg("-O3")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match started {
        Ok(child) => child,
        Err(error) => {
            assert!(
                std::env::var(NEED_TOOLS).as_deref() != Ok("1"),
                "gifsicle is needed ({NEED_TOOLS}=1): {error}"
            );
            println!("skipped: gifsicle is not installed ({error})");
            return None;
        }
    };
    let mut stdin = child.stdin.take().expect("a pipe to gifsicle");
    let input = gif.to_vec();
    let feeding = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("gifsicle ran");
    feeding
        .join()
        .expect("feeding gifsicle")
        .expect("gifsicle read the GIF");
    assert!(output.status.success(), "gifsicle failed on our GIF");
    let (ours, theirs) = (gif.len() as f64, output.stdout.len() as f64);
    Some((ours - theirs) / ours)
}

/// Asserts that `gifsicle -O3` saves at most [`MOST_IT_MAY_SAVE`] of
/// `gif`, named `what` in the message.
pub fn assert_nothing_left_for_it(what: &str, gif: &[u8]) {
    if let Some(saving) = saving(gif) {
        assert!(
            saving <= MOST_IT_MAY_SAVE,
            "{what}: gifsicle -O3 saves {:.2} % of its {} bytes",
            saving * 100.0,
            gif.len()
        );
    }
}
