//! Draws one replay frame (§13.2–§13.4): the board with its counts,
//! territories, current territories and what the turn changed; a panel per
//! team with its container, stock and clock; the header and the caption;
//! and for the match's end, the table of §9.2 with the deciding row.

use reel::shapes;
use reel::text::{self, Anchor, TextInk};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use super::inks::Ink;
use super::layout::Layout;
use crate::formats::caption::{caption, header};
use crate::model::field::Cell;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{ClockTime, Seconds};
use crate::rules::frames::{Effect, Frame, FrameKind, TurnSummary};
use crate::rules::result::{MatchResult, CRITERIA};

/// How replays are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawOptions {
    /// Side of a cell in pixels.
    pub cell: u32,
    /// Dots on the cells the team to move may clear or place on.
    pub hints: bool,
    /// Each turn's comment under its caption.
    pub comments: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            cell: 64,
            hints: false,
            comments: false,
        }
    }
}

/// Draws the frames of one match on one canvas.
#[derive(Clone, Debug)]
pub struct Renderer {
    layout: Layout,
    options: DrawOptions,
}

impl Renderer {
    /// A renderer whose canvas holds fields of up to `rows` by `columns`.
    pub fn new(options: DrawOptions, rows: u8, columns: u8) -> Renderer {
        Renderer {
            layout: Layout::new(options.cell, rows, columns),
            options,
        }
    }

    /// Width and height of every picture.
    pub fn canvas_size(&self) -> (u32, u32) {
        (
            self.layout.width.unsigned_abs(),
            self.layout.height.unsigned_abs(),
        )
    }

    /// Where `cell` is drawn: its top left corner and side, in pixels, for
    /// a page that lets people click the board.
    pub fn cell_rect(&self, cell: Cell) -> (i32, i32, i32) {
        let (x, y) = self.layout.cell_origin(cell);
        (x, y, self.layout.cell)
    }

    /// The picture of `frame`, on a new canvas.
    pub fn render(&self, frame: &Frame) -> Option<Pixmap> {
        let (width, height) = self.canvas_size();
        let mut pixmap = Pixmap::new(width, height)?;
        self.paint(frame, &mut pixmap);
        Some(pixmap)
    }

    /// Draws `frame` over all of `pixmap`, a canvas of this renderer.
    pub fn paint(&self, frame: &Frame, pixmap: &mut Pixmap) {
        let mut pen = Pen { pixmap };
        pen.pixmap.fill(Ink::Background.color());
        let layout = &self.layout;
        pen.text(
            &header(frame),
            (layout.margin as f32, layout.header as f32 * 0.55),
            Anchor::Left,
            layout.text(0.34),
            Ink::Dark,
            (layout.width - 2 * layout.margin) as f32,
        );
        match &frame.kind {
            FrameKind::Summary(result) => self.summary(&mut pen, frame, result),
            kind => {
                let turn = match kind {
                    FrameKind::Turn(turn) => Some(turn),
                    _ => None,
                };
                self.board(
                    &mut pen,
                    &frame.state,
                    turn,
                    matches!(kind, FrameKind::End(..)),
                );
                for team in Team::BOTH {
                    self.panel(&mut pen, frame, team);
                }
            }
        }
        self.caption(&mut pen, frame);
    }

    fn board(&self, pen: &mut Pen<'_>, state: &GameState, turn: Option<&TurnSummary>, ended: bool) {
        let layout = &self.layout;
        let c = layout.cell;
        let size = state.size();
        let (rows, columns) = (i32::from(size.rows), i32::from(size.columns));
        let grid = (c / 32).max(1);
        // The edge and the grid: dark under the cells, showing between them.
        pen.rect(
            layout.board_x - grid,
            layout.board_y - grid,
            columns * c + 2 * grid,
            rows * c + 2 * grid,
            Ink::Dark,
        );
        let label = layout.text(0.3);
        for column in 0..size.columns {
            let x = layout.board_x + i32::from(column) * c + c / 2;
            let letter = char::from(b'a' + column).to_string();
            pen.text(
                &letter,
                (x as f32, (layout.header + layout.label / 2) as f32),
                Anchor::Centre,
                label,
                Ink::Dark,
                c as f32,
            );
        }
        for row in 0..size.rows {
            let y = layout.board_y + i32::from(row) * c + c / 2;
            let number = (u32::from(row) + 1).to_string();
            pen.text(
                &number,
                ((layout.board_x - layout.label / 4) as f32, y as f32),
                Anchor::Right,
                label,
                Ink::Dark,
                layout.label as f32,
            );
        }
        let changed: Vec<Cell> = turn.map(TurnSummary::changed_cells).unwrap_or_default();
        for cell in size.all() {
            let (x, y) = layout.cell_origin(cell);
            let (cx, cy) = ((x + c / 2) as f32, (y + c / 2) as f32);
            let owner = state.owner(cell);
            let fill = owner.map_or(Ink::Cell, Ink::light);
            pen.rect(x + grid, y + grid, c - 2 * grid, c - 2 * grid, fill);
            match owner {
                Some(team) if state.current[team] == Some(cell) => {
                    let width = (c as f32 / 10.0).max(3.0);
                    pen.ring(cx, cy, c as f32 * 0.34, width, Ink::dark(team));
                    pen.circle(cx, cy, c as f32 * 0.11, Ink::dark(team));
                }
                Some(team) => pen.text(
                    team.letter(),
                    (cx, cy),
                    Anchor::Centre,
                    layout.text(0.4),
                    Ink::dark(team),
                    c as f32,
                ),
                None => {
                    let count = state.count(cell);
                    if count > 0 {
                        pen.text(
                            &count.to_string(),
                            (cx, cy),
                            Anchor::Centre,
                            layout.text(0.44),
                            Ink::Dark,
                            c as f32 * 0.9,
                        );
                    }
                }
            }
            if changed.contains(&cell) {
                // Yellow with a dark inner edge: it shows on white and on
                // the orange of A's territory alike.
                let width = (c / 14).max(3);
                let inside = c - 2 * grid;
                pen.outline(x + grid, y + grid, inside, inside, width, Ink::Changed);
                let edge = (c / 40).max(1);
                pen.outline(
                    x + grid + width,
                    y + grid + width,
                    inside - 2 * width,
                    inside - 2 * width,
                    edge,
                    Ink::Dark,
                );
            }
        }
        if let Some(turn) = turn {
            let corner = (c / 4) as f32;
            for &cell in &turn.claimed {
                let (x, y) = layout.cell_origin(cell);
                let right = (x + c - grid) as f32;
                let top = (y + grid) as f32;
                pen.polygon(
                    &[(right - corner, top), (right, top), (right, top + corner)],
                    Ink::dark(turn.team),
                );
            }
            for &(cell, _, _) in &turn.cancelled {
                let (x, y) = layout.cell_origin(cell);
                let (left, top) = (
                    (x + grid) as f32 + corner * 0.3,
                    (y + grid) as f32 + corner * 0.3,
                );
                let width = (c as f32 / 18.0).max(2.0);
                pen.line(
                    (left, top),
                    (left + corner, top + corner),
                    width,
                    Ink::Alarm,
                );
                pen.line(
                    (left + corner, top),
                    (left, top + corner),
                    width,
                    Ink::Alarm,
                );
            }
        }
        if self.options.hints && !ended {
            let team = state.to_move;
            if let Some(current) = state.current[team] {
                for cell in size.neighbours(current) {
                    let (x, y) = layout.cell_origin(cell);
                    let (cx, cy) = ((x + c / 2) as f32, (y + c * 5 / 6) as f32);
                    pen.circle(cx, cy, (c as f32 / 16.0).max(2.0), Ink::dark(team));
                }
            }
        }
    }

    fn panel(&self, pen: &mut Pen<'_>, frame: &Frame, team: Team) {
        let layout = &self.layout;
        let state = &frame.state;
        let c = layout.cell as f32;
        let (x, y) = (layout.panel_x, layout.panel_y(team == Team::B));
        let (w, h) = (layout.panel_w, layout.panel_h);
        let to_move = state.ended.is_none()
            && state.to_move == team
            && !matches!(frame.kind, FrameKind::End(..));
        let border = if to_move { Ink::dark(team) } else { Ink::Faint };
        let thickness = if to_move {
            (layout.cell / 16).max(3)
        } else {
            2
        };
        pen.rect(x, y, w, h, border);
        pen.rect(
            x + thickness,
            y + thickness,
            w - 2 * thickness,
            h - 2 * thickness,
            Ink::Cell,
        );
        if to_move {
            // The marker on the team to move next, in the gap beside it.
            let mx = (x - layout.margin / 8) as f32;
            let my = (y + h / 6) as f32;
            let size = layout.margin as f32 * 0.7;
            pen.polygon(
                &[
                    (mx - size, my - size * 0.6),
                    (mx, my),
                    (mx - size, my + size * 0.6),
                ],
                Ink::dark(team),
            );
        }
        let inner = x as f32 + c * 0.2;
        let right = (x + w) as f32 - c * 0.2;
        let line = |k: f32| y as f32 + c * (0.42 + 0.62 * k);
        let small = layout.text(0.27);
        let room = w as f32 - c * 0.4;
        // Letter, name, role.
        pen.text(
            team.letter(),
            (inner, line(0.0)),
            Anchor::Left,
            layout.text(0.5),
            Ink::dark(team),
            c,
        );
        let name = &frame.names[team];
        if name.is_ascii() && name != team.letter() {
            pen.text(
                name,
                (inner + c * 0.5, line(0.0)),
                Anchor::Left,
                layout.text(0.3),
                Ink::Dark,
                room - c * 1.4,
            );
        }
        pen.text(
            state.role(team).short(),
            (right, line(0.0)),
            Anchor::Right,
            layout.text(0.3),
            Ink::Dark,
            c,
        );
        // Territory and objects; badges.
        let counts = format!(
            "territory {} · cleared {}",
            state.territory(team),
            state.cleared[team]
        );
        pen.text(
            &counts,
            (inner, line(1.0)),
            Anchor::Left,
            small,
            Ink::Dark,
            room * 0.72,
        );
        let badge = if state.out[team] {
            Some("OUT")
        } else if state.current[team].is_none() {
            Some("NO CURRENT")
        } else {
            None
        };
        if let Some(badge) = badge {
            pen.text(
                badge,
                (right, line(1.0)),
                Anchor::Right,
                small,
                Ink::Alarm,
                room * 0.3,
            );
        }
        // Container, stock, clock: a label, a bar and a number each.
        let bar_x = inner + c * 1.55;
        let bar_w = (right - c * 1.1 - bar_x).max(c * 0.5);
        let bar_h = c * 0.22;
        let capacity = state.params.capacity.max(1);
        let slot = |k: f32| Slot {
            x: bar_x,
            y: line(k) - bar_h / 2.0,
            w: bar_w,
            h: bar_h,
        };
        pen.text(
            "container",
            (inner, line(2.0)),
            Anchor::Left,
            small,
            Ink::Dark,
            c * 1.5,
        );
        pen.bar(
            slot(2.0),
            state.load[team] as f32 / capacity as f32,
            Ink::dark(team),
        );
        pen.text(
            &format!("{}/{}", state.load[team], state.params.capacity),
            (right, line(2.0)),
            Anchor::Right,
            small,
            Ink::Dark,
            c * 1.0,
        );
        pen.text(
            "stock",
            (inner, line(3.0)),
            Anchor::Left,
            small,
            Ink::Dark,
            c * 1.5,
        );
        let stock = state.params.stock.of(state.role(team));
        pen.pips(slot(3.0), state.stock[team], stock, Ink::dark(team));
        pen.text(
            &state.stock[team].to_string(),
            (right, line(3.0)),
            Anchor::Right,
            small,
            Ink::Dark,
            c * 1.0,
        );
        pen.text(
            "clock",
            (inner, line(4.0)),
            Anchor::Left,
            small,
            Ink::Dark,
            c * 1.5,
        );
        let left = state.team_left[team];
        let share = left as f32 / state.params.team_time.max(1) as f32;
        let clock_ink = if state.out[team] {
            Ink::Alarm
        } else {
            Ink::dark(team)
        };
        pen.bar(slot(4.0), share, clock_ink);
        pen.text(
            &ClockTime(left).to_string(),
            (right, line(4.0)),
            Anchor::Right,
            small,
            Ink::Dark,
            c * 1.0,
        );
    }

    fn caption(&self, pen: &mut Pen<'_>, frame: &Frame) {
        let layout = &self.layout;
        let (first, second) = caption(frame, self.options.comments);
        let room = (layout.width - 2 * layout.margin) as f32;
        let y = layout.caption_y as f32;
        let c = layout.cell as f32;
        let ink = match &frame.kind {
            FrameKind::Turn(TurnSummary {
                effect: Effect::Illegal { .. } | Effect::Timeout { .. },
                ..
            }) => Ink::Alarm,
            _ => Ink::Dark,
        };
        pen.text(
            &first,
            (layout.margin as f32, y + c * 0.3),
            Anchor::Left,
            layout.text(0.33),
            ink,
            room,
        );
        if let Some(second) = second {
            pen.text(
                &second,
                (layout.margin as f32, y + c * 0.82),
                Anchor::Left,
                layout.text(0.28),
                Ink::Dark,
                room,
            );
        }
    }

    /// The match's table (§9.2, §13.4): each game's results, then the five
    /// criteria for both teams with the deciding row highlighted.
    fn summary(&self, pen: &mut Pen<'_>, frame: &Frame, result: &MatchResult) {
        let layout = &self.layout;
        let c = layout.cell as f32;
        let left = layout.margin as f32 + c * 0.2;
        let right = (layout.width - layout.margin) as f32 - c * 0.2;
        let top = (layout.header + layout.label / 2) as f32;
        let row_h = c * 0.62;
        let width = right - left;
        let (col_a, col_b) = (left + width * 0.62, left + width * 0.88);
        let size = layout.text(0.3);
        let name = |team: Team| {
            let name = &frame.names[team];
            if name.is_ascii() && name != team.letter() {
                format!("{team} {name}")
            } else {
                team.to_string()
            }
        };
        for (i, game) in frame.games.iter().enumerate() {
            let winner = game
                .winner
                .map_or("drawn".to_string(), |team| format!("{team} wins"));
            let words = format!(
                "game {}: territory {} : {} · objects {} : {} · time {}s : {}s · {winner}",
                i + 1,
                game.territory.a,
                game.territory.b,
                game.objects.a,
                game.objects.b,
                Seconds(game.time_used.a),
                Seconds(game.time_used.b)
            );
            pen.text(
                &words,
                (left, top + row_h * i as f32),
                Anchor::Left,
                layout.text(0.27),
                Ink::Dark,
                width,
            );
        }
        let table_top = top + row_h * 2.5;
        pen.text(
            "criterion",
            (left, table_top),
            Anchor::Left,
            size,
            Ink::Dark,
            width * 0.5,
        );
        pen.text(
            &name(Team::A),
            (col_a, table_top),
            Anchor::Centre,
            size,
            Ink::ADark,
            width * 0.24,
        );
        pen.text(
            &name(Team::B),
            (col_b, table_top),
            Anchor::Centre,
            size,
            Ink::BDark,
            width * 0.24,
        );
        let seconds = |ms: u64| format!("{}", Seconds(ms));
        let janken = |team: Team| match result.janken {
            Some(winner) if winner == team => "won".to_string(),
            Some(_) => "lost".to_string(),
            None => "-".to_string(),
        };
        let values: [PerTeam<String>; 5] = [
            result.wins.map(|n| n.to_string()),
            result.territory.map(|n| n.to_string()),
            result.objects.map(|n| n.to_string()),
            PerTeam {
                a: seconds(result.time_used.a),
                b: seconds(result.time_used.b),
            },
            PerTeam {
                a: janken(Team::A),
                b: janken(Team::B),
            },
        ];
        for (i, (criterion, value)) in CRITERIA.iter().zip(&values).enumerate() {
            let y = table_top + row_h * (i as f32 + 1.2);
            let deciding = result.criterion == Some(i as u8 + 1);
            if deciding {
                pen.rect(
                    (left - c * 0.1) as i32,
                    (y - row_h / 2.0) as i32,
                    (width + c * 0.2) as i32,
                    row_h as i32,
                    Ink::Highlight,
                );
            }
            let label = if *criterion == "time total" {
                format!("{}. {criterion} (s, less wins)", i + 1)
            } else {
                format!("{}. {criterion}", i + 1)
            };
            pen.text(
                &label,
                (left, y),
                Anchor::Left,
                size,
                Ink::Dark,
                width * 0.5,
            );
            pen.text(
                &value.a,
                (col_a, y),
                Anchor::Centre,
                size,
                Ink::Dark,
                width * 0.24,
            );
            pen.text(
                &value.b,
                (col_b, y),
                Anchor::Centre,
                size,
                Ink::Dark,
                width * 0.24,
            );
        }
    }
}

/// Where a bar or a row of pips goes.
#[derive(Clone, Copy, Debug)]
struct Slot {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
}

/// Fills shapes in one pixmap.
struct Pen<'a> {
    pixmap: &'a mut Pixmap,
}

fn paint(ink: Ink, anti_alias: bool) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(ink.color());
    paint.anti_alias = anti_alias;
    paint
}

impl Pen<'_> {
    /// A rectangle on whole pixels, not anti-aliased.
    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, ink: Ink) {
        if w <= 0 || h <= 0 {
            return;
        }
        if let Some(rect) = Rect::from_xywh(x as f32, y as f32, w as f32, h as f32) {
            self.pixmap
                .fill_rect(rect, &paint(ink, false), Transform::identity(), None);
        }
    }

    /// The border of a rectangle, `width` pixels inside it.
    fn outline(&mut self, x: i32, y: i32, w: i32, h: i32, width: i32, ink: Ink) {
        self.rect(x, y, w, width, ink);
        self.rect(x, y + h - width, w, width, ink);
        self.rect(x, y, width, h, ink);
        self.rect(x + w - width, y, width, h, ink);
    }

    fn circle(&mut self, cx: f32, cy: f32, radius: f32, ink: Ink) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, radius) {
            self.pixmap.fill_path(
                &path,
                &paint(ink, true),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    fn ring(&mut self, cx: f32, cy: f32, radius: f32, width: f32, ink: Ink) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, radius) {
            let stroke = Stroke {
                width,
                ..Stroke::default()
            };
            self.pixmap.stroke_path(
                &path,
                &paint(ink, true),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, ink: Ink) {
        if let Some(path) = shapes::line(from, to) {
            let stroke = Stroke {
                width,
                line_cap: tiny_skia::LineCap::Round,
                ..Stroke::default()
            };
            self.pixmap.stroke_path(
                &path,
                &paint(ink, true),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }

    fn polygon(&mut self, points: &[(f32, f32)], ink: Ink) {
        if let Some(path) = shapes::polygon(points) {
            self.pixmap.fill_path(
                &path,
                &paint(ink, true),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// A bar `share` (0 to 1) full.
    fn bar(&mut self, slot: Slot, share: f32, ink: Ink) {
        let Slot { x, y, w, h } = slot;
        let (x, y, w, h) = (
            x.round() as i32,
            y.round() as i32,
            w.round() as i32,
            h.round() as i32,
        );
        self.rect(x, y, w, h, Ink::Faint);
        let full = (w as f32 * share.clamp(0.0, 1.0)).round() as i32;
        self.rect(x, y, full, h, ink);
    }

    /// `left` of `total` pips, as squares when they fit, as a bar
    /// otherwise.
    fn pips(&mut self, slot: Slot, left: u32, total: u32, ink: Ink) {
        if total == 0 {
            return;
        }
        let Slot { x, y, w, h } = slot;
        let step = h * 1.4;
        if step * total as f32 > w {
            self.bar(slot, left as f32 / total as f32, ink);
            return;
        }
        for i in 0..total {
            let ink = if i < left { ink } else { Ink::Faint };
            self.rect(
                (x + step * i as f32).round() as i32,
                y.round() as i32,
                h.round() as i32,
                h.round() as i32,
                ink,
            );
        }
    }

    /// Text, shrunk to `room` pixels across when it is wider.
    fn text(
        &mut self,
        words: &str,
        at: (f32, f32),
        anchor: Anchor,
        size: f32,
        ink: Ink,
        room: f32,
    ) {
        let natural = text::width(words, size);
        let size = if natural > room && natural > 0.0 {
            size * room / natural
        } else {
            size
        };
        text::draw(
            self.pixmap,
            words,
            at,
            anchor,
            size,
            TextInk::Fixed(ink.rgb()),
        );
    }
}
