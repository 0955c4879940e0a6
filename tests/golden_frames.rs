//! Renders chosen frames and compares them pixel for pixel with the PNGs in
//! `frames/`. A change in how pictures look must be looked at and accepted
//! on purpose: `SHUBBLES_BLESS=1 cargo test --test golden_frames` rewrites
//! the PNGs (see `frames/README.md`).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use shubbles::{smooth_picture, write_png, RenderOptions, Renderer, Scenario};
use tiny_skia::Pixmap;

/// Which picture of a scenario a golden file holds.
#[derive(Clone, Copy, Debug)]
enum Picture {
    /// A frame (BOX.md §8) as the 1-second GIF draws it.
    Frame(usize),
    /// A picture of the smooth animation, by its position in it.
    Smooth(usize),
}

struct Golden {
    name: &'static str,
    state: &'static str,
    ops: &'static str,
    picture: Picture,
    caption: bool,
    numbers: bool,
}

impl Golden {
    /// How `frames/README.md` names the picture: `frame 7`, `smooth picture
    /// 24`, then the options it is drawn with.
    fn description(&self) -> String {
        let mut text = match self.picture {
            Picture::Frame(index) => format!("frame {index}"),
            Picture::Smooth(index) => format!("smooth picture {index}"),
        };
        if self.caption {
            text += " with `--caption`";
        }
        if self.numbers {
            text += " with `--numbers`";
        }
        text
    }

    fn draw(&self) -> Pixmap {
        let scenario =
            Scenario::parse(self.state, self.ops, false).expect("golden scenarios are valid");
        let mut options = RenderOptions::default().with_numbers(self.numbers);
        if self.caption {
            options = options.with_caption(&scenario.operations);
        }
        let missing = format!("{} {} has no {}", self.state, self.ops, self.description());
        match self.picture {
            Picture::Frame(index) => {
                let frame = scenario.frames().nth(index).expect(&missing);
                Renderer::new(&options).render(&frame)
            }
            Picture::Smooth(index) => {
                smooth_picture(scenario.frames(), &options, index).expect(&missing)
            }
        }
    }
}

/// Keep `frames/README.md` in step with this list.
const GOLDEN: &[Golden] = &[
    Golden {
        name: "figure_1a_frame_00.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(0),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "figure_1a_frame_01.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(1),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "figure_1a_frame_06.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(6),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "figure_1a_frame_07.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(7),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "png_figure_1a_final.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(25),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "shubble_exit_frame_08.png",
        state: "@................x.....x..o..",
        ops: "+-",
        picture: Picture::Frame(8),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "smole_escape_frame_08.png",
        state: "@................x.....o..x..",
        ops: "+-",
        picture: Picture::Frame(8),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "stot_into_wall_frame_00.png",
        state: "@......................x.x...",
        ops: "<",
        picture: Picture::Frame(0),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "smooth_figure_1a_rest_00.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Smooth(0),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "smooth_figure_1a_turn_45.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Smooth(23),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "smooth_shubble_leaving_71.png",
        state: "@................x.....x..o..",
        ops: "+-",
        picture: Picture::Smooth(71),
        caption: false,
        numbers: false,
    },
    Golden {
        name: "caption_figure_1a_frame_07.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(7),
        caption: true,
        numbers: false,
    },
    Golden {
        name: "caption_stot_into_wall_frame_00.png",
        state: "@......................x.x...",
        ops: "<",
        picture: Picture::Frame(0),
        caption: true,
        numbers: false,
    },
    Golden {
        name: "numbers_figure_1a_frame_01.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Frame(1),
        caption: false,
        numbers: true,
    },
    Golden {
        name: "smooth_caption_numbers_turn_45.png",
        state: ".........@...o....ooo..xox...",
        ops: "+>|<-v+^+",
        picture: Picture::Smooth(23),
        caption: true,
        numbers: true,
    },
];

fn frames_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("frames")
}

fn save(pixmap: &Pixmap, path: &PathBuf) {
    let file = File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    write_png(pixmap, BufWriter::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn rendered_frames_match_the_golden_pngs() {
    let bless = std::env::var("SHUBBLES_BLESS").is_ok_and(|v| v == "1");
    let mut mismatches = Vec::new();
    for golden in GOLDEN {
        let name = golden.name;
        let actual = golden.draw();
        let path = frames_dir().join(name);
        if bless {
            save(&actual, &path);
            continue;
        }
        let expected = Pixmap::load_png(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}; to create it run SHUBBLES_BLESS=1 cargo test --test golden_frames",
                path.display()
            )
        });
        if expected == actual {
            continue;
        }
        // Keep what was drawn next to the build so the two can be compared.
        let drawn = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        save(&actual, &drawn);
        let detail = if (expected.width(), expected.height()) != (actual.width(), actual.height()) {
            format!(
                "size {}x{} instead of {}x{}",
                actual.width(),
                actual.height(),
                expected.width(),
                expected.height()
            )
        } else {
            let differing = expected
                .pixels()
                .iter()
                .zip(actual.pixels())
                .filter(|(a, b)| a != b)
                .count();
            format!("{differing} pixels differ")
        };
        mismatches.push(format!("{name}: {detail} (drawn: {})", drawn.display()));
    }
    assert!(
        mismatches.is_empty(),
        "frames differ from the golden PNGs:\n{}\nIf the change is intended, look at the drawn \
         files, then run SHUBBLES_BLESS=1 cargo test --test golden_frames",
        mismatches.join("\n")
    );
}

#[test]
fn every_golden_png_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(frames_dir().join("README.md"))
        .expect("frames/README.md describes the golden frames");
    for golden in GOLDEN {
        let name = golden.name;
        let line = readme
            .lines()
            .find(|line| line.contains(name))
            .unwrap_or_else(|| panic!("frames/README.md does not list {name}"));
        assert!(
            line.contains(&format!(
                "state `{}`, operations `{}`, {}:",
                golden.state,
                golden.ops,
                golden.description()
            )),
            "frames/README.md describes {name} with another scenario: {line}"
        );
    }
}
