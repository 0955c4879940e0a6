//! The commands that play: `play` (one match, §15.1), `suggest` (the
//! engine's turn in a position, §15.2) and `tournament` (§15.3), with what
//! they share: the setups a match is played from.

use std::path::{Path, PathBuf};
use std::time::Duration;

use edge::{
    check_extension, check_writable, choose_format, is_standard_output, print as print_out, say,
    write_output, Ending, Shard,
};
use katazuke::{
    explain, merge_results, play_match, practice_setup, random_start, read, read_fields,
    read_setup, symmetric_start, write_replay, Clock, ComputerPlayer, CostModel, Engine, FrameFold,
    FrameKind, GameSetup, IoLog, MatchOutcome, MatchRecord, MatchResult, MatchSetup, OnIllegal,
    PerTeam, PlayOptions, PlayerSpec, Policy, Position, ReplayOptions, Seeded, Setup, Sprt,
    SprtStatus, Team, Tournament, TournamentError, TournamentKind, TournamentProgress, CRITERIA,
    TEMPORARY_PREFIX,
};
use reel::AnimationFormat;

use crate::args::{
    ClockArg, FieldsOrder, IllegalAnswer, PlayArgs, PlayingArgs, StartArg, SuggestArgs,
    TournamentArgs, TournamentMergeArgs,
};
use crate::input::{game_turn, read_source, referee_unfinished};

/// The parameters `play` uses when given none: the worked example's
/// (KATAZUKE.md §11.4).
pub const DEFAULT_PARAMS: &str = "\
katazuke 1
capacity: 4
stock: 2
team time: 20
game time: 36
field:
  1 2 1 3 1
  2 1 3 1 2
  1 3 0 2 1
  2 1 2 1 3
  1 2 1 2 1
";

/// How matches are played, from the arguments.
pub fn play_options(args: &PlayingArgs) -> PlayOptions {
    PlayOptions {
        clock: match args.clock {
            ClockArg::Wall => Clock::Wall,
            ClockArg::Virtual => Clock::Virtual,
        },
        think: Duration::from_millis(args.think_ms),
        illegal: match args.illegal {
            IllegalAnswer::Pass => OnIllegal::Pass,
            IllegalAnswer::Out => OnIllegal::Out,
        },
        margin: Duration::from_millis(args.time_margin),
    }
}

/// The parameters file's setup, or the default's.
fn read_params(args: &PlayingArgs) -> Result<Setup, Ending> {
    let (label, bytes) = match &args.params {
        Some(path) => {
            let source = read_source(path)?;
            (source.label, source.bytes)
        }
        None => (
            "the default parameters".to_string(),
            DEFAULT_PARAMS.as_bytes().to_vec(),
        ),
    };
    read_setup(&bytes).map_err(|error| {
        say(&error.line_for(&label));
        Ending::Status(2)
    })
}

/// `count` match setups: the parameters file's (its start cells first, if
/// it gives them; then start cells per --start), or seeded practice fields
/// when there is no file and `practice` is asked for.
pub fn setups(args: &PlayingArgs, count: usize, practice: bool) -> Result<Vec<MatchSetup>, Ending> {
    if practice && args.params.is_none() {
        return Ok((0..count as u64)
            .map(|index| practice_setup(args.seed.wrapping_add(index)))
            .collect());
    }
    let setup = read_params(args)?;
    let label = args
        .params
        .as_deref()
        .map_or("the default parameters".into(), |path| {
            path.display().to_string()
        });
    let mut random = Seeded::new(args.seed);
    let mut starts = |size| match args.start {
        StartArg::Symmetric => GameSetup::swapped_pair(symmetric_start(size)),
        StartArg::Random => GameSetup::swapped_pair(random_start(size, &mut random)),
    };
    // The file's starts, if it gives them, are the first match's.
    let first = MatchSetup::from_setup(&setup, &mut starts)
        .map_err(|problem| Ending::Invalid(format!("{label}: {problem}")))?;
    let size = first.params().field.size();
    let mut setups = vec![first];
    while setups.len() < count {
        let next = setups[0].with_games(starts(size));
        setups.push(next);
    }
    setups.truncate(count);
    Ok(setups)
}

pub fn play(args: &PlayArgs) -> Ending {
    let record_path = args.output.as_deref().unwrap_or(Path::new("-"));
    let outputs = [
        ("-o", Some(record_path), "ktz", "the match record"),
        ("--events", args.events.as_deref(), "jsonl", "the event log"),
    ];
    let outputs: Vec<(&str, &Path, &str, &str)> = outputs
        .into_iter()
        .filter_map(|(option, path, extension, what)| Some((option, path?, extension, what)))
        .collect();
    for &(_, path, extension, what) in &outputs {
        if let Err(message) = check_extension(path, extension, what, &[]) {
            return Ending::Invalid(message);
        }
    }
    // The replay's format is its name's: .gif, .webp, .apng or .png.
    let replay_format = match args
        .gif
        .as_deref()
        .map(|path| choose_format(None, path, &[]))
    {
        Some(Err(message)) => return Ending::Invalid(message),
        Some(Ok(format)) => format,
        None => AnimationFormat::Gif,
    };
    let replay_what = format!("the replay {}", replay_format.title());
    let mut outputs = outputs;
    if let Some(path) = args.gif.as_deref() {
        outputs.push(("--gif", path, replay_format.extensions()[0], &replay_what));
    }
    for (index, &(option, path, ..)) in outputs.iter().enumerate() {
        for &(other_option, other, ..) in &outputs[index + 1..] {
            if same_file(path, other) {
                let place = if is_standard_output(path) {
                    "standard output".to_string()
                } else {
                    path.display().to_string()
                };
                return Ending::Invalid(format!(
                    "{option} and {other_option} both write to {place}: give each output a file of its own"
                ));
            }
        }
    }
    // Before the match, not after it: a match can take minutes.
    for &(_, path, _, what) in &outputs {
        if let Err(message) = check_writable(path, what, TEMPORARY_PREFIX) {
            return Ending::Invalid(message);
        }
    }
    let specs = match (PlayerSpec::parse(&args.a), PlayerSpec::parse(&args.b)) {
        (Ok(a), Ok(b)) => PerTeam { a, b },
        (Err(message), _) => return Ending::Invalid(format!("--A: {message}")),
        (_, Err(message)) => return Ending::Invalid(format!("--B: {message}")),
    };
    if specs.a.is_human() && specs.b.is_human() {
        return Ending::Invalid(
            "--A and --B: at most one player may be human (one terminal)".into(),
        );
    }
    let setup = match setups(&args.playing, 1, false) {
        Ok(mut setups) => setups.remove(0),
        Err(ending) => return ending,
    };
    let options = play_options(&args.playing);
    let seeds = PerTeam {
        a: args.playing.seed,
        b: args.playing.seed.wrapping_add(1),
    };
    let mut players = PerTeam::from_fn(|team| specs[team].create(seeds[team]));
    if let Some(path) = &args.log_io {
        if let Some(&(option, ..)) = outputs.iter().find(|output| same_file(path, output.1)) {
            return Ending::Invalid(format!(
                "--log-io and {option} both write to {}: give each output a file of its own",
                path.display()
            ));
        }
        let log = match IoLog::create(path) {
            Ok(log) => log,
            Err(error) => {
                return Ending::Invalid(format!(
                    "the I/O log {} cannot be written: {error}",
                    path.display()
                ))
            }
        };
        players =
            PerTeam::from_fn(|team| specs[team].create_logged(seeds[team], log.for_team(team)));
    }
    let PerTeam { mut a, mut b } = players;
    let record = match play_match(
        &setup,
        PerTeam {
            a: a.as_mut(),
            b: b.as_mut(),
        },
        &options,
    ) {
        Ok(record) => record,
        Err(violation) => {
            return Ending::Invalid(format!("the start cells are not allowed: {violation}"))
        }
    };
    let dropped = PerTeam {
        a: a.dropped_lines(),
        b: b.dropped_lines(),
    };
    drop((a, b));
    let log = record.to_string();
    // A played match is short (its clocks end it): its events are kept
    // for the event log and the GIF.
    let mut records = Vec::new();
    read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    let written = write_output(record_path, "match record", TEMPORARY_PREFIX, |out| {
        Ok(out.write_all(log.as_bytes())?)
    });
    if let Err(ending) = written {
        return ending;
    }
    if let Some(path) = &args.events {
        let written = write_output(path, "event log", TEMPORARY_PREFIX, |out| {
            for record in &records {
                writeln!(out, "{}", record.to_json())?;
            }
            Ok(())
        });
        if let Err(ending) = written {
            return ending;
        }
    }
    if let Some(path) = &args.gif {
        let options = ReplayOptions {
            format: replay_format,
            ..ReplayOptions::default()
        };
        let written = write_output(path, replay_format.title(), TEMPORARY_PREFIX, |out| {
            write_replay(&records, &options, out)?;
            Ok(())
        });
        if let Err(ending) = written {
            return ending;
        }
    }
    for line in trouble_lines(&record) {
        say(&line);
    }
    for team in Team::BOTH {
        if dropped[team] > 0 {
            say(&format!(
                "katazuke: {team}'s program wrote {} line{} out of turn while not marking its answers with readyok; they were dropped as they came, but such a line that comes late is taken for an answer, so another run may differ",
                dropped[team],
                if dropped[team] == 1 { "" } else { "s" }
            ));
        }
    }
    if !args.quiet {
        let result = records
            .iter()
            .rev()
            .find_map(|record| MatchResult::of(&record.event));
        if let Some(result) = result {
            say(&result_line(&result, &record.names));
        }
    }
    Ending::Success
}

/// True if `a` and `b` name one file, so that one output would replace the
/// other (or mix with it, on standard output): the same path once links
/// are followed, or the same existing file by another name. A device
/// (`/dev/null`) may take both.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let (a, b) = (named(a), named(b));
    let (a_file, b_file) = (std::fs::metadata(a), std::fs::metadata(b));
    let device = |file: &std::fs::Metadata| {
        file.file_type().is_char_device() || file.file_type().is_block_device()
    };
    if a_file.as_ref().is_ok_and(device) {
        return false;
    }
    match (a_file, b_file) {
        (Ok(a_file), Ok(b_file)) => a_file.dev() == b_file.dev() && a_file.ino() == b_file.ino(),
        _ => written_at(a) == written_at(b),
    }
}

/// True if `a` and `b` name one file once links are followed (without
/// Unix's device and inode numbers, another name for one file is not seen).
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    written_at(named(a)) == written_at(named(b))
}

/// The file `path` names: `-` is standard output.
fn named(path: &Path) -> &Path {
    if is_standard_output(path) {
        Path::new("/dev/stdout")
    } else {
        path
    }
}

/// Where an output to `path`, not yet a file, lands: links followed (a
/// write replaces a link's target), in its folder's real path.
fn written_at(path: &Path) -> PathBuf {
    // Linux's own limit on links followed in one lookup.
    const MAX_LINKS: usize = 40;
    let mut path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    for _ in 0..MAX_LINKS {
        let Ok(link) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(folder) => folder.join(link),
            None => link,
        };
    }
    let folder = path
        .parent()
        .and_then(|folder| std::fs::canonicalize(folder).ok());
    match (folder, path.file_name()) {
        (Some(folder), Some(name)) => folder.join(name),
        _ => path,
    }
}

/// A line for each team whose player did not always answer as asked (its
/// turns carry a comment saying why): how many turns, and the first.
fn trouble_lines(record: &MatchRecord) -> Vec<String> {
    let mut lines = Vec::new();
    for team in Team::BOTH {
        let troubled: Vec<(usize, usize, &str)> = record
            .games
            .iter()
            .enumerate()
            .flat_map(|(game, played)| {
                played
                    .turns
                    .iter()
                    .enumerate()
                    .filter(move |(_, (turn, _))| turn.team == team)
                    .filter_map(move |(number, (_, comment))| {
                        comment
                            .as_deref()
                            .map(|comment| (game + 1, number + 1, comment))
                    })
            })
            .collect();
        if let Some(&(game, turn, why)) = troubled.first() {
            lines.push(format!(
                "katazuke: {team}'s player did not answer as asked in {} turn{}; the first, game {game} turn {turn}: {why}",
                troubled.len(),
                if troubled.len() == 1 { "" } else { "s" }
            ));
        }
    }
    lines
}

/// `A (builtin:3) wins by two game wins (criterion 1): games 2-0, territory 26-18`.
fn result_line(result: &MatchResult, names: &PerTeam<Option<String>>) -> String {
    let name = |team| match &names[team] {
        Some(name) => format!("{team} ({name})"),
        None => team.to_string(),
    };
    let totals = format!(
        "games {}-{}, territory {}-{}, objects {}-{}",
        result.wins.a,
        result.wins.b,
        result.territory.a,
        result.territory.b,
        result.objects.a,
        result.objects.b
    );
    match (result.winner, result.criterion) {
        (Some(team), Some(criterion)) => format!(
            "{} wins by {} (criterion {criterion}): {totals}",
            name(team),
            CRITERIA[usize::from(criterion) - 1]
        ),
        _ => format!("tied on criteria 1-4, to be decided by janken: {totals}"),
    }
}

pub fn suggest(args: &SuggestArgs) -> Ending {
    let wanted = match args
        .at
        .as_deref()
        .map(|text| game_turn("--at", text))
        .transpose()
    {
        Ok(wanted) => wanted,
        Err(ending) => return ending,
    };
    let source = match read_source(&args.file) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    // The position asked for (the last one by default), folded as the
    // log is read: nothing else of the match is kept.
    let mut frames = FrameFold::default();
    let mut state = None;
    // Game 1's result, which game 2's positions carry: the engine plays
    // for the match.
    let mut game_one = None;
    let tally = referee_unfinished(&source, Policy::Strict, |record| {
        let Some(frame) = frames.push(record.clone()) else {
            return;
        };
        if let (FrameKind::End(_, result), 1) = (&frame.kind, frame.state.game) {
            game_one = Some(*result);
        }
        let playable = matches!(frame.kind, FrameKind::Start | FrameKind::Turn(_));
        let asked =
            wanted.is_none_or(|(game, turn)| frame.state.game == game && frame.state.turns == turn);
        if playable && asked {
            state = Some(frame.state);
        }
    });
    if let Some(error) = &tally.error {
        return Ending::Status(error.code.exit_status());
    }
    let Some(state) = state else {
        return Ending::Invalid(match wanted {
            Some((game, turn)) => format!("{}: game {game} has no turn {turn}", source.label),
            None => format!("{}: the log has no game to play on", source.label),
        });
    };
    let position = Position::in_match(&state, CostModel::Virtual, game_one);
    if let Some(end) = position.ended() {
        return Ending::Invalid(format!(
            "{}: game {} has ended after turn {} ({end}): nothing to suggest",
            source.label, state.game, state.turns
        ));
    }
    let engine = if args.mcts {
        Engine::TreeSearch
    } else {
        Engine::AlphaBetaThenTree
    };
    let mut player = ComputerPlayer::with_engine(engine, args.level);
    let Some(found) = player.think(&position, None) else {
        return Ending::Invalid("no turn to suggest".into());
    };
    let team = state.to_move;
    let action = found.action.serialize(state.size());
    let score = found.score_in_cells(team);
    let mut after = position.clone();
    after.apply(&found.action);
    let why = explain(&after, team, found.value);
    let text = if args.json {
        let object = serde_json::json!({
            "game": state.game,
            "turn": state.turns + 1,
            "team": team.letter(),
            "action": action,
            "score": (score * 1000.0).round() / 1000.0,
            "depth": found.depth,
            "nodes": found.nodes,
            "solved": found.solved,
            "exact": found.exact,
            "chance": found.chance_for(team),
            "why": why,
        });
        format!("{object}\n")
    } else {
        let nodes = found.nodes;
        let how = if let Some(chance) = found.chance_for(team) {
            format!(
                "tree search: {:.0} % to win the match, {nodes} iterations",
                100.0 * chance
            )
        } else if found.exact {
            format!("exact: every distinct turn searched to the end of the game, {nodes} positions")
        } else if found.solved {
            format!("searched to the end of the game over the pruned turns, {nodes} positions")
        } else {
            format!("searched {} turns deep, {nodes} positions", found.depth)
        };
        format!(
            "game {}, turn {}: {team} {action}\n  {why}\n  score {score:+.2} cells for {team} ({how})\n",
            state.game,
            state.turns + 1,
        )
    };
    match print_out(&text) {
        Ok(()) => Ending::Success,
        Err(error) => Ending::Error(error),
    }
}

pub fn tournament(args: &TournamentArgs) -> Ending {
    let mut entrants = Vec::new();
    for text in &args.players {
        match PlayerSpec::parse(text) {
            Ok(spec) => entrants.push(spec),
            Err(message) => return Ending::Invalid(format!("player {text:?}: {message}")),
        }
    }
    let sprt = match args
        .sprt
        .as_deref()
        .map(|words| words.join(" ").parse::<Sprt>())
    {
        None => None,
        Some(Ok(sprt)) => Some(sprt),
        Some(Err(problem)) => return Ending::Invalid(format!("--sprt: {problem}")),
    };
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(text) => match Shard::parse(
            text,
            |name| std::env::var(name).ok(),
            "KATAZUKE_SHARD_COUNT",
        ) {
            Ok(shard) => shard,
            // The messages name --shard or the shard themselves, as
            // shubbles batch says them.
            Err(error) => return Ending::Invalid(error.to_string()),
        },
    };
    let results = args.results.clone().unwrap_or_else(|| {
        PathBuf::from(if shard == Shard::WHOLE {
            "tournament.jsonl".to_string()
        } else {
            format!("tournament-{}-of-{}.jsonl", shard.index(), shard.count())
        })
    });
    let fields = match &args.fields_file {
        Some(path) => book(args, path),
        None => {
            let count = args
                .fields
                .unwrap_or(if sprt.is_some() { SPRT_FIELDS } else { 4 });
            setups(&args.playing, count as usize, true)
        }
    };
    let fields = match fields {
        Ok(fields) => fields,
        Err(ending) => return ending,
    };
    let tournament = Tournament {
        entrants,
        fields,
        kind: if args.gauntlet {
            TournamentKind::Gauntlet
        } else {
            TournamentKind::RoundRobin
        },
        options: play_options(&args.playing),
        seed: args.playing.seed,
        sprt,
        io_logs: args.log_io.clone(),
        shard,
    };
    let session = match tournament.open(&results, args.records.as_deref()) {
        Ok(session) => session,
        Err(error) => return tournament_ending(error),
    };
    let (done, total) = (session.finished().len(), session.total());
    if !args.quiet && done > 0 {
        say(&format!(
            "{}: {done} of {total} matches already played; playing the other {}",
            results.display(),
            total - done
        ));
    }
    let mut progress = Progress {
        played: done,
        total,
        quiet: args.quiet,
    };
    match session.play(args.jobs as usize, &mut progress) {
        Ok(standings) => {
            if let Err(error) = print_out(&standings.table()) {
                return Ending::Error(error);
            }
            // Measured, so said beside the standings rather than in them:
            // standard output stays the same on every run of the same
            // results.
            let times = standings.answer_times();
            if !args.quiet && !times.is_empty() {
                say(&format!("\n{}", times.trim_end()));
            }
            Ending::Success
        }
        Err(error) => tournament_ending(error),
    }
}

/// The fields of `path`, a fields file, in the order asked for, the
/// first --fields of them if that is given.
fn book(args: &TournamentArgs, path: &Path) -> Result<Vec<MatchSetup>, Ending> {
    let source = read_source(path)?;
    let mut random = Seeded::new(args.playing.seed);
    let mut starts = |size| match args.playing.start {
        StartArg::Symmetric => GameSetup::swapped_pair(symmetric_start(size)),
        StartArg::Random => GameSetup::swapped_pair(random_start(size, &mut random)),
    };
    let mut fields = read_fields(&source.bytes, &mut starts)
        .map_err(|error| Ending::Invalid(format!("{}: {error}", source.label)))?;
    if args.fields_order == FieldsOrder::Shuffled {
        // Fisher–Yates from a stream of its own, so that the starts drawn
        // above do not depend on the order.
        let mut order = Seeded::new(args.playing.seed ^ 0x0B00_C0DE);
        for last in (1..fields.len()).rev() {
            fields.swap(last, order.below(last as u64 + 1) as usize);
        }
    }
    if let Some(count) = args.fields {
        if count as usize > fields.len() {
            return Err(Ending::Invalid(format!(
                "--fields {count}, but {} has {} field{}",
                source.label,
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            )));
        }
        fields.truncate(count as usize);
    }
    Ok(fields)
}

/// The fields an SPRT may use when --fields does not say: as many as a
/// run may have, since the test, not the count, ends it.
const SPRT_FIELDS: u32 = 10_000;

/// A line on standard error per match, and under an SPRT the test's
/// state after it.
struct Progress {
    played: usize,
    total: usize,
    quiet: bool,
}

impl TournamentProgress for Progress {
    fn match_played(&mut self, outcome: &MatchOutcome) {
        self.played += 1;
        if self.quiet {
            return;
        }
        let winner = match outcome.winner {
            Some(team) => format!("{team} wins"),
            None => "undecided".into(),
        };
        say(&format!(
            "match {}/{}: {} (A) v {} (B), field {}: {winner}",
            self.played,
            self.total,
            outcome.a,
            outcome.b,
            outcome.field + 1
        ));
    }

    fn test_read(&mut self, status: &SprtStatus) {
        if !self.quiet {
            say(&format!("  {status}"));
        }
    }
}

/// `katazuke tournament-merge`: the shards' results put together.
pub fn tournament_merge(args: &TournamentMergeArgs) -> Ending {
    let merged = match merge_results(&args.files) {
        Ok(merged) => merged,
        Err(error) => return tournament_ending(error),
    };
    if let Some(path) = &args.output {
        if let Err(message) = check_extension(path, "jsonl", "the results file", &[]) {
            return Ending::Invalid(message);
        }
        if args.files.iter().any(|file| same_file(file, path)) {
            return Ending::Invalid(format!(
                "-o {} is one of the shards: name another file",
                path.display()
            ));
        }
        let text = merged.results_file();
        let written = write_output(path, "results file", TEMPORARY_PREFIX, |out| {
            Ok(out.write_all(text.as_bytes())?)
        });
        if let Err(ending) = written {
            return ending;
        }
    }
    match print_out(&merged.standings.table()) {
        Ok(()) => Ending::Success,
        Err(error) => Ending::Error(error),
    }
}

/// Status 1 for a file that failed while matches were played, 2 for
/// everything a user can put right (all found before the first match).
fn tournament_ending(error: TournamentError) -> Ending {
    match error {
        TournamentError::Io { .. } => Ending::Error(anyhow::Error::new(error)),
        error => Ending::Invalid(error.to_string()),
    }
}
