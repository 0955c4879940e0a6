//! The table's file: a header, then one block per layer, each with the
//! distances packed in as few bits as its deepest distance needs and a
//! CRC-32 of the block.
//!
//! ```text
//! header   "SHUBTBL\n"  version u32  max shubbles u32  CRC-32 of the 16 bytes before it u32
//! block    shubbles u32  states u64  bits u8  (3 zero bytes)  CRC-32 u32  payload
//! payload  states × bits bits, least significant first, padded to a byte;
//!          all ones: unsolvable
//! ```
//!
//! All numbers are little-endian. A block's CRC covers its fields before
//! the CRC and its payload. A reader checks the magic, the version, every
//! checksum, and that each block has the layer and state count the index
//! gives, and refuses the file otherwise.
//!
//! A build writes to `FILE.partial`, each layer's block synced before the
//! next begins, and renames it to `FILE` when the last is there. A build
//! that finds a `FILE.partial` keeps its whole blocks and goes on after
//! them; a torn last block is cut off.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::build::{TableProgress, UNSOLVABLE};
use super::distances::Distances;
use super::{Builder, Table, TableError};
use crate::model::geometry::CELL_COUNT;

/// The version of the table's file format.
pub const TABLE_VERSION: u32 = 1;

const MAGIC: &[u8; 8] = b"SHUBTBL\n";
const HEADER_LEN: u64 = 20;
const BLOCK_HEADER_LEN: u64 = 20;

/// Why a table file could not be read or written.
#[derive(Debug)]
pub enum FileError {
    /// Reading or writing failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// The file is not a table, or is damaged.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: String,
    },
    /// The file is a table of another version of the format.
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// The build could not go on.
    Build(TableError),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FileError::Damaged { path, problem } => write!(
                f,
                "{}: not a usable table ({problem}): build it again with `shubbles table build`",
                path.display()
            ),
            FileError::Version { path, found } => write!(
                f,
                "{}: a table of format version {found}, this shubbles reads version \
                 {TABLE_VERSION}: build it again with `shubbles table build`",
                path.display()
            ),
            FileError::Build(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for FileError {}

/// What [`build_file`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildSummary {
    /// Layers found whole in the partial file and kept.
    pub layers_resumed: usize,
    /// Layers built now.
    pub layers_built: usize,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// The partial file a build of `path` writes to.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Builds the layers of up to `max_shubbles` shubbles into `path`, going
/// on from `path.partial` if an earlier build left one.
pub fn build_file(
    path: &Path,
    max_shubbles: usize,
    progress: &mut impl TableProgress,
) -> Result<BuildSummary, FileError> {
    let partial = partial_path(path);
    let io_error = |error| FileError::Io {
        path: partial.clone(),
        error,
    };
    let mut builder = Builder::new(max_shubbles).map_err(FileError::Build)?;
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&partial)
        .map_err(io_error)?;
    let kept = read_whole_blocks(&mut file, &partial, &mut builder, progress)?;
    let layers_resumed = builder.layers.len();
    file.set_len(kept).map_err(io_error)?;
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    file.write_all(&header(max_shubbles)).map_err(io_error)?;
    file.seek(SeekFrom::Start(kept.max(HEADER_LEN)))
        .map_err(io_error)?;
    let mut layers_built = 0;
    while let Some(shubbles) = builder.next_layer(progress).map_err(FileError::Build)? {
        let mut writer = BufWriter::new(&mut file);
        write_block(&mut writer, shubbles, &builder.layers[shubbles]).map_err(io_error)?;
        writer.flush().map_err(io_error)?;
        drop(writer);
        file.sync_data().map_err(io_error)?;
        layers_built += 1;
    }
    let bytes = file.metadata().map_err(io_error)?.len();
    drop(file);
    fs::rename(&partial, path).map_err(|error| FileError::Io {
        path: path.to_owned(),
        error,
    })?;
    Ok(BuildSummary {
        layers_resumed,
        layers_built,
        bytes,
    })
}

/// Reads the whole blocks of a partial file into the builder's layers;
/// returns where the last whole one ends (0 when the file has no usable
/// header, so that it is written anew).
fn read_whole_blocks(
    file: &mut File,
    path: &Path,
    builder: &mut Builder,
    progress: &mut impl TableProgress,
) -> Result<u64, FileError> {
    let mut reader = BufReader::new(&mut *file);
    let mut head = [0u8; HEADER_LEN as usize];
    if reader.read_exact(&mut head).is_err() || check_header(&head, path).is_err() {
        return Ok(0);
    }
    let mut end = HEADER_LEN;
    while builder.layers.len() <= builder.max_shubbles {
        let Ok(Some((shubbles, layer, len))) =
            read_block(&mut reader, path, builder.layers.len(), &builder.index)
        else {
            break;
        };
        progress.layer_resumed(shubbles, layer.len());
        // The next layer's build reads this one a byte a state.
        builder.layers.push(layer.to_bytes());
        end += len;
    }
    Ok(end)
}

impl Table {
    /// Reads a table file, its layers of up to `up_to` shubbles (all of
    /// them when `None`), checking every checksum.
    pub fn open(path: &Path, up_to: Option<usize>) -> Result<Table, FileError> {
        let io_error = |error| FileError::Io {
            path: path.to_owned(),
            error,
        };
        let mut reader = BufReader::new(File::open(path).map_err(io_error)?);
        let mut head = [0u8; HEADER_LEN as usize];
        reader
            .read_exact(&mut head)
            .map_err(|_| damaged(path, "shorter than its header"))?;
        let max_shubbles = check_header(&head, path)?;
        let wanted = up_to.map_or(max_shubbles, |up_to| up_to.min(max_shubbles));
        let index = super::index::Index::up_to(wanted + 2);
        let mut layers = Vec::new();
        while layers.len() <= wanted {
            match read_block(&mut reader, path, layers.len(), &index)? {
                Some((_, layer, _)) => layers.push(layer),
                None => {
                    return Err(damaged(
                        path,
                        &format!("its layer of {} shubbles is missing", layers.len()),
                    ))
                }
            }
        }
        Ok(Table { index, layers })
    }
}

fn damaged(path: &Path, problem: &str) -> FileError {
    FileError::Damaged {
        path: path.to_owned(),
        problem: problem.to_owned(),
    }
}

fn header(max_shubbles: usize) -> [u8; HEADER_LEN as usize] {
    let mut head = [0u8; HEADER_LEN as usize];
    head[..8].copy_from_slice(MAGIC);
    head[8..12].copy_from_slice(&TABLE_VERSION.to_le_bytes());
    head[12..16].copy_from_slice(&(max_shubbles as u32).to_le_bytes());
    let crc = crc32fast::hash(&head[..16]);
    head[16..].copy_from_slice(&crc.to_le_bytes());
    head
}

/// The header's max shubbles, or why the header is refused.
fn check_header(head: &[u8; HEADER_LEN as usize], path: &Path) -> Result<usize, FileError> {
    if &head[..8] != MAGIC {
        return Err(damaged(path, "it does not begin as a shubbles table"));
    }
    let number =
        |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    if crc32fast::hash(&head[..16]) != number(16) {
        return Err(damaged(path, "its header's checksum does not match"));
    }
    if number(8) != TABLE_VERSION {
        return Err(FileError::Version {
            path: path.to_owned(),
            found: number(8),
        });
    }
    let max_shubbles = number(12) as usize;
    if max_shubbles > CELL_COUNT - 3 {
        return Err(damaged(path, "its header names more shubbles than fit"));
    }
    Ok(max_shubbles)
}

/// The fewest bits that hold every distance of `layer` and, as all ones,
/// unsolvable.
fn bits_for(layer: &[u8]) -> u32 {
    let deepest = layer
        .iter()
        .filter(|&&distance| distance != UNSOLVABLE)
        .max()
        .copied()
        .unwrap_or(0) as u32;
    32 - (deepest + 1).leading_zeros()
}

fn write_block(out: &mut impl Write, shubbles: usize, layer: &[u8]) -> io::Result<()> {
    let bits = bits_for(layer);
    let ones = ((1u16 << bits) - 1) as u8;
    let mut payload = Vec::with_capacity((layer.len() * bits as usize).div_ceil(8));
    let (mut word, mut filled) = (0u64, 0u32);
    for &distance in layer {
        let code = if distance == UNSOLVABLE {
            ones
        } else {
            distance
        };
        word |= (code as u64) << filled;
        filled += bits;
        while filled >= 8 {
            payload.push(word as u8);
            word >>= 8;
            filled -= 8;
        }
    }
    if filled > 0 {
        payload.push(word as u8);
    }
    let mut head = Vec::with_capacity(BLOCK_HEADER_LEN as usize);
    head.extend_from_slice(&(shubbles as u32).to_le_bytes());
    head.extend_from_slice(&(layer.len() as u64).to_le_bytes());
    head.extend_from_slice(&[bits as u8, 0, 0, 0]);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    crc.update(&payload);
    head.extend_from_slice(&crc.finalize().to_le_bytes());
    out.write_all(&head)?;
    out.write_all(&payload)
}

/// Reads the block of layer `shubbles`: `None` at the end of the file,
/// an error when the block is torn or damaged. Gives the layer (packed,
/// as the file holds it) and the block's length.
fn read_block(
    input: &mut impl Read,
    path: &Path,
    shubbles: usize,
    index: &super::index::Index,
) -> Result<Option<(usize, Distances, u64)>, FileError> {
    let mut head = [0u8; BLOCK_HEADER_LEN as usize];
    match input.read(&mut head[..1]) {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(error) => {
            return Err(FileError::Io {
                path: path.to_owned(),
                error,
            })
        }
    }
    let layer_name = format!("its layer of {shubbles} shubbles");
    input
        .read_exact(&mut head[1..])
        .map_err(|_| damaged(path, &format!("{layer_name} is cut short")))?;
    let number = |at: usize, len: usize| {
        head[at..at + len]
            .iter()
            .rev()
            .fold(0u64, |value, &byte| value << 8 | byte as u64)
    };
    let states = index.layer_len(shubbles + 2);
    if shubbles > CELL_COUNT - 3 || number(0, 4) != shubbles as u64 || number(4, 8) != states {
        return Err(damaged(
            path,
            &format!("{layer_name} does not have the index's layer and state count"),
        ));
    }
    let bits = head[12] as u32;
    if !(1..=8).contains(&bits) || head[13..16] != [0, 0, 0] {
        return Err(damaged(path, &format!("{layer_name} has a bad header")));
    }
    let mut payload = vec![0u8; (states * bits as u64).div_ceil(8) as usize];
    input
        .read_exact(&mut payload)
        .map_err(|_| damaged(path, &format!("{layer_name} is cut short")))?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head[..16]);
    crc.update(&payload);
    if crc.finalize() as u64 != number(16, 4) {
        return Err(damaged(
            path,
            &format!("{layer_name} does not match its checksum"),
        ));
    }
    let len = BLOCK_HEADER_LEN + payload.len() as u64;
    let layer = Distances::from_packed(bits, payload, states)
        .ok_or_else(|| damaged(path, &format!("{layer_name} has a bad header")))?;
    Ok(Some((shubbles, layer, len)))
}
