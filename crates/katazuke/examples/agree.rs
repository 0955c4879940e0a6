//! TEMPORARY (not for commit): game-1 positions from event logs; the
//! search's choice at a node budget, its depth, and agreement with a
//! reference file of choices made at a large budget.
use katazuke::{read_events, CostModel, FrameKind, Frames, Limits, Position, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes: u64 = args[1].parse().unwrap();
    let reference = std::fs::read_to_string(&args[2]).unwrap_or_default();
    let reference: Vec<&str> = reference.lines().collect();
    let mut at = 0;
    let (mut agree, mut total, mut depths) = (0, 0, 0u64);
    let mut out = Vec::new();
    for path in &args[3..] {
        let text = std::fs::read(path).unwrap();
        let entries = read_events(&text).unwrap();
        let mut n = 0;
        for frame in Frames::new(entries.into_iter()) {
            if frame.state.game != 1 {
                continue;
            }
            if !matches!(frame.kind, FrameKind::Turn(_)) {
                continue;
            }
            n += 1;
            if n % 6 != 3 {
                continue;
            }
            let p = Position::of(&frame.state, CostModel::Virtual);
            if p.is_terminal() {
                continue;
            }
            let mut s = Searcher::new();
            let f = s
                .best(
                    &p,
                    Limits {
                        nodes,
                        deadline: None,
                        every_action: false,
                    },
                )
                .unwrap();
            let mine = format!("{:?}", f.action);
            if let Some(r) = reference.get(at) {
                total += 1;
                if *r == mine {
                    agree += 1;
                }
            }
            depths += u64::from(f.depth);
            out.push(mine);
            at += 1;
        }
    }
    std::fs::write(
        format!("/work/fit/choices_{nodes}.txt"),
        out.join("\n") + "\n",
    )
    .unwrap();
    eprintln!(
        "positions {} mean depth {:.2} agree {}/{} ({:.1} %)",
        at,
        depths as f64 / at as f64,
        agree,
        total,
        100.0 * agree as f64 / total.max(1) as f64
    );
}
