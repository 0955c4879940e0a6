//! The `katazuke` command (KATAZUKE.md §14): checks 片付けマス match logs,
//! prints their events and draws their replays.

use std::io::Read;
use std::process::ExitCode;

use shubbles::katazuke::formats::report::{check_json, report_text, Results};
use shubbles::katazuke::log::reader::read;
use shubbles::katazuke::rules::game::Policy;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let json = args.iter().any(|a| a == "--json");
    let pass = args.iter().any(|a| a == "--illegal=pass");
    let file = args.last().cloned().unwrap_or_default();
    let bytes = if file == "-" {
        let mut bytes = Vec::new();
        let _ = std::io::stdin().read_to_end(&mut bytes);
        bytes
    } else {
        std::fs::read(&file).unwrap_or_default()
    };
    let mut results = Results::default();
    let policy = if pass { Policy::Pass } else { Policy::Strict };
    let verdict = read(&bytes, policy, |record| results.apply(record));
    if json {
        println!("{}", check_json(&results, &verdict));
    } else {
        for w in &verdict.warnings {
            eprintln!("{}", w.line_for(&file));
        }
        if let Some(e) = &verdict.error {
            eprintln!("{}", e.line_for(&file));
        }
        print!("{}", report_text(&results));
    }
    ExitCode::from(verdict.exit_status())
}
