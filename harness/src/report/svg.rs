//! SVG figures (plotters' SVG backend): grouped bars for categorical groups, lines with
//! confidence bands over a numeric axis.
//!
//! A [`Figure`] is a set of groups (for example "GB 1093") and, within each group, one value
//! per series (for example one per user). Where the groups are categories
//! ([`Figure::x_values`] is `None`), each group is a cluster of bars, one per series, the height
//! the estimate's mean and a whisker its 95 % confidence interval (none with one replication).
//! Where the groups are points of a numeric axis, each series is a line through its means, with
//! a marker at each and a shaded band between the intervals' ends; a missing value breaks the
//! line. The legend is a row above the plot, so it never hides data; bar labels are staggered on
//! two rows when they would overlap.
//!
//! Axes: the x axis is described by [`Figure::x_label`] and the y axis by [`Figure::y_label`],
//! each with its unit. An axis whose values are all positive and span two decades or more
//! (largest / smallest >= 100) is logarithmic, and its description says so; any other is
//! linear, and a y axis then starts at 0 (or below, for negative values).
//!
//! The SVG names its fonts (`sans-serif`) rather than embedding them, so its text layout is an
//! estimate: generous margins keep labels apart in any common font.

use anyhow::{Result, anyhow, ensure};
use plotters::coord::Shift;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::figure::Figure;
use super::stats::Estimate;

/// Pixels per bar; a group is as wide as its bars plus one bar of gap.
const BAR_PX: u32 = 14;
/// Estimated width of a character of the 13 px label font, pixels.
const CHAR_PX: u32 = 7;
/// Height of a line of the label font, pixels.
const LINE_PX: u32 = 16;
/// An axis is logarithmic when its positive values span at least this ratio (two decades).
const LOG_SPAN: f64 = 100.0;

/// How one axis maps values.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scale {
    /// Linear from the first value to the second.
    Linear(f64, f64),
    /// Logarithmic (base 10) from the first value to the second, both positive.
    Log(f64, f64),
}

impl Scale {
    /// The scale of an axis showing `values` (non-finite ones ignored): logarithmic if they are
    /// all positive and span [`LOG_SPAN`] or more, else linear; a linear axis includes 0 if
    /// `from_zero`. Both ends are padded a little beyond the values.
    fn of(values: impl IntoIterator<Item = f64>, from_zero: bool) -> Self {
        let (lo, hi) = values
            .into_iter()
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        if lo > hi {
            return Scale::Linear(0.0, 1.0);
        }
        if lo > 0.0 && hi / lo >= LOG_SPAN {
            return Scale::Log(lo / 1.3, hi * 1.3);
        }
        let (lo, hi) = if from_zero {
            (lo.min(0.0), hi.max(0.0))
        } else {
            (lo, hi)
        };
        if hi > lo {
            let pad = 0.06 * (hi - lo);
            let below = if from_zero && lo >= 0.0 { 0.0 } else { pad };
            Scale::Linear(lo - below, hi + pad)
        } else {
            Scale::Linear(lo - 0.5, lo + 0.5)
        }
    }

    /// The lowest value on the axis.
    fn low(self) -> f64 {
        match self {
            Scale::Linear(lo, _) | Scale::Log(lo, _) => lo,
        }
    }

    /// Whether the scale is logarithmic.
    fn is_log(self) -> bool {
        matches!(self, Scale::Log(..))
    }
}

/// An axis description, marked when the axis is logarithmic.
fn describe(desc: &str, log: bool) -> String {
    if log {
        format!("{desc} (log scale)")
    } else {
        desc.to_owned()
    }
}

/// The figure as an SVG document.
///
/// Errors: a series whose value count differs from the group count, x values of another count
/// or not finite, or a drawing failure.
pub fn svg(fig: &Figure) -> Result<String> {
    check(fig)?;
    let groups = fig.groups.len();
    let per_group = fig.series.len().max(1) as u32 + 1;
    // Categorical groups: each as wide as its bars, its longest word, and a fifth of its label
    // (so a label wraps onto at most about five lines).
    let labels: Vec<Vec<String>> = match fig.x_values {
        Some(_) => Vec::new(),
        None => {
            let words = |g: &String| g.split_whitespace().map(|w| w.chars().count()).max();
            let longest_word = fig.groups.iter().filter_map(words).max().unwrap_or(0) as u32;
            let longest = fig.groups.iter().map(|g| g.chars().count()).max();
            let fifth = (longest.unwrap_or(0) as u32).div_ceil(5);
            let group_w = (per_group * BAR_PX).max((longest_word.max(fifth)) * CHAR_PX + 8);
            let chars = ((group_w - 8) / CHAR_PX) as usize;
            fig.groups.iter().map(|g| wrap(g, chars)).collect()
        }
    };
    let label_lines = labels.iter().map(Vec::len).max().unwrap_or(1) as u32;
    let group_w = match fig.x_values {
        Some(_) => 0,
        None => {
            let widest = labels.iter().flatten().map(|l| l.chars().count()).max();
            (per_group * BAR_PX).max(widest.unwrap_or(0) as u32 * CHAR_PX + 8)
        }
    };
    let plot_w = (groups as u32 * group_w).max(560);
    let legend_chars: u32 = fig
        .series
        .iter()
        .map(|name| name.chars().count() as u32 + 5)
        .sum();
    let width = (plot_w + 110).max(legend_chars * CHAR_PX + 40);
    let legend_rows = (legend_chars * CHAR_PX).div_ceil(width - 40).max(1);
    let legend_h = 22 * legend_rows + 8;
    let label_h = LINE_PX * label_lines + 12;
    // Tall enough for the y axis's description along it.
    let plot_h = 380.max(fig.y_label.chars().count() as u32 * CHAR_PX + 80);
    let height = plot_h + legend_h + label_h;

    let estimates = || fig.values.iter().flat_map(|s| s.iter().flatten());
    let y = Scale::of(estimates().map(|e| e.mean), true);
    let y = match y {
        // The intervals' tops widen a log axis; their bottoms are clipped at its bottom.
        Scale::Log(lo, hi) => {
            Scale::Log(lo, estimates().map(|e| e.high() * 1.1).fold(hi, f64::max))
        }
        // Intervals widen a linear axis, but below 0 only where a mean is negative: a
        // quantity that cannot be negative keeps 0 at the bottom, its intervals clipped there.
        Scale::Linear(..) => {
            let negative = estimates().any(|e| e.mean < 0.0);
            Scale::of(
                estimates().flat_map(|e| [e.mean, e.high(), if negative { e.low() } else { 0.0 }]),
                true,
            )
        }
    };
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(fig, e))?;
        let (top, rest) = root.split_vertically(34 + legend_h);
        header(fig, &top, width)?;
        let rest = rest.margin(6, 0, 10, 20);
        let area = Area {
            fig,
            root: &root,
            rest: &rest,
            label_h,
            labels: &labels,
            y,
        };
        let linear = |lo: f64, hi: f64| RangedCoordf64::from(lo..hi);
        let log = |lo: f64, hi: f64| LogCoord::from((lo..hi).log_scale());
        match &fig.x_values {
            None => {
                let x = linear(-0.5, groups as f64 - 0.5);
                match y {
                    Scale::Linear(a, b) => area.draw(x, linear(a, b))?,
                    Scale::Log(a, b) => area.draw(x, log(a, b))?,
                }
            }
            Some(xs) => {
                let x = Scale::of(xs.iter().copied(), false);
                let logs = (x.is_log(), y.is_log());
                match (x, y) {
                    (Scale::Linear(a, b), Scale::Linear(c, d)) => {
                        area.draw_lines(linear(a, b), linear(c, d), logs)?
                    }
                    (Scale::Linear(a, b), Scale::Log(c, d)) => {
                        area.draw_lines(linear(a, b), log(c, d), logs)?
                    }
                    (Scale::Log(a, b), Scale::Linear(c, d)) => {
                        area.draw_lines(log(a, b), linear(c, d), logs)?
                    }
                    (Scale::Log(a, b), Scale::Log(c, d)) => {
                        area.draw_lines(log(a, b), log(c, d), logs)?
                    }
                }
            }
        }
        root.present().map_err(|e| failed(fig, e))?;
    }
    Ok(buf)
}

/// The figure's shape: a value per (series, group), an x value per group if any, all finite.
fn check(fig: &Figure) -> Result<()> {
    let groups = fig.groups.len();
    ensure!(groups > 0, "figure {:?} has no group", fig.title);
    ensure!(
        fig.values.len() == fig.series.len(),
        "figure {:?} has {} series of values for {} series names",
        fig.title,
        fig.values.len(),
        fig.series.len()
    );
    for (name, values) in fig.series.iter().zip(&fig.values) {
        ensure!(
            values.len() == groups,
            "series {name:?} of figure {:?} has {} values for {groups} groups",
            fig.title,
            values.len()
        );
    }
    if let Some(xs) = &fig.x_values {
        ensure!(
            xs.len() == groups && xs.iter().all(|x| x.is_finite()),
            "figure {:?} has {} x values for {groups} groups, or one that is not a number",
            fig.title,
            xs.len()
        );
    }
    Ok(())
}

/// A drawing failure, named by the figure.
fn failed<E: std::fmt::Debug + std::error::Error + Send + Sync>(
    fig: &Figure,
    e: DrawingAreaErrorKind<E>,
) -> anyhow::Error {
    anyhow!("drawing {:?}: {e}", fig.title)
}

/// The title and the legend: a swatch and a label per series, left to right, wrapping.
fn header(fig: &Figure, top: &DrawingArea<SVGBackend<'_>, Shift>, width: u32) -> Result<()> {
    top.draw(&Text::new(
        fig.title.clone(),
        (width as i32 / 2, 8),
        ("sans-serif", 17)
            .into_font()
            .style(FontStyle::Bold)
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(|e| failed(fig, e))?;
    let (mut x, mut y) = (20i32, 40i32);
    for (i, name) in fig.series.iter().enumerate() {
        let w = (name.chars().count() as i32 + 5) * CHAR_PX as i32;
        if x > 20 && x + w > width as i32 - 20 {
            x = 20;
            y += 22;
        }
        top.draw(&Rectangle::new(
            [(x, y), (x + 12, y + 12)],
            color(i).filled(),
        ))
        .map_err(|e| failed(fig, e))?;
        top.draw(&Text::new(
            name.clone(),
            (x + 18, y),
            ("sans-serif", 13).into_font().color(&BLACK),
        ))
        .map_err(|e| failed(fig, e))?;
        x += w;
    }
    Ok(())
}

/// Where the plot goes.
struct Area<'a, 'b> {
    fig: &'a Figure,
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    /// Below the title and legend.
    rest: &'a DrawingArea<SVGBackend<'b>, Shift>,
    /// Pixels under the x axis for the group labels.
    label_h: u32,
    /// Each categorical group's label, wrapped into lines.
    labels: &'a [Vec<String>],
    /// The y axis.
    y: Scale,
}

/// A chart over any pair of f64 axes, linear or logarithmic.
type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

impl<'b> Area<'_, 'b> {
    /// The axes, their descriptions (log scales marked) and the grid; x tick labels only on a
    /// numeric x axis.
    fn chart<X, Y>(&self, x: X, y: Y, logs: (bool, bool)) -> Result<Chart<'_, 'b, X, Y>>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let fig = self.fig;
        let numeric = fig.x_values.is_some();
        let mut chart = ChartBuilder::on(self.rest)
            .x_label_area_size(self.label_h + 20)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)
            .map_err(|e| failed(fig, e))?;
        let (x_desc, y_desc) = (
            describe(&fig.x_label, logs.0),
            describe(&fig.y_label, logs.1),
        );
        let mut mesh = chart.configure_mesh();
        if numeric {
            mesh.x_labels(10).x_label_formatter(&|v| tick(*v));
        } else {
            mesh.disable_x_mesh().x_labels(0);
        }
        mesh.y_labels(8)
            .y_label_formatter(&|v| tick(*v))
            .y_desc(y_desc.as_str())
            .x_desc(x_desc.as_str())
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(|e| failed(fig, e))?;
        Ok(chart)
    }

    /// Grouped bars with whiskers over categorical groups, labelled under the axis.
    fn draw<Y>(&self, x: RangedCoordf64, y: Y) -> Result<()>
    where
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let fig = self.fig;
        let mut chart = self.chart(x, y, (false, self.y.is_log()))?;
        let base = match self.y {
            Scale::Linear(..) => 0.0f64.max(self.y.low()),
            Scale::Log(..) => self.y.low(),
        };
        let low = |e: &Estimate| e.low().max(self.y.low());
        let slot = 1.0 / (fig.series.len() as f64 + 1.0);
        for (i, values) in fig.values.iter().enumerate() {
            let c = color(i);
            for (g, v) in values.iter().enumerate() {
                let Some(e) = v else { continue };
                let left = g as f64 - 0.5 + slot * (0.5 + i as f64);
                let mid = left + slot / 2.0;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(left, base), (left + slot, e.mean)],
                        c.filled(),
                    )))
                    .map_err(|e| failed(fig, e))?;
                if has_interval(e) {
                    let cap = slot / 4.0;
                    let whisker = [
                        vec![(mid, low(e)), (mid, e.high())],
                        vec![(mid - cap, low(e)), (mid + cap, low(e))],
                        vec![(mid - cap, e.high()), (mid + cap, e.high())],
                    ];
                    chart
                        .draw_series(
                            whisker
                                .into_iter()
                                .map(|p| PathElement::new(p, BLACK.stroke_width(1))),
                        )
                        .map_err(|e| failed(fig, e))?;
                }
            }
        }
        // Group labels under the axis, centred on their group, a line under another.
        for (g, lines) in self.labels.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(g as f64, self.y.low()));
            for (i, line) in lines.iter().enumerate() {
                self.root
                    .draw(&Text::new(
                        line.clone(),
                        (px, py + 6 + (i as u32 * LINE_PX) as i32),
                        ("sans-serif", 13)
                            .into_font()
                            .color(&BLACK)
                            .pos(Pos::new(HPos::Center, VPos::Top)),
                    ))
                    .map_err(|e| failed(fig, e))?;
            }
        }
        Ok(())
    }

    /// One line per series over the numeric x axis: a band over the intervals, the means joined,
    /// a marker at each mean; a missing value breaks the line.
    fn draw_lines<X, Y>(&self, x: X, y: Y, logs: (bool, bool)) -> Result<()>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let fig = self.fig;
        let xs = fig.x_values.as_deref().unwrap_or_default();
        let mut chart = self.chart(x, y, logs)?;
        let low = |e: &Estimate| e.low().max(self.y.low());
        for (i, values) in fig.values.iter().enumerate() {
            let c = color(i);
            // Runs of consecutive defined points, in x order.
            let mut order: Vec<usize> = (0..xs.len()).collect();
            order.sort_by(|&a, &b| xs[a].total_cmp(&xs[b]));
            let mut runs: Vec<Vec<(f64, Estimate)>> = vec![Vec::new()];
            for g in order {
                match (values[g], runs.last_mut()) {
                    (Some(e), Some(run)) => run.push((xs[g], e)),
                    (None, Some(run)) if !run.is_empty() => runs.push(Vec::new()),
                    _ => {}
                }
            }
            for run in runs.iter().filter(|r| !r.is_empty()) {
                if run.iter().any(|(_, e)| has_interval(e)) {
                    let band: Vec<(f64, f64)> = run
                        .iter()
                        .map(|(x, e)| (*x, low(e)))
                        .chain(run.iter().rev().map(|(x, e)| (*x, e.high())))
                        .collect();
                    chart
                        .draw_series(std::iter::once(Polygon::new(band, c.mix(0.2).filled())))
                        .map_err(|e| failed(fig, e))?;
                }
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        run.iter().map(|(x, e)| (*x, e.mean)).collect::<Vec<_>>(),
                        c.stroke_width(2),
                    )))
                    .map_err(|e| failed(fig, e))?;
                chart
                    .draw_series(
                        run.iter()
                            .map(|(x, e)| Circle::new((*x, e.mean), 3, c.filled())),
                    )
                    .map_err(|e| failed(fig, e))?;
            }
        }
        Ok(())
    }
}

/// `text` word-wrapped into lines of at most `chars` characters (a longer word gets a line of
/// its own).
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= chars => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// Whether `e` has an interval wider than nothing to draw.
fn has_interval(e: &Estimate) -> bool {
    e.half_width.is_some_and(|h| h > 0.0)
}

/// A tick label: `v` with at most four significant decimals, trailing zeros dropped
/// (`1093`, `0.25`, `1e-5`).
fn tick(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        return format!("{v:e}");
    }
    let decimals = if a >= 100.0 {
        0
    } else if a >= 1.0 {
        2
    } else {
        4
    };
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        s
    };
    if s == "-0" { "0".to_owned() } else { s }
}

/// The colour of series `i`: a fixed, colour-blind-friendly cycle (Okabe-Ito).
fn color(i: usize) -> RGBColor {
    const OKABE_ITO: [RGBColor; 8] = [
        RGBColor(0, 114, 178),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(86, 180, 233),
        RGBColor(213, 94, 0),
        RGBColor(240, 228, 66),
        RGBColor(0, 0, 0),
    ];
    OKABE_ITO[i % OKABE_ITO.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Ticks;

    fn est(mean: f64, half: Option<f64>) -> Option<Estimate> {
        Some(Estimate {
            mean,
            half_width: half,
            n: 2,
        })
    }

    fn bars() -> Figure {
        Figure::bars("misses", "Deadline misses")
            .groups("scenario", ["GB 1093", "BE 1093"])
            .y("missed, %")
            .series("U1", [est(0.0, Some(0.0)), est(40.0, Some(5.0))])
            .series("U4", [None, est(10.0, None)])
    }

    #[test]
    fn figure_has_its_title_labels_bars_and_whiskers() {
        let fig = bars();
        let s = svg(&fig).unwrap();
        assert!(s.starts_with("<svg"));
        for text in [
            "Deadline misses",
            "GB",
            "1093",
            "BE",
            "U1",
            "U4",
            "missed, %",
        ] {
            assert!(s.contains(text), "{text} missing");
        }
        assert!(!s.contains("log scale"));
        // One whisker (three strokes) for the only non-zero interval.
        let mut plain = fig.clone();
        plain.values[0][1] = est(40.0, None);
        let strokes = |s: &str| s.matches("<polyline").count();
        assert_eq!(strokes(&s), strokes(&svg(&plain).unwrap()) + 3);
    }

    #[test]
    fn numeric_groups_are_lines_with_bands_and_decades_a_log_axis() {
        let fig = Figure::lines("misses", "Deadline misses")
            .x("load, tasks/s", [1.0, 10.0, 1000.0], Ticks::Plain)
            .y("delay, s")
            .series(
                "U1",
                [est(2.0, Some(0.5)), est(3.0, Some(0.5)), est(4.0, None)],
            )
            .series("U4", [est(1.0, None), None, est(900.0, None)]);
        let s = svg(&fig).unwrap();
        // Both axes span two decades or more: both logarithmic, and marked.
        assert!(s.contains("load, tasks/s (log scale)"), "{s}");
        assert!(s.contains("delay, s (log scale)"), "{s}");
        // One band (series U1: two intervals), a marker per defined value, no bars.
        assert_eq!(s.matches("<polygon").count(), 1);
        assert_eq!(s.matches("<circle").count(), 5);
        // U4's missing middle value breaks its line: U1's line and U4's two single points.
        let lines = s.matches("<polyline").count();
        let mut joined = fig.clone();
        joined.values[1][1] = est(5.0, None);
        assert_eq!(
            svg(&joined).unwrap().matches("<polyline").count(),
            lines - 1
        );
        // Without intervals, no band; within a decade, linear axes.
        let mut narrow = fig.clone();
        narrow.x_values = Some(vec![1.0, 2.0, 3.0]);
        narrow.values = vec![vec![est(2.0, None), est(3.0, None), est(4.0, None)]; 2];
        let s = svg(&narrow).unwrap();
        assert!(!s.contains("log scale") && !s.contains("<polygon"), "{s}");
    }

    #[test]
    fn scales_are_logarithmic_only_for_positive_values_spanning_two_decades() {
        assert!(matches!(Scale::of([1.0, 100.0], true), Scale::Log(..)));
        assert!(matches!(Scale::of([1.0, 99.0], true), Scale::Linear(..)));
        assert!(matches!(
            Scale::of([0.0, 1.0, 1e6], true),
            Scale::Linear(..)
        ));
        assert!(matches!(Scale::of([-1.0, 1e6], true), Scale::Linear(..)));
        // A linear axis from zero starts at 0 for non-negative values, below it otherwise.
        assert_eq!(Scale::of([2.0, 5.0], true).low(), 0.0);
        assert!(Scale::of([-2.0, 5.0], true).low() < -2.0);
        assert!(Scale::of([2.0, 5.0], false).low() > 1.0);
        assert_eq!(Scale::of([f64::NAN], true), Scale::Linear(0.0, 1.0));
    }

    #[test]
    fn ticks_and_labels_read_plainly() {
        assert_eq!(tick(1093.0), "1093");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(0.001), "0.001");
        assert_eq!(tick(1e-5), "1e-5");
        assert_eq!(tick(2e6), "2e6");
        assert_eq!(tick(-0.0), "0");
        assert_eq!(
            wrap("mean of the delay of 1 MI", 10),
            ["mean of", "the delay", "of 1 MI"]
        );
        assert_eq!(wrap("unbreakable-word x", 4), ["unbreakable-word", "x"]);
    }

    #[test]
    fn figures_of_the_wrong_shape_are_errors() {
        let fig = Figure::bars("misses", "Deadline misses")
            .groups("scenario", ["a"])
            .series("s", []);
        assert!(svg(&fig).is_err());
        let mut unnamed = fig.clone();
        unnamed.values = vec![vec![None], vec![None]];
        assert!(svg(&unnamed).is_err());
        let mut misplaced = fig;
        misplaced.values = vec![vec![None]];
        misplaced.x_values = Some(vec![1.0, 2.0]);
        assert!(svg(&misplaced).is_err());
    }
}
