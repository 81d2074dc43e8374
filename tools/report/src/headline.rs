// SPDX-License-Identifier: GPL-2.0
//! The headline: per case, the two primary measures the case table names
//! (the mechanism's effect and the benefit the seed claims), each with the
//! feature off and on, the difference with its 95% confidence interval,
//! Welch's and the paired (ABBA) t-test, and a verdict against the seed's
//! expectation.  Only measures that exist in both states belong here.

use crate::input::{Input, Run, State};
use crate::stats;
use crate::summary::{classify, Kind, Ratio};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the seed says a measure does with the feature on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    Lower,
    Higher,
    /// No difference (an equivalence claim).
    Same,
}

impl Expect {
    fn symbol(self) -> &'static str {
        match self {
            Expect::Lower => "-",
            Expect::Higher => "+",
            Expect::Same => "=",
        }
    }
}

/// The margin of an equivalence claim ("the same cost"): ±1% of the
/// baseline mean.
pub const SAME_MARGIN: f64 = 0.01;

/// One primary measure of the case table: "WORKLOAD METRIC EXPECT".
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spec {
    pub workload: String,
    pub metric: String,
    pub expect: Expect,
}

impl std::str::FromStr for Spec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let f: Vec<&str> = s.split_whitespace().collect();
        let [workload, metric, expect] = f[..] else {
            return Err(format!("bad measure '{s}' (want WORKLOAD METRIC -|+|=)"));
        };
        let expect = match expect {
            "-" => Expect::Lower,
            "+" => Expect::Higher,
            "=" => Expect::Same,
            e => return Err(format!("bad expectation '{e}' in '{s}' (want -, + or =)")),
        };
        Ok(Spec {
            workload: workload.into(),
            metric: metric.into(),
            expect,
        })
    }
}

/// One measure of one case, both states.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// "effect" or "benefit".
    pub role: &'static str,
    pub spec: Spec,
    /// Per-run values (off, on), in iteration order.
    pub off: Vec<f64>,
    pub on: Vec<f64>,
    /// How the runs are averaged: the harmonic mean for rates, as in the
    /// detail tables (`summary::classify`), else the arithmetic mean.
    pub kind: Kind,
    pub off_mean: Option<f64>,
    pub on_mean: Option<f64>,
    /// on / off - 1 in percent, and Fieller's 95% interval of it (`None`
    /// when unbounded).
    pub diff_pct: Option<f64>,
    pub ci_pct: Option<(f64, f64)>,
    /// Welch's test, on the mean's scale (`Kind::scale`): the significance
    /// of the verdict, as in the detail tables.
    pub welch: Option<stats::TTest>,
    /// Paired t-test over the iterations that have both states.
    pub paired: Option<stats::TTest>,
    /// Wilcoxon's signed-rank test of the same pairs: the robust check,
    /// which one outlying run cannot sway.
    pub wilcoxon: Option<stats::Wilcoxon>,
    pub pairs: usize,
    /// The smallest margin (percent of the baseline) within which TOST
    /// shows the states equivalent.
    pub equiv_pct: Option<f64>,
    /// What these runs could resolve: the minimum detectable effect and the
    /// smallest equivalence margin at their n, from their own variances.
    pub resolution: Option<stats::Resolution>,
    pub verdict: String,
    /// What the values are in (`unit()`), for an axis.
    pub unit: String,
}

/// The unit of what `run_value()` returns for `metric`: a ratio of two
/// counters, a counter per second of run, or a workload's field, named by
/// the convention of the workloads' JSON lines (`*_s` seconds, `p50`..`p999`
/// wakeup-latency percentiles in microseconds, `*_ns` nanoseconds,
/// `rps`/`tps`/`*_per_s` rates).
pub fn unit(metric: &str, ratios: &[Ratio]) -> String {
    if let Some(q) = ratios.iter().find(|q| q.name == metric) {
        return format!("{} per {}", q.num, q.den);
    }
    let percentile = metric.len() > 1
        && metric.starts_with('p')
        && metric[1..].chars().all(|c| c.is_ascii_digit() || c == '.');
    match metric {
        "rps" => "requests/s".into(),
        "tps" => "transactions/s".into(),
        _ if percentile || metric.ends_with("_us") => "µs".into(),
        _ if metric.ends_with("_ns") => "ns".into(),
        _ if metric.ends_with("_per_s") => "per s".into(),
        _ if metric.ends_with("_s") => "s".into(),
        _ if metric.starts_with("kstat.max_") => "level".into(),
        _ => "per s of run".into(),
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Case {
    pub case: String,
    pub feature: String,
    pub claim: String,
    pub rows: Vec<Row>,
}

/// The value of `metric` in one run: a field of the workload's JSON line,
/// a ratio of counters, or a counter (or kstat.NAME) per second of run;
/// `kstat.max_*` levels as they are.
pub fn run_value(r: &Run, metric: &str, ratios: &[Ratio]) -> Option<f64> {
    if let Some(v) = r.metrics.get(metric) {
        return Some(*v);
    }
    if let Some(q) = ratios.iter().find(|q| q.name == metric) {
        let c = |n: &str| r.counters.get(n).copied();
        let (num, den) = (c(&q.num)?, c(&q.den)?);
        return (den != 0.0).then(|| num / den);
    }
    let c = *r.counters.get(metric)?;
    if metric.starts_with("kstat.max_") {
        return Some(c);
    }
    (r.duration_s > 0.0).then(|| c / r.duration_s)
}

/// "cannot tell at n=N: ..." when the runs cannot resolve `target` (a
/// fraction): what they resolve, and how many runs per state would.
fn cannot_tell(res: Option<&stats::Resolution>, target: f64) -> Option<String> {
    let r = res?;
    if r.mde <= target {
        return None;
    }
    let more = stats::iterations_for(r, target)
        .map_or("more than ten million".to_string(), |n| format!("about {n}"));
    Some(format!(
        "cannot tell at n={}: resolves ±{:.1}% (MDE); {more} runs per state would resolve ±{}%",
        r.n,
        r.mde * 100.0,
        target * 100.0
    ))
}

fn verdict(
    expect: Expect,
    welch: Option<&stats::TTest>,
    means: (Option<f64>, Option<f64>),
    wilcoxon: Option<&stats::Wilcoxon>,
    equiv_pct: Option<f64>,
    res: Option<&stats::Resolution>,
) -> String {
    let (Some(t), (Some(off), Some(on))) = (welch, means) else {
        return "no data (fewer than 2 runs per state)".into();
    };
    match expect {
        // An equivalence claim at ±1% needs runs that resolve 1%: a wide
        // margin from runs that cannot is no evidence either way.
        Expect::Same => match equiv_pct {
            Some(m) if m <= SAME_MARGIN * 100.0 => format!("yes: equivalent within ±{m:.2}%"),
            Some(m) => cannot_tell(res, SAME_MARGIN)
                .unwrap_or_else(|| format!("no: not within ±1% (equivalent within ±{m:.1}%)")),
            None => "no data".into(),
        },
        Expect::Lower | Expect::Higher => {
            let want_up = expect == Expect::Higher;
            // Where the rank test disagrees with Welch's (an outlying run
            // makes the one, not the other), the verdict says so.
            let ranks = |significant: bool| match wilcoxon {
                Some(w) if (w.p < 0.05) == significant => format!(
                    " ({} by the ranks: Wilcoxon p {})",
                    if significant {
                        "but significant"
                    } else {
                        "not"
                    },
                    p_text(w.p)
                ),
                _ => String::new(),
            };
            let robust = ranks(false);
            if t.p >= 0.05 {
                let mde = res.map_or(String::new(), |r| {
                    format!("; MDE ±{:.1}% at n={}", r.mde * 100.0, r.n)
                });
                format!("no: not significant{}{mde}", ranks(true))
            } else if (on > off) == want_up && on != off {
                format!("yes{robust}")
            } else {
                format!("no: the opposite{robust}")
            }
        }
    }
}

fn row(role: &'static str, spec: Spec, runs: &[&Run], ratios: &[Ratio]) -> Row {
    let by_iter = |s: State| -> BTreeMap<u64, f64> {
        runs.iter()
            .filter(|r| r.state == s && r.error.is_none() && r.workload == spec.workload)
            .filter_map(|r| Some((r.iter, run_value(r, &spec.metric, ratios)?)))
            .collect()
    };
    let (offm, onm) = (by_iter(State::Off), by_iter(State::On));
    let off: Vec<f64> = offm.values().copied().collect();
    let on: Vec<f64> = onm.values().copied().collect();
    let (pb, pc): (Vec<f64>, Vec<f64>) = offm
        .iter()
        .filter_map(|(i, b)| Some((*b, *onm.get(i)?)))
        .unzip();
    let kind = classify(&spec.metric).map_or(Kind::Amean, |(k, _)| k);
    let mean = |xs: &[f64]| match kind {
        Kind::Hmean => stats::hmean(xs),
        _ => stats::amean(xs),
    };
    let (off_mean, on_mean) = (mean(&off), mean(&on));
    let (ratio, welch) = kind.change(&off, &on);
    let pct = |r: f64| (r - 1.0) * 100.0;
    let diff_pct = ratio.map(|r| pct(r.ratio));
    // A ratio of positive means is not negative: Fieller's lower end,
    // which can pass 0 when the baseline's mean is poorly known, is cut at
    // -100%.
    let ci_pct = ratio.and_then(|r| Some((pct(r.lo?.max(0.0)), pct(r.hi?))));
    let (sb, sc) = (kind.scale(&pb), kind.scale(&pc));
    let wilcoxon = stats::wilcoxon(&sb, &sc);
    let equiv_pct =
        stats::min_equivalence_margin(&kind.scale(&off), &kind.scale(&on)).map(|m| m * 100.0);
    let resolution = stats::resolution(&off, &on);
    let verdict = verdict(
        spec.expect,
        welch.as_ref(),
        (off_mean, on_mean),
        wilcoxon.as_ref(),
        equiv_pct,
        resolution.as_ref(),
    );
    Row {
        role,
        unit: unit(&spec.metric, ratios),
        kind,
        off_mean,
        on_mean,
        diff_pct,
        ci_pct,
        welch,
        paired: stats::paired(&sb, &sc),
        wilcoxon,
        pairs: pb.len(),
        equiv_pct,
        resolution,
        verdict,
        off,
        on,
        spec,
    }
}

/// The headline of every case that the meta line's "primary" describes
/// (the case table's effect, benefit and claim), in the order of the runs.
pub fn headline(input: &Input, ratios: &[Ratio]) -> Vec<Case> {
    let Some(primary) = input.meta.get("primary").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut order: Vec<&str> = Vec::new();
    for r in &input.runs {
        if !order.contains(&r.case.as_str()) {
            order.push(&r.case);
        }
    }
    order
        .into_iter()
        .filter_map(|case| {
            let p = primary.get(case)?.as_object()?;
            let runs: Vec<&Run> = input.runs.iter().filter(|r| r.case == case).collect();
            let field = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let rows = [("effect", field("effect")), ("benefit", field("benefit"))]
                .into_iter()
                .filter_map(|(role, spec)| Some(row(role, spec.parse().ok()?, &runs, ratios)))
                .collect();
            Some(Case {
                case: case.to_string(),
                feature: runs[0].feature.clone(),
                claim: field("claim"),
                rows,
            })
        })
        .collect()
}

/// A number with 3 significant digits (or fewer decimals when large).
pub fn num(x: Option<f64>) -> String {
    match x {
        None => "-".into(),
        Some(0.0) => "0".into(),
        Some(v) => {
            let a = v.abs();
            let dec = if a >= 100.0 {
                0
            } else if a >= 10.0 {
                1
            } else if a >= 1.0 {
                2
            } else {
                (2 - a.log10().floor() as i32).clamp(2, 8) as usize
            };
            format!("{v:.dec$}")
        }
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:+.1}%"))
}

fn ci(x: Option<(f64, f64)>) -> String {
    x.map_or("-".into(), |(a, b)| format!("[{a:+.1}, {b:+.1}]%"))
}

fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

fn p(t: Option<f64>) -> String {
    t.map_or("-".into(), p_text)
}

fn measure(r: &Row) -> String {
    format!(
        "{} {} {}",
        r.spec.workload,
        r.spec.metric,
        r.spec.expect.symbol()
    )
}

/// The floor line: the guest's wakeup latency with nothing else running
/// (the meta line's "floor") and with every vCPU busy under SCHED_IDLE
/// spinners ("floor_loaded"): the emulator's own latency beside every
/// latency result.
pub fn floor_line(meta: &serde_json::Map<String, Value>) -> Option<String> {
    let part = |k: &str| -> Option<String> {
        let f = meta.get(k)?.as_object()?;
        let g = |k: &str| f.get(k).and_then(Value::as_f64);
        g("p50")?;
        Some(format!(
            "p50 {} us, p99 {} us ({} samples)",
            num(g("p50")),
            num(g("p99")),
            g("samples").map_or("?".into(), |n| format!("{n:.0}"))
        ))
    };
    let idle = part("floor")?;
    let cmd = meta
        .get("floor_cmd")
        .and_then(Value::as_str)
        .unwrap_or("schbench");
    let loaded = part("floor_loaded").map_or(String::new(), |l| {
        format!("; every vCPU busy (spin -i, SCHED_IDLE): {l}")
    });
    Some(format!(
        "emulator's wakeup-latency floor ({cmd}): idle guest {idle}{loaded}"
    ))
}

/// The host line: what other work took of the host's CPUs during the
/// runs (tools/measure/experiment's per-run record), beside the floor, so that a
/// reader sees how quiet the host was; for runs without that record, the
/// host's load average when the experiment started.
pub fn host_line(inp: &Input) -> String {
    let shares: Vec<f64> = inp
        .runs
        .iter()
        .chain(&inp.discarded)
        .filter_map(|r| r.host.as_ref().map(|h| h.share * 100.0))
        .collect();
    if shares.is_empty() {
        let load = inp
            .meta
            .get("host_loadavg")
            .and_then(Value::as_array)
            .and_then(|l| l.first())
            .and_then(Value::as_str)
            .unwrap_or("?");
        return format!(
            "host: no per-run record of its other work (taken before it was recorded); \
             1-minute load average {load} at the start"
        );
    }
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    let max = shares.iter().copied().fold(0.0, f64::max);
    let limit = inp
        .meta
        .get("host_share_limit")
        .and_then(Value::as_f64)
        .map_or("no limit".to_string(), |l| {
            format!("limit {}%", num(Some(l * 100.0)))
        });
    let kept = inp
        .runs
        .iter()
        .filter(|r| r.host.as_ref().is_some_and(|h| h.verdict == "busy"))
        .count();
    let steal: Vec<f64> = inp
        .runs
        .iter()
        .filter_map(|r| r.host.as_ref()?.steal_share.map(|s| s * 100.0))
        .collect();
    let steal = if steal.is_empty() {
        String::new()
    } else {
        format!(
            "; the hypervisor below it took {}% on average (steal)",
            num(Some(steal.iter().sum::<f64>() / steal.len() as f64))
        )
    };
    format!(
        "host: other work took {}% of its CPU time during a run on average, {}% at most \
         ({limit}; {} runs run again, {kept} kept above it){steal}",
        num(Some(mean)),
        num(Some(max)),
        inp.discarded.len()
    )
}

/// What the columns are, above both renderings.
const LEGEND: &str = "(mean of the runs of each state: Hmean (harmonic) for rates, Amean \
(arithmetic) otherwise, as in the detail tables; diff = on / off - 1 with Fieller's 95% \
interval of the ratio of the means; p: Welch's two-sample t-test on the mean's scale (1/x \
for Hmean), which decides significance here and in the detail tables, then the paired t-test \
and Wilcoxon's signed-rank test of the same iterations' pairs; MDE: the minimum detectable \
effect at these runs' n and variances (Welch, two-sided α = 0.05, 80% power, on the log \
scale), the smallest change that this run could tell from noise; no verdict claims less)";

/// The columns of both renderings, in the order of [`cells`]: the text
/// table's heading and the reStructuredText one's.
const COLUMNS: [(&str, &str); 13] = [
    ("case", "case"),
    ("role", "role"),
    ("measure (expect)", "measure (expect)"),
    ("mean", "mean"),
    ("off", "off"),
    ("on", "on"),
    ("diff", "diff"),
    ("95% CI", "95% CI"),
    ("MDE", "MDE"),
    ("p", "p (Welch)"),
    ("p pair", "p (paired t)"),
    ("p rank", "p (Wilcoxon)"),
    ("reproduced", "reproduced"),
];

/// One row's cells, in the order of both renderings' columns.
fn cells(c: &Case, r: &Row) -> [String; 13] {
    [
        c.case.clone(),
        r.role.to_string(),
        measure(r),
        r.kind.label().to_string(),
        num(r.off_mean),
        num(r.on_mean),
        pct(r.diff_pct),
        ci(r.ci_pct),
        r.resolution
            .map_or("-".into(), |x| format!("±{:.2}%", x.mde * 100.0)),
        p(r.welch.map(|t| t.p)),
        p(r.paired.map(|t| t.p)),
        p(r.wilcoxon.map(|w| w.p)),
        r.verdict.clone(),
    ]
}

/// Runs off and on behind a case's measures.
fn runs(c: &Case) -> (usize, usize) {
    c.rows.first().map_or((0, 0), |r| (r.off.len(), r.on.len()))
}

/// The headline as text, the first table of the report.
pub fn render_text(cases: &[Case], inp: &Input) -> String {
    let meta = &inp.meta;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Headline: each seed's claim, measured with the feature off (baseline) and on"
    );
    let _ = writeln!(o, "{LEGEND}");
    if let Some(f) = floor_line(meta) {
        let _ = writeln!(o, "{f}");
    }
    let _ = writeln!(o, "{}", host_line(inp));
    let [case, role, m, kind, off, on, diff, ci, mde, pw, pp, pr, verdict] = COLUMNS.map(|(t, _)| t);
    let _ = writeln!(
        o,
        "\n{case:<16} {role:<8} {m:<40} {kind:<5} {off:>10} {on:>10} {diff:>8} {ci:>18} {mde:>8} {pw:>8} {pp:>8} {pr:>8}  {verdict}"
    );
    for c in cases {
        for r in &c.rows {
            let [case, role, m, kind, off, on, diff, ci, mde, pw, pp, pr, verdict] = cells(c, r);
            let _ = writeln!(
                o,
                "{case:<16} {role:<8} {m:<40} {kind:<5} {off:>10} {on:>10} {diff:>8} {ci:>18} {mde:>8} {pw:>8} {pp:>8} {pr:>8}  {verdict}"
            );
        }
        let n = runs(c);
        let _ = writeln!(
            o,
            "{:<16} claim: {} ({}; {} runs off, {} on)",
            "", c.claim, c.feature, n.0, n.1
        );
    }
    o
}

/// The headline as reStructuredText (Documentation/results.rst includes it).
pub fn render_rst(cases: &[Case], inp: &Input) -> String {
    let meta = &inp.meta;
    let mut o = String::new();
    let _ = writeln!(
        o,
        ".. Generated by tools/report --rst from the results beside this file; do not edit.\n"
    );
    let _ = writeln!(
        o,
        "{}\n",
        LEGEND.trim_start_matches('(').trim_end_matches(')')
    );
    if let Some(f) = floor_line(meta) {
        let _ = writeln!(o, "{f}.\n");
    }
    let _ = writeln!(o, "{}.\n", host_line(inp));
    let _ = writeln!(o, ".. list-table::\n   :header-rows: 1\n");
    let head = COLUMNS.map(|(_, rst)| rst);
    let cell = |o: &mut String, first: bool, s: &str| {
        let s = if s.is_empty() { "\\ " } else { s };
        let _ = writeln!(o, "   {} - {}", if first { "*" } else { " " }, s);
    };
    for (i, h) in head.iter().enumerate() {
        cell(&mut o, i == 0, h);
    }
    for c in cases {
        for r in &c.rows {
            let mut row = cells(c, r);
            row[2] = format!("``{}``", row[2]);
            for (i, s) in row.iter().enumerate() {
                cell(&mut o, i == 0, s);
            }
        }
    }
    let _ = writeln!(o);
    for c in cases {
        let n = runs(c);
        let _ = writeln!(
            o,
            "- ``{}`` ({}): {} ({} runs off, {} on).",
            c.case, c.feature, c.claim, n.0, n.1
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse;

    fn run(state: &str, iter: u32, v: f64, calls: f64) -> String {
        format!(
            r#"{{"case":"c","feature":"F","state":"{state}","iter":{iter},"workload":"w","metrics":{{"p99":{v}}},"counters":{{"a":{calls},"b":2}},"kstat":{{"nl_count":{calls}}},"duration_s":2}}"#
        )
    }

    fn input(effect: &str, benefit: &str, vals: &[(f64, f64)]) -> Input {
        let mut t = format!(
            r#"{{"meta":{{"primary":{{"c":{{"effect":"{effect}","benefit":"{benefit}","claim":"x"}}}}}}}}"#
        );
        t.push('\n');
        for (i, (off, on)) in vals.iter().enumerate() {
            let i = i as u32 + 1;
            t += &run("off", i, *off, 100.0 * off);
            t.push('\n');
            t += &run("on", i, *on, 100.0 * on);
            t.push('\n');
        }
        parse(&t).unwrap()
    }

    #[test]
    fn specs_parse_or_say_why() {
        let s: Spec = "schbench p99 -".parse().unwrap();
        assert_eq!(
            (s.workload.as_str(), s.metric.as_str(), s.expect),
            ("schbench", "p99", Expect::Lower)
        );
        assert!("schbench p99".parse::<Spec>().is_err());
        assert!("schbench p99 ~".parse::<Spec>().is_err());
    }

    #[test]
    fn units_follow_the_kind_of_value() {
        let q = vec![Ratio {
            name: "cal_per_wakeup".into(),
            num: "kstat.ipi_cal".into(),
            den: "kstat.ttwu_count".into(),
        }];
        assert_eq!(
            unit("cal_per_wakeup", &q),
            "kstat.ipi_cal per kstat.ttwu_count"
        );
        assert_eq!(unit("p99", &q), "µs");
        assert_eq!(unit("p99.9", &q), "µs");
        assert_eq!(unit("time_s", &q), "s");
        assert_eq!(unit("rps", &q), "requests/s");
        assert_eq!(unit("tps", &q), "transactions/s");
        assert_eq!(unit("loops_per_s", &q), "per s");
        assert_eq!(unit("kstat.nl_count", &q), "per s of run");
        assert_eq!(unit("serialize_contended", &q), "per s of run");
    }

    #[test]
    fn values_resolve_metric_ratio_counter_kstat() {
        let inp = input("w p99 -", "w kstat.nl_count +", &[(10.0, 5.0)]);
        let r = &inp.runs[0];
        let q: Vec<Ratio> = vec!["ab=a/b".parse().unwrap()];
        assert_eq!(run_value(r, "p99", &q), Some(10.0));
        assert_eq!(run_value(r, "ab", &q), Some(500.0));
        assert_eq!(run_value(r, "a", &q), Some(500.0)); // per second
        assert_eq!(run_value(r, "kstat.nl_count", &q), Some(500.0));
        assert_eq!(run_value(r, "missing", &q), None);
    }

    #[test]
    fn verdicts_follow_the_data() {
        // Lower with the feature on, clearly: reproduced.
        let clear: Vec<(f64, f64)> = (0..8)
            .map(|i| (100.0 + i as f64, 50.0 + i as f64))
            .collect();
        let h = headline(&input("w p99 -", "w p99 +", &clear), &[]);
        assert_eq!(h[0].rows[0].verdict, "yes");
        assert_eq!(h[0].rows[1].verdict, "no: the opposite");
        assert_eq!(h[0].rows[0].pairs, 8);
        let (lo, hi) = h[0].rows[0].ci_pct.unwrap();
        assert!(lo < -45.0 && hi > -55.0 && lo < hi);
        // Noise only: not significant, and no equivalence at 1%.
        let noise = [(100.0, 90.0), (80.0, 110.0), (120.0, 95.0), (90.0, 105.0)];
        let h = headline(&input("w p99 -", "w p99 =", &noise), &[]);
        // Noise only: not significant, with what the runs could resolve;
        // and the equivalence claim at ±1% cannot be told at n=4.
        let v = &h[0].rows[0].verdict;
        assert!(v.starts_with("no: not significant; MDE ±"), "{v}");
        let mde = h[0].rows[0].resolution.unwrap().mde;
        assert!(v.contains(&format!("±{:.1}% at n=4", mde * 100.0)), "{v}");
        let v = &h[0].rows[1].verdict;
        assert!(v.starts_with("cannot tell at n=4: resolves ±"), "{v}");
        assert!(v.contains("runs per state would resolve ±1%"), "{v}");
        // A claimed margin is never below what the runs can resolve.
        let r = &h[0].rows[1];
        assert!(r.equiv_pct.unwrap() >= r.resolution.unwrap().equiv_floor * 100.0);
        // Tight runs that differ by 3%: told, and not equivalent at ±1%.
        let apart: Vec<(f64, f64)> = (0..8)
            .map(|i| (1000.0 + i as f64 * 0.1, 1030.0 + i as f64 * 0.1))
            .collect();
        let h = headline(&input("w p99 =", "w p99 =", &apart), &[]);
        let v = &h[0].rows[0].verdict;
        assert!(v.starts_with("no: not within ±1% (equivalent within ±3.0"), "{v}");
        // Tight and equal: equivalent within 1%.
        let same: Vec<(f64, f64)> = (0..8)
            .map(|i| (1000.0 + i as f64, 1000.5 + i as f64))
            .collect();
        let h = headline(&input("w p99 =", "w p99 =", &same), &[]);
        assert!(
            h[0].rows[0].verdict.starts_with("yes: equivalent"),
            "{}",
            h[0].rows[0].verdict
        );
    }

    #[test]
    fn rates_take_the_harmonic_mean_and_ratios_stay_above_minus_100() {
        // A rate: the harmonic mean, as in the detail tables.  Off 40 and
        // 60 (H = 48), on 80 and 120 (H = 96): +100%.
        let mut t = String::from(
            r#"{"meta":{"primary":{"c":{"effect":"w kstat.nl_count -","benefit":"w tps +","claim":"x"}}}}"#,
        );
        t.push('\n');
        let cut = [
            (40.0, 80.0, 30.0, 1.0),
            (60.0, 120.0, 2.0, 0.1),
            (50.0, 100.0, 20.0, 0.5),
            (40.0, 80.0, 25.0, 0.8),
            (60.0, 120.0, 10.0, 0.3),
            (50.0, 100.0, 40.0, 1.2),
        ];
        for (i, (off, on, noff, non)) in cut.iter().enumerate() {
            for (state, tps, nl) in [("off", off, noff), ("on", on, non)] {
                t += &format!(
                    r#"{{"case":"c","feature":"F","state":"{state}","iter":{},"workload":"w","metrics":{{"tps":{tps}}},"counters":{{}},"kstat":{{"nl_count":{nl}}},"duration_s":1}}"#,
                    i + 1
                );
                t.push('\n');
            }
        }
        let h = headline(&parse(&t).unwrap(), &[]);
        let [effect, benefit] = &h[0].rows[..] else {
            panic!("two rows")
        };
        assert_eq!(benefit.kind, Kind::Hmean);
        // The harmonic mean doubles with every rate (the arithmetic
        // mean of the same runs would too, but not the mean of the
        // runs' ratios).
        assert!(
            (benefit.diff_pct.unwrap() - 100.0).abs() < 1e-9,
            "{benefit:?}"
        );
        // A 97% cut of a noisy count: the difference's interval over the
        // off mean would reach below -100%; the ratio's does not.
        assert_eq!(effect.kind, Kind::Amean);
        let (lo, hi) = effect.ci_pct.unwrap();
        assert!(
            lo > -100.0 && lo < effect.diff_pct.unwrap() && hi > lo,
            "{effect:?}"
        );
        let w = effect.welch.unwrap();
        assert!(w.lo / effect.off_mean.unwrap() * 100.0 < -100.0, "{w:?}");
    }

    #[test]
    fn the_rank_test_is_shown_where_it_disagrees() {
        // Eleven pairs lower with the feature, one far higher: Welch does
        // not see it, the ranks do (R+ = 12 of 78, p 0.034).
        let mut v: Vec<(f64, f64)> = (0..11)
            .map(|i| (100.0 + i as f64, 90.0 + 0.7 * i as f64))
            .collect();
        v.push((100.0, 400.0));
        let h = headline(&input("w p99 -", "w p99 +", &v), &[]);
        let r = &h[0].rows[0];
        assert!(
            r.wilcoxon.unwrap().p < 0.05 && r.welch.unwrap().p >= 0.05,
            "{r:?}"
        );
        assert!(
            r.verdict
                .starts_with("no: not significant (but significant by the ranks"),
            "{}",
            r.verdict
        );
    }

    #[test]
    fn renders_text_and_rst() {
        let clear: Vec<(f64, f64)> = (0..4)
            .map(|i| (100.0 + i as f64, 50.0 + i as f64))
            .collect();
        let inp = input("w p99 -", "w a -", &clear);
        let h = headline(&inp, &[]);
        let t = render_text(&h, &inp);
        assert!(t.contains("effect") && t.contains("w p99 -") && t.contains("claim: x"));
        let r = render_rst(&h, &inp);
        assert!(r.contains(".. list-table::") && r.contains("``w a -``"));
    }
}
