// SPDX-License-Identifier: GPL-2.0
//! PNG plots (plotters, bitmap backend).  Text needs a TTF font loaded at
//! run time (`load_font`); without one the plots are drawn without any
//! text (no titles, labels or legends) instead of failing.

use crate::summary::{CaseSummary, Comparison, Kind, Summary, WorkloadSummary};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Debian's fonts-dejavu-core.
pub const DEFAULT_FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const FAMILY: &str = "sans-serif";

pub(crate) const OFF_COLOR: RGBColor = RGBColor(70, 110, 170);
pub(crate) const ON_COLOR: RGBColor = RGBColor(230, 130, 30);
const SIG_COLOR: RGBColor = RGBColor(200, 40, 40);

pub(crate) type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Registers the TTF at `path` as the plots' font.  false when the file
/// is missing or not a font: the plots then carry no text.
pub fn load_font(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font(FAMILY, FontStyle::Normal, bytes).is_ok()
}

pub(crate) fn font(size: u32) -> TextStyle<'static> {
    TextStyle::from((FAMILY, size as f64).into_font()).color(&BLACK)
}

/// The frame every chart here starts from: a builder on `area` with
/// `margin` and `(x, y)` pixels for the axis labels, and `caption` (text,
/// font size) when the plot carries text.
pub(crate) fn chart_builder<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
    margin: u32,
    (x, y): (u32, u32),
    caption: Option<(String, u32)>,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(area);
    b.margin(margin).x_label_area_size(x).y_label_area_size(y);
    if let Some((title, size)) = caption {
        b.caption(title, font(size));
    }
    b
}

/// The series legend every chart here draws, at `at` in `size` points.
pub(crate) fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    at: SeriesLabelPosition,
    size: u32,
) -> Res<()>
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(font(size))
        .draw()?;
    Ok(())
}

/// A file-name-safe form of `s`.
pub fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn bounds(c: &Comparison) -> [(Option<f64>, Option<f64>); 2] {
    [
        (c.baseline.mean, c.baseline.ci95),
        (c.compare.mean, c.compare.ci95),
    ]
}

/// Short value text: 12345 -> "12.3k".
pub fn short(v: f64) -> String {
    let a = v.abs();
    let (x, unit, dec) = if a >= 1e9 {
        (v / 1e9, "G", 1)
    } else if a >= 1e6 {
        (v / 1e6, "M", 1)
    } else if a >= 1e5 {
        (v / 1e3, "k", 0)
    } else if a >= 1e4 {
        (v / 1e3, "k", 1)
    } else if a >= 100.0 || a == 0.0 {
        (v, "", 0)
    } else if a >= 1.0 {
        (v, "", 1)
    } else {
        (v, "", 3)
    };
    let mut t = format!("{x:.dec$}");
    if t.contains('.') {
        t = t.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    t + unit
}

const PERCENTILES: [&str; 4] = ["p50", "p90", "p99", "p999"];

/// schbench's names of the percentiles: p999 -> "99.9th".
pub fn pct_label(name: &str) -> String {
    match name {
        "p50" => "50.0th".into(),
        "p90" => "90.0th".into(),
        "p99" => "99.0th".into(),
        "p999" => "99.9th".into(),
        n => n.into(),
    }
}

/// A plain frame around a chart's plotting area (the no-font mesh).
pub(crate) fn frame<X: Ranged, Y: Ranged>(
    chart: &ChartContext<'_, BitMapBackend<'_>, Cartesian2d<X, Y>>,
) -> Res<()> {
    let area = chart.plotting_area().strip_coord_spec();
    let (w, h) = area.dim_in_pixel();
    area.draw(&Rectangle::new(
        [(0, 0), (w as i32 - 1, h as i32 - 1)],
        BLACK.stroke_width(1),
    ))?;
    Ok(())
}

/// Whether a workload has the latency percentiles plotted by `latency`.
pub fn has_latency(w: &WorkloadSummary) -> bool {
    PERCENTILES.iter().all(|p| {
        w.metrics
            .iter()
            .any(|m| m.name == *p && (m.baseline.mean.is_some() || m.compare.mean.is_some()))
    })
}

/// Grouped bars of the wakeup-latency percentiles, feature off and on, on
/// a log axis, with 95% confidence whiskers.
pub fn latency(
    path: &Path,
    s: &Summary,
    c: &CaseSummary,
    w: &WorkloadSummary,
    text: bool,
) -> Res<()> {
    let ms: Vec<&Comparison> = PERCENTILES
        .iter()
        .filter_map(|p| w.metrics.iter().find(|m| m.name == *p))
        .collect();
    let vals: Vec<f64> = ms
        .iter()
        .flat_map(|m| bounds(m))
        .flat_map(|(mean, ci)| {
            let m = mean.unwrap_or(f64::NAN);
            let ci = ci.unwrap_or(0.0);
            [m, m - ci, m + ci]
        })
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = vals
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .min(1.0e9)
        / 2.0;
    let hi = vals.iter().copied().fold(0.0, f64::max).max(lo * 4.0) * 2.5;
    let lo = lo.max(0.01);

    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let missing = if c.feature_missing {
        " [feature missing: A/A]"
    } else {
        ""
    };
    let mut b = chart_builder(
        &root,
        14,
        if text { (40, 70) } else { (6, 6) },
        text.then(|| {
            (
                format!(
                    "{}: {} wakeup latency, {} off vs on{} (clock {})",
                    c.case, w.workload, c.feature, missing, s.clock
                ),
                18,
            )
        }),
    );
    let mut chart = b.build_cartesian_2d(0.0..ms.len() as f64, (lo..hi).log_scale())?;
    if text {
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh();
        {
            let fmt = |x: &f64| {
                let i = x.floor() as usize;
                if (x - x.floor() - 0.5).abs() < 1e-6 && i < ms.len() {
                    pct_label(&ms[i].name)
                } else {
                    String::new()
                }
            };
            let yfmt = |y: &f64| short(*y);
            mesh.x_labels(2 * ms.len() + 1)
                .x_label_formatter(&fmt)
                .y_label_formatter(&yfmt)
                .y_desc("usec (mean of the runs, 95% CI)")
                .x_desc("percentile")
                .label_style(font(14))
                .axis_desc_style(font(14))
                .draw()?;
        }
    } else {
        // Without a font plotters cannot draw a mesh (its labels): a frame.
        frame(&chart)?;
    }
    let label = [
        format!("NO_{} (off)", c.feature),
        format!("{} (on)", c.feature),
    ];
    for (k, color) in [OFF_COLOR, ON_COLOR].into_iter().enumerate() {
        let n = [
            ms.first().map(|m| m.baseline.n),
            ms.first().map(|m| m.compare.n),
        ][k]
            .unwrap_or(0);
        let bars = ms.iter().enumerate().filter_map(|(i, m)| {
            let v = bounds(m)[k].0?;
            let x0 = i as f64 + 0.1 + 0.4 * k as f64;
            Some(Rectangle::new(
                [(x0, lo), (x0 + 0.38, v.max(lo))],
                color.filled(),
            ))
        });
        let series = chart.draw_series(bars)?;
        if text {
            series
                .label(format!("{} ({} runs)", label[k], n))
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled())
                });
        }
        // Whiskers.
        let whiskers = ms.iter().enumerate().filter_map(|(i, m)| {
            let (v, ci) = bounds(m)[k];
            let (v, ci) = (v?, ci?);
            let x = i as f64 + 0.38 + 0.4 * k as f64;
            Some(PathElement::new(
                vec![(x, (v - ci).max(lo)), (x, v + ci)],
                BLACK.stroke_width(2),
            ))
        });
        chart.draw_series(whiskers)?;
        if text {
            let labels = ms.iter().enumerate().filter_map(|(i, m)| {
                let v = bounds(m)[k].0?;
                let x = i as f64 + 0.11 + 0.4 * k as f64;
                Some(Text::new(short(v), (x, v.max(lo) * 1.3), font(12)))
            });
            chart.draw_series(labels)?;
        }
    }
    if text {
        // Significance marks under the pair.
        let marks = ms
            .iter()
            .enumerate()
            .filter(|(_, m)| m.significant == Some(true))
            .map(|(i, m)| {
                let pct = m.diff_pct.map(|p| format!(" {p:+.1}%")).unwrap_or_default();
                Text::new(
                    format!("*{pct}"),
                    (i as f64 + 0.3, lo * 1.4),
                    font(14).color(&SIG_COLOR),
                )
            });
        chart.draw_series(marks)?;
        legend(&mut chart, SeriesLabelPosition::UpperLeft, 14)?;
    }
    root.present()?;
    Ok(())
}

/// One small panel per counter: its per-second rate with the feature off
/// and on, with 95% confidence whiskers.
pub fn counters(
    path: &Path,
    s: &Summary,
    c: &CaseSummary,
    w: &WorkloadSummary,
    text: bool,
    all: bool,
) -> Res<()> {
    let cs = s.shown(&c.case, &w.counters, all);
    let cols = cs.len().clamp(1, 4);
    let rows = cs.len().div_ceil(cols).max(1);
    let (width, height) = (
        270 * cols as u32 + 40,
        230 * rows as u32 + if text { 50 } else { 10 },
    );
    let root = BitMapBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let area = if text {
        let missing = if c.feature_missing {
            " [feature missing: A/A]"
        } else {
            ""
        };
        root.titled(
            &format!(
                "{}: {} counters, {} off (blue, {} runs) vs on (orange, {} runs), 95% CI{} (clock {})",
                c.case, w.workload, c.feature, w.runs_off, w.runs_on, missing, s.clock
            ),
            font(16),
        )?
    } else {
        root.clone()
    };
    let panels = area.split_evenly((rows, cols));
    for (cmp, panel) in cs.iter().zip(panels.iter()) {
        let b = bounds(cmp);
        let top = b
            .iter()
            .map(|(m, ci)| m.unwrap_or(0.0) + ci.unwrap_or(0.0))
            .fold(0.0, f64::max);
        let top = if top > 0.0 { top * 1.25 } else { 1.0 };
        let sig = match cmp.significant {
            Some(true) => " *",
            _ => "",
        };
        let name = if cmp.name.len() > 34 {
            format!("{}…", &cmp.name[..33])
        } else {
            cmp.name.clone()
        };
        let unit = match cmp.kind {
            Kind::Rate => " /s",
            Kind::PerRun => " /run",
            _ => " (ratio)",
        };
        let mut cb = chart_builder(
            panel,
            8,
            if text { (22, 52) } else { (4, 4) },
            text.then(|| (format!("{name}{unit}{sig}"), 13)),
        );
        let mut chart = cb.build_cartesian_2d(0.0..2.0, 0.0..top)?;
        if text {
            let mut mesh = chart.configure_mesh();
            mesh.disable_x_mesh();
            {
                let fmt = |x: &f64| match x {
                    x if (x - 0.5).abs() < 1e-6 => "off".to_string(),
                    x if (x - 1.5).abs() < 1e-6 => "on".to_string(),
                    _ => String::new(),
                };
                let yfmt = |y: &f64| short(*y);
                mesh.x_labels(5)
                    .x_label_formatter(&fmt)
                    .y_labels(5)
                    .y_label_formatter(&yfmt)
                    .label_style(font(11))
                    .draw()?;
            }
        } else {
            frame(&chart)?;
        }
        for (k, color) in [OFF_COLOR, ON_COLOR].into_iter().enumerate() {
            let (Some(v), ci) = b[k] else { continue };
            let x0 = k as f64 + 0.2;
            chart.draw_series([Rectangle::new([(x0, 0.0), (x0 + 0.6, v)], color.filled())])?;
            if let Some(ci) = ci {
                chart.draw_series([PathElement::new(
                    vec![(x0 + 0.3, (v - ci).max(0.0)), (x0 + 0.3, v + ci)],
                    BLACK.stroke_width(2),
                )])?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// Every plot of the summary into `dir`; returns the files written.
pub fn all(dir: &Path, s: &Summary, text: bool, all_counters: bool) -> Res<Vec<PathBuf>> {
    let mut out = Vec::new();
    for c in &s.cases {
        for w in &c.workloads {
            let base = format!("{}-{}", slug(&c.case), slug(&w.workload));
            if has_latency(w) {
                let p = dir.join(format!("latency-{base}.png"));
                latency(&p, s, c, w, text)?;
                out.push(p);
            }
            if !w.counters.is_empty() {
                let p = dir.join(format!("counters-{base}.png"));
                counters(&p, s, c, w, text, all_counters)?;
                out.push(p);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values() {
        assert_eq!(short(12345.0), "12.3k");
        assert_eq!(short(100000.0), "100k");
        assert_eq!(short(2_500_000.0), "2.5M");
        assert_eq!(short(10_000.0), "10k");
        assert_eq!(short(3e9), "3G");
        assert_eq!(short(333.8), "334");
        assert_eq!(short(5.25), "5.2");
        assert_eq!(short(0.0), "0");
        assert_eq!(short(0.01234), "0.012");
        assert_eq!(short(40.0), "40");
        assert_eq!(short(0.5), "0.5");
    }

    fn sample() -> Summary {
        let mut text = String::new();
        for (st, it, p) in [
            ("on", 1, 100.0),
            ("off", 1, 200.0),
            ("off", 2, 210.0),
            ("on", 2, 90.0),
        ] {
            text.push_str(&format!(
                r#"RESULT {{"case":"c","feature":"F","state":"{st}","iter":{it},"workload":"wakelat","metrics":{{"p50":{p},"p90":{},"p99":{},"p999":{},"rps":10}},"counters":{{"calls":{},"other":0}},"duration_s":2}}"#,
                p * 2.0,
                p * 4.0,
                p * 8.0,
                if st == "on" { p } else { 0.0 }
            ));
            text.push('\n');
        }
        crate::summary::summarize(&crate::input::parse(&text).unwrap(), "tcg", &[])
    }

    fn is_png(p: &Path) -> bool {
        let b = std::fs::read(p).unwrap();
        b.len() > 1000 && b.starts_with(b"\x89PNG\r\n\x1a\n")
    }

    #[test]
    fn plots_with_and_without_text() {
        let s = sample();
        let dir = std::env::temp_dir().join(format!("report-plot-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // No font registered under this name: drawing text would fail, so
        // this also shows that the no-text plots draw none.
        let files = all(&dir, &s, false, false).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into())
            .collect();
        assert_eq!(names, ["latency-c-wakelat.png", "counters-c-wakelat.png"]);
        assert!(files.iter().all(|f| is_png(f)));
        assert!(!load_font(Path::new("/nonexistent/font.ttf")));
        if load_font(Path::new(DEFAULT_FONT)) {
            let files = all(&dir, &s, true, true).unwrap();
            assert!(files.iter().all(|f| is_png(f)));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn slugs() {
        assert_eq!(slug("rust_lb"), "rust_lb");
        assert_eq!(slug("a/b c"), "a_b_c");
    }
}
