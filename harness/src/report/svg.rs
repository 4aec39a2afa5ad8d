//! SVG figures: grouped bars with 95 % confidence-interval whiskers (plotters' SVG backend).
//!
//! A [`Figure`] is a set of groups along the x axis (for example "GB, 1093 s/t") and, within
//! each group, one bar per series (for example one per user), the height the estimate's mean
//! and the whisker its confidence interval (none with one replication). A missing value leaves a
//! gap. The legend is a row above the plot, so it never hides a bar; group labels are staggered
//! on two rows when they would overlap.
//!
//! The SVG names its fonts (`sans-serif`) rather than embedding them, so its text layout is an
//! estimate: generous margins keep labels apart in any common font.

use anyhow::{Result, anyhow};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::figure::Figure;

/// Pixels per bar; a group is as wide as its bars plus one bar of gap.
const BAR_PX: u32 = 14;
/// Estimated width of a character of the 13 px label font, pixels.
const CHAR_PX: u32 = 7;

/// The figure as an SVG document.
///
/// Errors: a series whose value count differs from the group count, or a drawing failure.
pub fn svg(fig: &Figure) -> Result<String> {
    let groups = fig.groups.len();
    anyhow::ensure!(groups > 0, "figure {:?} has no group", fig.title);
    anyhow::ensure!(
        fig.values.len() == fig.series.len(),
        "figure {:?} has {} series of values for {} series names",
        fig.title,
        fig.values.len(),
        fig.series.len()
    );
    for (name, values) in fig.series.iter().zip(&fig.values) {
        anyhow::ensure!(
            values.len() == groups,
            "series {name:?} of figure {:?} has {} values for {groups} groups",
            fig.title,
            values.len()
        );
    }
    let per_group = fig.series.len().max(1) as u32 + 1;
    let plot_w = (groups as u32 * per_group * BAR_PX).max(560);
    let longest = fig
        .groups
        .iter()
        .map(|g| g.chars().count())
        .max()
        .unwrap_or(0) as u32;
    let stagger = longest * CHAR_PX + 8 > plot_w / groups as u32;
    let legend_chars: u32 = fig
        .series
        .iter()
        .map(|name| name.chars().count() as u32 + 5)
        .sum();
    let width = (plot_w + 110).max(legend_chars * CHAR_PX + 40);
    let legend_rows = (legend_chars * CHAR_PX).div_ceil(width - 40).max(1);
    let legend_h = 22 * legend_rows + 8;
    let label_h = if stagger { 46 } else { 28 };
    let height = 380 + legend_h + label_h;

    let (lo, hi) = fig
        .values
        .iter()
        .flat_map(|values| values.iter().flatten())
        .fold((0.0f64, 0.0f64), |(lo, hi), e| {
            (lo.min(e.low()), hi.max(e.high()))
        });
    let hi = if hi > lo {
        hi + 0.08 * (hi - lo)
    } else {
        lo + 1.0
    };

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        let draw = |e: DrawingAreaErrorKind<_>| anyhow!("drawing {:?}: {e}", fig.title);
        root.fill(&WHITE).map_err(draw)?;
        let (top, rest) = root.split_vertically(34 + legend_h);
        top.draw(&Text::new(
            fig.title.clone(),
            (width as i32 / 2, 8),
            ("sans-serif", 17)
                .into_font()
                .style(FontStyle::Bold)
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(draw)?;
        // Legend: a swatch and a label per series, left to right, wrapping.
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
            .map_err(draw)?;
            top.draw(&Text::new(
                name.clone(),
                (x + 18, y),
                ("sans-serif", 13).into_font().color(&BLACK),
            ))
            .map_err(draw)?;
            x += w;
        }

        let mut chart = ChartBuilder::on(&rest)
            .margin_left(10)
            .margin_right(20)
            .margin_top(6)
            .x_label_area_size(label_h + 20)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.5f64..groups as f64 - 0.5, lo..hi)
            .map_err(draw)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(8)
            .y_desc(fig.y_label.as_str())
            .x_desc(fig.x_label.as_str())
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(draw)?;

        let slot = 1.0 / f64::from(per_group);
        for (i, values) in fig.values.iter().enumerate() {
            let c = color(i);
            for (g, v) in values.iter().enumerate() {
                let Some(e) = v else { continue };
                let left = g as f64 - 0.5 + slot * (0.5 + i as f64);
                let mid = left + slot / 2.0;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(left, 0.0f64.max(lo)), (left + slot, e.mean)],
                        c.filled(),
                    )))
                    .map_err(draw)?;
                if e.half_width.is_some_and(|h| h > 0.0) {
                    let cap = slot / 4.0;
                    let whisker = [
                        vec![(mid, e.low()), (mid, e.high())],
                        vec![(mid - cap, e.low()), (mid + cap, e.low())],
                        vec![(mid - cap, e.high()), (mid + cap, e.high())],
                    ];
                    chart
                        .draw_series(
                            whisker
                                .into_iter()
                                .map(|p| PathElement::new(p, BLACK.stroke_width(1))),
                        )
                        .map_err(draw)?;
                }
            }
        }
        // Group labels under the axis, centred on their group.
        for (g, label) in fig.groups.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(g as f64, lo));
            let dy = if stagger && g % 2 == 1 { 24 } else { 6 };
            root.draw(&Text::new(
                label.clone(),
                (px, py + dy),
                ("sans-serif", 13)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(draw)?;
        }
        root.present().map_err(draw)?;
    }
    Ok(buf)
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
    use crate::report::stats::Estimate;

    fn est(mean: f64, half: Option<f64>) -> Option<Estimate> {
        Some(Estimate {
            mean,
            half_width: half,
            n: 2,
        })
    }

    #[test]
    fn figure_has_its_title_labels_bars_and_whiskers() {
        let fig = Figure {
            id: "misses",
            title: "Deadline misses".into(),
            x_label: "scenario".into(),
            y_label: "missed, %".into(),
            groups: vec!["GB 1093".into(), "BE 1093".into()],
            series: vec!["U1".into(), "U4".into()],
            values: vec![
                vec![est(0.0, Some(0.0)), est(40.0, Some(5.0))],
                vec![None, est(10.0, None)],
            ],
            paper: None,
            decimals: 1,
        };
        let s = svg(&fig).unwrap();
        assert!(s.starts_with("<svg"));
        for text in [
            "Deadline misses",
            "GB 1093",
            "BE 1093",
            "U1",
            "U4",
            "missed, %",
        ] {
            assert!(s.contains(text), "{text} missing");
        }
        // One whisker (three strokes) for the only non-zero interval.
        let mut plain = fig.clone();
        plain.values[0][1] = est(40.0, None);
        let strokes = |s: &str| s.matches("<polyline").count();
        assert_eq!(strokes(&s), strokes(&svg(&plain).unwrap()) + 3);
    }

    #[test]
    fn series_of_the_wrong_length_is_an_error() {
        let fig = Figure {
            id: "t",
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            groups: vec!["a".into()],
            series: vec!["s".into()],
            values: vec![vec![]],
            paper: None,
            decimals: 1,
        };
        assert!(svg(&fig).is_err());
        let unnamed = Figure {
            values: vec![vec![None], vec![None]],
            ..fig
        };
        assert!(svg(&unnamed).is_err());
    }
}
