//! The commands that print text: `check`, `events`, `fmt` and `ascii`.

use std::io::{self, BufWriter, Write};

use anyhow::Context;

use edge::{print as print_out, say, write_file, Ending};
use katazuke::{
    board, read_into, report_text, write_canonical, CanonicalError, CheckJson, Diagnostic, Entry,
    Frame, FrameFold, FrameKind, Handlers, Policy, Results, Severity, TEMPORARY_PREFIX,
};

use crate::args::{AsciiArgs, CheckArgs, EventsArgs, FmtArgs};
use crate::input::{ending_of, game_turn, read_source, referee, Source};

fn print(text: &str) -> Ending {
    match print_out(text) {
        Ok(()) => Ending::Success,
        Err(error) => Ending::Error(error),
    }
}

pub fn check(args: &CheckArgs) -> Ending {
    let source = match read_source(&args.source.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let policy = args.source.illegal.policy();
    if args.json {
        return check_json(&source, policy);
    }
    let mut results = Results::default();
    let tally = referee(&source, policy, |entry| results.apply(entry));
    let mut text = report_text(&results);
    if tally.error.is_some() {
        // The standings up to the turn before the problem (§10.5), from a
        // second reading: a valid log, the rule, needs none, and nothing
        // of the match is kept on the way.
        let mut frames = FrameFold::default();
        let mut last = None;
        read_into(
            &source.bytes,
            policy,
            &mut Handlers {
                entries: |entry: &Entry| {
                    if let Some(frame) = frames.push(entry.clone()) {
                        last = Some(frame);
                    }
                },
                diagnostics: |_: &Diagnostic| {},
            },
        );
        if let Some(frame) = last {
            text += &format!(
                "\nstandings before the problem: game {}, after turn {}\n{}",
                frame.state.game,
                frame.state.turns,
                board(&frame.state)
            );
        }
    }
    match print(&text) {
        Ending::Success => ending_of(&tally),
        failed => failed,
    }
}

/// `check --json`: the one object of §14.1 on standard output, nothing on
/// standard error. Its lists of illegal turns and warnings are each written
/// from a reading of their own, when they have entries, so that a log of
/// millions of them is never held in memory.
fn check_json(source: &Source, policy: Policy) -> Ending {
    let mut results = Results::default();
    let tally = read_into(
        &source.bytes,
        policy,
        &mut Handlers {
            entries: |entry: &Entry| results.apply(entry),
            diagnostics: |_: &Diagnostic| {},
        },
    );
    let mut out = BufWriter::new(io::stdout().lock());
    let (mut json, head) = CheckJson::head(&results, tally.error.is_none());
    let mut written = out.write_all(head.as_bytes());
    if tally.illegal > 0 {
        written = written.and_then(|()| write_entries(source, policy, false, &mut json, &mut out));
    }
    written = written.and_then(|()| out.write_all(json.between().as_bytes()));
    if tally.warnings > 0 {
        written = written.and_then(|()| write_entries(source, policy, true, &mut json, &mut out));
    }
    let written = written
        .and_then(|()| writeln!(out, "{}", CheckJson::tail(tally.error.as_ref())))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ending_of(&tally),
        Err(error) => {
            Ending::Error(anyhow::Error::new(error).context("cannot write to standard output"))
        }
    }
}

/// One list of `check --json` (the warnings, or the illegal turns), from a
/// reading of its own.
fn write_entries(
    source: &Source,
    policy: Policy,
    warnings: bool,
    json: &mut CheckJson,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut written = Ok(());
    read_into(
        &source.bytes,
        policy,
        &mut Handlers {
            entries: |_: &Entry| {},
            diagnostics: |diagnostic: &Diagnostic| {
                let is_warning = diagnostic.code.severity() == Severity::Warning;
                if written.is_ok() && is_warning == warnings {
                    let entry = if warnings {
                        json.warning(diagnostic)
                    } else {
                        json.illegal(diagnostic)
                    };
                    written = out.write_all(entry.as_bytes());
                }
            },
        },
    );
    written
}

pub fn events(args: &EventsArgs) -> Ending {
    let source = match read_source(&args.source.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = Ok(());
    let tally = referee(&source, args.source.illegal.policy(), |entry| {
        if written.is_ok() {
            written = writeln!(out, "{}", entry.to_json());
        }
    });
    if let Err(error) = written.and_then(|()| out.flush()) {
        return Ending::Error(anyhow::Error::new(error).context("cannot write to standard output"));
    }
    ending_of(&tally)
}

pub fn fmt(args: &FmtArgs) -> Ending {
    let source = match read_source(&args.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let to_standard_output = args
        .output
        .as_deref()
        .is_none_or(|path| path.as_os_str() == "-");
    // A malformed log is found before a line is written, so nothing is.
    let mut malformed = None;
    let mut rewrite = |out: &mut dyn Write| -> anyhow::Result<()> {
        let mut buffered = BufWriter::new(out);
        match write_canonical(&source.bytes, &mut buffered) {
            Ok(()) => Ok(buffered.flush()?),
            Err(CanonicalError::Malformed(error)) => {
                let refused = anyhow::anyhow!("{}", error.message);
                malformed = Some(error);
                Err(refused)
            }
            Err(CanonicalError::Write(error)) => Err(error.into()),
        }
    };
    let written = match &args.output {
        Some(path) if !to_standard_output => {
            write_file(path, TEMPORARY_PREFIX, |out| rewrite(out)).map(|_| ())
        }
        _ => rewrite(&mut io::stdout().lock()).context("cannot write to standard output"),
    };
    if let Some(error) = malformed {
        say(&error.line_for(&source.label));
        return Ending::Status(error.code.exit_status());
    }
    match written {
        Ok(()) => Ending::Success,
        Err(error) => Ending::Error(error),
    }
}

fn header(frame: &Frame) -> String {
    let game = frame.state.game;
    match &frame.kind {
        FrameKind::Start => format!("# game {game}, start"),
        FrameKind::Turn(turn) => {
            format!("# game {game}, after turn {} ({})", turn.number, turn.team)
        }
        FrameKind::End(end, _) => format!("# game {game}, end ({end})"),
        FrameKind::Summary(_) => format!("# game {game}, end of the match"),
    }
}

pub fn ascii(args: &AsciiArgs) -> Ending {
    let source = match read_source(&args.source.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let wanted = match args
        .turn
        .as_deref()
        .map(|text| game_turn("--turn", text))
        .transpose()
    {
        Ok(wanted) => wanted,
        Err(ending) => return ending,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = Ok(());
    let mut frames = FrameFold::default();
    let mut found = false;
    let tally = referee(&source, args.source.illegal.policy(), |entry| {
        let Some(frame) = frames.push(entry.clone()) else {
            return;
        };
        let show = match (&frame.kind, wanted) {
            (FrameKind::Summary(_), _) => false,
            (_, Some((game, turn))) => {
                let at_turn = match &frame.kind {
                    FrameKind::Start => turn == 0,
                    FrameKind::Turn(summary) => summary.number == turn,
                    _ => false,
                };
                frame.state.game == game && at_turn
            }
            (FrameKind::End(..), None) => true,
            (_, None) => args.every,
        };
        if show && written.is_ok() {
            let gap = if found { "\n" } else { "" };
            found = true;
            written = write!(out, "{gap}{}\n{}", header(&frame), board(&frame.state));
        }
    });
    if let Err(error) = written.and_then(|()| out.flush()) {
        return Ending::Error(anyhow::Error::new(error).context("cannot write to standard output"));
    }
    if let (Some((game, turn)), false) = (wanted, found) {
        let ending = ending_of(&tally);
        if !matches!(ending, Ending::Success) {
            return ending;
        }
        return Ending::Invalid(format!("game {game} has no turn {turn}"));
    }
    ending_of(&tally)
}
