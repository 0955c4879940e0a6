//! Renders chosen frames and compares them pixel for pixel with the PNGs in
//! `frames/`. A change in how pictures look must be looked at and accepted
//! on purpose: `SHUBBLES_BLESS=1 cargo test --test golden_frames` rewrites
//! the PNGs (see `frames/README.md`).

mod common;

use shubbles::{smooth_picture, RenderOptions, Renderer, Scenario};
use testing::golden::assert_none_differ;
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

#[test]
fn rendered_frames_match_the_golden_pngs() {
    let frames = common::golden();
    let mismatches: Vec<String> = GOLDEN
        .iter()
        .filter_map(|golden| frames.compare(golden.name, &golden.draw(), "golden_frames"))
        .collect();
    assert_none_differ(&mismatches, "golden_frames");
}

#[test]
fn every_golden_png_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(common::golden().frames.join("README.md"))
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
