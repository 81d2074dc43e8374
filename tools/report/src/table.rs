// SPDX-License-Identifier: GPL-2.0
//! The text table, laid out like mmtests' compare-kernels:
//!
//! ```text
//!                                  NO_RUST_LB                RUST_LB
//! Amean    p50        333.80 (   0.00%)       300.10 (  10.10%)
//! Hmean    rps        525.50 (   0.00%)       630.00 *  19.89%*
//! ```
//!
//! The baseline column is the feature off, the compare column on.  The
//! percentage is signed so that positive is better (counters: the plain
//! change); `*x.xx%*` in place of the parentheses marks a significant
//! difference.

use crate::summary::{CaseSummary, Comparison, Kind, Summary, WorkloadSummary};
use serde_json::Value;
use std::fmt::Write;

/// Which counter figures the table shows (the JSON has both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterView {
    PerSecond,
    PerRun,
}

/// What the table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub counters: CounterView,
    /// Every counter, not only the case's own (its focus).
    pub all_counters: bool,
}

impl Default for View {
    fn default() -> Self {
        View {
            counters: CounterView::PerSecond,
            all_counters: false,
        }
    }
}

/// Digits after the point: 4 for small values (times in s), else 2.
pub fn decimals(c: &Comparison) -> usize {
    let m = [c.baseline.mean, c.compare.mean]
        .iter()
        .flatten()
        .fold(0.0_f64, |a, x| a.max(x.abs()));
    if m < 10.0 {
        4
    } else {
        2
    }
}

/// The 10-character percentage: `(   1.23%)`, `*   1.23%*` when
/// significant, `(    n/a )` without one.
pub fn pct_cell(pct: Option<f64>, significant: bool) -> String {
    let (open, close) = if significant { ('*', '*') } else { ('(', ')') };
    match pct {
        // No "-0.00": a change that rounds to zero is zero.
        Some(p) if p.abs() < 0.005 => format!("{open}{:>7.2}%{close}", 0.0),
        Some(p) => format!("{open}{p:>7.2}%{close}"),
        None => format!("{open}{:>7} {close}", "n/a"),
    }
}

fn value_str(x: Option<f64>, dec: usize) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{x:.dec$}"),
        _ => "-".to_string(),
    }
}

/// One row: label, name, then baseline and compare cells.
pub fn row(c: &Comparison, name_w: usize, val_w: usize) -> String {
    let dec = decimals(c);
    let base_pct = if c.baseline.mean.is_some() {
        Some(0.0)
    } else {
        None
    };
    format!(
        "{:<8} {:<name_w$} {:>val_w$} {}  {:>val_w$} {}",
        c.kind.label(),
        c.name,
        value_str(c.baseline.mean, dec),
        pct_cell(base_pct, false),
        value_str(c.compare.mean, dec),
        pct_cell(c.diff_pct, c.significant == Some(true)),
    )
}

fn meta_str(s: &Summary, k: &str) -> Option<String> {
    match s.meta.get(k)? {
        Value::String(x) if x.is_empty() => None,
        Value::String(x) => Some(x.clone()),
        v => Some(v.to_string()),
    }
}

/// What a clock name means, for the header.
pub fn clock_note(clock: &str) -> &'static str {
    match clock {
        "tcg" => "TCG (tcg_threads in the meta line: single or multi): guest time follows the host's clock, so load on the host is noise; latencies include the emulator's scheduling of its vCPUs (the floor line); an effect needs KVM or hardware to be confirmed in time",
        "icount" => "QEMU -icount shift=0,sleep=off: guest time counts instructions, independent of host load; it shows what the code executes, not cache or memory effects (a cache miss costs what a hit costs): an effect that lives in cache lines needs KVM or hardware to be confirmed",
        "kvm" => "KVM: guest time is host time",
        _ => "unknown",
    }
}

fn header(s: &Summary, out: &mut String) {
    let _ = writeln!(out, "sched-rust-lb A/B report");
    let _ = writeln!(out, "clock: {} ({})", s.clock, clock_note(&s.clock));
    let mut machine = Vec::new();
    if let Some(k) = meta_str(s, "kernel") {
        machine.push(format!("kernel {k}"));
    }
    if let Some(c) = meta_str(s, "cpus") {
        machine.push(format!("{c} CPUs"));
    }
    if let Some(t) = meta_str(s, "topology") {
        machine.push(format!("topology {t}"));
    }
    if let (Some(i), Some(d)) = (meta_str(s, "iterations"), meta_str(s, "duration_s")) {
        let w = meta_str(s, "warmup_s")
            .map(|w| format!(" (wakelat warmup {w} s)"))
            .unwrap_or_default();
        machine.push(format!("{i} iterations x {d} s per state{w}"));
    }
    if !machine.is_empty() {
        let _ = writeln!(out, "{}", machine.join(", "));
    }
    if let Some(e) = &s.end {
        if let (Some(r), Some(t)) = (e.get("runs"), e.get("elapsed_s").and_then(Value::as_f64)) {
            let f = e.get("failed").and_then(Value::as_u64).unwrap_or(0);
            let _ = writeln!(out, "{r} runs ({f} failed) in {t:.0} s of guest time");
        }
    }
    let _ = writeln!(
        out,
        "baseline = feature off (NO_<FEATURE>), compare = on (<FEATURE>), runs interleaved on one boot\n\
         Amean/Hmean: arithmetic/harmonic mean of the runs (latencies in usec, times in s)\n\
         (x.xx%): compare against baseline, positive = better (counters: plain change)\n\
         *x.xx%*: significant, Welch's t-test p < 0.05 on the mean's scale (of 1/x for Hmean)\n\
         Rate/s: counter per second of run; PerRun: counter per run; Ratio: counters' ratio per run"
    );
}

fn workload(s: &Summary, c: &CaseSummary, w: &WorkloadSummary, view: View, out: &mut String) {
    let counters = match view.counters {
        CounterView::PerSecond => &w.counters,
        CounterView::PerRun => &w.counters_per_run,
    };
    let mut counters = s.shown(&c.case, counters, view.all_counters);
    if view.counters == CounterView::PerRun {
        counters.extend(w.counters.iter().filter(|x| x.kind == Kind::Ratio));
    }
    let rows: Vec<&Comparison> = w.metrics.iter().chain(counters.iter().copied()).collect();
    let mut head = format!("--- {}", w.workload);
    if !w.cmd.is_empty() {
        let _ = write!(head, ": {}", w.cmd);
    }
    let _ = write!(head, "  ({} off, {} on", w.runs_off, w.runs_on);
    if w.failed > 0 {
        let _ = write!(head, ", {} failed runs left out", w.failed);
    }
    let _ = writeln!(out, "{head})");
    if rows.is_empty() {
        let _ = writeln!(out, "(no data)");
        return;
    }
    let name_w = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(12);
    let val_w = rows
        .iter()
        .flat_map(|r| {
            let d = decimals(r);
            [
                value_str(r.baseline.mean, d).len(),
                value_str(r.compare.mean, d).len(),
            ]
        })
        .max()
        .unwrap_or(0)
        .max(10);
    let cell_w = val_w + 11;
    let _ = writeln!(
        out,
        "{:<8} {:<name_w$} {:>cell_w$}  {:>cell_w$}",
        "",
        "",
        format!("NO_{}", c.feature),
        c.feature
    );
    for r in &w.metrics {
        let _ = writeln!(out, "{}", row(r, name_w, val_w));
    }
    for r in rows.iter().skip(w.metrics.len()) {
        let _ = writeln!(out, "{}", row(r, name_w, val_w));
    }
    if counters.is_empty() {
        let why = match s.meta.get("counters_file").and_then(Value::as_bool) {
            Some(false) => "this kernel has no /sys/kernel/debug/sched/rust_lb",
            _ => "none reported",
        };
        let _ = writeln!(out, "(counters: {why})");
    }
}

/// The whole table.
pub fn render(s: &Summary, view: View) -> String {
    let mut out = String::new();
    header(s, &mut out);
    if !view.all_counters && !s.focus.is_empty() {
        let _ = writeln!(
            out,
            "Counters: each case's own mechanism's (report --all-counters, or report.json, for all)"
        );
    }
    for c in &s.cases {
        let _ = write!(out, "\n=== {}: {}", c.case, c.feature);
        if c.feature_missing {
            let _ = write!(
                out,
                " -- feature missing in this kernel: on = off, an A/A run (the noise)"
            );
        }
        let _ = writeln!(out, " ===");
        for w in &c.workloads {
            workload(s, c, w, view, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse;
    use crate::stats::Better;
    use crate::summary::summarize;

    #[test]
    fn percentage_cells() {
        assert_eq!(pct_cell(Some(0.0), false), "(   0.00%)");
        assert_eq!(pct_cell(Some(-5.0), false), "(  -5.00%)");
        assert_eq!(pct_cell(Some(-0.001), false), "(   0.00%)");
        assert_eq!(pct_cell(Some(19.888), true), "*  19.89%*");
        assert_eq!(pct_cell(None, false), "(    n/a )");
        assert_eq!(pct_cell(None, true), "*    n/a *");
        for c in [
            pct_cell(Some(1.0), true),
            pct_cell(None, false),
            pct_cell(Some(-99.99), false),
        ] {
            assert_eq!(c.len(), 10, "{c}");
        }
    }

    #[test]
    fn rows_like_compare_kernels() {
        let c = Comparison::new(
            "p50",
            Kind::Amean,
            Better::Lower,
            vec![100.0, 101.0, 99.0],
            vec![90.0, 91.0, 89.0],
        );
        assert_eq!(
            row(&c, 6, 10),
            "Amean    p50        100.00 (   0.00%)       90.00 *  10.00%*"
        );
        let c = Comparison::new(
            "rps",
            Kind::Hmean,
            Better::Higher,
            vec![40.0, 60.0],
            vec![45.0, 55.0],
        );
        // Hmean 48 -> 49.5: +3.13%, not significant with two wide runs.
        assert_eq!(
            row(&c, 6, 10),
            "Hmean    rps         48.00 (   0.00%)       49.50 (   3.13%)"
        );
        let c = Comparison::new("time_s", Kind::Amean, Better::Lower, vec![1.5], vec![1.25]);
        assert_eq!(
            row(&c, 6, 10),
            "Amean    time_s     1.5000 (   0.00%)      1.2500 (  16.67%)"
        );
        let c = Comparison::new("calls", Kind::Rate, Better::Neither, vec![], vec![3.0, 3.0]);
        assert_eq!(
            row(&c, 6, 10),
            "Rate/s   calls           - (    n/a )      3.0000 (    n/a )"
        );
    }

    #[test]
    fn render_whole_report() {
        let text = r#"RESULT {"meta":{"kernel":"6.12.117","cpus":8,"topology":"sockets=2","iterations":2,"duration_s":1,"counters_file":false}}
RESULT {"case":"rust_lb","feature":"RUST_LB","state":"on","iter":1,"workload":"msgbench","cmd":"msgbench -l 10 -j","metrics":{"time_s":1.0,"loops":10},"counters":{},"duration_s":1.1}
RESULT {"case":"rust_lb","feature":"RUST_LB","state":"off","iter":1,"workload":"msgbench","cmd":"msgbench -l 10 -j","metrics":{"time_s":1.2,"loops":10},"counters":{},"duration_s":1.3}
RESULT {"case":"ilb_util","feature":"ILB_UTIL","feature_missing":true,"state":"on","iter":1,"workload":"idlewake","metrics":{"loops_per_s":1000.0},"counters":{},"duration_s":1}
RESULT {"case":"ilb_util","feature":"ILB_UTIL","feature_missing":true,"state":"off","iter":1,"workload":"idlewake","metrics":{"loops_per_s":800.0},"counters":{},"duration_s":1}
RESULT {"end":{"runs":4,"failed":0,"elapsed_s":4.6}}"#;
        let s = summarize(&parse(text).unwrap(), "icount", &[]);
        let t = render(&s, View::default());
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "sched-rust-lb A/B report");
        assert!(
            lines[1].starts_with("clock: icount (QEMU -icount"),
            "{}",
            lines[1]
        );
        assert!(
            t.contains(
                "kernel 6.12.117, 8 CPUs, topology sockets=2, 2 iterations x 1 s per state\n"
            ),
            "{t}"
        );
        assert!(
            t.contains("4 runs (0 failed) in 5 s of guest time\n"),
            "{t}"
        );
        assert!(
            t.contains(
                "\n=== rust_lb: RUST_LB ===\n--- msgbench: msgbench -l 10 -j  (1 off, 1 on)\n"
            ),
            "{t}"
        );
        assert!(
            t.contains("=== ilb_util: ILB_UTIL -- feature missing in this kernel"),
            "{t}"
        );
        // 1.2 -> 1.0 s: +16.67%; 800 -> 1000 loops/s: +25%
        let time = lines
            .iter()
            .find(|l| l.starts_with("Amean    time_s"))
            .unwrap();
        assert!(
            time.ends_with("1.2000 (   0.00%)      1.0000 (  16.67%)"),
            "{time}"
        );
        let lps = lines
            .iter()
            .find(|l| l.starts_with("Hmean    loops_per_s"))
            .unwrap();
        assert!(
            lps.ends_with("800.00 (   0.00%)     1000.00 (  25.00%)"),
            "{lps}"
        );
        assert!(
            !t.contains("Amean    loops "),
            "parameters are not compared"
        );
        assert!(t.contains("(counters: this kernel has no /sys/kernel/debug/sched/rust_lb)"));
        // The column header sits right-aligned over the cells.
        let hdr = lines
            .iter()
            .position(|l| l.trim_start().starts_with("NO_RUST_LB"))
            .unwrap();
        assert_eq!(
            lines[hdr].len(),
            lines[hdr + 1].len(),
            "{}\n{}",
            lines[hdr],
            lines[hdr + 1]
        );
        assert!(lines[hdr].ends_with("  RUST_LB"));
    }
}
