//! An external program as a player: a command line run by `sh -c`, spoken
//! to over the line protocol ([`super::protocol`]) on its standard input
//! and output. Its answers are read on a thread of their own, so that the
//! referee can wait for one with a limit and stop a program that overruns.
//! A program that ends, closes its output or is stopped is started afresh
//! for the next game; until then it gives no answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::player::{Answer, Go, Player, Silence};
use super::protocol::{go_line, message_lines, Message};
use crate::katazuke::model::team::Team;

/// The longest answer line read; the rest of a longer one is dropped.
const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// Lines a program may have written ahead that are kept; beyond them it
/// waits (its pipe fills), so a program that floods its output costs no
/// memory.
const OUTPUT_LINES: usize = 64;

/// Lines written out of turn that are dropped before a `go`, at most: a
/// program writing without end is then read as it answers.
const MAX_DROPPED: usize = 4 * OUTPUT_LINES;

/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The process groups of the programs running now, for
/// [`stop_every_program`].
static RUNNING_GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Kills every player program still running, with whatever it started. A
/// program runs in a process group of its own, which a terminal's Ctrl-C
/// does not reach: a command ended by a signal calls this first.
pub fn stop_every_program() {
    if let Ok(mut groups) = RUNNING_GROUPS.lock() {
        for group in groups.drain(..) {
            kill_group(group);
        }
    }
}

fn kill_group(group: libc::pid_t) {
    if group <= 0 {
        // Not a child's group: 0 would be our own.
        return;
    }
    // SAFETY: killpg only sends a signal, to a group that one of our
    // children leads and that is not yet waited for (so not reused).
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

/// What the reading thread hands on.
enum Output {
    Line(String),
    /// The program's output closed.
    End,
}

struct Running {
    child: Child,
    group: libc::pid_t,
    /// Text for the program, written on a thread of its own: a program
    /// that stops reading blocks that thread, never the referee.
    input: Option<Sender<String>>,
    output: Receiver<Output>,
}

/// A program playing one team of a match.
pub struct Program {
    command: String,
    team: Team,
    running: Option<Running>,
    /// Why the program gives no answers until the next game.
    gone: Option<String>,
}

/// The line `sh -c` runs: a simple command replaces the shell (`exec`),
/// so that a program that closes its output is seen to. Several commands
/// (`cd bot && ./run`) or an assignment first (`SEED=1 ./bot`) cannot, and
/// run under the shell.
fn shell_line(command: &str) -> String {
    let several = command.contains([';', '&', '|', '\n', '(', ')', '{', '}']);
    let assigns = command
        .split_whitespace()
        .next()
        .is_some_and(|word| word.contains('='));
    if several || assigns {
        command.to_string()
    } else {
        format!("exec {command}")
    }
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
        }
    }

    fn start(&mut self) {
        self.stop();
        self.gone = None;
        // A process group of its own, so that the program is stopped with
        // whatever it started.
        let spawned = Command::new("sh")
            .arg("-c")
            .arg(shell_line(&self.command))
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                self.gone = Some(format!("could not be started: {error}"));
                return;
            }
        };
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            self.gone = Some("could not be started: no pipes".into());
            return;
        };
        let group = libc::pid_t::try_from(child.id()).unwrap_or(0);
        if let Ok(mut groups) = RUNNING_GROUPS.lock() {
            groups.push(group);
        }
        let (input, texts) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for text in texts {
                if stdin
                    .write_all(text.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    // It stopped reading: its next answer finds out why.
                    return;
                }
            }
        });
        let (sender, output) = mpsc::sync_channel(OUTPUT_LINES);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader)
                    .take(MAX_ANSWER_BYTES)
                    .read_until(b'\n', &mut line)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if line.last() != Some(&b'\n') {
                            // Too long: skip to the end of the line.
                            let mut rest = Vec::new();
                            if reader.read_until(b'\n', &mut rest).unwrap_or(0) == 0 {
                                break;
                            }
                        }
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if sender.send(Output::Line(text)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = sender.send(Output::End);
        });
        self.running = Some(Running {
            child,
            group,
            input: Some(input),
            output,
        });
    }

    /// Kills the program, if it runs, with its process group, and waits
    /// for it.
    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            drop(running.input.take());
            kill_group(running.group);
            let _ = running.child.kill();
            let _ = running.child.wait();
            if let Ok(mut groups) = RUNNING_GROUPS.lock() {
                groups.retain(|&group| group != running.group);
            }
        }
    }

    /// The program is gone for the rest of the game, for `why`.
    fn lose(&mut self, why: String) {
        self.stop();
        self.gone = Some(why);
    }

    fn send(&mut self, text: &str) {
        if let Some(input) = self
            .running
            .as_ref()
            .and_then(|running| running.input.as_ref())
        {
            // A program whose writing thread ended stopped reading: its
            // next answer finds out why.
            let _ = input.send(text.to_string());
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
        let Some(running) = &self.running else {
            return Answer::Silent(Silence::Crashed("the program is not running".into()));
        };
        // Lines written out of turn are not answers.
        let mut closed = false;
        for _ in 0..MAX_DROPPED {
            match running.output.try_recv() {
                Ok(output) => closed |= matches!(output, Output::End),
                Err(_) => break,
            }
        }
        if !closed {
            let state = go.state;
            self.send(&go_line(state.team_left[state.to_move], state.game_left));
        }
        let Some(running) = &self.running else {
            return Answer::Silent(Silence::Crashed("the program is not running".into()));
        };
        let received = if closed {
            Ok(Output::End)
        } else {
            running.output.recv_timeout(go.limit)
        };
        match received {
            Ok(Output::Line(line)) => Answer::Line(line),
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                let why = self.ending();
                self.lose(why.clone());
                Answer::Silent(Silence::Crashed(format!("the program {why}")))
            }
            Err(RecvTimeoutError::Timeout) => {
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
