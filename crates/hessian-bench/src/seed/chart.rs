//! The SVG charts of the report, drawn with plotters' SVG backend (text is written as SVG
//! `<text>` elements, so no font files are needed to draw or to build).

use crate::seed::results::{Figure, Point, Series, Status};
use plotters::prelude::*;
use std::path::Path;

const COLORS: [RGBColor; 20] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
    RGBColor(0, 128, 128),
    RGBColor(255, 0, 255),
    RGBColor(128, 128, 0),
    RGBColor(0, 0, 0),
    RGBColor(218, 165, 32),
    RGBColor(75, 0, 130),
    RGBColor(0, 100, 0),
    RGBColor(210, 105, 30),
];

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// A line chart of `figure`: x = the points' x, y = `y(point)` on a logarithmic axis (the
/// protocols differ by orders of magnitude), one line per series that ran.
pub fn line(figure: &Figure, path: &Path, y: impl Fn(&Point) -> f64) -> Result<(), String> {
    let rows: Vec<_> = figure.series.iter().filter(|s| s.status == Status::Ok && !s.points.is_empty()).collect();
    let xs = rows.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let ys = || rows.iter().flat_map(|s| s.points.iter().map(&y)).filter(|v| v.is_finite() && *v > 0.0);
    let ymax = ys().fold(0.0f64, f64::max);
    let ymin = ys().fold(f64::MAX, f64::min);
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1.max(x0 + 1.0)) };
    let (ymin, ymax) = if ymax > 0.0 { (ymin / 1.5, ymax * 1.5) } else { (0.1, 1.0) };
    let root = SVGBackend::new(path, (1100, 580)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (plot, legend) = root.split_horizontally(780);
    let mut chart = ChartBuilder::on(&plot)
        .caption(&figure.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, (ymin..ymax).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(figure.x_label.as_str())
        .y_desc(format!("{} (log scale)", figure.y_label))
        .y_label_formatter(&|v| if *v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") })
        .draw()
        .map_err(err)?;
    for (i, s) in rows.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> =
            s.points.iter().map(|p| (p.x, y(p))).filter(|p| p.1.is_finite() && p.1 > 0.0).collect();
        chart.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2))).map_err(err)?;
        chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(err)?;
        let y = 60 + 24 * i as i32;
        legend.draw(&PathElement::new(vec![(10, y), (40, y)], color.stroke_width(3))).map_err(err)?;
        legend.draw(&Text::new(s.label.clone(), (48, y - 7), ("sans-serif", 14))).map_err(err)?;
    }
    root.present().map_err(err)
}

/// A bar chart of `figure`: one bar per series that ran, height `y(series)` (series without a
/// value are left out).
pub fn bars(figure: &Figure, path: &Path, y: impl Fn(&Series) -> Option<f64>) -> Result<(), String> {
    let rows = figure
        .series
        .iter()
        .filter(|s| s.status == Status::Ok)
        .filter_map(|s| y(s).filter(|v| v.is_finite()).map(|v| (s.label.clone(), v, None)))
        .collect();
    draw_bars(figure, path, rows, None)
}

/// A bar chart of `figure` with whiskers: `y(series)` is the bar's height and the whisker's low
/// and high end; a dashed vertical line marks `reference` (e.g. a ratio of 1), and the values are
/// written with three decimals.
pub fn bars_with_range(
    figure: &Figure,
    path: &Path,
    reference: f64,
    y: impl Fn(&Series) -> Option<(f64, f64, f64)>,
) -> Result<(), String> {
    let rows = figure
        .series
        .iter()
        .filter(|s| s.status == Status::Ok)
        .filter_map(|s| {
            let (v, lo, hi) = y(s).filter(|(v, lo, hi)| v.is_finite() && lo.is_finite() && hi.is_finite())?;
            Some((s.label.clone(), v, Some((lo, hi))))
        })
        .collect();
    draw_bars(figure, path, rows, Some(reference))
}

type Bar = (String, f64, Option<(f64, f64)>);

fn draw_bars(figure: &Figure, path: &Path, rows: Vec<Bar>, reference: Option<f64>) -> Result<(), String> {
    let vmax = rows.iter().map(|r| r.1.max(r.2.map_or(0.0, |w| w.1))).fold(reference.unwrap_or(0.0), f64::max);
    let vmax = if vmax > 0.0 { vmax * 1.18 } else { 1.0 };
    let n = rows.len().max(1);
    let height = 120 + 34 * n as u32;
    let root = SVGBackend::new(path, (960, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&figure.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(360)
        .build_cartesian_2d(0.0..vmax, 0.0..n as f64)
        .map_err(err)?;
    // bars from the top down, in the figure's order
    let labels: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n * 2 + 1)
        .y_label_formatter(&|y| {
            let i = y.floor() as usize;
            if (y - i as f64 - 0.5).abs() < 0.01 && i < n {
                labels.get(n - 1 - i).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_desc(figure.y_label.as_str())
        .draw()
        .map_err(err)?;
    for (k, (_, v, range)) in rows.iter().enumerate() {
        let i = (n - 1 - k) as f64;
        let color = COLORS[k % COLORS.len()];
        chart
            .draw_series(std::iter::once(Rectangle::new([(0.0, i + 0.15), (*v, i + 0.85)], color.filled())))
            .map_err(err)?;
        let mut text_x = *v;
        if let Some((lo, hi)) = range {
            let ink = BLACK.stroke_width(2);
            let whisker = vec![(*lo, i + 0.5), (*hi, i + 0.5)];
            chart.draw_series(std::iter::once(PathElement::new(whisker, ink))).map_err(err)?;
            for end in [*lo, *hi] {
                chart
                    .draw_series(std::iter::once(PathElement::new(vec![(end, i + 0.3), (end, i + 0.7)], ink)))
                    .map_err(err)?;
            }
            text_x = text_x.max(*hi);
        }
        let text = if reference.is_some() { format!("{v:.3}") } else { format!("{v:.1}") };
        chart
            .draw_series(std::iter::once(Text::new(text, (text_x + vmax * 0.01, i + 0.7), ("sans-serif", 14))))
            .map_err(err)?;
    }
    if let Some(r) = reference {
        let line = DashedLineSeries::new(vec![(r, 0.0), (r, n as f64)], 6, 4, BLACK.stroke_width(1));
        chart.draw_series(line).map_err(err)?;
    }
    root.present().map_err(err)
}
