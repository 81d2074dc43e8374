// SPDX-License-Identifier: GPL-2.0
//! The summary of the CPU-count sweep (tools/measure/scale): per CPU count n and
//! feature state, the mean of the runs' measures with its 95% interval
//! (Student's t, `stats::ci95_amean`), as DIR/scale.txt, DIR/scale.json
//! and one PNG per measure, DIR/scale-MEASURE.png (every run a dot, the
//! mean with its interval, feature off and on, x the CPU count).
//!
//! The sweep's runs are DIR/nN/results.jsonl, tools/measure/experiment's results
//! of the serialize_due and ilb_util cases on a guest of N vCPUs.  The
//! measures are per operation, not per second: with 64 vCPUs on two host
//! cores the guest's seconds follow the emulator's scheduling.

use crate::input::{self, Run, State};
use crate::plot::{chart_builder, font, frame, legend, short, Res, OFF_COLOR, ON_COLOR};
use crate::stats;
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One measure of the sweep: taken from the runs of `workload` in `case`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure {
    pub case: &'static str,
    pub workload: &'static str,
    /// The name in scale.json and in the plot's file name.
    pub name: &'static str,
    /// What it is, for the table's heading and the plot's title.
    pub label: &'static str,
}

/// The sweep's measures, in the order of scale.txt and scale.json.
pub const MEASURES: [Measure; 5] = [
    Measure {
        case: "serialize_due",
        workload: "idlewake",
        name: "attempts_per_visit",
        label: "sched_balance_running attempts per visit of a serialized domain",
    },
    Measure {
        case: "serialize_due",
        workload: "idlewake",
        name: "due_per_visit",
        label: "visits due for balancing, per visit",
    },
    Measure {
        case: "serialize_due",
        workload: "idlewake",
        name: "contended_per_attempt",
        label: "attempts that found it taken, per attempt",
    },
    Measure {
        case: "ilb_util",
        workload: "hackbench",
        name: "groups_per_scan",
        label: "groups per newidle balance of the LLC",
    },
    Measure {
        case: "ilb_util",
        workload: "hackbench",
        name: "newidle_cost_us",
        label: "max_newidle_lb_cost, LLC level (us)",
    },
];

/// The value of measure `name` in one run; `None` when the run lacks it
/// (a ratio whose denominator is missing or 0).
///
/// * `attempts_per_visit`: serialize_attempts / rust_calls_serialize_try;
/// * `due_per_visit`: serialize_due / rust_calls_serialize_try;
/// * `contended_per_attempt`: serialize_contended / serialize_attempts;
/// * `groups_per_scan`: newidle_groups_scanned / newidle_scans;
/// * `newidle_cost_us`: the kstat max_newidle_lb_cost_d0 (ns) in µs.
///
/// A numerator missing from the counters is 0.
pub fn value(run: &Run, name: &str) -> Option<f64> {
    let c = &run.counters;
    let per = |num: &str, den: &str| {
        let d = c.get(den).copied().filter(|d| *d != 0.0)?;
        Some(c.get(num).copied().unwrap_or(0.0) / d)
    };
    match name {
        "attempts_per_visit" => per("serialize_attempts", "rust_calls_serialize_try"),
        "due_per_visit" => per("serialize_due", "rust_calls_serialize_try"),
        "contended_per_attempt" => per("serialize_contended", "serialize_attempts"),
        "groups_per_scan" => per("newidle_groups_scanned", "newidle_scans"),
        "newidle_cost_us" => c.get("kstat.max_newidle_lb_cost_d0").map(|v| v / 1000.0),
        _ => panic!("unknown scale measure '{name}'"),
    }
}

/// The runs of one measure: per state, (CPU count, value) in the order
/// read (CPU counts in the sweep's order, runs in file order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub off: Vec<(u32, f64)>,
    pub on: Vec<(u32, f64)>,
}

impl Series {
    /// The runs of `state`.
    pub fn of(&self, state: State) -> &[(u32, f64)] {
        match state {
            State::Off => &self.off,
            State::On => &self.on,
        }
    }

    /// The values of `state` at `n` CPUs.
    pub fn at(&self, state: State, n: u32) -> Vec<f64> {
        self.of(state)
            .iter()
            .filter(|(x, _)| *x == n)
            .map(|(_, v)| *v)
            .collect()
    }

    fn is_empty(&self) -> bool {
        self.off.is_empty() && self.on.is_empty()
    }
}

/// A sweep as read from its directory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sweep {
    /// The CPU counts asked for (those without results included).
    pub cpus: Vec<u32>,
    /// One series per entry of `MEASURES`.
    pub series: Vec<Series>,
    /// The feature of each case, as its runs name it.
    pub features: BTreeMap<String, String>,
}

impl Sweep {
    /// The sweep's runs from `runs`, one results file's parsed runs per
    /// CPU count.  Runs with an error are left out (those the host had run
    /// again are already set apart by `input::parse`).
    pub fn from_runs<'a>(cpus: &[u32], runs: impl IntoIterator<Item = (u32, &'a [Run])>) -> Sweep {
        let mut s = Sweep {
            cpus: cpus.to_vec(),
            series: vec![Series::default(); MEASURES.len()],
            features: BTreeMap::new(),
        };
        for (n, rs) in runs {
            for r in rs {
                if r.error.as_deref().is_some_and(|e| !e.is_empty()) {
                    continue;
                }
                s.features
                    .entry(r.case.clone())
                    .or_insert_with(|| r.feature.clone());
                for (m, series) in MEASURES.iter().zip(s.series.iter_mut()) {
                    if r.case != m.case || r.workload != m.workload {
                        continue;
                    }
                    if let Some(v) = value(r, m.name) {
                        match r.state {
                            State::Off => series.off.push((n, v)),
                            State::On => series.on.push((n, v)),
                        }
                    }
                }
            }
        }
        s
    }

    /// Reads DIR/nN/results.jsonl for each N of `cpus`; a count without
    /// that file is skipped.
    pub fn read(dir: &Path, cpus: &[u32]) -> Result<Sweep, String> {
        let mut per_n = Vec::new();
        for &n in cpus {
            let path = dir.join(format!("n{n}")).join("results.jsonl");
            if !path.exists() {
                continue;
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let inp = input::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            per_n.push((n, inp.runs));
        }
        Ok(Sweep::from_runs(
            cpus,
            per_n.iter().map(|(n, rs)| (*n, rs.as_slice())),
        ))
    }

    /// The feature of `case` (the case's name when no run named one).
    pub fn feature<'a>(&'a self, case: &'a str) -> &'a str {
        self.features.get(case).map_or(case, String::as_str)
    }
}

/// The mean of `xs` and the half-width of its 95% interval, t(0.975, n-1) · s / √n
/// (`stats::ci95_amean`, `None` below two values); `None` for no values.
pub fn mean_ci(xs: &[f64]) -> Option<(f64, Option<f64>)> {
    if xs.is_empty() {
        return None;
    }
    Some((stats::amean(xs)?, stats::ci95_amean(xs)))
}

/// `x` as Python's `format(x, ".3g")`: 3 significant digits, fixed point
/// for exponents -4 to 2 and scientific (`1.2e+03`) otherwise, trailing
/// zeros dropped.
pub fn g3(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{x:.2e}");
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("{:e}'s exponent is a number");
    let (sign, mant) = mant.strip_prefix('-').map_or(("", mant), |m| ("-", m));
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if x == 0.0 {
        return format!("{sign}0");
    }
    if (-4..3).contains(&exp) {
        let (int, frac) = if exp >= 0 {
            let k = exp as usize + 1;
            (digits[..k].to_string(), digits[k..].to_string())
        } else {
            ("0".to_string(), "0".repeat((-exp - 1) as usize) + &digits)
        };
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}.{frac}")
        }
    } else {
        let frac = digits[1..].trim_end_matches('0');
        let dot = if frac.is_empty() { "" } else { "." };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{}{dot}{frac}e{esign}{:02}", &digits[..1], exp.abs())
    }
}

const STATES: [(State, &str); 2] = [(State::Off, "off"), (State::On, "on")];

/// DIR/scale.txt: the `command` that made it and the kernel inputs it
/// names (tools/report/data-status reads that line) as `#` lines, then per
/// measure and CPU count the mean of each state's runs, its 95% interval
/// and the number of runs.
pub fn render_text(s: &Sweep, command: &str) -> String {
    let mut lines = vec![
        format!("# {command}"),
        format!(
            "# kernel inputs: of {}",
            s.cpus
                .iter()
                .map(|n| format!("n{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        "# per CPU count and state: mean of the runs [95% interval, Student's t] (runs)".into(),
        String::new(),
    ];
    for (m, series) in MEASURES.iter().zip(&s.series) {
        lines.push(format!("{} ({}, {})", m.label, m.case, m.workload));
        lines.push(format!("  {:>6} {:>30} {:>30}", "vCPUs", "off", "on"));
        for &n in &s.cpus {
            let cells: Vec<String> = STATES
                .iter()
                .map(|&(st, _)| {
                    let vs = series.at(st, n);
                    let Some((mu, h)) = mean_ci(&vs) else {
                        return format!("{:>30}", "-");
                    };
                    let ci = h.map_or(String::new(), |h| {
                        format!("[{}, {}]", g3(mu - h), g3(mu + h))
                    });
                    format!("{:>9} {ci:>15} ({})", g3(mu), vs.len())
                })
                .collect();
            lines.push(format!("  {n:>6} {:>30} {:>30}", cells[0], cells[1]));
        }
        lines.push(String::new());
    }
    lines.join("\n") + "\n"
}

/// DIR/scale.json: the CPU counts, and per measure its label, case, every
/// run as [n, value] and per state and n [mean, half-width of the 95%
/// interval or null].
pub fn render_json(s: &Sweep) -> String {
    let mut measures = serde_json::Map::new();
    for (m, series) in MEASURES.iter().zip(&s.series) {
        let mut runs = serde_json::Map::new();
        let mut means = serde_json::Map::new();
        for &(st, name) in &STATES {
            runs.insert(name.into(), json!(series.of(st)));
            let per_n: serde_json::Map<_, _> = s
                .cpus
                .iter()
                .filter_map(|&n| Some((n.to_string(), json!(mean_ci(&series.at(st, n))?))))
                .collect();
            means.insert(name.into(), per_n.into());
        }
        measures.insert(
            m.name.into(),
            json!({"label": m.label, "case": m.case, "runs": runs, "means": means}),
        );
    }
    let top = json!({"cpus": s.cpus, "measures": measures});
    serde_json::to_string_pretty(&top).expect("JSON of numbers and strings") + "\n"
}

/// The plots' x axis: linear in the CPU count, its ticks and grid lines
/// at the sweep's counts (not at round numbers).
struct CpuAxis {
    linear: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for CpuAxis {
    type ValueType = f64;
    type FormatOption = NoDefaultFormatting;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        self.linear.map(v, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.linear.range()
    }
}

impl ValueFormatter<f64> for CpuAxis {
    fn format(v: &f64) -> String {
        format!("{v}")
    }
}

/// The plot of one measure: x the CPU count, each run a dot (feature off
/// a little left of its count, on a little right), the mean of each state
/// a bar with its 95% interval as a whisker (cut at 0).  Without `text`
/// no title, labels or legend (no font).  Nothing is written for a
/// measure without runs: false.
pub fn plot(path: &Path, m: &Measure, feature: &str, series: &Series, text: bool) -> Res<bool> {
    if series.is_empty() {
        return Ok(false);
    }
    let pts = series.off.iter().chain(&series.on);
    let xmax = pts.clone().map(|p| p.0).max().unwrap_or(1) as f64 * 1.08;
    let mut cells = Vec::new();
    for &(st, _) in &STATES {
        let mut ns: Vec<u32> = series.of(st).iter().map(|p| p.0).collect();
        ns.sort_unstable();
        ns.dedup();
        for n in ns {
            if let Some((mu, h)) = mean_ci(&series.at(st, n)) {
                cells.push((st, n, mu, h));
            }
        }
    }
    let top = pts
        .map(|p| p.1)
        .chain(cells.iter().map(|c| c.2 + c.3.unwrap_or(0.0)))
        .fold(0.0, f64::max);
    // Headroom for the legend, which sits above the highest value.
    let top = if top > 0.0 { top * 1.3 } else { 1.0 };
    let mut ticks = pts_x(series);
    ticks.dedup();
    let x = CpuAxis {
        linear: (0.0..xmax).into(),
        ticks,
    };

    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut b = chart_builder(
        &root,
        14,
        if text { (44, 56) } else { (6, 6) },
        text.then(|| (format!("{} ({}, {})", m.label, m.case, m.workload), 16)),
    );
    let mut chart = b.build_cartesian_2d(x, 0.0..top)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("vCPUs")
            .max_light_lines(1)
            .y_label_formatter(&|y: &f64| short(*y))
            .label_style(font(13))
            .axis_desc_style(font(13))
            .draw()?;
    } else {
        frame(&chart)?;
    }
    // Off and on side by side: a fixed share of the axis either way.
    let dx = xmax * 0.012;
    for (k, (&(st, state), color)) in STATES.iter().zip([OFF_COLOR, ON_COLOR]).enumerate() {
        let off = (k as f64 * 2.0 - 1.0) * dx;
        let dots = chart.draw_series(
            series
                .of(st)
                .iter()
                .map(|&(n, v)| Circle::new((n as f64 + off, v), 4, color.mix(0.6).filled())),
        )?;
        if text {
            let name = match st {
                State::Off => format!("NO_{feature} ({state})"),
                State::On => format!("{feature} ({state})"),
            };
            dots.label(format!(
                "{name}: runs (dots), mean (bar), 95% interval (line)"
            ))
            .legend(move |(x, y)| Circle::new((x + 6, y), 4, color.filled()));
        }
        for &(_, n, mu, h) in cells.iter().filter(|c| c.0 == st) {
            let x = n as f64 + off;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x - dx * 0.8, mu), (x + dx * 0.8, mu)],
                color.stroke_width(3),
            )))?;
            if let Some(h) = h.filter(|h| *h > 0.0) {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(x, (mu - h).max(0.0)), (x, mu + h)],
                    color.stroke_width(2),
                )))?;
            }
        }
    }
    if text {
        legend(&mut chart, SeriesLabelPosition::UpperLeft, 13)?;
    }
    root.present()?;
    Ok(true)
}

/// The CPU counts of a series' runs, sorted.
fn pts_x(series: &Series) -> Vec<f64> {
    let mut xs: Vec<u32> = series.off.iter().chain(&series.on).map(|p| p.0).collect();
    xs.sort_unstable();
    xs.into_iter().map(f64::from).collect()
}

/// Writes DIR/scale.txt, DIR/scale.json and, when `plots` is given (with
/// text or without), DIR/scale-MEASURE.png; returns scale.txt's text and
/// the plots written.
pub fn write(
    dir: &Path,
    s: &Sweep,
    command: &str,
    plots: Option<bool>,
) -> Result<(String, Vec<PathBuf>), String> {
    let text = render_text(s, command);
    let put = |name: &str, data: &str| {
        let p = dir.join(name);
        std::fs::write(&p, data).map_err(|e| format!("{}: {e}", p.display()))
    };
    put("scale.txt", &text)?;
    put("scale.json", &render_json(s))?;
    let mut files = Vec::new();
    if let Some(with_text) = plots {
        for (m, series) in MEASURES.iter().zip(&s.series) {
            let p = dir.join(format!("scale-{}.png", m.name));
            if plot(&p, m, s.feature(m.case), series, with_text)
                .map_err(|e| format!("{}: {e}", p.display()))?
            {
                files.push(p);
            }
        }
    }
    Ok((text, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_interval_of_a_known_sample() {
        // [1, 2, 3, 4]: mean 2.5, s = 1.2909944487358056; scipy's
        // stats.t.ppf(0.975, 3) = 3.182446305284263, so the half-width is
        // 3.182446305284263 * 1.2909944487358056 / 2 = 2.054260256760879.
        let (m, h) = mean_ci(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(m, 2.5);
        let h = h.unwrap();
        assert!((h - 2.054260256760879).abs() < 1e-9, "{h}");
        // One run: a mean, no interval; none: nothing.
        assert_eq!(mean_ci(&[7.0]), Some((7.0, None)));
        assert_eq!(mean_ci(&[]), None);
        // No variance: an interval of width 0.
        assert_eq!(mean_ci(&[1.0; 4]), Some((1.0, Some(0.0))));
    }

    #[test]
    fn numbers_as_python_writes_them() {
        // format(x, ".3g") in Python 3.
        for (x, g) in [
            (0.0, "0"),
            (1.0, "1"),
            (0.33, "0.33"),
            (0.9998546088979354, "1"),
            (0.0637, "0.0637"),
            (2.48e-06, "2.48e-06"),
            (-0.000364, "-0.000364"),
            (0.00001234, "1.23e-05"),
            (931.4, "931"),
            (999.5, "1e+03"),
            (1085.0, "1.08e+03"),
            (6350.0, "6.35e+03"),
            (7000.0, "7e+03"),
            (12.45, "12.4"),
            (0.125, "0.125"),
        ] {
            assert_eq!(g3(x), g, "{x}");
        }
    }

    fn sample() -> Sweep {
        let mut runs = Vec::new();
        for (_n, st, attempts, due, calls) in [
            (8, "off", 10, 3, 10),
            (8, "on", 3, 3, 10),
            (8, "off", 12, 4, 12),
            (8, "on", 4, 4, 12),
            (16, "on", 2, 2, 10),
        ] {
            runs.push(format!(
                r#"{{"case":"serialize_due","feature":"SERIALIZE_DUE","state":"{st}","iter":1,"workload":"idlewake","metrics":{{}},"counters":{{"serialize_attempts":{attempts},"serialize_due":{due},"rust_calls_serialize_try":{calls}}}}}"#
            ));
        }
        // An error and a run of another workload: not part of it.
        runs.push(r#"{"case":"serialize_due","feature":"SERIALIZE_DUE","state":"on","iter":2,"workload":"idlewake","counters":{"serialize_attempts":9,"rust_calls_serialize_try":9},"error":"exit 1"}"#.into());
        runs.push(r#"{"case":"ilb_util","feature":"ILB_UTIL","state":"on","iter":1,"workload":"hackbench","counters":{"newidle_scans":0},"kstat":{"max_newidle_lb_cost_d0":1500}}"#.into());
        let parsed: Vec<(u32, Vec<Run>)> = [8, 16]
            .into_iter()
            .map(|n| {
                let text: Vec<&str> = runs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (*i == 4) == (n == 16))
                    .map(|(_, r)| r.as_str())
                    .collect();
                (n, input::parse(&text.join("\n")).unwrap().runs)
            })
            .collect();
        Sweep::from_runs(
            &[8, 16, 32],
            parsed.iter().map(|(n, rs)| (*n, rs.as_slice())),
        )
    }

    #[test]
    fn a_sweep_in_text_and_json() {
        let s = sample();
        assert_eq!(s.series[0].off, [(8, 1.0), (8, 1.0)]);
        assert_eq!(s.series[0].on, [(8, 0.3), (8, 1.0 / 3.0), (16, 0.2)]);
        assert!(s.series[3].is_empty(), "no newidle scans: no ratio");
        assert_eq!(s.series[4].on, [(8, 1.5)]);
        assert_eq!(s.feature("ilb_util"), "ILB_UTIL");
        assert_eq!(s.feature("other"), "other");

        // Lines as the Python tools/measure/scale wrote them for the same runs.
        let t = render_text(&s, "tools/measure/scale --summarize D --cpus 8,16,32");
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "# tools/measure/scale --summarize D --cpus 8,16,32");
        assert_eq!(lines[1], "# kernel inputs: of n8 n16 n32");
        assert_eq!(
            lines[4],
            "sched_balance_running attempts per visit of a serialized domain (serialize_due, idlewake)"
        );
        assert_eq!(
            lines[5],
            "   vCPUs                            off                             on"
        );
        assert_eq!(
            lines[6],
            "       8          1          [1, 1] (2)      0.317  [0.105, 0.528] (2)"
        );
        assert_eq!(
            lines[7],
            "      16                              -        0.2                 (1)"
        );
        assert_eq!(
            lines[8],
            "      32                              -                              -"
        );

        let j = render_json(&s);
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["cpus"], serde_json::json!([8, 16, 32]));
        let m = &v["measures"]["attempts_per_visit"];
        assert_eq!(m["runs"]["on"][2], serde_json::json!([16, 0.2]));
        assert_eq!(m["means"]["on"]["16"], serde_json::json!([0.2, null]));
        assert!(m["means"]["off"].get("16").is_none());
        assert_eq!(
            v["measures"]["groups_per_scan"]["runs"]["off"],
            serde_json::json!([])
        );
    }

    #[test]
    fn plots_with_and_without_text() {
        let s = sample();
        let dir = std::env::temp_dir().join(format!("scale-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let is_png = |p: &Path| {
            let b = std::fs::read(p).unwrap();
            b.len() > 1000 && b.starts_with(b"\x89PNG\r\n\x1a\n")
        };
        let (_, files) = write(&dir, &s, "x", Some(false)).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into())
            .collect();
        // Every measure with runs, none for groups_per_scan.
        assert_eq!(
            names,
            [
                "scale-attempts_per_visit.png",
                "scale-due_per_visit.png",
                "scale-contended_per_attempt.png",
                "scale-newidle_cost_us.png"
            ]
        );
        assert!(files.iter().all(|f| is_png(f)));
        assert!(dir.join("scale.txt").exists() && dir.join("scale.json").exists());
        if crate::plot::load_font(Path::new(crate::plot::DEFAULT_FONT)) {
            let (_, files) = write(&dir, &s, "x", Some(true)).unwrap();
            assert!(files.iter().all(|f| is_png(f)));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
