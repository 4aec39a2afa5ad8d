//! A figure or table of a reproduction: an estimate per (series, group), printed as a table and
//! written as CSV (drawn as SVG by [`super::svg`]), with the paper's own numbers beside it where
//! the paper prints them.
//!
//! A figure is built with named parameters, never as a struct literal: [`Figure::lines`] (the
//! groups are points of a numeric axis, given by [`Figure::x`]) or [`Figure::bars`] (the groups
//! are categories, given by [`Figure::groups`]), then [`Figure::y`], one [`Figure::series`] per
//! series (or [`Figure::all_series`]), and, where they differ from the defaults,
//! [`Figure::paper`], [`Figure::decimals`] and [`Figure::mode`]:
//!
//! ```
//! # use qosgate_harness::report::figure::{Figure, Ticks};
//! # use qosgate_harness::report::stats::Estimate;
//! let fig = Figure::lines("fig1", "Fig. 1: delay")
//!     .x("load, tasks/s", [1.0, 2.5], Ticks::Plain)
//!     .y("delay, s")
//!     .series("A", [Estimate::of(&[1.0, 2.0]), None])
//!     .decimals(2);
//! assert_eq!(fig.groups, ["1", "2.5"]);
//! ```

use serde::Serialize;

use super::Mode;
use super::columns::{self, Column};
use super::stats::Estimate;
use super::table::{Align, table};

/// A figure or table: an estimate per (series, group).
///
/// Its shape, which [`super::svg::svg`] checks: a name in `series` per row of `values`, a value
/// in each row per group, and an x value per group where there are any. Built with
/// [`Figure::lines`] or [`Figure::bars`] (the module's doc; `non_exhaustive`: no other crate
/// writes one as a literal); the fields are public for the writers that read them.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct Figure {
    /// File stem (`fig4`); unique within its paper.
    pub id: &'static str,
    /// Title, with the paper's figure number.
    pub title: String,
    /// What the groups are, with the unit where they are numbers.
    pub x_label: String,
    /// What is measured, with unit.
    pub y_label: String,
    /// Group labels (rows of the printed table).
    pub groups: Vec<String>,
    /// Where the groups are points of a numeric axis (an inter-arrival time, a load), each
    /// group's value in the unit of `x_label`: the figure is drawn as lines over that axis, with
    /// confidence bands. `None` for groups that are categories: drawn as bars.
    pub x_values: Option<Vec<f64>>,
    /// Series names (columns of the printed table).
    pub series: Vec<String>,
    /// `values[series][group]`; `None` where the metric is undefined in every replication.
    pub values: Vec<Vec<Option<Estimate>>>,
    /// The paper's own numbers, `[series][group]`, where it prints them (Table 8); `None` in a
    /// cell the paper has no number for.
    pub paper: Option<Vec<Vec<Option<f64>>>>,
    /// Decimals shown in the printed table.
    #[serde(skip)]
    pub decimals: usize,
    /// `[ran, judged]` where the figure's random variants ran fewer replications (`ran`, the
    /// fewest of any) than its paper is judged at by default (`judged`, the first batch of its
    /// [`crate::experiments::Precision`]): the drawing then carries a warning that its
    /// confidence bands are rough. Set by the runner ([`Figure::replicated`]).
    #[serde(skip)]
    pub few_replications: Option<[u32; 2]>,
    /// Points a reader must not take at face value, in words (`PAP falls back at 0.018`),
    /// shown under the title in the text, the drawing and the page ([`Figure::mark`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<String>,
}

/// How the group labels of a numeric axis are written from its x values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ticks {
    /// As short as the value allows: `1093`, `0.25`.
    Plain,
    /// With this many decimals: `0.250` for 3.
    Decimals(usize),
    /// As short as the value allows, then the unit: `20 %` for `Unit("%")`.
    Unit(&'static str),
}

impl Ticks {
    /// The label of `x`.
    fn label(self, x: f64) -> String {
        match self {
            Ticks::Plain => format!("{x}"),
            Ticks::Decimals(d) => format!("{x:.d$}"),
            Ticks::Unit(unit) => format!("{x} {unit}"),
        }
    }
}

impl Figure {
    /// A figure `id` (file stem, unique within its paper) titled `title` (with the paper's
    /// figure number) whose groups are points of a numeric axis, drawn as lines with confidence
    /// bands: give the axis with [`Figure::x`].
    pub fn lines(id: &'static str, title: impl Into<String>) -> Self {
        Figure {
            x_values: Some(Vec::new()),
            ..Figure::bars(id, title)
        }
    }

    /// A figure `id` titled `title` whose groups are categories, drawn as bars: give them with
    /// [`Figure::groups`].
    pub fn bars(id: &'static str, title: impl Into<String>) -> Self {
        Figure {
            id,
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            groups: Vec::new(),
            x_values: None,
            series: Vec::new(),
            values: Vec::new(),
            paper: None,
            decimals: 1,
            few_replications: None,
            marks: Vec::new(),
        }
    }

    /// Adds `mark` (nothing if it is `None`): a sentence on points not to take at face value.
    pub fn mark(mut self, mark: Option<String>) -> Self {
        self.marks.extend(mark);
        self
    }

    /// The title followed by the mode it reads the paper in: `Fig. 5(a): ... (literal mode)`.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.title = format!("{} ({} mode)", self.title, mode.name());
        self
    }

    /// The numeric axis of a [`Figure::lines`]: what it is, with its unit (`x_label`), its
    /// points `xs` in that unit (one group each, in order), labelled as `ticks` says.
    ///
    /// Panics on a [`Figure::bars`], whose groups have no x values.
    pub fn x(
        mut self,
        x_label: impl Into<String>,
        xs: impl IntoIterator<Item = f64>,
        ticks: Ticks,
    ) -> Self {
        assert!(self.x_values.is_some(), "bars {:?} have no x axis", self.id);
        let xs: Vec<f64> = xs.into_iter().collect();
        self.x_label = x_label.into();
        self.groups = xs.iter().map(|&x| ticks.label(x)).collect();
        self.x_values = Some(xs);
        self
    }

    /// The categories of a [`Figure::bars`]: what they are (`x_label`) and their labels, in
    /// order (the rows of the printed table).
    ///
    /// Panics on a [`Figure::lines`], whose groups come from [`Figure::x`].
    pub fn groups<S: Into<String>>(
        mut self,
        x_label: impl Into<String>,
        labels: impl IntoIterator<Item = S>,
    ) -> Self {
        assert!(self.x_values.is_none(), "lines {:?} take x values", self.id);
        self.x_label = x_label.into();
        self.groups = labels.into_iter().map(Into::into).collect();
        self
    }

    /// What is measured, with its unit (`delay, s`).
    pub fn y(mut self, y_label: impl Into<String>) -> Self {
        self.y_label = y_label.into();
        self
    }

    /// One more series (a column of the printed table, a line or a bar per group): its name and
    /// its value at each group, in the groups' order (`None` where the metric is undefined in
    /// every replication).
    pub fn series(
        mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = Option<Estimate>>,
    ) -> Self {
        self.series.push(name.into());
        self.values.push(values.into_iter().collect());
        self
    }

    /// [`Figure::series`] for each `(name, values)`, in order.
    pub fn all_series<S, V>(self, series: impl IntoIterator<Item = (S, V)>) -> Self
    where
        S: Into<String>,
        V: IntoIterator<Item = Option<Estimate>>,
    {
        series
            .into_iter()
            .fold(self, |fig, (name, values)| fig.series(name, values))
    }

    /// The paper's own numbers, `[series][group]` in the figure's order, `None` in a cell it has
    /// no number for (printed beside the estimates, with 2 decimals, and drawn as hollow rings
    /// in the series' colour, legend "paper"). Default: none.
    pub fn paper(mut self, numbers: Vec<Vec<Option<f64>>>) -> Self {
        self.paper = Some(numbers);
        self
    }

    /// Marks the figure as made from `ran` replications of its random variants (the fewest)
    /// where its paper is judged at `judged` by default: fewer (and more than none) carry a
    /// warning in the drawing. The runner calls it for every figure.
    pub fn replicated(mut self, ran: u32, judged: u32) -> Self {
        self.few_replications = (ran > 0 && ran < judged).then_some([ran, judged]);
        self
    }

    /// Decimals of the estimates in the printed table (not the CSV's, which are exact).
    /// Default: 1.
    pub fn decimals(mut self, decimals: usize) -> Self {
        self.decimals = decimals;
        self
    }

    /// The table's header and rows: one row per group, one column per series (`mean ±
    /// half-width`, `-` where undefined), then the paper's numbers where it prints them.
    pub fn cells(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut headers = vec![String::new()];
        headers.extend(self.series.iter().cloned());
        if self.paper.is_some() {
            headers.extend(self.series.iter().map(|s| format!("{s} (paper)")));
        }
        let rows = self
            .groups
            .iter()
            .enumerate()
            .map(|(g, label)| {
                let mut row = vec![label.clone()];
                row.extend(
                    self.values
                        .iter()
                        .map(|s| s[g].map_or_else(|| "-".into(), |e| e.show(self.decimals))),
                );
                if let Some(paper) = &self.paper {
                    row.extend(
                        paper
                            .iter()
                            .map(|s| s[g].map_or_else(|| "-".into(), |v| format!("{v:.2}"))),
                    );
                }
                row
            })
            .collect();
        (headers, rows)
    }

    /// The plain-text table of [`Figure::cells`], under the title and the measure.
    pub fn text(&self) -> String {
        let (headers, rows) = self.cells();
        let headers: Vec<(&str, Align)> = headers
            .iter()
            .enumerate()
            .map(|(i, h)| (h.as_str(), if i == 0 { Align::Left } else { Align::Right }))
            .collect();
        let warning: String = self
            .warning()
            .iter()
            .chain(&self.marks)
            .map(|w| format!("{w}.\n"))
            .collect();
        format!(
            "{} ({})\n{warning}\n{}",
            self.title,
            self.y_label,
            table(&headers, &rows)
        )
    }

    /// The warning a figure of few replications carries, in its drawing and under its printed
    /// title ([`Figure::few_replications`]); `None` for the others.
    pub fn warning(&self) -> Option<String> {
        self.few_replications.map(|[ran, judged]| {
            format!(
                "Warning: {ran} replication(s), below the default of {judged} for this paper: \
                 rough confidence bands"
            )
        })
    }

    /// One CSV row per (group, series): `mean`, `half_width` (95 %) and `n`, the replications
    /// that define it (the mean and the half-width empty where missing, `n` then 0), the keys of
    /// an estimate everywhere (docs/outputs.md).
    pub fn csv(&self) -> String {
        struct Point<'a> {
            group: &'a str,
            series: &'a str,
            value: Option<Estimate>,
        }
        let columns: [Column<Point<'_>>; 5] = [
            Column::text("group", "group", |p| p.group.to_owned()),
            Column::text("series", "series", |p| p.series.to_owned()),
            Column::number("mean", "mean", |p| p.value.map(|e| e.mean), 0),
            Column::number(
                "half-width",
                "half_width",
                |p| p.value.and_then(|e| e.half_width),
                0,
            ),
            Column::count("replications", "n", |p| p.value.map_or(0, |e| e.n as u64)),
        ];
        let points: Vec<Point<'_>> = self
            .groups
            .iter()
            .enumerate()
            .flat_map(|(g, group)| {
                self.series
                    .iter()
                    .zip(&self.values)
                    .map(move |(series, values)| Point {
                        group,
                        series,
                        value: values[g],
                    })
            })
            .collect();
        columns::csv(&columns, &points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_values_print_as_a_dash_and_an_empty_csv_cell() {
        let fig = Figure::bars("f", "T")
            .groups("x", ["GB 1093"])
            .y("y")
            .series("U1", [None])
            .series(
                "U2",
                [Some(Estimate {
                    mean: 2.5,
                    half_width: Some(0.5),
                    n: 3,
                })],
            );
        let row = fig
            .text()
            .lines()
            .find(|l| l.starts_with("GB 1093"))
            .map(str::to_owned);
        assert_eq!(
            row.unwrap().split_whitespace().skip(2).collect::<Vec<_>>(),
            ["-", "2.5", "±", "0.5"]
        );
        assert_eq!(
            fig.csv(),
            "group,series,mean,half_width,n\nGB 1093,U1,,,0\nGB 1093,U2,2.5,0.5,3\n"
        );
    }
}
