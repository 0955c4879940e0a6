//! Why a picture could not be written.

use std::fmt;
use std::io;

/// Why a picture could not be written.
#[derive(Debug)]
pub enum EncodeError {
    /// Writing to the output failed.
    Io(io::Error),
    /// The GIF encoder refused the data.
    Gif(gif::EncodingError),
    /// The PNG encoder refused the data (tiny-skia does not re-export the
    /// `png` crate's error type, hence the box).
    Png(Box<dyn std::error::Error + Send + Sync>),
    /// libwebp refused the data.
    Webp(webp_animation::Error),
    /// Even the smallest legible drawing of an animation is over the size
    /// budget.
    OverBudget {
        /// The budget, in bytes.
        budget: u64,
    },
    /// An APNG or a WebP of no picture, which neither format can hold.
    NoPictures,
    /// An animation too long for its format's time stamps.
    TooLong {
        /// How long it would play.
        milliseconds: i64,
    },
    /// A canvas of this size cannot be drawn or stored: a side is 0, or
    /// larger than a GIF's 65,535 pixels, or the whole too large to hold.
    Canvas {
        /// Pixels across.
        width: u32,
        /// Pixels down.
        height: u32,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The cause is the error's source, not part of its message, so
            // that a chain of causes names each once.
            EncodeError::Io(_) => write!(f, "cannot write the picture"),
            EncodeError::Gif(_) => write!(f, "cannot encode the GIF"),
            EncodeError::Png(_) => write!(f, "cannot encode the PNG"),
            EncodeError::Webp(_) => write!(f, "cannot encode the WebP"),
            EncodeError::NoPictures => write!(f, "an animation needs at least one picture"),
            EncodeError::OverBudget { budget } => write!(
                f,
                "over --max-size {budget} bytes even drawn at the smallest legible size"
            ),
            EncodeError::TooLong { milliseconds } => write!(
                f,
                "an animation of {} s is too long for its format",
                milliseconds / 1000
            ),
            EncodeError::Canvas { width, height } => {
                write!(f, "cannot draw a picture of {width} by {height} pixels")
            }
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EncodeError::Io(error) => Some(error),
            EncodeError::Gif(error) => Some(error),
            EncodeError::Png(error) => Some(error.as_ref()),
            EncodeError::Webp(error) => Some(error),
            EncodeError::Canvas { .. }
            | EncodeError::NoPictures
            | EncodeError::OverBudget { .. }
            | EncodeError::TooLong { .. } => None,
        }
    }
}

impl From<io::Error> for EncodeError {
    fn from(error: io::Error) -> Self {
        EncodeError::Io(error)
    }
}

impl From<gif::EncodingError> for EncodeError {
    fn from(error: gif::EncodingError) -> Self {
        // An I/O failure is the user's disk or pipe, not the encoder: keep
        // it recognisable as one.
        match error {
            gif::EncodingError::Io(error) => EncodeError::Io(error),
            other => EncodeError::Gif(other),
        }
    }
}

impl From<webp_animation::Error> for EncodeError {
    fn from(error: webp_animation::Error) -> Self {
        EncodeError::Webp(error)
    }
}
