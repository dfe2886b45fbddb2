//! The chart of `cannctl mem compare --plot`, as SVG: one panel per policy on
//! a shared time (trace event) and byte axis, reserved bytes as a filled area
//! and live bytes as a line, each panel's reserved peak marked and labelled
//! above the data (nothing in a panel is higher than its own peak, so the
//! label covers nothing), the key in a band above the panels and a summary
//! table below them. plotters' SVG backend writes text as `<text>` elements,
//! so no system fonts are needed; every word comes from the catalog.

use cann_i18n::catalog::mem as msg;
use cann_i18n::Lang;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::error::MemsimError;
use super::replay::{Replay, Sample};
use super::report::{human_bytes, SimSummary};

/// Most points per curve; longer timelines are reduced to the maximum of each
/// bucket, so peaks survive.
pub const MAX_POINTS: usize = 2000;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
];

const WIDTH: u32 = 1000;
const HEADER: u32 = 64;
const PANEL: u32 = 180;
const ROW: u32 = 22;

/// A step curve of `pick` over `timeline`, reduced to at most [`MAX_POINTS`].
fn curve(timeline: &[Sample], events: usize, pick: impl Fn(&Sample) -> u64) -> Vec<(f64, f64)> {
    let bucket = (events / MAX_POINTS).max(1);
    let mut pts: Vec<(f64, f64)> = Vec::new();
    let mut cur: Option<(usize, u64)> = None;
    let mut prev = 0u64;
    let flush = |pts: &mut Vec<(f64, f64)>, b: usize, v: u64, prev: &mut u64| {
        let x = (b * bucket) as f64;
        pts.push((x, *prev as f64));
        pts.push((x, v as f64));
        *prev = v;
    };
    for s in timeline {
        let b = s.event / bucket;
        let v = pick(s);
        cur = match cur {
            Some((cb, cv)) if cb == b => Some((cb, cv.max(v))),
            Some((cb, cv)) => {
                flush(&mut pts, cb, cv, &mut prev);
                Some((b, v))
            }
            None => Some((b, v)),
        };
    }
    if let Some((cb, cv)) = cur {
        flush(&mut pts, cb, cv, &mut prev);
        pts.push((events as f64, cv as f64));
    }
    pts
}

/// The axis unit: the one the reports use for the largest value.
fn unit(max: u64) -> (f64, &'static str) {
    let (size, name) = cann_i18n::bytes::unit(max);
    (size as f64, name)
}

/// The first sample at the highest reserved bytes.
fn peak(timeline: &[Sample]) -> Option<&Sample> {
    timeline
        .iter()
        .fold(None, |best: Option<&Sample>, s| match best {
            Some(b) if b.reserved >= s.reserved => Some(b),
            _ => Some(s),
        })
}

/// Renders the replays of one trace as an SVG document, worded in `lang`.
pub fn render_svg(
    title: &str,
    events: usize,
    replays: &[Replay],
    lang: Lang,
) -> Result<String, MemsimError> {
    let err = |e: &dyn std::fmt::Display| MemsimError::Plot(e.to_string());
    let max = replays
        .iter()
        .flat_map(|r| r.timeline.iter().map(|s| s.reserved.max(s.live)))
        .max()
        .unwrap_or(0);
    let (scale, unit_name) = unit(max);
    let n = replays.len().max(1) as u32;
    let table_h = ROW * (replays.len() as u32 + 1) + 24;
    let height = HEADER + PANEL * n + 36 + table_h;
    let x_end = events.max(1) as f64;
    // Headroom above the highest peak for its label.
    let y_end = (max as f64 / scale * 1.25).max(1.0);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (header, rest) = root.split_vertically(HEADER);
        let (panels, table) = rest.split_vertically(PANEL * n + 36);
        draw_header(&header, title, lang).map_err(|e| err(&e))?;
        let parts = panels.split_by_breakpoints::<u32, u32, _, _>(
            [] as [u32; 0],
            (1..n).map(|k| PANEL * k).collect::<Vec<_>>(),
        );
        for (k, (r, area)) in replays.iter().zip(parts.iter()).enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let last = k + 1 == replays.len();
            let mut chart = ChartBuilder::on(area)
                .caption(
                    msg::plot_panel(lang, r.config.policy.code()),
                    ("sans-serif", 15),
                )
                .margin_left(12)
                .margin_right(24)
                .x_label_area_size(if last { 40 } else { 20 })
                .y_label_area_size(80)
                .build_cartesian_2d(0f64..x_end, 0f64..y_end)
                .map_err(|e| err(&e))?;
            let mut mesh = chart.configure_mesh();
            mesh.y_desc(msg::plot_bytes_axis(lang, unit_name))
                .y_labels(4)
                .light_line_style(WHITE.mix(0.0));
            if last {
                mesh.x_desc(msg::plot_event_axis(lang));
            }
            mesh.draw().map_err(|e| err(&e))?;
            let scaled = |pts: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
                pts.into_iter().map(|(x, y)| (x, y / scale)).collect()
            };
            let reserved = scaled(curve(&r.timeline, events, |s| s.reserved));
            if let (Some(first), Some(end)) = (reserved.first(), reserved.last()) {
                let mut outline = vec![(first.0, 0.0)];
                outline.extend(reserved.iter().copied());
                outline.push((end.0, 0.0));
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        outline,
                        colour.mix(0.30).filled(),
                    )))
                    .map_err(|e| err(&e))?;
            }
            chart
                .draw_series(LineSeries::new(reserved, colour.mix(0.8).stroke_width(1)))
                .map_err(|e| err(&e))?;
            chart
                .draw_series(LineSeries::new(
                    scaled(curve(&r.timeline, events, |s| s.live)),
                    BLACK.mix(0.75).stroke_width(1),
                ))
                .map_err(|e| err(&e))?;
            if let Some(p) = peak(&r.timeline) {
                let at = (p.event as f64, p.reserved as f64 / scale);
                let label = msg::plot_peak(lang, &human_bytes(p.reserved), p.event);
                // Right of the peak in the left half, left of it in the right half,
                // so the label stays inside the panel.
                let (h, dx) = if at.0 > x_end * 0.6 {
                    (HPos::Right, -6)
                } else {
                    (HPos::Left, 6)
                };
                let style = TextStyle::from(("sans-serif", 13).into_font())
                    .color(&BLACK)
                    .pos(Pos::new(h, VPos::Bottom));
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at(at)
                            + Circle::new((0, 0), 4, colour.filled())
                            + Text::new(label, (dx, -5), style),
                    ))
                    .map_err(|e| err(&e))?;
            }
        }
        draw_table(&table, replays, lang).map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// The title and the key (area: reserved, line: live), above every panel.
fn draw_header(area: &Area<'_>, title: &str, lang: Lang) -> DrawResult {
    area.draw(&Text::new(
        title.to_string(),
        (16, 10),
        ("sans-serif", 18).into_font(),
    ))?;
    let y = 42;
    area.draw(&Rectangle::new(
        [(16, y - 6), (40, y + 6)],
        BLACK.mix(0.25).filled(),
    ))?;
    area.draw(&Text::new(
        msg::plot_reserved_key(lang),
        (46, y - 7),
        ("sans-serif", 13).into_font(),
    ))?;
    area.draw(&PathElement::new(
        vec![(220, y), (244, y)],
        BLACK.mix(0.75).stroke_width(1),
    ))?;
    area.draw(&Text::new(
        msg::plot_live_key(lang),
        (250, y - 7),
        ("sans-serif", 13).into_font(),
    ))?;
    Ok(())
}

/// Peak reserved, peak live and their ratio per policy, as `mem compare`'s
/// table has them.
fn draw_table(area: &Area<'_>, replays: &[Replay], lang: Lang) -> DrawResult {
    let columns = [16, 200, 380, 560];
    let header = [
        msg::compare_policy(lang),
        msg::sim_peak_reserved(lang),
        msg::sim_peak_live(lang),
        msg::sim_reserved_to_live(lang),
    ];
    let bold = ("sans-serif", 13).into_font().style(FontStyle::Bold);
    for (x, h) in columns.iter().zip(header) {
        area.draw(&Text::new(h, (*x, 8), bold.clone()))?;
    }
    area.draw(&PathElement::new(
        vec![(16, 8 + ROW as i32 - 4), (720, 8 + ROW as i32 - 4)],
        BLACK.mix(0.4).stroke_width(1),
    ))?;
    for (k, r) in replays.iter().enumerate() {
        let s = SimSummary::new(r.config.policy, r);
        let y = 8 + ROW as i32 * (k as i32 + 1);
        let colour = COLOURS[k % COLOURS.len()];
        area.draw(&Rectangle::new(
            [(columns[0], y + 2), (columns[0] + 10, y + 12)],
            colour.mix(0.6).filled(),
        ))?;
        let cells = [
            s.policy.to_string(),
            human_bytes(s.peak_reserved_bytes),
            human_bytes(s.peak_live_bytes),
            format!("{:.3}", s.reserved_to_live),
        ];
        for (i, (x, c)) in columns.iter().zip(cells).enumerate() {
            let x = if i == 0 { x + 16 } else { *x };
            area.draw(&Text::new(c, (x, y), ("sans-serif", 13).into_font()))?;
        }
    }
    Ok(())
}
