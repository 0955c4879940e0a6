//! A match's I/O log: every line the referee sends a program and every
//! line the program writes back, as they pass, with the time since the
//! match began, so that an author can see where a program crashed, what
//! it was told, and how long each answer took (cutechess-cli's `-debug`,
//! fastchess's `-log`). One file per match, shared by both teams' programs,
//! written a line at a time as the match goes (not at its end), so that a
//! match that hangs or a run that is killed still leaves what happened.
//!
//! ```text
//!      0.012 A > katazuke 1
//!      0.013 A > go 20000 36000
//!      0.161 A < clear b1:1 c2:1
//!      0.161 B > played 1 2500 clear b1:1 c2:1
//! ```
//!
//! `>` is a line sent to the program, `<` a line it wrote, `!` what the
//! referee did to it (started, stopped) or found (its output closed, a
//! line that is no answer).

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::model::team::Team;

/// A match's I/O log, shared by the programs that write to it.
#[derive(Clone)]
pub struct IoLog {
    file: Arc<Mutex<File>>,
    began: Instant,
}

impl IoLog {
    /// A new log at `path`, replacing any there (a match played again
    /// after a run was cut short logs afresh).
    pub fn create(path: &Path) -> io::Result<IoLog> {
        Ok(IoLog {
            file: Arc::new(Mutex::new(File::create(path)?)),
            began: Instant::now(),
        })
    }

    /// The part of the log for `team`'s program.
    pub fn for_team(&self, team: Team) -> TeamLog {
        TeamLog {
            log: self.clone(),
            team,
        }
    }

    fn write<'l>(&self, team: Team, direction: char, lines: impl Iterator<Item = &'l str>) {
        // A log that cannot be written is no reason to stop a match: its
        // folder was checked before the first one.
        if let Ok(mut file) = self.file.lock() {
            // Timed under the lock, so that the times of lines written
            // from two threads rise down the file.
            let seconds = self.began.elapsed().as_secs_f64();
            let lines: String = lines
                .map(|line| format!("{seconds:10.3} {team} {direction} {line}\n"))
                .collect();
            let _ = file.write_all(lines.as_bytes());
        }
    }
}

/// One team's program's lines in a match's [`IoLog`].
#[derive(Clone)]
pub struct TeamLog {
    log: IoLog,
    team: Team,
}

impl TeamLog {
    /// Lines sent to the program.
    pub fn sent(&self, text: &str) {
        self.log.write(self.team, '>', text.lines());
    }

    /// A line the program wrote.
    pub fn received(&self, line: &str) {
        self.log.write(self.team, '<', std::iter::once(line));
    }

    /// What the referee did to the program, or found.
    pub fn note(&self, what: &str) {
        self.log.write(self.team, '!', std::iter::once(what));
    }
}
