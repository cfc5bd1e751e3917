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

/// The protocols and variants of the suite, each with its own colour in every chart (the index
/// into [`COLORS`]); a row's protocol is found in its id (`java-hessian2` and `hessian2` are both
/// Hessian 2, drawn in one colour, Java's dashed).
const PROTOCOLS: [&str; 20] = [
    "hessian2.1",
    "hessian2",
    "hessian1",
    "burlap",
    "json",
    "msgpack",
    "bincode",
    "grpc",
    "xmlrpc",
    "rmi",
    "spring",
    "jaxws",
    "java-to-rust",
    "rust-to-java",
    "derived",
    "hand",
    "flat",
    "serializable",
    "externalizable",
    "amf",
];

/// The colour of a row: its protocol's, whatever the chart; rows of no known protocol take the
/// colours after them, in order.
fn color_of(id: &str, other: &mut usize) -> RGBColor {
    // the longest name the id contains: `hessian2.1` before `hessian2`, and a crossing's own
    // name (`java-to-rust`) before the protocol it carries
    let found =
        PROTOCOLS.iter().enumerate().filter(|(_, p)| id.contains(*p)).max_by_key(|(_, p)| p.len()).map(|(i, _)| i);
    match found {
        Some(i) => COLORS[i % COLORS.len()],
        None => {
            *other += 1;
            COLORS[(PROTOCOLS.len() + *other - 1) % COLORS.len()]
        }
    }
}

/// Whether a row is a Java implementation (drawn dashed): `java-…` rows, the crossings aside.
fn is_java(id: &str) -> bool {
    (id.starts_with("java-") || id.contains("-java-") || id.starts_with("load-java")) && !id.contains("to-")
}

/// The most lines one frame shows; a figure with more rows is drawn as small multiples.
pub const MAX_LINES: usize = 8;

/// The panels of a line figure: one when it has at most [`MAX_LINES`] rows, else Rust rows,
/// Java rows and the crossings apart (each still split when over the limit).
fn panels<'a>(rows: &[&'a Series]) -> Vec<(String, Vec<&'a Series>)> {
    if rows.len() <= MAX_LINES {
        return vec![(String::new(), rows.to_vec())];
    }
    let group = |s: &Series| {
        if s.id.contains("to-rust") || s.id.contains("to-java") {
            "crossings"
        } else if is_java(&s.id) {
            "Java"
        } else {
            "Rust"
        }
    };
    let mut out: Vec<(String, Vec<&Series>)> = Vec::new();
    for name in ["Rust", "Java", "crossings"] {
        let members: Vec<&Series> = rows.iter().copied().filter(|s| group(s) == name).collect();
        // as many panels as needed, filled evenly (9 rows: 5 and 4, not 8 and 1)
        let parts = members.len().div_ceil(MAX_LINES).max(1);
        for (k, chunk) in members.chunks(members.len().div_ceil(parts).max(1)).enumerate() {
            let title = if members.len() > MAX_LINES { format!("{name} ({})", k + 1) } else { name.to_owned() };
            out.push((title, chunk.to_vec()));
        }
    }
    out
}

/// A line chart of `figure`: x = the points' x (on a logarithmic axis when it spans more than a
/// decade), y = `y(point)` on a logarithmic axis (the protocols differ by orders of magnitude),
/// one line per series that ran, in its protocol's colour (Java rows dashed); a figure of more
/// than [`MAX_LINES`] rows becomes panels of Rust rows, Java rows and crossings, on one scale. A
/// row measured in rounds gets a shaded band from its lowest to its highest per-round median.
pub fn line(figure: &Figure, path: &Path, y: impl Fn(&Point) -> f64) -> Result<(), String> {
    let rows: Vec<&Series> = figure.series.iter().filter(|s| s.status == Status::Ok && !s.points.is_empty()).collect();
    let xs = rows.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let ys = || rows.iter().flat_map(|s| s.points.iter().map(&y)).filter(|v| v.is_finite() && *v > 0.0);
    let ymax = ys().fold(0.0f64, f64::max);
    let ymin = ys().fold(f64::MAX, f64::min);
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1.max(x0 + 1.0)) };
    let (ymin, ymax) = if ymax > 0.0 { (ymin / 1.5, ymax * 1.5) } else { (0.1, 1.0) };
    let log_x = x0 > 0.0 && x1 / x0 > 10.0;
    let panels = panels(&rows);
    let height = 580 * panels.len() as u32 - 120 * (panels.len() as u32 - 1);
    let root = SVGBackend::new(path, (1100, height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let areas = root.split_evenly((panels.len(), 1));
    let mut other = 0;
    let mut colors: Vec<(String, RGBColor)> = Vec::new();
    for s in &rows {
        let c = color_of(&s.id, &mut other);
        colors.push((s.id.clone(), c));
    }
    let color = |id: &str| colors.iter().find(|(i, _)| i == id).map_or(BLACK, |c| c.1);
    for ((name, members), area) in panels.iter().zip(areas) {
        let (plot, legend) = area.split_horizontally(780);
        let title = if name.is_empty() { figure.title.clone() } else { format!("{}: {name}", figure.title) };
        let mut builder = ChartBuilder::on(&plot);
        builder.caption(&title, ("sans-serif", 18)).margin(12).x_label_area_size(44).y_label_area_size(70);
        if log_x {
            let mut chart = builder.build_cartesian_2d((x0..x1).log_scale(), (ymin..ymax).log_scale()).map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(format!("{} (log scale)", figure.x_label))
                .y_desc(format!("{} (log scale)", figure.y_label))
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| if *v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") })
                .draw()
                .map_err(err)?;
            for s in members {
                let pts: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .map(|p| (p.x, y(p)))
                    .filter(|p| p.1.is_finite() && p.1 > 0.0 && p.0 > 0.0)
                    .collect();
                band(&mut chart, s, color(&s.id), (ymin, ymax))?;
                series(&mut chart, pts, color(&s.id), is_java(&s.id))?;
            }
        } else {
            let mut chart = builder.build_cartesian_2d(x0..x1, (ymin..ymax).log_scale()).map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(figure.x_label.as_str())
                .y_desc(format!("{} (log scale)", figure.y_label))
                .y_label_formatter(&|v| if *v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") })
                .draw()
                .map_err(err)?;
            for s in members {
                let pts: Vec<(f64, f64)> =
                    s.points.iter().map(|p| (p.x, y(p))).filter(|p| p.1.is_finite() && p.1 > 0.0).collect();
                band(&mut chart, s, color(&s.id), (ymin, ymax))?;
                series(&mut chart, pts, color(&s.id), is_java(&s.id))?;
            }
        }
        for (i, s) in members.iter().enumerate() {
            let c = color(&s.id);
            let y = 60 + 24 * i as i32;
            let style = c.stroke_width(3);
            if is_java(&s.id) {
                legend.draw(&PathElement::new(vec![(10, y), (18, y)], style)).map_err(err)?;
                legend.draw(&PathElement::new(vec![(24, y), (32, y)], style)).map_err(err)?;
                legend.draw(&PathElement::new(vec![(38, y), (40, y)], style)).map_err(err)?;
            } else {
                legend.draw(&PathElement::new(vec![(10, y), (40, y)], style)).map_err(err)?;
            }
            legend.draw(&Text::new(s.label.clone(), (48, y - 7), ("sans-serif", 14))).map_err(err)?;
        }
    }
    root.present().map_err(err)
}

/// Shades, behind a row's line, the band between its lowest and highest per-round median
/// (points measured in rounds: `round_median_min`, `round_median_max`), clipped to `y_range`.
fn band<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    s: &Series,
    color: RGBColor,
    (ymin, ymax): (f64, f64),
) -> Result<(), String> {
    let spans: Vec<(f64, f64, f64)> = s
        .points
        .iter()
        .filter_map(|p| Some((p.x, *p.values.get("round_median_min")?, *p.values.get("round_median_max")?)))
        .filter(|(x, lo, hi)| *x > 0.0 && lo.is_finite() && hi.is_finite() && *lo > 0.0)
        .map(|(x, lo, hi)| (x, lo.clamp(ymin, ymax), hi.clamp(ymin, ymax)))
        .collect();
    if spans.len() < 2 {
        return Ok(());
    }
    let outline: Vec<(f64, f64)> =
        spans.iter().map(|(x, _, hi)| (*x, *hi)).chain(spans.iter().rev().map(|(x, lo, _)| (*x, *lo))).collect();
    chart.draw_series(std::iter::once(Polygon::new(outline, color.mix(0.15).filled()))).map_err(err)?;
    Ok(())
}

/// Draws one row's line and points, dashed for a Java row.
fn series<X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    pts: Vec<(f64, f64)>,
    color: RGBColor,
    dashed: bool,
) -> Result<(), String> {
    if dashed {
        chart.draw_series(DashedLineSeries::new(pts.clone(), 8, 5, color.stroke_width(2))).map_err(err)?;
    } else {
        chart.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2))).map_err(err)?;
    }
    chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(err)?;
    Ok(())
}

/// A bar chart of `figure`: one bar per series that ran, height `y(series)` (series without a
/// value are left out).
pub fn bars(figure: &Figure, path: &Path, y: impl Fn(&Series) -> Option<f64>) -> Result<(), String> {
    let rows = figure
        .series
        .iter()
        .filter(|s| s.status == Status::Ok)
        .filter_map(|s| y(s).filter(|v| v.is_finite()).map(|v| (s.label.clone(), v, None, s.id.clone())))
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
            Some((s.label.clone(), v, Some((lo, hi)), s.id.clone()))
        })
        .collect();
    draw_bars(figure, path, rows, Some(reference))
}

/// A bar: label, value, whisker, row id (for its colour).
type Bar = (String, f64, Option<(f64, f64)>, String);

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
    let mut other = 0;
    for (k, (_, v, range, id)) in rows.iter().enumerate() {
        let i = (n - 1 - k) as f64;
        let color = color_of(id, &mut other);
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

#[cfg(test)]
mod tests {
    use super::{color_of, is_java, panels, MAX_LINES};
    use crate::seed::results::Series;

    #[test]
    fn a_protocol_has_one_colour_in_rust_and_java_and_crossings_their_own() {
        let mut n = 0;
        assert_eq!(color_of("hessian2", &mut n), color_of("java-hessian2", &mut n));
        assert_eq!(color_of("hessian2.1", &mut n), color_of("java-java-hessian2.1", &mut n));
        assert_ne!(color_of("hessian2", &mut n), color_of("hessian2.1", &mut n));
        assert_ne!(color_of("java-to-rust", &mut n), color_of("rust-to-java", &mut n));
        assert_ne!(color_of("java-to-rust", &mut n), color_of("hessian2", &mut n));
        assert_eq!(n, 0, "every id above is a known protocol");
        assert!(is_java("java-rmi") && !is_java("java-to-rust") && !is_java("burlap"));
    }

    #[test]
    fn more_than_eight_rows_become_even_panels_of_rust_java_and_crossings() {
        let ids = [
            "hessian2.1",
            "hessian2",
            "hessian1",
            "burlap",
            "json",
            "msgpack",
            "bincode",
            "grpc",
            "xmlrpc",
            "java-hessian2",
            "java-rmi",
            "java-to-rust",
            "rust-to-java",
        ];
        let rows: Vec<Series> = ids.iter().map(|id| Series::new(id, id)).collect();
        let refs: Vec<&Series> = rows.iter().collect();
        let p = panels(&refs);
        let sizes: Vec<(String, usize)> = p.iter().map(|(n, m)| (n.clone(), m.len())).collect();
        assert_eq!(
            sizes,
            [("Rust (1)".into(), 5), ("Rust (2)".into(), 4), ("Java".into(), 2), ("crossings".into(), 2)]
        );
        assert!(p.iter().all(|(_, m)| m.len() <= MAX_LINES));
        assert_eq!(panels(&refs[..8]).len(), 1);
    }
}
