//! SVG figures (plotters' SVG backend, with the marks it cannot write added as plain SVG):
//! grouped bars for categorical groups, lines with confidence bands over a numeric axis.
//!
//! A [`Figure`] is a set of groups (for example "GB 1093") and, within each group, one value
//! per series (for example one per user). Where the groups are categories
//! ([`Figure::x_values`] is `None`), each group is a cluster of bars, one per series, the height
//! the estimate's mean and a whisker its 95 % confidence interval (none with one replication).
//! Where the groups are points of a numeric axis, each series is a line through its means, with
//! a marker at each and a shaded band between the intervals' ends. The legend is a row above the
//! plot, so it never hides data; bar labels are staggered on two rows when they would overlap.
//!
//! The rules every figure follows, for a paper's reader:
//!
//! - **Coinciding series stay apart**: each series has its own colour, marker shape and dash
//!   pattern, and a series whose means equal an earlier series' ([`identical_to`]: the same
//!   groups missing, every mean within a relative 1e-9) is labelled "identical to" it.
//! - **The paper's numbers** ([`Figure::paper`]) are drawn as hollow rings in the series'
//!   colour, legend "paper".
//! - **No bars on a log axis**: categories on a logarithmic y axis are drawn as points with
//!   whiskers (the bar drawing takes a linear axis only).
//! - **One tick format per axis** (`TickFormat`): plain with thousands separators and common
//!   decimals while every label is below 1,000,000 (and none but 0 below 0.001), otherwise a
//!   common power of ten stated in the axis description (linear) or powers of ten (log).
//! - **Zero is not missing**: a zero bar is a thick stroke on the baseline; a missing value is
//!   "n/a" among the bars and a gap in a line.
//! - **Titles wrap** to the figure's width.
//! - **Few replications are flagged**: a figure made from fewer replications than its paper is
//!   judged at ([`Figure::few_replications`]) carries a warning under its title, and its
//!   marks ([`Figure::marks`]) follow it.
//!
//! Axes: the x axis is described by [`Figure::x_label`] and the y axis by [`Figure::y_label`],
//! each with its unit. An axis whose values are all positive and span two decades or more
//! (largest / smallest >= 100) is logarithmic, and its description says so; any other is
//! linear, and a y axis then starts at 0 (or below, for negative values).
//!
//! The SVG names its fonts (`sans-serif`) rather than embedding them, so its text layout is an
//! estimate: generous margins keep labels apart in any common font.

use std::cell::RefCell;
use std::fmt::Write as _;

use anyhow::{Context, Result, anyhow, ensure};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{BoldPoints, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::figure::Figure;
use super::stats::Estimate;
use super::table::grouped;

/// Pixels per bar; a group is as wide as its bars plus one bar of gap.
const BAR_PX: u32 = 14;
/// Estimated width of a character of the 13 px label font, pixels.
const CHAR_PX: u32 = 7;
/// Height of a line of the label font, pixels.
const LINE_PX: u32 = 16;
/// Estimated width of a character of the 17 px bold title font, pixels.
const TITLE_CHAR_PX: u32 = 10;
/// Height of a line of the title, pixels.
const TITLE_LINE_PX: i32 = 22;
/// A legend swatch's width, pixels.
const SWATCH_PX: u32 = 26;
/// The widest a figure grows to hold its legend on one row, pixels (beyond, it wraps).
const MAX_LEGEND_PX: u32 = 1000;
/// Two series' means are identical when they differ by at most this fraction of the larger.
const IDENTICAL: f64 = 1e-9;
/// Pixels per character of a warning line (13 px bold), to wrap it.
const WARNING_CHAR_PX: u32 = 8;
/// The colour of the low-replication warning.
const WARNING: RGBColor = RGBColor(179, 38, 30);
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
/// Errors: a series whose value count differs from the group count, paper numbers of another
/// shape, x values of another count or not finite, or a drawing failure.
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
    let legend = legend_entries(fig);
    let legend_w: u32 = legend.iter().map(|e| e.width()).sum();
    // As wide as the plot, or as the legend on one row up to [`MAX_LEGEND_PX`].
    let width = (plot_w + 110).max((legend_w + 40).min(MAX_LEGEND_PX));
    let head = Header::of(fig, &legend, width);
    let label_h = LINE_PX * label_lines + 12;
    // Tall enough for the y axis's description along it.
    let plot_h = 380.max(fig.y_label.chars().count() as u32 * CHAR_PX + 80);
    let height = plot_h + head.height + label_h;

    let estimates = || fig.values.iter().flat_map(|s| s.iter().flatten());
    let printed = || fig.paper.iter().flatten().flatten().flatten().copied();
    let y = Scale::of(estimates().map(|e| e.mean).chain(printed()), true);
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
                estimates()
                    .flat_map(|e| [e.mean, e.high(), if negative { e.low() } else { 0.0 }])
                    .chain(printed()),
                true,
            )
        }
    };
    let overlay = RefCell::new(String::new());
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(fig, e))?;
        let (top, rest) = root.split_vertically(head.height);
        head.draw(fig, &top, &legend, &overlay)?;
        let rest = rest.margin(6, 0, 10, 20);
        let area = Area {
            fig,
            root: &root,
            rest: &rest,
            label_h,
            labels: &labels,
            y,
            overlay: &overlay,
        };
        let linear = |lo: f64, hi: f64| RangedCoordf64::from(lo..hi);
        let log = |lo: f64, hi: f64| LogCoord::from((lo..hi).log_scale());
        match &fig.x_values {
            // Categories: bars on a linear axis; on a logarithmic one, where a bar's length
            // means nothing, points. `bars` takes a linear axis only, so no figure can draw
            // bars on a log axis.
            None => {
                let x = linear(-0.5, groups as f64 - 0.5);
                match y {
                    Scale::Linear(a, b) => area.bars(x, linear(a, b))?,
                    Scale::Log(a, b) => area.points(x, log(a, b))?,
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
    // The marks plotters' SVG cannot write (dash patterns, marker shapes, hollow rings,
    // rotated text), drawn last, over the plot.
    let end = buf.rfind("</svg>").context("plotters wrote no </svg>")?;
    buf.insert_str(end, &overlay.into_inner());
    Ok(buf)
}

/// The figure's shape: a value per (series, group), an x value per group if any, all finite;
/// the paper's numbers, if any, a row per series and a cell per group.
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
    if let Some(paper) = &fig.paper {
        ensure!(
            paper.len() == fig.series.len() && paper.iter().all(|s| s.len() == groups),
            "figure {:?}: the paper's numbers are not a row per series and a cell per group",
            fig.title
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

/// For each series, the earlier series whose points it repeats, if any: the same groups
/// missing and every mean within a relative `IDENTICAL` (1e-9) of the other's (so that two sums of
/// the same numbers in another order still count as equal). A series with no point repeats
/// none.
pub fn identical_to(fig: &Figure) -> Vec<Option<usize>> {
    let same = |a: &[Option<Estimate>], b: &[Option<Estimate>]| {
        a.iter().any(Option::is_some)
            && a.iter().zip(b).all(|(x, y)| match (x, y) {
                (None, None) => true,
                (Some(x), Some(y)) => {
                    x.mean == y.mean
                        || (x.mean - y.mean).abs() <= IDENTICAL * x.mean.abs().max(y.mean.abs())
                }
                _ => false,
            })
    };
    (0..fig.values.len())
        .map(|i| (0..i).find(|&j| same(&fig.values[i], &fig.values[j])))
        .collect()
}

/// One entry of the legend.
struct Entry {
    /// The series drawn, `None` for the paper's numbers.
    series: Option<usize>,
    /// Its label: the series' name, and which earlier series it is identical to.
    label: String,
}

impl Entry {
    /// Pixels along the legend's row: the swatch, the label (with room for a font wider than
    /// [`CHAR_PX`] estimates), a gap.
    fn width(&self) -> u32 {
        (self.label.chars().count() as u32 + 3) * CHAR_PX + SWATCH_PX + 6
    }
}

/// The legend: a label per series (noting "identical to" an earlier one), then "paper" where
/// the figure has the paper's numbers.
fn legend_entries(fig: &Figure) -> Vec<Entry> {
    let same = identical_to(fig);
    let mut entries: Vec<Entry> = fig
        .series
        .iter()
        .enumerate()
        .map(|(i, name)| Entry {
            series: Some(i),
            label: match same[i] {
                Some(j) => format!("{name} (identical to {})", fig.series[j]),
                None => name.clone(),
            },
        })
        .collect();
    if fig.paper.is_some() {
        entries.push(Entry {
            series: None,
            label: "paper".into(),
        });
    }
    entries
}

/// The title (wrapped to the width), the low-replication warning, the marks and the legend.
struct Header {
    /// The title's lines.
    title: Vec<String>,
    /// The warning lines, if any: the low-replication warning, then the figure's marks
    /// wrapped to the width.
    warning: Vec<String>,
    /// Each legend entry's top-left corner.
    places: Vec<(i32, i32)>,
    /// Pixels from the top to the plot.
    height: u32,
}

impl Header {
    /// The header of `fig` with `legend` in a figure `width` pixels wide.
    fn of(fig: &Figure, legend: &[Entry], width: u32) -> Self {
        let title = wrap(&fig.title, ((width - 40) / TITLE_CHAR_PX) as usize);
        let mut y = 8 + TITLE_LINE_PX * title.len() as i32;
        let chars = ((width - 40) / WARNING_CHAR_PX) as usize;
        let warning: Vec<String> = fig
            .warning()
            .into_iter()
            .chain(fig.marks.iter().flat_map(|m| wrap(m, chars)))
            .collect();
        if !warning.is_empty() {
            y += (LINE_PX as i32 + 2) * warning.len() as i32 + 2;
        }
        y += 6;
        let mut places = Vec::new();
        let mut x = 20i32;
        for e in legend {
            let w = e.width() as i32;
            if x > 20 && x + w > width as i32 - 20 {
                x = 20;
                y += 22;
            }
            places.push((x, y));
            x += w;
        }
        Header {
            title,
            warning,
            places,
            height: y as u32 + 22 + 8,
        }
    }

    /// Draws it on `top`, the legend's marks on `overlay`.
    fn draw(
        &self,
        fig: &Figure,
        top: &DrawingArea<SVGBackend<'_>, Shift>,
        legend: &[Entry],
        overlay: &RefCell<String>,
    ) -> Result<()> {
        let width = top.dim_in_pixel().0 as i32;
        // One bold line of `text`, centred, its top at `y`.
        let centred = |text: &str, y: i32, size: u32, colour: &RGBColor| {
            top.draw(&Text::new(
                text.to_owned(),
                (width / 2, y),
                ("sans-serif", size)
                    .into_font()
                    .style(FontStyle::Bold)
                    .color(colour)
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(|e| failed(fig, e))
        };
        for (k, line) in self.title.iter().enumerate() {
            centred(line, 8 + TITLE_LINE_PX * k as i32, 17, &BLACK)?;
        }
        for (k, w) in self.warning.iter().enumerate() {
            centred(
                w,
                8 + TITLE_LINE_PX * self.title.len() as i32 + 2 + (LINE_PX as i32 + 2) * k as i32,
                13,
                &WARNING,
            )?;
        }
        let lines = fig.x_values.is_some();
        let squares = !lines && !self.is_points(fig);
        let mut o = overlay.borrow_mut();
        for (e, &(x, y)) in legend.iter().zip(&self.places) {
            let mid = y + 7;
            // A bar's square is narrower than a line's swatch: its label follows it closely.
            let text_x = match e.series {
                Some(_) if squares => x + 18,
                _ => x + SWATCH_PX as i32 + 6,
            };
            match e.series {
                Some(i) if lines => {
                    o.push_str(&stroke(&[(x, mid), (x + SWATCH_PX as i32, mid)], i));
                    o.push_str(&marker(i, x + SWATCH_PX as i32 / 2, mid));
                }
                Some(i) => {
                    // Bars: a square of the series' colour, and its marker where drawn as points.
                    if !squares {
                        o.push_str(&marker(i, x + SWATCH_PX as i32 / 2, mid));
                    } else {
                        let _ = write!(
                            o,
                            r#"<rect x="{x}" y="{y}" width="12" height="12" fill="{}"/>"#,
                            hex(color(i))
                        );
                    }
                }
                None => o.push_str(&ring(x + SWATCH_PX as i32 / 2, mid, "#333333")),
            }
            let _ = write!(
                o,
                r#"<text x="{text_x}" y="{mid}" font-family="sans-serif" font-size="13" dominant-baseline="middle">{}</text>"#,
                esc(&e.label)
            );
        }
        Ok(())
    }

    /// Whether `fig`'s categories are drawn as points (a log y axis), not bars.
    fn is_points(&self, fig: &Figure) -> bool {
        fig.x_values.is_none() && y_scale_is_log(fig)
    }
}

/// Whether the y axis of `fig` is logarithmic (as [`svg`] decides it).
fn y_scale_is_log(fig: &Figure) -> bool {
    let means = fig
        .values
        .iter()
        .flat_map(|s| s.iter().flatten().map(|e| e.mean));
    let printed = fig.paper.iter().flatten().flatten().flatten().copied();
    Scale::of(means.chain(printed), true).is_log()
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
    /// Raw SVG drawn over the plot.
    overlay: &'a RefCell<String>,
}

/// A chart over any pair of f64 axes, linear or logarithmic.
type Chart<'a, 'b, X, Y> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>;

/// Tick labels per axis (plotters draws its bold key points as labels).
const X_TICKS: usize = 10;
/// Tick labels on the y axis.
const Y_TICKS: usize = 8;

impl<'b> Area<'_, 'b> {
    /// The axes, their descriptions (log scales and common exponents marked) and the grid; x
    /// tick labels only on a numeric x axis. Each axis's labels share one [`TickFormat`].
    fn chart<X, Y>(&self, x: X, y: Y, logs: (bool, bool)) -> Result<Chart<'_, 'b, X, Y>>
    where
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let fig = self.fig;
        let numeric = fig.x_values.is_some();
        let x_format = TickFormat::of(&x.key_points(BoldPoints(X_TICKS)), logs.0);
        let y_format = TickFormat::of(&y.key_points(BoldPoints(Y_TICKS)), logs.1);
        let mut chart = ChartBuilder::on(self.rest)
            .x_label_area_size(self.label_h + 20)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)
            .map_err(|e| failed(fig, e))?;
        let x_desc = describe(&fig.x_label, logs.0) + &x_format.suffix();
        let y_desc = describe(&fig.y_label, logs.1) + &y_format.suffix();
        let x_label = |v: &f64| x_format.label(*v);
        let y_label = |v: &f64| y_format.label(*v);
        let mut mesh = chart.configure_mesh();
        if numeric {
            mesh.x_labels(X_TICKS).x_label_formatter(&x_label);
        } else {
            mesh.disable_x_mesh().x_labels(0);
        }
        mesh.y_labels(Y_TICKS)
            .y_label_formatter(&y_label)
            .y_desc(y_desc.as_str())
            .x_desc(x_desc.as_str())
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(|e| failed(fig, e))?;
        Ok(chart)
    }

    /// Grouped bars with whiskers over categorical groups on a linear y axis: a zero is a thick
    /// stroke on the baseline, a missing value "n/a".
    fn bars(&self, x: RangedCoordf64, y: RangedCoordf64) -> Result<()> {
        let fig = self.fig;
        let mut chart = self.chart(x, y, (false, false))?;
        let base = 0.0f64.max(self.y.low());
        let slot = 1.0 / (fig.series.len() as f64 + 1.0);
        for (i, values) in fig.values.iter().enumerate() {
            for (g, v) in values.iter().enumerate() {
                let left = g as f64 - 0.5 + slot * (0.5 + i as f64);
                let Some(e) = v else {
                    self.missing(&chart, left + slot / 2.0);
                    continue;
                };
                if e.mean == 0.0 {
                    let a = chart.backend_coord(&(left, 0.0));
                    let b = chart.backend_coord(&(left + slot, 0.0));
                    let mut o = self.overlay.borrow_mut();
                    let _ = write!(
                        o,
                        r#"<line class="zero" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="4"/>"#,
                        a.0,
                        a.1 - 2,
                        b.0,
                        b.1 - 2,
                        hex(color(i))
                    );
                } else {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(left, base), (left + slot, e.mean)],
                            color(i).filled(),
                        )))
                        .map_err(|e| failed(fig, e))?;
                }
                self.whisker(&mut chart, left + slot / 2.0, slot, e)?;
            }
        }
        self.paper_marks(&chart, |g, i| g as f64 - 0.5 + slot * (1.0 + i as f64));
        self.group_labels(&chart)
    }

    /// Categorical groups on a logarithmic y axis: a marker per (group, series) at the mean,
    /// with its whisker; a missing value "n/a".
    fn points<Y>(&self, x: RangedCoordf64, y: Y) -> Result<()>
    where
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let fig = self.fig;
        let mut chart = self.chart(x, y, (false, true))?;
        let slot = 1.0 / (fig.series.len() as f64 + 1.0);
        let mid = |g: usize, i: usize| g as f64 - 0.5 + slot * (1.0 + i as f64);
        for (i, values) in fig.values.iter().enumerate() {
            for (g, v) in values.iter().enumerate() {
                let Some(e) = v else {
                    self.missing(&chart, mid(g, i));
                    continue;
                };
                self.whisker(&mut chart, mid(g, i), slot, e)?;
                let (px, py) = chart.backend_coord(&(mid(g, i), e.mean));
                self.overlay.borrow_mut().push_str(&marker(i, px, py));
            }
        }
        self.paper_marks(&chart, mid);
        self.group_labels(&chart)
    }

    /// The 95 % interval of `e` as a whisker at `mid` (none without an interval).
    fn whisker<X, Y>(
        &self,
        chart: &mut Chart<'_, 'b, X, Y>,
        mid: f64,
        slot: f64,
        e: &Estimate,
    ) -> Result<()>
    where
        X: Ranged<ValueType = f64>,
        Y: Ranged<ValueType = f64>,
    {
        if !has_interval(e) {
            return Ok(());
        }
        let low = e.low().max(self.y.low());
        let cap = slot / 4.0;
        let whisker = [
            vec![(mid, low), (mid, e.high())],
            vec![(mid - cap, low), (mid + cap, low)],
            vec![(mid - cap, e.high()), (mid + cap, e.high())],
        ];
        chart
            .draw_series(
                whisker
                    .into_iter()
                    .map(|p| PathElement::new(p, BLACK.stroke_width(1))),
            )
            .map_err(|e| failed(self.fig, e))?;
        Ok(())
    }

    /// "n/a", upright along the axis, where a categorical value at `x` is missing.
    fn missing<X, Y>(&self, chart: &Chart<'_, 'b, X, Y>, x: f64)
    where
        X: Ranged<ValueType = f64>,
        Y: Ranged<ValueType = f64>,
    {
        let (px, py) = chart.backend_coord(&(x, self.y.low()));
        let py = py - 4;
        let _ = write!(
            self.overlay.borrow_mut(),
            r##"<text class="missing" x="{px}" y="{py}" transform="rotate(-90 {px} {py})" font-family="sans-serif" font-size="11" fill="#59636e" dominant-baseline="middle">n/a</text>"##
        );
    }

    /// The paper's numbers as hollow rings, series `i`'s of group `g` at x `at(g, i)`.
    fn paper_marks<X, Y>(&self, chart: &Chart<'_, 'b, X, Y>, at: impl Fn(usize, usize) -> f64)
    where
        X: Ranged<ValueType = f64>,
        Y: Ranged<ValueType = f64>,
    {
        let Some(paper) = &self.fig.paper else {
            return;
        };
        let mut o = self.overlay.borrow_mut();
        for (i, row) in paper.iter().enumerate() {
            for (g, v) in row.iter().enumerate() {
                if let Some(v) = v {
                    let (px, py) = chart.backend_coord(&(at(g, i), *v));
                    o.push_str(&ring(px, py, &hex(color(i))));
                }
            }
        }
    }

    /// Each categorical group's label under the axis, centred on its group, a line under
    /// another.
    fn group_labels<X, Y>(&self, chart: &Chart<'_, 'b, X, Y>) -> Result<()>
    where
        X: Ranged<ValueType = f64>,
        Y: Ranged<ValueType = f64>,
    {
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
                    .map_err(|e| failed(self.fig, e))?;
            }
        }
        Ok(())
    }

    /// One line per series over the numeric x axis: a band over the intervals, the means joined
    /// in the series' dash pattern, its marker at each mean; a missing value breaks the line
    /// (a gap). The paper's numbers as hollow rings.
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
                let points: Vec<(i32, i32)> = run
                    .iter()
                    .map(|(x, e)| chart.backend_coord(&(*x, e.mean)))
                    .collect();
                let mut o = self.overlay.borrow_mut();
                if points.len() > 1 {
                    o.push_str(&stroke(&points, i));
                }
                for &(px, py) in &points {
                    o.push_str(&marker(i, px, py));
                }
            }
        }
        self.paper_marks(&chart, |g, _| xs[g]);
        Ok(())
    }
}

/// How every tick label of one axis is written: one rule for the whole axis, chosen from its
/// labelled values.
///
/// - `Plain`: every value below 1,000,000 and none (but 0) below 0.001: plain, thousands
///   separated, all with the same decimals (`0.5`, `1.0`, `1.5`; `100,000`).
/// - `Scaled`: a linear axis beyond that: every value over a common power of ten, which the
///   axis's description states (`(×10⁶)`), the labels plain (`0.5`, `1.0`).
/// - `Powers`: a logarithmic axis beyond that: every value as a power of ten (`10⁴`, `2×10⁵`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TickFormat {
    /// Plain, with this many decimals.
    Plain(usize),
    /// Over 10 to this power, with this many decimals.
    Scaled(i32, usize),
    /// Powers of ten, the mantissas with this many decimals.
    Powers(usize),
}

impl TickFormat {
    /// The format of an axis labelled at `ticks`, logarithmic if `log`.
    fn of(ticks: &[f64], log: bool) -> Self {
        let finite = || ticks.iter().copied().filter(|v| v.is_finite());
        let big = finite().map(f64::abs).fold(0.0, f64::max);
        // A tick a step's rounding away from 0 (5.6e-17 for 0 on -0.4..0.4) is 0.
        let small = finite()
            .map(f64::abs)
            .filter(|&v| v > 1e-9 * big)
            .fold(f64::INFINITY, f64::min);
        if big < 1e6 && small >= 1e-3 {
            return TickFormat::Plain(decimals(finite()));
        }
        if log {
            TickFormat::Powers(decimals(finite().map(|v| mantissa(v).0)))
        } else {
            let exp = big.log10().floor() as i32;
            TickFormat::Scaled(exp, decimals(finite().map(|v| v / 10f64.powi(exp))))
        }
    }

    /// The label of `v`.
    fn label(self, v: f64) -> String {
        match self {
            TickFormat::Plain(d) => plain(v, d),
            TickFormat::Scaled(exp, d) => plain(v / 10f64.powi(exp), d),
            TickFormat::Powers(d) => {
                if v == 0.0 {
                    return "0".into();
                }
                let (m, exp) = mantissa(v);
                if (m - 1.0).abs() < 1e-9 {
                    format!("10{}", superscript(exp))
                } else {
                    format!("{}×10{}", plain(m, d), superscript(exp))
                }
            }
        }
    }

    /// What the axis description adds: the common power of ten of a `Scaled` axis.
    fn suffix(self) -> String {
        match self {
            TickFormat::Scaled(exp, _) => format!(" (×10{})", superscript(exp)),
            _ => String::new(),
        }
    }
}

/// The fewest decimals (at most 4) that write every one of `values` to 4 decimals.
fn decimals(values: impl Iterator<Item = f64>) -> usize {
    values
        .map(|v| {
            (0..4)
                .find(|&d| {
                    let p = 10f64.powi(d as i32);
                    ((v * p).round() / p - v).abs() <= 1e-9 * v.abs().max(1.0)
                })
                .unwrap_or(4)
        })
        .max()
        .unwrap_or(0)
}

/// `v` (not 0) as a mantissa in [1, 10) and a power of ten.
fn mantissa(v: f64) -> (f64, i32) {
    if v == 0.0 || !v.is_finite() {
        return (v, 0);
    }
    let mut exp = v.abs().log10().floor() as i32;
    let mut m = v / 10f64.powi(exp);
    // Rounding: 9.9999999 is 10, one power up.
    if (m.abs() - 10.0).abs() < 1e-9 {
        m /= 10.0;
        exp += 1;
    }
    (m, exp)
}

/// `v` with `d` decimals, its integer part in thousands separated by commas; never `-0`.
fn plain(v: f64, d: usize) -> String {
    let s = format!("{:.d$}", v.abs());
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let int = grouped(int.parse().unwrap_or(0));
    let zero = s.chars().all(|c| c == '0' || c == '.');
    let sign = if v < 0.0 && !zero { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// `n` in superscript digits (`⁶`, `⁻³`).
fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize],
        })
        .collect()
}

/// `text` word-wrapped into lines of at most `chars` characters (a longer word gets a line of
/// its own).
pub(super) fn wrap(text: &str, chars: usize) -> Vec<String> {
    super::table::wrap(text, chars)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whether `e` has an interval wider than nothing to draw.
fn has_interval(e: &Estimate) -> bool {
    e.half_width.is_some_and(|h| h > 0.0)
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

/// `c` as `#RRGGBB`.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The dash pattern of series `i` (SVG `stroke-dasharray`; empty: solid): six patterns, so
/// coinciding lines stay apart by pattern as well as by colour and marker.
fn dash(i: usize) -> &'static str {
    const DASHES: [&str; 6] = ["", "8 4", "2 3", "12 3 2 3", "5 5", "14 4 4 4"];
    DASHES[i % DASHES.len()]
}

/// Series `i`'s line through `points` (pixels), in its colour and dash pattern.
fn stroke(points: &[(i32, i32)], i: usize) -> String {
    let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let dash = match dash(i) {
        "" => String::new(),
        d => format!(r#" stroke-dasharray="{d}""#),
    };
    format!(
        r#"<polyline class="series" fill="none" stroke="{}" stroke-width="2"{dash} points="{}"/>"#,
        hex(color(i)),
        points.join(" ")
    )
}

/// Series `i`'s marker at `(x, y)` (pixels): one of eight filled shapes (circle, square,
/// triangle up, diamond, triangle down, pentagon, hexagon, star), white-edged.
fn marker(i: usize, x: i32, y: i32) -> String {
    let c = hex(color(i));
    let edge = r#"stroke="white" stroke-width="0.8""#;
    // Corners, first angle (degrees, 0 to the right, clockwise as y points down), radius.
    let (corners, start, r): (usize, f64, f64) = match i % 8 {
        0 => {
            return format!(
                r#"<circle class="marker" cx="{x}" cy="{y}" r="4" fill="{c}" {edge}/>"#
            );
        }
        1 => (4, 45.0, 5.0),
        2 => (3, -90.0, 5.5),
        3 => (4, 0.0, 5.5),
        4 => (3, 90.0, 5.5),
        5 => (5, -90.0, 5.0),
        6 => (6, 0.0, 5.0),
        _ => (10, -90.0, 6.0),
    };
    let star = i % 8 == 7;
    let points: Vec<String> = (0..corners)
        .map(|k| {
            let a = (start + 360.0 * k as f64 / corners as f64).to_radians();
            let r = if star && k % 2 == 1 { r * 0.45 } else { r };
            format!(
                "{:.1},{:.1}",
                x as f64 + r * a.cos(),
                y as f64 + r * a.sin()
            )
        })
        .collect();
    format!(
        r#"<polygon class="marker" points="{}" fill="{c}" {edge}/>"#,
        points.join(" ")
    )
}

/// The paper's number at `(x, y)` (pixels): a hollow ring in `colour`, larger than any
/// series' marker.
fn ring(x: i32, y: i32, colour: &str) -> String {
    format!(
        r#"<circle class="paper" cx="{x}" cy="{y}" r="7" fill="none" stroke="{colour}" stroke-width="2"/>"#
    )
}

/// `s` with XML's special characters escaped.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number after the first `attr="` in `s` (an attribute of the first element with it).
    fn attribute<T: std::str::FromStr>(s: &str, attr: &str) -> T
    where
        T::Err: std::fmt::Debug,
    {
        s.split(&format!("{attr}=\""))
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }
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

    /// The texts of `<text>` elements of `s` (plotters' and the overlay's).
    fn texts(s: &str) -> Vec<String> {
        s.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..];
                Some(body[..body.find("</text>")?].trim().to_owned())
            })
            .collect()
    }

    #[test]
    fn figure_has_its_title_labels_bars_and_whiskers() {
        let fig = bars();
        let s = svg(&fig).unwrap();
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
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
        // One band (series U1: two intervals), a marker per defined value and one per legend
        // entry, no bars.
        assert_eq!(s.matches("<polygon opacity").count(), 1, "{s}");
        assert_eq!(s.matches("class=\"marker\"").count(), 5 + 2);
        // U4's missing middle value breaks its line (a gap): U1's line and U4's two single
        // points, which have no line.
        let lines = |s: &str| s.matches("class=\"series\"").count();
        assert_eq!(lines(&s), 1 + 2, "two legend swatches");
        let mut joined = fig.clone();
        joined.values[1][1] = est(5.0, None);
        assert_eq!(lines(&svg(&joined).unwrap()), 2 + 2);
        // Without intervals, no band; within a decade, linear axes.
        let mut narrow = fig.clone();
        narrow.x_values = Some(vec![1.0, 2.0, 3.0]);
        narrow.values = vec![vec![est(2.0, None), est(3.0, None), est(4.0, None)]; 2];
        let s = svg(&narrow).unwrap();
        assert!(
            !s.contains("log scale") && !s.contains("<polygon opacity"),
            "{s}"
        );
    }

    #[test]
    fn coinciding_series_are_drawn_apart_and_noted_identical() {
        let same = [est(1.0, Some(0.1)), est(2.0, None), None];
        let fig = Figure::lines("f", "Fig. 3")
            .x("load", [1.0, 2.0, 3.0], Ticks::Plain)
            .y("delay, s")
            .series("ADS, Eq. 5", same)
            .series("NoR", same)
            // Equal within rounding: identical too; a different one is not.
            .series("ARS", [est(1.0 + 1e-12, None), est(2.0, None), None])
            .series("Other", [est(1.0, None), est(2.5, None), None]);
        assert_eq!(identical_to(&fig), [None, Some(0), Some(0), None]);
        let s = svg(&fig).unwrap();
        assert!(s.contains("NoR (identical to ADS, Eq. 5)"), "{s}");
        assert!(s.contains("ARS (identical to ADS, Eq. 5)"), "{s}");
        assert!(!s.contains("Other (identical"), "{s}");
        // Four distinct dash patterns (one solid) and four distinct marker shapes.
        let dashes: std::collections::BTreeSet<&str> = s
            .split("class=\"series\"")
            .skip(1)
            .map(|l| {
                l.split_once("stroke-dasharray=\"")
                    .map_or("", |(_, d)| d.split('"').next().unwrap())
            })
            .collect();
        assert_eq!(dashes.len(), 4, "{dashes:?}");
        let shapes: std::collections::BTreeSet<String> = (0..8).map(|i| marker(i, 0, 0)).collect();
        assert_eq!(shapes.len(), 8);
        // A series with one point missing elsewhere is not identical.
        let mut apart = fig.clone();
        apart.values[1][1] = None;
        assert_eq!(identical_to(&apart)[1], None);
    }

    #[test]
    fn the_paper_s_numbers_are_hollow_rings_with_a_legend_entry() {
        let fig = bars();
        let s = svg(&fig).unwrap();
        assert!(!s.contains("class=\"paper\"") && !texts(&s).contains(&"paper".into()));
        let printed = fig
            .clone()
            .paper(vec![vec![Some(1.0), Some(45.0)], vec![None, None]]);
        let s = svg(&printed).unwrap();
        // Two rings on the plot, one in the legend.
        assert_eq!(s.matches("class=\"paper\"").count(), 3, "{s}");
        assert!(
            s.contains(r##"fill="none" stroke="#0072B2""##),
            "in U1's colour"
        );
        assert!(texts(&s).contains(&"paper".into()));
        // The paper's numbers widen the axis: 1000 is on it.
        let high = fig.paper(vec![vec![Some(1000.0), None], vec![None, None]]);
        assert!(texts(&svg(&high).unwrap()).iter().any(|t| t == "1,000"));
        // A paper of the wrong shape is an error.
        let wrong = bars().paper(vec![vec![Some(1.0)]]);
        assert!(svg(&wrong).is_err());
    }

    #[test]
    fn categories_on_a_log_axis_are_points_not_bars() {
        let fig = Figure::bars("f", "Fig. 6")
            .groups("scenario", ["a", "b"])
            .y("delay, s")
            .series("U1", [est(1.0, Some(0.2)), est(5000.0, None)])
            .series("U2", [est(30.0, None), None]);
        let s = svg(&fig).unwrap();
        assert!(s.contains("delay, s (log scale)"), "{s}");
        // No filled rectangle but the background; a marker per value and per legend entry;
        // "n/a" for the missing one.
        assert_eq!(s.matches("<rect").count(), 1, "{s}");
        assert_eq!(s.matches("class=\"marker\"").count(), 3 + 2);
        assert_eq!(s.matches(">n/a<").count(), 1);
        // The same figure on a linear axis has bars.
        let mut linear = fig.clone();
        linear.values[1][1] = est(6000.0, None);
        linear.values[0][0] = est(4000.0, None);
        linear.values[1][0] = est(3000.0, None);
        let s = svg(&linear).unwrap();
        assert!(!s.contains("log scale"));
        assert!(s.matches("<rect").count() > 3);
    }

    #[test]
    fn a_zero_is_a_stroke_on_the_baseline_and_a_missing_value_n_a() {
        let fig = Figure::bars("f", "T")
            .groups("g", ["a"])
            .y("y")
            .series("zero", [est(0.0, None)])
            .series("missing", [None])
            .series("some", [est(3.0, None)]);
        let s = svg(&fig).unwrap();
        assert_eq!(s.matches("class=\"zero\"").count(), 1, "{s}");
        assert_eq!(s.matches(">n/a<").count(), 1, "{s}");
        // Swapped: the marks follow the values, so the two are told apart.
        let mut swapped = fig.clone();
        swapped.values.swap(0, 1);
        let t = svg(&swapped).unwrap();
        // The zero's stroke starts at its own bar's slot: the first in `fig`, the second in
        // `swapped`.
        let x1 = |s: &str| -> i32 { attribute(&s[s.find("class=\"zero\"").unwrap()..], "x1") };
        assert!(x1(&s) < x1(&t), "{} {}", x1(&s), x1(&t));
        // On the baseline, where the bar would start.
        let missing_y = |s: &str| s.matches("class=\"missing\"").count();
        assert_eq!((missing_y(&s), missing_y(&t)), (1, 1));
    }

    #[test]
    fn long_titles_wrap_within_the_width() {
        let title = "Fig. 7: the average application execution time of DCLS, DCMMS and FCFS as \
                     the share of advance reservations grows, loose deadlines, alpha 0.8 (literal \
                     mode)";
        assert!(title.len() > 120);
        let fig = bars();
        let mut long = fig.clone();
        long.title = title.into();
        let s = svg(&long).unwrap();
        let width: u32 = attribute(&s, "width");
        let words: Vec<&str> = title.split_whitespace().collect();
        let lines: Vec<String> = texts(&s)
            .into_iter()
            .filter(|t| {
                t.starts_with("Fig. 7")
                    || words.contains(&t.split(' ').next().unwrap_or("")) && t.len() > 20
            })
            .collect();
        assert!(lines.len() >= 2, "{lines:?}");
        assert_eq!(lines.join(" "), title);
        for l in &lines {
            assert!(
                l.chars().count() as u32 * TITLE_CHAR_PX <= width - 40,
                "{l}"
            );
        }
        // The plot moves down with the title: the figure grows by the added lines.
        let height = |s: &str| -> u32 { attribute(s, "height") };
        let short = svg(&fig).unwrap();
        assert_eq!(
            height(&s),
            height(&short) + (lines.len() as u32 - 1) * TITLE_LINE_PX as u32
        );
    }

    #[test]
    fn a_figure_of_few_replications_carries_a_warning() {
        let fig = bars();
        let warned = |f: &Figure| svg(f).unwrap().contains("Warning: 2 replication(s)");
        assert!(!warned(&fig));
        assert!(!warned(&fig.clone().replicated(10, 10)));
        assert!(!warned(&fig.clone().replicated(0, 10)), "no random variant");
        let few = fig.replicated(2, 10);
        assert_eq!(few.few_replications, Some([2, 10]));
        let s = svg(&few).unwrap();
        assert!(warned(&few));
        assert!(
            s.contains("below the default of 10 for this paper: rough confidence bands"),
            "{s}"
        );
        // The printed table carries it under its title, as the drawing does.
        let text = few.text();
        assert!(
            text.lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("Warning: 2 replication(s)")),
            "{text}"
        );
        assert!(!bars().text().contains("Warning:"));
    }

    /// A mark goes under the title in the drawing and the printed table, wrapped to the
    /// drawing's width; the drawing grows by its lines.
    #[test]
    fn a_marked_figure_shows_its_marks_under_the_title() {
        let mark = "Marked: PAP falls back at (d) 0.018 (PAP-RND, PAP-RTDP); more than 1 % of \
                    requests refused a lease for space at (d) 0.052 (RR, LRF-RND, BCF-RND, \
                    PAP-RND, PAP-RTDP)";
        let plain = bars();
        let marked = plain.clone().mark(Some(mark.to_owned())).mark(None);
        assert_eq!(marked.marks.len(), 1);
        let s = svg(&marked).unwrap();
        let height = |s: &str| -> u32 { attribute(s, "height") };
        let width: u32 = attribute(&s, "width");
        let lines = wrap(mark, ((width - 40) / WARNING_CHAR_PX) as usize);
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines {
            assert!(s.contains(&l.replace('&', "&amp;")), "{l}");
        }
        assert_eq!(
            height(&s),
            height(&svg(&plain).unwrap()) + (LINE_PX + 2) * lines.len() as u32 + 2
        );
        assert_eq!(marked.text().lines().nth(1), Some(&*format!("{mark}.")));
        assert!(!plain.text().contains("Marked:"));
    }

    #[test]
    fn every_tick_label_of_an_axis_has_one_format() {
        let labels = |ticks: &[f64], log| {
            let f = TickFormat::of(ticks, log);
            (
                ticks.iter().map(|&v| f.label(v)).collect::<Vec<_>>(),
                f.suffix(),
            )
        };
        // Below a million: plain, thousands separated, common decimals.
        assert_eq!(
            labels(&[0.0, 50_000.0, 100_000.0, 150_000.0], false),
            (
                vec![
                    "0".into(),
                    "50,000".into(),
                    "100,000".into(),
                    "150,000".into()
                ],
                String::new()
            )
        );
        assert_eq!(labels(&[0.0, 0.5, 1.0], false).0, ["0.0", "0.5", "1.0"]);
        // Rounding's near-zero is 0, not a reason for an exponent.
        assert_eq!(
            labels(&[-0.2, -0.4 + 0.2 + 0.2 + 1e-17, 0.2], false),
            (
                vec!["-0.2".into(), "0.0".into(), "0.2".into()],
                String::new()
            )
        );
        // A million or more on a linear axis: a common exponent, in the description; never
        // `1e6` beside `500000`.
        assert_eq!(
            labels(&[0.0, 500_000.0, 1e6, 1.5e6], false),
            (
                vec!["0.0".into(), "0.5".into(), "1.0".into(), "1.5".into()],
                " (×10⁶)".into()
            )
        );
        assert_eq!(labels(&[0.0, 0.0005, 0.001], false).1, " (×10⁻³)");
        // On a log axis: powers of ten.
        assert_eq!(
            labels(&[1e4, 1e5, 2e5, 1e6], true).0,
            ["10⁴", "10⁵", "2×10⁵", "10⁶"]
        );
        assert_eq!(labels(&[1.0, 10.0, 1000.0], true).0, ["1", "10", "1,000"]);
        assert_eq!(plain(-0.0001, 2), "0.00");
        assert_eq!(plain(-1234.5, 1), "-1,234.5");
        // Drawn: an axis up to 2e6 has one format along it.
        let fig = Figure::bars("f", "T")
            .groups("g", ["a", "b"])
            .y("work, MI")
            .series("s", [est(0.0, None), est(2e6, None)]);
        let s = svg(&fig).unwrap();
        assert!(s.contains("work, MI (×10⁶)"), "{s}");
        let ticks: Vec<String> = texts(&s)
            .into_iter()
            .filter(|t| t.parse::<f64>().is_ok())
            .collect();
        assert!(ticks.len() >= 4, "{ticks:?}");
        assert!(
            ticks
                .iter()
                .all(|t| t.len() == 3 && t.as_bytes()[1] == b'.'),
            "{ticks:?}"
        );
        assert!(!s.contains(">1e6<") && !s.contains("500000"));
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
    fn labels_wrap() {
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
