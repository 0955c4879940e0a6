//! How a player program is started and stopped with whatever it started.
//!
//! On Unix a program runs under `sh -c` in a process group of its own,
//! which a terminal's Ctrl-C does not reach and which is killed as one
//! (`killpg`): a shell's children and a bot's workers stop with it. Std
//! has no process groups, hence `libc`. Elsewhere the command runs under
//! `cmd /C` and the program alone is stopped (its [`Child`]), which is all
//! that platform's std offers.

use std::process::{Child, Command};

/// A program's process group, as the operating system numbers it.
#[cfg(unix)]
pub type Group = libc::pid_t;
/// A program's process group: without process groups, the program itself.
#[cfg(not(unix))]
pub type Group = u32;

/// The command line `line` run by the system's shell, in a process group
/// of its own.
#[cfg(unix)]
pub fn shell_command(line: &str) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("sh");
    command.arg("-c").arg(shell_line(line)).process_group(0);
    command
}

/// The command line `line` run by the system's shell.
#[cfg(not(unix))]
pub fn shell_command(line: &str) -> Command {
    let mut command = Command::new("cmd");
    command.arg("/C").arg(line);
    command
}

/// The line `sh -c` runs: a simple command replaces the shell (`exec`),
/// so that a program that closes its output is seen to. Several commands
/// (`cd bot && ./run`) or an assignment first (`SEED=1 ./bot`) cannot, and
/// run under the shell.
#[cfg(unix)]
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

/// The group that `child`, started by [`shell_command`], leads.
pub fn group_of(child: &Child) -> Group {
    #[cfg(unix)]
    return libc::pid_t::try_from(child.id()).unwrap_or(0);
    #[cfg(not(unix))]
    return child.id();
}

/// Kills every process of `group` (on Unix; elsewhere the caller's
/// [`Child::kill`] stops the program).
pub fn kill(group: Group) {
    #[cfg(unix)]
    {
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
    #[cfg(not(unix))]
    let _ = group;
}
