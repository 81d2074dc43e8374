// SPDX-License-Identifier: GPL-2.0
//! Plots of the runs themselves: the headline's measures as one dot per
//! run beside the mean of each state, and latency CDFs from the workloads'
//! histograms (schbench's `hist`), feature off against on.

use crate::headline::{self, Case};
use crate::input::{Input, State};
use crate::plot::{chart_builder, font, legend, Res, OFF_COLOR, ON_COLOR};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// The headline as dots: one panel per case and measure, each run a dot
/// (feature off left, on right), the mean of each state a bar.
pub fn headline(path: &Path, cases: &[Case], text: bool) -> Res<()> {
    let rows: Vec<(&Case, &headline::Row)> = cases
        .iter()
        .flat_map(|c| c.rows.iter().map(move |r| (c, r)))
        .collect();
    if rows.is_empty() {
        return Ok(());
    }
    let nrow = rows.len().div_ceil(2);
    let root = BitMapBackend::new(path, (1100, 230 * nrow as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((nrow, 2));
    for ((case, row), area) in rows.iter().zip(panels.iter()) {
        let all: Vec<f64> = row.off.iter().chain(&row.on).copied().collect();
        let (mut lo, mut hi) = all
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let pad = ((hi - lo) * 0.15).max(hi.abs() * 0.05).max(1e-9);
        let (lo, hi) = (lo - pad, hi + pad);
        let mut b = chart_builder(
            area,
            8,
            if text { (22, 60) } else { (4, 4) },
            text.then(|| {
                (
                    format!(
                        "{} {}: {} {} ({})",
                        case.case, row.role, row.spec.workload, row.spec.metric, row.verdict
                    ),
                    13,
                )
            }),
        );
        let mut chart = b.build_cartesian_2d(-0.5..1.5, lo..hi)?;
        if text {
            let feature = case.feature.clone();
            let fmt = move |x: &f64| match x.round() as i64 {
                0 if x.abs() < 1e-6 => format!("NO_{feature}"),
                1 if (x - 1.0).abs() < 1e-6 => feature.clone(),
                _ => String::new(),
            };
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(5)
                .x_label_formatter(&fmt)
                .y_label_formatter(&|y: &f64| crate::plot::short(*y))
                .y_desc(row.unit.as_str())
                .label_style(font(11))
                .draw()?;
        }
        for (k, (vals, color)) in [(&row.off, OFF_COLOR), (&row.on, ON_COLOR)]
            .into_iter()
            .enumerate()
        {
            let n = vals.len().max(1) as f64;
            chart.draw_series(vals.iter().enumerate().map(|(i, v)| {
                // Spread the dots sideways in run order.
                let x = k as f64 - 0.2 + 0.4 * (i as f64 + 0.5) / n;
                Circle::new((x, *v), 4, color.filled())
            }))?;
            let mean = [row.off_mean, row.on_mean][k];
            if let Some(m) = mean {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(k as f64 - 0.3, m), (k as f64 + 0.3, m)],
                    BLACK.stroke_width(2),
                )))?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// Merged histogram of one state: upper bound (µs) -> count.
fn merged(input: &Input, case: &str, workload: &str, s: State) -> BTreeMap<u64, f64> {
    let mut m = BTreeMap::new();
    for r in input
        .runs
        .iter()
        .filter(|r| r.case == case && r.workload == workload && r.state == s && r.error.is_none())
    {
        for &(up, n) in &r.hist {
            // Keyed in ns so that bucket bounds compare exactly.
            *m.entry((up * 1000.0).round() as u64).or_insert(0.0) += n;
        }
    }
    m
}

/// Whether a case and workload have histograms in both states.
pub fn has_hist(input: &Input, case: &str, workload: &str) -> bool {
    [State::Off, State::On]
        .into_iter()
        .all(|s| !merged(input, case, workload, s).is_empty())
}

/// The latency CDF of all runs of each state (merged histograms), log x.
pub fn cdf(
    path: &Path,
    input: &Input,
    case: &str,
    feature: &str,
    workload: &str,
    floor_p99: Option<f64>,
    text: bool,
) -> Res<()> {
    let states = [State::Off, State::On].map(|s| merged(input, case, workload, s));
    let curves: Vec<Vec<(f64, f64)>> = states
        .iter()
        .map(|h| {
            let total: f64 = h.values().sum();
            let mut acc = 0.0;
            h.iter()
                .map(|(up, n)| {
                    acc += n;
                    ((*up as f64 / 1000.0).max(0.1), acc / total.max(1.0))
                })
                .collect()
        })
        .collect();
    let xs = curves.iter().flatten().map(|p| p.0);
    let lo = xs.clone().fold(f64::INFINITY, f64::min).max(0.1) / 1.5;
    let hi = xs.fold(1.0, f64::max) * 1.5;
    let root = BitMapBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut b = chart_builder(
        &root,
        14,
        if text { (40, 60) } else { (6, 6) },
        text.then(|| {
            (
                format!("{case}: {workload} wakeup latency CDF, {feature} off vs on (all runs)"),
                17,
            )
        }),
    );
    let mut chart = b.build_cartesian_2d((lo..hi).log_scale(), 0.0..1.0)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("wakeup latency (usec)")
            .y_desc("fraction of wakeups")
            .x_label_formatter(&|x: &f64| crate::plot::short(*x))
            .label_style(font(13))
            .axis_desc_style(font(13))
            .draw()?;
    }
    let labels = [format!("NO_{feature} (off)"), format!("{feature} (on)")];
    for (k, color) in [OFF_COLOR, ON_COLOR].into_iter().enumerate() {
        let s = chart.draw_series(LineSeries::new(curves[k].clone(), color.stroke_width(2)))?;
        if text {
            s.label(labels[k].clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
    }
    if let Some(f) = floor_p99.filter(|f| *f > lo && *f < hi) {
        let s = chart.draw_series(std::iter::once(PathElement::new(
            vec![(f, 0.0), (f, 1.0)],
            BLACK.stroke_width(1),
        )))?;
        if text {
            s.label("idle guest's p99 (the floor)")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK));
        }
    }
    if text {
        legend(&mut chart, SeriesLabelPosition::LowerRight, 13)?;
    }
    root.present()?;
    Ok(())
}

/// Whether a case has an occupancy sample in both states.
pub fn has_occupancy(input: &Input, case: &str) -> bool {
    [State::Off, State::On].into_iter().all(|s| {
        input
            .runs
            .iter()
            .any(|r| r.case == case && r.state == s && !r.occupancy.is_empty())
    })
}

/// The per-CPU occupancy timeline of one run in each state: a lane per CPU,
/// each sample a cell, white when the CPU had nothing runnable, blue with
/// one task, red with two or more (stacked).
pub fn occupancy(path: &Path, input: &Input, case: &str, feature: &str, text: bool) -> Res<()> {
    let pick = |s: State| {
        input
            .runs
            .iter()
            .find(|r| r.case == case && r.state == s && !r.occupancy.is_empty())
    };
    let runs = [pick(State::Off), pick(State::On)];
    let ncpu = runs
        .iter()
        .flatten()
        .flat_map(|r| r.occupancy.iter().map(|row| row.len() - 1))
        .max()
        .unwrap_or(0);
    let tmax = runs
        .iter()
        .flatten()
        .flat_map(|r| r.occupancy.iter().map(|row| row[0]))
        .fold(0.1, f64::max);
    let root = BitMapBackend::new(path, (1000, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((2, 1));
    for (k, (area, run)) in panels.iter().zip(runs.iter()).enumerate() {
        let Some(run) = run else { continue };
        let name = if k == 0 {
            format!("NO_{feature} (off)")
        } else {
            format!("{feature} (on)")
        };
        let mut b = chart_builder(
            area,
            10,
            if text { (30, 50) } else { (4, 4) },
            text.then(|| {
                (
                    format!(
                        "{case}: {name}, run {}: runnable tasks per CPU (white 0, blue 1, red 2+)",
                        run.iter
                    ),
                    14,
                )
            }),
        );
        let mut chart = b.build_cartesian_2d(0.0..tmax, 0.0..ncpu as f64)?;
        if text {
            chart
                .configure_mesh()
                .disable_mesh()
                .x_desc("s")
                .y_desc("CPU")
                .y_labels(ncpu.min(16))
                .label_style(font(11))
                .axis_desc_style(font(11))
                .draw()?;
        }
        let rows = &run.occupancy;
        for (i, row) in rows.iter().enumerate() {
            let t0 = row[0];
            let t1 = rows.get(i + 1).map_or(t0 + 0.1, |next| next[0]);
            for (cpu, n) in row[1..].iter().enumerate() {
                let color = match *n as i64 {
                    0 => continue,
                    1 => RGBColor(120, 160, 220),
                    _ => RGBColor(210, 40, 40),
                };
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(t0, cpu as f64 + 0.1), (t1, cpu as f64 + 0.9)],
                    color.filled(),
                )))?;
            }
        }
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse;

    fn sample() -> Input {
        let mut t = String::from(
            r#"{"meta":{"primary":{"c":{"effect":"schbench p99 -","benefit":"schbench rps +","claim":"x"}}}}"#,
        );
        for (i, st) in ["off", "on", "off", "on"].iter().enumerate() {
            t += &format!(
                "\n{{\"case\":\"c\",\"feature\":\"F\",\"state\":\"{st}\",\"iter\":{},\"workload\":\"schbench\",\"metrics\":{{\"p99\":{},\"rps\":{},\"hist\":[[10.0,5],[20.0,{}],[1000.0,1]]}},\"counters\":{{}},\"occupancy\":[[0.0,0,1,2],[0.1,1,2,0]],\"duration_s\":1}}",
                i / 2 + 1,
                100 + i * 10,
                50 + i,
                3 + i
            );
        }
        parse(&t).unwrap()
    }

    #[test]
    fn histograms_are_read_and_merged() {
        let inp = sample();
        assert_eq!(
            inp.runs[0].hist,
            vec![(10.0, 5.0), (20.0, 3.0), (1000.0, 1.0)]
        );
        let m = merged(&inp, "c", "schbench", State::Off);
        assert_eq!(m.get(&20_000), Some(&(3.0 + 5.0)));
        assert!(has_hist(&inp, "c", "schbench"));
        assert!(has_occupancy(&inp, "c"));
        assert_eq!(
            inp.runs[0].occupancy,
            vec![vec![0.0, 0.0, 1.0, 2.0], vec![0.1, 1.0, 2.0, 0.0]]
        );
        assert!(!has_hist(&inp, "c", "wakelat"));
    }

    #[test]
    fn plots_with_and_without_text() {
        let inp = sample();
        let h = headline::headline(&inp, &[]);
        let dir = std::env::temp_dir().join(format!("plot-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = crate::plot::load_font(Path::new(crate::plot::DEFAULT_FONT));
        for t in [false, text] {
            let p = dir.join(format!("headline-{t}.png"));
            headline(&p, &h, t).unwrap();
            assert!(std::fs::metadata(&p).unwrap().len() > 1000);
            let p = dir.join(format!("cdf-{t}.png"));
            cdf(&p, &inp, "c", "F", "schbench", Some(15.0), t).unwrap();
            assert!(std::fs::metadata(&p).unwrap().len() > 1000);
            let p = dir.join(format!("occ-{t}.png"));
            occupancy(&p, &inp, "c", "F", t).unwrap();
            assert!(std::fs::metadata(&p).unwrap().len() > 1000);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
