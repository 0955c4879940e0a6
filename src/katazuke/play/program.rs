//! An external program as a player: a command line run by `sh -c`, spoken
//! to over the line protocol ([`super::protocol`]) on its standard input
//! and output. Its answers are read on a thread of their own, so that the
//! referee can wait for one with a limit and stop a program that overruns.
//! A program that ends, closes its output or is stopped is started afresh
//! for the next game; until then it gives no answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::player::{Answer, Go, Player, Silence};
use super::protocol::{go_line, message_lines, Message};
use crate::katazuke::model::team::Team;

/// The longest answer line read; the rest of a longer one is dropped.
const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// How long a program may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// What the reading thread hands on.
enum Output {
    Line(String),
    /// The program's output closed.
    End,
}

struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
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
        // A simple command replaces the shell (`exec`), so that a program
        // that closes its output is seen to; one of several commands
        // (`cd bot && ./run`) cannot, and runs under the shell. Either way
        // the program has its own process group, stopped as a whole.
        let compound = self
            .command
            .contains([';', '&', '|', '\n', '(', ')', '{', '}']);
        let line = if compound {
            self.command.clone()
        } else {
            format!("exec {}", self.command)
        };
        let spawned = Command::new("sh")
            .arg("-c")
            .arg(line)
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
        let (sender, output) = mpsc::channel();
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
            stdin: Some(stdin),
            output,
        });
    }

    /// Kills the program, if it runs, and waits for it.
    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            drop(running.stdin.take());
            if let Ok(group) = libc::pid_t::try_from(running.child.id()) {
                // SAFETY: killpg only sends a signal; the group is the one
                // this child leads (process_group(0) above), which stays
                // ours until the child is waited for below.
                unsafe {
                    libc::killpg(group, libc::SIGKILL);
                }
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }

    /// The program is gone for the rest of the game, for `why`.
    fn lose(&mut self, why: String) {
        self.stop();
        self.gone = Some(why);
    }

    fn send(&mut self, text: &str) {
        let Some(running) = &mut self.running else {
            return;
        };
        let written = match &mut running.stdin {
            Some(stdin) => stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush()),
            None => Ok(()),
        };
        if written.is_err() {
            // The program stopped reading: it is told nothing more, and its
            // next answer finds out why.
            running.stdin = None;
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
                drop(running.stdin.take());
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
        while let Ok(output) = running.output.try_recv() {
            closed |= matches!(output, Output::End);
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
