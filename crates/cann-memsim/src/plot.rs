//! The chart of `cannctl mem compare --plot`: reserved (thick) and live
//! (thin, pale) bytes over the trace, one colour per policy, as SVG. plotters'
//! SVG backend writes text as `<text>` elements, so no system fonts are needed.

use plotters::prelude::*;

use super::error::MemsimError;
use super::replay::{Replay, Sample};

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

fn unit(max: u64) -> (f64, &'static str) {
    match max {
        m if m >= 1 << 30 => ((1u64 << 30) as f64, "GiB"),
        m if m >= 1 << 20 => ((1u64 << 20) as f64, "MiB"),
        m if m >= 1 << 10 => (1024.0, "KiB"),
        _ => (1.0, "bytes"),
    }
}

/// Renders the replays of one trace as an SVG document.
pub fn render_svg(title: &str, events: usize, replays: &[Replay]) -> Result<String, MemsimError> {
    let err = |e: &dyn std::fmt::Display| MemsimError::Plot(e.to_string());
    let max = replays
        .iter()
        .flat_map(|r| r.timeline.iter().map(|s| s.reserved.max(s.live)))
        .max()
        .unwrap_or(0);
    let (scale, unit_name) = unit(max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 540)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(
                0f64..(events.max(1) as f64),
                0f64..(max as f64 / scale * 1.05).max(1.0),
            )
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("trace event")
            .y_desc(format!("bytes ({unit_name})"))
            .draw()
            .map_err(|e| err(&e))?;
        for (k, r) in replays.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let code = r.config.policy.code();
            let scaled = |pts: Vec<(f64, f64)>| pts.into_iter().map(move |(x, y)| (x, y / scale));
            chart
                .draw_series(LineSeries::new(
                    scaled(curve(&r.timeline, events, |s| s.reserved)),
                    colour.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(format!("policy {code} reserved"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(LineSeries::new(
                    scaled(curve(&r.timeline, events, |s| s.live)),
                    colour.mix(0.45).stroke_width(1),
                ))
                .map_err(|e| err(&e))?
                .label(format!("policy {code} live"))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.mix(0.45).stroke_width(1))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    Ok(svg)
}
