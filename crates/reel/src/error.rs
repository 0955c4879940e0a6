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
            EncodeError::Canvas { .. } => None,
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
