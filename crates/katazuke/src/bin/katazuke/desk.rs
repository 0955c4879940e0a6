//! `katazuke desk`: a live match served to the browser. The match itself,
//! the server and the pages are the library's; this reads the arguments,
//! refuses what cannot work before anything is served, and says where to
//! point the browser.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use edge::{check_writable, Ending};
use katazuke::{
    header_of, resume, serve, setup_of, DeskClock, DeskOptions, DeskSession, Team, TEMPORARY_PREFIX,
};

use crate::args::{DeskArgs, DeskClockArg};
use crate::input::read_source;
use crate::play::DEFAULT_PARAMS;

/// The record's name when none is given.
const DEFAULT_RECORD: &str = "match.ktz";

pub fn desk(args: &DeskArgs) -> Ending {
    match prepare(args) {
        Ok((session, options, listener, lines)) => {
            let ready = || {
                // Said once the record is written: a script that waits for
                // these lines finds the record there.
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(lines.as_bytes()).and_then(|()| out.flush());
            };
            match serve(session, options, listener, ready) {
                Ok(()) => Ending::Success,
                Err(error) => Ending::Error(error.into()),
            }
        }
        Err(ending) => ending,
    }
}

fn text_of(path: &Path) -> Result<String, Ending> {
    let source = read_source(path)?;
    String::from_utf8(source.bytes)
        .map_err(|_| Ending::Invalid(format!("{} is not UTF-8 text", source.label)))
}

/// The match, how it is served, the socket, and the lines that say where.
type Prepared = (DeskSession, DeskOptions, TcpListener, String);

fn prepare(args: &DeskArgs) -> Result<Prepared, Ending> {
    let clock = match args.clock {
        DeskClockArg::Wall => DeskClock::Wall,
        DeskClockArg::Manual => DeskClock::Manual,
    };
    let params = match &args.params {
        Some(path) => Some((path.display().to_string(), text_of(path)?)),
        None => None,
    };
    let given = match &params {
        Some((label, text)) => Some(
            setup_of(text.as_bytes(), None)
                .map_err(|problem| Ending::Invalid(format!("{label}: {problem}")))?,
        ),
        None => None,
    };
    let (session, record) = match &args.resume {
        Some(path) => {
            let text = text_of(path)?;
            let session = resume(&text, clock, given.as_ref(), 0).map_err(|problem| {
                Ending::Invalid(format!("cannot resume {}: {problem}", path.display()))
            })?;
            (session, args.record.clone().unwrap_or_else(|| path.clone()))
        }
        None => {
            let text = params
                .as_ref()
                .map_or(DEFAULT_PARAMS, |(_, text)| text.as_str());
            let setup = match given {
                Some(setup) => setup,
                None => setup_of(text.as_bytes(), None).map_err(|problem| {
                    Ending::Invalid(format!("the default parameters: {problem}"))
                })?,
            };
            let record = args
                .record
                .clone()
                .unwrap_or_else(|| PathBuf::from(DEFAULT_RECORD));
            if record.exists() {
                return Err(Ending::Invalid(format!(
                    "{} exists: continue its match with --resume {0}, or name another --record",
                    record.display()
                )));
            }
            (DeskSession::new(header_of(text), setup, clock), record)
        }
    };
    check_writable(&record, "the match record", TEMPORARY_PREFIX).map_err(Ending::Invalid)?;
    let listener = TcpListener::bind((args.bind, args.port)).map_err(|error| {
        Ending::Invalid(format!(
            "cannot serve on {}:{}: {error}",
            args.bind, args.port
        ))
    })?;
    let address = listener
        .local_addr()
        .map_err(|error| Ending::Error(error.into()))?;
    let token = (!args.bind.is_loopback()).then(new_token);
    let host = if args.bind.is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        address.ip().to_string()
    };
    let base = format!("http://{host}:{}", address.port());
    let mut lines = match &token {
        Some(token) => format!(
            "desk: {base}/?token={token}\nscreen: {base}/screen\ntoken: {token} (needed for every change)\n"
        ),
        None => format!("desk: {base}/\nscreen: {base}/screen\n"),
    };
    lines.push_str(&format!("record: {}\n", record.display()));
    let options = DeskOptions {
        record: Some(record),
        token,
        advise: args.advise.as_deref().and_then(Team::from_letter),
        level: args.level,
    };
    Ok((session, options, listener, lines))
}

/// A token no one guesses: 128 bits from the system's random source.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut file| file.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the clock and the process, hashed.
        let seed = format!("{:?} {}", std::time::SystemTime::now(), std::process::id());
        let digest = <sha2::Sha256 as sha2::Digest>::digest(seed.as_bytes());
        bytes.copy_from_slice(&digest[..16]);
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}
