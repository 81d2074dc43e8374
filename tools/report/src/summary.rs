// SPDX-License-Identifier: GPL-2.0
//! From runs to comparisons: per case and workload, every metric and
//! counter with the feature off (baseline) and on (compare).

use crate::input::{Input, Run, State};
use crate::stats::{self, Better};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// How a quantity is averaged over the runs of one state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Arithmetic mean: latencies, times.
    Amean,
    /// Harmonic mean: rates (rps, tps, loops/s).
    Hmean,
    /// A counter per second of run (arithmetic mean of the runs' rates).
    Rate,
    /// A counter per run (arithmetic mean).
    PerRun,
    /// A ratio of two counters per run (arithmetic mean), `--ratio`.
    Ratio,
}

impl Kind {
    /// The values whose arithmetic mean this kind's mean is a function of,
    /// on which its interval and tests are taken: the reciprocals for the
    /// harmonic mean (H = 1 / mean(1/x)), the values otherwise.
    pub fn scale(self, xs: &[f64]) -> Vec<f64> {
        match self {
            Kind::Hmean => xs.iter().map(|x| 1.0 / x).collect(),
            _ => xs.to_vec(),
        }
    }

    /// The ratio mean(cmp) / mean(base) of this kind's means with its
    /// Fieller interval (for the harmonic mean, mean(1/base) /
    /// mean(1/cmp)), and Welch's test on the kind's scale ([`Kind::scale`]):
    /// one estimator, one interval and one test of significance for the
    /// headline and the detail tables.
    pub fn change(
        self,
        base: &[f64],
        cmp: &[f64],
    ) -> (Option<stats::RatioCi>, Option<stats::TTest>) {
        let (b, c) = (self.scale(base), self.scale(cmp));
        let ratio = match self {
            Kind::Hmean => stats::fieller(&b, &c),
            _ => stats::fieller(&c, &b),
        };
        (ratio, stats::welch(&b, &c))
    }

    /// The row label of the text table (compare-kernels' first column).
    pub fn label(self) -> &'static str {
        match self {
            Kind::Amean => "Amean",
            Kind::Hmean => "Hmean",
            Kind::Rate => "Rate/s",
            Kind::PerRun => "PerRun",
            Kind::Ratio => "Ratio",
        }
    }
}

/// The fields of a workload's JSON line that describe the run, not its
/// outcome: never compared.
const PARAMS: &[&str] = &[
    "runtime_s",
    "message_threads",
    "workers",
    "think_us",
    "round_sleep_us",
    "warmup_s",
    "groups",
    "fds",
    "loops",
    "pairs",
    "work_us",
    "threads",
    "sleep_us",
    "spin_us",
    "samples",
    "transactions",
];

/// Metrics in the order the table shows them (others follow by name).
const ORDER: &[&str] = &[
    "p50",
    "p90",
    "p99",
    "p999",
    "min",
    "max",
    "req_p50",
    "req_p99",
    "waker_ns",
    "rps",
    "time_s",
    "tps",
    "loops_per_s",
    "oversleep_avg_us",
    "oversleep_max_us",
];

/// How a workload metric is averaged and which way is better; `None` for
/// a parameter.  Rates (rps, tps, `*_per_s`, ...) take the harmonic mean
/// and higher is better; everything else (latencies, times) the
/// arithmetic mean, lower better.
pub fn classify(name: &str) -> Option<(Kind, Better)> {
    if PARAMS.contains(&name) {
        return None;
    }
    let rate = matches!(name, "rps" | "tps" | "ops" | "throughput")
        || name.ends_with("_per_s")
        || name.ends_with("_rps")
        || name.ends_with("_tps");
    Some(if rate {
        (Kind::Hmean, Better::Higher)
    } else {
        (Kind::Amean, Better::Lower)
    })
}

fn order_key(name: &str) -> (usize, String) {
    (
        ORDER.iter().position(|&o| o == name).unwrap_or(ORDER.len()),
        name.to_string(),
    )
}

/// The runs of one state, reduced.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Sample {
    pub n: usize,
    pub mean: Option<f64>,
    pub stddev: Option<f64>,
    /// Half-width of the 95% confidence interval of `mean`.
    pub ci95: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub values: Vec<f64>,
}

impl Sample {
    pub fn new(values: Vec<f64>, kind: Kind) -> Sample {
        let (mean, ci95) = match kind {
            Kind::Hmean => (stats::hmean(&values), stats::ci95_hmean(&values)),
            _ => (stats::amean(&values), stats::ci95_amean(&values)),
        };
        Sample {
            n: values.len(),
            mean,
            stddev: stats::stddev(&values),
            ci95,
            min: values.iter().copied().reduce(f64::min),
            max: values.iter().copied().reduce(f64::max),
            values,
        }
    }
}

/// One quantity, baseline (off) against compare (on).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Comparison {
    pub name: String,
    pub kind: Kind,
    pub better: Better,
    pub baseline: Sample,
    pub compare: Sample,
    /// compare-kernels' percentage: positive is better (for counters:
    /// plain change); `None` when the baseline mean is 0 or unknown.
    pub diff_pct: Option<f64>,
    /// mean(compare) / mean(baseline), with Fieller's 95% interval.
    pub ratio: Option<stats::RatioCi>,
    /// Welch's two-sample t-test of compare against baseline, on the
    /// kind's scale (the reciprocals for Hmean: [`Kind::scale`]); `None`
    /// below two runs per state.
    pub welch: Option<stats::TTest>,
    /// The Welch test's p < 0.05; `None` below two runs per state.
    pub significant: Option<bool>,
}

impl Comparison {
    pub fn new(name: &str, kind: Kind, better: Better, base: Vec<f64>, cmp: Vec<f64>) -> Self {
        let baseline = Sample::new(base, kind);
        let compare = Sample::new(cmp, kind);
        let (ratio, welch) = kind.change(&baseline.values, &compare.values);
        let diff_pct = match (baseline.mean, compare.mean) {
            (Some(b), Some(c)) => stats::pct_diff(b, c, better),
            _ => None,
        };
        let significant = welch.map(|t| t.p < 0.05);
        Comparison {
            name: name.to_string(),
            kind,
            better,
            baseline,
            compare,
            diff_pct,
            ratio,
            welch,
            significant,
        }
    }
}

/// A counter ratio asked for with `--ratio NAME=NUM/DEN`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    pub name: String,
    pub num: String,
    pub den: String,
}

impl std::str::FromStr for Ratio {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("bad ratio '{s}' (want NAME=NUMERATOR/DENOMINATOR counters)");
        let (name, rest) = s.split_once('=').ok_or_else(bad)?;
        let (num, den) = rest.split_once('/').ok_or_else(bad)?;
        if [name, num, den].iter().any(|x| x.trim().is_empty()) {
            return Err(bad());
        }
        Ok(Ratio {
            name: name.trim().into(),
            num: num.trim().into(),
            den: den.trim().into(),
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct WorkloadSummary {
    pub workload: String,
    pub cmd: String,
    pub runs_on: usize,
    pub runs_off: usize,
    /// Runs that reported an error (left out of the statistics).
    pub failed: usize,
    pub metrics: Vec<Comparison>,
    /// Counters per second of run, then `--ratio` ratios.
    pub counters: Vec<Comparison>,
    /// The same counters as means per run.
    pub counters_per_run: Vec<Comparison>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CaseSummary {
    pub case: String,
    pub feature: String,
    pub feature_missing: bool,
    pub workloads: Vec<WorkloadSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// "tcg" or "icount" (or what the caller said).
    pub clock: String,
    pub meta: Map<String, Value>,
    pub end: Option<Value>,
    /// Per case, the prefixes of the counters that are its mechanism's
    /// (the meta line's "focus"); the table and plots show those.
    pub focus: BTreeMap<String, Vec<String>>,
    /// The counter ratios computed.
    pub ratios: Vec<Ratio>,
    pub cases: Vec<CaseSummary>,
}

impl Summary {
    /// The counters of `case` worth showing: those matching its focus
    /// prefixes, and every ratio; all of them when `all`, when the case
    /// has no focus or when none matches.
    pub fn shown<'a>(&self, case: &str, cs: &'a [Comparison], all: bool) -> Vec<&'a Comparison> {
        let Some(prefixes) = self.focus.get(case).filter(|p| !all && !p.is_empty()) else {
            return cs.iter().collect();
        };
        let hit = |name: &str| prefixes.iter().any(|p| name.starts_with(p.as_str()));
        // A ratio is the case's when its numerator or its denominator is.
        let ratio_hit = |c: &Comparison| {
            self.ratios
                .iter()
                .any(|r| r.name == c.name && (hit(&r.num) || hit(&r.den)))
        };
        if !cs.iter().any(|c| c.kind != Kind::Ratio && hit(&c.name)) {
            return cs.iter().collect();
        }
        cs.iter()
            .filter(|c| {
                if c.kind == Kind::Ratio {
                    ratio_hit(c)
                } else {
                    hit(&c.name)
                }
            })
            .collect()
    }
}

/// The ratios the meta line asks for ("ratios": "NAME=NUM/DEN ...");
/// malformed ones are left out.
pub fn meta_ratios(meta: &Map<String, Value>) -> Vec<Ratio> {
    meta.get("ratios")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|r| r.parse().ok())
        .collect()
}

fn workload_summary(runs: &[&Run], ratios: &[Ratio]) -> WorkloadSummary {
    let ok: Vec<&Run> = runs.iter().copied().filter(|r| r.error.is_none()).collect();
    let of = |s: State| -> Vec<&Run> { ok.iter().copied().filter(|r| r.state == s).collect() };
    let (on, off) = (of(State::On), of(State::Off));

    let mut names: Vec<&String> = ok.iter().flat_map(|r| r.metrics.keys()).collect();
    names.sort_by_key(|n| order_key(n));
    names.dedup();
    let metrics = names
        .into_iter()
        .filter_map(|n| {
            let (kind, better) = classify(n)?;
            let vals = |rs: &[&Run]| -> Vec<f64> {
                rs.iter()
                    .filter_map(|r| r.metrics.get(n).copied())
                    .collect()
            };
            Some(Comparison::new(n, kind, better, vals(&off), vals(&on)))
        })
        .collect();

    let mut cnames: Vec<&String> = ok.iter().flat_map(|r| r.counters.keys()).collect();
    cnames.sort();
    cnames.dedup();
    // A run without a counter that others have counted 0 of it.
    let count = |r: &Run, n: &str| r.counters.get(n).copied().unwrap_or(0.0);
    let rate = |rs: &[&Run], n: &str| -> Vec<f64> {
        rs.iter()
            .filter(|r| r.duration_s > 0.0)
            .map(|r| count(r, n) / r.duration_s)
            .collect()
    };
    let per_run = |rs: &[&Run], n: &str| -> Vec<f64> { rs.iter().map(|r| count(r, n)).collect() };
    // A level the kernel keeps (kstat.max_*, e.g. max_newidle_lb_cost) is
    // compared as it was at the end of the run, not per second.
    let level = |n: &str| n.starts_with("kstat.max_");
    let mut counters: Vec<Comparison> = cnames
        .iter()
        .map(|n| {
            if level(n) {
                let (b, c) = (per_run(&off, n), per_run(&on, n));
                Comparison::new(n, Kind::PerRun, Better::Neither, b, c)
            } else {
                Comparison::new(n, Kind::Rate, Better::Neither, rate(&off, n), rate(&on, n))
            }
        })
        .collect();
    let counters_per_run = cnames
        .iter()
        .map(|n| {
            Comparison::new(
                n,
                Kind::PerRun,
                Better::Neither,
                per_run(&off, n),
                per_run(&on, n),
            )
        })
        .collect();
    for q in ratios {
        let has = ok
            .iter()
            .any(|r| r.counters.contains_key(&q.num) && r.counters.contains_key(&q.den));
        if !has {
            continue;
        }
        let vals = |rs: &[&Run]| -> Vec<f64> {
            rs.iter()
                .filter_map(|r| {
                    let d = count(r, &q.den);
                    (d != 0.0).then(|| count(r, &q.num) / d)
                })
                .collect()
        };
        counters.push(Comparison::new(
            &q.name,
            Kind::Ratio,
            Better::Neither,
            vals(&off),
            vals(&on),
        ));
    }

    WorkloadSummary {
        workload: runs[0].workload.clone(),
        cmd: runs
            .iter()
            .map(|r| r.cmd.as_str())
            .find(|c| !c.is_empty())
            .unwrap_or("")
            .to_string(),
        runs_on: on.len(),
        runs_off: off.len(),
        failed: runs.len() - ok.len(),
        metrics,
        counters,
        counters_per_run,
    }
}

/// Groups the runs by case and workload (in the order they first appear)
/// and compares the states.
pub fn summarize(input: &Input, clock: &str, ratios: &[Ratio]) -> Summary {
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for r in &input.runs {
        match cases.iter_mut().find(|(c, _)| *c == r.case) {
            Some((_, ws)) => {
                if !ws.contains(&r.workload) {
                    ws.push(r.workload.clone());
                }
            }
            None => cases.push((r.case.clone(), vec![r.workload.clone()])),
        }
    }
    let cases = cases
        .into_iter()
        .map(|(case, workloads)| {
            let of_case: Vec<&Run> = input.runs.iter().filter(|r| r.case == case).collect();
            CaseSummary {
                feature: of_case[0].feature.clone(),
                feature_missing: of_case.iter().any(|r| r.feature_missing),
                workloads: workloads
                    .iter()
                    .map(|w| {
                        let rs: Vec<&Run> = of_case
                            .iter()
                            .copied()
                            .filter(|r| &r.workload == w)
                            .collect();
                        workload_summary(&rs, ratios)
                    })
                    .collect(),
                case,
            }
        })
        .collect();
    let focus = input
        .meta
        .get("focus")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| {
                    let p = v.as_str()?.split_whitespace().map(str::to_string).collect();
                    Some((k.clone(), p))
                })
                .collect()
        })
        .unwrap_or_default();
    Summary {
        clock: clock.to_string(),
        meta: input.meta.clone(),
        end: input.end.clone(),
        focus,
        ratios: ratios.to_vec(),
        cases,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse;

    fn line(
        state: &str,
        iter: u32,
        p50: f64,
        rps: f64,
        calls: f64,
        scans: f64,
        dur: f64,
    ) -> String {
        format!(
            r#"RESULT {{"case":"c","feature":"F","feature_missing":false,"state":"{state}","iter":{iter},"workload":"wakelat","cmd":"wakelat -j","metrics":{{"bench":"wakelat","p50":{p50},"rps":{rps},"samples":100,"runtime_s":1}},"counters":{{"calls":{calls},"scans":{scans}}},"duration_s":{dur}}}"#
        )
    }

    #[test]
    fn classify_metrics() {
        assert_eq!(classify("p99"), Some((Kind::Amean, Better::Lower)));
        assert_eq!(classify("time_s"), Some((Kind::Amean, Better::Lower)));
        assert_eq!(classify("rps"), Some((Kind::Hmean, Better::Higher)));
        assert_eq!(classify("tps"), Some((Kind::Hmean, Better::Higher)));
        assert_eq!(classify("loops_per_s"), Some((Kind::Hmean, Better::Higher)));
        assert_eq!(classify("samples"), None);
        assert_eq!(classify("runtime_s"), None);
    }

    #[test]
    fn summarizes_states_counters_and_ratios() {
        let text = [
            line("on", 1, 10.0, 100.0, 20.0, 4.0, 2.0),
            line("off", 1, 20.0, 50.0, 0.0, 0.0, 2.0),
            line("off", 2, 22.0, 60.0, 0.0, 0.0, 2.0),
            line("on", 2, 12.0, 300.0, 40.0, 10.0, 4.0),
        ]
        .join("\n");
        let inp = parse(&text).unwrap();
        let ratio: Ratio = "calls_per_scan=calls/scans".parse().unwrap();
        let s = summarize(&inp, "tcg", &[ratio]);
        assert_eq!(s.clock, "tcg");
        assert_eq!(s.cases.len(), 1);
        let w = &s.cases[0].workloads[0];
        assert_eq!((w.runs_on, w.runs_off, w.failed), (2, 2, 0));
        let names: Vec<&str> = w.metrics.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(
            names,
            ["p50", "rps"],
            "parameters and strings left out, known order"
        );

        let p50 = &w.metrics[0];
        assert_eq!(p50.kind, Kind::Amean);
        assert_eq!(p50.baseline.mean, Some(21.0));
        assert_eq!(p50.compare.mean, Some(11.0));
        // 21 -> 11, lower is better: +47.62%
        assert!((p50.diff_pct.unwrap() - 47.619).abs() < 1e-3);

        let rps = &w.metrics[1];
        assert_eq!(rps.kind, Kind::Hmean);
        // Hmean(100, 300) = 150; Hmean(50, 60) = 600/11
        assert!((rps.compare.mean.unwrap() - 150.0).abs() < 1e-9);
        assert!((rps.baseline.mean.unwrap() - 600.0 / 11.0).abs() < 1e-9);

        // Counters: per second (20/2, 40/4 = 10, 10) and per run (20, 40).
        let calls = &w.counters[0];
        assert_eq!((calls.name.as_str(), calls.kind), ("calls", Kind::Rate));
        assert_eq!(calls.compare.mean, Some(10.0));
        assert_eq!(calls.baseline.mean, Some(0.0));
        assert_eq!(calls.diff_pct, None, "no percentage against 0");
        assert_eq!(w.counters_per_run[0].compare.mean, Some(30.0));
        // Moves when on, flat when off: significant.
        assert_eq!(calls.significant, Some(true));
        // The ratio: off runs have scans == 0 and are left out.
        let r = w
            .counters
            .iter()
            .find(|c| c.name == "calls_per_scan")
            .unwrap();
        assert_eq!(r.kind, Kind::Ratio);
        assert_eq!(r.baseline.n, 0);
        assert_eq!(r.compare.mean, Some((5.0 + 4.0) / 2.0));
    }

    #[test]
    fn failed_runs_are_counted_and_left_out() {
        let mut text = line("on", 1, 10.0, 100.0, 1.0, 1.0, 1.0);
        text.push('\n');
        text.push_str(r#"RESULT {"case":"c","feature":"F","state":"off","iter":1,"workload":"wakelat","metrics":{},"counters":{},"duration_s":0.1,"error":"exit 1"}"#);
        let s = summarize(&parse(&text).unwrap(), "icount", &[]);
        let w = &s.cases[0].workloads[0];
        assert_eq!((w.runs_on, w.runs_off, w.failed), (1, 0, 1));
        assert_eq!(w.metrics[0].baseline.n, 0);
        assert_eq!(w.metrics[0].diff_pct, None);
        assert_eq!(w.metrics[0].significant, None);
    }

    #[test]
    fn focus_and_meta_ratios() {
        let text = format!(
            "RESULT {{\"meta\":{{\"focus\":{{\"c\":\"sca x_\"}},\"ratios\":\"r=calls/scans q=scans/calls bad\"}}}}\n{}\n{}",
            line("on", 1, 1.0, 1.0, 2.0, 1.0, 1.0),
            line("off", 1, 1.0, 1.0, 2.0, 1.0, 1.0)
        );
        let inp = parse(&text).unwrap();
        let ratios = meta_ratios(&inp.meta);
        assert_eq!(ratios.len(), 2);
        assert_eq!(
            ratios[0],
            Ratio {
                name: "r".into(),
                num: "calls".into(),
                den: "scans".into()
            }
        );
        let s = summarize(&inp, "tcg", &ratios);
        assert_eq!(s.focus["c"], ["sca", "x_"]);
        let w = &s.cases[0].workloads[0];
        let names = |v: Vec<&Comparison>| v.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
        // The case's counters, and the ratios with one of them as their
        // numerator (q) or denominator (r).
        assert_eq!(names(s.shown("c", &w.counters, false)), ["scans", "r", "q"]);
        assert_eq!(
            names(s.shown("c", &w.counters, true)),
            ["calls", "scans", "r", "q"]
        );
        assert_eq!(
            names(s.shown("other", &w.counters, false)),
            ["calls", "scans", "r", "q"]
        );
        // A focus that matches nothing shows everything.
        let mut s2 = s.clone();
        s2.focus.insert("c".into(), vec!["nomatch".into()]);
        assert_eq!(
            names(s2.shown("c", &w.counters, false)),
            ["calls", "scans", "r", "q"]
        );
    }

    #[test]
    fn ratio_syntax() {
        assert_eq!(
            "g=a/b".parse::<Ratio>(),
            Ok(Ratio {
                name: "g".into(),
                num: "a".into(),
                den: "b".into()
            })
        );
        assert!("g=a".parse::<Ratio>().is_err());
        assert!("a/b".parse::<Ratio>().is_err());
        assert!("g=/b".parse::<Ratio>().is_err());
    }
}
