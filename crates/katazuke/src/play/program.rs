//! An external program as a player: a command line run by `sh -c`, spoken
//! to over the line protocol ([`super::protocol`]) on its standard input
//! and output. Its output is read on a thread of its own, so that the
//! referee can wait for an answer with a limit and stop a program that
//! overruns. A program that ends, closes its output or is stopped is
//! started afresh for the next game; until then it gives no answer.
//!
//! **Which line is an answer.** Before each `go` the referee writes
//! `isready`. From its first `readyok` on, a program marks its answers:
//! the line right after its Nth `readyok` is its answer to the Nth `go`
//! (they are counted, so a mark that arrives late is still matched to its
//! `go`), and every other line is ignored. The answers taken then depend
//! only on what the program writes, never on when its lines arrive, so a
//! virtual-clock match is the same on every run whatever else the program
//! writes. Until then, and all along for a program that never says
//! `readyok` (one written to the protocol before the marker), it is read
//! as it always was: the lines that arrived before its `go` was sent are
//! dropped (and counted, for its user to be told), and the first one after
//! it is the answer, which a line written out of turn can be if it arrives
//! late.
//!
//! **Bounded.** A line is read up to [`MAX_ANSWER_BYTES`]; a longer one is
//! no answer whatever it begins with, and its rest is dropped as it
//! arrives, so that a program writing without end (`cat /dev/zero`) costs
//! no memory.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::io_log::TeamLog;
use super::player::{Answer, Go, Player, Silence};
use super::process_group::{self, Group};
use super::protocol::{go_line, message_lines, Message, IS_READY, READY_OK};
use crate::model::team::Team;
use edge::{BadLine, BoundedLines, LineError};

/// The longest answer line taken: 64 KiB, far more than any turn's steps.
/// A longer line is no answer, whatever it begins with.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Lines a program may have written ahead that are kept; beyond them it
/// waits (its pipe fills), so a program that floods its output costs no
/// memory.
const OUTPUT_LINES: usize = 64;

/// Lines written out of turn that are dropped before a `go`, at most, from
/// a program that does not mark its answers: one writing without end is
/// then read as it answers.
const MAX_DROPPED: usize = 4 * OUTPUT_LINES;

/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The process groups of the programs running now, for
/// [`stop_every_program`].
static RUNNING_GROUPS: Mutex<Vec<Group>> = Mutex::new(Vec::new());

/// Kills every player program still running, with whatever it started. A
/// program runs in a process group of its own, which a terminal's Ctrl-C
/// does not reach: a command ended by a signal calls this first.
pub fn stop_every_program() {
    if let Ok(mut groups) = RUNNING_GROUPS.lock() {
        for group in groups.drain(..) {
            process_group::kill(group);
        }
    }
}

/// What the reading thread hands on, in the order the program wrote it.
enum Output {
    /// A line, without its line break.
    Line(String),
    /// A line that is no answer whatever it says, and why: too long, not
    /// UTF-8 text, or begun with a byte-order mark.
    Unreadable(String),
    /// The program's output closed.
    End,
}

/// True for the line that marks an answer: the next line is one.
fn is_mark(output: &Output) -> bool {
    matches!(output, Output::Line(line) if line.trim() == READY_OK)
}

struct Running {
    child: Child,
    group: Group,
    /// Text for the program, written on a thread of its own: a program
    /// that stops reading blocks that thread, never the referee.
    input: Option<Sender<String>>,
    output: Receiver<Output>,
    /// `isready` lines sent, one before each `go`.
    asked: u64,
    /// `readyok` lines read. From the first on, the program marks its
    /// answers: the line right after the Nth is its answer to the Nth `go`.
    marks: u64,
}

impl Running {
    fn send(&self, text: &str) {
        if let Some(input) = &self.input {
            // A program whose writing thread ended stopped reading: its
            // next answer finds out why.
            let _ = input.send(text.to_string());
        }
    }

    fn marks_answers(&self) -> bool {
        self.marks > 0
    }

    /// The next output, waiting until `deadline` (forever for none); `None`
    /// once it has passed.
    fn next_output(&mut self, deadline: Option<Instant>) -> Option<Output> {
        let received = match deadline {
            Some(deadline) => self
                .output
                .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => self
                .output
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(output) => Some(output),
            // The reading thread ends only once the output has closed (and
            // said so, the first time).
            Err(RecvTimeoutError::Disconnected) => Some(Output::End),
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    /// Before a `go` to a program that has not marked an answer yet: drops
    /// the lines it wrote since its last answer, out of turn, up to a
    /// `readyok` (an answer to an earlier `isready`: it marks its answers
    /// from now on) or its end. Returns how many it dropped.
    fn drop_unmarked_lines(&mut self) -> u64 {
        let mut dropped = 0;
        if self.marks_answers() {
            return dropped;
        }
        for _ in 0..MAX_DROPPED {
            match self.output.try_recv() {
                Ok(output) if is_mark(&output) => {
                    self.marks += 1;
                    break;
                }
                // Its end is found again by the answer.
                Ok(Output::End) | Err(_) => break,
                Ok(_) => dropped += 1,
            }
        }
        dropped
    }

    /// The program's answer to the `go` just sent, by `deadline`: `None`
    /// if none came by then.
    fn answer_by(&mut self, deadline: Option<Instant>) -> Option<Output> {
        loop {
            if self.marks_answers() && self.marks == self.asked {
                return self.next_output(deadline);
            }
            let output = self.next_output(deadline)?;
            if is_mark(&output) {
                self.marks += 1;
            } else if matches!(output, Output::End) || !self.marks_answers() {
                return Some(output);
            }
            // Otherwise written out of turn: ignored.
        }
    }
}

/// Reads the program's output a line at a time into `outputs`, each line
/// at most [`MAX_ANSWER_BYTES`] kept, until it closes; logs each as it
/// arrives.
fn read_output(stdout: ChildStdout, outputs: SyncSender<Output>, log: Option<TeamLog>) {
    let too_long = || {
        Output::Unreadable(format!(
            "the line is longer than {} KiB ({MAX_ANSWER_BYTES} bytes), the most an answer may hold",
            MAX_ANSWER_BYTES >> 10
        ))
    };
    // Only the first line of a `BoundedLines` is checked for one: every
    // line is, here.
    let byte_order_mark = || {
        Output::Unreadable("the line begins with a UTF-8 byte-order mark (bytes EF BB BF)".into())
    };
    let mut reader = BufReader::new(stdout);
    loop {
        // `BoundedLines` stops at a line past its limit; a fresh one takes
        // up after the rest of that line is skipped.
        let mut past_limit = false;
        for item in BoundedLines::new(&mut reader) {
            let output = match item {
                Ok((_, line)) if line.len() > MAX_ANSWER_BYTES => too_long(),
                Ok((_, line)) if line.starts_with('\u{FEFF}') => byte_order_mark(),
                Ok((_, line)) => Output::Line(line),
                Err(LineError {
                    problem: BadLine::TooLong,
                    ..
                }) => {
                    past_limit = true;
                    too_long()
                }
                Err(LineError {
                    problem: BadLine::Unreadable(_),
                    ..
                }) => break,
                Err(LineError {
                    problem: BadLine::ByteOrderMark,
                    ..
                }) => byte_order_mark(),
                Err(error) => Output::Unreadable(error.problem.to_string()),
            };
            if let Some(log) = &log {
                match &output {
                    Output::Line(line) => log.received(line),
                    Output::Unreadable(why) => {
                        log.note(&format!("a line that is no answer: {why}"))
                    }
                    Output::End => {}
                }
            }
            if outputs.send(output).is_err() {
                return;
            }
        }
        if !(past_limit && skip_rest_of_line(&mut reader)) {
            break;
        }
    }
    if let Some(log) = &log {
        log.note("its output closed");
    }
    let _ = outputs.send(Output::End);
}

/// Reads and drops the rest of a line, a buffer at a time, keeping none of
/// it: false if the output ends (or fails) first.
fn skip_rest_of_line(reader: &mut impl BufRead) -> bool {
    loop {
        let (used, ends_line) = match reader.fill_buf() {
            Ok([]) => return false,
            Ok(buffer) => match buffer.iter().position(|&byte| byte == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            },
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        reader.consume(used);
        if ends_line {
            return true;
        }
    }
}

/// A program playing one team of a match.
pub struct Program {
    command: String,
    team: Team,
    running: Option<Running>,
    /// Why the program gives no answers until the next game.
    gone: Option<String>,
    /// Lines it wrote out of turn while not marking its answers, dropped.
    dropped: u64,
    /// Where its lines are logged, if anywhere.
    log: Option<TeamLog>,
}

impl Program {
    /// The program `command` (a shell command line); it is started when
    /// the match begins.
    pub fn new(command: &str) -> Program {
        Program {
            command: command.to_string(),
            team: Team::A,
            running: None,
            gone: None,
            dropped: 0,
            log: None,
        }
    }

    /// The program `command`, every line to and from it written to `log`.
    pub fn logged(command: &str, log: TeamLog) -> Program {
        let mut program = Program::new(command);
        program.log = Some(log);
        program
    }

    fn note(&self, what: &str) {
        if let Some(log) = &self.log {
            log.note(what);
        }
    }

    fn start(&mut self) {
        self.stop();
        self.gone = None;
        // Held from before the program starts until its group is listed:
        // a signal that comes in between waits for the list, and then
        // stops this program too instead of missing it.
        let mut groups = RUNNING_GROUPS.lock();
        // A process group of its own, so that the program is stopped with
        // whatever it started.
        let spawned = process_group::shell_command(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                self.gone = Some(format!("could not be started: {error}"));
                self.note(&format!("could not be started: {error}"));
                return;
            }
        };
        self.note(&format!("started: {}", self.command));
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            self.gone = Some("could not be started: no pipes".into());
            return;
        };
        let group = process_group::group_of(&child);
        if let Ok(groups) = &mut groups {
            groups.push(group);
        }
        drop(groups);
        let (input, texts) = mpsc::channel::<String>();
        let log = self.log.clone();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for text in texts {
                if stdin
                    .write_all(text.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    // It stopped reading: its next answer finds out why.
                    if let Some(log) = &log {
                        log.note("stopped reading its input");
                    }
                    return;
                }
                if let Some(log) = &log {
                    log.sent(&text);
                }
            }
        });
        let (outputs, output) = mpsc::sync_channel(OUTPUT_LINES);
        let log = self.log.clone();
        std::thread::spawn(move || read_output(stdout, outputs, log));
        self.running = Some(Running {
            child,
            group,
            input: Some(input),
            output,
            asked: 0,
            marks: 0,
        });
    }

    /// Kills the program, if it runs, with its process group, and waits
    /// for it.
    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            drop(running.input.take());
            process_group::kill(running.group);
            let _ = running.child.kill();
            let _ = running.child.wait();
            if let Ok(mut groups) = RUNNING_GROUPS.lock() {
                groups.retain(|&group| group != running.group);
            }
        }
    }

    /// The program is gone for the rest of the game, for `why`.
    fn lose(&mut self, why: String) {
        self.note(&format!("stopped: it {why}"));
        self.stop();
        self.gone = Some(why);
    }

    fn send(&self, text: &str) {
        if let Some(running) = &self.running {
            running.send(text);
        }
    }

    /// Why the program ended, once it has.
    fn ending(&mut self) -> String {
        let Some(running) = &mut self.running else {
            return "is not running".into();
        };
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match running.child.try_wait() {
                Ok(Some(status)) => return format!("ended ({status}) without answering"),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return "closed its output without answering".into(),
            }
        }
    }
}

impl Player for Program {
    fn label(&self) -> String {
        self.command.clone()
    }

    fn dropped_lines(&self) -> u64 {
        self.dropped
    }

    fn tell(&mut self, message: &Message<'_>) {
        match message {
            Message::Match { you } => {
                self.team = *you;
                self.start();
            }
            Message::Game { .. } if self.running.is_none() || self.gone.is_some() => {
                // Gone in the game before: a fresh start for this one.
                self.start();
                self.send(&message_lines(&Message::Match { you: self.team }));
            }
            _ => {}
        }
        self.send(&message_lines(message));
        if let Message::Quit = message {
            if let Some(running) = &mut self.running {
                // Its input ends once what is queued is written.
                drop(running.input.take());
                let deadline = Instant::now() + QUIT_GRACE;
                while Instant::now() < deadline {
                    if let Ok(Some(_)) = running.child.try_wait() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            self.stop();
        }
    }

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        if let Some(why) = &self.gone {
            return Answer::Silent(Silence::Crashed(format!("the program {why}")));
        }
        let Some(running) = &mut self.running else {
            return Answer::Silent(Silence::Crashed("the program is not running".into()));
        };
        self.dropped += running.drop_unmarked_lines();
        let state = go.state;
        running.send(&format!(
            "{IS_READY}\n{}",
            go_line(state.team_left[state.to_move], state.game_left)
        ));
        running.asked += 1;
        // No deadline past the end of time: wait as long as it takes.
        let deadline = Instant::now().checked_add(go.limit);
        match running.answer_by(deadline) {
            Some(Output::Line(line)) => Answer::Line(line),
            Some(Output::Unreadable(why)) => Answer::Unreadable(why),
            Some(Output::End) => {
                let why = self.ending();
                self.lose(why.clone());
                Answer::Silent(Silence::Crashed(format!("the program {why}")))
            }
            None => {
                self.lose("was stopped after overrunning".into());
                Answer::Silent(Silence::Overran)
            }
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
}
