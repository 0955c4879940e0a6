//! The commands that print text: `check`, `events`, `fmt` and `ascii`.

use std::io::{self, BufWriter, Write};

use shubbles::cli::{print as print_out, say, write_file, Ending};
use shubbles::katazuke::formats::ascii::board;
use shubbles::katazuke::formats::report::{check_json, report_text, Results};
use shubbles::katazuke::log::format::format;
use shubbles::katazuke::rules::frames::{Frame, FrameKind, Frames};
use shubbles::katazuke::TEMPORARY_PREFIX;

use crate::args::{AsciiArgs, CheckArgs, EventsArgs, FmtArgs};
use crate::input::{ending_of, game_turn, print_diagnostics, read_source, referee};

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
    let refereed = referee(&source, args.source.illegal.policy());
    let mut results = Results::default();
    for record in &refereed.records {
        results.apply(record);
    }
    let verdict = &refereed.verdict;
    let text = if args.json {
        check_json(&results, verdict) + "\n"
    } else {
        print_diagnostics(&source, verdict);
        let mut text = report_text(&results);
        if verdict.error.is_some() {
            // The standings up to the turn before the problem (§10.5).
            if let Some(frame) = Frames::new(refereed.records.iter().cloned()).last() {
                text += &format!(
                    "\nstandings before the problem: game {}, after turn {}\n{}",
                    frame.state.game,
                    frame.state.turns,
                    board(&frame.state)
                );
            }
        }
        text
    };
    match print(&text) {
        Ending::Success => ending_of(verdict),
        failed => failed,
    }
}

pub fn events(args: &EventsArgs) -> Ending {
    let source = match read_source(&args.source.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let refereed = referee(&source, args.source.illegal.policy());
    let mut out = BufWriter::new(io::stdout().lock());
    let written = refereed
        .records
        .iter()
        .try_for_each(|record| writeln!(out, "{}", record.to_json()))
        .and_then(|()| out.flush());
    if let Err(error) = written {
        return Ending::Error(anyhow::Error::new(error).context("cannot write to standard output"));
    }
    print_diagnostics(&source, &refereed.verdict);
    ending_of(&refereed.verdict)
}

pub fn fmt(args: &FmtArgs) -> Ending {
    let source = match read_source(&args.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let formatted = match format(&source.bytes) {
        Ok(formatted) => formatted,
        Err(error) => {
            say(&error.line_for(&source.label));
            return Ending::Status(error.code.exit_status());
        }
    };
    match &args.output {
        None => print(&formatted),
        Some(path) if path.as_os_str() == "-" => print(&formatted),
        Some(path) => match write_file(path, TEMPORARY_PREFIX, |out| {
            Ok(out.write_all(formatted.as_bytes())?)
        }) {
            Ok(_) => Ending::Success,
            Err(error) => Ending::Error(error),
        },
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
    let refereed = referee(&source, args.source.illegal.policy());
    print_diagnostics(&source, &refereed.verdict);
    let frames = Frames::new(refereed.records.iter().cloned());
    let mut text = String::new();
    let mut found = false;
    for frame in frames {
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
        if show {
            found = true;
            if !text.is_empty() {
                text.push('\n');
            }
            text += &header(&frame);
            text.push('\n');
            text += &board(&frame.state);
        }
    }
    if let (Some((game, turn)), false) = (wanted, found) {
        let ending = ending_of(&refereed.verdict);
        if !matches!(ending, Ending::Success) {
            return ending;
        }
        return Ending::Invalid(format!("game {game} has no turn {turn}"));
    }
    match print(&text) {
        Ending::Success => ending_of(&refereed.verdict),
        failed => failed,
    }
}
