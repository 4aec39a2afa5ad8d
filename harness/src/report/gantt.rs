//! Gantt charts of a schedule on numbered nodes (SVG, plotters' backend): time across, nodes
//! up, one rectangle per run of a job over each range of nodes it held, and above it the
//! utilisation over time.
//!
//! # Reading it
//! - The upper panel is the busy fraction of the nodes, averaged exactly over each of
//!   [`BINS`] equal time bins (the integral of busy nodes over the bin, divided by the nodes
//!   and the bin's length): it summarises any number of runs.
//! - The lower panel draws every run when there are at most [`MAX_RUNS`] of them; a run stopped
//!   before its job was done (a failure interrupted it, or the lease was suspended) is grey. With more runs, one rectangle each would be
//!   thinner than a pixel, so the chart has the upper panel only and says so in its title.
//! - Each job has its own hue, so neighbours differ; colours carry no other meaning.
//! - Time is in seconds, hours or days from the first run's start, whichever keeps the axis's
//!   numbers between about 1 and 1,000.

use std::ops::Range;

use anyhow::{Result, anyhow};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Runs drawn one by one at most.
pub const MAX_RUNS: usize = 1000;
/// Time bins of the utilisation panel.
pub const BINS: usize = 400;

const WIDTH: u32 = 1000;
/// A title's line height and a character's width at most, pixels (16 px sans-serif).
const TITLE_LINE_PX: u32 = 20;
const TITLE_CHAR_PX: u32 = 9;
const UTILISATION_H: u32 = 200;
const GANTT_H: u32 = 480;

/// One run of a job on its nodes.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// The job's index (its colour).
    pub job: usize,
    /// Start and end, seconds.
    pub start: f64,
    /// End, seconds (`>= start`).
    pub end: f64,
    /// The nodes held, ranges `[first, last + 1)`.
    pub nodes: &'a [Range<u32>],
    /// Whether it was stopped before its job was done (a failure, a suspension).
    pub interrupted: bool,
}

/// The unit the time axis is shown in: (name, seconds per unit).
fn time_unit(span: f64) -> (&'static str, f64) {
    if span >= 3.0 * 86_400.0 {
        ("days", 86_400.0)
    } else if span >= 3.0 * 3_600.0 {
        ("h", 3_600.0)
    } else {
        ("s", 1.0)
    }
}

/// Job `job`'s colour: hues a golden angle apart, so that neighbours differ, at one
/// saturation and lightness, so that no job is grey (the colour of an interrupted run).
fn job_colour(job: usize) -> HSLColor {
    const GOLDEN: f64 = 0.618_033_988_749_895;
    HSLColor((job as f64 * GOLDEN).fract(), 0.65, 0.55)
}

/// The busy fraction of `nodes` nodes in each of `bins` equal bins of `[t0, t1)`.
pub fn utilisation(runs: &[Run], nodes: u32, t0: f64, t1: f64, bins: usize) -> Vec<f64> {
    let mut busy = vec![0.0; bins];
    let width = (t1 - t0) / bins as f64;
    if width <= 0.0 || nodes == 0 {
        return busy;
    }
    for r in runs {
        let held: u32 = r.nodes.iter().map(|n| n.end - n.start).sum();
        let first = (((r.start - t0) / width).floor().max(0.0) as usize).min(bins - 1);
        let last = (((r.end - t0) / width).ceil().max(0.0) as usize).min(bins);
        for (b, slot) in busy.iter_mut().enumerate().take(last).skip(first) {
            let lo = t0 + b as f64 * width;
            let overlap = r.end.min(lo + width) - r.start.max(lo);
            if overlap > 0.0 {
                *slot += overlap * f64::from(held);
            }
        }
    }
    busy.iter()
        .map(|a| a / (width * f64::from(nodes)))
        .collect()
}

/// The Gantt chart of `runs` on `nodes` nodes, titled `title`, as an SVG document
/// ([module doc](self)).
///
/// Errors: a drawing failure.
pub fn svg(title: &str, runs: &[Run], nodes: u32) -> Result<String> {
    let t0 = runs.iter().map(|r| r.start).fold(f64::INFINITY, f64::min);
    let t1 = runs.iter().map(|r| r.end).fold(f64::NEG_INFINITY, f64::max);
    let (t0, t1) = if t0 < t1 { (t0, t1) } else { (0.0, 1.0) };
    let (unit, per) = time_unit(t1 - t0);
    let drawn = runs.len() <= MAX_RUNS;
    let title = if drawn {
        format!("{title}: {} runs on {nodes} nodes", runs.len())
    } else {
        format!(
            "{title}: {} runs on {nodes} nodes (more than {MAX_RUNS}: utilisation only)",
            runs.len()
        )
    };
    // The title wrapped to the width, never clipped.
    let lines = super::svg::wrap(&title, ((WIDTH - 40) / TITLE_CHAR_PX) as usize);
    let title_h = 8 + TITLE_LINE_PX * lines.len() as u32;
    let height = title_h + UTILISATION_H + if drawn { GANTT_H } else { 0 } + 16;
    let fail = |e: &dyn std::fmt::Display| anyhow!("drawing the Gantt chart: {e}");
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let style =
            TextStyle::from(("sans-serif", 16).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        for (i, line) in lines.iter().enumerate() {
            let y = 6 + TITLE_LINE_PX * i as u32;
            root.draw(&Text::new(
                line.as_str(),
                ((WIDTH / 2) as i32, y as i32),
                &style,
            ))
            .map_err(|e| fail(&e))?;
        }
        let (_, root) = root.split_vertically(title_h);
        let (upper, lower) = root.split_vertically(UTILISATION_H);
        let x = 0.0..(t1 - t0) / per;
        // Whole units on a long axis, one decimal on a short one: one format per chart.
        let decimals = if x.end >= 10.0 { 0 } else { 1 };
        let x_label = |v: &f64| format!("{v:.decimals$}");

        let shares = utilisation(runs, nodes, t0, t1, BINS);
        let mut chart = ChartBuilder::on(&upper)
            .margin(8)
            .x_label_area_size(if drawn { 8 } else { 36 })
            .y_label_area_size(60)
            .build_cartesian_2d(x.clone(), 0.0..1.0)
            .map_err(|e| fail(&e))?;
        let mut mesh = chart.configure_mesh();
        mesh.y_desc("busy nodes, fraction").disable_x_mesh();
        if drawn {
            mesh.disable_x_axis();
        } else {
            mesh.x_desc(format!("time from the first start, {unit}"))
                .x_label_formatter(&x_label);
        }
        mesh.draw().map_err(|e| fail(&e))?;
        let bin = (t1 - t0) / per / BINS as f64;
        let steps = shares
            .iter()
            .enumerate()
            .flat_map(|(b, &u)| [(b as f64 * bin, u), ((b + 1) as f64 * bin, u)]);
        chart
            .draw_series(AreaSeries::new(steps, 0.0, BLUE.mix(0.3)).border_style(BLUE))
            .map_err(|e| fail(&e))?;

        if drawn {
            let mut chart = ChartBuilder::on(&lower)
                .margin(8)
                .x_label_area_size(36)
                .y_label_area_size(60)
                .build_cartesian_2d(x, 0.0..f64::from(nodes.max(1)))
                .map_err(|e| fail(&e))?;
            chart
                .configure_mesh()
                .x_desc(format!("time from the first start, {unit}"))
                .x_label_formatter(&x_label)
                .y_desc("node")
                .y_label_formatter(&|v| format!("{v:.0}"))
                .disable_mesh()
                .draw()
                .map_err(|e| fail(&e))?;
            let rects = runs.iter().flat_map(|r| {
                let colour = if r.interrupted {
                    RGBColor(160, 160, 160).filled()
                } else {
                    job_colour(r.job).filled()
                };
                r.nodes.iter().map(move |n| {
                    Rectangle::new(
                        [
                            ((r.start - t0) / per, f64::from(n.start)),
                            ((r.end - t0) / per, f64::from(n.end)),
                        ],
                        colour,
                    )
                })
            });
            chart.draw_series(rects).map_err(|e| fail(&e))?;
        }
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilisation_is_the_exact_busy_fraction_per_bin() {
        let nodes = [Range { start: 0, end: 2 }];
        let runs = [Run {
            job: 0,
            start: 1.0,
            end: 3.0,
            nodes: &nodes,
            interrupted: false,
        }];
        // Bins of 1 s over [0, 4): 2 of 4 nodes busy in bins 1 and 2.
        assert_eq!(utilisation(&runs, 4, 0.0, 4.0, 4), [0.0, 0.5, 0.5, 0.0]);
        // Bins of 2 s: half of each.
        assert_eq!(utilisation(&runs, 4, 0.0, 4.0, 2), [0.25, 0.25]);
    }

    #[test]
    fn a_chart_draws_each_range_of_each_run() {
        let a = [0..2, 3..4];
        let b = [Range { start: 2, end: 3 }];
        let runs = [
            Run {
                job: 0,
                start: 0.0,
                end: 10.0,
                nodes: &a,
                interrupted: false,
            },
            Run {
                job: 1,
                start: 5.0,
                end: 8.0,
                nodes: &b,
                interrupted: true,
            },
        ];
        let svg = svg("t", &runs, 4).unwrap();
        assert!(svg.contains("t: 2 runs on 4 nodes"));
        // Three node ranges drawn: the same runs holding no nodes draw three rectangles fewer.
        let none = runs.clone().map(|r| Run { nodes: &[], ..r });
        let rects = |s: &str| s.matches("<rect").count();
        assert_eq!(rects(&svg), rects(&super::svg("t", &none, 4).unwrap()) + 3);
        // The interrupted run is grey.
        assert!(svg.contains("#A0A0A0"));
    }

    /// A long title is wrapped onto lines that fit the width, every word kept.
    #[test]
    fn a_long_title_is_wrapped_not_clipped() {
        let title = "word ".repeat(60);
        let svg = svg(title.trim(), &[], 4).unwrap();
        // Each <text> element's content.
        let lines: Vec<&str> = svg
            .split("<text")
            .skip(1)
            .filter_map(|t| t.split_once('>')?.1.split("</text>").next())
            .map(str::trim)
            .filter(|t| t.starts_with("word"))
            .collect();
        assert!(lines.len() >= 3, "{lines:?}");
        let words: usize = lines.iter().map(|l| l.matches("word").count()).sum();
        assert_eq!(words, 60);
        for l in &lines {
            assert!(
                l.chars().count() <= ((WIDTH - 40) / TITLE_CHAR_PX) as usize,
                "{l}"
            );
        }
    }
}
