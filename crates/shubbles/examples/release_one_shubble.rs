//! Builds a scenario in Rust, prints what happens, and writes its GIF.
//!
//! `cargo run --example release_one_shubble` writes
//! `release_one_shubble.gif`: a shubble leaves through the opening while
//! both smoles stay in the box.

use std::fs::File;
use std::io::BufWriter;

use shubbles::{write_gif, Event, RenderOptions, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scenario = Scenario::parse("@................x.....x..o..", "+-", false)?;

    for record in scenario.events() {
        if let Event::Left { creature } = record.event {
            let op = record.op.map_or(0, |i| i + 1);
            println!("operation {op}: a {} left the box", creature.name());
        }
    }
    let outcome = scenario.run();
    println!("result: {}", outcome.result());

    let path = "release_one_shubble.gif";
    let written = write_gif(
        scenario.frames(),
        &RenderOptions::default(),
        BufWriter::new(File::create(path)?),
    )?;
    println!("wrote {path}: {} frames, one second each", written.frames);
    Ok(())
}
