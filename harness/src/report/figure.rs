//! A figure or table of a reproduction: an estimate per (series, group), printed as a table and
//! written as CSV (drawn as SVG by [`super::svg`]), with the paper's own numbers beside it where
//! the paper prints them.

use serde::Serialize;

use super::columns::{self, Column};
use super::stats::Estimate;
use super::table::{Align, table};

/// A figure or table: an estimate per (series, group).
#[derive(Debug, Clone, Serialize)]
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
}

impl Figure {
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
        format!(
            "{} ({})\n\n{}",
            self.title,
            self.y_label,
            table(&headers, &rows)
        )
    }

    /// One CSV row per (group, series): the mean, the 95 % half-width and the replications
    /// (the mean and the half-width empty where missing).
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
                "ci95_half_width",
                |p| p.value.and_then(|e| e.half_width),
                0,
            ),
            Column::count("replications", "replications", |p| {
                p.value.map_or(0, |e| e.n as u64)
            }),
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
        let fig = Figure {
            id: "f",
            title: "T".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            groups: vec!["GB 1093".into()],
            x_values: None,
            series: vec!["U1".into(), "U2".into()],
            values: vec![
                vec![None],
                vec![Some(Estimate {
                    mean: 2.5,
                    half_width: Some(0.5),
                    n: 3,
                })],
            ],
            paper: None,
            decimals: 1,
        };
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
            "group,series,mean,ci95_half_width,replications\nGB 1093,U1,,,0\nGB 1093,U2,2.5,0.5,3\n"
        );
    }
}
